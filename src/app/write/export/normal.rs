//! The normal form of a move tree, as every exporter writes it: what the replay understood
//! made explicit in the structure.
//!
//! - Book-style replies (`1. 32-28 (19-23)`, the reply in parentheses) become moves of the
//!   line they continue; real variations stay variations. The replay tells them apart (a
//!   reply is on the line of the move before it, with the next ply; an alternative to that
//!   move has its ply).
//! - A variation written before the move it is an alternative to (`19-23 (2. 28x19 14x23)
//!   2. 37-32`, or broadcast exports' `34-30 (1... 5-10) 1... 20-25`) is moved after that
//!   move, where PDN puts an alternative; at the end of its line it stays, numbered.
//! - A capture written one jump per move (`11x18 18x25`, PDN 1.0) becomes one move: the
//!   later fragments, which the replay joined to the first, are dropped.
//! - Move numbers: the first move of every line and the first move after a setup carry the
//!   number and side the replay gave them (a line starting with the second player's move,
//!   after a FEN with Black to move, is numbered `1...`); every other number token is
//!   dropped, so a writer numbers the moves in sequence from there.
//! - FMJD's `*` after a move (forced move) becomes the NAG `$7` (PDN 3.0 forbids `*` as a
//!   move strength).
//! - Every syntax error of the game is kept where it was found, as a comment that says so
//!   (`marker`): `{pdn: unreadable: TEXT}` holds text the reader had to skip (a note glued
//!   to a move, a stray word), `{pdn: syntax-error: MESSAGE}` names any other error (an
//!   unterminated variation, a nested comment). Nothing read is dropped, and `validate`
//!   reads such a comment back as the syntax error it stands for (`marker_finding`), so a
//!   round trip through any output keeps every finding.
//! - With `Settings::drop_own_comments`, comments starting with `pdn:` before the first
//!   move (what `pdn fix` writes about a game it cannot repair) are dropped, so that fixing
//!   twice gives what fixing once gave — except those about a syntax error, which hold the
//!   text the reader skipped.

use crate::rules::Color;
use crate::syntax::{
    Comment, CommentKind, Game, Item, Line, MoveItem, MoveKind, MoveNumber, Nag, Span, Square,
    SyntaxError, SyntaxErrorKind, comment_for_writing,
};

use super::plies::{PlyEntry, PlyRecorder};
use crate::app::judge::diagnostic::{Code, Diagnostic};
use crate::app::judge::replay::{Branch, Played};

pub use crate::syntax::Num;

/// What normalisation does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Settings {
    /// Drop `{pdn: …}` comments before the first move.
    pub drop_own_comments: bool,
}

/// A capture written one jump per move and joined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Joined {
    /// The first fragment (it now stands for the whole capture).
    pub first: Span,
    /// The fragments dropped.
    pub dropped: Vec<Span>,
}

/// The normal form of a game's move tree and what was changed to get it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Normal {
    /// The main line.
    pub body: Line,
    /// Book-style replies made moves of their line.
    pub replies: u32,
    /// Captures written one jump per move that were joined.
    pub joined: Vec<Joined>,
    /// `*` strengths made `$7`.
    pub stars: u32,
    /// `{pdn: …}` comments dropped.
    pub own_comments: Vec<String>,
}

/// The number and side the replay gave a recorded move.
pub(crate) fn num_of(r: &PlyEntry, first_mover: Option<Color>) -> Num {
    Num {
        number: r.number,
        second: first_mover.is_some_and(|f| r.side != f),
    }
}

/// Normalise the move tree of `game`; `rec` holds its replay (sorted) and `diagnostics` its
/// findings; `first_mover` is the variant's first mover (`None` if the game could not be
/// replayed: then only the syntactic parts apply).
pub(crate) fn normalize(
    game: &Game,
    rec: &PlyRecorder,
    diagnostics: &[Diagnostic],
    first_mover: Option<Color>,
    settings: Settings,
) -> Normal {
    let mut diag_spans: Vec<u32> = diagnostics
        .iter()
        .filter_map(|d| d.span.map(|s| s.start))
        .collect();
    diag_spans.sort_unstable();
    let mut n = Normalizer {
        rec,
        diag_spans,
        first_mover,
        out: Normal::default(),
    };
    let mut items = Vec::with_capacity(game.body.items.len());
    let mut ctx = Ctx::new(Num::START);
    let mut src: &[Item] = &game.body.items;
    if settings.drop_own_comments {
        let keep = src
            .iter()
            .position(|i| !matches!(i, Item::Comment(c) if is_own_comment(&c.text)))
            .unwrap_or(src.len());
        let mut kept = Vec::new();
        for i in &src[..keep] {
            if let Item::Comment(c) = i {
                if OwnComment::of(&c.text) == Some(OwnComment::SyntaxError) {
                    kept.push(i.clone());
                } else {
                    n.out.own_comments.push(c.text.clone());
                }
            }
        }
        items.extend(kept);
        src = &src[keep..];
    }
    n.line(src, &mut ctx, &mut items, 0);
    n.out.body = Line { items };
    keep_errors(game, &mut n.out.body);
    n.out
}

/// Keep every syntax error of `game` in `body` (its move tree, spans into its text) where
/// it was found, as a [`marker`] comment.
pub(crate) fn keep_errors(game: &Game, body: &mut Line) {
    for e in &game.errors {
        let text = marker(game, e);
        insert_at(body, e.span.start, text);
    }
}

/// The kinds of syntax error whose span is text the reader skipped (kept nowhere else).
fn skips_text(kind: SyntaxErrorKind) -> bool {
    use SyntaxErrorKind::*;
    matches!(
        kind,
        UnexpectedToken
            | StrengthWithoutMove
            | NumberTooLong
            | SquareZero
            | UnmatchedParenthesis
            | BadNag
            | TagWithoutName
            | TrailingText
    )
}

/// The most characters of skipped text a marker holds.
const MARKER_TEXT: usize = 400;

/// The comment that keeps a syntax error of `game` where it was found: the text the reader
/// skipped (`pdn: unreadable: …`, at most [`MARKER_TEXT`] characters), or the error's message
/// (`pdn: syntax-error: …`). Written as a PDN comment can hold it (`}` becomes `)`).
pub(crate) fn marker(game: &Game, e: &SyntaxError) -> String {
    let skipped = game.text(e.span).trim();
    let mut s = String::new();
    if skips_text(e.kind) && !skipped.is_empty() {
        s.push_str(OwnComment::UNREADABLE);
        s.push_str(": ");
        let mut chars = skipped.chars();
        s.extend(chars.by_ref().take(MARKER_TEXT));
        if chars.next().is_some() {
            s.push('…');
        }
    } else {
        s.push_str(OwnComment::SYNTAX_ERROR);
        s.push_str(": ");
        s.push_str(&e.message);
    }
    // One line, and what a comment can hold.
    let s: String = s
        .chars()
        .map(|c| match c {
            '\r' | '\n' => ' ',
            c => c,
        })
        .collect();
    comment_for_writing(&s).into_owned()
}

/// What a comment stands for if it is a marker of a syntax error ([`marker`], or the
/// comment an earlier `pdn fix` wrote before the first move): the message of the
/// `syntax-error` finding it is read back as.
pub(crate) fn marker_finding(comment: &str) -> Option<String> {
    let t = comment.trim();
    if let Some(rest) = t.strip_prefix(OwnComment::UNREADABLE) {
        let text = rest.trim_start_matches(':').trim();
        let mut shown: String = text.chars().take(60).collect();
        if shown.len() < text.len() {
            shown.push('…');
        }
        Some(format!(
            "text that could not be read as PDN, kept in a comment: `{shown}`"
        ))
    } else if let Some(rest) = t.strip_prefix(OwnComment::SYNTAX_ERROR) {
        let m = rest.trim_start_matches(':').trim();
        Some(format!("syntax error kept in a comment: {m}"))
    } else {
        None
    }
}

/// Insert a comment into the line of `body` where byte `at` of the game stands: inside the
/// innermost variation around it, before the first item that starts after it.
fn insert_at(body: &mut Line, at: u32, text: String) {
    let mut line = body;
    for _ in 0..MAX_DEPTH {
        let inside = line
            .items
            .iter()
            .position(|i| matches!(i, Item::Variation(v) if v.span.start < at && at < v.span.end));
        match inside {
            Some(k) => {
                let Item::Variation(v) = &mut line.items[k] else {
                    unreachable!("found as a variation")
                };
                line = &mut v.line;
            }
            None => break,
        }
    }
    let start = |i: &Item| match i {
        Item::Move(m) => m
            .number
            .map_or(m.span.start, |n| n.span.start.min(m.span.start)),
        Item::Comment(c) => c.span.start,
        Item::Nag(n) => n.span.start,
        Item::Variation(v) => v.span.start,
        Item::Setup(s) => s.span.start,
    };
    let k = line
        .items
        .iter()
        .position(|i| start(i) > at)
        .unwrap_or(line.items.len());
    line.items.insert(
        k,
        Item::Comment(Comment {
            text,
            kind: CommentKind::Brace,
            span: Span::at(at),
        }),
    );
}

/// A comment that `pdn fix` wrote about a problem of a game (`{pdn: …}` before its first
/// move). Such comments are markers in the file, read back by a later run of `fix`: the only
/// place that knows their text is here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OwnComment {
    /// `pdn: syntax-error …`: a syntax error, with the text the reader skipped (kept by a
    /// later run, since the text is no longer in the game).
    SyntaxError,
    /// Any other `pdn: …` comment (what was left to repair; written again by a later run).
    Problem,
}

impl OwnComment {
    /// The start of every comment `pdn fix` writes.
    const PREFIX: &'static str = "pdn:";
    /// The start of a [`OwnComment::SyntaxError`] comment naming the error.
    const SYNTAX_ERROR: &'static str = "pdn: syntax-error";
    /// The start of a [`OwnComment::SyntaxError`] comment holding skipped text.
    const UNREADABLE: &'static str = "pdn: unreadable";

    /// What a comment's text is, if `pdn fix` wrote it.
    pub(crate) fn of(text: &str) -> Option<OwnComment> {
        let text = text.trim_start();
        if text.starts_with(Self::SYNTAX_ERROR) || text.starts_with(Self::UNREADABLE) {
            Some(OwnComment::SyntaxError)
        } else if text.starts_with(Self::PREFIX) {
            Some(OwnComment::Problem)
        } else {
            None
        }
    }

    /// How a comment of this kind starts (`pdn: syntax-error`, `pdn:`).
    pub(crate) fn prefix(self) -> &'static str {
        match self {
            OwnComment::SyntaxError => Self::SYNTAX_ERROR,
            OwnComment::Problem => Self::PREFIX,
        }
    }
}

/// True for a comment `pdn fix` wrote about a problem (`pdn: …`).
pub(crate) fn is_own_comment(text: &str) -> bool {
    OwnComment::of(text).is_some()
}

/// The state of an output line.
struct Ctx {
    next: Num,
    before_last: Option<Num>,
    resync: bool,
    /// The count changed otherwise than by alternation (after a `wrong-side` move): the
    /// next move carries its number.
    recount: bool,
    last: Option<PlyEntry>,
}

impl Ctx {
    fn new(start: Num) -> Ctx {
        Ctx {
            next: start,
            before_last: None,
            resync: true,
            recount: false,
            last: None,
        }
    }
}

struct Normalizer<'r> {
    rec: &'r PlyRecorder,
    diag_spans: Vec<u32>,
    first_mover: Option<Color>,
    out: Normal,
}

/// Deepest nesting walked (the reader allows less).
const MAX_DEPTH: usize = 256;

impl Normalizer<'_> {
    fn has_diag(&self, at: u32) -> bool {
        self.diag_spans.binary_search(&at).is_ok()
    }

    /// Walk the items of one source line into `out`, continuing the output line `ctx`.
    fn line(&mut self, src: &[Item], ctx: &mut Ctx, out: &mut Vec<Item>, depth: usize) {
        // The last written square of the previous move of this source line, if that move
        // was replayed (or joined): where a later fragment of a split capture would start.
        let mut chain: Option<(Square, usize)> = None;
        // Alternatives to the coming move, written after it.
        let mut pending: Vec<Item> = Vec::new();
        // A move was written since they were put aside.
        let mut moved = false;
        for item in src {
            if !pending.is_empty() && moved && matches!(item, Item::Move(_) | Item::Setup(_)) {
                out.append(&mut pending);
            }
            match item {
                Item::Move(m) => {
                    let rec = self.rec.find(m.span.start).copied();
                    if rec.is_none()
                        && m.kind != MoveKind::Unknown
                        && let Some((sq, at)) = chain
                        && m.squares.first() == Some(&sq)
                        && !self.has_diag(m.span.start)
                    {
                        // A later fragment of a capture written one jump per move.
                        chain = m.squares.last().map(|&s| (s, at));
                        if let Some(Item::Move(first)) = out.get(at) {
                            let first = first.span;
                            match self.out.joined.last_mut() {
                                Some(j) if j.first == first => j.dropped.push(m.span),
                                _ => self.out.joined.push(Joined {
                                    first,
                                    dropped: vec![m.span],
                                }),
                            }
                        }
                        continue;
                    }
                    chain = match (rec, m.squares.last()) {
                        (Some(_), Some(&sq)) => Some((sq, out.len())),
                        _ => None,
                    };
                    self.push_move(m, rec, ctx, out);
                    moved = true;
                }
                Item::Comment(_) | Item::Nag(_) => out.push(item.clone()),
                Item::Setup(_) => {
                    chain = None;
                    ctx.resync = true;
                    out.push(item.clone());
                }
                Item::Variation(v) => {
                    chain = None;
                    let first = v.line.items.iter().find_map(|i| match i {
                        Item::Move(m) => Some(m),
                        Item::Comment(_) | Item::Nag(_) => None,
                        _ => Some(&NO_MOVE),
                    });
                    let first_rec = first.and_then(|m| self.rec.find(m.span.start));
                    // As the replay read it; else (a game not replayed) from the records.
                    let (reply, next) = match (self.rec.branch(v.span.start), ctx.last, first_rec) {
                        (Some(b), _, _) => {
                            (b == Branch::Reply, b == Branch::Next && ctx.last.is_some())
                        }
                        (None, Some(l), Some(f)) if f.ply == l.ply + 1 => {
                            (f.line == l.line, f.line != l.line)
                        }
                        _ => (false, false),
                    };
                    if reply && depth < MAX_DEPTH {
                        self.out.replies += 1;
                        self.line(&v.line.items, ctx, out, depth + 1);
                    } else {
                        let start = if next {
                            ctx.next
                        } else {
                            ctx.before_last.unwrap_or(ctx.next)
                        };
                        let mut sub = Ctx::new(start);
                        let mut items = Vec::with_capacity(v.line.items.len());
                        if depth < MAX_DEPTH {
                            self.line(&v.line.items, &mut sub, &mut items, depth + 1);
                        }
                        let var = Item::Variation(crate::syntax::Variation {
                            line: Line { items },
                            span: v.span,
                        });
                        if next {
                            if pending.is_empty() {
                                moved = false;
                            }
                            pending.push(var);
                        } else {
                            out.push(var);
                        }
                    }
                }
            }
        }
        out.append(&mut pending);
    }

    fn push_move(
        &mut self,
        m: &MoveItem,
        rec: Option<PlyEntry>,
        ctx: &mut Ctx,
        out: &mut Vec<Item>,
    ) {
        let mut item = m.clone();
        if ctx.resync {
            ctx.next = match (rec, m.number) {
                (Some(r), _) if self.first_mover.is_some() => {
                    let n = num_of(&r, self.first_mover);
                    if r.played == Played::Irregular(Code::WrongSide) {
                        // The number is checked against the side to move, not the mover.
                        Num {
                            second: !n.second,
                            ..n
                        }
                    } else {
                        n
                    }
                }
                (_, Some(t)) => Num {
                    number: t.number,
                    second: t.second_player,
                },
                _ => ctx.next,
            };
            item.number = Some(MoveNumber {
                number: ctx.next.number,
                second_player: ctx.next.second,
                span: m.number.map_or(Span::at(m.span.start), |t| t.span),
            });
            ctx.resync = false;
        } else if ctx.recount {
            item.number = Some(MoveNumber {
                number: ctx.next.number,
                second_player: ctx.next.second,
                span: m.number.map_or(Span::at(m.span.start), |t| t.span),
            });
        } else {
            item.number = None;
        }
        ctx.recount = false;
        let star = item.strength.as_deref() == Some("*");
        if star {
            item.strength = None;
            self.out.stars += 1;
        }
        ctx.before_last = Some(ctx.next);
        let before = ctx.next;
        ctx.next = ctx.next.after();
        if rec.is_some_and(|r| r.played == Played::Irregular(Code::WrongSide)) {
            // A move of the side not to move, played as recorded (a ply is missing): the
            // replay keeps the side to move and counts the move as the mover's (the number
            // goes on after a move of the second player). The next move carries the
            // number, so that reading the output back counts as the replay did.
            ctx.next = Num {
                number: before.number.saturating_add(u32::from(!before.second)),
                second: before.second,
            };
            ctx.recount = true;
        }
        ctx.last = rec;
        out.push(Item::Move(item));
        if star {
            out.push(Item::Nag(Nag {
                value: 7,
                span: m.span,
            }));
        }
    }
}

/// Stands for "something other than a move comes first" in a variation.
static NO_MOVE: MoveItem = MoveItem {
    number: None,
    squares: crate::syntax::Squares::new(),
    kind: MoveKind::Unknown,
    strength: None,
    span: Span::at(u32::MAX),
};

#[cfg(test)]
mod tests {
    use super::OwnComment;

    #[test]
    fn own_comments_are_told_by_their_kind_and_written_with_its_prefix() {
        let of = OwnComment::of;
        assert_eq!(
            of(" pdn: syntax-error at line 3, column 1: x"),
            Some(OwnComment::SyntaxError)
        );
        assert_eq!(
            of("pdn: illegal-move at ply 4 (32-27): …"),
            Some(OwnComment::Problem)
        );
        assert_eq!(of("pdn fixes nothing here"), None);
        assert_eq!(of("a comment: pdn: syntax-error"), None);
        for kind in [OwnComment::SyntaxError, OwnComment::Problem] {
            assert_eq!(of(&format!("{} …", kind.prefix())), Some(kind));
        }
    }
}
