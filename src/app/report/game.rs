//! One game of the HTML report: validated with a position [`Tree`](super::super::tree::Tree) watching, then written as an
//! `<article>`: a header line (status, players, event, result), its findings (each with a
//! board slot the page fills when it is shown: the position before the move and the move
//! drawn), and its data as JSON (the position tree, the move list with comments and
//! variations, the tags).

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::rules::Color;
use crate::syntax::{Span, Square};

use super::super::diagnostic::{Code, Diagnostic, GameText};
use super::super::findings::{Counts, Policy};
use super::super::join::push_joined;
use super::super::reading::GameRef;
use super::super::record::{LineRef, Node, Record};
use super::super::replay::Branch;
use super::super::tree::Tree as Capture;
use super::super::validate::{Options, Report, validate_ref_with};
use super::escape::{push_html, push_json_str, push_num};

/// What the summary needs of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// Plies replayed and findings, as `validate` counts them.
    pub counts: Counts,
    /// The variant's name, if known.
    pub variant: Option<&'static str>,
}

/// A game's article and its numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameHtml {
    /// The `<article>`.
    pub html: String,
    /// Its numbers.
    pub stats: GameStats,
}

/// Where a finding's board comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Board {
    /// The position of node `pos`; the move of node `mv` drawn.
    Node { pos: usize, mv: Option<usize> },
    /// The position of node `pos`, a move that was not played drawn from its squares.
    Written { pos: usize, route: Vec<u32> },
}

/// Validate a game of input file `file` and write its article: its findings under `policy`
/// (allowed codes dropped, denied ones errors, those below the least severity counted but
/// not written).
pub fn game_html(game: &GameRef<'_>, file: &str, opts: &Options, policy: &Policy) -> GameHtml {
    let mut cap = Capture::default();
    let mut report = validate_ref_with(game, opts, &mut cap);
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
    let id = format!("g{}-{}", game.file + 1, text.index);
    let mut html = String::with_capacity(1024 + 40 * cap.nodes.len());
    let status = if stats.counts.errors > 0 {
        "errors"
    } else if stats.counts.warnings > 0 {
        "warnings"
    } else {
        "clean"
    };
    let mut codes: Vec<&str> = Vec::new();
    for (i, n) in stats.counts.codes.iter().enumerate() {
        if *n > 0 {
            codes.push(Code::ALL[i].as_str());
        }
    }
    let _ = write!(
        html,
        "<article class=\"game s-{status}\" id=\"{id}\" data-status=\"{status}\" \
         data-codes=\"{}\" data-variant=\"{}\">",
        codes.join(" "),
        stats.variant.unwrap_or("unknown"),
    );
    header(&mut html, file, record, text.index, &report, &stats);
    let lines = text.lines();
    if report
        .diagnostics
        .iter()
        .any(|d| policy.shows(d.severity()))
    {
        html.push_str("<ol class=\"finds\">");
        for d in report
            .diagnostics
            .iter()
            .filter(|d| policy.shows(d.severity()))
        {
            let board = board_of(d, &cap, &unplayed);
            finding(&mut html, file, &text, &lines, d, board.as_ref());
        }
        html.push_str("</ol>");
    }
    html.push_str("<script type=\"application/json\" class=\"gd\">");
    data(&mut html, record, &report, &cap, &tree);
    html.push_str("</script></article>\n");
    GameHtml { html, stats }
}

/// The one line that stands for the game in the list.
fn header(
    out: &mut String,
    file: &str,
    record: &Record,
    index: usize,
    report: &Report,
    stats: &GameStats,
) {
    let tag = |name: &str| {
        record
            .tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty() && *v != "?")
    };
    out.push_str("<header class=\"gh\" tabindex=\"0\"><span class=\"st\">");
    let _ = match (stats.counts.errors, stats.counts.warnings) {
        (0, 0) => write!(out, "✓ clean"),
        (0, w) => write!(out, "! {w} warning{}", plural(w)),
        (e, _) => write!(out, "✗ {e} error{}", plural(e)),
    };
    out.push_str("</span><span class=\"gn\"><bdi>");
    push_html(out, file);
    let _ = write!(out, "</bdi> #{index}</span><span class=\"pl\"><bdi>");
    push_html(out, tag("White").unwrap_or("?"));
    out.push_str("</bdi> – <bdi>");
    push_html(out, tag("Black").unwrap_or("?"));
    out.push_str("</bdi></span><span class=\"ev\"><bdi>");
    let mut first = true;
    for name in ["Event", "Date", "Round"] {
        if let Some(v) = tag(name) {
            if !first {
                out.push_str(" · ");
            }
            first = false;
            push_html(out, v);
        }
    }
    out.push_str("</bdi></span><span class=\"res\">");
    if let Some(r) = &report.result {
        push_html(out, r);
    }
    let _ = write!(
        out,
        "</span><span class=\"pc\">{} · {} pl.</span></header>",
        stats.variant.unwrap_or("unknown variant"),
        stats.counts.plies
    );
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
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
                Node::Comment { text, .. } => {
                    self.json.push_str("{\"c\":");
                    push_json_str(&mut self.json, self.text.text(*text).trim());
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

/// One finding: board slot, message, location, source line, rule, legal moves.
fn finding(
    out: &mut String,
    file: &str,
    game: &GameText<'_>,
    lines: &crate::syntax::LineIndex,
    d: &Diagnostic,
    board: Option<&Board>,
) {
    let sev = d.severity().as_str();
    let _ = write!(
        out,
        "<li class=\"fd sev-{sev}\" data-code=\"{}\" data-var=\"{}\"",
        d.code.as_str(),
        u8::from(d.variation)
    );
    match board {
        Some(Board::Node { pos, mv }) => {
            let _ = write!(out, " data-p=\"{pos}\"");
            if let Some(m) = mv {
                let _ = write!(out, " data-m=\"{m}\"");
            }
        }
        Some(Board::Written { pos, route }) => {
            let r: Vec<String> = route.iter().map(u32::to_string).collect();
            let _ = write!(out, " data-p=\"{pos}\" data-r=\"{}\"", r.join(","));
        }
        None => {}
    }
    out.push('>');
    if board.is_some() {
        out.push_str("<div class=\"fb\"></div>");
    }
    let _ = write!(
        out,
        "<div class=\"fx\"><p class=\"fh\"><b class=\"sv\">{sev}</b> <code>{}</code> \
         <span class=\"msg\">",
        d.code.as_str()
    );
    push_html(out, &d.message);
    out.push_str("</span></p><p class=\"fl\"><bdi>");
    push_html(out, file);
    out.push_str("</bdi>");
    let at = d.span.map(|s| {
        let at = lines.locate(game.source.as_bytes(), game.line, game.column, s.start);
        (at, s)
    });
    match at {
        Some(((l, c), _)) => {
            let _ = write!(out, ":{l}:{c}");
        }
        None => {
            let _ = write!(out, ":{}", game.line);
        }
    }
    let _ = write!(out, " · game {}", game.index);
    if let Some(p) = d.ply {
        let _ = write!(out, " · ply {p}");
        if let (Some(n), Some(side)) = (d.move_number, d.side) {
            let _ = write!(out, " (move {n}, {})", side_name(side));
        }
    }
    if d.variation {
        out.push_str(" · in a variation");
    }
    out.push_str("</p>");
    if let Some(((l, _), span)) = at {
        source_line(out, game, span, l);
    }
    if d.rule.is_some() || d.legal.is_some() {
        out.push_str("<p class=\"fr\">");
        if let Some(r) = &d.rule {
            out.push_str("Rule: <span class=\"rule\">");
            push_html(out, r);
            out.push_str("</span>");
        }
        if let Some(legal) = &d.legal {
            if d.rule.is_some() {
                out.push_str(" · ");
            }
            out.push_str("Legal moves: <span class=\"lg\">");
            if legal.is_empty() {
                out.push_str("none");
            }
            push_joined(out, legal, " ", |out, m| push_html(out, m));
            out.push_str("</span>");
        }
        out.push_str("</p>");
    }
    out.push_str("</div></li>");
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The source line of a finding with its span marked (at most 160 characters around it).
fn source_line(out: &mut String, game: &GameText<'_>, span: Span, line: u32) {
    let src = game.source;
    let start = (span.start as usize).min(src.len());
    let end = (span.end as usize).clamp(start, src.len());
    let line_start = src[..start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line_end = src[start..]
        .find(['\n', '\r'])
        .map_or(src.len(), |i| start + i);
    let end = end.min(line_end);
    let before: Vec<char> = src[line_start..start].chars().collect();
    let skip = before.len().saturating_sub(60);
    let before: String = before[skip..].iter().collect();
    let marked: String = src[start..end].chars().take(60).collect();
    let after: String = src[end..line_end].chars().take(60).collect();
    let _ = write!(out, "<pre class=\"src\"><span class=\"ln\">{line}</span>");
    if skip > 0 {
        out.push('…');
    }
    push_html(out, &before);
    out.push_str("<mark>");
    push_html(out, &marked);
    out.push_str("</mark>");
    push_html(out, &after);
    out.push_str("</pre>");
}

/// The game's data: variant, nodes, move list, tags, result.
fn data(out: &mut String, record: &Record, report: &Report, cap: &Capture, tree: &str) {
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
    out.push_str("],\"r\":");
    match &report.result {
        Some(r) => push_json_str(out, r),
        None => out.push_str("null"),
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::reading::FileGames;
    use crate::app::validate::validate_with;
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
                game_html(g, "a<b>.pdn", &Options::default(), &Policy::default())
            })
            .unwrap()
            .unwrap();
        let games = read_games(GAME);
        let mut cap = Capture::default();
        let _ = validate_with(&games[0], &Options::default(), &mut cap);
        // 37-32 while 28x19 was due: the board after 19-23, the move 37-32 drawn.
        let missed = format!(
            "<li class=\"fd sev-error\" data-code=\"missed-capture\" data-var=\"0\" data-p=\"{}\" data-m=\"{}\">",
            node(&cap, "19-23"),
            node(&cap, "37-32")
        );
        assert!(out.html.contains(&missed), "{}", out.html);
        // 99-98 was not played: the board after 13-19, no squares to draw (off the board).
        let illegal = format!(
            "data-code=\"illegal-move\" data-var=\"0\" data-p=\"{}\" data-r=\"\">",
            node(&cap, "13-19")
        );
        assert!(out.html.contains(&illegal), "{}", out.html);
        assert!(out.html.contains("a&lt;b&gt;.pdn"));
        assert_eq!((out.stats.counts.errors, out.stats.counts.plies), (2, 4));
        assert!(
            out.html
                .contains("\"t\":[1,2,3,{\"v\":[4,{\"c\":\"x\"},5]},6,{\"x\":\"99-98\"}]")
        );
    }
}
