//! A move as written turned into what the resolver matches ([`MoveSpec`]): its squares, its
//! separator, and for an undivided run of digits every way to cut it into squares; the
//! legal moves of a position written for messages.

use crate::rules::fen::SquareName;
use crate::rules::{Lookup, MoveList, Numbering, Position, Spec};
use crate::syntax::{MoveKind, MoveRef, Square};

use crate::app::judge::resolve::{MoveSpec, Separator, move_in_list};

/// The recorded move as resolution needs it; `None` for an unknown move.
pub fn to_spec(m: &MoveRef<'_>) -> Option<MoveSpec> {
    let mut spec = MoveSpec::default();
    spec_into(m, &mut spec).then_some(spec)
}

/// The bit of a square as written, in the variant's standard numbering `num` (`None` off
/// the board).
#[inline]
pub(super) fn square_bit(num: &Numbering, s: Square) -> Option<u32> {
    match s {
        Square::Num(n) => num.bit_of_number(n),
        Square::Alg { file, rank } => match num.bit_of_algebraic(file as u32, rank as u32) {
            Lookup::Square(b) => Some(b),
            _ => None,
        },
    }
}

/// [`to_spec`] into a spec whose buffers are reused; false for an unknown move.
pub fn spec_into(m: &MoveRef<'_>, spec: &mut MoveSpec) -> bool {
    spec.separator = match m.kind {
        MoveKind::Unknown => return false,
        MoveKind::Normal => Separator::Quiet,
        MoveKind::Capture(_) => Separator::Capture,
        MoveKind::Undivided => Separator::None,
    };
    spec.readings.truncate(1);
    if spec.readings.is_empty() {
        spec.readings.push(Vec::with_capacity(8));
    }
    let squares = &mut spec.readings[0];
    squares.clear();
    squares.extend(m.squares.iter().map(|&s| SquareName::from(s)));
    if spec.separator == Separator::None
        && squares.len() == 1
        && let SquareName::Number(n) = squares[0]
    {
        // All digits in one number: every split into squares of one or two digits.
        let readings = splits(&n.to_string());
        if !readings.is_empty() {
            spec.readings = readings;
        }
    }
    true
}

/// A square as the reader wrote it, as the rules name it (the one bridge between the two).
impl From<Square> for SquareName {
    fn from(s: Square) -> SquareName {
        match s {
            Square::Num(n) => SquareName::Number(n),
            Square::Alg { file, rank } => SquareName::Algebraic { file, rank },
        }
    }
}

/// The ways to cut a run of digits into two or more squares of one or two digits (no
/// leading zero), at most eight squares.
fn splits(digits: &str) -> Vec<Vec<SquareName>> {
    let d = digits.as_bytes();
    let mut out = Vec::new();
    let mut stack: Vec<(usize, Vec<SquareName>)> = vec![(0, Vec::new())];
    while let Some((at, acc)) = stack.pop() {
        if at == d.len() {
            if acc.len() >= 2 {
                out.push(acc);
            }
            continue;
        }
        if acc.len() >= 8 || d[at] == b'0' {
            continue;
        }
        for len in [1usize, 2] {
            if at + len <= d.len() {
                let n: u32 = digits[at..at + len].parse().unwrap_or(0);
                let mut next = acc.clone();
                next.push(SquareName::Number(n));
                stack.push((at + len, next));
            }
        }
    }
    out.reverse();
    out
}

/// The legal moves of a position written in PDN (for messages).
pub fn legal_texts<V: Spec>(pos: &Position<V::B>) -> Vec<String> {
    let mut list = MoveList::new();
    V::legal_moves(pos, &mut list);
    (0..list.len())
        .map(|i| move_in_list::<V>(&list, i))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_splits() {
        let s = splits("3228");
        assert!(s.contains(&vec![SquareName::Number(32), SquareName::Number(28)]));
        assert!(s.iter().all(|r| r.len() >= 2));
        assert!(splits("0").is_empty());
    }
}
