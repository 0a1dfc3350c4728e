//! JSON output: one object per game, on one line.
//!
//! ```text
//! {"file":"a.pdn","game":1,"tags":{"Event":"…",…},"variant":"international",
//!  "fen":"W:W31,…:B1,…","moves":[{"number":1,"side":"white","move":"32-28",
//!  "text":"32-28","strength":null,"nags":[],"comments":[],"variations":[]},…],
//!  "result":"2-0"}
//! ```
//!
//! - `tags`: every tag in file order, values as read. A tag that occurs again in the same
//!   game is kept under `Name (2)`, `Name (3)`, … (a JSON object has one value per key).
//! - `variant`: the variant the game was replayed in (`null` if none fits); `fen`: the start
//!   position in the variant's numbering (the FEN tag normalised, or the variant's start
//!   position), or the FEN tag as written if it cannot be read.
//! - `moves`: the main line in normal form (book-style replies are moves of the line, a
//!   capture written one jump per move is one move). Each move has `number` and `side` (as
//!   the writers number it), `move` (canonical notation), `text` (as written; the jumps of a
//!   joined capture separated by spaces), `strength` (as written, or `null`), `nags`,
//!   `comments` (those after the move) and `variations` (lists of moves, alternatives to
//!   this move).
//! - What comes before a move without following one — comments at the start of a line or
//!   after a setup — is in the move's `before`; a setup command `/FEN "…"/` before a move is
//!   in its `setups` (both keys only when not empty). Whatever ends a line without a move
//!   after it is in a last entry whose `move`, `text`, `number` and `side` are `null`.
//! - `result`: the result in the variant's standard form, `*` when unknown; `winner`:
//!   `white`, `black`, `draw`, `none` or `unknown` ([`normalised`]); `result_text`: the
//!   Result tag as written, else the result that ended the movetext, else `null`.
//! - `plies`, `errors`, `warnings`, `diagnostics`: what `pdn validate` finds in the game —
//!   the plies of the main line replayed, and every finding (`code`, `severity`, `line`,
//!   `column`, `ply`, `move`, `message`, `in_variation`, as in `validate --format json`).
//!   A syntax error is also kept in the moves, where it was found, as a comment
//!   `pdn: unreadable: …` holding the text the reader skipped (or `pdn: syntax-error: …`).
//!
//! The moves are read from the normal form's tree, or, for a game whose normal form is its
//! own tree renumbered (`normal::numbering_only`), from the record the game was read into
//! (`export::analyse_by_record`: a huge game's tree is never made); the bytes are the same.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::BuildHasher as _;

use crate::rules::Color;
use crate::syntax::{Drain, Keep, LineIndex, MoveItem, Span};

use super::Analysed;
use super::lines::{ByRecord, Lines, Piece, Tree};
use super::normal::{Joined, Num, end_markers};
use super::plies::{Form, push_u32};
use crate::app::model::outcome::normalised;
use crate::app::write::join::push_joined;
use crate::app::write::jsonl::{Object, push_str};

/// Write one game as a JSON object and a line break.
pub fn write(a: &Analysed<'_>, file: &str, out: &mut String) {
    write_to(a, file, out, &mut Keep);
}

/// [`write()`] handing the text to `drain` as it grows (after a tag, a move or a finding: see
/// `app::write::spill`).
pub fn write_to(a: &Analysed<'_>, file: &str, out: &mut String, drain: &mut dyn Drain) {
    let game = a.game;
    out.push_str("{\"file\":");
    push_str(out, file);
    out.push_str(",\"game\":");
    push_u32(out, game.index as u32);
    out.push_str(",\"tags\":{");
    match a.by_record {
        Some(r) => push_tags(
            || r.tags().map(|(n, v, _)| (n, v)),
            r.tags().count(),
            out,
            drain,
        ),
        None => push_tags(
            || {
                game.tags
                    .iter()
                    .map(|t| (t.name.as_str(), t.value.as_str()))
            },
            game.tags.len(),
            out,
            drain,
        ),
    }
    out.push_str("},\"variant\":");
    match a.variant() {
        Some(v) => push_str(out, v.name()),
        None => out.push_str("null"),
    }
    out.push_str(",\"fen\":");
    let fen_tag = match a.by_record {
        Some(r) => r.tag("FEN"),
        None => game.tag("FEN"),
    };
    match a.start_fen().as_deref().or(fen_tag) {
        Some(f) => push_str(out, f),
        None => out.push_str("null"),
    }
    out.push_str(",\"moves\":");
    let mut w = Writer {
        a,
        first: a.first_mover(),
        joined: a.normal.joined.iter().map(|j| (j.first, j)).collect(),
        drain,
    };
    match a.by_record {
        Some(record) => {
            // Syntax errors after the main line (`normal::numbering_only`): their markers
            // are the main line's last comments, in the order of where they stand.
            let markers = end_markers(a.source, &game.errors);
            let lines = ByRecord {
                record,
                text: a.source,
                a,
                markers: &markers,
            };
            w.line(&lines, (record.body(), Num::START), Num::START, out, 0);
        }
        None => w.line(&Tree, &a.normal.body, Num::START, out, 0),
    }
    let (result, winner) = normalised(a.report.result.as_deref(), a.report.variant);
    out.push_str(",\"result\":");
    push_str(out, &result);
    out.push_str(",\"winner\":");
    push_str(out, winner);
    out.push_str(",\"result_text\":");
    match &a.report.result {
        Some(r) => push_str(out, r),
        None => out.push_str("null"),
    }
    out.push_str(",\"plies\":");
    push_u32(out, a.report.plies);
    out.push_str(",\"errors\":");
    push_u32(out, a.report.errors());
    out.push_str(",\"warnings\":");
    push_u32(out, a.report.warnings());
    out.push_str(",\"diagnostics\":[");
    // In source order (those without a place first), as `validate` lists them.
    let mut found: Vec<_> = a.report.diagnostics.iter().collect();
    found.sort_by_key(|d| d.span.map_or(0, |s| s.start));
    // Counted on from one finding to the next (they are in text order): linear in the text,
    // however many findings a long line holds.
    let lines = LineIndex::direct();
    for (i, d) in found.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let at = d
            .span
            .map(|s| lines.locate(a.source.as_bytes(), game.line, game.column, s.start));
        let mut o = Object::new(out);
        o.str("code", d.code.as_str())
            .str("severity", d.severity().as_str())
            .opt_uint("line", at.map(|(l, _)| u64::from(l)))
            .opt_uint("column", at.map(|(_, c)| u64::from(c)))
            .opt_uint("ply", d.ply.map(u64::from))
            .opt_str("move", d.mv.as_deref())
            .str("message", &d.message)
            .bool("in_variation", d.variation)
            .close();
        spill(out, w.drain);
    }
    out.push_str("]}\n");
}

struct Writer<'a, 'g> {
    a: &'a Analysed<'g>,
    first: Option<Color>,
    /// The captures written one jump per move, by their first jump (a lookup, not a scan of
    /// the list at every move: a game of many variations can hold many).
    joined: HashMap<Span, &'a Joined>,
    drain: &'a mut dyn Drain,
}

/// Hand the text to `drain` if it has grown to its size.
fn spill(out: &mut String, drain: &mut dyn Drain) {
    if out.len() >= drain.at() {
        drain.take(out);
    }
}

/// Deepest nesting written (the reader allows less).
const MAX_DEPTH: usize = 256;

/// The tags `{"name":"value",…}` (without the braces): `count` of them, those `tags` gives
/// (each time it is called).
fn push_tags<'t, I: Iterator<Item = (&'t str, &'t str)>>(
    tags: impl Fn() -> I,
    count: usize,
    out: &mut String,
    drain: &mut dyn Drain,
) {
    // How often each name came before: counted by a scan of the earlier names when there are
    // few, in a map of the names when there are more (a scan would be quadratic in them), and
    // in a game of very many tags by the sorted hashes of the names, with a map of only the
    // names whose hash is not unique (a map of a million names would cost more than the
    // record holding them).
    let mut before = if count > MANY_TAGS {
        Before::Hashed(Hashed::new(tags(), count))
    } else if count > 16 {
        Before::Map(HashMap::new())
    } else {
        Before::Scan(Vec::new())
    };
    for (i, (name, value)) in tags().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let n = before.count(name);
        if n == 0 {
            push_str(out, name);
        } else {
            push_str(out, &format!("{name} ({})", n + 1));
        }
        out.push(':');
        push_str(out, value);
        spill(out, drain);
    }
}

/// The number of tags of a game above which [`push_tags`] counts the names by their hashes.
const MANY_TAGS: usize = 4096;

/// How [`push_tags`] counts how often a tag's name came before.
enum Before<'t> {
    Scan(Vec<&'t str>),
    Map(HashMap<&'t str, usize>),
    Hashed(Hashed<'t>),
}

impl<'t> Before<'t> {
    /// How often `name` came before; counts it.
    fn count(&mut self, name: &'t str) -> usize {
        match self {
            Before::Scan(earlier) => {
                let n = earlier.iter().filter(|&&o| o == name).count();
                earlier.push(name);
                n
            }
            Before::Map(seen) => {
                let n = seen.entry(name).or_insert(0);
                *n += 1;
                *n - 1
            }
            Before::Hashed(h) => h.count(name),
        }
    }
}

/// The names of a game of very many tags counted by their hashes: the hash of every name,
/// sorted (8 bytes a tag); a name whose hash occurs once occurs once, and only the names
/// whose hash occurs more than once (repeated names, and names of one hash) are counted in
/// a map. The hasher's keys are random: no input makes every name share a hash.
struct Hashed<'t> {
    state: std::hash::RandomState,
    hashes: Vec<u64>,
    seen: HashMap<&'t str, usize>,
}

impl<'t> Hashed<'t> {
    fn new(names: impl Iterator<Item = (&'t str, &'t str)>, count: usize) -> Hashed<'t> {
        let state = std::hash::RandomState::new();
        let mut hashes = Vec::with_capacity(count);
        hashes.extend(names.map(|(name, _)| state.hash_one(name)));
        hashes.sort_unstable();
        Hashed {
            state,
            hashes,
            seen: HashMap::new(),
        }
    }

    fn count(&mut self, name: &'t str) -> usize {
        let h = self.state.hash_one(name);
        let at = self.hashes.partition_point(|&x| x < h);
        if self.hashes.get(at + 1) != Some(&h) {
            // The only name of its hash: the only tag of its name.
            return 0;
        }
        let n = self.seen.entry(name).or_insert(0);
        *n += 1;
        *n - 1
    }
}

/// What is gathered around one move.
struct Around<'l, V> {
    before: Vec<&'l str>,
    setups: Vec<&'l str>,
    nags: Vec<u16>,
    comments: Vec<&'l str>,
    variations: Vec<V>,
}

impl<V> Around<'_, V> {
    fn new() -> Self {
        Around {
            before: Vec::new(),
            setups: Vec::new(),
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.before.is_empty()
            && self.setups.is_empty()
            && self.nags.is_empty()
            && self.comments.is_empty()
            && self.variations.is_empty()
    }
}

impl Writer<'_, '_> {
    fn line<'l, L: Lines<'l>>(
        &mut self,
        lines: &L,
        line: L::Line,
        start: Num,
        out: &mut String,
        depth: usize,
    ) {
        out.push('[');
        let mut items = lines.pieces(line).peekable();
        let mut num = start;
        let mut first_entry = true;
        loop {
            // Before the move: anything up to it (at a line start or after a setup).
            let mut around = Around::new();
            let mut mv: Option<Cow<'l, MoveItem>> = None;
            for item in items.by_ref() {
                match item {
                    Piece::Move(m) => {
                        mv = Some(m);
                        break;
                    }
                    Piece::Comment(c) => around.before.push(c),
                    Piece::Setup(s) => around.setups.push(s),
                    Piece::Nag(n) => around.nags.push(n),
                    Piece::Variation(v) => around.variations.push(v),
                }
            }
            // After it: comments, NAGs and variations up to the next move or setup.
            if mv.is_some() {
                while let Some(item) =
                    items.next_if(|i| !matches!(i, Piece::Move(_) | Piece::Setup(_)))
                {
                    match item {
                        Piece::Comment(c) => around.comments.push(c),
                        Piece::Nag(n) => around.nags.push(n),
                        Piece::Variation(v) => around.variations.push(v),
                        Piece::Move(_) | Piece::Setup(_) => {}
                    }
                }
            } else if around.is_empty() {
                break;
            }
            if !first_entry {
                out.push(',');
            }
            first_entry = false;
            if let Some(m) = &mv
                && let Some(t) = m.number
            {
                num = Num {
                    number: t.number,
                    second: t.second_player,
                };
            }
            self.entry(lines, mv.as_deref(), num, around, out, depth);
            spill(out, self.drain);
            if mv.is_some() {
                num = num.after();
            }
        }
        out.push(']');
    }

    fn entry<'l, L: Lines<'l>>(
        &mut self,
        lines: &L,
        mv: Option<&MoveItem>,
        num: Num,
        around: Around<'l, L::Line>,
        out: &mut String,
        depth: usize,
    ) {
        let a = self.a;
        out.push_str("{\"number\":");
        match mv {
            Some(m) => {
                push_u32(out, num.number);
                out.push_str(",\"side\":");
                let side = a
                    .record(m)
                    .map(|r| r.side)
                    .or_else(|| self.first.map(|f| if num.second { f.other() } else { f }));
                match side {
                    Some(s) => {
                        out.push('"');
                        out.push_str(s.name());
                        out.push('"');
                    }
                    None => out.push_str("null"),
                }
                out.push_str(",\"move\":");
                let mut text = String::new();
                a.push_move_text_in(a.source, m, Form::Pdn, &mut text);
                push_str(out, &text);
                out.push_str(",\"text\":");
                text.clear();
                text.push_str(span_text(a.source, m.span).trim());
                if let Some(j) = self.joined.get(&m.span) {
                    for s in &j.dropped {
                        text.push(' ');
                        text.push_str(span_text(a.source, *s).trim());
                    }
                }
                push_str(out, &text);
                out.push_str(",\"strength\":");
                match &m.strength {
                    Some(s) => push_str(out, s),
                    None => out.push_str("null"),
                }
            }
            None => {
                out.push_str("null,\"side\":null,\"move\":null,\"text\":null,\"strength\":null")
            }
        }
        out.push_str(",\"nags\":[");
        push_joined(out, &around.nags, ",", |out, n| {
            push_u32(out, u32::from(*n))
        });
        out.push_str("],\"comments\":");
        strings(&around.comments, out);
        out.push_str(",\"variations\":[");
        for (i, v) in around.variations.into_iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if depth < MAX_DEPTH {
                self.line(lines, v, num, out, depth + 1);
            } else {
                out.push_str("[]");
            }
        }
        out.push(']');
        if !around.before.is_empty() {
            out.push_str(",\"before\":");
            strings(&around.before, out);
        }
        if !around.setups.is_empty() {
            out.push_str(",\"setups\":");
            strings(&around.setups, out);
        }
        out.push('}');
    }
}

/// The text of a span of the game's text (`Game::text`).
fn span_text(source: &str, span: Span) -> &str {
    source
        .get(span.start as usize..span.end as usize)
        .unwrap_or("")
}

fn strings(list: &[&str], out: &mut String) {
    out.push('[');
    push_joined(out, list, ",", |out, s| push_str(out, s));
    out.push(']');
}

#[cfg(test)]
mod tag_tests {
    use super::*;

    /// The three ways of counting a tag's name give the same numbers, repeated names among
    /// thousands of unique ones.
    #[test]
    fn repeated_tag_names_are_numbered_alike_however_they_are_counted() {
        let names: Vec<String> = (0..3 * MANY_TAGS)
            .map(|i| match i % 7 {
                0 => "Event".to_string(),
                3 => format!("Twice{}", i / 14),
                _ => format!("Tag{i}"),
            })
            .collect();
        let tags = || names.iter().map(|n| (n.as_str(), ""));
        let mut scan = Before::Scan(Vec::new());
        let mut map = Before::Map(HashMap::new());
        let mut hashed = Before::Hashed(Hashed::new(tags(), names.len()));
        let mut repeated = 0;
        for (name, _) in tags() {
            let n = scan.count(name);
            assert_eq!(map.count(name), n, "{name}");
            assert_eq!(hashed.count(name), n, "{name}");
            repeated += usize::from(n > 0);
        }
        assert!(repeated > names.len() / 7, "{repeated}");
        // (Only the repeated names are in the hashed count's map.)
        let Before::Hashed(h) = hashed else {
            unreachable!()
        };
        assert!(h.seen.len() < names.len() / 5, "{}", h.seen.len());
    }
}
