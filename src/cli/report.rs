//! `pdn validate --format html`: the HTML report, written as the games are validated (the
//! page's head first, then the games in input order a thousand at a time, their rows of the
//! list and their data, the summary and script last), so memory holds the games in flight
//! and a block of a thousand, not the archive.

use std::io::{self, IsTerminal, Write};
use std::path::{Component, Path, PathBuf};

use anyhow::{Result, bail};
use pdn::app::judge::diagnostic::Format;
use pdn::app::openings::Classifier;
use pdn::app::report::{self, FileTotals, GameHtml, Totals};

use super::Status;
use super::args::ValidateArgs;
use super::batch::{self, Sink};
use super::common;
use super::input::InputList;
use super::output::{Output, unwritten};
use super::progress;

/// Writes the data blocks in order, the rows in blocks, and adds up the summary.
struct Page<'a> {
    out: Output,
    totals: Totals,
    inputs: &'a InputList,
    rows: String,
    data: String,
    in_block: usize,
}

impl Page<'_> {
    fn flush_rows(&mut self) -> io::Result<()> {
        if self.in_block > 0 {
            let mut block = String::with_capacity(self.rows.len() + self.data.len() + 128);
            report::games_block(&self.rows, &self.data, &mut block);
            self.out.write_all(block.as_bytes())?;
            self.rows.clear();
            self.data.clear();
            self.in_block = 0;
        }
        Ok(())
    }
}

impl Sink<GameHtml> for Page<'_> {
    fn file_start(&mut self, file: usize) -> io::Result<()> {
        self.totals.files.push(FileTotals {
            name: self.inputs.name(file).into_owned(),
            ..FileTotals::default()
        });
        Ok(())
    }

    fn game(&mut self, _: usize, done: &mut GameHtml) -> io::Result<u64> {
        if self.in_block > 0 {
            self.rows.push(',');
            self.data.push(',');
        }
        self.rows.push_str(&done.row);
        self.data.push_str(&done.html);
        self.in_block += 1;
        if self.in_block >= report::GAMES_PER_BLOCK {
            self.flush_rows()?;
        }
        self.totals.add(&done.stats);
        Ok(u64::from(done.stats.counts.errors))
    }

    fn file_end(&mut self, _: usize, failed: bool) -> io::Result<()> {
        if let Some(f) = self.totals.files.last_mut() {
            f.unreadable = failed;
        }
        Ok(())
    }
}

/// The page's title: the command and the paths named (the first few).
fn title(paths: &[PathBuf]) -> String {
    let mut t = String::from("pdn validate");
    match paths {
        [] => t.push_str(" (standard input)"),
        _ => {
            for p in paths.iter().take(4) {
                t.push(' ');
                t.push_str(&p.display().to_string());
            }
            if paths.len() > 4 {
                t.push_str(&format!(" and {} more", paths.len() - 4));
            }
        }
    }
    t
}

/// The inputs' names as the list shows them: relative to the directory that holds them all
/// (the one the user named, if one was), so that no two rows show the same start of a path;
/// `-` is "standard input". Returns the names and that directory (None if the names are shown
/// whole).
fn shown_names(inputs: &InputList) -> (Vec<String>, Option<String>) {
    let names: Vec<_> = inputs.iter().map(|i| (i.is_stdin(), i.name())).collect();
    let files: Vec<&Path> = names
        .iter()
        .filter(|(stdin, _)| !stdin)
        .map(|(_, n)| Path::new(n.as_ref()))
        .collect();
    // The common directory of every file.
    let mut common: Option<Vec<Component<'_>>> = None;
    for f in &files {
        let dir: Vec<Component<'_>> = f
            .parent()
            .map(|d| d.components().collect())
            .unwrap_or_default();
        common = Some(match common {
            None => dir,
            Some(c) => c
                .iter()
                .zip(&dir)
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| *a)
                .collect(),
        });
    }
    let common: PathBuf = common.unwrap_or_default().iter().collect();
    let strip = !common.as_os_str().is_empty() && files.len() > 1;
    let names = names
        .iter()
        .map(|(stdin, name)| {
            if *stdin {
                return "standard input".to_string();
            }
            let p = Path::new(name.as_ref());
            match p.strip_prefix(&common) {
                Ok(rel) if strip => rel.display().to_string(),
                _ => name.clone().into_owned(),
            }
        })
        .collect();
    (names, strip.then(|| common.display().to_string()))
}

pub(super) fn run(a: &ValidateArgs) -> Result<Status> {
    if a.max_diagnostics.is_some() {
        bail!(
            "--max-diagnostics is not for --format html: the page holds every finding and \
             filters them (by severity, by code)"
        );
    }
    if a.boards {
        bail!("--boards is for the human format: the page draws the board of every finding");
    }
    if a.output.is_none() && io::stdout().is_terminal() {
        bail!("an HTML page is not for the terminal: write it with -o FILE or redirect the output");
    }
    // As for JSON: everything shown unless --min-severity says otherwise.
    let policy = super::validate::policy(a, Format::Json)?;
    let setup = common::RunSetup::new(&a.input)?;
    let opts = setup.validate_options(false, a.lines.main_line);
    let inputs = &setup.inputs;
    if let Some(p) = &a.output {
        common::not_an_input("-o", p, inputs)?;
    }
    let (shown, under) = shown_names(inputs);
    let mut title = title(&a.input.paths);
    if let Some(dir) = &under
        && a.input.paths.len() > 1
    {
        title.push_str(&format!(" (files under {dir})"));
    }
    let mut head = String::with_capacity(64 << 10);
    report::head(&title, &report::made_at(), &mut head);
    let mut page = Page {
        out: Output::open_data(a.output.as_deref())?,
        totals: Totals::default(),
        inputs,
        rows: String::new(),
        data: String::new(),
        in_block: 0,
    };
    page.out
        .write_all(head.as_bytes())
        .map_err(unwritten("the report"))?;
    // Each game's opening by the shipped tables, as `pdn classify` finds it (the tables of a
    // variant are compiled when a game of it first needs them).
    let openings = Classifier::shipped();
    let totals = batch::run(
        &setup,
        || (),
        |(), g| report::game_html(g, &opts, &policy, Some(&openings)),
        &mut page,
    )?;
    page.flush_rows().map_err(unwritten("the report"))?;
    let Page {
        mut out,
        totals: mut sum,
        ..
    } = page;
    for name in &totals.unreadable_names {
        if !sum.files.iter().any(|f| &f.name == name) {
            sum.files.push(FileTotals {
                name: name.clone(),
                unreadable: true,
                ..FileTotals::default()
            });
        }
    }
    let mut tail = String::with_capacity(64 << 10);
    report::tail(&sum, &shown, &policy, &mut tail);
    out.write_all(tail.as_bytes())
        .map_err(unwritten("the report"))?;
    out.finish()?;
    // The summary and the page written, on standard error (the page is not for a terminal).
    sum.counted.files = sum.files.len() as u64;
    sum.counted.unreadable_files = sum.files.iter().filter(|f| f.unreadable).count() as u64;
    let mut line = sum.counted.summary_line(&policy);
    if let Some(p) = &a.output {
        line.push_str(&format!("; wrote {}", super::output::shown(p)));
    }
    progress::note(&format!("pdn validate: {line}"));
    if let Some(note) = common::unreadable_note(&totals) {
        progress::note(&note);
    }
    common::status(sum.counted.errors > 0, &totals)
}
