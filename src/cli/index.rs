//! `pdn index`: every main-line position of the inputs with the games that reach it, in one
//! file (`pdn::app::search::index`), built on every core through the batch pipeline and
//! written whole or not at all; and `search --index`, the same answers from such a file.

use std::io::{self, Read};
use std::path::Path;

use anyhow::{Context, Result, bail};
use pdn::app::search::index::{
    GameEntry, Header, Index, IndexError, IndexWriter, IndexedGame, Indexer, index_ref,
    search_index, text_hash,
};
use pdn::app::search::{GameResult, Searcher};
use pdn::app::write::terminal::escape;
use pdn::syntax::read_games;

use super::args::{IndexArgs, SearchArgs, SearchFormat};
use super::batch::{self, Sink};
use super::input::{self, InputList, InputRef, Source};
use super::output::{Output, Scratch, shown, unwritten};
use super::search::Out;
use super::{Status, common, progress};

/// Hands every game to the writer, in order.
struct Writer {
    w: IndexWriter,
}

impl Sink<IndexedGame> for Writer {
    fn game(&mut self, file: usize, g: &mut IndexedGame) -> io::Result<u64> {
        self.w.add(file as u32, g)?;
        Ok(0)
    }
}

/// The path to read an input again (empty for standard input).
fn path_of(i: InputRef<'_>) -> String {
    match i.source() {
        Source::Stdin => String::new(),
        Source::File(p) => p
            .canonicalize()
            .unwrap_or_else(|_| p.to_path_buf())
            .to_string_lossy()
            .into_owned(),
    }
}

/// Index the games of `setup` into `out`: the batch pipeline on every core, the writer's
/// temporary files in `temp`. Returns the header written and what the driver counted.
pub(super) fn build(
    setup: &common::RunSetup,
    how: Indexer,
    temp: &Path,
    out: &mut dyn io::Write,
    what: &str,
) -> Result<(Header, batch::Totals)> {
    // (The guard is dropped after the writer: its files gone whether the run ends, fails or
    // is stopped.)
    let (mut w, _scratch) = Scratch::made(
        || IndexWriter::new(temp, how.max_ply),
        IndexWriter::temp_dir,
        true,
    )
    .map_err(anyhow::Error::new)
    .with_context(|| format!("cannot make the temporary files of {what}"))?;
    for i in setup.inputs.iter() {
        w.add_file(&i.name(), &path_of(i));
    }
    let mut sink = Writer { w };
    let read = batch::run(setup, || (), |(), g| index_ref(g, how), &mut sink)?;
    let header = sink.w.finish(out).map_err(unwritten(what))?;
    Ok((header, read))
}

pub(super) fn run(a: &IndexArgs) -> Result<Status> {
    let setup = common::RunSetup::new(&a.input)?;
    common::not_an_input("-o", &a.output, &setup.inputs)?;
    let dir = match a.output.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let how = Indexer {
        variant: a.input.variant,
        max_ply: a.max_ply,
    };
    let mut out = Output::open(Some(&a.output))?;
    let what = shown(&a.output);
    let (header, read) = build(&setup, how, &dir, &mut out, &what)?;
    out.finish()?;
    let size = std::fs::metadata(&a.output).map_or(0, |m| m.len());
    let plies: u64 = header.variants.iter().map(|v| v.plies).sum();
    progress::note(&format!(
        "pdn index: {} games, {} positions ({} plies) from {} file{} -> {} ({:.1} MB)",
        header.games,
        header.entries,
        plies,
        read.files,
        if read.files == 1 { "" } else { "s" },
        what,
        size as f64 / 1e6
    ));
    if let Some(note) = common::unreadable_note(&read) {
        progress::message(&format!("pdn: {note}"));
    }
    common::status(false, &read)
}

/// Reads the text of indexed games again from their files, in archive order (one reader per
/// file, going forward).
struct Texts {
    file: Option<(u32, Box<dyn Read + Send>, u64)>,
}

impl Texts {
    /// The text of game `g` of the index, checked against the hash the index keeps.
    fn get(&mut self, index: &Index, g: &GameEntry) -> Result<Vec<u8>> {
        let (name, path) = index
            .files()
            .get(g.file as usize)
            .cloned()
            .unwrap_or_default();
        let shown_name = escape(&name).into_owned();
        if path.is_empty() {
            bail!(
                "{shown_name}: the index was read from standard input: its games cannot be read again for --format pdn"
            );
        }
        let fresh = match &self.file {
            Some((f, _, at)) => *f != g.file || *at > g.text_off,
            None => true,
        };
        if fresh {
            let input = InputList::of_file(Path::new(&path));
            let r = input::open(input.get(0))
                .with_context(|| format!("{shown_name}: cannot be read again"))?;
            self.file = Some((g.file, r, 0));
        }
        let Some((_, r, at)) = &mut self.file else {
            bail!("{shown_name}: cannot be read again");
        };
        // (A game is at most 64 MB: the reader's own bound; an index saying more is damaged.)
        if g.text_len > 64 << 20 {
            bail!(
                "{shown_name}: the index is damaged (a game of {} bytes)",
                g.text_len
            );
        }
        let skip = g.text_off - *at;
        let skipped = io::copy(&mut r.take(skip), &mut io::sink())?;
        let mut text = vec![0u8; g.text_len as usize];
        let ok = skipped == skip && r.read_exact(&mut text).is_ok();
        *at = g.text_off + u64::from(g.text_len);
        if !ok || text_hash(&text) != g.text_hash {
            bail!(
                "{shown_name}: changed since it was indexed (game {}): index it again",
                g.index
            );
        }
        Ok(text)
    }
}

/// `search --index FILE`.
pub(super) fn search(a: &SearchArgs, searcher: &Searcher, path: &Path) -> Result<Status> {
    progress::set_quiet(a.input.run.quiet);
    if !a.input.paths.is_empty() {
        bail!(
            "--index answers from the index: name no PATH (the games are read again from the files it names)"
        );
    }
    let index = Index::open(path)
        .map_err(anyhow::Error::new)
        .with_context(|| shown(path))?;
    let names: Vec<String> = index.files().iter().map(|(n, _)| n.clone()).collect();
    if let Some(p) = &a.output {
        // Neither the index nor a file of games it names (read again for their text).
        let mut read = vec![("the --index file", path)];
        read.extend(
            index
                .files()
                .iter()
                .filter(|(_, p)| !p.is_empty())
                .map(|(_, p)| ("a file of games the index names", Path::new(p.as_str()))),
        );
        common::not_read_aside("-o", p, &read)?;
    }
    let mut output = Output::open(a.output.as_deref())?;
    let mut texts = Texts { file: None };
    let summary = {
        let mut out = Out::new(Box::new(&mut output), a.format, names);
        if a.format == SearchFormat::Csv {
            out.header().map_err(unwritten("the matches"))?;
        }
        let mut failed: Option<anyhow::Error> = None;
        let result = search_index(&index, searcher, |file, id, r: GameResult| {
            let r = if a.format == SearchFormat::Pdn {
                match with_text(&index, searcher, &mut texts, id, r) {
                    Ok(r) => r,
                    Err(e) => {
                        failed = Some(e);
                        return Err(IndexError::Corrupt("stopped"));
                    }
                }
            } else {
                r
            };
            out.write(file as usize, &r).map_err(IndexError::Io)
        });
        if let Some(e) = failed {
            return Err(e);
        }
        let mut summary = result.map_err(|e| match e {
            IndexError::Io(e) => {
                anyhow::Error::new(e).context(super::output::Unwritten("the matches".into()))
            }
            e => anyhow::Error::new(e).context(shown(path)),
        })?;
        summary.files = index.files().len() as u64;
        let max = index
            .header()
            .max_ply
            .map(|m| format!("the index holds the first {m} plies of each game"));
        out.summary = summary.clone();
        out.finish(max.as_deref())
            .map_err(unwritten("the matches"))?;
        summary
    };
    output.finish()?;
    let _ = summary;
    Ok(Status::Clean)
}

/// A game found in an index, with its text read again from its file (for PDN output): it is
/// searched again (in the variant the index recorded), which places the comments.
fn with_text(
    index: &Index,
    searcher: &Searcher,
    texts: &mut Texts,
    id: u32,
    r: GameResult,
) -> Result<GameResult> {
    let g = index.game(id)?;
    let text = texts.get(index, &g)?;
    let Some(v) = r.info.variant else {
        return Ok(r);
    };
    let name = || escape(&index.files()[g.file as usize].0).into_owned();
    let games = read_games(&text);
    let [game] = games.as_slice() else {
        bail!(
            "{}: game {} does not read as one game again",
            name(),
            g.index
        );
    };
    let mut again = searcher.search_game_as(game, v);
    let plies = |r: &GameResult| {
        r.matches
            .iter()
            .map(|m| (m.ply, m.mirrored))
            .collect::<Vec<_>>()
    };
    if plies(&again) != plies(&r) {
        bail!(
            "{}: game {} no longer matches as indexed: index it again",
            name(),
            g.index
        );
    }
    again.info = r.info;
    Ok(again)
}
