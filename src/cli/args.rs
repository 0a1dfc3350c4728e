//! Every clap type of the command line: the subcommands, their arguments and value enums.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Read, validate, correct, convert and analyse draughts (checkers) game records in PDN.
#[derive(Debug, Parser)]
#[command(name = "pdn", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The threads the command will read games with (1 for the commands that read none).
    pub fn threads(&self) -> usize {
        match &self.command {
            Command::Validate(a) => a.input.jobs(),
            Command::Fix(a) => a.input.jobs(),
            Command::Convert(a) => a.input.jobs(),
            Command::Stats(a) => a.input.jobs(),
            Command::Perft(_) | Command::Completions(_) | Command::Man => 1,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay every game and report every illegal move, with the rule it breaks.
    Validate(ValidateArgs),
    /// Write corrected PDN 3.0: canonical notation, move numbers, results and tags mended.
    Fix(FixArgs),
    /// Convert games to strict PDN, JSON, CSV or the Manoury book style.
    Convert(ConvertArgs),
    /// Statistics over games: results, lengths, captures, openings, players, duplicates.
    #[command(after_help = STATS_NOTES)]
    Stats(StatsArgs),
    /// Count the leaf nodes of the legal-move tree (move-generator check and benchmark).
    Perft(PerftArgs),
    /// Print a shell completion script.
    Completions(CompletionsArgs),
    /// Print the man page (roff).
    Man,
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
    /// Worker threads (default and most: the number of cores).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// No progress bar.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

/// The number of cores (1 if it cannot be known).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl InputArgs {
    /// The worker threads: `--jobs`, or the number of cores; never more than the cores.
    pub fn jobs(&self) -> usize {
        self.jobs.unwrap_or(usize::MAX).clamp(1, cores())
    }

    /// What to say when `--jobs` asked for more threads than there are cores.
    pub fn jobs_note(&self) -> Option<String> {
        let cores = cores();
        match self.jobs {
            Some(n) if n > cores => Some(format!(
                "--jobs {n}: this machine has {cores} core{}, using {cores} thread{}",
                if cores == 1 { "" } else { "s" },
                if cores == 1 { "" } else { "s" },
            )),
            _ => None,
        }
    }
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
    /// Write the report here instead of standard output (written whole or not at all).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub struct FixArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Write here instead of standard output (written whole or not at all).
    #[arg(long, short = 'o', value_name = "OUT", conflicts_with_all = ["out_dir", "in_place"])]
    pub output: Option<std::path::PathBuf>,
    /// Write one file per input file into DIR, mirroring the inputs' paths below the PATH
    /// they were found under (`.pdn`, `.gz` dropped).
    #[arg(long, value_name = "DIR", conflicts_with = "in_place")]
    pub out_dir: Option<std::path::PathBuf>,
    /// Replace each input file with its fixed version (a compressed file stays compressed).
    #[arg(long)]
    pub in_place: bool,
    /// With --in-place: keep each original as FILE followed by SUFFIX.
    #[arg(long, value_name = "SUFFIX", requires = "in_place")]
    pub backup: Option<String>,
    /// Also restore the moves most probably played where a slip of the record (digits
    /// transposed or wrong, from and to swapped, a square off by one, a ply missing, doubled
    /// or out of order, …) made the game illegal, when one correction clearly fits best.
    #[arg(long)]
    pub repair: bool,
    /// Keep an irregular move that no correction explains and that the board allows (FMJD
    /// 5.4), and write the position after it as a setup (`/FEN "…"/`).
    #[arg(long)]
    pub keep_irregular: bool,
    /// Write every change as JSON Lines to this file.
    #[arg(long, value_name = "FILE")]
    pub audit: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Target format.
    #[arg(long, value_enum)]
    pub to: ConvertTo,
    /// CSV: one row per ply of the main line instead of one per game.
    #[arg(long)]
    pub plies: bool,
    /// Square names for 8x8 variants (default: the GameType's).
    #[arg(long, value_enum)]
    pub notation: Option<NotationArg>,
    /// Write here instead of standard output (written whole or not at all).
    #[arg(long, short = 'o', value_name = "OUT", conflicts_with = "out_dir")]
    pub output: Option<std::path::PathBuf>,
    /// Write one file per input file into DIR, mirroring the inputs' paths below the PATH
    /// they were found under, named for the format: `.pdn`, `.jsonl`, `.csv` (`--plies`:
    /// `.plies.csv`), `.txt` (Manoury).
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<std::path::PathBuf>,
}

/// Target of `convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ConvertTo {
    /// Strict PDN 3.0.
    Pdn,
    /// One JSON object per game per line.
    Json,
    /// CSV: one row per game (or per ply with --plies).
    Csv,
    /// The French book style: `1. 32-28 (19-23)`.
    Manoury,
}

/// Square names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum NotationArg {
    /// Numbers.
    Numeric,
    /// Algebraic coordinates (`c3-d4`).
    Algebraic,
}

/// What the numbers of `pdn stats` mean (after its `--help`).
const STATS_NOTES: &str = "\
What the numbers mean:
  Results are counted in each variant's standard form: `0 - 2`, `0–2` and `0-2` are one result,
  and so are `1/2-1/2` and `½-½` (an international draw is `1-1`).
  A game is decided when it was won, drawn or lost; `*`, `0-0`, no result and a score that is no
  game result are `unknown`, counted in their own column. Scores (%) and points count decided
  games only.
  Players are counted per variant, with points on its scale (a win 2 and a draw 1 under the
  international result type, 1 and ½ otherwise); `score%` is comparable across variants.
  Locations are file:line (the line where the game starts, or of the move), with the game
  number apart.";

#[derive(Debug, Args)]
pub struct StatsArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = StatsFormat::Text)]
    pub format: StatsFormat,
    /// The table for CSV output (and an extra table in text output).
    #[arg(long, value_enum)]
    pub by: Option<StatsBy>,
    /// List games that repeat another: the same moves (the same players, or White and Black
    /// swapped: "colours reversed"), or all their moves the start of a longer game
    /// ("contained"). Each with file:line and game number of both.
    #[arg(long)]
    pub duplicates: bool,
    /// With --duplicates: also games identical for their first N plies.
    #[arg(long, value_name = "N", requires = "duplicates")]
    pub fuzzy: Option<u32>,
    /// With --duplicates: leave out games shorter than N plies (a few moves in common are an
    /// opening, not a copy).
    #[arg(long, value_name = "N", requires = "duplicates", default_value_t = pdn::app::stats::MIN_PLIES)]
    pub min_plies: u32,
}

/// Output format of `stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    /// Aligned tables.
    Text,
    /// One JSON object.
    Json,
    /// The `--by` table as CSV.
    Csv,
}

/// Grouping of `stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsBy {
    /// Per player, one table per variant (points on its scale).
    Player,
    /// Per opening (first plies).
    Opening,
    /// Per event.
    Event,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
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
