//! Every clap type of the command line: the subcommands, their arguments and value enums.
//! Every closed set of values (variants, formats, severities, codes, shells, colours, man
//! pages) is a clap value enum or has a value parser that lists its values, so that `--help`,
//! the man pages and the shell completions offer them.

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};
use pdn::app::diagnostic::{Code, Severity};

pub(super) use super::values::{VariantParser, man_pages};

/// Read, validate, correct, convert and analyse draughts (checkers) game records in PDN.
///
/// pdn reads PDN 3.0 game records, their legacy forms and the Manoury book style, replays
/// every game under the exact rules of its variant (international, English, Italian, pool,
/// Spanish, Russian, Brazilian, Canadian, Portuguese, Czech, Turkish, Thai, Frisian, and
/// lidraughts' Frysk!, antidraughts and breakthrough), flags every illegal move with the rule
/// it breaks, and writes corrected records, conversions and statistics. It reads whole
/// archives at once: many files, all cores, a progress bar.
#[derive(Debug, Parser)]
#[command(name = "pdn", version, about, propagate_version = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The options of a command that reads games.
    pub(crate) fn input(&self) -> Option<&InputArgs> {
        match &self.command {
            Command::Validate(a) => Some(&a.input),
            Command::Fix(a) => Some(&a.input),
            Command::Convert(a) => Some(&a.input),
            Command::Stats(a) => Some(&a.input),
            Command::Classify(a) => Some(&a.input),
            Command::Perft(_) | Command::Diagram(_) | Command::Completions(_) | Command::Man(_) => {
                None
            }
        }
    }

    /// When to colour the messages: `--color` of a command that reads games, else `auto`.
    pub(crate) fn color(&self) -> ColorArg {
        match &self.command {
            Command::Diagram(a) => a.run.color,
            _ => self.input().map_or(ColorArg::Auto, |i| i.run.color),
        }
    }

    /// The threads the command will read games with (1 for the commands that read none).
    pub(crate) fn threads(&self) -> usize {
        match &self.command {
            Command::Validate(a) => a.input.run.jobs(),
            Command::Fix(a) => a.input.run.jobs(),
            Command::Convert(a) => a.input.run.jobs(),
            Command::Stats(a) => a.input.run.jobs(),
            Command::Classify(a) => a.input.run.jobs(),
            Command::Perft(_) | Command::Diagram(_) | Command::Completions(_) | Command::Man(_) => {
                1
            }
        }
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Replay every game and report every illegal move, with the rule it breaks.
    ///
    /// Every game is replayed (main line, variations from their own branch position,
    /// book-style replies, setups) under the rules of its variant: the GameType tag,
    /// --variant, or inferred from the record. Each finding is reported like a compiler's,
    /// with its location (file:line:column), its code and severity, the source line with the
    /// move marked, the rule and its article, the legal moves and the board. An illegal move
    /// is explained by the rule whose relaxation would make it legal; after it the replay goes
    /// on with the move as played when the board allows it, so one slip does not hide the
    /// rest.
    Validate(ValidateArgs),
    /// Write corrected PDN 3.0: canonical notation, move numbers, results and tags mended.
    ///
    /// Every game is written again, one for one and in order (games in = games out): moves in
    /// canonical notation, renumbered, GameType added when the variant was inferred, a Result
    /// tag that agrees with the final position, dates mended where they can mean only one
    /// date. Comments, NAGs, variations and unknown tags are kept. With --repair, an illegal
    /// move is corrected when exactly one probable correction lets the rest of the game
    /// replay legally.
    Fix(FixArgs),
    /// Convert games to strict PDN, JSON, CSV or the Manoury book style.
    ///
    /// Every game is replayed once and written in another form, in input order: strict PDN
    /// 3.0 (reading it back gives the same games), one JSON object per game, CSV with one row
    /// per game or per ply (FEN before and after, captures, promotions), or the French book
    /// style.
    Convert(ConvertArgs),
    /// Statistics over games: results, lengths, captures, openings, players, duplicates.
    ///
    /// Games and plies, results, variants, game length, captures, promotions, openings (by
    /// the opening tables, as classify names them, and the first 2, 4 and 6 plies, with
    /// results and score), players, events and findings by code,
    /// as aligned tables, one JSON object, or the CSV table that --by asks for; with
    /// --duplicates, the games that repeat another, with the reason.
    #[command(after_help = STATS_NOTES)]
    Stats(StatsArgs),
    /// Name each game's opening and ballot by the opening tables (shipped, or your own).
    ///
    /// Each game is replayed as validate replays it, and looked up, position after position,
    /// in the tables of its variant: its opening is the deepest named entry whose position it
    /// reaches, its ballot the deepest numbered one (for English checkers the ACF three-move
    /// ballot, else the two-move one; an 11-man ballot or an IDF-64 draw for a game played
    /// from one). Positions are compared, not move strings: transpositions classify alike. A
    /// game from a setup position is classified only where a table starts; a replay that
    /// fails is classified up to the failure. One line per game (text), JSON Lines or CSV.
    #[command(after_help = TABLE_NOTES)]
    Classify(ClassifyArgs),
    /// Draw a position as a book diagram (SVG or PNG): from a FEN, or a ply of a game.
    ///
    /// The board is drawn as the rule books of its variant print it: orientation and
    /// numbering from the GameType (White at the bottom; Black, who moves first, at the top
    /// of the English board), boards with a light corner as such, algebraic boards with
    /// their files and ranks. Men and crowned kings differ in shape, the move to the position
    /// is an arrow through its stopping squares, the pieces it took are outlined, a caption
    /// says the move or the side to play. SVG, or PNG rendered by pdn itself.
    Diagram(DiagramArgs),
    /// Count the leaf nodes of the legal-move tree (move-generator check and benchmark).
    ///
    /// Draw rules are ignored; a position without moves counts nothing. Two capture routes
    /// with the same start, destination and captured pieces are one move (FMJD), unless
    /// --counting says otherwise.
    Perft(PerftArgs),
    /// Print a shell completion script.
    ///
    /// The script completes the commands, the options and every closed set of values
    /// (variants, formats, severities, codes, shells).
    Completions(CompletionsArgs),
    /// Print a man page (roff), or write them all into a directory.
    ///
    /// Without COMMAND, the page of the program, pdn(1); with it, the command's,
    /// pdn-COMMAND(1). With --out-dir, every page, as pdn.1, pdn-validate.1, and so on.
    Man(ManArgs),
}

/// Options shared by the commands that read games.
#[derive(Debug, Args)]
pub(crate) struct InputArgs {
    /// Files, directories (searched recursively for *.pdn, any case, and *.pdn.gz) or `-`
    /// for standard input; none means standard input.
    #[arg(value_name = "PATH")]
    pub paths: Vec<std::path::PathBuf>,
    /// The variant of every game, overriding GameType and inference (a name, an alias or a
    /// GameType number).
    #[arg(long, value_name = "V", value_parser = VariantParser)]
    pub variant: Option<pdn::rules::Variant>,
    #[command(flatten)]
    pub run: RunArgs,
}

/// How a command that reads games runs (DESIGN.md: every such command takes them).
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// Worker threads (default and most: the number of cores).
    #[arg(long, short = 'j', value_name = "N")]
    pub jobs: Option<usize>,
    /// Only errors on standard error: no progress bar, notes or summary lines.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// No progress bar (the messages stay).
    #[arg(long)]
    pub no_progress: bool,
    /// When to colour the output (severities, codes, carets, as cargo does).
    #[arg(long, value_name = "WHEN", value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
}

/// When to colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorArg {
    /// On a terminal, unless NO_COLOR is set (CLICOLOR_FORCE forces colour).
    Auto,
    /// Always, even into a pipe or a file.
    Always,
    /// Never.
    Never,
}

/// The number of cores (1 if it cannot be known).
pub(super) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl RunArgs {
    /// The worker threads: `--jobs`, or the number of cores; never more than the cores.
    pub(crate) fn jobs(&self) -> usize {
        self.jobs.unwrap_or(usize::MAX).clamp(1, cores())
    }

    /// What to say when `--jobs` asked for more threads than there are cores.
    pub(crate) fn jobs_note(&self) -> Option<String> {
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
pub(crate) struct ValidateArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Human)]
    pub format: FormatArg,
    /// Write the report here instead of standard output (written whole or not at all).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: Option<std::path::PathBuf>,
    /// The least severity shown (default: warning for human and short, info for JSON).
    /// Hidden findings are still counted, and errors set the exit status.
    #[arg(long, value_name = "SEVERITY", value_enum)]
    pub min_severity: Option<SeverityArg>,
    /// Silence a code (or every warning: `warnings`): not shown, not counted. Repeat it, or
    /// give a comma-separated list.
    #[arg(long, value_name = "CODE", value_enum, value_delimiter = ',')]
    pub allow: Vec<CodeArg>,
    /// Make a code (or every warning: `warnings`) an error: shown and counted as one, and the
    /// exit status follows. A code named beats `warnings`.
    #[arg(long, value_name = "CODE", value_enum, value_delimiter = ',')]
    pub deny: Vec<CodeArg>,
    /// Show at most N findings in all (the rest are counted in the summary).
    #[arg(long, value_name = "N")]
    pub max_diagnostics: Option<u64>,
}

/// A severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SeverityArg {
    /// Errors only.
    Error,
    /// Warnings and errors.
    Warning,
    /// Everything: also the `tolerated` notes.
    Info,
}

impl SeverityArg {
    pub(crate) fn severity(self) -> Severity {
        match self {
            SeverityArg::Error => Severity::Error,
            SeverityArg::Warning => Severity::Warning,
            SeverityArg::Info => Severity::Info,
        }
    }
}

/// A diagnostic code of DESIGN.md, or `warnings` (every warning code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CodeArg {
    Code(Code),
    Warnings,
}

/// Every value of [`CodeArg`]: the codes in DESIGN.md's order, then `warnings`.
const CODE_ARGS: [CodeArg; Code::ALL.len() + 1] = {
    let mut a = [CodeArg::Warnings; Code::ALL.len() + 1];
    let mut i = 0;
    while i < Code::ALL.len() {
        a[i] = CodeArg::Code(Code::ALL[i]);
        i += 1;
    }
    a
};

impl ValueEnum for CodeArg {
    fn value_variants<'a>() -> &'a [Self] {
        &CODE_ARGS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            CodeArg::Code(c) => PossibleValue::new(c.as_str()).help(code_help(*c)),
            CodeArg::Warnings => PossibleValue::new("warnings").help("every warning code"),
        })
    }
}

/// What a code means, in a few words (DESIGN.md's table).
pub(super) fn code_help(c: Code) -> &'static str {
    match c {
        Code::SyntaxError => "error: malformed PDN",
        Code::BadFen => "error: malformed or impossible FEN",
        Code::UnknownVariant => "error: no variant fits the game",
        Code::IllegalMove => "error: no legal move matches",
        Code::MissedCapture => "error: a move while a capture was compulsory",
        Code::NonMaximalCapture => "error: a capture smaller than the majority rule demands",
        Code::UnfinishedCapture => "error: a capture stopped early",
        Code::PrematurePromotion => "error: legal only if a man had been crowned",
        Code::AmbiguousMove => "error: the notation fits moves taking different pieces",
        Code::WrongSide => "error: a piece of the side not to move",
        Code::MovesAfterEnd => "error: moves after the game ended",
        Code::ResultMismatch => "error: Result tag, terminator and position disagree",
        Code::DrawRule => "warning: play went on after a draw by rule",
        Code::MoveNumber => "warning: move numbers out of sequence",
        Code::BadTag => "warning: a tag value that breaks its format",
        Code::Tolerated => "info: a non-standard construct read anyway",
    }
}

#[derive(Debug, Args)]
pub(crate) struct ManArgs {
    /// The command whose page to print (default: the program's, `pdn(1)`).
    #[arg(value_name = "COMMAND", value_parser = man_pages())]
    pub command: Option<String>,
    /// Write every page (pdn.1, pdn-validate.1, …) into DIR instead, creating it.
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub out_dir: Option<std::path::PathBuf>,
}

/// The opening tables of a command that classifies games.
#[derive(Debug, Args)]
pub(crate) struct TableArgs {
    /// An opening table of your own, before the shipped ones: TSV (name<TAB>moves or
    /// name<TAB>FEN, with a `# variant: NAME` line) or PDN games whose Opening tag names them.
    /// Repeat it for several; each is checked first.
    #[arg(long = "table", value_name = "FILE")]
    pub tables: Vec<std::path::PathBuf>,
    /// Only the --table files, not the shipped tables.
    #[arg(long)]
    pub tables_only: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ClassifyArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub tables: TableArgs,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = ClassifyFormat::Text)]
    pub format: ClassifyFormat,
    /// Write here instead of standard output (written whole or not at all).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: Option<std::path::PathBuf>,
    /// List the tables (the shipped ones and the --table files, each checked) and read no
    /// game.
    #[arg(long, conflicts_with = "show_table")]
    pub list_tables: bool,
    /// Print a shipped table (its data file, a start for a table of your own) and read no
    /// game.
    #[arg(long, value_name = "NAME", value_parser = super::values::shipped_tables())]
    pub show_table: Option<String>,
}

/// Output format of `classify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ClassifyFormat {
    /// One line per game, then the openings found, most played first.
    Text,
    /// JSON Lines: one `game` record per game, a final `summary`.
    Json,
    /// One row per game.
    Csv,
}

/// How tables are written and read (after the `--help` of the commands that classify).
pub(super) const TABLE_NOTES: &str = "\
Opening tables:
  A TSV table has one opening a line: name<TAB>moves (PDN moves from the start: 11-15 23-19 8-11)
  or name<TAB>FEN (the position itself); a `# variant: NAME` line says its variant and other `#`
  lines are comments. A first line naming the columns (ballot, name, moves or fen, barred) adds
  ballot numbers and barred marks. A PDN table is games whose Opening tag names them (a Ballot tag
  numbers them); their GameType, FEN and moves are read as validate reads a game.
  Every table is checked before any game is read: every line legal from its start, every position
  distinct, no name or ballot number twice. Your tables come before the shipped ones (where both
  name one position, yours is taken); --tables-only leaves the shipped ones out.
  `pdn classify --list-tables` lists the tables, `--show-table NAME` prints a shipped one.";

#[derive(Debug, Args)]
pub(crate) struct FixArgs {
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
    /// Write each game's opening (and, for the 8x8 ballots, its ballot) in Opening and
    /// Ballot tags, as `pdn classify` finds them in the game as read (audited).
    #[arg(long)]
    pub classify: bool,
    #[command(flatten)]
    pub tables: TableArgs,
}

#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
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
    /// Write each game's opening (and, for the 8x8 ballots, its ballot) in Opening and
    /// Ballot tags, as `pdn classify` finds them.
    #[arg(long)]
    pub classify: bool,
    #[command(flatten)]
    pub tables: TableArgs,
}

/// Target of `convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ConvertTo {
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
pub(crate) enum NotationArg {
    /// Numbers.
    Numeric,
    /// Algebraic coordinates (`c3-d4`).
    Algebraic,
}

/// What the numbers of `pdn stats` mean (after its `--help`).
pub(super) const STATS_NOTES: &str = "\
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
pub(crate) struct StatsArgs {
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
    #[command(flatten)]
    pub tables: TableArgs,
}

/// Output format of `stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum StatsFormat {
    /// Aligned tables.
    Text,
    /// One JSON object.
    Json,
    /// The `--by` table as CSV.
    Csv,
}

/// Grouping of `stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum StatsBy {
    /// Per player, one table per variant (points on its scale).
    Player,
    /// Per opening, by the opening tables (name and ballot), as `pdn classify` finds them.
    Opening,
    /// Per first moves (the first 2, 4 and 6 plies).
    Moves,
    /// Per event.
    Event,
}

#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Output format of `validate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum FormatArg {
    /// Like a compiler: location, message, the source line with the move marked, the rule,
    /// the legal moves and the board.
    Human,
    /// One line per diagnostic.
    Short,
    /// JSON Lines: diagnostics, one `game` record per game, a final `summary`.
    Json,
    /// One self-contained HTML page: summary, games, findings on boards, a replay viewer.
    Html,
}

#[derive(Debug, Args)]
pub(crate) struct DiagramArgs {
    /// A PDN file (`-`: standard input) to take the position from (with --game, --ply).
    #[arg(value_name = "PATH", conflicts_with = "fen")]
    pub path: Option<std::path::PathBuf>,
    /// The position, as a PDN FEN in the variant's numbering (needs --variant).
    #[arg(long, requires = "variant")]
    pub fen: Option<String>,
    /// The variant: a name, an alias or a GameType number (with --fen; with PATH it
    /// overrides GameType and inference).
    #[arg(long, value_name = "V", value_parser = VariantParser)]
    pub variant: Option<pdn::rules::Variant>,
    /// With PATH: the game, 1-based within the file.
    #[arg(long, value_name = "N", default_value_t = 1, conflicts_with = "fen")]
    pub game: usize,
    /// With PATH: the position after K plies of the main line, the K-th move drawn (0: the
    /// start position; default: the end of the main line).
    #[arg(long, value_name = "K", conflicts_with = "fen")]
    pub ply: Option<u32>,
    /// Picture format (default: from the extension of -o, else SVG).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<DiagramFormat>,
    /// Write here instead of standard output (written whole or not at all).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: Option<std::path::PathBuf>,
    /// Write the square numbers (or names) on the playing squares.
    #[arg(long)]
    pub numbers: bool,
    /// Turn the board round (Black at the bottom).
    #[arg(long)]
    pub flip: bool,
    /// Width of the picture in pixels.
    #[arg(long, value_name = "PIXELS", default_value_t = pdn::app::picture::DEFAULT_SIZE)]
    pub size: u32,
    /// The line under the board (default: the move drawn, or the side to play; "" for none).
    #[arg(long, value_name = "TEXT")]
    pub caption: Option<String>,
    // (One game is read, on one thread, with no progress bar; the error is coloured as
    // `--color` says.)
    #[command(flatten)]
    pub run: RunArgs,
}

/// Picture format of `diagram`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum DiagramFormat {
    /// Scalable vector graphics.
    Svg,
    /// PNG image.
    Png,
}

#[derive(Debug, Args)]
pub(crate) struct PerftArgs {
    /// The variant (a name, an alias or a GameType number).
    #[arg(long, value_name = "V", value_parser = VariantParser)]
    pub variant: pdn::rules::Variant,
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
pub(crate) enum CountingArg {
    /// One move per start, destination and captured set (FMJD; the standard tables).
    Drop,
    /// Every capture route (dctl's "keep duplicates").
    Keep,
    /// Every route and every landing square a king flies straight on from (kish).
    Landings,
}
