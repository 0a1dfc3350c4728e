//! The PDN writer: strict PDN 3.0 (docs/pdn.md#what-pdn-writes) from a [`Game`] — standard tag order,
//! escaped values, numbered moves, comments, NAGs, variations and setups, lines wrapped at a
//! width, and `*` as the only game separator — plus the syntactic normal form of a move.
//!
//! What the strict grammar cannot hold is made safe, and documented here (so that reading
//! what was written gives the same game, see [`comment_for_writing`] and
//! [`tag_value_for_writing`]):
//! - a `}` in a comment's text is written as `)` (comments have no escape); a line break in
//!   a comment that is followed by `[` becomes a space (the reader takes a comment line
//!   starting with a tag pair for an unterminated comment); line comments (`%`, `;`) are
//!   written as brace comments;
//! - a line break in a tag value (CR LF, CR or LF) is written as one space (FEN values
//!   broken over lines mean the same with a space);
//! - a `"` or `/` in a setup's FEN is dropped (the SETUP token cannot contain `/`);
//! - a tag name that is no PDN identifier gets a capital first letter (`X` prefixed when it
//!   does not start with a letter) and `_` for every other character
//!   ([`tag_name_for_writing`]);
//! - the result of the movetext goes into a `Result` tag when the game has none; the
//!   movetext ends with ` *` (or, [`WriteOptions::result_terminator`], with the result when
//!   it is one of PDN's);
//! - an unknown move written `...` is written `-` (after a move number `12. ...` would read
//!   as the second player's number).
//!
//! Comments are never re-wrapped (that would change their text), so a long comment makes a
//! long line. The writer walks variations with an explicit stack.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::game::{Game, Item, Line, MoveItem, MoveKind, ResultToken, Square, Tag};
use super::token;
use super::visitor::MoveRef;

/// Writer settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteOptions {
    /// Wrap movetext lines at this many characters (default 80); a single longer token
    /// (a long comment) stays on its own line.
    pub line_width: usize,
    /// End the movetext with the result that ended it as read, when that is not the value
    /// of the `Result` tag (so that a disagreement between the two is not lost); otherwise,
    /// and by default, with `*` (PDN 3.0 keeps the result in the tag).
    pub keep_terminator: bool,
    /// Write a move number that stands on a move inside a line (not where the line starts
    /// or after a setup) as it is, and count on from it, instead of numbering the moves in
    /// sequence: for move trees whose numbers were already normalised, where a number
    /// inside a line marks where the count must change.
    pub numbers_as_given: bool,
    /// End the movetext with the game's result ([`result_terminator`]) instead of `*`, as
    /// PDN 2.0 and CheckerBoard write it (`--result-style terminator`); a result ending the
    /// movetext as read that disagrees with the `Result` tag is still written as read when
    /// `keep_terminator` asks for it.
    pub result_terminator: bool,
}

impl Default for WriteOptions {
    fn default() -> Self {
        WriteOptions {
            line_width: 80,
            keep_terminator: false,
            numbers_as_given: false,
            result_terminator: false,
        }
    }
}

/// A comment's text as the writer writes it between `{` and `}`: `}` becomes `)`, a run of
/// white space holding a line break and followed by `[` becomes one space, and NUL becomes
/// U+FFFD (no text holds it, and NULs between letters would make a reader take the file for
/// UTF-16).
pub fn comment_for_writing(text: &str) -> Cow<'_, str> {
    if !text.contains(['}', '[', '\0']) {
        return Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let (mut i, mut last) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'}' => {
                out.push_str(&text[last..i]);
                out.push(')');
                i += 1;
                last = i;
            }
            0 => {
                out.push_str(&text[last..i]);
                out.push('\u{FFFD}');
                i += 1;
                last = i;
            }
            b' ' | b'\t' | b'\r' | b'\n' => {
                let mut j = i;
                let mut line_break = false;
                while let Some(&c @ (b' ' | b'\t' | b'\r' | b'\n')) = b.get(j) {
                    line_break |= c == b'\r' || c == b'\n';
                    j += 1;
                }
                if line_break && b.get(j) == Some(&b'[') {
                    out.push_str(&text[last..i]);
                    out.push(' ');
                    last = j;
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    out.push_str(&text[last..]);
    Cow::Owned(out)
}

/// The FEN of a setup as the writer writes it between `/FEN "` and `"/`: without the `"`
/// and `/` that cannot stand there (no FEN holds them).
pub fn setup_for_writing(fen: &str) -> Cow<'_, str> {
    if !fen.contains(['"', '/']) {
        return Cow::Borrowed(fen);
    }
    Cow::Owned(fen.chars().filter(|&ch| ch != '"' && ch != '/').collect())
}

/// A tag value as the writer writes it (before escaping `"` and `\`): every line break (CR
/// LF, CR or LF) becomes one space, and NUL becomes U+FFFD (as in comments).
pub fn tag_value_for_writing(value: &str) -> Cow<'_, str> {
    if !value.contains(['\r', '\n', '\0']) {
        return Cow::Borrowed(value);
    }
    Cow::Owned(
        value
            .replace("\r\n", " ")
            .replace(['\r', '\n'], " ")
            .replace('\0', "\u{FFFD}"),
    )
}

/// The seven standard tags, in the order they are written (`app::fix::tags` writes a
/// record's tags in batches by the same list).
pub(crate) const STANDARD: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The tags in the order the writer writes them: the standard tags (Event, Site, Date,
/// Round, White, Black, Result — every occurrence, in file order within a name), then every
/// other tag in file order. Names are compared as written ([`tag_name_for_writing`]).
pub fn ordered_tags(tags: &[Tag]) -> Vec<&Tag> {
    let names: Vec<Cow<'_, str>> = tags.iter().map(|t| tag_name_for_writing(&t.name)).collect();
    let mut out: Vec<&Tag> = Vec::with_capacity(tags.len());
    for name in STANDARD {
        out.extend(
            tags.iter()
                .zip(&names)
                .filter(|(_, n)| *n == name)
                .map(|(t, _)| t),
        );
    }
    out.extend(
        tags.iter()
            .zip(&names)
            .filter(|(_, n)| !STANDARD.contains(&n.as_ref()))
            .map(|(t, _)| t),
    );
    out
}

/// The purely syntactic normal form of a move: squares without leading zeros joined by `-`
/// (moves) or `x` (captures, whatever separator was written), lower-case algebraic squares,
/// no spaces. An undivided move keeps its squares undivided (numeric squares as two digits
/// each, so `0932` stays `0932`); an unknown move stays as written. The one move that would
/// read back as a result, `1-1`, is written `01-01`.
pub fn canonical_move_text(game: &Game, m: &MoveItem) -> String {
    canonical_move_text_in(&game.source, m)
}

/// [`canonical_move_text`] of a move of the game whose text is `source`.
pub fn canonical_move_text_in(source: &str, m: &MoveItem) -> String {
    canonical_move_ref_text(source, &m.to_ref())
}

/// [`canonical_move_text`] of a move read into a visitor, of the game whose text is `source`.
pub fn canonical_move_ref_text(source: &str, m: &MoveRef<'_>) -> String {
    let mut s = String::new();
    let sep = match m.kind {
        MoveKind::Unknown => {
            let t = source
                .get(m.span.start as usize..m.span.end as usize)
                .unwrap_or("")
                .trim();
            return if t.is_empty() {
                "-".to_owned()
            } else {
                t.to_owned()
            };
        }
        MoveKind::Normal => "-",
        MoveKind::Capture(_) => "x",
        MoveKind::Undivided => "",
    };
    let undivided_pairs = m.kind == MoveKind::Undivided && m.squares.len() >= 2;
    for (i, sq) in m.squares.iter().enumerate() {
        if i > 0 {
            s.push_str(sep);
        }
        match *sq {
            Square::Num(n) if undivided_pairs => {
                let _ = write!(s, "{n:02}");
            }
            _ => {
                let _ = write!(s, "{sq}");
            }
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    if s == "1-1" {
        // The move 1-1 (never legal, but it can be written) would read back as a draw.
        s.insert(0, '0');
        s.insert(3, '0');
    }
    s
}

/// Write one game as strict PDN 3.0 to `out`: the tag section, a blank line, the movetext
/// ending with ` *` (see [`WriteOptions::keep_terminator`]), and a blank line. `move_text` gives the text of each move (use
/// [`canonical_move_text`] for a purely syntactic copy).
pub fn write_game(
    game: &Game,
    opts: &WriteOptions,
    move_text: &mut dyn FnMut(&Game, &MoveItem) -> String,
    out: &mut String,
) {
    let parts = GameParts {
        tags: &game.tags,
        body: &game.body,
        result: game.result.as_ref(),
    };
    write_parts(game, parts, opts, move_text, out);
}

/// What [`write_parts`] writes of a game: its tags, its main line and the result that ended
/// its movetext (written into a `Result` tag when there is none).
#[derive(Clone, Copy, Debug)]
pub struct GameParts<'a> {
    /// The tags.
    pub tags: &'a [Tag],
    /// The main line.
    pub body: &'a Line,
    /// The result token of the movetext.
    pub result: Option<&'a ResultToken>,
}

/// Where a long text goes while it is written: each time the text written reaches
/// [`Drain::at`] bytes, the writer hands it to [`Drain::take`], which empties it (a huge
/// game's output is then never held whole; `pdn::app::write::spill`).
pub trait Drain {
    /// The size of the text written at which it is handed over.
    fn at(&self) -> usize;
    /// Take the text written so far, leaving `out` empty (or as it was, to keep it).
    fn take(&mut self, out: &mut String);
}

/// The drain that keeps everything in the writer's string.
#[derive(Clone, Copy, Debug, Default)]
pub struct Keep;

impl Drain for Keep {
    fn at(&self) -> usize {
        usize::MAX
    }

    fn take(&mut self, _: &mut String) {}
}

/// [`write_game`] with other tags, body and result than the game's own: `game` is the record
/// whose text the spans of `parts` index (it is handed to `move_text`), so a game can be
/// written with its tags or moves changed without building another [`Game`].
pub fn write_parts(
    game: &Game,
    parts: GameParts<'_>,
    opts: &WriteOptions,
    move_text: &mut dyn FnMut(&Game, &MoveItem) -> String,
    out: &mut String,
) {
    write_parts_to(game, parts, opts, move_text, out, &mut Keep);
}

/// [`write_parts`] handing the text to `drain` as it grows (`out` holds what is left at the
/// end).
pub fn write_parts_to(
    game: &Game,
    parts: GameParts<'_>,
    opts: &WriteOptions,
    move_text: &mut dyn FnMut(&Game, &MoveItem) -> String,
    out: &mut String,
    drain: &mut dyn Drain,
) {
    write_tags(parts.tags, parts.result, out, drain);
    let mut w = Wrap {
        out,
        col: 0,
        width: opts.line_width.max(1),
        open: String::new(),
        drain,
    };
    write_body(game, parts.body, move_text, opts.numbers_as_given, &mut w);
    match parts.result {
        Some(r)
            if opts.keep_terminator
                && !r.is_asterisk()
                && parts
                    .tags
                    .iter()
                    .find(|t| t.name == "Result")
                    .is_some_and(|t| t.value.trim() != r.text.trim()) =>
        {
            let text: String = r.text.chars().filter(|c| !c.is_whitespace()).collect();
            w.unit(&text);
        }
        _ => match result_terminator(parts.tags, parts.result).filter(|_| opts.result_terminator) {
            Some(text) => w.unit(text),
            None => w.unit("*"),
        },
    }
    out.push_str("\n\n");
}

/// The results a game may end with in place of `*` (PDN 2.0's list, both result types).
const TERMINATORS: [&str; 7] = ["2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2"];

/// The result to end a game's movetext with, when it is to end with its result rather than
/// `*`: the `Result` tag's value (else the result that ended the movetext as read, which
/// the writer puts into the tag), without spaces, when it is one of the results of PDN
/// (`2-0`, `1-1`, `0-2`, `1-0`, `1/2-1/2`, `0-1`, `0-0`); `None` for `*`, an unknown result
/// or any other score (the movetext then ends with `*`: a reader would not take `4-6` for
/// a terminator).
pub fn result_terminator(tags: &[Tag], result: Option<&ResultToken>) -> Option<&'static str> {
    let value = match tags.iter().find(|t| t.name == "Result") {
        Some(t) => t.value.as_str(),
        None => result?.text.as_str(),
    };
    let compact: String = value.chars().filter(|c| !c.is_whitespace()).collect();
    TERMINATORS.into_iter().find(|t| *t == compact)
}

/// The tag section: the tags in writing order (with a `Result` tag made from `result` when
/// there is none), a blank line after them.
pub(crate) fn write_tags(
    tags: &[Tag],
    result: Option<&ResultToken>,
    out: &mut String,
    drain: &mut dyn Drain,
) {
    let synthetic;
    let has_result = tags.iter().any(|t| t.name == "Result");
    let mut tags = ordered_tags(tags);
    if !has_result && let Some(r) = result.filter(|r| !r.is_asterisk()) {
        synthetic = Tag::new("Result", r.text.clone(), r.span);
        // After the other standard tags, before the rest.
        let at = tags
            .iter()
            .position(|t| !STANDARD.contains(&tag_name_for_writing(&t.name).as_ref()))
            .unwrap_or(tags.len());
        tags.insert(at, &synthetic);
    }
    for t in &tags {
        out.push('[');
        push_tag_name(&t.name, out);
        out.push_str(" \"");
        for c in tag_value_for_writing(&t.value).chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str("\"]\n");
        if out.len() >= drain.at() {
            drain.take(out);
        }
    }
    if !tags.is_empty() {
        out.push('\n');
    }
}

/// A tag name as the writer writes it: a PDN identifier as it is; otherwise a capital first
/// letter (`X` prefixed when it does not start with a letter) and `_` for every character
/// other than a letter, digit or `_`.
pub fn tag_name_for_writing(name: &str) -> Cow<'_, str> {
    if token::is_identifier(name.as_bytes()) {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 1);
    push_tag_name(name, &mut out);
    Cow::Owned(out)
}

fn push_tag_name(name: &str, out: &mut String) {
    if token::is_identifier(name.as_bytes()) {
        out.push_str(name);
        return;
    }
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() => out.push(c.to_ascii_uppercase()),
        Some(c) => {
            out.push('X');
            out.push(if c.is_ascii_alphanumeric() { c } else { '_' });
        }
        None => out.push('X'),
    }
    for c in chars {
        out.push(if c.is_ascii_alphanumeric() || c == '_' {
            c
        } else {
            '_'
        });
    }
}

/// Line-wrapping output: units separated by one space, a new line when the next unit would
/// pass the width.
struct Wrap<'o> {
    out: &'o mut String,
    col: usize,
    width: usize,
    /// `(` waiting to be glued to the next unit.
    open: String,
    /// Takes the text as it grows (the column is counted here, not read from `out`).
    drain: &'o mut dyn Drain,
}

impl Wrap<'_> {
    fn unit(&mut self, text: &str) {
        let prefix = std::mem::take(&mut self.open);
        let len = prefix.len()
            + if text.is_ascii() {
                text.len()
            } else {
                text.chars().count()
            };
        if self.col > 0 {
            if self.col + 1 + len > self.width {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        self.out.push_str(&prefix);
        self.out.push_str(text);
        match text.rfind(['\n', '\r']) {
            Some(k) => self.col = text[k + 1..].chars().count(),
            None => self.col += len,
        }
        if self.out.len() >= self.drain.at() {
            self.drain.take(self.out);
        }
    }

    fn open_paren(&mut self) {
        self.open.push('(');
    }

    fn close_paren(&mut self) {
        if self.open.is_empty() {
            self.out.push(')');
            self.col += 1;
        } else {
            // An empty variation: `()`.
            self.unit(")");
        }
    }
}

/// A move number and side as a writer counts them: the number and side of the next move
/// of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Num {
    /// Move number.
    pub number: u32,
    /// True for the second player's move.
    pub second: bool,
}

impl Num {
    /// The first move of a game.
    pub const START: Num = Num {
        number: 1,
        second: false,
    };

    /// The number and side of the move after this one.
    pub fn after(self) -> Num {
        if self.second {
            Num {
                number: self.number.saturating_add(1),
                second: false,
            }
        } else {
            Num {
                number: self.number,
                second: true,
            }
        }
    }
}

struct Frame<'g> {
    items: &'g [Item],
    idx: usize,
    next: Num,
    /// The state before the last move of this line (where a variation after it starts).
    before_last: Option<Num>,
    /// Write the number even for a second-player move (line start, after a comment, …).
    force: bool,
    /// The next move may take its own number token (line start, after a setup).
    resync: bool,
}

impl<'g> Frame<'g> {
    fn new(items: &'g [Item], start: Num) -> Frame<'g> {
        Frame {
            items,
            idx: 0,
            next: start,
            before_last: None,
            force: true,
            resync: true,
        }
    }
}

fn write_body(
    game: &Game,
    body: &Line,
    move_text: &mut dyn FnMut(&Game, &MoveItem) -> String,
    numbers_as_given: bool,
    w: &mut Wrap<'_>,
) {
    let start = Num {
        number: 1,
        second: false,
    };
    let mut stack = vec![Frame::new(&body.items, start)];
    let mut unit = String::new();
    while let Some(f) = stack.last_mut() {
        let Some(item) = f.items.get(f.idx) else {
            stack.pop();
            if let Some(parent) = stack.last_mut() {
                w.close_paren();
                parent.force = true;
            }
            continue;
        };
        f.idx += 1;
        unit.clear();
        match item {
            Item::Move(m) => {
                if let Some(n) = m.number
                    && (f.resync || numbers_as_given)
                {
                    // A number where the line starts (or after a setup) sets the count; with
                    // `numbers_as_given`, one elsewhere that is not the count's is written as
                    // it is, and counted on.
                    let n = Num {
                        number: n.number,
                        second: n.second_player,
                    };
                    if !f.resync && n != f.next {
                        f.force = true;
                    }
                    f.next = n;
                }
                f.resync = false;
                let mut text = move_text(game, m);
                if m.kind == MoveKind::Unknown && text.starts_with('.') {
                    // `12. ...` would read back as the second player's number.
                    text = "-".to_owned();
                }
                if !f.next.second {
                    let _ = write!(unit, "{}. ", f.next.number);
                } else if f.force {
                    let _ = write!(unit, "{}... ", f.next.number);
                }
                unit.push_str(&text);
                if let Some(s) = &m.strength {
                    unit.push_str(s);
                }
                f.before_last = Some(f.next);
                f.next = f.next.after();
                f.force = false;
                w.unit(&unit);
            }
            Item::Comment(c) => {
                unit.push('{');
                unit.push_str(&comment_for_writing(&c.text));
                unit.push('}');
                f.force = true;
                w.unit(&unit);
            }
            Item::Nag(n) => {
                let _ = write!(unit, "${}", n.value);
                w.unit(&unit);
            }
            Item::Setup(s) => {
                unit.push_str("/FEN \"");
                unit.push_str(&setup_for_writing(&s.fen));
                unit.push_str("\"/");
                f.force = true;
                f.resync = true;
                w.unit(&unit);
            }
            Item::Variation(v) => {
                let st = f.before_last.unwrap_or(f.next);
                w.open_paren();
                stack.push(Frame::new(&v.line.items, st));
            }
        }
    }
}
