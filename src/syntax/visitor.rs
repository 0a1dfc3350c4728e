//! The push-model reading API: a [`Visitor`] receives the elements of each game as the
//! grammar finds them (tags, moves, comments, NAGs, variations, setups, the result), as
//! borrowed bytes, with nothing allocated per element; [`Reader::read_game`] drives it.
//!
//! This is the way to read an archive without building [`Game`]s: counting, filtering on
//! tags, collecting moves into one's own structures. The elements, errors and notes are
//! exactly those of [`Reader::next_game`] (one grammar serves both).
//!
//! Call order for each game: [`Visitor::begin_game`]; the elements in file order: the tag
//! pairs ([`Visitor::tag`]; comments may come before and among them), then the movetext
//! ([`Visitor::game_move`], [`Visitor::comment`], [`Visitor::nag`], [`Visitor::setup`],
//! [`Visitor::late_strength`], and [`Visitor::begin_variation`] …
//! [`Visitor::end_variation`], balanced); [`Visitor::result`] if a result or `*` ended the
//! game; [`Visitor::end_game`]. (A [`Game`] keeps such comments in its body.)
//!
//! [`Reader::read_game`]: super::Reader::read_game
//! [`Reader::next_game`]: super::Reader::next_game
//! [`Game`]: super::Game

use std::borrow::Cow;
use std::cell::Cell;

use encoding_rs::WINDOWS_1252;

use super::game::{CommentKind, MoveKind, MoveNumber, Nag, Span, Square, SyntaxError, Tolerated};
use super::game::{Game, MoveItem};
use super::grammar::{End, MoveToken, Sink, unescape};
use super::lines::LinePos;
use super::tagnames::decode_references;

/// Receives the elements of games read by [`Reader::read_game`](super::Reader::read_game).
/// Every method but [`Visitor::end_game`] does nothing by default.
///
/// Byte slices are the bytes of the file (a game that is not UTF-8 is not decoded: see
/// [`decode_text`]); spans are offsets into [`GameEnd::text`].
pub trait Visitor {
    /// What [`Visitor::end_game`] makes of a game.
    type Output;

    /// A game starts.
    fn begin_game(&mut self) {}

    /// A tag pair: its name and its value as written; `span` is the whole pair.
    fn tag(&mut self, name: &[u8], value: RawTag<'_>, span: Span) {
        let _ = (name, value, span);
    }

    /// A move, with the move number just before it and its strength.
    fn game_move(&mut self, m: &MoveRef<'_>) {
        let _ = m;
    }

    /// The usual move — two numbered squares, `[from, to]`, without a strength — with the move
    /// number just before it: by default [`Visitor::game_move`] with that move, which is what
    /// a visitor must make of it if it takes it apart (for speed: nearly every move is one).
    #[inline(always)]
    fn game_pair(
        &mut self,
        number: Option<MoveNumber>,
        squares: [u32; 2],
        kind: MoveKind,
        span: Span,
    ) {
        self.game_move(&MoveRef {
            number,
            squares: &[Square::Num(squares[0]), Square::Num(squares[1])],
            kind,
            strength: None,
            span,
        });
    }

    /// A `{…}`, `%…` or `;…` comment: its text without delimiters.
    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span) {
        let _ = (text, kind, span);
    }

    /// A numeric annotation glyph.
    fn nag(&mut self, nag: Nag) {
        let _ = nag;
    }

    /// `(`: a variation (or, book style, the reply to the last move) starts. Return
    /// [`Skip(true)`](Skip) to receive nothing of it, up to and including its end.
    fn begin_variation(&mut self) -> Skip {
        Skip(false)
    }

    /// The variation opened last ends (also when the game ended before its `)`); `span`
    /// is the whole of it, from `(`.
    fn end_variation(&mut self, span: Span) {
        let _ = span;
    }

    /// A setup `/FEN "…"/`: the FEN text.
    fn setup(&mut self, fen: &[u8], span: Span) {
        let _ = (fen, span);
    }

    /// A strength written apart from its move (`32-28 !`); it belongs to the move received
    /// last in the current line.
    fn late_strength(&mut self, text: &[u8]) {
        let _ = text;
    }

    /// The result or `*` that ended the game, as written.
    fn result(&mut self, text: &[u8], span: Span) {
        let _ = (text, span);
    }

    /// The game ends.
    fn end_game(&mut self, game: &GameEnd<'_>) -> Self::Output;
}

/// Whether to skip a variation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skip(pub bool);

/// A move as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRef<'a> {
    /// The move number token just before the move, if any.
    pub number: Option<MoveNumber>,
    /// The squares in the order written (empty for [`MoveKind::Unknown`]).
    pub squares: &'a [Square],
    /// How the squares are joined.
    pub kind: MoveKind,
    /// A move strength written with the move (`!`, `?!`, `(?)`, FMJD `*`).
    pub strength: Option<&'a [u8]>,
    /// The move itself.
    pub span: Span,
}

impl MoveItem {
    /// The move as a [`MoveRef`] (what the replay reads).
    pub fn to_ref(&self) -> MoveRef<'_> {
        MoveRef {
            number: self.number,
            squares: &self.squares,
            kind: self.kind,
            strength: self.strength.as_deref().map(str::as_bytes),
            span: self.span,
        }
    }
}

/// A tag value as written between the quotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawTag<'a> {
    bytes: &'a [u8],
    escaped: bool,
    standard: Option<&'static str>,
    /// The value holds an `&` (it may hold a character reference).
    amp: bool,
}

impl<'a> RawTag<'a> {
    /// The value `bytes` as written, `escaped` if it holds a backslash escape, `standard` the
    /// standard name of its tag.
    /// `amp`: the bytes hold an `&`.
    pub(crate) fn new(
        bytes: &'a [u8],
        escaped: bool,
        standard: Option<&'static str>,
        amp: bool,
    ) -> Self {
        RawTag {
            bytes,
            escaped,
            standard,
            amp,
        }
    }

    /// The bytes as written when they hold neither a backslash escape nor an `&`: what
    /// [`RawTag::text`] gives, read as text.
    pub(crate) fn plain(&self) -> Option<&'a [u8]> {
        (!self.escaped && !self.amp).then_some(self.bytes)
    }

    /// The bytes as written (`\"` and `\\` not unescaped).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The value with `\"` and `\\` unescaped (allocates only if there is a backslash).
    pub fn decode(&self) -> Cow<'a, [u8]> {
        if self.escaped {
            Cow::Owned(unescape(self.bytes))
        } else {
            Cow::Borrowed(self.bytes)
        }
    }

    /// [`RawTag::decode`] as text (see [`decode_text`]).
    pub fn decode_utf8_lossy(&self) -> Cow<'a, str> {
        match self.decode() {
            Cow::Borrowed(b) => decode_text(b),
            Cow::Owned(v) => Cow::Owned(decode_text(&v).into_owned()),
        }
    }

    /// The value as [`Tag::value`](super::Tag::value) holds it: [`RawTag::decode_utf8_lossy`]
    /// with character references (`&#x00e9;`, `&eacute;`) decoded.
    pub fn text(&self) -> Cow<'a, str> {
        // (Unescaping makes no `&`: without one in the bytes there is no reference.)
        if !self.amp {
            return self.decode_utf8_lossy();
        }
        match self.decode_utf8_lossy() {
            Cow::Borrowed(t) => decode_references(t),
            Cow::Owned(t) => Cow::Owned(decode_references(&t).into_owned()),
        }
    }

    /// The standard name of this tag when its name as written is one or another form of one
    /// (`Résultat`, `R&#x00e9;sultat`, `RESULT` give `Result`), as [`Tag::name`] holds it.
    ///
    /// [`Tag::name`]: super::Tag::name
    pub fn standard_name(&self) -> Option<&'static str> {
        self.standard
    }
}

/// Text of a game as [`Reader::next_game`](super::Reader::next_game) decodes it: UTF-8 if
/// it is valid UTF-8, else Windows-1252.
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(t) => Cow::Borrowed(t),
        Err(_) => WINDOWS_1252.decode_without_bom_handling(bytes).0,
    }
}

/// What is known of a game at its end.
#[derive(Clone, Copy)]
pub struct GameEnd<'a> {
    /// 1-based position of the game in its file.
    pub index: usize,
    /// Byte offset of the game's first byte in the file.
    pub offset: u64,
    /// The game's bytes (trailing white space trimmed); spans index into them.
    pub text: &'a [u8],
    /// Syntax errors.
    pub errors: &'a [SyntaxError],
    /// Non-standard constructs that were read anyway.
    pub notes: &'a [Tolerated],
    /// The reader's line count and the buffered bytes before the game, for [`GameEnd::line`].
    pub(crate) lines: &'a Cell<LinePos>,
    pub(crate) before: &'a [u8],
    /// How the game ended (for [`GameEnd::to_game`]).
    pub(crate) ended: End,
}

impl GameEnd<'_> {
    /// 1-based line and column (in characters) of the game's first byte. Counted when
    /// asked (the lines since the last count), so a visitor that never asks pays nothing.
    pub fn line_col(&self) -> (u32, u32) {
        LinePos::resolve(self.lines, self.before)
    }

    /// 1-based line of the game's first byte (see [`GameEnd::line_col`]).
    pub fn line(&self) -> u32 {
        self.line_col().0
    }

    /// 1-based column (in characters) of the game's first byte.
    pub fn column(&self) -> u32 {
        self.line_col().1
    }

    /// The game read again into the owned [`Game`] that [`Reader::next_game`] gives for it
    /// (its text decoded as Windows-1252 if it is not UTF-8, spans into the decoded text):
    /// for a visitor that needs the whole record of a game only now and then.
    ///
    /// [`Reader::next_game`]: super::Reader::next_game
    pub fn to_game(&self) -> Game {
        super::reader::game_of(self)
    }
}

impl std::fmt::Debug for GameEnd<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (line, column) = self.line_col();
        f.debug_struct("GameEnd")
            .field("index", &self.index)
            .field("offset", &self.offset)
            .field("line", &line)
            .field("column", &column)
            .field("text", &String::from_utf8_lossy(self.text))
            .field("errors", &self.errors)
            .field("notes", &self.notes)
            .finish()
    }
}

/// What the reader drives through each game ([`Reader::read_driven`]): the grammar's
/// [`Sink`], begun, begun again when the game must be parsed again from its start (its end
/// was past the buffer: the grammar then gives every element again, in the same order), and
/// ended. [`VisitorSink`] drives a [`Visitor`]; a sink of the crate's own may take the
/// elements straight from the grammar (the record's filler does: no element counted, no
/// call through a visitor).
///
/// [`Reader::read_driven`]: super::Reader::read_driven
pub(crate) trait Driven: Sink {
    /// What [`Driven::end_game`] makes of a game.
    type Output;
    /// A game starts.
    fn begin_game(&mut self);
    /// The game will be parsed again from its start: the elements come again from the first.
    fn restart(&mut self);
    /// The game ends.
    fn end_game(&mut self, game: &GameEnd<'_>) -> Self::Output;
}

/// The [`Sink`] that hands the elements to a visitor. When the reader must parse a game
/// again from its start (its end was past the buffer), the elements already delivered are
/// not delivered again: the grammar gives them again in the same order.
pub(crate) struct VisitorSink<'v, V> {
    pub(crate) visitor: &'v mut V,
    /// Elements delivered by earlier parses of the game that this parse has still to pass.
    again: usize,
    /// Elements delivered, by this parse and the earlier ones.
    delivered: usize,
    /// Depth inside a skipped variation (0: not skipping).
    skipping: u32,
}

impl<'v, V: Visitor> VisitorSink<'v, V> {
    pub(crate) fn new(visitor: &'v mut V) -> Self {
        VisitorSink {
            visitor,
            again: 0,
            delivered: 0,
            skipping: 0,
        }
    }

    /// Count an element; true if it is new (not delivered by an earlier parse).
    #[inline(always)]
    fn fresh(&mut self) -> bool {
        if self.again > 0 {
            self.again -= 1;
            return false;
        }
        self.delivered += 1;
        true
    }

    /// Count an element; true if it goes to the visitor.
    #[inline(always)]
    fn deliver(&mut self) -> bool {
        self.fresh() && self.skipping == 0
    }
}

impl<V: Visitor> Driven for VisitorSink<'_, V> {
    type Output = V::Output;

    fn begin_game(&mut self) {
        (self.again, self.delivered, self.skipping) = (0, 0, 0);
        self.visitor.begin_game();
    }

    /// The elements delivered by the parses before are passed over, not delivered again.
    fn restart(&mut self) {
        self.again = self.delivered;
    }

    fn end_game(&mut self, game: &GameEnd<'_>) -> V::Output {
        self.visitor.end_game(game)
    }
}

impl<V: Visitor> Sink for VisitorSink<'_, V> {
    fn tag(&mut self, name: &[u8], value: RawTag<'_>, span: Span) {
        if self.deliver() {
            self.visitor.tag(name, value, span);
        }
    }

    #[inline(always)]
    fn push_move(&mut self, m: MoveToken<'_>) {
        if self.deliver() {
            self.visitor.game_move(&MoveRef {
                number: m.number,
                squares: &m.squares,
                kind: m.kind,
                strength: m.strength,
                span: m.span,
            });
        }
    }

    #[inline(always)]
    fn push_pair(
        &mut self,
        number: Option<MoveNumber>,
        squares: [u32; 2],
        kind: MoveKind,
        span: Span,
    ) {
        if self.deliver() {
            self.visitor.game_pair(number, squares, kind, span);
        }
    }

    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span) {
        if self.deliver() {
            self.visitor.comment(text, kind, span);
        }
    }

    fn nag(&mut self, nag: Nag) {
        if self.deliver() {
            self.visitor.nag(nag);
        }
    }

    fn open_variation(&mut self) {
        if !self.fresh() {
            // Delivered before: `skipping` already holds what followed it.
            return;
        }
        if self.skipping > 0 {
            self.skipping += 1;
        } else if self.visitor.begin_variation().0 {
            self.skipping = 1;
        }
    }

    fn close_variation(&mut self, span: Span) {
        if !self.fresh() {
            return;
        }
        if self.skipping > 0 {
            self.skipping -= 1;
        } else {
            self.visitor.end_variation(span);
        }
    }

    fn setup(&mut self, fen: &[u8], span: Span) {
        if self.deliver() {
            self.visitor.setup(fen, span);
        }
    }

    fn late_strength(&mut self, text: &[u8]) {
        if self.deliver() {
            self.visitor.late_strength(text);
        }
    }

    fn result(&mut self, text: &[u8], span: Span) {
        if self.deliver() {
            self.visitor.result(text, span);
        }
    }
}
