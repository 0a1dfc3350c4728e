//! `pdn classify`: each game's opening and ballot by the opening tables (the shipped ones and
//! `--table` files), as text lines with a closing table, JSON Lines or CSV, in input order
//! whatever `--jobs`; and the tables' loading, shared by `fix`, `convert` and `stats`.

use std::collections::HashMap;
use std::io::{self, Write};

use anyhow::{Context, Result, bail};
use pdn::app::openings::{Classification, Classified, Classifier, Table};
use pdn::app::write::terminal::escape;
use pdn::rules::Variant;

use super::args::{ClassifyArgs, ClassifyFormat, TableArgs};
use super::batch::{self, Sink};
use super::output::{Output, shown, unwritten};
use super::{Status, common, progress};

/// How many problems of the tables are listed before the rest are counted.
const LISTED: usize = 20;

/// The user's tables (`--table`), as read.
fn user_tables(a: &TableArgs) -> Result<Vec<Table>> {
    let mut tables = Vec::new();
    for path in &a.tables {
        let what = shown(path);
        let bytes = std::fs::read(path)
            .map_err(anyhow::Error::new)
            .with_context(|| format!("table {what}"))?;
        let name = path
            .file_stem()
            .map_or_else(|| what.clone(), |s| s.to_string_lossy().into_owned());
        let t = Table::from_bytes(&name, &what, &bytes)
            .map_err(|e| anyhow::anyhow!("table {what}: {}", escape(&e.to_string())))?;
        tables.push(t);
    }
    Ok(tables)
}

/// The tables of the run: the user's first, then (unless `--tables-only`) the shipped ones.
fn tables(a: &TableArgs) -> Result<Vec<Table>> {
    if a.tables_only && a.tables.is_empty() {
        bail!("--tables-only needs a --table FILE");
    }
    let mut tables = user_tables(a)?;
    if !a.tables_only {
        tables.extend(Table::shipped());
    }
    Ok(tables)
}

/// The classifier of the run's tables, each checked first (`variant`: `--variant`, the
/// variant of a TSV table that names none). A problem in a table is fatal: nothing is read.
pub(super) fn classifier(a: &TableArgs, variant: Option<Variant>) -> Result<Classifier> {
    if a.tables_only && a.tables.is_empty() {
        bail!("--tables-only needs a --table FILE");
    }
    let built = if a.tables.is_empty() {
        Ok(Classifier::shipped())
    } else if a.tables_only {
        Classifier::new(&user_tables(a)?, variant)
    } else {
        Classifier::with_shipped(&user_tables(a)?, variant)
    };
    built.map_err(|problems| {
        // Each problem on a line of its own (`file:line: what`), then the error.
        for p in problems.iter().take(LISTED) {
            progress::message(&format!("pdn: {}", escape(&p.to_string())));
        }
        let more = problems.len().saturating_sub(LISTED);
        anyhow::anyhow!(
            "{} problem{} in the opening tables{}: every line must be legal from its start, every position distinct, no name or ballot number twice",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" },
            if more > 0 {
                format!(" ({more} not listed)")
            } else {
                String::new()
            }
        )
    })
}

/// Refuse `--table`/`--tables-only` without `--classify` (`fix`, `convert`).
pub(super) fn tables_need_classify(a: &TableArgs, classify: bool) -> Result<()> {
    if !classify && (!a.tables.is_empty() || a.tables_only) {
        bail!("--table and --tables-only go with --classify");
    }
    Ok(())
}

/// An opening found: variant, opening, ballot.
type Found = (Option<Variant>, Option<String>, Option<String>);

/// Counts of the run, and of each opening found (for the closing table).
#[derive(Default)]
struct Counts {
    games: u64,
    opening: u64,
    ballot: u64,
    unclassified: HashMap<&'static str, u64>,
    /// (variant, opening, ballot) -> games.
    found: HashMap<Found, u64>,
}

/// Writes each game's line in order and adds up.
struct Out {
    out: Output,
    format: ClassifyFormat,
    names: Vec<String>,
    counts: Counts,
}

impl Sink<Classified> for Out {
    fn game(&mut self, file: usize, g: &mut Classified) -> io::Result<u64> {
        let c = &g.classification;
        let n = &mut self.counts;
        n.games += 1;
        n.opening += u64::from(c.opening.is_some());
        n.ballot += u64::from(c.ballot.is_some());
        if let Some(u) = c.unclassified {
            *n.unclassified.entry(u.as_str()).or_default() += 1;
        } else if self.format == ClassifyFormat::Text {
            *n.found
                .entry((
                    c.variant,
                    c.opening.as_ref().map(|o| o.name.clone()),
                    c.ballot.as_ref().map(|b| b.text()),
                ))
                .or_default() += 1;
        }
        let name = &self.names[file];
        match self.format {
            ClassifyFormat::Text => {
                let mut s = format!("{}:{}: game {}: ", escape(name), g.line, g.game);
                s.push_str(&escape(&describe(c)));
                s.push('\n');
                self.out.write_all(s.as_bytes())?;
            }
            ClassifyFormat::Json => {
                let mut s = String::with_capacity(160);
                c.write_json(name, g.game, g.line, &mut s);
                self.out.write_all(s.as_bytes())?;
            }
            ClassifyFormat::Csv => {
                let mut w = csv::Writer::from_writer(Vec::with_capacity(160));
                let opt = |v: Option<u32>| v.map(|p| p.to_string()).unwrap_or_default();
                w.write_record([
                    name.as_str(),
                    &g.game.to_string(),
                    &g.line.to_string(),
                    c.variant.map_or("", Variant::name),
                    c.opening.as_ref().map_or("", |o| o.name.as_str()),
                    &opt(c.opening.as_ref().map(|o| o.ply)),
                    &c.ballot.as_ref().map(|b| b.text()).unwrap_or_default(),
                    &c.ballot.as_ref().is_some_and(|b| b.barred).to_string(),
                    &opt(c.ballot.as_ref().map(|b| b.ply)),
                    &opt(c.ply()),
                    c.unclassified.map_or("", |u| u.as_str()),
                ])?;
                let bytes = w.into_inner().map_err(|e| e.into_error())?;
                self.out.write_all(&bytes)?;
            }
        }
        Ok(u64::from(g.errors))
    }
}

/// A game's classification in words: `Old Fourteenth (ply 5); ballot 126 11-15 23-19 8-11
/// (ply 3)`, or why it has none.
fn describe(c: &Classification) -> String {
    let mut parts = Vec::new();
    if let Some(o) = &c.opening {
        parts.push(format!("{} (ply {})", o.name, o.ply));
    }
    if let Some(b) = &c.ballot {
        parts.push(format!(
            "ballot {}{} (ply {})",
            b.text(),
            if b.barred { ", barred" } else { "" },
            b.ply
        ));
    }
    match c.unclassified {
        Some(u) => format!("unclassified: {}", u.describe()),
        None => parts.join("; "),
    }
}

/// The CSV header.
const CSV_COLUMNS: [&str; 11] = [
    "file",
    "game",
    "line",
    "variant",
    "opening",
    "opening_ply",
    "ballot",
    "barred",
    "ballot_ply",
    "ply",
    "unclassified",
];

/// `--list-tables`: each table with its variants and entries, and its title.
fn list_tables(a: &TableArgs, variant: Option<Variant>) -> Result<()> {
    let tables = tables(a)?;
    // Checked as a run would check them.
    classifier(a, variant)?;
    let mut out = String::new();
    for t in &tables {
        let variants: Vec<&str> = if t.variants.is_empty() {
            match variant {
                Some(v) => vec![v.name()],
                None => vec!["(its games' own)"],
            }
        } else {
            t.variants.iter().map(|v| v.name()).collect()
        };
        let ballots = t.entries.iter().filter(|e| e.ballot.is_some()).count();
        let barred = t.entries.iter().filter(|e| e.barred).count();
        let fields = [
            t.name.clone(),
            variants.join(","),
            format!(
                "{} entries{}{}",
                t.entries.len(),
                if ballots > 0 {
                    format!(", {ballots} ballots")
                } else {
                    String::new()
                },
                if barred > 0 {
                    format!(" ({barred} barred)")
                } else {
                    String::new()
                }
            ),
            t.title.clone().unwrap_or_default(),
            t.origin.clone(),
        ];
        let fields: Vec<String> = fields.iter().map(|f| escape(f).into_owned()).collect();
        out.push_str(&fields.join("\t"));
        out.push('\n');
    }
    let mut w = common::stdout();
    w.write_all(out.as_bytes())
        .and_then(|()| w.flush())
        .map_err(unwritten("standard output"))?;
    Ok(())
}

pub(super) fn run(a: &ClassifyArgs) -> Result<Status> {
    if let Some(name) = &a.show_table {
        let text = Table::shipped_text(name).unwrap_or_default();
        let mut w = common::stdout();
        w.write_all(text.as_bytes())
            .and_then(|()| w.flush())
            .map_err(unwritten("standard output"))?;
        return Ok(Status::Clean);
    }
    if a.list_tables {
        list_tables(&a.tables, a.input.variant)?;
        return Ok(Status::Clean);
    }
    // The tables are checked before any game is read.
    let classifier = classifier(&a.tables, a.input.variant)?;
    let setup = common::RunSetup::new(&a.input)?;
    let inputs = &setup.inputs;
    if let Some(p) = &a.output {
        common::not_an_input("-o", p, inputs)?;
        common::not_read_aside("-o", p, &common::tables_read(&a.tables))?;
    }
    let opts = setup.validate_options(false, false);
    let mut out = Output::open(a.output.as_deref())?;
    if a.format == ClassifyFormat::Csv {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(CSV_COLUMNS)?;
        out.write_all(&w.into_inner().map_err(|e| e.into_error())?)
            .map_err(unwritten("the output"))?;
    }
    let mut sink = Out {
        out,
        format: a.format,
        names: inputs.iter().map(|i| i.name().into_owned()).collect(),
        counts: Counts::default(),
    };
    let totals = batch::run(
        &setup,
        || (),
        |(), g| Classified::of_ref(&classifier, g, &opts),
        &mut sink,
    )?;
    let Out {
        mut out, counts, ..
    } = sink;
    let mut text = String::new();
    match a.format {
        ClassifyFormat::Text => closing_table(&counts, &mut text),
        ClassifyFormat::Json => summary_json(&counts, &totals, &mut text),
        ClassifyFormat::Csv => {}
    }
    out.write_all(text.as_bytes())
        .map_err(unwritten("the output"))?;
    out.finish()?;
    let unclassified: u64 = counts.unclassified.values().sum();
    progress::note(&format!(
        "pdn classify: {} game{} in {} file{}: {} with an opening, {} with a ballot, {} unclassified",
        counts.games,
        if counts.games == 1 { "" } else { "s" },
        totals.files,
        if totals.files == 1 { "" } else { "s" },
        counts.opening,
        counts.ballot,
        unclassified
    ));
    if let Some(note) = common::unreadable_note(&totals) {
        progress::message(&format!("pdn: {note}"));
    }
    common::status(false, &totals)
}

/// The text output's closing table: each opening and ballot found, most played first.
fn closing_table(c: &Counts, out: &mut String) {
    let mut rows: Vec<_> = c.found.iter().collect();
    rows.sort_by(|a, b| {
        (a.0.0, std::cmp::Reverse(a.1), &a.0.1, &a.0.2).cmp(&(
            b.0.0,
            std::cmp::Reverse(b.1),
            &b.0.1,
            &b.0.2,
        ))
    });
    out.push_str(&format!(
        "\nOpenings found ({} of {} games classified)\n",
        c.games - c.unclassified.values().sum::<u64>(),
        c.games
    ));
    let cells: Vec<[String; 4]> = rows
        .iter()
        .map(|((v, o, b), n)| {
            [
                v.map_or("", Variant::name).to_string(),
                escape(o.as_deref().unwrap_or("")).into_owned(),
                escape(b.as_deref().unwrap_or("")).into_owned(),
                n.to_string(),
            ]
        })
        .collect();
    let head = ["variant", "opening", "ballot", "games"];
    let mut width = head.map(|h| h.chars().count());
    for r in &cells {
        for (w, c) in width.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |r: [&str; 4], out: &mut String| {
        out.push_str(&format!(
            "  {:<w0$}  {:<w1$}  {:<w2$}  {:>w3$}\n",
            r[0],
            r[1],
            r[2],
            r[3],
            w0 = width[0],
            w1 = width[1],
            w2 = width[2],
            w3 = width[3]
        ));
    };
    line(head, out);
    for r in &cells {
        line([&r[0], &r[1], &r[2], &r[3]], out);
    }
    let mut why: Vec<_> = c.unclassified.iter().collect();
    why.sort();
    for (k, n) in why {
        out.push_str(&format!("  unclassified ({k}): {n}\n"));
    }
}

/// The JSON Lines summary record.
fn summary_json(c: &Counts, t: &batch::Totals, out: &mut String) {
    let mut why: Vec<_> = c.unclassified.iter().collect();
    why.sort();
    out.push_str(&format!(
        "{{\"type\":\"summary\",\"files\":{},\"games\":{},\"with_opening\":{},\"with_ballot\":{},\"unclassified\":{{",
        t.files, c.games, c.opening, c.ballot
    ));
    for (i, (k, n)) in why.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!("\"{k}\":{n}"));
    }
    out.push_str(&format!("}},\"unreadable_files\":{}}}\n", t.unreadable));
}
