//! Perft for every variant against the published tables in `../shared/corpus/perft.tsv`.
//!
//! CI runs every row whose node count is at most `CI_NODES`; the deeper rows are in the
//! `#[ignore]`d test `perft_deep`, run by `scripts/bench.sh`.

use crate::support as common;

use std::collections::BTreeMap;
use std::sync::LazyLock;

use pdn::rules::perft::{Counting, perft};
use pdn::rules::{
    Color, ENGLISH, Geometry, INTERNATIONAL, Layout, NotationKind, Numbering, Position, Rules,
    Shape, Spec, fen, spec,
};

const CI_NODES: u64 = 3_000_000;
const DEEP_NODES: u64 = 300_000_000;

struct Row {
    variant: String,
    position: String,
    fen: String,
    counting: Counting,
    depth: u32,
    nodes: u64,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(common::corpus().join("perft.tsv")).unwrap();
    let mut out = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let counting = match f[3] {
            "drop" => Counting::Drop,
            "keep" => Counting::Keep,
            // kish (Turkish) lists a king's landing squares as separate actions even where it
            // flies straight on.
            "kish" => Counting::KeepLandings,
            other => panic!("unknown counting {other}"),
        };
        out.push(Row {
            variant: f[0].to_string(),
            position: f[1].to_string(),
            // Some rows add a note after the FEN: "W:W21-32:B1-12 (lidraughts: …)".
            fen: f[2].split(' ').next().unwrap_or("").to_string(),
            counting,
            depth: f[4].parse().unwrap(),
            nodes: f[5].parse().unwrap(),
        });
    }
    out
}

/// International rules on another diagonal board (the "international rules, WxH" rows):
/// the same geometry model, only the board differs.
macro_rules! board_spec {
    ($name:ident, $bits:ty, $w:expr, $h:expr, $base:expr, $first:expr, $corner:expr, $fen:expr) => {
        struct $name;
        impl Spec for $name {
            type B = $bits;
            const RULES: &'static Rules = &Rules {
                shape: Shape::Diagonal {
                    width: $w,
                    height: $h,
                },
                layout: Layout {
                    first: $first,
                    width: $w,
                    height: $h,
                    notation: NotationKind::Numeric,
                    corner: $corner,
                    invert: false,
                    full: false,
                },
                start_fen: $fen,
                ..$base
            };
            fn geometry() -> &'static Geometry<$bits> {
                static G: LazyLock<Geometry<$bits>> = LazyLock::new(|| {
                    Geometry::new(Shape::Diagonal {
                        width: $w,
                        height: $h,
                    })
                });
                &G
            }
            fn numbering() -> &'static Numbering {
                static N: LazyLock<Numbering> =
                    LazyLock::new(|| Numbering::new($name::RULES.layout, $name::geometry()));
                &N
            }
        }
    };
}

board_spec!(
    Intl6x6,
    u64,
    6,
    6,
    INTERNATIONAL,
    Color::White,
    2,
    "W:W13-18:B1-6"
);
board_spec!(
    Intl12x10,
    u128,
    12,
    10,
    INTERNATIONAL,
    Color::White,
    2,
    "W:W37-60:B1-24"
);
board_spec!(
    Intl14x14,
    u128,
    14,
    14,
    INTERNATIONAL,
    Color::White,
    2,
    "W:W57-98:B1-42"
);
// perft.md says "8 wide x 10", but dctl's `spantsiretti` board is 10 wide and 8 high
// (as PDN's GameType 41 says), three rows of men each.
board_spec!(
    Intl10x8,
    u64,
    10,
    8,
    INTERNATIONAL,
    Color::White,
    2,
    "W:W26-40:B1-15"
);
board_spec!(
    Checkers6x6,
    u64,
    6,
    6,
    ENGLISH,
    Color::Black,
    1,
    "B:W13-18:B1-6"
);

fn start_or_fen<V: Spec>(row: &Row) -> Position<V::B> {
    if row.fen.starts_with(['W', 'B']) && row.fen.contains(':') {
        V::from_fen(&row.fen).unwrap_or_else(|e| panic!("{}: {e}", row.fen))
    } else {
        V::start()
    }
}

fn count(row: &Row) -> Option<u64> {
    fn go<V: Spec>(row: &Row) -> u64 {
        perft::<V>(&start_or_fen::<V>(row), row.depth, row.counting)
    }
    fn go_fen<V: Spec>(row: &Row, fen_text: &str) -> u64 {
        let pos = V::from_fen(fen_text).unwrap();
        perft::<V>(&pos, row.depth, row.counting)
    }
    Some(match row.variant.as_str() {
        "international" => go::<spec::International>(row),
        "english/american checkers" => go::<spec::English>(row),
        "russian" => go::<spec::Russian>(row),
        "brazilian" => go::<spec::Brazilian>(row),
        "pool (American pool)" => go::<spec::Pool>(row),
        "czech" => go::<spec::Czech>(row),
        "spanish" => go::<spec::Spanish>(row),
        "italian" => go::<spec::Italian>(row),
        "canadian (12x12)" => go::<spec::Canadian>(row),
        "frisian" => go::<spec::Frisian>(row),
        "turkish" => go::<spec::Turkish>(row),
        // dctl counts Thai perft from `initial(2)`: three rows of men each, not the two rows
        // of the Thai start position (its first nine depths equal English checkers).
        "thai" => go_fen::<spec::Thai>(row, "B:W1-12:B21-32"),
        "international rules, 6x6" => go::<Intl6x6>(row),
        "international rules, 12x10" => go::<Intl12x10>(row),
        "international rules, 14x14" => go::<Intl14x14>(row),
        "international rules, Spantsiretti 8x10" => go::<Intl10x8>(row),
        "checkers rules, 6x6" => go::<Checkers6x6>(row),
        // Killer draughts (a king capturing a king must stop behind it) is not a PDN
        // GameType and not implemented.
        "killer (10x10)" => return None,
        other => panic!("perft.tsv names an unknown variant `{other}`"),
    })
}

fn check(limit_low: u64, limit_high: u64) {
    let mut failures = Vec::new();
    let mut ran: BTreeMap<String, u32> = BTreeMap::new();
    for row in rows() {
        if row.nodes < limit_low || row.nodes > limit_high {
            continue;
        }
        let Some(got) = count(&row) else { continue };
        *ran.entry(format!("{} {}", row.variant, row.position))
            .or_default() += 1;
        if got != row.nodes {
            failures.push(format!(
                "{} {} {:?} depth {}: expected {}, got {got}",
                row.variant, row.position, row.counting, row.depth, row.nodes
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "perft mismatches:\n{}",
        failures.join("\n")
    );
    assert!(!ran.is_empty());
    eprintln!("perft rows checked: {ran:?}");
}

#[test]
fn perft_every_variant_ci_depths() {
    check(0, CI_NODES);
}

#[test]
fn perft_ci_covers_every_variant() {
    // Every implemented variant of the table has at least one row in the CI range.
    let names: std::collections::BTreeSet<String> = rows()
        .into_iter()
        .filter(|r| r.nodes <= CI_NODES)
        .map(|r| r.variant)
        .collect();
    for v in [
        "international",
        "english/american checkers",
        "russian",
        "brazilian",
        "pool (American pool)",
        "czech",
        "spanish",
        "italian",
        "canadian (12x12)",
        "frisian",
        "turkish",
        "thai",
    ] {
        assert!(names.contains(v), "{v}");
    }
}

#[test]
#[ignore = "deep perft: minutes; run by scripts/bench.sh"]
fn perft_deep() {
    check(CI_NODES + 1, DEEP_NODES);
}

#[test]
fn the_must_show_figures() {
    // Issue 2 "Must show": international d7, english d8, canadian d6.
    let n = perft::<spec::International>(&spec::International::start(), 7, Counting::Drop);
    assert_eq!(n, 1_049_442);
    let n = perft::<spec::English>(&spec::English::start(), 8, Counting::Drop);
    assert_eq!(n, 845_931);
    let n = perft::<spec::Canadian>(&spec::Canadian::start(), 6, Counting::Drop);
    assert_eq!(n, 584_100);
}

#[test]
fn colour_flipped_positions_have_equal_perft() {
    // Property: turning the board 180° and swapping colours changes nothing.
    fn flip<V: Spec>(fen_text: &str, depth: u32) {
        let geo = V::geometry();
        let pos = V::from_fen(fen_text).unwrap();
        let rotate = |b: u32| {
            let (r, c) = geo.coord(b);
            geo.at(
                geo.height() as i32 - 1 - r as i32,
                geo.width() as i32 - 1 - c as i32,
            )
            .unwrap()
        };
        let flipped = pos.flipped(rotate);
        for counting in [Counting::Drop, Counting::Keep] {
            assert_eq!(
                perft::<V>(&pos, depth, counting),
                perft::<V>(&flipped, depth, counting),
                "{fen_text}: {}",
                fen::write(&flipped, V::numbering())
            );
        }
    }
    flip::<spec::International>(
        "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
        4,
    );
    flip::<spec::International>(
        "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
        7,
    );
    flip::<spec::Russian>("W:W21-32:B1-12", 6);
    flip::<spec::Frisian>("W:W31-50:B1-20", 5);
    flip::<spec::Italian>("W:WK27,K28,17,20,9,K12,8:B21,24,K19,K13,14,K11,4", 4);
    flip::<spec::Turkish>(spec::Turkish::RULES.start_fen, 5);
    flip::<spec::Canadian>("W:W43-72:B1-30", 4);
}
