//! The batch pipeline shared by every command that reads games: one per-game worker, run
//! on the games of the inputs in input order by any number of threads. A command supplies
//! the state each thread keeps from game to game (its buffers) and the work on one game, a
//! [`GameRef`]: the game read through the visitor into a `Record` (no owned `Game`), with its
//! text, its place and its file's variant hint (`app::model::reading`). The results are consumed in
//! exactly the input order, so the output does not depend on the number of threads.
//!
//! With one thread everything runs inline: the sequential reader reads each game into the
//! record ([`FileGames`]) and the work runs on it at once. With more, the inputs are cut into
//! pieces (`syntax::pieces`, no parsing) and handed out in jobs of about 32 KB; each thread
//! takes the next job when it needs one, reads the games of its pieces into its [`Pool`] of
//! records and runs the work on them. The pieces give the games of the sequential reader
//! (tests/it/syntax_pieces.rs), and the variant hint is folded in file order in both cases
//! ([`FileHint`]), so the games and the work are the same.
//!
//! There are exactly `jobs` threads, the calling thread among them: it consumes the results
//! that are ready between its own jobs and sleeps only when it can neither consume nor take
//! a job. (A separate reader thread and a consumer thread, woken for every job, preempted
//! the workers on a two-core machine several thousand times a second.) A job may start only
//! within a window of `jobs * 8` jobs (`Plan::window`) after the last one consumed, so memory
//! stays bounded.
//!
//! The consumer borrows each result; a result made by another thread goes back to it once
//! consumed, to be dropped there, so that a thread's allocator gets back what it gave out
//! (freed by the calling thread, every result's memory came back cold, through the
//! allocator's cross-thread lists, and `validate --jobs 2` spent a fifth more CPU than two
//! processes on the halves of its input: BENCHMARKS.md, issue 31). A thread drops what came
//! back before it takes a job, so results consumed and not yet dropped are at most another
//! window's; those of games of over 1 MB (a huge game) are dropped where they are consumed.
//!
//! What one piece needs from the ones before it — the game left over at its cut, the game
//! number, the variant hint of the file so far — is small and is handed from job to job in
//! order (`Chain`): a thread reads its first piece as if nothing was left over, waits for the
//! previous job's hand-over (which comes as soon as that job has read its pieces, before its
//! work), re-reads the piece in the rare case that a game was left over, numbers its games
//! and folds their hints, and passes its own hand-over on before it does the work.
//!
//! The scheduler knows nothing of the commands: the inputs come through [`Inputs`] (opened
//! by index), the work and the consumer are closures, and the bytes read go to a closure too
//! (the progress bar). Process-wide settings (the allocator's) are made by the binary before
//! the run.

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, TryLockError};
use std::thread;
use std::time::{Duration, Instant};

use crate::syntax::Reader;
use crate::syntax::pieces::{FilePiece, Pieces, Rest, after_unless_deferred};

use crate::app::model::gametype::{FileHint, FileVariant};
use crate::app::model::reading::{FileGames, GameRef, Pool};

/// The inputs of a run, opened by index (in order, each once).
pub trait Inputs: Sync {
    /// How many inputs there are.
    fn count(&self) -> usize;
    /// Open input `i` for reading (decompressed, decoded: the bytes of a PDN file).
    ///
    /// # Errors
    ///
    /// Why the input cannot be opened; it is reported in its place and the run goes on.
    fn open(&self, i: usize) -> io::Result<Box<dyn io::Read + Send>>;
}

/// An input read up to its first error as if it ended there, so that the sequential reader
/// and the pieces alike read every game before the damage (the one it cuts short as the
/// file's last); the error is reported after them.
struct Deferred {
    inner: Box<dyn io::Read + Send>,
    read: u64,
    error: Slot,
    failed: bool,
}

impl Deferred {
    fn new(inner: Box<dyn io::Read + Send>) -> (Deferred, Slot) {
        let error = Arc::new(Mutex::new(None));
        let d = Deferred {
            inner,
            read: 0,
            error: Arc::clone(&error),
            failed: false,
        };
        (d, error)
    }
}

impl io::Read for Deferred {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.failed {
            return Ok(0);
        }
        match self.inner.read(buf) {
            Ok(n) => {
                self.read += n as u64;
                Ok(n)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Err(e),
            Err(e) => {
                self.failed = true;
                let mut slot = self.error.lock().unwrap_or_else(|e| e.into_inner());
                *slot = Some(format!("read error after {} bytes: {e}", self.read));
                Ok(0)
            }
        }
    }
}

/// Where a [`Deferred`] input leaves its error.
type Slot = Arc<Mutex<Option<String>>>;

/// The error an input's reading deferred, if any.
fn deferred(slot: &Mutex<Option<String>>) -> Option<String> {
    slot.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// What the consumer sees, in input order; `usize` is the index of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event<R> {
    /// A file starts.
    FileStart(usize),
    /// A game's result.
    Game(usize, R),
    /// A file could not be opened or read to its end.
    FileError(usize, String),
    /// A file ended (after its error, if any).
    FileEnd(usize),
}

/// The largest game the commands read (see `crate::syntax::COMMANDS_MAX_GAME_SIZE`).
pub const MAX_GAME: usize = crate::syntax::COMMANDS_MAX_GAME_SIZE;

/// How a run is cut: the number of threads and the sizes of pieces and jobs.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Threads, the calling one among them; 1 reads sequentially on the calling thread.
    pub jobs: usize,
    /// Pieces are cut at a game start after this many bytes…
    pub piece_bytes: usize,
    /// …and at any line break after this many (a file with no game start in sight, such as
    /// an archive on one line: the jobs in flight hold up to this much each, and the games
    /// of a piece are all held in a thread's pool at once, so it bounds the memory of such a
    /// file; a game longer than this spans pieces and is read once its bytes are gathered).
    pub forced_piece: usize,
    /// A job holds pieces (of several small files) up to this many bytes.
    pub job_bytes: usize,
    /// Jobs that may be in flight (taken and not yet consumed) per thread.
    pub window_per_job: u64,
    /// The largest game read.
    pub max_game: usize,
}

impl Plan {
    /// The commands' sizes for `jobs` threads.
    pub fn new(jobs: usize) -> Plan {
        Plan {
            jobs: jobs.max(1),
            piece_bytes: 32 * 1024,
            // 4 pieces: a one-line archive of 64 MB took 89 MB on two threads with pieces
            // of 1 MB (thousands of games each, held in the pools and the results in
            // flight), 18 MB on one (BENCHMARKS.md, issue 37).
            forced_piece: 128 << 10,
            job_bytes: 32 * 1024,
            window_per_job: 8,
            max_game: MAX_GAME,
        }
    }

    /// Jobs that may be in flight at once.
    pub fn window(&self) -> u64 {
        self.jobs as u64 * self.window_per_job.max(1)
    }
}

/// One step of reading the inputs, in order.
enum Part {
    Start(usize),
    Piece(usize, FilePiece),
    Error(usize, String),
    End(usize),
}

/// What a job leaves to the next: the reading state at its end.
#[derive(Default)]
struct Carry {
    /// Games of the current file so far.
    games: usize,
    /// The variant hint of the current file so far.
    hint: FileHint,
    rest: Option<Rest>,
}

/// The hand-over from job to job, in sequence order. A hand-over wakes nobody unless a job
/// sleeps waiting for one (a notification is a system call even when nobody waits).
struct Chain {
    state: Mutex<ChainState>,
    woken: Condvar,
    aborted: AtomicBool,
}

/// What [`Chain`] guards.
#[derive(Default)]
struct ChainState {
    turn: u64,
    carry: Carry,
    /// Threads asleep on `woken`.
    sleepers: usize,
}

impl Chain {
    fn new() -> Chain {
        Chain {
            state: Mutex::new(ChainState::default()),
            woken: Condvar::new(),
            aborted: AtomicBool::new(false),
        }
    }

    /// Wait for job `seq`'s turn and take what the job before it left.
    fn take(&self, seq: u64) -> Carry {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while s.turn != seq {
            if self.aborted.load(Ordering::SeqCst) {
                // The run stopped: this job's results will not be used.
                return Carry::default();
            }
            s.sleepers += 1;
            s = self.woken.wait(s).unwrap_or_else(|e| e.into_inner());
            s.sleepers -= 1;
        }
        std::mem::take(&mut s.carry)
    }

    /// Wake every waiter for good: the run stopped.
    fn abort(&self) {
        self.aborted.store(true, Ordering::SeqCst);
        drop(self.state.lock().unwrap_or_else(|e| e.into_inner()));
        self.woken.notify_all();
    }

    /// Job `seq` is read: pass `carry` to the next one.
    fn give(&self, seq: u64, carry: Carry) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.turn = seq + 1;
        s.carry = carry;
        let sleepers = s.sleepers;
        drop(s);
        if sleepers > 0 {
            self.woken.notify_all();
        }
    }
}

/// A job's parts, read: what the work runs on, in order (a game: its slot in the pool, and
/// its hint).
enum Read {
    Start(usize),
    Game(usize, usize, Option<FileVariant>),
    Error(usize, String),
    End(usize),
}

/// What a thread keeps from job to job: the command's state and the pool of records.
struct Worker<S> {
    state: S,
    pool: Pool,
}

/// The results of a job whose games' texts are longer than this in all are dropped where
/// they are consumed: one thread's results of a huge game, sent back while it works on the
/// next, would otherwise be held with those of that game (twice the memory), for a saving
/// that is nothing beside such a game's work.
const RETURNED_AT_MOST: usize = 1 << 20;

/// The first piece of a job is read before the hand-over only up to this size: a longer one
/// (a huge game's, gathered over many pieces) is read once, after it, and its longest game
/// keeps the piece's buffer as its text ([`Pool::read_last_piece`]) instead of a copy.
const EARLY_READ: usize = 1 << 20;

/// Read the pieces of a job into `pool`. `carry` gives what the job before left (it is asked
/// for only once the first piece has been read as if nothing was left); the returned carry
/// is what this job leaves.
fn read_job(
    parts: Vec<Part>,
    max_game: usize,
    pool: &mut Pool,
    carry: impl FnOnce() -> Carry,
) -> (Vec<Read>, Carry) {
    pool.clear();
    let mut parts = parts.into_iter().peekable();
    // The first piece, read ahead of the hand-over (into the pool's first slots), unless it
    // is long: its games' texts are copied out of it, as it may have to be read again.
    let mut early = match parts.peek_mut() {
        Some(Part::Piece(_, p)) if p.bytes.len() <= EARLY_READ => {
            Some(pool.read_piece(p, max_game))
        }
        _ => None,
    };
    let mut carry = carry();
    let mut out = Vec::new();
    for part in parts {
        match part {
            Part::Start(i) => {
                carry = Carry::default();
                out.push(Read::Start(i));
            }
            Part::Piece(i, piece) => {
                let ahead = early.take();
                let first = match (&ahead, &carry.rest) {
                    (Some(_), None | Some(Rest::Nothing)) => 0,
                    (Some(_), Some(_)) => {
                        // A game was left over: the piece is read again after it.
                        pool.clear();
                        0
                    }
                    (None, _) => pool.len(),
                };
                let rest = match (ahead, carry.rest.take()) {
                    (Some(rest), None | Some(Rest::Nothing)) => rest,
                    (_, Some(left)) => match after_unless_deferred(piece, left) {
                        Ok(piece) => pool.read_last_piece(piece, max_game),
                        Err(rest) => rest,
                    },
                    (None, None) => pool.read_last_piece(piece, max_game),
                };
                for k in first..pool.len() {
                    if let Some(slot) = pool.slot_mut(k) {
                        carry.games += 1;
                        slot.set_index(carry.games);
                        let hint = slot.fold_hint(&mut carry.hint, None);
                        out.push(Read::Game(i, k, hint));
                    }
                }
                carry.rest = Some(rest);
            }
            Part::Error(i, e) => {
                early = None;
                carry.rest = None;
                out.push(Read::Error(i, e));
            }
            Part::End(i) => {
                early = None;
                carry.rest = None;
                out.push(Read::End(i));
            }
        }
    }
    (out, carry)
}

/// Run `work` on every game of the inputs with `plan.jobs` threads, calling `consume` in
/// input order. Each thread makes its own state with `state` and hands it to `work` with
/// each game it reads. `consume` borrows each event: what it leaves in it is dropped on the
/// thread that made it (where it is consumed for games of over 1 MB). `bytes_read` is told,
/// now and then on the calling thread, the bytes read so far. An error from `consume` (a
/// closed pipe) stops everything and is returned.
///
/// # Errors
///
/// The first error of `consume`; the inputs' own errors are events.
pub fn run<S, R, C>(
    inputs: &dyn Inputs,
    plan: &Plan,
    bytes_read: &dyn Fn(u64),
    state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, &GameRef<'_>) -> R + Sync,
    mut consume: C,
) -> io::Result<()>
where
    R: Send,
    C: FnMut(&mut Event<R>) -> io::Result<()>,
{
    if plan.jobs <= 1 {
        return sequential(inputs, plan, bytes_read, &mut state(), &work, consume);
    }
    let bytes = AtomicU64::new(0);
    let shared: Shared<R> = Shared {
        feed: Mutex::new(Feed::new(inputs, plan, &bytes)),
        room: Condvar::new(),
        waiting_for_room: AtomicUsize::new(0),
        consumed: AtomicU64::new(0),
        window: plan.window(),
        max_game: plan.max_game,
        stop: AtomicBool::new(false),
        done: Mutex::new(Done::default()),
        ready: Condvar::new(),
        chain: Chain::new(),
        returned: (0..plan.jobs).map(|_| Mutex::new(Vec::new())).collect(),
    };
    thread::scope(|s| {
        // jobs - 1 helpers; the calling thread is the last worker and also puts the results
        // back in order, between its own jobs, so no thread waits on another to be woken.
        for id in 1..plan.jobs {
            let shared = &shared;
            let work = &work;
            let state = &state;
            s.spawn(move || {
                let _guard = StopOnPanic(shared);
                let mut worker = Worker {
                    state: state(),
                    pool: Pool::new(),
                };
                loop {
                    shared.drop_returned(id);
                    let Some((seq, parts)) = shared.take_job(true) else {
                        break;
                    };
                    let (done, home) = shared.do_job(seq, parts, &mut worker, work);
                    shared.deliver(seq, if home { id } else { 0 }, done);
                }
                // Its last results come back once consumed; its pool (a huge game's record,
                // perhaps) need not wait for that.
                drop(worker);
                shared.wait_for_end();
                shared.drop_returned(id);
            });
        }
        let guard = StopOnPanic(&shared);
        let mut worker = Worker {
            state: state(),
            pool: Pool::new(),
        };
        let result = shared.lead(&mut worker, &work, &mut consume, bytes_read, &bytes);
        drop(guard);
        // On error (or a helper's panic) the helpers stop at their next job.
        shared.halt();
        bytes_read(bytes.load(Ordering::Relaxed));
        result
    })
}

/// The one-thread run: each input read in order by the sequential reader into a record, and
/// the work done on each game as it is read.
fn sequential<S, R, C>(
    inputs: &dyn Inputs,
    plan: &Plan,
    bytes_read: &dyn Fn(u64),
    state: &mut S,
    work: &impl Fn(&mut S, &GameRef<'_>) -> R,
    mut consume: C,
) -> io::Result<()>
where
    C: FnMut(&mut Event<R>) -> io::Result<()>,
{
    let mut done_before = 0u64;
    let mut games = FileGames::new(0);
    for i in 0..inputs.count() {
        consume(&mut Event::FileStart(i))?;
        match inputs.open(i) {
            Err(e) => consume(&mut Event::FileError(i, e.to_string()))?,
            Ok(r) => {
                let (r, error) = Deferred::new(r);
                let mut reader = Reader::new(r).with_max_game_size(plan.max_game);
                games.start_file(i);
                loop {
                    match games.next(&mut reader, |g| work(state, g)) {
                        Ok(Some(done)) => {
                            consume(&mut Event::Game(i, done))?;
                            bytes_read(done_before + reader.bytes_read());
                        }
                        Ok(None) => {
                            if let Some(e) = deferred(&error) {
                                consume(&mut Event::FileError(i, e))?;
                            }
                            break;
                        }
                        Err(e) => {
                            consume(&mut Event::FileError(i, e.to_string()))?;
                            break;
                        }
                    }
                }
                done_before += reader.bytes_read();
            }
        }
        consume(&mut Event::FileEnd(i))?;
    }
    bytes_read(done_before);
    Ok(())
}

/// What the threads of a multi-job run share.
struct Shared<'a, R> {
    /// The inputs, cut into jobs on demand by whichever thread needs one.
    feed: Mutex<Feed<'a>>,
    /// Signalled (under `feed`) when jobs were consumed and a thread waits for room.
    room: Condvar,
    waiting_for_room: AtomicUsize,
    /// Jobs whose results were consumed: a job `seq` may start only below `consumed +
    /// window`, so memory stays bounded even when one thread is descheduled while the
    /// others run ahead.
    consumed: AtomicU64,
    window: u64,
    max_game: usize,
    stop: AtomicBool,
    /// Results waiting for their turn.
    done: Mutex<Done<R>>,
    /// Signalled when the result the leader waits for arrives.
    ready: Condvar,
    chain: Chain,
    /// Per thread (0: the calling one), the results it made that were consumed, to be
    /// dropped by it.
    returned: Vec<Mutex<Vec<Vec<Event<R>>>>>,
}

/// Results of jobs, by sequence number, with the thread that made them, until consumed in
/// order.
struct Done<R> {
    results: BTreeMap<u64, (usize, Vec<Event<R>>)>,
    /// The leader sleeps until this job's result arrives (`u64::MAX`: it does not sleep).
    awaited: u64,
}

impl<R> Default for Done<R> {
    fn default() -> Self {
        Done {
            results: BTreeMap::new(),
            awaited: u64::MAX,
        }
    }
}

/// Sets the stop flag if a helper panics, so that the leader does not wait for it.
struct StopOnPanic<'s, 'a, R>(&'s Shared<'a, R>);

impl<R> Drop for StopOnPanic<'_, '_, R> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.halt();
        }
    }
}

impl<'a, R> Shared<'a, R> {
    fn lock_feed(&self) -> std::sync::MutexGuard<'_, Feed<'a>> {
        self.feed.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lock_done(&self) -> std::sync::MutexGuard<'_, Done<R>> {
        self.done.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stop everything: no new jobs, nobody left waiting.
    fn halt(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.chain.abort();
        drop(self.lock_feed());
        self.room.notify_all();
        drop(self.lock_done());
        self.ready.notify_all();
    }

    /// The next job and its sequence number; `None` when the inputs are exhausted or the
    /// run stopped, and, unless `wait` (wait for room), when the window is full.
    fn take_job(&self, wait: bool) -> Option<(u64, Vec<Part>)> {
        let mut feed = self.lock_feed();
        loop {
            if self.stop.load(Ordering::SeqCst) || feed.exhausted {
                return None;
            }
            // The waiter count first, then the check: `lead` stores `consumed` first, then
            // reads the count, so one of the two sees the other.
            self.waiting_for_room.fetch_add(1, Ordering::SeqCst);
            let full = feed.seq >= self.consumed.load(Ordering::SeqCst) + self.window;
            if !full {
                self.waiting_for_room.fetch_sub(1, Ordering::SeqCst);
                break;
            }
            if !wait {
                self.waiting_for_room.fetch_sub(1, Ordering::SeqCst);
                return None;
            }
            feed = self.room.wait(feed).unwrap_or_else(|e| e.into_inner());
            self.waiting_for_room.fetch_sub(1, Ordering::SeqCst);
        }
        let parts = feed.next_job()?;
        let seq = feed.seq;
        feed.seq += 1;
        Some((seq, parts))
    }

    /// Read a job's games and run the work on them. Also says whether the results are to go
    /// back to the thread that made them once consumed (not those of games of more than
    /// [`RETURNED_AT_MOST`] bytes of text in all).
    fn do_job<S, W>(
        &self,
        seq: u64,
        parts: Vec<Part>,
        worker: &mut Worker<S>,
        work: &W,
    ) -> (Vec<Event<R>>, bool)
    where
        W: Fn(&mut S, &GameRef<'_>) -> R,
    {
        let Worker { state, pool } = worker;
        let (read, carry) = read_job(parts, self.max_game, pool, || self.chain.take(seq));
        self.chain.give(seq, carry);
        let pool = &*pool;
        // The games' texts (a huge game's gathered over the pieces of many jobs).
        let mut bytes = 0usize;
        let done = read
            .into_iter()
            .filter_map(|r| match r {
                Read::Start(i) => Some(Event::FileStart(i)),
                Read::Game(i, k, hint) => pool.game(k, i, hint).map(|g| {
                    bytes = bytes.saturating_add(g.text.len());
                    Event::Game(i, work(state, &g))
                }),
                Read::Error(i, e) => Some(Event::FileError(i, e)),
                Read::End(i) => Some(Event::FileEnd(i)),
            })
            .collect();
        (done, bytes <= RETURNED_AT_MOST)
    }

    /// Wait until the run is over (every result consumed, or the run stopped).
    fn wait_for_end(&self) {
        let mut feed = self.lock_feed();
        while !self.stop.load(Ordering::SeqCst) {
            feed = self.room.wait(feed).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Drop, on thread `id`, the results it made that were consumed.
    fn drop_returned(&self, id: usize) {
        let back =
            std::mem::take(&mut *self.returned[id].lock().unwrap_or_else(|e| e.into_inner()));
        drop(back);
    }

    /// Give a consumed result back to the thread `id` that made it (the calling thread's
    /// own is dropped at once).
    fn give_back(&self, id: usize, done: Vec<Event<R>>) {
        if id == 0 {
            drop(done);
        } else {
            self.returned[id]
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(done);
        }
    }

    /// A job's result is ready, to go back to thread `id` once consumed (0: dropped where
    /// consumed): wake the leader only if it waits for this one.
    fn deliver(&self, seq: u64, id: usize, done: Vec<Event<R>>) {
        let mut d = self.lock_done();
        d.results.insert(seq, (id, done));
        if d.awaited == seq {
            d.awaited = u64::MAX;
            drop(d);
            self.ready.notify_one();
        }
    }

    /// The calling thread's part: consume the results in order and, between them, do jobs
    /// itself; sleep only when there is neither a result to consume nor a job to take.
    fn lead<S, W, C>(
        &self,
        worker: &mut Worker<S>,
        work: &W,
        consume: &mut C,
        bytes_read: &dyn Fn(u64),
        bytes: &AtomicU64,
    ) -> io::Result<()>
    where
        W: Fn(&mut S, &GameRef<'_>) -> R,
        C: FnMut(&mut Event<R>) -> io::Result<()>,
    {
        let mut next = 0u64;
        let mut last_tick = Instant::now();
        loop {
            // Everything that is ready, in order.
            loop {
                let batch = {
                    let mut d = self.lock_done();
                    let mut batch = Vec::new();
                    while let Some(r) = d.results.remove(&(next + batch.len() as u64)) {
                        batch.push(r);
                    }
                    batch
                };
                if batch.is_empty() {
                    break;
                }
                for (id, mut done) in batch {
                    next += 1;
                    for ev in &mut done {
                        consume(ev)?;
                    }
                    self.give_back(id, done);
                }
                self.consumed.store(next, Ordering::SeqCst);
                if self.waiting_for_room.load(Ordering::SeqCst) > 0 {
                    drop(self.lock_feed());
                    self.room.notify_all();
                }
            }
            if last_tick.elapsed() >= Duration::from_millis(50) {
                bytes_read(bytes.load(Ordering::Relaxed));
                last_tick = Instant::now();
            }
            if self.stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            // Another thread cutting a job may be blocked reading a slow input (a pipe):
            // results that are ready go out first.
            let busy = matches!(self.feed.try_lock(), Err(TryLockError::WouldBlock));
            if busy && self.lock_done().results.contains_key(&next) {
                continue;
            }
            if let Some((seq, parts)) = self.take_job(false) {
                let (done, _) = self.do_job(seq, parts, worker, work);
                self.deliver(seq, 0, done);
                continue;
            }
            // Nothing to do but wait for the next result (or learn that all is done).
            let mut d = self.lock_done();
            if d.results.contains_key(&next) {
                continue;
            }
            let feed = self.lock_feed();
            if feed.exhausted && feed.seq == next {
                return Ok(());
            }
            drop(feed);
            d.awaited = next;
            let (d, _) = self
                .ready
                .wait_timeout(d, Duration::from_millis(50))
                .unwrap_or_else(|e| e.into_inner());
            drop(d);
        }
    }
}

/// The inputs, cut into jobs of parts in order on demand.
struct Feed<'a> {
    inputs: &'a dyn Inputs,
    plan: Plan,
    /// The next input to open.
    next_input: usize,
    /// The input being cut, and where its reading error goes.
    current: Option<(usize, Pieces<Deferred>, Slot)>,
    /// Bytes of the inputs before the current one.
    done_before: u64,
    /// Bytes read so far, for the progress bar.
    bytes: &'a AtomicU64,
    /// The sequence number of the next job.
    seq: u64,
    exhausted: bool,
}

impl<'a> Feed<'a> {
    fn new(inputs: &'a dyn Inputs, plan: &Plan, bytes: &'a AtomicU64) -> Feed<'a> {
        Feed {
            inputs,
            plan: *plan,
            next_input: 0,
            current: None,
            done_before: 0,
            bytes,
            seq: 0,
            exhausted: false,
        }
    }

    /// The next job: pieces up to about `job_bytes` (several small files together), with
    /// the starts, ends and errors of the files among them; `None` at the end.
    fn next_job(&mut self) -> Option<Vec<Part>> {
        let mut parts = Vec::new();
        let mut size = 0usize;
        loop {
            let Some((i, pieces, error)) = self.current.as_mut() else {
                if self.next_input >= self.inputs.count() {
                    self.exhausted = true;
                    return (!parts.is_empty()).then_some(parts);
                }
                let i = self.next_input;
                self.next_input += 1;
                parts.push(Part::Start(i));
                match self.inputs.open(i) {
                    Ok(r) => {
                        let (r, error) = Deferred::new(r);
                        let pieces = Pieces::new(r)
                            .with_sizes(self.plan.piece_bytes, self.plan.forced_piece);
                        self.current = Some((i, pieces, error));
                    }
                    Err(e) => {
                        parts.push(Part::Error(i, e.to_string()));
                        parts.push(Part::End(i));
                    }
                }
                continue;
            };
            let i = *i;
            match pieces.next_piece() {
                Ok(Some(p)) => {
                    size += p.cut;
                    parts.push(Part::Piece(i, p));
                    if size >= self.plan.job_bytes {
                        let read = self.done_before + pieces.bytes_read();
                        self.bytes.store(read, Ordering::Relaxed);
                        return Some(parts);
                    }
                    continue;
                }
                Ok(None) => {
                    if let Some(e) = deferred(error) {
                        parts.push(Part::Error(i, e));
                    }
                }
                Err(e) => parts.push(Part::Error(i, e.to_string())),
            }
            // The input is done (to its end, or to a read error).
            self.done_before += pieces.bytes_read();
            self.bytes.store(self.done_before, Ordering::Relaxed);
            self.current = None;
            parts.push(Part::End(i));
        }
    }
}

#[cfg(test)]
mod tests;
