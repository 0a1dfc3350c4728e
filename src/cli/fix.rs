//! `pdn fix`: write corrected PDN 3.0 (canonical notation, move numbers, results and tags
//! mended; with `--repair`, unique probable corrections of illegal moves), every change to
//! `--audit` as JSON Lines. Games in = games out, in input order, whatever `--jobs`.

use std::fs::File;
use std::io::{BufWriter, Write};

use anyhow::{Context, Result, bail};
use pdn::app::fix::{FixOptions, audit_line, fix};
use pdn::app::validate::Options;

use super::args::FixArgs;
use super::input::Source;
use super::pipeline::{self, Event};
use super::{Status, common};

/// What fixing one game gives the consumer.
struct Done {
    text: String,
    audit: String,
    changes: u64,
    repairs: u64,
    unrepaired: bool,
    errors_before: u64,
    errors_after: u64,
}

/// Totals of a run.
#[derive(Default)]
struct Totals {
    files: u64,
    games: u64,
    changes: u64,
    repairs: u64,
    unrepaired: u64,
    errors_before: u64,
    errors_after: u64,
}

pub fn run(a: &FixArgs) -> Result<Status> {
    let setup = common::Setup::new(&a.input)?;
    let inputs = &setup.inputs;
    for (what, path) in [("-o", &a.output), ("--audit", &a.audit)] {
        if let Some(p) = path {
            for i in inputs {
                if let Source::File(f) = &i.source
                    && common::same_file(f, p)
                {
                    bail!(
                        "{what} {} is also an input: write the fixed games elsewhere",
                        p.display()
                    );
                }
            }
        }
    }
    if let (Some(o), Some(au)) = (&a.output, &a.audit)
        && (o == au || common::same_file(o, au))
    {
        bail!("-o and --audit name the same file");
    }
    let mut out: Box<dyn Write> = match &a.output {
        Some(p) => Box::new(BufWriter::with_capacity(
            1 << 16,
            File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => common::stdout(),
    };
    let mut audit: Option<BufWriter<File>> = match &a.audit {
        Some(p) => Some(BufWriter::new(
            File::create(p).with_context(|| format!("cannot create {}", p.display()))?,
        )),
        None => None,
    };
    let want_audit = audit.is_some();
    let opts = FixOptions {
        validate: Options {
            variant: setup.variant,
            diagrams: false,
            hint: None,
        },
        repair: a.repair,
    };
    let mut t = Totals::default();
    let mut file_errors = setup.unreadable;
    pipeline::run(
        inputs,
        setup.jobs,
        &setup.progress,
        |i, game, hint| {
            let f = fix(
                game,
                &FixOptions {
                    validate: Options {
                        hint,
                        ..opts.validate
                    },
                    ..opts
                },
            );
            let mut text = String::new();
            if want_audit {
                for c in &f.changes {
                    audit_line(&inputs[i].name, game.index, c, &mut text);
                }
            }
            Done {
                text: f.text,
                audit: text,
                changes: f.changes.len() as u64,
                repairs: u64::from(f.repairs),
                unrepaired: f.unrepaired,
                errors_before: u64::from(f.errors_before),
                errors_after: u64::from(f.errors_after),
            }
        },
        |ev| {
            match ev {
                Event::FileStart => t.files += 1,
                Event::Game(d) => {
                    out.write_all(d.text.as_bytes())?;
                    if let Some(w) = audit.as_mut() {
                        w.write_all(d.audit.as_bytes())?;
                    }
                    t.games += 1;
                    t.changes += d.changes;
                    t.repairs += d.repairs;
                    t.unrepaired += u64::from(d.unrepaired);
                    t.errors_before += d.errors_before;
                    t.errors_after += d.errors_after;
                    setup.progress.game(d.errors_after);
                }
                Event::FileError(i, e) => {
                    file_errors += 1;
                    setup.progress.finish();
                    eprintln!("pdn: {}: {e}", inputs[i].name);
                }
                Event::FileEnd => {}
            }
            Ok(())
        },
    )?;
    setup.progress.finish();
    out.flush()?;
    if let Some(w) = audit.as_mut() {
        w.flush()?;
    }
    eprintln!(
        "pdn fix: {} games in {} files, {} changes{}{}, {} games with problems left ({} errors before, {} after)",
        t.games,
        t.files,
        t.changes,
        if a.repair {
            format!(" ({} repairs)", t.repairs)
        } else {
            String::new()
        },
        match &a.audit {
            Some(p) => format!(" written to {}", p.display()),
            None => String::new(),
        },
        t.unrepaired,
        t.errors_before,
        t.errors_after,
    );
    common::status(t.errors_after > 0, file_errors, t.files, setup.unreadable)
}
