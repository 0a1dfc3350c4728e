//! The syntactic game record: what the reader produces and the writer consumes (tags, the
//! move tree with comments, NAGs, variations and setups, syntax errors and tolerated
//! constructs), with byte spans into the game's own decoded text.

use std::fmt;

use super::squares::Squares;

/// A byte range `start..end` into [`Game::source`].
// Not aligned beyond its fields: a record's node holds one beside a move's 8 bytes, and
// `Node` is then 16 bytes, not 24.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(C)]
pub struct Span {
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// The span `start..end`.
    #[inline]
    pub const fn new(start: u32, end: u32) -> Span {
        Span { start, end }
    }

    /// The empty span at `at`.
    #[inline]
    pub const fn at(at: u32) -> Span {
        Span { start: at, end: at }
    }

    /// Length in bytes.
    #[inline]
    pub const fn len(self) -> u32 {
        self.end.saturating_sub(self.start)
    }

    /// True for an empty span.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.end <= self.start
    }
}

/// How the bytes of a game were decoded into [`Game::source`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Valid UTF-8 (a byte-order mark, if any, is stripped).
    Utf8,
    /// Not valid UTF-8: the bytes outside valid UTF-8 decoded as Windows-1252 (a superset of
    /// the printable Latin-1), each byte one character; the valid UTF-8 around them kept.
    Windows1252,
}

/// One game of a PDN file, as written (no legality is known here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// 1-based position of the game in its file.
    pub index: usize,
    /// Byte offset of the game's first byte in the file.
    pub offset: u64,
    /// 1-based line of the game's first byte in the file.
    pub line: u32,
    /// 1-based column (in characters) of the game's first byte in the file.
    pub column: u32,
    /// The game's text decoded to UTF-8; every [`Span`] indexes into it.
    pub source: String,
    /// How `source` was decoded.
    pub encoding: Encoding,
    /// The tag pairs, in file order, duplicates kept.
    pub tags: Vec<Tag>,
    /// The main line.
    pub body: Line,
    /// The result or `*` that ended the movetext, if any.
    pub result: Option<ResultToken>,
    /// Syntax errors (the game keeps what could be read around them).
    pub errors: Vec<SyntaxError>,
    /// Non-standard constructs that were read anyway (one entry per kind).
    pub notes: Vec<Tolerated>,
}

impl Default for Game {
    /// An empty game not yet placed in a file: index 0, at the file's first byte (line 1,
    /// column 1), UTF-8, with no tags, moves, result or findings.
    fn default() -> Self {
        Game {
            index: 0,
            offset: 0,
            line: 1,
            column: 1,
            source: String::new(),
            encoding: Encoding::Utf8,
            tags: Vec::new(),
            body: Line::default(),
            result: None,
            errors: Vec::new(),
            notes: Vec::new(),
        }
    }
}

impl Game {
    /// The absolute 1-based line in the file and 1-based column (in characters) of a byte
    /// offset into [`Game::source`]. CR LF, LF and a lone CR each end a line. An offset past
    /// the end is clamped; an offset inside a character counts as that character.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        super::lines::line_col(
            self.source.as_bytes(),
            self.line,
            self.column,
            offset as usize,
        )
    }

    /// The text of a span of this game (empty if the span is out of range or splits a
    /// character).
    pub fn text(&self, span: Span) -> &str {
        self.source
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// The value of the first tag with this name (its standard name: a tag written
    /// `Résultat` or `R&#x00e9;sultat` is found as `Result`).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    }

    /// True if the game has neither syntax errors nor tolerated constructs.
    pub fn is_strict(&self) -> bool {
        self.errors.is_empty() && self.notes.is_empty()
    }

    /// True if the reader read all of the game's text (no error of
    /// [`SyntaxErrorKind::loses_text`]).
    pub fn read_whole(&self) -> bool {
        !self.errors.iter().any(|e| e.kind.loses_text())
    }

    /// The note of a kind, if that construct was tolerated in this game.
    pub fn note(&self, kind: ToleratedKind) -> Option<&Tolerated> {
        self.notes.iter().find(|n| n.kind == kind)
    }
}

/// A tag pair `[Name "value"]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    /// The name: the standard name when the name as written is another form of one
    /// (localised, `Résultat`; encoded, `R&#x00e9;sultat`; another case, `RESULT`), else the
    /// name as written with its character references decoded.
    pub name: String,
    /// The value with `\"` and `\\` unescaped and character references decoded.
    pub value: String,
    /// The whole tag pair, brackets included.
    pub span: Span,
    /// The name as written, when it is not [`Tag::name`].
    pub written: Option<String>,
}

impl Tag {
    /// A tag whose name is written as it is.
    pub fn new(name: impl Into<String>, value: impl Into<String>, span: Span) -> Tag {
        Tag {
            name: name.into(),
            value: value.into(),
            span,
            written: None,
        }
    }

    /// The name as written in the file.
    pub fn written_name(&self) -> &str {
        self.written.as_deref().unwrap_or(&self.name)
    }
}

/// The token that ended the movetext: a result (`2-0`, `1/2-1/2`, `4-6`, `½-½`, …) or `*`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultToken {
    /// As written.
    pub text: String,
    /// Where.
    pub span: Span,
}

impl ResultToken {
    /// True for the `*` separator (unknown or unfinished result).
    pub fn is_asterisk(&self) -> bool {
        self.text == "*"
    }
}

/// A line of play: the main line or the inside of a variation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The elements in order.
    pub items: Vec<Item>,
}

impl Line {
    /// The moves of this line (not of its variations).
    pub fn moves(&self) -> impl Iterator<Item = &MoveItem> {
        self.items.iter().filter_map(|i| match i {
            Item::Move(m) => Some(m),
            _ => None,
        })
    }
}

/// One element of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A move, with its move number and strength.
    Move(MoveItem),
    /// A `{…}`, `%…` or `;…` comment.
    Comment(Comment),
    /// A numeric annotation glyph `$n`.
    Nag(Nag),
    /// `( … )`: an alternative to the last move before it, or (book style, `1. 32-28
    /// (19-23)`) the reply to it; the replay decides.
    Variation(Variation),
    /// `/FEN "…"/`: a new position.
    Setup(SetupCommand),
}

/// A move as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveItem {
    /// The move number token just before the move, if any.
    pub number: Option<MoveNumber>,
    /// The squares in the order written (empty for [`MoveKind::Unknown`]).
    pub squares: Squares,
    /// How the squares are joined.
    pub kind: MoveKind,
    /// A move strength (`!`, `?!`, `(?)`, `!?!!!`, FMJD `*`) as written (boxed: a move is
    /// 80 bytes, not 88, and a huge game's tree holds one per move).
    pub strength: Option<Box<str>>,
    /// The move itself (without number and strength).
    pub span: Span,
}

/// A move number token: `12.`, `12...` or `12. ...`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNumber {
    /// The number (leading zeros dropped).
    pub number: u32,
    /// True for `12...` / `12. ...`: the move of the second player.
    pub second_player: bool,
    /// The token as written.
    pub span: Span,
}

/// A square name as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Square {
    /// A numeric square (leading zeros dropped); for an undivided numeric move that could
    /// not be split, all its digits.
    Num(u32),
    /// An algebraic square, 0-based: `a1` = (0, 0). Files `a`–`z`, ranks 1–26.
    Alg {
        /// 0 = `a`.
        file: u8,
        /// 0 = rank 1.
        rank: u8,
    },
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Square::Num(n) => write!(f, "{n}"),
            Square::Alg { file, rank } => {
                write!(
                    f,
                    "{}{}",
                    char::from(b'a' + file.min(25)),
                    u32::from(rank) + 1
                )
            }
        }
    }
}

/// How the squares of a move are joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// `32-28`, also several squares with hyphens (`2-11-18`).
    Normal,
    /// A capture with the separator as written: `x`, `X`, `:` or `×` (the first one if
    /// several kinds were mixed).
    Capture(char),
    /// No separator: `a3b4` (every square kept) or numeric `3228`. A numeric run of four
    /// digits is split 2 + 2 when neither half is `00` (`0932` = 9, 32); any other run of at
    /// least three significant digits (`932`, `1200`) cannot be split unambiguously and is
    /// kept as ONE [`Square::Num`] holding all its digits. Shorter runs are no move.
    Undivided,
    /// A placeholder for an unknown move: `-` in `41. - -`, or `...` standing alone.
    Unknown,
}

/// A comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The text without its delimiters, as written (spaces and line breaks kept).
    pub text: String,
    /// Which delimiters it had.
    pub kind: CommentKind,
    /// The comment with its delimiters.
    pub span: Span,
}

/// The delimiters of a comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `{ … }`.
    Brace,
    /// `%` or `;` to the end of the line.
    Line,
}

/// A numeric annotation glyph `$n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Nag {
    /// `n`.
    pub value: u16,
    /// Where.
    pub span: Span,
}

/// A parenthesised line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// The inside.
    pub line: Line,
    /// From `(` to `)` (to the end of the game if unterminated).
    pub span: Span,
}

/// A setup command `/FEN "…"/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupCommand {
    /// The text between the quotes, or the whole trimmed inner text if unquoted.
    pub fen: String,
    /// From `/` to `/`.
    pub span: Span,
}

/// Malformed PDN: what was found and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// What kind of error.
    pub kind: SyntaxErrorKind,
    /// Where.
    pub span: Span,
    /// E.g. "unterminated comment: expected `}`".
    pub message: String,
}

/// The kinds of [`SyntaxError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum SyntaxErrorKind {
    /// A token that is no PDN (unbraced text, a lone number, binary data).
    UnexpectedToken,
    /// A move strength (`!`, `?`) that follows no move.
    StrengthWithoutMove,
    /// A number too long to be a square or a move number.
    NumberTooLong,
    /// Square 0.
    SquareZero,
    /// `{` without its `}`.
    UnterminatedComment,
    /// `{ a { b } }`: comments do not nest.
    NestedComment,
    /// `(` without its `)`.
    UnterminatedVariation,
    /// `)` with no variation open.
    UnmatchedParenthesis,
    /// Variations nested deeper than [`MAX_VARIATION_DEPTH`](super::MAX_VARIATION_DEPTH).
    TooDeep,
    /// A NAG without a number, or out of range.
    BadNag,
    /// A setup `/FEN "…"/` without its closing quote or slash.
    UnterminatedSetup,
    /// A tag pair without a name.
    TagWithoutName,
    /// A tag value without its closing quote.
    UnterminatedTagValue,
    /// Text after the end of the last game that could not be read.
    TrailingText,
    /// A game larger than the reader's maximum: cut.
    GameTooLong,
    /// More comments and NAGs in a row than
    /// [`MAX_ANNOTATIONS_IN_A_ROW`](super::MAX_ANNOTATIONS_IN_A_ROW): the rest skipped.
    TooManyAnnotations,
    /// More errors in the game than were listed.
    MoreErrors,
}

impl SyntaxErrorKind {
    /// True if the reader left part of the game's text out (a game over the maximum size, a
    /// run of annotations over the cap): a file holding such a game is not read whole, and
    /// writing its games back would lose that text. Such an error is never left out of
    /// [`Game::errors`].
    pub fn loses_text(self) -> bool {
        matches!(self, Self::GameTooLong | Self::TooManyAnnotations)
    }

    /// A short name (kebab case), as JSON output writes it.
    pub fn as_str(self) -> &'static str {
        use SyntaxErrorKind::*;
        match self {
            UnexpectedToken => "unexpected-token",
            StrengthWithoutMove => "strength-without-move",
            NumberTooLong => "number-too-long",
            SquareZero => "square-zero",
            UnterminatedComment => "unterminated-comment",
            NestedComment => "nested-comment",
            UnterminatedVariation => "unterminated-variation",
            UnmatchedParenthesis => "unmatched-parenthesis",
            TooDeep => "too-deep",
            BadNag => "bad-nag",
            UnterminatedSetup => "unterminated-setup",
            TagWithoutName => "tag-without-name",
            UnterminatedTagValue => "unterminated-tag-value",
            TrailingText => "trailing-text",
            GameTooLong => "game-too-long",
            TooManyAnnotations => "too-many-annotations",
            MoreErrors => "more-errors",
        }
    }
}

/// A non-standard construct that was read anyway.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tolerated {
    /// What.
    pub kind: ToleratedKind,
    /// The first occurrence in the game.
    pub span: Span,
    /// How many times it occurred in the game.
    pub count: u32,
}

impl Tolerated {
    /// A sentence describing the construct.
    pub fn description(&self) -> &'static str {
        self.kind.description()
    }
}

/// The kinds of non-standard constructs the reader tolerates (docs/pdn.md#movetext).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ToleratedKind {
    /// A UTF-8 byte-order mark at the start of the file.
    Bom,
    /// The game is not valid UTF-8 and holds no UTF-8 outside ASCII: a legacy 8-bit text,
    /// decoded as Windows-1252.
    Windows1252,
    /// Bytes that are not UTF-8 in a game that is otherwise UTF-8: each read as one
    /// Windows-1252 character, the UTF-8 around them kept (one note, counting the runs).
    InvalidUtf8,
    /// A tag name that does not start with a capital letter or has other characters than
    /// letters, digits and `_`.
    OddTagName,
    /// A tag value running over several lines.
    MultilineTagValue,
    /// Leading zeros in a move number or square (`01.`, `09-13`).
    LeadingZeros,
    /// A capture written with `:`, `X` or `×` instead of `x`.
    CaptureSeparator,
    /// A move with both `-` and a capture separator.
    MixedSeparators,
    /// A move with more than two squares joined by hyphens (`2-11-18`).
    HyphenatedLongMove,
    /// Spaces inside a move (`35 x 19`, `4- 9`).
    SpacesInMove,
    /// A numeric move without separator (`3228`).
    UndividedNumericMove,
    /// A move strength separated from its move by a space (`32-28 !`).
    SpaceBeforeStrength,
    /// FMJD's `*` (only move) right after a move, followed by more moves.
    StarStrength,
    /// `-` or `...` standing for an unknown move (`41. - -`).
    UnknownMove,
    /// A move number with no move after it (`1. 2-0`, `77. ... *`); it was dropped.
    MoveNumberWithoutMove,
    /// A `.` standing alone (`8-3 . 1-0`); it was skipped.
    StrayDot,
    /// A `;` rest-of-line comment (PGN style).
    SemicolonComment,
    /// A result used as the game separator instead of `*` (PDN 3.0 forbids it when writing).
    ResultAsSeparator,
    /// A result outside the PDN list (`4-6`, `½-½`, `0.5-0.5`, `1 - 1`).
    NonStandardResult,
    /// A terminator written twice (`2-0 *`, `0-0` on the next line): read as one.
    DoubleTerminator,
    /// A tag section right after movetext without a separator: a new game was started.
    GamesNotSeparated,
    /// A result glued to the next game's first move number (`0-201.32-28` = `0-2 01.32-28`).
    GluedResult,
    /// A result inside a variation; it was kept as a comment.
    ResultInVariation,
    /// Comments after the last game of the file, kept as a game of their own.
    CommentsAfterLastGame,
    /// Text after the closing `]` of a tag pair on its line (`\\r` written as text, a stray
    /// `;`, a word): ignored.
    JunkAfterTag,
    /// A tag pair without a value (`[Name]`): read as an empty value.
    TagWithoutValue,
    /// A tag value without quotes (`[Round 5]`).
    UnquotedTagValue,
    /// A lone `[` or `]` (or `[]`) outside a tag pair: skipped.
    StrayBracket,
    /// A tag pair that lost its `[` or its `]` (`Event "Open"]` at the start of a line).
    DamagedTag,
    /// A tag name in another language or spelling (`Résultat`, `Type de jeu`, `RESULT`),
    /// read as the standard name.
    LocalisedTagName,
    /// HTML/XML character references in a tag (`R&#x00e9;sultat`): decoded.
    CharacterReference,
    /// Text outside the movetext (a title, a sentence, a page number) before a game or in
    /// its tag section: kept as a comment of the game.
    ProseOutsideMovetext,
    /// Text in double quotes inside the movetext: kept as a comment, not read as moves.
    QuotedTextInMovetext,
    /// A result with nothing before it (no tag, comment or move): no game, skipped.
    StrayTerminator,
    /// `\r`, `\n` or `\t` written as two characters where white space stands (a broken
    /// exporter's line ends): read as white space.
    LiteralEscape,
    /// A tag pair with a doubled bracket (`[[Event "Open"]`, `[Event "Open"]]`): read as
    /// one.
    DoubledBracket,
    /// A tag section interrupted by a blank line before the game's first move, its next
    /// tags naming none of the tags before: read as one tag section, one game.
    ResumedTagSection,
}

impl ToleratedKind {
    /// A sentence describing the construct.
    pub fn description(self) -> &'static str {
        use ToleratedKind::*;
        match self {
            Bom => "UTF-8 byte-order mark (skipped)",
            Windows1252 => "not valid UTF-8: decoded as Windows-1252",
            InvalidUtf8 => {
                "bytes that are not UTF-8 among UTF-8 text: each read as one Windows-1252 \
                 character, the rest kept as UTF-8"
            }
            OddTagName => "tag name that is not a PDN identifier (capital letter first)",
            MultilineTagValue => "tag value running over several lines",
            LeadingZeros => "leading zeros in a move number or square",
            CaptureSeparator => "capture written with `:`, `X` or `×` instead of `x`",
            MixedSeparators => "move mixing `-` and a capture separator",
            HyphenatedLongMove => "move with more than two squares joined by `-`",
            SpacesInMove => "spaces inside a move or result",
            UndividedNumericMove => "numeric move without separator",
            SpaceBeforeStrength => "move strength separated from its move by a space",
            StarStrength => {
                "`*` after a move read as a move strength (forced move), not as a separator"
            }
            UnknownMove => "`-` or `...` standing for an unknown move",
            MoveNumberWithoutMove => "move number without a move (dropped)",
            StrayDot => "stray `.` (skipped)",
            SemicolonComment => "`;` rest-of-line comment",
            ResultAsSeparator => "result used as game separator instead of `*`",
            NonStandardResult => "result outside the PDN list",
            DoubleTerminator => "a terminator written twice (read as one)",
            GamesNotSeparated => "game not ended by a result or `*` before the next tag section",
            GluedResult => "result glued to the next game's move number without white space",
            ResultInVariation => "result inside a variation (kept as a comment)",
            CommentsAfterLastGame => "comments after the last game (kept as a game of their own)",
            JunkAfterTag => "text after the `]` of a tag pair (ignored)",
            TagWithoutValue => "tag pair without a value (read as empty)",
            UnquotedTagValue => "tag value without quotes",
            StrayBracket => "lone `[` or `]` outside a tag pair (skipped)",
            DamagedTag => "tag pair that lost its `[` or `]` (read as a tag)",
            LocalisedTagName => {
                "tag name in another language or spelling (read as the standard one)"
            }
            CharacterReference => "character references in a tag (decoded)",
            ProseOutsideMovetext => "text outside the movetext (kept as a comment)",
            QuotedTextInMovetext => "quoted text inside the movetext (kept as a comment)",
            StrayTerminator => "a result without a game before it (skipped)",
            LiteralEscape => {
                "`\\r`, `\\n` or `\\t` written as text where white space stands (read as white space)"
            }
            DoubledBracket => "doubled bracket around a tag pair (read as one)",
            ResumedTagSection => {
                "tag section interrupted by a blank line before the first move (read as one)"
            }
        }
    }
}

impl fmt::Display for ToleratedKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}
