//! The progress bar on standard error (indicatif): bytes done of total, games per second,
//! errors so far, time left. Shown only on a terminal and not with `--quiet`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

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
            let bar = match total {
                Some(t) => ProgressBar::with_draw_target(Some(t), ProgressDrawTarget::stderr()),
                None => ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()),
            };
            let style = ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {bytes}/{total_bytes} ({bytes_per_sec}, {eta} left) {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
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
            b.set_message(format!(
                "{games} games, {:.0}/s, {} errors",
                games as f64 / secs,
                self.errors.load(Ordering::Relaxed)
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
        }
    }
}
