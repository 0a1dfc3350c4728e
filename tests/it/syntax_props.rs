//! Property tests of the syntax layer: arbitrary bytes never panic; streaming through a
//! tiny buffer gives the same games as reading the whole input; generated games survive
//! write → read unchanged (and writing is idempotent).

use crate::support::syntax as support;

use pdn::syntax::{
    Comment, CommentKind, Encoding, Game, Item, Line, MoveItem, MoveKind, MoveNumber, Nag,
    ResultToken, SetupCommand, Span, Square, Squares, Tag, Variation, read_games,
};
use proptest::prelude::*;
use support::{read_with_buffer, round_trip, write_all};

/// Bytes made of PDN's punctuation, digits and a few letters: reaches the grammar's corners
/// far more often than uniform bytes.
fn pdnish() -> impl Strategy<Value = Vec<u8>> {
    let atoms: Vec<&'static [u8]> = vec![
        b"[",
        b"]",
        b"{",
        b"}",
        b"(",
        b")",
        b"\"",
        b"\\",
        b"*",
        b"/",
        b"$",
        b"%",
        b";",
        b".",
        b"...",
        b"-",
        b"x",
        b"X",
        b":",
        b" ",
        b"\n",
        b"\r\n",
        b"\r",
        b"\t",
        b"1",
        b"0",
        b"2",
        b"32",
        b"28",
        b"1-1",
        b"1-10",
        b"2-0",
        b"1/2-1/2",
        "½-½".as_bytes(),
        b"0.5-0.5",
        b"!",
        b"?",
        b"(?)",
        b"a3",
        b"B4",
        b"FEN",
        b"[Event \"",
        b"[Result \"4-6\"]",
        b"4-6",
        b"\xef\xbb\xbf",
        b"\xe9",
        b"\xff",
        b"\0",
        "×".as_bytes(),
        b"12.",
        b"12...",
        b"0-201.",
    ];
    prop::collection::vec(prop::sample::select(atoms), 0..120).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(crate::support::proptest_config("syntax_props", 2000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let games = read_games(&bytes);
        let text = write_all(&games);
        let again = read_games(text.as_bytes());
        prop_assert_eq!(again.len(), games.len());
        for g in &again {
            prop_assert!(g.errors.is_empty(), "{:?}", g.errors);
        }
    }

    #[test]
    fn pdnish_bytes_never_panic_and_write_back_cleanly(bytes in pdnish()) {
        let games = read_games(&bytes);
        for g in &games {
            for e in &g.errors {
                let _ = g.line_col(e.span.start);
                let _ = g.text(e.span);
            }
        }
        let text = write_all(&games);
        let again = read_games(text.as_bytes());
        prop_assert_eq!(again.len(), games.len(), "{}", text);
        for g in &again {
            prop_assert!(g.errors.is_empty(), "{:?}\n{}", g.errors, text);
        }
        prop_assert_eq!(write_all(&again), text);
    }

    #[test]
    fn streaming_with_a_tiny_buffer_gives_the_same_games(
        bytes in pdnish(),
        buffer in 1usize..80,
    ) {
        let whole = read_games(&bytes);
        let streamed = read_with_buffer(&bytes, buffer);
        prop_assert_eq!(streamed, whole);
    }
}

// ---- generated games ----

fn square_num() -> impl Strategy<Value = Square> {
    (1u32..=99).prop_map(Square::Num)
}

/// Files `a`–`l` (the widest board is 12 wide). A file `x` after a numeric move with a
/// space (`1-2 x1-a1`) would read as a capture separator, since spaces around separators
/// are tolerated.
fn square_alg() -> impl Strategy<Value = Square> {
    (0u8..12, 0u8..26).prop_map(|(file, rank)| Square::Alg { file, rank })
}

fn strength() -> impl Strategy<Value = Option<String>> {
    prop::option::of(
        prop::sample::select(vec![
            "!", "?", "!!", "??", "!?", "?!", "(?)", "(!)", "(!?!!!)", "*",
        ])
        .prop_map(str::to_owned),
    )
}

fn number() -> impl Strategy<Value = Option<MoveNumber>> {
    prop::option::of(
        (1u32..200, any::<bool>()).prop_map(|(number, second_player)| MoveNumber {
            number,
            second_player,
            span: Span::default(),
        }),
    )
}

fn mv() -> impl Strategy<Value = MoveItem> {
    let squares = prop_oneof![
        prop::collection::vec(square_num(), 2..6),
        prop::collection::vec(square_alg(), 2..5),
    ];
    let kind = prop_oneof![
        Just(MoveKind::Normal),
        Just(MoveKind::Capture('x')),
        Just(MoveKind::Undivided),
        Just(MoveKind::Unknown),
    ];
    (number(), squares, kind, strength(), 100u32..100_000).prop_map(
        |(number, squares, kind, strength, big)| {
            let squares: Squares = match kind {
                MoveKind::Unknown => Squares::new(),
                // Undivided numeric: two squares, or one of three or more digits that does
                // not split 2 + 2.
                MoveKind::Undivided if matches!(squares[0], Square::Num(_)) => {
                    if big % 3 == 0 && !(1000..10_000).contains(&big) {
                        [Square::Num(big)].as_slice().into()
                    } else {
                        squares[..2].into()
                    }
                }
                _ => squares.into(),
            };
            let mut squares = squares;
            // `1-1` is written `01-01`, which reads back the same.
            if kind == MoveKind::Normal && squares.as_slice() == [Square::Num(1), Square::Num(1)] {
                squares = vec![Square::Num(1), Square::Num(2)].into();
            }
            MoveItem {
                number,
                squares,
                kind,
                strength: strength.map(String::into_boxed_str),
                span: Span::default(),
            }
        },
    )
}

/// Free text for comments and tag values: anything but a lone `\r` games do not need.
fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::char::range('a', 'z'),
            2 => Just(' '),
            1 => prop::sample::select(vec![
                '\n', '\t', '[', ']', '{', '(', ')', '"', '\\', '%', ';', '*', '/', '$', '.', '-',
                'é', '€', '高', '0', '1', '2', ':', '!', '?',
            ]),
        ],
        0..40,
    )
    .prop_map(|v| v.into_iter().collect())
}

fn leaf() -> impl Strategy<Value = Item> {
    prop_oneof![
        6 => mv().prop_map(Item::Move),
        1 => (text(), any::<bool>()).prop_map(|(t, brace)| Item::Comment(Comment {
            text: if brace { t } else { t.replace(['\n', '\r'], " ") },
            kind: if brace { CommentKind::Brace } else { CommentKind::Line },
            span: Span::default(),
        })),
        1 => any::<u16>().prop_map(|value| Item::Nag(Nag { value, span: Span::default() })),
        1 => "[WB?]:[WB][0-9K,:-]{0,20}".prop_map(|fen| Item::Setup(SetupCommand {
            fen,
            span: Span::default(),
        })),
    ]
}

fn line() -> impl Strategy<Value = Line> {
    let flat = prop::collection::vec(leaf(), 0..12).prop_map(|items| Line { items });
    flat.prop_recursive(3, 40, 6, |inner| {
        prop::collection::vec(
            prop_oneof![
                4 => leaf(),
                1 => inner.prop_map(|line| Item::Variation(Variation { line, span: Span::default() })),
            ],
            0..12,
        )
        .prop_map(|items| Line { items })
    })
}

fn tag() -> impl Strategy<Value = Tag> {
    let name = prop_oneof![
        prop::sample::select(vec![
            "Event", "Site", "Date", "Round", "White", "Black", "Result", "FEN", "GameType",
        ])
        .prop_map(str::to_owned),
        // Other names; those that are another spelling of a standard name (`ORt` is the
        // German `Ort`, Site) read back as the standard name, so they are not generated.
        "[A-Z][A-Za-z0-9_]{0,8}".prop_filter("another form of a standard name", |n| {
            pdn::syntax::standard_tag_name(n).is_none_or(|s| s == n)
        }),
    ];
    (name, text()).prop_map(|(name, value)| Tag::new(name, value, Span::default()))
}

fn game() -> impl Strategy<Value = Game> {
    let result = prop::option::of(
        prop::sample::select(vec![
            "2-0", "0-2", "1-1", "1-0", "0-1", "0-0", "1/2-1/2", "*",
        ])
        .prop_map(|t| ResultToken {
            text: t.to_owned(),
            span: Span::default(),
        }),
    );
    (prop::collection::vec(tag(), 0..6), line(), result).prop_map(|(tags, body, result)| Game {
        index: 1,
        offset: 0,
        line: 1,
        column: 1,
        source: String::new(),
        encoding: Encoding::Utf8,
        tags,
        body,
        result,
        errors: Vec::new(),
        notes: Vec::new(),
    })
}

proptest! {
    #![proptest_config(crate::support::proptest_config("syntax_props", 1500))]

    #[test]
    fn generated_games_survive_write_then_read(games in prop::collection::vec(game(), 1..4)) {
        if let Err(e) = round_trip(&games) {
            prop_assert!(false, "{}", e);
        }
    }
}
