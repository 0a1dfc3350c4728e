//! Move resolution and diagnosis by relaxation: which legal move a recorded move means, and
//! for an illegal one, which rule it breaks.

use pdn::app::judge::resolve::{Code, MoveSpec, Quirk, Resolution, Resolver, Separator, describe};
use pdn::rules::fen::{SquareName, algebraic};
use pdn::rules::{Bits, Spec, spec::*};

/// A recorded move from text: squares separated by `-`, `x` or `:`; no separator = digits
/// split 2+2 or algebraic pairs.
fn spec_of(text: &str) -> MoveSpec {
    let sep = if text.contains(['x', ':']) {
        Separator::Capture
    } else if text.contains('-') {
        Separator::Quiet
    } else {
        Separator::None
    };
    if sep == Separator::None {
        if text.chars().all(|c| c.is_ascii_digit()) {
            let mut readings = Vec::new();
            for cut in 1..text.len() {
                let (a, b) = text.split_at(cut);
                if a.starts_with('0') || b.starts_with('0') {
                    continue;
                }
                readings.push(vec![
                    SquareName::Number(a.parse().unwrap()),
                    SquareName::Number(b.parse().unwrap()),
                ]);
            }
            return MoveSpec {
                readings,
                separator: sep,
            };
        }
        let (a, b) = text.split_at(text.len() / 2);
        return MoveSpec::new(vec![algebraic(a).unwrap(), algebraic(b).unwrap()], sep);
    }
    let squares = text
        .split(['x', ':', '-'])
        .map(|s| match s.parse::<u32>() {
            Ok(n) => SquareName::Number(n),
            Err(_) => algebraic(s).unwrap(),
        })
        .collect();
    MoveSpec::new(squares, sep)
}

fn resolve<V: Spec>(fen: &str, mv: &str) -> (Resolution<V::B>, String) {
    let pos = V::from_fen(fen).unwrap();
    let mut r = Resolver::<V>::new();
    let res = r.resolve(&pos, &spec_of(mv));
    let text = describe(&res, &r);
    (res, text)
}

fn code<V: Spec>(fen: &str, mv: &str) -> Code {
    match resolve::<V>(fen, mv) {
        (Resolution::Illegal(i), _) => i.code,
        (other, text) => panic!("{mv} in {fen}: expected an illegal move, got {other:?}: {text}"),
    }
}

fn legal<V: Spec>(fen: &str, mv: &str) -> String {
    match resolve::<V>(fen, mv) {
        (Resolution::Legal { .. }, text) => text,
        (_, text) => panic!("{mv} in {fen}: expected legal, got {text}"),
    }
}

const START: &str = "W:W31-50:B1-20";

#[test]
fn short_and_long_forms_resolve() {
    assert_eq!(legal::<International>(START, "32-28"), "legal 32-28");
    assert_eq!(
        legal::<International>(START, "32x28"),
        "legal 32-28 (non-capturing move written with `x`)"
    );
    assert_eq!(
        legal::<International>(START, "3228"),
        "legal 32-28 (move written without separator)"
    );
    assert_eq!(legal::<Russian>("W:W21-32:B1-12", "c3-d4"), "legal c3-d4");
    assert_eq!(legal::<Russian>("W:W21-32:B1-12", "c3d4"), "legal c3-d4");
}

#[test]
fn ambiguous_short_capture_and_its_disambiguations() {
    let fen = "W:WK47:B14,19,29,31,42";
    let (r, text) = resolve::<International>(fen, "47x36");
    assert!(
        matches!(r, Resolution::Ambiguous(ref c) if c.len() == 2),
        "{text}"
    );
    // Full route, partial route, another landing square, captured pieces (Hub style).
    for mv in ["47x38x24x13x36", "47x13x36", "47x24x36", "47x33x24x13x36"] {
        assert_eq!(
            legal::<International>(fen, mv),
            "legal 47x38x24x13x36",
            "{mv}"
        );
    }
    assert_eq!(
        legal::<International>(fen, "47x38x20x9x36"),
        "legal 47x38x20x9x36"
    );
    assert_eq!(
        legal::<International>(fen, "47x42x29x19x31x36"),
        "legal 47x38x24x13x36 (capture listing the captured pieces instead of its route)"
    );
}

#[test]
fn duplicate_routes_resolve_to_one_move() {
    // Two routes, one captured set: `38x38` is one move.
    assert_eq!(
        legal::<International>("W:WK38:B18,19,32,33", "38x38"),
        "legal 38x38"
    );
    for route in ["38x27x13x24x38", "38x24x13x27x38"] {
        assert_eq!(
            legal::<International>("W:WK38:B18,19,32,33", route),
            "legal 38x38"
        );
    }
    assert_eq!(
        legal::<International>("B:WK2,28,31,44:B20,K50", "50x33x22x36"),
        "legal 50x36"
    );
}

#[test]
fn missed_capture_souffler_n_est_pas_jouer() {
    let fen = "W:W32,33,45:B28";
    assert_eq!(code::<International>(fen, "45-40"), Code::MissedCapture);
    let (_, text) = resolve::<International>(fen, "45-40");
    assert!(
        text.contains("33x22") && text.contains("32x23") && text.contains("FMJD 4.1"),
        "{text}"
    );
}

#[test]
fn non_maximal_capture_majority_rule() {
    let fen = "W:W32,33,K50:B27,28,19,K44";
    assert_eq!(code::<International>(fen, "50x39"), Code::NonMaximalCapture);
    let (_, text) = resolve::<International>(fen, "50x39");
    assert!(
        text.contains("takes 1 piece, but 2 must be taken"),
        "{text}"
    );
    // Czech: the king's capture comes first.
    assert_eq!(
        code::<Czech>("W:Wa1,Kh6:Bb2,d4,g7", "a1xe5"),
        Code::NonMaximalCapture
    );
}

#[test]
fn unfinished_capture() {
    assert_eq!(
        code::<International>("W:W13:B8,7", "13x2"),
        Code::UnfinishedCapture
    );
}

#[test]
fn premature_promotion_going_on_as_a_king() {
    // The man takes 8 landing on 2 and then flies on as if crowned (Russian style):
    // 13x2 then over 7 to 16 is only possible for a king... here the man lands on 11 as a
    // man; a record going on to 16 (two squares behind 7) treats it as a king.
    let fen = "W:W13:B8,7";
    assert_eq!(
        code::<International>(fen, "13x2x16"),
        Code::PrematurePromotion
    );
    // A man that never reached the far row and moves as a king would (backward, flying):
    // premature promotion, when a king on its square could make the move.
    for (fen, mv) in [("W:W28:B1", "28-33"), ("W:W27,48:B3", "27-18")] {
        assert_eq!(code::<International>(fen, mv), Code::PrematurePromotion);
        let (_, text) = resolve::<International>(fen, mv);
        assert!(
            text.contains("moves as a king without having been crowned")
                && text.contains("[FMJD 3.5]"),
            "{text}"
        );
    }
    // Not even a king could make it (a capture is compulsory): the man's move is illegal.
    assert_eq!(
        code::<International>("W:W28:B23", "28-33"),
        Code::IllegalMove
    );
    let (_, text) = resolve::<International>("W:W28:B23", "28-33");
    assert!(text.contains("backward"), "{text}");
}

#[test]
fn premature_promotion_of_a_man_that_crossed_the_far_row() {
    let pos = International::from_fen("W:W11:B1").unwrap();
    let mut r = Resolver::<International>::new();
    r.crossed = pdn::rules::Bits::bit(International::numbering().bit_of_number(11).unwrap());
    let res = r.resolve(&pos, &spec_of("11-22"));
    let text = describe(&res, &r);
    assert!(
        matches!(res, Resolution::Illegal(ref i) if i.code == Code::PrematurePromotion),
        "{text}"
    );
}

#[test]
fn wrong_side_is_a_missing_ply() {
    let (res, text) = resolve::<International>(START, "19-23");
    match res {
        Resolution::Illegal(i) => {
            assert_eq!(i.code, Code::WrongSide, "{text}");
            let play = i.play.expect("playable for Black");
            assert_eq!(play.side, pdn::rules::Color::Black);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn concrete_reasons_for_impossible_moves() {
    let cases = [
        ("28-23", "there is no piece on 28"),
        ("36-31", "31 is occupied"),
        ("51-46", "square 51 is not on the board"),
        ("33-26", "not on one line"),
    ];
    for (mv, want) in cases {
        let (res, text) = resolve::<International>(START, mv);
        assert!(
            matches!(res, Resolution::Illegal(ref i) if i.code == Code::IllegalMove),
            "{mv}: {text}"
        );
        assert!(text.contains(want), "{mv}: {text}");
    }
    // A man flying while a capture is compulsory (a king could not fly either).
    let (res, text) = resolve::<International>("W:W31,32:B28", "31-22");
    assert!(
        matches!(res, Resolution::Illegal(ref i) if i.code == Code::IllegalMove),
        "{text}"
    );
    assert!(text.contains("a man moves one square, not 2"), "{text}");
    // English: a short king flying.
    let (_, text) = resolve::<English>("W:WK18:B1", "18-9");
    assert!(text.contains("kings move one square"), "{text}");
    // Italian: a man may not take a king.
    let m = Italian::numbering().number_of_bit(Italian::geometry().at(5, 2).unwrap());
    let k = Italian::numbering().number_of_bit(Italian::geometry().at(4, 3).unwrap());
    let t = Italian::numbering().number_of_bit(Italian::geometry().at(3, 4).unwrap());
    let (_, text) = resolve::<Italian>(&format!("W:W{m}:BK{k}"), &format!("{m}x{t}"));
    assert!(text.contains("cannot capture the king"), "{text}");
}

#[test]
fn irregular_moves_the_board_allows_can_be_played() {
    // A backward man move: irregular (premature promotion), but the board allows it (FMJD 5.4).
    let (res, _) = resolve::<International>("W:W28:B1", "28-33");
    let Resolution::Illegal(i) = res else {
        panic!()
    };
    let play = i.play.expect("the board allows it");
    let pos = International::from_fen("W:W28:B1").unwrap();
    let after = pos.after(&play.mv, International::RULES);
    let b33 = International::numbering().bit_of_number(33).unwrap();
    assert!(after.pieces(pdn::rules::Color::White).has(b33));
    // It moved as a king but was never crowned: it stays a man.
    assert!(!after.kings().has(b33));
    // No piece on the square: cannot be played.
    let (res, _) = resolve::<International>(START, "28-23");
    let Resolution::Illegal(i) = res else {
        panic!()
    };
    assert!(i.play.is_none());
}

#[test]
fn capture_written_with_a_hyphen_is_tolerated() {
    let (res, text) = resolve::<International>("W:W32:B28", "32-23");
    assert!(
        matches!(
            res,
            Resolution::Legal {
                quirk: Some(Quirk::CaptureWithHyphen),
                ..
            }
        ),
        "{text}"
    );
    // Thai writes captures with `-`: no quirk.
    let (res, text) = resolve::<Thai>("W:WK4:B18", "4-22");
    assert!(
        matches!(res, Resolution::Legal { quirk: None, .. }),
        "{text}"
    );
}

/// A full route names its move: in Thai (pieces leave at once) the king on 1 may take three
/// pieces by 10, 3 and 12, or four with one more stop between 10 and 3; `1x10x3x12` is the
/// first, not an ambiguous move (found by the random-game property test).
#[test]
fn a_full_route_is_not_ambiguous_with_a_longer_capture_through_its_stops() {
    let pos = Thai::from_fen("B:W4,6,7,8,14:BK1,15,22,26,28,29,30").unwrap();
    let mut r = Resolver::<Thai>::new();
    match r.resolve(&pos, &spec_of("1x10x3x12")) {
        Resolution::Legal { index, .. } => {
            let m = r.legal().moves()[index];
            assert_eq!(m.num_captured(), 3);
        }
        other => panic!("{other:?}"),
    }
    // The four-piece capture is still found by its own full route.
    let four = r
        .legal()
        .moves()
        .iter()
        .filter(|m| m.num_captured() == 4)
        .count();
    assert_eq!(four, 1);
}
