//! [`Validator`]: validation as the reader reads, with no owned `Game`. A `RecordReader`
//! fills the game's [`Record`]; at the end of the game the validator validates it and
//! renders the report at once (under the command line's [`Policy`]), with the game's bytes
//! still in the reader's buffer. A game whose text is not UTF-8 is read again into an owned
//! `Game` (which holds it decoded), so that its findings and their columns are those of the
//! decoded text.

use crate::syntax::GameEnd;

use super::super::diagnostic::{Format, GameText, Palette};
use super::super::findings::{Policy, Rendered, render_game, render_game_text};
use super::super::gametype::{FileHint, FileVariant};
use super::super::record::{OnRecord, Record};
use super::super::replay::Ignore;
use super::{Options, validate, validate_record};

/// Validates the games of one file as the reader reads them, in a `RecordReader` (see the
/// module documentation); the variant earlier games of the file showed is followed as
/// [`FileHint`] does.
#[derive(Debug)]
pub struct Validator<'a> {
    hint: FileHint,
    opts: Options,
    format: Format,
    palette: Palette,
    policy: &'a Policy,
    /// The file's name, as reports show it.
    name: &'a str,
}

impl<'a> Validator<'a> {
    /// A validator for the games of the file `name`, reported in `format` with `palette`
    /// under `policy`.
    pub fn new(
        opts: Options,
        format: Format,
        palette: Palette,
        policy: &'a Policy,
        name: &'a str,
    ) -> Validator<'a> {
        Validator {
            hint: FileHint::default(),
            opts,
            format,
            palette,
            policy,
            name,
        }
    }

    /// The options for a game, with the hint of the earlier games of its file.
    fn options(&self, hint: Option<FileVariant>) -> Options {
        Options { hint, ..self.opts }
    }
}

impl OnRecord for Validator<'_> {
    type Output = Rendered;

    fn on_record(&mut self, record: &Record, end: &GameEnd<'_>) -> Rendered {
        let (format, palette, policy, name) = (self.format, &self.palette, self.policy, self.name);
        match std::str::from_utf8(end.text) {
            Ok(source) => {
                let hint = self.hint.observe_record(0, record, source);
                let mut report = validate_record(record, source, &self.options(hint), &mut Ignore);
                policy.apply(&mut report);
                let game = GameText::of_record(record, source, end);
                render_game_text(format, palette, policy, name, &game, &report)
            }
            Err(_) => {
                let game = end.to_game();
                let hint = self.hint.observe(0, &game);
                let mut report = validate(&game, &self.options(hint));
                policy.apply(&mut report);
                render_game(format, palette, policy, name, &game, &report)
            }
        }
    }
}
