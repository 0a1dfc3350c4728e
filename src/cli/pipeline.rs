//! The batch pipeline shared by every command: one reader thread streams games from the
//! inputs in batches through a bounded channel to worker threads; results come back to the
//! calling thread in exactly the input order. With one job everything runs inline.

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded};
use pdn::syntax::{Game, Reader};

use super::input::{self, Input};
use super::progress::Progress;

/// What the consumer sees, in input order.
pub enum Event<R> {
    /// A file starts.
    FileStart,
    /// A game's result.
    Game(R),
    /// A file (index into the inputs) could not be opened or read to its end.
    FileError(usize, String),
    /// A file ended.
    FileEnd,
}

/// The largest game the commands read (a game is held in memory whole, at several times
/// its size once parsed): far above any real record, low enough to bound memory on hostile
/// input. A larger game is a syntax error of its own and reading goes on.
const MAX_GAME: usize = 64 << 20;

/// How many games go to a worker at once, and how many bytes of text at most.
const BATCH_GAMES: usize = 16;
const BATCH_BYTES: usize = 1 << 20;

enum Job<H> {
    Start,
    Games(usize, Vec<(Game, H)>),
    Error(usize, String),
    End,
}

enum Done<R> {
    Start,
    Games(Vec<R>),
    Error(usize, String),
    End,
}

/// Run `work` on every game of the inputs with `jobs` threads, calling `consume` in input
/// order. `prepare` sees every game first, in order, on the reading thread (for what one
/// game tells about the next ones of its file); its answer goes to `work` with the game.
/// `progress` is told the bytes read. An error from `consume` (a closed pipe) stops
/// everything and is returned.
pub fn run<H, R, P, W, C>(
    inputs: &[Input],
    jobs: usize,
    progress: &Progress,
    mut prepare: P,
    work: W,
    mut consume: C,
) -> io::Result<()>
where
    H: Send,
    R: Send,
    P: FnMut(usize, &Game) -> H + Send,
    W: Fn(usize, &Game, H) -> R + Sync,
    C: FnMut(Event<R>) -> io::Result<()>,
{
    if jobs <= 1 {
        let mut done_before = 0u64;
        for (i, input) in inputs.iter().enumerate() {
            consume(Event::FileStart)?;
            match input::open(input) {
                Err(e) => consume(Event::FileError(i, e.to_string()))?,
                Ok(r) => {
                    let mut reader = Reader::new(r).with_max_game_size(MAX_GAME);
                    loop {
                        match reader.next_game() {
                            Ok(Some(g)) => {
                                let hint = prepare(i, &g);
                                let out = work(i, &g, hint);
                                consume(Event::Game(out))?;
                                progress.set(done_before + reader.bytes_read());
                            }
                            Ok(None) => break,
                            Err(e) => {
                                consume(Event::FileError(i, e.to_string()))?;
                                break;
                            }
                        }
                    }
                    done_before += reader.bytes_read();
                }
            }
            consume(Event::FileEnd)?;
        }
        progress.set(done_before);
        return Ok(());
    }
    let bytes = AtomicU64::new(0);
    let (job_tx, job_rx) = bounded::<(u64, Job<H>)>(jobs * 2);
    let (done_tx, done_rx) = bounded::<(u64, Done<R>)>(jobs * 2);
    // At most this many jobs between the reader and the consumer (queued, being worked on,
    // or done and waiting for an earlier one): memory stays bounded even when one worker is
    // descheduled while the others run ahead.
    let window = jobs * 4;
    let (credit_tx, credit_rx) = bounded::<()>(window);
    for _ in 0..window {
        let _ = credit_tx.send(());
    }
    thread::scope(|s| {
        let bytes_r = &bytes;
        s.spawn(move || read_all(inputs, job_tx, credit_rx, bytes_r, &mut prepare));
        for _ in 0..jobs {
            let rx: Receiver<(u64, Job<H>)> = job_rx.clone();
            let tx: Sender<(u64, Done<R>)> = done_tx.clone();
            let work = &work;
            s.spawn(move || {
                for (seq, job) in rx.iter() {
                    let done = match job {
                        Job::Start => Done::Start,
                        Job::Games(i, games) => {
                            Done::Games(games.into_iter().map(|(g, h)| work(i, &g, h)).collect())
                        }
                        Job::Error(i, e) => Done::Error(i, e),
                        Job::End => Done::End,
                    };
                    if tx.send((seq, done)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(job_rx);
        drop(done_tx);
        // Put the results back in order.
        let mut pending: BTreeMap<u64, Done<R>> = BTreeMap::new();
        let mut next = 0u64;
        let mut last_tick = Instant::now();
        let result = (|| -> io::Result<()> {
            loop {
                match done_rx.recv_timeout(Duration::from_millis(50)) {
                    Ok((seq, done)) => {
                        pending.insert(seq, done);
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => return Ok(()),
                }
                while let Some(done) = pending.remove(&next) {
                    next += 1;
                    let _ = credit_tx.send(());
                    match done {
                        Done::Start => consume(Event::FileStart)?,
                        Done::Games(rs) => {
                            for r in rs {
                                consume(Event::Game(r))?;
                            }
                        }
                        Done::Error(i, e) => consume(Event::FileError(i, e))?,
                        Done::End => consume(Event::FileEnd)?,
                    }
                }
                if last_tick.elapsed() >= Duration::from_millis(50) {
                    progress.set(bytes.load(Ordering::Relaxed));
                    last_tick = Instant::now();
                }
            }
        })();
        // On error the receivers go away: workers and reader stop at their next send.
        drop(done_rx);
        drop(credit_tx);
        progress.set(bytes.load(Ordering::Relaxed));
        result
    })
}

fn read_all<H, P: FnMut(usize, &Game) -> H>(
    inputs: &[Input],
    tx: Sender<(u64, Job<H>)>,
    credits: Receiver<()>,
    bytes: &AtomicU64,
    prepare: &mut P,
) {
    let mut seq = 0u64;
    let mut send = |job: Job<H>| -> bool {
        // One credit per job in flight: the consumer gives it back once it has used the
        // job's result in order. It bounds the results waiting for a slow batch too.
        if credits.recv().is_err() {
            return false;
        }
        let ok = tx.send((seq, job)).is_ok();
        seq += 1;
        ok
    };
    let mut done_before = 0u64;
    'files: for (i, input) in inputs.iter().enumerate() {
        if !send(Job::Start) {
            break;
        }
        match input::open(input) {
            Err(e) => {
                if !send(Job::Error(i, e.to_string())) {
                    break;
                }
            }
            Ok(r) => {
                let mut reader = Reader::new(r).with_max_game_size(MAX_GAME);
                let mut batch = Vec::with_capacity(BATCH_GAMES);
                let mut size = 0usize;
                loop {
                    match reader.next_game() {
                        Ok(Some(g)) => {
                            size += g.source.len();
                            let hint = prepare(i, &g);
                            batch.push((g, hint));
                            if batch.len() >= BATCH_GAMES || size >= BATCH_BYTES {
                                bytes.store(done_before + reader.bytes_read(), Ordering::Relaxed);
                                let full =
                                    std::mem::replace(&mut batch, Vec::with_capacity(BATCH_GAMES));
                                size = 0;
                                if !send(Job::Games(i, full)) {
                                    break 'files;
                                }
                            }
                        }
                        Ok(None) => break,
                        Err(e) => {
                            if !batch.is_empty() && !send(Job::Games(i, std::mem::take(&mut batch)))
                            {
                                break 'files;
                            }
                            if !send(Job::Error(i, e.to_string())) {
                                break 'files;
                            }
                            break;
                        }
                    }
                }
                if !batch.is_empty() && !send(Job::Games(i, batch)) {
                    break;
                }
                done_before += reader.bytes_read();
                bytes.store(done_before, Ordering::Relaxed);
            }
        }
        if !send(Job::End) {
            break;
        }
    }
}
