//! A position whose variant is known only at run time: [`VariantPosition`], one arm per
//! variant (as shakmaty's `VariantPosition`), for code that keeps positions of a game it
//! replayed without being generic over the variant (the exporters' recorder, `pdn fix`).

use super::bits::Bits;
use super::position::Position;
use super::variant::Variant;
use super::{Spec, with_variant};

/// The enum and its per-variant matches, from one list of the variants with their bit-set
/// types: each match is written once here and expanded for every arm.
macro_rules! variant_positions {
    ($($name:ident: $bits:ty,)*) => {
        /// A position of a variant named at run time. Each arm holds the position of one
        /// variant, with that variant's bit-set type; [`VariantPosition::get`] gives it back
        /// typed.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum VariantPosition {
            $($name(Position<$bits>),)*
        }

        impl VariantPosition {
            /// The variant of the position.
            pub fn variant(&self) -> Variant {
                match self {
                    $(VariantPosition::$name(_) => Variant::$name,)*
                }
            }

            /// A position of any bit-set type put into the arm of `variant`.
            pub(crate) fn convert<B: Bits>(variant: Variant, pos: &Position<B>) -> VariantPosition {
                match variant {
                    $(Variant::$name => VariantPosition::$name(pos.with_bits::<$bits>()),)*
                }
            }

            /// The position in the arm, with another bit-set type.
            pub(crate) fn with_bits<B: Bits>(&self) -> Position<B> {
                match self {
                    $(VariantPosition::$name(p) => p.with_bits(),)*
                }
            }
        }
    };
}

variant_positions! {
    International: u64,
    English: u64,
    Italian: u64,
    Pool: u64,
    Spanish: u64,
    Russian: u64,
    Brazilian: u64,
    Canadian: u128,
    Portuguese: u64,
    Czech: u64,
    Turkish: u64,
    Thai: u64,
    Frisian: u64,
    Frysk: u64,
    Antidraughts: u64,
    Breakthrough: u64,
}

impl VariantPosition {
    /// A position of variant `V`.
    #[inline]
    pub fn of<V: Spec>(pos: &Position<V::B>) -> VariantPosition {
        V::erase(*pos)
    }

    /// The position, typed, if it is of variant `V`.
    #[inline]
    pub fn get<V: Spec>(&self) -> Option<Position<V::B>> {
        V::restore(self)
    }

    /// The position as a FEN in its variant's standard numbering.
    pub fn to_fen(&self) -> String {
        with_variant!(self.variant(), V => match self.get::<V>() {
            Some(p) => V::to_fen(&p),
            None => String::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::spec::{Canadian, English, International};

    #[test]
    fn positions_come_back_typed_and_only_for_their_variant() {
        let start = International::start();
        let any = VariantPosition::of::<International>(&start);
        assert_eq!(any.variant(), Variant::International);
        assert_eq!(any.get::<International>(), Some(start));
        assert_eq!(
            any.get::<English>(),
            None,
            "same bit-set type, other variant"
        );
        let big = VariantPosition::of::<Canadian>(&Canadian::start());
        assert_eq!(big.get::<Canadian>(), Some(Canadian::start()));
        let converted = VariantPosition::convert(Variant::Canadian, &Canadian::start());
        assert_eq!(converted, big, "the generic path gives the same arm");
        assert_eq!(any.to_fen(), International::to_fen(&start));
    }
}
