//! Openings: the opening tables (the shipped ones and the user's, TSV or PDN), their
//! self-test, and the classification of a game by the deepest table entry whose *position*
//! it reaches (`pdn classify`, `fix`/`convert --classify`, `stats --by opening`).
//!
//! - [`Table`]: a table as written — one opening a line, `name<TAB>moves` or
//!   `name<TAB>FEN`, optional columns `ballot` and `barred` named by a header line, and
//!   `# variant: NAME` and `# title: TEXT` comment lines (module `table`); or PDN games whose
//!   `Opening` tag names them (and `Ballot`, `Barred` tags). The shipped tables
//!   ([`Table::shipped`]) are data files in that same format, each naming its sources.
//! - [`Classifier`]: tables compiled into positions (each line replayed exactly as
//!   `validate` replays a game; every line legal from its start, every position distinct,
//!   no name or ballot number twice: [`Table::check`]), and the classification of a game
//!   from the same replay as `validate`, through its [`Record`](crate::app::model::record::Record).
//!
//! A game's [`Classification`] has its *opening* (the deepest named entry it reaches) and
//! its *ballot* (the deepest numbered entry: for English draughts the three-move ballot, else
//! the two-move one; an 11-man or IDF-64 start position), each with the ply where it was
//! reached. Positions, not move strings, are compared, so transpositions classify alike. A
//! game played from a setup position (a `FEN` tag that is not the start) is classified only
//! when a table starts there (an 11-man ballot, an IDF-64 draw, a user table's FEN); a game
//! whose replay fails is classified up to the failure (an irregular move ends the
//! classification, as a setup in the main line does).

mod classify;
mod compile;
mod table;

pub(crate) use classify::Both;
pub use classify::{Ballot, Classification, Classified, Classifier, Opening, Unclassified};
pub use compile::Problem;
pub use table::{Entry, Table, TableError, What};
