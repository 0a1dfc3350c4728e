//! The batch pipeline shared by every command: a reader thread cuts the inputs into pieces
//! (`pdn::syntax::pieces`, no parsing) and hands them out in jobs; worker threads read the
//! games of their pieces and run the command's work on them; results come back to the
//! calling thread in exactly the input order. With one job everything runs inline with the
//! sequential reader, which gives the same games as the pieces (tests/syntax_pieces.rs), so
//! the output does not depend on the number of jobs.
//!
//! What one piece needs from the ones before it — the game left over at its cut, the game
//! number, the variant the earlier games of the file showed — is small and is handed from
//! job to job in order (`Chain`): a worker reads its first piece as if nothing was left
//! over, waits for the previous job's hand-over (which comes as soon as that job has read
//! its pieces, before its work), re-reads the piece in the rare case that a game was left
//! over, and passes its own hand-over on before it does the work.

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded};
use pdn::app::gametype::FileHint;
use pdn::rules::Variant;
use pdn::syntax::pieces::{Piece, Pieces, Rest, read_piece};
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

/// Pieces are cut at a game start after this many bytes (or at any line after
/// `FORCED_PIECE`); a job holds pieces (of several small files) up to `JOB_BYTES`.
const PIECE_BYTES: usize = 32 * 1024;
const FORCED_PIECE: usize = 4 << 20;
const JOB_BYTES: usize = 32 * 1024;

/// One step of reading the inputs, in order.
enum Part {
    Start,
    Piece(usize, Piece),
    Error(usize, String),
    End,
}

/// What a job leaves to the next: the reading state at its end.
#[derive(Default)]
struct Carry {
    /// Games of the current file so far.
    games: usize,
    hint: FileHint,
    rest: Option<Rest>,
}

/// The hand-over from job to job, in sequence order.
struct Chain {
    state: Mutex<(u64, Carry)>,
    turn: Condvar,
}

impl Chain {
    fn new() -> Chain {
        Chain {
            state: Mutex::new((0, Carry::default())),
            turn: Condvar::new(),
        }
    }

    /// Wait for job `seq`'s turn and take what the job before it left.
    fn take(&self, seq: u64) -> Carry {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while s.0 != seq {
            s = self.turn.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        std::mem::take(&mut s.1)
    }

    /// Job `seq` is read: pass `carry` to the next one.
    fn give(&self, seq: u64, carry: Carry) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        *s = (seq + 1, carry);
        self.turn.notify_all();
    }
}

/// A job's parts, read: what the work runs on, in order.
enum Read {
    Start,
    Game(usize, Game, Option<Variant>),
    Error(usize, String),
    End,
}

/// Read the pieces of a job. `carry` gives what the job before left (it is asked for only
/// once the first piece has been read as if nothing was left); the returned carry is what
/// this job leaves.
fn read_job(parts: Vec<Part>, carry: impl FnOnce() -> Carry) -> (Vec<Read>, Carry) {
    let mut parts = parts.into_iter().peekable();
    // The first piece, read ahead of the hand-over.
    let early = match parts.peek_mut() {
        Some(Part::Piece(_, p)) => Some(read_piece(p, MAX_GAME)),
        _ => None,
    };
    let mut carry = carry();
    let mut early = early;
    let mut out = Vec::new();
    for part in parts {
        match part {
            Part::Start => {
                carry = Carry::default();
                out.push(Read::Start);
            }
            Part::Piece(i, mut piece) => {
                let ahead = early.take();
                let (games, rest) = match (ahead, carry.rest.take()) {
                    (Some(read), None | Some(Rest::Nothing)) => read,
                    (_, Some(rest)) => read_piece(&mut piece.after(rest), MAX_GAME),
                    (None, None) => read_piece(&mut piece, MAX_GAME),
                };
                for mut g in games {
                    carry.games += 1;
                    g.index = carry.games;
                    let hint = carry.hint.observe(i, &g);
                    out.push(Read::Game(i, g, hint));
                }
                carry.rest = Some(rest);
            }
            Part::Error(i, e) => {
                early = None;
                carry.rest = None;
                out.push(Read::Error(i, e));
            }
            Part::End => {
                early = None;
                carry.rest = None;
                out.push(Read::End);
            }
        }
    }
    (out, carry)
}

/// Run `work` on every game of the inputs with `jobs` threads, calling `consume` in input
/// order. `work` gets the input's index, the game (numbered in its file) and the variant
/// the earlier games of its file showed. `progress` is told the bytes read. An error from
/// `consume` (a closed pipe) stops everything and is returned.
pub fn run<R, W, C>(
    inputs: &[Input],
    jobs: usize,
    progress: &Progress,
    work: W,
    mut consume: C,
) -> io::Result<()>
where
    R: Send,
    W: Fn(usize, &Game, Option<Variant>) -> R + Sync,
    C: FnMut(Event<R>) -> io::Result<()>,
{
    let bytes = AtomicU64::new(0);
    if jobs <= 1 {
        // One thread: the sequential reader, game by game (the pieces give the same games:
        // tests/syntax_pieces.rs, and tests/cli_batch.rs compares the outputs).
        let mut done_before = 0u64;
        for (i, input) in inputs.iter().enumerate() {
            consume(Event::FileStart)?;
            match input::open(input) {
                Err(e) => consume(Event::FileError(i, e.to_string()))?,
                Ok(r) => {
                    let mut reader = Reader::new(r).with_max_game_size(MAX_GAME);
                    let mut hint = FileHint::default();
                    loop {
                        match reader.next_game() {
                            Ok(Some(g)) => {
                                let h = hint.observe(i, &g);
                                consume(Event::Game(work(i, &g, h)))?;
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
    crate::small_pages();
    let (job_tx, job_rx) = bounded::<(u64, Vec<Part>)>(jobs * 2);
    let (done_tx, done_rx) = bounded::<(u64, Vec<Event<R>>)>(jobs * 2);
    // At most this many jobs between the reader and the consumer (queued, being worked on,
    // or done and waiting for an earlier one): memory stays bounded even when one worker is
    // descheduled while the others run ahead.
    let window = jobs * 8;
    let (credit_tx, credit_rx) = bounded::<()>(window);
    for _ in 0..window {
        let _ = credit_tx.send(());
    }
    let chain = Chain::new();
    thread::scope(|s| {
        let bytes_r = &bytes;
        s.spawn(move || {
            let mut seq = 0u64;
            read_all(inputs, bytes_r, |parts| {
                // One credit per job in flight: the consumer gives it back once it has used
                // the job's results in order.
                if credit_rx.recv().is_err() {
                    return false;
                }
                let ok = job_tx.send((seq, parts)).is_ok();
                seq += 1;
                ok
            });
        });
        for _ in 0..jobs {
            let rx: Receiver<(u64, Vec<Part>)> = job_rx.clone();
            let tx: Sender<(u64, Vec<Event<R>>)> = done_tx.clone();
            let work = &work;
            let chain = &chain;
            s.spawn(move || {
                for (seq, parts) in rx.iter() {
                    let (read, carry) = read_job(parts, || chain.take(seq));
                    chain.give(seq, carry);
                    let done = read
                        .into_iter()
                        .map(|r| match r {
                            Read::Start => Event::FileStart,
                            Read::Game(i, g, hint) => Event::Game(work(i, &g, hint)),
                            Read::Error(i, e) => Event::FileError(i, e),
                            Read::End => Event::FileEnd,
                        })
                        .collect();
                    if tx.send((seq, done)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(job_rx);
        drop(done_tx);
        // Put the results back in order.
        let mut pending: BTreeMap<u64, Vec<Event<R>>> = BTreeMap::new();
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
                    for ev in done {
                        consume(ev)?;
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

/// Cut the inputs into jobs of parts, in order, and give each to `send` (false: stop).
fn read_all(inputs: &[Input], bytes: &AtomicU64, mut send: impl FnMut(Vec<Part>) -> bool) {
    let mut parts = Vec::new();
    let mut size = 0usize;
    let mut done_before = 0u64;
    for (i, input) in inputs.iter().enumerate() {
        parts.push(Part::Start);
        match input::open(input) {
            Err(e) => parts.push(Part::Error(i, e.to_string())),
            Ok(r) => {
                let mut pieces = Pieces::new(r).with_sizes(PIECE_BYTES, FORCED_PIECE);
                loop {
                    match pieces.next_piece() {
                        Ok(Some(p)) => {
                            size += p.cut;
                            parts.push(Part::Piece(i, p));
                            if size >= JOB_BYTES {
                                bytes.store(done_before + pieces.bytes_read(), Ordering::Relaxed);
                                size = 0;
                                if !send(std::mem::take(&mut parts)) {
                                    return;
                                }
                            }
                        }
                        Ok(None) => break,
                        Err(e) => {
                            parts.push(Part::Error(i, e.to_string()));
                            break;
                        }
                    }
                }
                done_before += pieces.bytes_read();
                bytes.store(done_before, Ordering::Relaxed);
            }
        }
        parts.push(Part::End);
    }
    if !parts.is_empty() {
        send(parts);
    }
}
