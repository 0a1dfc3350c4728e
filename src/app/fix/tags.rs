//! The tags `pdn fix` writes: `GameType` added or set, `Result` from the final position, the
//! tag or the terminator (in the form of the variant's result type), dates mended to
//! `YYYY.MM.DD`, `PlyCount` set, names and values made writable.

use crate::rules::{Bits, Color, MoveList, Spec, Variant, VariantPosition, with_variant};
use crate::syntax::{ResultToken, Span, Tag, tag_name_for_writing, tag_value_for_writing};

use super::repair::Replay;
use super::{Change, make_writable};
use crate::app::judge::diagnostic::{Code, Severity};
use crate::app::judge::validate::{Verdict, is_pdn_date};
use crate::app::model::gametype::{self, parse_game_type};
use crate::app::model::outcome::{self, Outcome};
use crate::app::model::record::Record;
use crate::app::write::export::pdn::TagSection;
use crate::app::write::export::plies::PlyRecorder;
use crate::syntax::{Drain, write_tags};

/// What the replay of the main line found, for the tags.
pub(super) struct MainInfo {
    /// Main-line plies replayed.
    plies: u32,
    /// Every main-line move replayed, without error.
    clean: bool,
    /// The winner, if the final position is decided.
    winner: Option<(Color, String)>,
}

impl MainInfo {
    /// What the replay recorded in `rec` and reported in `report` found of the main line
    /// whose moves start at `main_moves`.
    pub(super) fn of(
        report: &Verdict,
        rec: &PlyRecorder,
        mut main_moves: impl Iterator<Item = u32>,
        variant: Variant,
    ) -> MainInfo {
        let complete = main_moves.all(|start| rec.find(start).is_some());
        let clean = complete
            && !report.diagnostics.iter().any(|d| {
                d.severity() == Severity::Error
                    && (d.code.is_move_code() || d.code == Code::BadFen)
                    && !d.variation
            });
        let winner = if clean {
            rec.last.and_then(|last| winner(&last, variant))
        } else {
            None
        };
        MainInfo {
            plies: report.plies,
            clean,
            winner,
        }
    }
}

impl MainInfo {
    /// What `--repair`'s replay of the main line found (`None`: its start could not be set
    /// up).
    pub(super) fn of_replay(replay: Option<&Replay>, variant: Variant) -> MainInfo {
        match replay {
            Some(r) => MainInfo {
                plies: r.plies,
                clean: r.clean,
                winner: if r.clean {
                    winner(&r.last, variant)
                } else {
                    None
                },
            },
            None => MainInfo {
                plies: 0,
                clean: false,
                winner: None,
            },
        }
    }
}

/// The winner of a final position that is decided (the side to move has no legal move).
fn winner(last: &VariantPosition, variant: Variant) -> Option<(Color, String)> {
    with_variant!(variant, V => {
        let pos = last.get::<V>()?;
        let mut list = MoveList::without_paths();
        V::legal_moves(&pos, &mut list);
        if !list.is_empty() {
            return None;
        }
        let loser = pos.side();
        let winner = if variant == Variant::Antidraughts { loser } else { loser.other() };
        let none = pos.pieces(loser).is_empty();
        Some((winner, format!(
            "the final position is decided: {} has no legal move{}",
            side_word(loser),
            if none { " (no pieces left)" } else { "" }
        )))
    })
}

fn side_word(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// What the tags are fixed from.
pub(super) struct TagFacts<'a> {
    /// The variant the game was replayed in.
    pub variant: Variant,
    /// True if it was given with `--variant`.
    pub forced: bool,
    /// The report of the game as read.
    pub report: &'a Verdict,
    /// What the replay of the main line (as written) found.
    pub info: &'a MainInfo,
    /// The result token that ended the movetext.
    pub terminator: Option<&'a ResultToken>,
    /// The order of day and month in the dates of the game's file.
    pub date_order: Option<DateOrder>,
}

/// Fix the tags of a game (see the module documentation), each change in `changes`.
pub(super) fn fix_tags(tags: &mut Vec<Tag>, facts: &TagFacts<'_>, changes: &mut Vec<Change>) {
    fix_game_type(tags, facts, changes);
    let guessed = facts.report.guessed && !facts.forced;
    fix_result(
        facts.terminator,
        tags,
        facts.variant,
        facts.info,
        guessed,
        changes,
    );
    mend_dates(tags, facts.date_order, changes);
    // PlyCount.
    let info = facts.info;
    if info.clean
        && let Some(t) = tags.iter_mut().find(|t| t.name == "PlyCount")
    {
        let want = info.plies.to_string();
        if t.value.trim() != want {
            changes.push(Change::set(
                &mut t.value,
                want,
                "PlyCount set to the plies of the main line".into(),
            ));
        }
    }
    writable_tags(tags, changes);
}

/// The tags of a game fixed on its record ([`fix_tags`] of them, then written): the tags
/// [`fix_tags`] reads or may change, owned ([`RecordTags::fixed`], in their order, then those
/// it adds); every other tag read from the record as it is written, a few at a time. A game
/// of a million tags is not held again as a vector of owned strings (80 bytes a tag and its
/// strings): its section is written as the syntax layer's writer writes the whole list.
pub(super) struct RecordTags<'r> {
    record: &'r Record,
    /// The tags `fix_tags` may read or change, in their order, then the tags it added.
    pub(super) fixed: Vec<Tag>,
    /// The index among the record's tags of each of `fixed` read from it (in order).
    at: Vec<usize>,
}

// The tags a tag writer writes first, in this order, by their names as written: the
// writer's own list.
use crate::syntax::STANDARD_TAGS as STANDARD;

/// How many tags [`RecordTags`] hands to the tag writer at once.
const TAGS_AT_ONCE: usize = 1024;

impl<'r> RecordTags<'r> {
    /// The tags of `record`, those [`fix_tags`] may read or change taken out as owned tags.
    pub(super) fn of(record: &'r Record) -> RecordTags<'r> {
        let (mut fixed, mut at) = (Vec::new(), Vec::new());
        for (i, (name, value, span)) in record.tags().enumerate() {
            if fixes_read(name, value) {
                fixed.push(Tag::new(name, value, span));
                at.push(i);
            }
        }
        RecordTags { record, fixed, at }
    }

    /// Every tag in order: each as `fixed` has it if it is there, else as the record has
    /// it; then the tags `fix_tags` added.
    fn iter(&self) -> impl Iterator<Item = Each<'_>> + '_ {
        let read = self
            .record
            .tags()
            .enumerate()
            .map(|(i, (name, value, span))| match self.at.binary_search(&i) {
                Ok(k) => Each::Fixed(&self.fixed[k]),
                Err(_) => Each::Read(name, value, span),
            });
        read.chain(self.fixed[self.at.len()..].iter().map(Each::Fixed))
    }
}

/// A tag of [`RecordTags`]: fixed, or as the record has it (then its name is written as it
/// is: [`fixes_read`]).
enum Each<'t> {
    Fixed(&'t Tag),
    Read(&'t str, &'t str, Span),
}

impl Each<'_> {
    /// True if the writer writes it among the first ([`STANDARD`]).
    fn standard(&self) -> bool {
        match self {
            Each::Fixed(t) => STANDARD.contains(&tag_name_for_writing(&t.name).as_ref()),
            Each::Read(name, ..) => STANDARD.contains(name),
        }
    }

    fn into_tag(self) -> Tag {
        match self {
            Each::Fixed(t) => t.clone(),
            Each::Read(name, value, span) => Tag::new(name, value, span),
        }
    }
}

/// True if [`fix_tags`] reads or may change a tag of this name and value: a tag it looks
/// for by name, a date, a name or value it makes writable. Any other tag is written as read.
fn fixes_read(name: &str, value: &str) -> bool {
    matches!(name, "GameType" | "Result" | "ResultFormat" | "PlyCount")
        || DATE_TAGS.contains(&name)
        || *tag_name_for_writing(name) != *name
        || *tag_value_for_writing(value) != *value
}

impl TagSection for RecordTags<'_> {
    /// The section as [`write_tags`] writes the whole list: the tags of [`STANDARD`] names
    /// first (few: in one batch, which the writer orders), then the others in their order, a
    /// batch at a time (which the writer keeps in order), one blank line after them all.
    fn write(&self, out: &mut String, drain: &mut dyn Drain) {
        let mut batch: Vec<Tag> = self
            .iter()
            .filter(Each::standard)
            .map(Each::into_tag)
            .collect();
        let mut any = put(&mut batch, out, drain);
        for t in self.iter().filter(|t| !t.standard()) {
            batch.push(t.into_tag());
            if batch.len() == TAGS_AT_ONCE {
                any |= put(&mut batch, out, drain);
            }
        }
        any |= put(&mut batch, out, drain);
        if any {
            out.push('\n');
        }
    }

    fn results(&self) -> &[Tag] {
        &self.fixed
    }
}

/// Write a batch of tags as the syntax layer's writer does, but for the blank line after
/// them, and empty the batch; true if it held any.
fn put(batch: &mut Vec<Tag>, out: &mut String, drain: &mut dyn Drain) -> bool {
    if batch.is_empty() {
        return false;
    }
    write_tags(batch, None, out, drain);
    // (The writer's blank line after the section: written once, after the last batch. The
    // writer hands its text to the drain only after a tag's line: the blank line is in
    // `out`.)
    out.pop();
    batch.clear();
    true
}

/// `GameType` added when the variant was inferred or forced, set to the variant's number when
/// the value read is no `GameType` of the variant.
fn fix_game_type(tags: &mut Vec<Tag>, facts: &TagFacts<'_>, changes: &mut Vec<Change>) {
    let TagFacts {
        variant,
        forced,
        report,
        ..
    } = *facts;
    let rules = variant.rules();
    let number = rules.game_type.to_string();
    match tags.iter_mut().find(|t| t.name == "GameType") {
        None => {
            // Only when the variant is known: a game that shows nothing of its variant (no
            // move, no FEN, no earlier game of its file that decided it) gets none.
            if (report.inferred.is_some() && !report.guessed) || forced {
                let why = match &report.inferred {
                    Some(how) => format!("GameType added: {how}"),
                    None => format!("GameType added: --variant {}", variant.name()),
                };
                tags.push(Tag::new("GameType", number, Span::default()));
                changes.push(Change::new(
                    None,
                    None,
                    Some(rules.game_type.to_string()),
                    why,
                ));
            }
        }
        Some(t) => {
            let v = t.value.trim();
            let standard = gametype::standard_form(variant);
            let ok = v == number
                || v == standard
                || parse_game_type(v).is_ok_and(|g| {
                    g.number == rules.game_type
                        && g.layout.is_none_or(|l| {
                            l.width == rules.layout.width
                                && l.height == rules.layout.height
                                && l.first == rules.layout.first
                                && l.notation == rules.layout.notation
                                && l.corner == rules.layout.corner
                                && l.invert == rules.layout.invert
                        })
                });
            if !ok {
                let why = format!(
                    "GameType set to the {} number (the value read {})",
                    variant.name(),
                    if parse_game_type(v).is_err() {
                        "is not a GameType"
                    } else {
                        "describes another board or numbering, or no variant"
                    }
                );
                changes.push(Change::set(&mut t.value, number, why));
            }
        }
    }
}

/// The tags that hold a date.
pub const DATE_TAGS: [&str; 4] = ["Date", "EventDate", "UTCDate", "PublicationDate"];

/// Dates written `YYYY.MM.DD` where the value means one date only, in the order of day and
/// month of its file (`order`: `--date-order`, or what the file's unambiguous dates show).
fn mend_dates(tags: &mut [Tag], order: Option<DateOrder>, changes: &mut Vec<Change>) {
    for t in tags.iter_mut() {
        if DATE_TAGS.contains(&t.name.as_str())
            && let Some(d) = mend_date_in(&t.value, order)
        {
            let why = match order {
                Some(o) if mend_date(&t.value).is_none() => {
                    format!(
                        "{} written YYYY.MM.DD (day and month {})",
                        t.name,
                        o.words()
                    )
                }
                _ => format!("{} written YYYY.MM.DD", t.name),
            };
            changes.push(Change::set(&mut t.value, d, why));
        }
    }
}

/// The order of day and month in the dates of a file that write the year last
/// (`13.07.2007`, `7/13/2007`), or (`Ymd`) none: only the year-first dates of PDN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DateOrder {
    /// Day, month, year (`13.07.2007`).
    Dmy,
    /// Month, day, year (`7/13/2007`).
    Mdy,
    /// Year, month, day: dates that write the year last are left as they are unless they
    /// can mean one date only.
    Ymd,
}

impl DateOrder {
    fn words(self) -> &'static str {
        match self {
            DateOrder::Dmy => "read day first, as the file's dates write them",
            DateOrder::Mdy => "read month first, as the file's dates write them",
            DateOrder::Ymd => "read year first",
        }
    }
}

/// `a.b.yyyy` (`.`, `-` or `/` between): the two numbers before the year.
fn day_month_first(value: &str) -> Option<(u32, u32)> {
    let parts: Vec<&str> = value
        .trim()
        .trim_end_matches('.')
        .split(['.', '-', '/'])
        .collect();
    let num = |s: &str| -> Option<u32> {
        let s = s.trim();
        (!s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    match parts.as_slice() {
        [a, b, y] if y.trim().len() == 4 && y.trim().bytes().all(|c| c.is_ascii_digit()) => {
            Some((num(a)?, num(b)?))
        }
        _ => None,
    }
}

/// What a file's dates show of the order of day and month: day first when one of them
/// writes a first number above 12 (`13.07.2007`), month first when one writes a second
/// number above 12 (`7/13/2007`); `None` when none tells, or they disagree.
pub fn file_date_order<'a>(dates: impl IntoIterator<Item = &'a str>) -> Option<DateOrder> {
    let mut e = DateEvidence::default();
    for v in dates {
        e.add(v);
    }
    e.order()
}

/// What the dates of a file seen so far show of their order ([`file_date_order`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DateEvidence {
    day_first: bool,
    month_first: bool,
}

impl DateEvidence {
    /// Look at one date.
    pub fn add(&mut self, value: &str) {
        if let Some((a, b)) = day_month_first(value) {
            self.day_first |= a > 12 && (1..=12).contains(&b);
            self.month_first |= b > 12 && (1..=12).contains(&a);
        }
    }

    /// The order they show, if they agree.
    pub fn order(self) -> Option<DateOrder> {
        match (self.day_first, self.month_first) {
            (true, false) => Some(DateOrder::Dmy),
            (false, true) => Some(DateOrder::Mdy),
            _ => None,
        }
    }
}

/// What the writer would change, made a change: names that are no identifiers, line breaks.
fn writable_tags(tags: &mut [Tag], changes: &mut Vec<Change>) {
    for t in tags.iter_mut() {
        make_writable(
            &mut t.name,
            tag_name_for_writing,
            || "tag name made a PDN identifier".into(),
            changes,
        );
        make_writable(
            &mut t.value,
            tag_value_for_writing,
            || format!("line breaks in the {} tag written as spaces", t.name),
            changes,
        );
    }
}

fn fix_result(
    terminator: Option<&ResultToken>,
    tags: &mut Vec<Tag>,
    variant: Variant,
    info: &MainInfo,
    guessed: bool,
    changes: &mut Vec<Change>,
) {
    let rules = variant.rules();
    let first = rules.first_mover();
    let has_format = tags.iter().any(|t| t.name == "ResultFormat");
    let tag = tags
        .iter()
        .find(|t| t.name == "Result")
        .map(|t| t.value.trim().to_string());
    let term = terminator
        .map(|r| r.text.trim().to_string())
        .filter(|t| t != "*");
    let known = |s: &str| !matches!(outcome::parse(s), Outcome::Unknown);
    let (want, why) = if let Some((winner, why)) = &info.winner {
        let o = Outcome::won_by(*winner, first);
        let text = outcome::standard_string(o, rules).to_string();
        match &tag {
            Some(t) if has_format && outcome::parse(t) == o => (t.clone(), String::new()),
            _ => (text, format!("Result: {why}")),
        }
    } else {
        let (base, from) = match (&tag, &term) {
            (Some(t), _) if known(t) => (t.clone(), "the Result tag"),
            (_, Some(r)) if known(r) => (r.clone(), "the result ending the movetext"),
            (Some(t), _) => (t.clone(), "the Result tag"),
            (None, _) => return,
        };
        let o = outcome::parse(&base);
        let text = match o {
            // Written in the form of the variant's result type, which reads it in the
            // variant's conventions (who moves first) — not when the variant is a default
            // guess: the result is then kept as written, never read as another outcome.
            Outcome::FirstWon | Outcome::SecondWon | Outcome::Draw | Outcome::BothLost
                if !has_format && !guessed =>
            {
                outcome::standard_string(o, rules).to_string()
            }
            _ => base.clone(),
        };
        let why = if text != base {
            format!(
                "Result from {from}, in the form of the {} result type",
                rules.name
            )
        } else {
            format!("Result from {from}")
        };
        (text, why)
    };
    match tags.iter_mut().find(|t| t.name == "Result") {
        Some(t) => {
            if t.value.trim() != want {
                changes.push(Change::set(&mut t.value, want, why));
            }
        }
        None => {
            changes.push(Change::new(None, None, Some(want.clone()), why));
            tags.push(Tag::new("Result", want, Span::default()));
        }
    }
}

/// A date tag value as `YYYY.MM.DD` (`?` for unknown digits), when it means one date only;
/// `None` if it already has that form or cannot be mended.
///
/// Accepted: `2003-05-01`, `2003/5/1`, `2003.5.1`, `2003.05.01.`, `2003` and `2003.` (day
/// and month unknown), `2003.05`, `?`, `????`, and day-month-year with a four-digit year
/// (`1.1.1965`, `25-12-2004`) when the day is above 12 or equal to the month — otherwise
/// day and month could be either way round, and the value is kept.
pub fn mend_date(value: &str) -> Option<String> {
    mend_date_in(value, None)
}

/// [`mend_date`] in a file whose order of day and month is known: a date that writes the
/// year last is read in that order (`09.07.2007` is 9 July in a day-first file), unless it
/// cannot be (`13.07.2007` in a month-first file is left as it is).
pub fn mend_date_in(value: &str, order: Option<DateOrder>) -> Option<String> {
    let v = value.trim();
    if v.is_empty() || is_pdn_date(v) {
        return None;
    }
    if v == "?" || v == "????" {
        return Some("????.??.??".into());
    }
    let parts: Vec<&str> = v
        .trim_end_matches('.')
        .split(['.', '-', '/'])
        .map(str::trim)
        .collect();
    let num = |s: &str| -> Option<u32> {
        (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let unknown = |s: &str| !s.is_empty() && s.bytes().all(|b| b == b'?');
    let year = |s: &str| s.len() == 4 && (num(s).is_some() || unknown(s));
    let part2 = |s: &str, max: u32| -> Option<String> {
        if unknown(s) && s.len() <= 2 {
            return Some("??".into());
        }
        let n = num(s)?;
        (s.len() <= 2 && (1..=max).contains(&n)).then(|| format!("{n:02}"))
    };
    let out = match parts.as_slice() {
        [y] if year(y) => format!("{y}.??.??"),
        [y, m] if year(y) => format!("{y}.{}.??", part2(m, 12)?),
        [y, m, d] if year(y) => format!("{y}.{}.{}", part2(m, 12)?, part2(d, 31)?),
        [a, b, y] if year(y) && num(a).is_some() && num(b).is_some() => {
            let (x, z) = (num(a)?, num(b)?);
            let (d, m) = match order {
                Some(DateOrder::Dmy) => (x, z),
                Some(DateOrder::Mdy) => (z, x),
                // Day first only when the first part cannot be a month, or both agree.
                _ if (x > 12 && z <= 12) || x == z => (x, z),
                _ => return None,
            };
            if !(1..=31).contains(&d) || !(1..=12).contains(&m) {
                return None;
            }
            format!("{y}.{m:02}.{d:02}")
        }
        _ => return None,
    };
    (out != v && is_pdn_date(&out)).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_mended_only_when_unambiguous() {
        assert_eq!(mend_date("2003-05-01").as_deref(), Some("2003.05.01"));
        assert_eq!(mend_date("2003/5/1").as_deref(), Some("2003.05.01"));
        assert_eq!(mend_date("2003.5.1").as_deref(), Some("2003.05.01"));
        assert_eq!(mend_date("1950.").as_deref(), Some("1950.??.??"));
        assert_eq!(mend_date("1950").as_deref(), Some("1950.??.??"));
        assert_eq!(mend_date("2003.05").as_deref(), Some("2003.05.??"));
        assert_eq!(mend_date("?").as_deref(), Some("????.??.??"));
        assert_eq!(mend_date("1.1.1965").as_deref(), Some("1965.01.01"));
        assert_eq!(mend_date("25-12-2004").as_deref(), Some("2004.12.25"));
        assert_eq!(mend_date("03-12-2006"), None, "3 December or 12 March");
        assert_eq!(mend_date("2003.05.01"), None, "already right");
        assert_eq!(mend_date("2003.13.01"), None);
        assert_eq!(mend_date("12.03.96"), None);
        assert_eq!(mend_date("2003.05.01-2003.05.10"), None);
        assert_eq!(mend_date("May 2003"), None);
        assert_eq!(mend_date(""), None);
    }

    #[test]
    fn the_dates_of_a_file_are_read_in_its_order() {
        let dmy = file_date_order(["09.07.2007", "13.07.2007", "2007.07.01"]);
        assert_eq!(dmy, Some(DateOrder::Dmy));
        assert_eq!(
            mend_date_in("09.07.2007", dmy).as_deref(),
            Some("2007.07.09")
        );
        assert_eq!(
            mend_date_in("13.07.2007", dmy).as_deref(),
            Some("2007.07.13")
        );
        let mdy = file_date_order(["7/13/2007", "7/9/2007"]);
        assert_eq!(mdy, Some(DateOrder::Mdy));
        assert_eq!(mend_date_in("7/9/2007", mdy).as_deref(), Some("2007.07.09"));
        assert_eq!(mend_date_in("13/7/2007", mdy), None, "no 13th month");
        assert_eq!(
            file_date_order(["13.07.2007", "7/13/2007"]),
            None,
            "they disagree"
        );
        assert_eq!(file_date_order(["09.07.2007"]), None, "nothing tells");
        assert_eq!(mend_date_in("09.07.2007", None), None);
        assert_eq!(mend_date_in("09.07.2007", Some(DateOrder::Ymd)), None);
        assert_eq!(
            mend_date_in("2007-07-09", Some(DateOrder::Mdy)).as_deref(),
            Some("2007.07.09")
        );
    }
}
