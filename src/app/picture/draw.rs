//! The one description of a board picture, written through a [`Canvas`] (the SVG writer and
//! the PNG rasteriser): squares, edge coordinates, square numbers, pieces, the move's arrow,
//! captured pieces, caption. Distances are in units of a hundredth of a square.

use crate::rules::{Color, Role};

use super::{Diagram, Drawn};

/// Side of a square in picture units.
pub(crate) const SQUARE: f32 = 100.0;
/// Radius of a piece.
pub(crate) const PIECE_RADIUS: f32 = 39.0;

/// A colour with its opacity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

impl Rgba {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Rgba {
        Rgba(r, g, b, 255)
    }
}

/// The palette: greys that print as they look; the arrow a dark blue that prints dark grey,
/// captured pieces marked in red that prints mid grey.
pub mod palette {
    use super::Rgba;
    /// Around the board.
    pub(crate) const PAPER: Rgba = Rgba::rgb(255, 255, 255);
    /// The squares not played on.
    pub(crate) const LIGHT: Rgba = Rgba::rgb(243, 240, 232);
    /// The playing squares.
    pub(crate) const DARK: Rgba = Rgba::rgb(160, 154, 142);
    /// Board edge, coordinates, caption, outlines.
    pub(crate) const INK: Rgba = Rgba::rgb(24, 24, 24);
    /// The light tab under a square number (over a piece too).
    pub(crate) const NUMBER_TAB: Rgba = Rgba(255, 255, 255, 215);
    /// White pieces.
    pub(crate) const WHITE: Rgba = Rgba::rgb(251, 251, 247);
    /// Black pieces.
    pub(crate) const BLACK: Rgba = Rgba::rgb(30, 30, 30);
    /// The inner ring of a black piece.
    pub(crate) const BLACK_RING: Rgba = Rgba::rgb(140, 140, 140);
    /// The move's arrow.
    pub(crate) const ARROW: Rgba = Rgba(22, 72, 160, 225);
    /// An irregular move's arrow.
    pub(crate) const IRREGULAR: Rgba = Rgba(192, 40, 30, 225);
    /// The light edge that keeps an arrow or a mark visible on dark pieces.
    pub(crate) const HALO: Rgba = Rgba(255, 255, 255, 200);
    /// The mark of a captured piece.
    pub(crate) const CAPTURED: Rgba = Rgba(200, 30, 20, 255);
    /// The outline of a captured piece that has gone.
    pub(crate) const GHOST: Rgba = Rgba::rgb(70, 70, 70);
}

/// A stroke.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stroke {
    /// Its colour.
    pub color: Rgba,
    /// Its width.
    pub width: f32,
    /// Dash and gap lengths, for a dashed line.
    pub dash: Option<[f32; 2]>,
}

impl Stroke {
    /// A solid stroke.
    pub const fn solid(color: Rgba, width: f32) -> Stroke {
        Stroke {
            color,
            width,
            dash: None,
        }
    }
}

/// Where a text is anchored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// At its start.
    Start,
    /// At its middle.
    Middle,
    /// At its end.
    End,
}

/// What a picture is drawn on.
pub trait Canvas {
    /// Start a group of shapes (an SVG `<g>`): its class and data attributes.
    fn begin(&mut self, class: &str, data: &[(&str, &str)]);
    /// End the group.
    fn end(&mut self);
    /// A rectangle.
    fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, fill: Option<Rgba>, stroke: Option<Stroke>);
    /// A circle.
    fn circle(&mut self, cx: f32, cy: f32, r: f32, fill: Option<Rgba>, stroke: Option<Stroke>);
    /// A closed polygon.
    fn polygon(&mut self, points: &[(f32, f32)], fill: Option<Rgba>, stroke: Option<Stroke>);
    /// An open line with round joins and caps.
    fn polyline(&mut self, points: &[(f32, f32)], stroke: Stroke);
    /// A line of text, `y` its baseline.
    fn text(&mut self, x: f32, y: f32, size: f32, anchor: Anchor, fill: Rgba, text: &str);
}

/// Where things go on a picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Left edge of the board.
    pub left: f32,
    /// Top edge of the board.
    pub top: f32,
    /// Width of the whole picture.
    pub width: f32,
    /// Height of the whole picture.
    pub height: f32,
    /// Baseline of the caption.
    pub caption_y: f32,
}

const EDGE: f32 = 14.0;
const COORDINATES: f32 = 44.0;
const CAPTION: f32 = 62.0;
const CAPTION_SIZE: f32 = 34.0;

/// The frame of a diagram.
pub fn frame(d: &Diagram) -> Frame {
    let coords = d.view.coordinates.is_some();
    let margin = if coords { COORDINATES } else { EDGE };
    let board_w = f32::from(d.view.width) * SQUARE;
    let board_h = f32::from(d.view.height) * SQUARE;
    let caption = if d.caption.is_empty() { 0.0 } else { CAPTION };
    let bottom = if coords { COORDINATES } else { EDGE };
    Frame {
        left: margin,
        top: EDGE,
        width: margin + board_w + EDGE,
        height: EDGE + board_h + bottom + caption,
        caption_y: EDGE + board_h + bottom + CAPTION_SIZE + 4.0,
    }
}

/// Top-left corner of the square at column `c`, row `r` of the picture.
fn corner(f: &Frame, c: u8, r: u8) -> (f32, f32) {
    (
        f.left + f32::from(c) * SQUARE,
        f.top + f32::from(r) * SQUARE,
    )
}

/// Centre of square `i` of the view.
pub fn centre(d: &Diagram, f: &Frame, i: usize) -> (f32, f32) {
    let (c, r) = d.view.place(i, d.options.flip);
    let (x, y) = corner(f, c, r);
    (x + SQUARE / 2.0, y + SQUARE / 2.0)
}

/// Draw a diagram.
pub fn draw(d: &Diagram, canvas: &mut dyn Canvas) {
    let f = frame(d);
    canvas.rect(0.0, 0.0, f.width, f.height, Some(palette::PAPER), None);
    board(d, &f, canvas);
    if let Some(m) = d.drawn.as_ref().filter(|m| !m.before) {
        canvas.begin("captured", &[]);
        for &i in &m.captured {
            let (x, y) = centre(d, &f, i);
            let ghost = Stroke {
                color: palette::GHOST,
                width: 4.0,
                dash: Some([10.0, 8.0]),
            };
            canvas.circle(x, y, PIECE_RADIUS - 2.0, None, Some(ghost));
            cross(canvas, x, y, 14.0, palette::GHOST, 5.0, None);
        }
        canvas.end();
    }
    canvas.begin("pieces", &[]);
    for p in &d.pieces {
        let (x, y) = centre(d, &f, p.square);
        let name = d.view.squares[p.square].name.as_str();
        piece(canvas, x, y, p.color, p.role, name);
    }
    canvas.end();
    if d.options.numbers {
        numbers(d, &f, canvas);
    }
    if let Some(m) = &d.drawn {
        arrow(d, &f, m, canvas);
        if m.before {
            canvas.begin("captured", &[]);
            for &i in &m.captured {
                let (x, y) = centre(d, &f, i);
                let halo = Stroke::solid(palette::HALO, 15.0);
                cross(canvas, x, y, 21.0, palette::CAPTURED, 8.0, Some(halo));
            }
            canvas.end();
        }
    }
    if !d.caption.is_empty() {
        canvas.begin("caption", &[]);
        canvas.text(
            f.width / 2.0,
            f.caption_y,
            CAPTION_SIZE,
            Anchor::Middle,
            palette::INK,
            // Control and bidirectional characters shown escaped (`\u{202e}`), as on a
            // terminal: no caption reads other than it is (nor is no valid XML).
            &crate::app::write::terminal::escape(&d.caption),
        );
        canvas.end();
    }
}

/// The squares, the edge, the coordinates and the square numbers.
fn board(d: &Diagram, f: &Frame, canvas: &mut dyn Canvas) {
    let v = &d.view;
    let (bw, bh) = (f32::from(v.width) * SQUARE, f32::from(v.height) * SQUARE);
    canvas.begin("board", &[]);
    canvas.rect(f.left, f.top, bw, bh, Some(palette::LIGHT), None);
    let (fill, grid) = if v.full {
        (palette::LIGHT, Some(Stroke::solid(palette::DARK, 3.0)))
    } else {
        (palette::DARK, None)
    };
    for (i, s) in v.squares.iter().enumerate() {
        let (c, r) = v.place(i, d.options.flip);
        let (x, y) = corner(f, c, r);
        canvas.begin("square", &[("square", s.name.as_str())]);
        canvas.rect(x, y, SQUARE, SQUARE, Some(fill), grid);
        canvas.end();
    }
    canvas.rect(
        f.left,
        f.top,
        bw,
        bh,
        None,
        Some(Stroke::solid(palette::INK, 4.0)),
    );
    canvas.end();
    if let Some((files, ranks)) = &v.coordinates {
        canvas.begin("coordinates", &[]);
        let mut s = String::new();
        for col in 0..v.width {
            let from = if d.options.flip {
                v.width - 1 - col
            } else {
                col
            };
            s.clear();
            s.push(files[from as usize]);
            let x = f.left + (f32::from(col) + 0.5) * SQUARE;
            canvas.text(x, f.top + bh + 32.0, 26.0, Anchor::Middle, palette::INK, &s);
        }
        for row in 0..v.height {
            let from = if d.options.flip {
                v.height - 1 - row
            } else {
                row
            };
            let label = ranks[from as usize].to_string();
            let y = f.top + (f32::from(row) + 0.5) * SQUARE + 9.0;
            canvas.text(f.left - 12.0, y, 26.0, Anchor::End, palette::INK, &label);
        }
        canvas.end();
    }
}

/// The square numbers, over the pieces: dark figures on a light tab in each square's corner,
/// larger on larger boards (a square of a 12x12 board drawn 480 pixels wide is 38 pixels:
/// its number is 9 pixels high).
fn numbers(d: &Diagram, f: &Frame, canvas: &mut dyn Canvas) {
    let v = &d.view;
    let size = 12.0 + f32::from(v.width.max(v.height));
    canvas.begin("numbers", &[]);
    for (i, s) in v.squares.iter().enumerate() {
        let (c, r) = v.place(i, d.options.flip);
        let (x, y) = corner(f, c, r);
        let w = 0.62 * size * s.name.chars().count() as f32 + 6.0;
        canvas.rect(
            x + 2.0,
            y + 2.0,
            w,
            size + 2.0,
            Some(palette::NUMBER_TAB),
            None,
        );
        canvas.text(
            x + 5.0,
            y + 2.0 + size * 0.88,
            size,
            Anchor::Start,
            palette::INK,
            &s.name,
        );
    }
    canvas.end();
}

/// The points of a king's crown around (0, 0).
pub(crate) const CROWN: [(f32, f32); 7] = [
    (-21.0, 13.0),
    (21.0, 13.0),
    (24.0, -11.0),
    (11.0, 1.0),
    (0.0, -18.0),
    (-11.0, 1.0),
    (-24.0, -11.0),
];

/// The crown's size inside the piece's ring.
pub(crate) const CROWN_SCALE: f32 = 0.78;

/// A piece centred on (x, y); `square` names its square (an SVG data attribute).
pub fn piece(canvas: &mut dyn Canvas, x: f32, y: f32, color: Color, role: Role, square: &str) {
    let class = match (color, role) {
        (Color::White, Role::Man) => "piece white man",
        (Color::White, Role::King) => "piece white king",
        (Color::Black, Role::Man) => "piece black man",
        (Color::Black, Role::King) => "piece black king",
    };
    // The piece's body, its inner ring and a king's crown.
    let (fill, ring, crown_ink) = match color {
        Color::White => (palette::WHITE, palette::INK, palette::INK),
        Color::Black => (palette::BLACK, palette::BLACK_RING, palette::WHITE),
    };
    let crown = (role == Role::King).then_some(crown_ink);
    let data: &[(&str, &str)] = if square.is_empty() {
        &[]
    } else {
        &[("square", square)]
    };
    canvas.begin(class, data);
    canvas.circle(
        x,
        y,
        PIECE_RADIUS,
        Some(fill),
        Some(Stroke::solid(palette::INK, 5.0)),
    );
    canvas.circle(x, y, 27.0, None, Some(Stroke::solid(ring, 3.0)));
    if let Some(ink) = crown {
        let pts: Vec<(f32, f32)> = CROWN
            .iter()
            .map(|&(a, b)| (x + a * CROWN_SCALE, y + (b + 2.0) * CROWN_SCALE))
            .collect();
        canvas.polygon(&pts, Some(ink), None);
    }
    canvas.end();
}

/// An X centred on (x, y).
fn cross(
    canvas: &mut dyn Canvas,
    x: f32,
    y: f32,
    r: f32,
    color: Rgba,
    width: f32,
    halo: Option<Stroke>,
) {
    let a = [(x - r, y - r), (x + r, y + r)];
    let b = [(x - r, y + r), (x + r, y - r)];
    if let Some(h) = halo {
        canvas.polyline(&a, h);
        canvas.polyline(&b, h);
    }
    canvas.polyline(&a, Stroke::solid(color, width));
    canvas.polyline(&b, Stroke::solid(color, width));
}

/// The arrow of a move through its stopping squares.
fn arrow(d: &Diagram, f: &Frame, m: &Drawn, canvas: &mut dyn Canvas) {
    let pts: Vec<(f32, f32)> = m.route.iter().map(|&i| centre(d, f, i)).collect();
    let Some(shaft) = arrow_shaft(&pts) else {
        return;
    };
    let color = if m.irregular {
        palette::IRREGULAR
    } else {
        palette::ARROW
    };
    let dash = m.irregular.then_some([22.0, 14.0]);
    canvas.begin("move", &[]);
    let halo = Stroke {
        color: palette::HALO,
        width: 20.0,
        dash: None,
    };
    canvas.polyline(&shaft.line, halo);
    canvas.polygon(&shaft.head, Some(palette::HALO), Some(halo_thin()));
    canvas.polyline(
        &shaft.line,
        Stroke {
            color,
            width: 12.0,
            dash,
        },
    );
    canvas.polygon(&shaft.head, Some(color), None);
    canvas.end();
}

fn halo_thin() -> Stroke {
    Stroke::solid(palette::HALO, 8.0)
}

/// An arrow's line (ending at the base of its head) and head.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Shaft {
    /// The line through the stopping squares.
    pub line: Vec<(f32, f32)>,
    /// The head's triangle, its tip on the last square's centre.
    pub head: [(f32, f32); 3],
}

/// The line and head of an arrow through `pts` (None for fewer than two distinct points).
pub(crate) fn arrow_shaft(pts: &[(f32, f32)]) -> Option<Shaft> {
    const HEAD_LENGTH: f32 = 38.0;
    const HEAD_HALF_WIDTH: f32 = 20.0;
    let n = pts.len();
    if n < 2 {
        return None;
    }
    let tip = pts[n - 1];
    // The last point before the tip that is not the tip (a circular capture ends where it
    // started, but never twice on one square in a row).
    let prev = pts[..n - 1].iter().rev().find(|p| **p != tip)?;
    let (dx, dy) = (tip.0 - prev.0, tip.1 - prev.1);
    let len = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = (dx / len, dy / len);
    let head_len = HEAD_LENGTH.min(len * 0.6);
    let base = (tip.0 - ux * head_len, tip.1 - uy * head_len);
    let mut line = pts[..n - 1].to_vec();
    line.push(base);
    let head = [
        tip,
        (base.0 - uy * HEAD_HALF_WIDTH, base.1 + ux * HEAD_HALF_WIDTH),
        (base.0 + uy * HEAD_HALF_WIDTH, base.1 - ux * HEAD_HALF_WIDTH),
    ];
    Some(Shaft { line, head })
}
