//! `pdn explore`: from a position, the moves played next in an archive's main lines, with
//! their games, results and score; below them, to a depth, the same for the positions they
//! lead to. Answered from an index (`pdn explore` without one builds a temporary index
//! first), so that a position is found by its key whatever the order of moves that reached
//! it: transpositions are counted together.
//!
//! For each position listed, [`Tally`] counts the games that reach it (each once, however
//! often), as `search --position` finds them; for each move, `played` counts the games in
//! which it was played from the position, and its tally is that of the position after it.
//! Results are counted by colour, and the score of the side to move is given on the
//! variant's scale (a win 2 and a draw 1 under the international result type, 1 and ½
//! otherwise) and as a percentage, over decided games.

use std::collections::HashMap;
use std::fmt::Write as _;

use crate::rules::notation::{self, SquareStyle};
use crate::rules::{
    Bits, Color, Move, MoveList, Position, ResultType, Spec, Variant, VariantPosition,
};

use super::hash::position_key;
use super::index::stream::{self, Event};
use super::index::{GameEntry, Index, IndexError, Status, Won};
use super::slot;
use crate::app::picture::View;
use crate::app::picture::svg::piece_symbols;
use crate::app::report::escape::push_html;
use crate::app::write::jsonl::Object;
use crate::app::write::terminal::push_escaped;

/// How far to explore.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExploreOptions {
    /// Plies of the tree below the position: 1 lists the moves played from it.
    pub depth: u32,
    /// A move leads further only if it was played in at least this many games.
    pub min_games: u64,
    /// At most this many positions in the tree.
    pub max_positions: usize,
}

impl Default for ExploreOptions {
    fn default() -> Self {
        ExploreOptions {
            depth: 1,
            min_games: 1,
            max_positions: 10_000,
        }
    }
}

/// Games and results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games.
    pub games: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Games without a decided result.
    pub unknown: u64,
    /// The first year of their `Date` tags.
    pub first_year: Option<u16>,
    /// The last.
    pub last_year: Option<u16>,
}

impl Tally {
    fn add(&mut self, g: &GameEntry) {
        self.games += 1;
        match g.won {
            w if w == Won::White as u8 => self.white_wins += 1,
            w if w == Won::Black as u8 => self.black_wins += 1,
            w if w == Won::Draw as u8 => self.draws += 1,
            _ => self.unknown += 1,
        }
        if let Some(y) = g.year {
            self.first_year = Some(self.first_year.map_or(y, |f| f.min(y)));
            self.last_year = Some(self.last_year.map_or(y, |l| l.max(y)));
        }
    }

    /// Wins and losses of `side`.
    fn wins_losses(&self, side: Color) -> (u64, u64) {
        match side {
            Color::White => (self.white_wins, self.black_wins),
            Color::Black => (self.black_wins, self.white_wins),
        }
    }

    /// Games won, drawn or lost.
    pub fn decided(&self) -> u64 {
        self.white_wins + self.draws + self.black_wins
    }

    /// The points of `side` per decided game on the scale of `variant` (a win 2 and a draw
    /// 1 under the international result type, 1 and ½ otherwise).
    pub fn score(&self, side: Color, variant: Variant) -> Option<f64> {
        let (w, _) = self.wins_losses(side);
        let d = self.decided();
        let win = match variant.rules().result_type {
            ResultType::International => 2.0,
            ResultType::Default => 1.0,
        };
        (d > 0).then(|| round2((w as f64 * win + self.draws as f64 * win / 2.0) / d as f64))
    }

    /// The percentage `side` scored over decided games (a win 1, a draw ½).
    pub fn percent(&self, side: Color) -> Option<f64> {
        let (w, _) = self.wins_losses(side);
        let d = self.decided();
        (d > 0).then(|| round2(100.0 * (w as f64 + self.draws as f64 / 2.0) / d as f64))
    }
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// A move played from a position of the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    /// The move, in PDN.
    pub mv: String,
    /// The position after it.
    pub fen_after: String,
    /// Games in which it was played from the position.
    pub played: u64,
    /// The games that reach the position after it.
    pub tally: Tally,
    /// That position in the tree.
    pub child: usize,
}

/// A position of the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The position, as a FEN.
    pub fen: String,
    /// The side to move.
    pub side: Color,
    /// The position, for pictures.
    pub position: VariantPosition,
    /// The games that reach it.
    pub tally: Tally,
    /// The moves played from it, most played first (when it was explored).
    pub moves: Vec<Edge>,
    /// Its moves were looked for.
    pub explored: bool,
    /// Plies from the root (its first way there), and the moves of that way.
    pub depth: u32,
    /// The moves from the root.
    pub path: Vec<String>,
    /// The position it was first reached from.
    pub parent: Option<usize>,
}

/// The tree from a position (node 0).
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    /// The variant.
    pub variant: Variant,
    /// The positions, the root first.
    pub nodes: Vec<Node>,
    /// Moves that would have led further were left unexplored for `max_positions`.
    pub truncated: bool,
}

/// What the games say of one position: who reaches it, what they played from it.
struct Visit<B> {
    tally: Tally,
    next: Vec<(Move<B>, u64)>,
}

/// Placement and side to move, as a map key.
type Placement = (u128, u128, u128, Color);

fn placement<B: Bits>(p: &Position<B>) -> Placement {
    let (w, b, k, s) = p.placement_key();
    (w.to_u128(), b.to_u128(), k.to_u128(), s)
}

/// Visit positions of variant `V` in one pass over the games: for each, the games listed
/// under its key that reach it (each once), and the moves played from it in each (each move
/// once per game).
fn visit<V: Spec>(
    index: &Index,
    targets: &[Position<V::B>],
) -> Result<Vec<Visit<V::B>>, IndexError> {
    let v = slot(V::RULES.variant) as u8;
    let mut ids = Vec::new();
    let mut wanted: HashMap<Placement, usize> = HashMap::new();
    // The piece counts of the targets: a position of another count is not looked up.
    let mut counts = 0u128;
    let mut fewest = u32::MAX;
    for (i, t) in targets.iter().enumerate() {
        ids.extend(index.lookup(position_key(V::RULES.variant, t))?);
        wanted.insert(placement(t), i);
        let n = t.occupied().count();
        counts |= 1u128 << n.min(127);
        fewest = fewest.min(n);
    }
    ids.sort_unstable();
    ids.dedup();
    let find = |p: &Position<V::B>| -> Option<usize> {
        let n = p.occupied().count().min(127);
        if counts >> n & 1 == 0 {
            return None;
        }
        wanted.get(&placement(p)).copied()
    };
    let mut visits: Vec<Visit<V::B>> = targets
        .iter()
        .map(|_| Visit {
            tally: Tally::default(),
            next: Vec::new(),
        })
        .collect();
    let mut reached: Vec<usize> = Vec::new();
    let mut here: Vec<(usize, Move<V::B>)> = Vec::new();
    index.games_of(&ids, |_, g, bytes, _| {
        if g.variant != Some(v)
            || !matches!(
                g.status,
                s if s == Status::Whole as u8 || s == Status::UpTo as u8
            )
        {
            return Ok(());
        }
        reached.clear();
        here.clear();
        // Pieces never come back: once fewer stand than in any target, none can recur (but
        // a setup could bring them: only without one ahead is the game over for us).
        let setups = bytes.contains(&stream::SETUP);
        let mut at: Option<usize> = None;
        stream::replay::<V>(bytes, |e| {
            match e {
                Event::Start(p) | Event::Setup(p, _) => at = find(p),
                Event::Move(_, mv, after, _) => {
                    if let Some(t) = at
                        && !here.contains(&(t, *mv))
                    {
                        here.push((t, *mv));
                    }
                    at = find(after);
                    if at.is_none() && !setups && after.occupied().count() < fewest {
                        return false;
                    }
                }
            }
            if let Some(t) = at
                && !reached.contains(&t)
            {
                reached.push(t);
            }
            true
        })?;
        for &t in &reached {
            visits[t].tally.add(g);
        }
        for (t, m) in &here {
            let next = &mut visits[*t].next;
            match next.iter_mut().find(|(n, _)| n == m) {
                Some((_, k)) => *k += 1,
                None => next.push((*m, 1)),
            }
        }
        Ok(())
    })?;
    Ok(visits)
}

/// A move in PDN (its full route where the short form is ambiguous).
fn move_text<V: Spec>(pos: &Position<V::B>, mv: &Move<V::B>, list: &mut MoveList<V::B>) -> String {
    V::legal_moves(pos, list);
    match list.moves().iter().position(|m| m == mv) {
        Some(i) => notation::write_in_list(
            V::geometry(),
            V::numbering(),
            list,
            i,
            SquareStyle::Native,
            'x',
        ),
        None => notation::write(
            V::geometry(),
            V::numbering(),
            mv,
            &[],
            false,
            SquareStyle::Native,
            'x',
        ),
    }
}

/// A position of the tree and what the games said of it.
struct Entry<B> {
    pos: Position<B>,
    next: Vec<(Move<B>, u64)>,
}

/// A position found for the next level of the tree: the position, its depth, the moves
/// that lead to it, its parent node.
type Found<B> = (Position<B>, u32, Vec<String>, Option<usize>);

/// A move of a level waiting for its node: the node it is played from, the move, its games,
/// its text and the placement it leads to.
type Pending<B> = (usize, Move<B>, u64, String, Placement);

fn explore_typed<V: Spec>(
    index: &Index,
    root: Position<V::B>,
    opts: &ExploreOptions,
) -> Result<Tree, IndexError> {
    let mut nodes: Vec<Node> = Vec::new();
    let mut entries: Vec<Entry<V::B>> = Vec::new();
    let mut by_key: HashMap<Placement, usize> = HashMap::new();
    let mut list = MoveList::new();
    let mut truncated = false;
    // New positions, visited a level at a time (one pass over the games per level).
    let add = |found: Vec<Found<V::B>>,
               nodes: &mut Vec<Node>,
               entries: &mut Vec<Entry<V::B>>,
               by_key: &mut HashMap<Placement, usize>|
     -> Result<(), IndexError> {
        let targets: Vec<Position<V::B>> = found.iter().map(|f| f.0).collect();
        let visits = visit::<V>(index, &targets)?;
        for ((pos, depth, path, parent), v) in found.into_iter().zip(visits) {
            by_key.insert(placement(&pos), nodes.len());
            nodes.push(Node {
                fen: V::to_fen(&pos),
                side: pos.side(),
                position: VariantPosition::of::<V>(&pos),
                tally: v.tally,
                moves: Vec::new(),
                explored: false,
                depth,
                path,
                parent,
            });
            entries.push(Entry { pos, next: v.next });
        }
        Ok(())
    };
    add(
        vec![(root, 0, Vec::new(), None)],
        &mut nodes,
        &mut entries,
        &mut by_key,
    )?;
    let mut level = vec![0usize];
    for depth in 0..opts.depth {
        // The moves of this level's positions, and the positions they lead to that are new.
        let mut fresh: Vec<Found<V::B>> = Vec::new();
        let mut fresh_keys: HashMap<Placement, usize> = HashMap::new();
        let mut pending: Vec<Pending<V::B>> = Vec::new();
        for &n in &level {
            let pos = entries[n].pos;
            let mut next = std::mem::take(&mut entries[n].next);
            next.sort_by_key(|(m, k)| (std::cmp::Reverse(*k), m.from, m.to));
            for (mv, played) in next {
                let after = pos.after(&mv, V::RULES);
                let key = placement(&after);
                let text = move_text::<V>(&pos, &mv, &mut list);
                if !by_key.contains_key(&key) && !fresh_keys.contains_key(&key) {
                    if nodes.len() + fresh.len() >= opts.max_positions {
                        truncated = true;
                        continue;
                    }
                    let mut path = nodes[n].path.clone();
                    path.push(text.clone());
                    fresh_keys.insert(key, fresh.len());
                    fresh.push((after, depth + 1, path, Some(n)));
                }
                pending.push((n, mv, played, text, key));
            }
            nodes[n].explored = true;
        }
        let first_new = nodes.len();
        add(fresh, &mut nodes, &mut entries, &mut by_key)?;
        let mut next_level = Vec::new();
        for (n, _, played, text, key) in pending {
            let Some(&c) = by_key.get(&key) else { continue };
            if c >= first_new && played >= opts.min_games && !next_level.contains(&c) {
                next_level.push(c);
            }
            let edge = Edge {
                mv: text,
                fen_after: nodes[c].fen.clone(),
                played,
                tally: nodes[c].tally,
                child: c,
            };
            nodes[n].moves.push(edge);
        }
        level = next_level;
        if level.is_empty() {
            break;
        }
    }
    Ok(Tree {
        variant: V::RULES.variant,
        nodes,
        truncated,
    })
}

/// Explore an index from `root` (a position of its variant).
///
/// # Errors
///
/// The index cannot be read or is damaged.
pub fn explore(
    index: &Index,
    root: &VariantPosition,
    opts: &ExploreOptions,
) -> Result<Tree, IndexError> {
    crate::with_variant!(root.variant(), V => match root.get::<V>() {
        Some(p) => explore_typed::<V>(index, p, opts),
        None => Err(IndexError::Corrupt("a position of another variant")),
    })
}

/// The side's name.
fn side_name(c: Color) -> &'static str {
    c.name()
}

/// An optional number as text (`-` when absent).
fn opt(x: Option<f64>) -> String {
    x.map_or("-".to_string(), |v| format!("{v:.2}"))
}

fn years(t: &Tally) -> String {
    match (t.first_year, t.last_year) {
        (Some(a), Some(b)) if a == b => a.to_string(),
        (Some(a), Some(b)) => format!("{a}-{b}"),
        _ => "-".to_string(),
    }
}

impl Tree {
    /// The maximum score on the variant's scale (2 or 1).
    fn scale(&self) -> &'static str {
        match self.variant.rules().result_type {
            ResultType::International => "2",
            ResultType::Default => "1",
        }
    }

    /// The tree as aligned text: each explored position with its moves (everything from
    /// the input escaped for a terminal: there is nothing but FENs and moves pdn wrote).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for n in self.nodes.iter().filter(|n| n.explored || n.depth == 0) {
            let _ = write!(out, "{}: ", self.variant.name());
            if !n.path.is_empty() {
                push_escaped(&mut out, &n.path.join(" "));
                out.push_str(" -> ");
            }
            push_escaped(&mut out, &n.fen);
            let t = &n.tally;
            let _ = writeln!(
                out,
                "\n{} game{}: White won {}, drawn {}, Black won {}, unknown {}; {} scored {} of {} ({}%); years {}",
                t.games,
                if t.games == 1 { "" } else { "s" },
                t.white_wins,
                t.draws,
                t.black_wins,
                t.unknown,
                side_name(n.side),
                opt(t.score(n.side, self.variant)),
                self.scale(),
                opt(t.percent(n.side)),
                years(t)
            );
            if n.moves.is_empty() {
                out.push_str("no move was played from this position\n\n");
                continue;
            }
            let rows: Vec<[String; 10]> = n
                .moves
                .iter()
                .map(|e| {
                    let t = &e.tally;
                    [
                        e.mv.clone(),
                        t.games.to_string(),
                        e.played.to_string(),
                        t.white_wins.to_string(),
                        t.draws.to_string(),
                        t.black_wins.to_string(),
                        t.unknown.to_string(),
                        opt(t.score(n.side, self.variant)),
                        opt(t.percent(n.side)),
                        years(t),
                    ]
                })
                .collect();
            let head = [
                "move", "games", "played", "white", "draws", "black", "unknown", "score", "%",
                "years",
            ];
            let mut width = head.map(str::len);
            for r in &rows {
                for (w, c) in width.iter_mut().zip(r) {
                    *w = (*w).max(c.chars().count());
                }
            }
            let line = |out: &mut String, cells: &[&str]| {
                for (i, c) in cells.iter().enumerate() {
                    if i == 0 {
                        let _ = write!(out, "{c:<w$}", w = width[i]);
                    } else {
                        let _ = write!(out, "  {c:>w$}", w = width[i]);
                    }
                }
                out.push('\n');
            };
            line(&mut out, &head);
            for r in &rows {
                line(&mut out, &r.each_ref().map(String::as_str));
            }
            out.push('\n');
        }
        if self.truncated {
            out.push_str("(the tree was cut at its largest size: some moves lead no further)\n");
        }
        out
    }

    /// The tree as JSON Lines: for each explored position a `position` record, then a `move`
    /// record per move (with the id of the position it leads to).
    pub fn push_json(&self, out: &mut String) {
        for (id, n) in self.nodes.iter().enumerate() {
            if !(n.explored || id == 0) {
                continue;
            }
            let t = &n.tally;
            let mut o = Object::new(out);
            o.str("type", "position")
                .uint("id", id as u64)
                .str("variant", self.variant.name())
                .str("fen", &n.fen)
                .str("side", side_name(n.side))
                .uint("depth", u64::from(n.depth));
            tally_fields(&mut o, t, n.side, self.variant);
            o.end();
            for e in &n.moves {
                let t = &e.tally;
                let mut o = Object::new(out);
                o.str("type", "move")
                    .uint("from", id as u64)
                    .str("variant", self.variant.name())
                    .str("move", &e.mv)
                    .str("fen_after", &e.fen_after)
                    .uint("to", e.child as u64)
                    .uint("played", e.played);
                tally_fields(&mut o, t, n.side, self.variant);
                o.end();
            }
        }
    }
}

fn tally_fields(o: &mut Object<'_>, t: &Tally, side: Color, v: Variant) {
    o.uint("games", t.games)
        .uint("white_wins", t.white_wins)
        .uint("draws", t.draws)
        .uint("black_wins", t.black_wins)
        .uint("unknown", t.unknown)
        .opt_float("score", t.score(side, v))
        .opt_float("percent", t.percent(side))
        .opt_uint("first_year", t.first_year.map(u64::from))
        .opt_uint("last_year", t.last_year.map(u64::from));
}

/// The CSP source expression of [`CSS`] (its SHA-256 in base64): a constant, checked by the
/// test `css_hash_is_that_of_the_page`.
const CSS_HASH: &str = "'sha256-rZyM/y108JBIQdktmCb51zk8/YiD7Nt/WDRK2Pj5gT8='";

const CSS: &str = "\
:root{--ink:#181818;--muted:#5f5f5f;--line:#d9d6ce;--bg:#fbfaf7;--accent:#1648a0;--dark:#b58863;--light:#f0d9b5}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,\"Segoe UI\",\"DejaVu Sans\",sans-serif;color:var(--ink);background:var(--bg)}
svg.defs{position:absolute;width:0;height:0;overflow:hidden}
header{padding:14px 20px 6px;border-bottom:1px solid var(--line);background:#fff}
header h1{margin:0;font-size:20px}
header p{margin:2px 0 0;color:var(--muted);font-size:13px}
main{padding:10px 20px 40px}
.node{display:none}
.node:target{display:block}
#n0{display:block}
.node:target~#n0{display:none}
.node h2{font-size:16px;margin:8px 0;font-weight:600}
.node .path{font-family:ui-monospace,\"DejaVu Sans Mono\",monospace}
.cols{display:flex;flex-wrap:wrap;gap:20px;align-items:flex-start}
.cols>div{flex:1 1 420px;min-width:0}
.path{overflow-wrap:anywhere}
svg.board{width:min(420px,92vw);height:auto;border:1px solid var(--line);background:var(--light)}
#board .d{fill:var(--dark)}
#board text{font-size:17px;fill:#fff;font-family:\"DejaVu Sans\",sans-serif}
table{border-collapse:collapse;background:#fff;border:1px solid var(--line);font-variant-numeric:tabular-nums}
th,td{white-space:nowrap;padding:3px 9px;border-bottom:1px solid var(--line);text-align:right}
th:first-child,td:first-child{text-align:left;font-family:ui-monospace,\"DejaVu Sans Mono\",monospace}
a{color:var(--accent)}
.muted{color:var(--muted)}
nav a{margin-right:12px}
";

impl Tree {
    /// The tree as one self-contained HTML page (no script, no network): each explored
    /// position with its board and its move table, each move a link to the position it leads
    /// to. `title` (from the command line) is escaped.
    pub fn to_html(&self, title: &str) -> String {
        let mut out = String::with_capacity(64 << 10);
        out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
        let _ = writeln!(
            out,
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src {}; img-src data:; base-uri 'none'; form-action 'none'\">",
            CSS_HASH
        );
        out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<link rel=\"icon\" href=\"data:,\">\n<title>");
        push_html(&mut out, title);
        out.push_str("</title>\n<style>");
        out.push_str(CSS);
        out.push_str("</style>\n</head>\n<body>\n<svg class=\"defs\" aria-hidden=\"true\"><defs>");
        out.push_str(&piece_symbols());
        let view = View::of_variant(self.variant);
        board_symbol(&view, &mut out);
        out.push_str("</defs></svg>\n<header><h1>");
        push_html(&mut out, title);
        let _ = writeln!(
            out,
            "</h1><p>Written by pdn {}: {} draughts, the moves played in the archive's main lines. Games reaching a position by any order of moves are counted together; each move links to the position it leads to. Scores are those of the side to play, on the variant's scale (of {}).</p></header>\n<main>",
            env!("CARGO_PKG_VERSION"),
            self.variant.name(),
            self.scale()
        );
        // The root last: it shows when no other position is targeted.
        for id in (1..self.nodes.len()).chain([0]) {
            self.node_html(id, &view, &mut out);
        }
        if self.truncated {
            out.push_str("<p class=\"muted\">The tree was cut at its largest size: some moves lead no further.</p>");
        }
        out.push_str("</main>\n</body></html>\n");
        out
    }

    fn node_html(&self, id: usize, view: &View, out: &mut String) {
        let n = &self.nodes[id];
        let _ = write!(out, "<section class=\"node\" id=\"n{id}\"><nav>");
        if id != 0 {
            out.push_str("<a href=\"#n0\">start</a>");
            if let Some(p) = n.parent {
                let _ = write!(out, "<a href=\"#n{p}\">back</a>");
            }
        }
        out.push_str("</nav><h2>");
        if n.path.is_empty() {
            out.push_str("Start: ");
        } else {
            out.push_str("<span class=\"path\">");
            push_html(out, &n.path.join(" "));
            out.push_str("</span> — ");
        }
        let t = &n.tally;
        let _ = write!(
            out,
            "{} to play, {} game{}</h2><div class=\"cols\">",
            if n.side == Color::White {
                "White"
            } else {
                "Black"
            },
            t.games,
            if t.games == 1 { "" } else { "s" }
        );
        board(view, &n.position, out);
        out.push_str("<div>");
        let _ = write!(
            out,
            "<p class=\"muted\">White won {}, drawn {}, Black won {}, unknown {}; {} scored {} ({}%); years {}</p><p class=\"muted path\">",
            t.white_wins,
            t.draws,
            t.black_wins,
            t.unknown,
            side_name(n.side),
            opt(t.score(n.side, self.variant)),
            opt(t.percent(n.side)),
            years(t)
        );
        push_html(out, &n.fen);
        out.push_str("</p>");
        if !n.explored {
            out.push_str("<p class=\"muted\">Not explored further (too few games, or deeper than asked).</p>");
        } else if n.moves.is_empty() {
            out.push_str("<p>No move was played from this position.</p>");
        } else {
            out.push_str("<table><thead><tr><th>move</th><th>games</th><th>played</th><th>white</th><th>draws</th><th>black</th><th>unknown</th><th>score</th><th>%</th><th>years</th></tr></thead><tbody>");
            for e in &n.moves {
                let t = &e.tally;
                out.push_str("<tr><td>");
                let _ = write!(out, "<a href=\"#n{}\">", e.child);
                push_html(out, &e.mv);
                let _ = write!(
                    out,
                    "</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    t.games,
                    e.played,
                    t.white_wins,
                    t.draws,
                    t.black_wins,
                    t.unknown,
                    opt(t.score(n.side, self.variant)),
                    opt(t.percent(n.side)),
                    years(t)
                );
            }
            out.push_str("</tbody></table>");
        }
        out.push_str("</div></div></section>\n");
    }
}

/// The empty board of a view as a symbol (`board`): its squares and their names.
fn board_symbol(view: &View, out: &mut String) {
    let (w, h) = (u32::from(view.width) * 100, u32::from(view.height) * 100);
    let _ = write!(
        out,
        "<symbol id=\"board\" viewBox=\"0 0 {w} {h}\"><path class=\"d\" d=\""
    );
    for i in 0..view.squares.len() {
        let (c, r) = view.place(i, false);
        let _ = write!(
            out,
            "M{} {}h100v100h-100z",
            u32::from(c) * 100,
            u32::from(r) * 100
        );
    }
    out.push_str("\"/>");
    for (i, s) in view.squares.iter().enumerate() {
        let (c, r) = view.place(i, false);
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">",
            u32::from(c) * 100 + 4,
            u32::from(r) * 100 + 18
        );
        push_html(out, &s.name);
        out.push_str("</text>");
    }
    out.push_str("</symbol>");
}

/// A board with the pieces of a position.
fn board(view: &View, pos: &VariantPosition, out: &mut String) {
    let (w, h) = (u32::from(view.width) * 100, u32::from(view.height) * 100);
    let _ = write!(
        out,
        "<svg class=\"board\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{}\"><use href=\"#board\" width=\"{w}\" height=\"{h}\"/>",
        if pos_side(pos) == Color::White {
            "White to play"
        } else {
            "Black to play"
        }
    );
    crate::with_variant!(pos.variant(), V => if let Some(p) = pos.get::<V>() {
        for color in Color::ALL {
            for bit in p.pieces(color).iter() {
                let Some(i) = view.index_of_bit(bit) else { continue };
                let (c, r) = view.place(i, false);
                let role = if p.kings().has(bit) { "king" } else { "man" };
                let _ = write!(
                    out,
                    "<use href=\"#pdn-{}-{role}\" x=\"{}\" y=\"{}\" width=\"100\" height=\"100\"/>",
                    color.name(),
                    u32::from(c) * 100,
                    u32::from(r) * 100
                );
            }
        }
    });
    out.push_str("</svg>");
}

fn pos_side(pos: &VariantPosition) -> Color {
    crate::with_variant!(pos.variant(), V => pos.get::<V>().map_or(Color::White, |p| p.side()))
}

/// The position after opening moves (`32-28 19-23`) from the start of variant `V`.
///
/// # Errors
///
/// The moves cannot be played there.
pub fn after_moves<V: Spec>(moves: &str) -> Result<Position<V::B>, super::QueryError> {
    super::compile::opening::<V>(moves).map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use sha2::{Digest, Sha256};

    use super::*;

    #[test]
    fn css_hash_is_that_of_the_page() {
        let digest = Sha256::digest(CSS.as_bytes());
        let b64 = base64::engine::general_purpose::STANDARD.encode(digest);
        assert_eq!(
            CSS_HASH,
            format!("'sha256-{b64}'"),
            "the explorer's CSS changed: put its new hash into CSS_HASH"
        );
    }
}
