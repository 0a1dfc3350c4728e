//! Criterion benchmark: PDN reading throughput on the real corpus (every `.pdn` file under
//! `../shared/corpus`, or `$PDN_CORPUS`, concatenated in memory), beside the floor: a plain
//! copy of the same bytes through `io::Read` into a buffer, and a `memchr` line count.
//! `read/games` builds every `Game`; `read/visitor` reads the same games into a visitor that
//! takes every tag, move and comment (pgn-reader's counting benchmark), building nothing.
//!
//! `cargo bench --bench read`; criterion prints the throughput in MiB/s (decimal MB/s =
//! MiB/s × 1.048576).

use std::hint::black_box;
use std::io::Read;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pdn::syntax::{CommentKind, GameEnd, MoveRef, RawTag, Reader, Span, Visitor};

mod support;
use support::{corpus, pdn_files};

/// Touches every tag, move (its squares) and comment, and counts errors.
struct Count(usize);

impl Visitor for Count {
    type Output = usize;
    fn tag(&mut self, name: &[u8], value: RawTag<'_>, _: Span) {
        self.0 += name.len() + value.as_bytes().len();
    }
    fn game_move(&mut self, m: &MoveRef<'_>) {
        self.0 += m.squares.len();
    }
    fn comment(&mut self, text: &[u8], _: CommentKind, _: Span) {
        self.0 += text.len();
    }
    fn end_game(&mut self, game: &GameEnd<'_>) -> usize {
        game.errors.len()
    }
}

/// The allocator of the `pdn` binary, so that the figures are those of the tool.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Every PDN file of the corpus, each followed by a line break.
fn corpus_bytes() -> Vec<u8> {
    let mut all = Vec::new();
    for f in pdn_files(&corpus()) {
        all.extend(std::fs::read(&f).expect("corpus file"));
        all.push(b'\n');
    }
    all
}

fn read_benches(c: &mut Criterion) {
    let bytes = corpus_bytes();
    let games = Reader::new(&bytes[..]).count();
    eprintln!("corpus: {} bytes, {games} games", bytes.len());
    let mut g = c.benchmark_group("read");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("floor/copy", |b| {
        let mut buf = vec![0u8; 64 * 1024];
        b.iter(|| {
            let mut src = black_box(&bytes[..]);
            let mut n = 0usize;
            loop {
                let k = src.read(&mut buf).expect("read from memory");
                if k == 0 {
                    break;
                }
                n += usize::from(buf[k - 1]);
            }
            n
        })
    });
    g.bench_function("floor/memchr-lines", |b| {
        b.iter(|| memchr::memchr_iter(b'\n', black_box(&bytes[..])).count())
    });
    g.bench_function("games", |b| {
        b.iter(|| {
            let mut moves = 0usize;
            for game in Reader::new(black_box(&bytes[..])) {
                let game = game.expect("read from memory");
                moves += game.body.items.len();
            }
            moves
        })
    });
    g.bench_function("visitor", |b| {
        b.iter(|| {
            let mut reader = Reader::new(black_box(&bytes[..]));
            let mut count = Count(0);
            let mut errors = 0;
            while let Some(e) = reader.read_game(&mut count).expect("read from memory") {
                errors += e;
            }
            count.0 + errors
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = read_benches
}
criterion_main!(benches);
