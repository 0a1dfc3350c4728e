//! Help, completions and man pages (issue 22 item 3): every closed set of values in `--help`
//! and in the completions, a full page for the program and every command, and the README's
//! install lines run as written on a fresh account (a temporary HOME).

use std::path::Path;
use std::process::{Command, Output};

use pdn::app::judge::diagnostic::{Code, Severity};
use pdn::rules::{DrawRule, Variant};

fn pdn() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
}

fn run(args: &[&str]) -> Output {
    pdn().args(args).output().expect("run pdn")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8")
}

/// The commands `pdn --help` lists, but `help`.
fn commands() -> Vec<String> {
    let help = stdout(&run(&["--help"]));
    let list = help.split("Commands:").nth(1).unwrap();
    list.lines()
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // (A long description goes on indented on the next line.)
        .filter(|l| !l.starts_with("   "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .filter(|c| c != "help")
        .collect()
}

/// The names that `--help` and the completions offer parse back to what they name (variants
/// also by GameType number and by alias), and the codes have DESIGN.md's severities.
#[test]
fn the_listed_names_parse_back() {
    for v in Variant::ALL {
        assert_eq!(v.name().parse::<Variant>(), Ok(v));
        assert_eq!(v.game_type().to_string().parse::<Variant>(), Ok(v));
        assert_eq!(v.rules().variant, v);
    }
    assert_eq!("American".parse::<Variant>(), Ok(Variant::English));
    assert!("chess".parse::<Variant>().is_err());
    for c in Code::ALL {
        assert_eq!(c.as_str().parse::<Code>(), Ok(c));
    }
    assert_eq!(Code::DrawRule.severity(), Severity::Warning);
    assert_eq!(Code::Tolerated.severity(), Severity::Info);
    assert_eq!(Code::MissedCapture.severity(), Severity::Error);
}

#[test]
fn help_lists_the_variants_codes_severities_and_formats() {
    let help = stdout(&run(&["validate", "--help"]));
    for v in Variant::ALL {
        assert!(help.contains(&format!("- {}:", v.name())), "{}", v.name());
    }
    for alias in ["american", "checkers", "shashki", "GameType 21"] {
        assert!(help.contains(alias), "{alias}");
    }
    for c in Code::ALL {
        assert!(
            help.contains(&format!("- {}:", c.as_str())),
            "{}",
            c.as_str()
        );
    }
    for value in [
        "error", "warning", "info", "human", "short", "json", "always", "never",
    ] {
        assert!(help.contains(&format!("- {value}:")), "{value}");
    }
    // No -v for --variant; the variants of perft too.
    assert!(!help.contains("-v,"));
    assert_eq!(
        run(&["validate", "-v", "english", "-"]).status.code(),
        Some(2)
    );
    assert!(stdout(&run(&["perft", "--help"])).contains("- breakthrough:"));
    // Read as leniently as a GameType: aliases, numbers, any case.
    for v in ["american", "21", "English", "checkers"] {
        let o = run(&["perft", "--variant", v, "--depth", "1"]);
        assert_eq!(o.status.code(), Some(0), "{v}");
        assert!(stdout(&o).contains('7'), "English has 7 first moves: {v}");
    }
    let o = run(&["perft", "--variant", "chess", "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("invalid value 'chess'") && err.contains("international"),
        "{err}"
    );
}

#[test]
fn bash_completion_offers_the_closed_sets() {
    if !Path::new("/bin/bash").exists() && !Path::new("/usr/bin/bash").exists() {
        panic!("bash is needed to run the completion script");
    }
    let script = stdout(&run(&["completions", "bash"]));
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("pdn.bash");
    std::fs::write(&path, script).unwrap();
    // Complete `pdn WORDS… CUR` as bash would, and print the offers.
    let complete = |words: &[&str]| -> Vec<String> {
        let line = words.join(" ");
        let array: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        let program = format!(
            "source '{}'; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}; \
             _pdn pdn '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            path.display(),
            array.join(" "),
            words.len() - 1,
            words.last().unwrap(),
            words[words.len() - 2],
        );
        let o = Command::new("bash")
            .args(["--norc", "-c", &program])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        stdout(&o).lines().map(String::from).collect()
    };
    let all: Vec<String> = Variant::ALL.iter().map(|v| v.name().to_string()).collect();
    assert_eq!(complete(&["pdn", "validate", "--variant", ""]), all);
    assert_eq!(
        complete(&["pdn", "stats", "--variant", "fr"]),
        ["frisian", "frysk"]
    );
    assert_eq!(complete(&["pdn", "perft", "--variant", "ca"]), ["canadian"]);
    assert_eq!(
        complete(&["pdn", "validate", "--min-severity", ""]),
        ["error", "warning", "info"]
    );
    assert_eq!(
        complete(&["pdn", "validate", "--deny", "draw"]),
        ["draw-rule"]
    );
    assert_eq!(
        complete(&["pdn", "validate", "--color", "a"]),
        ["auto", "always"]
    );
    assert_eq!(complete(&["pdn", "completions", "fi"]), ["fish"]);
    assert!(complete(&["pdn", "man", ""]).contains(&"validate".to_string()));
}

#[test]
fn every_command_has_a_full_man_page() {
    let commands = commands();
    assert!(commands.len() >= 7, "{commands:?}");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("man/man1");
    let o = run(&["man", "--out-dir", dir.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut want: Vec<String> = commands.iter().map(|c| format!("pdn-{c}.1")).collect();
    want.push("pdn.1".into());
    want.sort();
    assert_eq!(names, want, "a page for the program and for every command");
    for (page, args) in std::iter::once(("pdn".to_string(), vec!["man"])).chain(
        commands
            .iter()
            .map(|c| (format!("pdn-{c}"), vec!["man", c.as_str()])),
    ) {
        let roff = stdout(&run(&args));
        assert_eq!(
            roff,
            std::fs::read_to_string(dir.join(format!("{page}.1"))).unwrap(),
            "{page}: printed and written alike"
        );
        assert!(
            roff.contains(&format!(".TH {} 1", page.to_uppercase())),
            "{page}"
        );
        for section in [
            "NAME",
            "SYNOPSIS",
            "DESCRIPTION",
            "OPTIONS",
            "\"EXIT STATUS\"",
            "ENVIRONMENT",
            "EXAMPLES",
            "\"SEE ALSO\"",
        ] {
            assert!(
                roff.contains(&format!("\n.SH {section}\n")),
                "{page}: {section}"
            );
        }
        // Every other page is named, and only pages that exist.
        let see_also = roff.split(".SH \"SEE ALSO\"").nth(1).unwrap();
        for other in want.iter().map(|n| n.trim_end_matches(".1")) {
            let named = see_also.contains(&format!("{}(1)", other.replace('-', "\\-")));
            assert_eq!(named, other != page, "{page}: {other}");
        }
    }
    let validate = stdout(&run(&["man", "validate"]));
    assert!(validate.contains("\\-\\-min\\-severity"));
    assert!(validate.contains("breakthrough"));
    // The program's page lists the commands.
    let top = stdout(&run(&["man"]));
    for c in &commands {
        assert!(top.contains(&format!("pdn\\-{c}(1)")), "{c}");
    }
    assert_eq!(run(&["man", "nosuch"]).status.code(), Some(2));
}

/// The README's install block, run line by line with `sh -e` on a fresh account: a
/// temporary HOME with nothing in it. `cargo install --path .` is stood in for by a `cargo`
/// that copies the binary under test to ~/.cargo/bin (building the release binary again
/// would take minutes); every other line runs as written.
#[test]
fn the_readme_install_lines_work_on_a_fresh_account() {
    let readme = include_str!("../../README.md");
    let block = readme
        .split("```sh\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .find(|b| b.contains("cargo install"))
        .expect("an install block in the README");
    let lines: Vec<&str> = block
        .lines()
        .map(|l| l.split(" # ").next().unwrap().trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    assert!(
        lines.iter().any(|l| l.contains("completions bash")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains("pdn man")), "{lines:?}");
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let fake = tmp.path().join("bin");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&fake).unwrap();
    let cargo = fake.join("cargo");
    std::fs::write(
        &cargo,
        format!(
            "#!/bin/sh\nset -e\n[ \"$1 $2 $3\" = \"install --path .\" ] || {{ echo \"unexpected: cargo $*\" >&2; exit 1; }}\n\
             mkdir -p \"$HOME/.cargo/bin\"\ncp '{}' \"$HOME/.cargo/bin/pdn\"\n",
            env!("CARGO_BIN_EXE_pdn")
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    // What a login shell of a fresh account has: rustup's ~/.cargo/bin on the PATH.
    let path = format!(
        "{}:{}/.cargo/bin:/usr/local/bin:/usr/bin:/bin",
        fake.display(),
        home.display()
    );
    for line in &lines {
        let o = Command::new("sh")
            .args(["-ec", line])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env_clear()
            .env("HOME", &home)
            .env("PATH", &path)
            .env("LANG", "C.UTF-8")
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{line}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // The completion script where bash-completion looks for it, and it loads.
    let bash = home.join(".local/share/bash-completion/completions/pdn");
    let script = std::fs::read_to_string(&bash).expect("the bash completion installed");
    assert!(script.contains("_pdn()"));
    let o = Command::new("bash")
        .args([
            "--norc",
            "-c",
            &format!("source '{}' && complete -p pdn", bash.display()),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The man pages where man finds them from the PATH (~/.cargo/bin -> ~/.cargo/share/man).
    let pages = home.join(".cargo/share/man/man1");
    for page in ["pdn.1", "pdn-validate.1"] {
        assert!(pages.join(page).is_file(), "{page}");
    }
    if Path::new("/usr/bin/man").exists() {
        let o = Command::new("man")
            .args(["-w", "pdn-validate"])
            .env_clear()
            .env("HOME", &home)
            .env("PATH", &path)
            .output()
            .unwrap();
        assert_eq!(
            stdout(&o).trim(),
            pages.join("pdn-validate.1").to_str().unwrap(),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// The repository's root.
fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every file under `dir` with the extension `ext`.
fn files_with(dir: &Path, ext: &str, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a directory") {
        let p = e.expect("an entry").path();
        if p.is_dir() {
            files_with(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// GitHub's anchor of a Markdown heading: lower case, letters, digits, spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c.to_lowercase().next().unwrap_or(c)),
            _ => None,
        })
        .collect()
}

/// Every `docs/NAME.md` and `docs/NAME.md#anchor` that `text` names exists (`from`: where the
/// text comes from, for the message); links inside `docs/` are relative (`rules.md#…`).
fn check_links(text: &str, from: &str, relative: bool) {
    let prefix = if relative { "" } else { "docs/" };
    let mut rest = text;
    while let Some(k) = rest.find(".md") {
        let before = &rest[..k];
        let start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '/'))
            .map_or(0, |s| s + 1);
        let name = &before[start..];
        let after = &rest[k + 3..];
        rest = after;
        let Some(page) = name.strip_prefix(prefix) else {
            continue;
        };
        if page.is_empty() || page.contains('/') || (relative && name.starts_with("docs/")) {
            continue;
        }
        let path = root().join("docs").join(format!("{page}.md"));
        let Ok(md) = std::fs::read_to_string(&path) else {
            panic!("{from} names {prefix}{page}.md, which does not exist");
        };
        if let Some(frag) = after.strip_prefix('#') {
            let frag: String = frag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            let anchors: Vec<String> = md
                .lines()
                .filter_map(|l| l.strip_prefix('#'))
                .map(|h| anchor(h.trim_start_matches('#')))
                .collect();
            assert!(
                anchors.contains(&frag),
                "{from} names {prefix}{page}.md#{frag}: no such heading ({anchors:?})"
            );
        }
    }
}

/// Nothing `pdn` prints or installs, and nothing in its sources, names the design documents
/// that only its developers had (RULES.md, DESIGN.md): every citation points at a page of
/// `docs/`, and every page and heading named there exists. Every article a finding can cite
/// (every rule book article of every variant, every citation of the PDN standard) is listed
/// in `docs/rules.md` or `docs/pdn.md`, as are the citations of a real run.
#[test]
fn every_citation_points_into_docs() {
    let shared = ["RULES.md", "DESIGN.md"];
    let mut sources = Vec::new();
    files_with(&root().join("src"), "rs", &mut sources);
    assert!(sources.len() > 50);
    let mut literal_rules = Vec::new();
    for p in &sources {
        let text = std::fs::read_to_string(p).unwrap();
        let name = p.display().to_string();
        for s in shared {
            assert!(!text.contains(s), "{name} names {s}");
        }
        check_links(&text, &name, false);
        // The citations written as literals: `.rule("…")`, `rule = Some("…".into())`.
        for opening in [".rule(\"", "rule = Some(\""] {
            let mut rest = text.as_str();
            while let Some(k) = rest.find(opening) {
                rest = &rest[k + opening.len()..];
                let end = rest.find('"').unwrap();
                literal_rules.push(rest[..end].to_string());
            }
        }
    }
    let mut pages = Vec::new();
    files_with(&root().join("docs"), "md", &mut pages);
    for p in &pages {
        let text = std::fs::read_to_string(p).unwrap();
        let name = p.display().to_string();
        for s in shared {
            assert!(!text.contains(s), "{name} names {s}");
        }
        check_links(&text, &name, true);
    }
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for s in shared {
        assert!(!readme.contains(s), "README.md names {s}");
    }
    check_links(&readme, "README.md", false);
    // The man pages and the help of every command.
    let dir = tempfile::tempdir().unwrap();
    let o = run(&["man", "--out-dir", dir.path().to_str().unwrap()]);
    assert!(o.status.success());
    let mut shown = Vec::new();
    for e in std::fs::read_dir(dir.path()).unwrap() {
        let p = e.unwrap().path();
        shown.push((
            p.display().to_string(),
            std::fs::read_to_string(&p).unwrap(),
        ));
    }
    assert!(shown.len() > 5);
    for c in commands() {
        let help = stdout(&run(&[&c, "--help"]));
        shown.push((format!("pdn {c} --help"), help));
    }
    let mut cites_docs = false;
    for (name, text) in &shown {
        for s in shared {
            assert!(!text.contains(s), "{name} names {s}");
        }
        cites_docs |= text.contains("docs/rules.md");
        check_links(text, name, false);
    }
    assert!(cites_docs, "no man page points at docs/rules.md");
    // Every citation a finding can carry is listed.
    let rules_md = std::fs::read_to_string(root().join("docs/rules.md")).unwrap();
    let pdn_md = std::fs::read_to_string(root().join("docs/pdn.md")).unwrap();
    let listed = |cite: &str| {
        let quoted = format!("`{cite}`");
        rules_md.contains(&quoted) || pdn_md.contains(&quoted)
    };
    let mut cites = Vec::new();
    for v in Variant::ALL {
        let r = v.rules();
        let a = &r.articles;
        cites.extend([
            a.book,
            a.man_move,
            a.king_move,
            a.capture_mandatory,
            a.man_capture,
            a.king_capture,
            a.capture_complete,
            a.precedence,
            a.promotion,
            a.passing_promotion,
            a.irregularity,
            a.game_end,
        ]);
        for d in r.draws {
            cites.push(match *d {
                DrawRule::Repetition { article, .. }
                | DrawRule::KingMovesOnly { article, .. }
                | DrawRule::NoCaptureNoManMove { article, .. }
                | DrawRule::Endgame { article, .. } => article,
            });
        }
    }
    for c in cites
        .iter()
        .copied()
        .chain(literal_rules.iter().map(String::as_str))
    {
        assert!(listed(c), "the citation `{c}` is in no page of docs/");
    }
    assert!(literal_rules.len() >= 5, "{literal_rules:?}");
    // And those of a real run over the fixtures, one game per code.
    let o = run(&["validate", "-f", "json", "-q", "fixtures/validate"]);
    let out = stdout(&o);
    let mut seen = 0;
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Some(rule) = v.get("rule").and_then(|r| r.as_str()) {
            assert!(
                listed(rule),
                "validate cites `{rule}`, which no page of docs/ lists"
            );
            seen += 1;
        }
    }
    assert!(seen > 20, "{seen} citations");
}
