//! `pdn perft`: leaf counts of the legal-move tree, optionally per root move.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};
use pdn::app::write::jsonl::Object;
use pdn::rules::perft::{Counting, divide, perft};
use pdn::rules::{Spec, Variant, with_variant};

use super::Status;
use super::args::{CountingArg, PerftArgs};

pub(super) fn run(a: &PerftArgs) -> Result<Status> {
    let variant: Variant = a.variant;
    let counting = match a.counting {
        CountingArg::Drop => Counting::Drop,
        CountingArg::Keep => Counting::Keep,
        CountingArg::Landings => Counting::KeepLandings,
    };
    with_variant!(variant, V => run_for::<V>(a, counting))
}

fn run_for<V: Spec>(a: &PerftArgs, counting: Counting) -> Result<Status> {
    let pos = match &a.fen {
        Some(f) => V::from_fen(f).with_context(|| format!("bad FEN `{f}`"))?,
        None => V::start(),
    };
    let fen = V::to_fen(&pos);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let start = Instant::now();
    let nodes = if a.divide {
        let rows = divide::<V>(&pos, a.depth, counting);
        for (mv, n) in &rows {
            if a.json {
                let mut line = String::new();
                Object::new(&mut line)
                    .str("move", mv)
                    .uint("nodes", *n)
                    .end();
                out.write_all(line.as_bytes())?;
            } else {
                writeln!(out, "{mv}: {n}")?;
            }
        }
        if a.depth == 0 {
            1
        } else {
            rows.iter().map(|r| r.1).sum()
        }
    } else {
        perft::<V>(&pos, a.depth, counting)
    };
    let seconds = start.elapsed().as_secs_f64();
    if a.json {
        let mut line = String::new();
        Object::new(&mut line)
            .str("variant", V::RULES.name)
            .str("fen", &fen)
            .uint("depth", u64::from(a.depth))
            .uint("nodes", nodes)
            .float("seconds", seconds)
            .end();
        out.write_all(line.as_bytes())?;
    } else {
        writeln!(
            out,
            "{} {fen} depth {}: {nodes} nodes in {seconds:.3} s ({:.1} Mnodes/s)",
            V::RULES.name,
            a.depth,
            nodes as f64 / seconds.max(1e-9) / 1e6
        )?;
    }
    out.flush()?;
    Ok(Status::Clean)
}
