//! `pdn stats` (being built).

use anyhow::{Result, bail};

use super::Status;
use super::args::StatsArgs;

pub fn run(_a: &StatsArgs) -> Result<Status> {
    bail!("`pdn stats` is not built yet")
}
