//! Draw rules along a replay: repetition, no-progress counters and the small-material
//! endgame limits of each variant (RULES.md §3, `Rules::draws`).

use crate::rules::{Bits, Color, DrawRule, Move, Position, Rules};

/// A draw rule that was reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reached {
    /// The ply (1-based, main line) after which the game was drawn by rule.
    pub ply: u32,
    /// Which rule, in words.
    pub what: String,
    /// The article.
    pub article: &'static str,
    /// Where the move that reached it is written.
    pub span: Option<crate::syntax::Span>,
}

/// Counts what the draw rules need, ply by ply.
#[derive(Debug)]
pub struct Tracker<B> {
    rules: &'static Rules,
    /// Positions since the last irreversible move (man move or capture).
    history: Vec<(B, B, B, Color)>,
    /// Consecutive plies with only king moves and no capture.
    king_only: u32,
    /// Plies since the current endgame configuration arose (and its signature).
    endgame: Option<((u32, u32, u32, u32), u32)>,
    /// The first rule reached.
    pub reached: Option<Reached>,
}

impl<B: Bits> Tracker<B> {
    /// A tracker for a game of these rules starting in `start`.
    pub fn new(rules: &'static Rules, start: &Position<B>) -> Self {
        let mut t = Tracker {
            rules,
            history: Vec::with_capacity(64),
            king_only: 0,
            endgame: None,
            reached: None,
        };
        t.reset(start);
        t
    }

    /// Start counting afresh from a position (a setup in the movetext).
    pub fn reset(&mut self, pos: &Position<B>) {
        self.history.clear();
        self.history.push(pos.placement_key());
        self.king_only = 0;
        self.endgame = None;
    }

    /// Account for a move that led to `after`; `ply` is its main-line ply.
    pub fn record(&mut self, m: &Move<B>, after: &Position<B>, ply: u32) {
        if self.rules.draws.is_empty() {
            return;
        }
        let reversible = m.by_king() && !m.is_capture();
        if reversible {
            self.king_only += 1;
        } else {
            self.king_only = 0;
            self.history.clear();
        }
        let key = after.placement_key();
        // After an irreversible move no earlier position can come back.
        let seen = if reversible {
            self.history.iter().filter(|k| **k == key).count() as u32 + 1
        } else {
            1
        };
        self.history.push(key);
        // The endgame rules all concern a lone king: count only when a side has one piece.
        self.endgame =
            if after.pieces(Color::White).count() == 1 || after.pieces(Color::Black).count() == 1 {
                let sig = signature(after);
                match self.endgame {
                    Some((s, n)) if s == sig => Some((s, n + 1)),
                    _ => Some((sig, 0)),
                }
            } else {
                None
            };
        // After an irreversible move outside the endgame no rule can be reached: every
        // counter starts again.
        if self.reached.is_some() || (!reversible && self.endgame.is_none()) {
            return;
        }
        for rule in self.rules.draws {
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
                    strong_min,
                    strong_max,
                    plies,
                    article,
                } => match self.endgame {
                    Some((s, n))
                        if lone_king_against(s, strong_min, strong_max) && n >= plies as u32 =>
                    {
                        Some((
                            format!(
                                "a lone king against {} pieces for {} moves each",
                                s.0.max(s.2) + s.1.max(s.3),
                                plies / 2
                            ),
                            article,
                        ))
                    }
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

/// One side has a lone king, the other `min..=max` pieces with at least one king.
fn lone_king_against(s: (u32, u32, u32, u32), min: u8, max: u8) -> bool {
    let (wm, wk, bm, bk) = s;
    let strong = |m: u32, k: u32| k >= 1 && (min as u32..=max as u32).contains(&(m + k));
    (wm == 0 && wk == 1 && strong(bm, bk)) || (bm == 0 && bk == 1 && strong(wm, wk))
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
        assert!(lone_king_against((0, 1, 2, 1), 3, 3));
        assert!(!lone_king_against((0, 1, 3, 0), 3, 3)); // no king on the strong side
        assert!(lone_king_against((1, 1, 0, 1), 1, 2));
        assert!(!lone_king_against((1, 1, 0, 2), 1, 2));
    }
}
