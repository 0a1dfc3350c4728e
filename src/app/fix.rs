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
//! **Repair** (`--repair`): for the first illegal move of the main line, the probable
//! corrections are tried — transposed digits, a square off by one, the other side's
//! numbering, the other separator, the full route of an ambiguous capture, a missing ply
//! inserted (any legal move), the ply dropped (a doubled ply). A correction is applied only
//! when it is the only one after which the rest of the main line replays legally (later
//! errors may be repaired the same way, at most [`MAX_REPAIRS`] per game, each unique).
//!
//! Every change is a [`Change`] (`--audit` writes them as JSON Lines). A safety net: if the
//! corrected game would have more errors than the game read, the game is written as read.

use std::fmt::Write as _;

use crate::rules::fen::SquareName;
use crate::rules::notation;
use crate::rules::{Bits, Color, MoveList, NotationKind, Spec, Variant, with_variant};
use crate::syntax::{
    Comment, CommentKind, Game, Item, Line, MoveItem, MoveKind, Span, Square, Squares, Tag,
    canonical_move_text, comment_for_writing, tag_name_for_writing, tag_value_for_writing,
};

use super::diagnostic::{Code, Diagnostic, Severity};
use super::export::normal::Settings;
use super::export::pdn::{rebuild, write_rebuilt};
use super::export::record::{Form, RecordOptions, Recorder};
use super::export::{Analysed, ExportOptions, analyse_with};
use super::gametype::parse_game_type;
use super::jsonl::push_str as push_json_str;
use super::outcome::{self, Outcome};
use super::validate::{Options, Report, is_pdn_date, validate_with};

/// Most corrections `--repair` applies to one game.
pub const MAX_REPAIRS: usize = 3;
/// Most replays `--repair` spends on one game.
const REPAIR_BUDGET: u32 = 600;

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

fn errors_of(report: &Report) -> u32 {
    report.errors()
}

/// Fix one game.
pub fn fix(game: &Game, opts: &FixOptions) -> Fixed {
    let eopts = ExportOptions {
        validate: opts.validate,
        ..ExportOptions::default()
    };
    let settings = Settings {
        drop_own_comments: true,
    };
    let a0 = analyse_with(game, &eopts, RecordOptions::default(), settings);
    let errors_before = errors_of(&a0.report);
    let Some(variant) = a0.variant() else {
        return as_read(game, &a0, &a0.normal.body, errors_before);
    };
    let mut changes = Vec::new();
    notes(game, &a0, &mut changes);
    structure(game, &a0, &mut changes);
    // The body: normal form, then repairs.
    let forced = ExportOptions {
        validate: Options {
            variant: Some(variant),
            diagrams: false,
            hint: None,
        },
        ..ExportOptions::default()
    };
    let mut repaired: Option<(Game, Vec<Edit>)> = None;
    let mut several: Vec<String> = Vec::new();
    if opts.repair && game.errors.is_empty() && has_main_error(&a0.report) {
        let base = rebuild(game, game.tags.clone(), a0.normal.body.clone());
        let mut budget = REPAIR_BUDGET;
        match solve(&base, &forced, variant, MAX_REPAIRS, &mut budget, None) {
            Solve::Unique(edits) if !edits.is_empty() => {
                let mut g = base;
                for e in &edits {
                    apply_in_place(&mut g, e);
                }
                repaired = Some((g, edits));
            }
            Solve::Many(alts) => several = alts,
            _ => {}
        }
    }
    let ra = repaired
        .as_ref()
        .map(|(g, _)| analyse_with(g, &forced, RecordOptions::default(), Settings::default()));
    let mut repairs = 0;
    let base = match (&repaired, &ra) {
        (Some((g, edits)), Some(a)) => {
            let g2 = rebuild(g, game.tags.clone(), a.normal.body.clone());
            for e in edits {
                let after = e
                    .new_span
                    .and_then(|s| find_move(&g2.body, s))
                    .map(|m| a.move_text(&g2, m, Form::Pdn));
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
            repairs = edits.len() as u32;
            // The moves a repair wrote are in the audit already, with their final text.
            let written: Vec<u32> = edits
                .iter()
                .filter_map(|e| e.new_span.map(|s| s.start))
                .collect();
            move_changes(g, a, &written, &mut changes);
            g2
        }
        _ => {
            move_changes(game, &a0, &[], &mut changes);
            rebuild(game, game.tags.clone(), a0.normal.body.clone())
        }
    };
    let info = MainInfo::of(ra.as_ref().unwrap_or(&a0), variant);
    // Tags.
    let mut tags = game.tags.clone();
    fix_tags(
        game,
        &mut tags,
        variant,
        opts.validate.variant.is_some(),
        &a0.report,
        &info,
        &mut changes,
    );
    let mut base = base;
    let mut body = std::mem::take(&mut base.body);
    writable_comments(&mut body, &mut changes);
    let mut fixed_game = rebuild(&base, tags, body);
    // The output ends with `*`: the result is in the tag only.
    fixed_game.result = None;
    let af = analyse_with(
        &fixed_game,
        &forced,
        RecordOptions::default(),
        Settings::default(),
    );
    let errors_after = errors_of(&af.report);
    if errors_after > errors_before {
        // Never worse than what was read.
        let mut f = as_read(game, &a0, &game.body, errors_before);
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
    let mut problems = problem_comments(game, &af.report, &fixed_game, &a0.normal.own_comments);
    if several.len() > 1
        && let Some(last) = problems.last_mut()
        && !last.starts_with("pdn: syntax-error")
    {
        let _ = write!(
            last,
            "; --repair: several corrections fit ({}), none applied",
            several.join(" or ")
        );
        *last = safe_comment(last);
    }
    let unrepaired = !problems.is_empty() || !game.errors.is_empty();
    let Analysed {
        report,
        rec,
        normal,
        names,
        ..
    } = af;
    let mut out_game = fixed_game;
    let at = leading_own(&out_game.body);
    for (k, text) in problems.iter().enumerate() {
        if !a0.normal.own_comments.contains(text) {
            changes.push(Change::new(
                None,
                None,
                Some(format!("{{{text}}}")),
                "comment naming what could not be repaired".into(),
            ));
        }
        out_game.body.items.insert(
            at + k,
            Item::Comment(Comment {
                text: text.clone(),
                kind: CommentKind::Brace,
                span: Span::default(),
            }),
        );
    }
    for old in &a0.normal.own_comments {
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
        game: &out_game,
        report,
        rec,
        normal,
        names,
    };
    let mut text = String::new();
    write_rebuilt(&af, &out_game, &mut text);
    Fixed {
        text,
        changes,
        errors_before,
        errors_after,
        repairs,
        unrepaired,
    }
}

/// A game written as read: its moves in syntactic normal form, its tags untouched, with a
/// comment naming the problem.
fn as_read(game: &Game, a0: &Analysed<'_>, body: &Line, errors_before: u32) -> Fixed {
    let mut changes = Vec::new();
    notes(game, a0, &mut changes);
    let mut g = rebuild(game, game.tags.clone(), body.clone());
    writable_comments(&mut g.body, &mut changes);
    let problems = problem_comments(game, &a0.report, game, &a0.normal.own_comments);
    let at = leading_own(&g.body);
    for (k, text) in problems.iter().enumerate() {
        if !a0.normal.own_comments.contains(text) {
            changes.push(Change::new(
                None,
                None,
                Some(format!("{{{text}}}")),
                "comment naming what could not be repaired".into(),
            ));
        }
        g.body.items.insert(
            at + k,
            Item::Comment(Comment {
                text: text.clone(),
                kind: CommentKind::Brace,
                span: Span::default(),
            }),
        );
    }
    let mut text = String::new();
    crate::syntax::write_game(
        &g,
        &crate::syntax::WriteOptions::default(),
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

/// The number of leading `{pdn: …}` comments kept in a body.
fn leading_own(body: &Line) -> usize {
    body.items
        .iter()
        .take_while(|i| matches!(i, Item::Comment(c) if c.text.trim_start().starts_with("pdn:")))
        .count()
}

/// The `{pdn: …}` comments a game needs: one per syntax error of `game` (with the text
/// skipped), one naming the errors left in `report`, the report of `replayed` (the move is
/// named in its syntactic normal form, so that the comment reads the same after a second
/// `fix`).
fn problem_comments(game: &Game, report: &Report, replayed: &Game, kept: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for e in game.errors.iter().take(8) {
        let (line, col) = game.line_col(e.span.start);
        let skipped = game.text(e.span).trim();
        let mut s = format!(
            "pdn: syntax-error at line {line}, column {col}: {}",
            e.message
        );
        if !skipped.is_empty() {
            let cut: String = skipped.chars().take(400).collect();
            let _ = write!(
                s,
                "; text skipped: `{}{}`",
                cut,
                if cut.len() < skipped.len() { "…" } else { "" }
            );
        }
        out.push(safe_comment(&s));
    }
    if game.errors.len() > 8 {
        out.push(format!(
            "pdn: syntax-error: {} more syntax errors",
            game.errors.len() - 8
        ));
    }
    let errors: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Error && d.code != Code::SyntaxError)
        .collect();
    if let Some(d) = errors.first() {
        let mut s = String::from("pdn: ");
        if errors.len() > 1 {
            let _ = write!(s, "{} errors left; the first: ", errors.len());
        }
        s.push_str(d.code.as_str());
        if let Some(p) = d.ply {
            let _ = write!(s, " at ply {p}");
        }
        let written = d
            .span
            .and_then(|sp| find_move(&replayed.body, sp))
            .map(|m| canonical_move_text(replayed, m));
        let raw = d.mv.as_deref().map(str::trim).filter(|m| !m.is_empty());
        let message = match (raw, &written) {
            (Some(r), Some(w)) if r != w => d.message.replace(r, w),
            _ => d.message.clone(),
        };
        if let Some(m) = written.or_else(|| raw.map(str::to_string)) {
            let _ = write!(s, " ({m})");
        }
        let _ = write!(s, ": {message}");
        out.push(safe_comment(&s));
    }
    // A syntax-error comment of an earlier run stays (it holds skipped text).
    out.retain(|c| !(c.starts_with("pdn: syntax-error") && kept.contains(c)));
    out
}

fn safe_comment(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| match c {
            '}' => ')',
            '\r' | '\n' => ' ',
            c => c,
        })
        .collect();
    comment_for_writing(&s).into_owned()
}

/// The tolerated constructs of the reader: each is written in standard form, one change per
/// kind.
fn notes(game: &Game, a: &Analysed<'_>, changes: &mut Vec<Change>) {
    for n in &game.notes {
        let before: String = game.text(n.span).trim().chars().take(80).collect();
        let after = find_containing(&game.body, n.span).map(|m| {
            let mut s = String::new();
            a.push_move_text(game, m, Form::Pdn, &mut s);
            s
        });
        let why = if n.count > 1 {
            format!("{} ({} times)", n.description(), n.count)
        } else {
            n.description().to_string()
        };
        changes.push(Change::new(
            None,
            (!before.is_empty()).then_some(before),
            after,
            format!("standard form: {why}"),
        ));
    }
}

/// Structure changes of normalisation: replies and joined captures.
fn structure(game: &Game, a: &Analysed<'_>, changes: &mut Vec<Change>) {
    if a.normal.replies > 0 {
        changes.push(Change::new(
            None,
            None,
            None,
            format!(
                "book-style replies in parentheses written as moves of their line ({})",
                a.normal.replies
            ),
        ));
    }
    for j in &a.normal.joined {
        let mut before = game.text(j.first).trim().to_string();
        for s in &j.dropped {
            before.push(' ');
            before.push_str(game.text(*s).trim());
        }
        let m = find_move(&game.body, j.first);
        let rec = m.and_then(|m| a.record(m));
        changes.push(Change::new(
            rec.map(|r| r.ply),
            Some(before),
            m.map(|m| a.move_text(game, m, Form::Pdn)),
            "capture written one jump per move joined into one move".into(),
        ));
    }
}

/// The move whose text starts at `span`, anywhere in the tree.
fn find_move(line: &Line, span: Span) -> Option<&MoveItem> {
    let mut stack = vec![line];
    while let Some(l) = stack.pop() {
        for item in &l.items {
            match item {
                Item::Move(m) if m.span.start == span.start => return Some(m),
                Item::Variation(v) => stack.push(&v.line),
                _ => {}
            }
        }
    }
    None
}

/// The move whose text contains `span`.
fn find_containing(line: &Line, span: Span) -> Option<&MoveItem> {
    let mut stack = vec![line];
    while let Some(l) = stack.pop() {
        for item in &l.items {
            match item {
                Item::Move(m) if m.span.start <= span.start && span.end <= m.span.end => {
                    return Some(m);
                }
                Item::Variation(v) => stack.push(&v.line),
                _ => {}
            }
        }
    }
    None
}

/// One change per move whose canonical text differs from its syntactic normal form (not for
/// the moves starting at `skip`).
fn move_changes(game: &Game, a: &Analysed<'_>, skip: &[u32], changes: &mut Vec<Change>) {
    let Some(names) = a.names else { return };
    let mut stack = vec![&a.normal.body];
    let mut found: Vec<(u32, Change)> = Vec::new();
    let mut text = String::new();
    while let Some(l) = stack.pop() {
        for item in &l.items {
            match item {
                Item::Move(m) => {
                    let Some(r) = a.record(m) else { continue };
                    if r.played != super::replay::Played::Legal || skip.contains(&m.span.start) {
                        continue;
                    }
                    text.clear();
                    a.rec.write(r, Form::Pdn, &names, &mut text);
                    let syntactic = canonical_move_text(game, m);
                    if syntactic == text || a.normal.joined.iter().any(|j| j.first == m.span) {
                        continue;
                    }
                    let written = m.squares.len();
                    let alg = m.squares.iter().any(|s| matches!(s, Square::Alg { .. }));
                    let why = if r.ambiguous {
                        "ambiguous capture written with its full route (PDN 3.0 rules 8 and 9)"
                    } else if m.kind == MoveKind::Undivided {
                        "move written with its separator"
                    } else if alg != names.algebraic {
                        "squares named in the notation of the GameType"
                    } else if r.is_capture() && m.kind == MoveKind::Normal {
                        "capture written with `x`"
                    } else if !r.is_capture() && matches!(m.kind, MoveKind::Capture(_)) {
                        "non-capturing move written with `-`"
                    } else if written > 2 {
                        "unambiguous move written with start and destination only (PDN 3.0 rule 8)"
                    } else {
                        "canonical notation"
                    };
                    let why = if r.main {
                        why.to_string()
                    } else {
                        format!("{why} (in a variation)")
                    };
                    found.push((
                        m.span.start,
                        Change::new(
                            Some(r.ply),
                            Some(game.text(m.span).trim().to_string()),
                            Some(text.clone()),
                            why,
                        ),
                    ));
                }
                Item::Variation(v) => stack.push(&v.line),
                _ => {}
            }
        }
    }
    found.sort_by_key(|(s, _)| *s);
    changes.extend(found.into_iter().map(|(_, c)| c));
}

/// Make comments writable as they are (see `syntax::comment_for_writing`).
fn writable_comments(body: &mut Line, changes: &mut Vec<Change>) {
    let mut line_comments = 0;
    let mut stack = vec![body];
    while let Some(l) = stack.pop() {
        for item in &mut l.items {
            match item {
                Item::Comment(c) => {
                    if c.kind == CommentKind::Line {
                        c.kind = CommentKind::Brace;
                        line_comments += 1;
                    }
                    let w = comment_for_writing(&c.text);
                    if w != c.text {
                        let w = w.into_owned();
                        changes.push(Change::new(
                            None,
                            Some(c.text.clone()),
                            Some(w.clone()),
                            "comment text made writable (`}` and a line starting with `[` cannot stand in a PDN comment)".into(),
                        ));
                        c.text = w;
                    }
                }
                Item::Variation(v) => stack.push(&mut v.line),
                _ => {}
            }
        }
    }
    if line_comments > 0 {
        changes.push(Change::new(
            None,
            None,
            None,
            format!("`%` and `;` line comments written as `{{…}}` comments ({line_comments})"),
        ));
    }
}

/// What the replay of the main line found, for the tags.
struct MainInfo {
    /// Main-line plies replayed.
    plies: u32,
    /// Every main-line move replayed, without error.
    clean: bool,
    /// The winner, if the final position is decided.
    winner: Option<(Color, String)>,
}

impl MainInfo {
    fn of(a: &Analysed<'_>, variant: Variant) -> MainInfo {
        let complete = a
            .normal
            .body
            .items
            .iter()
            .all(|i| !matches!(i, Item::Move(m) if a.record(m).is_none()));
        let clean = complete
            && !a.report.diagnostics.iter().any(|d| {
                d.severity() == Severity::Error
                    && (d.code.is_move_code() || d.code == Code::BadFen)
                    && !d.variation
            });
        let winner = if clean {
            a.rec.last.and_then(|last| {
                with_variant!(variant, V => {
                    let pos = last.get::<<V as Spec>::B>()?;
                    let mut list = MoveList::without_paths();
                    V::legal_moves(&pos, &mut list);
                    if !list.is_empty() {
                        return None;
                    }
                    let loser = pos.side();
                    let winner = if variant == Variant::Antidraughts { loser } else { loser.other() };
                    let none = pos.pieces(loser).is_empty();
                    Some((winner, format!(
                        "the final position is decided: {} has no legal move{}",
                        side_word(loser),
                        if none { " (no pieces left)" } else { "" }
                    )))
                })
            })
        } else {
            None
        };
        MainInfo {
            plies: a.report.plies,
            clean,
            winner,
        }
    }
}

fn side_word(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[allow(clippy::too_many_arguments)]
fn fix_tags(
    game: &Game,
    tags: &mut Vec<Tag>,
    variant: Variant,
    forced: bool,
    report: &Report,
    info: &MainInfo,
    changes: &mut Vec<Change>,
) {
    let rules = variant.rules();
    // GameType.
    let number = rules.game_type.to_string();
    match tags.iter_mut().find(|t| t.name == "GameType") {
        None => {
            if report.inferred.is_some() || forced {
                let why = match &report.inferred {
                    Some(how) => format!("GameType added: {how}"),
                    None => format!("GameType added: --variant {}", variant.name()),
                };
                tags.push(Tag::new("GameType", number, Span::default()));
                changes.push(Change::new(
                    None,
                    None,
                    Some(rules.game_type.to_string()),
                    why,
                ));
            }
        }
        Some(t) => {
            let v = t.value.trim();
            let standard = super::gametype::standard_form(variant);
            let ok = v == number
                || v == standard
                || parse_game_type(v).is_ok_and(|g| {
                    g.number == rules.game_type
                        && g.layout.is_none_or(|l| {
                            l.width == rules.layout.width
                                && l.height == rules.layout.height
                                && l.first == rules.layout.first
                                && l.notation == rules.layout.notation
                                && l.corner == rules.layout.corner
                                && l.invert == rules.layout.invert
                        })
                });
            if !ok {
                changes.push(Change::new(
                    None,
                    Some(t.value.clone()),
                    Some(number.clone()),
                    format!(
                        "GameType set to the {} number (the value read {})",
                        variant.name(),
                        if parse_game_type(v).is_err() {
                            "is not a GameType"
                        } else {
                            "describes another board or numbering, or no variant"
                        }
                    ),
                ));
                t.value = number;
            }
        }
    }
    // Result.
    fix_result(game, tags, variant, info, changes);
    // Dates.
    for t in tags.iter_mut() {
        if matches!(
            t.name.as_str(),
            "Date" | "EventDate" | "UTCDate" | "PublicationDate"
        ) && let Some(d) = mend_date(&t.value)
        {
            changes.push(Change::new(
                None,
                Some(t.value.clone()),
                Some(d.clone()),
                format!("{} written YYYY.MM.DD", t.name),
            ));
            t.value = d;
        }
    }
    // PlyCount.
    if info.clean
        && let Some(t) = tags.iter_mut().find(|t| t.name == "PlyCount")
    {
        let want = info.plies.to_string();
        if t.value.trim() != want {
            changes.push(Change::new(
                None,
                Some(t.value.clone()),
                Some(want.clone()),
                "PlyCount set to the plies of the main line".into(),
            ));
            t.value = want;
        }
    }
    // What the writer would change: names, line breaks.
    for t in tags.iter_mut() {
        let name = tag_name_for_writing(&t.name);
        if name != t.name {
            let name = name.into_owned();
            changes.push(Change::new(
                None,
                Some(t.name.clone()),
                Some(name.clone()),
                "tag name made a PDN identifier".into(),
            ));
            t.name = name;
        }
        let value = tag_value_for_writing(&t.value);
        if value != t.value {
            let value = value.into_owned();
            changes.push(Change::new(
                None,
                Some(t.value.clone()),
                Some(value.clone()),
                format!("line breaks in the {} tag written as spaces", t.name),
            ));
            t.value = value;
        }
    }
}

fn fix_result(
    game: &Game,
    tags: &mut Vec<Tag>,
    variant: Variant,
    info: &MainInfo,
    changes: &mut Vec<Change>,
) {
    let rules = variant.rules();
    let first = rules.first_mover();
    let has_format = tags.iter().any(|t| t.name == "ResultFormat");
    let tag = tags
        .iter()
        .find(|t| t.name == "Result")
        .map(|t| t.value.trim().to_string());
    let term = game
        .result
        .as_ref()
        .map(|r| r.text.trim().to_string())
        .filter(|t| t != "*");
    let known = |s: &str| !matches!(outcome::parse(s), Outcome::Unknown);
    let (want, why) = if let Some((winner, why)) = &info.winner {
        let o = Outcome::won_by(*winner, first);
        let text = outcome::standard_string(o, rules).to_string();
        match &tag {
            Some(t) if has_format && outcome::parse(t) == o => (t.clone(), String::new()),
            _ => (text, format!("Result: {why}")),
        }
    } else {
        let (base, from) = match (&tag, &term) {
            (Some(t), _) if known(t) => (t.clone(), "the Result tag"),
            (_, Some(r)) if known(r) => (r.clone(), "the result ending the movetext"),
            (Some(t), _) => (t.clone(), "the Result tag"),
            (None, _) => return,
        };
        let o = outcome::parse(&base);
        let text = match o {
            Outcome::FirstWon | Outcome::SecondWon | Outcome::Draw | Outcome::BothLost
                if !has_format =>
            {
                outcome::standard_string(o, rules).to_string()
            }
            _ => base.clone(),
        };
        let why = if text != base {
            format!(
                "Result from {from}, in the form of the {} result type",
                rules.name
            )
        } else {
            format!("Result from {from}")
        };
        (text, why)
    };
    match tags.iter_mut().find(|t| t.name == "Result") {
        Some(t) => {
            if t.value.trim() != want {
                changes.push(Change::new(
                    None,
                    Some(t.value.clone()),
                    Some(want.clone()),
                    why,
                ));
                t.value = want;
            }
        }
        None => {
            changes.push(Change::new(None, None, Some(want.clone()), why));
            tags.push(Tag::new("Result", want, Span::default()));
        }
    }
}

/// A date tag value as `YYYY.MM.DD` (`?` for unknown digits), when it means one date only;
/// `None` if it already has that form or cannot be mended.
///
/// Accepted: `2003-05-01`, `2003/5/1`, `2003.5.1`, `2003.05.01.`, `2003` and `2003.` (day
/// and month unknown), `2003.05`, `?`, `????`, and day-month-year with a four-digit year
/// (`1.1.1965`, `25-12-2004`) when the day is above 12 or equal to the month — otherwise
/// day and month could be either way round, and the value is kept.
pub fn mend_date(value: &str) -> Option<String> {
    let v = value.trim();
    if v.is_empty() || is_pdn_date(v) {
        return None;
    }
    if v == "?" || v == "????" {
        return Some("????.??.??".into());
    }
    let parts: Vec<&str> = v
        .trim_end_matches('.')
        .split(['.', '-', '/'])
        .map(str::trim)
        .collect();
    let num = |s: &str| -> Option<u32> {
        (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let unknown = |s: &str| !s.is_empty() && s.bytes().all(|b| b == b'?');
    let year = |s: &str| s.len() == 4 && (num(s).is_some() || unknown(s));
    let part2 = |s: &str, max: u32| -> Option<String> {
        if unknown(s) && s.len() <= 2 {
            return Some("??".into());
        }
        let n = num(s)?;
        (s.len() <= 2 && (1..=max).contains(&n)).then(|| format!("{n:02}"))
    };
    let out = match parts.as_slice() {
        [y] if year(y) => format!("{y}.??.??"),
        [y, m] if year(y) => format!("{y}.{}.??", part2(m, 12)?),
        [y, m, d] if year(y) => format!("{y}.{}.{}", part2(m, 12)?, part2(d, 31)?),
        [a, b, y] if year(y) && num(a).is_some() && num(b).is_some() => {
            let (x, z) = (num(a)?, num(b)?);
            // Day first only when the first part cannot be a month, or both agree.
            if !((x > 12 && z <= 12) || x == z) {
                return None;
            }
            let (d, m) = (x, z);
            if !(1..=31).contains(&d) || !(1..=12).contains(&m) {
                return None;
            }
            format!("{y}.{m:02}.{d:02}")
        }
        _ => return None,
    };
    (out != v && is_pdn_date(&out)).then_some(out)
}

fn has_main_error(report: &Report) -> bool {
    report
        .diagnostics
        .iter()
        .any(|d| d.severity() == Severity::Error && d.code.is_move_code() && !d.variation)
}

// ---------------------------------------------------------------------------------------
// Repair.

/// What a correction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EditKind {
    Transposed,
    OffByOne,
    OtherSide,
    Separator,
    Route,
    Insert,
    Drop,
}

impl EditKind {
    fn describe(self) -> &'static str {
        match self {
            EditKind::Transposed => "transposed digits",
            EditKind::OffByOne => "a square off by one",
            EditKind::OtherSide => "squares numbered from the other side of the board",
            EditKind::Separator => "the other separator",
            EditKind::Route => "the full route of an ambiguous capture",
            EditKind::Insert => "a missing ply inserted",
            EditKind::Drop => "a doubled ply dropped",
        }
    }
}

/// A correction of the main line.
#[derive(Clone, Debug)]
struct Edit {
    kind: EditKind,
    /// Index of the move in the main line's items.
    index: usize,
    /// Its ply.
    ply: u32,
    /// The new move (not for a drop).
    squares: Option<(Vec<Square>, MoveKind)>,
    before: Option<String>,
    /// Where the new move's text is, once applied.
    new_span: Option<Span>,
}

/// The result of a search for corrections.
enum Solve {
    /// No correction makes the game legal.
    None,
    /// Exactly one sequence of corrections does (empty if the game is legal already).
    Unique(Vec<Edit>),
    /// Several do: what two of them would write.
    Many(Vec<String>),
}

fn move_text_of(squares: &[Square], kind: MoveKind) -> String {
    let sep = match kind {
        MoveKind::Capture(_) => "x",
        _ => "-",
    };
    let mut s = String::new();
    for (i, q) in squares.iter().enumerate() {
        if i > 0 {
            s.push_str(sep);
        }
        let _ = write!(s, "{q}");
    }
    s
}

fn apply_in_place(out: &mut Game, e: &Edit) -> Span {
    let items = &mut out.body.items;
    let old = match items.get(e.index) {
        Some(Item::Move(m)) => Some(m.clone()),
        _ => None,
    };
    let Some(old) = old else {
        return Span::default();
    };
    let mut new_span = Span::default();
    if let Some((squares, kind)) = &e.squares {
        let text = move_text_of(squares, *kind);
        out.source.push(' ');
        let start = out.source.len() as u32;
        out.source.push_str(&text);
        new_span = Span::new(start, out.source.len() as u32);
        let mut m = MoveItem {
            number: old.number,
            squares: Squares::from(squares.as_slice()),
            kind: *kind,
            strength: None,
            span: new_span,
        };
        match e.kind {
            EditKind::Insert => {
                if let Some(Item::Move(x)) = out.body.items.get_mut(e.index) {
                    x.number = None;
                }
                out.body.items.insert(e.index, Item::Move(m));
            }
            _ => {
                m.strength = old.strength.clone();
                out.body.items[e.index] = Item::Move(m);
            }
        }
    } else {
        out.body.items.remove(e.index);
        if let Some(t) = old.number
            && let Some(Item::Move(next)) = out.body.items[e.index..]
                .iter_mut()
                .find(|i| matches!(i, Item::Move(_)))
        {
            next.number = Some(t);
        }
    }
    new_span
}

/// The first error of the main line: its item index, diagnostic code and ply.
fn first_main_error(g: &Game, report: &Report) -> Option<(usize, Code, u32)> {
    let d = report
        .diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Error && d.code.is_move_code() && !d.variation)
        .min_by_key(|d| {
            (
                d.ply.unwrap_or(u32::MAX),
                d.span.map_or(u32::MAX, |s| s.start),
            )
        })?;
    let span = d.span?;
    let index = g
        .body
        .items
        .iter()
        .position(|i| matches!(i, Item::Move(m) if m.span.start == span.start));
    Some((index.unwrap_or(usize::MAX), d.code, d.ply.unwrap_or(0)))
}

fn eval(g: &Game, opts: &ExportOptions, budget: &mut u32) -> (Report, Recorder) {
    *budget = budget.saturating_sub(1);
    let mut rec = Recorder::new(RecordOptions { positions: true });
    let report = validate_with(g, &opts.validate, &mut rec);
    rec.sort();
    (report, rec)
}

/// Search the unique corrections that make the main line of `g` legal.
fn solve(
    g: &Game,
    opts: &ExportOptions,
    variant: Variant,
    depth: usize,
    budget: &mut u32,
    evaluated: Option<(Report, Recorder)>,
) -> Solve {
    let (report, rec) = match evaluated {
        Some(e) => e,
        None => eval(g, opts, budget),
    };
    let Some((index, code, ply)) = first_main_error(g, &report) else {
        return Solve::Unique(Vec::new());
    };
    if depth == 0 || index == usize::MAX {
        return Solve::None;
    }
    let cands = candidates(g, index, code, ply, &rec, variant);
    let mut found: Option<(String, String, Vec<Edit>)> = None;
    for mut e in cands {
        if *budget == 0 {
            return Solve::None;
        }
        let mut edited = g.clone();
        let span = apply_in_place(&mut edited, &e);
        e.new_span = e.squares.is_some().then_some(span);
        let (r, rc) = eval(&edited, opts, budget);
        let touched = match e.kind {
            EditKind::Insert => index + 1,
            _ => index,
        };
        let (key, label) = match e.new_span.and_then(|s| rc.find(s.start)) {
            Some(pr) => {
                let names = super::export::names(variant, super::export::Notation::Native);
                let mut t = String::new();
                rc.write(pr, Form::Pdn, &names, &mut t);
                if e.kind == EditKind::Insert {
                    (format!("insert:{t}"), format!("{t} inserted"))
                } else {
                    (t.clone(), t)
                }
            }
            None if e.kind == EditKind::Drop => (
                "drop".to_string(),
                format!("{} dropped", e.before.as_deref().unwrap_or("the move")),
            ),
            None => continue,
        };
        let rest = match first_main_error(&edited, &r) {
            None => Some(Vec::new()),
            Some((i, _, _)) if i != usize::MAX && i > touched => {
                match solve(&edited, opts, variant, depth - 1, budget, Some((r, rc))) {
                    Solve::Unique(v) => Some(v),
                    Solve::Many(alts) => return Solve::Many(alts),
                    Solve::None => None,
                }
            }
            _ => None,
        };
        if let Some(rest) = rest {
            match &found {
                Some((k, _, _)) if *k == key => {}
                Some((_, l, _)) => return Solve::Many(vec![l.clone(), label]),
                None => {
                    let mut v = vec![e];
                    v.extend(rest);
                    found = Some((key, label, v));
                }
            }
        }
    }
    match found {
        Some((_, _, v)) => Solve::Unique(v),
        None => Solve::None,
    }
}

/// The probable corrections of the move at `index` of the main line.
fn candidates(
    g: &Game,
    index: usize,
    code: Code,
    ply: u32,
    rec: &Recorder,
    variant: Variant,
) -> Vec<Edit> {
    let Some(Item::Move(x)) = g.body.items.get(index) else {
        return Vec::new();
    };
    let before = Some(g.text(x.span).trim().to_string());
    let mut out: Vec<Edit> = Vec::new();
    let mut texts: Vec<(Vec<Square>, MoveKind)> = Vec::new();
    let mut push = |kind: EditKind, squares: Vec<Square>, mk: MoveKind, out: &mut Vec<Edit>| {
        if squares.len() < 2
            || (squares.as_slice() == x.squares.as_slice() && mk == x.kind)
            || texts.iter().any(|(s, k)| *s == squares && *k == mk)
        {
            return;
        }
        texts.push((squares.clone(), mk));
        out.push(Edit {
            kind,
            index,
            ply,
            squares: Some((squares, mk)),
            before: before.clone(),
            new_span: None,
        });
    };
    let numbering = with_variant!(variant, V => V::numbering());
    let n_squares = numbering.len() as u32;
    let (w, h) = (
        u32::from(numbering.layout.width),
        u32::from(numbering.layout.height),
    );
    let sq: Vec<Square> = x.squares.to_vec();
    let kind = match x.kind {
        MoveKind::Undivided | MoveKind::Unknown => MoveKind::Normal,
        k => k,
    };
    let valid = |s: &Square| match *s {
        Square::Num(n) => (1..=n_squares).contains(&n),
        Square::Alg { file, rank } => u32::from(file) < w && u32::from(rank) < h,
    };
    if x.kind != MoveKind::Unknown && sq.iter().all(valid) {
        // Transposed digits.
        for i in 0..sq.len() {
            if let Square::Num(n) = sq[i]
                && (10..100).contains(&n)
                && n % 10 != 0
            {
                let t = (n % 10) * 10 + n / 10;
                if (1..=n_squares).contains(&t) {
                    let mut s = sq.clone();
                    s[i] = Square::Num(t);
                    push(EditKind::Transposed, s, kind, &mut out);
                }
            }
        }
        // A square off by one.
        for i in 0..sq.len() {
            let alts: Vec<Square> = match sq[i] {
                Square::Num(n) => [n.wrapping_sub(1), n + 1]
                    .into_iter()
                    .filter(|t| (1..=n_squares).contains(t))
                    .map(Square::Num)
                    .collect(),
                Square::Alg { file, rank } => {
                    let mut v = Vec::new();
                    for (df, dr) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                        let (f, r) = (i32::from(file) + df, i32::from(rank) + dr);
                        if f >= 0 && r >= 0 && (f as u32) < w && (r as u32) < h {
                            v.push(Square::Alg {
                                file: f as u8,
                                rank: r as u8,
                            });
                        }
                    }
                    v
                }
            };
            for a in alts {
                let mut s = sq.clone();
                s[i] = a;
                push(EditKind::OffByOne, s, kind, &mut out);
            }
        }
        // Numbered from the other side.
        let other: Vec<Square> = sq
            .iter()
            .map(|s| match *s {
                Square::Num(n) => Square::Num(n_squares + 1 - n),
                Square::Alg { file, rank } => Square::Alg {
                    file: (w - 1 - u32::from(file)) as u8,
                    rank: (h - 1 - u32::from(rank)) as u8,
                },
            })
            .collect();
        push(EditKind::OtherSide, other, kind, &mut out);
        // The other separator.
        let swapped = match kind {
            MoveKind::Normal => MoveKind::Capture('x'),
            _ => MoveKind::Normal,
        };
        push(EditKind::Separator, sq.clone(), swapped, &mut out);
    }
    // Legal moves of the position before the move: full routes of an ambiguous capture,
    // or a missing ply.
    let pos = position_before(g, index, rec);
    if let Some(pos) = pos {
        let legal: Vec<(Vec<Square>, MoveKind, u32, u32)> = with_variant!(variant, V => {
            let mut v = Vec::new();
            if let Some(p) = pos.get::<<V as Spec>::B>() {
                let mut list = MoveList::new();
                V::legal_moves(&p, &mut list);
                let num = V::numbering();
                let alg = num.layout.notation == NotationKind::Algebraic;
                for i in 0..list.len() {
                    let m = list.moves()[i];
                    let bits = if m.is_capture() {
                        notation::route(V::geometry(), &m, list.path(i))
                    } else {
                        vec![u32::from(m.from), u32::from(m.to)]
                    };
                    let squares: Vec<Square> = bits
                        .iter()
                        .map(|&b| {
                            if alg {
                                let (file, rank) = num.algebraic_of_bit(b);
                                Square::Alg { file, rank }
                            } else {
                                Square::Num(num.number_of_bit(b))
                            }
                        })
                        .collect();
                    let kind = if m.is_capture() { MoveKind::Capture('x') } else { MoveKind::Normal };
                    v.push((squares, kind, u32::from(m.from), u32::from(m.to)));
                }
            }
            v
        });
        if code == Code::AmbiguousMove {
            let ends = |s: &Square| -> Option<u32> {
                let name = match *s {
                    Square::Num(n) => SquareName::Number(n),
                    Square::Alg { file, rank } => SquareName::Algebraic { file, rank },
                };
                name.resolve(numbering).ok()
            };
            let (from, to) = (sq.first().and_then(ends), sq.last().and_then(ends));
            for (s, k, f, t) in &legal {
                if Some(*f) == from && Some(*t) == to {
                    push(EditKind::Route, s.clone(), *k, &mut out);
                }
            }
        } else {
            for (s, k, _, _) in legal {
                out.push(Edit {
                    kind: EditKind::Insert,
                    index,
                    ply,
                    squares: Some((s, k)),
                    before: None,
                    new_span: None,
                });
            }
        }
    }
    // A doubled ply: drop it (not when a variation hangs on it, and only when a move
    // follows: the rest replaying is the evidence, and a last move dropped would compete
    // with every correction of a slip in it).
    let rest = &g.body.items[index + 1..];
    let next = rest
        .iter()
        .find(|i| !matches!(i, Item::Comment(_) | Item::Nag(_)));
    let follows = rest.iter().any(|i| matches!(i, Item::Move(_)));
    if code != Code::AmbiguousMove && follows && !matches!(next, Some(Item::Variation(_))) {
        out.push(Edit {
            kind: EditKind::Drop,
            index,
            ply,
            squares: None,
            before,
            new_span: None,
        });
    }
    out
}

/// The position before the move at `index` of the main line, from the replay.
fn position_before(g: &Game, index: usize, rec: &Recorder) -> Option<super::export::AnyPos> {
    let Item::Move(x) = g.body.items.get(index)? else {
        return None;
    };
    if let Some((_, before, _)) = rec.positions.iter().find(|(s, _, _)| *s == x.span.start) {
        return Some(*before);
    }
    // Not replayed: after the previous move, if nothing but comments stands between.
    for item in g.body.items[..index].iter().rev() {
        match item {
            Item::Comment(_) | Item::Nag(_) | Item::Variation(_) => {}
            Item::Move(p) => {
                return rec
                    .positions
                    .iter()
                    .find(|(s, _, _)| *s == p.span.start)
                    .map(|(_, _, a)| *a);
            }
            Item::Setup(_) => return None,
        }
    }
    rec.start
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_mended_only_when_unambiguous() {
        assert_eq!(mend_date("2003-05-01").as_deref(), Some("2003.05.01"));
        assert_eq!(mend_date("2003/5/1").as_deref(), Some("2003.05.01"));
        assert_eq!(mend_date("2003.5.1").as_deref(), Some("2003.05.01"));
        assert_eq!(mend_date("1950.").as_deref(), Some("1950.??.??"));
        assert_eq!(mend_date("1950").as_deref(), Some("1950.??.??"));
        assert_eq!(mend_date("2003.05").as_deref(), Some("2003.05.??"));
        assert_eq!(mend_date("?").as_deref(), Some("????.??.??"));
        assert_eq!(mend_date("1.1.1965").as_deref(), Some("1965.01.01"));
        assert_eq!(mend_date("25-12-2004").as_deref(), Some("2004.12.25"));
        assert_eq!(mend_date("03-12-2006"), None, "3 December or 12 March");
        assert_eq!(mend_date("2003.05.01"), None, "already right");
        assert_eq!(mend_date("2003.13.01"), None);
        assert_eq!(mend_date("12.03.96"), None);
        assert_eq!(mend_date("2003.05.01-2003.05.10"), None);
        assert_eq!(mend_date("May 2003"), None);
        assert_eq!(mend_date(""), None);
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
