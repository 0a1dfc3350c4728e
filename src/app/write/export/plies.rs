//! What a replay tells the exporters about every move: the [`PlyRecorder`] observer keeps one
//! compact [`PlyEntry`] per replayed move (main line and variations), the squares of its
//! PDN 3.0 route, its stopping squares and its captured pieces in one shared arena, and the
//! start and final positions of the main line. Nothing is allocated per ply once the arena
//! has grown.

use crate::rules::{Bits, Color, Geometry, Numbering, Position, Spec, Step, VariantPosition};
use crate::syntax::MoveItem;

use crate::app::judge::replay::{Branch, Observer, Played, PlyEvent};

/// One replayed move (24 bytes: a game of a million moves holds a million of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyEntry {
    /// `span.start` of the move as written: the key that finds the record of a move.
    pub span: u32,
    /// The line it is on (see [`PlyEvent::line`]).
    pub line: u32,
    /// Ply along the main line (for a variation, the ply it would have).
    pub ply: u32,
    /// The move number the replay gave it.
    pub number: u32,
    /// A move that takes nothing: its start and destination (internal bits), then zeros; a
    /// capture: where its squares are in the recorder's arena (little-endian): the counts of
    /// its route, its stopping squares and its captured pieces, then those squares.
    squares: [u8; 4],
    /// True on the main line (book-style replies included).
    pub main: bool,
    /// The side that moved.
    pub side: Color,
    /// Legal, or irregular and played as recorded.
    pub played: Played,
    /// [`CAPTURE`] and [`AMBIGUOUS`].
    flags: u8,
}

/// [`PlyEntry::flags`]: a capture (its squares in the arena).
const CAPTURE: u8 = 1;
/// [`PlyEntry::flags`]: the short form does not say which pieces are taken.
const AMBIGUOUS: u8 = 2;

impl PlyEntry {
    /// True for a capture.
    pub fn is_capture(&self) -> bool {
        self.flags & CAPTURE != 0
    }

    /// True if the short form does not say which pieces are taken.
    pub fn ambiguous(&self) -> bool {
        self.flags & AMBIGUOUS != 0
    }

    /// Where a capture's counts and squares start in the arena.
    fn at(&self) -> usize {
        u32::from_le_bytes(self.squares) as usize
    }
}

/// Which squares of a move to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// PDN 3.0: start and destination, the full route of rule 9 when ambiguous.
    Pdn,
    /// Every stopping square of a capture (the book style, PDN 2.0's full form).
    Landings,
}

/// How squares are named in output.
#[derive(Clone, Copy, Debug)]
pub struct Names {
    /// The variant's square names.
    pub numbering: &'static Numbering,
    /// Algebraic rather than numeric.
    pub algebraic: bool,
}

impl Names {
    /// Append the name of a square.
    pub fn push(&self, bit: u32, out: &mut String) {
        if self.algebraic {
            let (f, r) = self.numbering.algebraic_of_bit(bit);
            out.push(char::from(b'a' + f.min(25)));
            push_u32(out, u32::from(r) + 1);
        } else {
            push_u32(out, self.numbering.number_of_bit(bit));
        }
    }
}

/// Append a number without going through `format!`.
#[inline]
pub(crate) fn push_u32(out: &mut String, n: u32) {
    crate::app::write::jsonl::push_uint(out, u64::from(n));
}

/// Options of the recorder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlyOptions {
    /// Also keep the position before every main-line move (for `fix --repair`).
    pub positions: bool,
}

/// The observer that records every replayed move for the exporters.
#[derive(Clone, Debug, Default)]
pub struct PlyRecorder {
    options: PlyOptions,
    /// The records, in replay order (document order for a game as read).
    pub records: Vec<PlyEntry>,
    squares: Vec<u8>,
    /// The start position of the main line.
    pub start: Option<VariantPosition>,
    /// The position at the end of the main line as far as it was replayed (after a
    /// main-line setup, that position).
    pub last: Option<VariantPosition>,
    /// With [`PlyOptions::positions`]: `(span of the move, position before it, position
    /// after it)` for every main-line move.
    pub positions: Vec<(u32, VariantPosition, VariantPosition)>,
    /// How the replay read each parenthesised line it reached, by the byte where `(` is (in
    /// document order).
    pub branches: Vec<(u32, Branch)>,
    sorted: bool,
}

impl PlyRecorder {
    /// An empty recorder.
    pub fn new(options: PlyOptions) -> PlyRecorder {
        PlyRecorder {
            options,
            sorted: true,
            ..PlyRecorder::default()
        }
    }

    /// Make room for the records of `moves` moves at once: a long game's records are then
    /// held at their size, not in a vector grown by doubling (up to twice their size).
    pub fn reserve(&mut self, moves: usize) {
        self.records.reserve_exact(moves);
        // (The arena holds the squares of captures only: grown as they come.)
    }

    /// Forget everything (keeping the memory).
    pub fn clear(&mut self) {
        self.records.clear();
        self.squares.clear();
        self.positions.clear();
        self.branches.clear();
        self.start = None;
        self.last = None;
        self.sorted = true;
    }

    /// The record of a move, by its item.
    pub fn get(&mut self, item: &MoveItem) -> Option<&PlyEntry> {
        self.sort();
        self.find(item.span.start)
    }

    /// The record whose move starts at byte `span` (after [`PlyRecorder::sort`]).
    pub fn find(&self, span: u32) -> Option<&PlyEntry> {
        debug_assert!(self.sorted);
        self.records
            .binary_search_by_key(&span, |r| r.span)
            .ok()
            .map(|i| &self.records[i])
    }

    /// Order the records by position in the text (needed by [`PlyRecorder::find`] when moves
    /// were added after the text was read, as `fix --repair` does).
    pub fn sort(&mut self) {
        if !self.sorted {
            self.records.sort_by_key(|r| r.span);
            self.sorted = true;
        }
    }

    /// How the replay read the parenthesised line whose `(` is at byte `span`.
    pub fn branch(&self, span: u32) -> Option<Branch> {
        self.branches
            .binary_search_by_key(&span, |b| b.0)
            .ok()
            .map(|i| self.branches[i].1)
    }

    /// The squares of a record's route (PDN 3.0 rule 9: start, turning squares or the squares
    /// right behind the captured pieces, destination).
    pub fn route<'a>(&'a self, r: &'a PlyEntry) -> &'a [u8] {
        self.part(r, 0)
    }

    /// Every stopping square of a record: the start, then each landing square.
    pub(crate) fn landings<'a>(&'a self, r: &'a PlyEntry) -> &'a [u8] {
        self.part(r, 1)
    }

    /// The captured pieces in the order taken.
    pub fn captured<'a>(&'a self, r: &'a PlyEntry) -> &'a [u8] {
        self.part(r, 2)
    }

    /// Part `k` of a record's squares: its route (0), its stopping squares (1), its captured
    /// pieces (2). A move that takes nothing has its start and destination as both its route
    /// and its stops, and no piece taken.
    fn part<'a>(&'a self, r: &'a PlyEntry, k: usize) -> &'a [u8] {
        if !r.is_capture() {
            return if k == 2 { &[] } else { &r.squares[..2] };
        }
        let at = r.at();
        let Some(counts) = self.squares.get(at..at + 3) else {
            return &[];
        };
        let start = at + 3 + counts[..k].iter().map(|&c| usize::from(c)).sum::<usize>();
        self.squares
            .get(start..start + usize::from(counts[k]))
            .unwrap_or(&[])
    }

    /// Append a record's move text: squares joined by `-` (a non-capturing move) or `x`.
    pub fn write(&self, r: &PlyEntry, form: Form, names: &Names, out: &mut String) {
        let squares = match form {
            Form::Pdn if r.ambiguous() => self.route(r),
            Form::Pdn => {
                let route = self.route(r);
                let first = &route[..route.len().min(1)];
                write_squares(first, route.last(), r.is_capture(), names, out);
                return;
            }
            Form::Landings => self.landings(r),
        };
        write_squares(squares, None, r.is_capture(), names, out);
    }
}

fn write_squares(
    squares: &[u8],
    then: Option<&u8>,
    capture: bool,
    names: &Names,
    out: &mut String,
) {
    let sep = if capture { 'x' } else { '-' };
    for (i, &b) in squares.iter().chain(then).enumerate() {
        if i > 0 {
            out.push(sep);
        }
        names.push(u32::from(b), out);
    }
}

/// PDN 3.0 rule 9: the squares a full capture lists, pushed onto `out`.
fn push_route<B: Bits>(geo: &Geometry<B>, from: u32, to: u32, path: &[Step], out: &mut Vec<u8>) {
    out.push(from as u8);
    let mut at = from;
    for (i, step) in path.iter().enumerate() {
        if i + 1 == path.len() {
            break;
        }
        let captured = u32::from(step.captured);
        let landing = u32::from(step.landing);
        let d = geo.direction(at, captured);
        let next = geo.direction(landing, u32::from(path[i + 1].captured));
        if d.is_some() && d == next {
            let behind = d
                .and_then(|d| geo.neighbour(captured, d))
                .unwrap_or(landing);
            out.push(behind as u8);
        } else {
            out.push(landing as u8);
        }
        at = landing;
    }
    out.push(to as u8);
}

impl Observer for PlyRecorder {
    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        let mv = e.mv;
        let from = u32::from(mv.from);
        let to = u32::from(mv.to);
        let capture = !e.route.is_empty() || mv.is_capture();
        let squares = if capture {
            // Its counts, then its route, its stops and its captured pieces.
            let at = self.squares.len();
            self.squares.extend_from_slice(&[0; 3]);
            push_route(V::geometry(), from, to, e.route, &mut self.squares);
            let route = self.squares.len() - at - 3;
            self.squares.push(mv.from);
            self.squares.extend(e.route.iter().map(|s| s.landing));
            if e.route.is_empty() {
                self.squares.push(mv.to);
            }
            let landings = self.squares.len() - at - 3 - route;
            if e.route.is_empty() {
                // A capture without its route (never produced by the replay): its pieces in
                // board order.
                self.squares.extend(mv.captured.iter().map(|b| b as u8));
            } else {
                self.squares.extend(e.route.iter().map(|s| s.captured));
            }
            let captured = self.squares.len() - at - 3 - route - landings;
            for (k, n) in [route, landings, captured].into_iter().enumerate() {
                self.squares[at + k] = n.min(255) as u8;
            }
            (at as u32).to_le_bytes()
        } else {
            [mv.from, mv.to, 0, 0]
        };
        let span = e.item.span.start;
        if self.records.last().is_some_and(|r| r.span >= span) {
            self.sorted = false;
        }
        self.records.push(PlyEntry {
            span,
            line: e.line,
            ply: e.ply,
            number: e.number,
            squares,
            main: e.main,
            side: e.side,
            played: e.played,
            flags: if capture { CAPTURE } else { 0 } | if e.ambiguous { AMBIGUOUS } else { 0 },
        });
        if e.main {
            let after = VariantPosition::of::<V>(e.after);
            self.last = Some(after);
            if self.options.positions {
                self.positions
                    .push((span, VariantPosition::of::<V>(e.before), after));
            }
        }
    }

    fn variation(&mut self, span: u32, branch: Branch) {
        match self.branches.last() {
            Some(&(last, _)) if last >= span => {
                let at = self.branches.partition_point(|b| b.0 < span);
                if self.branches.get(at).is_none_or(|b| b.0 != span) {
                    self.branches.insert(at, (span, branch));
                }
            }
            _ => self.branches.push((span, branch)),
        }
    }

    fn position<V: Spec>(&mut self, pos: &Position<V::B>, main: bool) {
        if main {
            if self.start.is_none() {
                self.start = Some(VariantPosition::of::<V>(pos));
            }
            self.last = Some(VariantPosition::of::<V>(pos));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ply_entry_is_at_most_24_bytes() {
        // A huge game's replay holds one per move.
        assert!(
            std::mem::size_of::<PlyEntry>() <= 24,
            "{}",
            std::mem::size_of::<PlyEntry>()
        );
    }

    #[test]
    fn numbers_are_written() {
        let mut s = String::new();
        push_u32(&mut s, 0);
        s.push(' ');
        push_u32(&mut s, 4_294_967_295);
        assert_eq!(s, "0 4294967295");
    }
}
