//! Statistics over games (`pdn stats`): the shared vocabulary (options, locations, the
//! accumulator [`Stats`]) and the steps, one module each: [`analyse`] computes what one game
//! contributes ([`GameFacts`], on any thread); `tally` adds records to [`Stats`] (which also
//! merges with `+=`, so partial results from several threads combine in any order);
//! `duplicates` finds games with the same moves; `text`, `json` and `csv` render.
//!
//! Memory stays bounded by the number of distinct keys (result strings, lengths, openings,
//! players, events), never by the number of games; only duplicate detection keeps one
//! 128-bit key and a location per distinct move sequence, and per distinct prefix of at
//! least `--min-plies` plies (to find games contained in longer ones).
//!
//! Conventions (docs/pdn.md#results): the first number of a result is the score of the side that
//! moves first in the variant (White in the FMJD variants, Black in English checkers); the
//! player named in the `White` tag plays White. Results are counted in the variant's standard
//! form (`0 - 2`, `0–2` and `0-2` are one result). A game is *decided* when its result is a
//! win or a draw; every other result (`*`, `0-0`, none, a score that is no game result) is
//! *unknown* and counted apart: scores and points are over decided games only. Points follow
//! the variant's result type (2 for a win and 1 for a draw under the International type, 1
//! and ½ otherwise), so players are counted per variant, never across scales.

use std::collections::{BTreeMap, HashMap};

use crate::rules::Variant;

use crate::app::judge::diagnostic::Code;
use crate::app::judge::validate;
use crate::app::openings::Classifier;

mod analyse;
mod csv;
mod duplicates;
mod json;
mod tally;
mod text;

pub use analyse::{GameFacts, analyse, analyse_record, analyse_ref};
pub use duplicates::{Duplicate, Reason};
pub use tally::{EventTally, NamedOpening, OpeningKey, PlayerKey, PlayerTally, Scale, Tally};

use duplicates::Dups;

/// Opening depths, in plies.
pub(crate) const OPENING_PLIES: [u32; 3] = [2, 4, 6];
/// Width of the game-length histogram buckets of the JSON output, in plies.
pub(crate) const LENGTH_BUCKET: u32 = 10;
/// Openings per variant and depth in the shortened text output.
pub(crate) const TOP_OPENINGS: usize = 5;
/// Players in the shortened text output.
pub(crate) const TOP_PLAYERS: usize = 10;
/// The key under which games without any result are counted.
pub(crate) const NO_RESULT: &str = "(none)";
/// The key under which games without an `Event` tag are counted.
pub(crate) const NO_EVENT: &str = "(none)";
/// Games shorter than this many plies are not reported as duplicates (`--min-plies`).
pub const MIN_PLIES: u32 = 10;

/// How to analyse games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// How to validate (variant, file hint).
    pub validate: validate::Options,
    /// Compute the keys for duplicate detection.
    pub duplicates: bool,
    /// Also the key of the first N plies (`--fuzzy N`).
    pub fuzzy: Option<u32>,
    /// Games shorter than this are left out of duplicate detection (`--min-plies N`).
    pub min_plies: u32,
    /// Classify each game by these opening tables (the openings by name and ballot).
    pub openings: Option<Classifier>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            validate: validate::Options::default(),
            duplicates: false,
            fuzzy: None,
            min_plies: MIN_PLIES,
            openings: None,
        }
    }
}

/// Where a game is: the index of its input, its 1-based number in that input and the
/// 1-based line of its first byte. Ordered as the input is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    /// Index of the input (file).
    pub file: u32,
    /// 1-based game number in the file.
    pub game: u32,
    /// 1-based line of the game's first byte in the file.
    pub line: u32,
}

/// A move of interest and where it was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAt {
    /// The game.
    pub at: Location,
    /// 1-based line of the move in the file.
    pub line: u32,
    /// Ply along the main line.
    pub ply: u32,
    /// The move in PDN (a capture with its full route).
    pub text: String,
    /// Pieces captured by it.
    pub pieces: u32,
}

/// The table `--by` chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// Players.
    Player,
    /// Openings by the opening tables: name and ballot.
    Opening,
    /// First moves: the first 2, 4 and 6 plies.
    Moves,
    /// Events.
    Event,
}

/// Names of the inputs, to write locations.
pub type Names<'a> = &'a [String];

fn file_name(names: Names<'_>, at: Location) -> &str {
    names.get(at.file as usize).map_or("?", String::as_str)
}

/// `file:line` of a game's first line (`file:N` is always a line number).
fn file_line(names: Names<'_>, at: Location) -> String {
    format!("{}:{}", file_name(names, at), at.line)
}

/// Statistics over games: add [`GameFacts`]s in any order, merge partial results with `+=`.
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
    /// Games per variant and result (the variant's standard form).
    variant_results: HashMap<(Option<Variant>, String), u64>,
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
    named: HashMap<NamedOpening, Tally>,
    players: HashMap<PlayerKey, PlayerTally>,
    events: HashMap<String, EventTally>,
    codes: [u64; Code::ALL.len()],
    dups: Option<Dups>,
}
