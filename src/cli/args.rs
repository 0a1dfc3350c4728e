//! Every clap type of the command line: the subcommands, their arguments and value enums.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Read, validate, correct, convert and analyse draughts (checkers) game records in PDN.
#[derive(Debug, Parser)]
#[command(name = "pdn", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay every game and report every illegal move, with the rule it breaks.
    Validate(ValidateArgs),
    /// Count the leaf nodes of the legal-move tree (move-generator check and benchmark).
    Perft(PerftArgs),
}

/// Options shared by the commands that read games.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Files, directories (searched recursively for *.pdn, any case, and *.pdn.gz) or `-`
    /// for standard input; none means standard input.
    #[arg(value_name = "PATH")]
    pub paths: Vec<std::path::PathBuf>,
    /// The variant of every game, overriding GameType and inference.
    #[arg(long, short = 'v', value_name = "V")]
    pub variant: Option<String>,
    /// Worker threads (default: the number of cores).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
}

/// Output format of `validate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Like a compiler: location, message, the source line with the move marked, the rule,
    /// the legal moves and the board.
    Human,
    /// One line per diagnostic.
    Short,
    /// JSON Lines: diagnostics, one `game` record per game, a final `summary`.
    Json,
}

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The variant: international, english, italian, pool, spanish, russian, brazilian,
    /// canadian, portuguese, czech, turkish, thai, frisian (also frysk, antidraughts,
    /// breakthrough, aliases and GameType numbers).
    #[arg(long, short = 'v')]
    pub variant: String,
    /// Start position as a PDN FEN in the variant's numbering (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies.
    #[arg(long, short = 'd')]
    pub depth: u32,
    /// Print the count below each legal move of the root position.
    #[arg(long)]
    pub divide: bool,
    /// Machine-readable output: JSON lines, the last one the total.
    #[arg(long)]
    pub json: bool,
    /// How capture routes are counted.
    #[arg(long, value_enum, default_value_t = CountingArg::Drop)]
    pub counting: CountingArg,
}

/// How capture routes are counted by perft.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CountingArg {
    /// One move per start, destination and captured set (FMJD; the standard tables).
    Drop,
    /// Every capture route (dctl's "keep duplicates").
    Keep,
    /// Every route and every landing square a king flies straight on from (kish).
    Landings,
}
