//! Statistics over games (`pdn stats`): what one game contributes ([`GameRecord`], computed
//! by [`analyse`] on any thread) and the accumulator they are added to ([`Stats`], which also
//! merges with `+=`, so partial results from several threads combine in any order), plus the
//! text, JSON and CSV renderings.
//!
//! Memory stays bounded by the number of distinct keys (result strings, lengths, openings,
//! players, events), never by the number of games; only duplicate detection keeps one
//! 128-bit key and a location per distinct move sequence.
//!
//! Conventions (RULES.md §1.9.1): the first number of a result is the score of the side that
//! moves first in the variant (White in the FMJD variants, Black in English checkers); the
//! player named in the `White` tag plays White. Points follow the variant's result type:
//! 2 for a win and 1 for a draw under the International type, 1 and ½ otherwise.

use std::cmp::Reverse;
use std::collections::hash_map::{DefaultHasher, Entry};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::hash::Hasher;
use std::ops::AddAssign;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::rules::notation::{self, SquareStyle};
use crate::rules::{Bits, Color, Position, ResultType, Spec, Variant};
use crate::syntax::{Game, Item, canonical_move_text};

use super::diagnostic::{Code, Severity};
use super::outcome::{self, Outcome};
use super::replay::{Observer, PlyEvent};
use super::validate::{self, Report};

/// Opening depths, in plies.
pub const OPENING_PLIES: [u32; 3] = [2, 4, 6];
/// Width of the game-length histogram buckets of the JSON output, in plies.
pub const LENGTH_BUCKET: u32 = 10;
/// Openings per variant and depth in the shortened text output.
pub const TOP_OPENINGS: usize = 5;
/// Players in the shortened text output.
pub const TOP_PLAYERS: usize = 10;
/// The key under which games without any result are counted.
pub const NO_RESULT: &str = "(none)";
/// The key under which games without an `Event` tag are counted.
pub const NO_EVENT: &str = "(none)";

/// How to analyse games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// How to validate (variant, file hint).
    pub validate: validate::Options,
    /// Compute the keys for duplicate detection.
    pub duplicates: bool,
    /// Also the key of the first N plies (`--fuzzy N`).
    pub fuzzy: Option<u32>,
}

/// Where a game is: the index of its input and its 1-based number in that input. Ordered as
/// the input is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// Index of the input (file).
    pub file: u32,
    /// 1-based game number in the file.
    pub game: u32,
}

/// A move of interest and where it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAt {
    /// The game.
    pub at: Location,
    /// Ply along the main line.
    pub ply: u32,
    /// The move in PDN (a capture with its full route).
    pub text: String,
    /// Pieces captured by it.
    pub pieces: u32,
}

/// What one game contributes to the statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Where the game is.
    pub at: Location,
    /// The variant it was replayed in (`None`: no variant fits).
    pub variant: Option<Variant>,
    /// Plies of the main line replayed (as `validate` counts them).
    pub plies: u32,
    /// The result string (Result tag, else the terminator), trimmed.
    pub result: Option<String>,
    /// What the result says.
    pub outcome: Outcome,
    /// The player of White and of Black.
    pub players: [Option<String>; 2],
    /// The `Event` tag.
    pub event: Option<String>,
    /// Capturing moves of the main line.
    pub captures: u32,
    /// Capturing moves taking two pieces or more.
    pub multi_captures: u32,
    /// Pieces captured.
    pub pieces: u64,
    /// Capturing moves by number of pieces taken (index = pieces).
    pub capture_sizes: Vec<u32>,
    /// The largest capture of the game (the first of the largest).
    pub rafle: Option<MoveAt>,
    /// Promotions on the main line.
    pub promotions: u32,
    /// The first promotion, in a game played from the variant's start position.
    pub first_king: Option<MoveAt>,
    /// The first plies in canonical PDN, space-separated, for a game from the standard start
    /// position; `opening_ends[k]` is where the first `OPENING_PLIES[k]` plies end.
    pub opening: String,
    /// See `opening`; 0 where the game is shorter.
    pub opening_ends: [usize; 3],
    /// Diagnostics by code (in the order of [`Code::ALL`]).
    pub codes: [u32; Code::ALL.len()],
    /// Error diagnostics.
    pub errors: u32,
    /// Warnings.
    pub warnings: u32,
    /// Key of the whole move sequence (variant, start position, moves), if asked.
    pub moves_key: Option<u128>,
    /// Key of the first N plies, if asked and the game is that long.
    pub prefix_key: Option<u128>,
}

impl GameRecord {
    /// The first `OPENING_PLIES[k]` plies, if the game has them and starts from the
    /// standard position.
    pub fn opening(&self, k: usize) -> Option<&str> {
        let end = *self.opening_ends.get(k)?;
        (end > 0).then(|| &self.opening[..end])
    }
}

/// Validate a game and collect what it contributes to the statistics.
pub fn analyse(game: &Game, file: usize, opts: &Options) -> (GameRecord, Report) {
    let mut c = Collector::new(game, opts);
    let report = validate::validate_with(game, &opts.validate, &mut c);
    let at = Location {
        file: clamp(file),
        game: clamp(game.index),
    };
    let mut codes = [0u32; Code::ALL.len()];
    for d in &report.diagnostics {
        if let Some(i) = Code::ALL.iter().position(|&k| k == d.code) {
            codes[i] = codes[i].saturating_add(1);
        }
    }
    let result = report
        .result
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_string);
    let outcome = result.as_deref().map_or(Outcome::Unknown, outcome::parse);
    let name = |tags: &[&str]| {
        tags.iter()
            .find_map(|t| game.tag(t))
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "?" && *v != "-")
            .map(str::to_string)
    };
    let errors = report.errors();
    let (moves_key, prefix_key) = match &mut c.hash {
        Some(h) => {
            if errors > 0 {
                // The replay may have stopped: the moves it could not play still tell games
                // apart, as written.
                for item in &game.body.items {
                    if let Item::Move(m) = item
                        && m.span.start >= c.last_main_end
                    {
                        h.write_bytes(canonical_move_text(game, m).as_bytes());
                    }
                }
            }
            ((report.plies > 0).then(|| h.finish()), c.prefix)
        }
        None => (None, None),
    };
    let record = GameRecord {
        at,
        variant: report.variant,
        plies: report.plies,
        result,
        outcome,
        players: [name(&["White", "Bianco"]), name(&["Black", "Nero"])],
        event: name(&["Event"]),
        captures: c.captures,
        multi_captures: c.multi,
        pieces: c.pieces,
        capture_sizes: std::mem::take(&mut c.sizes),
        rafle: c.rafle.take().map(|mut m| {
            m.at = at;
            m
        }),
        promotions: c.promotions,
        first_king: c.first_king.take().map(|mut m| {
            m.at = at;
            m
        }),
        opening: std::mem::take(&mut c.opening),
        opening_ends: c.opening_ends,
        codes,
        errors,
        warnings: report.warnings(),
        moves_key,
        prefix_key,
    };
    (record, report)
}

fn clamp(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A 128-bit key from two differently seeded SipHash states.
#[derive(Clone)]
struct Key(DefaultHasher, DefaultHasher);

impl Key {
    fn new() -> Key {
        let mut a = DefaultHasher::new();
        let mut b = DefaultHasher::new();
        a.write_u8(0xa5);
        b.write_u8(0x5a);
        Key(a, b)
    }

    fn write_bytes(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
        self.1.write(bytes);
        self.0.write_u8(0xff);
        self.1.write_u8(0xff);
    }

    fn write_u128(&mut self, n: u128) {
        self.0.write_u128(n);
        self.1.write_u128(n);
    }

    fn finish(&self) -> u128 {
        ((self.0.finish() as u128) << 64) | self.1.finish() as u128
    }
}

/// The observer that sees the replay of the main line.
struct Collector {
    fen_tag: bool,
    starts: u32,
    /// The main line so far is played from the variant's start position.
    from_start: bool,
    opening: String,
    opening_plies: u32,
    opening_ends: [usize; 3],
    captures: u32,
    multi: u32,
    pieces: u64,
    sizes: Vec<u32>,
    rafle: Option<MoveAt>,
    promotions: u32,
    first_king: Option<MoveAt>,
    hash: Option<Key>,
    fuzzy: Option<u32>,
    hashed: u32,
    prefix: Option<u128>,
    last_main_end: u32,
}

impl Collector {
    fn new(game: &Game, opts: &Options) -> Collector {
        Collector {
            fen_tag: game
                .tag("FEN")
                .is_some_and(|f| !f.trim().is_empty() && f.trim() != "?"),
            starts: 0,
            from_start: false,
            opening: String::new(),
            opening_plies: 0,
            opening_ends: [0; 3],
            captures: 0,
            multi: 0,
            pieces: 0,
            sizes: Vec::new(),
            rafle: None,
            promotions: 0,
            first_king: None,
            hash: (opts.duplicates || opts.fuzzy.is_some()).then(Key::new),
            fuzzy: opts.fuzzy,
            hashed: 0,
            prefix: None,
            last_main_end: 0,
        }
    }
}

fn placement<B: Bits>(pos: &Position<B>) -> [u128; 4] {
    let (a, b, c, side) = pos.placement_key();
    [a.to_u128(), b.to_u128(), c.to_u128(), side.index() as u128]
}

impl Observer for Collector {
    fn position<V: Spec>(&mut self, pos: &Position<V::B>, main: bool) {
        if !main {
            return;
        }
        // A setup in the main line: what follows is no longer played from the start.
        self.from_start =
            self.starts == 0 && (!self.fen_tag || placement(pos) == placement(&V::start()));
        self.starts += 1;
        if let Some(h) = &mut self.hash {
            h.write_bytes(V::RULES.name.as_bytes());
            for n in placement(pos) {
                h.write_u128(n);
            }
        }
    }

    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if !e.main {
            return;
        }
        self.last_main_end = e.item.span.end;
        let mv = e.mv;
        let write = |full: bool| {
            notation::write(
                V::geometry(),
                V::numbering(),
                mv,
                e.route,
                full,
                SquareStyle::Native,
                V::RULES.capture_separator,
            )
        };
        let n = mv.num_captured();
        if n > 0 {
            self.captures += 1;
            self.pieces += u64::from(n);
            if n >= 2 {
                self.multi += 1;
            }
            let i = n as usize;
            if self.sizes.len() <= i {
                self.sizes.resize(i + 1, 0);
            }
            self.sizes[i] += 1;
            if self.rafle.as_ref().is_none_or(|r| n > r.pieces) {
                self.rafle = Some(MoveAt {
                    at: Location::default(),
                    ply: e.ply,
                    text: write(true),
                    pieces: n,
                });
            }
        }
        if mv.promotes() {
            self.promotions += 1;
            // The first king of a game played from the start (not of a problem position).
            if self.from_start && self.first_king.is_none() {
                self.first_king = Some(MoveAt {
                    at: Location::default(),
                    ply: e.ply,
                    text: write(e.ambiguous),
                    pieces: n,
                });
            }
        }
        let depth = *OPENING_PLIES.last().unwrap_or(&0);
        if self.from_start && self.opening_plies < depth && e.ply == self.opening_plies + 1 {
            if !self.opening.is_empty() {
                self.opening.push(' ');
            }
            self.opening.push_str(&write(e.ambiguous));
            self.opening_plies += 1;
            if let Some(k) = OPENING_PLIES.iter().position(|&p| p == self.opening_plies) {
                self.opening_ends[k] = self.opening.len();
            }
        } else {
            // Past the opening, or after a setup: no more opening plies.
            self.opening_plies = depth;
        }
        if let Some(h) = &mut self.hash {
            h.write_u128(u128::from(mv.from) | u128::from(mv.to) << 8);
            h.write_u128(mv.captured.to_u128());
            self.hashed += 1;
            if self.fuzzy == Some(self.hashed) {
                self.prefix = Some(h.finish());
            }
        }
    }
}

/// Wins, draws and losses from the point of view of the side that moves first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Games the side that moves first won.
    pub first_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Games the other side won.
    pub second_wins: u64,
    /// Other results: unfinished, unknown, double forfeit, match scores.
    pub other: u64,
}

impl Tally {
    fn add(&mut self, o: Outcome) {
        self.games += 1;
        match o {
            Outcome::FirstWon => self.first_wins += 1,
            Outcome::SecondWon => self.second_wins += 1,
            Outcome::Draw => self.draws += 1,
            _ => self.other += 1,
        }
    }

    /// The percentage scored by the side that moves first, over games won, drawn or lost.
    pub fn score(&self) -> Option<f64> {
        let scored = self.first_wins + self.draws + self.second_wins;
        (scored > 0).then(|| {
            round2(100.0 * (self.first_wins as f64 + self.draws as f64 / 2.0) / scored as f64)
        })
    }
}

impl AddAssign<&Tally> for Tally {
    fn add_assign(&mut self, o: &Tally) {
        self.games += o.games;
        self.first_wins += o.first_wins;
        self.draws += o.draws;
        self.second_wins += o.second_wins;
        self.other += o.other;
    }
}

/// A player's record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerTally {
    /// Games.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses (a double forfeit `0-0` is a loss for both).
    pub losses: u64,
    /// Games without a result (unfinished, unknown, match scores).
    pub other: u64,
    /// Points, in half points.
    pub half_points: u64,
}

impl PlayerTally {
    /// Points (2 per win and 1 per draw under the International result type, 1 and ½
    /// otherwise).
    pub fn points(&self) -> f64 {
        self.half_points as f64 / 2.0
    }
}

impl AddAssign<&PlayerTally> for PlayerTally {
    fn add_assign(&mut self, o: &PlayerTally) {
        self.games += o.games;
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        self.other += o.other;
        self.half_points += o.half_points;
    }
}

/// An event's games and results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventTally {
    /// Where its first game is (events are listed in input order).
    pub first: Location,
    /// Plies.
    pub plies: u64,
    /// Results.
    pub tally: Tally,
}

/// The key of an opening: variant, depth, moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpeningKey {
    /// The variant (openings of different variants are different openings).
    pub variant: Variant,
    /// Plies.
    pub plies: u32,
    /// The moves in canonical PDN, space-separated.
    pub moves: String,
}

/// Why two games are duplicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    /// The whole move sequences are identical (same variant and start position).
    Identical,
    /// The first N plies are identical.
    SameStart(u32),
}

/// A game that duplicates an earlier one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// The later game.
    pub game: Location,
    /// The first game with the same moves.
    pub first: Location,
    /// Why.
    pub reason: Reason,
    /// Plies compared.
    pub plies: u32,
}

#[derive(Clone, Debug, Default)]
struct Dups {
    /// Per key: the first game and its plies.
    exact: HashMap<u128, (Location, u32)>,
    prefix: HashMap<u128, Location>,
    /// Later games: key and location (the first is looked up at the end, so that merging
    /// in any order gives the same answer).
    exact_later: Vec<(u128, Location)>,
    prefix_later: Vec<(u128, Location)>,
    fuzzy: u32,
}

impl Dups {
    fn add_exact(&mut self, key: u128, at: Location, plies: u32) {
        match self.exact.entry(key) {
            Entry::Vacant(v) => {
                v.insert((at, plies));
            }
            Entry::Occupied(mut o) => {
                if at < o.get().0 {
                    let old = o.insert((at, plies));
                    self.exact_later.push((key, old.0));
                } else {
                    self.exact_later.push((key, at));
                }
            }
        }
    }

    fn add_prefix(&mut self, key: u128, at: Location) {
        match self.prefix.entry(key) {
            Entry::Vacant(v) => {
                v.insert(at);
            }
            Entry::Occupied(mut o) => {
                if at < *o.get() {
                    let old = o.insert(at);
                    self.prefix_later.push((key, old));
                } else {
                    self.prefix_later.push((key, at));
                }
            }
        }
    }

    fn list(&self) -> Vec<Duplicate> {
        let mut out: Vec<Duplicate> = self
            .exact_later
            .iter()
            .filter_map(|(k, at)| {
                self.exact.get(k).map(|&(first, plies)| Duplicate {
                    game: *at,
                    first,
                    reason: Reason::Identical,
                    plies,
                })
            })
            .collect();
        let identical: std::collections::HashSet<Location> = out.iter().map(|d| d.game).collect();
        out.extend(self.prefix_later.iter().filter_map(|(k, at)| {
            if identical.contains(at) {
                return None;
            }
            self.prefix.get(k).map(|&first| Duplicate {
                game: *at,
                first,
                reason: Reason::SameStart(self.fuzzy),
                plies: self.fuzzy,
            })
        }));
        out.sort_by_key(|d| (d.game, d.reason));
        out
    }
}

/// Statistics over games: add [`GameRecord`]s in any order, merge partial results with `+=`.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Files read (set by the caller).
    pub files: u64,
    /// Games.
    pub games: u64,
    /// Plies.
    pub plies: u64,
    /// Games with at least one error diagnostic.
    pub games_with_errors: u64,
    results: HashMap<String, u64>,
    variants: HashMap<Option<Variant>, u64>,
    lengths: BTreeMap<u32, u64>,
    longest: Option<(u32, Location)>,
    captures: u64,
    multi_captures: u64,
    pieces: u64,
    capture_sizes: BTreeMap<u32, u64>,
    rafle: Option<MoveAt>,
    promotions: u64,
    first_kings: BTreeMap<u32, u64>,
    earliest_king: Option<MoveAt>,
    openings: HashMap<OpeningKey, Tally>,
    players: HashMap<String, PlayerTally>,
    events: HashMap<String, EventTally>,
    codes: [u64; Code::ALL.len()],
    dups: Option<Dups>,
}

/// Keep the better of two moves of interest: `better(a, b)` says if `a` beats `b`; ties go
/// to the earlier game, so that merging in any order gives the same answer.
fn keep(slot: &mut Option<MoveAt>, new: MoveAt, better: impl Fn(&MoveAt, &MoveAt) -> bool) {
    let replace = match slot {
        None => true,
        Some(old) => better(&new, old) || (!better(old, &new) && new.at < old.at),
    };
    if replace {
        *slot = Some(new);
    }
}

impl Stats {
    /// Empty statistics; `duplicates` keeps the keys of move sequences (and, with `fuzzy`,
    /// of their first N plies) to find duplicate games.
    pub fn new(duplicates: bool, fuzzy: Option<u32>) -> Stats {
        Stats {
            dups: (duplicates || fuzzy.is_some()).then(|| Dups {
                fuzzy: fuzzy.unwrap_or(0),
                ..Dups::default()
            }),
            ..Stats::default()
        }
    }

    /// Add a game.
    pub fn add(&mut self, r: GameRecord) {
        let at = r.at;
        self.games += 1;
        self.plies += u64::from(r.plies);
        if r.errors > 0 {
            self.games_with_errors += 1;
        }
        let result = r.result.unwrap_or_else(|| NO_RESULT.to_string());
        *self.results.entry(result).or_default() += 1;
        *self.variants.entry(r.variant).or_default() += 1;
        *self.lengths.entry(r.plies).or_default() += 1;
        if self
            .longest
            .is_none_or(|(p, l)| r.plies > p || (r.plies == p && at < l))
        {
            self.longest = Some((r.plies, at));
        }
        self.captures += u64::from(r.captures);
        self.multi_captures += u64::from(r.multi_captures);
        self.pieces += r.pieces;
        for (n, &c) in r.capture_sizes.iter().enumerate() {
            if c > 0 {
                *self.capture_sizes.entry(n as u32).or_default() += u64::from(c);
            }
        }
        if let Some(m) = r.rafle {
            keep(&mut self.rafle, m, |a, b| a.pieces > b.pieces);
        }
        self.promotions += u64::from(r.promotions);
        if let Some(m) = r.first_king {
            *self.first_kings.entry(m.ply).or_default() += 1;
            keep(&mut self.earliest_king, m, |a, b| a.ply < b.ply);
        }
        if let Some(v) = r.variant {
            for (k, &plies) in OPENING_PLIES.iter().enumerate() {
                if let Some(moves) = r.opening_ends.get(k).filter(|&&e| e > 0) {
                    let key = OpeningKey {
                        variant: v,
                        plies,
                        moves: r.opening[..*moves].to_string(),
                    };
                    self.openings.entry(key).or_default().add(r.outcome);
                }
            }
        }
        let rules = r.variant.map(Variant::rules);
        let first = rules.map_or(Color::White, |r| r.first_mover());
        let (win, draw) = match rules.map(|r| r.result_type) {
            Some(ResultType::International) => (4, 2),
            _ => (2, 1),
        };
        for color in Color::ALL {
            let Some(name) = &r.players[color.index()] else {
                continue;
            };
            let p = self.players.entry(name.clone()).or_default();
            p.games += 1;
            match r.outcome {
                Outcome::Draw => {
                    p.draws += 1;
                    p.half_points += draw;
                }
                Outcome::BothLost => p.losses += 1,
                o @ (Outcome::FirstWon | Outcome::SecondWon) => {
                    if o.winner(first) == Some(color) {
                        p.wins += 1;
                        p.half_points += win;
                    } else {
                        p.losses += 1;
                    }
                }
                Outcome::Unknown | Outcome::Other => p.other += 1,
            }
        }
        let event = r.event.unwrap_or_else(|| NO_EVENT.to_string());
        let e = self.events.entry(event).or_insert_with(|| EventTally {
            first: at,
            ..EventTally::default()
        });
        e.first = e.first.min(at);
        e.plies += u64::from(r.plies);
        e.tally.add(r.outcome);
        for (c, &n) in self.codes.iter_mut().zip(r.codes.iter()) {
            *c += u64::from(n);
        }
        if let Some(d) = &mut self.dups {
            if let Some(k) = r.moves_key {
                d.add_exact(k, at, r.plies);
            }
            if let Some(k) = r.prefix_key {
                d.add_prefix(k, at);
            }
        }
    }

    /// Result strings and their counts, most frequent first.
    pub fn results(&self) -> Vec<(&str, u64)> {
        let mut v: Vec<(&str, u64)> = self.results.iter().map(|(k, &n)| (k.as_str(), n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }

    /// Variants (`unknown` where no variant fits) and their games, most frequent first.
    pub fn variants(&self) -> Vec<(&'static str, u64)> {
        let mut v: Vec<(&'static str, u64)> = self
            .variants
            .iter()
            .map(|(k, &n)| (k.map_or("unknown", Variant::name), n))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }

    /// Mean game length in plies.
    pub fn mean_length(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            round2(self.plies as f64 / self.games as f64)
        }
    }

    /// Median game length in plies.
    pub fn median_length(&self) -> f64 {
        median(&self.lengths)
    }

    /// The longest game: plies and where (the first of the longest).
    pub fn longest(&self) -> Option<(u32, Location)> {
        self.longest
    }

    /// Number of games by length, in buckets of `width` plies: (first ply of the bucket,
    /// games), every bucket from 0 to the longest game.
    pub fn histogram(&self, width: u32) -> Vec<(u32, u64)> {
        let width = width.max(1);
        let mut out: Vec<(u32, u64)> = Vec::new();
        for (&len, &n) in &self.lengths {
            let from = len / width * width;
            match out.last_mut() {
                Some(last) if last.0 == from => last.1 += n,
                _ => out.push((from, n)),
            }
        }
        out
    }

    /// Capturing moves, multi-captures and pieces taken.
    pub fn captures(&self) -> (u64, u64, u64) {
        (self.captures, self.multi_captures, self.pieces)
    }

    /// Capturing moves by pieces taken.
    pub fn capture_sizes(&self) -> &BTreeMap<u32, u64> {
        &self.capture_sizes
    }

    /// The largest capture (the first of the largest).
    pub fn largest_capture(&self) -> Option<&MoveAt> {
        self.rafle.as_ref()
    }

    /// Promotions on the main lines.
    pub fn promotions(&self) -> u64 {
        self.promotions
    }

    /// Games played from the start position that have a promotion.
    pub fn games_with_king(&self) -> u64 {
        self.first_kings.values().sum()
    }

    /// Mean and median ply of the first promotion, over games with one.
    pub fn first_king(&self) -> Option<(f64, f64)> {
        let n = self.games_with_king();
        (n > 0).then(|| {
            let sum: u64 = self
                .first_kings
                .iter()
                .map(|(&p, &c)| u64::from(p) * c)
                .sum();
            (round2(sum as f64 / n as f64), median(&self.first_kings))
        })
    }

    /// The earliest first promotion (the first of the earliest).
    pub fn earliest_king(&self) -> Option<&MoveAt> {
        self.earliest_king.as_ref()
    }

    /// Diagnostics by code, in the order of DESIGN.md; codes never seen are left out.
    pub fn diagnostics(&self) -> Vec<(Code, u64)> {
        Code::ALL
            .iter()
            .zip(self.codes.iter())
            .filter(|(_, n)| **n > 0)
            .map(|(c, n)| (*c, *n))
            .collect()
    }

    /// Diagnostics of a severity.
    pub fn count(&self, s: Severity) -> u64 {
        Code::ALL
            .iter()
            .zip(self.codes.iter())
            .filter(|(c, _)| c.severity() == s)
            .map(|(_, n)| n)
            .sum()
    }

    /// The openings: by variant, then depth, then most played first, then by moves.
    pub fn openings(&self) -> Vec<(&OpeningKey, &Tally)> {
        let mut v: Vec<(&OpeningKey, &Tally)> = self.openings.iter().collect();
        v.sort_by(|a, b| {
            (a.0.variant, a.0.plies, Reverse(a.1.games), &a.0.moves).cmp(&(
                b.0.variant,
                b.0.plies,
                Reverse(b.1.games),
                &b.0.moves,
            ))
        });
        v
    }

    /// The players: most games first, then most points, then by name.
    pub fn players(&self) -> Vec<(&str, &PlayerTally)> {
        let mut v: Vec<(&str, &PlayerTally)> =
            self.players.iter().map(|(k, p)| (k.as_str(), p)).collect();
        v.sort_by(|a, b| {
            (Reverse(a.1.games), Reverse(a.1.half_points), a.0).cmp(&(
                Reverse(b.1.games),
                Reverse(b.1.half_points),
                b.0,
            ))
        });
        v
    }

    /// The events, in the order of their first game.
    pub fn events(&self) -> Vec<(&str, &EventTally)> {
        let mut v: Vec<(&str, &EventTally)> =
            self.events.iter().map(|(k, e)| (k.as_str(), e)).collect();
        v.sort_by(|a, b| (a.1.first, a.0).cmp(&(b.1.first, b.0)));
        v
    }

    /// Games that duplicate an earlier one, in input order (empty unless asked for).
    pub fn duplicates(&self) -> Vec<Duplicate> {
        self.dups.as_ref().map(Dups::list).unwrap_or_default()
    }

    /// True if duplicates were looked for.
    pub fn looks_for_duplicates(&self) -> bool {
        self.dups.is_some()
    }
}

impl AddAssign for Stats {
    /// Merge statistics of other games (in any order: the answer is the same).
    fn add_assign(&mut self, o: Stats) {
        self.files += o.files;
        self.games += o.games;
        self.plies += o.plies;
        self.games_with_errors += o.games_with_errors;
        for (k, n) in o.results {
            *self.results.entry(k).or_default() += n;
        }
        for (k, n) in o.variants {
            *self.variants.entry(k).or_default() += n;
        }
        for (k, n) in o.lengths {
            *self.lengths.entry(k).or_default() += n;
        }
        if let Some((p, at)) = o.longest
            && self
                .longest
                .is_none_or(|(q, l)| p > q || (p == q && at < l))
        {
            self.longest = Some((p, at));
        }
        self.captures += o.captures;
        self.multi_captures += o.multi_captures;
        self.pieces += o.pieces;
        for (k, n) in o.capture_sizes {
            *self.capture_sizes.entry(k).or_default() += n;
        }
        if let Some(m) = o.rafle {
            keep(&mut self.rafle, m, |a, b| a.pieces > b.pieces);
        }
        self.promotions += o.promotions;
        for (k, n) in o.first_kings {
            *self.first_kings.entry(k).or_default() += n;
        }
        if let Some(m) = o.earliest_king {
            keep(&mut self.earliest_king, m, |a, b| a.ply < b.ply);
        }
        for (k, t) in o.openings {
            *self.openings.entry(k).or_default() += &t;
        }
        for (k, p) in o.players {
            *self.players.entry(k).or_default() += &p;
        }
        for (k, e) in o.events {
            match self.events.entry(k) {
                Entry::Vacant(v) => {
                    v.insert(e);
                }
                Entry::Occupied(mut s) => {
                    let s = s.get_mut();
                    s.first = s.first.min(e.first);
                    s.plies += e.plies;
                    s.tally += &e.tally;
                }
            }
        }
        for (c, n) in self.codes.iter_mut().zip(o.codes) {
            *c += n;
        }
        match (&mut self.dups, o.dups) {
            (Some(d), Some(od)) => {
                for (k, (at, plies)) in od.exact {
                    d.add_exact(k, at, plies);
                }
                d.exact_later.extend(od.exact_later);
                for (k, at) in od.prefix {
                    d.add_prefix(k, at);
                }
                d.prefix_later.extend(od.prefix_later);
            }
            (None, Some(od)) => self.dups = Some(od),
            _ => {}
        }
    }
}

fn median(counts: &BTreeMap<u32, u64>) -> f64 {
    let n: u64 = counts.values().sum();
    if n == 0 {
        return 0.0;
    }
    // The values at 0-based ranks (n-1)/2 and n/2, averaged.
    let (lo, hi) = ((n - 1) / 2, n / 2);
    let mut seen = 0u64;
    let mut a = None;
    for (&v, &c) in counts {
        let next = seen + c;
        if a.is_none() && lo < next {
            a = Some(v);
        }
        if hi < next {
            return (f64::from(a.unwrap_or(v)) + f64::from(v)) / 2.0;
        }
        seen = next;
    }
    0.0
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

// ---------------------------------------------------------------------------------------
// Rendering.

/// The table `--by` chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// Players.
    Player,
    /// Openings.
    Opening,
    /// Events.
    Event,
}

/// Names of the inputs, to write locations.
pub type Names<'a> = &'a [String];

fn file_name(names: Names<'_>, at: Location) -> &str {
    names.get(at.file as usize).map_or("?", String::as_str)
}

/// A JSON map in a chosen order.
struct Ordered<'a, K: Serialize, V: Serialize>(&'a [(K, V)]);

impl<K: Serialize, V: Serialize> Serialize for Ordered<'_, K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

#[derive(Serialize)]
struct JsonAt<'a> {
    file: &'a str,
    game: u32,
}

#[derive(Serialize)]
struct JsonMove<'a> {
    file: &'a str,
    game: u32,
    ply: u32,
    #[serde(rename = "move")]
    mv: &'a str,
    pieces: u32,
}

#[derive(Serialize)]
struct JsonBucket {
    from: u32,
    to: u32,
    games: u64,
}

#[derive(Serialize)]
struct JsonLength<'a> {
    mean: f64,
    median: f64,
    max: u32,
    longest: Option<JsonAt<'a>>,
    histogram: Vec<JsonBucket>,
}

#[derive(Serialize)]
struct JsonCaptures<'a> {
    count: u64,
    multi: u64,
    pieces: u64,
    by_size: Ordered<'a, String, u64>,
    largest: Option<JsonMove<'a>>,
}

#[derive(Serialize)]
struct JsonFirstKing<'a> {
    mean: f64,
    median: f64,
    earliest: Option<JsonMove<'a>>,
}

#[derive(Serialize)]
struct JsonPromotions<'a> {
    count: u64,
    games: u64,
    first_king: Option<JsonFirstKing<'a>>,
}

#[derive(Serialize)]
struct JsonOpening<'a> {
    variant: &'static str,
    plies: u32,
    moves: &'a str,
    games: u64,
    first_wins: u64,
    draws: u64,
    second_wins: u64,
    other: u64,
    score: Option<f64>,
}

#[derive(Serialize)]
struct JsonPlayer<'a> {
    name: &'a str,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    other: u64,
    points: f64,
}

#[derive(Serialize)]
struct JsonEvent<'a> {
    name: &'a str,
    games: u64,
    plies: u64,
    first_wins: u64,
    draws: u64,
    second_wins: u64,
    other: u64,
}

#[derive(Serialize)]
struct JsonDuplicate<'a> {
    file: &'a str,
    game: u32,
    first: JsonAt<'a>,
    reason: &'static str,
    plies: u32,
}

#[derive(Serialize)]
struct JsonStats<'a> {
    files: u64,
    games: u64,
    plies: u64,
    games_with_errors: u64,
    results: Ordered<'a, &'a str, u64>,
    variants: Ordered<'a, &'static str, u64>,
    length: JsonLength<'a>,
    captures: JsonCaptures<'a>,
    promotions: JsonPromotions<'a>,
    openings: Vec<JsonOpening<'a>>,
    players: Vec<JsonPlayer<'a>>,
    events: Vec<JsonEvent<'a>>,
    diagnostics: Ordered<'a, &'static str, u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    duplicates: Option<Vec<JsonDuplicate<'a>>>,
}

fn json_move<'a>(names: Names<'a>, m: &'a MoveAt) -> JsonMove<'a> {
    JsonMove {
        file: file_name(names, m.at),
        game: m.at.game,
        ply: m.ply,
        mv: &m.text,
        pieces: m.pieces,
    }
}

fn reason_text(r: Reason) -> &'static str {
    match r {
        Reason::Identical => "identical",
        Reason::SameStart(_) => "same-start",
    }
}

impl Stats {
    /// The statistics as one JSON object (with a final newline).
    ///
    /// # Errors
    ///
    /// Serialisation errors of `serde_json` (none are expected).
    pub fn to_json(&self, names: Names<'_>) -> Result<String, serde_json::Error> {
        let results = self.results();
        let variants = self.variants();
        let sizes: Vec<(String, u64)> = self
            .capture_sizes
            .iter()
            .map(|(k, &n)| (k.to_string(), n))
            .collect();
        let codes: Vec<(&'static str, u64)> = self
            .diagnostics()
            .into_iter()
            .map(|(c, n)| (c.as_str(), n))
            .collect();
        let dups = self.duplicates();
        let j = JsonStats {
            files: self.files,
            games: self.games,
            plies: self.plies,
            games_with_errors: self.games_with_errors,
            results: Ordered(&results),
            variants: Ordered(&variants),
            length: JsonLength {
                mean: self.mean_length(),
                median: self.median_length(),
                max: self.longest.map_or(0, |l| l.0),
                longest: self.longest.map(|(_, at)| JsonAt {
                    file: file_name(names, at),
                    game: at.game,
                }),
                histogram: self
                    .histogram(LENGTH_BUCKET)
                    .into_iter()
                    .map(|(from, games)| JsonBucket {
                        from,
                        to: from + LENGTH_BUCKET - 1,
                        games,
                    })
                    .collect(),
            },
            captures: JsonCaptures {
                count: self.captures,
                multi: self.multi_captures,
                pieces: self.pieces,
                by_size: Ordered(&sizes),
                largest: self.rafle.as_ref().map(|m| json_move(names, m)),
            },
            promotions: JsonPromotions {
                count: self.promotions,
                games: self.games_with_king(),
                first_king: self.first_king().map(|(mean, median)| JsonFirstKing {
                    mean,
                    median,
                    earliest: self.earliest_king.as_ref().map(|m| json_move(names, m)),
                }),
            },
            openings: self
                .openings()
                .into_iter()
                .map(|(k, t)| JsonOpening {
                    variant: k.variant.name(),
                    plies: k.plies,
                    moves: &k.moves,
                    games: t.games,
                    first_wins: t.first_wins,
                    draws: t.draws,
                    second_wins: t.second_wins,
                    other: t.other,
                    score: t.score(),
                })
                .collect(),
            players: self
                .players()
                .into_iter()
                .map(|(name, p)| JsonPlayer {
                    name,
                    games: p.games,
                    wins: p.wins,
                    draws: p.draws,
                    losses: p.losses,
                    other: p.other,
                    points: p.points(),
                })
                .collect(),
            events: self
                .events()
                .into_iter()
                .map(|(name, e)| JsonEvent {
                    name,
                    games: e.tally.games,
                    plies: e.plies,
                    first_wins: e.tally.first_wins,
                    draws: e.tally.draws,
                    second_wins: e.tally.second_wins,
                    other: e.tally.other,
                })
                .collect(),
            diagnostics: Ordered(&codes),
            duplicates: self.dups.is_some().then(|| {
                dups.iter()
                    .map(|d| JsonDuplicate {
                        file: file_name(names, d.game),
                        game: d.game.game,
                        first: JsonAt {
                            file: file_name(names, d.first),
                            game: d.first.game,
                        },
                        reason: reason_text(d.reason),
                        plies: d.plies,
                    })
                    .collect()
            }),
        };
        let mut s = serde_json::to_string(&j)?;
        s.push('\n');
        Ok(s)
    }

    /// One table as CSV: `--by` player, opening or event, or (with `None`) the duplicates.
    ///
    /// # Errors
    ///
    /// Errors of the `csv` writer (none are expected when writing to memory).
    pub fn to_csv(&self, by: Option<By>, names: Names<'_>) -> Result<Vec<u8>, csv::Error> {
        let mut w = csv::Writer::from_writer(Vec::new());
        match by {
            Some(By::Player) => {
                w.write_record([
                    "player", "games", "wins", "draws", "losses", "other", "points",
                ])?;
                for (name, p) in self.players() {
                    w.write_record([
                        name.to_string(),
                        p.games.to_string(),
                        p.wins.to_string(),
                        p.draws.to_string(),
                        p.losses.to_string(),
                        p.other.to_string(),
                        p.points().to_string(),
                    ])?;
                }
            }
            Some(By::Opening) => {
                w.write_record([
                    "variant",
                    "plies",
                    "moves",
                    "games",
                    "first_wins",
                    "draws",
                    "second_wins",
                    "other",
                    "score",
                ])?;
                for (k, t) in self.openings() {
                    w.write_record([
                        k.variant.name().to_string(),
                        k.plies.to_string(),
                        k.moves.clone(),
                        t.games.to_string(),
                        t.first_wins.to_string(),
                        t.draws.to_string(),
                        t.second_wins.to_string(),
                        t.other.to_string(),
                        t.score().map(|s| s.to_string()).unwrap_or_default(),
                    ])?;
                }
            }
            Some(By::Event) => {
                w.write_record([
                    "event",
                    "games",
                    "plies",
                    "first_wins",
                    "draws",
                    "second_wins",
                    "other",
                ])?;
                for (name, e) in self.events() {
                    w.write_record([
                        name.to_string(),
                        e.tally.games.to_string(),
                        e.plies.to_string(),
                        e.tally.first_wins.to_string(),
                        e.tally.draws.to_string(),
                        e.tally.second_wins.to_string(),
                        e.tally.other.to_string(),
                    ])?;
                }
            }
            None => {
                w.write_record([
                    "file",
                    "game",
                    "first_file",
                    "first_game",
                    "reason",
                    "plies",
                ])?;
                for d in self.duplicates() {
                    w.write_record([
                        file_name(names, d.game).to_string(),
                        d.game.game.to_string(),
                        file_name(names, d.first).to_string(),
                        d.first.game.to_string(),
                        reason_text(d.reason).to_string(),
                        d.plies.to_string(),
                    ])?;
                }
            }
        }
        w.into_inner().map_err(|e| csv::Error::from(e.into_error()))
    }

    /// The statistics as aligned tables. `by` shows that table in full (otherwise only the
    /// [`TOP_OPENINGS`] most played openings per variant and depth and the [`TOP_PLAYERS`]
    /// players with the most games).
    pub fn to_text(&self, by: Option<By>, names: Names<'_>) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} game{} ({} plies) in {} file{}; {} game{} with errors",
            self.games,
            plural(self.games),
            self.plies,
            self.files,
            plural(self.files),
            self.games_with_errors,
            plural(self.games_with_errors),
        );
        let pct = |n: u64| percent(n, self.games);

        section(&mut out, "Results");
        let mut t = Table::new(&["result", "games", "%"], "lrr");
        for (r, n) in self.results() {
            t.row(vec![r.to_string(), n.to_string(), pct(n)]);
        }
        t.render(&mut out);

        section(&mut out, "Variants");
        let mut t = Table::new(&["variant", "games", "%"], "lrr");
        for (v, n) in self.variants() {
            t.row(vec![v.to_string(), n.to_string(), pct(n)]);
        }
        t.render(&mut out);

        section(&mut out, "Game length (plies)");
        let longest = match self.longest {
            Some((p, at)) => format!("{p} ({}:{})", file_name(names, at), at.game),
            None => "0".to_string(),
        };
        let _ = writeln!(
            out,
            "  mean {}   median {}   max {longest}",
            self.mean_length(),
            self.median_length()
        );
        let max = self.longest.map_or(0, |l| l.0);
        let width = bucket_width(max);
        let hist = self.histogram(width);
        let peak = hist.iter().map(|h| h.1).max().unwrap_or(0);
        let mut dense: Vec<(u32, u64)> = Vec::new();
        let mut from = 0;
        for (f, n) in hist {
            while from < f {
                dense.push((from, 0));
                from += width;
            }
            dense.push((f, n));
            from = f + width;
        }
        let mut t = Table::new(&["plies", "games", ""], "rrl");
        for (f, n) in dense {
            let bar = if peak == 0 {
                0
            } else {
                (n * 40).div_ceil(peak) as usize
            };
            t.row(vec![
                format!("{f}-{}", f + width - 1),
                n.to_string(),
                "#".repeat(bar),
            ]);
        }
        t.render(&mut out);

        section(&mut out, "Captures");
        let mut t = Table::new(&["", ""], "lr");
        t.row(vec!["capturing moves".into(), self.captures.to_string()]);
        t.row(vec![
            "multi-captures (2+ pieces)".into(),
            self.multi_captures.to_string(),
        ]);
        t.row(vec!["pieces taken".into(), self.pieces.to_string()]);
        t.render_plain(&mut out);
        if !self.capture_sizes.is_empty() {
            let sizes: Vec<String> = self
                .capture_sizes
                .iter()
                .map(|(k, n)| format!("{k}: {n}"))
                .collect();
            let _ = writeln!(out, "  by pieces taken: {}", sizes.join(", "));
        }
        if let Some(m) = &self.rafle {
            let _ = writeln!(
                out,
                "  largest: {} pieces, {} at {}:{} ply {}",
                m.pieces,
                m.text,
                file_name(names, m.at),
                m.at.game,
                m.ply
            );
        }

        section(&mut out, "Promotions");
        let mut t = Table::new(&["", ""], "lr");
        t.row(vec!["promotions".into(), self.promotions.to_string()]);
        t.row(vec![
            "games with a king (from the start)".into(),
            self.games_with_king().to_string(),
        ]);
        if let Some((mean, median)) = self.first_king() {
            t.row(vec!["first king: mean ply".into(), mean.to_string()]);
            t.row(vec!["first king: median ply".into(), median.to_string()]);
        }
        t.render_plain(&mut out);
        if let Some(m) = &self.earliest_king {
            let _ = writeln!(
                out,
                "  earliest king: ply {}, {} at {}:{}",
                m.ply,
                m.text,
                file_name(names, m.at),
                m.at.game
            );
        }

        let openings = self.openings();
        let full = by == Some(By::Opening);
        let title = if full {
            "Openings".to_string()
        } else {
            format!(
                "Openings (the {TOP_OPENINGS} most played per variant and depth; --by opening for all)"
            )
        };
        section(&mut out, &title);
        let mut t = Table::new(
            &[
                "plies", "variant", "moves", "games", "1st won", "draws", "2nd won", "score%",
            ],
            "rllrrrrr",
        );
        let mut group = None;
        let mut shown = 0;
        for (k, tally) in &openings {
            if group != Some((k.variant, k.plies)) {
                group = Some((k.variant, k.plies));
                shown = 0;
            }
            if !full && shown >= TOP_OPENINGS {
                continue;
            }
            shown += 1;
            t.row(vec![
                k.plies.to_string(),
                k.variant.name().to_string(),
                k.moves.clone(),
                tally.games.to_string(),
                tally.first_wins.to_string(),
                tally.draws.to_string(),
                tally.second_wins.to_string(),
                tally.score().map(|s| format!("{s:.1}")).unwrap_or_default(),
            ]);
        }
        t.render(&mut out);

        let players = self.players();
        let full = by == Some(By::Player);
        let top = TOP_PLAYERS;
        let title = if full || players.len() <= top {
            format!("Players ({})", players.len())
        } else {
            format!(
                "Players (the {top} with most games of {}; --by player for all)",
                players.len()
            )
        };
        section(&mut out, &title);
        let mut t = Table::new(
            &[
                "player", "games", "wins", "draws", "losses", "other", "points",
            ],
            "lrrrrrr",
        );
        for (name, p) in players.iter().take(if full { usize::MAX } else { top }) {
            t.row(vec![
                name.to_string(),
                p.games.to_string(),
                p.wins.to_string(),
                p.draws.to_string(),
                p.losses.to_string(),
                p.other.to_string(),
                p.points().to_string(),
            ]);
        }
        t.render(&mut out);

        if by == Some(By::Event) {
            let events = self.events();
            section(&mut out, &format!("Events ({})", events.len()));
            let mut t = Table::new(
                &[
                    "event", "games", "plies", "1st won", "draws", "2nd won", "other",
                ],
                "lrrrrrr",
            );
            for (name, e) in events {
                t.row(vec![
                    name.to_string(),
                    e.tally.games.to_string(),
                    e.plies.to_string(),
                    e.tally.first_wins.to_string(),
                    e.tally.draws.to_string(),
                    e.tally.second_wins.to_string(),
                    e.tally.other.to_string(),
                ]);
            }
            t.render(&mut out);
        }

        section(&mut out, "Diagnostics");
        let mut t = Table::new(&["code", "severity", "count"], "llr");
        for (c, n) in self.diagnostics() {
            t.row(vec![
                c.as_str().to_string(),
                c.severity().as_str().to_string(),
                n.to_string(),
            ]);
        }
        t.render(&mut out);

        if self.dups.is_some() {
            let dups = self.duplicates();
            section(&mut out, &format!("Duplicates ({})", dups.len()));
            let mut t = Table::new(&["why", "game", "same as"], "lll");
            for d in dups {
                let why = match d.reason {
                    Reason::Identical => {
                        format!("identical moves ({} {})", d.plies, plies_word(d.plies))
                    }
                    Reason::SameStart(n) => format!("same first {n} {}", plies_word(n)),
                };
                t.row(vec![
                    why,
                    format!("{}:{}", file_name(names, d.game), d.game.game),
                    format!("{}:{}", file_name(names, d.first), d.first.game),
                ]);
            }
            t.render(&mut out);
        }
        out
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn plies_word(n: u32) -> &'static str {
    if n == 1 { "ply" } else { "plies" }
}

fn percent(n: u64, of: u64) -> String {
    if of == 0 {
        String::new()
    } else {
        format!("{:.1}", 100.0 * n as f64 / of as f64)
    }
}

/// A histogram bucket width that keeps the text histogram under about 30 rows.
fn bucket_width(max: u32) -> u32 {
    [10u32, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|w| max / w < 30)
        .unwrap_or_else(|| (max / 30).max(1))
}

fn section(out: &mut String, title: &str) {
    let _ = writeln!(out, "\n{title}");
}

/// A text table: a header, rows, and per column `l` (left) or `r` (right) alignment.
struct Table {
    header: Vec<String>,
    align: Vec<u8>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn new(header: &[&str], align: &str) -> Table {
        Table {
            header: header.iter().map(|s| s.to_string()).collect(),
            align: align.bytes().collect(),
            rows: Vec::new(),
        }
    }

    fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    fn render(&self, out: &mut String) {
        if self.rows.is_empty() {
            out.push_str("  (none)\n");
            return;
        }
        self.write(out, true);
    }

    fn render_plain(&self, out: &mut String) {
        self.write(out, false);
    }

    fn write(&self, out: &mut String, header: bool) {
        let cols = self.header.len();
        let mut widths = vec![0usize; cols];
        let all = header.then_some(&self.header).into_iter().chain(&self.rows);
        for r in all.clone() {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        for r in all {
            let mut line = String::from(" ");
            for (i, c) in r.iter().enumerate().take(cols) {
                let pad = widths[i].saturating_sub(c.chars().count());
                line.push(' ');
                if self.align.get(i) == Some(&b'r') {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(c);
                } else {
                    line.push_str(c);
                    line.extend(std::iter::repeat_n(' ', pad));
                }
                line.push(' ');
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians() {
        let m: BTreeMap<u32, u64> = [(1, 1), (3, 1)].into();
        assert_eq!(median(&m), 2.0);
        let m: BTreeMap<u32, u64> = [(1, 2), (3, 1)].into();
        assert_eq!(median(&m), 1.0);
        assert_eq!(median(&BTreeMap::new()), 0.0);
    }

    #[test]
    fn bucket_widths() {
        assert_eq!(bucket_width(0), 10);
        assert_eq!(bucket_width(299), 10);
        assert_eq!(bucket_width(300), 20);
        assert_eq!(bucket_width(100_000), 3333);
    }
}
