//! Command-line glue: the clap definitions, one module per subcommand, exit codes and the
//! quiet handling of a closed pipe.

mod args;
mod batch;
mod classify;
mod common;
mod convert;
mod diagram;
mod docs;
mod explore;
mod fix;
mod index;
mod input;
mod manual;
mod merge;
mod names;
mod outdir;
mod output;
#[cfg(feature = "parquet")]
mod parquet;
mod perft;

mod progress;
mod report;
mod search;
mod stats;
mod validate;
mod values;

use std::io;
use std::process::ExitCode;

use clap::Parser;

pub(crate) use args::Cli;
use args::Command;

pub(crate) use output::{guard_standard_streams, install_signal_handler};

/// How a command ended, for the exit status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// Done, and nothing to report (`validate`, `fix`: no error left): exit 0.
    Clean,
    /// Errors found (`validate`, `fix`), an input not read or an output not written: exit 1.
    Errors,
}

/// Parse the command line (clap exits on bad usage). An error that quotes an argument is
/// written with the characters that must not reach a terminal raw escaped (`--format
/// $'\e[2J'` is quoted as `\u{1b}[2J`), as every message is: the command line is parsed a
/// second time with those arguments escaped, and that parse's error is the one shown.
pub(crate) fn parse() -> Cli {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match Cli::try_parse_from(&args) {
        Ok(mut cli) => match cli.dash_is_standard_output() {
            Ok(()) => cli,
            Err(e) => e.exit(),
        },
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                e.exit()
            }
            let safe: Vec<std::ffi::OsString> = args
                .iter()
                .map(|a| {
                    let text = a.to_string_lossy();
                    pdn::app::write::terminal::escape(&text).into_owned().into()
                })
                .collect();
            match Cli::try_parse_from(safe) {
                Err(shown) => shown.exit(),
                Ok(_) => e.exit(),
            }
        }
    }
}

/// Run the command, map the outcome to an exit code (docs/exit-status.md): 0 done (and, for `validate`
/// and `fix`, no error left), 1 errors found or an input not read or an output not written,
/// 2 fatal (bad usage, nothing could be read). A closed output pipe ends the program quietly.
pub(crate) fn run(cli: &Cli) -> ExitCode {
    common::set_color(cli.color());
    let result = match &cli.command {
        Command::Validate(a) => validate::run(a),
        Command::Fix(a) => fix::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Search(a) => search::run(a),
        Command::Explore(a) => explore::run(a),
        Command::Index(a) => index::run(a),
        Command::Classify(a) => classify::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Names(a) => names::run(a),
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
            let limit = e.chain().any(|c| {
                c.downcast_ref::<io::Error>()
                    .is_some_and(|io| io.kind() == io::ErrorKind::FileTooLarge)
            });
            progress::message(&format!(
                "pdn: {}: {}{}",
                common::label(pdn::app::judge::diagnostic::Severity::Error),
                pdn::app::write::terminal::escape(&format!("{e:#}")),
                if limit {
                    " (the file size limit of this process: ulimit -f)"
                } else {
                    ""
                }
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
