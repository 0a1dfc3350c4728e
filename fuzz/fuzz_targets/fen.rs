//! Fuzz target: arbitrary text → `rules::fen::parse`; when it parses, place the position on
//! the boards of several variants, write the FEN back and read it again: no panic, and the
//! written FEN reads back to the same position (written again identically).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdn::rules::{Spec, Variant, fen};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(setup) = fen::parse(text) else {
        return;
    };
    for variant in [
        Variant::International,
        Variant::English,
        Variant::Russian,
        Variant::Canadian,
        Variant::Turkish,
        Variant::Frisian,
    ] {
        pdn::with_variant!(variant, V => {
            if let Ok(pos) = setup.position(V::numbering(), V::geometry(), V::RULES.first_mover()) {
                let written = V::to_fen(&pos);
                let again = V::from_fen(&written)
                    .unwrap_or_else(|e| panic!("{variant}: written FEN {written:?} does not read back: {e}"));
                assert_eq!(V::to_fen(&again), written, "{variant}: FEN not stable");
            }
        });
    }
});
