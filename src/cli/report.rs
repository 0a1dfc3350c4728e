//! `pdn validate --format html`: the HTML report, written as the games are validated (the
//! page's head first, one article per game in input order, the summary and script last), so
//! memory holds the games in flight, not the archive.

use std::io::{self, Write};

use anyhow::{Result, bail};
use pdn::app::diagnostic::Format;
use pdn::app::report::{self, FileTotals, GameHtml, Totals};

use super::Status;
use super::args::ValidateArgs;
use super::batch::{self, Sink};
use super::common;
use super::input::Input;
use super::output::{Output, unwritten};

/// Writes the articles in order and adds up the summary.
struct Page<'a> {
    out: Output,
    totals: Totals,
    inputs: &'a [Input],
}

impl Sink<GameHtml> for Page<'_> {
    fn file_start(&mut self, file: usize) -> io::Result<()> {
        self.totals.files.push(FileTotals {
            name: self.inputs[file].name.clone(),
            ..FileTotals::default()
        });
        Ok(())
    }

    fn game(&mut self, _: usize, done: GameHtml) -> io::Result<u64> {
        self.out.write_all(done.html.as_bytes())?;
        self.totals.add(&done.stats);
        Ok(u64::from(done.stats.counts.errors))
    }

    fn file_end(&mut self, _: usize, failed: bool) -> io::Result<()> {
        if let Some(f) = self.totals.files.last_mut() {
            f.unreadable = failed;
        }
        Ok(())
    }
}

pub(super) fn run(a: &ValidateArgs) -> Result<Status> {
    if a.max_diagnostics.is_some() {
        bail!(
            "--max-diagnostics is not for --format html: the page holds every finding and \
             filters them (by severity, by code)"
        );
    }
    // As for JSON: everything shown unless --min-severity says otherwise.
    let policy = super::validate::policy(a, Format::Json)?;
    let setup = common::Setup::new(&a.input)?;
    let opts = setup.validate_options(false, a.lines.main_line);
    let inputs = &setup.inputs;
    if let Some(p) = &a.output {
        common::not_an_input("-o", p, inputs)?;
    }
    let title = match inputs.as_slice() {
        [one] if one.name == "-" => "pdn validate: standard input".to_string(),
        [one] => format!("pdn validate: {}", one.name),
        [one, rest @ ..] => format!("pdn validate: {} and {} more files", one.name, rest.len()),
        [] => "pdn validate".to_string(),
    };
    let mut head = String::with_capacity(64 << 10);
    report::head(&title, &mut head);
    let mut page = Page {
        out: Output::open_data(a.output.as_deref())?,
        totals: Totals::default(),
        inputs,
    };
    page.out
        .write_all(head.as_bytes())
        .map_err(unwritten("the report"))?;
    let totals = batch::run(
        &setup,
        || (),
        |(), g| report::game_html(g, &inputs[g.file].name, &opts, &policy),
        &mut page,
    )?;
    let Page {
        mut out,
        totals: mut sum,
        ..
    } = page;
    for name in &totals.unreadable_names {
        if !sum.files.iter().any(|f| &f.name == name) {
            sum.files.push(FileTotals {
                name: name.clone(),
                unreadable: true,
                ..FileTotals::default()
            });
        }
    }
    let mut tail = String::with_capacity(64 << 10);
    report::tail(&sum, &policy, &mut tail);
    out.write_all(tail.as_bytes())
        .map_err(unwritten("the report"))?;
    out.finish()?;
    common::status(sum.counted.errors > 0, &totals)
}
