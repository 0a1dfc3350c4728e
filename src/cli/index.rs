//! `pdn index`: write an index of every main-line position; and `search --index`.

use anyhow::{Result, bail};
use pdn::app::search::Searcher;

use super::Status;
use super::args::{IndexArgs, SearchArgs};

pub(super) fn run(_a: &IndexArgs) -> Result<Status> {
    bail!("not yet")
}

pub(super) fn search(_a: &SearchArgs, _s: &Searcher, _index: &std::path::Path) -> Result<Status> {
    bail!("not yet")
}
