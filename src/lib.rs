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
