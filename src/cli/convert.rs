//! `pdn convert`: every game replayed once and written as strict PDN 3.0, JSON Lines, CSV
//! (one row per game, or per ply with `--plies`) or in the Manoury book style, in input
//! order whatever `--jobs`.
//!
//! The CSV of games has a column for every tag any game has (after the fixed columns), so
//! its header is known only at the end: the rows go to an anonymous temporary file as they
//! come (each with its own extra tags), and are copied out under the full header at the end.
//! Memory stays bounded by the largest game; the temporary file is about the size of the
//! output. With `--out-dir`, each input file has its own output (and its own header).

use std::io::{self, IsTerminal, Seek, SeekFrom, Write};

use anyhow::{Context, Result, bail};
use pdn::app::judge::validate::{
    Verdict, validate, validate_ref, validate_ref_with, validate_with,
};
use pdn::app::model::reading::GameRef;
use pdn::app::write::export::csv::{
    PLY_COLUMNS, PlyRows, TagColumns, TagPairs, game_row, other_tags, tag_pairs,
};
use pdn::app::write::export::{self, ExportOptions, Notation, analyse_owned, analyse_ref};
use pdn::app::write::spill::{SPILL_AT, Spill, SpillWriter, Text};

use super::args::{ConvertArgs, ConvertTo, NotationArg};
use super::batch::{self, Hinted, Sink};
use super::input::InputList;
use super::outdir::{self, Closed, PerFile};
use super::output::{AtomicFile, Output, Unwritten, shown};
#[cfg(feature = "parquet")]
use super::parquet::ParquetOut;
use super::progress;
use super::{Status, common};
#[cfg(feature = "parquet")]
use pdn::app::write::export::table::{GameRow, PlyChunk};

/// What converting one game gives the consumer.
struct Done {
    /// The output of the game (a CSV row without its extra tags for `--to csv`; a huge
    /// game's JSON or PDN in a temporary file: `pdn::app::write::spill`).
    bytes: Text,
    /// `--to csv`: the game's tags outside the fixed columns.
    tags: Vec<(String, String)>,
    errors: u32,
    /// Syntax errors of the game written as comments where they were found.
    kept: u32,
    /// The reader could not read all of the game's text (see `Game::read_whole`).
    cut: bool,
    /// `--to parquet`: the game's row or its plies.
    #[cfg(feature = "parquet")]
    table: Option<Rows>,
}

/// A game's rows of a Parquet table.
#[cfg(feature = "parquet")]
enum Rows {
    Game(GameRow),
    Plies(PlyChunk),
}

/// One output being written: the games go straight out, or, for `--to csv`, to the spool
/// until the header is known, or, for `--to parquet`, to the encoder.
struct Target<W: Write> {
    out: Body<W>,
    spool: Option<csv::Writer<std::fs::File>>,
    columns: TagColumns,
}

/// Where a target's bytes go.
enum Body<W: Write> {
    /// Straight to the output.
    Bytes(W),
    /// Through the Parquet encoder, which holds the output until the end.
    #[cfg(feature = "parquet")]
    Parquet(Box<ParquetOut<W>>),
}

impl<W: Write> Target<W> {
    /// Start an output (the header of `--plies` written).
    fn new(mut out: W, to: ConvertTo, plies: bool) -> Result<Target<W>> {
        #[cfg(feature = "parquet")]
        if to == ConvertTo::Parquet {
            return Ok(Target {
                out: Body::Parquet(Box::new(ParquetOut::new(out, plies)?)),
                spool: None,
                columns: TagColumns::new(),
            });
        }
        // The game rows of `--to csv` wait here for the header.
        let spool = if to == ConvertTo::Csv && !plies {
            let f =
                tempfile::tempfile().context("cannot create a temporary file for the CSV rows")?;
            Some(csv::WriterBuilder::new().flexible(true).from_writer(f))
        } else {
            None
        };
        if plies {
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(PLY_COLUMNS)?;
            out.write_all(&w.into_inner()?)?;
        }
        Ok(Target {
            out: Body::Bytes(out),
            spool,
            columns: TagColumns::new(),
        })
    }

    fn game(&mut self, d: &mut Done) -> io::Result<()> {
        if let Some(w) = self.spool.as_mut() {
            return spool_row(w, &mut self.columns, d).map_err(io::Error::other);
        }
        match &mut self.out {
            Body::Bytes(out) => d.bytes.write_to(out),
            #[cfg(feature = "parquet")]
            Body::Parquet(p) => match &d.table {
                Some(Rows::Game(r)) => p.game(r),
                Some(Rows::Plies(c)) => p.plies(c),
                None => Ok(()),
            }
            .map_err(|e| io::Error::other(format!("{e:#}"))),
        }
    }

    /// Write what waited for the header (or the Parquet footer); the output, to be
    /// finished.
    fn finish(self) -> Result<W> {
        let Target {
            out,
            spool,
            columns,
        } = self;
        let mut out = match out {
            Body::Bytes(out) => out,
            #[cfg(feature = "parquet")]
            Body::Parquet(p) => return p.finish(),
        };
        if let Some(w) = spool {
            let mut f = w.into_inner().map_err(|e| e.into_error())?;
            f.seek(SeekFrom::Start(0))?;
            write_game_csv(&mut f, &columns, &mut out)?;
        }
        Ok(out)
    }
}

/// Where the games go.
enum Dest {
    /// Standard output or `-o`.
    Single(Target<Output>),
    /// One file per input: the one being written, if it could be created.
    PerFile(PerFile, Option<Target<AtomicFile>>),
}

/// Writes the games in order.
struct Out<'a> {
    dest: Dest,
    to: ConvertTo,
    plies: bool,
    /// Games of the file being written.
    games: u64,
    /// Per-file lines on standard error (not with `--quiet`).
    lines: bool,
    /// Syntax errors kept as comments, and the games with any.
    kept: (u64, u64),
    /// The first game of the current file not read whole, and how many.
    first_cut: Option<u64>,
    file_cut: u64,
    /// Games not read whole, in all.
    cut: u64,
    inputs: &'a InputList,
}

impl Sink<Done> for Out<'_> {
    fn file_start(&mut self, i: usize) -> io::Result<()> {
        self.games = 0;
        self.first_cut = None;
        self.file_cut = 0;
        if let Dest::PerFile(per, cur) = &mut self.dest {
            *cur = per
                .open(i)
                .and_then(|f| match Target::new(f, self.to, self.plies) {
                    Ok(t) => Some(t),
                    Err(e) => {
                        per.lost(i, &io::Error::other(format!("{e:#}")));
                        None
                    }
                });
        }
        Ok(())
    }

    fn game(&mut self, i: usize, d: &mut Done) -> io::Result<u64> {
        self.games += 1;
        if d.kept > 0 {
            self.kept.0 += u64::from(d.kept);
            self.kept.1 += 1;
        }
        if d.cut {
            self.first_cut.get_or_insert(self.games);
            self.file_cut += 1;
            self.cut += 1;
        }
        match &mut self.dest {
            Dest::Single(t) => t.game(d)?,
            Dest::PerFile(per, cur) => {
                if let Some(t) = cur
                    && let Err(e) = t.game(d)
                {
                    per.lost(i, &e);
                    *cur = None;
                }
            }
        }
        Ok(u64::from(d.errors))
    }

    fn file_end(&mut self, i: usize, failed: bool) -> io::Result<()> {
        let first_cut = self.first_cut.map(|g| g as usize);
        let whole = outdir::whole(failed, first_cut, self.file_cut);
        if first_cut.is_some()
            && let Some(why) = &whole
        {
            progress::message(&format!(
                "pdn convert: {}: {why}: its output misses that text",
                common::shown_name(self.inputs.get(i))
            ));
        }
        if let Dest::PerFile(per, cur) = &mut self.dest
            && let Some(t) = cur.take()
        {
            let written = match t.finish() {
                Ok(f) => {
                    per.close(i, f, whole.as_deref(), self.inputs.get(i).stamp()) == Closed::Written
                }
                Err(e) => {
                    per.lost(i, &io::Error::other(format!("{e:#}")));
                    false
                }
            };
            if written && self.lines {
                progress::message(&format!(
                    "pdn convert: {} -> {}: {} game{}",
                    common::shown_name(self.inputs.get(i)),
                    shown(per.target(i)),
                    self.games,
                    if self.games == 1 { "" } else { "s" }
                ));
            }
        }
        Ok(())
    }
}

/// The extension of `--out-dir`'s files.
fn extension(to: ConvertTo, plies: bool) -> &'static str {
    match to {
        ConvertTo::Pdn => "pdn",
        ConvertTo::Json => "jsonl",
        ConvertTo::Csv if plies => "plies.csv",
        ConvertTo::Csv => "csv",
        ConvertTo::Manoury => "txt",
        #[cfg(feature = "parquet")]
        ConvertTo::Parquet if plies => "plies.parquet",
        #[cfg(feature = "parquet")]
        ConvertTo::Parquet => "parquet",
    }
}

pub(super) fn run(a: &ConvertArgs) -> Result<Status> {
    if a.plies && !matches!(a.to, ConvertTo::Csv) && !is_parquet(a.to) {
        bail!("--plies is for --to csv and --to parquet");
    }
    if a.plies && a.classify {
        bail!(
            "--classify writes tags: the rows of --plies have none (use --to csv without --plies)"
        );
    }
    super::classify::tables_need_classify(&a.tables, a.classify)?;
    // The opening tables are checked before any game is read.
    let classifier = if a.classify {
        Some(super::classify::classifier(&a.tables, a.input.variant)?)
    } else {
        None
    };
    let setup = common::RunSetup::new(&a.input)?;
    let inputs = &setup.inputs;
    let notation = match a.notation {
        None => Notation::Native,
        Some(NotationArg::Numeric) => Notation::Numeric,
        Some(NotationArg::Algebraic) => Notation::Algebraic,
    };
    let opts = ExportOptions {
        validate: setup.validate_options(false, false),
        notation,
        result_style: a.result_style.style(),
    };
    let to = a.to;
    let plies = a.plies;
    let per = match &a.out_dir {
        Some(dir) => Some(PerFile::out_dir(dir, inputs, extension(to, plies))?),
        None => None,
    };
    outdir::check_targets(
        inputs,
        a.output.as_deref(),
        None,
        per.as_ref(),
        &common::tables_read(&a.tables),
    )?;
    if is_parquet(to) && a.output.is_none() && per.is_none() && io::stdout().is_terminal() {
        bail!(
            "Parquet is binary: give -o FILE or --out-dir DIR (or send standard output to a \
             file or a pipe)"
        );
    }
    let dest = match per {
        Some(per) => Dest::PerFile(per, None),
        None => Dest::Single(
            Target::new(Output::open_data(a.output.as_deref())?, to, plies)
                .map_err(|e| e.context(Unwritten(output_name(a))))?,
        ),
    };
    let mut sink = Out {
        dest,
        to,
        plies,
        games: 0,
        lines: !setup.quiet,
        kept: (0, 0),
        first_cut: None,
        file_cut: 0,
        cut: 0,
        inputs,
    };
    let totals = batch::run(
        &setup,
        || (),
        |(), g| {
            let name = inputs.name(g.file);
            let name = name.as_ref();
            let opts = opts.hinted(g.hint);
            #[cfg(feature = "parquet")]
            if to == ConvertTo::Parquet {
                return table_rows(g, name, plies, &opts, classifier.as_ref());
            }
            if to == ConvertTo::Csv && classifier.is_none() {
                // Rows made on the record read: no owned game (its move tree) at all.
                return csv_of_ref(g, name, plies, &opts);
            }
            if to == ConvertTo::Json && classifier.is_none() && !plies {
                // Made on the record read when the normal form is its tree renumbered.
                return json_of_ref(g, name, &opts);
            }
            let mut game = g.to_game();
            if let Some(c) = &classifier {
                c.classify_record(g.record, g.text, &opts.validate)
                    .0
                    .set_tags(&mut game.tags);
            }
            // (Validated from the record read when its tags are those of the game.)
            let read = classifier.is_none().then_some(g);
            convert_game(to, plies, name, &mut game, read, &opts)
        },
        &mut sink,
    )?;
    let mut lost = 0;
    match sink.dest {
        Dest::Single(t) => t
            .finish()
            .map_err(|e| e.context(Unwritten(output_name(a))))?
            .finish()?,
        Dest::PerFile(per, _) => {
            if !setup.quiet {
                progress::message(&format!(
                    "pdn convert: {} in {}, {} file{} written{}",
                    common::count(totals.games, "game", "games"),
                    common::count(totals.files, "file", "files"),
                    per.written,
                    if per.written == 1 { "" } else { "s" },
                    if per.failed > 0 {
                        format!(", {} not", per.failed)
                    } else {
                        String::new()
                    }
                ));
            }
            lost = per.failed;
        }
    }
    if sink.kept.0 > 0 && !setup.quiet {
        let (n, games) = sink.kept;
        progress::message(&format!(
            "pdn convert: {n} syntax error{} in {games} game{} kept where found, as \
             `{{pdn: unreadable: …}}` or `{{pdn: syntax-error: …}}` comments",
            if n == 1 { "" } else { "s" },
            if games == 1 { "" } else { "s" },
        ));
    }
    if let Some(note) = common::unreadable_note(&totals) {
        progress::message(&format!("pdn: {note}"));
    }
    if sink.cut > 0 {
        progress::message(&format!(
            "pdn convert: {} game{} could not be read whole: the output misses part of {}",
            sink.cut,
            if sink.cut == 1 { "" } else { "s" },
            if sink.cut == 1 { "it" } else { "them" },
        ));
    }
    // Findings in the records are reported in the output, they are not failures
    // (docs/exit-status.md): 1 only for an input not read (whole) or an output not written.
    common::status(lost > 0 || sink.cut > 0, &totals)
}

/// True for `--to parquet`.
fn is_parquet(to: ConvertTo) -> bool {
    #[cfg(feature = "parquet")]
    if to == ConvertTo::Parquet {
        return true;
    }
    let _ = to;
    false
}

/// A game's rows of a Parquet table, made on its record.
#[cfg(feature = "parquet")]
fn table_rows(
    g: &pdn::app::model::reading::GameRef<'_>,
    file: &str,
    plies: bool,
    opts: &ExportOptions,
    classifier: Option<&pdn::app::openings::Classifier>,
) -> Done {
    let cut = g.record.errors.iter().any(|e| e.kind.loses_text());
    let (table, errors) = if plies {
        let chunk = PlyChunk::of_ref(g, file, &opts.validate, opts.notation);
        let errors = chunk.report.as_ref().map_or(0, |r| r.errors());
        (Rows::Plies(chunk), errors)
    } else {
        let row = match classifier {
            Some(c) => {
                let (class, report) =
                    c.classify_record(g.record, g.text, &g.options(&opts.validate));
                let mut tags: Vec<pdn::syntax::Tag> = g
                    .record
                    .tags()
                    .map(|(name, value, span)| pdn::syntax::Tag {
                        name: name.to_owned(),
                        value: value.to_owned(),
                        span,
                        written: None,
                    })
                    .collect();
                class.set_tags(&mut tags);
                GameRow::new(
                    file,
                    g.index(),
                    tags.iter().map(|t| (t.name.as_str(), t.value.as_str())),
                    &report,
                )
            }
            None => GameRow::of_ref(g, file, &opts.validate),
        };
        let errors = row.errors;
        (Rows::Game(row), errors)
    };
    Done {
        bytes: Text::default(),
        tags: Vec::new(),
        errors,
        kept: 0,
        cut,
        table: Some(table),
    }
}

/// The single output, as named in messages.
fn output_name(a: &ConvertArgs) -> String {
    match &a.output {
        Some(p) => shown(p),
        None => "standard output".into(),
    }
}

/// Replay a game and write it in the target format (its move tree given up to the normal
/// form: the tree is not held twice).
fn convert_game(
    to: ConvertTo,
    plies: bool,
    file: &str,
    game: &mut pdn::syntax::Game,
    read: Option<&GameRef<'_>>,
    opts: &ExportOptions,
) -> Done {
    if plies {
        let (source, index) = (&*game.source, game.index);
        return ply_rows(file, source, index, !game.read_whole(), opts, |rows| {
            validate_with(game, &opts.validate, rows)
        });
    }
    if to == ConvertTo::Csv {
        // A row needs the tags and the findings only (no normal form).
        let report = match read {
            Some(g) => validate_ref(g, &opts.validate),
            None => validate(game, &opts.validate),
        };
        return game_csv(
            file,
            game.index,
            &tag_pairs(game),
            &report,
            !game.read_whole(),
        );
    }
    let a = match read {
        Some(g) => analyse_ref(g, game, opts),
        None => analyse_owned(game, opts),
    };
    written(to, file, &a)
}

/// A game's JSON object made on the record it was read into, when its normal form is its
/// tree renumbered (`export::replay_ref`: no owned tree made at all); else on its owned game
/// (replayed once): the same bytes as [`convert_game`]'s.
fn json_of_ref(g: &GameRef<'_>, file: &str, opts: &ExportOptions) -> Done {
    let replay = export::replay_ref(g, opts);
    if replay.fits() {
        let shell = export::ByRecord::shell(g);
        let a = export::analyse_by_record(g, &shell, replay, opts);
        return written(ConvertTo::Json, file, &a);
    }
    let mut game = g.to_game();
    let a = export::analyse_replayed(&mut game, replay, opts);
    written(ConvertTo::Json, file, &a)
}

/// A game analysed, written in the target format (PDN, JSON or Manoury).
fn written(to: ConvertTo, file: &str, a: &export::Analysed<'_>) -> Done {
    let game = a.game;
    let errors = a.report.errors();
    // A huge game's output goes to a temporary file as it is written, never held
    // whole: the buffer is not reserved beyond that size.
    let mut s = String::with_capacity((2 * a.source.len() + 256).min(SPILL_AT));
    let mut spill = Spill::default();
    match to {
        ConvertTo::Json => export::json::write_to(a, file, &mut s, &mut spill),
        ConvertTo::Pdn => export::pdn::write_to(a, &mut s, &mut spill),
        _ => export::manoury::write_to(a, &mut s, &mut spill),
    }
    Done {
        bytes: spill.finish(s),
        tags: Vec::new(),
        errors,
        kept: game.errors.len() as u32,
        cut: !game.read_whole(),
        #[cfg(feature = "parquet")]
        table: None,
    }
}

/// A game's CSV (its row, or with `plies` its ply rows) made on the record it was read into:
/// the same bytes as from its owned game ([`convert_game`]), without one.
fn csv_of_ref(g: &GameRef<'_>, file: &str, plies: bool, opts: &ExportOptions) -> Done {
    let cut = g.record.errors.iter().any(|e| e.kind.loses_text());
    if plies {
        return ply_rows(file, g.text, g.index(), cut, opts, |rows| {
            validate_ref_with(g, &opts.validate, rows)
        });
    }
    let report = validate_ref(g, &opts.validate);
    let tags: Vec<(&str, &str)> = g.record.tags().map(|(n, v, _)| (n, v)).collect();
    game_csv(file, g.index(), &tags, &report, cut)
}

/// The row of game number `index` of `file` (tags `tags`, validation `report`), with its
/// extra tags for the header.
fn game_csv(file: &str, index: usize, tags: &TagPairs<'_>, report: &Verdict, cut: bool) -> Done {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::with_capacity(512));
    let r = game_row(&mut w, file, index, tags, report, &TagColumns::new());
    let mut bytes = w.into_inner().unwrap_or_default();
    if r.is_err() {
        bytes.clear();
    }
    Done {
        bytes: Text::from(bytes),
        tags: other_tags(tags),
        errors: report.errors(),
        kept: 0,
        cut,
        #[cfg(feature = "parquet")]
        table: None,
    }
}

/// The ply rows of game number `index` of `file`, whose text is `source`, written as
/// `validate` replays it with the rows watching.
fn ply_rows(
    file: &str,
    source: &str,
    index: usize,
    cut: bool,
    opts: &ExportOptions,
    validate: impl FnOnce(&mut PlyRows<'_, SpillWriter>) -> Verdict,
) -> Done {
    // A huge game's rows go to a temporary file as they are written (`app::write::spill`).
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(SpillWriter::new(
            Spill::default(),
            Vec::with_capacity(64 * 1024),
        ));
    let (report, error) = {
        let mut rows = PlyRows::new(&mut w, file, source, index, opts.notation);
        let report = validate(&mut rows);
        (report, rows.error.take())
    };
    let mut bytes = w.into_inner().unwrap_or_default();
    if let Some(e) = error {
        // Writing into memory fails only on a malformed record: say so in the output.
        let _ = bytes.write_all(format!("# pdn: {e}\n").as_bytes());
    }
    Done {
        bytes: bytes.finish(),
        tags: Vec::new(),
        errors: report.errors(),
        kept: 0,
        cut,
        #[cfg(feature = "parquet")]
        table: None,
    }
}

/// Spool one game row: its fixed fields (one CSV record), then for each extra tag the index
/// of its column and its value.
fn spool_row(
    w: &mut csv::Writer<std::fs::File>,
    columns: &mut TagColumns,
    d: &Done,
) -> csv::Result<()> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(d.bytes.in_memory().unwrap_or_default());
    let mut record = csv::ByteRecord::new();
    if !r.read_byte_record(&mut record)? {
        return Ok(());
    }
    let mut fields: Vec<Vec<u8>> = record.iter().map(<[u8]>::to_vec).collect();
    for (name, value) in &d.tags {
        if let Some(k) = columns.add(name) {
            fields.push(k.to_string().into_bytes());
            fields.push(value.clone().into_bytes());
        }
    }
    w.write_record(&fields)
}

/// Copy the spooled rows out under the full header.
fn write_game_csv(
    spooled: &mut std::fs::File,
    columns: &TagColumns,
    out: &mut dyn Write,
) -> Result<()> {
    let fixed = pdn::app::write::export::csv::GAME_COLUMNS.len();
    let extra = columns.names().len();
    let mut w = csv::Writer::from_writer(out);
    w.write_record(columns.header())?;
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(std::io::BufReader::new(spooled));
    let mut record = csv::ByteRecord::new();
    while r.read_byte_record(&mut record)? {
        let mut row: Vec<&[u8]> = Vec::with_capacity(fixed + extra);
        row.extend(record.iter().take(fixed));
        row.resize(fixed + extra, b"");
        let mut pairs = record.iter().skip(fixed);
        while let (Some(k), Some(v)) = (pairs.next(), pairs.next()) {
            if let Some(k) = std::str::from_utf8(k)
                .ok()
                .and_then(|k| k.parse::<usize>().ok())
                && k < extra
            {
                row[fixed + k] = v;
            }
        }
        w.write_record(&row)?;
    }
    w.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdn::app::model::reading::FileGames;
    use pdn::syntax::Reader;
    use std::path::{Path, PathBuf};

    /// Every `.pdn` file under `root`, sorted.
    fn pdn_files(root: &Path) -> Vec<PathBuf> {
        let mut dirs = vec![root.to_path_buf()];
        let mut files = Vec::new();
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).expect("a directory") {
                let p = e.expect("an entry").path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdn")) {
                    files.push(p);
                }
            }
        }
        files.sort();
        files
    }

    fn bytes(d: Done) -> (Vec<u8>, Vec<(String, String)>, u32, u32, bool) {
        let Done {
            bytes,
            tags,
            errors,
            kept,
            cut,
            ..
        } = d;
        (bytes.into_string().into_bytes(), tags, errors, kept, cut)
    }

    #[test]
    fn csv_made_on_the_record_is_that_of_the_owned_game_on_every_fixture() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut games = 0;
        let mut rows = 0;
        for p in pdn_files(&root) {
            let text = std::fs::read(&p).expect("a file");
            let name = p.display().to_string();
            let mut reader = Reader::new(text.as_slice());
            let mut file = FileGames::new(0);
            while let Some(()) = file
                .next(&mut reader, |g| {
                    for (plies, notation) in [
                        (false, Notation::Native),
                        (true, Notation::Native),
                        (true, Notation::Algebraic),
                    ] {
                        let opts = ExportOptions {
                            notation,
                            ..ExportOptions::default()
                        }
                        .hinted(g.hint);
                        let from_record = bytes(csv_of_ref(g, &name, plies, &opts));
                        let mut game = g.to_game();
                        let owned = bytes(convert_game(
                            ConvertTo::Csv,
                            plies,
                            &name,
                            &mut game,
                            None,
                            &opts,
                        ));
                        assert_eq!(from_record, owned, "{name} game {}", g.index());
                        if plies {
                            rows += from_record.0.iter().filter(|&&b| b == b'\n').count();
                        }
                    }
                    games += 1;
                })
                .expect("read from memory")
            {}
        }
        assert!(games > 200, "{games} games");
        assert!(rows > 1000, "{rows} ply rows");
    }
}
