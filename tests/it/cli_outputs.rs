//! Outputs written whole or not at all (issue 20): `-o` and `--audit` interrupted by Ctrl-C
//! on a large input leave no file and an older one untouched, and the progress bar is
//! cleared on a terminal; `--out-dir` mirrors the inputs (one file per input, games in =
//! games out, a line per file); `fix --in-place [--backup]` replaces files atomically, keeps
//! compressed files compressed and leaves a damaged one alone; conflicting options and
//! outputs that would replace an input are usage errors.

use crate::support as common;
use crate::support::pty::{self, Pty};

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn pdn() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
}

fn run(dir: &Path, args: &[&str]) -> Output {
    pdn().current_dir(dir).args(args).output().expect("run pdn")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const GAME: &str = "[Event \"x\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n";
const BAD: &str = "[Event \"bad\"]\n1. 32-28 19-23 2. 33-29 14x23 *\n\n";

/// The temporary outputs left in `dir` (`.NAME.*.tmp`).
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect()
}

/// The shared corpus's PDN files joined and repeated to about `mb` megabytes.
fn big_input(dir: &Path, mb: usize) -> PathBuf {
    let mut files = Vec::new();
    common::pdn_files(&common::corpus(), &mut files);
    let mut one = Vec::new();
    for f in files {
        one.extend_from_slice(&std::fs::read(f).unwrap());
        one.extend_from_slice(b"\n\n");
    }
    let path = dir.join("big.pdn");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let mut written = 0;
    while written < mb << 20 {
        out.write_all(&one).unwrap();
        written += one.len();
    }
    out.flush().unwrap();
    path
}

/// Start `pdn ARGS`, wait until its temporary output in `dir` holds data (midway), send
/// SIGINT; the exit status.
fn interrupt(dir: &Path, args: &[&str]) -> Option<i32> {
    let mut child = pdn()
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run pdn");
    let start = Instant::now();
    loop {
        let midway = temporaries(dir)
            .iter()
            .any(|p| std::fs::metadata(p).is_ok_and(|m| m.len() > 0));
        if midway {
            break;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "{args:?} ended before it could be interrupted: make the input larger"
        );
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no output started"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    // SAFETY: kill(2) on the child's own id.
    let r = unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    assert_eq!(r, 0);
    child.wait().unwrap().code()
}

#[test]
fn an_interrupted_run_leaves_no_partial_file_and_an_older_one_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let big = big_input(dir, 48);
    let big = big.to_str().unwrap();
    for args in [
        &["fix", big, "-o", "OUT", "--audit", "AUDIT", "--jobs", "1"][..],
        &["convert", big, "--to", "pdn", "-o", "OUT"][..],
    ] {
        // No output before: none after.
        let code = interrupt(dir, args);
        assert_eq!(code, Some(130), "{args:?}");
        assert!(!dir.join("OUT").exists(), "{args:?}: a partial OUT");
        assert!(!dir.join("AUDIT").exists(), "{args:?}: a partial AUDIT");
        assert_eq!(temporaries(dir), Vec::<PathBuf>::new(), "{args:?}");
        // An older output: untouched.
        std::fs::write(dir.join("OUT"), "older\n").unwrap();
        std::fs::write(dir.join("AUDIT"), "older audit\n").unwrap();
        let code = interrupt(dir, args);
        assert_eq!(code, Some(130), "{args:?}");
        assert_eq!(std::fs::read_to_string(dir.join("OUT")).unwrap(), "older\n");
        assert_eq!(
            std::fs::read_to_string(dir.join("AUDIT")).unwrap(),
            "older audit\n"
        );
        assert_eq!(temporaries(dir), Vec::<PathBuf>::new(), "{args:?}");
        std::fs::remove_file(dir.join("OUT")).unwrap();
        std::fs::remove_file(dir.join("AUDIT")).unwrap();
    }
}

#[test]
fn a_failed_run_leaves_an_older_output_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("OUT"), "older\n").unwrap();
    // Nothing could be read: fatal, and -o is not replaced by an empty file.
    let o = run(dir, &["fix", "missing.pdn", "-o", "OUT"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(dir.join("OUT")).unwrap(), "older\n");
    // An output in a directory that does not exist: not written, status 1.
    std::fs::write(dir.join("a.pdn"), GAME).unwrap();
    let o = run(
        dir,
        &["convert", "--to", "json", "a.pdn", "-o", "no/such/dir/OUT"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("no/such/dir/OUT"), "{}", stderr(&o));
    assert_eq!(temporaries(dir), Vec::<PathBuf>::new());
    // A complete run replaces it, with the permissions of the file it replaces.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.join("OUT"), std::fs::Permissions::from_mode(0o640)).unwrap();
        let o = run(dir, &["fix", "-q", "a.pdn", "-o", "OUT"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let mode = std::fs::metadata(dir.join("OUT"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640);
        // A new file gets the usual permissions, not the temporary file's private ones.
        let o = run(dir, &["fix", "-q", "a.pdn", "-o", "NEW"]);
        assert_eq!(o.status.code(), Some(0));
        let mode = std::fs::metadata(dir.join("NEW"))
            .unwrap()
            .permissions()
            .mode();
        assert_ne!(
            mode & 0o044,
            0,
            "readable by others as umask 022 allows: {mode:o}"
        );
    }
    assert!(
        std::fs::read_to_string(dir.join("OUT"))
            .unwrap()
            .contains("32-28")
    );
    // validate -o: the report in a file, never over an input.
    let o = run(
        dir,
        &["validate", "-f", "short", "a.pdn", "-o", "report.txt"],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    assert!(
        std::fs::read_to_string(dir.join("report.txt"))
            .unwrap()
            .starts_with("checked 1 game")
    );
    let o = run(dir, &["validate", "a.pdn", "-o", "a.pdn"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(dir.join("a.pdn")).unwrap(), GAME);
    // A device is written directly.
    let o = run(
        dir,
        &["convert", "--to", "json", "a.pdn", "-o", "/dev/null"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A tree of inputs: `a.pdn`, `sub/b.PDN.gz` (3 games), `sub/deeper/c.pdn` (2 games).
fn tree(dir: &Path) -> PathBuf {
    let root = dir.join("in");
    std::fs::create_dir_all(root.join("sub/deeper")).unwrap();
    std::fs::write(root.join("a.pdn"), GAME).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(format!("{GAME}{BAD}{GAME}").as_bytes())
        .unwrap();
    std::fs::write(root.join("sub/b.PDN.gz"), gz.finish().unwrap()).unwrap();
    std::fs::write(root.join("sub/deeper/c.pdn"), format!("{BAD}{GAME}")).unwrap();
    root
}

fn count(path: &Path, needle: &str) -> usize {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .matches(needle)
        .count()
}

#[test]
fn out_dir_writes_one_file_per_input_mirroring_the_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    tree(dir);
    for (to, ext, per_game) in [
        ("pdn", "pdn", "[Event"),
        ("json", "jsonl", "\n"),
        ("manoury", "txt", "[Event"),
    ] {
        let out = format!("out-{to}");
        let o = run(dir, &["convert", "in", "--to", to, "--out-dir", &out]);
        assert_eq!(o.status.code(), Some(0), "{to}: {}", stderr(&o));
        let out = dir.join(out);
        for (rel, games) in [("a", 1), ("sub/b", 3), ("sub/deeper/c", 2)] {
            let f = out.join(format!("{rel}.{ext}"));
            assert_eq!(count(&f, per_game), games, "{to}: {}", f.display());
        }
        let err = stderr(&o);
        assert!(err.contains("in/sub/b.PDN.gz -> out-"), "{err}");
        assert!(err.contains(": 3 games"), "{err}");
        assert!(err.contains("6 games in 3 files, 3 files written"), "{err}");
    }
    // CSV: each file has its own header.
    let o = run(dir, &["convert", "in", "--to", "csv", "--out-dir", "csv"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(count(&dir.join("csv/sub/b.csv"), "\n"), 4);
    let o = run(
        dir,
        &[
            "convert",
            "in",
            "--to",
            "csv",
            "--plies",
            "--out-dir",
            "csv",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(dir.join("csv/sub/deeper/c.plies.csv").is_file());
    // fix: games in = games out per file, one line per file, 1 for the errors left.
    let o = run(dir, &["fix", "in", "--out-dir", "fixed"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    for (rel, games) in [("a", 1), ("sub/b", 3), ("sub/deeper/c", 2)] {
        assert_eq!(
            count(&dir.join(format!("fixed/{rel}.pdn")), "[Event"),
            games
        );
    }
    let err = stderr(&o);
    assert!(
        err.contains("in/sub/deeper/c.pdn -> fixed/sub/deeper/c.pdn: 2 games"),
        "{err}"
    );
    assert!(err.contains("3 files written"), "{err}");
    // Files named on the command line: by their names.
    let o = run(
        dir,
        &[
            "fix",
            "-q",
            "in/a.pdn",
            "in/sub/deeper/c.pdn",
            "--out-dir",
            "flat",
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(dir.join("flat/a.pdn").is_file() && dir.join("flat/c.pdn").is_file());
}

#[test]
fn per_file_usage_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    tree(dir);
    std::fs::create_dir_all(dir.join("other")).unwrap();
    std::fs::write(dir.join("other/a.pdn"), GAME).unwrap();
    for args in [
        // Conflicting destinations.
        &["fix", "in", "-o", "x.pdn", "--out-dir", "d"][..],
        &["fix", "in", "-o", "x.pdn", "--in-place"][..],
        &["fix", "in", "--out-dir", "d", "--in-place"][..],
        &["convert", "in", "--to", "pdn", "-o", "x", "--out-dir", "d"][..],
        &["fix", "in", "--backup", ".orig"][..],
        // Standard input has no name to mirror.
        &["fix", "-", "--out-dir", "d"][..],
        &["convert", "--to", "json", "--out-dir", "d"][..],
        &["fix", "--in-place"][..],
        // Two inputs, one output file.
        &["fix", "in/a.pdn", "other/a.pdn", "--out-dir", "d"][..],
        // An output that would replace an input.
        &["convert", "in", "--to", "pdn", "--out-dir", "in"][..],
    ] {
        let mut child = pdn()
            .current_dir(dir)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // (It may end before it reads: a usage error.)
        let _ = child.stdin.take().unwrap().write_all(GAME.as_bytes());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!dir.join("d").exists(), "{args:?} wrote something");
    }
    // Nothing was replaced.
    assert_eq!(std::fs::read_to_string(dir.join("in/a.pdn")).unwrap(), GAME);
}

#[test]
fn in_place_replaces_each_file_keeps_a_backup_and_leaves_a_damaged_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let root = tree(dir);
    let gz_before = std::fs::read(root.join("sub/b.PDN.gz")).unwrap();
    // A damaged compressed file: left as it was.
    std::fs::write(
        root.join("damaged.pdn.gz"),
        &gz_before[..gz_before.len() - 12],
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(root.join("a.pdn"), std::fs::Permissions::from_mode(0o600))
            .unwrap();
    }
    let o = run(dir, &["fix", "in", "--in-place", "--backup", ".orig"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("damaged.pdn.gz: left as it was"), "{err}");
    assert!(err.contains("3 files written"), "{err}");
    // Replaced, games in = games out, the originals kept.
    assert_eq!(count(&root.join("a.pdn"), "[Event"), 1);
    assert!(
        std::fs::read_to_string(root.join("a.pdn"))
            .unwrap()
            .contains("GameType")
    );
    assert_eq!(
        std::fs::read_to_string(root.join("a.pdn.orig")).unwrap(),
        GAME
    );
    assert_eq!(count(&root.join("sub/deeper/c.pdn"), "[Event"), 2);
    // The compressed file stays compressed.
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(root.join("sub/b.PDN.gz")).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text.matches("[Event").count(), 3);
    assert_eq!(
        std::fs::read(root.join("sub/b.PDN.gz.orig")).unwrap(),
        gz_before
    );
    // The damaged file is untouched and has no backup.
    assert_eq!(
        std::fs::read(root.join("damaged.pdn.gz")).unwrap(),
        &gz_before[..gz_before.len() - 12]
    );
    assert!(!root.join("damaged.pdn.gz.orig").exists());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(root.join("a.pdn"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "permissions kept");
    }
    for d in [&root, &root.join("sub"), &root.join("sub/deeper")] {
        assert_eq!(temporaries(d), Vec::<PathBuf>::new());
    }
    // A second run reads the fixed files (not the backups) and changes nothing more.
    std::fs::remove_file(root.join("damaged.pdn.gz")).unwrap();
    let before = std::fs::read(root.join("a.pdn")).unwrap();
    let o = run(dir, &["fix", "in", "--in-place"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("6 games in 3 files"), "{}", stderr(&o));
    assert_eq!(std::fs::read(root.join("a.pdn")).unwrap(), before);
}

/// A pseudo-terminal for standard error, controlling the child (`setsid`, `TIOCSCTTY`), so
/// that a Ctrl-C typed into it is echoed and interrupts the child as it would a person's.
#[test]
fn ctrl_c_on_a_terminal_clears_the_progress_bar() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let big = big_input(dir, 24);
    let mut pty = Pty::new(80);
    let mut cmd = pdn();
    cmd.current_dir(dir)
        .args(["fix", "--jobs", "1", "-o", "OUT"])
        .arg(&big)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(pty.stdio());
    pty::controlling(&mut cmd);
    let mut child = cmd.spawn().expect("run pdn");
    drop(cmd);
    // Type Ctrl-C once the bar is drawn.
    let mut screen = pty.screen();
    screen.wait_for(&mut child, "games/s");
    pty.type_in(b"\x03");
    let code = screen.finish(&mut child);
    assert_eq!(code, Some(130));
    let text = screen.text();
    // The Ctrl-C echoed, and the bar's last drawing cleared: its line, since no line of the
    // bar reaches the right margin (where the echo would wrap to a line of its own, and the
    // line cleared would be the echo's).
    assert!(text.contains("^C"), "Ctrl-C echoed");
    let last = text.rfind("games/s").unwrap();
    assert!(text[last..].contains("\r\x1b[2K"), "{:?}", &text[last..]);
    for line in text.split(['\r', '\n']).filter(|l| l.contains("games/s")) {
        // The bar and its padding, without escape sequences.
        let width = line
            .replace("^C", "")
            .trim_start_matches("\x1b[2K")
            .chars()
            .filter(|c| !c.is_control())
            .count();
        assert!(width <= 77, "a bar line of {width} columns: {line:?}");
    }
    assert!(!dir.join("OUT").exists());
}

/// `-o -` writes to standard output, as `-` reads standard input (it once made a file named
/// `-` and printed nothing); an option that only names a file refuses `-` (exit 2), and
/// `./-` still names a file called `-`.
#[test]
fn dash_as_output_is_standard_output() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("a.pdn"), GAME).unwrap();
    for args in [
        &["fix", "a.pdn", "-o", "-"][..],
        &["convert", "a.pdn", "--to", "json", "-o", "-"][..],
        &["convert", "a.pdn", "--to", "csv", "--output", "-"][..],
        &["validate", "a.pdn", "-f", "json", "-o", "-"][..],
        &["stats", "a.pdn", "-o", "-"][..],
        &["classify", "a.pdn", "-o", "-"][..],
        &["search", "a.pdn", "--pieces", "W:W28", "-o", "-"][..],
        &["explore", "a.pdn", "-o", "-"][..],
        &["names", "a.pdn", "-o", "-"][..],
    ] {
        let o = run(dir, args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert!(
            !o.stdout.is_empty(),
            "{args:?} wrote nothing to standard output"
        );
        // The same bytes as with no -o at all.
        let plain = run(dir, &args[..args.len() - 2]);
        assert_eq!(o.stdout, plain.stdout, "{args:?}");
        assert!(!dir.join("-").exists(), "{args:?} made a file named -");
    }
    for args in [
        &["fix", "a.pdn", "--audit", "-"][..],
        &["fix", "a.pdn", "--out-dir", "-"][..],
        &["convert", "a.pdn", "--to", "pdn", "--out-dir", "-"][..],
        &["merge", "a.pdn", "-o", "-", "--audit", "m.jsonl"][..],
        &["merge", "a.pdn", "-o", "m.pdn", "--audit", "-"][..],
        &["index", "a.pdn", "-o", "-"][..],
        &["man", "--out-dir", "-"][..],
    ] {
        let o = run(dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("`./-`"), "{args:?}: {}", stderr(&o));
        assert!(!dir.join("-").exists(), "{args:?} made a file named -");
    }
    let o = run(dir, &["fix", "a.pdn", "-o", "./-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let written = std::fs::read_to_string(dir.join("-")).unwrap();
    assert!(written.contains("32-28"), "{written}");
}

/// A file replaced in place loses its other names (hard links) to the old text, as a rename
/// must: the run says so, naming the file, and the other name keeps the text as it was.
#[cfg(unix)]
#[test]
fn replacing_a_file_with_hard_links_says_the_other_names_keep_the_old_text() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("a.pdn"), BAD).unwrap();
    std::fs::hard_link(dir.join("a.pdn"), dir.join("b.pdn")).unwrap();
    let o = run(dir, &["fix", "--in-place", "a.pdn"]);
    let err = stderr(&o);
    assert!(
        err.contains("a.pdn had 1 other name (hard link): it keeps the text as it was"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(dir.join("b.pdn")).unwrap(), BAD);
    assert_ne!(std::fs::read_to_string(dir.join("a.pdn")).unwrap(), BAD);
    // A file with one name: no such note.
    std::fs::write(dir.join("c.pdn"), GAME).unwrap();
    let o = run(dir, &["fix", "--in-place", "c.pdn"]);
    assert!(!stderr(&o).contains("hard link"), "{}", stderr(&o));
    // -o over a linked file says it too.
    std::fs::hard_link(dir.join("c.pdn"), dir.join("d.pdn")).unwrap();
    std::fs::hard_link(dir.join("c.pdn"), dir.join("e.pdn")).unwrap();
    let o = run(dir, &["convert", "a.pdn", "--to", "pdn", "-o", "c.pdn"]);
    assert!(
        stderr(&o).contains("c.pdn had 2 other names (hard links): they keep"),
        "{}",
        stderr(&o)
    );
}
