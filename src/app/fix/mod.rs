//! `pdn fix`: corrected PDN 3.0 records, and the audit of every change.
//!
//! **Normalisation** (always):
//! - moves in canonical notation (see `export`): the short form for unambiguous moves, the
//!   full route of PDN 3.0 rule 9 for ambiguous captures, `x` for captures, squares without
//!   leading zeros; book-style replies become moves of their line; a capture written one
//!   jump per move becomes one move; FMJD's `*` becomes `$7`;
//! - move numbers in sequence (from the first move's number, and from a setup);
//! - `GameType` added when the variant was inferred (or given with `--variant`), and set to
//!   the variant's number when it could not be read or named no variant or another board;
//! - `Result`: the final position when it is decided (the side to move has no legal move,
//!   the main line replayed without error), else the Result tag, else the result that ended
//!   the movetext (PDN 3.0 makes the tag the one place of the result), written in the form
//!   of the variant's result type (`2-0`/`1-1`/`0-2` or `1-0`/`1/2-1/2`/`0-1`) unless a
//!   `ResultFormat` tag says otherwise; scores outside the list (`4-6`) are kept;
//! - `Date`, `EventDate`, `UTCDate`, `PublicationDate` mended to `YYYY.MM.DD` where the
//!   value can mean one date only ([`mend_date`]); `PlyCount` set to the plies of a main line
//!   that replays completely and legally;
//! - what the strict grammar cannot hold made writable (tag names that are no identifiers,
//!   line breaks in tag values, `}` in comments), UTF-8 output.
//!
//! Comments, NAGs, variations, setups and unknown tags are kept. A game whose variant is
//! unknown is written as read (its moves in syntactic normal form). A game that still has
//! errors gets a comment `{pdn: …}` before its first move naming them; a syntax error's
//! comment also holds the text the reader skipped, so nothing is lost (such comments are
//! kept by a later `fix`; the others are written anew).
//!
//! **Repair** (`--repair`, see [`repair`]): corrections of the illegal moves of the main
//! line, each applied only when it is the only one that fits.
//!
//! Every change is a [`Change`] (`--audit` writes them as JSON Lines). A safety net: if the
//! corrected game would have more errors than the game read, the game is written as read.
//!
//! **How a game goes through.** [`fix`] owns the game it fixes and changes it in place: it
//! is *analysed* once as read (validated with a recorder, its move tree brought to normal
//! form); the *plan* is made from that analysis (the changes of notation, the repairs, the
//! tags, the comments), put into the game (tags and main line replaced, new moves' text
//! appended to its source: nothing is copied); the game is *analysed again* as it will be
//! written (the *re-check*: the errors left, the comments naming them), and *written* from
//! that second analysis through the exporter's one PDN writer.

mod changes;
mod comments;
mod repair;
mod tags;

use std::fmt::Write as _;

use crate::rules::Variant;
use crate::syntax::{
    Game, GameParts, Line, ResultToken, SyntaxError, Tag, Tolerated, WriteOptions,
    canonical_move_text, write_parts,
};

use super::diagnostic::Severity;
use super::export::normal::{Settings, normalize};
use super::export::record::{Form, RecordOptions, Recorder};
use super::export::{self, Analysed, ExportOptions, analyse_with, push_json_str};
use super::validate::{Options, Report};
use changes::find_move;
use comments::{append_note, insert_problems, problem_comments, writable_comments};
use repair::Repair;
use tags::{MainInfo, TagFacts, fix_tags};

pub use repair::MAX_REPAIRS;
pub use tags::mend_date;

/// How to fix.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FixOptions {
    /// How to validate (forced variant, file hint).
    pub validate: Options,
    /// Also apply unique probable corrections of illegal moves.
    pub repair: bool,
}

/// One change made to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The ply of the main line it concerns, if it concerns a move.
    pub ply: Option<u32>,
    /// What was there (`None`: nothing, e.g. a tag added).
    pub before: Option<String>,
    /// What is there now (`None`: nothing, e.g. a ply dropped).
    pub after: Option<String>,
    /// Why.
    pub why: String,
}

impl Change {
    fn new(ply: Option<u32>, before: Option<String>, after: Option<String>, why: String) -> Self {
        Change {
            ply,
            before,
            after,
            why,
        }
    }
}

/// A fixed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixed {
    /// The game as strict PDN 3.0.
    pub text: String,
    /// Every change.
    pub changes: Vec<Change>,
    /// Errors of the game read.
    pub errors_before: u32,
    /// Errors of the game written.
    pub errors_after: u32,
    /// Corrections applied by `--repair`.
    pub repairs: u32,
    /// True if the game still has a problem (errors, or text the reader had to skip): it
    /// carries a `{pdn: …}` comment.
    pub unrepaired: bool,
}

/// Append a change as a JSON Lines audit record `{"file","game","ply","before","after","why"}`.
pub fn audit_line(file: &str, game: usize, c: &Change, out: &mut String) {
    out.push_str("{\"file\":");
    push_json_str(out, file);
    let _ = write!(out, ",\"game\":{game},\"ply\":");
    match c.ply {
        Some(p) => {
            let _ = write!(out, "{p}");
        }
        None => out.push_str("null"),
    }
    for (key, v) in [("before", &c.before), ("after", &c.after)] {
        let _ = write!(out, ",\"{key}\":");
        match v {
            Some(s) => push_json_str(out, s),
            None => out.push_str("null"),
        }
    }
    out.push_str(",\"why\":");
    push_json_str(out, &c.why);
    out.push_str("}\n");
}

/// What the first analysis found, kept once the game is changed.
struct Read {
    /// The report of the game as read.
    report: Report,
    /// The `{pdn: …}` comments of an earlier `fix` that normalisation dropped.
    own_comments: Vec<String>,
    /// The changes of the tolerated constructs (also made when the game is written as read).
    notes: Vec<Change>,
    errors_before: u32,
}

/// The parts of the game as read that the plan replaces.
struct Original {
    body: Line,
    errors: Vec<SyntaxError>,
    notes: Vec<Tolerated>,
    tags: Vec<Tag>,
    result: Option<ResultToken>,
}

/// Fix one game (which is changed in place and dropped).
pub fn fix(mut game: Game, opts: &FixOptions) -> Fixed {
    // Analyse the game as read.
    let eopts = ExportOptions {
        validate: opts.validate,
        ..ExportOptions::default()
    };
    let own = Settings {
        drop_own_comments: true,
    };
    let a0 = analyse_with(&game, &eopts, RecordOptions::default(), own);
    let mut notes = Vec::new();
    changes::notes(&game, &a0, &mut notes);
    let Some(variant) = a0.variant() else {
        let Analysed { report, normal, .. } = a0;
        return as_read(
            &mut game,
            Some(normal.body),
            &report,
            &normal.own_comments,
            notes,
        );
    };
    let mut changes = notes.clone();
    changes::structure(&game, &a0, &mut changes);
    let mut plain_moves = Vec::new();
    changes::move_changes(&game, &a0, &[], &mut plain_moves);
    let Analysed {
        report,
        rec,
        normal,
        ..
    } = a0;
    let read = Read {
        errors_before: report.errors(),
        report,
        own_comments: normal.own_comments,
        notes,
    };
    // The plan: the main line in normal form, repaired.
    let mut original = Original {
        body: std::mem::replace(&mut game.body, normal.body),
        errors: std::mem::take(&mut game.errors),
        notes: std::mem::take(&mut game.notes),
        // Replaced once the tags are fixed.
        tags: Vec::new(),
        result: None,
    };
    let forced = ExportOptions {
        validate: Options {
            variant: Some(variant),
            diagrams: false,
            hint: None,
        },
        ..ExportOptions::default()
    };
    let mut repairs = 0;
    let mut several = Vec::new();
    let tried = opts.repair && original.errors.is_empty() && has_main_error(&read.report);
    let outcome = if tried {
        repair::repair(&mut game, &forced, variant)
    } else {
        Repair::Nothing
    };
    let info = match outcome {
        Repair::Repaired(edits, eval) => {
            repairs = edits.len() as u32;
            let (report, rec) = *eval;
            repaired(&mut game, &edits, report, rec, variant, &mut changes)
        }
        other => {
            if let Repair::Several(alts) = other {
                several = alts;
            }
            changes.append(&mut plain_moves);
            MainInfo::of(&read.report, &rec, &game.body, variant)
        }
    };
    let facts = TagFacts {
        variant,
        forced: opts.validate.variant.is_some(),
        report: &read.report,
        info: &info,
        terminator: game.result.as_ref(),
    };
    let mut tags = game.tags.clone();
    fix_tags(&mut tags, &facts, &mut changes);
    writable_comments(&mut game.body, &mut changes);
    // Put the plan into the game.
    original.tags = std::mem::replace(&mut game.tags, tags);
    original.result = game.result.take();
    let plan = Plan {
        original,
        several,
        repairs,
    };
    recheck_and_write(game, &forced, read, plan, changes)
}

/// What the plan replaced and found.
struct Plan {
    original: Original,
    /// What two of several corrections that fit would write (none was applied).
    several: Vec<String>,
    /// Corrections applied.
    repairs: u32,
}

/// Analyse the game as it will be written (the errors left), put the comments naming them
/// into it and write it; or, if it has more errors than the game read, write the game as
/// read.
fn recheck_and_write(
    mut game: Game,
    forced: &ExportOptions,
    read: Read,
    plan: Plan,
    mut changes: Vec<Change>,
) -> Fixed {
    let af = analyse_with(&game, forced, RecordOptions::default(), Settings::default());
    let errors_after = af.report.errors();
    let original = plan.original;
    if errors_after > read.errors_before {
        // Never worse than what was read.
        drop(af);
        game.tags = original.tags;
        game.result = original.result;
        game.body = original.body;
        game.errors = original.errors;
        game.notes = original.notes;
        let mut f = as_read(
            &mut game,
            None,
            &read.report,
            &read.own_comments,
            read.notes,
        );
        f.changes.insert(
            0,
            Change::new(
                None,
                None,
                None,
                "the corrected game had more errors than the game read: written as read".into(),
            ),
        );
        return f;
    }
    let Analysed {
        report,
        rec,
        normal,
        names,
        ..
    } = af;
    let mut problems = problem_comments(&game, &original.errors, &report, &read.own_comments);
    if plan.several.len() > 1 {
        let note = format!(
            "; --repair: several corrections fit ({}), none applied",
            plan.several.join(" or ")
        );
        append_note(&mut problems, &note);
    }
    let unrepaired = !problems.is_empty() || !original.errors.is_empty();
    insert_problems(&mut game.body, &problems, &read.own_comments, &mut changes);
    for old in &read.own_comments {
        if !problems.contains(old) {
            changes.push(Change::new(
                None,
                Some(format!("{{{old}}}")),
                None,
                "comment of an earlier `pdn fix` that no longer applies".into(),
            ));
        }
    }
    let af = Analysed {
        game: &game,
        report,
        rec,
        normal,
        names,
    };
    let parts = GameParts {
        tags: &game.tags,
        body: &game.body,
        result: None,
    };
    let mut text = String::new();
    export::pdn::write_with(&af, parts, &mut text);
    Fixed {
        text,
        changes,
        errors_before: read.errors_before,
        errors_after,
        repairs: plan.repairs,
        unrepaired,
    }
}

/// The repaired game (the edits applied to `game`, `report` and `rec` its replay) brought to
/// normal form, the audit of the repairs and of the notation of its moves, and what its
/// main line's replay found.
fn repaired(
    game: &mut Game,
    edits: &[repair::Edit],
    report: Report,
    rec: Recorder,
    variant: Variant,
    changes: &mut Vec<Change>,
) -> MainInfo {
    let first = Some(variant.rules().first_mover());
    let normal = normalize(game, &rec, &report.diagnostics, first, Settings::default());
    let ra = Analysed {
        game: &*game,
        report,
        rec,
        normal,
        names: Some(export::names(variant, export::Notation::Native)),
    };
    let info = MainInfo::of(&ra.report, &ra.rec, &ra.normal.body, variant);
    for e in edits {
        let after = e
            .new_span
            .and_then(|s| find_move(&ra.normal.body, s))
            .map(|m| ra.move_text(ra.game, m, Form::Pdn));
        changes.push(Change::new(
            Some(e.ply),
            e.before.clone(),
            after,
            format!(
                "repair: {} (the only correction after which the rest of the main line replays legally)",
                e.kind.describe()
            ),
        ));
    }
    // The moves a repair wrote are in the audit already, with their final text.
    let written: Vec<u32> = edits
        .iter()
        .filter_map(|e| e.new_span.map(|s| s.start))
        .collect();
    changes::move_changes(ra.game, &ra, &written, changes);
    let Analysed { normal, .. } = ra;
    game.body = normal.body;
    info
}

/// A game written as read: its moves in syntactic normal form (`body`, else its own), its
/// tags untouched, with a comment naming the problem. `notes` are the changes of its
/// tolerated constructs.
fn as_read(
    game: &mut Game,
    body: Option<Line>,
    report: &Report,
    own_comments: &[String],
    notes: Vec<Change>,
) -> Fixed {
    let mut changes = notes;
    let errors_before = report.errors();
    let problems = problem_comments(game, &game.errors, report, own_comments);
    let mut body = body.unwrap_or_else(|| std::mem::take(&mut game.body));
    writable_comments(&mut body, &mut changes);
    insert_problems(&mut body, &problems, own_comments, &mut changes);
    let parts = GameParts {
        tags: &game.tags,
        body: &body,
        result: game.result.as_ref(),
    };
    let mut text = String::new();
    write_parts(
        game,
        parts,
        &WriteOptions::default(),
        &mut |g, m| canonical_move_text(g, m),
        &mut text,
    );
    let errors_after = errors_before.saturating_sub(game.errors.len() as u32);
    Fixed {
        text,
        changes,
        errors_before,
        errors_after,
        repairs: 0,
        unrepaired: true,
    }
}

/// True if the main line has an error of a move.
fn has_main_error(report: &Report) -> bool {
    report
        .diagnostics
        .iter()
        .any(|d| d.severity() == Severity::Error && d.code.is_move_code() && !d.variation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn audit_lines_are_json() {
        let mut s = String::new();
        audit_line(
            "a \"b\".pdn",
            3,
            &Change::new(Some(7), Some("32-28".into()), None, "why".into()),
            &mut s,
        );
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["ply"], 7);
        assert_eq!(v["after"], serde_json::Value::Null);
        assert_eq!(v["file"], "a \"b\".pdn");
    }
}
