//! The comments `pdn fix` writes and mends: the `{pdn: …}` comment naming what could not be
//! repaired, and comment text made writable as strict PDN. (Syntax errors are kept where
//! they were found by the normal form: `export::normal::marker`.)

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::syntax::{
    Comment, CommentKind, Game, Item, Line, Span, canonical_move_text, comment_for_writing,
    setup_for_writing,
};

use super::changes::find_move;
use super::{Change, make_writable};
use crate::app::judge::diagnostic::{Code, Diagnostic, Severity};
use crate::app::judge::validate::Verdict;
use crate::app::model::record::{Node, Record};
use crate::app::write::export::normal::OwnComment;

/// The number of leading `{pdn: …}` comments kept in a body.
pub(super) fn leading_own(body: &Line) -> usize {
    body.items
        .iter()
        .take_while(|i| matches!(i, Item::Comment(c) if c.text.trim_start().starts_with("pdn:")))
        .count()
}

/// The `{pdn: …}` comment a game needs before its first move: one naming the errors left in
/// `report` (the report of `game` as replayed; the move is named in its syntactic normal
/// form, so that the comment reads the same after a second `fix`). Syntax errors are not
/// named here: each is kept where it was found (`export::normal::marker`).
pub(super) fn problem_comments(game: &Game, report: &Verdict) -> Vec<String> {
    let mut out = Vec::new();
    let left: Vec<&Diagnostic> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Error && d.code != Code::SyntaxError)
        .collect();
    if let Some(d) = left.first() {
        out.push(error_comment(game, d, left.len()));
    }
    out
}

/// The comment naming the first of `count` errors left.
fn error_comment(game: &Game, d: &Diagnostic, count: usize) -> String {
    let mut s = format!("{} ", OwnComment::Problem.prefix());
    if count > 1 {
        let _ = write!(s, "{count} errors left; the first: ");
    }
    s.push_str(d.code.as_str());
    if let Some(p) = d.ply {
        let _ = write!(s, " at ply {p}");
    }
    let written = d
        .span
        .and_then(|sp| find_move(&game.body, sp))
        .map(|m| canonical_move_text(game, m));
    let raw = d.mv.as_deref().map(str::trim).filter(|m| !m.is_empty());
    let message = match (raw, &written) {
        (Some(r), Some(w)) if r != w => d.message.replace(r, w),
        _ => d.message.to_string(),
    };
    if let Some(m) = written.or_else(|| raw.map(str::to_string)) {
        let _ = write!(s, " ({m})");
    }
    let _ = write!(s, ": {message}");
    safe_comment(&s)
}

/// Add a note to the last problem comment (not to a syntax error's).
pub(super) fn append_note(problems: &mut [String], note: &str) {
    if let Some(last) = problems.last_mut()
        && OwnComment::of(last) != Some(OwnComment::SyntaxError)
    {
        last.push_str(note);
        *last = safe_comment(last);
    }
}

/// A text that a `{…}` comment can hold.
pub(super) fn safe_comment(s: &str) -> String {
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

/// Put the problem comments before the first move of `body` (after the kept `{pdn: …}`
/// comments), each new one a change.
pub(super) fn insert_problems(
    body: &mut Line,
    problems: &[String],
    kept: &[String],
    changes: &mut Vec<Change>,
) {
    let at = leading_own(body);
    for (k, text) in problems.iter().enumerate() {
        if !kept.contains(text) {
            changes.push(Change::new(
                None,
                None,
                Some(format!("{{{text}}}")),
                "comment naming what could not be repaired".into(),
            ));
        }
        body.items.insert(
            at + k,
            Item::Comment(Comment {
                text: text.clone(),
                kind: CommentKind::Brace,
                span: Span::default(),
            }),
        );
    }
}

/// The changes [`writable_comments`] makes to the tree of `record` (whose text is
/// `source`), written from the record (`export::pdn::write_by_record` writes each comment
/// and setup made writable): the same changes in the same order; with `main_line`, of the
/// main line only (its variations are left out).
pub(super) fn writable_comments_of(
    record: &Record,
    source: &str,
    main_line: bool,
    changes: &mut Vec<Change>,
) {
    let mut line_comments = 0;
    let mut stack = vec![record.body()];
    while let Some(l) = stack.pop() {
        for (at, node) in record.items(l) {
            match node {
                Node::Comment { span, .. } => {
                    let text = node.comment_text();
                    // (A line comment's text is what follows its `%` or `;`.)
                    if matches!(
                        source.as_bytes().get(span.start as usize),
                        Some(b'%' | b';')
                    ) {
                        line_comments += 1;
                    }
                    let text = source
                        .get(text.start as usize..text.end as usize)
                        .unwrap_or("");
                    writable_change(
                        text,
                        comment_for_writing,
                        "comment text made writable (`}` and a line starting with `[` cannot stand in a PDN comment)",
                        changes,
                    );
                }
                Node::Setup { .. } => writable_change(
                    record.node_text(node),
                    setup_for_writing,
                    SETUP_MADE_WRITABLE,
                    changes,
                ),
                Node::Variation { .. } if !main_line => stack.push(record.inside(at)),
                _ => {}
            }
        }
    }
    push_line_comments(line_comments, changes);
}

/// Why a setup's FEN was changed.
const SETUP_MADE_WRITABLE: &str =
    "setup made writable (`\"` and `/` cannot stand in a setup's FEN)";

/// The change that says how many `%` and `;` line comments were written as `{…}` ones.
fn push_line_comments(line_comments: usize, changes: &mut Vec<Change>) {
    if line_comments > 0 {
        changes.push(Change::new(
            None,
            None,
            None,
            format!("`%` and `;` line comments written as `{{…}}` comments ({line_comments})"),
        ));
    }
}

/// The change of `text` written as `writable` has it (`why`), if that differs.
fn writable_change(
    text: &str,
    writable: impl FnOnce(&str) -> Cow<'_, str>,
    why: &str,
    changes: &mut Vec<Change>,
) {
    let w = writable(text);
    if *w != *text {
        changes.push(Change::new(
            None,
            Some(text.to_string()),
            Some(w.into_owned()),
            why.to_string(),
        ));
    }
}

/// Make comments writable as they are (see `syntax::comment_for_writing`).
pub(super) fn writable_comments(body: &mut Line, changes: &mut Vec<Change>) {
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
                    make_writable(
                        &mut c.text,
                        comment_for_writing,
                        || {
                            "comment text made writable (`}` and a line starting with `[` cannot stand in a PDN comment)".into()
                        },
                        changes,
                    );
                }
                Item::Setup(s) => make_writable(
                    &mut s.fen,
                    setup_for_writing,
                    || SETUP_MADE_WRITABLE.into(),
                    changes,
                ),
                Item::Variation(v) => stack.push(&mut v.line),
                _ => {}
            }
        }
    }
    push_line_comments(line_comments, changes);
}
