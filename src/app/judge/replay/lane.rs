//! The replay's fast lane: a run of the commonest moves (plain man moves when no capture is
//! possible, and captures of one man's jump where every capture is one) played in one tight
//! loop over the record's nodes, the line's state held in locals, comments and NAGs between
//! the moves passed over, the draw tracker told only what it needs; anything else (a king's
//! move, a longer capture, a number out of line, a variation, a setup) goes back to the
//! general path, which plays it as before. Every move the lane plays is one the general
//! path's quick checks would have played the same way, with the same event, draw counts and
//! bookkeeping.

use crate::rules::{Bits, Move, Position, Spec};
use crate::syntax::{MoveKind, MoveRef};

use super::spec::square_bit;
use super::{LineState, Observer, Played, PlyEvent, Replayer};
use crate::app::model::record::{Items, MoveNode, Node};

impl<'g, V: Spec, O: Observer> Replayer<'g, V, O> {
    /// True if the fast lane can serve variant `V` at all (known at compile time): no limit
    /// on a king's moves in a row (its counts are kept by the general path), and no rule
    /// that ends the game at a crowning (breakthrough).
    #[inline(always)]
    pub(super) fn lane_open(st: &LineState<V::B>) -> bool {
        V::RULES.same_king_limit == 0
            && V::RULES.variant != crate::rules::Variant::Breakthrough
            && st.crossed.is_empty()
            && !st.stopped
    }

    /// Play the move `first` (already taken from `items`) and the moves that follow it on its
    /// line (taken from `items` as they are played), as long as each is one the lane plays.
    /// Returns false if `first` is not one (nothing was played: the general path plays it).
    ///
    /// The lane plays a move whose number (if it has one) is the one expected (or the first
    /// after a setup, which sets it), and which is either
    /// - a plain man's move: written `from-to`, a man of the side to move on `from`, `to`
    ///   empty and one step of that man away, and no capture for the side to move (what
    ///   `quick` plays with a man), or
    /// - a capture written `from x to` (a separator `quick_capture` takes) in a position
    ///   where every capture is one man's jump ([`Spec::one_jump_between`]), the man on
    ///   `from` jumping to `to` (what `quick_capture` plays there).
    #[inline(never)]
    pub(super) fn lane(
        &mut self,
        first: &'g MoveNode,
        items: &mut Items<'g>,
        st: &mut LineState<V::B>,
    ) -> bool {
        let record = self.record;
        let numbering = self.numbering;
        let geo = self.geo;
        let first_mover = self.first_mover;
        let main = st.main;
        let mut pos: Position<V::B> = st.pos;
        let mut before = pos;
        let mut number = st.number;
        let mut prev_number = number;
        let mut ply = st.next_ply;
        let mut after_setup = st.after_setup;
        let mut node = first;
        // The items after the last move played (comments and NAGs after it are taken only
        // with the next move played).
        let mut rest = items.clone();
        let mut played = 0u32;
        // The last move played, if the draw tracker has yet to record it: it only started
        // the counts again (see `Tracker::restarts_at`), so it is recorded only when another
        // move is or when the lane ends.
        let mut unrecorded: Option<Move<V::B>> = None;
        loop {
            let m: MoveRef<'g> = record.move_ref(node);
            if m.squares.len() != 2 {
                break;
            }
            let capture = match m.kind {
                MoveKind::Normal => false,
                MoveKind::Capture('x' | 'X' | ':' | '×') => true,
                _ => break,
            };
            let side = pos.side();
            if let Some(tok) = &m.number {
                if after_setup {
                    number = tok.number;
                } else if tok.number != number || (tok.second_player && side == first_mover) {
                    // A number out of line: the general path reports it.
                    break;
                }
            }
            let (Some(from), Some(to)) = (
                square_bit(numbering, m.squares[0]),
                square_bit(numbering, m.squares[1]),
            ) else {
                break;
            };
            let mv = if capture {
                if !pos.pieces(side).has(from) {
                    break;
                }
                let Some(Some((mv, step))) = V::one_jump_between(geo, &pos, from, to) else {
                    break;
                };
                self.b.route.clear();
                self.b.route.push(step);
                mv
            } else {
                if !pos.men_of(side).has(from)
                    || pos.occupied().has(to)
                    || !V::is_man_step_on(geo, side, from, to)
                    || V::has_capture_on(geo, &pos)
                {
                    break;
                }
                // The route of the last move played is read by the observer and by the
                // bookkeeping of the next capture: a plain move has none.
                self.b.route.clear();
                let promotes = geo.promotion_row(side).has(to);
                Move::new(from, to, V::B::ZERO, promotes, false)
            };
            before = pos;
            pos.play(&mv, V::RULES);
            let event = PlyEvent::<V> {
                item: &m,
                main,
                line: st.id,
                ply,
                number,
                side,
                before: &before,
                after: &pos,
                mv: &mv,
                route: &self.b.route,
                ambiguous: false,
                played: Played::Legal,
                clean: st.clean,
            };
            self.observer.ply::<V>(&event);
            if main {
                // Every move here is irreversible (a man's move or a capture).
                let draws = &mut self.b.draws;
                if let Some(last) = unrecorded.take() {
                    draws.record(&last, &before, ply - 1);
                }
                if draws.restarts_at(&pos) {
                    unrecorded = Some(mv);
                } else {
                    let reached = draws.reached.is_some();
                    draws.record(&mv, &pos, ply);
                    if !reached && let Some(r) = &mut draws.reached {
                        r.span = Some(m.span);
                    }
                }
            }
            played += 1;
            prev_number = number;
            ply += 1;
            after_setup = false;
            if side != first_mover {
                number += 1;
            }
            *items = rest.clone();
            // The next move of the line, past comments and NAGs.
            let next = loop {
                match rest.next() {
                    Some((_, Node::Comment { .. } | Node::Nag { .. })) => {}
                    Some((_, Node::Move(next))) => break Some(next),
                    _ => break None,
                }
            };
            let Some(next) = next else { break };
            node = next;
        }
        if played == 0 {
            return false;
        }
        if let Some(last) = unrecorded {
            self.b.draws.record(&last, &pos, ply - 1);
        }
        if main {
            self.plies = ply - 1;
        }
        // The line's state as `finish` leaves it after the last move played (`clean` and
        // `crossed` are unchanged: every move was legal, and no man crossed a far row: a
        // capture of one jump ends where it may crown).
        st.prev = Some(before);
        st.pos = pos;
        st.prev_clean = st.clean;
        st.prev_number = prev_number;
        st.prev_ply = ply - 1;
        st.prev_crossed = st.crossed;
        st.next_ply = ply;
        st.number = number;
        st.after_setup = false;
        true
    }
}
