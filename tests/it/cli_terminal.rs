//! A safe terminal (issue 20): nothing from the input reaches the terminal raw. Control
//! characters (C0, DEL, C1) and bidirectional controls in tags, comments, moves and a file
//! name come out escaped (`\u{1b}`) in the human and short formats, on standard output and
//! standard error, and in every command's messages; JSON escapes them as JSON does.

use std::path::Path;
use std::process::{Command, Output};

use pdn::app::write::terminal::is_unsafe;

/// ESC [2J (clear the screen), ESC ]0;title BEL (retitle the window), NUL, DEL, the C1
/// controls NEL and CSI, a right-to-left override.
const EVIL: &str = "\u{1b}[2J\u{1b}]0;title\u{7}\u{0}\u{7f}\u{85}\u{9b}\u{202e}";

fn evil_game() -> String {
    format!(
        "[Event \"ev{EVIL}\"]\n[White \"w{EVIL}\"]\n[Black \"b\u{1b}[31m\u{2066}\"]\n\
         [Date \"\u{1b}[2J\"]\n\n\
         1. 32-28 {{comment {EVIL}}} 19-23 2. 28x19\u{1b}[2J 14x23 3. 35-30\u{9b}31m \
         4. 99-98{EVIL} *\n\n\
         [Event \"x\u{200f}\"]\n1. 32-28 19-23 2. 33-29\t{{\u{1b}[2J}} 14x23 *\n"
    )
}

/// The input file, under a name holding control and bidirectional characters.
fn evil_file(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("evil\u{1b}[2J\u{7}\u{7f}\u{85}\u{202e}.pdn");
    std::fs::write(&path, evil_game()).unwrap();
    path
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run pdn")
}

/// No unsafe character in `bytes` but line feeds.
fn assert_safe(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for (k, c) in text.char_indices() {
        assert!(
            c == '\n' || !is_unsafe(c),
            "{what}: raw {c:?} at byte {k}: {:?}",
            &text[k.saturating_sub(40)..(k + 40).min(text.len())]
        );
    }
}

#[test]
fn validate_human_and_short_escape_everything_from_the_input() {
    let tmp = tempfile::tempdir().unwrap();
    let file = evil_file(tmp.path());
    let name = file.file_name().unwrap().to_str().unwrap();
    for format in ["human", "short"] {
        for jobs in ["1", "2"] {
            let o = run(
                tmp.path(),
                &["validate", "-f", format, "--jobs", jobs, name],
            );
            assert_eq!(
                o.status.code(),
                Some(1),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert_safe(&format!("{format} stdout"), &o.stdout);
            assert_safe(&format!("{format} stderr"), &o.stderr);
            let out = String::from_utf8(o.stdout).unwrap();
            // The findings are there, with what they quote escaped.
            assert!(
                out.contains("evil\\u{1b}[2J\\u{7}\\u{7f}\\u{85}\\u{202e}.pdn:"),
                "{out}"
            );
            assert!(out.contains("`\\u{1b}[2J`"), "the bad Date, quoted: {out}");
            if format == "human" {
                assert!(
                    out.contains(
                        "w\\u{1b}[2J\\u{1b}]0;title\\u{7}\\u{0}\\u{7f}\\u{85}\\u{9b}\\u{202e}"
                    ),
                    "{out}"
                );
                assert!(
                    out.contains("{comment \\u{1b}[2J"),
                    "the source line: {out}"
                );
            }
        }
    }
}

/// With colour on, the only escape sequences are the palette's own: the input's still come
/// out escaped.
#[test]
fn colour_adds_only_its_own_styles() {
    let tmp = tempfile::tempdir().unwrap();
    let file = evil_file(tmp.path());
    let name = file.file_name().unwrap().to_str().unwrap();
    for format in ["human", "short"] {
        let o = run(
            tmp.path(),
            &[
                "validate",
                "-f",
                format,
                "--color",
                "always",
                "--min-severity",
                "info",
                name,
            ],
        );
        assert_eq!(o.status.code(), Some(1));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains("\x1b[1m\x1b[31merror["), "coloured: {text:?}");
        let plain = crate::support::strip_styles(&text);
        assert_safe(&format!("{format} stdout"), plain.as_bytes());
        assert!(
            plain.contains("`\\u{1b}[2J`"),
            "the bad Date, quoted: {plain}"
        );
    }
}

#[test]
fn validate_of_a_binary_file_is_safe() {
    let tmp = tempfile::tempdir().unwrap();
    // Every byte value, as a binary file would hold them, between tags and moves.
    let mut bytes = b"[Event \"".to_vec();
    bytes.extend(0u8..=255);
    bytes.extend_from_slice(b"\"]\n1. 32-28 ");
    bytes.extend((0u8..=255).rev());
    bytes.extend_from_slice(b" 19-23 *\n");
    std::fs::write(tmp.path().join("binary.pdn"), &bytes).unwrap();
    let mut inputs = vec!["binary.pdn"];
    if Path::new("/bin/ls").is_file() {
        inputs.push("/bin/ls");
    }
    for input in inputs {
        for format in ["human", "short"] {
            let o = run(tmp.path(), &["validate", "-f", format, input]);
            // Findings, or (binary data: not a text file) one unreadable input.
            assert!(matches!(o.status.code(), Some(0..=2)), "{input}");
            assert_safe(&format!("{input} {format}"), &o.stdout);
            assert_safe(&format!("{input} {format}"), &o.stderr);
        }
    }
}

#[test]
fn json_escapes_the_controls_as_json_does() {
    let tmp = tempfile::tempdir().unwrap();
    let file = evil_file(tmp.path());
    let name = file.file_name().unwrap().to_str().unwrap();
    let o = run(tmp.path(), &["validate", "-f", "json", name]);
    // No raw C0 control (JSON escapes them); every line is JSON that reads back the input.
    assert!(
        !o.stdout.iter().any(|&b| b < 0x20 && b != b'\n'),
        "a raw control byte in JSON"
    );
    let text = String::from_utf8(o.stdout).unwrap();
    let mut files = Vec::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Some(f) = v["file"].as_str() {
            files.push(f.to_owned());
        }
    }
    assert!(files.iter().all(|f| f == name), "the file name reads back");
    let o = run(tmp.path(), &["convert", "--to", "json", name]);
    assert!(!o.stdout.iter().any(|&b| b < 0x20 && b != b'\n'));
    let first: serde_json::Value =
        serde_json::from_str(String::from_utf8(o.stdout).unwrap().lines().next().unwrap()).unwrap();
    assert!(first.to_string().contains("\\u001b[2J"), "{first}");
}

#[test]
fn the_messages_of_every_command_are_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let file = evil_file(tmp.path());
    let name = file.file_name().unwrap().to_str().unwrap();
    let missing = "missing\u{1b}]0;x\u{7}.pdn";
    for args in [
        &["fix", name, "--out-dir", "fixed"][..],
        &["convert", "--to", "pdn", name, "--out-dir", "conv"][..],
        &["convert", "--to", "pdn", name, missing, "-o", "out.pdn"][..],
        &["stats", name, missing][..],
        &["stats", "--by", "player", name][..],
        &["stats", "--by", "event", name][..],
        &["validate", "--variant", "\u{1b}[2Jnone", name][..],
        &["fix", name, "-o", name][..],
    ] {
        let o = run(tmp.path(), args);
        assert!(o.status.code().is_some(), "{args:?}");
        assert_safe(&format!("{args:?} stderr"), &o.stderr);
        if args[0] == "stats" {
            assert_safe(&format!("{args:?} stdout"), &o.stdout);
        }
    }
}

/// What every data format writes to a terminal (issue 37): `fix` and `convert` (PDN, CSV,
/// Manoury, JSON), `stats` (CSV, JSON), `validate --format json|html` and an SVG diagram,
/// each with standard output on a pseudo-terminal: the input's control and bidirectional
/// characters escaped as the human formats show them; into a pipe, the bytes as they are.
#[test]
fn every_format_written_to_a_terminal_is_escaped() {
    use crate::support::pty::Pty;
    use std::process::Stdio;
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("evil.pdn"), evil_game()).unwrap();
    // (An argument cannot hold NUL.)
    let caption = format!("caption{}", EVIL.replace('\0', ""));
    for args in [
        &["fix", "evil.pdn"][..],
        &["convert", "--to", "pdn", "evil.pdn"][..],
        &["convert", "--to", "csv", "evil.pdn"][..],
        &["convert", "--to", "csv", "--plies", "evil.pdn"][..],
        &["convert", "--to", "manoury", "evil.pdn"][..],
        &["convert", "--to", "json", "evil.pdn"][..],
        &["stats", "--format", "csv", "--by", "player", "evil.pdn"][..],
        &["stats", "--format", "json", "evil.pdn"][..],
        &["validate", "--format", "json", "evil.pdn"][..],
        &["validate", "--format", "html", "evil.pdn"][..],
        &[
            "diagram",
            "--fen",
            "W:W31:B19",
            "--variant",
            "international",
            "--caption",
            &caption,
        ][..],
    ] {
        let mut pty = Pty::new(200);
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_pdn"));
        cmd.current_dir(tmp.path())
            .args(args)
            .stdin(Stdio::null())
            .stdout(pty.stdio())
            .stderr(Stdio::null());
        let mut child = cmd.spawn().expect("run pdn");
        drop(cmd);
        let mut screen = pty.screen();
        let code = screen.finish(&mut child);
        // The terminal's own line discipline writes each line feed as CR LF; tabs lay out
        // text, as line feeds do, and are kept.
        let text = screen.text().replace("\r\n", "\n").replace('\t', " ");
        assert_safe(&format!("{args:?} on a terminal"), text.as_bytes());
        if args.contains(&"html") {
            // A page is not for the terminal (issue 36): refused, as a PNG is.
            assert_eq!((code, text.as_str()), (Some(2), ""), "{args:?}");
            continue;
        }
        if args.contains(&"--plies") {
            // (No text of the input in the rows of the plies.)
            continue;
        }
        let escaped = |a: &str, b: &str| text.contains(a) || text.contains(b);
        assert!(
            escaped("\\u{1b}", "\\u001b"),
            "{args:?}: the characters are there, escaped: {text}"
        );
        if matches!(args[0], "fix" | "convert" | "diagram") {
            assert!(escaped("\\u{202e}", "\\u202e"), "{args:?}: {text}");
        }
    }
    // Into a pipe: PDN is data, written as read.
    let o = run(tmp.path(), &["convert", "--to", "pdn", "evil.pdn"]);
    assert!(o.stdout.contains(&0x1b), "a pipe gets the bytes");
}

/// JSON escapes DEL, the C1 controls and the bidirectional controls (`\u202e`) wherever it
/// goes; an error quoting an option's value escapes it.
#[test]
fn json_escapes_c1_del_and_bidi_and_errors_escape_option_values() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("evil.pdn"), evil_game()).unwrap();
    for args in [
        &["validate", "-f", "json", "evil.pdn"][..],
        &["convert", "--to", "json", "evil.pdn"][..],
        &["stats", "--format", "json", "evil.pdn"][..],
    ] {
        let o = run(tmp.path(), args);
        let text = String::from_utf8(o.stdout).unwrap();
        assert_safe(&format!("{args:?}"), text.as_bytes());
        if args[0] != "validate" {
            // (Tags and comments are in these; validate quotes fewer of them.)
            assert!(
                text.contains("\\u202e") && text.contains("\\u0085"),
                "{args:?}"
            );
        }
        for line in text.lines() {
            let _: serde_json::Value = serde_json::from_str(line).unwrap();
        }
    }
    for args in [
        &["validate", "--format", "\u{1b}[2Jx\u{202e}", "evil.pdn"][..],
        &["convert", "--to", "\u{9b}31m", "evil.pdn"][..],
        &["validate", "--jobs", "\u{1b}]0;x\u{7}", "evil.pdn"][..],
    ] {
        let o = run(tmp.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_safe(&format!("{args:?} stderr"), &o.stderr);
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("\\u{"),
            "{args:?}"
        );
    }
}
