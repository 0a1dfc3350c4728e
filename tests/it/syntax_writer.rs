//! The strict PDN 3.0 writer: tag order and escapes, move numbering (also inside
//! variations), comments made safe, wrapping, and the canonical move text.

use crate::support::syntax as support;

use pdn::syntax::{Game, WriteOptions, canonical_move_text, read_games, write_game};

fn write(g: &Game, width: usize) -> String {
    let mut out = String::new();
    write_game(
        g,
        &WriteOptions {
            line_width: width,
            ..WriteOptions::default()
        },
        &mut canonical_move_text,
        &mut out,
    );
    out
}

fn one(s: &str) -> Game {
    let mut g = read_games(s.as_bytes());
    assert_eq!(g.len(), 1);
    g.remove(0)
}

fn rewrite(s: &str) -> String {
    let g = one(s);
    let out = write(&g, 80);
    support::round_trip(std::slice::from_ref(&g)).unwrap();
    out
}

#[test]
fn standard_tag_order_then_the_others_in_file_order() {
    let out = rewrite(
        "[GameType \"20\"][Result \"2-0\"][Black \"b\"][Event \"e\"][FEN \"W:W31-50:B1-20\"]\
         [White \"w \\\"q\\\" \\\\ \"][Round \"1\"][Site \"s\"][Date \"2024.01.02\"] 32-28 2-0",
    );
    assert_eq!(
        out,
        "[Event \"e\"]\n[Site \"s\"]\n[Date \"2024.01.02\"]\n[Round \"1\"]\n[White \"w \\\"q\\\" \\\\ \"]\n\
         [Black \"b\"]\n[Result \"2-0\"]\n[GameType \"20\"]\n[FEN \"W:W31-50:B1-20\"]\n\n1. 32-28 *\n\n"
    );
}

#[test]
fn movetext_result_goes_into_a_result_tag() {
    let out = rewrite("[Event \"e\"][Annotator \"a\"]\n1. 32-28 19-23 1-1");
    assert_eq!(
        out,
        "[Event \"e\"]\n[Result \"1-1\"]\n[Annotator \"a\"]\n\n1. 32-28 19-23 *\n\n"
    );
    // A `*` result needs no tag; a game without tags writes no tag section.
    assert_eq!(rewrite("1. 32-28 *"), "1. 32-28 *\n\n");
    // The Result tag wins over the movetext (the application reports the mismatch).
    assert!(rewrite("[Result \"2-0\"] 1. 32-28 0-2").contains("[Result \"2-0\"]"));
}

#[test]
fn numbering_starts_where_the_game_starts() {
    assert_eq!(
        rewrite("32-28 19-23 33-29"),
        "1. 32-28 19-23 2. 33-29 *\n\n"
    );
    assert_eq!(
        rewrite("17... 20-25 18. 32-28 18-22"),
        "17... 20-25 18. 32-28 18-22 *\n\n"
    );
    assert_eq!(
        rewrite("05. 32-28 {c} 19-23 $3 33-29"),
        "5. 32-28 {c} 5... 19-23 $3 6. 33-29 *\n\n"
    );
}

#[test]
fn variations_are_numbered_from_the_move_they_replace() {
    assert_eq!(
        rewrite("32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23"),
        "1. 32-28 19-23 (1... 18-23 2. 38-32 (2. 37-32? 23-29! { Black wins }) 2... 12-18)\n\
         2. 28x19 14x23 *\n\n"
    );
    // A variation's first move keeps its own number token when it has one; otherwise it
    // takes the number of the move it replaces. Numbering is syntactic: book-style replies
    // (`1. 32-28 (19-23) 2. 37-32`) are moved into the main line by the application (which
    // knows who can play them) before writing, so here the main line simply counts on.
    assert_eq!(
        rewrite("1. 32-28 (19... 19-23) 2. 37-32 (14-19) ()"),
        "1. 32-28 (19... 19-23) 1... 37-32 (1... 14-19) () *\n\n"
    );
}

#[test]
fn comments_are_made_safe() {
    let out = rewrite("% a } b\n32-28 ; c }\n{ nested { x } } 19-23");
    assert_eq!(
        out,
        "{ a ) b} 1. 32-28 { c )} { nested { x ) } 1... 19-23 *\n\n"
    );
}

#[test]
fn canonical_moves() {
    assert_eq!(
        canonical_move_text(&one("01-01"), one("01-01").body.moves().next().unwrap()),
        "01-01"
    );
    let g = one("09-13 28:19 14X23x32 A3-B4 c3:e5 0932 932 41. - ... 35 x 19 2-11-18");
    let m: Vec<String> = g.body.moves().map(|m| canonical_move_text(&g, m)).collect();
    assert_eq!(
        m,
        [
            "9-13", "28x19", "14x23x32", "a3-b4", "c3xe5", "0932", "932", "-", "...", "35x19",
            "2-11-18"
        ]
    );
    let out = write(&g, 80);
    assert!(out.contains("4. 932 - 5. - 35x19 6. 2-11-18 *"), "{out}");
    support::round_trip(std::slice::from_ref(&g)).unwrap();
}

#[test]
fn strengths_nags_setups_and_unknown_moves() {
    let out = rewrite("/FEN \"B:W28:B1\"/ 01... 1-6* 2. 33-29 (?) $7 ... 12-18 *");
    assert_eq!(
        out,
        "/FEN \"B:W28:B1\"/ 1... 1-6* 2. 33-29(?) $7 - 3. 12-18 *\n\n"
    );
}

#[test]
fn lines_are_wrapped() {
    let text = "32-28 19-23 ".repeat(30);
    let g = one(&text);
    let out = write(&g, 40);
    assert!(out.lines().all(|l| l.chars().count() <= 40), "{out}");
    assert!(out.lines().count() > 5);
    let out = write(&g, 1);
    assert!(
        out.lines()
            .all(|l| !l.starts_with(' ') && !l.ends_with(' '))
    );
    support::round_trip(std::slice::from_ref(&g)).unwrap();
    // A comment longer than the width stays whole on its own line.
    let g = one(&format!("32-28 {{{}}} 19-23", "word ".repeat(40)));
    let out = write(&g, 40);
    assert_eq!(out.lines().count(), 4, "{out}");
}

#[test]
fn odd_tag_names_become_identifiers() {
    let out = write(&one("[event \"x\"][9lives \"y\"][Foo-bar \"z\"] *"), 80);
    assert_eq!(
        out,
        "[Event \"x\"]\n[X9lives \"y\"]\n[Foo_bar \"z\"]\n\n*\n\n"
    );
    // Idempotent from there on.
    assert_eq!(write(&one(&out), 80), out);
}
