//! Tag sections: tag pairs with their names and quoted values, broken pairs recovered on
//! their line, and the `Result` tag that decides some game boundaries.
//!
//! Real archives damage tag pairs in a few ways, each read as the tag it was meant to be
//! and noted once per game: text after the `]` (`\r` written as text, a stray `;`, a word)
//! is ignored; `[Name]` has an empty value and `[Round 5]` an unquoted one; a pair that lost
//! its `]` ends with its line; a lone `[` or `]` is skipped; a name may hold spaces,
//! accents and character references (`[Type de jeu "20"]`, `[R&#x00e9;sultat "1-1"]`), and
//! a localised name stands for its standard one (see `tagnames`). A quoted value may run
//! over several lines, but never past a blank line or into a tag pair.

use std::borrow::Cow;

use encoding_rs::WINDOWS_1252;
use memchr::{memchr, memchr2, memchr3};

use super::prose::is_movetext;
use super::{P, Res, Sink, compact, sp, unescape};
use crate::syntax::game::SyntaxErrorKind;
use crate::syntax::game::ToleratedKind;
use crate::syntax::tagnames::{self, NameKind};
use crate::syntax::token;
use crate::syntax::visitor::RawTag;

/// True if `b` holds literal escapes (`\r`, `\n`, `\t` as text) and white space only, at
/// least one escape.
pub(super) fn only_escapes(b: &[u8]) -> bool {
    let mut i = 0;
    let mut any = false;
    while i < b.len() {
        match super::escape_len(b, i) {
            0 if token::is_ws(b[i]) => i += 1,
            0 => return false,
            n => {
                any = true;
                i += n;
            }
        }
    }
    any
}

/// A value without ASCII quotes, without the typographic or single quotes around it
/// (`“Open”`, `„Open“`, `«Open»`, `'Open'`).
fn strip_quotes(v: &[u8]) -> &[u8] {
    for (open, close) in [
        ("\u{201c}", "\u{201d}"),
        ("\u{201e}", "\u{201c}"),
        ("\u{ab}", "\u{bb}"),
        ("\u{2018}", "\u{2019}"),
        ("'", "'"),
    ] {
        let (o, c) = (open.as_bytes(), close.as_bytes());
        if v.len() >= o.len() + c.len() && v.starts_with(o) && v.ends_with(c) {
            return v[o.len()..v.len() - c.len()].trim_ascii();
        }
    }
    v
}

impl<'a, S: Sink> P<'a, S> {
    // ---- tags ----

    pub(super) fn tag_pair(&mut self) -> Res<()> {
        let mut start = self.pos;
        // `[[Event "Open"]`: a doubled bracket, read as one.
        while self.at(start + 1)? == Some(b'[') {
            self.note(ToleratedKind::DoubledBracket, sp(start, start + 1));
            start += 1;
        }
        self.pos = start;
        if !(self.fast && self.fast_tag(start)) {
            self.general_tag_pair(start)?;
        }
        self.after_tag()
    }

    /// A tag pair in any of the shapes real archives write (see the module's notes): its
    /// name up to the first `"`, `]` or `[` on its line, a quoted value (possibly over
    /// several lines), an unquoted value, or none. White space, line breaks included, may
    /// separate `[`, the name, the value and `]` (PDN allows it), but not a blank line, and
    /// a line starting with `[` is another tag pair.
    fn general_tag_pair(&mut self, start: usize) -> Res<()> {
        let (name_start, crossed) = self.tag_gap(start + 1)?;
        let s = self.s;
        let first = s.get(name_start).copied();
        let name_like = |b: u8| b.is_ascii_alphabetic() || b >= 0x80 || b == b'&';
        if name_start == usize::MAX || (crossed && !first.is_some_and(name_like)) {
            // A lone `[`.
            self.note(ToleratedKind::StrayBracket, sp(start, start + 1));
            self.pos = start + 1;
            return Ok(());
        }
        // The name runs to the first `"`, `]`, `[` or line break (never further: a long
        // line of broken pairs stays linear).
        let mut stop = name_start;
        while let Some(b) = self.at(stop)? {
            if matches!(b, b'"' | b']' | b'[' | b'\n' | b'\r') {
                break;
            }
            stop += 1;
        }
        let at_stop = s.get(stop).copied();
        let name_end = name_start + s[name_start..stop].trim_ascii_end().len();
        if name_end == name_start {
            if at_stop == Some(b']') {
                // `[]` or `[ ]`.
                self.note(ToleratedKind::StrayBracket, sp(start, stop + 1));
                self.pos = stop + 1;
            } else {
                self.error(SyntaxErrorKind::TagWithoutName, sp(start, stop + 1), || {
                    "tag pair without a name: expected a name after `[`".to_owned()
                });
                self.pos = self.recover_bracket(stop + 1)?;
            }
            return Ok(());
        }
        // A name alone on its line: its value (or `]`) may be on the next one.
        let (next, at_next) = if matches!(at_stop, Some(b'\n' | b'\r')) {
            match self.tag_gap(stop)? {
                (usize::MAX, _) => (stop, at_stop),
                (q, _) => (q, s.get(q).copied()),
            }
        } else {
            (stop, at_stop)
        };
        match at_next {
            Some(b'"') => {
                let name = &s[name_start..name_end];
                self.quoted_tag(start, name, next)
            }
            Some(b']') if next != stop => {
                // `[Name` and `]` on the next line.
                let name = &s[name_start..name_end];
                self.note(ToleratedKind::TagWithoutValue, sp(start, next + 1));
                self.emit_tag(name, &name[name.len()..], false, start, next + 1);
                Ok(())
            }
            _ => {
                self.unquoted_tag(start, name_start, stop);
                Ok(())
            }
        }
    }

    /// The tag pair from `start` whose quoted value starts at `q`.
    fn quoted_tag(&mut self, start: usize, name: &'a [u8], q: usize) -> Res<()> {
        let (mut value, mut escaped, after, closed) = self.tag_string(q)?;
        let mut end = after;
        if closed {
            let s = self.s;
            let (r, _) = self.tag_gap(after)?;
            if s.get(r) == Some(&b']') {
                end = r + 1;
            } else {
                // Something other than `]` after the value, on the same line.
                let (stop, found) = self.scan_bracket(after)?;
                let between = s[after..stop].trim_ascii_end();
                if found && between.last() == Some(&b'"') {
                    // `[Event "The "Big" Open"]`: quotes inside the value were not escaped.
                    value = &s[q + 1..after + between.len() - 1];
                    escaped = memchr(b'\\', value).is_some();
                    self.note(ToleratedKind::DamagedTag, sp(start, stop + 1));
                    end = stop + 1;
                } else if found {
                    // `[Name "value" junk]`: the text before `]` is ignored.
                    self.note(ToleratedKind::DamagedTag, sp(after, stop));
                    end = stop + 1;
                } else {
                    // `[Name "value"` without its `]`.
                    self.note(ToleratedKind::DamagedTag, sp(start, after));
                }
            }
        }
        self.emit_tag(name, value, escaped, start, end);
        Ok(())
    }

    /// `[Name]`, `[Name value]` (the value maybe in typographic quotes), or either without
    /// its `]`: the text from `name_start` to `stop`, which is `]`, `[` or a line break.
    fn unquoted_tag(&mut self, start: usize, name_start: usize, stop: usize) {
        let s = self.s;
        let inner = s[name_start..stop].trim_ascii();
        let end = if s.get(stop) == Some(&b']') {
            stop + 1
        } else {
            self.note(ToleratedKind::DamagedTag, sp(start, stop));
            stop
        };
        let split = inner.iter().position(|&b| b == b' ' || b == b'\t');
        let (name, value) = match split {
            Some(k) => (&inner[..k], strip_quotes(inner[k..].trim_ascii())),
            None => (inner, &inner[inner.len()..]),
        };
        let kind = if value.is_empty() {
            ToleratedKind::TagWithoutValue
        } else {
            ToleratedKind::UnquotedTagValue
        };
        self.note(kind, sp(start, end));
        self.emit_tag(name, value, false, start, end);
    }

    /// White space from `p` inside a tag pair: the next byte that is not white space, and
    /// whether a line break was crossed; `usize::MAX` if a blank line, the end of the file
    /// or a line starting with `[` comes first.
    fn tag_gap(&self, mut p: usize) -> Res<(usize, bool)> {
        let mut breaks = 0;
        while let Some(b) = self.at(p)? {
            match b {
                b'\n' => breaks += 1,
                b'\r' if self.at(p + 1)? != Some(b'\n') => breaks += 1,
                b' ' | b'\t' | b'\r' => {}
                b'[' if breaks > 0 => return Ok((usize::MAX, true)),
                _ => return Ok((p, breaks > 0)),
            }
            if breaks > 1 {
                return Ok((usize::MAX, true));
            }
            p += 1;
        }
        Ok((usize::MAX, breaks > 0))
    }

    /// After a tag pair: text on the rest of its line that is neither a tag, a comment nor
    /// movetext (`\r` written as text, a stray `;`, a word) is ignored, up to the next `[`
    /// or `{` on the line.
    fn after_tag(&mut self) -> Res<()> {
        // `[Event "Open"]]`: a doubled bracket, read as one.
        while self.at(self.pos)? == Some(b']') && self.s[self.pos - 1] == b']' {
            self.note(ToleratedKind::DoubledBracket, sp(self.pos, self.pos + 1));
            self.pos += 1;
        }
        let p = self.pos;
        match self.s.get(p) {
            Some(b'\n' | b'\r' | b'[') => return Ok(()),
            Some(b' ') if matches!(self.s.get(p + 1), Some(b'\n' | b'\r' | b'[')) => {
                return Ok(());
            }
            _ => {}
        }
        let q = self.hspace_from(p)?;
        let mut e = q;
        while let Some(b) = self.at(e)? {
            if matches!(b, b'[' | b'{' | b'\n' | b'\r') {
                break;
            }
            e += 1;
        }
        if e == q {
            return Ok(());
        }
        let s = self.s;
        let rest = &s[q..e];
        if only_escapes(rest) {
            // `\r` written as text at the line's end, `\n` before the next tag pair: read
            // as white space (see `P::run`).
            return Ok(());
        }
        let line_ends = !matches!(s.get(e), Some(b'[' | b'{'));
        let stray_semicolon = rest[0] == b';' && rest[1..].trim_ascii().is_empty() && line_ends;
        if !stray_semicolon && (matches!(rest[0], b'%' | b';') || is_movetext(rest)) {
            return Ok(());
        }
        self.note(
            ToleratedKind::JunkAfterTag,
            sp(q, q + rest.trim_ascii_end().len()),
        );
        self.pos = e;
        Ok(())
    }

    /// A tag pair was read: note the result tag, hand the pair to the sink, go past it.
    pub(super) fn emit_tag(
        &mut self,
        name: &'a [u8],
        value: &'a [u8],
        escaped: bool,
        start: usize,
        end: usize,
    ) {
        let kind = self.tag_name_kind(name, start);
        // (A value is short: core's search, not a call of `memchr`'s.)
        let amp = value.contains(&b'&');
        if amp && tagnames::has_references(value) {
            self.note(ToleratedKind::CharacterReference, sp(start, end));
        }
        let standard = kind.standard();
        if standard == Some("Result") && self.result_tag.is_none() {
            let c = if escaped {
                compact(&unescape(value))
            } else {
                compact(value)
            };
            self.result_tag_movelike = match c.iter().position(|&b| b == b'-') {
                Some(k) => {
                    let (a, b) = (&c[..k], &c[k + 1..]);
                    let num = |d: &[u8]| !d.is_empty() && d.iter().all(u8::is_ascii_digit);
                    num(a) && num(b) && !token::standard_numeric_result(a, b)
                }
                None => false,
            };
            self.result_tag = Some(c);
        }
        self.has_tags = true;
        self.sink.tag(
            name,
            RawTag::new(value, escaped, standard, amp),
            sp(start, end),
        );
        self.pos = end;
    }

    /// What a tag name stands for, with the notes it deserves (a localised or encoded
    /// name, a name that is no PDN identifier).
    fn tag_name_kind(&mut self, name: &[u8], start: usize) -> NameKind {
        // The usual name, a standard one as it is written: nothing to decode or note.
        if let Some(s) = tagnames::exact_standard(name) {
            return NameKind::Standard(s);
        }
        // The usual names of no standard tag (`SetUp`): nothing to decode or note either.
        if tagnames::known_other(name) {
            return NameKind::Other;
        }
        let span = sp(start, start + 1 + name.len());
        let text = match std::str::from_utf8(name) {
            Ok(t) => Cow::Borrowed(t),
            Err(_) => WINDOWS_1252.decode_without_bom_handling(name).0,
        };
        let decoded = tagnames::decode_references(&text);
        if let Cow::Owned(_) = decoded {
            self.note(ToleratedKind::CharacterReference, span);
        }
        let kind = tagnames::classify(&decoded);
        match kind {
            NameKind::Standard(_) => {}
            NameKind::Alias(_) => self.note(ToleratedKind::LocalisedTagName, span),
            NameKind::Other => {
                if !token::is_identifier(name) {
                    self.note(ToleratedKind::OddTagName, span);
                }
            }
        }
        kind
    }

    /// The end of the line at `p` (the position of its CR or LF, or the end of the file).
    pub(super) fn line_end_from(&self, p: usize) -> Res<usize> {
        match memchr2(b'\n', b'\r', &self.s[p.min(self.s.len())..]) {
            Some(k) => Ok(p + k),
            None => {
                self.check_end(self.s.len())?;
                Ok(self.s.len())
            }
        }
    }

    /// After a broken tag pair: skip to just after a `]` on the same line, else to the next
    /// `[` or the end of the line.
    pub(super) fn recover_bracket(&self, p: usize) -> Res<usize> {
        let (stop, found) = self.scan_bracket(p)?;
        Ok(if found { stop + 1 } else { stop })
    }

    /// The first `]`, `[`, CR or LF from `p` (or the end of the file), and whether it is a
    /// `]`. Stopping at `[` keeps a run of broken tag pairs linear.
    pub(super) fn scan_bracket(&self, mut p: usize) -> Res<(usize, bool)> {
        while let Some(b) = self.at(p)? {
            match b {
                b']' => return Ok((p, true)),
                b'[' | b'\n' | b'\r' => return Ok((p, false)),
                _ => p += 1,
            }
        }
        Ok((p, false))
    }

    /// The quoted value starting at `q` (`s[q] == '"'`): (the value as written, whether it
    /// has a backslash, position after it, whether a `]` should follow).
    pub(super) fn tag_string(&mut self, q: usize) -> Res<(&'a [u8], bool, usize, bool)> {
        let vstart = q + 1;
        let mut i = vstart;
        let mut line_start = vstart;
        let mut multiline = false;
        let (vend, after, closed) = loop {
            match memchr3(b'"', b'\\', b'\n', &self.s[i..]) {
                None => {
                    self.check_end(self.s.len())?;
                    // Unterminated at the end of the file: the value is the rest of its line.
                    let e = self.s.len();
                    let e2 = memchr(b'\r', &self.s[line_start..e]).map_or(e, |k| line_start + k);
                    self.error(SyntaxErrorKind::UnterminatedTagValue, sp(q, e2), || {
                        "unterminated tag value: expected `\"`".to_owned()
                    });
                    break (e2, e, false);
                }
                Some(k) => {
                    let j = i + k;
                    match self.s[j] {
                        b'\\' => {
                            self.at(j + 1)?;
                            i = (j + 2).min(self.s.len());
                        }
                        b'"' => break (j, j + 1, true),
                        _ => {
                            // A line break inside the value.
                            let before = self.s[line_start..j].trim_ascii_end();
                            if before.last() == Some(&b']') {
                                let rb = line_start + before.len() - 1;
                                // `[Event "Open 2025]`: the quote was lost.
                                self.note(ToleratedKind::DamagedTag, sp(q, rb));
                                break (rb, rb, true);
                            }
                            let n = self.hspace_from(j + 1)?;
                            if matches!(self.at(n)?, Some(b'[' | b'\n' | b'\r') | None) {
                                // A value never runs into a tag pair nor past a blank line.
                                let e = line_start + before.len();
                                self.note(ToleratedKind::DamagedTag, sp(q, e));
                                break (e, j, false);
                            }
                            multiline = true;
                            i = j + 1;
                            line_start = j + 1;
                        }
                    }
                }
            }
        };
        if multiline && closed {
            self.note(ToleratedKind::MultilineTagValue, sp(q, after));
        }
        let s = self.s;
        let raw = &s[vstart..vend];
        Ok((raw, memchr(b'\\', raw).is_some(), after, closed))
    }
}
