//! Movetext tokens on the general path: move numbers, moves in every tolerated shape
//! (numeric, algebraic, padded, undivided, hyphenated, with strengths), results written as
//! moves, stray dashes and dots, detached strengths and unknown tokens.

use std::ops::ControlFlow;

use super::{P, Res, Sink, eq_compact, prose, show, sp};
use crate::syntax::game::SyntaxErrorKind;
use crate::syntax::game::{MoveKind, MoveNumber, Span, Square, ToleratedKind};
use crate::syntax::squares::Squares;
use crate::syntax::token::{self, Digits, Sep, is_ws};

/// The squares of a move token as read, and how they were written.
struct MoveSquares<'a> {
    squares: Squares,
    /// End of the last square.
    end: usize,
    /// White space around a separator.
    spaces: bool,
    /// Hyphens between the squares.
    hyphens: u32,
    /// The first capture separator.
    capture: Option<char>,
    /// A square 0.
    zero: bool,
    /// Algebraic squares without separator (`a3b4`).
    undivided: bool,
    /// A numeric square with a zero before its digits.
    leading_zero: bool,
    /// The digits of the second square, when numeric.
    second_digits: &'a [u8],
}

impl<'a, S: Sink> P<'a, S> {
    // ---- moves ----

    #[inline]
    pub(super) fn set_number(&mut self, n: MoveNumber) {
        if let Some(old) = self.line.pending.replace(n) {
            self.note(ToleratedKind::MoveNumberWithoutMove, old.span);
        }
    }

    // ---- moves (general path) ----

    /// A token starting with a digit: move number, numeric move or result.
    pub(super) fn number_led(&mut self) -> Res<bool> {
        let start = self.pos;
        if matches!(self.s.get(start + 1), Some(b'/' | b'.'))
            && let Ok((rest, (_, standard))) = token::draw_literal::<()>(&self.s[start..])
        {
            let end = self.s.len() - rest.len();
            self.check_end(end)?;
            return self.result(start, end, !standard, false);
        }
        let Ok((rest, d1)) = token::digits::<()>(&self.s[start..]) else {
            return self.garbage(start);
        };
        let after = self.s.len() - rest.len();
        self.check_end(after)?;
        if self.s.get(after) == Some(&b'.') {
            return self.move_number(start, after, d1);
        }
        let Some(v1) = d1.value else {
            self.pos = after;
            self.error(SyntaxErrorKind::NumberTooLong, sp(start, after), || {
                "number too long: expected a move or a move number".to_owned()
            });
            return Ok(false);
        };
        self.move_token(
            start,
            Square::Num(v1),
            after,
            Some(d1.text),
            d1.leading_zero(),
        )
    }

    pub(super) fn move_number(
        &mut self,
        start: usize,
        dot: usize,
        d: token::Digits<'_>,
    ) -> Res<bool> {
        let (rest, ndots) = token::number_dots::<()>(&self.s[dot..]).unwrap_or((&[], 1));
        let mut end = self.s.len() - rest.len();
        self.check_end(end)?;
        let mut second = ndots >= 2;
        if !second {
            // `12. ...`
            let q = self.ws_from(end)?;
            if q > end && self.at(q)? == Some(b'.') {
                self.at(q + 3)?;
                if token::ellipsis::<()>(&self.s[q..]).is_ok() {
                    second = true;
                    end = q + 3;
                }
            }
        }
        self.pos = end;
        let Some(number) = d.value else {
            self.error(SyntaxErrorKind::NumberTooLong, sp(start, end), || {
                "move number too large: expected at most 4294967295".to_owned()
            });
            return Ok(false);
        };
        if d.leading_zero() {
            self.note(ToleratedKind::LeadingZeros, sp(start, end));
        }
        self.set_number(MoveNumber {
            number,
            second_player: second,
            span: sp(start, end),
        });
        Ok(false)
    }

    pub(super) fn alpha_move(&mut self) -> Res<bool> {
        match self.lex(token::alpha_square::<()>)? {
            Some((start, end, sq)) => self.move_token(start, sq, end, None, false),
            None => self.garbage(self.pos),
        }
    }

    /// A move token whose first square (`first`, ending at `after`) was read. `digits` is
    /// the first square's text when it is numeric.
    pub(super) fn move_token(
        &mut self,
        start: usize,
        first: Square,
        after: usize,
        digits: Option<&[u8]>,
        leading_zero: bool,
    ) -> Res<bool> {
        let mut m = MoveSquares {
            squares: Squares::new(),
            end: after,
            spaces: false,
            hyphens: 0,
            capture: None,
            zero: matches!(first, Square::Num(0)),
            undivided: false,
            leading_zero,
            second_digits: &[],
        };
        m.squares.push(first);
        if let ControlFlow::Break(done) = self.more_squares(start, &mut m, digits)? {
            return Ok(done);
        }
        let end = m.end;
        if m.squares.len() == 1 {
            return self.lone_square(start, end, m.squares[0], digits);
        }
        if let Some(d1) = digits
            && let Some(done) = self.numeric_non_move(start, &m, d1)?
        {
            return Ok(done);
        }
        let kind = self.move_kind(&m, sp(start, end));
        self.finish_move(m.squares, kind, start, end)
    }

    /// The squares of a move token after its first and their separators, read into `m` up
    /// to the first that does not continue it. Breaks with the token read as a result when
    /// it is one glued to the next game's move number (`0-201.32-28`).
    #[inline(always)]
    fn more_squares(
        &mut self,
        start: usize,
        m: &mut MoveSquares<'a>,
        digits: Option<&[u8]>,
    ) -> Res<ControlFlow<bool>> {
        let numeric = digits.is_some();
        loop {
            let end = m.end;
            let p1 = self.hspace_from(end)?;
            // `a3b4`: algebraic squares without separator.
            if !numeric
                && p1 == end
                && let Some(b'a'..=b'z' | b'A'..=b'Z') = self.at(p1)?
            {
                self.at(p1 + 3)?;
                if let Ok((rest, sq)) = token::alpha_square::<()>(&self.s[p1..]) {
                    let e = self.s.len() - rest.len();
                    self.check_end(e)?;
                    m.squares.push(sq);
                    m.undivided = true;
                    m.end = e;
                    continue;
                }
            }
            self.at(p1 + 2)?;
            let Ok((rest, sep)) = token::separator::<()>(&self.s[p1.min(self.s.len())..]) else {
                break;
            };
            let p2 = self.s.len() - rest.len();
            let p3 = self.hspace_from(p2)?;
            // A space before the separator needs one after it (`35 x 19`, `1 - 1`), so that
            // `32-28 x1a3` or `32-28 - 2. 33-29` (an unknown move) are not joined.
            let spaced = p1 > end;
            if spaced && p3 == p2 {
                break;
            }
            let Some((sq, e, d)) = self.square_after_separator(p3, numeric, spaced)? else {
                break;
            };
            if let (Some(d), Some(d1)) = (d, digits)
                && m.squares.len() == 1
                && sep == Sep::Move
                && d.text.len() > 1
                && self.s.get(e) == Some(&b'.')
                && token::standard_numeric_result(d1, &d.text[..1])
            {
                // `0-201.32-28`: a result glued to the next game's move number.
                let r = p3 + 1;
                self.note(ToleratedKind::GluedResult, sp(start, r));
                let spaces = p1 > end || p3 > p2;
                return Ok(ControlFlow::Break(self.result(start, r, spaces, spaces)?));
            }
            if let Some(d) = d {
                m.leading_zero |= d.leading_zero();
                m.zero |= d.value == Some(0);
                if m.squares.len() == 1 {
                    m.second_digits = d.text;
                }
            }
            m.spaces |= p1 > end || p3 > p2;
            match sep {
                Sep::Move => m.hyphens += 1,
                Sep::Capture(c) => {
                    m.capture.get_or_insert(c);
                }
            }
            m.squares.push(sq);
            m.end = e;
        }
        Ok(ControlFlow::Continue(()))
    }

    /// The square after a separator, at `p`, as the first square was written (`numeric` or
    /// algebraic): the square, its end and its digits. `None` if no square of the move
    /// stands there (after a `spaced` separator, digits and a dot are the next move number).
    #[inline(always)]
    fn square_after_separator(
        &mut self,
        p: usize,
        numeric: bool,
        spaced: bool,
    ) -> Res<Option<(Square, usize, Option<Digits<'a>>)>> {
        if !numeric {
            self.at(p + 3)?;
            let Ok((rest, sq)) = token::alpha_square::<()>(&self.s[p.min(self.s.len())..]) else {
                return Ok(None);
            };
            let e = self.s.len() - rest.len();
            self.check_end(e)?;
            return Ok(Some((sq, e, None)));
        }
        if !matches!(self.at(p)?, Some(b'0'..=b'9')) {
            return Ok(None);
        }
        let Ok((rest, d)) = token::digits::<()>(&self.s[p..]) else {
            return Ok(None);
        };
        let e = self.s.len() - rest.len();
        self.check_end(e)?;
        let Some(v) = d.value else { return Ok(None) };
        // `32-28 - 2.`: after a spaced separator, digits and a dot are the next move number.
        if spaced && self.at(e)? == Some(b'.') {
            return Ok(None);
        }
        Ok(Some((Square::Num(v), e, Some(d))))
    }

    /// A numeric token of squares (`d1`: the first square's digits) that is no move: a
    /// result written as one (`1-0`, `0-2`, the result tag's text before the next game), or
    /// a move with square 0. `Some` with what the token gave when it is one of them.
    #[inline]
    fn numeric_non_move(
        &mut self,
        start: usize,
        m: &MoveSquares<'a>,
        d1: &[u8],
    ) -> Res<Option<bool>> {
        let (end, spaces) = (m.end, m.spaces);
        if m.squares.len() == 2 && m.capture.is_none() && !m.undivided {
            if token::standard_numeric_result(d1, m.second_digits) {
                return self.result(start, end, spaces, spaces).map(Some);
            }
            if m.zero {
                return self.result(start, end, true, spaces).map(Some);
            }
            if self.stack.is_empty()
                && self.result_tag_movelike
                && self
                    .result_tag
                    .as_deref()
                    .is_some_and(|t| eq_compact(&self.s[start..end], t))
            {
                // Only the next game (maybe after prose) or the end of the file.
                if self.next_game_follows(end)?.is_some() {
                    return self.result(start, end, true, spaces).map(Some);
                }
            }
        }
        if m.zero {
            self.pos = end;
            self.error(SyntaxErrorKind::SquareZero, sp(start, end), || {
                "square 0 does not exist: expected squares numbered from 1".to_owned()
            });
            return Ok(Some(false));
        }
        Ok(None)
    }

    /// How the squares of a move are joined, with the notes on how they were written.
    #[inline(always)]
    fn move_kind(&mut self, m: &MoveSquares<'_>, span: Span) -> MoveKind {
        let kind = if let Some(c) = m.capture {
            if c != 'x' {
                self.note(ToleratedKind::CaptureSeparator, span);
            }
            if m.hyphens > 0 {
                self.note(ToleratedKind::MixedSeparators, span);
            }
            MoveKind::Capture(c)
        } else if m.undivided && m.hyphens == 0 {
            MoveKind::Undivided
        } else {
            if m.hyphens >= 2 {
                self.note(ToleratedKind::HyphenatedLongMove, span);
            }
            MoveKind::Normal
        };
        if m.spaces {
            self.note(ToleratedKind::SpacesInMove, span);
        }
        if m.leading_zero {
            self.note(ToleratedKind::LeadingZeros, span);
        }
        kind
    }

    /// A square with no separator after it: an undivided numeric move, or an error.
    pub(super) fn lone_square(
        &mut self,
        start: usize,
        end: usize,
        sq: Square,
        digits: Option<&[u8]>,
    ) -> Res<bool> {
        // Glued to letters (`12a`, `3rd`): no move at all.
        if let Some(b) = self.at(end)?
            && (b.is_ascii_alphanumeric() || b >= 0x80)
        {
            return self.garbage(start);
        }
        let span = sp(start, end);
        if let Some(d) = digits {
            let mut squares = Squares::new();
            if d.len() == 4 {
                let (a, b) = (token::value_of(&d[..2]), token::value_of(&d[2..]));
                if let (Some(a @ 1..), Some(b @ 1..)) = (a, b) {
                    squares.push(Square::Num(a));
                    squares.push(Square::Num(b));
                }
            }
            // Three significant digits or more (`932`, `1200`): one square of all of them.
            if squares.is_empty() && matches!(sq, Square::Num(100..)) {
                squares.push(sq);
            }
            if !squares.is_empty() {
                self.note(ToleratedKind::UndividedNumericMove, span);
                if d[0] == b'0' {
                    self.note(ToleratedKind::LeadingZeros, span);
                }
                return self.finish_move(squares, MoveKind::Undivided, start, end);
            }
        }
        self.pos = end;
        let text = show(&self.s[start..end]);
        self.error(SyntaxErrorKind::UnexpectedToken, span, || {
            if digits.is_some() {
                format!(
                    "unexpected number `{text}`: expected a move number (`{text}.`) or a move \
                     (`{text}-…`)"
                )
            } else {
                format!("lone square `{text}`: expected a move (`{text}-…` or `{text}x…`)")
            }
        });
        Ok(false)
    }

    /// Record a move read from `start` to `end` (its strength, if attached, is read here).
    pub(super) fn finish_move(
        &mut self,
        squares: Squares,
        kind: MoveKind,
        start: usize,
        end: usize,
    ) -> Res<bool> {
        let s = self.s;
        let mut pos = end;
        let mut strength: Option<&[u8]> = None;
        match self.at(end)? {
            Some(b'!' | b'?' | b'(') => {
                if self.at(end)? == Some(b'(') {
                    if let Some(n) = self.paren_strength(end)? {
                        strength = Some(&s[end..end + n]);
                        pos = end + n;
                    }
                } else if let Ok((rest, st)) = token::strength::<()>(&s[end..]) {
                    let e = s.len() - rest.len();
                    self.check_end(e)?;
                    strength = Some(st);
                    pos = e;
                }
            }
            Some(b'*') => {
                // FMJD's forced-move star, unless it is the game separator.
                let q = self.trivia_from(end + 1)?;
                if !matches!(self.at(q)?, None | Some(b'[')) {
                    self.note(ToleratedKind::StarStrength, sp(end, end + 1));
                    strength = Some(b"*");
                    pos = end + 1;
                }
            }
            _ => {}
        }
        self.pos = pos;
        self.emit_move(squares, kind, strength, sp(start, end));
        Ok(false)
    }

    /// `-` standing alone: an unknown move (`41. - -`).
    pub(super) fn dash(&mut self) -> Res<bool> {
        let start = self.pos;
        let mut end = start + 1;
        if self.at(end)? == Some(b'-') {
            end += 1;
        }
        match self.at(end)? {
            None => {}
            Some(b)
                if is_ws(b)
                    || matches!(
                        b,
                        b')' | b'(' | b'{' | b'%' | b';' | b'*' | b'$' | b'!' | b'?'
                    ) => {}
            Some(_) => return self.garbage(start),
        }
        self.note(ToleratedKind::UnknownMove, sp(start, end));
        self.finish_move(Squares::new(), MoveKind::Unknown, start, end)
    }

    /// `...` standing alone (an unknown move) or stray dots.
    pub(super) fn dots(&mut self) -> Res<bool> {
        let start = self.pos;
        self.at(start + 3)?;
        if token::ellipsis::<()>(&self.s[start..]).is_ok() {
            self.note(ToleratedKind::UnknownMove, sp(start, start + 3));
            return self.finish_move(Squares::new(), MoveKind::Unknown, start, start + 3);
        }
        let mut end = start;
        while self.at(end)? == Some(b'.') {
            end += 1;
        }
        self.note(ToleratedKind::StrayDot, sp(start, end));
        self.pos = end;
        Ok(false)
    }

    /// `!`, `?` after white space.
    pub(super) fn detached_strength(&mut self) -> Res<bool> {
        let start = self.pos;
        let mut end = start;
        while let Some(b'!' | b'?') = self.at(end)? {
            end += 1;
        }
        self.attach_detached_strength(start, end);
        Ok(false)
    }

    pub(super) fn attach_detached_strength(&mut self, a: usize, b: usize) {
        self.pos = b;
        let s = self.s;
        let text = &s[a..b];
        if self.line.bare_move {
            self.line.bare_move = false;
            self.sink.late_strength(text);
            self.note(ToleratedKind::SpaceBeforeStrength, sp(a, b));
            return;
        }
        self.error(SyntaxErrorKind::StrengthWithoutMove, sp(a, b), || {
            let text = String::from_utf8_lossy(text);
            format!("unexpected `{text}`: a move strength must follow its move")
        });
    }

    /// An unknown token from `start`: skip it up to white space or a delimiter.
    pub(super) fn garbage(&mut self, start: usize) -> Res<bool> {
        let mut end = self.garbage_word(start + 1)?;
        // Words that follow on the same line (unbraced commentary, `White resigns`) are one
        // error, not one per word; a token that may start movetext ends the run.
        loop {
            let q = self.hspace_from(end)?;
            match self.at(q)? {
                Some(b) if b.is_ascii_alphabetic() || b >= 0x80 || b == b'\\' => {
                    let e = self.garbage_word(q + 1)?;
                    if prose::is_movetext(&self.s[q..e]) {
                        break;
                    }
                    end = e;
                }
                _ => break,
            }
        }
        // Do not cut a UTF-8 character in the message's span.
        self.pos = end;
        let text = show(&self.s[start..end]);
        self.error(SyntaxErrorKind::UnexpectedToken, sp(start, end), || {
            format!(
                "unexpected `{text}`: expected a move, a move number, a comment, a variation, \
                 a NAG, a setup, a result or `*`"
            )
        });
        Ok(false)
    }

    /// Where an unknown token that goes on at `p` ends: at white space or a delimiter.
    fn garbage_word(&self, mut end: usize) -> Res<usize> {
        while let Some(b) = self.at(end)? {
            if is_ws(b) || matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b'%' | b';') {
                break;
            }
            end += 1;
        }
        Ok(end)
    }
}
