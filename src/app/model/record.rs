//! [`Record`]: what validating a game needs of it — tags, the move tree as one flat array of
//! nodes, the terminator, syntax errors and notes — owned compactly and reused from game to
//! game, filled either from a [`Game`] or straight from the reader's [`Visitor`] (no owned
//! `Game`, no allocation per element once the buffers have grown). The replay, the variant
//! choice and the checks of `validate` read a game only through it.

use crate::syntax::{
    CommentKind, Game, GameEnd, Item, Line, MoveKind, MoveNumber, MoveRef, Nag, RawTag, Skip, Span,
    Square, SyntaxError, Tolerated, Visitor, decode_references,
};

/// Text kept in the record's arena: a byte range of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Text {
    start: u32,
    end: u32,
}

impl Text {
    fn len(&self) -> usize {
        self.end.saturating_sub(self.start) as usize
    }
}

/// A move of a record: where it is and how its squares are joined; its number, squares and
/// strength are read through the record ([`Record::move_ref`] gives them all together).
/// Compact (16 bytes, a node as large): a game of a million moves holds a million of them.
/// The node holds the usual move whole: its squares as an index into the record's pairs of
/// squares (a game plays few distinct pairs), its move number token inline (the number, and
/// where the token is as its length and its distance from the move). What few moves have — more than two
/// squares, a strength, a number token that does not fit, a capture separator of no usual
/// kind — is kept beside the nodes, in the move's extra, whose index then takes the number's
/// place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNode {
    /// The move itself (without number and strength).
    pub span: Span,
    /// The move number (low 22 bits; a number written larger is kept in the extra), its
    /// token's length (next 5) and how far it ends before the move (top 5), if `bits` says it
    /// has one and no extra; else the extra's index.
    aux: u32,
    /// Its squares (at most two, or `bits` says they are in the extra): an index into the
    /// record's pairs.
    pair: u16,
    /// How the squares are joined (also what gives [`Node`] its size: its spare values hold
    /// the node's variant).
    code: KindCode,
    /// The number of squares (0, 1, 2, or [`LONG`]: in the extra) and the flags
    /// [`NUMBERED`], [`SECOND`], [`EXTRA`].
    bits: u8,
}

/// A usual move read from its node ([`Record::numbered_pair`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumberedPair {
    /// The first square's number, as written.
    pub from: u32,
    /// The second square's number, as written.
    pub to: u32,
    /// Written with a capture separator (`x`, `X`, `:`, `×`), not `-`.
    pub capture: bool,
    /// The move number token's number and whether it is the second player's (`12...`).
    pub number: Option<(u32, bool)>,
}

/// `MoveNode::bits`: the number of squares (its low two bits), [`LONG`] for squares kept in
/// the extra.
const COUNT: u8 = 0b11;
const LONG: u8 = 0b11;
/// `MoveNode::aux`: the bits of an inline move number, the largest, and where the gap is.
const NUMBER_BITS: u32 = 22;
const NUMBER_MAX: u32 = (1 << NUMBER_BITS) - 1;
const NUMBER_GAP: u32 = NUMBER_BITS + 5;
/// `MoveNode::bits`: the move has a move number token.
const NUMBERED: u8 = 1 << 2;
/// `MoveNode::bits`: its number token is the second player's (`12...`).
const SECOND: u8 = 1 << 3;
/// `MoveNode::bits`: the move has an extra (its index in `aux`).
const EXTRA: u8 = 1 << 4;

/// How the squares of a move are joined, in a byte ([`MoveKind`] with the usual capture
/// separators told apart; any other kind is in the move's extra).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum KindCode {
    Normal,
    CaptureX,
    CaptureUpperX,
    CaptureColon,
    CaptureTimes,
    Undivided,
    Unknown,
    /// In the extra.
    Other,
}

impl KindCode {
    #[inline]
    fn of(kind: MoveKind) -> KindCode {
        match kind {
            MoveKind::Normal => KindCode::Normal,
            MoveKind::Capture('x') => KindCode::CaptureX,
            MoveKind::Capture('X') => KindCode::CaptureUpperX,
            MoveKind::Capture(':') => KindCode::CaptureColon,
            MoveKind::Capture('×') => KindCode::CaptureTimes,
            MoveKind::Undivided => KindCode::Undivided,
            MoveKind::Unknown => KindCode::Unknown,
            MoveKind::Capture(_) => KindCode::Other,
        }
    }

    /// The kind ([`KindCode::Other`]: none, it is in the extra).
    #[inline]
    fn kind(self) -> Option<MoveKind> {
        KINDS[self as usize]
    }

    /// [`KindCode::kind`], by a match.
    const fn kind_of(self) -> Option<MoveKind> {
        Some(match self {
            KindCode::Normal => MoveKind::Normal,
            KindCode::CaptureX => MoveKind::Capture('x'),
            KindCode::CaptureUpperX => MoveKind::Capture('X'),
            KindCode::CaptureColon => MoveKind::Capture(':'),
            KindCode::CaptureTimes => MoveKind::Capture('×'),
            KindCode::Undivided => MoveKind::Undivided,
            KindCode::Unknown => MoveKind::Unknown,
            KindCode::Other => return None,
        })
    }
}

/// [`KindCode::kind`] of each code, in order.
const KINDS: [Option<MoveKind>; 8] = [
    KindCode::Normal.kind_of(),
    KindCode::CaptureX.kind_of(),
    KindCode::CaptureUpperX.kind_of(),
    KindCode::CaptureColon.kind_of(),
    KindCode::CaptureTimes.kind_of(),
    KindCode::Undivided.kind_of(),
    KindCode::Unknown.kind_of(),
    KindCode::Other.kind_of(),
];

impl MoveNode {
    /// How the squares are joined.
    #[inline]
    pub fn kind(&self) -> MoveKind {
        // (A kind of no usual code is in the extra: a capture, whatever its separator.)
        self.code.kind().unwrap_or(MoveKind::Capture('x'))
    }

    /// The move number token, when it is held inline.
    #[inline]
    fn inline_number(&self) -> Option<MoveNumber> {
        if self.bits & (NUMBERED | EXTRA) != NUMBERED {
            return None;
        }
        let end = self.span.start - (self.aux >> NUMBER_GAP);
        Some(MoveNumber {
            number: self.aux & NUMBER_MAX,
            second_player: self.bits & SECOND != 0,
            span: Span::new(end - (self.aux >> NUMBER_BITS & 0x1f), end),
        })
    }

    /// The move number token inline (`aux`), if it fits: the number (22 bits), the token's
    /// length (5 bits) and the gap from its end to the move (5 bits).
    #[inline]
    fn pack_number(n: &MoveNumber, start: u32) -> Option<u32> {
        let gap = start.checked_sub(n.span.end)?;
        let len = n.span.end.checked_sub(n.span.start)?;
        (n.number <= NUMBER_MAX && gap <= 0x1f && len <= 0x1f)
            .then_some(n.number | len << NUMBER_BITS | gap << NUMBER_GAP)
    }
}

/// What few moves have (see [`MoveNode`]): more than two squares, or squares the pairs do
/// not hold (a range of the record's squares), a strength (a range of the record's arena),
/// the number token when the node does not hold it, the kind when its code does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Extra {
    long: Text,
    strength: Text,
    number: Option<MoveNumber>,
    kind: MoveKind,
}

/// Every pair of two small squares (numbers below 64, or algebraic squares of the first eight
/// files and ranks), at its code ([`small_pair`]): the pairs of nearly every move, which a
/// node then names without the record holding them.
static SMALL_PAIRS: [[Square; 2]; SMALL] = small_pairs();

/// Codes of [`SMALL_PAIRS`]: two 6-bit square codes, numbered or algebraic.
const SMALL: usize = 2 << 12;

/// [`SMALL_PAIRS`].
const fn small_pairs() -> [[Square; 2]; SMALL] {
    let mut t = [[Square::Num(0); 2]; SMALL];
    let mut i = 0;
    while i < 1 << 12 {
        let (a, b) = ((i >> 6) as u32, (i & 63) as u32);
        t[i] = [Square::Num(a), Square::Num(b)];
        t[1 << 12 | i] = [alg_of(a), alg_of(b)];
        i += 1;
    }
    t
}

/// The algebraic square of 6-bit code `c`.
const fn alg_of(c: u32) -> Square {
    Square::Alg {
        file: (c >> 3) as u8,
        rank: (c & 7) as u8,
    }
}

/// The code of a pair of small squares in [`SMALL_PAIRS`], if it is one.
#[inline(always)]
fn small_pair(pair: [Square; 2]) -> Option<u16> {
    match pair {
        [Square::Num(a), Square::Num(b)] if a < 64 && b < 64 => Some((a << 6 | b) as u16),
        [
            Square::Alg { file: f, rank: r },
            Square::Alg { file: g, rank: s },
        ] if f < 8 && r < 8 && g < 8 && s < 8 => Some(
            (1 << 12 | u32::from(f) << 9 | u32::from(r) << 6 | u32::from(g) << 3 | u32::from(s))
                as u16,
        ),
        _ => None,
    }
}

/// Where the pairs of squares of a game's moves are that [`SMALL_PAIRS`] does not hold
/// ([`MoveNode::pair`] minus [`SMALL`]): each pair told once, found again by an
/// open-addressing table of their codes, filled anew for each game (an entry of an earlier
/// game is told by its generation).
#[derive(Clone, Debug)]
pub(crate) struct Pairs {
    /// A pair's key (two square codes), its index and the generation, packed.
    slots: Vec<u64>,
    /// The game's generation (never 0: 0 is an empty entry's).
    generation: u16,
}

impl Default for Pairs {
    fn default() -> Pairs {
        Pairs {
            slots: Vec::new(),
            generation: 1,
        }
    }
}

/// The most pairs a record holds beside [`SMALL_PAIRS`] (a node's `pair` is a `u16`); the
/// moves of any other pair keep their squares in their extra.
const MAX_PAIRS: usize = u16::MAX as usize - SMALL;

impl Pairs {
    /// Start a new game: no pair known.
    fn reset(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.slots.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
    }

    /// A square's 16-bit code (a number below 2^15, or an algebraic square), if it has one.
    #[inline]
    fn code(s: Square) -> Option<u32> {
        match s {
            Square::Num(n) if n < 0x8000 => Some(n),
            Square::Alg { file, rank } if file < 0x80 => {
                Some(0x8000 | u32::from(file) << 8 | u32::from(rank))
            }
            _ => None,
        }
    }

    /// A node's `pair` for `pair`: its code in [`SMALL_PAIRS`], or [`SMALL`] plus its index
    /// in the record's `pairs`, added if new (`None`: it has no code, or the pairs are full).
    #[inline]
    fn index(&mut self, pairs: &mut Vec<[Square; 2]>, pair: [Square; 2]) -> Option<u16> {
        match small_pair(pair) {
            Some(code) => Some(code),
            None => self.index_other(pairs, pair),
        }
    }

    /// [`Pairs::index`] of a pair that is not small.
    #[inline(never)]
    fn index_other(&mut self, pairs: &mut Vec<[Square; 2]>, pair: [Square; 2]) -> Option<u16> {
        let key = Pairs::code(pair[0])? << 16 | Pairs::code(pair[1])?;
        loop {
            let mask = self.slots.len().wrapping_sub(1);
            let mut i = slot_of(key, mask);
            while let Some(&slot) = self.slots.get(i) {
                if (slot >> 48) as u16 != self.generation {
                    break;
                }
                if slot as u32 == key {
                    return Some((slot >> 32) as u16);
                }
                i = (i + 1) & mask;
            }
            // A new pair: room for it (the table at most half full), or a larger table first.
            if (pairs.len() + 1) * 2 <= self.slots.len() {
                if pairs.len() >= MAX_PAIRS {
                    return None;
                }
                let at = (SMALL + pairs.len()) as u16;
                pairs.push(pair);
                self.slots[i] =
                    u64::from(key) | u64::from(at) << 32 | u64::from(self.generation) << 48;
                return Some(at);
            }
            self.grow(pairs);
        }
    }

    /// Twice the room, the game's pairs entered again.
    #[cold]
    fn grow(&mut self, pairs: &[[Square; 2]]) {
        let len = (self.slots.len() * 2).max(256);
        self.slots.clear();
        self.slots.resize(len, 0);
        let mask = len - 1;
        for (at, pair) in pairs.iter().enumerate() {
            let (Some(a), Some(b)) = (Pairs::code(pair[0]), Pairs::code(pair[1])) else {
                continue;
            };
            let key = a << 16 | b;
            let mut i = slot_of(key, mask);
            while (self.slots[i] >> 48) as u16 == self.generation {
                i = (i + 1) & mask;
            }
            let at = (SMALL + at) as u64;
            self.slots[i] = u64::from(key) | at << 32 | u64::from(self.generation) << 48;
        }
    }

    /// About how many bytes of memory the table holds.
    fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<u64>()
    }
}

/// The first slot of `key` in a table of `mask + 1` slots, a power of two (the high bits of
/// a multiplicative hash: every bit of both squares counts).
#[inline]
fn slot_of(key: u32, mask: usize) -> usize {
    (u64::from(key).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - mask.count_ones().max(1))) as usize
        & mask
}

/// One element of a line, in file order. A variation's nodes follow its own node: the
/// nodes from it up to its `end` are its inside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// A move, with its move number and strength ([`Record::move_ref`]).
    Move(MoveNode),
    /// A comment (the text of the last one of the main line is kept: see
    /// `Record::last_comment`).
    Comment {
        /// The comment with its delimiters.
        span: Span,
        /// The length of its text, which follows its opening delimiter
        /// ([`Node::comment_text`]).
        len: u32,
    },
    /// A numeric annotation glyph.
    Nag {
        /// `n` of `$n`.
        value: u16,
    },
    /// `( … )`: its inside is the nodes after it, up to `end` (excluded).
    Variation {
        /// Index of the first node after the variation.
        end: u32,
        /// From `(` to `)`.
        span: Span,
    },
    /// `/FEN "…"/` (the FEN text in the arena).
    Setup {
        /// From `/` to `/`.
        span: Span,
        /// The FEN text: an index into the record's setups.
        fen: u32,
    },
}

impl Node {
    /// Where the text of a comment node is, without its delimiters (empty for any other
    /// node).
    #[inline]
    pub fn comment_text(&self) -> Span {
        match *self {
            Node::Comment { span, len } => comment_text(span, len as usize),
            _ => Span::default(),
        }
    }
}

/// A tag pair: its standard (or decoded) name and its value, in the arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TagRef {
    name: TagName,
    value: Text,
    /// The whole tag pair.
    pub span: Span,
}

/// A tag's name: a standard one (not copied), or another one kept in the arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TagName {
    Standard(&'static str),
    Kept(Text),
}

impl TagName {
    fn len(&self) -> usize {
        match self {
            TagName::Standard(s) => s.len(),
            TagName::Kept(t) => t.len(),
        }
    }
}

/// The tags that validating asks for by name on every game (the Italian ones tell a tag
/// language), found through [`Record`]'s index of them rather than by a search of its tags.
const ASKED: [&str; 13] = [
    "White",
    "Black",
    "Result",
    "GameType",
    "FEN",
    "Variant",
    "Event",
    "ResultFormat",
    "Bianco",
    "Nero",
    "Risultato",
    "Dati",
    "Apertura",
];

/// The place of a name in [`ASKED`]: told by its length and first byte, then one comparison
/// (folded away where the name is a constant, as at nearly every call of [`Record::tag`]).
#[inline(always)]
fn asked(name: &str) -> Option<usize> {
    let k = match (name.len(), *name.as_bytes().first()?) {
        (5, b'W') => 0,
        (5, b'B') => 1,
        (6, b'R') => 2,
        (8, b'G') => 3,
        (3, b'F') => 4,
        (7, b'V') => 5,
        (5, b'E') => 6,
        (12, b'R') => 7,
        (6, b'B') => 8,
        (4, b'N') => 9,
        (9, b'R') => 10,
        (4, b'D') => 11,
        (8, b'A') => 12,
        _ => return None,
    };
    (ASKED[k] == name).then_some(k)
}

/// A line of a [`Record`]: a range of its nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRef {
    start: u32,
    end: u32,
}

/// What the squares of all the moves of a record show (kept as the record is filled, so
/// that the variant's evidence needs no pass over the moves).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SquareSummary {
    /// The largest square number.
    pub max_number: u32,
    /// True if a square is algebraic.
    pub algebraic: bool,
    /// The largest algebraic file (0 = `a`).
    pub max_file: u8,
    /// The largest algebraic rank (0 = rank 1).
    pub max_rank: u8,
    /// Squares written, in all.
    pub squares: u32,
}

impl SquareSummary {
    #[inline]
    fn add(&mut self, squares: &[Square]) {
        self.squares += squares.len() as u32;
        // The usual move: two numbered squares.
        if let [Square::Num(a), Square::Num(b)] = *squares {
            self.max_number = self.max_number.max(a.max(b));
            return;
        }
        for s in squares {
            match *s {
                Square::Num(n) => self.max_number = self.max_number.max(n),
                Square::Alg { file, rank } => {
                    self.algebraic = true;
                    self.max_file = self.max_file.max(file);
                    self.max_rank = self.max_rank.max(rank);
                }
            }
        }
    }
}

/// The nodes at the start of a record whose squares are summed apart
/// ([`Record::head_squares`]).
pub(crate) const HEAD: usize = 64;

/// What validating a game needs of it (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// 1-based position of the game in its file.
    pub index: usize,
    nodes: Vec<Node>,
    /// The pairs of squares of the moves (see [`MoveNode`]), each once.
    pairs: Vec<[Square; 2]>,
    /// The squares of the moves of more than two, one after the other (see [`MoveNode`]).
    move_squares: Vec<Square>,
    /// What few moves have (see [`MoveNode`]).
    extras: Vec<Extra>,
    /// The FEN texts of the setups, in the arena.
    setups: Vec<Text>,
    /// The squares of every move.
    squares: SquareSummary,
    /// The squares of the moves among the first [`HEAD`] nodes, and whether no variation
    /// starts among them.
    head: SquareSummary,
    /// `head` is taken (a move stands at or past node [`HEAD`]); until then it is `squares`.
    head_frozen: bool,
    head_plain: bool,
    /// Variations, in all and on the main line.
    variations: u32,
    main_variations: u32,
    /// True if a setup stands anywhere in the record.
    any_setup: bool,
    /// True if a comment starts with `pdn:` (what `pdn` writes about a game, see
    /// `export::normal::OwnComment`: `{pdn: …}`).
    own_comments: bool,
    /// The last comment of the main line: its node and its text.
    last_comment: Option<u32>,
    /// Its bytes as read (decoded when asked for: nearly every game has comments, few ask).
    comment: Vec<u8>,
    tags: Vec<TagRef>,
    /// Of each of the tags asked for on every game ([`ASKED`]), the first one's place in
    /// `tags` plus one (0: none), kept as tags are read.
    asked: [u32; ASKED.len()],
    result: Option<(Text, Span)>,
    /// Syntax errors.
    pub errors: Vec<SyntaxError>,
    /// Non-standard constructs that were read anyway.
    pub notes: Vec<Tolerated>,
    /// The texts kept (tags, setups, strengths, the result), read as UTF-8 (see
    /// [`Record::seal`]).
    arena: String,
    /// The bytes of the texts kept while the record is filled: the arena's buffer, until
    /// [`Record::seal`] makes them the arena.
    raw: Vec<u8>,
}

impl Record {
    /// An empty record.
    pub fn new() -> Record {
        Record::default()
    }

    /// The record of a game.
    pub(crate) fn of_game(game: &Game) -> Record {
        let mut r = Record::new();
        r.fill(game);
        r
    }

    /// Make this the record of `game` (the buffers are reused).
    pub fn fill(&mut self, game: &Game) {
        self.clear();
        let mut pairs = Pairs::default();
        self.index = game.index;
        for t in &game.tags {
            let name = TagName::Kept(self.keep(&t.name));
            let value = self.keep(&t.value);
            self.push_tag_asked(
                asked(&t.name),
                TagRef {
                    name,
                    value,
                    span: t.span,
                },
            );
        }
        self.push_line(&game.body, 0, &mut pairs);
        if let Some(r) = &game.result {
            let text = self.keep(&r.text);
            self.result = Some((text, r.span));
        }
        self.errors.extend_from_slice(&game.errors);
        self.notes.extend_from_slice(&game.notes);
        self.seal();
    }

    /// Make this a copy of `other`, reusing this record's buffers.
    pub(crate) fn copy_from(&mut self, other: &Record) {
        // (Destructured: a field added to the record is not forgotten here.)
        let Record {
            index,
            nodes,
            squares,
            head,
            head_plain,
            variations,
            main_variations,
            any_setup,
            own_comments,
            last_comment,
            comment,
            tags,
            asked,
            result,
            errors,
            notes,
            arena,
            raw: _,
            move_squares,
            pairs,
            extras,
            setups,
            head_frozen,
        } = other;
        self.index = *index;
        self.nodes.clone_from(nodes);
        self.squares = *squares;
        self.head = *head;
        self.head_plain = *head_plain;
        self.variations = *variations;
        self.main_variations = *main_variations;
        self.any_setup = *any_setup;
        self.own_comments = *own_comments;
        self.last_comment = *last_comment;
        self.comment.clone_from(comment);
        self.tags.clone_from(tags);
        self.asked = *asked;
        self.result.clone_from(result);
        self.errors.clone_from(errors);
        self.notes.clone_from(notes);
        self.arena.clone_from(arena);
        self.raw.clear();
        self.move_squares.clone_from(move_squares);
        self.pairs.clone_from(pairs);
        self.extras.clone_from(extras);
        self.setups.clone_from(setups);
        self.head_frozen = *head_frozen;
    }

    fn clear(&mut self) {
        self.index = 0;
        self.nodes.clear();
        self.move_squares.clear();
        self.pairs.clear();
        self.extras.clear();
        self.setups.clear();
        self.squares = SquareSummary::default();
        self.head = SquareSummary::default();
        self.head_frozen = false;
        self.head_plain = true;
        self.variations = 0;
        self.main_variations = 0;
        self.any_setup = false;
        self.own_comments = false;
        self.last_comment = None;
        self.comment.clear();
        self.tags.clear();
        self.asked = [0; ASKED.len()];
        self.result = None;
        self.errors.clear();
        self.notes.clear();
        // The arena's buffer is the next one's to fill.
        let arena = std::mem::take(&mut self.arena).into_bytes();
        if arena.capacity() > self.raw.capacity() {
            self.raw = arena;
        }
        self.raw.clear();
    }

    fn push_line(&mut self, line: &Line, depth: u32, pairs: &mut Pairs) {
        for item in &line.items {
            let node = match item {
                Item::Move(m) => {
                    let strength = m.strength.as_deref().map(str::as_bytes);
                    Node::Move(
                        self.move_node(pairs, m.number, &m.squares, m.kind, strength, m.span),
                    )
                }
                Item::Comment(c) => {
                    if depth == 0 {
                        self.keep_comment(c.text.as_bytes());
                    }
                    self.note_comment(c.text.as_bytes());
                    Node::Comment {
                        span: c.span,
                        len: c.text.len() as u32,
                    }
                }
                Item::Nag(n) => Node::Nag { value: n.value },
                Item::Setup(s) => {
                    let fen = self.keep(&s.fen);
                    self.setup_node(fen, s.span)
                }
                Item::Variation(v) => {
                    let at = self.nodes.len();
                    self.nodes.push(Node::Nag { value: 0 });
                    self.count_variation(depth);
                    self.push_line(&v.line, depth + 1, pairs);
                    self.nodes[at] = Node::Variation {
                        end: self.nodes.len() as u32,
                        span: v.span,
                    };
                    continue;
                }
            };
            self.nodes.push(node);
        }
    }

    /// The node of a move about to be pushed: its squares, number and strength kept.
    #[inline]
    fn move_node(
        &mut self,
        pairs: &mut Pairs,
        number: Option<MoveNumber>,
        squares: &[Square],
        kind: MoveKind,
        strength: Option<&[u8]>,
        span: Span,
    ) -> MoveNode {
        self.add_squares(squares);
        let pair = match *squares {
            [] => Some(0),
            [a] => pairs.index(&mut self.pairs, [a, Square::Num(0)]),
            [a, b] => pairs.index(&mut self.pairs, [a, b]),
            _ => None,
        };
        let code = KindCode::of(kind);
        let inline = match &number {
            Some(n) => MoveNode::pack_number(n, span.start),
            None => Some(0),
        };
        let mut bits = 0;
        if let Some(n) = &number {
            bits |= NUMBERED | if n.second_player { SECOND } else { 0 };
        }
        let (Some(pair), Some(aux), None, true) = (pair, inline, strength, code != KindCode::Other)
        else {
            // Something out of the usual: the extra holds it.
            let long = match pair {
                Some(_) => Text::default(),
                None => {
                    let start = self.move_squares.len() as u32;
                    self.move_squares.extend_from_slice(squares);
                    Text {
                        start,
                        end: self.move_squares.len() as u32,
                    }
                }
            };
            let strength = match strength {
                Some(s) => self.keep_bytes(s),
                None => Text::default(),
            };
            let count = if pair.is_some() {
                squares.len() as u8
            } else {
                LONG
            };
            let extra = self.push_extra(Extra {
                long,
                strength,
                number,
                kind,
            });
            return MoveNode {
                span,
                aux: extra,
                pair: pair.unwrap_or(0),
                code,
                bits: bits | EXTRA | count,
            };
        };
        MoveNode {
            span,
            aux,
            pair,
            code,
            bits: bits | squares.len() as u8,
        }
    }

    /// Keep a move's extra: its index.
    fn push_extra(&mut self, extra: Extra) -> u32 {
        self.extras.push(extra);
        (self.extras.len() - 1) as u32
    }

    /// A setup's node, its FEN kept.
    fn setup_node(&mut self, fen: Text, span: Span) -> Node {
        self.any_setup = true;
        self.setups.push(fen);
        Node::Setup {
            span,
            fen: (self.setups.len() - 1) as u32,
        }
    }

    /// The extra of a move, if it has one.
    #[inline]
    fn extra(&self, m: &MoveNode) -> Option<&Extra> {
        if m.bits & EXTRA == 0 {
            return None;
        }
        self.extras.get(m.aux as usize)
    }

    /// The move number token just before a move of the record, if any.
    #[inline]
    pub fn move_number(&self, m: &MoveNode) -> Option<MoveNumber> {
        match self.extra(m) {
            Some(e) => e.number,
            None => m.inline_number(),
        }
    }

    /// How the squares of a move of the record are joined (as [`MoveNode::kind`], which
    /// tells any capture from a move written otherwise, but with the separator as written).
    #[inline]
    pub fn move_kind(&self, m: &MoveNode) -> MoveKind {
        match m.code.kind() {
            Some(k) => k,
            None => self.extra(m).map_or(MoveKind::Capture('x'), |e| e.kind),
        }
    }

    /// A move of the record with its squares and strength.
    #[inline]
    pub fn move_ref<'a>(&'a self, m: &'a MoveNode) -> MoveRef<'a> {
        if m.bits & EXTRA == 0 {
            // The usual move: at most two squares, in the pairs, its kind and number in
            // the node, and no strength.
            let squares = match self.pair(m) {
                Some(p) => &p[..usize::from(m.bits & COUNT).min(2)],
                None => &[],
            };
            return MoveRef {
                number: m.inline_number(),
                squares,
                kind: m.kind(),
                strength: None,
                span: m.span,
            };
        }
        self.move_ref_extra(m)
    }

    /// The usual move as the replay's fast lane reads it, straight from its node, without a
    /// [`MoveRef`]: two numbered squares below 64 (a pair of `SMALL_PAIRS`) joined by `-`
    /// or by `x`, `X`, `:` or `×`, with no extra: what `move_ref` gives for it, its number as
    /// `(number, second player)`. `None` for any other move (read through
    /// [`Record::move_ref`]).
    #[inline(always)]
    pub fn numbered_pair(&self, m: &MoveNode) -> Option<NumberedPair> {
        // `Normal` and the four usual capture separators are the codes 0 to 4.
        if m.bits & (EXTRA | COUNT) != 2 || m.code as u8 > KindCode::CaptureTimes as u8 {
            return None;
        }
        let pair = u32::from(m.pair);
        if pair >= 1 << 12 {
            return None;
        }
        Some(NumberedPair {
            from: pair >> 6,
            to: pair & 63,
            capture: m.code != KindCode::Normal,
            number: (m.bits & NUMBERED != 0).then_some((m.aux & NUMBER_MAX, m.bits & SECOND != 0)),
        })
    }

    /// The pair of squares of a move (which has at most two).
    #[inline(always)]
    fn pair(&self, m: &MoveNode) -> Option<&[Square; 2]> {
        let at = usize::from(m.pair);
        match at.checked_sub(SMALL) {
            None => SMALL_PAIRS.get(at),
            Some(at) => self.pairs.get(at),
        }
    }

    /// [`Record::move_ref`] of a move with an extra.
    #[inline(never)]
    fn move_ref_extra<'a>(&'a self, m: &'a MoveNode) -> MoveRef<'a> {
        let Some(extra) = self.extra(m) else {
            return MoveRef {
                number: None,
                squares: &[],
                kind: m.kind(),
                strength: None,
                span: m.span,
            };
        };
        let squares = match m.bits & COUNT {
            LONG => self
                .move_squares
                .get(extra.long.start as usize..extra.long.end as usize)
                .unwrap_or(&[]),
            n => match self.pair(m) {
                Some(p) => &p[..usize::from(n)],
                None => &[],
            },
        };
        let strength = (extra.strength.end > extra.strength.start)
            .then(|| self.text(&extra.strength).as_bytes());
        MoveRef {
            number: extra.number,
            squares,
            kind: extra.kind,
            strength,
            span: m.span,
        }
    }

    /// Add the squares of a move about to be pushed to the summaries: the whole one, of which
    /// the head's is a snapshot taken before the first move at or past node [`HEAD`].
    #[inline]
    fn add_squares(&mut self, squares: &[Square]) {
        if !self.head_frozen && self.nodes.len() >= HEAD {
            self.head = self.squares;
            self.head_frozen = true;
        }
        self.squares.add(squares);
    }

    /// The text of a main-line comment about to be pushed.
    fn keep_comment(&mut self, text: &[u8]) {
        self.last_comment = Some(self.nodes.len() as u32);
        self.comment.clear();
        self.comment.extend_from_slice(text);
    }

    /// Note a comment's text: does `pdn` speak in it?
    #[inline(always)]
    fn note_comment(&mut self, text: &[u8]) {
        // (`pdn` writes them `{pdn: …}`, with nothing before `pdn:`: one byte looked at for
        // nearly every comment, and this runs for every comment of every game.)
        if text.first() == Some(&b'p') && text.starts_with(b"pdn:") {
            self.own_comments = true;
        }
    }

    /// True if a comment starts with `pdn:`: one that `pdn` wrote about the game.
    pub(crate) fn own_comments(&self) -> bool {
        self.own_comments
    }

    /// True if a setup (`/FEN/`) stands anywhere in the record, main line or variation.
    pub(crate) fn any_setup(&self) -> bool {
        self.any_setup
    }

    /// The last comment of the main line: its node index and its text.
    /// (Bytes that are not UTF-8 read as U+FFFD, as a `Game`'s comments are.)
    pub(crate) fn last_comment(&self) -> Option<(usize, std::borrow::Cow<'_, str>)> {
        self.last_comment
            .map(|at| (at as usize, String::from_utf8_lossy(&self.comment)))
    }

    /// What the squares of the moves among the first [`HEAD`] nodes show, if no variation
    /// starts among them (they are then the first [`HEAD`] items of the main line).
    pub(crate) fn head_squares(&self) -> Option<SquareSummary> {
        let head = if self.head_frozen {
            self.head
        } else {
            self.squares
        };
        self.head_plain.then_some(head)
    }

    fn count_variation(&mut self, depth: u32) {
        if self.nodes.len() < HEAD {
            self.head_plain = false;
        }
        self.variations += 1;
        self.main_variations += u32::from(depth == 0);
    }

    /// What the squares of every move show.
    pub fn squares(&self) -> SquareSummary {
        self.squares
    }

    /// The number of variations (at any depth).
    pub fn variations(&self) -> u32 {
        self.variations
    }

    /// The number of variations on the main line itself.
    pub(crate) fn main_variations(&self) -> u32 {
        self.main_variations
    }

    /// About how many bytes of memory the record's buffers hold.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.pairs.capacity() * std::mem::size_of::<[Square; 2]>()
            + self.move_squares.capacity() * std::mem::size_of::<Square>()
            + self.extras.capacity() * std::mem::size_of::<Extra>()
            + self.setups.capacity() * std::mem::size_of::<Text>()
            + self.tags.capacity() * std::mem::size_of::<TagRef>()
            + self.comment.capacity()
            + self.arena.capacity()
            + self.raw.capacity()
            + self.errors.capacity() * std::mem::size_of::<SyntaxError>()
            + self.notes.capacity() * std::mem::size_of::<Tolerated>()
    }

    /// Keep a text in the arena (readable once the record is sealed).
    fn keep(&mut self, s: &str) -> Text {
        self.keep_bytes(s.as_bytes())
    }

    /// Keep bytes in the arena (read as UTF-8, U+FFFD for what is not, once the record is
    /// sealed).
    fn keep_bytes(&mut self, b: &[u8]) -> Text {
        let start = self.raw.len() as u32;
        self.raw.extend_from_slice(b);
        Text {
            start,
            end: self.raw.len() as u32,
        }
    }

    /// The record is filled: the bytes kept become the arena its texts are read from,
    /// checked as UTF-8 once for all of them. (They are UTF-8 whenever the game's text is:
    /// each is a piece of it between ASCII bytes, or text decoded. Else each is read on its
    /// own, as it would have been if checked when kept: see [`Record::each_on_its_own`].)
    fn seal(&mut self) {
        let raw = std::mem::take(&mut self.raw);
        self.arena = match String::from_utf8(raw) {
            Ok(arena) => arena,
            Err(e) => self.each_on_its_own(&e.into_bytes()),
        };
    }

    /// The arena of bytes `raw` that are not all UTF-8, each text kept read on its own: a
    /// tag's value as a [`Game`] decodes it (UTF-8, else Windows-1252), any other text with
    /// U+FFFD for what is not UTF-8; the texts' ranges moved to the new arena.
    #[cold]
    fn each_on_its_own(&mut self, raw: &[u8]) -> String {
        let mut arena = String::new();
        let mut move_to = |t: &mut Text, value: bool| {
            let b = raw
                .get(t.start as usize..t.end as usize)
                .unwrap_or_default();
            let start = arena.len() as u32;
            if value {
                arena.push_str(&crate::syntax::decode_text(b));
            } else {
                arena.push_str(&String::from_utf8_lossy(b));
            }
            *t = Text {
                start,
                end: arena.len() as u32,
            };
        };
        for tag in &mut self.tags {
            if let TagName::Kept(name) = &mut tag.name {
                move_to(name, false);
            }
            move_to(&mut tag.value, true);
        }
        for fen in &mut self.setups {
            move_to(fen, false);
        }
        for extra in &mut self.extras {
            if extra.strength != Text::default() {
                move_to(&mut extra.strength, false);
            }
        }
        if let Some((text, _)) = &mut self.result {
            move_to(text, false);
        }
        arena
    }

    /// Add a tag pair whose name is `k` in [`ASKED`], if it is one there.
    #[inline]
    fn push_tag_asked(&mut self, k: Option<usize>, t: TagRef) {
        if let Some(k) = k
            && self.asked[k] == 0
        {
            self.asked[k] = self.tags.len() as u32 + 1;
        }
        self.tags.push(t);
    }

    fn text(&self, t: &Text) -> &str {
        self.arena
            .get(t.start as usize..t.end as usize)
            .unwrap_or("")
    }

    fn name<'a>(&'a self, n: &TagName) -> &'a str {
        match n {
            TagName::Standard(s) => s,
            TagName::Kept(t) => self.text(t),
        }
    }

    /// The nodes, in file order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The main line.
    pub fn body(&self) -> LineRef {
        LineRef {
            start: 0,
            end: self.nodes.len() as u32,
        }
    }

    /// The items of a line (a variation's inside is skipped: see [`Record::inside`]), with
    /// their node indices.
    pub fn items(&self, line: LineRef) -> Items<'_> {
        Items {
            nodes: &self.nodes,
            at: line.start,
            end: line.end,
        }
    }

    /// The items of a line after the item at node `at` (which must be one of them).
    pub(crate) fn items_after(&self, line: LineRef, at: usize) -> Items<'_> {
        let next = match &self.nodes[at] {
            Node::Variation { end, .. } => *end,
            _ => at as u32 + 1,
        };
        Items {
            nodes: &self.nodes,
            at: next,
            end: line.end,
        }
    }

    /// The inside of the variation at node `at`.
    pub fn inside(&self, at: usize) -> LineRef {
        let end = match &self.nodes[at] {
            Node::Variation { end, .. } => *end,
            _ => at as u32 + 1,
        };
        LineRef {
            start: at as u32 + 1,
            end,
        }
    }

    /// The text of a setup node (the FEN).
    pub(crate) fn node_text(&self, node: &Node) -> &str {
        match node {
            Node::Setup { fen, .. } => self
                .setups
                .get(*fen as usize)
                .map_or("", |fen| self.text(fen)),
            _ => "",
        }
    }

    /// The tags, in file order: (name, value, span of the pair).
    pub fn tags(&self) -> impl Iterator<Item = (&str, &str, Span)> {
        self.tags
            .iter()
            .map(|t| (self.name(&t.name), self.text(&t.value), t.span))
    }

    /// The value of the first tag with this (standard) name.
    #[inline]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tag_pair(name).map(|(v, _)| v)
    }

    /// The value and span of the first tag with this (standard) name.
    #[inline]
    pub(crate) fn tag_pair(&self, name: &str) -> Option<(&str, Span)> {
        let t = match asked(name) {
            Some(k) => self.tags.get((self.asked[k] as usize).checked_sub(1)?)?,
            None => self.find_tag(name)?,
        };
        Some((self.text(&t.value), t.span))
    }

    /// The first tag with this name, by a search.
    fn find_tag(&self, name: &str) -> Option<&TagRef> {
        // (Lengths first: most names are told apart without slicing the arena.)
        self.tags
            .iter()
            .find(|t| t.name.len() == name.len() && self.name(&t.name) == name)
    }

    /// The terminator (result or `*`) as written, and where.
    pub fn result(&self) -> Option<(&str, Span)> {
        self.result.as_ref().map(|(t, s)| (self.text(t), *s))
    }
}

/// Where the text of a comment of `len` bytes is, the comment being at `span`: after its
/// opening delimiter (`{`, `%` or `;`), whatever closes it; or its whole span, for prose read
/// as a comment.
#[inline]
fn comment_text(span: Span, len: usize) -> Span {
    // Prose read as a comment has no delimiter: its text is its whole span.
    let start = if span.end.saturating_sub(span.start) as usize == len {
        span.start
    } else {
        span.start.saturating_add(1).min(span.end)
    };
    Span::new(start, start.saturating_add(len as u32).min(span.end))
}

/// The items of a line: `(node index, node)`, a variation's inside skipped.
#[derive(Clone, Debug)]
pub struct Items<'a> {
    nodes: &'a [Node],
    at: u32,
    end: u32,
}

impl<'a> Iterator for Items<'a> {
    type Item = (usize, &'a Node);

    #[inline]
    fn next(&mut self) -> Option<(usize, &'a Node)> {
        if self.at >= self.end {
            return None;
        }
        let at = self.at as usize;
        let node = self.nodes.get(at)?;
        self.at = match node {
            Node::Variation { end, .. } => (*end).max(self.at + 1),
            _ => self.at + 1,
        };
        Some((at, node))
    }
}

/// Fills a [`Record`] from the reader's visitor calls: tags decoded as a [`Game`] holds them
/// (standard names, values unescaped with character references decoded), moves, comments,
/// NAGs, variations and setups as nodes. Only for a game whose text is UTF-8 (a [`Game`] of
/// any other text holds it decoded: see [`Filler::end`]).
#[derive(Debug, Default)]
pub(crate) struct Filler {
    /// The record being filled.
    pub record: Record,
    /// Nodes of the variations open, innermost last.
    open: Vec<u32>,
    /// Where the text of the last comment of the main line is in the game's text: its
    /// start and length (copied into the record once, at the game's end).
    last_comment: Option<(u32, u32)>,
    /// Where the record's pairs of squares are.
    pairs: Pairs,
}

impl Filler {
    /// A filler with empty buffers.
    pub(crate) fn new() -> Filler {
        Filler::default()
    }

    /// Finish the record at the end of a game: its index, errors and notes. (For a game
    /// whose text is not UTF-8 the record does not hold the game as a [`Game`] would, which
    /// decodes it: such a game is read again into one, `GameEnd::to_game`.)
    pub(crate) fn end(&mut self, game: &GameEnd<'_>) {
        while let Some(at) = self.open.pop() {
            self.close(at, Span::at(game.text.len() as u32));
        }
        let r = &mut self.record;
        if let Some((start, len)) = self.last_comment.take() {
            let (start, len) = (start as usize, len as usize);
            r.comment.clear();
            r.comment
                .extend_from_slice(game.text.get(start..start + len).unwrap_or_default());
        }
        r.index = game.index;
        r.errors.extend_from_slice(game.errors);
        r.notes.extend_from_slice(game.notes);
        r.seal();
    }

    /// About how many bytes of memory the filler's buffers hold.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.record.heap_bytes() + self.pairs.heap_bytes() + self.open.capacity() * 4
    }

    /// A move that is not the usual one (see `game_move`).
    #[inline(never)]
    fn other_move(&mut self, m: &MoveRef<'_>) {
        let node = self.record.move_node(
            &mut self.pairs,
            m.number,
            m.squares,
            m.kind,
            m.strength,
            m.span,
        );
        let nodes = &mut self.record.nodes;
        nodes.push(Node::Move(node));
    }

    fn close(&mut self, at: u32, span: Span) {
        let nodes = &mut self.record.nodes;
        let end = nodes.len() as u32;
        if let Some(Node::Variation { end: e, span: s }) = nodes.get_mut(at as usize) {
            *e = end;
            *s = span;
        }
    }
}

impl Visitor for Filler {
    type Output = ();

    fn begin_game(&mut self) {
        self.record.clear();
        self.pairs.reset();
        self.open.clear();
        self.last_comment = None;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, span: Span) {
        let r = &mut self.record;
        // (A standard name is told in `ASKED` as it is kept, not looked up in the arena.)
        let (name, k) = match value.standard_name() {
            Some(s) => (TagName::Standard(s), asked(s)),
            None => {
                let raw = String::from_utf8_lossy(name);
                let name = decode_references(&raw);
                (TagName::Kept(r.keep(&name)), asked(&name))
            }
        };
        // A value without escapes or references is its bytes (UTF-8 in a game of UTF-8 text,
        // checked when the record is sealed).
        let value = match value.plain() {
            Some(b) => r.keep_bytes(b),
            None => r.keep(&value.text()),
        };
        r.push_tag_asked(k, TagRef { name, value, span });
    }

    #[inline(always)]
    fn game_move(&mut self, m: &MoveRef<'_>) {
        // The usual move, two numbered squares without a strength: `game_pair`'s node;
        // anything else out of line.
        if let ([Square::Num(a), Square::Num(b)], None) = (m.squares, m.strength) {
            self.game_pair(m.number, [*a, *b], m.kind, m.span);
            return;
        }
        self.other_move(m);
    }

    /// The usual move, its node built in place (what `move_node` makes of it).
    #[inline(always)]
    fn game_pair(
        &mut self,
        number: Option<MoveNumber>,
        [a, b]: [u32; 2],
        kind: MoveKind,
        span: Span,
    ) {
        let r = &mut self.record;
        let at = r.nodes.len();
        let code = KindCode::of(kind);
        let (aux, bits) = match &number {
            None => (Some(0), 2),
            Some(n) => (
                MoveNode::pack_number(n, span.start),
                2 | NUMBERED | if n.second_player { SECOND } else { 0 },
            ),
        };
        let pair = if a < 64 && b < 64 {
            Some((a << 6 | b) as u16)
        } else {
            self.pairs
                .index(&mut r.pairs, [Square::Num(a), Square::Num(b)])
        };
        let (Some(aux), Some(pair), true) = (aux, pair, code != KindCode::Other) else {
            let squares = [Square::Num(a), Square::Num(b)];
            return self.other_move(&MoveRef {
                number,
                squares: &squares,
                kind,
                strength: None,
                span,
            });
        };
        if !r.head_frozen && at >= HEAD {
            r.head = r.squares;
            r.head_frozen = true;
        }
        r.squares.squares += 2;
        r.squares.max_number = r.squares.max_number.max(a.max(b));
        r.nodes.push(Node::Move(MoveNode {
            span,
            aux,
            pair,
            code,
            bits,
        }));
    }

    #[inline]
    fn comment(&mut self, text: &[u8], _: CommentKind, span: Span) {
        if self.open.is_empty() {
            // The text is copied at the game's end, from the game's text: it follows the
            // opening delimiter, or is the whole span for prose read as a comment (no
            // delimiter: then, and only then, as long as the span).
            let len = text.len() as u32;
            let start = comment_text(span, len as usize).start;
            self.record.last_comment = Some(self.record.nodes.len() as u32);
            self.last_comment = Some((start, len));
        }
        self.record.note_comment(text);
        self.record.nodes.push(Node::Comment {
            span,
            len: text.len() as u32,
        });
    }

    fn nag(&mut self, nag: Nag) {
        self.record.nodes.push(Node::Nag { value: nag.value });
    }

    fn begin_variation(&mut self) -> Skip {
        self.record.count_variation(self.open.len() as u32);
        let nodes = &mut self.record.nodes;
        self.open.push(nodes.len() as u32);
        nodes.push(Node::Variation {
            end: 0,
            span: Span::default(),
        });
        Skip(false)
    }

    fn end_variation(&mut self, span: Span) {
        if let Some(at) = self.open.pop() {
            self.close(at, span);
        }
    }

    fn setup(&mut self, fen: &[u8], span: Span) {
        let fen = self.record.keep_bytes(fen);
        let node = self.record.setup_node(fen, span);
        self.record.nodes.push(node);
    }

    fn late_strength(&mut self, text: &[u8]) {
        // The grammar gives a late strength only when the last element of the current line
        // is a move without one: nothing of its line or any other came after it, so it is
        // the last node.
        let r = &mut self.record;
        let Some(at) = r.nodes.len().checked_sub(1) else {
            return;
        };
        let Some(&Node::Move(m)) = r.nodes.get(at) else {
            return;
        };
        let strength = r.keep_bytes(text);
        let extra = match r.extras.get_mut(m.aux as usize) {
            Some(e) if m.bits & EXTRA != 0 => {
                e.strength = strength;
                m.aux
            }
            _ => r.push_extra(Extra {
                long: Text::default(),
                strength,
                number: m.inline_number(),
                kind: m.kind(),
            }),
        };
        if let Some(Node::Move(m)) = r.nodes.get_mut(at) {
            m.aux = extra;
            m.bits |= EXTRA;
        }
    }

    fn result(&mut self, text: &[u8], span: Span) {
        let text = self.record.keep_bytes(text);
        self.record.result = Some((text, span));
    }

    fn end_game(&mut self, game: &GameEnd<'_>) {
        self.end(game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{Reader, read_games};

    /// The record filled by the visitor is the record of the game.
    #[test]
    fn visitor_and_game_fill_the_same_record() {
        let text = "[Event \"R&#x00e9;sum\\\"e\"]\n[R\u{e9}sultat \"2-0\"]\n\
                    1. 32-28 {a} $1 (1. 33-29 (19-23 !) 18-23) 19-23 ?! 2. 28x19 /FEN \"W:W1:B2\"/ \
                    ( 2. 37-32 ) 14x23 2-0\n\n[Event \"b\"]\n1. 32-28 (";
        let games = read_games(text.as_bytes());
        let mut reader = Reader::new(text.as_bytes());
        let mut filler = Filler::new();
        for g in &games {
            reader.read_game(&mut filler).unwrap().unwrap();
            let want = Record::of_game(g);
            let got = &filler.record;
            assert_eq!(got.nodes, want.nodes);
            assert_eq!(
                got.tags().collect::<Vec<_>>(),
                want.tags().collect::<Vec<_>>()
            );
            assert_eq!(got.result(), want.result());
            assert_eq!(
                (got.index, &got.errors, &got.notes),
                (want.index, &want.errors, &want.notes)
            );
            assert_eq!(got.last_comment(), want.last_comment());
            assert_eq!(got.squares(), want.squares());
            assert_eq!(got.head_squares(), want.head_squares());
            assert_eq!(
                (got.variations(), got.main_variations()),
                (want.variations(), want.main_variations())
            );
            for n in got.nodes() {
                assert_eq!(got.node_text(n), want.node_text(n));
            }
        }
    }

    /// A strength written apart from its move (`32-28 !`) goes to that move only when nothing
    /// came between them; after a variation, a comment, a NAG, another strength or a reply it
    /// is an error. The record the pipeline fills (the reader's driven sink, `Fill`, whose
    /// filler puts a late strength on the last node) is the game's wherever it stands.
    #[test]
    fn a_late_strength_is_the_moves_only_straight_after_it() {
        use crate::app::model::reading::Fill;
        // Each move's strength, in node order.
        fn strengths(r: &Record) -> Vec<Option<Vec<u8>>> {
            let moves = r.nodes().iter().filter_map(|n| match n {
                Node::Move(m) => Some(r.move_ref(m).strength.map(<[u8]>::to_vec)),
                _ => None,
            });
            moves.collect()
        }
        let texts = [
            "1. 32-28 ! 19-23 *",
            "1. 32-28 !? 19-23 ?? 2. 28x19 ! 14x23 *",
            "1. 32-28 (1. 33-29 !) ! 19-23 *",
            "1. 32-28 {a comment} ! 19-23 *",
            "1. 32-28 $1 ! 19-23 *",
            "1. 32-28! ? 19-23 *",
            "1. 32-28 ! ? 19-23 *",
            "1. 32-28 (19-23) ! *",
            "1. 32-28 19-23 ! 2. 28x19 *",
            "1. 32-28 19-23 2. 28x19 (2. 37-32 ! {c} ?) 14x23 ! *",
            "1... 19-23 ! *",
            "1. 32-28 /FEN \"W:W31:B1\"/ ! *",
            "[Event \"x\"]\n! 1. 32-28 *",
            "1. 32-28 ! 2-0 !",
        ];
        for text in texts {
            let want = read_games(text.as_bytes());
            let mut reader = Reader::new(text.as_bytes());
            let mut filler = Filler::new();
            let mut got = Vec::new();
            let mut sink = Fill::new(&mut filler, |f: &mut Filler, _: &GameEnd<'_>| {
                let r = &f.record;
                (
                    r.nodes.clone(),
                    strengths(r),
                    r.errors.clone(),
                    r.notes.clone(),
                )
            });
            while let Some(g) = reader.read_driven(&mut sink).unwrap() {
                got.push(g);
            }
            assert_eq!(got.len(), want.len(), "{text}");
            for (g, w) in got.iter().zip(&want) {
                let w = Record::of_game(w);
                assert_eq!(g.0, w.nodes, "{text}");
                assert_eq!(g.1, strengths(&w), "{text}");
                assert_eq!((&g.2, &g.3), (&w.errors, &w.notes), "{text}");
            }
            // (Not vacuous: the first is the move's, the third an error.)
            if text == texts[0] {
                assert_eq!(got[0].1[0].as_deref(), Some(&b"!"[..]));
                assert!(got[0].2.is_empty() && !got[0].3.is_empty());
            }
            if text == texts[2] {
                assert_eq!(got[0].1[0], None);
                assert!(!got[0].2.is_empty());
            }
        }
    }

    /// The index of the tags asked for gives what a search of the tags gives: the first tag
    /// of a name, for every name asked and others, repeated names, names read through an
    /// alias or a reference, from the visitor and from the owned game.
    #[test]
    fn tags_asked_for_are_the_first_of_their_name() {
        for (k, name) in ASKED.iter().enumerate() {
            assert_eq!(asked(name), Some(k));
        }
        let text = "[Event \"a\"]\n[White \"w1\"]\n[Round \"1\"]\n[White \"w2\"]\n\
                    [black \"b\"]\n[G&#x61;meType \"20\"]\n[Bianco \"x\"]\n[Nero \"y\"]\n\
                    [Result \"\"]\n[Result \"2-0\"]\n1. 32-28 *\n\n[Site \"s\"]\n1. 32-28 *\n";
        let games = read_games(text.as_bytes());
        let mut reader = Reader::new(text.as_bytes());
        let mut filler = Filler::new();
        let mut names: Vec<&str> = ASKED.to_vec();
        names.extend(["Round", "Site", "black", "Date", "G&#x61;meType", ""]);
        for g in &games {
            reader.read_game(&mut filler).unwrap().unwrap();
            for r in [&filler.record, &Record::of_game(g)] {
                let all: Vec<_> = r.tags().collect();
                for name in &names {
                    let want = all
                        .iter()
                        .find(|(n, _, _)| n == name)
                        .map(|&(_, v, s)| (v, s));
                    assert_eq!(r.tag_pair(name), want, "{name}");
                }
            }
        }
        assert_eq!(filler.record.tag("White"), None);
        let mut copy = Record::new();
        copy.copy_from(&Record::of_game(&games[0]));
        assert_eq!(copy.tag("White"), Some("w1"));
        assert_eq!(copy.tag("Result"), Some(""));
        assert_eq!(copy.tag("Event"), Some("a"));
    }

    /// The last comment of the main line, copied from the game's text at its end, is the one
    /// the game holds: brace, line and unterminated comments, prose read as one, multi-byte
    /// text, a comment in a variation after it, a game read in small pieces.
    #[test]
    fn the_last_comment_is_the_games_for_every_kind_of_comment() {
        let text = "1. 32-28 {first} 19-23 % line \u{e9}t\u{e9}\n2. 28x19 ; semi\n14x23 *\n\n\
                    [Event \"x\"]\nSome prose before the moves\n1. 32-28 19-23 *\n\n\
                    1. 32-28 19-23 {main \u{e9}} (2. 33-29 {in variation}) 2. 37-32 $1 *\n\n\
                    1. 32-28 {} 19-23 *\n\n\
                    1. 32-28 {unterminated\n[Event \"y\"]\n1. 33-29 *\n\n\
                    1. 32-28 19-23 2-0\nA line of prose after the game.\n\n\
                    [Event \"z\"]\n1. 31-27 { spaced } *\n";
        let games = read_games(text.as_bytes());
        assert!(games.len() >= 6, "{}", games.len());
        /// A source handing out a few bytes at a time: the reader parses games again.
        struct Trickle<'a>(&'a [u8]);
        impl std::io::Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = buf.len().min(self.0.len()).min(7);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut whole = Reader::new(text.as_bytes());
        let mut trickled = Reader::new(Trickle(text.as_bytes()));
        let (mut a, mut b) = (Filler::new(), Filler::new());
        let mut with_comment = 0;
        for g in &games {
            whole.read_game(&mut a).unwrap().unwrap();
            trickled.read_game(&mut b).unwrap().unwrap();
            let want = Record::of_game(g);
            assert_eq!(
                a.record.last_comment(),
                want.last_comment(),
                "game {}",
                g.index
            );
            assert_eq!(
                b.record.last_comment(),
                want.last_comment(),
                "game {}",
                g.index
            );
            with_comment += usize::from(want.last_comment().is_some());
        }
        assert!(with_comment >= 5, "{with_comment}");
    }

    /// The texts of a record are checked as UTF-8 once, when it is sealed; a record filled
    /// from a text that is not UTF-8 reads each of its texts on its own, as each was read
    /// when checked as it was kept (a value decoded as Windows-1252, other texts with
    /// U+FFFD), and the texts of the next record, read from UTF-8, are read as they are.
    #[test]
    fn each_text_of_a_text_that_is_not_utf8_is_read_on_its_own() {
        let text: &[u8] = b"[Event \"Jos\xe9\"]\n[N\xe4me \"x\xe9\"]\n[Site \"a&amp;b\"]\n\
                            1. 32-28 \xe9! /FEN \"W:W\xff\"/ 19-23 2-0\n\n\
                            [Event \"R\xc3\xa9sum\xc3\xa9\"]\n1. 32-28 ?! /FEN \"W:W1\"/ 1-0\n";
        let mut reader = Reader::new(text);
        let mut filler = Filler::new();
        reader.read_game(&mut filler).unwrap().unwrap();
        let r = &filler.record;
        let tags: Vec<_> = r.tags().map(|(n, v, _)| (n, v)).collect();
        assert_eq!(
            tags,
            [
                ("Event", "Jos\u{e9}"),
                ("N\u{fffd}me", "x\u{e9}"),
                ("Site", "a&b")
            ]
        );
        assert_eq!(r.result().map(|(t, _)| t), Some("2-0"));
        let texts = |r: &Record| {
            let nodes = r.nodes().iter();
            let fens = nodes.map(|n| r.node_text(n)).filter(|t| !t.is_empty());
            let moves = r.nodes().iter().filter_map(|n| match n {
                Node::Move(m) => r.move_ref(m).strength.map(|s| s.to_vec()),
                _ => None,
            });
            (
                fens.map(str::to_owned).collect::<Vec<_>>(),
                moves.collect::<Vec<_>>(),
            )
        };
        let (fens, strengths) = texts(r);
        assert!(fens.iter().all(|f| f.contains('\u{fffd}')), "{fens:?}");
        assert!(!fens.is_empty());
        assert!(strengths.iter().all(|s| std::str::from_utf8(s).is_ok()));
        reader.read_game(&mut filler).unwrap().unwrap();
        let r = &filler.record;
        assert_eq!(r.tag("Event"), Some("R\u{e9}sum\u{e9}"));
        assert_eq!(r.result().map(|(t, _)| t), Some("1-0"));
        assert_eq!(texts(r), (vec!["W:W1".to_owned()], vec![b"?!".to_vec()]));
    }

    /// A node stays compact: a game of a million moves holds a million of them.
    #[test]
    fn a_move_node_is_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<MoveNode>(), 16);
        assert!(
            std::mem::size_of::<Node>() <= 16,
            "{}",
            std::mem::size_of::<Node>()
        );
    }

    /// The moves of a game's main line as the game holds them, and as the records (filled
    /// from the reader's visitor, and from the game) give them back.
    fn moves_three_ways(text: &str) -> [Vec<MoveSeen>; 3] {
        let games = read_games(text.as_bytes());
        let mut reader = Reader::new(text.as_bytes());
        let mut filler = Filler::new();
        reader.read_game(&mut filler).unwrap().unwrap();
        let of_game = Record::of_game(&games[0]);
        let of = |r: &Record| -> Vec<MoveSeen> {
            r.nodes()
                .iter()
                .filter_map(|n| match n {
                    Node::Move(m) => {
                        let mv = r.move_ref(m);
                        assert_eq!(r.move_number(m), mv.number);
                        assert_eq!(r.move_kind(m), mv.kind);
                        Some((
                            mv.number.map(|n| (n.number, n.second_player, n.span)),
                            mv.squares.to_vec(),
                            mv.kind,
                            mv.strength.map(<[u8]>::to_vec),
                            mv.span,
                        ))
                    }
                    _ => None,
                })
                .collect()
        };
        let want: Vec<_> = games[0]
            .body
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Move(m) => Some((
                    m.number.map(|n| (n.number, n.second_player, n.span)),
                    m.squares.to_vec(),
                    m.kind,
                    m.strength.as_ref().map(|s| s.as_bytes().to_vec()),
                    m.span,
                )),
                _ => None,
            })
            .collect();
        [want, of(&filler.record), of(&of_game)]
    }

    /// A move as compared: number, squares, kind, strength, span.
    type MoveSeen = (
        Option<(u32, bool, Span)>,
        Vec<Square>,
        MoveKind,
        Option<Vec<u8>>,
        Span,
    );

    /// Numbers, long captures and strengths (also one written after a comment) come back
    /// from the compact node and its side tables as the moves were written; so does what
    /// the node cannot hold inline: a number above 65,535, a number token far before its
    /// move, a square number of 2^15 or more, every capture separator, algebraic squares.
    #[test]
    fn moves_round_trip_through_the_compact_node() {
        let far = "x".repeat(300);
        let text = format!(
            "1. 32-28 ! 19-23 2. 28x19x10 ?! 14x23 {{c}} !! 3...7-11 a3b4 70000. 31-27 \
             4. {{{far}}} 33-29 123456 5. 37-32 X 27 6. 41:36 9\u{d7}18 c3-d4 e5xg3 7 ... 40-35 \
             0001-0002 - 99999999999 i9-j10 5000000. 44-39 000000000000000000000000000000012. 43-38 \
             8 . 42-37 9.                                                                                                                                                                                                                                                                             45-40"
        );
        let [want, filled, of_game] = moves_three_ways(&text);
        assert!(want.iter().any(|m| m.0.is_some()) && want.iter().any(|m| m.0.is_none()));
        assert!(want.iter().any(|m| m.1.len() > 2) && want.iter().any(|m| m.3.is_some()));
        assert!(want.iter().any(|m| m.0.is_some_and(|n| n.0 > 0xffff)));
        assert!(want.iter().any(|m| m.0.is_some_and(|n| n.0 > NUMBER_MAX)));
        assert!(
            want.iter()
                .any(|m| m.0.is_some_and(|n| n.2.end - n.2.start > 31))
        );
        assert!(want.iter().any(|m| {
            m.1.iter()
                .any(|s| matches!(s, Square::Num(n) if *n >= 0x8000))
        }));
        assert!(
            want.iter()
                .any(|m| m.0.is_some_and(|n| m.4.start - n.2.start > 255)),
            "{want:?}"
        );
        for sep in ['X', ':', '\u{d7}'] {
            assert!(want.iter().any(|m| m.2 == MoveKind::Capture(sep)), "{sep}");
        }
        assert_eq!(filled, want);
        assert_eq!(of_game, want);
    }

    /// A long game of numbered moves (numbers past 2^16) holds every move in its node: no
    /// extra, and the moves come back as written.
    #[test]
    fn a_long_game_needs_no_extra() {
        let mut text = String::new();
        for n in 1..=100_000u32 {
            text.push_str(&format!("{n}. 32-28 19-23 {n}... 28-32 "));
        }
        let mut reader = Reader::new(text.as_bytes());
        let mut filler = Filler::new();
        reader.read_game(&mut filler).unwrap().unwrap();
        assert_eq!(filler.record.nodes().len(), 300_000);
        assert!(filler.record.extras.is_empty() && filler.record.pairs.is_empty());
        let [want, filled, of_game] = moves_three_ways(&text);
        assert_eq!(want.len(), 300_000);
        assert_eq!(filled, want);
        assert_eq!(of_game, want);
    }

    /// A game of more distinct pairs of squares than the pairs can index: the rest keep
    /// their squares beside the nodes, and every move comes back as written.
    #[test]
    fn a_game_of_more_pairs_than_the_index_holds() {
        let mut text = String::new();
        // (From 3: `1-1`, `2-0` would end the game as results.)
        for a in 3..=262u32 {
            for b in 3..=262u32 {
                text.push_str(&format!("{a}-{b} "));
            }
        }
        let [want, filled, of_game] = moves_three_ways(&text);
        assert_eq!(want.len(), 260 * 260);
        assert_eq!(filled, want);
        assert_eq!(of_game, want);
    }

    /// The pairs' table is filled anew for each game, past the wrap of its generation: a
    /// pair of an earlier game is not found in a later one; small pairs are the table's.
    #[test]
    fn pairs_are_the_games_own_through_every_generation() {
        let mut pairs = Pairs::default();
        let mut held = Vec::new();
        let at = |held: &[[Square; 2]], i: u16| match usize::from(i).checked_sub(SMALL) {
            None => SMALL_PAIRS[usize::from(i)],
            Some(i) => held[i],
        };
        for game in 0..70_000u32 {
            pairs.reset();
            held.clear();
            let (a, b) = (game % 50 + 1, game % 90 + 1);
            let alg = |file: u32, rank| Square::Alg {
                file: (file % 12) as u8,
                rank,
            };
            for pair in [
                [Square::Num(a), Square::Num(b)],
                [alg(game, 3), Square::Num(a)],
                [Square::Num(b), Square::Num(a)],
                [alg(game, 2), alg(game + 1, 7)],
                [Square::Num(a), Square::Num(b)],
                [alg(game, 3), Square::Num(a)],
            ] {
                let i = pairs.index(&mut held, pair).unwrap();
                assert_eq!(at(&held, i), pair, "game {game}");
            }
            let big =
                2 * usize::from(b >= 64) + usize::from(game % 12 >= 8 || (game + 1) % 12 >= 8);
            assert_eq!(held.len(), 1 + big, "game {game}");
        }
    }

    #[test]
    fn items_skip_the_inside_of_variations() {
        let games = read_games(b"1. 32-28 (33-29 (19-23) 18-23) 19-23 *");
        let r = Record::of_game(&games[0]);
        let top: Vec<usize> = r.items(r.body()).map(|(i, _)| i).collect();
        assert_eq!(top, vec![0, 1, 6]);
        let inside: Vec<usize> = r.items(r.inside(1)).map(|(i, _)| i).collect();
        assert_eq!(inside, vec![2, 3, 5]);
    }
}
