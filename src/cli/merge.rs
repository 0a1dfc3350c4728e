//! `pdn merge`: the games of the inputs with one game kept per set of copies (merged with
//! them), written as strict PDN, and every decision in the audit (JSON Lines). Each game is
//! read once through the record pipeline (all cores): written as strict PDN, its identity
//! and facts computed, all three spilled to a temporary file, only a key and a place kept in
//! memory; the plan is made from the keys (each hit checked against the identities), then
//! the output written in input order from the spill.

use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use pdn::app::fix::{FixOptions, fix};
use pdn::app::merge::names::Table;
use pdn::app::merge::{self, Entry, Facts, Plan, Role, Verdict};
use pdn::app::model::reading::GameRef;
use pdn::app::write::export::{self, ExportOptions};
use pdn::app::write::jsonl::Object;
use pdn::app::write::terminal::escape;
use pdn::syntax::{Game, read_games};

use super::args::MergeArgs;
use super::batch::{self, Hinted, Sink};
use super::output::{Output, shown, unwritten};
use super::{Status, common, progress};

/// Games shorter than this are not reported as contained in a longer one (a few plies in
/// common are an opening, not a copy).
pub(super) const MIN_CONTAINED: u32 = 10;

/// One game read: its strict PDN, identity and facts.
struct Read1 {
    text: String,
    id: Vec<u8>,
    facts: Facts,
    /// Plies of its main line.
    plies: u32,
    errors: u32,
    /// Slips corrected (`--fuzzy`).
    repaired: u32,
    line: u32,
    game: u32,
}

/// Read a names table (`--names`, `--apply`).
pub(super) fn read_table(path: &Path) -> Result<Table> {
    let what = shown(path);
    let text = std::fs::read_to_string(path)
        .map_err(anyhow::Error::new)
        .with_context(|| format!("names table {what}"))?;
    Table::parse(&text)
        .map_err(|e| anyhow::anyhow!("names table {what}: {}", escape(&e.to_string())))
}

/// Rewrite the players' names of a game by a table.
pub(super) fn apply_table(game: &mut Game, table: &Table) -> u32 {
    let mut n = 0;
    for t in &mut game.tags {
        if matches!(t.name.as_str(), "White" | "Black")
            && let Some(v) = table.get(&t.value)
            && v != t.value
        {
            t.value = v.to_string();
            n += 1;
        }
    }
    n
}

/// The per-game work: the game (names rewritten by the table, a slip repaired with
/// `--fuzzy`) written as strict PDN, with its identity and facts.
fn read_one(g: &GameRef<'_>, opts: &ExportOptions, table: Option<&Table>, fuzzy: bool) -> Read1 {
    let opts = opts.hinted(g.hint);
    let mut game = g.to_game();
    if let Some(t) = table {
        apply_table(&mut game, t);
    }
    let mut r = of_game(&game, &opts);
    r.line = g.line;
    r.game = g.index() as u32;
    if fuzzy && r.errors > 0 && !r.id.is_empty() {
        let f = fix(
            game,
            &FixOptions {
                validate: opts.validate,
                repair: true,
                ..FixOptions::default()
            },
        );
        if f.repairs > 0
            && f.errors_after == 0
            && let Some(fixed) = read_games(f.text.as_bytes()).into_iter().next()
        {
            let mut fixed = of_game(&fixed, &opts);
            fixed.repaired = f.repairs;
            fixed.errors = r.errors;
            fixed.line = r.line;
            fixed.game = r.game;
            return fixed;
        }
    }
    r
}

fn of_game(game: &Game, opts: &ExportOptions) -> Read1 {
    let a = export::analyse(game, opts);
    let mut text = String::with_capacity(2 * game.source.len() + 256);
    export::pdn::write(&a, &mut text);
    let mut id = Vec::with_capacity(512);
    let identified = a.variant().is_some();
    merge::identity(&a, &mut id);
    Read1 {
        text,
        id: if identified { id } else { Vec::new() },
        facts: Facts::of(|t| game.tag(t).map(str::to_string)),
        plies: a.report.plies,
        errors: a.report.errors(),
        repaired: 0,
        line: 0,
        game: 0,
    }
}

/// Where a game is: in its input, and in the spill.
#[derive(Clone, Copy, Debug)]
struct Place {
    file: u32,
    game: u32,
    line: u32,
    /// Offset in the spill of its facts, then identity, then text.
    at: u64,
    facts: u32,
    id: u32,
    text: u32,
    repaired: u32,
}

/// Spills each game and keeps its key and place.
struct Spill {
    w: BufWriter<File>,
    at: u64,
    entries: Vec<Entry>,
    places: Vec<Place>,
    buf: Vec<u8>,
    errors: u64,
    repaired: u64,
}

impl Sink<Read1> for Spill {
    fn game(&mut self, file: usize, r: &mut Read1) -> io::Result<u64> {
        self.buf.clear();
        r.facts.encode(&mut self.buf);
        let facts = self.buf.len() as u32;
        self.w.write_all(&self.buf)?;
        self.w.write_all(&r.id)?;
        self.w.write_all(r.text.as_bytes())?;
        let len = |n: usize| u32::try_from(n).map_err(|_| io::Error::other("a game over 4 GB"));
        self.places.push(Place {
            file: file as u32,
            game: r.game,
            line: r.line,
            at: self.at,
            facts,
            id: len(r.id.len())?,
            text: len(r.text.len())?,
            repaired: r.repaired,
        });
        self.at += u64::from(facts) + r.id.len() as u64 + r.text.len() as u64;
        self.entries.push(Entry {
            key: (!r.id.is_empty()).then(|| merge::key(&r.id)),
            plies: r.plies,
        });
        self.errors += u64::from(r.errors > 0);
        self.repaired += u64::from(r.repaired > 0);
        Ok(u64::from(r.errors))
    }
}

/// The spill, read back.
struct Back {
    f: File,
    places: Vec<Place>,
}

impl Back {
    fn bytes(&mut self, at: u64, len: u32) -> io::Result<Vec<u8>> {
        let mut b = vec![0; len as usize];
        self.f.seek(SeekFrom::Start(at))?;
        self.f.read_exact(&mut b)?;
        Ok(b)
    }
    fn facts(&mut self, i: u32) -> io::Result<Facts> {
        let p = self.places[i as usize];
        let b = self.bytes(p.at, p.facts)?;
        Facts::decode(&b)
            .map(|f| f.0)
            .ok_or_else(|| io::Error::other("the spill of pdn merge was damaged"))
    }
    fn identity(&mut self, i: u32) -> io::Result<Vec<u8>> {
        let p = self.places[i as usize];
        self.bytes(p.at + u64::from(p.facts), p.id)
    }
    fn text(&mut self, i: u32) -> io::Result<String> {
        let p = self.places[i as usize];
        let b = self.bytes(p.at + u64::from(p.facts) + u64::from(p.id), p.text)?;
        String::from_utf8(b).map_err(|_| io::Error::other("the spill of pdn merge was damaged"))
    }
}

pub(super) fn run(a: &MergeArgs) -> Result<Status> {
    let table = match &a.names {
        Some(p) => Some(read_table(p)?),
        None => None,
    };
    let setup = common::RunSetup::new(&a.input)?;
    let inputs = &setup.inputs;
    common::not_an_input("-o", &a.output, inputs)?;
    common::not_an_input("--audit", &a.audit, inputs)?;
    if let Some(names) = &a.names {
        let read = [("the --names table", names.as_path())];
        common::not_read_aside("-o", &a.output, &read)?;
        common::not_read_aside("--audit", &a.audit, &read)?;
    }
    if a.output == a.audit || common::same_file(&a.output, &a.audit) {
        bail!("-o and --audit name the same file: give each its own");
    }
    let opts = ExportOptions {
        validate: setup.validate_options(false, false),
        ..ExportOptions::default()
    };
    // Beside the output (not in a /tmp that may be memory): a key and a place per game stay
    // in memory, the rest is read back from here.
    let dir = match a.output.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let spill = tempfile::tempfile_in(&dir)
        .with_context(|| format!("a temporary file for pdn merge in {}", escape(&shown(&dir))))?;
    let mut sink = Spill {
        w: BufWriter::with_capacity(1 << 20, spill),
        at: 0,
        entries: Vec::new(),
        places: Vec::new(),
        buf: Vec::new(),
        errors: 0,
        repaired: 0,
    };
    let fuzzy = a.fuzzy;
    let totals = batch::run(
        &setup,
        || (),
        |(), g| read_one(g, &opts, table.as_ref(), fuzzy),
        &mut sink,
    )?;
    let Spill {
        w,
        entries,
        places,
        errors,
        repaired,
        ..
    } = sink;
    let f = w
        .into_inner()
        .map_err(|e| anyhow::Error::new(e.into_error()))
        .context("the temporary file of pdn merge")?;
    let mut back = Back { f, places };
    let mut failed: Option<io::Error> = None;
    let plan = {
        let back = std::cell::RefCell::new(&mut back);
        let failed = std::cell::RefCell::new(&mut failed);
        let keep = |e: io::Error| {
            failed.borrow_mut().get_or_insert(e);
        };
        merge::plan(
            &entries,
            &mut |i| {
                back.borrow_mut().identity(i).unwrap_or_else(|e| {
                    keep(e);
                    Vec::new()
                })
            },
            &mut |i| {
                back.borrow_mut().facts(i).unwrap_or_else(|e| {
                    keep(e);
                    Facts::default()
                })
            },
            MIN_CONTAINED,
        )
    };
    if let Some(e) = failed {
        return Err(anyhow::Error::new(e).context("the temporary file of pdn merge"));
    }
    let raw_names: Vec<String> = inputs.iter().map(|i| i.name().into_owned()).collect();
    let mut out = Output::open_data(Some(&a.output))?;
    let mut audit = Output::open(Some(&a.audit))?;
    let counts = write(&plan, &mut back, &opts, &mut out, &mut audit, &raw_names)
        .map_err(unwritten(&shown(&a.output)))?;
    let mut s = String::new();
    Object::new(&mut s)
        .str("type", "summary")
        .uint("files", totals.files)
        .uint("games", totals.games)
        .uint("kept", counts.written)
        .uint("dropped", counts.dropped)
        .uint("sets", counts.sets)
        .uint("reported", plan.reported.len() as u64)
        .uint("repaired", repaired)
        .uint("games_with_errors", errors)
        .uint("unreadable_files", totals.unreadable)
        .end();
    audit
        .write_all(s.as_bytes())
        .map_err(unwritten(&shown(&a.audit)))?;
    out.finish()?;
    audit.finish()?;
    progress::note(&format!(
        "pdn merge: {} game{} in {} file{}: {} written, {} dropped as copies in {} set{}, {} reported (see {})",
        totals.games,
        if totals.games == 1 { "" } else { "s" },
        totals.files,
        if totals.files == 1 { "" } else { "s" },
        counts.written,
        counts.dropped,
        counts.sets,
        if counts.sets == 1 { "" } else { "s" },
        plan.reported.len(),
        escape(&shown(&a.audit)),
    ));
    if let Some(note) = common::unreadable_note(&totals) {
        progress::message(&format!("pdn: {note}"));
    }
    common::status(false, &totals)
}

/// What the writing counted.
#[derive(Default)]
struct Counts {
    written: u64,
    dropped: u64,
    sets: u64,
}

/// A game in the audit: file, game, line.
fn place(o: &mut Object<'_>, prefix: &str, p: &Place, names: &[String]) {
    let k = |s: &str| format!("{prefix}{s}");
    o.str(
        &k("file"),
        names.get(p.file as usize).map_or("", String::as_str),
    )
    .uint(&k("game"), u64::from(p.game))
    .uint(&k("line"), u64::from(p.line));
}

fn verdict(o: &mut Object<'_>, v: Option<&Verdict>) {
    match v {
        Some(v) => {
            o.float("score", v.score());
            let mut a = o.array("evidence");
            for e in &v.evidence() {
                a.str(e);
            }
            a.close();
        }
        None => {
            o.null("score");
            o.array("evidence").close();
        }
    }
}

/// Write the games in input order (each set merged at its kept game) and the audit.
fn write(
    plan: &Plan,
    back: &mut Back,
    opts: &ExportOptions,
    out: &mut Output,
    audit: &mut Output,
    names: &[String],
) -> io::Result<Counts> {
    let mut c = Counts::default();
    let mut reported = plan.reported.iter().peekable();
    let mut s = String::new();
    for (i, role) in plan.roles.iter().enumerate() {
        let i = i as u32;
        let p = back.places[i as usize];
        s.clear();
        match role {
            Role::Alone => {
                out.write_all(back.text(i)?.as_bytes())?;
                c.written += 1;
                if p.repaired > 0 {
                    let mut o = Object::new(&mut s);
                    o.str("type", "repaired");
                    place(&mut o, "", &p, names);
                    o.uint("repairs", u64::from(p.repaired)).end();
                }
            }
            Role::Kept { copies } => {
                let mut games = Vec::with_capacity(copies.len() + 1);
                for &k in std::iter::once(&i).chain(copies) {
                    let text = back.text(k)?;
                    games.push(
                        read_games(text.as_bytes())
                            .into_iter()
                            .next()
                            .unwrap_or_default(),
                    );
                }
                let merged = merge::merge_games(games);
                let a = export::analyse(&merged, opts);
                let mut text = String::with_capacity(2 * merged.source.len());
                export::pdn::write(&a, &mut text);
                out.write_all(text.as_bytes())?;
                c.written += 1;
                c.sets += 1;
                let mut o = Object::new(&mut s);
                o.str("type", "kept");
                place(&mut o, "", &p, names);
                o.uint("copies", copies.len() as u64);
                o.uint("repairs", u64::from(p.repaired));
                let mut arr = o.array("dropped");
                for &k in copies {
                    let q = back.places[k as usize];
                    let mut e = arr.object();
                    place(&mut e, "", &q, names);
                    e.close();
                }
                arr.close();
                o.end();
            }
            Role::Dropped { kept, verdict: v } => {
                c.dropped += 1;
                let q = back.places[*kept as usize];
                let mut o = Object::new(&mut s);
                o.str("type", "dropped");
                place(&mut o, "", &p, names);
                place(&mut o, "kept_", &q, names);
                o.str(
                    "why",
                    if p.repaired > 0 {
                        "copy-after-repair"
                    } else {
                        "copy"
                    },
                );
                o.uint("repairs", u64::from(p.repaired));
                verdict(&mut o, Some(v));
                o.end();
            }
        }
        while let Some(r) = reported.next_if(|r| r.game == i) {
            let q = back.places[r.other as usize];
            let mut o = Object::new(&mut s);
            o.str("type", "reported");
            place(&mut o, "", &p, names);
            place(&mut o, "other_", &q, names);
            o.str("why", r.why);
            verdict(&mut o, r.verdict.as_ref());
            o.end();
        }
        if !s.is_empty() {
            audit.write_all(s.as_bytes())?;
        }
    }
    Ok(c)
}
