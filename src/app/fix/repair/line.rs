//! The main line as `--repair` replays it: its plies as written, cut into segments at the
//! setups, and a replay that answers only "legal, and which move" — from any position, with
//! edited plies spliced in — as the validator would (a move the validator reports as an
//! error is a failure here: illegal, ambiguous, after the end of the game).

use std::ops::Range;

use crate::rules::{Move, MoveList, Position, Spec, Variant};
use crate::syntax::{Item, Line, MoveItem, MoveKind, Square};

use crate::app::judge::replay::spec_into;
use crate::app::judge::resolve::{MoveSpec, Resolver};

/// One ply of the main line as written.
#[derive(Clone, Debug)]
pub(crate) struct Ply {
    /// Its item in the main line.
    pub item: usize,
    /// The squares as written.
    pub squares: Vec<Square>,
    /// How they are joined.
    pub kind: MoveKind,
    /// What resolution needs.
    pub spec: MoveSpec,
    /// The move number written before it, if any: number, and `...` (second player).
    pub number: Option<(u32, bool)>,
}

/// A stretch of the main line replayed from one position: the start of the game, or a setup.
#[derive(Clone, Debug)]
pub(crate) struct Segment {
    /// The FEN of the setup that starts it (`None`: the game's start position).
    pub fen: Option<String>,
    /// Its plies (indices into [`MainLine::plies`]).
    pub plies: Range<usize>,
    /// A setup follows it (the position after its last ply is given by the record).
    pub set_up_after: bool,
    /// Its replay stops at an unknown move (`- -`): the plies after it are not replayed.
    pub cut: bool,
}

/// The main line of a game.
#[derive(Clone, Debug, Default)]
pub(crate) struct MainLine {
    /// Every ply, in order.
    pub plies: Vec<Ply>,
    /// The segments, in order.
    pub segments: Vec<Segment>,
}

/// The move numbers written in a game as read, by where their move starts.
#[derive(Clone, Debug, Default)]
pub(crate) struct Numbers {
    tokens: Vec<(u32, u32, bool)>,
}

impl Numbers {
    /// The numbers written before the moves of a body (the game as read: normalisation
    /// drops them).
    pub(crate) fn of(body: &Line) -> Numbers {
        let mut tokens = Vec::new();
        let mut stack = vec![body];
        while let Some(l) = stack.pop() {
            for item in &l.items {
                match item {
                    Item::Move(m) => {
                        if let Some(n) = m.number {
                            tokens.push((m.span.start, n.number, n.second_player));
                        }
                    }
                    Item::Variation(v) => stack.push(&v.line),
                    _ => {}
                }
            }
        }
        tokens.sort_unstable();
        Numbers { tokens }
    }

    fn get(&self, span: u32) -> Option<(u32, bool)> {
        self.tokens
            .binary_search_by_key(&span, |t| t.0)
            .ok()
            .map(|i| (self.tokens[i].1, self.tokens[i].2))
    }
}

impl MainLine {
    /// The main line of a body, with the numbers written before its moves in the game as
    /// read.
    pub(crate) fn of(body: &Line, numbers: &Numbers) -> MainLine {
        let mut line = MainLine::default();
        let mut seg = Segment {
            fen: None,
            plies: 0..0,
            set_up_after: false,
            cut: false,
        };
        for (i, item) in body.items.iter().enumerate() {
            match item {
                Item::Move(m) if !seg.cut => match ply_of(i, m, numbers) {
                    Some(p) => {
                        line.plies.push(p);
                        seg.plies.end = line.plies.len();
                    }
                    None => seg.cut = true,
                },
                Item::Setup(s) => {
                    let start = line.plies.len();
                    let mut done = std::mem::replace(
                        &mut seg,
                        Segment {
                            fen: Some(s.fen.clone()),
                            plies: start..start,
                            set_up_after: false,
                            cut: false,
                        },
                    );
                    if !done.plies.is_empty() || done.fen.is_some() {
                        done.set_up_after = !done.plies.is_empty();
                        line.segments.push(done);
                    } else {
                        // A setup before any move: the first segment starts from it.
                    }
                }
                _ => {}
            }
        }
        line.segments.push(seg);
        line
    }
}

fn ply_of(item: usize, m: &MoveItem, numbers: &Numbers) -> Option<Ply> {
    let mut spec = MoveSpec::default();
    if !spec_into(&m.to_ref(), &mut spec) {
        return None;
    }
    Some(Ply {
        item,
        squares: m.squares.to_vec(),
        kind: m.kind,
        spec,
        number: numbers.get(m.span.start),
    })
}

/// A ply of an edited line: a legal move the edit put there, or a ply as written.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step<B> {
    /// A legal move of the position it is played in.
    Known(Move<B>),
    /// The ply written at this index.
    Written(usize),
}

/// What a replay reached.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Trial {
    /// The first ply (index as written) that failed, or the end of the segment.
    pub reach: usize,
    /// True if every ply to the end of the segment was legal.
    pub complete: bool,
    /// A hash of the moves played (from the edit on): equal lines, equal hashes.
    pub hash: u64,
}

/// Replays for one variant, counting every ply it resolves.
pub(crate) struct Engine<V: Spec> {
    resolver: Resolver<V>,
    /// Plies resolved so far.
    pub spent: u64,
}

impl<V: Spec> Engine<V> {
    /// A replayer.
    pub(crate) fn new() -> Self {
        Engine {
            resolver: Resolver::new(),
            spent: 0,
        }
    }

    /// The legal moves of a position (with their routes).
    pub(crate) fn legal(&mut self, pos: &Position<V::B>) -> &MoveList<V::B> {
        if game_over::<V>(pos) {
            self.resolver.set_position(&Position::empty(pos.side()));
        } else {
            self.resolver.set_position(pos);
        }
        self.resolver.legal()
    }

    /// The move a written ply means in `pos`, if the validator would find it legal.
    pub(crate) fn play(&mut self, pos: &Position<V::B>, spec: &MoveSpec) -> Option<Move<V::B>> {
        self.spent += 1;
        if game_over::<V>(pos) {
            return None;
        }
        self.resolver.set_position(pos);
        match self.resolver.resolve_quick(pos, spec) {
            Some(Ok(i)) => Some(self.resolver.legal().moves()[i]),
            _ => None,
        }
    }

    /// The resolver (to ask why a ply fails, and how the board allows it).
    pub(crate) fn resolver(&mut self) -> &mut Resolver<V> {
        &mut self.resolver
    }

    /// Replay `steps` from `pos` (the position before ply `at` as written, `hash` the hash
    /// of the line before it), then the written plies from `resume` to `end`. `known` is the
    /// position before each written ply of the line as replayed so far, up to its first
    /// failure: a replay that comes back to one of them at the same ply goes on as the line
    /// did, and fails where it failed (`failure`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn trial(
        &mut self,
        line: &MainLine,
        mut pos: Position<V::B>,
        mut hash: u64,
        at: usize,
        steps: &[Step<V::B>],
        resume: usize,
        end: usize,
        known: &[Position<V::B>],
        failure: usize,
    ) -> Trial {
        for s in steps {
            let mv = match *s {
                Step::Known(m) => {
                    self.spent += 1;
                    m
                }
                Step::Written(i) => match self.play(&pos, &line.plies[i].spec) {
                    Some(m) => m,
                    None => {
                        return Trial {
                            reach: i.max(at),
                            complete: false,
                            hash,
                        };
                    }
                },
            };
            pos = pos.after(&mv, V::RULES);
            hash = mix(hash, &mv);
        }
        for i in resume..end {
            if i < failure && known.get(i) == Some(&pos) {
                // Back on the line as written: it fails where it failed.
                return Trial {
                    reach: failure,
                    complete: false,
                    hash,
                };
            }
            match self.play(&pos, &line.plies[i].spec) {
                Some(mv) => {
                    pos = pos.after(&mv, V::RULES);
                    hash = mix(hash, &mv);
                }
                None => {
                    return Trial {
                        reach: i,
                        complete: false,
                        hash,
                    };
                }
            }
        }
        Trial {
            reach: end,
            complete: true,
            hash,
        }
    }
}

/// The game is over before any move: in breakthrough, once a king is crowned (with no legal
/// move, the move list is empty anyway).
fn game_over<V: Spec>(pos: &Position<V::B>) -> bool {
    V::RULES.variant == Variant::Breakthrough && crate::rules::Bits::any(pos.kings())
}

/// The hash of a line after one more move.
pub(crate) fn mix<B: crate::rules::Bits>(hash: u64, m: &Move<B>) -> u64 {
    let mut captured = 0u64;
    for b in m.captured.iter() {
        captured = captured.rotate_left(7) ^ u64::from(b as u8);
    }
    let v = u64::from(m.from) | (u64::from(m.to) << 8) | (captured << 16);
    (hash ^ v)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(29)
}

/// The position a setup gives, from `pos` (the null move `/FEN "B::"/` only changes the
/// side to move): as the replay reads it.
pub(crate) fn set_up<V: Spec>(fen: &str, pos: &Position<V::B>) -> Option<Position<V::B>> {
    let parsed = crate::rules::fen::parse(fen).ok()?;
    if parsed.pieces.is_empty()
        && let Some(side) = parsed.side
    {
        let mut p = *pos;
        p.set_side(side);
        return Some(p);
    }
    parsed
        .position(V::numbering(), V::geometry(), pos.side())
        .ok()
}
