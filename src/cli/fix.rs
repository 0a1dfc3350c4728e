//! `pdn fix`: write corrected PDN 3.0 (canonical notation, move numbers, results and tags
//! mended; with `--repair`, unique probable corrections of illegal moves), every change to
//! `--audit` as JSON Lines. Games in = games out, in input order, whatever `--jobs`.

use std::io::{self, Write};

use anyhow::{Result, bail};
use pdn::app::fix::{FixOptions, audit_line, fix};
use pdn::app::validate::Options;

use super::args::FixArgs;
use super::batch::{self, Sink};
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
    games: u64,
    changes: u64,
    repairs: u64,
    unrepaired: u64,
    errors_before: u64,
    errors_after: u64,
}

/// Writes the fixed games and the audit in order, and adds up.
struct Out {
    out: Box<dyn Write>,
    audit: Option<Box<dyn Write>>,
    t: Totals,
}

impl Sink<Done> for Out {
    fn game(&mut self, _: usize, d: Done) -> io::Result<u64> {
        self.out.write_all(d.text.as_bytes())?;
        if let Some(w) = self.audit.as_mut() {
            w.write_all(d.audit.as_bytes())?;
        }
        let t = &mut self.t;
        t.games += 1;
        t.changes += d.changes;
        t.repairs += d.repairs;
        t.unrepaired += u64::from(d.unrepaired);
        t.errors_before += d.errors_before;
        t.errors_after += d.errors_after;
        Ok(d.errors_after)
    }
}

pub fn run(a: &FixArgs) -> Result<Status> {
    let setup = common::Setup::new(&a.input)?;
    let inputs = &setup.inputs;
    for (what, path) in [("-o", &a.output), ("--audit", &a.audit)] {
        if let Some(p) = path {
            common::not_an_input(what, p, inputs)?;
        }
    }
    if let (Some(o), Some(au)) = (&a.output, &a.audit)
        && (o == au || common::same_file(o, au))
    {
        bail!("-o and --audit name the same file");
    }
    let out = common::output(a.output.as_deref())?;
    let audit = match &a.audit {
        Some(p) => Some(common::output(Some(p))?),
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
    let mut sink = Out {
        out,
        audit,
        t: Totals::default(),
    };
    let totals = batch::run(
        &setup,
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
        &mut sink,
    )?;
    let Out {
        mut out,
        mut audit,
        t,
    } = sink;
    out.flush()?;
    if let Some(w) = audit.as_mut() {
        w.flush()?;
    }
    eprintln!(
        "pdn fix: {} games in {} files, {} changes{}{}, {} games with problems left ({} errors before, {} after)",
        t.games,
        totals.files,
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
    common::status(
        t.errors_after > 0,
        totals.unreadable,
        totals.files,
        setup.unreadable,
    )
}
