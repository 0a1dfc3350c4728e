//! The result of a game against its record and its final position: the Result tag, the
//! terminator (or a result written as the last comment), their forms and their agreement,
//! the decided final position, and the draw rules reached while play went on.

use crate::rules::{Bits, Color, Position, Spec, Variant};
use crate::syntax::Span;

use super::tags::bad_tag;
use crate::app::judge::diagnostic::{Code, Diagnostic};
use crate::app::judge::replay::Replayed;
use crate::app::model::gametype;
use crate::app::model::outcome::{self, Outcome};
use crate::app::model::record::{Node, Record};

/// What a game's record claims as its result.
struct Claims<'a> {
    /// The Result tag: value and span.
    tag: Option<(&'a str, Span)>,
    /// The terminator (or the result written as a comment): text and span.
    term: Option<(&'a str, Span)>,
    tag_outcome: Option<Outcome>,
    term_outcome: Option<Outcome>,
}

/// Check the result of a game replayed in variant `V`.
pub(super) fn check<V: Spec>(game: &Record, replayed: &Replayed<V>, diags: &mut Vec<Diagnostic>) {
    let rules = V::RULES;
    let first = rules.first_mover();
    let tag = game.tag_pair("Result");
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
    let term: Option<(&str, Span)> = match (game.result(), &commented) {
        (_, Some((text, span))) => Some((text.as_str(), *span)),
        (Some(r), None) => Some(r),
        (None, None) => None,
    };
    let claims = Claims {
        tag,
        term,
        tag_outcome: tag.map(|t| outcome::parse(t.0)),
        term_outcome: term.map(|t| outcome::parse(t.0)),
    };
    if let (Some((t, _)), Some((r, span)), Some(to), Some(ro)) =
        (tag, term, claims.tag_outcome, claims.term_outcome)
        && ro != Outcome::Unknown
        && to != Outcome::Unknown
        && to != ro
    {
        diags.push(
            Diagnostic::new(
                Code::ResultMismatch,
                format!(
                    "the Result tag says {} ({}), the movetext ends with {} ({})",
                    t.trim(),
                    to.describe(first),
                    r,
                    ro.describe(first)
                ),
            )
            .at(span)
            .rule("PDN 3.0 Result"),
        );
    }
    if let Some(t) = tag {
        check_result_form(game, t, rules, diags);
    }
    if replayed.complete {
        check_decided::<V>(replayed, &claims, diags);
    }
    check_draw(replayed, &claims, diags);
}

/// A final position that is decided (no legal move, a breakthrough king) against a result
/// that says otherwise.
fn check_decided<V: Spec>(
    replayed: &Replayed<V>,
    claims: &Claims<'_>,
    diags: &mut Vec<Diagnostic>,
) {
    let rules = V::RULES;
    let first = rules.first_mover();
    let last = replayed.last;
    let decided = if let Some(crowned) = first_king(&last, rules.variant) {
        Some((
            crowned,
            format!("{} crowned the first king", side_word(crowned)),
        ))
    } else if !V::has_legal_move(&last) {
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
                claims.tag.map(|t| t.0),
                claims.tag_outcome,
                claims.tag.map(|t| t.1),
            ),
            (
                claims.term.map(|t| t.0),
                claims.term_outcome,
                claims.term.map(|t| t.1),
            ),
        ] {
            let (Some(text), Some(o)) = (text, o) else {
                continue;
            };
            if matches!(o, Outcome::FirstWon | Outcome::SecondWon | Outcome::Draw) && o != want {
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

/// A draw rule reached while play went on, or a win claimed after it.
fn check_draw<V: Spec>(replayed: &Replayed<V>, claims: &Claims<'_>, diags: &mut Vec<Diagnostic>) {
    let claimed = [claims.tag_outcome, claims.term_outcome]
        .into_iter()
        .flatten()
        .find(|o| matches!(o, Outcome::FirstWon | Outcome::SecondWon | Outcome::Draw));
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
pub fn comment_result(game: &Record) -> Option<(String, Span)> {
    if game.result().is_some_and(|(r, _)| r.trim() != "*") {
        return None;
    }
    let (at, _) = game
        .items(game.body())
        .filter(|(_, n)| !matches!(n, Node::Nag { .. }))
        .last()?;
    let Node::Comment { span, .. } = &game.nodes()[at] else {
        return None;
    };
    let (_, text) = game.last_comment().filter(|(c, _)| *c == at)?;
    let text = text.trim().trim_end_matches('.').trim();
    if text.len() > 12 {
        return None;
    }
    match outcome::parse(text) {
        Outcome::FirstWon | Outcome::SecondWon | Outcome::Draw | Outcome::BothLost => {
            Some((text.to_string(), *span))
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
    game: &Record,
    (value, span): (&str, Span),
    rules: &crate::rules::Rules,
    diags: &mut Vec<Diagnostic>,
) {
    let v = value.trim();
    if v.is_empty() {
        return;
    }
    if let Some(format) = game.tag("ResultFormat") {
        if outcome::format_allows(format, v) == Some(false) {
            diags.push(bad_tag(
                span,
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
            .at(span)
            .rule("PDN 3.0 Result"),
        ),
        o => {
            let own = outcome::standard_string(o, rules);
            let what = o.describe(rules.first_mover());
            // (Built by hand: a file of chess-style results has one on every game.)
            let mut m = String::with_capacity(90 + v.len() + rules.name.len() + what.len());
            for part in [
                "Result `",
                v,
                "` is another form of the ",
                rules.name,
                " result `",
                own,
                "` (",
                &what,
                "); `pdn fix` writes `",
                own,
                "`",
            ] {
                m.push_str(part);
            }
            diags.push(Diagnostic::new(Code::Tolerated, m).at(span));
        }
    }
}
