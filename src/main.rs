//! The `pdn` command-line program: argument parsing and dispatch; the work is in the library.

mod cli;

use std::process::ExitCode;

/// mimalloc: games are parsed on one thread and dropped on another; glibc's allocator
/// serialises such frees on arena locks, mimalloc does not (and is faster on one thread too).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    cli::main()
}
