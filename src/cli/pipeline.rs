//! The batch pipeline shared by every command: the inputs are cut into pieces
//! (`pdn::syntax::pieces`, no parsing) and handed out in jobs of about 32 KB; each thread
//! takes the next job when it needs one, reads the games of its pieces and runs the
//! command's work on them; results are consumed in exactly the input order. With one job
//! everything runs inline with the sequential reader, which gives the same games as the
//! pieces (tests/it/syntax_pieces.rs), so the output does not depend on the number of jobs.
//!
//! There are exactly `jobs` threads, the calling thread among them: it consumes the results
//! that are ready between its own jobs and sleeps only when it can neither consume nor take
//! a job. (A separate reader thread and a consumer thread, woken for every job, preempted the
//! workers on a two-core machine several thousand times a second.) A job may start only
//! within a window of `jobs * 8` jobs (`Plan::window`) after the last one consumed, so memory stays bounded.
//!
//! What one piece needs from the ones before it — the game left over at its cut, the game
//! number, the variant the earlier games of the file showed — is small and is handed from
//! job to job in order (`Chain`): a thread reads its first piece as if nothing was left
//! over, waits for the previous job's hand-over (which comes as soon as that job has read
//! its pieces, before its work), re-reads the piece in the rare case that a game was left
//! over, and passes its own hand-over on before it does the work.
//!
//! The scheduler knows nothing of the commands: the inputs come through [`Inputs`] (opened
//! by index), what the games of a file tell the later ones through [`Follow`], the work and
//! the consumer are closures, and the bytes read go to a closure too (the progress bar).
//! Process-wide settings (the allocator's) are made by `main` before the run.

use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, TryLockError};
use std::thread;
use std::time::{Duration, Instant};

use pdn::syntax::pieces::{Piece, Pieces, Rest, read_piece, read_piece_after};
use pdn::syntax::{Game, Reader, Visitor};

/// The inputs of a run, opened by index (in order, each once).
pub(super) trait Inputs: Sync {
    /// How many inputs there are.
    fn count(&self) -> usize;
    /// Open input `i` for reading (decompressed, decoded: the bytes of a PDN file).
    fn open(&self, i: usize) -> io::Result<Box<dyn io::Read + Send>>;
}

/// What the games of a file tell the later games of the same file, followed in file order
/// whatever the number of jobs: a fresh value (`Default`) at the start of each file.
pub(super) trait Follow: Default + Send {
    /// What a game's work is given.
    type Note: Send;
    /// The note for a game of input `file` (from the games before it), and learn from it.
    fn observe(&mut self, file: usize, game: &Game) -> Self::Note;
}

/// Nothing followed: every game stands alone.
impl Follow for () {
    type Note = ();
    fn observe(&mut self, _: usize, _: &Game) {}
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
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Event<R> {
    /// A file starts.
    FileStart(usize),
    /// A game's result.
    Game(usize, R),
    /// A file could not be opened or read to its end.
    FileError(usize, String),
    /// A file ended (after its error, if any).
    FileEnd(usize),
}

/// The largest game the commands read (see `pdn::syntax::COMMANDS_MAX_GAME_SIZE`).
const MAX_GAME: usize = pdn::syntax::COMMANDS_MAX_GAME_SIZE;

/// How a run is cut: the number of threads and the sizes of pieces and jobs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Plan {
    /// Threads, the calling one among them; 1 reads sequentially on the calling thread.
    pub jobs: usize,
    /// Pieces are cut at a game start after this many bytes, at any line after `forced`.
    pub piece_bytes: usize,
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
    pub(super) fn new(jobs: usize) -> Plan {
        Plan {
            jobs: jobs.max(1),
            piece_bytes: 32 * 1024,
            forced_piece: 4 << 20,
            job_bytes: 32 * 1024,
            window_per_job: 8,
            max_game: MAX_GAME,
        }
    }

    /// Jobs that may be in flight at once.
    pub(super) fn window(&self) -> u64 {
        self.jobs as u64 * self.window_per_job.max(1)
    }
}

/// One step of reading the inputs, in order.
enum Part {
    Start(usize),
    Piece(usize, Piece),
    Error(usize, String),
    End(usize),
}

/// What a job leaves to the next: the reading state at its end.
struct Carry<F> {
    /// Games of the current file so far.
    games: usize,
    follow: F,
    rest: Option<Rest>,
}

impl<F: Default> Default for Carry<F> {
    fn default() -> Self {
        Carry {
            games: 0,
            follow: F::default(),
            rest: None,
        }
    }
}

/// The hand-over from job to job, in sequence order.
struct Chain<F> {
    state: Mutex<(u64, Carry<F>)>,
    turn: Condvar,
    aborted: AtomicBool,
}

impl<F: Default> Chain<F> {
    fn new() -> Chain<F> {
        Chain {
            state: Mutex::new((0, Carry::default())),
            turn: Condvar::new(),
            aborted: AtomicBool::new(false),
        }
    }

    /// Wait for job `seq`'s turn and take what the job before it left.
    fn take(&self, seq: u64) -> Carry<F> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while s.0 != seq {
            if self.aborted.load(Ordering::SeqCst) {
                // The run stopped: this job's results will not be used.
                return Carry::default();
            }
            s = self.turn.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        std::mem::take(&mut s.1)
    }

    /// Wake every waiter for good: the run stopped.
    fn abort(&self) {
        self.aborted.store(true, Ordering::SeqCst);
        drop(self.state.lock().unwrap_or_else(|e| e.into_inner()));
        self.turn.notify_all();
    }

    /// Job `seq` is read: pass `carry` to the next one.
    fn give(&self, seq: u64, carry: Carry<F>) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        *s = (seq + 1, carry);
        self.turn.notify_all();
    }
}

/// A job's parts, read: what the work runs on, in order.
enum Read<N> {
    Start(usize),
    Game(usize, Game, N),
    Error(usize, String),
    End(usize),
}

/// Read the pieces of a job. `carry` gives what the job before left (it is asked for only
/// once the first piece has been read as if nothing was left); the returned carry is what
/// this job leaves.
fn read_job<F: Follow>(
    parts: Vec<Part>,
    max_game: usize,
    carry: impl FnOnce() -> Carry<F>,
) -> (Vec<Read<F::Note>>, Carry<F>) {
    let mut parts = parts.into_iter().peekable();
    // The first piece, read ahead of the hand-over.
    let early = match parts.peek_mut() {
        Some(Part::Piece(_, p)) => Some(read_piece(p, max_game)),
        _ => None,
    };
    let mut carry = carry();
    let mut early = early;
    let mut out = Vec::new();
    for part in parts {
        match part {
            Part::Start(i) => {
                carry = Carry::default();
                out.push(Read::Start(i));
            }
            Part::Piece(i, mut piece) => {
                let ahead = early.take();
                let (games, rest) = match (ahead, carry.rest.take()) {
                    (Some(read), None | Some(Rest::Nothing)) => read,
                    (_, Some(rest)) => read_piece_after(piece, rest, max_game),
                    (None, None) => read_piece(&mut piece, max_game),
                };
                for mut g in games {
                    carry.games += 1;
                    g.index = carry.games;
                    let note = carry.follow.observe(i, &g);
                    out.push(Read::Game(i, g, note));
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
/// input order. `work` gets the input's index, the game (numbered in its file) and the note
/// of `F` (what the earlier games of its file showed). `bytes_read` is told, now and then on
/// the calling thread, the bytes read so far. An error from `consume` (a closed pipe) stops
/// everything and is returned.
pub(super) fn run<F, R, W, C>(
    inputs: &dyn Inputs,
    plan: &Plan,
    bytes_read: &dyn Fn(u64),
    work: W,
    mut consume: C,
) -> io::Result<()>
where
    F: Follow,
    R: Send,
    W: Fn(usize, Game, F::Note) -> R + Sync,
    C: FnMut(Event<R>) -> io::Result<()>,
{
    if plan.jobs <= 1 {
        // One thread: the sequential reader, game by game (the pieces give the same games:
        // tests/it/syntax_pieces.rs, and tests/it/cli_batch.rs compares the outputs).
        return sequential(
            inputs,
            plan,
            bytes_read,
            |_| F::default(),
            |i, follow, reader| {
                Ok(reader.next_game()?.map(|g| {
                    let note = follow.observe(i, &g);
                    work(i, g, note)
                }))
            },
            consume,
        );
    }
    let bytes = AtomicU64::new(0);
    let shared: Shared<F, R> = Shared {
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
    };
    thread::scope(|s| {
        // jobs - 1 helpers; the calling thread is the last worker and also puts the results
        // back in order, between its own jobs, so no thread waits on another to be woken.
        for _ in 1..plan.jobs {
            let shared = &shared;
            let work = &work;
            s.spawn(move || {
                let _guard = StopOnPanic(shared);
                while let Some((seq, parts)) = shared.take_job(true) {
                    let done = shared.do_job(seq, parts, work);
                    shared.deliver(seq, done);
                }
            });
        }
        let guard = StopOnPanic(&shared);
        let result = shared.lead(&work, &mut consume, bytes_read, &bytes);
        drop(guard);
        // On error (or a helper's panic) the helpers stop at their next job.
        shared.halt();
        bytes_read(bytes.load(Ordering::Relaxed));
        result
    })
}

/// Read every game of the inputs on the calling thread, each into a visitor made for its
/// input (`visitor(i)`, with the reader's [`Reader::read_game`]), and hand each visitor's
/// output to `consume` as the game's result: the one-job run of [`run`] without an owned
/// `Game`. `bytes_read` as for [`run`].
pub(super) fn run_visiting<V, C>(
    inputs: &dyn Inputs,
    plan: &Plan,
    bytes_read: &dyn Fn(u64),
    visitor: impl FnMut(usize) -> V,
    consume: C,
) -> io::Result<()>
where
    V: Visitor,
    C: FnMut(Event<V::Output>) -> io::Result<()>,
{
    sequential(
        inputs,
        plan,
        bytes_read,
        visitor,
        |_, v, reader| reader.read_game(v),
        consume,
    )
}

/// The sequential reader's loop over the inputs: `state(i)` at the start of input `i`, and
/// `next` reads its next game's result (`None` at its end).
fn sequential<S, R, C>(
    inputs: &dyn Inputs,
    plan: &Plan,
    bytes_read: &dyn Fn(u64),
    mut state: impl FnMut(usize) -> S,
    mut next: impl FnMut(usize, &mut S, &mut Reader<Deferred>) -> io::Result<Option<R>>,
    mut consume: C,
) -> io::Result<()>
where
    C: FnMut(Event<R>) -> io::Result<()>,
{
    let mut done_before = 0u64;
    for i in 0..inputs.count() {
        consume(Event::FileStart(i))?;
        match inputs.open(i) {
            Err(e) => consume(Event::FileError(i, e.to_string()))?,
            Ok(r) => {
                let (r, error) = Deferred::new(r);
                let mut reader = Reader::new(r).with_max_game_size(plan.max_game);
                let mut s = state(i);
                loop {
                    match next(i, &mut s, &mut reader) {
                        Ok(Some(done)) => {
                            consume(Event::Game(i, done))?;
                            bytes_read(done_before + reader.bytes_read());
                        }
                        Ok(None) => {
                            if let Some(e) = deferred(&error) {
                                consume(Event::FileError(i, e))?;
                            }
                            break;
                        }
                        Err(e) => {
                            consume(Event::FileError(i, e.to_string()))?;
                            break;
                        }
                    }
                }
                done_before += reader.bytes_read();
            }
        }
        consume(Event::FileEnd(i))?;
    }
    bytes_read(done_before);
    Ok(())
}

/// What the threads of a multi-job run share.
struct Shared<'a, F: Follow, R> {
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
    chain: Chain<F>,
}

/// Results of jobs, by sequence number, until consumed in order.
struct Done<R> {
    results: BTreeMap<u64, Vec<Event<R>>>,
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
struct StopOnPanic<'s, 'a, F: Follow, R>(&'s Shared<'a, F, R>);

impl<F: Follow, R> Drop for StopOnPanic<'_, '_, F, R> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.halt();
        }
    }
}

impl<'a, F: Follow, R> Shared<'a, F, R> {
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

    /// Read a job's games and run the work on them.
    fn do_job<W>(&self, seq: u64, parts: Vec<Part>, work: &W) -> Vec<Event<R>>
    where
        W: Fn(usize, Game, F::Note) -> R,
    {
        let (read, carry) = read_job(parts, self.max_game, || self.chain.take(seq));
        self.chain.give(seq, carry);
        read.into_iter()
            .map(|r| match r {
                Read::Start(i) => Event::FileStart(i),
                Read::Game(i, g, note) => Event::Game(i, work(i, g, note)),
                Read::Error(i, e) => Event::FileError(i, e),
                Read::End(i) => Event::FileEnd(i),
            })
            .collect()
    }

    /// A job's result is ready: wake the leader only if it waits for this one.
    fn deliver(&self, seq: u64, done: Vec<Event<R>>) {
        let mut d = self.lock_done();
        d.results.insert(seq, done);
        if d.awaited == seq {
            d.awaited = u64::MAX;
            drop(d);
            self.ready.notify_one();
        }
    }

    /// The calling thread's part: consume the results in order and, between them, do jobs
    /// itself; sleep only when there is neither a result to consume nor a job to take.
    fn lead<W, C>(
        &self,
        work: &W,
        consume: &mut C,
        bytes_read: &dyn Fn(u64),
        bytes: &AtomicU64,
    ) -> io::Result<()>
    where
        W: Fn(usize, Game, F::Note) -> R,
        C: FnMut(Event<R>) -> io::Result<()>,
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
                for done in batch {
                    next += 1;
                    for ev in done {
                        consume(ev)?;
                    }
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
                let done = self.do_job(seq, parts, work);
                self.deliver(seq, done);
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
