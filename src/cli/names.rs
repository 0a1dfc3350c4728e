//! `pdn names`: the alias clusters of the players' names of the inputs, with their evidence,
//! as a names table (text: the TSV that `--apply` and `merge --names` read, the evidence in
//! `#` lines and extra columns), JSON Lines or CSV; and `--apply TABLE`, the games written
//! again as strict PDN with their players' names rewritten by the table.

use std::io::{self, Write};

use anyhow::Result;
use pdn::app::merge::names::{Census, Cluster, Table};
use pdn::app::merge::{self, Date};
use pdn::app::model::reading::GameRef;
use pdn::app::write::export::{self, ExportOptions};
use pdn::app::write::jsonl::Object;
use pdn::app::write::terminal::escape;

use super::args::{NamesArgs, NamesFormat};
use super::batch::{self, Hinted, Sink};
use super::merge::{apply_table, read_table};
use super::output::{Output, unwritten};
use super::{Status, common, progress};

/// A game's players for the census: name, FMJD id; the event, year and moves key.
struct Players {
    names: [Option<(String, Option<String>)>; 2],
    event: Option<String>,
    year: Option<u16>,
    key: Option<u128>,
}

fn players(g: &GameRef<'_>, opts: &ExportOptions) -> Players {
    let game = g.to_game();
    let a = export::analyse(&game, &opts.hinted(g.hint));
    let key = a.variant().map(|_| {
        let mut id = Vec::new();
        merge::identity(&a, &mut id);
        merge::key(&id)
    });
    let tag = |t: &str| g.record.tag(t).and_then(merge::known).map(str::to_string);
    Players {
        names: [
            tag("White").map(|n| (n, tag("WhiteFmjdId"))),
            tag("Black").map(|n| (n, tag("BlackFmjdId"))),
        ],
        event: tag("Event"),
        year: tag("Date").and_then(|d| Date::parse(&d)).map(|d| d.year),
        key,
    }
}

struct Count(Census);

impl Sink<Players> for Count {
    fn game(&mut self, _file: usize, p: &mut Players) -> io::Result<u64> {
        for (name, id) in p.names.iter().flatten() {
            self.0
                .add(name, id.as_deref(), p.event.as_deref(), p.year, p.key);
        }
        Ok(0)
    }
}

/// Writes the games with their names rewritten, in order.
struct Rewrite {
    out: Output,
    renamed: u64,
}

impl Sink<(String, u32)> for Rewrite {
    fn game(&mut self, _file: usize, (text, n): &mut (String, u32)) -> io::Result<u64> {
        self.renamed += u64::from(*n);
        self.out.write_all(text.as_bytes())?;
        Ok(0)
    }
}

fn apply(a: &NamesArgs, table: &Table) -> Result<Status> {
    let setup = common::RunSetup::new(&a.input)?;
    if let Some(p) = &a.output {
        common::not_an_input("-o", p, &setup.inputs)?;
        if let Some(t) = &a.apply {
            common::not_read_aside("-o", p, &[("the --apply table", t.as_path())])?;
        }
    }
    let opts = ExportOptions {
        validate: setup.validate_options(false, false),
        ..ExportOptions::default()
    };
    let mut sink = Rewrite {
        out: Output::open_data(a.output.as_deref())?,
        renamed: 0,
    };
    let totals = batch::run(
        &setup,
        || (),
        |(), g| {
            let mut game = g.to_game();
            let n = apply_table(&mut game, table);
            let an = export::analyse(&game, &opts.hinted(g.hint));
            let mut s = String::with_capacity(2 * game.source.len());
            export::pdn::write(&an, &mut s);
            (s, n)
        },
        &mut sink,
    )?;
    let Rewrite { out, renamed } = sink;
    out.finish()?;
    progress::note(&format!(
        "pdn names: {} game{} written, {renamed} name{} rewritten by the table ({} entries)",
        totals.games,
        if totals.games == 1 { "" } else { "s" },
        if renamed == 1 { "" } else { "s" },
        table.len()
    ));
    if let Some(note) = common::unreadable_note(&totals) {
        progress::message(&format!("pdn: {note}"));
    }
    common::status(false, &totals)
}

pub(super) fn run(a: &NamesArgs) -> Result<Status> {
    if let Some(p) = &a.apply {
        let table = read_table(p)?;
        return apply(a, &table);
    }
    let setup = common::RunSetup::new(&a.input)?;
    if let Some(p) = &a.output {
        common::not_an_input("-o", p, &setup.inputs)?;
    }
    let opts = ExportOptions {
        validate: setup.validate_options(false, false),
        ..ExportOptions::default()
    };
    let mut sink = Count(Census::default());
    let totals = batch::run(&setup, || (), |(), g| players(g, &opts), &mut sink)?;
    let census = sink.0;
    let clusters = census.clusters();
    let mut out = match a.format {
        NamesFormat::Text => Output::open(a.output.as_deref())?,
        _ => Output::open_data(a.output.as_deref())?,
    };
    let aliases: usize = clusters.iter().map(|c| c.aliases.len()).sum();
    let mut s = String::new();
    match a.format {
        NamesFormat::Text => text(&clusters, census.units.len(), &mut s),
        NamesFormat::Json => {
            for c in &clusters {
                json(c, &mut s);
            }
            Object::new(&mut s)
                .str("type", "summary")
                .uint("games", totals.games)
                .uint("names", census.units.len() as u64)
                .uint("clusters", clusters.len() as u64)
                .uint("aliases", aliases as u64)
                .end();
        }
        NamesFormat::Csv => csv_rows(&clusters, &mut s)?,
    }
    out.write_all(s.as_bytes())
        .map_err(unwritten("the output"))?;
    out.finish()?;
    progress::note(&format!(
        "pdn names: {} game{}, {} name{}: {} cluster{} of {} names",
        totals.games,
        if totals.games == 1 { "" } else { "s" },
        census.units.len(),
        if census.units.len() == 1 { "" } else { "s" },
        clusters.len(),
        if clusters.len() == 1 { "" } else { "s" },
        aliases
    ));
    if let Some(note) = common::unreadable_note(&totals) {
        progress::message(&format!("pdn: {note}"));
    }
    common::status(false, &totals)
}

fn years(y: Option<(u16, u16)>) -> String {
    match y {
        Some((a, b)) if a == b => format!("{a}"),
        Some((a, b)) => format!("{a}-{b}"),
        None => "no date".into(),
    }
}

/// The names table: per cluster a `#` line, then `alias<TAB>canonical<TAB>evidence`.
fn text(clusters: &[Cluster], names: usize, s: &mut String) {
    let aliases: usize = clusters.iter().map(|c| c.aliases.len()).sum();
    s.push_str(&format!(
        "# pdn names: {} cluster{} of {aliases} names (of {names} names read).\n\
         # A names table: alias<TAB>name to write (check it, then merge --names or names --apply).\n",
        clusters.len(),
        if clusters.len() == 1 { "" } else { "s" },
    ));
    for c in clusters {
        let games: u64 = c.aliases.iter().map(|a| a.games).sum();
        s.push_str(&format!(
            "\n# {}{}: {} names, {games} games\n",
            escape(&c.canonical),
            c.fmjd
                .as_ref()
                .map(|f| format!(" (FMJD id {})", escape(f)))
                .unwrap_or_default(),
            c.aliases.len()
        ));
        for al in &c.aliases {
            let why: Vec<&str> = al.why.iter().map(|w| w.as_str()).collect();
            let mut ev = format!(
                "{}; {}{} game{}, {}",
                why.join(", "),
                al.fmjd
                    .as_ref()
                    .map(|f| format!("FMJD id {f}; "))
                    .unwrap_or_default(),
                al.games,
                if al.games == 1 { "" } else { "s" },
                years(al.years)
            );
            if al.shared_games > 0 {
                ev.push_str(&format!(
                    "; {} game{} in common",
                    al.shared_games,
                    if al.shared_games == 1 { "" } else { "s" }
                ));
            }
            if !al.shared_events.is_empty() {
                ev.push_str(&format!(
                    "; events in common: {}",
                    al.shared_events.join(" | ")
                ));
            }
            s.push_str(&format!(
                "{}\t{}\t# {}\n",
                escape(&al.name),
                escape(&c.canonical),
                escape(&ev)
            ));
        }
        if !c.ambiguous.is_empty() {
            let amb: Vec<String> = c.ambiguous.iter().map(|n| escape(n).into_owned()).collect();
            s.push_str(&format!(
                "# not joined (their initials fit several players): {}\n",
                amb.join(" | ")
            ));
        }
    }
}

fn json(c: &Cluster, s: &mut String) {
    let mut o = Object::new(s);
    o.str("type", "cluster").str("canonical", &c.canonical);
    match &c.fmjd {
        Some(f) => o.str("fmjd_id", f),
        None => o.null("fmjd_id"),
    };
    o.uint("games", c.aliases.iter().map(|a| a.games).sum());
    let mut arr = o.array("aliases");
    for a in &c.aliases {
        let mut e = arr.object();
        e.str("name", &a.name);
        match &a.fmjd {
            Some(f) => e.str("fmjd_id", f),
            None => e.null("fmjd_id"),
        };
        let mut w = e.array("why");
        for x in &a.why {
            w.str(x.as_str());
        }
        w.close();
        e.uint("games", a.games)
            .uint("shared_games", a.shared_games);
        let mut ev = e.array("shared_events");
        for x in &a.shared_events {
            ev.str(x);
        }
        ev.close();
        match a.years {
            Some((f, l)) => e
                .uint("first_year", u64::from(f))
                .uint("last_year", u64::from(l)),
            None => e.null("first_year").null("last_year"),
        };
        e.close();
    }
    arr.close();
    let mut amb = o.array("ambiguous");
    for x in &c.ambiguous {
        amb.str(x);
    }
    amb.close();
    o.end();
}

fn csv_rows(clusters: &[Cluster], s: &mut String) -> Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record([
        "canonical",
        "alias",
        "fmjd_id",
        "why",
        "games",
        "shared_games",
        "first_year",
        "last_year",
    ])?;
    for c in clusters {
        for a in &c.aliases {
            let why: Vec<&str> = a.why.iter().map(|w| w.as_str()).collect();
            let y = |k: usize| {
                a.years
                    .map(|y| if k == 0 { y.0 } else { y.1 }.to_string())
                    .unwrap_or_default()
            };
            w.write_record([
                c.canonical.as_str(),
                &a.name,
                a.fmjd.as_deref().unwrap_or(""),
                &why.join(" "),
                &a.games.to_string(),
                &a.shared_games.to_string(),
                &y(0),
                &y(1),
            ])?;
        }
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    s.push_str(&String::from_utf8_lossy(&bytes));
    Ok(())
}
