use pdn::rules::perft::{perft, Counting};
use pdn::rules::{spec, Spec};
use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v = args.get(1).map(|s| s.as_str()).unwrap_or("international");
    let d: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(6);
    let fen = args.get(3).cloned();
    macro_rules! run { ($V:ty) => {{
        let pos = match &fen { Some(f) => <$V>::from_fen(f).unwrap(), None => <$V>::start() };
        for depth in 1..=d {
            let t = Instant::now();
            let n = perft::<$V>(&pos, depth, Counting::Drop);
            let k = perft::<$V>(&pos, depth.min(8), Counting::Keep);
            println!("{depth} {n} keep={k} {:?}", t.elapsed());
        }
    }}}
    match v {
        "international" => run!(spec::International),
        "english" => run!(spec::English),
        "russian" => run!(spec::Russian),
        "brazilian" => run!(spec::Brazilian),
        "pool" => run!(spec::Pool),
        "czech" => run!(spec::Czech),
        "spanish" => run!(spec::Spanish),
        "italian" => run!(spec::Italian),
        "thai" => run!(spec::Thai),
        "canadian" => run!(spec::Canadian),
        "frisian" => run!(spec::Frisian),
        "turkish" => run!(spec::Turkish),
        _ => panic!(),
    }
}
#[allow(dead_code)]
fn show() {}
