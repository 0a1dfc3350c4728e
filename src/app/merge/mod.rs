//! Duplicate games merged (`pdn merge`): a game's identity (variant, start position, the
//! main line's moves in canonical notation, from its replay), the facts that tell two games
//! of the same moves apart (players, FMJD ids, date, event, round, result) and the score of
//! a pair; the plan of a run (which game is kept for each set of copies, which are dropped,
//! which are reported: colours reversed, contained, the same moves but another game); and
//! the merged game (the union of the copies' tags with the best value of each, their
//! comments, NAGs and variations kept).

use std::collections::{HashMap, HashSet};

use crate::app::model::key::Key;
use crate::syntax::{Game, Item, Line, Span, Tag};

pub mod names;

use crate::app::model::outcome::{self, Outcome};
use crate::app::write::export::Analysed;
use crate::app::write::export::plies::Form;
use names::Likeness;

/// The identity of a game: `variant\nFEN\n` then each main-line move in canonical notation
/// followed by a space (a setup as `/FEN/`). Two games are copies only if these bytes are
/// equal; a contained game's bytes begin the longer game's.
pub fn identity(a: &Analysed<'_>, out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(a.variant().map_or("?", |v| v.name()).as_bytes());
    out.push(b'\n');
    if let Some(f) = a.start_fen() {
        out.extend_from_slice(f.as_bytes());
    }
    out.push(b'\n');
    let mut s = String::new();
    for item in &a.normal.body.items {
        match item {
            Item::Move(m) => {
                s.clear();
                a.push_move_text(a.game, m, Form::Pdn, &mut s);
                out.extend_from_slice(s.as_bytes());
                out.push(b' ');
            }
            Item::Setup(set) => {
                out.push(b'/');
                out.extend_from_slice(set.fen.trim().as_bytes());
                out.extend_from_slice(b"/ ");
            }
            _ => {}
        }
    }
}

/// The length of an identity's head (variant and FEN): its moves follow.
fn head_len(id: &[u8]) -> usize {
    let mut lines = 0;
    for (i, &b) in id.iter().enumerate() {
        if b == b'\n' {
            lines += 1;
            if lines == 2 {
                return i + 1;
            }
        }
    }
    id.len()
}

/// The key of an identity (a hash: equal keys are checked against the identities).
pub fn key(id: &[u8]) -> u128 {
    let mut k = Key::seeded(0x3c, 0xc3);
    k.write(id);
    k.finish()
}

/// Plies in an identity.
pub fn plies(id: &[u8]) -> u32 {
    id[head_len(id)..].iter().filter(|&&b| b == b' ').count() as u32
}

/// The keys of an identity's strict prefixes of at least `min` plies (the identities of the
/// games it contains), with their plies.
pub fn prefix_keys(id: &[u8], min: u32, out: &mut Vec<(u128, u32)>) {
    out.clear();
    let head = head_len(id);
    let mut k = Key::seeded(0x3c, 0xc3);
    k.write(&id[..head]);
    let mut start = head;
    let mut ply = 0;
    for i in head..id.len() {
        if id[i] == b' ' {
            k.write(&id[start..=i]);
            start = i + 1;
            ply += 1;
            if ply >= min && i + 1 < id.len() {
                out.push((k.finish(), ply));
            }
        }
    }
}

/// A date as PDN writes it (`2019.05.12`, `2019.??.??`, `2019`), or day first
/// (`12.05.2019`, `12/05/2019`), or ISO (`2019-05-12`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date {
    /// Year.
    pub year: u16,
    /// Month, if known.
    pub month: Option<u8>,
    /// Day, if known.
    pub day: Option<u8>,
}

impl Date {
    /// Read a date (`None`: no year in it).
    pub fn parse(s: &str) -> Option<Date> {
        let parts: Vec<&str> = s.trim().split(['.', '-', '/', ' ']).collect();
        let num = |p: &str| p.parse::<u16>().ok();
        let (y, m, d) = match parts.as_slice() {
            [y] => (num(y)?, None, None),
            [a, b] if a.len() == 4 => (num(a)?, num(b), None),
            [a, b, c] if a.len() == 4 => (num(a)?, num(b), num(c)),
            [a, b, c] if c.len() == 4 => (num(c)?, num(b), num(a)),
            _ => return None,
        };
        if !(1000..=2999).contains(&y) {
            return None;
        }
        let month = m.filter(|m| (1..=12).contains(m)).map(|m| m as u8);
        let day = d.filter(|d| (1..=31).contains(d)).map(|d| d as u8);
        Some(Date {
            year: y,
            month,
            day: month.and(day),
        })
    }

    /// How much it says: 1 (a year), 2 (and a month), 3 (a day).
    pub fn precision(&self) -> u8 {
        1 + u8::from(self.month.is_some()) + u8::from(self.day.is_some())
    }

    /// True if the two dates can be one (each part known in both is equal).
    pub fn agrees(&self, o: &Date) -> bool {
        self.year == o.year
            && (self.month.is_none() || o.month.is_none() || self.month == o.month)
            && (self.day.is_none() || o.day.is_none() || self.day == o.day)
    }
}

/// A tag value that says something (not empty, not `?`, `-`, `????.??.??`).
pub fn known(v: &str) -> Option<&str> {
    let v = v.trim();
    (!v.is_empty() && !v.chars().all(|c| matches!(c, '?' | '-' | '.' | '*' | ' '))).then_some(v)
}

/// What tells two games of the same moves apart: their tags as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// White, Black.
    pub players: [Option<String>; 2],
    /// WhiteFmjdId, BlackFmjdId.
    pub ids: [Option<String>; 2],
    /// Date.
    pub date: Option<String>,
    /// Event.
    pub event: Option<String>,
    /// Round.
    pub round: Option<String>,
    /// Result.
    pub result: Option<String>,
}

/// The tags [`Facts`] reads, in its order.
const FACT_TAGS: [&str; 8] = [
    "White",
    "Black",
    "WhiteFmjdId",
    "BlackFmjdId",
    "Date",
    "Event",
    "Round",
    "Result",
];

impl Facts {
    /// The facts of a game's tags.
    pub fn of(tag: impl Fn(&str) -> Option<String>) -> Facts {
        let mut v = FACT_TAGS.map(|t| tag(t).and_then(|v| known(&v).map(str::to_string)));
        let mut take = |i: usize| v[i].take();
        Facts {
            players: [take(0), take(1)],
            ids: [take(2), take(3)],
            date: take(4),
            event: take(5),
            round: take(6),
            result: take(7),
        }
    }

    fn fields(&self) -> [&Option<String>; 8] {
        [
            &self.players[0],
            &self.players[1],
            &self.ids[0],
            &self.ids[1],
            &self.date,
            &self.event,
            &self.round,
            &self.result,
        ]
    }

    /// Append these facts as bytes ([`Facts::decode`] reads them back).
    pub fn encode(&self, out: &mut Vec<u8>) {
        for f in self.fields() {
            match f {
                None => out.extend_from_slice(&u32::MAX.to_le_bytes()),
                Some(s) => {
                    out.extend_from_slice(&(s.len() as u32).to_le_bytes());
                    out.extend_from_slice(s.as_bytes());
                }
            }
        }
    }

    /// Read facts written by [`Facts::encode`]; returns them and the bytes read.
    pub fn decode(b: &[u8]) -> Option<(Facts, usize)> {
        let mut at = 0;
        let mut v: [Option<String>; 8] = Default::default();
        for slot in &mut v {
            let n = u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?);
            at += 4;
            if n != u32::MAX {
                let n = n as usize;
                *slot = Some(String::from_utf8(b.get(at..at + n)?.to_vec()).ok()?);
                at += n;
            }
        }
        let [w, bl, wi, bi, d, e, r, res] = v;
        Some((
            Facts {
                players: [w, bl],
                ids: [wi, bi],
                date: d,
                event: e,
                round: r,
                result: res,
            },
            at,
        ))
    }

    /// The facts of a set of copies: the best value of each ([`best`]).
    fn join(&mut self, o: &Facts) {
        for i in 0..2 {
            self.players[i] = best_name(self.players[i].take(), o.players[i].as_deref());
            if self.ids[i].is_none() {
                self.ids[i].clone_from(&o.ids[i]);
            }
        }
        self.date = best_value("Date", self.date.take(), o.date.as_deref());
        self.event = best_value("Event", self.event.take(), o.event.as_deref());
        self.round = best_value("Round", self.round.take(), o.round.as_deref());
        self.result = best_value("Result", self.result.take(), o.result.as_deref());
    }
}

fn best_name(a: Option<String>, b: Option<&str>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) if names::form_rank(b) > names::form_rank(&a) => Some(b.to_string()),
        (None, Some(b)) => Some(b.to_string()),
        (a, _) => a,
    }
}

/// The better of two values of a tag: full names over initials, a full date over a year, a
/// known result over `*`, the longer event or site; else the first.
fn best_value(tag: &str, a: Option<String>, b: Option<&str>) -> Option<String> {
    let Some(b) = b.and_then(known) else {
        return a;
    };
    let Some(a) = a else {
        return Some(b.to_string());
    };
    let better = match tag {
        "White" | "Black" => names::form_rank(b) > names::form_rank(&a),
        "Date" => {
            Date::parse(b).map(|d| d.precision()).unwrap_or(0)
                > Date::parse(&a).map(|d| d.precision()).unwrap_or(0)
        }
        "Result" => {
            matches!(outcome::parse(&a), Outcome::Unknown)
                && !matches!(outcome::parse(b), Outcome::Unknown)
        }
        "Event" | "Site" | "Annotator" => b.chars().count() > a.chars().count(),
        _ => false,
    };
    Some(if better { b.to_string() } else { a })
}

/// One thing a comparison rests on, with its points (see [`Mark::points`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Mark {
    SameWhite,
    SameBlack,
    InitialsWhite,
    InitialsBlack,
    AnotherWhite,
    AnotherBlack,
    Swapped,
    IdsWhite,
    IdsBlack,
    SameDate,
    DatesAgree,
    OtherYears,
    OtherDates,
    SameRound,
    OtherRounds,
    SameEvent,
    OtherResults,
}

impl Mark {
    const ALL: [Mark; 17] = [
        Mark::SameWhite,
        Mark::SameBlack,
        Mark::InitialsWhite,
        Mark::InitialsBlack,
        Mark::AnotherWhite,
        Mark::AnotherBlack,
        Mark::Swapped,
        Mark::IdsWhite,
        Mark::IdsBlack,
        Mark::SameDate,
        Mark::DatesAgree,
        Mark::OtherYears,
        Mark::OtherDates,
        Mark::SameRound,
        Mark::OtherRounds,
        Mark::SameEvent,
        Mark::OtherResults,
    ];

    fn points(self) -> f64 {
        match self {
            Mark::SameWhite | Mark::SameBlack | Mark::SameDate => 1.0,
            Mark::InitialsWhite
            | Mark::InitialsBlack
            | Mark::DatesAgree
            | Mark::SameRound
            | Mark::SameEvent => 0.5,
            Mark::AnotherWhite | Mark::AnotherBlack | Mark::OtherYears => -3.0,
            Mark::OtherDates => -2.5,
            Mark::OtherRounds => -2.0,
            Mark::OtherResults => -1.0,
            Mark::Swapped | Mark::IdsWhite | Mark::IdsBlack => 0.0,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Mark::SameWhite => "the same White",
            Mark::SameBlack => "the same Black",
            Mark::InitialsWhite => "White alike (initials)",
            Mark::InitialsBlack => "Black alike (initials)",
            Mark::AnotherWhite => "another White",
            Mark::AnotherBlack => "another Black",
            Mark::Swapped => "the players swapped",
            Mark::IdsWhite => "different FMJD ids of White",
            Mark::IdsBlack => "different FMJD ids of Black",
            Mark::SameDate => "the same date",
            Mark::DatesAgree => "dates that agree",
            Mark::OtherYears => "other years",
            Mark::OtherDates => "other dates",
            Mark::SameRound => "the same round",
            Mark::OtherRounds => "other rounds",
            Mark::SameEvent => "the same event",
            Mark::OtherResults => "other results",
        }
    }
}

/// How two games of the same moves compare: the points for and against their being one
/// game and what they rest on (16 bytes: a run keeps one per copy dropped and per game
/// reported; the words are made when the audit is written).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// Points: at least [`THRESHOLD`] to merge.
    pub points: f64,
    /// The plies in common.
    plies: u32,
    /// The [`Mark`]s, one bit each.
    marks: u32,
}

/// The points two copies need.
pub const THRESHOLD: f64 = 2.0;

/// The points of the moves in common: none under 10 plies (an opening or a miniature, not
/// a copy), up to 3 from 40.
fn plies_points(plies: u32) -> f64 {
    match plies {
        0..10 => 0.0,
        10..20 => 1.0,
        20..40 => 2.0,
        _ => 3.0,
    }
}

impl Verdict {
    fn has(&self, m: Mark) -> bool {
        self.marks & (1 << m as u32) != 0
    }

    /// The players of one are those of the other, swapped.
    pub fn reversed(&self) -> bool {
        self.has(Mark::Swapped)
    }

    /// Different FMJD ids: never one game.
    pub fn never(&self) -> bool {
        self.has(Mark::IdsWhite) || self.has(Mark::IdsBlack)
    }

    /// The score in [0, 1] the audit writes: the points through a logistic curve centred on
    /// the threshold (0.5 = undecided); 0 for two FMJD ids.
    pub fn score(&self) -> f64 {
        if self.never() {
            return 0.0;
        }
        let s = 1.0 / (1.0 + (-(self.points - THRESHOLD)).exp());
        (s * 1000.0).round() / 1000.0
    }

    /// True if the two are one game.
    pub fn same(&self) -> bool {
        !self.never() && !self.reversed() && self.points >= THRESHOLD
    }

    /// What the points rest on, in words: `+3 the same 101 plies`, `-3 other years`.
    pub fn evidence(&self) -> Vec<String> {
        let sign = |p: f64| if p >= 0.0 { "+" } else { "" };
        let p = plies_points(self.plies);
        let mut out = vec![format!("{}{p} the same {} plies", sign(p), self.plies)];
        for m in Mark::ALL {
            if self.has(m) {
                let p = m.points();
                out.push(match m {
                    Mark::Swapped | Mark::IdsWhite | Mark::IdsBlack => m.words().to_string(),
                    _ => format!("{}{p} {}", sign(p), m.words()),
                });
            }
        }
        out
    }
}

/// Compare two games of the same `plies` moves by their facts.
pub fn compare(a: &Facts, b: &Facts, plies: u32) -> Verdict {
    let mut v = Verdict {
        points: plies_points(plies),
        plies,
        marks: 0,
    };
    let mut add = |m: Mark| {
        v.points += m.points();
        v.marks |= 1 << m as u32;
    };
    for (i, m) in [Mark::IdsWhite, Mark::IdsBlack].into_iter().enumerate() {
        if let (Some(x), Some(y)) = (&a.ids[i], &b.ids[i])
            && x.trim() != y.trim()
        {
            add(m);
        }
    }
    let like = |x: &Option<String>, y: &Option<String>| match (x, y) {
        (Some(x), Some(y)) => Likeness::of(x, y),
        _ => Likeness::Unknown,
    };
    let same = [
        like(&a.players[0], &b.players[0]),
        like(&a.players[1], &b.players[1]),
    ];
    let crossed = [
        like(&a.players[0], &b.players[1]),
        like(&a.players[1], &b.players[0]),
    ];
    let reversed =
        same.contains(&Likeness::Different) && crossed.iter().all(|l| *l >= Likeness::Initials);
    let marks = [
        [Mark::SameWhite, Mark::InitialsWhite, Mark::AnotherWhite],
        [Mark::SameBlack, Mark::InitialsBlack, Mark::AnotherBlack],
    ];
    for (l, [same, initials, another]) in same.iter().zip(marks) {
        match l {
            Likeness::Same => add(same),
            Likeness::Initials => add(initials),
            Likeness::Different if !reversed => add(another),
            _ => {}
        }
    }
    if reversed {
        add(Mark::Swapped);
    }
    match (
        a.date.as_deref().and_then(Date::parse),
        b.date.as_deref().and_then(Date::parse),
    ) {
        (Some(x), Some(y)) if x.agrees(&y) => {
            add(if x.precision() == 3 && y.precision() == 3 {
                Mark::SameDate
            } else {
                Mark::DatesAgree
            });
        }
        (Some(x), Some(y)) if x.year != y.year => add(Mark::OtherYears),
        (Some(_), Some(_)) => add(Mark::OtherDates),
        _ => {}
    }
    if let (Some(x), Some(y)) = (&a.round, &b.round) {
        add(if x.trim() == y.trim() {
            Mark::SameRound
        } else {
            Mark::OtherRounds
        });
    }
    if let (Some(x), Some(y)) = (&a.event, &b.event)
        && fold(x) == fold(y)
    {
        add(Mark::SameEvent);
    }
    if let (Some(x), Some(y)) = (&a.result, &b.result) {
        let (p, q) = (outcome::parse(x), outcome::parse(y));
        if p != q && p != Outcome::Unknown && q != Outcome::Unknown {
            add(Mark::OtherResults);
        }
    }
    v
}

fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The surname keys of a game's two players (`None` if one is not named).
fn surname_keys(f: &Facts) -> Option<Vec<String>> {
    let w = names::parse(f.players[0].as_deref()?)?.surname_key();
    let b = names::parse(f.players[1].as_deref()?)?.surname_key();
    Some(if w == b { vec![w] } else { vec![w, b] })
}

/// What a run does with a game.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// Written as it is (no copy of it).
    Alone,
    /// Kept for a set of copies: written merged with them (`copies`: the others).
    Kept {
        /// The games dropped for it.
        copies: Vec<u32>,
    },
    /// Dropped: a copy of `kept`.
    Dropped {
        /// The game kept.
        kept: u32,
        /// The comparison with the set's facts.
        verdict: Verdict,
    },
}

/// A game reported, not merged.
#[derive(Clone, Debug, PartialEq)]
pub struct Reported {
    /// The game.
    pub game: u32,
    /// The other game.
    pub other: u32,
    /// Why: `colours-reversed`, `contained`, `different-game`, `hash-collision`.
    pub why: &'static str,
    /// The comparison, when facts were compared.
    pub verdict: Option<Verdict>,
}

/// A set of copies being made: the game kept, the facts of the set (the best of its
/// copies'), the copies with their verdicts.
type Set = (u32, Facts, Vec<(u32, Verdict)>);

/// What the plan needs of a game.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The key of its identity (`None`: no identity, never merged).
    pub key: Option<u128>,
    /// Plies of its main line.
    pub plies: u32,
}

/// The decisions of a run.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// Per game, in input order.
    pub roles: Vec<Role>,
    /// Games reported.
    pub reported: Vec<Reported>,
}

/// Decide: games of one key are checked to have the same identity (`identity(i)`), then
/// joined set by set in input order, each game with the first set whose facts (the best of
/// its copies') it agrees with; games of the same moves that no set takes are reported;
/// contained games (`min_contained` plies at least) are reported with the longer game.
pub fn plan(
    entries: &[Entry],
    identity: &mut dyn FnMut(u32) -> Vec<u8>,
    facts: &mut dyn FnMut(u32) -> Facts,
    min_contained: u32,
) -> Plan {
    let n = entries.len();
    let mut roles = vec![Role::Alone; n];
    let mut reported = Vec::new();
    // The games by key (sorted: 20 bytes a game, no map), then the groups of two or more
    // in the order of their first game.
    let mut keyed: Vec<(u128, u32)> = entries
        .iter()
        .enumerate()
        .filter_map(|(i, e)| e.key.map(|k| (k, i as u32)))
        .collect();
    keyed.sort_unstable();
    let mut groups: Vec<&[(u128, u32)]> = keyed
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|g| g.len() > 1)
        .collect();
    groups.sort_unstable_by_key(|g| g[0].1);
    for g in groups {
        let g: Vec<u32> = g.iter().map(|x| x.1).collect();
        // The same identity, checked byte for byte (a hash collision never merges).
        let mut classes: Vec<(Vec<u8>, Vec<u32>)> = Vec::new();
        for &i in &g {
            let id = identity(i);
            match classes.iter_mut().find(|c| c.0 == id) {
                Some(c) => c.1.push(i),
                None => {
                    if let Some(first) = classes.first() {
                        reported.push(Reported {
                            game: i,
                            other: first.1[0],
                            why: "hash-collision",
                            verdict: None,
                        });
                    }
                    classes.push((id, vec![i]));
                }
            }
        }
        for (_, members) in classes {
            let mut sets: Vec<Set> = Vec::new();
            // The sets by the surnames of their players, and those with a player unnamed: a
            // game is compared only with the sets that may be its game (a line played
            // thousands of times costs no square of them).
            let mut by_surname: HashMap<String, Vec<usize>> = HashMap::new();
            let mut unnamed: Vec<usize> = Vec::new();
            for &i in &members {
                let f = facts(i);
                let plies = entries[i as usize].plies;
                let keys = surname_keys(&f);
                let candidates: Vec<usize> = match &keys {
                    Some(k) => {
                        let mut c: Vec<usize> = k
                            .iter()
                            .flat_map(|k| by_surname.get(k).into_iter().flatten().copied())
                            .chain(unnamed.iter().copied())
                            .collect();
                        c.sort_unstable();
                        c.dedup();
                        c
                    }
                    None => (0..sets.len()).collect(),
                };
                let verdicts: Vec<(usize, Verdict)> = candidates
                    .iter()
                    .map(|&k| (k, compare(&sets[k].1, &f, plies)))
                    .collect();
                let best = verdicts
                    .iter()
                    .filter(|(_, v)| v.same())
                    .max_by(|a, b| a.1.points.total_cmp(&b.1.points))
                    .map(|(k, v)| (*k, *v));
                match best {
                    Some((k, v)) => {
                        sets[k].1.join(&f);
                        sets[k].2.push((i, v));
                    }
                    None => {
                        let k = sets.len();
                        match &keys {
                            Some(keys) => {
                                for key in keys {
                                    by_surname.entry(key.clone()).or_default().push(k);
                                }
                            }
                            None => unnamed.push(k),
                        }
                        // (No set of its players: said against the first set.)
                        let nearest = verdicts
                            .into_iter()
                            .max_by(|a, b| a.1.points.total_cmp(&b.1.points))
                            .or_else(|| sets.first().map(|s| (0, compare(&s.1, &f, plies))));
                        if let Some((k, v)) = nearest {
                            reported.push(Reported {
                                game: i,
                                other: sets[k].0,
                                why: if v.reversed() {
                                    "colours-reversed"
                                } else {
                                    "different-game"
                                },
                                verdict: Some(v),
                            });
                        }
                        sets.push((i, f, Vec::new()));
                    }
                }
            }
            for (kept, _, copies) in sets {
                if copies.is_empty() {
                    continue;
                }
                roles[kept as usize] = Role::Kept {
                    copies: copies.iter().map(|c| c.0).collect(),
                };
                for (c, verdict) in copies {
                    roles[c as usize] = Role::Dropped { kept, verdict };
                }
            }
        }
    }
    // Contained games: a game whose whole identity begins a longer game's.
    let whole: HashMap<u128, u32> = {
        let mut m = HashMap::new();
        for (i, e) in entries.iter().enumerate() {
            if let Some(k) = e.key
                && e.plies >= min_contained
                && !matches!(roles[i], Role::Dropped { .. })
            {
                m.entry(k).or_insert(i as u32);
            }
        }
        m
    };
    if !whole.is_empty() {
        let mut seen: HashSet<u32> = HashSet::new();
        let mut keys = Vec::new();
        for (i, e) in entries.iter().enumerate() {
            if e.key.is_none()
                || matches!(roles[i], Role::Dropped { .. })
                || e.plies <= min_contained
            {
                continue;
            }
            let id = identity(i as u32);
            prefix_keys(&id, min_contained, &mut keys);
            for &(k, p) in &keys {
                let Some(&short) = whole.get(&k) else {
                    continue;
                };
                if entries[short as usize].plies != p || seen.contains(&short) {
                    continue;
                }
                let sid = identity(short);
                if id.starts_with(&sid) {
                    seen.insert(short);
                    reported.push(Reported {
                        game: short,
                        other: i as u32,
                        why: "contained",
                        verdict: None,
                    });
                }
            }
        }
    }
    reported.sort_by_key(|r| (r.game, r.other));
    Plan { roles, reported }
}

/// Shift every span of a line by `by` bytes (its text moved in a longer source).
fn shift(line: &mut Line, by: u32) {
    let s = |sp: &mut Span| {
        sp.start += by;
        sp.end += by;
    };
    for item in &mut line.items {
        match item {
            Item::Move(m) => {
                s(&mut m.span);
                if let Some(n) = &mut m.number {
                    s(&mut n.span);
                }
            }
            Item::Comment(c) => s(&mut c.span),
            Item::Nag(n) => s(&mut n.span),
            Item::Variation(v) => {
                s(&mut v.span);
                shift(&mut v.line, by);
            }
            Item::Setup(x) => s(&mut x.span),
        }
    }
}

/// The annotations of a main line after each ply (index 0: before the first move): its
/// comments, NAGs and variations.
fn annotations(line: &Line) -> Vec<Vec<&Item>> {
    let mut out = vec![Vec::new()];
    for item in &line.items {
        match item {
            Item::Move(_) => out.push(Vec::new()),
            Item::Comment(_) | Item::Nag(_) | Item::Variation(_) => {
                if let Some(last) = out.last_mut() {
                    last.push(item);
                }
            }
            Item::Setup(_) => {}
        }
    }
    out
}

/// What tells two annotations apart: their kind and text, spaces collapsed.
fn annotation_key(game: &Game, item: &Item) -> String {
    let collapse = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    match item {
        Item::Comment(c) => format!("c{}", collapse(&c.text)),
        Item::Nag(n) => format!("n{}", n.value),
        Item::Variation(v) => format!("v{}", collapse(game.text(v.span))),
        Item::Move(_) | Item::Setup(_) => String::new(),
    }
}

/// The game kept for a set of copies, merged: `games[0]` (the kept one) with the tags of
/// every copy (each tag once, the best value of each: `best_value`; the kept game's order,
/// then new tags as they come), and every comment, NAG and variation of the copies that it
/// lacks, after the same ply of the main line (the same text once).
pub fn merge_games(mut games: Vec<Game>) -> Game {
    if games.is_empty() {
        return Game::default();
    }
    let mut kept = games.remove(0);
    // Tags.
    let mut tags: Vec<Tag> = Vec::new();
    for g in std::iter::once(&kept).chain(games.iter()) {
        for t in &g.tags {
            match tags.iter_mut().find(|x| x.name == t.name) {
                Some(x) => {
                    if let Some(v) =
                        best_value(&t.name, known(&x.value).map(str::to_string), Some(&t.value))
                    {
                        x.value = v;
                    }
                }
                None => tags.push(Tag::new(t.name.clone(), t.value.clone(), Span::default())),
            }
        }
    }
    // The names and ids: Facts' join, so that the names come with their ids.
    kept.tags = tags;
    // The result the movetext ends with agrees with the Result tag kept.
    if let Some(r) = kept.tag("Result").map(str::to_string) {
        let ends = kept.result.as_ref().map(|t| outcome::parse(&t.text));
        if ends.is_some_and(|o| o != outcome::parse(&r)) {
            kept.result = None;
        }
    }
    // Annotations.
    let mut extra: Vec<Vec<Item>> = Vec::new();
    let mut seen: Vec<HashSet<String>> = annotations(&kept.body)
        .iter()
        .map(|a| a.iter().map(|i| annotation_key(&kept, i)).collect())
        .collect();
    extra.resize(seen.len(), Vec::new());
    for g in &games {
        let by = kept.source.len() as u32 + 1;
        let mut body = g.body.clone();
        shift(&mut body, by);
        for (ply, items) in annotations(&body).into_iter().enumerate() {
            if ply >= seen.len() {
                break;
            }
            for item in items {
                let k = annotation_key(g, &unshifted(item, by));
                if seen[ply].insert(k) {
                    extra[ply].push(item.clone());
                }
            }
        }
        kept.source.push('\n');
        kept.source.push_str(&g.source);
    }
    if extra.iter().any(|e| !e.is_empty()) {
        let mut items = Vec::with_capacity(kept.body.items.len());
        let mut ply = 0;
        for item in std::mem::take(&mut kept.body.items) {
            if matches!(item, Item::Move(_)) {
                items.append(&mut extra[ply]);
                ply += 1;
            }
            items.push(item);
        }
        if let Some(e) = extra.get_mut(ply) {
            items.append(e);
        }
        kept.body.items = items;
    }
    kept
}

/// An item with its spans shifted back by `by` (to read its text in its own game).
fn unshifted(item: &Item, by: u32) -> Item {
    let mut line = Line {
        items: vec![item.clone()],
    };
    shift_back(&mut line, by);
    line.items.pop().unwrap_or_else(|| item.clone())
}

fn shift_back(line: &mut Line, by: u32) {
    let s = |sp: &mut Span| {
        sp.start = sp.start.saturating_sub(by);
        sp.end = sp.end.saturating_sub(by);
    };
    for item in &mut line.items {
        match item {
            Item::Move(m) => s(&mut m.span),
            Item::Comment(c) => s(&mut c.span),
            Item::Nag(n) => s(&mut n.span),
            Item::Variation(v) => {
                s(&mut v.span);
                shift_back(&mut v.line, by);
            }
            Item::Setup(x) => s(&mut x.span),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        let d = Date::parse("2019.05.12").unwrap();
        assert_eq!(d, Date::parse("12.05.2019").unwrap());
        assert_eq!(d, Date::parse("2019-05-12").unwrap());
        assert_eq!(Date::parse("2019.??.??").unwrap().precision(), 1);
        assert!(d.agrees(&Date::parse("2019").unwrap()));
        assert!(!d.agrees(&Date::parse("2019.05.13").unwrap()));
        assert_eq!(Date::parse("????.??.??"), None);
    }

    #[test]
    fn best_values() {
        assert_eq!(
            best_value("Date", Some("2019".into()), Some("2019.05.12")).as_deref(),
            Some("2019.05.12")
        );
        assert_eq!(
            best_value(
                "White",
                Some("M. Callegari".into()),
                Some("Callegari, Mickaël")
            )
            .as_deref(),
            Some("Callegari, Mickaël")
        );
        assert_eq!(
            best_value("Result", Some("*".into()), Some("2-0")).as_deref(),
            Some("2-0")
        );
        assert_eq!(
            best_value("Event", Some("WC".into()), Some("World Championship")).as_deref(),
            Some("World Championship")
        );
        assert_eq!(
            best_value("Round", Some("3".into()), Some("?")).as_deref(),
            Some("3")
        );
    }

    fn facts(w: &str, b: &str, date: &str) -> Facts {
        Facts {
            players: [Some(w.into()), Some(b.into())],
            date: Some(date.into()),
            ..Facts::default()
        }
    }

    #[test]
    fn verdicts() {
        let a = facts("Callegari, Mickaël", "Baliakin, A.", "2019.05.12");
        let b = facts("M. Callegari", "Aleksandr Baljakin", "2019");
        assert!(compare(&a, &b, 60).same());
        // A miniature played twice.
        let c = facts("Sijbrands, Ton", "Wiersma, Harm", "1980.01.01");
        assert!(!compare(&a, &c, 12).same());
        // Colours reversed.
        let d = facts("Baliakin, A.", "Callegari, Mickaël", "2019.05.12");
        let v = compare(&a, &d, 60);
        assert!(v.reversed() && !v.same());
        assert_eq!(
            v.evidence(),
            [
                "+3 the same 60 plies",
                "the players swapped",
                "+1 the same date"
            ]
        );
        // Different FMJD ids.
        let mut e = a.clone();
        e.ids[0] = Some("1".into());
        let mut f = a.clone();
        f.ids[0] = Some("2".into());
        assert!(!compare(&e, &f, 80).same());
    }

    #[test]
    fn facts_round_trip() {
        let mut f = facts("A", "B", "2019");
        f.round = Some("3".into());
        let mut b = Vec::new();
        f.encode(&mut b);
        b.extend_from_slice(b"rest");
        let (g, n) = Facts::decode(&b).unwrap();
        assert_eq!((g, &b[n..]), (f, &b"rest"[..]));
    }

    #[test]
    fn prefixes() {
        let long = b"international\n\n32-28 19-23 28x19 14x23 ";
        let short = b"international\n\n32-28 19-23 ";
        let mut keys = Vec::new();
        prefix_keys(long, 1, &mut keys);
        assert_eq!(keys.len(), 3);
        assert_eq!(keys[1], (key(short), 2));
        assert_eq!(plies(long), 4);
    }
}
