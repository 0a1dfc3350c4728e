//! `pdn explore`: the moves played from a position, as text, JSON Lines or an HTML page.
//! Answered from an index (`--index`), or from a temporary index of the inputs built first
//! (`super::index::build`): one engine, `pdn::app::search::explore`, either way.

use std::io::Write;

use anyhow::{Context, Result, bail};
use pdn::app::search::explore::{ExploreOptions, Tree, explore};
use pdn::app::search::index::{Index, Indexer};
use pdn::app::search::query;
use pdn::rules::{Spec, Variant, VariantPosition, with_variant};

use super::args::{ExploreArgs, ExploreFormat};
use super::output::{Output, Scratch, shown, unwritten};
use super::{Status, common, progress};

/// The root position on the board of `V`: the variant's start, a FEN, or the position after
/// some moves; `Err` says why it does not fit the board.
fn root<V: Spec>(a: &ExploreArgs) -> Result<VariantPosition, String> {
    let pos = if let Some(fen) = &a.position {
        let setup = query::parse_fen(fen).map_err(|e| e.to_string())?;
        let side = setup.side.unwrap_or(V::RULES.first_mover());
        setup
            .position(V::numbering(), V::geometry(), side)
            .map_err(|e| format!("FEN `{fen}`: {e}"))?
    } else if let Some(moves) = &a.moves {
        pdn::app::search::explore::after_moves::<V>(moves).map_err(|e| e.to_string())?
    } else {
        V::start()
    };
    Ok(VariantPosition::of::<V>(&pos))
}

pub(super) fn run(a: &ExploreArgs) -> Result<Status> {
    let html = a.format == ExploreFormat::Html;
    let opts = ExploreOptions {
        depth: a.depth.unwrap_or(if html { 6 } else { 1 }),
        min_games: a.min_games.unwrap_or(if html { 2 } else { 1 }),
        max_positions: if html { 2_000 } else { 10_000 },
    };
    if opts.depth == 0 {
        bail!("--depth must be at least 1");
    }
    if let Some(p) = &a.output
        && let Some(i) = &a.index
        && common::same_file(p, i)
    {
        bail!("-o {} is the index: write the output elsewhere", shown(p));
    }
    // The index: the one named, or one built now from the inputs.
    let mut status = Status::Clean;
    let (_temp, index) = match &a.index {
        Some(path) => {
            progress::set_quiet(a.input.run.quiet);
            if !a.input.paths.is_empty() {
                bail!("--index answers from the index: name no PATH");
            }
            let index = Index::open(path)
                .map_err(anyhow::Error::new)
                .with_context(|| shown(path))?;
            (None, index)
        }
        None => {
            let setup = common::RunSetup::new(&a.input)?;
            if let Some(p) = &a.output {
                common::not_an_input("-o", p, &setup.inputs)?;
            }
            let temp = std::env::temp_dir();
            let (mut file, scratch) = Scratch::made(
                || {
                    tempfile::Builder::new()
                        .prefix(".pdn-explore-")
                        .tempfile_in(&temp)
                },
                tempfile::NamedTempFile::path,
                false,
            )
            .context("cannot make a temporary index")?;
            let how = Indexer {
                variant: a.input.variant,
                max_ply: None,
            };
            let (_, read) = {
                let mut w = std::io::BufWriter::new(file.as_file_mut());
                let r = super::index::build(&setup, how, &temp, &mut w, "a temporary index")?;
                w.flush().context("cannot write a temporary index")?;
                r
            };
            if let Some(note) = common::unreadable_note(&read) {
                progress::message(&format!("pdn: {note}"));
            }
            status = common::status(false, &read)?;
            let index = Index::open(file.path())
                .map_err(anyhow::Error::new)
                .context("the temporary index")?;
            (Some((file, scratch)), index)
        }
    };
    let header = index.header().clone();
    // The variants to explore: --variant, else every variant the index holds games of.
    let variants: Vec<Variant> = match a.input.variant {
        Some(v) => vec![v],
        None => Variant::ALL
            .iter()
            .enumerate()
            .filter(|(i, _)| header.variants[*i].games > 0)
            .map(|(_, v)| *v)
            .collect(),
    };
    let mut trees: Vec<Tree> = Vec::new();
    let mut unfit = Vec::new();
    for v in &variants {
        let r = with_variant!(*v, V => root::<V>(a));
        match r {
            Ok(p) => trees.push(explore(&index, &p, &opts).map_err(anyhow::Error::new)?),
            Err(e) => unfit.push(format!("{}: {e}", v.name())),
        }
    }
    if trees.is_empty() {
        match unfit.first() {
            Some(e) => bail!("the position does not fit the board of the games ({e})"),
            None => bail!("no game to explore"),
        }
    }
    // Trees whose root no game reaches say nothing, unless none is reached at all.
    if trees.iter().any(|t| t.nodes[0].tally.games > 0) {
        trees.retain(|t| t.nodes[0].tally.games > 0);
    } else {
        trees.truncate(1);
    }
    trees.sort_by_key(|t| std::cmp::Reverse(t.nodes[0].tally.games));
    let mut out = Output::open(a.output.as_deref())?;
    let text = match a.format {
        ExploreFormat::Text => trees
            .iter()
            .map(Tree::to_text)
            .collect::<Vec<_>>()
            .join("\n"),
        ExploreFormat::Json => {
            let mut s = String::new();
            for t in &trees {
                t.push_json(&mut s);
            }
            let positions: usize = trees.iter().map(|t| t.nodes.len()).sum();
            pdn::app::write::jsonl::Object::new(&mut s)
                .str("type", "summary")
                .uint("games", header.games)
                .uint("positions", positions as u64)
                .end();
            s
        }
        ExploreFormat::Html => {
            if trees.len() > 1 {
                let others: Vec<&str> = trees[1..].iter().map(|t| t.variant.name()).collect();
                progress::note(&format!(
                    "pdn explore: the page shows the {} games; choose another variant with --variant ({})",
                    trees[0].variant.name(),
                    others.join(", ")
                ));
            }
            let title = match (&a.position, &a.moves) {
                (Some(f), _) => format!("Opening tree from {f}"),
                (_, Some(m)) => format!("Opening tree after {m}"),
                _ => "Opening tree".to_string(),
            };
            trees[0].to_html(&title)
        }
    };
    out.write_all(text.as_bytes())
        .map_err(unwritten("the tree"))?;
    out.finish()?;
    Ok(status)
}
