//! Where a parenthesised line branches from: the game's style (book-style replies in
//! parentheses, or PDN variations), and the reply-or-alternative question for one line.

use crate::rules::{Color, Position, Spec};
use crate::syntax::MoveRef;

use super::{Branch, LineState, Observer, Replayer, Style, to_spec};
use crate::app::model::record::{LineRef, Node, Record};

impl<V: Spec, O: Observer> Replayer<'_, V, O> {
    /// Where a parenthesised line branches from. In a book-style game a one-move
    /// parenthesis right after a move is the reply to it, legal or not; a longer one is told
    /// by [`Self::is_reply`]. In a PDN game it is a variation: an alternative to the coming
    /// move when its move number names that move or only the side to move can play it, else
    /// an alternative to the last move.
    pub(super) fn branch(
        &mut self,
        line: LineRef,
        st: &LineState<V::B>,
        follows_move: bool,
    ) -> Branch {
        let Some(prev) = st.prev else {
            // Before any move of this line: an alternative start from here.
            return Branch::Next;
        };
        match self.style {
            Style::Book => {
                if follows_move && one_move(self.record, line).is_some() || self.is_reply(line, st)
                {
                    Branch::Reply
                } else {
                    Branch::Last
                }
            }
            Style::Pdn => {
                let Some(first) = first_move(self.record, line) else {
                    return Branch::Last;
                };
                if let Some(n) = first.number {
                    let second = |side: Color| side != self.first_mover;
                    let written = (n.number, n.second_player);
                    let coming = (st.number, second(st.pos.side()));
                    let last = (st.prev_number, second(prev.side()));
                    if written == last {
                        return Branch::Last;
                    }
                    if written == coming {
                        return Branch::Next;
                    }
                }
                if self.is_reply(line, st) {
                    Branch::Next
                } else {
                    Branch::Last
                }
            }
        }
    }

    /// The style of the game (see [`Style`]), from the shape of its main line and, where
    /// the shape allows both, from a replay of each reading: a game is book style when its
    /// one-move parentheses after a move outnumber its second moves written bare and the
    /// main line read that way replays further than with them as variations.
    pub(super) fn style_of(&mut self, start: &Position<V::B>) -> Style {
        let record = self.record;
        if record.main_variations() == 0 {
            // No parenthesis on the main line: no reply either.
            return Style::Pdn;
        }
        let mut bare = 0u32;
        let mut replies = 0u32;
        let mut last_move = false;
        for (at, node) in record.items(record.body()) {
            match node {
                Node::Comment { .. } | Node::Nag { .. } => continue,
                Node::Move(_) => {
                    bare += u32::from(last_move);
                    last_move = true;
                }
                Node::Variation { .. } => {
                    if last_move
                        && let Some(m) = one_move(record, record.inside(at))
                        && m.number.is_none_or(|n| n.second_player)
                    {
                        replies += 1;
                    }
                    last_move = false;
                }
                Node::Setup { .. } => last_move = false,
            }
        }
        if replies == 0 || bare > replies {
            return Style::Pdn;
        }
        let book = self.legal_run(start, true);
        let pdn = self.legal_run(start, false);
        if book > pdn || (book == pdn && bare == 0) {
            Style::Book
        } else {
            Style::Pdn
        }
    }

    /// How many plies of the main line replay legally from `start`, one-move parentheses
    /// after a move read as replies (`book`) or skipped.
    fn legal_run(&mut self, start: &Position<V::B>, book: bool) -> usize {
        let record = self.record;
        let mut pos = *start;
        let mut n = 0;
        let mut last_move = false;
        for (at, node) in record.items(record.body()) {
            let m = match node {
                Node::Move(m) => record.move_ref(m),
                Node::Variation { .. } if book && last_move => {
                    match one_move(record, record.inside(at)) {
                        Some(m) => m,
                        None => {
                            last_move = false;
                            continue;
                        }
                    }
                }
                Node::Comment { .. } | Node::Nag { .. } => continue,
                Node::Variation { .. } => {
                    last_move = false;
                    continue;
                }
                Node::Setup { .. } => break,
            };
            last_move = matches!(node, Node::Move(_));
            if !self.look_ahead_play(&mut pos, &m) {
                break;
            }
            n += 1;
        }
        n
    }

    /// Is a parenthesised line the reply to the last move (book style) rather than an
    /// alternative to it? Decided by whose piece the first move moves: the side to move now
    /// (a reply) or the side that just moved (an alternative); by legality when unclear.
    fn is_reply(&mut self, line: LineRef, st: &LineState<V::B>) -> bool {
        let Some(prev) = st.prev else { return false };
        let Some(first) = first_move(self.record, line) else {
            return false;
        };
        let Some(spec) = to_spec(&first) else {
            return false;
        };
        let from = spec
            .readings
            .first()
            .and_then(|r| r.first())
            .and_then(|s| s.resolve(V::numbering()).ok());
        if let Some(b) = from {
            let now = st.pos.piece_at(b);
            let before = prev.piece_at(b);
            if now.is_some_and(|p| p.color == st.pos.side()) {
                return true;
            }
            if before.is_some_and(|p| p.color == prev.side()) {
                return false;
            }
        }
        let as_reply = self.b.look.legal_index(&st.pos, &spec).is_some();
        let as_alternative = self.b.look.legal_index(&prev, &spec).is_some();
        as_reply && !as_alternative
    }
}

/// The first move of a line, if a move comes before any setup or variation in it.
fn first_move(record: &Record, line: LineRef) -> Option<MoveRef<'_>> {
    record.items(line).find_map(|(_, n)| match n {
        Node::Move(m) => Some(Some(record.move_ref(m))),
        Node::Setup { .. } | Node::Variation { .. } => Some(None),
        _ => None,
    })?
}

/// The move of a line that holds exactly one move (and maybe comments and NAGs).
pub(super) fn one_move(record: &Record, line: LineRef) -> Option<MoveRef<'_>> {
    let mut found = None;
    for (_, n) in record.items(line) {
        match n {
            Node::Move(m) if found.is_none() => found = Some(record.move_ref(m)),
            Node::Comment { .. } | Node::Nag { .. } => {}
            _ => return None,
        }
    }
    found
}
