//! `pdn validate`: replay every game and report every illegal move, with the reason. What is
//! shown and how serious it is follows the policy of the command line
//! (`pdn::app::judge::findings`: `--min-severity`, `--allow`, `--deny`, `--max-diagnostics`).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};

use anyhow::{Result, bail};
use pdn::app::judge::diagnostic::{Code, Format, Palette, Severity, paint};
use pdn::app::judge::findings::{Level, Policy, Rendered, Totals, render_game_text};
use pdn::app::judge::validate::validate_ref;
use pdn::app::write::terminal::escape;

use super::args::{CodeArg, FormatArg, ValidateArgs};
use super::batch::{self, Sink};
use super::output::{Output, unwritten};
use super::{Status, common, progress};

/// The boards drawn in the human format without `--boards`: under the first few findings.
const FIRST_BOARDS: u64 = 3;

/// Writes the reports in order, up to `--max-diagnostics`, and adds them up. In the human
/// format, a finding repeated in a file (the same severity, code and message) is written
/// once, its other places listed at the end of the file with their count; the position
/// before the move is drawn under the first few findings (every one with `--boards`).
struct Out<'a> {
    out: Output,
    totals: Totals,
    policy: &'a Policy,
    /// For the findings reported once per file, at its end.
    format: Format,
    palette: Palette,
    names: &'a [Cow<'a, str>],
    /// Boards still to draw (`u64::MAX` with `--boards`).
    boards_left: u64,
    /// Boards left out.
    boards_cut: u64,
    /// The findings of the file being read (human format): each one's places after its first.
    seen: HashMap<String, usize>,
    repeats: Vec<(String, Vec<String>)>,
}

impl Out<'_> {
    /// Write the human findings of a game's shown text: the first of each in the file whole
    /// (with its board if some are left), the repeats only noted.
    fn human(&mut self, r: &Rendered, shown: &str) -> io::Result<()> {
        let mut start = 0;
        for (end, x) in r.ends.iter().zip(&r.human) {
            if *end > shown.len() {
                break;
            }
            let seg = &r.text[start..*end];
            start = *end;
            match self.seen.get(&x.key) {
                Some(&k) => {
                    self.repeats[k].1.push(x.place.clone());
                    continue;
                }
                None => {
                    self.seen.insert(x.key.clone(), self.repeats.len());
                    self.repeats.push((x.key.clone(), Vec::new()));
                }
            }
            match &x.board {
                Some(b) if self.boards_left > 0 => {
                    self.boards_left -= 1;
                    let cut = seg.len().saturating_sub(1);
                    self.out.write_all(&seg.as_bytes()[..cut])?;
                    self.out.write_all(b.as_bytes())?;
                    self.out.write_all(&seg.as_bytes()[cut..])?;
                }
                Some(_) => {
                    self.boards_cut += 1;
                    self.out.write_all(seg.as_bytes())?;
                }
                None => self.out.write_all(seg.as_bytes())?,
            }
        }
        Ok(())
    }

    /// The repeats of the file's findings, one line each with their count and places.
    fn repeats(&mut self, name: &str) -> String {
        let mut text = String::new();
        for (key, places) in self.repeats.drain(..) {
            if places.is_empty() {
                continue;
            }
            let n = places.len();
            let (label, message) = key.split_once(": ").unwrap_or((&key, ""));
            let sev = match label.split('[').next() {
                Some("error") => Severity::Error,
                Some("warning") => Severity::Warning,
                _ => Severity::Info,
            };
            let _ = write!(text, "{}: ", escape(name));
            paint(&mut text, self.palette.severity(sev), &format!("{label}:"));
            let _ = writeln!(
                text,
                " {} (again: {n} more time{} in this file)",
                escape(message),
                if n == 1 { "" } else { "s" }
            );
            text.push_str("   = at ");
            const LISTED: usize = 12;
            text.push_str(&places[..n.min(LISTED)].join(", "));
            if n > LISTED {
                let _ = write!(text, " and {} more", n - LISTED);
            }
            text.push_str("\n\n");
        }
        self.seen.clear();
        text
    }
}

impl Sink<Rendered> for Out<'_> {
    fn game(&mut self, _: usize, r: &mut Rendered) -> io::Result<u64> {
        let (shown, record) = self.totals.take(self.policy, r);
        if self.format == Format::Human && r.human.len() == r.ends.len() {
            self.human(r, shown)?;
        } else {
            self.out.write_all(shown.as_bytes())?;
        }
        if let Some(record) = record {
            self.out.write_all(record.as_bytes())?;
        }
        Ok(u64::from(r.counts.errors))
    }

    fn file_end(&mut self, file: usize, _: bool) -> io::Result<()> {
        let name = self.names.get(file).map_or("", |n| n.as_ref());
        let mut text = self.repeats(name);
        self.totals
            .end_file(self.format, &self.palette, self.policy, name, &mut text);
        self.out.write_all(text.as_bytes())
    }
}

pub(super) fn run(a: &ValidateArgs) -> Result<Status> {
    let format = match a.format {
        FormatArg::Human => Format::Human,
        FormatArg::Short => Format::Short,
        FormatArg::Json => Format::Json,
        FormatArg::Html => return super::report::run(a),
    };
    if a.boards && format != Format::Human {
        bail!(
            "--boards is for the human format (the default): {} has no boards",
            match format {
                Format::Short => "--format short",
                _ => "--format json",
            }
        );
    }
    let policy = policy(a, format)?;
    let palette = Palette::new(match (format, &a.output) {
        (Format::Json, _) => false,
        (_, Some(_)) => common::colour_file(),
        (_, None) => common::colour_stdout(),
    });
    let setup = common::RunSetup::new(&a.input)?;
    let opts = setup.validate_options(format == Format::Human, a.lines.main_line);
    let inputs = &setup.inputs;
    if let Some(p) = &a.output {
        common::not_an_input("-o", p, inputs)?;
    }
    // (Borrowed from the list where they are UTF-8: a run of 100,000 files would hold
    // every name twice.)
    let names: Vec<Cow<'_, str>> = inputs.iter().map(|i| i.name()).collect();
    let mut sink = Out {
        out: Output::open(a.output.as_deref())?,
        totals: Totals::default(),
        policy: &policy,
        format,
        palette,
        names: &names,
        boards_left: if a.boards { u64::MAX } else { FIRST_BOARDS },
        boards_cut: 0,
        seen: HashMap::new(),
        repeats: Vec::new(),
    };
    let read = batch::run(
        &setup,
        || (),
        |(), g| {
            let mut report = validate_ref(g, &opts);
            policy.apply(&mut report);
            let name = &names[g.file];
            render_game_text(format, &palette, &policy, name, &g.game_text(), &report)
        },
        &mut sink,
    )?;
    let Out {
        mut out,
        mut totals,
        boards_cut,
        ..
    } = sink;
    totals.files = read.files;
    totals.unreadable_files = read.unreadable;
    let unreadable = common::unreadable_note(&read);
    let mut text = String::new();
    if format == Format::Json {
        totals.render_json(&mut text);
    } else {
        if boards_cut > 0 {
            let _ = writeln!(
                text,
                "note: the position before the move is drawn under the first {FIRST_BOARDS} \
                 findings only ({boards_cut} more have one): --boards draws every one\n"
            );
        }
        totals.render_text(&palette, &policy, &mut text);
        if let Some(note) = &unreadable {
            text.push_str(note);
            text.push('\n');
        }
    }
    out.write_all(text.as_bytes())
        .map_err(unwritten("the report"))?;
    out.finish()?;
    // The report went to a file or a pipe: the summary on the terminal too.
    if (a.output.is_some() || !io::stdout().is_terminal()) && io::stderr().is_terminal() {
        progress::note(&totals.summary_line(&policy));
        if let Some(note) = &unreadable {
            progress::note(note);
        }
    }
    common::status(totals.errors > 0, &read)
}

/// The policy of the command line. The default least severity shown is `warning` for
/// people (human, short) and `info` for programs (JSON); a code named in `--allow` or
/// `--deny` beats `warnings`.
pub(super) fn policy(a: &ValidateArgs, format: Format) -> Result<Policy> {
    let mut p = Policy::default();
    p.min_severity = a.min_severity.map_or(
        if format == Format::Json {
            Severity::Info
        } else {
            Severity::Warning
        },
        |s| s.severity(),
    );
    p.max_diagnostics = a.max_diagnostics;
    let group = CodeArg::Warnings;
    if a.allow.contains(&group) && a.deny.contains(&group) {
        bail!("--allow warnings and --deny warnings: choose one");
    }
    for (list, level) in [(&a.allow, Level::Allow), (&a.deny, Level::Deny)] {
        if list.contains(&group) {
            for c in Code::ALL
                .into_iter()
                .filter(|c| c.severity() == Severity::Warning)
            {
                p.set(c, level);
            }
        }
    }
    for c in &a.allow {
        if let CodeArg::Code(c) = c
            && a.deny.contains(&CodeArg::Code(*c))
        {
            let c = c.as_str();
            bail!("--allow {c} and --deny {c}: choose one");
        }
    }
    for (list, level) in [(&a.allow, Level::Allow), (&a.deny, Level::Deny)] {
        for c in list {
            if let CodeArg::Code(c) = c {
                p.set(*c, level);
            }
        }
    }
    Ok(p)
}
