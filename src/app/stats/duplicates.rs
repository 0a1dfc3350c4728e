//! Duplicate games: the 128-bit keys of whole move sequences and of their first N plies,
//! the first game seen under each key, and the list of later games that repeat one.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::ops::AddAssign;

use super::Location;

/// Why two games are duplicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    /// The whole move sequences are identical (same variant and start position).
    Identical,
    /// The first N plies are identical.
    SameStart(u32),
}

/// A game that duplicates an earlier one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// The later game.
    pub game: Location,
    /// The first game with the same moves.
    pub first: Location,
    /// Why.
    pub reason: Reason,
    /// Plies compared.
    pub plies: u32,
}

#[derive(Clone, Debug, Default)]
pub(super) struct Dups {
    /// Per key: the first game and its plies.
    exact: HashMap<u128, (Location, u32)>,
    prefix: HashMap<u128, Location>,
    /// Later games: key and location (the first is looked up at the end, so that merging
    /// in any order gives the same answer).
    exact_later: Vec<(u128, Location)>,
    prefix_later: Vec<(u128, Location)>,
    fuzzy: u32,
}

impl Dups {
    /// No games yet; `fuzzy` is the N of `--fuzzy N` (0: not asked).
    pub(super) fn new(fuzzy: u32) -> Dups {
        Dups {
            fuzzy,
            ..Dups::default()
        }
    }

    pub(super) fn add_exact(&mut self, key: u128, at: Location, plies: u32) {
        match self.exact.entry(key) {
            Entry::Vacant(v) => {
                v.insert((at, plies));
            }
            Entry::Occupied(mut o) => {
                if at < o.get().0 {
                    let old = o.insert((at, plies));
                    self.exact_later.push((key, old.0));
                } else {
                    self.exact_later.push((key, at));
                }
            }
        }
    }

    pub(super) fn add_prefix(&mut self, key: u128, at: Location) {
        match self.prefix.entry(key) {
            Entry::Vacant(v) => {
                v.insert(at);
            }
            Entry::Occupied(mut o) => {
                if at < *o.get() {
                    let old = o.insert(at);
                    self.prefix_later.push((key, old));
                } else {
                    self.prefix_later.push((key, at));
                }
            }
        }
    }

    pub(super) fn list(&self) -> Vec<Duplicate> {
        let mut out: Vec<Duplicate> = self
            .exact_later
            .iter()
            .filter_map(|(k, at)| {
                self.exact.get(k).map(|&(first, plies)| Duplicate {
                    game: *at,
                    first,
                    reason: Reason::Identical,
                    plies,
                })
            })
            .collect();
        let identical: HashSet<Location> = out.iter().map(|d| d.game).collect();
        out.extend(self.prefix_later.iter().filter_map(|(k, at)| {
            if identical.contains(at) {
                return None;
            }
            self.prefix.get(k).map(|&first| Duplicate {
                game: *at,
                first,
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
        for (k, (at, plies)) in o.exact {
            self.add_exact(k, at, plies);
        }
        self.exact_later.extend(o.exact_later);
        for (k, at) in o.prefix {
            self.add_prefix(k, at);
        }
        self.prefix_later.extend(o.prefix_later);
    }
}

/// The reason as CSV and JSON write it.
pub(super) fn reason_text(r: Reason) -> &'static str {
    match r {
        Reason::Identical => "identical",
        Reason::SameStart(_) => "same-start",
    }
}
