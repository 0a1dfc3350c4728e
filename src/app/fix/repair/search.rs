//! The corrections tried for one failure of the main line: in a window of plies before it,
//! every legal move that a slip of the model would have written as the ply recorded there,
//! and every structural edit (a ply or a move inserted, a doubled ply dropped, two plies
//! exchanged) — each replayed to the end of its segment, or to its first failure.

use crate::rules::{Move, MoveList, Position, Spec, notation};
use crate::syntax::Square;

use super::line::{Engine, MainLine, Step, Trial};
use super::slips::{Board, SlipKind, text_slip};

/// How far before the failure a ply may be corrected as miswritten (it may have been legal
/// there, and the record gone wrong later).
pub(crate) const TEXT_BACK: usize = 40;
/// How far before the failure a ply may have been left out, doubled or exchanged.
pub(crate) const PLY_BACK: usize = 2;
/// How far before the failure two plies may have been exchanged.
pub(crate) const SWAP_BACK: usize = 6;
/// How far before the failure a whole move may have been left out.
pub(crate) const MOVE_BACK: usize = 16;

/// A correction of the main line (ply indices as written).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Edit<B> {
    /// The ply at `at` was this move.
    Replace { at: usize, mv: Move<B> },
    /// This move was played before the ply at `at`.
    Insert { at: usize, mv: Move<B> },
    /// These two moves were played before the ply at `at`.
    InsertPair {
        at: usize,
        first: Move<B>,
        second: Move<B>,
    },
    /// The ply at `at` is written twice: it is not a move.
    Drop { at: usize },
    /// The plies at `at` and `with` (later) are written in each other's place.
    Swap { at: usize, with: usize },
}

impl<B: Copy> Edit<B> {
    /// The first ply it concerns.
    pub(crate) fn at(&self) -> usize {
        match *self {
            Edit::Replace { at, .. }
            | Edit::Insert { at, .. }
            | Edit::InsertPair { at, .. }
            | Edit::Drop { at }
            | Edit::Swap { at, .. } => at,
        }
    }

    /// Where the ply written at `i` stands in the line corrected (`None`: dropped).
    pub(crate) fn maps(&self, i: usize) -> Option<usize> {
        Some(match *self {
            Edit::Insert { at, .. } if i >= at => i + 1,
            Edit::InsertPair { at, .. } if i >= at => i + 2,
            Edit::Drop { at } if i == at => return None,
            Edit::Drop { at } if i > at => i - 1,
            _ => i,
        })
    }

    /// The plies the edit plays from `at`, and the written ply after which the line goes on
    /// as written.
    fn steps(&self) -> (Vec<Step<B>>, usize) {
        match *self {
            Edit::Replace { at, mv } => (vec![Step::Known(mv)], at + 1),
            Edit::Insert { at, mv } => (vec![Step::Known(mv)], at),
            Edit::InsertPair { at, first, second } => {
                (vec![Step::Known(first), Step::Known(second)], at)
            }
            Edit::Drop { at } => (Vec::new(), at + 1),
            Edit::Swap { at, with } => {
                let mut v = vec![Step::Written(with)];
                v.extend((at + 1..with).map(Step::Written));
                v.push(Step::Written(at));
                (v, with + 1)
            }
        }
    }
}

/// A correction tried.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Candidate<B> {
    /// The correction.
    pub edit: Edit<B>,
    /// The slip it undoes.
    pub kind: SlipKind,
    /// How plausible that slip is (see [`super::slips`]).
    pub like: f64,
    /// Its replay.
    pub trial: Trial,
}

/// The replay of the line as written, up to a failure.
pub(crate) struct Replayed<B> {
    /// The position before each ply (as written), up to the failure included.
    pub before: Vec<Position<B>>,
    /// The hash of the line before each ply, from its segment's start.
    pub hashes: Vec<u64>,
    /// The first ply that fails.
    pub failure: usize,
    /// The plies of its segment.
    pub segment: std::ops::Range<usize>,
}

/// Every correction of the model for the failure of `r`, tried; `None` if the search would
/// replay more than `budget` plies (then nothing may be concluded). `gaps`: plies before
/// which the move numbers written say that something is missing (a ply or a move is also
/// tried there).
pub(crate) fn search<V: Spec>(
    engine: &mut Engine<V>,
    line: &MainLine,
    r: &Replayed<V::B>,
    board: &Board,
    gaps: &[usize],
    budget: u64,
) -> Option<Vec<Candidate<V::B>>> {
    let limit = engine.spent + budget;
    let mut tried = Vec::new();
    let k = r.failure;
    let start = r.segment.start;
    let mut edits: Vec<(Edit<V::B>, SlipKind, f64)> = Vec::new();
    for j in k.saturating_sub(TEXT_BACK).max(start)..=k {
        text_edits(engine, line, r, j, board, &mut edits);
    }
    let plies = k.saturating_sub(PLY_BACK).max(start)..=k;
    for j in plies.clone() {
        ply_edits(engine, line, r, j, &mut edits);
    }
    // Two plies exchanged may replay a few plies before one of them fails.
    for j in k.saturating_sub(SWAP_BACK).max(start)..*plies.start() {
        swap_edits::<V>(r, j, &mut edits);
    }
    let gaps: Vec<usize> = gaps
        .iter()
        .copied()
        .filter(|&j| j >= start && j <= k)
        .collect();
    for &j in gaps.iter().filter(|j| !plies.contains(j)) {
        let list = engine.legal(&r.before[j]);
        let n = list.len() as f64;
        for &mv in list.moves() {
            edits.push((Edit::Insert { at: j, mv }, SlipKind::MissingPly, 1.0 / n));
        }
    }
    try_all(engine, line, r, &mut edits, &mut tried, limit)?;
    let moves = k.saturating_sub(MOVE_BACK).max(start)..=k;
    for j in moves
        .clone()
        .chain(gaps.into_iter().filter(|j| !moves.contains(j)))
    {
        move_edits(engine, r, j, &mut edits);
        try_all(engine, line, r, &mut edits, &mut tried, limit)?;
    }
    Some(tried)
}

/// Replay each edit of `edits` (emptied); `None` once the budget is spent.
fn try_all<V: Spec>(
    engine: &mut Engine<V>,
    line: &MainLine,
    r: &Replayed<V::B>,
    edits: &mut Vec<(Edit<V::B>, SlipKind, f64)>,
    tried: &mut Vec<Candidate<V::B>>,
    limit: u64,
) -> Option<()> {
    for (edit, kind, like) in edits.drain(..) {
        if engine.spent > limit {
            return None;
        }
        let at = edit.at();
        let (steps, resume) = edit.steps();
        let trial = engine.trial(
            line,
            r.before[at],
            r.hashes[at],
            at,
            &steps,
            resume,
            r.segment.end,
            &r.before,
            r.failure,
        );
        tried.push(Candidate {
            edit,
            kind,
            like,
            trial,
        });
    }
    Some(())
}

/// The legal moves of the position before ply `j` that a slip in its text explains (at the
/// failure, when it is an ambiguous capture, the routes its short form may mean).
fn text_edits<V: Spec>(
    engine: &mut Engine<V>,
    line: &MainLine,
    r: &Replayed<V::B>,
    j: usize,
    board: &Board,
    out: &mut Vec<(Edit<V::B>, SlipKind, f64)>,
) {
    let ply = &line.plies[j];
    if ply.squares.len() < 2 {
        return;
    }
    let alg = ply.squares.iter().any(|s| matches!(s, Square::Alg { .. }));
    let pos = r.before[j];
    // Before the failure, the ply as written was legal: that move is no correction.
    let played = (j < r.failure).then(|| r.before[j + 1]);
    let list = engine.legal(&pos);
    let mut exact = Vec::new();
    for i in 0..list.len() {
        if played.is_some_and(|p| pos.after(&list.moves()[i], V::RULES) == p) {
            continue;
        }
        let forms = forms::<V>(list, i, alg);
        let refs: Vec<&[Square]> = forms.iter().map(Vec::as_slice).collect();
        if refs.contains(&ply.squares.as_slice()) {
            exact.push(list.moves()[i]);
        } else if let Some((like, kind)) = text_slip(&ply.squares, &refs, board) {
            out.push((
                Edit::Replace {
                    at: j,
                    mv: list.moves()[i],
                },
                kind,
                like,
            ));
        }
    }
    if j == r.failure && exact.len() > 1 {
        // A short capture that several routes fit.
        let like = 1.0 / exact.len() as f64;
        for mv in exact {
            out.push((Edit::Replace { at: j, mv }, SlipKind::Route, like));
        }
    }
}

/// A ply left out before ply `j`, ply `j` doubled, or exchanged with the next or the one
/// after.
fn ply_edits<V: Spec>(
    engine: &mut Engine<V>,
    line: &MainLine,
    r: &Replayed<V::B>,
    j: usize,
    out: &mut Vec<(Edit<V::B>, SlipKind, f64)>,
) {
    let pos = &r.before[j];
    let list = engine.legal(pos);
    let n = list.len() as f64;
    for &mv in list.moves() {
        out.push((Edit::Insert { at: j, mv }, SlipKind::MissingPly, 1.0 / n));
    }
    let plies = &line.plies;
    if j > r.segment.start
        && plies[j].squares == plies[j - 1].squares
        && plies[j].kind == plies[j - 1].kind
    {
        out.push((Edit::Drop { at: j }, SlipKind::DoubledPly, 1.0));
    }
    swap_edits::<V>(r, j, out);
}

/// Ply `j` exchanged with the next (the halves of a move) or the one after (two moves of one
/// player).
fn swap_edits<V: Spec>(r: &Replayed<V::B>, j: usize, out: &mut Vec<(Edit<V::B>, SlipKind, f64)>) {
    let end = r.segment.end;
    if j + 1 < end && r.before[j].side() == V::RULES.first_mover() {
        out.push((
            Edit::Swap { at: j, with: j + 1 },
            SlipKind::SwappedHalves,
            1.0,
        ));
    }
    if j + 2 < end {
        out.push((Edit::Swap { at: j, with: j + 2 }, SlipKind::SwappedOwn, 1.0));
    }
}

/// A whole move (the first player's ply and the reply) left out before ply `j`, if the
/// first player is to move there: every pair of legal moves.
fn move_edits<V: Spec>(
    engine: &mut Engine<V>,
    r: &Replayed<V::B>,
    j: usize,
    out: &mut Vec<(Edit<V::B>, SlipKind, f64)>,
) {
    let pos = r.before[j];
    if pos.side() != V::RULES.first_mover() {
        return;
    }
    let firsts: Vec<Move<V::B>> = engine.legal(&pos).moves().to_vec();
    let n = firsts.len() as f64;
    for first in firsts {
        let after = pos.after(&first, V::RULES);
        let replies = engine.legal(&after);
        let m = replies.len() as f64;
        for &second in replies.moves() {
            out.push((
                Edit::InsertPair {
                    at: j,
                    first,
                    second,
                },
                SlipKind::MissingMove,
                1.0 / (n * m),
            ));
        }
    }
}

/// The ways a player may write legal move `i` of `list`: start and destination, and for a
/// capture of several pieces its route (PDN 3.0 rule 9) and its landing squares.
pub(crate) fn forms<V: Spec>(list: &MoveList<V::B>, i: usize, alg: bool) -> Vec<Vec<Square>> {
    let m = &list.moves()[i];
    let name = |b: u32| name_of::<V>(b, alg);
    let mut out = vec![vec![name(u32::from(m.from)), name(u32::from(m.to))]];
    if m.is_capture() && list.path(i).len() > 1 {
        let route: Vec<Square> = notation::route(V::geometry(), m, list.path(i))
            .into_iter()
            .map(name)
            .collect();
        let landings: Vec<Square> = notation::landings(m, list.path(i))
            .into_iter()
            .map(name)
            .collect();
        if landings != route {
            out.push(landings);
        }
        out.push(route);
    }
    out
}

/// The name of a square in numbers or coordinates.
pub(crate) fn name_of<V: Spec>(bit: u32, alg: bool) -> Square {
    let num = V::numbering();
    if alg {
        let (file, rank) = num.algebraic_of_bit(bit);
        Square::Alg { file, rank }
    } else {
        Square::Num(num.number_of_bit(bit))
    }
}
