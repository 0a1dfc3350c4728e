//! `validate` on the project's own fixtures: each game's `[Expect]` tag lists the
//! diagnostic codes it must produce, no more, no fewer; and every code of DESIGN.md comes
//! out of the binary in all three formats.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use pdn::app::judge::diagnostic::{Code, Severity};
use pdn::app::judge::validate::{Options, validate};
use pdn::app::model::gametype::FileHint;
use pdn::syntax::read_games;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/validate")
}

fn files() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "pdn"))
        .collect();
    v.sort();
    assert!(v.len() >= 5, "fixtures missing");
    v
}

#[test]
fn every_game_produces_exactly_its_expected_codes() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in files() {
        let bytes = std::fs::read(&path).unwrap();
        let mut hint = FileHint::default();
        for game in read_games(&bytes) {
            let Some(expect) = game.tag("Expect") else {
                panic!("{}: game {} has no Expect tag", path.display(), game.index);
            };
            let want: BTreeSet<String> = expect
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            let h = hint.observe(&game);
            let report = validate(
                &game,
                &Options {
                    hint: h,
                    ..Options::default()
                },
            );
            let got: BTreeSet<String> = report
                .diagnostics
                .iter()
                .filter(|d| d.severity() != Severity::Info)
                .map(|d| d.code.as_str().to_string())
                .collect();
            let mut want_no_info = want.clone();
            let wants_tolerated = want_no_info.remove("tolerated");
            let has_tolerated = report.diagnostics.iter().any(|d| d.code == Code::Tolerated);
            if got != want_no_info || (wants_tolerated && !has_tolerated) {
                failures.push(format!(
                    "{} game {} ({}): expected {want:?}, got {got:?}{}: {:#?}",
                    path.file_name().unwrap().to_string_lossy(),
                    game.index,
                    game.tag("Event").unwrap_or("?"),
                    if has_tolerated { " + tolerated" } else { "" },
                    report
                        .diagnostics
                        .iter()
                        .map(|d| &d.message)
                        .collect::<Vec<_>>()
                ));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 60, "only {checked} fixture games");
}

fn run(format: &str) -> (String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_pdn"))
        .args([
            "validate",
            "--format",
            format,
            "--quiet",
            "--min-severity",
            "info",
        ])
        .arg(fixtures())
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn every_code_in_every_format() {
    for format in ["human", "short", "json"] {
        let (text, status) = run(format);
        assert_eq!(status, 1, "errors were found: exit status 1 ({format})");
        for code in Code::ALL {
            let needle = match format {
                "json" => format!("\"code\":\"{}\"", code.as_str()),
                _ => format!("[{}]", code.as_str()),
            };
            assert!(text.contains(&needle), "{format}: no {}", code.as_str());
        }
    }
}

#[test]
fn json_lines_follow_the_contract() {
    let (text, _) = run("json");
    let mut games = 0;
    let mut summary = None;
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON object per line");
        match v["type"].as_str() {
            Some("diagnostic") => {
                for key in [
                    "code",
                    "severity",
                    "file",
                    "game",
                    "line",
                    "column",
                    "ply",
                    "move_number",
                    "side",
                    "move",
                    "message",
                    "rule",
                    "legal",
                ] {
                    assert!(v.get(key).is_some(), "diagnostic without `{key}`: {line}");
                }
                let code: Code = v["code"].as_str().unwrap().parse().unwrap();
                assert_eq!(v["severity"], code.severity().as_str());
                if code.is_move_code() {
                    assert!(
                        v["ply"].is_u64() && v["move"].is_string() && v["legal"].is_array(),
                        "{line}"
                    );
                }
            }
            Some("game") => {
                games += 1;
                for key in [
                    "file", "game", "variant", "plies", "errors", "warnings", "result",
                ] {
                    assert!(v.get(key).is_some(), "game without `{key}`: {line}");
                }
            }
            Some("summary") => summary = Some(v),
            other => panic!("unknown record type {other:?}"),
        }
    }
    let summary = summary.expect("a summary last");
    assert_eq!(summary["games"].as_u64(), Some(games));
    assert_eq!(
        text.lines().last().map(|l| l.contains("\"summary\"")),
        Some(true)
    );
}

#[test]
fn clean_games_exit_zero_and_human_output_shows_board_and_source() {
    // A clean file: exit status 0.
    let dir = tempfile::tempdir().unwrap();
    let clean = dir.path().join("clean.pdn");
    std::fs::write(&clean, "[GameType \"20\"]\n1. 32-28 18-23 2. 37-32 *\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pdn"))
        .args(["validate", "--quiet"])
        .arg(&clean)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // The human format: location, source line with the move marked, rule, legal moves, board
    // (the first finding's).
    let bad = dir.path().join("bad.pdn");
    std::fs::write(
        &bad,
        "[GameType \"20\"]\n[FEN \"W:W32,33,45:B28,1\"]\n1. 45-40 *\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_pdn"))
        .args(["validate", "--quiet"])
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("bad.pdn:3:4: error[missed-capture]"),
        "{text}"
    );
    assert!(
        text.contains(" 3 | 1. 45-40 *") && text.contains("   ^^^^^"),
        "{text}"
    );
    // One rule reference, in the line that says where the finding is.
    assert!(
        text.contains("= game 1, ply 1 (move 1, white); rule: FMJD 4.1\n"),
        "{text}"
    );
    assert_eq!(text.matches("FMJD").count(), 1, "{text}");
    assert!(text.contains("= legal moves: 32x23 33x22"), "{text}");
    assert!(text.contains("White to move"), "{text}");
}
