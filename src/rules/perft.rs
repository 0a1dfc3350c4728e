//! Perft: count the leaf nodes of the legal-move tree to a fixed depth, the move generator's
//! contract with the published tables (`perft.tsv`). Draw rules are ignored, a position
//! without moves contributes no leaf, as in the reference engines.

use super::movegen::{self, Config, Fixed, Options, Relaxed};
use super::position::{MoveList, Position};
use super::{Bits, Spec};

/// How capture routes are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Counting {
    /// One move per (from, to, captured set): the FMJD rule ("drop duplicates").
    #[default]
    Drop,
    /// Every capture route counts ("keep duplicates", dctl's convention).
    Keep,
    /// Every capture route counts, and so does every landing square a flying king may fly
    /// straight on from (the convention of kish, the source of the Turkish table).
    KeepLandings,
}

/// Leaf count of the legal-move tree from `pos` at `depth`.
pub fn perft<V: Spec>(pos: &Position<V::B>, depth: u32, counting: Counting) -> u64 {
    let mut lists = lists::<V::B>(depth);
    match counting {
        Counting::Drop => walk::<V, _>(Fixed::<V>::new(), pos, depth, &mut lists),
        Counting::Keep | Counting::KeepLandings => {
            walk::<V, _>(keep::<V>(counting), pos, depth, &mut lists)
        }
    }
}

/// Perft per root move: each legal move written in PDN with the leaf count below it.
pub fn divide<V: Spec>(pos: &Position<V::B>, depth: u32, counting: Counting) -> Vec<(String, u64)> {
    let mut root = MoveList::new();
    match counting {
        Counting::Drop => V::legal_moves(pos, &mut root),
        Counting::Keep | Counting::KeepLandings => {
            V::relaxed_moves(pos, V::RULES, keep::<V>(counting).options, &mut root)
        }
    }
    let mut out = Vec::with_capacity(root.len());
    let mut lists = lists::<V::B>(depth);
    for i in 0..root.len() {
        let m = root.moves()[i];
        let child = pos.after(&m, V::RULES);
        let text = super::notation::write(
            V::geometry(),
            V::numbering(),
            &m,
            root.path(i),
            super::notation::is_ambiguous(&root, i) || counting != Counting::Drop,
            super::notation::SquareStyle::Native,
            V::RULES.capture_separator,
        );
        let n = if depth <= 1 {
            1
        } else {
            match counting {
                Counting::Drop => walk::<V, _>(Fixed::<V>::new(), &child, depth - 1, &mut lists),
                Counting::Keep | Counting::KeepLandings => {
                    walk::<V, _>(keep::<V>(counting), &child, depth - 1, &mut lists)
                }
            }
        };
        out.push((text, n));
    }
    out
}

fn keep<V: Spec>(counting: Counting) -> Relaxed<'static> {
    Relaxed {
        rules: V::RULES,
        options: Options {
            keep_duplicates: true,
            every_landing: counting == Counting::KeepLandings,
            ..Options::default()
        },
    }
}

fn lists<B: Bits>(depth: u32) -> Vec<MoveList<B>> {
    (0..depth.max(1))
        .map(|_| MoveList::without_paths())
        .collect()
}

fn walk<V: Spec, C: Config>(
    cfg: C,
    pos: &Position<V::B>,
    depth: u32,
    lists: &mut [MoveList<V::B>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let Some((list, rest)) = lists.split_last_mut() else {
        return 0;
    };
    let moves = movegen::Gen {
        geo: V::geometry(),
        cfg,
        pos,
    };
    if depth == 1 {
        return moves.count(list);
    }
    moves.generate(list);
    let mut n = 0;
    for m in list.moves() {
        let child = pos.after(m, V::RULES);
        n += walk::<V, C>(cfg, &child, depth - 1, rest);
    }
    n
}
