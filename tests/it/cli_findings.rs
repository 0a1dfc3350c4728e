//! How much `validate` shows (issue 22 item 1): `--min-severity`, `--allow` and `--deny` a
//! code (as clippy), `--max-diagnostics`, the count per code at the end and `codes` in the
//! JSON summary, the severities named `error`, `warning`, `info` in every format, and the
//! findings of every game of the corpus in source order.

use crate::support as common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
        .args(args)
        .output()
        .expect("run pdn")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8")
}

fn corpus() -> String {
    common::corpus().to_str().unwrap().to_string()
}

/// The records of `validate -f json`.
fn records(o: &Output) -> Vec<Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A game whose only finding is a draw by rule (threefold repetition, then a move more).
const DRAW: &str = "[Event \"draw-rule\"]\n[GameType \"21\"]\n[FEN \"B:WK29:BK4\"]\n\
    [Result \"*\"]\n1. 4-8 29-25 2. 8-4 25-29 3. 4-8 29-25 4. 8-4 25-29 5. 4-8 *\n";

fn draw_file(dir: &Path) -> String {
    let p = dir.join("draw.pdn");
    std::fs::write(&p, DRAW).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn min_severity_error_over_the_corpus_shows_errors_only() {
    let c = corpus();
    let all = run(&["validate", "-f", "json", &c]);
    let summary = records(&all).pop().unwrap();
    for format in ["human", "short"] {
        let o = run(&["validate", "-f", format, "--min-severity", "error", &c]);
        assert_eq!(o.status.code(), Some(1));
        let text = stdout(&o);
        let mut errors = 0;
        for line in text.lines() {
            assert!(
                !line.contains("warning[") && !line.contains("info[") && !line.contains("note["),
                "{format}: {line}"
            );
            // A finding repeated in a file (human) is written once, then counted with its
            // other places: `… (again: N more times in this file)`.
            if line.contains(" error[") && line.contains("]: ") {
                errors += 1;
                if let Some(n) = line.split("(again: ").nth(1) {
                    errors += n.split(' ').next().unwrap().parse::<usize>().unwrap() - 1;
                }
            }
        }
        assert_eq!(
            errors as u64,
            summary["errors"].as_u64().unwrap(),
            "{format}"
        );
        let last = text.lines().last().unwrap();
        assert!(
            last.ends_with(&format!(
                "(not shown: {} warnings, {} infos)",
                summary["warnings"], summary["infos"]
            )),
            "{last}"
        );
    }
    // JSON too, when asked; its summary counts everything all the same.
    let o = run(&["validate", "-f", "json", "--min-severity", "error", &c]);
    let recs = records(&o);
    assert!(
        recs.iter()
            .filter(|r| r["type"] == "diagnostic")
            .all(|r| r["severity"] == "error")
    );
    assert_eq!(recs.last().unwrap(), &summary);
}

#[test]
fn the_default_shows_errors_and_warnings_for_people_and_everything_in_json() {
    let c = corpus();
    let recs = records(&run(&["validate", "-f", "json", &c]));
    let mut by_severity: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_code: BTreeMap<String, u64> = BTreeMap::new();
    for r in recs.iter().filter(|r| r["type"] == "diagnostic") {
        *by_severity
            .entry(r["severity"].as_str().unwrap().into())
            .or_default() += 1;
        *by_code
            .entry(r["code"].as_str().unwrap().into())
            .or_default() += 1;
    }
    let summary = recs.last().unwrap();
    assert_eq!(summary["type"], "summary");
    assert_eq!(
        by_severity.keys().collect::<Vec<_>>(),
        ["error", "info", "warning"]
    );
    for (s, key) in [
        ("error", "errors"),
        ("warning", "warnings"),
        ("info", "infos"),
    ] {
        assert_eq!(summary[key].as_u64(), Some(by_severity[s]), "{key}");
    }
    let codes: BTreeMap<String, u64> = summary["codes"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect();
    assert_eq!(codes, by_code);
    // Short: errors and warnings, then the count per code shown, then the summary line.
    let text = stdout(&run(&["validate", "-f", "short", &c]));
    let lines: Vec<&str> = text.lines().collect();
    let findings = lines.iter().filter(|l| l.contains("]: ")).count() as u64;
    assert_eq!(findings, by_severity["error"] + by_severity["warning"]);
    assert!(!text.contains("info["));
    let table: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with(' ') || l.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .collect();
    assert_eq!(
        table.len(),
        codes.len() - 1,
        "every code shown but tolerated"
    );
    for row in table {
        let (n, label) = row.trim().split_once(' ').unwrap();
        // `1121 error[illegal-move]  (456 main line, 665 in variations)`
        let code = label.split_once('[').unwrap().1.split_once(']').unwrap().0;
        assert_eq!(n.parse::<u64>().unwrap(), codes[code], "{row}");
    }
    assert!(lines.last().unwrap().starts_with("checked "));
    // `info` shows the tolerated notes, named `info` (never `note`) in every format.
    let text = stdout(&run(&["validate", "--min-severity", "info", &c]));
    assert!(text.contains(": info[tolerated]: "));
    assert!(!text.contains("note["));
}

#[test]
fn deny_makes_a_code_an_error_and_the_exit_status_follows() {
    let tmp = tempfile::tempdir().unwrap();
    let draw = draw_file(tmp.path());
    let o = run(&["validate", "-f", "short", &draw]);
    assert_eq!(o.status.code(), Some(0), "a warning: {}", stdout(&o));
    assert!(stdout(&o).contains(": warning[draw-rule]: "));
    let o = run(&["validate", "-f", "short", "--deny", "draw-rule", &draw]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let text = stdout(&o);
    assert!(text.contains(": error[draw-rule]: "), "{text}");
    assert!(text.contains("\n1 error[draw-rule]\n"), "{text}");
    assert!(
        text.contains(": 1 error, 0 warnings, 1 game with errors"),
        "{text}"
    );
    // `warnings` denies every warning; a code named beats it.
    let o = run(&["validate", "--deny", "warnings", &draw]);
    assert_eq!(o.status.code(), Some(1));
    let o = run(&[
        "validate",
        "--deny",
        "warnings",
        "--allow",
        "draw-rule",
        &draw,
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(!stdout(&o).contains("draw-rule"));
    // Over the corpus: every draw-rule finding an error, counted as one.
    let c = corpus();
    let before = records(&run(&["validate", "-f", "json", &c]));
    let after = records(&run(&["validate", "-f", "json", "--deny", "draw-rule", &c]));
    let draws = |recs: &[Value]| -> Vec<Value> {
        recs.iter()
            .filter(|r| r["code"] == "draw-rule")
            .cloned()
            .collect()
    };
    let (b, a) = (draws(&before), draws(&after));
    assert!(!b.is_empty());
    assert_eq!(a.len(), b.len());
    assert!(b.iter().all(|r| r["severity"] == "warning"));
    assert!(a.iter().all(|r| r["severity"] == "error"));
    let (sb, sa) = (before.last().unwrap(), after.last().unwrap());
    let n = b.len() as u64;
    assert_eq!(sa["errors"].as_u64(), sb["errors"].as_u64().map(|e| e + n));
    assert_eq!(
        sa["warnings"].as_u64(),
        sb["warnings"].as_u64().map(|w| w - n)
    );
}

#[test]
fn allow_silences_a_code_and_the_cap_counts_the_rest() {
    let c = corpus();
    let all = records(&run(&["validate", "-f", "json", &c]));
    let o = run(&["validate", "-f", "json", "--allow", "bad-tag,tolerated", &c]);
    let allowed = records(&o);
    assert!(
        allowed
            .iter()
            .all(|r| r["code"] != "bad-tag" && r["code"] != "tolerated")
    );
    let (s, sa) = (all.last().unwrap(), allowed.last().unwrap());
    assert_eq!(sa["infos"], 0);
    assert!(sa["codes"].get("bad-tag").is_none());
    assert_eq!(
        sa["warnings"].as_u64().unwrap(),
        s["warnings"].as_u64().unwrap() - s["codes"]["bad-tag"].as_u64().unwrap()
    );
    assert_eq!(sa["errors"], s["errors"]);
    // The same code allowed and denied: a usage error.
    let o = run(&[
        "validate",
        "--allow",
        "draw-rule",
        "--deny",
        "draw-rule",
        &c,
    ]);
    assert_eq!(o.status.code(), Some(2));
    // At most 7 findings shown; the games, the summary and the exit status are whole.
    for format in ["short", "human"] {
        let o = run(&["validate", "-f", format, "--max-diagnostics", "7", &c]);
        assert_eq!(o.status.code(), Some(1));
        let text = stdout(&o);
        assert_eq!(text.matches("]: ").count(), 7, "{format}");
        let shown = s["errors"].as_u64().unwrap() + s["warnings"].as_u64().unwrap();
        assert!(
            text.lines().last().unwrap().ends_with(&format!(
                "(not shown: {} infos, {} past --max-diagnostics 7)",
                s["infos"],
                shown - 7
            )),
            "{}",
            text.lines().last().unwrap()
        );
    }
    let capped = records(&run(&[
        "validate",
        "-f",
        "json",
        "--max-diagnostics",
        "7",
        &c,
    ]));
    assert_eq!(
        capped.iter().filter(|r| r["type"] == "diagnostic").count(),
        7
    );
    let games = |recs: &[Value]| recs.iter().filter(|r| r["type"] == "game").count();
    assert_eq!(games(&capped), games(&all));
    let last = capped.last().unwrap();
    assert_eq!(last["errors"], s["errors"]);
    assert_eq!(last["codes"], s["codes"]);
}

/// Issue 22: "within a game, line 10 can come before line 5". Every game of the corpus, in
/// JSON and in the short format: the findings without a place (reported at the game's start)
/// first, then by line and column.
#[test]
fn every_games_findings_come_in_source_order() {
    let c = corpus();
    let o = run(&["validate", "-f", "json", "--jobs", "2", &c]);
    let mut games = 0;
    let mut findings = 0;
    let mut last: Option<(String, u64, (u64, u64))> = None;
    for r in records(&o) {
        match r["type"].as_str() {
            Some("diagnostic") => {
                let at = (
                    r["line"].as_u64().unwrap_or(0),
                    r["column"].as_u64().unwrap_or(0),
                );
                let key = (
                    r["file"].as_str().unwrap().to_string(),
                    r["game"].as_u64().unwrap(),
                );
                let per_file = r["message"].as_str().unwrap().ends_with(" of this file)");
                if let Some((f, g, prev)) = &last
                    && (f, g) == (&key.0, &key.1)
                    && !per_file
                {
                    assert!(*prev <= at, "{f} game {g}: {prev:?} then {at:?}");
                }
                last = Some((key.0, key.1, at));
                findings += 1;
            }
            Some("game") => {
                games += 1;
                last = None;
            }
            _ => {}
        }
    }
    assert!(
        games > 10_000 && findings > 10_000,
        "{games} games, {findings} findings"
    );
    // The short format prints them in the same order: file:line:column, or file:line.
    let text = stdout(&run(&[
        "validate",
        "-f",
        "short",
        "--min-severity",
        "info",
        &c,
    ]));
    let mut prev: Option<(String, u64, u64, u64)> = None;
    // (A file's findings reported once for it, `(in N games of this file)`, come after its
    // games.)
    for line in text
        .lines()
        .filter(|l| l.contains("]: ") && !l.contains(" of this file) (game "))
    {
        let game: u64 = line
            .rsplit_once("(game ")
            .unwrap()
            .1
            .split([',', ')'])
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let label = [" error[", " warning[", " info["]
            .iter()
            .find_map(|l| line.find(l))
            .unwrap();
        let place = line[..label].trim_end_matches(':');
        let numbers: Vec<&str> = place.rsplitn(3, ':').collect();
        let (file, l, col) = match numbers[..] {
            [c, l, f] if c.parse::<u64>().is_ok() && l.parse::<u64>().is_ok() => {
                (f.to_string(), l.parse().unwrap(), c.parse().unwrap())
            }
            _ => {
                let (f, l) = place.rsplit_once(':').unwrap();
                (f.to_string(), l.parse().unwrap(), 0)
            }
        };
        if let Some((f, g, pl, pc)) = &prev
            && *f == file
            && *g == game
        {
            assert!((*pl, *pc) <= (l, col), "{line}");
        }
        prev = Some((file, game, l, col));
    }
}
