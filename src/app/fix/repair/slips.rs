//! The model of how a record goes wrong: the kinds of slip, and how plausible it is that a
//! move was written as it was when another one was played.
//!
//! A slip in the text of one move turns the move played, as its writer would put it (start
//! and destination, or the route of a capture), into the text recorded:
//!
//! | kind | example | likelihood of that text |
//! |---|---|---|
//! | from and to swapped | `28-32` for `32-28` | 1 |
//! | the other side's numbering | `19-23` for `32-28` (51 − n on 10x10) | 1 |
//! | digits transposed | `37-23` for `37-32` | 1 / the squares of two distinct digits |
//! | a square off by one | `40x28` for `40x29` | 1 / (2 × the squares written) |
//! | one digit wrong | `37-38` for `37-32` | 1 / the digits written × the weight of that digit |
//!
//! A wrong digit is likelier a neighbour of the right one — on the number row (`3` for `2`),
//! on the keypad (`5` for `2`), or in handwriting (`7` for `1`, `8` for `3`, `6` for `5`, `9`
//! for `4`, `6` or `8` for `0`) — than any other digit: a neighbour weighs
//! [`NEIGHBOUR_WEIGHT`] times as much. Each kind is taken to be as frequent as any other;
//! several kinds that explain the same text add up. A short capture that could be any of
//! several routes has, for each, one over their number.
//!
//! Structural slips change the sequence of plies: a ply missing (any legal move, one over
//! their number), a ply doubled (the ply repeated: 1), two moves of one player swapped (1),
//! the two halves of a move swapped (1), a whole move missing (one over the pairs of legal
//! moves). The wrong separator (`32x28`) is not an error: the replay reads it, `fix` writes
//! the canonical one.
//!
//! Squares on algebraic boards (`c3`) are compared as coordinates: off by one is a
//! neighbouring file or rank, a wrong "digit" a wrong file letter or rank digit.

use crate::syntax::Square;

/// How much likelier a neighbouring digit is than any other as a wrong digit.
pub(crate) const NEIGHBOUR_WEIGHT: f64 = 4.0;

/// A kind of slip.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum SlipKind {
    /// Two digits of a square swapped (`37-23` for `37-32`).
    Transposed,
    /// One digit of a square wrong (`37-38` for `37-32`).
    DigitWrong,
    /// Start and destination written the wrong way round (`28-32` for `32-28`).
    FromTo,
    /// A square one off (`40x28` for `40x29`).
    OffByOne,
    /// The squares numbered from the other side of the board.
    OtherSide,
    /// A capture written start and destination only where several routes take different
    /// pieces.
    Route,
    /// A ply left out.
    MissingPly,
    /// A ply written twice.
    DoubledPly,
    /// Two moves of one player written in the wrong order.
    SwappedOwn,
    /// The two halves of a move (the first player's ply and the reply) written in the wrong
    /// order.
    SwappedHalves,
    /// A whole move (two plies) left out.
    MissingMove,
}

impl SlipKind {
    /// The slip in words, as the audit names it.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            SlipKind::Transposed => "transposed digits",
            SlipKind::DigitWrong => "one digit wrong",
            SlipKind::FromTo => "from and to swapped",
            SlipKind::OffByOne => "a square off by one",
            SlipKind::OtherSide => "squares numbered from the other side of the board",
            SlipKind::Route => "the full route of an ambiguous capture",
            SlipKind::MissingPly => "a missing ply inserted",
            SlipKind::DoubledPly => "a doubled ply dropped",
            SlipKind::SwappedOwn => "two moves of one player written in the wrong order",
            SlipKind::SwappedHalves => "the two halves of a move written in the wrong order",
            SlipKind::MissingMove => "a missing move (two plies) inserted",
        }
    }
}

/// The board the squares are on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Board {
    /// Numbered squares (numeric notation).
    pub squares: u32,
    /// Files.
    pub width: u32,
    /// Ranks.
    pub height: u32,
}

impl Board {
    /// The square named from the other side of the board.
    pub(crate) fn mirror(&self, s: Square) -> Square {
        match s {
            Square::Num(n) => Square::Num((self.squares + 1).saturating_sub(n)),
            Square::Alg { file, rank } => Square::Alg {
                file: self.width.saturating_sub(1 + u32::from(file)) as u8,
                rank: self.height.saturating_sub(1 + u32::from(rank)) as u8,
            },
        }
    }
}

/// How plausibly the move written `forms` (each a way its player may write it: start and
/// destination, the route of a capture) was recorded as `recorded`: the summed likelihood of
/// the slips that turn one of the forms into it, and the likeliest of them (`None` if no slip
/// of the model does; an exact match is no slip either).
pub(crate) fn text_slip(
    recorded: &[Square],
    forms: &[&[Square]],
    board: &Board,
) -> Option<(f64, SlipKind)> {
    let mut best: Option<(f64, SlipKind)> = None;
    for form in forms {
        if form.len() != recorded.len() || form.len() < 2 || *form == recorded {
            continue;
        }
        let mut total = 0.0;
        let mut top = (0.0, SlipKind::DigitWrong);
        for (kind, p) in slips_of(recorded, form, board) {
            total += p;
            if p > top.0 {
                top = (p, kind);
            }
        }
        if total > 0.0 && best.is_none_or(|b| total > b.0) {
            best = Some((total, top.1));
        }
    }
    best
}

/// The single-slip explanations of `recorded` as a miswriting of `form` (same length).
fn slips_of(recorded: &[Square], form: &[Square], board: &Board) -> Vec<(SlipKind, f64)> {
    let mut out = Vec::new();
    let n = form.len();
    if recorded.iter().rev().eq(form.iter()) {
        out.push((SlipKind::FromTo, 1.0));
    }
    if recorded
        .iter()
        .zip(form)
        .all(|(r, f)| *r == board.mirror(*f))
    {
        out.push((SlipKind::OtherSide, 1.0));
    }
    let differ: Vec<usize> = (0..n).filter(|&i| recorded[i] != form[i]).collect();
    let [i] = differ[..] else {
        return out;
    };
    let (was, got) = (form[i], recorded[i]);
    if transposed(was, got) {
        let count = form.iter().filter(|s| two_digits(**s)).count().max(1);
        out.push((SlipKind::Transposed, 1.0 / count as f64));
    }
    if off_by_one(was, got) {
        out.push((SlipKind::OffByOne, 1.0 / (2 * n) as f64));
    }
    if let Some(p) = digit_wrong(was, got, form) {
        out.push((SlipKind::DigitWrong, p));
    }
    out
}

/// A number of two distinct digits, which a transposition turns into another number.
fn two_digits(s: Square) -> bool {
    matches!(s, Square::Num(n) if (10..100).contains(&n) && n / 10 != n % 10)
}

/// `got` is `was` with its two digits swapped (`30` written `03` reads `3`).
fn transposed(was: Square, got: Square) -> bool {
    match (was, got) {
        (Square::Num(a), Square::Num(b)) if two_digits(was) => b == (a % 10) * 10 + a / 10,
        _ => false,
    }
}

/// A neighbouring number, or a neighbouring file or rank.
fn off_by_one(was: Square, got: Square) -> bool {
    match (was, got) {
        (Square::Num(a), Square::Num(b)) => a.abs_diff(b) == 1,
        (Square::Alg { file: f, rank: r }, Square::Alg { file: g, rank: s }) => {
            (f == g && r.abs_diff(s) == 1) || (r == s && f.abs_diff(g) == 1)
        }
        _ => false,
    }
}

/// The likelihood that `got` is `was` with one digit (or file letter, or rank) wrong, as
/// part of a move written `form`.
fn digit_wrong(was: Square, got: Square, form: &[Square]) -> Option<f64> {
    let symbols: usize = form.iter().map(|s| symbols_of(*s).len()).sum();
    let (a, mut b) = (symbols_of(was), symbols_of(got));
    if matches!(got, Square::Num(_)) && b.len() < a.len() {
        // `12` miswritten `02` reads as square 2.
        let mut padded = vec![b'0'; a.len() - b.len()];
        padded.extend(b);
        b = padded;
    }
    if a.len() != b.len() {
        return None;
    }
    let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    let [i] = differ[..] else { return None };
    let (x, y) = (a[i], b[i]);
    let weight = |c: u8| {
        if neighbours(x, c) {
            NEIGHBOUR_WEIGHT
        } else {
            1.0
        }
    };
    let total: f64 = alphabet(x).filter(|&c| c != x).map(weight).sum();
    Some(weight(y) / total / symbols.max(1) as f64)
}

/// The characters a square is written with (`32` → `3`, `2`; `c3` → `c`, `3`).
fn symbols_of(s: Square) -> Vec<u8> {
    match s {
        Square::Num(n) => n.to_string().into_bytes(),
        Square::Alg { file, rank } => {
            let mut v = vec![b'a' + file.min(25)];
            v.extend((u32::from(rank) + 1).to_string().into_bytes());
            v
        }
    }
}

/// The characters that could stand where `c` stands.
fn alphabet(c: u8) -> impl Iterator<Item = u8> {
    if c.is_ascii_digit() {
        b'0'..=b'9'
    } else {
        b'a'..=b'z'
    }
}

/// Digits next to each other on the number row or the keypad, or alike in handwriting;
/// letters next to each other.
fn neighbours(a: u8, b: u8) -> bool {
    if a.is_ascii_lowercase() {
        return a.abs_diff(b) == 1;
    }
    const ROW: &[u8] = b"1234567890";
    let row = |c: u8| ROW.iter().position(|&d| d == c);
    if let (Some(i), Some(j)) = (row(a), row(b))
        && i.abs_diff(j) == 1
    {
        return true;
    }
    let ((r1, c1), (r2, c2)) = (keypad(a), keypad(b));
    if (r1 - r2).abs() + (c1 - c2).abs() == 1 || matches!((a, b), (b'0', b'2') | (b'2', b'0')) {
        return true;
    }
    const HAND: [(u8, u8); 8] = [
        (b'1', b'7'),
        (b'3', b'8'),
        (b'5', b'6'),
        (b'4', b'9'),
        (b'0', b'6'),
        (b'0', b'8'),
        (b'2', b'7'),
        (b'3', b'5'),
    ];
    HAND.iter()
        .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
}

/// Row and column of a digit on a keypad: `7 8 9` / `4 5 6` / `1 2 3` / `0` (a wide key under
/// `1` and `2`).
fn keypad(c: u8) -> (i32, i32) {
    match c {
        b'1'..=b'9' => {
            let d = i32::from(c - b'1');
            (2 - d / 3, d % 3)
        }
        _ => (3, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEN: Board = Board {
        squares: 50,
        width: 10,
        height: 10,
    };

    fn sq(v: &[u32]) -> Vec<Square> {
        v.iter().map(|&n| Square::Num(n)).collect()
    }

    fn kind(rec: &[u32], played: &[u32]) -> Option<SlipKind> {
        text_slip(&sq(rec), &[&sq(played)], &TEN).map(|(_, k)| k)
    }

    #[test]
    fn each_kind_is_recognised() {
        assert_eq!(kind(&[28, 32], &[32, 28]), Some(SlipKind::FromTo));
        assert_eq!(kind(&[19, 23], &[32, 28]), Some(SlipKind::OtherSide));
        assert_eq!(kind(&[37, 23], &[37, 32]), Some(SlipKind::Transposed));
        assert_eq!(kind(&[40, 28], &[40, 29]), Some(SlipKind::OffByOne));
        assert_eq!(kind(&[37, 38], &[37, 32]), Some(SlipKind::DigitWrong));
        assert_eq!(
            kind(&[2, 21], &[12, 21]),
            Some(SlipKind::DigitWrong),
            "`02x21`"
        );
        assert_eq!(kind(&[32, 28], &[32, 28]), None, "no slip");
        assert_eq!(kind(&[12, 28], &[32, 27]), None, "two slips");
    }

    #[test]
    fn neighbouring_digits_are_likelier() {
        let near = text_slip(&sq(&[37, 33]), &[&sq(&[37, 32])], &TEN)
            .unwrap()
            .0;
        let far = text_slip(&sq(&[37, 39]), &[&sq(&[37, 32])], &TEN)
            .unwrap()
            .0;
        assert!(near > far * 2.0, "{near} {far}");
        assert!(neighbours(b'1', b'7') && neighbours(b'5', b'8') && neighbours(b'0', b'9'));
        assert!(!neighbours(b'1', b'9'));
    }

    #[test]
    fn mirrored_squares() {
        assert_eq!(TEN.mirror(Square::Num(1)), Square::Num(50));
        let eight = Board {
            squares: 32,
            width: 8,
            height: 8,
        };
        assert_eq!(
            eight.mirror(Square::Alg { file: 0, rank: 2 }),
            Square::Alg { file: 7, rank: 5 }
        );
    }
}
