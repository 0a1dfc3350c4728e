//! The batch driver of every command that reads games: it runs the pipeline over the inputs
//! of a [`Setup`] and owns what every command does alike — files counted as they start, a
//! file that cannot be read (or not to its end) reported above the progress bar and counted,
//! the progress bar told of every game — so that a command says only what to do with a game
//! (the work, on any thread) and how to write it (a [`Sink`], in input order).

use std::io;

use anyhow::Result;
use pdn::app::export::ExportOptions;
use pdn::app::fix::FixOptions;
use pdn::app::gametype::FileHint;
use pdn::app::terminal::escape;
use pdn::app::{stats, validate};
use pdn::rules::Variant;
use pdn::syntax::{Game, Visitor};

use super::common::Setup;
use super::output::Unwritten;
use super::pipeline::{self, Event, Follow, Plan};
use super::progress;

/// The variant the earlier games of a file showed, followed along the file.
impl Follow for FileHint {
    type Note = Option<Variant>;
    fn observe(&mut self, file: usize, game: &Game) -> Option<Variant> {
        FileHint::observe(self, file, game)
    }
}

/// Where a command's results go, in input order.
pub(super) trait Sink<R> {
    /// Input `file` starts.
    fn file_start(&mut self, _file: usize) -> io::Result<()> {
        Ok(())
    }
    /// One game's result; returns the game's error count, for the progress bar.
    fn game(&mut self, file: usize, done: R) -> io::Result<u64>;
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
/// is put for each game.
pub(super) trait Hinted: Sync {
    /// These options with `hint` as the file's variant hint.
    fn hinted(&self, hint: Option<Variant>) -> Self;
}

impl Hinted for validate::Options {
    fn hinted(&self, hint: Option<Variant>) -> Self {
        validate::Options { hint, ..*self }
    }
}

impl Hinted for ExportOptions {
    fn hinted(&self, hint: Option<Variant>) -> Self {
        ExportOptions {
            validate: self.validate.hinted(hint),
            ..*self
        }
    }
}

impl Hinted for stats::Options {
    fn hinted(&self, hint: Option<Variant>) -> Self {
        stats::Options {
            validate: self.validate.hinted(hint),
            ..self.clone()
        }
    }
}

impl Hinted for FixOptions {
    fn hinted(&self, hint: Option<Variant>) -> Self {
        FixOptions {
            validate: self.validate.hinted(hint),
            ..*self
        }
    }
}

/// Run `work` on every game of the inputs and hand the results to `sink` in input order.
/// `work` gets the input's index, the game and `opts` with the variant the earlier games of
/// its file showed. An error of the sink (an output that cannot be written, a closed pipe)
/// stops the run and is returned.
pub(super) fn run<O, R, W>(
    setup: &Setup,
    opts: &O,
    work: W,
    sink: &mut dyn Sink<R>,
) -> Result<Totals>
where
    O: Hinted,
    R: Send,
    W: Fn(usize, Game, &O) -> R + Sync,
{
    drive(setup, sink, |progress, consume| {
        pipeline::run::<FileHint, _, _, _>(
            &setup.inputs,
            &Plan::new(setup.jobs),
            &|bytes| progress.set(bytes),
            |i, game, hint| work(i, game, &opts.hinted(hint)),
            consume,
        )
    })
}

/// With one job, [`run_visiting`]: each game read into a visitor, no owned `Game` built;
/// with more, [`run`] with `work`. The visitor's output and `work`'s result are the same.
pub(super) fn run_or_visit<O: Hinted, R: Send, V: Visitor<Output = R>>(
    setup: &Setup,
    opts: &O,
    visitor: impl FnMut(usize) -> V,
    work: impl Fn(usize, Game, &O) -> R + Sync,
    sink: &mut dyn Sink<R>,
) -> Result<Totals> {
    if setup.jobs <= 1 {
        run_visiting(setup, visitor, sink)
    } else {
        run(setup, opts, work, sink)
    }
}

/// [`run`] with one job, each game read into a visitor made for its input (`visitor(i)`)
/// whose output is the game's result: no owned `Game` is built.
pub(super) fn run_visiting<V>(
    setup: &Setup,
    visitor: impl FnMut(usize) -> V,
    sink: &mut dyn Sink<V::Output>,
) -> Result<Totals>
where
    V: Visitor,
{
    drive(setup, sink, |progress, consume| {
        pipeline::run_visiting(
            &setup.inputs,
            &Plan::new(1),
            &|bytes| progress.set(bytes),
            visitor,
            consume,
        )
    })
}

/// The driver's part of a run: `pipeline` runs the pipeline with the progress bar and the
/// consumer of its events, which counts files and games, reports the files that could not
/// be read, and hands the rest to `sink`.
fn drive<R>(
    setup: &Setup,
    sink: &mut dyn Sink<R>,
    pipeline: impl FnOnce(
        &progress::Progress,
        &mut dyn FnMut(Event<R>) -> io::Result<()>,
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
        Event::FileStart(i) => {
            totals.files += 1;
            failed = false;
            games_of_file = 0;
            sink.file_start(i)
        }
        Event::Game(i, done) => {
            totals.games += 1;
            games_of_file += 1;
            let errors = sink.game(i, done)?;
            progress.game(errors);
            Ok(())
        }
        Event::FileError(i, e) => {
            let name = escape(&setup.inputs[i].name).into_owned();
            let kept = match games_of_file {
                0 => String::new(),
                1 => "; the game before it is kept (it may be cut short)".to_string(),
                n => format!("; the {n} games before it are kept (the last may be cut short)"),
            };
            progress::message(&format!("pdn: {name}: {}{kept}", escape(&e)));
            totals.unreadable += 1;
            totals.unreadable_names.push(name);
            failed = true;
            Ok(())
        }
        Event::FileEnd(i) => sink.file_end(i, failed),
    });
    progress.finish();
    result.map_err(|e| anyhow::Error::new(e).context(Unwritten("the output".into())))?;
    Ok(totals)
}
