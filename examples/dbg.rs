use pdn::rules::*;
use pdn::rules::notation::*;
fn show<V: Spec>(fen: &str) {
    let pos = V::from_fen(fen).unwrap();
    let mut a = MoveList::new(); V::legal_moves(&pos, &mut a);
    let la: Vec<String> = (0..a.len()).map(|i| { let m=a.moves()[i]; format!("{}{}", write(V::geometry(), V::numbering(), &m, a.path(i), true, SquareStyle::Native, V::RULES.capture_separator), if m.promotes() {"(K)"} else {""}) }).collect();
    println!("{} {fen}: {la:?}", V::RULES.name);
}
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let v: Variant = args[1].parse().unwrap();
    with_variant!(v, V => show::<V>(&args[2]));
}
