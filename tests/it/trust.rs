//! Issue 30: nothing corrupted, nothing dropped. The file decides the variant (a misprinted
//! FEN stays in its file's variant as a `bad-fen`, `fix` never turns a result into another
//! outcome nor states a variant it does not know); a FEN naming one colour twice is a
//! `bad-fen`; `in_variation` on every finding and `--main-line`; `--result-style`; text that
//! could not be read kept as a comment through every output.

use crate::support as common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn pdn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run pdn")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8")
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The `game` records of `validate -f json`, and the diagnostics of each game.
fn games(records: &[Value]) -> Vec<(Value, Vec<Value>)> {
    let mut out = Vec::new();
    let mut pending = Vec::new();
    for r in records {
        match r["type"].as_str() {
            Some("diagnostic") => pending.push(r.clone()),
            Some("game") => out.push((r.clone(), std::mem::take(&mut pending))),
            _ => {}
        }
    }
    out
}

/// The first `n` games of the Tinsley archive (English, no GameType), as text.
fn tinsley(n: usize) -> Vec<String> {
    let text =
        std::fs::read_to_string(common::corpus().join("english/checkerboard-tinsley.pdn")).unwrap();
    let games: Vec<String> = text
        .split("\n\n")
        .filter(|g| g.contains("[Event"))
        .take(n)
        .map(|g| format!("{}\n", g.trim()))
        .collect();
    assert_eq!(games.len(), n);
    games
}

/// A problem whose FEN is impossible in English (a black man on 32, its own crowning row:
/// the K is missing), White to win (`1-0` is Black's win in English… as the book writes it).
const MISPRINT: &str = "[Event \"Problem 7\"]\n[Black \"Red\"]\n[White \"White\"]\n\
    [Result \"1-0\"]\n[Setup \"1\"]\n[FEN \"B:WK31,27,23,K20:B32,30,K22,K7.\"]\n1-0\n";

/// A game with no move and no FEN: nothing shows its variant.
const EMPTY: &str = "[Event \"Adjourned\"]\n[Result \"1-0\"]\n1-0\n";

/// Many English games, a misprinted problem among them, then a game with nothing: long
/// enough that `--jobs 2` reads it in several pieces.
fn english_file(dir: &Path) -> (String, usize) {
    let mut games = tinsley(150);
    let at = 120;
    games.insert(at, MISPRINT.to_string());
    games.insert(at + 1, EMPTY.to_string());
    let path = dir.join("english book.pdn");
    std::fs::write(&path, games.join("\n")).unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() > 64 * 1024);
    (path.to_str().unwrap().to_string(), at + 1)
}

/// The games of one output of `fix` or `convert --to pdn`.
fn split_games(text: &str) -> Vec<&str> {
    text.split("\n\n[").collect()
}

#[test]
fn an_impossible_fen_in_an_english_file_stays_english_and_its_result_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (file, misprint) = english_file(dir.path());
    for jobs in ["1", "2"] {
        let o = pdn(&["validate", "--jobs", jobs, "-f", "json", &file]);
        let games = games(&json_lines(&stdout(&o)));
        assert_eq!(games.len(), 152, "--jobs {jobs}");
        for (g, _) in &games {
            assert_eq!(g["variant"], "english", "--jobs {jobs}: {g}");
        }
        let (g, found) = &games[misprint - 1];
        assert_eq!(g["game"], misprint as u64);
        let codes: Vec<&str> = found
            .iter()
            .filter(|d| d["severity"] == "error")
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        assert_eq!(codes, ["bad-fen"], "--jobs {jobs}: {found:?}");
        assert!(
            found[0]["message"]
                .as_str()
                .unwrap()
                .contains("crowning row"),
            "{found:?}"
        );
        assert!(
            g["variant_inferred"]
                .as_str()
                .unwrap()
                .contains("earlier games of the file are english"),
            "{g}"
        );
    }
    for jobs in ["1", "2"] {
        let o = pdn(&["fix", "-q", "--jobs", jobs, &file]);
        let out = stdout(&o);
        let games = split_games(&out);
        assert_eq!(games.len(), 152);
        for g in [games[misprint - 1], games[misprint]] {
            assert!(g.contains("[Result \"1-0\"]"), "--jobs {jobs}: {g}");
            assert!(!g.contains("2-0"), "--jobs {jobs}: {g}");
            for gt in g.lines().filter(|l| l.starts_with("[GameType")) {
                assert_eq!(gt, "[GameType \"21\"]", "--jobs {jobs}: {g}");
            }
        }
        // No other GameType anywhere.
        for gt in out.lines().filter(|l| l.starts_with("[GameType")) {
            assert_eq!(gt, "[GameType \"21\"]");
        }
    }
}

#[test]
fn a_game_that_shows_nothing_of_its_variant_gets_no_game_type_and_keeps_its_result() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("empty.pdn");
    std::fs::write(&f, format!("{EMPTY}\n{EMPTY}")).unwrap();
    let f = f.to_str().unwrap();
    for out in [
        stdout(&pdn(&["fix", "-q", f])),
        stdout(&pdn(&["convert", "--to", "pdn", f])),
    ] {
        assert!(!out.contains("GameType"), "{out}");
        assert_eq!(out.matches("[Result \"1-0\"]").count(), 2, "{out}");
    }
    // The FEN-only problems of a file are of the file's variant: English, not Spanish.
    let lpc = common::corpus().join("english/fmjd-pdn-testsuite/succeed/lpc.pdn");
    let o = pdn(&["validate", "-f", "json", lpc.to_str().unwrap()]);
    for (g, _) in games(&json_lines(&stdout(&o))) {
        assert_eq!(g["variant"], "english", "{g}");
    }
}

#[test]
fn a_fen_naming_one_colour_twice_is_a_bad_fen() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("twice.pdn");
    std::fs::write(
        &f,
        "[GameType \"20\"]\n[FEN \"W:W30,15:WK31,22\"]\n1. 30-25 *\n",
    )
    .unwrap();
    let o = pdn(&["validate", "-f", "json", f.to_str().unwrap()]);
    let (_, found) = games(&json_lines(&stdout(&o))).remove(0);
    let bad: Vec<&Value> = found.iter().filter(|d| d["code"] == "bad-fen").collect();
    assert_eq!(bad.len(), 1, "{found:?}");
    assert!(
        bad[0]["message"].as_str().unwrap().contains("listed twice"),
        "{bad:?}"
    );
}

/// A game with findings on its main line, in its variations (an illegal move, a syntax
/// error, a bad setup) and a book-style reply (main line) before them.
const VARIATIONS: &str = "[Event \"var\"]\n[GameType \"20\"]\n[Result \"*\"]\n\
    1. 32-28 (19-23) 2. 28x19 (14x23) 3. 33-28 (3. 31-27 10-15 (10-55) zzz) \
    (3. 34-30 /FEN \"W:W99:B1\"/) 3... 10-14 4. 28-22?? *\n";

#[test]
fn every_finding_says_whether_it_is_in_a_variation_and_main_line_leaves_them_out() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("var.pdn");
    std::fs::write(&f, VARIATIONS).unwrap();
    let f = f.to_str().unwrap();
    let all = json_lines(&stdout(&pdn(&["validate", "-f", "json", f])));
    let diags: Vec<&Value> = all.iter().filter(|r| r["type"] == "diagnostic").collect();
    assert!(
        diags.iter().all(|d| d["in_variation"].is_boolean()),
        "{diags:?}"
    );
    let in_var: Vec<&str> = diags
        .iter()
        .filter(|d| d["in_variation"] == true)
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert!(in_var.contains(&"illegal-move"), "{diags:?}");
    assert!(in_var.contains(&"syntax-error"), "{diags:?}");
    assert!(in_var.contains(&"bad-fen"), "{diags:?}");
    let main: Vec<&Value> = diags
        .iter()
        .copied()
        .filter(|d| d["in_variation"] == false && d["severity"] != "info")
        .collect();
    assert!(
        main.iter()
            .any(|d| d["code"] == "missed-capture" && d["ply"] == 7),
        "{diags:?}"
    );
    let summary = all.last().unwrap();
    assert_eq!(summary["codes_in_variations"]["bad-fen"], 1, "{summary}");
    assert!(summary["codes_in_variations"]["illegal-move"].as_u64() >= Some(1));

    // --main-line: what is on the main line only, the same findings there.
    let only = json_lines(&stdout(&pdn(&["validate", "-f", "json", "--main-line", f])));
    let kept: Vec<&Value> = only.iter().filter(|r| r["type"] == "diagnostic").collect();
    assert!(kept.iter().all(|d| d["in_variation"] == false), "{kept:?}");
    let strip = |v: &[&Value]| -> Vec<(Value, Value, Value)> {
        v.iter()
            .filter(|d| d["in_variation"] == false)
            .map(|d| (d["code"].clone(), d["line"].clone(), d["column"].clone()))
            .collect()
    };
    assert_eq!(strip(&kept), strip(&diags));
    let s = only.last().unwrap();
    assert_eq!(s["codes_in_variations"], serde_json::json!({}), "{s}");

    // The text summary counts the main line and the variations apart.
    let text = stdout(&pdn(&["validate", "-f", "short", "--color", "never", f]));
    assert!(
        text.lines().any(|l| l.contains("error[illegal-move]")
            && l.contains("main line, ")
            && l.contains(" in variations)")),
        "{text}"
    );

    // CSV says where the first error is; the HTML page marks each finding.
    let csv_text = stdout(&pdn(&["convert", "--to", "csv", f]));
    let mut r = csv::Reader::from_reader(csv_text.as_bytes());
    let h = r.headers().unwrap().clone();
    let col = h
        .iter()
        .position(|c| c == "first_error_in_variation")
        .unwrap();
    let row = r.records().next().unwrap().unwrap();
    assert!(matches!(&row[col], "true" | "false"), "{row:?}");
    let page = stdout(&pdn(&["validate", "-f", "html", f]));
    assert!(page.contains("\"var\":1"));
    assert!(page.contains("<th>in variations</th>"));

    // fix --main-line writes the game without its variations (the replies stay moves).
    let fixed = stdout(&pdn(&["fix", "-q", "--main-line", f]));
    assert!(!fixed.contains("(3."), "{fixed}");
    assert!(fixed.contains("1. 32-28 19-23 2. 28x19 14x23"), "{fixed}");
    let kept_all = stdout(&pdn(&["fix", "-q", f]));
    assert!(kept_all.contains("(3. 31-27"), "{kept_all}");

    // stats --main-line counts the findings of the main line only.
    let stats = |extra: &[&str]| -> Value {
        let mut args = vec!["stats", "-f", "json"];
        args.extend_from_slice(extra);
        args.push(f);
        serde_json::from_str(&stdout(&pdn(&args))).unwrap()
    };
    let (a, m) = (stats(&[]), stats(&["--main-line"]));
    assert_ne!(a["diagnostics"], m["diagnostics"], "{a} {m}");
}

#[test]
fn main_line_validation_of_the_corpus_has_no_finding_in_a_variation() {
    let c = common::corpus();
    let c = c.to_str().unwrap();
    let all = json_lines(&stdout(&pdn(&["validate", "-f", "json", c])));
    let only = json_lines(&stdout(&pdn(&["validate", "-f", "json", "--main-line", c])));
    let mut in_variations = 0;
    for d in all.iter().filter(|r| r["type"] == "diagnostic") {
        assert!(d["in_variation"].is_boolean(), "{d}");
        in_variations += u64::from(d["in_variation"] == true);
    }
    assert!(
        in_variations > 600,
        "{in_variations} findings in variations"
    );
    for d in only.iter().filter(|r| r["type"] == "diagnostic") {
        assert_eq!(d["in_variation"], false, "{d}");
    }
    // The same games, and on each the findings of its main line.
    let (ga, gm) = (games(&all), games(&only));
    assert_eq!(ga.len(), gm.len());
    for ((a, fa), (m, fm)) in ga.iter().zip(&gm) {
        assert_eq!((&a["variant"], &a["plies"]), (&m["variant"], &m["plies"]));
        let key = |d: &Value| (d["code"].clone(), d["line"].clone(), d["column"].clone());
        let want: Vec<_> = fa
            .iter()
            .filter(|d| d["in_variation"] == false)
            .map(key)
            .collect();
        let got: Vec<_> = fm.iter().map(key).collect();
        assert_eq!(want, got, "{a}");
    }
    let (sa, sm) = (all.last().unwrap(), only.last().unwrap());
    let errors = sa["errors"].as_u64().unwrap();
    let var_errors: u64 = sa["codes_in_variations"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(c, _)| {
            !matches!(
                c.as_str(),
                "tolerated" | "bad-tag" | "draw-rule" | "move-number"
            )
        })
        .map(|(_, n)| n.as_u64().unwrap())
        .sum();
    assert_eq!(sm["errors"].as_u64().unwrap(), errors - var_errors);
}

/// The result as the game's movetext ends with it.
fn terminators(text: &str) -> Vec<String> {
    split_games(text)
        .iter()
        .map(|g| g.split_whitespace().last().unwrap_or("").to_string())
        .collect()
}

#[test]
fn result_style_terminator_ends_each_game_with_its_result() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("results.pdn");
    std::fs::write(
        &f,
        "[Event \"a\"]\n[GameType \"20\"]\n[Result \"2-0\"]\n1. 32-28 *\n\n\
         [Event \"b\"]\n[GameType \"21\"]\n1. 11-15 1/2-1/2\n\n\
         [Event \"c\"]\n[GameType \"20\"]\n[Result \"*\"]\n1. 32-28 *\n\n\
         [Event \"d\"]\n[GameType \"20\"]\n[Result \"4-6\"]\n1. 32-28 *\n",
    )
    .unwrap();
    let f = f.to_str().unwrap();
    let strict = stdout(&pdn(&["convert", "--to", "pdn", f]));
    assert_eq!(terminators(&strict), ["*", "*", "*", "*"], "{strict}");
    for out in [
        stdout(&pdn(&[
            "convert",
            "--to",
            "pdn",
            "--result-style",
            "terminator",
            f,
        ])),
        stdout(&pdn(&["fix", "-q", "--result-style", "terminator", f])),
    ] {
        assert_eq!(terminators(&out), ["2-0", "1/2-1/2", "*", "*"], "{out}");
        // Read back: the same results, no finding about them.
        let back = dir.path().join("back.pdn");
        std::fs::write(&back, &out).unwrap();
        let v = json_lines(&stdout(&pdn(&[
            "validate",
            "-f",
            "json",
            back.to_str().unwrap(),
        ])));
        let results: Vec<Value> = games(&v).iter().map(|(g, _)| g["result"].clone()).collect();
        assert_eq!(results, ["2-0", "1/2-1/2", "*", "4-6"]);
        assert!(!v.iter().any(|r| r["code"] == "result-mismatch"));
    }
    // The book style ends a game with its result, as the French books print it.
    let book = stdout(&pdn(&["convert", "--to", "manoury", f]));
    assert_eq!(terminators(&book), ["2-0", "1/2-1/2", "*", "*"], "{book}");
}

#[test]
fn text_that_could_not_be_read_is_kept_as_a_comment_by_every_output() {
    let c = common::corpus().join("english/checkerboard-tinsley.pdn");
    let c = c.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let glued = "Redoversteppedthetimecontrolonthismove.";
    for to in ["pdn", "manoury", "json"] {
        let o = pdn(&["convert", "--to", to, c]);
        let out = stdout(&o);
        assert!(
            out.contains(&format!("pdn: unreadable: {glued}")),
            "--to {to}: the text is kept"
        );
        let note = String::from_utf8_lossy(&o.stderr);
        assert!(
            note.contains("2 syntax errors in 2 games kept where found"),
            "--to {to}: {note}"
        );
        if to != "json" {
            let back = dir.path().join("back.pdn");
            std::fs::write(&back, &out).unwrap();
            let v = json_lines(&stdout(&pdn(&[
                "validate",
                "-f",
                "json",
                back.to_str().unwrap(),
            ])));
            let s = v.last().unwrap();
            assert_eq!(s["codes"]["syntax-error"], 2, "--to {to}: {s}");
        }
    }
    // fix keeps it where it stood, and fixing again changes nothing.
    let once = stdout(&pdn(&["fix", "-q", c]));
    assert!(once.contains(&format!("16. 8-11\n{{pdn: unreadable: {glued}}}")));
    let f1 = dir.path().join("once.pdn");
    std::fs::write(&f1, &once).unwrap();
    let twice = stdout(&pdn(&["fix", "-q", f1.to_str().unwrap()]));
    assert_eq!(once, twice);
}

/// The broken exporters' damage (`fixtures/syntax/damaged/`): each file reads as its clean
/// twin — the same games, tags, moves and results, no syntax error — with one `tolerated`
/// note for the file and the kind; both reading paths (`--jobs 1` reads into a visitor,
/// `--jobs 2` into owned games, in pieces) agree, and `fix` writes the twin's bytes.
#[test]
fn broken_exporters_damage_reads_as_the_clean_twin() {
    use crate::support::syntax::norm_line;
    use pdn::syntax::{ToleratedKind, read_games};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/syntax/damaged");
    for (name, kind) in [
        ("literal-escapes", ToleratedKind::LiteralEscape),
        ("doubled-brackets", ToleratedKind::DoubledBracket),
        ("resumed-tags", ToleratedKind::ResumedTagSection),
    ] {
        let damaged = dir.join(format!("{name}.pdn"));
        let clean = dir.join(format!("{name}.clean.pdn"));
        let (a, b) = (
            read_games(&std::fs::read(&damaged).unwrap()),
            read_games(&std::fs::read(&clean).unwrap()),
        );
        assert_eq!(a.len(), b.len(), "{name}: games");
        assert!(a.iter().any(|g| g.note(kind).is_some()), "{name}: {kind:?}");
        for (g, h) in a.iter().zip(&b) {
            assert!(
                g.errors.is_empty(),
                "{name} game {}: {:?}",
                g.index,
                g.errors
            );
            let tags = |g: &pdn::syntax::Game| -> Vec<(String, String)> {
                g.tags
                    .iter()
                    .map(|t| (t.name.clone(), t.value.clone()))
                    .collect()
            };
            assert_eq!(tags(g), tags(h), "{name} game {}", g.index);
            assert_eq!(
                norm_line(&g.body),
                norm_line(&h.body),
                "{name} game {}",
                g.index
            );
            assert_eq!(
                g.result.as_ref().map(|r| &r.text),
                h.result.as_ref().map(|r| &r.text),
                "{name} game {}",
                g.index
            );
        }
        let d = damaged.to_str().unwrap();
        let one = stdout(&pdn(&["validate", "--jobs", "1", "-f", "json", d]));
        let two = stdout(&pdn(&["validate", "--jobs", "2", "-f", "json", d]));
        assert_eq!(one, two, "{name}");
        let twin = json_lines(&stdout(&pdn(&[
            "validate",
            "-f",
            "json",
            clean.to_str().unwrap(),
        ])));
        let records = json_lines(&one);
        let notes: Vec<&Value> = records
            .iter()
            .filter(|r| {
                r["message"]
                    .as_str()
                    .is_some_and(|m| m.starts_with(kind.description()))
            })
            .collect();
        assert_eq!(notes.len(), 1, "{name}: one note for the file: {notes:?}");
        assert!(
            notes[0]["message"]
                .as_str()
                .unwrap()
                .ends_with("games of this file)")
        );
        let (s, t) = (records.last().unwrap(), twin.last().unwrap());
        for k in ["games", "plies", "errors", "warnings"] {
            assert_eq!(s[k], t[k], "{name}: {k}");
        }
        let fixed = |p: &Path| stdout(&pdn(&["fix", "-q", p.to_str().unwrap()]));
        assert_eq!(fixed(&damaged), fixed(&clean), "{name}: fix");
    }
}

/// The dates of a file are read one way: the file's unambiguous `13.07.2007` makes its
/// `09.07.2007` the 9th of July (`--date-order` forces the order); `validate` gives the
/// file's dates of one form one warning with their count.
#[test]
fn the_dates_of_a_file_are_read_one_way_and_warned_about_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for (k, date) in ["09.07.2007", "10.07.2007", "13.07.2007", "01.08.2007"]
        .iter()
        .enumerate()
    {
        text.push_str(&format!(
            "[Event \"Open\"]\n[Round \"{}\"]\n[Date \"{date}\"]\n[GameType \"20\"]\n1. 32-28 *\n\n",
            k + 1
        ));
    }
    let f = dir.path().join("event.pdn");
    std::fs::write(&f, &text).unwrap();
    let f = f.to_str().unwrap();
    let dates = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with("[Date "))
            .map(str::to_string)
            .collect()
    };
    let day_first = [
        "[Date \"2007.07.09\"]",
        "[Date \"2007.07.10\"]",
        "[Date \"2007.07.13\"]",
        "[Date \"2007.08.01\"]",
    ];
    for jobs in ["1", "2"] {
        assert_eq!(
            dates(&stdout(&pdn(&["fix", "-q", "--jobs", jobs, f]))),
            day_first
        );
    }
    // Forced the other way: the 13th month is no date, left as it is.
    assert_eq!(
        dates(&stdout(&pdn(&["fix", "-q", "--date-order", "mdy", f]))),
        [
            "[Date \"2007.09.07\"]",
            "[Date \"2007.10.07\"]",
            "[Date \"13.07.2007\"]",
            "[Date \"2007.01.08\"]",
        ]
    );
    let v = json_lines(&stdout(&pdn(&["validate", "-f", "json", f])));
    let bad: Vec<&Value> = v.iter().filter(|r| r["code"] == "bad-tag").collect();
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(
        bad[0]["message"]
            .as_str()
            .unwrap()
            .ends_with("(in 4 games of this file)"),
        "{bad:?}"
    );
    assert_eq!(bad[0]["game"], 1);
    assert_eq!(v.last().unwrap()["warnings"], 1);
    // Standard input is read once: only `--date-order` orders its ambiguous dates.
    let piped = |args: &[&str]| -> String {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_pdn"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
        String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
    };
    let plain = dates(&piped(&["fix", "-q"]));
    assert_eq!(plain[0], "[Date \"09.07.2007\"]");
    assert_eq!(plain[2], "[Date \"2007.07.13\"]");
    assert_eq!(
        dates(&piped(&["fix", "-q", "--date-order", "dmy"])),
        day_first
    );
}
