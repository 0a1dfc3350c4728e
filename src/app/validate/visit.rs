//! [`Validator`]: validation as the reader reads, with no owned `Game`. A `RecordReader`
//! fills the game's [`Record`]; at the end of the game the validator validates it and
//! renders the report at once, with the game's bytes still in the reader's buffer. A game whose text
//! is not UTF-8 is read again into an owned `Game` (which holds it decoded), so that its
//! findings and their columns are those of the decoded text.

use crate::rules::Variant;
use crate::syntax::GameEnd;

use super::super::diagnostic::{Format, GameText};
use super::super::gametype::FileHint;
use super::super::record::{OnRecord, Record};
use super::super::replay::Ignore;
use super::render::{render_report, render_text_report};
use super::{Options, Report, validate, validate_record};

/// A game validated by a [`Validator`]: its report rendered, and its counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Validated {
    /// The rendered findings (and in JSON the `game` record).
    pub text: String,
    /// Plies of the main line replayed.
    pub plies: u32,
    /// Error diagnostics.
    pub errors: u32,
    /// Warnings.
    pub warnings: u32,
}

impl Validated {
    fn of(text: String, report: &Report) -> Validated {
        Validated {
            text,
            plies: report.plies,
            errors: report.errors(),
            warnings: report.warnings(),
        }
    }
}

/// Validates the games of one file as the reader reads them, in a `RecordReader` (see the
/// module documentation); the variant earlier games of the file showed is followed as
/// [`FileHint`] does.
#[derive(Debug)]
pub struct Validator<'a> {
    hint: FileHint,
    opts: Options,
    format: Format,
    /// The file's name, as reports show it.
    name: &'a str,
}

impl<'a> Validator<'a> {
    /// A validator for the games of the file `name`, reported in `format`.
    pub fn new(opts: Options, format: Format, name: &'a str) -> Validator<'a> {
        Validator {
            hint: FileHint::default(),
            opts,
            format,
            name,
        }
    }

    /// The options for a game, with the hint of the earlier games of its file.
    fn options(&self, hint: Option<Variant>) -> Options {
        Options { hint, ..self.opts }
    }
}

impl OnRecord for Validator<'_> {
    type Output = Validated;

    fn on_record(&mut self, record: &Record, end: &GameEnd<'_>) -> Validated {
        // About the size of the game for JSON with its usual notes; grows if needed.
        let mut text = String::with_capacity(256 + end.text.len());
        match std::str::from_utf8(end.text) {
            Ok(source) => {
                let hint = self.hint.observe_record(0, record);
                let report = validate_record(record, source, &self.options(hint), &mut Ignore);
                let game = GameText::of_record(record, source, end);
                render_text_report(self.format, self.name, &game, &report, &mut text);
                Validated::of(text, &report)
            }
            Err(_) => {
                let game = end.to_game();
                let hint = self.hint.observe(0, &game);
                let report = validate(&game, &self.options(hint));
                render_report(self.format, self.name, &game, &report, &mut text);
                Validated::of(text, &report)
            }
        }
    }
}
