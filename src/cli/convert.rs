//! `pdn convert` (being built).

use anyhow::{Result, bail};

use super::Status;
use super::args::ConvertArgs;

pub fn run(_a: &ConvertArgs) -> Result<Status> {
    bail!("`pdn convert` is not built yet")
}
