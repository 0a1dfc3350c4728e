//! The normal form made by cloning every item of the tree as read: the implementation
//! before the normal form was made in place, kept as the oracle the tests compare the
//! in-place one with (it must give the same tree, item for item).

use crate::rules::Color;
use crate::syntax::{Game, Item, Line, MoveItem, MoveKind, MoveNumber, Nag, Span, Square};

use super::super::plies::{PlyEntry, PlyRecorder};
use super::{
    Ctx, Joined, MAX_DEPTH, Normal, Num, OwnComment, Settings, is_own_comment, keep_errors, num_of,
};
use crate::app::judge::diagnostic::{Code, Diagnostic};
use crate::app::judge::replay::{Branch, Played};

/// Normalise the move tree of `game`; `rec` holds its replay (sorted) and `diagnostics` its
/// findings; `first_mover` is the variant's first mover (`None` if the game could not be
/// replayed: then only the syntactic parts apply).
pub(super) fn normalize(
    game: &Game,
    rec: &PlyRecorder,
    diagnostics: &[Diagnostic],
    first_mover: Option<Color>,
    settings: Settings,
) -> Normal {
    let mut diag_spans: Vec<u32> = diagnostics
        .iter()
        .filter_map(|d| d.span.map(|s| s.start))
        .collect();
    diag_spans.sort_unstable();
    let mut n = Normalizer {
        rec,
        diag_spans,
        first_mover,
        out: Normal::default(),
    };
    let mut items = Vec::with_capacity(game.body.items.len());
    let mut ctx = Ctx::new(Num::START);
    let mut src: &[Item] = &game.body.items;
    if settings.drop_own_comments {
        let keep = src
            .iter()
            .position(|i| !matches!(i, Item::Comment(c) if is_own_comment(&c.text)))
            .unwrap_or(src.len());
        let mut kept = Vec::new();
        for i in &src[..keep] {
            if let Item::Comment(c) = i {
                if OwnComment::of(&c.text) == Some(OwnComment::SyntaxError) {
                    kept.push(i.clone());
                } else {
                    n.out.own_comments.push(c.text.clone());
                }
            }
        }
        items.extend(kept);
        src = &src[keep..];
    }
    n.line(src, &mut ctx, &mut items, 0);
    n.out.body = Line { items };
    keep_errors(game, &mut n.out.body);
    n.out
}

struct Normalizer<'r> {
    rec: &'r PlyRecorder,
    diag_spans: Vec<u32>,
    first_mover: Option<Color>,
    out: Normal,
}

impl Normalizer<'_> {
    fn has_diag(&self, at: u32) -> bool {
        self.diag_spans.binary_search(&at).is_ok()
    }

    /// Walk the items of one source line into `out`, continuing the output line `ctx`.
    fn line(&mut self, src: &[Item], ctx: &mut Ctx, out: &mut Vec<Item>, depth: usize) {
        // The last written square of the previous move of this source line, if that move
        // was replayed (or joined): where a later fragment of a split capture would start.
        let mut chain: Option<(Square, usize)> = None;
        // Alternatives to the coming move, written after it.
        let mut pending: Vec<Item> = Vec::new();
        // A move was written since they were put aside.
        let mut moved = false;
        for item in src {
            if !pending.is_empty() && moved && matches!(item, Item::Move(_) | Item::Setup(_)) {
                out.append(&mut pending);
            }
            match item {
                Item::Move(m) => {
                    let rec = self.rec.find(m.span.start).copied();
                    if rec.is_none()
                        && m.kind != MoveKind::Unknown
                        && let Some((sq, at)) = chain
                        && m.squares.first() == Some(&sq)
                        && !self.has_diag(m.span.start)
                    {
                        // A later fragment of a capture written one jump per move.
                        chain = m.squares.last().map(|&s| (s, at));
                        if let Some(Item::Move(first)) = out.get(at) {
                            let first = first.span;
                            match self.out.joined.last_mut() {
                                Some(j) if j.first == first => j.dropped.push(m.span),
                                _ => self.out.joined.push(Joined {
                                    first,
                                    dropped: vec![m.span],
                                }),
                            }
                        }
                        continue;
                    }
                    chain = match (rec, m.squares.last()) {
                        (Some(_), Some(&sq)) => Some((sq, out.len())),
                        _ => None,
                    };
                    self.push_move(m, rec, ctx, out);
                    moved = true;
                }
                Item::Comment(_) | Item::Nag(_) => out.push(item.clone()),
                Item::Setup(_) => {
                    chain = None;
                    ctx.resync = true;
                    out.push(item.clone());
                }
                Item::Variation(v) => {
                    chain = None;
                    let first = v.line.items.iter().find_map(|i| match i {
                        Item::Move(m) => Some(m),
                        Item::Comment(_) | Item::Nag(_) => None,
                        _ => Some(&NO_MOVE),
                    });
                    let first_rec = first.and_then(|m| self.rec.find(m.span.start));
                    // As the replay read it; else (a game not replayed) from the records.
                    let (reply, next) = match (self.rec.branch(v.span.start), ctx.last, first_rec) {
                        (Some(b), _, _) => {
                            (b == Branch::Reply, b == Branch::Next && ctx.last.is_some())
                        }
                        (None, Some(l), Some(f)) if f.ply == l.ply + 1 => {
                            (f.line == l.line, f.line != l.line)
                        }
                        _ => (false, false),
                    };
                    if reply && depth < MAX_DEPTH {
                        self.out.replies += 1;
                        self.line(&v.line.items, ctx, out, depth + 1);
                    } else {
                        let start = if next {
                            ctx.next
                        } else {
                            ctx.before_last.unwrap_or(ctx.next)
                        };
                        let mut sub = Ctx::new(start);
                        let mut items = Vec::with_capacity(v.line.items.len());
                        if depth < MAX_DEPTH {
                            self.line(&v.line.items, &mut sub, &mut items, depth + 1);
                        }
                        let var = Item::Variation(crate::syntax::Variation {
                            line: Line { items },
                            span: v.span,
                        });
                        if next {
                            if pending.is_empty() {
                                moved = false;
                            }
                            pending.push(var);
                        } else {
                            out.push(var);
                        }
                    }
                }
            }
        }
        out.append(&mut pending);
    }

    fn push_move(
        &mut self,
        m: &MoveItem,
        rec: Option<PlyEntry>,
        ctx: &mut Ctx,
        out: &mut Vec<Item>,
    ) {
        let mut item = m.clone();
        if ctx.resync {
            ctx.next = match (rec, m.number) {
                (Some(r), _) if self.first_mover.is_some() => {
                    let n = num_of(&r, self.first_mover);
                    if r.played == Played::Irregular(Code::WrongSide) {
                        // The number is checked against the side to move, not the mover.
                        Num {
                            second: !n.second,
                            ..n
                        }
                    } else {
                        n
                    }
                }
                (_, Some(t)) => Num {
                    number: t.number,
                    second: t.second_player,
                },
                _ => ctx.next,
            };
            item.number = Some(MoveNumber {
                number: ctx.next.number,
                second_player: ctx.next.second,
                span: m.number.map_or(Span::at(m.span.start), |t| t.span),
            });
            ctx.resync = false;
        } else if ctx.recount {
            item.number = Some(MoveNumber {
                number: ctx.next.number,
                second_player: ctx.next.second,
                span: m.number.map_or(Span::at(m.span.start), |t| t.span),
            });
        } else {
            item.number = None;
        }
        ctx.recount = false;
        let star = item.strength.as_deref() == Some("*");
        if star {
            item.strength = None;
            self.out.stars += 1;
        }
        ctx.before_last = Some(ctx.next);
        let before = ctx.next;
        ctx.next = ctx.next.after();
        if rec.is_some_and(|r| r.played == Played::Irregular(Code::WrongSide)) {
            // A move of the side not to move, played as recorded (a ply is missing): the
            // replay keeps the side to move and counts the move as the mover's (the number
            // goes on after a move of the second player). The next move carries the
            // number, so that reading the output back counts as the replay did.
            ctx.next = Num {
                number: before.number.saturating_add(u32::from(!before.second)),
                second: before.second,
            };
            ctx.recount = true;
        }
        ctx.last = rec;
        out.push(Item::Move(item));
        if star {
            out.push(Item::Nag(Nag {
                value: 7,
                span: m.span,
            }));
        }
    }
}

/// Stands for "something other than a move comes first" in a variation.
static NO_MOVE: MoveItem = MoveItem {
    number: None,
    squares: crate::syntax::Squares::new(),
    kind: MoveKind::Unknown,
    strength: None,
    span: Span::at(u32::MAX),
};

/// The numbers of `normal` (the normal form of `body`) given to the same moves of `body`, by
/// where they start: how `fix` numbered its re-check before [`super::renumber`].
fn renumber(body: &mut Line, normal: &Line) {
    let mut numbers = Vec::new();
    let mut stack = vec![normal];
    while let Some(line) = stack.pop() {
        for item in &line.items {
            match item {
                Item::Move(m) => numbers.push((m.span.start, m.number)),
                Item::Variation(v) => stack.push(&v.line),
                _ => {}
            }
        }
    }
    numbers.reverse();
    numbers.sort_by_key(|&(start, _)| start);
    numbers.dedup_by_key(|&mut (start, _)| start);
    let mut stack = vec![body];
    while let Some(line) = stack.pop() {
        for item in &mut line.items {
            match item {
                Item::Move(m) => {
                    if let Ok(k) = numbers.binary_search_by_key(&m.span.start, |&(s, _)| s) {
                        m.number = numbers[k].1;
                    }
                }
                Item::Variation(v) => stack.push(&mut v.line),
                _ => {}
            }
        }
    }
}

mod tests {
    use std::path::{Path, PathBuf};

    use super::super::super::plies::PlyOptions;
    use super::*;
    use crate::app::judge::validate::{Options, validate_with};
    use crate::syntax::Reader;

    /// The move of `line` (anywhere in the tree) that starts at `start`.
    fn find(line: &Line, start: u32) -> Option<&MoveItem> {
        let mut stack = vec![line];
        while let Some(l) = stack.pop() {
            for item in &l.items {
                match item {
                    Item::Move(m) if m.span.start == start => return Some(m),
                    Item::Variation(v) => stack.push(&v.line),
                    _ => {}
                }
            }
        }
        None
    }

    /// The in-place normal form of `game` is the cloning one's, item for item (and holds the
    /// fragments that one dropped); its numbering in place gives what numbering by the
    /// cloned normal form gave. Returns how many joined captures and replies it saw.
    fn agree(game: &Game, opts: &Options, name: &str) -> (usize, u32) {
        let mut rec = PlyRecorder::new(PlyOptions::default());
        let report = validate_with(game, opts, &mut rec);
        rec.sort();
        let first = report.variant.map(|v| v.rules().first_mover());
        let diags = &report.diagnostics;
        let at = format!("{name}, game {}", game.index);
        let mut seen = (0, 0);
        for drop_own_comments in [false, true] {
            let settings = Settings { drop_own_comments };
            let old = normalize(game, &rec, diags, first, settings);
            let mut new =
                super::super::normalize(game.body.clone(), game, &rec, diags, first, settings);
            let mut dropped: Vec<MoveItem> = old
                .joined
                .iter()
                .flat_map(|j| &j.dropped)
                .map(|s| {
                    find(&game.body, s.start)
                        .expect("a fragment of the tree")
                        .clone()
                })
                .collect();
            dropped.sort_unstable_by_key(|m| (m.span.start, m.span.end));
            assert_eq!(new.fragments, dropped, "{at}");
            for m in &dropped {
                assert_eq!(new.fragment(m.span.start), Some(m), "{at}");
            }
            new.fragments.clear();
            assert_eq!(new, old, "{at}");
            seen = (old.joined.len(), old.replies);
        }
        let normal = normalize(game, &rec, diags, first, Settings::default());
        let mut old = game.body.clone();
        renumber(&mut old, &normal.body);
        let mut new = game.body.clone();
        let numbered = super::super::renumber(&mut new, &rec, diags, first);
        assert_eq!(new, old, "{at}: numbers");
        assert_eq!(
            (numbered.joined, numbered.replies),
            (normal.joined, normal.replies),
            "{at}"
        );
        seen
    }

    fn agree_in(root: &Path) -> (usize, usize, u32) {
        let mut dirs = vec![root.to_path_buf()];
        let (mut games, mut joined, mut replies) = (0, 0, 0);
        while let Some(d) = dirs.pop() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(&d)
                .expect("a directory")
                .map(|e| e.expect("an entry").path())
                .collect();
            entries.sort();
            for p in entries {
                if p.is_dir() {
                    dirs.push(p);
                    continue;
                }
                if !p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdn")) {
                    continue;
                }
                let bytes = std::fs::read(&p).expect("a file");
                let name = p.display().to_string();
                for game in Reader::new(bytes.as_slice()) {
                    let game = game.expect("read from memory");
                    let (j, r) = agree(&game, &Options::default(), &name);
                    games += 1;
                    joined += j;
                    replies += r;
                }
            }
        }
        (games, joined, replies)
    }

    #[test]
    fn the_normal_form_made_in_place_is_the_cloned_one_on_every_fixture() {
        let root = crate::project_root().join("fixtures");
        let (games, joined, replies) = agree_in(&root);
        assert!(games > 200, "{games} games");
        // The fixtures hold book-style replies (no capture written one jump per move: see
        // the test below).
        assert!(replies > 0, "{joined} joined, {replies} replies");
    }

    #[test]
    fn a_line_grows_and_shrinks_over_its_own_slots() {
        // A star on every move (each move followed by `$7`: the line outgrows its slots), a
        // book-style reply (its moves written into the line around it), a variation written
        // before its move (put aside), a capture one jump per move (dropped fragments).
        let text = "[GameType \"20\"]\n1. 32-28* (19-23*) 2. 28x19* (14x23*) 3. 37-32 \
                    {c} 10-14 (4. 41-37 $1 5-10) 4. 33-28 *\n\
                    [GameType \"20\"]\n[FEN \"W:W32:B27,28,17,18,19,12,13,7\"]\n\
                    1. 32x23 23x14 *\n";
        let (mut joined, mut replies) = (0, 0);
        for game in Reader::new(text.as_bytes()) {
            let (j, r) = agree(&game.expect("read"), &Options::default(), "inline");
            joined += j;
            replies += r;
        }
        assert_eq!((joined, replies), (1, 3));
    }

    #[test]
    #[ignore = "reads the whole corpus (minutes in a test build)"]
    fn the_normal_form_made_in_place_is_the_cloned_one_on_the_corpus() {
        let root = std::env::var_os("PDN_CORPUS").map_or_else(
            || crate::project_root().join("../shared/corpus"),
            PathBuf::from,
        );
        assert!(root.is_dir(), "corpus not found at {}", root.display());
        let (games, _, _) = agree_in(&root);
        assert!(games > 100_000, "{games} games");
    }
}
