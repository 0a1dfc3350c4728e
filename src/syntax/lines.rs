//! Lines and columns, counted one way everywhere: CR LF, LF and a lone CR each end a line,
//! a column counts characters (UTF-8 continuation bytes do not count), both 1-based.
//! [`LinePos`] counts as a stream goes by (the reader), [`line_col`] answers one question
//! about a text, [`LineIndex`] many questions about one text.

use std::cell::Cell;

use memchr::{memchr_iter, memrchr2};

use super::game::Game;

/// Line and column at a buffer index `at`, and whether the byte before it was a CR.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LinePos {
    pub(crate) at: usize,
    pub(crate) line: u32,
    pub(crate) column: u32,
    pub(crate) prev_cr: bool,
}

impl LinePos {
    pub(crate) const START: LinePos = LinePos {
        at: 0,
        line: 1,
        column: 1,
        prev_cr: false,
    };

    /// Step over `buf[self.at..]`.
    fn count_to_end(&mut self, buf: &[u8]) {
        let Some(region) = buf.get(self.at..).filter(|r| !r.is_empty()) else {
            return;
        };
        self.line = self.line.saturating_add(count_breaks(region, self.prev_cr));
        self.column = match memrchr2(b'\n', b'\r', region) {
            Some(k) => 1 + chars(&region[k + 1..]),
            None => self.column.saturating_add(chars(region)),
        };
        self.prev_cr = region.last() == Some(&b'\r');
        self.at = buf.len();
    }

    /// Line and column at `buf.len()`, `buf` holding the bytes before it from index 0;
    /// `cell` keeps the count.
    pub(crate) fn resolve(cell: &Cell<LinePos>, buf: &[u8]) -> (u32, u32) {
        let mut pos = cell.get();
        pos.count_to_end(buf);
        cell.set(pos);
        (pos.line, pos.column)
    }
}

/// Line breaks in `region` (CR LF, LF, lone CR), given whether the byte before it was a CR.
pub(crate) fn count_breaks(region: &[u8], prev_cr: bool) -> u32 {
    let mut n = memchr_iter(b'\n', region).count();
    if prev_cr && region.first() == Some(&b'\n') {
        n -= 1;
    }
    // A CR counts unless an LF follows (`\r\n` inside the region: the `\n` counted it).
    n += memchr_iter(b'\r', region)
        .filter(|&i| region.get(i + 1) != Some(&b'\n'))
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Characters in UTF-8 bytes (continuation bytes do not count).
pub(crate) fn chars(b: &[u8]) -> u32 {
    let n = b.iter().filter(|&&c| (c as i8) >= -0x40).count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Line and column of byte `offset` of `text`, whose first byte is at `line`, `column` (an
/// offset past the end is clamped; one inside a character counts as that character).
pub(crate) fn line_col(text: &[u8], line: u32, column: u32, offset: usize) -> (u32, u32) {
    let offset = offset.min(text.len());
    let head = &text[..offset];
    if head.last() == Some(&b'\r') && text.get(offset) == Some(&b'\n') {
        // Between the CR and the LF of one line break: still on the line, past the CR.
        let (l, c) = line_col(text, line, column, offset - 1);
        return (l, c.saturating_add(1));
    }
    match memrchr2(b'\n', b'\r', head) {
        Some(k) => (
            line.saturating_add(count_breaks(head, false)),
            1 + chars(&head[k + 1..]),
        ),
        None => (line, column.saturating_add(chars(head))),
    }
}

/// Line and column of byte `offset` of a text whose first byte is at `line`, `column` (as
/// [`Game::line_col`]).
pub fn line_col_of(text: &str, line: u32, column: u32, offset: u32) -> (u32, u32) {
    line_col(text.as_bytes(), line, column, offset as usize)
}

/// Where the line of `src` holding byte `at` is, going back from `at` by at most `n`
/// characters: the byte there, and whether it is the line's start.
pub(crate) fn chars_back(src: &str, at: usize, n: usize) -> (usize, bool) {
    for (count, (i, c)) in src[..at].char_indices().rev().enumerate() {
        if c == '\n' || c == '\r' {
            return (i + 1, true);
        }
        if count == n {
            return (i + c.len_utf8(), false);
        }
    }
    (0, true)
}

/// Going forward from byte `at` of `src` by at most `n` characters, within its line: the
/// byte there, and whether it is the line's end.
pub(crate) fn chars_forward(src: &str, at: usize, n: usize) -> (usize, bool) {
    for (count, (i, c)) in src[at..].char_indices().enumerate() {
        if c == '\n' || c == '\r' {
            return (at + i, true);
        }
        if count == n {
            return (at + i, false);
        }
    }
    (src.len(), true)
}

/// How far apart [`LineIndex`]'s marks inside a long line are, in bytes.
const MARK_EVERY: usize = 4096;

/// The line starts of a game's text, for many lookups (findings of one game).
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<u32>,
    /// Places inside long lines, every [`MARK_EVERY`] bytes or so, with the characters from
    /// their line's start: a lookup counts at most that many bytes, however long the line
    /// (many findings on a game written on one line cost each its own share).
    marks: Vec<(u32, u32)>,
    /// Without line starts ([`LineIndex::direct`]): the last place located, as (offset,
    /// line, column), from which a later offset is counted on (a game's findings come
    /// mostly in text order).
    last: Cell<Option<(u32, u32, u32)>>,
}

impl LineIndex {
    /// Index the lines of a game's text.
    pub fn new(game: &Game) -> LineIndex {
        LineIndex::of_text(game.source.as_bytes())
    }

    /// No index: each lookup counts from the start of the text, as `line_col` does. For a
    /// handful of lookups into a text (the findings of most games) that is cheaper than
    /// indexing its lines.
    pub fn direct() -> LineIndex {
        LineIndex {
            starts: Vec::new(),
            marks: Vec::new(),
            last: Cell::new(None),
        }
    }

    /// Index the lines of a text.
    pub fn of_text(b: &[u8]) -> LineIndex {
        // Records run at 40 to 80 bytes a line: one allocation for nearly every game.
        let mut starts = Vec::with_capacity(b.len() / 32 + 8);
        starts.push(0u32);
        for i in memchr::memchr2_iter(b'\n', b'\r', b) {
            if b[i] == b'\n' || b.get(i + 1) != Some(&b'\n') {
                starts.push(i as u32 + 1);
            }
        }
        let mut marks = Vec::new();
        for (k, &start) in starts.iter().enumerate() {
            let end = starts.get(k + 1).map_or(b.len(), |&e| e as usize);
            let (mut at, mut chars_before) = (start as usize, 0u32);
            while end - at > MARK_EVERY {
                let mut next = at + MARK_EVERY;
                // A mark starts a character.
                while next < end && (b[next] as i8) < -0x40 {
                    next += 1;
                }
                chars_before = chars_before.saturating_add(chars(&b[at..next]));
                at = next;
                if at < end {
                    marks.push((at as u32, chars_before));
                }
            }
        }
        LineIndex {
            starts,
            marks,
            last: Cell::new(None),
        }
    }

    /// Line and column of a byte offset into the game's text (as [`Game::line_col`]).
    pub fn line_col(&self, game: &Game, offset: u32) -> (u32, u32) {
        self.locate(game.source.as_bytes(), game.line, game.column, offset)
    }

    /// Line and column of a byte offset into the indexed text, whose first byte is at
    /// `line`, `column`.
    pub fn locate(&self, text: &[u8], line: u32, column: u32, offset: u32) -> (u32, u32) {
        if self.starts.is_empty() {
            return self.counted_on(text, line, column, offset);
        }
        let offset = offset.min(text.len() as u32);
        let k = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts[k];
        let base = if k == 0 { column } else { 1 };
        // From the last mark of the line at or before `offset`, if any.
        let m = self.marks.partition_point(|&(at, _)| at <= offset);
        let (from, before) = match m.checked_sub(1).map(|m| self.marks[m]) {
            Some((at, before)) if at >= start => (at, before),
            _ => (start, 0),
        };
        let chars = before.saturating_add(chars(&text[from as usize..offset as usize]));
        (line.saturating_add(k as u32), base.saturating_add(chars))
    }

    /// [`line_col`], counted on from the last place located when `offset` is not before
    /// it. Neither place is ever between the CR and the LF of one line break (that answer
    /// is [`line_col`]'s own, and such a place is not kept), so the bytes between the two
    /// hold whole line breaks only.
    fn counted_on(&self, text: &[u8], line: u32, column: u32, offset: u32) -> (u32, u32) {
        let offset = offset.min(text.len() as u32);
        let at = offset as usize;
        if at > 0 && text[at - 1] == b'\r' && text.get(at) == Some(&b'\n') {
            return line_col(text, line, column, at);
        }
        let found = match self.last.get() {
            Some((from, l, c)) if from <= offset => {
                let region = &text[from as usize..at];
                match memrchr2(b'\n', b'\r', region) {
                    Some(k) => (
                        l.saturating_add(count_breaks(region, false)),
                        1 + chars(&region[k + 1..]),
                    ),
                    None => (l, c.saturating_add(chars(region))),
                }
            }
            _ => line_col(text, line, column, at),
        };
        self.last.set(Some((offset, found.0, found.1)));
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breaks_and_chars() {
        assert_eq!(count_breaks(b"a\nb\r\nc\rd", false), 3);
        assert_eq!(count_breaks(b"\nb", true), 0);
        assert_eq!(count_breaks(b"\r", false), 1);
        assert_eq!(chars("aé€".as_bytes()), 3);
    }

    #[test]
    fn breaks_counted_as_one_byte_at_a_time_counts_them() {
        fn naive(region: &[u8], prev_cr: bool) -> u32 {
            let mut n = 0;
            for (i, &b) in region.iter().enumerate() {
                let lf_of_crlf = b == b'\n'
                    && if i == 0 {
                        prev_cr
                    } else {
                        region[i - 1] == b'\r'
                    };
                if (b == b'\n' && !lf_of_crlf) || b == b'\r' {
                    n += 1;
                }
            }
            n
        }
        // Texts of every length around the steps and the blocks, breaks of every kind
        // anywhere (a CR at the end of a step, of a block, of the text).
        let mut seed = 7u64;
        for len in (0..70).chain([4079, 4080, 4081, 4096, 8175, 8200, 20000]) {
            for density in [2u64, 5, 40] {
                let text: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        match (seed >> 33) % (density * 3) {
                            0 => b'\r',
                            1 => b'\n',
                            2 => 0xc3,
                            _ => b'a',
                        }
                    })
                    .collect();
                for prev_cr in [false, true] {
                    assert_eq!(count_breaks(&text, prev_cr), naive(&text, prev_cr), "{len}");
                }
            }
        }
        let crlf = b"\r\n".repeat(5000);
        assert_eq!(count_breaks(&crlf, false), 5000);
        assert_eq!(count_breaks(&crlf[1..], true), 4999);
        assert_eq!(count_breaks(&b"\r".repeat(9000), false), 9000);
    }

    #[test]
    fn one_answer_three_ways() {
        let text = "ab\r\ncé\rd\n\nxyz";
        let games = crate::syntax::read_games(format!("\n\n\n\n  {text}").as_bytes());
        let game = &games[0];
        assert_eq!((game.source.as_str(), game.line, game.column), (text, 5, 3));
        let index = LineIndex::new(game);
        for offset in 0..=text.len() + 2 {
            let want = line_col(text.as_bytes(), 5, 3, offset);
            if text.is_char_boundary(offset.min(text.len())) {
                assert_eq!(index.line_col(game, offset as u32), want, "{offset}");
                assert_eq!(LineIndex::direct().line_col(game, offset as u32), want);
                let upto = LineIndex::of_text(&text.as_bytes()[..(offset + 2).min(text.len())]);
                assert_eq!(upto.line_col(game, offset as u32), want, "{offset}");
            }
            assert_eq!(game.line_col(offset as u32), want, "{offset}");
            // The stream count agrees at every offset but between the CR and the LF of one
            // break, which it cannot tell from a lone CR (the reader never asks there: a game
            // starts at a byte that is no white space).
            if offset > 0 && text.as_bytes().get(offset) == Some(&b'\n') {
                continue;
            }
            let cell = Cell::new(LinePos {
                at: 0,
                line: 5,
                column: 3,
                prev_cr: false,
            });
            assert_eq!(
                LinePos::resolve(&cell, &text.as_bytes()[..offset.min(text.len())]),
                want,
                "{offset}"
            );
        }
        // One direct index asked in text order, then backwards, then in a shuffled order.
        let direct = LineIndex::direct();
        let mut order: Vec<usize> = (0..=text.len() + 2).collect();
        order.extend((0..=text.len() + 2).rev());
        order.extend((0..=text.len() + 2).map(|i| (i * 7) % (text.len() + 3)));
        for offset in order {
            if text.is_char_boundary(offset.min(text.len())) {
                let want = line_col(text.as_bytes(), 5, 3, offset);
                assert_eq!(direct.line_col(game, offset as u32), want, "{offset}");
            }
        }
        assert_eq!(line_col(text.as_bytes(), 5, 3, 4), (6, 1));
        assert_eq!(line_col(text.as_bytes(), 5, 3, 2), (5, 5));
    }

    #[test]
    fn long_lines_are_located_through_their_marks() {
        // Lines of several marks, characters of one to four bytes across the marks' places,
        // CR LF, lone CR and LF breaks, and a first line that starts in column 7.
        let mut text = String::new();
        let pieces = [
            ("a", 5000),
            ("é", 3001),
            ("€", 2000),
            ("𝄞", 1500),
            ("\r\n", 1),
            ("b", 9000),
            ("\r", 1),
            ("c", 4097),
            ("\n", 1),
        ];
        for (piece, n) in pieces {
            text.push_str(&piece.repeat(n));
        }
        let index = LineIndex::of_text(text.as_bytes());
        assert!(index.marks.len() > 5, "{} marks", index.marks.len());
        for offset in (0..=text.len()).filter(|&o| text.is_char_boundary(o)) {
            let want = line_col(text.as_bytes(), 3, 7, offset);
            assert_eq!(
                index.locate(text.as_bytes(), 3, 7, offset as u32),
                want,
                "{offset}"
            );
        }
    }
}
