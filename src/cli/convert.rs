//! `pdn convert`: every game replayed once and written as strict PDN 3.0, JSON Lines, CSV
//! (one row per game, or per ply with `--plies`) or in the Manoury book style, in input
//! order whatever `--jobs`.
//!
//! The CSV of games has a column for every tag any game has (after the fixed columns), so
//! its header is known only at the end: the rows go to an anonymous temporary file as they
//! come (each with its own extra tags), and are copied out under the full header at the end.
//! Memory stays bounded by the largest game; the temporary file is about the size of the
//! output.

use std::io::{Seek, SeekFrom, Write};

use anyhow::{Context, Result, bail};
use pdn::app::export::csv::{PLY_COLUMNS, PlyRows, TagColumns, game_row, other_tags};
use pdn::app::export::{self, ExportOptions, Notation, analyse};
use pdn::app::validate::{self, Options, validate_with};

use super::args::{ConvertArgs, ConvertTo, NotationArg};
use super::batch::{self, Sink};
use super::{Status, common};

/// What converting one game gives the consumer.
struct Done {
    /// The output of the game (a CSV row without its extra tags for `--to csv`).
    bytes: Vec<u8>,
    /// `--to csv`: the game's tags outside the fixed columns.
    tags: Vec<(String, String)>,
    errors: u32,
}

/// Writes the games in order (the rows of `--to csv` to the spool, for the header).
struct Out {
    out: Box<dyn Write>,
    spool: Option<csv::Writer<std::fs::File>>,
    columns: TagColumns,
    with_errors: u64,
}

impl Sink<Done> for Out {
    fn game(&mut self, _: usize, d: Done) -> std::io::Result<u64> {
        self.with_errors += u64::from(d.errors > 0);
        match self.spool.as_mut() {
            Some(w) => spool_row(w, &mut self.columns, &d).map_err(std::io::Error::other)?,
            None => self.out.write_all(&d.bytes)?,
        }
        Ok(u64::from(d.errors))
    }
}

pub fn run(a: &ConvertArgs) -> Result<Status> {
    if a.plies && a.to != ConvertTo::Csv {
        bail!("--plies is for --to csv");
    }
    let setup = common::Setup::new(&a.input)?;
    let inputs = &setup.inputs;
    if let Some(p) = &a.output {
        common::not_an_input("-o", p, inputs)?;
    }
    let notation = match a.notation {
        None => Notation::Native,
        Some(NotationArg::Numeric) => Notation::Numeric,
        Some(NotationArg::Algebraic) => Notation::Algebraic,
    };
    let opts = ExportOptions {
        validate: Options {
            variant: setup.variant,
            diagrams: false,
            hint: None,
        },
        notation,
    };
    let mut out = common::output(a.output.as_deref())?;
    // The game rows of `--to csv` wait here for the header.
    let spool = if a.to == ConvertTo::Csv && !a.plies {
        let f = tempfile::tempfile().context("cannot create a temporary file for the CSV rows")?;
        Some(csv::WriterBuilder::new().flexible(true).from_writer(f))
    } else {
        None
    };
    if a.plies {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(PLY_COLUMNS)?;
        out.write_all(&w.into_inner()?)?;
    }
    let to = a.to;
    let plies = a.plies;
    let mut sink = Out {
        out,
        spool,
        columns: TagColumns::new(),
        with_errors: 0,
    };
    let totals = batch::run(
        &setup,
        |i, game, hint| {
            let opts = ExportOptions {
                validate: validate::Options {
                    hint,
                    ..opts.validate
                },
                ..opts
            };
            let file = inputs[i].name.as_str();
            convert_game(to, plies, file, game, &opts)
        },
        &mut sink,
    )?;
    let Out {
        mut out,
        spool,
        columns,
        with_errors,
    } = sink;
    if let Some(w) = spool {
        let mut f = w.into_inner().map_err(|e| e.into_error())?;
        f.seek(SeekFrom::Start(0))?;
        write_game_csv(&mut f, &columns, &mut out)?;
    }
    out.flush()?;
    // The exit status of every command (DESIGN.md): 1 if a game has an error diagnostic.
    common::status(
        with_errors > 0,
        totals.unreadable,
        totals.files,
        setup.unreadable,
    )
}

/// Replay a game and write it in the target format.
fn convert_game(
    to: ConvertTo,
    plies: bool,
    file: &str,
    game: &pdn::syntax::Game,
    opts: &ExportOptions,
) -> Done {
    if plies {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::with_capacity(64 * 1024));
        let (report, error) = {
            let mut rows = PlyRows::new(&mut w, file, game, opts.notation);
            let report = validate_with(game, &opts.validate, &mut rows);
            (report, rows.error.take())
        };
        let mut bytes = w.into_inner().unwrap_or_default();
        if let Some(e) = error {
            // Writing into memory fails only on a malformed record: say so in the output.
            bytes.extend_from_slice(format!("# pdn: {e}\n").as_bytes());
        }
        return Done {
            bytes,
            tags: Vec::new(),
            errors: report.errors(),
        };
    }
    let mut a = analyse(game, opts);
    let errors = a.report.errors();
    match to {
        ConvertTo::Csv => {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(Vec::with_capacity(512));
            let r = game_row(&mut w, file, game, &a.report, &TagColumns::new());
            let mut bytes = w.into_inner().unwrap_or_default();
            if r.is_err() {
                bytes.clear();
            }
            Done {
                bytes,
                tags: other_tags(game),
                errors,
            }
        }
        ConvertTo::Json | ConvertTo::Pdn | ConvertTo::Manoury => {
            let mut s = String::with_capacity(2 * game.source.len() + 256);
            match to {
                ConvertTo::Json => export::json::write(&a, file, &mut s),
                ConvertTo::Pdn => export::pdn::write(&mut a, &mut s),
                _ => export::manoury::write(&a, &mut s),
            }
            Done {
                bytes: s.into_bytes(),
                tags: Vec::new(),
                errors,
            }
        }
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
        .from_reader(&d.bytes[..]);
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
    let fixed = pdn::app::export::csv::GAME_COLUMNS.len();
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
