//! Never lose a byte (issue 37): one test per attack of the adversarial test. A game over
//! the size limit and the games after it; a stray `{` in an archive without tags; the same
//! file reached twice, by two runs at once and through a link back to its parent; a backup
//! that would overwrite an input, an existing backup, an audit on a backup; `--in-place`
//! through a link, and a file of another owner; a named pipe and a link cycle in a
//! directory; standard error closed or broken, standard output closed; every catchable
//! signal and a file size limit; a stray byte among UTF-8; the words of the errors.

use crate::support as common;

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn pdn() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pdn"));
    c.env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    c
}

fn run(dir: &Path, args: &[&str]) -> Output {
    pdn().current_dir(dir).args(args).output().expect("run pdn")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const GAME: &str = "[Event \"x\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n";

/// The temporary outputs left anywhere below `dir` (`.NAME.*.tmp`).
fn temporaries(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let m = std::fs::symlink_metadata(&p).unwrap();
            if m.is_dir() {
                stack.push(p);
            } else if p.to_string_lossy().ends_with(".tmp") {
                out.push(p);
            }
        }
    }
    out
}

/// Wait for `child` at most `secs` seconds (then kill it and fail).
fn wait_at_most(child: &mut Child, secs: u64, what: &str) -> Option<i32> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            panic!("{what}: still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A file holding a first game, a game of `size` bytes (most of it one comment), a game
/// without tags and a last game.
fn with_a_huge_game(path: &Path, size: usize) {
    use std::io::Write;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    f.write_all(b"[Event \"first\"]\n1. 32-28 19-23 *\n\n[Event \"huge\"]\n1. 32-28 {")
        .unwrap();
    let line = b"a comment that goes on and on and on and on and on and on and on\n";
    let mut n = 0;
    while n < size {
        f.write_all(line).unwrap();
        n += line.len();
    }
    f.write_all(b"} 19-23 *\n\n1. 33-28 18-23 *\n\n[Event \"after\"]\n1. 34-29 19-23 *\n")
        .unwrap();
    f.flush().unwrap();
}

/// A game whose output is longer than what a worker keeps in memory (1 MiB: it goes to a
/// temporary file as it is written, `pdn::app::write::spill`) is written whole and in its
/// place among the games, whatever `--jobs`; `fix` counts the errors of the text it wrote
/// (read back from there) and a second `fix` changes nothing.
#[test]
fn a_game_with_a_long_output_is_written_whole_and_in_order() {
    use std::fmt::Write as _;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut text = String::from("[Event \"first\"]\n1. 32-28 19-23 *\n\n");
    text.push_str("[Event \"long\"]\n[FEN \"W:WK50:BK1\"]\n");
    for n in 0..20_000 {
        let _ = writeln!(
            text,
            "{}. 50-45 (50-44 1-7 44-50) 1-6 {{back}} {}. 45-50 6-1",
            2 * n + 1,
            2 * n + 2
        );
    }
    text.push_str("*\n\n[Event \"after\"]\n1. 34-29 19-23 *\n");
    assert!(text.len() > 1 << 20);
    std::fs::write(dir.join("long.pdn"), &text).unwrap();
    let mut outs = Vec::new();
    for jobs in ["1", "2"] {
        for (args, name) in [
            (&["fix", "long.pdn"][..], "fixed"),
            (&["convert", "long.pdn", "--to", "json"][..], "json"),
            (&["convert", "long.pdn", "--to", "pdn"][..], "pdn"),
            (&["convert", "long.pdn", "--to", "manoury"][..], "manoury"),
            (
                &["convert", "long.pdn", "--to", "csv", "--plies"][..],
                "plies",
            ),
        ] {
            let out = format!("{name}{jobs}");
            let mut a = args.to_vec();
            a.extend(["--jobs", jobs, "-o", &out]);
            let o = run(dir, &a);
            assert_eq!(o.status.code(), Some(0), "{a:?}: {}", stderr(&o));
            outs.push((out.clone(), std::fs::read(dir.join(&out)).unwrap()));
        }
    }
    // The same bytes whatever --jobs.
    for k in 0..5 {
        assert_eq!(
            outs[k].1,
            outs[k + 5].1,
            "{} and {}",
            outs[k].0,
            outs[k + 3].0
        );
    }
    let json = String::from_utf8(outs[1].1.clone()).unwrap();
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1]["tags"]["Event"], "long");
    assert_eq!(lines[1]["plies"], 80_000);
    assert_eq!(lines[1]["moves"].as_array().unwrap().len(), 80_000);
    assert_eq!(lines[2]["tags"]["Event"], "after");
    // The main line in the book style, every game; a row for each ply, in order.
    let manoury = String::from_utf8(outs[3].1.clone()).unwrap();
    assert!(manoury.contains("39999. 50-45 (1-6) {back} 40000. 45-50 (6-1) *"));
    assert!(manoury.ends_with("1. 34-29 (19-23) *\n\n"), "{manoury}");
    let plies = String::from_utf8(outs[4].1.clone()).unwrap();
    assert!(plies.len() > 1 << 20);
    let rows: Vec<&str> = plies.lines().skip(1).collect();
    assert_eq!(rows.len(), 2 + 80_000 + 2);
    for (k, row) in rows.iter().enumerate() {
        let (game, ply) = match k {
            0 | 1 => (1, k + 1),
            80_002.. => (3, k - 80_001),
            _ => (2, k - 1),
        };
        assert!(row.starts_with(&format!("long.pdn,{game},{ply},")), "{row}");
    }
    // The fixed text is longer than the limit too, and fixing it again changes nothing.
    assert!(outs[0].1.len() > 1 << 20);
    let o = run(dir, &["fix", "fixed1", "-o", "again"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("0 changes"), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.join("again")).unwrap(), outs[0].1);
    assert_eq!(temporaries(dir), Vec::<PathBuf>::new());
}

/// A game larger than the largest the commands read (64 MiB) is an error: `fix --in-place`
/// leaves the file as it was (exit 1, the game named), `fix -o` writes every game after it
/// and says what its output misses, `validate` reads the games after it.
#[test]
fn a_game_over_the_size_limit_leaves_the_file_and_the_games_after_it_are_read() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("huge.pdn");
    with_a_huge_game(&file, 65 << 20);
    let before = std::fs::metadata(&file).unwrap();
    let o = run(dir, &["fix", "huge.pdn", "--in-place", "--backup", ".orig"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("huge.pdn: left as it was, not replaced: game 2 could not be read whole"),
        "{err}"
    );
    let after = std::fs::metadata(&file).unwrap();
    assert_eq!(after.len(), before.len());
    assert_eq!(after.modified().unwrap(), before.modified().unwrap());
    assert!(!dir.join("huge.pdn.orig").exists());
    assert_eq!(temporaries(dir), Vec::<PathBuf>::new());
    // To another file: every game, and the loss said.
    let o = run(dir, &["fix", "huge.pdn", "-o", "out.pdn"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 game could not be read whole: the output misses part of it"),
        "{}",
        stderr(&o)
    );
    let out = std::fs::read_to_string(dir.join("out.pdn")).unwrap();
    for needle in [
        "[Event \"first\"]",
        "[Event \"huge\"]",
        "1. 33-28 18-23",
        "[Event \"after\"]",
    ] {
        assert!(out.contains(needle), "{needle} missing");
    }
    let o = run(dir, &["validate", "-f", "json", "huge.pdn"]);
    let summary = String::from_utf8_lossy(&o.stdout);
    let summary = summary.lines().last().unwrap();
    assert!(summary.contains("\"games\":4"), "{summary}");
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("game longer than the maximum"),
        "the error"
    );
}

/// A `{` never closed early in an archive without tags (nor any `}` after it): the comment
/// stops before the result that ends its game, and every game after it is read and kept.
#[test]
fn a_stray_brace_in_an_archive_without_tags_loses_no_game() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut text = String::from("1. 32-28 { 19-23 2. 28x19 14x23 2-0\n\n");
    for _ in 0..500 {
        text.push_str("1. 33-28 18-23 2. 39-33 12-18 1-1\n\n");
    }
    std::fs::write(dir.join("t.pdn"), &text).unwrap();
    for jobs in ["1", "2"] {
        let o = run(dir, &["validate", "-f", "json", "--jobs", jobs, "t.pdn"]);
        let out = String::from_utf8_lossy(&o.stdout);
        let summary = out.lines().last().unwrap();
        assert!(summary.contains("\"games\":501"), "{summary}");
        assert!(out.contains("unterminated comment"), "the error is said");
    }
    let o = run(dir, &["fix", "t.pdn", "--in-place"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    let fixed = std::fs::read_to_string(dir.join("t.pdn")).unwrap();
    assert_eq!(fixed.matches("1. 33-28 18-23").count(), 500);
}

/// The same file named twice, found twice (`d d/a.pdn`), through a link to its directory
/// and through a link back to a parent: fixed once, its backup holds the original.
#[test]
fn the_same_file_reached_twice_is_fixed_once_and_its_backup_holds_the_original() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("d/sub")).unwrap();
    std::fs::write(dir.join("d/a.pdn"), GAME).unwrap();
    std::fs::write(dir.join("d/sub/b.pdn"), GAME).unwrap();
    std::os::unix::fs::symlink("..", dir.join("d/sub/up")).unwrap();
    std::os::unix::fs::symlink("d", dir.join("alias")).unwrap();
    let o = run(
        dir,
        &[
            "fix",
            "d",
            "d/a.pdn",
            "./d/a.pdn",
            "alias",
            "alias/a.pdn",
            "--in-place",
            "--backup",
            ".orig",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("2 files written"), "{err}");
    assert!(err.contains("d/a.pdn is named twice: read once"), "{err}");
    assert!(err.contains("a link to d, already read: skipped"), "{err}");
    for f in ["d/a.pdn.orig", "d/sub/b.pdn.orig"] {
        assert_eq!(std::fs::read_to_string(dir.join(f)).unwrap(), GAME, "{f}");
    }
    assert!(!dir.join("d/a.pdn.orig.orig").exists());
    // Again: nothing changes, nothing is rewritten, the backups stay.
    let fixed = std::fs::read(dir.join("d/a.pdn")).unwrap();
    let o = run(dir, &["fix", "d", "--in-place", "--backup", ".orig"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("2 unchanged"), "{}", stderr(&o));
    assert!(stderr(&o).contains("0 changes"), "{}", stderr(&o));
    assert_eq!(std::fs::read(dir.join("d/a.pdn")).unwrap(), fixed);
    assert_eq!(
        std::fs::read_to_string(dir.join("d/a.pdn.orig")).unwrap(),
        GAME
    );
}

/// Two runs at once on one file: the backup holds the original, the file the fixed text
/// (one of the runs replaces it, the other finds it changed and leaves it).
#[test]
fn two_runs_at_once_keep_the_original_in_the_backup() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let big = common::big_input(dir, 12);
    let original = std::fs::read(&big).unwrap();
    let start = |delay_ms: u64| {
        std::thread::sleep(Duration::from_millis(delay_ms));
        pdn()
            .current_dir(dir)
            .args(["fix", "-q", "big.pdn", "--in-place", "--backup", ".orig"])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let a = start(0);
    let b = start(200);
    let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
    let backup = std::fs::read(dir.join("big.pdn.orig")).unwrap();
    assert!(backup == original, "the backup holds the original");
    let o = run(dir, &["fix", "-q", "big.pdn.orig", "-o", "expected.pdn"]);
    assert!(o.status.code().is_some());
    assert!(
        std::fs::read(dir.join("expected.pdn")).unwrap() == std::fs::read(&big).unwrap(),
        "the file holds the fixed text"
    );
    assert_eq!(temporaries(dir), Vec::<PathBuf>::new());
    let errs = format!("{}{}", stderr(&a), stderr(&b));
    assert!(!errs.contains("panicked"), "{errs}");
}

/// A backup name that is another input (`--backup .gz` beside `x.pdn.gz`), an audit that is
/// a backup or a file of `--out-dir`, a `--out-dir` that is a file: refused before any
/// work. An existing backup is never overwritten: the file is left as it was.
#[test]
fn targets_that_would_overwrite_an_input_a_backup_or_each_other_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("x.pdn"), GAME).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, GAME.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    std::fs::write(dir.join("x.pdn.gz"), &gz).unwrap();
    std::fs::write(dir.join("file"), "not a directory").unwrap();
    for (args, says) in [
        (
            &["fix", "x.pdn", "x.pdn.gz", "--in-place", "--backup", ".gz"][..],
            "would replace the input x.pdn.gz",
        ),
        (
            &[
                "fix",
                "x.pdn",
                "--in-place",
                "--backup",
                ".orig",
                "--audit",
                "x.pdn.orig",
            ][..],
            "name the same file",
        ),
        (
            &["fix", "x.pdn", "--out-dir", "out", "--audit", "out/x.pdn"][..],
            "name the same file",
        ),
        (
            &["fix", "x.pdn", "--audit", "x.pdn"][..],
            "would replace the input",
        ),
        (
            &["fix", "x.pdn", "--out-dir", "file"][..],
            "is not a directory",
        ),
        (
            &["convert", "x.pdn", "--to", "pdn", "--out-dir", "file"][..],
            "is not a directory",
        ),
    ] {
        let o = run(dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    assert_eq!(std::fs::read_to_string(dir.join("x.pdn")).unwrap(), GAME);
    assert_eq!(std::fs::read(dir.join("x.pdn.gz")).unwrap(), gz);
    assert!(!dir.join("x.pdn.orig").exists() && !dir.join("out/x.pdn").exists());
    // A backup already there: kept, and the file left as it was.
    std::fs::write(dir.join("x.pdn.orig"), "an older backup\n").unwrap();
    let o = run(dir, &["fix", "x.pdn", "--in-place", "--backup", ".orig"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("its backup x.pdn.orig exists, and a backup is never overwritten"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(dir.join("x.pdn")).unwrap(), GAME);
    assert_eq!(
        std::fs::read_to_string(dir.join("x.pdn.orig")).unwrap(),
        "an older backup\n"
    );
    assert_eq!(temporaries(dir), Vec::<PathBuf>::new());
}

/// A file a run reads besides its games (an opening table, a names table, an index, a file
/// of games an index names) is never an output: every command that reads one refuses an
/// `-o`, `--audit` or `--out-dir` file that is it (or a link to it), before any work, and the
/// file is left as it was.
#[test]
fn an_output_that_would_replace_a_table_or_an_index_the_run_reads_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("x.pdn"), GAME).unwrap();
    let table = "# variant: international\nMy opening\t32-28 19-23\n";
    std::fs::write(dir.join("t.tsv"), table).unwrap();
    let names = "Anon\tA. Nonymous\n";
    std::fs::write(dir.join("n.tsv"), names).unwrap();
    std::os::unix::fs::symlink("n.tsv", dir.join("link.tsv")).unwrap();
    let o = run(dir, &["index", "x.pdn", "-o", "x.idx"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let index = std::fs::read(dir.join("x.idx")).unwrap();
    let out_dir_table = dir.join("out");
    std::fs::create_dir(&out_dir_table).unwrap();
    std::fs::write(out_dir_table.join("x.pdn"), table).unwrap();
    for (args, says) in [
        (
            &["classify", "x.pdn", "--table", "t.tsv", "-o", "t.tsv"][..],
            "-o t.tsv is the --table file",
        ),
        (
            &["stats", "x.pdn", "--table", "t.tsv", "-o", "t.tsv"][..],
            "-o t.tsv is the --table file",
        ),
        (
            &[
                "convert",
                "x.pdn",
                "--to",
                "json",
                "--classify",
                "--table",
                "t.tsv",
                "-o",
                "t.tsv",
            ][..],
            "would replace the --table file t.tsv",
        ),
        (
            &[
                "fix",
                "x.pdn",
                "--classify",
                "--table",
                "t.tsv",
                "--audit",
                "t.tsv",
            ][..],
            "would replace the --table file t.tsv",
        ),
        (
            &[
                "fix",
                "x.pdn",
                "--classify",
                "--table",
                "out/x.pdn",
                "--out-dir",
                "out",
            ][..],
            "would replace the --table file out/x.pdn",
        ),
        (
            &["names", "x.pdn", "--apply", "n.tsv", "-o", "link.tsv"][..],
            "-o link.tsv is the --apply table",
        ),
        (
            &[
                "merge", "x.pdn", "--names", "n.tsv", "-o", "n.tsv", "--audit", "a.json",
            ][..],
            "-o n.tsv is the --names table",
        ),
        (
            &[
                "merge", "x.pdn", "--names", "n.tsv", "-o", "m.pdn", "--audit", "n.tsv",
            ][..],
            "--audit n.tsv is the --names table",
        ),
        (
            &[
                "search",
                "--index",
                "x.idx",
                "--captures",
                "1",
                "-o",
                "x.idx",
            ][..],
            "-o x.idx is the --index file",
        ),
        (
            &[
                "search",
                "--index",
                "x.idx",
                "--captures",
                "1",
                "-o",
                "x.pdn",
            ][..],
            "-o x.pdn is a file of games the index names",
        ),
    ] {
        let o = run(dir, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert_eq!(std::fs::read_to_string(dir.join("t.tsv")).unwrap(), table);
        assert_eq!(std::fs::read_to_string(dir.join("n.tsv")).unwrap(), names);
        assert_eq!(std::fs::read(dir.join("x.idx")).unwrap(), index);
        assert_eq!(std::fs::read_to_string(dir.join("x.pdn")).unwrap(), GAME);
        assert_eq!(
            std::fs::read_to_string(out_dir_table.join("x.pdn")).unwrap(),
            table
        );
    }
    assert!(dir.join("link.tsv").is_symlink());
    assert!(!dir.join("a.json").exists() && !dir.join("m.pdn").exists());
    // From another directory: the index's games are found by the path it keeps, not by the
    // name it shows, so an unrelated file of that name here may be written.
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let search_to = |out: &str| {
        run(
            &sub,
            &[
                "search",
                "--index",
                "../x.idx",
                "--captures",
                "1",
                "-o",
                out,
            ],
        )
    };
    let o = search_to("../x.pdn");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("-o ../x.pdn is a file of games the index names"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(dir.join("x.pdn")).unwrap(), GAME);
    std::fs::write(sub.join("x.pdn"), "unrelated\n").unwrap();
    let o = search_to("x.pdn");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(sub.join("x.pdn"))
            .unwrap()
            .contains("1 match")
    );
    // An input that --in-place replaces may be a table of the run too (read whole first).
    let opening = "[Opening \"Mine\"]\n1. 32-28 19-23 *\n";
    std::fs::write(dir.join("o.pdn"), opening).unwrap();
    let o = run(
        dir,
        &[
            "fix",
            "o.pdn",
            "--classify",
            "--table",
            "o.pdn",
            "--in-place",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(dir.join("o.pdn"))
            .unwrap()
            .contains("[Opening \"Mine\"]")
    );
    assert_eq!(temporaries(dir), Vec::<PathBuf>::new());
}

/// `--in-place` through a link fixes the file it names and keeps the link; `-o` through a
/// link writes the file it names; a replaced file keeps its mode, and (as root) a file of
/// another user keeps its owner and group.
#[test]
fn in_place_through_a_link_fixes_the_target_and_keeps_the_link_owner_and_mode() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("real")).unwrap();
    std::fs::write(dir.join("real/x.pdn"), GAME).unwrap();
    std::fs::set_permissions(
        dir.join("real/x.pdn"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    std::os::unix::fs::symlink("real/x.pdn", dir.join("link.pdn")).unwrap();
    // SAFETY: geteuid only reads the process's user id.
    let root = unsafe { libc::geteuid() } == 0;
    if root {
        std::os::unix::fs::chown(dir.join("real/x.pdn"), Some(65534), Some(65534)).unwrap();
    }
    let o = run(dir, &["fix", "link.pdn", "--in-place", "--backup", ".orig"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let link = std::fs::symlink_metadata(dir.join("link.pdn")).unwrap();
    assert!(link.file_type().is_symlink(), "the link is kept");
    let fixed = std::fs::read_to_string(dir.join("real/x.pdn")).unwrap();
    assert!(
        fixed.contains("[GameType \"20\"]"),
        "the target is fixed: {fixed}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("real/x.pdn.orig")).unwrap(),
        GAME
    );
    let m = std::fs::metadata(dir.join("real/x.pdn")).unwrap();
    assert_eq!(m.permissions().mode() & 0o777, 0o640);
    if root {
        assert_eq!((m.uid(), m.gid()), (65534, 65534), "owner and group kept");
    }
    // -o through a link (to a file not there yet): the file it names is written.
    std::os::unix::fs::symlink("real/y.pdn", dir.join("out.pdn")).unwrap();
    let o = run(dir, &["fix", "link.pdn", "-o", "out.pdn"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(dir.join("out.pdn"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("real/y.pdn")).unwrap(),
        fixed
    );
    // -o /dev/stdout into a file: written there, and /dev/stdout stays what it is.
    let out = std::fs::File::create(dir.join("stdout.txt")).unwrap();
    let o = pdn()
        .current_dir(dir)
        .args(["fix", "link.pdn", "-o", "/dev/stdout"])
        .stdout(out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.join("stdout.txt")).unwrap(),
        fixed
    );
    assert!(
        std::fs::symlink_metadata("/dev/stdout")
            .map(|m| !m.is_file())
            .unwrap_or(true)
    );
    assert_eq!(temporaries(dir), Vec::<PathBuf>::new());
}

/// A named pipe called `*.pdn` and a link cycle inside a directory: the walk ends, each
/// noted once; named on the command line, a pipe is read.
#[test]
fn a_named_pipe_and_a_link_cycle_in_a_directory_do_not_hang() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("d/sub")).unwrap();
    std::fs::write(dir.join("d/a.pdn"), GAME).unwrap();
    std::os::unix::fs::symlink("..", dir.join("d/sub/loop")).unwrap();
    std::os::unix::fs::symlink("../sub", dir.join("d/sub/self")).unwrap();
    let fifo = dir.join("d/pipe.pdn");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a path made above.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let mut child = pdn()
        .current_dir(dir)
        .args(["validate", "-f", "short", "d"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let code = wait_at_most(
        &mut child,
        30,
        "validate of a directory with a pipe and a cycle",
    );
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("d/pipe.pdn: a named pipe, not a regular file: skipped"),
        "{err}"
    );
    assert_eq!(err.matches("already read: skipped").count(), 2, "{err}");
    assert!(err.len() < 800, "briefly: {err}");
}

/// Standard error closed, or a pipe whose reader has gone, or full: no panic, and every
/// output is complete.
#[test]
fn standard_error_that_cannot_be_written_never_panics_and_outputs_are_complete() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("in")).unwrap();
    for k in 0..30 {
        std::fs::write(dir.join(format!("in/g{k:02}.pdn")), GAME).unwrap();
    }
    for how in ["closed", "broken pipe", "full"] {
        let out = dir.join(format!("out-{}", how.replace(' ', "-")));
        let mut cmd = pdn();
        cmd.current_dir(dir)
            .args(["fix", "in", "--out-dir"])
            .arg(&out)
            .stdout(Stdio::null());
        match how {
            "closed" => {
                // SAFETY: close(2) in the child before exec; nothing else runs there.
                unsafe {
                    cmd.pre_exec(|| {
                        libc::close(2);
                        Ok(())
                    });
                }
                cmd.stderr(Stdio::inherit());
            }
            "full" => {
                cmd.stderr(
                    std::fs::OpenOptions::new()
                        .write(true)
                        .open("/dev/full")
                        .unwrap(),
                );
            }
            _ => {
                cmd.stderr(Stdio::piped());
            }
        }
        let mut child = cmd.spawn().unwrap();
        // The reader of standard error leaves at once.
        drop(child.stderr.take());
        let code = wait_at_most(&mut child, 60, how);
        assert_eq!(code, Some(0), "{how}: exit status (101 is a panic)");
        for k in 0..30 {
            let f = out.join(format!("g{k:02}.pdn"));
            assert!(
                std::fs::read_to_string(&f).is_ok_and(|t| t.contains("[GameType \"20\"]")),
                "{how}: {} missing or incomplete",
                f.display()
            );
        }
        assert_eq!(temporaries(&out), Vec::<PathBuf>::new(), "{how}");
    }
}

/// Standard output closed (`>&-`) or standard input closed (`<&-`): an error, not a
/// silent success.
#[test]
fn a_closed_standard_output_or_input_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("x.pdn"), GAME).unwrap();
    for (fd, args, says) in [
        (1, &["fix", "x.pdn"][..], "cannot write standard output"),
        (
            1,
            &["convert", "--to", "json", "x.pdn"][..],
            "cannot write standard output",
        ),
        (0, &["validate", "-"][..], "standard input was closed"),
    ] {
        let mut cmd = pdn();
        cmd.current_dir(dir).args(args);
        // SAFETY: close(2) of one descriptor in the child before exec.
        unsafe {
            cmd.pre_exec(move || {
                libc::close(fd);
                Ok(())
            });
        }
        let o = cmd.output().unwrap();
        assert_ne!(o.status.code(), Some(0), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    // A user's own /dev/null is no closed stream.
    let o = pdn()
        .current_dir(dir)
        .args(["fix", "x.pdn"])
        .stdout(std::fs::File::create("/dev/null").unwrap())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Nor is one opened for reading and writing, as Python's `subprocess.DEVNULL` and
    // daemons give it.
    #[cfg(target_os = "linux")]
    for args in [
        &["validate", "x.pdn"][..],
        &["convert", "--to", "json", "x.pdn"][..],
    ] {
        let rw = || {
            std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open("/dev/null")
                .unwrap()
        };
        let o = pdn()
            .current_dir(dir)
            .args(args)
            .stdin(rw())
            .stdout(rw())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
    }
}

/// Start `pdn ARGS` and wait until its temporary output in `dir` holds data.
fn start_midway(dir: &Path, args: &[&str], limit: Option<u64>) -> Child {
    let mut cmd = pdn();
    cmd.current_dir(dir)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(bytes) = limit {
        // SAFETY: setrlimit in the child before exec.
        unsafe {
            cmd.pre_exec(move || {
                let lim = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: libc::RLIM_INFINITY,
                };
                libc::setrlimit(libc::RLIMIT_FSIZE, &lim);
                Ok(())
            });
        }
    }
    let mut child = cmd.spawn().unwrap();
    if limit.is_some() {
        return child;
    }
    let start = Instant::now();
    loop {
        let midway = temporaries(dir)
            .iter()
            .any(|p| std::fs::metadata(p).is_ok_and(|m| m.len() > 0));
        if midway {
            return child;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "{args:?} ended before it could be interrupted"
        );
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no output started"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Every catchable signal that ends a process (not only SIGINT, SIGTERM and SIGHUP) removes
/// the temporary outputs and exits with 128 + the signal; a file size limit (`ulimit -f`)
/// says so.
#[test]
fn every_catchable_signal_removes_the_temporary_outputs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    common::big_input(dir, 48);
    let args = [
        "fix", "big.pdn", "-o", "OUT", "--audit", "AUDIT", "--jobs", "1",
    ];
    for sig in [
        libc::SIGQUIT,
        libc::SIGALRM,
        libc::SIGUSR1,
        libc::SIGUSR2,
        libc::SIGXCPU,
        libc::SIGXFSZ,
        libc::SIGVTALRM,
        libc::SIGPROF,
        libc::SIGPWR,
        libc::SIGRTMIN(),
        libc::SIGTERM,
    ] {
        let mut child = start_midway(dir, &args, None);
        // SAFETY: kill(2) on the child's own id.
        assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, sig) }, 0);
        let code = wait_at_most(&mut child, 60, "a signalled run");
        assert_eq!(code, Some(128 + sig), "signal {sig}");
        assert_eq!(temporaries(dir), Vec::<PathBuf>::new(), "signal {sig}");
        assert!(!dir.join("OUT").exists() && !dir.join("AUDIT").exists());
    }
    // A file size limit of 1 MiB: the output cannot grow past it.
    let mut child = start_midway(dir, &args, Some(1 << 20));
    let code = wait_at_most(&mut child, 120, "a run under ulimit -f");
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    // The signal, or the write's own error (whichever comes first): either says why.
    assert!(
        code == Some(1) || code == Some(128 + libc::SIGXFSZ),
        "{code:?} {err}"
    );
    assert!(err.contains("ulimit -f"), "{err}");
    assert_eq!(temporaries(dir), Vec::<PathBuf>::new());
    assert!(!dir.join("OUT").exists());
}

/// The scratch files of `index` (its sorting runs, beside the index) and of `explore` (a
/// temporary index and its runs, in `$TMPDIR`) are removed by a signal that ends the run, as
/// temporary outputs are, and by a run that ends.
#[test]
fn a_signal_removes_the_scratch_files_of_index_and_explore() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    common::big_input(dir, 24);
    let scratch_dir = dir.join("scratch");
    std::fs::create_dir(&scratch_dir).unwrap();
    // Every file and directory made by the run (the input and the scratch directory aside).
    let made = || -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .chain(std::fs::read_dir(&scratch_dir).unwrap())
            .map(|e| e.unwrap().path())
            .filter(|p| *p != scratch_dir && *p != dir.join("big.pdn"))
            .collect();
        v.sort();
        v
    };
    // Some sorting run holds data: the run is midway.
    let midway = || {
        made().iter().any(|d| {
            d.is_dir()
                && std::fs::read_dir(d)
                    .unwrap()
                    .any(|e| e.unwrap().metadata().is_ok_and(|m| m.len() > 0))
        })
    };
    let runs: [&[&str]; 2] = [
        &["index", "big.pdn", "-o", "x.idx", "--jobs", "1"],
        &["explore", "big.pdn", "-o", "x.txt", "--jobs", "1"],
    ];
    for args in runs {
        for sig in [libc::SIGTERM, libc::SIGUSR1] {
            let mut child = pdn()
                .current_dir(dir)
                .env("TMPDIR", &scratch_dir)
                .args(args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let start = Instant::now();
            while !midway() {
                assert!(
                    child.try_wait().unwrap().is_none(),
                    "{args:?} ended before it could be interrupted"
                );
                assert!(start.elapsed() < Duration::from_secs(120), "{args:?}");
                std::thread::sleep(Duration::from_millis(2));
            }
            // SAFETY: kill(2) on the child's own id.
            assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, sig) }, 0);
            let code = wait_at_most(&mut child, 60, "a signalled run");
            assert_eq!(code, Some(128 + sig), "{args:?} signal {sig}");
            assert_eq!(made(), Vec::<PathBuf>::new(), "{args:?} signal {sig}");
        }
        // A run that ends leaves its output only.
        let o = pdn()
            .current_dir(dir)
            .env("TMPDIR", &scratch_dir)
            .args(args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert_eq!(made(), vec![dir.join(args[3])], "{args:?}");
        std::fs::remove_file(dir.join(args[3])).unwrap();
    }
}

/// One byte that is not UTF-8 in a UTF-8 game: that byte is one character, the rest of the
/// game keeps its UTF-8 (no mojibake written back by `fix --in-place`), and a note says so.
#[test]
fn one_invalid_byte_leaves_the_rest_of_the_game_in_utf8() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let bytes =
        b"[Event \"Caf\xE9\"]\n[White \"Gr\xC3\xA9mion\"]\n1. 32-28 {d\xC3\xA9j\xC3\xA0} 19-23 *\n";
    std::fs::write(dir.join("x.pdn"), bytes).unwrap();
    let o = run(dir, &["validate", "-f", "json", "x.pdn"]);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        out.contains("bytes that are not UTF-8 among UTF-8 text"),
        "the note: {out}"
    );
    let o = run(dir, &["fix", "x.pdn", "--in-place"]);
    assert!(o.status.code().is_some(), "{}", stderr(&o));
    let fixed = std::fs::read_to_string(dir.join("x.pdn")).expect("UTF-8 written");
    assert!(fixed.contains("[White \"Grémion\"]"), "{fixed}");
    assert!(fixed.contains("{déjà}"), "{fixed}");
    assert!(
        fixed.contains("[Event \"Café\"]"),
        "the stray byte, read as Windows-1252: {fixed}"
    );
    assert!(!fixed.contains("Ã"), "no mojibake: {fixed}");
}

/// The words: an error names its file (a full disk under `--audit`), `--jobs 0` is an
/// error, a file without games and a directory without PDN files get a note, a binary
/// input is one line, `fix` of a fixed file reports 0 changes.
#[test]
fn errors_name_their_file_and_notes_say_what_was_passed_over() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("x.pdn"), GAME).unwrap();
    std::fs::write(dir.join("empty.pdn"), "").unwrap();
    std::fs::create_dir(dir.join("nothing")).unwrap();
    std::fs::write(dir.join("nothing/readme.txt"), "no games").unwrap();
    let mut binary: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 251) as u8).collect();
    binary[..4].copy_from_slice(b"\x7fELF");
    std::fs::write(dir.join("binary.pdn"), &binary).unwrap();
    let o = run(
        dir,
        &["fix", "x.pdn", "--audit", "/dev/full", "-o", "out.pdn"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write /dev/full"),
        "{}",
        stderr(&o)
    );
    let o = run(dir, &["validate", "--jobs", "0", "x.pdn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--jobs"), "{}", stderr(&o));
    let o = run(
        dir,
        &["validate", "empty.pdn", "nothing", "binary.pdn", "x.pdn"],
    );
    let err = stderr(&o);
    assert!(err.contains("empty.pdn: no game in it"), "{err}");
    assert!(err.contains("nothing: no PDN file in it"), "{err}");
    assert_eq!(err.matches("binary.pdn").count(), 1, "one line: {err}");
    assert!(err.contains("binary.pdn: not a text file"), "{err}");
    // A fixed file, fixed again: the same bytes, 0 changes.
    let fixtures = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/syntax");
    let o = run(
        dir,
        &["fix", "-q", fixtures.to_str().unwrap(), "--out-dir", "once"],
    );
    assert!(o.status.code().is_some());
    let o = run(
        dir,
        &[
            "fix",
            "once",
            "--out-dir",
            "twice",
            "--audit",
            "audit.jsonl",
        ],
    );
    assert!(stderr(&o).contains(" 0 changes"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.join("audit.jsonl")).unwrap(),
        ""
    );
}
