//! `pdn fix` through the binary: golden files (`fixtures/fix/`, expected output and audit in
//! `fixtures/fix/expected/`; `PDN_BLESS=1` rewrites them), one `--repair` case per kind of
//! slip and the ambiguous cases left alone, `--keep-irregular`, idempotence, the
//! command-line contract, and the shared corpus: games in = games out in order, every syntax
//! error kept as a comment that says so and no other written, never more errors than read (the fmjd-pdn-testsuite files one by one, then
//! the whole corpus in one run), no legal record changed by `--repair`; honest accounting
//! (games written as read named and failing the run, the errors after recounted from the
//! output, 0 changes when fixing a fixed file).

use crate::support as common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use pdn::app::judge::diagnostic::{Code, Severity};
use pdn::app::judge::validate::{Options, validate};
use pdn::app::model::gametype::FileHint;
use pdn::syntax::read_games;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/fix")
}

/// A run of `pdn fix`: its output, its audit, its standard error and exit code.
struct Run {
    code: i32,
    out: Vec<u8>,
    audit: String,
    stderr: String,
}

/// Run `pdn fix ARGS --audit TMP` in `dir`, with `stdin` on standard input if given.
fn fix_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Run {
    let tmp = tempfile::tempdir().unwrap();
    let audit = tmp.path().join("audit.jsonl");
    let mut cmd = bin();
    cmd.current_dir(dir)
        .arg("fix")
        .arg("-q")
        .args(args)
        .arg("--audit")
        .arg(&audit)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
    let mut child = cmd.spawn().unwrap();
    if let Some(input) = stdin {
        use std::io::Write;
        // Written from a thread: the child writes while it reads.
        let mut pipe = child.stdin.take().unwrap();
        let input = input.to_vec();
        std::thread::spawn(move || pipe.write_all(&input).unwrap());
    }
    let o: Output = child.wait_with_output().unwrap();
    Run {
        code: o.status.code().unwrap_or(-1),
        out: o.stdout,
        audit: std::fs::read_to_string(&audit).unwrap_or_default(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

fn audit_records(audit: &str) -> Vec<serde_json::Value> {
    audit
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad audit line {l}: {e}")))
        .collect()
}

/// The fixture inputs, with the flags they are fixed with (`repair*.pdn`: `--repair`;
/// `keep*.pdn`: `--repair --keep-irregular`).
fn fixture_inputs() -> Vec<(String, Vec<&'static str>)> {
    let mut v: Vec<String> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdn"))
        .collect();
    v.sort();
    assert!(v.len() >= 3, "fixtures/fix is missing its inputs");
    v.into_iter()
        .map(|n| {
            let flags = if n.starts_with("repair") {
                vec!["--repair"]
            } else if n.starts_with("keep") {
                vec!["--repair", "--keep-irregular"]
            } else {
                vec![]
            };
            (n, flags)
        })
        .collect()
}

#[test]
fn golden_files() {
    let bless = std::env::var_os("PDN_BLESS").is_some();
    let expected = fixtures().join("expected");
    let mut failures = Vec::new();
    for (name, flags) in fixture_inputs() {
        let mut args = flags.clone();
        args.push(&name);
        let r = fix_in(&fixtures(), &args, None);
        assert_ne!(r.code, 2, "{name}: {}", r.stderr);
        let out = String::from_utf8(r.out).expect("fix writes UTF-8");
        let stem = name.trim_end_matches(".pdn");
        let out_path = expected.join(&name);
        let audit_path = expected.join(format!("{stem}.audit.jsonl"));
        if bless {
            std::fs::write(&out_path, &out).unwrap();
            std::fs::write(&audit_path, &r.audit).unwrap();
            continue;
        }
        let want_out = std::fs::read_to_string(&out_path)
            .unwrap_or_else(|e| panic!("{}: {e} (PDN_BLESS=1 writes it)", out_path.display()));
        let want_audit = std::fs::read_to_string(&audit_path).unwrap();
        if out != want_out {
            failures.push(format!(
                "{name}: output differs from {}:\n{out}",
                out_path.display()
            ));
        }
        if r.audit != want_audit {
            failures.push(format!(
                "{name}: audit differs from {}:\n{}",
                audit_path.display(),
                r.audit
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn fixing_a_fixed_file_changes_nothing() {
    for (name, flags) in fixture_inputs() {
        let first = fix_in(
            &fixtures(),
            &[flags.as_slice(), &[name.as_str()]].concat(),
            None,
        );
        let again = fix_in(
            &fixtures(),
            &[flags.as_slice(), &["-"]].concat(),
            Some(&first.out),
        );
        assert_eq!(
            String::from_utf8_lossy(&again.out),
            String::from_utf8_lossy(&first.out),
            "{name}: a second fix changed the output"
        );
        assert_eq!(again.audit, "", "{name}: a second fix reported changes");
    }
}

#[test]
fn captures_written_one_jump_per_move_are_joined_in_every_variation() {
    // The same capture in two jumps in three variations of the main line's first jump: each
    // is written as one move, and the audit names each with its own text. (The main line's
    // two jumps, with the variations between them, are not one capture: they stay as written,
    // an error left.)
    let game = "[GameType \"20\"]\n[FEN \"W:W32:B27,28,17,18,19,12,13,7\"]\n\
                1. 32x23 (1. 32x23 23x14) (1. 32x23 23x14) (1. 32x23 23x14) 23x14 *\n";
    let r = fix_in(&fixtures(), &["-"], Some(game.as_bytes()));
    let out = String::from_utf8(r.out).unwrap();
    assert_eq!(out.matches("(1. 32x14)").count(), 3, "{out}\n{}", r.stderr);
    assert!(
        out.contains("1. 32x23 (") && out.contains(") 1... 23x14 *"),
        "{out}"
    );
    let joined: Vec<_> = audit_records(&r.audit)
        .into_iter()
        .filter(|v| {
            v["why"]
                .as_str()
                .is_some_and(|w| w.contains("one jump per move"))
        })
        .collect();
    assert_eq!(joined.len(), 3, "{}", r.audit);
    assert!(
        joined
            .iter()
            .all(|v| v["before"] == "32x23 23x14" && v["after"] == "32x14"),
        "{}",
        r.audit
    );
}

#[test]
fn normalisation_audit_names_every_kind_of_change() {
    let r = fix_in(&fixtures(), &["normalise.pdn", "english.pdn"], None);
    let recs = audit_records(&r.audit);
    let has = |game: u64, file: &str, why: &str, before: Option<&str>, after: Option<&str>| {
        recs.iter().any(|v| {
            v["file"] == file
                && v["game"] == game
                && v["why"].as_str().unwrap().contains(why)
                && before.is_none_or(|b| v["before"] == b)
                && after.is_none_or(|a| v["after"] == a)
        })
    };
    for (game, file, why, before, after) in [
        (1, "normalise.pdn", "leading zeros", Some("01."), None),
        (
            1,
            "normalise.pdn",
            "capture written with `:`",
            Some("28:19"),
            Some("28x19"),
        ),
        (
            1,
            "normalise.pdn",
            "spaces inside a move",
            Some("9 - 14"),
            Some("9-14"),
        ),
        (
            1,
            "normalise.pdn",
            "Date written YYYY.MM.DD",
            Some("2003-05-01"),
            Some("2003.05.01"),
        ),
        (1, "normalise.pdn", "GameType added", None, Some("20")),
        (
            2,
            "normalise.pdn",
            "start and destination only",
            Some("28x19x8"),
            Some("28x8"),
        ),
        (
            2,
            "normalise.pdn",
            "Date written",
            Some("1.1.1965"),
            Some("1965.01.01"),
        ),
        (
            3,
            "normalise.pdn",
            "full route",
            Some("47x24x13x36"),
            Some("47x38x24x13x36"),
        ),
        (4, "normalise.pdn", "forced move", Some("*"), None),
        (
            4,
            "normalise.pdn",
            "Result from the result ending the movetext",
            None,
            Some("1-1"),
        ),
        (1, "english.pdn", "GameType added", None, Some("21")),
        (
            1,
            "english.pdn",
            "final position is decided",
            Some("1/2-1/2"),
            Some("0-1"),
        ),
        (
            2,
            "english.pdn",
            "Date written",
            Some("2006.12"),
            Some("2006.12.??"),
        ),
    ] {
        assert!(
            has(game, file, why, before, after),
            "{file} game {game}: no change `{why}` {before:?} -> {after:?} in\n{}",
            r.audit
        );
    }
    // An ambiguous date stays as it is.
    assert!(!r.audit.contains("03-12-2006"));
    let out = String::from_utf8(r.out).unwrap();
    assert!(out.contains("[Date \"03-12-2006\"]"));
    // Kept: unknown tags, comments, NAGs, variations.
    for kept in [
        "[Bord \"7\"]",
        "{ book }",
        "$6",
        "(3... 9-14 $6 { book })",
        "{ a line comment}",
        "$7",
        "(1... 22-18 2. 15x22 25x18)",
        "11-15 $1",
    ] {
        assert!(out.contains(kept), "`{kept}` lost:\n{out}");
    }
    // Renumbered moves, `*` as the only separator.
    assert!(out.contains("1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14"));
    assert_eq!(read_games(&out.into_bytes()).len(), 6);
}

/// One expected repair: the kind named in `why`, `before`, `after`.
type Repair = (&'static str, Option<&'static str>, Option<&'static str>);

/// What the repair fixture must give, game by game: `(kind, before, after)` of the one
/// repair, or `None` for the games where several corrections fit and nothing is changed.
const REPAIRS: [Option<Repair>; 8] = [
    Some(("transposed digits", Some("37-23"), Some("37-32"))),
    Some(("a square off by one", Some("40x28"), Some("40x29"))),
    None,
    Some(("numbered from the other side", Some("11x22"), Some("40x29"))),
    Some(("a missing ply inserted", None, Some("14x34"))),
    Some(("a doubled ply dropped", Some("32-28"), None)),
    None,
    None,
];

#[test]
fn repair_applies_the_unique_candidate_and_nothing_else() {
    let input = std::fs::read(fixtures().join("repair.pdn")).unwrap();
    let r = fix_in(&fixtures(), &["--repair", "repair.pdn"], None);
    let recs = audit_records(&r.audit);
    let games_in = read_games(&input);
    let games_out = read_games(&r.out);
    assert_eq!(games_in.len(), REPAIRS.len());
    assert_eq!(games_out.len(), REPAIRS.len());
    for (i, want) in REPAIRS.iter().enumerate() {
        let game = (i + 1) as u64;
        let repairs: Vec<&serde_json::Value> = recs
            .iter()
            .filter(|v| v["game"] == game && v["why"].as_str().unwrap().starts_with("repair:"))
            .collect();
        let report_in = validate(&games_in[i], &Options::default());
        let report_out = validate(&games_out[i], &Options::default());
        assert!(report_in.errors() > 0, "game {game} has no slip");
        match want {
            Some((kind, before, after)) => {
                assert_eq!(repairs.len(), 1, "game {game}: {repairs:?}");
                let v = repairs[0];
                assert!(
                    v["why"].as_str().unwrap().contains(kind),
                    "game {game}: {v}"
                );
                assert_eq!(v["before"].as_str(), *before, "game {game}");
                assert_eq!(v["after"].as_str(), *after, "game {game}");
                assert!(v["ply"].is_u64());
                assert_eq!(report_out.errors(), 0, "game {game} still has errors");
            }
            None => {
                assert!(repairs.is_empty(), "game {game}: {repairs:?}");
                assert_eq!(report_out.errors(), report_in.errors(), "game {game}");
                let text = String::from_utf8_lossy(&r.out);
                let block = text.split("\n\n[").nth(i).unwrap();
                assert!(
                    block.contains("several corrections fit"),
                    "game {game}: {block}"
                );
            }
        }
    }
    // Without --repair nothing is repaired, and the games are written with their problem.
    let plain = fix_in(&fixtures(), &["repair.pdn"], None);
    assert!(!plain.audit.contains("\"repair:"));
    let text = String::from_utf8_lossy(&plain.out);
    assert_eq!(text.matches("{pdn: ").count(), REPAIRS.len());
    assert!(text.contains("12. 37-23"), "the slip is written as read");
    assert_eq!(plain.code, 1, "errors left: exit 1");
    assert_eq!(r.code, 1, "two games keep their errors: exit 1");
}

/// What `repair-kinds.pdn` must give, game by game: the kinds named in the audit of its
/// repairs, in order.
const KINDS: [&[&str]; 8] = [
    &["from and to swapped"],
    &["one digit wrong"],
    &["two moves of one player written in the wrong order"],
    &["the two halves of a move written in the wrong order"],
    &["a missing move (two plies) inserted"],
    &["a square off by one at ply 3"],
    &[
        "from and to swapped at ply 5",
        "transposed digits at ply 23",
    ],
    &["the full route of an ambiguous capture"],
];

#[test]
fn repair_restores_every_kind_of_slip_and_says_why() {
    let input = std::fs::read(fixtures().join("repair-kinds.pdn")).unwrap();
    let r = fix_in(&fixtures(), &["--repair", "repair-kinds.pdn"], None);
    let recs = audit_records(&r.audit);
    let games_in = read_games(&input);
    let games_out = read_games(&r.out);
    assert_eq!(games_in.len(), KINDS.len());
    assert_eq!(games_out.len(), KINDS.len());
    for (i, kinds) in KINDS.iter().enumerate() {
        let game = (i + 1) as u64;
        let whys: Vec<&str> = recs
            .iter()
            .filter(|v| v["game"] == game)
            .filter_map(|v| v["why"].as_str())
            .filter(|w| w.starts_with("repair:"))
            .collect();
        assert_eq!(whys.len(), kinds.len(), "game {game}: {whys:?}");
        for (why, kind) in whys.iter().zip(kinds.iter()) {
            assert!(why.contains(kind), "game {game}: {why}");
            // The audit says how many alternatives were ruled out.
            assert!(why.contains("alternatives ruled out"), "game {game}: {why}");
        }
        let opts = Options::default();
        assert!(
            validate(&games_in[i], &opts).errors() > 0,
            "game {game} has no slip"
        );
        assert_eq!(
            validate(&games_out[i], &opts).errors(),
            0,
            "game {game} still has errors"
        );
    }
    // The route restored: the capture that leaves 15 and 23 (15-19 is played after it).
    assert!(String::from_utf8_lossy(&r.out).contains("26x17x10"));
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn keep_irregular_sets_up_the_position_after_a_move_that_stands() {
    let r = fix_in(
        &fixtures(),
        &["--repair", "--keep-irregular", "keep-irregular.pdn"],
        None,
    );
    let out = String::from_utf8(r.out.clone()).unwrap();
    let games = read_games(&r.out);
    assert_eq!(games.len(), 2);
    // The irregular move stands, then the setup of the position after it; the rest of the
    // game replays from there.
    let setup = "5. 46-41\n/FEN \"B:W28,29,31,32,33,35,36,37,38,39,40,41,42,43,44,45,47,48,49,50:B1,2,3,4,5,7,8,9,10,11,12,13,14,15,16,17,18,20,22,23\"/\n5... 23x34";
    assert!(out.contains(setup), "{out}");
    let report = validate(&games[0], &Options::default());
    let errors: Vec<u32> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Error)
        .filter_map(|d| d.ply)
        .collect();
    assert_eq!(errors, [9], "only the move kept is an error: {report:?}");
    assert_eq!(validate(&games[1], &Options::default()).errors(), 0);
    let recs = audit_records(&r.audit);
    assert!(recs.iter().any(|v| {
        v["ply"] == 9
            && v["before"] == "46-41"
            && v["why"]
                .as_str()
                .unwrap()
                .starts_with("irregular move kept")
    }));
    assert!(r.stderr.is_empty() || r.stderr.contains("1 irregular moves kept"));
    // Without the flag: no setup, the comment says no correction fits.
    let plain = fix_in(&fixtures(), &["--repair", "keep-irregular.pdn"], None);
    let plain = String::from_utf8(plain.out).unwrap();
    assert!(!plain.contains("/FEN"));
    assert!(plain.contains("--repair: no correction fits"), "{plain}");
}

#[test]
fn command_line_contract() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in.pdn");
    let text = "[Event \"e\"]\n\n01. 32-28 19-23 02. 28:19 14x23 *\n";
    std::fs::write(&input, text).unwrap();
    // -o naming an input is refused, and the input is untouched.
    let o = bin()
        .args(["fix", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&input).unwrap(), text);
    // Without --audit: the output, and one count line on standard error (none with
    // --quiet, which leaves only errors there).
    let out = tmp.path().join("out.pdn");
    let o = bin()
        .args(["fix", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
    let o = bin()
        .args(["fix"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.stdout.is_empty());
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("1 game in 1 file, 3 changes"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "[Event \"e\"]\n[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n"
    );
    // Standard input to standard output; the same with one job and with two.
    let mut big = String::new();
    for _ in 0..150 {
        big.push_str(text);
    }
    let one = fix_in(tmp.path(), &["-j", "1", "-"], Some(big.as_bytes()));
    let two = fix_in(tmp.path(), &["-j", "2", "-"], Some(big.as_bytes()));
    assert_eq!(one.out, two.out);
    assert_eq!(one.audit, two.audit);
    assert_eq!(read_games(&one.out).len(), 150);
    assert_eq!(audit_records(&one.audit).len(), 150 * 3);
}

/// Per game: (errors, syntax errors, Event tag), validated as `validate` does; `files`
/// gives how many games each input file had (the variant hint of a file stops at its end),
/// `None`: one file.
fn check(bytes: &[u8], files: Option<&[usize]>) -> Vec<(u32, usize, Option<String>)> {
    let mut hint = FileHint::default();
    let mut last_file = None;
    let games = read_games(bytes);
    let mut file_of = Vec::new();
    for (f, n) in files.unwrap_or_default().iter().enumerate() {
        file_of.extend(std::iter::repeat_n(f, *n));
    }
    games
        .iter()
        .enumerate()
        .map(|(k, g)| {
            let file = file_of.get(k).copied().unwrap_or(0);
            if last_file != Some(file) {
                hint = FileHint::default();
                last_file = Some(file);
            }
            let h = hint.observe(g);
            let r = validate(
                g,
                &Options {
                    hint: h,
                    ..Options::default()
                },
            );
            let syntax = r
                .diagnostics
                .iter()
                .filter(|d| d.code == Code::SyntaxError && d.severity() == Severity::Error)
                .count();
            (r.errors(), syntax, g.tag("Event").map(str::to_string))
        })
        .collect()
}

/// Every file of the corpus under a directory named `fmjd-pdn-testsuite` (any name), or
/// else every `*.pdn`.
fn corpus_files(testsuite: bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![common::corpus()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let in_suite = p.to_string_lossy().contains("/fmjd-pdn-testsuite/");
            if p.is_dir() {
                stack.push(p);
            } else if testsuite == in_suite
                && (in_suite || p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdn")))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Totals over the files checked.
#[derive(Default, Debug)]
struct Totals {
    files: usize,
    games: usize,
    errors_in: u64,
    errors_out: u64,
    syntax_in: u64,
    games_with_errors_in: usize,
    games_with_errors_out: usize,
}

/// Compare what was read with what `fix` wrote, game by game.
fn compare(label: &str, input: &[u8], output: &[u8], t: &mut Totals) {
    let a = check(input, None);
    let b = check(output, None);
    assert_eq!(a.len(), b.len(), "{label}: games in != games out");
    for (k, (x, y)) in a.iter().zip(&b).enumerate() {
        // The syntax errors read, kept where they were found as comments that say so (and
        // read back as such); none new.
        assert_eq!(
            y.1,
            x.1,
            "{label}: game {}: syntax errors read and written",
            k + 1
        );
        assert!(
            y.0 <= x.0,
            "{label}: game {}: {} errors read, {} written",
            k + 1,
            x.0,
            y.0
        );
        assert_eq!(x.2, y.2, "{label}: game {}: games out of order", k + 1);
    }
    t.games += a.len();
    t.errors_in += a.iter().map(|x| u64::from(x.0)).sum::<u64>();
    t.errors_out += b.iter().map(|x| u64::from(x.0)).sum::<u64>();
    t.syntax_in += a.iter().map(|x| x.1 as u64).sum::<u64>();
    t.games_with_errors_in += a.iter().filter(|x| x.0 > 0).count();
    t.games_with_errors_out += b.iter().filter(|x| x.0 > 0).count();
}

#[test]
fn fmjd_testsuite_games_kept_syntax_errors_kept_never_more_errors() {
    let files = corpus_files(true);
    assert!(files.len() >= 40, "fmjd-pdn-testsuite files missing");
    let dir = common::corpus();
    for repair in [false, true] {
        let mut t = Totals::default();
        for f in &files {
            let input = std::fs::read(f).unwrap();
            let name = f.to_string_lossy().into_owned();
            let mut args = vec![name.as_str()];
            if repair {
                args.insert(0, "--repair");
            }
            let r = fix_in(&dir, &args, None);
            assert_ne!(r.code, 2, "{name}: {}", r.stderr);
            let label = format!("{name} (repair: {repair})");
            compare(&label, &input, &r.out, &mut t);
            t.files += 1;
            // Idempotence.
            let again = fix_in(
                &dir,
                &[&args[..args.len() - 1], &["-"]].concat(),
                Some(&r.out),
            );
            assert!(
                again.out == r.out,
                "{label}: fixing the fixed file changed it"
            );
        }
        eprintln!("fmjd-pdn-testsuite, repair {repair}: {t:?}");
        assert!(t.games > 2000, "{t:?}");
        assert!(
            t.syntax_in > 0,
            "the suite's fail/ files have syntax errors"
        );
        assert!(t.errors_out < t.errors_in, "{t:?}");
    }
}

#[test]
fn whole_corpus_games_kept_syntax_errors_kept_never_more_errors() {
    let files = corpus_files(false);
    assert!(files.len() > 100, "corpus missing");
    let mut counts = Vec::new();
    // Validate the input file by file (the hint of a file does not cross into the next).
    let mut a = Vec::new();
    for f in &files {
        let found = check(&std::fs::read(f).unwrap(), None);
        counts.push(found.len());
        a.extend(found);
    }
    let names: Vec<String> = files
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let mut args: Vec<&str> = vec!["--repair"];
    args.extend(names.iter().map(String::as_str));
    let r = fix_in(&common::corpus(), &args, None);
    assert_ne!(r.code, 2, "{}", r.stderr);
    let mut t = Totals {
        files: files.len(),
        ..Totals::default()
    };
    let b = check(&r.out, Some(&counts));
    assert_eq!(a.len(), b.len(), "games in != games out");
    for (k, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(
            y.1,
            x.1,
            "output game {}: syntax errors read and written (kept as comments)",
            k + 1
        );
        assert!(
            y.0 <= x.0,
            "output game {}: {} errors read, {} written",
            k + 1,
            x.0,
            y.0
        );
        assert_eq!(x.2, y.2, "output game {}: out of order", k + 1);
    }
    t.games = a.len();
    t.errors_in = a.iter().map(|x| u64::from(x.0)).sum();
    t.errors_out = b.iter().map(|x| u64::from(x.0)).sum();
    t.games_with_errors_in = a.iter().filter(|x| x.0 > 0).count();
    t.games_with_errors_out = b.iter().filter(|x| x.0 > 0).count();
    eprintln!("whole corpus, --repair: {t:?}");
    assert!(t.games > 10_000);
    // Idempotence of the whole output.
    let again = fix_in(&common::corpus(), &["--repair", "-"], Some(&r.out));
    assert!(again.out == r.out, "fixing the fixed corpus changed it");
    assert_eq!(again.audit, "", "fixing the fixed corpus reported changes");
}

#[test]
fn repair_never_changes_a_legal_record() {
    use pdn::app::fix::{FixOptions, fix};
    // Every game of the corpus whose main line replays legally is fixed the same with and
    // without --repair (games whose main line has an error are the only ones repaired).
    let mut legal = 0;
    for f in corpus_files(false).iter().chain(corpus_files(true).iter()) {
        let bytes = std::fs::read(f).unwrap();
        for g in read_games(&bytes) {
            let report = validate(&g, &Options::default());
            let main_error = report
                .diagnostics
                .iter()
                .any(|d| d.severity() == Severity::Error && d.code.is_move_code() && !d.variation);
            if main_error {
                continue;
            }
            legal += 1;
            let plain = fix(g.clone(), &FixOptions::default());
            let repaired = fix(
                g,
                &FixOptions {
                    repair: true,
                    keep_irregular: true,
                    ..FixOptions::default()
                },
            );
            assert_eq!(plain.text, repaired.text, "{}", f.display());
            assert_eq!(repaired.repairs, 0);
            assert_eq!(repaired.kept, 0);
        }
    }
    assert!(legal > 10_000, "{legal}");
}

/// The numbers of `pdn fix`'s count line: (changes, errors before, errors after, written as
/// read).
fn count_line(stderr: &str) -> (u64, u64, u64, u64) {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("pdn fix: ") && l.contains(" before, "))
        .unwrap_or_else(|| panic!("no count line in {stderr}"));
    // The number before `key`, a word (`errors`, `error`) between them allowed.
    let before = |key: &str| -> u64 {
        let at = line
            .find(key)
            .unwrap_or_else(|| panic!("{key} not in {line}"));
        let head = line[..at].trim_end_matches(|c: char| c.is_ascii_alphabetic());
        let head = head.trim_end();
        let start = head
            .rfind(|c: char| !c.is_ascii_digit())
            .map_or(0, |i| i + 1);
        head[start..].parse().unwrap()
    };
    (
        before(" change"),
        before(" before,"),
        before(" after)"),
        before(" written as read"),
    )
}

/// Errors that `pdn validate` finds in a file (its JSON summary).
fn validate_errors(path: &Path) -> u64 {
    let o = bin()
        .args(["validate", "--format", "json", "-q"])
        .arg(path)
        .output()
        .unwrap();
    let text = String::from_utf8(o.stdout).unwrap();
    let summary = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["type"] == "summary")
        .unwrap_or_else(|| panic!("no summary: {text}"));
    summary["errors"].as_u64().unwrap()
}

#[test]
fn no_game_silently_written_as_read_and_the_count_is_of_what_was_written() {
    // Issue 20 item 2: a game written as read is counted and named, even with --quiet, and
    // makes the exit status 1; the errors after are those `validate` finds in the output;
    // fixing the output changes nothing and says 0 changes.
    let tmp = tempfile::tempdir().unwrap();
    let text = "[Event \"clean\"]\n\n01. 32-28 19-23 02. 28x19 14x23 *\n\n\
                [Event \"an error left\"]\n[GameType \"20\"]\n\n\
                1. 32-28 19-23 2. 28x19 14x25 3. 37-32 *\n\n\
                [Event \"no variant fits\"]\n\n1. 99-94 *\n\n\
                [Event \"clean too\"]\n[GameType \"21\"]\n\n1. 11-15 23-19 *\n";
    std::fs::write(tmp.path().join("in.pdn"), text).unwrap();
    for quiet in [false, true] {
        let mut cmd = bin();
        cmd.current_dir(tmp.path())
            .args(["fix", "in.pdn", "-o", "out.pdn"]);
        if quiet {
            cmd.arg("-q");
        }
        let o = cmd.output().unwrap();
        let err = String::from_utf8(o.stderr).unwrap();
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(
            err.contains("1 game written as read, not fixed: in.pdn game 3 (unknown variant)"),
            "quiet {quiet}: {err}"
        );
        if !quiet {
            let (changes, before, after, as_read) = count_line(&err);
            assert!(changes > 0, "{err}");
            assert_eq!(as_read, 1, "{err}");
            assert_eq!(before, validate_errors(&tmp.path().join("in.pdn")), "{err}");
            assert_eq!(after, validate_errors(&tmp.path().join("out.pdn")), "{err}");
            assert_eq!(after, 2, "{err}");
        }
    }
    let out = std::fs::read(tmp.path().join("out.pdn")).unwrap();
    assert_eq!(read_games(&out).len(), 4, "games in = games out");
    // The fixed file fixed again: the same bytes, 0 changes, nothing in the audit.
    let o = bin()
        .current_dir(tmp.path())
        .args([
            "fix",
            "out.pdn",
            "-o",
            "again.pdn",
            "--audit",
            "again.jsonl",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(std::fs::read(tmp.path().join("again.pdn")).unwrap(), out);
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("again.jsonl")).unwrap(),
        ""
    );
    let (changes, before, after, _) = count_line(&err);
    assert_eq!(changes, 0, "{err}");
    assert!(err.contains(", 0 changes"), "{err}");
    assert_eq!((before, after), (2, 2), "{err}");
    // Still a game that could not be fixed: still named, still a failure.
    assert_eq!(o.status.code(), Some(1), "{err}");
    // A file whose games are all fixed: exit 0, nothing written as read, and fixing the
    // output again says 0 changes.
    let good = "[Event \"x\"]\n\n1. 32-28 19-23 2. 28:19 14x23 *\n";
    std::fs::write(tmp.path().join("good.pdn"), good).unwrap();
    let o = bin()
        .current_dir(tmp.path())
        .args(["fix", "good.pdn", "-o", "good.fixed.pdn"])
        .output()
        .unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(count_line(&err).3, 0, "{err}");
    assert!(!err.contains("not fixed"), "{err}");
    let o = bin()
        .current_dir(tmp.path())
        .args(["fix", "good.fixed.pdn", "-o", "good.again.pdn"])
        .output()
        .unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert_eq!(count_line(&err), (0, 0, 0, 0), "{err}");
    assert_eq!(
        std::fs::read(tmp.path().join("good.again.pdn")).unwrap(),
        std::fs::read(tmp.path().join("good.fixed.pdn")).unwrap()
    );
}
