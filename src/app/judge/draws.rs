//! Draw rules along a replay: repetition, no-progress counters and the small-material
//! endgame limits of each variant (docs/rules.md, `Rules::draws`).

use std::collections::HashMap;

use crate::rules::{Bits, Color, DrawRule, Geometry, Move, Position, Rules};

/// A placement and the side to move: what a repetition compares.
type Key<B> = (B, B, B, Color);

/// Positions since the last irreversible move beyond which repetitions are counted in a
/// map rather than by a scan of `history` (a long run of king moves would make the scan
/// quadratic).
const SCANNED: usize = 32;

/// A draw rule that was reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reached {
    /// The ply (1-based, main line) after which the game was drawn by rule.
    pub ply: u32,
    /// Which rule, in words.
    pub what: String,
    /// The article.
    pub article: &'static str,
    /// Where the move that reached it is written.
    pub span: Option<crate::syntax::Span>,
}

/// Endgame rules counted at once, at most (more are ignored; no variant has more than three).
const MAX_ENDGAME: usize = 8;

/// Counts what the draw rules need, ply by ply.
#[derive(Debug)]
pub(crate) struct Tracker<B> {
    rules: &'static Rules,
    /// Positions since the last irreversible move (man move or capture), up to
    /// [`SCANNED`] of them; then `counts` takes over.
    history: Vec<Key<B>>,
    /// How often each position since the last irreversible move occurred, once there were
    /// more than [`SCANNED`] (empty until then).
    counts: HashMap<Key<B>, u32>,
    /// Consecutive plies with only king moves and no capture.
    king_only: u32,
    /// For each endgame rule (by its index in `rules.draws`): the plies counted since its
    /// configuration arose, or `None` while the configuration does not hold.
    endgame: [Option<u32>; MAX_ENDGAME],
    /// True if some entry of `endgame` is counting.
    in_endgame: bool,
    /// The long diagonal, if a rule needs it (Russian 7.2.7).
    long_diagonal: B,
    /// The first rule reached.
    pub reached: Option<Reached>,
}

impl<B: Bits> Tracker<B> {
    /// A tracker for a game of these rules, on this board, starting in `start`.
    pub(crate) fn new(rules: &'static Rules, geometry: &Geometry<B>, start: &Position<B>) -> Self {
        let needs_diagonal = rules.draws.iter().any(|r| {
            matches!(
                r,
                DrawRule::Endgame {
                    long_diagonal: true,
                    ..
                }
            )
        });
        let mut t = Tracker {
            rules,
            history: Vec::with_capacity(SCANNED),
            counts: HashMap::new(),
            king_only: 0,
            endgame: [None; MAX_ENDGAME],
            in_endgame: false,
            long_diagonal: if needs_diagonal {
                geometry.long_diagonal()
            } else {
                B::ZERO
            },
            reached: None,
        };
        t.reset(start);
        t
    }

    /// This tracker made ready for another game of the same rules from `start`, keeping its
    /// buffers (see [`Tracker::new`]).
    pub(crate) fn renew(&mut self, start: &Position<B>) {
        self.reached = None;
        // A game that repeated many positions leaves a large table: not kept.
        if self.counts.capacity() > 4 * SCANNED {
            self.counts = HashMap::new();
        }
        self.reset(start);
    }

    /// Start counting afresh from a position (the start position, a setup in the movetext).
    /// An endgame configuration already on the board counts from here: every ply played
    /// in it counts.
    pub(crate) fn reset(&mut self, pos: &Position<B>) {
        self.history.clear();
        self.counts.clear();
        self.history.push(pos.placement_key());
        self.king_only = 0;
        self.endgame = [None; MAX_ENDGAME];
        self.in_endgame = false;
        self.count_endgames(None, pos);
    }

    /// Account for a move that led to `after`; `ply` is its main-line ply. (Always inlined:
    /// every main-line ply of a replay comes here, most of them for the few lines below.)
    #[inline(always)]
    pub(crate) fn record(&mut self, m: &Move<B>, after: &Position<B>, ply: u32) {
        if self.rules.draws.is_empty() {
            return;
        }
        // The commonest ply, checked here: an irreversible move (a man move or a capture)
        // outside the endgames, after which every counter starts again and no rule can be
        // reached.
        if (!m.by_king() || m.is_capture()) && self.restarts_at(after) {
            self.restart(after);
            return;
        }
        self.record_in(m, after, ply);
    }

    /// What [`Self::record`] does for an irreversible move after which
    /// [`Self::restarts_at`] holds: the counts start again from `after`.
    #[inline(always)]
    pub(crate) fn restart(&mut self, after: &Position<B>) {
        self.king_only = 0;
        self.history.clear();
        if !self.counts.is_empty() {
            self.counts.clear();
        }
        self.history.push(after.placement_key());
    }

    /// True if [`Self::record`] of an irreversible move (a man's move or a capture) that led
    /// to `after` only starts the counts again from `after`, what it does for most plies: what
    /// the tracker holds then does not depend on what it held before, so of a run of such
    /// moves only the last needs recording (the replay's fast lane).
    #[inline(always)]
    pub(crate) fn restarts_at(&self, after: &Position<B>) -> bool {
        !self.in_endgame && !lone_side(after)
    }

    /// [`Self::record`] for the other plies.
    #[inline(never)]
    fn record_in(&mut self, m: &Move<B>, after: &Position<B>, ply: u32) {
        if self.reached.is_some() {
            // Only the first rule reached is reported: nothing more to count.
            return;
        }
        let reversible = m.by_king() && !m.is_capture();
        if reversible {
            self.king_only += 1;
        } else {
            self.king_only = 0;
            self.history.clear();
            self.counts.clear();
        }
        let key = after.placement_key();
        // After an irreversible move no earlier position can come back.
        let seen = if !reversible {
            self.history.push(key);
            1
        } else if self.counts.is_empty() && self.history.len() < SCANNED {
            let seen = self.history.iter().filter(|k| **k == key).count() as u32 + 1;
            self.history.push(key);
            seen
        } else {
            if self.counts.is_empty() {
                for k in self.history.drain(..) {
                    *self.counts.entry(k).or_insert(0) += 1;
                }
            }
            let n = self.counts.entry(key).or_insert(0);
            *n += 1;
            *n
        };
        self.count_endgames(Some(m), after);
        // After an irreversible move outside the endgame no rule can be reached: every
        // counter starts again.
        if self.reached.is_some() || (!reversible && !self.in_endgame) {
            return;
        }
        for (i, rule) in self.rules.draws.iter().enumerate() {
            let hit = match *rule {
                DrawRule::Repetition { n, article } => (seen >= n as u32).then(|| {
                    (
                        format!("the same position occurred for the {} time", ordinal(seen)),
                        article,
                    )
                }),
                DrawRule::KingMovesOnly { plies, article } => (self.king_only >= plies as u32)
                    .then(|| {
                        (
                            format!(
                                "{} moves each with only kings moved and nothing captured",
                                plies / 2
                            ),
                            article,
                        )
                    }),
                DrawRule::NoCaptureNoManMove { plies, article } => (self.king_only >= plies as u32)
                    .then(|| {
                        (
                            format!("{} moves each without a capture or a man move", plies / 2),
                            article,
                        )
                    }),
                DrawRule::Endgame {
                    plies,
                    long_diagonal,
                    article,
                    ..
                } => match self.endgame.get(i) {
                    Some(Some(n)) if *n >= plies as u32 => Some((
                        format!(
                            "a lone king{} against {} for {} move{} each",
                            if long_diagonal {
                                " on the long diagonal"
                            } else {
                                ""
                            },
                            strong_material(signature(after)),
                            plies / 2,
                            if plies / 2 == 1 { "" } else { "s" }
                        ),
                        article,
                    )),
                    _ => None,
                },
            };
            if let Some((what, article)) = hit {
                self.reached = Some(Reached {
                    ply,
                    what,
                    article,
                    span: None,
                });
                return;
            }
        }
    }

    /// Advance the count of every endgame rule after the move `m` that led to `after`
    /// (`None`: start counting in `after`).
    #[inline]
    fn count_endgames(&mut self, m: Option<&Move<B>>, after: &Position<B>) {
        // The endgame rules all concern a lone king: a side with a single piece. Nearly
        // every ply of a game has neither, and nothing is counting.
        let lone = lone_side(after);
        if lone || self.in_endgame {
            self.count_endgames_in(lone, m, after);
        }
    }

    /// [`Self::count_endgames`] where a side has a single piece or a rule is counting.
    #[inline(never)]
    fn count_endgames_in(&mut self, lone: bool, m: Option<&Move<B>>, after: &Position<B>) {
        let sig = signature(after);
        let mut counting = false;
        for (i, rule) in self.rules.draws.iter().enumerate() {
            let DrawRule::Endgame {
                strong_min,
                strong_max,
                kings_only,
                long_diagonal,
                capture_restarts,
                ..
            } = *rule
            else {
                continue;
            };
            let Some(slot) = self.endgame.get_mut(i) else {
                continue;
            };
            *slot = if lone && lone_king_against(sig, strong_min, strong_max, kings_only) {
                let counts = !long_diagonal || alone_on(after, self.long_diagonal);
                let restart = capture_restarts && m.is_some_and(|m| m.is_capture());
                match *slot {
                    Some(n) if !restart => Some(n + counts as u32),
                    // The ply that creates the configuration is not counted.
                    _ => Some(0),
                }
            } else {
                None
            };
            counting |= slot.is_some();
        }
        self.in_endgame = counting;
    }
}

/// True if a side has a single piece (what every endgame rule is about).
#[inline(always)]
fn lone_side<B: Bits>(pos: &Position<B>) -> bool {
    pos.pieces(Color::White).single() || pos.pieces(Color::Black).single()
}

/// (white men, white kings, black men, black kings).
fn signature<B: Bits>(p: &Position<B>) -> (u32, u32, u32, u32) {
    (
        p.men_of(Color::White).count(),
        p.kings_of(Color::White).count(),
        p.men_of(Color::Black).count(),
        p.kings_of(Color::Black).count(),
    )
}

/// One side has a lone king, the other `min..=max` pieces with at least one king (only
/// kings if `kings_only`).
fn lone_king_against(s: (u32, u32, u32, u32), min: u8, max: u8, kings_only: bool) -> bool {
    let (wm, wk, bm, bk) = s;
    let strong = |m: u32, k: u32| {
        k >= 1 && (!kings_only || m == 0) && (min as u32..=max as u32).contains(&(m + k))
    };
    (wm == 0 && wk == 1 && strong(bm, bk)) || (bm == 0 && bk == 1 && strong(wm, wk))
}

/// The lone king stands on `line` and no other piece does.
fn alone_on<B: Bits>(p: &Position<B>, line: B) -> bool {
    let on = p.occupied() & line;
    if !on.single() {
        return false;
    }
    let sq = on.lowest();
    p.piece_at(sq).is_some_and(|piece| {
        piece.role == crate::rules::Role::King && p.pieces(piece.color).single()
    })
}

/// The pieces of the side against the lone king, in words ("2 kings and a man").
fn strong_material(s: (u32, u32, u32, u32)) -> String {
    let (wm, wk, bm, bk) = s;
    let (m, k) = if wm + wk == 1 && bm + bk > 1 {
        (bm, bk)
    } else if bm + bk == 1 && wm + wk > 1 {
        (wm, wk)
    } else {
        // King against king.
        (0, 1)
    };
    let count = |n: u32, one: &str, many: &str| match n {
        1 => format!("a {one}"),
        n => format!("{n} {many}"),
    };
    match (k, m) {
        (k, 0) => count(k, "king", "kings"),
        (k, m) => format!(
            "{} and {}",
            count(k, "king", "kings"),
            count(m, "man", "men")
        ),
    }
}

fn ordinal(n: u32) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        4 => "fourth".into(),
        n => format!("{n}th"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_king_configurations() {
        assert!(lone_king_against((0, 1, 2, 1), 3, 3, false));
        assert!(!lone_king_against((0, 1, 3, 0), 3, 3, false)); // no king on the strong side
        assert!(lone_king_against((1, 1, 0, 1), 1, 2, false));
        assert!(!lone_king_against((1, 1, 0, 2), 1, 2, false));
        // Kings only: three kings, or more; not two kings and a man.
        assert!(lone_king_against((0, 3, 0, 1), 3, u8::MAX, true));
        assert!(lone_king_against((0, 1, 0, 5), 3, u8::MAX, true));
        assert!(!lone_king_against((1, 2, 0, 1), 3, u8::MAX, true));
        assert!(!lone_king_against((1, 1, 0, 1), 2, 2, true));
    }

    #[test]
    fn strong_material_in_words() {
        assert_eq!(strong_material((0, 1, 1, 2)), "2 kings and a man");
        assert_eq!(strong_material((2, 1, 0, 1)), "a king and 2 men");
        assert_eq!(strong_material((0, 1, 0, 1)), "a king");
        assert_eq!(strong_material((0, 3, 0, 1)), "3 kings");
    }
}
