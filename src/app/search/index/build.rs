//! Writing an index: [`index_game`] replays one game as `search` does and keeps its main line
//! ([`stream`]) and the keys of its positions ([`IndexedGame`]); [`IndexWriter`] takes the
//! games in archive order, spills the keys into 256 partitions on disk (memory stays small
//! whatever the archive), and [`IndexWriter::finish`] sorts each partition and writes the
//! file in one pass.

use std::any::Any;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

use crate::rules::{Color, Position, Spec, Variant};
use crate::syntax::Game;

use super::stream::{push_move, push_setup, push_start};
use super::{
    ENTRY_SIZE, GAME_SIZE, GameEntry, HEADER_SIZE, Header, Status, VariantTotals, Won, text_hash,
    year_of,
};
use crate::app::judge::diagnostic::GameText;
use crate::app::judge::replay::{Observer, Played, PlyEvent};
use crate::app::model::gametype::FileVariant;
use crate::app::model::outcome::{self, Outcome};
use crate::app::model::reading::GameRef;
use crate::app::model::record::Record;
use crate::app::search::game::{combine, error_ply, replay};
use crate::app::search::hash::position_key;
use crate::app::search::slot;

/// One game, ready for the index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IndexedGame {
    /// Its record (offsets are filled by the writer).
    pub record: GameEntry,
    /// White, Black, Event, Date, result.
    pub strings: [Option<String>; 5],
    /// Its main line.
    pub stream: Vec<u8>,
    /// The keys of its positions, each once.
    pub keys: Vec<u64>,
}

/// The typed part of the observer, made for the game's variant.
struct Rec<V: Spec> {
    stream: Vec<u8>,
    keys: Vec<u64>,
    searched: u32,
    error: Option<u32>,
    start: Position<V::B>,
}

/// Watches the replay of a game and keeps what the index needs.
struct Collector {
    max_ply: u32,
    rec: Option<Box<dyn Any>>,
}

impl Collector {
    fn rec<V: Spec>(&mut self) -> Option<&mut Rec<V>> {
        self.rec.as_mut()?.downcast_mut::<Rec<V>>()
    }
}

impl Observer for Collector {
    fn position<V: Spec>(&mut self, pos: &Position<V::B>, main: bool) {
        if !main || self.rec.is_some() {
            return;
        }
        let mut stream = Vec::with_capacity(256);
        push_start::<V>(&mut stream, pos);
        let r = Rec::<V> {
            stream,
            keys: vec![position_key(V::RULES.variant, pos)],
            searched: 0,
            error: None,
            start: *pos,
        };
        self.rec = Some(Box::new(r));
    }

    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if !e.main {
            return;
        }
        let max = self.max_ply;
        let Some(r) = self.rec::<V>() else { return };
        if !(e.clean && e.played == Played::Legal) {
            r.error = Some(r.error.map_or(e.ply, |x| x.min(e.ply)));
            return;
        }
        if e.ply > max {
            return;
        }
        push_move(&mut r.stream, e.mv);
        r.keys.push(position_key(V::RULES.variant, e.after));
        r.searched = e.ply;
    }

    fn setup<V: Spec>(&mut self, pos: &Position<V::B>, line: u32, ply: u32, clean: bool) {
        let max = self.max_ply;
        let Some(r) = self.rec::<V>() else { return };
        if line != 0 || !clean || ply > max {
            return;
        }
        push_setup(&mut r.stream, ply, pos);
        r.keys.push(position_key(V::RULES.variant, pos));
    }

    fn can_restart(&self) -> bool {
        true
    }

    fn restart(&mut self) {
        self.rec = None;
    }
}

/// Replay the game of a record (whose text is `text`, at byte `text_off` of its file) as
/// `search` does and keep its first `max_ply` plies (`None`: all) for the index.
pub(crate) fn index_game_record(
    record: &Record,
    text: &GameText<'_>,
    text_off: u64,
    variant: Option<Variant>,
    hint: Option<FileVariant>,
    max_ply: Option<u32>,
) -> IndexedGame {
    let mut o = Collector {
        max_ply: max_ply.unwrap_or(u32::MAX),
        rec: None,
    };
    let g = replay(record, text, variant, hint, &mut o);
    let info = &g.info;
    let mut rec = GameEntry {
        text_off,
        text_len: text.source.len() as u32,
        text_hash: text_hash(text.source.as_bytes()),
        index: info.index as u32,
        line: info.line,
        plies: g.report.plies,
        first_number: g.first_number,
        variant: info.variant.map(|v| slot(v) as u8),
        year: year_of(info.date.as_deref()),
        ..GameEntry::default()
    };
    let mut game = IndexedGame {
        strings: [
            info.white.clone(),
            info.black.clone(),
            info.event.clone(),
            info.date.clone(),
            info.result.clone(),
        ],
        ..IndexedGame::default()
    };
    let Some(v) = info.variant else {
        rec.status = Status::NoVariant as u8;
        game.record = rec;
        return game;
    };
    let first = v.rules().first_mover();
    rec.won = match info
        .result
        .as_deref()
        .map_or(Outcome::Unknown, outcome::parse)
    {
        Outcome::Draw => Won::Draw,
        o => match o.winner(first) {
            Some(Color::White) => Won::White,
            Some(Color::Black) => Won::Black,
            None => Won::Unknown,
        },
    } as u8;
    let taken = crate::with_variant!(v, V => o.rec::<V>().map(|r| {
        let mut keys = std::mem::take(&mut r.keys);
        keys.sort_unstable();
        keys.dedup();
        (std::mem::take(&mut r.stream), keys, r.searched, r.error, r.start.side())
    }));
    let Some((stream, keys, searched, watched, side)) = taken else {
        rec.status = Status::NoStart as u8;
        game.record = rec;
        return game;
    };
    rec.searched = searched;
    rec.second = side != first;
    rec.error_ply = combine(watched, error_ply(&g.report, searched));
    rec.status = if rec.error_ply.is_some() {
        Status::UpTo
    } else {
        Status::Whole
    } as u8;
    game.record = rec;
    game.stream = stream;
    game.keys = keys;
    game
}

/// `index_game_record` for an owned game.
pub fn index_game(
    game: &Game,
    variant: Option<Variant>,
    hint: Option<FileVariant>,
    max_ply: Option<u32>,
) -> IndexedGame {
    index_game_record(
        &Record::of_game(game),
        &GameText::of(game),
        game.offset,
        variant,
        hint,
        max_ply,
    )
}

/// How to index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Indexer {
    /// `--variant`.
    pub variant: Option<Variant>,
    /// `--max-ply`.
    pub max_ply: Option<u32>,
}

/// Index a game as the pipeline reads it, with its file's hint.
pub fn index_ref(game: &GameRef<'_>, how: Indexer) -> IndexedGame {
    index_game_record(
        game.record,
        &game.game_text(),
        game.offset,
        how.variant,
        game.hint,
        how.max_ply,
    )
}

/// Partitions of the keys on disk (by their top 8 bits).
const PARTS: usize = 256;
/// A key and its game, as spilled.
const SPILL: usize = 12;

/// Builds an index file from games given in archive order (see the module documentation).
#[derive(Debug)]
pub struct IndexWriter {
    dir: tempfile::TempDir,
    max_ply: Option<u32>,
    files: Vec<u8>,
    file_count: u32,
    games: BufWriter<File>,
    strings: BufWriter<File>,
    stream: BufWriter<File>,
    parts: Vec<BufWriter<File>>,
    part_counts: Vec<u64>,
    header: Header,
    strings_len: u64,
    stream_len: u64,
    scratch: Vec<u8>,
}

impl IndexWriter {
    /// A writer whose temporary files go into a new directory in `temp` (the output's
    /// directory, so that they are on its disk).
    ///
    /// # Errors
    ///
    /// The temporary files cannot be made.
    pub fn new(temp: &Path, max_ply: Option<u32>) -> io::Result<IndexWriter> {
        let dir = tempfile::Builder::new()
            .prefix(".pdn-index-")
            .tempdir_in(temp)?;
        let file = |name: &str| -> io::Result<BufWriter<File>> {
            Ok(BufWriter::with_capacity(
                1 << 16,
                File::create(dir.path().join(name))?,
            ))
        };
        let games = file("games")?;
        let strings = file("strings")?;
        let stream = file("stream")?;
        let mut parts = Vec::with_capacity(PARTS);
        for p in 0..PARTS {
            parts.push(BufWriter::with_capacity(
                1 << 14,
                File::create(dir.path().join(format!("k{p:03}")))?,
            ));
        }
        Ok(IndexWriter {
            dir,
            max_ply,
            files: Vec::new(),
            file_count: 0,
            games,
            strings,
            stream,
            parts,
            part_counts: vec![0; PARTS],
            header: Header {
                max_ply,
                ..Header::default()
            },
            strings_len: 0,
            stream_len: 0,
            scratch: Vec::new(),
        })
    }

    /// The directory of its temporary files (removed when the writer is dropped or
    /// finished).
    pub fn temp_dir(&self) -> &Path {
        self.dir.path()
    }

    /// Add an input file: its name as shown and the path to read it again (empty for
    /// standard input); returns its number.
    pub fn add_file(&mut self, name: &str, path: &str) -> u32 {
        for s in [name, path] {
            self.files
                .extend_from_slice(&(s.len() as u32).to_le_bytes());
            self.files.extend_from_slice(s.as_bytes());
        }
        self.file_count += 1;
        self.file_count - 1
    }

    /// Add a game of file `file`.
    ///
    /// # Errors
    ///
    /// A temporary file cannot be written.
    pub fn add(&mut self, file: u32, g: &IndexedGame) -> io::Result<()> {
        let id = self.header.games;
        if id >= u64::from(u32::MAX) {
            return Err(io::Error::other(
                "an index holds at most 4,294,967,294 games",
            ));
        }
        let mut rec = g.record.clone();
        rec.file = file;
        rec.stream_off = self.stream_len;
        rec.stream_len = g.stream.len() as u32;
        rec.strings_off = self.strings_len;
        self.stream.write_all(&g.stream)?;
        self.stream_len += g.stream.len() as u64;
        self.scratch.clear();
        for s in &g.strings {
            let s = s.as_deref().unwrap_or("");
            self.scratch
                .extend_from_slice(&(s.len() as u32).to_le_bytes());
            self.scratch.extend_from_slice(s.as_bytes());
        }
        self.strings.write_all(&self.scratch)?;
        self.strings_len += self.scratch.len() as u64;
        let mut b = [0u8; GAME_SIZE];
        rec.write(&mut b);
        self.games.write_all(&b)?;
        for &k in &g.keys {
            let p = (k >> 56) as usize;
            let w = &mut self.parts[p];
            w.write_all(&k.to_le_bytes())?;
            w.write_all(&(id as u32).to_le_bytes())?;
            self.part_counts[p] += 1;
        }
        self.header.entries += g.keys.len() as u64;
        self.header.games += 1;
        let h = &mut self.header;
        match (rec.variant, Status::from_u8(rec.status)) {
            (None, _) => h.no_variant += 1,
            (Some(v), s) => {
                let t: &mut VariantTotals = &mut h.variants[v as usize % 16];
                t.games += 1;
                t.plies += u64::from(rec.searched);
                t.in_part += u64::from(s == Some(Status::UpTo));
                t.no_start += u64::from(s == Some(Status::NoStart));
            }
        }
        Ok(())
    }

    /// Write the index to `out`; returns its header.
    ///
    /// # Errors
    ///
    /// A temporary file cannot be read, or `out` written.
    pub fn finish(mut self, out: &mut dyn Write) -> io::Result<Header> {
        for w in [&mut self.games, &mut self.strings, &mut self.stream] {
            w.flush()?;
        }
        for w in &mut self.parts {
            w.flush()?;
        }
        let entries = self.header.entries;
        if entries >= u64::from(u32::MAX) {
            return Err(io::Error::other(
                "an index holds at most 4,294,967,294 positions",
            ));
        }
        // About 4 to 8 entries a bucket (one read of a disk block); at least the 8 bits of the
        // partitions.
        let bits = (64 - (entries / 8).max(1).leading_zeros()).clamp(8, 30);
        let h = &mut self.header;
        h.bucket_bits = bits;
        h.max_ply = self.max_ply;
        let files_len = self.files.len() as u64;
        h.files = (HEADER_SIZE as u64, files_len);
        h.games_off = h.files.0 + files_len;
        h.strings = (h.games_off + h.games * GAME_SIZE as u64, self.strings_len);
        h.stream = (h.strings.0 + self.strings_len, self.stream_len);
        h.entries_off = h.stream.0 + self.stream_len;
        h.buckets_off = h.entries_off + entries * ENTRY_SIZE as u64;
        let header = h.clone();
        out.write_all(&header.write())?;
        out.write_all(&self.files)?;
        for name in ["games", "strings", "stream"] {
            let mut f = BufReader::with_capacity(1 << 16, File::open(self.dir.path().join(name))?);
            io::copy(&mut f, out)?;
        }
        let nb = 1usize << bits;
        let mut buckets = vec![0u32; nb + 1];
        let shift = 64 - bits;
        let mut written = 0u64;
        let mut buf = Vec::new();
        let mut sorted: Vec<(u32, u32, u32)> = Vec::new();
        for p in 0..PARTS {
            buf.clear();
            File::open(self.dir.path().join(format!("k{p:03}")))?.read_to_end(&mut buf)?;
            if buf.len() as u64 != self.part_counts[p] * SPILL as u64 {
                return Err(io::Error::other(
                    "a temporary file of the index was cut short",
                ));
            }
            sorted.clear();
            for c in buf.chunks_exact(SPILL) {
                let key = u64::from_le_bytes(c[0..8].try_into().unwrap_or([0; 8]));
                let game = u32::from_le_bytes(c[8..12].try_into().unwrap_or([0; 4]));
                sorted.push(((key >> shift) as u32, key as u32, game));
            }
            sorted.sort_unstable();
            let mut bytes = Vec::with_capacity(sorted.len() * ENTRY_SIZE);
            for &(bucket, lo, game) in &sorted {
                buckets[bucket as usize + 1] += 1;
                bytes.extend_from_slice(&lo.to_le_bytes());
                bytes.extend_from_slice(&game.to_le_bytes());
            }
            out.write_all(&bytes)?;
            written += sorted.len() as u64;
        }
        if written != entries {
            return Err(io::Error::other("the index's positions do not add up"));
        }
        for i in 0..nb {
            buckets[i + 1] += buckets[i];
        }
        let mut bytes = Vec::with_capacity(1 << 16);
        for chunk in buckets.chunks(1 << 14) {
            bytes.clear();
            for b in chunk {
                bytes.extend_from_slice(&b.to_le_bytes());
            }
            out.write_all(&bytes)?;
        }
        out.flush()?;
        Ok(header)
    }
}
