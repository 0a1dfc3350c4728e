//! The PDN token table as nom parsers over bytes (docs/pdn.md#movetext and the reading grammar of
//! §1.4): digits, move-number dots, squares, separators, move strengths, NAGs, result
//! literals and tag names. Each parser recognises one token at the start of its input and
//! knows nothing of the tokens around it; `grammar` strings them together.
//!
//! The parsers are generic over the nom error type; the grammar runs them with `()` so that a
//! failed alternative costs nothing.

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_while, take_while1},
    character::complete::{digit1, satisfy, space0},
    combinator::{recognize, verify},
    error::{ErrorKind, ParseError},
    sequence::delimited,
};

use super::game::Square;

/// Input of every token parser.
pub(crate) type In<'a> = &'a [u8];

/// A run of decimal digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Digits<'a> {
    /// The digits as written.
    pub text: &'a [u8],
    /// Their value, `None` if it does not fit in a `u32`.
    pub value: Option<u32>,
}

impl Digits<'_> {
    /// A zero before another digit (`01`, `09`).
    #[inline]
    pub(super) fn leading_zero(&self) -> bool {
        self.text.len() > 1 && self.text[0] == b'0'
    }
}

/// Decimal value of a digit run, `None` on overflow.
#[inline]
pub(crate) fn value_of(text: &[u8]) -> Option<u32> {
    let mut v: u32 = 0;
    for &b in text {
        v = v
            .checked_mul(10)?
            .checked_add(u32::from(b.wrapping_sub(b'0')))?;
    }
    Some(v)
}

/// `[0-9]+`.
#[inline]
pub(crate) fn digits<'a, E: ParseError<In<'a>>>(i: In<'a>) -> IResult<In<'a>, Digits<'a>, E> {
    let (rest, text) = digit1(i)?;
    Ok((
        rest,
        Digits {
            text,
            value: value_of(text),
        },
    ))
}

/// The dots after a move number's digits: `.` (first player) or `...` (second player).
/// Returns the number of dots (1 or 3; two dots are read as the second player's form too).
#[inline]
pub(crate) fn number_dots<'a, E: ParseError<In<'a>>>(i: In<'a>) -> IResult<In<'a>, usize, E> {
    let (rest, dots) = take_while1(|b| b == b'.').parse(i)?;
    Ok((rest, dots.len()))
}

/// `...` not followed by a fourth dot.
#[inline]
pub(crate) fn ellipsis<'a, E: ParseError<In<'a>>>(i: In<'a>) -> IResult<In<'a>, In<'a>, E> {
    let (rest, e) = tag("...").parse(i)?;
    if rest.first() == Some(&b'.') {
        return Err(nom::Err::Error(E::from_error_kind(i, ErrorKind::Tag)));
    }
    Ok((rest, e))
}

/// An algebraic square: a letter `a`–`z` (or `A`–`Z`) and a rank 1–26 (`a1`, `H8`, `j10`).
/// The longest rank that is at most 26 is taken.
#[inline]
pub(crate) fn alpha_square<'a, E: ParseError<In<'a>>>(i: In<'a>) -> IResult<In<'a>, Square, E> {
    let fail = || nom::Err::Error(E::from_error_kind(i, ErrorKind::Satisfy));
    let (&letter, rest) = i.split_first().ok_or_else(fail)?;
    if !letter.is_ascii_alphabetic() {
        return Err(fail());
    }
    let file = letter.to_ascii_lowercase() - b'a';
    let d1 = match rest.first() {
        Some(&d @ b'1'..=b'9') => d - b'0',
        _ => return Err(fail()),
    };
    if let Some(&d2 @ b'0'..=b'9') = rest.get(1) {
        let r = d1 * 10 + (d2 - b'0');
        if r <= 26 {
            return Ok((&rest[2..], Square::Alg { file, rank: r - 1 }));
        }
    }
    Ok((&rest[1..], Square::Alg { file, rank: d1 - 1 }))
}

/// A move or capture separator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sep {
    /// `-`.
    Move,
    /// `x`, `X`, `:` or `×` (the character as written).
    Capture(char),
}

/// `-`, `x`, `X`, `:`, `×` (UTF-8), or a lone Windows-1252 `×` byte (0xD7) in a game that
/// is not UTF-8.
#[inline]
pub(crate) fn separator<'a, E: ParseError<In<'a>>>(i: In<'a>) -> IResult<In<'a>, Sep, E> {
    match i {
        [b'-', rest @ ..] => Ok((rest, Sep::Move)),
        [b'x', rest @ ..] => Ok((rest, Sep::Capture('x'))),
        [b'X', rest @ ..] => Ok((rest, Sep::Capture('X'))),
        [b':', rest @ ..] => Ok((rest, Sep::Capture(':'))),
        [0xC3, 0x97, rest @ ..] => Ok((rest, Sep::Capture('×'))),
        [0xD7, rest @ ..] if !matches!(rest.first(), Some(0x80..=0xBF)) => {
            Ok((rest, Sep::Capture('×')))
        }
        _ => Err(nom::Err::Error(E::from_error_kind(i, ErrorKind::Char))),
    }
}

/// A move strength: a run of `!`/`?`, or one in parentheses (`(?)`, `(!?!!!)`).
#[inline]
pub(crate) fn strength<'a, E: ParseError<In<'a>>>(i: In<'a>) -> IResult<In<'a>, In<'a>, E> {
    let marks = take_while1(|b| b == b'!' || b == b'?');
    alt((
        recognize(marks),
        recognize(delimited(
            tag("("),
            take_while1(|b| b == b'!' || b == b'?'),
            tag(")"),
        )),
    ))
    .parse(i)
}

/// `$` and digits; the value is `None` when it does not fit in a `u16`.
#[inline]
pub(crate) fn nag<'a, E: ParseError<In<'a>>>(i: In<'a>) -> IResult<In<'a>, Option<u16>, E> {
    let (rest, d) = nom::sequence::preceded(tag("$"), digits).parse(i)?;
    Ok((rest, d.value.and_then(|v| u16::try_from(v).ok())))
}

/// One half of a drawn result: `1/2`, `½` or `0.5`.
fn half<'a, E: ParseError<In<'a>>>(i: In<'a>) -> IResult<In<'a>, In<'a>, E> {
    alt((tag("1/2"), tag("½"), tag("0.5"))).parse(i)
}

/// The drawn results that do not look like moves: `1/2-1/2`, `½-½`, `0.5-0.5`, with
/// optional spaces around the `-`. Returns the literal; `true` when it is the standard
/// `1/2-1/2`.
pub(crate) fn draw_literal<'a, E: ParseError<In<'a>>>(
    i: In<'a>,
) -> IResult<In<'a>, (In<'a>, bool), E> {
    let (rest, lit) = recognize((half, space0, tag("-"), space0, half)).parse(i)?;
    Ok((rest, (lit, lit == b"1/2-1/2")))
}

/// True for a PDN IDENTIFIER: `[A-Z][a-zA-Z0-9_]*`.
pub(crate) fn is_identifier(name: &[u8]) -> bool {
    let r: IResult<In<'_>, In<'_>, ()> = recognize((
        satisfy(|c| c.is_ascii_uppercase()),
        take_while(|b: u8| b.is_ascii_alphanumeric() || b == b'_'),
    ))
    .parse(name);
    matches!(r, Ok((rest, _)) if rest.is_empty())
}

/// The strength-in-parentheses form `([!?]+)` at the start of the input (so that `(?)` is
/// not read as a variation).
pub(crate) fn is_paren_strength(i: &[u8]) -> Option<usize> {
    let r: IResult<In<'_>, In<'_>, ()> = verify(strength, |s: &[u8]| s[0] == b'(').parse(i);
    r.ok().map(|(_, s)| s.len())
}

/// `a-b` where both are the given digit strings: the PDN results that look like moves.
pub(crate) fn standard_numeric_result(a: &[u8], b: &[u8]) -> bool {
    matches!(
        (a, b),
        (b"1", b"0") | (b"0", b"1") | (b"2", b"0") | (b"0", b"2") | (b"1", b"1") | (b"0", b"0")
    )
}

/// PDN white space: space, tab, CR, LF (and, leniently, form feed and vertical tab).
#[inline]
pub(crate) const fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C)
}

/// Where a result standing alone ends `line` (`… 2-0`, `1-1`, `1/2-1/2`, `*`, trailing
/// spaces, tabs and CRs aside): the start of that result. A line that ends so most likely
/// ends a game; what follows it, the next one (the cuts of `pieces`, and where a comment that
/// was never closed must stop in an archive without tags).
pub(crate) fn result_at_line_end(line: &[u8]) -> Option<usize> {
    const RESULTS: [&[u8]; 8] = [
        b"2-0", b"0-2", b"1-1", b"0-0", b"1-0", b"0-1", b"1/2-1/2", b"*",
    ];
    let mut e = line.len();
    while e > 0 && matches!(line[e - 1], b' ' | b'\t' | b'\r') {
        e -= 1;
    }
    let line = &line[..e];
    RESULTS.iter().find_map(|r| {
        let at = line.len().checked_sub(r.len())?;
        let alone = at == 0 || matches!(line[at - 1], b' ' | b'\t' | b'\n' | b'\r');
        (line.ends_with(r) && alone).then_some(at)
    })
}

/// The value of an optional move-strength token, used in tests.
#[cfg(test)]
fn strength_str(i: &str) -> Option<&str> {
    let r: IResult<In<'_>, In<'_>, ()> = nom::combinator::opt(strength)
        .parse(i.as_bytes())
        .map(|(a, b)| (a, b.unwrap_or(b"")));
    match r {
        Ok((_, s)) if !s.is_empty() => std::str::from_utf8(s).ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type R<'a, T> = IResult<In<'a>, T, ()>;

    #[test]
    fn digits_and_values() {
        let r: R<'_, Digits<'_>> = digits(b"0932x");
        let (rest, d) = r.unwrap();
        assert_eq!(rest, b"x");
        assert_eq!(d.value, Some(932));
        assert!(d.leading_zero());
        let r: R<'_, Digits<'_>> = digits(b"99999999999");
        assert_eq!(r.unwrap().1.value, None);
        let r: R<'_, Digits<'_>> = digits(b"x1");
        assert!(r.is_err());
    }

    #[test]
    fn dots_and_ellipsis() {
        let r: R<'_, usize> = number_dots(b"... 7-12");
        assert_eq!(r.unwrap(), (&b" 7-12"[..], 3));
        let r: R<'_, usize> = number_dots(b".32-28");
        assert_eq!(r.unwrap().1, 1);
        let r: R<'_, In<'_>> = ellipsis(b"... 12-18");
        assert!(r.is_ok());
        let r: R<'_, In<'_>> = ellipsis(b"....");
        assert!(r.is_err());
    }

    #[test]
    fn algebraic_squares() {
        let sq = |s: &'static str| {
            let r: R<'_, Square> = alpha_square(s.as_bytes());
            r.map(|(rest, q)| (q, rest.len())).ok()
        };
        assert_eq!(sq("a1"), Some((Square::Alg { file: 0, rank: 0 }, 0)));
        assert_eq!(sq("H8"), Some((Square::Alg { file: 7, rank: 7 }, 0)));
        assert_eq!(sq("j10"), Some((Square::Alg { file: 9, rank: 9 }, 0)));
        assert_eq!(sq("z26"), Some((Square::Alg { file: 25, rank: 25 }, 0)));
        // 27 is no rank: `a2` and a `7` left over.
        assert_eq!(sq("a27"), Some((Square::Alg { file: 0, rank: 1 }, 1)));
        assert_eq!(sq("a0"), None);
        assert_eq!(sq("ab"), None);
        assert_eq!(sq("3a"), None);
    }

    #[test]
    fn separators() {
        let sep = |s: &[u8]| {
            let r: R<'_, Sep> = separator(s);
            r.map(|x| x.1).ok()
        };
        assert_eq!(sep(b"-"), Some(Sep::Move));
        assert_eq!(sep(b"x"), Some(Sep::Capture('x')));
        assert_eq!(sep(b"X"), Some(Sep::Capture('X')));
        assert_eq!(sep(b":"), Some(Sep::Capture(':')));
        assert_eq!(sep("×".as_bytes()), Some(Sep::Capture('×')));
        assert_eq!(sep(b"\xD732"), Some(Sep::Capture('×')));
        assert_eq!(sep(b"\xD7\x90"), None);
        assert_eq!(sep(b"/"), None);
    }

    #[test]
    fn strengths() {
        assert_eq!(strength_str("!"), Some("!"));
        assert_eq!(strength_str("?! 12"), Some("?!"));
        assert_eq!(strength_str("(?)"), Some("(?)"));
        assert_eq!(strength_str("(!?!!!) x"), Some("(!?!!!)"));
        assert_eq!(strength_str("(32-28)"), None);
        assert_eq!(strength_str("()"), None);
        assert_eq!(is_paren_strength(b"(?) 12"), Some(3));
        assert_eq!(is_paren_strength(b"(19-23)"), None);
        assert_eq!(is_paren_strength(b"!"), None);
    }

    #[test]
    fn nags() {
        let r: R<'_, Option<u16>> = nag(b"$902 ");
        assert_eq!(r.unwrap(), (&b" "[..], Some(902)));
        let r: R<'_, Option<u16>> = nag(b"$70000");
        assert_eq!(r.unwrap().1, None);
        let r: R<'_, Option<u16>> = nag(b"$x");
        assert!(r.is_err());
    }

    #[test]
    fn draws() {
        let d = |s: &str| {
            let r: R<'_, (In<'_>, bool)> = draw_literal(s.as_bytes());
            r.map(|(_, (lit, std))| (lit.len(), std)).ok()
        };
        assert_eq!(d("1/2-1/2"), Some((7, true)));
        assert_eq!(d("1/2 - 1/2"), Some((9, false)));
        assert_eq!(d("½-½"), Some(("½-½".len(), false)));
        assert_eq!(d("0.5-0.5"), Some((7, false)));
        assert_eq!(d("1/2-1"), None);
        assert_eq!(d("1-1"), None);
    }

    #[test]
    fn results_that_look_like_moves() {
        assert!(standard_numeric_result(b"1", b"1"));
        assert!(standard_numeric_result(b"0", b"0"));
        assert!(!standard_numeric_result(b"1", b"10"));
        assert!(!standard_numeric_result(b"01", b"1"));
        assert!(!standard_numeric_result(b"4", b"6"));
    }

    #[test]
    fn identifiers() {
        assert!(is_identifier(b"Event"));
        assert!(is_identifier(b"White_Elo2"));
        assert!(!is_identifier(b"event"));
        assert!(!is_identifier(b"Foo-bar"));
        assert!(!is_identifier(b""));
    }
}
