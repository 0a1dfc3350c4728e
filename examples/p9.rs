use pdn::rules::perft::{perft, Counting};
use pdn::rules::{spec, Spec};
use std::time::Instant;
fn main() {
    let d: u32 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(9);
    let pos = spec::International::start();
    let t = Instant::now();
    let n = perft::<spec::International>(&pos, d, Counting::Drop);
    println!("{d} {n} {:?}", t.elapsed());
}
