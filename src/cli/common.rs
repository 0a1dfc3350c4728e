//! What the commands that read games share: inputs, variant option, jobs, progress, colour,
//! the buffered standard output and the exit status.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;

use anyhow::{Result, bail};
use pdn::app::judge::diagnostic::{Palette, Severity, paint};
use pdn::app::judge::validate;
use pdn::app::write::terminal::escape;
use pdn::rules::Variant;

use super::Status;
use super::args::{ColorArg, InputArgs};
use super::batch::Totals;
use super::input::{self, InputList, InputRef};
use super::progress::{self, Progress};

/// An input's name as it may be shown on a terminal (escaped); made when needed (a run over
/// many files keeps no second list of names).
pub(super) fn shown_name(i: InputRef<'_>) -> String {
    escape(&i.name()).into_owned()
}

/// The inputs and settings of a run.
pub(super) struct RunSetup {
    pub inputs: InputList,
    /// Paths of the command line that could not be read (missing, or a directory that
    /// could not be walked), as shown.
    pub missing: Vec<String>,
    pub variant: Option<Variant>,
    pub jobs: usize,
    pub quiet: bool,
    pub progress: Progress,
}

impl RunSetup {
    /// How to validate: the variant of `--variant`, board diagrams in move diagnostics if
    /// `diagrams`, variations left out if `main_line` (`--main-line`); the file's variant
    /// hint is put in for each game (`batch::Hinted`).
    pub(super) fn validate_options(&self, diagrams: bool, main_line: bool) -> validate::Options {
        validate::Options {
            variant: self.variant,
            diagrams,
            hint: None,
            main_line,
        }
    }

    pub(super) fn new(a: &InputArgs) -> Result<RunSetup> {
        progress::set_quiet(a.run.quiet);
        if let Some(note) = a.run.jobs_note() {
            progress::note(&format!("pdn: {}: {note}", label(Severity::Info)));
        }
        let input::Expanded {
            inputs,
            errors,
            notes,
        } = input::expand(&a.paths);
        for n in &notes {
            progress::note(&format!("pdn: {}: {}", label(Severity::Info), escape(n)));
        }
        let mut missing = Vec::new();
        for (name, e) in &errors {
            progress::message(&format!(
                "pdn: {}: {}",
                escape(name),
                escape(&e.to_string())
            ));
            missing.push(escape(name).into_owned());
        }
        if inputs.is_empty() {
            bail!("nothing to read: no PDN file among the paths given");
        }
        // Games typed at the terminal: say how to end them, and draw no bar over them.
        let typing = inputs.iter().any(|i| i.is_stdin()) && io::stdin().is_terminal();
        if typing {
            progress::note(
                "pdn: reading games from the terminal: paste or type them, then Ctrl-D on a \
                 line of its own (or name files and directories: see --help)",
            );
        }
        let total = inputs.iter().map(|i| i.size()).sum::<Option<u64>>();
        let progress = Progress::new(total, !a.run.quiet && !a.run.no_progress && !typing);
        Ok(RunSetup {
            inputs,
            missing,
            variant: a.variant,
            jobs: a.run.jobs(),
            quiet: a.run.quiet,
            progress,
        })
    }
}

/// Set the colour choice of the run (`--color`): anstream's, which reads `NO_COLOR`,
/// `CLICOLOR` and `CLICOLOR_FORCE` for `auto`, as clap does for its help.
pub(super) fn set_color(c: ColorArg) {
    anstream::ColorChoice::write_global(match c {
        ColorArg::Auto => anstream::ColorChoice::Auto,
        ColorArg::Always => anstream::ColorChoice::Always,
        ColorArg::Never => anstream::ColorChoice::Never,
    });
}

fn on(choice: anstream::ColorChoice) -> bool {
    !matches!(choice, anstream::ColorChoice::Never)
}

/// True if what goes to standard output is coloured.
pub(super) fn colour_stdout() -> bool {
    on(anstream::AutoStream::choice(&io::stdout()))
}

/// True if what goes to standard error is coloured.
pub(super) fn colour_stderr() -> bool {
    on(anstream::AutoStream::choice(&io::stderr()))
}

/// True if what goes to a file (`-o`) is coloured: never a terminal, so only with
/// `--color always` or `CLICOLOR_FORCE`.
pub(super) fn colour_file() -> bool {
    on(anstream::AutoStream::choice(&Vec::<u8>::new()))
}

/// A severity's name for a message on standard error, coloured as the terminal allows.
pub(super) fn label(s: Severity) -> String {
    let mut out = String::new();
    paint(
        &mut out,
        Palette::new(colour_stderr()).severity(s),
        s.as_str(),
    );
    out
}

/// Standard output, buffered; flushed line by line on a terminal. For text made safe for a
/// terminal by its writer (the human formats, escaped and perhaps coloured).
pub(super) fn stdout() -> Box<dyn Write> {
    let out = io::stdout();
    if out.is_terminal() {
        Box::new(io::LineWriter::new(out))
    } else {
        Box::new(BufWriter::with_capacity(1 << 16, out))
    }
}

/// Standard output for data (PDN, CSV, JSON, Manoury, SVG, HTML): on a terminal every
/// character that must not reach one raw (`pdn::app::write::terminal`) is written escaped, as the
/// human formats show it, so that a record holding `ESC [2J` cannot clear the screen; a file
/// or a pipe gets the bytes as they are.
pub(super) fn stdout_data() -> Box<dyn Write> {
    let out = io::stdout();
    if out.is_terminal() {
        Box::new(io::LineWriter::new(Escaping::new(out)))
    } else {
        Box::new(BufWriter::with_capacity(1 << 16, out))
    }
}

/// A writer that escapes what must not reach a terminal raw (every control and bidirectional
/// control character but line feeds and tabs, as `\u{1b}`; a byte that is not UTF-8 as
/// `\x{e9}`), keeping a character split between two writes whole.
pub(super) struct Escaping<W> {
    inner: W,
    /// The start of a character whose other bytes are still to come.
    pending: Vec<u8>,
}

impl<W: Write> Escaping<W> {
    pub(super) fn new(inner: W) -> Escaping<W> {
        Escaping {
            inner,
            pending: Vec::new(),
        }
    }
}

impl<W: Write> Write for Escaping<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let joined;
        let mut data: &[u8] = if self.pending.is_empty() {
            buf
        } else {
            let mut j = std::mem::take(&mut self.pending);
            j.extend_from_slice(buf);
            joined = j;
            &joined
        };
        let mut out = String::with_capacity(data.len() + 16);
        loop {
            match std::str::from_utf8(data) {
                Ok(text) => {
                    out.push_str(&pdn::app::write::terminal::escape_lines(text, true));
                    break;
                }
                Err(e) => {
                    let (valid, rest) = data.split_at(e.valid_up_to());
                    // SAFETY-free: `valid` is the valid prefix the error reported.
                    let text = std::str::from_utf8(valid).unwrap_or_default();
                    out.push_str(&pdn::app::write::terminal::escape_lines(text, true));
                    match e.error_len() {
                        // A character cut by the end of this write: its bytes wait.
                        None => {
                            self.pending = rest.to_vec();
                            break;
                        }
                        Some(n) => {
                            for b in &rest[..n] {
                                out.push_str(&format!("\\x{{{b:02x}}}"));
                            }
                            data = &rest[n..];
                        }
                    }
                }
            }
        }
        self.inner.write_all(out.as_bytes())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// The exit status: `failed` (errors found, outputs not written) or files that could not
/// be read give 1; if nothing at all could be read (every input failed and no game came),
/// it is fatal.
pub(super) fn status(failed: bool, t: &Totals) -> Result<Status> {
    if t.unreadable > 0 && t.unreadable >= t.inputs && t.games == 0 {
        bail!("no input could be read");
    }
    Ok(if failed || t.unreadable > 0 {
        Status::Errors
    } else {
        Status::Clean
    })
}

/// The closing note of a run with unreadable inputs: how many, which (the first ten).
pub(super) fn unreadable_note(t: &Totals) -> Option<String> {
    if t.unreadable == 0 {
        return None;
    }
    let n = t.unreadable;
    let mut s = format!(
        "{n} of {} input{} could not be read: ",
        t.inputs,
        if t.inputs == 1 { "" } else { "s" },
    );
    for (k, name) in t.unreadable_names.iter().take(10).enumerate() {
        if k > 0 {
            s.push_str(", ");
        }
        s.push_str(name);
    }
    if t.unreadable_names.len() > 10 {
        s.push_str(&format!(" and {} more", t.unreadable_names.len() - 10));
    }
    Some(s)
}

/// True if two paths name the same existing file.
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Refuse an output file (`what`: the option naming it) that is also an input.
pub(super) fn not_an_input(what: &str, path: &Path, inputs: &InputList) -> Result<()> {
    for i in inputs.iter() {
        if let Some(f) = i.path()
            && same_file(f, path)
        {
            bail!(
                "{what} {} is also an input: write the output elsewhere",
                escape(&path.display().to_string())
            );
        }
    }
    Ok(())
}

/// Refuse an output file (`what`: the option naming it) that is a file the run reads besides
/// its games: `read` holds each such file with the words that name it (`the --table file`,
/// `the --names table`, `the --index file`…).
pub(super) fn not_read_aside(what: &str, path: &Path, read: &[(&str, &Path)]) -> Result<()> {
    let Ok(out) = path.canonicalize() else {
        // Not there yet: it is none of them.
        return Ok(());
    };
    for (named, f) in read {
        if f.canonicalize().is_ok_and(|f| f == out) {
            bail!(
                "{what} {} is {named}, which the run reads: write the output elsewhere",
                escape(&path.display().to_string())
            );
        }
    }
    Ok(())
}

/// The opening tables a run reads (`--table`), each with the words that name it, for
/// [`not_read_aside`] and `outdir::check_targets`.
pub(super) fn tables_read(t: &super::args::TableArgs) -> Vec<(&'static str, &Path)> {
    t.tables
        .iter()
        .map(|p| ("the --table file", p.as_path()))
        .collect()
}

/// `n` and the word for it, singular or plural: `1 game`, `2 games`, `0 games`.
pub(super) fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
