//! Writing moves in PDN notation: the short form `32-28`, `28x19`, and the full capture
//! route that PDN 3.0 demands for ambiguous captures (PDN 3.0 writing rule 9; docs/pdn.md#what-pdn-writes).

use super::bits::Bits;
use super::geometry::{Geometry, NotationKind, Numbering};
use super::position::{Move, MoveList, Step};

/// How squares are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareStyle {
    /// As the variant's `GameType` says.
    Native,
    /// Numbers.
    Numeric,
    /// Algebraic coordinates.
    Algebraic,
}

/// The squares a full capture lists, PDN 3.0 writing rule 9: the start, then for every jump
/// but the last the turning square (where the piece changes direction) or, where it goes on
/// in the same direction, the square immediately behind the captured piece, then the
/// destination. For a non-capturing move: start and destination.
pub fn route<B: Bits>(geo: &Geometry<B>, m: &Move<B>, path: &[Step]) -> Vec<u32> {
    let mut out = Vec::with_capacity(path.len() + 1);
    out.push(m.from as u32);
    let mut at = m.from as u32;
    for (i, step) in path.iter().enumerate() {
        let captured = step.captured as u32;
        let landing = step.landing as u32;
        if i + 1 == path.len() {
            break;
        }
        let d = geo.direction(at, captured);
        let next = geo.direction(landing, path[i + 1].captured as u32);
        if d.is_some() && d == next {
            // Straight on: the square right behind the captured piece.
            let behind = d
                .and_then(|d| geo.neighbour(captured, d))
                .unwrap_or(landing);
            out.push(behind);
        } else {
            out.push(landing);
        }
        at = landing;
    }
    out.push(m.to as u32);
    out
}

/// Every landing square of a capture (the PDN 2.0 "full" form: `26x17x10`), start first.
pub fn landings<B: Bits>(m: &Move<B>, path: &[Step]) -> Vec<u32> {
    let mut out = Vec::with_capacity(path.len() + 1);
    out.push(m.from as u32);
    out.extend(path.iter().map(|s| s.landing as u32));
    if path.is_empty() {
        out.push(m.to as u32);
    }
    out
}

/// The name of a square.
pub fn square_name(numbering: &Numbering, bit: u32, style: SquareStyle) -> String {
    let mut s = String::with_capacity(3);
    push_square_name(&mut s, numbering, bit, style);
    s
}

/// Append the name of a square (written without the formatter: move lists of diagnostics
/// write thousands of them).
pub fn push_square_name(out: &mut String, numbering: &Numbering, bit: u32, style: SquareStyle) {
    let kind = match style {
        SquareStyle::Native => numbering.layout.notation,
        SquareStyle::Numeric => NotationKind::Numeric,
        SquareStyle::Algebraic => NotationKind::Algebraic,
    };
    match kind {
        NotationKind::Numeric => push_number(out, numbering.number_of_bit(bit)),
        NotationKind::Algebraic => {
            let (f, r) = numbering.algebraic_of_bit(bit);
            out.push(char::from(b'a' + f));
            push_number(out, u32::from(r) + 1);
        }
    }
}

/// Append a number in decimal.
fn push_number(out: &mut String, n: u32) {
    if n >= 10 {
        push_number(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// Write a move: `from-to`, `fromxto`, or with `full` the route of [`route`].
pub fn write<B: Bits>(
    geo: &Geometry<B>,
    numbering: &Numbering,
    m: &Move<B>,
    path: &[Step],
    full: bool,
    style: SquareStyle,
    capture_separator: char,
) -> String {
    let mut s = String::with_capacity(8);
    let name = |s: &mut String, b: u32| push_square_name(s, numbering, b, style);
    if !m.is_capture() || !full {
        name(&mut s, m.from as u32);
        s.push(if m.is_capture() {
            capture_separator
        } else {
            '-'
        });
        name(&mut s, m.to as u32);
        return s;
    }
    for (i, b) in route(geo, m, path).into_iter().enumerate() {
        if i > 0 {
            s.push(capture_separator);
        }
        name(&mut s, b);
    }
    s
}

/// True if another move of the list has the same start and destination but captures other
/// pieces: the short form does not say which move is meant (PDN 3.0 writing rule 8).
pub fn is_ambiguous<B: Bits>(list: &MoveList<B>, i: usize) -> bool {
    let m = list.moves()[i];
    list.moves()
        .iter()
        .any(|o| o.from == m.from && o.to == m.to && o.captured != m.captured)
}

/// Write move `i` of a list the PDN 3.0 way: short unless ambiguous, then the full route.
pub fn write_in_list<B: Bits>(
    geo: &Geometry<B>,
    numbering: &Numbering,
    list: &MoveList<B>,
    i: usize,
    style: SquareStyle,
    capture_separator: char,
) -> String {
    write(
        geo,
        numbering,
        &list.moves()[i],
        list.path(i),
        is_ambiguous(list, i),
        style,
        capture_separator,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Spec, Variant, with_variant};

    /// The names written without the formatter are those of [`Numbering::name`] and
    /// [`Numbering::algebraic_name`], on every square of every variant's board.
    #[test]
    fn square_names_are_the_numberings_names_on_every_board() {
        for v in Variant::ALL {
            with_variant!(v, V => {
                let numbering = V::numbering();
                for b in V::geometry().squares() {
                    assert_eq!(square_name(numbering, b, SquareStyle::Native), numbering.name(b));
                    assert_eq!(
                        square_name(numbering, b, SquareStyle::Algebraic),
                        numbering.algebraic_name(b)
                    );
                    assert_eq!(
                        square_name(numbering, b, SquareStyle::Numeric),
                        numbering.number_of_bit(b).to_string()
                    );
                }
            });
        }
    }

    /// A plain move is `from-to`; a capture `fromxto` short, its route in full (the squares
    /// of [`route`], named as [`Numbering::name`] names them).
    #[test]
    fn moves_are_written_short_or_with_their_route() {
        use crate::rules::spec::International;
        let (geo, n) = (International::geometry(), International::numbering());
        let mut list = MoveList::new();
        let mut long = 0;
        for fen in [
            "W:W33:B28,18,9",
            "W:W32,33,34:B19,20,28,29",
            "B:W31,32:B19,20",
        ] {
            let pos = International::from_fen(fen).expect("FEN");
            International::legal_moves(&pos, &mut list);
            assert!(!list.is_empty(), "{fen}");
            for i in 0..list.len() {
                let (m, path) = (&list.moves()[i], list.path(i));
                let sep = if m.is_capture() { "x" } else { "-" };
                let short = format!("{}{sep}{}", n.name(m.from as u32), n.name(m.to as u32));
                let squares = route(geo, m, path);
                long += usize::from(squares.len() > 2);
                let full: Vec<String> = squares.iter().map(|&b| n.name(b)).collect();
                let write = |full| write(geo, n, m, path, full, SquareStyle::Native, 'x');
                assert_eq!(write(false), short, "{fen}");
                let full = if m.is_capture() {
                    full.join("x")
                } else {
                    short
                };
                assert_eq!(write(true), full, "{fen}");
            }
        }
        assert!(long > 0, "no capture of more than one piece was written");
    }
}
