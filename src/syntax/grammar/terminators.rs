//! Game terminators: `*`, the results in their standard and legacy forms, a result that is
//! really a move, a stray terminator inside a variation, and the half results.

use super::*;

impl<S: Sink> P<'_, S> {
    // ---- terminators ----

    pub(super) fn star_terminator(&mut self) -> Res<bool> {
        let start = self.pos;
        if !self.stack.is_empty() {
            let open = self.outer_open();
            let n = self.stack.len();
            self.error(
                SyntaxErrorKind::UnterminatedVariation,
                sp(open, open + 1),
                || format!("unterminated variation: expected `)` before `*` ({n} open)"),
            );
            self.close_all();
        }
        self.sink.result(b"*", sp(start, start + 1));
        self.ended_by_star = true;
        self.pos = start + 1;
        Ok(true)
    }

    /// True if a result from `a` would end a game that has nothing at all before it (no tag,
    /// comment or movetext): a game is a game only with tags, comments or moves, so the
    /// result is skipped. `pos` is then past it. (A `*` alone is an empty game: the writer
    /// writes one so. A result right after another game's terminator is that game's, see
    /// [`P::ended`].)
    pub(super) fn stray_terminator(&mut self, a: usize, b: usize) -> bool {
        if !self.is_stray_terminator(a) {
            return false;
        }
        self.note(ToleratedKind::StrayTerminator, sp(a, b));
        self.pos = b;
        let mut p = b;
        while p < self.s.len() && is_ws(self.s[p]) {
            p += 1;
        }
        self.first_token = p;
        true
    }

    /// See [`P::stray_terminator`].
    #[inline]
    pub(super) fn is_stray_terminator(&self, a: usize) -> bool {
        a == self.first_token && !self.has_tags && !self.has_comment && self.stack.is_empty()
    }

    /// Where a terminator standing alone at `p` ends (`*`, `2-0`, `0-2`, `1-1`, `0-0`, `1-0`,
    /// `0-1`, `1/2-1/2`, `½-½`, followed by white space or the end of the file).
    pub(super) fn terminator_at(&self, p: usize) -> Res<Option<usize>> {
        const FORMS: [&[u8]; 9] = [
            b"*",
            b"2-0",
            b"0-2",
            b"1-1",
            b"0-0",
            b"1-0",
            b"0-1",
            b"1/2-1/2",
            "\u{bd}-\u{bd}".as_bytes(),
        ];
        for form in FORMS {
            let e = p + form.len();
            let mut ok = true;
            for (k, &b) in form.iter().enumerate() {
                if self.at(p + k)? != Some(b) {
                    ok = false;
                    break;
                }
            }
            if ok && self.at(e)?.is_none_or(is_ws) {
                return Ok(Some(e));
            }
        }
        Ok(None)
    }

    /// After a result: a `*` on the same line (`2-0 *`) is part of the terminator.
    pub(super) fn absorb_star(&mut self) -> Res<()> {
        let q = self.hspace_from(self.pos)?;
        if self.at(q)? == Some(b'*') {
            self.note(ToleratedKind::DoubleTerminator, sp(q, q + 1));
            self.pos = q + 1;
        }
        Ok(())
    }

    /// A result from `a` to `b`. Returns true if it ends the game.
    pub(super) fn result(
        &mut self,
        a: usize,
        b: usize,
        nonstandard: bool,
        spaces: bool,
    ) -> Res<bool> {
        let ended = self.result_here(a, b, nonstandard, spaces);
        if ended {
            self.absorb_star()?;
        }
        Ok(ended)
    }

    /// [`P::result`] without the look for a `*` after it.
    pub(super) fn result_here(
        &mut self,
        a: usize,
        b: usize,
        nonstandard: bool,
        spaces: bool,
    ) -> bool {
        if self.stray_terminator(a, b) {
            return false;
        }
        self.pos = b;
        if !self.stack.is_empty() {
            self.note(ToleratedKind::ResultInVariation, sp(a, b));
            self.push_comment(a..b, CommentKind::Brace, a, b);
            return false;
        }
        if nonstandard {
            self.note(ToleratedKind::NonStandardResult, sp(a, b));
        }
        if spaces {
            self.note(ToleratedKind::SpacesInMove, sp(a, b));
        }
        self.note(ToleratedKind::ResultAsSeparator, sp(a, b));
        let s = self.s;
        self.sink.result(&s[a..b], sp(a, b));
        true
    }

    pub(super) fn half_result(&mut self) -> Res<bool> {
        match self.lex(token::draw_literal::<()>)? {
            Some((start, end, _)) => self.result(start, end, true, false),
            None => self.garbage(self.pos),
        }
    }
}
