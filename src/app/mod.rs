//! The application layer: move resolution against the rules, replay and diagnostics,
//! exporters and statistics.

pub mod resolve;
