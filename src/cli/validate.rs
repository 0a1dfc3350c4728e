//! `pdn validate`: replay every game and report every illegal move, with the reason.

use std::io::Write;

use anyhow::Result;
use pdn::app::diagnostic::Format;
use pdn::app::validate::{Options, Summary, render_report, validate};

use super::args::{FormatArg, ValidateArgs};
use super::pipeline::{self, Event};
use super::{Status, common};

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
    let mut out = common::stdout();
    let mut summary = Summary::default();
    let inputs = &setup.inputs;
    let mut file_errors = setup.unreadable;
    pipeline::run(
        inputs,
        setup.jobs,
        &setup.progress,
        |i, game, hint| {
            let report = validate(game, &Options { hint, ..opts });
            // About the size of the game for JSON with its usual notes; grows if needed.
            let mut text = String::with_capacity(256 + game.source.len());
            render_report(format, &inputs[i].name, game, &report, &mut text);
            (text, report.plies, report.errors(), report.warnings())
        },
        |ev| {
            match ev {
                Event::FileStart => summary.files += 1,
                Event::Game((text, plies, errors, warnings)) => {
                    out.write_all(text.as_bytes())?;
                    summary.add(plies, errors, warnings);
                    setup.progress.game(errors as u64);
                }
                Event::FileError(i, e) => {
                    file_errors += 1;
                    setup.progress.finish();
                    eprintln!("pdn: {}: {e}", inputs[i].name);
                }
                Event::FileEnd => {}
            }
            Ok(())
        },
    )?;
    setup.progress.finish();
    let mut text = String::new();
    summary.render(format, &mut text);
    out.write_all(text.as_bytes())?;
    out.flush()?;
    common::status(
        summary.errors > 0,
        file_errors,
        summary.files,
        setup.unreadable,
    )
}
