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
    SyntaxError, SyntaxErrorKind, ToleratedKind, comment_for_writing,
};

use super::plies::{PlyEntry, PlyRecorder};
use crate::app::judge::diagnostic::{Code, Diagnostic};
use crate::app::judge::replay::{Branch, Played};
use crate::app::model::record::{Node, Record};

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
    /// The later fragments of the joined captures, as read (in source order): no longer in
    /// the body.
    pub fragments: Vec<MoveItem>,
}

impl Normal {
    /// The fragment dropped from a joined capture that starts at `start`.
    pub fn fragment(&self, start: u32) -> Option<&MoveItem> {
        let k = self.fragments.partition_point(|m| m.span.start < start);
        self.fragments.get(k).filter(|m| m.span.start == start)
    }
}

/// The number and side the replay gave a recorded move.
pub(crate) fn num_of(r: &PlyEntry, first_mover: Option<Color>) -> Num {
    Num {
        number: r.number,
        second: first_mover.is_some_and(|f| r.side != f),
    }
}

/// Normalise the move tree `body` of `game` (taken out of it: `game.body` is not read),
/// made in place: every item is moved from the tree as read to the normal form, each line
/// written over its own items (no second tree is held at any moment). `rec` holds its replay
/// (sorted) and `diagnostics` its findings; `first_mover` is the variant's first mover
/// (`None` if the game could not be replayed: then only the syntactic parts apply).
pub(crate) fn normalize(
    body: Line,
    game: &Game,
    rec: &PlyRecorder,
    diagnostics: &[Diagnostic],
    first_mover: Option<Color>,
    settings: Settings,
) -> Normal {
    let mut n = Normalizer::new(rec, diagnostics, first_mover, Mode::Normal);
    let mut out = Slots::new(body.items);
    let mut ctx = Ctx::new(Num::START);
    if settings.drop_own_comments {
        // The `{pdn: …}` comments before the first move (but those about a syntax error).
        while let Some(Item::Comment(c)) = out.peek()
            && is_own_comment(&c.text)
        {
            let Some(Item::Comment(c)) = out.take() else {
                unreachable!("looked at as a comment")
            };
            if OwnComment::of(&c.text) == Some(OwnComment::SyntaxError) {
                out.push(Item::Comment(c));
            } else {
                n.out.own_comments.push(c.text);
            }
        }
    }
    n.line(&mut Src::Own, &mut ctx, &mut out, 0);
    n.out.body = Line {
        items: out.finish(),
    };
    n.out
        .fragments
        .sort_unstable_by_key(|m| (m.span.start, m.span.end));
    keep_errors(game, &mut n.out.body);
    n.out
}

/// True if the normal form of the game read into `record` is its own tree with its moves
/// renumbered (what [`Ctx::count`] gives them), nothing else changed, so that a writer can
/// read the record itself (`json::write_to` of an analysis made by
/// `export::analyse_by_record`), and the record holds the text of every comment where it
/// reads it: no syntax error but after the main line's last item (each kept as a comment
/// there), no move strength `*`
/// (made `$7`), no variation that is a book-style reply (made moves of its line) or an
/// alternative to the coming move (moved after it), no capture written one jump per move
/// (joined). `rec` and `diagnostics` are its replay's (sorted); judged as [`normalize`]
/// judges each, or more strictly (a variation whose branch the replay did not say, a line
/// nested deeper than the normal form walks): a game refused here is only normalised on its
/// tree.
pub(crate) fn numbering_only(
    record: &Record,
    rec: &PlyRecorder,
    diagnostics: &[Diagnostic],
) -> bool {
    // (A comment made of text outside the movetext, or of a result inside a variation, is
    // its whole span: the record keeps the text of a comment as after its delimiter.)
    // A syntax error after the main line's last item (a game cut at the size limit) is kept
    // as a comment after it ([`keep_errors`]: no item starts after it, no variation holds
    // it); any other, where it was found, is not followed here (nor one after a NAG, whose
    // end the record does not keep).
    let end = match record.items(record.body()).last() {
        // (Nor in a game whose main line holds nothing the record kept.)
        None => u32::MAX,
        Some((_, Node::Move(m))) => m.span.end,
        Some((_, Node::Comment { span, .. } | Node::Variation { span, .. })) => span.end,
        Some((_, Node::Setup { span, .. })) => span.end,
        Some((_, Node::Nag { .. })) => u32::MAX,
    };
    if record.errors.iter().any(|e| e.span.start < end)
        || record.notes.iter().any(|n| {
            matches!(
                n.kind,
                ToleratedKind::ProseOutsideMovetext | ToleratedKind::ResultInVariation
            )
        })
    {
        return false;
    }
    let mut diag_spans: Vec<u32> = diagnostics
        .iter()
        .filter_map(|d| d.span.map(|s| s.start))
        .collect();
    diag_spans.sort_unstable();
    let mut lines = vec![(record.body(), 0usize)];
    while let Some((line, depth)) = lines.pop() {
        if depth > MAX_DEPTH {
            return false;
        }
        // As `Normalizer::line` follows a capture written one jump per move.
        let mut chain: Option<Square> = None;
        for (at, node) in record.items(line) {
            match node {
                Node::Move(m) => {
                    let mv = record.move_ref(m);
                    if mv.strength == Some(b"*".as_slice()) {
                        return false;
                    }
                    let r = rec.find(m.span.start);
                    if r.is_none()
                        && m.kind() != MoveKind::Unknown
                        && let Some(sq) = chain
                        && mv.squares.first() == Some(&sq)
                        && diag_spans.binary_search(&m.span.start).is_err()
                    {
                        return false;
                    }
                    chain = match (r, mv.squares.last()) {
                        (Some(_), Some(&sq)) => Some(sq),
                        _ => None,
                    };
                }
                Node::Variation { span, .. } => {
                    chain = None;
                    let inside = record.inside(at);
                    match rec.branch(span.start) {
                        Some(Branch::Last) => {}
                        Some(Branch::Reply | Branch::Next) => return false,
                        None => {
                            // Judged from the records of its first move and the move before
                            // it by the normal form: not followed here.
                            let first = record.items(inside).find_map(|(_, n)| match n {
                                Node::Move(m) => Some(Some(m.span.start)),
                                Node::Comment { .. } | Node::Nag { .. } => None,
                                _ => Some(None),
                            });
                            if first.flatten().and_then(|s| rec.find(s)).is_some() {
                                return false;
                            }
                        }
                    }
                    lines.push((inside, depth + 1));
                }
                Node::Setup { .. } => chain = None,
                Node::Comment { .. } | Node::Nag { .. } => {}
            }
        }
    }
    true
}

/// Give the moves of `body` the move numbers its normal form would give them (see
/// [`normalize`]: the number and side of the replay on the first move of each line and after
/// a setup, and where the count changes otherwise than by alternation; none elsewhere), in
/// place: nothing else is changed (no reply made a move, no variation moved, no capture
/// joined). What `fix` writes of a game it has changed: the numbers of its re-check without a
/// second tree. Returns what the normal form would have changed ([`Normal`] without a body).
pub(crate) fn renumber(
    body: &mut Line,
    rec: &PlyRecorder,
    diagnostics: &[Diagnostic],
    first_mover: Option<Color>,
) -> Normal {
    let mut n = Normalizer::new(rec, diagnostics, first_mover, Mode::Numbers);
    let mut out = Slots::new(std::mem::take(&mut body.items));
    n.line(&mut Src::Own, &mut Ctx::new(Num::START), &mut out, 0);
    body.items = out.finish();
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
    marker_in(&game.source, e)
}

/// The markers of syntax errors that all stand after a game's main line (a game that
/// [`numbering_only`] admits), in the order [`keep_errors`] leaves them after its last item:
/// by where they stand. `source` is the game's text.
pub(crate) fn end_markers(source: &str, errors: &[SyntaxError]) -> Vec<String> {
    let mut errors: Vec<&SyntaxError> = errors.iter().collect();
    errors.sort_by_key(|e| e.span.start);
    errors.iter().map(|e| marker_in(source, e)).collect()
}

/// The text a syntax error of the game whose text is `source` stands on, trimmed.
pub(crate) fn skipped_text<'s>(source: &'s str, e: &SyntaxError) -> &'s str {
    source
        .get(e.span.start as usize..e.span.end as usize)
        .unwrap_or("")
        .trim()
}

/// [`marker`] of an error of the game whose text is `source`.
pub(crate) fn marker_in(source: &str, e: &SyntaxError) -> String {
    let skipped = skipped_text(source, e);
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
pub(crate) struct Ctx {
    next: Num,
    before_last: Option<Num>,
    resync: bool,
    /// The count changed otherwise than by alternation (after a `wrong-side` move): the
    /// next move carries its number.
    recount: bool,
    last: Option<PlyEntry>,
}

impl Ctx {
    pub(crate) fn new(start: Num) -> Ctx {
        Ctx {
            next: start,
            before_last: None,
            resync: true,
            recount: false,
            last: None,
        }
    }

    /// A setup stands next on the line: the move after it carries its number.
    pub(crate) fn setup(&mut self) {
        self.resync = true;
    }

    /// Where a variation standing next on the line (an alternative to the last move, not a
    /// book-style reply) starts counting.
    pub(crate) fn variation_start(&self) -> Num {
        self.before_last.unwrap_or(self.next)
    }

    /// Count the next move of the line (its replay's record `rec`, the number written before
    /// it, the variant's first mover): the number the normal form gives it (`None`: none, the
    /// writers count on from the move before), the count moved on past it.
    pub(crate) fn count(
        &mut self,
        rec: Option<PlyEntry>,
        written: Option<MoveNumber>,
        first_mover: Option<Color>,
    ) -> Option<Num> {
        let given = if self.resync {
            self.next = match (rec, written) {
                (Some(r), _) if first_mover.is_some() => {
                    let n = num_of(&r, first_mover);
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
                _ => self.next,
            };
            self.resync = false;
            Some(self.next)
        } else if self.recount {
            Some(self.next)
        } else {
            None
        };
        self.recount = false;
        self.before_last = Some(self.next);
        let before = self.next;
        self.next = self.next.after();
        if rec.is_some_and(|r| r.played == Played::Irregular(Code::WrongSide)) {
            // A move of the side not to move, played as recorded (a ply is missing): the
            // replay keeps the side to move and counts the move as the mover's (the number
            // goes on after a move of the second player). The next move carries the
            // number, so that reading the output back counts as the replay did.
            self.next = Num {
                number: before.number.saturating_add(u32::from(!before.second)),
                second: before.second,
            };
            self.recount = true;
        }
        self.last = rec;
        given
    }
}

/// What a walk of the tree makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The normal form.
    Normal,
    /// The numbers of the normal form only, given to the moves of the tree as it is.
    Numbers,
}

/// Where the items of a line come from: the slots the line is written over, or the items of
/// a book-style reply, which become items of the line around it.
enum Src {
    Own,
    Reply(std::vec::IntoIter<Item>),
}

impl Src {
    fn next(&mut self, out: &mut Slots) -> Option<Item> {
        match self {
            Src::Own => out.take(),
            Src::Reply(items) => items.next(),
        }
    }
}

/// A line written over its own items: each item is taken from its slot before the slots up
/// to it are written, so the line as read and the line written share one array. What does
/// not fit yet (the line grows: a `$7` after a move, the moves of a reply) waits in a queue,
/// placed as slots come free, else appended at the end.
struct Slots {
    items: Vec<Item>,
    /// The next item to take.
    read: usize,
    /// The next slot to write.
    write: usize,
    waiting: std::collections::VecDeque<Item>,
}

/// What stands in a slot whose item was taken.
const HOLE: Item = Item::Nag(Nag {
    value: 0,
    span: Span::at(0),
});

impl Slots {
    fn new(items: Vec<Item>) -> Slots {
        Slots {
            items,
            read: 0,
            write: 0,
            waiting: std::collections::VecDeque::new(),
        }
    }

    /// The next item, not taken.
    fn peek(&self) -> Option<&Item> {
        self.items.get(self.read)
    }

    /// Take the next item (its slot comes free).
    fn take(&mut self) -> Option<Item> {
        let item = std::mem::replace(self.items.get_mut(self.read)?, HOLE);
        self.read += 1;
        while self.write < self.read
            && let Some(w) = self.waiting.pop_front()
        {
            self.items[self.write] = w;
            self.write += 1;
        }
        Some(item)
    }

    /// Write the next item of the line.
    fn push(&mut self, item: Item) {
        if self.waiting.is_empty() && self.write < self.read {
            self.items[self.write] = item;
            self.write += 1;
        } else {
            self.waiting.push_back(item);
        }
    }

    /// The line written (every item taken).
    fn finish(self) -> Vec<Item> {
        let Slots {
            mut items,
            read,
            write,
            waiting,
        } = self;
        debug_assert_eq!(read, items.len(), "every item taken");
        items.truncate(write);
        items.reserve_exact(waiting.len());
        items.extend(waiting);
        items
    }
}

struct Normalizer<'r> {
    rec: &'r PlyRecorder,
    diag_spans: Vec<u32>,
    first_mover: Option<Color>,
    mode: Mode,
    out: Normal,
}

/// Deepest nesting walked (the reader allows less).
const MAX_DEPTH: usize = 256;

impl<'r> Normalizer<'r> {
    fn new(
        rec: &'r PlyRecorder,
        diagnostics: &[Diagnostic],
        first_mover: Option<Color>,
        mode: Mode,
    ) -> Normalizer<'r> {
        let mut diag_spans: Vec<u32> = diagnostics
            .iter()
            .filter_map(|d| d.span.map(|s| s.start))
            .collect();
        diag_spans.sort_unstable();
        Normalizer {
            rec,
            diag_spans,
            first_mover,
            mode,
            out: Normal::default(),
        }
    }

    fn has_diag(&self, at: u32) -> bool {
        self.diag_spans.binary_search(&at).is_ok()
    }

    /// Walk the items of one source line (`src`) into `out`, continuing the output line
    /// `ctx`. With [`Mode::Numbers`], every item goes back where it was.
    fn line(&mut self, src: &mut Src, ctx: &mut Ctx, out: &mut Slots, depth: usize) {
        let numbers = self.mode == Mode::Numbers;
        // The last written square of the previous move of this source line, if that move
        // was replayed (or joined), and where that move starts: where a later fragment of a
        // split capture would start, and the capture it would join.
        let mut chain: Option<(Square, Span)> = None;
        // Alternatives to the coming move, written after it.
        let mut pending: Vec<Item> = Vec::new();
        // A move was written since they were put aside.
        let mut moved = false;
        while let Some(item) = src.next(out) {
            if !pending.is_empty() && moved && matches!(item, Item::Move(_) | Item::Setup(_)) {
                for p in pending.drain(..) {
                    out.push(p);
                }
            }
            match item {
                Item::Move(m) => {
                    let rec = self.rec.find(m.span.start).copied();
                    if rec.is_none()
                        && m.kind != MoveKind::Unknown
                        && let Some((sq, first)) = chain
                        && m.squares.first() == Some(&sq)
                        && !self.has_diag(m.span.start)
                    {
                        // A later fragment of a capture written one jump per move.
                        chain = m.squares.last().map(|&s| (s, first));
                        match self.out.joined.last_mut() {
                            Some(j) if j.first == first => j.dropped.push(m.span),
                            _ => self.out.joined.push(Joined {
                                first,
                                dropped: vec![m.span],
                            }),
                        }
                        if numbers {
                            out.push(Item::Move(m));
                        } else {
                            self.out.fragments.push(m);
                        }
                        continue;
                    }
                    chain = match (rec, m.squares.last()) {
                        (Some(_), Some(&sq)) => Some((sq, m.span)),
                        _ => None,
                    };
                    self.push_move(m, rec, ctx, out);
                    moved = true;
                }
                Item::Comment(_) | Item::Nag(_) => out.push(item),
                Item::Setup(_) => {
                    chain = None;
                    ctx.resync = true;
                    out.push(item);
                }
                Item::Variation(mut v) => {
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
                        if numbers {
                            // Numbered as moves of this line, left where they are.
                            let mut sub = Slots::new(std::mem::take(&mut v.line.items));
                            self.line(&mut Src::Own, ctx, &mut sub, depth + 1);
                            v.line.items = sub.finish();
                            out.push(Item::Variation(v));
                        } else {
                            let items = std::mem::take(&mut v.line.items);
                            self.line(&mut Src::Reply(items.into_iter()), ctx, out, depth + 1);
                        }
                    } else {
                        let start = if next {
                            ctx.next
                        } else {
                            ctx.variation_start()
                        };
                        let mut sub = Slots::new(std::mem::take(&mut v.line.items));
                        if depth < MAX_DEPTH {
                            self.line(&mut Src::Own, &mut Ctx::new(start), &mut sub, depth + 1);
                        } else {
                            // Too deep to walk: kept as it is.
                            while let Some(i) = sub.take() {
                                sub.push(i);
                            }
                        }
                        v.line.items = sub.finish();
                        let var = Item::Variation(v);
                        if next && !numbers {
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
        for p in pending {
            out.push(p);
        }
    }

    fn push_move(
        &mut self,
        mut item: MoveItem,
        rec: Option<PlyEntry>,
        ctx: &mut Ctx,
        out: &mut Slots,
    ) {
        let written = item.number;
        let span = item.span;
        item.number = ctx
            .count(rec, written, self.first_mover)
            .map(|n| MoveNumber {
                number: n.number,
                second_player: n.second,
                span: written.map_or(Span::at(span.start), |t| t.span),
            });
        let star = self.mode == Mode::Normal && item.strength.as_deref() == Some("*");
        if star {
            item.strength = None;
            self.out.stars += 1;
        }
        out.push(Item::Move(item));
        if star {
            out.push(Item::Nag(Nag { value: 7, span }));
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
mod reference;

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
