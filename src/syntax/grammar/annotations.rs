//! Comments and NAGs: brace and line comments, NAGs, and the cap on a run of them
//! ([`MAX_ANNOTATIONS_IN_A_ROW`]) that keeps a hostile flood of annotations from costing a
//! hundred times its size.

use super::*;

/// A run of comments and NAGs with nothing else between them.
#[derive(Default)]
pub(super) struct Run {
    /// How many were read.
    pub(super) len: u32,
    /// Where the first one skipped starts and the last one skipped ends.
    pub(super) skipped: Option<(usize, usize)>,
}

impl<S: Sink> P<'_, S> {
    /// A comment or NAG from `a` to `b` comes: false if the run it belongs to is already
    /// [`MAX_ANNOTATIONS_IN_A_ROW`] long (it is skipped and counted).
    #[inline]
    pub(super) fn annotation_fits(&mut self, a: usize, b: usize) -> bool {
        self.run.len = self.run.len.saturating_add(1);
        if self.run.len <= MAX_ANNOTATIONS_IN_A_ROW {
            return true;
        }
        let first = self.run.skipped.map_or(a, |(first, _)| first);
        self.run.skipped = Some((first, b));
        false
    }

    /// Something other than a comment or NAG comes (or the game ends): the run ends, and
    /// what it skipped is reported. (Nearly always there is no run: that test inline, at
    /// every move, the rest out of line.)
    #[inline(always)]
    pub(super) fn end_run(&mut self) {
        if self.run.len != 0 {
            self.end_run_of_annotations();
        }
    }

    /// [`P::end_run`] after a run of comments or NAGs.
    #[inline(never)]
    fn end_run_of_annotations(&mut self) {
        let run = std::mem::take(&mut self.run);
        if let Some((a, b)) = run.skipped {
            let skipped = run.len - MAX_ANNOTATIONS_IN_A_ROW;
            self.error(SyntaxErrorKind::TooManyAnnotations, sp(a, b), || {
                format!(
                    "{} comments and NAGs in a row: the first {MAX_ANNOTATIONS_IN_A_ROW} are \
                     kept, the other {skipped} skipped",
                    run.len
                )
            });
        }
    }

    // ---- comments ----

    pub(super) fn brace_comment(&mut self) -> Res<()> {
        let start = self.pos;
        let body = start + 1;
        // The commonest comment is short (`{!}`, `{1}`), on one line and without `{` inside:
        // found in a few bytes without the searches below, to the same result.
        let s = self.s;
        let limit = (body + 32).min(s.len());
        let mut k = body;
        while k < limit && class(s[k]) & IN_COMMENT == 0 {
            k += 1;
        }
        if self.fast && k < limit && s[k] == b'}' {
            self.push_comment(body..k, CommentKind::Brace, start, k + 1);
            self.pos = k + 1;
            return Ok(());
        }
        let close = memchr(b'}', &self.s[body..]).map(|k| body + k);
        let limit = close.unwrap_or(self.s.len());
        // An opening brace never closed before a tag section: stop before the tag line.
        let mut from = body;
        while let Some(k) = memchr(b'\n', &self.s[from..limit]) {
            let nl = from + k;
            if self.tag_line_at(nl + 1)? {
                let e = if nl > body && self.s[nl - 1] == b'\r' {
                    nl - 1
                } else {
                    nl
                };
                self.error(
                    SyntaxErrorKind::UnterminatedComment,
                    sp(start, start + 1),
                    || {
                        "unterminated comment: expected `}` before the tag section on the next line"
                            .to_owned()
                    },
                );
                self.push_comment(body..e, CommentKind::Brace, start, nl);
                self.pos = nl;
                return Ok(());
            }
            // In an archive without tags: the comment swallowed the result that ended its
            // game, and the next game starts (its move 1) after it. The comment stops before
            // that result, which ends the game; the next game is read as a game.
            if let Some(r) = self.swallowed_result(body, nl)? {
                let mut e = r;
                while e > body && is_ws(self.s[e - 1]) {
                    e -= 1;
                }
                self.error(
                    SyntaxErrorKind::UnterminatedComment,
                    sp(start, start + 1),
                    || {
                        "unterminated comment: expected `}` before the result that ends the \
                         game (the next game starts after it)"
                            .to_owned()
                    },
                );
                self.push_comment(body..e, CommentKind::Brace, start, e);
                self.pos = r;
                return Ok(());
            }
            from = nl + 1;
        }
        let Some(mut close) = close else {
            self.check_end(self.s.len())?;
            self.error(
                SyntaxErrorKind::UnterminatedComment,
                sp(start, start + 1),
                || "unterminated comment: expected `}` before the end of the file".to_owned(),
            );
            self.push_comment(body..self.s.len(), CommentKind::Brace, start, self.s.len());
            self.pos = self.s.len();
            return Ok(());
        };
        // `{ a { b } }`: comments do not nest; absorb the extra closing braces that follow.
        let opens = memchr::memchr_iter(b'{', &self.s[body..close]).count();
        if opens > 0 {
            let first = close;
            let mut n = 0;
            let mut p = close + 1;
            while n < opens {
                let q = self.hspace_from(p)?;
                if self.at(q)? == Some(b'}') {
                    close = q;
                    p = q + 1;
                    n += 1;
                } else {
                    break;
                }
            }
            if n > 0 {
                self.error(SyntaxErrorKind::NestedComment, sp(first, close + 1), || {
                    "nested comment: comments do not nest, so the `{` inside is text and the \
                     comment ends at the first `}`; expected no further `}` (kept as text)"
                        .to_owned()
                });
            }
        }
        self.push_comment(body..close, CommentKind::Brace, start, close + 1);
        self.pos = close + 1;
        Ok(())
    }

    /// Inside a comment opened at `body - 1`: the start of a result that ends the line ending
    /// at `nl` (after `body`) when the next line that is not blank starts with move number
    /// 1 (`1.`), as the games of an archive without tags do.
    fn swallowed_result(&self, body: usize, nl: usize) -> Res<Option<usize>> {
        let Some(r) = token::result_at_line_end(&self.s[body..nl]) else {
            return Ok(None);
        };
        let q = self.ws_from(nl + 1)?;
        let one = self.at(q)? == Some(b'1') && self.at(q + 1)? == Some(b'.');
        Ok(one.then_some(body + r))
    }

    /// True if a tag pair (`[Name "`) starts the line at `p`.
    pub(super) fn tag_line_at(&self, p: usize) -> Res<bool> {
        let mut q = self.hspace_from(p)?;
        if self.at(q)? != Some(b'[') {
            return Ok(false);
        }
        q += 1;
        let n0 = q;
        while let Some(b) = self.at(q)? {
            if !(b.is_ascii_alphanumeric() || b == b'_') || q - n0 > 40 {
                break;
            }
            q += 1;
        }
        if q == n0 || !self.s[n0].is_ascii_alphabetic() {
            return Ok(false);
        }
        let q = self.hspace_from(q)?;
        Ok(self.at(q)? == Some(b'"'))
    }

    pub(super) fn line_comment(&mut self, semicolon: bool) -> Res<()> {
        let start = self.pos;
        let end = self.line_end_from(start + 1)?;
        if semicolon {
            self.note(ToleratedKind::SemicolonComment, sp(start, end));
        }
        self.push_comment(start + 1..end, CommentKind::Line, start, end);
        self.pos = end;
        Ok(())
    }

    /// A comment whose text is `text` of the slice, from `a` to `b` with its delimiters.
    pub(super) fn push_comment(
        &mut self,
        text: std::ops::Range<usize>,
        kind: CommentKind,
        a: usize,
        b: usize,
    ) {
        self.has_comment = true;
        self.not_a_move();
        if !self.annotation_fits(a, b) {
            return;
        }
        let s = self.s;
        self.sink.comment(&s[text], kind, sp(a, b));
    }

    pub(super) fn nag(&mut self) -> Res<bool> {
        match self.lex(token::nag::<()>)? {
            Some((start, end, value)) => {
                self.pos = end;
                match value {
                    Some(_) if !self.annotation_fits(start, end) => self.not_a_move(),
                    Some(value) => {
                        self.not_a_move();
                        self.sink.nag(Nag {
                            value,
                            span: sp(start, end),
                        });
                    }
                    None => self.error(SyntaxErrorKind::BadNag, sp(start, end), || {
                        "NAG out of range: expected `$0` to `$65535`".to_owned()
                    }),
                }
            }
            None => {
                let start = self.pos;
                self.error(SyntaxErrorKind::BadNag, sp(start, start + 1), || {
                    "`$` without a number: expected a NAG such as `$1`".to_owned()
                });
                self.pos = start + 1;
            }
        }
        Ok(false)
    }
}
