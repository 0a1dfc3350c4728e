//! `pdn completions SHELL` and `pdn man`: generated from the clap definitions.

use std::io::Write;

use anyhow::Result;
use clap::CommandFactory;

use super::Status;
use super::args::{Cli, CompletionsArgs};

pub fn completions(a: &CompletionsArgs) -> Result<Status> {
    let mut cmd = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(a.shell, &mut cmd, "pdn", &mut out);
    out.flush()?;
    Ok(Status::Clean)
}

pub fn man() -> Result<Status> {
    let cmd = Cli::command();
    let mut out = std::io::stdout().lock();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    out.flush()?;
    Ok(Status::Clean)
}
