//! The renderings of `validate`: a game's findings and its JSON `game` record, and the
//! summary over files and games.

use serde::Serialize;

use crate::rules::Variant;
use crate::syntax::Game;

use super::super::diagnostic::{Format, GameText, render};
use super::super::jsonl::Object;
use super::Report;

/// Write a game's diagnostics (and in JSON its `game` record) in a format.
pub fn render_report(format: Format, file: &str, game: &Game, report: &Report, out: &mut String) {
    render_text_report(format, file, &GameText::of(game), report, out);
}

/// [`render_report`] for a game known by its text.
pub fn render_text_report(
    format: Format,
    file: &str,
    game: &GameText<'_>,
    report: &Report,
    out: &mut String,
) {
    if !report.diagnostics.is_empty() {
        let lines = game.lines();
        for d in &report.diagnostics {
            render(format, file, game, &lines, d, out);
        }
    }
    if format == Format::Json {
        // The keys and their order are DESIGN.md's.
        let mut o = Object::new(out);
        o.str("type", "game")
            .str("file", file)
            .uint("game", game.index as u64)
            .opt_str("variant", report.variant.map(Variant::name))
            .uint("plies", u64::from(report.plies))
            .uint("errors", u64::from(report.errors()))
            .uint("warnings", u64::from(report.warnings()))
            .opt_str("result", report.result.as_deref());
        if let Some(why) = report.inferred.as_deref() {
            o.str("variant_inferred", why);
        }
        o.end();
    }
}

/// Totals over files and games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Files read.
    pub files: u64,
    /// Games.
    pub games: u64,
    /// Plies replayed.
    pub plies: u64,
    /// Error diagnostics.
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
    /// Games with at least one error.
    pub games_with_errors: u64,
    /// Inputs that could not be read, or not to their end (DESIGN.md).
    pub unreadable_files: u64,
}

impl Summary {
    /// Add a game: its plies, errors and warnings.
    pub fn add(&mut self, plies: u32, errors: u32, warnings: u32) {
        self.games += 1;
        self.plies += plies as u64;
        self.errors += errors as u64;
        self.warnings += warnings as u64;
        if errors > 0 {
            self.games_with_errors += 1;
        }
    }

    /// Write the summary: a JSON record, or a sentence.
    pub fn render(&self, format: Format, out: &mut String) {
        match format {
            Format::Json => {
                #[derive(Serialize)]
                struct Line<'a> {
                    #[serde(rename = "type")]
                    kind: &'static str,
                    #[serde(flatten)]
                    s: &'a Summary,
                }
                if let Ok(s) = serde_json::to_string(&Line {
                    kind: "summary",
                    s: self,
                }) {
                    out.push_str(&s);
                    out.push('\n');
                }
            }
            Format::Human | Format::Short => {
                out.push_str(&format!(
                    "checked {} game{} ({} plies) in {} file{}: {} error{}, {} warning{}, {} game{} with errors\n",
                    self.games,
                    plural(self.games),
                    self.plies,
                    self.files,
                    plural(self.files),
                    self.errors,
                    plural(self.errors),
                    self.warnings,
                    plural(self.warnings),
                    self.games_with_errors,
                    plural(self.games_with_errors)
                ));
            }
        }
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}
