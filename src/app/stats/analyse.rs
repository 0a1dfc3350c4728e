//! One game's contribution: [`analyse`] validates a game while an observer of the replay
//! collects captures, promotions, the opening and the duplicate keys into a [`GameFacts`]
//! ([`analyse_ref`] for a game read into a record).

use crate::rules::notation::{self, SquareStyle};
use crate::rules::{Bits, Position, Spec, Variant};
use crate::syntax::{Game, canonical_move_ref_text};

use super::{Location, MoveAt, OPENING_PLIES, Options};
use crate::app::judge::diagnostic::{Code, GameText};
use crate::app::judge::replay::{Observer, PlyEvent};
use crate::app::judge::validate::{self, Verdict};
use crate::app::model::key::Key;
use crate::app::model::outcome::{self, Outcome};
use crate::app::model::reading::GameRef;
use crate::app::model::record::{Node, Record};
use crate::app::openings::{Both, Classification};

/// What one game contributes to the statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFacts {
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
    /// What the opening tables say of the game (when [`Options::openings`] gives them).
    pub classification: Option<Classification>,
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
    /// Keys of the game's strict prefixes of at least `--min-plies` plies, if asked: a game
    /// whose whole key is one of them is contained in this one.
    pub prefixes: Vec<u128>,
}

impl GameFacts {
    /// The first `OPENING_PLIES[k]` plies, if the game has them and starts from the
    /// standard position.
    pub fn opening(&self, k: usize) -> Option<&str> {
        let end = *self.opening_ends.get(k)?;
        (end > 0).then(|| &self.opening[..end])
    }
}

/// Validate a game and collect what it contributes to the statistics.
pub fn analyse(game: &Game, file: usize, opts: &Options) -> (GameFacts, Verdict) {
    analyse_record(&Record::of_game(game), &GameText::of(game), file, opts)
}

/// [`analyse`] for the record of a game whose text is `text`.
pub fn analyse_record(
    game: &Record,
    text: &GameText<'_>,
    file: usize,
    opts: &Options,
) -> (GameFacts, Verdict) {
    let mut c = Collector::new(game, opts);
    let (report, classification) = match &opts.openings {
        Some(classifier) => {
            let mut m = classifier.matcher();
            let report = validate::validate_record(
                game,
                text.source,
                &opts.validate,
                &mut Both(&mut c, &mut m),
            );
            let variant = report.variant;
            (report, Some(m.finish(variant)))
        }
        None => (
            validate::validate_record(game, text.source, &opts.validate, &mut c),
            None,
        ),
    };
    let at = Location {
        file: clamp(file),
        game: clamp(text.index),
        line: text.line,
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
    let (moves_key, prefix_key) = c.keys(game, text.source, errors > 0);
    // Games too short to tell copies from common openings are left out.
    let (moves_key, prefix_key) = if report.plies >= opts.min_plies.max(1) {
        (moves_key, prefix_key)
    } else {
        c.prefixes.clear();
        (None, None)
    };
    let place = |m: (MoveAt, u32)| MoveAt {
        at,
        line: text.line_col(m.1).0,
        ..m.0
    };
    let record = GameFacts {
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
        rafle: c.rafle.take().map(place),
        promotions: c.promotions,
        first_king: c.first_king.take().map(place),
        opening: std::mem::take(&mut c.opening),
        opening_ends: c.opening_ends,
        classification,
        codes,
        errors,
        warnings: report.warnings(),
        moves_key,
        prefix_key,
        prefixes: std::mem::take(&mut c.prefixes),
    };
    (record, report)
}

/// [`analyse`] for a game read into a record (with its file's hint).
pub fn analyse_ref(game: &GameRef<'_>, opts: &Options) -> (GameFacts, Verdict) {
    let opts = Options {
        validate: game.options(&opts.validate),
        ..opts.clone()
    };
    analyse_record(game.record, &game.game_text(), game.file, &opts)
}

fn clamp(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
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
    /// The largest capture and the offset of its move in the game's text.
    rafle: Option<(MoveAt, u32)>,
    promotions: u32,
    /// The first promotion and the offset of its move.
    first_king: Option<(MoveAt, u32)>,
    hash: Option<Key>,
    fuzzy: Option<u32>,
    min_plies: u32,
    hashed: u32,
    prefix: Option<u128>,
    /// Keys after each ply from `min_plies` on.
    prefixes: Vec<u128>,
    last_main_end: u32,
}

impl Collector {
    fn new(game: &Record, opts: &Options) -> Collector {
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
            hash: (opts.duplicates || opts.fuzzy.is_some()).then(|| Key::seeded(0xa5, 0x5a)),
            fuzzy: opts.fuzzy,
            min_plies: opts.min_plies.max(1),
            hashed: 0,
            prefix: None,
            prefixes: Vec::new(),
            last_main_end: 0,
        }
    }

    /// The keys of the whole game and of its first N plies, once the replay is over; keeps
    /// only the strict prefixes in `prefixes`. `errors`: the replay may have stopped, and the
    /// moves it could not play still tell games apart, as written.
    fn keys(&mut self, game: &Record, source: &str, errors: bool) -> (Option<u128>, Option<u128>) {
        let Some(h) = &mut self.hash else {
            return (None, None);
        };
        if errors {
            for (_, node) in game.items(game.body()) {
                if let Node::Move(m) = node
                    && m.span.start >= self.last_main_end
                {
                    h.write_field(canonical_move_ref_text(source, &game.move_ref(m)).as_bytes());
                }
            }
        }
        let whole = (self.hashed > 0).then(|| h.finish());
        if self.prefixes.last().is_some_and(|&k| Some(k) == whole) {
            self.prefixes.pop();
        }
        (whole, self.prefix)
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
            h.write_field(V::RULES.name.as_bytes());
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
            if self.rafle.as_ref().is_none_or(|r| n > r.0.pieces) {
                self.rafle = Some((
                    MoveAt {
                        at: Location::default(),
                        line: 0,
                        ply: e.ply,
                        text: write(true),
                        pieces: n,
                    },
                    e.item.span.start,
                ));
            }
        }
        if mv.promotes() {
            self.promotions += 1;
            // The first king of a game played from the start (not of a problem position).
            if self.from_start && self.first_king.is_none() {
                self.first_king = Some((
                    MoveAt {
                        at: Location::default(),
                        line: 0,
                        ply: e.ply,
                        text: write(e.ambiguous),
                        pieces: n,
                    },
                    e.item.span.start,
                ));
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
            if self.hashed >= self.min_plies {
                self.prefixes.push(h.finish());
            }
        }
    }
}
