//! Command-line glue: the clap definitions, one module per subcommand, exit codes and the
//! quiet handling of a closed pipe.

mod args;
mod batch;
mod common;
mod convert;
mod docs;
mod fix;
mod input;
mod perft;
mod pipeline;
mod progress;
mod stats;
mod validate;

use std::io;
use std::process::ExitCode;

use clap::Parser;

pub use args::Cli;
use args::Command;

/// What a command found, for the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// No error found (warnings allowed): exit 0.
    Clean,
    /// At least one error diagnostic: exit 1.
    Errors,
}

/// Parse the command line (clap exits on bad usage).
pub fn parse() -> Cli {
    Cli::parse()
}

/// Run the command, map the outcome to an exit code: 0 clean, 1 errors found, 2 fatal (bad
/// usage, unreadable input). A closed output pipe ends the program quietly.
pub fn run(cli: &Cli) -> ExitCode {
    let result = match &cli.command {
        Command::Validate(a) => validate::run(a),
        Command::Fix(a) => fix::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Perft(a) => perft::run(a),
        Command::Completions(a) => docs::completions(a),
        Command::Man => docs::man(),
    };
    match result {
        Ok(Status::Clean) => ExitCode::from(0),
        Ok(Status::Errors) => ExitCode::from(1),
        Err(e) if is_broken_pipe(&e) => ExitCode::from(0),
        Err(e) => {
            eprintln!("pdn: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
