//! The `pdn` command-line program.

fn main() {}
