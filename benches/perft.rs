//! Criterion benchmark: perft from the start positions.
fn main() {}
