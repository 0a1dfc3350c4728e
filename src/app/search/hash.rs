//! The 64-bit key of a position in an index: its variant, its side to move and where its
//! men and kings stand (nothing else: positions are the same when their pieces and side to
//! move are). A fixed function of those, the same on every machine and in every run, so that
//! an index written once is read anywhere. Two positions may share a key (rarely: 64 bits),
//! so every hit is checked against the position itself.

use crate::rules::{Bits, Color, Position, Variant};

const P0: u64 = 0xa076_1d64_78bd_642f;
const P1: u64 = 0xe703_7ed1_a0b4_28db;
const P2: u64 = 0x8ebc_6af0_9c88_c6e3;
const P3: u64 = 0x5899_65cc_7537_4cc3;
const P4: u64 = 0x1d8e_4e27_c47d_124f;

/// The 128-bit product of two words, folded to 64 bits (wyhash's `mum`).
#[inline(always)]
fn mum(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    (r as u64) ^ ((r >> 64) as u64)
}

/// The key of a placement: White's pieces, Black's, the kings, the side to move, the variant
/// (its place in [`Variant::ALL`]).
#[inline]
pub fn key(variant: usize, side: Color, white: u128, black: u128, kings: u128) -> u64 {
    let tag = ((variant as u64) << 1) | side.index() as u64;
    let lo = mum(white as u64 ^ P0, black as u64 ^ P1) ^ mum(kings as u64 ^ P2, tag ^ P3);
    let hi = (white >> 64) as u64 | (black >> 64) as u64 | (kings >> 64) as u64;
    let h = if hi == 0 {
        lo
    } else {
        lo ^ mum(
            (white >> 64) as u64 ^ P1,
            ((black >> 64) as u64 ^ P4).wrapping_add(mum((kings >> 64) as u64 ^ P2, P3)),
        )
    };
    mum(h ^ P4, tag ^ P0)
}

/// The key of a position of variant `variant`.
#[inline]
pub fn position_key<B: Bits>(variant: Variant, pos: &Position<B>) -> u64 {
    key(
        super::slot(variant),
        pos.side(),
        pos.pieces(Color::White).to_u128(),
        pos.pieces(Color::Black).to_u128(),
        pos.kings().to_u128(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::spec::{Canadian, English, International};
    use crate::rules::{Bits, Spec};

    const PINNED: u64 = 0x054d_dec9_7a1b_448c;

    /// The key is a fixed function: these values are written in index files.
    #[test]
    fn keys_are_fixed() {
        let start = position_key(Variant::International, &International::start());
        assert_eq!(
            start,
            position_key(Variant::International, &International::start())
        );
        let mut other = International::start();
        other.set_side(Color::Black);
        assert_ne!(start, position_key(Variant::International, &other));
        assert_ne!(
            position_key(Variant::English, &English::start()),
            position_key(Variant::Italian, &English::start()),
            "the variant is part of the key"
        );
        let big = position_key(Variant::Canadian, &Canadian::start());
        let mut c = Canadian::start();
        let high = c.pieces(Color::White).highest();
        assert!(high >= 64, "the test reaches the high word");
        c.remove(high);
        assert_ne!(big, position_key(Variant::Canadian, &c));
        assert_eq!(
            key(0, Color::White, 1, 2, 0),
            PINNED,
            "{:#x}",
            key(0, Color::White, 1, 2, 0)
        );
    }

    /// Keys of many positions that differ in one square do not collide.
    #[test]
    fn single_square_changes_change_the_key() {
        let mut seen = std::collections::HashSet::new();
        for w in 0..128u32 {
            for side in Color::ALL {
                assert!(seen.insert(key(0, side, 1u128 << w, 0, 0)));
                assert!(seen.insert(key(0, side, 0, 1u128 << w, 0)));
                assert!(seen.insert(key(0, side, 1u128 << w, 0, 1u128 << w)));
            }
        }
    }
}
