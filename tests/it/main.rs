//! The integration tests, one binary (as ripgrep does): one module per area, helpers in
//! [`support`]. They read the shared corpus at `../shared/corpus` (or `$PDN_CORPUS`).

mod support;

mod archives;
mod cli_attacks;
mod cli_batch;
mod cli_convert;
mod cli_docs;
mod cli_findings;
mod cli_outputs;
mod cli_stats;
mod cli_status;
mod cli_streams;
mod cli_terminal;
mod diagram;
mod fix;
mod merge;
mod movegen_cases;
mod openings;
mod perft;
mod properties;
mod report;
mod resolve;
mod rules_articles;
mod rules_games;
mod rules_lookups;
mod search;
mod syntax_corpus;
mod syntax_fixtures;
mod syntax_hostile;
mod syntax_pieces;
mod syntax_props;
mod syntax_regressions;
mod syntax_tokens;
mod syntax_visitor;
mod syntax_writer;
mod tables;
mod trust;
mod validate_corpus;
mod validate_fixtures;
