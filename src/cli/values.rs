//! Value parsers for the closed sets that are not plain value enums: the variants (listed
//! with their aliases and GameType numbers in `--help` and offered by the completions, but
//! read as leniently as a `GameType` tag: any case, `_` or space for `-`, the numbers) and
//! the commands that have a man page.

use std::ffi::OsStr;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use pdn::app::write::terminal::escape;
use pdn::rules::Variant;

/// The variants, each with its description and the aliases `--variant` takes for it.
pub(super) const VARIANTS: [(Variant, &str); 16] = [
    (
        Variant::International,
        "10x10, FMJD rules (GameType 20; also standard, fmjd, 10x10, polish, dammen, dames, international-draughts)",
    ),
    (
        Variant::English,
        "English draughts, American checkers, 8x8 (GameType 21; also american, checkers, draughts)",
    ),
    (
        Variant::Italian,
        "Italian draughts, 8x8 (GameType 22; also dama-italiana)",
    ),
    (
        Variant::Pool,
        "American pool checkers, 8x8 (GameType 23; also american-pool, pool-checkers)",
    ),
    (Variant::Spanish, "Spanish draughts, 8x8 (GameType 24)"),
    (
        Variant::Russian,
        "Russian draughts, 8x8 (GameType 25; also shashki)",
    ),
    (Variant::Brazilian, "Brazilian draughts, 8x8 (GameType 26)"),
    (
        Variant::Canadian,
        "Canadian draughts, 12x12 (GameType 27; also 12x12)",
    ),
    (
        Variant::Portuguese,
        "Portuguese draughts, 8x8 (GameType 28)",
    ),
    (
        Variant::Czech,
        "Czech draughts, 8x8 (GameType 29; also ceska-dama)",
    ),
    (
        Variant::Turkish,
        "Turkish draughts, 8x8 (GameType 30; also dama)",
    ),
    (
        Variant::Thai,
        "Thai draughts, 8x8 (GameType 31; also mak-hot, makhos)",
    ),
    (Variant::Frisian, "Frisian draughts, 10x10 (GameType 40)"),
    (
        Variant::Frysk,
        "lidraughts' Frysk!, Frisian with 5 pieces a side (GameType 97)",
    ),
    (
        Variant::Antidraughts,
        "lidraughts' antidraughts, the losing game (GameType 98; also anti, losing)",
    ),
    (
        Variant::Breakthrough,
        "lidraughts' breakthrough: the first king wins (GameType 96)",
    ),
];

/// `--variant`: a variant's name, one of its aliases or its GameType number, in any case.
#[derive(Clone, Copy, Debug)]
pub(super) struct VariantParser;

impl TypedValueParser for VariantParser {
    type Value = Variant;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<Variant, clap::Error> {
        let text = value.to_string_lossy();
        text.parse::<Variant>().map_err(|_| {
            let mut e = clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd);
            let name = arg.map_or_else(|| "--variant".to_string(), ToString::to_string);
            e.insert(ContextKind::InvalidArg, ContextValue::String(name));
            // The value as typed may hold control characters: escaped for the terminal.
            e.insert(
                ContextKind::InvalidValue,
                ContextValue::String(escape(&text).into_owned()),
            );
            e.insert(
                ContextKind::ValidValue,
                ContextValue::Strings(VARIANTS.iter().map(|(v, _)| v.name().into()).collect()),
            );
            e
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            VARIANTS
                .iter()
                .map(|(v, help)| PossibleValue::new(v.name()).help(*help)),
        ))
    }
}

/// The commands with a man page of their own (`pdn man COMMAND`): every subcommand
/// (tests/it/cli_docs.rs checks the list against the command line).
pub(super) const MAN_PAGES: [&str; 14] = [
    "validate",
    "fix",
    "convert",
    "stats",
    "search",
    "explore",
    "index",
    "classify",
    "merge",
    "names",
    "diagram",
    "perft",
    "completions",
    "man",
];

/// The parser of `pdn classify --show-table NAME`: the shipped tables.
pub(super) fn shipped_tables() -> PossibleValuesParser {
    PossibleValuesParser::new(pdn::app::openings::Table::shipped_names())
}

/// The parser of `pdn man COMMAND`.
pub(super) fn man_pages() -> PossibleValuesParser {
    PossibleValuesParser::new(MAN_PAGES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_is_listed_once_with_aliases_that_parse_to_it() {
        assert_eq!(VARIANTS.map(|(v, _)| v), Variant::ALL);
        for (v, help) in VARIANTS {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            if let Some(n) = help.split("GameType ").nth(1) {
                let n: String = n.chars().take_while(char::is_ascii_digit).collect();
                assert_eq!(n.parse::<Variant>(), Ok(v), "{help}");
            }
            if let Some(also) = help.split("also ").nth(1) {
                for alias in also.trim_end_matches(')').split(", ") {
                    assert_eq!(alias.parse::<Variant>(), Ok(v), "{alias}");
                }
            }
        }
    }
}
