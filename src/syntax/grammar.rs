//! The game-level PDN reading grammar (RULES.md §1.3–§1.8, §1.12): one game from a byte
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

use memchr::{memchr, memchr2, memchr3};

use super::game::{
    Comment, CommentKind, Game, Item, Line, MoveItem, MoveKind, MoveNumber, Nag, ResultToken,
    Setup, Span, Square, SyntaxError, Tag, Tolerated, ToleratedKind, Variation,
};
use super::squares::Squares;
use super::token::{self, Sep, is_ws};

/// Variations nest at most this deep in a [`Game`]. Deeper parentheses are a syntax error;
/// their contents stay in the deepest kept variation. This bounds the depth of the move
/// tree, so code walking it recursively cannot overflow the stack.
pub const MAX_VARIATION_DEPTH: usize = 64;

/// Syntax errors kept per game; further ones are counted in one last error.
pub const MAX_ERRORS_PER_GAME: usize = 100;

/// Bytes that must be available (or the file must end) before a token is read, so that no
/// bounded token is cut by the end of the buffer.
const LOOKAHEAD: usize = 64;

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

/// Where the grammar puts what it reads, in file order. Byte slices are the bytes of the
/// slice being parsed (not decoded); spans are offsets into it. Variations are balanced:
/// every `open_variation` is closed, the last ones by the end of the game.
pub(crate) trait Sink {
    /// A tag pair: the name, the value as written between the quotes (with `\"` and `\\`
    /// still escaped when `escaped`), the whole pair.
    fn tag(&mut self, name: &[u8], value: &[u8], escaped: bool, span: Span);
    /// A move with the move number just before it and its strength.
    fn push_move(
        &mut self,
        number: Option<MoveNumber>,
        squares: Squares,
        kind: MoveKind,
        strength: Option<&[u8]>,
        span: Span,
    );
    /// A comment: its text without delimiters, and the whole comment.
    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span);
    /// A NAG.
    fn nag(&mut self, nag: Nag);
    /// `(`: the next elements are in a variation.
    fn open_variation(&mut self);
    /// The variation opened last ends; `span` is the whole of it.
    fn close_variation(&mut self, span: Span);
    /// A setup with its FEN text.
    fn setup(&mut self, fen: &[u8], span: Span);
    /// A strength written apart from its move (`32-28 !`): it belongs to the last element
    /// of the current line, which is a move without one.
    fn late_strength(&mut self, text: &[u8]);
    /// The result or `*` that ends the game.
    fn result(&mut self, text: &[u8], span: Span);
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
    };
    let end = p.run()?;
    Ok(p.finish(end))
}

/// One parsed game.
#[derive(Debug)]
pub(crate) struct Parsed {
    /// The game; `index`, `offset`, `line`, `column`, `source` and `encoding` are left for
    /// the reader to fill in.
    pub game: Game,
    /// Bytes of the slice that belong to this game; the next game starts here.
    pub consumed: usize,
    /// End of the game's text (trailing white space trimmed).
    pub source_end: usize,
    /// Every string taken from the slice was valid UTF-8.
    pub utf8_ok: bool,
    /// How it ended.
    pub end: End,
}

/// Parse one game starting at `s[0]` (which should not be white space). `scratch` is an
/// empty vector whose capacity is reused for the main line between games (writing moves
/// into warm memory, then moving them once into an exact-size vector, is markedly faster
/// than growing a fresh vector per game); it is handed back empty.
pub(crate) fn parse_game(s: &[u8], eof: bool, scratch: &mut Vec<Item>) -> Result<Parsed, NeedMore> {
    parse_with(s, eof, true, scratch)
}

fn parse_with(
    s: &[u8],
    eof: bool,
    fast: bool,
    scratch: &mut Vec<Item>,
) -> Result<Parsed, NeedMore> {
    scratch.clear();
    let mut sink = GameSink {
        tags: Vec::new(),
        line: std::mem::take(scratch),
        stack: Vec::new(),
        result: None,
        utf8_ok: true,
    };
    match parse_into(s, eof, fast, &mut sink) {
        Ok(meta) => Ok(sink.finish(meta, scratch)),
        Err(NeedMore) => {
            // The main line's capacity back (it is the outermost line).
            sink.stack.truncate(1);
            *scratch = sink.stack.pop().unwrap_or(sink.line);
            scratch.clear();
            Err(NeedMore)
        }
    }
}

/// The [`Sink`] that builds a [`Game`].
struct GameSink {
    tags: Vec<Tag>,
    /// The line being read: the main line (in the reader's reused capacity) or the
    /// innermost open variation.
    line: Vec<Item>,
    /// The lines around it, the main line first, while variations are open.
    stack: Vec<Vec<Item>>,
    result: Option<ResultToken>,
    /// Every string taken from the slice was valid UTF-8.
    utf8_ok: bool,
}

impl GameSink {
    fn string(&mut self, b: &[u8]) -> String {
        match std::str::from_utf8(b) {
            Ok(t) => t.to_owned(),
            Err(_) => {
                self.utf8_ok = false;
                String::from_utf8_lossy(b).into_owned()
            }
        }
    }

    fn finish(mut self, meta: Meta, scratch: &mut Vec<Item>) -> Parsed {
        // Every variation is closed: `line` is the main line.
        let items: Vec<Item> = self.line.split_off(0);
        *scratch = self.line;
        Parsed {
            game: Game {
                index: 0,
                offset: 0,
                line: 1,
                column: 1,
                source: String::new(),
                encoding: super::game::Encoding::Utf8,
                tags: self.tags,
                body: Line { items },
                result: self.result,
                errors: meta.errors,
                notes: meta.notes,
            },
            consumed: meta.consumed,
            source_end: meta.source_end,
            utf8_ok: self.utf8_ok,
            end: meta.end,
        }
    }
}

impl Sink for GameSink {
    fn tag(&mut self, name: &[u8], value: &[u8], escaped: bool, span: Span) {
        let name = self.string(name);
        let value = if escaped {
            self.string(&unescape(value))
        } else {
            self.string(value)
        };
        self.tags.push(Tag { name, value, span });
    }

    #[inline(always)]
    fn push_move(
        &mut self,
        number: Option<MoveNumber>,
        squares: Squares,
        kind: MoveKind,
        strength: Option<&[u8]>,
        span: Span,
    ) {
        let strength = strength.map(|t| self.string(t));
        let items = &mut self.line;
        // Room first, so that the move is built straight into the vector.
        items.reserve(1);
        items.push(Item::Move(MoveItem {
            number,
            squares,
            kind,
            strength,
            span,
        }));
    }

    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span) {
        let text = self.string(text);
        self.line.push(Item::Comment(Comment { text, kind, span }));
    }

    fn nag(&mut self, nag: Nag) {
        self.line.push(Item::Nag(nag));
    }

    fn open_variation(&mut self) {
        let parent = std::mem::take(&mut self.line);
        self.stack.push(parent);
    }

    fn close_variation(&mut self, span: Span) {
        let parent = self.stack.pop().unwrap_or_default();
        let items = std::mem::replace(&mut self.line, parent);
        self.line.push(Item::Variation(Variation {
            line: Line { items },
            span,
        }));
    }

    fn setup(&mut self, fen: &[u8], span: Span) {
        let fen = self.string(fen);
        self.line.push(Item::Setup(Setup { fen, span }));
    }

    fn late_strength(&mut self, text: &[u8]) {
        let text = self.string(text);
        if let Some(Item::Move(m)) = self.line.last_mut() {
            m.strength = Some(text);
        }
    }

    fn result(&mut self, text: &[u8], span: Span) {
        let text = self.string(text);
        self.result = Some(ResultToken { text, span });
    }
}

/// A tag value with `\"` and `\\` unescaped (any other backslash is kept).
pub(crate) fn unescape(raw: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(raw.len());
    let mut k = 0;
    while k < raw.len() {
        if raw[k] == b'\\' && matches!(raw.get(k + 1), Some(b'"' | b'\\')) {
            v.push(raw[k + 1]);
            k += 2;
        } else {
            v.push(raw[k]);
            k += 1;
        }
    }
    v
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

/// White space.
const WS: u8 = 1;
/// Continues a move after spaces (`32 - 28`, `35 x 19`): `-`, `x`, `X`, `:` and the first
/// bytes of `×` (and of other characters the general path looks at).
const JOIN: u8 = 2;
/// Ends a move written right before it: a line break or a delimiter.
const ENDS_MOVE: u8 = 4;

/// Ends the short-comment scan of [`P::brace_comment`]: `}`, `{`, a line feed.
const IN_COMMENT: u8 = 8;
/// Continues a PDN identifier after its first letter: `[a-zA-Z0-9_]`.
const IDENT: u8 = 16;

/// What [`P::fast_run`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Fast {
    /// Nothing: the token at `pos` goes the general way.
    Nothing,
    /// Read tokens; the next one is at `pos`.
    Read,
    /// Read tokens up to a result that ends the game.
    Ended,
}

/// Byte classes for the fast paths.
static CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        if is_ws(b) {
            t[i] |= WS;
        }
        if matches!(b, b'-' | b'x' | b'X' | b':' | 0xC3 | 0xD7) {
            t[i] |= JOIN;
        }
        if matches!(b, b'\n' | b'\r' | b'{' | b')' | b'$' | b'%' | b';' | b'[') {
            t[i] |= ENDS_MOVE;
        }
        if matches!(b, b'}' | b'{' | b'\n') {
            t[i] |= IN_COMMENT;
        }
        if b.is_ascii_alphanumeric() || b == b'_' {
            t[i] |= IDENT;
        }
        i += 1;
    }
    t
};

#[inline(always)]
fn class(b: u8) -> u8 {
    CLASSES[usize::from(b)]
}

/// The first byte from `p` that is not white space (`s.len()` if none).
#[inline(always)]
fn skip_ws(s: &[u8], mut p: usize) -> usize {
    while p < s.len() && class(s[p]) & WS != 0 {
        p += 1;
    }
    p
}

/// A move of the fast path ends at `e`, with at least 8 more bytes in `s`: where the next
/// token starts if what follows plainly ends the move (white space, then not something
/// that continues a move such as `32 - 28`; or a line break or a delimiter), `None`
/// otherwise.
#[inline(always)]
fn after_move(s: &[u8], e: usize) -> Option<usize> {
    let t = s[e];
    if t == b' ' && class(s[e + 1]) & (WS | JOIN) == 0 {
        // `32-28 19-23`
        return Some(e + 1);
    }
    // Reading goes on past the spaces looked at.
    let resume = match t {
        b' ' | b'\t' => {
            let mut q = e + 1;
            while q < s.len() && (s[q] == b' ' || s[q] == b'\t') {
                q += 1;
            }
            if q >= s.len() || class(s[q]) & JOIN != 0 {
                return None;
            }
            q
        }
        c if class(c) & ENDS_MOVE != 0 => e,
        _ => return None,
    };
    Some(skip_ws(s, resume))
}

/// The first eight bytes of a token as one word, for the digit shapes of the fast path.
#[derive(Clone, Copy)]
struct Word {
    /// Each byte minus `0`.
    x: u64,
    /// The high bit of each byte that is not a digit.
    other: u64,
}

impl Word {
    const H: u64 = 0x8080_8080_8080_8080;

    #[inline(always)]
    fn new(b: &[u8; 16]) -> Word {
        let (head, _) = b.split_first_chunk::<8>().expect("16 bytes hold 8");
        let w = u64::from_le_bytes(*head);
        let x = w ^ 0x3030_3030_3030_3030;
        // A digit byte has its high bit clear in `x` and in `x - 10`.
        let t = (x | Self::H) - 0x0A0A_0A0A_0A0A_0A0A;
        Word {
            x,
            other: (t | x) & Self::H,
        }
    }

    /// The high bit of each byte equal to `c`.
    #[inline(always)]
    fn bytes_equal(self, c: u8) -> u64 {
        const M: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        let v = self.x ^ (0x0101_0101_0101_0101 * u64::from(c ^ b'0'));
        // A byte is zero when neither its high bit nor the carry out of its low bits is set.
        !((((v & M) + M) | v) | M)
    }

    /// For a word starting with `{`: where its first `}` is, if no `{` or line feed comes
    /// before it (the short comments that [`P::brace_comment`] reads the same way).
    #[inline(always)]
    fn comment_end(self) -> Option<usize> {
        let close = self.bytes_equal(b'}');
        let stop = (close | self.bytes_equal(b'{') | self.bytes_equal(b'\n')) & !0xFF;
        let k = stop.trailing_zeros();
        (k < 64 && close >> k & 1 != 0).then_some((k >> 3) as usize)
    }

    /// Where the first byte that is not a digit is (8 if none).
    #[inline(always)]
    fn first_other(self) -> usize {
        (self.other.trailing_zeros() >> 3) as usize
    }

    /// Where the second byte that is not a digit is (8 if none).
    #[inline(always)]
    fn second_other(self) -> usize {
        ((self.other & self.other.wrapping_sub(1)).trailing_zeros() >> 3) as usize
    }

    /// The value of the `n` (1 or 2) digits at byte `at` (below 7).
    #[inline(always)]
    fn square(self, at: usize, n: usize) -> u32 {
        let y = self.x >> (8 * at);
        let d = |v: u64| (v & 0xFF) as u32;
        if n == 2 { d(y) * 10 + d(y >> 8) } else { d(y) }
    }
}

/// One or two digits at the start of `b` that are not followed by a third: (value, count);
/// count 0 otherwise.
#[inline]
fn two_digits(b: &[u8]) -> (u32, usize) {
    let digit = |i: usize| b.get(i).map_or(u8::MAX, |c| c.wrapping_sub(b'0'));
    let d1 = digit(0);
    if d1 > 9 {
        return (0, 0);
    }
    let d2 = digit(1);
    if d2 > 9 {
        return (u32::from(d1), 1);
    }
    if digit(2) <= 9 {
        return (0, 0);
    }
    (u32::from(d1) * 10 + u32::from(d2), 2)
}

/// A capture through more than two squares at `p`, whose first square (`v1`, of `n1`
/// digits) is followed by `x`: the squares, where it ends, whether a later square has a
/// leading zero. `None` for anything the fast path does not read (a square of three digits
/// or zero; less than 8 bytes left after a square).
fn long_capture(s: &[u8], p: usize, v1: u32, n1: usize) -> Option<(Squares, usize, bool)> {
    let mut squares = Squares::new();
    squares.push(Square::Num(v1));
    let mut lz = false;
    let mut p = p + n1;
    loop {
        let (v, n) = two_digits(&s[p + 1..]);
        if n == 0 || v == 0 || p + 1 + n + 8 > s.len() {
            return None;
        }
        lz |= n > 1 && s[p + 1] == b'0';
        squares.push(Square::Num(v));
        p += 1 + n;
        if s[p] != b'x' {
            return Some((squares, p, lz));
        }
    }
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
            p = self.ws_from(p)?;
            match self.at(p)? {
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

    fn error(&mut self, span: Span, message: impl FnOnce() -> String) {
        if self.errors.len() < MAX_ERRORS_PER_GAME {
            self.errors.push(SyntaxError {
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
        let frame = &mut self.line;
        let number = frame.pending.take();
        frame.bare_move = strength.is_none();
        self.sink.push_move(number, squares, kind, strength, span);
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
                b'%' => {
                    self.line_comment(false)?;
                    continue;
                }
                b';' => {
                    self.line_comment(true)?;
                    continue;
                }
                b'[' => {
                    if self.has_body {
                        return Ok(End::NextTags);
                    }
                    self.tag_pair()?;
                    continue;
                }
                _ => {}
            }
            self.has_body = true;
            if self.fast && (b.is_ascii_digit() || b.is_ascii_lowercase()) {
                match self.fast_run() {
                    Fast::Nothing => {}
                    Fast::Read => continue,
                    Fast::Ended => return Ok(End::Terminator),
                }
            }
            let ended = match b {
                b'(' => self.open_paren()?,
                b')' => self.close_paren(),
                b'$' => self.nag()?,
                b'/' => self.setup()?,
                b'*' => {
                    self.star_terminator()?;
                    true
                }
                b'0'..=b'9' => self.number_led()?,
                b'-' => self.dash()?,
                b'.' => self.dots()?,
                b'!' | b'?' => self.detached_strength()?,
                0xC2 => self.half_result()?,
                b'a'..=b'z' | b'A'..=b'Z' => self.alpha_move()?,
                _ => self.garbage(self.pos)?,
            };
            if ended {
                return Ok(End::Terminator);
            }
        }
    }

    fn finish(mut self, end: End) -> Meta {
        if !self.stack.is_empty() {
            let open = self.outer_open();
            let n = self.stack.len() as u64 + u64::from(self.excess);
            self.error(sp(open, open + 1), || {
                if n == 1 {
                    "unterminated variation: expected `)`".to_owned()
                } else {
                    format!("unterminated variation: expected `)` ({n} variations open)")
                }
            });
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

    // ---- tags ----

    fn tag_pair(&mut self) -> Res<()> {
        let start = self.pos;
        if self.fast && self.fast_tag(start) {
            return Ok(());
        }
        let name_start = self.ws_from(start + 1)?;
        let mut p = match token::tag_name::<()>(&self.s[name_start..]) {
            Ok((rest, _)) => self.s.len() - rest.len(),
            Err(_) => name_start,
        };
        self.check_end(p)?;
        if p == name_start {
            self.error(sp(start, p), || {
                "tag pair without a name: expected a name after `[`".to_owned()
            });
            self.pos = self.recover_bracket(p)?;
            return Ok(());
        }
        let name_b = &self.s[name_start..p];
        if !token::is_identifier(name_b) {
            self.note(ToleratedKind::OddTagName, sp(name_start, p));
        }
        p = self.ws_from(p)?;
        let (value, escaped, after, closed) = if self.at(p)? == Some(b'"') {
            self.tag_string(p)?
        } else {
            // No quotes: take the rest up to `]` (or `[`, or the end of the line).
            let (rb, _) = self.scan_bracket(p)?;
            let raw = self.s[p..rb].trim_ascii();
            self.error(sp(p, rb), || {
                let nm = String::from_utf8_lossy(name_b);
                format!("tag `{nm}` without a quoted value: expected `\"`")
            });
            (raw, false, rb, true)
        };
        let mut end = after;
        if closed {
            let q = self.ws_from(after)?;
            if self.at(q)? == Some(b']') {
                end = q + 1;
            } else {
                let (stop, found) = self.scan_bracket(q)?;
                let what = show(&self.s[q..stop.min(q + 24)]);
                self.error(sp(q, q + 1), || {
                    if what.is_empty() {
                        "unterminated tag pair: expected `]`".to_owned()
                    } else {
                        format!("unexpected `{what}` in a tag pair: expected `]`")
                    }
                });
                if found {
                    end = stop + 1;
                }
            }
        }
        self.emit_tag(name_b, value, escaped, start, end);
        Ok(())
    }

    /// The plain tag pair `[Name "value"]` at `start` (an identifier, one space, a value
    /// without a backslash or a line break, `]` right after the closing quote), read the way
    /// [`P::tag_pair`] reads it: true if it was, false with nothing read otherwise. Every
    /// byte it looks at is inside the slice, so the answer does not depend on where the
    /// slice ends.
    #[inline]
    fn fast_tag(&mut self, start: usize) -> bool {
        let s = self.s;
        let name_start = start + 1;
        if !s.get(name_start).is_some_and(u8::is_ascii_uppercase) {
            return false;
        }
        let mut p = name_start + 1;
        while p < s.len() && class(s[p]) & IDENT != 0 {
            p += 1;
        }
        if s.get(p..p + 2) != Some(b" \"") {
            return false;
        }
        let vstart = p + 2;
        let Some(k) = memchr3(b'"', b'\\', b'\n', &s[vstart..]) else {
            return false;
        };
        let vend = vstart + k;
        if s[vend] != b'"' || s.get(vend + 1) != Some(&b']') {
            return false;
        }
        let (name, value) = (&s[name_start..p], &s[vstart..vend]);
        self.emit_tag(name, value, false, start, vend + 2);
        true
    }

    /// A tag pair was read: note the result tag, hand the pair to the sink, go past it.
    fn emit_tag(
        &mut self,
        name: &'a [u8],
        value: &'a [u8],
        escaped: bool,
        start: usize,
        end: usize,
    ) {
        if name == b"Result" && self.result_tag.is_none() {
            let c = if escaped {
                compact(&unescape(value))
            } else {
                compact(value)
            };
            self.result_tag_movelike = match c.iter().position(|&b| b == b'-') {
                Some(k) => {
                    let (a, b) = (&c[..k], &c[k + 1..]);
                    let num = |d: &[u8]| !d.is_empty() && d.iter().all(u8::is_ascii_digit);
                    num(a) && num(b) && !token::standard_numeric_result(a, b)
                }
                None => false,
            };
            self.result_tag = Some(c);
        }
        self.has_tags = true;
        self.sink.tag(name, value, escaped, sp(start, end));
        self.pos = end;
    }

    /// The end of the line at `p` (the position of its CR or LF, or the end of the file).
    fn line_end_from(&self, p: usize) -> Res<usize> {
        match memchr2(b'\n', b'\r', &self.s[p.min(self.s.len())..]) {
            Some(k) => Ok(p + k),
            None => {
                self.check_end(self.s.len())?;
                Ok(self.s.len())
            }
        }
    }

    /// After a broken tag pair: skip to just after a `]` on the same line, else to the next
    /// `[` or the end of the line.
    fn recover_bracket(&self, p: usize) -> Res<usize> {
        let (stop, found) = self.scan_bracket(p)?;
        Ok(if found { stop + 1 } else { stop })
    }

    /// The first `]`, `[`, CR or LF from `p` (or the end of the file), and whether it is a
    /// `]`. Stopping at `[` keeps a run of broken tag pairs linear.
    fn scan_bracket(&self, mut p: usize) -> Res<(usize, bool)> {
        while let Some(b) = self.at(p)? {
            match b {
                b']' => return Ok((p, true)),
                b'[' | b'\n' | b'\r' => return Ok((p, false)),
                _ => p += 1,
            }
        }
        Ok((p, false))
    }

    /// The quoted value starting at `q` (`s[q] == '"'`): (the value as written, whether it
    /// has a backslash, position after it, whether a `]` should follow).
    fn tag_string(&mut self, q: usize) -> Res<(&'a [u8], bool, usize, bool)> {
        let vstart = q + 1;
        let mut i = vstart;
        let mut line_start = vstart;
        let mut multiline = false;
        let (vend, after, closed) = loop {
            match memchr3(b'"', b'\\', b'\n', &self.s[i..]) {
                None => {
                    self.check_end(self.s.len())?;
                    // Unterminated at the end of the file: the value is the rest of its line.
                    let e = self.s.len();
                    let e2 = memchr(b'\r', &self.s[line_start..e]).map_or(e, |k| line_start + k);
                    self.error(sp(q, e2), || {
                        "unterminated tag value: expected `\"`".to_owned()
                    });
                    break (e2, e, false);
                }
                Some(k) => {
                    let j = i + k;
                    match self.s[j] {
                        b'\\' => {
                            self.at(j + 1)?;
                            i = (j + 2).min(self.s.len());
                        }
                        b'"' => break (j, j + 1, true),
                        _ => {
                            // A line break inside the value.
                            let before = self.s[line_start..j].trim_ascii_end();
                            if before.last() == Some(&b']') {
                                let rb = line_start + before.len() - 1;
                                self.error(sp(q, rb), || {
                                    "unterminated tag value: expected `\"` before `]`".to_owned()
                                });
                                break (rb, rb, true);
                            }
                            let n = self.hspace_from(j + 1)?;
                            if self.at(n)? == Some(b'[') {
                                let e = line_start + before.len();
                                self.error(sp(q, e), || {
                                    "unterminated tag value: expected `\"` at the end of the line"
                                        .to_owned()
                                });
                                break (e, j, false);
                            }
                            multiline = true;
                            i = j + 1;
                            line_start = j + 1;
                        }
                    }
                }
            }
        };
        if multiline && closed {
            self.note(ToleratedKind::MultilineTagValue, sp(q, after));
        }
        let s = self.s;
        let raw = &s[vstart..vend];
        Ok((raw, memchr(b'\\', raw).is_some(), after, closed))
    }

    // ---- comments ----

    fn brace_comment(&mut self) -> Res<()> {
        let start = self.pos;
        let body = start + 1;
        // The commonest comment is short (`{!}`, `{1}`), on one line and without `{` inside:
        // found in a few bytes without the searches below, to the same result.
        let s = self.s;
        let limit = (body + 32).min(s.len());
        let mut k = body;
        while k < limit && class(s[k]) & IN_COMMENT == 0 {
            k += 1;
        }
        if self.fast && k < limit && s[k] == b'}' {
            self.push_comment(body..k, CommentKind::Brace, start, k + 1);
            self.pos = k + 1;
            return Ok(());
        }
        let close = memchr(b'}', &self.s[body..]).map(|k| body + k);
        let limit = close.unwrap_or(self.s.len());
        // An opening brace never closed before a tag section: stop before the tag line.
        let mut from = body;
        while let Some(k) = memchr(b'\n', &self.s[from..limit]) {
            let nl = from + k;
            if self.tag_line_at(nl + 1)? {
                let e = if nl > body && self.s[nl - 1] == b'\r' {
                    nl - 1
                } else {
                    nl
                };
                self.error(sp(start, start + 1), || {
                    "unterminated comment: expected `}` before the tag section on the next line"
                        .to_owned()
                });
                self.push_comment(body..e, CommentKind::Brace, start, nl);
                self.pos = nl;
                return Ok(());
            }
            from = nl + 1;
        }
        let Some(mut close) = close else {
            self.check_end(self.s.len())?;
            self.error(sp(start, start + 1), || {
                "unterminated comment: expected `}` before the end of the file".to_owned()
            });
            self.push_comment(body..self.s.len(), CommentKind::Brace, start, self.s.len());
            self.pos = self.s.len();
            return Ok(());
        };
        // `{ a { b } }`: comments do not nest; absorb the extra closing braces that follow.
        let opens = memchr::memchr_iter(b'{', &self.s[body..close]).count();
        if opens > 0 {
            let first = close;
            let mut n = 0;
            let mut p = close + 1;
            while n < opens {
                let q = self.hspace_from(p)?;
                if self.at(q)? == Some(b'}') {
                    close = q;
                    p = q + 1;
                    n += 1;
                } else {
                    break;
                }
            }
            if n > 0 {
                self.error(sp(first, close + 1), || {
                    "nested comment: comments do not nest, so the `{` inside is text and the \
                     comment ends at the first `}`; expected no further `}` (kept as text)"
                        .to_owned()
                });
            }
        }
        self.push_comment(body..close, CommentKind::Brace, start, close + 1);
        self.pos = close + 1;
        Ok(())
    }

    /// True if a tag pair (`[Name "`) starts the line at `p`.
    fn tag_line_at(&self, p: usize) -> Res<bool> {
        let mut q = self.hspace_from(p)?;
        if self.at(q)? != Some(b'[') {
            return Ok(false);
        }
        q += 1;
        let n0 = q;
        while let Some(b) = self.at(q)? {
            if !(b.is_ascii_alphanumeric() || b == b'_') || q - n0 > 40 {
                break;
            }
            q += 1;
        }
        if q == n0 || !self.s[n0].is_ascii_alphabetic() {
            return Ok(false);
        }
        let q = self.hspace_from(q)?;
        Ok(self.at(q)? == Some(b'"'))
    }

    fn line_comment(&mut self, semicolon: bool) -> Res<()> {
        let start = self.pos;
        let end = self.line_end_from(start + 1)?;
        if semicolon {
            self.note(ToleratedKind::SemicolonComment, sp(start, end));
        }
        self.push_comment(start + 1..end, CommentKind::Line, start, end);
        self.pos = end;
        Ok(())
    }

    /// A comment whose text is `text` of the slice, from `a` to `b` with its delimiters.
    fn push_comment(
        &mut self,
        text: std::ops::Range<usize>,
        kind: CommentKind,
        a: usize,
        b: usize,
    ) {
        self.has_comment = true;
        self.not_a_move();
        let s = self.s;
        self.sink.comment(&s[text], kind, sp(a, b));
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
                self.error(sp(start, start + 1), || {
                    format!(
                        "variations nested deeper than {MAX_VARIATION_DEPTH} levels: the \
                         deeper ones are kept inside the last one"
                    )
                });
            }
        } else {
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
            self.sink.close_variation(sp(f.open, at + 1));
            self.not_a_move();
        } else {
            self.error(sp(at, at + 1), || {
                "unmatched `)`: no variation is open".to_owned()
            });
        }
        false
    }

    fn nag(&mut self) -> Res<bool> {
        let start = self.pos;
        match token::nag::<()>(&self.s[start..]) {
            Ok((rest, value)) => {
                let end = self.s.len() - rest.len();
                self.check_end(end)?;
                self.pos = end;
                match value {
                    Some(value) => {
                        self.not_a_move();
                        self.sink.nag(Nag {
                            value,
                            span: sp(start, end),
                        });
                    }
                    None => self.error(sp(start, end), || {
                        "NAG out of range: expected `$0` to `$65535`".to_owned()
                    }),
                }
            }
            Err(_) => {
                self.error(sp(start, start + 1), || {
                    "`$` without a number: expected a NAG such as `$1`".to_owned()
                });
                self.pos = start + 1;
            }
        }
        Ok(false)
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
                    self.error(sp(start, e), || {
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
                    self.error(sp(start, close + 1), || {
                        "unterminated setup: expected `/` after the FEN".to_owned()
                    });
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
                self.error(sp(start, line_end), || {
                    "unterminated setup: expected `/`".to_owned()
                });
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
        self.sink.setup(fen, span);
    }

    // ---- terminators ----

    fn star_terminator(&mut self) -> Res<()> {
        let start = self.pos;
        if !self.stack.is_empty() {
            let open = self.outer_open();
            let n = self.stack.len();
            self.error(sp(open, open + 1), || {
                format!("unterminated variation: expected `)` before `*` ({n} open)")
            });
            self.close_all();
        }
        self.sink.result(b"*", sp(start, start + 1));
        self.pos = start + 1;
        Ok(())
    }

    /// After a result: a `*` on the same line (`2-0 *`) is part of the terminator. (On a
    /// later line it is an empty game of its own, as the writer writes one.)
    fn absorb_star(&mut self) -> Res<()> {
        let q = self.hspace_from(self.pos)?;
        if self.at(q)? == Some(b'*') {
            self.note(ToleratedKind::DoubleTerminator, sp(q, q + 1));
            self.pos = q + 1;
        }
        Ok(())
    }

    /// A result from `a` to `b`. Returns true if it ends the game.
    fn result(&mut self, a: usize, b: usize, nonstandard: bool, spaces: bool) -> Res<bool> {
        let ended = self.result_here(a, b, nonstandard, spaces);
        if ended {
            self.absorb_star()?;
        }
        Ok(ended)
    }

    /// [`P::result`] without the look for a `*` after it.
    fn result_here(&mut self, a: usize, b: usize, nonstandard: bool, spaces: bool) -> bool {
        self.pos = b;
        if !self.stack.is_empty() {
            self.note(ToleratedKind::ResultInVariation, sp(a, b));
            self.push_comment(a..b, CommentKind::Brace, a, b);
            return false;
        }
        if nonstandard {
            self.note(ToleratedKind::NonStandardResult, sp(a, b));
        }
        if spaces {
            self.note(ToleratedKind::SpacesInMove, sp(a, b));
        }
        self.note(ToleratedKind::ResultAsSeparator, sp(a, b));
        let s = self.s;
        self.sink.result(&s[a..b], sp(a, b));
        true
    }

    fn half_result(&mut self) -> Res<bool> {
        let start = self.pos;
        match token::draw_literal::<()>(&self.s[start..]) {
            Ok((rest, _)) => {
                let end = self.s.len() - rest.len();
                self.check_end(end)?;
                self.result(start, end, true, false)
            }
            Err(_) => self.garbage(start),
        }
    }

    // ---- moves ----

    #[inline]
    fn set_number(&mut self, n: MoveNumber) {
        if let Some(old) = self.line.pending.replace(n) {
            self.note(ToleratedKind::MoveNumberWithoutMove, old.span);
        }
    }

    /// The commonest movetext tokens, read in one loop without the dispatch of [`P::run`]:
    /// move numbers `12.` and `12...`, moves `32-28` and captures `32x28x19` (squares of one
    /// or two digits), each followed by white space or by a delimiter that cannot continue
    /// it, and the white space after them. It stops, with `pos` at the next token, at any
    /// other token (or a form it leaves to [`P::number_led`], which reads all of these the
    /// same way: a unit test compares both on the corpus and on random input) and when fewer
    /// than [`LOOKAHEAD`] bytes are left before the end of the slice (the check the dispatch
    /// makes before each token), or 16 before the end of the file. Returns whether it read a
    /// token.
    ///
    /// Each token is taken from one 64-bit word: where its first two bytes that are not
    /// digits are gives its shape, and the commonest continuations (a space, then a digit)
    /// are tested first.
    #[inline(never)]
    fn fast_run(&mut self) -> Fast {
        let s = self.s;
        let first = self.pos;
        let need = if self.eof { 16 } else { LOOKAHEAD };
        let movelike_result = self.result_tag_movelike;
        let mut p = first;
        while s.len() - p >= need {
            let Some(b) = s[p..].first_chunk::<16>() else {
                break;
            };
            let w = Word::new(b);
            // The commonest token, `32-28 ` or `24x33 ` before the next one, is tested
            // first: its length is a constant here, so that the next token's address does
            // not wait for this one's digits to be found.
            // (Written with `&`: LLVM orders the tests better than with `&&`, 1.03x; folding
            // them into one word for a single branch was 0.90x.)
            let sep = b[2];
            if (w.other & 0x8080_8080_8080 == 0x8000_0080_0000)
                & (b[5] == b' ')
                & (b[0] != b'0')
                & (b[3] != b'0')
                & (class(b[6]) & (WS | JOIN) == 0)
                & ((sep == b'x') | ((sep == b'-') & !movelike_result))
            {
                let kind = if sep == b'x' {
                    MoveKind::Capture('x')
                } else {
                    MoveKind::Normal
                };
                let from = Square::Num(w.square(0, 2));
                let to = Square::Num(w.square(3, 2));
                self.emit_move(Squares::pair(from, to), kind, None, sp(p, p + 5));
                p += 6;
                continue;
            }
            let n1 = w.first_other();
            if n1.wrapping_sub(1) > 1 {
                if n1 == 0 && b[0] == b'{' {
                    // A short comment on one line (`{-40}`), as `brace_comment` reads it.
                    let Some(k) = w.comment_end() else {
                        break;
                    };
                    self.push_comment(p + 1..p + k, CommentKind::Brace, p, p + k + 1);
                    p = skip_ws(s, p + k + 1);
                    continue;
                }
                if n1 == 0 && b[0].is_ascii_lowercase() {
                    match self.fast_alpha(b, p) {
                        Some(next) => {
                            p = next;
                            continue;
                        }
                        None => break,
                    }
                }
                break;
            }
            let c = b[n1];
            if c == b'.' {
                // `12. 32-28` and `12.32-28` at fixed offsets (see above).
                if n1 == 2 && b[0] != b'0' {
                    let glued = b[3].is_ascii_digit();
                    if glued | ((b[3] == b' ') & b[4].is_ascii_digit()) {
                        self.set_number(MoveNumber {
                            number: w.square(0, 2),
                            second_player: false,
                            span: sp(p, p + 3),
                        });
                        p += if glued { 3 } else { 4 };
                        continue;
                    }
                }
                let number = w.square(0, n1);
                if number == 0 {
                    break;
                }
                let (end, next) = if b[n1 + 1].is_ascii_digit() {
                    // `12.32-28`
                    (p + n1 + 1, p + n1 + 1)
                } else if b[n1 + 1] == b' ' && b[n1 + 2].is_ascii_digit() {
                    // `12. 32-28`
                    (p + n1 + 1, p + n1 + 2)
                } else if b[n1 + 1] == b'.' {
                    if b[n1 + 2] != b'.' || b[n1 + 3] == b'.' {
                        break;
                    }
                    let end = p + n1 + 3;
                    (end, skip_ws(s, end))
                } else {
                    let end = p + n1 + 1;
                    let q = skip_ws(s, end);
                    // `12. ...` goes the general way.
                    if q >= s.len() || (q > end && s[q] == b'.') {
                        break;
                    }
                    (end, q)
                };
                if n1 == 2 && number < 10 {
                    self.note(ToleratedKind::LeadingZeros, sp(p, end));
                }
                self.set_number(MoveNumber {
                    number,
                    second_player: end - p == n1 + 3,
                    span: sp(p, end),
                });
                p = next;
                continue;
            }
            // A move: the second byte that is not a digit ends it.
            let len = w.second_other();
            let n2 = len.wrapping_sub(n1 + 1);
            if n2.wrapping_sub(1) > 1 {
                if n2 == 0 && b[len] == b' ' {
                    // `4- 9`, `15x 4`: the second square padded to two columns.
                    match self.fast_padded(b, p, n1, w.square(0, n1), movelike_result) {
                        Some(next) => {
                            p = next;
                            continue;
                        }
                        None => break,
                    }
                }
                break;
            }
            let capture = c == b'x';
            if !capture && c != b'-' {
                break;
            }
            let from = w.square(0, n1);
            let to = w.square(n1 + 1, n2);
            if from == 0 || to == 0 {
                if self.fast_result(b, p, len, capture) {
                    return Fast::Ended;
                }
                break;
            }
            if capture && b[len] == b'x' {
                match self.fast_long_capture(p, from, n1) {
                    Some(next) => {
                        p = next;
                        continue;
                    }
                    None => break,
                }
            }
            if !capture && (movelike_result || (len == 3 && from == 1 && to == 1)) {
                if self.fast_result(b, p, len, capture) {
                    return Fast::Ended;
                }
                break;
            }
            let e = p + len;
            let Some(next) = after_move(s, e) else {
                break;
            };
            if (n1 == 2 && from < 10) || (n2 == 2 && to < 10) {
                self.note(ToleratedKind::LeadingZeros, sp(p, e));
            }
            let kind = if capture {
                MoveKind::Capture('x')
            } else {
                MoveKind::Normal
            };
            let squares = Squares::pair(Square::Num(from), Square::Num(to));
            self.emit_move(squares, kind, None, sp(p, e));
            p = next;
        }
        self.pos = p;
        if p == first {
            Fast::Nothing
        } else {
            Fast::Read
        }
    }

    /// The result `2-0`, `1-1` or `0-2` (or `1-0`, `0-1`, `0-0`) at `p`, the token being
    /// `len` bytes long, if it ends the main line right before a line break or `[`: read as
    /// [`P::move_token`] reads it (nothing can follow it on its line); true if read.
    #[cold]
    #[inline(never)]
    fn fast_result(&mut self, b: &[u8; 16], p: usize, len: usize, capture: bool) -> bool {
        if len != 3
            || capture
            || !self.stack.is_empty()
            || !matches!(b[3], b'\n' | b'\r' | b'[')
            || !token::standard_numeric_result(&b[..1], &b[2..3])
        {
            return false;
        }
        self.result_here(p, p + 3, false, false)
    }

    /// `4- 9` or `15x 4` at `p` (the first square of `n1` digits, worth `from`; one space
    /// after the separator, then one digit), for [`P::fast_run`]: read as
    /// [`P::move_token`] reads it; where the next token starts, or `None` with nothing read.
    #[cold]
    #[inline(never)]
    fn fast_padded(
        &mut self,
        b: &[u8; 16],
        p: usize,
        n1: usize,
        from: u32,
        movelike_result: bool,
    ) -> Option<usize> {
        let capture = b[n1] == b'x';
        let d = b[n1 + 2];
        if !(capture || b[n1] == b'-') || !d.is_ascii_digit() || b[n1 + 3].is_ascii_digit() {
            return None;
        }
        let to = u32::from(d - b'0');
        // Zero squares, and `1- 1` (a result), go the general way.
        if from == 0 || to == 0 || (!capture && (movelike_result || (from == 1 && to == 1))) {
            return None;
        }
        let e = p + n1 + 3;
        let next = after_move(self.s, e)?;
        self.note(ToleratedKind::SpacesInMove, sp(p, e));
        if n1 == 2 && from < 10 {
            self.note(ToleratedKind::LeadingZeros, sp(p, e));
        }
        let kind = if capture {
            MoveKind::Capture('x')
        } else {
            MoveKind::Normal
        };
        self.emit_move(
            Squares::pair(Square::Num(from), Square::Num(to)),
            kind,
            None,
            sp(p, e),
        );
        Some(next)
    }

    /// The capture of three squares or more at `p` (`from` of `n1` digits, then `x`), for
    /// [`P::fast_run`]: where the next token starts, or `None` with nothing read.
    #[cold]
    #[inline(never)]
    fn fast_long_capture(&mut self, p: usize, from: u32, n1: usize) -> Option<usize> {
        let (squares, e, lz) = long_capture(self.s, p, from, n1)?;
        let next = after_move(self.s, e)?;
        if lz || (n1 == 2 && from < 10) {
            self.note(ToleratedKind::LeadingZeros, sp(p, e));
        }
        self.emit_move(squares, MoveKind::Capture('x'), None, sp(p, e));
        Some(next)
    }

    /// The algebraic move `c3-d4` or `c3xd4` at `p` (lower-case files, ranks of one digit),
    /// for [`P::fast_run`]: where the next token starts, or `None` with nothing read if the
    /// token has another form or what follows it does not plainly end it.
    #[inline]
    fn fast_alpha(&mut self, b: &[u8; 16], p: usize) -> Option<usize> {
        let rank = |c: u8| matches!(c, b'1'..=b'9');
        let sep = b[2];
        if !(rank(b[1])
            && (sep == b'-' || sep == b'x')
            && b[3].is_ascii_lowercase()
            && rank(b[4])
            && !b[5].is_ascii_digit())
        {
            return None;
        }
        let next = after_move(self.s, p + 5)?;
        let square = |file: u8, rank: u8| Square::Alg {
            file: file - b'a',
            rank: rank - b'1',
        };
        let kind = if sep == b'x' {
            MoveKind::Capture('x')
        } else {
            MoveKind::Normal
        };
        let squares = Squares::pair(square(b[0], b[1]), square(b[3], b[4]));
        self.emit_move(squares, kind, None, sp(p, p + 5));
        Some(next)
    }

    /// A token starting with a digit: move number, numeric move or result.
    fn number_led(&mut self) -> Res<bool> {
        let start = self.pos;
        if matches!(self.s.get(start + 1), Some(b'/' | b'.'))
            && let Ok((rest, (_, standard))) = token::draw_literal::<()>(&self.s[start..])
        {
            let end = self.s.len() - rest.len();
            self.check_end(end)?;
            return self.result(start, end, !standard, false);
        }
        let Ok((rest, d1)) = token::digits::<()>(&self.s[start..]) else {
            return self.garbage(start);
        };
        let after = self.s.len() - rest.len();
        self.check_end(after)?;
        if self.s.get(after) == Some(&b'.') {
            return self.move_number(start, after, d1);
        }
        let Some(v1) = d1.value else {
            self.pos = after;
            self.error(sp(start, after), || {
                "number too long: expected a move or a move number".to_owned()
            });
            return Ok(false);
        };
        self.move_token(
            start,
            Square::Num(v1),
            after,
            Some(d1.text),
            d1.leading_zero(),
        )
    }

    fn move_number(&mut self, start: usize, dot: usize, d: token::Digits<'_>) -> Res<bool> {
        let (rest, ndots) = token::number_dots::<()>(&self.s[dot..]).unwrap_or((&[], 1));
        let mut end = self.s.len() - rest.len();
        self.check_end(end)?;
        let mut second = ndots >= 2;
        if !second {
            // `12. ...`
            let q = self.ws_from(end)?;
            if q > end && self.at(q)? == Some(b'.') {
                self.at(q + 3)?;
                if token::ellipsis::<()>(&self.s[q..]).is_ok() {
                    second = true;
                    end = q + 3;
                }
            }
        }
        self.pos = end;
        let Some(number) = d.value else {
            self.error(sp(start, end), || {
                "move number too large: expected at most 4294967295".to_owned()
            });
            return Ok(false);
        };
        if d.leading_zero() {
            self.note(ToleratedKind::LeadingZeros, sp(start, end));
        }
        self.set_number(MoveNumber {
            number,
            second_player: second,
            span: sp(start, end),
        });
        Ok(false)
    }

    fn alpha_move(&mut self) -> Res<bool> {
        let start = self.pos;
        match token::alpha_square::<()>(&self.s[start..]) {
            Ok((rest, sq)) => {
                let end = self.s.len() - rest.len();
                self.check_end(end)?;
                self.move_token(start, sq, end, None, false)
            }
            Err(_) => self.garbage(start),
        }
    }

    /// A move token whose first square (`first`, ending at `after`) was read. `digits` is
    /// the first square's text when it is numeric.
    fn move_token(
        &mut self,
        start: usize,
        first: Square,
        after: usize,
        digits: Option<&[u8]>,
        mut leading_zero: bool,
    ) -> Res<bool> {
        let numeric = digits.is_some();
        let mut squares = Squares::new();
        squares.push(first);
        let mut end = after;
        let mut spaces = false;
        let mut hyphens = 0u32;
        let mut capture: Option<char> = None;
        let mut zero = matches!(first, Square::Num(0));
        let mut undivided = false;
        let mut second_digits: &[u8] = &[];
        loop {
            let p1 = self.hspace_from(end)?;
            // `a3b4`: algebraic squares without separator.
            if !numeric
                && p1 == end
                && let Some(b'a'..=b'z' | b'A'..=b'Z') = self.at(p1)?
            {
                self.at(p1 + 3)?;
                if let Ok((rest, sq)) = token::alpha_square::<()>(&self.s[p1..]) {
                    let e = self.s.len() - rest.len();
                    self.check_end(e)?;
                    squares.push(sq);
                    undivided = true;
                    end = e;
                    continue;
                }
            }
            self.at(p1 + 2)?;
            let Ok((rest, sep)) = token::separator::<()>(&self.s[p1.min(self.s.len())..]) else {
                break;
            };
            let p2 = self.s.len() - rest.len();
            let p3 = self.hspace_from(p2)?;
            // A space before the separator needs one after it (`35 x 19`, `1 - 1`), so that
            // `32-28 x1a3` or `32-28 - 2. 33-29` (an unknown move) are not joined.
            let spaced = p1 > end;
            if spaced && p3 == p2 {
                break;
            }
            let (sq, e, d) = if numeric {
                match self.at(p3)? {
                    Some(b'0'..=b'9') => {
                        let Ok((rest, d)) = token::digits::<()>(&self.s[p3..]) else {
                            break;
                        };
                        let e = self.s.len() - rest.len();
                        self.check_end(e)?;
                        let Some(v) = d.value else { break };
                        // `32-28 - 2.`: after a spaced separator, digits and a dot are the
                        // next move number.
                        if spaced && self.at(e)? == Some(b'.') {
                            break;
                        }
                        (Square::Num(v), e, Some(d))
                    }
                    _ => break,
                }
            } else {
                self.at(p3 + 3)?;
                match token::alpha_square::<()>(&self.s[p3.min(self.s.len())..]) {
                    Ok((rest, sq)) => {
                        let e = self.s.len() - rest.len();
                        self.check_end(e)?;
                        (sq, e, None)
                    }
                    Err(_) => break,
                }
            };
            if let (Some(d), Some(d1)) = (d, digits)
                && squares.len() == 1
                && sep == Sep::Move
                && d.text.len() > 1
                && self.s.get(e) == Some(&b'.')
                && token::standard_numeric_result(d1, &d.text[..1])
            {
                // `0-201.32-28`: a result glued to the next game's move number.
                let r = p3 + 1;
                self.note(ToleratedKind::GluedResult, sp(start, r));
                return self.result(start, r, p1 > end || p3 > p2, p1 > end || p3 > p2);
            }
            if let Some(d) = d {
                leading_zero |= d.leading_zero();
                zero |= d.value == Some(0);
                if squares.len() == 1 {
                    second_digits = d.text;
                }
            }
            spaces |= p1 > end || p3 > p2;
            match sep {
                Sep::Move => hyphens += 1,
                Sep::Capture(c) => {
                    capture.get_or_insert(c);
                }
            }
            squares.push(sq);
            end = e;
        }
        let span = sp(start, end);

        if squares.len() == 1 {
            return self.lone_square(start, end, squares[0], digits);
        }

        // Results that look like moves.
        if let Some(d1) = digits {
            if squares.len() == 2 && capture.is_none() && !undivided {
                if token::standard_numeric_result(d1, second_digits) {
                    return self.result(start, end, spaces, spaces);
                }
                if zero {
                    return self.result(start, end, true, spaces);
                }
                if self.stack.is_empty()
                    && self.result_tag_movelike
                    && self
                        .result_tag
                        .as_deref()
                        .is_some_and(|t| eq_compact(&self.s[start..end], t))
                {
                    let q = self.trivia_from(end)?;
                    if matches!(self.at(q)?, None | Some(b'[')) {
                        return self.result(start, end, true, spaces);
                    }
                }
            }
            if zero {
                self.pos = end;
                self.error(span, || {
                    "square 0 does not exist: expected squares numbered from 1".to_owned()
                });
                return Ok(false);
            }
        }

        let kind = if let Some(c) = capture {
            if c != 'x' {
                self.note(ToleratedKind::CaptureSeparator, span);
            }
            if hyphens > 0 {
                self.note(ToleratedKind::MixedSeparators, span);
            }
            MoveKind::Capture(c)
        } else if undivided && hyphens == 0 {
            MoveKind::Undivided
        } else {
            if hyphens >= 2 {
                self.note(ToleratedKind::HyphenatedLongMove, span);
            }
            MoveKind::Normal
        };
        if spaces {
            self.note(ToleratedKind::SpacesInMove, span);
        }
        if leading_zero {
            self.note(ToleratedKind::LeadingZeros, span);
        }
        self.finish_move(squares, kind, start, end)
    }

    /// A square with no separator after it: an undivided numeric move, or an error.
    fn lone_square(
        &mut self,
        start: usize,
        end: usize,
        sq: Square,
        digits: Option<&[u8]>,
    ) -> Res<bool> {
        // Glued to letters (`12a`, `3rd`): no move at all.
        if let Some(b) = self.at(end)?
            && (b.is_ascii_alphanumeric() || b >= 0x80)
        {
            return self.garbage(start);
        }
        let span = sp(start, end);
        if let Some(d) = digits {
            let mut squares = Squares::new();
            if d.len() == 4 {
                let (a, b) = (token::value_of(&d[..2]), token::value_of(&d[2..]));
                if let (Some(a @ 1..), Some(b @ 1..)) = (a, b) {
                    squares.push(Square::Num(a));
                    squares.push(Square::Num(b));
                }
            }
            // Three significant digits or more (`932`, `1200`): one square of all of them.
            if squares.is_empty() && matches!(sq, Square::Num(100..)) {
                squares.push(sq);
            }
            if !squares.is_empty() {
                self.note(ToleratedKind::UndividedNumericMove, span);
                if d[0] == b'0' {
                    self.note(ToleratedKind::LeadingZeros, span);
                }
                return self.finish_move(squares, MoveKind::Undivided, start, end);
            }
        }
        self.pos = end;
        let text = show(&self.s[start..end]);
        self.error(span, || {
            if digits.is_some() {
                format!(
                    "unexpected number `{text}`: expected a move number (`{text}.`) or a move \
                     (`{text}-…`)"
                )
            } else {
                format!("lone square `{text}`: expected a move (`{text}-…` or `{text}x…`)")
            }
        });
        Ok(false)
    }

    /// Record a move read from `start` to `end` (its strength, if attached, is read here).
    fn finish_move(
        &mut self,
        squares: Squares,
        kind: MoveKind,
        start: usize,
        end: usize,
    ) -> Res<bool> {
        let s = self.s;
        let mut pos = end;
        let mut strength: Option<&[u8]> = None;
        match self.at(end)? {
            Some(b'!' | b'?' | b'(') => {
                if self.at(end)? == Some(b'(') {
                    if let Some(n) = self.paren_strength(end)? {
                        strength = Some(&s[end..end + n]);
                        pos = end + n;
                    }
                } else if let Ok((rest, st)) = token::strength::<()>(&s[end..]) {
                    let e = s.len() - rest.len();
                    self.check_end(e)?;
                    strength = Some(st);
                    pos = e;
                }
            }
            Some(b'*') => {
                // FMJD's forced-move star, unless it is the game separator.
                let q = self.trivia_from(end + 1)?;
                if !matches!(self.at(q)?, None | Some(b'[')) {
                    self.note(ToleratedKind::StarStrength, sp(end, end + 1));
                    strength = Some(b"*");
                    pos = end + 1;
                }
            }
            _ => {}
        }
        self.pos = pos;
        self.emit_move(squares, kind, strength, sp(start, end));
        Ok(false)
    }

    /// `-` standing alone: an unknown move (`41. - -`).
    fn dash(&mut self) -> Res<bool> {
        let start = self.pos;
        let mut end = start + 1;
        if self.at(end)? == Some(b'-') {
            end += 1;
        }
        match self.at(end)? {
            None => {}
            Some(b)
                if is_ws(b)
                    || matches!(
                        b,
                        b')' | b'(' | b'{' | b'%' | b';' | b'*' | b'$' | b'!' | b'?'
                    ) => {}
            Some(_) => return self.garbage(start),
        }
        self.note(ToleratedKind::UnknownMove, sp(start, end));
        self.finish_move(Squares::new(), MoveKind::Unknown, start, end)
    }

    /// `...` standing alone (an unknown move) or stray dots.
    fn dots(&mut self) -> Res<bool> {
        let start = self.pos;
        self.at(start + 3)?;
        if token::ellipsis::<()>(&self.s[start..]).is_ok() {
            self.note(ToleratedKind::UnknownMove, sp(start, start + 3));
            return self.finish_move(Squares::new(), MoveKind::Unknown, start, start + 3);
        }
        let mut end = start;
        while self.at(end)? == Some(b'.') {
            end += 1;
        }
        self.note(ToleratedKind::StrayDot, sp(start, end));
        self.pos = end;
        Ok(false)
    }

    /// `!`, `?` after white space.
    fn detached_strength(&mut self) -> Res<bool> {
        let start = self.pos;
        let mut end = start;
        while let Some(b'!' | b'?') = self.at(end)? {
            end += 1;
        }
        self.attach_detached_strength(start, end);
        Ok(false)
    }

    fn attach_detached_strength(&mut self, a: usize, b: usize) {
        self.pos = b;
        let s = self.s;
        let text = &s[a..b];
        if self.line.bare_move {
            self.line.bare_move = false;
            self.sink.late_strength(text);
            self.note(ToleratedKind::SpaceBeforeStrength, sp(a, b));
            return;
        }
        self.error(sp(a, b), || {
            let text = String::from_utf8_lossy(text);
            format!("unexpected `{text}`: a move strength must follow its move")
        });
    }

    /// An unknown token from `start`: skip it up to white space or a delimiter.
    fn garbage(&mut self, start: usize) -> Res<bool> {
        let mut end = start + 1;
        while let Some(b) = self.at(end)? {
            if is_ws(b) || matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b'%' | b';') {
                break;
            }
            end += 1;
        }
        // Do not cut a UTF-8 character in the message's span.
        self.pos = end;
        let text = show(&self.s[start..end]);
        self.error(sp(start, end), || {
            format!(
                "unexpected `{text}`: expected a move, a move number, a comment, a variation, \
                 a NAG, a setup, a result or `*`"
            )
        });
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parse every game of `bytes` with and without the fast path; they must agree.
    fn agree(bytes: &[u8]) {
        let mut at = 0;
        while at < bytes.len() {
            while at < bytes.len() && is_ws(bytes[at]) {
                at += 1;
            }
            if at == bytes.len() {
                break;
            }
            let s = &bytes[at..];
            let mut scratch = Vec::new();
            let (Ok(a), Ok(b)) = (
                parse_with(s, true, true, &mut scratch),
                parse_with(s, true, false, &mut Vec::new()),
            ) else {
                panic!("a parse with eof asked for more");
            };
            assert_eq!(a.game, b.game, "at byte {at}");
            assert_eq!(
                (a.consumed, a.source_end, a.utf8_ok, a.end),
                (b.consumed, b.source_end, b.utf8_ok, b.end)
            );
            at += a.consumed.max(1);
        }
    }

    #[test]
    fn word_shapes() {
        let w = |t: &str| {
            let mut b = [b' '; 16];
            b[..t.len()].copy_from_slice(t.as_bytes());
            let w = Word::new(&b);
            (w.first_other(), w.second_other())
        };
        assert_eq!(w("32-28 "), (2, 5));
        assert_eq!(w("9x18\n"), (1, 4));
        assert_eq!(w("12.32-28"), (2, 5));
        assert_eq!(w("c3-d4"), (0, 2));
        assert_eq!(w("12345678"), (8, 8));
        assert_eq!(w("1234567-"), (7, 8));
        let mut b = [b' '; 16];
        b[..5].copy_from_slice(b"09-13");
        let w = Word::new(&b);
        assert_eq!((w.square(0, 2), w.square(3, 2), w.square(4, 1)), (9, 13, 3));
        let c = |t: &[u8]| {
            let mut b = [b' '; 16];
            b[..t.len()].copy_from_slice(t);
            Word::new(&b).comment_end()
        };
        assert_eq!(c(b"{-40} 12-17"), Some(4));
        assert_eq!(c(b"{}"), Some(1));
        assert_eq!(c(b"{z}"), Some(2));
        assert_eq!(c(b"{-99999}"), Some(7));
        assert_eq!(c(b"{-999999}"), None);
        assert_eq!(c(b"{a{b}"), None);
        assert_eq!(c(b"{a\n}"), None);
        assert_eq!(c(b"{\r}"), Some(2));
    }

    #[test]
    fn fast_path_agrees_with_the_general_one_on_the_corpus() {
        let root = std::env::var_os("PDN_CORPUS").map_or_else(
            || std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
            std::path::PathBuf::from,
        );
        assert!(root.is_dir(), "corpus not found at {}", root.display());
        let mut dirs = vec![root];
        let mut files = 0;
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).expect("corpus directory") {
                let p = e.expect("entry").path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdn")) {
                    agree(&std::fs::read(&p).expect("corpus file"));
                    files += 1;
                }
            }
        }
        assert!(files > 2700);
    }

    #[test]
    fn fast_path_agrees_with_the_general_one_on_random_input() {
        let atoms: [&[u8]; 68] = [
            b"1",
            b"2",
            b"0",
            b"9",
            b"32",
            b"05",
            b"100",
            b"-",
            b"x",
            b"X",
            b":",
            b".",
            b"...",
            b" ",
            b"  ",
            b"\n",
            b"\r\n",
            b"\t",
            b"{c}",
            b"(",
            b")",
            b"!",
            b"?",
            b"(?)",
            b"*",
            b"$1",
            b"[Result \"4-6\"]",
            b"[Result \"2-0\"]",
            b"1-1",
            b"4-6",
            b"%c\n",
            b";c\n",
            b"a3",
            b"/FEN \"W\"/",
            b"[",
            b"1/2-1/2",
            b"0.5-0.5",
            b"\xc3\x97",
            b"12. ...",
            b"e",
            b"12.",
            b"c3-d4",
            b"h8xg7",
            b"a1-",
            b" 32-28 ",
            b"9x18x27",
            b"{",
            b"}",
            b"{a\n[b",
            b"{ {x} }",
            b"[Event \"x\"]",
            b"[Ev_1 \"a\\\"b\"]",
            b"[E \"x\" ]",
            b"[e \"x\"]",
            b"[Event \"",
            b"\"]",
            b"\\",
            b"{-40}",
            b"{0123456789abcd}",
            b"{0123456789abcde}",
            b"{\r}",
            b"4- 9",
            b"15x 4",
            b"1- 1",
            b"07- 3",
            b"2-0",
            b"0-2\n",
            b"1-0[",
        ];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..20_000 {
            let mut text = Vec::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let n = (x % 50) as usize;
            for _ in 0..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                text.extend_from_slice(atoms[(x % atoms.len() as u64) as usize]);
            }
            // Padding keeps the fast path away from the end of the slice.
            text.extend_from_slice(&[b' '; 20]);
            text.extend_from_slice(b"32-28 *");
            agree(&text);
        }
    }
}
