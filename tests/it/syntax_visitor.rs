//! The visitor reading API (`Reader::read_game`) against `Reader::next_game`: over the
//! whole corpus and with small buffers (the game parsed again after each refill must not
//! deliver an element twice), a visitor that rebuilds the games gets exactly the games of
//! the reader; skipping variations, the call order, encodings.

use crate::support as common;

use pdn::syntax::{
    Comment, CommentKind, Game, GameEnd, Item, Line, MoveItem, MoveRef, Nag, RawTag, Reader,
    ResultToken, SetupCommand, Skip, Span, Squares, Tag, Variation, Visitor, decode_text,
    read_games,
};

/// Builds a `Game` from the elements it receives.
#[derive(Default)]
struct Rebuild {
    tags: Vec<Tag>,
    /// The main line and the open variations (innermost last).
    lines: Vec<Vec<Item>>,
    result: Option<ResultToken>,
    skip_variations: bool,
    began: usize,
}

fn text(b: &[u8]) -> String {
    decode_text(b).into_owned()
}

impl Visitor for Rebuild {
    type Output = Game;

    fn begin_game(&mut self) {
        self.began += 1;
        self.tags.clear();
        self.lines = vec![Vec::new()];
        self.result = None;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, span: Span) {
        let written = text(name);
        let name = match value.standard_name() {
            Some(s) => s.to_owned(),
            None => pdn::syntax::decode_references(&written).into_owned(),
        };
        let written = (written != name).then_some(written);
        self.tags.push(Tag {
            name,
            value: value.text().into_owned(),
            span,
            written,
        });
    }

    fn game_move(&mut self, m: &MoveRef<'_>) {
        let mut squares = Squares::new();
        for &s in m.squares {
            squares.push(s);
        }
        let item = Item::Move(MoveItem {
            number: m.number,
            squares,
            kind: m.kind,
            strength: m.strength.map(|t| text(t).into_boxed_str()),
            span: m.span,
        });
        self.lines.last_mut().unwrap().push(item);
    }

    fn comment(&mut self, t: &[u8], kind: CommentKind, span: Span) {
        let c = Comment {
            text: text(t),
            kind,
            span,
        };
        self.lines.last_mut().unwrap().push(Item::Comment(c));
    }

    fn nag(&mut self, nag: Nag) {
        self.lines.last_mut().unwrap().push(Item::Nag(nag));
    }

    fn begin_variation(&mut self) -> Skip {
        if self.skip_variations {
            return Skip(true);
        }
        self.lines.push(Vec::new());
        Skip(false)
    }

    fn end_variation(&mut self, span: Span) {
        assert!(!self.skip_variations, "end of a skipped variation");
        let items = self.lines.pop().unwrap();
        let v = Variation {
            line: Line { items },
            span,
        };
        self.lines.last_mut().unwrap().push(Item::Variation(v));
    }

    fn setup(&mut self, fen: &[u8], span: Span) {
        let s = SetupCommand {
            fen: text(fen),
            span,
        };
        self.lines.last_mut().unwrap().push(Item::Setup(s));
    }

    fn late_strength(&mut self, t: &[u8]) {
        match self.lines.last_mut().unwrap().last_mut() {
            Some(Item::Move(m)) if m.strength.is_none() => {
                m.strength = Some(text(t).into_boxed_str())
            }
            other => panic!("late strength after {other:?}"),
        }
    }

    fn result(&mut self, t: &[u8], span: Span) {
        self.result = Some(ResultToken {
            text: text(t),
            span,
        });
    }

    fn end_game(&mut self, g: &GameEnd<'_>) -> Game {
        assert_eq!(self.lines.len(), 1, "variations left open");
        Game {
            index: g.index,
            offset: g.offset,
            line: g.line(),
            column: g.column(),
            source: text(g.text),
            encoding: pdn::syntax::Encoding::Utf8,
            tags: std::mem::take(&mut self.tags),
            body: Line {
                items: self.lines.pop().unwrap(),
            },
            result: self.result.take(),
            errors: g.errors.to_vec(),
            notes: g.notes.to_vec(),
        }
    }
}

fn visit(bytes: &[u8], buffer: usize, skip_variations: bool) -> Vec<Game> {
    let mut reader = Reader::new(bytes).with_buffer_size(buffer);
    let mut v = Rebuild {
        skip_variations,
        ..Rebuild::default()
    };
    let mut games = Vec::new();
    while let Some(g) = reader.read_game(&mut v).expect("reading from memory") {
        games.push(g);
    }
    assert_eq!(v.began, games.len(), "begin_game once per game");
    games
}

/// The visitor's games equal the reader's (for a game that is not UTF-8 the reader parses
/// the decoded text, so only the position is compared).
fn check(name: &str, bytes: &[u8], buffer: usize) {
    let want = read_games(bytes);
    let got = visit(bytes, buffer, false);
    assert_eq!(got.len(), want.len(), "{name}: games (buffer {buffer})");
    for (g, w) in got.iter().zip(&want) {
        assert_eq!((g.index, g.offset), (w.index, w.offset), "{name}");
        if w.encoding == pdn::syntax::Encoding::Utf8 {
            assert_eq!(g, w, "{name}: game {} (buffer {buffer})", w.index);
        }
    }
}

#[test]
fn the_visitor_gets_the_games_of_the_reader_on_the_corpus() {
    let mut all = Vec::new();
    common::pdn_files(&common::corpus(), &mut all);
    assert!(all.len() > 2000, "corpus incomplete");
    let mut games = 0;
    for p in &all {
        let bytes = std::fs::read(p).unwrap();
        let name = p.display().to_string();
        check(&name, &bytes, 64 * 1024);
        games += read_games(&bytes).len();
    }
    assert!(games > 10_000, "{games} games");
}

#[test]
fn small_buffers_deliver_nothing_twice() {
    // Every game of these files crosses buffer ends many times over.
    let mut all = Vec::new();
    common::pdn_files(&common::corpus(), &mut all);
    let mut bytes = Vec::new();
    for p in all.iter().step_by(7) {
        bytes.extend(std::fs::read(p).unwrap());
        bytes.push(b'\n');
    }
    for buffer in [1, 7, 64, 333] {
        check("every 7th file", &bytes, buffer);
    }
    let hostile: &[&[u8]] = &[
        b"[Event \"a\"]\n1. 32-28 (19-23 (18-23 {x} 2. 37-32 (33-29)) ) 17-22 ! $3 /FEN \"W:W31:B1\"/ 2-0",
        b"1. 32-28 ((((( 19-23",
        b"[A \"b\\\"c\"] [R \"1\n2\"]\n1. 32-28 ; c\n% d\n19-23 * *",
        b"{ unterminated\n[Event \"b\"]\n1. 32-28 *",
        b"1-1 [Result \"4-6\"] 4-6",
    ];
    for (k, h) in hostile.iter().enumerate() {
        for buffer in [1, 2, 3, 5, 8, 13, 4096] {
            check(&format!("hostile {k}"), h, buffer);
        }
    }
}

#[test]
fn skipped_variations_are_not_delivered() {
    let bytes = b"1. 32-28 (33-28 (34-29) 18-23) 19-23 2. 37-32 {c} (38-32) 14-19 2-0\n\
                  1. 31-27 (((31-26))) 17-22 *";
    let games = visit(bytes, 8, true);
    let want = read_games(bytes);
    assert_eq!(games.len(), 2);
    for (g, w) in games.iter().zip(&want) {
        let main: Vec<_> = w
            .body
            .items
            .iter()
            .filter(|i| !matches!(i, Item::Variation(_)))
            .cloned()
            .collect();
        assert_eq!(g.body.items, main);
    }
}

#[test]
fn bytes_are_as_written_and_decode_like_the_reader() {
    // Windows-1252 `é` (0xE9) in a tag and a comment; an escaped quote.
    let bytes = b"[White \"Ren\xE9 \\\"R\\\"\"]\n1. 32-28 {caf\xE9} 2-0\n";
    #[derive(Default)]
    struct Raw {
        tag: Vec<u8>,
        decoded: String,
        comment: Vec<u8>,
        text_utf8: bool,
    }
    impl Visitor for Raw {
        type Output = ();
        fn tag(&mut self, _: &[u8], value: RawTag<'_>, _: Span) {
            self.tag = value.as_bytes().to_vec();
            self.decoded = value.decode_utf8_lossy().into_owned();
        }
        fn comment(&mut self, t: &[u8], _: CommentKind, _: Span) {
            self.comment = t.to_vec();
        }
        fn end_game(&mut self, g: &GameEnd<'_>) {
            self.text_utf8 = std::str::from_utf8(g.text).is_ok();
        }
    }
    let mut v = Raw::default();
    let mut r = Reader::new(&bytes[..]);
    assert_eq!(r.read_game(&mut v).unwrap(), Some(()));
    assert_eq!(v.tag, b"Ren\xE9 \\\"R\\\"");
    assert_eq!(v.comment, b"caf\xE9");
    assert!(!v.text_utf8);
    let game = &read_games(bytes)[0];
    assert_eq!(game.tag("White"), Some(v.decoded.as_str()));
    assert_eq!(v.decoded, "René \"R\"");
}

#[test]
fn the_size_limit_cuts_a_game_like_the_reader() {
    let mut bytes = b"[Event \"long\"]\n".to_vec();
    for i in 1..400 {
        bytes.extend(format!("{i}. 32-28 19-23 ").as_bytes());
    }
    bytes.extend(b"2-0\n\n[Event \"next\"]\n1. 33-29 *\n");
    let want: Vec<Game> = Reader::new(&bytes[..])
        .with_max_game_size(1000)
        .with_buffer_size(100)
        .map(Result::unwrap)
        .collect();
    let mut reader = Reader::new(&bytes[..])
        .with_max_game_size(1000)
        .with_buffer_size(100);
    let mut v = Rebuild::default();
    let mut got = Vec::new();
    while let Some(g) = reader.read_game(&mut v).unwrap() {
        got.push(g);
    }
    assert_eq!(got, want);
    assert_eq!(got.len(), 2);
    assert!(
        got[0]
            .errors
            .iter()
            .any(|e| e.message.contains("longer than the maximum")),
        "{:?}",
        got[0].errors
    );
}

#[test]
fn positions_asked_now_and_then_are_those_of_the_reader() {
    // Lines are counted on demand: a visitor that asks for some games only (the bytes
    // between are counted when asked, or before a refill drops them) gets the reader's
    // positions. Line breaks of all three kinds, a CR LF pair split by a game boundary
    // and multi-byte characters before a game on the same line.
    struct Every(usize, Vec<(usize, u32, u32)>);
    impl Visitor for Every {
        type Output = ();
        fn end_game(&mut self, g: &GameEnd<'_>) {
            if g.index.is_multiple_of(self.0) {
                let (line, column) = g.line_col();
                assert_eq!((g.line(), g.column()), (line, column));
                self.1.push((g.index, line, column));
            }
        }
    }
    let mut bytes = b"1. 32-28 *\r\n\r\n1. 33-29 *\r\r1. 34-30 *\n\n{\xC3\xA9t\xC3\xA9} 1. 31-27 * 1. 35-30 *\r"
        .to_vec();
    let mut all = Vec::new();
    common::pdn_files(&common::corpus(), &mut all);
    for p in all.iter().step_by(5) {
        bytes.extend(std::fs::read(p).unwrap());
        bytes.extend_from_slice(b"\r\n");
    }
    let want: Vec<(usize, u32, u32)> = read_games(&bytes)
        .iter()
        .map(|g| (g.index, g.line, g.column))
        .collect();
    assert!(want.len() > 1000, "{} games", want.len());
    for every in [1, 2, 7, 1000] {
        for buffer in [1, 7, 333, 64 * 1024] {
            let mut v = Every(every, Vec::new());
            let mut reader = Reader::new(&bytes[..]).with_buffer_size(buffer);
            while reader.read_game(&mut v).unwrap().is_some() {}
            let expected: Vec<_> = want
                .iter()
                .filter(|w| w.0.is_multiple_of(every))
                .copied()
                .collect();
            assert_eq!(v.1, expected, "every {every}th game, buffer {buffer}");
        }
    }
}
