//! UTF-16 files (as some Windows programs save them): recognised by their byte-order mark,
//! or by the NUL bytes that ASCII text has between its characters, and turned into UTF-8
//! as a stream, before the reader sees them.

use std::io::{self, Read};

use encoding_rs::{CoderResult, Decoder, UTF_16BE, UTF_16LE};

/// The byte order of a UTF-16 text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Utf16 {
    /// Little-endian (`FF FE`, Windows' "Unicode").
    Le,
    /// Big-endian (`FE FF`).
    Be,
}

/// Is `head` (the first bytes of a file) UTF-16? By its byte-order mark, else by the
/// shape of ASCII text in UTF-16: in the first 256 bytes (at least 16), three characters
/// in four have a NUL byte on the same side and none on the other, and the first one that
/// is no white space is `[` or a digit. Plain PDN (UTF-8, Latin-1) never has a NUL there.
pub fn detect(head: &[u8]) -> Option<Utf16> {
    if head.starts_with(&[0xFF, 0xFE]) {
        return Some(Utf16::Le);
    }
    if head.starts_with(&[0xFE, 0xFF]) {
        return Some(Utf16::Be);
    }
    let n = head.len().min(256) & !1;
    if n < 16 {
        return None;
    }
    // Without a byte-order mark, the text must also start as PDN does: white space, then a
    // tag pair or a move number (a text with NUL bytes inside is no PDN either way).
    let first = head[..n]
        .chunks_exact(2)
        .map(|p| if p[1] == 0 { p[0] } else { p[1] })
        .find(|b| !b.is_ascii_whitespace());
    if !first.is_some_and(|b| b == b'[' || b.is_ascii_digit()) {
        return None;
    }
    let pairs = head[..n].chunks_exact(2);
    let (mut le, mut be) = (0, 0);
    for p in pairs {
        match (p[0], p[1]) {
            (0, 0) => return None,
            (_, 0) => le += 1,
            (0, _) => be += 1,
            _ => {}
        }
    }
    // Mostly ASCII: three characters in four at least (Cyrillic or CJK text has no NUL).
    let enough = (n / 2) * 3 / 4;
    if le >= enough && be == 0 {
        Some(Utf16::Le)
    } else if be >= enough && le == 0 {
        Some(Utf16::Be)
    } else {
        None
    }
}

/// A UTF-16 source read as UTF-8 (the byte-order mark dropped, unpaired surrogates as
/// U+FFFD).
#[derive(Debug)]
pub struct Utf16Reader<R> {
    src: R,
    decoder: Decoder,
    raw: Vec<u8>,
    /// Raw bytes `raw[at..len]` not yet decoded.
    at: usize,
    len: usize,
    eof: bool,
    /// Decoded bytes `out[out_at..out_len]` not yet handed out.
    out: Vec<u8>,
    out_at: usize,
    out_len: usize,
    done: bool,
}

impl<R: Read> Utf16Reader<R> {
    /// `src`, a UTF-16 text in the byte order `order`.
    pub fn new(src: R, order: Utf16) -> Self {
        Self::with_prefix(src, order, Vec::new())
    }

    /// `src`, whose first bytes `head` were already read from it.
    pub fn with_prefix(src: R, order: Utf16, head: Vec<u8>) -> Self {
        let decoder = match order {
            Utf16::Le => UTF_16LE.new_decoder_with_bom_removal(),
            Utf16::Be => UTF_16BE.new_decoder_with_bom_removal(),
        };
        let len = head.len();
        let mut raw = head;
        raw.resize(len.max(32 * 1024), 0);
        Utf16Reader {
            src,
            decoder,
            raw,
            at: 0,
            len,
            eof: false,
            out: vec![0; 64 * 1024],
            out_at: 0,
            out_len: 0,
            done: false,
        }
    }

    /// Decode more into `out` (which is empty); false at the end.
    fn fill(&mut self) -> io::Result<bool> {
        loop {
            if self.done {
                return Ok(false);
            }
            if self.at == self.len && !self.eof {
                self.at = 0;
                self.len = 0;
                loop {
                    match self.src.read(&mut self.raw) {
                        Ok(0) => self.eof = true,
                        Ok(n) => self.len = n.min(self.raw.len()),
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(e),
                    }
                    break;
                }
            }
            let (result, read, written, _) =
                self.decoder
                    .decode_to_utf8(&self.raw[self.at..self.len], &mut self.out, self.eof);
            self.at += read;
            self.out_at = 0;
            self.out_len = written;
            if self.eof && result == CoderResult::InputEmpty {
                // The decoder has finished: it must not be called again.
                self.done = true;
            }
            if written > 0 {
                return Ok(true);
            }
        }
    }
}

impl<R> Utf16Reader<R> {
    /// The source back.
    pub fn into_inner(self) -> R {
        self.src
    }
}

impl<R: Read> Read for Utf16Reader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        if self.out_at == self.out_len && !self.fill()? {
            return Ok(0);
        }
        let n = (self.out_len - self.out_at).min(buf.len());
        buf[..n].copy_from_slice(&self.out[self.out_at..self.out_at + n]);
        self.out_at += n;
        Ok(n)
    }
}

/// A byte source that turns into a UTF-16 decoder when its first bytes show UTF-16 (the
/// reader's and the piece cutter's source).
#[derive(Debug)]
pub(crate) enum Source<R> {
    /// As given.
    Plain(R),
    /// Through a decoder.
    Utf16(Utf16Reader<R>),
    /// Only while the source moves from one to the other.
    Moving,
}

impl<R: Read> Source<R> {
    /// The first bytes of a plain source were `head` (already taken from it): if they are
    /// UTF-16, read from here on through a decoder that starts with them, and return true
    /// (the caller drops `head` and reads again).
    pub(crate) fn switch_if_utf16(&mut self, head: &[u8]) -> bool {
        let Some(order) = detect(head) else {
            return false;
        };
        match std::mem::replace(self, Source::Moving) {
            Source::Plain(r) => {
                *self = Source::Utf16(Utf16Reader::with_prefix(r, order, head.to_vec()));
                true
            }
            other => {
                *self = other;
                false
            }
        }
    }
}

impl<R> Source<R> {
    /// The source back.
    pub(crate) fn into_inner(self) -> R {
        match self {
            Source::Plain(r) => r,
            Source::Utf16(r) => r.into_inner(),
            Source::Moving => unreachable!("the source only moves inside switch_if_utf16"),
        }
    }
}

impl<R: Read> Read for Source<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Source::Plain(r) => r.read(buf),
            Source::Utf16(r) => r.read(buf),
            Source::Moving => Ok(0),
        }
    }
}

/// `bytes` as UTF-8 if they are UTF-16 (see [`detect`]), else `None`.
pub fn decode(bytes: &[u8]) -> Option<Vec<u8>> {
    let order = detect(bytes)?;
    let mut out = Vec::with_capacity(bytes.len());
    Utf16Reader::new(bytes, order)
        .read_to_end(&mut out)
        .expect("reading from memory cannot fail");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16le(s: &str, bom: bool) -> Vec<u8> {
        let mut v = if bom { vec![0xFF, 0xFE] } else { Vec::new() };
        for u in s.encode_utf16() {
            v.extend_from_slice(&u.to_le_bytes());
        }
        v
    }

    #[test]
    fn detected_and_decoded() {
        let text = "[Event \"Événement\"]\n1. 32-28 19-23 *\n";
        for bom in [true, false] {
            let b = utf16le(text, bom);
            assert_eq!(detect(&b), Some(Utf16::Le));
            assert_eq!(decode(&b).unwrap(), text.as_bytes());
            // Through a reader handing out one byte at a time.
            let mut out = Vec::new();
            let mut r = Utf16Reader::new(&b[..], Utf16::Le);
            let mut one = [0u8; 1];
            while r.read(&mut one).unwrap() == 1 {
                out.push(one[0]);
            }
            assert_eq!(out, text.as_bytes());
        }
        let be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(detect(&be), Some(Utf16::Be));
        assert_eq!(decode(&be).unwrap(), text.as_bytes());
        assert_eq!(detect(text.as_bytes()), None);
        assert_eq!(detect(b"[Event \"x\"]\0\0 binary"), None);
        // What the writer makes of a game of NUL-separated garbage: a comment.
        assert_eq!(detect(b"{\x004\x001\x001\x00x\x002\x00} *"), None);
    }
}
