//! `pdn stats`: statistics over whole archives (results, variants, lengths, captures,
//! promotions, openings, players, events, diagnostics, duplicates) as aligned text, one JSON
//! object or a CSV table. Games are analysed on every core through the batch pipeline and
//! added to one accumulator in input order, so the output does not depend on `--jobs`.

use std::io::Write;

use anyhow::{Result, bail};
use pdn::app::stats::{By, Options, Stats, analyse_ref};
use pdn::app::write::terminal::escape_lines;

use super::args::{StatsArgs, StatsBy, StatsFormat};
use super::batch::{self, Sink};
use super::output::{Output, unwritten};
use super::progress;
use super::{Status, common};

/// Adds every game to the statistics, in order.
impl Sink<pdn::app::stats::GameFacts> for Stats {
    fn game(&mut self, _: usize, record: &mut pdn::app::stats::GameFacts) -> std::io::Result<u64> {
        let errors = u64::from(record.errors);
        self.add(record);
        Ok(errors)
    }
}

pub(super) fn run(a: &StatsArgs) -> Result<Status> {
    let by = a.by.map(|b| match b {
        StatsBy::Player => By::Player,
        StatsBy::Opening => By::Opening,
        StatsBy::Moves => By::Moves,
        StatsBy::Event => By::Event,
    });
    let duplicates = a.duplicates;
    if a.fuzzy == Some(0) {
        bail!("--fuzzy needs a number of plies of at least 1");
    }
    if a.format == StatsFormat::Csv {
        match (by, duplicates) {
            (None, false) => bail!(
                "--format csv writes one table: choose it with --by player|opening|event, or ask for --duplicates"
            ),
            (Some(_), true) => {
                bail!("--format csv writes one table: use either --by or --duplicates, not both")
            }
            _ => {}
        }
    }
    // The opening tables are checked before any game is read.
    let openings = super::classify::classifier(&a.tables, a.input.variant)?;
    let setup = common::RunSetup::new(&a.input)?;
    let opts = Options {
        validate: setup.validate_options(false, a.lines.main_line),
        duplicates,
        fuzzy: a.fuzzy,
        min_plies: a.min_plies,
        openings: Some(openings),
    };
    let inputs = &setup.inputs;
    if let Some(p) = &a.output {
        common::not_an_input("-o", p, inputs)?;
        common::not_read_aside("-o", p, &common::tables_read(&a.tables))?;
    }
    let mut stats = Stats::new(duplicates, a.fuzzy, a.min_plies);
    let totals = batch::run(&setup, || (), |(), g| analyse_ref(g, &opts).0, &mut stats)?;
    stats.files = totals.files;
    let names: Vec<String> = inputs.iter().map(|i| i.name().into_owned()).collect();
    let mut out = Output::open_data(a.output.as_deref())?;
    let written = match a.format {
        // Aligned text for a terminal (escaped there, as written into a file): names, events
        // and openings come from the input.
        StatsFormat::Text if a.output.is_some() => {
            out.write_all(stats.to_text(by, &names).as_bytes())
        }
        StatsFormat::Text => {
            out.write_all(escape_lines(&stats.to_text(by, &names), true).as_bytes())
        }
        StatsFormat::Json => out.write_all(stats.to_json(&names).as_bytes()),
        StatsFormat::Csv => out.write_all(&stats.to_csv(by, &names)?),
    };
    written.map_err(unwritten(if a.output.is_some() {
        "the statistics"
    } else {
        "standard output"
    }))?;
    out.finish()?;
    if let Some(p) = &a.output {
        progress::note(&format!(
            "pdn stats: {} in {}: wrote {}",
            common::count(stats.games, "game", "games"),
            common::count(totals.files, "file", "files"),
            super::output::shown(p)
        ));
    }
    if let Some(note) = common::unreadable_note(&totals) {
        progress::message(&format!("pdn: {note}"));
    }
    // Findings in the records are statistics, not failures (docs/exit-status.md).
    common::status(false, &totals)
}
