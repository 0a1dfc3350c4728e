//! `pdn diagram` (issue 23): the SVG is read back and must hold exactly the FEN's pieces on
//! the right squares, for the start position and random positions of every variant, turned
//! round or not. Where a square is drawn is checked against the book diagrams of RULES.md
//! §4.2, written out here independently of the library; the PNG is decoded and its pixels
//! looked at.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::PathBuf;
use std::process::Command;

use pdn::app::picture::{self, Diagram, Options};
use pdn::rules::{Spec, Variant, with_variant};

fn pdn() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
}

/// Column and row (0 at the top, White at the bottom) of square `n` in the books of RULES.md
/// §4.2, for the numeric boards.
fn book_place(v: Variant, n: u32) -> (u32, u32) {
    let (per_row, rows) = match v.rules().shape.width() {
        8 => (4, 8),
        10 => (5, 10),
        _ => (6, 12),
    };
    let (r, k) = ((n - 1) / per_row, (n - 1) % per_row);
    match v {
        // D: 1 = a8, rows left to right, bottom-left light.
        Variant::Italian => (if r % 2 == 0 { 2 * k } else { 2 * k + 1 }, r),
        // E: 1 = h1, rows right to left, going up.
        Variant::Spanish | Variant::Portuguese => {
            let row = rows - 1 - r;
            (if row % 2 == 1 { 7 - 2 * k } else { 6 - 2 * k }, row)
        }
        // F: 1 = g1, rows right to left, going up.
        Variant::Thai => {
            let row = rows - 1 - r;
            (if row % 2 == 1 { 6 - 2 * k } else { 7 - 2 * k }, row)
        }
        // A, B, C: 1 at the top left, rows left to right (English, the lidraughts grid of
        // Russian, Brazilian and Czech FENs, international, Frisian, Canadian).
        _ => (if r % 2 == 0 { 2 * k + 1 } else { 2 * k }, r),
    }
}

/// Column and row of an algebraic square: `a1` at White's bottom left.
fn algebraic_place(name: &str) -> (u32, u32) {
    let file = u32::from(name.as_bytes()[0] - b'a');
    let rank: u32 = name[1..].parse().unwrap();
    (file, 8 - rank)
}

fn algebraic(v: Variant) -> bool {
    matches!(
        v,
        Variant::Russian | Variant::Brazilian | Variant::Czech | Variant::Turkish
    )
}

/// A piece as drawn: column, row, colour, king.
type Drawn = (u32, u32, char, bool);

/// The pieces of an SVG diagram, found from where their discs are drawn.
fn pieces_in_svg(svg: &str, w: u32, h: u32) -> Vec<Drawn> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let class = |n: &roxmltree::Node| n.attribute("class").unwrap_or("").to_string();
    let f = |n: &roxmltree::Node, a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
    // The board: the first rectangle of the `board` group.
    let board = root
        .descendants()
        .find(|n| class(n) == "board")
        .expect("a board group");
    let frame = board
        .children()
        .find(|n| n.tag_name().name() == "rect")
        .expect("the board's rectangle");
    let (x0, y0) = (f(&frame, "x"), f(&frame, "y"));
    let size = f(&frame, "width") / f64::from(w);
    assert!((f(&frame, "height") / f64::from(h) - size).abs() < 1e-6);
    let mut out = Vec::new();
    for g in root
        .descendants()
        .filter(|n| class(n).starts_with("piece "))
    {
        let c = class(&g);
        let disc = g
            .children()
            .find(|n| n.tag_name().name() == "circle")
            .expect("a disc");
        let (cx, cy) = (f(&disc, "cx"), f(&disc, "cy"));
        let col = ((cx - x0) / size).floor();
        let row = ((cy - y0) / size).floor();
        // Centred on its square.
        assert!(
            ((cx - x0) / size - col - 0.5).abs() < 1e-6,
            "{c} off centre"
        );
        assert!(
            ((cy - y0) / size - row - 0.5).abs() < 1e-6,
            "{c} off centre"
        );
        // Colour and rank from what is drawn, not from the class: a light or a dark disc,
        // with a crown (a polygon) or without; the class must agree.
        let fill = disc.attribute("fill").expect("a filled disc");
        let luma = u32::from_str_radix(&fill[1..3], 16).unwrap()
            + u32::from_str_radix(&fill[3..5], 16).unwrap()
            + u32::from_str_radix(&fill[5..7], 16).unwrap();
        let color = if luma > 3 * 128 { 'w' } else { 'b' };
        let king = g.children().any(|n| n.tag_name().name() == "polygon");
        assert_eq!(
            (c.contains("white"), c.contains("king")),
            (color == 'w', king),
            "{c}: drawn as {color} king={king}"
        );
        out.push((col as u32, row as u32, color, king));
    }
    out
}

/// A reproducible random number generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The name of every square of a variant in its FEN, with its place in the books.
fn squares(v: Variant) -> Vec<(String, (u32, u32))> {
    let n = v.rules().shape.squares() as u32;
    if algebraic(v) {
        let full = v == Variant::Turkish;
        let mut out = Vec::new();
        for rank in 1..=8u32 {
            for file in 0..8u32 {
                // Dark squares: a1 is dark.
                if full || (file + rank) % 2 == 1 {
                    let name = format!("{}{rank}", char::from(b'a' + file as u8));
                    let place = algebraic_place(&name);
                    out.push((name, place));
                }
            }
        }
        out
    } else {
        (1..=n).map(|k| (k.to_string(), book_place(v, k))).collect()
    }
}

/// A random position of a variant as a FEN and the pieces it must show.
fn random_position(v: Variant, rng: &mut Rng) -> (String, BTreeSet<Drawn>) {
    let h = u32::from(v.rules().shape.height());
    let mut white = Vec::new();
    let mut black = Vec::new();
    let mut expected = BTreeSet::new();
    let count = 1 + rng.below(14);
    let mut sqs = squares(v);
    for _ in 0..count {
        let (name, (c, r)) = sqs.remove(rng.below(sqs.len() as u64) as usize);
        let is_white = rng.below(2) == 0;
        // A man never stands on its crowning row.
        let king = rng.below(4) == 0 || (is_white && r == 0) || (!is_white && r == h - 1);
        let token = if king { format!("K{name}") } else { name };
        if is_white {
            white.push(token);
        } else {
            black.push(token);
        }
        expected.insert((c, r, if is_white { 'w' } else { 'b' }, king));
    }
    let side = if rng.below(2) == 0 { 'W' } else { 'B' };
    (
        format!("{side}:W{}:B{}", white.join(","), black.join(",")),
        expected,
    )
}

fn svg_of<V: Spec>(fen: &str, options: Options) -> String {
    let pos = V::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    picture::svg::write(&Diagram::of::<V>(&pos, options))
}

fn turned(set: &BTreeSet<Drawn>, w: u32, h: u32) -> BTreeSet<Drawn> {
    set.iter()
        .map(|&(c, r, col, k)| (w - 1 - c, h - 1 - r, col, k))
        .collect()
}

#[test]
fn every_variant_draws_the_pieces_of_the_fen_on_their_book_squares() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for v in Variant::ALL {
        let (w, h) = (
            u32::from(v.rules().shape.width()),
            u32::from(v.rules().shape.height()),
        );
        // The start position, then random ones.
        let start = v.rules().start_fen.to_string();
        let mut cases = vec![(start.clone(), None)];
        for _ in 0..25 {
            let (fen, expected) = random_position(v, &mut rng);
            cases.push((fen, Some(expected)));
        }
        for (i, (fen, expected)) in cases.into_iter().enumerate() {
            let flip = i % 3 == 1;
            let options = Options {
                numbers: i % 2 == 0,
                flip,
                ..Options::default()
            };
            let svg = with_variant!(v, V => svg_of::<V>(&fen, options));
            let drawn: BTreeSet<Drawn> = pieces_in_svg(&svg, w, h).into_iter().collect();
            let expected = match expected {
                Some(e) => e,
                None => start_pieces(v),
            };
            let expected = if flip {
                turned(&expected, w, h)
            } else {
                expected
            };
            assert_eq!(drawn, expected, "{} {fen} flip={flip}", v.name());
        }
    }
}

/// The start position of a variant, from its FEN read by hand (ranges and lists).
fn start_pieces(v: Variant) -> BTreeSet<Drawn> {
    let fen = v.rules().start_fen;
    let mut out = BTreeSet::new();
    for field in fen.split(':').skip(1) {
        let color = if field.starts_with('W') { 'w' } else { 'b' };
        for item in field[1..].split(',').filter(|s| !s.is_empty()) {
            let (king, item) = match item.strip_prefix('K') {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let names: Vec<String> = match item.split_once('-') {
                Some((a, b)) => {
                    let (a, b): (u32, u32) = (a.parse().unwrap(), b.parse().unwrap());
                    (a..=b).map(|n| n.to_string()).collect()
                }
                None => vec![item.to_string()],
            };
            for name in names {
                let (c, r) = if name.as_bytes()[0].is_ascii_alphabetic() {
                    algebraic_place(&name)
                } else {
                    book_place(v, name.parse().unwrap())
                };
                out.insert((c, r, color, king));
            }
        }
    }
    out
}

#[test]
fn the_international_start_is_valid_svg_with_forty_pieces() {
    let o = pdn()
        .args([
            "diagram",
            "--variant",
            "international",
            "--fen",
            "W:W31-50:B1-20",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = String::from_utf8(o.stdout).unwrap();
    assert!(svg.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "));
    let pieces = pieces_in_svg(&svg, 10, 10);
    assert_eq!(pieces.len(), 40);
    assert_eq!(pieces.iter().filter(|p| p.2 == 'w').count(), 20);
    assert!(pieces.iter().all(|p| !p.3));
    // White at the bottom: square 50 (a white man) bottom right, square 1 top left.
    assert!(pieces.contains(&(8, 9, 'w', false)) && pieces.contains(&(1, 0, 'b', false)));
    assert!(svg.contains("<title>White to play</title>"));
}

/// The pixels of an 8-bit RGB PNG (as `pdn` writes them): width, height, RGB bytes.
fn decode_png(png: &[u8]) -> (u32, u32, Vec<u8>) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let mut at = 8;
    let (mut w, mut h) = (0, 0);
    let mut idat = Vec::new();
    while at < png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        let kind = &png[at + 4..at + 8];
        let data = &png[at + 8..at + 8 + len];
        let crc = u32::from_be_bytes(png[at + 8 + len..at + 12 + len].try_into().unwrap());
        let mut c = flate2::Crc::new();
        c.update(kind);
        c.update(data);
        assert_eq!(c.sum(), crc, "CRC of {}", String::from_utf8_lossy(kind));
        match kind {
            b"IHDR" => {
                w = u32::from_be_bytes(data[0..4].try_into().unwrap());
                h = u32::from_be_bytes(data[4..8].try_into().unwrap());
                assert_eq!(&data[8..], &[8, 2, 0, 0, 0], "8-bit RGB");
            }
            b"IDAT" => idat.extend_from_slice(data),
            _ => {}
        }
        at += 12 + len;
    }
    let mut raw = Vec::new();
    flate2::read::ZlibDecoder::new(&idat[..])
        .read_to_end(&mut raw)
        .unwrap();
    let stride = 3 * w as usize;
    assert_eq!(raw.len(), h as usize * (1 + stride));
    let mut px = vec![0u8; h as usize * stride];
    for y in 0..h as usize {
        let filter = raw[y * (1 + stride)];
        let line = &raw[y * (1 + stride) + 1..(y + 1) * (1 + stride)];
        for x in 0..stride {
            let up = if y > 0 { px[(y - 1) * stride + x] } else { 0 };
            let left = if x >= 3 { px[y * stride + x - 3] } else { 0 };
            px[y * stride + x] = match filter {
                0 => line[x],
                1 => line[x].wrapping_add(left),
                2 => line[x].wrapping_add(up),
                f => panic!("filter {f}"),
            };
        }
    }
    (w, h, px)
}

#[test]
fn the_png_shows_the_pieces_where_the_svg_does() {
    let dir = tempfile::tempdir().unwrap();
    let out: PathBuf = dir.path().join("start.png");
    let o = pdn()
        .args([
            "diagram",
            "--variant",
            "international",
            "--fen",
            "W:W31-50:B1-20",
            "-o",
        ])
        .arg(&out)
        .args(["--size", "500"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (w, h, px) = decode_png(&std::fs::read(&out).unwrap());
    assert_eq!(w, 500);
    assert!(h > 500, "room for the caption: {h}");
    // Picture units: the board starts at 14, a square is 100, the picture 1028 wide.
    let at = |col: f32, row: f32, dx: f32| {
        let s = 500.0 / 1028.0;
        let x = ((14.0 + col * 100.0 + 50.0 + dx) * s) as usize;
        let y = ((14.0 + row * 100.0 + 50.0) * s) as usize;
        let i = 3 * (y * w as usize + x);
        (px[i], px[i + 1], px[i + 2])
    };
    let dark = |p: (u8, u8, u8)| p.0 < 60 && p.1 < 60 && p.2 < 60;
    let light = |p: (u8, u8, u8)| p.0 > 230 && p.1 > 230 && p.2 > 230;
    // Square 1 (column 1, row 0): a black man; square 50 (column 8, row 9): a white man,
    // whose centre is white inside its dark ring.
    assert!(dark(at(1.0, 0.0, 0.0)), "{:?}", at(1.0, 0.0, 0.0));
    assert!(light(at(8.0, 9.0, 0.0)), "{:?}", at(8.0, 9.0, 0.0));
    assert!(
        dark(at(8.0, 9.0, 27.0)),
        "the ring: {:?}",
        at(8.0, 9.0, 27.0)
    );
    // Square 23 (column 5, row 4): empty and dark; its neighbour at column 4 light.
    let empty = at(5.0, 4.0, 0.0);
    assert!(!dark(empty) && !light(empty) && empty.0 > 120, "{empty:?}");
    assert!(light(at(4.0, 4.0, 0.0)));
    // --format png to a pipe.
    let o = pdn()
        .args(["diagram", "--variant", "english", "--fen", "B:W21-32:B1-12"])
        .args(["--format", "png", "--size", "64"])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(decode_png(&o.stdout).0, 64);
}

#[test]
fn a_game_ply_is_drawn_with_its_move_and_caption() {
    // International fixture game 1: 1. 32-28 18-23 2. 37-32 12-18 … 5. 34-29 23x34.
    let o = pdn()
        .args([
            "diagram",
            "fixtures/validate/international.pdn",
            "--game",
            "1",
            "--ply",
            "10",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let svg = String::from_utf8(o.stdout).unwrap();
    assert!(
        svg.contains("<title>5... 23x34 · White to play</title>"),
        "{svg}"
    );
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let moves: Vec<_> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("move"))
        .collect();
    assert_eq!(moves.len(), 1, "one arrow");
    // The piece taken on 29 is drawn as an outline.
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("class") == Some("captured"))
            .count(),
        1
    );
    let pieces = pieces_in_svg(&svg, 10, 10);
    assert_eq!(pieces.len(), 39);
    assert!(
        pieces.contains(&book_with(34, 'b'))
            && !pieces
                .iter()
                .any(|p| (p.0, p.1) == book_place(Variant::International, 29))
    );
    // Too far, and a bad FEN: status 2 with a message.
    let o = pdn()
        .args([
            "diagram",
            "fixtures/validate/international.pdn",
            "--ply",
            "99",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("ply 99"));
    let o = pdn()
        .args(["diagram", "--variant", "international", "--fen", "W:W51"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad FEN"));
}

fn book_with(n: u32, color: char) -> Drawn {
    let (c, r) = book_place(Variant::International, n);
    (c, r, color, false)
}

/// A game that could not be read whole (here: binary garbage) is drawn from what was read,
/// but the command says so, escaped, and exits 1: garbage is not the start position.
#[test]
fn a_game_with_syntax_errors_is_said_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    // Deterministic garbage with a few control bytes, brackets and digits in it (few
    // enough that the file is text with damage, not binary data: see input::not_binary).
    let mut bytes = Vec::new();
    let mut x: u32 = 12345;
    for k in 0..3000 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let b = (x >> 16) as u8;
        bytes.push(if k % 50 == 7 {
            b % 0x20
        } else {
            0x20 + b % 0x5f
        });
    }
    bytes.extend_from_slice(b"\n[Event \"\x1b[31mx\"]\n1. 32-28 {\x07} 19-23 )) *\n");
    let input = dir.path().join("garbage.pdn");
    std::fs::write(&input, &bytes).unwrap();
    let out = dir.path().join("g.svg");
    let r = pdn()
        .arg("diagram")
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&r.stderr);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(err.contains("syntax error"), "{err}");
    assert!(
        !r.stderr
            .iter()
            .any(|&b| b < 0x20 && b != b'\n' || b == 0x7f),
        "raw control byte in {err:?}"
    );
    assert!(out.exists(), "the diagram of what was read is written");
    // A clean game: exit 0 and nothing said.
    let clean = dir.path().join("clean.pdn");
    std::fs::write(&clean, "[GameType \"20\"]\n1. 32-28 19-23 *\n").unwrap();
    let r = pdn()
        .arg("diagram")
        .arg(&clean)
        .arg("-o")
        .arg(dir.path().join("c.svg"))
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(0));
    assert!(
        r.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&r.stderr)
    );
}

/// `diagram` takes the options every command that reads games takes (DESIGN.md): `--jobs`,
/// `--quiet`, `--no-progress` and `--color`; `--color` decides whether its error is coloured,
/// and `--quiet` keeps the error (it silences only what is not one).
#[test]
fn diagram_takes_the_options_of_the_commands_that_read_games() {
    let dir = tempfile::tempdir().unwrap();
    let damaged = dir.path().join("damaged.pdn");
    std::fs::write(&damaged, "[GameType \"20\"]\n1. 32-28 19-23 )) *\n").unwrap();
    let run = |extra: &[&str]| {
        let r = pdn()
            .arg("diagram")
            .arg(&damaged)
            .args(["-o", dir.path().join("d.svg").to_str().unwrap()])
            .args(extra)
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .output()
            .unwrap();
        (
            r.status.code(),
            String::from_utf8_lossy(&r.stderr).into_owned(),
        )
    };
    let (code, plain) = run(&["--jobs", "1", "--no-progress", "--color", "never"]);
    assert_eq!(code, Some(1), "{plain}");
    assert!(
        plain.contains("error") && plain.contains("syntax error"),
        "{plain}"
    );
    assert!(!plain.contains('\u{1b}'), "{plain:?}");
    let (code, coloured) = run(&["-j", "2", "--color", "always"]);
    assert_eq!(code, Some(1), "{coloured}");
    assert!(coloured.contains("\u{1b}["), "{coloured:?}");
    let (code, quiet) = run(&["--quiet", "--color", "never"]);
    assert_eq!((code, quiet), (Some(1), plain));
    // The FEN form takes them too.
    let r = pdn()
        .args(["diagram", "--variant", "english", "--fen", "B:W21-32:B1-12"])
        .args(["-q", "--no-progress", "--color", "always", "--jobs", "4"])
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(r.stdout.starts_with(b"<svg") || r.stdout.starts_with(b"<?xml"));
    assert!(r.stderr.is_empty());
}
