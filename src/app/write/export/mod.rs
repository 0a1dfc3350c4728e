//! Exporters: strict PDN, JSON Lines, CSV (one row per game or per ply) and the Manoury
//! book style, all written from one replay of each game.
//!
//! [`analyse`] validates a game with a [`PlyRecorder`] watching, then brings its move tree to
//! the normal form of [`normal`]. Each writer takes the resulting [`Analysed`] game:
//!
//! - [`pdn::write`]: strict PDN 3.0 through [`crate::syntax::write_game`];
//! - [`json::write`]: one JSON object per game;
//! - [`csv`]: one row per game, or one per ply of the main line;
//! - [`manoury::write`]: `1. 32-28 (19-23) 2. …`.
//!
//! **Move text.** A move the replay found legal is written in its canonical form: start and
//! destination (`32-28`, `28x19`), the full route of PDN 3.0 rule 9 when the short form
//! does not say which pieces are taken (`47x38x24x13x36`). Captures are always written with
//! `x` — the one capture separator of the PDN 3.0 writing grammar — also in the variants
//! whose GameType row lists another (`:` for Russian, `-` for Thai; docs/pdn.md). A move
//! the replay could not resolve, or found irregular and played as recorded, is written in
//! its syntactic normal form ([`crate::syntax::canonical_move_text`]): nothing is guessed.
//!
//! **Square names.** The variant's own (numeric for international, English, Italian…,
//! algebraic for Russian, Brazilian, Czech), or those asked for with [`Notation`], which
//! applies to the 8x8 boards only (other boards keep their numbers).

pub mod csv;
pub mod json;
mod lines;
pub mod manoury;
pub mod normal;
pub mod pdn;
pub mod plies;
#[cfg(feature = "arrow")]
pub mod table;

use crate::rules::{Color, NotationKind, Numbering, Spec, Variant, with_variant};
use crate::syntax::{
    Game, Item, Line, MoveItem, MoveRef, canonical_move_ref_text, canonical_move_text_in,
};

use crate::app::judge::validate::{Options, Verdict, validate_ref_with, validate_with};
use crate::app::model::reading::{GameRef, Sizes};
use crate::app::model::record::Record;
use normal::{Normal, Settings};
use plies::{Form, Names, PlyEntry, PlyOptions, PlyRecorder};

/// Square names asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    /// The variant's own (its GameType's).
    #[default]
    Native,
    /// Numbers.
    Numeric,
    /// Algebraic coordinates (`c3`).
    Algebraic,
}

/// How a PDN output ends each game (`--result-style`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ResultStyle {
    /// PDN 3.0: the result in the `Result` tag, the movetext ending with `*`.
    #[default]
    Strict,
    /// The movetext also ends with the result, as PDN 2.0 and CheckerBoard write it (`*`
    /// when the result is unknown or no PDN result).
    Terminator,
}

/// How to analyse games for export.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportOptions {
    /// How to validate (forced variant, file hint).
    pub validate: Options,
    /// Square names.
    pub notation: Notation,
    /// How PDN output ends a game.
    pub result_style: ResultStyle,
}

/// A game replayed and normalised, ready for the writers.
#[derive(Debug)]
pub struct Analysed<'g> {
    /// The game as read (its `body` empty when its tree was given up to the normal form:
    /// [`analyse_owned`], [`analyse_ref`]).
    pub game: &'g Game,
    /// What validating it found.
    pub report: Verdict,
    /// The replay's record of every move.
    pub rec: PlyRecorder,
    /// The move tree in normal form, and what normalising changed.
    pub normal: Normal,
    /// Square names of the output (`None` if the variant is unknown).
    pub names: Option<Names>,
    /// How PDN output ends the game.
    pub result_style: ResultStyle,
    /// The record the game was read into, when its normal form is its own tree renumbered
    /// ([`analyse_by_record`]): then `normal.body` is empty, `game` has no tags and no tree,
    /// and the writer that can (`json`) reads the tags and the tree from the record.
    pub by_record: Option<&'g Record>,
    /// The game's text (that of `game`, or of the record read: [`analyse_by_record`]'s
    /// `game` holds none); every span indexes into it.
    pub source: &'g str,
}

impl Analysed<'_> {
    /// The variant the game was replayed in.
    pub fn variant(&self) -> Option<Variant> {
        self.report.variant
    }

    /// The side that moves first in the game's variant.
    pub fn first_mover(&self) -> Option<Color> {
        self.report.variant.map(|v| v.rules().first_mover())
    }

    /// The record of a move.
    pub fn record(&self, m: &MoveItem) -> Option<&PlyEntry> {
        self.rec.find(m.span.start)
    }

    /// The text of a move: canonical if the replay found it legal, else its syntactic
    /// normal form.
    pub fn move_text(&self, game: &Game, m: &MoveItem, form: Form) -> String {
        let mut s = String::new();
        self.push_move_text(game, m, form, &mut s);
        s
    }

    /// Append the text of a move (see [`Analysed::move_text`]).
    pub(crate) fn push_move_text(&self, game: &Game, m: &MoveItem, form: Form, out: &mut String) {
        self.push_move_text_in(&game.source, m, form, out);
    }

    /// [`Analysed::push_move_text`] of a move of the game whose text is `source`.
    pub(crate) fn push_move_text_in(
        &self,
        source: &str,
        m: &MoveItem,
        form: Form,
        out: &mut String,
    ) {
        match (self.record(m), &self.names) {
            (Some(r), Some(names)) if r.played == crate::app::judge::replay::Played::Legal => {
                self.rec.write(r, form, names, out);
            }
            _ => out.push_str(&canonical_move_text_in(source, m)),
        }
    }

    /// [`Analysed::push_move_text_in`] of a move as the replay reads it (of a tree or of a
    /// record).
    pub(crate) fn push_move_ref_text_in(
        &self,
        source: &str,
        m: &MoveRef<'_>,
        form: Form,
        out: &mut String,
    ) {
        match (self.rec.find(m.span.start), &self.names) {
            (Some(r), Some(names)) if r.played == crate::app::judge::replay::Played::Legal => {
                self.rec.write(r, form, names, out);
            }
            _ => out.push_str(&canonical_move_ref_text(source, m)),
        }
    }

    /// The start position as a FEN (the variant's numbering), if known.
    pub fn start_fen(&self) -> Option<String> {
        let v = self.report.variant?;
        let pos = self.rec.start?;
        with_variant!(v, V => pos.get::<V>().map(|p| V::to_fen(&p)))
    }
}

/// The square names of a variant for a notation (other notations than the native one only
/// on 8x8 boards).
pub fn names(variant: Variant, notation: Notation) -> Names {
    let numbering: &'static Numbering = with_variant!(variant, V => V::numbering());
    let layout = numbering.layout;
    let native = layout.notation == NotationKind::Algebraic;
    let eight = layout.width == 8 && layout.height == 8 && !layout.full;
    let algebraic = match notation {
        Notation::Native => native,
        _ if !eight => native,
        Notation::Numeric => false,
        Notation::Algebraic => true,
    };
    Names {
        numbering,
        algebraic: algebraic || layout.full,
    }
}

/// The `GameType` value that describes the square names `names` on a variant's board: the
/// bare type number for the native names, else the extended form with the notation field
/// changed (`25,W,8,8,N2,0` for Russian with numbers, `21,B,8,8,A0,0` for English with
/// coordinates: the names [`Numbering`] gives those boards).
pub(crate) fn game_type_for(variant: Variant, names: &Names) -> String {
    let rules = variant.rules();
    let l = rules.layout;
    let native = l.notation == NotationKind::Algebraic;
    if names.algebraic == native {
        return rules.game_type.to_string();
    }
    let (letter, corner) = if names.algebraic { ('A', 0) } else { ('N', 2) };
    format!(
        "{},{},{},{},{letter}{corner},{}",
        rules.game_type,
        l.first.letter(),
        l.width,
        l.height,
        u8::from(l.invert)
    )
}

/// Validate a game with a recorder and normalise its move tree (a copy of it: see
/// [`analyse_owned`] for a game that can give its tree up).
pub fn analyse<'g>(game: &'g Game, opts: &ExportOptions) -> Analysed<'g> {
    let (report, rec) = replay(game, opts, PlyOptions::default());
    normalised(
        game,
        game.body.clone(),
        report,
        rec,
        Settings::default(),
        opts,
    )
}

/// [`analyse`] of a game that gives its move tree up to the normal form: `game.body` is
/// left empty (the writers read [`Analysed::normal`]), and the tree is never held twice (the
/// normal form is made in place: a huge game costs one tree, not two).
pub fn analyse_owned<'g>(game: &'g mut Game, opts: &ExportOptions) -> Analysed<'g> {
    analyse_in_place(game, opts, PlyOptions::default(), Settings::default())
}

/// [`analyse_owned`] of `game`, the owned game of `g` ([`GameRef::to_game`]), validated from
/// the record `g` was read into (no second record of the game is made: a huge game's is not
/// held twice).
pub fn analyse_ref<'g>(g: &GameRef<'_>, game: &'g mut Game, opts: &ExportOptions) -> Analysed<'g> {
    analyse_ref_in_place(g, game, opts, PlyOptions::default(), Settings::default())
}

/// The replay of the game of `g` (from the record it was read into) with a recorder, as
/// [`analyse_ref`] makes it: to be given to [`analyse_by_record`], or else (a game whose
/// normal form is more than its tree renumbered: [`ByRecord::fits`] false) to
/// [`analyse_replayed`] with its owned game.
pub fn replay_ref(g: &GameRef<'_>, opts: &ExportOptions) -> ByRecord {
    let (report, rec) = replay_record(g, opts, PlyOptions::default());
    let fits = normal::numbering_only(g.record, &rec, &report.diagnostics);
    ByRecord { report, rec, fits }
}

/// A game's replay made on its record ([`replay_ref`]).
#[derive(Debug)]
pub struct ByRecord {
    report: Verdict,
    rec: PlyRecorder,
    fits: bool,
}

impl ByRecord {
    /// True if the game's normal form is its tree renumbered: the JSON writer can read it
    /// from the record ([`analyse_by_record`]), no owned tree needed.
    pub fn fits(&self) -> bool {
        self.fits
    }

    /// What validating the game found.
    pub fn report(&self) -> &Verdict {
        &self.report
    }

    /// The game of `g` as [`analyse_by_record`] gives it to the writers: its place, no text,
    /// no tags, no tree (read from the record and its text: [`Analysed::source`]).
    pub fn shell(g: &GameRef<'_>) -> Game {
        Game {
            index: g.index(),
            offset: g.offset,
            line: g.line,
            column: g.column,
            errors: g.record.errors.clone(),
            notes: g.record.notes.clone(),
            ..Game::default()
        }
    }
}

/// The analysis of a game whose normal form is its tree renumbered ([`ByRecord::fits`]), for
/// the JSON writer, which reads its tags and tree from the record `g` was read into: `game`
/// is [`ByRecord::shell`] of `g` (a huge game's tree is never made).
pub fn analyse_by_record<'g>(
    g: &GameRef<'g>,
    game: &'g Game,
    replay: ByRecord,
    opts: &ExportOptions,
) -> Analysed<'g> {
    debug_assert!(
        replay.fits,
        "a game whose normal form is its tree renumbered"
    );
    let ByRecord { report, rec, .. } = replay;
    let mut a = analysed(game, report, rec, Normal::default(), opts);
    a.by_record = Some(g.record);
    a.source = g.text;
    a
}

/// [`analyse_ref`] of a game replayed already ([`replay_ref`]): `game` is the owned game of
/// `g` ([`GameRef::to_game`]), its tree given up to the normal form.
pub fn analyse_replayed<'g>(
    game: &'g mut Game,
    replay: ByRecord,
    opts: &ExportOptions,
) -> Analysed<'g> {
    let ByRecord { report, rec, .. } = replay;
    let body = std::mem::take(&mut game.body);
    normalised(game, body, report, rec, Settings::default(), opts)
}

/// [`analyse_replayed`] with normalisation settings (`fix`'s first analysis of a game it
/// replayed on its record before it knew it needs its tree).
pub(crate) fn analyse_replayed_with<'g>(
    game: &'g mut Game,
    replay: ByRecord,
    opts: &ExportOptions,
    settings: Settings,
) -> Analysed<'g> {
    let ByRecord { report, rec, .. } = replay;
    let body = std::mem::take(&mut game.body);
    normalised(game, body, report, rec, settings, opts)
}

/// [`analyse_ref`] with recorder and normalisation settings (`fix`'s first analysis: the
/// replay reads the record the game was read into, so that no record of its tree is made
/// beside it).
pub(crate) fn analyse_ref_in_place<'g>(
    g: &GameRef<'_>,
    game: &'g mut Game,
    opts: &ExportOptions,
    record: PlyOptions,
    settings: Settings,
) -> Analysed<'g> {
    debug_assert!(game.source == g.text, "the game of the record");
    let (report, rec) = replay_record(g, opts, record);
    let body = std::mem::take(&mut game.body);
    normalised(game, body, report, rec, settings, opts)
}

/// The replay of the game of `g` from the record it was read into, each ply recorded as
/// `plies` asks (the recorder reserved at the game's count of moves).
fn replay_record(
    g: &GameRef<'_>,
    opts: &ExportOptions,
    plies: PlyOptions,
) -> (Verdict, PlyRecorder) {
    let mut rec = PlyRecorder::new(plies);
    rec.reserve(g.sizes().moves);
    let report = validate_ref_with(g, &opts.validate, &mut rec);
    rec.sort();
    (report, rec)
}

/// [`analyse_owned`] with recorder and normalisation settings.
pub(crate) fn analyse_in_place<'g>(
    game: &'g mut Game,
    opts: &ExportOptions,
    record: PlyOptions,
    settings: Settings,
) -> Analysed<'g> {
    let (report, rec) = replay(game, opts, record);
    let body = std::mem::take(&mut game.body);
    normalised(game, body, report, rec, settings, opts)
}

/// Validate a game with a recorder and give its moves the numbers of its normal form, the
/// tree otherwise as it is ([`normal::renumber`]): [`Analysed::normal`] has no body (what
/// `fix` writes of a game it has changed: its tree, numbered as its re-check counts).
pub(crate) fn analyse_numbering<'g>(game: &'g mut Game, opts: &ExportOptions) -> Analysed<'g> {
    let (report, rec) = replay(game, opts, PlyOptions::default());
    let first = report.variant.map(|v| v.rules().first_mover());
    let normal = normal::renumber(&mut game.body, &rec, &report.diagnostics, first);
    analysed(game, report, rec, normal, opts)
}

/// Validate a game with a recorder (sorted).
fn replay(game: &Game, opts: &ExportOptions, record: PlyOptions) -> (Verdict, PlyRecorder) {
    let mut rec = PlyRecorder::new(record);
    rec.reserve(moves_of_long(&game.body));
    let report = validate_with(game, &opts.validate, &mut rec);
    rec.sort();
    (report, rec)
}

/// The moves of a tree (variations included) whose main line holds [`Sizes::LONG`] items or
/// more, else zero (see [`GameRef::sizes`]).
fn moves_of_long(body: &Line) -> usize {
    if body.items.len() < Sizes::LONG {
        return 0;
    }
    let mut moves = 0;
    let mut lines = vec![body];
    while let Some(line) = lines.pop() {
        for item in &line.items {
            match item {
                Item::Move(_) => moves += 1,
                Item::Variation(v) => lines.push(&v.line),
                _ => {}
            }
        }
    }
    moves
}

/// The analysis of `game` from its replay: `body`, its move tree, put in normal form.
fn normalised<'g>(
    game: &'g Game,
    body: Line,
    report: Verdict,
    rec: PlyRecorder,
    settings: Settings,
    opts: &ExportOptions,
) -> Analysed<'g> {
    let first = report.variant.map(|v| v.rules().first_mover());
    let normal = normal::normalize(body, game, &rec, &report.diagnostics, first, settings);
    analysed(game, report, rec, normal, opts)
}

fn analysed<'g>(
    game: &'g Game,
    report: Verdict,
    rec: PlyRecorder,
    normal: Normal,
    opts: &ExportOptions,
) -> Analysed<'g> {
    let names = report.variant.map(|v| names(v, opts.notation));
    Analysed {
        game,
        report,
        rec,
        normal,
        names,
        result_style: opts.result_style,
        by_record: None,
        source: &game.source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::model::reading::FileGames;
    use crate::syntax::Reader;

    /// Every variation of a line, and their lines, at their size.
    fn assert_at_size(line: &Line) -> usize {
        assert_eq!(line.items.capacity(), line.items.len());
        let mut variations = 0;
        for item in &line.items {
            if let Item::Variation(v) = item {
                variations += 1 + assert_at_size(&v.line);
            }
        }
        variations
    }

    #[test]
    fn an_item_of_the_tree_is_at_most_80_bytes() {
        // A huge game's owned tree holds one per move, comment, NAG, variation and setup.
        assert!(
            std::mem::size_of::<Item>() <= 80,
            "{}",
            std::mem::size_of::<Item>()
        );
    }

    #[test]
    fn a_long_game_is_made_at_its_size() {
        // Two kings going back and forth, every move with an alternative (every fourth with
        // one of its own inside), a comment on every other move: 5,000 moves of the main line.
        let mut text = String::from("[GameType \"20\"]\n[FEN \"W:WK50:BK1\"]\n");
        for n in (1..2500).step_by(2) {
            if n % 4 == 1 {
                text.push_str(&format!("{n}. 50-45 (50-44 1-7 (1-6) 44-50) 1-6 {{c}} "));
            } else {
                text.push_str(&format!("{n}. 50-45 (50-44) 1-6 "));
            }
            text.push_str(&format!("{}. 45-50 (45-40) 6-1\n", n + 1));
        }
        text.push_str("*\n");
        let read = Reader::new(text.as_bytes())
            .next()
            .expect("a game")
            .expect("read from memory");
        let mut reader = Reader::new(text.as_bytes());
        FileGames::new(0)
            .next(&mut reader, |g| {
                let sizes = g.sizes();
                let mut game = g.to_game();
                assert_eq!(game, read, "the game the reader gives");
                assert_eq!(sizes.main_items, game.body.items.len());
                let variations = assert_at_size(&game.body);
                assert_eq!(variations, 2500 + 625);
                assert_eq!(sizes.moves, 5000 + 2500 + 625 * 3);
                let a = analyse_ref(g, &mut game, &ExportOptions::default());
                assert_eq!(a.report.errors(), 0, "{:?}", a.report.diagnostics);
                assert_eq!(a.rec.records.len(), sizes.moves, "every move replayed");
                assert_eq!(a.rec.records.capacity(), sizes.moves);
                // The tree as read, replayed: its ply record made at its size too.
                let mut owned = read.clone();
                let b = analyse_owned(&mut owned, &ExportOptions::default());
                assert_eq!(b.rec.records.capacity(), sizes.moves);
                assert_eq!(b.normal, a.normal);
            })
            .expect("read from memory")
            .expect("a game");
        // A short game: nothing counted.
        let mut reader = Reader::new(&b"1. 32-28 19-23 *"[..]);
        FileGames::new(0)
            .next(&mut reader, |g| assert_eq!(g.sizes(), Sizes::default()))
            .expect("read from memory")
            .expect("a game");
    }

    /// The JSON of every game of `text` made on its record ([`analyse_by_record`], when its
    /// normal form is its tree renumbered) and on its tree ([`analyse_ref`]): the same bytes,
    /// in the native and the algebraic names. Returns the games made on the record and those
    /// refused (made on the tree again from their replay: [`analyse_replayed`], the same
    /// bytes too).
    fn json_both_ways(text: &[u8], place: &str) -> (usize, usize) {
        let (mut fits, mut refused) = (0, 0);
        let mut reader = Reader::new(text);
        let mut file = FileGames::new(0);
        while let Some(()) = file
            .next(&mut reader, |g| {
                for notation in [Notation::Native, Notation::Algebraic] {
                    let opts = ExportOptions {
                        notation,
                        ..ExportOptions::default()
                    };
                    let mut game = g.to_game();
                    let mut want = String::new();
                    json::write(&analyse_ref(g, &mut game, &opts), "f.pdn", &mut want);
                    let replay = replay_ref(g, &opts);
                    let mut got = String::new();
                    let fit = replay.fits();
                    if fit {
                        let shell = ByRecord::shell(g);
                        let a = analyse_by_record(g, &shell, replay, &opts);
                        json::write(&a, "f.pdn", &mut got);
                    } else {
                        let mut game = g.to_game();
                        json::write(
                            &analyse_replayed(&mut game, replay, &opts),
                            "f.pdn",
                            &mut got,
                        );
                    }
                    assert_eq!(got, want, "{place}, game {}, fits: {fit}", g.index());
                    if notation == Notation::Native {
                        fits += usize::from(fit);
                        refused += usize::from(!fit);
                    }
                }
            })
            .expect("read from memory")
        {}
        (fits, refused)
    }

    #[test]
    fn json_made_on_the_record_is_that_of_the_tree_on_every_fixture() {
        let mut dirs = vec![crate::project_root().join("fixtures")];
        let (mut fits, mut refused) = (0, 0);
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).expect("a fixture directory") {
                let p = e.expect("an entry").path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "pdn") {
                    let bytes = std::fs::read(&p).expect("a fixture");
                    let (f, r) = json_both_ways(&bytes, &p.display().to_string());
                    fits += f;
                    refused += r;
                }
            }
        }
        assert!(
            fits > 200 && refused > 10,
            "{fits} made on the record, {refused} not"
        );
        // Each thing the normal form does beyond numbering refuses the record (and the bytes
        // are the same either way); numbering alone, in all its cases, does not.
        let refuse = [
            "1. 32-28 (19-23) 2. 37-32 *",                // a book-style reply
            "1. 32-28 19-23 (2. 28x19 14x23) 2. 37-32 *", // an alternative before its move
            "1. 32-28* 19-23 *",                          // FMJD's forced move
            "1. 32-28 19-23 2. 28x19 14x23 ] 3. 37-32 *", // a syntax error
            // A capture written one jump per move.
            "[GameType \"20\"]\n[FEN \"W:W32:B27,28,17,18,19,12,13,7\"]\n1. 32x23 23x14 *",
        ];
        for game in refuse {
            assert_eq!(json_both_ways(game.as_bytes(), game), (0, 1), "{game}");
        }
        // A game cut at the size limit: its syntax error at the end of its text, kept as the
        // last comment of the main line, does not refuse the record.
        let long = "1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 5-10 *\n";
        let mut reader = Reader::new(long.as_bytes()).with_max_game_size(40);
        let mut file = FileGames::new(0);
        let cut = file
            .next(&mut reader, |g| {
                let opts = ExportOptions::default();
                let mut game = g.to_game();
                assert!(!game.read_whole(), "cut");
                let mut want = String::new();
                json::write(&analyse_ref(g, &mut game, &opts), "f.pdn", &mut want);
                let replay = replay_ref(g, &opts);
                assert!(replay.fits(), "{:?}", g.record.errors);
                let shell = ByRecord::shell(g);
                assert!(!shell.read_whole(), "the shell game says it was cut");
                let mut got = String::new();
                json::write(
                    &analyse_by_record(g, &shell, replay, &opts),
                    "f.pdn",
                    &mut got,
                );
                assert_eq!(got, want);
                want
            })
            .expect("read from memory")
            .expect("a game");
        assert!(cut.contains("pdn: syntax-error"), "{cut}");
        let fit = [
            "1. 32-28 19-23 2. 28x19 14x23 *",
            "{a} 1. 32-28 $1 {b} (1. 33-28 {c} 18-23 (1... 19-23)) 1... 19-23 2. 37-32 *",
            "[FEN \"B:W32:B19\"]\n1... 19-23 2. 32-28 *",
            "1. 32-28 19-23 /FEN \"W:W28:B23\"/ 7. 28x19 *",
            "3. 32-28 9. 19-23 10. 33-29 *", // numbers written wrong
            "1. 32-28 2. 33-29 19-24 *",     // a move of the side not to move
            "1. 32-28 !? 19-23 ?? {} *",
        ];
        for game in fit {
            assert_eq!(json_both_ways(game.as_bytes(), game), (1, 0), "{game}");
        }
    }

    #[test]
    fn game_types_for_other_names() {
        let ru = names(Variant::Russian, Notation::Numeric);
        assert!(!ru.algebraic);
        assert_eq!(game_type_for(Variant::Russian, &ru), "25,W,8,8,N2,0");
        let en = names(Variant::English, Notation::Algebraic);
        assert_eq!(game_type_for(Variant::English, &en), "21,B,8,8,A0,0");
        let int = names(Variant::International, Notation::Algebraic);
        assert!(!int.algebraic);
        assert_eq!(game_type_for(Variant::International, &int), "20");
    }
}
