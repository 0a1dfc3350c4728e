//! The Arrow plies table of the library (`pdn::app::write::export::table`, what the Python
//! package's `read_arrow` and `convert --to parquet --plies` hand out): its FENs, written
//! from the previous ply's, are the FENs written whole; a game's rows past the text limit
//! are counted and said, never dropped in silence.
#![cfg(feature = "arrow")]

use std::collections::VecDeque;

use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use pdn::app::judge::replay::{Observer, PlyEvent};
use pdn::app::judge::validate::{self, validate_ref_with};
use pdn::app::model::reading::{FileGames, GameRef};
use pdn::app::write::export::Notation;
use pdn::app::write::export::csv::PlyText;
use pdn::app::write::export::table::{PlyChunk, PlyTable};
use pdn::rules::{Position, Spec};
use pdn::syntax::Reader;

use crate::support::{corpus, pdn_files};

/// The FENs before and after of every main-line ply, each written whole (as the CSV does).
struct WholeFens<'a> {
    text: PlyText,
    source: &'a str,
    fens: Vec<(String, String)>,
}

impl Observer for WholeFens<'_> {
    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if e.main {
            self.text.fill(e, self.source, Notation::Native);
            self.fens
                .push((self.text.fen_before.clone(), self.text.fen_after.clone()));
        }
    }

    fn position<V: Spec>(&mut self, _pos: &Position<V::B>, main: bool) {
        if main {
            self.text.restart();
        }
    }
}

fn whole_fens(g: &GameRef<'_>, opts: &validate::Options) -> Vec<(String, String)> {
    let mut w = WholeFens {
        text: PlyText::new(),
        source: g.text,
        fens: Vec::new(),
    };
    validate_ref_with(g, opts, &mut w);
    w.fens
}

/// Check a batch's FENs against the first of those expected, taking them.
fn check(batch: &RecordBatch, want: &mut VecDeque<(String, String)>, rows: &mut usize) {
    let before = batch
        .column_by_name("fen_before")
        .unwrap()
        .as_string::<i32>();
    let after = batch
        .column_by_name("fen_after")
        .unwrap()
        .as_string::<i32>();
    for i in 0..batch.num_rows() {
        let (b, a) = want.pop_front().expect("a FEN for every row");
        assert_eq!(before.value(i), b, "fen_before of row {}", *rows + i);
        assert_eq!(after.value(i), a, "fen_after of row {}", *rows + i);
    }
    *rows += batch.num_rows();
}

/// Over the whole corpus (every variant, setups inside games, illegal moves, boards whose
/// FEN order is not their bit order): the plies table's FENs, copied from the ply before
/// where the position is the same, are those written whole.
#[test]
fn the_plies_tables_fens_are_the_whole_fens_over_the_corpus() {
    let mut files = Vec::new();
    pdn_files(&corpus(), &mut files);
    assert!(files.len() > 1000);
    let opts = validate::Options::default();
    let mut table = PlyTable::new();
    let mut want = VecDeque::new();
    let mut rows = 0;
    for (k, path) in files.iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        let mut reader = Reader::new(&bytes[..]);
        let mut games = FileGames::new(k);
        while let Ok(Some(chunk)) = games.next(&mut reader, |g| {
            want.extend(whole_fens(g, &opts));
            PlyChunk::of_ref(g, "f", &opts, Notation::Native)
        }) {
            assert_eq!(chunk.cut, 0);
            if let Some(b) = table.push(&chunk) {
                check(&b, &mut want, &mut rows);
            }
        }
    }
    check(&table.finish(), &mut want, &mut rows);
    assert!(want.is_empty());
    assert!(rows > 500_000, "{rows} rows");
}

/// A game whose rows pass the text limit keeps the rows before it, counts the plies past it
/// (`cut`) and says so (`cut_note`): nothing is dropped without a word.
#[test]
fn a_game_past_the_text_limit_counts_and_says_the_plies_cut() {
    let text = std::fs::read_to_string(corpus().join("international/wiegerw-draughts-wiersma.pdn"))
        .unwrap();
    let opts = validate::Options::default();
    let mut reader = Reader::new(text.as_bytes());
    let mut games = FileGames::new(0);
    let (whole, cut) = games
        .next(&mut reader, |g| {
            (
                PlyChunk::of_ref(g, "w.pdn", &opts, Notation::Native),
                PlyChunk::of_ref_within(g, "w.pdn", &opts, Notation::Native, 1000),
            )
        })
        .unwrap()
        .unwrap();
    assert!(whole.len() > 20, "{} plies", whole.len());
    assert_eq!(whole.cut, 0);
    assert_eq!(whole.cut_note(), None);
    assert!(cut.cut > 0 && !cut.is_empty());
    assert_eq!(cut.len() + cut.cut as usize, whole.len());
    assert_eq!(
        cut.cut_note().unwrap(),
        format!(
            "game 1: its last {} plies are not in the table (over 1000 bytes of rows in one game)",
            cut.cut
        )
    );
    // The rows kept are the whole chunk's first rows.
    let mut t = PlyTable::new();
    t.push(&cut);
    let kept = t.finish();
    t.push(&whole);
    let all = t.finish();
    assert_eq!(kept, all.slice(0, cut.len()));
}
