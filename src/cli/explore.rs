//! `pdn explore`: the moves played from a position.

use anyhow::{Result, bail};

use super::Status;
use super::args::ExploreArgs;

pub(super) fn run(_a: &ExploreArgs) -> Result<Status> {
    bail!("not yet")
}
