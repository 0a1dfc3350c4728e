//! Why a recorded move is illegal: the relaxations of the rules tried in turn (the other
//! side to move, captures optional, no precedence, a partial capture, the man already a
//! king), and when none helps, the concrete reason the move is impossible on the board.

use crate::rules::notation::{self, SquareStyle};
use crate::rules::{
    Bits, Color, Dir, Move, Options, Piece, Position, Precedence, Role, Spec, Step,
};

use super::{Code, Illegal, Irregular, Resolver};

/// An illegal move that the board lets its player make all the same (`play`).
fn played<B>(code: Code, rule: &'static str, message: String, play: Irregular<B>) -> Illegal<B> {
    Illegal {
        code,
        message,
        rule,
        play: Some(play),
    }
}

impl<V: Spec> Resolver<V> {
    /// Why the recorded move (`self.bits`) is not legal in `pos`: the first relaxation of
    /// the rules under which it is, else what is wrong with the move itself.
    pub(super) fn diagnose(&mut self, pos: &Position<V::B>) -> Illegal<V::B> {
        if let Some(why) = self.wrong_side(pos) {
            return why;
        }
        if let Some(why) = self.missed_capture(pos) {
            return why;
        }
        if let Some(why) = self.not_preferred(pos) {
            return why;
        }
        if let Some(why) = self.unfinished(pos) {
            return why;
        }
        if let Some(why) = self.premature(pos) {
            return why;
        }
        self.plain_illegal(pos)
    }

    /// The other side's piece: a missing ply, or a move of the wrong colour.
    fn wrong_side(&mut self, pos: &Position<V::B>) -> Option<Illegal<V::B>> {
        let rules = V::RULES;
        let side = pos.side();
        let from = self.bits[0];
        let name = |b: u32| notation::square_name(V::numbering(), b, SquareStyle::Native);
        if let Some(p) = pos.piece_at(from)
            && p.color != side
        {
            let mut other = *pos;
            other.set_side(side.other());
            let play = self
                .relaxed_match(&other, Options::default(), rules)
                .or_else(|| {
                    self.relaxed_match(
                        &other,
                        Options {
                            captures_optional: true,
                            ignore_precedence: true,
                            ..Options::default()
                        },
                        rules,
                    )
                });
            let message = format!(
                "{} is to move, but the {} on {} is {}'s (a ply may be missing)",
                side_name(side),
                role_name(p.role),
                name(from),
                side_name(p.color)
            );
            return Some(Illegal {
                code: Code::WrongSide,
                message,
                rule: rules.articles.irregularity,
                play,
            });
        }
        None
    }

    /// Souffler n'est pas jouer: a quiet move while a capture was compulsory.
    fn missed_capture(&mut self, pos: &Position<V::B>) -> Option<Illegal<V::B>> {
        let rules = V::RULES;
        let side = pos.side();
        let from = self.bits[0];
        let to = *self.bits.last().unwrap_or(&from);
        let name = |b: u32| notation::square_name(V::numbering(), b, SquareStyle::Native);
        let has_capture = V::has_capture(pos);
        let quiet_relax = Options {
            captures_optional: true,
            ..Options::default()
        };
        if has_capture
            && let Some(play) = self.relaxed_match(pos, quiet_relax, rules)
            && !play.mv.is_capture()
        {
            let message = format!(
                "{} played {}-{} while a capture was compulsory ({})",
                side_name(side),
                name(from),
                name(to),
                self.legal_list()
            );
            return Some(played(
                Code::MissedCapture,
                rules.articles.capture_mandatory,
                message,
                play,
            ));
        }
        None
    }

    /// A capture, but not the one the precedence rule demands.
    fn not_preferred(&mut self, pos: &Position<V::B>) -> Option<Illegal<V::B>> {
        let rules = V::RULES;
        if rules.precedence == Precedence::Free {
            return None;
        }
        let free = Options {
            ignore_precedence: true,
            ..Options::default()
        };
        let play = self.relaxed_match(pos, free, rules)?;
        let taken = play.mv.num_captured();
        let message = match rules.precedence {
            Precedence::Quantity => {
                let best = self.legal.moves().first().map_or(0, |m| m.num_captured());
                format!(
                    "this capture takes {taken} piece{}, but {best} must be taken (majority rule)",
                    plural(taken)
                )
            }
            Precedence::KingFirst => {
                "a king can capture, and a king's capture comes first".to_string()
            }
            _ => format!(
                "this capture takes {taken} piece{}; the precedence rule demands another ({})",
                plural(taken),
                self.legal_list()
            ),
        };
        Some(played(
            Code::NonMaximalCapture,
            rules.articles.precedence,
            message,
            play,
        ))
    }

    /// A capture stopped half-way.
    fn unfinished(&mut self, pos: &Position<V::B>) -> Option<Illegal<V::B>> {
        let rules = V::RULES;
        let name = |b: u32| notation::square_name(V::numbering(), b, SquareStyle::Native);
        let partial = Options {
            partial: true,
            ignore_precedence: true,
            ..Options::default()
        };
        if let Some(play) = self.relaxed_match(pos, partial, rules)
            && play.mv.is_capture()
        {
            let message = format!(
                "the capture stops on {} although the piece can capture further",
                name(play.mv.to as u32)
            );
            let rule = rules.articles.capture_complete;
            return Some(played(Code::UnfinishedCapture, rule, message, play));
        }
        None
    }

    /// A man moving as a king: crowned too early.
    fn premature(&mut self, pos: &Position<V::B>) -> Option<Illegal<V::B>> {
        let rules = V::RULES;
        let art = &rules.articles;
        let side = pos.side();
        let from = self.bits[0];
        let name = |b: u32| notation::square_name(V::numbering(), b, SquareStyle::Native);
        if let Some(p) = pos.piece_at(from)
            && p.role == Role::Man
        {
            let as_king = Options {
                men_as_kings: true,
                captures_optional: true,
                ignore_precedence: true,
                ..Options::default()
            };
            let promo = V::geometry().promotion_row(side);
            if let Some(mut play) = self.relaxed_match(pos, as_king, rules)
                && !play.mv.by_king()
                && (self.crossed.has(from)
                    || play.route[..play.route.len().saturating_sub(1)]
                        .iter()
                        .any(|s| promo.has(s.landing as u32)))
            {
                // It moved as a king: let it stay one, as the record treats it.
                let mv = play.mv;
                play.mv = Move::new(mv.from as u32, mv.to as u32, mv.captured, true, false);
                let message = if self.crossed.has(from) {
                    format!(
                        "the man on {} moves as a king, but it only passed the far row during \
                         a capture and was not crowned",
                        name(from)
                    )
                } else {
                    format!(
                        "the man on {} goes on capturing as a king after reaching the far row, \
                         but it is crowned only at the end of its move",
                        name(from)
                    )
                };
                let rule = art.passing_promotion;
                return Some(played(Code::PrematurePromotion, rule, message, play));
            }
            // A man that never reached the far row moving as a king would (a step backward,
            // a flight over empty squares, a capture at a distance): premature promotion when
            // the move is legal for a king on that square under the normal rules (captures
            // compulsory, precedence on). It is played as recorded and stays a man.
            if let Some(mut play) = self.as_crowned(pos, from)
                && !self.man_shaped(pos)
            {
                // Played as recorded, by the man.
                let king_move = play.mv;
                let promotes = V::geometry().promotion_row(side).has(king_move.to as u32);
                play.mv = Move::new(
                    king_move.from as u32,
                    king_move.to as u32,
                    king_move.captured,
                    promotes,
                    false,
                );
                let message = format!(
                    "the man on {} moves as a king without having been crowned",
                    name(from)
                );
                let rule = art.promotion;
                return Some(played(Code::PrematurePromotion, rule, message, play));
            }
        }
        None
    }

    /// The recorded move as a legal move of a king standing on `from` in place of the man
    /// there (the rest of the position and the rules unchanged), with its route.
    fn as_crowned(&mut self, pos: &Position<V::B>, from: u32) -> Option<Irregular<V::B>> {
        let mut crowned = *pos;
        crowned.put(
            from,
            Piece {
                color: pos.side(),
                role: Role::King,
            },
        );
        self.relaxed_match(&crowned, Options::default(), V::RULES)
    }

    /// True if a man could make the recorded move by the way men move and capture, were it
    /// allowed to take kings (Italian men may not): such a move breaks a rule of men and
    /// is no question of promotion.
    fn man_shaped(&mut self, pos: &Position<V::B>) -> bool {
        if V::RULES.men_capture_kings {
            // Every relaxation of the rules of men was tried before.
            return false;
        }
        let rules = crate::rules::Rules {
            men_capture_kings: true,
            ..*V::RULES
        };
        let any = Options {
            captures_optional: true,
            ignore_precedence: true,
            partial: true,
            ..Options::default()
        };
        self.relaxed_match(pos, any, &rules).is_some()
    }

    /// Nothing helps: the concrete reason a move is impossible, and the move as recorded if
    /// the board allows it (own piece on the start square, free destination).
    fn plain_illegal(&mut self, pos: &Position<V::B>) -> Illegal<V::B> {
        let rules = V::RULES;
        let art = &rules.articles;
        let geo = V::geometry();
        let side = pos.side();
        let bits = self.bits.clone();
        let from = bits[0];
        let to = *bits.last().unwrap_or(&from);
        let name = |b: u32| notation::square_name(V::numbering(), b, SquareStyle::Native);
        let Some(piece) = pos.piece_at(from) else {
            return Illegal {
                code: Code::IllegalMove,
                message: format!("there is no piece on {}", name(from)),
                rule: art.man_move,
                play: None,
            };
        };
        let is_king = piece.role == Role::King;
        if from != to && pos.occupied().has(to) {
            return Illegal {
                code: Code::IllegalMove,
                message: format!("{} is occupied", name(to)),
                rule: if is_king { art.king_move } else { art.man_move },
                play: None,
            };
        }
        // The start and destination are those of a legal capture, only the squares in between
        // do not fit: say so rather than explain the straight line.
        let same_ends: Vec<usize> = (0..self.legal.len())
            .filter(|&i| {
                let m = self.legal.moves()[i];
                m.from as u32 == from && m.to as u32 == to && m.is_capture()
            })
            .collect();
        let (message, rule) = if bits.len() > 2 && !same_ends.is_empty() {
            let texts = self.legal_texts();
            let names: Vec<&str> = same_ends.iter().map(|&i| texts[i].as_str()).collect();
            (
                format!(
                    "the squares written between {} and {} are not the route of the capture \
                     between them ({})",
                    name(from),
                    name(to),
                    names.join(", ")
                ),
                if is_king {
                    art.king_capture
                } else {
                    art.man_capture
                },
            )
        } else {
            self.reason(pos, &bits, is_king)
        };
        // The board allows the move as recorded: play it (pieces jumped on the way are
        // taken), so that the rest of the game can still be checked.
        let (captured, route) = recorded_captures::<V>(pos, &bits);
        let promotes = !is_king && geo.promotion_row(side).has(to);
        let mv = Move::new(from, to, captured, promotes, is_king);
        played(
            Code::IllegalMove,
            rule,
            message,
            Irregular { mv, route, side },
        )
    }

    fn reason(&self, pos: &Position<V::B>, bits: &[u32], is_king: bool) -> (String, &'static str) {
        let rules = V::RULES;
        let art = &rules.articles;
        let geo = V::geometry();
        let side = pos.side();
        let from = bits[0];
        let to = bits[bits.len() - 1];
        let name = |b: u32| notation::square_name(V::numbering(), b, SquareStyle::Native);
        let role = if is_king { "king" } else { "man" };
        let Some(d) = geo.direction(from, to) else {
            if bits.len() == 2 {
                return (
                    format!(
                        "{} cannot be reached from {}: not on one line",
                        name(to),
                        name(from)
                    ),
                    if is_king { art.king_move } else { art.man_move },
                );
            }
            return (
                format!("no {role} on {} can capture along this route", name(from)),
                if is_king {
                    art.king_capture
                } else {
                    art.man_capture
                },
            );
        };
        let steps = step_count(geo, from, to, d);
        let between = geo.ray(from, d) & !(geo.ray(to, d) | V::B::bit(to));
        let blockers = between & pos.occupied();
        let own_between = between & pos.pieces(side);
        if blockers.is_empty() {
            return self.free_way(from, to, d, steps, side, is_king);
        }
        if own_between.any() {
            return (
                format!(
                    "the way from {} to {} is blocked by an own piece on {}",
                    name(from),
                    name(to),
                    name(geo.nearest(own_between, d))
                ),
                if is_king { art.king_move } else { art.man_move },
            );
        }
        if blockers.count() > 1 {
            return (
                format!(
                    "{} cannot jump two pieces at once on the way to {}",
                    name(from),
                    name(to)
                ),
                if is_king {
                    art.king_capture
                } else {
                    art.man_capture
                },
            );
        }
        let t = geo.nearest(blockers, d);
        if !is_king && !rules.man_capture_dirs(side).has(d) {
            return (
                format!("a man cannot capture backward in {} draughts", rules.name),
                art.man_capture,
            );
        }
        if !is_king && !rules.men_capture_kings && pos.kings().has(t) {
            return (
                format!("a man cannot capture the king on {}", name(t)),
                art.man_capture,
            );
        }
        if !is_king && steps != 2 {
            return (
                format!(
                    "a man captures by jumping to the square right behind ({})",
                    name(t)
                ),
                art.man_capture,
            );
        }
        (
            format!("{}x{} is not a legal capture here", name(from), name(to)),
            if is_king {
                art.king_capture
            } else {
                art.man_capture
            },
        )
    }

    /// Why a move along a free way (nothing between `from` and `to`, `steps` squares in
    /// direction `d`) is not legal.
    fn free_way(
        &self,
        from: u32,
        to: u32,
        d: Dir,
        steps: u32,
        side: Color,
        is_king: bool,
    ) -> (String, &'static str) {
        let rules = V::RULES;
        let art = &rules.articles;
        let name = |b: u32| notation::square_name(V::numbering(), b, SquareStyle::Native);
        let moves = if is_king {
            rules.king_moves
        } else {
            rules.man_move_dirs(side)
        };
        if !moves.has(d) {
            let what = if !is_king && !rules.man_move_dirs(side).has(d) {
                "a man cannot move backward or sideways"
            } else {
                "a king cannot move in that direction"
            };
            return (
                format!("{}-{}: {what}", name(from), name(to)),
                if is_king { art.king_move } else { art.man_move },
            );
        }
        if !is_king && steps > 1 {
            return (
                format!(
                    "a man moves one square, not {steps} ({}-{})",
                    name(from),
                    name(to)
                ),
                art.man_move,
            );
        }
        if is_king && steps > 1 && rules.king_range == crate::rules::KingRange::Short {
            return (
                format!(
                    "kings move one square in {} draughts ({}-{})",
                    rules.name,
                    name(from),
                    name(to)
                ),
                art.king_move,
            );
        }
        (
            format!("{}-{} is not a legal move here", name(from), name(to)),
            if is_king { art.king_move } else { art.man_move },
        )
    }
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn role_name(r: Role) -> &'static str {
    match r {
        Role::Man => "man",
        Role::King => "king",
    }
}

/// "White" or "Black" (English checkers literature says Black for the side moving first).
fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn step_count<B: Bits>(geo: &crate::rules::Geometry<B>, from: u32, to: u32, d: Dir) -> u32 {
    let mut n = 0;
    let mut at = from;
    while at != to {
        match geo.neighbour(at, d) {
            Some(b) => at = b,
            None => return u32::MAX,
        }
        n += 1;
    }
    n
}

/// The opponent pieces a recorded route jumps over (straight segments between consecutive
/// squares), and the route as steps: what "playing the move as recorded" takes off.
fn recorded_captures<V: Spec>(pos: &Position<V::B>, bits: &[u32]) -> (V::B, Vec<Step>) {
    let geo = V::geometry();
    let theirs = pos.pieces(pos.side().other());
    let mut captured = V::B::ZERO;
    let mut route = Vec::new();
    for w in bits.windows(2) {
        let (a, b) = (w[0], w[1]);
        let Some(d) = geo.direction(a, b) else {
            continue;
        };
        let between = geo.ray(a, d) & !(geo.ray(b, d) | V::B::bit(b));
        let taken = between & theirs & !captured;
        if taken.count() == 1 {
            captured |= taken;
            route.push(Step {
                captured: taken.lowest() as u8,
                landing: b as u8,
            });
        }
    }
    (captured, route)
}
