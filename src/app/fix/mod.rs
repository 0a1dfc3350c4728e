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
//! Comments, NAGs, variations, setups and unknown tags are kept (variations left out with
//! `--main-line`). A game whose variant is unknown is written as read (its moves in
//! syntactic normal form). Every syntax error is kept where it was found, as a comment that
//! says so (`{pdn: unreadable: …}` with the text the reader skipped, `{pdn: syntax-error: …}`
//! otherwise; see `export::normal`), so nothing is lost and the output, validated, still
//! reports it. A game that still has other errors gets a comment `{pdn: …}` before its
//! first move naming them (written anew by a later `fix`).
//!
//! **Repair** (`--repair`, module `repair`): corrections of the illegal moves of the main
//! line, each applied only when it clearly fits better than any other; with
//! `--keep-irregular`, an irregular move that no correction explains and that the board
//! allows stands, with a setup of the position after it.
//!
//! Every change is a [`Change`] (`--audit` writes them as JSON Lines). A safety net: if the
//! corrected game would have more errors than the game read, the game is written as read;
//! such a game (and one of an unknown variant) says so in [`Fixed::as_read`], so that the
//! command line names it and fails. The errors counted after are those of the text written,
//! read back and validated.
//!
//! **How a game goes through.** [`fix`] owns the game it fixes and changes it in place: it
//! is *analysed* once as read (validated with a recorder, its move tree brought to normal
//! form); the *plan* is made from that analysis (the changes of notation, the repairs, the
//! tags, the comments), put into the game (tags and main line replaced, new moves' text
//! appended to its source: nothing is copied); the game is *analysed again* as it will be
//! written (the *re-check*: the errors left, the comments naming them), and *written* from
//! that second analysis through the exporter's one PDN writer.
//!
//! **A game written from its record** ([`fix_ref`]): a game with no error whose normal form
//! is its own tree renumbered (the usual game, and the usual huge one) needs no change but
//! its numbers, notation, tags and comment text: it is replayed on the record it was read
//! into, its changes found there, and it is written from the record and its text
//! (`export::pdn::write_by_record`): no owned tree, no re-check. So is a game whose only
//! errors are syntax errors after its main line (a huge game cut at the size limit): their
//! markers end its main line. The same text, changes and counts as the path above, which
//! takes every other game.

mod changes;
mod comments;
mod repair;
mod tags;

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

use crate::syntax::{
    Drain as _, Game, GameEnd, GameParts, Item, Line, MAX_MAX_GAME_SIZE, MoveKind, Reader,
    ResultToken, Span, Squares, SyntaxError, Tag, Tolerated, WriteOptions, canonical_move_text,
    game_of_text, write_parts_to,
};

use crate::app::judge::diagnostic::{Code, Severity};
use crate::app::judge::replay::Ignore;
use crate::app::judge::validate::{Options, Verdict, validate, validate_record};
use crate::app::model::reading::{Fill, GameRef};
use crate::app::model::record::{Filler, Node, Record};
use crate::app::write::export::normal::{Joined, Normal, Settings};
use crate::app::write::export::plies::{Form, PlyOptions};
use crate::app::write::export::{
    self, Analysed, ByRecord, ExportOptions, ResultStyle, analyse_in_place, analyse_numbering,
    analyse_ref_in_place, analyse_replayed_with,
};
use crate::app::write::jsonl::push_str as push_json_str;
use crate::app::write::spill::{Spill, Text};
use changes::{Body, find_move};
use comments::{
    append_note, insert_problems, problem_comments, writable_comments, writable_comments_of,
};
use tags::{MainInfo, RecordTags, TagFacts, fix_tags};

pub use repair::MAX_REPAIRS;
pub use tags::{DATE_TAGS, DateEvidence, DateOrder, file_date_order, mend_date, mend_date_in};

/// How to fix.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FixOptions {
    /// How to validate (forced variant, file hint).
    pub validate: Options,
    /// Also apply unique probable corrections of illegal moves.
    pub repair: bool,
    /// Keep irregular moves that no correction explains, with a setup after each.
    pub keep_irregular: bool,
    /// How each game ends (`--result-style`).
    pub result_style: ResultStyle,
    /// The order of day and month in the dates of the game's file (`--date-order`, or
    /// what the file's unambiguous dates show: [`file_date_order`]).
    pub date_order: Option<DateOrder>,
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

    /// Set `field` (no move's: a tag's, a comment's) to `value`: the change, from what it was.
    fn set(field: &mut String, value: String, why: String) -> Self {
        let before = std::mem::replace(field, value.clone());
        Change::new(None, Some(before), Some(value), why)
    }
}

/// Write `field` as `writable` has it (what the strict grammar can hold), a change (`why`)
/// where that differs.
fn make_writable(
    field: &mut String,
    writable: impl FnOnce(&str) -> Cow<'_, str>,
    why: impl FnOnce() -> String,
    changes: &mut Vec<Change>,
) {
    let w = writable(field);
    if *w != **field {
        let w = w.into_owned();
        changes.push(Change::set(field, w, why()));
    }
}

/// A fixed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixed {
    /// The game as strict PDN 3.0 ([`fix`]; empty from [`fix_to`], which returns it apart).
    pub text: String,
    /// Every change.
    pub changes: Vec<Change>,
    /// Errors of the game read.
    pub errors_before: u32,
    /// Errors of the game written: its text read back and validated as `validate` would.
    pub errors_after: u32,
    /// Corrections applied by `--repair`.
    pub repairs: u32,
    /// Irregular moves kept by `--keep-irregular`.
    pub kept: u32,
    /// True if the game still has a problem (errors, or text the reader had to skip): it
    /// carries a `{pdn: …}` comment.
    pub unrepaired: bool,
    /// Why the game was written as read (its moves in syntactic normal form, its tags
    /// untouched), if it was.
    pub as_read: Option<AsRead>,
}

/// Why a game was written as read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsRead {
    /// No variant could be read or inferred: nothing could be replayed.
    UnknownVariant,
    /// The corrected game had more errors than the game read.
    MoreErrors,
}

impl AsRead {
    /// What it means, for a summary.
    pub fn reason(self) -> &'static str {
        match self {
            AsRead::UnknownVariant => "unknown variant",
            AsRead::MoreErrors => "the corrected game had more errors",
        }
    }
}

/// The errors of the games of `text` (what `fix` wrote) read back and validated with `opts`:
/// the summary's count of what was written, not of what was planned. Read as `validate`
/// reads, into a record (no owned `Game`: a huge game is not held once more), from the
/// temporary file if the text went there (a text that could not be written there counts
/// nothing: its output fails where it is written out). `like`: the record of the game read,
/// if it is at hand: the record of the text written starts with buffers of its sizes (a copy
/// of it), so that a huge game's, which holds about as many nodes, is not grown by doubling
/// to up to twice its size. A long text is read into a buffer of its size, made at once
/// (not grown by doubling from 64 KiB to up to twice its size: [`recount_buffer`]).
fn recount(text: &mut Text, opts: &Options, like: Option<&Record>) -> u32 {
    let buffer = recount_buffer(text.len());
    match text.reader() {
        Ok(r) => recount_from(r, opts, like, buffer),
        Err(_) => 0,
    }
}

/// The reader's buffer for the recount of a text of `len` bytes: the default for a short
/// text; for a long one (from [`LONG_GAME`]) one byte more than the text (the whole text
/// fits, and the read that finds its end needs no growth), within what the reader allows.
fn recount_buffer(len: u64) -> Option<usize> {
    let len = usize::try_from(len).unwrap_or(usize::MAX);
    (len >= LONG_GAME).then(|| len.saturating_add(1).min(2 * MAX_MAX_GAME_SIZE))
}

fn recount_from(
    text: impl std::io::Read,
    opts: &Options,
    like: Option<&Record>,
    buffer: Option<usize>,
) -> u32 {
    let mut reader = Reader::new(text).with_max_game_size(MAX_MAX_GAME_SIZE);
    if let Some(n) = buffer {
        reader = reader.with_buffer_size(n);
    }
    let mut filler = Filler::new();
    if let Some(r) = like {
        // (A copy made at its sizes, whose buffers the filler clears and fills again.)
        filler.record.copy_from(r);
    }
    // Validates each record and counts its errors.
    let mut count =
        Fill::new(
            &mut filler,
            |f: &mut Filler, end: &GameEnd<'_>| match std::str::from_utf8(end.text) {
                Ok(source) => validate_record(&f.record, source, opts, &mut Ignore).errors(),
                Err(_) => validate(&end.to_game(), opts).errors(),
            },
        );
    let mut errors = 0;
    // (A read error of the temporary file ends the count.)
    while let Ok(Some(n)) = reader.read_driven(&mut count) {
        errors += n;
    }
    errors
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
    report: Verdict,
    /// The `{pdn: …}` comments of an earlier `fix` that normalisation dropped.
    own_comments: Vec<String>,
    /// The changes of the tolerated constructs (also made when the game is written as read).
    notes: Vec<Change>,
    errors_before: u32,
    /// How the game was validated (to recount what is written as a reader would).
    validate: Options,
}

/// The parts of the game as read that the plan replaces.
struct Original {
    /// The move tree as read, kept for a short game only (a long one is read again from its
    /// text, `source[..source_len]`, as `GameRef::to_game` reads it, in the rare case it is
    /// written as read): the tree is given up to the normal form, never held twice.
    body: Option<Line>,
    /// The length of the text as read (the plan appends the text of new moves to it).
    source_len: usize,
    errors: Vec<SyntaxError>,
    notes: Vec<Tolerated>,
    /// The tags as read (`None`: those of `source[..source_len]`, read again from it).
    tags: Option<Vec<Tag>>,
    result: Option<ResultToken>,
}

impl Original {
    /// Put the parts of the game as read back into `game` (whose text is the text as read
    /// and the text of the plan's new moves after it): the tree and the tags as read, a long
    /// game's read again from its text where they were not kept.
    fn restore(self, game: &mut Game) {
        let mut again = match (&self.body, &self.tags) {
            (Some(_), Some(_)) => None,
            _ => {
                let text = game.source.get(..self.source_len).unwrap_or_default();
                Some(game_of_text(text, &[], &[]))
            }
        };
        game.body = match (self.body, again.as_mut()) {
            (Some(body), _) => body,
            (None, Some(g)) => std::mem::take(&mut g.body),
            (None, None) => Line::default(),
        };
        game.tags = match (self.tags, again) {
            (Some(tags), _) => tags,
            (None, Some(g)) => g.tags,
            (None, None) => Vec::new(),
        };
        game.result = self.result;
        game.errors = self.errors;
        game.notes = self.notes;
    }
}

/// Fix one game (which is changed in place and dropped).
pub fn fix(game: Game, opts: &FixOptions) -> Fixed {
    let (mut f, text) = fix_to(game, opts, Spill::new(usize::MAX));
    f.text = text.into_string();
    f
}

/// [`fix`] writing the game's text through `spill` (a huge game's text goes to a temporary
/// file as it is written, and is read back from there to count its errors): the text
/// apart, [`Fixed::text`] empty.
pub fn fix_to(game: Game, opts: &FixOptions, spill: Spill) -> (Fixed, Text) {
    fix_long(None, None, game, opts, spill, LONG_GAME)
}

/// [`fix_to`] of `game`, the owned game of `g` ([`GameRef::to_game`]) with its tags as read:
/// the game as read is replayed from the record `g` was read into, so that no second record
/// of it is made (a huge game's is not held twice), and a long game's tags as read are not
/// kept beside the fixed ones (read again from its text in the rare case it is written as
/// read).
pub fn fix_ref_to(g: &GameRef<'_>, game: Game, opts: &FixOptions, spill: Spill) -> (Fixed, Text) {
    fix_long(Some(g), None, game, opts, spill, LONG_GAME)
}

/// [`fix_ref_to`] of the game of `g`, its owned game made only if it is needed: a game that
/// needs no change but its numbers, notation and tags (its normal form is its own tree
/// renumbered, `normal::numbering_only`, and it has no error but syntax errors after its main
/// line, as a game cut at the size limit has) is written from the record it was read into and
/// its text, with no owned tree and no re-check of a changed tree (a huge game costs its record
/// and the replay's record of its moves); the same text, changes and counts as
/// [`fix_ref_to`] gives.
pub fn fix_ref(g: &GameRef<'_>, opts: &FixOptions, spill: Spill) -> (Fixed, Text) {
    let eopts = ExportOptions {
        validate: opts.validate,
        ..ExportOptions::default()
    };
    let replay = export::replay_ref(g, &eopts);
    let (replay, spill) = if on_record(g, &replay) {
        let at = spill.at();
        match fix_by_record(g, replay, opts, &eopts, spill) {
            Some(done) => return done,
            // (The text written, read back, has other errors than the game's: the game is
            // fixed on its tree, which names them.)
            None => (export::replay_ref(g, &eopts), Spill::new(at)),
        }
    } else {
        (replay, spill)
    };
    fix_long(Some(g), Some(replay), g.to_game(), opts, spill, LONG_GAME)
}

/// True if the game of `g`, replayed on its record (`replay`), is fixed on its record
/// ([`fix_by_record`]): its normal form is its tree renumbered (a syntax error only after its
/// main line: a game cut at the size limit), it has no other error (no repair to try, nothing
/// to name in a `{pdn: …}` comment), no comment of an earlier `pdn fix`, and its variant is
/// known.
fn on_record(g: &GameRef<'_>, replay: &ByRecord) -> bool {
    replay.fits()
        && replay
            .report()
            .diagnostics
            .iter()
            .all(|d| d.severity() != Severity::Error || d.code == Code::SyntaxError)
        && replay.report().variant.is_some()
        && !g.record.own_comments()
}

/// [`fix_long`] of a game that [`on_record`] admits, written from its record: the changes of
/// the tree path in its order (notes, syntax errors kept, variations left out, notation,
/// tags, comments made writable), the text written by `export::pdn::write_by_record` (the
/// markers of the syntax errors after the main line) and read back to count its errors.
/// `None` if it has others than its markers (the tree path writes a game with errors
/// otherwise: a comment names them, or it is written as read).
fn fix_by_record(
    g: &GameRef<'_>,
    replay: ByRecord,
    opts: &FixOptions,
    eopts: &ExportOptions,
    mut spill: Spill,
) -> Option<(Fixed, Text)> {
    let (record, source) = (g.record, g.text);
    let shell = ByRecord::shell(g);
    let a = export::analyse_by_record(g, &shell, replay, eopts);
    let variant = a.variant()?;
    let mut changes = Vec::new();
    changes::notes(
        source,
        &record.notes,
        &a,
        Body::Record(record),
        &mut changes,
    );
    for e in &record.errors {
        changes.push(kept_error(source, e));
    }
    // (No structure changes: no reply made a move, no capture joined.)
    let main_line = opts.validate.main_line;
    if main_line {
        let n = record
            .items(record.body())
            .filter(|(_, n)| matches!(n, Node::Variation { .. }))
            .count();
        if n > 0 {
            changes.push(Change::new(
                None,
                None,
                None,
                format!("variations left out (--main-line): {n}"),
            ));
        }
    }
    changes::move_changes(source, &a, Body::Record(record), &[], &mut changes);
    let main = record.items(record.body()).filter_map(|(_, n)| match n {
        Node::Move(m) => Some(m.span.start),
        _ => None,
    });
    let info = MainInfo::of(&a.report, &a.rec, main, variant);
    // (Only the tags `fix_tags` may read or change are taken out of the record: a game of
    // many tags is not held again as owned strings.)
    let mut tags = RecordTags::of(record);
    let terminator = record.result().map(|(text, span)| ResultToken {
        text: text.to_string(),
        span,
    });
    let facts = TagFacts {
        variant,
        forced: opts.validate.variant.is_some(),
        report: &a.report,
        info: &info,
        terminator: terminator.as_ref(),
        date_order: opts.date_order,
    };
    fix_tags(&mut tags.fixed, &facts, &mut changes);
    writable_comments_of(record, source, main_line, &mut changes);
    let wopts = WriteOptions {
        numbers_as_given: true,
        result_terminator: opts.result_style == ResultStyle::Terminator,
        ..WriteOptions::default()
    };
    let markers = export::normal::end_markers(source, &record.errors);
    let mut text = String::new();
    export::pdn::write_by_record(
        &a,
        &tags,
        &wopts,
        (main_line, &markers),
        &mut text,
        &mut spill,
    );
    let mut text = spill.finish(text);
    let errors_before = a.report.errors();
    // The replay's record is not held while the text is read back.
    drop(a);
    drop(tags);
    let like = (source.len() >= LONG_GAME).then_some(record);
    let errors_after = recount(&mut text, &opts.validate, like);
    // (The text read back has as many errors as the game had, its markers; any other count
    // sends the game to the tree path.)
    (errors_after == errors_before).then(|| {
        let fixed = Fixed {
            text: String::new(),
            changes,
            errors_before,
            errors_after,
            repairs: 0,
            kept: 0,
            unrepaired: !record.errors.is_empty() || errors_after > 0,
            as_read: None,
        };
        (fixed, text)
    })
}

/// The change of a syntax error of the game whose text is `source`: kept where it was found,
/// as a marker comment (`normal::marker_in`).
fn kept_error(source: &str, e: &SyntaxError) -> Change {
    let skipped = export::normal::skipped_text(source, e);
    Change::new(
        None,
        (!skipped.is_empty()).then(|| skipped.to_string()),
        Some(format!("{{{}}}", export::normal::marker_in(source, e))),
        "syntax error kept where it was found, as a comment that says so".into(),
    )
}

/// The starts of the moves of a line.
fn main_moves(line: &Line) -> impl Iterator<Item = u32> + '_ {
    line.items.iter().filter_map(|i| match i {
        Item::Move(m) => Some(m.span.start),
        _ => None,
    })
}

/// [`fix_to`] (of the game of `of` if given: [`fix_ref_to`]), a game of at least `long`
/// bytes of text taken as long (see [`LONG_GAME`]).
fn fix_long(
    of: Option<&GameRef<'_>>,
    replayed: Option<ByRecord>,
    mut game: Game,
    opts: &FixOptions,
    spill: Spill,
    long: usize,
) -> (Fixed, Text) {
    let long = game.source.len() >= long;
    // What the plan needs of the tree as read once it is given up to the normal form: a short
    // game keeps it whole (to be written as read if the corrected game is worse), and
    // `--repair` the move numbers written.
    let kept = (!long).then(|| game.body.clone());
    let numbers = (opts.repair || opts.keep_irregular).then(|| repair::Numbers::of(&game.body));
    let source_len = game.source.len();
    // Analyse the game as read.
    let eopts = ExportOptions {
        validate: opts.validate,
        ..ExportOptions::default()
    };
    let own = Settings {
        drop_own_comments: true,
    };
    let a0 = match (of, replayed) {
        (_, Some(replay)) => analyse_replayed_with(&mut game, replay, &eopts, own),
        (Some(g), None) => analyse_ref_in_place(g, &mut game, &eopts, PlyOptions::default(), own),
        (None, None) => analyse_in_place(&mut game, &eopts, PlyOptions::default(), own),
    };
    let mut notes = Vec::new();
    changes::notes(
        &a0.game.source,
        &a0.game.notes,
        &a0,
        Body::Tree(&a0.normal.body),
        &mut notes,
    );
    for e in &a0.game.errors {
        notes.push(kept_error(&a0.game.source, e));
    }
    let Some(variant) = a0.variant() else {
        let Analysed { report, normal, .. } = a0;
        game.body = normal.body;
        return as_read(
            &mut game,
            true,
            &report,
            &normal.own_comments,
            notes,
            (AsRead::UnknownVariant, &opts.validate, opts.result_style),
            spill,
        );
    };
    let mut changes = notes.clone();
    changes::structure(a0.game, &a0, &mut changes);
    let mut plain_moves = Vec::new();
    changes::move_changes(
        &a0.game.source,
        &a0,
        Body::Tree(&a0.normal.body),
        &[],
        &mut plain_moves,
    );
    let Analysed {
        report,
        rec,
        mut normal,
        ..
    } = a0;
    let read = Read {
        errors_before: report.errors(),
        report,
        own_comments: std::mem::take(&mut normal.own_comments),
        notes,
        validate: opts.validate,
    };
    // The plan: the main line in normal form, repaired.
    game.body = std::mem::take(&mut normal.body);
    let mut original = Original {
        body: kept,
        source_len,
        errors: std::mem::take(&mut game.errors),
        notes: std::mem::take(&mut game.notes),
        // Set once the tags are fixed.
        tags: None,
        result: None,
    };
    if opts.validate.main_line {
        left_out(&mut game.body, &mut changes);
    }
    let forced = ExportOptions {
        validate: Options {
            variant: Some(variant),
            diagrams: false,
            hint: None,
            main_line: opts.validate.main_line,
        },
        result_style: opts.result_style,
        ..ExportOptions::default()
    };
    join_captures(&mut game, &normal);
    let joined = normal.joined;
    drop(normal.fragments);
    let settings = repair::Settings {
        search: opts.repair,
        keep_irregular: opts.keep_irregular,
    };
    let tried = (settings.search || settings.keep_irregular)
        && original.errors.is_empty()
        && has_main_error(&read.report);
    let outcome = if tried && let Some(numbers) = &numbers {
        let informative = read
            .report
            .diagnostics
            .iter()
            .any(|d| d.code == Code::MoveNumber && !d.variation);
        let written = repair::Written {
            numbers,
            informative,
        };
        repair::repair(&mut game, variant, settings, written)
    } else {
        repair::Outcome::default()
    };
    let changed = !outcome.applied.is_empty() || !outcome.kept.is_empty();
    let info = if changed {
        MainInfo::of_replay(outcome.replay.as_ref(), variant)
    } else {
        changes.append(&mut plain_moves);
        MainInfo::of(&read.report, &rec, main_moves(&game.body), variant)
    };
    // The record of the game as read is not needed past here (a ply record for each move: let
    // it go before the re-check makes its own).
    drop(rec);
    // The audit of the corrections (and of the notation of the moves of a corrected game) is
    // written once their text is known: from the re-check.
    let repairs_at = changes.len();
    let facts = TagFacts {
        variant,
        forced: opts.validate.variant.is_some(),
        report: &read.report,
        info: &info,
        terminator: game.result.as_ref(),
        date_order: opts.date_order,
    };
    // The tags as read are kept for the game written as read, unless they are those of its
    // text and it is long: read again from the text then (a huge game of tags is not held
    // twice).
    let mut tags = std::mem::take(&mut game.tags);
    original.tags = (!long || of.is_none()).then(|| tags.clone());
    fix_tags(&mut tags, &facts, &mut changes);
    game.tags = tags;
    writable_comments(&mut game.body, &mut changes);
    // Put the plan into the game.
    original.result = game.result.take();
    let plan = Plan {
        original,
        repairs: outcome.applied.len() as u32,
        kept: outcome.kept,
        note: outcome.left.as_ref().map(repair::Left::note),
        applied: outcome.applied,
        repairs_at,
        joined: joined.iter().map(|j| j.first.start).collect(),
    };
    let like = of.filter(|_| long).map(|g| g.record);
    recheck_and_write(game, &forced, read, plan, changes, (spill, long, like))
}

/// The size of a game's text (bytes) from which the re-check validates it before analysing
/// it (see [`recheck_and_write`]).
const LONG_GAME: usize = 1 << 20;

/// What the plan replaced and found.
struct Plan {
    original: Original,
    /// Corrections applied.
    repairs: u32,
    /// Irregular moves kept.
    kept: Vec<repair::Kept>,
    /// What `--repair` says of the first error it left.
    note: Option<String>,
    /// The corrections applied, for the audit.
    applied: Vec<repair::Applied>,
    /// Where their changes go in the audit.
    repairs_at: usize,
    /// The captures written one jump per move, joined (by where their first jump starts).
    joined: Vec<u32>,
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
    (spill, long, like): (Spill, bool, Option<&Record>),
) -> (Fixed, Text) {
    let original = plan.original;
    // A long game is first only validated (its errors counted, with no record of its plies):
    // the re-check's analysis (which numbers the moves of the game in place) is made only
    // when it is not worse than the game read, for one replay more of such games only.
    let af = if long {
        (validate(&game, &forced.validate).errors() <= read.errors_before)
            .then(|| analyse_numbering(&mut game, forced))
    } else {
        Some(analyse_numbering(&mut game, forced))
            .filter(|af| af.report.errors() <= read.errors_before)
    };
    let af = match af {
        Some(af) => af,
        None => {
            // Never worse than what was read.
            original.restore(&mut game);
            let mut f = as_read(
                &mut game,
                false,
                &read.report,
                &read.own_comments,
                read.notes,
                (AsRead::MoreErrors, &read.validate, forced.result_style),
                spill,
            );
            f.0.changes.insert(
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
    };
    let Analysed {
        report,
        rec,
        normal,
        names,
        ..
    } = af;
    let mut problems = problem_comments(&game, &report);
    if let Some(note) = &plan.note {
        append_note(&mut problems, note);
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
    // (The moves carry the numbers the re-check's normal form gives them: a number stands
    // where the count changes otherwise than by alternation, after a `wrong-side` move;
    // written as given.)
    let af = Analysed {
        game: &game,
        report,
        rec,
        normal,
        names,
        result_style: forced.result_style,
        by_record: None,
        source: &game.source,
    };
    if !plan.applied.is_empty() || !plan.kept.is_empty() {
        let mut audit = Vec::new();
        repair_changes(&af, &plan.applied, &mut audit);
        for k in &plan.kept {
            audit.push(Change::new(
                Some(k.ply),
                Some(k.written.clone()),
                Some(format!("/FEN \"{}\"/", k.fen)),
                "irregular move kept as played (FMJD 5.4): the position after it written as a setup"
                    .into(),
            ));
        }
        let mut skip: Vec<u32> = plan
            .applied
            .iter()
            .flat_map(|a| a.written.iter().map(|w| w.0))
            .collect();
        skip.extend(&plan.joined);
        changes::move_changes(&game.source, &af, Body::Tree(&game.body), &skip, &mut audit);
        changes.splice(plan.repairs_at..plan.repairs_at, audit);
    }
    let parts = GameParts {
        tags: &game.tags,
        body: &game.body,
        result: None,
    };
    let opts = WriteOptions {
        numbers_as_given: true,
        result_terminator: forced.result_style == ResultStyle::Terminator,
        ..WriteOptions::default()
    };
    let mut text = String::new();
    let mut spill = spill;
    export::pdn::write_with(&af, parts, &opts, &mut text, &mut spill);
    let mut text = spill.finish(text);
    // The game and its analyses are no longer needed: not held while the text is read back.
    drop(af);
    drop(game);
    // The count of what was written, read back as a reader would.
    let errors_after = recount(&mut text, &read.validate, like);
    let fixed = Fixed {
        text: String::new(),
        changes,
        errors_before: read.errors_before,
        errors_after,
        repairs: plan.repairs,
        kept: plan.kept.len() as u32,
        unrepaired: unrepaired || errors_after > 0,
        as_read: None,
    };
    (fixed, text)
}

/// The audit of the corrections applied, the text of the moves they wrote from the
/// re-check `af`.
fn repair_changes(af: &Analysed<'_>, applied: &[repair::Applied], changes: &mut Vec<Change>) {
    for a in applied {
        let texts: Vec<String> = a
            .written
            .iter()
            .filter_map(|&(start, _)| find_move(&af.game.body, Span::at(start)))
            .map(|m| af.move_text(af.game, m, Form::Pdn))
            .collect();
        let joined = |v: &[String]| (!v.is_empty()).then(|| v.join(" "));
        changes.push(Change::new(
            Some(a.ply),
            joined(&a.before),
            joined(&texts),
            format!("repair: {}", a.why),
        ));
    }
}

/// Write each capture that was written one jump per move as one move: the first jump's item
/// (in the normal form, `game.body`) gets the squares of the whole capture (its record is the
/// joined move's), those of the later fragments taken from `normal`, which dropped them.
fn join_captures(game: &mut Game, normal: &Normal) {
    if normal.joined.is_empty() {
        return;
    }
    // One walk of the tree, each move looked up among the joined captures (a walk per capture
    // would take quadratic time in a game of many variations).
    let joined: HashMap<u32, &Joined> = normal.joined.iter().map(|j| (j.first.start, j)).collect();
    let mut stack = vec![&mut game.body];
    while let Some(l) = stack.pop() {
        for item in &mut l.items {
            match item {
                Item::Move(first) => {
                    let Some(j) = joined.get(&first.span.start) else {
                        continue;
                    };
                    let mut squares = first.squares.to_vec();
                    for s in &j.dropped {
                        if let Some(m) = normal.fragment(s.start) {
                            squares.extend(m.squares.iter().skip(1).copied());
                        }
                    }
                    first.squares = Squares::from(squares.as_slice());
                    first.kind = MoveKind::Capture('x');
                }
                Item::Variation(v) => stack.push(&mut v.line),
                _ => {}
            }
        }
    }
}

/// A game written as read: its moves in syntactic normal form (its tree as read, or `normal`:
/// its tree in normal form, its syntax errors kept in it already), its tags untouched, with
/// a comment naming the problem. `notes` are the changes of its tolerated constructs.
fn as_read(
    game: &mut Game,
    normal: bool,
    report: &Verdict,
    own_comments: &[String],
    notes: Vec<Change>,
    (why, validate, style): (AsRead, &Options, ResultStyle),
    mut spill: Spill,
) -> (Fixed, Text) {
    let mut changes = notes;
    let errors_before = report.errors();
    let problems = problem_comments(game, report);
    // (With `--main-line` too, nothing is left out here: which parentheses hold variations
    // and which book-style replies is known only from a replay.)
    let mut body = std::mem::take(&mut game.body);
    if !normal {
        // The body as read: its syntax errors kept where they were found, as the normal form
        // keeps them.
        export::normal::keep_errors(game, &mut body);
    }
    writable_comments(&mut body, &mut changes);
    insert_problems(&mut body, &problems, own_comments, &mut changes);
    let parts = GameParts {
        tags: &game.tags,
        body: &body,
        result: game.result.as_ref(),
    };
    let mut text = String::new();
    let opts = WriteOptions {
        result_terminator: style == ResultStyle::Terminator,
        ..WriteOptions::default()
    };
    write_parts_to(
        game,
        parts,
        &opts,
        &mut |g, m| canonical_move_text(g, m),
        &mut text,
        &mut spill,
    );
    let mut text = spill.finish(text);
    let errors_after = recount(&mut text, validate, None);
    let fixed = Fixed {
        text: String::new(),
        changes,
        errors_before,
        errors_after,
        repairs: 0,
        kept: 0,
        unrepaired: true,
        as_read: Some(why),
    };
    (fixed, text)
}

/// `--main-line`: the variations of the main line left out (their own variations with
/// them; book-style replies are moves of the main line by now), one change for them all.
fn left_out(body: &mut Line, changes: &mut Vec<Change>) {
    let before = body.items.len();
    body.items.retain(|i| !matches!(i, Item::Variation(_)));
    let n = before - body.items.len();
    if n > 0 {
        changes.push(Change::new(
            None,
            None,
            None,
            format!("variations left out (--main-line): {n}"),
        ));
    }
}

/// True if the main line has an error of a move.
fn has_main_error(report: &Verdict) -> bool {
    report
        .diagnostics
        .iter()
        .any(|d| d.severity() == Severity::Error && d.code.is_move_code() && !d.variation)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fix with its text in [`Fixed::text`].
    fn with_text((mut f, text): (Fixed, Text)) -> Fixed {
        f.text = text.into_string();
        f
    }

    /// The tree path's fix of the game of `g` (what the record path must equal).
    fn on_tree(g: &GameRef<'_>, opts: &FixOptions) -> Fixed {
        with_text(fix_ref_to(g, g.to_game(), opts, Spill::new(usize::MAX)))
    }

    /// A long game (its tree as read not kept: read again from its text if it is written as
    /// read; numbered in place by its re-check) is fixed as a short one is, and a game
    /// replayed from the record it was read into (`fix_ref_to`: no record of its tree; a long
    /// one's tags as read not kept) as one replayed from its tree: the same text, changes and
    /// counts, with and without repairs, on every game of the fixtures.
    #[test]
    fn a_long_game_is_fixed_as_a_short_one() {
        use crate::app::model::reading::FileGames;
        let root = crate::project_root().join("fixtures");
        let mut dirs = vec![root];
        let (mut games, mut as_read) = (0, 0);
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                    continue;
                }
                if p.extension().is_none_or(|x| x != "pdn") {
                    continue;
                }
                let bytes = std::fs::read(&p).unwrap();
                let mut reader = Reader::new(&bytes[..]);
                let mut file = FileGames::new(0);
                // As the command line gives it (`GameRef::to_game`): read from its text, as a
                // long game written as read is read again.
                while let Some(()) = file
                    .next(&mut reader, |g| {
                        let game = g.to_game();
                        for repair in [false, true] {
                            // (With the file's hint, as the command line gives it.)
                            let opts = FixOptions {
                                repair,
                                keep_irregular: repair,
                                validate: g.options(&Options::default()),
                                ..FixOptions::default()
                            };
                            let fixed = |read: Option<&GameRef<'_>>, long| {
                                let (mut f, text) = fix_long(
                                    read,
                                    None,
                                    game.clone(),
                                    &opts,
                                    Spill::new(usize::MAX),
                                    long,
                                );
                                f.text = text.into_string();
                                f
                            };
                            let short = fixed(None, usize::MAX);
                            let place = format!("{}, game {}", p.display(), game.index);
                            assert_eq!(fixed(None, 0), short, "{place}");
                            // Replayed from the record read (tags not kept if long).
                            assert_eq!(fixed(Some(g), 0), short, "{place}");
                            assert_eq!(fixed(Some(g), usize::MAX), short, "{place}");
                            as_read += usize::from(short.as_read == Some(AsRead::MoreErrors));
                        }
                        games += 1;
                    })
                    .unwrap()
                {}
            }
        }
        assert!(games > 200, "{games} games");
        // (Whether a fixture's corrected game is worse than the game read: reported, the
        // test does not depend on it.)
        eprintln!("{games} games, {as_read} written as read for more errors");
    }

    /// A game that needs no change but its numbers, notation and tags is fixed on its record
    /// ([`fix_ref`]: written by `export::pdn::write_by_record`, no owned tree, no re-check) as
    /// on its tree ([`fix_long`]): the same text, changes (so the same `--audit` lines) and
    /// counts, on every game of the fixtures, with and without repairs and `--main-line`, in
    /// both result styles, its text spilled to a file as it is written or not; a game the
    /// record path refuses is fixed by [`fix_ref`] on its tree, the same way too.
    #[test]
    fn a_valid_game_is_fixed_on_its_record_as_on_its_tree() {
        use crate::app::model::reading::FileGames;
        let mut dirs = vec![crate::project_root().join("fixtures")];
        let (mut games, mut on) = (0, 0);
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    dirs.push(p);
                    continue;
                }
                if p.extension().is_none_or(|x| x != "pdn") {
                    continue;
                }
                let bytes = std::fs::read(&p).unwrap();
                let mut reader = Reader::new(&bytes[..]);
                let mut file = FileGames::new(0);
                while let Some(()) = file
                    .next(&mut reader, |g| {
                        let place = format!("{}, game {}", p.display(), g.index());
                        let combos = [
                            (false, false, ResultStyle::Strict, usize::MAX),
                            (true, false, ResultStyle::Strict, 64),
                            (false, true, ResultStyle::Terminator, usize::MAX),
                            (true, true, ResultStyle::Terminator, 1),
                        ];
                        for (repair, main_line, result_style, at) in combos {
                            let opts = FixOptions {
                                repair,
                                keep_irregular: repair,
                                validate: Options {
                                    main_line,
                                    ..g.options(&Options::default())
                                },
                                result_style,
                                ..FixOptions::default()
                            };
                            let tree = on_tree(g, &opts);
                            let place = format!("{place}, {repair} {main_line} {result_style:?}");
                            assert_eq!(
                                with_text(fix_ref(g, &opts, Spill::new(at))),
                                tree,
                                "{place}"
                            );
                            let eopts = ExportOptions {
                                validate: opts.validate,
                                ..ExportOptions::default()
                            };
                            let replay = export::replay_ref(g, &eopts);
                            if on_record(g, &replay) {
                                let fixed = fix_by_record(g, replay, &opts, &eopts, Spill::new(at))
                                    .expect("no error in the text written");
                                assert_eq!(with_text(fixed), tree, "{place}");
                                on += 1;
                            }
                        }
                        games += 1;
                    })
                    .unwrap()
                {}
            }
        }
        assert!(games > 200, "{games} games");
        // Most fixture games are valid (and some refused: errors, replies, own comments).
        assert!(
            on > 4 * 100 && on < 4 * games,
            "{on} of {games} games x 4 on the record"
        );
        eprintln!("{games} games, {on} of {} fixes on the record", games * 4);
    }

    /// A game cut at the size limit (its syntax error after its main line) is fixed on its
    /// record, its marker written after the main line as the tree path writes it: the same
    /// text, changes and counts as the tree path, wherever the cut falls (in a move, a
    /// comment, a variation, the tags), with and without `--main-line`.
    #[test]
    fn a_cut_game_is_fixed_on_its_record_as_on_its_tree() {
        use crate::app::model::reading::FileGames;
        let moves: String = (1..=40)
            .map(|n| {
                let (w, b, v) = if n % 2 == 1 {
                    ("50-45", "1-6", "1-7")
                } else {
                    ("45-50", "6-1", "6-11")
                };
                format!("{n}. {w} {{c{n}}} {b} ({n}... {v} {{v}} ({n}... {b})) ")
            })
            .collect();
        let text = format!(
            "[Event \"e\"]\n[GameType \"20\"]\n[FEN \"W:WK50:BK1\"]\n{moves}*\n\n\
             [Event \"next\"]\n1. 32-28 19-23 *\n"
        );
        let (mut on, mut cut) = (0, 0);
        for max in (40..text.len()).step_by(7) {
            let mut reader = Reader::new(text.as_bytes()).with_max_game_size(max);
            let mut file = FileGames::new(0);
            while let Some(()) = file
                .next(&mut reader, |g| {
                    cut += usize::from(!g.record.errors.is_empty());
                    for main_line in [false, true] {
                        let opts = FixOptions {
                            validate: Options {
                                main_line,
                                ..Options::default()
                            },
                            ..FixOptions::default()
                        };
                        let tree = on_tree(g, &opts);
                        let place = format!("cut at {max}, game {}, {main_line}", g.index());
                        let eopts = ExportOptions {
                            validate: opts.validate,
                            ..ExportOptions::default()
                        };
                        let replay = export::replay_ref(g, &eopts);
                        if on_record(g, &replay) && !g.record.errors.is_empty() {
                            let fixed = fix_by_record(g, replay, &opts, &eopts, Spill::new(64))
                                .expect("only its markers' errors in the text written");
                            assert_eq!(with_text(fixed), tree, "{place}");
                            on += 1;
                        }
                        assert_eq!(
                            with_text(fix_ref(g, &opts, Spill::new(64))),
                            tree,
                            "{place}"
                        );
                    }
                })
                .unwrap()
            {}
        }
        // (A cut inside a comment, a variation or a move leaves other errors: the tree path.)
        assert!(
            cut > 200 && on > 100 && on < 2 * cut,
            "{on} fixes on the record of {cut} cut games x 2"
        );
    }

    #[test]
    fn a_game_as_read_is_restored_from_what_was_kept_or_from_its_text() {
        let text = "[Event \"e\"]\n[Event \"f\"]\n[Result \"1-0\"]\n\
                    1. 32-28 {c} (1. 33-28) 19-23 2. 28x19 14x23 1-0";
        let read = game_of_text(text, &[], &[]);
        for keep in [false, true] {
            let mut game = read.clone();
            let original = Original {
                body: keep.then(|| read.body.clone()),
                source_len: text.len(),
                errors: Vec::new(),
                notes: Vec::new(),
                tags: keep.then(|| read.tags.clone()),
                result: game.result.take(),
            };
            // The plan: other tags and tree, the text of a new move appended.
            game.tags = vec![Tag::new("GameType", "20", Span::default())];
            game.body = Line::default();
            game.source.push_str(" 37-32");
            original.restore(&mut game);
            game.source.truncate(text.len());
            assert_eq!(game, read, "kept: {keep}");
        }
    }

    /// A game of more tags than the tag writer is handed at once (`tags::RecordTags`: the
    /// tags `fix_tags` reads taken out, the others written from the record a batch at a
    /// time) is fixed on its record as on its tree: standard tags late and in the middle of
    /// the batches (written first, in their order), a date to mend, names and values to make
    /// writable, a `Result` tag to set, a tag added.
    #[test]
    fn a_game_of_many_tags_is_fixed_on_its_record_as_on_its_tree() {
        use crate::app::model::reading::FileGames;
        let mut text = String::new();
        for i in 0..2600 {
            match i {
                5 => text.push_str("[Round \"3\"]\n"),
                700 => text.push_str("[Date \"2003-05-01\"]\n"),
                1023 => text.push_str("[Result \"1-0\"]\n"),
                1024 => text.push_str("[Event \"late\"]\n"),
                1501 => text.push_str("[Note \"two\nlines\"]\n"),
                2047 => text.push_str("[White \"W\"]\n"),
                _ => text.push_str(&format!("[Tag{i} \"v{i}\"]\n")),
            }
        }
        text.push_str("\n1. 32-28 19-23 2. 28x19 14x23 *\n");
        let mut reader = Reader::new(text.as_bytes());
        let mut file = FileGames::new(0);
        let mut seen = 0;
        while let Some(()) = file
            .next(&mut reader, |g| {
                let opts = FixOptions::default();
                let eopts = ExportOptions::default();
                let replay = export::replay_ref(g, &eopts);
                assert!(on_record(g, &replay), "{:?}", replay.report());
                let (mut by_record, t) = fix_by_record(g, replay, &opts, &eopts, Spill::new(64))
                    .expect("no error in the text written");
                by_record.text = t.into_string();
                let (mut by_tree, t) = fix_long(
                    Some(g),
                    None,
                    g.to_game(),
                    &opts,
                    Spill::new(usize::MAX),
                    usize::MAX,
                );
                by_tree.text = t.into_string();
                assert_eq!(by_record, by_tree);
                let text = &by_record.text;
                assert!(
                    text.starts_with("[Event \"late\"]\n[Date \"2003.05.01\"]\n"),
                    "{}",
                    &text[..200]
                );
                assert!(text.contains("[Tag2599 \"v2599\"]\n"));
                assert!(text.contains("[Note \"two lines\"]\n"));
                assert_eq!(
                    text.matches("\n\n").count(),
                    2,
                    "one blank line after the tags"
                );
                seen += 1;
            })
            .unwrap()
        {}
        assert_eq!(seen, 1);
    }

    /// The recount reads a long text into a buffer of its size, made at once, and counts as
    /// with the reader's default buffer.
    #[test]
    fn a_long_text_is_recounted_in_a_buffer_of_its_size() {
        assert_eq!(recount_buffer(LONG_GAME as u64 - 1), None);
        assert_eq!(recount_buffer(LONG_GAME as u64), Some(LONG_GAME + 1));
        assert_eq!(recount_buffer(u64::MAX), Some(2 * MAX_MAX_GAME_SIZE));
        let text = "[GameType \"20\"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 32-28 *\n\n1. 32-29 *\n";
        let opts = Options::default();
        let want = recount_from(text.as_bytes(), &opts, None, None);
        assert!(want > 0);
        for n in [1, 2, text.len(), text.len() + 1, 1 << 20] {
            assert_eq!(
                recount_from(text.as_bytes(), &opts, None, Some(n)),
                want,
                "{n}"
            );
        }
    }

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
