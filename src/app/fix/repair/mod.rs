//! `fix --repair`: the moves most probably played, restored where a slip of the record made
//! the main line illegal — and only where one correction clearly explains it.
//!
//! **The model** ([`slips`]): a ply miswritten (digits transposed, one digit wrong, from and
//! to swapped, a square off by one, the other side's numbering, the short form of an
//! ambiguous capture), or the plies themselves wrong (one missing, one doubled, two of one
//! player exchanged, the two halves of a move exchanged, a whole move missing); each
//! correction has the plausibility of the slip it undoes.
//!
//! **The search** ([`search`]): at the first ply of the main line that fails, and in a
//! window of plies before it (a slip may have written another legal move, and the record
//! gone wrong a few plies later), every legal move that the model explains as the ply
//! written, and every structural edit, each replayed to the end of the line or to its first
//! failure. Replays are cheap (the position before every ply is kept; a replay that comes
//! back to the line as written stops) and counted: a game has a budget.
//!
//! **The decision**: the corrections after which the rest of the main line replays legally
//! to its end compete; equal lines count as one (their plausibilities add up). The likeliest
//! is applied when it is at least [`MARGIN`] times as plausible as all the others together —
//! no other correction of like plausibility fits —, else nothing is applied and the comment
//! names the two likeliest: never a guess. When no correction reaches the end (a later,
//! independent slip), the ones that go furthest compete the same way, if they go at least
//! [`GAP`] plies past the failure; the next failure is then searched in turn, up to
//! [`MAX_REPAIRS`] corrections per game.
//!
//! **Irregular moves that stood** (`--keep-irregular`): a failure that no correction explains
//! and that the board allows (FMJD 5.4: an irregular move stands) is kept as played, and the
//! position after it is written as a setup (`/FEN "…"/`) so that strict readers replay the
//! rest; the line then goes on from there. A move followed by a setup is never corrected:
//! the record gives the position after it.

mod line;
mod search;
pub(super) mod slips;

use std::fmt::Write as _;

use crate::rules::{
    Move, MoveList, Position, Spec, Variant, VariantPosition, notation, with_variant,
};
use crate::syntax::{Game, Item, MoveItem, MoveKind, SetupCommand, Span, Square, Squares};

use crate::app::judge::resolve::Resolution;
use crate::app::judge::validate::start_position;
use crate::app::model::record::Record;
pub(crate) use line::Numbers;
use line::{Engine, MainLine, mix, set_up};
use search::{Candidate, Edit, Replayed, forms};
use slips::Board;

/// Most corrections `--repair` applies to one game.
pub const MAX_REPAIRS: usize = 4;
/// How much more plausible than all the others together a correction must be to be applied.
pub(super) const MARGIN: f64 = 20.0;
/// How far past the failure a correction must replay when none reaches the end of the line.
pub(super) const GAP: usize = 10;
/// How much less plausible a correction is for each move number written that it contradicts
/// (when the record's numbers disagree with its plies, and so tell where a ply is missing).
pub(super) const NUMBER_FACTOR: f64 = 0.01;
/// Most plies replayed for one failure.
const FAILURE_BUDGET: u64 = 60_000;
/// Most plies replayed for one game.
const GAME_BUDGET: u64 = 240_000;

/// What to do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Settings {
    /// Search corrections (`--repair`).
    pub search: bool,
    /// Keep irregular moves that no correction explains, with a setup after them.
    pub keep_irregular: bool,
}

/// A correction applied.
#[derive(Clone, Debug)]
pub(crate) struct Applied {
    /// The first ply it concerns (1-based, along the main line).
    pub ply: u32,
    /// The plies as written that it replaces, drops or exchanges.
    pub before: Vec<String>,
    /// Where the moves it wrote start in the game's source (their text is the
    /// re-check's), and the plies they are.
    pub written: Vec<(u32, u32)>,
    /// Why: the alternatives ruled out.
    pub why: String,
}

/// Why the first failure left was not corrected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Left {
    /// Several corrections of like plausibility fit: the two likeliest.
    Several(String, String),
    /// No correction of the model fits.
    NoFit,
    /// The search would have replayed more than its budget.
    Budget,
    /// The game had its most corrections already.
    Limit,
    /// The move is followed by a setup: the record gives the position after it.
    SetUp,
}

impl Left {
    /// The note added to the comment naming the error.
    pub(crate) fn note(&self) -> String {
        match self {
            Left::Several(a, b) => {
                format!("; --repair: several corrections fit ({a} or {b}), none applied")
            }
            Left::NoFit => "; --repair: no correction fits".into(),
            Left::Budget => "; --repair: search budget spent, none applied".into(),
            Left::Limit => format!("; --repair: {MAX_REPAIRS} corrections made already"),
            Left::SetUp => "; kept as played, the position after it set up".into(),
        }
    }
}

/// An irregular move kept as played.
#[derive(Clone, Debug)]
pub(crate) struct Kept {
    /// Its ply (1-based).
    pub ply: u32,
    /// The move as written.
    pub written: String,
    /// The FEN of the setup written after it.
    pub fen: String,
}

/// What the main line replays to at the end.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Replay {
    /// Plies.
    pub plies: u32,
    /// Every ply legal (and the line not cut short by an unknown move).
    pub clean: bool,
    /// The last position.
    pub last: VariantPosition,
}

/// What `repair` did.
#[derive(Clone, Debug, Default)]
pub(crate) struct Outcome {
    /// The corrections applied, in order.
    pub applied: Vec<Applied>,
    /// The irregular moves kept, each with a setup after it.
    pub kept: Vec<Kept>,
    /// Why the first failure left is left.
    pub left: Option<Left>,
    /// The main line as it stands, if its start could be set up.
    pub replay: Option<Replay>,
}

/// What the move numbers of the record tell.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Written<'a> {
    /// The numbers written before the moves of the game as read.
    pub numbers: &'a Numbers,
    /// They disagree with the plies written (a `move-number` warning on the main line): they
    /// may tell where a ply is missing. (Numbers that agree with the plies as written say
    /// nothing of a ply the writer left out.)
    pub informative: bool,
}

/// Correct the main line of `game` (normalised by `fix`), in place: the corrections are
/// applied to its body (the text of the moves they write appended to its source).
pub(crate) fn repair(
    game: &mut Game,
    variant: Variant,
    settings: Settings,
    written: Written<'_>,
) -> Outcome {
    with_variant!(variant, V => run::<V>(game, settings, written))
}

fn run<V: Spec>(game: &mut Game, settings: Settings, written: Written<'_>) -> Outcome {
    let mut out = Outcome::default();
    let Ok((start, _)) = start_position::<V>(&Record::of_game(game)) else {
        return out;
    };
    let numbering = V::numbering();
    let board = Board {
        squares: numbering.len() as u32,
        width: u32::from(numbering.layout.width),
        height: u32::from(numbering.layout.height),
    };
    let mut engine = Engine::<V>::new();
    // The note on the earliest failure left, by its ply.
    let mut first_left: Option<(usize, Left)> = None;
    let mut note = |ply: usize, left: Left| {
        if first_left.as_ref().is_none_or(|f| ply < f.0) {
            first_left = Some((ply, left));
        }
    };
    loop {
        let line = MainLine::of(&game.body, written.numbers);
        let pass = replay_line(&mut engine, &line, &start);
        if let Some(p) = pass.pinned {
            note(p, Left::SetUp);
        }
        let r = match pass.result {
            Err(end) => {
                out.replay = end;
                break;
            }
            Ok(r) => r,
        };
        let k = r.failure;
        let mut left = None;
        if settings.search {
            if out.applied.len() >= MAX_REPAIRS {
                left = Some(Left::Limit);
            } else {
                let numbers = (written.informative && line.segments.len() == 1).then_some(&start);
                left = correct(game, &mut engine, &line, &r, &board, numbers, &mut out);
                if left.is_none() {
                    continue;
                }
            }
        }
        if settings.keep_irregular
            && let Some(kept) = keep(game, &mut engine, &line, &r)
        {
            out.kept.push(kept);
            note(k, Left::SetUp);
            continue;
        }
        if let Some(left) = left {
            note(k, left);
        }
        break;
    }
    out.left = first_left.map(|f| f.1);
    out
}

/// Search the corrections of the failure of `r` and apply the one that clearly fits:
/// `None` if one was applied, else why not. `numbered`: the start position, when the move
/// numbers written are evidence.
#[allow(clippy::too_many_arguments)]
fn correct<V: Spec>(
    game: &mut Game,
    engine: &mut Engine<V>,
    line: &MainLine,
    r: &Replayed<V::B>,
    board: &Board,
    numbered: Option<&Position<V::B>>,
    out: &mut Outcome,
) -> Option<Left> {
    if engine.spent >= GAME_BUDGET {
        return Some(Left::Budget);
    }
    let budget = FAILURE_BUDGET.min(GAME_BUDGET - engine.spent);
    let counting = numbered.map(|start| Counting::of(line, start.side() != V::RULES.first_mover()));
    // Where the numbers written jump: a ply or a move may be missing there.
    let gaps: Vec<usize> = match &counting {
        Some(c) => (r.failure.saturating_sub(search::TEXT_BACK)..=r.failure)
            .filter(|&i| c.contradicts(line, i, i))
            .collect(),
        None => Vec::new(),
    };
    let Some(mut cands) = search::search(engine, line, r, board, &gaps, budget) else {
        return Some(Left::Budget);
    };
    if let Some(c) = &counting {
        c.weigh(&mut cands, line, r.failure);
    }
    match decide(&cands, r.failure) {
        Decision::Apply { best, why } => {
            let applied = apply(game, engine, line, r, &best, why);
            out.applied.push(applied);
            None
        }
        Decision::Several(a, b) => {
            let first = label(game, engine, line, r, &a.edit);
            let second = label(game, engine, line, r, &b.edit);
            Some(Left::Several(first, second))
        }
        Decision::NoFit => Some(Left::NoFit),
    }
}

/// A replay of the main line.
struct Pass<B> {
    /// Its first failure (not a ply followed by a setup), or how it ends (`None`: a setup or
    /// the start cannot be read).
    result: Result<Replayed<B>, Option<Replay>>,
    /// The first ply that fails and is followed by a setup (the record gives the position
    /// after it), before the failure.
    pinned: Option<usize>,
}

/// Replay the main line from `start`.
fn replay_line<V: Spec>(
    engine: &mut Engine<V>,
    line: &MainLine,
    start: &Position<V::B>,
) -> Pass<V::B> {
    let mut before = Vec::with_capacity(line.plies.len() + 1);
    let mut hashes = Vec::with_capacity(line.plies.len() + 1);
    let mut pos = *start;
    let mut clean = true;
    let mut pinned = None;
    for seg in &line.segments {
        if let Some(fen) = &seg.fen {
            match set_up::<V>(fen, &pos) {
                Some(p) => pos = p,
                None => {
                    return Pass {
                        result: Err(None),
                        pinned,
                    };
                }
            }
        }
        clean &= !seg.cut;
        let mut hash = 0u64;
        for i in seg.plies.clone() {
            before.push(pos);
            hashes.push(hash);
            match engine.play(&pos, &line.plies[i].spec) {
                Some(mv) => {
                    pos = pos.after(&mv, V::RULES);
                    hash = mix(hash, &mv);
                }
                None if seg.set_up_after && i + 1 == seg.plies.end => {
                    clean = false;
                    pinned = pinned.or(Some(i));
                }
                None => {
                    let r = Replayed {
                        before,
                        hashes,
                        failure: i,
                        segment: seg.plies.clone(),
                    };
                    return Pass {
                        result: Ok(r),
                        pinned,
                    };
                }
            }
        }
    }
    let end = Replay {
        plies: line.plies.len() as u32,
        clean,
        last: VariantPosition::of::<V>(&pos),
    };
    Pass {
        result: Err(Some(end)),
        pinned,
    }
}

/// The move numbers of a line: the first one written, and whether the line starts with the
/// second player's ply.
struct Counting {
    first: u32,
    off: usize,
}

impl Counting {
    fn of(line: &MainLine, first_second: bool) -> Counting {
        let first = line.plies.first().and_then(|p| p.number).map_or(1, |n| n.0);
        Counting {
            first,
            off: usize::from(first_second),
        }
    }

    /// True if the number written before ply `i` is not that of ply `q` of the line.
    fn contradicts(&self, line: &MainLine, i: usize, q: usize) -> bool {
        let Some((number, second)) = line.plies[i].number else {
            return false;
        };
        let n = self.first + ((q + self.off) / 2) as u32;
        let s = (q + self.off) % 2 == 1;
        number != n || (second && !s)
    }

    /// Make each correction less plausible by [`NUMBER_FACTOR`] for every move number written
    /// near the failure at ply `k` that it contradicts.
    fn weigh<B>(&self, cands: &mut [Candidate<B>], line: &MainLine, k: usize)
    where
        B: Copy,
    {
        let range = k.saturating_sub(search::TEXT_BACK)..line.plies.len().min(k + 12);
        for c in cands {
            let wrong = range
                .clone()
                .filter(|&i| c.edit.maps(i).is_some_and(|q| self.contradicts(line, i, q)))
                .count();
            c.like *= NUMBER_FACTOR.powi(wrong as i32);
        }
    }
}

/// What the candidates tell.
enum Decision<B> {
    /// Apply this one; `why` names the alternatives ruled out.
    Apply { best: Candidate<B>, why: String },
    /// Two corrections of like plausibility fit.
    Several(Candidate<B>, Candidate<B>),
    /// None fits.
    NoFit,
}

/// Choose among the corrections tried for the failure at ply `k`.
fn decide<B: Copy>(cands: &[Candidate<B>], k: usize) -> Decision<B> {
    let complete: Vec<&Candidate<B>> = cands.iter().filter(|c| c.trial.complete).collect();
    let (fit, how): (Vec<&Candidate<B>>, String) = if complete.is_empty() {
        let reach = cands.iter().map(|c| c.trial.reach).max().unwrap_or(0);
        if reach < k + GAP {
            return Decision::NoFit;
        }
        let far: Vec<&Candidate<B>> = cands.iter().filter(|c| c.trial.reach == reach).collect();
        (
            far,
            format!("replays {} plies further, to ply {}", reach - k, reach + 1),
        )
    } else {
        (
            complete,
            "the rest of the main line replays legally".to_string(),
        )
    };
    // Corrections that give the same line are one.
    let mut groups: Vec<(u64, f64, &Candidate<B>)> = Vec::new();
    for &c in &fit {
        match groups.iter_mut().find(|g| g.0 == c.trial.hash) {
            Some(g) => {
                g.1 += c.like;
                if c.like > g.2.like {
                    g.2 = c;
                }
            }
            None => groups.push((c.trial.hash, c.like, c)),
        }
    }
    groups.sort_by(|a, b| b.1.total_cmp(&a.1));
    let best = groups[0];
    let others: f64 = groups[1..].iter().map(|g| g.1).sum();
    if groups.len() > 1 && best.1 < MARGIN * others {
        return Decision::Several(*best.2, *groups[1].2);
    }
    let fitting = fit.iter().filter(|c| c.trial.hash == best.0).count();
    let failed = cands.len() - fit.len();
    let mut why = format!(
        "{} at ply {}: the only correction of like plausibility after which {how}",
        best.2.kind.describe(),
        best.2.edit.at() + 1
    );
    let _ = write!(
        why,
        " ({} alternatives ruled out: {failed} do not replay",
        cands.len() - fitting
    );
    if groups.len() > 1 {
        let _ = write!(
            why,
            ", {} fit but are at least {MARGIN} times less plausible",
            groups.len() - 1
        );
    }
    why.push(')');
    Decision::Apply { best: *best.2, why }
}

/// The squares a legal move of `pos` is written with: start and destination, the route of a
/// capture; and its text (the full route only when the short form is ambiguous).
fn squares_of<V: Spec>(
    engine: &mut Engine<V>,
    pos: &Position<V::B>,
    mv: &Move<V::B>,
    alg: bool,
) -> (Vec<Square>, MoveKind, String) {
    let list: &MoveList<V::B> = engine.legal(pos);
    let Some(i) = list.moves().iter().position(|m| m == mv) else {
        return (Vec::new(), MoveKind::Normal, String::new());
    };
    let all = forms::<V>(list, i, alg);
    let kind = if mv.is_capture() {
        MoveKind::Capture('x')
    } else {
        MoveKind::Normal
    };
    let squares = all.last().cloned().unwrap_or_default();
    let shown = if notation::is_ambiguous(list, i) {
        &squares
    } else {
        &all[0]
    };
    let text = text_of(shown, kind);
    (squares, kind, text)
}

fn text_of(squares: &[Square], kind: MoveKind) -> String {
    let sep = if matches!(kind, MoveKind::Capture(_)) {
        "x"
    } else {
        "-"
    };
    let mut s = String::new();
    for (i, q) in squares.iter().enumerate() {
        if i > 0 {
            s.push_str(sep);
        }
        let _ = write!(s, "{q}");
    }
    s
}

/// True if the written ply `i` uses coordinates.
fn algebraic(line: &MainLine, i: usize) -> bool {
    line.plies
        .get(i)
        .is_some_and(|p| p.squares.iter().any(|s| matches!(s, Square::Alg { .. })))
}

/// What a correction writes, in words (for the comment when several fit).
fn label<V: Spec>(
    game: &Game,
    engine: &mut Engine<V>,
    line: &MainLine,
    r: &Replayed<V::B>,
    edit: &Edit<V::B>,
) -> String {
    let written = |i: usize| {
        let item = line.plies[i].item;
        match game.body.items.get(item) {
            Some(Item::Move(m)) => game.text(m.span).trim().to_string(),
            _ => String::new(),
        }
    };
    let alg = algebraic(line, edit.at());
    let what = match *edit {
        Edit::Replace { at, mv } => squares_of(engine, &r.before[at], &mv, alg).2,
        Edit::Insert { at, mv } => {
            format!("{} inserted", squares_of(engine, &r.before[at], &mv, alg).2)
        }
        Edit::InsertPair { at, first, second } => {
            let pos = r.before[at];
            let a = squares_of(engine, &pos, &first, alg).2;
            let b = squares_of(engine, &pos.after(&first, V::RULES), &second, alg).2;
            format!("{a} {b} inserted")
        }
        Edit::Drop { at } => format!("{} dropped", written(at)),
        Edit::Swap { at, with } => format!("{} and {} exchanged", written(at), written(with)),
    };
    format!("{what} at ply {}", edit.at() + 1)
}

/// Apply a correction to the body of `game`.
fn apply<V: Spec>(
    game: &mut Game,
    engine: &mut Engine<V>,
    line: &MainLine,
    r: &Replayed<V::B>,
    c: &Candidate<V::B>,
    why: String,
) -> Applied {
    let item = |i: usize| line.plies[i].item;
    let text = |game: &Game, i: usize| match game.body.items.get(item(i)) {
        Some(Item::Move(m)) => game.text(m.span).trim().to_string(),
        _ => String::new(),
    };
    let at = c.edit.at();
    let alg = algebraic(line, at);
    let mut applied = Applied {
        ply: at as u32 + 1,
        before: Vec::new(),
        written: Vec::new(),
        why,
    };
    match c.edit {
        Edit::Replace { at, mv } => {
            applied.before.push(text(game, at));
            let (squares, kind, _) = squares_of(engine, &r.before[at], &mv, alg);
            let span = append_move(game, &squares, kind);
            if let Some(Item::Move(m)) = game.body.items.get_mut(item(at)) {
                m.squares = Squares::from(squares.as_slice());
                m.kind = kind;
                m.span = span;
            }
            applied.written.push((span.start, at as u32 + 1));
        }
        Edit::Insert { at, mv } => {
            let (squares, kind, _) = squares_of(engine, &r.before[at], &mv, alg);
            let span = insert_move(game, item(at), &squares, kind);
            applied.written.push((span.start, at as u32 + 1));
        }
        Edit::InsertPair { at, first, second } => {
            let pos = r.before[at];
            let (s2, k2, _) = squares_of(engine, &pos.after(&first, V::RULES), &second, alg);
            let (s1, k1, _) = squares_of(engine, &pos, &first, alg);
            let span2 = insert_move(game, item(at), &s2, k2);
            let span1 = insert_move(game, item(at), &s1, k1);
            applied.written.push((span1.start, at as u32 + 1));
            applied.written.push((span2.start, at as u32 + 2));
        }
        Edit::Drop { at } => {
            applied.before.push(text(game, at));
            drop_move(game, item(at));
        }
        Edit::Swap { at, with } => {
            applied.before.push(text(game, at));
            applied.before.push(text(game, with));
            swap_moves(game, item(at), item(with));
            for (i, ply) in [(at, at), (with, with)] {
                if let Some(Item::Move(m)) = game.body.items.get(item(i)) {
                    applied.written.push((m.span.start, ply as u32 + 1));
                }
            }
        }
    }
    applied
}

/// Append the text of a new move to the game's source: its span.
fn append_move(game: &mut Game, squares: &[Square], kind: MoveKind) -> Span {
    game.source.push(' ');
    let start = game.source.len() as u32;
    game.source.push_str(&text_of(squares, kind));
    Span::new(start, game.source.len() as u32)
}

/// Insert a new move before item `at` (it takes that move's number): its span.
fn insert_move(game: &mut Game, at: usize, squares: &[Square], kind: MoveKind) -> Span {
    let span = append_move(game, squares, kind);
    let mut number = None;
    if let Some(Item::Move(x)) = game.body.items.get_mut(at) {
        number = x.number.take();
    }
    let m = MoveItem {
        number,
        squares: Squares::from(squares),
        kind,
        strength: None,
        span,
    };
    game.body.items.insert(at, Item::Move(m));
    span
}

/// Drop the move at item `at` (the next move takes its number).
fn drop_move(game: &mut Game, at: usize) {
    let Item::Move(old) = game.body.items.remove(at) else {
        return;
    };
    if let Some(t) = old.number
        && let Some(Item::Move(next)) = game.body.items[at..]
            .iter_mut()
            .find(|i| matches!(i, Item::Move(_)))
    {
        next.number = Some(t);
    }
}

/// Exchange the moves of items `a` and `b` (their numbers stay where they are).
fn swap_moves(game: &mut Game, a: usize, b: usize) {
    let items = &mut game.body.items;
    let (Some(Item::Move(x)), Some(Item::Move(y))) = (items.get(a).cloned(), items.get(b).cloned())
    else {
        return;
    };
    let put = |slot: &mut Item, m: &MoveItem| {
        if let Item::Move(s) = slot {
            let number = s.number;
            *s = m.clone();
            s.number = number;
        }
    };
    put(&mut items[a], &y);
    put(&mut items[b], &x);
}

/// Keep the failing ply of `r` as played, if the board allows it: a setup of the position
/// after it is inserted after it. `None` if the board does not allow it.
fn keep<V: Spec>(
    game: &mut Game,
    engine: &mut Engine<V>,
    line: &MainLine,
    r: &Replayed<V::B>,
) -> Option<Kept> {
    let k = r.failure;
    let pos = r.before[k];
    let resolver = engine.resolver();
    resolver.set_position(&pos);
    let Resolution::Illegal(ill) = resolver.resolve_prepared(&pos, &line.plies[k].spec) else {
        return None;
    };
    let p = ill.play?;
    let side = pos.side();
    let after = if p.side != side {
        // A missing ply: the other side's move, then our turn again (as the replay plays it).
        let mut before = pos;
        before.set_side(p.side);
        let mut after = before.after(&p.mv, V::RULES);
        after.set_side(side);
        after
    } else {
        pos.after(&p.mv, V::RULES)
    };
    let fen = V::to_fen(&after);
    let item = line.plies[k].item;
    let written = match game.body.items.get(item) {
        Some(Item::Move(m)) => game.text(m.span).trim().to_string(),
        _ => String::new(),
    };
    game.body.items.insert(
        item + 1,
        Item::Setup(SetupCommand {
            fen: fen.clone(),
            span: Span::default(),
        }),
    );
    Some(Kept {
        ply: k as u32 + 1,
        written,
        fen,
    })
}

#[cfg(test)]
mod tests {
    use super::line::Trial;
    use super::slips::SlipKind;
    use super::*;

    fn cand(hash: u64, like: f64, complete: bool, reach: usize) -> Candidate<u64> {
        Candidate {
            edit: Edit::Drop { at: 3 },
            kind: SlipKind::DoubledPly,
            like,
            trial: Trial {
                reach,
                complete,
                hash,
            },
        }
    }

    #[test]
    fn the_likeliest_fit_is_applied_only_when_clearly_likelier() {
        let clear = [
            cand(1, 1.0, true, 40),
            cand(2, 0.04, true, 40),
            cand(3, 1.0, false, 5),
        ];
        assert!(matches!(decide(&clear, 5), Decision::Apply { .. }));
        let close = [cand(1, 1.0, true, 40), cand(2, 0.1, true, 40)];
        assert!(matches!(decide(&close, 5), Decision::Several(..)));
        let same_line = [cand(1, 0.5, true, 40), cand(1, 0.5, true, 40)];
        assert!(matches!(decide(&same_line, 5), Decision::Apply { .. }));
        let none = [cand(1, 1.0, false, 6)];
        assert!(matches!(decide(&none, 5), Decision::NoFit));
        let far = [cand(1, 1.0, false, 30), cand(2, 1.0, false, 20)];
        assert!(matches!(decide(&far, 5), Decision::Apply { .. }));
    }
}
