//! The archive of the search benchmarks and the index's lookup latency (issue 32), run by
//! `scripts/bench_search.sh`:
//!
//! - `cargo bench --bench search -- generate N OUT [SEED]`: N random legal games of
//!   international draughts (every move drawn among the legal ones, to the end of the game or
//!   200 plies), in PDN, with tags; about 100 plies a game, so a million games hold about
//!   10^8 positions. Generated at benchmark time: never committed.
//! - `cargo bench --bench search -- latency INDEX ARCHIVE N [SEED]`: N exact positions drawn
//!   from the games of ARCHIVE at random plies (the archive's first games), each looked up in
//!   INDEX through `search_index` (the index opened once, as a server would); prints the
//!   median, 90th and 99th percentile and the slowest, in milliseconds, and the matches.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use pdn::app::judge::replay::{Observer, Played, PlyEvent};
use pdn::app::judge::validate::{Options, validate_with};
use pdn::app::search::index::{Index, search_index};
use pdn::app::search::query::parse_fen;
use pdn::app::search::{Query, SearchOptions, Searcher};
use pdn::rules::notation::{SquareStyle, write_in_list};
use pdn::rules::spec::International;
use pdn::rules::{MoveList, Position, Spec};
use pdn::syntax::Reader;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn generate(n: u64, out: &Path, seed: u64) {
    let mut rng = Rng(seed | 1);
    let file = std::fs::File::create(out).expect("create the archive");
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut list = MoveList::new();
    let mut text = String::with_capacity(4096);
    let mut plies_total = 0u64;
    for g in 0..n {
        text.clear();
        let mut pos = International::start();
        let mut moves = String::new();
        let mut ply = 0u32;
        let result = loop {
            International::legal_moves(&pos, &mut list);
            if list.is_empty() {
                break if ply.is_multiple_of(2) { "0-2" } else { "2-0" };
            }
            if ply >= 200 {
                break "*";
            }
            let i = rng.below(list.len());
            if ply.is_multiple_of(2) {
                moves.push_str(&format!("{}. ", ply / 2 + 1));
            }
            moves.push_str(&write_in_list(
                International::geometry(),
                International::numbering(),
                &list,
                i,
                SquareStyle::Native,
                'x',
            ));
            moves.push(' ');
            let m = list.moves()[i];
            pos = pos.after(&m, International::RULES);
            ply += 1;
        };
        plies_total += u64::from(ply);
        let year = 1950 + rng.below(76);
        text.push_str(&format!(
            "[Event \"Random {}\"]\n[Date \"{year}.{:02}.{:02}\"]\n[White \"Player {}\"]\n[Black \"Player {}\"]\n[Result \"{result}\"]\n",
            g / 1000,
            1 + rng.below(12),
            1 + rng.below(28),
            rng.below(5000),
            rng.below(5000),
        ));
        text.push_str(&moves);
        text.push_str(result);
        text.push_str("\n\n");
        w.write_all(text.as_bytes()).expect("write the archive");
    }
    w.flush().expect("write the archive");
    eprintln!("{n} games, {plies_total} plies -> {}", out.display());
}

/// Positions of the main line, as FENs.
#[derive(Default)]
struct Fens(Vec<String>);

impl Observer for Fens {
    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if e.main && e.clean && e.played == Played::Legal {
            self.0.push(V::to_fen(e.after));
        }
    }
    fn position<V: Spec>(&mut self, pos: &Position<V::B>, main: bool) {
        if main && self.0.is_empty() {
            self.0.push(V::to_fen(pos));
        }
    }
}

fn latency(index: &Path, archive: &Path, n: usize, seed: u64) {
    let index = Index::open(index).expect("open the index");
    let mut rng = Rng(seed | 1);
    // Positions from the archive's first games, at random plies.
    let file = std::fs::File::open(archive).expect("open the archive");
    let mut reader = Reader::new(std::io::BufReader::new(file));
    let mut fens = Vec::with_capacity(n);
    while fens.len() < n {
        let Ok(Some(game)) = reader.next_game() else {
            break;
        };
        let mut f = Fens::default();
        validate_with(&game, &Options::default(), &mut f);
        if !f.0.is_empty() {
            let k = rng.below(f.0.len());
            fens.push(f.0.swap_remove(k));
        }
    }
    // (milliseconds, games matched) of each lookup.
    let mut runs: Vec<(f64, u64)> = Vec::with_capacity(fens.len());
    for fen in &fens {
        let q = Query {
            position: Some(parse_fen(fen).expect("fen")),
            ..Query::default()
        };
        let s = Searcher::new(q, SearchOptions::default()).expect("query");
        let t = Instant::now();
        let summary = search_index(&index, &s, |_, _, _| Ok(())).expect("search");
        runs.push((t.elapsed().as_secs_f64() * 1000.0, summary.games_matched));
    }
    let pct = |sel: &dyn Fn(u64) -> bool| {
        let mut t: Vec<f64> = runs.iter().filter(|r| sel(r.1)).map(|r| r.0).collect();
        t.sort_by(f64::total_cmp);
        let at = |q: f64| {
            t.get(((t.len() as f64 * q) as usize).min(t.len().saturating_sub(1)))
                .copied()
                .unwrap_or(0.0)
        };
        format!(
            "{{\"lookups\":{},\"median_ms\":{:.3},\"p90_ms\":{:.3},\"p99_ms\":{:.3},\"max_ms\":{:.3}}}",
            t.len(),
            at(0.5),
            at(0.9),
            at(0.99),
            t.last().copied().unwrap_or(0.0)
        )
    };
    let big: Vec<&(f64, u64)> = runs.iter().filter(|r| r.1 > 10_000).collect();
    let per_game = big.iter().map(|r| r.0).sum::<f64>() * 1000.0
        / big.iter().map(|r| r.1 as f64).sum::<f64>().max(1.0);
    println!(
        "{{\"all\":{},\"at_most_1000_games\":{},\"over_10000_games\":{{\"lookups\":{},\"us_per_game\":{per_game:.2}}},\"games_matched\":{}}}",
        pct(&|_| true),
        pct(&|n| n <= 1000),
        big.len(),
        runs.iter().map(|r| r.1).sum::<u64>()
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["generate", n, out, rest @ ..] => generate(
            n.parse().expect("N"),
            Path::new(out),
            rest.first().map_or(1, |s| s.parse().expect("SEED")),
        ),
        ["latency", index, archive, n, rest @ ..] => latency(
            Path::new(index),
            Path::new(archive),
            n.parse().expect("N"),
            rest.first().map_or(7, |s| s.parse().expect("SEED")),
        ),
        _ => eprintln!(
            "usage: cargo bench --bench search -- generate N OUT [SEED] | latency INDEX ARCHIVE N [SEED]"
        ),
    }
}
