//! Fuzz target: the whole `fix --in-place` path on arbitrary bytes (issue 37).
//!
//! In the process (where the fuzzer sees the coverage): the bytes read as `pdn fix` reads a
//! file (the largest game the commands read, the variant hint of the earlier games of the
//! file), every game fixed, the file's new text made as `--in-place` makes it. What an
//! in-place replacement must never break:
//! - no panic, and the text written is UTF-8;
//! - a file not read whole (a game over the size limit) is never replaced;
//! - games in = games out, and the text written reads back into as many games: replacing
//!   the file loses or merges none;
//! - that text, fixed again, gives the same games again (a second run loses nothing either).
//!
//! With `PDN_FUZZ_BIN` naming a built `pdn`, the binary itself also runs `fix --in-place
//! --backup .orig` on the bytes in a temporary directory: the file is either left as it was
//! (byte for byte, and no backup) or replaced by exactly the text made here, with the
//! original in the backup; no temporary file is left, and the exit status is 0 or 1.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdn::app::fix::{FixOptions, fix};
use pdn::app::gametype::FileHint;
use pdn::app::validate::Options;
use pdn::syntax::{COMMANDS_MAX_GAME_SIZE, Reader};

/// What `fix` makes of a file: its new text, its games, whether it was read whole.
struct Fixed {
    text: String,
    games: usize,
    whole: bool,
}

fn fix_file(bytes: &[u8]) -> Fixed {
    let mut reader = Reader::new(bytes).with_max_game_size(COMMANDS_MAX_GAME_SIZE);
    let mut hint = FileHint::default();
    let mut out = Fixed {
        text: String::new(),
        games: 0,
        whole: true,
    };
    while let Ok(Some(game)) = reader.next_game() {
        out.games += 1;
        out.whole &= game.read_whole();
        let opts = FixOptions {
            validate: Options {
                hint: hint.observe(0, &game),
                ..Options::default()
            },
            ..FixOptions::default()
        };
        out.text.push_str(&fix(game, &opts).text);
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let first = fix_file(data);
    if first.whole {
        let second = fix_file(first.text.as_bytes());
        assert_eq!(
            second.games, first.games,
            "the text written reads back into another number of games"
        );
        assert!(second.whole, "the text written is not read whole");
        let third = fix_file(second.text.as_bytes());
        assert_eq!(third.games, first.games, "a second fix changes the games");
    }
    if let Some(bin) = std::env::var_os("PDN_FUZZ_BIN") {
        binary(&bin, data, &first);
    }
});

/// Run the binary's `fix --in-place --backup .orig` on `data` and check the file-level
/// guarantees against `expected` (see the module documentation).
fn binary(bin: &std::ffi::OsStr, data: &[u8], expected: &Fixed) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("x.pdn");
    std::fs::write(&file, data).expect("write the input");
    let status = std::process::Command::new(bin)
        .current_dir(dir.path())
        .args(["fix", "-q", "--in-place", "--backup", ".orig", "x.pdn"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("run pdn");
    assert!(
        matches!(status.code(), Some(0..=2)),
        "exit status {status:?} (101 is a panic)"
    );
    let now = std::fs::read(&file).expect("the file is still there");
    let backup = dir.path().join("x.pdn.orig");
    if now == data {
        assert!(!backup.exists(), "a backup of a file left as it was");
    } else {
        assert!(expected.whole, "a file not read whole was replaced");
        assert_eq!(
            std::fs::read(&backup).expect("the backup"),
            data,
            "the backup holds something else than the original"
        );
        // (A gzip file is written compressed: its text is not compared.)
        assert!(
            data.starts_with(&[0x1f, 0x8b]) || now == expected.text.as_bytes(),
            "the file holds something else than the fixed text"
        );
    }
    for e in std::fs::read_dir(dir.path()).expect("the directory") {
        let name = e.expect("an entry").file_name();
        assert!(
            !name.to_string_lossy().ends_with(".tmp"),
            "a temporary file left: {name:?}"
        );
    }
}
