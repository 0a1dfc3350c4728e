//! Strict PDN 3.0 output: the normal form of a game written by the syntax layer's writer,
//! each move in its canonical notation (see the module documentation of `export`).
//!
//! When the square names asked for are not the variant's own, the `GameType` tag is set to
//! the extended form that describes them, so that a reader knows how to read the squares.

use crate::syntax::{Game, Line, Span, Tag, WriteOptions, write_game};

use super::record::Form;
use super::{Analysed, game_type_for};

/// A game with other tags and body, keeping the text (and so the spans) of `game`.
pub fn rebuild(game: &Game, tags: Vec<Tag>, body: Line) -> Game {
    Game {
        index: game.index,
        offset: game.offset,
        line: game.line,
        column: game.column,
        source: game.source.clone(),
        encoding: game.encoding,
        tags,
        body,
        result: game.result.clone(),
        errors: Vec::new(),
        notes: Vec::new(),
    }
}

/// The tags of an exported game: as read, with `GameType` describing the square names when
/// they are not the variant's own.
pub fn export_tags(a: &Analysed<'_>) -> Vec<Tag> {
    let mut tags = a.game.tags.clone();
    if let (Some(v), Some(names)) = (a.variant(), &a.names) {
        let native = v.rules().layout.notation == crate::rules::NotationKind::Algebraic;
        if names.algebraic != native {
            set_tag(&mut tags, "GameType", game_type_for(v, names));
        }
    }
    tags
}

/// Set the value of the first tag of a name, or add the tag.
pub fn set_tag(tags: &mut Vec<Tag>, name: &str, value: String) {
    match tags.iter_mut().find(|t| t.name == name) {
        Some(t) => t.value = value,
        None => tags.push(Tag::new(name, value, Span::default())),
    }
}

/// Write a game as strict PDN 3.0.
pub fn write(a: &mut Analysed<'_>, out: &mut String) {
    let body = std::mem::take(&mut a.normal.body);
    let game = rebuild(a.game, export_tags(a), body);
    write_rebuilt(a, &game, out);
    a.normal.body = game.body;
}

/// Write a game built with [`rebuild`] from `a.game`, the moves in canonical notation.
pub fn write_rebuilt(a: &Analysed<'_>, game: &Game, out: &mut String) {
    write_game(
        game,
        &WriteOptions::default(),
        &mut |g, m| a.move_text(g, m, Form::Pdn),
        out,
    );
}
