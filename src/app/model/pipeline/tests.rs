//! The scheduler on in-memory inputs: order kept whatever the number of threads, a
//! consumer error stops every thread, the window bounds what is in flight, read errors
//! are reported in place.

use std::io::Read;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::*;
use crate::app::model::gametype::FileVariant;
use crate::rules::Variant;

/// An input: its bytes, whether it opens, and where a read fails.
#[derive(Clone)]
struct Mem {
    bytes: Vec<u8>,
    opens: bool,
    fail_at: Option<usize>,
}

struct Files(Vec<Mem>);

/// Reads `bytes`, a few at a time, and fails at `fail_at`.
struct Failing {
    bytes: Vec<u8>,
    pos: usize,
    fail_at: Option<usize>,
}

impl Read for Failing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.fail_at.is_some_and(|f| self.pos >= f) {
            return Err(io::Error::other("disk on fire"));
        }
        let end = self
            .fail_at
            .unwrap_or(self.bytes.len())
            .min(self.bytes.len());
        let n = buf.len().min(end - self.pos).min(1000);
        buf[..n].copy_from_slice(&self.bytes[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl Inputs for Files {
    fn count(&self) -> usize {
        self.0.len()
    }
    fn open(&self, i: usize) -> io::Result<Box<dyn io::Read + Send>> {
        let m = &self.0[i];
        if !m.opens {
            return Err(io::Error::new(io::ErrorKind::NotFound, "no such file"));
        }
        Ok(Box::new(Failing {
            bytes: m.bytes.clone(),
            pos: 0,
            fail_at: m.fail_at,
        }))
    }
}

/// The variant game `g` of a file shows for certain: every seventh a GameType (English),
/// every fifth a square above 32 (international), the others nothing.
fn shows(g: usize) -> Option<Variant> {
    if g % 7 == 3 {
        Some(Variant::English)
    } else if g % 5 == 1 {
        Some(Variant::International)
    } else {
        None
    }
}

fn games(file: usize, n: usize) -> Vec<u8> {
    let mut s = String::new();
    for g in 1..=n {
        match shows(g) {
            Some(Variant::English) => s.push_str(&format!(
                "[Event \"f{file} g{g}\"]\n[GameType \"21\"]\n\n1. 9-13 22-18 *\n\n"
            )),
            Some(_) => s.push_str(&format!(
                "[Event \"f{file} g{g}\"]\n\n1. 32-28 19-23 2. 37-32 14-19 *\n\n"
            )),
            None => s.push_str(&format!(
                "[Event \"f{file} g{g}\"]\n\n1. 32-28 19-23 2. 28x19 14x23 *\n\n"
            )),
        }
    }
    s.into_bytes()
}

/// The hints of the games of a file of `n` games, as one `FileHint` gives them when fed
/// the games one by one in order: what the games before each showed.
fn hints_of(n: usize) -> Vec<Option<FileVariant>> {
    let mut hint = FileHint::default();
    crate::syntax::read_games(&games(0, n))
        .iter()
        .map(|g| hint.observe(g))
        .collect()
}

fn good(file: usize, n: usize) -> Mem {
    Mem {
        bytes: games(file, n),
        opens: true,
        fail_at: None,
    }
}

/// Small pieces and jobs, so that even small inputs make many jobs.
fn plan(jobs: usize) -> Plan {
    Plan {
        piece_bytes: 100,
        forced_piece: 4096,
        job_bytes: 200,
        ..Plan::new(jobs)
    }
}

/// A game as the work sees it: (file, its number, its Event tag, its hint).
type Seen = (usize, usize, String, Option<FileVariant>);

/// Every event of a run.
fn events(files: &Files, plan: &Plan) -> Vec<Event<Seen>> {
    let mut out = Vec::new();
    run(
        files,
        plan,
        &|_| {},
        || (),
        |(), g| {
            (
                g.file,
                g.index(),
                g.record.tag("Event").unwrap_or("").to_owned(),
                g.hint,
            )
        },
        |ev| {
            out.push(ev.clone());
            Ok(())
        },
    )
    .unwrap();
    out
}

#[test]
fn order_is_kept_whatever_the_number_of_threads() {
    let files = Files(
        (0..7)
            .map(|f| good(f, [1, 40, 3, 0, 200, 2, 17][f]))
            .collect(),
    );
    let one = events(&files, &plan(1));
    let games = one.iter().filter(|e| matches!(e, Event::Game(..))).count();
    assert_eq!(games, 263);
    // Each file: start, its games numbered from 1 with their own tags, end.
    let mut k = 0;
    for f in 0..7 {
        assert_eq!(one[k], Event::FileStart(f));
        k += 1;
        let mut g = 0;
        let hints = hints_of([1, 40, 3, 0, 200, 2, 17][f]);
        while let Event::Game(i, (file, index, tag, hint)) = &one[k] {
            g += 1;
            let want = format!("f{f} g{g}");
            assert_eq!(
                (*i, *file, *index, tag.as_str(), *hint),
                (f, f, g, &*want, hints[g - 1])
            );
            k += 1;
        }
        assert_eq!(one[k], Event::FileEnd(f));
        k += 1;
    }
    for jobs in [2, 3, 5] {
        assert!(events(&files, &plan(jobs)) == one, "--jobs {jobs}");
        // The commands' own sizes too.
        assert!(events(&files, &Plan::new(jobs)) == one, "--jobs {jobs}");
    }
}

#[test]
fn read_errors_are_reported_in_place() {
    let mut damaged = good(2, 50);
    // In the middle of the 30th game.
    damaged.fail_at = Some(damaged.bytes.len() * 59 / 100);
    let files = Files(vec![
        good(0, 5),
        Mem {
            opens: false,
            ..good(1, 5)
        },
        damaged,
        good(3, 5),
    ]);
    for jobs in [1, 2, 3] {
        let ev = events(&files, &plan(jobs));
        let at = |e: &Event<_>| ev.iter().position(|x| x == e).unwrap();
        // The file that does not open: start, error, end.
        let start = at(&Event::FileStart(1));
        assert!(matches!(&ev[start + 1], Event::FileError(1, e) if e == "no such file"));
        assert_eq!(ev[start + 2], Event::FileEnd(1));
        // The damaged file: the games before the damage, the error, the end.
        let start = at(&Event::FileStart(2));
        let error = ev
            .iter()
            .position(|e| matches!(e, Event::FileError(2, m) if m.ends_with("disk on fire")))
            .unwrap();
        // 29 whole games and the one cut short, as the file's last game.
        assert_eq!(
            error - start - 1,
            30,
            "--jobs {jobs}: the games before the damage"
        );
        assert!(matches!(&ev[error - 1], Event::Game(2, (_, 30, _, _))));
        assert_eq!(ev[error + 1], Event::FileEnd(2));
        // The files after it are read whole.
        let games = ev
            .iter()
            .filter(|e| matches!(e, Event::Game(3, ..)))
            .count();
        assert_eq!(games, 5);
    }
}

#[test]
fn a_consumer_error_stops_every_thread() {
    let files = Files((0..4).map(|f| good(f, 3000)).collect());
    for jobs in [1, 2, 4] {
        let worked = AtomicU64::new(0);
        let mut seen = 0;
        let start = Instant::now();
        let r = run(
            &files,
            &plan(jobs),
            &|_| {},
            || (),
            |(), _| {
                worked.fetch_add(1, Ordering::Relaxed);
            },
            |ev| {
                if matches!(ev, Event::Game(..)) {
                    seen += 1;
                    if seen == 100 {
                        return Err(io::Error::from(io::ErrorKind::BrokenPipe));
                    }
                }
                Ok(())
            },
        );
        // `run` returns only when every thread has ended (a scope), with the error.
        assert_eq!(r.unwrap_err().kind(), io::ErrorKind::BrokenPipe);
        assert!(start.elapsed() < Duration::from_secs(30));
        let worked = worked.load(Ordering::Relaxed);
        assert!(
            worked < 2000,
            "--jobs {jobs}: {worked} games worked on after the stop"
        );
    }
}

#[test]
fn the_window_bounds_the_jobs_in_flight() {
    let files = Files((0..3).map(|f| good(f, 1500)).collect());
    for jobs in [2, 3] {
        let plan = Plan {
            piece_bytes: 1,
            job_bytes: 1,
            window_per_job: 2,
            ..plan(jobs)
        };
        let produced = AtomicU64::new(0);
        let consumed = AtomicU64::new(0);
        let most = AtomicU64::new(0);
        run(
            &files,
            &plan,
            &|_| {},
            || (),
            |(), _| {
                let p = produced.fetch_add(1, Ordering::SeqCst) + 1;
                let c = consumed.load(Ordering::SeqCst);
                most.fetch_max(p - c, Ordering::SeqCst);
            },
            |ev| {
                if matches!(ev, Event::Game(..)) {
                    // A slow consumer: the workers would run far ahead without the window.
                    std::thread::sleep(Duration::from_micros(50));
                    consumed.fetch_add(1, Ordering::SeqCst);
                }
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(consumed.load(Ordering::SeqCst), 4500);
        // A job here is one piece of one or two games.
        let bound = (plan.window() + 1) * 2;
        let most = most.load(Ordering::SeqCst);
        assert!(
            most <= bound,
            "--jobs {jobs}: {most} games in flight, bound {bound}"
        );
    }
}

/// An archive on one line (no game start at a line's start, no line break) is cut into
/// pieces of at most `forced_piece` bytes, so that each job in flight, and the pool that
/// reads it, holds a bounded number of games: the window then bounds what is in flight.
#[test]
fn a_one_line_archive_is_cut_into_bounded_jobs() {
    let game = "[Event \"e\"] 1. 32-28 19-23 2. 28x19 14x23 * ";
    let text = game.repeat((1 << 20) / game.len());
    let files = Files(vec![Mem {
        bytes: text.clone().into_bytes(),
        opens: true,
        fail_at: None,
    }]);
    let plan = Plan::new(2);
    let bytes = AtomicU64::new(0);
    let mut feed = Feed::new(&files, &plan, &bytes);
    let bound = plan.job_bytes + plan.forced_piece + crate::syntax::pieces::LOOK_PAST_CUT;
    let (mut jobs, mut cut) = (0, 0);
    while let Some(parts) = feed.next_job() {
        let held: usize = parts
            .iter()
            .map(|p| match p {
                Part::Piece(_, piece) => piece.bytes.len(),
                _ => 0,
            })
            .sum();
        assert!(held <= bound, "a job of {held} bytes, bound {bound}");
        cut += parts
            .iter()
            .map(|p| match p {
                Part::Piece(_, piece) => piece.cut,
                _ => 0,
            })
            .sum::<usize>();
        jobs += 1;
    }
    assert_eq!(cut, text.len());
    assert!(jobs >= (1 << 20) / bound, "{jobs} jobs");
    // And the games are all read, in order, on two threads as on one.
    let one = events(&files, &Plan::new(1));
    let two = events(&files, &plan);
    assert_eq!(one.len(), text.len() / game.len() + 2);
    assert_eq!(one, two);
}

/// Long games (over the 64 KiB from which a game keeps its piece's buffer as its text, and
/// over the 1 MiB up to which a job's first piece is read ahead), among short ones, spread
/// over lines or on one line, after a byte-order mark: every game's text, place and number
/// are those of the sequential reader at any number of threads and piece sizes.
#[test]
fn long_games_keep_their_text_whatever_the_number_of_threads() {
    let moves = |n: usize, sep: &str| {
        (1..=n)
            .map(|k| {
                if k % 2 == 1 {
                    format!("{k}. 50-45 1-6")
                } else {
                    format!("{k}. 45-50 6-1")
                }
            })
            .collect::<Vec<_>>()
            .join(sep)
    };
    let kings = "[GameType \"20\"]\n[FEN \"W:WK50:BK1\"]\n";
    let mut files = Vec::new();
    for (bom, sep, n) in [
        ("", "\n", 7_000),
        ("\u{feff}", " ", 7_000),
        ("", " ", 90_000),
        ("\u{feff}", "\n", 90_000),
    ] {
        let text = format!(
            "{bom}[Event \"a\"]\n\n1. 32-28 *\n\n{kings}\n{}\n\n[Event \"b\"]\n\n1. 32-28 *\n\n{kings}\n{} *\n\n[Event \"Jos\u{e9}\"]\n1. 32-28 *\n",
            moves(n, sep),
            moves(n / 3, sep)
        );
        files.push(Mem {
            bytes: text.into_bytes(),
            opens: true,
            fail_at: None,
        });
    }
    let files = Files(files);
    type Got = (usize, usize, String, u64, u32, u32);
    let all = |plan: &Plan| {
        let mut out: Vec<Got> = Vec::new();
        run(
            &files,
            plan,
            &|_| {},
            || (),
            |(), g| {
                (
                    g.file,
                    g.index(),
                    g.text.to_owned(),
                    g.offset,
                    g.line,
                    g.column,
                )
            },
            |ev| {
                if let Event::Game(_, g) = ev {
                    out.push(std::mem::take(g));
                }
                Ok(())
            },
        )
        .unwrap();
        out
    };
    let want = all(&Plan::new(1));
    assert_eq!(
        want.len(),
        4 * 5,
        "{:?}",
        want.iter()
            .map(|g| (g.0, g.1, g.2.len()))
            .collect::<Vec<_>>()
    );
    assert!(want.iter().any(|g| g.2.len() > 1 << 20));
    assert!(
        want.iter()
            .any(|g| (64 << 10..1 << 20).contains(&g.2.len()))
    );
    for jobs in [2, 3] {
        for plan in [Plan::new(jobs), plan(jobs)] {
            let got = all(&plan);
            assert_eq!(got.len(), want.len(), "{plan:?}");
            for (g, w) in got.iter().zip(&want) {
                assert!(g == w, "{plan:?}: game {} of file {}", w.1, w.0);
            }
        }
    }
}

/// A result that tells, when dropped, whether it is dropped on the thread that made it.
struct Homed<'a> {
    made_on: std::thread::ThreadId,
    away: &'a AtomicU64,
    home: &'a AtomicU64,
}

impl Drop for Homed<'_> {
    fn drop(&mut self) {
        let here = std::thread::current().id() == self.made_on;
        if here { self.home } else { self.away }.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn a_result_is_dropped_on_the_thread_that_made_it() {
    let files = Files((0..3).map(|f| good(f, 800)).collect());
    for jobs in [1, 2, 3] {
        let plan = Plan {
            piece_bytes: 1,
            job_bytes: 1,
            ..plan(jobs)
        };
        let (away, home) = (AtomicU64::new(0), AtomicU64::new(0));
        let mut consumed = 0u64;
        run(
            &files,
            &plan,
            &|_| {},
            || (),
            |(), _| Homed {
                made_on: std::thread::current().id(),
                away: &away,
                home: &home,
            },
            |ev| {
                consumed += u64::from(matches!(ev, Event::Game(..)));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(consumed, 2400, "--jobs {jobs}");
        assert_eq!(home.load(Ordering::SeqCst), 2400, "--jobs {jobs}");
        assert_eq!(away.load(Ordering::SeqCst), 0, "--jobs {jobs}");
    }
}

/// A result that counts, when dropped, where: on the thread that made it, on the calling
/// thread (the consumer's), or elsewhere; by the size of its game.
struct Placed<'a> {
    made_on: std::thread::ThreadId,
    caller: std::thread::ThreadId,
    huge: bool,
    /// [small at home, small away, huge on the caller, huge elsewhere]
    counts: &'a [AtomicU64; 4],
}

impl Drop for Placed<'_> {
    fn drop(&mut self) {
        let here = std::thread::current().id();
        let k = match self.huge {
            false if here == self.made_on => 0,
            false => 1,
            true if here == self.caller => 2,
            true => 3,
        };
        self.counts[k].fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn a_huge_games_result_is_dropped_where_it_is_consumed() {
    // Games of over 1 MB (gathered over many pieces and jobs) among small ones.
    let huge = format!(
        "[Event \"huge\"]\n\n1. 32-28 {{{}}} 19-23 *\n\n",
        "a".repeat(RETURNED_AT_MOST + 10)
    );
    let mut bytes = Vec::new();
    for _ in 0..3 {
        bytes.extend_from_slice(&games(0, 40));
        bytes.extend_from_slice(huge.as_bytes());
    }
    let files = Files(vec![Mem {
        bytes,
        opens: true,
        fail_at: None,
    }]);
    let caller = std::thread::current().id();
    for jobs in [2, 3] {
        let counts = [const { AtomicU64::new(0) }; 4];
        run(
            &files,
            &plan(jobs),
            &|_| {},
            || (),
            |(), g| Placed {
                made_on: std::thread::current().id(),
                caller,
                huge: g.text.len() > RETURNED_AT_MOST,
                counts: &counts,
            },
            |_| Ok(()),
        )
        .unwrap();
        let got = counts.each_ref().map(|c| c.load(Ordering::SeqCst));
        // (Small games read by the job of a huge one go with it: the piece that ends a huge
        // game holds the games after it up to its cut.)
        assert_eq!(got[0] + got[1], 120, "--jobs {jobs}: {got:?}");
        assert_eq!(got[2..], [3, 0], "--jobs {jobs}: {got:?}");
    }
}
