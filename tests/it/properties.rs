//! Property tests of the rules engine over random games of every variant: material after a
//! move is material before minus the captured set; every legal move is well formed; the
//! notation of every legal move resolves back to it; the captures between two squares are
//! those of the full list; FEN round-trips; colour-flipped positions have equal perft.

use pdn::app::judge::resolve::{MoveSpec, Resolution, Resolver, Separator};
use pdn::rules::fen::SquareName;
use pdn::rules::notation::{self, SquareStyle};
use pdn::rules::perft::{Counting, perft};
use pdn::rules::{
    Bits, Color, MoveList, Piece, Position, Precedence, Removal, Role, Spec, Variant, with_variant,
};
use proptest::prelude::*;

/// Play a random game of `V` chosen by `choices`, checking the invariants at every ply;
/// returns the positions seen.
fn playout<V: Spec>(choices: &[u8]) -> Vec<Position<V::B>> {
    let geo = V::geometry();
    let mut pos = V::start();
    let mut seen = vec![pos];
    let mut list = MoveList::new();
    let mut toward = MoveList::new();
    let mut resolver = Resolver::<V>::new();
    for &c in choices {
        V::legal_moves(&pos, &mut list);
        // "A legal move exists" (answered without a list) is the list's answer.
        assert_eq!(
            V::has_legal_move(&pos),
            !list.is_empty(),
            "{}: {}",
            V::RULES.name,
            V::to_fen(&pos)
        );
        if list.is_empty() {
            break;
        }
        // The captures between two squares (what checking a capture `from x to` reads) are
        // the full list's moves between them, in its order, with its routes; none between
        // the squares of a quiet move.
        for m in list.moves() {
            V::captures_between(&pos, m.from as u32, m.to as u32, &mut toward);
            let want: Vec<_> = list
                .iter()
                .filter(|(x, _)| x.is_capture() && x.from == m.from && x.to == m.to)
                .map(|(x, p)| (*x, p.to_vec()))
                .collect();
            let got: Vec<_> = toward.iter().map(|(x, p)| (*x, p.to_vec())).collect();
            assert_eq!(got, want, "{}: {}", V::RULES.name, V::to_fen(&pos));
        }
        let side = pos.side();
        let ours = pos.pieces(side);
        let theirs = pos.pieces(side.other());
        // Every move well formed; captures all of the precedence the rules demand.
        let n0 = list.moves()[0].num_captured();
        for (i, m) in list.moves().iter().enumerate() {
            assert!(
                ours.has(m.from as u32),
                "{}: move from an empty square",
                V::RULES.name
            );
            // With immediate removal (Turkish, Thai) a capture may end on the square of a
            // piece it took earlier in the same move.
            assert!(
                m.from == m.to
                    || !pos.occupied().has(m.to as u32)
                    || (V::RULES.removal == Removal::Immediate && m.captured.has(m.to as u32)),
                "{}: move to an occupied square",
                V::RULES.name
            );
            assert_eq!(
                m.captured & theirs,
                m.captured,
                "only enemy pieces are captured"
            );
            assert_eq!(
                list.path(i).len() as u32,
                m.num_captured(),
                "one step per capture"
            );
            if V::RULES.precedence == Precedence::Quantity {
                assert_eq!(m.num_captured(), n0, "majority rule");
            }
            assert_eq!(
                m.is_capture(),
                V::has_capture(&pos),
                "capture is compulsory"
            );
        }
        let i = c as usize % list.len();
        let m = list.moves()[i];
        // The move's notation resolves back to it.
        let text =
            notation::write_in_list(geo, V::numbering(), &list, i, SquareStyle::Numeric, 'x');
        let squares: Vec<SquareName> = text
            .split(['x', '-'])
            .map(|s| SquareName::Number(s.parse().unwrap()))
            .collect();
        let sep = if m.is_capture() {
            Separator::Capture
        } else {
            Separator::Quiet
        };
        match resolver.resolve(&pos, &MoveSpec::new(squares, sep)) {
            Resolution::Legal { index, .. } => {
                let r = resolver.legal().moves()[index];
                assert_eq!(
                    (r.from, r.to, r.captured),
                    (m.from, m.to, m.captured),
                    "{text}"
                );
            }
            other => panic!(
                "{}: {text} does not resolve: {other:?} in {}; moves {:?}",
                V::RULES.name,
                V::to_fen(&pos),
                list.moves()
                    .iter()
                    .enumerate()
                    .map(|(j, m)| (m.from, m.to, m.captured, list.path(j).to_vec()))
                    .collect::<Vec<_>>()
            ),
        }
        let after = pos.after(&m, V::RULES);
        // Material: the mover keeps every piece, the opponent loses exactly the captured set.
        assert_eq!(after.pieces(side).count(), ours.count());
        assert_eq!(after.pieces(side.other()), theirs & !m.captured);
        assert!(
            (after.kings() & !after.occupied()).is_empty(),
            "kings are pieces"
        );
        assert!((after.pieces(Color::White) & after.pieces(Color::Black)).is_empty());
        assert_eq!(after.side(), side.other());
        pos = after;
        seen.push(pos);
    }
    seen
}

fn fen_round_trip<V: Spec>(positions: &[Position<V::B>]) {
    for p in positions {
        let text = V::to_fen(p);
        let back = V::from_fen(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(back.placement_key(), p.placement_key(), "{text}");
    }
}

fn flipped_perft<V: Spec>(positions: &[Position<V::B>]) {
    let geo = V::geometry();
    let rotate = |b: u32| {
        let (r, c) = geo.coord(b);
        geo.at(
            geo.height() as i32 - 1 - r as i32,
            geo.width() as i32 - 1 - c as i32,
        )
        .expect("the board is symmetric")
    };
    // A few positions along the game, shallow depth (the tree below is random).
    for p in positions.iter().step_by(7).take(4) {
        let f = p.flipped(rotate);
        assert_eq!(
            perft::<V>(p, 3, Counting::Drop),
            perft::<V>(&f, 3, Counting::Drop),
            "{} {}",
            V::RULES.name,
            V::to_fen(p)
        );
    }
}

proptest! {
    // 48 cases in CI; PROPTEST_CASES asks for more (a deeper run by hand).
    #![proptest_config(crate::support::proptest_config("properties", 48))]

    #[test]
    fn random_games_keep_every_invariant(
        variant in 0..Variant::ALL.len(),
        choices in proptest::collection::vec(any::<u8>(), 0..160),
    ) {
        let v = Variant::ALL[variant];
        with_variant!(v, V => {
            let seen = playout::<V>(&choices);
            fen_round_trip::<V>(&seen);
            flipped_perft::<V>(&seen);
        });
    }
}

/// A position of `V` from one value per square (most empty, then men and kings of both
/// sides; no kings unless `kings`; no man on the row where it would have been crowned).
fn placement<V: Spec>(cells: &[u8], kings: bool, side: Color) -> Position<V::B> {
    let geo = V::geometry();
    let mut pos = Position::empty(side);
    for (bit, &c) in geo.mask.iter().zip(cells) {
        let (color, king) = match c {
            7..=9 => (Color::White, false),
            10..=12 => (Color::Black, false),
            13 => (Color::White, kings),
            14 => (Color::Black, kings),
            _ => continue,
        };
        if !king && geo.promotion_row(color).has(bit) {
            continue;
        }
        let role = if king { Role::King } else { Role::Man };
        pos.put(bit, Piece { color, role });
    }
    pos
}

proptest! {
    // Each case is a few hundred cheap searches: more cases than for whole games.
    #![proptest_config(crate::support::proptest_config("properties", 256))]

    /// On crowded and thinned-out random boards (many captures, of one jump or several, with
    /// and without kings): the captures between any piece of the side to move and any square are the
    /// full list's captures between them, with their routes; "a capture exists" and "a legal
    /// move exists" are the full list's answers; where the one-jump answer
    /// (`Spec::one_jump_between`, the replay's capture without a move list) answers, it is
    /// the full list's too.
    #[test]
    fn captures_between_any_two_squares_are_the_full_lists(
        variant in 0..Variant::ALL.len(),
        cells in proptest::collection::vec(0u8..16, 72),
        kings in any::<bool>(),
        black in any::<bool>(),
        thin in 0usize..3,
    ) {
        let v = Variant::ALL[variant];
        let side = if black { Color::Black } else { Color::White };
        // Boards thinned out a third or two thirds of the time: kings with room, that can
        // capture or not (the one-jump answer holds where no king of the side can).
        let cells: Vec<u8> = cells
            .iter()
            .enumerate()
            .map(|(i, &c)| if i % 3 < thin { 0 } else { c })
            .collect();
        with_variant!(v, V => {
            let pos = placement::<V>(&cells, kings, side);
            let mut list = MoveList::new();
            let mut toward = MoveList::new();
            V::legal_moves(&pos, &mut list);
            let captures = list.moves().first().is_some_and(|m| m.is_capture());
            prop_assert_eq!(V::has_capture(&pos), captures, "{}", V::to_fen(&pos));
            prop_assert_eq!(V::has_legal_move(&pos), !list.is_empty(), "{}", V::to_fen(&pos));
            for from in pos.pieces(side).iter() {
                for to in V::geometry().mask.iter() {
                    V::captures_between(&pos, from, to, &mut toward);
                    let want: Vec<_> = list
                        .iter()
                        .filter(|(x, _)| {
                            x.is_capture() && x.from as u32 == from && x.to as u32 == to
                        })
                        .map(|(x, p)| (*x, p.to_vec()))
                        .collect();
                    match V::one_jump_between(V::geometry(), &pos, from, to) {
                        Some(Some((m, step))) => prop_assert_eq!(
                            vec![(m, vec![step])], want.clone(),
                            "{}: {} {} {}", V::RULES.name, V::to_fen(&pos), from, to
                        ),
                        Some(None) => prop_assert!(
                            want.is_empty(),
                            "{}: {} {} {}", V::RULES.name, V::to_fen(&pos), from, to
                        ),
                        None => {}
                    }
                    let got: Vec<_> = toward.iter().map(|(x, p)| (*x, p.to_vec())).collect();
                    prop_assert_eq!(got, want, "{}: {} {} {}", V::RULES.name, V::to_fen(&pos), from, to);
                }
            }
        });
    }
}

/// Every file under `dir`, recursively.
fn all_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            all_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The seeds of past failures are in one place, `proptest-regressions/`, and proptest reads
/// every one of them before new cases: the integration tests' from the file their
/// configuration names (`proptest-regressions/it/`, from the tests' working directory), the
/// library's where proptest looks for a source file of `src/` (`proptest-regressions/app/…`).
/// No seed file lies anywhere else, where nothing would replay it.
#[test]
fn seed_files_are_in_one_place_and_replayed() {
    use proptest::test_runner::{FailurePersistence, FileFailurePersistence};

    use crate::support::{PROPERTY_MODULES, seed_file};

    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for dir in ["src", "tests"] {
        let mut files = Vec::new();
        all_files(&root.join(dir), &mut files);
        for f in files {
            let name = f.display().to_string();
            assert!(
                !name.contains("proptest-regressions"),
                "{name}: a seed file that no test replays"
            );
        }
    }
    let count = |text: &str| text.lines().filter(|l| l.starts_with("cc ")).count();
    for module in PROPERTY_MODULES {
        let path = seed_file(module);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let leaked: &'static str = Box::leak(path.clone().into_boxed_str());
        let seeds = FileFailurePersistence::Direct(leaked).load_persisted_failures2(None);
        assert_eq!(seeds.len(), count(&text), "{path}: every seed read");
        assert!(!seeds.is_empty(), "{path}");
    }
    let mut files = Vec::new();
    all_files(&root.join("proptest-regressions"), &mut files);
    for f in files {
        let rel = f.strip_prefix(root.join("proptest-regressions")).unwrap();
        let rel = rel.to_str().unwrap();
        if let Some(m) = rel.strip_prefix("it/") {
            let m = m.strip_suffix(".txt").unwrap_or(m);
            assert!(
                PROPERTY_MODULES.contains(&m),
                "{rel}: no module of tests/it reads it"
            );
        } else {
            // The library's: proptest reads `proptest-regressions/X.txt` for `src/X.rs`.
            let source = root.join("src").join(rel.replace(".txt", ".rs"));
            let text = std::fs::read_to_string(&source).unwrap_or_default();
            assert!(
                text.contains("proptest!"),
                "{rel}: no property test in {}",
                source.display()
            );
            let leaked: &'static str = Box::leak(f.display().to_string().into_boxed_str());
            let seeds = FileFailurePersistence::Direct(leaked).load_persisted_failures2(None);
            let n = count(&std::fs::read_to_string(&f).unwrap());
            assert_eq!(seeds.len(), n, "{rel}: every seed read");
        }
    }
}
