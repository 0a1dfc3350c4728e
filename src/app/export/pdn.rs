//! Strict PDN 3.0 output: the normal form of a game written by the syntax layer's writer,
//! each move in its canonical notation (see the module documentation of `export`).
//!
//! When the square names asked for are not the variant's own, the `GameType` tag is set to
//! the extended form that describes them, so that a reader knows how to read the squares.

use crate::syntax::{GameParts, Span, Tag, WriteOptions, write_parts};

use super::record::Form;
use super::{Analysed, game_type_for};

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

/// Write a game as strict PDN 3.0: the exported tags, the normal form of its moves.
pub fn write(a: &Analysed<'_>, out: &mut String) {
    let tags = export_tags(a);
    let parts = GameParts {
        tags: &tags,
        body: &a.normal.body,
        result: a.game.result.as_ref(),
    };
    write_with(a, parts, out);
}

/// Write the game of `a` as strict PDN 3.0 with the given tags, main line and result: the one
/// way every PDN output is written. The moves of `parts` are those of `a.game` (their spans
/// index its text): each is written in canonical notation when the replay of `a` found it
/// legal, else in its syntactic normal form.
pub fn write_with(a: &Analysed<'_>, parts: GameParts<'_>, out: &mut String) {
    write_parts(
        a.game,
        parts,
        &WriteOptions::default(),
        &mut |g, m| a.move_text(g, m, Form::Pdn),
        out,
    );
}
