//! A game's output written as it goes: once the text of one game passes [`SPILL_AT`] bytes,
//! what is written goes to an anonymous temporary file in pieces ([`Spill`], a [`Drain`] of
//! the writers), so that a huge game's JSON or PDN is never held whole in memory. The
//! finished [`Text`] is copied out in order by whoever writes the outputs.
//!
//! The temporary file is made by `tempfile::tempfile` (in `$TMPDIR`, removed by the system
//! when closed: nothing is left behind, whatever ends the run). An ordinary game never
//! reaches the limit and stays in memory. A failure to write the temporary file is kept and
//! returned where the text is written out ([`Text::write_to`]): the output then fails as on
//! a full disk, nothing is lost silently.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};

pub use crate::syntax::Drain;

/// The size of a game's text (bytes) from which it goes to a temporary file as it is
/// written: a few hundred games of the usual length.
pub const SPILL_AT: usize = 1 << 20;

/// The [`Drain`] of one game's text: what the writer hands over goes to a temporary file
/// (made at the first hand-over).
#[derive(Debug)]
pub struct Spill {
    at: usize,
    file: Option<File>,
    /// Bytes in the file.
    len: u64,
    /// The first failure to make or write the file (nothing is written after it).
    error: Option<io::Error>,
}

impl Default for Spill {
    fn default() -> Self {
        Spill::new(SPILL_AT)
    }
}

impl Spill {
    /// A spill that takes the text each time it reaches `at` bytes.
    pub fn new(at: usize) -> Spill {
        Spill {
            at: at.max(1),
            file: None,
            len: 0,
            error: None,
        }
    }

    /// The whole text: what went to the file, then `rest` (what the writer holds at the end).
    pub fn finish(self, rest: String) -> Text {
        self.finish_bytes(rest.into_bytes())
    }

    /// [`Spill::finish`] of bytes.
    fn finish_bytes(self, rest: Vec<u8>) -> Text {
        Text {
            file: self.file,
            len: self.len,
            tail: rest,
            error: self.error,
        }
    }

    /// Put `out` in the file; false if it is kept (no temporary file could be made: the text
    /// stays in memory).
    fn put(&mut self, out: &[u8]) -> bool {
        if self.error.is_some() || out.is_empty() {
            return true;
        }
        if self.file.is_none() {
            match tempfile::tempfile() {
                Ok(f) => self.file = Some(f),
                Err(_) => {
                    // No temporary file: the text is kept in memory instead (whole, as
                    // before spilling existed).
                    self.at = usize::MAX;
                    return false;
                }
            }
        }
        let Some(f) = self.file.as_mut() else {
            return false;
        };
        match f.write_all(out) {
            Ok(()) => self.len += out.len() as u64,
            // The file holds an unknown part of `out`: the text cannot be whole.
            Err(e) => self.error = Some(e),
        }
        true
    }
}

impl Drain for Spill {
    fn at(&self) -> usize {
        self.at
    }

    fn take(&mut self, out: &mut String) {
        if self.put(out.as_bytes()) {
            out.clear();
        }
    }
}

/// A [`Spill`] behind `io::Write`, for the writers that write bytes (the CSV of the plies): what
/// is written stays in memory until it reaches the spill's size, then goes to its file.
#[derive(Debug, Default)]
pub struct SpillWriter {
    buf: Vec<u8>,
    spill: Spill,
}

impl SpillWriter {
    /// A writer into `spill`, `buf` (empty) its buffer in memory.
    pub fn new(spill: Spill, buf: Vec<u8>) -> SpillWriter {
        SpillWriter { buf, spill }
    }

    /// The whole text written.
    pub fn finish(self) -> Text {
        self.spill.finish_bytes(self.buf)
    }
}

impl Write for SpillWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= self.spill.at && self.spill.put(&self.buf) {
            self.buf.clear();
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The text of a game: in memory, or a temporary file followed by the text in memory.
#[derive(Debug, Default)]
pub struct Text {
    file: Option<File>,
    len: u64,
    tail: Vec<u8>,
    error: Option<io::Error>,
}

impl From<Vec<u8>> for Text {
    fn from(tail: Vec<u8>) -> Text {
        Text {
            tail,
            ..Text::default()
        }
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::from(s.into_bytes())
    }
}

impl Text {
    /// Its size in bytes.
    pub fn len(&self) -> u64 {
        self.len + self.tail.len() as u64
    }

    /// True if it is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True if part of it is in a temporary file.
    pub fn spilled(&self) -> bool {
        self.file.is_some()
    }

    /// The text as a string (read back from the temporary file if it went there; an
    /// invalid sequence replaced, as none is written; empty if the file could not be
    /// written or read).
    pub fn into_string(mut self) -> String {
        if self.file.is_none() && self.error.is_none() {
            return String::from_utf8(self.tail)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        }
        let mut bytes = Vec::new();
        if self
            .reader()
            .and_then(|mut r| r.read_to_end(&mut bytes))
            .is_err()
        {
            return String::new();
        }
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// The text, if it is all in memory.
    pub fn in_memory(&self) -> Option<&[u8]> {
        (self.file.is_none() && self.error.is_none()).then_some(&self.tail[..])
    }

    /// The text as it was written, from its start (the temporary file read from its start).
    /// Fails if the temporary file could not be written.
    pub fn reader(&mut self) -> io::Result<impl Read + '_> {
        if let Some(e) = &self.error {
            return Err(failed(e));
        }
        let file: Box<dyn Read + '_> = match self.file.as_mut() {
            Some(f) => {
                f.seek(SeekFrom::Start(0))?;
                Box::new(io::BufReader::with_capacity(64 * 1024, f.take(self.len)))
            }
            None => Box::new(io::empty()),
        };
        Ok(file.chain(&self.tail[..]))
    }

    /// Write it all to `out`.
    pub fn write_to(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.file.is_some() {
            io::copy(&mut self.reader()?, out)?;
            return Ok(());
        }
        if let Some(e) = &self.error {
            return Err(failed(e));
        }
        out.write_all(&self.tail)
    }
}

/// A failure to write the temporary file, as the error of the output it was for.
fn failed(e: &io::Error) -> io::Error {
    io::Error::new(
        e.kind(),
        format!("a temporary file for the text of a long game could not be written: {e}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::fix::Fixed;

    /// Write `pieces` through a spill of limit `at`, as a writer does: each piece appended,
    /// then handed over when the text reaches the limit.
    fn through(at: usize, pieces: &[&str]) -> Text {
        let mut spill = Spill::new(at);
        let mut out = String::new();
        for p in pieces {
            out.push_str(p);
            if out.len() >= spill.at() {
                spill.take(&mut out);
            }
        }
        spill.finish(out)
    }

    #[test]
    fn a_long_text_goes_to_a_file_in_order() {
        let pieces: Vec<String> = (0..1000).map(|i| format!("{i},")).collect();
        let refs: Vec<&str> = pieces.iter().map(String::as_str).collect();
        let whole = pieces.concat();
        let mut t = through(64, &refs);
        assert!(t.spilled());
        assert!(t.in_memory().is_none());
        assert_eq!(t.len(), whole.len() as u64);
        // What stays in memory is less than the limit plus one piece.
        assert!(t.tail.len() < 64 + 4);
        let mut out = Vec::new();
        t.write_to(&mut out).unwrap();
        assert_eq!(out, whole.as_bytes());
        // Read again: the same (the file is read from its start each time).
        let mut again = String::new();
        t.reader().unwrap().read_to_string(&mut again).unwrap();
        assert_eq!(again, whole);
    }

    #[test]
    fn bytes_written_go_to_the_file_in_order() {
        let whole: Vec<u8> = (0..5000u32)
            .flat_map(|i| format!("{i},").into_bytes())
            .collect();
        let mut w = SpillWriter::new(Spill::new(100), Vec::new());
        for piece in whole.chunks(7) {
            w.write_all(piece).unwrap();
        }
        assert!(w.buf.len() < 100);
        let mut t = w.finish();
        assert!(t.spilled());
        let mut out = Vec::new();
        t.write_to(&mut out).unwrap();
        assert_eq!(out, whole);
        // Below the size, all in memory.
        let mut w = SpillWriter::new(Spill::new(1 << 20), Vec::new());
        w.write_all(b"a,b\n").unwrap();
        assert_eq!(w.finish().in_memory(), Some(&b"a,b\n"[..]));
    }

    #[test]
    fn a_short_text_stays_in_memory() {
        let mut t = through(1 << 20, &["[Event \"x\"]\n", "1. 32-28 *\n"]);
        assert!(!t.spilled());
        assert_eq!(t.in_memory(), Some(&b"[Event \"x\"]\n1. 32-28 *\n"[..]));
        let mut out = Vec::new();
        t.write_to(&mut out).unwrap();
        assert_eq!(out, b"[Event \"x\"]\n1. 32-28 *\n");
        assert_eq!(Text::from(String::new()).len(), 0);
    }

    /// A game with tags, comments, NAGs, a setup, nested variations and a syntax error.
    const GAME: &str = "[Event \"a \\\"b\\\"\"]\n[Site \"x\"]\n[Round \"1\"]\n\
        1. 32-28 {a comment} 19-23 $1 (18-23 2. 37-32 (2. 33-29) 12-18) 2. 28x19 14x23 \
        3. 37-32 {b} 10-14 4. 41-37 ) 5-10 5. 46-41 *\n\n\
        [Event \"two\"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 2-0\n";

    #[test]
    fn the_writers_hand_over_the_same_text_as_they_write_in_memory() {
        use crate::app::fix::{FixOptions, fix, fix_to};
        use crate::app::write::export::{ExportOptions, analyse, json, manoury, pdn};
        let games = crate::syntax::read_games(GAME.as_bytes());
        assert_eq!(games.len(), 2);
        for game in &games {
            let a = analyse(game, &ExportOptions::default());
            for at in [1, 7, 64] {
                let mut whole = String::new();
                json::write(&a, "f.pdn", &mut whole);
                let mut spill = Spill::new(at);
                let mut rest = String::new();
                json::write_to(&a, "f.pdn", &mut rest, &mut spill);
                // (Handed over as it grew: what is left is less than the limit and a move.)
                assert!(rest.len() < at + 400, "{}", rest.len());
                let t = spill.finish(rest);
                assert!(t.spilled());
                assert_eq!(t.into_string(), whole);

                let mut whole = String::new();
                manoury::write(&a, &mut whole);
                let mut spill = Spill::new(at);
                let mut rest = String::new();
                manoury::write_to(&a, &mut rest, &mut spill);
                assert!(rest.len() < at + 400, "{}", rest.len());
                assert_eq!(spill.finish(rest).into_string(), whole);

                let mut whole = String::new();
                pdn::write(&a, &mut whole);
                let mut spill = Spill::new(at);
                let mut rest = String::new();
                pdn::write_to(&a, &mut rest, &mut spill);
                assert_eq!(spill.finish(rest).into_string(), whole);

                let opts = FixOptions::default();
                let in_memory = fix(game.clone(), &opts);
                let (fixed, text) = fix_to(game.clone(), &opts, Spill::new(at));
                assert!(text.spilled());
                assert_eq!(text.into_string(), in_memory.text);
                assert_eq!(
                    Fixed {
                        text: in_memory.text.clone(),
                        ..fixed
                    },
                    in_memory
                );
            }
        }
    }

    #[test]
    fn a_failed_temporary_file_fails_the_output() {
        let mut t = through(4, &["abcd", "efgh"]);
        // As if the disk had filled.
        t.error = Some(io::Error::other("disk full"));
        let e = t.write_to(&mut Vec::new()).unwrap_err();
        assert!(e.to_string().contains("long game"), "{e}");
        assert!(t.reader().is_err());
    }
}
