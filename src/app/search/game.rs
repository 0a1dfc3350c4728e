//! Searching one game: the game is validated as `validate` validates it (the same variant,
//! the same replay, the same findings) while a [`Watch`] of the query looks at every
//! position the replay reaches without an error; what it found becomes a [`GameResult`].

use std::any::Any;
use std::sync::Arc;

use crate::rules::{Position, Spec, Variant};
use crate::syntax::Game;

use super::compile::Compiled;
use super::watch::{Hit, Step, Watch};
use super::{GameInfo, GameResult, Match, Searched, Searcher, move_number};
use crate::app::judge::diagnostic::{Code, GameText, Severity};
use crate::app::judge::replay::{Observer, Played, PlyEvent};
use crate::app::judge::validate::{self, Verdict};
use crate::app::model::gametype::FileVariant;
use crate::app::model::reading::GameRef;
use crate::app::model::record::{Node, Record};

/// The replay's observer: makes the [`Watch`] of the game's variant when the start
/// position comes, and feeds it.
struct Adapter<'s> {
    searcher: &'s Searcher,
    watch: Option<Box<dyn Any>>,
    variant: Option<Variant>,
    /// The query does not fit the board of the game's variant.
    unfit: bool,
}

impl Adapter<'_> {
    fn watch<V: Spec>(&mut self) -> Option<&mut Watch<V>> {
        self.watch.as_mut()?.downcast_mut::<Watch<V>>()
    }
}

impl Observer for Adapter<'_> {
    fn position<V: Spec>(&mut self, pos: &Position<V::B>, main: bool) {
        if !main || self.watch.is_some() || self.unfit {
            return;
        }
        self.variant = Some(V::RULES.variant);
        let Some(c) = self.searcher.compiled::<V>() else {
            self.unfit = true;
            return;
        };
        let o = &self.searcher.options;
        let mut w = Watch::<V>::new(c, o.variations, o.all_occurrences);
        w.start(pos);
        self.watch = Some(Box::new(w));
    }

    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if let Some(w) = self.watch::<V>() {
            w.step(&Step {
                before: e.before,
                mv: e.mv,
                after: e.after,
                ply: e.ply,
                main: e.main,
                sound: e.clean && e.played == Played::Legal,
                at: Some(e.item.span.end),
            });
        }
    }

    fn setup<V: Spec>(&mut self, pos: &Position<V::B>, line: u32, ply: u32, clean: bool) {
        if let Some(w) = self.watch::<V>() {
            w.setup(pos, ply, line == 0, clean, None);
        }
    }

    fn can_restart(&self) -> bool {
        true
    }

    fn restart(&mut self) {
        self.watch = None;
        self.variant = None;
        self.unfit = false;
    }
}

/// Where the movetext of a record starts (the place of a comment about the start
/// position): its first element, else its terminator, else the end of the text.
fn movetext_start(record: &Record, text: &str) -> u32 {
    record
        .nodes()
        .iter()
        .find_map(|n| match n {
            Node::Move(m) => Some(record.move_number(m).map_or(m.span.start, |t| t.span.start)),
            Node::Comment { span, .. }
            | Node::Variation { span, .. }
            | Node::Setup { span, .. } => Some(span.start),
            Node::Nag { .. } => None,
        })
        .or_else(|| record.result().map(|(_, s)| s.start))
        .unwrap_or(text.len() as u32)
}

/// The first ply of the main line whose position an error keeps from being searched,
/// from the findings (a move that could not be played, a setup that could not be read).
pub(crate) fn error_ply(report: &Verdict, searched: u32) -> Option<u32> {
    report
        .diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Error && !d.variation)
        .filter_map(|d| match (d.code, d.ply) {
            (c, Some(p)) if c.is_move_code() => Some(p),
            (Code::BadFen, None) if d.span.is_some() => Some(searched + 1),
            _ => None,
        })
        .min()
}

/// A game replayed for a search or an index: its place and tags, the validation report,
/// the number of its first move.
pub(crate) struct Replayed {
    pub info: GameInfo,
    pub report: Verdict,
    pub first_number: u32,
}

/// Validate the game of `record` as `validate` does (`variant`: `--variant`; `hint`: the
/// variant the earlier games of its file showed) with `observer` watching the replay.
pub(crate) fn replay<O: Observer>(
    record: &Record,
    text: &GameText<'_>,
    variant: Option<Variant>,
    hint: Option<FileVariant>,
    observer: &mut O,
) -> Replayed {
    let opts = validate::Options {
        variant,
        diagrams: false,
        hint,
        main_line: false,
    };
    let report = validate::validate_record(record, text.source, &opts, observer);
    let tag = |name: &str| {
        record
            .tag(name)
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    let info = GameInfo {
        index: text.index,
        line: text.line,
        variant: report.variant,
        white: tag("White"),
        black: tag("Black"),
        event: tag("Event"),
        date: tag("Date"),
        result: report
            .result
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string),
    };
    let first_number = record
        .items(record.body())
        .find_map(|(_, n)| match n {
            Node::Move(m) => Some(record.move_number(m).map_or(1, |n| n.number)),
            _ => None,
        })
        .unwrap_or(1);
    Replayed {
        info,
        report,
        first_number,
    }
}

/// The earlier of two error plies.
pub(crate) fn combine(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A hit as a match of a game whose first move is numbered `first_number` (`second`: the
/// second player moves first); `start_at`: where its movetext starts.
pub(crate) fn to_match(h: Hit, first_number: u32, second: bool, start_at: u32) -> Match {
    Match {
        ply: h.ply,
        move_number: move_number(first_number, second, h.ply),
        side: h.side,
        fen: h.fen,
        in_variation: !h.main,
        mirrored: h.form == 1,
        mv: h.mv,
        at: h.at.unwrap_or(start_at),
    }
}

impl Searcher {
    /// The query on the board of `V`, if it fits.
    pub(crate) fn compiled<V: Spec>(&self) -> Option<Arc<Compiled<V>>> {
        let slot = super::slot(V::RULES.variant);
        let any = self.compiled.get(slot)?.as_ref()?;
        Arc::clone(any).downcast::<Compiled<V>>().ok()
    }

    /// Search a game read into a record, whose text is `text`; `hint`: the variant the
    /// earlier games of its file showed.
    pub(crate) fn search_record(
        &self,
        record: &Record,
        text: &GameText<'_>,
        hint: Option<FileVariant>,
    ) -> GameResult {
        self.search_record_as(record, text, self.options.variant, hint)
    }

    /// [`Searcher::search_record`] with the variant forced (or not).
    fn search_record_as(
        &self,
        record: &Record,
        text: &GameText<'_>,
        variant: Option<Variant>,
        hint: Option<FileVariant>,
    ) -> GameResult {
        let mut a = Adapter {
            searcher: self,
            watch: None,
            variant: None,
            unfit: false,
        };
        let g = replay(record, text, variant, hint, &mut a);
        let mut result = GameResult {
            info: g.info,
            plies: g.report.plies,
            searched: 0,
            variation_plies: 0,
            error_ply: None,
            status: Searched::Whole,
            matches: Vec::new(),
            text: None,
        };
        let Some(v) = result.info.variant.or(a.variant) else {
            result.status = Searched::NoVariant;
            return result;
        };
        result.info.variant = Some(v);
        if a.unfit {
            result.status = Searched::Unfit;
            return result;
        }
        let watched = crate::with_variant!(v, V => a.watch::<V>().map(|w| {
            let hits = w.finish();
            let first = w.start.map(|s| s.side());
            (hits, first, w.searched, w.variation_plies, w.error_ply)
        }));
        let Some((hits, first_side, searched, variation_plies, watched_error)) = watched else {
            result.status = Searched::NoStart;
            return result;
        };
        result.searched = searched;
        result.variation_plies = variation_plies;
        result.error_ply = combine(watched_error, error_ply(&g.report, searched));
        if result.error_ply.is_some() {
            result.status = Searched::UpTo;
        }
        let second = first_side.is_some_and(|s| s != v.rules().first_mover());
        let start_at = movetext_start(record, text.source);
        result.matches = hits
            .into_iter()
            .map(|h| to_match(h, g.first_number, second, start_at))
            .collect();
        if self.options.keep_text && !result.matches.is_empty() {
            result.text = Some(text.source.to_string());
        }
        result
    }

    /// Search an owned game; `hint`: the variant the earlier games of its file showed.
    pub fn search_game(&self, game: &Game, hint: Option<FileVariant>) -> GameResult {
        self.search_record(&Record::of_game(game), &GameText::of(game), hint)
    }

    /// Search a game as the pipeline (or [`FileGames`](crate::app::model::reading::FileGames))
    /// reads it, with its file's hint.
    pub fn search_ref(&self, game: &GameRef<'_>) -> GameResult {
        self.search_record(game.record, &game.game_text(), game.hint)
    }

    /// Search an owned game in variant `variant` (the one an index recorded for it), keeping
    /// its text if it matches: for the text of a game an index found.
    pub fn search_game_as(&self, game: &Game, variant: Variant) -> GameResult {
        let mut r = self.search_record_as(
            &Record::of_game(game),
            &GameText::of(game),
            Some(variant),
            None,
        );
        if !r.matches.is_empty() {
            r.text = Some(game.source.clone());
        }
        r
    }
}
