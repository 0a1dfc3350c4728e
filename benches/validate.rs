//! Criterion benchmark: `validate` on the international corpus, in process (reading and
//! replay), in plies per second: through owned `Game`s, through the reader's visitor as
//! `validate --jobs 1` reads (the report rendered as JSON, no owned `Game`), and the replay
//! alone on games already read.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pdn::app::judge::diagnostic::{Format, Palette};
use pdn::app::judge::findings::{Policy, render_game_text};
use pdn::app::judge::validate::{Options, validate, validate_ref};
use pdn::app::model::reading::FileGames;
use pdn::syntax::{Game, Reader, read_games};

mod support;
use support::{corpus, pdn_files};

/// The allocator of the `pdn` binary, so that the figures are those of the tool.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn bench(c: &mut Criterion) {
    let paths = pdn_files(&corpus().join("international"));
    let texts: Vec<Vec<u8>> = paths.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let games: Vec<Vec<Game>> = texts.iter().map(|t| read_games(t)).collect();
    let opts = Options::default();
    let plies: u64 = games
        .iter()
        .flatten()
        .map(|g| validate(g, &opts).plies as u64)
        .sum();
    let mut group = c.benchmark_group("validate/international");
    group.sample_size(10);
    group.throughput(Throughput::Elements(plies));
    group.bench_function("read+replay", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for t in &texts {
                for g in read_games(t) {
                    n += validate(&g, &opts).plies as u64;
                }
            }
            assert_eq!(n, plies);
            n
        })
    });
    // The visitor follows the variant of earlier games of a file, as the command does: its
    // plies are its own.
    let policy = Policy::default();
    let visit = |texts: &[Vec<u8>]| {
        let mut n = 0u64;
        for t in texts {
            let mut reader = Reader::new(&t[..]);
            let mut games = FileGames::new(0);
            while let Ok(Some(done)) = games.next(&mut reader, |g| {
                let mut report = validate_ref(g, &opts);
                policy.apply(&mut report);
                render_game_text(
                    Format::Json,
                    &Palette::PLAIN,
                    &policy,
                    "bench",
                    &g.game_text(),
                    &report,
                )
            }) {
                n += u64::from(done.counts.plies);
            }
        }
        n
    };
    let visited = visit(&texts);
    group.throughput(Throughput::Elements(visited));
    group.bench_function("visitor", |b| b.iter(|| visit(&texts)));
    group.throughput(Throughput::Elements(plies));
    group.bench_function("replay", |b| {
        b.iter(|| {
            let mut n = 0u64;
            for g in games.iter().flatten() {
                n += validate(g, &opts).plies as u64;
            }
            n
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
