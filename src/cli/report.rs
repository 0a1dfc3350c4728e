//! `pdn validate --format html`: the HTML report, streamed game by game.

use anyhow::{Result, bail};

use super::Status;
use super::args::ValidateArgs;

pub fn run(_a: &ValidateArgs) -> Result<Status> {
    bail!("not yet")
}
