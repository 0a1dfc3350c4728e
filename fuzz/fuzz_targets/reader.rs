//! Fuzz target: arbitrary bytes → read every game (whole, and streamed through a small
//! buffer: the same games), write each game, read the written text again: no panic, the
//! same number of games, no syntax error in what the writer wrote, writing is idempotent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdn::syntax::{Reader, WriteOptions, canonical_move_text, read_games, write_game};

fuzz_target!(|data: &[u8]| {
    let games = read_games(data);
    let streamed: Vec<_> = Reader::new(data)
        .with_buffer_size(1 + data.len() % 61)
        .map(|g| g.expect("reading from memory cannot fail"))
        .collect();
    assert!(
        streamed == games,
        "streaming through a small buffer differs"
    );
    let mut text = String::new();
    for g in &games {
        for e in &g.errors {
            let _ = g.line_col(e.span.start);
            let _ = g.text(e.span);
        }
        write_game(
            g,
            &WriteOptions::default(),
            &mut canonical_move_text,
            &mut text,
        );
    }
    let again = read_games(text.as_bytes());
    assert_eq!(again.len(), games.len(), "game count changed:\n{text}");
    for g in &again {
        assert!(
            g.errors.is_empty(),
            "written text has errors {:?}:\n{text}",
            g.errors
        );
    }
    let mut text2 = String::new();
    for g in &again {
        write_game(
            g,
            &WriteOptions::default(),
            &mut canonical_move_text,
            &mut text2,
        );
    }
    assert_eq!(text, text2, "writing is not idempotent");
});
