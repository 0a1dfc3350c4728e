//! The replay's fast lane: a run of the commonest moves (plain man moves when no capture is
//! possible, and captures of one man's jump where every capture is one) played in one tight
//! loop over the record's nodes, the line's state held in locals, comments and NAGs between
//! the moves passed over, the draw tracker told only what it needs; anything else (a king's
//! move, a longer capture, a number out of line, a variation, a setup) goes back to the
//! general path, which plays it as before. Every move the lane plays is one the general
//! path's quick checks would have played the same way, with the same event, draw counts and
//! bookkeeping.

use std::num::NonZeroU64;

use crate::rules::{Bits, Color, Geometry, Move, Numbering, Position, Spec, Step};
use crate::syntax::{MoveKind, MoveNumber, MoveRef, Span};

use super::spec::square_bit;
use super::{LineState, Spare};
use crate::app::model::record::{Items, MoveNode, Node, Record};

/// What the fast lane did with a move and the items after it.
pub(super) enum Lane<'g> {
    /// Nothing: the move is not one it plays (the general path plays it).
    Untouched,
    /// It played the move and those after it up to this item of the line, taken from the
    /// line's items but not played (the general path takes it), or to the line's end.
    Stopped(Option<(usize, &'g Node)>),
}

/// What the lane reads and writes of its replay: all of it but the observer. The lane serves
/// the replays whose observer ignores every event (`validate`'s, the variant choice's), so
/// that it is compiled once a variant, not once for every observer as well (the code of
/// 16 variants times a dozen observers: a megabyte).
pub(super) struct Ctx<'a, 'g, V: Spec> {
    pub record: &'g Record,
    pub numbering: &'static Numbering,
    pub geo: &'static Geometry<V::B>,
    pub first_mover: Color,
    pub b: &'a mut Spare<V>,
    /// The replay's plies of the main line.
    pub plies: &'a mut u32,
}

/// True if the fast lane can serve variant `V` at all (known at compile time): no limit on a
/// king's moves in a row (its counts are kept by the general path), and no rule that ends
/// the game at a crowning (breakthrough); and the line is where it may start: no man that
/// crossed its far row, the line not stopped.
#[inline(always)]
pub(super) fn open<V: Spec>(st: &LineState<V::B>) -> bool {
    V::RULES.same_king_limit == 0
        && V::RULES.variant != crate::rules::Variant::Breakthrough
        && st.crossed.is_empty()
        && !st.stopped
}

/// The line's state while the lane plays: the position as the pieces of the side to move
/// and of the other side (swapped each ply) and the kings, so that it stays in registers
/// (a position indexed by side lives in memory), with the counts the line keeps.
struct Run<B> {
    /// The pieces of the side to move.
    us: B,
    /// The pieces of the other side.
    them: B,
    /// Every king.
    kings: B,
    /// The position before the last move played: White's pieces, Black's, the kings.
    prev: (B, B, B),
    number: u32,
    prev_number: u32,
    /// The ply of the next move.
    ply: u32,
    after_setup: bool,
    /// The draw tracker has yet to record the last move played (see [`Ctx::lane`]).
    unrecorded: bool,
    /// The one step of the last move played if it is a capture (its route).
    step: Option<Step>,
    /// The draw tracker follows this line (the main line of a variant with draw rules).
    tracks: bool,
}

impl<'g, V: Spec> Ctx<'_, 'g, V> {
    /// Play the move `first` (already taken from `items`) and the moves that follow it on its
    /// line (taken from `items`, with the comments and NAGs between them), as long as each
    /// is one the lane plays: see [`Lane`].
    ///
    /// The lane plays a move whose number (if it has one) is the one expected (or the first
    /// after a setup, which sets it), and which is either
    /// - a plain man's move: written `from-to`, a man of the side to move on `from`, `to`
    ///   empty and one step of that man away, and no capture for the side to move (what
    ///   `quick` plays with a man), or
    /// - a capture written `from x to` (a separator `quick_capture` takes) in a position
    ///   where every capture is one man's jump ([`Spec::one_jump_between`]), the man on
    ///   `from` jumping to `to` (what `quick_capture` plays there).
    ///
    /// The plies alternate between the two sides: the loop is written out once for each
    /// (a side known at compile time: its directions and promotion row are constants).
    #[inline(never)]
    pub(super) fn lane(
        mut self,
        first: &'g MoveNode,
        items: &mut Items<'g>,
        st: &mut LineState<V::B>,
    ) -> Lane<'g> {
        let start = st.pos;
        let (us, them, kings) = start.sides();
        let mut run = Run {
            us,
            them,
            kings,
            prev: (V::B::ZERO, V::B::ZERO, V::B::ZERO),
            number: st.number,
            prev_number: st.number,
            ply: st.next_ply,
            after_setup: st.after_setup,
            unrecorded: false,
            step: None,
            tracks: st.main && !V::RULES.draws.is_empty(),
        };
        // The lane's own copy of the line's items (in registers), handed back at the end.
        let mut it = items.clone();
        // The item taken from `items` after the last move played that the lane does not
        // play (none: the line's end).
        let mut stop = None;
        let mut node = first;
        // The side to move when the lane stopped.
        let to_move = 'run: {
            if start.side() == Color::Black {
                if !self.ply(Color::Black, &start, node, &mut run) {
                    break 'run Color::Black;
                }
                let Some(next) = next_move(&mut it, &mut stop) else {
                    break 'run Color::White;
                };
                node = next;
            }
            loop {
                if !self.ply(Color::White, &start, node, &mut run) {
                    break 'run Color::White;
                }
                let Some(next) = next_move(&mut it, &mut stop) else {
                    break 'run Color::Black;
                };
                node = next;
                if !self.ply(Color::Black, &start, node, &mut run) {
                    break 'run Color::Black;
                }
                let Some(next) = next_move(&mut it, &mut stop) else {
                    break 'run Color::White;
                };
                node = next;
            }
        };
        if run.ply == st.next_ply {
            return Lane::Untouched;
        }
        *items = it;
        let pos = start.with_sides(to_move, run.us, run.them, run.kings);
        let (white, black, kings) = run.prev;
        let before = match to_move.other() {
            Color::White => start.with_sides(Color::White, white, black, kings),
            Color::Black => start.with_sides(Color::Black, black, white, kings),
        };
        if run.unrecorded {
            self.b.draws.restart(&pos);
        }
        // The route of the last move played is read by the observer and by the bookkeeping
        // of the next capture: a plain move has none.
        self.b.route.clear();
        if let Some(step) = run.step {
            self.b.route.push(step);
        }
        if st.main {
            *self.plies = run.ply - 1;
        }
        // The line's state as `finish` leaves it after the last move played (`clean` and
        // `crossed` are unchanged: every move was legal, and no man crossed a far row: a
        // capture of one jump ends where it may crown).
        st.prev = Some(before);
        st.pos = pos;
        st.prev_clean = st.clean;
        st.prev_number = run.prev_number;
        st.prev_ply = run.ply - 1;
        st.prev_crossed = st.crossed;
        st.next_ply = run.ply;
        st.number = run.number;
        st.after_setup = false;
        Lane::Stopped(stop)
    }

    /// Play the move `node` of `side` (the side to move) in `run` if it is one the lane
    /// plays (see [`Ctx::lane`]); false, `run` as it was (but the number a first move after
    /// a setup sets), if it is not. `start` gives the position's other fields.
    #[inline(always)]
    fn ply(
        &mut self,
        side: Color,
        start: &Position<V::B>,
        node: &'g MoveNode,
        run: &mut Run<V::B>,
    ) -> bool {
        // The recorded move's fields, packed into one register where the two ways of reading
        // it meet: the usual move (two numbered squares) straight from its node, any other
        // through its `MoveRef`.
        let read = match self.record.numbered_pair(node) {
            Some(p) => match (
                self.numbering.bit_of_small_number(p.from),
                self.numbering.bit_of_small_number(p.to),
            ) {
                (Some(from), Some(to)) => Some(LaneMove::new(from, to, p.capture, p.number)),
                _ => None,
            },
            None => read_other(self.record, self.numbering, node),
        };
        let Some(read) = read else {
            return false;
        };
        let (from, to, capture, number) = read.fields();
        if let Some((number, second_player)) = number {
            if run.after_setup {
                run.number = number;
            } else if number != run.number || (second_player && side == self.first_mover) {
                // A number out of line: the general path reports it.
                return false;
            }
        }
        let geo = self.geo;
        let Run {
            us, them, kings, ..
        } = *run;
        if !us.has(from) {
            return false;
        }
        let pos = start.with_sides(side, us, them, kings);
        // Every move here is a man's (a king's plain move goes back to the general path: in
        // the loop, its checks cost every ply more than they saved).
        let (captured, promotes, step) = if capture {
            // (`one_jump_between` answers only when no king of the side can capture, and
            // of a man's jump.)
            let Some(Some((mv, step))) = V::one_jump_between(geo, &pos, from, to) else {
                return false;
            };
            (mv.captured, mv.promotes(), Some(step))
        } else {
            if kings.has(from)
                || (us | them).has(to)
                || !V::is_man_step_on(geo, side, from, to)
                || V::has_capture_on(geo, &pos)
            {
                return false;
            }
            (V::B::ZERO, geo.promotion_row(side).has(to), None)
        };
        let (from_bit, to_bit) = (V::B::bit(from), V::B::bit(to));
        let us_after = (us & !from_bit) | to_bit;
        let them_after = them & !captured;
        let mut kings_after = kings & !captured & !from_bit;
        if promotes {
            kings_after |= to_bit;
        }
        run.prev = if side == Color::White {
            (us, them, kings)
        } else {
            (them, us, kings)
        };
        if run.tracks {
            // Every move here is irreversible (a man's move or a capture): after it the
            // tracker may only start its counts again (`Tracker::restarts_at`), and of a run
            // of such restarts only the last is recorded. A plain move after a restart
            // restarts again: no endgame is counted (nothing was recorded since), and each
            // side has the pieces it had, more than one.
            let restarts = (run.unrecorded && !capture)
                || self.b.draws.restarts_at(&start.with_sides(
                    side.other(),
                    them_after,
                    us_after,
                    kings_after,
                ));
            if restarts {
                run.unrecorded = true;
            } else {
                let mv = Move::new(from, to, captured, promotes, false);
                let sides = [(us, them, kings), (them_after, us_after, kings_after)];
                self.record_draws(start, side, sides, run.unrecorded, &mv, run.ply, node.span);
                run.unrecorded = false;
            }
        }
        run.us = them_after;
        run.them = us_after;
        run.kings = kings_after;
        run.step = step;
        run.prev_number = run.number;
        run.ply += 1;
        run.after_setup = false;
        if side != self.first_mover {
            run.number = run.number.saturating_add(1);
        }
        true
    }

    /// Tell the draw tracker of the move `mv` of `side` at `ply` (written at `span`), which
    /// does more than start the counts again: `sides` are the positions before and after it
    /// as [`Position::sides`] gives them (each for its side to move; the other fields are
    /// `start`'s); `unrecorded`: the last move played before it only started them again, and
    /// is recorded first. Out of the loop: the loop passes the positions' bits by value, and
    /// only this rare branch builds them in memory.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn record_draws(
        &mut self,
        start: &Position<V::B>,
        side: Color,
        sides: [(V::B, V::B, V::B); 2],
        unrecorded: bool,
        mv: &Move<V::B>,
        ply: u32,
        span: Span,
    ) {
        let [(us, them, kings), (next_us, next_them, next_kings)] = sides;
        let before = &start.with_sides(side, us, them, kings);
        let after = &start.with_sides(side.other(), next_us, next_them, next_kings);
        let draws = &mut self.b.draws;
        if unrecorded {
            draws.restart(before);
        }
        let reached = draws.reached.is_some();
        draws.record(mv, after, ply);
        if !reached && let Some(r) = &mut draws.reached {
            r.span = Some(span);
        }
    }
}

/// A move as the lane plays it, in one word: the bits of its two squares (bits 0-7 and
/// 8-15), whether it is written as a capture (bit 17), and its number as `(number, second
/// player)` (bits 32-63, bit 19; bit 18 if it has one). Bit 16 is always set (never zero:
/// an `Option` of it is one register).
#[derive(Clone, Copy)]
struct LaneMove(NonZeroU64);

impl LaneMove {
    const SET: u64 = 1 << 16;
    const CAPTURE: u64 = 1 << 17;
    const NUMBERED: u64 = 1 << 18;
    const SECOND: u64 = 1 << 19;

    #[inline(always)]
    fn new(from: u32, to: u32, capture: bool, number: Option<(u32, bool)>) -> Self {
        let mut w = u64::from(from & 0xff) | (u64::from(to & 0xff) << 8) | Self::SET;
        if capture {
            w |= Self::CAPTURE;
        }
        if let Some((n, second)) = number {
            w |= Self::NUMBERED | (u64::from(n) << 32);
            if second {
                w |= Self::SECOND;
            }
        }
        LaneMove(NonZeroU64::new(w).unwrap_or(NonZeroU64::MIN))
    }

    /// The squares' bits, whether it is a capture, and its number.
    #[inline(always)]
    fn fields(self) -> (u32, u32, bool, Option<(u32, bool)>) {
        let w = self.0.get();
        let number = (w & Self::NUMBERED != 0).then_some(((w >> 32) as u32, w & Self::SECOND != 0));
        (
            (w & 0xff) as u32,
            ((w >> 8) & 0xff) as u32,
            w & Self::CAPTURE != 0,
            number,
        )
    }
}

/// What [`Ctx::ply`] reads of a move that [`Record::numbered_pair`] does not give (squares
/// named otherwise, or numbered 64 and above), through its `MoveRef`: the bits of its two
/// squares, whether it is written as a capture, and its number; `None` if the lane does not
/// play it (not two squares on the board, another kind). Out of the loop: rare on most
/// boards, the usual move of the algebraic ones.
#[inline(never)]
fn read_other(record: &Record, numbering: &Numbering, node: &MoveNode) -> Option<LaneMove> {
    let MoveRef {
        number,
        squares,
        kind,
        ..
    } = record.move_ref(node);
    let &[first_square, second_square] = squares else {
        return None;
    };
    let capture = match kind {
        MoveKind::Normal => false,
        MoveKind::Capture('x' | 'X' | ':' | '×') => true,
        _ => return None,
    };
    let from = square_bit(numbering, first_square)?;
    let to = square_bit(numbering, second_square)?;
    Some(LaneMove::new(
        from,
        to,
        capture,
        number.map(|n: MoveNumber| (n.number, n.second_player)),
    ))
}

/// The next move of a line, past comments and NAGs, with `stop` set to the item taken (the
/// move, or what ends the run: a variation, a setup, or nothing at the line's end).
#[inline(always)]
fn next_move<'g>(it: &mut Items<'g>, stop: &mut Option<(usize, &'g Node)>) -> Option<&'g MoveNode> {
    loop {
        match it.next() {
            Some((_, Node::Comment { .. } | Node::Nag { .. })) => {}
            Some((at, n @ Node::Move(next))) => {
                *stop = Some((at, n));
                return Some(next);
            }
            other => {
                *stop = other;
                return None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::{Branch, Ignore, Observer, PlyEvent, Replayed, Replayer, Settings};
    use crate::app::judge::resolve::move_in_list;
    use crate::app::model::record::Record;
    use crate::rules::spec::{
        Brazilian, Canadian, Czech, English, Frisian, International, Italian, Pool, Russian,
        Spanish, Thai, Turkish,
    };
    use crate::rules::{Bits, Color, MoveList, Piece, Position, Role, Spec};
    use crate::syntax::read_games;

    /// Every event of a replay, written out.
    #[derive(Default)]
    struct Log(Vec<String>);

    impl Observer for Log {
        fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
            self.0.push(format!(
                "ply {:?} {} {} {} {} {:?} {:?} {:?} {:?} {:?} {} {:?} {}",
                e.item,
                e.main,
                e.line,
                e.ply,
                e.number,
                e.side,
                e.before,
                e.after,
                e.mv,
                e.route,
                e.ambiguous,
                e.played,
                e.clean
            ));
        }
        fn position<V: Spec>(&mut self, pos: &Position<V::B>, main: bool) {
            self.0.push(format!("position {pos:?} {main}"));
        }
        fn setup<V: Spec>(&mut self, pos: &Position<V::B>, line: u32, ply: u32, clean: bool) {
            self.0.push(format!("setup {pos:?} {line} {ply} {clean}"));
        }
        fn variation(&mut self, span: u32, branch: Branch) {
            self.0.push(format!("variation {span} {branch:?}"));
        }
    }

    /// A position from `cells` (one byte a square of the board: mostly empty, else a man or
    /// a king of either side; no man on its far row), or the start position if it has no
    /// piece of the side to move.
    fn placement<V: Spec>(cells: &[u8], side: Color) -> Position<V::B> {
        let geo = V::geometry();
        let mut pos: Position<V::B> = Position::empty(side);
        for (bit, &c) in geo.mask.iter().zip(cells) {
            let (color, role) = match c {
                0..=5 => (Color::White, Role::Man),
                6..=11 => (Color::Black, Role::Man),
                12 => (Color::White, Role::King),
                13 => (Color::Black, Role::King),
                _ => continue,
            };
            if role == Role::Man && geo.promotion_row(color).has(bit) {
                continue;
            }
            pos.put(bit, Piece { color, role });
        }
        if pos.pieces(side).is_empty() {
            return V::start();
        }
        pos
    }

    /// The movetext of a random game from `start` (`choices`: one byte a ply, the move
    /// among the legal ones) with the slips and extras of `slips` (one byte a ply, most of
    /// them none): numbers out of line, missing or of the second player, comments, NAGs,
    /// variations, setups, captures written with `-`, illegal and unknown moves.
    fn movetext<V: Spec>(start: Position<V::B>, choices: &[u8], slips: &[u8]) -> String {
        let mut pos = start;
        let mut text = String::new();
        let mut list = MoveList::new();
        let mut number = 1;
        for (&c, &slip) in choices.iter().zip(slips) {
            V::legal_moves(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            let k = usize::from(c) % list.len();
            let write = |i: usize| move_in_list::<V>(&list, i);
            let first = pos.side() == V::RULES.first_mover();
            match slip {
                0..=3 => text.push_str(&format!("{}. ", number + 1)),
                4..=5 => text.push_str(&format!("{number}... ")),
                6..=7 => {}
                8 => text.push_str(&format!("/FEN \"{}\"/ {number}. ", V::to_fen(&pos))),
                _ if first => text.push_str(&format!("{number}. ")),
                _ => {}
            }
            let mut written = write(k);
            match slip {
                9..=11 => written = written.replace(['x', ':'], "-"),
                12..=13 => written = "7-12".into(),
                14 => written = "11-22".into(),
                15 => written = "- -".into(),
                _ => {}
            }
            text.push_str(&written);
            text.push(' ');
            match slip {
                16..=19 => text.push_str("{a comment} "),
                20..=21 => text.push_str("$1 "),
                22..=25 => {
                    let other = write((k + 1) % list.len());
                    text.push_str(&format!("( {other} {{in a variation}} ) "));
                }
                26 => {
                    let other = write((k + 1) % list.len());
                    text.push_str(&format!("( {number}. {other} ) "));
                }
                _ => {}
            }
            pos = pos.after(&list.moves()[k], V::RULES);
            if !first {
                number += 1;
            }
        }
        text.push('*');
        text
    }

    /// What a replay answered, written out.
    fn answers<V: Spec>(r: &Replayed<V>) -> String {
        format!(
            "{:?} {} {:?} {} {:?} {} {} {:?}",
            r.diagnostics,
            r.plies,
            r.last,
            r.complete,
            r.draw,
            r.plies_after_draw,
            r.reach,
            r.replies
        )
    }

    /// The replay of `text` from `start` with the fast lane and without it (and with an
    /// observer that wants every event, which the lane does not serve): the same findings,
    /// draws, plies, last position and answers, in a full replay and in a probe.
    fn same_with_and_without_lane<V: Spec>(text: &str, start: Position<V::B>) {
        let games = read_games(text.as_bytes());
        let record = Record::of_game(&games[0]);
        for main_line in [false, true] {
            let settings = Settings {
                diagrams: false,
                main_line,
            };
            // With the general path's events (an observer that wants them: no lane), and
            // without (the lane, and the general path alone).
            let mut log = Log::default();
            let general =
                Replayer::<V, Log>::new(&record, text, &start, settings, &mut log).run(start, 1);
            let mut ignore = Ignore;
            let with = Replayer::<V, Ignore>::new(&record, text, &start, settings, &mut ignore)
                .run(start, 1);
            let mut ignore = Ignore;
            let without = Replayer::<V, Ignore>::new(&record, text, &start, settings, &mut ignore)
                .without_lane()
                .run(start, 1);
            assert_eq!(answers(&with), answers(&without), "{text}");
            assert_eq!(answers(&with), answers(&general), "{text}");
            assert!(!log.0.is_empty(), "{text}");
            let probed = |lane: bool| {
                let mut ignore = Ignore;
                let r = Replayer::<V, Ignore>::new(&record, text, &start, settings, &mut ignore);
                if lane { r } else { r.without_lane() }.probe(start, 1)
            };
            assert_eq!(probed(true), probed(false), "{text}");
        }
    }

    fn check<V: Spec>(cells: &[u8], black: bool, choices: &[u8], slips: &[u8]) {
        let side = if black { Color::Black } else { Color::White };
        for start in [V::start(), placement::<V>(cells, side)] {
            let text = movetext::<V>(start, choices, slips);
            same_with_and_without_lane::<V>(&text, start);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Random games of every variant the lane serves, from the start and from random
        /// positions (endgames, where the draw rules count), with slips of every kind: the
        /// fast lane's verdicts, events and draw findings are the general path's.
        #[test]
        fn the_fast_lane_replays_as_the_general_path(
            cells in prop::collection::vec(0u8..40, 72),
            black in any::<bool>(),
            choices in prop::collection::vec(any::<u8>(), 0..160),
            slips in prop::collection::vec(prop_oneof![8 => Just(255u8), 2 => 0u8..27], 160),
        ) {
            check::<International>(&cells, black, &choices, &slips);
            check::<English>(&cells, black, &choices, &slips);
            check::<Russian>(&cells, black, &choices, &slips);
            check::<Italian>(&cells, black, &choices, &slips);
            check::<Pool>(&cells, black, &choices, &slips);
            check::<Spanish>(&cells, black, &choices, &slips);
            check::<Brazilian>(&cells, black, &choices, &slips);
            check::<Czech>(&cells, black, &choices, &slips);
            check::<Thai>(&cells, black, &choices, &slips);
            check::<Turkish>(&cells, black, &choices, &slips);
            check::<Frisian>(&cells, black, &choices, &slips);
            check::<Canadian>(&cells, black, &choices, &slips);
        }
    }
}
