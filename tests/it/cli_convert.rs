//! `pdn convert`: golden files for every target, the round trips PDN → PDN → JSON and
//! PDN → Manoury → JSON over the FMJD test suite, and the game and ply counts that
//! `validate`, `convert --to json`, `--to csv` and `--plies` must agree on.

use crate::support as common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run the binary from the crate root (so that the `file` fields of the output are the
/// relative paths given).
fn pdn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
        .current_dir(root())
        .args(args)
        .arg("--quiet")
        .output()
        .expect("run pdn")
}

fn stdout(args: &[&str]) -> String {
    let o = pdn(args);
    let code = o.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "pdn {args:?}: status {code:?}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8 output")
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

const GAMES: &str = "fixtures/convert/games.pdn";

/// Compare with `fixtures/convert/expected/NAME`; `PDN_BLESS=1` rewrites it.
fn golden(name: &str, got: &str) {
    let path = root().join("fixtures/convert/expected").join(name);
    if std::env::var_os("PDN_BLESS").is_some() {
        std::fs::write(&path, got).expect("write golden file");
    }
    let want = std::fs::read_to_string(&path).expect("golden file (PDN_BLESS=1 writes it)");
    assert_eq!(got, want, "output differs from {}", path.display());
}

#[test]
fn golden_files_for_every_target() {
    golden("games.pdn", &stdout(&["convert", "--to", "pdn", GAMES]));
    golden("games.jsonl", &stdout(&["convert", "--to", "json", GAMES]));
    golden("games.csv", &stdout(&["convert", "--to", "csv", GAMES]));
    golden(
        "games.plies.csv",
        &stdout(&["convert", "--to", "csv", "--plies", GAMES]),
    );
    golden(
        "games.manoury",
        &stdout(&["convert", "--to", "manoury", GAMES]),
    );
    golden(
        "games.algebraic.manoury",
        &stdout(&[
            "convert",
            "--to",
            "manoury",
            "--notation",
            "algebraic",
            GAMES,
        ]),
    );
    golden(
        "games.numeric.plies.csv",
        &stdout(&[
            "convert",
            "--to",
            "csv",
            "--plies",
            "--notation",
            "numeric",
            GAMES,
        ]),
    );
}

#[test]
fn what_the_golden_files_say() {
    let pdn = stdout(&["convert", "--to", "pdn", GAMES]).replace('\n', " ");
    // Strict PDN 3.0: `*` ends every game, the result is in the tag.
    assert!(pdn.contains("[Result \"2-0\"]") && !pdn.contains("5-10 2-0"));
    // The ambiguous capture keeps its full route, the book-style replies become moves.
    assert!(pdn.contains("1. 47x38x24x13x36 *"));
    assert!(pdn.contains("1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 *"));
    // Comments, NAGs, strengths and variations are kept.
    assert!(pdn.contains("{Before the first move}"));
    assert!(pdn.contains("(3... 9-14 $6 {a book move})"));
    assert!(pdn.contains("19-23!") && pdn.contains("41-37?"));
    // Russian stays algebraic, with `x` as the capture separator.
    assert!(pdn.contains("2. d4xf6 g7xe5"));

    let json_text = stdout(&["convert", "--to", "json", GAMES]);
    let games = json_lines(&json_text);
    assert_eq!(games.len(), 5);
    let g = &games[0];
    let keys: Vec<&str> = g.as_object().unwrap().keys().map(String::as_str).collect();
    for k in ["file", "game", "tags", "variant", "fen", "moves", "result"] {
        assert!(keys.contains(&k), "key {k} in {keys:?}");
    }
    assert_eq!(g["file"], GAMES);
    assert_eq!(g["result"], "2-0");
    assert_eq!(g["winner"], "white");
    assert_eq!(g["result_text"], "2-0");
    // Tags keep their order (serde_json's map sorts keys: look at the text).
    let first_line = json_text.lines().next().unwrap();
    let at = |t: &str| first_line.find(&format!("\"{t}\":")).unwrap();
    assert!(at("Event") < at("White") && at("White") < at("Black"));
    assert!(at("Black") < at("Result") && at("Result") < at("Opening"));
    let m = &g["moves"][1];
    assert_eq!(
        (m["number"].as_u64(), m["side"].as_str()),
        (Some(1), Some("black"))
    );
    assert_eq!(
        (m["move"].as_str(), m["strength"].as_str()),
        (Some("19-23"), Some("!"))
    );
    let with_variation = &g["moves"][5];
    assert_eq!(with_variation["move"], "10-14");
    assert_eq!(with_variation["variations"][0][0]["move"], "9-14");
    assert_eq!(with_variation["variations"][0][0]["nags"][0], 6);
    // `text` is the move as written, `move` the canonical form.
    let ru = &games[4]["moves"][3];
    assert_eq!(
        (ru["text"].as_str(), ru["move"].as_str()),
        (Some("g7:e5"), Some("g7xe5"))
    );

    let man = stdout(&["convert", "--to", "manoury", GAMES]).replace('\n', " ");
    assert!(
        man.contains("1. 32-28 (19-23!) 2. 28x19 (14x23) 3. 37-32 (10-14) 4. 41-37? (5-10) 2-0")
    );
    let num = stdout(&["convert", "--to", "manoury", "--notation", "numeric", GAMES]);
    assert!(num.contains("GameType \"25,W,8,8,N2,0\""), "{num}");
    let alg = stdout(&[
        "convert",
        "--to",
        "manoury",
        "--notation",
        "algebraic",
        GAMES,
    ]);
    assert!(alg.contains("GameType \"21,B,8,8,A0,0\""), "{alg}");
    // The 10x10 board keeps its numbers whatever the notation asked.
    assert!(alg.contains("1. 32-28 (19-23!)"));
}

#[test]
fn csv_columns_and_rows() {
    let text = stdout(&["convert", "--to", "csv", GAMES]);
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = r.headers().unwrap().iter().map(str::to_owned).collect();
    assert_eq!(
        &header[..18],
        [
            "file",
            "game",
            "event",
            "site",
            "date",
            "round",
            "white",
            "black",
            "result",
            "winner",
            "result_text",
            "variant",
            "plies",
            "errors",
            "warnings",
            "first_error_code",
            "first_error_ply",
            "first_error_in_variation"
        ]
    );
    // Then the other tags, in the order they first appear.
    assert_eq!(&header[18..], ["Opening", "GameType", "FEN"]);
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 5);
    assert_eq!(&rows[0][18], "x");
    assert_eq!(&rows[1][19], "20");
    assert_eq!(&rows[4][11], "russian");
    assert_eq!(&rows[4][12], "7");
    // The result normalised, its winner, and the result as written (issue 36).
    for row in &rows {
        assert!(
            ["white", "black", "draw", "none", "unknown"].contains(&&row[9]),
            "{row:?}"
        );
        if row[10].is_empty() || &row[10] == "*" {
            assert_eq!((&row[8], &row[9]), ("*", "unknown"), "{row:?}");
        }
    }
    assert_eq!((&rows[0][8], &rows[0][9]), ("2-0", "white"));

    let text = stdout(&["convert", "--to", "csv", "--plies", GAMES]);
    let mut r = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(
        r.headers().unwrap().iter().collect::<Vec<_>>(),
        [
            "file",
            "game",
            "ply",
            "number",
            "side",
            "move",
            "path",
            "captured",
            "promotion",
            "fen_before",
            "fen_after",
            "white_men",
            "white_kings",
            "black_men",
            "black_kings"
        ]
    );
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 26, "every ply of every main line");
    let amb = rows.iter().find(|r| &r[1] == "2").unwrap();
    assert_eq!(&amb[5], "47x38x24x13x36");
    assert_eq!(&amb[7], "42 29 19 31");
    assert_eq!(&amb[13], "1");
    // A row's FEN after is the next row's FEN before.
    for w in rows.windows(2) {
        if w[0][1] == w[1][1] {
            assert_eq!(&w[0][10], &w[1][9]);
        }
    }
}

#[test]
fn usage_errors() {
    let o = pdn(&["convert", "--to", "json", "--plies", GAMES]);
    assert_eq!(o.status.code(), Some(2));
    let o = pdn(&["convert", "--to", "json", GAMES, "-o", GAMES]);
    assert_eq!(o.status.code(), Some(2), "refuses to overwrite an input");
}

/// Every file of the FMJD test suite's `succeed` directories, all variants.
fn succeed_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for variant in std::fs::read_dir(common::corpus()).unwrap() {
        let dir = variant.unwrap().path().join("fmjd-pdn-testsuite/succeed");
        if dir.is_dir() {
            for f in std::fs::read_dir(&dir).unwrap() {
                out.push(f.unwrap().path());
            }
        }
    }
    out.sort();
    assert!(out.len() > 30, "the succeed files are there");
    out
}

fn convert_file(to: &str, path: &Path) -> String {
    stdout(&["convert", "--to", to, path.to_str().unwrap()])
}

/// The moves of a JSON game without what depends on how they were written (`text`).
fn moves_without_text(v: &Value) -> Value {
    match v {
        Value::Array(a) => Value::Array(a.iter().map(moves_without_text).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| k.as_str() != "text")
                .map(|(k, v)| (k.clone(), moves_without_text(v)))
                .collect(),
        ),
        v => v.clone(),
    }
}

/// The tags as a set, with the `Result` tag the writer adds (PDN 3.0 keeps the result in
/// the tag only) when the game had the result in its movetext alone.
fn tag_set(g: &Value, result: &Value) -> BTreeSet<(String, String)> {
    let mut s: BTreeSet<(String, String)> = g["tags"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
        .collect();
    if !s.iter().any(|(k, _)| k == "Result") {
        s.insert(("Result".into(), result.as_str().unwrap_or("*").to_owned()));
    }
    s
}

#[test]
fn succeed_files_convert_to_pdn_and_back_to_the_same_games() {
    let dir = tempfile::tempdir().unwrap();
    let mut games = 0;
    for f in succeed_files() {
        let original = json_lines(&convert_file("json", &f));
        let pdn = convert_file("pdn", &f);
        let written = dir.path().join("written.pdn");
        std::fs::write(&written, &pdn).unwrap();
        // The written file is strict: no syntax error.
        let report = stdout(&["validate", "-f", "json", written.to_str().unwrap()]);
        assert!(
            !report.contains("\"code\":\"syntax-error\""),
            "{}: syntax error in the written PDN",
            f.display()
        );
        let again = json_lines(&convert_file("json", &written));
        assert_eq!(original.len(), again.len(), "{}: game count", f.display());
        for (a, b) in original.iter().zip(&again) {
            let at = format!("{} game {}", f.display(), a["game"]);
            assert_eq!(a["game"], b["game"], "{at}");
            // The writer adds the GameType of a variant that was inferred (the variant
            // compared below is the same).
            let mut written = tag_set(b, &b["result_text"]);
            if a["tags"].get("GameType").is_none() {
                written.retain(|(k, _)| k != "GameType");
            }
            assert_eq!(tag_set(a, &a["result_text"]), written, "{at}: tags");
            assert_eq!(a["variant"], b["variant"], "{at}: variant");
            assert_eq!(a["fen"], b["fen"], "{at}: start position");
            let (ra, rb) = (
                a["result_text"].as_str().unwrap_or("*"),
                b["result_text"].as_str().unwrap_or("*"),
            );
            assert_eq!(ra, rb, "{at}: result");
            assert_eq!(
                (&a["result"], &a["winner"]),
                (&b["result"], &b["winner"]),
                "{at}: result normalised"
            );
            assert_eq!(
                moves_without_text(&a["moves"]),
                moves_without_text(&b["moves"]),
                "{at}: moves"
            );
            games += 1;
        }
    }
    assert!(games > 1900, "{games} games compared");
}

#[test]
fn succeed_files_through_manoury_keep_their_main_lines() {
    let dir = tempfile::tempdir().unwrap();
    let mut games = 0;
    for f in succeed_files() {
        let original = json_lines(&convert_file("json", &f));
        let rows = convert_file("csv", &f);
        let errors: Vec<u64> = csv::Reader::from_reader(rows.as_bytes())
            .records()
            .map(|r| r.unwrap()[13].parse().unwrap())
            .collect();
        let man = dir.path().join("book.pdn");
        std::fs::write(&man, convert_file("manoury", &f)).unwrap();
        let again = json_lines(&convert_file("json", &man));
        assert_eq!(original.len(), again.len(), "{}: game count", f.display());
        let main = |g: &Value| -> Vec<(Value, Value)> {
            g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| !m["move"].is_null())
                .map(|m| (m["move"].clone(), m["strength"].clone()))
                .collect()
        };
        for ((a, b), e) in original.iter().zip(&again).zip(&errors) {
            // A record with an error (an ambiguous capture the replay had to choose for, a
            // move played as recorded) may be told differently once its replies are in
            // parentheses; the clean ones must come back move for move.
            if *e > 0 {
                continue;
            }
            let at = format!("{} game {}", f.display(), a["game"]);
            assert_eq!(main(a), main(b), "{at}: main line");
            assert_eq!(
                (&a["variant"], &a["fen"]),
                (&b["variant"], &b["fen"]),
                "{at}"
            );
            games += 1;
        }
    }
    assert!(games > 1900, "{games} games compared");
}

/// `validate`'s summary line.
fn summary(paths: &[&str]) -> Value {
    let mut args = vec!["validate", "-f", "json"];
    args.extend_from_slice(paths);
    let out = stdout(&args);
    let last = out.lines().last().unwrap();
    serde_json::from_str(last).unwrap()
}

#[test]
fn validate_json_and_csv_count_the_same_games_and_plies() {
    let corpus = common::corpus();
    let dirs: Vec<String> = ["international", "english", "russian", "misc-syntax"]
        .iter()
        .map(|d| {
            corpus
                .join(d)
                .join("fmjd-pdn-testsuite")
                .to_string_lossy()
                .into_owned()
        })
        .filter(|d| Path::new(d).is_dir())
        .collect();
    let paths: Vec<&str> = dirs.iter().map(String::as_str).collect();
    let s = summary(&paths);
    let mut args = vec!["convert", "--to", "json"];
    args.extend_from_slice(&paths);
    let json = stdout(&args).lines().count() as u64;
    args[2] = "csv";
    let csv_text = stdout(&args);
    let csv_games = csv::Reader::from_reader(csv_text.as_bytes())
        .records()
        .count() as u64;
    args.push("--plies");
    let plies_text = stdout(&args);
    let ply_rows = csv::Reader::from_reader(plies_text.as_bytes())
        .records()
        .count() as u64;
    let games = s["games"].as_u64().unwrap();
    assert!(games > 1000);
    assert_eq!(json, games, "convert --to json");
    assert_eq!(csv_games, games, "convert --to csv");
    assert_eq!(
        ply_rows,
        s["plies"].as_u64().unwrap(),
        "--plies rows = plies validated"
    );
}

/// A game's findings as `validate --format json` reports them: variant, plies, and the
/// errors and warnings as (code, ply), in the order reported.
#[derive(Debug, PartialEq)]
struct Findings {
    variant: Value,
    plies: Value,
    findings: Vec<(String, Value)>,
    /// Of them, in variations.
    in_variations: usize,
}

/// `validate --format json` over `path`, game by game.
fn findings_of(path: &str) -> Vec<Findings> {
    findings_by_file(path).into_iter().map(|(_, f)| f).collect()
}

/// `validate --format json` over `path`, game by game, with the file of each.
fn findings_by_file(path: &str) -> Vec<(String, Findings)> {
    let mut games = Vec::new();
    let mut pending = Vec::new();
    let mut in_variations = 0;
    for v in json_lines(&stdout(&["validate", "--jobs", "1", "-f", "json", path])) {
        match v["type"].as_str() {
            // A file's findings reported once for it (its dates of one form) come after its
            // games; they are not a game's (see `is_date_finding`).
            Some("diagnostic") if v["message"].as_str().unwrap().ends_with(" of this file)") => {}
            Some("diagnostic") if v["severity"] != "info" => {
                pending.push((v["code"].as_str().unwrap().to_owned(), v["ply"].clone()));
                in_variations += usize::from(v["in_variation"] == true);
            }
            Some("game") => games.push((
                v["file"].as_str().unwrap().to_owned(),
                Findings {
                    variant: v["variant"].clone(),
                    plies: v["plies"].clone(),
                    findings: std::mem::take(&mut pending),
                    in_variations: std::mem::take(&mut in_variations),
                },
            )),
            _ => {}
        }
    }
    games
}

/// What a strict writer may change in the findings by construction: move numbers are
/// written in sequence (`move-number` warnings of the record may go; those where a variation
/// starts with a number of its own stay).
fn without_normalised(f: &Findings) -> Vec<(String, Value)> {
    f.findings
        .iter()
        .filter(|(code, _)| code != "move-number")
        .cloned()
        .collect()
}

/// A warning about the form of a date: `validate` reports those of a file once for it, after
/// its games (`convert --to json` with each game).
fn is_date_finding(d: &Value) -> bool {
    let m = d["message"].as_str().unwrap_or("");
    d["code"] == "bad-tag"
        && ["Date `", "EventDate `", "UTCDate `", "PublicationDate `"]
            .iter()
            .any(|p| m.starts_with(p))
}

/// The findings of `code`.
fn of_code<'f>(f: &'f Findings, code: &str) -> Vec<&'f (String, Value)> {
    f.findings.iter().filter(|(c, _)| c == code).collect()
}

fn is_error(code: &str) -> bool {
    !matches!(code, "draw-rule" | "move-number" | "bad-tag" | "tolerated")
}

/// A file's path below `root` without its extension: what names an input and its output of
/// `--out-dir` alike.
fn stem_below(root: &Path, file: &str) -> String {
    let rel = Path::new(file)
        .strip_prefix(root)
        .unwrap_or(Path::new(file));
    rel.with_extension("").to_string_lossy().into_owned()
}

/// The whole shared corpus through `convert --to pdn`, `--to manoury` and `--to json`,
/// one output per input file (`--out-dir`: a file decides the variant of its games), and
/// back, game by game: the same variant (also where it was inferred), the same plies and the
/// same findings — syntax errors included, kept as comments that say so. Through the book
/// style only the games it can hold (no error: an irregular move or an ambiguous capture may
/// be told differently once the replies are in parentheses); JSON carries the findings.
#[test]
fn the_whole_corpus_converts_and_reads_back_to_the_same_games_and_findings() {
    let corpus = common::corpus();
    let root = corpus.canonicalize().unwrap();
    let original: std::collections::BTreeMap<(String, usize), Findings> = {
        let mut n = std::collections::HashMap::new();
        findings_by_file(root.to_str().unwrap())
            .into_iter()
            .map(|(file, f)| {
                let stem = stem_below(&root, &file);
                let k = n.entry(stem.clone()).or_insert(0usize);
                *k += 1;
                ((stem, *k), f)
            })
            .collect()
    };
    assert!(original.len() > 13_000, "{} games", original.len());
    let syntax_errors: usize = original
        .values()
        .map(|f| of_code(f, "syntax-error").len())
        .sum();
    assert!(syntax_errors >= 5, "{syntax_errors} syntax errors");
    for to in ["pdn", "manoury", "json"] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().canonicalize().unwrap();
        let o = pdn(&[
            "convert",
            "--to",
            to,
            root.to_str().unwrap(),
            "--out-dir",
            out.to_str().unwrap(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let mut again = std::collections::BTreeMap::new();
        let mut n = std::collections::HashMap::new();
        if to == "json" {
            let mut files = Vec::new();
            collect(&out, &mut files);
            for f in files {
                let stem = stem_below(&out, f.to_str().unwrap());
                for g in json_lines(&std::fs::read_to_string(&f).unwrap()) {
                    let findings = g["diagnostics"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|d| d["severity"] != "info" && !is_date_finding(d))
                        .map(|d| (d["code"].as_str().unwrap().to_owned(), d["ply"].clone()))
                        .collect();
                    let f = Findings {
                        variant: g["variant"].clone(),
                        plies: g["plies"].clone(),
                        findings,
                        in_variations: 0,
                    };
                    let k = n.entry(stem.clone()).or_insert(0usize);
                    *k += 1;
                    again.insert((stem.clone(), *k), f);
                }
            }
        } else {
            if to == "manoury" {
                // `.txt` files: named `.pdn` to be found in the folder.
                let mut files = Vec::new();
                collect(&out, &mut files);
                for f in files {
                    std::fs::rename(&f, f.with_extension("pdn")).unwrap();
                }
            }
            for (file, f) in findings_by_file(out.to_str().unwrap()) {
                let stem = stem_below(&out, &file);
                let k = n.entry(stem.clone()).or_insert(0usize);
                *k += 1;
                again.insert((stem, *k), f);
            }
        }
        assert_eq!(original.len(), again.len(), "--to {to}: game count");
        let mut compared = 0;
        for (key, a) in &original {
            let b = again
                .get(key)
                .unwrap_or_else(|| panic!("--to {to}: {key:?} not written"));
            // (The book style leaves variations out, and what was found in them.)
            if to == "manoury"
                && (a.in_variations > 0
                    || a.findings
                        .iter()
                        .any(|(c, _)| is_error(c) && c != "syntax-error"))
            {
                continue;
            }
            let at = format!("--to {to}: {} game {}", key.0, key.1);
            assert_eq!(a.variant, b.variant, "{at}: variant");
            assert_eq!(a.plies, b.plies, "{at}: plies");
            if to == "json" {
                assert_eq!(a.findings, b.findings, "{at}: findings");
            } else {
                assert_eq!(
                    without_normalised(a),
                    without_normalised(b),
                    "{at}: findings"
                );
                let before = of_code(a, "move-number");
                for m in of_code(b, "move-number") {
                    assert!(before.contains(&m), "{at}: {m:?} is new");
                }
            }
            compared += 1;
        }
        assert!(compared > 13_000, "--to {to}: {compared} games compared");
    }
}

/// Every file below `dir`, recursively.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            collect(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// `--notation` writes a `GameType` that says how the squares are named: the English and
/// Russian archives written with the other names read back without a warning about it, as
/// the same games with the same findings.
#[test]
fn other_square_names_read_back_as_the_same_games_without_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    for variant in ["english", "russian"] {
        let folder = common::corpus().join(variant);
        let folder = folder.to_str().unwrap();
        let original = findings_of(folder);
        for notation in ["algebraic", "numeric"] {
            let written = dir.path().join(format!("{variant}.{notation}.pdn"));
            let w = written.to_str().unwrap();
            let o = pdn(&[
                "convert",
                "--jobs",
                "1",
                "--to",
                "pdn",
                "--notation",
                notation,
                folder,
                "-o",
                w,
            ]);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
            let again = findings_of(w);
            assert_eq!(original.len(), again.len());
            for (i, (a, b)) in original.iter().zip(&again).enumerate() {
                let at = format!("{variant} --notation {notation}: game {}", i + 1);
                assert_eq!((&a.variant, &a.plies), (&b.variant, &b.plies), "{at}");
                assert_eq!(without_normalised(a), without_normalised(b), "{at}");
            }
        }
    }
}

/// The fixed columns of a game row (the CSV's and the Parquet table's).
#[cfg(feature = "parquet")]
const GAME_COLUMNS_LEN: usize = pdn::app::write::export::csv::GAME_COLUMNS.len();

/// The record batches of a Parquet file, read back by the parquet crate.
#[cfg(feature = "parquet")]
fn read_parquet(path: &Path) -> Vec<arrow_array::RecordBatch> {
    let f = std::fs::File::open(path).expect("the Parquet file");
    parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(f)
        .expect("a Parquet file")
        .build()
        .expect("its reader")
        .map(|b| b.expect("a record batch"))
        .collect()
}

/// The values of a column of the batches as text (null as `None`), through arrow's own
/// formatting of the cell.
#[cfg(feature = "parquet")]
fn column_text(batches: &[arrow_array::RecordBatch], name: &str) -> Vec<Option<String>> {
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::UInt32Type;
    let mut out = Vec::new();
    for b in batches {
        let c = b
            .column_by_name(name)
            .unwrap_or_else(|| panic!("column {name}"));
        for i in 0..c.len() {
            out.push((!c.is_null(i)).then(|| match c.data_type() {
                arrow_schema::DataType::Utf8 => c.as_string::<i32>().value(i).to_owned(),
                arrow_schema::DataType::UInt32 => {
                    c.as_primitive::<UInt32Type>().value(i).to_string()
                }
                arrow_schema::DataType::Boolean => c.as_boolean().value(i).to_string(),
                arrow_schema::DataType::List(_) => {
                    let l = c.as_list::<i32>().value(i);
                    let s = l.as_string::<i32>();
                    (0..s.len())
                        .map(|k| s.value(k))
                        .collect::<Vec<_>>()
                        .join(" ")
                }
                t => panic!("column {name}: type {t}"),
            }));
        }
    }
    out
}

/// `--to parquet` holds the rows and columns of `--to csv` (typed; the other tags in the
/// `tags` map, keyed as the JSON keys them), with and without `--plies`: read back by the
/// parquet crate.
#[cfg(feature = "parquet")]
#[test]
fn parquet_holds_the_csv_rows() {
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    let dir = tempfile::tempdir().unwrap();
    for plies in [false, true] {
        let out = dir
            .path()
            .join(if plies { "p.parquet" } else { "g.parquet" });
        let mut args = vec![
            "convert",
            "--to",
            "parquet",
            GAMES,
            "-o",
            out.to_str().unwrap(),
        ];
        let mut csv_args = vec!["convert", "--to", "csv", GAMES];
        if plies {
            args.push("--plies");
            csv_args.push("--plies");
        }
        stdout(&args);
        let batches = read_parquet(&out);
        let text = stdout(&csv_args);
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let header: Vec<String> = r.headers().unwrap().iter().map(str::to_owned).collect();
        let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        let n: usize = batches.iter().map(|b| b.num_rows()).sum();
        assert_eq!(n, rows.len(), "plies {plies}");
        let fixed = if plies {
            header.len()
        } else {
            GAME_COLUMNS_LEN
        };
        for (k, name) in header.iter().take(fixed).enumerate() {
            // The CSV writes an empty string, an empty list and a null alike.
            let got: Vec<Option<String>> = column_text(&batches, name)
                .into_iter()
                .map(|v| v.filter(|s| !s.is_empty()))
                .collect();
            let want: Vec<Option<String>> = rows
                .iter()
                .map(|r| Some(r[k].to_owned()).filter(|s| !s.is_empty()))
                .collect();
            assert_eq!(got, want, "column {name}, plies {plies}");
        }
        if !plies {
            // The other tags of the CSV, in the map.
            let tags = batches[0].column_by_name("tags").unwrap().as_map();
            for (row, r) in rows.iter().enumerate() {
                let entries = tags.value(row);
                let keys = entries.column(0).as_string::<i32>();
                let values = entries.column(1).as_string::<i32>();
                for (k, name) in header.iter().enumerate().skip(GAME_COLUMNS_LEN) {
                    let v = (0..keys.len())
                        .find(|&i| keys.value(i) == name)
                        .map(|i| values.value(i));
                    assert_eq!(v.unwrap_or(""), &r[k], "tag {name} of row {row}");
                }
            }
        }
    }
}

/// The Parquet rows are in input order whatever `--jobs`, the file byte-identical; an
/// archive converts with one file per input under `--out-dir`.
#[cfg(feature = "parquet")]
#[test]
fn parquet_of_an_archive_whatever_the_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let archive = common::corpus().join("english");
    let archive = archive.to_str().unwrap();
    let mut files = Vec::new();
    for jobs in ["1", "2"] {
        let out = dir.path().join(format!("plies{jobs}.parquet"));
        stdout(&[
            "convert",
            "--jobs",
            jobs,
            "--to",
            "parquet",
            "--plies",
            archive,
            "-o",
            out.to_str().unwrap(),
        ]);
        files.push(std::fs::read(&out).unwrap());
    }
    assert_eq!(files[0], files[1], "the same file with 1 and 2 jobs");
    let plies = read_parquet(&dir.path().join("plies1.parquet"));
    let n: usize = plies.iter().map(|b| b.num_rows()).sum();
    let summary = stdout(&["validate", "--format", "json", archive]);
    let summary: Value = serde_json::from_str(summary.lines().last().unwrap()).unwrap();
    assert_eq!(
        n as u64,
        summary["plies"].as_u64().unwrap(),
        "a row per ply validate counts"
    );
    assert!(n > 65_536, "{n} plies: more than one batch");

    let out = dir.path().join("shards");
    stdout(&[
        "convert",
        "--to",
        "parquet",
        archive,
        "--out-dir",
        out.to_str().unwrap(),
    ]);
    let shards: Vec<PathBuf> = walk_files(&out)
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".parquet"))
        .collect();
    assert!(shards.len() > 1);
    let games: usize = shards
        .iter()
        .flat_map(|p| read_parquet(p))
        .map(|b| b.num_rows())
        .sum();
    assert_eq!(games as u64, summary["games"].as_u64().unwrap());
}

/// Every file below `dir`.
#[cfg(feature = "parquet")]
fn walk_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}
