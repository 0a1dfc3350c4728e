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
    BooleanBuilder, ListBuilder, MapBuilder, MapFieldNames, StringBuilder, UInt32Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{Field, Schema, SchemaRef};

use crate::app::reading::GameRef;
use crate::app::replay::{Observer, PlyEvent};
use crate::app::validate::{self, Report, validate_ref_with};
use crate::rules::{Color, Position, Spec};

use super::Notation;
use super::csv::PlyText;

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
        report: &Report,
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
            crate::app::outcome::normalised(report.result.as_deref(), report.variant);
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

/// The rows of one game in the plies table, made by the per-game work.
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
    /// The text fields of every row, one after the other.
    text: String,
    /// Per row, where its move, path, captured, FEN before and FEN after end in `text`.
    ends: Vec<[u32; 5]>,
    /// The validation of the game, for the caller's counts.
    pub report: Option<Report>,
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
        let mut chunk = PlyChunk {
            file: file.to_owned(),
            game: g.index() as u32,
            text: String::with_capacity(g.text.len() * 8),
            ..PlyChunk::default()
        };
        let mut obs = Collect {
            chunk: &mut chunk,
            fields: PlyText::new(),
            source: g.text,
            notation,
        };
        let report = validate_ref_with(g, opts, &mut obs);
        chunk.report = Some(report);
        chunk
    }

    fn push(&mut self, t: &PlyText) {
        let mut ends = [0u32; 5];
        for (k, s) in [&t.mv, &t.path, &t.captured, &t.fen_before, &t.fen_after]
            .into_iter()
            .enumerate()
        {
            self.text.push_str(s);
            ends[k] = self.text.len() as u32;
        }
        self.ends.push(ends);
        let [wm, wk, bm, bk] = t.pieces;
        self.nums.push([t.ply, t.number, wm, wk, bm, bk]);
        self.flags.push((t.side == Color::White, t.promotion));
    }
}

/// The observer that fills a [`PlyChunk`].
struct Collect<'a> {
    chunk: &'a mut PlyChunk,
    fields: PlyText,
    source: &'a str,
    notation: Notation,
}

impl Observer for Collect<'_> {
    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if !e.main || self.chunk.text.len() > u32::MAX as usize / 2 {
            return;
        }
        self.fields.fill(e, self.source, self.notation);
        self.chunk.push(&self.fields);
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

/// The names of the games table's columns.
pub const GAME_TABLE_COLUMNS: [&str; 19] = [
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
    "tags",
];

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

/// The plies table being built.
#[derive(Debug)]
pub struct PlyTable {
    file: StringBuilder,
    /// game, ply, number, white men, white kings, black men, black kings.
    nums: [UInt32Builder; 7],
    side: StringBuilder,
    mv: StringBuilder,
    path: StringBuilder,
    captured: ListBuilder<StringBuilder>,
    promotion: BooleanBuilder,
    fen_before: StringBuilder,
    fen_after: StringBuilder,
    rows: usize,
}

impl Default for PlyTable {
    fn default() -> PlyTable {
        PlyTable::new()
    }
}

impl PlyTable {
    /// An empty table.
    pub fn new() -> PlyTable {
        let rows = BATCH_ROWS + 1024;
        PlyTable {
            file: StringBuilder::with_capacity(rows, rows * 16),
            nums: std::array::from_fn(|_| UInt32Builder::with_capacity(rows)),
            side: StringBuilder::with_capacity(rows, rows * 5),
            mv: StringBuilder::with_capacity(rows, rows * 6),
            path: StringBuilder::with_capacity(rows, rows * 6),
            captured: ListBuilder::new(StringBuilder::new()),
            promotion: BooleanBuilder::with_capacity(rows),
            fen_before: StringBuilder::with_capacity(rows, rows * 64),
            fen_after: StringBuilder::with_capacity(rows, rows * 64),
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
    /// end).
    pub fn push(&mut self, c: &PlyChunk) -> Option<RecordBatch> {
        let mut start = 0usize;
        for ((nums, &(white, promotion)), ends) in c.nums.iter().zip(&c.flags).zip(&c.ends) {
            self.file.append_value(&c.file);
            let (game, rest) = self.nums.split_at_mut(1);
            game[0].append_value(c.game);
            for (b, &n) in rest.iter_mut().zip(nums) {
                b.append_value(n);
            }
            self.side
                .append_value(if white { Color::White } else { Color::Black }.name());
            let mut field = |k: usize| {
                let end = ends[k] as usize;
                let s = c.text.get(start..end).unwrap_or("");
                start = end;
                s
            };
            self.mv.append_value(field(0));
            self.path.append_value(field(1));
            let captured = field(2);
            for sq in captured.split(' ').filter(|s| !s.is_empty()) {
                self.captured.values().append_value(sq);
            }
            self.captured.append(true);
            self.promotion.append_value(promotion);
            self.fen_before.append_value(field(3));
            self.fen_after.append_value(field(4));
            self.rows += 1;
        }
        (self.rows >= BATCH_ROWS).then(|| self.finish())
    }

    /// The rows appended since the last batch, as a batch.
    pub fn finish(&mut self) -> RecordBatch {
        self.rows = 0;
        let [g, p, n, wm, wk, bm, bk] = &mut self.nums;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.file.finish()),
            Arc::new(g.finish()),
            Arc::new(p.finish()),
            Arc::new(n.finish()),
            Arc::new(self.side.finish()),
            Arc::new(self.mv.finish()),
            Arc::new(self.path.finish()),
            Arc::new(self.captured.finish()),
            Arc::new(self.promotion.finish()),
            Arc::new(self.fen_before.finish()),
            Arc::new(self.fen_after.finish()),
            Arc::new(wm.finish()),
            Arc::new(wk.finish()),
            Arc::new(bm.finish()),
            Arc::new(bk.finish()),
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
        let report = Report {
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
