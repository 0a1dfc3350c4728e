//! Helpers shared by the syntax tests: the round-trip comparison
//! of a game with its written-and-re-read copy, and an independent game counter that knows
//! nothing of the parser.
#![allow(dead_code)]

use pdn::syntax::{
    Game, Item, Line, MoveKind, Reader, WriteOptions, canonical_move_text, comment_for_writing,
    ordered_tags, read_games, tag_name_for_writing, tag_value_for_writing, write_game,
};

/// The texts of a line's comments (not of its variations), in order.
pub(crate) fn comment_texts(line: &Line) -> Vec<&str> {
    line.items
        .iter()
        .filter_map(|i| match i {
            Item::Comment(c) => Some(c.text.as_str()),
            _ => None,
        })
        .collect()
}

/// Write `games` as strict PDN with the canonical move text.
pub(crate) fn write_all(games: &[Game]) -> String {
    let mut out = String::new();
    for g in games {
        write_game(
            g,
            &WriteOptions::default(),
            &mut canonical_move_text,
            &mut out,
        );
    }
    out
}

/// A normalised, comparable view of one line (the writer's documented changes applied:
/// capture separators become `x`, `}` in comments becomes `)`, comment kinds are not
/// compared, `"` and `/` leave setups, move numbers are regenerated).
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Norm {
    Move {
        squares: Vec<String>,
        kind: String,
        strength: Option<String>,
    },
    Comment(String),
    Nag(u16),
    Setup(String),
    Variation(Vec<Norm>),
}

pub(crate) fn norm_line(line: &Line) -> Vec<Norm> {
    line.items
        .iter()
        .map(|i| match i {
            Item::Move(m) => Norm::Move {
                squares: m.squares.iter().map(|s| format!("{s:?}")).collect(),
                kind: match m.kind {
                    MoveKind::Capture(_) => "capture".to_owned(),
                    k => format!("{k:?}"),
                },
                strength: m.strength.as_deref().map(str::to_owned),
            },
            Item::Comment(c) => Norm::Comment(comment_for_writing(&c.text).into_owned()),
            Item::Nag(n) => Norm::Nag(n.value),
            Item::Setup(s) => Norm::Setup(s.fen.replace(['"', '/'], "")),
            Item::Variation(v) => Norm::Variation(norm_line(&v.line)),
        })
        .collect()
}

/// The tags the writer writes for `g`, in its order.
pub(crate) fn expected_tags(g: &Game) -> Vec<(String, String)> {
    let mut tags: Vec<(String, String)> = ordered_tags(&g.tags)
        .into_iter()
        .map(|t| {
            (
                tag_name_for_writing(&t.name).into_owned(),
                tag_value_for_writing(&t.value).into_owned(),
            )
        })
        .collect();
    if g.tag("Result").is_none()
        && let Some(r) = g.result.as_ref().filter(|r| !r.is_asterisk())
    {
        let at = tags
            .iter()
            .position(|(n, _)| {
                !["Event", "Site", "Date", "Round", "White", "Black", "Result"]
                    .contains(&n.as_str())
            })
            .unwrap_or(tags.len());
        tags.insert(at, ("Result".to_owned(), r.text.clone()));
    }
    tags
}

/// Check that `again` (read from what the writer wrote of `original`) is the same game.
pub(crate) fn same_game(original: &Game, again: &Game) -> Result<(), String> {
    if !again.errors.is_empty() {
        return Err(format!("re-read has syntax errors: {:?}", again.errors));
    }
    let tags: Vec<(String, String)> = again
        .tags
        .iter()
        .map(|t| (t.name.clone(), t.value.clone()))
        .collect();
    if tags != expected_tags(original) {
        return Err(format!(
            "tags differ:\n  {:?}\n  {:?}",
            expected_tags(original),
            tags
        ));
    }
    let (a, b) = (norm_line(&original.body), norm_line(&again.body));
    if a != b {
        return Err(format!("bodies differ:\n  {a:?}\n  {b:?}"));
    }
    if again.result.as_ref().map(|r| r.text.as_str()) != Some("*") {
        return Err(format!(
            "written game does not end with `*`: {:?}",
            again.result
        ));
    }
    Ok(())
}

/// Write `games`, read them back and compare every game; also check that writing the
/// re-read games gives the same text (the writer is idempotent on its own output).
pub(crate) fn round_trip(games: &[Game]) -> Result<(), String> {
    let text = write_all(games);
    let again = read_games(text.as_bytes());
    if again.len() != games.len() {
        return Err(format!(
            "{} games written, {} read back\n{text}",
            games.len(),
            again.len()
        ));
    }
    for (g, h) in games.iter().zip(&again) {
        same_game(g, h).map_err(|e| {
            format!("game {}: {e}\nwritten:\n{}", g.index, {
                let mut s = String::new();
                write_game(
                    g,
                    &WriteOptions::default(),
                    &mut canonical_move_text,
                    &mut s,
                );
                s
            })
        })?;
    }
    let text2 = write_all(&again);
    if text2 != text {
        return Err("writing the re-read games gives different text".to_owned());
    }
    Ok(())
}

/// Read with a given initial buffer size.
pub(crate) fn read_with_buffer(bytes: &[u8], buffer: usize) -> Vec<Game> {
    Reader::new(bytes)
        .with_buffer_size(buffer)
        .map(|g| g.expect("reading from memory cannot fail"))
        .collect()
}

// ---- an independent game counter ----

/// Count games without the parser: remove `{…}` comments and `%`/`;` line comments, take
/// `[…]` tag pairs and whitespace-separated words, and count game starts with a three-state
/// machine: a game starts at a tag after movetext (or at the start), or at movetext after a
/// terminator (a result word or `*`) or at the start.
pub(crate) fn independent_count(bytes: &[u8]) -> usize {
    #[derive(PartialEq)]
    enum State {
        Between,
        Tags,
        Moves,
    }
    let text = String::from_utf8_lossy(bytes);
    let mut clean = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
                clean.push(' ');
            }
            '%' | ';' => {
                while let Some(&d) = chars.peek() {
                    if d == '\n' || d == '\r' {
                        break;
                    }
                    chars.next();
                }
            }
            '[' => {
                // A tag pair: to the `]` after its quoted value.
                let mut in_string = false;
                let mut escaped = false;
                for d in chars.by_ref() {
                    if in_string {
                        if escaped {
                            escaped = false;
                        } else if d == '\\' {
                            escaped = true;
                        } else if d == '"' {
                            in_string = false;
                        }
                    } else if d == '"' {
                        in_string = true;
                    } else if d == ']' {
                        break;
                    }
                }
                clean.push_str(" \u{1}TAG ");
            }
            '*' => clean.push_str(" * "),
            c => clean.push(c),
        }
    }
    let terminators = [
        "1-0", "0-1", "2-0", "0-2", "1-1", "0-0", "1/2-1/2", "½-½", "0.5-0.5", "*",
    ];
    let mut state = State::Between;
    let mut games = 0;
    // Engine logs glue a result to the next game's first move number (`0-201.32-28`):
    // split such a word into the result and the rest.
    let words = clean.split_whitespace().flat_map(|w| {
        let glued = terminators[..6].iter().find(|t| {
            w.strip_prefix(**t).is_some_and(|rest| {
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                digits > 0 && rest.as_bytes().get(digits) == Some(&b'.')
            })
        });
        match glued {
            Some(t) => vec![&w[..t.len()], &w[t.len()..]],
            None => vec![w],
        }
    });
    // The last terminator, while nothing else followed it.
    let mut last_end: Option<&str> = None;
    for word in words {
        let is_tag = word == "\u{1}TAG";
        let is_end = terminators.contains(&word);
        // A terminator written twice (`2-0` then `*` or `0-0` again) is one; `*` after `*` is
        // an empty game (the writer writes one so).
        if is_end && last_end.is_some_and(|l| !(l == "*" && word == "*")) {
            continue;
        }
        last_end = if is_end { Some(word) } else { None };
        state = match (state, is_tag, is_end) {
            (State::Between, true, _) => {
                games += 1;
                State::Tags
            }
            (State::Between, false, true) => {
                games += 1;
                State::Between
            }
            (State::Between, false, false) => {
                games += 1;
                State::Moves
            }
            (State::Tags, true, _) => State::Tags,
            (State::Moves, true, _) => {
                games += 1;
                State::Tags
            }
            (_, false, true) => State::Between,
            (_, false, false) => State::Moves,
        };
    }
    games
}

#[test]
fn independent_counter_counts() {
    assert_eq!(independent_count(b""), 0);
    assert_eq!(
        independent_count(b"[A \"x\"]\n1. 32-28 *\n[A \"y\"] 1-0"),
        2
    );
    assert_eq!(independent_count(b"1. 32-28 2-0 1. 33-29 {c 2-0} 0-2"), 2);
    assert_eq!(independent_count(b"[A \"]\"][B \"x\"] 32-28 [C \"x\"]"), 2);
    assert_eq!(independent_count(b"[FEN \"x\"] *\r\n[FEN \"y\"] *\r\n"), 2);
    assert_eq!(independent_count(b"01.32-28 0-201.33-29 2-0"), 2);
    assert_eq!(independent_count(b"1. 32-28 0-0\n0-0\n1. 33-29 2-0 *"), 2);
    assert_eq!(independent_count(b"1. 32-28 * *"), 2);
}
