//! Move resolution: which legal move a recorded move means, and when none does, why not —
//! by asking under which relaxation of the rules it would be legal.

use std::fmt::Write as _;

use crate::rules::fen::{SquareError, SquareName};
use crate::rules::notation::{self, SquareStyle};
use crate::rules::{
    Bits, Color, Dir, Move, MoveList, Options, Piece, Position, Precedence, Role, Spec, Step,
};

/// How a recorded move separates its squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Separator {
    /// `-`.
    #[default]
    Quiet,
    /// `x`, `X`, `:` or `×`.
    Capture,
    /// No separator (`3228`, `a3b4`).
    None,
}

/// A recorded move, reduced to what resolution needs: one or more readings of its squares
/// (several when a numeric move without separator can be split in more than one way).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveSpec {
    /// The possible readings, each the squares in the order written.
    pub readings: Vec<Vec<SquareName>>,
    /// The separator written.
    pub separator: Separator,
}

impl MoveSpec {
    /// A move with one reading.
    pub fn new(squares: Vec<SquareName>, separator: Separator) -> Self {
        MoveSpec {
            readings: vec![squares],
            separator,
        }
    }
}

/// The diagnostic codes of move resolution (DESIGN.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// No legal move matches (the message says why).
    IllegalMove,
    /// A non-capturing move while a capture was mandatory.
    MissedCapture,
    /// A capture taking fewer pieces (or less value) than the precedence rule demands.
    NonMaximalCapture,
    /// A capture that stops where the same piece could go on capturing.
    UnfinishedCapture,
    /// Legal only if a man had already been crowned.
    PrematurePromotion,
    /// The moved piece belongs to the side not to move.
    WrongSide,
    /// The notation matches several legal moves that take different pieces.
    AmbiguousMove,
}

impl Code {
    /// The code as written in diagnostics.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::IllegalMove => "illegal-move",
            Code::MissedCapture => "missed-capture",
            Code::NonMaximalCapture => "non-maximal-capture",
            Code::UnfinishedCapture => "unfinished-capture",
            Code::PrematurePromotion => "premature-promotion",
            Code::WrongSide => "wrong-side",
            Code::AmbiguousMove => "ambiguous-move",
        }
    }
}

/// Non-standard but readable notation met while resolving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quirk {
    /// A capture written with `-`.
    CaptureWithHyphen,
    /// A non-capturing move written with `x`.
    QuietWithCross,
    /// A numeric move without separator, split into squares.
    UndividedMove,
    /// Intermediate squares that name the captured pieces, not landing squares.
    CapturedSquaresListed,
    /// The Hub protocol's order: start, destination, then the captured pieces.
    HubOrder,
}

impl Quirk {
    /// What was tolerated, in words.
    pub fn description(self) -> &'static str {
        match self {
            Quirk::CaptureWithHyphen => "capture written with `-`",
            Quirk::QuietWithCross => "non-capturing move written with `x`",
            Quirk::UndividedMove => "move written without separator",
            Quirk::CapturedSquaresListed => {
                "capture listing the captured pieces instead of its route"
            }
            Quirk::HubOrder => {
                "capture in the Hub protocol's order: start, destination, then the captured pieces"
            }
        }
    }
}

/// A move that is not legal but that the board allows, to be played as recorded (FMJD 5.4:
/// an irregular move may stand).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Irregular<B> {
    /// The move to play.
    pub mv: Move<B>,
    /// Its route.
    pub route: Vec<Step>,
    /// The side that plays it (the other side for `wrong-side`).
    pub side: Color,
}

/// Why a recorded move is not a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Illegal<B> {
    /// The diagnostic code.
    pub code: Code,
    /// What is wrong, in words.
    pub message: String,
    /// The rule broken (article).
    pub rule: &'static str,
    /// The move as the board allows it to be played, if it can be.
    pub play: Option<Irregular<B>>,
}

/// The outcome of resolving a recorded move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution<B> {
    /// The legal move at this index of [`Resolver::legal`].
    Legal {
        /// Index in the legal move list.
        index: usize,
        /// Non-standard notation that was read anyway.
        quirk: Option<Quirk>,
    },
    /// Several legal moves taking different pieces match; indices in the legal list.
    Ambiguous(Vec<usize>),
    /// No legal move matches.
    Illegal(Illegal<B>),
}

/// Resolves recorded moves against the legal moves of positions of variant `V`, reusing its
/// move lists from ply to ply.
#[derive(Debug)]
pub struct Resolver<V: Spec> {
    legal: MoveList<V::B>,
    routes: MoveList<V::B>,
    relaxed: MoveList<V::B>,
    bits: Vec<u32>,
    found: Vec<usize>,
    /// Men of the side to move that passed their far row during a capture earlier in the
    /// game (and stayed men): moving them as kings is a premature promotion.
    pub crossed: V::B,
}

impl<V: Spec> Default for Resolver<V> {
    fn default() -> Self {
        Self::new()
    }
}

/// A recorded square list converted to internal bits.
enum Squares {
    Bits,
    Bad(String),
}

impl<V: Spec> Resolver<V> {
    /// A resolver.
    pub fn new() -> Self {
        Resolver {
            legal: MoveList::new(),
            routes: MoveList::new(),
            relaxed: MoveList::new(),
            bits: Vec::with_capacity(16),
            found: Vec::with_capacity(8),
            crossed: V::B::ZERO,
        }
    }

    /// The legal moves of the last position resolved against.
    pub fn legal(&self) -> &MoveList<V::B> {
        &self.legal
    }

    /// Generate the legal moves of `pos` (also done by [`Resolver::resolve`]).
    pub fn set_position(&mut self, pos: &Position<V::B>) {
        V::legal_moves(pos, &mut self.legal);
    }

    /// The legal moves written in PDN (short, full where ambiguous), for diagnostics.
    pub fn legal_texts(&self) -> Vec<String> {
        (0..self.legal.len())
            .map(|i| {
                notation::write_in_list(
                    V::geometry(),
                    V::numbering(),
                    &self.legal,
                    i,
                    SquareStyle::Native,
                    V::RULES.capture_separator,
                )
            })
            .collect()
    }

    fn load_bits(&mut self, squares: &[SquareName]) -> Squares {
        self.bits.clear();
        for s in squares {
            match s.resolve(V::numbering()) {
                Ok(b) => self.bits.push(b),
                Err(SquareError::OffBoard(n)) => {
                    return Squares::Bad(format!(
                        "square {s} is not on the board (squares 1-{n} on this {}x{} board)",
                        V::geometry().width(),
                        V::geometry().height()
                    ));
                }
                Err(SquareError::NotPlaying) => {
                    return Squares::Bad(format!("square {s} is not a playing square"));
                }
            }
        }
        Squares::Bits
    }

    /// Resolve a recorded move in `pos` (whose legal moves are generated here).
    pub fn resolve(&mut self, pos: &Position<V::B>, spec: &MoveSpec) -> Resolution<V::B> {
        self.set_position(pos);
        self.resolve_prepared(pos, spec)
    }

    /// The legal move a recorded move means in `pos`, if exactly one (no diagnosis: for
    /// quick questions such as "is this parenthesised move a reply?").
    pub fn legal_index(&mut self, pos: &Position<V::B>, spec: &MoveSpec) -> Option<usize> {
        self.set_position(pos);
        self.found.clear();
        for reading in &spec.readings {
            if let Squares::Bits = self.load_bits(reading)
                && self.bits.len() >= 2
            {
                let _ = self.find_legal(pos);
            }
        }
        let first = *self.found.first()?;
        let m = self.legal.moves()[first];
        self.found
            .iter()
            .all(|&i| same_move(&self.legal.moves()[i], &m))
            .then_some(first)
    }

    /// Resolve against the legal moves already generated for `pos` by
    /// [`Resolver::set_position`].
    pub fn resolve_prepared(&mut self, pos: &Position<V::B>, spec: &MoveSpec) -> Resolution<V::B> {
        let mut bad = None;
        let mut quirk = None;
        self.found.clear();
        for reading in &spec.readings {
            match self.load_bits(reading) {
                Squares::Bad(m) => {
                    bad.get_or_insert(m);
                    continue;
                }
                Squares::Bits => {}
            }
            if self.bits.len() < 2 {
                bad.get_or_insert_with(|| "a move needs at least two squares".to_string());
                continue;
            }
            quirk = quirk.or(self.find_legal(pos));
        }
        if !self.found.is_empty() {
            self.found.sort_unstable();
            self.found.dedup();
            let first = self.legal.moves()[self.found[0]];
            // Moves taking the same pieces between the same squares are one move.
            if self
                .found
                .iter()
                .all(|&i| same_move(&self.legal.moves()[i], &first))
            {
                let undivided = spec.separator == Separator::None
                    && spec.readings[0]
                        .iter()
                        .all(|s| matches!(s, SquareName::Number(_)));
                let quirk = quirk
                    .or(undivided.then_some(Quirk::UndividedMove))
                    .or_else(|| separator_quirk::<V>(spec.separator, &first));
                return Resolution::Legal {
                    index: self.found[0],
                    quirk,
                };
            }
            return Resolution::Ambiguous(self.found.clone());
        }
        if let Some(m) = bad {
            return Resolution::Illegal(Illegal {
                code: Code::IllegalMove,
                message: m,
                rule: V::RULES.articles.book,
                play: None,
            });
        }
        // No reading is legal: find out why, reading by reading, keeping the first answer.
        let mut best: Option<Illegal<V::B>> = None;
        for reading in &spec.readings {
            if let Squares::Bad(_) = self.load_bits(reading) {
                continue;
            }
            if self.bits.len() < 2 {
                continue;
            }
            let why = self.diagnose(pos);
            if best
                .as_ref()
                .is_none_or(|b| b.code == Code::IllegalMove && why.code != Code::IllegalMove)
            {
                best = Some(why);
            }
        }
        Resolution::Illegal(best.unwrap_or_else(|| Illegal {
            code: Code::IllegalMove,
            message: "the move has no squares".to_string(),
            rule: V::RULES.articles.book,
            play: None,
        }))
    }

    /// Add the indices of the legal moves matching `self.bits` to `self.found`; a notation
    /// quirk if the match needed one.
    fn find_legal(&mut self, pos: &Position<V::B>) -> Option<Quirk> {
        let before = self.found.len();
        matches_into::<V::B>(&self.legal, &self.bits, &mut self.found);
        if self.found.len() > before || self.bits.len() == 2 {
            return None;
        }
        // Intermediate squares: compare with every route of the candidate moves.
        V::relaxed_moves(pos, V::RULES, every_route(), &mut self.routes);
        let mut via_routes = Vec::new();
        matches_into::<V::B>(&self.routes, &self.bits, &mut via_routes);
        for r in via_routes {
            let m = self.routes.moves()[r];
            if let Some(i) = self.legal.moves().iter().position(|l| same_move(l, &m)) {
                self.found.push(i);
            }
        }
        if self.found.len() > before {
            return None;
        }
        // The intermediate squares are the captured pieces.
        self.found
            .extend(captured_listed::<V::B>(&self.legal, &self.bits));
        if self.found.len() > before {
            return Some(Quirk::CapturedSquaresListed);
        }
        // Hub protocol order: start, destination, then every captured piece.
        self.found
            .extend(hub_order::<V::B>(&self.legal, &self.bits));
        (self.found.len() > before).then_some(Quirk::HubOrder)
    }

    /// Moves of a relaxed generator matching `self.bits` (any route).
    fn relaxed_match(
        &mut self,
        pos: &Position<V::B>,
        options: Options,
        rules: &crate::rules::Rules,
    ) -> Option<(Move<V::B>, Vec<Step>)> {
        V::relaxed_moves(
            pos,
            rules,
            Options {
                keep_duplicates: self.bits.len() > 2,
                every_landing: self.bits.len() > 2,
                ..options
            },
            &mut self.relaxed,
        );
        let mut found = Vec::new();
        matches_into::<V::B>(&self.relaxed, &self.bits, &mut found);
        if found.is_empty() && self.bits.len() > 2 {
            found = captured_listed::<V::B>(&self.relaxed, &self.bits);
        }
        if found.is_empty() && self.bits.len() > 2 {
            found = hub_order::<V::B>(&self.relaxed, &self.bits);
        }
        let i = *found.first()?;
        Some((self.relaxed.moves()[i], self.relaxed.path(i).to_vec()))
    }

    fn diagnose(&mut self, pos: &Position<V::B>) -> Illegal<V::B> {
        let rules = V::RULES;
        let art = &rules.articles;
        let side = pos.side();
        let from = self.bits[0];
        let to = *self.bits.last().unwrap_or(&from);
        let name = |b: u32| notation::square_name(V::numbering(), b, SquareStyle::Native);
        let piece = pos.piece_at(from);

        // The other side's piece: a missing ply, or a move of the wrong colour.
        if let Some(p) = piece
            && p.color != side
        {
            let mut other = *pos;
            other.set_side(side.other());
            let found = self
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
            return Illegal {
                code: Code::WrongSide,
                message,
                rule: art.irregularity,
                play: found.map(|(mv, route)| Irregular {
                    mv,
                    route,
                    side: side.other(),
                }),
            };
        }

        let has_capture = V::has_capture(pos);
        let quiet_relax = Options {
            captures_optional: true,
            ..Options::default()
        };
        // Souffler n'est pas jouer: a quiet move while a capture was compulsory.
        if has_capture
            && let Some((mv, route)) = self.relaxed_match(pos, quiet_relax, rules)
            && !mv.is_capture()
        {
            let legal = self.legal_texts();
            return Illegal {
                code: Code::MissedCapture,
                message: format!(
                    "{} played {}-{} while a capture was compulsory ({})",
                    side_name(side),
                    name(from),
                    name(to),
                    legal.join(", ")
                ),
                rule: art.capture_mandatory,
                play: Some(Irregular { mv, route, side }),
            };
        }
        // A capture, but not the one the precedence rule demands.
        if rules.precedence != Precedence::Free {
            let free = Options {
                ignore_precedence: true,
                ..Options::default()
            };
            if let Some((mv, route)) = self.relaxed_match(pos, free, rules) {
                let best = self.legal.moves().first().map_or(0, |m| m.num_captured());
                let message = match rules.precedence {
                    Precedence::Quantity => format!(
                        "this capture takes {} piece{}, but {} must be taken (majority rule)",
                        mv.num_captured(),
                        plural(mv.num_captured()),
                        best
                    ),
                    Precedence::KingFirst => {
                        "a king can capture, and a king's capture comes first".to_string()
                    }
                    _ => format!(
                        "this capture takes {} piece{}; the precedence rule demands another ({})",
                        mv.num_captured(),
                        plural(mv.num_captured()),
                        self.legal_texts().join(", ")
                    ),
                };
                return Illegal {
                    code: Code::NonMaximalCapture,
                    message,
                    rule: art.precedence,
                    play: Some(Irregular { mv, route, side }),
                };
            }
        }
        // A capture stopped half-way.
        let partial = Options {
            partial: true,
            ignore_precedence: true,
            ..Options::default()
        };
        if let Some((mv, route)) = self.relaxed_match(pos, partial, rules)
            && mv.is_capture()
        {
            return Illegal {
                code: Code::UnfinishedCapture,
                message: format!(
                    "the capture stops on {} although the piece can capture further",
                    name(mv.to as u32)
                ),
                rule: art.capture_complete,
                play: Some(Irregular { mv, route, side }),
            };
        }
        // A man moving as a king.
        if let Some(p) = piece
            && p.role == Role::Man
        {
            let as_king = Options {
                men_as_kings: true,
                captures_optional: true,
                ignore_precedence: true,
                ..Options::default()
            };
            let promo = V::geometry().promotion_row(side);
            if let Some((mut mv, route)) = self.relaxed_match(pos, as_king, rules)
                && !mv.by_king()
                && (self.crossed.has(from)
                    || route[..route.len().saturating_sub(1)]
                        .iter()
                        .any(|s| promo.has(s.landing as u32)))
            {
                // It moved as a king: let it stay one, as the record treats it.
                mv = Move::new(mv.from as u32, mv.to as u32, mv.captured, true, false);
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
                return Illegal {
                    code: Code::PrematurePromotion,
                    message,
                    rule: art.passing_promotion,
                    play: Some(Irregular { mv, route, side }),
                };
            }
            // A man that never reached the far row moving as a king would (a step backward,
            // a flight over empty squares, a capture at a distance): premature promotion when
            // the move is legal for a king on that square under the normal rules (captures
            // compulsory, precedence on). It is played as recorded and stays a man.
            if let Some((king_move, route)) = self.as_crowned(pos, from)
                && !self.man_shaped(pos)
            {
                let promotes = V::geometry().promotion_row(side).has(king_move.to as u32);
                let mv = Move::new(
                    king_move.from as u32,
                    king_move.to as u32,
                    king_move.captured,
                    promotes,
                    false,
                );
                return Illegal {
                    code: Code::PrematurePromotion,
                    message: format!(
                        "the man on {} moves as a king without having been crowned",
                        name(from)
                    ),
                    rule: art.promotion,
                    play: Some(Irregular { mv, route, side }),
                };
            }
        }
        // Nothing helps: say what is wrong with the move itself.
        self.plain_illegal(pos)
    }

    /// The recorded move as a legal move of a king standing on `from` in place of the man
    /// there (the rest of the position and the rules unchanged), with its route.
    fn as_crowned(&mut self, pos: &Position<V::B>, from: u32) -> Option<(Move<V::B>, Vec<Step>)> {
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

    /// The concrete reason a move is impossible, and the move as recorded if the board
    /// allows it (own piece on the start square, free destination).
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
        Illegal {
            code: Code::IllegalMove,
            message,
            rule,
            play: Some(Irregular { mv, route, side }),
        }
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
        let moves = if is_king {
            rules.king_moves
        } else {
            rules.man_move_dirs(side)
        };
        if blockers.is_empty() {
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
            return (
                format!("{}-{} is not a legal move here", name(from), name(to)),
                if is_king { art.king_move } else { art.man_move },
            );
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

fn every_route() -> Options {
    Options {
        keep_duplicates: true,
        every_landing: true,
        ..Options::default()
    }
}

/// The same move: same squares and captured pieces.
fn same_move<B: Bits>(a: &Move<B>, b: &Move<B>) -> bool {
    a.from == b.from && a.to == b.to && a.captured == b.captured
}

fn separator_quirk<V: Spec>(sep: Separator, m: &Move<V::B>) -> Option<Quirk> {
    match sep {
        Separator::Quiet if m.is_capture() && V::RULES.capture_separator != '-' => {
            Some(Quirk::CaptureWithHyphen)
        }
        Separator::Capture if !m.is_capture() => Some(Quirk::QuietWithCross),
        _ => None,
    }
}

/// Add to `out` the indices of the moves of `list` whose start and destination are the first
/// and last of `bits` and whose route passes the intermediate squares, in order, as landing
/// squares.
fn matches_into<B: Bits>(list: &MoveList<B>, bits: &[u32], out: &mut Vec<usize>) {
    let (from, to) = (bits[0], bits[bits.len() - 1]);
    let inner = &bits[1..bits.len() - 1];
    for (i, m) in list.moves().iter().enumerate() {
        if m.from as u32 != from || m.to as u32 != to {
            continue;
        }
        if inner.is_empty() {
            out.push(i);
            continue;
        }
        let path = list.path(i);
        if path.is_empty() {
            continue; // a quiet move has no intermediate squares
        }
        // Landing squares before the last one.
        let lands = &path[..path.len() - 1];
        let mut k = 0;
        for s in lands {
            if k < inner.len() && s.landing as u32 == inner[k] {
                k += 1;
            }
        }
        if k == inner.len() {
            out.push(i);
        }
    }
}

/// Moves written in the Hub protocol's order: start, destination, then exactly the
/// captured pieces (BoomstraDam and Scan logs write `1x34x29x45`).
fn hub_order<B: Bits>(list: &MoveList<B>, bits: &[u32]) -> Vec<usize> {
    let (from, to) = (bits[0], bits[1]);
    let taken = bits[2..].iter().fold(B::ZERO, |acc, &b| acc | B::bit(b));
    list.moves()
        .iter()
        .enumerate()
        .filter(|(_, m)| m.from as u32 == from && m.to as u32 == to && m.captured == taken)
        .map(|(i, _)| i)
        .collect()
}

/// Moves whose captured pieces include every intermediate square.
fn captured_listed<B: Bits>(list: &MoveList<B>, bits: &[u32]) -> Vec<usize> {
    let (from, to) = (bits[0], bits[bits.len() - 1]);
    let inner = &bits[1..bits.len() - 1];
    list.moves()
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            m.from as u32 == from
                && m.to as u32 == to
                && m.is_capture()
                && inner.iter().all(|&b| m.captured.has(b))
        })
        .map(|(i, _)| i)
        .collect()
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

/// Describe a resolution in one line (for tests and debugging).
pub fn describe<V: Spec>(r: &Resolution<V::B>, resolver: &Resolver<V>) -> String {
    let mut s = String::new();
    match r {
        Resolution::Legal { index, quirk } => {
            let _ = write!(s, "legal {}", resolver.legal_texts()[*index]);
            if let Some(q) = quirk {
                let _ = write!(s, " ({})", q.description());
            }
        }
        Resolution::Ambiguous(c) => {
            let t = resolver.legal_texts();
            let names: Vec<&str> = c.iter().map(|&i| t[i].as_str()).collect();
            let _ = write!(s, "ambiguous {}", names.join(" / "));
        }
        Resolution::Illegal(i) => {
            let _ = write!(s, "{}: {} [{}]", i.code.as_str(), i.message, i.rule);
        }
    }
    s
}
