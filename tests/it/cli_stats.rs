//! `pdn stats` on fixtures counted by hand, in JSON, text and CSV (golden files for the
//! mixed one: two variants, results in several forms, duplicates of every kind); over the
//! FMJD test suite, the same games and plies as `validate`, with results that add up to the
//! games; over a real match archive, the duplicates it is known to hold.

use crate::support as common;

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
        .current_dir(root())
        .args(args)
        .arg("--quiet")
        .output()
        .expect("run pdn")
}

fn pdn(args: &[&str]) -> String {
    let o = run(args);
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "pdn {args:?}: {:?}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8")
}

const GAMES: &str = "fixtures/stats/games.pdn";
const MIXED: &str = "fixtures/stats/mixed.pdn";

/// Compare with `fixtures/stats/expected/NAME`; `PDN_BLESS=1` rewrites it.
fn golden(name: &str, got: &str) {
    let path = root().join("fixtures/stats/expected").join(name);
    if std::env::var_os("PDN_BLESS").is_some() {
        std::fs::write(&path, got).expect("write golden file");
    }
    let want = std::fs::read_to_string(&path).expect("golden file (PDN_BLESS=1 writes it)");
    assert_eq!(got, want, "output differs from {}", path.display());
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&pdn(args)).expect("one JSON object")
}

/// The row of `name` in `variant` of the JSON players' table.
fn player(s: &Value, variant: &str, name: &str) -> Value {
    s["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name && p["variant"] == variant)
        .unwrap_or_else(|| panic!("{name} in {variant}"))
        .clone()
}

/// The duplicates of the JSON output as (game, other game, reason, plies).
fn duplicates(s: &Value) -> Vec<(u64, u64, String, u64)> {
    s["duplicates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["game"].as_u64().unwrap(),
                d["other"]["game"].as_u64().unwrap(),
                d["reason"].as_str().unwrap().to_string(),
                d["plies"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The fixture, counted by hand:
///
/// | game | players, result | plies | captures |
/// |---|---|---|---|
/// | 1 | Ann–Bob 2-0 | 32-28 19-23 28x19 14x23 37-32 10-14: 6 | 28x19, 14x23 |
/// | 2 | Bob–Ann 1-1 | the same six moves: 6 (game 1, colours reversed) | the same two |
/// | 3 | Ann–Cid 0-2 | the same first four, then 33-29 10-14: 6 | 28x19, 14x23 |
/// | 4 | setup, `*` | 28x19x8 (two pieces) 12x3: 2 | one rafle of 2, one single |
/// | 5 | setup, `*` | 6-1 45-50, both promote: 2 | none |
///
/// 22 plies; 8 capturing moves taking 9 pieces, one multi-capture, the largest 28x19x8 in
/// game 4 at ply 1; 2 promotions, none in a game from the start position (the ply of a first
/// king means something only there). Players on the international scale (2-1-0): Ann won
/// game 1, drew game 2, lost game 3: 3 points; Bob drew and lost: 1; Cid won: 2. Openings:
/// 3 games begin 32-28 19-23 (one each won, drawn, lost for White: 50 %). The games are
/// shorter than the default `--min-plies`: duplicates only with `--min-plies 4`.
#[test]
fn hand_counted_fixture_in_json() {
    let s = json(&[
        "stats",
        "-f",
        "json",
        GAMES,
        "--duplicates",
        "--fuzzy",
        "4",
        "--min-plies",
        "4",
    ]);
    assert_eq!(s["games"], 5);
    assert_eq!(s["plies"], 22);
    assert_eq!(s["results"], json!({"*": 2, "0-2": 1, "1-1": 1, "2-0": 1}));
    assert_eq!(s["variants"], json!({"international": 5}));
    assert_eq!(s["length"]["max"], 6);
    assert_eq!(s["length"]["median"], 6.0);
    assert_eq!(s["length"]["mean"], 4.4);
    let c = &s["captures"];
    assert_eq!(
        (c["count"].as_u64(), c["multi"].as_u64()),
        (Some(8), Some(1))
    );
    assert_eq!(c["pieces"], 9);
    assert_eq!(c["largest"]["game"], 4);
    assert_eq!(c["largest"]["line"], 25, "the line of the move");
    assert_eq!(c["largest"]["ply"], 1);
    assert_eq!(c["largest"]["move"], "28x19x8");
    assert_eq!(c["largest"]["pieces"], 2);
    assert_eq!(s["promotions"]["count"], 2);
    assert_eq!(s["promotions"]["games"], 0);
    assert!(s["promotions"]["first_king"].is_null());
    let two = s["openings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["plies"] == 2)
        .unwrap();
    assert_eq!(two["moves"], "32-28 19-23");
    assert_eq!(two["games"], 3);
    assert_eq!(two["score"], 50.0);
    let ann = player(&s, "international", "Ann");
    assert_eq!(
        (&ann["games"], &ann["wins"], &ann["draws"], &ann["losses"]),
        (&json!(3), &json!(1), &json!(1), &json!(1))
    );
    assert_eq!(ann["points"], 3.0);
    assert_eq!(player(&s, "international", "Bob")["points"], 1.0);
    assert_eq!(player(&s, "international", "Cid")["points"], 2.0);
    assert_eq!(s["diagnostics"], json!({}));
    assert_eq!(
        duplicates(&s),
        [
            (2, 1, "colours-reversed".into(), 6),
            (3, 1, "same-start".into(), 4)
        ]
    );
    let d = &s["duplicates"][0];
    assert_eq!((&d["file"], &d["line"]), (&json!(GAMES), &json!(8)));
    assert_eq!(d["other"], json!({"file": GAMES, "line": 1, "game": 1}));
    assert_eq!(s["duplicates_min_plies"], 4);
}

#[test]
fn hand_counted_fixture_in_text_and_csv() {
    let text = pdn(&["stats", GAMES]);
    assert!(text.starts_with("5 games (22 plies) in 1 file"), "{text}");
    assert!(text.contains("largest: 2 pieces, 28x19x8"));
    let csv = pdn(&["stats", "-f", "csv", "--by", "player", GAMES]);
    assert_eq!(
        csv,
        "variant,player,games,wins,draws,losses,unknown,points,points_per_win,points_per_draw,score\n\
         international,Ann,3,1,1,1,0,3,2,1,50\n\
         international,Bob,2,0,1,1,0,1,2,1,25\n\
         international,Cid,1,1,0,0,0,2,2,1,100\n"
    );
    let dups = pdn(&[
        "stats",
        "-f",
        "csv",
        "--duplicates",
        "--min-plies",
        "6",
        GAMES,
    ]);
    assert_eq!(
        dups,
        "file,line,game,other_file,other_line,other_game,reason,plies\n\
         fixtures/stats/games.pdn,8,2,fixtures/stats/games.pdn,1,1,colours-reversed,6\n"
    );
    // By default, six plies in common are an opening, not a copy.
    let dups = pdn(&["stats", "-f", "csv", "--duplicates", GAMES]);
    assert_eq!(
        dups,
        "file,line,game,other_file,other_line,other_game,reason,plies\n"
    );
}

#[test]
fn stats_and_validate_agree_on_the_international_test_suite() {
    let dir = common::corpus().join("international/fmjd-pdn-testsuite/succeed");
    let dir = dir.to_str().unwrap();
    let s: Value = serde_json::from_str(&pdn(&["stats", "-f", "json", dir])).unwrap();
    let v = pdn(&["validate", "-f", "json", dir]);
    let summary: Value = serde_json::from_str(v.lines().last().unwrap()).unwrap();
    assert_eq!(summary["type"], "summary");
    assert!(s["games"].as_u64().unwrap() > 100);
    assert_eq!(s["games"], summary["games"]);
    assert_eq!(s["plies"], summary["plies"]);
    let results: u64 = s["results"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(
        results,
        s["games"].as_u64().unwrap(),
        "results add up to the games"
    );
}

/// `fixtures/stats/mixed.pdn`, counted by hand:
///
/// | game | line | variant | White–Black, result | plies |
/// |---|---|---|---|---|
/// | 1 | 1 | international | Ann–Bob `2-0` | 12 |
/// | 2 | 9 | international | Bob–Ann `0 - 2` | the moves of game 1 |
/// | 3 | 17 | international | Ann–Cid `0-2` | the first 10 of game 1 |
/// | 4 | 24 | english | Dan–Ann `1-0` (Black, Ann, moves first: Ann won) | 12 |
/// | 5 | 32 | english | Ann–Dan `½–½` | the first 10 of game 4 |
/// | 6 | 39 | english | Dan–Eve `1/2-1/2` | 6 |
/// | 7 | 46 | english | Fay–Eve `*` | 2: 11-15 23-19 |
/// | 8 | 53 | english | Eve–Fay `0-0` | the same 2 |
/// | 9 | 60 | english | Fay–Gus, no result | the same 2 |
///
/// Results: `0-2` 2 (games 2, 3), `1/2-1/2` 2 (5, 6), and one each of `2-0`, `1-0`, `*`,
/// `0-0`, `(none)`. Ann plays both variants: international 2 wins (games 1, 2) and a loss, 4
/// points on the 2-1-0 scale; English a win and a draw, 1.5 points on the 1-½-0 scale
/// (adding them, 5.5, would mean nothing). The English opening 11-15 23-19 (games 4 to 9):
/// 1 first-mover win, 2 draws, 3 unknown (`*`, `0-0`, none): score (1 + ½·2) / 3 = 66.67 %
/// over the 3 decided games.
#[test]
fn mixed_fixture_golden_files() {
    golden("mixed.txt", &pdn(&["stats", "--duplicates", MIXED]));
    golden(
        "mixed.json",
        &pdn(&["stats", "-f", "json", "--duplicates", MIXED]),
    );
    golden(
        "mixed.players.csv",
        &pdn(&["stats", "-f", "csv", "--by", "player", MIXED]),
    );
    golden(
        "mixed.openings.csv",
        &pdn(&["stats", "-f", "csv", "--by", "opening", MIXED]),
    );
    golden(
        "mixed.moves.csv",
        &pdn(&["stats", "-f", "csv", "--by", "moves", MIXED]),
    );
    golden(
        "mixed.duplicates.csv",
        &pdn(&[
            "stats",
            "-f",
            "csv",
            "--duplicates",
            "--min-plies",
            "2",
            MIXED,
        ]),
    );
}

#[test]
fn players_are_counted_per_variant_on_its_scale() {
    let s = json(&["stats", "-f", "json", MIXED]);
    let intl = player(&s, "international", "Ann");
    assert_eq!(
        (
            &intl["games"],
            &intl["wins"],
            &intl["losses"],
            &intl["points"]
        ),
        (&json!(3), &json!(2), &json!(1), &json!(4.0))
    );
    assert_eq!(
        (&intl["points_per_win"], &intl["points_per_draw"]),
        (&json!(2.0), &json!(1.0))
    );
    let eng = player(&s, "english", "Ann");
    assert_eq!(
        (&eng["games"], &eng["wins"], &eng["draws"], &eng["points"]),
        (&json!(2), &json!(1), &json!(1), &json!(1.5))
    );
    assert_eq!(
        (&eng["points_per_win"], &eng["points_per_draw"]),
        (&json!(1.0), &json!(0.5))
    );
    assert_eq!(
        (&intl["score"], &eng["score"]),
        (&json!(66.67), &json!(75.0))
    );
    let text = pdn(&["stats", MIXED]);
    assert!(
        text.contains("international: 3 players; a win 2 points, a draw 1"),
        "{text}"
    );
    assert!(
        text.contains("english: 5 players; a win 1 point, a draw ½"),
        "{text}"
    );
}

#[test]
fn results_are_counted_in_the_variant_standard_form() {
    let s = json(&["stats", "-f", "json", MIXED]);
    assert_eq!(
        s["results"],
        json!({"0-2": 2, "1/2-1/2": 2, "(none)": 1, "*": 1, "0-0": 1, "1-0": 1, "2-0": 1}),
        "`0 - 2` is `0-2`, `½–½` is `1/2-1/2`"
    );
}

#[test]
fn scores_count_decided_games_and_unknown_results_apart() {
    let s = json(&["stats", "-f", "json", MIXED]);
    let opening = s["openings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["variant"] == "english" && o["plies"] == 2)
        .unwrap()
        .clone();
    assert_eq!(opening["moves"], "11-15 23-19");
    assert_eq!(
        (
            &opening["games"],
            &opening["first_wins"],
            &opening["draws"],
            &opening["second_wins"],
            &opening["unknown"]
        ),
        (&json!(6), &json!(1), &json!(2), &json!(0), &json!(3))
    );
    assert_eq!(opening["score"], 66.67);
    // `0-0`, `*` and no result are unknown for the players too, not losses.
    let fay = player(&s, "english", "Fay");
    assert_eq!(
        (
            &fay["games"],
            &fay["losses"],
            &fay["unknown"],
            &fay["score"]
        ),
        (&json!(3), &json!(0), &json!(3), &Value::Null)
    );
    let text = pdn(&["stats", MIXED]);
    assert!(
        // English: Black moves first; White's score of 2 draws and a loss, 33.3%.
        text.contains("      2  english        11-15 23-19                              6          0      2          1        3    33.3\n"),
        "{text}"
    );
}

#[test]
fn duplicates_colours_reversed_contained_and_min_plies() {
    let s = json(&["stats", "-f", "json", "--duplicates", MIXED]);
    assert_eq!(
        duplicates(&s),
        [
            (2, 1, "colours-reversed".into(), 12),
            (3, 1, "contained".into(), 10),
            (5, 4, "contained".into(), 10),
        ],
        "games 7 to 9, two plies long, are left out"
    );
    let s = json(&[
        "stats",
        "-f",
        "json",
        "--duplicates",
        "--min-plies",
        "2",
        MIXED,
    ]);
    let d = duplicates(&s);
    assert_eq!(
        d[3..],
        [
            (7, 4, "contained".into(), 2),
            (8, 7, "colours-reversed".into(), 2),
            (9, 7, "identical".into(), 2),
        ]
    );
    let dup = &s["duplicates"][3];
    assert_eq!(
        (&dup["file"], &dup["line"], &dup["game"]),
        (&json!(MIXED), &json!(46), &json!(7))
    );
    assert_eq!(dup["other"], json!({"file": MIXED, "line": 24, "game": 4}));
}

#[test]
fn locations_are_file_and_line_with_the_game_apart() {
    let text = pdn(&["stats", "--duplicates", MIXED]);
    assert!(
        text.contains("max 12 (fixtures/stats/mixed.pdn:1, game 1)"),
        "{text}"
    );
    assert!(
        text.contains("28x19 at fixtures/stats/mixed.pdn:6 (game 1, ply 3)"),
        "{text}"
    );
    assert!(
        text.contains("fixtures/stats/mixed.pdn:32     5  fixtures/stats/mixed.pdn:24     4"),
        "{text}"
    );
    let s = json(&["stats", "-f", "json", MIXED]);
    assert_eq!(
        s["length"]["longest"],
        json!({"file": MIXED, "line": 1, "game": 1})
    );
}

#[test]
fn fuzzy_and_min_plies_need_duplicates() {
    for args in [["--fuzzy", "20"], ["--min-plies", "5"]] {
        let o = run(&["stats", args[0], args[1], GAMES]);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--duplicates"), "{err}");
        assert!(o.stdout.is_empty());
    }
}

/// A match archive (ballots played from both sides, drawn games played on in later events):
/// colour-reversed and contained games, none shorter than the default 10 plies.
#[test]
fn duplicates_in_a_match_archive() {
    let file = common::corpus().join("english/checkerboard-tinsley.pdn");
    let s = json(&[
        "stats",
        "-f",
        "json",
        "--duplicates",
        file.to_str().unwrap(),
    ]);
    let d = duplicates(&s);
    assert!(d.iter().all(|x| x.3 >= 10), "no duplicate under 10 plies");
    for reason in ["identical", "colours-reversed", "contained"] {
        assert!(d.iter().any(|x| x.2 == reason), "{reason}");
    }
    let short = json(&[
        "stats",
        "-f",
        "json",
        "--duplicates",
        "--min-plies",
        "1",
        file.to_str().unwrap(),
    ]);
    assert!(duplicates(&short).len() >= d.len());
}

/// Issue 36: `-o` writes the statistics (as standard output would have them) and says so on
/// standard error; the results come per variant, with the winner, in the text and in JSON;
/// the tables of openings name White and Black, not the first and second mover.
#[test]
fn stats_write_to_a_file_and_give_results_per_variant() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s.txt");
    let o = Command::new(env!("CARGO_BIN_EXE_pdn"))
        .current_dir(root())
        .args(["stats", MIXED, "-o"])
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
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("pdn stats: ") && err.contains("wrote "),
        "{err}"
    );
    let written = std::fs::read_to_string(&out).unwrap();
    assert_eq!(written, pdn(&["stats", MIXED]));
    assert!(written.contains("Results (per variant"), "{written}");
    assert!(
        written.contains("White won") && !written.contains("1st won"),
        "{written}"
    );
    // -o is checked against the inputs.
    let o = run(&["stats", MIXED, "-o", MIXED]);
    assert_eq!(o.status.code(), Some(2));
    let s = json(&["stats", "-f", "json", MIXED]);
    let rows = s["results_by_variant"].as_array().unwrap();
    let total: u64 = rows.iter().map(|r| r["games"].as_u64().unwrap()).sum();
    assert_eq!(total, s["games"].as_u64().unwrap());
    for r in rows {
        let w = r["winner"].as_str().unwrap();
        assert!(
            ["white", "black", "draw", "none", "unknown"].contains(&w),
            "{r}"
        );
        // English: Black moves first, so 1-0 is Black's win.
        if r["variant"] == "english" && r["result"] == "1-0" {
            assert_eq!(w, "black", "{r}");
        }
        if r["variant"] == "international" && r["result"] == "2-0" {
            assert_eq!(w, "white", "{r}");
        }
    }
}
