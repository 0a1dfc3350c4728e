//! Playing one recorded move: the common cases checked directly (a plain move, a capture
//! `from x to` naming one legal move), the rest through the resolver — legal, ambiguous (the
//! reading after which the record goes on longest), or irregular and played as recorded
//! when the board allows it — and captures written one jump per move joined.

use crate::rules::notation::{self, SquareStyle};
use crate::rules::{Bits, Geometry, KingRange, Move, Position, Spec};
use crate::syntax::{MoveKind, MoveRef};

use super::spec::{spec_into, square_bit, to_spec};
use super::{LOOKAHEAD, LineState, Observer, Played, Replayer};
use crate::app::judge::diagnostic::{Code, Diagnostic, Severity};
use crate::app::judge::resolve::{self, Illegal, MoveSpec, Quirk, Resolution, Separator};
use crate::app::model::record::{Items, LineRef, Node};

/// A recorded move as the resolver takes it: the item, its readings, and the items after it
/// on its line (for a capture written one jump per move, and to choose among readings).
struct Recorded<'g, 's> {
    item: &'s MoveRef<'g>,
    spec: &'s MoveSpec,
    rest: Items<'g>,
}

impl<'g, V: Spec, O: Observer> Replayer<'g, V, O> {
    /// Replay one recorded move; returns how many of the following items it also used (the
    /// later fragments of a capture written one jump per move).
    pub(super) fn play_item(
        &mut self,
        m: &MoveRef<'g>,
        line: LineRef,
        at: usize,
        st: &mut LineState<V::B>,
    ) -> usize {
        if m.kind != MoveKind::Unknown {
            self.check_number(m, st);
            if let Some(mv) = self.quick(&st.pos, m) {
                self.b.route.clear();
                let side = st.pos.side();
                self.finish(m, st, side, mv, Played::Legal, false);
                return 0;
            }
            if self.quick_capture(m, st) {
                return 0;
            }
        }
        self.play_resolved(m, line, at, st)
    }

    /// [`Self::play_item`] for what the quick paths leave: the move through the resolver
    /// (out of line, so that the common plies do not pay for its frame).
    #[inline(never)]
    fn play_resolved(
        &mut self,
        m: &MoveRef<'g>,
        line: LineRef,
        at: usize,
        st: &mut LineState<V::B>,
    ) -> usize {
        let mut spec = std::mem::take(&mut self.b.spec);
        let used = if spec_into(m, &mut spec) {
            let (diags, ply, main) = (self.diags.len(), st.next_ply, st.main);
            let rest = self.record.items_after(line, at);
            let recorded = Recorded {
                item: m,
                spec: &spec,
                rest,
            };
            let used = self.play_spec(recorded, st);
            if main
                && !self.probe
                && self.diags[diags..]
                    .iter()
                    .any(|d| d.severity() == Severity::Error)
            {
                self.reach = self.reach.min(ply);
            }
            used
        } else {
            // `- -`: the record does not say what was played.
            self.diags.push(
                Diagnostic::new(
                    Code::Tolerated,
                    "unknown move: the rest of this line cannot be replayed",
                )
                .at(m.span),
            );
            st.stopped = true;
            if st.main {
                self.complete = false;
            }
            0
        };
        self.b.spec = spec;
        used
    }

    /// Replay a recorded move through the resolver (what [`Self::quick`] does not cover).
    fn play_spec(&mut self, recorded: Recorded<'g, '_>, st: &mut LineState<V::B>) -> usize {
        self.b.resolver.crossed = st.crossed & st.pos.pieces(st.pos.side());
        self.b.resolver.set_position(&st.pos);
        if self.probe && st.main {
            return self.probe_spec(recorded, st);
        }
        let Recorded {
            item: m,
            spec,
            rest,
        } = recorded;
        if let Some(why) = self.game_over(&st.pos) {
            let mut d = self.move_diag(Code::MovesAfterEnd, m, st, why);
            d.legal = Some(self.b.resolver.legal_texts());
            self.diags.push(d.rule(V::RULES.articles.game_end));
            st.stopped = true;
            if st.main {
                self.complete = false;
            }
            return 0;
        }
        let side = st.pos.side();
        let mut res = self.b.resolver.resolve_prepared(&st.pos, spec);
        let mut used = 0;
        if let Resolution::Illegal(ill) = &res
            && ill.code == resolve::Code::UnfinishedCapture
            && let Some((joined, n)) = self.join_split(&st.pos, spec, rest.clone())
        {
            // PDN 1.0 style: a multi-jump written one jump per move (`11x18 18x25`).
            if !self.split_noted {
                self.split_noted = true;
                self.diags.push(
                    Diagnostic::new(
                        Code::Tolerated,
                        "capture written one jump per move (PDN 1.0 style): the jumps were joined into one move",
                    )
                    .at(m.span),
                );
            }
            res = joined;
            used = n;
        }
        let (mv, played, ambiguous) = match res {
            Resolution::Legal { index, quirk } => self.legal(m, index, quirk),
            Resolution::Ambiguous(cands) => self.ambiguous(m, &cands, rest, st),
            Resolution::Illegal(ill) => match self.irregular(m, ill, st) {
                Some(played) => played,
                None => return 0,
            },
        };
        self.finish(m, st, side, mv, played, ambiguous);
        if used > 0 {
            // Such records number every jump as a ply: take the next number as it comes.
            st.after_setup = true;
        }
        used
    }

    /// A legal move, its notation quirk noted once per game.
    fn legal(
        &mut self,
        m: &MoveRef<'_>,
        index: usize,
        quirk: Option<Quirk>,
    ) -> (Move<V::B>, Played, bool) {
        if let Some(q) = quirk
            && !self.quirks.contains(&q)
        {
            self.quirks.push(q);
            self.diags
                .push(Diagnostic::new(Code::Tolerated, q.description()).at(m.span));
        }
        let legal = self.b.resolver.legal();
        self.b.route.clear();
        self.b.route.extend_from_slice(legal.path(index));
        (
            legal.moves()[index],
            Played::Legal,
            notation::is_ambiguous(legal, index),
        )
    }

    /// An ambiguous move: reported, and the reading after which the record goes on longest
    /// is played.
    fn ambiguous(
        &mut self,
        m: &MoveRef<'_>,
        cands: &[usize],
        rest: Items<'g>,
        st: &LineState<V::B>,
    ) -> (Move<V::B>, Played, bool) {
        let texts = self.b.resolver.legal_texts();
        let names: Vec<String> = cands
            .iter()
            .map(|&i| {
                let mv = self.b.resolver.legal().moves()[i];
                let taken: Vec<String> = mv
                    .captured
                    .iter()
                    .map(|b| notation::square_name(V::numbering(), b, SquareStyle::Native))
                    .collect();
                format!("{} (takes {})", texts[i], taken.join(", "))
            })
            .collect();
        let chosen = self.choose(cands, rest, &st.pos);
        let mut d = self.move_diag(
            Code::AmbiguousMove,
            m,
            st,
            format!(
                "{} matches {} moves that take different pieces: {}; the route must be written in full (replay went on with {})",
                self.text_of(m.span),
                cands.len(),
                names.join(", "),
                texts[chosen]
            ),
        );
        d.rule = Some("PDN 3.0 (ambiguous captures are written in full)".into());
        d.legal = Some(texts);
        self.diags.push(d);
        let legal = self.b.resolver.legal();
        self.b.route.clear();
        self.b.route.extend_from_slice(legal.path(chosen));
        (
            legal.moves()[chosen],
            Played::Irregular(Code::AmbiguousMove),
            true,
        )
    }

    /// An illegal move: reported, and played as recorded when the board allows it (FMJD
    /// 5.4). `None` if nothing is left to play: the move of the other side was played (a
    /// missing ply), or the line cannot go on.
    fn irregular(
        &mut self,
        m: &MoveRef<'_>,
        ill: Illegal<V::B>,
        st: &mut LineState<V::B>,
    ) -> Option<(Move<V::B>, Played, bool)> {
        let side = st.pos.side();
        let code = Code::from_resolution(ill.code);
        let mut d = self.move_diag(code, m, st, ill.message.clone());
        d.rule = Some(ill.rule.into());
        d.legal = Some(self.b.resolver.legal_texts());
        let Some(p) = ill.play else {
            d.message
                .to_mut()
                .push_str("; the rest of this line cannot be replayed");
            self.diags.push(d);
            st.stopped = true;
            if st.main {
                self.complete = false;
            }
            return None;
        };
        if p.side != side {
            d.message.to_mut().push_str("; played as recorded");
        } else {
            // One rule reference a finding: the article broken (the `rule`); the one that
            // lets an irregular move stand (FMJD 5.4) is in docs/rules.md.
            d.message
                .to_mut()
                .push_str("; the move is played as recorded");
        }
        self.diags.push(d);
        self.b.route.clear();
        self.b.route.extend_from_slice(&p.route);
        if p.side != side {
            // A missing ply: the other side's move, then our turn again (with two sides,
            // the turn passes back to `side` as the move is played).
            self.finish(m, st, p.side, p.mv, Played::Irregular(code), false);
            return None;
        }
        Some((p.mv, Played::Irregular(code), false))
    }

    /// [`Self::play_spec`] in probe mode on the main line: the move played if the full
    /// replay would play it without an error, else the replay halts at its ply.
    fn probe_spec(&mut self, recorded: Recorded<'g, '_>, st: &mut LineState<V::B>) -> usize {
        let Recorded {
            item: m,
            spec,
            rest,
        } = recorded;
        let ply = st.next_ply;
        if self.game_over(&st.pos).is_some() {
            self.halt(ply);
            return 0;
        }
        let side = st.pos.side();
        let (index, used) = match self.b.resolver.resolve_quick(&st.pos, spec) {
            Some(Ok(index)) => (index, 0),
            Some(Err(resolve::Ambiguous)) => {
                self.halt(ply);
                return 0;
            }
            None => {
                // A capture written one jump per move is joined when the first jump is
                // an unfinished capture (as in `play_spec`); anything else is an error.
                let joined = match self.join_split(&st.pos, spec, rest) {
                    Some((Resolution::Legal { index, .. }, n)) => Some((index, n)),
                    _ => None,
                };
                let unfinished = joined.is_some()
                    && matches!(
                        self.b.resolver.resolve_prepared(&st.pos, spec),
                        Resolution::Illegal(ref ill) if ill.code == resolve::Code::UnfinishedCapture
                    );
                match joined {
                    Some(j) if unfinished => j,
                    _ => {
                        self.halt(ply);
                        return 0;
                    }
                }
            }
        };
        let legal = self.b.resolver.legal();
        let mv = legal.moves()[index];
        self.b.route.clear();
        self.b.route.extend_from_slice(legal.path(index));
        self.finish(m, st, side, mv, Played::Legal, false);
        if used > 0 {
            st.after_setup = true;
        }
        used
    }

    /// The second common case: a capture written `from x to` (with the variant's own capture
    /// separator) that names exactly one legal move, played without building a move
    /// specification. Anything else (no match, several moves, the game over, another
    /// separator that deserves a note) is left to the resolver; true if the move was played.
    fn quick_capture(&mut self, m: &MoveRef<'g>, st: &mut LineState<V::B>) -> bool {
        let MoveKind::Capture(sep) = m.kind else {
            return false;
        };
        if m.squares.len() != 2 || !matches!(sep, 'x' | 'X' | ':' | '×') {
            return false;
        }
        let bit = |s| square_bit(self.numbering, s);
        let (Some(from), Some(to)) = (bit(m.squares[0]), bit(m.squares[1])) else {
            return false;
        };
        let side = st.pos.side();
        if !st.pos.pieces(side).has(from) {
            return false;
        }
        // The game is not over: the side to move has a legal move (the capture, if it is one),
        // so only the breakthrough rule could end it (as `game_over` would say).
        if V::RULES.variant == crate::rules::Variant::Breakthrough && st.pos.kings().any() {
            return false;
        }
        match V::one_jump_between(self.geo, &st.pos, from, to) {
            // Every capture is one man's jump: this one is the legal move between the two
            // squares, alone (one route, the piece halfway), played without a move list.
            Some(Some((mv, step))) => {
                self.b.route.clear();
                self.b.route.push(step);
                self.finish(m, st, side, mv, Played::Legal, false);
                return true;
            }
            // No legal move captures from `from` to `to`: the resolver says why.
            Some(None) => return false,
            None => {}
        }
        self.b.resolver.crossed = st.crossed & st.pos.pieces(side);
        // Only the captures from `from` to `to` are listed (the others are searched for the
        // precedence they set): the legal moves that match, as the full list has them.
        let legal = self.b.resolver.captures_between(&st.pos, from, to);
        let mut found: Option<usize> = None;
        for (i, mv) in legal.moves().iter().enumerate() {
            if mv.from as u32 != from || mv.to as u32 != to || !mv.is_capture() {
                continue;
            }
            match found {
                None => found = Some(i),
                // Two routes taking the same pieces are one move; different pieces: ambiguous.
                Some(j) if legal.moves()[j].captured == mv.captured => {}
                Some(_) => return false,
            }
        }
        let Some(index) = found else {
            return false;
        };
        let mv = legal.moves()[index];
        // Every legal move from `from` to `to` takes the pieces this one takes (the loop
        // above): the short notation names it alone.
        let ambiguous = false;
        self.b.route.clear();
        self.b.route.extend_from_slice(legal.path(index));
        self.finish(m, st, side, mv, Played::Legal, ambiguous);
        true
    }

    /// The common case checked directly, without generating the legal moves: a plain
    /// `from-to` move of the side to move when no capture is possible.
    #[inline]
    fn quick(&self, pos: &Position<V::B>, m: &MoveRef<'_>) -> Option<Move<V::B>> {
        let rules = V::RULES;
        if m.kind != MoveKind::Normal || m.squares.len() != 2 || rules.same_king_limit > 0 {
            return None;
        }
        if rules.variant == crate::rules::Variant::Breakthrough && pos.kings().any() {
            return None;
        }
        let bit = |s| square_bit(self.numbering, s);
        let from = bit(m.squares[0])?;
        let to = bit(m.squares[1])?;
        let side = pos.side();
        if !pos.pieces(side).has(from) || pos.occupied().has(to) {
            return None;
        }
        let geo = self.geo;
        let is_king = pos.kings().has(from);
        if is_king {
            if !is_king_move::<V>(geo, from, to, pos.occupied()) {
                return None;
            }
        } else if !V::is_man_step_on(geo, side, from, to) {
            return None;
        }
        if V::has_capture_on(geo, pos) {
            return None;
        }
        let promotes = !is_king && geo.promotion_row(side).has(to);
        Some(Move::new(from, to, V::B::ZERO, promotes, is_king))
    }

    /// Join a capture that stops half-way with the following recorded moves that go on from
    /// where it stopped, as long as the joined capture is legal or still unfinished.
    fn join_split(
        &mut self,
        pos: &Position<V::B>,
        spec: &MoveSpec,
        rest: Items<'_>,
    ) -> Option<(Resolution<V::B>, usize)> {
        let mut squares = spec.readings.first()?.clone();
        for (k, (_, node)) in rest.enumerate() {
            match node {
                Node::Comment { .. } | Node::Nag { .. } => continue,
                Node::Move(next) => {
                    let next = to_spec(&self.record.move_ref(next))?;
                    let more = next.readings.first()?;
                    if more.len() < 2 || Some(&more[0]) != squares.last() {
                        return None;
                    }
                    squares.extend_from_slice(&more[1..]);
                    let joined = MoveSpec::new(squares.clone(), Separator::Capture);
                    match self.b.resolver.resolve_prepared(pos, &joined) {
                        r @ Resolution::Legal { .. } => return Some((r, k + 1)),
                        Resolution::Illegal(i) if i.code == resolve::Code::UnfinishedCapture => {}
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        None
    }

    /// Of several moves an ambiguous notation may mean, the one after which the record goes
    /// on legally the longest (ties: the first).
    fn choose(&mut self, cands: &[usize], rest: Items<'_>, pos: &Position<V::B>) -> usize {
        let moves: Vec<Move<V::B>> = cands
            .iter()
            .map(|&i| self.b.resolver.legal().moves()[i])
            .collect();
        let mut best = (0, cands[0]);
        for (k, mv) in moves.iter().enumerate() {
            let mut p = pos.after(mv, V::RULES);
            let mut n = 0;
            for (_, node) in rest.clone() {
                if n >= LOOKAHEAD {
                    break;
                }
                match node {
                    Node::Move(m) => {
                        let m = self.record.move_ref(m);
                        if !self.look_ahead_play(&mut p, &m) {
                            break;
                        }
                        n += 1;
                    }
                    Node::Setup { .. } => break,
                    _ => {}
                }
            }
            if n > best.0 {
                best = (n, cands[k]);
            }
        }
        best.1
    }

    /// Play a recorded move in `pos` if it names one legal move there, through the
    /// look-ahead's own resolver (which leaves the replay's alone): true if it was played.
    pub(super) fn look_ahead_play(&mut self, pos: &mut Position<V::B>, m: &MoveRef<'_>) -> bool {
        let Some(spec) = to_spec(m) else {
            return false;
        };
        match self.b.look.legal_index(pos, &spec) {
            Some(index) => {
                let mv = self.b.look.legal().moves()[index];
                *pos = pos.after(&mv, V::RULES);
                true
            }
            None => false,
        }
    }
}

/// True if a king on `from` can move to `to` without capturing (both squares of the board,
/// `to` empty), the squares in between empty where kings fly: what `quick` checks of a
/// king's plain move (the fast lane plays men's moves only).
#[inline(always)]
pub(super) fn is_king_move<V: Spec>(
    geo: &Geometry<V::B>,
    from: u32,
    to: u32,
    occupied: V::B,
) -> bool {
    let Some(d) = geo.direction(from, to) else {
        return false;
    };
    if !V::RULES.king_moves.has(d) {
        return false;
    }
    if V::RULES.king_range == KingRange::Short {
        geo.neighbour(from, d) == Some(to)
    } else {
        let between = geo.ray(from, d) & !(geo.ray(to, d) | V::B::bit(to));
        (between & occupied).is_empty()
    }
}
