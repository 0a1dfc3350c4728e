//! The statistics as one JSON object (`--format json`).

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::{LENGTH_BUCKET, Location, MoveAt, Names, Scale, Stats, file_name};

/// A JSON map in a chosen order.
struct Ordered<'a, K: Serialize, V: Serialize>(&'a [(K, V)]);

impl<K: Serialize, V: Serialize> Serialize for Ordered<'_, K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// Where a game is: `file`, the `line` of its first byte, its number `game`.
#[derive(Serialize)]
struct JsonAt<'a> {
    file: &'a str,
    line: u32,
    game: u32,
}

fn json_at(names: Names<'_>, at: Location) -> JsonAt<'_> {
    JsonAt {
        file: file_name(names, at),
        line: at.line,
        game: at.game,
    }
}

/// A move: `file`, the `line` of the move, its `game` and `ply`.
#[derive(Serialize)]
struct JsonMove<'a> {
    file: &'a str,
    line: u32,
    game: u32,
    ply: u32,
    #[serde(rename = "move")]
    mv: &'a str,
    pieces: u32,
}

#[derive(Serialize)]
struct JsonBucket {
    from: u32,
    to: u32,
    games: u64,
}

#[derive(Serialize)]
struct JsonLength<'a> {
    mean: f64,
    median: f64,
    max: u32,
    longest: Option<JsonAt<'a>>,
    histogram: Vec<JsonBucket>,
}

#[derive(Serialize)]
struct JsonCaptures<'a> {
    count: u64,
    multi: u64,
    pieces: u64,
    by_size: Ordered<'a, String, u64>,
    largest: Option<JsonMove<'a>>,
}

#[derive(Serialize)]
struct JsonFirstKing<'a> {
    mean: f64,
    median: f64,
    earliest: Option<JsonMove<'a>>,
}

#[derive(Serialize)]
struct JsonPromotions<'a> {
    count: u64,
    games: u64,
    first_king: Option<JsonFirstKing<'a>>,
}

#[derive(Serialize)]
struct JsonOpening<'a> {
    variant: &'static str,
    plies: u32,
    moves: &'a str,
    games: u64,
    first_wins: u64,
    draws: u64,
    second_wins: u64,
    unknown: u64,
    score: Option<f64>,
}

#[derive(Serialize)]
struct JsonPlayer<'a> {
    variant: &'static str,
    name: &'a str,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    unknown: u64,
    points: f64,
    points_per_win: f64,
    points_per_draw: f64,
    score: Option<f64>,
}

#[derive(Serialize)]
struct JsonEvent<'a> {
    name: &'a str,
    games: u64,
    plies: u64,
    first_wins: u64,
    draws: u64,
    second_wins: u64,
    unknown: u64,
}

#[derive(Serialize)]
struct JsonDuplicate<'a> {
    file: &'a str,
    line: u32,
    game: u32,
    other: JsonAt<'a>,
    reason: &'static str,
    plies: u32,
}

#[derive(Serialize)]
struct JsonStats<'a> {
    files: u64,
    games: u64,
    plies: u64,
    games_with_errors: u64,
    results: Ordered<'a, &'a str, u64>,
    variants: Ordered<'a, &'static str, u64>,
    length: JsonLength<'a>,
    captures: JsonCaptures<'a>,
    promotions: JsonPromotions<'a>,
    openings: Vec<JsonOpening<'a>>,
    players: Vec<JsonPlayer<'a>>,
    events: Vec<JsonEvent<'a>>,
    diagnostics: Ordered<'a, &'static str, u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    duplicates_min_plies: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    duplicates: Option<Vec<JsonDuplicate<'a>>>,
}

fn json_move<'a>(names: Names<'a>, m: &'a MoveAt) -> JsonMove<'a> {
    JsonMove {
        file: file_name(names, m.at),
        line: m.line,
        game: m.at.game,
        ply: m.ply,
        mv: &m.text,
        pieces: m.pieces,
    }
}

impl Stats {
    /// The statistics as one JSON object (with a final newline).
    ///
    /// # Errors
    ///
    /// Serialisation errors of `serde_json` (none are expected).
    pub fn to_json(&self, names: Names<'_>) -> Result<String, serde_json::Error> {
        let results = self.results();
        let variants = self.variants();
        let sizes: Vec<(String, u64)> = self
            .capture_sizes
            .iter()
            .map(|(k, &n)| (k.to_string(), n))
            .collect();
        let codes: Vec<(&'static str, u64)> = self
            .diagnostics()
            .into_iter()
            .map(|(c, n)| (c.as_str(), n))
            .collect();
        let j = JsonStats {
            files: self.files,
            games: self.games,
            plies: self.plies,
            games_with_errors: self.games_with_errors,
            results: Ordered(&results),
            variants: Ordered(&variants),
            length: self.json_length(names),
            captures: JsonCaptures {
                count: self.captures,
                multi: self.multi_captures,
                pieces: self.pieces,
                by_size: Ordered(&sizes),
                largest: self.rafle.as_ref().map(|m| json_move(names, m)),
            },
            promotions: self.json_promotions(names),
            openings: self.json_openings(),
            players: self.json_players(),
            events: self.json_events(),
            diagnostics: Ordered(&codes),
            duplicates_min_plies: self.duplicate_options().map(|o| o.1),
            duplicates: self.json_duplicates(names),
        };
        let mut s = serde_json::to_string(&j)?;
        s.push('\n');
        Ok(s)
    }

    /// Game lengths: mean, median, the longest game and the histogram.
    fn json_length<'a>(&self, names: Names<'a>) -> JsonLength<'a> {
        JsonLength {
            mean: self.mean_length(),
            median: self.median_length(),
            max: self.longest.map_or(0, |l| l.0),
            longest: self.longest.map(|(_, at)| json_at(names, at)),
            histogram: self
                .histogram(LENGTH_BUCKET)
                .into_iter()
                .map(|(from, games)| JsonBucket {
                    from,
                    to: from + LENGTH_BUCKET - 1,
                    games,
                })
                .collect(),
        }
    }

    /// Promotions and the first king.
    fn json_promotions<'a>(&'a self, names: Names<'a>) -> JsonPromotions<'a> {
        JsonPromotions {
            count: self.promotions,
            games: self.games_with_king(),
            first_king: self.first_king().map(|(mean, median)| JsonFirstKing {
                mean,
                median,
                earliest: self.earliest_king.as_ref().map(|m| json_move(names, m)),
            }),
        }
    }

    /// Every opening, by variant, depth and most played.
    fn json_openings(&self) -> Vec<JsonOpening<'_>> {
        self.openings()
            .into_iter()
            .map(|(k, t)| JsonOpening {
                variant: k.variant.name(),
                plies: k.plies,
                moves: &k.moves,
                games: t.games,
                first_wins: t.first_wins,
                draws: t.draws,
                second_wins: t.second_wins,
                unknown: t.unknown,
                score: t.score(),
            })
            .collect()
    }

    /// Every player of every variant, most games first, points on the variant's scale.
    fn json_players(&self) -> Vec<JsonPlayer<'_>> {
        self.players()
            .into_iter()
            .map(|(k, p)| {
                let scale = Scale::of(k.variant);
                JsonPlayer {
                    variant: k.variant_name(),
                    name: &k.name,
                    games: p.games,
                    wins: p.wins,
                    draws: p.draws,
                    losses: p.losses,
                    unknown: p.unknown,
                    points: p.points(),
                    points_per_win: scale.win_points(),
                    points_per_draw: scale.draw_points(),
                    score: p.score(),
                }
            })
            .collect()
    }

    /// Every event, in the order of its first game.
    fn json_events(&self) -> Vec<JsonEvent<'_>> {
        self.events()
            .into_iter()
            .map(|(name, e)| JsonEvent {
                name,
                games: e.tally.games,
                plies: e.plies,
                first_wins: e.tally.first_wins,
                draws: e.tally.draws,
                second_wins: e.tally.second_wins,
                unknown: e.tally.unknown,
            })
            .collect()
    }

    /// The duplicates, if they were looked for.
    fn json_duplicates<'a>(&self, names: Names<'a>) -> Option<Vec<JsonDuplicate<'a>>> {
        self.looks_for_duplicates().then(|| {
            self.duplicates()
                .iter()
                .map(|d| JsonDuplicate {
                    file: file_name(names, d.game),
                    line: d.game.line,
                    game: d.game.game,
                    other: json_at(names, d.other),
                    reason: d.reason.as_str(),
                    plies: d.plies,
                })
                .collect()
        })
    }
}
