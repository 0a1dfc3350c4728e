//! Rule tests named after their article, played as whole games (a FEN setup and the moves)
//! through the validator: each asserts what the user sees — `premature-promotion`,
//! `result-mismatch` — for a game where the rule applies and for one where it does not.
//! Where the sources disagree, the doc comment says so; `docs/RULES-DECISIONS.md` has the
//! table.

use pdn::app::diagnostic::Severity;
use pdn::app::validate::{Options, validate};
use pdn::rules::{Spec, spec::Italian};
use pdn::syntax::read_games;

/// One finding of the validator (infos left out).
#[derive(Debug)]
struct Finding {
    code: &'static str,
    rule: String,
    ply: Option<u32>,
    message: String,
}

/// Validate a one-game record.
fn findings(pdn: &str) -> Vec<Finding> {
    let games = read_games(pdn.as_bytes());
    assert_eq!(games.len(), 1, "one game: {pdn}");
    let report = validate(&games[0], &Options::default());
    report
        .diagnostics
        .iter()
        .filter(|d| d.severity() != Severity::Info)
        .map(|d| Finding {
            code: d.code.as_str(),
            rule: d.rule.clone().unwrap_or_default(),
            ply: d.ply,
            message: d.message.clone(),
        })
        .collect()
}

/// A game of the variant with PDN `GameType` number `gt`, set up from `fen`.
fn game(gt: u32, fen: &str, moves: &str, result: &str) -> String {
    format!("[GameType \"{gt}\"]\n[FEN \"{fen}\"]\n[Result \"{result}\"]\n{moves} {result}\n")
}

/// The codes found, in order.
fn codes(pdn: &str) -> Vec<&'static str> {
    findings(pdn).iter().map(|f| f.code).collect()
}

/// No finding at all (in particular no `draw-rule`).
fn assert_clean(pdn: &str) {
    let f = findings(pdn);
    assert!(f.is_empty(), "expected no finding: {f:#?}\n{pdn}");
}

// ---------------------------------------------------------------------------------------
// Premature promotion: a man moving as a king
// ---------------------------------------------------------------------------------------

/// FMJD 3.5: a man is crowned only when it ends its move on the far row. A man that never
/// got there and moves as a king would — flying over empty squares (27-18), stepping
/// backward (18-29) — when a king on its square could make the move under the normal rules
/// is a premature promotion. It is played as recorded and stays a man, so its next king's
/// move is one again.
#[test]
fn fmjd_3_5_a_man_moving_as_a_king_was_not_crowned() {
    let pdn = game(20, "W:W27,48:B3", "1. 27-18 3-8 2. 18-29", "*");
    let f = findings(&pdn);
    assert_eq!(
        f.iter().map(|f| (f.code, f.ply)).collect::<Vec<_>>(),
        [
            ("premature-promotion", Some(1)),
            ("premature-promotion", Some(3))
        ],
        "{f:#?}"
    );
    assert!(
        f[0].message
            .starts_with("the man on 27 moves as a king without having been crowned")
            && f[0].rule == "FMJD 3.5",
        "{f:#?}"
    );
    // The man's moves as a man stay legal.
    assert_eq!(
        codes(&game(20, "W:W27,48:B3", "1. 27-18 3-8 2. 18-12", "*")),
        ["premature-promotion"]
    );
}

/// FMJD 3.5 with 4.1: when not even a king could make the move — a capture is compulsory —
/// the flight of a man is an illegal man's move, not a promotion question.
#[test]
fn fmjd_3_5_no_premature_promotion_where_a_king_could_not_move_either() {
    let f = findings(&game(20, "W:W31,32,45:B28,1", "1. 31-22", "*"));
    assert!(
        f.len() == 1 && f[0].code == "illegal-move" && f[0].message.contains("one square, not 2"),
        "{f:#?}"
    );
    let f = findings(&game(20, "W:W11,50:B20,44", "1. 11-17", "*"));
    assert!(
        f.len() == 1 && f[0].code == "illegal-move" && f[0].message.contains("backward"),
        "{f:#?}"
    );
}

/// FMJD 4.15: a man that only passed the far row during a capture stays a man. Moving it as
/// a king is a premature promotion under the wider relaxation (even while a capture is
/// compulsory, here 50x39), as before; the same move by a man that never got there is an
/// illegal move (previous test).
#[test]
fn fmjd_4_15_a_man_that_passed_the_far_row_moving_as_a_king() {
    let f = findings(&game(
        20,
        "W:W13,50:B8,7,20,44",
        "1. 13x2x11 20-25 2. 11-17",
        "*",
    ));
    assert!(
        f.len() == 1
            && f[0].code == "premature-promotion"
            && f[0].ply == Some(3)
            && f[0].message.contains("only passed the far row"),
        "{f:#?}"
    );
}

/// WCDF 1.18: men capture forward only; a man capturing backward captures as a king.
#[test]
fn wcdf_1_18_a_man_capturing_backward_moves_as_a_king() {
    let f = findings(&game(21, "W:W14:B18,1", "1. 14x23", "*"));
    assert!(
        f.len() == 1 && f[0].code == "premature-promotion" && f[0].rule == "WCDF 1.19",
        "{f:#?}"
    );
}

/// FID 5.3(b): a man may not take a king. That is a rule of men, not a move only a king
/// could make: it stays an illegal move although a king could take there.
#[test]
fn fid_5_3_b_a_man_taking_a_king_is_no_promotion_question() {
    // A White man, a Black king diagonally in front of it, the square behind empty.
    let sq = |row, col| {
        Italian::numbering().number_of_bit(Italian::geometry().at(row, col).expect("playing"))
    };
    let (man, king, to) = (sq(5, 2), sq(4, 3), sq(3, 4));
    let f = findings(&game(
        22,
        &format!("W:W{man}:BK{king},1"),
        &format!("1. {man}x{to}"),
        "*",
    ));
    assert!(
        f.len() == 1
            && f[0].code == "illegal-move"
            && f[0].message.contains("cannot capture the king"),
        "{f:#?}"
    );
}

// ---------------------------------------------------------------------------------------
// Breakthrough: crowning ends the game
// ---------------------------------------------------------------------------------------

/// Breakthrough (lidraughts 96): the first side to crown a king wins. A result that names
/// the other side, or a draw, contradicts the final position: `result-mismatch`.
#[test]
fn breakthrough_the_first_king_wins_and_the_result_must_say_so() {
    let f = findings(&game(96, "W:W7:B36", "1. 7-1", "0-2"));
    assert!(
        f.len() == 1
            && f[0].code == "result-mismatch"
            && f[0].message.contains("White crowned the first king")
            && f[0].rule.starts_with("breakthrough"),
        "{f:#?}"
    );
    assert_eq!(
        codes(&game(96, "W:W7:B36", "1. 7-1", "1-1")),
        ["result-mismatch"]
    );
    assert_eq!(
        codes(&game(96, "B:W40:B41", "1... 41-46", "2-0")),
        ["result-mismatch"]
    );
    // The right result, or none.
    assert_clean(&game(96, "W:W7:B36", "1. 7-1", "2-0"));
    assert_clean(&game(96, "B:W40:B41", "1... 41-46", "0-2"));
    assert_clean(&game(96, "W:W7:B36", "1. 7-1", "*"));
}

/// Breakthrough, negative: no king yet, the game is not decided; in international draughts
/// a crowning decides nothing.
#[test]
fn breakthrough_no_king_no_verdict() {
    assert_clean(&game(96, "W:W12:B36", "1. 12-7", "0-2"));
    assert_clean(&game(20, "W:W7:B36", "1. 7-1", "0-2"));
}
