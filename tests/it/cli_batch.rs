//! Batch inputs of every command: directories (recursive, `*.pdn` in any case), standard
//! input, gzip files, unreadable files among good ones; `--jobs 1`, `2` and `5` giving
//! byte-identical output over the whole shared corpus; a closed output stopping every
//! thread; no progress bar when standard error
//! is not a terminal; shell completions and the man page.

use crate::support as common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pdn"))
        .current_dir(root())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run pdn");
    {
        let mut i = child.stdin.take().unwrap();
        if let Some(bytes) = stdin {
            i.write_all(bytes).unwrap();
        }
    }
    child.wait_with_output().unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

const GAME: &str = "[Event \"x\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n";

/// The last line of `validate -f json`: the summary.
fn summary(o: &Output) -> serde_json::Value {
    serde_json::from_str(text(o).lines().last().unwrap()).unwrap()
}

#[test]
fn directories_are_walked_for_pdn_files_in_any_case() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("b/c");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::write(dir.path().join("a.pdn"), GAME).unwrap();
    std::fs::write(sub.join("UPPER.PDN"), format!("{GAME}\n{GAME}")).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "1. 32-28 *\n").unwrap();
    std::fs::write(dir.path().join("b/readme.md"), "no").unwrap();
    let o = run(
        &["validate", "-f", "json", "-q", dir.path().to_str().unwrap()],
        None,
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let s = summary(&o);
    assert_eq!(
        (s["files"].as_u64(), s["games"].as_u64()),
        (Some(2), Some(3))
    );
    // In name order: a.pdn, then b/c/UPPER.PDN.
    let files: Vec<String> = text(&o)
        .lines()
        .filter(|l| l.contains("\"type\":\"game\""))
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["file"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert!(
        files[0].ends_with("a.pdn") && files[2].ends_with("UPPER.PDN"),
        "{files:?}"
    );
}

#[test]
fn standard_input_with_a_dash_or_no_path() {
    for args in [
        &["validate", "-f", "json", "-"][..],
        &["validate", "-f", "json"][..],
    ] {
        let o = run(args, Some(GAME.as_bytes()));
        assert_eq!(o.status.code(), Some(0));
        assert_eq!(summary(&o)["plies"], 4);
    }
    let o = run(&["convert", "--to", "json", "-"], Some(GAME.as_bytes()));
    assert!(text(&o).starts_with("{\"file\":\"-\",\"game\":1,"));
}

#[test]
fn gzip_files_are_read_transparently() {
    let dir = tempfile::tempdir().unwrap();
    let gz = dir.path().join("games.pdn.gz");
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(format!("{GAME}\n{GAME}").as_bytes()).unwrap();
    std::fs::write(&gz, e.finish().unwrap()).unwrap();
    let o = run(&["validate", "-f", "json", gz.to_str().unwrap()], None);
    assert_eq!(summary(&o)["games"], 2);
    // Found by a directory walk too, and through standard input.
    let o = run(&["stats", "-f", "json", dir.path().to_str().unwrap()], None);
    let s: serde_json::Value = serde_json::from_str(&text(&o)).unwrap();
    assert_eq!(s["games"], 2);
    let o = run(
        &["validate", "-f", "json"],
        Some(&std::fs::read(&gz).unwrap()),
    );
    assert_eq!(summary(&o)["plies"], 8);
}

#[test]
fn an_unreadable_file_is_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.pdn");
    std::fs::write(&good, GAME).unwrap();
    let missing = dir.path().join("missing.pdn");
    let o = run(
        &[
            "validate",
            "-f",
            "json",
            missing.to_str().unwrap(),
            good.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(1), "a file could not be read");
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.pdn"));
    assert_eq!(summary(&o)["games"], 1, "the good file was read");
    // Nothing could run: fatal.
    let o = run(&["validate", missing.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["stats", missing.to_str().unwrap()], None);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn no_progress_bar_when_standard_error_is_not_a_terminal() {
    let corpus = common::corpus().join("international");
    for quiet in [false, true] {
        let mut args = vec!["validate", "-f", "short", corpus.to_str().unwrap()];
        if quiet {
            args.push("--quiet");
        }
        let o = run(&args, None);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            !err.contains('\r') && !err.contains('\x1b'),
            "no bar drawn: {err:?}"
        );
        assert!(text(&o).lines().last().unwrap().starts_with("checked "));
    }
}

/// Run `pdn ARGS CORPUS -q --jobs N` (N threads even beyond the cores: PDN_JOBS_UNCAPPED),
/// with `OUT` in the arguments naming a file in `dir`: the status, standard output and error,
/// and the file written.
fn run_jobs(
    args: &[&str],
    corpus: &Path,
    jobs: usize,
    dir: &Path,
) -> (Option<i32>, Vec<u8>, Vec<u8>) {
    let out = dir.join(format!("out-{jobs}"));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pdn"));
    // The HTML page says when it was made: the same date for every run.
    cmd.current_dir(root())
        .env("PDN_JOBS_UNCAPPED", "1")
        .env("SOURCE_DATE_EPOCH", "1700000000");
    for a in args {
        cmd.arg(if *a == "OUT" {
            out.as_os_str()
        } else {
            a.as_ref()
        });
    }
    let o = cmd
        .arg(corpus)
        .args(["-q", "--jobs", &jobs.to_string()])
        .stdin(Stdio::null())
        .output()
        .expect("run pdn");
    let file = std::fs::read(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    let mut stdout = o.stdout;
    stdout.extend_from_slice(&file);
    (o.status.code(), stdout, o.stderr)
}

/// `--jobs 1`, `--jobs 2` and `--jobs 5` give the same status and the same bytes.
fn jobs_identical(args: &[&str], corpus: &Path) {
    let dir = tempfile::tempdir().unwrap();
    let one = run_jobs(args, corpus, 1, dir.path());
    assert!(one.1.len() > 1000, "{args:?}: output");
    for jobs in [2, 5] {
        let many = run_jobs(args, corpus, jobs, dir.path());
        assert_eq!(one.0, many.0, "{args:?}: the status at --jobs {jobs}");
        assert!(
            one.2 == many.2,
            "{args:?}: standard error at --jobs 1 and --jobs {jobs}"
        );
        assert!(
            one.1 == many.1,
            "{args:?}: --jobs 1 and --jobs {jobs} differ"
        );
    }
}

/// The output does not depend on the number of threads (one, two, five on any machine):
/// every game of the shared corpus is read, hinted and worked on in the same way by the one
/// per-game worker. (`scripts/jobs-identity.sh` runs more forms by hand.)
#[test]
fn jobs_1_2_and_5_give_byte_identical_output_over_the_whole_corpus() {
    let corpus = common::corpus();
    jobs_identical(&["validate", "-f", "json"], &corpus);
    jobs_identical(&["validate", "-f", "human"], &corpus);
    jobs_identical(&["validate", "-f", "html", "-o", "OUT"], &corpus);
    jobs_identical(&["stats", "-f", "json", "--duplicates"], &corpus);
    jobs_identical(&["convert", "--to", "json"], &corpus);
    jobs_identical(&["convert", "--to", "csv"], &corpus);
    jobs_identical(&["convert", "--to", "pdn"], &corpus);
    jobs_identical(&["fix"], &corpus);
}

#[test]
fn more_jobs_than_cores_are_capped_with_a_note() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let asked = (cores + 3).to_string();
    let o = run(
        &["validate", "-f", "json", "--jobs", &asked, "-"],
        Some(GAME.as_bytes()),
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("--jobs {asked}: this machine has {cores} core")),
        "{err}"
    );
    assert_eq!(summary(&o)["games"], 1);
}

#[test]
fn a_reader_that_stops_early_stops_every_thread() {
    // The consumer of the output goes away after a few bytes: the write error must stop the
    // helper threads too (none left waiting for a turn or for room), so the process ends.
    let corpus = common::corpus();
    let mut child = Command::new(env!("CARGO_BIN_EXE_pdn"))
        .args(["validate", "-f", "json", "-q", "--jobs", "3"])
        .arg(&corpus)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run pdn");
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    std::io::Read::read_exact(&mut out, &mut first).unwrap();
    drop(out);
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("pdn did not stop after its output was closed");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish"] {
        let o = run(&["completions", shell], None);
        assert_eq!(o.status.code(), Some(0));
        let t = text(&o);
        assert!(t.contains("validate") && t.contains("convert"), "{shell}");
    }
    let o = run(&["man"], None);
    assert_eq!(o.status.code(), Some(0));
    let t = text(&o);
    assert!(t.starts_with(".ie") || t.contains(".TH"), "roff");
    assert!(t.contains("validate"));
}
