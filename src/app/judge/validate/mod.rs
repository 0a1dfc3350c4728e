//! Validating one game: syntax findings, tag formats, the variant, the start position, the
//! replay, the result against the terminator and the final position, the draw rules. A game
//! is validated through its [`Record`], filled from an owned [`Game`] or straight from the
//! reader ([`validate_ref`], on a [`GameRef`]).

mod result;
mod tags;

use std::borrow::Cow;

use crate::rules::fen::SquareName;
use crate::rules::{Color, Position, Spec, Variant, with_variant};
use crate::syntax::{Game, Span, ToleratedKind};

use crate::app::judge::diagnostic::{Code, Diagnostic, Severity};
use crate::app::judge::replay::{Ignore, Observer, Replayed, Replayer, Settings};
use crate::app::model::gametype::{self, FileVariant, Source};
use crate::app::model::reading::GameRef;
use crate::app::model::record::{Node, Record};
use crate::app::write::export::normal::marker_finding;

pub use result::comment_result;
pub use tags::{is_pdn_date, is_time_control};

/// How to validate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Force the variant (`--variant`).
    pub variant: Option<Variant>,
    /// Put a board diagram into move diagnostics.
    pub diagrams: bool,
    /// The variant earlier games of the same file showed (see `gametype::FileHint`).
    pub hint: Option<FileVariant>,
    /// Leave variations out (`--main-line`): they are not replayed, and nothing found in
    /// them (syntax errors and notes included) is reported.
    pub main_line: bool,
}

/// What validating a game found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// 1-based index in the file.
    pub game: usize,
    /// The variant the game was replayed in.
    pub variant: Option<Variant>,
    /// How the variant was decided, when it was not given by a tag or `--variant`.
    pub inferred: Option<String>,
    /// True when nothing showed the variant (a game with no square, no FEN, no tag language
    /// and no earlier game of its file that decided it): `variant` is a default, which a
    /// writer must not state as a `GameType` nor use to rewrite the result.
    pub guessed: bool,
    /// Plies of the main line replayed.
    pub plies: u32,
    /// The result: Result tag, else the movetext terminator.
    pub result: Option<String>,
    /// The findings.
    pub diagnostics: Vec<Diagnostic>,
}

impl Verdict {
    /// Number of error diagnostics.
    pub fn errors(&self) -> u32 {
        self.count(Severity::Error)
    }

    /// Number of warnings.
    pub fn warnings(&self) -> u32 {
        self.count(Severity::Warning)
    }

    fn count(&self, s: Severity) -> u32 {
        self.diagnostics
            .iter()
            .filter(|d| d.severity() == s)
            .count() as u32
    }

    /// The first error diagnostic.
    pub(crate) fn first_error(&self) -> Option<&Diagnostic> {
        self.diagnostics
            .iter()
            .find(|d| d.severity() == Severity::Error)
    }
}

/// Validate a game, with an observer of the replayed moves (for exporters).
pub fn validate_with<O: Observer>(game: &Game, opts: &Options, observer: &mut O) -> Verdict {
    validate_record(&Record::of_game(game), &game.source, opts, observer)
}

/// Validate a game.
pub fn validate(game: &Game, opts: &Options) -> Verdict {
    validate_with(game, opts, &mut Ignore)
}

/// Validate a game read into a record (with its file's hint), with an observer of the
/// replayed moves.
pub fn validate_ref_with<O: Observer>(
    game: &GameRef<'_>,
    opts: &Options,
    observer: &mut O,
) -> Verdict {
    validate_record(game.record, game.text, &game.options(opts), observer)
}

/// Validate a game read into a record (with its file's hint).
pub fn validate_ref(game: &GameRef<'_>, opts: &Options) -> Verdict {
    validate_ref_with(game, opts, &mut Ignore)
}

/// Validate the game of a record whose text is `text`, with an observer of the replayed
/// moves.
pub(crate) fn validate_record<O: Observer>(
    game: &Record,
    text: &str,
    opts: &Options,
    observer: &mut O,
) -> Verdict {
    let mut diags = Vec::new();
    for e in &game.errors {
        diags.push(
            Diagnostic::new(Code::SyntaxError, e.message.clone())
                .at(e.span)
                .rule("PDN 3.0 grammar"),
        );
    }
    for n in &game.notes {
        // (Nearly every game has a note: the fixed text borrowed, a count built by hand.)
        let msg: Cow<'static, str> = if n.count > 1 {
            let mut msg = String::with_capacity(n.description().len() + 12);
            msg.push_str(n.description());
            msg.push_str(" (");
            crate::app::write::jsonl::push_uint(&mut msg, u64::from(n.count));
            msg.push_str(" times)");
            msg.into()
        } else {
            n.description().into()
        };
        let mut d = Diagnostic::new(Code::Tolerated, msg).at(n.span);
        if matches!(
            n.kind,
            ToleratedKind::LiteralEscape
                | ToleratedKind::DoubledBracket
                | ToleratedKind::ResumedTagSection
        ) {
            // A broken exporter's damage: one note for the file.
            d.per_file = Some(format!("{:?}", n.kind));
        }
        diags.push(d);
    }
    if game.own_comments() {
        markers(game, text, &mut diags);
    }
    // What the reader found, located in the text: in a variation or not is known once the
    // replay has told book-style replies from variations.
    let read = diags.len();
    tags::check_tags(game, &mut diags);
    let choice = gametype::choose(game, opts.variant, opts.hint);
    let gt_span = game.tag_pair("GameType").map(|(_, s)| s);
    for w in &choice.warnings {
        let mut d = Diagnostic::new(Code::BadTag, w.clone()).rule("PDN 3.0 GameType");
        if let Some(s) = gt_span {
            d = d.at(s);
        }
        diags.push(d);
    }
    let result_text = game
        .tag("Result")
        .filter(|s| !s.trim().is_empty())
        .map(str::to_string)
        .or_else(|| game.result().map(|(r, _)| r.to_string()));
    let mut report = Verdict {
        game: game.index,
        variant: None,
        inferred: None,
        guessed: false,
        plies: 0,
        result: result_text,
        diagnostics: diags,
    };
    if choice.candidates.is_empty() {
        let why = match &choice.source {
            Source::Inferred { reason, .. } => reason.clone(),
            _ => String::new(),
        };
        report.diagnostics.push(
            Diagnostic::new(
                Code::UnknownVariant,
                format!("no variant fits this game ({why}); use --variant"),
            )
            .rule("PDN 3.0 GameType"),
        );
        in_variations(game, &[], read, opts.main_line, &mut report.diagnostics);
        return report;
    }
    report.guessed = matches!(
        choice.source,
        Source::Inferred {
            evidence: false,
            ..
        }
    );
    let game = Subject { record: game, text };
    let (variant, inferred, done) = match &choice.source {
        Source::Inferred {
            candidates, reason, ..
        } if candidates.len() > 1 => {
            let (v, replays_legally, done) = pick(game, candidates, opts, observer);
            let how = if replays_legally {
                "replays legally"
            } else {
                "replays furthest before an error"
            };
            // (Built by hand: this runs for nearly every game without GameType.)
            let mut why = String::with_capacity(48 + reason.len());
            for part in ["no GameType: ", reason, "; ", v.name(), " ", how] {
                why.push_str(part);
            }
            (v, Some(why), done)
        }
        Source::Inferred { reason, .. } => {
            let v = choice.candidates[0];
            // (Built by hand: this runs for nearly every game without GameType.)
            let mut why = String::with_capacity(16 + reason.len() + v.name().len());
            for part in ["no GameType: ", reason, "; ", v.name()] {
                why.push_str(part);
            }
            (v, Some(why), None)
        }
        _ => (choice.candidates[0], None, None),
    };
    let run = match done {
        Some(run) => run,
        None => with_variant!(variant, V => run::<V, _>(game, opts, observer)),
    };
    report.variant = Some(variant);
    report.inferred = inferred;
    report.plies = run.plies;
    report.diagnostics.extend(run.diagnostics);
    in_variations(
        game.record,
        &run.replies,
        read,
        opts.main_line,
        &mut report.diagnostics,
    );
    report
}

/// The syntax errors an earlier conversion kept as comments where they were found
/// (`{pdn: unreadable: …}`, `{pdn: syntax-error: …}`: see `export::normal::marker`), read
/// back as the syntax errors they stand for, so that a round trip keeps every finding.
fn markers(record: &Record, text: &str, diags: &mut Vec<Diagnostic>) {
    for node in record.nodes() {
        if let Node::Comment { span, .. } = node
            && let Some(c) = text.get(span.start as usize..span.end as usize)
            && let Some(inner) = c.strip_prefix('{')
            && let Some(message) = marker_finding(inner.strip_suffix('}').unwrap_or(inner))
        {
            diags.push(
                Diagnostic::new(Code::SyntaxError, message)
                    .at(*span)
                    .rule("PDN 3.0 grammar"),
            );
        }
    }
}

/// Mark what the reader found inside a variation (the first `read` diagnostics: a span
/// inside a parenthesised line that is not a book-style reply, whose starts are `replies`) as
/// in a variation; with `main_line`, drop every finding in a variation.
fn in_variations(
    record: &Record,
    replies: &[u32],
    read: usize,
    main_line: bool,
    diags: &mut Vec<Diagnostic>,
) {
    // (Most of what the reader finds is in the tag section: only what stands after the
    // first node of the movetext may be in a variation.)
    let body_start = record.nodes().first().map_or(u32::MAX, |n| match n {
        Node::Move(m) => m.span.start,
        Node::Comment { span, .. } | Node::Variation { span, .. } | Node::Setup { span, .. } => {
            span.start
        }
        Node::Nag { .. } => 0,
    });
    if record.variations() > 0
        && diags[..read]
            .iter()
            .any(|d| d.span.is_some_and(|s| s.start >= body_start))
    {
        let lines: Vec<Span> = record
            .nodes()
            .iter()
            .filter_map(|n| match n {
                Node::Variation { span, .. } if !replies.contains(&span.start) => Some(*span),
                _ => None,
            })
            .collect();
        for d in &mut diags[..read] {
            if let Some(at) = d.span
                && lines.iter().any(|l| at.start > l.start && at.start < l.end)
            {
                d.variation = true;
            }
        }
    }
    if main_line {
        diags.retain(|d| !d.variation);
    }
}

/// What a game without a tag naming its variant shows its file to be (see
/// `gametype::FileHint`), given what the earlier games showed (`hint`): of the candidates its
/// squares leave, those in which its main line replays legally. It proves the one of them
/// when it has moves and only one replays them (or its squares leave only one); else it
/// shows the one it is taken to be (the hint's variant if that replays it, else the first)
/// when it has moves or a FEN. A game that replays in no candidate, or has neither moves nor
/// FEN, shows nothing.
pub(crate) fn decides(
    record: &Record,
    text: &str,
    hint: Option<FileVariant>,
) -> Option<FileVariant> {
    let choice = gametype::choose(record, None, None);
    let Source::Inferred {
        candidates,
        evidence: true,
        ..
    } = &choice.source
    else {
        return None;
    };
    let moves = record
        .items(record.body())
        .any(|(_, n)| matches!(n, Node::Move(_)));
    if !moves && record.tag("FEN").is_none() {
        return None;
    }
    if let [only] = candidates.as_slice() {
        return Some(FileVariant {
            variant: *only,
            proven: true,
        });
    }
    let game = Subject { record, text };
    let legal: Vec<Variant> = candidates
        .iter()
        .copied()
        .filter(|&v| with_variant!(v, V => probe::<V>(game)) == u32::MAX)
        .collect();
    let taken = hint
        .map(|h| h.variant)
        .filter(|h| legal.contains(h))
        .or_else(|| legal.first().copied())?;
    Some(FileVariant {
        variant: taken,
        proven: moves && legal.len() == 1,
    })
}

/// A game to replay: its record and its text.
#[derive(Clone, Copy)]
struct Subject<'a> {
    record: &'a Record,
    text: &'a str,
}

/// The variant among several `candidates` that the game is: the first whose main line
/// replays without error (errors inside variations do not decide), else the one whose main
/// line goes furthest before its first error; and whether it replays legally. A result that
/// disagrees with the final position says nothing about the board: it does not count.
///
/// The first candidate is replayed in full when nobody observes the replay, or when the
/// observer can forget what it saw ([`Observer::can_restart`]) (its errors tell
/// where its main line fails: the commonest case, a game that replays legally, is then
/// replayed once); the others are probed (see `Replayer::probe`: what a full replay's error
/// diagnostics would say, without writing them), and the winner alone is replayed in full
/// if it is not the first. The full run of the winner comes back when it was made.
fn pick<O: Observer>(
    game: Subject<'_>,
    candidates: &[Variant],
    opts: &Options,
    observer: &mut O,
) -> (Variant, bool, Option<Run>) {
    let first = candidates[0];
    let mut full = None;
    // An observer that can forget what it saw watches the first candidate's full replay
    // (replayed again only if another candidate wins); any other is only shown the winner's.
    let watched = observer.wants_events() && observer.can_restart();
    // A first candidate that fails at its first ply (the commonest wrong guess of a tagless
    // game) is only probed: its findings are never the ones shown unless every candidate
    // fails as early, and then the caller replays it in full.
    let reach = if (observer.wants_events() && !watched)
        || with_variant!(first, V => start_position::<V>(game.record)
            .is_ok_and(|(start, _)| first_ply_fails::<V>(game.record, &start)))
    {
        with_variant!(first, V => probe::<V>(game))
    } else {
        let run = if watched {
            with_variant!(first, V => run::<V, _>(game, opts, observer))
        } else {
            with_variant!(first, V => run::<V, _>(game, opts, &mut Ignore))
        };
        let reach = run.reach;
        full = Some(run);
        reach
    };
    let mut best = (reach, first);
    for &other in &candidates[1..] {
        if best.0 == u32::MAX {
            break;
        }
        let r = with_variant!(other, V => probe::<V>(game));
        if r > best.0 {
            best = (r, other);
        }
    }
    let (reach, v) = best;
    let ran_first = full.is_some();
    let done = if v == first { full } else { None };
    if done.is_none() && ran_first && watched {
        observer.restart();
    }
    (v, reach == u32::MAX, done)
}

/// The start position of a game: its FEN tag, or the variant's start. `Err` is a `bad-fen`.
pub(crate) fn start_position<V: Spec>(game: &Record) -> Result<(Position<V::B>, bool), String> {
    let Some(fen) = game
        .tag("FEN")
        .filter(|f| !f.trim().is_empty() && f.trim() != "?")
    else {
        return Ok((V::start(), false));
    };
    let setup = crate::rules::fen::parse(fen).map_err(|e| format!("FEN `{fen}`: {e}"))?;
    // A FEN without side to move: the side of the first piece moved.
    let side = setup
        .side
        .unwrap_or_else(|| first_mover_of::<V>(game, &setup));
    let pos = setup
        .position(V::numbering(), V::geometry(), side)
        .map_err(|e| format!("FEN `{fen}`: {e}"))?;
    Ok((pos, true))
}

fn first_mover_of<V: Spec>(game: &Record, setup: &crate::rules::fen::Setup) -> Color {
    let first = game.items(game.body()).find_map(|(_, n)| match n {
        Node::Move(m) => game.move_ref(m).squares.first().copied(),
        _ => None,
    });
    if let Some(sq) = first {
        let name = SquareName::from(sq);
        if let Ok(pos) = setup.position(V::numbering(), V::geometry(), V::RULES.first_mover())
            && let Ok(bit) = name.resolve(V::numbering())
            && let Some(p) = pos.piece_at(bit)
        {
            return p.color;
        }
    }
    V::RULES.first_mover()
}

/// What replaying a game found: plies, diagnostics, whether the main line was complete, and
/// the ply of its first error (see [`Replayed::reach`]).
struct Run {
    plies: u32,
    diagnostics: Vec<Diagnostic>,
    reach: u32,
    /// See `Replayed::replies`.
    replies: Vec<u32>,
}

/// How far the main line of a game replays in variant `V` before its first error (the ply of
/// that error; 0 when the start position cannot be set up; `u32::MAX` without error).
fn probe<V: Spec>(game: Subject<'_>) -> u32 {
    let record = game.record;
    let Ok((start, _)) = start_position::<V>(record) else {
        return 0;
    };
    if first_ply_fails::<V>(record, &start) {
        return 1;
    }
    let settings = Settings {
        diagrams: false,
        main_line: true,
    };
    Replayer::<V, Ignore>::new(record, game.text, &start, settings, &mut Ignore)
        .probe(start, first_number(record))
}

/// The commonest answer for a wrong candidate, found without a replay: the first move
/// starts from a square that holds no piece of the side to move, or ends on a square that holds
/// one (and is not the one it started from: a capture may go round), so a replay would stop
/// there, at ply 1. Only for a main line without setups (a bad one would answer 0) whose first
/// element is a move of one reading.
fn first_ply_fails<V: Spec>(record: &Record, start: &Position<V::B>) -> bool {
    let mut items = record.items(record.body());
    // (A setup in a variation only costs the answer; no line is walked for it.)
    if record.any_setup() {
        return false;
    }
    let Some((_, Node::Move(m))) =
        items.find(|(_, n)| !matches!(n, Node::Comment { .. } | Node::Nag { .. }))
    else {
        return false;
    };
    let m = record.move_ref(m);
    if !matches!(
        m.kind,
        crate::syntax::MoveKind::Normal | crate::syntax::MoveKind::Capture(_)
    ) || m.squares.len() < 2
    {
        return false;
    }
    let bit = |sq| SquareName::from(sq).resolve(V::numbering()).ok();
    let from = bit(m.squares[0]);
    let own = from
        .and_then(|b| start.piece_at(b))
        .is_some_and(|p| p.color == start.side());
    if !own {
        return true;
    }
    // Onto a man or king of its own side (never moved or taken in the move; an enemy's
    // square may be a capture's end where taken pieces leave at once: Thai, Turkish).
    let to = m.squares.last().copied().and_then(bit);
    to.is_some_and(|to| {
        Some(to) != from && start.piece_at(to).is_some_and(|p| p.color == start.side())
    })
}

/// The move number of the game's first move (1 if it has none).
fn first_number(game: &Record) -> u32 {
    game.items(game.body())
        .find_map(|(_, n)| match n {
            Node::Move(m) => Some(game.move_number(m).map_or(1, |n| n.number)),
            _ => None,
        })
        .unwrap_or(1)
}

/// Replay a game in variant `V`, and check its result.
fn run<V: Spec, O: Observer>(game: Subject<'_>, opts: &Options, observer: &mut O) -> Run {
    let record = game.record;
    let start = match start_position::<V>(record) {
        Ok((p, _)) => p,
        Err(e) => {
            let mut d = Diagnostic::new(Code::BadFen, e).rule("PDN 3.0 FEN");
            if let Some((_, s)) = record.tag_pair("FEN") {
                d = d.at(s);
            }
            return Run {
                plies: 0,
                diagnostics: vec![d],
                reach: 0,
                replies: Vec::new(),
            };
        }
    };
    let settings = Settings {
        diagrams: opts.diagrams,
        main_line: opts.main_line,
    };
    let mut replayed: Replayed<V> =
        Replayer::<V, O>::new(record, game.text, &start, settings, observer)
            .run(start, first_number(record));
    let mut diagnostics = std::mem::take(&mut replayed.diagnostics);
    result::check::<V>(record, &replayed, &mut diagnostics);
    Run {
        plies: replayed.plies,
        diagnostics,
        reach: replayed.reach,
        replies: std::mem::take(&mut replayed.replies),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::spec::{English, International};
    use crate::syntax::read_games;

    fn record(text: &str) -> Record {
        Record::of_game(&read_games(text.as_bytes())[0])
    }

    /// The first-ply test answers only what a replay would: a first move from an empty or
    /// foreign square, or onto a taken one, fails at ply 1; a legal one does not.
    #[test]
    fn first_ply_fails_only_where_a_replay_stops_at_ply_1() {
        let intl = International::start();
        let eng = English::start();
        // 32-28 is legal in international; in English 28 holds a man of the side that does
        // not move first (Black moves first there from 9-12).
        let r = record("1. 32-28 19-23 *\n");
        assert!(!first_ply_fails::<International>(&r, &intl));
        assert!(first_ply_fails::<English>(&r, &eng));
        for (text, fails) in [
            // Onto a taken square (37-32: a man of its own), and onto an empty one.
            ("1. 37-32 *\n", true),
            ("1. 32-27 *\n", false),
            // From an empty square.
            ("1. 27-22 *\n", true),
            // A setup first, or in a variation: no answer without a replay.
            ("/FEN \"W:W32:B1\"/ 1. 37-32 *\n", false),
            ("1. 37-32 (/FEN \"W:W32:B1\"/ 32-28) *\n", false),
        ] {
            assert_eq!(
                first_ply_fails::<International>(&record(text), &intl),
                fails,
                "{text}"
            );
        }
        // From a FEN start (the position of a FEN tag): its pieces, not the standard ones.
        let fen = International::from_fen("B:W32,K45:B10,19").expect("FEN");
        for (text, fails) in [
            ("1... 19-23 *\n", false),
            ("1... 10x19 *\n", true),
            ("1... 17-21 *\n", true),
            ("1... 19-24 *\n", false),
            ("1... 32-28 *\n", true),
        ] {
            assert_eq!(
                first_ply_fails::<International>(&record(text), &fen),
                fails,
                "{text}"
            );
        }
        // And the variant chosen for a tagless game is the one a full replay of every
        // candidate picks.
        let g = &read_games(b"1. 32-28 19-23 *\n")[0];
        let report = validate(g, &Options::default());
        assert_eq!(report.variant, Some(Variant::International));
        assert_eq!(report.errors(), 0);
    }
}
