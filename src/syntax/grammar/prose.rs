//! Text outside the movetext, told from movetext by the shape of a line: a title, a sentence
//! (`Partie jouée à Paris, 1785.`), a page number or stray digits before a game or in its tag
//! section (kept as a comment of the game), a tag pair that lost its `[` (`Event "Open"]`),
//! a stray `]`, and quoted text inside the movetext (never read as moves: `"Paramaribo
//! 2025"` is not the move 20-25).
//!
//! A line is movetext when it holds a move (`32-28`, `32x28`, `c3-d4`, `32 - 28`), a result
//! or `*`, outside quotes and comments; it is prose when it holds none of these but a word
//! or a number that is not a move number. These are decisions on the bytes of one line, so
//! they do not depend on where a buffer ends.

use memchr::{memchr, memchr3};

use super::{P, Res, Sink, sp};
use crate::syntax::game::{CommentKind, ToleratedKind};

/// True if the line `seg` (no line break in it) holds a move, a result or `*` outside
/// quotes and comments.
pub(super) fn is_movetext(seg: &[u8]) -> bool {
    let seg = without_bom(seg);
    scan(seg).moves && !is_rule_line(seg.trim_ascii())
}

/// `seg` without a UTF-8 byte-order mark in front (files joined together have one inside).
fn without_bom(seg: &[u8]) -> &[u8] {
    let seg = seg.trim_ascii_start();
    seg.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(seg)
}

/// True if the line `seg` is prose: it starts with a word, a number that is not a move
/// number, or any other byte that does not start movetext (not with a PDN delimiter such as
/// `(`, `/` or `$`, a strength, `-` or `.`), and holds no move, result or `*`.
pub(super) fn is_prose(seg: &[u8]) -> bool {
    let seg = without_bom(seg);
    if super::tags::only_escapes(seg) {
        // `\r` written as text: white space (see `P::run`).
        return false;
    }
    if is_page_number(seg) || is_rule_line(seg) {
        return true;
    }
    let starts_as_prose = match seg.first() {
        Some(b'0'..=b'9') => number_led(seg, 0).1 == Shape::Word,
        // Not a byte that starts movetext: a delimiter, a strength, `-` or `.`.
        Some(&b) => !matches!(
            b,
            b'(' | b')'
                | b'/'
                | b'$'
                | b'*'
                | b'.'
                | b'-'
                | b'!'
                | b'?'
                | b'{'
                | b'}'
                | b'%'
                | b';'
                | b'['
                | b']'
        ),
        None => false,
    };
    starts_as_prose && !scan(seg).moves
}

/// `-----`, `=====`, `= = =`, `*****`: a separator line, three marks or more of one kind
/// (`...` is not one; stars only side by side, since `* *` is two terminators).
fn is_rule_line(seg: &[u8]) -> bool {
    let Some(&mark) = seg.first() else {
        return false;
    };
    if !matches!(mark, b'-' | b'=' | b'_' | b'~' | b'#' | b'+' | b'*') {
        return false;
    }
    let marks = seg.iter().filter(|&&b| b == mark).count();
    marks >= 3
        && seg.iter().all(|&b| b == mark || matches!(b, b' ' | b'\t'))
        && (mark != b'*' || seg.windows(3).any(|w| w == b"***"))
}

/// `- 12 -`: a page number between dashes.
fn is_page_number(seg: &[u8]) -> bool {
    let inner = seg.trim_ascii();
    let Some(inner) = inner.strip_prefix(b"-").and_then(|i| i.strip_suffix(b"-")) else {
        return false;
    };
    let inner = inner.trim_ascii();
    !inner.is_empty() && inner.len() <= 5 && inner.iter().all(u8::is_ascii_digit)
}

/// What a line holds.
#[derive(Default)]
struct LineShape {
    /// A move, a result or `*`.
    moves: bool,
    /// A word (letters) or a number that is not a move number.
    words: bool,
    /// Letters or quotes.
    letters: bool,
    /// A run of four digits: an undivided move (`3228`) if the line has no letters.
    undivided: bool,
}

fn scan(seg: &[u8]) -> LineShape {
    let mut l = LineShape::default();
    let n = seg.len();
    let mut i = 0;
    while i < n {
        let b = seg[i];
        match b {
            b'"' => {
                l.words = true;
                l.letters = true;
                i = memchr(b'"', &seg[i + 1..]).map_or(n, |k| i + 1 + k + 1);
            }
            b'{' => i = memchr(b'}', &seg[i + 1..]).map_or(n, |k| i + 1 + k + 1),
            b'*' => {
                l.moves = true;
                return l;
            }
            b'$' => {
                // A NAG.
                i += 1;
                while i < n && seg[i].is_ascii_digit() {
                    i += 1;
                }
            }
            b'0'..=b'9' => {
                let (next, shape) = number_led(seg, i);
                match shape {
                    Shape::Move => {
                        l.moves = true;
                        return l;
                    }
                    Shape::Word => {
                        l.words = true;
                        l.undivided |= next - i == 4 && seg[i..next].iter().all(u8::is_ascii_digit);
                    }
                    Shape::MoveNumber => {}
                }
                i = next;
            }
            b'a'..=b'z' | b'A'..=b'Z' | 0x80..=0xFF => {
                let e = word_end(seg, i);
                let w = &seg[i..e];
                if is_algebraic_move(w) || is_half_result(w) {
                    l.moves = true;
                    return l;
                }
                l.words = true;
                l.letters = true;
                i = e;
            }
            _ => i += 1,
        }
    }
    l.moves |= l.undivided && !l.letters;
    l
}

/// What a token starting with a digit is.
#[derive(PartialEq, Eq, Debug)]
enum Shape {
    /// A move (`32-28`, `32x28`, `32 - 28`, `4- 9`) or a result (`2-0`, `1/2-1/2`, `0-0`).
    Move,
    /// A move number (`12.`, `12...`).
    MoveNumber,
    /// A number that is neither (`12`, `1785,`).
    Word,
}

/// The token starting with a digit at `i`: where it ends and its shape.
fn number_led(seg: &[u8], i: usize) -> (usize, Shape) {
    let n = seg.len();
    let digits = |mut j: usize| {
        while j < n && seg[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let spaces = |mut j: usize| {
        while j < n && (seg[j] == b' ' || seg[j] == b'\t') {
            j += 1;
        }
        j
    };
    let e = digits(i);
    if e - i <= 2 {
        // A square, then a separator and another square (spaces allowed around it).
        let s = spaces(e);
        if s < n && matches!(seg[s], b'-' | b'x' | b'X' | b':') {
            let t = spaces(s + 1);
            if t < n && seg[t].is_ascii_digit() && digits(t) - t <= 2 {
                return (digits(t), Shape::Move);
            }
        }
        if seg[e..].starts_with(b"/2-1/2") || seg[e..].starts_with("\u{bd}".as_bytes()) {
            return (n.min(e + 6), Shape::Move);
        }
    }
    if e < n && seg[e] == b'.' {
        let mut d = e;
        while d < n && seg[d] == b'.' {
            d += 1;
        }
        // `12.32-28`: the move follows the number.
        return (d, Shape::MoveNumber);
    }
    (word_end(seg, e), Shape::Word)
}

/// Where the word starting at `i` ends: at white space or a delimiter.
fn word_end(seg: &[u8], mut i: usize) -> usize {
    while i < seg.len()
        && !matches!(
            seg[i],
            b' ' | b'\t' | b'{' | b'}' | b'(' | b')' | b'[' | b']' | b'"' | b',' | b';'
        )
    {
        i += 1;
    }
    i
}

/// `½-½` or `½` (UTF-8 or Latin-1).
fn is_half_result(w: &[u8]) -> bool {
    let half = |w: &[u8]| -> Option<usize> {
        if w.starts_with("\u{bd}".as_bytes()) {
            Some(2)
        } else if w.first() == Some(&0xBD) {
            Some(1)
        } else {
            None
        }
    };
    match half(w) {
        Some(a) => w.len() == a || (w[a] == b'-' && half(&w[a + 1..]) == Some(w.len() - a - 1)),
        None => false,
    }
}

/// `c3-d4`, `c3xd4`, `c3:d4`, `c3d4`, `A3-B4`: an algebraic move (trailing strength or
/// punctuation allowed).
fn is_algebraic_move(w: &[u8]) -> bool {
    let sq = |w: &[u8]| -> Option<usize> {
        let f = *w.first()?;
        if !f.is_ascii_alphabetic() {
            return None;
        }
        let d = w[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        (1..=2).contains(&d).then_some(1 + d)
    };
    let Some(a) = sq(w) else { return false };
    let rest = &w[a..];
    let rest = match rest.first() {
        Some(b'-' | b'x' | b':') => &rest[1..],
        _ => rest,
    };
    match sq(rest) {
        Some(b) => rest[b..].iter().all(|c| {
            matches!(c, b'!' | b'?' | b'.' | b'x' | b'-' | b':') || c.is_ascii_alphanumeric()
        }),
        None => false,
    }
}

/// A tag pair that lost its `[`, as found on a line.
#[derive(Debug, PartialEq, Eq)]
struct LostBracket {
    /// End of the name.
    name_end: usize,
    /// The value between its quotes.
    value: std::ops::Range<usize>,
    /// The value holds `\\` escapes.
    escaped: bool,
    /// The line ends with `]`.
    bracket: bool,
    /// End of the tag pair (past the `]` if there is one).
    end: usize,
}

/// `Name "value"]` or `Name "value"` filling the line `line`: a name of at most 40 bytes
/// (letters, digits, a few spaces, character references; no delimiter), a quoted value
/// (`\"` and `\\` escapes allowed, raw backslashes too), and nothing after it but `]`.
fn lost_bracket_shape(line: &[u8]) -> Option<LostBracket> {
    let q = memchr(b'"', line)?;
    let name = line[..q].trim_ascii_end();
    let name_ok = !name.is_empty()
        && name.len() <= 40
        && (name[0].is_ascii_alphabetic() || name[0] >= 0x80 || name[0] == b'&')
        && !name
            .iter()
            .any(|&b| matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b'"' | b'.'))
        && name.iter().filter(|&&b| b == b' ').count() <= 3;
    if !name_ok {
        return None;
    }
    // The closing quote: the last one on the line, so that `\"` inside is kept.
    let close = q + 1 + memchr::memrchr(b'"', &line[q + 1..])?;
    let after = line[close + 1..].trim_ascii();
    let bracket = match after {
        b"]" => true,
        b"" => false,
        _ => return None,
    };
    let value = q + 1..close;
    let escaped = memchr(b'\\', &line[value.clone()]).is_some();
    // An unescaped quote inside the value: not a tag pair (`Name "a" "b"`).
    let inner = &line[value.clone()];
    let mut i = 0;
    while i < inner.len() {
        match inner[i] {
            b'\\' => i += 2,
            b'"' => return None,
            _ => i += 1,
        }
    }
    let end = if bracket {
        close + 1 + memchr(b']', &line[close + 1..]).map_or(0, |k| k + 1)
    } else {
        close + 1
    };
    Some(LostBracket {
        name_end: name.len(),
        value,
        escaped,
        bracket,
        end,
    })
}

impl<'a, S: Sink> P<'a, S> {
    /// Before the movetext of a game: a stray `]`, a tag pair that lost its `[`, or a line
    /// of prose at `pos`. True if one was read (then `pos` is past it).
    pub(super) fn outside_movetext(&mut self) -> Res<bool> {
        let start = self.pos;
        let s = self.s;
        if s[start] == b']' {
            self.note(ToleratedKind::StrayBracket, sp(start, start + 1));
            self.pos = start + 1;
            return Ok(true);
        }
        // The line up to a comment that starts on it (read as usual) or its end.
        let stop = self.segment_end(start)?;
        let seg = &s[start..stop];
        if memchr(b'"', seg).is_some() && self.lost_bracket_tag(start, stop)? {
            return Ok(true);
        }
        if !is_prose(seg) {
            return Ok(false);
        }
        let text_end = start + seg.trim_ascii_end().len();
        self.note(ToleratedKind::ProseOutsideMovetext, sp(start, text_end));
        self.push_comment(start..text_end, CommentKind::Brace, start, text_end);
        self.pos = stop;
        Ok(true)
    }

    /// The first `{`, CR or LF from `p` (or the end of the file).
    pub(super) fn segment_end(&self, p: usize) -> Res<usize> {
        match memchr3(b'{', b'\n', b'\r', &self.s[p.min(self.s.len())..]) {
            Some(k) => Ok(p + k),
            None => {
                self.check_end(self.s.len())?;
                Ok(self.s.len())
            }
        }
    }

    /// `Name "value"]` (or `Name "value"` in or right before a tag section) on the line
    /// from `start` to `end`: read as the tag pair that lost its `[`.
    fn lost_bracket_tag(&mut self, start: usize, end: usize) -> Res<bool> {
        let s = self.s;
        if s.get(end) == Some(&b'{') {
            return Ok(false);
        }
        let Some(t) = lost_bracket_shape(&s[start..end]) else {
            return Ok(false);
        };
        // After a game's movetext it is none of that game's tags: [`P::ended`] leaves the
        // line to the next game when it starts one, and reads it as prose otherwise.
        if self.has_body {
            return Ok(false);
        }
        if !(t.bracket || self.has_tags || self.tag_line_at(self.next_line(end)?)?) {
            return Ok(false);
        }
        self.note(ToleratedKind::DamagedTag, sp(start, start + t.end));
        self.emit_tag(
            &s[start..start + t.name_end],
            &s[start + t.value.start..start + t.value.end],
            t.escaped,
            start,
            start + t.end,
        );
        self.pos = start + t.end;
        Ok(true)
    }

    /// From `p`: nothing but white space, comments and lines of prose, then a tag section
    /// (a line starting with `[`, or a tag pair that lost its `[`) or the end of the file:
    /// `Some(true)` for a tag section, `Some(false)` for the end of the file, `None` if
    /// anything else comes first.
    /// At most 16 lines of prose are looked through (a bound, so that reading stays linear).
    pub(super) fn next_game_follows(&self, mut p: usize) -> Res<Option<bool>> {
        for _ in 0..16 {
            p = self.trivia_from(p)?;
            let Some(b) = self.at(p)? else {
                return Ok(Some(false));
            };
            if b == b'[' {
                return Ok(Some(true));
            }
            let stop = self.segment_end(p)?;
            if self.lost_bracket_starts_game(p, stop)? {
                return Ok(Some(true));
            }
            if !is_prose(&self.s[p..stop]) {
                return Ok(None);
            }
            p = stop;
        }
        Ok(None)
    }

    /// The segment from `p` to `stop` (up to a comment or the end of its line) is a tag pair
    /// that lost its `[` at the start of a line, with its `]` or before a tag line: it starts
    /// a game (never one that has ended, nor one whose movetext has begun).
    pub(super) fn lost_bracket_starts_game(&self, p: usize, stop: usize) -> Res<bool> {
        let at_line_start = p == 0 || matches!(self.s[p - 1], b'\n' | b'\r');
        if !at_line_start || self.s.get(stop) == Some(&b'{') {
            return Ok(false);
        }
        let Some(t) = lost_bracket_shape(&self.s[p..stop]) else {
            return Ok(false);
        };
        Ok(t.bracket || self.tag_line_at(self.next_line(stop)?)?)
    }

    /// In the movetext, at `pos` at the start of a line: a line of prose (a page number, a
    /// title) with only prose and comments between it and the next tag section or the end
    /// of the file. Before a tag section it belongs to the next game, which was not
    /// separated from this one: `Some(true)`, nothing read. Before the end of the file it is
    /// kept as a comment of this game: `Some(false)`, `pos` past it. `None`: not such prose.
    pub(super) fn prose_between_games(&mut self) -> Res<Option<bool>> {
        let start = self.pos;
        let s = self.s;
        let stop = self.segment_end(start)?;
        if !is_prose(&s[start..stop]) {
            return Ok(None);
        }
        match self.next_game_follows(stop)? {
            Some(true) => Ok(Some(true)),
            Some(false) => {
                let text_end = start + s[start..stop].trim_ascii_end().len();
                self.note(ToleratedKind::ProseOutsideMovetext, sp(start, text_end));
                self.push_comment(start..text_end, CommentKind::Brace, start, text_end);
                self.pos = stop;
                Ok(Some(false))
            }
            None => Ok(None),
        }
    }

    /// In the movetext, at `pos` at the start of a line: a tag pair that lost its `[`
    /// (`Event "Open"]`, or `Event "Open"` before a tag line) starts the next game, which
    /// was not separated from this one. True if so (nothing is read).
    pub(super) fn lost_bracket_next_game(&self) -> Res<bool> {
        let end = self.segment_end(self.pos)?;
        self.lost_bracket_starts_game(self.pos, end)
    }

    /// Where the line after the line break at `end` starts (`end` if the file ends there).
    fn next_line(&self, end: usize) -> Res<usize> {
        match self.at(end)? {
            Some(b'\r') if self.at(end + 1)? == Some(b'\n') => Ok(end + 2),
            Some(_) => Ok(end + 1),
            None => Ok(end),
        }
    }

    /// `"…"` inside the movetext: kept as a comment, never read as moves.
    pub(super) fn quoted_text(&mut self) -> Res<bool> {
        let start = self.pos;
        let end = self.line_end_from(start + 1)?;
        let close = memchr(b'"', &self.s[start + 1..end]).map(|k| start + 1 + k);
        let (text_end, after) = match close {
            Some(c) => (c, c + 1),
            None => (end, end),
        };
        self.note(ToleratedKind::QuotedTextInMovetext, sp(start, after));
        self.push_comment(start + 1..text_end, CommentKind::Brace, start, after);
        self.pos = after;
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        for t in [
            "1. 32-28 19-23",
            "32x28",
            "4- 9",
            "2-0",
            "1/2-1/2",
            "*",
            "c3-d4 f6-g5",
            "12.32-28",
            "A1-A5",
            "a3b4",
            "Partie 1. 32-28",
            "3228 1823",
            "1. 3228",
        ] {
            assert!(is_movetext(t.as_bytes()), "{t}");
            assert!(!is_prose(t.as_bytes()), "{t}");
        }
        for t in [
            "Partie jouée à Paris, 1785.",
            "Page 12",
            "12",
            "- 12 -",
            "------------",
            "*****",
            "= = = =",
            "***",
            "\"Paramaribo 2025\"",
            "Event \"Open 2025\"]",
            "ok",
        ] {
            assert!(!is_movetext(t.as_bytes()), "{t}");
            assert!(is_prose(t.as_bytes()), "{t}");
        }
        for t in [
            "1.",
            "12...",
            "...",
            "-",
            "( )",
            "$1",
            "!?",
            "{c}",
            "",
            "/FEN \"W:W31\"/ (",
            "( Partie",
            "\\r",
            " \\r\\n ",
        ] {
            assert!(!is_movetext(t.as_bytes()), "{t}");
            assert!(!is_prose(t.as_bytes()), "{t}");
        }
        // Movetext that looks a little like a separator.
        for t in ["-* *", "* * *", "- -", "-=-"] {
            assert!(!is_prose(t.as_bytes()), "{t}");
        }
    }
}
