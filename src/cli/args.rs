//! Every clap type of the command line: the subcommands, their arguments and value enums.
//! Every closed set of values (variants, formats, severities, codes, shells, colours, man
//! pages) is a clap value enum or has a value parser that lists its values, so that `--help`,
//! the man pages and the shell completions offer them.

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};
use pdn::app::judge::diagnostic::{Code, Severity};

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
            Command::Search(a) => Some(&a.input),
            Command::Explore(a) => Some(&a.input),
            Command::Index(a) => Some(&a.input),
            Command::Classify(a) => Some(&a.input),
            Command::Merge(a) => Some(&a.input),
            Command::Names(a) => Some(&a.input),
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
            Command::Search(a) => a.input.run.jobs(),
            Command::Explore(a) => a.input.run.jobs(),
            Command::Index(a) => a.input.run.jobs(),
            Command::Classify(a) => a.input.run.jobs(),
            Command::Merge(a) => a.input.run.jobs(),
            Command::Names(a) => a.input.run.jobs(),
            Command::Perft(_) | Command::Diagram(_) | Command::Completions(_) | Command::Man(_) => {
                1
            }
        }
    }
}

impl Cli {
    /// `-o -` is standard output, as `-` is standard input: the output options given as `-`
    /// become "no file". An option that only names a file to write (`merge -o`, `--audit`,
    /// `--out-dir`, `index -o`) refuses `-` rather than create a file of that name (`./-`
    /// names one).
    pub(crate) fn dash_is_standard_output(&mut self) -> Result<(), clap::Error> {
        fn to_stdout(o: &mut Option<std::path::PathBuf>) {
            if o.as_deref().is_some_and(is_dash) {
                *o = None;
            }
        }
        fn file_only(option: &str, o: Option<&std::path::Path>) -> Result<(), clap::Error> {
            if o.is_some_and(is_dash) {
                use clap::CommandFactory;
                return Err(Cli::command().error(
                    clap::error::ErrorKind::ValueValidation,
                    format!(
                        "{option} names a file to write, and `-` (standard output) is none: \
                         name a file (`./-` for a file called `-`)"
                    ),
                ));
            }
            Ok(())
        }
        fn is_dash(p: &std::path::Path) -> bool {
            p.as_os_str() == "-"
        }
        match &mut self.command {
            Command::Validate(a) => to_stdout(&mut a.output),
            Command::Classify(a) => to_stdout(&mut a.output),
            Command::Names(a) => to_stdout(&mut a.output),
            Command::Fix(a) => {
                to_stdout(&mut a.output);
                file_only("--audit", a.audit.as_deref())?;
                file_only("--out-dir", a.out_dir.as_deref())?;
            }
            Command::Convert(a) => {
                to_stdout(&mut a.output);
                file_only("--out-dir", a.out_dir.as_deref())?;
            }
            Command::Stats(a) => to_stdout(&mut a.output),
            Command::Diagram(a) => to_stdout(&mut a.output),
            Command::Search(a) => to_stdout(&mut a.output),
            Command::Explore(a) => to_stdout(&mut a.output),
            Command::Merge(a) => {
                file_only("-o/--output", Some(&a.output))?;
                file_only("--audit", Some(&a.audit))?;
            }
            Command::Index(a) => file_only("-o/--output", Some(&a.output))?,
            Command::Man(a) => file_only("--out-dir", a.out_dir.as_deref())?,
            Command::Perft(_) | Command::Completions(_) => {}
        }
        Ok(())
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
    /// Find the games that reach a position, a pattern or material, or play a manoeuvre.
    ///
    /// Every game is replayed as validate replays it and every position it reaches is
    /// compared with the query (positions, not move strings: transpositions are found). The
    /// parts of a query all hold at once: an exact position (--position), pieces that stand
    /// or do not (--pieces, --not, --empty), material (--material), the side to move, the
    /// opening moves (--moves), and a manoeuvre played from the position (--piece, --from,
    /// --to, --captures, --promotion, --sacrifice); --mirror also finds the colour-reversed
    /// query. A game is searched only as far as it replays without an error: after an
    /// illegal or ambiguous move the positions may not be the game's, and its matches say
    /// so. With --index the answer comes from an index written by pdn index.
    Search(SearchArgs),
    /// The moves played from a position, their games, results and score: an opening tree
    ///
    /// From the variant's start position, a FEN or the position after some moves, one line
    /// per move played next in the archive's main lines: the games that reach the position
    /// after it (by any order of moves: transpositions are counted together), White's wins,
    /// draws, Black's wins, unknown results, the score of the side that plays it on the
    /// variant's scale, the first and last year. As text, JSON Lines, or one HTML page with
    /// the board and the move table, each move a link to the next position.
    Explore(ExploreArgs),
    /// Write an index of every main-line position with the games that reach it.
    ///
    /// search --index and explore --index then answer from the index without reading the
    /// archive: an exact position in a few milliseconds among 10^8 positions; patterns,
    /// material and manoeuvres by scanning the positions it stores. Positions are indexed as
    /// search finds them: up to the first error of a game's main line.
    Index(IndexArgs),
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
    /// Join archives: one game kept per set of copies, merged, every decision in an audit.
    ///
    /// Copies are the same moves from the same start (compared by replay, in canonical
    /// notation: the notation, move numbers, comments and tags do not matter), and agreeing
    /// facts: players (order, accents, initials, transliteration), FMJD ids, date, round,
    /// event, result. The kept game (the first copy) takes the union of the copies' tags with
    /// the best value of each (full names over initials, a full date over a year, a known
    /// result over *, the longer event) and every comment, NAG and variation they add. Games
    /// with the same moves that the facts tell apart (a miniature played twice, other
    /// players, other dates), games with the colours reversed and games contained in a
    /// longer one are reported in the audit, not merged. Running it again on its output
    /// changes nothing.
    #[command(after_help = MERGE_NOTES)]
    Merge(MergeArgs),
    /// Player-name aliases: clusters of the names of one player, with the evidence.
    ///
    /// Names are compared up to the order "Surname, First" / "First Surname", case, accents,
    /// initials (M. Callegari joins Mickael Callegari only when no other Callegari fits),
    /// and transliteration (Latin and Cyrillic letters, the spellings of several systems:
    /// Шварцман, Schwarzman, Shvartsman, Chvartsman). Two different FMJD ids (WhiteFmjdId,
    /// BlackFmjdId) are never joined. The text output is a names table (alias<TAB>name): check
    /// it, then rewrite the games with --apply, or give it to merge --names.
    Names(NamesArgs),
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

/// How a command that reads games runs (every such command takes them).
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// Worker threads, at least 1 (default and most: the number of cores).
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: Option<u64>,
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

/// True if `PDN_JOBS_UNCAPPED` is set (not empty): `--jobs N` runs N threads even beyond
/// the number of cores. For tests of the pipeline on small machines (the output must not
/// depend on the number of threads); not for users, and not documented as such.
fn uncapped() -> bool {
    std::env::var_os("PDN_JOBS_UNCAPPED").is_some_and(|v| !v.is_empty())
}

impl RunArgs {
    /// The worker threads: `--jobs`, or the number of cores; never more than the cores
    /// (unless `PDN_JOBS_UNCAPPED`).
    pub(crate) fn jobs(&self) -> usize {
        match self.jobs {
            Some(n) if uncapped() => usize::try_from(n).unwrap_or(usize::MAX).max(1),
            _ => self
                .jobs
                .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX))
                .clamp(1, cores()),
        }
    }

    /// What to say when `--jobs` asked for more threads than there are cores.
    pub(crate) fn jobs_note(&self) -> Option<String> {
        let cores = cores();
        match self.jobs {
            Some(n) if n > cores as u64 && uncapped() => Some(format!(
                "--jobs {n}: {n} threads on {cores} core{} (PDN_JOBS_UNCAPPED)",
                if cores == 1 { "" } else { "s" },
            )),
            Some(n) if n > cores as u64 => Some(format!(
                "--jobs {n}: this machine has {cores} core{}, using {cores} thread{}",
                if cores == 1 { "" } else { "s" },
                if cores == 1 { "" } else { "s" },
            )),
            _ => None,
        }
    }
}

/// Which lines of the games a command looks at: for every command that replays games and
/// may leave variations out (`validate`, `fix`, `stats`; flatten it into another).
#[derive(Clone, Copy, Debug, Args)]
pub(crate) struct LineArgs {
    /// Leave variations out: they are not replayed, and nothing found in them (syntax errors
    /// and notes included) is reported or counted. Book-style replies (`1. 32-28 (19-23)`)
    /// are part of the main line. `fix` writes the games without their variations.
    #[arg(long)]
    pub main_line: bool,
}

#[derive(Debug, Args)]
pub(crate) struct ValidateArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub lines: LineArgs,
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
    /// Draw the position before the move under every finding (human format; by default
    /// under the first 3 only).
    #[arg(long)]
    pub boards: bool,
}

/// A severity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SeverityArg {
    /// Errors only.
    Error,
    /// Warnings and errors.
    Warning,
    /// Everything: also the infos (what was tolerated, code `tolerated` and others).
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

/// A diagnostic code of docs/formats.md, or `warnings` (every warning code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CodeArg {
    Code(Code),
    Warnings,
}

/// Every value of [`CodeArg`]: the codes in docs/formats.md's order, then `warnings`.
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

/// What a code means, in a few words (docs/formats.md's table).
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

#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// The merged games, as strict PDN (written whole or not at all; not an input).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: std::path::PathBuf,
    /// Every decision, as JSON Lines: each set kept, each copy dropped (with its score and
    /// evidence), each game reported (colours reversed, contained, another game), a summary.
    #[arg(long, value_name = "FILE")]
    pub audit: std::path::PathBuf,
    /// Also join copies that differ by a slip that fix --repair corrects (the corrected game
    /// is written).
    #[arg(long)]
    pub fuzzy: bool,
    /// Rewrite the players' names by this names table (alias<TAB>name, as pdn names writes
    /// it) before comparing and writing.
    #[arg(long, value_name = "TABLE")]
    pub names: Option<std::path::PathBuf>,
}

#[derive(Debug, Args)]
pub(crate) struct NamesArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = NamesFormat::Text)]
    pub format: NamesFormat,
    /// Write here instead of standard output (written whole or not at all).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: Option<std::path::PathBuf>,
    /// Write the games again (strict PDN) with the players' names rewritten by this names
    /// table (alias<TAB>name), instead of the clusters.
    #[arg(long, value_name = "TABLE", conflicts_with = "format")]
    pub apply: Option<std::path::PathBuf>,
}

/// Output format of `names`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum NamesFormat {
    /// A names table (alias<TAB>name), the evidence in comments: edit it, then --apply it.
    Text,
    /// JSON Lines: one `cluster` record per cluster, a final `summary`.
    Json,
    /// One row per alias.
    Csv,
}

/// How merge decides (after its `--help`).
pub(super) const MERGE_NOTES: &str = "\
Decisions:
  Games are copies when their main lines replay to the same moves from the same start (checked
  move for move, never by a hash alone) and their facts agree: points for the length of the game,
  the same players, the same date, round and event; points against other players, other dates or
  rounds, other results. A short game needs facts to be merged; two FMJD ids never are. The
  audit gives each dropped copy its score (0.5 = undecided) and the evidence, and each game
  reported: colours-reversed, contained (all its moves begin a longer game), different-game
  (the same moves, another game by its facts). Games in = games written + games dropped.";

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
    #[command(flatten)]
    pub lines: LineArgs,
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
    /// How each game ends: `strict` (PDN 3.0: the result in the Result tag, the movetext
    /// ending with `*`) or `terminator` (the movetext also ends with the result, as PDN 2.0
    /// and CheckerBoard write it).
    #[arg(long, value_name = "STYLE", value_enum, default_value_t = ResultStyleArg::Strict)]
    pub result_style: ResultStyleArg,
    /// How dates with two small numbers are read (`09.07.2007`): day first, month first, or
    /// none but the year-first dates of PDN. By default each file's unambiguous dates
    /// (`13.07.2007`) decide for all its dates (standard input, read once, only with this).
    #[arg(long, value_name = "ORDER", value_enum)]
    pub date_order: Option<DateOrderArg>,
}

/// The order of day and month in dates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum DateOrderArg {
    /// Day, month, year (`13.07.2007`).
    Dmy,
    /// Month, day, year (`7/13/2007`).
    Mdy,
    /// Year, month, day (PDN): other dates only where they can mean one date.
    Ymd,
}

impl DateOrderArg {
    pub(crate) fn order(self) -> pdn::app::fix::DateOrder {
        use pdn::app::fix::DateOrder;
        match self {
            DateOrderArg::Dmy => DateOrder::Dmy,
            DateOrderArg::Mdy => DateOrder::Mdy,
            DateOrderArg::Ymd => DateOrder::Ymd,
        }
    }
}

/// How a PDN output ends each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ResultStyleArg {
    /// PDN 3.0: the result in the Result tag, the movetext ending with `*`.
    Strict,
    /// The movetext also ends with the result (PDN 2.0, CheckerBoard).
    Terminator,
}

impl ResultStyleArg {
    pub(crate) fn style(self) -> pdn::app::write::export::ResultStyle {
        match self {
            ResultStyleArg::Strict => pdn::app::write::export::ResultStyle::Strict,
            ResultStyleArg::Terminator => pdn::app::write::export::ResultStyle::Terminator,
        }
    }
}

#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Target format.
    #[arg(long, value_enum)]
    pub to: ConvertTo,
    /// CSV, Parquet: one row per ply of the main line instead of one per game.
    #[arg(long)]
    pub plies: bool,
    /// Square names for 8x8 variants (default: the GameType's).
    #[arg(long, value_enum)]
    pub notation: Option<NotationArg>,
    /// With --to pdn: how each game ends, `strict` (PDN 3.0: the result in the Result tag,
    /// the movetext ending with `*`) or `terminator` (the movetext also ends with the result,
    /// as PDN 2.0 and CheckerBoard write it). Manoury output always ends with the result.
    #[arg(long, value_name = "STYLE", value_enum, default_value_t = ResultStyleArg::Strict)]
    pub result_style: ResultStyleArg,
    /// Write here instead of standard output (written whole or not at all).
    #[arg(long, short = 'o', value_name = "OUT", conflicts_with = "out_dir")]
    pub output: Option<std::path::PathBuf>,
    /// Write one file per input file into DIR, mirroring the inputs' paths below the PATH
    /// they were found under, named for the format: `.pdn`, `.jsonl`, `.csv` (`--plies`:
    /// `.plies.csv`), `.txt` (Manoury), `.parquet` (`--plies`: `.plies.parquet`).
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
    /// Parquet: one row per game (or per ply with --plies), the CSV's columns typed.
    #[cfg(feature = "parquet")]
    Parquet,
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
    #[command(flatten)]
    pub lines: LineArgs,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = StatsFormat::Text)]
    pub format: StatsFormat,
    /// Write the statistics here instead of standard output (written whole or not at all).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: Option<std::path::PathBuf>,
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

/// What `pdn search` asks (every part given must hold at once).
#[derive(Debug, Args)]
pub(crate) struct QueryArgs {
    /// The exact position: every piece, and the side to move the FEN names (`W:W31-50:B1-20`;
    /// side `?` or --any-side: either side).
    #[arg(long, value_name = "FEN", help_heading = "Query")]
    pub position: Option<String>,
    /// With --position, --pieces and --not: the side to move does not count.
    #[arg(long, help_heading = "Query")]
    pub any_side: bool,
    /// These pieces stand there, the rest of the board free (`W:W28,K30:B19`). Repeat to add.
    #[arg(long, value_name = "FEN", help_heading = "Query")]
    pub pieces: Vec<String>,
    /// None of these pieces stands there. Repeat to add.
    #[arg(long = "not", value_name = "FEN", help_heading = "Query")]
    pub not: Vec<String>,
    /// These squares are empty (`1-5,23`; algebraic names on algebraic boards).
    #[arg(long, value_name = "SQUARES", help_heading = "Query")]
    pub empty: Vec<String>,
    /// Counts of men and kings: KEY=COUNT terms, KEY one of wm, wk, bm, bk (white men, white
    /// kings, …), w, b (all pieces of a side); COUNT N, N-M or N+ (`wm=8-10,bk=0,w=12+`).
    #[arg(long, value_name = "SPEC", help_heading = "Query")]
    pub material: Option<String>,
    /// Games that begin with these moves (`"32-28 19-23"`, move numbers allowed).
    #[arg(long, value_name = "MOVES", help_heading = "Query")]
    pub moves: Option<String>,
    /// The side to move (for a manoeuvre: the side that moves).
    #[arg(long, value_enum, help_heading = "Query")]
    pub side: Option<SideArg>,
    /// Manoeuvre: the moving piece is a man or a king.
    #[arg(long, value_enum, help_heading = "Manoeuvre")]
    pub piece: Option<PieceArg>,
    /// Manoeuvre: the move starts on one of these squares (`27,28` or `31-35`).
    #[arg(long, value_name = "SQUARES", help_heading = "Manoeuvre")]
    pub from: Option<String>,
    /// Manoeuvre: the move ends on one of these squares.
    #[arg(long, value_name = "SQUARES", help_heading = "Manoeuvre")]
    pub to: Option<String>,
    /// Manoeuvre: the move captures N pieces (N, N-M or N+).
    #[arg(long, value_name = "N", help_heading = "Manoeuvre")]
    pub captures: Option<String>,
    /// Manoeuvre: the moving man is crowned.
    #[arg(long, help_heading = "Manoeuvre")]
    pub promotion: bool,
    /// Manoeuvre: a sacrifice, a move after which the opponent must capture.
    #[arg(long, help_heading = "Manoeuvre")]
    pub sacrifice: bool,
    /// Also the colour-reversed query: the board turned round, colours and side to move
    /// swapped (the opening moves are not turned).
    #[arg(long, help_heading = "Query")]
    pub mirror: bool,
}

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SideArg {
    /// White.
    White,
    /// Black.
    Black,
}

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PieceArg {
    /// A man.
    Man,
    /// A king.
    King,
}

#[derive(Debug, Args)]
pub(crate) struct SearchArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub query: QueryArgs,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = SearchFormat::Human)]
    pub format: SearchFormat,
    /// Write here instead of standard output (written whole or not at all).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: Option<std::path::PathBuf>,
    /// Look inside variations too (default: the main lines only).
    #[arg(long, conflicts_with = "main_line")]
    pub variations: bool,
    /// The main lines only (the default).
    #[arg(long)]
    pub main_line: bool,
    /// Every occurrence in a game, not only the first (of the query and of its mirror).
    #[arg(long)]
    pub all_occurrences: bool,
    /// Answer from this index (`pdn index`) instead of reading the games; PATHs are then
    /// only needed for --format pdn.
    #[arg(long, value_name = "FILE", conflicts_with = "variations")]
    pub index: Option<std::path::PathBuf>,
}

/// Output format of `search`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum SearchFormat {
    /// One line per match, then the summary.
    Human,
    /// JSON Lines: one `match` record per match, then a `summary`.
    Json,
    /// CSV: one row per match.
    Csv,
    /// The matching games whole, with a comment at each matching ply.
    Pdn,
}

#[derive(Debug, Args)]
pub(crate) struct ExploreArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// The position to explore from (default: the variant's start).
    #[arg(long, value_name = "FEN", conflicts_with = "moves")]
    pub position: Option<String>,
    /// Explore from the position after these moves (`"32-28 19-23"`).
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = ExploreFormat::Text)]
    pub format: ExploreFormat,
    /// Write here instead of standard output (written whole or not at all).
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: Option<std::path::PathBuf>,
    /// Answer from this index (`pdn index`) instead of reading the games.
    #[arg(long, value_name = "FILE")]
    pub index: Option<std::path::PathBuf>,
    /// Plies of the tree below the position (default: 1 for text and JSON, 6 for HTML).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// Go further only from moves played in at least N games (default: 1 for text and JSON,
    /// 2 for HTML).
    #[arg(long, value_name = "N")]
    pub min_games: Option<u64>,
}

/// Output format of `explore`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ExploreFormat {
    /// Aligned tables.
    Text,
    /// JSON Lines: the position, one `move` record per move.
    Json,
    /// One self-contained page: the board and the move table, each move a link to the next
    /// position.
    Html,
}

#[derive(Debug, Args)]
pub(crate) struct IndexArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// The index file to write (written whole or not at all).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: std::path::PathBuf,
    /// Index only the first N plies of each game.
    #[arg(long, value_name = "N")]
    pub max_ply: Option<u32>,
}
