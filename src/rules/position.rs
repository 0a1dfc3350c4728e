//! Positions, moves and move lists: the piece placement, the side to move, making a move.

use super::bits::Bits;
use super::color::Color;
use super::geometry::NONE;
use super::variant::Rules;

/// Man or king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A man (pawn, schijf, pion).
    Man,
    /// A king (dam, dame, queen).
    King,
}

/// A piece: colour and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}

/// Frisian bookkeeping: the king that made the side's last run of non-capturing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingRun {
    /// Internal bit of that king, or [`NONE`].
    pub square: u8,
    /// Consecutive non-capturing moves it made.
    pub count: u8,
}

impl KingRun {
    /// No run.
    pub const NONE: KingRun = KingRun {
        square: NONE,
        count: 0,
    };
}

impl Default for KingRun {
    fn default() -> Self {
        KingRun::NONE
    }
}

/// A position: where the pieces stand and who is to move.
///
/// Squares are internal bits of the variant's [`Geometry`](super::Geometry); the position
/// itself does not know its variant. It is validated on creation from a setup (see
/// [`fen`](super::fen)) and kept consistent by [`Position::play`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position<B> {
    pieces: [B; 2],
    kings: B,
    side: Color,
    runs: [KingRun; 2],
}

impl<B: Bits> Position<B> {
    /// The same position with another bit-set type (the squares of `self` must fit in it).
    pub(crate) fn with_bits<C: Bits>(&self) -> Position<C> {
        let conv = |b: B| -> C {
            let mut out = C::ZERO;
            for i in b.iter() {
                if i < C::CAPACITY {
                    out |= C::bit(i);
                }
            }
            out
        };
        Position {
            pieces: [conv(self.pieces[0]), conv(self.pieces[1])],
            kings: conv(self.kings),
            side: self.side,
            runs: self.runs,
        }
    }

    /// An empty board with `side` to move.
    pub fn empty(side: Color) -> Self {
        Position {
            pieces: [B::ZERO; 2],
            kings: B::ZERO,
            side,
            runs: [KingRun::NONE; 2],
        }
    }

    /// Put a piece on a square (replacing whatever stood there).
    pub fn put(&mut self, bit: u32, piece: Piece) {
        self.remove(bit);
        self.pieces[piece.color.index()] |= B::bit(bit);
        if piece.role == Role::King {
            self.kings |= B::bit(bit);
        }
    }

    /// Remove whatever stands on a square.
    pub fn remove(&mut self, bit: u32) {
        let m = !B::bit(bit);
        self.pieces[0] &= m;
        self.pieces[1] &= m;
        self.kings &= m;
    }

    /// The side to move.
    #[inline(always)]
    pub fn side(&self) -> Color {
        self.side
    }

    /// Set the side to move.
    pub fn set_side(&mut self, side: Color) {
        self.side = side;
    }

    /// All pieces of a side.
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> B {
        self.pieces[color.index()]
    }

    /// All kings (both sides).
    #[inline(always)]
    pub fn kings(&self) -> B {
        self.kings
    }

    /// The kings of a side.
    #[inline(always)]
    pub fn kings_of(&self, color: Color) -> B {
        self.pieces[color.index()] & self.kings
    }

    /// The men of a side.
    #[inline(always)]
    pub fn men_of(&self, color: Color) -> B {
        self.pieces[color.index()] & !self.kings
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> B {
        self.pieces[0] | self.pieces[1]
    }

    /// The pieces of the side to move, those of the other side, and every king: what the
    /// replay's fast lane holds in registers, swapping the first two each ply.
    #[inline(always)]
    pub fn sides(&self) -> (B, B, B) {
        let us = self.side.index();
        (self.pieces[us], self.pieces[1 - us], self.kings)
    }

    /// This position's king-move bookkeeping with `side` to move, `us` its pieces, `them`
    /// the other side's and `kings` every king (see [`Position::sides`]).
    #[inline(always)]
    pub fn with_sides(&self, side: Color, us: B, them: B, kings: B) -> Self {
        let mut pieces = [us, them];
        if side == Color::Black {
            pieces = [them, us];
        }
        Position {
            pieces,
            kings,
            side,
            runs: self.runs,
        }
    }

    /// The piece on a square.
    pub fn piece_at(&self, bit: u32) -> Option<Piece> {
        let color = if self.pieces[0].has(bit) {
            Color::White
        } else if self.pieces[1].has(bit) {
            Color::Black
        } else {
            return None;
        };
        let role = if self.kings.has(bit) {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece { color, role })
    }

    /// Frisian king-move bookkeeping of a side.
    pub fn king_run(&self, color: Color) -> KingRun {
        self.runs[color.index()]
    }

    /// Set the Frisian king-move bookkeeping of a side (from a FEN extension).
    pub fn set_king_run(&mut self, color: Color, run: KingRun) {
        self.runs[color.index()] = run;
    }

    /// The same placement and side to move, without move-history counters: the key for
    /// repetition ("same position, same player to move").
    pub fn placement_key(&self) -> (B, B, B, Color) {
        (self.pieces[0], self.pieces[1], self.kings, self.side)
    }

    /// Play a move of the side to move, unchecked: the move must come from the legal
    /// (or relaxed) move generator for this position. Passing anything else gives a
    /// meaningless (but memory-safe) position.
    #[inline(always)]
    pub fn play(&mut self, m: &Move<B>, rules: &Rules) {
        let us = self.side.index();
        let them = 1 - us;
        let from = B::bit(m.from as u32);
        let to = B::bit(m.to as u32);
        let was_king = self.kings & from;
        // The captured pieces leave first: with immediate removal (Turkish, Thai) a king may
        // end its capture on the square of a piece it took earlier in the same move.
        self.pieces[them] &= !m.captured;
        self.kings &= !m.captured;
        self.pieces[us] = (self.pieces[us] & !from) | to;
        self.kings &= !from;
        if was_king.any() || m.promotes() {
            self.kings |= to;
        }
        if rules.same_king_limit > 0 {
            self.update_runs(m, was_king.any());
        }
        self.side = self.side.other();
    }

    fn update_runs(&mut self, m: &Move<B>, was_king: bool) {
        let us = self.side.index();
        let them = 1 - us;
        if was_king && m.captured.is_empty() {
            let run = &mut self.runs[us];
            if run.square == m.from {
                run.count = run.count.saturating_add(1);
            } else {
                run.count = 1;
            }
            run.square = m.to;
        } else {
            self.runs[us] = KingRun::NONE;
        }
        let r = self.runs[them];
        if r.square != NONE && m.captured.has(r.square as u32) {
            self.runs[them] = KingRun::NONE;
        }
    }

    /// The position after a move (see [`Position::play`]).
    #[inline(always)]
    #[must_use]
    pub fn after(&self, m: &Move<B>, rules: &Rules) -> Self {
        let mut p = *self;
        p.play(m, rules);
        p
    }

    /// The same position with the colours swapped and the board turned 180°, given the map
    /// from each bit to its rotated bit (a property test uses this: perft is invariant).
    pub fn flipped(&self, rotate: impl Fn(u32) -> u32) -> Self {
        let map = |set: B| set.iter().fold(B::ZERO, |acc, b| acc | B::bit(rotate(b)));
        let run = |r: KingRun| KingRun {
            square: if r.square == NONE {
                NONE
            } else {
                rotate(r.square as u32) as u8
            },
            count: r.count,
        };
        Position {
            pieces: [map(self.pieces[1]), map(self.pieces[0])],
            kings: map(self.kings),
            side: self.side.other(),
            runs: [run(self.runs[1]), run(self.runs[0])],
        }
    }
}

/// One jump of a capture: the piece taken and the square the capturing piece lands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// Internal bit of the captured piece.
    pub captured: u8,
    /// Internal bit of the landing square.
    pub landing: u8,
}

const PROMOTES: u8 = 1;
const BY_KING: u8 = 2;

/// A move: from and to squares, the set of captured pieces and whether it promotes.
///
/// This is the move's identity. Under the FMJD rules two capture routes with the same start,
/// destination and captured set are **one** move (they leave the same position), so the
/// route is not part of `Move`: a [`MoveList`] keeps one route for each move (the captured
/// pieces in order, each with its landing square), see [`MoveList::path`]. Enable
/// `keep_duplicates` in the generator options to list every route separately.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move<B> {
    /// Internal bit of the starting square.
    pub from: u8,
    /// Internal bit of the destination (equal to `from` for a circular capture).
    pub to: u8,
    flags: u8,
    /// The captured pieces.
    pub captured: B,
}

impl<B: Bits> Move<B> {
    /// A move.
    #[inline(always)]
    pub fn new(from: u32, to: u32, captured: B, promotes: bool, by_king: bool) -> Self {
        Move {
            from: from as u8,
            to: to as u8,
            flags: (promotes as u8 * PROMOTES) | (by_king as u8 * BY_KING),
            captured,
        }
    }

    /// True if the moving man is crowned by this move.
    #[inline(always)]
    pub fn promotes(&self) -> bool {
        self.flags & PROMOTES != 0
    }

    /// True if the moving piece is a king.
    #[inline(always)]
    pub fn by_king(&self) -> bool {
        self.flags & BY_KING != 0
    }

    /// True for a capture.
    #[inline(always)]
    pub fn is_capture(&self) -> bool {
        self.captured.any()
    }

    /// Number of pieces captured.
    #[inline(always)]
    pub fn num_captured(&self) -> u32 {
        self.captured.count()
    }
}

/// A reusable list of moves with one capture route per move.
///
/// Generation into an existing list allocates nothing once the list has grown to the
/// largest position seen.
#[derive(Clone, Debug)]
pub struct MoveList<B> {
    moves: Vec<Move<B>>,
    spans: Vec<(u32, u32)>,
    steps: Vec<Step>,
    best: u64,
    keep_paths: bool,
    /// The capture search's stack of jumps (kept here so a search allocates nothing).
    pub(crate) stack: Vec<Step>,
}

impl<B: Bits> Default for MoveList<B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: Bits> MoveList<B> {
    /// An empty list that keeps one capture route per move.
    pub fn new() -> Self {
        // No memory until the first move: many lists (the relaxed ones of a resolver) are
        // never used; the others grow once and are reused.
        MoveList {
            moves: Vec::new(),
            spans: Vec::new(),
            steps: Vec::new(),
            best: 0,
            keep_paths: true,
            stack: Vec::new(),
        }
    }

    /// An empty list that keeps no capture routes ([`MoveList::path`] is then always empty):
    /// for perft and other counting, where only the moves matter.
    pub fn without_paths() -> Self {
        MoveList {
            keep_paths: false,
            ..Self::new()
        }
    }

    /// Empty the list (keeping its memory).
    #[inline(always)]
    pub fn clear(&mut self) {
        self.moves.clear();
        self.spans.clear();
        self.steps.clear();
        self.best = 0;
    }

    /// Before a list's first use: room for the moves of nearly any position at once, rather
    /// than growing through several sizes (for a list made anew for every game).
    pub fn reserve_first(&mut self) {
        if self.moves.capacity() > 0 {
            return;
        }
        self.moves.reserve(32);
        if self.keep_paths {
            self.spans.reserve(32);
            self.steps.reserve(64);
        }
        self.stack.reserve(16);
    }

    /// The moves.
    #[inline(always)]
    pub fn moves(&self) -> &[Move<B>] {
        &self.moves
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True if there is no move.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The route of move `i`: each captured piece in order with its landing square (empty
    /// for a non-capturing move).
    #[inline]
    pub fn path(&self, i: usize) -> &[Step] {
        match self.spans.get(i) {
            Some(&(s, n)) => &self.steps[s as usize..(s + n) as usize],
            None => &[],
        }
    }

    /// Iterate over the moves with their routes.
    pub fn iter(&self) -> impl Iterator<Item = (&Move<B>, &[Step])> {
        self.moves
            .iter()
            .enumerate()
            .map(|(i, m)| (m, self.path(i)))
    }

    /// Add a non-capturing move.
    #[inline(always)]
    pub(crate) fn push_quiet(&mut self, m: Move<B>) {
        self.moves.push(m);
        if self.keep_paths {
            self.spans.push((0, 0));
        }
    }

    /// Add a capture with its route, keeping only captures of the best precedence score and
    /// (unless `keep_duplicates`) one route per move.
    /// The route on the search stack goes with it.
    #[inline]
    pub(crate) fn push_capture(&mut self, m: Move<B>, score: u64, keep_duplicates: bool) {
        if score < self.best {
            return;
        }
        if score > self.best {
            self.moves.clear();
            self.spans.clear();
            self.steps.clear();
            self.best = score;
        } else if !keep_duplicates && self.moves.contains(&m) {
            return;
        }
        self.moves.push(m);
        if self.keep_paths {
            let start = self.steps.len() as u32;
            // (A copying loop: a route has a few steps, too few for a call to `memcpy`.)
            self.steps.extend(self.stack.iter().copied());
            self.spans.push((start, self.stack.len() as u32));
        }
    }

    /// A capture of precedence `score` exists that is not listed (see
    /// [`movegen::Toward`](super::movegen::Toward)): the listed moves of a lower score go.
    #[inline]
    pub(crate) fn raise(&mut self, score: u64) {
        if score > self.best {
            self.moves.clear();
            self.spans.clear();
            self.steps.clear();
            self.best = score;
        }
    }

    /// The entries its buffers can hold without growing (moves, route steps and the search's
    /// stack): what keeping the list for reuse costs.
    pub(crate) fn held(&self) -> usize {
        self.moves.capacity()
            + self.spans.capacity()
            + self.steps.capacity()
            + self.stack.capacity()
    }

    /// Keep only the moves for which `keep` is true (routes follow).
    pub fn retain(&mut self, mut keep: impl FnMut(&Move<B>, &[Step]) -> bool) {
        let mut w = 0;
        for i in 0..self.moves.len() {
            if keep(&self.moves[i], self.path(i)) {
                self.moves.swap(w, i);
                if self.keep_paths {
                    self.spans.swap(w, i);
                }
                w += 1;
            }
        }
        self.moves.truncate(w);
        if self.keep_paths {
            self.spans.truncate(w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_is_small() {
        assert!(std::mem::size_of::<Move<u64>>() <= 16);
        assert!(std::mem::size_of::<Move<u128>>() <= 32);
    }
}
