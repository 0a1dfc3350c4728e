//! Text from the input made safe to show on a terminal: control characters (C0 — tab and
//! line breaks included —, DEL, C1) and the invisible bidirectional controls (embeddings,
//! overrides and isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F and
//! U+061C) are written as `\u{1b}`, so that a record holding `ESC [2J` or `ESC ]0;title BEL`
//! cannot clear the screen or retitle the window, and a right-to-left override cannot make a
//! line read other than it is. Everything else, backslashes included, is kept as it is.
//!
//! Every human-readable output that quotes the input goes through here (diagnostics, the
//! summaries, messages on standard error, statistics as text); JSON escapes the C0 controls
//! itself ([`crate::app::write::jsonl`]), CSV and PDN output are data and are left alone.

use std::borrow::Cow;
use std::fmt::Write as _;

/// True for a character that must not reach a terminal raw.
#[inline]
pub fn is_unsafe(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1f}'
        | '\u{7f}'..='\u{9f}'
        | '\u{200e}' | '\u{200f}' | '\u{061c}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2066}'..='\u{2069}')
}

/// True if some byte of `s` may start an unsafe character: the ASCII controls, DEL, and the
/// lead bytes of U+0080–U+009F (0xC2), U+061C (0xD8) and U+200E–U+2069 (0xE2). A quick
/// test: text without these is returned as is.
#[inline]
fn maybe_unsafe(s: &str) -> bool {
    s.bytes()
        .any(|b| b < 0x20 || b == 0x7f || b == 0xc2 || b == 0xd8 || b == 0xe2)
}

/// Append `s` with every unsafe character escaped as `\u{XX}`.
pub(crate) fn push_escaped(out: &mut String, s: &str) {
    if !maybe_unsafe(s) {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        if is_unsafe(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
}

/// `s` with every unsafe character escaped (borrowed when there is none).
pub fn escape(s: &str) -> Cow<'_, str> {
    if !maybe_unsafe(s) || !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    push_escaped(&mut out, s);
    Cow::Owned(out)
}

/// Lines of text for a terminal: every unsafe character escaped but the line feeds (and,
/// if `tabs`, the tabs) that lay the text out. For whole outputs made of input text.
pub fn escape_lines(s: &str, tabs: bool) -> Cow<'_, str> {
    let bad = |c: char| is_unsafe(c) && c != '\n' && !(tabs && c == '\t');
    if !maybe_unsafe(s) || !s.chars().any(bad) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if bad(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// How many characters `s` takes once escaped (to align a marker under escaped text).
pub(crate) fn escaped_width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            if is_unsafe(c) {
                // `\u{` + hex digits + `}`
                4 + format!("{:x}", c as u32).len()
            } else {
                1
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_are_escaped_the_rest_kept() {
        assert_eq!(escape("plain é ü 中 \\"), "plain é ü 中 \\");
        assert!(matches!(escape("plain “quoted”"), Cow::Borrowed(_)));
        assert_eq!(
            escape("a\u{1b}[2J\u{7}\0\u{7f}\u{85}\u{9b}\u{202e}b\t\n"),
            "a\\u{1b}[2J\\u{7}\\u{0}\\u{7f}\\u{85}\\u{9b}\\u{202e}b\\u{9}\\u{a}"
        );
        assert_eq!(
            escape("\u{200e}\u{200f}\u{2066}\u{2069}\u{61c}"),
            "\\u{200e}\\u{200f}\\u{2066}\\u{2069}\\u{61c}"
        );
        assert_eq!(escape_lines("x\u{1b}\ty\n", true), "x\\u{1b}\ty\n");
        assert_eq!(escape_lines("x\u{1b}\ty\n", false), "x\\u{1b}\\u{9}y\n");
        assert_eq!(escaped_width("a\u{1b}b"), 2 + "\\u{1b}".len());
        for c in [
            '\u{0}', '\u{1f}', '\u{7f}', '\u{80}', '\u{9f}', '\u{202a}', '\u{2069}',
        ] {
            assert!(is_unsafe(c), "{c:?}");
        }
        for c in [' ', '~', '\u{a0}', 'é', '\u{2028}', '\u{2070}', '\u{2000}'] {
            assert!(!is_unsafe(c), "{c:?}");
        }
    }
}
