//! The positions a replay went through, as a tree (for the HTML report's viewer and for the
//! diagrams of a game): a root node holds a whole position (the start, a `/FEN/` setup);
//! every move is a node holding its parent (the position before it) and the squares it
//! changed, as `pdn` computed them, so that the report's page only applies changes and knows
//! no rules.
//!
//! A position is written one character per square in number order after the side to move:
//! `W` or `B`, then `.` (empty), `w`, `b` (men), `W`, `B` (kings). A change is a square
//! number and its new character (`32.28w`: 32 emptied, a white man on 28; square 0 is the
//! side to move).

use std::collections::HashMap;

use crate::rules::notation::{self, SquareStyle};
use crate::rules::{Bits, Color, Position, Spec};

use crate::app::judge::replay::{Branch, Observer, Played, PlyEvent};
use crate::app::picture::{View, move_squares};
use crate::app::report::escape::push_num;
use crate::app::write::board::piece_char;

/// FxHash (rustc's): the maps of a tree hold small integer keys; SipHash's defence against
/// chosen keys is not needed for square sets and byte offsets.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Fx(u64);

impl std::hash::Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

/// A map with [`Fx`] hashing.
pub(crate) type FxMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Fx>>;

/// One node of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The position before the move; None for a root.
    pub parent: Option<usize>,
    /// A root's whole position.
    pub full: Option<String>,
    /// A move's changes.
    pub diff: String,
    /// A move's stopping squares, start first (square numbers).
    pub route: Vec<u32>,
    /// The squares of the pieces it takes.
    pub captured: Vec<u32>,
    /// The move in PDN.
    pub text: String,
    /// Its move number.
    pub number: u32,
    /// The side that moved.
    pub side: Color,
    /// The line it is on (0: the main line).
    pub line: u32,
    /// Irregular, played as recorded.
    pub irregular: bool,
}

/// The observer that builds the tree.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    /// The board (known from the first position).
    pub view: Option<View>,
    /// The nodes, in replay order; the first is the start position.
    pub nodes: Vec<Node>,
    /// The node of each move replayed, by the byte where the move is written.
    pub spans: FxMap<u32, usize>,
    /// How each parenthesised line was read, by the byte of its `(`.
    pub branches: FxMap<u32, Branch>,
    /// The nodes of the main line, ply by ply.
    pub main_line: Vec<usize>,
    /// The node where the main line ends (its last move, or a setup after it).
    pub main_end: Option<usize>,
    /// The position after each node.
    after: Vec<Key>,
    /// The last node with a given position.
    latest: FxMap<Key, usize>,
    /// The last node of each line.
    last_of_line: FxMap<u32, usize>,
}

/// A position in the page's form.
pub(crate) fn encode<B: Bits>(view: &View, pos: &Position<B>) -> String {
    let mut s = String::with_capacity(view.squares.len() + 1);
    s.push(pos.side().letter());
    for sq in &view.squares {
        s.push(piece_char(pos, sq.bit));
    }
    s
}

/// A position's identity: White's pieces, Black's, the kings, White to move.
type Key = (u128, u128, u128, bool);

fn key<B: Bits>(pos: &Position<B>) -> Key {
    (
        pos.pieces(Color::White).to_u128(),
        pos.pieces(Color::Black).to_u128(),
        pos.kings().to_u128(),
        pos.side() == Color::White,
    )
}

/// The changes of a move in the page's form, from the squares whose piece changed.
pub(crate) fn diff_of<B: Bits>(view: &View, before: &Position<B>, after: &Position<B>) -> String {
    let mut out = String::new();
    if before.side() != after.side() {
        out.push('0');
        out.push(after.side().letter());
    }
    let changed = (before.pieces(Color::White) ^ after.pieces(Color::White))
        | (before.pieces(Color::Black) ^ after.pieces(Color::Black))
        | (before.kings() ^ after.kings());
    let mut squares: Vec<(usize, char)> = changed
        .iter()
        .filter_map(|bit| {
            view.index_of_bit(bit)
                .map(|i| (i + 1, piece_char(after, bit)))
        })
        .collect();
    squares.sort_unstable();
    for (n, c) in squares {
        push_num(&mut out, n as u64);
        out.push(c);
    }
    out
}

/// The changes from one position to another (both in the page's form).
pub fn diff(before: &str, after: &str) -> String {
    let mut out = String::new();
    for (i, (a, b)) in before.chars().zip(after.chars()).enumerate() {
        if a != b {
            out.push_str(&i.to_string());
            out.push(b);
        }
    }
    out
}

impl Tree {
    fn root(&mut self, pos: String, id: Key) -> usize {
        let k = self.nodes.len();
        self.nodes.push(Node {
            parent: None,
            full: Some(pos),
            diff: String::new(),
            route: Vec::new(),
            captured: Vec::new(),
            text: String::new(),
            number: 0,
            side: Color::White,
            line: 0,
            irregular: false,
        });
        self.latest.insert(id, k);
        self.after.push(id);
        k
    }

    /// The node whose position is `before` for a move on `line`: the last node of the line,
    /// else the last node with that position, else a new root.
    fn parent_for<B: Bits>(&mut self, line: u32, before: &Position<B>) -> usize {
        let id = key(before);
        if let Some(&k) = self.last_of_line.get(&line)
            && self.after[k] == id
        {
            return k;
        }
        if let Some(&k) = self.latest.get(&id) {
            return k;
        }
        let full = self
            .view
            .as_ref()
            .map(|v| encode(v, before))
            .unwrap_or_default();
        self.root(full, id)
    }

    /// The whole position at node `k` (in the page's form): its root's, with the changes of
    /// every move down to `k` applied.
    pub(crate) fn position(&self, k: usize) -> Option<String> {
        let mut chain = Vec::new();
        let mut at = k;
        let root = loop {
            let n = self.nodes.get(at)?;
            match (&n.full, n.parent) {
                (Some(full), _) => break full,
                (None, Some(p)) => {
                    chain.push(at);
                    at = p;
                }
                (None, None) => return None,
            }
        };
        let mut pos: Vec<char> = root.chars().collect();
        for &m in chain.iter().rev() {
            apply(&mut pos, &self.nodes[m].diff);
        }
        Some(pos.into_iter().collect())
    }
}

/// Apply changes (`32.28w`) to a position's characters.
fn apply(pos: &mut [char], diff: &str) {
    let mut square = 0usize;
    for c in diff.chars() {
        match c.to_digit(10) {
            Some(d) => square = square * 10 + d as usize,
            None => {
                if let Some(slot) = pos.get_mut(square) {
                    *slot = c;
                }
                square = 0;
            }
        }
    }
}

impl Observer for Tree {
    fn position<V: Spec>(&mut self, pos: &Position<V::B>, main: bool) {
        if self.view.is_none() {
            self.view = Some(View::of::<V>());
        }
        let Some(view) = &self.view else { return };
        let enc = encode(view, pos);
        let k = self.root(enc, key(pos));
        if main {
            self.main_end = Some(k);
        }
    }

    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if self.view.is_none() {
            self.view = Some(View::of::<V>());
        }
        let Some(view) = &self.view else { return };
        let diff = diff_of(view, e.before, e.after);
        let (stops, taken) = move_squares(e.mv, e.route);
        let number_of = |b: u32| view.index_of_bit(b).map(|i| i as u32 + 1);
        let route = stops.iter().filter_map(|&b| number_of(b)).collect();
        let captured = taken.iter().filter_map(|&b| number_of(b)).collect();
        let text = notation::write(
            V::geometry(),
            V::numbering(),
            e.mv,
            e.route,
            e.ambiguous,
            SquareStyle::Native,
            'x',
        );
        let parent = self.parent_for(e.line, e.before);
        let k = self.nodes.len();
        self.nodes.push(Node {
            parent: Some(parent),
            full: None,
            diff,
            route,
            captured,
            text,
            number: e.number,
            side: e.side,
            line: e.line,
            irregular: matches!(e.played, Played::Irregular(_)),
        });
        let id = key(e.after);
        self.latest.insert(id, k);
        self.after.push(id);
        self.last_of_line.insert(e.line, k);
        self.spans.insert(e.item.span.start, k);
        if e.main {
            self.main_line.push(k);
            self.main_end = Some(k);
        }
    }

    fn variation(&mut self, span: u32, branch: Branch) {
        self.branches.insert(span, branch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_apply_square_by_square() {
        let mut p: Vec<char> = "W.w.b.".chars().collect();
        apply(&mut p, "0B2.3w4.");
        assert_eq!(p.into_iter().collect::<String>(), "B..w..");
    }

    #[test]
    fn a_capture_changes_three_squares() {
        assert_eq!(diff("Ww.b.", "Bb..w"), "0B1b3.4w");
        assert_eq!(diff("W..", "W.."), "");
    }
}
