//! CSV output (the csv crate: RFC 4180 quoting, header first), loadable as is by DuckDB and
//! pandas.
//!
//! **One row per game** ([`GAME_COLUMNS`], then one column per other tag): `result` is the
//! result in the variant's standard form (`*` when unknown), `winner` `white`, `black`,
//! `draw`, `none` or `unknown` ([`normalised`]), `result_text` the Result tag as written,
//! else the result that ended the movetext; `variant` the variant replayed;
//! `plies` the plies of the main line replayed; `errors`/`warnings` the diagnostics of
//! `pdn validate`; `first_error_code`/`first_error_ply`/`first_error_in_variation` the first
//! error (the ply empty when the error is not about a move; `true` when it is inside a
//! variation, empty when there is no error). The other tags are the union, over the whole run, of the
//! tag names other than the seven standard ones, in order of first appearance
//! ([`TagColumns`]), so every row has the same columns; a game without the tag has an empty
//! cell. A name that differs only in case from an earlier column is prefixed `tag_` (DuckDB
//! column names ignore case). A tag given twice in a game has its values joined by ` | `.
//!
//! **One row per ply** of the main line ([`PLY_COLUMNS`], with [`PlyRows`]): the move in
//! canonical PDN notation, `path` every stopping square (`32x21x12`), `captured` the taken
//! pieces in the order taken separated by spaces, `promotion` `true`/`false`, the positions
//! before and after the move as FEN, and the pieces on the board after the move. Rows =
//! the plies `pdn validate` counts.

use std::collections::{HashMap, HashSet};

use csv::Writer;

use crate::rules::{Bits, Color, Numbering, Position, Spec};
use crate::syntax::{Game, canonical_move_ref_text};

use super::Notation;
use super::normal::Num;
use super::plies::{Names, push_u32};
use crate::app::judge::replay::{Observer, Played, PlyEvent};
use crate::app::judge::validate::Verdict;
use crate::app::model::outcome::normalised;

/// The fixed columns of a game row.
pub const GAME_COLUMNS: [&str; 18] = [
    "file",
    "game",
    "event",
    "site",
    "date",
    "round",
    "white",
    "black",
    "result",
    "winner",
    "result_text",
    "variant",
    "plies",
    "errors",
    "warnings",
    "first_error_code",
    "first_error_ply",
    "first_error_in_variation",
];

/// The tags that have a fixed column (`Result` goes into `result`).
const FIXED_TAGS: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// The columns of a ply row.
pub const PLY_COLUMNS: [&str; 15] = [
    "file",
    "game",
    "ply",
    "number",
    "side",
    "move",
    "path",
    "captured",
    "promotion",
    "fen_before",
    "fen_after",
    "white_men",
    "white_kings",
    "black_men",
    "black_kings",
];

/// The tag columns of a run: every tag name other than the standard seven, in order of
/// first appearance.
#[derive(Clone, Debug, Default)]
pub struct TagColumns {
    names: Vec<String>,
    /// Each name's index in `names`.
    seen: HashMap<String, usize>,
}

impl TagColumns {
    /// No columns yet.
    pub fn new() -> TagColumns {
        TagColumns::default()
    }

    /// Learn the tag names of a game.
    pub fn observe(&mut self, game: &Game) {
        for t in &game.tags {
            self.add(&t.name);
        }
    }

    /// The tag names, in column order.
    /// Add a column (a tag name) unless it is there already or a fixed column; its index
    /// among [`TagColumns::names`].
    pub fn add(&mut self, name: &str) -> Option<usize> {
        if FIXED_TAGS.contains(&name) {
            return None;
        }
        if let Some(&k) = self.seen.get(name) {
            return Some(k);
        }
        self.seen.insert(name.to_owned(), self.names.len());
        self.names.push(name.to_owned());
        Some(self.names.len() - 1)
    }

    /// The tag names of the columns, in column order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The header row: the fixed columns, then the tag columns (renamed where they would
    /// clash, ignoring case, with an earlier column).
    pub fn header(&self) -> Vec<String> {
        let mut out: Vec<String> = GAME_COLUMNS.iter().map(|s| (*s).to_owned()).collect();
        let mut taken: HashSet<String> = out.iter().map(|s| s.to_lowercase()).collect();
        for n in &self.names {
            let mut name = n.clone();
            if taken.contains(&name.to_lowercase()) {
                name = format!("tag_{n}");
            }
            let base = name.clone();
            let mut k = 2;
            while taken.contains(&name.to_lowercase()) {
                name = format!("{base}_{k}");
                k += 1;
            }
            taken.insert(name.to_lowercase());
            out.push(name);
        }
        out
    }
}

/// A game's tags as the rows read them: name and value, in file order (those of a [`Game`],
/// [`tag_pairs`], or of the record a game was read into).
pub type TagPairs<'t> = [(&'t str, &'t str)];

/// The tags of a game as [`TagPairs`].
pub fn tag_pairs(game: &Game) -> Vec<(&str, &str)> {
    game.tags
        .iter()
        .map(|t| (t.name.as_str(), t.value.as_str()))
        .collect()
}

/// The values of every tag of a name, joined by ` | `.
fn tag_value<'t>(tags: &'t TagPairs<'t>, name: &str, buf: &'t mut String) -> &'t str {
    let mut it = tags.iter().filter(|t| t.0 == name);
    let Some(first) = it.next() else { return "" };
    let Some(second) = it.next() else {
        return first.1;
    };
    buf.clear();
    buf.push_str(first.1);
    for t in std::iter::once(second).chain(it) {
        buf.push_str(" | ");
        buf.push_str(t.1);
    }
    buf
}

/// The tags of a game that are not among the fixed columns of [`GAME_COLUMNS`], in their
/// order, each once (a repeated tag's values joined with ` | `): the extra columns of its row.
pub fn other_tags(tags: &TagPairs<'_>) -> Vec<(String, String)> {
    // One pass, each name's entry found in a map (a game may hold many tags).
    let mut out: Vec<(String, String)> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for &(name, value) in tags {
        if FIXED_TAGS.contains(&name) {
            continue;
        }
        match at.get(name) {
            Some(&k) => {
                out[k].1.push_str(" | ");
                out[k].1.push_str(value);
            }
            None => {
                at.insert(name, out.len());
                out.push((name.to_owned(), value.to_owned()));
            }
        }
    }
    out
}

/// Write the row of game number `index` of `file`, whose tags are `tags`.
///
/// # Errors
///
/// What the CSV writer reports (an I/O error of `W`).
pub fn game_row<W: std::io::Write>(
    w: &mut Writer<W>,
    file: &str,
    index: usize,
    tags: &TagPairs<'_>,
    report: &Verdict,
    columns: &TagColumns,
) -> csv::Result<()> {
    let mut num = String::new();
    let mut buf = String::new();
    w.write_field(file)?;
    push_u32(&mut num, index as u32);
    w.write_field(&num)?;
    for name in &FIXED_TAGS[..6] {
        w.write_field(tag_value(tags, name, &mut buf))?;
    }
    let (result, winner) = normalised(report.result.as_deref(), report.variant);
    w.write_field(&result)?;
    w.write_field(winner)?;
    w.write_field(report.result.as_deref().unwrap_or(""))?;
    w.write_field(report.variant.map_or("", |v| v.name()))?;
    for n in [report.plies, report.errors(), report.warnings()] {
        num.clear();
        push_u32(&mut num, n);
        w.write_field(&num)?;
    }
    let first = report.first_error();
    w.write_field(first.map_or("", |d| d.code.as_str()))?;
    num.clear();
    if let Some(p) = first.and_then(|d| d.ply) {
        push_u32(&mut num, p);
    }
    w.write_field(&num)?;
    w.write_field(first.map_or("", |d| if d.variation { "true" } else { "false" }))?;
    for name in columns.names() {
        w.write_field(tag_value(tags, name, &mut buf))?;
    }
    w.write_record(None::<&[u8]>)
}

/// The fields of one main-line ply as text, filled from a replay's [`PlyEvent`]: what a
/// ply row holds (the CSV's, the Arrow table's). Its buffers are reused from ply to ply.
#[derive(Clone, Debug)]
pub struct PlyText {
    /// The side that moves first in the variant (known at the first ply).
    first: Option<Color>,
    /// The number and side of the next move, as the writers number them.
    next: Option<Num>,
    /// Ply along the main line.
    pub ply: u32,
    /// Move number, as the writers number the moves.
    pub number: u32,
    /// The side that moved.
    pub side: Color,
    /// The move in canonical notation.
    pub mv: String,
    /// Every stopping square (`32x21x12`).
    pub path: String,
    /// The pieces taken, in the order taken, separated by spaces.
    pub captured: String,
    /// The move promotes.
    pub promotion: bool,
    /// The position before the move, as FEN.
    pub fen_before: String,
    /// The position after the move, as FEN.
    pub fen_after: String,
    /// White men, white kings, black men, black kings after the move.
    pub pieces: [u32; 4],
}

impl Default for PlyText {
    fn default() -> PlyText {
        PlyText::new()
    }
}

impl PlyText {
    /// Fields for the plies of a game (numbering from its start).
    pub fn new() -> PlyText {
        PlyText {
            first: None,
            next: None,
            ply: 0,
            number: 0,
            side: Color::White,
            mv: String::with_capacity(32),
            path: String::with_capacity(32),
            captured: String::with_capacity(32),
            promotion: false,
            fen_before: String::with_capacity(160),
            fen_after: String::with_capacity(160),
            pieces: [0; 4],
        }
    }

    /// The start, or a setup, on the main line: the next move's number is the replay's.
    pub fn restart(&mut self) {
        self.next = None;
    }

    /// Fill the fields from a main-line ply of the game whose text is `source`.
    pub fn fill<V: Spec>(&mut self, e: &PlyEvent<'_, V>, source: &str, notation: Notation) {
        self.fill_moves(e, source, notation);
        let names = super::names(V::RULES.variant, notation);
        self.fen_before.clear();
        push_fen(e.before, names.numbering, &mut self.fen_before);
        self.fen_after.clear();
        push_fen(e.after, names.numbering, &mut self.fen_after);
    }

    /// Fill the fields but the FENs (left as they were).
    pub fn fill_moves<V: Spec>(&mut self, e: &PlyEvent<'_, V>, source: &str, notation: Notation) {
        let first = *self.first.get_or_insert(V::RULES.first_mover());
        let num = match self.next {
            Some(n) => n,
            None => Num {
                number: e.number,
                second: e.side != first,
            },
        };
        self.next = Some(num.after());
        self.ply = e.ply;
        self.number = num.number;
        self.side = e.side;
        let names = super::names(V::RULES.variant, notation);
        // The move.
        let b = &mut self.mv;
        b.clear();
        let mv = e.mv;
        let capture = mv.is_capture();
        let sep = if capture { 'x' } else { '-' };
        if e.played == Played::Legal {
            if e.ambiguous && capture {
                let mut route = Vec::with_capacity(e.route.len() + 1);
                route.extend(crate::rules::notation::route(V::geometry(), mv, e.route));
                for (i, &s) in route.iter().enumerate() {
                    if i > 0 {
                        b.push(sep);
                    }
                    names.push(s, b);
                }
            } else {
                names.push(u32::from(mv.from), b);
                b.push(sep);
                names.push(u32::from(mv.to), b);
            }
        } else {
            b.push_str(&canonical_move_ref_text(source, e.item));
        }
        // Every stopping square.
        let b = &mut self.path;
        b.clear();
        names.push(u32::from(mv.from), b);
        if e.route.is_empty() {
            b.push(sep);
            names.push(u32::from(mv.to), b);
        }
        for s in e.route {
            b.push(sep);
            names.push(u32::from(s.landing), b);
        }
        let b = &mut self.captured;
        b.clear();
        for (i, s) in e.route.iter().enumerate() {
            if i > 0 {
                b.push(' ');
            }
            names.push(u32::from(s.captured), b);
        }
        self.promotion = mv.promotes();
        let after = e.after;
        self.pieces = [
            after.men_of(Color::White).count(),
            after.kings_of(Color::White).count(),
            after.men_of(Color::Black).count(),
            after.kings_of(Color::Black).count(),
        ];
    }
}

/// The observer that writes one CSV row per main-line ply.
pub struct PlyRows<'a, W: std::io::Write> {
    w: &'a mut Writer<W>,
    file: &'a str,
    /// The game's text (its moves' spans index into it) and its number in its file.
    source: &'a str,
    index: usize,
    notation: Notation,
    text: PlyText,
    buf: String,
    /// The first write error, if any (the rest of the game is then not written).
    pub error: Option<csv::Error>,
    /// Rows written.
    pub rows: u64,
}

impl<W: std::io::Write> std::fmt::Debug for PlyRows<'_, W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlyRows")
            .field("file", &self.file)
            .field("rows", &self.rows)
            .finish_non_exhaustive()
    }
}

impl<'a, W: std::io::Write> PlyRows<'a, W> {
    /// Rows of game number `index` of `file`, whose text is `source`, into `w`.
    pub fn new(
        w: &'a mut Writer<W>,
        file: &'a str,
        source: &'a str,
        index: usize,
        notation: Notation,
    ) -> PlyRows<'a, W> {
        PlyRows {
            w,
            file,
            source,
            index,
            notation,
            text: PlyText::new(),
            buf: String::with_capacity(16),
            error: None,
            rows: 0,
        }
    }

    fn row<V: Spec>(&mut self, e: &PlyEvent<'_, V>) -> csv::Result<()> {
        let t = &mut self.text;
        t.fill(e, self.source, self.notation);
        let b = &mut self.buf;
        let w = &mut *self.w;
        w.write_field(self.file)?;
        for n in [self.index as u32, t.ply, t.number] {
            b.clear();
            push_u32(b, n);
            w.write_field(b.as_str())?;
        }
        w.write_field(t.side.name())?;
        w.write_field(t.mv.as_str())?;
        w.write_field(t.path.as_str())?;
        w.write_field(t.captured.as_str())?;
        w.write_field(if t.promotion { "true" } else { "false" })?;
        w.write_field(t.fen_before.as_str())?;
        w.write_field(t.fen_after.as_str())?;
        for n in t.pieces {
            b.clear();
            push_u32(b, n);
            w.write_field(b.as_str())?;
        }
        self.rows += 1;
        w.write_record(None::<&[u8]>)
    }
}

impl<W: std::io::Write> Observer for PlyRows<'_, W> {
    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if !e.main || self.error.is_some() {
            return;
        }
        if let Err(err) = self.row(e) {
            self.error = Some(err);
        }
    }

    fn position<V: Spec>(&mut self, _pos: &Position<V::B>, main: bool) {
        if main {
            self.text.restart();
        }
    }
}

/// A board's squares in the order a FEN lists them (numbers rising; algebraic squares rank
/// by rank from `a1` on a board where every square is played), with their names, so that a
/// FEN is written by copying a few bytes per piece.
#[derive(Debug)]
pub(crate) struct FenSquares {
    /// The numbering this is for.
    numbering: &'static Numbering,
    /// Per square in FEN order: its bit, its name followed by a comma (up to 8 bytes), and
    /// the length of both.
    order: Vec<(u32, [u8; 8], u8)>,
    /// By bit: the name followed by a comma, and its length (for a board whose bits rise in
    /// FEN order).
    by_bit: Vec<([u8; 8], u8)>,
    /// The bits rise in FEN order: the pieces are written by walking their set bits.
    rising: bool,
    /// The bits of the squares.
    mask: u128,
}

impl FenSquares {
    fn new(numbering: &'static Numbering) -> FenSquares {
        let names = Names {
            numbering,
            algebraic: numbering.layout.full,
        };
        let mut bits = Vec::new();
        if names.algebraic {
            let (w, h) = (
                u32::from(numbering.layout.width),
                u32::from(numbering.layout.height),
            );
            for rank in 0..h {
                for file in 0..w {
                    if let crate::rules::Lookup::Square(b) = numbering.bit_of_algebraic(file, rank)
                    {
                        bits.push(b);
                    }
                }
            }
        } else {
            for n in 1..=numbering.len() as u32 {
                if let Some(b) = numbering.bit_of_number(n) {
                    bits.push(b);
                }
            }
        }
        bits.retain(|&b| b < 128);
        let mut by_bit = vec![([0u8; 8], 0u8); 128];
        let mut order = Vec::with_capacity(bits.len());
        let mut text = String::new();
        for &b in &bits {
            text.clear();
            names.push(b, &mut text);
            text.truncate(7);
            text.push(',');
            let mut name = [0u8; 8];
            name[..text.len()].copy_from_slice(text.as_bytes());
            order.push((b, name, text.len() as u8));
            by_bit[b as usize] = (name, text.len() as u8);
        }
        let rising = bits.windows(2).all(|w| w[0] < w[1]);
        let mask = bits.iter().fold(0u128, |m, &b| m | 1 << b);
        FenSquares {
            numbering,
            order,
            by_bit,
            rising,
            mask,
        }
    }

    /// The squares of `numbering`: made once per variant's numbering.
    pub(crate) fn of(numbering: &'static Numbering) -> &'static FenSquares {
        static TABLES: std::sync::OnceLock<Vec<FenSquares>> = std::sync::OnceLock::new();
        let tables = TABLES.get_or_init(|| {
            crate::rules::Variant::ALL
                .iter()
                .map(|&v| FenSquares::new(crate::rules::with_variant!(v, V => V::numbering())))
                .collect()
        });
        if let Some(t) = tables.iter().find(|t| std::ptr::eq(t.numbering, numbering)) {
            return t;
        }
        // A numbering of no variant (not made by the program): made and kept once.
        static OTHERS: std::sync::Mutex<Vec<&'static FenSquares>> =
            std::sync::Mutex::new(Vec::new());
        let mut others = OTHERS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = others.iter().find(|t| std::ptr::eq(t.numbering, numbering)) {
            return t;
        }
        let t: &'static FenSquares = Box::leak(Box::new(FenSquares::new(numbering)));
        others.push(t);
        t
    }

    /// Append a position as a PDN FEN, in bytes (ASCII).
    pub(crate) fn push<B: Bits>(&self, pos: &Position<B>, out: &mut Vec<u8>) {
        // The side, two colour marks, and per piece `K`, a name and a comma.
        out.reserve(3 + 9 * self.order.len());
        out.push(side_letter(pos.side()));
        let kings = pos.kings().to_u128();
        for color in Color::ALL {
            out.push(b':');
            out.push(side_letter(color));
            self.push_list(pos.pieces(color).to_u128(), kings, out);
        }
    }

    /// The bits of a side's pieces that its list in a FEN shows, and of its kings among them:
    /// two positions whose lists of a side have the same key have the same list.
    pub(crate) fn list_key<B: Bits>(&self, pos: &Position<B>, color: Color) -> (u128, u128) {
        let mine = pos.pieces(color).to_u128() & self.mask;
        (mine, mine & pos.kings().to_u128())
    }

    /// Append the list of pieces of a side whose pieces are the bits of `mine` (kings those
    /// also in `kings`): names separated by commas, `K` before a king's.
    pub(crate) fn push_list(&self, mine: u128, kings: u128, out: &mut Vec<u8>) {
        // Written into a buffer on the stack without a branch per piece (a `K` always
        // written, kept for a king; a name always copied as 8 bytes, its length kept), then
        // appended at once: at most 128 pieces of `K`, 7 bytes and a comma.
        let mut buf = [0u8; 128 * 9 + 8];
        let mut n = 0;
        let mine = mine & self.mask;
        let mut put = |is_king: bool, name: &[u8; 8], len: u8| {
            buf[n] = b'K';
            n += usize::from(is_king);
            buf[n..n + 8].copy_from_slice(name);
            n += usize::from(len);
        };
        if self.rising {
            for base in [0u32, 64] {
                let mut m = (mine >> base) as u64;
                let k = (kings >> base) as u64;
                while m != 0 {
                    let i = m.trailing_zeros();
                    m &= m - 1;
                    let (name, len) = &self.by_bit[(base + i) as usize];
                    put(k >> i & 1 == 1, name, *len);
                }
            }
        } else {
            for (bit, name, len) in &self.order {
                if mine >> bit & 1 == 1 {
                    put(kings >> bit & 1 == 1, name, *len);
                }
            }
        }
        // Without the comma after the last piece.
        out.extend_from_slice(&buf[..n.saturating_sub(1)]);
    }
}

/// Append a position as a PDN FEN (as [`crate::rules::fen::write`] writes it: numbers,
/// algebraic squares on a board where every square is played).
pub(crate) fn push_fen<B: Bits>(
    pos: &Position<B>,
    numbering: &'static Numbering,
    out: &mut String,
) {
    let mut bytes = std::mem::take(out).into_bytes();
    FenSquares::of(numbering).push(pos, &mut bytes);
    // What was there, and ASCII.
    *out = String::from_utf8(bytes).unwrap_or_default();
}

/// The letter of a side in a FEN, as a byte.
pub(crate) fn side_letter(c: Color) -> u8 {
    match c {
        Color::White => b'W',
        Color::Black => b'B',
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::spec::{International, Turkish};

    #[test]
    fn fen_as_the_rules_layer_writes_it() {
        for fen in [
            "W:W31-50:B1-20",
            "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
        ] {
            let p = International::from_fen(fen).unwrap();
            let mut s = String::new();
            push_fen(&p, International::numbering(), &mut s);
            assert_eq!(s, International::to_fen(&p));
        }
        let p = Turkish::start();
        let mut s = String::new();
        push_fen(&p, Turkish::numbering(), &mut s);
        assert_eq!(s, Turkish::to_fen(&p));
        // Every variant's start, and a position with kings of both sides.
        for v in crate::rules::Variant::ALL {
            crate::rules::with_variant!(v, V => {
                let p = V::start();
                let mut s = String::new();
                push_fen(&p, V::numbering(), &mut s);
                assert_eq!(s, V::to_fen(&p), "{v:?}");
                let mut fen = V::to_fen(&p);
                // Crown the first piece of each side.
                for side in [":W", ":B"] {
                    if let Some(i) = fen.find(side) {
                        fen.insert(i + 2, 'K');
                    }
                }
                if let Ok(k) = V::from_fen(&fen) {
                    let mut s = String::new();
                    push_fen(&k, V::numbering(), &mut s);
                    assert_eq!(s, V::to_fen(&k), "{v:?} {fen}");
                }
            });
        }
    }

    #[test]
    fn clashing_tag_columns_are_renamed() {
        let games = crate::syntax::read_games(
            b"[Variant \"x\"][PlyCount \"3\"][variant \"y\"][Plies \"2\"]\n*",
        );
        let mut c = TagColumns::new();
        c.observe(&games[0]);
        let h = c.header();
        assert_eq!(
            &h[GAME_COLUMNS.len()..],
            ["tag_Variant", "PlyCount", "tag_variant_2", "tag_Plies"]
        );
    }
}
