//! Reading one file on several threads: [`Pieces`] cuts a byte stream into pieces at likely
//! game boundaries, cheaply and without parsing; [`read_piece`] reads the games of one piece
//! exactly as [`Reader`] reads them from the whole file, and [`read_piece_with`] reads them
//! into a [`Visitor`] as [`Reader::read_game`] does.
//!
//! A cut is only a guess. Each piece carries some bytes past its cut, so the games that end
//! before the cut are decided inside it (the grammar never decides on where its input
//! happens to end); a game that starts before the cut and is not decided there — it needs
//! more bytes, or ends past the cut — is left as a [`Rest`] with its bytes, which go in
//! front of the next piece with [`FilePiece::after`]. Read in order, the pieces give the games of the
//! sequential reader, byte for byte (a test compares them on the whole corpus at many cut
//! sizes).

use std::cell::RefCell;
use std::io::{self, Read};

use memchr::{memchr_iter, memrchr, memrchr2};

use super::game::{Game, Item};
use super::lines::{chars, count_breaks};
use super::reader::Reader;
pub use super::reader::{Origin, Rest};
use super::token::{is_ws, result_at_line_end};
use super::utf16::Source;
use super::visitor::{Driven, Visitor, VisitorSink};

/// Bytes a piece carries past its cut: enough for the grammar's look ahead at the end of a
/// game (a piece whose last game needs more just leaves it to the next piece).
pub const LOOK_PAST_CUT: usize = 256;

/// One piece of a file: the games starting before `cut` are its own.
#[derive(Clone, Debug)]
pub struct FilePiece {
    /// The file's bytes from `origin.offset`: up to the cut, then up to
    /// [`LOOK_PAST_CUT`] more.
    pub bytes: Vec<u8>,
    /// Where this piece's games stop (an index into `bytes`).
    pub cut: usize,
    /// Where the piece starts.
    pub origin: Origin,
    /// The file ends at the end of `bytes` (then `cut == bytes.len()`).
    pub file_end: bool,
    /// A game left over by the pieces before starts this piece: how many of its bytes were
    /// read when it was last tried (0 otherwise).
    pub tried: usize,
}

impl FilePiece {
    /// This piece, after one whose reading left `rest`: a left game's bytes go in front.
    pub fn after(self, rest: Rest) -> FilePiece {
        match rest {
            Rest::Nothing => self,
            Rest::Skipping => FilePiece {
                origin: Origin {
                    skipping: true,
                    ..self.origin
                },
                ..self
            },
            Rest::Game {
                mut bytes,
                origin,
                tried,
            } => {
                let cut = bytes.len() + self.cut;
                bytes.extend_from_slice(&self.bytes);
                FilePiece {
                    bytes,
                    cut,
                    origin,
                    file_end: self.file_end,
                    tried,
                }
            }
        }
    }
}

thread_local! {
    /// Capacity for a game's main line, reused from piece to piece on a thread.
    static SCRATCH: RefCell<Vec<Item>> = const { RefCell::new(Vec::new()) };
}

/// Read the games of a piece (numbered from 1 within the piece) and what it leaves to the
/// next piece of the same file; `max_game_size` as for [`Reader::with_max_game_size`]. The
/// piece is only borrowed: it is as it was afterwards.
pub fn read_piece(piece: &mut FilePiece, max_game_size: usize) -> (Vec<Game>, Rest) {
    let scratch = SCRATCH.with(|s| std::mem::take(&mut *s.borrow_mut()));
    let bytes = std::mem::take(&mut piece.bytes);
    let mut reader = Reader::piece(
        io::empty(),
        bytes,
        piece.cut,
        &piece.origin,
        piece.file_end,
        scratch,
    )
    .with_max_game_size(max_game_size);
    let mut games = Vec::new();
    // Nothing is read from the source: no I/O error can come.
    while let Ok(Some(g)) = reader.next_game() {
        games.push(g);
    }
    let (bytes, scratch, rest) = reader.into_parts();
    piece.bytes = bytes;
    SCRATCH.with(|s| *s.borrow_mut() = scratch);
    (games, rest)
}

/// Read the games of a piece into `visitor` (numbered from 1 within the piece), handing the
/// output of each to `each`, and return what the piece leaves to the next one of the same
/// file; `max_game_size` as for [`Reader::with_max_game_size`]. The games are those of
/// [`read_piece`] (a game left to the next piece may have been begun in the visitor: its
/// [`Visitor::end_game`] is not called, and the next game begins anew). The piece is only
/// borrowed: it is as it was afterwards.
pub fn read_piece_with<V: Visitor>(
    piece: &mut FilePiece,
    max_game_size: usize,
    visitor: &mut V,
    each: impl FnMut(V::Output),
) -> Rest {
    read_piece_driven(piece, max_game_size, &mut VisitorSink::new(visitor), each)
}

/// [`read_piece_with`] with the grammar's elements going straight to `sink` (see [`Driven`]).
pub(crate) fn read_piece_driven<D: Driven>(
    piece: &mut FilePiece,
    max_game_size: usize,
    sink: &mut D,
    mut each: impl FnMut(D::Output),
) -> Rest {
    let bytes = std::mem::take(&mut piece.bytes);
    let mut reader = Reader::piece(
        io::empty(),
        bytes,
        piece.cut,
        &piece.origin,
        piece.file_end,
        Vec::new(),
    )
    .with_max_game_size(max_game_size);
    // Nothing is read from the source: no I/O error can come.
    while let Ok(Some(out)) = reader.read_driven(sink) {
        each(out);
    }
    let (bytes, _, rest) = reader.into_parts();
    piece.bytes = bytes;
    rest
}

/// [`FilePiece::after`], unless the game left over by the pieces before (`rest`) is better read
/// later: a game left over by several pieces (a game larger than a piece) is read again only
/// once the bytes gathered for it are at least twice those it was last tried with (or the
/// file ends); until then the piece is added to it unread and returned as the rest (`Err`).
/// So a game that spans many pieces costs time linear in its size, not in its size times
/// the number of pieces.
pub fn after_unless_deferred(piece: FilePiece, rest: Rest) -> Result<FilePiece, Rest> {
    let mut piece = piece.after(rest);
    if piece.tried > 0 && !piece.file_end && piece.cut < piece.tried.saturating_mul(2) {
        let mut bytes = std::mem::take(&mut piece.bytes);
        bytes.truncate(piece.cut);
        return Err(Rest::Game {
            bytes,
            origin: piece.origin,
            tried: piece.tried,
        });
    }
    Ok(piece)
}

/// [`read_piece`] of `piece` after the piece before it left `rest`, unless the game left over
/// is deferred ([`after_unless_deferred`]).
pub fn read_piece_after(piece: FilePiece, rest: Rest, max_game_size: usize) -> (Vec<Game>, Rest) {
    match after_unless_deferred(piece, rest) {
        Ok(mut piece) => read_piece(&mut piece, max_game_size),
        Err(rest) => (Vec::new(), rest),
    }
}

/// Cuts a byte stream into [`FilePiece`]s of about `target` bytes, where a game likely starts (a
/// `[` that starts a line after one that does not end with `]`, or that follows a result);
/// a piece with no such place is cut at a line break once it reaches `forced` bytes.
#[derive(Debug)]
pub struct Pieces<R> {
    src: Source<R>,
    /// The first bytes were looked at for UTF-16.
    utf16_checked: bool,
    /// The file's bytes from the start of the next piece.
    buf: Vec<u8>,
    eof: bool,
    failed: bool,
    /// A read error that comes after the bytes read before it.
    pending: Option<io::Error>,
    origin: Origin,
    /// The byte before `buf[0]` was a CR.
    prev_cr: bool,
    /// Where the search for a cut goes on (no cut before it was found).
    searched: usize,
    target: usize,
    forced: usize,
    bytes_read: u64,
}

impl<R: Read> Pieces<R> {
    /// Pieces of `source`, about 64 KiB each, forced at 4 MiB.
    pub fn new(source: R) -> Self {
        Pieces {
            src: Source::Plain(source),
            utf16_checked: false,
            buf: Vec::new(),
            eof: false,
            failed: false,
            pending: None,
            origin: Origin {
                offset: 0,
                line: 1,
                column: 1,
                file_start: true,
                bom_pending: false,
                skipping: false,
            },
            prev_cr: false,
            searched: 0,
            target: 64 * 1024,
            forced: 4 << 20,
            bytes_read: 0,
        }
    }

    /// The size pieces are cut at when a line starting with `[` allows it, and the size at
    /// which a piece is cut at any line break (at least `target`).
    pub fn with_sizes(mut self, target: usize, forced: usize) -> Self {
        self.target = target.max(1);
        self.forced = forced.max(self.target);
        self
    }

    /// Bytes taken from the source so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Read until `buf` holds `want` bytes or the source ends.
    fn fill(&mut self, want: usize) -> io::Result<()> {
        // Enough bytes to tell UTF-16 first (see `utf16`).
        let want = if self.utf16_checked {
            want
        } else {
            want.max(256)
        };
        while self.buf.len() < want && !self.eof {
            let room = (want - self.buf.len()).max(8 * 1024);
            // Zeroed, then read in as few calls as the source allows (`read_to_end` zeroes
            // the spare capacity too, as the source has no `read_buf`, and reads it 8 KiB at
            // a time at first: four system calls for a piece instead of one).
            let start = self.buf.len();
            self.buf.resize(start + room, 0);
            let mut filled = start;
            let read = loop {
                if filled == self.buf.len() {
                    break Ok(());
                }
                match self.src.read(&mut self.buf[filled..]) {
                    // The source itself said it ended.
                    Ok(0) => {
                        self.eof = true;
                        break Ok(());
                    }
                    Ok(n) => filled += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => break Err(e),
                }
            };
            self.buf.truncate(filled);
            self.bytes_read += (filled - start) as u64;
            read?;
        }
        if !self.utf16_checked {
            self.utf16_checked = true;
            if self.src.switch_if_utf16(&self.buf) {
                // From here on the bytes are UTF-8 from the decoder.
                self.buf.clear();
                self.eof = false;
                return self.fill(want);
            }
        }
        Ok(())
    }

    /// The next piece, `None` at the end of the source.
    ///
    /// # Errors
    ///
    /// I/O errors of the source; the pieces before it are whole, the iterator then ends.
    pub fn next_piece(&mut self) -> io::Result<Option<FilePiece>> {
        if self.failed {
            return Ok(None);
        }
        let r = self.next_inner();
        if r.is_err() {
            self.failed = true;
        }
        r
    }

    /// All that is left in the buffer as one piece (`file_end`: the file ends with it).
    fn rest(&mut self, file_end: bool) -> FilePiece {
        let mut bytes = std::mem::take(&mut self.buf);
        // The buffer was reserved for a whole piece: a small file (of thousands in a run,
        // each in flight in a job) keeps only its bytes.
        if bytes.capacity() - bytes.len() > 4096 {
            bytes.shrink_to_fit();
        }
        FilePiece {
            cut: bytes.len(),
            bytes,
            origin: self.origin.clone(),
            file_end,
            tried: 0,
        }
    }

    fn next_inner(&mut self) -> io::Result<Option<FilePiece>> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        let mut want = self.first_want();
        loop {
            if let Err(e) = self.fill(want) {
                if self.buf.is_empty() {
                    return Err(e);
                }
                // What was read before the error is read as far as it goes (as the
                // sequential reader does); a game it cuts short is lost with the error.
                self.pending = Some(e);
                return Ok(Some(self.rest(false)));
            }
            if self.buf.is_empty() && self.eof {
                return Ok(None);
            }
            if self.eof && self.buf.len() <= want {
                // The rest of the file.
                return Ok(Some(self.rest(true)));
            }
            let limit = self.buf.len().saturating_sub(LOOK_PAST_CUT);
            let from = self.searched.max(self.target.min(limit));
            if let Some(cut) = find_cut(&self.buf, from, limit) {
                return Ok(Some(self.cut_at(cut)));
            }
            self.searched = limit.max(from);
            if limit >= self.forced {
                // No game start in sight: cut after the last line break (or anywhere, but
                // never between a CR and its LF).
                let cut = match memrchr(b'\n', &self.buf[..limit]) {
                    Some(k) if k > 0 => k + 1,
                    _ => limit,
                };
                let mut cut = cut.max(1);
                if self.buf[cut - 1] == b'\r' && self.buf.get(cut) == Some(&b'\n') {
                    cut += 1;
                }
                return Ok(Some(self.cut_at(cut)));
            }
            want = (self.buf.len() * 2).min(self.forced + LOOK_PAST_CUT);
        }
    }

    /// The bytes read for a piece before the search for a cut gives up and reads twice as
    /// many: `target`, then an eighth more to find a game start in (within a few games of
    /// the target; never past `forced`), then [`LOOK_PAST_CUT`]. (With none to search in,
    /// every piece was read at twice its size and half of it copied to the next.)
    fn first_want(&self) -> usize {
        (self.target + self.target / 8).min(self.forced) + LOOK_PAST_CUT
    }

    /// Hand out `buf[..cut]` (with the bytes past it) and keep `buf[cut..]`, in a buffer
    /// with room for the next piece (no growth when it is read).
    fn cut_at(&mut self, cut: usize) -> FilePiece {
        let mut rest = Vec::with_capacity(self.first_want().max(self.buf.len() - cut));
        rest.extend_from_slice(&self.buf[cut..]);
        let mut bytes = std::mem::replace(&mut self.buf, rest);
        bytes.truncate((cut + LOOK_PAST_CUT).min(bytes.len()));
        let head = &bytes[..cut];
        let next = Origin {
            offset: self.origin.offset + cut as u64,
            line: self
                .origin
                .line
                .saturating_add(count_breaks(head, self.prev_cr)),
            column: match memrchr2(b'\n', b'\r', head) {
                Some(k) => 1 + chars(&head[k + 1..]),
                None => self.origin.column.saturating_add(chars(head)),
            },
            file_start: false,
            bom_pending: false,
            skipping: false,
        };
        self.prev_cr = head.last() == Some(&b'\r');
        self.searched = 0;
        let origin = std::mem::replace(&mut self.origin, next);
        FilePiece {
            bytes,
            cut,
            origin,
            file_end: false,
            tried: 0,
        }
    }
}

/// Where a game likely starts in `buf[from..limit]`: a `[` at the start of a line after a
/// line that does not end with `]` (blank lines skipped), or right after a result
/// (`…1-1[White "…"]`, a shape of some exports); or the line after one that ends with a
/// result (tagless archives).
fn find_cut(buf: &[u8], from: usize, limit: usize) -> Option<usize> {
    if from >= limit {
        return None;
    }
    let bracket = find_bracket_cut(buf, from, limit);
    // Tagless archives (engine logs): after a line that ends with a result.
    find_result_line_cut(buf, from, bracket.unwrap_or(limit), limit).or(bracket)
}

/// The first byte after the first line break in `buf[from..to]` whose line ends with a
/// result standing alone (`… 2-0`, `1-1`, `1/2-1/2`, `*`), past the blank lines after it
/// (before `limit`): where the next game of a tagless archive most likely starts. (Any cut
/// gives the same games, see [`read_piece`]; a good one only saves reading a game twice. A
/// game takes the white space after it, so a cut inside the blank lines that follow a
/// result would leave that game to the next piece, to be read again with it.)
fn find_result_line_cut(buf: &[u8], from: usize, to: usize, limit: usize) -> Option<usize> {
    for k in memchr_iter(b'\n', &buf[from..to]) {
        let nl = from + k;
        if result_at_line_end(&buf[..nl]).is_some() && nl + 1 > from {
            let blank = buf[nl + 1..limit].iter().take_while(|&&b| is_ws(b)).count();
            let next = nl + 1 + blank;
            // White space up to the limit: where it ends is not known yet (the next piece
            // then reads this game again).
            return Some(if next < limit { next } else { nl + 1 });
        }
    }
    None
}

/// The first `[` in `buf[from..limit]` that likely starts a game (see [`find_cut`]).
fn find_bracket_cut(buf: &[u8], from: usize, limit: usize) -> Option<usize> {
    for k in memchr_iter(b'[', &buf[from..limit]) {
        let p = from + k;
        if p == 0 {
            continue;
        }
        match buf[p - 1] {
            b'\n' | b'\r' => {
                let mut q = p;
                while q > 0 && is_ws(buf[q - 1]) {
                    q -= 1;
                }
                if q > 0 && buf[q - 1] != b']' {
                    return Some(p);
                }
            }
            b'0'..=b'9' | b'*' => return Some(p),
            _ => {}
        }
    }
    None
}

impl<R: Read> Iterator for Pieces<R> {
    type Item = io::Result<FilePiece>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_piece().transpose()
    }
}
