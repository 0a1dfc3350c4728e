//! `pdn validate`: replay every game and report every illegal move, with the reason.

use std::io::{self, Write};

use anyhow::Result;
use pdn::app::diagnostic::Format;
use pdn::app::record::RecordReader;
use pdn::app::validate::{Options, Summary, Validated, Validator, render_report, validate};

use super::args::{FormatArg, ValidateArgs};
use super::batch::{self, Sink};
use super::output::{Output, unwritten};
use super::{Status, common};

/// Writes the reports in order and adds them up.
struct Out {
    out: Output,
    summary: Summary,
}

impl Sink<Validated> for Out {
    fn game(&mut self, _: usize, done: Validated) -> io::Result<u64> {
        self.out.write_all(done.text.as_bytes())?;
        self.summary.add(done.plies, done.errors, done.warnings);
        Ok(u64::from(done.errors))
    }
}

pub fn run(a: &ValidateArgs) -> Result<Status> {
    let format = match a.format {
        FormatArg::Human => Format::Human,
        FormatArg::Short => Format::Short,
        FormatArg::Json => Format::Json,
    };
    let setup = common::Setup::new(&a.input)?;
    let opts = Options {
        variant: setup.variant,
        diagrams: format == Format::Human,
        hint: None,
    };
    let inputs = &setup.inputs;
    if let Some(p) = &a.output {
        common::not_an_input("-o", p, inputs)?;
    }
    let mut sink = Out {
        out: Output::open(a.output.as_deref())?,
        summary: Summary::default(),
    };
    let totals = if setup.jobs <= 1 {
        // Each game validated as it is read, without an owned `Game`.
        batch::run_visiting(
            &setup,
            |i| RecordReader::new(Validator::new(opts, format, &inputs[i].name)),
            &mut sink,
        )?
    } else {
        batch::run(
            &setup,
            |i, game, hint| {
                let report = validate(game, &Options { hint, ..opts });
                // About the size of the game for JSON with its usual notes; grows if needed.
                let mut text = String::with_capacity(256 + game.source.len());
                render_report(format, &inputs[i].name, game, &report, &mut text);
                Validated {
                    text,
                    plies: report.plies,
                    errors: report.errors(),
                    warnings: report.warnings(),
                }
            },
            &mut sink,
        )?
    };
    let Out {
        mut out,
        mut summary,
    } = sink;
    summary.files = totals.files;
    summary.unreadable_files = totals.unreadable;
    let mut text = String::new();
    summary.render(format, &mut text);
    if format != Format::Json
        && let Some(note) = common::unreadable_note(&totals)
    {
        text.push_str(&note);
        text.push('\n');
    }
    out.write_all(text.as_bytes())
        .map_err(unwritten("the report"))?;
    out.finish()?;
    common::status(summary.errors > 0, &totals)
}
