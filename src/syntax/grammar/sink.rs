//! Where the grammar's elements go: the [`Sink`] trait, and the sink that builds an owned
//! [`Game`] (with the main line written into the reader's reused capacity).

use std::borrow::Cow;

use super::{End, Meta, NeedMore, parse_into};
use crate::syntax::game::{
    Comment, CommentKind, Game, Item, Line, MoveItem, MoveKind, MoveNumber, Nag, ResultToken,
    SetupCommand, Span, Square, Tag, Variation,
};
use crate::syntax::squares::Squares;
use crate::syntax::tagnames::decode_references;
use crate::syntax::visitor::RawTag;

/// Where the grammar puts what it reads, in file order. Byte slices are the bytes of the
/// slice being parsed (not decoded); spans are offsets into it. Variations are balanced:
/// every `open_variation` is closed, the last ones by the end of the game.
pub(crate) trait Sink {
    /// A tag pair: the name, the value as written between the quotes, the whole pair.
    fn tag(&mut self, name: &[u8], value: RawTag<'_>, span: Span);
    /// A move with the move number just before it and its strength.
    fn push_move(&mut self, m: MoveToken<'_>);
    /// The usual move, two numbered squares without a strength, with the move number just
    /// before it: the same as [`Sink::push_move`] with it (a sink may take it apart for speed).
    #[inline(always)]
    fn push_pair(
        &mut self,
        number: Option<MoveNumber>,
        squares: [u32; 2],
        kind: MoveKind,
        span: Span,
    ) {
        self.push_move(MoveToken {
            number,
            squares: Squares::pair(Square::Num(squares[0]), Square::Num(squares[1])),
            kind,
            strength: None,
            span,
        });
    }
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

/// A move as the grammar read it, for [`Sink::push_move`].
#[derive(Debug)]
pub(crate) struct MoveToken<'a> {
    /// The move number token just before the move, if any.
    pub number: Option<MoveNumber>,
    /// The squares in the order written.
    pub squares: Squares,
    /// How the squares are joined.
    pub kind: MoveKind,
    /// A move strength written with the move.
    pub strength: Option<&'a [u8]>,
    /// The move itself.
    pub span: Span,
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

pub(super) fn parse_with(
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
        // Every variation is closed: `line` is the main line. A long one is handed over as
        // it is (not copied: a huge game is not held twice), the others copied out of the
        // reused capacity.
        let items: Vec<Item> = if self.line.len() > 4096 {
            std::mem::take(&mut self.line)
        } else {
            self.line.split_off(0)
        };
        *scratch = self.line;
        Parsed {
            game: Game {
                tags: self.tags,
                body: Line { items },
                result: self.result,
                errors: meta.errors,
                notes: meta.notes,
                ..Game::default()
            },
            consumed: meta.consumed,
            source_end: meta.source_end,
            utf8_ok: self.utf8_ok,
            end: meta.end,
        }
    }
}

impl Sink for GameSink {
    fn tag(&mut self, name: &[u8], value: RawTag<'_>, span: Span) {
        let raw = self.string(name);
        let (name, written) = match value.standard_name() {
            Some(s) if s == raw => (raw, None),
            Some(s) => (s.to_owned(), Some(raw)),
            None => match decode_references(&raw) {
                Cow::Borrowed(_) => (raw, None),
                Cow::Owned(d) => (d, Some(raw)),
            },
        };
        let mut value = self.string(&value.decode());
        if let Cow::Owned(d) = decode_references(&value) {
            value = d;
        }
        self.tags.push(Tag {
            name,
            value,
            span,
            written,
        });
    }

    #[inline(always)]
    fn push_move(&mut self, m: MoveToken<'_>) {
        let strength = m.strength.map(|t| self.string(t).into_boxed_str());
        let items = &mut self.line;
        // Room first, so that the move is built straight into the vector.
        items.reserve(1);
        items.push(Item::Move(MoveItem {
            number: m.number,
            squares: m.squares,
            kind: m.kind,
            strength,
            span: m.span,
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
        let mut items = std::mem::replace(&mut self.line, parent);
        // A variation is complete: its vector at its size (a one-move variation would
        // otherwise keep room for four items; a game of many holds each).
        items.shrink_to_fit();
        self.line.push(Item::Variation(Variation {
            line: Line { items },
            span,
        }));
    }

    fn setup(&mut self, fen: &[u8], span: Span) {
        let fen = self.string(fen);
        self.line.push(Item::Setup(SetupCommand { fen, span }));
    }

    fn late_strength(&mut self, text: &[u8]) {
        let text = self.string(text);
        if let Some(Item::Move(m)) = self.line.last_mut() {
            m.strength = Some(text.into_boxed_str());
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
