//! The fast paths of the grammar: the commonest tokens (plain tag pairs, short comments, move
//! numbers, moves and long captures) read from byte classes and 64-bit words without the
//! general dispatch, to the same result; the agreement tests (corpus and random input) that
//! hold them to it live here beside them.

use memchr::memchr3;

use super::{LOOKAHEAD, P, Sink, sp};
use crate::syntax::game::{CommentKind, MoveKind, MoveNumber, Square, ToleratedKind};
use crate::syntax::squares::Squares;
use crate::syntax::token::{self, is_ws};

/// White space.
const WS: u8 = 1;
/// Continues a move after spaces (`32 - 28`, `35 x 19`): `-`, `x`, `X`, `:` and the first
/// bytes of `×` (and of other characters the general path looks at).
const JOIN: u8 = 2;
/// Ends a move written right before it: a line break or a delimiter.
const ENDS_MOVE: u8 = 4;

/// Ends the short-comment scan of [`P::brace_comment`]: `}`, `{`, a line feed.
pub(super) const IN_COMMENT: u8 = 8;
/// Continues a PDN identifier after its first letter: `[a-zA-Z0-9_]`.
const IDENT: u8 = 16;

/// What [`P::fast_run`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Fast {
    /// Nothing: the token at `pos` goes the general way.
    Nothing,
    /// Read tokens; the next one is at `pos`.
    Read,
    /// Read tokens up to a result that ends the game.
    Ended,
}

/// What one token of [`P::fast_run`] gave.
#[derive(Clone, Copy)]
enum Step {
    /// Read; the next token starts here.
    Next(usize),
    /// Not read: the token goes the general way.
    Stop,
    /// A result that ends the game was read.
    Ended,
}

impl Step {
    /// A token read up to `next`, if any.
    #[inline(always)]
    fn or_stop(next: Option<usize>) -> Step {
        next.map_or(Step::Stop, Step::Next)
    }
}

/// Byte classes for the fast paths.
static CLASSES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        if is_ws(b) {
            t[i] |= WS;
        }
        if matches!(b, b'-' | b'x' | b'X' | b':' | 0xC3 | 0xD7) {
            t[i] |= JOIN;
        }
        if matches!(b, b'\n' | b'\r' | b'{' | b')' | b'$' | b'%' | b';' | b'[') {
            t[i] |= ENDS_MOVE;
        }
        if matches!(b, b'}' | b'{' | b'\n') {
            t[i] |= IN_COMMENT;
        }
        if b.is_ascii_alphanumeric() || b == b'_' {
            t[i] |= IDENT;
        }
        i += 1;
    }
    t
};

#[inline(always)]
pub(super) fn class(b: u8) -> u8 {
    CLASSES[usize::from(b)]
}

/// The first byte from `p` that is not white space (`s.len()` if none).
#[inline(always)]
fn skip_ws(s: &[u8], mut p: usize) -> usize {
    while p < s.len() && class(s[p]) & WS != 0 {
        p += 1;
    }
    p
}

/// A move of the fast path ends at `e`, with at least 8 more bytes in `s`: where the next
/// token starts if what follows plainly ends the move (white space, then not something
/// that continues a move such as `32 - 28`; or a line break or a delimiter), `None`
/// otherwise.
#[inline(always)]
fn after_move(s: &[u8], e: usize) -> Option<usize> {
    let t = s[e];
    if t == b' ' && class(s[e + 1]) & (WS | JOIN) == 0 {
        // `32-28 19-23`
        return Some(e + 1);
    }
    // Reading goes on past the spaces looked at.
    let resume = match t {
        b' ' | b'\t' => {
            let mut q = e + 1;
            while q < s.len() && (s[q] == b' ' || s[q] == b'\t') {
                q += 1;
            }
            if q >= s.len() || class(s[q]) & JOIN != 0 {
                return None;
            }
            q
        }
        c if class(c) & ENDS_MOVE != 0 => e,
        _ => return None,
    };
    Some(skip_ws(s, resume))
}

/// The first eight bytes of a token as one word, for the digit shapes of the fast path.
#[derive(Clone, Copy)]
struct Word {
    /// Each byte minus `0`.
    x: u64,
    /// The high bit of each byte that is not a digit.
    other: u64,
}

impl Word {
    const H: u64 = 0x8080_8080_8080_8080;

    #[inline(always)]
    fn new(b: &[u8; 16]) -> Word {
        let (head, _) = b.split_first_chunk::<8>().expect("16 bytes hold 8");
        let w = u64::from_le_bytes(*head);
        let x = w ^ 0x3030_3030_3030_3030;
        // A digit byte has its high bit clear in `x` and in `x - 10`.
        let t = (x | Self::H) - 0x0A0A_0A0A_0A0A_0A0A;
        Word {
            x,
            other: (t | x) & Self::H,
        }
    }

    /// The high bit of each byte equal to `c`.
    #[inline(always)]
    fn bytes_equal(self, c: u8) -> u64 {
        const M: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        let v = self.x ^ (0x0101_0101_0101_0101 * u64::from(c ^ b'0'));
        // A byte is zero when neither its high bit nor the carry out of its low bits is set.
        !((((v & M) + M) | v) | M)
    }

    /// For a word starting with `{`: where its first `}` is, if no `{` or line feed comes
    /// before it (the short comments that [`P::brace_comment`] reads the same way).
    #[inline(always)]
    fn comment_end(self) -> Option<usize> {
        let close = self.bytes_equal(b'}');
        let stop = (close | self.bytes_equal(b'{') | self.bytes_equal(b'\n')) & !0xFF;
        let k = stop.trailing_zeros();
        (k < 64 && close >> k & 1 != 0).then_some((k >> 3) as usize)
    }

    /// Where the first byte that is not a digit is (8 if none).
    #[inline(always)]
    fn first_other(self) -> usize {
        (self.other.trailing_zeros() >> 3) as usize
    }

    /// Where the second byte that is not a digit is (8 if none).
    #[inline(always)]
    fn second_other(self) -> usize {
        ((self.other & self.other.wrapping_sub(1)).trailing_zeros() >> 3) as usize
    }

    /// The value of the `n` (1 or 2) digits at byte `at` (below 7).
    #[inline(always)]
    fn square(self, at: usize, n: usize) -> u32 {
        let y = self.x >> (8 * at);
        let d = |v: u64| (v & 0xFF) as u32;
        if n == 2 { d(y) * 10 + d(y >> 8) } else { d(y) }
    }
}

/// One or two digits at the start of `b` that are not followed by a third: (value, count);
/// count 0 otherwise.
#[inline]
fn two_digits(b: &[u8]) -> (u32, usize) {
    let digit = |i: usize| b.get(i).map_or(u8::MAX, |c| c.wrapping_sub(b'0'));
    let d1 = digit(0);
    if d1 > 9 {
        return (0, 0);
    }
    let d2 = digit(1);
    if d2 > 9 {
        return (u32::from(d1), 1);
    }
    if digit(2) <= 9 {
        return (0, 0);
    }
    (u32::from(d1) * 10 + u32::from(d2), 2)
}

/// A capture through more than two squares at `p`, whose first square (`v1`, of `n1`
/// digits) is followed by `x`: the squares, where it ends, whether a later square has a
/// leading zero. `None` for anything the fast path does not read (a square of three digits
/// or zero; less than 8 bytes left after a square).
fn long_capture(s: &[u8], p: usize, v1: u32, n1: usize) -> Option<(Squares, usize, bool)> {
    let mut squares = Squares::new();
    squares.push(Square::Num(v1));
    let mut lz = false;
    let mut p = p + n1;
    loop {
        let (v, n) = two_digits(&s[p + 1..]);
        if n == 0 || v == 0 || p + 1 + n + 8 > s.len() {
            return None;
        }
        lz |= n > 1 && s[p + 1] == b'0';
        squares.push(Square::Num(v));
        p += 1 + n;
        if s[p] != b'x' {
            return Some((squares, p, lz));
        }
    }
}

impl<'a, S: Sink> P<'a, S> {
    /// The plain tag pair `[Name "value"]` at `start` (an identifier, one space, a value
    /// without a backslash or a line break, `]` right after the closing quote), read the way
    /// [`P::tag_pair`] reads it: true if it was, false with nothing read otherwise. Every
    /// byte it looks at is inside the slice, so the answer does not depend on where the
    /// slice ends.
    #[inline]
    pub(super) fn fast_tag(&mut self, start: usize) -> bool {
        let s = self.s;
        let name_start = start + 1;
        if !s.get(name_start).is_some_and(u8::is_ascii_uppercase) {
            return false;
        }
        let mut p = name_start + 1;
        while p < s.len() && class(s[p]) & IDENT != 0 {
            p += 1;
        }
        if s.get(p..p + 2) != Some(b" \"") {
            return false;
        }
        let vstart = p + 2;
        let Some(k) = memchr3(b'"', b'\\', b'\n', &s[vstart..]) else {
            return false;
        };
        let vend = vstart + k;
        if s[vend] != b'"' || s.get(vend + 1) != Some(&b']') {
            return false;
        }
        let (name, value) = (&s[name_start..p], &s[vstart..vend]);
        self.emit_tag(name, value, false, start, vend + 2);
        true
    }

    /// The commonest movetext tokens, read in one loop without the dispatch of [`P::run`]:
    /// move numbers `12.` and `12...`, moves `32-28` and captures `32x28x19` (squares of one
    /// or two digits), each followed by white space or by a delimiter that cannot continue
    /// it, and the white space after them. It stops, with `pos` at the next token, at any
    /// other token (or a form it leaves to [`P::number_led`], which reads all of these the
    /// same way: a unit test compares both on the corpus and on random input) and when fewer
    /// than [`LOOKAHEAD`] bytes are left before the end of the slice (the check the dispatch
    /// makes before each token), or 16 before the end of the file. Returns whether it read a
    /// token.
    ///
    /// Each token is taken from one 64-bit word: where its first two bytes that are not
    /// digits are gives its shape, and the commonest continuations (a space, then a digit)
    /// are tested first.
    #[inline(never)]
    pub(super) fn fast_run(&mut self) -> Fast {
        let s = self.s;
        let first = self.pos;
        let need = if self.eof { 16 } else { LOOKAHEAD };
        let movelike_result = self.result_tag_movelike;
        let mut p = first;
        while s.len() - p >= need {
            let Some(b) = s[p..].first_chunk::<16>() else {
                break;
            };
            let w = Word::new(b);
            // The commonest token, `32-28 ` or `24x33 ` before the next one, is tested
            // first: its length is a constant here, so that the next token's address does
            // not wait for this one's digits to be found.
            // (Written with `&`: LLVM orders the tests better than with `&&`, 1.03x; folding
            // them into one word for a single branch was 0.90x.)
            let sep = b[2];
            if (w.other & 0x8080_8080_8080 == 0x8000_0080_0000)
                & (b[5] == b' ')
                & (b[0] != b'0')
                & (b[3] != b'0')
                & (class(b[6]) & (WS | JOIN) == 0)
                & ((sep == b'x') | ((sep == b'-') & !movelike_result))
            {
                let kind = if sep == b'x' {
                    MoveKind::Capture('x')
                } else {
                    MoveKind::Normal
                };
                self.emit_pair(w.square(0, 2), w.square(3, 2), kind, sp(p, p + 5));
                p += 6;
                continue;
            }
            let n1 = w.first_other();
            if n1.wrapping_sub(1) > 1 {
                if n1 == 0 && b[0] == b'{' {
                    // A short comment on one line (`{-40}`), as `brace_comment` reads it.
                    let Some(k) = w.comment_end() else {
                        break;
                    };
                    self.push_comment(p + 1..p + k, CommentKind::Brace, p, p + k + 1);
                    p = skip_ws(s, p + k + 1);
                    continue;
                }
                if n1 == 0 && b[0].is_ascii_lowercase() {
                    match self.fast_alpha(b, p) {
                        Some(next) => {
                            p = next;
                            continue;
                        }
                        None => break,
                    }
                }
                break;
            }
            let step = if b[n1] == b'.' {
                self.fast_number(b, w, p, n1)
            } else {
                self.fast_move(b, w, p, n1, movelike_result)
            };
            match step {
                Step::Next(next) => p = next,
                Step::Stop => break,
                Step::Ended => return Fast::Ended,
            }
        }
        self.pos = p;
        if p == first {
            Fast::Nothing
        } else {
            Fast::Read
        }
    }

    /// A move number at `p` (`12.`, `12...`, its `n1` digits then `.`), for
    /// [`P::fast_run`]: read as [`P::number_led`] reads it.
    #[inline(always)]
    fn fast_number(&mut self, b: &[u8; 16], w: Word, p: usize, n1: usize) -> Step {
        let s = self.s;
        // `12. 32-28` and `12.32-28` at fixed offsets (see `fast_run`).
        if n1 == 2 && b[0] != b'0' {
            let glued = b[3].is_ascii_digit();
            if glued | ((b[3] == b' ') & b[4].is_ascii_digit()) {
                self.set_number(MoveNumber {
                    number: w.square(0, 2),
                    second_player: false,
                    span: sp(p, p + 3),
                });
                return Step::Next(p + if glued { 3 } else { 4 });
            }
        }
        let number = w.square(0, n1);
        if number == 0 {
            return Step::Stop;
        }
        let (end, next) = if b[n1 + 1].is_ascii_digit() {
            // `12.32-28`
            (p + n1 + 1, p + n1 + 1)
        } else if b[n1 + 1] == b' ' && b[n1 + 2].is_ascii_digit() {
            // `12. 32-28`
            (p + n1 + 1, p + n1 + 2)
        } else if b[n1 + 1] == b'.' {
            if b[n1 + 2] != b'.' || b[n1 + 3] == b'.' {
                return Step::Stop;
            }
            let end = p + n1 + 3;
            (end, skip_ws(s, end))
        } else {
            let end = p + n1 + 1;
            let q = skip_ws(s, end);
            // `12. ...` goes the general way.
            if q >= s.len() || (q > end && s[q] == b'.') {
                return Step::Stop;
            }
            (end, q)
        };
        if n1 == 2 && number < 10 {
            self.note(ToleratedKind::LeadingZeros, sp(p, end));
        }
        self.set_number(MoveNumber {
            number,
            second_player: end - p == n1 + 3,
            span: sp(p, end),
        });
        Step::Next(next)
    }

    /// A move or capture at `p` whose first square has `n1` digits, for [`P::fast_run`]
    /// (the second byte that is not a digit ends it): read as [`P::move_token`] reads it,
    /// or the result that looks like a move.
    #[inline(always)]
    fn fast_move(
        &mut self,
        b: &[u8; 16],
        w: Word,
        p: usize,
        n1: usize,
        movelike_result: bool,
    ) -> Step {
        let len = w.second_other();
        let n2 = len.wrapping_sub(n1 + 1);
        if n2.wrapping_sub(1) > 1 {
            if n2 == 0 && b[len] == b' ' {
                // `4- 9`, `15x 4`: the second square padded to two columns.
                return Step::or_stop(self.fast_padded(b, p, n1, w.square(0, n1), movelike_result));
            }
            return Step::Stop;
        }
        let c = b[n1];
        let capture = c == b'x';
        if !capture && c != b'-' {
            return Step::Stop;
        }
        let from = w.square(0, n1);
        let to = w.square(n1 + 1, n2);
        if from == 0 || to == 0 {
            return self.fast_result_step(b, p, len, capture);
        }
        if capture && b[len] == b'x' {
            return Step::or_stop(self.fast_long_capture(p, from, n1));
        }
        if !capture && (movelike_result || (len == 3 && from == 1 && to == 1)) {
            return self.fast_result_step(b, p, len, capture);
        }
        let e = p + len;
        let Some(next) = after_move(self.s, e) else {
            return Step::Stop;
        };
        if (n1 == 2 && from < 10) || (n2 == 2 && to < 10) {
            self.note(ToleratedKind::LeadingZeros, sp(p, e));
        }
        let kind = if capture {
            MoveKind::Capture('x')
        } else {
            MoveKind::Normal
        };
        self.emit_pair(from, to, kind, sp(p, e));
        Step::Next(next)
    }

    /// [`P::fast_result`] as a step of [`P::fast_run`]: the game ended, or the general way.
    #[inline(always)]
    fn fast_result_step(&mut self, b: &[u8; 16], p: usize, len: usize, capture: bool) -> Step {
        if self.fast_result(b, p, len, capture) {
            Step::Ended
        } else {
            Step::Stop
        }
    }

    /// The result `2-0`, `1-1` or `0-2` (or `1-0`, `0-1`, `0-0`) at `p`, the token being
    /// `len` bytes long, if it ends the main line right before a line break or `[`: read as
    /// [`P::move_token`] reads it (nothing can follow it on its line); true if read.
    #[cold]
    #[inline(never)]
    fn fast_result(&mut self, b: &[u8; 16], p: usize, len: usize, capture: bool) -> bool {
        if len != 3
            || capture
            || !self.stack.is_empty()
            || self.is_stray_terminator(p)
            || !matches!(b[3], b'\n' | b'\r' | b'[')
            || !token::standard_numeric_result(&b[..1], &b[2..3])
        {
            return false;
        }
        self.result_here(p, p + 3, false, false)
    }

    /// `4- 9` or `15x 4` at `p` (the first square of `n1` digits, worth `from`; one space
    /// after the separator, then one digit), for [`P::fast_run`]: read as
    /// [`P::move_token`] reads it; where the next token starts, or `None` with nothing read.
    #[cold]
    #[inline(never)]
    fn fast_padded(
        &mut self,
        b: &[u8; 16],
        p: usize,
        n1: usize,
        from: u32,
        movelike_result: bool,
    ) -> Option<usize> {
        let capture = b[n1] == b'x';
        let d = b[n1 + 2];
        if !(capture || b[n1] == b'-') || !d.is_ascii_digit() || b[n1 + 3].is_ascii_digit() {
            return None;
        }
        let to = u32::from(d - b'0');
        // Zero squares, and `1- 1` (a result), go the general way.
        if from == 0 || to == 0 || (!capture && (movelike_result || (from == 1 && to == 1))) {
            return None;
        }
        let e = p + n1 + 3;
        let next = after_move(self.s, e)?;
        self.note(ToleratedKind::SpacesInMove, sp(p, e));
        if n1 == 2 && from < 10 {
            self.note(ToleratedKind::LeadingZeros, sp(p, e));
        }
        let kind = if capture {
            MoveKind::Capture('x')
        } else {
            MoveKind::Normal
        };
        self.emit_pair(from, to, kind, sp(p, e));
        Some(next)
    }

    /// The capture of three squares or more at `p` (`from` of `n1` digits, then `x`), for
    /// [`P::fast_run`]: where the next token starts, or `None` with nothing read.
    #[cold]
    #[inline(never)]
    fn fast_long_capture(&mut self, p: usize, from: u32, n1: usize) -> Option<usize> {
        let (squares, e, lz) = long_capture(self.s, p, from, n1)?;
        let next = after_move(self.s, e)?;
        if lz || (n1 == 2 && from < 10) {
            self.note(ToleratedKind::LeadingZeros, sp(p, e));
        }
        self.emit_move(squares, MoveKind::Capture('x'), None, sp(p, e));
        Some(next)
    }

    /// The algebraic move `c3-d4` or `c3xd4` at `p` (lower-case files, ranks of one digit),
    /// for [`P::fast_run`]: where the next token starts, or `None` with nothing read if the
    /// token has another form or what follows it does not plainly end it.
    #[inline]
    fn fast_alpha(&mut self, b: &[u8; 16], p: usize) -> Option<usize> {
        let rank = |c: u8| matches!(c, b'1'..=b'9');
        let sep = b[2];
        if !(rank(b[1])
            && (sep == b'-' || sep == b'x')
            && b[3].is_ascii_lowercase()
            && rank(b[4])
            && !b[5].is_ascii_digit())
        {
            return None;
        }
        let next = after_move(self.s, p + 5)?;
        let square = |file: u8, rank: u8| Square::Alg {
            file: file - b'a',
            rank: rank - b'1',
        };
        let kind = if sep == b'x' {
            MoveKind::Capture('x')
        } else {
            MoveKind::Normal
        };
        let squares = Squares::pair(square(b[0], b[1]), square(b[3], b[4]));
        self.emit_move(squares, kind, None, sp(p, p + 5));
        Some(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::grammar::sink::parse_with;

    /// Parse every game of `bytes` with and without the fast path; they must agree.
    fn agree(bytes: &[u8]) {
        let mut at = 0;
        while at < bytes.len() {
            while at < bytes.len() && is_ws(bytes[at]) {
                at += 1;
            }
            if at == bytes.len() {
                break;
            }
            let s = &bytes[at..];
            let mut scratch = Vec::new();
            let (Ok(a), Ok(b)) = (
                parse_with(s, true, true, &mut scratch),
                parse_with(s, true, false, &mut Vec::new()),
            ) else {
                panic!("a parse with eof asked for more");
            };
            assert_eq!(a.game, b.game, "at byte {at}");
            assert_eq!(
                (a.consumed, a.source_end, a.utf8_ok, a.end),
                (b.consumed, b.source_end, b.utf8_ok, b.end)
            );
            at += a.consumed.max(1);
        }
    }

    #[test]
    fn word_shapes() {
        let w = |t: &str| {
            let mut b = [b' '; 16];
            b[..t.len()].copy_from_slice(t.as_bytes());
            let w = Word::new(&b);
            (w.first_other(), w.second_other())
        };
        assert_eq!(w("32-28 "), (2, 5));
        assert_eq!(w("9x18\n"), (1, 4));
        assert_eq!(w("12.32-28"), (2, 5));
        assert_eq!(w("c3-d4"), (0, 2));
        assert_eq!(w("12345678"), (8, 8));
        assert_eq!(w("1234567-"), (7, 8));
        let mut b = [b' '; 16];
        b[..5].copy_from_slice(b"09-13");
        let w = Word::new(&b);
        assert_eq!((w.square(0, 2), w.square(3, 2), w.square(4, 1)), (9, 13, 3));
        let c = |t: &[u8]| {
            let mut b = [b' '; 16];
            b[..t.len()].copy_from_slice(t);
            Word::new(&b).comment_end()
        };
        assert_eq!(c(b"{-40} 12-17"), Some(4));
        assert_eq!(c(b"{}"), Some(1));
        assert_eq!(c(b"{z}"), Some(2));
        assert_eq!(c(b"{-99999}"), Some(7));
        assert_eq!(c(b"{-999999}"), None);
        assert_eq!(c(b"{a{b}"), None);
        assert_eq!(c(b"{a\n}"), None);
        assert_eq!(c(b"{\r}"), Some(2));
    }

    #[test]
    fn fast_path_agrees_with_the_general_one_on_the_corpus() {
        let root = std::env::var_os("PDN_CORPUS").map_or_else(
            || crate::project_root().join("../shared/corpus"),
            std::path::PathBuf::from,
        );
        assert!(root.is_dir(), "corpus not found at {}", root.display());
        let mut dirs = vec![root];
        let mut files = 0;
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).expect("corpus directory") {
                let p = e.expect("entry").path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdn")) {
                    agree(&std::fs::read(&p).expect("corpus file"));
                    files += 1;
                }
            }
        }
        assert!(files > 2700);
    }

    #[test]
    fn fast_path_agrees_with_the_general_one_on_random_input() {
        let atoms: [&[u8]; 68] = [
            b"1",
            b"2",
            b"0",
            b"9",
            b"32",
            b"05",
            b"100",
            b"-",
            b"x",
            b"X",
            b":",
            b".",
            b"...",
            b" ",
            b"  ",
            b"\n",
            b"\r\n",
            b"\t",
            b"{c}",
            b"(",
            b")",
            b"!",
            b"?",
            b"(?)",
            b"*",
            b"$1",
            b"[Result \"4-6\"]",
            b"[Result \"2-0\"]",
            b"1-1",
            b"4-6",
            b"%c\n",
            b";c\n",
            b"a3",
            b"/FEN \"W\"/",
            b"[",
            b"1/2-1/2",
            b"0.5-0.5",
            b"\xc3\x97",
            b"12. ...",
            b"e",
            b"12.",
            b"c3-d4",
            b"h8xg7",
            b"a1-",
            b" 32-28 ",
            b"9x18x27",
            b"{",
            b"}",
            b"{a\n[b",
            b"{ {x} }",
            b"[Event \"x\"]",
            b"[Ev_1 \"a\\\"b\"]",
            b"[E \"x\" ]",
            b"[e \"x\"]",
            b"[Event \"",
            b"\"]",
            b"\\",
            b"{-40}",
            b"{0123456789abcd}",
            b"{0123456789abcde}",
            b"{\r}",
            b"4- 9",
            b"15x 4",
            b"1- 1",
            b"07- 3",
            b"2-0",
            b"0-2\n",
            b"1-0[",
        ];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..20_000 {
            let mut text = Vec::new();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let n = (x % 50) as usize;
            for _ in 0..n {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                text.extend_from_slice(atoms[(x % atoms.len() as u64) as usize]);
            }
            // Padding keeps the fast path away from the end of the slice.
            text.extend_from_slice(&[b' '; 20]);
            text.extend_from_slice(b"32-28 *");
            agree(&text);
        }
    }
}
