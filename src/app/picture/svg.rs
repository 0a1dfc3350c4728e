//! SVG pictures: the [`draw`] description written as SVG 1.1 elements (no
//! `<use>`, no CSS: every shape with its own attributes, so that editors and word processors
//! read it as browsers do). Every piece is a `<g class="piece white man"
//! data-square="32">` whose first circle is centred on its square; every playing square a
//! `<g class="square" data-square="…">`.

use std::fmt::Write as _;

use crate::rules::{Color, Role};

use super::Diagram;
use super::draw::{self, Anchor, Canvas, Rgba, Stroke};

/// The fonts asked for (the PNG renderer carries DejaVu Sans itself).
pub(crate) const FONT_FAMILY: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// A standalone SVG document of a diagram.
pub fn write(d: &Diagram) -> String {
    let f = draw::frame(d);
    let width = d.options.size;
    let height = (f64::from(width) * f64::from(f.height) / f64::from(f.width)).round() as u32;
    let mut out = String::with_capacity(16 << 10);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{width}\" \
         height=\"{height}\" viewBox=\"0 0 {} {}\" font-family=\"{FONT_FAMILY}\" \
         class=\"pdn-diagram\" data-variant=\"{}\" data-side=\"{}\" data-flip=\"{}\">",
        num(f.width),
        num(f.height),
        d.view.variant.name(),
        d.side.name(),
        d.options.flip,
    );
    if !d.caption.is_empty() {
        out.push_str("<title>");
        // As the caption drawn (see `draw`): control and bidirectional characters escaped.
        push_text(&mut out, &crate::app::write::terminal::escape(&d.caption));
        out.push_str("</title>\n");
    }
    let mut canvas = Svg { out: &mut out };
    draw::draw(d, &mut canvas);
    out.push_str("</svg>\n");
    out
}

/// The four pieces as `<symbol>`s (`pdn-white-man`, `pdn-white-king`, `pdn-black-man`,
/// `pdn-black-king`), centred on (0, 0) in a square of 100 units: for pages that place many
/// pieces with `<use>`.
pub(crate) fn piece_symbols() -> String {
    let mut out = String::new();
    for (color, role) in [
        (Color::White, Role::Man),
        (Color::White, Role::King),
        (Color::Black, Role::Man),
        (Color::Black, Role::King),
    ] {
        let role_name = match role {
            Role::Man => "man",
            Role::King => "king",
        };
        let _ = write!(
            out,
            "<symbol id=\"pdn-{}-{role_name}\" viewBox=\"-50 -50 100 100\">",
            color.name()
        );
        let mut canvas = Svg { out: &mut out };
        draw::piece(&mut canvas, 0.0, 0.0, color, role, "");
        out.push_str("</symbol>");
    }
    out
}

struct Svg<'a> {
    out: &'a mut String,
}

/// A number as SVG writes it: at most two decimals, no trailing zeros.
fn num(x: f32) -> String {
    let r = (x * 100.0).round() / 100.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        let s = format!("{r:.2}");
        s.trim_end_matches('0').to_string()
    }
}

fn color(c: Rgba) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

impl Svg<'_> {
    fn fill(&mut self, fill: Option<Rgba>) {
        match fill {
            Some(c) => {
                let _ = write!(self.out, " fill=\"{}\"", color(c));
                if c.3 != 255 {
                    let _ = write!(
                        self.out,
                        " fill-opacity=\"{}\"",
                        num(f32::from(c.3) / 255.0)
                    );
                }
            }
            None => self.out.push_str(" fill=\"none\""),
        }
    }

    fn stroke(&mut self, stroke: Option<Stroke>) {
        let Some(s) = stroke else {
            return;
        };
        let _ = write!(
            self.out,
            " stroke=\"{}\" stroke-width=\"{}\"",
            color(s.color),
            num(s.width)
        );
        if s.color.3 != 255 {
            let _ = write!(
                self.out,
                " stroke-opacity=\"{}\"",
                num(f32::from(s.color.3) / 255.0)
            );
        }
        if let Some([a, b]) = s.dash {
            let _ = write!(self.out, " stroke-dasharray=\"{} {}\"", num(a), num(b));
        }
    }

    fn points(&mut self, points: &[(f32, f32)]) {
        self.out.push_str(" points=\"");
        for (i, (x, y)) in points.iter().enumerate() {
            if i > 0 {
                self.out.push(' ');
            }
            let _ = write!(self.out, "{},{}", num(*x), num(*y));
        }
        self.out.push('"');
    }
}

impl Canvas for Svg<'_> {
    fn begin(&mut self, class: &str, data: &[(&str, &str)]) {
        let _ = write!(self.out, "<g class=\"{class}\"");
        for (k, v) in data {
            let _ = write!(self.out, " data-{k}=\"");
            push_text(self.out, v);
            self.out.push('"');
        }
        self.out.push('>');
    }

    fn end(&mut self) {
        self.out.push_str("</g>\n");
    }

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Option<Rgba>, stroke: Option<Stroke>) {
        let _ = write!(
            self.out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"",
            num(x),
            num(y),
            num(w),
            num(h)
        );
        self.fill(fill);
        self.stroke(stroke);
        self.out.push_str("/>");
    }

    fn circle(&mut self, cx: f32, cy: f32, r: f32, fill: Option<Rgba>, stroke: Option<Stroke>) {
        let _ = write!(
            self.out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"",
            num(cx),
            num(cy),
            num(r)
        );
        self.fill(fill);
        self.stroke(stroke);
        self.out.push_str("/>");
    }

    fn polygon(&mut self, points: &[(f32, f32)], fill: Option<Rgba>, stroke: Option<Stroke>) {
        self.out.push_str("<polygon");
        self.points(points);
        self.fill(fill);
        self.stroke(stroke);
        if stroke.is_some() {
            self.out.push_str(" stroke-linejoin=\"round\"");
        }
        self.out.push_str("/>");
    }

    fn polyline(&mut self, points: &[(f32, f32)], stroke: Stroke) {
        self.out.push_str("<polyline");
        self.points(points);
        self.fill(None);
        self.stroke(Some(stroke));
        self.out
            .push_str(" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>");
    }

    fn text(&mut self, x: f32, y: f32, size: f32, anchor: Anchor, fill: Rgba, text: &str) {
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let _ = write!(
            self.out,
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"{anchor}\"",
            num(x),
            num(y),
            num(size)
        );
        self.fill(Some(fill));
        self.out.push('>');
        push_text(self.out, text);
        self.out.push_str("</text>");
    }
}

/// Append text escaped for XML content and attribute values; characters XML 1.0 does not
/// allow (most C0 controls, U+FFFE, U+FFFF) become U+FFFD.
pub(crate) fn push_text(out: &mut String, s: &str) {
    for c in s.chars() {
        match entity(c) {
            Some(e) => out.push_str(e),
            None if (c < ' ' && !matches!(c, '\t' | '\n' | '\r'))
                || c == '\u{fffe}'
                || c == '\u{ffff}' =>
            {
                out.push('\u{fffd}')
            }
            None => out.push(c),
        }
    }
}

/// The entity written for a character that is markup in XML and HTML text or a quoted
/// attribute value (`&`, `<`, `>`, both quotes); `None` for any other.
pub(crate) fn entity(c: char) -> Option<&'static str> {
    Some(match c {
        '&' => "&amp;",
        '<' => "&lt;",
        '>' => "&gt;",
        '"' => "&quot;",
        '\'' => "&#39;",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_text() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(0.333), "0.33");
        let mut s = String::new();
        push_text(&mut s, "<a href='x'>&\u{1}");
        assert_eq!(s, "&lt;a href=&#39;x&#39;&gt;&amp;\u{fffd}");
    }
}
