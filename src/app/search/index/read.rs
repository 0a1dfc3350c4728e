//! Reading an index: [`Index::open`] checks the header against the file, [`Index::lookup`]
//! finds the games listed under a position key (two positioned reads), [`Index::scan`] goes
//! through every game in order, and [`search_index`] answers a [`Searcher`]'s query as a
//! search of the archive would, game for game.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use crate::rules::{Spec, Variant};

use super::stream::{self, Corrupt, Event};
use super::{ENTRY_SIZE, GAME_SIZE, GameEntry, HEADER_SIZE, Header, Status};
use crate::app::search::game::to_match;
use crate::app::search::render::Summary;
use crate::app::search::watch::{Hit, Step, Watch};
use crate::app::search::{GameInfo, GameResult, Searched, Searcher};

/// What went wrong with an index.
#[derive(Debug)]
pub enum IndexError {
    /// It cannot be read.
    Io(io::Error),
    /// It is no index of this version.
    NotAnIndex,
    /// Its parts do not fit together: what.
    Corrupt(&'static str),
}

impl std::fmt::Display for IndexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IndexError::Io(e) => write!(f, "{e}"),
            IndexError::NotAnIndex => {
                f.write_str("not an index written by this version of pdn index (write it again)")
            }
            IndexError::Corrupt(what) => write!(f, "the index is damaged: {what}"),
        }
    }
}

impl std::error::Error for IndexError {}

impl From<io::Error> for IndexError {
    fn from(e: io::Error) -> Self {
        IndexError::Io(e)
    }
}

impl From<Corrupt> for IndexError {
    fn from(_: Corrupt) -> Self {
        IndexError::Corrupt("a game's moves do not decode")
    }
}

/// The length of the five strings of a game at the start of `b`, if they are all there.
fn strings_len(b: &[u8]) -> Option<usize> {
    let mut at = 0usize;
    for _ in 0..5 {
        let n = u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?) as usize;
        at = at.checked_add(4 + n)?;
        if at > b.len() {
            return None;
        }
    }
    Some(at)
}

/// The place and tags of a game from its strings.
fn info_of(g: &GameEntry, b: &[u8]) -> GameInfo {
    let mut out: [Option<String>; 5] = Default::default();
    let mut at = 0usize;
    for s in &mut out {
        let Some(n) = b
            .get(at..at + 4)
            .and_then(|x| x.try_into().ok())
            .map(|x| u32::from_le_bytes(x) as usize)
        else {
            break;
        };
        let text = b.get(at + 4..at + 4 + n).unwrap_or(&[]);
        if n > 0 {
            *s = Some(String::from_utf8_lossy(text).into_owned());
        }
        at += 4 + n;
    }
    let [white, black, event, date, result] = out;
    GameInfo {
        index: g.index as usize,
        line: g.line,
        variant: g
            .variant
            .and_then(|v| Variant::ALL.get(v as usize).copied()),
        white,
        black,
        event,
        date,
        result,
    }
}

/// Read exactly `buf.len()` bytes at `offset`.
#[cfg(unix)]
fn read_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    f.read_exact_at(buf, offset)
}

/// Read exactly `buf.len()` bytes at `offset`.
#[cfg(windows)]
fn read_at(f: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match f.seek_read(buf, offset)? {
            0 => return Err(io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// A part of the file read forward with positioned reads (readers of two parts of one file
/// would share its one file position).
struct Part<'a> {
    file: &'a File,
    at: u64,
    end: u64,
}

impl Read for Part<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = (buf.len() as u64).min(self.end - self.at) as usize;
        if n == 0 {
            return Ok(0);
        }
        read_at(self.file, &mut buf[..n], self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// An index file, open.
#[derive(Debug)]
pub struct Index {
    file: File,
    header: Header,
    /// Each input file: its name as shown, its path.
    files: Vec<(String, String)>,
}

/// Entries of a bucket read at once (a larger one is searched by halving).
const WHOLE_BUCKET: u64 = 4096;

impl Index {
    /// Open an index and check that its parts fit in the file.
    ///
    /// # Errors
    ///
    /// [`IndexError`]: the file cannot be read, is no index, or its parts do not fit.
    pub fn open(path: &Path) -> Result<Index, IndexError> {
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        let mut h = vec![0u8; HEADER_SIZE];
        if len < HEADER_SIZE as u64 {
            return Err(IndexError::NotAnIndex);
        }
        read_at(&file, &mut h, 0)?;
        let header = Header::read(&h).ok_or(IndexError::NotAnIndex)?;
        let bits = header.bucket_bits;
        let fits = (8..=30).contains(&bits)
            && header.files.0 == HEADER_SIZE as u64
            && header.games_off == header.files.0.saturating_add(header.files.1)
            && header.strings.0
                == header
                    .games_off
                    .saturating_add(header.games.saturating_mul(GAME_SIZE as u64))
            && header.stream.0 == header.strings.0.saturating_add(header.strings.1)
            && header.entries_off == header.stream.0.saturating_add(header.stream.1)
            && header.buckets_off
                == header
                    .entries_off
                    .saturating_add(header.entries.saturating_mul(ENTRY_SIZE as u64))
            && len == header.buckets_off.saturating_add(((1u64 << bits) + 1) * 4);
        if !fits || header.files.1 > 1 << 32 {
            return Err(IndexError::Corrupt("its parts do not fit the file"));
        }
        let mut raw = vec![0u8; header.files.1 as usize];
        read_at(&file, &mut raw, header.files.0)?;
        let mut strings = Vec::new();
        let mut at = 0usize;
        while at < raw.len() {
            let n = raw
                .get(at..at + 4)
                .and_then(|b| b.try_into().ok())
                .map(u32::from_le_bytes)
                .ok_or(IndexError::Corrupt("the list of files"))? as usize;
            let s = raw
                .get(at + 4..at + 4 + n)
                .ok_or(IndexError::Corrupt("the list of files"))?;
            strings.push(String::from_utf8_lossy(s).into_owned());
            at += 4 + n;
        }
        if strings.len() % 2 != 0 {
            return Err(IndexError::Corrupt("the list of files"));
        }
        let files = strings
            .chunks_exact(2)
            .map(|c| (c[0].clone(), c[1].clone()))
            .collect();
        Ok(Index {
            file,
            header,
            files,
        })
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The input files: the name as shown, the path to read it again.
    pub fn files(&self) -> &[(String, String)] {
        &self.files
    }

    /// The record of game `id` (0-based, in archive order).
    ///
    /// # Errors
    ///
    /// It cannot be read, or there is no such game.
    pub fn game(&self, id: u32) -> Result<GameEntry, IndexError> {
        if u64::from(id) >= self.header.games {
            return Err(IndexError::Corrupt("a game number beyond the games"));
        }
        let mut b = [0u8; GAME_SIZE];
        read_at(
            &self.file,
            &mut b,
            self.header.games_off + u64::from(id) * GAME_SIZE as u64,
        )?;
        Ok(GameEntry::read(&b))
    }

    /// The strings of a game (White, Black, Event, Date, result), as stored.
    ///
    /// # Errors
    ///
    /// They cannot be read.
    pub fn strings(&self, g: &GameEntry) -> Result<Vec<u8>, IndexError> {
        let (off, len) = self.header.strings;
        if g.strings_off > len {
            return Err(IndexError::Corrupt("a game's strings"));
        }
        let left = len - g.strings_off;
        let mut b = vec![0u8; left.min(1024) as usize];
        read_at(&self.file, &mut b, off + g.strings_off)?;
        let need = strings_len(&b).unwrap_or(usize::MAX);
        if need <= b.len() {
            b.truncate(need);
            return Ok(b);
        }
        // Longer than the first read: read it whole (its lengths are known now, or it runs
        // past the part and is damaged).
        let mut whole = vec![0u8; left.min(1 << 26) as usize];
        read_at(&self.file, &mut whole, off + g.strings_off)?;
        let need = strings_len(&whole).ok_or(IndexError::Corrupt("a game's strings"))?;
        whole.truncate(need);
        Ok(whole)
    }

    /// The place and tags of a game.
    ///
    /// # Errors
    ///
    /// They cannot be read.
    pub fn info(&self, g: &GameEntry) -> Result<GameInfo, IndexError> {
        Ok(info_of(g, &self.strings(g)?))
    }

    /// The main line of a game, as stored.
    ///
    /// # Errors
    ///
    /// It cannot be read.
    pub fn stream(&self, g: &GameEntry) -> Result<Vec<u8>, IndexError> {
        let (off, len) = self.header.stream;
        let end = g.stream_off.saturating_add(u64::from(g.stream_len));
        if end > len {
            return Err(IndexError::Corrupt("a game's moves beyond the moves"));
        }
        let mut b = vec![0u8; g.stream_len as usize];
        read_at(&self.file, &mut b, off + g.stream_off)?;
        Ok(b)
    }

    fn entry(&self, i: u64) -> Result<(u32, u32), IndexError> {
        let mut b = [0u8; ENTRY_SIZE];
        read_at(
            &self.file,
            &mut b,
            self.header.entries_off + i * ENTRY_SIZE as u64,
        )?;
        Ok((
            u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
        ))
    }

    /// The games listed under a position key, in archive order (each once). A game listed
    /// may reach another position with the same key: check it.
    ///
    /// # Errors
    ///
    /// The index cannot be read, or its bucket table does not fit its entries.
    pub fn lookup(&self, key: u64) -> Result<Vec<u32>, IndexError> {
        let h = &self.header;
        let bucket = key >> (64 - h.bucket_bits);
        let mut b = [0u8; 8];
        read_at(&self.file, &mut b, h.buckets_off + bucket * 4)?;
        let start = u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let end = u64::from(u32::from_le_bytes([b[4], b[5], b[6], b[7]]));
        if start > end || end > h.entries {
            return Err(IndexError::Corrupt("the bucket table"));
        }
        let lo = key as u32;
        let mut games = Vec::new();
        if end - start <= WHOLE_BUCKET {
            let mut raw = vec![0u8; ((end - start) as usize) * ENTRY_SIZE];
            read_at(
                &self.file,
                &mut raw,
                h.entries_off + start * ENTRY_SIZE as u64,
            )?;
            for e in raw.chunks_exact(ENTRY_SIZE) {
                if u32::from_le_bytes([e[0], e[1], e[2], e[3]]) == lo {
                    games.push(u32::from_le_bytes([e[4], e[5], e[6], e[7]]));
                }
            }
            return Ok(games);
        }
        // The first entry whose low bits are not below `lo`, by halving, then forward.
        let (mut a, mut z) = (start, end);
        while a < z {
            let mid = a + (z - a) / 2;
            if self.entry(mid)?.0 < lo {
                a = mid + 1;
            } else {
                z = mid;
            }
        }
        let mut at = a;
        let chunk = WHOLE_BUCKET;
        'out: while at < end {
            let n = chunk.min(end - at);
            let mut raw = vec![0u8; n as usize * ENTRY_SIZE];
            read_at(&self.file, &mut raw, h.entries_off + at * ENTRY_SIZE as u64)?;
            for e in raw.chunks_exact(ENTRY_SIZE) {
                if u32::from_le_bytes([e[0], e[1], e[2], e[3]]) != lo {
                    break 'out;
                }
                games.push(u32::from_le_bytes([e[4], e[5], e[6], e[7]]));
            }
            at += n;
        }
        Ok(games)
    }

    /// Every game in archive order with its main line and its strings:
    /// `each(id, record, stream, strings)`, until it returns an error.
    ///
    /// # Errors
    ///
    /// The index cannot be read, or `each`'s error.
    pub fn scan(
        &self,
        mut each: impl FnMut(u32, &GameEntry, &[u8], &[u8]) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        let h = &self.header;
        let part = |at: u64, len: u64| Part {
            file: &self.file,
            at,
            end: at + len,
        };
        let mut games =
            BufReader::with_capacity(1 << 18, part(h.games_off, h.games * GAME_SIZE as u64));
        let mut moves = BufReader::with_capacity(1 << 18, part(h.stream.0, h.stream.1));
        let mut strings = BufReader::with_capacity(1 << 16, part(h.strings.0, h.strings.1));
        let mut at = 0u64;
        let mut text_at = 0u64;
        let mut b = [0u8; GAME_SIZE];
        let mut s = Vec::new();
        let mut t = Vec::new();
        for id in 0..h.games {
            games.read_exact(&mut b)?;
            let g = GameEntry::read(&b);
            if g.stream_off != at
                || at + u64::from(g.stream_len) > h.stream.1
                || g.strings_off != text_at
            {
                return Err(IndexError::Corrupt("the games' parts are out of order"));
            }
            s.resize(g.stream_len as usize, 0);
            moves.read_exact(&mut s)?;
            at += u64::from(g.stream_len);
            t.clear();
            for _ in 0..5 {
                let mut n = [0u8; 4];
                strings.read_exact(&mut n)?;
                let n = u32::from_le_bytes(n) as usize;
                if (text_at + (t.len() + 4 + n) as u64) > h.strings.1 {
                    return Err(IndexError::Corrupt("a game's strings"));
                }
                t.extend_from_slice(&(n as u32).to_le_bytes());
                let from = t.len();
                t.resize(from + n, 0);
                strings.read_exact(&mut t[from..])?;
            }
            text_at += t.len() as u64;
            each(id as u32, &g, &s, &t)?;
        }
        Ok(())
    }
}

impl Index {
    /// The games `ids` (sorted, each once) in order with their main lines and strings, as
    /// [`Index::scan`] gives them: read one by one when they are few, else by going through
    /// every game.
    ///
    /// # Errors
    ///
    /// The index cannot be read, or `each`'s error.
    pub fn games_of(
        &self,
        ids: &[u32],
        mut each: impl FnMut(u32, &GameEntry, &[u8], &[u8]) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        if (ids.len() as u64).saturating_mul(32) < self.header.games {
            for &id in ids {
                let g = self.game(id)?;
                let bytes = self.stream(&g)?;
                let strings = self.strings(&g)?;
                each(id, &g, &bytes, &strings)?;
            }
            return Ok(());
        }
        let mut next = ids.iter().copied().peekable();
        self.scan(|id, g, bytes, strings| {
            while next.next_if(|&n| n < id).is_some() {}
            if next.next_if_eq(&id).is_some() {
                each(id, g, bytes, strings)?;
            }
            Ok(())
        })
    }
}

/// The hits of the query in a game of variant `V` whose main line is `bytes`.
fn watch<V: Spec>(searcher: &Searcher, bytes: &[u8]) -> Result<Option<Vec<Hit>>, Corrupt> {
    let Some(c) = searcher.compiled::<V>() else {
        return Ok(None);
    };
    let mut w = Watch::<V>::new(c, false, searcher.options().all_occurrences);
    stream::replay::<V>(bytes, |e| {
        match e {
            Event::Start(p) => w.start(p),
            Event::Move(before, mv, after, ply) => w.step(&Step {
                before,
                mv,
                after,
                ply,
                main: true,
                sound: true,
                at: None,
            }),
            Event::Setup(p, ply) => w.setup(p, ply, true, true, None),
        }
        !w.done()
    })?;
    Ok(Some(w.finish()))
}

/// The result of the query in an indexed game, as a search of the archive gives it (without
/// the game's text); `None` if the game was not searched.
fn game_result(
    searcher: &Searcher,
    g: &GameEntry,
    bytes: &[u8],
    strings: &[u8],
) -> Result<Option<GameResult>, IndexError> {
    let Some(v) = g
        .variant
        .and_then(|v| Variant::ALL.get(v as usize).copied())
    else {
        return Ok(None);
    };
    if !matches!(
        Status::from_u8(g.status),
        Some(Status::Whole | Status::UpTo)
    ) {
        return Ok(None);
    }
    let Some(hits) = crate::with_variant!(v, V => watch::<V>(searcher, bytes))? else {
        return Ok(None);
    };
    if hits.is_empty() {
        return Ok(Some(GameResult {
            info: GameInfo::default(),
            plies: g.plies,
            searched: g.searched,
            variation_plies: 0,
            error_ply: g.error_ply,
            status: Searched::Whole,
            matches: Vec::new(),
            text: None,
        }));
    }
    Ok(Some(GameResult {
        info: info_of(g, strings),
        plies: g.plies,
        searched: g.searched,
        variation_plies: 0,
        error_ply: g.error_ply,
        status: if g.error_ply.is_some() {
            Searched::UpTo
        } else {
            Searched::Whole
        },
        matches: hits
            .into_iter()
            .map(|h| to_match(h, g.first_number, g.second, 0))
            .collect(),
        text: None,
    }))
}

/// Answer a query from an index as a search of the indexed archive answers it (main lines
/// only): `each(file, id, result)` gets every game that matches, in archive order; returns
/// the summary of the whole search. A query that names a position (or opening moves) is
/// answered from the games listed under its key, each checked by replaying its main line;
/// any other query by going through every game.
///
/// # Errors
///
/// The index cannot be read or is damaged.
pub fn search_index(
    index: &Index,
    searcher: &Searcher,
    mut each: impl FnMut(u32, u32, GameResult) -> Result<(), IndexError>,
) -> Result<Summary, IndexError> {
    let h = index.header();
    let mut summary = Summary {
        games: h.games,
        no_variant: h.no_variant,
        ..Summary::default()
    };
    let mut keys: Option<Vec<u64>> = Some(Vec::new());
    for (i, v) in Variant::ALL.iter().enumerate() {
        let t = &h.variants[i];
        let k: Option<Option<Vec<u64>>> =
            crate::with_variant!(*v, V => searcher.compiled::<V>().map(|c| c.keys()));
        match k {
            None => summary.unfit += t.games,
            Some(k) => {
                summary.plies += t.plies;
                summary.games_in_part += t.in_part;
                summary.no_start += t.no_start;
                if t.games > 0 {
                    match (&mut keys, k) {
                        (Some(all), Some(k)) => all.extend(k),
                        (all, _) => *all = None,
                    }
                }
            }
        }
    }
    let mut found =
        |id: u32, g: &GameEntry, bytes: &[u8], strings: &[u8]| -> Result<(), IndexError> {
            if let Some(r) = game_result(searcher, g, bytes, strings)?
                && !r.matches.is_empty()
            {
                summary.matches += r.matches.len() as u64;
                summary.games_matched += 1;
                each(g.file, id, r)?;
            }
            Ok(())
        };
    match keys {
        Some(keys) => {
            let mut ids = Vec::new();
            for k in keys {
                ids.extend(index.lookup(k)?);
            }
            ids.sort_unstable();
            ids.dedup();
            index.games_of(&ids, &mut found)?;
        }
        None => index.scan(&mut found)?,
    }
    Ok(summary)
}
