//! Inputs that once broke the syntax layer (found by the property tests and cargo-fuzz),
//! kept so they stay fixed. Each test names what went wrong.

use crate::support::syntax as support;

use pdn::syntax::{Game, MoveKind, Square, read_games};
use support::{read_with_buffer, round_trip, write_all};

/// Read, stream through tiny buffers, write, re-read: the fuzz target's checks.
fn check(bytes: &[u8]) -> Vec<Game> {
    let games = read_games(bytes);
    for size in [1, 2, 3, 7, 64] {
        assert!(read_with_buffer(bytes, size) == games, "buffer {size}");
    }
    let text = write_all(&games);
    let again = read_games(text.as_bytes());
    assert_eq!(again.len(), games.len(), "{text}");
    for g in &again {
        assert!(g.errors.is_empty(), "{:?}\n{text}", g.errors);
    }
    assert_eq!(write_all(&again), text, "not idempotent");
    games
}

/// A game of nothing but garbage is written `*`; after another game's `*` it used to be
/// absorbed as a second terminator, so a game was lost on re-reading.
#[test]
fn empty_game_after_a_star_is_not_absorbed() {
    let games = check(b"1. 32-28 *\n\x01\x02 *\n1. 33-29 *");
    assert_eq!(games.len(), 3);
}

/// A tag value with a line break followed by `[` was cut by the unterminated-value
/// heuristic when read back; the writer now folds line breaks in values.
#[test]
fn tag_value_with_a_line_break_before_a_bracket() {
    let games = check(b"[Event \"a\nb\"] [Site \"x\n[y\"] *");
    assert_eq!(games.len(), 1);
}

/// `01-01` is the move 1-1; written `1-1` it read back as a draw.
#[test]
fn the_move_one_one_is_not_written_as_a_result() {
    let games = check(b"01-01 *");
    let m = games[0].body.moves().next().unwrap();
    assert_eq!(m.squares.as_slice(), [Square::Num(1), Square::Num(1)]);
    round_trip(&games).unwrap();
}

/// An unknown move `-` with a strength (`-?`) was read back as garbage.
#[test]
fn unknown_move_with_a_strength() {
    let games = check(b"{x} 1. -? *");
    let m = games[0].body.moves().next().unwrap();
    assert_eq!(
        (m.kind, m.strength.as_deref()),
        (MoveKind::Unknown, Some("?"))
    );
}

/// `4-6]].. x1a3`: the algebraic move `x1a3` after a numeric move was joined to it as a
/// spaced capture (`4-6 x1`) when read back. A space before a separator now needs one after.
#[test]
fn a_file_x_square_after_a_numeric_move() {
    let games = check(b"4-6]].. x1a3");
    assert_eq!(games[0].body.moves().count(), 2);
}

/// `} 12...) ...321`: an ellipsis unknown move as the first move lost its number, so the
/// second write numbered the game differently. Unknown `...` moves are written `-`.
#[test]
fn ellipsis_unknown_move_keeps_the_numbering() {
    check(b"} 12...) ...321");
}

/// `1. 1-2 - 3. 1-2`: an unknown move `-` after a move, then a move number, was read back
/// as part of a long move `1-2-3` and a stray dot.
#[test]
fn dash_unknown_move_then_a_move_number() {
    let games = check(b"1. 1-2 - 3. 1-2 *");
    let kinds: Vec<MoveKind> = games[0].body.moves().map(|m| m.kind).collect();
    assert_eq!(
        kinds,
        [MoveKind::Normal, MoveKind::Unknown, MoveKind::Normal]
    );
}

/// A Result tag equal to the last move (`[Result "4-6"] … 4-6 *`): the move was taken for
/// the result once written with ` *` after it. Only the end of the file or a tag section
/// after it makes it a result now.
#[test]
fn result_tag_equal_to_the_last_move() {
    let games = check(b"[Result \"4-6\"] 1. 9-13 4-6 *");
    assert_eq!(games[0].body.moves().count(), 2);
}

/// A comment line that starts with a tag pair (`{a\n[Event "x"] b}`) is read as an
/// unterminated comment; the writer turns that line break into a space.
#[test]
fn comment_with_a_tag_line_inside() {
    let games = check(b"1. 32-28 {a\n[Event \"x\"] b} *");
    assert_eq!(
        games.len(),
        2,
        "read as an unterminated comment and a new game"
    );
    check(&write_all(&games).into_bytes());
}

/// A lower-case tag name is written with a capital; its place among the tags must follow
/// the written name, or the second write reorders the tags.
#[test]
fn odd_tag_name_order_is_stable() {
    check(b"[event \"x\"][FEN \"W:W31-50:\n B1-20\"] 1. 32-28 19-23 1 - 1");
}

/// UTF-16 input, with or without its byte-order mark, read through buffers of any size
/// gives the games `read_games` gives (the decoder was once called again after it had
/// finished; tiny buffers once missed the UTF-16 shape). Found by cargo-fuzz.
#[test]
fn utf16_streams_like_a_whole_read() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/archives");
    for name in ["utf16le.pdn", "utf16be-no-bom.pdn"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let games = check(&bytes);
        assert_eq!(games.len(), 3, "{name}");
        assert_eq!(games[0].tag("Event"), Some("Open 2025"));
    }
    // A short file that ends inside the decoder's last call.
    let short: Vec<u8> = "[Event \"é\"]\n1. 32-28 *"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert_eq!(check(&short).len(), 1);
}

/// A game of NUL-separated garbage is written as a comment whose text, read again, looked
/// like UTF-16 without a byte-order mark: UTF-16 is now recognised without a mark only when
/// its first character is `[` or a digit. Found by cargo-fuzz.
#[test]
fn nul_separated_garbage_is_not_utf16_once_written() {
    let games = check(b"\x004\x001\x001\x00x\x002\x00");
    assert_eq!(games.len(), 1);
}
