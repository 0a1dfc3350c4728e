//! The PDN syntax layer: reading PDN files into [`Game`]s and writing games back as strict
//! PDN 3.0. It knows nothing of legality and never imports the rules layer.
//!
//! - [`Reader`] streams games from any `io::Read`; [`read_games`] reads a whole buffer;
//!   [`Reader::read_game`] hands the elements of each game to a [`Visitor`] instead, with
//!   borrowed bytes and no allocation per element;
//!   [`pieces`] cuts a file into pieces that threads read apart, with the same games;
//!   [`utf16`] turns UTF-16 files into UTF-8 (the reader does it by itself).
//! - [`Game`] keeps everything read: tags, the move tree (moves with their numbers and
//!   strengths, comments, NAGs, variations, setups), the terminator, the syntax errors and
//!   the non-standard constructs that were tolerated, with byte spans into the game's text.
//! - [`write_game`] writes strict PDN 3.0; [`canonical_move_text`] is the syntactic normal
//!   form of a move.
//!
//! The reading grammar and its boundary decisions are documented in `grammar`; the token
//! table in `token`.

mod game;
mod grammar;
pub(crate) mod lines;
pub mod pieces;
mod reader;
mod squares;
mod tagnames;
mod token;
pub mod utf16;
mod visitor;
mod writer;

pub use game::{
    Comment, CommentKind, Encoding, Game, Item, Line, MoveItem, MoveKind, MoveNumber, Nag,
    ResultToken, SetupCommand, Span, Square, SyntaxError, SyntaxErrorKind, Tag, Tolerated,
    ToleratedKind, Variation,
};
pub use grammar::{MAX_ANNOTATIONS_IN_A_ROW, MAX_ERRORS_PER_GAME, MAX_VARIATION_DEPTH};
pub(crate) use grammar::{MoveToken, Sink};
pub use lines::{LineIndex, line_col_of};
pub use reader::{
    COMMANDS_MAX_GAME_SIZE, DEFAULT_BUFFER_SIZE, DEFAULT_MAX_GAME_SIZE, MAX_MAX_GAME_SIZE, Reader,
    read_games,
};
pub(crate) use reader::{game_of_text, game_of_text_sized};
pub use squares::Squares;
pub use tagnames::{decode_references, standard_tag_name};
pub(crate) use visitor::Driven;
pub use visitor::{GameEnd, MoveRef, RawTag, Skip, Visitor, decode_text};
pub use writer::{
    Drain, GameParts, Keep, Num, WriteOptions, canonical_move_ref_text, canonical_move_text,
    canonical_move_text_in, comment_for_writing, ordered_tags, result_terminator,
    setup_for_writing, tag_name_for_writing, tag_value_for_writing, write_game, write_parts,
    write_parts_to,
};
pub(crate) use writer::{STANDARD as STANDARD_TAGS, write_tags};
