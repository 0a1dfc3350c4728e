//! The syntax layer against the real corpus (`../shared/corpus`, or `$PDN_CORPUS`; a
//! missing corpus fails): the FMJD `succeed/` files read without syntax errors and survive
//! a write/read round trip; each `fail/` file reports its defect and keeps every readable
//! game; every other archive loses no game against an independent count.

use crate::support as common;
use crate::support::syntax as support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pdn::syntax::{Game, ToleratedKind, read_games};
use support::{independent_count, read_with_buffer, round_trip};

fn all_pdn() -> Vec<PathBuf> {
    let mut v = Vec::new();
    common::pdn_files(&common::corpus(), &mut v);
    assert_eq!(v.len(), 2742, "corpus incomplete: PDN files");
    v
}

fn rel(p: &Path) -> String {
    p.strip_prefix(common::corpus())
        .unwrap_or(p)
        .display()
        .to_string()
}

fn is_suite(p: &Path, kind: &str) -> bool {
    let s = p.to_string_lossy();
    s.contains("fmjd-pdn-testsuite") && s.contains(&format!("/{kind}/"))
}

fn read(p: &Path) -> (Vec<u8>, Vec<Game>) {
    let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let games = read_games(&bytes);
    (bytes, games)
}

fn notes(games: &[Game]) -> BTreeMap<ToleratedKind, u32> {
    let mut m = BTreeMap::new();
    for g in games {
        for n in &g.notes {
            *m.entry(n.kind).or_insert(0) += n.count;
        }
    }
    m
}

#[test]
fn succeed_files_read_without_syntax_errors_and_round_trip() {
    let succeed: Vec<_> = all_pdn()
        .into_iter()
        .filter(|p| is_suite(p, "succeed"))
        .collect();
    assert_eq!(succeed.len(), 39, "the FMJD succeed/ suite has 39 files");
    let mut total = 0;
    for p in &succeed {
        let (bytes, games) = read(p);
        assert!(!games.is_empty(), "{}: no game", rel(p));
        for g in &games {
            assert!(
                g.errors.is_empty(),
                "{} game {} (line {}): {:?}",
                rel(p),
                g.index,
                g.line,
                g.errors
            );
        }
        if let Err(e) = round_trip(&games) {
            panic!("{}: {e}", rel(p));
        }
        // Streaming with a tiny buffer gives the same games.
        assert_eq!(read_with_buffer(&bytes, 7), games, "{}", rel(p));
        total += games.len();
    }
    assert_eq!(total, 1978, "games in the succeed/ files");
}

/// What each `fail/` file does wrong, how the reader reports it, and how many games a
/// person can read in it (all of them, in every file).
#[test]
fn fail_files_report_their_defect_and_keep_every_game() {
    struct Expect {
        file: &'static str,
        games: usize,
        errors: usize,
        notes: &'static [(ToleratedKind, u32)],
    }
    use ToleratedKind::*;
    let expect = [
        // `1. 0-2` / `1. 2-0` (three forfeited games): a move number with no move, which the
        // PDN grammar cannot derive. A person reads an empty game with its result, so this
        // is tolerated (the dangling number is dropped), not an error.
        Expect {
            file: "czech/fmjd-pdn-testsuite/fail/mrdrcd07.pdn",
            games: 72,
            errors: 0,
            notes: &[(MoveNumberWithoutMove, 3), (ResultAsSeparator, 72)],
        },
        // The same defect once: `1. 1-0`.
        Expect {
            file: "czech/fmjd-pdn-testsuite/fail/mrdrcd08.pdn",
            games: 40,
            errors: 0,
            notes: &[(MoveNumberWithoutMove, 1), (ResultAsSeparator, 40)],
        },
        // One game (Bubbi–Veronesi, `1. 34-29 19-23`) has no result before the next tag
        // section: games not separated. Tolerated: the tags plainly start the next game.
        Expect {
            file: "international/fmjd-pdn-testsuite/fail/40Camp.DamaInternazionaleAssoluto.pdn",
            games: 45,
            errors: 0,
            notes: &[(GamesNotSeparated, 1), (ResultAsSeparator, 44)],
        },
        // `8-3 . 1-0`: a stray dot. Tolerated (skipped): it carries nothing.
        Expect {
            file: "international/fmjd-pdn-testsuite/fail/Cat.A1.pdn",
            games: 35,
            errors: 0,
            notes: &[(ResultAsSeparator, 35), (StrayDot, 1)],
        },
        // A problem solution ends with `6.` and no result, then the next tag section: a
        // dangling move number and games not separated. Both tolerated.
        Expect {
            file: "international/fmjd-pdn-testsuite/fail/Cat.C1.pdn",
            games: 46,
            errors: 0,
            notes: &[
                (GamesNotSeparated, 1),
                (MoveNumberWithoutMove, 1),
                (ResultAsSeparator, 45),
            ],
        },
        // Dambo export: `01.` move numbers and `06-11` squares (leading zeros), and the
        // micro-match scores `4-6` / `1-9` as terminators, equal to the Result tags (they
        // would otherwise be moves). Tolerated.
        Expect {
            file: "international/fmjd-pdn-testsuite/fail/delfts.pdn",
            games: 2,
            errors: 0,
            notes: &[
                (LeadingZeros, 51),
                (NonStandardResult, 2),
                (ResultAsSeparator, 2),
            ],
        },
        // `{ nested { comment } }`: comments do not nest; the strict comment ends at the
        // first `}` and the last `}` is no PDN token. A syntax error (the PDN 3.0 suite
        // exists to have it rejected); the text is kept as one comment.
        Expect {
            file: "misc-syntax/fmjd-pdn-testsuite/fail/nested_comment.pdn",
            games: 1,
            errors: 1,
            notes: &[],
        },
        // `1. - - 2. - - …`: unknown moves written as dashes (the PDN 3.0 text names them as
        // not covered by the grammar). Tolerated as unknown-move placeholders.
        Expect {
            file: "russian/fmjd-pdn-testsuite/fail/abatsiev.pdn",
            games: 56,
            errors: 0,
            notes: &[(ResultAsSeparator, 56), (UnknownMove, 50)],
        },
    ];
    let fail: Vec<_> = all_pdn()
        .into_iter()
        .filter(|p| is_suite(p, "fail"))
        .collect();
    assert_eq!(fail.len(), expect.len(), "one expectation per fail/ file");
    for e in &expect {
        let p = common::corpus().join(e.file);
        let (bytes, games) = read(&p);
        assert_eq!(games.len(), e.games, "{}: games", e.file);
        assert_eq!(
            games.len(),
            independent_count(&bytes),
            "{}: independent count",
            e.file
        );
        let errors: usize = games.iter().map(|g| g.errors.len()).sum();
        assert_eq!(
            errors,
            e.errors,
            "{}: {:?}",
            e.file,
            games.iter().flat_map(|g| &g.errors).collect::<Vec<_>>()
        );
        let got: Vec<(ToleratedKind, u32)> = notes(&games).into_iter().collect();
        let mut want = e.notes.to_vec();
        want.sort();
        assert_eq!(got, want, "{}: notes", e.file);
        // Every game keeps its moves: no game of these files is empty except the forfeits.
        let empty = games
            .iter()
            .filter(|g| g.body.moves().next().is_none())
            .count();
        let forfeits = games
            .iter()
            .filter(|g| g.note(MoveNumberWithoutMove).is_some() && g.body.items.is_empty())
            .count();
        assert_eq!(empty, forfeits, "{}: games without moves", e.file);
        if let Err(err) = round_trip(&games) {
            panic!("{}: {err}", e.file);
        }
    }
    // The nested comment keeps its whole text.
    let (_, games) =
        read(&common::corpus().join("misc-syntax/fmjd-pdn-testsuite/fail/nested_comment.pdn"));
    let g = &games[0];
    assert!(
        g.errors[0].message.contains("nested comment"),
        "{:?}",
        g.errors
    );
    let comments = support::comment_texts(&g.body);
    assert_eq!(comments, [" nested { comment } "]);
    assert_eq!(g.body.moves().count(), 3);
}

/// Every other archive: the games read equal an independent count, with the differences
/// explained.
#[test]
fn every_archive_reads_without_losing_a_game() {
    // The parser and the independent counter agree on every file (the counter splits a
    // result glued to a move number, `0-201.32-28`, as the engine logs of oud-2/ have it).
    // Files with real syntax errors: (number of errors, why).
    // Both Tinsley copies have two games where a note was typed into the movetext without
    // braces or spaces (`8-11Redoversteppedthetimecontrolonthismove.`): no PDN token, so a
    // syntax error, and the game keeps every move around it.
    let tinsley = "a note typed into the movetext without braces (`…Redoverstepped…`)";
    let syntax_errors: BTreeMap<&str, (usize, &str)> = BTreeMap::from([
        ("english/checkerboard-tinsley.pdn", (2, tinsley)),
        ("english/raven-checkers-tinsley.pdn", (2, tinsley)),
    ]);
    let mut unexpected_errors = Vec::new();
    let mut table = Vec::new();
    let mut mismatches = Vec::new();
    let mut total = 0usize;
    let mut files = 0usize;
    for p in all_pdn() {
        if is_suite(&p, "succeed") || is_suite(&p, "fail") {
            continue;
        }
        let (bytes, games) = read(&p);
        let count = independent_count(&bytes);
        let name = rel(&p);
        files += 1;
        total += games.len();
        let errors: Vec<String> = games
            .iter()
            .flat_map(|g| {
                let name = &name;
                g.errors.iter().map(move |e| {
                    let (l, c) = g.line_col(e.span.start);
                    format!("{name}:{l}:{c}: {}", e.message)
                })
            })
            .collect();
        if errors.len() != syntax_errors.get(name.as_str()).map_or(0, |e| e.0) {
            unexpected_errors.extend(errors);
        }
        if let Err(e) = round_trip(&games) {
            panic!("{name}: {e}");
        }
        if games.len() != count {
            mismatches.push(format!(
                "{name}: parser {} independent {count}",
                games.len()
            ));
        }
        table.push((name, games.len()));
    }
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(
        unexpected_errors.is_empty(),
        "{}",
        unexpected_errors.join("\n")
    );
    table.sort();
    for (name, n) in &table {
        eprintln!("{n:6} {name}");
    }
    eprintln!("{files} archives, {total} games");
    assert_eq!(files, 2742 - 39 - 8);
    // 11,377 before doubled terminators were read as one: two engine logs of oud/
    // (`dam20070607(2).pdn`, `parallel4.pdn`) end on `0-0` written twice, which was an empty
    // game of its own.
    assert_eq!(total, 11375);
}
