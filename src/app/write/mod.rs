//! Writers: the exporters (PDN, JSON, CSV, Manoury), the one JSON writer, text diagrams of
//! positions for diagnostics, input text made safe to show on a terminal, and a long game's
//! output written as it goes (`spill`).

pub mod board;
pub mod export;
pub(crate) mod join;
pub mod jsonl;
pub mod spill;
pub mod terminal;
