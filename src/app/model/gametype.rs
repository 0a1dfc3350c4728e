//! Which variant a game is: the `GameType` tag (short and extended forms, and the known
//! non-standard codes, docs/pdn.md#gametype), a `Variant` tag, or what the record itself shows
//! (square numbers, algebraic squares, FEN, tag language). Candidates that remain are
//! told apart by replaying the game (see `validate`).

use crate::rules::{Color, Layout, NotationKind, ResultType, Shape, Variant, with_variant};
use crate::syntax::{Game, Square};

use crate::app::model::record::{HEAD, LineRef, Node, Record, SquareSummary};

/// A parsed `GameType` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameType {
    /// The type number.
    pub number: u32,
    /// The extended fields, if given.
    pub layout: Option<Layout>,
}

/// What does not fit the PDN 3.0 form of a `GameType` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum GameTypeError {
    /// The value does not start with a type number (the value).
    NoNumber(String),
    /// Neither one field nor five or six (the value).
    FieldCount(String),
    /// The start colour is not `W` or `B` (the field).
    Colour(String),
    /// The board width is not a number (the field).
    Width(String),
    /// The board height is not a number (the field).
    Height(String),
    /// The notation is not `A`, `N` or `S` followed by 0-3 (the field).
    Notation(String),
    /// Notation `S` (chess SAN).
    Chess,
    /// The invert flag is not 0 or 1 (the field).
    Invert(String),
}

impl std::fmt::Display for GameTypeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoNumber(v) => write!(f, "GameType `{v}` does not start with a type number"),
            Self::FieldCount(v) => write!(
                f,
                "GameType `{v}` is neither `type` nor `type,colour,width,height,notation[,invert]`"
            ),
            Self::Colour(c) => write!(f, "GameType start colour `{c}` is not W or B"),
            Self::Width(w) => write!(f, "GameType board width `{w}` is not a number"),
            Self::Height(h) => write!(f, "GameType board height `{h}` is not a number"),
            Self::Notation(n) => {
                write!(
                    f,
                    "GameType notation `{n}` is not A, N or S followed by 0-3"
                )
            }
            Self::Chess => {
                f.write_str("GameType notation S (chess SAN) is not a draughts notation")
            }
            Self::Invert(i) => write!(f, "GameType invert flag `{i}` is not 0 or 1"),
        }
    }
}

impl std::error::Error for GameTypeError {}

/// Parse a `GameType` value, `Type[,W|B,width,height,Notation[,invert]]`.
///
/// # Errors
///
/// What does not fit the PDN 3.0 form.
pub(crate) fn parse_game_type(value: &str) -> Result<GameType, GameTypeError> {
    let parts: Vec<&str> = value.trim().split(',').map(str::trim).collect();
    let number: u32 = parts[0]
        .parse()
        .map_err(|_| GameTypeError::NoNumber(value.to_owned()))?;
    if parts.len() == 1 {
        return Ok(GameType {
            number,
            layout: None,
        });
    }
    if parts.len() < 5 || parts.len() > 6 {
        return Err(GameTypeError::FieldCount(value.to_owned()));
    }
    let first = match parts[1] {
        "W" => Color::White,
        "B" => Color::Black,
        other => return Err(GameTypeError::Colour(other.to_owned())),
    };
    let width: u8 = parts[2]
        .parse()
        .map_err(|_| GameTypeError::Width(parts[2].to_owned()))?;
    let height: u8 = parts[3]
        .parse()
        .map_err(|_| GameTypeError::Height(parts[3].to_owned()))?;
    let nb = parts[4].as_bytes();
    if nb.len() != 2 || !matches!(nb[1], b'0'..=b'3') {
        return Err(GameTypeError::Notation(parts[4].to_owned()));
    }
    let notation = match nb[0] {
        b'N' => NotationKind::Numeric,
        b'A' => NotationKind::Algebraic,
        b'S' => return Err(GameTypeError::Chess),
        _ => return Err(GameTypeError::Notation(parts[4].to_owned())),
    };
    let invert = match parts.get(5) {
        None | Some(&"0") => false,
        Some(&"1") => true,
        Some(other) => return Err(GameTypeError::Invert((*other).to_owned())),
    };
    Ok(GameType {
        number,
        layout: Some(Layout {
            first,
            width,
            height,
            notation,
            corner: nb[1] - b'0',
            invert,
            full: false,
        }),
    })
}

/// How the variant of a game was decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// `--variant`.
    Override,
    /// The `GameType` tag.
    GameType,
    /// A `Variant` tag (lidraughts, playstrategy).
    VariantTag,
    /// Inferred from the record; the candidates in order of preference, and why.
    Inferred {
        /// Variants that fit what the record shows, best first.
        candidates: Vec<Variant>,
        /// What the record shows.
        reason: String,
        /// False when nothing shows the variant (no square, no FEN, no tag language, no
        /// earlier game of the file): the candidates are a default, and a writer must not
        /// state the variant (`GameType`) nor read the result in its conventions.
        evidence: bool,
    },
}

/// The decision about a game's variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The candidates (one unless inferred).
    pub candidates: Vec<Variant>,
    /// How they were found.
    pub source: Source,
    /// Warnings about the tags (`bad-tag`): (message, tag name).
    pub warnings: Vec<String>,
}

/// What the squares of a record show.
#[derive(Clone, Copy, Debug, Default)]
struct Evidence {
    max_number: u32,
    algebraic: bool,
    max_file: u8,
    max_rank: u8,
    squares: u32,
    /// A FEN tag that could be read.
    fen: bool,
    /// Italian tag names.
    italian: bool,
}

/// What [`collect`] would find with a budget of `left` items from `line`, when the record
/// kept it as it was filled: the squares and the items looked at.
fn kept_squares(record: &Record, line: LineRef, left: usize) -> Option<(SquareSummary, usize)> {
    if line != record.body() {
        return None;
    }
    let all = record.nodes().len();
    if all <= left && record.variations() < 64 {
        // Every move is looked at (the budget and the stack cannot run out).
        Some((record.squares(), all))
    } else if left == HEAD && all > left {
        // The first items of the main line, if none of them is a variation: the nodes at the
        // start of the record.
        record.head_squares().map(|s| (s, left))
    } else {
        None
    }
}

fn collect(record: &Record, line: LineRef, ev: &mut Evidence, budget: &mut u32) {
    // Iterative over nested variations, bounded; the running figures in locals (this runs
    // for every game without a GameType, so the main line needs no allocation).
    let (mut max_number, mut squares) = (ev.max_number, ev.squares);
    let mut left = *budget as usize;
    if let Some((s, looked_at)) = kept_squares(record, line, left) {
        ev.algebraic |= s.algebraic;
        ev.max_file = ev.max_file.max(s.max_file);
        ev.max_rank = ev.max_rank.max(s.max_rank);
        *budget = (left - looked_at) as u32;
        ev.max_number = max_number.max(s.max_number).min(10_000);
        ev.squares = squares + s.squares;
        return;
    }
    let mut stack: Vec<LineRef> = Vec::new();
    let mut next = Some(line);
    while let Some(l) = next.take().or_else(|| stack.pop()) {
        let mut seen = 0;
        for (at, node) in record.items(l) {
            if seen == left {
                break;
            }
            seen += 1;
            match node {
                Node::Move(m) => {
                    let sq = record.move_ref(m).squares;
                    squares += sq.len() as u32;
                    for s in sq {
                        if let Square::Num(n) = *s {
                            max_number = max_number.max(n);
                        } else if let Square::Alg { file, rank } = *s {
                            ev.algebraic = true;
                            ev.max_file = ev.max_file.max(file);
                            ev.max_rank = ev.max_rank.max(rank);
                        }
                    }
                }
                Node::Variation { .. } if stack.len() < 64 => stack.push(record.inside(at)),
                _ => {}
            }
        }
        left -= seen;
        if left == 0 {
            break;
        }
    }
    *budget = left as u32;
    // Clamped once here rather than per square: the maximum of the clamped values.
    ev.max_number = max_number.min(10_000);
    ev.squares = squares;
}

fn fen_evidence(fen: &str, ev: &mut Evidence) {
    if let Ok(setup) = crate::rules::fen::parse(fen) {
        ev.fen = true;
        for (name, _) in setup.pieces {
            match name {
                crate::rules::fen::SquareName::Number(n) => {
                    ev.max_number = ev.max_number.max(n);
                }
                crate::rules::fen::SquareName::Algebraic { file, rank } => {
                    ev.algebraic = true;
                    ev.max_file = ev.max_file.max(file);
                    ev.max_rank = ev.max_rank.max(rank);
                }
            }
            ev.squares += 1;
        }
    }
}

/// What one game of a file says at once about its variant: its own `GameType` (or
/// `Variant` tag). The squares of a game without one decide nothing by themselves: the
/// variant it is decided as by its replay does ([`FileHint`]).
pub(crate) fn evidence(game: &Record) -> Option<Variant> {
    if let Some(gt) = game.tag("GameType")
        && let Ok(t) = parse_game_type(gt)
    {
        let mut ev = Evidence::default();
        // Only the codes that clash between PDN and PlayStrategy need the squares.
        if matches!(t.number, 27 | 31) {
            let mut budget = HEAD as u32;
            collect(game, game.body(), &mut ev, &mut budget);
        }
        if let Some(v) = from_number(t.number, &ev, t.layout) {
            return Some(v);
        }
    }
    game.tag("Variant").and_then(|name| name.parse().ok())
}

/// Games of a file, without a tag that names their variant, that are replayed to prove the
/// file's variant before the search stops (each costs a replay where the hints are folded,
/// in file order; a file whose first games prove nothing is left to what they showed).
const DECIDING_GAMES: u32 = 8;

/// A game longer than this (its text) is not kept to decide its file's variant: keeping it
/// would hold a copy of a huge game, and real games are far shorter.
const DECIDING_MAX_BYTES: usize = 1 << 20;

/// What the earlier games of a file showed of its variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileVariant {
    /// The variant.
    pub variant: Variant,
    /// Proven: a game named it (`GameType`, `Variant` tag), or it was the only variant in
    /// which a game replays legally. Otherwise the variant the games were taken to be when
    /// nothing told the candidates apart (a FEN-only problem, a game legal in several).
    pub proven: bool,
}

/// The variant of a file, followed along its games: a fresh value at the start of each
/// file, fed every game in file order whatever the number of threads (the pipeline folds
/// the games here in order). A game names the variant with its own `GameType` (or `Variant`
/// tag: `evidence`); a game without one shows it by what it is decided as on replay (see
/// `validate::decides`). That game is replayed again for this only when a later game of its
/// file comes (a file of one game costs nothing), and only while the file's variant is not
/// proven, for at most `DECIDING_GAMES` games (each at most `DECIDING_MAX_BYTES` long).
#[derive(Clone, Debug, Default)]
pub struct FileHint {
    known: Option<FileVariant>,
    /// The last game of the file while its variant is not proven: its record, text and
    /// hint, to be replayed if a later game of the file comes.
    pending: Option<(Record, String, Option<FileVariant>)>,
    /// The buffers of the pending game (reused).
    spare: Option<(Record, String)>,
    /// Games of the file kept as pending so far.
    tried: u32,
    /// The record of the owned game observed last (its buffers reused).
    scratch: Record,
}

impl FileHint {
    /// The hint for the next game of the file (what the earlier games showed), and learn
    /// from the game: its record `game`, its text `text` and what it names itself (`shows`,
    /// its `evidence`, computed where it was read).
    pub fn next(
        &mut self,
        game: &Record,
        text: &str,
        shows: Option<Variant>,
    ) -> Option<FileVariant> {
        // A later game of the file is here: what the pending one shows now matters.
        if let Some((record, source, hint)) = self.pending.take() {
            if let Some(d) = crate::app::judge::validate::decides(&record, &source, hint)
                && (d.proven || self.known.is_none())
            {
                self.known = Some(d);
            }
            self.spare = Some((record, source));
        }
        let hint = self.known;
        if let Some(variant) = shows {
            self.known = Some(FileVariant {
                variant,
                proven: true,
            });
        } else if !self.known.is_some_and(|k| k.proven)
            && self.tried < DECIDING_GAMES
            && text.len() <= DECIDING_MAX_BYTES
        {
            self.tried += 1;
            let (mut record, mut source) = self.spare.take().unwrap_or_default();
            record.copy_from(game);
            source.clear();
            source.push_str(text);
            self.pending = Some((record, source, hint));
        }
        hint
    }

    /// [`FileHint::next`] for an owned game.
    pub fn observe(&mut self, game: &Game) -> Option<FileVariant> {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.fill(game);
        let shows = evidence(&scratch);
        let hint = self.next(&scratch, &game.source, shows);
        self.scratch = scratch;
        hint
    }
}

/// True if a variant's board can hold what the record shows.
fn fits(v: Variant, ev: &Evidence) -> bool {
    let r = v.rules();
    let squares = r.shape.squares() as u32;
    if ev.algebraic {
        r.layout.notation == NotationKind::Algebraic
            || (ev.max_file < r.shape.width() && ev.max_rank < r.shape.height())
    } else {
        ev.max_number <= squares
    }
}

/// Decide the variant of a game; `hint` is what earlier games of the same file showed.
///
/// The file decides: a game without a tag naming its variant is of the file's variant
/// unless it shows what that board cannot hold (squares beyond it, a FEN of another board)
/// — a FEN that the board holds but the rules do not (a man on its own crowning row) is a
/// `bad-fen` there, not a reason to change the variant. Only while the file's variant is not
/// proven may a game with moves that fails in it be another variant that replays it.
pub fn choose(game: &Record, over: Option<Variant>, hint: Option<FileVariant>) -> Choice {
    let mut warnings = Vec::new();
    if let Some(v) = over {
        return Choice {
            candidates: vec![v],
            source: Source::Override,
            warnings,
        };
    }
    let mut ev = Evidence::default();
    // The tag looked up and read once.
    let game_type = game.tag("GameType").map(|gt| (gt, parse_game_type(gt)));
    let gt_number = game_type
        .as_ref()
        .and_then(|(_, t)| t.as_ref().ok())
        .map(|t| t.number);
    // The squares are needed to infer, and to tell PDN's 27/31 from PlayStrategy's.
    if gt_number.is_none_or(|n| matches!(n, 27 | 31) || Variant::from_game_type(n).is_none()) {
        let mut budget = 100_000;
        collect(game, game.body(), &mut ev, &mut budget);
        if let Some(f) = game.tag("FEN") {
            fen_evidence(f, &mut ev);
        }
    }
    if let Some((gt, parsed)) = game_type {
        match parsed {
            Ok(t) => {
                if let Some(v) = from_number(t.number, &ev, t.layout) {
                    if let Some(l) = t.layout {
                        let std = v.rules().layout;
                        // The other square names of an 8x8 board, as `convert --notation`
                        // writes them (`21,B,8,8,A0,0`, `25,W,8,8,N2,0`): the same board.
                        let renamed = l.notation != std.notation
                            && (std.width, std.height) == (8, 8)
                            && l.corner
                                == if l.notation == NotationKind::Algebraic {
                                    0
                                } else {
                                    2
                                };
                        if (l.width, l.height) != (std.width, std.height)
                            || l.first != std.first
                            || (!renamed && (l.notation != std.notation || l.corner != std.corner))
                            || l.invert != std.invert
                        {
                            warnings.push(format!(
                                "GameType `{gt}` differs from the standard form of type {} \
                                 (`{}`); the standard board and numbering are used",
                                t.number,
                                standard_form(v)
                            ));
                        }
                    }
                    return Choice {
                        candidates: vec![v],
                        source: Source::GameType,
                        warnings,
                    };
                }
                warnings.push(format!(
                    "GameType `{gt}` names no supported draughts variant; the variant is inferred"
                ));
            }
            Err(e) => warnings.push(e.to_string()),
        }
    }
    if let Some(name) = game.tag("Variant")
        && let Ok(v) = name.parse::<Variant>()
    {
        return Choice {
            candidates: vec![v],
            source: Source::VariantTag,
            warnings,
        };
    }
    let (mut candidates, mut reason) = infer(game, &mut ev);
    let mut evidence = ev.squares > 0 || ev.fen || ev.italian;
    if let Some(FileVariant { variant: h, proven }) = hint
        && fits(h, &ev)
    {
        // The file's variant: the game shows nothing that only another board can hold.
        let fen_fails = || {
            ev.fen
                && with_variant!(h, V => crate::app::judge::validate::start_position::<V>(game).is_err())
        };
        if proven || ev.squares == 0 || fen_fails() {
            candidates = vec![h];
        } else {
            candidates.retain(|v| *v != h);
            candidates.insert(0, h);
        }
        evidence = true;
        // (Built by hand: this runs for nearly every game of a file without GameType.)
        reason.push_str("; the earlier games of the file are ");
        reason.push_str(h.name());
    }
    Choice {
        candidates: candidates.clone(),
        source: Source::Inferred {
            candidates,
            reason,
            evidence,
        },
        warnings,
    }
}

/// The variants a game without a usable GameType may be, best first, and why: from the
/// squares it shows and its tag language.
fn infer(game: &Record, ev: &mut Evidence) -> (Vec<Variant>, String) {
    // Italian tag names tell only the boards of up to 32 squares apart (and give evidence
    // to a game without squares): not looked up for the other games, whose squares are
    // evidence enough.
    let italian_tags = !ev.algebraic
        && ev.max_number <= 32
        && ["Bianco", "Nero", "Risultato", "Dati", "Apertura"]
            .iter()
            .any(|t| game.tag(t).is_some());
    ev.italian = italian_tags;
    if ev.algebraic {
        let c = if ev.max_file >= 8 || ev.max_rank >= 8 {
            vec![Variant::Turkish]
        } else {
            vec![
                Variant::Russian,
                Variant::Brazilian,
                Variant::Czech,
                Variant::Pool,
                Variant::English,
            ]
        };
        (c, "algebraic squares".to_string())
    } else if ev.max_number > 72 {
        (
            Vec::new(),
            format!("square {} is beyond every board", ev.max_number),
        )
    } else if ev.max_number > 50 {
        (vec![Variant::Canadian], squares_up_to(ev.max_number))
    } else if ev.max_number > 32 {
        (
            vec![Variant::International, Variant::Frisian],
            squares_up_to(ev.max_number),
        )
    } else if italian_tags {
        (
            vec![Variant::Italian, Variant::English],
            "Italian tag names and squares up to 32".to_string(),
        )
    } else if ev.squares == 0 {
        (
            vec![Variant::International, Variant::English],
            "no squares at all".to_string(),
        )
    } else {
        (
            vec![
                Variant::English,
                Variant::Italian,
                Variant::Russian,
                Variant::Pool,
                Variant::Brazilian,
                Variant::Czech,
                Variant::Spanish,
                Variant::Thai,
                Variant::International,
                Variant::Frisian,
            ],
            squares_up_to(ev.max_number),
        )
    }
}

/// `squares up to N`: the commonest reason of an inference, built without the formatter.
fn squares_up_to(n: u32) -> String {
    let mut s = String::with_capacity(64);
    s.push_str("squares up to ");
    crate::app::write::jsonl::push_uint(&mut s, u64::from(n));
    s
}

/// The variant of a type number, cross-checked with the board the record shows (PDN types
/// first; PlayStrategy's 27 = pool, 31 = Portuguese, 32 = English where the squares fit).
fn from_number(n: u32, ev: &Evidence, layout: Option<Layout>) -> Option<Variant> {
    let small = ev.max_number <= 32 || ev.algebraic;
    let alg = ev.algebraic || layout.is_some_and(|l| l.notation == NotationKind::Algebraic);
    match n {
        27 if small && ev.squares > 0 => Some(Variant::Pool),
        31 if alg => Some(Variant::Portuguese),
        32 => Some(Variant::English),
        _ => Variant::from_game_type(n),
    }
}

/// The standard `GameType` string of a variant, e.g. `20,W,10,10,N2,0`.
pub(crate) fn standard_form(v: Variant) -> String {
    let r = v.rules();
    let l = r.layout;
    let (w, h) = match r.shape {
        Shape::Diagonal { width, height } | Shape::Full { width, height } => (width, height),
    };
    format!(
        "{},{},{w},{h},{}{},{}",
        r.game_type,
        l.first.letter(),
        match l.notation {
            NotationKind::Numeric => 'N',
            NotationKind::Algebraic => 'A',
        },
        l.corner,
        u8::from(l.invert)
    )
}

/// True if the result type of a variant is the international one (2-0/1-1/0-2).
pub(crate) fn international_results(v: Variant) -> bool {
    v.rules().result_type == ResultType::International
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_type_forms() {
        assert_eq!(parse_game_type("20").unwrap().number, 20);
        let t = parse_game_type("21,B,8,8,N1,0").unwrap();
        assert_eq!(t.layout.unwrap().first, Color::Black);
        assert_eq!(t.layout.unwrap().corner, 1);
        assert!(parse_game_type("20,X,10,10,N2").is_err());
        assert!(parse_game_type("x").is_err());
        assert!(parse_game_type("20,W,10").is_err());
        assert_eq!(standard_form(Variant::International), "20,W,10,10,N2,0");
        assert_eq!(standard_form(Variant::English), "21,B,8,8,N1,0");
        assert_eq!(standard_form(Variant::Italian), "22,W,8,8,N2,1");
    }
}
