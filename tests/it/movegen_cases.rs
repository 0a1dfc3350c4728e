//! Every case of `../shared/corpus/movegen-cases.json`: expected move counts, move lists,
//! capture routes and captured sets from third-party test suites.

use crate::support as common;

use std::collections::BTreeSet;

use pdn::rules::notation::{self, SquareStyle};
use pdn::rules::{Bits, MoveList, Options, Position, Spec, spec};
use serde_json::Value;

fn cases() -> Vec<Value> {
    let text = std::fs::read_to_string(common::corpus().join("movegen-cases.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["cases"].as_array().unwrap().clone()
}

struct Listed {
    routes: BTreeSet<String>,
    /// (from, to, captured squares sorted) in the variant's notation.
    moves: BTreeSet<(String, String, Vec<String>)>,
    captures: Vec<u32>,
}

fn list<V: Spec>(pos: &Position<V::B>, keep_duplicates: bool) -> Listed {
    let mut l = MoveList::new();
    V::relaxed_moves(
        pos,
        V::RULES,
        Options {
            keep_duplicates,
            ..Options::default()
        },
        &mut l,
    );
    let name = |b: u32| notation::square_name(V::numbering(), b, SquareStyle::Native);
    let mut out = Listed {
        routes: BTreeSet::new(),
        moves: BTreeSet::new(),
        captures: Vec::new(),
    };
    for i in 0..l.len() {
        let m = l.moves()[i];
        out.routes.insert(notation::write(
            V::geometry(),
            V::numbering(),
            &m,
            l.path(i),
            true,
            SquareStyle::Native,
            V::RULES.capture_separator,
        ));
        let mut caps: Vec<String> = m.captured.iter().map(name).collect();
        caps.sort();
        out.moves
            .insert((name(m.from as u32), name(m.to as u32), caps));
        out.captures.push(m.num_captured());
    }
    out
}

fn strings(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

fn check_numeric_fen<V: Spec>(case: &Value) {
    let id = case["id"].as_str().unwrap();
    let fen = case["fen"].as_str().unwrap();
    let pos = V::from_fen(fen).unwrap_or_else(|e| panic!("{id}: {e}"));
    let drop = list::<V>(&pos, false);
    let keep = list::<V>(&pos, true);
    let mut checked = 0;
    if let Some(n) = case["expected_legal_move_count"].as_u64() {
        assert_eq!(drop.routes.len() as u64, n, "{id}: {:?}", drop.routes);
        checked += 1;
    }
    if let Some(n) = case["expected_distinct_moves_drop_duplicates"].as_u64() {
        assert_eq!(drop.moves.len() as u64, n, "{id}: {:?}", drop.routes);
        checked += 1;
    }
    for key in [
        "expected_moves",
        "expected_moves_algebraic",
        "expected_moves_algebraic_full",
    ] {
        if !case[key].is_null() {
            // The source lists one route per move, or (rus-circular-king-capture) both
            // routes of a duplicate: ours must lie between one-per-move and every route.
            let want = strings(&case[key]);
            assert!(
                drop.routes.is_subset(&want),
                "{id} {key}: {:?}",
                drop.routes
            );
            assert!(
                want.is_subset(&keep.routes),
                "{id} {key}: {:?}",
                keep.routes
            );
            checked += 1;
        }
    }
    if !case["expected_includes_algebraic"].is_null() {
        assert!(
            strings(&case["expected_includes_algebraic"]).is_subset(&drop.routes),
            "{id}"
        );
        checked += 1;
    }
    if !case["captured"].is_null() {
        // Captured sets, one per expected move (numeric squares).
        let want: BTreeSet<Vec<String>> = case["captured"]
            .as_array()
            .unwrap()
            .iter()
            .map(|set| {
                let mut v: Vec<String> = set
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_u64().unwrap().to_string())
                    .collect();
                v.sort();
                v
            })
            .collect();
        let got: BTreeSet<Vec<String>> = drop.moves.iter().map(|m| m.2.clone()).collect();
        assert_eq!(got, want, "{id} captured sets");
        checked += 1;
    }
    if !case["captured_algebraic"].is_null() {
        let want: BTreeSet<Vec<String>> = case["captured_algebraic"]
            .as_array()
            .unwrap()
            .iter()
            .map(|set| {
                let mut v: Vec<String> = strings(set).into_iter().collect();
                v.sort();
                v
            })
            .collect();
        let got: BTreeSet<Vec<String>> = drop.moves.iter().map(|m| m.2.clone()).collect();
        assert_eq!(got, want, "{id} captured sets");
        checked += 1;
    }
    if let Some(distinct) = case["expected_distinct_moves"].as_array() {
        let want: BTreeSet<(String, String, Vec<String>)> = distinct
            .iter()
            .map(|m| {
                let mut caps: Vec<String> = m["captured"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_u64().unwrap().to_string())
                    .collect();
                caps.sort();
                (m["from"].to_string(), m["to"].to_string(), caps)
            })
            .collect();
        assert_eq!(drop.moves, want, "{id}");
        checked += 1;
    }
    if !case["expected_paths"].is_null() {
        // Every route we list when counting routes is one the source lists. (pydraughts also
        // lists a route that "lands" on a further square and flies straight on; that is the
        // same movement and the same move, see the perft "keep" convention.)
        let want = strings(&case["expected_paths"]);
        assert!(
            keep.routes.is_subset(&want),
            "{id}: {:?} ⊄ {want:?}",
            keep.routes
        );
        // And every listed route leads to one of our moves (same start, end and pieces).
        for path in &want {
            let squares: Vec<&str> = path.split(['x', ':']).collect();
            let (from, to) = (squares[0], squares[squares.len() - 1]);
            assert!(
                drop.moves.iter().any(|m| m.0 == from && m.1 == to),
                "{id}: {path}"
            );
        }
        checked += 1;
    }
    assert!(checked > 0, "{id}: nothing was checked");
}

fn turkish(case: &Value) {
    let id = case["id"].as_str().unwrap();
    let kings: BTreeSet<String> = strings(&case["kings"])
        .into_iter()
        .map(|s| s.to_lowercase())
        .collect();
    let square = |s: &str| -> String {
        let sq = s.split_whitespace().next().unwrap().to_lowercase();
        if kings.contains(&sq) {
            format!("K{sq}")
        } else {
            sq
        }
    };
    let white: Vec<String> = case["white"]
        .as_str()
        .unwrap()
        .split(',')
        .map(square)
        .collect();
    let black: Vec<String> = case["black"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| square(s.as_str().unwrap()))
        .collect();
    let side = if case["white_to_move"].as_bool().unwrap() {
        "W"
    } else {
        "B"
    };
    let fen = format!("{side}:W{}:B{}", white.join(","), black.join(","));
    let pos = spec::Turkish::from_fen(&fen).unwrap_or_else(|e| panic!("{id} {fen}: {e}"));
    let l = list::<spec::Turkish>(&pos, false);
    let max = l.captures.iter().copied().max().unwrap_or(0);
    let all = |n: u32| !l.captures.is_empty() && l.captures.iter().all(|&c| c == n);
    let ok = match id {
        "turkish-01" => l.routes == ["d4xd6".to_string()].into(),
        "turkish-02" => l.routes.len() == 1 && all(1),
        "turkish-03" => max == 0 && !l.routes.is_empty(),
        "turkish-04" => {
            l.routes
                == ["a4xe4", "a4xf4", "a4xg4", "a4xh4"]
                    .map(String::from)
                    .into()
        }
        "turkish-05" => max == 0,
        "turkish-06" | "turkish-07" | "turkish-09" | "turkish-12" => all(2),
        "turkish-08" => l.routes.len() == 3 && all(1),
        "turkish-10" | "turkish-11" => max == 1,
        other => panic!("unknown Turkish case {other}"),
    };
    assert!(
        ok,
        "{id} ({}): {fen} gives {:?}",
        case["expected"], l.routes
    );
}

#[test]
fn every_movegen_case() {
    let mut ran = 0;
    for case in cases() {
        match case["variant"].as_str().unwrap() {
            "international" => check_numeric_fen::<spec::International>(&case),
            "russian" => check_numeric_fen::<spec::Russian>(&case),
            "turkish" => turkish(&case),
            other => panic!("unknown variant {other}"),
        }
        ran += 1;
    }
    assert_eq!(ran, 37);
}
