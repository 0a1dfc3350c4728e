//! One table as CSV (`--format csv`): players, openings, events or duplicates.

use ::csv::{Error, Writer};

use super::duplicates::reason_text;
use super::{By, Names, Stats, file_name};

/// The CSV writer, to memory.
type Csv = Writer<Vec<u8>>;

impl Stats {
    /// One table as CSV: `--by` player, opening or event, or (with `None`) the duplicates.
    ///
    /// # Errors
    ///
    /// Errors of the `csv` writer (none are expected when writing to memory).
    pub fn to_csv(&self, by: Option<By>, names: Names<'_>) -> Result<Vec<u8>, Error> {
        let mut w = Writer::from_writer(Vec::new());
        match by {
            Some(By::Player) => self.csv_players(&mut w)?,
            Some(By::Opening) => self.csv_openings(&mut w)?,
            Some(By::Event) => self.csv_events(&mut w)?,
            None => self.csv_duplicates(&mut w, names)?,
        }
        w.into_inner().map_err(|e| Error::from(e.into_error()))
    }

    /// The players (`--by player`).
    fn csv_players(&self, w: &mut Csv) -> Result<(), Error> {
        w.write_record([
            "player", "games", "wins", "draws", "losses", "other", "points",
        ])?;
        for (name, p) in self.players() {
            w.write_record([
                name.to_string(),
                p.games.to_string(),
                p.wins.to_string(),
                p.draws.to_string(),
                p.losses.to_string(),
                p.other.to_string(),
                p.points().to_string(),
            ])?;
        }
        Ok(())
    }

    /// The openings (`--by opening`).
    fn csv_openings(&self, w: &mut Csv) -> Result<(), Error> {
        w.write_record([
            "variant",
            "plies",
            "moves",
            "games",
            "first_wins",
            "draws",
            "second_wins",
            "other",
            "score",
        ])?;
        for (k, t) in self.openings() {
            w.write_record([
                k.variant.name().to_string(),
                k.plies.to_string(),
                k.moves.clone(),
                t.games.to_string(),
                t.first_wins.to_string(),
                t.draws.to_string(),
                t.second_wins.to_string(),
                t.other.to_string(),
                t.score().map(|s| s.to_string()).unwrap_or_default(),
            ])?;
        }
        Ok(())
    }

    /// The events (`--by event`).
    fn csv_events(&self, w: &mut Csv) -> Result<(), Error> {
        w.write_record([
            "event",
            "games",
            "plies",
            "first_wins",
            "draws",
            "second_wins",
            "other",
        ])?;
        for (name, e) in self.events() {
            w.write_record([
                name.to_string(),
                e.tally.games.to_string(),
                e.plies.to_string(),
                e.tally.first_wins.to_string(),
                e.tally.draws.to_string(),
                e.tally.second_wins.to_string(),
                e.tally.other.to_string(),
            ])?;
        }
        Ok(())
    }

    /// The duplicates (`--duplicates`).
    fn csv_duplicates(&self, w: &mut Csv, names: Names<'_>) -> Result<(), Error> {
        w.write_record([
            "file",
            "game",
            "first_file",
            "first_game",
            "reason",
            "plies",
        ])?;
        for d in self.duplicates() {
            w.write_record([
                file_name(names, d.game).to_string(),
                d.game.game.to_string(),
                file_name(names, d.first).to_string(),
                d.first.game.to_string(),
                reason_text(d.reason).to_string(),
                d.plies.to_string(),
            ])?;
        }
        Ok(())
    }
}
