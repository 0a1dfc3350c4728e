//! The tables and readers the replay's fast path reads, held to their plain forms: the FEN
//! reader (its fields and items split byte by byte) against the reader it replaced (the
//! general `str::split` search), the numbering's table of the numbers below 64 against
//! `bit_of_number`, and the crowning rows against the board's rows.

use pdn::rules::fen::{self, FenError, Setup, SquareName};
use pdn::rules::{Color, Piece, Role, Spec, Variant, with_variant};

/// The FEN reader as it was written with `str::split`, `split_once` and `str::parse` (the
/// reference the byte-by-byte reader must equal).
fn reference_parse(text: &str) -> Result<Setup, FenError> {
    // White space and quotes are dropped; a FEN of plain ASCII without them (the usual
    // one) is read in place.
    let plain = text
        .bytes()
        .all(|b| b.is_ascii() && !matches!(b, b' ' | b'\t'..=b'\r' | b'"'));
    let compact: std::borrow::Cow<'_, str> = if plain {
        text.into()
    } else {
        text.chars()
            .filter(|c| !c.is_whitespace() && *c != '"')
            .collect::<String>()
            .into()
    };
    let compact = compact.trim_end_matches('.');
    if compact.is_empty() {
        return Err(FenError::Empty);
    }
    let mut fields = compact.split(':');
    let first = fields.next().unwrap_or("");
    let mut setup = Setup::default();
    let mut rest: Vec<&str> = Vec::new();
    match first {
        "W" | "w" => setup.side = Some(Color::White),
        "B" | "b" => setup.side = Some(Color::Black),
        "?" | "" => {}
        other => {
            // A FEN without side to move that starts with a colour group (`W31,32:B1`)
            // is read as such; anything else is a bad side.
            if other.len() > 1 && matches!(other.as_bytes()[0], b'W' | b'B') {
                rest.push(other);
            } else {
                return Err(FenError::BadSide(other.to_string()));
            }
        }
    }
    rest.extend(fields);
    let mut listed = [false; 2];
    for field in rest {
        let (color, list) = match field.as_bytes().first() {
            None => continue,
            Some(b'W') | Some(b'w') => (Color::White, &field[1..]),
            Some(b'B') | Some(b'b') => (Color::Black, &field[1..]),
            Some(_) => {
                if field
                    .as_bytes()
                    .first()
                    .is_some_and(|c| c.is_ascii_alphabetic())
                {
                    setup.ignored.push(field.to_string());
                    continue;
                }
                return Err(FenError::BadField(field.to_string()));
            }
        };
        let seen = &mut listed[usize::from(color == Color::Black)];
        if std::mem::replace(seen, true) {
            return Err(FenError::ColourTwice(color.letter()));
        }
        parse_list(list, color, &mut setup.pieces)?;
    }
    Ok(setup)
}

fn parse_list(
    list: &str,
    color: Color,
    out: &mut Vec<(SquareName, Piece)>,
) -> Result<(), FenError> {
    for item in list.split(',') {
        if item.is_empty() {
            continue;
        }
        let (role, body) = match item.strip_prefix(['K', 'k']) {
            Some(b) => (Role::King, b),
            None => (Role::Man, item),
        };
        let piece = Piece { color, role };
        if let Some((a, b)) = body.split_once('-') {
            let (Some(a), Some(b)) = (number(a), number(b)) else {
                return Err(FenError::BadRange(item.to_string()));
            };
            if a > b || b - a > 200 {
                return Err(FenError::BadRange(item.to_string()));
            }
            for n in a..=b {
                out.push((SquareName::Number(n), piece));
            }
        } else if let Some(n) = number(body) {
            out.push((SquareName::Number(n), piece));
        } else if let Some(sq) = fen::algebraic(body) {
            out.push((sq, piece));
        } else {
            return Err(FenError::BadSquare(item.to_string()));
        }
    }
    Ok(())
}

fn number(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 4 || !s.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Random text over a FEN's characters (and a few others; 20,000 strings from a fixed seed):
/// the same setup or the same error as the reference reader.
#[test]
fn the_fen_reader_reads_as_the_general_split() {
    const CHARS: [char; 35] = [
        '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '1', '2', '3', '4', '5', ',', ',', ':',
        ':', '-', '-', 'W', 'B', 'K', 'w', 'b', 'k', '?', 'a', 'j', '.', ' ', '"', '\u{e9}', '#',
    ];
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..20_000 {
        let len = next() % 40;
        let text: String = (0..len)
            .map(|_| CHARS[(next() % CHARS.len() as u64) as usize])
            .collect();
        assert_eq!(fen::parse(&text), reference_parse(&text), "{text:?}");
    }
}

#[test]
fn usual_fens_read_as_the_general_split() {
    for text in [
        "W:W31-50:B1-20",
        "B:W31,32,33,K34,35:BK1,2,3.",
        "W:W31-50:BK1-3,4.",
        "?:W29,13,11:B22,4,2",
        "B::",
        "W:W31:B",
        "W:W31,32:B1,2:H0:F12",
        "W:W31,\n 32:B1",
        "W:WKd2:Bf6,c5,e5,e3",
        "W31,32:B1",
        "W:W1,,2,:B,3",
        "W:W1--2",
        "W:W-",
        "W:WK",
        "W:W0005",
        "W:W12345",
        "\"W:W1:B2\"",
        "W:W1,\u{e9}2:B3",
    ] {
        assert_eq!(fen::parse(text), reference_parse(text), "{text}");
    }
}

/// The numbering's table of the numbers below 64 answers as `bit_of_number` (and of the
/// low six bits of any number), and the crowning rows are the board's first and last rows,
/// in every variant.
#[test]
fn small_numbers_and_crowning_rows_are_the_tables() {
    for v in Variant::ALL {
        with_variant!(v, V => {
            let numbering = V::numbering();
            for n in 0..64 {
                assert_eq!(numbering.bit_of_small_number(n), numbering.bit_of_number(n), "{v:?} {n}");
                assert_eq!(numbering.bit_of_small_number(n + 64), numbering.bit_of_number(n), "{v:?} {n}");
            }
            let geo = V::geometry();
            assert_eq!(geo.promotion_row(Color::White), geo.row(0), "{v:?}");
            assert_eq!(
                geo.promotion_row(Color::Black),
                geo.row(usize::from(geo.height()) - 1),
                "{v:?}"
            );
        });
    }
}
