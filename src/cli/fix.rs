//! `pdn fix`: write corrected PDN 3.0 (canonical notation, move numbers, results and tags
//! mended; with `--repair`, unique probable corrections of illegal moves), every change to
//! `--audit` as JSON Lines. Games in = games out, in input order, whatever `--jobs`; to
//! standard output, `-o`, one file per input (`--out-dir`) or over the inputs
//! (`--in-place`), every file written atomically.

use std::io::{self, Write};

use anyhow::Result;
use pdn::app::fix::{AsRead, Change, FixOptions, audit_line, fix};
use pdn::app::openings::Classifier;
use pdn::syntax::Game;

use super::args::FixArgs;
use super::batch::{self, Sink};
use super::input::Input;
use super::outdir::{self, PerFile};
use super::output::{AtomicFile, Output, shown};
use super::progress;
use super::{Status, common};

/// What fixing one game gives the consumer.
struct Done {
    text: String,
    audit: String,
    changes: u64,
    repairs: u64,
    kept: u64,
    unrepaired: bool,
    errors_before: u64,
    errors_after: u64,
    /// Why the game was written as read, if it was; and its number in its file.
    as_read: Option<(AsRead, usize)>,
}

/// How many games written as read are named in the summary.
const NAMED: usize = 10;

/// Totals of a run (or of a file).
#[derive(Clone, Copy, Default)]
struct Totals {
    games: u64,
    changes: u64,
    repairs: u64,
    kept: u64,
    unrepaired: u64,
    errors_before: u64,
    errors_after: u64,
    as_read: u64,
}

impl Totals {
    fn add(&mut self, d: &Done) {
        self.games += 1;
        self.changes += d.changes;
        self.repairs += d.repairs;
        self.kept += d.kept;
        self.unrepaired += u64::from(d.unrepaired);
        self.errors_before += d.errors_before;
        self.errors_after += d.errors_after;
        self.as_read += u64::from(d.as_read.is_some());
    }
}

/// Where the fixed games go.
enum Dest {
    /// Standard output or `-o`.
    Single(Output),
    /// One file per input: the one being written, if it could be created.
    PerFile(PerFile, Option<AtomicFile>),
}

/// Writes the fixed games and the audit in order, and adds up.
struct Out {
    dest: Dest,
    audit: Option<Output>,
    t: Totals,
    file: Totals,
    /// Per-file lines on standard error (not with `--quiet`).
    lines: bool,
    repair: bool,
    keep: bool,
    names: Vec<String>,
    /// The first games written as read: file name, game number, why.
    as_read: Vec<(String, usize, AsRead)>,
}

impl Sink<Done> for Out {
    fn file_start(&mut self, i: usize) -> io::Result<()> {
        self.file = Totals::default();
        if let Dest::PerFile(per, cur) = &mut self.dest {
            *cur = per.open(i);
        }
        Ok(())
    }

    fn game(&mut self, i: usize, d: Done) -> io::Result<u64> {
        match &mut self.dest {
            Dest::Single(out) => out.write_all(d.text.as_bytes())?,
            Dest::PerFile(per, cur) => {
                if let Some(f) = cur
                    && let Err(e) = f.write_all(d.text.as_bytes())
                {
                    per.lost(i, &e);
                    *cur = None;
                }
            }
        }
        if let Some(w) = self.audit.as_mut() {
            w.write_all(d.audit.as_bytes())?;
        }
        if let Some((why, index)) = d.as_read
            && self.as_read.len() < NAMED
        {
            self.as_read.push((self.names[i].clone(), index, why));
        }
        self.t.add(&d);
        self.file.add(&d);
        Ok(d.errors_after)
    }

    fn file_end(&mut self, i: usize, failed: bool) -> io::Result<()> {
        if let Dest::PerFile(per, cur) = &mut self.dest
            && let Some(f) = cur.take()
            && per.close(i, f, failed)
            && self.lines
        {
            let f = &self.file;
            progress::message(&format!(
                "pdn fix: {} -> {}: {} game{}, {} change{}{}, {} error{} left{}",
                self.names[i],
                shown(per.target(i)),
                f.games,
                plural(f.games),
                f.changes,
                plural(f.changes),
                repair_note(self.repair, self.keep, f),
                f.errors_after,
                plural(f.errors_after),
                if f.as_read > 0 {
                    format!(", {} written as read", f.as_read)
                } else {
                    String::new()
                },
            ));
        }
        Ok(())
    }
}

/// What `--repair` and `--keep-irregular` did, for the summaries.
fn repair_note(repair: bool, keep: bool, t: &Totals) -> String {
    match (repair, keep) {
        (true, true) => format!(" ({} repairs, {} irregular moves kept)", t.repairs, t.kept),
        (true, false) => format!(" ({} repairs)", t.repairs),
        (false, true) => format!(" ({} irregular moves kept)", t.kept),
        (false, false) => String::new(),
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

pub(super) fn run(a: &FixArgs) -> Result<Status> {
    super::classify::tables_need_classify(&a.tables, a.classify)?;
    // The opening tables are checked before any game is read.
    let classifier = if a.classify {
        Some(super::classify::classifier(&a.tables, a.input.variant)?)
    } else {
        None
    };
    let setup = common::Setup::new(&a.input)?;
    let inputs = &setup.inputs;
    outdir::check_single(a.output.as_deref(), a.audit.as_deref(), inputs)?;
    let dest = destination(a, inputs)?;
    let audit = match &a.audit {
        Some(p) => Some(Output::open(Some(p))?),
        None => None,
    };
    let want_audit = audit.is_some();
    let opts = FixOptions {
        validate: setup.validate_options(false),
        repair: a.repair,
        keep_irregular: a.keep_irregular,
    };
    let mut sink = Out {
        dest,
        audit,
        t: Totals::default(),
        file: Totals::default(),
        lines: !setup.quiet,
        repair: a.repair,
        keep: a.keep_irregular,
        names: setup.shown_names(),
        as_read: Vec::new(),
    };
    let totals = batch::run(
        &setup,
        &opts,
        |i, game, opts| {
            fix_game(
                game,
                opts,
                want_audit.then_some(inputs[i].name.as_str()),
                classifier.as_ref(),
            )
        },
        &mut sink,
    )?;
    let Out {
        dest,
        audit,
        t,
        as_read,
        ..
    } = sink;
    let mut files_note = String::new();
    let mut lost = 0;
    match dest {
        Dest::Single(out) => out.finish()?,
        Dest::PerFile(per, _) => {
            files_note = format!(", {} file{} written", per.written, plural(per.written));
            if per.failed > 0 {
                files_note.push_str(&format!(", {} not", per.failed));
            }
            lost = per.failed;
        }
    }
    if let Some(w) = audit {
        w.finish()?;
    }
    summary(a, &totals, &t, &as_read, &files_note);
    if let Some(note) = common::unreadable_note(&totals) {
        progress::message(&format!("pdn: {note}"));
    }
    common::status(t.errors_after > 0 || lost > 0 || t.as_read > 0, &totals)
}

/// Where the fixed games go: `--out-dir`, `--in-place`, or standard output or `-o`.
fn destination(a: &FixArgs, inputs: &[Input]) -> Result<Dest> {
    Ok(if let Some(dir) = &a.out_dir {
        Dest::PerFile(PerFile::out_dir(dir, inputs, "pdn")?, None)
    } else if a.in_place {
        Dest::PerFile(PerFile::in_place(inputs, a.backup.clone())?, None)
    } else {
        Dest::Single(Output::open(a.output.as_deref())?)
    })
}

/// Fix one game; its changes as audit lines naming `audit_file`, when there is an audit.
/// With `classifier` (`--classify`), its Opening and Ballot tags are set first, from the game
/// as read (as `pdn classify` finds them), each change in the audit.
fn fix_game(
    mut game: Game,
    opts: &FixOptions,
    audit_file: Option<&str>,
    classifier: Option<&Classifier>,
) -> Done {
    let index = game.index;
    let mut tagged = Vec::new();
    if let Some(c) = classifier {
        let (found, _) = c.classify_game(&game, &opts.validate);
        for (name, before, after) in found.set_tags(&mut game.tags) {
            let why = match (name, &found.opening, &found.ballot) {
                ("Opening", Some(o), _) => format!(
                    "Opening: the deepest named opening the game reaches (table {}, ply {})",
                    o.table, o.ply
                ),
                (_, _, Some(b)) => format!(
                    "Ballot: the deepest ballot the game reaches (table {}, ply {})",
                    b.table, b.ply
                ),
                _ => format!("{name}: classified"),
            };
            tagged.push(Change {
                ply: None,
                before,
                after: Some(after),
                why,
            });
        }
    }
    let f = fix(game, opts);
    let mut audit = String::new();
    if let Some(file) = audit_file {
        for c in tagged.iter().chain(&f.changes) {
            audit_line(file, index, c, &mut audit);
        }
    }
    Done {
        text: f.text,
        audit,
        changes: (tagged.len() + f.changes.len()) as u64,
        repairs: u64::from(f.repairs),
        kept: u64::from(f.kept),
        unrepaired: f.unrepaired,
        errors_before: u64::from(f.errors_before),
        errors_after: u64::from(f.errors_after),
        as_read: f.as_read.map(|why| (why, index)),
    }
}

/// The closing lines on standard error: the totals of the run, then the games written as
/// read (first `NAMED` of them by name), which are never silent, not even with `--quiet`.
fn summary(
    a: &FixArgs,
    totals: &batch::Totals,
    t: &Totals,
    as_read: &[(String, usize, AsRead)],
    files_note: &str,
) {
    progress::note(&format!(
        "pdn fix: {} games in {} files, {} changes{}{}, {} games with problems left ({} errors before, {} after), {} written as read{files_note}",
        t.games,
        totals.files,
        t.changes,
        repair_note(a.repair, a.keep_irregular, t),
        match &a.audit {
            Some(p) => format!(" written to {}", shown(p)),
            None => String::new(),
        },
        t.unrepaired,
        t.errors_before,
        t.errors_after,
        t.as_read,
    ));
    if t.as_read > 0 {
        // A failure of `fix` for those games: never silent, not even with --quiet.
        let named: Vec<String> = as_read
            .iter()
            .map(|(file, game, why)| format!("{file} game {game} ({})", why.reason()))
            .collect();
        let more = t.as_read - as_read.len() as u64;
        progress::message(&format!(
            "pdn fix: {} game{} written as read, not fixed: {}{}",
            t.as_read,
            plural(t.as_read),
            named.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            },
        ));
    }
}
