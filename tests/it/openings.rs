//! Openings: every shipped table passes its self-test (every line legal from its start, every
//! position distinct, no name or ballot number twice) and holds what its sources say; over
//! every English archive of the corpus, each game played from the start with three plies or
//! more gets the three-move ballot of its first three plies (found here independently, by
//! the rules alone); transposed move orders get the same opening; setups, failures and user
//! tables (TSV and PDN) classify as documented; the commands (`classify`, `fix`/`convert
//! --classify`, `stats --by opening`) say so.

use crate::support as common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pdn::app::judge::validate::Options;
use pdn::app::openings::{Classifier, Table, Unclassified, What};
use pdn::rules::fen::SquareName;
use pdn::rules::spec::English;
use pdn::rules::{MoveList, Position, Spec, Variant};
use pdn::syntax::{Item, read_games};

fn shipped() -> Classifier {
    Classifier::shipped()
}

fn classify(c: &Classifier, text: &str) -> Vec<pdn::app::openings::Classification> {
    read_games(text.as_bytes())
        .iter()
        .map(|g| c.classify_game(g, &Options::default()).0)
        .collect()
}

/// Every shipped table reads and passes its self-test, and holds what its header says.
#[test]
fn every_shipped_table_passes_its_self_test() {
    let tables = Table::shipped();
    assert_eq!(tables.len(), Table::shipped_names().count());
    for t in &tables {
        let problems = t.check(None);
        assert!(problems.is_empty(), "{}: {problems:#?}", t.name);
        assert!(!t.variants.is_empty(), "{} names its variant", t.name);
        let text = Table::shipped_text(&t.name).unwrap();
        assert!(text.contains("# Source"), "{} names its sources", t.name);
    }
    let get = |n: &str| tables.iter().find(|t| t.name == n).unwrap();
    let three = get("english-3move");
    assert_eq!(three.entries.len(), 174);
    assert_eq!(three.entries.iter().filter(|e| e.barred).count(), 18);
    let numbers: Vec<u32> = three.entries.iter().filter_map(|e| e.ballot).collect();
    assert_eq!(numbers, (1..=174).collect::<Vec<_>>());
    // The names are unique: CheckerBoard's second "Octopus" (#133) is not kept.
    let octopus: Vec<u32> = three
        .entries
        .iter()
        .filter(|e| e.name.as_deref() == Some("Octopus"))
        .filter_map(|e| e.ballot)
        .collect();
    assert_eq!(octopus, vec![86]);
    let two = get("english-2move");
    assert_eq!(two.entries.len(), 49);
    assert_eq!(two.entries.iter().filter(|e| e.barred).count(), 6);
    assert_eq!(get("english-11man").entries.len(), 2400);
    assert_eq!(get("italian-11man").entries.len(), 2400);
    let idf = get("draughts64-idf");
    // 745 draws, three of them transpositions of others (listed once).
    assert_eq!(idf.entries.len(), 742);
    assert_eq!(idf.variants, vec![Variant::Russian, Variant::Brazilian]);
    assert!(shipped().variants().contains(&Variant::International));
    // Checked together, as a run with user tables checks them.
    assert!(Classifier::new(&tables, None).is_ok());
}

/// The self-test catches what a published table can get wrong: a name twice (CheckerBoard's
/// two "Octopus"), a line that is not legal, two lines with one position (a transposition
/// listed twice), a ballot number twice, a FEN without a side to move.
#[test]
fn the_self_test_catches_misfiled_entries() {
    let table = "# variant: english\nballot\tname\tmoves\n\
                 86\tOctopus\t10-15 21-17 7-10\n\
                 133\tOctopus\t11-16 21-17 7-11\n\
                 87\t\t10-15 21-17 9-13\n\
                 88\tTransposed\t9-13 21-17 10-15\n\
                 88\tIllegal\t9-13 21-17 10-19\n\
                 90\tNo side\tW21-32:B1-12\n";
    let t = Table::parse("bad", "bad.tsv", table).unwrap();
    let problems = t.check(None);
    let at = |line: u32, what: &str| {
        assert!(
            problems
                .iter()
                .any(|p| p.line == line && p.message.contains(what)),
            "line {line} `{what}` in {problems:#?}"
        );
    };
    at(4, "the name `Octopus` again (line 3)");
    at(6, "the same position as line 5");
    at(7, "ballot 88 again");
    at(7, "illegal-move");
    assert!(problems.iter().all(|p| p.origin == "bad.tsv"));
    assert!(Classifier::new(&[t], None).is_err());
    // A table that names no variant needs one.
    let t = Table::parse("v", "v.tsv", "Cross\t11-15 23-18\n").unwrap();
    assert!(t.check(None)[0].message.contains("# variant: NAME"));
    assert!(t.check(Some(Variant::English)).is_empty());
}

/// The English start and the legal move of `pos` that goes from the square named first in
/// `squares` to the one named last: the rules alone, not the classifier's replay.
fn play(pos: &Position<u64>, squares: &[pdn::syntax::Square]) -> Option<Position<u64>> {
    let bit = |s: &pdn::syntax::Square| SquareName::from(*s).resolve(English::numbering()).ok();
    let (from, to) = (bit(squares.first()?)?, bit(squares.last()?)?);
    let mut moves = MoveList::new();
    English::legal_moves(pos, &mut moves);
    let found: Vec<_> = moves
        .moves()
        .iter()
        .filter(|m| u32::from(m.from) == from && u32::from(m.to) == to)
        .collect();
    (found.len() == 1).then(|| pos.after(found[0], English::RULES))
}

fn placement(p: &Position<u64>) -> (u64, u64, u64, pdn::rules::Color) {
    p.placement_key()
}

/// Over every English archive of the corpus: each game played from the standard position
/// whose first three plies are legal gets the three-move ballot of those plies (the ballot
/// whose position they reach, found here by replaying the table's lines with the rules), at
/// ply 3; the games whose first three plies reach no ballot get no three-move ballot.
#[test]
fn english_corpus_games_get_the_ballot_of_their_first_three_plies() {
    let c = shipped();
    let three = Table::shipped()
        .into_iter()
        .find(|t| t.name == "english-3move")
        .unwrap();
    let mut ballots = HashMap::new();
    for e in &three.entries {
        let What::Moves(moves) = &e.what else {
            panic!("moves")
        };
        let game = &read_games(format!("{moves} *").as_bytes())[0];
        let mut pos = English::start();
        for item in &game.body.items {
            let Item::Move(m) = item else { continue };
            pos = play(&pos, &m.squares).unwrap_or_else(|| panic!("ballot {moves}"));
        }
        assert!(ballots.insert(placement(&pos), e.ballot.unwrap()).is_none());
    }
    let mut files = Vec::new();
    common::pdn_files(&common::corpus().join("english"), &mut files);
    let (mut checked, mut outside, mut games) = (0, 0, 0);
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        for g in read_games(&bytes) {
            games += 1;
            let fen = g.tag("FEN").map(str::trim).filter(|f| !f.is_empty());
            if fen.is_some_and(|f| {
                English::from_fen(f).map_or(true, |p| placement(&p) != placement(&English::start()))
            }) {
                continue;
            }
            let mut pos = English::start();
            let mut plies = 0;
            for item in &g.body.items {
                let Item::Move(m) = item else { continue };
                match play(&pos, &m.squares) {
                    Some(p) => pos = p,
                    None => break,
                }
                plies += 1;
                if plies == 3 {
                    break;
                }
            }
            if plies < 3 {
                continue;
            }
            let (got, report) = c.classify_game(&g, &Options::default());
            assert_eq!(report.variant, Some(Variant::English), "{}", f.display());
            let where_ = format!("{} game {}", f.display(), g.index);
            match ballots.get(&placement(&pos)) {
                Some(&n) => {
                    checked += 1;
                    let b = got
                        .ballot
                        .as_ref()
                        .unwrap_or_else(|| panic!("{where_}: no ballot"));
                    assert_eq!(
                        (b.number, b.ply, b.table.as_str()),
                        (n, 3, "english-3move"),
                        "{where_}"
                    );
                }
                None => {
                    outside += 1;
                    assert!(
                        got.ballot
                            .as_ref()
                            .is_none_or(|b| b.table != "english-3move"),
                        "{where_}: {got:?}"
                    );
                }
            }
        }
    }
    eprintln!(
        "english corpus: {games} games, {checked} with their three-move ballot, {outside} outside the deck"
    );
    assert!(checked > 1400, "{checked}");
}

/// A transposed move order reaches the same position, and gets the same opening and ballot.
#[test]
fn transposed_move_orders_get_the_same_opening() {
    let c = shipped();
    let got = classify(
        &c,
        "[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13 *\n\n\
         [GameType \"21\"]\n1. 11-15 22-17 2. 8-11 23-19 3. 4-8 17-13 *\n\n\
         [GameType \"21\"]\n1. 10-15 21-17 2. 9-13 *\n\n\
         [GameType \"21\"]\n1. 9-13 21-17 2. 10-15 *\n",
    );
    for g in &got[..2] {
        let o = g.opening.as_ref().unwrap();
        assert_eq!((o.name.as_str(), o.ply), ("Old Fourteenth", 5));
    }
    // The first reaches ballot 126 (11-15 23-19 8-11) at ply 3; the second reaches 11-15
    // 22-17 8-11 (116) there instead: the same opening, not the same ballot.
    assert_eq!(got[0].ballot.as_ref().unwrap().number, 126);
    assert_eq!(got[1].ballot.as_ref().unwrap().number, 116);
    for g in &got[2..] {
        let b = g.ballot.as_ref().unwrap();
        assert_eq!((b.number, b.text().as_str()), (87, "87 10-15 21-17 9-13"));
        assert_eq!(g.opening.as_ref().unwrap().name, "Tyne");
    }
    // International: a user table, two move orders to one position.
    let t = Table::parse(
        "mine",
        "mine.tsv",
        "# variant: international\nTwo moves\t31-26 19-24 32-27 20-25\n",
    )
    .unwrap();
    let mine = Classifier::new(&[t], None).unwrap();
    let got = classify(
        &mine,
        "[GameType \"20\"]\n1. 32-27 20-25 2. 31-26 19-24 3. 37-32 *\n",
    );
    assert_eq!(got[0].opening.as_ref().unwrap().ply, 4);
}

/// A game from a setup is classified only where a table starts (an 11-man ballot, at ply 0);
/// a replay that fails is classified up to the failure; a setup in the main line ends it.
#[test]
fn setups_and_failures() {
    let c = shipped();
    let got = classify(
        &c,
        "[FEN \"B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,12,11,10,9\"]\n1. 12-16 *\n\n\
         [GameType \"21\"]\n[FEN \"B:W21-32:B1-11,13\"]\n1. 13-17 *\n\n\
         [GameType \"21\"]\n1. 11-15 24-20 2. 8-11 31-26 3. 4-8 *\n\n\
         [GameType \"21\"]\n1. 11-15 /FEN \"W:W21-32:B1-10,12,15\"/ 24-20 8-11 *\n\n\
         [GameType \"20\"]\n1. 31-26 *\n",
    );
    let b = got[0].ballot.as_ref().unwrap();
    assert_eq!((b.number, b.ply, b.text()), (1, 0, "1".to_string()));
    assert_eq!(got[0].opening.as_ref().unwrap().name, "11-man ballot 1");
    assert_eq!(got[1].unclassified, Some(Unclassified::Setup));
    // 31-26 is illegal (26 is taken): the Ayrshire Lassie (ply 2) and ballot 130 (ply 3)
    // stand, nothing after.
    assert_eq!(got[2].opening.as_ref().unwrap().name, "Ayrshire Lassie");
    assert_eq!(got[2].ballot.as_ref().unwrap().number, 130);
    assert_eq!(got[2].ply(), Some(3));
    // After a setup in the main line nothing is looked up (the setup puts 11-15 back, and
    // 24-20 would reach the Ayrshire Lassie).
    assert!(!got[3].is_classified());
    assert_eq!(got[3].unclassified, Some(Unclassified::NotReached));
    assert_eq!(got[4].unclassified, Some(Unclassified::NotReached));
}

/// A PDN table: its games' `Opening` tags name them, their `GameType` and `FEN` say where
/// they start; it takes precedence over the shipped tables where both name a position.
#[test]
fn pdn_user_tables() {
    let t = Table::parse(
        "mine",
        "mine.pdn",
        "[GameType \"21\"]\n[Opening \"My Cross\"]\n1. 11-15 23-18 *\n\n\
         [GameType \"25\"]\n[Opening \"Russian line\"]\n1. c3-d4 f6-e5 *\n",
    )
    .unwrap();
    assert!(t.check(None).is_empty());
    let mut tables = vec![t];
    tables.extend(Table::shipped());
    let c = Classifier::new(&tables, None).unwrap();
    let got = classify(
        &c,
        "[GameType \"21\"]\n1. 11-15 23-18 *\n\n[GameType \"25\"]\n1. c3-d4 f6-e5 2. g3-f4 *\n",
    );
    assert_eq!(got[0].opening.as_ref().unwrap().name, "My Cross");
    assert_eq!(got[0].opening.as_ref().unwrap().table, "mine");
    assert_eq!(got[1].opening.as_ref().unwrap().name, "Russian line");
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run pdn")
}

const GAMES: &str = "fixtures/openings/games.pdn";

fn pdn(args: &[&str]) -> String {
    let o = run(&root(), args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "pdn {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8")
}

fn json_lines(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

/// `pdn classify -f json`: one record per game as DESIGN.md has it, then the summary; the
/// same whatever `--jobs`; text and CSV say the same.
#[test]
fn classify_writes_each_games_opening() {
    let out = pdn(&["classify", GAMES, "-f", "json", "-q", "--jobs", "1"]);
    assert_eq!(
        out,
        pdn(&["classify", GAMES, "-f", "json", "-q", "--jobs", "2"])
    );
    let v = json_lines(&out);
    assert_eq!(v.len(), 10);
    assert_eq!(
        v[0],
        serde_json::json!({"type":"game","file":GAMES,"game":1,"opening":"Old Fourteenth",
            "ballot":"126 11-15 23-19 8-11","barred":false,"ply":5,"variant":"english","line":1,
            "unclassified":null})
    );
    let field = |i: usize, k: &str| v[i][k].clone();
    assert_eq!(field(1, "opening"), "Old Fourteenth");
    assert_eq!(
        (field(2, "ballot"), field(2, "barred")),
        ("3 9-13 21-17 10-14".into(), true.into())
    );
    assert_eq!(
        (field(3, "ballot"), field(3, "ply")),
        ("1".into(), 0.into())
    );
    assert_eq!(field(4, "unclassified"), "setup");
    assert_eq!(
        (field(5, "ballot"), field(5, "ply")),
        ("130 11-15 24-20 8-11".into(), 3.into())
    );
    assert_eq!(field(6, "opening"), "IDF-64 draw 13");
    assert_eq!(
        (field(7, "opening"), field(7, "ply")),
        ("The Fox".into(), 6.into())
    );
    assert_eq!(field(8, "unclassified"), "not-reached");
    assert_eq!(v[9]["type"], "summary");
    assert_eq!(
        (v[9]["games"].clone(), v[9]["with_ballot"].clone()),
        (9.into(), 6.into())
    );
    let text = pdn(&["classify", GAMES, "-q"]);
    assert!(text.starts_with(&format!(
        "{GAMES}:1: game 1: Old Fourteenth (ply 5); ballot 126 11-15 23-19 8-11 (ply 3)\n"
    )));
    assert!(
        text.contains("Openings found (7 of 9 games classified)"),
        "{text}"
    );
    let csv = pdn(&["classify", GAMES, "-f", "csv", "-q"]);
    assert!(csv.starts_with(
        "file,game,line,variant,opening,opening_ply,ballot,barred,ballot_ply,ply,unclassified\n"
    ));
    assert!(csv.contains(&format!(
        "{GAMES},3,11,english,Edinburgh,1,3 9-13 21-17 10-14,true,3,3,\n"
    )));
}

/// `--table`: a user's TSV comes first (a FEN entry, a line of moves); a table with problems
/// stops the run before any game is read, each problem named `file:line`.
#[test]
fn classify_with_user_tables() {
    let v = json_lines(&pdn(&[
        "classify",
        GAMES,
        "-f",
        "json",
        "-q",
        "--table",
        "fixtures/openings/mine.tsv",
    ]));
    assert_eq!(
        (v[7]["opening"].clone(), v[7]["ply"].clone()),
        ("The Fox".into(), 6.into())
    );
    assert_eq!(
        (v[8]["opening"].clone(), v[8]["ply"].clone()),
        ("After 31-26".into(), 1.into())
    );
    let only = json_lines(&pdn(&[
        "classify",
        GAMES,
        "-f",
        "json",
        "-q",
        "--table",
        "fixtures/openings/mine.tsv",
        "--tables-only",
    ]));
    assert_eq!(only[7]["opening"], "Ouverture mine");
    assert_eq!(only[0]["unclassified"], "no-table");
    let o = run(
        &root(),
        &["classify", GAMES, "--table", "fixtures/openings/bad.tsv"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("fixtures/openings/bad.tsv:3: the name `Octopus` again (line 2)"),
        "{err}"
    );
    assert!(
        err.contains("fixtures/openings/bad.tsv:4: ply 3: illegal-move"),
        "{err}"
    );
    assert!(err.contains("2 problems in the opening tables"), "{err}");
    let listed = pdn(&["classify", "--list-tables"]);
    assert!(listed.starts_with("english-3move\tenglish\t174 entries, 174 ballots (18 barred)\t"));
    let shown = pdn(&["classify", "--show-table", "english-named"]);
    assert_eq!(shown, Table::shipped_text("english-named").unwrap());
}

/// `fix --classify` and `convert --classify` write the Opening and Ballot tags (`fix`
/// audits them); what they write classifies the same again.
#[test]
fn fix_and_convert_write_the_tags() {
    let dir = tempfile::tempdir().unwrap();
    let audit = dir.path().join("audit.jsonl");
    // (Exit status 1: the fixture's illegal moves are errors left.)
    let o = run(
        &root(),
        &[
            "fix",
            GAMES,
            "--classify",
            "-q",
            "--audit",
            audit.to_str().unwrap(),
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let fixed = String::from_utf8(o.stdout).unwrap();
    let games = read_games(fixed.as_bytes());
    assert_eq!(games.len(), 9);
    assert_eq!(games[0].tag("Opening"), Some("Old Fourteenth"));
    assert_eq!(games[0].tag("Ballot"), Some("126 11-15 23-19 8-11"));
    assert_eq!(games[3].tag("Ballot"), Some("1"));
    assert_eq!(games[4].tag("Opening"), None);
    assert_eq!(games[7].tag("Ballot"), None);
    let audit = std::fs::read_to_string(&audit).unwrap();
    assert!(
        audit
            .lines()
            .any(|l| l.contains("\"after\":\"Old Fourteenth\"")),
        "{audit}"
    );
    let again = dir.path().join("fixed.pdn");
    std::fs::write(&again, &fixed).unwrap();
    let before = json_lines(&pdn(&["classify", GAMES, "-f", "json", "-q"]));
    let after = json_lines(&pdn(&[
        "classify",
        again.to_str().unwrap(),
        "-f",
        "json",
        "-q",
    ]));
    for (b, a) in before.iter().zip(&after).take(9) {
        for k in ["opening", "ballot", "barred", "ply", "unclassified"] {
            assert_eq!(b[k], a[k], "{k}: {b} {a}");
        }
    }
    // A second fix --classify changes nothing more.
    let o = run(&root(), &["fix", again.to_str().unwrap(), "--classify"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), fixed);
    let json = pdn(&["convert", GAMES, "--to", "json", "--classify", "-q"]);
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert!(first.to_string().contains("Old Fourteenth"), "{first}");
    let o = run(
        &root(),
        &[
            "convert",
            GAMES,
            "--to",
            "pdn",
            "--table",
            "fixtures/openings/mine.tsv",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
}

/// `stats --by opening`: the same classification, with the results.
#[test]
fn stats_by_opening_uses_the_classification() {
    let csv = pdn(&["stats", GAMES, "-f", "csv", "--by", "opening", "-q"]);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("variant,opening,ballot,barred,games,first_wins,draws,second_wins,unknown,score")
    );
    let rows: Vec<&str> = lines.collect();
    assert!(
        rows.contains(&"english,Old Fourteenth,126 11-15 23-19 8-11,false,1,0,1,0,0,50"),
        "{csv}"
    );
    assert!(
        rows.contains(&"english,Edinburgh,3 9-13 21-17 10-14,true,1,1,0,0,0,100"),
        "{csv}"
    );
    assert!(rows.contains(&"english,,,false,1,0,0,0,1,"), "{csv}");
    let games: u64 = rows
        .iter()
        .map(|r| r.split(',').nth(4).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(games, 9);
    let moves = pdn(&["stats", GAMES, "-f", "csv", "--by", "moves", "-q"]);
    assert!(moves.starts_with("variant,plies,moves,"), "{moves}");
    let text = pdn(&["stats", GAMES, "--by", "opening", "-q"]);
    assert!(text.contains("Openings (by the opening tables"), "{text}");
}

/// The IDF-64 table against the files it was compiled from (hcheckers' draws in the corpus):
/// each draw's moves that replay legally reach that draw, at their last ply; each draw's FEN,
/// as a game's start position, is that draw at ply 0 (three draws are transpositions of
/// others and are named by the lower number).
#[test]
fn idf_draws_classify_as_themselves() {
    let c = shipped();
    let dir = common::corpus().join("russian/hcheckers-idf64-openings");
    let twin = |n: u32| match n {
        425 => 97,
        453 => 405,
        527 => 323,
        n => n,
    };
    // Four draws have the moves of others (one white move) with White to move in their FEN:
    // their moves reach the other draw.
    let by_moves_of = |n: u32| match n {
        462 => 393,
        502 => 461,
        725 => 487,
        594 => 564,
        n => twin(n),
    };
    let (mut by_moves, mut by_fen) = (0, 0);
    for n in 1..=745u32 {
        let pdn = std::fs::read(dir.join(format!("pdn/draw{n}.pdn"))).unwrap();
        let game = &read_games(&pdn)[0];
        let (got, report) = c.classify_game(game, &Options::default());
        if report.errors() == 0 {
            by_moves += 1;
            let b = got
                .ballot
                .as_ref()
                .unwrap_or_else(|| panic!("draw {n}: {got:?}"));
            assert_eq!(
                (b.number, b.ply),
                (by_moves_of(n), report.plies),
                "draw {n}"
            );
        }
        let fen = std::fs::read_to_string(dir.join(format!("fen/draw{n}.fen"))).unwrap();
        for v in ["25", "26"] {
            let text = format!("[GameType \"{v}\"]\n[FEN \"{}\"]\n*\n", fen.trim());
            let got = classify(&c, &text).remove(0);
            let b = got
                .ballot
                .as_ref()
                .unwrap_or_else(|| panic!("draw {n} ({v}): {got:?}"));
            assert_eq!((b.number, b.ply), (twin(n), 0), "draw {n} ({v})");
        }
        by_fen += 1;
    }
    assert_eq!((by_moves, by_fen), (353, 745));
}

/// The HTML report uses the same classification as `classify`: each game's row of the list
/// carries its opening and ballot (the last field), and its tags in the viewer name them.
#[test]
fn the_report_shows_each_games_opening() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let o = run(
        &root(),
        &[
            "validate",
            GAMES,
            "-f",
            "html",
            "-q",
            "-o",
            page.to_str().unwrap(),
        ],
    );
    assert!(o.status.code().is_some(), "{o:?}");
    let html = std::fs::read_to_string(&page).unwrap();
    // Game 1: Old Fourteenth, ballot 126 (as `classify` finds it above).
    assert!(
        html.contains("\"Old Fourteenth · ballot 126 11-15 23-19 8-11\"]"),
        "no opening in the rows"
    );
    assert!(html.contains("[\"Opening (pdn classify)\",\"Old Fourteenth\"]"));
    assert!(html.contains("[\"Ballot (pdn classify)\",\"126 11-15 23-19 8-11\"]"));
}
