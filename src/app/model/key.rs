//! 128-bit keys of game identities (duplicates in `stats`, `merge`): two differently seeded
//! SipHash states fed the same bytes. A key only groups candidates; what shares a key is
//! compared in full wherever a false match would matter.

use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;

/// A 128-bit key being computed.
#[derive(Clone)]
pub(crate) struct Key(DefaultHasher, DefaultHasher);

impl Key {
    /// A key whose two halves start from the seeds `a` and `b` (each user its own pair, so
    /// that keys of different kinds never meet).
    pub(crate) fn seeded(a: u8, b: u8) -> Key {
        let mut x = DefaultHasher::new();
        let mut y = DefaultHasher::new();
        x.write_u8(a);
        y.write_u8(b);
        Key(x, y)
    }

    /// Adds bytes.
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes);
        self.1.write(bytes);
    }

    /// Adds bytes and a terminator, so that `ab`,`c` and `a`,`bc` give different keys.
    pub(crate) fn write_field(&mut self, bytes: &[u8]) {
        self.write(bytes);
        self.0.write_u8(0xff);
        self.1.write_u8(0xff);
    }

    /// Adds a number.
    pub(crate) fn write_u128(&mut self, n: u128) {
        self.0.write_u128(n);
        self.1.write_u128(n);
    }

    /// The key of what was added so far.
    pub(crate) fn finish(&self) -> u128 {
        (u128::from(self.0.finish()) << 64) | u128::from(self.1.finish())
    }
}
