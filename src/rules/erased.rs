//! A position whose variant is known only at run time: [`VariantPosition`], one arm per
//! variant (as shakmaty's `VariantPosition`), for code that keeps positions of a game it
//! replayed without being generic over the variant (the exporters' recorder, `pdn fix`).

use super::bits::Bits;
use super::position::Position;
use super::variant::Variant;
use super::{Spec, with_variant};

/// A position of a variant named at run time. Each arm holds the position of one variant,
/// with that variant's bit-set type; [`VariantPosition::get`] gives it back typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum VariantPosition {
    International(Position<u64>),
    English(Position<u64>),
    Italian(Position<u64>),
    Pool(Position<u64>),
    Spanish(Position<u64>),
    Russian(Position<u64>),
    Brazilian(Position<u64>),
    Canadian(Position<u128>),
    Portuguese(Position<u64>),
    Czech(Position<u64>),
    Turkish(Position<u64>),
    Thai(Position<u64>),
    Frisian(Position<u64>),
    Frysk(Position<u64>),
    Antidraughts(Position<u64>),
    Breakthrough(Position<u64>),
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

    /// The variant of the position.
    pub fn variant(&self) -> Variant {
        match self {
            VariantPosition::International(_) => Variant::International,
            VariantPosition::English(_) => Variant::English,
            VariantPosition::Italian(_) => Variant::Italian,
            VariantPosition::Pool(_) => Variant::Pool,
            VariantPosition::Spanish(_) => Variant::Spanish,
            VariantPosition::Russian(_) => Variant::Russian,
            VariantPosition::Brazilian(_) => Variant::Brazilian,
            VariantPosition::Canadian(_) => Variant::Canadian,
            VariantPosition::Portuguese(_) => Variant::Portuguese,
            VariantPosition::Czech(_) => Variant::Czech,
            VariantPosition::Turkish(_) => Variant::Turkish,
            VariantPosition::Thai(_) => Variant::Thai,
            VariantPosition::Frisian(_) => Variant::Frisian,
            VariantPosition::Frysk(_) => Variant::Frysk,
            VariantPosition::Antidraughts(_) => Variant::Antidraughts,
            VariantPosition::Breakthrough(_) => Variant::Breakthrough,
        }
    }

    /// A position of any bit-set type put into the arm of `variant`.
    pub(crate) fn convert<B: Bits>(variant: Variant, pos: &Position<B>) -> VariantPosition {
        let small = || pos.with_bits::<u64>();
        match variant {
            Variant::International => VariantPosition::International(small()),
            Variant::English => VariantPosition::English(small()),
            Variant::Italian => VariantPosition::Italian(small()),
            Variant::Pool => VariantPosition::Pool(small()),
            Variant::Spanish => VariantPosition::Spanish(small()),
            Variant::Russian => VariantPosition::Russian(small()),
            Variant::Brazilian => VariantPosition::Brazilian(small()),
            Variant::Canadian => VariantPosition::Canadian(pos.with_bits::<u128>()),
            Variant::Portuguese => VariantPosition::Portuguese(small()),
            Variant::Czech => VariantPosition::Czech(small()),
            Variant::Turkish => VariantPosition::Turkish(small()),
            Variant::Thai => VariantPosition::Thai(small()),
            Variant::Frisian => VariantPosition::Frisian(small()),
            Variant::Frysk => VariantPosition::Frysk(small()),
            Variant::Antidraughts => VariantPosition::Antidraughts(small()),
            Variant::Breakthrough => VariantPosition::Breakthrough(small()),
        }
    }

    /// The position in the arm, with another bit-set type.
    pub(crate) fn with_bits<B: Bits>(&self) -> Position<B> {
        match self {
            VariantPosition::Canadian(p) => p.with_bits(),
            VariantPosition::International(p)
            | VariantPosition::English(p)
            | VariantPosition::Italian(p)
            | VariantPosition::Pool(p)
            | VariantPosition::Spanish(p)
            | VariantPosition::Russian(p)
            | VariantPosition::Brazilian(p)
            | VariantPosition::Portuguese(p)
            | VariantPosition::Czech(p)
            | VariantPosition::Turkish(p)
            | VariantPosition::Thai(p)
            | VariantPosition::Frisian(p)
            | VariantPosition::Frysk(p)
            | VariantPosition::Antidraughts(p)
            | VariantPosition::Breakthrough(p) => p.with_bits(),
        }
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
