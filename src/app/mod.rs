//! The application layer: move resolution against the rules, replay and diagnostics,
//! exporters and statistics.

pub mod board;
pub mod diagnostic;
pub mod draws;
pub mod export;
pub mod findings;
pub mod fix;
pub mod gametype;
pub mod input;
mod join;
pub mod jsonl;
pub mod merge;
pub mod names;
pub mod openings;
pub mod outcome;
pub mod picture;
pub mod pipeline;
pub mod reading;
pub mod record;
pub mod replay;
pub mod report;
pub mod resolve;
pub mod search;
pub mod stats;
pub mod terminal;
pub mod tree;
pub mod validate;
