//! `pdn merge` and `pdn names` (issue 35) on the fixtures of `fixtures/merge/` (a federation
//! file and a club file holding copies perturbed by hand: names, dates, tag subsets,
//! comments, result forms, CRLF, a slip; a colour-reversed game, a miniature played twice,
//! a contained game) and on a corpus archive joined with a copy of itself: the decisions,
//! games in = kept + dropped with every dropped game in the audit, the merged tags and
//! comments, idempotence, FMJD ids never joined, names tables.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::support;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const FED: &str = "fixtures/merge/fed.pdn";
const CLUB: &str = "fixtures/merge/club.pdn";
const TABLE: &str = "fixtures/merge/names.tsv";

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
        .current_dir(root())
        .args(args)
        .arg("--quiet")
        .output()
        .expect("run pdn")
}

/// Merge `inputs` with `extra` options; the merged text and the audit records.
fn merge(dir: &Path, inputs: &[&str], extra: &[&str]) -> (String, Vec<Value>) {
    let out = dir.join("merged.pdn");
    let audit = dir.join("audit.jsonl");
    let mut args: Vec<&str> = vec!["merge"];
    args.extend(inputs);
    let (o, a) = (out.to_str().unwrap(), audit.to_str().unwrap());
    args.extend(["-o", o, "--audit", a]);
    args.extend(extra);
    let r = run(&args);
    assert_eq!(
        r.status.code(),
        Some(0),
        "pdn {args:?}: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let records = std::fs::read_to_string(&audit)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    (text, records)
}

fn of_type<'a>(records: &'a [Value], t: &str) -> Vec<&'a Value> {
    records.iter().filter(|r| r["type"] == t).collect()
}

/// Games in = kept + dropped, and every dropped game has its record.
fn check_accounts(records: &[Value], games_out: usize) {
    let s = of_type(records, "summary");
    assert_eq!(s.len(), 1);
    let s = s[0];
    let (games, kept, dropped) = (
        s["games"].as_u64().unwrap(),
        s["kept"].as_u64().unwrap(),
        s["dropped"].as_u64().unwrap(),
    );
    assert_eq!(games, kept + dropped, "{s}");
    assert_eq!(of_type(records, "dropped").len() as u64, dropped);
    assert_eq!(games_out as u64, kept);
    let in_sets: usize = of_type(records, "kept")
        .iter()
        .map(|k| k["dropped"].as_array().unwrap().len())
        .sum();
    assert_eq!(in_sets as u64, dropped);
}

fn count_games(text: &str) -> usize {
    pdn::syntax::read_games(text.as_bytes()).len()
}

#[test]
fn copies_are_merged_and_the_rest_reported() {
    let dir = tempfile::tempdir().unwrap();
    let (text, records) = merge(dir.path(), &[FED, CLUB], &["--fuzzy"]);
    check_accounts(&records, count_games(&text));
    let s = &of_type(&records, "summary")[0];
    assert_eq!(
        (s["games"].as_u64(), s["dropped"].as_u64()),
        (Some(8), Some(2))
    );
    assert_eq!(s["repaired"].as_u64(), Some(1));
    // The copy with other names, a day-first date, CRLF, a result form, another comment;
    // and the copy with a slip (repaired).
    let dropped = of_type(&records, "dropped");
    assert_eq!(dropped[0]["game"], 1);
    assert_eq!(dropped[0]["kept_game"], 1);
    assert_eq!(dropped[0]["why"], "copy");
    assert!(dropped[0]["score"].as_f64().unwrap() > 0.9);
    assert_eq!(dropped[1]["why"], "copy-after-repair");
    let mut why: Vec<(u64, u64, &str)> = of_type(&records, "reported")
        .iter()
        .map(|r| {
            (
                r["game"].as_u64().unwrap(),
                r["other_game"].as_u64().unwrap(),
                r["why"].as_str().unwrap(),
            )
        })
        .collect();
    why.sort();
    assert_eq!(
        why,
        [
            // The miniature is the start of game 1; played again by others, another game.
            (3, 1, "contained"),
            (3, 3, "different-game"),
            // The same moves, the players swapped.
            (4, 1, "colours-reversed"),
            // The first 40 plies of game 2.
            (4, 2, "contained"),
        ]
    );
    // The kept game: the best value of each tag, both copies' comments.
    let games = pdn::syntax::read_games(text.as_bytes());
    assert_eq!(games.len(), 6);
    let g = &games[0];
    assert_eq!(g.tag("White"), Some("Harm Wiersma"));
    assert_eq!(g.tag("Black"), Some("Vissers, Martijn"));
    assert_eq!(g.tag("Date"), Some("2005.01.15"));
    assert_eq!(g.tag("Round"), Some("3"));
    assert_eq!(g.tag("WhiteFmjdId"), Some("11111"));
    assert_eq!(g.tag("Event"), Some("NLD-chT Ereklasse 2005, round 3"));
    let comments: Vec<&str> = g
        .body
        .items
        .iter()
        .filter_map(|i| match i {
            pdn::syntax::Item::Comment(c) => Some(c.text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(comments, ["the usual start", "a common opening", "drawn"]);
    // The repaired game is written corrected and with its full names.
    assert_eq!(games[1].tag("White"), Some("Ba, Bassirou"));
    assert_eq!(games[1].tag("Date"), Some("2005.01.29"));
}

#[test]
fn without_fuzzy_a_slip_keeps_the_copies_apart() {
    let dir = tempfile::tempdir().unwrap();
    let (text, records) = merge(dir.path(), &[FED, CLUB], &[]);
    check_accounts(&records, count_games(&text));
    assert_eq!(of_type(&records, "dropped").len(), 1);
}

#[test]
fn merging_the_merged_output_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (text, _) = merge(dir.path(), &[FED, CLUB], &["--fuzzy"]);
    let again = tempfile::tempdir().unwrap();
    let first = dir.path().join("merged.pdn");
    let (text2, records) = merge(again.path(), &[first.to_str().unwrap()], &["--fuzzy"]);
    assert_eq!(text, text2);
    check_accounts(&records, count_games(&text2));
    assert!(of_type(&records, "dropped").is_empty());
}

#[test]
fn different_fmjd_ids_are_never_merged() {
    let dir = tempfile::tempdir().unwrap();
    let fed = std::fs::read_to_string(root().join(FED)).unwrap();
    let first = fed.split("\n\n").take(2).collect::<Vec<_>>().join("\n\n") + "\n\n";
    let other = first.replace("11111", "22222");
    let path = dir.path().join("ids.pdn");
    std::fs::write(&path, format!("{first}{other}{first}")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let (text, records) = merge(out.path(), &[path.to_str().unwrap()], &[]);
    check_accounts(&records, count_games(&text));
    // The third game (the first's id) is its copy; the second (another id) is another game.
    let dropped = of_type(&records, "dropped");
    assert_eq!(dropped.len(), 1);
    assert_eq!(dropped[0]["game"], 3);
    let reported = of_type(&records, "reported");
    assert_eq!(reported.len(), 1);
    assert_eq!(reported[0]["game"], 2);
    assert_eq!(reported[0]["why"], "different-game");
    assert_eq!(reported[0]["score"].as_f64(), Some(0.0));
}

#[test]
fn a_names_table_rewrites_before_merging() {
    let dir = tempfile::tempdir().unwrap();
    let (text, _) = merge(dir.path(), &[FED, CLUB], &["--names", TABLE]);
    assert!(!text.contains("Harm Wiersma"), "{text}");
    assert!(text.contains("[White \"Wiersma, Harm\"]"));
}

#[test]
fn merge_refuses_an_input_as_output_and_one_file_for_both() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.jsonl");
    let r = run(&["merge", FED, "-o", FED, "--audit", a.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2));
    let r = run(&[
        "merge",
        FED,
        "-o",
        a.to_str().unwrap(),
        "--audit",
        a.to_str().unwrap(),
    ]);
    assert_eq!(r.status.code(), Some(2));
    assert!(!a.exists());
}

#[test]
fn names_clusters_with_evidence_and_apply() {
    let r = run(&["names", FED, CLUB, "-f", "json"]);
    assert_eq!(r.status.code(), Some(0));
    let records: Vec<Value> = String::from_utf8(r.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let wiersma = records
        .iter()
        .find(|r| r["type"] == "cluster" && r["canonical"] == "Wiersma, Harm")
        .expect("a cluster for Harm Wiersma");
    let mut names: Vec<&str> = wiersma["aliases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "Harm Wiersma",
            "Harm Wiersma",
            "Wiersma, H.",
            "Wiersma, Harm"
        ]
    );
    let initials = wiersma["aliases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "Wiersma, H.")
        .unwrap();
    assert!(
        initials["why"]
            .as_array()
            .unwrap()
            .contains(&"initials".into())
    );
    assert_eq!(initials["shared_games"].as_u64(), Some(1));
    // The text output is a names table that --apply reads.
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("names.tsv");
    let r = run(&["names", FED, CLUB, "-o", table.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(0));
    let out = dir.path().join("renamed.pdn");
    let r = run(&[
        "names",
        FED,
        "--apply",
        table.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        r.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
    let renamed = std::fs::read_to_string(&out).unwrap();
    assert_eq!(count_games(&renamed), 4);
    assert!(!renamed.contains("\"Harm Wiersma\""));
    assert!(renamed.contains("Ba, Bassirou"));
}

/// A corpus archive joined with a copy of itself: every game of the copy dropped, the
/// merged output the archive as strict PDN, and merging that again changes nothing.
#[test]
fn an_archive_joined_with_its_copy() {
    let src = support::corpus().join("english/raven-checkers-tinsley.pdn");
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("copy.pdn");
    std::fs::copy(&src, &copy).unwrap();
    let out = tempfile::tempdir().unwrap();
    let (text, records) = merge(
        out.path(),
        &[src.to_str().unwrap(), copy.to_str().unwrap()],
        &[],
    );
    check_accounts(&records, count_games(&text));
    let s = &of_type(&records, "summary")[0];
    let games = s["games"].as_u64().unwrap();
    assert_eq!(games, 2 * 724);
    // The archive holds one game twice itself: its copies join one set.
    assert!(s["dropped"].as_u64().unwrap() >= 724, "{s}");
    let again = tempfile::tempdir().unwrap();
    let first = out.path().join("merged.pdn");
    let (text2, records2) = merge(again.path(), &[first.to_str().unwrap()], &[]);
    assert_eq!(text, text2);
    assert!(of_type(&records2, "dropped").is_empty());
}
