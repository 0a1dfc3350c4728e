//! `pdn`: read, validate, correct, convert and analyse draughts (checkers) game records.
//!
//! Three layers, each using only the ones below it:
//! - [`rules`]: board geometry, variants, positions, move generation, FEN, perft;
//! - PDN syntax (reader, grammar, writer), which knows nothing of legality;
//! - the application: move resolution, replay, diagnostics, exporters, the CLI.

#![forbid(unsafe_code)]

pub mod app;
pub mod rules;
pub mod syntax;

/// The project's root directory, for the unit tests that read `fixtures/` or the shared corpus
/// beside the project: the unit tests are built by the package in `unit/` (unit/Cargo.toml), one
/// level below it.
#[cfg(test)]
pub(crate) fn project_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}
