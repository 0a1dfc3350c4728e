//! PDN FEN (docs/pdn.md#fen): reading and writing positions such as `W:W31-50:B1-20`.
//!
//! The reader is liberal, as PDN 3.0 asks of readers. It accepts:
//! - the side to move `W`, `B` or `?` (also in lower case), and a missing side;
//! - the colour groups in any order, empty lists (`W:W31:B`, the null-move form `B::`);
//! - numeric squares with leading zeros, ranges (`31-50`, `K1-5`), kings as `K` before a
//!   square or range, algebraic squares (`Kd2`, `a3`);
//! - a trailing dot, spaces and line breaks anywhere (FEN tags broken across lines), and
//!   unknown trailing fields such as lidraughts' `:H0:F1` (ignored, and listed in
//!   [`Setup::ignored`]).
//!
//! Anything else is a typed [`FenError`] that says what is wrong; the reader never panics.
//! A colour given twice (`W:W30,15:WK31,22`) is an error: which list holds the other side's
//! pieces cannot be known, and merging them would silently move pieces between the sides.

use std::fmt;

use super::bits::Bits;
use super::color::Color;
use super::geometry::{Geometry, Lookup, Numbering};
use super::position::{Piece, Position, Role};

/// A square as written in a FEN or a move: a number or algebraic coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareName {
    /// A numeric square, 1-based.
    Number(u32),
    /// An algebraic square, 0-based file and rank (`a1` = (0, 0)).
    Algebraic {
        /// File, 0 = `a`.
        file: u8,
        /// Rank, 0 = `1`.
        rank: u8,
    },
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SquareName::Number(n) => write!(f, "{n}"),
            SquareName::Algebraic { file, rank } => {
                write!(f, "{}{}", (b'a' + file) as char, rank as u32 + 1)
            }
        }
    }
}

impl SquareName {
    /// The internal bit this name denotes in a numbering.
    ///
    /// # Errors
    ///
    /// [`SquareError::OffBoard`] for a number or coordinate outside the board,
    /// [`SquareError::NotPlaying`] for a light square.
    pub fn resolve(self, numbering: &Numbering) -> Result<u32, SquareError> {
        match self {
            SquareName::Number(n) => numbering
                .bit_of_number(n)
                .ok_or(SquareError::OffBoard(numbering.len() as u32)),
            SquareName::Algebraic { file, rank } => {
                match numbering.bit_of_algebraic(file as u32, rank as u32) {
                    Lookup::OffBoard => Err(SquareError::OffBoard(numbering.len() as u32)),
                    Lookup::NotPlaying => Err(SquareError::NotPlaying),
                    Lookup::Square(b) => Ok(b),
                }
            }
        }
    }
}

/// Why a square name does not denote a playing square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareError {
    /// Outside the board (the board has this many numbered squares).
    OffBoard(u32),
    /// A square of the board that is not played on.
    NotPlaying,
}

/// A position as a FEN describes it, before it is checked against a board.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Setup {
    /// Side to move; `None` for `?` or a missing side.
    pub side: Option<Color>,
    /// The pieces, in the order given.
    pub pieces: Vec<(SquareName, Piece)>,
    /// Trailing fields that were not understood and ignored (e.g. `H0`, `F1`).
    pub ignored: Vec<String>,
}

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing but white space.
    Empty,
    /// The side to move is not `W`, `B` or `?`.
    BadSide(String),
    /// A field that is neither a colour group nor a known extension.
    BadField(String),
    /// A token in a piece list that is no square, king or range.
    BadSquare(String),
    /// A range whose ends are not numbers or run backwards.
    BadRange(String),
    /// A square number beyond the board.
    OffBoard {
        /// The square as written.
        square: String,
        /// Number of squares on the board.
        squares: u32,
    },
    /// A square of the board that is not a playing square.
    NotPlaying(String),
    /// The same square given twice.
    Twice(String),
    /// A colour group given twice (`W:W30,15:WK31,22`): the letter of the colour.
    ColourTwice(char),
    /// A man standing on the row where it would have been crowned.
    ManOnCrowningRow(String),
    /// No piece at all and no side to move: nothing was described.
    Nothing,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => f.write_str("empty FEN"),
            FenError::BadSide(s) => write!(f, "side to move `{s}` is not W, B or ?"),
            FenError::BadField(s) => {
                write!(f, "field `{s}` is not a colour group (W… or B…)")
            }
            FenError::BadSquare(s) => write!(f, "`{s}` is not a square"),
            FenError::BadRange(s) => write!(f, "`{s}` is not a valid range of squares"),
            FenError::OffBoard { square, squares } => {
                write!(f, "square {square} is off the board (1-{squares})")
            }
            FenError::NotPlaying(s) => write!(f, "square {s} is not a playing square"),
            FenError::Twice(s) => write!(f, "square {s} is given twice"),
            FenError::ColourTwice(c) => write!(
                f,
                "the pieces of {} are listed twice (two `{c}` groups): the other side's list is missing",
                if *c == 'W' { "White" } else { "Black" }
            ),
            FenError::ManOnCrowningRow(s) => {
                write!(f, "a man on {s} stands on its own crowning row")
            }
            FenError::Nothing => f.write_str("the FEN describes no position"),
        }
    }
}

impl std::error::Error for FenError {}

/// Parse the text of a FEN into a [`Setup`].
///
/// # Errors
///
/// A [`FenError`] naming the first thing that is wrong.
pub fn parse(text: &str) -> Result<Setup, FenError> {
    // White space and quotes are dropped; a FEN of plain ASCII without them (the usual
    // one) is read in place.
    let plain = text
        .bytes()
        .all(|b| b.is_ascii() && !matches!(b, b' ' | b'\t'..=b'\r' | b'"'));
    let compact: std::borrow::Cow<'_, str> = if plain {
        text.into()
    } else {
        text.chars()
            .filter(|c| !c.is_whitespace() && *c != '"')
            .collect::<String>()
            .into()
    };
    let compact = compact.trim_end_matches('.');
    if compact.is_empty() {
        return Err(FenError::Empty);
    }
    let mut fields = split_at_byte(compact, b':');
    let first = fields.next().unwrap_or("");
    // Room for the usual lists (a piece takes two characters or more, but in a range).
    let mut setup = Setup {
        pieces: Vec::with_capacity((compact.len() / 2).min(64)),
        ..Setup::default()
    };
    // The first field when it is a colour group.
    let mut group = None;
    match first {
        "W" | "w" => setup.side = Some(Color::White),
        "B" | "b" => setup.side = Some(Color::Black),
        "?" | "" => {}
        other => {
            // A FEN without side to move that starts with a colour group (`W31,32:B1`)
            // is read as such; anything else is a bad side.
            if other.len() > 1 && matches!(other.as_bytes()[0], b'W' | b'B') {
                group = Some(other);
            } else {
                return Err(FenError::BadSide(other.to_string()));
            }
        }
    }
    let mut listed = [false; 2];
    for field in group.into_iter().chain(fields) {
        let (color, list) = match field.as_bytes().first() {
            None => continue,
            Some(b'W') | Some(b'w') => (Color::White, &field[1..]),
            Some(b'B') | Some(b'b') => (Color::Black, &field[1..]),
            Some(_) => {
                if field
                    .as_bytes()
                    .first()
                    .is_some_and(|c| c.is_ascii_alphabetic())
                {
                    setup.ignored.push(field.to_string());
                    continue;
                }
                return Err(FenError::BadField(field.to_string()));
            }
        };
        let seen = &mut listed[usize::from(color == Color::Black)];
        if std::mem::replace(seen, true) {
            return Err(FenError::ColourTwice(color.letter()));
        }
        parse_list(list, color, &mut setup.pieces)?;
    }
    Ok(setup)
}

fn parse_list(
    list: &str,
    color: Color,
    out: &mut Vec<(SquareName, Piece)>,
) -> Result<(), FenError> {
    for item in split_at_byte(list, b',') {
        if item.is_empty() {
            continue;
        }
        let (role, body) = match item.as_bytes()[0] {
            b'K' | b'k' => (Role::King, &item[1..]),
            _ => (Role::Man, item),
        };
        let piece = Piece { color, role };
        if let Some(dash) = body.bytes().position(|c| c == b'-') {
            let (a, b) = (&body[..dash], &body[dash + 1..]);
            let (Some(a), Some(b)) = (number(a), number(b)) else {
                return Err(FenError::BadRange(item.to_string()));
            };
            if a > b || b - a > 200 {
                return Err(FenError::BadRange(item.to_string()));
            }
            for n in a..=b {
                out.push((SquareName::Number(n), piece));
            }
        } else if let Some(n) = number(body) {
            out.push((SquareName::Number(n), piece));
        } else if let Some(sq) = algebraic(body) {
            out.push((sq, piece));
        } else {
            return Err(FenError::BadSquare(item.to_string()));
        }
    }
    Ok(())
}

/// The pieces of `s` between the bytes `sep` (an ASCII character), as `str::split` gives
/// them (an empty piece between two separators and at either end): a loop over the bytes,
/// cheaper than the general pattern search for the short fields and items of a FEN.
fn split_at_byte(s: &str, sep: u8) -> impl Iterator<Item = &str> {
    let mut rest = Some(s);
    std::iter::from_fn(move || {
        let r = rest?;
        match r.bytes().position(|c| c == sep) {
            Some(at) => {
                rest = Some(&r[at + 1..]);
                Some(&r[..at])
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

fn number(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 4 || !s.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    // At most four digits: no overflow.
    Some(s.bytes().fold(0, |n, c| n * 10 + u32::from(c - b'0')))
}

/// Parse an algebraic square (`a1`, `H8`, `j10`); files `a`–`z`, ranks 1–99.
pub fn algebraic(s: &str) -> Option<SquareName> {
    let b = s.as_bytes();
    if b.len() < 2 || b.len() > 3 || !b[0].is_ascii_alphabetic() {
        return None;
    }
    let file = b[0].to_ascii_lowercase() - b'a';
    let rank: u32 = number(&s[1..])?;
    if rank == 0 || rank > 26 {
        return None;
    }
    Some(SquareName::Algebraic {
        file,
        rank: (rank - 1) as u8,
    })
}

impl Setup {
    /// Place the setup on a board.
    ///
    /// `default_side` is used when the FEN leaves the side to move open (`?`).
    ///
    /// # Errors
    ///
    /// Off-board or light squares, a square given twice, or a man on its own crowning row.
    pub fn position<B: Bits>(
        &self,
        numbering: &Numbering,
        geo: &Geometry<B>,
        default_side: Color,
    ) -> Result<Position<B>, FenError> {
        let mut pos = Position::empty(self.side.unwrap_or(default_side));
        let mut seen = B::ZERO;
        for &(name, piece) in &self.pieces {
            let bit = match name.resolve(numbering) {
                Ok(b) => b,
                Err(SquareError::OffBoard(n)) => {
                    return Err(FenError::OffBoard {
                        square: name.to_string(),
                        squares: n,
                    });
                }
                Err(SquareError::NotPlaying) => {
                    return Err(FenError::NotPlaying(name.to_string()));
                }
            };
            if seen.has(bit) {
                if pos.piece_at(bit) == Some(piece) {
                    continue; // listed twice the same way: harmless
                }
                return Err(FenError::Twice(name.to_string()));
            }
            if piece.role == Role::Man && geo.promotion_row(piece.color).has(bit) {
                return Err(FenError::ManOnCrowningRow(name.to_string()));
            }
            seen |= B::bit(bit);
            pos.put(bit, piece);
        }
        Ok(pos)
    }
}

/// Write a position as a PDN 3.0 FEN: side, then White's and Black's pieces in ascending
/// square order, kings prefixed with `K`, no ranges, no trailing dot.
pub fn write<B: Bits>(pos: &Position<B>, numbering: &Numbering) -> String {
    let numeric = !numbering.layout.full;
    let mut out = String::with_capacity(100);
    out.push(pos.side().letter());
    for color in Color::ALL {
        out.push(':');
        out.push(color.letter());
        let mut squares: Vec<(u32, u32)> = pos
            .pieces(color)
            .iter()
            .map(|b| (numbering.number_of_bit(b), b))
            .collect();
        if !numeric {
            squares.sort_by_key(|&(_, b)| {
                let (f, r) = numbering.algebraic_of_bit(b);
                (r, f)
            });
        } else {
            squares.sort_unstable();
        }
        for (i, (num, bit)) in squares.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if pos.kings().has(bit) {
                out.push('K');
            }
            if numeric {
                out.push_str(&num.to_string());
            } else {
                out.push_str(&numbering.algebraic_name(bit));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Spec, Variant};

    #[test]
    fn reads_ranges_kings_and_dot() {
        let s = parse("W:W31-50:BK1-3,4.").unwrap();
        assert_eq!(s.side, Some(Color::White));
        assert_eq!(s.pieces.len(), 24);
        assert_eq!(s.pieces[20].1.role, Role::King);
        assert_eq!(s.pieces[23].1.role, Role::Man);
    }

    #[test]
    fn reads_question_side_empty_lists_and_extras() {
        let s = parse("?:W29,13,11:B22,4,2").unwrap();
        assert_eq!(s.side, None);
        let s = parse("B::").unwrap();
        assert_eq!(s.side, Some(Color::Black));
        assert!(s.pieces.is_empty());
        let s = parse("W:W31:B").unwrap();
        assert_eq!(s.pieces.len(), 1);
        let s = parse("W:W31,32:B1,2:H0:F12").unwrap();
        assert_eq!(s.ignored, vec!["H0".to_string(), "F12".to_string()]);
        let s = parse("W:W31,\n 32:B1").unwrap();
        assert_eq!(s.pieces.len(), 3);
    }

    #[test]
    fn reads_algebraic() {
        let s = parse("W:WKd2:Bf6,c5,e5,e3").unwrap();
        assert_eq!(s.pieces[0].0, SquareName::Algebraic { file: 3, rank: 1 });
        assert_eq!(s.pieces[0].1.role, Role::King);
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(parse(""), Err(FenError::Empty));
        assert!(matches!(parse("X:W1"), Err(FenError::BadSide(_))));
        assert!(matches!(parse("W:W1,#2"), Err(FenError::BadSquare(_))));
        assert!(matches!(parse("W:W1,2x"), Err(FenError::BadSquare(_))));
        assert!(matches!(parse("W:W9-3"), Err(FenError::BadRange(_))));
        assert!(matches!(parse("W:1,2"), Err(FenError::BadField(_))));
        // One colour listed twice: the other side's list is missing, nothing is merged.
        assert_eq!(parse("W:W30,15:WK31,22"), Err(FenError::ColourTwice('W')));
        assert_eq!(parse("B:B1:W5:b7"), Err(FenError::ColourTwice('B')));
        assert!(parse("B:W5:B1").is_ok());
        let v = Variant::International;
        let s = parse("W:W51").unwrap();
        let err = crate::rules::with_variant!(v, V => {
            s.position(V::numbering(), V::geometry(), Color::White).map(|_| ())
        });
        assert!(matches!(err, Err(FenError::OffBoard { .. })));
        let s = parse("W:W3").unwrap();
        let err = crate::rules::with_variant!(v, V => {
            s.position(V::numbering(), V::geometry(), Color::White).map(|_| ())
        });
        assert!(matches!(err, Err(FenError::ManOnCrowningRow(_))));
    }

    #[test]
    fn never_panics_on_junk() {
        for junk in [
            ":::",
            "W:W-",
            "W:WK",
            "W:W1-",
            "W:W-5",
            "W:W99999999999",
            "W:Wz9",
            "B:W,,,:B..",
            "\u{feff}W",
            "W:W1-100000",
            "W:Wa0",
            "WW",
            "W:BK",
        ] {
            let _ = parse(junk);
        }
    }
}
