//! What the commands that read games share: inputs, variant option, jobs, progress, the
//! buffered standard output and the exit status.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use pdn::rules::Variant;

use super::Status;
use super::args::InputArgs;
use super::input::{self, Input, Source};
use super::progress::Progress;

/// The inputs and settings of a run.
pub struct Setup {
    pub inputs: Vec<Input>,
    pub unreadable: u64,
    pub variant: Option<Variant>,
    pub jobs: usize,
    pub progress: Progress,
}

impl Setup {
    pub fn new(a: &InputArgs) -> Result<Setup> {
        let variant = match &a.variant {
            Some(v) => Some(v.parse::<Variant>()?),
            None => None,
        };
        let (inputs, errors) = input::expand(&a.paths);
        for (name, e) in &errors {
            eprintln!("pdn: {name}: {e}");
        }
        if inputs.is_empty() {
            bail!("nothing to read");
        }
        let jobs = a.jobs();
        let total = inputs.iter().map(|i| i.size).sum::<Option<u64>>();
        let progress = Progress::new(total, !a.quiet);
        Ok(Setup {
            inputs,
            unreadable: errors.len() as u64,
            variant,
            jobs,
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

/// The exit status: errors found (or files that could not be read) give 1; if no file at
/// all could be read, it is fatal. `unreadable` counts every input that failed (at the
/// command line or while reading), `files` the inputs the pipeline opened or tried to (those
/// found missing at the command line are not among them).
pub fn status(errors: bool, unreadable: u64, files: u64, missing: u64) -> Result<Status> {
    if unreadable > 0 && unreadable >= files + missing {
        bail!("no input could be read");
    }
    Ok(if errors || unreadable > 0 {
        Status::Errors
    } else {
        Status::Clean
    })
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
                path.display()
            );
        }
    }
    Ok(())
}

/// The output: the file `-o` names (created, buffered), else standard output.
pub fn output(path: Option<&Path>) -> Result<Box<dyn Write>> {
    Ok(match path {
        Some(p) => Box::new(BufWriter::with_capacity(
            1 << 16,
            File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => stdout(),
    })
}
