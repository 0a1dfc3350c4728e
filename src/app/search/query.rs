//! What a search asks, as the user wrote it and before any board is known: an exact position,
//! piece patterns, material ranges, the opening moves, a manoeuvre, the side to move, the
//! mirror. [`Query`] holds it parsed (FEN setups, square names, counts); it is compiled for
//! each variant's board by `compile`. Every parser returns a typed [`QueryError`].

use std::fmt;

use crate::rules::fen::{self, FenError, Setup, SquareName};
use crate::rules::{Color, Role};

/// A number of pieces, or a range of them: `3`, `2-4`, `2+` (at least 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Count {
    /// The least.
    pub min: u32,
    /// The most.
    pub max: u32,
}

impl Count {
    /// Any number.
    pub const ANY: Count = Count {
        min: 0,
        max: u32::MAX,
    };

    /// Exactly `n`.
    pub const fn exactly(n: u32) -> Count {
        Count { min: n, max: n }
    }

    /// True if `n` is in the range.
    #[inline(always)]
    pub fn holds(self, n: u32) -> bool {
        self.min <= n && n <= self.max
    }

    /// Read `N`, `N-M` or `N+`.
    ///
    /// # Errors
    ///
    /// [`QueryError::Count`] for anything else, or a range that runs backwards.
    pub fn parse(text: &str) -> Result<Count, QueryError> {
        let t = text.trim();
        let bad = || QueryError::Count(text.to_string());
        let num = |s: &str| -> Result<u32, QueryError> {
            if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            s.parse().map_err(|_| bad())
        };
        if let Some(n) = t.strip_suffix('+') {
            return Ok(Count {
                min: num(n)?,
                max: u32::MAX,
            });
        }
        if let Some((a, b)) = t.split_once('-') {
            let (a, b) = (num(a)?, num(b)?);
            if a > b {
                return Err(bad());
            }
            return Ok(Count { min: a, max: b });
        }
        Ok(Count::exactly(num(t)?))
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.min, self.max) {
            (a, b) if a == b => write!(f, "{a}"),
            (a, u32::MAX) => write!(f, "{a}+"),
            (a, b) => write!(f, "{a}-{b}"),
        }
    }
}

/// Counts of men and kings per side: `wm`, `wk`, `bm`, `bk`, and the sides' totals `w`, `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Material {
    /// White men, white kings, black men, black kings, white pieces, black pieces.
    pub counts: [Count; 6],
}

/// The keys of [`Material`], in the order of its counts.
pub const MATERIAL_KEYS: [&str; 6] = ["wm", "wk", "bm", "bk", "w", "b"];

impl Material {
    /// Read `KEY=COUNT` terms separated by commas (`wm=8-10,bk=0,w=12+`); a key given twice
    /// must hold both times.
    ///
    /// # Errors
    ///
    /// [`QueryError::Material`] for a term that is not `KEY=COUNT` with a known key,
    /// [`QueryError::Count`] for a bad count.
    pub fn parse(text: &str) -> Result<Material, QueryError> {
        let mut counts = [Count::ANY; 6];
        let mut any = false;
        for term in text.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let (key, value) = term
                .split_once('=')
                .ok_or_else(|| QueryError::Material(term.to_string()))?;
            let key = key.trim().to_ascii_lowercase();
            let k = MATERIAL_KEYS
                .iter()
                .position(|k| *k == key)
                .ok_or_else(|| QueryError::Material(term.to_string()))?;
            let c = Count::parse(value)?;
            let slot = &mut counts[k];
            slot.min = slot.min.max(c.min);
            slot.max = slot.max.min(c.max);
            any = true;
        }
        if !any {
            return Err(QueryError::Material(text.to_string()));
        }
        Ok(Material { counts })
    }

    /// The same counts with the colours swapped.
    pub fn mirrored(&self) -> Material {
        let c = self.counts;
        Material {
            counts: [c[2], c[3], c[0], c[1], c[5], c[4]],
        }
    }
}

/// A move of a kind: a piece of a kind moving from a set of squares to a set, capturing a
/// number of pieces, promoting, or after which the opponent must capture (a sacrifice).
/// Every part left out allows anything.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manoeuvre {
    /// The moving piece: a man or a king (before the move).
    pub piece: Option<Role>,
    /// The squares it may start from.
    pub from: Option<Vec<SquareName>>,
    /// The squares it may end on.
    pub to: Option<Vec<SquareName>>,
    /// How many pieces it captures.
    pub captures: Option<Count>,
    /// The moving man is crowned.
    pub promotion: bool,
    /// After the move the opponent must capture.
    pub sacrifice: bool,
}

impl Manoeuvre {
    /// True if nothing is asked of the move.
    pub fn is_empty(&self) -> bool {
        *self == Manoeuvre::default()
    }
}

/// A search query: every part given must hold at once (the position parts of one position,
/// the manoeuvre of the move played from it). See the README, "search, explore, index".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// `--position FEN`: exactly these pieces (and the side to move the FEN names).
    pub position: Option<Setup>,
    /// `--pieces FEN`: these pieces stand there, the rest free.
    pub pieces: Vec<Setup>,
    /// `--not FEN`: none of these pieces stands there.
    pub not: Vec<Setup>,
    /// `--empty SQUARES`: these squares are empty.
    pub empty: Vec<SquareName>,
    /// `--material`: counts of men and kings per side.
    pub material: Option<Material>,
    /// `--moves`: the game begins with these moves (its movetext, resolved on each board).
    pub moves: Option<String>,
    /// `--side`: the side to move.
    pub side: Option<Color>,
    /// `--any-side`: the side to move named by the FENs does not count.
    pub any_side: bool,
    /// The manoeuvre (`--piece`, `--from`, `--to`, `--captures`, `--promotion`,
    /// `--sacrifice`).
    pub manoeuvre: Manoeuvre,
    /// `--mirror`: also the colour-reversed query (board turned round, colours and side to
    /// move swapped).
    pub mirror: bool,
}

impl Query {
    /// True if the query asks nothing.
    pub fn is_empty(&self) -> bool {
        self.position.is_none()
            && self.pieces.is_empty()
            && self.not.is_empty()
            && self.empty.is_empty()
            && self.material.is_none()
            && self.moves.is_none()
            && self.side.is_none()
            && self.manoeuvre.is_empty()
    }

    /// True if the query asks something of a position (not only of the opening moves).
    pub(crate) fn asks_position(&self) -> bool {
        self.position.is_some()
            || !self.pieces.is_empty()
            || !self.not.is_empty()
            || !self.empty.is_empty()
            || self.material.is_some()
            || self.side.is_some()
    }

    /// The side to move the query asks for: `--side` and the sides the FENs name, unless
    /// `--any-side`.
    ///
    /// # Errors
    ///
    /// [`QueryError::Sides`] if they name different sides.
    pub(crate) fn side_to_move(&self) -> Result<Option<Color>, QueryError> {
        let mut side = self.side;
        if !self.any_side {
            let fens = self.position.iter().chain(&self.pieces).chain(&self.not);
            for s in fens.filter_map(|s| s.side) {
                if side.is_some_and(|x| x != s) {
                    return Err(QueryError::Sides);
                }
                side = Some(s);
            }
        }
        Ok(side)
    }
}

/// A query as its options give it, the values as written (`pdn search`'s options, the
/// Python package's `search` keyword arguments): [`QueryOptions::query`] reads it into a
/// [`Query`], the one place where both build one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueryOptions {
    /// `--position FEN`.
    pub position: Option<String>,
    /// `--any-side`.
    pub any_side: bool,
    /// `--pieces FEN`, each time given.
    pub pieces: Vec<String>,
    /// `--not FEN`, each time given.
    pub not: Vec<String>,
    /// `--empty SQUARES`, each time given.
    pub empty: Vec<String>,
    /// `--material TERMS`.
    pub material: Option<String>,
    /// `--moves MOVES`.
    pub moves: Option<String>,
    /// `--side`.
    pub side: Option<Color>,
    /// `--piece`.
    pub piece: Option<Role>,
    /// `--from SQUARES`.
    pub from: Option<String>,
    /// `--to SQUARES`.
    pub to: Option<String>,
    /// `--captures COUNT`.
    pub captures: Option<String>,
    /// `--promotion`.
    pub promotion: bool,
    /// `--sacrifice`.
    pub sacrifice: bool,
    /// `--mirror`.
    pub mirror: bool,
}

/// An option of a query given as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QueryOption {
    /// `--position`.
    Position,
    /// `--pieces`.
    Pieces,
    /// `--not`.
    Not,
    /// `--empty`.
    Empty,
    /// `--material`.
    Material,
    /// `--from`.
    From,
    /// `--to`.
    To,
    /// `--captures`.
    Captures,
}

impl QueryOption {
    /// The option's long name without its dashes, as `pdn search` takes it (`from`, `not`).
    pub fn name(self) -> &'static str {
        match self {
            QueryOption::Position => "position",
            QueryOption::Pieces => "pieces",
            QueryOption::Not => "not",
            QueryOption::Empty => "empty",
            QueryOption::Material => "material",
            QueryOption::From => "from",
            QueryOption::To => "to",
            QueryOption::Captures => "captures",
        }
    }
}

/// A query option whose value cannot be read: which, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// The option.
    pub option: QueryOption,
    /// What is wrong with its value.
    pub error: QueryError,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--{}: {}", self.option.name(), self.error)
    }
}

// The error's message is in the option's (no source, so that a chain of causes does not
// say it twice).
impl std::error::Error for OptionError {}

impl QueryOptions {
    /// The query the options ask (whether it fits a board is known when it is compiled:
    /// [`crate::app::search::Searcher::new`]).
    ///
    /// # Errors
    ///
    /// [`OptionError`] for the first option, in the order of the fields, whose value cannot
    /// be read: a FEN ([`QueryError::Fen`]), a list of squares ([`QueryError::Squares`]), a
    /// material term or a count.
    pub fn query(&self) -> Result<Query, OptionError> {
        let at = |option: QueryOption| move |error: QueryError| OptionError { option, error };
        let fens = |option: QueryOption, list: &[String]| -> Result<Vec<Setup>, OptionError> {
            list.iter()
                .map(|f| parse_fen(f).map_err(at(option)))
                .collect()
        };
        let squares = |option: QueryOption, text: &Option<String>| {
            text.as_deref()
                .map(|t| parse_squares(t).map_err(at(option)))
                .transpose()
        };
        let position = self
            .position
            .as_deref()
            .map(|f| parse_fen(f).map_err(at(QueryOption::Position)))
            .transpose()?;
        let pieces = fens(QueryOption::Pieces, &self.pieces)?;
        let not = fens(QueryOption::Not, &self.not)?;
        let mut empty = Vec::new();
        for e in &self.empty {
            empty.extend(parse_squares(e).map_err(at(QueryOption::Empty))?);
        }
        let material = self
            .material
            .as_deref()
            .map(|m| Material::parse(m).map_err(at(QueryOption::Material)))
            .transpose()?;
        let manoeuvre = Manoeuvre {
            piece: self.piece,
            from: squares(QueryOption::From, &self.from)?,
            to: squares(QueryOption::To, &self.to)?,
            captures: self
                .captures
                .as_deref()
                .map(|c| Count::parse(c).map_err(at(QueryOption::Captures)))
                .transpose()?,
            promotion: self.promotion,
            sacrifice: self.sacrifice,
        };
        Ok(Query {
            position,
            pieces,
            not,
            empty,
            material,
            moves: self.moves.clone(),
            side: self.side,
            any_side: self.any_side,
            manoeuvre,
            mirror: self.mirror,
        })
    }
}

/// Read a FEN of a query (`W:W31-50:B1-20`; the side letter may be `?` or left out).
///
/// # Errors
///
/// [`QueryError::Fen`] with the FEN and what is wrong with it.
pub fn parse_fen(text: &str) -> Result<Setup, QueryError> {
    let fail = |error| QueryError::Fen {
        fen: text.to_string(),
        error,
    };
    let setup = fen::parse(text).map_err(fail)?;
    // A file's FEN may carry fields a reader passes over; a query's may not, since a field
    // passed over (`W:K50` for `W:WK50`) would silently ask for less than was written. The
    // move counters of lidraughts' FENs (`H0`, `F1`) ask nothing and are let through.
    let counter = |f: &str| {
        f.len() > 1
            && matches!(f.as_bytes()[0], b'H' | b'F' | b'h' | b'f')
            && f[1..].bytes().all(|b| b.is_ascii_digit())
    };
    match setup.ignored.iter().find(|f| !counter(f)) {
        Some(field) => Err(fail(FenError::BadField(field.clone()))),
        None => Ok(setup),
    }
}

/// Read a list of squares: numbers, ranges and algebraic names separated by commas
/// (`1-5,23,c3`).
///
/// # Errors
///
/// [`QueryError::Squares`] for anything else.
pub fn parse_squares(text: &str) -> Result<Vec<SquareName>, QueryError> {
    let bad = || QueryError::Squares(text.to_string());
    let t = text.trim();
    if t.is_empty()
        || !t
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b',' || b == b'-' || b == b' ')
    {
        return Err(bad());
    }
    let compact: String = t.chars().filter(|c| *c != ' ').collect();
    // A square list is a FEN colour group without kings.
    let setup = fen::parse(&format!("?:W{compact}")).map_err(|_| bad())?;
    if setup.pieces.iter().any(|(_, p)| p.role == Role::King) || !setup.ignored.is_empty() {
        return Err(bad());
    }
    Ok(setup.pieces.into_iter().map(|(s, _)| s).collect())
}

/// What is wrong with a query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryError {
    /// A FEN that cannot be read, or does not fit the board.
    Fen {
        /// The FEN as given.
        fen: String,
        /// What is wrong.
        error: FenError,
    },
    /// A list of squares that cannot be read.
    Squares(String),
    /// A square that is not on the board.
    Square(String),
    /// A count or range that cannot be read.
    Count(String),
    /// A material term that is not `KEY=COUNT`.
    Material(String),
    /// The opening moves cannot be played on the board: why.
    Moves(String),
    /// The FENs and `--side` name different sides to move.
    Sides,
    /// Nothing is asked.
    Empty,
    /// The query fits no board of the variants searched: why, for the first of them.
    Unfit(String),
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::Fen { fen, error } => write!(f, "FEN `{fen}`: {error}"),
            QueryError::Squares(s) => write!(
                f,
                "`{s}` is not a list of squares (numbers, ranges and names separated by commas: 1-5,23,c3)"
            ),
            QueryError::Square(s) => write!(f, "square {s} is not a playing square of the board"),
            QueryError::Count(s) => {
                write!(f, "`{s}` is not a count (N, N-M, or N+ for at least N)")
            }
            QueryError::Material(s) => write!(
                f,
                "`{s}` is not a material term (KEY=COUNT, KEY one of wm, wk, bm, bk, w, b: wm=8-10,bk=0,w=12+)"
            ),
            QueryError::Moves(s) => write!(f, "the opening moves: {s}"),
            QueryError::Sides => {
                f.write_str("the FENs and --side name different sides to move (--any-side ignores the FENs' side)")
            }
            QueryError::Empty => f.write_str("no query: give --position, --pieces, --not, --empty, --material, --moves, --side or a manoeuvre"),
            QueryError::Unfit(s) => write!(f, "the query fits no board: {s}"),
        }
    }
}

impl std::error::Error for QueryError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_options_build_the_query_or_name_the_option_wrong() {
        let o = QueryOptions {
            pieces: vec!["W:W28".into()],
            empty: vec!["1-3".into(), "5".into()],
            material: Some("wm=8-10".into()),
            from: Some("31-35".into()),
            captures: Some("2+".into()),
            side: Some(Color::White),
            ..QueryOptions::default()
        };
        let q = o.query().unwrap();
        assert_eq!(q.pieces.len(), 1);
        assert_eq!(q.empty.len(), 4);
        assert_eq!(q.manoeuvre.from.as_ref().map(Vec::len), Some(5));
        assert_eq!(
            q.manoeuvre.captures,
            Some(Count {
                min: 2,
                max: u32::MAX
            })
        );
        assert_eq!(q.side, Some(Color::White));
        assert!(QueryOptions::default().query().unwrap().is_empty());
        for (o, option) in [
            (
                QueryOptions {
                    position: Some("X".into()),
                    ..QueryOptions::default()
                },
                QueryOption::Position,
            ),
            (
                QueryOptions {
                    not: vec!["W:W28".into(), "W:Wzz".into()],
                    ..QueryOptions::default()
                },
                QueryOption::Not,
            ),
            (
                QueryOptions {
                    to: Some("1,zz".into()),
                    ..QueryOptions::default()
                },
                QueryOption::To,
            ),
            (
                QueryOptions {
                    captures: Some("x".into()),
                    ..QueryOptions::default()
                },
                QueryOption::Captures,
            ),
        ] {
            let e = o.query().unwrap_err();
            assert_eq!(e.option, option);
            assert_eq!(e.to_string(), format!("--{}: {}", option.name(), e.error));
        }
    }

    #[test]
    fn a_query_fen_field_that_is_no_colour_group_is_refused() {
        // `W:K50` once asked for nothing at all: the field was passed over.
        for fen in ["W:K50", "W:W28:X1", "?:W31:B1:Q"] {
            assert!(
                matches!(
                    parse_fen(fen),
                    Err(QueryError::Fen {
                        error: FenError::BadField(_),
                        ..
                    })
                ),
                "{fen}"
            );
        }
        let counters = parse_fen("W:W31:B19:H0:F1").expect("move counters are let through");
        assert_eq!(counters.pieces.len(), 2);
    }

    #[test]
    fn counts_and_ranges_read() {
        assert_eq!(Count::parse("3"), Ok(Count::exactly(3)));
        assert_eq!(Count::parse(" 2-4 "), Ok(Count { min: 2, max: 4 }));
        assert_eq!(
            Count::parse("2+"),
            Ok(Count {
                min: 2,
                max: u32::MAX
            })
        );
        for bad in ["", "4-2", "x", "-1", "1--2", "99999"] {
            assert!(Count::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Count::parse("2+").map(|c| c.to_string()), Ok("2+".into()));
    }

    #[test]
    fn material_reads_keys_and_mirrors() {
        let m = Material::parse("wm=8-10, bk=0,W=12+").expect("material");
        assert_eq!(m.counts[0], Count { min: 8, max: 10 });
        assert_eq!(m.counts[3], Count::exactly(0));
        assert_eq!(m.counts[4].min, 12);
        let r = m.mirrored();
        assert_eq!(r.counts[2], m.counts[0]);
        assert_eq!(r.counts[1], m.counts[3]);
        assert_eq!(r.counts[5], m.counts[4]);
        assert!(Material::parse("queens=1").is_err());
        assert!(Material::parse("wm").is_err());
        assert!(Material::parse("").is_err());
        // A key twice: both hold.
        let both = Material::parse("wm=5+,wm=0-7").expect("material");
        assert_eq!(both.counts[0], Count { min: 5, max: 7 });
    }

    #[test]
    fn square_lists_read() {
        assert_eq!(
            parse_squares("1-3, 23").expect("squares"),
            vec![
                SquareName::Number(1),
                SquareName::Number(2),
                SquareName::Number(3),
                SquareName::Number(23)
            ]
        );
        assert_eq!(
            parse_squares("c3").expect("squares"),
            vec![SquareName::Algebraic { file: 2, rank: 2 }]
        );
        for bad in ["", "K5", "1:2", "x", "1;2"] {
            assert!(parse_squares(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sides_must_agree_unless_any_side() {
        let mut q = Query {
            position: Some(parse_fen("W:W31-50:B1-20").expect("fen")),
            pieces: vec![parse_fen("B:W32").expect("fen")],
            ..Query::default()
        };
        assert_eq!(q.side_to_move(), Err(QueryError::Sides));
        q.any_side = true;
        assert_eq!(q.side_to_move(), Ok(None));
        q.side = Some(Color::Black);
        assert_eq!(q.side_to_move(), Ok(Some(Color::Black)));
        assert!(Query::default().is_empty());
    }
}
