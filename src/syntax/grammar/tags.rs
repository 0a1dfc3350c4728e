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

use super::super::game::ToleratedKind;
use super::super::tagnames::{self, NameKind};
use super::super::token;
use super::prose::is_movetext;
use super::{P, Res, Sink, compact, sp, unescape};

impl<'a, S: Sink> P<'a, S> {
    // ---- tags ----

    pub(super) fn tag_pair(&mut self) -> Res<()> {
        let start = self.pos;
        if !(self.fast && self.fast_tag(start)) {
            self.general_tag_pair(start)?;
        }
        self.after_tag()
    }

    /// A tag pair in any of the shapes real archives write (see the module's notes): its
    /// name up to the first `"`, `]` or `[` on its line, a quoted value (possibly over
    /// several lines), an unquoted value, or none.
    fn general_tag_pair(&mut self, start: usize) -> Res<()> {
        let name_start = self.hspace_from(start + 1)?;
        // The name runs to the first `"`, `]`, `[` or line break (never further: a long
        // line of broken pairs stays linear).
        let mut stop = name_start;
        while let Some(b) = self.at(stop)? {
            if matches!(b, b'"' | b']' | b'[' | b'\n' | b'\r') {
                break;
            }
            stop += 1;
        }
        let s = self.s;
        let at_stop = s.get(stop).copied();
        let name_end = name_start + s[name_start..stop].trim_ascii_end().len();
        if name_end == name_start {
            match at_stop {
                Some(b']') => {
                    // `[]` or `[ ]`.
                    self.note(ToleratedKind::StrayBracket, sp(start, stop + 1));
                    self.pos = stop + 1;
                }
                Some(b'"') => {
                    self.error(sp(start, stop + 1), || {
                        "tag pair without a name: expected a name after `[`".to_owned()
                    });
                    self.pos = self.recover_bracket(stop + 1)?;
                }
                _ => {
                    // A lone `[`.
                    self.note(ToleratedKind::StrayBracket, sp(start, start + 1));
                    self.pos = stop;
                }
            }
            return Ok(());
        }
        if at_stop == Some(b'"') {
            let name = &s[name_start..name_end];
            let (value, escaped, after, closed) = self.tag_string(stop)?;
            let mut end = after;
            if closed {
                let q = self.hspace_from(after)?;
                let (stop, found) = self.scan_bracket(q)?;
                if found && stop == q {
                    end = q + 1;
                } else if found {
                    // `[Name "value" junk]`: the text before `]` is ignored.
                    self.note(ToleratedKind::DamagedTag, sp(q, stop));
                    end = stop + 1;
                } else {
                    // `[Name "value"` without its `]`.
                    self.note(ToleratedKind::DamagedTag, sp(start, after));
                }
            }
            self.emit_tag(name, value, escaped, start, end);
            return Ok(());
        }
        // No quoted value: `[Name]`, `[Name value]`, or either without its `]`.
        let inner = s[name_start..stop].trim_ascii();
        let end = if at_stop == Some(b']') {
            stop + 1
        } else {
            self.note(ToleratedKind::DamagedTag, sp(start, stop));
            stop
        };
        let split = inner.iter().position(|&b| b == b' ' || b == b'\t');
        let (name, value) = match split {
            Some(k) => (&inner[..k], inner[k..].trim_ascii()),
            None => (inner, &inner[inner.len()..]),
        };
        let kind = if value.is_empty() {
            ToleratedKind::TagWithoutValue
        } else {
            ToleratedKind::UnquotedTagValue
        };
        self.note(kind, sp(start, end));
        self.emit_tag(name, value, false, start, end);
        Ok(())
    }

    /// After a tag pair: text on the rest of its line that is neither a tag, a comment nor
    /// movetext (`\r` written as text, a stray `;`, a word) is ignored, up to the next `[`
    /// or `{` on the line.
    fn after_tag(&mut self) -> Res<()> {
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
        if memchr(b'&', value).is_some() && tagnames::has_references(value) {
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
        self.sink
            .tag(name, value, escaped, standard, sp(start, end));
        self.pos = end;
    }

    /// What a tag name stands for, with the notes it deserves (a localised or encoded
    /// name, a name that is no PDN identifier).
    fn tag_name_kind(&mut self, name: &[u8], start: usize) -> NameKind {
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
                    self.error(sp(q, e2), || {
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
