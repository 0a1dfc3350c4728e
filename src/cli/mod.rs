//! Command-line glue: the clap definitions, one module per subcommand, exit codes and the
//! quiet handling of a closed pipe.

mod args;
mod batch;
mod classify;
mod common;
mod convert;
mod diagram;
mod docs;
mod fix;
mod input;
mod manual;
mod outdir;
mod output;
mod perft;
mod pipeline;
mod progress;
mod report;
mod stats;
mod validate;
mod values;

use std::io;
use std::process::ExitCode;

use clap::Parser;

pub(crate) use args::Cli;
use args::Command;

pub(crate) use output::install_signal_handler;

/// How a command ended, for the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// Done, and nothing to report (`validate`, `fix`: no error left): exit 0.
    Clean,
    /// Errors found (`validate`, `fix`), an input not read or an output not written: exit 1.
    Errors,
}

/// Parse the command line (clap exits on bad usage).
pub(crate) fn parse() -> Cli {
    Cli::parse()
}

/// Run the command, map the outcome to an exit code (DESIGN.md): 0 done (and, for `validate`
/// and `fix`, no error left), 1 errors found or an input not read or an output not written,
/// 2 fatal (bad usage, nothing could be read). A closed output pipe ends the program quietly.
pub(crate) fn run(cli: &Cli) -> ExitCode {
    common::set_color(cli.color());
    let result = match &cli.command {
        Command::Validate(a) => validate::run(a),
        Command::Fix(a) => fix::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Classify(a) => classify::run(a),
        Command::Perft(a) => perft::run(a),
        Command::Diagram(a) => diagram::run(a),
        Command::Completions(a) => docs::completions(a),
        Command::Man(a) => docs::man(a),
    };
    match result {
        Ok(Status::Clean) => ExitCode::from(0),
        Ok(Status::Errors) => ExitCode::from(1),
        Err(e) if is_broken_pipe(&e) => ExitCode::from(0),
        Err(e) => {
            progress::message(&format!(
                "pdn: {}: {}",
                common::label(pdn::app::diagnostic::Severity::Error),
                pdn::app::terminal::escape(&format!("{e:#}"))
            ));
            if e.downcast_ref::<output::Unwritten>().is_some()
                || e.chain().any(|c| c.is::<output::Unwritten>())
            {
                ExitCode::from(1)
            } else {
                ExitCode::from(2)
            }
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
