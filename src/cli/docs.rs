//! `pdn completions SHELL` and `pdn man [COMMAND] [--out-dir DIR]`: generated from the clap
//! definitions; on a terminal, `pdn man` shows the page through man(1) and its pager. A man page is clap_mangen's NAME, SYNOPSIS, DESCRIPTION, OPTIONS (and, for
//! the program, COMMANDS), then the sections of `super::manual`: EXIT STATUS, ENVIRONMENT,
//! EXAMPLES and SEE ALSO (the other pages).

use std::io::{self, IsTerminal, Write};
use std::path::Path;

use anyhow::{Context, Result};
use clap::CommandFactory;
use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, roman};

use super::args::{Cli, CompletionsArgs, ManArgs};
use super::manual::{self, Section};
use super::output::{AtomicFile, Durability, shown, unwritten};
use super::values::MAN_PAGES;
use super::{Status, progress};

pub(super) fn completions(a: &CompletionsArgs) -> Result<Status> {
    let mut cmd = Cli::command();
    let mut out = io::stdout().lock();
    clap_complete::generate(a.shell, &mut cmd, "pdn", &mut out);
    out.flush()?;
    Ok(Status::Clean)
}

/// The program's command, built (so that subcommands know their full names), without the
/// `help` subcommand (it has no page).
fn root() -> clap::Command {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    cmd
}

pub(super) fn man(a: &ManArgs) -> Result<Status> {
    let root = root();
    let Some(dir) = &a.out_dir else {
        // On a terminal: the page formatted and paged by man(1), as `man pdn` would show it
        // (the roff source only if man cannot run).
        if io::stdout().is_terminal() {
            let mut page = Vec::new();
            render(&root, a.command.as_deref(), &mut page).map_err(unwritten("the page"))?;
            if through_man(&page) {
                return Ok(Status::Clean);
            }
            progress::note("pdn man: man(1) could not be run: the page's roff source follows");
        }
        let mut out = io::stdout().lock();
        render(&root, a.command.as_deref(), &mut out).map_err(unwritten("standard output"))?;
        out.flush().map_err(unwritten("standard output"))?;
        return Ok(Status::Clean);
    };
    std::fs::create_dir_all(dir)
        .map_err(anyhow::Error::new)
        .with_context(|| format!("cannot create {}", shown(dir)))?;
    let pages: Vec<Option<&str>> = std::iter::once(None)
        .chain(MAN_PAGES.iter().map(|p| Some(*p)))
        .collect();
    for page in &pages {
        write_page(&root, *page, dir)?;
    }
    progress::note(&format!(
        "pdn man: {} pages written to {}",
        pages.len(),
        shown(dir)
    ));
    Ok(Status::Clean)
}

/// Show a page with `man -l -` (formatted for the terminal, through the pager): true if man
/// ran to its end.
fn through_man(page: &[u8]) -> bool {
    use std::process::{Command, Stdio};
    let Ok(mut child) = Command::new("man")
        .args(["-l", "-"])
        .stdin(Stdio::piped())
        .spawn()
    else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A pager quit early closes the pipe: not an error.
        let _ = stdin.write_all(page);
    }
    child.wait().is_ok_and(|s| s.success())
}

/// Write one page into `dir`, atomically.
fn write_page(root: &clap::Command, page: Option<&str>, dir: &Path) -> Result<()> {
    let target = dir.join(format!("{}.1", file_name(page)));
    let what = shown(&target);
    let mut file =
        AtomicFile::create(&target, false, Durability::Renamed).map_err(unwritten(&what))?;
    render(root, page, &mut file).map_err(unwritten(&what))?;
    file.commit().map_err(unwritten(&what))?;
    Ok(())
}

/// `pdn` or `pdn-validate`.
fn file_name(page: Option<&str>) -> String {
    match page {
        None => "pdn".to_string(),
        Some(c) => format!("pdn-{c}"),
    }
}

/// Render the page of the program (`None`) or of a command.
fn render(root: &clap::Command, page: Option<&str>, out: &mut dyn Write) -> io::Result<()> {
    let cmd = match page {
        None => root.clone(),
        Some(name) => root
            .find_subcommand(name)
            .cloned()
            .ok_or_else(|| io::Error::other(format!("no command {name}")))?,
    };
    let title = file_name(page).to_uppercase();
    let man = Man::new(cmd.clone())
        .title(title)
        .manual("pdn manual")
        .source(format!("pdn {}", env!("CARGO_PKG_VERSION")));
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    man.render_options_section(out)?;
    if page.is_none() {
        man.render_subcommands_section(out)?;
    }
    let text = manual::page(page);
    let mut roff = Roff::new();
    for s in text.sections {
        section(&mut roff, s);
    }
    roff.control("SH", ["EXAMPLES"]);
    for (command, what) in text.examples {
        roff.control("TP", []);
        roff.text([bold(*command)]);
        roff.text([roman(*what)]);
    }
    roff.control("SH", ["SEE ALSO"]);
    let others: Vec<String> = std::iter::once(None)
        .chain(MAN_PAGES.iter().map(|p| Some(*p)))
        .filter(|p| *p != page)
        .map(|p| format!("{}(1)", file_name(p)))
        .collect();
    roff.text([roman(format!(
        "{}. The reference pages in the docs folder of the pdn sources (docs/README.md): \
         docs/rules.md (the rules of each variant, and every article a finding cites), \
         docs/pdn.md (PDN as read and written), docs/formats.md (the codes, the JSON and CSV \
         outputs) and docs/exit-status.md.",
        others.join(", ")
    ))]);
    roff.to_writer(out)?;
    man.render_version_section(out)
}

fn section(roff: &mut Roff, s: &Section) {
    roff.control("SH", [s.heading]);
    for (term, text) in s.items {
        if term.is_empty() {
            roff.control("PP", []);
            for (k, line) in text.lines().enumerate() {
                if k > 0 {
                    roff.control("br", []);
                }
                roff.text([roman(line)]);
            }
        } else {
            roff.control("TP", []);
            roff.text([bold(*term)]);
            roff.text([roman(*text)]);
        }
    }
}
