//! Exit statuses (DESIGN.md, issue 20): `validate` and `fix` exit 1 on errors left,
//! `convert`, `stats` and `perft` 0 when they did their job whatever the records hold; 1 for
//! an input not read or an output not written; 2 for bad usage or nothing read. A damaged
//! `.gz` keeps the games before the damage; unreadable inputs are counted and named; `--jobs`
//! is capped at the number of cores.

use crate::support as common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
        .current_dir(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run pdn")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const GAME: &str = "[Event \"x\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n";
/// A missed capture: an error that `fix` without `--repair` leaves.
const BAD: &str = "[Event \"bad\"]\n1. 32-28 19-23 2. 33-29 14x23 *\n\n";

fn dir_with_files() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("good.pdn"), GAME).unwrap();
    std::fs::write(tmp.path().join("bad.pdn"), format!("{GAME}{BAD}")).unwrap();
    tmp
}

/// The JSON summary of `validate -f json`.
fn summary(o: &Output) -> serde_json::Value {
    serde_json::from_str(stdout(o).lines().last().unwrap()).unwrap()
}

#[test]
fn findings_fail_validate_and_fix_not_convert_stats_perft() {
    let tmp = dir_with_files();
    let d = tmp.path();
    for (args, good, bad) in [
        (&["validate"][..], 0, 1),
        (&["validate", "-f", "json"][..], 0, 1),
        (&["fix"][..], 0, 1),
        (&["convert", "--to", "pdn"][..], 0, 0),
        (&["convert", "--to", "json"][..], 0, 0),
        (&["convert", "--to", "csv"][..], 0, 0),
        (&["convert", "--to", "csv", "--plies"][..], 0, 0),
        (&["convert", "--to", "manoury"][..], 0, 0),
        (&["stats"][..], 0, 0),
        (&["stats", "-f", "json"][..], 0, 0),
    ] {
        for (file, want) in [("good.pdn", good), ("bad.pdn", bad)] {
            let mut a = args.to_vec();
            a.push(file);
            let o = run(d, &a);
            assert_eq!(o.status.code(), Some(want), "{a:?}: {}", stderr(&o));
        }
    }
    let o = run(d, &["perft", "--variant", "international", "--depth", "2"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn an_unreadable_input_among_others_gives_1_and_is_counted_and_named() {
    let tmp = dir_with_files();
    let d = tmp.path();
    for args in [
        &["validate"][..],
        &["validate", "-f", "short"][..],
        &["validate", "-f", "json"][..],
        &["fix"][..],
        &["convert", "--to", "json"][..],
        &["stats"][..],
    ] {
        let mut a = args.to_vec();
        a.extend(["good.pdn", "missing.pdn"]);
        let o = run(d, &a);
        assert_eq!(o.status.code(), Some(1), "{a:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("pdn: missing.pdn: "), "{a:?}: {err}");
        if args == ["validate", "-f", "json"] {
            let s = summary(&o);
            assert_eq!(s["unreadable_files"], 1, "{s}");
            assert_eq!(s["games"], 1, "{s}");
        } else if args[0] == "validate" {
            assert!(
                stdout(&o).contains("1 of 2 inputs could not be read: missing.pdn"),
                "{a:?}: {}",
                stdout(&o)
            );
        } else {
            assert!(
                err.contains("1 of 2 inputs could not be read: missing.pdn"),
                "{a:?}: {err}"
            );
        }
    }
    // And none: 0 unreadable in the summary.
    let o = run(d, &["validate", "-f", "json", "good.pdn"]);
    assert_eq!(summary(&o)["unreadable_files"], 0);
}

#[test]
fn nothing_read_and_bad_usage_are_fatal() {
    let tmp = dir_with_files();
    let d = tmp.path();
    for args in [
        &["validate", "missing.pdn"][..],
        &["validate", "missing.pdn", "gone.pdn"][..],
        &["fix", "missing.pdn"][..],
        &["convert", "--to", "json", "missing.pdn"][..],
        &["stats", "missing.pdn"][..],
        &["convert", "--to", "xml", "good.pdn"][..],
        &["convert", "--to", "json", "--plies", "good.pdn"][..],
        &["validate", "--variant", "chess", "good.pdn"][..],
        &["validate", "--no-such-option", "good.pdn"][..],
        &["perft", "--variant", "chess", "--depth", "1"][..],
        &[
            "perft",
            "--variant",
            "international",
            "--fen",
            "nonsense",
            "--depth",
            "1",
        ][..],
    ] {
        let o = run(d, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn an_output_not_written_gives_1() {
    let tmp = dir_with_files();
    let d = tmp.path();
    for args in [
        &[
            "convert",
            "--to",
            "json",
            "good.pdn",
            "-o",
            "no/such/dir/out.jsonl",
        ][..],
        &[
            "convert",
            "--to",
            "csv",
            "good.pdn",
            "-o",
            "no/such/dir/out.csv",
        ][..],
        &["fix", "good.pdn", "-o", "no/such/dir/out.pdn"][..],
        &["fix", "good.pdn", "--audit", "no/such/dir/audit.jsonl"][..],
    ] {
        let o = run(d, args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write no/such/dir/"),
            "{}",
            stderr(&o)
        );
    }
    // One output of several cannot be written (a directory is in its way): the others are.
    std::fs::create_dir_all(d.join("out/good.jsonl")).unwrap();
    let o = run(
        d,
        &[
            "convert",
            "--to",
            "json",
            "good.pdn",
            "bad.pdn",
            "--out-dir",
            "out",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write out/good.jsonl"),
        "{}",
        stderr(&o)
    );
    assert!(d.join("out/bad.jsonl").is_file());
}

/// 300 games, gzip-compressed, cut short or damaged in the middle.
fn damaged_gz(d: &Path) {
    let mut text = String::new();
    for k in 1..=300 {
        text.push_str(&format!(
            "[Event \"g{k}\"]\n[White \"w\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n"
        ));
    }
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let whole = gz.finish().unwrap();
    std::fs::write(d.join("truncated.pdn.gz"), &whole[..whole.len() * 2 / 3]).unwrap();
    let mut corrupt = whole.clone();
    let mid = corrupt.len() / 2;
    for b in &mut corrupt[mid..mid + 16] {
        *b ^= 0x5a;
    }
    std::fs::write(d.join("corrupt.pdn.gz"), &corrupt).unwrap();
}

#[test]
fn a_damaged_gz_keeps_the_games_before_the_damage() {
    let tmp = dir_with_files();
    let d = tmp.path();
    damaged_gz(d);
    for damaged in ["truncated.pdn.gz", "corrupt.pdn.gz"] {
        let mut counts = Vec::new();
        for jobs in ["1", "2"] {
            let o = run(
                d,
                &[
                    "validate", "-f", "json", "--jobs", jobs, damaged, "good.pdn",
                ],
            );
            assert_eq!(o.status.code(), Some(1), "{damaged}: {}", stderr(&o));
            let s = summary(&o);
            assert_eq!(s["unreadable_files"], 1);
            assert_eq!(s["files"], 2);
            let games = s["games"].as_u64().unwrap();
            assert!(games > 50 && games < 300, "{damaged}: {games} games");
            // The good file's game is reported.
            assert!(stdout(&o).contains("\"file\":\"good.pdn\",\"game\":1,"));
            let err = stderr(&o);
            assert!(
                err.contains(&format!("pdn: {damaged}: read error after ")),
                "{err}"
            );
            assert!(err.contains("games before it are kept"), "{err}");
            counts.push(games);
        }
        assert_eq!(
            counts[0], counts[1],
            "{damaged}: --jobs 1 and 2 read the same games"
        );
        // Alone, it is not fatal: games were read.
        let o = run(d, &["stats", damaged]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let o = run(d, &["fix", damaged, "-o", "fixed.pdn"]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(
            std::fs::read_to_string(d.join("fixed.pdn"))
                .unwrap()
                .contains("[Event \"g50\"]")
        );
    }
    // Damaged before anything could be read: nothing at all, fatal.
    let whole = std::fs::read(d.join("truncated.pdn.gz")).unwrap();
    std::fs::write(d.join("stub.pdn.gz"), &whole[..12]).unwrap();
    let o = run(d, &["validate", "stub.pdn.gz"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("stub.pdn.gz"), "{}", stderr(&o));
}

/// The most threads the process had at once (sampled from /proc while it runs).
fn peak_threads(args: &[&str]) -> (usize, Output) {
    let child = Command::new(env!("CARGO_BIN_EXE_pdn"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let sampler = std::thread::spawn(move || {
        let mut most = 0;
        while let Ok(s) = std::fs::read_to_string(&status) {
            if let Some(n) = s
                .lines()
                .find_map(|l| l.strip_prefix("Threads:"))
                .and_then(|n| n.trim().parse::<usize>().ok())
            {
                most = most.max(n);
            }
            if s.contains("State:\tZ") {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        most
    });
    let o = child.wait_with_output().unwrap();
    (sampler.join().unwrap(), o)
}

#[test]
fn jobs_are_capped_at_the_number_of_cores() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let corpus = common::corpus().join("international");
    let c = corpus.to_str().unwrap();
    let (threads, many) = peak_threads(&["validate", "-f", "json", "--jobs", "5000", c]);
    // The workers, the signal thread, and slack for the sampling.
    assert!(
        threads <= cores + 2,
        "{threads} threads for --jobs 5000 on {cores} cores"
    );
    let err = stderr(&many);
    assert!(
        err.contains(&format!("--jobs 5000: this machine has {cores} core")),
        "{err}"
    );
    let one = run(
        Path::new("."),
        &["validate", "-f", "json", "--jobs", "1", c],
    );
    assert!(many.stdout == one.stdout, "same output");
    assert_eq!(many.status.code(), one.status.code());
    // --quiet: no note.
    let o = run(Path::new("."), &["validate", "-q", "--jobs", "5000", c]);
    assert!(!stderr(&o).contains("--jobs"), "{}", stderr(&o));
}
