//! Game results: reading result strings (`2-0`, `1/2-1/2`, `½-½`, `4-6`, `*`) into outcomes,
//! seen from the side that moves first (docs/pdn.md#results).

use crate::rules::{Color, ResultType, Rules};

/// What a result string says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side that moves first won.
    FirstWon,
    /// The other side won.
    SecondWon,
    /// A draw.
    Draw,
    /// Both sides lost (`0-0`, double forfeit).
    BothLost,
    /// Unknown or unfinished (`*`).
    Unknown,
    /// A score that is none of these (a match score like `4-6`).
    Other,
}

impl Outcome {
    /// The winner, if the outcome names one.
    pub(crate) fn winner(self, first: Color) -> Option<Color> {
        match self {
            Outcome::FirstWon => Some(first),
            Outcome::SecondWon => Some(first.other()),
            _ => None,
        }
    }

    /// The outcome in which `winner` won.
    pub(crate) fn won_by(winner: Color, first: Color) -> Outcome {
        if winner == first {
            Outcome::FirstWon
        } else {
            Outcome::SecondWon
        }
    }

    /// In words.
    pub fn describe(self, first: Color) -> String {
        match self {
            Outcome::FirstWon | Outcome::SecondWon => {
                let w = self.winner(first).map_or("?", |c| match c {
                    Color::White => "White",
                    Color::Black => "Black",
                });
                format!("{w} won")
            }
            Outcome::Draw => "a draw".to_string(),
            Outcome::BothLost => "both sides lost".to_string(),
            Outcome::Unknown => "unknown".to_string(),
            Outcome::Other => "a score that is not a game result".to_string(),
        }
    }
}

/// A result string without spaces and with ASCII hyphens for dashes (`0 – 2` → `0-2`): the
/// form [`parse`] reads.
pub(crate) fn compact(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '–' | '—' | '‑' => '-',
            c => c,
        })
        .collect()
}

/// Read a result string.
pub fn parse(text: &str) -> Outcome {
    // The usual result (`2-0`) has nothing to compact: read as it is, without a copy.
    if text.bytes().all(|b| b.is_ascii_graphic()) {
        return parse_compact(text);
    }
    parse_compact(&compact(text))
}

/// [`parse`] of a result with no white space and no dash other than `-`.
fn parse_compact(text: &str) -> Outcome {
    match text {
        "*" => Outcome::Unknown,
        "2-0" | "1-0" => Outcome::FirstWon,
        "0-2" | "0-1" => Outcome::SecondWon,
        "1-1" | "1/2-1/2" | "½-½" | "0.5-0.5" | "=" => Outcome::Draw,
        // ResultFormat `Plus draw`: a draw with an advantage to one side.
        "1+-1-" | "1--1+" => Outcome::Draw,
        "0-0" => Outcome::BothLost,
        "" | "?" => Outcome::Unknown,
        _ => Outcome::Other,
    }
}

/// True if a result string belongs to the variant's result type (or is `*`).
pub(crate) fn fits_result_type(text: &str, rules: &Rules) -> bool {
    let t = text.trim();
    let set: &[&str] = match rules.result_type {
        ResultType::International => &["2-0", "0-2", "1-1", "0-0", "*"],
        ResultType::Default => &["1-0", "0-1", "1/2-1/2", "0-0", "*"],
    };
    set.contains(&t)
}

/// The result values a `ResultFormat` tag allows (PDN 3.0, docs/pdn.md#results): `None` for a
/// format this reader does not know (then any string is accepted).
pub(crate) fn format_allows(format: &str, value: &str) -> Option<bool> {
    let fold = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let v = fold(value);
    let common = ["2-0", "0-2", "1-1", "0-0", "*"];
    match fold(format).as_str() {
        "plusdraw" => Some(common.contains(&v.as_str()) || v == "1+-1-" || v == "1--1+"),
        "delfts" => Some(common.contains(&v.as_str()) || v == "11/2-1/2" || v == "1/2-11/2"),
        "goes" => Some(common.contains(&v.as_str()) || goes_score(&v)),
        _ => None,
    }
}

/// `1.02-0.98`: two decimal scores that add up to 2 (the Goes format).
fn goes_score(v: &str) -> bool {
    let Some((a, b)) = v.split_once('-').filter(|(a, _)| !a.is_empty()) else {
        return false;
    };
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(a), Ok(b)) => a >= 0.0 && b >= 0.0 && ((a + b) - 2.0).abs() < 1e-6,
        _ => false,
    }
}

/// The standard result string of an outcome for a variant.
pub(crate) fn standard_string(outcome: Outcome, rules: &Rules) -> &'static str {
    let intl = rules.result_type == ResultType::International;
    match outcome {
        Outcome::FirstWon => {
            if intl {
                "2-0"
            } else {
                "1-0"
            }
        }
        Outcome::SecondWon => {
            if intl {
                "0-2"
            } else {
                "0-1"
            }
        }
        Outcome::Draw => {
            if intl {
                "1-1"
            } else {
                "1/2-1/2"
            }
        }
        Outcome::BothLost => "0-0",
        Outcome::Unknown | Outcome::Other => "*",
    }
}

/// A result for tables: the variant's standard form (`2-0`, `1-0`, `1/2-1/2`, `0-0`; `*`
/// when unknown; a score that is no game result as written, without spaces) and the winner:
/// `white`, `black`, `draw`, `none` (both lost) or `unknown` (no result, no variant to tell
/// which side moved first, or a score that is no game result).
pub fn normalised(
    text: Option<&str>,
    variant: Option<crate::rules::Variant>,
) -> (String, &'static str) {
    let outcome = text.map_or(Outcome::Unknown, parse);
    let result = match (outcome, variant) {
        (Outcome::Other, _) => compact(text.unwrap_or("")),
        (o, Some(v)) => standard_string(o, v.rules()).to_string(),
        (Outcome::Unknown, None) => "*".to_string(),
        (_, None) => compact(text.unwrap_or("")),
    };
    let winner = match outcome {
        Outcome::Draw => "draw",
        Outcome::BothLost => "none",
        Outcome::FirstWon | Outcome::SecondWon => {
            match variant.and_then(|v| outcome.winner(v.rules().first_mover())) {
                Some(Color::White) => "white",
                Some(Color::Black) => "black",
                None => "unknown",
            }
        }
        Outcome::Unknown | Outcome::Other => "unknown",
    };
    (result, winner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{ENGLISH, INTERNATIONAL, Variant};

    #[test]
    fn results_for_tables_are_the_standard_form_and_a_winner() {
        let n = |t: Option<&str>, v| {
            let (r, w) = normalised(t, v);
            (r, w.to_string())
        };
        let intl = Some(Variant::International);
        let eng = Some(Variant::English);
        assert_eq!(n(Some(" 2 - 0"), intl), ("2-0".into(), "white".into()));
        assert_eq!(n(Some("1-0"), intl), ("2-0".into(), "white".into()));
        assert_eq!(n(Some("1/2-1/2"), intl), ("1-1".into(), "draw".into()));
        // Black moves first in English draughts.
        assert_eq!(n(Some("1-0"), eng), ("1-0".into(), "black".into()));
        assert_eq!(n(Some("1-1"), eng), ("1/2-1/2".into(), "draw".into()));
        assert_eq!(n(Some("0-0"), intl), ("0-0".into(), "none".into()));
        assert_eq!(n(Some("*"), intl), ("*".into(), "unknown".into()));
        assert_eq!(n(Some(""), intl), ("*".into(), "unknown".into()));
        assert_eq!(n(None, None), ("*".into(), "unknown".into()));
        assert_eq!(n(Some("4 - 6"), intl), ("4-6".into(), "unknown".into()));
        assert_eq!(n(Some("2-0"), None), ("2-0".into(), "unknown".into()));
    }

    #[test]
    fn results_read() {
        assert_eq!(parse("2-0"), Outcome::FirstWon);
        assert_eq!(parse("1 - 0"), Outcome::FirstWon);
        assert_eq!(compact(" 0 – 2 "), "0-2");
        assert_eq!(parse("0–2"), Outcome::SecondWon);
        assert_eq!(parse("½-½"), Outcome::Draw);
        assert_eq!(parse("1/2-1/2"), Outcome::Draw);
        assert_eq!(parse("4-6"), Outcome::Other);
        assert_eq!(parse("*"), Outcome::Unknown);
        assert_eq!(Outcome::FirstWon.winner(Color::Black), Some(Color::Black));
        assert!(fits_result_type("1-1", &INTERNATIONAL));
        assert!(!fits_result_type("1-0", &INTERNATIONAL));
        assert!(fits_result_type("1/2-1/2", &ENGLISH));
        assert_eq!(standard_string(Outcome::SecondWon, &ENGLISH), "0-1");
    }

    #[test]
    fn result_formats() {
        assert_eq!(format_allows("Plus draw", "1+ - 1-"), Some(true));
        assert_eq!(format_allows("Plus draw", "1/2-1/2"), Some(false));
        assert_eq!(format_allows("Delfts", "1 1/2 - 1/2"), Some(true));
        assert_eq!(format_allows("delfts", "2-0"), Some(true));
        assert_eq!(format_allows("Goes", "1.02-0.98"), Some(true));
        assert_eq!(format_allows("Goes", "1.02-1.98"), Some(false));
        assert_eq!(format_allows("Micro-match", "4-6"), None);
        assert_eq!(parse("1+ - 1-"), Outcome::Draw);
    }
}
