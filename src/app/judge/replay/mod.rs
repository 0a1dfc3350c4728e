//! Replaying a game under the rules of its variant: the main line, variations from their own
//! branch position, book-style replies told from variations, setups, irregular moves played
//! as recorded (FMJD 5.4), move numbers and draw rules; diagnostics for everything found.
//! The replay reads a game through its [`Record`]; `shape` tells book-style replies from
//! variations, `play` plays one recorded move, `spec` turns a move as written into what the
//! resolver matches.

mod lane;
mod play;
mod shape;
mod spec;
pub mod tree;

use std::any::Any;
use std::cell::RefCell;

use crate::rules::{Bits, Color, Geometry, Move, Numbering, Position, Role, Spec, Step};
use crate::syntax::{MoveRef, Span};

use crate::app::judge::diagnostic::{Code, Diagnostic};
use crate::app::judge::draws::Tracker;
use crate::app::judge::resolve::{self, MoveSpec, Resolver};
use crate::app::model::record::{LineRef, Node, Record};
use crate::app::write::board;

pub use spec::{legal_texts, spec_into, to_spec};

/// The buffers of a replay that outlive it on its thread: the resolvers' move lists, the
/// route, the move being resolved and the draw tracker's history. The next replay of the same
/// variant on the thread takes them instead of allocating its own (a worker replays game after
/// game: its buffers are allocated once per variant, not once per game).
struct Spare<V: Spec> {
    resolver: Resolver<V>,
    look: Resolver<V>,
    route: Vec<Step>,
    spec: MoveSpec,
    draws: Tracker<V::B>,
}

/// Buffers larger than this (in entries, see [`Resolver::held`]) are dropped with their
/// replay rather than kept: a rare position with thousands of capture routes does not hold
/// its memory for the rest of the run.
const SPARE_MAX: usize = 1 << 14;

thread_local! {
    /// This thread's spare buffers, one [`Spare`] per variant replayed (a handful at most).
    static SPARES: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

impl<V: Spec> Spare<V> {
    /// This thread's spare buffers for variant `V` (those a replay left, else new ones),
    /// ready for a game from `start`.
    fn take(start: &Position<V::B>) -> Box<Spare<V>> {
        let kept = SPARES
            .try_with(|s| {
                let mut s = s.try_borrow_mut().ok()?;
                let at = s.iter().position(|b| b.is::<Spare<V>>())?;
                s.swap_remove(at).downcast::<Spare<V>>().ok()
            })
            .ok()
            .flatten();
        match kept {
            Some(mut b) => {
                // What the last game left in them: nothing is read before it is set again
                // but the men that crossed the far row, cleared here as a new resolver's are.
                b.resolver.crossed = V::B::ZERO;
                b.look.crossed = V::B::ZERO;
                b.draws.renew(start);
                b.route.clear();
                b
            }
            None => Box::new(Spare {
                resolver: Resolver::new(),
                look: Resolver::new(),
                route: Vec::with_capacity(32),
                spec: MoveSpec::default(),
                draws: Tracker::new(V::RULES, V::geometry(), start),
            }),
        }
    }

    /// Leave these buffers to the thread's next replay of variant `V` (unless they grew too
    /// large to keep).
    fn keep(self: Box<Self>) {
        if self.resolver.held() + self.look.held() + self.route.capacity() > SPARE_MAX {
            return;
        }
        let _ = SPARES.try_with(|s| {
            if let Ok(mut s) = s.try_borrow_mut() {
                s.push(self);
            }
        });
    }
}

/// Deepest variation nesting that is replayed.
const MAX_DEPTH: u32 = 100;
/// How many plies ahead an ambiguous move looks to choose its reading.
const LOOKAHEAD: usize = 40;

/// What to put into diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    /// A board diagram with each move diagnostic (human output).
    pub diagrams: bool,
    /// Replay the main line only (book-style replies are part of it): variations are not
    /// replayed (`--main-line`).
    pub main_line: bool,
}

/// How a move was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// A legal move.
    Legal,
    /// An irregular move played as recorded, with the code reported for it.
    Irregular(Code),
}

/// A move replayed, given to an [`Observer`].
#[derive(Debug)]
pub struct PlyEvent<'a, V: Spec> {
    /// The move as written.
    pub item: &'a MoveRef<'a>,
    /// True on the main line (book-style replies included).
    pub main: bool,
    /// Which line the move is on: 0 for the main line, a number of its own for every
    /// variation (a book-style reply is on the line it answers).
    pub line: u32,
    /// Ply along the main line (for a variation, the ply it would have).
    pub ply: u32,
    /// Move number.
    pub number: u32,
    /// The side that moved.
    pub side: Color,
    /// The position before the move.
    pub before: &'a Position<V::B>,
    /// The position after it.
    pub after: &'a Position<V::B>,
    /// The move.
    pub mv: &'a Move<V::B>,
    /// Its route (captured pieces with landing squares).
    pub route: &'a [Step],
    /// True if another legal move has the same start and destination but takes other
    /// pieces (the move must be written in full).
    pub ambiguous: bool,
    /// Legal or irregular.
    pub played: Played,
    /// True if the position before the move was reached without an error on its line: every
    /// move before it on the way from the start (or from the last setup) was legal. (After an
    /// irregular move played as recorded, an ambiguous move read one way or a missing ply,
    /// the positions may not be those of the game.)
    pub clean: bool,
}

/// Receives every move and setup of a replay (exporters and statistics). The methods are
/// generic, so one observer serves every variant.
pub trait Observer {
    /// A move was played.
    fn ply<V: Spec>(&mut self, _event: &PlyEvent<'_, V>) {}
    /// The start position is known (`main`), or a setup replaced the position.
    fn position<V: Spec>(&mut self, _pos: &Position<V::B>, _main: bool) {}
    /// A setup (`/FEN/`, or the null move that only changes the side to move) replaced the
    /// position of line `line` (see [`PlyEvent::line`]) after `ply` plies; `clean` as
    /// [`PlyEvent::clean`] for the position it sets (a full setup is always clean).
    fn setup<V: Spec>(&mut self, _pos: &Position<V::B>, _line: u32, _ply: u32, _clean: bool) {}
    /// The parenthesised line starting at byte `span` of the game was read as `branch`.
    fn variation(&mut self, _span: u32, _branch: Branch) {}
    /// False if the observer ignores every event (the replay may then be skipped or reused).
    fn wants_events(&self) -> bool {
        true
    }
    /// True if the observer can forget what it saw ([`Observer::restart`]): the replay of a
    /// game whose variant is to be chosen among several may then be watched from the first
    /// candidate on, and run again only if another one wins (else the first is only probed
    /// and the winner replayed).
    fn can_restart(&self) -> bool {
        false
    }
    /// Forget every event seen: the game will be replayed again, in another variant.
    fn restart(&mut self) {}
}

/// An observer that does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Ignore;

impl Observer for Ignore {
    fn wants_events(&self) -> bool {
        false
    }
}

/// What a replay found.
#[derive(Debug)]
pub(crate) struct Replayed<V: Spec> {
    /// Diagnostics, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// Plies of the main line replayed.
    pub plies: u32,
    /// The position at the end of the main line (as far as it was replayed).
    pub last: Position<V::B>,
    /// True if the whole main line was replayed.
    pub complete: bool,
    /// The first draw rule reached on the main line.
    pub draw: Option<crate::app::judge::draws::Reached>,
    /// Plies of the main line after the draw rule was reached.
    pub plies_after_draw: u32,
    /// The ply of the main line's first error (0 for a setup that cannot be read),
    /// `u32::MAX` without error: what [`Replayer::probe`] answers.
    pub reach: u32,
    /// Where the parenthesised lines read as book-style replies start (part of the main
    /// line; every other parenthesis holds a variation).
    pub replies: Vec<u32>,
}

struct LineState<B> {
    pos: Position<B>,
    prev: Option<Position<B>>,
    prev_number: u32,
    prev_ply: u32,
    prev_crossed: B,
    next_ply: u32,
    number: u32,
    after_setup: bool,
    stopped: bool,
    main: bool,
    /// Line id (see [`PlyEvent::line`]).
    id: u32,
    crossed: B,
    /// No error on the way to `pos` (see [`PlyEvent::clean`]), and to `prev`.
    clean: bool,
    prev_clean: bool,
}

impl<B: Bits> LineState<B> {
    /// The main line from `start`, its first move numbered `number`.
    fn main(start: Position<B>, number: u32) -> Self {
        LineState {
            pos: start,
            prev: None,
            prev_number: number,
            prev_ply: 0,
            prev_crossed: B::ZERO,
            next_ply: 1,
            number,
            after_setup: true,
            stopped: false,
            main: true,
            id: 0,
            crossed: B::ZERO,
            clean: true,
            prev_clean: true,
        }
    }

    /// A variation (line `id`) that is an alternative to this line's last move, played from
    /// `prev`, the position before it.
    fn alternative_to_last(&self, prev: Position<B>, id: u32) -> Self {
        LineState {
            pos: prev,
            prev: None,
            prev_number: self.prev_number,
            prev_ply: self.prev_ply,
            prev_crossed: self.prev_crossed,
            next_ply: self.prev_ply,
            number: self.prev_number,
            after_setup: false,
            stopped: false,
            main: false,
            id,
            crossed: self.prev_crossed,
            clean: self.prev_clean,
            prev_clean: self.prev_clean,
        }
    }

    /// A variation (line `id`) that is an alternative to this line's coming move, from the
    /// position now.
    fn alternative_to_next(&self, id: u32) -> Self {
        LineState {
            pos: self.pos,
            prev: None,
            prev_number: self.number,
            prev_ply: self.next_ply,
            prev_crossed: self.crossed,
            next_ply: self.next_ply,
            number: self.number,
            after_setup: self.after_setup,
            stopped: false,
            main: false,
            id,
            crossed: self.crossed,
            clean: self.clean,
            prev_clean: self.clean,
        }
    }
}

/// How a game writes the second player's moves, decided once per game (docs/pdn.md#movetext): in
/// Manoury's book style the reply is in parentheses (`1. 32-28 (19-23)`), in PDN a
/// parenthesis is always a variation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// Replies in parentheses: a one-move parenthesis after a move is the reply, legal or
    /// not.
    Book,
    /// Second-player moves written bare: every parenthesis is a variation.
    Pdn,
}

/// Where a parenthesised line branches from, as the replay decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Branch {
    /// A book-style reply: it continues its line.
    Reply,
    /// An alternative to the last move: from the position before it (PDN's rule).
    Last,
    /// An alternative to the coming move (its number names that move, or only the side to
    /// move can play it): from the position now; the line goes on after `)`.
    Next,
}

/// A replay of one game in variant `V`.
pub(crate) struct Replayer<'g, V: Spec, O: Observer> {
    record: &'g Record,
    /// The game's text (spans index into it).
    text: &'g str,
    settings: Settings,
    first_mover: Color,
    /// The variant's standard numbering (`V::numbering()`, looked up once a replay rather
    /// than once a square).
    numbering: &'static Numbering,
    /// The variant's geometry (`V::geometry()`, looked up once a replay: every lookup checks
    /// that its lazily built table is there, and the quick paths ask several times a ply).
    geo: &'static Geometry<V::B>,
    /// The resolvers, the route, the move spec and the draw tracker (see [`Spare`]).
    b: Box<Spare<V>>,
    observer: &'g mut O,
    diags: Vec<Diagnostic>,
    plies: u32,
    complete: bool,
    quirks: Vec<resolve::Quirk>,
    depth: u32,
    deep_noted: bool,
    split_noted: bool,
    style: Style,
    lines: u32,
    /// Probe mode (see [`Replayer::probe`]): stop at the first error of the main line.
    probe: bool,
    /// The ply of the first error of the main line (0 for a bad setup).
    reach: u32,
    /// Probe mode: an error was found; only setups are still looked at.
    halted: bool,
    /// See [`Replayed::replies`].
    replies: Vec<u32>,
    /// Runs of the commonest moves are played in the fast lane (see `lane`): on for an
    /// observer that ignores every event, off only in the tests that hold the lane's answers
    /// to the general path's.
    lane_on: bool,
}

impl<V: Spec, O: Observer> std::fmt::Debug for Replayer<'_, V, O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replayer")
            .field("plies", &self.plies)
            .field("depth", &self.depth)
            .field("complete", &self.complete)
            .finish_non_exhaustive()
    }
}

impl<'g, V: Spec, O: Observer> Replayer<'g, V, O> {
    /// A replay of the game of `record` (whose text is `text`) from `start`.
    pub(crate) fn new(
        record: &'g Record,
        text: &'g str,
        start: &Position<V::B>,
        settings: Settings,
        observer: &'g mut O,
    ) -> Self {
        let lane_on = !observer.wants_events();
        Replayer {
            record,
            text,
            settings,
            first_mover: V::RULES.first_mover(),
            numbering: V::numbering(),
            geo: V::geometry(),
            b: Spare::take(start),
            observer,
            diags: Vec::new(),
            plies: 0,
            complete: true,
            quirks: Vec::new(),
            depth: 0,
            deep_noted: false,
            split_noted: false,
            style: Style::Pdn,
            lines: 0,
            probe: false,
            reach: u32::MAX,
            halted: false,
            replies: Vec::new(),
            lane_on,
        }
    }

    /// This replay without the fast lane: every move through the general path (the lane's
    /// tests compare the two).
    #[cfg(test)]
    pub(crate) fn without_lane(mut self) -> Self {
        self.lane_on = false;
        self
    }

    /// How far the main line from `start` replays before its first error: the ply of that
    /// error (0 for a setup with a bad FEN), `u32::MAX` if there is none — what a full
    /// replay's error diagnostics would say (outside variations), found without writing
    /// them: variations are not replayed, illegal moves are not explained, and the replay
    /// stops at the first error. Used to choose among the variants a record may be.
    pub(crate) fn probe(mut self, start: Position<V::B>, number: u32) -> u32 {
        self.probe = true;
        self.style = self.style_of(&start);
        let mut st = LineState::main(start, number);
        self.line(self.record.body(), &mut st);
        self.b.keep();
        self.reach
    }

    /// Probe mode: the main line has an error at `ply`.
    fn halt(&mut self, ply: u32) {
        self.reach = self.reach.min(ply);
        self.halted = true;
    }

    /// Replay the main line from `start`, its first move numbered `number`.
    pub(crate) fn run(mut self, start: Position<V::B>, number: u32) -> Replayed<V> {
        self.observer.position::<V>(&start, true);
        self.style = self.style_of(&start);
        let mut st = LineState::main(start, number);
        self.line(self.record.body(), &mut st);
        let plies_after_draw = self
            .b
            .draws
            .reached
            .as_ref()
            .map_or(0, |r| self.plies.saturating_sub(r.ply));
        let draw = self.b.draws.reached.take();
        self.b.keep();
        Replayed {
            diagnostics: self.diags,
            plies: self.plies,
            last: st.pos,
            complete: self.complete && !st.stopped,
            draw,
            plies_after_draw,
            reach: self.reach,
            replies: self.replies,
        }
    }

    fn line(&mut self, line: LineRef, st: &mut LineState<V::B>) {
        if self.depth >= MAX_DEPTH {
            if !self.deep_noted {
                self.deep_noted = true;
                self.diags.push(Diagnostic::new(
                    Code::Tolerated,
                    format!("variations nested deeper than {MAX_DEPTH} levels are not replayed"),
                ));
            }
            return;
        }
        self.depth += 1;
        let record = self.record;
        let mut items = record.items(line);
        // The last item before this one that is neither a comment nor a NAG is a move.
        let mut follows_move = false;
        // An item the fast lane took from `items` but left to the general path.
        let mut left = None;
        while let Some((at, node)) = left.take().or_else(|| items.next()) {
            let was_move = follows_move;
            if !matches!(node, Node::Comment { .. } | Node::Nag { .. }) {
                follows_move = matches!(node, Node::Move(_));
            }
            if self.halted {
                // Probe mode after an error: only a later setup that cannot be read could
                // still lower the answer (a full replay reports it without a ply).
                if let Node::Setup { .. } = node
                    && st.main
                    && crate::rules::fen::parse(record.node_text(node))
                        .and_then(|f| f.position(V::numbering(), V::geometry(), st.pos.side()))
                        .is_err()
                {
                    self.reach = 0;
                }
                continue;
            }
            match node {
                Node::Comment { .. } | Node::Nag { .. } => {}
                Node::Setup { span, .. } => self.setup(record.node_text(node), *span, st),
                Node::Move(m) => {
                    // A run of plain man moves and one-jump captures from here on: played in
                    // the fast lane.
                    if self.lane_on
                        && lane::open::<V>(st)
                        && let lane::Lane::Stopped(stop) = (lane::Ctx {
                            record,
                            numbering: self.numbering,
                            geo: self.geo,
                            first_mover: self.first_mover,
                            b: &mut self.b,
                            plies: &mut self.plies,
                        })
                        .lane(m, &mut items, st)
                    {
                        // (The comments and NAGs it passed over leave `follows_move` as
                        // it is: the last item before `stop` is a move.)
                        left = stop;
                        continue;
                    }
                    if !st.stopped {
                        // The later fragments of a capture written one jump per move (moves,
                        // comments and NAGs only) were played with it.
                        let m = record.move_ref(m);
                        for _ in 0..self.play_item(&m, line, at, st) {
                            items.next();
                        }
                    }
                }
                Node::Variation { span, .. } => {
                    if st.stopped && st.prev.is_none() {
                        continue;
                    }
                    let inside = record.inside(at);
                    let branch = self.branch(inside, st, was_move);
                    if (self.probe || self.settings.main_line) && branch != Branch::Reply {
                        // Variations do not decide (and `--main-line` leaves them out).
                        continue;
                    }
                    self.observer.variation(span.start, branch);
                    // What a variation finds is in a variation, whatever it is.
                    let found = self.diags.len();
                    match branch {
                        Branch::Reply => {
                            if !self.probe {
                                self.replies.push(span.start);
                            }
                            self.line(inside, st);
                        }
                        Branch::Last => {
                            let Some(prev) = st.prev else { continue };
                            self.lines += 1;
                            let mut sub = st.alternative_to_last(prev, self.lines);
                            self.line(inside, &mut sub);
                        }
                        Branch::Next => {
                            if st.stopped {
                                continue;
                            }
                            self.lines += 1;
                            let mut sub = st.alternative_to_next(self.lines);
                            self.line(inside, &mut sub);
                        }
                    }
                    if branch != Branch::Reply {
                        for d in &mut self.diags[found..] {
                            d.variation = true;
                        }
                    }
                }
            }
        }
        self.depth -= 1;
    }

    fn setup(&mut self, fen: &str, span: Span, st: &mut LineState<V::B>) {
        let parsed = crate::rules::fen::parse(fen);
        // The null move `/FEN "B::"/`: only the side to move changes.
        if let Ok(s) = &parsed
            && s.pieces.is_empty()
            && let Some(side) = s.side
        {
            st.pos.set_side(side);
            st.after_setup = true;
            self.observer
                .setup::<V>(&st.pos, st.id, st.next_ply - 1, st.clean);
            return;
        }
        match parsed.and_then(|s| s.position(V::numbering(), V::geometry(), st.pos.side())) {
            Ok(pos) => {
                st.pos = pos;
                st.prev = None;
                st.after_setup = true;
                st.stopped = false;
                st.crossed = V::B::ZERO;
                st.clean = true;
                if st.main {
                    self.b.draws.reset(&pos);
                }
                self.observer.position::<V>(&pos, st.main);
                self.observer.setup::<V>(&pos, st.id, st.next_ply - 1, true);
            }
            Err(e) => {
                if st.main {
                    if self.probe {
                        self.halt(0);
                    } else {
                        self.reach = 0;
                    }
                }
                self.diags.push(
                    Diagnostic::new(Code::BadFen, format!("setup `/FEN \"{fen}\"/`: {e}"))
                        .at(span)
                        .rule("PDN 3.0 setup command (FEN)"),
                );
                st.stopped = true;
                if st.main {
                    self.complete = false;
                }
            }
        }
    }

    fn move_diag(
        &self,
        code: Code,
        m: &MoveRef<'_>,
        st: &LineState<V::B>,
        message: String,
    ) -> Diagnostic {
        let mut d = Diagnostic::new(code, message).at(m.span);
        d.ply = Some(st.next_ply);
        d.move_number = Some(st.number);
        d.side = Some(st.pos.side());
        d.mv = Some(self.text_of(m.span).to_string());
        if !st.main {
            d.variation = true;
            d.message = format!("in a variation: {}", d.message).into();
        }
        if self.settings.diagrams && code.is_move_code() {
            d.board = Some(board::diagram::<V>(&st.pos));
        }
        d
    }

    fn check_number(&mut self, m: &MoveRef<'_>, st: &mut LineState<V::B>) {
        // By reference, so that the token's fields are read one by one as the record wrote
        // them: a copy of the whole token would read them in one wide load right after
        // their narrower stores (a failed store-to-load forwarding on every numbered move).
        let Some(tok) = &m.number else { return };
        let second = st.pos.side() != self.first_mover;
        if st.after_setup {
            st.number = tok.number;
            return;
        }
        let problem = if tok.number != st.number {
            Some(format!(
                "move number {}{} where {}{} was expected",
                tok.number,
                if tok.second_player { "..." } else { "." },
                st.number,
                if second { "..." } else { "." }
            ))
        } else if tok.second_player && !second {
            Some(format!(
                "`{}...` marks the second player's move, but this is the first player's move",
                tok.number
            ))
        } else {
            None
        };
        if let Some(msg) = problem {
            let mut d = Diagnostic::new(Code::MoveNumber, msg).at(tok.span);
            d.ply = Some(st.next_ply);
            d.move_number = Some(st.number);
            d.side = Some(st.pos.side());
            self.diags.push(d);
            st.number = tok.number;
        }
    }

    /// The text of a span of the game (empty if out of range).
    fn text_of(&self, span: Span) -> &'g str {
        self.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    fn game_over(&self, pos: &Position<V::B>) -> Option<String> {
        if self.b.resolver.legal().is_empty() {
            let side = match pos.side() {
                Color::White => "White",
                Color::Black => "Black",
            };
            return Some(format!("{side} has no legal move: the game was over"));
        }
        if V::RULES.variant == crate::rules::Variant::Breakthrough && pos.kings().any() {
            return Some("a king has been crowned: the game was over (breakthrough)".into());
        }
        None
    }

    /// Play `mv`, a move of `side`, in the line's state and do each ply's bookkeeping: the
    /// observer's event, the draw rules (main line), the men that crossed their far row, the
    /// numbering. The position is played in place (the one before it kept as `prev`): no
    /// position is built elsewhere and copied in. `side` is the side to move but for a
    /// missing ply (see `irregular`), the other side's move, after which the turn comes back.
    #[inline(always)]
    fn finish(
        &mut self,
        m: &MoveRef<'_>,
        st: &mut LineState<V::B>,
        side: Color,
        mv: Move<V::B>,
        played: Played,
        ambiguous: bool,
    ) {
        let ply = st.next_ply;
        let before = st.prev.insert(st.pos);
        st.pos.set_side(side);
        st.pos.play(&mv, V::RULES);
        let event = PlyEvent::<V> {
            item: m,
            main: st.main,
            line: st.id,
            ply,
            number: st.number,
            side,
            before,
            after: &st.pos,
            mv: &mv,
            route: &self.b.route,
            ambiguous,
            played,
            clean: st.clean,
        };
        self.observer.ply::<V>(&event);
        if st.main {
            let before = self.b.draws.reached.is_some();
            self.b.draws.record(&mv, &st.pos, ply);
            if !before && let Some(r) = &mut self.b.draws.reached {
                r.span = Some(m.span);
            }
            self.plies = ply;
        }
        // Men that passed their far row during a capture and stayed men (only multiple
        // captures can do that, so the common case costs nothing).
        let crossed = if st.crossed.is_empty() && self.b.route.len() < 2 {
            V::B::ZERO
        } else {
            self.crossed_after(st.crossed, side, &mv, &st.pos)
        };
        st.prev_clean = st.clean;
        st.clean = st.clean && played == Played::Legal;
        st.prev_number = st.number;
        st.prev_ply = ply;
        st.prev_crossed = st.crossed;
        st.crossed = crossed;
        st.next_ply += 1;
        st.after_setup = false;
        if side != self.first_mover {
            st.number = st.number.saturating_add(1);
        }
    }

    /// The men of `side` that crossed their far row during a capture and stayed men, after
    /// `mv` led to `after` (`crossed`: those before it).
    #[inline(never)]
    fn crossed_after(
        &self,
        crossed: V::B,
        side: Color,
        mv: &Move<V::B>,
        after: &Position<V::B>,
    ) -> V::B {
        let promo = V::geometry().promotion_row(side);
        let mut crossed = crossed & !mv.captured;
        let moved_man = after
            .piece_at(mv.to as u32)
            .is_some_and(|p| p.role == Role::Man);
        let was_crossed = crossed.has(mv.from as u32);
        crossed &= !V::B::bit(mv.from as u32);
        let passed = self.b.route[..self.b.route.len().saturating_sub(1)]
            .iter()
            .any(|s| promo.has(s.landing as u32));
        if moved_man && (was_crossed || passed) {
            crossed |= V::B::bit(mv.to as u32);
        }
        crossed
    }
}
