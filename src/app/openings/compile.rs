//! A table's entries replayed into positions, and its self-test: every line legal from its
//! start (replayed exactly as `validate` replays a game: the same reader, the same replay,
//! its error findings), every position distinct, no name or ballot number twice.

use std::collections::HashMap;
use std::fmt;

use crate::rules::notation::{self, SquareStyle};
use crate::rules::{Bits, Position, Spec, Variant, with_variant};
use crate::syntax::{Game, read_games};

use super::table::{Table, What};
use crate::app::judge::diagnostic::Severity;
use crate::app::judge::replay::{Observer, Played, PlyEvent};
use crate::app::judge::validate::{Options, validate_with};

/// What the self-test found wrong with a table line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Where the table was read from.
    pub origin: String,
    /// 1-based line of the entry (0: the whole table).
    pub line: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "{}:{}: {}", self.origin, self.line, self.message)
        } else {
            write!(f, "{}: {}", self.origin, self.message)
        }
    }
}

impl Table {
    /// The self-test of a table: every line replayed (in `variant` if the table names none)
    /// as `validate` replays a game, and what is wrong: a line that is not legal from its
    /// start, two lines with one position, a name or a ballot number twice.
    pub fn check(&self, variant: Option<Variant>) -> Vec<Problem> {
        compile(self, variant).1
    }
}

/// A position's identity: the pieces of each side, the kings, the side to move (move
/// counters left out, as for repetitions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Key {
    white: u128,
    black: u128,
    kings: u128,
    side: u8,
}

impl Key {
    pub(crate) fn of<B: Bits>(pos: &Position<B>) -> Key {
        let (w, b, k, side) = pos.placement_key();
        Key {
            white: w.to_u128(),
            black: b.to_u128(),
            kings: k.to_u128(),
            side: side.index() as u8,
        }
    }

    /// Men and kings on the board.
    pub(crate) fn pieces(&self) -> u32 {
        (self.white | self.black).count_ones()
    }

    pub(crate) fn has_kings(&self) -> bool {
        self.kings != 0
    }
}

/// The hasher of [`Key`]s: their bits are already spread over the board, so a multiply and
/// rotate per word (as rustc's FxHasher) is enough, and far cheaper than SipHash for the
/// lookup at every ply.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KeyHasher(u64);

impl KeyHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.mix(u64::from(n));
    }

    #[inline]
    fn write_u128(&mut self, n: u128) {
        self.mix(n as u64);
        self.mix((n >> 64) as u64);
    }
}

/// A hash map keyed by positions.
pub(crate) type KeyMap<V> = HashMap<Key, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// One entry replayed in one variant.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    /// Index of the entry in its table.
    pub entry: usize,
    pub variant: Variant,
    /// The entry's position.
    pub key: Key,
    /// The position its moves start from.
    pub start: Key,
    /// Its moves in canonical PDN, space-separated (empty for a position).
    pub moves: String,
}

/// Replay every entry of `table` in each of its variants (`default`, the variant given on
/// the command line, for a TSV table that names none; a PDN table's games say theirs, or
/// `default`, or are inferred as `validate` infers them), and check the table.
pub(crate) fn compile(table: &Table, default: Option<Variant>) -> (Vec<Compiled>, Vec<Problem>) {
    compile_in(table, default, None)
}

/// [`compile`], only in variant `only` if given (a TSV table: its entries in the other
/// variants are not replayed), without the comparisons of the self-test (a shipped table's,
/// a test of the project).
pub(crate) fn compile_in(
    table: &Table,
    default: Option<Variant>,
    only: Option<Variant>,
) -> (Vec<Compiled>, Vec<Problem>) {
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let problem = |line: u32, message: String| Problem {
        origin: table.origin.clone(),
        line,
        message,
    };
    let variants: Vec<Variant> = if table.pdn || !table.variants.is_empty() {
        table
            .variants
            .iter()
            .copied()
            .filter(|v| only.is_none_or(|o| o == *v))
            .collect()
    } else if let Some(v) = default {
        vec![v]
    } else {
        problems.push(problem(
            0,
            "the table does not say its variant: add a line `# variant: NAME` (or give --variant)"
                .into(),
        ));
        return (out, problems);
    };
    // The lines of moves (and the games) are read from one document, each game tagged with
    // its place in `batch`; one that does not come back as one game is read alone.
    let mut batch: Vec<(usize, Option<Variant>, String)> = Vec::new();
    for (i, e) in table.entries.iter().enumerate() {
        match &e.what {
            What::Position(fen) => {
                for &v in &variants {
                    match with_variant!(v, V => position::<V>(i, fen)) {
                        Ok(c) => out.push(c),
                        Err(m) => problems.push(problem(e.line, m)),
                    }
                }
            }
            What::Moves(moves) => {
                for &v in &variants {
                    let text = format!("[GameType \"{}\"]\n{moves} *\n", v.game_type());
                    batch.push((i, Some(v), text));
                }
            }
            What::Game(text) => batch.push((i, None, text.clone())),
        }
    }
    let mut doc = String::new();
    for (k, (_, _, text)) in batch.iter().enumerate() {
        doc.push_str(&format!("[{BATCH_TAG} \"{k}\"]\n{text}\n\n"));
    }
    let mut read: Vec<Vec<Game>> = (0..batch.len()).map(|_| Vec::new()).collect();
    let mut last = None;
    for g in read_games(doc.as_bytes()) {
        let k = g.tag(BATCH_TAG).and_then(|k| k.parse::<usize>().ok());
        if let Some(k) = k.or(last).filter(|&k| k < read.len()) {
            last = Some(k);
            read[k].push(g);
        }
    }
    for ((i, forced, text), games) in batch.iter().zip(read) {
        // A game of a PDN table without GameType: the table's variant, else `--variant`,
        // else inferred.
        let forced_for = |g: &Game| match forced {
            Some(v) => Some(*v),
            None if g.tag("GameType").is_some() => None,
            None => variants.first().copied().or(default),
        };
        let r = match <[Game; 1]>::try_from(games) {
            Ok([game]) => replay_game(*i, &game, forced_for(&game)),
            Err(_) => match <[Game; 1]>::try_from(read_games(text.as_bytes())) {
                Ok([game]) => replay_game(*i, &game, forced_for(&game)),
                Err(g) => Err(format!("{} games where one was expected", g.len())),
            },
        };
        match r {
            Ok(c) => out.push(c),
            Err(m) => problems.push(problem(table.entries[*i].line, m)),
        }
    }
    if only.is_none() {
        check(table, &out, &mut problems);
    }
    problems.sort_by_key(|p| p.line);
    (out, problems)
}

/// The self-test's comparisons: positions (per variant), names and ballot numbers.
fn check(table: &Table, compiled: &[Compiled], problems: &mut Vec<Problem>) {
    let mut push = |line: u32, message: String| {
        problems.push(Problem {
            origin: table.origin.clone(),
            line,
            message,
        });
    };
    let mut seen: HashMap<(Variant, Key), usize> = HashMap::new();
    for c in compiled {
        if let Some(&first) = seen.get(&(c.variant, c.key)) {
            let e = &table.entries[first];
            push(
                table.entries[c.entry].line,
                format!(
                    "the same position as line {}{} ({})",
                    e.line,
                    e.name
                        .as_deref()
                        .map(|n| format!(", {n}"))
                        .unwrap_or_default(),
                    c.variant.name()
                ),
            );
        } else {
            seen.insert((c.variant, c.key), c.entry);
        }
    }
    let mut names: HashMap<&str, u32> = HashMap::new();
    let mut ballots: HashMap<u32, u32> = HashMap::new();
    for e in &table.entries {
        if let Some(n) = &e.name
            && let Some(first) = names.insert(n, e.line)
        {
            push(e.line, format!("the name `{n}` again (line {first})"));
            names.insert(n, first);
        }
        if let Some(b) = e.ballot
            && let Some(first) = ballots.insert(b, e.line)
        {
            push(e.line, format!("ballot {b} again (line {first})"));
            ballots.insert(b, first);
        }
    }
}

/// A position entry: its FEN read as `validate` reads a `FEN` tag; the side to move must be
/// given.
fn position<V: Spec>(entry: usize, fen: &str) -> Result<Compiled, String> {
    let setup = crate::rules::fen::parse(fen).map_err(|e| format!("FEN `{fen}`: {e}"))?;
    let side = setup
        .side
        .ok_or_else(|| format!("FEN `{fen}`: no side to move"))?;
    let pos = setup
        .position(V::numbering(), V::geometry(), side)
        .map_err(|e| format!("FEN `{fen}`: {e}"))?;
    let key = Key::of(&pos);
    Ok(Compiled {
        entry,
        variant: V::RULES.variant,
        key,
        start: key,
        moves: String::new(),
    })
}

/// The tag that says which line of a table a game of the batch document is.
const BATCH_TAG: &str = "PdnOpeningsEntry";

/// An entry of moves (or a PDN game): replayed as `validate` replays a game, in `forced`
/// if given; every move must be legal, no setup inside.
fn replay_game(entry: usize, game: &Game, forced: Option<Variant>) -> Result<Compiled, String> {
    let mut t = Tracer::default();
    let opts = Options {
        variant: forced,
        diagrams: false,
        hint: None,
        main_line: false,
    };
    let report = validate_with(game, &opts, &mut t);
    if let Some(d) = report
        .diagnostics
        .iter()
        .find(|d| d.severity() == Severity::Error)
    {
        let at = d.ply.map(|p| format!("ply {p}: ")).unwrap_or_default();
        return Err(format!("{at}{}: {}", d.code.as_str(), d.message));
    }
    let (Some(variant), Some(start), Some(key)) = (report.variant, t.start, t.key) else {
        return Err("nothing to replay".into());
    };
    if t.setups > 0 {
        return Err("a setup (/FEN/) inside the moves: give the position as a FEN".into());
    }
    if t.irregular {
        return Err("an irregular move".into());
    }
    if t.plies == 0 && start == with_variant!(variant, V => Key::of(&V::start())) {
        return Err("no moves and no FEN: the start position itself".into());
    }
    Ok(Compiled {
        entry,
        variant,
        key,
        start,
        moves: t.moves,
    })
}

/// What the replay of a table line shows: its start, its last position, its moves.
#[derive(Default)]
struct Tracer {
    start: Option<Key>,
    key: Option<Key>,
    plies: u32,
    setups: u32,
    irregular: bool,
    moves: String,
}

impl Observer for Tracer {
    fn position<V: Spec>(&mut self, pos: &Position<V::B>, main: bool) {
        if !main {
            return;
        }
        if self.start.is_none() {
            self.start = Some(Key::of(pos));
            self.key = self.start;
        } else {
            self.setups += 1;
        }
    }

    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if !e.main {
            return;
        }
        if e.played != Played::Legal {
            self.irregular = true;
        }
        self.key = Some(Key::of(e.after));
        self.plies += 1;
        if !self.moves.is_empty() {
            self.moves.push(' ');
        }
        self.moves.push_str(&notation::write(
            V::geometry(),
            V::numbering(),
            e.mv,
            e.route,
            e.ambiguous,
            SquareStyle::Native,
            V::RULES.capture_separator,
        ));
    }
}
