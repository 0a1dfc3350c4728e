//! The batch driver of every command that reads games: it runs the pipeline over the inputs
//! of a [`Setup`] and owns what every command does alike — files counted as they start, a
//! file that cannot be read reported (the progress bar cleared first) and counted, the
//! progress bar told of every game — so that a command says only what to do with a game
//! (the work, on any thread) and how to write it (a [`Sink`], in input order).

use std::io;

use anyhow::Result;
use pdn::app::gametype::FileHint;
use pdn::rules::Variant;
use pdn::syntax::Game;

use super::common::Setup;
use super::pipeline::{self, Event, Follow, Plan};

/// The variant the earlier games of a file showed, followed along the file.
impl Follow for FileHint {
    type Note = Option<Variant>;
    fn observe(&mut self, file: usize, game: &Game) -> Option<Variant> {
        FileHint::observe(self, file, game)
    }
}

/// Where a command's results go, in input order.
pub trait Sink<R> {
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
pub struct Totals {
    /// Inputs opened or tried.
    pub files: u64,
    /// Inputs that could not be read: those missing at the command line and those that
    /// failed while opened or read.
    pub unreadable: u64,
}

/// Run `work` on every game of the inputs and hand the results to `sink` in input order.
/// `work` gets the input's index, the game and the variant the earlier games of its file
/// showed. An error of the sink (a closed pipe) stops the run and is returned.
pub fn run<R, W>(setup: &Setup, work: W, sink: &mut dyn Sink<R>) -> Result<Totals>
where
    R: Send,
    W: Fn(usize, &Game, Option<Variant>) -> R + Sync,
{
    let mut totals = Totals {
        files: 0,
        unreadable: setup.unreadable,
    };
    let progress = &setup.progress;
    let mut failed = false;
    let result = pipeline::run::<FileHint, _, _, _>(
        &setup.inputs,
        &Plan::new(setup.jobs),
        &|bytes| progress.set(bytes),
        work,
        |ev| match ev {
            Event::FileStart(i) => {
                totals.files += 1;
                failed = false;
                sink.file_start(i)
            }
            Event::Game(i, done) => {
                let errors = sink.game(i, done)?;
                progress.game(errors);
                Ok(())
            }
            Event::FileError(i, e) => {
                totals.unreadable += 1;
                failed = true;
                progress.finish();
                eprintln!("pdn: {}: {e}", setup.inputs[i].name);
                Ok(())
            }
            Event::FileEnd(i) => sink.file_end(i, failed),
        },
    );
    progress.finish();
    result?;
    Ok(totals)
}
