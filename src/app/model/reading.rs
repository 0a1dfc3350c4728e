//! Games read for the per-game work of the commands: the reader hands each game's elements
//! straight to the record's filler (its `Driven` sink), which fills a [`Record`] (no owned
//! `Game`; buffers reused from game to game), and
//! handed to the work as a [`GameRef`]: the record, the game's text, its place in its file
//! and the variant that the earlier games of that file showed ([`FileHint`]).
//!
//! [`FileGames`] reads the games of one file in order, on the calling thread. [`Pool`] reads
//! the pieces of a job of the batch pipeline (`app::model::pipeline`) into [`Slot`]s, each game's
//! evidence of its variant computed where it is read; the pipeline then folds the hints in
//! file order, so a game gets the same hint whatever the number of threads.
//!
//! A game whose text is not UTF-8 is read again into an owned `Game` (which holds its text
//! decoded as Windows-1252, as [`Reader::next_game`] gives it), and its record filled from
//! that, so that its findings and their columns are those of the decoded text.

use std::io::{self, Read};

use crate::rules::Variant;
use crate::syntax::pieces::{FilePiece, Rest, read_piece_driven};
use crate::syntax::{
    CommentKind, Driven, Game, GameEnd, MoveKind, MoveNumber, MoveRef, MoveToken, Nag, RawTag,
    Reader, Sink, Span, Visitor, game_of_text_sized,
};

use crate::app::judge::diagnostic::GameText;
use crate::app::judge::validate;
use crate::app::model::gametype::{self, FileHint, FileVariant};
use crate::app::model::record::{Filler, Node, Record};

/// One game read, as the per-game work of a command sees it.
#[derive(Clone, Copy, Debug)]
pub struct GameRef<'a> {
    /// The input the game was read from, as the caller numbers its inputs.
    pub file: usize,
    /// What was read of the game (its `index` is the game's 1-based number in its file).
    pub record: &'a Record,
    /// The game's text (decoded if it was not UTF-8); the record's spans index into it.
    pub text: &'a str,
    /// Byte offset of its first byte in the file.
    pub offset: u64,
    /// 1-based line of its first byte.
    pub line: u32,
    /// 1-based column (in characters) of its first byte.
    pub column: u32,
    /// The variant the earlier games of the same file showed (see [`FileHint`]).
    pub hint: Option<FileVariant>,
    /// The owned game of a text that was not UTF-8.
    decoded: Option<&'a Game>,
}

impl<'a> GameRef<'a> {
    /// The game's 1-based number in its file.
    pub fn index(&self) -> usize {
        self.record.index
    }

    /// What the renderings of findings need of the game.
    pub fn game_text(&self) -> GameText<'a> {
        GameText {
            index: self.record.index,
            source: self.text,
            line: self.line,
            column: self.column,
            white: self.record.tag("White"),
            black: self.record.tag("Black"),
        }
    }

    /// `opts` with this game's file hint (see [`FileHint`]).
    pub fn options(&self, opts: &validate::Options) -> validate::Options {
        validate::Options {
            hint: self.hint,
            ..*opts
        }
    }

    /// The owned [`Game`] that [`Reader::next_game`] gives for this game, for work that
    /// rewrites its text (`fix`, `convert`): read again from its text.
    pub fn to_game(&self) -> Game {
        let mut game = match self.decoded {
            Some(g) => g.clone(),
            None => game_of_text_sized(
                self.text,
                &self.record.errors,
                &self.record.notes,
                self.sizes().main_items,
            ),
        };
        game.index = self.record.index;
        game.offset = self.offset;
        game.line = self.line;
        game.column = self.column;
        game
    }

    /// How many items the game's main line holds, and moves the whole game (variations
    /// included), for a game long enough that its owned tree and its ply record are worth
    /// making at their size at once ([`Sizes::LONG`] nodes or more; else zero: the count
    /// would cost a pass over every game's nodes for a few bytes).
    pub fn sizes(&self) -> Sizes {
        let nodes = self.record.nodes();
        if nodes.len() < Sizes::LONG {
            return Sizes::default();
        }
        Sizes {
            main_items: self.record.items(self.record.body()).count(),
            moves: nodes.iter().filter(|n| matches!(n, Node::Move(_))).count(),
        }
    }
}

/// What the owned forms of a long game hold ([`GameRef::sizes`]), to be made at their size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sizes {
    /// Items of the main line (a variation is one item).
    pub main_items: usize,
    /// Moves, variations included.
    pub moves: usize,
}

impl Sizes {
    /// Nodes from which a game's sizes are counted.
    pub const LONG: usize = 4096;
}

/// One game read and kept for its work: the record, the text, the place, the evidence of
/// its variant. Its buffers are reused by the next game read into it.
#[derive(Debug, Default)]
pub struct Slot {
    record: Record,
    /// The game's text, when it is kept here.
    text: String,
    /// The owned game of a text that was not UTF-8.
    decoded: Option<Game>,
    offset: u64,
    line: u32,
    column: u32,
    /// What the game shows for certain of its variant ([`gametype::evidence`]).
    shows: Option<Variant>,
}

/// A slot whose buffers grew past this many bytes (for a long game) lets them go when it
/// is reused: each slot would otherwise come to keep the size of the longest game that ever
/// fell into it, and a thread has as many slots as a job has games. (A game of a real
/// archive takes a few kilobytes; one this long is rare enough to be given fresh buffers.)
const SLOT_KEEPS: usize = 64 << 10;

/// A pool keeps the buffers of at most this many slots from job to job: a job of a file
/// without game starts (an archive on one line) may hold thousands of games, and each
/// thread's pool would otherwise keep a slot for each of them for the rest of the run.
/// (A job of an ordinary archive holds a few dozen games.)
const POOL_KEEPS: usize = 256;

impl Slot {
    /// Take the game that `filler` has just read to its end `end` (its record swapped with
    /// the filler's, whose buffers then serve the next game), its place, and what it shows of
    /// its variant; its text is copied here if `keep_text`. Returns the text, when it is
    /// UTF-8 (else the game is held decoded).
    fn take<'e>(
        &mut self,
        filler: &mut Filler,
        end: &GameEnd<'e>,
        keep_text: bool,
    ) -> Option<&'e str> {
        (self.line, self.column) = end.line_col();
        self.offset = end.offset;
        let text = match std::str::from_utf8(end.text) {
            Ok(text) => {
                std::mem::swap(&mut self.record, &mut filler.record);
                self.decoded = None;
                if keep_text {
                    self.text.clear();
                    self.text.push_str(text);
                }
                Some(text)
            }
            Err(_) => {
                let game = end.to_game();
                self.record.fill(&game);
                self.decoded = Some(game);
                None
            }
        };
        self.shows = gametype::evidence(&self.record);
        text
    }

    /// What the game shows for certain of its variant: the hint it gives the games after it
    /// in its file.
    pub fn shows(&self) -> Option<Variant> {
        self.shows
    }

    /// Fold this game into its file's variant hint `hint` (in file order): the hint it
    /// gets. `text` is its text when it was not kept here.
    pub fn fold_hint(&self, hint: &mut FileHint, text: Option<&str>) -> Option<FileVariant> {
        let text = match &self.decoded {
            Some(g) => g.source.as_str(),
            None => text.unwrap_or(&self.text),
        };
        hint.next(&self.record, text, self.shows)
    }

    /// Number the game: its 1-based place in its file.
    pub fn set_index(&mut self, index: usize) {
        self.record.index = index;
    }

    /// The game, for its work: read from input `file`, with the hint `hint`; `text` is its
    /// text when it was not kept here.
    fn game<'a>(
        &'a self,
        file: usize,
        hint: Option<FileVariant>,
        text: Option<&'a str>,
    ) -> GameRef<'a> {
        let (text, decoded) = match &self.decoded {
            Some(g) => (g.source.as_str(), Some(g)),
            None => (text.unwrap_or(&self.text), None),
        };
        GameRef {
            file,
            record: &self.record,
            text,
            offset: self.offset,
            line: self.line,
            column: self.column,
            hint,
            decoded,
        }
    }

    /// Let buffers that a large game grew go.
    fn trim(&mut self) {
        if self.text.capacity() > SLOT_KEEPS || self.record.heap_bytes() > SLOT_KEEPS {
            *self = Slot::default();
        }
        self.decoded = None;
    }
}

/// The reader's sink that fills a record and hands it, at the end of each game, to `on_end`
/// (with the filler, whose record is finished).
pub(crate) struct Fill<'f, E> {
    filler: &'f mut Filler,
    on_end: E,
}

impl<'f, E> Fill<'f, E> {
    /// A sink filling `filler`'s record, handing it to `on_end` at each game's end.
    pub(crate) fn new(filler: &'f mut Filler, on_end: E) -> Self {
        Fill { filler, on_end }
    }
}

/// The grammar's elements straight into the filler (no visitor between them: see
/// [`Driven`]); a game parsed again from its start (after a refill of the reader's buffer)
/// is filled again from its first element.
impl<T, E: FnMut(&mut Filler, &GameEnd<'_>) -> T> Driven for Fill<'_, E> {
    type Output = T;

    fn begin_game(&mut self) {
        self.filler.begin_game();
    }

    fn restart(&mut self) {
        self.filler.begin_game();
    }

    fn end_game(&mut self, end: &GameEnd<'_>) -> T {
        self.filler.end(end);
        (self.on_end)(self.filler, end)
    }
}

impl<E> Sink for Fill<'_, E> {
    fn tag(&mut self, name: &[u8], value: RawTag<'_>, span: Span) {
        self.filler.tag(name, value, span);
    }

    #[inline(always)]
    fn push_move(&mut self, m: MoveToken<'_>) {
        self.filler.game_move(&MoveRef {
            number: m.number,
            squares: &m.squares,
            kind: m.kind,
            strength: m.strength,
            span: m.span,
        });
    }

    #[inline(always)]
    fn push_pair(
        &mut self,
        number: Option<MoveNumber>,
        squares: [u32; 2],
        kind: MoveKind,
        span: Span,
    ) {
        self.filler.game_pair(number, squares, kind, span);
    }

    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span) {
        self.filler.comment(text, kind, span);
    }

    fn nag(&mut self, nag: Nag) {
        self.filler.nag(nag);
    }

    fn open_variation(&mut self) {
        self.filler.begin_variation();
    }

    fn close_variation(&mut self, span: Span) {
        self.filler.end_variation(span);
    }

    fn setup(&mut self, fen: &[u8], span: Span) {
        self.filler.setup(fen, span);
    }

    fn late_strength(&mut self, text: &[u8]) {
        self.filler.late_strength(text);
    }

    fn result(&mut self, text: &[u8], span: Span) {
        self.filler.result(text, span);
    }
}

/// Reads the games of a file one by one into a record, each handed to the work with the
/// hint of the games before it.
///
/// ```
/// use pdn::app::model::reading::FileGames;
/// use pdn::rules::Variant;
/// use pdn::syntax::Reader;
///
/// let pdn = b"1. 32-28 17-21 2. 37-32 *\n\n[White \"Ana\"]\n1. 32-28 *\n";
/// let mut reader = Reader::new(&pdn[..]);
/// let mut games = FileGames::new(0);
/// let first = games.next(&mut reader, |g| (g.index(), g.hint))?;
/// assert_eq!(first, Some((1, None)));
/// // The first game replays legally on the 10x10 boards only (square 37 is on no 8x8
/// // board), the international first: the second game is hinted international, not proven
/// // (Frisian draughts would play these moves too).
/// let second = games.next(&mut reader, |g| (g.record.tag("White").map(str::to_owned), g.hint))?;
/// let hint = second.and_then(|(_, h)| h).map(|h| (h.variant, h.proven));
/// assert_eq!(hint, Some((Variant::International, false)));
/// assert_eq!(games.next(&mut reader, |_| ())?, None);
/// # Ok::<_, std::io::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct FileGames {
    filler: Filler,
    slot: Slot,
    hint: FileHint,
    file: usize,
}

impl FileGames {
    /// A reader of the games of input `file` (as the caller numbers its inputs).
    pub fn new(file: usize) -> FileGames {
        FileGames {
            file,
            ..FileGames::default()
        }
    }

    /// Go on with the games of another file, `file`: no hint from the games before.
    pub fn start_file(&mut self, file: usize) {
        self.file = file;
        self.hint = FileHint::default();
    }

    /// Read the next game of the file from `reader` and hand it to `work`; `None` at the end
    /// of the file.
    ///
    /// # Errors
    ///
    /// I/O errors of the reader's source.
    pub fn next<R: Read, T>(
        &mut self,
        reader: &mut Reader<R>,
        work: impl FnOnce(&GameRef<'_>) -> T,
    ) -> io::Result<Option<T>> {
        let FileGames {
            filler,
            slot,
            hint,
            file,
        } = self;
        let mut work = Some(work);
        let mut fill = Fill {
            filler,
            on_end: |filler: &mut Filler, end: &GameEnd<'_>| {
                let text = slot.take(filler, end, false);
                let h = slot.fold_hint(hint, text);
                let done = work.take().map(|w| w(&slot.game(*file, h, text)));
                slot.trim();
                done
            },
        };
        Ok(reader.read_driven(&mut fill)?.flatten())
    }
}

/// The games of one job of the batch pipeline: the pieces it reads go into slots, in order,
/// which keep their buffers from job to job.
#[derive(Debug, Default)]
pub struct Pool {
    filler: Filler,
    slots: Vec<Slot>,
    used: usize,
}

impl Pool {
    /// An empty pool.
    pub fn new() -> Pool {
        Pool::default()
    }

    /// Forget the games held (the buffers stay, but those a large game grew and the slots
    /// past the first `POOL_KEEPS` (256)).
    pub fn clear(&mut self) {
        // A game left unfinished at the end of a piece (a huge game tried before all its
        // bytes were gathered) grew the filler's buffers, which no slot took.
        if self.filler.heap_bytes() > SLOT_KEEPS {
            self.filler = Filler::default();
        }
        self.slots.truncate(POOL_KEEPS.max(1));
        let used = self.used.min(self.slots.len());
        for s in &mut self.slots[..used] {
            s.trim();
        }
        self.used = 0;
    }

    /// The slots whose buffers are kept (held or not).
    pub fn slots_kept(&self) -> usize {
        self.slots.len()
    }

    /// The number of games held.
    pub fn len(&self) -> usize {
        self.used
    }

    /// True if no game is held.
    pub fn is_empty(&self) -> bool {
        self.used == 0
    }

    /// Read the games of a piece into the next slots (numbered from 1 within the piece), and
    /// return what the piece leaves to the next one of its file (see
    /// [`read_piece_with`](crate::syntax::pieces::read_piece_with)).
    /// Each game's text is copied into its slot (the piece is as it was afterwards).
    pub fn read_piece(&mut self, piece: &mut FilePiece, max_game_size: usize) -> Rest {
        self.read(piece, max_game_size, false)
    }

    /// [`Pool::read_piece`] of a piece that is not needed afterwards: the first game whose
    /// text is long (at least `SLOT_KEEPS` bytes, 64 KiB) keeps the piece's buffer as its
    /// text instead of a copy, so that one huge game is not held twice.
    pub fn read_last_piece(&mut self, mut piece: FilePiece, max_game_size: usize) -> Rest {
        self.read(&mut piece, max_game_size, true)
    }

    fn read(&mut self, piece: &mut FilePiece, max_game_size: usize, take: bool) -> Rest {
        let Pool {
            filler,
            slots,
            used,
        } = self;
        let base = piece.origin.offset;
        // The game that keeps the buffer: its slot, and where its text is in the buffer.
        let mut kept: Option<(usize, usize, usize)> = None;
        let mut fill = Fill {
            filler,
            on_end: |filler: &mut Filler, end: &GameEnd<'_>| {
                if *used == slots.len() {
                    slots.push(Slot::default());
                }
                let long = take && kept.is_none() && end.text.len() >= SLOT_KEEPS;
                if slots[*used].take(filler, end, !long).is_some() && long {
                    // A piece's buffer holds its bytes from the file offset of its origin,
                    // unchanged while it is read.
                    let start = usize::try_from(end.offset - base).unwrap_or(usize::MAX);
                    kept = Some((*used, start, end.text.len()));
                }
                *used += 1;
            },
        };
        let rest = read_piece_driven(piece, max_game_size, &mut fill, |()| {});
        if let Some((k, start, len)) = kept {
            let mut bytes = std::mem::take(&mut piece.bytes);
            bytes.truncate(start.saturating_add(len));
            bytes.drain(..start.min(bytes.len()));
            // UTF-8: it was checked when the game was read.
            slots[k].text = String::from_utf8(bytes)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        }
        rest
    }

    /// Game `k` held (0-based, in the order read).
    pub fn slot_mut(&mut self, k: usize) -> Option<&mut Slot> {
        self.slots[..self.used].get_mut(k)
    }

    /// Game `k` held, for its work: read from input `file`, with the hint `hint`.
    pub fn game(&self, k: usize, file: usize, hint: Option<FileVariant>) -> Option<GameRef<'_>> {
        self.slots[..self.used]
            .get(k)
            .map(|s| s.game(file, hint, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::pieces::Pieces;

    /// Every game of a text as read one by one and through pieces of the given size: the
    /// number, the hint, the place, the text and the record's tags and nodes agree.
    fn check(text: &[u8], target: usize) {
        let mut seq = Vec::new();
        let mut reader = Reader::new(text);
        let mut games = FileGames::new(0);
        while let Some(g) = games
            .next(&mut reader, |g| {
                (
                    g.index(),
                    g.hint,
                    (g.offset, g.line, g.column),
                    g.text.to_owned(),
                    g.record.nodes().to_vec(),
                    g.record
                        .tags()
                        .map(|(n, v, _)| format!("{n}={v}"))
                        .collect::<Vec<_>>(),
                    g.to_game(),
                )
            })
            .unwrap()
        {
            seq.push(g);
        }
        let mut pool = Pool::new();
        let mut hint = FileHint::default();
        let mut rest: Option<Rest> = None;
        let mut got = Vec::new();
        for piece in Pieces::new(text).with_sizes(target, target) {
            let piece = piece.unwrap();
            let mut piece = match rest.take() {
                Some(r) => piece.after(r),
                None => piece,
            };
            pool.clear();
            rest = Some(pool.read_piece(&mut piece, 1 << 20));
            for k in 0..pool.len() {
                let n = got.len() + 1;
                let slot = pool.slot_mut(k).unwrap();
                slot.set_index(n);
                let h = slot.fold_hint(&mut hint, None);
                let g = pool.game(k, 0, h).unwrap();
                got.push((
                    g.index(),
                    g.hint,
                    (g.offset, g.line, g.column),
                    g.text.to_owned(),
                    g.record.nodes().to_vec(),
                    g.record
                        .tags()
                        .map(|(n, v, _)| format!("{n}={v}"))
                        .collect::<Vec<_>>(),
                    g.to_game(),
                ));
            }
        }
        assert_eq!(got, seq, "pieces of {target}");
        // And the owned games are those of the reader.
        let want = crate::syntax::read_games(text);
        assert_eq!(seq.iter().map(|g| g.6.clone()).collect::<Vec<_>>(), want);
    }

    /// A game parsed again from its start (its end past the reader's buffer) fills its
    /// record again from its first element: the records of a text handed out a few bytes at
    /// a time, in a small buffer, are those of the text read at once.
    #[test]
    fn a_game_parsed_again_fills_its_record_again() {
        /// A source handing out a few bytes at a time.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = buf.len().min(self.0.len()).min(7);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let text = "[Event \"R&#x00e9;sum\\\"e\"]\n[Result \"2-0\"]\n1. 32-28 {c} 19-23 $1 \
                    (2... 18-23 (3. 33-29 !) 4. 40-35) 2. 28x19 ! 14x23 3. 9x18x27 /FEN \"W:W31\"/ \
                    c3-d4 x 1... 12. 50-45? 1/2-1/2\n\n1. 32-28 19-23 % line\n2. 28x19 (2. 37-32 \
                    2-0\n\n[Event \"x\"]\n1. 31-27 *\n";
        let seen = |reader: &mut Reader<&mut dyn Read>| {
            let mut games = FileGames::new(0);
            let mut seq = Vec::new();
            while let Some(g) = games
                .next(reader, |g| {
                    let r = g.record;
                    (
                        g.index(),
                        r.nodes().to_vec(),
                        r.tags()
                            .map(|(n, v, s)| format!("{n}={v}@{s:?}"))
                            .collect::<Vec<_>>(),
                        r.result().map(|(t, s)| (t.to_owned(), s)),
                        (r.errors.clone(), r.notes.clone()),
                        (0..r.nodes().len())
                            .filter_map(|k| match &r.nodes()[k] {
                                Node::Move(m) => Some(format!("{:?}", r.move_ref(m))),
                                _ => None,
                            })
                            .collect::<Vec<_>>(),
                        r.last_comment().map(|(k, t)| (k, t.into_owned())),
                    )
                })
                .unwrap()
            {
                seq.push(g);
            }
            seq
        };
        let mut bytes = text.as_bytes();
        let whole = seen(&mut Reader::new(&mut bytes as &mut dyn Read));
        let mut trickle = Trickle(text.as_bytes());
        let trickled = seen(&mut Reader::new(&mut trickle as &mut dyn Read).with_buffer_size(8));
        assert!(whole.len() >= 3 && whole[0].1.len() > 12, "{whole:?}");
        assert_eq!(trickled, whole);
    }

    /// A job of thousands of games (a piece of an archive on one line) does not leave a
    /// slot per game in the pool for the rest of the run.
    #[test]
    fn a_pool_keeps_a_bounded_number_of_slots() {
        let text = "1. 32-28 19-23 * ".repeat(2000);
        let mut pool = Pool::new();
        let mut piece = Pieces::new(text.as_bytes())
            .with_sizes(1 << 20, 1 << 20)
            .next_piece()
            .unwrap()
            .unwrap();
        pool.read_piece(&mut piece, 1 << 20);
        assert_eq!(pool.len(), 2000);
        pool.clear();
        assert!(pool.is_empty());
        assert_eq!(pool.slots_kept(), POOL_KEEPS);
        // Still read whole afterwards.
        pool.read_piece(&mut piece, 1 << 20);
        assert_eq!(pool.len(), 2000);
        let last = pool.game(1999, 0, None).unwrap();
        assert_eq!(last.text, "1. 32-28 19-23 *");
    }

    /// A piece read for the last time gives its long game the piece's buffer, with the
    /// same text as a copy would hold; the games around it keep theirs.
    #[test]
    fn a_long_game_keeps_the_buffer_of_its_piece() {
        let long = "1. 32-28 19-23 2. 28x19 14x23 ".repeat(4000);
        let text = format!("1. 11-15 *\n\n[Event \"x\"]\n{long}*\n\n1. 9-13 *\n");
        let piece = || {
            Pieces::new(text.as_bytes())
                .with_sizes(1 << 20, 1 << 20)
                .next_piece()
                .unwrap()
                .unwrap()
        };
        let mut copied = Pool::new();
        let mut p = piece();
        copied.read_piece(&mut p, 1 << 20);
        let mut kept = Pool::new();
        kept.read_last_piece(piece(), 1 << 20);
        assert_eq!(kept.len(), 3);
        for k in 0..3 {
            let (a, b) = (
                copied.game(k, 0, None).unwrap(),
                kept.game(k, 0, None).unwrap(),
            );
            assert_eq!((a.text, a.offset, a.line), (b.text, b.offset, b.line));
        }
        assert!(kept.game(1, 0, None).unwrap().text.ends_with("14x23 *"));
        assert!(kept.slots[1].text.capacity() >= text.len() - 20);
        // Cleared, the pool lets the long buffer go.
        kept.clear();
        assert_eq!(kept.slots[1].text.capacity(), 0);
    }

    #[test]
    fn pieces_and_the_file_read_the_same_games_with_the_same_hints() {
        let text = "[Event \"a\"]\n1. 9-13 22-18 *\n\n1. 32-28 19-23 {c} 2. 28x19 $2 14x23 2-0\n\n\
                    [GameType \"21\"]\n1. 11-15 (1. 9-14) 23-19 *\n\n1. 11-15 *\n\n\
                    [Event \"Résumé\"]\n1. 62-57 *\n\n1. 11-15 *\n";
        for target in [1, 20, 60, 4096] {
            check(text.as_bytes(), target);
        }
        // A text that is not UTF-8 (Windows-1252) is held decoded.
        let mut bytes = text.as_bytes().to_vec();
        bytes.extend_from_slice(b"\n[White \"Jos\xe9\"]\n1. 32-28 *\n");
        for target in [1, 50] {
            check(&bytes, target);
        }
    }
}
