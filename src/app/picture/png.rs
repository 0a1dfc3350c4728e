//! PNG pictures: the [`draw`] description rasterised with tiny-skia (text from
//! the embedded font, `font`) and written as an 8-bit RGB PNG by a small encoder of
//! our own over `flate2` (the picture is opaque: no alpha channel is needed).

use std::io::Write as _;

use tiny_skia::{
    FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Rect, Stroke as SkStroke, StrokeDash,
    Transform,
};

use super::Diagram;
use super::draw::{self, Anchor, Canvas, Rgba, Stroke};
use super::font;

/// The PNG file of a diagram, `d.options.size` pixels wide (the size is checked by
/// [`super::render`]).
pub fn write(d: &Diagram) -> Vec<u8> {
    let f = draw::frame(d);
    let width = d.options.size.max(1);
    let scale = width as f32 / f.width;
    let height = ((f.height * scale).round() as u32).max(1);
    let Some(pixmap) = Pixmap::new(width, height) else {
        return Vec::new();
    };
    let mut canvas = Raster {
        pixmap,
        transform: Transform::from_scale(scale, scale),
    };
    draw::draw(d, &mut canvas);
    encode(&canvas.pixmap)
}

struct Raster {
    pixmap: Pixmap,
    transform: Transform,
}

fn paint(c: Rgba) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.0, c.1, c.2, c.3);
    p.anti_alias = true;
    p
}

fn sk_stroke(s: &Stroke) -> SkStroke {
    SkStroke {
        width: s.width,
        line_cap: LineCap::Round,
        line_join: LineJoin::Round,
        dash: s.dash.and_then(|[a, b]| StrokeDash::new(vec![a, b], 0.0)),
        ..SkStroke::default()
    }
}

impl Raster {
    fn fill_and_stroke(
        &mut self,
        path: &tiny_skia::Path,
        fill: Option<Rgba>,
        stroke: Option<Stroke>,
    ) {
        if let Some(c) = fill {
            self.pixmap
                .fill_path(path, &paint(c), FillRule::Winding, self.transform, None);
        }
        if let Some(s) = stroke {
            let mut sk = sk_stroke(&s);
            sk.line_cap = LineCap::Butt;
            self.pixmap
                .stroke_path(path, &paint(s.color), &sk, self.transform, None);
        }
    }
}

impl Canvas for Raster {
    fn begin(&mut self, _class: &str, _data: &[(&str, &str)]) {}

    fn end(&mut self) {}

    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Option<Rgba>, stroke: Option<Stroke>) {
        if let Some(r) = Rect::from_xywh(x, y, w, h) {
            let path = PathBuilder::from_rect(r);
            self.fill_and_stroke(&path, fill, stroke);
        }
    }

    fn circle(&mut self, cx: f32, cy: f32, r: f32, fill: Option<Rgba>, stroke: Option<Stroke>) {
        if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
            self.fill_and_stroke(&path, fill, stroke);
        }
    }

    fn polygon(&mut self, points: &[(f32, f32)], fill: Option<Rgba>, stroke: Option<Stroke>) {
        if let Some(path) = poly(points, true) {
            if let Some(c) = fill {
                self.pixmap
                    .fill_path(&path, &paint(c), FillRule::Winding, self.transform, None);
            }
            if let Some(s) = stroke {
                self.pixmap.stroke_path(
                    &path,
                    &paint(s.color),
                    &sk_stroke(&s),
                    self.transform,
                    None,
                );
            }
        }
    }

    fn polyline(&mut self, points: &[(f32, f32)], stroke: Stroke) {
        if let Some(path) = poly(points, false) {
            self.pixmap.stroke_path(
                &path,
                &paint(stroke.color),
                &sk_stroke(&stroke),
                self.transform,
                None,
            );
        }
    }

    fn text(&mut self, x: f32, y: f32, size: f32, anchor: Anchor, fill: Rgba, text: &str) {
        if let Some(path) = font::text_path(text, x, y, size, anchor) {
            self.pixmap
                .fill_path(&path, &paint(fill), FillRule::Winding, self.transform, None);
        }
    }
}

fn poly(points: &[(f32, f32)], close: bool) -> Option<tiny_skia::Path> {
    let (first, rest) = points.split_first()?;
    let mut pb = PathBuilder::new();
    pb.move_to(first.0, first.1);
    for p in rest {
        pb.line_to(p.0, p.1);
    }
    if close {
        pb.close();
    }
    pb.finish()
}

/// An opaque pixmap as an 8-bit RGB PNG (each row filtered with `Up`).
fn encode(p: &Pixmap) -> Vec<u8> {
    let (w, h) = (p.width() as usize, p.height() as usize);
    let data = p.data();
    let mut raw = Vec::with_capacity(h * (1 + 3 * w));
    let mut above = vec![0u8; 3 * w];
    let mut row = vec![0u8; 3 * w];
    for y in 0..h {
        for x in 0..w {
            // Premultiplied RGBA; the background is opaque, so this is plain RGB.
            let i = 4 * (y * w + x);
            row[3 * x..3 * x + 3].copy_from_slice(&data[i..i + 3]);
        }
        raw.push(2); // Up
        raw.extend(row.iter().zip(&above).map(|(a, b)| a.wrapping_sub(*b)));
        std::mem::swap(&mut row, &mut above);
    }
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing to a vector cannot fail.
    let _ = z.write_all(&raw);
    let idat = z.finish().unwrap_or_default();
    let mut out = Vec::with_capacity(idat.len() + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = Vec::with_capacity(13);
    ihdr.extend_from_slice(&(w as u32).to_be_bytes());
    ihdr.extend_from_slice(&(h as u32).to_be_bytes());
    ihdr.extend_from_slice(&[8, 2, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &idat);
    chunk(&mut out, b"IEND", &[]);
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = flate2::Crc::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_be_bytes());
}
