//! Writing what a search found: each match as a JSON Lines record (docs/formats.md's `match`), a
//! CSV row, a human line (escaped for a terminal), or the matching game whole in PDN with a
//! comment at each matching ply; and the [`Summary`] that ends a run.

use std::fmt::Write as _;

use crate::rules::Color;

use super::{GameResult, Match, Searched};
use crate::app::write::jsonl::Object;
use crate::app::write::terminal::push_escaped;

/// The totals of a search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Input files read (or tried).
    pub files: u64,
    /// Inputs that could not be read (to their end).
    pub unreadable_files: u64,
    /// Games read.
    pub games: u64,
    /// Plies searched: positions after a move, main lines (and variations with
    /// `--variations`).
    pub plies: u64,
    /// Matches.
    pub matches: u64,
    /// Games with at least one match.
    pub games_matched: u64,
    /// Games searched only up to an error on their main line.
    pub games_in_part: u64,
    /// Games not searched: no variant fits them.
    pub no_variant: u64,
    /// Games not searched: the query does not fit their board.
    pub unfit: u64,
    /// Games not searched: their start position cannot be set up.
    pub no_start: u64,
}

impl Summary {
    /// Count a game.
    pub fn add(&mut self, r: &GameResult) {
        self.games += 1;
        self.plies += u64::from(r.searched) + r.variation_plies;
        self.matches += r.matches.len() as u64;
        self.games_matched += u64::from(!r.matches.is_empty());
        match r.status {
            Searched::Whole => {}
            Searched::UpTo => self.games_in_part += 1,
            Searched::NoVariant => self.no_variant += 1,
            Searched::Unfit => self.unfit += 1,
            Searched::NoStart => self.no_start += 1,
        }
    }

    /// Games not searched at all.
    pub fn not_searched(&self) -> u64 {
        self.no_variant + self.unfit + self.no_start
    }

    /// The JSON Lines `summary` record.
    pub fn push_json(&self, out: &mut String) {
        Object::new(out)
            .str("type", "summary")
            .uint("files", self.files)
            .uint("games", self.games)
            .uint("plies", self.plies)
            .uint("matches", self.matches)
            .uint("games_matched", self.games_matched)
            .uint("games_searched_in_part", self.games_in_part)
            .uint("games_not_searched", self.not_searched())
            .uint("unreadable_files", self.unreadable_files)
            .end();
    }

    /// The closing line for people.
    pub fn line(&self) -> String {
        let mut s = format!(
            "{} match{} in {} game{} of {} searched ({} plies)",
            self.matches,
            if self.matches == 1 { "" } else { "es" },
            self.games_matched,
            if self.games_matched == 1 { "" } else { "s" },
            self.games,
            self.plies
        );
        let mut notes = Vec::new();
        if self.games_in_part > 0 {
            notes.push(format!(
                "{} searched only up to an error",
                self.games_in_part
            ));
        }
        for (n, why) in [
            (self.no_variant, "not searched: no variant fits"),
            (
                self.unfit,
                "not searched: the query does not fit their board",
            ),
            (
                self.no_start,
                "not searched: their start position cannot be set up",
            ),
        ] {
            if n > 0 {
                notes.push(format!("{n} {why}"));
            }
        }
        if !notes.is_empty() {
            let _ = write!(s, "; {}", notes.join("; "));
        }
        s
    }
}

fn side_name(c: Color) -> &'static str {
    c.name()
}

/// Append the JSON Lines `match` record of every match of a game of file `file`.
pub fn push_json(out: &mut String, file: &str, r: &GameResult) {
    for m in &r.matches {
        let i = &r.info;
        Object::new(out)
            .str("type", "match")
            .str("file", file)
            .uint("game", i.index as u64)
            .uint("line", u64::from(i.line))
            .uint("ply", u64::from(m.ply))
            .uint("move_number", u64::from(m.move_number))
            .str("side", side_name(m.side))
            .str("fen", &m.fen)
            .opt_str("white", i.white.as_deref())
            .opt_str("black", i.black.as_deref())
            .opt_str("result", i.result.as_deref())
            .opt_str("event", i.event.as_deref())
            .opt_str("date", i.date.as_deref())
            .opt_str("variant", i.variant.map(|v| v.name()))
            .opt_str("move", m.mv.as_deref())
            .flag("in_variation", m.in_variation)
            .flag("mirrored", m.mirrored)
            .opt_uint("error_ply", r.error_ply.map(u64::from))
            .end();
    }
}

/// The columns of the CSV output.
pub const CSV_HEADER: [&str; 18] = [
    "file",
    "game",
    "line",
    "ply",
    "move_number",
    "side",
    "fen",
    "white",
    "black",
    "result",
    "event",
    "date",
    "variant",
    "move",
    "in_variation",
    "mirrored",
    "error_ply",
    "searched_plies",
];

/// The CSV row of a match (the columns of [`CSV_HEADER`]).
pub fn csv_row(file: &str, r: &GameResult, m: &Match) -> [String; 18] {
    let i = &r.info;
    let o = |s: &Option<String>| s.clone().unwrap_or_default();
    [
        file.to_string(),
        i.index.to_string(),
        i.line.to_string(),
        m.ply.to_string(),
        m.move_number.to_string(),
        side_name(m.side).to_string(),
        m.fen.clone(),
        o(&i.white),
        o(&i.black),
        o(&i.result),
        o(&i.event),
        o(&i.date),
        i.variant.map_or("", |v| v.name()).to_string(),
        m.mv.clone().unwrap_or_default(),
        m.in_variation.to_string(),
        m.mirrored.to_string(),
        r.error_ply.map_or(String::new(), |p| p.to_string()),
        r.searched.to_string(),
    ]
}

/// Append one line per match for people: where, the players, the result; everything from
/// the input escaped for a terminal.
pub fn push_human(out: &mut String, file: &str, r: &GameResult) {
    let i = &r.info;
    for m in &r.matches {
        push_escaped(out, file);
        let _ = write!(
            out,
            ":{}: game {}, ply {} (move {}, {} to play",
            i.line,
            i.index,
            m.ply,
            m.move_number,
            side_name(m.side)
        );
        if let Some(mv) = &m.mv {
            out.push_str(", played ");
            push_escaped(out, mv);
        }
        out.push_str("): ");
        push_escaped(out, i.white.as_deref().unwrap_or("?"));
        out.push_str(" - ");
        push_escaped(out, i.black.as_deref().unwrap_or("?"));
        if let Some(res) = &i.result {
            out.push(' ');
            push_escaped(out, res);
        }
        let place: Vec<&str> = [i.event.as_deref(), i.date.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        if !place.is_empty() {
            out.push_str(" (");
            push_escaped(out, &place.join(", "));
            out.push(')');
        }
        if m.mirrored {
            out.push_str(" [colours reversed]");
        }
        if m.in_variation {
            out.push_str(" [in a variation]");
        }
        if let Some(e) = r.error_ply {
            let _ = write!(out, " [searched up to the error at ply {e}]");
        }
        out.push('\n');
    }
}

/// The comment that marks a match in PDN output.
fn comment(m: &Match, error_ply: Option<u32>) -> String {
    let mut s = format!(
        "{{pdn search: match at ply {} (move {}, {} to play",
        m.ply,
        m.move_number,
        side_name(m.side)
    );
    if let Some(mv) = &m.mv {
        let _ = write!(s, ", played {mv}");
    }
    s.push(')');
    if m.mirrored {
        s.push_str(", colours reversed");
    }
    if let Some(e) = error_ply {
        let _ = write!(s, "; searched up to the error at ply {e}");
    }
    s.push('}');
    s
}

/// Append a matching game whole, as read, with a comment at each matching ply (after the
/// move that reached the position; before the first move for the start position), then a
/// blank line. Nothing for a game whose text was not kept.
pub fn push_pdn(out: &mut String, r: &GameResult) {
    let Some(text) = &r.text else { return };
    let mut cuts: Vec<(usize, String, bool)> = r
        .matches
        .iter()
        .map(|m| {
            let at = (m.at as usize).min(text.len());
            // After a move: ` {…}`; at the start of the movetext: `{…} `.
            let after = m.mv.is_some() || m.ply > 0 || m.in_variation;
            (at, comment(m, r.error_ply), after)
        })
        .collect();
    cuts.sort_by_key(|c| c.0);
    let mut at = 0;
    for (cut, c, after) in cuts {
        let cut = floor_char_boundary(text, cut).max(at);
        out.push_str(&text[at..cut]);
        if after {
            out.push(' ');
            out.push_str(&c);
        } else {
            out.push_str(&c);
            out.push(' ');
        }
        at = cut;
    }
    out.push_str(&text[at..]);
    out.push_str("\n\n");
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}
