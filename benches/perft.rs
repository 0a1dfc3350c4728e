//! Criterion benchmark: perft of the move generator (international d6/d7, english d8,
//! russian d8, frisian d6, canadian d5) from the start positions.

use criterion::{Criterion, criterion_group, criterion_main};
use pdn::rules::perft::{Counting, perft};
use pdn::rules::{Spec, spec};
use std::hint::black_box;

fn bench<V: Spec>(c: &mut Criterion, depth: u32, expect: u64) {
    let pos = V::start();
    let name = format!("perft/{}/d{depth}", V::RULES.name);
    c.bench_function(&name, |b| {
        b.iter(|| {
            let n = perft::<V>(black_box(&pos), depth, Counting::Drop);
            assert_eq!(n, expect);
            n
        })
    });
}

fn perft_benches(c: &mut Criterion) {
    bench::<spec::International>(c, 6, 167_140);
    bench::<spec::International>(c, 7, 1_049_442);
    bench::<spec::English>(c, 8, 845_931);
    bench::<spec::Russian>(c, 8, 929_899);
    bench::<spec::Frisian>(c, 6, 102_431);
    bench::<spec::Canadian>(c, 5, 79_049);
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = perft_benches
}
criterion_main!(benches);
