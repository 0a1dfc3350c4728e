//! One test per token and reading-grammar decision (RULES.md §1.2–§1.12): what the reader
//! makes of each construct, which note or error it records, and where the game ends.

use pdn::syntax::{
    CommentKind, Encoding, Game, Item, MoveItem, MoveKind, Reader, Square, ToleratedKind,
    read_games,
};

use Square::{Alg, Num};
use ToleratedKind as T;

fn games(s: &str) -> Vec<Game> {
    read_games(s.as_bytes())
}

fn one(s: &str) -> Game {
    let mut g = games(s);
    assert_eq!(g.len(), 1, "expected one game in {s:?}: {g:#?}");
    g.remove(0)
}

fn moves(g: &Game) -> Vec<&MoveItem> {
    g.body.moves().collect()
}

fn squares(m: &MoveItem) -> Vec<Square> {
    m.squares.to_vec()
}

fn nums(v: &[u32]) -> Vec<Square> {
    v.iter().map(|&n| Num(n)).collect()
}

fn has(g: &Game, k: ToleratedKind) -> bool {
    g.note(k).is_some()
}

fn result(g: &Game) -> Option<&str> {
    g.result.as_ref().map(|r| r.text.as_str())
}

fn clean(g: &Game) {
    assert!(g.errors.is_empty(), "{:?}", g.errors);
}

// ---- move numbers ----

#[test]
fn move_numbers_first_and_second_player() {
    let g = one("12. 32-28 12... 19-23 13. ... 28x19 14.33-29");
    clean(&g);
    let m = moves(&g);
    let n: Vec<_> = m
        .iter()
        .map(|m| m.number.map(|n| (n.number, n.second_player)))
        .collect();
    assert_eq!(
        n,
        [
            Some((12, false)),
            Some((12, true)),
            Some((13, true)),
            Some((14, false))
        ]
    );
    assert_eq!(g.text(m[1].number.unwrap().span), "12...");
    assert_eq!(g.text(m[2].number.unwrap().span), "13. ...");
    assert!(g.notes.is_empty(), "{:?}", g.notes);
}

#[test]
fn leading_zeros_and_fixed_width_numbers() {
    let g = one("01. 34-29 18-22 02.32-28  06-11\n  1.33-28 18-22  9. 13- 9");
    clean(&g);
    let m = moves(&g);
    assert_eq!(m[0].number.unwrap().number, 1);
    assert_eq!(squares(m[3]), nums(&[6, 11]));
    assert_eq!(squares(m[6]), nums(&[13, 9]));
    assert_eq!(g.note(T::LeadingZeros).unwrap().count, 3);
    assert!(has(&g, T::SpacesInMove));
}

#[test]
fn move_number_without_move_is_dropped() {
    // `1. 2-0`: the empty game of forfeits.
    let g = one("[Result \"2-0\"]\n1. 2-0");
    clean(&g);
    assert!(g.body.items.is_empty());
    assert_eq!(result(&g), Some("2-0"));
    assert!(has(&g, T::MoveNumberWithoutMove));
    // `77. ... {c} *`: an engine log ending on the second player's number.
    let g = one("76. 32-28 19-23 77. ... {[%drgnode 1 1]} *");
    clean(&g);
    assert_eq!(moves(&g).len(), 2);
    assert!(has(&g, T::MoveNumberWithoutMove));
}

// ---- results versus moves ----

#[test]
fn one_one_is_not_the_start_of_one_ten() {
    let g = one("1. 1-10 11-17 2. 1-19 1-1");
    clean(&g);
    let m = moves(&g);
    assert_eq!(squares(m[0]), nums(&[1, 10]));
    assert_eq!(squares(m[2]), nums(&[1, 19]));
    assert_eq!(result(&g), Some("1-1"));
    // `1-1` glued to a tag section.
    let gs = games("1. 32-28 1 - 1[White \"a\"]\n1. 33-29 0 - 2");
    assert_eq!(gs.len(), 2);
    assert_eq!(result(&gs[0]), Some("1 - 1"));
    assert!(has(&gs[0], T::SpacesInMove) && has(&gs[0], T::NonStandardResult));
    assert_eq!(gs[1].tag("White"), Some("a"));
    assert_eq!(result(&gs[1]), Some("0 - 2"));
    assert_eq!((gs[1].line, gs[1].column), (1, 15));
}

#[test]
fn every_result_form() {
    for r in ["2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*"] {
        let g = one(&format!("1. 32-28 {r}"));
        clean(&g);
        assert_eq!(result(&g), Some(r));
        assert!(!has(&g, T::NonStandardResult), "{r}");
    }
    for r in ["½-½", "0.5-0.5", "1/2 - 1/2"] {
        let g = one(&format!("1. 32-28 {r}"));
        clean(&g);
        assert_eq!(result(&g), Some(r));
        assert!(has(&g, T::NonStandardResult), "{r}");
    }
    let gs = games("1. 32-28 2-0 1. 33-29 1/2-1/2 1. 34-29 ½-½ 1. 31-27");
    assert_eq!(gs.len(), 4);
    assert!(gs[0].note(T::ResultAsSeparator).is_some());
}

#[test]
fn scores_equal_to_the_result_tag_end_the_game() {
    let gs = games("[Result \"4-6\"]\n1. 32-28 13-19 4-6\n\n[Result \"1-9\"]\n1. 33-29 1-9");
    assert_eq!(gs.len(), 2);
    assert_eq!(result(&gs[0]), Some("4-6"));
    assert_eq!(result(&gs[1]), Some("1-9"));
    assert_eq!(moves(&gs[0]).len(), 2);
    // Without the tag, or with more moves after it, `4-6` is a move.
    let g = one("1. 32-28 13-19 4-6");
    assert_eq!(moves(&g).len(), 3);
    assert_eq!(result(&g), None);
    let g = one("[Result \"4-6\"] 1. 4-6 9-13 *");
    assert_eq!(moves(&g).len(), 2);
    assert_eq!(result(&g), Some("*"));
    let g = one("[Result \"4-6\"] 1. 9-13 4-6 *");
    assert_eq!(moves(&g).len(), 2);
}

#[test]
fn result_glued_to_the_next_move_number() {
    let gs = games("01.32-28 19-23 0-201.33-29 17-22 0-0");
    assert_eq!(gs.len(), 2);
    assert_eq!(result(&gs[0]), Some("0-2"));
    assert!(has(&gs[0], T::GluedResult));
    assert_eq!(moves(&gs[1])[0].number.unwrap().number, 1);
    assert_eq!(result(&gs[1]), Some("0-0"));
}

#[test]
fn a_star_after_a_result_is_one_terminator() {
    let gs = games("1. 32-28 2-0 *\n1. 33-29 *");
    assert_eq!(gs.len(), 2);
    assert!(has(&gs[0], T::DoubleTerminator));
    // On the next line too, and a result written twice; after `*`, a `*` is an empty game
    // (the writer writes one so).
    let gs = games("1. 32-28 2-0\n*\n1. 33-29 0-0\n0-0 *\n1. 34-29 * *");
    assert_eq!(gs.len(), 4);
    assert!(has(&gs[0], T::DoubleTerminator) && has(&gs[1], T::DoubleTerminator));
    assert_eq!(moves(&gs[1]).len(), 1);
    assert!(gs[3].body.items.is_empty());
}

#[test]
fn a_result_inside_a_variation_is_kept_as_a_comment() {
    let g = one("1. 32-28 (1. 33-29 19-23 2-0) 19-23 *");
    clean(&g);
    assert!(has(&g, T::ResultInVariation));
    let Item::Variation(v) = &g.body.items[1] else {
        panic!()
    };
    assert!(matches!(&v.line.items[2], Item::Comment(c) if c.text == "2-0"));
    assert_eq!(result(&g), Some("*"));
}

// ---- moves ----

#[test]
fn separators_and_captures() {
    let g = one("32-28 23x32 28:19 14X23 19×10 15x4x13");
    clean(&g);
    let kinds: Vec<_> = moves(&g).iter().map(|m| m.kind).collect();
    assert_eq!(
        kinds,
        [
            MoveKind::Normal,
            MoveKind::Capture('x'),
            MoveKind::Capture(':'),
            MoveKind::Capture('X'),
            MoveKind::Capture('×'),
            MoveKind::Capture('x')
        ]
    );
    assert_eq!(squares(moves(&g)[5]), nums(&[15, 4, 13]));
    assert_eq!(g.note(T::CaptureSeparator).unwrap().count, 3);
    // A capture that ends on its own square.
    assert_eq!(squares(moves(&one("28x28"))[0]), nums(&[28, 28]));
}

#[test]
fn spaces_inside_moves() {
    let g = one("35 x 19 x 32 4- 9 16x 7 28x17x 8");
    clean(&g);
    let s: Vec<_> = moves(&g).iter().map(|m| squares(m)).collect();
    assert_eq!(
        s,
        [
            nums(&[35, 19, 32]),
            nums(&[4, 9]),
            nums(&[16, 7]),
            nums(&[28, 17, 8])
        ]
    );
    assert_eq!(g.note(T::SpacesInMove).unwrap().count, 4);
    assert_eq!(g.text(moves(&g)[0].span), "35 x 19 x 32");
}

#[test]
fn hyphenated_long_moves_and_mixed_separators() {
    let g = one("2-11-18 11x18-25");
    clean(&g);
    let m = moves(&g);
    assert_eq!(
        (squares(m[0]), m[0].kind),
        (nums(&[2, 11, 18]), MoveKind::Normal)
    );
    assert_eq!(m[1].kind, MoveKind::Capture('x'));
    assert!(has(&g, T::HyphenatedLongMove) && has(&g, T::MixedSeparators));
}

#[test]
fn algebraic_moves() {
    let g = one("1. a3-b4 c3:e5 a3xc5xe7 A3-B4 a3b4 j10-i9 c3 - d4");
    clean(&g);
    let m = moves(&g);
    assert_eq!(
        squares(m[0]),
        [Alg { file: 0, rank: 2 }, Alg { file: 1, rank: 3 }]
    );
    assert_eq!(m[1].kind, MoveKind::Capture(':'));
    assert_eq!(squares(m[2]).len(), 3);
    assert_eq!(squares(m[3]), squares(m[0]));
    assert_eq!(
        (squares(m[4]), m[4].kind),
        (squares(m[0]), MoveKind::Undivided)
    );
    assert_eq!(
        squares(m[5]),
        [Alg { file: 9, rank: 9 }, Alg { file: 8, rank: 8 }]
    );
    assert_eq!(m.len(), 7);
}

#[test]
fn undivided_numeric_moves() {
    let g = one("3228 1823 0932 932 1200");
    clean(&g);
    let s: Vec<_> = moves(&g).iter().map(|m| squares(m)).collect();
    assert_eq!(
        s,
        [
            nums(&[32, 28]),
            nums(&[18, 23]),
            nums(&[9, 32]),
            nums(&[932]),
            nums(&[1200])
        ]
    );
    assert!(moves(&g).iter().all(|m| m.kind == MoveKind::Undivided));
    assert!(has(&g, T::UndividedNumericMove));
    // One or two digits alone are no move.
    let g = one("1. 32-28 12 19-23");
    assert_eq!(g.errors.len(), 1);
    assert!(
        g.errors[0].message.contains("unexpected number `12`"),
        "{}",
        g.errors[0].message
    );
    assert_eq!(moves(&g).len(), 2);
}

#[test]
fn unknown_moves() {
    let g = one("41. - - 42. 32-28 ... 43. 33-29");
    clean(&g);
    let m = moves(&g);
    assert_eq!(m.len(), 5);
    assert_eq!(
        (m[0].kind, m[1].kind, m[3].kind),
        (MoveKind::Unknown, MoveKind::Unknown, MoveKind::Unknown)
    );
    assert_eq!(m[0].number.unwrap().number, 41);
    assert!(m[0].squares.is_empty());
    assert_eq!(g.text(m[3].span), "...");
    assert_eq!(g.note(T::UnknownMove).unwrap().count, 3);
}

#[test]
fn stray_dot() {
    let g = one("1. 17-12 14x45 2. 8-3 . 1-0");
    clean(&g);
    assert!(has(&g, T::StrayDot));
    assert_eq!(result(&g), Some("1-0"));
}

// ---- strengths, NAGs ----

#[test]
fn move_strengths() {
    let g = one("1.32-28!? 19-23(!?!!!) 2.28x19 ?! 14x23(?) 3.33-29! 17-22??");
    clean(&g);
    let s: Vec<_> = moves(&g).iter().map(|m| m.strength.as_deref()).collect();
    assert_eq!(
        s,
        [
            Some("!?"),
            Some("(!?!!!)"),
            Some("?!"),
            Some("(?)"),
            Some("!"),
            Some("??")
        ]
    );
    assert!(has(&g, T::SpaceBeforeStrength));
    assert_eq!(g.body.items.len(), 6, "`(?)` is no variation");
}

#[test]
fn paren_strength_versus_variation() {
    let g = one("32-28 (?) 19-23(19-24) 33-29 (!) *");
    clean(&g);
    let m = moves(&g);
    assert_eq!(m[0].strength.as_deref(), Some("(?)"));
    assert_eq!(m[2].strength.as_deref(), Some("(!)"));
    assert!(matches!(g.body.items[2], Item::Variation(_)));
}

#[test]
fn fmjd_star_is_a_strength_only_when_the_game_goes_on() {
    let g = one("1. 32-28 1-6* 2. 33-29 {c} 6-11* 2-0");
    clean(&g);
    let s: Vec<_> = moves(&g).iter().map(|m| m.strength.as_deref()).collect();
    assert_eq!(s, [None, Some("*"), None, Some("*")]);
    assert_eq!(g.note(T::StarStrength).unwrap().count, 2);
    assert_eq!(result(&g), Some("2-0"));
    // At the end of the file or before a tag section it separates games.
    let gs = games("1. 32-28 1-6*\n[Event \"b\"]\n1. 33-29 1-7*");
    assert_eq!(gs.len(), 2);
    assert_eq!((result(&gs[0]), result(&gs[1])), (Some("*"), Some("*")));
    assert!(moves(&gs[0])[1].strength.is_none());
}

#[test]
fn nags() {
    let g = one("32-28 $1 19-23 $902 $70000 $ *");
    let n: Vec<_> = g
        .body
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Nag(n) => Some(n.value),
            _ => None,
        })
        .collect();
    assert_eq!(n, [1, 902]);
    assert_eq!(g.errors.len(), 2, "{:?}", g.errors);
    assert!(g.errors[0].message.contains("NAG out of range"));
    assert!(g.errors[1].message.contains("`$` without a number"));
}

// ---- comments ----

#[test]
fn comments_of_every_kind() {
    let g = one("% line\n{ brace\n two } 32-28 ; semicolon\n19-23 {[%eval 0.1]} *");
    clean(&g);
    let c: Vec<_> = g
        .body
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Comment(c) => Some((c.text.as_str(), c.kind)),
            _ => None,
        })
        .collect();
    assert_eq!(
        c,
        [
            (" line", CommentKind::Line),
            (" brace\n two ", CommentKind::Brace),
            (" semicolon", CommentKind::Line),
            ("[%eval 0.1]", CommentKind::Brace)
        ]
    );
    assert!(has(&g, T::SemicolonComment));
}

#[test]
fn nested_comment_is_an_error_but_keeps_its_text() {
    let g = one("1. 33-29 { nested { comment } } 19-23");
    assert_eq!(g.errors.len(), 1);
    assert!(g.errors[0].message.contains("nested comment"));
    assert!(matches!(&g.body.items[1], Item::Comment(c) if c.text == " nested { comment } "));
    assert_eq!(moves(&g).len(), 2);
    // A `{` inside a comment is legal text when nothing follows the `}`.
    let g = one("1. 33-29 { see {this } 19-23 {x}");
    clean(&g);
    assert!(matches!(&g.body.items[1], Item::Comment(c) if c.text == " see {this "));
}

#[test]
fn unterminated_comments() {
    let g = one("1. 32-28 { never closed\n19-23");
    assert_eq!(g.errors.len(), 1);
    assert!(g.errors[0].message.contains("expected `}`"));
    assert_eq!(g.line_col(g.errors[0].span.start), (1, 10));
    assert!(matches!(&g.body.items[1], Item::Comment(c) if c.text == " never closed\n19-23"));
    // Before a tag section: the comment stops at the end of its line, the next game is read.
    let gs = games("1. 32-28 { never closed\n[Event \"b\"]\n1. 33-29 {ok} *");
    assert_eq!(gs.len(), 2);
    assert!(gs[0].errors[0].message.contains("before the tag section"));
    assert_eq!(gs[1].tag("Event"), Some("b"));
    assert!(gs[1].errors.is_empty());
}

// ---- variations ----

#[test]
fn nested_variations() {
    let g = one("32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23");
    clean(&g);
    let Item::Variation(v) = &g.body.items[2] else {
        panic!()
    };
    assert_eq!(
        g.text(v.span),
        "(18-23 38-32 (37-32? 23-29! { Black wins }) 12-18)"
    );
    let Item::Variation(w) = &v.line.items[2] else {
        panic!()
    };
    assert_eq!(w.line.items.len(), 3);
    assert_eq!(moves(&g).len(), 4);
}

#[test]
fn unbalanced_parentheses() {
    let g = one("32-28 ) 19-23 (18-23 *");
    assert_eq!(g.errors.len(), 2, "{:?}", g.errors);
    assert!(g.errors[0].message.contains("unmatched `)`"));
    assert!(g.errors[1].message.contains("unterminated variation"));
    assert_eq!(result(&g), Some("*"));
    let g = one("32-28 (19-23 (18-23");
    assert_eq!(g.errors.len(), 1);
    assert!(g.errors[0].message.contains("2 variations open"));
    let Item::Variation(v) = &g.body.items[1] else {
        panic!()
    };
    assert!(matches!(v.line.items[1], Item::Variation(_)));
}

#[test]
fn depth_is_bounded() {
    let deep = format!("32-28 {}19-23{} *", "(".repeat(100), ")".repeat(100));
    let g = one(&deep);
    assert_eq!(g.errors.len(), 1);
    assert!(g.errors[0].message.contains("deeper than 64"));
    let mut depth = 0;
    let mut line = &g.body;
    while let Some(Item::Variation(v)) = line.items.iter().find(|i| matches!(i, Item::Variation(_)))
    {
        depth += 1;
        line = &v.line;
    }
    assert_eq!(depth, 64);
    assert_eq!(result(&g), Some("*"));
}

// ---- setups ----

#[test]
fn setups() {
    let g = one("/FEN \"W:W31-50:B1-20\"/ /FEN \"B:W28,31-36:B1-20\"/ 01... 20-25 /W:W31:B1/ *");
    clean(&g);
    let f: Vec<_> = g
        .body
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Setup(s) => Some(s.fen.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(f, ["W:W31-50:B1-20", "B:W28,31-36:B1-20", "W:W31:B1"]);
    let g = one("32-28 /FEN \"W:W31:B1\" 19-23");
    assert!(g.errors[0].message.contains("expected `/`"));
    assert_eq!(moves(&g).len(), 2);
}

// ---- tags ----

#[test]
fn tag_pairs() {
    let g = one(
        "[Event       \"x\"]   \n[White \"say \\\"hi\\\"\"][Black \"b\"]\n[event \"lower\"]\n\
         [FEN \"W:W31-50:\n B1-20\"]\n1. 32-28 *",
    );
    clean(&g);
    let t: Vec<_> = g
        .tags
        .iter()
        .map(|t| (t.name.as_str(), t.value.as_str()))
        .collect();
    assert_eq!(
        t,
        [
            ("Event", "x"),
            ("White", "say \"hi\""),
            ("Black", "b"),
            ("Event", "lower"),
            ("FEN", "W:W31-50:\n B1-20")
        ]
    );
    // Another spelling of a standard name is read as it, and the name as written is kept.
    assert_eq!(g.tags[3].written.as_deref(), Some("event"));
    assert_eq!(g.tags[3].written_name(), "event");
    assert_eq!(g.tags[0].written, None);
    assert!(has(&g, T::LocalisedTagName) && has(&g, T::MultilineTagValue));
    assert_eq!(g.tag("Event"), Some("x"));
    assert_eq!(g.text(g.tags[0].span), "[Event       \"x\"]");
}

#[test]
fn broken_tag_pairs_keep_the_rest() {
    // A value that lost its closing quote (`]` ends the line): the tag still counts.
    let g = one("[Event \"x]\n[Site \"y\"]\n1. 32-28 *");
    clean_errors(&g);
    assert!(has(&g, T::DamagedTag));
    assert_eq!(g.tag("Event"), Some("x"));
    assert_eq!(g.tag("Site"), Some("y"));
    // No quotes; no `]`.
    let g = one("[Event x]\n[Site \"y\"\n1. 32-28 *");
    clean_errors(&g);
    assert!(has(&g, T::UnquotedTagValue) && has(&g, T::DamagedTag));
    assert_eq!(g.tag("Event"), Some("x"));
    assert_eq!(g.tag("Site"), Some("y"));
    assert_eq!(moves(&g).len(), 1);
    // An unterminated value at the end of the file is an error: the file was cut.
    let g = one("[Event \"never");
    assert_eq!(g.errors.len(), 1);
    assert_eq!(g.tag("Event"), Some("never"));
    // A value never runs past a blank line.
    let g = one("[Event \"never closed\n\n1. 32-28 {a \"quote\"} 19-23 *");
    assert_eq!(g.tag("Event"), Some("never closed"));
    assert_eq!(moves(&g).len(), 2);
}

/// No syntax error.
fn clean_errors(g: &Game) {
    assert!(g.errors.is_empty(), "{:?}", g.errors);
}

// ---- games ----

#[test]
fn games_without_tags_and_not_separated() {
    let gs = games("1. 32-28 19-23\n[Event \"b\"]\n1. 33-29 *\n1. 31-26 2-0\n");
    assert_eq!(gs.len(), 3);
    assert!(has(&gs[0], T::GamesNotSeparated));
    assert_eq!(result(&gs[0]), None);
    assert_eq!(gs[1].tag("Event"), Some("b"));
    assert!(gs[2].tags.is_empty());
    assert_eq!((gs[0].index, gs[1].index, gs[2].index), (1, 2, 3));
    assert_eq!((gs[1].line, gs[2].line), (2, 4));
    assert_eq!(gs[1].offset, 15);
}

#[test]
fn header_only_games_and_comments_between_tags() {
    let gs = games("[FEN \"W:W31-50:B1-20\"] *\r\n[FEN \"B:W31:B1\"] {c} [Setup \"1\"] *\r\n");
    assert_eq!(gs.len(), 2);
    assert_eq!(gs[1].tags.len(), 2);
    assert!(
        gs.iter()
            .all(|g| g.errors.is_empty() && g.body.moves().next().is_none())
    );
}

#[test]
fn trailing_comments_belong_to_the_last_game() {
    // After the last game's terminator, comments and prose are that game's.
    let gs = games("1. 32-28 *\n{ the end }\nPage 12\n");
    assert_eq!(gs.len(), 1);
    let comments = crate::support::syntax::comment_texts(&gs[0].body);
    assert_eq!(comments, [" the end ", "Page 12"]);
    // An unterminated comment at the end is still a game of its own (with its error).
    let gs = games("1. 32-28 *\n{ the end\n");
    assert_eq!(gs.len(), 2);
    assert!(has(&gs[1], T::CommentsAfterLastGame));
    // Comments before a tag section belong to that game.
    let gs = games("1. 32-28 *\n% about the next\n[Event \"x\"] *");
    assert_eq!(gs.len(), 2);
    assert!(matches!(&gs[1].body.items[0], Item::Comment(c) if c.text == " about the next"));
}

#[test]
fn bom_line_endings_and_positions() {
    let gs = games(
        "\u{feff}[Event \"a\"]\r\n1. 32-28 *\r\n\r\n[Event \"b\"]\r1. 33-29 *\r[Event \"c\"]\n\n1.\t34-29 *",
    );
    assert_eq!(gs.len(), 3);
    assert!(has(&gs[0], T::Bom));
    assert_eq!((gs[0].offset, gs[0].line), (3, 1));
    assert_eq!(gs[1].line, 4);
    assert_eq!(gs[2].line, 6);
    let m = moves(&gs[2])[0];
    assert_eq!(gs[2].line_col(m.span.start), (8, 4));
    let m = moves(&gs[1])[0];
    assert_eq!(gs[1].line_col(m.span.start), (5, 4));
}

#[test]
fn windows_1252_games_are_decoded() {
    let bytes = b"[White \"Bert\xe8 \x80\"]\n1. 32\xd728 *\n[White \"Fran\xc3\xa7ois\"] 1. 33-29 *";
    let gs = read_games(bytes);
    assert_eq!(gs.len(), 2);
    assert_eq!(gs[0].encoding, Encoding::Windows1252);
    assert_eq!(gs[0].tag("White"), Some("Bertè €"));
    assert!(has(&gs[0], T::Windows1252));
    assert_eq!(moves(&gs[0])[0].kind, MoveKind::Capture('×'));
    let m = moves(&gs[0])[0];
    assert_eq!(gs[0].text(m.span), "32×28");
    assert_eq!(gs[1].encoding, Encoding::Utf8);
    assert_eq!(gs[1].tag("White"), Some("François"));
}

#[test]
fn garbage_is_an_error_and_costs_nothing_else() {
    // Words on one line are one error.
    let g = one("1. 32-28 draw offered 19-23 \u{1}\u{2} 2. 33-29 *");
    assert_eq!(g.errors.len(), 2, "{:?}", g.errors);
    assert!(g.errors[0].message.contains("unexpected `draw offered`"));
    assert_eq!(moves(&g).len(), 3);
    assert_eq!(g.line_col(g.errors[1].span.start), (1, 29));
}

#[test]
fn errors_per_game_are_capped() {
    let text = format!("1. 32-28 {} *", "?x ".repeat(1000));
    let g = one(&text);
    assert_eq!(g.errors.len(), 101);
    assert!(g.errors[100].message.contains("more syntax errors"));
}

#[test]
fn the_maximum_game_size_costs_only_that_game() {
    let text = format!(
        "[Event \"a\"]\n1. 32-28 {{{}}} 19-23 *\n[Event \"b\"]\n1. 33-29 *\n",
        "x".repeat(5000)
    );
    let gs: Vec<Game> = Reader::new(text.as_bytes())
        .with_max_game_size(1000)
        .with_buffer_size(64)
        .map(Result::unwrap)
        .collect();
    assert_eq!(gs.len(), 2);
    assert!(
        gs[0]
            .errors
            .iter()
            .any(|e| e.message.contains("longer than the maximum"))
    );
    assert_eq!(gs[0].tag("Event"), Some("a"));
    assert!(gs[1].errors.is_empty());
    assert_eq!(gs[1].tag("Event"), Some("b"));
    assert_eq!(gs[1].line, 3);
}

#[test]
fn syntax_errors_have_a_kind() {
    use pdn::syntax::SyntaxErrorKind as K;
    for (text, kind) in [
        ("1. 32-28 draw 19-23 *", K::UnexpectedToken),
        ("1. 32-28 {open", K::UnterminatedComment),
        ("1. 32-28 (33-28 *", K::UnterminatedVariation),
        ("1. 32-28 ) 19-23 *", K::UnmatchedParenthesis),
        ("1. 32-28 $ 19-23 *", K::BadNag),
        ("1. 32-28 $70000 19-23 *", K::BadNag),
        ("1. 32x0x19 *", K::SquareZero),
        ("1. 32-28 /FEN \"W:W31 *", K::UnterminatedSetup),
        ("[\"x\"] 1. 32-28 *", K::TagWithoutName),
        ("1. 32-28 12345678901234 *", K::NumberTooLong),
    ] {
        let g = one(text);
        assert!(!g.errors.is_empty(), "{text}");
        assert_eq!(g.errors[0].kind, kind, "{text}: {:?}", g.errors);
    }
}
