//! `pdn search`: the games that reach a position, a pattern, material, the opening moves, or
//! play a manoeuvre. The command line is read into a [`Query`]; the library's [`Searcher`]
//! searches each game on every core through the batch pipeline (or an index answers:
//! `super::index`), and the matches are written in input order.

use std::io::{self, Write};

use anyhow::Result;
use pdn::app::search::query::{Query, QueryOption, QueryOptions};
use pdn::app::search::render::{self, Summary};
use pdn::app::search::{GameResult, SearchOptions, Searcher};
use pdn::rules::{Color, Role};

use super::args::{PieceArg, QueryArgs, SearchArgs, SearchFormat, SideArg};
use super::batch::{self, Sink};
use super::output::{Output, unwritten};
use super::{Status, common, progress};

/// The query of the command line (built by the library: [`QueryOptions::query`]).
pub(super) fn query(a: &QueryArgs) -> Result<Query> {
    let options = QueryOptions {
        position: a.position.clone(),
        any_side: a.any_side,
        pieces: a.pieces.clone(),
        not: a.not.clone(),
        empty: a.empty.clone(),
        material: a.material.clone(),
        moves: a.moves.clone(),
        side: a.side.map(|s| match s {
            SideArg::White => Color::White,
            SideArg::Black => Color::Black,
        }),
        piece: a.piece.map(|p| match p {
            PieceArg::Man => Role::Man,
            PieceArg::King => Role::King,
        }),
        from: a.from.clone(),
        to: a.to.clone(),
        captures: a.captures.clone(),
        promotion: a.promotion,
        sacrifice: a.sacrifice,
        mirror: a.mirror,
    };
    options.query().map_err(|e| match e.option {
        // A list of squares says what it is in its message.
        QueryOption::Empty | QueryOption::From | QueryOption::To => anyhow::Error::new(e.error),
        _ => anyhow::Error::new(e),
    })
}

/// Writes the matches of each game in order, as the format asks, and counts them.
pub(super) struct Out<'a> {
    pub out: Box<dyn Write + 'a>,
    pub format: SearchFormat,
    pub names: Vec<String>,
    pub summary: Summary,
    text: String,
}

impl<'a> Out<'a> {
    pub(super) fn new(
        out: Box<dyn Write + 'a>,
        format: SearchFormat,
        names: Vec<String>,
    ) -> Out<'a> {
        Out {
            out,
            format,
            names,
            summary: Summary::default(),
            text: String::new(),
        }
    }

    /// Write the CSV header (once, before any row).
    pub(super) fn header(&mut self) -> io::Result<()> {
        if self.format == SearchFormat::Csv {
            let bytes = csv_bytes([render::CSV_HEADER.map(String::from)])?;
            self.out.write_all(&bytes)?;
        }
        Ok(())
    }

    /// Write one game's matches (a game of input `file`).
    pub(super) fn write(&mut self, file: usize, r: &GameResult) -> io::Result<()> {
        self.summary.add(r);
        if r.matches.is_empty() {
            return Ok(());
        }
        let name = self.names.get(file).map_or("", String::as_str);
        self.text.clear();
        match self.format {
            SearchFormat::Human => render::push_human(&mut self.text, name, r),
            SearchFormat::Json => render::push_json(&mut self.text, name, r),
            SearchFormat::Pdn => render::push_pdn(&mut self.text, r),
            SearchFormat::Csv => {
                let bytes = csv_bytes(r.matches.iter().map(|m| render::csv_row(name, r, m)))?;
                return self.out.write_all(&bytes);
            }
        }
        self.out.write_all(self.text.as_bytes())
    }

    /// Write the summary where the format has it (JSON: its last record; human: its last
    /// line); the other formats say it on standard error.
    pub(super) fn finish(&mut self, extra: Option<&str>) -> io::Result<()> {
        let mut text = String::new();
        match self.format {
            SearchFormat::Json => self.summary.push_json(&mut text),
            SearchFormat::Human => {
                text.push_str(&self.summary.line());
                text.push('\n');
                if let Some(e) = extra {
                    text.push_str(e);
                    text.push('\n');
                }
            }
            SearchFormat::Csv | SearchFormat::Pdn => {
                progress::note(&format!("pdn search: {}", self.summary.line()));
                if let Some(e) = extra {
                    progress::note(&format!("pdn search: {e}"));
                }
            }
        }
        self.out.write_all(text.as_bytes())?;
        self.out.flush()
    }
}

/// CSV rows, written out.
fn csv_bytes<const N: usize>(rows: impl IntoIterator<Item = [String; N]>) -> io::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.write_record(r)?;
    }
    w.into_inner().map_err(|e| io::Error::other(e.to_string()))
}

impl Sink<GameResult> for Out<'_> {
    fn game(&mut self, file: usize, r: &mut GameResult) -> io::Result<u64> {
        self.write(file, r)?;
        Ok(0)
    }
}

pub(super) fn run(a: &SearchArgs) -> Result<Status> {
    let q = query(&a.query)?;
    let options = SearchOptions {
        variant: a.input.variant,
        variations: a.variations,
        all_occurrences: a.all_occurrences,
        keep_text: a.format == SearchFormat::Pdn,
    };
    let searcher = Searcher::new(q, options)?;
    if let Some(index) = &a.index {
        return super::index::search(a, &searcher, index);
    }
    let setup = common::RunSetup::new(&a.input)?;
    if let Some(p) = &a.output {
        common::not_an_input("-o", p, &setup.inputs)?;
    }
    let mut output = Output::open(a.output.as_deref())?;
    let (read, summary) = {
        let names = setup.inputs.iter().map(|i| i.name().into_owned()).collect();
        let mut out = Out::new(Box::new(&mut output), a.format, names);
        if a.format == SearchFormat::Csv {
            out.header().map_err(unwritten("the matches"))?;
        }
        let read = batch::run(&setup, || (), |(), g| searcher.search_ref(g), &mut out)?;
        out.summary.files = read.files;
        out.summary.unreadable_files = read.unreadable;
        let note = common::unreadable_note(&read);
        out.finish(note.as_deref())
            .map_err(unwritten("the matches"))?;
        (read, out.summary.clone())
    };
    output.finish()?;
    let _ = summary;
    common::status(false, &read)
}
