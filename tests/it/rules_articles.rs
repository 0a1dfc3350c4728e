//! Rule tests named after the article of the rule book they check: each sets up a position
//! and asserts the complete list of legal moves (full capture routes, PDN 3.0 rule 9).

use std::collections::BTreeSet;

use pdn::rules::notation::{self, SquareStyle};
use pdn::rules::{Bits, INTERNATIONAL, MoveList, Options, Position, Removal, Rules, Spec, spec::*};

/// The legal moves, each written with its full route; `(K)` marks a promotion.
fn legal<V: Spec>(fen: &str) -> BTreeSet<String> {
    legal_with::<V>(fen, V::RULES)
}

fn legal_with<V: Spec>(fen: &str, rules: &Rules) -> BTreeSet<String> {
    let pos = V::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    moves_of::<V>(&pos, rules)
}

fn moves_of<V: Spec>(pos: &Position<V::B>, rules: &Rules) -> BTreeSet<String> {
    let mut list = MoveList::new();
    V::relaxed_moves(pos, rules, Options::default(), &mut list);
    (0..list.len())
        .map(|i| {
            let m = list.moves()[i];
            let mut s = notation::write(
                V::geometry(),
                V::numbering(),
                &m,
                list.path(i),
                true,
                SquareStyle::Native,
                V::RULES.capture_separator,
            );
            if m.promotes() {
                s.push_str("(K)");
            }
            s
        })
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The square number at (row, column) of the internal frame (row 0 at the top, White at
/// the bottom), in the variant's own numbering: lets a test place pieces by geometry on
/// boards numbered in other ways (Italian, Spanish).
fn sq<V: Spec>(row: i32, col: i32) -> u32 {
    let bit = V::geometry()
        .at(row, col)
        .unwrap_or_else(|| panic!("({row},{col}) is not a playing square"));
    V::numbering().number_of_bit(bit)
}

// ---------------------------------------------------------------------------------------
// International draughts, FMJD Annex 1
// ---------------------------------------------------------------------------------------

#[test]
fn fmjd_art_3_1_man_moves_one_square_diagonally_forward() {
    assert_eq!(legal::<International>("W:W28:B1"), set(&["28-22", "28-23"]));
    assert_eq!(
        legal::<International>("B:W50:B23"),
        set(&["23-28", "23-29"])
    );
    // A man on the edge has one move.
    assert_eq!(legal::<International>("W:W36:B1"), set(&["36-31"]));
}

#[test]
fn fmjd_art_3_5_man_reaching_the_far_row_is_crowned() {
    assert_eq!(legal::<International>("W:W7:B2,3"), set(&["7-1(K)"]));
}

#[test]
fn fmjd_art_3_9_king_flies_over_free_squares() {
    assert_eq!(
        legal::<International>("W:WK46:B5"),
        set(&[
            "46-41", "46-37", "46-32", "46-28", "46-23", "46-19", "46-14", "46-10"
        ])
    );
}

#[test]
fn fmjd_art_4_1_capture_is_compulsory_and_men_capture_backward() {
    // A man on 28 surrounded by four black men captures in all four directions, and a
    // capture excludes every non-capturing move.
    assert_eq!(
        legal::<International>("W:W28,46:B22,23,32,33"),
        set(&["28x17", "28x19", "28x37", "28x39"])
    );
    // Backward only.
    assert_eq!(legal::<International>("W:W6:B1,2,11"), set(&["6x17"]));
}

#[test]
fn fmjd_art_4_3_king_captures_at_a_distance_and_chooses_its_landing_square() {
    // The king on 46 takes 28 from afar and may stop on any free square behind it.
    assert_eq!(
        legal::<International>("W:WK46:B28"),
        set(&["46x23", "46x19", "46x14", "46x10", "46x5"])
    );
    // ... but not on or beyond the next piece (14, which cannot be taken: 10 stands behind it).
    assert_eq!(
        legal::<International>("W:WK46:B28,14,10"),
        set(&["46x23", "46x19"])
    );
}

#[test]
fn fmjd_art_4_5_a_capture_must_be_completed() {
    // Man 13 takes 8 (landing on 2) and must go on to take 7: stopping on 2 is not a move.
    assert_eq!(legal::<International>("W:W13:B8,7"), set(&["13x2x11"]));
}

#[test]
fn fmjd_art_4_5_king_lands_where_the_capture_goes_on() {
    // After taking 28 the king must land on 19 (from where it takes 24), not on 23, 14, 10
    // or 5; behind 24 it may choose 30 or 35.
    assert_eq!(
        legal::<International>("W:WK46:B28,24"),
        set(&["46x19x30", "46x19x35"])
    );
}

#[test]
fn fmjd_art_4_8_a_square_may_be_passed_twice_a_piece_not_jumped_twice() {
    // The circular capture: the king takes all four men and may come back to its own
    // square; it crosses empty squares twice but jumps each man once.
    assert_eq!(
        legal::<International>("W:WK38:B18,19,32,33"),
        set(&[
            "38x27x13x24x38",
            "38x27x13x24x42",
            "38x27x13x24x47",
            "38x24x13x27x43",
            "38x24x13x27x49"
        ])
    );
}

#[test]
fn fmjd_art_4_11_coup_turc_jumped_pieces_stay_until_the_capture_ends() {
    // King 23, black men 14, 28, 43. Taking 14 first, the king could only come back over
    // 14's square if 14 were removed at once (23x5x32x49, three men). Under the Turkish
    // strike rule the jumped man still stands and blocks, so that route takes only one man
    // and the majority rule leaves the two-man capture over 28 and 43.
    assert_eq!(
        legal::<International>("W:WK23:B14,28,43"),
        set(&["23x32x49"])
    );
    let immediate = Rules {
        removal: Removal::Immediate,
        ..INTERNATIONAL
    };
    assert_eq!(
        legal_with::<International>("W:WK23:B14,28,43", &immediate),
        set(&["23x5x32x49"])
    );
}

#[test]
fn fmjd_art_4_13_majority_rule_king_and_man_count_the_same() {
    // Man 32 takes 28 then 19, man 33 takes 28 then 27 (two pieces each); the king on 50
    // could take the king on 44 (one piece). Only the two-piece captures are legal, by man
    // or king alike.
    assert_eq!(
        legal::<International>("W:W32,33,K50:B27,28,19,K44"),
        set(&["32x23x14", "33x22x31"])
    );
    // A man taking two men beats a king taking one king.
    assert_eq!(
        legal::<International>("W:W32,33,K50:B28,19,K44"),
        set(&["32x23x14"])
    );
}

#[test]
fn fmjd_art_4_14_free_choice_between_equal_captures() {
    assert_eq!(
        legal::<International>("W:W28:B22,23"),
        set(&["28x17", "28x19"])
    );
}

#[test]
fn fmjd_art_4_15_a_man_passing_the_far_row_stays_a_man() {
    // Man 13 takes 8, lands on 2 (the far row), must go on to take 7, and ends on 11 as a man.
    assert_eq!(legal::<International>("W:W13:B8,7"), set(&["13x2x11"]));
    let pos = International::from_fen("W:W13:B8,7").unwrap();
    let mut list = MoveList::new();
    International::legal_moves(&pos, &mut list);
    assert!(!list.moves()[0].promotes());
    let after = pos.after(&list.moves()[0], International::RULES);
    assert!(after.kings().is_empty());
}

#[test]
fn pdn3_ambiguous_capture_example_47x36() {
    // PDN 3.0 diagram 1 (RULES.md §1.3, §4.6): two maximal captures from 47 to 36 take
    // different pieces, so `47x36` is ambiguous and both are written in full.
    assert_eq!(
        legal::<International>("W:WK47:B14,19,29,31,42"),
        set(&["47x38x24x13x36", "47x38x20x9x36"])
    );
    let pos = International::from_fen("W:WK47:B14,19,29,31,42").unwrap();
    let mut list = MoveList::new();
    International::legal_moves(&pos, &mut list);
    assert!((0..list.len()).all(|i| notation::is_ambiguous(&list, i)));
}

#[test]
fn fmjd_duplicate_routes_are_one_move() {
    // Two routes from 50 to 36 taking 44, 28 and 31 (landing on 39 or 33 after 44) are
    // one move under the FMJD rules; counting routes gives more.
    let fen = "B:WK2,28,31,44:B20,K50";
    assert_eq!(legal::<International>(fen), set(&["50x39x22x36"]));
}

// ---------------------------------------------------------------------------------------
// Russian draughts
// ---------------------------------------------------------------------------------------

#[test]
fn russian_1_5_15_man_crowned_mid_capture_goes_on_as_a_king() {
    assert_eq!(
        legal::<Russian>("W:Wf6:Be7,c7"),
        set(&["f6:d8:b6(K)", "f6:d8:a5(K)"])
    );
    assert_eq!(
        legal::<Russian>("W:Wd4:Bc5,c7,e7"),
        set(&["d4:b6:d8:f6(K)", "d4:b6:d8:g5(K)", "d4:b6:d8:h4(K)"])
    );
}

#[test]
fn russian_free_choice_of_capture_no_majority_rule() {
    assert_eq!(
        legal::<Russian>("W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8"),
        set(&["f8:b4", "f8:h6:f4:d6:b4", "h4:f6:d4:b6"])
    );
}

// ---------------------------------------------------------------------------------------
// English draughts (WCDF)
// ---------------------------------------------------------------------------------------

#[test]
fn wcdf_1_18_men_capture_forward_only() {
    // White man 6 has black men on 2 (forward, nothing behind) and 10 (backward).
    assert_eq!(legal::<English>("W:W6:B2,3,10"), set(&["6-1(K)"]));
}

#[test]
fn wcdf_1_19_crowning_ends_the_move() {
    // Black man 22 jumps 26 and is crowned on 31; as a king it could jump 27 at once, but
    // crowning ends the move.
    assert_eq!(legal::<English>("B:W26,27:B22"), set(&["22x31(K)"]));
}

#[test]
fn wcdf_1_17_kings_are_short() {
    assert_eq!(
        legal::<English>("W:WK18:B1"),
        set(&["18-14", "18-15", "18-22", "18-23"])
    );
}

#[test]
fn wcdf_1_20_free_choice_no_majority_rule() {
    // Black man 10 can jump 14 (one piece) or 15 then 24 (two); 11 can jump 15. All three
    // are legal: no majority rule (but each capture is completed).
    let moves = legal::<English>("B:W14,15,24:B10,11");
    assert_eq!(moves, set(&["10x19x28", "10x17", "11x18"]));
}

// ---------------------------------------------------------------------------------------
// American pool checkers (APCA)
// ---------------------------------------------------------------------------------------

#[test]
fn apca_16_no_passing_promotion_the_man_goes_on_as_a_man() {
    // Black man 22 jumps 26 onto the king row (31), then must jump 27 backward as a man.
    assert_eq!(legal::<Pool>("B:W26,27:B22"), set(&["22x31x24"]));
}

// ---------------------------------------------------------------------------------------
// Italian draughts (FID)
// ---------------------------------------------------------------------------------------

#[test]
fn fid_5_3_b_men_never_capture_kings() {
    // A white man with a black king diagonally in front and a free square behind it.
    let (m, k) = (sq::<Italian>(5, 2), sq::<Italian>(4, 3));
    let fen = format!("W:W{m}:BK{k}");
    let moves = legal::<Italian>(&fen);
    assert_eq!(moves, set(&[&format!("{m}-{}", sq::<Italian>(4, 1))]));
}

#[test]
fn fid_6_6_most_pieces() {
    let w = sq::<Italian>(5, 2);
    let fen = format!(
        "W:W{w}:B{},{},{}",
        sq::<Italian>(4, 1),
        sq::<Italian>(4, 3),
        sq::<Italian>(2, 5)
    );
    assert_eq!(
        legal::<Italian>(&fen),
        set(&[&format!(
            "{w}x{}x{}",
            sq::<Italian>(3, 4),
            sq::<Italian>(1, 6)
        )])
    );
}

#[test]
fn fid_6_7_a_king_captures_before_a_man() {
    let (man, king) = (sq::<Italian>(5, 0), sq::<Italian>(5, 6));
    let fen = format!(
        "W:W{man},K{king}:B{},{}",
        sq::<Italian>(4, 1),
        sq::<Italian>(4, 5)
    );
    assert_eq!(
        legal::<Italian>(&fen),
        set(&[&format!("{king}x{}", sq::<Italian>(3, 4))])
    );
}

#[test]
fn fid_6_8_most_kings() {
    let king = sq::<Italian>(4, 3);
    let fen = format!(
        "W:WK{king}:B{},K{}",
        sq::<Italian>(3, 2),
        sq::<Italian>(3, 4)
    );
    assert_eq!(
        legal::<Italian>(&fen),
        set(&[&format!("{king}x{}", sq::<Italian>(2, 5))])
    );
}

#[test]
fn fid_6_9_the_king_met_first() {
    // Two two-piece captures by the white king on (6,3), each taking one king: north-west
    // the king is the first piece taken, north-east it is the second.
    let k = sq::<Italian>(6, 3);
    let fen = format!(
        "W:WK{k}:BK{},{},{},K{}",
        sq::<Italian>(5, 2),
        sq::<Italian>(3, 2),
        sq::<Italian>(5, 4),
        sq::<Italian>(3, 6)
    );
    assert_eq!(
        legal::<Italian>(&fen),
        set(&[&format!(
            "{k}x{}x{}",
            sq::<Italian>(4, 1),
            sq::<Italian>(2, 3)
        )])
    );
}

// ---------------------------------------------------------------------------------------
// Spanish, Czech, Frisian, Thai
// ---------------------------------------------------------------------------------------

#[test]
fn spanish_quantity_then_kings() {
    // The white king can take one man or one king: only the king.
    let k = sq::<Spanish>(4, 3);
    let fen = format!("W:WK{k}:B{},K{}", sq::<Spanish>(3, 2), sq::<Spanish>(3, 4));
    let expect: Vec<String> = [(2, 5), (1, 6), (0, 7)]
        .iter()
        .map(|&(r, c)| format!("{k}x{}", sq::<Spanish>(r, c)))
        .collect();
    let expect: Vec<&str> = expect.iter().map(|s| s.as_str()).collect();
    assert_eq!(legal::<Spanish>(&fen), set(&expect));
}

#[test]
fn czech_4_14_king_captures_first() {
    // The man on a1 could take two men (b2, d4), the king on h6 only one (g7): the king
    // must capture.
    assert_eq!(legal::<Czech>("W:Wa1,Kh6:Bb2,d4,g7"), set(&["h6xf8"]));
    // Without the king the man's capture is the move.
    assert_eq!(legal::<Czech>("W:Wa1:Bb2,d4,g7"), set(&["a1xc3xe5"]));
}

#[test]
fn frisian_orthogonal_captures_and_value_rule() {
    // Man 28 takes 18 straight up (landing on 8, two rows on) and then 9 sideways: two men.
    // The alternative takes the king on 32 diagonally: one king is worth less than two men.
    assert_eq!(legal::<Frisian>("W:W28:B18,9,K32"), set(&["28x8x10"]));
    // One king is worth more than one man.
    assert_eq!(legal::<Frisian>("W:W28:B18,K32"), set(&["28x37"]));
    // Equal value: the capture with a king has priority.
    assert_eq!(
        legal::<Frisian>("W:W28,K50:B18,44"),
        set(&["50x33", "50x39"])
    );
}

#[test]
fn frisian_king_move_limit_three_moves_with_the_same_king() {
    // White has a man and a king: after three non-capturing moves in a row with that king it
    // must move another piece.
    let mut pos = Frisian::from_fen("W:W46,K28:BK1").unwrap();
    let mut list = MoveList::new();
    let mut play = |pos: &mut Position<u64>, from: u32, to: u32| {
        Frisian::legal_moves(pos, &mut list);
        let num = |b: u8| Frisian::numbering().number_of_bit(b as u32);
        let m = *list
            .moves()
            .iter()
            .find(|m| num(m.from) == from && num(m.to) == to)
            .unwrap_or_else(|| panic!("{from}-{to} not legal in {}", Frisian::to_fen(pos)));
        Frisian::play(pos, &m);
    };
    for (w, b) in [((28, 22), (1, 7)), ((22, 28), (7, 1)), ((28, 22), (1, 7))] {
        play(&mut pos, w.0, w.1);
        play(&mut pos, b.0, b.1);
    }
    // (The FEN does not carry the count: ask the position itself.)
    let moves = moves_of::<Frisian>(&pos, Frisian::RULES);
    assert_eq!(moves, set(&["46-41"]), "only the man may move");
    // The count is per king and per side: a capture or another piece's move resets it.
    assert_eq!(pos.king_run(pdn::rules::Color::White).count, 3);
    // A side with kings only is not limited.
    let mut pos = Frisian::from_fen("W:WK28:BK1").unwrap();
    for (w, b) in [((28, 22), (1, 7)), ((22, 28), (7, 1)), ((28, 22), (1, 7))] {
        play(&mut pos, w.0, w.1);
        play(&mut pos, b.0, b.1);
    }
    let mut list = MoveList::new();
    Frisian::legal_moves(&pos, &mut list);
    assert!(!list.is_empty());
}

#[test]
fn thai_king_lands_right_behind_the_captured_piece() {
    // Thai numbering: 4 = a1, 18 = e5, 22 = f6; captures are written with `-`. The king on
    // a1 takes e5 from afar and must stop on f6, directly behind it.
    assert_eq!(legal::<Thai>("W:WK4:B18"), set(&["4-22"]));
}

#[test]
fn thai_captured_pieces_are_removed_at_once() {
    // King on e5 (18), men on f6 (22) and c3 (11). Taking f6 first, the king may turn back
    // over f6's (now empty) square and its own, and take c3; or the other way round.
    assert_eq!(legal::<Thai>("W:WK18:B22,11"), set(&["18-25-8", "18-8-25"]));
}
