//! [`Validator`]: validation as the reader reads, with no owned `Game`. A [`Visitor`] fills
//! the game's [`Record`]; at the end of the game the record is validated and the report
//! rendered at once, with the game's bytes still in the reader's buffer. A game whose text
//! is not UTF-8 is read again into an owned `Game` (which holds it decoded), so that its
//! findings and their columns are those of the decoded text.

use crate::rules::Variant;
use crate::syntax::{CommentKind, GameEnd, MoveRef, Nag, RawTag, Skip, Span, Visitor};

use super::super::diagnostic::{Format, GameText};
use super::super::gametype::FileHint;
use super::super::record::Filler;
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

/// Validates the games of one file as the reader reads them (see the module
/// documentation); the variant earlier games of the file showed is followed as
/// [`FileHint`] does.
#[derive(Debug)]
pub struct Validator<'a> {
    filler: Filler,
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
            filler: Filler::new(),
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

impl Visitor for Validator<'_> {
    type Output = Validated;

    fn begin_game(&mut self) {
        self.filler.begin_game();
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, span: Span) {
        self.filler.tag(name, value, span);
    }

    #[inline]
    fn game_move(&mut self, m: &MoveRef<'_>) {
        self.filler.game_move(m);
    }

    fn comment(&mut self, text: &[u8], kind: CommentKind, span: Span) {
        self.filler.comment(text, kind, span);
    }

    fn nag(&mut self, nag: Nag) {
        self.filler.nag(nag);
    }

    fn begin_variation(&mut self) -> Skip {
        self.filler.begin_variation()
    }

    fn end_variation(&mut self, span: Span) {
        self.filler.end_variation(span);
    }

    fn setup(&mut self, fen: &[u8], span: Span) {
        self.filler.setup(fen, span);
    }

    fn late_strength(&mut self, text: &[u8]) {
        self.filler.late_strength(text);
    }

    fn result(&mut self, text: &[u8], span: Span) {
        self.filler.result(text, span);
    }

    fn end_game(&mut self, end: &GameEnd<'_>) -> Validated {
        self.filler.end(end);
        // About the size of the game for JSON with its usual notes; grows if needed.
        let mut text = String::with_capacity(256 + end.text.len());
        match std::str::from_utf8(end.text) {
            Ok(source) => {
                let record = &self.filler.record;
                let hint = self.hint.observe_record(0, record);
                let report = validate_record(record, source, &self.options(hint), &mut Ignore);
                let (line, column) = end.line_col();
                let game = GameText {
                    index: end.index,
                    source,
                    line,
                    column,
                    white: record.tag("White"),
                    black: record.tag("Black"),
                };
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
