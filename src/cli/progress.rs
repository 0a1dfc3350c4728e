//! The progress bar on standard error (indicatif): bytes done of total, games per second,
//! errors so far, time left, in 80 columns. Shown only on a terminal and not with `--quiet`. Messages
//! printed while it runs ([`message`]) go above it; the signal handler clears it
//! ([`clear_for_exit`]).

use std::io::{self, IsTerminal, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// The bar being drawn, if any: for messages and for the signal handler.
static BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);

fn bar() -> std::sync::MutexGuard<'static, Option<ProgressBar>> {
    BAR.lock().unwrap_or_else(|e| e.into_inner())
}

/// Print a line on standard error, above the bar if one is drawn.
pub fn message(line: &str) {
    let guard = bar();
    match guard.as_ref() {
        Some(b) => b.suspend(|| eprintln!("{line}")),
        None => eprintln!("{line}"),
    }
}

/// Clear the bar for good: the process is about to exit on a signal.
pub fn clear_for_exit() {
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
    fn size() -> (u16, u16) {
        #[cfg(target_os = "linux")]
        {
            // SAFETY: TIOCGWINSZ only fills the `winsize` it is given; on failure it is
            // left zeroed and the defaults are used.
            let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
            if unsafe { libc::ioctl(libc::STDERR_FILENO, libc::TIOCGWINSZ, &mut ws) } == 0
                && ws.ws_col > 0
            {
                return (ws.ws_col, ws.ws_row.max(1));
            }
        }
        (80, 24)
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

/// A progress display, or nothing.
pub struct Progress {
    bar: Option<ProgressBar>,
    games: AtomicU64,
    errors: AtomicU64,
    start: Instant,
}

impl Progress {
    /// A bar for `total` bytes (a spinner if unknown), drawn only if `wanted` and standard
    /// error is a terminal.
    pub fn new(total: Option<u64>, wanted: bool) -> Progress {
        let bar = (wanted && std::io::stderr().is_terminal()).then(|| {
            let target = ProgressDrawTarget::term_like_with_hz(Box::new(Stderr), 20);
            let (bar, template) = match total {
                Some(t) => (
                    ProgressBar::with_draw_target(Some(t), target),
                    "{spinner} {wide_bar} {bytes}/{total_bytes} {msg} {eta} left",
                ),
                None => (
                    ProgressBar::with_draw_target(None, target),
                    "{spinner} {bytes} {msg} {elapsed}",
                ),
            };
            let style = ProgressStyle::with_template(template)
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            *self::bar() = Some(bar.clone());
            bar
        });
        Progress {
            bar,
            games: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            start: Instant::now(),
        }
    }

    /// Bytes read so far.
    pub fn set(&self, bytes: u64) {
        if let Some(b) = &self.bar {
            b.set_position(bytes);
            let games = self.games.load(Ordering::Relaxed);
            let secs = self.start.elapsed().as_secs_f64().max(1e-3);
            let errors = self.errors.load(Ordering::Relaxed);
            b.set_message(format!(
                "{:.0} games/s, {errors} error{}",
                games as f64 / secs,
                if errors == 1 { "" } else { "s" }
            ));
        }
    }

    /// A game was done with this many errors.
    pub fn game(&self, errors: u64) {
        self.games.fetch_add(1, Ordering::Relaxed);
        self.errors.fetch_add(errors, Ordering::Relaxed);
    }

    /// Remove the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
            bar().take();
        }
    }
}
