//! One output per input file: `--out-dir DIR` (`fix`, `convert`) and `fix --in-place
//! [--backup SUFFIX]`. Each file is written atomically (`super::output`); one that cannot be
//! written is reported and counted, and the others go on.
//!
//! `--out-dir` mirrors the inputs: an input's output is DIR joined with the input's path
//! below the PATH argument it was found under (a file named on the command line: its name),
//! with a trailing `.gz` dropped and the extension replaced by the format's. Standard input
//! has no name to mirror: `-` with `--out-dir` or `--in-place` is a usage error, and so are
//! two inputs that would write one file, and an output that would replace an input.
//!
//! `--in-place` replaces each input with its output (synced to disk before the rename), a
//! gzip-compressed input by a compressed output; with `--backup SUFFIX` the original is
//! first kept as FILE+SUFFIX. An input that could not be read to its end is left as it is.

use std::collections::HashSet;
use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use super::common;
use super::input::{self, Input, Source};
use super::output::{AtomicFile, Durability, shown};
use super::progress;

/// Where the per-file outputs go.
enum Mode {
    OutDir,
    InPlace { backup: Option<String> },
}

/// The per-file outputs of a run.
pub(super) struct PerFile {
    targets: Vec<PathBuf>,
    mode: Mode,
    /// Files written.
    pub written: u64,
    /// Files that could not be written.
    pub failed: u64,
}

/// The name of `rel`'s output: `.gz` dropped, the extension replaced by `ext`.
fn out_name(rel: &Path, ext: &str) -> PathBuf {
    let mut p = rel.to_path_buf();
    if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz")) {
        p.set_extension("");
    }
    p.set_extension(ext);
    p
}

fn no_stdin(inputs: &[Input], option: &str) -> Result<()> {
    if inputs.iter().any(|i| i.source == Source::Stdin) {
        bail!(
            "{option} writes one file per input file, and standard input has no name: use -o \
             (or standard output) for it"
        );
    }
    Ok(())
}

impl PerFile {
    /// Outputs below `dir`, named with the extension `ext`.
    pub(super) fn out_dir(dir: &Path, inputs: &[Input], ext: &str) -> Result<PerFile> {
        no_stdin(inputs, "--out-dir")?;
        let mut targets = Vec::with_capacity(inputs.len());
        let mut seen = HashSet::new();
        let canonical: HashSet<PathBuf> = inputs
            .iter()
            .filter_map(|i| match &i.source {
                Source::File(f) => f.canonicalize().ok(),
                Source::Stdin => None,
            })
            .collect();
        for i in inputs {
            let rel = i.rel.clone().unwrap_or_else(|| PathBuf::from(&i.name));
            let target = dir.join(out_name(&rel, ext));
            if !seen.insert(target.clone()) {
                bail!(
                    "two inputs would be written to {} (--out-dir mirrors the paths below each \
                     PATH: name their directories instead, or run once for each)",
                    shown(&target)
                );
            }
            if target.canonicalize().is_ok_and(|c| canonical.contains(&c)) {
                bail!(
                    "--out-dir would replace the input {}: choose another directory",
                    shown(&target)
                );
            }
            targets.push(target);
        }
        Ok(PerFile {
            targets,
            mode: Mode::OutDir,
            written: 0,
            failed: 0,
        })
    }

    /// Each input replaced by its output.
    pub(super) fn in_place(inputs: &[Input], backup: Option<String>) -> Result<PerFile> {
        no_stdin(inputs, "--in-place")?;
        if backup.as_deref() == Some("") {
            bail!("--backup needs a suffix that is not empty");
        }
        let targets = inputs
            .iter()
            .filter_map(|i| match &i.source {
                Source::File(f) => Some(f.clone()),
                Source::Stdin => None,
            })
            .collect();
        Ok(PerFile {
            targets,
            mode: Mode::InPlace { backup },
            written: 0,
            failed: 0,
        })
    }

    /// The output of input `i`.
    pub(super) fn target(&self, i: usize) -> &Path {
        &self.targets[i]
    }

    /// Start the output of input `i`; `None` (reported, counted) if it cannot be created.
    pub(super) fn open(&mut self, i: usize) -> Option<AtomicFile> {
        let target = &self.targets[i];
        let made = match self.mode {
            Mode::OutDir => target
                .parent()
                .map_or(Ok(()), fs::create_dir_all)
                .and_then(|()| AtomicFile::create(target, false, Durability::Renamed)),
            Mode::InPlace { .. } => {
                AtomicFile::create(target, input::is_gzip(target), Durability::Synced)
            }
        };
        match made {
            Ok(f) => Some(f),
            Err(e) => {
                self.lost(i, &e);
                None
            }
        }
    }

    /// A write to the output of input `i` failed: report it and count it (the caller drops
    /// the file, which removes its temporary file).
    pub(super) fn lost(&mut self, i: usize, e: &io::Error) {
        self.failed += 1;
        progress::message(&format!(
            "pdn: cannot write {}: {}",
            shown(&self.targets[i]),
            pdn::app::terminal::escape(&e.to_string())
        ));
    }

    /// Finish the output of input `i`: put it in place (after the backup, in place), unless
    /// the input was not read whole (`not_whole` says why) and would be replaced. True if
    /// written.
    pub(super) fn close(&mut self, i: usize, file: AtomicFile, not_whole: Option<&str>) -> bool {
        let target = self.targets[i].clone();
        if let Mode::InPlace { backup } = &self.mode {
            if let Some(why) = not_whole {
                drop(file);
                self.failed += 1;
                progress::message(&format!(
                    "pdn: {}: left as it was, not replaced: {why}",
                    shown(&target)
                ));
                return false;
            }
            if let Some(suffix) = backup {
                let mut name = OsString::from(target.as_os_str());
                name.push(suffix);
                let backup = PathBuf::from(name);
                if let Err(e) = copy_atomically(&target, &backup) {
                    self.failed += 1;
                    progress::message(&format!(
                        "pdn: cannot write the backup {} ({}): {} left as it was",
                        shown(&backup),
                        pdn::app::terminal::escape(&e.to_string()),
                        shown(&target)
                    ));
                    return false;
                }
            }
        }
        match file.commit() {
            Ok(()) => {
                self.written += 1;
                true
            }
            Err(e) => {
                self.lost(i, &e);
                false
            }
        }
    }
}

/// Why an input was not read whole, if it was not: `failed`, a read error (reported as it
/// came); `first_cut`, the first of `cut` games whose text the reader could not all read (a
/// game over the size limit: its syntax error says what was left out).
pub(super) fn whole(failed: bool, first_cut: Option<usize>, cut: u64) -> Option<String> {
    match first_cut {
        Some(game) => Some(format!(
            "game {game}{} could not be read whole (see {} syntax error)",
            match cut {
                0 | 1 => String::new(),
                2 => " and 1 more".to_string(),
                n => format!(" and {} more", n - 1),
            },
            if cut > 1 { "their" } else { "its" }
        )),
        None if failed => Some("it could not be read to its end".to_string()),
        None => None,
    }
}

/// Copy `from` to `to` through a temporary file beside `to`, synced, with `from`'s
/// permissions.
fn copy_atomically(from: &Path, to: &Path) -> io::Result<()> {
    let mut src = fs::File::open(from)?;
    let mut out = AtomicFile::create(to, false, Durability::Synced)?;
    out.keep_permissions(fs::metadata(from)?.permissions());
    io::copy(&mut src, &mut out)?;
    out.commit()
}

/// Refuse `-o`/`--audit` files that are inputs, and an audit that is the output.
pub(super) fn check_single(
    output: Option<&Path>,
    audit: Option<&Path>,
    inputs: &[Input],
) -> Result<()> {
    for (what, path) in [("-o", output), ("--audit", audit)] {
        if let Some(p) = path {
            common::not_an_input(what, p, inputs)?;
        }
    }
    if let (Some(o), Some(au)) = (output, audit)
        && (o == au || common::same_file(o, au))
    {
        bail!("-o and --audit name the same file");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_names() {
        assert_eq!(
            out_name(Path::new("a/b.pdn"), "jsonl"),
            Path::new("a/b.jsonl")
        );
        assert_eq!(out_name(Path::new("b.PDN.gz"), "pdn"), Path::new("b.pdn"));
        assert_eq!(
            out_name(Path::new("NKCS06.txt"), "pdn"),
            Path::new("NKCS06.pdn")
        );
        assert_eq!(out_name(Path::new("games"), "txt"), Path::new("games.txt"));
        assert_eq!(
            out_name(Path::new("x.pdn"), "plies.csv"),
            Path::new("x.plies.csv")
        );
    }
}
