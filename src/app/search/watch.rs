//! [`Watch`]: a query watching one game go by, position after position and move after move,
//! fed alike by the replay of a record (`game`) and by the positions an index stores
//! (`index::scan`), so that both answer every query the same way. Only positions reached
//! without an error on their line are looked at; what matches becomes a [`Hit`].

use std::sync::Arc;

use crate::rules::notation::{self, SquareStyle};
use crate::rules::{Color, Move, MoveList, Position, Spec};

use super::compile::{Compiled, MoveKey, move_key};

/// A position (or a move played from it) that the query matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Hit {
    /// Plies played before the position.
    pub ply: u32,
    /// On the main line.
    pub main: bool,
    /// 0: the query as given; 1: its colour-reversed form.
    pub form: u8,
    /// The side to move.
    pub side: Color,
    /// The position, as a FEN in the variant's numbering.
    pub fen: String,
    /// The move played from the position (a manoeuvre query), in PDN.
    pub mv: Option<String>,
    /// Where in the game's text the position stands: after the move that reached it (or
    /// the setup that set it); `None` for the start position.
    pub at: Option<u32>,
}

/// A move of the game going by: the position before it, the move, the position after it.
#[derive(Debug)]
pub(crate) struct Step<'a, V: Spec> {
    pub before: &'a Position<V::B>,
    pub mv: &'a Move<V::B>,
    pub after: &'a Position<V::B>,
    /// The ply of the move (the position after it has `ply` plies played).
    pub ply: u32,
    /// On the main line.
    pub main: bool,
    /// The position before the move was reached without an error, and the move is legal.
    pub sound: bool,
    /// Where the move ends in the game's text.
    pub at: Option<u32>,
}

/// What a search does with a game (see the module documentation).
pub(crate) struct Watch<V: Spec> {
    c: Arc<Compiled<V>>,
    variations: bool,
    all: bool,
    hits: Vec<Hit>,
    main_found: [bool; 2],
    side_found: [bool; 2],
    moves_ok: bool,
    moves_reached: bool,
    /// The start position.
    pub start: Option<Position<V::B>>,
    /// The last ply of the main line whose position was looked at.
    pub searched: u32,
    /// Plies of variations looked at.
    pub variation_plies: u64,
    /// The ply of the first move of the main line that was not legal or came after one
    /// that was not.
    pub error_ply: Option<u32>,
    list: MoveList<V::B>,
}

impl<V: Spec> std::fmt::Debug for Watch<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("hits", &self.hits)
            .field("searched", &self.searched)
            .finish_non_exhaustive()
    }
}

impl<V: Spec> Watch<V> {
    /// A watch of query `c`; `variations`: look inside them too; `all`: every occurrence,
    /// not only the first of each form.
    pub(crate) fn new(c: Arc<Compiled<V>>, variations: bool, all: bool) -> Watch<V> {
        Watch {
            c,
            variations,
            all,
            hits: Vec::new(),
            main_found: [false; 2],
            side_found: [false; 2],
            moves_ok: true,
            moves_reached: false,
            start: None,
            searched: 0,
            variation_plies: 0,
            error_ply: None,
            list: MoveList::new(),
        }
    }

    fn opening(&self) -> Option<&[MoveKey<V::B>]> {
        self.c.moves.as_deref()
    }

    /// True if the query asks only for the opening moves.
    fn moves_only(&self) -> bool {
        !self.c.positional && !self.c.manoeuvre
    }

    /// The game starts from `pos`.
    pub(crate) fn start(&mut self, pos: &Position<V::B>) {
        self.start = Some(*pos);
        if self.opening().is_some() && pos.placement_key() != V::start().placement_key() {
            self.moves_ok = false;
        }
        if !self.c.manoeuvre && !self.moves_only() {
            self.examine(pos, 0, true, None);
        }
    }

    /// A setup replaced the position after `ply` plies.
    pub(crate) fn setup(
        &mut self,
        pos: &Position<V::B>,
        ply: u32,
        main: bool,
        clean: bool,
        at: Option<u32>,
    ) {
        if main
            && let Some(m) = self.opening()
            && (ply as usize) < m.len()
        {
            self.moves_ok = false;
        }
        if clean && (main || self.variations) && !self.c.manoeuvre && !self.moves_only() {
            self.examine(pos, ply, main, at);
        }
    }

    /// A move was played.
    pub(crate) fn step(&mut self, s: &Step<'_, V>) {
        if s.main {
            if !s.sound {
                self.error_ply = Some(self.error_ply.map_or(s.ply, |e| e.min(s.ply)));
            }
            let k = s.ply as usize;
            let opening = match self.c.moves.as_deref() {
                Some(m) if k >= 1 && k <= m.len() => {
                    Some((s.sound && m[k - 1] == move_key(s.mv), k == m.len()))
                }
                _ => None,
            };
            if let Some((ok, last)) = opening {
                self.moves_ok &= ok;
                if last && self.moves_ok {
                    self.moves_reached = true;
                    if self.moves_only() {
                        self.push(s.after, s.ply, true, 0, None, s.at);
                    }
                }
            }
        }
        if !s.sound || !(s.main || self.variations) {
            return;
        }
        if s.main {
            self.searched = s.ply;
        } else {
            self.variation_plies += 1;
        }
        if self.c.manoeuvre {
            for f in 0..self.c.forms.len() {
                if !self.wants(f, s.main) {
                    continue;
                }
                let form = &self.c.forms[f];
                let after = s.after;
                if form.holds(s.before) && form.moves(s.mv, || V::has_capture(after)) {
                    let text = self.move_text(s.before, s.mv);
                    let at = s.at;
                    self.push(s.before, s.ply - 1, s.main, f as u8, Some(text), at);
                }
            }
        } else if !self.moves_only() {
            self.examine(s.after, s.ply, s.main, s.at);
        }
    }

    /// True if nothing more can change the hits of a main line (without `all` and
    /// variations: every form found, or the opening moves missed): the rest of the game
    /// need not be looked at.
    pub(crate) fn done(&self) -> bool {
        if self.all || self.variations {
            return false;
        }
        if self.c.moves.is_some() && !self.moves_ok {
            return true;
        }
        let opening = self.c.moves.is_none() || self.moves_reached;
        opening && self.main_found[..self.c.forms.len()].iter().all(|f| *f)
    }

    /// True if a hit of form `f` on the main line (or not) is still wanted.
    #[inline]
    fn wants(&self, f: usize, main: bool) -> bool {
        self.all || !(self.main_found[f] || (!main && self.side_found[f]))
    }

    fn examine(&mut self, pos: &Position<V::B>, ply: u32, main: bool, at: Option<u32>) {
        for f in 0..self.c.forms.len() {
            if self.wants(f, main) && self.c.forms[f].holds(pos) {
                self.push(pos, ply, main, f as u8, None, at);
            }
        }
    }

    fn push(
        &mut self,
        pos: &Position<V::B>,
        ply: u32,
        main: bool,
        form: u8,
        mv: Option<String>,
        at: Option<u32>,
    ) {
        let f = form as usize;
        if main {
            self.main_found[f] = true;
        } else {
            self.side_found[f] = true;
        }
        self.hits.push(Hit {
            ply,
            main,
            form,
            side: pos.side(),
            fen: V::to_fen(pos),
            mv,
            at,
        });
    }

    /// A legal move in PDN: short, or its full route where the short form is ambiguous.
    fn move_text(&mut self, before: &Position<V::B>, mv: &Move<V::B>) -> String {
        V::legal_moves(before, &mut self.list);
        match self.list.moves().iter().position(|m| m == mv) {
            Some(i) => notation::write_in_list(
                V::geometry(),
                V::numbering(),
                &self.list,
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

    /// The hits, once the game is over: none if the game does not begin with the opening
    /// moves asked; without `all`, the first of each form on the main line, else the first
    /// in a variation.
    pub(crate) fn finish(&mut self) -> Vec<Hit> {
        let mut hits = std::mem::take(&mut self.hits);
        if self.opening().is_some() && !self.moves_reached {
            hits.clear();
        }
        if !self.all {
            let main = self.main_found;
            hits.retain(|h| h.main || !main[h.form as usize]);
            // (Each form has one hit on the main line at most, and one in the variations.)
            hits.sort_by_key(|h| (!h.main, h.ply, h.form));
        }
        hits
    }
}
