//! Replaying a game under the rules of its variant: the main line, variations from their own
//! branch position, book-style replies told from variations, setups, irregular moves played
//! as recorded (FMJD 5.4), move numbers and draw rules; diagnostics for everything found.

use crate::rules::fen::SquareName;
use crate::rules::notation::{self, SquareStyle};
use crate::rules::{Bits, Color, Lookup, Move, MoveList, Position, Role, Spec, Step};
use crate::syntax::{Game, Item, Line, MoveItem, MoveKind, Span, Square};

use super::board;
use super::diagnostic::{Code, Diagnostic};
use super::draws::Tracker;
use super::resolve::{self, MoveSpec, Resolution, Resolver, Separator};

/// Deepest variation nesting that is replayed.
const MAX_DEPTH: u32 = 100;
/// How many plies ahead an ambiguous move looks to choose its reading.
const LOOKAHEAD: usize = 40;

/// What to put into diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// A board diagram with each move diagnostic (human output).
    pub diagrams: bool,
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
    pub item: &'a MoveItem,
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
}

/// Receives every move and setup of a replay (exporters and statistics). The methods are
/// generic, so one observer serves every variant.
pub trait Observer {
    /// A move was played.
    fn ply<V: Spec>(&mut self, _event: &PlyEvent<'_, V>) {}
    /// The start position is known (`main`), or a setup replaced the position.
    fn position<V: Spec>(&mut self, _pos: &Position<V::B>, _main: bool) {}
    /// The parenthesised line starting at byte `span` of the game was read as `branch`.
    fn variation(&mut self, _span: u32, _branch: Branch) {}
    /// False if the observer ignores every event (the replay may then be skipped or reused).
    fn wants_events(&self) -> bool {
        true
    }
}

/// An observer that does nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ignore;

impl Observer for Ignore {
    fn wants_events(&self) -> bool {
        false
    }
}

/// What a replay found.
#[derive(Debug)]
pub struct Replayed<V: Spec> {
    /// Diagnostics, in the order found.
    pub diagnostics: Vec<Diagnostic>,
    /// Plies of the main line replayed.
    pub plies: u32,
    /// The position at the end of the main line (as far as it was replayed).
    pub last: Position<V::B>,
    /// True if the whole main line was replayed.
    pub complete: bool,
    /// The first draw rule reached on the main line.
    pub draw: Option<super::draws::Reached>,
    /// Plies of the main line after the draw rule was reached.
    pub plies_after_draw: u32,
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
        }
    }
}

/// How a game writes the second player's moves, decided once per game (RULES.md §1.4): in
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
pub struct Replayer<'g, V: Spec, O: Observer> {
    game: &'g Game,
    settings: Settings,
    first_mover: Color,
    resolver: Resolver<V>,
    look: Resolver<V>,
    route: Vec<Step>,
    spec: MoveSpec,
    observer: &'g mut O,
    diags: Vec<Diagnostic>,
    draws: Tracker<V::B>,
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
    /// Probe mode: the ply of the first error of the main line (0 for a bad setup).
    reach: u32,
    /// Probe mode: an error was found; only setups are still looked at.
    halted: bool,
}

impl<'g, V: Spec, O: Observer> Replayer<'g, V, O> {
    /// A replay of `game` from `start`.
    pub fn new(
        game: &'g Game,
        start: &Position<V::B>,
        settings: Settings,
        observer: &'g mut O,
    ) -> Self {
        Replayer {
            game,
            settings,
            first_mover: V::RULES.first_mover(),
            resolver: Resolver::new(),
            look: Resolver::new(),
            route: Vec::with_capacity(32),
            spec: MoveSpec::default(),
            observer,
            diags: Vec::new(),
            draws: Tracker::new(V::RULES, V::geometry(), start),
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
        }
    }

    /// How far the main line from `start` replays before its first error: the ply of that
    /// error (0 for a setup with a bad FEN), `u32::MAX` if there is none — what a full
    /// replay's error diagnostics would say (outside variations), found without writing
    /// them: variations are not replayed, illegal moves are not explained, and the replay
    /// stops at the first error. Used to choose among the variants a record may be.
    pub fn probe(mut self, start: Position<V::B>, number: u32) -> u32 {
        self.probe = true;
        self.style = self.style_of(&start);
        let mut st = LineState::main(start, number);
        self.line(&self.game.body, &mut st);
        self.reach
    }

    /// Probe mode: the main line has an error at `ply`.
    fn halt(&mut self, ply: u32) {
        self.reach = self.reach.min(ply);
        self.halted = true;
    }

    /// Replay the main line from `start`, its first move numbered `number`.
    pub fn run(mut self, start: Position<V::B>, number: u32) -> Replayed<V> {
        self.observer.position::<V>(&start, true);
        self.style = self.style_of(&start);
        let mut st = LineState::main(start, number);
        self.line(&self.game.body, &mut st);
        let plies_after_draw = self
            .draws
            .reached
            .as_ref()
            .map_or(0, |r| self.plies.saturating_sub(r.ply));
        Replayed {
            diagnostics: self.diags,
            plies: self.plies,
            last: st.pos,
            complete: self.complete && !st.stopped,
            draw: self.draws.reached.take(),
            plies_after_draw,
        }
    }

    fn line(&mut self, line: &'g Line, st: &mut LineState<V::B>) {
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
        let mut i = 0;
        while i < line.items.len() {
            let item = &line.items[i];
            i += 1;
            if self.halted {
                // Probe mode after an error: only a later setup that cannot be read could
                // still lower the answer (a full replay reports it without a ply).
                if let Item::Setup(s) = item
                    && st.main
                    && crate::rules::fen::parse(&s.fen)
                        .and_then(|f| f.position(V::numbering(), V::geometry(), st.pos.side()))
                        .is_err()
                {
                    self.reach = 0;
                }
                continue;
            }
            match item {
                Item::Comment(_) | Item::Nag(_) => {}
                Item::Setup(s) => self.setup(&s.fen, s.span, st),
                Item::Move(m) => {
                    if !st.stopped {
                        i += self.play_item(m, &line.items[i..], st);
                    }
                }
                Item::Variation(v) => {
                    if st.stopped && st.prev.is_none() {
                        continue;
                    }
                    let follows_move = matches!(
                        line.items[..i - 1]
                            .iter()
                            .rev()
                            .find(|it| !matches!(it, Item::Comment(_) | Item::Nag(_))),
                        Some(Item::Move(_))
                    );
                    let branch = self.branch(&v.line, st, follows_move);
                    if self.probe && branch != Branch::Reply {
                        // Variations do not decide.
                        continue;
                    }
                    self.observer.variation(v.span.start, branch);
                    match branch {
                        Branch::Reply => self.line(&v.line, st),
                        Branch::Last => {
                            let Some(prev) = st.prev else { continue };
                            self.lines += 1;
                            let mut sub = st.alternative_to_last(prev, self.lines);
                            self.line(&v.line, &mut sub);
                        }
                        Branch::Next => {
                            if st.stopped {
                                continue;
                            }
                            self.lines += 1;
                            let mut sub = st.alternative_to_next(self.lines);
                            self.line(&v.line, &mut sub);
                        }
                    }
                }
            }
        }
        self.depth -= 1;
    }

    /// Where a parenthesised line branches from. In a book-style game a one-move
    /// parenthesis right after a move is the reply to it, legal or not; a longer one is told
    /// by [`Self::is_reply`]. In a PDN game it is a variation: an alternative to the coming
    /// move when its move number names that move or only the side to move can play it, else
    /// an alternative to the last move.
    fn branch(&mut self, line: &Line, st: &LineState<V::B>, follows_move: bool) -> Branch {
        let Some(prev) = st.prev else {
            // Before any move of this line: an alternative start from here.
            return Branch::Next;
        };
        match self.style {
            Style::Book => {
                if follows_move && one_move(line).is_some() || self.is_reply(line, st) {
                    Branch::Reply
                } else {
                    Branch::Last
                }
            }
            Style::Pdn => {
                let Some(first) = first_move(line) else {
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
    fn style_of(&mut self, start: &Position<V::B>) -> Style {
        let items = &self.game.body.items;
        let mut bare = 0u32;
        let mut replies = 0u32;
        let mut last_move = false;
        for item in items {
            match item {
                Item::Comment(_) | Item::Nag(_) => continue,
                Item::Move(_) => {
                    bare += u32::from(last_move);
                    last_move = true;
                }
                Item::Variation(v) => {
                    if last_move
                        && let Some(m) = one_move(&v.line)
                        && m.number.is_none_or(|n| n.second_player)
                    {
                        replies += 1;
                    }
                    last_move = false;
                }
                Item::Setup(_) => last_move = false,
            }
        }
        if replies == 0 || bare > replies {
            return Style::Pdn;
        }
        let book = self.legal_run(start, items, true);
        let pdn = self.legal_run(start, items, false);
        if book > pdn || (book == pdn && bare == 0) {
            Style::Book
        } else {
            Style::Pdn
        }
    }

    /// How many plies of the main line replay legally from `start`, one-move parentheses
    /// after a move read as replies (`book`) or skipped.
    fn legal_run(&mut self, start: &Position<V::B>, items: &[Item], book: bool) -> usize {
        let mut pos = *start;
        let mut n = 0;
        let mut last_move = false;
        for item in items {
            let m = match item {
                Item::Move(m) => m,
                Item::Variation(v) if book && last_move => match one_move(&v.line) {
                    Some(m) => m,
                    None => {
                        last_move = false;
                        continue;
                    }
                },
                Item::Comment(_) | Item::Nag(_) => continue,
                Item::Variation(_) => {
                    last_move = false;
                    continue;
                }
                Item::Setup(_) => break,
            };
            last_move = matches!(item, Item::Move(_));
            let Some(spec) = to_spec(m) else { break };
            match self.look.legal_index(&pos, &spec) {
                Some(index) => {
                    let mv = self.look.legal().moves()[index];
                    pos = pos.after(&mv, V::RULES);
                    n += 1;
                }
                None => break,
            }
        }
        n
    }

    /// Is a parenthesised line the reply to the last move (book style) rather than an
    /// alternative to it? Decided by whose piece the first move moves: the side to move now
    /// (a reply) or the side that just moved (an alternative); by legality when unclear.
    fn is_reply(&mut self, line: &Line, st: &LineState<V::B>) -> bool {
        let Some(prev) = st.prev else { return false };
        let Some(first) = first_move(line) else {
            return false;
        };
        let Some(spec) = to_spec(first) else {
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
        let as_reply = self.look.legal_index(&st.pos, &spec).is_some();
        let as_alternative = self.look.legal_index(&prev, &spec).is_some();
        as_reply && !as_alternative
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
            return;
        }
        match parsed.and_then(|s| s.position(V::numbering(), V::geometry(), st.pos.side())) {
            Ok(pos) => {
                st.pos = pos;
                st.prev = None;
                st.after_setup = true;
                st.stopped = false;
                st.crossed = V::B::ZERO;
                if st.main {
                    self.draws.reset(&pos);
                }
                self.observer.position::<V>(&pos, st.main);
            }
            Err(e) => {
                if self.probe && st.main {
                    self.halt(0);
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
        m: &MoveItem,
        st: &LineState<V::B>,
        message: String,
    ) -> Diagnostic {
        let mut d = Diagnostic::new(code, message).at(m.span);
        d.ply = Some(st.next_ply);
        d.move_number = Some(st.number);
        d.side = Some(st.pos.side());
        d.mv = Some(self.game.text(m.span).to_string());
        if !st.main {
            d.variation = true;
            d.message = format!("in a variation: {}", d.message);
        }
        if self.settings.diagrams && code.is_move_code() {
            d.board = Some(board::diagram::<V>(&st.pos));
        }
        d
    }

    fn check_number(&mut self, m: &MoveItem, st: &mut LineState<V::B>) {
        let Some(tok) = m.number else { return };
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

    fn game_over(&self, pos: &Position<V::B>) -> Option<String> {
        if self.resolver.legal().is_empty() {
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

    /// Replay one recorded move; returns how many of the following items it also used (the
    /// later fragments of a capture written one jump per move).
    fn play_item(&mut self, m: &'g MoveItem, rest: &'g [Item], st: &mut LineState<V::B>) -> usize {
        if m.kind != MoveKind::Unknown {
            self.check_number(m, st);
            if let Some(mv) = self.quick(&st.pos, m) {
                self.route.clear();
                let side = st.pos.side();
                let after = st.pos.after(&mv, V::RULES);
                self.finish(m, st, side, mv, after, Played::Legal, false);
                return 0;
            }
            if self.quick_capture(m, st) {
                return 0;
            }
        }
        let mut spec = std::mem::take(&mut self.spec);
        let used = if spec_into(m, &mut spec) {
            self.play_spec(m, &spec, rest, st)
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
        self.spec = spec;
        used
    }

    /// Replay a recorded move through the resolver (what [`Self::quick`] does not cover).
    fn play_spec(
        &mut self,
        m: &'g MoveItem,
        spec: &MoveSpec,
        rest: &'g [Item],
        st: &mut LineState<V::B>,
    ) -> usize {
        self.resolver.crossed = st.crossed & st.pos.pieces(st.pos.side());
        self.resolver.set_position(&st.pos);
        if self.probe && st.main {
            return self.probe_spec(m, spec, rest, st);
        }
        if let Some(why) = self.game_over(&st.pos) {
            let mut d = self.move_diag(Code::MovesAfterEnd, m, st, why);
            d.legal = Some(self.resolver.legal_texts());
            self.diags.push(d.rule(V::RULES.articles.game_end));
            st.stopped = true;
            if st.main {
                self.complete = false;
            }
            return 0;
        }
        let side = st.pos.side();
        let mut res = self.resolver.resolve_prepared(&st.pos, spec);
        let mut used = 0;
        if let Resolution::Illegal(ill) = &res
            && ill.code == resolve::Code::UnfinishedCapture
            && let Some((joined, n)) = self.join_split(&st.pos, spec, rest)
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
            Resolution::Legal { index, quirk } => {
                if let Some(q) = quirk
                    && !self.quirks.contains(&q)
                {
                    self.quirks.push(q);
                    self.diags
                        .push(Diagnostic::new(Code::Tolerated, q.description()).at(m.span));
                }
                let legal = self.resolver.legal();
                self.route.clear();
                self.route.extend_from_slice(legal.path(index));
                (
                    legal.moves()[index],
                    Played::Legal,
                    notation::is_ambiguous(legal, index),
                )
            }
            Resolution::Ambiguous(cands) => {
                let texts = self.resolver.legal_texts();
                let names: Vec<String> = cands
                    .iter()
                    .map(|&i| {
                        let mv = self.resolver.legal().moves()[i];
                        let taken: Vec<String> = mv
                            .captured
                            .iter()
                            .map(|b| notation::square_name(V::numbering(), b, SquareStyle::Native))
                            .collect();
                        format!("{} (takes {})", texts[i], taken.join(", "))
                    })
                    .collect();
                let chosen = self.choose(&cands, rest, &st.pos);
                let mut d = self.move_diag(
                    Code::AmbiguousMove,
                    m,
                    st,
                    format!(
                        "{} matches {} moves that take different pieces: {}; the route must be written in full (replay went on with {})",
                        self.game.text(m.span),
                        cands.len(),
                        names.join(", "),
                        texts[chosen]
                    ),
                );
                d.rule = Some("PDN 3.0 (ambiguous captures are written in full)".into());
                d.legal = Some(texts);
                self.diags.push(d);
                let legal = self.resolver.legal();
                self.route.clear();
                self.route.extend_from_slice(legal.path(chosen));
                (
                    legal.moves()[chosen],
                    Played::Irregular(Code::AmbiguousMove),
                    true,
                )
            }
            Resolution::Illegal(ill) => {
                let code = Code::from_resolution(ill.code);
                let mut d = self.move_diag(code, m, st, ill.message.clone());
                d.rule = Some(ill.rule.to_string());
                d.legal = Some(self.resolver.legal_texts());
                match ill.play {
                    Some(p) => {
                        if p.side != side {
                            d.message.push_str("; played as recorded");
                        } else {
                            d.message.push_str(&format!(
                                "; the move is played as recorded ({})",
                                V::RULES.articles.irregularity
                            ));
                        }
                        self.diags.push(d);
                        self.route.clear();
                        self.route.extend_from_slice(&p.route);
                        if p.side != side {
                            // A missing ply: the other side's move, then our turn again.
                            let mut pos = st.pos;
                            pos.set_side(p.side);
                            let mut after = pos.after(&p.mv, V::RULES);
                            after.set_side(side);
                            self.finish(m, st, p.side, p.mv, after, Played::Irregular(code), false);
                            return 0;
                        }
                        (p.mv, Played::Irregular(code), false)
                    }
                    None => {
                        d.message
                            .push_str("; the rest of this line cannot be replayed");
                        self.diags.push(d);
                        st.stopped = true;
                        if st.main {
                            self.complete = false;
                        }
                        return 0;
                    }
                }
            }
        };
        let after = st.pos.after(&mv, V::RULES);
        self.finish(m, st, side, mv, after, played, ambiguous);
        if used > 0 {
            // Such records number every jump as a ply: take the next number as it comes.
            st.after_setup = true;
        }
        used
    }

    /// [`Self::play_spec`] in probe mode on the main line: the move played if the full
    /// replay would play it without an error, else the replay halts at its ply.
    fn probe_spec(
        &mut self,
        m: &'g MoveItem,
        spec: &MoveSpec,
        rest: &'g [Item],
        st: &mut LineState<V::B>,
    ) -> usize {
        let ply = st.next_ply;
        if self.game_over(&st.pos).is_some() {
            self.halt(ply);
            return 0;
        }
        let side = st.pos.side();
        let (index, used) = match self.resolver.resolve_quick(&st.pos, spec) {
            Some(Ok(index)) => (index, 0),
            Some(Err(())) => {
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
                        self.resolver.resolve_prepared(&st.pos, spec),
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
        let legal = self.resolver.legal();
        let mv = legal.moves()[index];
        self.route.clear();
        self.route.extend_from_slice(legal.path(index));
        let after = st.pos.after(&mv, V::RULES);
        self.finish(m, st, side, mv, after, Played::Legal, false);
        if used > 0 {
            st.after_setup = true;
        }
        used
    }

    /// The second common case: a capture written `from x to` (with the variant's own capture
    /// separator) that names exactly one legal move, played without building a move
    /// specification. Anything else (no match, several moves, the game over, another
    /// separator that deserves a note) is left to the resolver; true if the move was played.
    fn quick_capture(&mut self, m: &'g MoveItem, st: &mut LineState<V::B>) -> bool {
        let MoveKind::Capture(sep) = m.kind else {
            return false;
        };
        if m.squares.len() != 2 || !matches!(sep, 'x' | 'X' | ':' | '×') {
            return false;
        }
        let bit = square_bit::<V>;
        let (Some(from), Some(to)) = (bit(m.squares[0]), bit(m.squares[1])) else {
            return false;
        };
        self.resolver.crossed = st.crossed & st.pos.pieces(st.pos.side());
        self.resolver.set_position(&st.pos);
        let legal = self.resolver.legal();
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
        if self.game_over(&st.pos).is_some() {
            return false;
        }
        let mv = legal.moves()[index];
        let ambiguous = notation::is_ambiguous(legal, index);
        self.route.clear();
        self.route.extend_from_slice(legal.path(index));
        let side = st.pos.side();
        let after = st.pos.after(&mv, V::RULES);
        self.finish(m, st, side, mv, after, Played::Legal, ambiguous);
        true
    }

    /// The common case checked directly, without generating the legal moves: a plain
    /// `from-to` move of the side to move when no capture is possible.
    #[inline]
    fn quick(&self, pos: &Position<V::B>, m: &MoveItem) -> Option<Move<V::B>> {
        let rules = V::RULES;
        if m.kind != MoveKind::Normal || m.squares.len() != 2 || rules.same_king_limit > 0 {
            return None;
        }
        if rules.variant == crate::rules::Variant::Breakthrough && pos.kings().any() {
            return None;
        }
        let bit = square_bit::<V>;
        let from = bit(m.squares[0])?;
        let to = bit(m.squares[1])?;
        let side = pos.side();
        if !pos.pieces(side).has(from) || pos.occupied().has(to) {
            return None;
        }
        let geo = V::geometry();
        let is_king = pos.kings().has(from);
        if is_king {
            let d = geo.direction(from, to)?;
            if !rules.king_moves.has(d) {
                return None;
            }
            if rules.king_range == crate::rules::KingRange::Short {
                if geo.neighbour(from, d) != Some(to) {
                    return None;
                }
            } else {
                let between = geo.ray(from, d) & !(geo.ray(to, d) | V::B::bit(to));
                if (between & pos.occupied()).any() {
                    return None;
                }
            }
        } else if !rules
            .man_move_dirs(side)
            .iter()
            .any(|d| geo.neighbour(from, d) == Some(to))
        {
            return None;
        }
        if V::has_capture(pos) {
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
        rest: &[Item],
    ) -> Option<(Resolution<V::B>, usize)> {
        let mut squares = spec.readings.first()?.clone();
        for (k, item) in rest.iter().enumerate() {
            match item {
                Item::Comment(_) | Item::Nag(_) => continue,
                Item::Move(next) => {
                    let next = to_spec(next)?;
                    let more = next.readings.first()?;
                    if more.len() < 2 || Some(&more[0]) != squares.last() {
                        return None;
                    }
                    squares.extend_from_slice(&more[1..]);
                    let joined = MoveSpec::new(squares.clone(), Separator::Capture);
                    match self.resolver.resolve_prepared(pos, &joined) {
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

    #[allow(clippy::too_many_arguments)]
    fn finish(
        &mut self,
        m: &MoveItem,
        st: &mut LineState<V::B>,
        side: Color,
        mv: Move<V::B>,
        after: Position<V::B>,
        played: Played,
        ambiguous: bool,
    ) {
        let ply = st.next_ply;
        let event = PlyEvent::<V> {
            item: m,
            main: st.main,
            line: st.id,
            ply,
            number: st.number,
            side,
            before: &st.pos,
            after: &after,
            mv: &mv,
            route: &self.route,
            ambiguous,
            played,
        };
        self.observer.ply::<V>(&event);
        if st.main {
            let before = self.draws.reached.is_some();
            self.draws.record(&mv, &after, ply);
            if !before && let Some(r) = &mut self.draws.reached {
                r.span = Some(m.span);
            }
            self.plies = ply;
        }
        // Men that passed their far row during a capture and stayed men (only multiple
        // captures can do that, so the common case costs nothing).
        let crossed = if st.crossed.is_empty() && self.route.len() < 2 {
            V::B::ZERO
        } else {
            let promo = V::geometry().promotion_row(side);
            let mut crossed = st.crossed & !mv.captured;
            let moved_man = after
                .piece_at(mv.to as u32)
                .is_some_and(|p| p.role == Role::Man);
            let was_crossed = crossed.has(mv.from as u32);
            crossed &= !V::B::bit(mv.from as u32);
            let passed = self.route[..self.route.len().saturating_sub(1)]
                .iter()
                .any(|s| promo.has(s.landing as u32));
            if moved_man && (was_crossed || passed) {
                crossed |= V::B::bit(mv.to as u32);
            }
            crossed
        };
        st.prev = Some(st.pos);
        st.prev_number = st.number;
        st.prev_ply = ply;
        st.prev_crossed = st.crossed;
        st.crossed = crossed;
        st.pos = after;
        st.next_ply += 1;
        st.after_setup = false;
        if side != self.first_mover {
            st.number += 1;
        }
    }

    /// Of several moves an ambiguous notation may mean, the one after which the record goes
    /// on legally the longest (ties: the first).
    fn choose(&mut self, cands: &[usize], rest: &[Item], pos: &Position<V::B>) -> usize {
        let moves: Vec<Move<V::B>> = cands
            .iter()
            .map(|&i| self.resolver.legal().moves()[i])
            .collect();
        let mut best = (0, cands[0]);
        for (k, mv) in moves.iter().enumerate() {
            let mut p = pos.after(mv, V::RULES);
            let mut n = 0;
            for item in rest {
                if n >= LOOKAHEAD {
                    break;
                }
                match item {
                    Item::Move(m) => {
                        let Some(spec) = to_spec(m) else { break };
                        match self.look.legal_index(&p, &spec) {
                            Some(index) => {
                                let mv = self.look.legal().moves()[index];
                                p = p.after(&mv, V::RULES);
                                n += 1;
                            }
                            None => break,
                        }
                    }
                    Item::Setup(_) => break,
                    _ => {}
                }
            }
            if n > best.0 {
                best = (n, cands[k]);
            }
        }
        best.1
    }
}

/// The first move of a line, if a move comes before any setup or variation in it.
fn first_move(line: &Line) -> Option<&MoveItem> {
    line.items.iter().find_map(|i| match i {
        Item::Move(m) => Some(Some(m)),
        Item::Setup(_) | Item::Variation(_) => Some(None),
        _ => None,
    })?
}

/// The move of a line that holds exactly one move (and maybe comments and NAGs).
fn one_move(line: &Line) -> Option<&MoveItem> {
    let mut found = None;
    for i in &line.items {
        match i {
            Item::Move(m) if found.is_none() => found = Some(m),
            Item::Comment(_) | Item::Nag(_) => {}
            _ => return None,
        }
    }
    found
}

/// The recorded move as resolution needs it; `None` for an unknown move.
pub fn to_spec(m: &MoveItem) -> Option<MoveSpec> {
    let mut spec = MoveSpec::default();
    spec_into(m, &mut spec).then_some(spec)
}

/// The bit of a square as written, in the variant's standard numbering (`None` off the
/// board).
#[inline]
fn square_bit<V: Spec>(s: Square) -> Option<u32> {
    let num = V::numbering();
    match s {
        Square::Num(n) => num.bit_of_number(n),
        Square::Alg { file, rank } => match num.bit_of_algebraic(file as u32, rank as u32) {
            Lookup::Square(b) => Some(b),
            _ => None,
        },
    }
}

/// [`to_spec`] into a spec whose buffers are reused; false for an unknown move.
pub fn spec_into(m: &MoveItem, spec: &mut MoveSpec) -> bool {
    spec.separator = match m.kind {
        MoveKind::Unknown => return false,
        MoveKind::Normal => Separator::Quiet,
        MoveKind::Capture(_) => Separator::Capture,
        MoveKind::Undivided => Separator::None,
    };
    spec.readings.truncate(1);
    if spec.readings.is_empty() {
        spec.readings.push(Vec::with_capacity(8));
    }
    let squares = &mut spec.readings[0];
    squares.clear();
    squares.extend(m.squares.iter().map(|s| square_name(*s)));
    if spec.separator == Separator::None
        && squares.len() == 1
        && let SquareName::Number(n) = squares[0]
    {
        // All digits in one number: every split into squares of one or two digits.
        let readings = splits(&n.to_string());
        if !readings.is_empty() {
            spec.readings = readings;
        }
    }
    true
}

fn square_name(s: Square) -> SquareName {
    match s {
        Square::Num(n) => SquareName::Number(n),
        Square::Alg { file, rank } => SquareName::Algebraic { file, rank },
    }
}

/// The ways to cut a run of digits into two or more squares of one or two digits (no
/// leading zero), at most eight squares.
fn splits(digits: &str) -> Vec<Vec<SquareName>> {
    let d = digits.as_bytes();
    let mut out = Vec::new();
    let mut stack: Vec<(usize, Vec<SquareName>)> = vec![(0, Vec::new())];
    while let Some((at, acc)) = stack.pop() {
        if at == d.len() {
            if acc.len() >= 2 {
                out.push(acc);
            }
            continue;
        }
        if acc.len() >= 8 || d[at] == b'0' {
            continue;
        }
        for len in [1usize, 2] {
            if at + len <= d.len() {
                let n: u32 = digits[at..at + len].parse().unwrap_or(0);
                let mut next = acc.clone();
                next.push(SquareName::Number(n));
                stack.push((at + len, next));
            }
        }
    }
    out.reverse();
    out
}

/// The legal moves of a position written in PDN (for messages).
pub fn legal_texts<V: Spec>(pos: &Position<V::B>) -> Vec<String> {
    let mut list = MoveList::new();
    V::legal_moves(pos, &mut list);
    (0..list.len())
        .map(|i| {
            notation::write_in_list(
                V::geometry(),
                V::numbering(),
                &list,
                i,
                SquareStyle::Native,
                V::RULES.capture_separator,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_splits() {
        let s = splits("3228");
        assert!(s.contains(&vec![SquareName::Number(32), SquareName::Number(28)]));
        assert!(s.iter().all(|r| r.len() >= 2));
        assert!(splits("0").is_empty());
    }
}
