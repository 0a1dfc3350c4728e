//! The rules of every variant as data: one [`Rules`] value per variant, each parameter with
//! the article of the rule book it comes from, and the [`Variant`] names and `GameType` codes.
//!
//! Sources (see docs/rules.md): FMJD Annex 1 (international, and by extension Brazilian
//! and Canadian), WCDF rules (English), FMJD-64 / Russian kodeks 2004 (Russian), APCA (pool),
//! FID Regolamento Tecnico (Italian), FPD "Damas Clássicas" (Spanish, Portuguese), FMJD brief
//! Czech rules, friesdammen.nl (Frisian), and the descriptive sources for Turkish and Thai.
//! Article numbers were cross-checked with Rein Halbersma's article-annotated rule traits
//! (dctl); where no primary text was available the citation names the secondary source.

use std::fmt;
use std::str::FromStr;

use super::color::Color;
use super::geometry::{DirSet, Layout, NotationKind, Shape};

/// A draughts variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// International draughts, 10x10 (FMJD; GameType 20).
    International,
    /// English draughts / American checkers, 8x8 (WCDF; GameType 21).
    English,
    /// Italian draughts, 8x8 (FID; GameType 22).
    Italian,
    /// American pool checkers, 8x8 (APCA; GameType 23).
    Pool,
    /// Spanish draughts, 8x8 (GameType 24).
    Spanish,
    /// Russian draughts (shashki), 8x8 (GameType 25).
    Russian,
    /// Brazilian draughts: international rules on 8x8 (GameType 26).
    Brazilian,
    /// Canadian draughts: international rules on 12x12 (GameType 27).
    Canadian,
    /// Portuguese draughts, 8x8 (GameType 28).
    Portuguese,
    /// Czech draughts, 8x8 (GameType 29).
    Czech,
    /// Turkish draughts (dama), all 64 squares (GameType 30).
    Turkish,
    /// Thai draughts (mak-hot), 8x8 (GameType 31).
    Thai,
    /// Frisian draughts, 10x10 (GameType 40).
    Frisian,
    /// Frysk!: Frisian rules with five men each (lidraughts GameType 97).
    Frysk,
    /// Antidraughts: international moves, the side without moves wins (lidraughts 98).
    Antidraughts,
    /// Breakthrough: international moves, the first king wins (lidraughts 96).
    Breakthrough,
}

impl Variant {
    /// Every variant, in `GameType` order.
    pub const ALL: [Variant; 16] = [
        Variant::International,
        Variant::English,
        Variant::Italian,
        Variant::Pool,
        Variant::Spanish,
        Variant::Russian,
        Variant::Brazilian,
        Variant::Canadian,
        Variant::Portuguese,
        Variant::Czech,
        Variant::Turkish,
        Variant::Thai,
        Variant::Frisian,
        Variant::Frysk,
        Variant::Antidraughts,
        Variant::Breakthrough,
    ];

    /// The name used on the command line and in output.
    pub const fn name(self) -> &'static str {
        self.rules().name
    }

    /// The rules of the variant.
    pub const fn rules(self) -> &'static Rules {
        match self {
            Variant::International => &INTERNATIONAL,
            Variant::English => &ENGLISH,
            Variant::Italian => &ITALIAN,
            Variant::Pool => &POOL,
            Variant::Spanish => &SPANISH,
            Variant::Russian => &RUSSIAN,
            Variant::Brazilian => &BRAZILIAN,
            Variant::Canadian => &CANADIAN,
            Variant::Portuguese => &PORTUGUESE,
            Variant::Czech => &CZECH,
            Variant::Turkish => &TURKISH,
            Variant::Thai => &THAI,
            Variant::Frisian => &FRISIAN,
            Variant::Frysk => &FRYSK,
            Variant::Antidraughts => &ANTIDRAUGHTS,
            Variant::Breakthrough => &BREAKTHROUGH,
        }
    }

    /// The PDN `GameType` number.
    pub const fn game_type(self) -> u32 {
        self.rules().game_type
    }

    /// The variant of a bare `GameType` number (PDN 3.0 table and the lidraughts codes).
    pub fn from_game_type(n: u32) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.game_type() == n)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown variant name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown variant `{}` (known: ", self.0)?;
        for (i, v) in Variant::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(v.name())?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Accepts the variant names, their common aliases (`american`, `checkers`, `draughts`,
    /// `standard`, `dammen`, `dames`, `shashki`, `dama`, …) and `GameType` numbers.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let k = s.trim().to_ascii_lowercase().replace(['_', ' ', '!'], "-");
        let v = match k.as_str() {
            "international"
            | "standard"
            | "fmjd"
            | "10x10"
            | "polish"
            | "dammen"
            | "dames"
            | "international-draughts" => Variant::International,
            // Plain "draughts" is the English game in British usage.
            "english" | "american" | "checkers" | "english-draughts" | "american-checkers"
            | "american/english" | "draughts" => Variant::English,
            "italian" | "dama-italiana" => Variant::Italian,
            "pool" | "american-pool" | "pool-checkers" => Variant::Pool,
            "spanish" => Variant::Spanish,
            "russian" | "shashki" => Variant::Russian,
            "brazilian" => Variant::Brazilian,
            "canadian" | "12x12" => Variant::Canadian,
            "portuguese" => Variant::Portuguese,
            "czech" | "ceska-dama" => Variant::Czech,
            "turkish" | "dama" => Variant::Turkish,
            "thai" | "mak-hot" | "makhos" => Variant::Thai,
            "frisian" => Variant::Frisian,
            "frysk" | "frysk-" => Variant::Frysk,
            "antidraughts" | "anti" | "losing" => Variant::Antidraughts,
            "breakthrough" => Variant::Breakthrough,
            _ => match k.parse::<u32>().ok().and_then(Variant::from_game_type) {
                Some(v) => v,
                None => return Err(UnknownVariant(s.to_string())),
            },
        };
        Ok(v)
    }
}

/// How far a king moves and captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KingRange {
    /// One square; captures an adjacent piece (English, Italian).
    Short,
    /// Any distance over free squares; captures at a distance and lands on any free square
    /// behind the captured piece (international and most others).
    Flying,
    /// Flies when moving, but when capturing lands on the square directly behind (Thai).
    FlyingLandsBehind,
}

/// When captured pieces leave the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Removal {
    /// After the whole capture; jumped pieces block and cannot be jumped twice
    /// (the "Turkish strike" / coup turc rule).
    AfterMove,
    /// As soon as each is jumped (Turkish, Thai).
    Immediate,
}

/// What happens to a man that reaches the far row in the middle of a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PassingPromotion {
    /// It stays a man and must go on capturing as a man; it is crowned only if the move ends
    /// on the far row (international art. 4.15).
    StaysMan,
    /// It is crowned at once and goes on capturing as a king (Russian art. 1.5.15).
    ContinuesAsKing,
    /// It is crowned and the move ends there (English, Italian).
    EndsMove,
}

/// Which capture must be chosen when several are possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precedence {
    /// Free choice among all (complete) captures.
    Free,
    /// The capture taking the most pieces (majority rule); king = man.
    Quantity,
    /// Most pieces, then a capture with a king, then most kings, then the kings met earliest
    /// (FID 6.6–6.9).
    Italian,
    /// Most pieces, then most kings.
    QuantityThenKings,
    /// A king must capture in preference to a man; otherwise free (Czech).
    KingFirst,
    /// Highest value (a king is worth less than two men, more than one), then a capture with
    /// a king (Frisian).
    Value,
}

/// Which result strings a variant uses (PDN 3.0 `ResultType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResultType {
    /// `1-0`, `0-1`, `1/2-1/2`, `0-0`, `*`.
    Default,
    /// `2-0`, `0-2`, `1-1`, `0-0`, `*`.
    International,
}

/// A draw rule of a variant: after `limit` plies with a condition, the game is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawRule {
    /// The same position, same side to move, for the `n`-th time.
    Repetition {
        /// Occurrences that make the draw.
        n: u8,
        /// Where the rule is written.
        article: &'static str,
    },
    /// `plies` successive plies in which only kings moved and nothing was captured.
    KingMovesOnly {
        /// Limit in plies.
        plies: u16,
        /// Where the rule is written.
        article: &'static str,
    },
    /// `plies` successive plies without a capture or a man move.
    NoCaptureNoManMove {
        /// Limit in plies.
        plies: u16,
        /// Where the rule is written.
        article: &'static str,
    },
    /// An endgame against a lone king: one side has a single piece, a king; the other
    /// `strong_min..=strong_max` pieces, at least one of them a king (all of them kings with
    /// `kings_only`). Drawn after `plies` plies counted from the ply that created the
    /// configuration (that ply not counted), or from the start of the game or setup that has
    /// it on the board already.
    ///
    /// The count runs on through moves that keep the configuration, crownings and captures
    /// included (king and man against king becoming two kings against king: FMJD 6.4), unless
    /// `capture_restarts`.
    Endgame {
        /// Pieces of the stronger side, at most.
        strong_max: u8,
        /// Pieces of the stronger side, at least.
        strong_min: u8,
        /// The stronger side has kings only (Russian 7.2.4, Frisian).
        kings_only: bool,
        /// Only plies after which the lone king stands alone on the long diagonal (a1–h8)
        /// count (Russian 7.2.7).
        long_diagonal: bool,
        /// A capture that leaves the configuration in place starts the count again: it runs
        /// from when the material arose (Russian 7.2.4: four kings against a king, one of
        /// them taken, are three kings against a king afresh).
        capture_restarts: bool,
        /// Limit in plies.
        plies: u16,
        /// Where the rule is written.
        article: &'static str,
    },
}

/// The articles behind each parameter, for diagnostics ("rule" in the JSON output).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Articles {
    /// The rule book.
    pub book: &'static str,
    /// How men move.
    pub man_move: &'static str,
    /// How kings move.
    pub king_move: &'static str,
    /// Capturing is compulsory.
    pub capture_mandatory: &'static str,
    /// How a man captures (directions).
    pub man_capture: &'static str,
    /// How a king captures.
    pub king_capture: &'static str,
    /// A capture must be completed; a piece may not be jumped twice.
    pub capture_complete: &'static str,
    /// Capture precedence (majority / quality rules).
    pub precedence: &'static str,
    /// When a man is crowned.
    pub promotion: &'static str,
    /// A man passing the far row during a capture.
    pub passing_promotion: &'static str,
    /// Irregular moves and how they may stand.
    pub irregularity: &'static str,
    /// End of the game (no legal move loses).
    pub game_end: &'static str,
}

/// The rules of one variant, as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The variant.
    pub variant: Variant,
    /// Command-line name.
    pub name: &'static str,
    /// PDN `GameType` number.
    pub game_type: u32,
    /// The board.
    pub shape: Shape,
    /// The standard `GameType` layout (first mover, numbering, orientation).
    pub layout: Layout,
    /// The start position as a FEN in the variant's numbering.
    pub start_fen: &'static str,
    /// Directions a man moves in, for White (Black's are mirrored).
    pub man_moves: DirSet,
    /// Directions a man captures in, for White.
    pub man_captures: DirSet,
    /// Directions a king moves in.
    pub king_moves: DirSet,
    /// Directions a king captures in.
    pub king_captures: DirSet,
    /// King range.
    pub king_range: KingRange,
    /// Removal of captured pieces.
    pub removal: Removal,
    /// A capture may not turn back 180° between two jumps (Turkish).
    pub no_reversal: bool,
    /// Men may capture kings (false in Italian).
    pub men_capture_kings: bool,
    /// A man reaching the far row during a capture.
    pub passing_promotion: PassingPromotion,
    /// Capture precedence.
    pub precedence: Precedence,
    /// Frisian: at most this many consecutive non-capturing moves with the same king while
    /// the side still has men (0 = no limit).
    pub same_king_limit: u8,
    /// Result strings.
    pub result_type: ResultType,
    /// The capture separator the PDN table prescribes.
    pub capture_separator: char,
    /// Draw rules, in the order they are checked.
    pub draws: &'static [DrawRule],
    /// The articles behind the parameters.
    pub articles: Articles,
}

mod table;
pub use table::*;

impl Rules {
    /// Directions in which a man of `color` moves.
    #[inline(always)]
    pub const fn man_move_dirs(&self, color: Color) -> DirSet {
        match color {
            Color::White => self.man_moves,
            Color::Black => self.man_moves.flipped(),
        }
    }

    /// Directions in which a man of `color` captures.
    #[inline(always)]
    pub const fn man_capture_dirs(&self, color: Color) -> DirSet {
        match color {
            Color::White => self.man_captures,
            Color::Black => self.man_captures.flipped(),
        }
    }

    /// The side that moves first.
    pub const fn first_mover(&self) -> Color {
        self.layout.first
    }
}
