//! The project's own syntax fixtures (`fixtures/syntax/`): a strict file the writer
//! reproduces byte for byte, a file of every tolerated construct, and a file of syntax
//! errors with the positions and messages the reader gives.

use crate::support::syntax as support;

use std::collections::BTreeSet;

use pdn::syntax::{Game, ToleratedKind, read_games};
use support::{round_trip, write_all};

fn fixture(name: &str) -> (String, Vec<Game>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/syntax")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let games = read_games(text.as_bytes());
    (text, games)
}

#[test]
fn strict_file_is_written_back_byte_for_byte() {
    let (text, games) = fixture("strict.pdn");
    assert_eq!(games.len(), 2);
    for g in &games {
        assert!(
            g.is_strict(),
            "game {}: {:?} {:?}",
            g.index,
            g.errors,
            g.notes
        );
    }
    assert_eq!(games[0].tag("Black"), Some("Sijbrands, Ton \"The Master\""));
    assert_eq!(write_all(&games), text);
}

#[test]
fn tolerated_constructs_are_read_and_named() {
    let (_, games) = fixture("tolerant.pdn");
    assert_eq!(games.len(), 9);
    for g in &games {
        assert!(g.errors.is_empty(), "game {}: {:?}", g.index, g.errors);
    }
    let results: Vec<Option<&str>> = games
        .iter()
        .map(|g| g.result.as_ref().map(|r| r.text.as_str()))
        .collect();
    assert_eq!(
        results,
        [
            Some("2-0"),
            Some("1 - 1"),
            Some("4-6"),
            None,
            Some("0-2"),
            Some("½-½"),
            Some("0.5-0.5"),
            Some("0-2"),
            Some("0-0")
        ]
    );
    use ToleratedKind::*;
    let kinds: BTreeSet<ToleratedKind> = games
        .iter()
        .flat_map(|g| g.notes.iter().map(|n| n.kind))
        .collect();
    let expected: BTreeSet<ToleratedKind> = [
        OddTagName,
        MultilineTagValue,
        LeadingZeros,
        CaptureSeparator,
        SpacesInMove,
        UndividedNumericMove,
        SpaceBeforeStrength,
        StarStrength,
        UnknownMove,
        MoveNumberWithoutMove,
        StrayDot,
        SemicolonComment,
        ResultAsSeparator,
        NonStandardResult,
        GamesNotSeparated,
        GluedResult,
        LocalisedTagName,
    ]
    .into();
    assert_eq!(kinds, expected);
    let moves: Vec<usize> = games.iter().map(|g| g.body.moves().count()).collect();
    assert_eq!(moves, [6, 2, 10, 3, 0, 4, 1, 2, 2]);
    for g in &games {
        for n in &g.notes {
            assert!(!n.description().is_empty());
        }
    }
    round_trip(&games).unwrap();
}

#[test]
fn syntax_errors_cost_only_their_own_game() {
    let (_, games) = fixture("errors.pdn");
    let errors: Vec<Vec<(u32, u32, String)>> = games
        .iter()
        .map(|g| {
            g.errors
                .iter()
                .map(|e| {
                    let (l, c) = g.line_col(e.span.start);
                    let first: String = e.message.split(':').next().unwrap_or("").to_owned();
                    (l, c, first)
                })
                .collect()
        })
        .collect();
    let e = |l, c, m: &str| (l, c, m.to_owned());
    assert_eq!(
        errors,
        [
            vec![
                e(1, 1, "tag pair without a name"),
                e(3, 29, "nested comment"),
                e(3, 39, "unexpected `draw?`"),
                e(3, 54, "unmatched `)`"),
                e(3, 56, "`$` without a number"),
                e(3, 58, "unterminated variation"),
            ],
            vec![e(6, 10, "unterminated comment")],
            vec![e(8, 10, "unterminated variation")],
        ]
    );
    // Everything around the errors is kept.
    assert_eq!(games[0].tag("Event"), None);
    assert_eq!(games[0].tag("Site"), Some("fine"));
    assert_eq!(games[0].body.moves().count(), 3);
    assert_eq!(games[1].tag("Event"), Some("after the errors"));
    assert_eq!(games[2].tag("Event"), Some("still read"));
    assert_eq!(games[2].body.moves().count(), 1);
    round_trip(&games).unwrap();
}
