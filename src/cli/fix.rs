//! `pdn fix`: write corrected PDN 3.0 (canonical notation, move numbers, results and tags
//! mended; with `--repair`, unique probable corrections of illegal moves), every change to
//! `--audit` as JSON Lines. Games in = games out, in input order, whatever `--jobs`; to
//! standard output, `-o`, one file per input (`--out-dir`) or over the inputs
//! (`--in-place`), every file written atomically.

use std::io::{self, Write};

use anyhow::Result;
use pdn::app::fix::{
    AsRead, Change, DATE_TAGS, DateEvidence, DateOrder, FixOptions, audit_line, fix_ref,
    fix_ref_to, fix_to,
};
use pdn::app::model::reading::GameRef;
use pdn::app::openings::Classifier;
use pdn::app::write::spill::{Spill, Text};
use pdn::syntax::{GameEnd, RawTag, Reader, Skip, Span, Visitor};

use super::args::{DateOrderArg, FixArgs};
use super::batch::{self, Hinted, Sink};
use super::input::{self, InputList};
use super::outdir::{self, Closed, PerFile};
use super::output::{AtomicFile, Output, shown};
use super::progress;
use super::{Status, common};

/// What fixing one game gives the consumer.
struct Done {
    /// The fixed game (a huge one in a temporary file: `pdn::app::write::spill`).
    text: Text,
    audit: String,
    changes: u64,
    repairs: u64,
    kept: u64,
    unrepaired: bool,
    errors_before: u64,
    errors_after: u64,
    /// Why the game was written as read, if it was; and its number in its file.
    as_read: Option<(AsRead, usize)>,
    /// The game's number in its file if the reader could not read all of its text (a game
    /// over the size limit: see `pdn::syntax::Game::read_whole`).
    cut: Option<usize>,
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
    /// Games not read whole.
    cut: u64,
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
        self.cut += u64::from(d.cut.is_some());
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
struct Out<'a> {
    dest: Dest,
    audit: Option<Output>,
    t: Totals,
    file: Totals,
    /// Per-file lines on standard error (not with `--quiet`).
    lines: bool,
    repair: bool,
    keep: bool,
    /// The first games written as read: file name, game number, why.
    as_read: Vec<(String, usize, AsRead)>,
    /// The first game of the current file that was not read whole.
    first_cut: Option<usize>,
    inputs: &'a InputList,
}

impl Sink<Done> for Out<'_> {
    fn file_start(&mut self, i: usize) -> io::Result<()> {
        self.file = Totals::default();
        self.first_cut = None;
        if let Dest::PerFile(per, cur) = &mut self.dest {
            *cur = per.open(i);
        }
        Ok(())
    }

    fn game(&mut self, i: usize, d: &mut Done) -> io::Result<u64> {
        match &mut self.dest {
            Dest::Single(out) => d.text.write_to(out)?,
            Dest::PerFile(per, cur) => {
                if let Some(f) = cur
                    && let Err(e) = d.text.write_to(f)
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
            self.as_read
                .push((common::shown_name(self.inputs.get(i)), index, why));
        }
        if let Some(game) = d.cut {
            self.first_cut.get_or_insert(game);
        }
        self.t.add(d);
        self.file.add(d);
        Ok(d.errors_after + u64::from(d.cut.is_some()))
    }

    fn file_end(&mut self, i: usize, failed: bool) -> io::Result<()> {
        let whole = outdir::whole(failed, self.first_cut, self.file.cut);
        if self.first_cut.is_some()
            && let Some(why) = &whole
        {
            progress::message(&format!(
                "pdn fix: {}: {why}: its output misses that text",
                common::shown_name(self.inputs.get(i))
            ));
        }
        if let Dest::PerFile(per, cur) = &mut self.dest
            && let Some(f) = cur.take()
        {
            let closed = per.close(i, f, whole.as_deref(), self.inputs.get(i).stamp());
            if closed == Closed::Failed || !self.lines {
                return Ok(());
            }
            let f = &self.file;
            progress::message(&format!(
                "pdn fix: {} -> {}: {} game{}, {} change{}{}, {} error{} left{}{}",
                common::shown_name(self.inputs.get(i)),
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
                if closed == Closed::Unchanged {
                    " (unchanged: not rewritten)"
                } else {
                    ""
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
    let setup = common::RunSetup::new(&a.input)?;
    let inputs = &setup.inputs;
    let dest = destination(a, inputs)?;
    let audit = match &a.audit {
        Some(p) => Some(Output::open(Some(p))?),
        None => None,
    };
    let want_audit = audit.is_some();
    let opts = FixOptions {
        validate: setup.validate_options(false, a.lines.main_line),
        repair: a.repair,
        keep_irregular: a.keep_irregular,
        result_style: a.result_style.style(),
        date_order: a.date_order.map(DateOrderArg::order),
    };
    let orders = date_orders(a, inputs);
    let mut sink = Out {
        dest,
        audit,
        t: Totals::default(),
        file: Totals::default(),
        lines: !setup.quiet,
        repair: a.repair,
        keep: a.keep_irregular,
        as_read: Vec::new(),
        first_cut: None,
        inputs,
    };
    let totals = batch::run(
        &setup,
        || (),
        |(), g| {
            let name = want_audit.then(|| inputs.name(g.file));
            let opts = FixOptions {
                date_order: orders[g.file],
                ..opts.hinted(g.hint)
            };
            fix_game(g, &opts, name.as_deref(), classifier.as_ref())
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
            if per.unchanged > 0 {
                files_note.push_str(&format!(", {} unchanged", per.unchanged));
            }
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
    common::status(
        t.errors_after > 0 || lost > 0 || t.as_read > 0 || t.cut > 0,
        &totals,
    )
}

/// The order of day and month of the dates of each input: `--date-order`, or what the
/// file's unambiguous dates show (its tags read once before the games are fixed, so that
/// every date of a file is read the same way). Standard input cannot be read twice: only
/// `--date-order` decides there.
fn date_orders(a: &FixArgs, inputs: &InputList) -> Vec<Option<DateOrder>> {
    if let Some(o) = a.date_order {
        return vec![Some(o.order()); inputs.len()];
    }
    inputs
        .iter()
        .map(|i| match i.is_stdin() {
            false => input::open(i).ok().and_then(file_dates),
            true => None,
        })
        .collect()
}

/// What the dates of a file show of their order (`pdn::app::fix::file_date_order`); only
/// its tags are looked at.
fn file_dates(r: Box<dyn io::Read + Send>) -> Option<DateOrder> {
    struct Dates(DateEvidence);
    impl Visitor for Dates {
        type Output = ();
        fn tag(&mut self, name: &[u8], value: RawTag<'_>, _: Span) {
            let standard = value.standard_name();
            if DATE_TAGS
                .iter()
                .any(|n| standard == Some(*n) || name == n.as_bytes())
            {
                self.0.add(&value.text());
            }
        }
        fn begin_variation(&mut self) -> Skip {
            Skip(true)
        }
        fn end_game(&mut self, _: &GameEnd<'_>) {}
    }
    let mut reader = Reader::new(r);
    let mut dates = Dates(DateEvidence::default());
    // (An unreadable tail ends the look: the games before it decide.)
    while let Ok(Some(())) = reader.read_game(&mut dates) {}
    dates.0.order()
}

/// Where the fixed games go: `--out-dir`, `--in-place`, or standard output or `-o`; every
/// file the run writes checked first (`outdir::check_targets`).
fn destination(a: &FixArgs, inputs: &InputList) -> Result<Dest> {
    let per = if let Some(dir) = &a.out_dir {
        Some(PerFile::out_dir(dir, inputs, "pdn")?)
    } else if a.in_place {
        Some(PerFile::in_place(inputs, a.backup.clone())?)
    } else {
        None
    };
    outdir::check_targets(
        inputs,
        a.output.as_deref(),
        a.audit.as_deref(),
        per.as_ref(),
        &common::tables_read(&a.tables),
    )?;
    Ok(match per {
        Some(per) => Dest::PerFile(per, None),
        None => Dest::Single(Output::open_data(a.output.as_deref())?),
    })
}

/// Fix one game; its changes as audit lines naming `audit_file`, when there is an audit.
/// With `classifier` (`--classify`), its Opening and Ballot tags are set first, from the game
/// as read (as `pdn classify` finds them), each change in the audit.
fn fix_game(
    g: &GameRef<'_>,
    opts: &FixOptions,
    audit_file: Option<&str>,
    classifier: Option<&Classifier>,
) -> Done {
    let index = g.index();
    let cut = g
        .record
        .errors
        .iter()
        .any(|e| e.kind.loses_text())
        .then_some(index);
    let mut tagged = Vec::new();
    let (f, text) = match classifier {
        // Its owned game made only if it is needed (a valid game is written from its record).
        None => fix_ref(g, opts, Spill::default()),
        Some(c) => {
            let mut game = g.to_game();
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
            // Replayed from the record read when its tags are those of the game (no record
            // of its tree made beside it).
            if tagged.is_empty() {
                fix_ref_to(g, game, opts, Spill::default())
            } else {
                fix_to(game, opts, Spill::default())
            }
        }
    };
    let mut audit = String::new();
    if let Some(file) = audit_file {
        for c in tagged.iter().chain(&f.changes) {
            audit_line(file, index, c, &mut audit);
        }
    }
    Done {
        text,
        audit,
        changes: (tagged.len() + f.changes.len()) as u64,
        repairs: u64::from(f.repairs),
        kept: u64::from(f.kept),
        unrepaired: f.unrepaired,
        errors_before: u64::from(f.errors_before),
        errors_after: u64::from(f.errors_after),
        as_read: f.as_read.map(|why| (why, index)),
        cut,
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
        "pdn fix: {} in {}, {}{}{}, {} with problems left ({} before, {} after), {} written as read{files_note}",
        common::count(t.games, "game", "games"),
        common::count(totals.files, "file", "files"),
        common::count(t.changes, "change", "changes"),
        repair_note(a.repair, a.keep_irregular, t),
        match &a.audit {
            Some(p) => format!(" written to {}", shown(p)),
            None => String::new(),
        },
        common::count(t.unrepaired, "game", "games"),
        common::count(t.errors_before, "error", "errors"),
        t.errors_after,
        t.as_read,
    ));
    if t.cut > 0 {
        // Text that could not be read is never lost silently, not even with --quiet.
        progress::message(&format!(
            "pdn fix: {} game{} could not be read whole: {}",
            t.cut,
            plural(t.cut),
            if a.in_place {
                "no file holding one was replaced"
            } else if t.cut == 1 {
                "the output misses part of it"
            } else {
                "the output misses part of them"
            }
        ));
    }
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
