//! One table as CSV (`--format csv`): players, openings, events or duplicates.

use ::csv::{Error, Writer};

use super::{By, Names, Scale, Stats, Tally, file_name};

/// The CSV writer, to memory.
type Csv = Writer<Vec<u8>>;

/// A table of results: the key columns of each row, then its games, its outcomes from the
/// first mover's side and the first mover's score over decided games.
fn tallies<'a>(
    w: &mut Csv,
    keys: &[&str],
    rows: impl Iterator<Item = (Vec<String>, &'a Tally)>,
) -> Result<(), Error> {
    w.write_record(keys.iter().copied().chain([
        "games",
        "first_wins",
        "draws",
        "second_wins",
        "unknown",
        "score",
    ]))?;
    for (cells, t) in rows {
        w.write_record(
            cells
                .into_iter()
                .chain([t.games.to_string()])
                .chain(t.outcome_cells())
                .chain([t.score().map(|s| s.to_string()).unwrap_or_default()]),
        )?;
    }
    Ok(())
}

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
            Some(By::Opening) => self.csv_named(&mut w)?,
            Some(By::Moves) => self.csv_openings(&mut w)?,
            Some(By::Event) => self.csv_events(&mut w)?,
            None => self.csv_duplicates(&mut w, names)?,
        }
        w.into_inner().map_err(|e| Error::from(e.into_error()))
    }

    /// The players (`--by player`): one row per player and variant, points on the variant's
    /// scale (`points_per_win`, `points_per_draw`) over decided games.
    fn csv_players(&self, w: &mut Csv) -> Result<(), Error> {
        w.write_record([
            "variant",
            "player",
            "games",
            "wins",
            "draws",
            "losses",
            "unknown",
            "points",
            "points_per_win",
            "points_per_draw",
            "score",
        ])?;
        for (k, p) in self.players() {
            let scale = Scale::of(k.variant);
            w.write_record(
                [k.variant_name().to_string(), k.name.clone()]
                    .into_iter()
                    .chain(p.cells())
                    .chain([
                        scale.win_points().to_string(),
                        scale.draw_points().to_string(),
                        p.score().map(|s| s.to_string()).unwrap_or_default(),
                    ]),
            )?;
        }
        Ok(())
    }

    /// The openings by the opening tables (`--by opening`): the score over decided games;
    /// the games no table classifies have neither opening nor ballot.
    fn csv_named(&self, w: &mut Csv) -> Result<(), Error> {
        tallies(
            w,
            &["variant", "opening", "ballot", "barred"],
            self.named_openings().into_iter().map(|(k, t)| {
                let cells = vec![
                    k.variant.name().to_string(),
                    k.opening.clone().unwrap_or_default(),
                    k.ballot.clone().unwrap_or_default(),
                    k.barred.to_string(),
                ];
                (cells, t)
            }),
        )
    }

    /// The first moves (`--by moves`): the score over decided games.
    fn csv_openings(&self, w: &mut Csv) -> Result<(), Error> {
        tallies(
            w,
            &["variant", "plies", "moves"],
            self.openings().into_iter().map(|(k, t)| {
                let cells = vec![
                    k.variant.name().to_string(),
                    k.plies.to_string(),
                    k.moves.clone(),
                ];
                (cells, t)
            }),
        )
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
            "unknown",
        ])?;
        for (name, e) in self.events() {
            w.write_record(
                [
                    name.to_string(),
                    e.tally.games.to_string(),
                    e.plies.to_string(),
                ]
                .into_iter()
                .chain(e.tally.outcome_cells()),
            )?;
        }
        Ok(())
    }

    /// The duplicates (`--duplicates`): each game by file, line and number.
    fn csv_duplicates(&self, w: &mut Csv, names: Names<'_>) -> Result<(), Error> {
        w.write_record([
            "file",
            "line",
            "game",
            "other_file",
            "other_line",
            "other_game",
            "reason",
            "plies",
        ])?;
        for d in self.duplicates() {
            w.write_record([
                file_name(names, d.game).to_string(),
                d.game.line.to_string(),
                d.game.game.to_string(),
                file_name(names, d.other).to_string(),
                d.other.line.to_string(),
                d.other.game.to_string(),
                d.reason.as_str().to_string(),
                d.plies.to_string(),
            ])?;
        }
        Ok(())
    }
}
