//! The statistics as one JSON object (`--format json`), written with the one JSON writer
//! ([`jsonl`](crate::app::write::jsonl)); the keys and their order are docs/formats.md's.

use super::tally::Tally;
use super::{LENGTH_BUCKET, Location, MoveAt, Names, Scale, Stats, file_name};
use crate::app::write::jsonl::{Array, Object};

/// A tally's outcomes: `first_wins`, `draws`, `second_wins`, `unknown`.
fn outcomes<'o, 'a>(o: &'o mut Object<'a>, t: &Tally) -> &'o mut Object<'a> {
    o.uint("first_wins", t.first_wins)
        .uint("draws", t.draws)
        .uint("second_wins", t.second_wins)
        .uint("unknown", t.unknown)
}

/// Where a game is: `file`, the `line` of its first byte, its number `game`.
fn at_fields(o: &mut Object<'_>, names: Names<'_>, at: Location) {
    o.str("file", file_name(names, at))
        .uint("line", u64::from(at.line))
        .uint("game", u64::from(at.game));
}

/// `key`: a game's place, or `null`.
fn opt_at(o: &mut Object<'_>, key: &str, names: Names<'_>, at: Option<Location>) {
    match at {
        Some(at) => {
            let mut a = o.object(key);
            at_fields(&mut a, names, at);
            a.close();
        }
        None => {
            o.null(key);
        }
    }
}

/// `key`: a move (`file`, the `line` of the move, its `game`, `ply`, `move` and `pieces`), or
/// `null`.
fn opt_move(o: &mut Object<'_>, key: &str, names: Names<'_>, m: Option<&MoveAt>) {
    let Some(m) = m else {
        o.null(key);
        return;
    };
    let mut a = o.object(key);
    a.str("file", file_name(names, m.at))
        .uint("line", u64::from(m.line))
        .uint("game", u64::from(m.at.game))
        .uint("ply", u64::from(m.ply))
        .str("move", &m.text)
        .uint("pieces", u64::from(m.pieces));
    a.close();
}

/// `key`: a map in a chosen order.
fn counts<K: AsRef<str>>(o: &mut Object<'_>, key: &str, entries: &[(K, u64)]) {
    let mut m = o.object(key);
    for (k, n) in entries {
        m.entry(k.as_ref(), *n);
    }
    m.close();
}

impl Stats {
    /// The statistics as one JSON object (with a final newline).
    pub fn to_json(&self, names: Names<'_>) -> String {
        let mut out = String::new();
        let mut o = Object::new(&mut out);
        o.uint("files", self.files)
            .uint("games", self.games)
            .uint("plies", self.plies)
            .uint("games_with_errors", self.games_with_errors);
        counts(&mut o, "results", &self.results());
        {
            let mut a = o.array("results_by_variant");
            for (v, r, winner, n) in self.variant_results() {
                a.object()
                    .opt_str("variant", v.map(|v| v.name()))
                    .str("result", r)
                    .str("winner", winner)
                    .uint("games", n)
                    .close();
            }
            a.close();
        }
        counts(&mut o, "variants", &self.variants());
        self.json_length(&mut o, names);
        self.json_captures(&mut o, names);
        self.json_promotions(&mut o, names);
        self.json_openings(&mut o.array("openings"));
        if self.classified() {
            self.json_named(&mut o.array("classified_openings"));
        }
        self.json_players(&mut o.array("players"));
        self.json_events(&mut o.array("events"));
        let codes: Vec<(&'static str, u64)> = self
            .diagnostics()
            .into_iter()
            .map(|(c, n)| (c.as_str(), n))
            .collect();
        counts(&mut o, "diagnostics", &codes);
        if let Some((_, min_plies)) = self.duplicate_options() {
            o.uint("duplicates_min_plies", u64::from(min_plies));
        }
        if self.looks_for_duplicates() {
            self.json_duplicates(&mut o.array("duplicates"), names);
        }
        o.end();
        out
    }

    /// Game lengths: mean, median, the longest game and the histogram.
    fn json_length(&self, o: &mut Object<'_>, names: Names<'_>) {
        let mut l = o.object("length");
        l.float("mean", self.mean_length())
            .float("median", self.median_length())
            .uint("max", u64::from(self.longest.map_or(0, |l| l.0)));
        opt_at(&mut l, "longest", names, self.longest.map(|(_, at)| at));
        let mut h = l.array("histogram");
        for (from, games) in self.histogram(LENGTH_BUCKET) {
            h.object()
                .uint("from", u64::from(from))
                .uint("to", u64::from(from + LENGTH_BUCKET - 1))
                .uint("games", games)
                .close();
        }
        h.close();
        l.close();
    }

    /// Captures: how many, multiple ones, pieces taken, by size, the largest.
    fn json_captures(&self, o: &mut Object<'_>, names: Names<'_>) {
        let mut c = o.object("captures");
        c.uint("count", self.captures)
            .uint("multi", self.multi_captures)
            .uint("pieces", self.pieces);
        let sizes: Vec<(String, u64)> = self
            .capture_sizes
            .iter()
            .map(|(k, &n)| (k.to_string(), n))
            .collect();
        counts(&mut c, "by_size", &sizes);
        opt_move(&mut c, "largest", names, self.rafle.as_ref());
        c.close();
    }

    /// Promotions and the first king.
    fn json_promotions(&self, o: &mut Object<'_>, names: Names<'_>) {
        let mut p = o.object("promotions");
        p.uint("count", self.promotions)
            .uint("games", self.games_with_king());
        match self.first_king() {
            Some((mean, median)) => {
                let mut k = p.object("first_king");
                k.float("mean", mean).float("median", median);
                opt_move(&mut k, "earliest", names, self.earliest_king.as_ref());
                k.close();
            }
            None => {
                p.null("first_king");
            }
        }
        p.close();
    }

    /// Every opening, by variant, depth and most played.
    fn json_openings(&self, a: &mut Array<'_>) {
        for (k, t) in self.openings() {
            let mut o = a.object();
            o.str("variant", k.variant.name())
                .uint("plies", u64::from(k.plies))
                .str("moves", &k.moves)
                .uint("games", t.games);
            outcomes(&mut o, t).opt_float("score", t.score()).close();
        }
        a.close();
    }

    /// Every opening by the opening tables, by variant and most played.
    fn json_named(&self, a: &mut Array<'_>) {
        for (k, t) in self.named_openings() {
            let mut o = a.object();
            o.str("variant", k.variant.name())
                .opt_str("opening", k.opening.as_deref())
                .opt_str("ballot", k.ballot.as_deref())
                .bool("barred", k.barred)
                .uint("games", t.games);
            outcomes(&mut o, t).opt_float("score", t.score()).close();
        }
        a.close();
    }

    /// Every player of every variant, most games first, points on the variant's scale.
    fn json_players(&self, a: &mut Array<'_>) {
        for (k, p) in self.players() {
            let scale = Scale::of(k.variant);
            a.object()
                .str("variant", k.variant_name())
                .str("name", &k.name)
                .uint("games", p.games)
                .uint("wins", p.wins)
                .uint("draws", p.draws)
                .uint("losses", p.losses)
                .uint("unknown", p.unknown)
                .float("points", p.points())
                .float("points_per_win", scale.win_points())
                .float("points_per_draw", scale.draw_points())
                .opt_float("score", p.score())
                .close();
        }
        a.close();
    }

    /// Every event, in the order of its first game.
    fn json_events(&self, a: &mut Array<'_>) {
        for (name, e) in self.events() {
            let mut o = a.object();
            o.str("name", name)
                .uint("games", e.tally.games)
                .uint("plies", e.plies);
            outcomes(&mut o, &e.tally).close();
        }
        a.close();
    }

    /// The duplicates (when they were looked for).
    fn json_duplicates(&self, a: &mut Array<'_>, names: Names<'_>) {
        for d in self.duplicates() {
            let mut o = a.object();
            o.str("file", file_name(names, d.game))
                .uint("line", u64::from(d.game.line))
                .uint("game", u64::from(d.game.game));
            opt_at(&mut o, "other", names, Some(d.other));
            o.str("reason", d.reason.as_str())
                .uint("plies", u64::from(d.plies))
                .close();
        }
        a.close();
    }
}
