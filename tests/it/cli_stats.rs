//! `pdn stats` on a fixture counted by hand, in JSON, text and CSV; and over the FMJD test
//! suite, the same games and plies as `validate`, with results that add up to the games.

use crate::support as common;

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn pdn(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_pdn"))
        .current_dir(root())
        .args(args)
        .arg("--quiet")
        .output()
        .expect("run pdn");
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "pdn {args:?}: {:?}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8")
}

const GAMES: &str = "fixtures/stats/games.pdn";

/// The fixture, counted by hand:
///
/// | game | players, result | plies | captures |
/// |---|---|---|---|
/// | 1 | Ann–Bob 2-0 | 32-28 19-23 28x19 14x23 37-32 10-14: 6 | 28x19, 14x23 |
/// | 2 | Bob–Ann 1-1 | the same six moves: 6 (a duplicate of game 1) | the same two |
/// | 3 | Ann–Cid 0-2 | the same first four, then 33-29 10-14: 6 | 28x19, 14x23 |
/// | 4 | setup, `*` | 28x19x8 (two pieces) 12x3: 2 | one rafle of 2, one single |
/// | 5 | setup, `*` | 6-1 45-50, both promote: 2 | none |
///
/// 22 plies; 8 capturing moves taking 9 pieces, one multi-capture, the largest 28x19x8 in
/// game 4 at ply 1; 2 promotions, none in a game from the start position (the ply of a first
/// king means something only there). Players on the international scale (2-1-0): Ann won
/// game 1, drew game 2, lost game 3: 3 points; Bob drew and lost: 1; Cid won: 2. Openings:
/// 3 games begin 32-28 19-23 (one each won, drawn, lost for White: 50 %).
#[test]
fn hand_counted_fixture_in_json() {
    let s: Value = serde_json::from_str(&pdn(&[
        "stats",
        "-f",
        "json",
        GAMES,
        "--duplicates",
        "--fuzzy",
        "4",
    ]))
    .unwrap();
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
    let player = |name: &str| {
        s["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap()
            .clone()
    };
    let ann = player("Ann");
    assert_eq!(
        (&ann["games"], &ann["wins"], &ann["draws"], &ann["losses"]),
        (&json!(3), &json!(1), &json!(1), &json!(1))
    );
    assert_eq!(ann["points"], 3.0);
    assert_eq!(player("Bob")["points"], 1.0);
    assert_eq!(player("Cid")["points"], 2.0);
    assert_eq!(s["diagnostics"], json!({}));
    let d = s["duplicates"].as_array().unwrap();
    assert_eq!(d.len(), 2);
    assert_eq!(
        (&d[0]["game"], &d[0]["first"]["game"]),
        (&json!(2), &json!(1))
    );
    assert_eq!(
        (&d[0]["reason"], &d[0]["plies"]),
        (&json!("identical"), &json!(6))
    );
    assert_eq!(
        (&d[1]["game"], &d[1]["first"]["game"]),
        (&json!(3), &json!(1))
    );
    assert_eq!(
        (&d[1]["reason"], &d[1]["plies"]),
        (&json!("same-start"), &json!(4))
    );
}

#[test]
fn hand_counted_fixture_in_text_and_csv() {
    let text = pdn(&["stats", GAMES]);
    assert!(text.starts_with("5 games (22 plies) in 1 file"), "{text}");
    assert!(text.contains("largest: 2 pieces, 28x19x8"));
    let csv = pdn(&["stats", "-f", "csv", "--by", "player", GAMES]);
    assert_eq!(
        csv,
        "player,games,wins,draws,losses,other,points\nAnn,3,1,1,1,0,3\nBob,2,0,1,1,0,1\nCid,1,1,0,0,0,2\n"
    );
    let dups = pdn(&["stats", "-f", "csv", "--duplicates", GAMES]);
    assert_eq!(
        dups,
        "file,game,first_file,first_game,reason,plies\n\
         fixtures/stats/games.pdn,2,fixtures/stats/games.pdn,1,identical,6\n"
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
