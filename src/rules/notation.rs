//! Writing moves in PDN notation: the short form `32-28`, `28x19`, and the full capture
//! route that PDN 3.0 demands for ambiguous captures (RULES.md §1.3, writing rule 9).

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
    let kind = match style {
        SquareStyle::Native => numbering.layout.notation,
        SquareStyle::Numeric => NotationKind::Numeric,
        SquareStyle::Algebraic => NotationKind::Algebraic,
    };
    match kind {
        NotationKind::Numeric => numbering.number_of_bit(bit).to_string(),
        NotationKind::Algebraic => numbering.algebraic_name(bit),
    }
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
    let name = |b: u32| square_name(numbering, b, style);
    if !m.is_capture() {
        return format!("{}-{}", name(m.from as u32), name(m.to as u32));
    }
    let squares = if full {
        route(geo, m, path)
    } else {
        vec![m.from as u32, m.to as u32]
    };
    let mut s = String::with_capacity(squares.len() * 3);
    for (i, b) in squares.into_iter().enumerate() {
        if i > 0 {
            s.push(capture_separator);
        }
        s.push_str(&name(b));
    }
    s
}

/// True if another move of the list has the same start and destination but captures other
/// pieces: the short form does not say which move is meant (RULES.md §1.3 rule 8).
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
