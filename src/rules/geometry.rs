//! Board geometry: one model for every board (the dark squares of 8x8, 10x10, 12x12 and other
//! even boards, and all 64 squares of the Turkish board): the internal bit layout, directions,
//! rays and rows, and the PDN numbering and algebraic naming of each `GameType` layout.
//!
//! # The internal frame
//!
//! Every board is stored in one canonical frame: White at the bottom moving up, row 0 at the
//! top, column 0 at the left, and (for diagonal boards) the playing squares are those with
//! `row + column` odd, i.e. the bottom-left corner is a playing square (FMJD A1 art. 2.4).
//! Boards whose real bottom-left corner is light (Italian, Spanish, Portuguese) are mirrored
//! left-right into this frame; the rules are symmetric, only the numbering knows the mirror.
//!
//! On diagonal boards the playing squares are numbered row by row from the top-left,
//! `s = row * (W/2) + col / 2` (the international numbering minus one), and square `s` lives on
//! bit `s + s / W`: one unused "ghost" bit after every pair of rows. With that layout the four
//! diagonal neighbours of any square are at fixed bit offsets (`-(W/2+1)`, `-(W/2)`, `+W/2`,
//! `+(W/2+1)`) and a step off the board lands on a ghost bit or outside the board mask.

use std::sync::LazyLock;

use super::bits::Bits;
use super::color::Color;

/// Marker for "no square" in byte tables.
pub const NONE: u8 = u8::MAX;

/// Largest number of internal bits any geometry uses (the size of per-bit tables).
pub const MAX_BITS: usize = 128;

/// The shape of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Play on the dark squares of a `width` x `height` board (both even).
    Diagonal {
        /// Number of columns.
        width: u8,
        /// Number of rows.
        height: u8,
    },
    /// Play on every square of a `width` x `height` board (Turkish draughts).
    Full {
        /// Number of columns.
        width: u8,
        /// Number of rows.
        height: u8,
    },
}

impl Shape {
    /// The 8x8 board of English, Russian, Brazilian, Italian, … draughts.
    pub const DIAGONAL_8: Shape = Shape::square_diagonal(8);
    /// The 10x10 board of international and Frisian draughts.
    pub const DIAGONAL_10: Shape = Shape::square_diagonal(10);
    /// The 12x12 board of Canadian draughts.
    pub const DIAGONAL_12: Shape = Shape::square_diagonal(12);
    /// The full 8x8 board of Turkish draughts.
    pub const FULL_8: Shape = Shape::Full {
        width: 8,
        height: 8,
    };

    /// Play on the dark squares of a square board of `side` x `side`.
    const fn square_diagonal(side: u8) -> Shape {
        Shape::Diagonal {
            width: side,
            height: side,
        }
    }

    /// Number of columns.
    pub const fn width(self) -> u8 {
        match self {
            Shape::Diagonal { width, .. } | Shape::Full { width, .. } => width,
        }
    }

    /// Number of rows.
    pub const fn height(self) -> u8 {
        match self {
            Shape::Diagonal { height, .. } | Shape::Full { height, .. } => height,
        }
    }

    /// True for boards played on the dark squares only.
    pub const fn is_diagonal(self) -> bool {
        matches!(self, Shape::Diagonal { .. })
    }

    /// Number of playing squares.
    pub const fn squares(self) -> usize {
        match self {
            Shape::Diagonal { width, height } => width as usize * height as usize / 2,
            Shape::Full { width, height } => width as usize * height as usize,
        }
    }

    /// Number of internal bits (including ghosts) the layout uses.
    pub const fn bits(self) -> usize {
        match self {
            Shape::Diagonal { width, height } => {
                let n = width as usize * height as usize / 2;
                n + (n - 1) / width as usize + 1
            }
            Shape::Full { width, height } => width as usize * height as usize,
        }
    }
}

/// One of the eight directions on the internal board (White moves towards `N`).
///
/// On diagonal boards the orthogonal directions step two rows or two columns, to the nearest
/// square of the same colour (Frisian captures); on the full board they step one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Dir {
    /// Up-left.
    NW = 0,
    /// Down-right.
    SE = 1,
    /// Up-right.
    NE = 2,
    /// Down-left.
    SW = 3,
    /// Up.
    N = 4,
    /// Down.
    S = 5,
    /// Left.
    W = 6,
    /// Right.
    E = 7,
}

impl Dir {
    /// All eight directions, opposite pairs adjacent.
    pub const ALL: [Dir; 8] = [
        Dir::NW,
        Dir::SE,
        Dir::NE,
        Dir::SW,
        Dir::N,
        Dir::S,
        Dir::W,
        Dir::E,
    ];

    /// The direction pointing the other way.
    #[inline(always)]
    pub const fn opposite(self) -> Dir {
        Dir::ALL[(self as usize) ^ 1]
    }

    /// Bit of this direction in a [`DirSet`].
    #[inline(always)]
    pub const fn mask(self) -> u8 {
        1 << (self as u8)
    }

    /// True for the four diagonal directions.
    pub const fn is_diagonal(self) -> bool {
        (self as u8) < 4
    }

    /// True if a step in this direction goes to a higher bit (down or right: `SE`, `SW`,
    /// `S`, `E`, the odd numbers). Every geometry lays its squares out row by row from the
    /// top-left, so the sign of a direction's bit offset is the direction's own, and a
    /// shift by a direction known at compile time needs no test of the offset's sign.
    #[inline(always)]
    pub const fn to_higher_bits(self) -> bool {
        (self as u8) & 1 == 1
    }

    /// (row, column) step on a board of the given shape.
    pub const fn delta(self, shape: Shape) -> (i32, i32) {
        let o = if shape.is_diagonal() { 2 } else { 1 };
        match self {
            Dir::NW => (-1, -1),
            Dir::SE => (1, 1),
            Dir::NE => (-1, 1),
            Dir::SW => (1, -1),
            Dir::N => (-o, 0),
            Dir::S => (o, 0),
            Dir::W => (0, -o),
            Dir::E => (0, o),
        }
    }
}

/// A set of directions (bit `d` = `Dir` number `d`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct DirSet(pub u8);

impl DirSet {
    /// No direction.
    pub const NONE: DirSet = DirSet(0);
    /// The four diagonals.
    pub const DIAGONAL: DirSet = DirSet(0x0f);
    /// The four orthogonals.
    pub const ORTHOGONAL: DirSet = DirSet(0xf0);
    /// All eight directions.
    pub const ALL: DirSet = DirSet(0xff);

    /// True if `d` is in the set.
    #[inline(always)]
    pub const fn has(self, d: Dir) -> bool {
        self.0 & d.mask() != 0
    }

    /// Union.
    pub const fn with(self, other: DirSet) -> DirSet {
        DirSet(self.0 | other.0)
    }

    /// The set with every direction mirrored top-to-bottom (White's forward to Black's):
    /// NW and SW, NE and SE, N and S swap; W and E stay.
    #[inline(always)]
    pub const fn flipped(self) -> DirSet {
        // Bits: 0 NW, 1 SE, 2 NE, 3 SW, 4 N, 5 S, 6 W, 7 E. The low nibble is reversed
        // (0<->3, 1<->2), bits 4 and 5 swap, bits 6 and 7 stay.
        const REVERSE: [u8; 16] = [0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15];
        let x = self.0;
        DirSet(REVERSE[(x & 15) as usize] | ((x >> 1) & 0x10) | ((x << 1) & 0x20) | (x & 0xc0))
    }

    /// The directions, in `Dir::ALL` order.
    #[inline(always)]
    pub fn iter(self) -> DirIter {
        DirIter(self.0)
    }
}

/// Iterator over a [`DirSet`].
#[derive(Clone, Copy, Debug)]
pub struct DirIter(u8);

impl Iterator for DirIter {
    type Item = Dir;

    #[inline(always)]
    fn next(&mut self) -> Option<Dir> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(Dir::ALL[i as usize])
        }
    }
}

/// The internal layout of one board shape: bits, neighbours, rays and rows.
///
/// Built once per shape and shared (see [`Spec::geometry`](super::Spec::geometry)); all
/// tables are indexed by internal bit.
#[derive(Debug)]
pub struct Geometry<B> {
    /// The board shape.
    pub shape: Shape,
    /// Every playing square.
    pub mask: B,
    width: u8,
    height: u8,
    bit_of: Vec<u8>,
    square_of: [u8; MAX_BITS],
    coord: [(u8, u8); MAX_BITS],
    at: Vec<u8>,
    shift: [i32; 8],
    from: [B; 8],
    rays: Box<[[B; 8]; MAX_BITS]>,
    /// For each square and direction: the square jumped over and the landing square of a
    /// short jump, or `NONE` twice when the landing square is off the board.
    jumps: Box<[[(u8, u8); 8]; MAX_BITS]>,
    rows: Vec<B>,
    /// The crowning rows of White and Black (`rows`' first and last), read by index of the
    /// colour: no bounds check where the replay asks every ply.
    promotion: [B; 2],
}

impl<B: Bits> Geometry<B> {
    /// Build the layout of a shape.
    ///
    /// # Panics
    ///
    /// If the shape needs more bits than `B` holds or has odd dimensions: a programming
    /// error, never caused by input data (shapes are fixed by the variant table).
    pub fn new(shape: Shape) -> Self {
        let (w, h) = (shape.width() as usize, shape.height() as usize);
        assert!(w.is_multiple_of(2) && h.is_multiple_of(2) && w >= 4 && h >= 4);
        assert!(shape.bits() <= B::CAPACITY as usize && shape.bits() <= MAX_BITS);
        let n = shape.squares();
        let mut bit_of = vec![NONE; n];
        let mut square_of = [NONE; MAX_BITS];
        let mut coord = [(NONE, NONE); MAX_BITS];
        let mut at = vec![NONE; w * h];
        let mut mask = B::ZERO;
        for r in 0..h {
            for c in 0..w {
                let (s, b) = match shape {
                    Shape::Diagonal { .. } => {
                        if (r + c) % 2 == 0 {
                            continue;
                        }
                        let s = r * (w / 2) + c / 2;
                        (s, s + s / w)
                    }
                    Shape::Full { .. } => (r * w + c, r * w + c),
                };
                bit_of[s] = b as u8;
                square_of[b] = s as u8;
                coord[b] = (r as u8, c as u8);
                at[r * w + c] = b as u8;
                mask |= B::bit(b as u32);
            }
        }
        let bit_at = |r: i32, c: i32| -> Option<u8> {
            if r < 0 || c < 0 || r >= h as i32 || c >= w as i32 {
                return None;
            }
            let b = at[r as usize * w + c as usize];
            (b != NONE).then_some(b)
        };
        let mut shift = [0i32; 8];
        let mut from = [B::ZERO; 8];
        let mut rays = Box::new([[B::ZERO; 8]; MAX_BITS]);
        for d in Dir::ALL {
            let (dr, dc) = d.delta(shape);
            let mut seen: Option<i32> = None;
            for b in mask.iter() {
                let (r, c) = coord[b as usize];
                let (r, c) = (r as i32, c as i32);
                if let Some(t) = bit_at(r + dr, c + dc) {
                    let off = t as i32 - b as i32;
                    // One fixed offset per direction is what makes shifts work.
                    assert!(seen.is_none_or(|o| o == off), "irregular layout");
                    seen = Some(off);
                    from[d as usize] |= B::bit(b);
                }
                let mut ray = B::ZERO;
                let (mut rr, mut cc) = (r + dr, c + dc);
                while let Some(t) = bit_at(rr, cc) {
                    ray |= B::bit(t as u32);
                    rr += dr;
                    cc += dc;
                }
                rays[b as usize][d as usize] = ray;
            }
            let off = seen.unwrap_or(0);
            assert!(
                off == 0 || (off > 0) == d.to_higher_bits(),
                "direction against its sign"
            );
            shift[d as usize] = off;
        }
        let mut jumps = Box::new([[(NONE, NONE); 8]; MAX_BITS]);
        for b in mask.iter() {
            let (r, c) = coord[b as usize];
            for d in Dir::ALL {
                let (dr, dc) = d.delta(shape);
                let (r, c) = (r as i32, c as i32);
                if let (Some(over), Some(to)) =
                    (bit_at(r + dr, c + dc), bit_at(r + 2 * dr, c + 2 * dc))
                {
                    jumps[b as usize][d as usize] = (over, to);
                }
            }
        }
        let rows = (0..h)
            .map(|r| {
                (0..w)
                    .filter_map(|c| bit_at(r as i32, c as i32))
                    .fold(B::ZERO, |m, b| m | B::bit(b as u32))
            })
            .collect::<Vec<B>>();
        let promotion = [rows[0], rows[h - 1]];
        Geometry {
            shape,
            mask,
            width: w as u8,
            height: h as u8,
            bit_of,
            square_of,
            coord,
            at,
            shift,
            from,
            rays,
            jumps,
            rows,
            promotion,
        }
    }

    /// Number of columns.
    #[inline(always)]
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Number of rows.
    #[inline(always)]
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Number of playing squares.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.bit_of.len()
    }

    /// Always false: a board has squares.
    pub fn is_empty(&self) -> bool {
        self.bit_of.is_empty()
    }

    /// Internal bit of canonical square `s` (0-based, row-major from the top-left).
    #[inline(always)]
    pub fn bit_of(&self, s: usize) -> u8 {
        self.bit_of[s]
    }

    /// Canonical square of a bit, or [`NONE`].
    #[inline(always)]
    pub fn square_of(&self, bit: u32) -> u8 {
        self.square_of[bit as usize & (MAX_BITS - 1)]
    }

    /// (row, column) of a bit in the internal frame.
    #[inline(always)]
    pub fn coord(&self, bit: u32) -> (u8, u8) {
        self.coord[bit as usize & (MAX_BITS - 1)]
    }

    /// Bit of the square at (row, column) of the internal frame, if it is a playing square.
    pub fn at(&self, row: i32, col: i32) -> Option<u32> {
        if row < 0 || col < 0 || row >= self.height as i32 || col >= self.width as i32 {
            return None;
        }
        let b = self.at[row as usize * self.width as usize + col as usize];
        (b != NONE).then_some(b as u32)
    }

    /// Bit offset of one step in direction `d`.
    #[inline(always)]
    pub fn shift(&self, d: Dir) -> i32 {
        self.shift[d as usize]
    }

    /// The squares from which one step in direction `d` stays on the board.
    #[inline(always)]
    pub fn can_step(&self, d: Dir) -> B {
        self.from[d as usize]
    }

    /// Every square of `set` moved one step in direction `d` (squares stepping off vanish).
    #[inline(always)]
    pub fn step(&self, set: B, d: Dir) -> B {
        let set = set & self.from[d as usize];
        let s = self.shift[d as usize];
        if d.to_higher_bits() {
            set.shift_higher(s.unsigned_abs())
        } else {
            set.shift_lower(s.unsigned_abs())
        }
    }

    /// The neighbour of `bit` in direction `d`, if any.
    #[inline(always)]
    pub fn neighbour(&self, bit: u32, d: Dir) -> Option<u32> {
        if self.from[d as usize].has(bit) {
            Some((bit as i32 + self.shift[d as usize]) as u32)
        } else {
            None
        }
    }

    /// True if `to` is one step from `from` in one of the directions of `dirs`.
    #[inline(always)]
    pub fn is_step(&self, from: u32, to: u32, dirs: DirSet) -> bool {
        let off = to as i32 - from as i32;
        // The directions whose offset it is (compared all at once), then their edges.
        let mut m = 0u8;
        for (i, s) in self.shift.iter().enumerate() {
            m |= u8::from(*s == off) << i;
        }
        m &= dirs.0;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            if self.from[i].has(from) {
                return true;
            }
            m &= m - 1;
        }
        false
    }

    /// A short jump from `bit` in direction `d`: the square jumped over and the landing
    /// square, or `None` if the landing square is off the board.
    #[inline(always)]
    pub fn jump(&self, bit: u32, d: Dir) -> Option<(u32, u32)> {
        let (over, to) = self.jumps[bit as usize & (MAX_BITS - 1)][d as usize];
        (to != NONE).then_some((over as u32, to as u32))
    }

    /// The squares seen from `bit` in direction `d`, nearest first in bit order if `d` steps
    /// to higher bits (see [`Geometry::nearest`]); excludes `bit` itself.
    #[inline(always)]
    pub fn ray(&self, bit: u32, d: Dir) -> B {
        self.rays[bit as usize & (MAX_BITS - 1)][d as usize]
    }

    /// The square of `set` nearest to the ray origin, for a non-empty subset of a ray in `d`.
    #[inline(always)]
    pub fn nearest(&self, set: B, d: Dir) -> u32 {
        if d.to_higher_bits() {
            set.lowest()
        } else {
            set.highest()
        }
    }

    /// The squares of row `r` (0 = top).
    #[inline(always)]
    pub fn row(&self, r: usize) -> B {
        self.rows[r]
    }

    /// The row on which men of `color` are crowned: the top row for White, bottom for Black.
    #[inline(always)]
    pub fn promotion_row(&self, color: Color) -> B {
        self.promotion[color.index()]
    }

    /// The long diagonal ("main road"): the playing squares from the bottom-left corner of
    /// the internal frame up to the right (a1–h8 on the 8x8 board, 46–5 on the 10x10 one).
    /// Empty on a board whose bottom-left corner is no playing square.
    pub fn long_diagonal(&self) -> B {
        let h = self.height as i32;
        let mut diag = B::ZERO;
        for r in 0..h {
            match self.at(r, h - 1 - r) {
                Some(b) => diag |= B::bit(b),
                None if self.shape.is_diagonal() => return B::ZERO,
                None => {}
            }
        }
        diag
    }

    /// Every playing square, lowest bit first.
    pub fn squares(&self) -> impl Iterator<Item = u32> + '_ {
        self.mask.iter()
    }

    /// The direction leading from `a` to `b` along a line of this board (diagonal, or
    /// orthogonal), if they lie on one.
    pub fn direction(&self, a: u32, b: u32) -> Option<Dir> {
        let on_board = |x: u32| x < B::CAPACITY && self.mask.has(x);
        if on_board(a) && on_board(b) {
            // The line through both squares lies on the board: `b` is on a ray of `a`.
            let rays = &self.rays[a as usize & (MAX_BITS - 1)];
            return Dir::ALL.into_iter().find(|d| rays[*d as usize].has(b));
        }
        self.direction_by_coords(a, b)
    }

    /// [`Self::direction`] from the squares' coordinates.
    fn direction_by_coords(&self, a: u32, b: u32) -> Option<Dir> {
        let (ra, ca) = self.coord(a);
        let (rb, cb) = self.coord(b);
        let dr = rb as i32 - ra as i32;
        let dc = cb as i32 - ca as i32;
        if dr == 0 && dc == 0 {
            return None;
        }
        Dir::ALL.into_iter().find(|d| {
            let (sr, sc) = d.delta(self.shape);
            // Same line, same way: (dr, dc) is a positive multiple of (sr, sc).
            let k = if sr != 0 { dr / sr } else { dc / sc };
            k > 0 && k * sr == dr && k * sc == dc
        })
    }
}

macro_rules! shared_geometry {
    ($name:ident, $bits:ty, $shape:expr) => {
        /// The shared layout of this board shape.
        #[inline]
        pub(crate) fn $name() -> &'static Geometry<$bits> {
            static G: LazyLock<Geometry<$bits>> = LazyLock::new(|| Geometry::new($shape));
            &G
        }
    };
}

shared_geometry!(diagonal_8, u64, Shape::DIAGONAL_8);
shared_geometry!(diagonal_10, u64, Shape::DIAGONAL_10);
shared_geometry!(diagonal_12, u128, Shape::DIAGONAL_12);
shared_geometry!(full_8, u64, Shape::FULL_8);

/// How squares are written: numbers or algebraic coordinates (`GameType` notation letter).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotationKind {
    /// `N`: squares numbered 1..n.
    Numeric,
    /// `A`: squares named like chess, `a1`..
    Algebraic,
}

/// The board layout a `GameType` tag describes: the fields after the type number
/// (PDN 3.0 `gametype.rst`, docs/pdn.md#gametype).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The colour that moves first; the numbering is seen from its side of the board.
    pub first: Color,
    /// Number of columns.
    pub width: u8,
    /// Number of rows.
    pub height: u8,
    /// Numeric or algebraic squares.
    pub notation: NotationKind,
    /// Where square 1 (or `a1`) lies seen from the first mover: 0 bottom-left,
    /// 1 bottom-right, 2 top-left, 3 top-right.
    pub corner: u8,
    /// True when the first mover's bottom-left corner is not a playing square.
    pub invert: bool,
    /// True when every square is a playing square (Turkish).
    pub full: bool,
}

/// What an algebraic coordinate denotes on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// A playing square, as an internal bit.
    Square(u32),
    /// A square of the board that is not played on.
    NotPlaying,
    /// Outside the board.
    OffBoard,
}

/// PDN square names of one layout: numbers and algebraic coordinates to internal bits.
///
/// A layout always has both: the numbering of its `GameType` (or, for algebraic types, the
/// `N2` numbering from the first mover, which is what Russian and lidraughts numeric FENs use),
/// and algebraic names (those of the `GameType`, or `A0` from the first mover, which is what
/// playstrategy uses for English checkers).
#[derive(Clone, Debug)]
pub struct Numbering {
    /// The layout.
    pub layout: Layout,
    num_to_bit: Vec<u8>,
    /// `num_to_bit` by number for the numbers below 64 (`NONE` for 0 and the numbers off
    /// the board): see [`Numbering::bit_of_small_number`].
    small: [u8; 64],
    bit_to_num: [u8; MAX_BITS],
    alg_to_bit: Vec<u8>,
    bit_to_alg: [(u8, u8); MAX_BITS],
}

impl Numbering {
    /// Build the names of a layout on its geometry.
    ///
    /// # Panics
    ///
    /// If the layout's size differs from the geometry's (a programming error: layouts are
    /// checked against the variant's board before this is called).
    pub fn new<B: Bits>(layout: Layout, geo: &Geometry<B>) -> Numbering {
        let (w, h) = (layout.width as i32, layout.height as i32);
        assert_eq!((w as u8, h as u8), (geo.width(), geo.height()));
        // Playing squares in the first mover's frame (row 0 at the top).
        let playable = |r: i32, c: i32| -> bool {
            layout.full || ((r + c) % 2 == (h - 1) % 2) != layout.invert
        };
        // From the first mover's frame to the internal frame.
        let mirror = !layout.full && layout.invert;
        let to_internal = |r: i32, c: i32| -> Option<u32> {
            let (r, c) = match layout.first {
                Color::White => (r, c),
                Color::Black => (h - 1 - r, w - 1 - c),
            };
            let c = if mirror { w - 1 - c } else { c };
            geo.at(r, c)
        };
        let corner_rc = |corner: u8, row: i32, col: i32| -> (i32, i32) {
            // `row` counted away from the corner's row, `col` away from the corner's side.
            let r = if corner < 2 { h - 1 - row } else { row };
            let c = if corner.is_multiple_of(2) {
                col
            } else {
                w - 1 - col
            };
            (r, c)
        };
        let num_corner = match layout.notation {
            NotationKind::Numeric => layout.corner,
            NotationKind::Algebraic => 2,
        };
        let alg_corner = match layout.notation {
            NotationKind::Algebraic => layout.corner,
            NotationKind::Numeric => 0,
        };
        // The playing squares counted from `corner`, row by row away from it: the row, the
        // column and the internal bit of each.
        let walk = |corner: u8| {
            (0..h)
                .flat_map(move |row| (0..w).map(move |col| (row, col)))
                .filter_map(move |(row, col)| {
                    let (r, c) = corner_rc(corner, row, col);
                    if !playable(r, c) {
                        return None;
                    }
                    let bit = to_internal(r, c).expect("layout parity matches the geometry");
                    Some((row, col, bit))
                })
        };
        let mut num_to_bit = Vec::with_capacity(geo.len());
        let mut bit_to_num = [0u8; MAX_BITS];
        for (_, _, bit) in walk(num_corner) {
            num_to_bit.push(bit as u8);
            bit_to_num[bit as usize] = num_to_bit.len() as u8;
        }
        let mut small = [NONE; 64];
        for (n, &bit) in num_to_bit.iter().enumerate().take(63) {
            small[n + 1] = bit;
        }
        let mut alg_to_bit = vec![NONE; (w * h) as usize];
        let mut bit_to_alg = [(NONE, NONE); MAX_BITS];
        for (rank, file, bit) in walk(alg_corner) {
            alg_to_bit[(file * h + rank) as usize] = bit as u8;
            bit_to_alg[bit as usize] = (file as u8, rank as u8);
        }
        Numbering {
            layout,
            num_to_bit,
            small,
            bit_to_num,
            alg_to_bit,
            bit_to_alg,
        }
    }

    /// Number of numbered squares.
    pub fn len(&self) -> usize {
        self.num_to_bit.len()
    }

    /// Always false.
    pub fn is_empty(&self) -> bool {
        self.num_to_bit.is_empty()
    }

    /// Internal bit of square number `n` (1-based).
    #[inline]
    pub fn bit_of_number(&self, n: u32) -> Option<u32> {
        if n == 0 || n as usize > self.num_to_bit.len() {
            None
        } else {
            Some(self.num_to_bit[n as usize - 1] as u32)
        }
    }

    /// [`Numbering::bit_of_number`] of a number below 64 (`n & 63`: the replay's fast lane
    /// reads its squares' numbers from six bits each), from a table of 64 entries: no bounds
    /// check. A number of 64 or more is taken modulo 64 (not `None`): callers give six bits.
    #[inline(always)]
    pub fn bit_of_small_number(&self, n: u32) -> Option<u32> {
        let bit = self.small[n as usize & 63];
        (bit != NONE).then_some(u32::from(bit))
    }

    /// Square number of an internal bit (1-based).
    #[inline]
    pub fn number_of_bit(&self, bit: u32) -> u32 {
        self.bit_to_num[bit as usize & (MAX_BITS - 1)] as u32
    }

    /// The algebraic square `file`/`rank` (0-based: `a1` = (0, 0)).
    pub fn bit_of_algebraic(&self, file: u32, rank: u32) -> Lookup {
        let (w, h) = (self.layout.width as u32, self.layout.height as u32);
        if file >= w || rank >= h {
            return Lookup::OffBoard;
        }
        match self.alg_to_bit[(file * h + rank) as usize] {
            NONE => Lookup::NotPlaying,
            b => Lookup::Square(b as u32),
        }
    }

    /// Algebraic (file, rank) of an internal bit, 0-based.
    pub fn algebraic_of_bit(&self, bit: u32) -> (u8, u8) {
        self.bit_to_alg[bit as usize & (MAX_BITS - 1)]
    }

    /// The algebraic name of a bit, e.g. `c3`.
    pub fn algebraic_name(&self, bit: u32) -> String {
        let (f, r) = self.algebraic_of_bit(bit);
        format!("{}{}", (b'a' + f) as char, r as u32 + 1)
    }

    /// The square's name in the layout's own notation.
    pub fn name(&self, bit: u32) -> String {
        match self.layout.notation {
            NotationKind::Numeric => self.number_of_bit(bit).to_string(),
            NotationKind::Algebraic => self.algebraic_name(bit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(first: Color, w: u8, kind: NotationKind, corner: u8, invert: bool) -> Layout {
        Layout {
            first,
            width: w,
            height: w,
            notation: kind,
            corner,
            invert,
            full: false,
        }
    }

    #[test]
    fn ghost_layout_has_fixed_diagonal_offsets() {
        let g = diagonal_10();
        assert_eq!(g.len(), 50);
        assert_eq!(
            (
                g.shift(Dir::NW),
                g.shift(Dir::NE),
                g.shift(Dir::SW),
                g.shift(Dir::SE)
            ),
            (-6, -5, 5, 6)
        );
        assert_eq!(g.mask.count(), 50);
        let g8 = diagonal_8();
        assert_eq!((g8.shift(Dir::SW), g8.shift(Dir::SE)), (4, 5));
        let g12 = diagonal_12();
        assert_eq!((g12.shift(Dir::SW), g12.shift(Dir::SE)), (6, 7));
        assert_eq!(g12.mask.count(), 72);
        assert_eq!(full_8().mask.count(), 64);
    }

    #[test]
    fn long_diagonal_a1_h8() {
        // 8x8 (numeric 1 = b8, 29 = a1): a1 29, b2 25, c3 22, d4 18, e5 15, f6 11, g7 8, h8 4.
        let g = diagonal_8();
        let n = Numbering::new(layout(Color::White, 8, NotationKind::Numeric, 2, false), g);
        let want = [29, 25, 22, 18, 15, 11, 8, 4]
            .iter()
            .fold(0u64, |m, &k| m | u64::bit(n.bit_of_number(k).unwrap()));
        assert_eq!(g.long_diagonal(), want);
        assert_eq!(n.algebraic_name(n.bit_of_number(29).unwrap()), "a1");
        assert_eq!(n.algebraic_name(n.bit_of_number(4).unwrap()), "h8");
        // 10x10: 46 to 5.
        let g = diagonal_10();
        let n = Numbering::new(layout(Color::White, 10, NotationKind::Numeric, 2, false), g);
        let d = g.long_diagonal();
        assert_eq!(d.count(), 10);
        assert!(d.has(n.bit_of_number(46).unwrap()) && d.has(n.bit_of_number(5).unwrap()));
    }

    #[test]
    fn international_numbering_rule_2_6() {
        // FMJD A1 art. 2.6: 1 is top-left dark square from White, 46 bottom-left, 5 top-right.
        let g = diagonal_10();
        let n = Numbering::new(layout(Color::White, 10, NotationKind::Numeric, 2, false), g);
        let rc = |num| g.coord(n.bit_of_number(num).unwrap());
        assert_eq!(rc(1), (0, 1));
        assert_eq!(rc(5), (0, 9));
        assert_eq!(rc(6), (1, 0));
        assert_eq!(rc(46), (9, 0));
        assert_eq!(rc(50), (9, 8));
        assert_eq!(n.algebraic_name(n.bit_of_number(46).unwrap()), "a1");
    }

    #[test]
    fn english_numbering_equals_international_style_8x8() {
        // The PDN 3.0 GameType: `21,B,8,8,N1,0` puts the same numbers on the same squares as N2 from White.
        let g = diagonal_8();
        let eng = Numbering::new(layout(Color::Black, 8, NotationKind::Numeric, 1, false), g);
        let n2 = Numbering::new(layout(Color::White, 8, NotationKind::Numeric, 2, false), g);
        for k in 1..=32 {
            assert_eq!(eng.bit_of_number(k), n2.bit_of_number(k), "square {k}");
        }
        assert_eq!(g.coord(eng.bit_of_number(1).unwrap()), (0, 1)); // b8
        assert_eq!(g.coord(eng.bit_of_number(29).unwrap()), (7, 0)); // a1
        // Algebraic names for English are seen from the first mover (Black): its a1 is our h8.
        assert_eq!(eng.algebraic_name(eng.bit_of_number(4).unwrap()), "a1");
    }

    #[test]
    fn italian_and_spanish_numbering_are_mirrored() {
        let g = diagonal_8();
        // Italian 22,W,8,8,N2,1: 1 = a8 on a board whose bottom-left is light.
        let it = Numbering::new(layout(Color::White, 8, NotationKind::Numeric, 2, true), g);
        // Mirrored into the internal frame: square 1 at the top-right.
        assert_eq!(g.coord(it.bit_of_number(1).unwrap()), (0, 7));
        assert_eq!(g.coord(it.bit_of_number(32).unwrap()), (7, 0));
        // Spanish 24,W,8,8,N1,1: 1 = h1 (White's near right); 5 = g2.
        let sp = Numbering::new(layout(Color::White, 8, NotationKind::Numeric, 1, true), g);
        assert_eq!(g.coord(sp.bit_of_number(1).unwrap()), (7, 0));
        assert_eq!(g.coord(sp.bit_of_number(5).unwrap()), (6, 1));
    }

    #[test]
    fn thai_numbering_starts_at_g1() {
        let g = diagonal_8();
        let th = Numbering::new(layout(Color::Black, 8, NotationKind::Numeric, 2, false), g);
        assert_eq!(g.coord(th.bit_of_number(1).unwrap()), (7, 6)); // g1
        assert_eq!(g.coord(th.bit_of_number(4).unwrap()), (7, 0)); // a1
        assert_eq!(g.coord(th.bit_of_number(29).unwrap()), (0, 7)); // h8
    }

    #[test]
    fn russian_algebraic_and_numeric() {
        let g = diagonal_8();
        let ru = Numbering::new(
            layout(Color::White, 8, NotationKind::Algebraic, 0, false),
            g,
        );
        assert_eq!(
            ru.bit_of_algebraic(0, 0),
            Lookup::Square(g.at(7, 0).unwrap())
        );
        assert_eq!(ru.bit_of_algebraic(1, 0), Lookup::NotPlaying); // b1 is light
        assert_eq!(ru.bit_of_algebraic(8, 0), Lookup::OffBoard);
        // Numeric squares: N2 from White (1 = b8, 29 = a1, 32 = g1).
        assert_eq!(ru.algebraic_name(ru.bit_of_number(1).unwrap()), "b8");
        assert_eq!(ru.algebraic_name(ru.bit_of_number(29).unwrap()), "a1");
        assert_eq!(ru.algebraic_name(ru.bit_of_number(32).unwrap()), "g1");
    }

    #[test]
    fn direction_follows_the_rays_as_the_coordinates_say() {
        fn check<B: Bits>(g: &Geometry<B>) {
            for a in g.mask.iter() {
                for b in g.mask.iter() {
                    assert_eq!(g.direction(a, b), g.direction_by_coords(a, b), "{a} {b}");
                }
            }
        }
        check(diagonal_8());
        check(diagonal_10());
        check(diagonal_12());
        check(full_8());
    }

    #[test]
    fn is_step_is_a_neighbour_in_one_of_the_directions() {
        fn check<B: Bits>(g: &Geometry<B>) {
            for dirs in [DirSet(0x05), DirSet(0x0a), DirSet::DIAGONAL, DirSet(0xff)] {
                for a in g.mask.iter() {
                    for b in g.mask.iter() {
                        let by_neighbour = dirs.iter().any(|d| g.neighbour(a, d) == Some(b));
                        assert_eq!(g.is_step(a, b, dirs), by_neighbour, "{a} {b} {dirs:?}");
                    }
                }
            }
        }
        check(diagonal_8());
        check(diagonal_10());
        check(diagonal_12());
        check(full_8());
    }

    #[test]
    fn rays_and_steps() {
        let g = diagonal_10();
        let n = Numbering::new(layout(Color::White, 10, NotationKind::Numeric, 2, false), g);
        let b = |k| n.bit_of_number(k).unwrap();
        // The long diagonal from 46 to 5.
        let ray: Vec<u32> = g
            .ray(b(46), Dir::NE)
            .iter()
            .map(|x| n.number_of_bit(x))
            .collect();
        let mut expect = vec![41, 37, 32, 28, 23, 19, 14, 10, 5];
        expect.sort();
        let mut got = ray.clone();
        got.sort();
        assert_eq!(got, expect);
        assert_eq!(g.neighbour(b(46), Dir::NW), None);
        assert_eq!(g.neighbour(b(46), Dir::NE), Some(b(41)));
        // Frisian orthogonal neighbours: two columns / two rows away.
        assert_eq!(g.neighbour(b(28), Dir::E), Some(b(29)));
        assert_eq!(g.neighbour(b(28), Dir::N), Some(b(18)));
        assert_eq!(g.neighbour(b(30), Dir::E), None);
        assert_eq!(g.neighbour(b(26), Dir::W), None);
    }

    #[test]
    fn flipping_directions() {
        assert_eq!(
            DirSet(0b101).flipped(),
            DirSet(Dir::SW.mask() | Dir::SE.mask())
        );
        assert_eq!(DirSet::ALL.flipped(), DirSet::ALL);
        for d in Dir::ALL {
            let f = DirSet(d.mask()).flipped();
            let (dr, dc) = d.delta(Shape::DIAGONAL_10);
            let e = Dir::ALL
                .into_iter()
                .find(|e| e.delta(Shape::DIAGONAL_10) == (-dr, dc))
                .unwrap();
            assert_eq!(f, DirSet(e.mask()), "{d:?}");
        }
    }
}
