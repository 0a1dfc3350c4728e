//! `Squares`: the squares of a move, stored inline for up to three (every ordinary move and
//! short capture) so that reading a move allocates nothing; longer captures spill to the heap.

use std::fmt;
use std::ops::Deref;

use super::game::Square;

const INLINE: usize = 3;

/// The squares of a move in the order written; dereferences to `[Square]`.
#[derive(Clone)]
pub struct Squares(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, buf: [Square; INLINE] },
    Heap(Vec<Square>),
}

impl Squares {
    /// No squares.
    #[inline]
    pub const fn new() -> Squares {
        Squares(Repr::Inline {
            len: 0,
            buf: [Square::Num(0); INLINE],
        })
    }

    /// Two squares.
    #[inline]
    pub const fn pair(a: Square, b: Square) -> Squares {
        Squares(Repr::Inline {
            len: 2,
            buf: [a, b, Square::Num(0)],
        })
    }

    /// Append a square.
    #[inline]
    pub fn push(&mut self, sq: Square) {
        match &mut self.0 {
            Repr::Inline { len, buf } if usize::from(*len) < INLINE => {
                buf[usize::from(*len)] = sq;
                *len += 1;
            }
            _ => self.push_slow(sq),
        }
    }

    /// [`Squares::push`] past the inline capacity (long captures only).
    #[cold]
    #[inline(never)]
    fn push_slow(&mut self, sq: Square) {
        match &mut self.0 {
            Repr::Inline { len, buf } => {
                let mut v = Vec::with_capacity(INLINE * 2);
                v.extend_from_slice(&buf[..usize::from(*len).min(INLINE)]);
                v.push(sq);
                self.0 = Repr::Heap(v);
            }
            Repr::Heap(v) => v.push(sq),
        }
    }

    /// The squares as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Square] {
        match &self.0 {
            Repr::Inline { len, buf } => &buf[..usize::from(*len).min(INLINE)],
            Repr::Heap(v) => v,
        }
    }

    /// Remove every square.
    pub fn clear(&mut self) {
        *self = Squares::new();
    }
}

impl Default for Squares {
    fn default() -> Self {
        Squares::new()
    }
}

impl Deref for Squares {
    type Target = [Square];
    #[inline]
    fn deref(&self) -> &[Square] {
        self.as_slice()
    }
}

impl PartialEq for Squares {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Squares {}

impl fmt::Debug for Squares {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl From<Vec<Square>> for Squares {
    fn from(v: Vec<Square>) -> Self {
        v.into_iter().collect()
    }
}

impl From<&[Square]> for Squares {
    #[inline]
    fn from(v: &[Square]) -> Self {
        match *v {
            [a, b] => Squares::pair(a, b),
            [a, b, c] => Squares(Repr::Inline {
                len: 3,
                buf: [a, b, c],
            }),
            _ => v.iter().copied().collect(),
        }
    }
}

impl FromIterator<Square> for Squares {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Self {
        let mut s = Squares::new();
        for sq in iter {
            s.push(sq);
        }
        s
    }
}

impl<'a> IntoIterator for &'a Squares {
    type Item = &'a Square;
    type IntoIter = std::slice::Iter<'a, Square>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_then_heap() {
        let mut s = Squares::new();
        assert!(s.is_empty());
        for n in 1..=10 {
            s.push(Square::Num(n));
            assert_eq!(s.len(), n as usize);
            assert_eq!(s.last(), Some(&Square::Num(n)));
        }
        let v: Vec<u32> = s
            .iter()
            .map(|q| match q {
                Square::Num(n) => *n,
                Square::Alg { .. } => 0,
            })
            .collect();
        assert_eq!(v, (1..=10).collect::<Vec<_>>());
        let t: Squares = s.iter().copied().collect();
        assert_eq!(s, t);
        assert_eq!(
            format!("{:?}", Squares::from(vec![Square::Num(3)])),
            "[Num(3)]"
        );
    }
}
