//! The progress bar on standard error (indicatif): bytes done of total, games per second,
//! errors so far, time left. It fits the terminal's width (fields are dropped, least useful
//! first, before the bar gets narrower than 10 columns) and is never drawn to the last column.
//! Shown only on a terminal and not with `--quiet` or `--no-progress`. Messages printed while
//! it runs ([`message`], [`note`]) go above it; the bar is cleared at the end and by the
//! signal handler ([`clear_for_exit`]).

use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::{HumanBytes, ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// The bar being drawn, if any: for messages and for the signal handler.
static BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);

fn bar() -> std::sync::MutexGuard<'static, Option<ProgressBar>> {
    BAR.lock().unwrap_or_else(|e| e.into_inner())
}

/// `--quiet`: only errors on standard error.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Leave only errors on standard error from now on (`--quiet`).
pub(super) fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// True with `--quiet`.
pub(super) fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// Print a line that is no error (a summary, a note) on standard error, above the bar;
/// nothing with `--quiet`.
pub(super) fn note(line: &str) {
    if !quiet() {
        message(line);
    }
}

/// Print a line on standard error, above the bar if one is drawn (an error: also with
/// `--quiet`). Standard error that cannot be written (closed, a full disk, a pipe whose
/// reader left) loses the line, never the run: the outputs are what matters.
pub(super) fn message(line: &str) {
    let put = || {
        let mut err = io::stderr().lock();
        let _ = err.write_all(line.as_bytes());
        let _ = err.write_all(b"\n");
    };
    let guard = bar();
    match guard.as_ref() {
        Some(b) => b.suspend(put),
        None => put(),
    }
}

/// A line on standard error once the bar is cleared for good ([`clear_for_exit`]: the lock
/// of the bar is held until the process exits).
pub(super) fn message_after_exit(line: &str) {
    let mut err = io::stderr().lock();
    let _ = err.write_all(line.as_bytes());
    let _ = err.write_all(b"\n");
}

/// Clear the bar for good: the process is about to exit on a signal.
pub(super) fn clear_for_exit() {
    let mut guard = bar();
    if let Some(b) = guard.take() {
        b.finish_and_clear();
    }
    // Held until the process exits: nothing draws the bar again.
    std::mem::forget(guard);
}

/// Standard error as the bar's terminal, drawn 3 columns short of its width: indicatif pads
/// the bar's line to the width it is given, and a line that reaches the right margin wraps
/// as soon as the terminal echoes the `^C` of a Ctrl-C after it, so that the line cleared
/// on exit would be the echo's, not the bar's.
#[derive(Debug)]
struct Stderr;

impl Stderr {
    /// Standard error's terminal size (columns, rows), 80x24 when it is not known.
    fn size() -> (u16, u16) {
        match terminal_size::terminal_size_of(io::stderr()) {
            Some((terminal_size::Width(w), terminal_size::Height(h))) if w > 0 => (w, h.max(1)),
            _ => (80, 24),
        }
    }

    fn put(s: &str) -> io::Result<()> {
        io::stderr().lock().write_all(s.as_bytes())
    }

    fn moved(n: usize, code: char) -> io::Result<()> {
        if n > 0 {
            Self::put(&format!("\x1b[{n}{code}"))?;
        }
        Ok(())
    }
}

impl TermLike for Stderr {
    fn width(&self) -> u16 {
        Self::size().0.saturating_sub(3).max(1)
    }
    fn height(&self) -> u16 {
        Self::size().1
    }
    fn move_cursor_up(&self, n: usize) -> io::Result<()> {
        Self::moved(n, 'A')
    }
    fn move_cursor_down(&self, n: usize) -> io::Result<()> {
        Self::moved(n, 'B')
    }
    fn move_cursor_right(&self, n: usize) -> io::Result<()> {
        Self::moved(n, 'C')
    }
    fn move_cursor_left(&self, n: usize) -> io::Result<()> {
        Self::moved(n, 'D')
    }
    fn write_line(&self, s: &str) -> io::Result<()> {
        Self::put(s)?;
        Self::put("\n")
    }
    fn write_str(&self, s: &str) -> io::Result<()> {
        Self::put(s)
    }
    fn clear_line(&self) -> io::Result<()> {
        Self::put("\r\x1b[2K")
    }
    fn flush(&self) -> io::Result<()> {
        io::stderr().flush()
    }
}

/// How long a run goes before its bar is drawn, in milliseconds.
const DELAY_MS: u64 = 250;

/// The least width of the bar itself: fields are dropped before it gets narrower.
const MIN_BAR: usize = 10;

/// What the bar's line says besides the bar.
#[derive(Clone, Copy, Debug, Default)]
struct Fields {
    bytes: u64,
    total: Option<u64>,
    games_per_second: f64,
    errors: u64,
    /// Time left (known total; None until it can be told) or time elapsed (unknown total).
    time: Option<Duration>,
}

/// `42s`, `3m05s`, `1h02m`.
fn duration(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
    }
}

/// The text beside the bar for a line of `width` columns: the fields that fit, so that the
/// bar keeps [`MIN_BAR`] columns (with a known total). The errors go last, then the time,
/// then the bytes, then the rate.
fn text(width: usize, f: &Fields) -> String {
    let bytes = match f.total {
        Some(t) => format!("{}/{}", HumanBytes(f.bytes), HumanBytes(t)),
        None => HumanBytes(f.bytes).to_string(),
    };
    let rate = format!("{:.0} games/s", f.games_per_second);
    let errors = format!("{} error{}", f.errors, if f.errors == 1 { "" } else { "s" });
    let time = match (f.total, f.time) {
        (Some(_), Some(t)) => format!("{} left", duration(t)),
        (Some(_), None) => "time left: …".to_string(),
        (None, t) => duration(t.unwrap_or_default()),
    };
    // `{spinner} {wide_bar} {msg}` or `{spinner} {msg}`.
    let room = match f.total {
        Some(_) => width.saturating_sub(3 + MIN_BAR),
        None => width.saturating_sub(2),
    };
    // In the order shown, each with its rank (the lower is dropped first).
    let fields = [(bytes, 2), (rate, 1), (errors, 4), (time, 3)];
    let mut keep = [true; 4];
    let len = |keep: &[bool; 4]| {
        let (n, chars) = fields
            .iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .fold((0usize, 0usize), |(n, c), ((s, _), _)| {
                (n + 1, c + s.chars().count())
            });
        chars + 2 * n.saturating_sub(1)
    };
    for rank in 1..=4 {
        if len(&keep) <= room {
            break;
        }
        if let Some(i) = fields.iter().position(|(_, r)| *r == rank) {
            keep[i] = false;
        }
    }
    let mut out = String::new();
    for ((s, _), k) in fields.iter().zip(keep) {
        if k {
            if !out.is_empty() {
                out.push_str(", ");
            }
            out.push_str(s);
        }
    }
    out
}

/// A progress display, or nothing. A ticker thread redraws it ten times a second, so that it
/// is drawn a quarter of a second into the run however slowly the first bytes come, and its
/// time left follows the clock between reads.
pub(super) struct Progress {
    inner: Option<Arc<Inner>>,
}

/// What the bar and its ticker share.
struct Inner {
    bar: ProgressBar,
    total: Option<u64>,
    bytes: AtomicU64,
    games: AtomicU64,
    errors: AtomicU64,
    /// When the text was last written, in milliseconds since `start`.
    written: AtomicU64,
    /// True once the bar is drawn on the terminal.
    drawn: AtomicBool,
    /// True once the run is over (the ticker stops).
    done: AtomicBool,
    start: Instant,
}

/// The time left of a run that has read `bytes` of `total` in `elapsed`: the rest at the
/// mean rate so far (the sizes of every input are known before reading). None until a
/// little has been read.
fn time_left(elapsed: Duration, bytes: u64, total: u64) -> Option<Duration> {
    if bytes == 0 || elapsed < Duration::from_millis(200) {
        return None;
    }
    let rest = total.saturating_sub(bytes) as f64 / bytes as f64;
    Some(elapsed.mul_f64(rest.min(1e6)))
}

impl Inner {
    fn draw(&self) {
        let elapsed = self.start.elapsed();
        let now = elapsed.as_millis() as u64;
        let last = self.written.load(Ordering::Relaxed);
        if now < last + 50 && last != 0 {
            return;
        }
        self.written.store(now.max(1), Ordering::Relaxed);
        let bytes = self.bytes.load(Ordering::Relaxed);
        self.bar.set_position(bytes);
        // A run that ends within a quarter of a second draws no bar: no flash.
        if now >= DELAY_MS && !self.drawn.swap(true, Ordering::Relaxed) {
            self.bar
                .set_draw_target(ProgressDrawTarget::term_like_with_hz(Box::new(Stderr), 20));
        }
        let games = self.games.load(Ordering::Relaxed);
        let fields = Fields {
            bytes,
            total: self.total,
            games_per_second: games as f64 / elapsed.as_secs_f64().max(1e-3),
            errors: self.errors.load(Ordering::Relaxed),
            time: match self.total {
                Some(t) => time_left(elapsed, bytes, t),
                None => Some(elapsed),
            },
        };
        self.bar
            .set_message(text(usize::from(Stderr.width()), &fields));
    }
}

impl Progress {
    /// A bar for `total` bytes (a spinner if unknown), drawn only if `wanted` and standard
    /// error is a terminal.
    pub(super) fn new(total: Option<u64>, wanted: bool) -> Progress {
        let inner = (wanted && std::io::stderr().is_terminal()).then(|| {
            // Hidden until the run has taken a while (see `Inner::draw`).
            let target = ProgressDrawTarget::hidden();
            let (bar, template) = match total {
                Some(t) => (
                    ProgressBar::with_draw_target(Some(t), target),
                    "{spinner} {wide_bar} {msg}",
                ),
                None => (
                    ProgressBar::with_draw_target(None, target),
                    "{spinner} {msg}",
                ),
            };
            let style = ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            *self::bar() = Some(bar.clone());
            let inner = Arc::new(Inner {
                bar,
                total,
                bytes: AtomicU64::new(0),
                games: AtomicU64::new(0),
                errors: AtomicU64::new(0),
                written: AtomicU64::new(0),
                drawn: AtomicBool::new(false),
                done: AtomicBool::new(false),
                start: Instant::now(),
            });
            let ticker = Arc::clone(&inner);
            std::thread::spawn(move || {
                while !ticker.done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    if !ticker.done.load(Ordering::Relaxed) {
                        ticker.draw();
                    }
                }
            });
            inner
        });
        Progress { inner }
    }

    /// Bytes read so far.
    pub(super) fn set(&self, bytes: u64) {
        let Some(i) = &self.inner else { return };
        i.bytes.store(bytes, Ordering::Relaxed);
        i.draw();
    }

    /// A game was done with this many errors.
    pub(super) fn game(&self, errors: u64) {
        if let Some(i) = &self.inner {
            i.games.fetch_add(1, Ordering::Relaxed);
            i.errors.fetch_add(errors, Ordering::Relaxed);
        }
    }

    /// Remove the bar.
    pub(super) fn finish(&self) {
        if let Some(i) = &self.inner {
            i.done.store(true, Ordering::Relaxed);
            i.bar.finish_and_clear();
            bar().take();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(total: Option<u64>) -> Fields {
        Fields {
            bytes: 123_456_789,
            total,
            games_per_second: 123_456.0,
            errors: 12_345,
            time: Some(Duration::from_secs(3725)),
        }
    }

    #[test]
    fn the_time_left_is_the_rest_at_the_mean_rate() {
        let s = Duration::from_secs;
        // A tenth read in 2 s: 18 s left.
        assert_eq!(time_left(s(2), 100, 1000), Some(s(18)));
        assert_eq!(time_left(s(2), 1000, 1000), Some(s(0)));
        // Nothing read yet, or too soon to tell.
        assert_eq!(time_left(s(2), 0, 1000), None);
        assert_eq!(time_left(Duration::from_millis(50), 10, 1000), None);
        // Unknown: the field says so.
        let f = Fields {
            time: None,
            ..fields(Some(1_234_567_890))
        };
        assert!(text(77, &f).ends_with("time left: …"), "{}", text(77, &f));
    }

    #[test]
    fn the_line_fits_and_drops_fields_before_the_bar() {
        for total in [Some(1_234_567_890), None] {
            for width in [0, 5, 20, 30, 40, 50, 60, 77, 80, 120, 200] {
                let t = text(width, &fields(total));
                let bar = if total.is_some() { MIN_BAR + 3 } else { 2 };
                assert!(
                    t.chars().count() + bar <= width || t.is_empty(),
                    "{width}: {t:?}"
                );
            }
        }
        let f = fields(Some(1_234_567_890));
        // A standard terminal (80 columns, drawn in 77) shows everything.
        let wide = text(77, &f);
        assert_eq!(
            wide,
            "117.74 MiB/1.15 GiB, 123456 games/s, 12345 errors, 1h02m left"
        );
        // Narrower: the rate goes first, then the bytes, then the time; the errors stay.
        assert_eq!(
            text(60, &f),
            "117.74 MiB/1.15 GiB, 12345 errors, 1h02m left"
        );
        assert_eq!(text(40, &f), "12345 errors, 1h02m left");
        assert_eq!(text(27, &f), "12345 errors");
        assert_eq!(text(20, &f), "");
        assert_eq!(duration(Duration::from_secs(42)), "42s");
        assert_eq!(duration(Duration::from_secs(185)), "3m05s");
    }
}
