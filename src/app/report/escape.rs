//! Text from the input made inert in the HTML report: escaped for HTML text and attribute
//! values, and for JSON inside a `<script type="application/json">` block (where every `<`
//! is written `\u003c`, so no `</script>` or `<!--` can end or bend the block). The page
//! inserts input text with `textContent` only, never as markup.

use std::fmt::Write as _;

use crate::app::picture::svg::entity;
use crate::app::write::terminal::is_unsafe;

/// Append `s` escaped for HTML text or a quoted attribute value. Controls other than tab and
/// line breaks (not allowed in HTML) become U+FFFD; bidirectional marks, embeddings,
/// overrides and isolates are written as character references (the same text in a browser,
/// but no raw override in the bytes, should the page be shown on a terminal).
pub(crate) fn push_html(out: &mut String, s: &str) {
    let mut rest = s;
    while let Some(i) = rest
        .find(|c: char| entity(c).is_some() || (is_unsafe(c) && !matches!(c, '\t' | '\n' | '\r')))
    {
        out.push_str(&rest[..i]);
        let c = rest[i..].chars().next().unwrap_or(' ');
        match entity(c) {
            Some(e) => out.push_str(e),
            None if is_bad(c) => out.push('\u{fffd}'),
            None => {
                let _ = write!(out, "&#x{:x};", c as u32);
            }
        }
        rest = &rest[i + c.len_utf8()..];
    }
    out.push_str(rest);
}

/// The controls (C0 but tab and line breaks, DEL, C1): not allowed in HTML.
fn is_bad(c: char) -> bool {
    (c < ' ' && !matches!(c, '\t' | '\n' | '\r')) || ('\u{7f}'..='\u{9f}').contains(&c)
}

/// `s` escaped for HTML.
pub fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    push_html(&mut out, s);
    out
}

/// Append a number in decimal (without going through `fmt`): the JSON writer's.
pub use crate::app::write::jsonl::push_uint as push_num;

/// Append `s` as a JSON string literal that is safe inside a `<script>` element.
pub(crate) fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if is_unsafe(c) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_from_the_input_can_close_a_block_or_open_a_tag() {
        let evil = "</script><script>alert(1)</script><!--\"'&\u{0}\u{2028}";
        let mut j = String::new();
        push_json_str(&mut j, evil);
        assert!(!j.contains('<') && !j.contains('>') && !j.contains('&'));
        let back: String = serde_json::from_str(&j).unwrap();
        assert_eq!(back, evil);
        let h = html(evil);
        assert!(!h.contains('<') && !h.contains('>') && !h.contains('"') && !h.contains('\''));
        assert!(h.contains("&lt;/script&gt;") && h.ends_with("&#39;&amp;\u{fffd}\u{2028}"));
    }

    #[test]
    fn no_control_or_bidi_override_is_written_raw() {
        let evil = "a\u{1b}[31m\u{9b}2J\u{202e}dcba\u{2066}x\u{2069}\u{200f}\tz";
        let h = html(evil);
        assert!(!h.chars().any(|c| is_unsafe(c) && c != '\t'), "{h:?}");
        assert_eq!(
            h,
            "a\u{fffd}[31m\u{fffd}2J&#x202e;dcba&#x2066;x&#x2069;&#x200f;\tz"
        );
        let mut j = String::new();
        push_json_str(&mut j, evil);
        assert!(!j.chars().any(is_unsafe), "{j:?}");
        let back: String = serde_json::from_str(&j).unwrap();
        assert_eq!(back, evil);
    }
}
