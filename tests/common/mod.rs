//! Helpers shared by the integration tests: where the shared corpus lives.
#![allow(dead_code)]

use std::path::PathBuf;

/// The shared corpus (`../shared/corpus` next to the checkout, or `$PDN_CORPUS`).
///
/// The corpus is part of the test contract: a missing corpus fails the test loudly
/// instead of skipping it.
pub fn corpus() -> PathBuf {
    let dir = match std::env::var_os("PDN_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    assert!(
        dir.join("perft.tsv").is_file(),
        "shared corpus not found at {} (set PDN_CORPUS)",
        dir.display()
    );
    dir
}
