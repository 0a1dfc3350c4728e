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

/// A move of a record: how its squares are joined and where it is; its number, squares and
/// strength are kept in the record ([`Record::move_ref`] gives them all together). Compact
/// (40 bytes, a node as large): a game of a million moves holds a million of them. What few
/// moves have — a number token (about half), more than two squares, a strength — is kept
/// beside the nodes, the node holding its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNode {
    /// The move itself (without number and strength).
    pub span: Span,
    /// How the squares are joined.
    pub kind: MoveKind,
    /// Its squares: the first two here, and when it has more, all of them in its extra.
    pair: [Square; 2],
    /// Its move number: an index into the record's numbers ([`NONE`]: none).
    number: u32,
    /// Its long squares and strength: an index into the record's extras ([`NONE`]: none).
    extra: u32,
    len: u8,
}

/// No index (of [`MoveNode`]'s side tables).
const NONE: u32 = u32::MAX;

/// What few moves have: more than two squares (a range of the record's squares) and a
/// strength (a range of the record's arena); either may be empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Extra {
    long: Text,
    strength: Text,
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
        /// Its text, without them.
        text: Span,
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
        /// The FEN text.
        fen: Text,
        /// From `/` to `/`.
        span: Span,
    },
}

/// A tag pair: its standard (or decoded) name and its value, in the arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TagRef {
    name: Text,
    value: Text,
    /// The whole tag pair.
    pub span: Span,
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
    /// The squares of the moves of more than two, one after the other (see [`MoveNode`]).
    move_squares: Vec<Square>,
    /// The move numbers of the moves that have one (see [`MoveNode`]).
    numbers: Vec<MoveNumber>,
    /// What few moves have (see [`MoveNode`]).
    extras: Vec<Extra>,
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
    result: Option<(Text, Span)>,
    /// Syntax errors.
    pub errors: Vec<SyntaxError>,
    /// Non-standard constructs that were read anyway.
    pub notes: Vec<Tolerated>,
    arena: String,
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
        self.index = game.index;
        for t in &game.tags {
            let name = self.keep(&t.name);
            let value = self.keep(&t.value);
            self.tags.push(TagRef {
                name,
                value,
                span: t.span,
            });
        }
        self.push_line(&game.body, 0);
        if let Some(r) = &game.result {
            let text = self.keep(&r.text);
            self.result = Some((text, r.span));
        }
        self.errors.extend_from_slice(&game.errors);
        self.notes.extend_from_slice(&game.notes);
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
            result,
            errors,
            notes,
            arena,
            move_squares,
            numbers,
            extras,
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
        self.result.clone_from(result);
        self.errors.clone_from(errors);
        self.notes.clone_from(notes);
        self.arena.clone_from(arena);
        self.move_squares.clone_from(move_squares);
        self.numbers.clone_from(numbers);
        self.extras.clone_from(extras);
        self.head_frozen = *head_frozen;
    }

    fn clear(&mut self) {
        self.index = 0;
        self.nodes.clear();
        self.move_squares.clear();
        self.numbers.clear();
        self.extras.clear();
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
        self.result = None;
        self.errors.clear();
        self.notes.clear();
        self.arena.clear();
    }

    fn push_line(&mut self, line: &Line, depth: u32) {
        for item in &line.items {
            let node = match item {
                Item::Move(m) => {
                    let strength = m.strength.as_deref().map(str::as_bytes);
                    Node::Move(self.move_node(m.number, &m.squares, m.kind, strength, m.span))
                }
                Item::Comment(c) => {
                    if depth == 0 {
                        self.keep_comment(c.text.as_bytes());
                    }
                    self.note_comment(c.text.as_bytes());
                    Node::Comment {
                        span: c.span,
                        text: comment_text(c.span, c.text.len()),
                    }
                }
                Item::Nag(n) => Node::Nag { value: n.value },
                Item::Setup(s) => {
                    self.any_setup = true;
                    Node::Setup {
                        fen: self.keep(&s.fen),
                        span: s.span,
                    }
                }
                Item::Variation(v) => {
                    let at = self.nodes.len();
                    self.nodes.push(Node::Nag { value: 0 });
                    self.count_variation(depth);
                    self.push_line(&v.line, depth + 1);
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

    /// The node of a move about to be pushed: its squares and strength kept.
    #[inline]
    fn move_node(
        &mut self,
        number: Option<MoveNumber>,
        squares: &[Square],
        kind: MoveKind,
        strength: Option<&[u8]>,
        span: Span,
    ) -> MoveNode {
        self.add_squares(squares);
        // Nearly every move has two squares: kept in the node (a call to `memcpy` for the
        // squares cost more than the rest of the node).
        let (pair, long) = match *squares {
            [] => ([Square::Num(0); 2], Text::default()),
            [a] => ([a, Square::Num(0)], Text::default()),
            [a, b] => ([a, b], Text::default()),
            [a, b, ..] => {
                let start = self.move_squares.len() as u32;
                self.move_squares.extend_from_slice(squares);
                let end = self.move_squares.len() as u32;
                ([a, b], Text { start, end })
            }
        };
        let strength = match strength {
            Some(s) => self.keep_bytes(s),
            None => Text::default(),
        };
        let extra = if long.end > long.start || strength.end > strength.start {
            self.push_extra(Extra { long, strength })
        } else {
            NONE
        };
        let number = match number {
            Some(n) => {
                self.numbers.push(n);
                (self.numbers.len() - 1) as u32
            }
            None => NONE,
        };
        MoveNode {
            span,
            kind,
            pair,
            number,
            extra,
            len: squares.len().min(3) as u8,
        }
    }

    /// Keep a move's extra: its index.
    fn push_extra(&mut self, extra: Extra) -> u32 {
        self.extras.push(extra);
        (self.extras.len() - 1) as u32
    }

    /// The extra of a move (empty if it has none).
    #[inline]
    fn extra(&self, m: &MoveNode) -> Extra {
        if m.extra == NONE {
            return Extra::default();
        }
        self.extras
            .get(m.extra as usize)
            .copied()
            .unwrap_or_default()
    }

    /// The move number token just before a move of the record, if any.
    #[inline]
    pub fn move_number(&self, m: &MoveNode) -> Option<MoveNumber> {
        if m.number == NONE {
            return None;
        }
        self.numbers.get(m.number as usize).copied()
    }

    /// A move of the record with its squares and strength.
    #[inline]
    pub fn move_ref<'a>(&'a self, m: &'a MoveNode) -> MoveRef<'a> {
        let number = self.move_number(m);
        if m.extra == NONE {
            // The usual move: at most two squares, all in the node, and no strength.
            return MoveRef {
                number,
                squares: &m.pair[..usize::from(m.len.min(2))],
                kind: m.kind,
                strength: None,
                span: m.span,
            };
        }
        self.move_ref_extra(m, number)
    }

    /// [`Record::move_ref`] of a move with an extra (more than two squares, a strength).
    fn move_ref_extra<'a>(&'a self, m: &'a MoveNode, number: Option<MoveNumber>) -> MoveRef<'a> {
        let extra = self.extra(m);
        let squares = match m.len {
            0..=2 => &m.pair[..usize::from(m.len)],
            _ => self
                .move_squares
                .get(extra.long.start as usize..extra.long.end as usize)
                .unwrap_or(&[]),
        };
        let strength = (extra.strength.end > extra.strength.start)
            .then(|| self.text(&extra.strength).as_bytes());
        MoveRef {
            number,
            squares,
            kind: m.kind,
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
            + self.move_squares.capacity() * std::mem::size_of::<Square>()
            + self.numbers.capacity() * std::mem::size_of::<MoveNumber>()
            + self.extras.capacity() * std::mem::size_of::<Extra>()
            + self.tags.capacity() * std::mem::size_of::<TagRef>()
            + self.comment.capacity()
            + self.arena.capacity()
            + self.errors.capacity() * std::mem::size_of::<SyntaxError>()
            + self.notes.capacity() * std::mem::size_of::<Tolerated>()
    }

    /// Keep a text in the arena.
    fn keep(&mut self, s: &str) -> Text {
        let start = self.arena.len() as u32;
        self.arena.push_str(s);
        Text {
            start,
            end: self.arena.len() as u32,
        }
    }

    /// Keep bytes in the arena (read as UTF-8, U+FFFD for what is not).
    fn keep_bytes(&mut self, b: &[u8]) -> Text {
        self.keep(&String::from_utf8_lossy(b))
    }

    fn text(&self, t: &Text) -> &str {
        self.arena
            .get(t.start as usize..t.end as usize)
            .unwrap_or("")
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
            Node::Setup { fen, .. } => self.text(fen),
            _ => "",
        }
    }

    /// The tags, in file order: (name, value, span of the pair).
    pub fn tags(&self) -> impl Iterator<Item = (&str, &str, Span)> {
        self.tags
            .iter()
            .map(|t| (self.text(&t.name), self.text(&t.value), t.span))
    }

    /// The value of the first tag with this (standard) name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tag_pair(name).map(|(v, _)| v)
    }

    /// The value and span of the first tag with this (standard) name.
    pub(crate) fn tag_pair(&self, name: &str) -> Option<(&str, Span)> {
        // (Lengths first: most names are told apart without slicing the arena.)
        self.tags
            .iter()
            .find(|t| t.name.len() == name.len() && self.text(&t.name) == name)
            .map(|t| (self.text(&t.value), t.span))
    }

    /// The terminator (result or `*`) as written, and where.
    pub fn result(&self) -> Option<(&str, Span)> {
        self.result.as_ref().map(|(t, s)| (self.text(t), *s))
    }
}

/// Where the text of a comment of `len` bytes is, the comment being at `span`: after its
/// opening delimiter (`{`, `%` or `;`), whatever closes it.
fn comment_text(span: Span, len: usize) -> Span {
    let start = span.start.saturating_add(1).min(span.end);
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
    /// The node of the last item of the current line, if it is a move.
    last_move: Option<u32>,
    /// Where the text of the last comment of the main line is in the game's text: its
    /// start and length (copied into the record once, at the game's end).
    last_comment: Option<(u32, u32)>,
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
    }

    /// A move that is not the usual one (see `game_move`).
    #[inline(never)]
    fn other_move(&mut self, m: &MoveRef<'_>) {
        let node = self
            .record
            .move_node(m.number, m.squares, m.kind, m.strength, m.span);
        let nodes = &mut self.record.nodes;
        self.last_move = Some(nodes.len() as u32);
        nodes.push(Node::Move(node));
    }

    fn close(&mut self, at: u32, span: Span) {
        let nodes = &mut self.record.nodes;
        let end = nodes.len() as u32;
        if let Some(Node::Variation { end: e, span: s }) = nodes.get_mut(at as usize) {
            *e = end;
            *s = span;
        }
        self.last_move = None;
    }
}

impl Visitor for Filler {
    type Output = ();

    fn begin_game(&mut self) {
        self.record.clear();
        self.open.clear();
        self.last_move = None;
        self.last_comment = None;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, span: Span) {
        let r = &mut self.record;
        let name = match value.standard_name() {
            Some(s) => r.keep(s),
            None => {
                let raw = String::from_utf8_lossy(name);
                r.keep(&decode_references(&raw))
            }
        };
        let value = r.keep(&value.text());
        r.tags.push(TagRef { name, value, span });
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
        if !r.head_frozen && at >= HEAD {
            r.head = r.squares;
            r.head_frozen = true;
        }
        r.squares.squares += 2;
        r.squares.max_number = r.squares.max_number.max(a.max(b));
        let number = match number {
            Some(n) => {
                r.numbers.push(n);
                (r.numbers.len() - 1) as u32
            }
            None => NONE,
        };
        self.last_move = Some(at as u32);
        r.nodes.push(Node::Move(MoveNode {
            span,
            kind,
            pair: [Square::Num(a), Square::Num(b)],
            number,
            extra: NONE,
            len: 2,
        }));
    }

    #[inline]
    fn comment(&mut self, text: &[u8], _: CommentKind, span: Span) {
        if self.open.is_empty() {
            // The text is copied at the game's end, from the game's text: it follows the
            // opening delimiter, or is the whole span for prose read as a comment (no
            // delimiter: then, and only then, as long as the span).
            let len = text.len() as u32;
            let start = if span.end.saturating_sub(span.start) == len {
                span.start
            } else {
                span.start.saturating_add(1)
            };
            self.record.last_comment = Some(self.record.nodes.len() as u32);
            self.last_comment = Some((start, len));
        }
        self.record.note_comment(text);
        self.record.nodes.push(Node::Comment {
            span,
            text: comment_text(span, text.len()),
        });
        self.last_move = None;
    }

    fn nag(&mut self, nag: Nag) {
        self.record.nodes.push(Node::Nag { value: nag.value });
        self.last_move = None;
    }

    fn begin_variation(&mut self) -> Skip {
        self.record.count_variation(self.open.len() as u32);
        let nodes = &mut self.record.nodes;
        self.open.push(nodes.len() as u32);
        nodes.push(Node::Variation {
            end: 0,
            span: Span::default(),
        });
        self.last_move = None;
        Skip(false)
    }

    fn end_variation(&mut self, span: Span) {
        if let Some(at) = self.open.pop() {
            self.close(at, span);
        }
    }

    fn setup(&mut self, fen: &[u8], span: Span) {
        let fen = self.record.keep_bytes(fen);
        self.record.any_setup = true;
        self.record.nodes.push(Node::Setup { fen, span });
        self.last_move = None;
    }

    fn late_strength(&mut self, text: &[u8]) {
        if let Some(at) = self.last_move
            && let Some(Node::Move(_)) = self.record.nodes.get(at as usize)
        {
            let r = &mut self.record;
            let strength = r.keep_bytes(text);
            if let Some(Node::Move(m)) = r.nodes.get(at as usize) {
                let m = *m;
                let extra = if m.extra == NONE {
                    r.push_extra(Extra {
                        long: Text::default(),
                        strength,
                    })
                } else {
                    if let Some(e) = r.extras.get_mut(m.extra as usize) {
                        e.strength = strength;
                    }
                    m.extra
                };
                if let Some(Node::Move(m)) = r.nodes.get_mut(at as usize) {
                    m.extra = extra;
                }
            }
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

    /// A node stays compact: a game of a million moves holds a million of them.
    #[test]
    fn a_node_is_forty_bytes() {
        assert!(
            std::mem::size_of::<Node>() <= 40,
            "{}",
            std::mem::size_of::<Node>()
        );
    }

    /// Numbers, long captures and strengths (also one written after a comment) come back
    /// from the side tables as the moves were written.
    #[test]
    fn moves_round_trip_through_the_compact_node() {
        let text = "1. 32-28 ! 19-23 2. 28x19x10 ?! 14x23 {c} !! 3...7-11 a3b4";
        let games = read_games(text.as_bytes());
        let mut reader = Reader::new(text.as_bytes());
        let mut filler = Filler::new();
        reader.read_game(&mut filler).unwrap().unwrap();
        let r = &filler.record;
        let got: Vec<_> = r
            .nodes()
            .iter()
            .filter_map(|n| match n {
                Node::Move(m) => Some(r.move_ref(m)),
                _ => None,
            })
            .map(|m| {
                (
                    m.number.map(|n| (n.number, n.second_player, n.span)),
                    m.squares.to_vec(),
                    m.kind,
                    m.strength.map(<[u8]>::to_vec),
                    m.span,
                )
            })
            .collect();
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
        assert!(got.iter().any(|m| m.0.is_some()) && got.iter().any(|m| m.0.is_none()));
        assert!(got.iter().any(|m| m.1.len() > 2) && got.iter().any(|m| m.3.is_some()));
        assert_eq!(got, want);
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
