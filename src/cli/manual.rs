//! The text of the man pages that clap does not hold: EXIT STATUS, ENVIRONMENT, EXAMPLES
//! and SEE ALSO for the program and each command (NAME, SYNOPSIS, DESCRIPTION and OPTIONS
//! come from the clap definitions, `src/cli/args.rs`).

/// A section of a page: a heading and its items (a term and its text; an empty term is a
/// plain paragraph).
pub(super) struct Section {
    pub heading: &'static str,
    pub items: &'static [(&'static str, &'static str)],
}

/// The statuses of the program, all commands together.
const STATUS_PROGRAM: Section = Section {
    heading: "EXIT STATUS",
    items: &[
        (
            "0",
            "Done; for validate and fix, no error left in the games.",
        ),
        (
            "1",
            "validate and fix: an error finding. Every command: an input that could not be read, an output that could not be written.",
        ),
        ("2", "Fatal: bad usage, or nothing at all could be read."),
        ("130", "Interrupted by Ctrl-C (128 + the signal)."),
    ],
};

/// The statuses of `validate` and `fix`.
const STATUS_CHECKS: Section = Section {
    heading: "EXIT STATUS",
    items: &[
        (
            "0",
            "No error left: every game read, none with an error finding (warnings and information allowed).",
        ),
        (
            "1",
            "An error finding (a code named by --deny counts as one), an input that could not be read (to its end), or an output that could not be written.",
        ),
        ("2", "Fatal: bad usage, or nothing at all could be read."),
        (
            "130",
            "Interrupted by Ctrl-C (128 + the signal; SIGTERM and SIGHUP likewise). No partial output file is left.",
        ),
        (
            "",
            "A closed output pipe ends the program quietly with status 0.",
        ),
    ],
};

/// The statuses of `convert` and `stats`.
const STATUS_DATA: Section = Section {
    heading: "EXIT STATUS",
    items: &[
        (
            "0",
            "Done. Findings in the records are reported in the output; they are not failures.",
        ),
        (
            "1",
            "An input that could not be read (to its end), or an output that could not be written.",
        ),
        ("2", "Fatal: bad usage, or nothing at all could be read."),
        (
            "130",
            "Interrupted by Ctrl-C (128 + the signal; SIGTERM and SIGHUP likewise). No partial output file is left.",
        ),
    ],
};

/// The statuses of the commands that read no games.
const STATUS_SIMPLE: Section = Section {
    heading: "EXIT STATUS",
    items: &[
        ("0", "Done."),
        ("1", "An output that could not be written."),
        ("2", "Fatal: bad usage."),
    ],
};

/// The environment of the commands that read games.
const ENVIRONMENT: Section = Section {
    heading: "ENVIRONMENT",
    items: &[
        (
            "NO_COLOR",
            "When set and not empty, no colour with --color auto (https://no-color.org).",
        ),
        (
            "CLICOLOR_FORCE",
            "When set and not 0, colour with --color auto even when the output is not a terminal.",
        ),
        ("CLICOLOR", "When 0, no colour with --color auto."),
        ("TERM", "When dumb, no colour with --color auto."),
    ],
};

/// The environment of the commands that read no games.
const ENVIRONMENT_NONE: Section = Section {
    heading: "ENVIRONMENT",
    items: &[(
        "",
        "No environment variable changes what this command does.",
    )],
};

/// Where the inputs come from, for every command that reads games.
const INPUTS: Section = Section {
    heading: "INPUTS",
    items: &[
        (
            "",
            "A PATH is a file, a directory (searched recursively for *.pdn in any case, and *.pdn.gz), or - for standard input, the default. Gzip-compressed input is read transparently, UTF-16 is recognised. Reading from a terminal, pdn says so on standard error; one Ctrl-D on a line of its own ends the input.",
        ),
        (
            "",
            "A file that cannot be read is reported and the others are read; one read in part keeps the games before the damage. Outputs (-o, --out-dir, --in-place, --audit) are written to a temporary file beside the target and renamed when complete: an interrupted run leaves no partial file. Nothing from the input reaches a terminal raw: control and bidirectional characters are shown escaped.",
        ),
        (
            "",
            "Standard error carries the progress bar (only on a terminal; --no-progress hides it), the notes and the errors; --quiet leaves only the errors.",
        ),
    ],
};

/// What `validate` finds and how it is shown.
const FINDINGS: Section = Section {
    heading: "FINDINGS",
    items: &[
        (
            "",
            "Each finding has a code and a severity: error, warning or info. Errors: syntax-error, bad-fen, unknown-variant, illegal-move, missed-capture, non-maximal-capture, unfinished-capture, premature-promotion, ambiguous-move, wrong-side, moves-after-end, result-mismatch. Warnings: draw-rule, move-number, bad-tag. Information: tolerated (a non-standard construct read anyway).",
        ),
        (
            "",
            "Within a game, findings come in source order. The human format shows errors and warnings (--min-severity info adds the infos: what was tolerated), JSON shows everything. In the human format a finding repeated in a file is written once, its other places listed at the end of the file with their count, and the position before the move is drawn under the first 3 findings (--boards: under every one). Hidden findings are still counted: the closing lines give the count per code shown and the summary, with what was not shown. --allow silences a code (not shown, not counted), --deny makes it an error (and the exit status follows).",
        ),
        (
            "",
            "When standard output is not a terminal and standard error is, the summary line is also written to standard error.",
        ),
    ],
};

/// What the numbers of `stats` mean.
const NUMBERS: Section = Section {
    heading: "WHAT THE NUMBERS MEAN",
    items: &[("", super::args::STATS_NOTES)],
};

/// A page's own sections, after OPTIONS.
pub(super) struct Page {
    pub sections: &'static [Section],
    pub examples: &'static [(&'static str, &'static str)],
}

/// The page of `pdn` itself or of a command (`None`: the program).
pub(super) fn page(command: Option<&str>) -> &'static Page {
    match command {
        None => &PROGRAM,
        Some("validate") => &VALIDATE,
        Some("fix") => &FIX,
        Some("convert") => &CONVERT,
        Some("stats") => &STATS,
        Some("search") => &SEARCH,
        Some("explore") => &EXPLORE,
        Some("index") => &INDEX,
        Some("classify") => &CLASSIFY,
        Some("merge") => &MERGE,
        Some("names") => &NAMES,
        Some("diagram") => &DIAGRAM,
        Some("perft") => &PERFT,
        Some("completions") => &COMPLETIONS,
        Some(_) => &MAN,
    }
}

/// The page of `pdn` itself.
const PROGRAM: Page = Page {
    sections: &[INPUTS, STATUS_PROGRAM, ENVIRONMENT],
    examples: &[
        (
            "pdn validate archive/",
            "Replay every game of a directory and report every illegal move.",
        ),
        (
            "pdn validate games.pdn --min-severity error",
            "Only the errors.",
        ),
        (
            "pdn fix archive/ --out-dir clean/ --repair --audit changes.jsonl",
            "Write corrected copies, with every change logged.",
        ),
        (
            "pdn convert archive/ --to csv --plies -o plies.csv",
            "One CSV row per ply, for DuckDB or pandas.",
        ),
        (
            "pdn stats archive/ --by player",
            "Results, lengths, captures, openings and a table per player.",
        ),
        (
            "pdn man --out-dir ~/.cargo/share/man/man1",
            "Install every man page where man(1) finds them next to ~/.cargo/bin.",
        ),
    ],
};

/// The page of `validate`.
const VALIDATE: Page = Page {
    sections: &[FINDINGS, INPUTS, STATUS_CHECKS, ENVIRONMENT],
    examples: &[
        (
            "pdn validate archive/",
            "Errors and warnings, with the source line, the rule, the legal moves and the board.",
        ),
        ("pdn validate archive/ --min-severity error", "Errors only."),
        (
            "pdn validate archive/ --min-severity info --max-diagnostics 50",
            "Everything, the first 50 findings; the rest counted.",
        ),
        (
            "pdn validate archive/ --deny draw-rule --allow bad-tag",
            "Play after a draw by rule fails the run; tag formats are not checked.",
        ),
        (
            "pdn validate archive/ --deny warnings -f short",
            "One line per finding, every warning an error (as clippy's -D warnings).",
        ),
        (
            "pdn validate archive/ -f json | jq -c 'select(.type == \"diagnostic\")'",
            "The findings as JSON Lines; the last line is the summary with a count per code.",
        ),
        (
            "pdn validate games.pdn --variant russian",
            "Every game as Russian draughts, whatever its GameType.",
        ),
        (
            "pdn validate archive/ -f html -o report.html",
            "One self-contained page: the summary, every game with its findings on their boards, a replay viewer.",
        ),
    ],
};

/// The page of `fix`.
const FIX: Page = Page {
    sections: &[INPUTS, STATUS_CHECKS, ENVIRONMENT],
    examples: &[
        (
            "pdn fix games.pdn -o clean.pdn",
            "Strict PDN 3.0: canonical notation, move numbers, results and tags mended.",
        ),
        (
            "pdn fix archive/ -o clean.pdn --repair --audit changes.jsonl",
            "Also restore the moves most probably played, every change logged.",
        ),
        (
            "pdn fix archive/ --out-dir clean/",
            "One file per input file, at the same path below clean/.",
        ),
        (
            "pdn fix archive/ --in-place --backup .orig",
            "Replace each input, keeping the original as FILE.orig.",
        ),
    ],
};

/// The page of `convert`.
const CONVERT: Page = Page {
    sections: &[INPUTS, STATUS_DATA, ENVIRONMENT],
    examples: &[
        (
            "pdn convert games.pdn --to json -o games.jsonl",
            "One JSON object per game per line.",
        ),
        (
            "pdn convert archive/ --to csv --plies -o plies.csv",
            "One row per ply of the main line, with FEN before and after.",
        ),
        (
            "pdn convert archive/ --to parquet --plies -o plies.parquet",
            "The same rows as Parquet, typed, for DuckDB, polars, Spark or Dask.",
        ),
        (
            "pdn convert games.pdn --to manoury",
            "The French book style: 1. 32-28 (19-23).",
        ),
        (
            "pdn convert games.pdn --to pdn --notation algebraic",
            "8x8 games with algebraic squares.",
        ),
    ],
};

/// The page of `stats`.
const STATS: Page = Page {
    sections: &[NUMBERS, INPUTS, STATUS_DATA, ENVIRONMENT],
    examples: &[
        (
            "pdn stats archive/",
            "Results, variants, lengths, captures, promotions, openings, players, events, findings by code.",
        ),
        (
            "pdn stats archive/ --by player",
            "Also a table per player, one per variant.",
        ),
        (
            "pdn stats archive/ --format csv --by opening > openings.csv",
            "The openings by name and ballot (as pdn classify finds them) as CSV; --by moves for the first plies.",
        ),
        (
            "pdn stats archive/ --format csv --duplicates --fuzzy 20",
            "Games repeated, with the reason, and those alike for their first 20 plies.",
        ),
    ],
};

/// How opening tables are written and checked.
const TABLES: Section = Section {
    heading: "OPENING TABLES",
    items: &[
        (
            "",
            "The shipped tables (pdn classify --list-tables): the ACF three-move ballots (174: the 156 of the deck and the 18 barred ones), the two-move ballots, CheckerBoard's 2,400 11-man ballot positions and the named openings of English checkers; the 11-man positions of Italian draughts; the IDF-64 table of draw of Russian and Brazilian draughts; named openings of international draughts. Each names its sources in its header (pdn classify --show-table NAME prints it).",
        ),
        ("", super::args::TABLE_NOTES),
        (
            "",
            "A game's opening is the deepest named entry whose position it reaches, its ballot the deepest numbered one; ply says where. Positions are compared, so transpositions classify alike. A game played from a setup position is classified only where a table starts (an 11-man ballot, an IDF-64 draw, a FEN of your table); a replay that fails is classified up to the failure.",
        ),
    ],
};

/// The page of `classify`.
const CLASSIFY: Page = Page {
    sections: &[TABLES, INPUTS, STATUS_DATA, ENVIRONMENT],
    examples: &[
        (
            "pdn classify archive/",
            "Each game's opening and ballot, then the openings found, most played first.",
        ),
        (
            "pdn classify archive/ -f json | jq -r 'select(.type == \"game\") | .ballot'",
            "The ballot of each game, from the JSON Lines.",
        ),
        (
            "pdn classify games.pdn --table mine.tsv",
            "Your openings first (name<TAB>moves, with a `# variant: NAME` line), then the shipped tables.",
        ),
        (
            "pdn stats archive/ --by opening",
            "The same classification with results and score per opening.",
        ),
        (
            "pdn fix archive/ --classify -o named.pdn",
            "Write the Opening and Ballot tags into the corrected games.",
        ),
        (
            "pdn classify --show-table english-3move > deck.tsv",
            "A shipped table as a start for your own.",
        ),
    ],
};

/// How `merge` decides and what its audit says.
const MERGE_DECISIONS: Section = Section {
    heading: "DECISIONS",
    items: &[
        (
            "copies",
            "Games whose main lines replay to the same moves from the same start (variant, start position, each move in canonical notation; checked move for move, never by a hash alone) and whose facts agree. Points: up to 3 for the length (none under 10 plies), 1 for each player named alike (order, case, accents, transliteration; 0.5 for initials), 1 for the same full date (0.5 for dates that agree), 0.5 for the same round or event; against: another player -3, another year -3, another date -2.5, another round -2, another result -1. Two copies need 2 points; two different FMJD ids are never merged.",
        ),
        (
            "kept",
            "The first copy in input order, at its place, with the union of the copies' tags, each with its best value (full names over initials, a full date over a year, a known result over *, the longer event or site; else the first), and every comment, NAG and variation of the copies that it lacks, after the same ply (the same text once).",
        ),
        (
            "reported",
            "Not merged, in the audit: colours-reversed (the same moves, the players swapped), contained (every move of a game of 10 plies or more begins a longer game), different-game (the same moves, but the facts say another game: a miniature played twice), hash-collision (never seen: two identities with one key).",
        ),
        (
            "audit",
            "JSON Lines (docs/formats.md): a kept record per set (its dropped copies), a dropped record per copy (the game kept, why, the score in [0, 1] and the evidence), a reported record per game reported, a repaired record per game corrected by --fuzzy, then a summary: games = kept + dropped.",
        ),
    ],
};

/// The page of `merge`.
const MERGE: Page = Page {
    sections: &[MERGE_DECISIONS, INPUTS, STATUS_DATA, ENVIRONMENT],
    examples: &[
        (
            "pdn merge federation.pdn club/ engine.pdn -o joined.pdn --audit joined.jsonl",
            "One game per set of copies, merged, every decision in joined.jsonl.",
        ),
        (
            "pdn names federation.pdn club/ > names.tsv && pdn merge federation.pdn club/ --names names.tsv -o joined.pdn --audit joined.jsonl",
            "Names made one by a checked names table first.",
        ),
        (
            "pdn merge archive/ --fuzzy -o joined.pdn --audit a.jsonl",
            "Also join copies that differ by a slip that fix --repair corrects.",
        ),
        (
            "jq -c 'select(.type == \"reported\")' a.jsonl",
            "The games reported, not merged.",
        ),
    ],
};

/// The names table of `names` and `merge --names`.
const NAMES_TABLE: Section = Section {
    heading: "NAMES TABLES",
    items: &[(
        "",
        "A names table is TSV: alias<TAB>name to write, one a line; more columns are ignored, lines starting with # are comments. The text output of pdn names is one: each cluster's names with the evidence (why each is an alias: order, accents, case, initials, transliteration; its games and years; games and events in common). Names with initials that fit several players are listed, not joined. Check it, then give it to --apply or merge --names.",
    )],
};

/// The page of `names`.
const NAMES: Page = Page {
    sections: &[NAMES_TABLE, INPUTS, STATUS_DATA, ENVIRONMENT],
    examples: &[
        (
            "pdn names archive/ > names.tsv",
            "The alias clusters as a names table, with the evidence.",
        ),
        (
            "pdn names archive/ -f json | jq -r 'select(.type == \"cluster\") | .canonical'",
            "The canonical name of each cluster.",
        ),
        (
            "pdn names archive/ --apply names.tsv -o renamed.pdn",
            "Write the games with the names of the checked table.",
        ),
    ],
};

/// The page of `diagram`.
const DIAGRAM: Page = Page {
    sections: &[STATUS_DATA, ENVIRONMENT_NONE],
    examples: &[
        (
            "pdn diagram --variant international --fen 'W:W31-50:B1-20' -o start.svg",
            "The start position as SVG.",
        ),
        (
            "pdn diagram games.pdn --game 3 --ply 41 --numbers -o game3.png",
            "The position after the 41st ply of game 3, its move drawn, square numbers on, as PNG.",
        ),
        (
            "pdn diagram --variant english --fen 'B:W21-32:B1-12' --flip --size 240 -f png > board.png",
            "An English board turned round, 240 pixels wide.",
        ),
    ],
};

/// The page of `perft`.
const PERFT: Page = Page {
    sections: &[STATUS_SIMPLE, ENVIRONMENT_NONE],
    examples: &[
        (
            "pdn perft --variant international --depth 6",
            "Leaf nodes of the legal-move tree from the start position.",
        ),
        (
            "pdn perft --variant english --depth 5 --divide",
            "The count below each legal move of the root.",
        ),
        (
            "pdn perft --variant russian --fen 'W:W21,22:B9,10' --depth 4 --json",
            "From a position, as JSON lines.",
        ),
    ],
};

/// The page of `completions`.
const COMPLETIONS: Page = Page {
    sections: &[STATUS_SIMPLE, ENVIRONMENT_NONE],
    examples: &[
        (
            "mkdir -p ~/.local/share/bash-completion/completions && pdn completions bash > ~/.local/share/bash-completion/completions/pdn",
            "Bash: loaded by bash-completion when pdn is first completed.",
        ),
        (
            "mkdir -p ~/.config/fish/completions && pdn completions fish > ~/.config/fish/completions/pdn.fish",
            "Fish.",
        ),
        (
            "mkdir -p ~/.zfunc && pdn completions zsh > ~/.zfunc/_pdn",
            "Zsh: with fpath+=~/.zfunc before compinit in ~/.zshrc.",
        ),
    ],
};

/// The page of `man` (and of any other command without its own).
const MAN: Page = Page {
    sections: &[STATUS_SIMPLE, ENVIRONMENT_NONE],
    examples: &[
        ("pdn man validate | man -l -", "Read the page of a command."),
        (
            "pdn man --out-dir ~/.cargo/share/man/man1",
            "Write every page where man(1) finds them next to ~/.cargo/bin (man pdn, man pdn-validate).",
        ),
    ],
};

/// How `search` reads a query and what a match says.
const QUERIES: Section = Section {
    heading: "QUERIES",
    items: &[
        (
            "",
            "Every part of a query holds at once, in one position: --position (every piece, and the side to move its FEN names; ? or --any-side for either side), --pieces (these pieces stand there, the rest free), --not (none of these), --empty (these squares), --material (counts of men and kings, ranges), --side. FENs and squares are in the numbering of each game's variant (numbers, or algebraic names on algebraic boards); a query that does not fit a variant's board finds nothing in its games.",
        ),
        (
            "",
            "A manoeuvre is asked of the move played from the position: --piece man|king, --from and --to (sets of squares), --captures N (N, N-M or N+), --promotion, --sacrifice (after the move the opponent must capture). --moves keeps the games that begin with those moves (from the variant's start); alone, it matches the position after them. --mirror also finds the colour-reversed query: the board turned round, colours and side to move swapped (the opening moves are not turned).",
        ),
        (
            "",
            "Positions are compared, not move strings: transpositions are found. Each game is replayed as validate replays it, and only positions reached without an error are searched: after an illegal or ambiguous move the positions may not be the game's, so the game is searched up to it and its matches carry error_ply. One match per game and form of the query (its first occurrence on the main line) unless --all-occurrences; --variations also searches inside variations.",
        ),
        (
            "",
            "A match (JSON Lines): type match, file, game, line (of the game's first byte), ply (plies played before the position; 0 is the start), move_number, side (to move), fen, white, black, result, event, date, variant, move (for a manoeuvre: the move played), in_variation, mirrored, error_ply. Then a summary: files, games, plies, matches, games_matched, games_searched_in_part, games_not_searched, unreadable_files.",
        ),
    ],
};

/// The page of `search`.
const SEARCH: Page = Page {
    sections: &[QUERIES, INPUTS, STATUS_DATA, ENVIRONMENT],
    examples: &[
        (
            "pdn search archive/ --position 'W:W27-30,32-35,37-50:B1-19,21-24'",
            "Every game that reaches this position, whatever the order of its moves.",
        ),
        (
            "pdn search archive/ --pieces 'W:W22,27,28:B17,18,23' --side black --mirror",
            "A pattern with Black to move, and its colour-reversed form.",
        ),
        (
            "pdn search archive/ --material 'w=1-3,b=1-3,wk=1+' -f json",
            "Endings with three pieces a side or fewer and a white king, as JSON Lines.",
        ),
        (
            "pdn search archive/ --piece man --to 1-5 --captures 2+",
            "A white man's capture of two pieces or more onto Black's back row.",
        ),
        (
            "pdn search archive/ --sacrifice --side white --from 27-28",
            "Moves from 27 or 28 after which Black must capture.",
        ),
        (
            "pdn search archive/ --moves '32-28 19-23 28x19 14x23' -f pdn -o games.pdn",
            "The games that begin so, whole, with a comment where the moves end.",
        ),
        (
            "pdn index archive/ -o archive.idx && pdn search --index archive.idx --position 'B:W...'",
            "The same answers from an index, in milliseconds.",
        ),
    ],
};

/// What `explore` counts.
const TREE: Section = Section {
    heading: "WHAT THE NUMBERS MEAN",
    items: &[(
        "",
        "For the position explored (the variant's start, --position, or the position after --moves) and for each move played from it in the archive's main lines: games (the games that reach the position after the move, by any order of moves: transpositions counted together), played (the games in which the move was played from the position), White's wins, draws, Black's wins, unknown results, the score of the side that plays the move on the variant's scale (a win 2 and a draw 1 in international draughts, 1 and ½ elsewhere; decided games only) and as a percentage, the first and last year (Date tag). Each game is counted once per position. Only positions reached without an error are counted, as search counts them.",
    )],
};

/// The page of `explore`.
const EXPLORE: Page = Page {
    sections: &[TREE, INPUTS, STATUS_DATA, ENVIRONMENT],
    examples: &[
        (
            "pdn explore archive/",
            "The first moves of the archive's games, with results and score.",
        ),
        (
            "pdn explore archive/ --moves '32-28 18-23'",
            "The moves played after 1. 32-28 18-23.",
        ),
        (
            "pdn explore --index archive.idx --position 'W:W...' -f json",
            "From a position, answered by an index, as JSON Lines.",
        ),
        (
            "pdn explore archive/ -f html --depth 8 -o tree.html",
            "An opening tree to browse: the board and the moves, each a link to the next position.",
        ),
    ],
};

/// The page of `index`.
const INDEX: Page = Page {
    sections: &[INPUTS, STATUS_DATA, ENVIRONMENT],
    examples: &[
        (
            "pdn index archive/ -o archive.idx",
            "Index every main-line position of the archive.",
        ),
        (
            "pdn index archive/ -o openings.idx --max-ply 30",
            "Only the first 30 plies of each game: a smaller index for the openings.",
        ),
    ],
};
