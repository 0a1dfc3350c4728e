//! Arrow tables of games and of plies: what `pdn convert --to parquet [--plies]` writes and
//! what the Python package's `read_arrow` streams. Their columns are those of the CSV
//! ([`super::csv::GAME_COLUMNS`], [`super::csv::PLY_COLUMNS`]) and the JSON's fields, with
//! types: counts and numbers `uint32`, `promotion` and `first_error_in_variation` `bool`,
//! `captured` a list of square names; an absent value is null (the CSV's empty cell). The
//! games table has, in place of the CSV's one column per other tag, the column `tags`: a
//! map of every tag of the game in file order, keyed as the JSON keys them (a name given
//! again in a game as `Name (2)`, …), so that the schema is known before the first game.
//!
//! The per-game work (on any thread of the pipeline) makes a [`GameRow`] or a [`PlyChunk`];
//! the consumer appends them in input order to a [`GameTable`] or [`PlyTable`], which
//! hands out a [`RecordBatch`] every [`BATCH_ROWS`] rows (and the rest at the end). Memory
//! is bounded by one batch.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{
    BooleanBuilder, MapBuilder, MapFieldNames, StringBuilder, UInt32Builder,
};
use arrow_array::{ArrayRef, BooleanArray, ListArray, RecordBatch, StringArray, UInt32Array};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field, Schema, SchemaRef};

use crate::app::judge::replay::{Observer, PlyEvent};
use crate::app::judge::validate::{self, Verdict, validate_ref_with};
use crate::app::model::reading::GameRef;
use crate::rules::{Color, Position, Spec};

use super::Notation;
use super::csv::{FenSquares, GAME_COLUMNS, PlyText, side_letter};

/// Rows of a batch handed out by the tables.
pub const BATCH_ROWS: usize = 64 * 1024;

/// The tags with a column of their own in the games table (as in the CSV).
const FIXED_TAGS: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// One game's row of the games table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRow {
    /// The input's name.
    pub file: String,
    /// 1-based number of the game in its file.
    pub game: u32,
    /// Event, Site, Date, Round, White, Black (a tag given twice: its values joined by ` | `).
    pub fixed: [Option<String>; 6],
    /// Every tag in file order, keyed as in the JSON.
    pub tags: Vec<(String, String)>,
    /// The result in the variant's standard form (`*` when unknown), as the CSV has it.
    pub result: Option<String>,
    /// `white`, `black`, `draw`, `none` or `unknown`, as the CSV has it.
    pub winner: Option<&'static str>,
    /// The Result tag, else the result that ended the movetext, as written.
    pub result_text: Option<String>,
    /// The variant replayed.
    pub variant: Option<&'static str>,
    /// Plies of the main line replayed.
    pub plies: u32,
    /// Errors `pdn validate` finds.
    pub errors: u32,
    /// Warnings `pdn validate` finds.
    pub warnings: u32,
    /// The first error's code…
    pub first_error_code: Option<&'static str>,
    /// …its ply, when it is about a move…
    pub first_error_ply: Option<u32>,
    /// …and whether it is inside a variation.
    pub first_error_in_variation: Option<bool>,
}

impl GameRow {
    /// The row of game number `index` of `file`, whose tags (name, value, in file order) are
    /// `tags` and whose validation found `report`.
    pub fn new<'t>(
        file: &str,
        index: usize,
        tags: impl IntoIterator<Item = (&'t str, &'t str)>,
        report: &Verdict,
    ) -> GameRow {
        let mut row = GameRow {
            file: file.to_owned(),
            game: index as u32,
            ..GameRow::default()
        };
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (name, value) in tags {
            if let Some(k) = FIXED_TAGS.iter().position(|&f| f == name) {
                match &mut row.fixed[k] {
                    Some(v) => {
                        v.push_str(" | ");
                        v.push_str(value);
                    }
                    None => row.fixed[k] = Some(value.to_owned()),
                }
            }
            let n = seen.entry(name).or_insert(0);
            *n += 1;
            let key = if *n == 1 {
                name.to_owned()
            } else {
                format!("{name} ({n})")
            };
            row.tags.push((key, value.to_owned()));
        }
        let (result, winner) =
            crate::app::model::outcome::normalised(report.result.as_deref(), report.variant);
        row.result = Some(result);
        row.winner = Some(winner);
        row.result_text = report.result.clone();
        row.variant = report.variant.map(|v| v.name());
        row.plies = report.plies;
        row.errors = report.errors();
        row.warnings = report.warnings();
        if let Some(d) = report.first_error() {
            row.first_error_code = Some(d.code.as_str());
            row.first_error_ply = d.ply;
            row.first_error_in_variation = Some(d.variation);
        }
        row
    }

    /// The row of a game read into a record, validated with `opts` (and the file's hint).
    pub fn of_ref(g: &GameRef<'_>, file: &str, opts: &validate::Options) -> GameRow {
        let report = validate::validate_ref(g, opts);
        GameRow::new(
            file,
            g.index(),
            g.record.tags().map(|(n, v, _)| (n, v)),
            &report,
        )
    }
}

/// Strings one after the other, with where each ends.
#[derive(Clone, Debug, Default)]
struct Strings {
    /// UTF-8.
    text: Vec<u8>,
    ends: Vec<u32>,
}

impl Strings {
    /// End the string being written.
    fn end(&mut self) {
        self.ends.push(self.text.len() as u32);
    }

    /// Append a string and end it.
    fn push(&mut self, s: &str) {
        self.text.extend_from_slice(s.as_bytes());
        self.end();
    }
}

/// The most text a game's chunk holds (its rows' strings); the plies after are not
/// tabled, and the chunk says so ([`PlyChunk::cut`]).
pub const CHUNK_TEXT: usize = 1 << 30;

/// The rows of one game in the plies table, made by the per-game work (on the pipeline's
/// workers): its columns already laid out as the table's, so that appending it to the table
/// copies each column at once.
#[derive(Clone, Debug, Default)]
pub struct PlyChunk {
    /// The input's name.
    pub file: String,
    /// 1-based number of the game in its file.
    pub game: u32,
    /// Per row: ply, number, white men, white kings, black men, black kings.
    nums: Vec<[u32; 6]>,
    /// Per row: white moved, promotion.
    flags: Vec<(bool, bool)>,
    /// The move, path, FEN before and FEN after of every row.
    cols: [Strings; 4],
    /// The squares captured, of every row one after the other…
    captured: Strings,
    /// …and how many each row has.
    captured_counts: Vec<u32>,
    /// 1-based line of the game's first byte in its file.
    pub line: u32,
    /// Plies of the main line not tabled: the game's rows passed [`CHUNK_TEXT`] bytes (1 GiB;
    /// or the smaller limit given to [`PlyChunk::of_ref_within`]).
    pub cut: u32,
    /// The limit of the chunk's text.
    limit: usize,
    /// The validation of the game, for the caller's counts.
    pub report: Option<Verdict>,
}

impl PlyChunk {
    /// Rows in the chunk.
    pub fn len(&self) -> usize {
        self.nums.len()
    }

    /// No rows.
    pub fn is_empty(&self) -> bool {
        self.nums.is_empty()
    }

    /// The plies of the main line of a game read into a record, replayed with `opts` (and
    /// the file's hint), squares named as `notation` asks.
    pub fn of_ref(
        g: &GameRef<'_>,
        file: &str,
        opts: &validate::Options,
        notation: Notation,
    ) -> PlyChunk {
        PlyChunk::of_ref_within(g, file, opts, notation, CHUNK_TEXT)
    }

    /// [`PlyChunk::of_ref`], the rows' text limited to `limit` bytes (at most
    /// [`CHUNK_TEXT`]): the plies past it are counted in [`PlyChunk::cut`], not tabled.
    pub fn of_ref_within(
        g: &GameRef<'_>,
        file: &str,
        opts: &validate::Options,
        notation: Notation,
        limit: usize,
    ) -> PlyChunk {
        let mut chunk = PlyChunk {
            file: file.to_owned(),
            game: g.index() as u32,
            line: g.line,
            limit: limit.min(CHUNK_TEXT),
            ..PlyChunk::default()
        };
        // About 2 FENs of 120 bytes and 20 bytes of move and path per 6 bytes of movetext.
        let plies = g.text.len() / 6 + 8;
        for (c, per) in chunk.cols.iter_mut().zip([8, 10, 128, 128]) {
            c.text.reserve(plies * per);
            c.ends.reserve(plies);
        }
        let mut obs = Collect {
            chunk: &mut chunk,
            fields: PlyText::new(),
            source: g.text,
            notation,
            fen: None,
            memo: FenMemo::default(),
        };
        let report = validate_ref_with(g, opts, &mut obs);
        chunk.report = Some(report);
        chunk
    }

    /// What a cut chunk lost, to tell the user (`None` if nothing was cut): `game N: its
    /// last K plies are not in the table (over 1 GB of rows in one game)`.
    pub fn cut_note(&self) -> Option<String> {
        (self.cut > 0).then(|| {
            let limit = if self.limit == CHUNK_TEXT {
                "1 GB".to_owned()
            } else {
                format!("{} bytes", self.limit)
            };
            format!(
                "game {}: its last {} plies are not in the table (over {limit} of rows in one game)",
                self.game, self.cut
            )
        })
    }

    /// The text the chunk holds.
    fn text_len(&self) -> usize {
        self.cols.iter().map(|c| c.text.len()).sum::<usize>() + self.captured.text.len()
    }
}

/// The observer that fills a [`PlyChunk`].
struct Collect<'a> {
    chunk: &'a mut PlyChunk,
    fields: PlyText,
    source: &'a str,
    notation: Notation,
    /// The FEN writer of the game's board (known at its first ply).
    fen: Option<&'static FenSquares>,
    /// What the last FEN after shows, to copy rather than write again.
    memo: FenMemo,
}

/// A position as its FEN shows it: white to move, the white pieces, the black, the kings.
type FenKey = (bool, u128, u128, u128);

/// Where text is in a column's bytes: from, to.
type Span = (usize, usize);

/// The key of a position.
fn fen_key<B: crate::rules::Bits>(p: &Position<B>) -> FenKey {
    (
        p.side() == Color::White,
        p.pieces(Color::White).to_u128(),
        p.pieces(Color::Black).to_u128(),
        p.kings().to_u128(),
    )
}

/// The last FEN after written into a chunk: the next ply's FEN before is nearly always the
/// same position (its bytes are copied), and of the next FEN after, one side's list at least
/// is nearly always the same (the side that did not move, unless it lost pieces): copied
/// too, so that a ply writes one side's list instead of two whole FENs.
#[derive(Debug, Default)]
struct FenMemo {
    /// The position, and where its FEN is in the after column's text.
    last: Option<(FenKey, Span)>,
    /// Per side (white, black): its list's key ([`FenSquares::list_key`]) and where the
    /// list is in the after column's text.
    lists: [Option<((u128, u128), Span)>; 2],
}

impl Observer for Collect<'_> {
    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if !e.main {
            return;
        }
        let c = &mut *self.chunk;
        if c.cut > 0 || c.text_len() > c.limit {
            c.cut += 1;
            return;
        }
        let t = &mut self.fields;
        t.fill_moves(e, self.source, self.notation);
        let [mv, path, before, after] = &mut c.cols;
        mv.push(&t.mv);
        path.push(&t.path);
        let fen = *self.fen.get_or_insert_with(|| {
            FenSquares::of(super::names(V::RULES.variant, self.notation).numbering)
        });
        let memo = &mut self.memo;
        match memo.last {
            Some((key, (from, to))) if key == fen_key(e.before) => {
                before.text.extend_from_slice(&after.text[from..to]);
            }
            _ => fen.push(e.before, &mut before.text),
        }
        before.end();
        let start = after.text.len();
        after.text.push(side_letter(e.after.side()));
        for (color, list) in Color::ALL.into_iter().zip(&mut memo.lists) {
            after.text.push(b':');
            after.text.push(side_letter(color));
            let key = fen.list_key(e.after, color);
            let from = after.text.len();
            match *list {
                Some((k, (f, t))) if k == key => after.text.extend_from_within(f..t),
                _ => fen.push_list(key.0, key.1, &mut after.text),
            }
            *list = Some((key, (from, after.text.len())));
        }
        memo.last = Some((fen_key(e.after), (start, after.text.len())));
        after.end();
        let mut n = 0;
        for sq in t.captured.split(' ').filter(|s| !s.is_empty()) {
            c.captured.push(sq);
            n += 1;
        }
        c.captured_counts.push(n);
        let [wm, wk, bm, bk] = t.pieces;
        c.nums.push([t.ply, t.number, wm, wk, bm, bk]);
        c.flags.push((t.side == Color::White, t.promotion));
    }

    fn position<V: Spec>(&mut self, _pos: &Position<V::B>, main: bool) {
        if main {
            self.fields.restart();
        }
    }
}

/// The record batch of `columns` named `names` (nullable as the arrays are).
fn batch(names: &[&str], columns: Vec<ArrayRef>) -> RecordBatch {
    let fields: Vec<Field> = names
        .iter()
        .zip(&columns)
        .map(|(n, c)| Field::new(*n, c.data_type().clone(), true))
        .collect();
    let schema = Arc::new(Schema::new(fields));
    // The arrays are built together, so they have the schema's types and one length.
    RecordBatch::try_new(schema.clone(), columns).unwrap_or_else(|_| RecordBatch::new_empty(schema))
}

/// The names of the games table's columns: the CSV's fixed columns, then the tags as a map.
pub const GAME_TABLE_COLUMNS: [&str; GAME_COLUMNS.len() + 1] = {
    let mut out = [""; GAME_COLUMNS.len() + 1];
    let mut i = 0;
    while i < GAME_COLUMNS.len() {
        out[i] = GAME_COLUMNS[i];
        i += 1;
    }
    out[GAME_COLUMNS.len()] = "tags";
    out
};

/// The games table being built.
#[derive(Debug)]
pub struct GameTable {
    file: StringBuilder,
    game: UInt32Builder,
    fixed: [StringBuilder; 6],
    result: StringBuilder,
    winner: StringBuilder,
    result_text: StringBuilder,
    variant: StringBuilder,
    counts: [UInt32Builder; 3],
    code: StringBuilder,
    ply: UInt32Builder,
    in_variation: BooleanBuilder,
    tags: MapBuilder<StringBuilder, StringBuilder>,
    rows: usize,
}

impl Default for GameTable {
    fn default() -> GameTable {
        GameTable::new()
    }
}

impl GameTable {
    /// An empty table.
    pub fn new() -> GameTable {
        GameTable {
            file: StringBuilder::new(),
            game: UInt32Builder::new(),
            fixed: std::array::from_fn(|_| StringBuilder::new()),
            result: StringBuilder::new(),
            winner: StringBuilder::new(),
            result_text: StringBuilder::new(),
            variant: StringBuilder::new(),
            counts: std::array::from_fn(|_| UInt32Builder::new()),
            code: StringBuilder::new(),
            ply: UInt32Builder::new(),
            in_variation: BooleanBuilder::new(),
            tags: MapBuilder::new(
                Some(MapFieldNames {
                    entry: "entries".into(),
                    key: "key".into(),
                    value: "value".into(),
                }),
                StringBuilder::new(),
                StringBuilder::new(),
            ),
            rows: 0,
        }
    }

    /// The table's schema.
    pub fn schema() -> SchemaRef {
        GameTable::new().finish().schema()
    }

    /// Rows not yet handed out.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// No row waiting.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Append a game; a full batch, if this completes one.
    pub fn push(&mut self, r: &GameRow) -> Option<RecordBatch> {
        self.file.append_value(&r.file);
        self.game.append_value(r.game);
        for (b, v) in self.fixed.iter_mut().zip(&r.fixed) {
            b.append_option(v.as_deref());
        }
        self.result.append_option(r.result.as_deref());
        self.winner.append_option(r.winner);
        self.result_text.append_option(r.result_text.as_deref());
        self.variant.append_option(r.variant);
        for (b, n) in self.counts.iter_mut().zip([r.plies, r.errors, r.warnings]) {
            b.append_value(n);
        }
        self.code.append_option(r.first_error_code);
        self.ply.append_option(r.first_error_ply);
        self.in_variation.append_option(r.first_error_in_variation);
        for (k, v) in &r.tags {
            self.tags.keys().append_value(k);
            self.tags.values().append_value(v);
        }
        // Keys and values were appended in pairs.
        let _ = self.tags.append(true);
        self.rows += 1;
        (self.rows >= BATCH_ROWS).then(|| self.finish())
    }

    /// The rows appended since the last batch, as a batch.
    pub fn finish(&mut self) -> RecordBatch {
        self.rows = 0;
        let [event, site, date, round, white, black] = &mut self.fixed;
        let [plies, errors, warnings] = &mut self.counts;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(self.game.finish()),
            Arc::new(event.finish()),
            Arc::new(site.finish()),
            Arc::new(date.finish()),
            Arc::new(round.finish()),
            Arc::new(white.finish()),
            Arc::new(black.finish()),
            Arc::new(self.result.finish()),
            Arc::new(self.winner.finish()),
            Arc::new(self.result_text.finish()),
            Arc::new(self.variant.finish()),
            Arc::new(plies.finish()),
            Arc::new(errors.finish()),
            Arc::new(warnings.finish()),
            Arc::new(self.code.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.in_variation.finish()),
            Arc::new(self.tags.finish()),
        ];
        batch(&GAME_TABLE_COLUMNS, columns)
    }
}

/// A string column being built: its values and offsets, appended a column of a chunk at
/// a time.
#[derive(Debug)]
struct StrColumn {
    values: Vec<u8>,
    offsets: Vec<i32>,
}

impl StrColumn {
    fn with_capacity(rows: usize, bytes: usize) -> StrColumn {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        StrColumn {
            values: Vec::with_capacity(bytes),
            offsets,
        }
    }

    /// Append one value.
    fn push(&mut self, v: &str) {
        self.values.extend_from_slice(v.as_bytes());
        self.offsets.push(self.values.len() as i32);
    }

    /// Append the values of `s`.
    fn extend(&mut self, s: &Strings) {
        let base = self.values.len();
        self.values.extend_from_slice(&s.text);
        self.offsets
            .extend(s.ends.iter().map(|&e| (base + e as usize) as i32));
    }

    /// The column's array; the column starts again empty (with the same capacity).
    fn finish(&mut self) -> StringArray {
        let (rows, bytes) = (self.offsets.capacity(), self.values.capacity());
        let values = std::mem::replace(&mut self.values, Vec::with_capacity(bytes));
        let mut offsets = std::mem::replace(&mut self.offsets, Vec::with_capacity(rows));
        self.offsets.push(0);
        if offsets.is_empty() {
            offsets.push(0);
        }
        // The offsets rise from 0 and the values are whole UTF-8 strings, by construction.
        StringArray::try_new(
            OffsetBuffer::new(ScalarBuffer::from(offsets)),
            Buffer::from_vec(values),
            None,
        )
        .unwrap_or_else(|_| StringArray::from(Vec::<&str>::new()))
    }
}

/// The plies table being built: columns appended a game (a [`PlyChunk`]) at a time.
#[derive(Debug)]
pub struct PlyTable {
    file: StrColumn,
    /// game, ply, number, white men, white kings, black men, black kings.
    nums: [Vec<u32>; 7],
    side: StrColumn,
    /// move, path, FEN before, FEN after.
    cols: [StrColumn; 4],
    captured: StrColumn,
    captured_offsets: Vec<i32>,
    promotion: Vec<bool>,
    rows: usize,
}

impl Default for PlyTable {
    fn default() -> PlyTable {
        PlyTable::new()
    }
}

/// Bytes past which a column of a batch would no longer fit `i32` offsets: the batch is
/// handed out before a game that would pass them.
const BATCH_TEXT: usize = i32::MAX as usize - CHUNK_TEXT - 1024;

impl PlyTable {
    /// An empty table.
    pub fn new() -> PlyTable {
        let rows = BATCH_ROWS + 1024;
        let mut captured_offsets = Vec::with_capacity(rows + 1);
        captured_offsets.push(0);
        PlyTable {
            file: StrColumn::with_capacity(rows, rows * 16),
            nums: std::array::from_fn(|_| Vec::with_capacity(rows)),
            side: StrColumn::with_capacity(rows, rows * 5),
            cols: [
                StrColumn::with_capacity(rows, rows * 6),
                StrColumn::with_capacity(rows, rows * 6),
                StrColumn::with_capacity(rows, rows * 100),
                StrColumn::with_capacity(rows, rows * 100),
            ],
            captured: StrColumn::with_capacity(rows, rows * 2),
            captured_offsets,
            promotion: Vec::with_capacity(rows),
            rows: 0,
        }
    }

    /// The table's schema.
    pub fn schema() -> SchemaRef {
        PlyTable::new().finish().schema()
    }

    /// Rows not yet handed out.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// No row waiting.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Append a game's plies; a full batch, if this completes one (a batch ends at a game's
    /// end), or the rows before the game if its text would not fit in this batch.
    pub fn push(&mut self, c: &PlyChunk) -> Option<RecordBatch> {
        let before = (self.rows > 0
            && self
                .cols
                .iter()
                .any(|col| col.values.len() > BATCH_TEXT - c.text_len()))
        .then(|| self.finish());
        let n = c.len();
        for _ in 0..n {
            self.file.push(&c.file);
        }
        self.nums[0].extend(std::iter::repeat_n(c.game, n));
        for (k, col) in self.nums[1..].iter_mut().enumerate() {
            col.extend(c.nums.iter().map(|r| r[k]));
        }
        for &(white, _) in &c.flags {
            self.side
                .push(if white { Color::White } else { Color::Black }.name());
        }
        for (col, s) in self.cols.iter_mut().zip(&c.cols) {
            col.extend(s);
        }
        self.captured.extend(&c.captured);
        let mut end = *self.captured_offsets.last().unwrap_or(&0);
        for &k in &c.captured_counts {
            end += k as i32;
            self.captured_offsets.push(end);
        }
        self.promotion.extend(c.flags.iter().map(|&(_, p)| p));
        self.rows += n;
        before.or_else(|| (self.rows >= BATCH_ROWS).then(|| self.finish()))
    }

    /// The rows appended since the last batch, as a batch.
    pub fn finish(&mut self) -> RecordBatch {
        self.rows = 0;
        let nums = |v: &mut Vec<u32>| -> ArrayRef {
            let cap = v.capacity();
            Arc::new(UInt32Array::from(std::mem::replace(
                v,
                Vec::with_capacity(cap),
            )))
        };
        let [g, p, n, wm, wk, bm, bk] = &mut self.nums;
        let [mv, path, before, after] = &mut self.cols;
        let cap = self.captured_offsets.capacity();
        let mut offsets = std::mem::replace(&mut self.captured_offsets, Vec::with_capacity(cap));
        self.captured_offsets.push(0);
        if offsets.is_empty() {
            offsets.push(0);
        }
        let squares = self.captured.finish();
        // One offset per row and one more, rising from 0 to the squares' count.
        let captured = ListArray::try_new(
            Arc::new(Field::new_list_field(DataType::Utf8, true)),
            OffsetBuffer::new(ScalarBuffer::from(offsets)),
            Arc::new(squares),
            None,
        )
        .unwrap_or_else(|_| {
            ListArray::new_null(Arc::new(Field::new_list_field(DataType::Utf8, true)), 0)
        });
        let promotion = std::mem::take(&mut self.promotion);
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            nums(g),
            nums(p),
            nums(n),
            Arc::new(self.side.finish()),
            Arc::new(mv.finish()),
            Arc::new(path.finish()),
            Arc::new(captured),
            Arc::new(BooleanArray::from(promotion)),
            Arc::new(before.finish()),
            Arc::new(after.finish()),
            nums(wm),
            nums(wk),
            nums(bm),
            nums(bk),
        ];
        batch(&super::csv::PLY_COLUMNS, columns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::cast::AsArray;
    use arrow_array::types::UInt32Type;

    #[test]
    fn a_game_row_keys_its_tags_as_the_json_does() {
        let report = Verdict {
            game: 1,
            variant: None,
            inferred: None,
            guessed: false,
            plies: 3,
            result: Some("2-0".into()),
            diagnostics: Vec::new(),
        };
        let tags = [
            ("Event", "a"),
            ("Opening", "x"),
            ("Event", "b"),
            ("Event", "c"),
        ];
        let row = GameRow::new("f.pdn", 4, tags, &report);
        assert_eq!(row.fixed[0].as_deref(), Some("a | b | c"));
        let keys: Vec<&str> = row.tags.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["Event", "Opening", "Event (2)", "Event (3)"]);
        let mut t = GameTable::new();
        assert!(t.push(&row).is_none());
        let b = t.finish();
        assert_eq!(b.num_rows(), 1);
        assert_eq!(b.schema(), GameTable::schema());
        assert_eq!(b.column(12).as_primitive::<UInt32Type>().value(0), 3);
        assert!(b.column(15).is_null(0));
        assert!(t.is_empty());
    }

    #[test]
    fn the_tables_have_the_csv_columns() {
        let games = GameTable::schema();
        let names: Vec<&str> = games.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(names[..18], super::super::csv::GAME_COLUMNS);
        let plies = PlyTable::schema();
        let names: Vec<&str> = plies.fields().iter().map(|f| f.name().as_str()).collect();
        assert_eq!(names, super::super::csv::PLY_COLUMNS);
    }
}
