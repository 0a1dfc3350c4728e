//! Move resolution: which legal move a recorded move means, and when none does, why not —
//! by asking under which relaxation of the rules it would be legal (`why`).

mod why;

use std::fmt::Write as _;

use crate::rules::fen::{SquareError, SquareName};
use crate::rules::notation::{self, SquareStyle};
use crate::rules::{Bits, Color, Move, MoveList, Options, Position, Spec, Step};

/// How a recorded move separates its squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Separator {
    /// `-`.
    #[default]
    Quiet,
    /// `x`, `X`, `:` or `×`.
    Capture,
    /// No separator (`3228`, `a3b4`).
    None,
}

/// A move that more than one legal move fits (what `Resolver::resolve_quick` answers when
/// it cannot pick one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ambiguous;

/// A recorded move, reduced to what resolution needs: one or more readings of its squares
/// (several when a numeric move without separator can be split in more than one way).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveSpec {
    /// The possible readings, each the squares in the order written.
    pub readings: Vec<Vec<SquareName>>,
    /// The separator written.
    pub separator: Separator,
}

impl MoveSpec {
    /// A move with one reading.
    pub fn new(squares: Vec<SquareName>, separator: Separator) -> Self {
        MoveSpec {
            readings: vec![squares],
            separator,
        }
    }
}

/// The diagnostic codes of move resolution (docs/formats.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// No legal move matches (the message says why).
    IllegalMove,
    /// A non-capturing move while a capture was mandatory.
    MissedCapture,
    /// A capture taking fewer pieces (or less value) than the precedence rule demands.
    NonMaximalCapture,
    /// A capture that stops where the same piece could go on capturing.
    UnfinishedCapture,
    /// Legal only if a man had already been crowned.
    PrematurePromotion,
    /// The moved piece belongs to the side not to move.
    WrongSide,
    /// The notation matches several legal moves that take different pieces.
    AmbiguousMove,
}

impl Code {
    /// The code as written in diagnostics.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::IllegalMove => "illegal-move",
            Code::MissedCapture => "missed-capture",
            Code::NonMaximalCapture => "non-maximal-capture",
            Code::UnfinishedCapture => "unfinished-capture",
            Code::PrematurePromotion => "premature-promotion",
            Code::WrongSide => "wrong-side",
            Code::AmbiguousMove => "ambiguous-move",
        }
    }
}

/// Move `i` of `list` written in PDN as messages write it: short, in full where the list
/// makes the short form ambiguous.
pub fn move_in_list<V: Spec>(list: &MoveList<V::B>, i: usize) -> String {
    notation::write_in_list(
        V::geometry(),
        V::numbering(),
        list,
        i,
        SquareStyle::Native,
        V::RULES.capture_separator,
    )
}

/// Non-standard but readable notation met while resolving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quirk {
    /// A capture written with `-`.
    CaptureWithHyphen,
    /// A non-capturing move written with `x`.
    QuietWithCross,
    /// A numeric move without separator, split into squares.
    UndividedMove,
    /// Intermediate squares that name the captured pieces, not landing squares.
    CapturedSquaresListed,
    /// The Hub protocol's order: start, destination, then the captured pieces.
    HubOrder,
}

impl Quirk {
    /// What was tolerated, in words.
    pub fn description(self) -> &'static str {
        match self {
            Quirk::CaptureWithHyphen => "capture written with `-`",
            Quirk::QuietWithCross => "non-capturing move written with `x`",
            Quirk::UndividedMove => "move written without separator",
            Quirk::CapturedSquaresListed => {
                "capture listing the captured pieces instead of its route"
            }
            Quirk::HubOrder => {
                "capture in the Hub protocol's order: start, destination, then the captured pieces"
            }
        }
    }
}

/// A move that is not legal but that the board allows, to be played as recorded (FMJD 5.4:
/// an irregular move may stand).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Irregular<B> {
    /// The move to play.
    pub mv: Move<B>,
    /// Its route.
    pub route: Vec<Step>,
    /// The side that plays it (the other side for `wrong-side`).
    pub side: Color,
}

/// Why a recorded move is not a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal<B> {
    /// The diagnostic code.
    pub code: Code,
    /// What is wrong, in words.
    pub message: String,
    /// The rule broken (article).
    pub rule: &'static str,
    /// The move as the board allows it to be played, if it can be.
    pub play: Option<Irregular<B>>,
}

/// The outcome of resolving a recorded move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution<B> {
    /// The legal move at this index of [`Resolver::legal`].
    Legal {
        /// Index in the legal move list.
        index: usize,
        /// Non-standard notation that was read anyway.
        quirk: Option<Quirk>,
    },
    /// Several legal moves taking different pieces match; indices in the legal list.
    Ambiguous(Vec<usize>),
    /// No legal move matches.
    Illegal(Illegal<B>),
}

/// Resolves recorded moves against the legal moves of positions of variant `V`, reusing its
/// move lists from ply to ply.
#[derive(Debug)]
pub struct Resolver<V: Spec> {
    legal: MoveList<V::B>,
    /// The captures between two squares ([`Resolver::captures_between`]).
    toward: MoveList<V::B>,
    routes: MoveList<V::B>,
    relaxed: MoveList<V::B>,
    bits: Vec<u32>,
    found: Vec<usize>,
    /// Men of the side to move that passed their far row during a capture earlier in the
    /// game (and stayed men): moving them as kings is a premature promotion.
    pub crossed: V::B,
}

impl<V: Spec> Default for Resolver<V> {
    fn default() -> Self {
        Self::new()
    }
}

/// A recorded square list converted to internal bits.
enum Squares {
    Bits,
    Bad(String),
}

impl<V: Spec> Resolver<V> {
    /// A resolver.
    pub fn new() -> Self {
        Resolver {
            legal: MoveList::new(),
            toward: MoveList::new(),
            routes: MoveList::new(),
            relaxed: MoveList::new(),
            // (No memory until used: most games never resolve a move the slow way.)
            bits: Vec::new(),
            found: Vec::new(),
            crossed: V::B::ZERO,
        }
    }

    /// The entries its buffers can hold without growing (see [`MoveList::held`]).
    pub(crate) fn held(&self) -> usize {
        self.legal.held()
            + self.toward.held()
            + self.routes.held()
            + self.relaxed.held()
            + self.bits.capacity()
            + self.found.capacity()
    }

    /// The legal moves of the last position resolved against.
    pub fn legal(&self) -> &MoveList<V::B> {
        &self.legal
    }

    /// Generate the legal moves of `pos` (also done by [`Resolver::resolve`]).
    pub fn set_position(&mut self, pos: &Position<V::B>) {
        // (Here, not in the move generator: perft's lists need no such test per node.)
        self.legal.reserve_first();
        V::legal_moves(pos, &mut self.legal);
    }

    /// The legal moves of `pos` from `from` to `to` that capture (see [`Spec::captures_between`]),
    /// in a list of their own: [`Self::legal`] is left as it was.
    pub(crate) fn captures_between(
        &mut self,
        pos: &Position<V::B>,
        from: u32,
        to: u32,
    ) -> &MoveList<V::B> {
        self.toward.reserve_first();
        V::captures_between(pos, from, to, &mut self.toward);
        &self.toward
    }

    /// The legal moves as [`Self::legal_texts`] writes them, joined with commas (for messages).
    pub(crate) fn legal_list(&self) -> String {
        self.legal_texts().join(", ")
    }

    /// The legal moves written in PDN (short, full where ambiguous), for diagnostics.
    pub fn legal_texts(&self) -> Vec<String> {
        (0..self.legal.len())
            .map(|i| move_in_list::<V>(&self.legal, i))
            .collect()
    }

    fn load_bits(&mut self, squares: &[SquareName]) -> Squares {
        self.bits.clear();
        for s in squares {
            match s.resolve(V::numbering()) {
                Ok(b) => self.bits.push(b),
                Err(SquareError::OffBoard(n)) => {
                    return Squares::Bad(format!(
                        "square {s} is not on the board (squares 1-{n} on this {}x{} board)",
                        V::geometry().width(),
                        V::geometry().height()
                    ));
                }
                Err(SquareError::NotPlaying) => {
                    return Squares::Bad(format!("square {s} is not a playing square"));
                }
            }
        }
        Squares::Bits
    }

    /// Resolve a recorded move in `pos` (whose legal moves are generated here).
    pub fn resolve(&mut self, pos: &Position<V::B>, spec: &MoveSpec) -> Resolution<V::B> {
        self.set_position(pos);
        self.resolve_prepared(pos, spec)
    }

    /// The legal move a recorded move means in `pos`, if exactly one (no diagnosis: for
    /// quick questions such as "is this parenthesised move a reply?").
    pub(crate) fn legal_index(&mut self, pos: &Position<V::B>, spec: &MoveSpec) -> Option<usize> {
        self.set_position(pos);
        self.found.clear();
        for reading in &spec.readings {
            if let Squares::Bits = self.load_bits(reading)
                && self.bits.len() >= 2
            {
                let _ = self.find_legal(pos);
            }
        }
        let first = *self.found.first()?;
        let m = self.legal.moves()[first];
        self.found
            .iter()
            .all(|&i| same_move(&self.legal.moves()[i], &m))
            .then_some(first)
    }

    /// What [`Resolver::resolve_prepared`] would answer, without finding out why a move is
    /// illegal (the legal moves of `pos` already generated): `Some(Ok(index))` for a legal
    /// move, `Some(Err(Ambiguous))` for an ambiguous one, `None` for an illegal one.
    pub(crate) fn resolve_quick(
        &mut self,
        pos: &Position<V::B>,
        spec: &MoveSpec,
    ) -> Option<Result<usize, Ambiguous>> {
        self.found.clear();
        for reading in &spec.readings {
            if let Squares::Bits = self.load_bits(reading)
                && self.bits.len() >= 2
            {
                let _ = self.find_legal(pos);
            }
        }
        self.found.sort_unstable();
        self.found.dedup();
        let first = *self.found.first()?;
        let m = self.legal.moves()[first];
        Some(
            if self
                .found
                .iter()
                .all(|&i| same_move(&self.legal.moves()[i], &m))
            {
                Ok(first)
            } else {
                Err(Ambiguous)
            },
        )
    }

    /// Resolve against the legal moves already generated for `pos` by
    /// [`Resolver::set_position`].
    pub(crate) fn resolve_prepared(
        &mut self,
        pos: &Position<V::B>,
        spec: &MoveSpec,
    ) -> Resolution<V::B> {
        let mut bad = None;
        let mut quirk = None;
        self.found.clear();
        for reading in &spec.readings {
            match self.load_bits(reading) {
                Squares::Bad(m) => {
                    bad.get_or_insert(m);
                    continue;
                }
                Squares::Bits => {}
            }
            if self.bits.len() < 2 {
                bad.get_or_insert_with(|| "a move needs at least two squares".to_string());
                continue;
            }
            quirk = quirk.or(self.find_legal(pos));
        }
        if !self.found.is_empty() {
            self.found.sort_unstable();
            self.found.dedup();
            let first = self.legal.moves()[self.found[0]];
            // Moves taking the same pieces between the same squares are one move.
            if self
                .found
                .iter()
                .all(|&i| same_move(&self.legal.moves()[i], &first))
            {
                let undivided = spec.separator == Separator::None
                    && spec.readings[0]
                        .iter()
                        .all(|s| matches!(s, SquareName::Number(_)));
                let quirk = quirk
                    .or(undivided.then_some(Quirk::UndividedMove))
                    .or_else(|| separator_quirk::<V>(spec.separator, &first));
                return Resolution::Legal {
                    index: self.found[0],
                    quirk,
                };
            }
            if let Some(index) = self.exact_route(spec) {
                return Resolution::Legal { index, quirk };
            }
            return Resolution::Ambiguous(self.found.clone());
        }
        if let Some(m) = bad {
            return Resolution::Illegal(Illegal {
                code: Code::IllegalMove,
                message: m,
                rule: V::RULES.articles.book,
                play: None,
            });
        }
        // No reading is legal: find out why, reading by reading, keeping the first answer.
        let mut best: Option<Illegal<V::B>> = None;
        for reading in &spec.readings {
            if let Squares::Bad(_) = self.load_bits(reading) {
                continue;
            }
            if self.bits.len() < 2 {
                continue;
            }
            let why = self.diagnose(pos);
            if best
                .as_ref()
                .is_none_or(|b| b.code == Code::IllegalMove && why.code != Code::IllegalMove)
            {
                best = Some(why);
            }
        }
        Resolution::Illegal(best.unwrap_or_else(|| Illegal {
            code: Code::IllegalMove,
            message: "the move has no squares".to_string(),
            rule: V::RULES.articles.book,
            play: None,
        }))
    }

    /// Add the indices of the legal moves matching `self.bits` to `self.found`; a notation
    /// quirk if the match needed one.
    fn find_legal(&mut self, pos: &Position<V::B>) -> Option<Quirk> {
        let before = self.found.len();
        matches_into::<V::B>(&self.legal, &self.bits, &mut self.found);
        if self.found.len() > before || self.bits.len() == 2 {
            return None;
        }
        // Intermediate squares: compare with every route of the candidate moves.
        V::relaxed_moves(pos, V::RULES, every_route(), &mut self.routes);
        let mut via_routes = Vec::new();
        matches_into::<V::B>(&self.routes, &self.bits, &mut via_routes);
        for r in via_routes {
            let m = self.routes.moves()[r];
            if let Some(i) = self.legal.moves().iter().position(|l| same_move(l, &m)) {
                self.found.push(i);
            }
        }
        if self.found.len() > before {
            return None;
        }
        // The intermediate squares are the captured pieces.
        self.found
            .extend(captured_listed::<V::B>(&self.legal, &self.bits));
        if self.found.len() > before {
            return Some(Quirk::CapturedSquaresListed);
        }
        // Hub protocol order: start, destination, then every captured piece.
        self.found
            .extend(hub_order::<V::B>(&self.legal, &self.bits));
        (self.found.len() > before).then_some(Quirk::HubOrder)
    }

    /// Among the moves found for a spec with intermediate squares, the one whose every stop
    /// is written, when there is one: a full route names its move, also where its squares could be read as some of the
    /// stops of a longer capture (with immediate removal a king's route of three stops and one
    /// of four may share all three).
    fn exact_route(&mut self, spec: &MoveSpec) -> Option<usize> {
        let mut exact: Option<usize> = None;
        for reading in &spec.readings {
            // From and destination alone are the short form of any route (`f8:b4` may be
            // one man's capture or a king's four): only written stops name a route.
            if !matches!(self.load_bits(reading), Squares::Bits) || self.bits.len() < 3 {
                continue;
            }
            for &i in &self.found {
                let m = self.legal.moves()[i];
                let path = self.legal.path(i);
                let full = m.from as u32 == self.bits[0]
                    && path.len() + 1 == self.bits.len()
                    && path
                        .iter()
                        .zip(&self.bits[1..])
                        .all(|(s, &b)| s.landing as u32 == b);
                if !full {
                    continue;
                }
                match exact {
                    Some(e) if !same_move(&self.legal.moves()[e], &m) => return None,
                    _ => exact = Some(i),
                }
            }
        }
        exact
    }

    /// The first move of a relaxed generator matching `self.bits` (any route), as the side
    /// to move of `pos` would play it.
    fn relaxed_match(
        &mut self,
        pos: &Position<V::B>,
        options: Options,
        rules: &crate::rules::Rules,
    ) -> Option<Irregular<V::B>> {
        V::relaxed_moves(
            pos,
            rules,
            Options {
                keep_duplicates: self.bits.len() > 2,
                every_landing: self.bits.len() > 2,
                ..options
            },
            &mut self.relaxed,
        );
        let mut found = Vec::new();
        matches_into::<V::B>(&self.relaxed, &self.bits, &mut found);
        if found.is_empty() && self.bits.len() > 2 {
            found = captured_listed::<V::B>(&self.relaxed, &self.bits);
        }
        if found.is_empty() && self.bits.len() > 2 {
            found = hub_order::<V::B>(&self.relaxed, &self.bits);
        }
        let i = *found.first()?;
        Some(Irregular {
            mv: self.relaxed.moves()[i],
            route: self.relaxed.path(i).to_vec(),
            side: pos.side(),
        })
    }
}

fn every_route() -> Options {
    Options {
        keep_duplicates: true,
        every_landing: true,
        ..Options::default()
    }
}

/// The same move: same squares and captured pieces.
fn same_move<B: Bits>(a: &Move<B>, b: &Move<B>) -> bool {
    a.from == b.from && a.to == b.to && a.captured == b.captured
}

fn separator_quirk<V: Spec>(sep: Separator, m: &Move<V::B>) -> Option<Quirk> {
    match sep {
        Separator::Quiet if m.is_capture() && V::RULES.capture_separator != '-' => {
            Some(Quirk::CaptureWithHyphen)
        }
        Separator::Capture if !m.is_capture() => Some(Quirk::QuietWithCross),
        _ => None,
    }
}

/// Add to `out` the indices of the moves of `list` whose start and destination are the first
/// and last of `bits` and whose route passes the intermediate squares, in order, as landing
/// squares.
fn matches_into<B: Bits>(list: &MoveList<B>, bits: &[u32], out: &mut Vec<usize>) {
    let (from, to) = (bits[0], bits[bits.len() - 1]);
    let inner = &bits[1..bits.len() - 1];
    for (i, m) in list.moves().iter().enumerate() {
        if m.from as u32 != from || m.to as u32 != to {
            continue;
        }
        if inner.is_empty() {
            out.push(i);
            continue;
        }
        let path = list.path(i);
        if path.is_empty() {
            continue; // a quiet move has no intermediate squares
        }
        // Landing squares before the last one.
        let lands = &path[..path.len() - 1];
        let mut k = 0;
        for s in lands {
            if k < inner.len() && s.landing as u32 == inner[k] {
                k += 1;
            }
        }
        if k == inner.len() {
            out.push(i);
        }
    }
}

/// Moves written in the Hub protocol's order: start, destination, then exactly the
/// captured pieces (BoomstraDam and Scan logs write `1x34x29x45`).
fn hub_order<B: Bits>(list: &MoveList<B>, bits: &[u32]) -> Vec<usize> {
    let (from, to) = (bits[0], bits[1]);
    let taken = bits[2..].iter().fold(B::ZERO, |acc, &b| acc | B::bit(b));
    list.moves()
        .iter()
        .enumerate()
        .filter(|(_, m)| m.from as u32 == from && m.to as u32 == to && m.captured == taken)
        .map(|(i, _)| i)
        .collect()
}

/// Moves whose captured pieces include every intermediate square.
fn captured_listed<B: Bits>(list: &MoveList<B>, bits: &[u32]) -> Vec<usize> {
    let (from, to) = (bits[0], bits[bits.len() - 1]);
    let inner = &bits[1..bits.len() - 1];
    list.moves()
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            m.from as u32 == from
                && m.to as u32 == to
                && m.is_capture()
                && inner.iter().all(|&b| m.captured.has(b))
        })
        .map(|(i, _)| i)
        .collect()
}

/// Describe a resolution in one line (for tests and debugging).
pub fn describe<V: Spec>(r: &Resolution<V::B>, resolver: &Resolver<V>) -> String {
    let mut s = String::new();
    match r {
        Resolution::Legal { index, quirk } => {
            let _ = write!(s, "legal {}", resolver.legal_texts()[*index]);
            if let Some(q) = quirk {
                let _ = write!(s, " ({})", q.description());
            }
        }
        Resolution::Ambiguous(c) => {
            let t = resolver.legal_texts();
            let names: Vec<&str> = c.iter().map(|&i| t[i].as_str()).collect();
            let _ = write!(s, "ambiguous {}", names.join(" / "));
        }
        Resolution::Illegal(i) => {
            let _ = write!(s, "{}: {} [{}]", i.code.as_str(), i.message, i.rule);
        }
    }
    s
}
