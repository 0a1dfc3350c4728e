//! Writers: the exporters (PDN, JSON, CSV, Manoury), the one JSON writer, text diagrams of
//! positions for diagnostics, and input text made safe to show on a terminal.

pub mod board;
pub mod export;
pub(crate) mod join;
pub mod jsonl;
pub mod terminal;
