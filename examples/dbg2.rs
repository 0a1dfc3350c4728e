use pdn::rules::*;
use pdn::rules::notation::*;
fn main() {
    type V = spec::Thai;
    let mut rng = 12345u64;
    let mut next = || { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; rng };
    let alt = Rules { removal: Removal::AfterMove, ..THAI };
    let mut best: Option<(usize, String)> = None;
    for _ in 0..300000 {
        let k = next() % 32 + 1;
        let nb = 2 + (next() % 3) as usize;
        let mut blacks = vec![];
        while blacks.len() < nb { let b = next() % 24 + 5; if b != k && !blacks.contains(&b) { blacks.push(b); } }
        let fen = format!("W:WK{}:B{}", k, blacks.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(","));
        let Ok(pos) = V::from_fen(&fen) else { continue };
        let mut a = MoveList::new(); V::legal_moves(&pos, &mut a);
        let mut b = MoveList::new(); V::relaxed_moves(&pos, &alt, Options::default(), &mut b);
        let ma = a.moves().iter().map(|m| m.num_captured()).max().unwrap_or(0);
        let mb = b.moves().iter().map(|m| m.num_captured()).max().unwrap_or(0);
        if ma > mb && mb >= 1 {
            if best.as_ref().map_or(true, |(n, _)| nb < *n) {
                let la: Vec<String> = (0..a.len()).map(|i| write(V::geometry(), V::numbering(), &a.moves()[i], a.path(i), true, SquareStyle::Native, 'x')).collect();
                let lb: Vec<String> = (0..b.len()).map(|i| write(V::geometry(), V::numbering(), &b.moves()[i], b.path(i), true, SquareStyle::Native, 'x')).collect();
                best = Some((nb, format!("{fen}\n immediate: {la:?}\n aftermove: {lb:?}")));
            }
        }
    }
    println!("{}", best.map(|b| b.1).unwrap_or_default());
}
