//! Text diagrams of positions for human-readable diagnostics.

use std::fmt::Write as _;

use crate::rules::{Bits, Color, NotationKind, Position, Role, Spec};

/// The letter of what stands on square `bit`: `w`/`b` a man, `W`/`B` a king, `.` nothing.
pub(crate) fn piece_char<B: Bits>(pos: &Position<B>, bit: u32) -> char {
    match pos.piece_at(bit) {
        None => '.',
        Some(p) => match (p.color, p.role) {
            (Color::White, Role::Man) => 'w',
            (Color::White, Role::King) => 'W',
            (Color::Black, Role::Man) => 'b',
            (Color::Black, Role::King) => 'B',
        },
    }
}

/// A diagram of the position as the real board looks from White's side: `w`/`b` men,
/// `W`/`B` kings, `.` empty playing squares, blanks for the other squares; square numbers
/// (or ranks and files) at the edges; the side to move below.
pub fn diagram<V: Spec>(pos: &Position<V::B>) -> String {
    let geo = V::geometry();
    let num = V::numbering();
    let (w, h) = (geo.width() as i32, geo.height() as i32);
    let mirrored = num.layout.invert && !num.layout.full;
    let algebraic = num.layout.notation == NotationKind::Algebraic || num.layout.full;
    let mut out = String::new();
    let cells = w as usize * 2 + 1;
    let _ = writeln!(out, "     +{}+", "-".repeat(cells));
    for r in 0..h {
        let mut row = String::with_capacity(cells);
        let mut numbers = Vec::new();
        for real_c in 0..w {
            let c = if mirrored { w - 1 - real_c } else { real_c };
            row.push(' ');
            match geo.at(r, c) {
                None => row.push(' '),
                Some(bit) => {
                    numbers.push(num.number_of_bit(bit));
                    row.push(piece_char(pos, bit));
                }
            }
        }
        row.push(' ');
        if algebraic {
            // Rank of this row: any playing square of it.
            let rank = (0..w)
                .find_map(|c| geo.at(r, c))
                .map(|b| num.algebraic_of_bit(b).1 as u32 + 1)
                .unwrap_or(0);
            let _ = writeln!(out, "  {rank:>2} |{row}|");
        } else {
            let left = numbers.first().copied().unwrap_or(0);
            let right = numbers.last().copied().unwrap_or(0);
            let _ = writeln!(out, "  {left:>2} |{row}| {right}");
        }
    }
    let _ = writeln!(out, "     +{}+", "-".repeat(cells));
    if algebraic {
        let mut files = String::new();
        for real_c in 0..w {
            let c = if mirrored { w - 1 - real_c } else { real_c };
            let file = (0..h)
                .find_map(|r| geo.at(r, c))
                .map(|b| num.algebraic_of_bit(b).0)
                .unwrap_or(0);
            files.push(' ');
            files.push((b'a' + file) as char);
        }
        let _ = writeln!(out, "      {files}");
    }
    let side = match pos.side() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let _ = write!(
        out,
        "     {side} to move; White {} men {} kings, Black {} men {} kings",
        pos.men_of(Color::White).count(),
        pos.kings_of(Color::White).count(),
        pos.men_of(Color::Black).count(),
        pos.kings_of(Color::Black).count()
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::spec;

    #[test]
    fn international_start() {
        let d = diagram::<spec::International>(&spec::International::start());
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[1], "   1 |   b   b   b   b   b | 5");
        assert_eq!(lines[10], "  46 | w   w   w   w   w   | 50");
        assert!(d.ends_with("White to move; White 20 men 0 kings, Black 20 men 0 kings"));
    }

    #[test]
    fn russian_uses_ranks_and_files() {
        let d = diagram::<spec::Russian>(&spec::Russian::start());
        assert!(d.contains("   1 | w   w   w   w   "), "{d}");
        assert!(d.contains("a b c d e f g h"), "{d}");
    }
}
