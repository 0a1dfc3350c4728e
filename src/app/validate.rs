//! Validating one game: syntax findings, tag formats, the variant, the start position, the
//! replay, the result against the terminator and the final position, the draw rules; and the
//! JSON Lines records of DESIGN.md.

use serde::Serialize;

use crate::rules::{Bits, Color, Position, Spec, Variant, with_variant};
use crate::syntax::{Game, Item, Span, Tag};

use super::diagnostic::{Code, Diagnostic, Format, LineIndex, Severity, render};
use super::gametype::{self, Source};
use super::jsonl::Object;
use super::outcome::{self, Outcome};
use super::replay::{Ignore, Observer, Replayer, Settings};

/// How to validate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Force the variant (`--variant`).
    pub variant: Option<Variant>,
    /// Put a board diagram into move diagnostics.
    pub diagrams: bool,
    /// The variant earlier games of the same file showed (see `gametype::FileHint`).
    pub hint: Option<Variant>,
}

/// What validating a game found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// 1-based index in the file.
    pub game: usize,
    /// The variant the game was replayed in.
    pub variant: Option<Variant>,
    /// How the variant was decided, when it was not given by a tag or `--variant`.
    pub inferred: Option<String>,
    /// Plies of the main line replayed.
    pub plies: u32,
    /// The result: Result tag, else the movetext terminator.
    pub result: Option<String>,
    /// The findings.
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
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
    pub fn first_error(&self) -> Option<&Diagnostic> {
        self.diagnostics
            .iter()
            .find(|d| d.severity() == Severity::Error)
    }
}

/// Validate a game, with an observer of the replayed moves (for exporters).
pub fn validate_with<O: Observer>(game: &Game, opts: &Options, observer: &mut O) -> Report {
    let mut diags = Vec::new();
    for e in &game.errors {
        diags.push(
            Diagnostic::new(Code::SyntaxError, e.message.clone())
                .at(e.span)
                .rule("PDN 3.0 grammar"),
        );
    }
    for n in &game.notes {
        let msg = if n.count > 1 {
            format!("{} ({} times)", n.description(), n.count)
        } else {
            n.description().to_string()
        };
        diags.push(Diagnostic::new(Code::Tolerated, msg).at(n.span));
    }
    check_tags(game, &mut diags);
    let choice = gametype::choose(game, opts.variant, opts.hint);
    let gt_span = tag_span(game, "GameType");
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
        .or_else(|| game.result.as_ref().map(|r| r.text.clone()));
    if choice.candidates.is_empty() {
        let why = match &choice.source {
            Source::Inferred { reason, .. } => reason.clone(),
            _ => String::new(),
        };
        diags.push(
            Diagnostic::new(
                Code::UnknownVariant,
                format!("no variant fits this game ({why}); use --variant"),
            )
            .rule("PDN 3.0 GameType"),
        );
        return Report {
            game: game.index,
            variant: None,
            inferred: None,
            plies: 0,
            result: result_text,
            diagnostics: diags,
        };
    }
    let (variant, inferred) = match &choice.source {
        Source::Inferred { candidates, reason } if candidates.len() > 1 => {
            // Probe the candidates in order: the first whose main line replays without error
            // wins (errors inside variations do not decide); else the one whose main line
            // goes furthest before its first error. A probe answers what a full replay's
            // error diagnostics would say (see `Replayer::probe`) without writing them; the
            // winner alone is then replayed in full. A result that disagrees with the final
            // position says nothing about the board: it does not count.
            let first = candidates[0];
            let mut best = (with_variant!(first, V => probe::<V>(game)), first);
            for &other in &candidates[1..] {
                if best.0 == u32::MAX {
                    break;
                }
                let r = with_variant!(other, V => probe::<V>(game));
                if r > best.0 {
                    best = (r, other);
                }
            }
            let (reach_best, v) = best;
            let how = if reach_best == u32::MAX {
                "replays legally"
            } else {
                "replays furthest before an error"
            };
            (
                v,
                Some(format!("no GameType: {reason}; {} {how}", v.name())),
            )
        }
        Source::Inferred { reason, .. } => (
            choice.candidates[0],
            Some(format!(
                "no GameType: {reason}; {}",
                choice.candidates[0].name()
            )),
        ),
        _ => (choice.candidates[0], None),
    };
    let (plies, more, _) = with_variant!(variant, V => run::<V, _>(game, opts, observer));
    diags.extend(more);
    Report {
        game: game.index,
        variant: Some(variant),
        inferred,
        plies,
        result: result_text,
        diagnostics: diags,
    }
}

/// Validate a game.
pub fn validate(game: &Game, opts: &Options) -> Report {
    validate_with(game, opts, &mut Ignore)
}

fn tag_span(game: &Game, name: &str) -> Option<crate::syntax::Span> {
    game.tags.iter().find(|t| t.name == name).map(|t| t.span)
}

/// The start position of a game: its FEN tag, or the variant's start. `Err` is a `bad-fen`.
pub fn start_position<V: Spec>(game: &Game) -> Result<(Position<V::B>, bool), String> {
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

fn first_mover_of<V: Spec>(game: &Game, setup: &crate::rules::fen::Setup) -> Color {
    let first = game.body.items.iter().find_map(|i| match i {
        Item::Move(m) => m.squares.first().copied(),
        _ => None,
    });
    if let Some(sq) = first {
        let name = match sq {
            crate::syntax::Square::Num(n) => crate::rules::fen::SquareName::Number(n),
            crate::syntax::Square::Alg { file, rank } => {
                crate::rules::fen::SquareName::Algebraic { file, rank }
            }
        };
        if let Ok(pos) = setup.position(V::numbering(), V::geometry(), V::RULES.first_mover())
            && let Ok(bit) = name.resolve(V::numbering())
            && let Some(p) = pos.piece_at(bit)
        {
            return p.color;
        }
    }
    V::RULES.first_mover()
}

/// What replaying a game found: plies, diagnostics, and whether the main line was complete.
type Run = (u32, Vec<Diagnostic>, bool);

/// How far the main line of a game replays in variant `V` before its first error (the ply of
/// that error; 0 when the start position cannot be set up; `u32::MAX` without error).
fn probe<V: Spec>(game: &Game) -> u32 {
    let Ok((start, _)) = start_position::<V>(game) else {
        return 0;
    };
    // The commonest answer for a wrong candidate, found without a replay: the first move
    // starts from a square that holds no piece of the side to move (a replay would stop
    // there: ply 1). Only for a main line without setups (a bad one would answer 0) whose
    // first element is a move of one reading.
    let items = &game.body.items;
    if !items.iter().any(|i| matches!(i, Item::Setup(_)))
        && let Some(Item::Move(m)) = items
            .iter()
            .find(|i| !matches!(i, Item::Comment(_) | Item::Nag(_)))
        && matches!(
            m.kind,
            crate::syntax::MoveKind::Normal | crate::syntax::MoveKind::Capture(_)
        )
        && m.squares.len() >= 2
    {
        let from = match m.squares[0] {
            crate::syntax::Square::Num(n) => crate::rules::fen::SquareName::Number(n),
            crate::syntax::Square::Alg { file, rank } => {
                crate::rules::fen::SquareName::Algebraic { file, rank }
            }
        };
        let own = from
            .resolve(V::numbering())
            .ok()
            .and_then(|b| start.piece_at(b))
            .is_some_and(|p| p.color == start.side());
        if !own {
            return 1;
        }
    }
    let settings = Settings { diagrams: false };
    Replayer::<V, Ignore>::new(game, &start, settings, &mut Ignore).probe(start, first_number(game))
}

/// The move number of the game's first move (1 if it has none).
fn first_number(game: &Game) -> u32 {
    game.body
        .items
        .iter()
        .find_map(|i| match i {
            Item::Move(m) => Some(m.number.map_or(1, |n| n.number)),
            _ => None,
        })
        .unwrap_or(1)
}

/// Replay a game in variant `V`.
fn run<V: Spec, O: Observer>(game: &Game, opts: &Options, observer: &mut O) -> Run {
    let mut diags = Vec::new();
    let start = match start_position::<V>(game) {
        Ok((p, _)) => p,
        Err(e) => {
            let mut d = Diagnostic::new(Code::BadFen, e).rule("PDN 3.0 FEN (RULES.md §1.10)");
            if let Some(s) = tag_span(game, "FEN") {
                d = d.at(s);
            }
            diags.push(d);
            return (0, diags, false);
        }
    };
    let number = first_number(game);
    let settings = Settings {
        diagrams: opts.diagrams,
    };
    let replayed = Replayer::<V, O>::new(game, &start, settings, observer).run(start, number);
    diags.extend(replayed.diagnostics);
    let rules = V::RULES;
    let first = rules.first_mover();
    // The result: tag, terminator, final position.
    let tag = game.tags.iter().find(|t| t.name == "Result");
    // The terminator, or a result written as the last comment of a game that has none
    // (`… 45-40 {1/2-1/2}`).
    let commented = comment_result(game);
    if let Some((text, span)) = &commented {
        diags.push(
            Diagnostic::new(
                Code::Tolerated,
                format!("result written as a comment `{{{text}}}` (read as the game's result)"),
            )
            .at(*span),
        );
    }
    let term: Option<(&str, Span)> = match (&game.result, &commented) {
        (_, Some((text, span))) => Some((text.as_str(), *span)),
        (Some(r), None) => Some((r.text.as_str(), r.span)),
        (None, None) => None,
    };
    let tag_outcome = tag.map(|t| outcome::parse(&t.value));
    let term_outcome = term.map(|t| outcome::parse(t.0));
    if let (Some(t), Some((r, span)), Some(to), Some(ro)) = (tag, term, tag_outcome, term_outcome)
        && ro != Outcome::Unknown
        && to != Outcome::Unknown
        && to != ro
    {
        diags.push(
            Diagnostic::new(
                Code::ResultMismatch,
                format!(
                    "the Result tag says {} ({}), the movetext ends with {} ({})",
                    t.value.trim(),
                    to.describe(first),
                    r,
                    ro.describe(first)
                ),
            )
            .at(span)
            .rule("PDN 3.0 Result (RULES.md §1.9.1)"),
        );
    }
    if let Some(t) = tag {
        check_result_form(game, t, rules, &mut diags);
    }
    let mut claimed: Option<Outcome> = None;
    for o in [tag_outcome, term_outcome].into_iter().flatten() {
        if matches!(o, Outcome::FirstWon | Outcome::SecondWon | Outcome::Draw) {
            claimed = Some(o);
            break;
        }
    }
    if replayed.complete {
        let last = replayed.last;
        let mut list = crate::rules::MoveList::without_paths();
        V::legal_moves(&last, &mut list);
        let decided = if let Some(crowned) = first_king(&last, rules.variant) {
            Some((
                crowned,
                format!("{} crowned the first king", side_word(crowned)),
            ))
        } else if list.is_empty() {
            let loser = last.side();
            let winner = if rules.variant == Variant::Antidraughts {
                loser
            } else {
                loser.other()
            };
            Some((
                winner,
                format!(
                    "{} has no legal move{}",
                    side_word(loser),
                    if last.pieces(loser).is_empty() {
                        " (no pieces left)"
                    } else {
                        ""
                    }
                ),
            ))
        } else {
            None
        };
        if let Some((winner, why)) = decided {
            let want = Outcome::won_by(winner, first);
            for (text, o, span) in [
                (
                    tag.map(|t| t.value.as_str()),
                    tag_outcome,
                    tag.map(|t| t.span),
                ),
                (term.map(|t| t.0), term_outcome, term.map(|t| t.1)),
            ] {
                let (Some(text), Some(o)) = (text, o) else {
                    continue;
                };
                if matches!(o, Outcome::FirstWon | Outcome::SecondWon | Outcome::Draw) && o != want
                {
                    // PDN gives the first number to the side that moves first; where that is
                    // Black, a record written in the chess order (White first) reads reversed.
                    let chess = if first == Color::Black
                        && matches!(o, Outcome::FirstWon | Outcome::SecondWon)
                        && o.winner(first) == Some(winner.other())
                    {
                        format!(
                            "; read in the chess order (White's score first), `{}` would say that {} won, as the position shows, but PDN gives the first number to the side that moves first ({})",
                            text.trim(),
                            side_word(winner),
                            side_word(first)
                        )
                    } else {
                        String::new()
                    };
                    let mut d = Diagnostic::new(
                        Code::ResultMismatch,
                        format!(
                            "the final position is decided ({why}: {}), but the result says {} ({}){chess}",
                            want.describe(first),
                            text.trim(),
                            o.describe(first)
                        ),
                    )
                    .rule(rules.articles.game_end);
                    if let Some(s) = span {
                        d = d.at(s);
                    }
                    diags.push(d);
                    break;
                }
            }
        }
    }
    if let Some(r) = &replayed.draw {
        let claims_win = matches!(claimed, Some(Outcome::FirstWon | Outcome::SecondWon));
        if replayed.plies_after_draw > 0 || claims_win {
            let then = if replayed.plies_after_draw > 0 {
                format!(
                    "play went on for {} more pl{}",
                    replayed.plies_after_draw,
                    if replayed.plies_after_draw == 1 {
                        "y"
                    } else {
                        "ies"
                    }
                )
            } else {
                "the result claims a win".to_string()
            };
            let mut d = Diagnostic::new(
                Code::DrawRule,
                format!(
                    "after ply {} {}: the game was drawn by rule, but {then}",
                    r.ply, r.what
                ),
            )
            .rule(r.article);
            d.ply = Some(r.ply);
            d.span = r.span;
            diags.push(d);
        }
    }
    (replayed.plies, diags, replayed.complete)
}

/// Breakthrough: the side that crowned a king, which won (the replay stops at the first
/// king, so only a setup can show kings of both sides: then no side is named).
fn first_king<B: Bits>(pos: &Position<B>, variant: Variant) -> Option<Color> {
    if variant != Variant::Breakthrough {
        return None;
    }
    match (
        pos.kings_of(Color::White).any(),
        pos.kings_of(Color::Black).any(),
    ) {
        (true, false) => Some(Color::White),
        (false, true) => Some(Color::Black),
        _ => None,
    }
}

fn side_word(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A result written as the last comment of the main line of a game that ends without one
/// (no terminator, or `*`): its text and the comment's span.
pub fn comment_result(game: &Game) -> Option<(String, Span)> {
    if game.result.as_ref().is_some_and(|r| r.text.trim() != "*") {
        return None;
    }
    let last = game
        .body
        .items
        .iter()
        .rev()
        .find(|i| !matches!(i, Item::Nag(_)))?;
    let Item::Comment(c) = last else { return None };
    let text = c.text.trim().trim_end_matches('.').trim();
    if text.len() > 12 {
        return None;
    }
    match outcome::parse(text) {
        Outcome::FirstWon | Outcome::SecondWon | Outcome::Draw | Outcome::BothLost => {
            Some((text.to_string(), c.span))
        }
        Outcome::Unknown | Outcome::Other => None,
    }
}

/// The form of the Result tag: one of the values of its `ResultFormat` if there is one (any
/// value for a format this reader does not know), else of the variant's result type. A
/// legacy form that means one result (`1-0` in a 10x10 game, `1/2-1/2`, `0 - 2`, `½-½`,
/// `?`) is tolerated, and `pdn fix` writes the variant's own form; anything else is a
/// `bad-tag`.
fn check_result_form(
    game: &Game,
    t: &Tag,
    rules: &crate::rules::Rules,
    diags: &mut Vec<Diagnostic>,
) {
    let v = t.value.trim();
    if v.is_empty() {
        return;
    }
    if let Some(format) = game.tag("ResultFormat") {
        if outcome::format_allows(format, v) == Some(false) {
            diags.push(bad_tag(
                t,
                format!(
                    "Result `{v}` is not one of the results of the ResultFormat `{}`",
                    format.trim()
                ),
            ));
        }
        return;
    }
    if outcome::fits_result_type(v, rules) {
        return;
    }
    let set = if gametype::international_results(rules.variant) {
        "2-0, 1-1, 0-2, 0-0 or *"
    } else {
        "1-0, 1/2-1/2, 0-1, 0-0 or *"
    };
    match outcome::parse(v) {
        Outcome::Other => diags.push(
            Diagnostic::new(
                Code::BadTag,
                format!(
                    "Result `{v}` is not one of the {} results ({set})",
                    rules.name
                ),
            )
            .at(t.span)
            .rule("PDN 3.0 Result (RULES.md §1.9.1)"),
        ),
        o => {
            let own = outcome::standard_string(o, rules);
            diags.push(
                Diagnostic::new(
                    Code::Tolerated,
                    format!(
                        "Result `{v}` is another form of the {} result `{own}` ({}); `pdn fix` writes `{own}`",
                        rules.name,
                        o.describe(rules.first_mover())
                    ),
                )
                .at(t.span),
            );
        }
    }
}

/// Tag formats (`bad-tag`): Date, TimeControl, PlyCount.
fn check_tags(game: &Game, diags: &mut Vec<Diagnostic>) {
    for t in &game.tags {
        let v = t.value.trim();
        let problem = match t.name.as_str() {
            "Date" | "EventDate" | "UTCDate" | "PublicationDate"
                if !v.is_empty() && !is_pdn_date(v) =>
            {
                Some(format!(
                    "{} `{v}` is not YYYY.MM.DD (with ? for unknown digits)",
                    t.name
                ))
            }
            "TimeControl" if !v.is_empty() && !is_time_control(v) => Some(format!(
                "TimeControl `{v}` does not follow the PDN 3.0 grammar"
            )),
            "PlyCount" if !v.is_empty() && v.parse::<u32>().is_err() => {
                Some(format!("PlyCount `{v}` is not a number"))
            }
            _ => None,
        };
        if let Some(p) = problem {
            diags.push(bad_tag(t, p));
        }
    }
}

fn bad_tag(t: &Tag, message: String) -> Diagnostic {
    Diagnostic::new(Code::BadTag, message)
        .at(t.span)
        .rule("PDN 3.0 tag pairs (RULES.md §1.9)")
}

/// `YYYY.MM.DD` with `?` for unknown digits (per group).
pub fn is_pdn_date(v: &str) -> bool {
    let parts: Vec<&str> = v.split('.').collect();
    if parts.len() != 3 {
        return false;
    }
    let ok = |p: &str, n: usize| {
        p.len() == n && (p.bytes().all(|c| c.is_ascii_digit()) || p.bytes().all(|c| c == b'?'))
    };
    ok(parts[0], 4) && ok(parts[1], 2) && ok(parts[2], 2)
}

/// The PDN 3.0 TimeControl grammar.
pub fn is_time_control(v: &str) -> bool {
    if v == "?" || v == "-" {
        return true;
    }
    let elems: Vec<&str> = v.split(':').collect();
    let n = elems.len();
    elems.iter().enumerate().all(|(i, e)| {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        let last = i + 1 == n;
        if let Some((a, b)) = e.split_once('/') {
            digits(a) && digits(b)
        } else if let Some((a, b)) = e.split_once('+') {
            last && digits(a) && digits(b)
        } else if let Some(s) = e.strip_prefix('*') {
            last && digits(s)
        } else {
            last && digits(e)
        }
    })
}

/// Write a game's diagnostics (and in JSON its `game` record) in a format.
pub fn render_report(format: Format, file: &str, game: &Game, report: &Report, out: &mut String) {
    if !report.diagnostics.is_empty() {
        let lines = LineIndex::new(game);
        for d in &report.diagnostics {
            render(format, file, game, &lines, d, out);
        }
    }
    if format == Format::Json {
        // The keys and their order are DESIGN.md's.
        let mut o = Object::new(out);
        o.str("type", "game")
            .str("file", file)
            .uint("game", game.index as u64)
            .opt_str("variant", report.variant.map(Variant::name))
            .uint("plies", u64::from(report.plies))
            .uint("errors", u64::from(report.errors()))
            .uint("warnings", u64::from(report.warnings()))
            .opt_str("result", report.result.as_deref());
        if let Some(why) = report.inferred.as_deref() {
            o.str("variant_inferred", why);
        }
        o.end();
    }
}

/// Totals over files and games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Files read.
    pub files: u64,
    /// Games.
    pub games: u64,
    /// Plies replayed.
    pub plies: u64,
    /// Error diagnostics.
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
    /// Games with at least one error.
    pub games_with_errors: u64,
    /// Inputs that could not be read, or not to their end (DESIGN.md).
    pub unreadable_files: u64,
}

impl Summary {
    /// Add a game: its plies, errors and warnings.
    pub fn add(&mut self, plies: u32, errors: u32, warnings: u32) {
        self.games += 1;
        self.plies += plies as u64;
        self.errors += errors as u64;
        self.warnings += warnings as u64;
        if errors > 0 {
            self.games_with_errors += 1;
        }
    }

    /// Write the summary: a JSON record, or a sentence.
    pub fn render(&self, format: Format, out: &mut String) {
        match format {
            Format::Json => {
                #[derive(Serialize)]
                struct Line<'a> {
                    #[serde(rename = "type")]
                    kind: &'static str,
                    #[serde(flatten)]
                    s: &'a Summary,
                }
                if let Ok(s) = serde_json::to_string(&Line {
                    kind: "summary",
                    s: self,
                }) {
                    out.push_str(&s);
                    out.push('\n');
                }
            }
            Format::Human | Format::Short => {
                out.push_str(&format!(
                    "checked {} game{} ({} plies) in {} file{}: {} error{}, {} warning{}, {} game{} with errors\n",
                    self.games,
                    plural(self.games),
                    self.plies,
                    self.files,
                    plural(self.files),
                    self.errors,
                    plural(self.errors),
                    self.warnings,
                    plural(self.warnings),
                    self.games_with_errors,
                    plural(self.games_with_errors)
                ));
            }
        }
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_time_controls() {
        assert!(is_pdn_date("2003.05.??"));
        assert!(is_pdn_date("????.??.??"));
        assert!(!is_pdn_date("2004-05-01"));
        assert!(!is_pdn_date("1950."));
        assert!(is_time_control("40/7200:3600"));
        assert!(is_time_control("4800+60"));
        assert!(is_time_control("40/7200:20/2400:600+5"));
        assert!(is_time_control("*120"));
        assert!(!is_time_control("90 min"));
        assert!(!is_time_control("60+1:40/20"));
    }
}
