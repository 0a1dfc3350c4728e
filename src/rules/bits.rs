//! The bit-set type behind every bitboard: `u64` for boards up to 64 squares, `u128` above.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// An unsigned integer used as a set of board squares (bit `i` = internal square `i`).
///
/// Implemented for `u64` (8x8, 10x10 and the full 8x8 Turkish board) and `u128` (12x12).
/// Every method is a thin, inlined wrapper over the integer operation.
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// The empty set.
    const ZERO: Self;
    /// Number of bits available.
    const CAPACITY: u32;

    /// The set holding only square `i`.
    fn bit(i: u32) -> Self;
    /// Shift `n` bits towards higher bits; bits pushed out are lost.
    fn shift_higher(self, n: u32) -> Self;
    /// Shift `n` bits towards lower bits; bits pushed out are lost.
    fn shift_lower(self, n: u32) -> Self;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// Index of the lowest square; `CAPACITY` for the empty set.
    fn lowest(self) -> u32;
    /// The set without its lowest square (the empty set stays empty).
    fn without_lowest(self) -> Self;
    /// Index of the highest square; meaningless for the empty set.
    fn highest(self) -> u32;
    /// The set as a `u128` (for hashing and serialisation).
    fn to_u128(self) -> u128;

    /// True if the set is empty.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// True if the set is not empty.
    #[inline(always)]
    fn any(self) -> bool {
        self != Self::ZERO
    }
    /// True if the set holds more than one square (no count of them: without a population
    /// count instruction in the baseline x86-64 target, `count` is a dozen instructions).
    #[inline(always)]
    fn several(self) -> bool {
        self.without_lowest().any()
    }
    /// True if the set holds exactly one square.
    #[inline(always)]
    fn single(self) -> bool {
        self.any() && !self.several()
    }
    /// True if square `i` is in the set.
    #[inline(always)]
    fn has(self, i: u32) -> bool {
        (self & Self::bit(i)).any()
    }
    /// Iterate over the squares, lowest first.
    #[inline(always)]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const CAPACITY: u32 = <$t>::BITS;

            #[inline(always)]
            fn bit(i: u32) -> Self {
                1 << i
            }
            #[inline(always)]
            fn shift_higher(self, n: u32) -> Self {
                self << n
            }
            #[inline(always)]
            fn shift_lower(self, n: u32) -> Self {
                self >> n
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn highest(self) -> u32 {
                <$t>::BITS - 1 - self.leading_zeros()
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
        }
    };
}

impl_bits!(u64);
impl_bits!(u128);

/// Iterator over the squares of a set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_empty() {
            None
        } else {
            let i = self.0.lowest();
            self.0 = self.0.without_lowest();
            Some(i)
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bits> ExactSizeIterator for BitIter<B> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shift_both_ways() {
        assert_eq!(0b100u64.shift_higher(2), 0b10000);
        assert_eq!(0b100u64.shift_lower(2), 0b1);
        assert_eq!(1u128.shift_higher(100), 1u128 << 100);
    }

    #[test]
    fn iterate_lowest_first() {
        let v: Vec<u32> = 0b1010_0110u64.iter().collect();
        assert_eq!(v, vec![1, 2, 5, 7]);
        assert_eq!((1u128 << 77 | 1).iter().collect::<Vec<_>>(), vec![0, 77]);
        assert_eq!((1u128 << 77 | 1).highest(), 77);
    }
}
