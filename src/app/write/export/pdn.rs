//! Strict PDN 3.0 output: the normal form of a game written by the syntax layer's writer,
//! each move in its canonical notation (see the module documentation of `export`).
//!
//! When the square names asked for are not the variant's own, the `GameType` tag is set to
//! the extended form that describes them, so that a reader knows how to read the squares.

use crate::rules::Variant;
use crate::syntax::{Drain, GameParts, Keep, Span, Tag, WriteOptions, write_parts_to};

use crate::app::model::gametype::parse_game_type;

use super::plies::Form;
use super::{Analysed, ResultStyle, game_type_for};

/// The tags of an exported game: as read, with a `GameType` that makes a reader replay the
/// game in the variant it was replayed in: added when the game had none (the variant was
/// inferred from what the game or its file shows, taken from a `Variant` tag or given with
/// `--variant`; not when nothing showed it, `Verdict::guessed`), set when the one read
/// names another variant or cannot be read, and describing the square names when they are
/// not the variant's own.
pub(crate) fn export_tags(a: &Analysed<'_>) -> Vec<Tag> {
    let mut tags = a.game.tags.clone();
    if let (Some(v), Some(names)) = (a.variant(), &a.names) {
        let native = v.rules().layout.notation == crate::rules::NotationKind::Algebraic;
        let names_it = a
            .game
            .tag("GameType")
            .and_then(|gt| parse_game_type(gt).ok())
            .is_some_and(|gt| {
                Variant::from_game_type(gt.number) == Some(v)
                    && gt.layout.is_none_or(|l| {
                        (l.notation == crate::rules::NotationKind::Algebraic) == names.algebraic
                    })
            });
        // (Not for a variant that nothing showed: the reader guesses it again.)
        if names.algebraic != native || (!names_it && !a.report.guessed) {
            let value = game_type_for(v, names);
            match tags.iter_mut().find(|t| t.name == "GameType") {
                Some(t) => t.value = value,
                // First among the tags after the seven standard ones (the writer puts
                // those first).
                None => tags.insert(0, Tag::new("GameType", value, Span::default())),
            }
        }
    }
    tags
}

/// Write a game as strict PDN 3.0: the exported tags, the normal form of its moves, the
/// movetext ending with the result it ended with as read when that disagrees with the
/// `Result` tag (nothing read is lost), else with `*` or (`ResultStyle::Terminator`) the
/// result.
pub fn write(a: &Analysed<'_>, out: &mut String) {
    write_to(a, out, &mut Keep);
}

/// [`write()`] handing the text to `drain` as it grows (see `app::write::spill`).
pub fn write_to(a: &Analysed<'_>, out: &mut String, drain: &mut dyn Drain) {
    debug_assert!(
        a.by_record.is_none(),
        "a tree to write (only JSON reads a record)"
    );
    let tags = export_tags(a);
    let parts = GameParts {
        tags: &tags,
        body: &a.normal.body,
        result: a.game.result.as_ref(),
    };
    let opts = WriteOptions {
        keep_terminator: true,
        numbers_as_given: true,
        result_terminator: a.result_style == ResultStyle::Terminator,
        ..WriteOptions::default()
    };
    write_with(a, parts, &opts, out, drain);
}

/// Write the game of `a` as strict PDN 3.0 with the given tags, main line and result: the one
/// way every PDN output is written. The moves of `parts` are those of `a.game` (their spans
/// index its text): each is written in canonical notation when the replay of `a` found it
/// legal, else in its syntactic normal form; the text handed to `drain` as it grows.
pub(crate) fn write_with(
    a: &Analysed<'_>,
    parts: GameParts<'_>,
    opts: &WriteOptions,
    out: &mut String,
    drain: &mut dyn Drain,
) {
    write_parts_to(
        a.game,
        parts,
        opts,
        &mut |g, m| a.move_text(g, m, Form::Pdn),
        out,
        drain,
    );
}
