//! The game-level PDN reading grammar (docs/pdn.md#movetext): one game from a byte
//! slice — its tag section, movetext, variations (with an explicit stack, never recursion),
//! terminator — with error recovery, tolerated constructs and the game-boundary decisions.
//!
//! The parser runs over the reader's buffer starting at the game's first byte. When it has
//! to look at a byte past the end of the slice and the source is not exhausted it gives up
//! with [`NeedMore`]; the reader then refills and parses the game again from its start
//! (buffer growth is geometric, so the total work stays linear). With `eof` set, the end of
//! the slice is the end of the file. So every decision depends only on the bytes of the
//! file, never on where a buffer happens to end.
//!
//! Boundary decisions (documented because the PDN grammar leaves them open):
//! - a result (`2-0`, `1-1`, `1/2-1/2`, `0-0`, `½-½`, `0.5-0.5`, `1 - 1`, …) or `*` outside a
//!   variation ends the game; a `*` right after a result on the same line is absorbed;
//! - a move token is lexed longest-first (`1-10` is a move), then compared with the results
//!   (`1-1` is one only when the digits are exactly `1` and `1`);
//! - a move-like `a-b` equal to the game's `Result` tag (`4-6`, `1-9`: micro-match scores) is
//!   the result when only the end of the file or a tag section follows it;
//! - `*` touching a move (`1-6*`) is FMJD's forced-move sign when more game follows, and the
//!   separator when the end of the file or a tag section follows;
//! - a `[` after a body element (move, move number, NAG, variation, setup, unknown token)
//!   starts the next game, which was not separated;
//! - `N. ...` is the second player's move number; `...` anywhere else is an unknown move.
//! - a `{` comment that is not closed before a tag section, or (in an archive without tags)
//!   before a line that ends with a result and is followed by move number 1, stops there (a
//!   syntax error): the next game is read as a game.

use memchr::{memchr, memchr2, memchr3};

use super::game::{
    CommentKind, MoveKind, MoveNumber, Nag, Span, SyntaxError, SyntaxErrorKind, Tolerated,
    ToleratedKind,
};
use super::squares::Squares;
use super::token::{self, is_ws};

mod annotations;
mod fast;
mod moves;
mod prose;
mod sink;
mod tags;
mod terminators;

use annotations::Run;
use fast::{Fast, IN_COMMENT, class};
pub(crate) use sink::{MoveToken, Parsed, Sink, parse_game, unescape};

/// Variations nest at most this deep in a [`Game`](super::Game). Deeper parentheses are a syntax error;
/// their contents stay in the deepest kept variation. This bounds the depth of the move
/// tree, so code walking it recursively cannot overflow the stack.
pub const MAX_VARIATION_DEPTH: usize = 64;

/// Syntax errors kept per game; further ones are counted in one last error.
pub const MAX_ERRORS_PER_GAME: usize = 100;

/// Comments and NAGs kept in a row (with nothing else between them); the rest of such a
/// run is skipped and counted in one syntax error. Real records hold a handful; a flood of
/// millions would cost a [`Game`](super::Game) tens of times its size in items.
pub const MAX_ANNOTATIONS_IN_A_ROW: u32 = 1024;

/// Bytes that must be available (or the file must end) before a token is read, so that no
/// bounded token is cut by the end of the buffer.
const LOOKAHEAD: usize = 64;

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The length of a literal escape sequence at `p` that a broken exporter wrote where white
/// space stands: `\r`, `\n` or `\t` as two characters (2), or escaped once more, `\\r`
/// (3); 0 if there is none. (A decision on the bytes at `p`: every caller has the
/// [`LOOKAHEAD`] bytes, or the end of the file, after `p`.)
#[inline]
pub(super) fn escape_len(s: &[u8], p: usize) -> usize {
    match s.get(p..) {
        Some([b'\\', b'r' | b'n' | b't', ..]) => 2,
        Some([b'\\', b'\\', b'r' | b'n' | b't', ..]) => 3,
        _ => 0,
    }
}

/// The literal escape at `p` stands for a line break (`\r`, `\n`), not a tab.
fn escape_breaks_line(s: &[u8], p: usize) -> bool {
    let n = escape_len(s, p);
    n > 0 && s[p + n - 1] != b't'
}

/// The slice ended before the game could be decided; the source has more bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NeedMore;

type Res<T> = Result<T, NeedMore>;

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// A result or `*`.
    Terminator,
    /// A tag section after movetext.
    NextTags,
    /// The end of the file.
    Eof,
}

/// What the grammar itself keeps of a game (the elements went to the [`Sink`]).
#[derive(Debug)]
pub(crate) struct Meta {
    /// Bytes of the slice that belong to this game; the next game starts here.
    pub consumed: usize,
    /// End of the game's text (trailing white space trimmed).
    pub source_end: usize,
    /// How it ended.
    pub end: End,
    /// Syntax errors.
    pub errors: Vec<SyntaxError>,
    /// Tolerated constructs.
    pub notes: Vec<Tolerated>,
}

/// Parse one game starting at `s[0]` (which should not be white space) into `sink`. On
/// [`NeedMore`], the sink has received the elements up to some point; parsing again from
/// the start over a longer slice gives the same elements first (every decision depends on
/// the bytes of the file, not on where the slice ends).
pub(crate) fn parse<S: Sink>(s: &[u8], eof: bool, sink: &mut S) -> Result<Meta, NeedMore> {
    parse_into(s, eof, true, sink)
}

fn parse_into<S: Sink>(s: &[u8], eof: bool, fast: bool, sink: &mut S) -> Result<Meta, NeedMore> {
    let mut p = P {
        fast,
        result_tag_movelike: false,
        s,
        pos: 0,
        eof,
        sink,
        has_tags: false,
        errors: Vec::new(),
        suppressed: 0,
        notes: Vec::new(),
        line: Frame::new(0),
        stack: Vec::new(),
        excess: 0,
        deep_reported: false,
        result_tag: None,
        has_body: false,
        has_comment: false,
        tags_end: 0,
        first_token: 0,
        ended_by_star: false,
        run: Run::default(),
    };
    let end = p.run()?;
    Ok(p.finish(end))
}

struct Frame {
    open: usize,
    pending: Option<MoveNumber>,
    /// The last element of this line is a move without a strength.
    bare_move: bool,
}

impl Frame {
    fn new(open: usize) -> Frame {
        Frame {
            open,
            pending: None,
            bare_move: false,
        }
    }
}

struct P<'a, S> {
    /// Use the fast paths for the commonest tokens (off only to test them).
    fast: bool,
    /// The `Result` tag looks like a move (`4-6`): moves must be checked against it.
    result_tag_movelike: bool,
    s: &'a [u8],
    pos: usize,
    eof: bool,
    sink: &'a mut S,
    has_tags: bool,
    errors: Vec<SyntaxError>,
    suppressed: u32,
    notes: Vec<Tolerated>,
    /// The line being read (the main line, or the innermost open variation).
    line: Frame,
    /// The lines around it, outermost (the main line) first, while variations are open.
    stack: Vec<Frame>,
    excess: u32,
    deep_reported: bool,
    result_tag: Option<Vec<u8>>,
    has_body: bool,
    has_comment: bool,
    /// Where the last tag pair ended.
    tags_end: usize,
    /// Where the game's first token is (past terminators skipped as stray).
    first_token: usize,
    /// The game ended with `*` (not a result).
    ended_by_star: bool,
    /// The comments and NAGs in a row so far.
    run: Run,
}

#[inline]
fn sp(a: usize, b: usize) -> Span {
    Span::new(a as u32, b as u32)
}

/// At most 24 characters of `b` for a message, control characters escaped.
fn show(b: &[u8]) -> String {
    let text = String::from_utf8_lossy(b);
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == 24 {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

fn compact(b: &[u8]) -> Vec<u8> {
    b.iter().copied().filter(|&c| !is_ws(c)).collect()
}

/// `text` without its white space equals `compacted`.
fn eq_compact(text: &[u8], compacted: &[u8]) -> bool {
    text.iter()
        .copied()
        .filter(|&c| !is_ws(c))
        .eq(compacted.iter().copied())
}

impl<'a, S: Sink> P<'a, S> {
    // ---- positions and the end of the slice ----

    /// The byte at `p`; `None` at the end of the file; `NeedMore` at the end of the slice.
    #[inline]
    fn at(&self, p: usize) -> Res<Option<u8>> {
        match self.s.get(p) {
            Some(&b) => Ok(Some(b)),
            None if self.eof => Ok(None),
            None => Err(NeedMore),
        }
    }

    /// A token ended at `e`: if that is the end of the slice it might go on.
    #[inline]
    fn check_end(&self, e: usize) -> Res<()> {
        if e >= self.s.len() && !self.eof {
            Err(NeedMore)
        } else {
            Ok(())
        }
    }

    /// Run a token parser at the current position: `Some((start, end, value))` when it
    /// matches (its end checked with [`Self::check_end`]), `None` when it does not.
    #[inline]
    fn lex<T>(
        &self,
        parser: impl FnOnce(&'a [u8]) -> nom::IResult<&'a [u8], T, ()>,
    ) -> Res<Option<(usize, usize, T)>> {
        let start = self.pos;
        match parser(&self.s[start..]) {
            Ok((rest, value)) => {
                let end = self.s.len() - rest.len();
                self.check_end(end)?;
                Ok(Some((start, end, value)))
            }
            Err(_) => Ok(None),
        }
    }

    /// Skip white space from `p`.
    #[inline]
    fn ws_from(&self, mut p: usize) -> Res<usize> {
        while let Some(b) = self.at(p)? {
            if !is_ws(b) {
                break;
            }
            p += 1;
        }
        Ok(p)
    }

    /// Skip white space and literal escapes (see [`escape_len`]) from `p` (a lookahead;
    /// nothing is recorded).
    #[inline]
    fn ws_esc_from(&self, mut p: usize) -> Res<usize> {
        loop {
            p = self.ws_from(p)?;
            if self.at(p)? == Some(b'\\') {
                self.at(p + 2)?;
                let n = escape_len(self.s, p);
                if n > 0 {
                    p += n;
                    continue;
                }
            }
            return Ok(p);
        }
    }

    /// Read white space and literal escapes from `pos`, each escape noted.
    fn skip_escapes(&mut self) -> Res<()> {
        loop {
            let p = self.ws_from(self.pos)?;
            self.pos = p;
            if self.at(p)? != Some(b'\\') {
                return Ok(());
            }
            self.at(p + 2)?;
            let n = escape_len(self.s, p);
            if n == 0 {
                return Ok(());
            }
            self.note(ToleratedKind::LiteralEscape, sp(p, p + n));
            self.pos = p + n;
        }
    }

    /// Skip spaces and tabs from `p`.
    #[inline]
    fn hspace_from(&self, mut p: usize) -> Res<usize> {
        while let Some(b) = self.at(p)? {
            if b != b' ' && b != b'\t' {
                break;
            }
            p += 1;
        }
        Ok(p)
    }

    /// Skip white space and comments from `p` (a lookahead; nothing is recorded).
    fn trivia_from(&self, mut p: usize) -> Res<usize> {
        loop {
            p = self.ws_esc_from(p)?;
            match self.at(p)? {
                Some(0xEF) if self.s[p..].starts_with(BOM) => p += 3,
                Some(b'{') => match memchr(b'}', &self.s[p..]) {
                    Some(k) => p += k + 1,
                    None => {
                        self.check_end(self.s.len())?;
                        return Ok(self.s.len());
                    }
                },
                Some(b'%' | b';') => match memchr2(b'\n', b'\r', &self.s[p..]) {
                    Some(k) => p += k,
                    None => {
                        self.check_end(self.s.len())?;
                        return Ok(self.s.len());
                    }
                },
                _ => return Ok(p),
            }
        }
    }

    // ---- recording ----

    fn error(&mut self, kind: SyntaxErrorKind, span: Span, message: impl FnOnce() -> String) {
        // An error that says text was left out is never left out itself.
        if self.errors.len() < MAX_ERRORS_PER_GAME || kind.loses_text() {
            self.errors.push(SyntaxError {
                kind,
                span,
                message: message(),
            });
        } else {
            self.suppressed = self.suppressed.saturating_add(1);
        }
    }

    #[inline]
    fn note(&mut self, kind: ToleratedKind, span: Span) {
        if let Some(n) = self.notes.iter_mut().find(|n| n.kind == kind) {
            n.count = n.count.saturating_add(1);
        } else {
            self.notes.push(Tolerated {
                kind,
                span,
                count: 1,
            });
        }
    }

    /// Where the outermost open variation starts (a variation is open).
    fn outer_open(&self) -> usize {
        self.stack.get(1).map_or(self.line.open, |f| f.open)
    }

    /// Leave the current variation for the line it is in: its frame.
    fn pop_line(&mut self) -> Option<Frame> {
        let parent = self.stack.pop()?;
        Some(std::mem::replace(&mut self.line, parent))
    }

    /// A move into the current line.
    #[inline(always)]
    fn emit_move(&mut self, squares: Squares, kind: MoveKind, strength: Option<&[u8]>, span: Span) {
        self.end_run();
        let frame = &mut self.line;
        let number = frame.pending.take();
        frame.bare_move = strength.is_none();
        self.sink.push_move(MoveToken {
            number,
            squares,
            kind,
            strength,
            span,
        });
    }

    /// The usual move, two numbered squares without a strength, into the current line: what
    /// [`P::emit_move`] does with it, without building its [`Squares`].
    #[inline(always)]
    fn emit_pair(&mut self, from: u32, to: u32, kind: MoveKind, span: Span) {
        self.end_run();
        let frame = &mut self.line;
        let number = frame.pending.take();
        frame.bare_move = true;
        self.sink.push_pair(number, [from, to], kind, span);
    }

    /// Something other than a move went into the current line.
    #[inline]
    fn not_a_move(&mut self) {
        self.line.bare_move = false;
    }

    // ---- the game ----

    fn run(&mut self) -> Res<End> {
        loop {
            // White space (fast path; the slow path settles the end of the slice).
            while let Some(&b) = self.s.get(self.pos) {
                if !is_ws(b) {
                    break;
                }
                self.pos += 1;
            }
            let Some(b) = self.at(self.pos)? else {
                return Ok(End::Eof);
            };
            if !self.eof && self.s.len() - self.pos < LOOKAHEAD {
                return Err(NeedMore);
            }
            match b {
                b'{' => {
                    self.brace_comment()?;
                    continue;
                }
                0xEF if self.s[self.pos..].starts_with(BOM) => {
                    // A byte-order mark inside the file (files joined together).
                    self.note(ToleratedKind::Bom, sp(self.pos, self.pos + 3));
                    self.pos += 3;
                    continue;
                }
                b'%' => {
                    self.line_comment(false)?;
                    continue;
                }
                b';' => {
                    self.line_comment(true)?;
                    continue;
                }
                b'\\' if escape_len(self.s, self.pos) > 0 => {
                    // `\r` written as text at a line's end, `\n` between tags: white space.
                    let n = escape_len(self.s, self.pos);
                    self.note(ToleratedKind::LiteralEscape, sp(self.pos, self.pos + n));
                    self.pos += n;
                    continue;
                }
                b'[' => {
                    // Tags after movetext start the next game; so do tags after a blank line,
                    // unless the game has no move yet and they name none of its tags (a tag
                    // section that a broken exporter interrupted).
                    if self.has_body {
                        return Ok(End::NextTags);
                    }
                    if self.has_tags && self.blank_line(self.tags_end, self.pos) {
                        if !self.resumes_tags(self.pos)? {
                            return Ok(End::NextTags);
                        }
                        self.note(
                            ToleratedKind::ResumedTagSection,
                            sp(self.tags_end, self.pos),
                        );
                    }
                    self.tag_pair()?;
                    self.tags_end = self.pos;
                    continue;
                }
                _ => {}
            }
            if !self.has_body && self.outside_movetext()? {
                continue;
            }
            if self.has_body
                && self.stack.is_empty()
                && (self.pos == 0 || matches!(self.s[self.pos - 1], b'\n' | b'\r'))
            {
                // A line that starts the next game (not separated from this one), or prose
                // between this game and the next or the end of the file.
                if (b.is_ascii_alphabetic() || b >= 0x80 || b == b'&')
                    && self.lost_bracket_next_game()?
                {
                    return Ok(End::NextTags);
                }
                match self.prose_between_games()? {
                    Some(true) => return Ok(End::NextTags),
                    Some(false) => continue,
                    None => {}
                }
            }
            self.has_body = true;
            if self.fast && (b.is_ascii_digit() || b.is_ascii_lowercase()) {
                match self.fast_run() {
                    Fast::Nothing => {}
                    Fast::Read => continue,
                    Fast::Ended => return self.ended(),
                }
            }
            let ended = match b {
                b'(' => self.open_paren()?,
                b')' => self.close_paren(),
                b'$' => self.nag()?,
                b'/' => self.setup()?,
                b'*' => self.star_terminator()?,
                b'0'..=b'9' => self.number_led()?,
                b'-' => self.dash()?,
                b'.' => self.dots()?,
                b'"' => self.quoted_text()?,
                b'!' | b'?' => self.detached_strength()?,
                0xC2 => self.half_result()?,
                b'a'..=b'z' | b'A'..=b'Z' => self.alpha_move()?,
                _ => self.garbage(self.pos)?,
            };
            if ended {
                return self.ended();
            }
        }
    }

    /// A result or `*` ended the game: when nothing but comments and prose follow it to the
    /// end of the file, they are this game's (the last game's trailing remarks are no game of
    /// their own).
    fn ended(&mut self) -> Res<End> {
        // A terminator written twice (`2-0` then `*` or `2-0` again, on the same line or the
        // next): one terminator. A `*` after `*` is an empty game (as the writer writes one).
        loop {
            let p = self.ws_esc_from(self.pos)?;
            match self.terminator_at(p)? {
                Some(e) if !(self.ended_by_star && self.s[p] == b'*') => {
                    self.skip_escapes()?;
                    self.note(ToleratedKind::DoubleTerminator, sp(p, e));
                    self.pos = e;
                }
                _ => break,
            }
        }
        // Literal escapes right after the terminator (`*\r` at a line's end) are this game's.
        self.skip_escapes()?;
        let mut p = self.pos;
        loop {
            p = self.ws_esc_from(p)?;
            match self.at(p)? {
                None => break,
                Some(b'{') => match memchr(b'}', &self.s[p..]) {
                    Some(k) => p += k + 1,
                    None => {
                        self.check_end(self.s.len())?;
                        return Ok(End::Terminator);
                    }
                },
                Some(b'%' | b';') => p = self.line_end_from(p)?,
                Some(b'[') => return Ok(End::Terminator),
                Some(_) => {
                    let stop = self.segment_end(p)?;
                    // A tag pair that lost its `[` starts the next game: it is none of
                    // this one's tags.
                    if !prose::is_prose(&self.s[p..stop])
                        || self.lost_bracket_starts_game(p, stop)?
                    {
                        return Ok(End::Terminator);
                    }
                    p = stop;
                }
            }
        }
        // Read them as they would be read before a game.
        loop {
            self.skip_escapes()?;
            match self.at(self.pos)? {
                None => return Ok(End::Terminator),
                Some(b'{') => self.brace_comment()?,
                Some(b'%') => self.line_comment(false)?,
                Some(b';') => self.line_comment(true)?,
                Some(_) => {
                    let before = self.pos;
                    if !self.outside_movetext()? || self.pos == before {
                        // Unreachable: the look above saw prose here.
                        return Ok(End::Terminator);
                    }
                }
            }
        }
    }

    /// True if the bytes from `a` to `b` hold a blank line (two line breaks with only spaces
    /// and tabs between them).
    fn blank_line(&self, a: usize, b: usize) -> bool {
        let mut breaks = 0;
        let s = &self.s[a.min(b)..b];
        let mut i = 0;
        while i < s.len() {
            match s[i] {
                b'\r' | b'\n' => {
                    breaks += 1;
                    if breaks == 2 {
                        return true;
                    }
                    if s[i] == b'\r' && s.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                }
                b' ' | b'\t' => {}
                // A literal escape is white space; `\n` (or `\r` not followed by a real line
                // break or `\n`) a line break of its own.
                b'\\' if escape_len(s, i) > 0 => {
                    let n = escape_len(s, i);
                    let next = s.get(i + n).copied();
                    let pairs = s[i + n - 1] == b'r'
                        && (matches!(next, Some(b'\n' | b'\r')) || escape_breaks_line(s, i + n));
                    if escape_breaks_line(s, i) && !pairs {
                        breaks += 1;
                        if breaks == 2 {
                            return true;
                        }
                    }
                    i += n;
                    continue;
                }
                _ => breaks = 0,
            }
            i += 1;
        }
        false
    }

    /// The name of the tag pair whose `[` is at `p` (past a doubled `[` and spaces), and where
    /// it ends.
    fn tag_name_at(&self, p: usize) -> Res<(&'a [u8], usize)> {
        let mut q = p + 1;
        while matches!(self.at(q)?, Some(b'[' | b' ' | b'\t')) {
            q += 1;
        }
        let mut e = q;
        while let Some(b) = self.at(e)? {
            if matches!(b, b' ' | b'\t' | b'"' | b']' | b'[' | b'\n' | b'\r') {
                break;
            }
            e += 1;
        }
        let s = self.s;
        Ok((&s[q..e], e))
    }

    /// At `p`, after a blank line, in a game with tags and no move yet: the tag lines that
    /// follow (up to the next line that is not one, at most 64) name none of the tags of
    /// the lines before (from the game's start to the blank line). Then they continue this
    /// game's tag section; otherwise they start the next game. (Looked up only here, at a
    /// blank line in a tag section: reading a game keeps no list of its tag names.)
    fn resumes_tags(&self, mut p: usize) -> Res<bool> {
        let before = &self.s[..self.tags_end.min(self.s.len())];
        let known = |name: &[u8]| {
            memchr::memchr_iter(b'[', before).any(|k| {
                let line_start = before[..k]
                    .iter()
                    .rev()
                    .take_while(|&&b| b != b'\n' && b != b'\r')
                    .all(|&b| b == b' ' || b == b'\t' || b == b'[');
                line_start && {
                    let rest = &before[k + 1..];
                    let rest =
                        &rest[rest.iter().take_while(|&&b| b == b'[' || b == b' ').count()..];
                    rest.len() > name.len()
                        && rest[..name.len()].eq_ignore_ascii_case(name)
                        && matches!(rest[name.len()], b' ' | b'\t' | b'"' | b']')
                }
            })
        };
        for _ in 0..64 {
            p = self.ws_esc_from(p)?;
            if self.at(p)? != Some(b'[') {
                return Ok(true);
            }
            let (name, e) = self.tag_name_at(p)?;
            if name.is_empty() || known(name) {
                return Ok(false);
            }
            // The next line, unless a blank line ends the block.
            let next = self.line_end_from(e)?;
            let after = self.ws_esc_from(next)?;
            if self.blank_line(next, after) {
                return Ok(true);
            }
            p = after;
        }
        Ok(true)
    }

    fn finish(mut self, end: End) -> Meta {
        self.end_run();
        if !self.stack.is_empty() {
            let open = self.outer_open();
            let n = self.stack.len() as u64 + u64::from(self.excess);
            self.error(
                SyntaxErrorKind::UnterminatedVariation,
                sp(open, open + 1),
                || {
                    if n == 1 {
                        "unterminated variation: expected `)`".to_owned()
                    } else {
                        format!("unterminated variation: expected `)` ({n} variations open)")
                    }
                },
            );
            self.close_all();
        }
        if let Some(n) = self.line.pending.take() {
            self.note(ToleratedKind::MoveNumberWithoutMove, n.span);
        }
        let consumed = self.pos.min(self.s.len());
        let mut source_end = consumed;
        while source_end > 0 && is_ws(self.s[source_end - 1]) {
            source_end -= 1;
        }
        match end {
            End::NextTags => {
                self.note(ToleratedKind::GamesNotSeparated, sp(source_end, source_end));
            }
            End::Eof if !self.has_tags && !self.has_body && self.has_comment => {
                self.note(ToleratedKind::CommentsAfterLastGame, sp(0, source_end));
            }
            _ => {}
        }
        if self.suppressed > 0 {
            let n = self.suppressed;
            self.errors.push(SyntaxError {
                kind: SyntaxErrorKind::MoreErrors,
                span: sp(source_end, source_end),
                message: format!("{n} more syntax errors in this game were not listed"),
            });
        }
        Meta {
            consumed,
            source_end,
            end,
            errors: self.errors,
            notes: self.notes,
        }
    }

    /// Close every open variation at the current position (after an error was reported).
    fn close_all(&mut self) {
        self.excess = 0;
        while let Some(mut f) = self.pop_line() {
            if let Some(n) = f.pending.take() {
                self.note(ToleratedKind::MoveNumberWithoutMove, n.span);
            }
            let end = self.pos.min(self.s.len());
            self.sink.close_variation(sp(f.open, end));
            self.not_a_move();
        }
    }

    // ---- variations, NAGs, setups ----

    fn open_paren(&mut self) -> Res<bool> {
        let start = self.pos;
        if let Some(n) = self.paren_strength(start)? {
            self.attach_detached_strength(start, start + n);
            return Ok(false);
        }
        if self.stack.len() >= MAX_VARIATION_DEPTH {
            self.excess = self.excess.saturating_add(1);
            if !self.deep_reported {
                self.deep_reported = true;
                self.error(SyntaxErrorKind::TooDeep, sp(start, start + 1), || {
                    format!(
                        "variations nested deeper than {MAX_VARIATION_DEPTH} levels: the \
                         deeper ones are kept inside the last one"
                    )
                });
            }
        } else {
            self.end_run();
            let parent = std::mem::replace(&mut self.line, Frame::new(start));
            self.stack.push(parent);
            self.sink.open_variation();
        }
        self.pos = start + 1;
        Ok(false)
    }

    /// `([!?]+)` at `p`: its length.
    fn paren_strength(&self, p: usize) -> Res<Option<usize>> {
        let mut q = p + 1;
        while let Some(b @ (b'!' | b'?')) = self.at(q)? {
            let _ = b;
            q += 1;
        }
        if q > p + 1 && self.at(q)? == Some(b')') {
            Ok(token::is_paren_strength(&self.s[p..]))
        } else {
            Ok(None)
        }
    }

    fn close_paren(&mut self) -> bool {
        let at = self.pos;
        self.pos += 1;
        if self.excess > 0 {
            self.excess -= 1;
        } else if let Some(mut f) = self.pop_line() {
            if let Some(n) = f.pending.take() {
                self.note(ToleratedKind::MoveNumberWithoutMove, n.span);
            }
            self.end_run();
            self.sink.close_variation(sp(f.open, at + 1));
            self.not_a_move();
        } else {
            self.error(
                SyntaxErrorKind::UnmatchedParenthesis,
                sp(at, at + 1),
                || "unmatched `)`: no variation is open".to_owned(),
            );
        }
        false
    }

    fn setup(&mut self) -> Res<bool> {
        let start = self.pos;
        let p = self.ws_from(start + 1)?;
        let fen_kw = self
            .s
            .get(p..p + 3)
            .is_some_and(|k| k.eq_ignore_ascii_case(b"FEN"));
        if fen_kw {
            let q = self.ws_from(p + 3)?;
            if self.at(q)? == Some(b'"') {
                let Some(k) = memchr(b'"', &self.s[q + 1..]) else {
                    self.check_end(self.s.len())?;
                    let e = self.line_end_from(q)?;
                    self.error(SyntaxErrorKind::UnterminatedSetup, sp(start, e), || {
                        "unterminated setup: expected `\"` and `/`".to_owned()
                    });
                    let s = self.s;
                    self.emit_setup(s[q + 1..e].trim_ascii(), sp(start, e));
                    self.pos = e;
                    return Ok(false);
                };
                let close = q + 1 + k;
                let s = self.s;
                let fen = &s[q + 1..close];
                let r = self.ws_from(close + 1)?;
                let end = if self.at(r)? == Some(b'/') {
                    r + 1
                } else {
                    self.error(
                        SyntaxErrorKind::UnterminatedSetup,
                        sp(start, close + 1),
                        || "unterminated setup: expected `/` after the FEN".to_owned(),
                    );
                    close + 1
                };
                self.emit_setup(fen, sp(start, end));
                self.pos = end;
                return Ok(false);
            }
        }
        // Anything between two slashes on one line.
        let found = memchr3(b'/', b'\n', b'\r', &self.s[start + 1..]).map(|k| start + 1 + k);
        let line_end = match found {
            Some(k) => k,
            None => {
                self.check_end(self.s.len())?;
                self.s.len()
            }
        };
        let (inner_end, end) = match found.filter(|&k| self.s[k] == b'/') {
            Some(k) => (k, k + 1),
            None => {
                self.error(
                    SyntaxErrorKind::UnterminatedSetup,
                    sp(start, line_end),
                    || "unterminated setup: expected `/`".to_owned(),
                );
                (line_end, line_end)
            }
        };
        let s = self.s;
        let inner = s[start + 1..inner_end].trim_ascii();
        let inner = match memchr(b'"', inner) {
            Some(a) => match memchr(b'"', &inner[a + 1..]) {
                Some(b) => &inner[a + 1..a + 1 + b],
                None => inner,
            },
            None => inner,
        };
        self.emit_setup(inner, sp(start, end));
        self.pos = end;
        Ok(false)
    }

    fn emit_setup(&mut self, fen: &[u8], span: Span) {
        self.not_a_move();
        self.end_run();
        self.sink.setup(fen, span);
    }
}
