//! Duplicate games: the 128-bit keys of whole move sequences, of their first N plies and of
//! their strict prefixes; the first game seen under each key; and the list of games that
//! repeat another (the same moves, the same moves with the colours reversed, all of their
//! moves the start of a longer game, or the same first N plies).
//!
//! Games shorter than `--min-plies` never reach this module (their keys are not computed):
//! a few plies in common are an opening, not a copy.

use std::collections::hash_map::{DefaultHasher, Entry};
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::ops::AddAssign;

use super::{GameFacts, Location};

/// Why a game is reported as a duplicate of another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    /// The whole move sequences are identical (same variant and start position), and the
    /// players are the same or not both named.
    Identical,
    /// The whole move sequences are identical and the players named in `White` and `Black`
    /// are those of the other game, swapped.
    ColoursReversed,
    /// Every move of this game is the start of the other, longer game (an unfinished copy).
    Contained,
    /// The first N plies are identical (`--fuzzy N`).
    SameStart(u32),
}

impl Reason {
    /// The reason as CSV and JSON write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Identical => "identical",
            Reason::ColoursReversed => "colours-reversed",
            Reason::Contained => "contained",
            Reason::SameStart(_) => "same-start",
        }
    }
}

/// A game that duplicates another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// The game reported: a later copy, or the shorter game of a contained pair.
    pub game: Location,
    /// The other game: the first with the same moves (or first N plies), or the longer game
    /// that contains this one.
    pub other: Location,
    /// Why.
    pub reason: Reason,
    /// Plies in common.
    pub plies: u32,
}

/// The players of a game, both named and different, as hashes of (White, Black) and of
/// (Black, White): a later game whose first equals an earlier game's second has the colours
/// reversed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Players {
    white_black: u64,
    black_white: u64,
}

impl Players {
    fn of(names: &[Option<String>; 2]) -> Option<Players> {
        let [Some(white), Some(black)] = names else {
            return None;
        };
        let pair = |a: &str, b: &str| {
            let mut h = DefaultHasher::new();
            (a, b).hash(&mut h);
            h.finish()
        };
        (white != black).then(|| Players {
            white_black: pair(white, black),
            black_white: pair(black, white),
        })
    }
}

/// A game under a key of its whole move sequence.
#[derive(Clone, Copy, Debug)]
struct Seen {
    at: Location,
    plies: u32,
    players: Option<Players>,
}

/// Keep the earlier of two games under one key in `map`; the other goes to `later`.
fn first_of<T: Copy>(
    map: &mut HashMap<u128, T>,
    later: &mut Vec<(u128, T)>,
    key: u128,
    new: T,
    at: impl Fn(&T) -> Location,
) {
    match map.entry(key) {
        Entry::Vacant(v) => {
            v.insert(new);
        }
        Entry::Occupied(mut o) => {
            if at(&new) < at(o.get()) {
                let old = o.insert(new);
                later.push((key, old));
            } else {
                later.push((key, new));
            }
        }
    }
}

#[derive(Clone, Debug, Default)]
pub(super) struct Dups {
    /// Per key of a whole move sequence: the first game.
    exact: HashMap<u128, Seen>,
    /// Per key of the first N plies: the first game.
    prefix: HashMap<u128, Location>,
    /// Per key of a strict prefix: the first game that goes on past it.
    within: HashMap<u128, Location>,
    /// Later games: key and game (the first is looked up at the end, so that merging in
    /// any order gives the same answer).
    exact_later: Vec<(u128, Seen)>,
    prefix_later: Vec<(u128, Location)>,
    fuzzy: u32,
    min_plies: u32,
}

impl Dups {
    /// No games yet; `fuzzy` is the N of `--fuzzy N` (0: not asked), `min_plies` that of
    /// `--min-plies N`.
    pub(super) fn new(fuzzy: u32, min_plies: u32) -> Dups {
        Dups {
            fuzzy,
            min_plies,
            ..Dups::default()
        }
    }

    /// `--fuzzy` (if asked) and `--min-plies`.
    pub(super) fn options(&self) -> (Option<u32>, u32) {
        ((self.fuzzy > 0).then_some(self.fuzzy), self.min_plies)
    }

    /// Add a game's keys (a game without them, too short or not replayed, adds nothing).
    pub(super) fn add(&mut self, r: &GameFacts) {
        let at = r.at;
        if let Some(k) = r.moves_key {
            let seen = Seen {
                at,
                plies: r.plies,
                players: Players::of(&r.players),
            };
            first_of(&mut self.exact, &mut self.exact_later, k, seen, |s| s.at);
        }
        if let Some(k) = r.prefix_key {
            first_of(&mut self.prefix, &mut self.prefix_later, k, at, |&l| l);
        }
        for &k in &r.prefixes {
            self.add_within(k, at);
        }
    }

    fn add_within(&mut self, key: u128, at: Location) {
        self.within
            .entry(key)
            .and_modify(|l| *l = (*l).min(at))
            .or_insert(at);
    }

    /// The games that duplicate another, in input order: one reason per game, the first
    /// that applies of identical (or colours reversed), contained, same start.
    pub(super) fn list(&self) -> Vec<Duplicate> {
        let mut out: Vec<Duplicate> = self
            .exact_later
            .iter()
            .filter_map(|(k, later)| {
                let first = self.exact.get(k)?;
                let reversed = matches!(
                    (first.players, later.players),
                    (Some(a), Some(b)) if a.black_white == b.white_black
                );
                Some(Duplicate {
                    game: later.at,
                    other: first.at,
                    reason: if reversed {
                        Reason::ColoursReversed
                    } else {
                        Reason::Identical
                    },
                    plies: first.plies,
                })
            })
            .collect();
        // The first game of each move sequence, if a longer game goes on from its last move
        // (its later copies are reported as copies of it).
        out.extend(self.exact.iter().filter_map(|(k, first)| {
            self.within.get(k).map(|&longer| Duplicate {
                game: first.at,
                other: longer,
                reason: Reason::Contained,
                plies: first.plies,
            })
        }));
        let reported: HashSet<Location> = out.iter().map(|d| d.game).collect();
        out.extend(self.prefix_later.iter().filter_map(|(k, at)| {
            if reported.contains(at) {
                return None;
            }
            self.prefix.get(k).map(|&first| Duplicate {
                game: *at,
                other: first,
                reason: Reason::SameStart(self.fuzzy),
                plies: self.fuzzy,
            })
        }));
        out.sort_by_key(|d| (d.game, d.reason));
        out
    }
}

impl AddAssign for Dups {
    /// Merge the keys of other games (in any order: the list is the same).
    fn add_assign(&mut self, o: Dups) {
        for (k, seen) in o.exact {
            first_of(&mut self.exact, &mut self.exact_later, k, seen, |s| s.at);
        }
        self.exact_later.extend(o.exact_later);
        for (k, at) in o.prefix {
            first_of(&mut self.prefix, &mut self.prefix_later, k, at, |&l| l);
        }
        self.prefix_later.extend(o.prefix_later);
        for (k, at) in o.within {
            self.add_within(k, at);
        }
    }
}
