//! The batch driver of every command that reads games: it runs the pipeline over the inputs
//! of a [`RunSetup`] and owns what every command does alike — files counted as they start, a
//! file that cannot be read (or not to its end) reported above the progress bar and counted,
//! the progress bar told of every game — so that a command says only what to do with a game
//! (the work, on any thread) and how to write it (a [`Sink`], in input order).

use std::io;

use anyhow::Result;
use pdn::app::fix::FixOptions;
use pdn::app::judge::validate;
use pdn::app::model::gametype::FileVariant;
use pdn::app::model::pipeline::{self, Event, Plan};
use pdn::app::model::reading::GameRef;
use pdn::app::write::export::ExportOptions;
use pdn::app::write::terminal::escape;

use super::common::RunSetup;
use super::input::{self, InputList};
use super::output::Unwritten;
use super::progress;

/// The command line's inputs, for the pipeline.
struct Inputs<'a>(&'a InputList);

impl pipeline::Inputs for Inputs<'_> {
    fn count(&self) -> usize {
        self.0.len()
    }
    fn open(&self, i: usize) -> io::Result<Box<dyn io::Read + Send>> {
        input::open(self.0.get(i))
    }
}

/// Where a command's results go, in input order.
pub(super) trait Sink<R> {
    /// Input `file` starts.
    fn file_start(&mut self, _file: usize) -> io::Result<()> {
        Ok(())
    }
    /// One game's result; returns the game's error count, for the progress bar. What the
    /// sink leaves in `done` is dropped on the thread that made it (see `pipeline::run`; where
    /// it is consumed for a huge game).
    fn game(&mut self, file: usize, done: &mut R) -> io::Result<u64>;
    /// Input `file` ended; `failed` if it could not be opened or read to its end.
    fn file_end(&mut self, _file: usize, _failed: bool) -> io::Result<()> {
        Ok(())
    }
}

/// What the driver counted.
#[derive(Clone, Debug, Default)]
pub(super) struct Totals {
    /// Inputs opened or tried.
    pub files: u64,
    /// Inputs named or found: those tried and those missing at the command line.
    pub inputs: u64,
    /// Inputs that could not be read (to their end): those missing at the command line and
    /// those that failed while opened or read.
    pub unreadable: u64,
    /// Their names, as shown.
    pub unreadable_names: Vec<String>,
    /// Games read.
    pub games: u64,
}

/// A command's per-game options, into which the variant the earlier games of a file showed
/// (`GameRef::hint`) is put for each game.
pub(super) trait Hinted: Sync {
    /// These options with `hint` as the file's variant hint.
    fn hinted(&self, hint: Option<FileVariant>) -> Self;
}

impl Hinted for ExportOptions {
    fn hinted(&self, hint: Option<FileVariant>) -> Self {
        ExportOptions {
            validate: validate::Options {
                hint,
                ..self.validate
            },
            ..*self
        }
    }
}

impl Hinted for FixOptions {
    fn hinted(&self, hint: Option<FileVariant>) -> Self {
        FixOptions {
            validate: validate::Options {
                hint,
                ..self.validate
            },
            ..*self
        }
    }
}

/// Run `work` on every game of the inputs and hand the results to `sink` in input order,
/// with the run's number of threads. Each thread makes its own state with `state` (buffers
/// kept from game to game) and hands it to `work` with each game it reads. An error of the
/// sink (an output that cannot be written, a closed pipe) stops the run and is returned.
pub(super) fn run<S, R: Send>(
    setup: &RunSetup,
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &GameRef<'_>) -> R + Sync,
    sink: &mut dyn Sink<R>,
) -> Result<Totals> {
    drive(setup, sink, |progress, consume| {
        pipeline::run(
            &Inputs(&setup.inputs),
            &Plan::new(setup.jobs),
            &|bytes| progress.set(bytes),
            state,
            work,
            consume,
        )
    })
}

/// The driver's part of a run: `pipeline` runs the pipeline with the progress bar and the
/// consumer of its events, which counts files and games, reports the files that could not
/// be read, and hands the rest to `sink`.
fn drive<R>(
    setup: &RunSetup,
    sink: &mut dyn Sink<R>,
    pipeline: impl FnOnce(
        &progress::Progress,
        &mut dyn FnMut(&mut Event<R>) -> io::Result<()>,
    ) -> io::Result<()>,
) -> Result<Totals> {
    let mut totals = Totals {
        inputs: (setup.inputs.len() + setup.missing.len()) as u64,
        unreadable: setup.missing.len() as u64,
        unreadable_names: setup.missing.clone(),
        ..Totals::default()
    };
    let progress = &setup.progress;
    let mut failed = false;
    let mut games_of_file = 0u64;
    let result = pipeline(progress, &mut |ev| match ev {
        &mut Event::FileStart(i) => {
            totals.files += 1;
            failed = false;
            games_of_file = 0;
            sink.file_start(i)
        }
        Event::Game(i, done) => {
            totals.games += 1;
            games_of_file += 1;
            let errors = sink.game(*i, done)?;
            progress.game(errors);
            Ok(())
        }
        Event::FileError(i, e) => {
            let name = escape(&setup.inputs.name(*i)).into_owned();
            let kept = match games_of_file {
                0 => String::new(),
                1 => "; the game before it is kept (it may be cut short)".to_string(),
                n => format!("; the {n} games before it are kept (the last may be cut short)"),
            };
            progress::message(&format!("pdn: {name}: {}{kept}", escape(e)));
            totals.unreadable += 1;
            totals.unreadable_names.push(name);
            failed = true;
            Ok(())
        }
        &mut Event::FileEnd(i) => {
            if games_of_file == 0 && !failed {
                let name = setup.inputs.name(i);
                let name = escape(&name);
                progress::note(&format!("pdn: info: {name}: no game in it"));
            }
            sink.file_end(i, failed)
        }
    });
    progress.finish();
    result.map_err(|e| {
        let what = super::output::named_output(&e)
            .unwrap_or("the output")
            .to_string();
        anyhow::Error::new(e).context(Unwritten(what))
    })?;
    Ok(totals)
}
