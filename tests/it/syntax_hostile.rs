//! Hostile inputs: the reader ends normally, keeps what can be read, never panics, never
//! recurses per nesting level and stays linear. Each input is also read through a small
//! streaming buffer (same games as reading it whole) and its games are written and read
//! again without syntax errors.
//!
//! The time bound is a loose guard against quadratic behaviour (which would take hours on
//! these sizes), not a benchmark.

use crate::support::syntax as support;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use pdn::syntax::{Game, Item, Reader, read_games};
use support::{read_with_buffer, write_all};

const BOUND: Duration = Duration::from_secs(60);

/// Read `bytes` whole and through a 4 KiB buffer, check both agree, write and re-read.
fn survive(name: &str, bytes: &[u8]) -> Vec<Game> {
    let t = Instant::now();
    let games = read_games(bytes);
    assert!(t.elapsed() < BOUND, "{name}: read took {:?}", t.elapsed());
    let streamed = read_with_buffer(bytes, 4096);
    assert!(streamed == games, "{name}: streaming differs");
    let text = write_all(&games);
    let again = read_games(text.as_bytes());
    assert_eq!(again.len(), games.len(), "{name}: written games");
    for g in &again {
        assert!(
            g.errors.is_empty(),
            "{name}: written game has errors: {:?}",
            g.errors
        );
    }
    assert!(t.elapsed() < BOUND, "{name}: took {:?}", t.elapsed());
    games
}

/// Deterministic pseudo-random bytes (xorshift).
fn noise(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn binary_garbage() {
    let bytes = noise(4 << 20, 0x9E37_79B9_7F4A_7C15);
    let games = survive("noise", &bytes);
    assert!(!games.is_empty());
    // Garbage made of PDN punctuation, the worst case for the grammar.
    let alphabet = b"[]{}()\"\\*/$%;.-x:0123456789 \n\rab!?";
    let punct: Vec<u8> = noise(4 << 20, 7)
        .into_iter()
        .map(|b| alphabet[b as usize % alphabet.len()])
        .collect();
    survive("punctuation", &punct);
}

#[test]
fn a_50_megabyte_comment() {
    let mut text = b"[Event \"big\"]\n1. 32-28 {".to_vec();
    text.extend(std::iter::repeat_n(b'a', 50 << 20));
    text.extend_from_slice(b"} 19-23 *\n[Event \"next\"] 1. 33-29 *\n");
    let games = survive("comment", &text);
    assert_eq!(games.len(), 2);
    assert!(games[0].errors.is_empty());
    assert_eq!(games[0].body.moves().count(), 2);
    assert_eq!(games[1].tag("Event"), Some("next"));
    // Unterminated: an error, the comment runs to the end of the file.
    let games = survive("unterminated comment", &text[..text.len() - 40]);
    assert_eq!(games.len(), 1);
    assert!(games[0].errors[0].message.contains("unterminated comment"));
}

#[test]
fn two_hundred_thousand_nested_parentheses() {
    let open = "(".repeat(200_000);
    let close = ")".repeat(200_000);
    let games = survive(
        "balanced",
        format!("1. 32-28 {open}19-23{close} 2-0").as_bytes(),
    );
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].errors.len(), 1, "{:?}", games[0].errors);
    assert_eq!(games[0].result.as_ref().unwrap().text, "2-0");
    let games = survive("unterminated", format!("1. 32-28 {open}19-23").as_bytes());
    assert_eq!(games.len(), 1);
    assert!(
        games[0]
            .errors
            .iter()
            .any(|e| e.message.contains("unterminated variation"))
    );
    let games = survive("closing only", format!("1. 32-28 {close} *").as_bytes());
    assert_eq!(games[0].errors.len(), 100 + 1);
    // Dropping and cloning the deepest game are fine (the tree depth is bounded).
    let g = games[0].clone();
    drop(g);
    let nested = read_games(format!("{open}32-28").as_bytes());
    let mut depth = 0;
    let mut line = &nested[0].body;
    while let Some(Item::Variation(v)) = line.items.first() {
        depth += 1;
        line = &v.line;
    }
    assert_eq!(depth, pdn::syntax::MAX_VARIATION_DEPTH);
}

#[test]
fn unterminated_strings_comments_variations_setups() {
    let cases: &[&str] = &[
        "[Event \"never closed\n1. 32-28 *",
        "[Event \"never closed",
        "[Event \"a\"][Site \"b\n[Round \"c\"]\n1. 32-28 *",
        "[Event",
        "[",
        "1. 32-28 {",
        "1. 32-28 (19-23 (",
        "1. 32-28 /FEN \"W:W31",
        "1. 32-28 /W:W31",
        "1. 32-28 $",
        "1. 32-28 %",
        "1. 32-28 1-",
        "1. 32-",
        "12.",
        "12. ...",
        "\u{feff}",
        "*",
        "",
    ];
    for c in cases {
        survive(c, c.as_bytes());
    }
    // Many broken pieces in a row on one long line stay linear.
    for piece in [
        "[a ",
        "[a \"x\" ",
        "/ ",
        "{{}",
        "( ",
        ") ",
        "1-6* ",
        "\"",
        "[\" ",
    ] {
        let text = piece.repeat((2 << 20) / piece.len());
        survive(piece, text.as_bytes());
    }
}

#[test]
fn a_10_megabyte_tag_line() {
    let mut text = b"[Event \"".to_vec();
    text.extend(std::iter::repeat_n(b'x', 10 << 20));
    text.extend_from_slice(b"\"]\n1. 32-28 *\n");
    let games = survive("tag", &text);
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tags[0].value.len(), 10 << 20);
    assert!(games[0].errors.is_empty());
    // Ten million tags of one character.
    let many = "[A \"b\"]".repeat(1 << 20);
    let games = survive("many tags", many.as_bytes());
    assert_eq!(games[0].tags.len(), 1 << 20);
}

#[test]
fn nul_bytes_and_invalid_utf8() {
    let text =
        b"[Event \"a\0b\"]\n1. 32-28\0 19-23 \xff\xfe {\xc3\x28} 2-0\n[White \"\xe9\"] 1. 33-29 *";
    let games = survive("nul", text);
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tag("Event"), Some("a\0b"));
    assert_eq!(games[0].body.moves().count(), 2);
    assert_eq!(games[1].tag("White"), Some("é"));
    let mut mixed = Vec::new();
    for i in 0..20_000u32 {
        mixed.extend_from_slice(format!("[Event \"{i}\"] 1. 32-28 ").as_bytes());
        mixed.extend_from_slice(if i % 3 == 0 {
            b"{\x80\x81\xff}"
        } else {
            b"{ok}"
        });
        mixed.extend_from_slice(b" *\n");
    }
    let games = survive("mixed", &mixed);
    assert_eq!(games.len(), 20_000);
    assert!(games.iter().all(|g| g.errors.is_empty()));
}

#[test]
fn a_huge_game_with_a_small_limit() {
    let body = "32-28 19-23 ".repeat(1 << 16);
    let text = format!("[Event \"a\"]\n{body}*\n[Event \"b\"]\n1. 33-29 *\n");
    let games: Vec<Game> = Reader::new(text.as_bytes())
        .with_max_game_size(64 << 10)
        .map(Result::unwrap)
        .collect();
    assert_eq!(games.len(), 2);
    assert!(
        games[0]
            .errors
            .iter()
            .any(|e| e.message.contains("longer than the maximum"))
    );
    assert!(games[0].body.moves().count() > 1000);
    assert_eq!(games[1].tag("Event"), Some("b"));
}

#[test]
fn io_errors_are_reported_not_swallowed() {
    struct Failing(usize);
    impl std::io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::Error::other("disk on fire"));
            }
            self.0 -= 1;
            let chunk = b"1. 32-28 2-0\n";
            let n = chunk.len().min(buf.len());
            buf[..n].copy_from_slice(&chunk[..n]);
            Ok(n)
        }
    }
    let mut r = Reader::new(Failing(3)).with_buffer_size(16);
    let mut ok = 0;
    let mut err = 0;
    for g in r.by_ref() {
        match g {
            Ok(_) => ok += 1,
            Err(e) => {
                assert_eq!(e.to_string(), "disk on fire");
                err += 1;
            }
        }
    }
    // The reader fills its buffer before parsing, so the error comes before any game; it
    // is reported once and the iterator ends.
    assert_eq!((ok, err), (0, 1));
    assert!(r.bytes_read() >= 13);
    assert!(r.next().is_none());
    // `Interrupted` is retried.
    struct Flaky(u8);
    impl std::io::Read for Flaky {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.0 += 1;
            match self.0 {
                1 | 3 => Err(std::io::ErrorKind::Interrupted.into()),
                2 => {
                    let t = b"1. 32-28 2-0 1. 33-29 *";
                    buf[..t.len()].copy_from_slice(t);
                    Ok(t.len())
                }
                _ => Ok(0),
            }
        }
    }
    let games: Vec<Game> = Reader::new(Flaky(0)).map(Result::unwrap).collect();
    assert_eq!(games.len(), 2);
}

/// A flood of NAGs or comments after one move (a hostile game of millions of tiny
/// annotations) keeps the first [`MAX_ANNOTATIONS_IN_A_ROW`] of the run and reports the rest
/// in one syntax error that counts them, so a game costs a few times its size, not a
/// hundred; the moves around the flood are kept. A run broken by a move starts again.
#[test]
fn floods_of_nags_and_comments_are_cut_with_one_error() {
    use pdn::syntax::{MAX_ANNOTATIONS_IN_A_ROW, SyntaxErrorKind};
    let max = MAX_ANNOTATIONS_IN_A_ROW as usize;
    for (name, one) in [("NAGs", " $1"), ("comments", "{c}"), ("mixed", " $4{x}")] {
        let flood = one.repeat(300_000);
        let text = format!("[Event \"{name}\"]\n1. 32-28 {flood} 19-23 2. 37-32 $1 {{ok}} *\n");
        let games = survive(name, text.as_bytes());
        assert_eq!(games.len(), 1, "{name}");
        let g = &games[0];
        let moves = g
            .body
            .items
            .iter()
            .filter(|i| matches!(i, Item::Move(_)))
            .count();
        let annotations = g.body.items.len() - moves;
        assert_eq!(moves, 3, "{name}: every move kept");
        // The run after the first move is cut; the one after the third is whole.
        assert_eq!(annotations, max + 2, "{name}");
        let errors: Vec<_> = g
            .errors
            .iter()
            .map(|e| (e.kind, e.message.clone()))
            .collect();
        let total = if name == "mixed" { 600_000 } else { 300_000 };
        assert_eq!(
            errors,
            [(
                SyntaxErrorKind::TooManyAnnotations,
                format!(
                    "{total} comments and NAGs in a row: the first {max} are kept, the other {} skipped",
                    total - max
                )
            )],
            "{name}"
        );
    }
    // Exactly the limit: nothing skipped.
    let text = format!("1. 32-28 {} 19-23 *\n", " $1".repeat(max));
    let g = &read_games(text.as_bytes())[0];
    assert!(g.errors.is_empty(), "{:?}", g.errors);
    assert_eq!(g.body.items.len(), max + 2);
}

/// What the fuzzers found (fixtures/fuzz/): comments and tag values holding NUL bytes were
/// written as they were, and the written file read back as UTF-16 (NULs between letters);
/// a comment after a stray `*` in a variation. Both read whole, streamed alike, and what is
/// written reads back without an error.
#[test]
fn fuzz_findings_read_write_and_read_back() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/fuzz");
    let nul = std::fs::read(dir.join("nul-comments-round-trip.pdn")).unwrap();
    assert!(nul.contains(&0), "the fixture holds NUL bytes");
    let games = survive("nul comments", &nul);
    let text = write_all(&games);
    assert!(!text.contains('\0'), "no NUL is written");
    let star = std::fs::read(dir.join("comment-after-stray-star.pdn")).unwrap();
    let games = survive("stray star", &star);
    assert_eq!(games.len(), 1);
    let g = &games[0];
    assert_eq!(g.result.as_ref().map(|r| r.text.as_str()), Some("*"));
    assert!(
        g.body
            .items
            .iter()
            .any(|i| matches!(i, Item::Comment(c) if c.text.starts_with("^^^"))),
        "the text after the `*` is kept as a comment"
    );
}

/// A game over the maximum size: a syntax error that says the file is not read whole
/// (`Game::read_whole`), and reading resumes at the next line that starts a game, a tag
/// section or (in an archive without tags) move number 1.
#[test]
fn a_game_over_the_maximum_is_an_error_and_reading_resumes_at_the_next_game() {
    let long = format!(
        "1. 32-28 {{{}}} 2-0\n\n1. 33-28 18-23 1-1\n\n[Event \"b\"]\n1. 34-29 *\n",
        "never ending comment ".repeat(50)
    );
    let games: Vec<Game> = Reader::new(long.as_bytes())
        .with_max_game_size(200)
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(games.len(), 3, "{games:?}");
    assert!(!games[0].read_whole());
    assert!(
        games[0]
            .errors
            .iter()
            .any(|e| e.kind == pdn::syntax::SyntaxErrorKind::GameTooLong)
    );
    assert!(games[1].read_whole() && games[2].read_whole());
    assert!(games[1].source.starts_with("1. 33-28"));
    assert_eq!(games[2].tag("Event"), Some("b"));
    // A run of annotations over the cap: not read whole either.
    let flood = format!("1. 32-28 {} *\n", "$1 ".repeat(2000));
    assert!(!read_games(flood.as_bytes())[0].read_whole());
}

/// A `{` never closed in an archive without tags: the comment stops before the result that
/// ends its game, the next games are games.
#[test]
fn a_comment_never_closed_in_an_archive_without_tags_stops_at_the_end_of_its_game() {
    let text = b"1. 32-28 { 19-23 2. 28x19 14x23 2-0\n\n1. 33-28 18-23 1-1\n\n1. 34-29 *\n";
    let games = survive("stray brace", text);
    assert_eq!(games.len(), 3);
    assert_eq!(
        games[0].result.as_ref().map(|r| r.text.as_str()),
        Some("2-0")
    );
    assert!(games[0].errors[0].message.contains("unterminated comment"));
    assert!(games[1].source.starts_with("1. 33-28"));
    // A comment that spans lines inside one game is no stray: it stays one comment.
    let annotated = b"1. 32-28 { a long note\nthat ends with 2-0\nand goes on } 19-23 *\n";
    let games = read_games(annotated);
    assert_eq!(games.len(), 1);
    assert!(games[0].errors.is_empty());
}

/// Bytes that are not UTF-8 among UTF-8: each one character (as Windows-1252), the UTF-8
/// around them kept, one note counting the runs; a text with no UTF-8 outside ASCII is read
/// as Windows-1252 as before.
#[test]
fn stray_bytes_among_utf8_are_decoded_span_by_span() {
    use pdn::syntax::ToleratedKind;
    let g =
        &read_games(b"[White \"Gr\xC3\xA9mion\"]\n[Black \"Andr\xE9\"]\n1. 32-28 {\xFF} *\n")[0];
    assert_eq!(g.tag("White"), Some("Grémion"));
    assert_eq!(g.tag("Black"), Some("André"));
    let n = g.note(ToleratedKind::InvalidUtf8).expect("the note");
    assert_eq!(n.count, 2);
    assert_eq!(g.text(n.span), "é");
    assert!(g.note(ToleratedKind::Windows1252).is_none());
    let g = &read_games(b"[White \"Fran\xE7ois\"]\n1. 32-28 *\n")[0];
    assert_eq!(g.tag("White"), Some("François"));
    assert!(g.note(ToleratedKind::Windows1252).is_some());
    assert!(g.note(ToleratedKind::InvalidUtf8).is_none());
}
