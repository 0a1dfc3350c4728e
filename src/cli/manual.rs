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
            "Within a game, findings come in source order. The human format shows errors and warnings (--min-severity info adds the tolerated notes), JSON shows everything. Hidden findings are still counted: the closing lines give the count per code shown and the summary, with what was not shown. --allow silences a code (not shown, not counted), --deny makes it an error (and the exit status follows).",
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
        Some("classify") => &CLASSIFY,
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
