//! The streaming reader: games one by one from any `io::Read` through one growable buffer,
//! with file offsets, line and column bookkeeping, BOM handling, per-game decoding (UTF-8,
//! else Windows-1252) and the size limit with resynchronisation.
//!
//! Lines and columns are counted on demand: a game built as a [`Game`] gets its own, while
//! a visitor's [`GameEnd`] counts only if asked. Bytes are counted once, up to the point
//! asked for, and at the latest before the buffer drops them.
//!
//! Memory is bounded by the largest game (at most the configured maximum, twice over while
//! the buffer grows), never by the file. The buffer is refilled only when the parser needs
//! bytes past its end; it then at least doubles the bytes available to the game being read,
//! so re-parsing a game after a refill keeps the total work linear.

use std::cell::Cell;
use std::io::{self, Read};

use encoding_rs::WINDOWS_1252;
use memchr::memchr2_iter;

use super::game::{
    Encoding, Game, Item, Span, SyntaxError, SyntaxErrorKind, Tolerated, ToleratedKind,
};
use super::grammar::{self, End, NeedMore, Parsed};
use super::lines::LinePos;
use super::token::is_ws;
use super::utf16::Source;
#[cfg(doc)]
use super::visitor::RawTag;
use super::visitor::{Driven, GameEnd, Visitor, VisitorSink};

/// Default initial buffer size.
pub const DEFAULT_BUFFER_SIZE: usize = 64 * 1024;
/// The buffer size from which [`Reader`]'s buffer grows by half rather than doubling.
const GROW_BY_HALF_FROM: usize = 1 << 25;

/// The size the reader's buffer grows to from `len` bytes: doubled while small (few
/// growths, each copy paid back), by half from [`GROW_BY_HALF_FROM`] on, so that a huge game
/// holds at most half as much again as its text (not up to twice), and a growth (the old
/// and the new buffer alive at once while it is copied) costs two and a half times the old
/// size, not three.
fn grown(len: usize) -> usize {
    if len < GROW_BY_HALF_FROM {
        len.saturating_mul(2)
    } else {
        len.saturating_add(len / 2)
    }
}

/// Default maximum size of one game in bytes.
pub const DEFAULT_MAX_GAME_SIZE: usize = 256 << 20;
/// The largest maximum that may be configured (spans are `u32` and decoding may triple).
pub const MAX_MAX_GAME_SIZE: usize = 1 << 30;
/// The largest game the commands of the `pdn` program read (a game is held in memory whole,
/// at several times its size once parsed): far above any real record, low enough to bound
/// memory on hostile input. A larger game is a syntax error of its own
/// ([`SyntaxErrorKind::GameTooLong`](super::SyntaxErrorKind::GameTooLong): the file is not
/// read whole, and `fix --in-place` leaves it as it is), and reading goes on after it.
pub const COMMANDS_MAX_GAME_SIZE: usize = 64 << 20;

/// Reads PDN games one by one from a byte source.
///
/// ```
/// use pdn::syntax::Reader;
///
/// let pdn = b"[Event \"x\"]\n1. 32-28 19-23 2-0\n\n1. 33-29 *\n";
/// let games: Vec<_> = Reader::new(&pdn[..]).collect::<Result<_, _>>()?;
/// assert_eq!(games.len(), 2);
/// assert_eq!(games[0].tag("Event"), Some("x"));
/// assert_eq!(games[1].line, 4);
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Reader<R> {
    src: Source<R>,
    /// The first bytes were looked at for UTF-16.
    utf16_checked: bool,
    buf: Vec<u8>,
    initial: usize,
    start: usize,
    end: usize,
    eof: bool,
    /// File offset of `buf[0]`.
    base: u64,
    /// Line and column at a buffer index at or before `start` (see [`LinePos`]).
    lines: Cell<LinePos>,
    index: usize,
    max_game_size: usize,
    bytes_read: u64,
    bom_checked: bool,
    bom_pending: bool,
    skipping: bool,
    failed: bool,
    /// Reused capacity for the main line of the game being parsed.
    scratch: Vec<Item>,
    /// Piece mode (see `pieces`): file offset of the cut; no game starting at or after it
    /// is read (`u64::MAX` otherwise).
    stop: u64,
    /// Piece mode: the source ends before the file does, so a game that needs bytes past
    /// its end, or ends past the cut, is left for the next piece.
    open_end: bool,
    /// Piece mode: what the next piece must resume.
    pub(crate) rest: Rest,
}

/// What a piece leaves for the next one (see [`super::pieces::read_piece`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rest {
    /// Nothing: the next piece starts at a game boundary.
    Nothing,
    /// A game starts before the cut and was not decided inside the piece: its bytes up to
    /// the cut go in front of the next piece, which then starts at `origin`.
    Game {
        /// The game's bytes up to the cut.
        bytes: Vec<u8>,
        /// Where the game starts.
        origin: Origin,
        /// How many of them were read when it was last tried (see
        /// [`super::pieces::read_piece_after`]).
        tried: usize,
    },
    /// The piece ended while skipping the rest of a game that was too long: the next piece
    /// goes on skipping to a line that starts with `[`.
    Skipping,
}

/// Where a piece of a file starts, and the reading state there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// File offset of the piece's first byte.
    pub offset: u64,
    /// 1-based line of the piece's first byte.
    pub line: u32,
    /// 1-based column (in characters) of the piece's first byte.
    pub column: u32,
    /// The piece starts the file (a byte-order mark is looked for).
    pub file_start: bool,
    /// A byte-order mark was stripped before the piece: note it on its first game.
    pub bom_pending: bool,
    /// The piece starts while skipping to a line that starts with `[`.
    pub skipping: bool,
}

impl<R: Read> Reader<R> {
    /// A reader over `source` (no need to wrap it in a `BufReader`).
    pub fn new(source: R) -> Self {
        Reader {
            src: Source::Plain(source),
            utf16_checked: false,
            buf: Vec::new(),
            initial: DEFAULT_BUFFER_SIZE,
            start: 0,
            end: 0,
            eof: false,
            base: 0,
            lines: Cell::new(LinePos::START),
            index: 0,
            max_game_size: DEFAULT_MAX_GAME_SIZE,
            bytes_read: 0,
            bom_checked: false,
            bom_pending: false,
            skipping: false,
            failed: false,
            scratch: Vec::new(),
            stop: u64::MAX,
            open_end: false,
            rest: Rest::Nothing,
        }
    }

    /// A reader of one piece of a file held in memory: `bytes` are the file's bytes from
    /// `origin.offset`; games starting before `cut` (an index into them) are read, and with
    /// `file_end` false their end is not the file's. `scratch` is reused capacity.
    pub(crate) fn piece(
        source: R,
        bytes: Vec<u8>,
        cut: usize,
        origin: &Origin,
        file_end: bool,
        scratch: Vec<Item>,
    ) -> Self {
        let mut r = Reader::new(source);
        r.end = bytes.len();
        r.buf = bytes;
        r.eof = true;
        r.scratch = scratch;
        r.base = origin.offset;
        r.lines.set(LinePos {
            at: 0,
            line: origin.line,
            column: origin.column,
            prev_cr: false,
        });
        r.bom_checked = !origin.file_start;
        // The pieces of a file come decoded (see `utf16`).
        r.utf16_checked = true;
        r.bom_pending = origin.bom_pending;
        r.skipping = origin.skipping;
        r.stop = origin.offset.saturating_add(cut as u64);
        r.open_end = !file_end;
        r
    }

    /// The buffer and the scratch capacity back (piece mode: the buffer holds the piece's
    /// bytes unchanged, as the source is never read).
    pub(crate) fn into_parts(self) -> (Vec<u8>, Vec<Item>, Rest) {
        (self.buf, self.scratch, self.rest)
    }

    /// File offset of the next unread byte.
    fn here(&self) -> u64 {
        self.base + self.start as u64
    }

    /// Line and column of the next unread byte.
    fn line_col(&self) -> (u32, u32) {
        LinePos::resolve(&self.lines, &self.buf[..self.start])
    }

    /// Leave the game starting here for the next piece.
    fn leave_game(&mut self) -> Option<Game> {
        // The source is the piece in memory: its bytes are all in the buffer.
        let to_cut = usize::try_from(self.stop - self.here()).unwrap_or(usize::MAX);
        let bytes = self.buf[self.start..self.end.min(self.start.saturating_add(to_cut))].to_vec();
        let (line, column) = self.line_col();
        self.rest = Rest::Game {
            tried: bytes.len(),
            bytes,
            origin: Origin {
                offset: self.here(),
                line,
                column,
                file_start: false,
                bom_pending: self.bom_pending,
                skipping: false,
            },
        };
        None
    }

    /// The largest game read (default 256 MiB, at most 1 GiB). A larger game keeps what its
    /// first `bytes` bytes hold, gets a syntax error, and reading resumes at the next line
    /// that starts with `[`.
    pub fn with_max_game_size(mut self, bytes: usize) -> Self {
        self.max_game_size = bytes.clamp(1, MAX_MAX_GAME_SIZE);
        self
    }

    /// The initial buffer size (default 64 KiB); the buffer grows as games need.
    pub fn with_buffer_size(mut self, bytes: usize) -> Self {
        self.initial = bytes.max(1);
        self
    }

    /// Bytes taken from the source so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The source back.
    pub fn into_inner(self) -> R {
        self.src.into_inner()
    }

    /// The next game, `None` at the end of the source.
    ///
    /// # Errors
    ///
    /// I/O errors of the source (never syntax errors: those are in [`Game::errors`]).
    pub fn next_game(&mut self) -> io::Result<Option<Game>> {
        loop {
            if !self.seek_game()? {
                return Ok(None);
            }
            let limit = (self.end - self.start).min(self.max_game_size);
            let truncated = limit < self.end - self.start;
            let slice = &self.buf[self.start..self.start + limit];
            let eof = self.eof && !self.open_end && !truncated;
            match grammar::parse_game(slice, eof, &mut self.scratch) {
                Ok(parsed) if self.open_end && self.crosses(parsed.consumed) => {
                    return Ok(self.leave_game());
                }
                Ok(parsed) => return Ok(Some(self.take(parsed))),
                // Piece mode: a game cut short may only be decided by the next piece (the
                // whole game then comes again with it), so it is not cut here.
                Err(NeedMore)
                    if limit >= self.max_game_size
                        && !(self.open_end && self.crosses(self.max_game_size)) =>
                {
                    return Ok(self.too_big());
                }
                Err(NeedMore) if self.open_end && self.eof => return Ok(self.leave_game()),
                Err(NeedMore) if limit >= self.max_game_size => return Ok(self.leave_game()),
                Err(NeedMore) => self.refill()?,
            }
        }
    }

    /// Read the next game into `visitor`: its elements as they are found, with the bytes as
    /// written in the file (not decoded, tag values not unescaped: see [`RawTag`]), then
    /// [`Visitor::end_game`], whose output is returned. `None` at the end of the source.
    ///
    /// The game is read by the same grammar as [`Reader::next_game`] and gives the same
    /// elements, errors and notes (for a game that is not UTF-8, `next_game` reads the text
    /// decoded as Windows-1252; the visitor gets the bytes). Nothing is allocated per element.
    ///
    /// ```
    /// use pdn::syntax::{GameEnd, MoveRef, RawTag, Reader, Skip, Span, Visitor};
    ///
    /// /// Counts the moves of the main line and keeps the `White` tag.
    /// #[derive(Default)]
    /// struct Count { white: Option<String>, moves: usize }
    ///
    /// impl Visitor for Count {
    ///     type Output = (Option<String>, usize);
    ///     fn begin_game(&mut self) { *self = Count::default(); }
    ///     fn tag(&mut self, name: &[u8], value: RawTag<'_>, _: Span) {
    ///         if name == b"White" {
    ///             self.white = Some(value.decode_utf8_lossy().into_owned());
    ///         }
    ///     }
    ///     fn game_move(&mut self, _: &MoveRef<'_>) { self.moves += 1; }
    ///     fn begin_variation(&mut self) -> Skip { Skip(true) }
    ///     fn end_game(&mut self, _: &GameEnd<'_>) -> Self::Output {
    ///         (self.white.take(), self.moves)
    ///     }
    /// }
    ///
    /// let pdn = b"[White \"Sijbrands\"]\n1. 32-28 (33-28) 19-23 2-0\n";
    /// let mut reader = Reader::new(&pdn[..]);
    /// let mut count = Count::default();
    /// let first = reader.read_game(&mut count)?;
    /// assert_eq!(first, Some((Some("Sijbrands".to_owned()), 2)));
    /// assert_eq!(reader.read_game(&mut count)?, None);
    /// # Ok::<_, std::io::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// I/O errors of the source (never syntax errors: those are in [`GameEnd::errors`]).
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        self.read_driven(&mut VisitorSink::new(visitor))
    }

    /// [`Reader::read_game`] with the grammar's elements going straight to `sink` (see
    /// [`Driven`]).
    pub(crate) fn read_driven<D: Driven>(&mut self, sink: &mut D) -> io::Result<Option<D::Output>> {
        if self.failed {
            return Ok(None);
        }
        let result = self.visit(sink);
        if result.is_err() {
            self.failed = true;
        }
        result
    }

    fn visit<D: Driven>(&mut self, sink: &mut D) -> io::Result<Option<D::Output>> {
        if !self.seek_game()? {
            return Ok(None);
        }
        sink.begin_game();
        loop {
            // After a refill the game still starts at `start` (the buffer only moved).
            let limit = (self.end - self.start).min(self.max_game_size);
            let truncated = limit < self.end - self.start;
            let slice = &self.buf[self.start..self.start + limit];
            // At the maximum size the game is cut: read what the slice holds as if the file
            // ended there (as `next_game` does). In piece mode the end of the bytes is not the
            // file's, and a game that needs bytes past them, or crosses the cut (unless it is
            // cut at the maximum size before), is left to the next piece, as `next_game` does.
            let file_end = self.eof && !self.open_end && !truncated;
            let capped =
                limit >= self.max_game_size && !(self.open_end && self.crosses(self.max_game_size));
            let eof = file_end || capped;
            match grammar::parse(slice, eof, sink) {
                Ok(meta) if self.open_end && self.crosses(meta.consumed) => {
                    self.leave_game();
                    return Ok(None);
                }
                Err(NeedMore) if self.open_end && self.eof => {
                    self.leave_game();
                    return Ok(None);
                }
                Ok(mut meta) => {
                    let long = !file_end && meta.end == End::Eof;
                    if long {
                        let end = meta.source_end as u32;
                        meta.errors.push(too_long(self.max_game_size, end));
                    }
                    let bom = std::mem::take(&mut self.bom_pending);
                    if bom {
                        meta.notes.insert(0, bom_note());
                    }
                    self.index += 1;
                    let info = GameEnd {
                        index: self.index,
                        offset: self.here(),
                        text: &self.buf[self.start..self.start + meta.source_end],
                        errors: &meta.errors,
                        notes: &meta.notes,
                        lines: &self.lines,
                        before: &self.buf[..self.start],
                        ended: meta.end,
                    };
                    let out = sink.end_game(&info);
                    if long {
                        self.advance(limit);
                        self.skipping = true;
                    } else {
                        self.advance(meta.consumed);
                    }
                    return Ok(Some(out));
                }
                Err(NeedMore) => {
                    sink.restart();
                    self.refill()?;
                }
            }
        }
    }

    /// Step to the first byte of the next game (skipping white space, a byte-order mark,
    /// and in resynchronisation the text before the next tag line): false at the end.
    fn seek_game(&mut self) -> io::Result<bool> {
        loop {
            if !self.bom_checked {
                if self.end - self.start < 3 && !self.eof {
                    self.refill()?;
                    continue;
                }
                self.bom_checked = true;
                if self.buf[self.start..self.end].starts_with(b"\xEF\xBB\xBF") {
                    self.start += 3;
                    self.bom_pending = true;
                }
            }
            let ws = self.buf[self.start..self.end]
                .iter()
                .take_while(|&&b| is_ws(b))
                .count();
            self.advance(ws);
            if self.start == self.end {
                if self.eof {
                    if self.open_end && self.skipping {
                        self.rest = Rest::Skipping;
                    }
                    return Ok(false);
                }
                self.refill()?;
                continue;
            }
            if self.here() >= self.stop {
                // Piece mode: the rest belongs to the next piece.
                if self.skipping {
                    self.rest = Rest::Skipping;
                }
                return Ok(false);
            }
            if self.skipping {
                if !self.skip_to_tags() {
                    if self.here() >= self.stop {
                        continue;
                    }
                    if self.eof {
                        return Ok(false);
                    }
                    self.refill()?;
                }
                continue;
            }
            return Ok(true);
        }
    }

    /// Move the live bytes to the front, grow the buffer when it is more than half full,
    /// and read until it is full or the source ends.
    fn refill(&mut self) -> io::Result<()> {
        if self.eof {
            // Nothing more to come (and in piece mode the buffer must stay as it is).
            return Ok(());
        }
        if self.start > 0 {
            // The bytes before `start` go: count them first.
            self.line_col();
            let mut pos = self.lines.get();
            pos.at = 0;
            self.lines.set(pos);
            self.buf.copy_within(self.start..self.end, 0);
            self.base += self.start as u64;
            self.end -= self.start;
            self.start = 0;
        }
        if self.buf.len() < self.initial {
            self.buf.resize(self.initial, 0);
        }
        if !self.utf16_checked && self.buf.len() < 256 {
            // Enough bytes to tell UTF-16, whatever the buffer size.
            self.buf.resize(256, 0);
        } else if self.end * 2 > self.buf.len() {
            let cap = self.max_game_size.saturating_mul(2).max(self.initial);
            let new = grown(self.buf.len()).min(cap).max(self.buf.len() + 1);
            // (Exactly: `resize` alone would reserve twice the capacity.)
            self.buf.reserve_exact(new - self.buf.len());
            self.buf.resize(new, 0);
        }
        while self.end < self.buf.len() && !self.eof {
            match self.src.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => {
                    let n = n.min(self.buf.len() - self.end);
                    self.end += n;
                    self.bytes_read += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if !self.utf16_checked {
            self.utf16_checked = true;
            // A UTF-16 file (see `utf16::detect`): from here on read through a decoder, the
            // bytes already read first.
            if self.base == 0 && self.src.switch_if_utf16(&self.buf[..self.end]) {
                self.end = 0;
                self.eof = false;
                return self.refill();
            }
        }
        Ok(())
    }

    /// Step over `n` bytes at `start`, keeping line and column.
    fn advance(&mut self, n: usize) {
        self.start += n;
    }

    /// Build the game of a successful parse and step over it.
    fn take(&mut self, parsed: Parsed) -> Game {
        let consumed = parsed.consumed;
        let game = self.build(parsed);
        self.advance(consumed);
        game
    }

    fn build(&mut self, parsed: Parsed) -> Game {
        let raw = &self.buf[self.start..self.start + parsed.source_end];
        let mut game = match std::str::from_utf8(raw) {
            Ok(text) if parsed.utf8_ok => {
                let mut g = parsed.game;
                g.source = text.to_owned();
                g
            }
            _ => decode_1252(raw, parsed.end),
        };
        self.index += 1;
        game.index = self.index;
        game.offset = self.base + self.start as u64;
        (game.line, game.column) = self.line_col();
        if self.bom_pending {
            self.bom_pending = false;
            game.notes.insert(0, bom_note());
        }
        game
    }

    /// The game filled the maximum size without ending.
    fn too_big(&mut self) -> Option<Game> {
        let limit = self.max_game_size.min(self.end - self.start);
        let slice = &self.buf[self.start..self.start + limit];
        let parsed = match grammar::parse_game(slice, true, &mut self.scratch) {
            Ok(p) => p,
            Err(NeedMore) => unreachable_need_more(),
        };
        if parsed.end != End::Eof {
            // It did end; only the look past its end was cut.
            return Some(self.take(parsed));
        }
        let mut game = self.build(parsed);
        let end = game.source.len() as u32;
        game.errors.push(too_long(self.max_game_size, end));
        self.advance(limit);
        self.skipping = true;
        Some(game)
    }

    /// Piece mode: a game starting here and `len` bytes long would end past the cut.
    fn crosses(&self, len: usize) -> bool {
        self.here().saturating_add(len as u64) > self.stop
    }

    /// Skip the rest of a game that was too long, to the next line that starts a game: one
    /// that starts with `[` (a tag section) or with move number 1 (`1.`, as the games of an
    /// archive without tags start); true when found.
    fn skip_to_tags(&mut self) -> bool {
        // In piece mode the search stops at the cut: the next piece goes on from there.
        let to_cut = usize::try_from(self.stop - self.here()).unwrap_or(usize::MAX);
        let region = &self.buf[self.start..self.end.min(self.start.saturating_add(to_cut))];
        for k in memchr2_iter(b'[', b'1', region) {
            let at_line_start = if k == 0 {
                self.line_col().1 == 1
            } else {
                matches!(region[k - 1], b'\n' | b'\r')
            };
            if !at_line_start {
                continue;
            }
            if region[k] == b'1' {
                // `1.`: the byte after may lie past the cut (a piece carries a few bytes
                // more) or not be read yet.
                match self.buf[..self.end].get(self.start + k + 1) {
                    Some(b'.') => {}
                    Some(_) => continue,
                    None if self.eof => continue,
                    None => {
                        // Decided once more bytes are read.
                        self.advance(k);
                        return false;
                    }
                }
            }
            self.advance(k);
            self.skipping = false;
            return true;
        }
        let n = region.len();
        self.advance(n);
        false
    }
}

/// The note of a byte-order mark, on the first game.
fn bom_note() -> Tolerated {
    Tolerated {
        kind: ToleratedKind::Bom,
        span: Span::at(0),
        count: 1,
    }
}

/// The error of a game cut at the maximum size, at the end of what was kept.
fn too_long(max: usize, end: u32) -> SyntaxError {
    SyntaxError {
        kind: SyntaxErrorKind::GameTooLong,
        span: Span::at(end),
        message: format!(
            "game longer than the maximum of {max} bytes: its first {max} bytes are read, the \
             rest of it up to the next line that starts a game (`[` or `1.`) is skipped, so the \
             file is not read whole; expected a result or `*` before this point"
        ),
    }
}

/// A parse with `eof` set never asks for more; keep the type checker and clippy content
/// without a panic path.
fn unreachable_need_more() -> Parsed {
    Parsed {
        game: Game::default(),
        consumed: 0,
        source_end: 0,
        utf8_ok: true,
        end: End::Eof,
    }
}

/// The game's bytes are not UTF-8: decode them as Windows-1252 and parse the decoded text.
/// The owned game of a game read into a visitor (see [`GameEnd::to_game`]): what
/// [`Reader::next_game`] builds, from the same bytes, errors and notes.
pub(crate) fn game_of(end: &GameEnd<'_>) -> Game {
    let mut game = match std::str::from_utf8(end.text) {
        Ok(text) => game_of_text(text, end.errors, end.notes),

        Err(_) => {
            let mut g = decode_1252(end.text, end.ended);
            if end
                .notes
                .first()
                .is_some_and(|n| n.kind == ToleratedKind::Bom)
            {
                g.notes.insert(0, bom_note());
            }
            if let Some(e) = end
                .errors
                .iter()
                .find(|e| e.kind == SyntaxErrorKind::GameTooLong)
            {
                let mut e = e.clone();
                e.span = Span::at(g.source.len() as u32);
                g.errors.push(e);
            }
            g
        }
    };
    game.index = end.index;
    game.offset = end.offset;
    (game.line, game.column) = end.line_col();
    game
}

/// The owned game of a game read into a visitor whose text is UTF-8, from its text and the
/// errors and notes of its end (its place in the file not set).
pub(crate) fn game_of_text(text: &str, errors: &[SyntaxError], notes: &[Tolerated]) -> Game {
    game_of_text_sized(text, errors, notes, 0)
}

/// [`game_of_text`] of a game whose main line is known to hold `items` items (moves,
/// comments, NAGs, variations, setups): its vector is made that size at once, not grown by
/// doubling (a huge game's main line would keep up to twice its size). A wrong count costs
/// only capacity.
pub(crate) fn game_of_text_sized(
    text: &str,
    errors: &[SyntaxError],
    notes: &[Tolerated],
    items: usize,
) -> Game {
    let mut g = match grammar::parse_game(text.as_bytes(), true, &mut Vec::with_capacity(items)) {
        Ok(p) => p.game,
        Err(NeedMore) => unreachable_need_more().game,
    };
    g.source = text.to_owned();
    g.errors = errors.to_vec();
    g.notes = notes.to_vec();
    g
}

/// The text of a game whose bytes are not all UTF-8, decoded span by span: every run of valid
/// UTF-8 is kept as it is, every byte outside one is read as Windows-1252 (each byte one
/// character: nothing is lost, and the UTF-8 around a stray byte is not turned into
/// mojibake). With the first such character's span and the number of such runs, and whether
/// the text held any character outside ASCII that was valid UTF-8.
fn decode_mixed(raw: &[u8]) -> (String, Span, u32, bool) {
    let mut text = String::with_capacity(raw.len() + raw.len() / 8);
    let mut first = None;
    let mut runs = 0u32;
    let mut utf8 = false;
    for chunk in raw.utf8_chunks() {
        text.push_str(chunk.valid());
        utf8 |= !chunk.valid().is_ascii();
        let bad = chunk.invalid();
        if !bad.is_empty() {
            let at = text.len();
            let (decoded, _) = WINDOWS_1252.decode_without_bom_handling(bad);
            text.push_str(&decoded);
            runs = runs.saturating_add(1);
            first.get_or_insert(Span::new(at as u32, text.len() as u32));
        }
    }
    (text, first.unwrap_or_default(), runs, utf8)
}

/// The game's bytes are not UTF-8: decode them (see [`decode_mixed`]) and parse the decoded
/// text. A text that holds no valid UTF-8 outside ASCII is a legacy 8-bit file (noted once
/// for the game as Windows-1252); one that does is UTF-8 with stray bytes (each run noted).
fn decode_1252(raw: &[u8], ended: End) -> Game {
    let (source, first, runs, utf8) = decode_mixed(raw);
    let mut game = match grammar::parse_game(source.as_bytes(), true, &mut Vec::new()) {
        Ok(p) => {
            let mut g = p.game;
            let len = source
                .trim_end_matches(|c: char| c.is_ascii_whitespace())
                .len();
            if p.consumed < len {
                g.errors.push(SyntaxError {
                    kind: SyntaxErrorKind::TrailingText,
                    span: Span::new(p.consumed as u32, len as u32),
                    message: "text after the end of the game (its bytes are not all UTF-8): \
                              expected a tag section or the next game"
                        .to_owned(),
                });
            }
            g
        }
        Err(NeedMore) => unreachable_need_more().game,
    };
    if ended == End::NextTags && game.note(ToleratedKind::GamesNotSeparated).is_none() {
        let at = source.len() as u32;
        game.notes.push(Tolerated {
            kind: ToleratedKind::GamesNotSeparated,
            span: Span::at(at),
            count: 1,
        });
    }
    let note = if utf8 {
        Tolerated {
            kind: ToleratedKind::InvalidUtf8,
            span: first,
            count: runs,
        }
    } else {
        Tolerated {
            kind: ToleratedKind::Windows1252,
            span: Span::new(0, source.len() as u32),
            count: 1,
        }
    };
    game.notes.insert(0, note);
    game.encoding = Encoding::Windows1252;
    game.source = source;
    game
}

impl<R: Read> Iterator for Reader<R> {
    type Item = io::Result<Game>;

    /// The next game; after an I/O error the iterator ends.
    fn next(&mut self) -> Option<Self::Item> {
        if self.failed {
            return None;
        }
        match self.next_game() {
            Ok(Some(g)) => Some(Ok(g)),
            Ok(None) => None,
            Err(e) => {
                self.failed = true;
                Some(Err(e))
            }
        }
    }
}

/// Every game of an in-memory file.
pub fn read_games(bytes: &[u8]) -> Vec<Game> {
    Reader::new(bytes).filter_map(Result::ok).collect()
}

#[cfg(test)]
mod growth_tests {
    use super::*;

    #[test]
    fn the_buffer_doubles_while_small_then_grows_by_half() {
        assert_eq!(grown(64 * 1024), 128 * 1024);
        assert_eq!(grown(GROW_BY_HALF_FROM / 2), GROW_BY_HALF_FROM);
        assert_eq!(
            grown(GROW_BY_HALF_FROM),
            GROW_BY_HALF_FROM + GROW_BY_HALF_FROM / 2
        );
        assert_eq!(grown(usize::MAX), usize::MAX);
    }

    #[test]
    #[ignore = "reads a game of 32 MB (a minute or two in a test build)"]
    fn a_game_longer_than_the_point_of_growth_by_half_is_read_whole_in_a_buffer_near_its_size() {
        // One game of moves just over 2^25 bytes, read from a source that hands out 1 MB at
        // a time: read whole, into a buffer of at most one and a half times its text.
        let mut text = String::from("[GameType \"20\"]\n[FEN \"W:WK50:BK1\"]\n\n");
        let mut n = 1u32;
        while text.len() <= GROW_BY_HALF_FROM + 1000 {
            text.push_str(&format!("{n}. 50-45 1-6 {}. 45-50 6-1\n", n + 1));
            n += 2;
        }
        text.push_str("*\n");
        struct Pieces<'a>(&'a [u8]);
        impl io::Read for Pieces<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = out.len().min(self.0.len()).min(1 << 20);
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut reader = Reader::new(Pieces(text.as_bytes())).with_max_game_size(MAX_MAX_GAME_SIZE);
        let game = reader.next_game().unwrap().unwrap();
        assert!(game.errors.is_empty(), "{:?}", game.errors);
        assert!(game.source.len() + 8 >= text.len());
        assert!(reader.buf.capacity() <= text.len() + text.len() / 2);
        assert!(reader.next_game().unwrap().is_none());
    }
}
