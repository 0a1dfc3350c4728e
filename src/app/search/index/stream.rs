//! A game's main line in an index: its start, then its moves and setups, each as few bytes
//! as it takes, played back into positions without generating a move.
//!
//! - the start: `0` for the variant's start position, `1` and a position;
//! - a move: its start square (7 bits, the high bit set for a capture), its destination
//!   (7 bits, the high bit set if the man is crowned), and for a capture the number of pieces
//!   taken and the square of each (internal bits);
//! - a setup: [`SETUP`], the ply (4 bytes) and a position;
//! - a position: the side to move (0 White, 1 Black), then White's pieces, Black's pieces
//!   and the kings as 16-byte sets of internal bits.
//!
//! Only moves played without an error follow each other: after one, the stream goes on only
//! with a setup (which sets a position whole). A stream that does not decode is an error
//! ([`Corrupt`]), never a panic.

use crate::rules::{Bits, Color, Move, Piece, Position, Role, Spec};

/// The first byte of a setup (the start square 127, which no board has).
pub const SETUP: u8 = 0x7f;
const CAPTURE: u8 = 0x80;
const PROMOTES: u8 = 0x80;

/// A stream that does not decode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Corrupt;

impl std::fmt::Display for Corrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a game's moves in the index do not decode (the file is damaged)")
    }
}

impl std::error::Error for Corrupt {}

/// Append a position.
pub(crate) fn push_position<B: Bits>(out: &mut Vec<u8>, p: &Position<B>) {
    out.push(p.side().index() as u8);
    for set in [p.pieces(Color::White), p.pieces(Color::Black), p.kings()] {
        out.extend_from_slice(&set.to_u128().to_le_bytes());
    }
}

/// Append the start of a main line.
pub(crate) fn push_start<V: Spec>(out: &mut Vec<u8>, p: &Position<V::B>) {
    if p.placement_key() == V::start().placement_key() {
        out.push(0);
    } else {
        out.push(1);
        push_position(out, p);
    }
}

/// Append a move.
#[inline]
pub(crate) fn push_move<B: Bits>(out: &mut Vec<u8>, m: &Move<B>) {
    let n = m.captured.count();
    out.push(m.from | if n > 0 { CAPTURE } else { 0 });
    out.push(m.to | if m.promotes() { PROMOTES } else { 0 });
    if n > 0 {
        out.push(n as u8);
        for b in m.captured.iter() {
            out.push(b as u8);
        }
    }
}

/// Append a setup after `ply` plies.
pub(crate) fn push_setup<B: Bits>(out: &mut Vec<u8>, ply: u32, p: &Position<B>) {
    out.push(SETUP);
    out.extend_from_slice(&ply.to_le_bytes());
    push_position(out, p);
}

/// What a stream holds, in order.
#[derive(Debug)]
pub(crate) enum Event<'a, B> {
    /// The start position.
    Start(&'a Position<B>),
    /// A move: the position before, the move, the position after, its ply.
    Move(&'a Position<B>, &'a Move<B>, &'a Position<B>, u32),
    /// A setup after `ply` plies.
    Setup(&'a Position<B>, u32),
}

/// Reads a stream.
struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    fn byte(&mut self) -> Result<u8, Corrupt> {
        let v = *self.b.get(self.at).ok_or(Corrupt)?;
        self.at += 1;
        Ok(v)
    }

    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], Corrupt> {
        let s = self.b.get(self.at..self.at + N).ok_or(Corrupt)?;
        self.at += N;
        s.try_into().map_err(|_| Corrupt)
    }

    fn position<V: Spec>(&mut self) -> Result<Position<V::B>, Corrupt> {
        let side = match self.byte()? {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(Corrupt),
        };
        let mask = V::geometry().mask.to_u128();
        let w = u128::from_le_bytes(self.bytes::<16>()?);
        let b = u128::from_le_bytes(self.bytes::<16>()?);
        let k = u128::from_le_bytes(self.bytes::<16>()?);
        if (w | b) & !mask != 0 || w & b != 0 || k & !(w | b) != 0 {
            return Err(Corrupt);
        }
        let mut p = Position::empty(side);
        for (set, color) in [(w, Color::White), (b, Color::Black)] {
            for i in (0..128u32).filter(|i| set >> i & 1 == 1) {
                let role = if k >> i & 1 == 1 {
                    Role::King
                } else {
                    Role::Man
                };
                p.put(i, Piece { color, role });
            }
        }
        Ok(p)
    }
}

/// Play a stream back: `each` gets every event in order (and stops the replay by returning
/// false).
///
/// # Errors
///
/// [`Corrupt`] if the bytes are not a stream of variant `V` (nothing is played past them).
pub(crate) fn replay<V: Spec>(
    bytes: &[u8],
    mut each: impl FnMut(Event<'_, V::B>) -> bool,
) -> Result<(), Corrupt> {
    let mut c = Cursor { b: bytes, at: 0 };
    let mut pos = match c.byte()? {
        0 => V::start(),
        1 => c.position::<V>()?,
        _ => return Err(Corrupt),
    };
    if !each(Event::Start(&pos)) {
        return Ok(());
    }
    let mask = V::geometry().mask;
    let mut ply = 0u32;
    while c.at < bytes.len() {
        let first = c.byte()?;
        if first == SETUP {
            ply = u32::from_le_bytes(c.bytes::<4>()?);
            pos = c.position::<V>()?;
            if !each(Event::Setup(&pos, ply)) {
                return Ok(());
            }
            continue;
        }
        let from = u32::from(first & !CAPTURE);
        let second = c.byte()?;
        let to = u32::from(second & !PROMOTES);
        let mut captured = V::B::ZERO;
        if first & CAPTURE != 0 {
            let n = c.byte()?;
            for _ in 0..n {
                let b = u32::from(c.byte()?);
                if b >= V::B::CAPACITY {
                    return Err(Corrupt);
                }
                captured |= V::B::bit(b);
            }
        }
        let side = pos.side();
        if from >= V::B::CAPACITY
            || to >= V::B::CAPACITY
            || !pos.pieces(side).has(from)
            || !mask.has(to)
            || (captured & !pos.pieces(side.other())).any()
        {
            return Err(Corrupt);
        }
        let by_king = pos.kings().has(from);
        let mv = Move::new(from, to, captured, second & PROMOTES != 0, by_king);
        let after = pos.after(&mv, V::RULES);
        ply = ply.checked_add(1).ok_or(Corrupt)?;
        if !each(Event::Move(&pos, &mv, &after, ply)) {
            return Ok(());
        }
        pos = after;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::MoveList;
    use crate::rules::spec::{Canadian, International, Russian};

    /// A random game's moves, written and played back, give its positions.
    fn round_trip<V: Spec>(seed: u64) {
        let mut rng = seed;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        let mut pos = V::start();
        let mut out = Vec::new();
        push_start::<V>(&mut out, &pos);
        let mut positions = vec![pos];
        let mut list = MoveList::new();
        for _ in 0..200 {
            V::legal_moves(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            let m = list.moves()[(next() % list.len() as u64) as usize];
            push_move(&mut out, &m);
            pos = pos.after(&m, V::RULES);
            positions.push(pos);
        }
        push_setup(&mut out, 7, &positions[3]);
        let mut got = Vec::new();
        replay::<V>(&out, |e| {
            match e {
                Event::Start(p) => got.push((*p, 0)),
                Event::Move(_, _, p, ply) => got.push((*p, ply)),
                Event::Setup(p, ply) => got.push((*p, ply)),
            }
            true
        })
        .expect("decodes");
        let want: Vec<_> = positions
            .iter()
            .enumerate()
            .map(|(i, p)| (p.placement_key(), i as u32))
            .chain([(positions[3].placement_key(), 7)])
            .collect();
        let got: Vec<_> = got.iter().map(|(p, k)| (p.placement_key(), *k)).collect();
        assert_eq!(got, want);
        // Cut anywhere: an error or a shorter line, never a panic.
        for cut in 0..out.len() {
            let _ = replay::<V>(&out[..cut], |_| true);
        }
    }

    #[test]
    fn streams_play_back_their_positions() {
        for seed in 1..20 {
            round_trip::<International>(seed);
            round_trip::<Russian>(seed);
            round_trip::<Canadian>(seed);
        }
    }

    #[test]
    fn garbage_is_corrupt_not_a_panic() {
        assert_eq!(replay::<International>(&[], |_| true), Err(Corrupt));
        assert_eq!(replay::<International>(&[7], |_| true), Err(Corrupt));
        assert_eq!(
            replay::<International>(&[0, 200, 3], |_| true),
            Err(Corrupt)
        );
        let mut bad = vec![1, 0];
        bad.extend_from_slice(&[0xff; 48]);
        assert_eq!(replay::<International>(&bad, |_| true), Err(Corrupt));
    }
}
