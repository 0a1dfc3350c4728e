//! Fuzz target: arbitrary bytes → read every game into a visitor, streamed through a small
//! buffer (games parsed again after refills must deliver nothing twice), and compare what
//! it received with the games of `read_games`: the same games, elements in the same order,
//! errors and notes. No panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdn::syntax::{
    CommentKind, Game, GameEnd, Item, MoveRef, Nag, RawTag, Reader, Skip, Span, Visitor,
    decode_references, decode_text, read_games, standard_tag_name,
};

/// One element, as both sides can describe it.
#[derive(Debug, PartialEq)]
enum El {
    Tag(String, String, Span),
    Move(Span, Option<String>, usize),
    Comment(String, Span),
    Nag(Nag),
    Open,
    Close(Span),
    Setup(String, Span),
    Result(String, Span),
}

#[derive(Default)]
struct Collect {
    els: Vec<El>,
}

fn text(b: &[u8]) -> String {
    decode_text(b).into_owned()
}

impl Visitor for Collect {
    type Output = (Vec<El>, usize, usize, Vec<String>, usize);
    fn begin_game(&mut self) {
        assert!(self.els.is_empty(), "begin_game twice");
    }
    fn tag(&mut self, name: &[u8], value: RawTag<'_>, span: Span) {
        // A `Game` names a tag by its standard name (localised names, other spellings) or
        // with its character references decoded.
        let raw = text(name);
        let name = match standard_tag_name(&raw) {
            Some(s) => s.to_owned(),
            None => decode_references(&raw).into_owned(),
        };
        // The value as a `Game` holds it: character references decoded.
        self.els
            .push(El::Tag(name, value.text().into_owned(), span));
    }
    fn game_move(&mut self, m: &MoveRef<'_>) {
        self.els
            .push(El::Move(m.span, m.strength.map(text), m.squares.len()));
    }
    fn comment(&mut self, t: &[u8], _: CommentKind, span: Span) {
        self.els.push(El::Comment(text(t), span));
    }
    fn nag(&mut self, nag: Nag) {
        self.els.push(El::Nag(nag));
    }
    fn begin_variation(&mut self) -> Skip {
        self.els.push(El::Open);
        Skip(false)
    }
    fn end_variation(&mut self, span: Span) {
        self.els.push(El::Close(span));
    }
    fn setup(&mut self, fen: &[u8], span: Span) {
        self.els.push(El::Setup(text(fen), span));
    }
    fn late_strength(&mut self, t: &[u8]) {
        // The last element of the current line: the move received last before any other
        // element of this line.
        match self.els.last_mut() {
            Some(El::Move(_, s @ None, _)) => *s = Some(text(t)),
            other => panic!("late strength after {other:?}"),
        }
    }
    fn result(&mut self, t: &[u8], span: Span) {
        self.els.push(El::Result(text(t), span));
    }
    fn end_game(&mut self, g: &GameEnd<'_>) -> Self::Output {
        let errors = g.errors.iter().map(|e| e.message.clone()).collect();
        (
            std::mem::take(&mut self.els),
            g.index,
            g.offset as usize,
            errors,
            g.notes.len(),
        )
    }
}

fn walk(items: &[Item], out: &mut Vec<El>) {
    for i in items {
        match i {
            Item::Move(m) => out.push(El::Move(m.span, m.strength.clone(), m.squares.len())),
            Item::Comment(c) => out.push(El::Comment(c.text.clone(), c.span)),
            Item::Nag(n) => out.push(El::Nag(*n)),
            Item::Variation(v) => {
                out.push(El::Open);
                walk(&v.line.items, out);
                out.push(El::Close(v.span));
            }
            Item::Setup(s) => out.push(El::Setup(s.fen.clone(), s.span)),
        }
    }
}

fn elements(g: &Game) -> Vec<El> {
    let mut out: Vec<El> = g
        .tags
        .iter()
        .map(|t| El::Tag(t.name.clone(), t.value.clone(), t.span))
        .collect();
    walk(&g.body.items, &mut out);
    if let Some(r) = &g.result {
        out.push(El::Result(r.text.clone(), r.span));
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let games = read_games(data);
    let mut reader = Reader::new(data).with_buffer_size(1 + data.len() % 61);
    let mut v = Collect::default();
    let mut got = Vec::new();
    while let Some(g) = reader.read_game(&mut v).expect("reading from memory") {
        got.push(g);
    }
    assert_eq!(got.len(), games.len(), "game count");
    for ((els, index, offset, errors, notes), g) in got.into_iter().zip(&games) {
        assert_eq!((index, offset as u64), (g.index, g.offset));
        if g.encoding != pdn::syntax::Encoding::Utf8 {
            continue;
        }
        // Tags and the result come in file order with the elements (a comment may precede
        // the tags, or follow a result that a stray `*` in a variation gave; a tag may follow
        // the result), while a `Game` keeps them apart: compare tags, result and the rest
        // separately.
        let split = |v: Vec<El>| -> (Vec<El>, Vec<El>, Vec<El>) {
            let (tags, rest): (Vec<El>, Vec<El>) =
                v.into_iter().partition(|e| matches!(e, El::Tag(..)));
            let (result, rest) = rest.into_iter().partition(|e| matches!(e, El::Result(..)));
            (tags, result, rest)
        };
        assert_eq!(split(els), split(elements(g)), "elements of game {index}");
        let want: Vec<String> = g.errors.iter().map(|e| e.message.clone()).collect();
        assert_eq!(errors, want, "errors of game {index}");
        assert_eq!(notes, g.notes.len(), "notes of game {index}");
    }
});
