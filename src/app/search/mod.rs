//! Finding things in archives: `pdn search`, `pdn explore` and `pdn index` (docs/formats.md
//! for their outputs), as a library that the command line and the Python package both call.
//!
//! - [`query`]: what a search asks, parsed ([`Query`]); `compile` puts it on each
//!   variant's board;
//! - [`Searcher`]: one query, ready for any game. [`Searcher::search_game`] (and the
//!   [`Searcher::search_ref`], for a game as the pipeline reads it) search one game; [`search_reader`] every game of a
//!   reader. A game is validated exactly as `validate` validates it (same variant, same
//!   replay, same findings) while a `watch` of the query looks at every position and move
//!   the replay reaches **without an error on its line**: after an irregular move, an
//!   ambiguous one read one way or a missing ply, the positions may not be the game's, so a
//!   game that cannot be replayed past an error is searched up to it, and its matches say so
//!   ([`GameResult::error_ply`]);
//! - [`render`]: matches as JSON Lines, CSV, human lines or PDN with a comment at the
//!   matching ply, and the summary;
//! - [`index`]: the index file (every main-line position with the games that reach it) and
//!   the answers it gives; [`explore`]: the opening tree from a position.
//!
//! Positions are compared, not move strings, so transpositions are found. A match's `ply` is
//! the number of plies played before the position (0: the start position); for a manoeuvre,
//! the position before the move.

mod compile;
pub mod explore;
mod game;
pub mod hash;
pub mod index;
pub mod query;
pub mod render;
mod watch;

use std::any::Any;
use std::io::Read;
use std::sync::Arc;

use crate::rules::{Color, Variant, with_variant};
use crate::syntax::Reader;

use crate::app::model::reading::FileGames;
pub use query::{
    Count, Manoeuvre, Material, OptionError, Query, QueryError, QueryOption, QueryOptions,
};

/// How to search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchOptions {
    /// Force the variant of every game (`--variant`); the query is read on its board only.
    pub variant: Option<Variant>,
    /// Look inside variations too (`--variations`).
    pub variations: bool,
    /// Every occurrence, not only the first of each game (`--all-occurrences`).
    pub all_occurrences: bool,
    /// Keep the text of the games that match (for PDN output).
    pub keep_text: bool,
}

/// A query ready for the games of every variant.
#[derive(Debug)]
pub struct Searcher {
    query: Query,
    options: SearchOptions,
    /// The query on each variant's board (`None`: it does not fit), by [`slot`].
    compiled: Vec<Option<Arc<dyn Any + Send + Sync>>>,
    /// Why it does not fit, by [`slot`].
    unfit: Vec<Option<QueryError>>,
}

/// The place of a variant in [`Variant::ALL`].
pub(crate) fn slot(v: Variant) -> usize {
    Variant::ALL.iter().position(|x| *x == v).unwrap_or(0)
}

impl Searcher {
    /// The query, put on the board of every variant it fits (of `options.variant` alone
    /// when it is given).
    ///
    /// # Errors
    ///
    /// [`QueryError::Empty`] if nothing is asked; the error of the forced variant, or
    /// [`QueryError::Unfit`] if the query fits no board (a square off every board, moves
    /// that cannot be played anywhere, …); [`QueryError::Sides`] for FENs naming different
    /// sides to move.
    pub fn new(query: Query, options: SearchOptions) -> Result<Searcher, QueryError> {
        if query.is_empty() {
            return Err(QueryError::Empty);
        }
        query.side_to_move()?;
        let mut compiled: Vec<Option<Arc<dyn Any + Send + Sync>>> = Vec::new();
        let mut unfit = Vec::new();
        for v in Variant::ALL {
            if options.variant.is_some_and(|f| f != v) {
                compiled.push(None);
                unfit.push(None);
                continue;
            }
            let c: Result<Arc<dyn Any + Send + Sync>, QueryError> = with_variant!(v, V => {
                compile::Compiled::<V>::new(&query)
                    .map(|c| Arc::new(c) as Arc<dyn Any + Send + Sync>)
            });
            match c {
                Ok(c) => {
                    compiled.push(Some(c));
                    unfit.push(None);
                }
                Err(e) => {
                    compiled.push(None);
                    unfit.push(Some(e));
                }
            }
        }
        if compiled.iter().all(Option::is_none) {
            let first = options.variant.unwrap_or(Variant::International);
            let e = unfit[slot(first)].clone().unwrap_or(QueryError::Empty);
            return Err(match (options.variant, e) {
                (Some(_), e) => e,
                // The moves' message names the variant already.
                (None, e @ QueryError::Moves(_)) => QueryError::Unfit(e.to_string()),
                (None, e) => QueryError::Unfit(format!("{} ({})", e, first.name())),
            });
        }
        Ok(Searcher {
            query,
            options,
            compiled,
            unfit,
        })
    }

    /// The query.
    pub fn query(&self) -> &Query {
        &self.query
    }

    /// The options.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// Why the query does not fit the board of `v` (`None` if it does, or if `v` is not
    /// searched at all).
    pub fn unfit(&self, v: Variant) -> Option<&QueryError> {
        self.unfit.get(slot(v))?.as_ref()
    }
}

/// Where a game is and what its tags say.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameInfo {
    /// 1-based position of the game in its file.
    pub index: usize,
    /// 1-based line of its first byte.
    pub line: u32,
    /// The variant it was replayed in (`None`: no variant fits).
    pub variant: Option<Variant>,
    /// The `White` tag.
    pub white: Option<String>,
    /// The `Black` tag.
    pub black: Option<String>,
    /// The `Event` tag.
    pub event: Option<String>,
    /// The `Date` tag.
    pub date: Option<String>,
    /// The result: the `Result` tag, else the terminator.
    pub result: Option<String>,
}

/// How much of a game was searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Searched {
    /// Every position of its main line (and of its variations with `--variations`).
    Whole,
    /// The main line up to an error ([`GameResult::error_ply`]).
    UpTo,
    /// Not searched: no variant fits the game.
    NoVariant,
    /// Not searched: the query does not fit the board of its variant.
    Unfit,
    /// Not searched: its start position could not be set up (a bad FEN).
    NoStart,
}

/// A position of a game that the query matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// Plies played before the position (0: the start position).
    pub ply: u32,
    /// The number of the move to be played from the position.
    pub move_number: u32,
    /// The side to move.
    pub side: Color,
    /// The position, as a FEN in the variant's numbering.
    pub fen: String,
    /// In a variation (with `--variations`).
    pub in_variation: bool,
    /// Matched by the colour-reversed query (`--mirror`).
    pub mirrored: bool,
    /// For a manoeuvre: the move played from the position, in PDN.
    pub mv: Option<String>,
    /// Byte offset in the game's text where a comment on the match goes: after the move
    /// that reached the position (or that the manoeuvre names... the position before it),
    /// at the start of the movetext for the start position.
    pub at: u32,
}

/// What searching one game found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// Where the game is, its tags.
    pub info: GameInfo,
    /// Plies of the main line replayed (as `validate` counts them).
    pub plies: u32,
    /// Plies of the main line whose positions were searched.
    pub searched: u32,
    /// Plies of variations searched (`--variations`).
    pub variation_plies: u64,
    /// The first ply of the main line whose position an error kept from being searched
    /// (an illegal move, an ambiguous one, a move after the end, a setup that cannot be
    /// read): the game was searched up to it.
    pub error_ply: Option<u32>,
    /// How much was searched.
    pub status: Searched,
    /// The matches, in the order of the game.
    pub matches: Vec<Match>,
    /// The game's text, when asked for and it matched.
    pub text: Option<String>,
}

/// The number of the move to be played after `ply` plies of a game whose first move is
/// numbered `first` (`second`: the game starts with the second player to move).
pub(crate) fn move_number(first: u32, second: bool, ply: u32) -> u32 {
    first.saturating_add((ply + u32::from(second)) / 2)
}

/// Search every game of a reader (a PDN file's bytes) sequentially, handing each game's
/// result to `each` in file order: the library's one entry for a file or a stream (the
/// command line runs the same per-game search on all cores).
///
/// # Errors
///
/// An error reading the bytes (the games before it were handed over).
pub fn search_reader<R: Read>(
    reader: R,
    searcher: &Searcher,
    mut each: impl FnMut(GameResult),
) -> std::io::Result<()> {
    let mut r = Reader::new(reader);
    let mut games = FileGames::new(0);
    while let Some(res) = games.next(&mut r, |g| searcher.search_ref(g))? {
        each(res);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_moves_that_fit_no_board_name_the_variant_once() {
        let query = Query {
            moves: Some("99-98".to_string()),
            ..Query::default()
        };
        let e = Searcher::new(query, SearchOptions::default()).expect_err("fits no board");
        let text = e.to_string();
        assert!(matches!(e, QueryError::Unfit(_)), "{text}");
        assert_eq!(text.matches("(international)").count(), 1, "{text}");
    }

    #[test]
    fn slots_are_the_order_of_all() {
        for (i, v) in Variant::ALL.iter().enumerate() {
            assert_eq!(slot(*v), i);
        }
    }

    #[test]
    fn move_numbers_count_from_the_first() {
        assert_eq!(move_number(1, false, 0), 1);
        assert_eq!(move_number(1, false, 1), 1);
        assert_eq!(move_number(1, false, 2), 2);
        assert_eq!(move_number(1, true, 0), 1);
        assert_eq!(move_number(1, true, 1), 2);
        assert_eq!(move_number(12, false, 5), 14);
    }
}
