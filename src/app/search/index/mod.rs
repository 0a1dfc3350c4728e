//! The index of `pdn index`: every main-line position of an archive with the games that reach
//! it, in one file that `search --index` and `explore --index` answer from.
//!
//! **Why this shape.** An exact position must be found among 10^8 in under 20 ms, and every
//! other query (patterns, material, manoeuvres) answered by looking at the positions
//! themselves. So the file holds two things: each game's main line as a compact stream of
//! its moves (2 bytes a move, 3 + 1 per piece taken for a capture), from which every
//! position is rebuilt by playing the moves (no move generation: tens of millions of
//! positions a second), and a table of position keys sorted into buckets, read with
//! positioned reads (no memory map: the library forbids `unsafe`). A lookup reads one
//! bucket boundary pair and one bucket; each game found is then replayed from its stream
//! and the position compared whole, so a key shared by two positions never answers. (An
//! embedded store, redb or SQLite, would keep one B-tree entry per position: several times
//! the size, and a bulk load far slower than this sort; see BENCHMARKS.md.)
//!
//! **Layout** (little-endian; offsets from the start of the file):
//!
//! | part | what |
//! |---|---|
//! | header | `PDNINDEX`, version, bucket bits, max ply, counts, the offset and length of every part, per-variant totals ([`Header`]) |
//! | files | for each input file: its name as shown, the path to read it again |
//! | games | one [`GAME_SIZE`]-byte record per game ([`GameEntry`]) |
//! | strings | each game's White, Black, Event, Date and result |
//! | stream | each game's main line ([`stream`]) |
//! | entries | (low 32 bits of the key, game) pairs, sorted by bucket, then low key bits, then game |
//! | buckets | the first entry of each bucket (`2^bits + 1` numbers) |
//!
//! A bucket is the top `bits` bits of a key. A game is listed once per position however
//! often it reaches it. Positions are indexed as `search` finds them: those reached without
//! an error on the main line (up to `--max-ply`).

mod build;
mod read;
pub mod stream;

pub use build::{IndexWriter, IndexedGame, Indexer, index_game, index_ref};
pub use read::{Index, IndexError, search_index};

/// The first bytes of an index file.
pub const MAGIC: &[u8; 8] = b"PDNINDEX";
/// The version of the layout.
pub const VERSION: u32 = 1;
/// The size of the header.
pub const HEADER_SIZE: usize = 1024;
/// The size of a game record.
pub const GAME_SIZE: usize = 80;
/// The size of an entry.
pub const ENTRY_SIZE: usize = 8;
/// No error ply, no year, no variant.
const NONE32: u32 = u32::MAX;

/// How much of a game was indexed (the status of its search).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Status {
    /// The whole main line.
    Whole = 0,
    /// Up to an error.
    UpTo = 1,
    /// Not at all: no variant fits.
    NoVariant = 2,
    /// Not at all: the start position cannot be set up.
    NoStart = 3,
}

impl Status {
    fn from_u8(b: u8) -> Option<Status> {
        Some(match b {
            0 => Status::Whole,
            1 => Status::UpTo,
            2 => Status::NoVariant,
            3 => Status::NoStart,
            _ => return None,
        })
    }
}

/// What a game's result says, by colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Won {
    /// Unknown, unfinished or no game result.
    Unknown = 0,
    /// White won.
    White = 1,
    /// Black won.
    Black = 2,
    /// A draw.
    Draw = 3,
}

/// One game of an index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameEntry {
    /// Where its main line starts in the stream part, and its length.
    pub stream_off: u64,
    /// Its length.
    pub stream_len: u32,
    /// Where its strings start in the strings part.
    pub strings_off: u64,
    /// Where the game's text starts in its file (decoded), and its length.
    pub text_off: u64,
    /// Its length.
    pub text_len: u32,
    /// A hash of its text, to tell that the file changed.
    pub text_hash: u64,
    /// Its input file.
    pub file: u32,
    /// 1-based position in the file.
    pub index: u32,
    /// 1-based line of its first byte.
    pub line: u32,
    /// Plies of the main line replayed.
    pub plies: u32,
    /// Plies of the main line whose positions were searched (up to the first error).
    pub searched: u32,
    /// The first ply an error kept from being searched.
    pub error_ply: Option<u32>,
    /// The number of its first move.
    pub first_number: u32,
    /// The variant (its place in `Variant::ALL`).
    pub variant: Option<u8>,
    /// How much was indexed.
    pub status: u8,
    /// The second player moves first.
    pub second: bool,
    /// What the result says.
    pub won: u8,
    /// The year of its `Date` tag.
    pub year: Option<u16>,
}

impl GameEntry {
    fn write(&self, out: &mut [u8; GAME_SIZE]) {
        out[0..8].copy_from_slice(&self.stream_off.to_le_bytes());
        out[8..16].copy_from_slice(&self.strings_off.to_le_bytes());
        out[16..24].copy_from_slice(&self.text_off.to_le_bytes());
        out[24..32].copy_from_slice(&self.text_hash.to_le_bytes());
        let words = [
            self.stream_len,
            self.text_len,
            self.file,
            self.index,
            self.line,
            self.plies,
            self.searched,
            self.error_ply.unwrap_or(NONE32),
            self.first_number,
        ];
        for (i, w) in words.iter().enumerate() {
            out[32 + 4 * i..36 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
        out[68] = self.variant.unwrap_or(u8::MAX);
        out[69] = self.status;
        out[70] = u8::from(self.second);
        out[71] = self.won;
        out[72..74].copy_from_slice(&self.year.unwrap_or(u16::MAX).to_le_bytes());
        out[74..].fill(0);
    }

    fn read(b: &[u8]) -> GameEntry {
        let u64at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
        let u32at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap_or([0; 4]));
        let opt = |v: u32| (v != NONE32).then_some(v);
        let year = u16::from_le_bytes([b[72], b[73]]);
        GameEntry {
            stream_off: u64at(0),
            strings_off: u64at(8),
            text_off: u64at(16),
            text_hash: u64at(24),
            stream_len: u32at(32),
            text_len: u32at(36),
            file: u32at(40),
            index: u32at(44),
            line: u32at(48),
            plies: u32at(52),
            searched: u32at(56),
            error_ply: opt(u32at(60)),
            first_number: u32at(64),
            variant: (b[68] != u8::MAX).then_some(b[68]),
            status: b[69],
            second: b[70] != 0,
            won: b[71],
            year: (year != u16::MAX).then_some(year),
        }
    }
}

/// Per-variant totals, for a search's summary without reading every game record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VariantTotals {
    /// Games.
    pub games: u64,
    /// Plies searched.
    pub plies: u64,
    /// Games searched up to an error.
    pub in_part: u64,
    /// Games whose start position cannot be set up.
    pub no_start: u64,
}

/// The header of an index file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// Bits of a key that name its bucket.
    pub bucket_bits: u32,
    /// Plies indexed per game (`None`: all).
    pub max_ply: Option<u32>,
    /// Games.
    pub games: u64,
    /// Entries (positions, each once per game).
    pub entries: u64,
    /// Offset and length of the files part.
    pub files: (u64, u64),
    /// Offset of the games part.
    pub games_off: u64,
    /// Offset and length of the strings part.
    pub strings: (u64, u64),
    /// Offset and length of the stream part.
    pub stream: (u64, u64),
    /// Offset of the entries.
    pub entries_off: u64,
    /// Offset of the bucket table.
    pub buckets_off: u64,
    /// Games no variant fits.
    pub no_variant: u64,
    /// Totals per variant (by place in `Variant::ALL`).
    pub variants: [VariantTotals; 16],
}

impl Header {
    fn write(&self) -> [u8; HEADER_SIZE] {
        let mut h = [0u8; HEADER_SIZE];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12..16].copy_from_slice(&self.bucket_bits.to_le_bytes());
        h[16..20].copy_from_slice(&self.max_ply.unwrap_or(NONE32).to_le_bytes());
        let words = [
            self.games,
            self.entries,
            self.files.0,
            self.files.1,
            self.games_off,
            self.strings.0,
            self.strings.1,
            self.stream.0,
            self.stream.1,
            self.entries_off,
            self.buckets_off,
            self.no_variant,
        ];
        let mut at = 24;
        for w in words {
            h[at..at + 8].copy_from_slice(&w.to_le_bytes());
            at += 8;
        }
        for v in &self.variants {
            for w in [v.games, v.plies, v.in_part, v.no_start] {
                h[at..at + 8].copy_from_slice(&w.to_le_bytes());
                at += 8;
            }
        }
        h
    }

    fn read(h: &[u8]) -> Option<Header> {
        if h.len() < HEADER_SIZE || &h[0..8] != MAGIC {
            return None;
        }
        let u32at = |i: usize| u32::from_le_bytes(h[i..i + 4].try_into().unwrap_or([0; 4]));
        let u64at = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().unwrap_or([0; 8]));
        if u32at(8) != VERSION {
            return None;
        }
        let max = u32at(16);
        let mut hd = Header {
            bucket_bits: u32at(12),
            max_ply: (max != NONE32).then_some(max),
            games: u64at(24),
            entries: u64at(32),
            files: (u64at(40), u64at(48)),
            games_off: u64at(56),
            strings: (u64at(64), u64at(72)),
            stream: (u64at(80), u64at(88)),
            entries_off: u64at(96),
            buckets_off: u64at(104),
            no_variant: u64at(112),
            variants: [VariantTotals::default(); 16],
        };
        let mut at = 120;
        for v in &mut hd.variants {
            v.games = u64at(at);
            v.plies = u64at(at + 8);
            v.in_part = u64at(at + 16);
            v.no_start = u64at(at + 24);
            at += 32;
        }
        Some(hd)
    }
}

/// A 64-bit hash of a game's bytes (to tell that an indexed file changed).
pub fn text_hash(bytes: &[u8]) -> u64 {
    // FNV-1a, 64 bits.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The year of a `Date` tag (`2003.05.17`, `2003.??.??`, `2003`): its first four digits.
pub(crate) fn year_of(date: Option<&str>) -> Option<u16> {
    let d = date?.trim();
    let y = d.get(..4)?;
    if !y.bytes().all(|b| b.is_ascii_digit()) || d.as_bytes().get(4).is_some_and(u8::is_ascii_digit)
    {
        return None;
    }
    y.parse().ok().filter(|y| (1000..=2999).contains(y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_and_headers_read_back() {
        let g = GameEntry {
            stream_off: 1 << 40,
            stream_len: 77,
            strings_off: 12,
            text_off: 99,
            text_len: 1234,
            text_hash: 0xdead_beef,
            file: 3,
            index: 4,
            line: 5,
            plies: 80,
            searched: 40,
            error_ply: Some(41),
            first_number: 1,
            variant: Some(7),
            status: 1,
            second: true,
            won: 2,
            year: Some(1999),
        };
        let mut b = [0u8; GAME_SIZE];
        g.write(&mut b);
        assert_eq!(GameEntry::read(&b), g);
        let mut h = Header {
            bucket_bits: 12,
            max_ply: Some(30),
            games: 10,
            entries: 800,
            no_variant: 1,
            ..Header::default()
        };
        h.variants[3].plies = 77;
        assert_eq!(Header::read(&h.write()), Some(h));
        assert_eq!(Header::read(b"PDNINDEX"), None);
    }

    #[test]
    fn years_are_read_from_dates() {
        assert_eq!(year_of(Some("2003.05.17")), Some(2003));
        assert_eq!(year_of(Some(" 1999.??.??")), Some(1999));
        assert_eq!(year_of(Some("2005")), Some(2005));
        assert_eq!(year_of(Some("????.??.??")), None);
        assert_eq!(year_of(Some("20051")), None);
        assert_eq!(year_of(Some("12.05.2003")), None);
        assert_eq!(year_of(None), None);
    }
}
