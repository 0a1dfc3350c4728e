//! Board pictures: a position drawn in the book conventions of its variant, with the last
//! move as an arrow, captured pieces marked and a caption, as SVG ([`svg`]) or PNG ([`png`]).
//!
//! The conventions come from the variant's `GameType` layout, as the rule books print them
//! (docs/pdn.md#square-names): White at the bottom (square 1 top left on the international board; the
//! English board with Black, who moves first, at the top), boards whose bottom-left corner
//! is light (Italian, Spanish, Portuguese) drawn that way, algebraic boards (Russian,
//! Brazilian, Czech, Turkish) with their files and ranks on the edges. `flip` turns the board
//! round. Men and kings differ in shape, not only in colour: a king carries a crown, so a
//! black-and-white print tells them apart.
//!
//! One description of the picture ([`draw`]) is written through a [`draw::Canvas`]: the SVG
//! writer and the PNG rasteriser draw the same shapes.

pub mod draw;
mod font;
mod game;
pub mod png;
pub mod svg;

pub use game::{GameDiagramError, game_diagram, move_caption};

use crate::rules::{Bits, Color, Move, NotationKind, Position, Role, Spec, Step, Variant};

/// How the board is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The square numbers (or names) in the corner of every playing square.
    pub numbers: bool,
    /// The board turned round (Black at the bottom).
    pub flip: bool,
    /// Width of the picture in pixels (the height follows).
    pub size: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            numbers: false,
            flip: false,
            size: DEFAULT_SIZE,
        }
    }
}

/// The default width in pixels.
pub const DEFAULT_SIZE: u32 = 480;
/// The widest picture drawn (a PNG of this width takes about 270 MB to draw).
pub const MAX_SIZE: u32 = 8192;
/// The narrowest.
pub const MIN_SIZE: u32 = 32;

/// A playing square as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewSquare {
    /// The engine's internal bit.
    pub bit: u32,
    /// Its number in the variant's numbering (1-based).
    pub number: u32,
    /// Its name in the variant's notation (`32` or `c3`).
    pub name: String,
    /// Column on the picture, 0 at the left, White at the bottom (before `flip`).
    pub col: u8,
    /// Row on the picture, 0 at the top (before `flip`).
    pub row: u8,
}

/// The board of a variant as the books draw it: its squares on the picture, their names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    /// The variant.
    pub variant: Variant,
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// Every square is a playing square (Turkish).
    pub full: bool,
    /// The squares, in the order of their numbers (index = number - 1).
    pub squares: Vec<ViewSquare>,
    /// Algebraic boards: the file letter of each column and the rank of each row (before
    /// `flip`), drawn on the edges.
    pub coordinates: Option<(Vec<char>, Vec<u32>)>,
    index_of_bit: Vec<u8>,
}

impl View {
    /// The board of variant `V`.
    pub fn of<V: Spec>() -> View {
        let geo = V::geometry();
        let num = V::numbering();
        let (w, h) = (geo.width(), geo.height());
        let full = num.layout.full;
        // The engine keeps every board with a dark bottom-left corner; a board whose
        // bottom-left corner is light is the mirror image of that.
        let mirrored = num.layout.invert && !full;
        let algebraic = num.layout.notation == NotationKind::Algebraic || full;
        let mut index_of_bit = vec![u8::MAX; crate::rules::MAX_BITS];
        let mut squares = Vec::with_capacity(num.len());
        for n in 1..=num.len() as u32 {
            let Some(bit) = num.bit_of_number(n) else {
                continue;
            };
            let (r, c) = geo.coord(bit);
            let col = if mirrored { w - 1 - c } else { c };
            index_of_bit[bit as usize] = squares.len() as u8;
            squares.push(ViewSquare {
                bit,
                number: n,
                name: if algebraic {
                    num.algebraic_name(bit)
                } else {
                    n.to_string()
                },
                col,
                row: r,
            });
        }
        let coordinates = algebraic.then(|| {
            let mut files = vec!['?'; w as usize];
            let mut ranks = vec![0; h as usize];
            for s in &squares {
                let (f, r) = num.algebraic_of_bit(s.bit);
                files[s.col as usize] = char::from(b'a' + f.min(25));
                ranks[s.row as usize] = u32::from(r) + 1;
            }
            (files, ranks)
        });
        View {
            variant: V::RULES.variant,
            width: w,
            height: h,
            full,
            squares,
            coordinates,
            index_of_bit,
        }
    }

    /// The board of a variant known at run time.
    pub(crate) fn of_variant(v: Variant) -> View {
        crate::rules::with_variant!(v, V => View::of::<V>())
    }

    /// The index in [`View::squares`] of an internal bit.
    pub(crate) fn index_of_bit(&self, bit: u32) -> Option<usize> {
        match self.index_of_bit.get(bit as usize) {
            Some(&i) if i != u8::MAX => Some(i as usize),
            _ => None,
        }
    }

    /// The index of the square with this number.
    pub(crate) fn index_of_number(&self, n: u32) -> Option<usize> {
        (n >= 1 && n as usize <= self.squares.len()).then(|| n as usize - 1)
    }

    /// The index of the square with this name (`32`, `c3`).
    pub(crate) fn index_of_name(&self, name: &str) -> Option<usize> {
        self.squares.iter().position(|s| s.name == name)
    }

    /// Column and row of square `i` on the picture.
    pub fn place(&self, i: usize, flip: bool) -> (u8, u8) {
        let s = &self.squares[i];
        if flip {
            (self.width - 1 - s.col, self.height - 1 - s.row)
        } else {
            (s.col, s.row)
        }
    }
}

/// A piece on the picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Index in [`View::squares`].
    pub square: usize,
    /// Its side.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}

/// A move drawn on the board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drawn {
    /// The squares it stops on, start first (indices in [`View::squares`]); two or more.
    pub route: Vec<usize>,
    /// The squares of the pieces it takes.
    pub captured: Vec<usize>,
    /// The position shown is the one before the move (the captured pieces still stand);
    /// otherwise it is the one after (the captured pieces are shown as outlines).
    pub before: bool,
    /// An irregular move (drawn dashed).
    pub irregular: bool,
}

/// Everything a picture shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// The board.
    pub view: View,
    /// The pieces.
    pub pieces: Vec<Placed>,
    /// The side to move.
    pub side: Color,
    /// A move drawn as an arrow.
    pub drawn: Option<Drawn>,
    /// The line under the board (none if empty).
    pub caption: String,
    /// How it is shown.
    pub options: Options,
}

impl Diagram {
    /// A position of variant `V`, captioned with the side to move.
    pub fn of<V: Spec>(pos: &Position<V::B>, options: Options) -> Diagram {
        let view = View::of::<V>();
        let pieces = pieces_of(&view, pos);
        Diagram {
            caption: to_play(pos.side()).to_string(),
            view,
            pieces,
            side: pos.side(),
            drawn: None,
            options,
        }
    }
}

/// "White to play" or "Black to play".
pub(crate) fn to_play(side: Color) -> &'static str {
    match side {
        Color::White => "White to play",
        Color::Black => "Black to play",
    }
}

/// The pieces of a position on a view.
pub(crate) fn pieces_of<B: Bits>(view: &View, pos: &Position<B>) -> Vec<Placed> {
    view.squares
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            pos.piece_at(s.bit).map(|p| Placed {
                square: i,
                color: p.color,
                role: p.role,
            })
        })
        .collect()
}

/// The stopping squares of a move (start, every landing square, destination) and its
/// captured pieces, as internal bits.
pub(crate) fn move_squares<B: Bits>(m: &Move<B>, route: &[Step]) -> (Vec<u32>, Vec<u32>) {
    let stops = crate::rules::notation::landings(m, route);
    let mut captured: Vec<u32> = route.iter().map(|s| u32::from(s.captured)).collect();
    if captured.is_empty() {
        captured = m.captured.iter().collect();
    }
    (stops, captured)
}

/// Which picture to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Scalable vector graphics.
    Svg,
    /// A PNG image.
    Png,
}

/// Why a picture cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PictureError {
    /// The size asked for is out of bounds.
    Size(u32),
}

impl std::fmt::Display for PictureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PictureError::Size(s) => write!(
                f,
                "size {s} is out of bounds ({MIN_SIZE} to {MAX_SIZE} pixels)"
            ),
        }
    }
}

impl std::error::Error for PictureError {}

/// The picture of a diagram in a format.
///
/// # Errors
///
/// [`PictureError::Size`] when the size is out of bounds.
pub fn render(d: &Diagram, format: Format) -> Result<Vec<u8>, PictureError> {
    let size = d.options.size;
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(PictureError::Size(size));
    }
    Ok(match format {
        Format::Svg => svg::write(d).into_bytes(),
        Format::Png => png::write(d),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::spec;

    #[test]
    fn international_square_one_is_top_left_and_fifty_bottom_right() {
        let v = View::of::<spec::International>();
        assert_eq!(v.squares.len(), 50);
        assert_eq!((v.squares[0].col, v.squares[0].row), (1, 0));
        assert_eq!((v.squares[45].col, v.squares[45].row), (0, 9));
        assert_eq!(v.place(0, true), (8, 9));
        assert!(v.coordinates.is_none());
    }

    #[test]
    fn italian_board_has_a_light_bottom_left_corner() {
        let v = View::of::<spec::Italian>();
        // The PDN 3.0 numbering of the Italian board: 1 = a8, 29 = b1.
        assert_eq!((v.squares[0].col, v.squares[0].row), (0, 0));
        assert_eq!((v.squares[28].col, v.squares[28].row), (1, 7));
    }

    #[test]
    fn russian_board_has_coordinates() {
        let v = View::of::<spec::Russian>();
        let (files, ranks) = v.coordinates.clone().unwrap();
        assert_eq!(files, "abcdefgh".chars().collect::<Vec<_>>());
        assert_eq!(ranks, vec![8, 7, 6, 5, 4, 3, 2, 1]);
        let a1 = v.index_of_name("a1").unwrap();
        assert_eq!(v.place(a1, false), (0, 7));
    }
}
