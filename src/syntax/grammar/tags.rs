//! Tag sections: tag pairs with their names and quoted values, broken pairs recovered on
//! their line, and the `Result` tag that decides some game boundaries.

use memchr::{memchr, memchr2, memchr3};

use super::super::game::ToleratedKind;
use super::super::token;
use super::{P, Res, Sink, compact, show, sp, unescape};

impl<'a, S: Sink> P<'a, S> {
    // ---- tags ----

    pub(super) fn tag_pair(&mut self) -> Res<()> {
        let start = self.pos;
        if self.fast && self.fast_tag(start) {
            return Ok(());
        }
        let name_start = self.ws_from(start + 1)?;
        let mut p = match token::tag_name::<()>(&self.s[name_start..]) {
            Ok((rest, _)) => self.s.len() - rest.len(),
            Err(_) => name_start,
        };
        self.check_end(p)?;
        if p == name_start {
            self.error(sp(start, p), || {
                "tag pair without a name: expected a name after `[`".to_owned()
            });
            self.pos = self.recover_bracket(p)?;
            return Ok(());
        }
        let name_b = &self.s[name_start..p];
        if !token::is_identifier(name_b) {
            self.note(ToleratedKind::OddTagName, sp(name_start, p));
        }
        p = self.ws_from(p)?;
        let (value, escaped, after, closed) = if self.at(p)? == Some(b'"') {
            self.tag_string(p)?
        } else {
            // No quotes: take the rest up to `]` (or `[`, or the end of the line).
            let (rb, _) = self.scan_bracket(p)?;
            let raw = self.s[p..rb].trim_ascii();
            self.error(sp(p, rb), || {
                let nm = String::from_utf8_lossy(name_b);
                format!("tag `{nm}` without a quoted value: expected `\"`")
            });
            (raw, false, rb, true)
        };
        let mut end = after;
        if closed {
            let q = self.ws_from(after)?;
            if self.at(q)? == Some(b']') {
                end = q + 1;
            } else {
                let (stop, found) = self.scan_bracket(q)?;
                let what = show(&self.s[q..stop.min(q + 24)]);
                self.error(sp(q, q + 1), || {
                    if what.is_empty() {
                        "unterminated tag pair: expected `]`".to_owned()
                    } else {
                        format!("unexpected `{what}` in a tag pair: expected `]`")
                    }
                });
                if found {
                    end = stop + 1;
                }
            }
        }
        self.emit_tag(name_b, value, escaped, start, end);
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
        if name == b"Result" && self.result_tag.is_none() {
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
        self.sink.tag(name, value, escaped, sp(start, end));
        self.pos = end;
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
                                self.error(sp(q, rb), || {
                                    "unterminated tag value: expected `\"` before `]`".to_owned()
                                });
                                break (rb, rb, true);
                            }
                            let n = self.hspace_from(j + 1)?;
                            if self.at(n)? == Some(b'[') {
                                let e = line_start + before.len();
                                self.error(sp(q, e), || {
                                    "unterminated tag value: expected `\"` at the end of the line"
                                        .to_owned()
                                });
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
