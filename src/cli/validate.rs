//! `pdn validate`: replay every game and report every illegal move, with the reason.

use std::io::{self, Write};

use anyhow::Result;
use pdn::app::diagnostic::Format;
use pdn::app::validate::{Options, Summary, render_report, validate};

use super::args::{FormatArg, ValidateArgs};
use super::batch::{self, Sink};
use super::output::{Output, unwritten};
use super::{Status, common};

/// A game's rendering and counts.
type Done = (String, u32, u32, u32);

/// Writes the reports in order and adds them up.
struct Out {
    out: Output,
    summary: Summary,
}

impl Sink<Done> for Out {
    fn game(&mut self, _: usize, (text, plies, errors, warnings): Done) -> io::Result<u64> {
        self.out.write_all(text.as_bytes())?;
        self.summary.add(plies, errors, warnings);
        Ok(u64::from(errors))
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
    let totals = batch::run(
        &setup,
        |i, game, hint| {
            let game = &game;
            let report = validate(game, &Options { hint, ..opts });
            // About the size of the game for JSON with its usual notes; grows if needed.
            let mut text = String::with_capacity(256 + game.source.len());
            render_report(format, &inputs[i].name, game, &report, &mut text);
            (text, report.plies, report.errors(), report.warnings())
        },
        &mut sink,
    )?;
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
