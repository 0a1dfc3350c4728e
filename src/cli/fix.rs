//! `pdn fix` (being built).

use anyhow::{Result, bail};

use super::Status;
use super::args::FixArgs;

pub fn run(_a: &FixArgs) -> Result<Status> {
    bail!("`pdn fix` is not built yet")
}
