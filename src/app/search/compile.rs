//! A [`Query`] put on the board of one variant: square names resolved to the engine's bits,
//! FENs to bit sets, the opening moves to the engine's moves, and, with `--mirror`, the
//! colour-reversed form beside the original (board turned round, colours and side to move
//! swapped). [`Compiled`] answers for one position or one move in a few bit operations.

use crate::rules::fen::{Setup, SquareName};
use crate::rules::{Bits, Color, MAX_BITS, Move, Position, Role, Spec, VariantPosition};
use crate::syntax::read_games;

use super::query::{Count, Query, QueryError};
use crate::app::judge::replay::{Observer, Played, PlyEvent};
use crate::app::judge::validate::{self, Options};

/// A manoeuvre on a board.
#[derive(Clone, Debug)]
pub(crate) struct Man<B> {
    role: Option<Role>,
    from: B,
    to: B,
    captures: Count,
    promotion: bool,
    sacrifice: bool,
}

/// One form of a query (the original, or the colour-reversed one) on a board.
#[derive(Clone, Debug)]
pub(crate) struct Form<B> {
    side: Option<Color>,
    /// White's pieces, Black's, the kings.
    exact: Option<(B, B, B)>,
    /// White men, white kings, black men, black kings that must stand, and that may not.
    have: [B; 4],
    not: [B; 4],
    empty: B,
    material: Option<[Count; 6]>,
    man: Option<Man<B>>,
}

impl<B: Bits> Form<B> {
    /// True if the position holds every position part of the form.
    #[inline]
    pub(crate) fn holds(&self, p: &Position<B>) -> bool {
        if let Some(s) = self.side
            && p.side() != s
        {
            return false;
        }
        let (w, b, k) = (p.pieces(Color::White), p.pieces(Color::Black), p.kings());
        if let Some(e) = self.exact
            && e != (w, b, k)
        {
            return false;
        }
        let sets = [w & !k, w & k, b & !k, b & k];
        for ((set, have), not) in sets.iter().zip(self.have).zip(self.not) {
            if (*set & have) != have || (*set & not).any() {
                return false;
            }
        }
        if ((w | b) & self.empty).any() {
            return false;
        }
        if let Some(m) = &self.material {
            let n = [
                sets[0].count(),
                sets[1].count(),
                sets[2].count(),
                sets[3].count(),
                w.count(),
                b.count(),
            ];
            if !m.iter().zip(n).all(|(c, n)| c.holds(n)) {
                return false;
            }
        }
        true
    }

    /// True if the move (played from a position the form holds) is the manoeuvre;
    /// `must_capture` tells whether the opponent must capture after it (asked only for a
    /// sacrifice).
    #[inline]
    pub(crate) fn moves(&self, m: &Move<B>, must_capture: impl FnOnce() -> bool) -> bool {
        let Some(man) = &self.man else { return true };
        if let Some(r) = man.role
            && (r == Role::King) != m.by_king()
        {
            return false;
        }
        man.from.has(m.from as u32)
            && man.to.has(m.to as u32)
            && man.captures.holds(m.num_captured())
            && (!man.promotion || m.promotes())
            && (!man.sacrifice || must_capture())
    }

    /// The colour-reversed form: every square turned round (`rotate`), colours swapped.
    fn mirrored(&self, rotate: &[u8; MAX_BITS]) -> Form<B> {
        let r = |set: B| {
            set.iter()
                .fold(B::ZERO, |acc, b| acc | B::bit(rotate[b as usize] as u32))
        };
        let four = |s: [B; 4]| [r(s[2]), r(s[3]), r(s[0]), r(s[1])];
        Form {
            side: self.side.map(Color::other),
            exact: self.exact.map(|(w, b, k)| (r(b), r(w), r(k))),
            have: four(self.have),
            not: four(self.not),
            empty: r(self.empty),
            material: self.material.map(|c| [c[2], c[3], c[0], c[1], c[5], c[4]]),
            man: self.man.as_ref().map(|m| Man {
                from: r(m.from),
                to: r(m.to),
                ..m.clone()
            }),
        }
    }
}

/// A move as the opening moves compare it: start, destination, captured pieces.
pub(crate) type MoveKey<B> = (u8, u8, B);

/// The key of a move.
#[inline]
pub(crate) fn move_key<B: Bits>(m: &Move<B>) -> MoveKey<B> {
    (m.from, m.to, m.captured)
}

/// A query on the board of variant `V`.
#[derive(Debug)]
pub(crate) struct Compiled<V: Spec> {
    /// The original form, then the colour-reversed one with `--mirror`.
    pub forms: Vec<Form<V::B>>,
    /// The opening moves (from the variant's start position).
    pub moves: Option<Vec<MoveKey<V::B>>>,
    /// The position after them.
    pub moves_end: Option<Position<V::B>>,
    /// The query asks something of a position.
    pub positional: bool,
    /// The query asks something of a move.
    pub manoeuvre: bool,
}

/// For every bit of the board, the bit of the square turned round (180°).
pub(crate) fn rotation<V: Spec>() -> [u8; MAX_BITS] {
    let geo = V::geometry();
    let (w, h) = (i32::from(geo.width()), i32::from(geo.height()));
    let mut out = [0u8; MAX_BITS];
    for b in geo.squares() {
        let (r, c) = geo.coord(b);
        let turned = geo
            .at(h - 1 - i32::from(r), w - 1 - i32::from(c))
            .unwrap_or(b);
        out[b as usize] = turned as u8;
    }
    out
}

/// The bits of a list of squares.
fn squares<V: Spec>(names: &[SquareName]) -> Result<V::B, QueryError> {
    let mut set = V::B::ZERO;
    for n in names {
        let bit = n
            .resolve(V::numbering())
            .map_err(|_| QueryError::Square(n.to_string()))?;
        set |= V::B::bit(bit);
    }
    Ok(set)
}

/// The pieces of a FEN on the board: white men, white kings, black men, black kings.
fn pieces<V: Spec>(setup: &Setup, text: &str) -> Result<[V::B; 4], QueryError> {
    let pos = setup
        .position(V::numbering(), V::geometry(), Color::White)
        .map_err(|e| QueryError::Fen {
            fen: text.to_string(),
            error: e,
        })?;
    let k = pos.kings();
    let (w, b) = (pos.pieces(Color::White), pos.pieces(Color::Black));
    Ok([w & !k, w & k, b & !k, b & k])
}

/// A FEN as the user wrote it, for messages (the setup written back).
fn text_of(setup: &Setup) -> String {
    let mut s = String::from(match setup.side {
        Some(c) => c.letter(),
        None => '?',
    });
    for color in Color::ALL {
        s.push(':');
        s.push(color.letter());
        let list: Vec<String> = setup
            .pieces
            .iter()
            .filter(|(_, p)| p.color == color)
            .map(|(n, p)| match p.role {
                Role::King => format!("K{n}"),
                Role::Man => n.to_string(),
            })
            .collect();
        s.push_str(&list.join(","));
    }
    s
}

impl<V: Spec> Compiled<V> {
    /// The query on `V`'s board.
    ///
    /// # Errors
    ///
    /// Why the query does not fit the board (a square off it, a FEN that cannot stand on it,
    /// opening moves that cannot be played).
    pub(crate) fn new(q: &Query) -> Result<Compiled<V>, QueryError> {
        let side = q.side_to_move()?;
        let exact = match &q.position {
            Some(s) => {
                let [wm, wk, bm, bk] = pieces::<V>(s, &text_of(s))?;
                Some((wm | wk, bm | bk, wk | bk))
            }
            None => None,
        };
        let mut have = [V::B::ZERO; 4];
        for s in &q.pieces {
            let p = pieces::<V>(s, &text_of(s))?;
            for i in 0..4 {
                have[i] |= p[i];
            }
        }
        let mut not = [V::B::ZERO; 4];
        for s in &q.not {
            let p = pieces::<V>(s, &text_of(s))?;
            for i in 0..4 {
                not[i] |= p[i];
            }
        }
        let empty = squares::<V>(&q.empty)?;
        let all = V::geometry().mask;
        let m = &q.manoeuvre;
        let man = if m.is_empty() {
            None
        } else {
            Some(Man {
                role: m.piece,
                from: match &m.from {
                    Some(l) => squares::<V>(l)?,
                    None => all,
                },
                to: match &m.to {
                    Some(l) => squares::<V>(l)?,
                    None => all,
                },
                captures: m.captures.unwrap_or(Count::ANY),
                promotion: m.promotion,
                sacrifice: m.sacrifice,
            })
        };
        let form = Form {
            side,
            exact,
            have,
            not,
            empty,
            material: q.material.map(|m| m.counts),
            man,
        };
        let mut forms = vec![form];
        if q.mirror {
            let turned = forms[0].mirrored(&rotation::<V>());
            forms.push(turned);
        }
        let (moves, moves_end) = match &q.moves {
            Some(text) => {
                let (m, end) = opening::<V>(text)?;
                (Some(m), Some(end))
            }
            None => (None, None),
        };
        Ok(Compiled {
            forms,
            moves,
            moves_end,
            positional: q.asks_position(),
            manoeuvre: !q.manoeuvre.is_empty(),
        })
    }
}

impl<V: Spec> Compiled<V> {
    /// The keys of positions that every game the query matches reaches on its main line
    /// (each form's exact position, with either side to move if the form leaves it open;
    /// else the position after the opening moves), or `None` if the query names none.
    pub(crate) fn keys(&self) -> Option<Vec<u64>> {
        let v = super::slot(V::RULES.variant);
        let mut keys = Vec::new();
        for f in &self.forms {
            match (f.exact, &self.moves_end) {
                (Some((w, b, k)), _) => {
                    let sides = match f.side {
                        Some(s) => vec![s],
                        None => Color::ALL.to_vec(),
                    };
                    for s in sides {
                        keys.push(super::hash::key(
                            v,
                            s,
                            w.to_u128(),
                            b.to_u128(),
                            k.to_u128(),
                        ));
                    }
                }
                (None, Some(end)) => {
                    keys.push(super::hash::position_key(V::RULES.variant, end));
                }
                (None, None) => return None,
            }
        }
        keys.sort_unstable();
        keys.dedup();
        Some(keys)
    }
}

/// Opening moves on a board and the position after them.
pub(crate) type Opening<V> = (Vec<MoveKey<<V as Spec>::B>>, Position<<V as Spec>::B>);

/// Collects the moves of a main line.
#[derive(Default)]
struct Moves {
    keys: Vec<(u8, u8, u128)>,
    irregular: bool,
    last: Option<VariantPosition>,
}

impl Observer for Moves {
    fn ply<W: Spec>(&mut self, e: &PlyEvent<'_, W>) {
        if e.main {
            self.keys
                .push((e.mv.from, e.mv.to, e.mv.captured.to_u128()));
            self.irregular |= e.played != Played::Legal;
            self.last = Some(VariantPosition::of::<W>(e.after));
        }
    }
}

/// The opening moves `text` (`32-28 19-23`, move numbers allowed) played from `V`'s start,
/// and the position after them.
pub(crate) fn opening<V: Spec>(text: &str) -> Result<Opening<V>, QueryError> {
    if text.contains(['[', ']', '{', '}', '(', ')', '/', '%', ';']) {
        return Err(QueryError::Moves(format!(
            "`{text}` is not a plain list of moves"
        )));
    }
    let games = read_games(format!("{text} *\n").as_bytes());
    let [game] = games.as_slice() else {
        return Err(QueryError::Moves(format!(
            "`{text}` is not one list of moves"
        )));
    };
    if let Some(e) = game.errors.first() {
        return Err(QueryError::Moves(e.message.clone()));
    }
    let opts = Options {
        variant: Some(V::RULES.variant),
        ..Options::default()
    };
    let mut moves = Moves::default();
    let report = validate::validate_with(game, &opts, &mut moves);
    if let Some(d) = report.first_error() {
        return Err(QueryError::Moves(format!(
            "{} ({})",
            d.message,
            V::RULES.variant.name()
        )));
    }
    let end = moves.last.and_then(|p| p.get::<V>());
    let (false, Some(end)) = (moves.irregular || moves.keys.is_empty(), end) else {
        return Err(QueryError::Moves(format!("`{text}` holds no legal move")));
    };
    let bits = |x: u128| {
        (0..128u32)
            .filter(|i| x >> i & 1 == 1)
            .fold(V::B::ZERO, |acc, i| acc | V::B::bit(i))
    };
    let keys = moves
        .keys
        .into_iter()
        .map(|(f, t, c)| (f, t, bits(c)))
        .collect();
    Ok((keys, end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::spec::{Canadian, English, International, Turkish};
    use crate::rules::{Variant, with_variant};

    use crate::app::search::query::parse_fen;

    /// Turning a board round twice gives it back; a square never maps to itself on the
    /// diagonal boards (an even board has no centre square).
    #[test]
    fn rotation_is_an_involution_on_every_board() {
        for v in Variant::ALL {
            with_variant!(v, V => {
                let r = rotation::<V>();
                for b in V::geometry().squares() {
                    assert_eq!(r[r[b as usize] as usize] as u32, b, "{v:?}");
                    assert_ne!(r[b as usize] as u32, b, "{v:?}");
                }
            });
        }
    }

    /// The mirrored start position is the start position with the other side to move.
    #[test]
    fn the_mirror_of_the_start_is_the_start() {
        fn check<V: Spec>() {
            let start = V::start();
            let q = Query {
                position: Some(parse_fen(&V::to_fen(&start)).expect("fen")),
                mirror: true,
                ..Query::default()
            };
            let c = Compiled::<V>::new(&q).expect("compiles");
            let mut other = start;
            other.set_side(start.side().other());
            assert!(c.forms[0].holds(&start));
            assert!(!c.forms[1].holds(&start));
            assert!(c.forms[1].holds(&other));
        }
        check::<International>();
        check::<English>();
        check::<Canadian>();
        check::<Turkish>();
    }

    #[test]
    fn opening_moves_are_played_or_refused() {
        let (m, _) = opening::<International>("1. 32-28 19-23 2. 28x19 14x23").expect("moves");
        assert_eq!(m.len(), 4);
        assert!(m[2].2.any());
        assert!(opening::<International>("32-29").is_err());
        assert!(opening::<International>("{x} 32-28").is_err());
        assert!(opening::<English>("32-28").is_err());
    }
}
