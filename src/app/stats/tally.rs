//! Counting: the tallies of results (per opening, player and event), [`Stats::add`] for one
//! game's record, the merge of partial statistics (`+=`) and the figures read back from them
//! (results, variants, lengths, captures, promotions, openings, players, events,
//! diagnostics).

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::collections::hash_map::Entry;
use std::ops::AddAssign;

use crate::rules::{Color, ResultType, Variant};

use super::duplicates::Dups;
use super::{Duplicate, GameFacts, Location, MoveAt, NO_EVENT, NO_RESULT, OPENING_PLIES, Stats};
use crate::app::judge::diagnostic::{Code, Severity};
use crate::app::model::outcome::{self, Outcome};

/// Wins, draws and losses from the point of view of the side that moves first, and the
/// games whose result decides nothing (counted apart).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Games the side that moves first won.
    pub first_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Games the other side won.
    pub second_wins: u64,
    /// Games without a decided result: unfinished or unknown (`*`), `0-0`, no result, or a
    /// score that is no game result (a match score).
    pub unknown: u64,
}

impl Tally {
    fn add(&mut self, o: Outcome) {
        self.games += 1;
        match o {
            Outcome::FirstWon => self.first_wins += 1,
            Outcome::SecondWon => self.second_wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::BothLost | Outcome::Unknown | Outcome::Other => self.unknown += 1,
        }
    }

    /// Games won, drawn or lost.
    pub fn decided(&self) -> u64 {
        self.first_wins + self.draws + self.second_wins
    }

    /// The percentage scored by the side that moves first, over decided games only.
    pub fn score(&self) -> Option<f64> {
        percentage(self.first_wins, self.draws, self.decided())
    }

    /// The outcomes as table cells by colour, for a variant whose first mover is `first`:
    /// White's wins, draws, Black's wins, unknown; then White's score.
    pub(crate) fn colour_cells(&self, first: crate::rules::Color) -> [String; 5] {
        let (white, black) = if first == crate::rules::Color::White {
            (self.first_wins, self.second_wins)
        } else {
            (self.second_wins, self.first_wins)
        };
        [
            white.to_string(),
            self.draws.to_string(),
            black.to_string(),
            self.unknown.to_string(),
            percentage(white, self.draws, self.decided())
                .map(|s| format!("{s:.1}"))
                .unwrap_or_default(),
        ]
    }

    /// The outcomes as table cells: first wins, draws, second wins, unknown.
    pub(crate) fn outcome_cells(&self) -> [String; 4] {
        [
            self.first_wins.to_string(),
            self.draws.to_string(),
            self.second_wins.to_string(),
            self.unknown.to_string(),
        ]
    }
}

/// `wins` and half the `draws` as a percentage of `decided` games (`None` without any).
fn percentage(wins: u64, draws: u64, decided: u64) -> Option<f64> {
    (decided > 0).then(|| round2(100.0 * (wins as f64 + draws as f64 / 2.0) / decided as f64))
}

/// `+=` of a struct of counts, field by field.
macro_rules! add_assign_fields {
    ($t:ty: $($field:ident),+) => {
        impl AddAssign<&$t> for $t {
            fn add_assign(&mut self, o: &$t) {
                $(self.$field += o.$field;)+
            }
        }
    };
}

add_assign_fields!(Tally: games, first_wins, draws, second_wins, unknown);

/// The points of a win and of a draw, in half points: the variant's result type (docs/pdn.md#results
/// §1.9.1), 2 and 1 under the International type, 1 and ½ otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale {
    /// Half points for a win.
    pub win: u64,
    /// Half points for a draw.
    pub draw: u64,
}

impl Scale {
    /// The scale of a variant's results (`None`: no variant fits; then 1 and ½).
    pub fn of(variant: Option<Variant>) -> Scale {
        match variant.map(|v| v.rules().result_type) {
            Some(ResultType::International) => Scale { win: 4, draw: 2 },
            _ => Scale { win: 2, draw: 1 },
        }
    }

    /// Points for a win.
    pub(crate) fn win_points(self) -> f64 {
        self.win as f64 / 2.0
    }

    /// Points for a draw.
    pub(crate) fn draw_points(self) -> f64 {
        self.draw as f64 / 2.0
    }
}

/// A player in one variant: the same name in two variants is two records, as their points
/// are on different scales and their games of different games.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerKey {
    /// The variant (`None`: no variant fits).
    pub variant: Option<Variant>,
    /// The name, as the `White` or `Black` tag writes it (trimmed).
    pub name: String,
}

impl PlayerKey {
    /// The variant's name (`unknown` where no variant fits).
    pub(crate) fn variant_name(&self) -> &'static str {
        self.variant.map_or("unknown", Variant::name)
    }
}

/// A player's record in one variant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerTally {
    /// Games.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Games without a decided result (see [`Tally::unknown`]).
    pub unknown: u64,
    /// Points, in half points.
    pub half_points: u64,
}

impl PlayerTally {
    /// The tally as table cells: games, wins, draws, losses, unknown, points.
    pub(crate) fn cells(&self) -> [String; 6] {
        [
            self.games.to_string(),
            self.wins.to_string(),
            self.draws.to_string(),
            self.losses.to_string(),
            self.unknown.to_string(),
            self.points().to_string(),
        ]
    }

    /// Points on the variant's [`Scale`], over decided games.
    pub fn points(&self) -> f64 {
        self.half_points as f64 / 2.0
    }

    /// Games won, drawn or lost.
    pub fn decided(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The percentage scored (a win 1, a draw ½) over decided games: the same on every
    /// scale.
    pub fn score(&self) -> Option<f64> {
        percentage(self.wins, self.draws, self.decided())
    }
}

add_assign_fields!(PlayerTally: games, wins, draws, losses, unknown, half_points);

/// An event's games and results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventTally {
    /// Where its first game is (events are listed in input order).
    pub first: Location,
    /// Plies.
    pub plies: u64,
    /// Results.
    pub tally: Tally,
}

/// The key of an opening: variant, depth, moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpeningKey {
    /// The variant (openings of different variants are different openings).
    pub variant: Variant,
    /// Plies.
    pub plies: u32,
    /// The moves in canonical PDN, space-separated.
    pub moves: String,
}

/// The key of an opening by the opening tables: variant, the opening's name and the ballot
/// (`<number> <moves>`), either absent (both absent: the games no table classifies).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NamedOpening {
    /// The variant.
    pub variant: Variant,
    /// The name of the deepest named entry reached.
    pub opening: Option<String>,
    /// The deepest ballot reached.
    pub ballot: Option<String>,
    /// True if that ballot is barred.
    pub barred: bool,
}

/// Keep the better of two moves of interest: `better(a, b)` says if `a` beats `b`; ties go
/// to the earlier game, so that merging in any order gives the same answer.
fn keep(slot: &mut Option<MoveAt>, new: &MoveAt, better: impl Fn(&MoveAt, &MoveAt) -> bool) {
    let replace = match slot {
        None => true,
        Some(old) => better(new, old) || (!better(old, new) && new.at < old.at),
    };
    if replace {
        *slot = Some(new.clone());
    }
}

impl Stats {
    /// Empty statistics; `duplicates` keeps the keys of move sequences (and, with `fuzzy`,
    /// of their first N plies) to find duplicate games; `min_plies` is the length below
    /// which [`analyse`](super::analyse) leaves games out of that (it is only shown here).
    pub fn new(duplicates: bool, fuzzy: Option<u32>, min_plies: u32) -> Stats {
        Stats {
            dups: (duplicates || fuzzy.is_some()).then(|| Dups::new(fuzzy.unwrap_or(0), min_plies)),
            ..Stats::default()
        }
    }

    /// Add a game.
    pub fn add(&mut self, r: &GameFacts) {
        let at = r.at;
        self.add_openings(r);
        if let (Some(variant), Some(c)) = (r.variant, &r.classification) {
            let key = NamedOpening {
                variant,
                opening: c.opening.as_ref().map(|o| o.name.clone()),
                ballot: c.ballot.as_ref().map(|b| b.text()),
                barred: c.ballot.as_ref().is_some_and(|b| b.barred),
            };
            self.named.entry(key).or_default().add(r.outcome);
        }
        self.add_players(r);
        if let Some(d) = &mut self.dups {
            d.add(r);
        }
        self.games += 1;
        self.plies += u64::from(r.plies);
        if r.errors > 0 {
            self.games_with_errors += 1;
        }
        let result = result_key(r.result.as_deref(), r.outcome, r.variant);
        *self
            .variant_results
            .entry((r.variant, result.clone()))
            .or_default() += 1;
        *self.results.entry(result).or_default() += 1;
        *self.variants.entry(r.variant).or_default() += 1;
        *self.lengths.entry(r.plies).or_default() += 1;
        if self
            .longest
            .is_none_or(|(p, l)| r.plies > p || (r.plies == p && at < l))
        {
            self.longest = Some((r.plies, at));
        }
        self.captures += u64::from(r.captures);
        self.multi_captures += u64::from(r.multi_captures);
        self.pieces += r.pieces;
        for (n, &c) in r.capture_sizes.iter().enumerate() {
            if c > 0 {
                *self.capture_sizes.entry(n as u32).or_default() += u64::from(c);
            }
        }
        if let Some(m) = &r.rafle {
            keep(&mut self.rafle, m, |a, b| a.pieces > b.pieces);
        }
        self.promotions += u64::from(r.promotions);
        if let Some(m) = &r.first_king {
            *self.first_kings.entry(m.ply).or_default() += 1;
            keep(&mut self.earliest_king, m, |a, b| a.ply < b.ply);
        }
        let event = r.event.as_deref().unwrap_or(NO_EVENT);
        // (Looked up before it is copied: a game's event is usually known already.)
        let e = match self.events.get_mut(event) {
            Some(e) => e,
            None => self.events.entry(event.to_string()).or_insert(EventTally {
                first: at,
                ..EventTally::default()
            }),
        };
        e.first = e.first.min(at);
        e.plies += u64::from(r.plies);
        e.tally.add(r.outcome);
        for (c, &n) in self.codes.iter_mut().zip(r.codes.iter()) {
            *c += u64::from(n);
        }
    }

    /// Count the game's result under each of its openings.
    fn add_openings(&mut self, r: &GameFacts) {
        if let Some(v) = r.variant {
            for (k, &plies) in OPENING_PLIES.iter().enumerate() {
                if let Some(moves) = r.opening_ends.get(k).filter(|&&e| e > 0) {
                    let key = OpeningKey {
                        variant: v,
                        plies,
                        moves: r.opening[..*moves].to_string(),
                    };
                    self.openings.entry(key).or_default().add(r.outcome);
                }
            }
        }
    }

    /// Count the game's result for each of its players.
    /// Count the game's result for each of its players, in its variant and on its scale.
    fn add_players(&mut self, r: &GameFacts) {
        let first = r.variant.map_or(Color::White, |v| v.rules().first_mover());
        let scale = Scale::of(r.variant);
        for color in Color::ALL {
            let Some(name) = &r.players[color.index()] else {
                continue;
            };
            let key = PlayerKey {
                variant: r.variant,
                name: name.clone(),
            };
            let p = self.players.entry(key).or_default();
            p.games += 1;
            match r.outcome {
                Outcome::Draw => {
                    p.draws += 1;
                    p.half_points += scale.draw;
                }
                o @ (Outcome::FirstWon | Outcome::SecondWon) => {
                    if o.winner(first) == Some(color) {
                        p.wins += 1;
                        p.half_points += scale.win;
                    } else {
                        p.losses += 1;
                    }
                }
                Outcome::BothLost | Outcome::Unknown | Outcome::Other => p.unknown += 1,
            }
        }
    }

    /// Result strings and their counts, most frequent first.
    pub fn results(&self) -> Vec<(&str, u64)> {
        let mut v: Vec<(&str, u64)> = self.results.iter().map(|(k, &n)| (k.as_str(), n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }

    /// Each variant's results (the variant's standard form) with their games and winner
    /// (`white`, `black`, `draw`, `none`, `unknown`): the variants most frequent first,
    /// within a variant the results most frequent first.
    pub fn variant_results(&self) -> Vec<(Option<Variant>, &str, &'static str, u64)> {
        let order: Vec<Option<Variant>> = {
            let mut v: Vec<(Option<Variant>, u64)> =
                self.variants.iter().map(|(k, &n)| (*k, n)).collect();
            v.sort_by(|a, b| {
                b.1.cmp(&a.1).then(
                    a.0.map_or("unknown", Variant::name)
                        .cmp(b.0.map_or("unknown", Variant::name)),
                )
            });
            v.into_iter().map(|(k, _)| k).collect()
        };
        let rank = |v: &Option<Variant>| order.iter().position(|o| o == v).unwrap_or(usize::MAX);
        let mut v: Vec<(Option<Variant>, &str, &'static str, u64)> = self
            .variant_results
            .iter()
            .map(|((variant, r), &n)| {
                let winner = if r == NO_RESULT {
                    "unknown"
                } else {
                    crate::app::model::outcome::normalised(Some(r), *variant).1
                };
                (*variant, r.as_str(), winner, n)
            })
            .collect();
        v.sort_by(|a, b| {
            rank(&a.0)
                .cmp(&rank(&b.0))
                .then(b.3.cmp(&a.3))
                .then(a.1.cmp(b.1))
        });
        v
    }

    /// Variants (`unknown` where no variant fits) and their games, most frequent first.
    pub fn variants(&self) -> Vec<(&'static str, u64)> {
        let mut v: Vec<(&'static str, u64)> = self
            .variants
            .iter()
            .map(|(k, &n)| (k.map_or("unknown", Variant::name), n))
            .collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }

    /// Mean game length in plies.
    pub(crate) fn mean_length(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            round2(self.plies as f64 / self.games as f64)
        }
    }

    /// Median game length in plies.
    pub(crate) fn median_length(&self) -> f64 {
        median(&self.lengths)
    }

    /// The longest game: plies and where (the first of the longest).
    pub fn longest(&self) -> Option<(u32, Location)> {
        self.longest
    }

    /// Number of games by length, in buckets of `width` plies: (first ply of the bucket,
    /// games), every bucket from 0 to the longest game.
    pub(crate) fn histogram(&self, width: u32) -> Vec<(u32, u64)> {
        let width = width.max(1);
        let mut out: Vec<(u32, u64)> = Vec::new();
        for (&len, &n) in &self.lengths {
            let from = len / width * width;
            match out.last_mut() {
                Some(last) if last.0 == from => last.1 += n,
                _ => out.push((from, n)),
            }
        }
        out
    }

    /// Capturing moves, multi-captures and pieces taken.
    pub fn captures(&self) -> (u64, u64, u64) {
        (self.captures, self.multi_captures, self.pieces)
    }

    /// Promotions on the main lines.
    pub fn promotions(&self) -> u64 {
        self.promotions
    }

    /// Games played from the start position that have a promotion.
    pub(crate) fn games_with_king(&self) -> u64 {
        self.first_kings.values().sum()
    }

    /// Mean and median ply of the first promotion, over games with one.
    pub fn first_king(&self) -> Option<(f64, f64)> {
        let n = self.games_with_king();
        (n > 0).then(|| {
            let sum: u64 = self
                .first_kings
                .iter()
                .map(|(&p, &c)| u64::from(p) * c)
                .sum();
            (round2(sum as f64 / n as f64), median(&self.first_kings))
        })
    }

    /// Diagnostics by code, in the order of docs/formats.md; codes never seen are left out.
    pub fn diagnostics(&self) -> Vec<(Code, u64)> {
        Code::ALL
            .iter()
            .zip(self.codes.iter())
            .filter(|(_, n)| **n > 0)
            .map(|(c, n)| (*c, *n))
            .collect()
    }

    /// Diagnostics of a severity.
    pub fn count(&self, s: Severity) -> u64 {
        Code::ALL
            .iter()
            .zip(self.codes.iter())
            .filter(|(c, _)| c.severity() == s)
            .map(|(_, n)| n)
            .sum()
    }

    /// The openings: by variant, then depth, then most played first, then by moves.
    pub fn openings(&self) -> Vec<(&OpeningKey, &Tally)> {
        let mut v: Vec<(&OpeningKey, &Tally)> = self.openings.iter().collect();
        v.sort_by(|a, b| {
            (a.0.variant, a.0.plies, Reverse(a.1.games), &a.0.moves).cmp(&(
                b.0.variant,
                b.0.plies,
                Reverse(b.1.games),
                &b.0.moves,
            ))
        });
        v
    }

    /// The openings by the opening tables: by variant, then most played first, then by name
    /// and ballot (the games no table classifies last in their variant).
    pub fn named_openings(&self) -> Vec<(&NamedOpening, &Tally)> {
        let mut v: Vec<(&NamedOpening, &Tally)> = self.named.iter().collect();
        v.sort_by(|a, b| {
            let k = |(n, t): &(&NamedOpening, &Tally)| {
                (
                    n.variant,
                    n.opening.is_none() && n.ballot.is_none(),
                    Reverse(t.games),
                    n.opening.clone(),
                    n.ballot.clone(),
                )
            };
            k(a).cmp(&k(b))
        });
        v
    }

    /// True if the games were classified by opening tables.
    pub fn classified(&self) -> bool {
        !self.named.is_empty()
    }

    /// The players, by variant (games no variant fits last), then most games first, then
    /// most points, then by name.
    pub fn players(&self) -> Vec<(&PlayerKey, &PlayerTally)> {
        let mut v: Vec<(&PlayerKey, &PlayerTally)> = self.players.iter().collect();
        let order = |(k, p): &(&PlayerKey, &PlayerTally)| {
            (
                k.variant.is_none(),
                k.variant,
                Reverse(p.games),
                Reverse(p.half_points),
                k.name.clone(),
            )
        };
        v.sort_by_cached_key(order);
        v
    }

    /// The events, in the order of their first game.
    pub fn events(&self) -> Vec<(&str, &EventTally)> {
        let mut v: Vec<(&str, &EventTally)> =
            self.events.iter().map(|(k, e)| (k.as_str(), e)).collect();
        v.sort_by(|a, b| (a.1.first, a.0).cmp(&(b.1.first, b.0)));
        v
    }

    /// Games that duplicate an earlier one, in input order (empty unless asked for).
    pub fn duplicates(&self) -> Vec<Duplicate> {
        self.dups.as_ref().map(Dups::list).unwrap_or_default()
    }

    /// True if duplicates were looked for.
    pub(crate) fn looks_for_duplicates(&self) -> bool {
        self.dups.is_some()
    }

    /// The `--fuzzy` and `--min-plies` of duplicate detection, if duplicates were looked for.
    pub(crate) fn duplicate_options(&self) -> Option<(Option<u32>, u32)> {
        self.dups.as_ref().map(Dups::options)
    }
}

impl AddAssign for Stats {
    /// Merge statistics of other games (in any order: the answer is the same).
    fn add_assign(&mut self, o: Stats) {
        self.files += o.files;
        self.games += o.games;
        self.plies += o.plies;
        self.games_with_errors += o.games_with_errors;
        for (k, n) in o.results {
            *self.results.entry(k).or_default() += n;
        }
        for (k, n) in o.variant_results {
            *self.variant_results.entry(k).or_default() += n;
        }
        for (k, n) in o.variants {
            *self.variants.entry(k).or_default() += n;
        }
        for (k, n) in o.lengths {
            *self.lengths.entry(k).or_default() += n;
        }
        if let Some((p, at)) = o.longest
            && self
                .longest
                .is_none_or(|(q, l)| p > q || (p == q && at < l))
        {
            self.longest = Some((p, at));
        }
        self.captures += o.captures;
        self.multi_captures += o.multi_captures;
        self.pieces += o.pieces;
        for (k, n) in o.capture_sizes {
            *self.capture_sizes.entry(k).or_default() += n;
        }
        if let Some(m) = o.rafle {
            keep(&mut self.rafle, &m, |a, b| a.pieces > b.pieces);
        }
        self.promotions += o.promotions;
        for (k, n) in o.first_kings {
            *self.first_kings.entry(k).or_default() += n;
        }
        if let Some(m) = o.earliest_king {
            keep(&mut self.earliest_king, &m, |a, b| a.ply < b.ply);
        }
        for (k, t) in o.openings {
            *self.openings.entry(k).or_default() += &t;
        }
        for (k, t) in o.named {
            *self.named.entry(k).or_default() += &t;
        }
        for (k, p) in o.players {
            *self.players.entry(k).or_default() += &p;
        }
        for (k, e) in o.events {
            match self.events.entry(k) {
                Entry::Vacant(v) => {
                    v.insert(e);
                }
                Entry::Occupied(mut s) => {
                    let s = s.get_mut();
                    s.first = s.first.min(e.first);
                    s.plies += e.plies;
                    s.tally += &e.tally;
                }
            }
        }
        for (c, n) in self.codes.iter_mut().zip(o.codes) {
            *c += n;
        }
        match (&mut self.dups, o.dups) {
            (Some(d), Some(od)) => *d += od,
            (None, Some(od)) => self.dups = Some(od),
            _ => {}
        }
    }
}

/// The form a result is counted under: the variant's standard form of what it says (`0 - 2`
/// and `0–2` are `0-2`, `½-½` in English checkers is `1/2-1/2`); a score that is no game
/// result, or a result of a game no variant fits, as written without spaces and with ASCII
/// hyphens; [`NO_RESULT`] for none.
fn result_key(result: Option<&str>, outcome: Outcome, variant: Option<Variant>) -> String {
    let Some(text) = result else {
        return NO_RESULT.to_string();
    };
    match (variant, outcome) {
        (_, Outcome::Other) | (None, _) => outcome::compact(text).replace('½', "1/2"),
        (Some(v), o) => outcome::standard_string(o, v.rules()).to_string(),
    }
}

fn median(counts: &BTreeMap<u32, u64>) -> f64 {
    let n: u64 = counts.values().sum();
    if n == 0 {
        return 0.0;
    }
    // The values at 0-based ranks (n-1)/2 and n/2, averaged.
    let (lo, hi) = ((n - 1) / 2, n / 2);
    let mut seen = 0u64;
    let mut a = None;
    for (&v, &c) in counts {
        let next = seen + c;
        if a.is_none() && lo < next {
            a = Some(v);
        }
        if hi < next {
            return (f64::from(a.unwrap_or(v)) + f64::from(v)) / 2.0;
        }
        seen = next;
    }
    0.0
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::stats::{Options, analyse};
    use crate::syntax::read_games;

    /// Two variants, results in several forms, duplicates of every kind.
    const MIXED: &[u8] = include_bytes!("../../../fixtures/stats/mixed.pdn");

    fn records() -> Vec<GameFacts> {
        let opts = Options {
            duplicates: true,
            fuzzy: Some(4),
            min_plies: 2,
            ..Options::default()
        };
        read_games(MIXED)
            .iter()
            .map(|g| analyse(g, 0, &opts).0)
            .collect()
    }

    #[test]
    fn merging_in_any_order_gives_the_same_statistics() {
        let mut whole = Stats::new(true, Some(4), 2);
        for r in records() {
            whole.add(&r);
        }
        assert_eq!(whole.games, 9);
        assert_eq!(whole.duplicates().len(), 6);
        // Odd and even games apart, each added backwards, then merged.
        let mut odd = Stats::new(true, Some(4), 2);
        let mut even = Stats::new(true, Some(4), 2);
        for (i, r) in records().into_iter().enumerate().rev() {
            if i % 2 == 0 { &mut even } else { &mut odd }.add(&r);
        }
        odd += even;
        assert_eq!(odd.duplicates(), whole.duplicates());
        assert_eq!(odd.players(), whole.players());
        assert_eq!(odd.results(), whole.results());
        assert_eq!(odd.openings(), whole.openings());
    }

    #[test]
    fn results_are_keyed_by_the_variant_standard_form() {
        let intl = Some(Variant::International);
        let eng = Some(Variant::English);
        assert_eq!(result_key(Some("0 - 2"), Outcome::SecondWon, intl), "0-2");
        assert_eq!(result_key(Some("0–2"), Outcome::SecondWon, intl), "0-2");
        assert_eq!(result_key(Some("1/2-1/2"), Outcome::Draw, intl), "1-1");
        assert_eq!(result_key(Some("½–½"), Outcome::Draw, eng), "1/2-1/2");
        assert_eq!(result_key(Some("4 - 6"), Outcome::Other, eng), "4-6");
        assert_eq!(result_key(Some("½-½"), Outcome::Draw, None), "1/2-1/2");
        assert_eq!(result_key(None, Outcome::Unknown, eng), NO_RESULT);
    }

    #[test]
    fn medians() {
        let m: BTreeMap<u32, u64> = [(1, 1), (3, 1)].into();
        assert_eq!(median(&m), 2.0);
        let m: BTreeMap<u32, u64> = [(1, 2), (3, 1)].into();
        assert_eq!(median(&m), 1.0);
        assert_eq!(median(&BTreeMap::new()), 0.0);
    }
}
