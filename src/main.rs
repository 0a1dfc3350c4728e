//! The `pdn` command-line program: argument parsing and dispatch; the work is in the library.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
