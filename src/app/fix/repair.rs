//! `fix --repair`: unique probable corrections of the first illegal move of the main line —
//! transposed digits, a square off by one, the other side's numbering, the other separator,
//! the full route of an ambiguous capture, a missing ply inserted (any legal move), the ply
//! dropped (a doubled ply). A correction is applied only when it is the only one after which
//! the rest of the main line replays legally (later errors may be repaired the same way, at
//! most [`MAX_REPAIRS`] per game, each unique).
//!
//! The search edits the game in place and undoes each edit after trying it: nothing is
//! cloned per candidate.

use std::fmt::Write as _;

use crate::rules::fen::SquareName;
use crate::rules::notation;
use crate::rules::{MoveList, NotationKind, Spec, Variant, VariantPosition, with_variant};
use crate::syntax::{Game, Item, MoveItem, MoveKind, MoveNumber, Span, Square, Squares};

use super::super::diagnostic::{Code, Severity};
use super::super::export::record::{Form, RecordOptions, Recorder};
use super::super::export::{self, ExportOptions};
use super::super::validate::{Report, validate_with};

/// Most corrections `--repair` applies to one game.
pub const MAX_REPAIRS: usize = 3;
/// Most replays `--repair` spends on one game.
const REPAIR_BUDGET: u32 = 600;

/// What a correction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EditKind {
    Transposed,
    OffByOne,
    OtherSide,
    Separator,
    Route,
    Insert,
    Drop,
}

impl EditKind {
    /// The slip, in words.
    pub(super) fn describe(self) -> &'static str {
        match self {
            EditKind::Transposed => "transposed digits",
            EditKind::OffByOne => "a square off by one",
            EditKind::OtherSide => "squares numbered from the other side of the board",
            EditKind::Separator => "the other separator",
            EditKind::Route => "the full route of an ambiguous capture",
            EditKind::Insert => "a missing ply inserted",
            EditKind::Drop => "a doubled ply dropped",
        }
    }
}

/// A correction of the main line.
#[derive(Clone, Debug)]
pub(super) struct Edit {
    /// The slip it corrects.
    pub kind: EditKind,
    /// Index of the move in the main line's items.
    index: usize,
    /// Its ply.
    pub ply: u32,
    /// The new move (not for a drop).
    squares: Option<(Vec<Square>, MoveKind)>,
    /// The move as written.
    pub before: Option<String>,
    /// Where the new move's text is, once applied.
    pub new_span: Option<Span>,
}

/// The result of a search for corrections.
enum Solve {
    /// No correction makes the game legal.
    None,
    /// Exactly one sequence of corrections does (empty if the game is legal already), and
    /// the replay of the game corrected so.
    Unique(Vec<Edit>, Box<(Report, Recorder)>),
    /// Several do: what two of them would write.
    Many(Vec<String>),
}

fn move_text_of(squares: &[Square], kind: MoveKind) -> String {
    let sep = match kind {
        MoveKind::Capture(_) => "x",
        _ => "-",
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

/// How to take an applied edit back.
struct Undo {
    source_len: usize,
    index: usize,
    old: MoveItem,
    kind: UndoKind,
}

enum UndoKind {
    Replaced,
    Inserted,
    /// The move dropped, and the next move whose number it took (with its own number).
    Dropped(Option<(usize, Option<MoveNumber>)>),
}

/// Apply an edit to the main line of `out` (a new move's text is appended to the source):
/// the span of the new move, and how to undo the edit.
fn apply(out: &mut Game, e: &Edit) -> (Span, Option<Undo>) {
    let old = match out.body.items.get(e.index) {
        Some(Item::Move(m)) => m.clone(),
        _ => return (Span::default(), None),
    };
    let source_len = out.source.len();
    let mut new_span = Span::default();
    let kind = if let Some((squares, kind)) = &e.squares {
        let text = move_text_of(squares, *kind);
        out.source.push(' ');
        let start = out.source.len() as u32;
        out.source.push_str(&text);
        new_span = Span::new(start, out.source.len() as u32);
        let mut m = MoveItem {
            number: old.number,
            squares: Squares::from(squares.as_slice()),
            kind: *kind,
            strength: None,
            span: new_span,
        };
        match e.kind {
            EditKind::Insert => {
                if let Some(Item::Move(x)) = out.body.items.get_mut(e.index) {
                    x.number = None;
                }
                out.body.items.insert(e.index, Item::Move(m));
                UndoKind::Inserted
            }
            _ => {
                m.strength = old.strength.clone();
                out.body.items[e.index] = Item::Move(m);
                UndoKind::Replaced
            }
        }
    } else {
        out.body.items.remove(e.index);
        let mut renumbered = None;
        if let Some(t) = old.number
            && let Some((k, Item::Move(next))) = out.body.items[e.index..]
                .iter_mut()
                .enumerate()
                .find(|(_, i)| matches!(i, Item::Move(_)))
        {
            renumbered = Some((e.index + k, next.number));
            next.number = Some(t);
        }
        UndoKind::Dropped(renumbered)
    };
    let undo = Undo {
        source_len,
        index: e.index,
        old,
        kind,
    };
    (new_span, Some(undo))
}

/// Take an edit back.
fn undo(out: &mut Game, u: Undo) {
    let items = &mut out.body.items;
    match u.kind {
        UndoKind::Replaced => items[u.index] = Item::Move(u.old),
        UndoKind::Inserted => {
            items.remove(u.index);
            items[u.index] = Item::Move(u.old);
        }
        UndoKind::Dropped(renumbered) => {
            if let Some((k, number)) = renumbered
                && let Some(Item::Move(next)) = items.get_mut(k)
            {
                next.number = number;
            }
            items.insert(u.index, Item::Move(u.old));
        }
    }
    out.source.truncate(u.source_len);
}

/// The first error of the main line: its item index, diagnostic code and ply.
fn first_main_error(g: &Game, report: &Report) -> Option<(usize, Code, u32)> {
    let d = report
        .diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Error && d.code.is_move_code() && !d.variation)
        .min_by_key(|d| {
            (
                d.ply.unwrap_or(u32::MAX),
                d.span.map_or(u32::MAX, |s| s.start),
            )
        })?;
    let span = d.span?;
    let index = g
        .body
        .items
        .iter()
        .position(|i| matches!(i, Item::Move(m) if m.span.start == span.start));
    Some((index.unwrap_or(usize::MAX), d.code, d.ply.unwrap_or(0)))
}

/// Validate `g` with a recorder of the main line's positions (one replay of the budget).
fn eval(g: &Game, opts: &ExportOptions, budget: &mut u32) -> (Report, Recorder) {
    *budget = budget.saturating_sub(1);
    let mut rec = Recorder::new(RecordOptions { positions: true });
    let report = validate_with(g, &opts.validate, &mut rec);
    rec.sort();
    (report, rec)
}

/// Search the unique corrections that make the main line of `g` legal (`g` is edited and
/// restored: it is as it was when this returns).
fn solve(
    g: &mut Game,
    opts: &ExportOptions,
    variant: Variant,
    depth: usize,
    budget: &mut u32,
    evaluated: Option<(Report, Recorder)>,
) -> Solve {
    let (report, rec) = match evaluated {
        Some(e) => e,
        None => eval(g, opts, budget),
    };
    let Some((index, code, ply)) = first_main_error(g, &report) else {
        return Solve::Unique(Vec::new(), Box::new((report, rec)));
    };
    if depth == 0 || index == usize::MAX {
        return Solve::None;
    }
    let cands = candidates(g, index, code, ply, &rec, variant);
    drop((report, rec));
    // The first sequence of corrections that fits: its key, its label, the corrections
    // and the replay of the game corrected.
    type Found = (String, String, Vec<Edit>, Box<(Report, Recorder)>);
    let mut found: Option<Found> = None;
    for mut e in cands {
        if *budget == 0 {
            return Solve::None;
        }
        let (span, Some(u)) = apply(g, &e) else {
            continue;
        };
        e.new_span = e.squares.is_some().then_some(span);
        let tried = try_edit(g, &e, index, opts, variant, depth, budget);
        undo(g, u);
        let Some((key, label, rest)) = tried else {
            continue;
        };
        match rest {
            Solve::Many(alts) => return Solve::Many(alts),
            Solve::None => {}
            Solve::Unique(rest, eval) => match &found {
                Some((k, ..)) if *k == key => {}
                Some((_, l, ..)) => return Solve::Many(vec![l.clone(), label]),
                None => {
                    let mut v = vec![e];
                    v.extend(rest);
                    found = Some((key, label, v, eval));
                }
            },
        }
    }
    match found {
        Some((_, _, v, eval)) => Solve::Unique(v, eval),
        None => Solve::None,
    }
}

/// Replay `g` with the edit `e` applied (at item `index`): what the edit writes (a key that
/// tells edits apart, and a label), and the corrections of the rest of the main line.
fn try_edit(
    g: &mut Game,
    e: &Edit,
    index: usize,
    opts: &ExportOptions,
    variant: Variant,
    depth: usize,
    budget: &mut u32,
) -> Option<(String, String, Solve)> {
    let (r, rc) = eval(g, opts, budget);
    let touched = match e.kind {
        EditKind::Insert => index + 1,
        _ => index,
    };
    let (key, label) = match e.new_span.and_then(|s| rc.find(s.start)) {
        Some(pr) => {
            let names = export::names(variant, export::Notation::Native);
            let mut t = String::new();
            rc.write(pr, Form::Pdn, &names, &mut t);
            if e.kind == EditKind::Insert {
                (format!("insert:{t}"), format!("{t} inserted"))
            } else {
                (t.clone(), t)
            }
        }
        None if e.kind == EditKind::Drop => (
            "drop".to_string(),
            format!("{} dropped", e.before.as_deref().unwrap_or("the move")),
        ),
        None => return None,
    };
    let rest = match first_main_error(g, &r) {
        None => Solve::Unique(Vec::new(), Box::new((r, rc))),
        Some((i, _, _)) if i != usize::MAX && i > touched => {
            solve(g, opts, variant, depth - 1, budget, Some((r, rc)))
        }
        _ => Solve::None,
    };
    Some((key, label, rest))
}

/// What the search gives `fix`.
pub(super) enum Repair {
    /// The corrections were applied to the game; the replay of the game corrected.
    Repaired(Vec<Edit>, Box<(Report, Recorder)>),
    /// Several corrections fit: what two of them would write.
    Several(Vec<String>),
    /// No correction fits.
    Nothing,
}

/// Search the unique corrections of the main line of `game` (as `fix` normalised it), and
/// apply them.
pub(super) fn repair(game: &mut Game, opts: &ExportOptions, variant: Variant) -> Repair {
    let mut budget = REPAIR_BUDGET;
    match solve(game, opts, variant, MAX_REPAIRS, &mut budget, None) {
        Solve::Unique(edits, eval) if !edits.is_empty() => {
            for e in &edits {
                let _ = apply(game, e);
            }
            Repair::Repaired(edits, eval)
        }
        Solve::Many(alts) => Repair::Several(alts),
        _ => Repair::Nothing,
    }
}

/// The probable corrections of one move, without repeats.
struct Candidates {
    index: usize,
    ply: u32,
    before: Option<String>,
    /// The move as written.
    written: (Vec<Square>, MoveKind),
    /// What the candidates so far write.
    texts: Vec<(Vec<Square>, MoveKind)>,
    out: Vec<Edit>,
}

impl Candidates {
    /// A correction that writes `squares` joined as `mk` (not the move as written, nor twice).
    fn push(&mut self, kind: EditKind, squares: Vec<Square>, mk: MoveKind) {
        if squares.len() < 2
            || (squares == self.written.0 && mk == self.written.1)
            || self.texts.iter().any(|(s, k)| *s == squares && *k == mk)
        {
            return;
        }
        self.texts.push((squares.clone(), mk));
        self.out.push(Edit {
            kind,
            index: self.index,
            ply: self.ply,
            squares: Some((squares, mk)),
            before: self.before.clone(),
            new_span: None,
        });
    }

    /// A move of another kind of slip (no text check).
    fn push_edit(&mut self, kind: EditKind, squares: Option<(Vec<Square>, MoveKind)>) {
        let before = if kind == EditKind::Insert {
            None
        } else {
            self.before.clone()
        };
        self.out.push(Edit {
            kind,
            index: self.index,
            ply: self.ply,
            squares,
            before,
            new_span: None,
        });
    }
}

/// The probable corrections of the move at `index` of the main line.
fn candidates(
    g: &Game,
    index: usize,
    code: Code,
    ply: u32,
    rec: &Recorder,
    variant: Variant,
) -> Vec<Edit> {
    let Some(Item::Move(x)) = g.body.items.get(index) else {
        return Vec::new();
    };
    let mut c = Candidates {
        index,
        ply,
        before: Some(g.text(x.span).trim().to_string()),
        written: (x.squares.to_vec(), x.kind),
        texts: Vec::new(),
        out: Vec::new(),
    };
    text_slips(x, variant, &mut c);
    // Legal moves of the position before the move: full routes of an ambiguous capture,
    // or a missing ply.
    if let Some(pos) = position_before(g, index, rec) {
        let legal = legal_moves(variant, &pos);
        if code == Code::AmbiguousMove {
            let numbering = with_variant!(variant, V => V::numbering());
            let ends = |s: &Square| -> Option<u32> {
                let name = match *s {
                    Square::Num(n) => SquareName::Number(n),
                    Square::Alg { file, rank } => SquareName::Algebraic { file, rank },
                };
                name.resolve(numbering).ok()
            };
            let sq = &x.squares;
            let (from, to) = (sq.first().and_then(ends), sq.last().and_then(ends));
            for (s, k, f, t) in &legal {
                if Some(*f) == from && Some(*t) == to {
                    c.push(EditKind::Route, s.clone(), *k);
                }
            }
        } else {
            for (s, k, _, _) in legal {
                c.push_edit(EditKind::Insert, Some((s, k)));
            }
        }
    }
    // A doubled ply: drop it (not when a variation hangs on it, and only when a move
    // follows: the rest replaying is the evidence, and a last move dropped would compete
    // with every correction of a slip in it).
    let rest = &g.body.items[index + 1..];
    let next = rest
        .iter()
        .find(|i| !matches!(i, Item::Comment(_) | Item::Nag(_)));
    let follows = rest.iter().any(|i| matches!(i, Item::Move(_)));
    if code != Code::AmbiguousMove && follows && !matches!(next, Some(Item::Variation(_))) {
        c.push_edit(EditKind::Drop, None);
    }
    c.out
}

/// The corrections of a slip in the text of a move: transposed digits, a square off by one,
/// the other side's numbering, the other separator.
fn text_slips(x: &MoveItem, variant: Variant, c: &mut Candidates) {
    let numbering = with_variant!(variant, V => V::numbering());
    let n_squares = numbering.len() as u32;
    let (w, h) = (
        u32::from(numbering.layout.width),
        u32::from(numbering.layout.height),
    );
    let sq: Vec<Square> = x.squares.to_vec();
    let kind = match x.kind {
        MoveKind::Undivided | MoveKind::Unknown => MoveKind::Normal,
        k => k,
    };
    let valid = |s: &Square| match *s {
        Square::Num(n) => (1..=n_squares).contains(&n),
        Square::Alg { file, rank } => u32::from(file) < w && u32::from(rank) < h,
    };
    if x.kind == MoveKind::Unknown || !sq.iter().all(valid) {
        return;
    }
    // Transposed digits.
    for i in 0..sq.len() {
        if let Square::Num(n) = sq[i]
            && (10..100).contains(&n)
            && n % 10 != 0
        {
            let t = (n % 10) * 10 + n / 10;
            if (1..=n_squares).contains(&t) {
                let mut s = sq.clone();
                s[i] = Square::Num(t);
                c.push(EditKind::Transposed, s, kind);
            }
        }
    }
    // A square off by one.
    for i in 0..sq.len() {
        let alts: Vec<Square> = match sq[i] {
            Square::Num(n) => [n.wrapping_sub(1), n + 1]
                .into_iter()
                .filter(|t| (1..=n_squares).contains(t))
                .map(Square::Num)
                .collect(),
            Square::Alg { file, rank } => {
                let mut v = Vec::new();
                for (df, dr) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                    let (f, r) = (i32::from(file) + df, i32::from(rank) + dr);
                    if f >= 0 && r >= 0 && (f as u32) < w && (r as u32) < h {
                        v.push(Square::Alg {
                            file: f as u8,
                            rank: r as u8,
                        });
                    }
                }
                v
            }
        };
        for a in alts {
            let mut s = sq.clone();
            s[i] = a;
            c.push(EditKind::OffByOne, s, kind);
        }
    }
    // Numbered from the other side.
    let other: Vec<Square> = sq
        .iter()
        .map(|s| match *s {
            Square::Num(n) => Square::Num(n_squares + 1 - n),
            Square::Alg { file, rank } => Square::Alg {
                file: (w - 1 - u32::from(file)) as u8,
                rank: (h - 1 - u32::from(rank)) as u8,
            },
        })
        .collect();
    c.push(EditKind::OtherSide, other, kind);
    // The other separator.
    let swapped = match kind {
        MoveKind::Normal => MoveKind::Capture('x'),
        _ => MoveKind::Normal,
    };
    c.push(EditKind::Separator, sq, swapped);
}

/// The legal moves of a position: the squares of each (the full route of a capture), how
/// they are joined, and its start and destination bits.
fn legal_moves(variant: Variant, pos: &VariantPosition) -> Vec<(Vec<Square>, MoveKind, u32, u32)> {
    with_variant!(variant, V => {
        let mut v = Vec::new();
        if let Some(p) = pos.get::<V>() {
            let mut list = MoveList::new();
            V::legal_moves(&p, &mut list);
            let num = V::numbering();
            let alg = num.layout.notation == NotationKind::Algebraic;
            for i in 0..list.len() {
                let m = list.moves()[i];
                let bits = if m.is_capture() {
                    notation::route(V::geometry(), &m, list.path(i))
                } else {
                    vec![u32::from(m.from), u32::from(m.to)]
                };
                let squares: Vec<Square> = bits
                    .iter()
                    .map(|&b| {
                        if alg {
                            let (file, rank) = num.algebraic_of_bit(b);
                            Square::Alg { file, rank }
                        } else {
                            Square::Num(num.number_of_bit(b))
                        }
                    })
                    .collect();
                let kind = if m.is_capture() { MoveKind::Capture('x') } else { MoveKind::Normal };
                v.push((squares, kind, u32::from(m.from), u32::from(m.to)));
            }
        }
        v
    })
}

/// The position before the move at `index` of the main line, from the replay.
fn position_before(g: &Game, index: usize, rec: &Recorder) -> Option<VariantPosition> {
    let Item::Move(x) = g.body.items.get(index)? else {
        return None;
    };
    if let Some((_, before, _)) = rec.positions.iter().find(|(s, _, _)| *s == x.span.start) {
        return Some(*before);
    }
    // Not replayed: after the previous move, if nothing but comments stands between.
    for item in g.body.items[..index].iter().rev() {
        match item {
            Item::Comment(_) | Item::Nag(_) | Item::Variation(_) => {}
            Item::Move(p) => {
                return rec
                    .positions
                    .iter()
                    .find(|(s, _, _)| *s == p.span.start)
                    .map(|(_, _, a)| *a);
            }
            Item::Setup(_) => return None,
        }
    }
    rec.start
}
