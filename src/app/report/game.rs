//! One game of the HTML report: validated with a position [`Tree`](crate::app::judge::replay::tree::Tree) watching, then written as an
//! `<article>`: a header line (status, players, event, result), its findings (each with a
//! board slot the page fills when it is shown: the position before the move and the move
//! drawn), and its data as JSON (the position tree, the move list with comments and
//! variations, the tags).

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::rules::Color;
use crate::syntax::{Span, Square, lines};

use super::escape::{push_json_str, push_num};
use crate::app::judge::diagnostic::{Code, Diagnostic, GameText};
use crate::app::judge::findings::{Counts, Policy};
use crate::app::judge::replay::Branch;
use crate::app::judge::replay::tree::Tree as Capture;
use crate::app::judge::validate::{Options, Verdict, validate_ref_with};
use crate::app::model::reading::GameRef;
use crate::app::model::record::{LineRef, Node, Record};
use crate::app::openings::{Both, Classification, Classifier};
use crate::app::write::join::push_joined;

/// What the summary needs of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// Plies replayed and findings, as `validate` counts them.
    pub counts: Counts,
    /// The variant's name, if known.
    pub variant: Option<&'static str>,
}

/// A game's data block, its row of the game list and its numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameHtml {
    /// Its data, a JSON object: positions, moves, tags and findings (written with a
    /// thousand others in a block the page parses only when one of them is opened).
    pub html: String,
    /// The game's row of the list, a JSON array (see [`ROW_FIELDS`]).
    pub row: String,
    /// Its numbers.
    pub stats: GameStats,
}

/// The fields of a row of the game list, in order: the input file (its number in the
/// page's list of files), the game's number in the file, status (`e` errors, `w` warnings,
/// `c` clean), errors, warnings, White, Black, event (with the round), date, result,
/// variant, plies, the codes found (space-separated), the opening (its name and ballot as
/// `pdn classify` finds them, empty when not classified).
pub const ROW_FIELDS: &str = "file game status errors warnings white black event date result \
                              variant plies codes opening";

/// Where a finding's board comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Board {
    /// The position of node `pos`; the move of node `mv` drawn.
    Node { pos: usize, mv: Option<usize> },
    /// The position of node `pos`, a move that was not played drawn from its squares.
    Written { pos: usize, route: Vec<u32> },
}

/// Validate a game and write its data block and its row: its findings under `policy`
/// (allowed codes dropped, denied ones errors, those below the least severity counted but
/// not written). With `openings`, the game is classified by them in the same replay (as
/// `stats` does): its opening and ballot are in its row and among its tags in the viewer.
pub fn game_html(
    game: &GameRef<'_>,
    opts: &Options,
    policy: &Policy,
    openings: Option<&Classifier>,
) -> GameHtml {
    let mut cap = Capture::default();
    let (mut report, classification) = match openings {
        Some(c) => {
            let mut m = c.matcher();
            let report = validate_ref_with(game, opts, &mut Both(&mut cap, &mut m));
            let variant = report.variant;
            (report, Some(m.finish(variant)))
        }
        None => (validate_ref_with(game, opts, &mut cap), None),
    };
    let opening = classification
        .as_ref()
        .map(opening_text)
        .unwrap_or_default();
    let record = game.record;
    let text = game.game_text();
    policy.apply(&mut report);
    let stats = GameStats {
        counts: Counts::of(&report),
        variant: report.variant.map(|v| v.name()),
    };
    let mut walk = Walk {
        cap: &cap,
        record,
        text: &text,
        unplayed: HashMap::new(),
        json: String::new(),
    };
    let start = cap.nodes.first().map(|_| 0);
    walk.json.push('[');
    walk.line(record.body(), start, 0);
    walk.json.push(']');
    let tree = std::mem::take(&mut walk.json);
    let unplayed = walk.unplayed;
    let mut html = String::with_capacity(1024 + 40 * cap.nodes.len());
    // The classification among the tags the viewer lists, under names no record uses.
    let mut found = Vec::new();
    if let Some(c) = &classification {
        if let Some(o) = &c.opening {
            found.push(("Opening (pdn classify)", o.name.clone()));
        }
        if let Some(b) = &c.ballot {
            found.push(("Ballot (pdn classify)", b.text()));
        }
    }
    data(&mut html, record, &report, &cap, &tree, &found);
    html.push_str(",\"f\":[");
    let lines = text.lines();
    let shown = report
        .diagnostics
        .iter()
        .filter(|d| policy.shows(d.severity()));
    for (i, d) in shown.enumerate() {
        if i > 0 {
            html.push(',');
        }
        let board = board_of(d, &cap, &unplayed);
        finding(&mut html, &text, &lines, d, board.as_ref());
    }
    html.push_str("]}");
    let mut row = String::with_capacity(160);
    row_of(
        &mut row, game.file, record, text.index, &report, &stats, &opening,
    );
    GameHtml { html, row, stats }
}

/// The game's row of the list (see [`ROW_FIELDS`]).
fn row_of(
    out: &mut String,
    file: usize,
    record: &Record,
    index: usize,
    report: &Verdict,
    stats: &GameStats,
    opening: &str,
) {
    let tag = |name: &str| {
        record
            .tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "?")
            .unwrap_or("")
    };
    let c = &stats.counts;
    let status = if c.errors > 0 {
        "e"
    } else if c.warnings > 0 {
        "w"
    } else {
        "c"
    };
    let _ = write!(
        out,
        "[{file},{index},\"{status}\",{},{},",
        c.errors, c.warnings
    );
    push_json_str(out, tag("White"));
    out.push(',');
    push_json_str(out, tag("Black"));
    out.push(',');
    let event = match (tag("Event"), tag("Round")) {
        (e, "") => e.to_string(),
        ("", r) => format!("round {r}"),
        (e, r) => format!("{e} · {r}"),
    };
    push_json_str(out, &event);
    out.push(',');
    push_json_str(out, tag("Date"));
    out.push(',');
    push_json_str(out, report.result.as_deref().unwrap_or("").trim());
    out.push(',');
    push_json_str(out, stats.variant.unwrap_or(""));
    let _ = write!(out, ",{},\"", c.plies);
    let mut first = true;
    for (i, n) in c.codes.iter().enumerate() {
        if *n > 0 {
            if !first {
                out.push(' ');
            }
            first = false;
            out.push_str(Code::ALL[i].as_str());
        }
    }
    out.push_str("\",");
    push_json_str(out, opening);
    out.push(']');
}

/// A game's opening as the list shows it: the opening's name, then the ballot (`Cross ·
/// ballot 121 11-15 23-18 8-11`); empty when neither was found.
fn opening_text(c: &Classification) -> String {
    let ballot = c.ballot.as_ref().map(|b| format!("ballot {}", b.text()));
    match (c.opening.as_ref().map(|o| o.name.as_str()), ballot) {
        (Some(o), Some(b)) => format!("{o} · {b}"),
        (Some(o), None) => o.to_string(),
        (None, Some(b)) => b,
        (None, None) => String::new(),
    }
}

/// Walks the move text to write the move list and to find the position before every move
/// the replay did not play.
struct Walk<'a> {
    cap: &'a Capture,
    record: &'a Record,
    text: &'a GameText<'a>,
    unplayed: HashMap<u32, (Option<usize>, Vec<u32>)>,
    json: String,
}

impl Walk<'_> {
    /// Write the items of a line (the caller writes the brackets); `cur` is the node whose
    /// position the line is at. Returns the node it ends at.
    fn line(&mut self, line: LineRef, mut cur: Option<usize>, depth: u32) -> Option<usize> {
        let mut first = true;
        let record = self.record;
        for (at, node) in record.items(line) {
            if !first {
                self.json.push(',');
            }
            first = false;
            match node {
                Node::Move(m) => {
                    if let Some(&k) = self.cap.spans.get(&m.span.start) {
                        push_num(&mut self.json, k as u64);
                        cur = Some(k);
                    } else {
                        self.json.push_str("{\"x\":");
                        push_json_str(&mut self.json, self.text.text(m.span));
                        self.json.push('}');
                        let route = written_route(self.cap, record.move_ref(m).squares);
                        self.unplayed.insert(m.span.start, (cur, route));
                    }
                }
                Node::Comment { .. } => {
                    self.json.push_str("{\"c\":");
                    push_json_str(&mut self.json, self.text.text(node.comment_text()).trim());
                    self.json.push('}');
                }
                Node::Nag { value } => {
                    let _ = write!(self.json, "{{\"g\":{value}}}");
                }
                Node::Setup { .. } => {
                    self.json.push_str("{\"f\":");
                    push_json_str(&mut self.json, record.node_text(node));
                    self.json.push('}');
                    cur = None;
                }
                Node::Variation { span, .. } => {
                    let branch = self.cap.branches.get(&span.start).copied();
                    let (key, start) = match branch {
                        Some(Branch::Reply) => ("r", cur),
                        Some(Branch::Last) => ("v", cur.and_then(|k| self.cap.nodes[k].parent)),
                        Some(Branch::Next) => ("v", cur),
                        None => ("v", None),
                    };
                    let _ = write!(self.json, "{{\"{key}\":[");
                    let end = if depth < 200 {
                        self.line(record.inside(at), start, depth + 1)
                    } else {
                        None
                    };
                    self.json.push_str("]}");
                    if key == "r" {
                        cur = end;
                    }
                }
            }
        }
        cur
    }
}

/// The square numbers a move was written with, those that are on the board.
fn written_route(cap: &Capture, squares: &[Square]) -> Vec<u32> {
    let Some(view) = &cap.view else {
        return Vec::new();
    };
    squares
        .iter()
        .filter_map(|s| match *s {
            Square::Num(n) => view.index_of_number(n).map(|i| i as u32 + 1),
            Square::Alg { file, rank } => {
                let name = format!("{}{}", char::from(b'a' + file.min(25)), u32::from(rank) + 1);
                view.index_of_name(&name).map(|i| i as u32 + 1)
            }
        })
        .collect()
}

/// The board of a finding: the move's node, or the position before a move not played, or
/// the main line at the finding's ply.
fn board_of(
    d: &Diagnostic,
    cap: &Capture,
    unplayed: &HashMap<u32, (Option<usize>, Vec<u32>)>,
) -> Option<Board> {
    if let Some(span) = d.span {
        if let Some(&k) = cap.spans.get(&span.start) {
            return cap.nodes[k]
                .parent
                .map(|pos| Board::Node { pos, mv: Some(k) });
        }
        if let Some((Some(pos), route)) = unplayed.get(&span.start) {
            return Some(Board::Written {
                pos: *pos,
                route: route.clone(),
            });
        }
    }
    let ply = d.ply? as usize;
    if ply == 0 || d.variation {
        return None;
    }
    match cap.main_line.get(ply - 1) {
        Some(&k) => cap.nodes[k]
            .parent
            .map(|pos| Board::Node { pos, mv: Some(k) }),
        None => {
            let pos = if ply >= 2 {
                *cap.main_line.get(ply - 2)?
            } else {
                0
            };
            (pos < cap.nodes.len()).then_some(Board::Node { pos, mv: None })
        }
    }
}

/// One finding, a JSON object: severity `s`, code `c`, message `m`; where it is (`at`: line
/// and column; `w`: game, ply, move and side; `var` if in a variation); the source line
/// `src` (line number, before, marked, after); the rule `rule`; the legal moves `lg`; its
/// board: the position `p` and the move drawn, `mv` (a node) or `r` (the squares of a move
/// not played).
fn finding(
    out: &mut String,
    game: &GameText<'_>,
    lines: &crate::syntax::LineIndex,
    d: &Diagnostic,
    board: Option<&Board>,
) {
    let _ = write!(
        out,
        "{{\"s\":\"{}\",\"c\":\"{}\",\"m\":",
        d.severity().as_str(),
        d.code.as_str()
    );
    push_json_str(out, &d.message);
    let at = d.span.map(|s| {
        let at = lines.locate(game.source.as_bytes(), game.line, game.column, s.start);
        (at, s)
    });
    match at {
        Some(((l, c), _)) => {
            let _ = write!(out, ",\"at\":[{l},{c}]");
        }
        None => {
            let _ = write!(out, ",\"at\":[{}]", game.line);
        }
    }
    let mut w = format!("game {}", game.index);
    if let Some(p) = d.ply {
        let _ = write!(w, " · ply {p}");
        if let (Some(n), Some(side)) = (d.move_number, d.side) {
            let _ = write!(w, " (move {n}, {})", side_name(side));
        }
    }
    if d.variation {
        w.push_str(" · in a variation");
        out.push_str(",\"var\":1");
    }
    out.push_str(",\"w\":");
    push_json_str(out, &w);
    if let Some(((l, _), span)) = at {
        source_line(out, game, span, l);
    }
    if let Some(r) = &d.rule {
        out.push_str(",\"rule\":");
        push_json_str(out, r);
    }
    if let Some(legal) = &d.legal {
        out.push_str(",\"lg\":[");
        push_joined(out, legal, ",", |out, m| push_json_str(out, m));
        out.push(']');
    }
    match board {
        Some(Board::Node { pos, mv }) => {
            let _ = write!(out, ",\"p\":{pos}");
            if let Some(m) = mv {
                let _ = write!(out, ",\"mv\":{m}");
            }
        }
        Some(Board::Written { pos, route }) => {
            let _ = write!(out, ",\"p\":{pos},\"r\":[");
            push_joined(out, route, ",", |out, x| push_num(out, u64::from(*x)));
            out.push(']');
        }
        None => {}
    }
    out.push('}');
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The source line of a finding, `"src":[line, before, marked, after]` (at most 60
/// characters either side of the span, and of the span).
fn source_line(out: &mut String, game: &GameText<'_>, span: Span, line: u32) {
    let src = game.source;
    let start = (span.start as usize).min(src.len());
    let end = (span.end as usize).clamp(start, src.len());
    // The span's line: 60 characters before it, the span and 60 characters after it, each
    // within the line. Only those are looked at, so that many findings on one long line cost
    // each its own excerpt, not the line.
    let end = src[start..end]
        .find(['\n', '\r'])
        .map_or(end, |i| start + i);
    let (from, at_line_start) = lines::chars_back(src, start, 60);
    let mut shown: String = if at_line_start {
        String::new()
    } else {
        "…".into()
    };
    shown.push_str(&src[from..start]);
    let marked = &src[start..lines::chars_forward(src, start, 60).0.min(end)];
    let after = &src[end..lines::chars_forward(src, end, 60).0];
    let _ = write!(out, ",\"src\":[{line},");
    push_json_str(out, &shown);
    out.push(',');
    push_json_str(out, marked);
    out.push(',');
    push_json_str(out, after);
    out.push(']');
}

/// The game's data: variant, nodes, move list, tags, result (the object left open).
fn data(
    out: &mut String,
    record: &Record,
    report: &Verdict,
    cap: &Capture,
    tree: &str,
    found: &[(&str, String)],
) {
    out.push_str("{\"v\":");
    push_json_str(out, report.variant.map_or("", |v| v.name()));
    out.push_str(",\"n\":[");
    for (k, n) in cap.nodes.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        if let Some(full) = &n.full {
            out.push('[');
            push_json_str(out, full);
            out.push(']');
            continue;
        }
        let list = |out: &mut String, v: &[u32]| {
            out.push('[');
            push_joined(out, v, ",", |out, x| push_num(out, u64::from(*x)));
            out.push(']');
        };
        out.push('[');
        push_num(out, n.parent.unwrap_or(0) as u64);
        out.push_str(",\"");
        out.push_str(&n.diff);
        out.push_str("\",");
        list(out, &n.route);
        out.push(',');
        list(out, &n.captured);
        out.push(',');
        push_json_str(out, &n.text);
        out.push(',');
        push_num(out, u64::from(n.number));
        out.push(',');
        out.push(if n.side == Color::Black { '1' } else { '0' });
        out.push(',');
        push_num(out, u64::from(n.line));
        out.push_str(if n.irregular { ",1]" } else { ",0]" });
    }
    out.push_str("],\"t\":");
    out.push_str(tree);
    out.push_str(",\"tags\":[");
    for (i, (name, value, _)) in record.tags().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push('[');
        push_json_str(out, name);
        out.push(',');
        push_json_str(out, value);
        out.push(']');
    }
    for (i, (name, value)) in found.iter().enumerate() {
        if i > 0 || record.tags().next().is_some() {
            out.push(',');
        }
        out.push('[');
        push_json_str(out, name);
        out.push(',');
        push_json_str(out, value);
        out.push(']');
    }
    out.push_str("],\"r\":");
    match &report.result {
        Some(r) => push_json_str(out, r),
        None => out.push_str("null"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::judge::validate::validate_with;
    use crate::app::model::reading::FileGames;
    use crate::syntax::{Reader, read_games};

    const GAME: &[u8] =
        b"[GameType \"20\"]\n1. 32-28 19-23 2. 37-32 (2. 28x19 {x} 14x23) 13-19 3. 99-98 *\n";

    fn node(cap: &Capture, text: &str) -> usize {
        cap.nodes.iter().position(|n| n.text == text).unwrap()
    }

    #[test]
    fn a_variation_branches_from_the_position_before_the_move_it_replaces() {
        let games = read_games(GAME);
        let mut cap = Capture::default();
        let _ = validate_with(&games[0], &Options::default(), &mut cap);
        let parent = |t: &str| cap.nodes[node(&cap, t)].parent;
        assert_eq!(parent("32-28"), Some(0));
        assert_eq!(parent("28x19"), Some(node(&cap, "19-23")));
        assert_eq!(parent("37-32"), Some(node(&cap, "19-23")));
        assert_eq!(parent("14x23"), Some(node(&cap, "28x19")));
        assert_eq!(parent("13-19"), Some(node(&cap, "37-32")));
        let n = &cap.nodes[node(&cap, "28x19")];
        assert_eq!(
            (n.route.clone(), n.captured.clone()),
            (vec![28, 19], vec![23])
        );
        assert_eq!(n.diff, "0B19w23.28.");
        assert!(cap.nodes[node(&cap, "37-32")].irregular);
    }

    #[test]
    fn findings_point_at_the_position_before_their_move() {
        let out = FileGames::new(0)
            .next(&mut Reader::new(GAME), |g| {
                game_html(g, &Options::default(), &Policy::default(), None)
            })
            .unwrap()
            .unwrap();
        let games = read_games(GAME);
        let mut cap = Capture::default();
        let _ = validate_with(&games[0], &Options::default(), &mut cap);
        let data: serde_json::Value = serde_json::from_str(&out.html).unwrap();
        let f = data["f"].as_array().unwrap();
        // 37-32 while 28x19 was due: the board after 19-23, the move 37-32 drawn.
        let missed = f.iter().find(|d| d["c"] == "missed-capture").unwrap();
        assert_eq!(missed["s"], "error");
        assert_eq!(missed["p"], node(&cap, "19-23"));
        assert_eq!(missed["mv"], node(&cap, "37-32"));
        assert!(missed["var"].is_null());
        // 99-98 was not played: the board after 13-19, no squares to draw (off the board).
        let illegal = f.iter().find(|d| d["c"] == "illegal-move").unwrap();
        assert_eq!(illegal["p"], node(&cap, "13-19"));
        assert_eq!(illegal["r"], serde_json::json!([]));
        assert_eq!(illegal["src"][2], "99-98");
        assert_eq!((out.stats.counts.errors, out.stats.counts.plies), (2, 4));
        assert_eq!(
            data["t"],
            serde_json::json!([1, 2, 3, {"v": [4, {"c": "x"}, 5]}, 6, {"x": "99-98"}])
        );
        // The row of the list.
        let row: serde_json::Value = serde_json::from_str(&out.row).unwrap();
        assert_eq!(row.as_array().unwrap().len(), ROW_FIELDS.split(' ').count());
        assert_eq!(row[2], "e");
        assert_eq!(row[12], "illegal-move missed-capture");
    }
}
