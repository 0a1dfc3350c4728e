//! Text for the PNG pictures: glyph outlines of the embedded DejaVu Sans subset (printable
//! ASCII and `· ½ × – — …`; see `DejaVuSans-LICENSE.txt`) turned into paths. A character the
//! subset lacks is drawn as `?`.

use std::sync::LazyLock;

use tiny_skia::{Path, PathBuilder, Transform};
use ttf_parser::{Face, GlyphId, OutlineBuilder};

use super::draw::Anchor;

static FONT: &[u8] = include_bytes!("DejaVuSans-subset.ttf");

static FACE: LazyLock<Option<Face<'static>>> = LazyLock::new(|| Face::parse(FONT, 0).ok());

/// Collects a glyph's outline into a path builder, in font units with y up.
struct Collect<'a> {
    pb: &'a mut PathBuilder,
    dx: f32,
}

impl OutlineBuilder for Collect<'_> {
    fn move_to(&mut self, x: f32, y: f32) {
        self.pb.move_to(x + self.dx, y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.pb.line_to(x + self.dx, y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.pb.quad_to(x1 + self.dx, y1, x + self.dx, y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.pb
            .cubic_to(x1 + self.dx, y1, x2 + self.dx, y2, x + self.dx, y);
    }
    fn close(&mut self) {
        self.pb.close();
    }
}

fn glyph(face: &Face<'_>, c: char) -> GlyphId {
    face.glyph_index(c)
        .or_else(|| face.glyph_index('?'))
        .unwrap_or(GlyphId(0))
}

/// The outline of a line of text of `size` units, its baseline at `y`, anchored at `x`; in
/// picture units. None for an empty or blank text.
pub(super) fn text_path(text: &str, x: f32, y: f32, size: f32, anchor: Anchor) -> Option<Path> {
    let face = FACE.as_ref()?;
    let mut pb = PathBuilder::new();
    let mut advance = 0.0f32;
    for c in text.chars() {
        let id = glyph(face, c);
        let mut collect = Collect {
            pb: &mut pb,
            dx: advance,
        };
        face.outline_glyph(id, &mut collect);
        advance += f32::from(face.glyph_hor_advance(id).unwrap_or(0));
    }
    let path = pb.finish()?;
    let scale = size / f32::from(face.units_per_em());
    let width = advance * scale;
    let left = match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - width / 2.0,
        Anchor::End => x - width,
    };
    // Font units have y up: flip, scale, move to the baseline.
    path.transform(Transform::from_row(scale, 0.0, 0.0, -scale, left, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_font_has_the_characters_of_captions() {
        let face = FACE.as_ref().expect("embedded font parses");
        for c in "White to play 17. 32x23 · ½ × – — … a1 h8".chars() {
            assert!(face.glyph_index(c).is_some(), "{c:?}");
        }
        let p = text_path("32", 10.0, 50.0, 20.0, Anchor::Start).unwrap();
        let b = p.bounds();
        assert!(
            b.left() >= 10.0 && b.bottom() <= 50.5 && b.top() > 30.0,
            "{b:?}"
        );
        assert!(text_path(" ", 0.0, 0.0, 10.0, Anchor::Start).is_none());
    }
}
