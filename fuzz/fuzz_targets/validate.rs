//! Fuzz target: arbitrary bytes → read the games and validate each one (inferred variant,
//! then forced to several variants, diagrams on) and render the report in every format: no
//! panic, and an error diagnostic is never reported without a message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdn::app::diagnostic::{Format, Palette};
use pdn::app::findings::{Policy, render_game};
use pdn::app::validate::{Options, validate};
use pdn::rules::Variant;
use pdn::syntax::read_games;

fuzz_target!(|data: &[u8]| {
    let games = read_games(data);
    let mut out = String::new();
    for g in &games {
        for variant in [
            None,
            Some(Variant::International),
            Some(Variant::English),
            Some(Variant::Russian),
            Some(Variant::Canadian),
            Some(Variant::Turkish),
            Some(Variant::Frisian),
        ] {
            let opts = Options {
                variant,
                diagrams: true,
                hint: None,
            };
            let report = validate(g, &opts);
            for d in &report.diagnostics {
                assert!(!d.message.is_empty(), "empty diagnostic message");
            }
            for format in [Format::Human, Format::Short, Format::Json] {
                let r = render_game(
                    format,
                    &Palette::PLAIN,
                    &Policy::default(),
                    "fuzz.pdn",
                    g,
                    &report,
                );
                out.clear();
                out.push_str(&r.text);
            }
        }
    }
});
