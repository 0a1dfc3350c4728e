//! The Manoury book style of the French rule books: `1. 32-28 (19-23) 2. 37-32 (14-19)` —
//! each move number, the first player's move, the reply in parentheses.
//!
//! - Captures list every stopping square of the rafle (`27x18x9`); strengths (`!`, `?`, …)
//!   stay on their moves; comments, NAGs and setups are kept in place.
//! - Only the main line is written: in this style parentheses hold the replies, so
//!   variations are left out (`--to pdn` keeps them).
//! - A second player's move that does not follow a first player's move (at the start of a
//!   line, after a comment-free setup) is written `N... 19-23`.
//! - The tag section is PDN (standard tags first), the result is in the `Result` tag, and
//!   the game ends with its result as the books print it (`42. 38x49 2-0`; `*` when it is
//!   unknown or no game result). Reading the output back gives the same main line.

use crate::syntax::{
    Drain, Item, Keep, Tag, comment_for_writing, ordered_tags, result_terminator,
    tag_name_for_writing, tag_value_for_writing,
};

use super::Analysed;
use super::normal::Num;
use super::pdn::export_tags;
use super::plies::{Form, push_u32};

/// Line width of the movetext.
const WIDTH: usize = 80;

/// Write one game in the Manoury style, then a blank line.
pub fn write(a: &Analysed<'_>, out: &mut String) {
    write_to(a, out, &mut Keep);
}

/// [`write()`] handing the text to `drain` as it grows (after a tag or a unit of the
/// movetext: see `app::write::spill`).
pub fn write_to(a: &Analysed<'_>, out: &mut String, drain: &mut dyn Drain) {
    debug_assert!(
        a.by_record.is_none(),
        "a tree to write (only JSON reads a record)"
    );
    let tags = export_tags(a);
    write_tags(&tags, a, out, drain);
    let mut w = Wrap { out, col: 0, drain };
    let mut num = Num::START;
    let mut open_pair = false;
    let mut unit = String::new();
    for item in &a.normal.body.items {
        unit.clear();
        match item {
            Item::Move(m) => {
                if let Some(t) = m.number {
                    num = Num {
                        number: t.number,
                        second: t.second_player,
                    };
                }
                if !num.second {
                    push_u32(&mut unit, num.number);
                    unit.push_str(". ");
                    a.push_move_text(a.game, m, Form::Landings, &mut unit);
                    push_strength(m.strength.as_deref(), &mut unit);
                    open_pair = true;
                } else if open_pair {
                    unit.push('(');
                    a.push_move_text(a.game, m, Form::Landings, &mut unit);
                    push_strength(m.strength.as_deref(), &mut unit);
                    unit.push(')');
                    open_pair = false;
                } else {
                    push_u32(&mut unit, num.number);
                    unit.push_str("... ");
                    a.push_move_text(a.game, m, Form::Landings, &mut unit);
                    push_strength(m.strength.as_deref(), &mut unit);
                }
                num = num.after();
                w.unit(&unit);
            }
            Item::Comment(c) => {
                unit.push('{');
                unit.push_str(&comment_for_writing(&c.text));
                unit.push('}');
                w.unit(&unit);
            }
            Item::Nag(n) => {
                unit.push('$');
                push_u32(&mut unit, u32::from(n.value));
                w.unit(&unit);
            }
            Item::Setup(s) => {
                unit.push_str("/FEN \"");
                unit.extend(s.fen.chars().filter(|&c| c != '"' && c != '/'));
                unit.push_str("\"/");
                open_pair = false;
                w.unit(&unit);
            }
            Item::Variation(_) => {}
        }
    }
    // (A result ending the movetext as read that disagrees with the tag is the one read, as
    // in the PDN output: the disagreement is a finding that must not be lost.)
    let read = a.game.result.as_ref().filter(|r| !r.is_asterisk());
    let end = match (tags.iter().find(|t| t.name == "Result"), read) {
        (Some(t), Some(r)) if t.value.trim() != r.text.trim() => {
            r.text.chars().filter(|c| !c.is_whitespace()).collect()
        }
        _ => result_terminator(&tags, a.game.result.as_ref())
            .unwrap_or("*")
            .to_string(),
    };
    w.unit(&end);
    out.push_str("\n\n");
}

fn push_strength(s: Option<&str>, out: &mut String) {
    if let Some(s) = s {
        out.push_str(s);
    }
}

fn write_tags(tags: &[Tag], a: &Analysed<'_>, out: &mut String, drain: &mut dyn Drain) {
    let result = tags.iter().any(|t| t.name == "Result");
    let mut wrote = false;
    let mut one = |name: &str, value: &str, out: &mut String| {
        out.push('[');
        out.push_str(&tag_name_for_writing(name));
        out.push_str(" \"");
        for c in tag_value_for_writing(value).chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str("\"]\n");
        wrote = true;
        if out.len() >= drain.at() {
            drain.take(out);
        }
    };
    let ordered = ordered_tags(tags);
    let standard = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
    let mut synthetic_done = result;
    for t in ordered {
        if !synthetic_done && !standard.contains(&tag_name_for_writing(&t.name).as_ref()) {
            if let Some(r) = a.game.result.as_ref().filter(|r| !r.is_asterisk()) {
                one("Result", &r.text, out);
            }
            synthetic_done = true;
        }
        one(&t.name, &t.value, out);
    }
    if !synthetic_done && let Some(r) = a.game.result.as_ref().filter(|r| !r.is_asterisk()) {
        one("Result", &r.text, out);
    }
    if wrote {
        out.push('\n');
    }
}

struct Wrap<'o> {
    out: &'o mut String,
    /// The column the text written ends at (kept when the text is handed to the drain).
    col: usize,
    drain: &'o mut dyn Drain,
}

impl Wrap<'_> {
    fn unit(&mut self, text: &str) {
        let len = text.chars().count();
        if self.col > 0 {
            if self.col + 1 + len > WIDTH {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        self.out.push_str(text);
        match text.rfind(['\n', '\r']) {
            Some(k) => self.col = text[k + 1..].chars().count(),
            None => self.col += len,
        }
        if self.out.len() >= self.drain.at() {
            self.drain.take(self.out);
        }
    }
}
