//! What the commands that read games share: inputs, variant option, jobs, progress, the
//! buffered standard output and the exit status.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;

use anyhow::{Result, bail};
use pdn::app::terminal::escape;
use pdn::rules::Variant;

use super::Status;
use super::args::InputArgs;
use super::batch::Totals;
use super::input::{self, Input, Source};
use super::progress::{self, Progress};

/// The inputs and settings of a run.
pub struct Setup {
    pub inputs: Vec<Input>,
    /// Paths of the command line that could not be read (missing, or a directory that
    /// could not be walked), as shown.
    pub missing: Vec<String>,
    pub variant: Option<Variant>,
    pub jobs: usize,
    pub quiet: bool,
    pub progress: Progress,
}

impl Setup {
    pub fn new(a: &InputArgs) -> Result<Setup> {
        let variant = match &a.variant {
            Some(v) => Some(v.parse::<Variant>()?),
            None => None,
        };
        if let Some(note) = a.jobs_note()
            && !a.quiet
        {
            progress::message(&format!("pdn: note: {note}"));
        }
        let (inputs, errors) = input::expand(&a.paths);
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
            bail!("nothing to read");
        }
        let total = inputs.iter().map(|i| i.size).sum::<Option<u64>>();
        let progress = Progress::new(total, !a.quiet);
        Ok(Setup {
            inputs,
            missing,
            variant,
            jobs: a.jobs(),
            quiet: a.quiet,
            progress,
        })
    }
}

/// Standard output, buffered; flushed line by line on a terminal.
pub fn stdout() -> Box<dyn Write> {
    let out = io::stdout();
    if out.is_terminal() {
        Box::new(io::LineWriter::new(out))
    } else {
        Box::new(BufWriter::with_capacity(1 << 16, out))
    }
}

/// The exit status: `failed` (errors found, outputs not written) or files that could not
/// be read give 1; if nothing at all could be read (every input failed and no game came),
/// it is fatal.
pub fn status(failed: bool, t: &Totals) -> Result<Status> {
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
pub fn unreadable_note(t: &Totals) -> Option<String> {
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
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Refuse an output file (`what`: the option naming it) that is also an input.
pub fn not_an_input(what: &str, path: &Path, inputs: &[Input]) -> Result<()> {
    for i in inputs {
        if let Source::File(f) = &i.source
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
