//! `syntax::pieces` against the sequential reader: cut into pieces at many sizes (down to a
//! cut at every line), read piece by piece with what each leaves to the next, every file of
//! the corpus and of `fixtures/` gives the same games, byte for byte, as `Reader` over the
//! whole file, with long games cut at a small maximum size too.

use crate::support as common;

use std::path::{Path, PathBuf};

use pdn::syntax::pieces::{Pieces, Rest, read_piece, read_piece_after};
use pdn::syntax::{Game, Reader};

use std::sync::atomic::{AtomicUsize, Ordering};

/// How often a piece left a game, and a skip, to the next one (the tests must go through
/// both paths).
static LEFT_GAMES: AtomicUsize = AtomicUsize::new(0);
static LEFT_SKIPS: AtomicUsize = AtomicUsize::new(0);

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdn") || e.eq_ignore_ascii_case("txt"))
        {
            out.push(p);
        }
    }
}

/// Games through pieces of the given sizes, numbered through the file.
fn by_pieces(bytes: &[u8], target: usize, forced: usize, max_game: usize) -> Vec<Game> {
    let mut out = Vec::new();
    let mut prev: Option<Rest> = None;
    for piece in Pieces::new(bytes).with_sizes(target, forced) {
        let piece = piece.expect("reading from memory");
        // As the pipeline reads them: a left game is tried again once its bytes doubled.
        let (games, rest) = match prev.take() {
            Some(rest) => read_piece_after(piece, rest, max_game),
            None => read_piece(&mut { piece }, max_game),
        };
        match &rest {
            Rest::Game { .. } => LEFT_GAMES.fetch_add(1, Ordering::Relaxed),
            Rest::Skipping => LEFT_SKIPS.fetch_add(1, Ordering::Relaxed),
            Rest::Nothing => 0,
        };
        let base = out.len();
        for mut g in games {
            g.index += base;
            out.push(g);
        }
        prev = Some(rest);
    }
    if let Some(rest) = prev {
        assert_eq!(rest, Rest::Nothing, "the last piece left something");
    }
    out
}

fn sequential(bytes: &[u8], max_game: usize) -> Vec<Game> {
    Reader::new(bytes)
        .with_max_game_size(max_game)
        .collect::<Result<_, _>>()
        .expect("reading from memory")
}

fn check(name: &str, bytes: &[u8], sizes: &[(usize, usize)], max_game: usize) {
    let want = sequential(bytes, max_game);
    for &(target, forced) in sizes {
        let got = by_pieces(bytes, target, forced, max_game);
        assert_eq!(
            got.len(),
            want.len(),
            "{name}: pieces of {target}/{forced} (max game {max_game}): game count"
        );
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(
                g, w,
                "{name}: pieces of {target}/{forced} (max game {max_game}): game {}",
                w.index
            );
        }
    }
}

#[test]
fn whole_corpus_reads_the_same_in_pieces() {
    let mut paths = Vec::new();
    files(&common::corpus(), &mut paths);
    assert!(paths.len() >= 2742);
    let mut all = Vec::new();
    for p in &paths {
        let bytes = std::fs::read(p).expect("corpus file");
        check(
            &p.display().to_string(),
            &bytes,
            &[(64 * 1024, 4 << 20), (2048, 8192)],
            64 << 20,
        );
        all.extend_from_slice(&bytes);
        all.push(b'\n');
    }
    // Everything at once, cut often.
    check(
        "whole corpus",
        &all,
        &[(4096, 1 << 20), (300, 600)],
        64 << 20,
    );
}

#[test]
fn fixtures_and_test_suite_read_the_same_cut_at_every_line() {
    let mut paths = Vec::new();
    files(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        &mut paths,
    );
    for v in ["international", "english", "misc-syntax"] {
        let d = common::corpus().join(v);
        if let Ok(rd) = std::fs::read_dir(&d) {
            drop(rd);
            let mut more = Vec::new();
            files(&d, &mut more);
            more.retain(|p| {
                p.to_string_lossy().contains("fmjd-pdn-testsuite")
                    || p.to_string_lossy().contains("misc-syntax")
            });
            paths.extend(more);
        }
    }
    assert!(paths.len() > 40);
    for p in &paths {
        let bytes = std::fs::read(p).expect("file");
        let name = p.display().to_string();
        check(&name, &bytes, &[(1, 1), (1, 64), (40, 200)], 64 << 20);
        // Long games cut at the maximum size, across pieces.
        check(&name, &bytes, &[(1, 1), (64, 256), (4096, 8192)], 300);
    }
    assert!(LEFT_GAMES.load(Ordering::Relaxed) > 100);
    assert!(LEFT_SKIPS.load(Ordering::Relaxed) > 100);
}

#[test]
fn hostile_shapes_read_the_same() {
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "bom",
            b"\xEF\xBB\xBF[Event \"a\"]\n1. 32-28 2-0\n\n[Event \"b\"]\n1. 33-29 0-2\n".to_vec(),
        ),
        (
            "crlf",
            b"[Event \"a\"]\r\n1. 32-28 2-0\r\n\r\n[Event \"b\"]\r\n1. 33-29 0-2\r\n".to_vec(),
        ),
        (
            "cr",
            b"[Event \"a\"]\r1. 32-28 2-0\r\r[Event \"b\"]\r1. 33-29 0-2\r".to_vec(),
        ),
        (
            "unseparated",
            b"[Event \"a\"]\n1. 32-28\n[Event \"b\"]\n1. 33-29\n[Event \"c\"]\n1. 34-30 *\n"
                .to_vec(),
        ),
        (
            "comment before tags",
            b"1. 32-28 2-0\n{about b}\n[Event \"b\"]\n1. 33-29 0-2\n".to_vec(),
        ),
        (
            "result tag move",
            b"[Result \"4-6\"]\n1. 32-28 4-6\n{x}\n[Result \"4-6\"]\n1. 4-6 5-10 4-6\n".to_vec(),
        ),
        (
            "unterminated comment",
            b"[Event \"a\"]\n1. 32-28 {open\n[Event \"b\"]\n1. 33-29 0-2\n".to_vec(),
        ),
        (
            "latin1",
            b"[White \"Fran\xE7ois\"]\n1. 32-28 2-0\n\n[White \"Andr\xE9\"]\n1. 33-29 0-2\n"
                .to_vec(),
        ),
        (
            "no tags",
            b"1. 32-28 19-23 2-0\n1. 33-29 0-2\n1. 34-30 *\n".to_vec(),
        ),
        (
            "no tags, a comment never closed",
            b"1. 32-28 { 19-23 2-0\n\n1. 33-29 0-2\n\n1. 34-30 *\n".to_vec(),
        ),
        (
            "no tags, a long game then more",
            format!(
                "1. 32-28 {{{}}} 2-0\n\n1. 33-29 0-2\n1. 34-30 *\n",
                "long comment ".repeat(20)
            )
            .into_bytes(),
        ),
        (
            "a stray byte in UTF-8",
            b"[White \"Gr\xC3\xA9mion\"]\n1. 32-28 {caf\xE9} 2-0\n\n[Black \"\xE9\"]\n1. 33-29 0-2\n"
                .to_vec(),
        ),
    ];
    let mut big = Vec::new();
    for k in 0..200 {
        big.extend_from_slice(
            format!(
                "[Event \"{k}\"]\n1. 32-28 19-23 {{{}}} 2-0\n\n",
                "x".repeat(k * 7)
            )
            .as_bytes(),
        );
    }
    cases.push(("many", big));
    let mut nested = b"[Event \"n\"]\n1. 32-28 ".to_vec();
    nested.extend(std::iter::repeat_n(b'(', 3000));
    nested.extend_from_slice(b"\n[Event \"m\"]\n1. 32-28 *\n");
    cases.push(("nested", nested));
    let mut garbage: Vec<u8> = (0..20_000u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    garbage.extend_from_slice(b"\n[Event \"after\"]\n1. 32-28 *\n");
    cases.push(("garbage", garbage));
    for (name, bytes) in &cases {
        let sizes = [(1, 1), (1, 3), (5, 17), (64, 128), (1000, 5000)];
        check(name, bytes, &sizes, 64 << 20);
        check(name, bytes, &sizes, 50);
    }
}

/// An archive with blank lines between its games (after each result) is cut at the next
/// game's first byte, not inside the blank lines: no piece leaves the game before its cut to
/// the next one (which the pipeline would then read twice, with the next job's first piece).
#[test]
fn blank_lines_after_a_result_leave_no_game_to_the_next_piece() {
    let mut text = Vec::new();
    for i in 0..400 {
        let (eol, result) = if i % 2 == 0 {
            ("\r\n", "1-0")
        } else {
            ("\n", "1/2-1/2")
        };
        text.extend_from_slice(
            format!(
                "[Event \"e{i}\"]{eol}[Result \"{result}\"]{eol}{eol}1. 32-28 19-23 2. 28x19 \
                 14x23 {result}{eol}{eol}{eol}"
            )
            .as_bytes(),
        );
    }
    let want = sequential(&text, 64 << 20);
    assert_eq!(want.len(), 400);
    for target in [100, 333, 1000, 4096] {
        let mut prev = Rest::Nothing;
        let (mut games, mut left, mut pieces) = (0, 0, 0);
        for piece in Pieces::new(&text[..]).with_sizes(target, 1 << 16) {
            let piece = piece.expect("reading from memory");
            pieces += 1;
            let (read, rest) = read_piece_after(piece, prev, 64 << 20);
            games += read.len();
            left += usize::from(matches!(rest, Rest::Game { .. }));
            prev = rest;
        }
        assert!(pieces > 1, "pieces of {target}: {pieces}");
        assert_eq!(games, want.len(), "pieces of {target}");
        assert_eq!(
            left, 0,
            "pieces of {target}: {left} of {pieces} left a game"
        );
    }
}
