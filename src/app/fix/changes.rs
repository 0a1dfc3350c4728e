//! The changes of normalisation that concern moves: tolerated constructs written in standard
//! form, book-style replies and joined captures, and every move whose canonical text differs
//! from what was written.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

use crate::syntax::{
    Game, Item, Line, MoveItem, MoveKind, MoveRef, Span, Square, Tolerated, ToleratedKind,
    canonical_move_ref_text,
};

use super::Change;
use crate::app::judge::replay::Played;
use crate::app::model::record::{Node, Record};
use crate::app::write::export::Analysed;
use crate::app::write::export::plies::Form;

/// A move tree as `fix` reads its moves: a tree, or the record the game was read into (a
/// game written from its record: its normal form is its own tree renumbered).
#[derive(Clone, Copy, Debug)]
pub(super) enum Body<'a> {
    /// A tree.
    Tree(&'a Line),
    /// The tree of a record.
    Record(&'a Record),
}

impl Body<'_> {
    /// `f` of each move of every line (a stack of lines: the main line first, then the
    /// variations, the last pushed first), until it breaks (with what it broke with).
    pub(super) fn moves<B>(self, mut f: impl FnMut(&MoveRef<'_>) -> ControlFlow<B>) -> Option<B> {
        match self {
            Body::Tree(line) => {
                let mut stack = vec![line];
                while let Some(l) = stack.pop() {
                    for item in &l.items {
                        match item {
                            Item::Move(m) => {
                                if let ControlFlow::Break(b) = f(&m.to_ref()) {
                                    return Some(b);
                                }
                            }
                            Item::Variation(v) => stack.push(&v.line),
                            _ => {}
                        }
                    }
                }
            }
            Body::Record(record) => {
                let mut stack = vec![record.body()];
                while let Some(l) = stack.pop() {
                    for (at, node) in record.items(l) {
                        match node {
                            Node::Move(m) => {
                                if let ControlFlow::Break(b) = f(&record.move_ref(m)) {
                                    return Some(b);
                                }
                            }
                            Node::Variation { .. } => stack.push(record.inside(at)),
                            _ => {}
                        }
                    }
                }
            }
        }
        None
    }
}

/// The text of a span of the game's text (`Game::text`).
fn text_of(source: &str, span: Span) -> &str {
    source
        .get(span.start as usize..span.end as usize)
        .unwrap_or("")
}

/// The tolerated constructs of the reader (`notes`, of the game whose text is `source`): each
/// is written in standard form, one change per kind. (The moves are those of the normal form,
/// `body`, and the fragments it dropped, `a.normal.fragments`.)
pub(super) fn notes(
    source: &str,
    notes: &[Tolerated],
    a: &Analysed<'_>,
    body: Body<'_>,
    changes: &mut Vec<Change>,
) {
    for n in notes {
        if n.kind == ToleratedKind::UnknownMove && unknown_moves_written_standard(source, body) {
            // Every unknown move is already written `-`, as `fix` writes it: no change (so
            // that fixing a fixed file reports none).
            continue;
        }
        let before: String = text_of(source, n.span).trim().chars().take(80).collect();
        let text = |m: &MoveRef<'_>| {
            let mut s = String::new();
            a.push_move_ref_text_in(source, m, Form::Pdn, &mut s);
            s
        };
        let contains = |m: &MoveRef<'_>| m.span.start <= n.span.start && n.span.end <= m.span.end;
        let after = body
            .moves(|m| {
                if contains(m) {
                    ControlFlow::Break(text(m))
                } else {
                    ControlFlow::Continue(())
                }
            })
            .or_else(|| {
                a.normal
                    .fragments
                    .iter()
                    .map(MoveItem::to_ref)
                    .find(contains)
                    .map(|m| text(&m))
            });
        if after.as_deref() == Some(before.as_str()) {
            // Written as it was read (a move that cannot be put in standard form): no change
            // (so that fixing a fixed file reports none).
            continue;
        }
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
pub(super) fn structure(game: &Game, a: &Analysed<'_>, changes: &mut Vec<Change>) {
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
    let firsts = moves_at(
        &a.normal.body,
        a.normal.joined.iter().map(|j| j.first.start),
    );
    for j in &a.normal.joined {
        let mut before = game.text(j.first).trim().to_string();
        for s in &j.dropped {
            before.push(' ');
            before.push_str(game.text(*s).trim());
        }
        let m = firsts.get(&j.first.start).copied();
        let rec = m.and_then(|m| a.record(m));
        changes.push(Change::new(
            rec.map(|r| r.ply),
            Some(before),
            m.map(|m| a.move_text(game, m, Form::Pdn)),
            "capture written one jump per move joined into one move".into(),
        ));
    }
}

/// The moves of the tree whose texts start at `starts`, found in one walk of the tree (a
/// walk per move would take quadratic time in a game of many variations).
pub(super) fn moves_at(
    line: &Line,
    starts: impl IntoIterator<Item = u32>,
) -> HashMap<u32, &MoveItem> {
    let starts: HashSet<u32> = starts.into_iter().collect();
    let mut found = HashMap::with_capacity(starts.len());
    if starts.is_empty() {
        return found;
    }
    let mut stack = vec![line];
    while let Some(l) = stack.pop() {
        for item in &l.items {
            match item {
                Item::Move(m) if starts.contains(&m.span.start) => {
                    found.entry(m.span.start).or_insert(m);
                }
                Item::Variation(v) => stack.push(&v.line),
                _ => {}
            }
        }
    }
    found
}

/// The move whose text starts at `span`, anywhere in the tree.
pub(super) fn find_move(line: &Line, span: Span) -> Option<&MoveItem> {
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

/// One change per move of `body` (the tree of the game whose text is `source`, as it is
/// written) whose canonical text differs from its syntactic normal form (not for the moves
/// starting at `skip`).
pub(super) fn move_changes(
    source: &str,
    a: &Analysed<'_>,
    body: Body<'_>,
    skip: &[u32],
    changes: &mut Vec<Change>,
) {
    let Some(names) = a.names else { return };
    // Sets, not scans of the lists at every move: a game of many variations can hold many.
    let skip: HashSet<u32> = skip.iter().copied().collect();
    let joined: HashSet<Span> = a.normal.joined.iter().map(|j| j.first).collect();
    let mut found: Vec<(u32, Change)> = Vec::new();
    let mut text = String::new();
    body.moves::<()>(|m| {
        let Some(r) = a.rec.find(m.span.start) else {
            return ControlFlow::Continue(());
        };
        if r.played != Played::Legal || skip.contains(&m.span.start) {
            return ControlFlow::Continue(());
        }
        text.clear();
        a.rec.write(r, Form::Pdn, &names, &mut text);
        if joined.contains(&m.span) || canonical_move_ref_text(source, m) == text {
            return ControlFlow::Continue(());
        }
        let why = why_rewritten(m, r, names.algebraic);
        found.push((
            m.span.start,
            Change::new(
                Some(r.ply),
                Some(text_of(source, m.span).trim().to_string()),
                Some(text.clone()),
                why,
            ),
        ));
        ControlFlow::Continue(())
    });
    found.sort_by_key(|(s, _)| *s);
    changes.extend(found.into_iter().map(|(_, c)| c));
}

/// Why a legal move is written otherwise than it was.
fn why_rewritten(
    m: &MoveRef<'_>,
    r: &crate::app::write::export::plies::PlyEntry,
    algebraic: bool,
) -> String {
    let written = m.squares.len();
    let alg = m.squares.iter().any(|s| matches!(s, Square::Alg { .. }));
    let why = if r.ambiguous() {
        "ambiguous capture written with its full route (PDN 3.0 rules 8 and 9)"
    } else if m.kind == MoveKind::Undivided {
        "move written with its separator"
    } else if alg != algebraic {
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
    if r.main {
        why.to_string()
    } else {
        format!("{why} (in a variation)")
    }
}

/// True if every unknown move of the game (its tree `body`: main line and variations; its
/// text `source`) is written `-`.
fn unknown_moves_written_standard(source: &str, body: Body<'_>) -> bool {
    body.moves(|m| {
        if m.kind == MoveKind::Unknown && text_of(source, m.span).trim() != "-" {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
    .is_none()
}
