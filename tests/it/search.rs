//! `search`, `index` and `explore` (issue 32): random queries drawn from corpus games at
//! random plies (exact positions, patterns, material; mirrored or not, with and without the
//! side to move) answered three ways — by `search` over the games, by an index of the same
//! games, and by a brute-force replay that compares every position square by square — with
//! no disagreement; the explorer's counts against `search`; and the command line.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use pdn::app::judge::replay::{Observer, Played, PlyEvent};
use pdn::app::judge::validate::{Options, validate_with};
use pdn::app::search::explore::{ExploreOptions, explore};
use pdn::app::search::index::{Index, IndexWriter, index_game, search_index};
use pdn::app::search::query::{Material, Query, parse_fen};
use pdn::app::search::{SearchOptions, Searcher};
use pdn::rules::fen::Setup;
use pdn::rules::{Color, Piece, Position, Role, Spec, Variant, VariantPosition, with_variant};
use pdn::syntax::{Game, read_games};

use super::support::corpus;

/// A position a game reaches without an error on its main line, as the brute force keeps it.
#[derive(Clone, Debug)]
struct Seen {
    ply: u32,
    pos: VariantPosition,
}

/// Collects every position of the main line up to the first error (and after a setup).
#[derive(Default)]
struct Brute {
    seen: Vec<Seen>,
    started: bool,
}

impl Observer for Brute {
    fn position<V: Spec>(&mut self, pos: &Position<V::B>, main: bool) {
        if main && !self.started {
            self.started = true;
            self.seen.push(Seen {
                ply: 0,
                pos: VariantPosition::of::<V>(pos),
            });
        }
    }
    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if e.main && e.clean && e.played == Played::Legal {
            self.seen.push(Seen {
                ply: e.ply,
                pos: VariantPosition::of::<V>(e.after),
            });
        }
    }
    fn setup<V: Spec>(&mut self, pos: &Position<V::B>, line: u32, ply: u32, clean: bool) {
        if line == 0 && clean {
            self.seen.push(Seen {
                ply,
                pos: VariantPosition::of::<V>(pos),
            });
        }
    }
}

/// A corpus game and what the brute force saw of it.
struct Sample {
    game: Game,
    variant: Option<Variant>,
    seen: Vec<Seen>,
    /// For each position of `seen`: the position as played and mirrored, each with its
    /// pieces and material (computed once, so that the brute force of one query costs a
    /// comparison per position, not a walk over the board).
    forms: Vec<[Form; 2]>,
}

/// A position as the brute force compares it.
struct Form {
    side: Color,
    pieces: Vec<(u32, Piece)>,
    /// White men, white kings, black men, black kings, white pieces, black pieces.
    counts: [u32; 6],
}

impl Form {
    fn of<V: Spec>(p: &Position<V::B>) -> Form {
        let mut pieces: Vec<(u32, Piece)> = V::geometry()
            .squares()
            .filter_map(|b| p.piece_at(b).map(|pc| (b, pc)))
            .collect();
        pieces.sort_unstable_by_key(|(b, _)| *b);
        let mut counts = [0; 6];
        for (_, pc) in &pieces {
            let white = pc.color == Color::White;
            let king = pc.role == Role::King;
            counts[usize::from(!white) * 2 + usize::from(king)] += 1;
            counts[4 + usize::from(!white)] += 1;
        }
        Form {
            side: p.side(),
            pieces,
            counts,
        }
    }

    fn at(&self, b: u32) -> Option<Piece> {
        self.pieces
            .binary_search_by_key(&b, |(s, _)| *s)
            .ok()
            .map(|i| self.pieces[i].1)
    }
}

/// The query placed on a variant's board: the squares and pieces it asks for.
struct Placed {
    side: Option<Color>,
    position: Option<Vec<(u32, Piece)>>,
    pieces: Vec<(u32, Piece)>,
    not: Vec<(u32, Piece)>,
    empty: Vec<u32>,
}

/// Games of several variants and boards from the corpus (every `step`-th game of each file).
fn samples(step: usize) -> Vec<Sample> {
    let c = corpus();
    let files = [
        "international/wiegerw-draughts-wiersma.pdn",
        "international/lidraughts-standard-via-py-draughts.pdn",
        "international/horizon-boomstradam/BoomstraDam/pdn files/oud/DUTCH96H.PDN",
        "english/raven-checkers-tinsley.pdn",
        "english/playstrategy-american-via-py-draughts.pdn",
        "russian/lidraughts-russian-via-py-draughts.pdn",
        "czech/fmjd-pdn-testsuite/succeed/mrcd2006.pdn",
        "italian/fmjd-pdn-testsuite/succeed/Campionato Assoluto 2005.pdn",
        "brazilian/lidraughts-brazilian-via-py-draughts.pdn",
        "frisian/lidraughts-frisian-via-py-draughts.pdn",
        "frysk/lidraughts-frysk-via-py-draughts.pdn",
        "antidraughts/lidraughts-antidraughts-via-py-draughts.pdn",
        "breakthrough/lidraughts-breakthrough-via-py-draughts.pdn",
    ];
    let mut out = Vec::new();
    for f in files {
        let path = c.join(f);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for game in read_games(&bytes).into_iter().step_by(step) {
            let mut b = Brute::default();
            let report = validate_with(&game, &Options::default(), &mut b);
            let forms = match report.variant {
                Some(v) => with_variant!(v, V => b
                    .seen
                    .iter()
                    .map(|seen| {
                        let p = seen.pos.get::<V>().expect("the variant's position");
                        [Form::of::<V>(&p), Form::of::<V>(&flipped::<V>(&p))]
                    })
                    .collect()),
                None => Vec::new(),
            };
            out.push(Sample {
                variant: report.variant,
                seen: b.seen,
                forms,
                game,
            });
        }
    }
    out
}

/// A deterministic generator (xorshift).
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
    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

/// The pieces of a position: (square number, piece), in the variant's numbering.
fn pieces<V: Spec>(p: &Position<V::B>) -> Vec<(u32, Piece)> {
    V::geometry()
        .squares()
        .filter_map(|b| {
            p.piece_at(b)
                .map(|pc| (V::numbering().number_of_bit(b), pc))
        })
        .collect()
}

fn fen_of(side: Option<Color>, list: &[(u32, Piece)]) -> String {
    let mut s = String::from(match side {
        Some(c) => c.letter(),
        None => '?',
    });
    for color in Color::ALL {
        s.push(':');
        s.push(color.letter());
        let l: Vec<String> = list
            .iter()
            .filter(|(_, p)| p.color == color)
            .map(|(n, p)| match p.role {
                Role::King => format!("K{n}"),
                Role::Man => n.to_string(),
            })
            .collect();
        s.push_str(&l.join(","));
    }
    s
}

/// A random query drawn from a position some game reaches.
fn random_query(rng: &mut Rng, samples: &[Sample]) -> Query {
    loop {
        let s = &samples[rng.below(samples.len())];
        if s.seen.is_empty() {
            continue;
        }
        let seen = &s.seen[rng.below(s.seen.len())];
        let mirror = rng.below(3) == 0;
        let with_side = rng.coin();
        let q = with_variant!(seen.pos.variant(), V => {
            let p = seen.pos.get::<V>().expect("typed");
            let list = pieces::<V>(&p);
            let side = with_side.then_some(p.side());
            match rng.below(3) {
                0 => Query {
                    position: Some(parse_fen(&fen_of(side, &list)).expect("fen")),
                    any_side: !with_side && rng.coin(),
                    mirror,
                    ..Query::default()
                },
                1 => {
                    // A few of its pieces, one square that holds something else, one empty.
                    let mut have: Vec<(u32, Piece)> = Vec::new();
                    for _ in 0..1 + rng.below(4) {
                        if let Some(x) = list.get(rng.below(list.len())) && !have.contains(x) {
                            have.push(*x);
                        }
                    }
                    let mut q = Query {
                        pieces: vec![parse_fen(&fen_of(side, &have)).expect("fen")],
                        mirror,
                        ..Query::default()
                    };
                    if let Some(&(n, pc)) = list.get(rng.below(list.len())) && rng.coin() {
                        let other = Piece { color: pc.color.other(), role: pc.role };
                        q.not = vec![parse_fen(&fen_of(None, &[(n, other)])).expect("fen")];
                    }
                    let numbers = V::numbering().len() as u32;
                    let n = 1 + rng.below(numbers as usize) as u32;
                    if rng.coin() && !list.iter().any(|(m, _)| *m == n) {
                        q.empty = pdn::app::search::query::parse_squares(&n.to_string()).expect("square");
                    }
                    q
                }
                _ => {
                    let count = |c: Color, r: Role| {
                        list.iter().filter(|(_, p)| p.color == c && p.role == r).count()
                    };
                    let w = count(Color::White, Role::Man) + count(Color::White, Role::King);
                    let b = count(Color::Black, Role::Man) + count(Color::Black, Role::King);
                    let wk = count(Color::White, Role::King);
                    let spec = format!(
                        "w={}-{},b={},wk={}+",
                        w.saturating_sub(rng.below(2)),
                        w + rng.below(2),
                        b,
                        wk
                    );
                    Query {
                        material: Some(Material::parse(&spec).expect("material")),
                        side,
                        mirror,
                        ..Query::default()
                    }
                }
            }
        });
        return q;
    }
}

/// The position turned round with the colours swapped (the brute force mirrors the games,
/// not the query).
fn flipped<V: Spec>(p: &Position<V::B>) -> Position<V::B> {
    let geo = V::geometry();
    let (w, h) = (i32::from(geo.width()), i32::from(geo.height()));
    p.flipped(|b| {
        let (r, c) = geo.coord(b);
        geo.at(h - 1 - i32::from(r), w - 1 - i32::from(c))
            .expect("on the board")
    })
}

/// The query placed on the board of variant `V`, from the FEN setups; `None` if it does not
/// fit the board.
fn place<V: Spec>(q: &Query) -> Option<Placed> {
    let place = |s: &Setup| -> Option<Vec<(u32, Piece)>> {
        s.position(V::numbering(), V::geometry(), Color::White)
            .ok()
            .map(|pos| {
                V::geometry()
                    .squares()
                    .filter_map(|b| pos.piece_at(b).map(|pc| (b, pc)))
                    .collect()
            })
    };
    let mut side = q.side;
    if !q.any_side {
        for s in q.position.iter().chain(&q.pieces).chain(&q.not) {
            if s.side.is_some() {
                side = s.side;
            }
        }
    }
    let position = match &q.position {
        Some(s) => {
            let mut all = place(s)?;
            all.sort_unstable_by_key(|(b, _)| *b);
            Some(all)
        }
        None => None,
    };
    let mut pieces = Vec::new();
    for s in &q.pieces {
        pieces.extend(place(s)?);
    }
    let mut not = Vec::new();
    for s in &q.not {
        not.extend(place(s)?);
    }
    let mut empty = Vec::new();
    for n in &q.empty {
        empty.push(n.resolve(V::numbering()).ok()?);
    }
    Some(Placed {
        side,
        position,
        pieces,
        not,
        empty,
    })
}

/// Does position `p` hold the placed query? Square by square.
fn holds(q: &Query, placed: &Placed, p: &Form) -> bool {
    placed.side.is_none_or(|s| p.side == s)
        && placed
            .position
            .as_ref()
            .is_none_or(|want| *want == p.pieces)
        && placed.pieces.iter().all(|&(b, pc)| p.at(b) == Some(pc))
        && placed.not.iter().all(|&(b, pc)| p.at(b) != Some(pc))
        && placed.empty.iter().all(|&b| p.at(b).is_none())
        && q.material
            .as_ref()
            .is_none_or(|m| m.counts.iter().zip(p.counts).all(|(c, n)| c.holds(n)))
}

/// The matches the brute force finds: (game, ply, mirrored), the first of each form.
fn brute(q: &Query, samples: &[Sample]) -> BTreeSet<(usize, u32, bool)> {
    let mut placed: Vec<(Variant, Option<Placed>)> = Vec::new();
    let mut out = BTreeSet::new();
    for (g, s) in samples.iter().enumerate() {
        let Some(v) = s.variant else { continue };
        let at = match placed.iter().position(|(w, _)| *w == v) {
            Some(i) => i,
            None => {
                placed.push((v, with_variant!(v, V => place::<V>(q))));
                placed.len() - 1
            }
        };
        let Some(pl) = &placed[at].1 else { continue };
        let forms: &[bool] = if q.mirror { &[false, true] } else { &[false] };
        for &mirrored in forms {
            let first = s
                .seen
                .iter()
                .zip(&s.forms)
                .find(|(_, f)| holds(q, pl, &f[usize::from(mirrored)]));
            if let Some((seen, _)) = first {
                out.insert((g, seen.ply, mirrored));
            }
        }
    }
    out
}

fn by_search(searcher: &Searcher, samples: &[Sample]) -> BTreeSet<(usize, u32, bool)> {
    let mut out = BTreeSet::new();
    for (g, s) in samples.iter().enumerate() {
        for m in searcher.search_game(&s.game, None).matches {
            out.insert((g, m.ply, m.mirrored));
        }
    }
    out
}

fn by_index(index: &Index, searcher: &Searcher) -> BTreeSet<(usize, u32, bool)> {
    let mut out = BTreeSet::new();
    search_index(index, searcher, |_, id, r| {
        for m in r.matches {
            out.insert((id as usize, m.ply, m.mirrored));
        }
        Ok(())
    })
    .expect("index search");
    out
}

/// An index of the samples, in a temporary directory.
fn index_of(samples: &[Sample], dir: &Path) -> Index {
    let mut w = IndexWriter::new(dir, None).expect("writer");
    w.add_file("samples", "");
    for s in samples {
        w.add(0, &index_game(&s.game, None, None, None))
            .expect("add");
    }
    let path = dir.join("samples.idx");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).expect("create"));
    w.finish(&mut f).expect("finish");
    drop(f);
    Index::open(&path).expect("open")
}

fn agree(queries: usize, step: usize, seed: u64) {
    let samples = samples(step);
    let dir = tempfile::tempdir().expect("tempdir");
    let index = index_of(&samples, dir.path());
    let mut rng = Rng(seed);
    let mut matched = 0;
    let mut disagreements = Vec::new();
    for _ in 0..queries {
        let q = random_query(&mut rng, &samples);
        let want = brute(&q, &samples);
        let Ok(searcher) = Searcher::new(q.clone(), SearchOptions::default()) else {
            assert!(want.is_empty(), "{q:?} refused but matches");
            continue;
        };
        let got = by_search(&searcher, &samples);
        let indexed = by_index(&index, &searcher);
        if got != want || indexed != want {
            disagreements.push(format!(
                "{q:?}: brute {} search {} index {}",
                want.len(),
                got.len(),
                indexed.len()
            ));
        }
        matched += usize::from(!want.is_empty());
    }
    assert!(
        disagreements.is_empty(),
        "{} disagreements of {queries}:\n{}",
        disagreements.len(),
        disagreements[..disagreements.len().min(5)].join("\n")
    );
    // The queries come from positions the games reach: nearly all find something.
    assert!(
        matched * 10 >= queries * 9,
        "{matched} of {queries} matched"
    );
}

/// Search, the index and the brute force agree on random queries (a quick run).
#[test]
fn search_index_and_brute_force_agree() {
    agree(300, 3, 0x5eed_0001);
}

/// The same on 10,000 queries over more games (long: `cargo test -- --ignored`).
#[test]
#[ignore]
fn search_index_and_brute_force_agree_on_10000_queries() {
    agree(10_000, 1, 0x5eed_2024);
}

/// The explorer's counts are those of `search`: the games reaching each position it lists,
/// and of each move, the games in which it was played from the position.
#[test]
fn explorer_counts_are_search_counts() {
    let samples = samples(1);
    let dir = tempfile::tempdir().expect("tempdir");
    let index = index_of(&samples, dir.path());
    for v in [Variant::International, Variant::English, Variant::Russian] {
        let root = with_variant!(v, V => VariantPosition::of::<V>(&V::start()));
        let opts = ExploreOptions {
            depth: 2,
            min_games: 3,
            max_positions: 200,
        };
        let tree = explore(&index, &root, &opts).expect("explore");
        assert!(
            tree.nodes.len() > 5,
            "{v:?}: {} positions",
            tree.nodes.len()
        );
        let count = |q: Query| {
            let s = Searcher::new(q, SearchOptions::default()).expect("query");
            samples
                .iter()
                .filter(|x| x.variant == Some(v))
                .filter(|x| !s.search_game(&x.game, None).matches.is_empty())
                .count() as u64
        };
        let exact = |fen: &str| Query {
            position: Some(parse_fen(fen).expect("fen")),
            ..Query::default()
        };
        for n in &tree.nodes {
            assert_eq!(n.tally.games, count(exact(&n.fen)), "{v:?} {}", n.fen);
            for e in &n.moves {
                assert_eq!(e.tally.games, count(exact(&e.fen_after)), "{v:?} {}", e.mv);
                assert!(e.played <= e.tally.games);
            }
        }
        let root = &tree.nodes[0];
        let played: u64 = root.moves.iter().map(|e| e.played).sum();
        assert!(played <= root.tally.games && played > 0);
    }
}

fn pdn() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pdn"))
}

fn run(args: &[&str]) -> std::process::Output {
    pdn().args(args).output().expect("run pdn")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn fixture(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, body).expect("write");
    p
}

const GAMES: &str = "[Event \"A\"]\n[White \"W1\"]\n[Black \"B1\"]\n[Result \"2-0\"]\n[Date \"1999.01.02\"]\n\
1. 32-28 19-23 2. 28x19 14x23 3. 33-28 23x32 4. 37x28 2-0\n\n\
[Event \"B\"]\n[White \"W2\"]\n[Black \"B2\"]\n[Result \"1-1\"]\n\
1. 33-28 19-23 2. 28x19 14x23 3. 32-28 23x32 4. 37x28 1-1\n\n\
[Event \"C\"]\n[White \"W3\u{1b}[2J\"]\n[Black \"B3\"]\n[Result \"0-2\"]\n\
1. 32-28 19-23 2. 28x19 14x23 3. 33-29 23-19 4. 34-30 0-2\n";

/// Transpositions are found (games 1 and 2 reach the same position by other orders), JSON
/// has DESIGN.md's fields, a game is searched up to its first error and says so.
#[test]
fn search_finds_transpositions_and_stops_at_errors() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = fixture(dir.path(), "g.pdn", GAMES);
    let f = f.to_str().expect("path");
    let fen = "W:W31,34-50:B1-13,15-18,20,32";
    let o = run(&["search", f, "--position", fen, "-f", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(lines.len(), 3, "{out}");
    for (l, game) in lines[..2].iter().zip([1, 2]) {
        assert_eq!(l["type"], "match");
        assert_eq!(l["game"], game);
        assert_eq!(l["ply"], 6);
        assert_eq!(l["move_number"], 4);
        assert_eq!(l["side"], "white");
        for k in [
            "file", "line", "fen", "white", "black", "result", "event", "date",
        ] {
            assert!(l.get(k).is_some(), "{k}");
        }
    }
    let summary = &lines[2];
    assert_eq!(summary["type"], "summary");
    assert_eq!(summary["games"], 3);
    assert_eq!(summary["matches"], 2);
    assert_eq!(summary["games_searched_in_part"], 1);
    // Game 3: searched up to its illegal sixth ply (23-19, backwards), and its match says so.
    let o = run(&[
        "search",
        f,
        "--moves",
        "32-28 19-23 28x19 14x23",
        "-f",
        "json",
    ]);
    let out = text(&o.stdout);
    let third = out
        .lines()
        .find(|l| l.contains("\"game\":3"))
        .expect("game 3 matches");
    assert!(third.contains("\"error_ply\":6"), "{third}");
    // Nothing past the error: the position after 32-27 is never found.
    let o = run(&["search", f, "--pieces", "W:W30", "-f", "json"]);
    assert!(
        !text(&o.stdout).contains("\"game\":3"),
        "{}",
        text(&o.stdout)
    );
    // Human output escapes the terminal control in a tag.
    let o = run(&["search", f, "--moves", "32-28"]);
    let out = text(&o.stdout);
    assert!(
        !out.contains('\u{1b}') && out.contains("\\u{1b}[2J"),
        "{out}"
    );
}

/// Manoeuvres: a capture of N, a piece of a kind from and to squares, a sacrifice; the
/// move is named in the match.
#[test]
fn manoeuvres_are_found() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = fixture(dir.path(), "g.pdn", GAMES);
    let f = f.to_str().expect("path");
    let json = |args: &[&str]| -> Vec<serde_json::Value> {
        let mut a = vec!["search", f, "-f", "json"];
        a.extend_from_slice(args);
        let o = run(&a);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        text(&o.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("json"))
            .filter(|v: &serde_json::Value| v["type"] == "match")
            .collect()
    };
    let captures = json(&["--captures", "1", "--side", "white"]);
    assert_eq!(captures.len(), 3);
    assert!(
        captures
            .iter()
            .all(|m| m["move"] == "28x19" && m["ply"] == 2)
    );
    let from = json(&["--piece", "man", "--from", "32", "--to", "27,28"]);
    assert_eq!(from.len(), 3, "{from:?}");
    assert_eq!(from[1]["ply"], 4, "game 2 plays 32-28 at its fifth ply");
    // After 19-23 White must capture (28x19): a sacrifice by the query's definition.
    let sac = json(&["--sacrifice", "--side", "black"]);
    assert_eq!(sac.len(), 3, "{sac:?}");
    assert!(sac.iter().all(|m| m["move"] == "19-23"));
    let none = json(&["--promotion"]);
    assert!(none.is_empty());
}

/// `--format pdn` writes the matching games whole with a comment at the match; CSV has its
/// header; the index answers the same, also as PDN (reading the games again).
#[test]
fn formats_and_the_index_agree() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = fixture(dir.path(), "g.pdn", GAMES);
    let f = f.to_str().expect("path");
    let idx = dir.path().join("g.idx");
    let idx = idx.to_str().expect("path");
    let o = run(&["index", f, "-o", idx, "-q"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    for query in [
        vec!["--moves", "32-28 19-23"],
        vec!["--pieces", "W:W28:B23", "--mirror", "--all-occurrences"],
        vec!["--material", "w=20,b=19"],
        vec!["--captures", "1+"],
    ] {
        for format in ["json", "csv", "pdn", "human"] {
            let mut a = vec!["search", f, "-f", format];
            a.extend_from_slice(&query);
            let direct = run(&a);
            let mut b = vec!["search", "--index", idx, "-f", format];
            b.extend_from_slice(&query);
            let indexed = run(&b);
            assert_eq!(direct.status.code(), Some(0), "{}", text(&direct.stderr));
            assert_eq!(indexed.status.code(), Some(0), "{}", text(&indexed.stderr));
            assert_eq!(
                text(&direct.stdout),
                text(&indexed.stdout),
                "{query:?} {format}"
            );
        }
    }
    let o = run(&["search", f, "--moves", "32-28 19-23", "-f", "pdn"]);
    let out = text(&o.stdout);
    assert!(
        out.contains("19-23 {pdn search: match at ply 2 (move 2, white to play)}"),
        "{out}"
    );
    assert_eq!(
        read_games(out.as_bytes()).len(),
        2,
        "two games, whole: {out}"
    );
    let o = run(&["search", f, "--moves", "32-28", "-f", "csv"]);
    assert!(text(&o.stdout).starts_with("file,game,line,ply,move_number,side,fen,"));
}

/// Bad queries are usage errors that say what is wrong; a damaged index is an error, never a
/// panic.
#[test]
fn bad_queries_and_indexes_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = fixture(dir.path(), "g.pdn", GAMES);
    let f = f.to_str().expect("path");
    for (args, says) in [
        (vec!["search", f], "no query"),
        (vec!["search", f, "--position", "W:W99:B1"], "fits no board"),
        (vec!["search", f, "--position", "X:W1"], "side to move"),
        (vec!["search", f, "--material", "queens=1"], "material"),
        (vec!["search", f, "--captures", "3-1"], "count"),
        (
            vec!["search", f, "--position", "W:W31", "--pieces", "B:W32"],
            "different sides",
        ),
        (vec!["search", f, "--moves", "32-29"], "fits no board"),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = text(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let bad = fixture(dir.path(), "bad.idx", "PDNINDEX but not really");
    let o = run(&[
        "search",
        "--index",
        bad.to_str().expect("path"),
        "--moves",
        "32-28",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("index"), "{}", text(&o.stderr));
    // A real index cut short.
    let idx = dir.path().join("g.idx");
    assert_eq!(
        run(&["index", f, "-o", idx.to_str().expect("path"), "-q"])
            .status
            .code(),
        Some(0)
    );
    let bytes = std::fs::read(&idx).expect("read");
    std::fs::write(&idx, &bytes[..bytes.len() - 3]).expect("write");
    let o = run(&[
        "search",
        "--index",
        idx.to_str().expect("path"),
        "--moves",
        "32-28",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("damaged"), "{}", text(&o.stderr));
}

/// `explore`: text and JSON from the start, transpositions counted together, and one HTML
/// page with no script and no network, every move a link to its position.
#[test]
fn explore_lists_moves_and_writes_a_page() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = fixture(dir.path(), "g.pdn", GAMES);
    let f = f.to_str().expect("path");
    let o = run(&[
        "explore",
        f,
        "-f",
        "json",
        "--moves",
        "32-28 19-23 28x19 14x23",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let lines: Vec<serde_json::Value> = text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(lines[0]["type"], "position");
    assert_eq!(lines[0]["games"], 2);
    let moves: Vec<&serde_json::Value> = lines.iter().filter(|l| l["type"] == "move").collect();
    assert_eq!(moves.len(), 2, "{lines:?}");
    let m = moves.iter().find(|m| m["move"] == "33-28").expect("33-28");
    // Game 2 reaches the same position by another order: counted with game 1.
    assert_eq!(m["played"], 1);
    assert_eq!(m["games"], 2);
    assert_eq!(m["white_wins"], 1);
    assert_eq!(m["draws"], 1);
    assert_eq!(m["score"], 1.5);
    let page = dir.path().join("t.html");
    let o = run(&[
        "explore",
        f,
        "-f",
        "html",
        "-o",
        page.to_str().expect("path"),
        "--moves",
        "32-28 <b>",
    ]);
    assert_eq!(o.status.code(), Some(2), "a bad move is refused");
    let o = run(&[
        "explore",
        f,
        "-f",
        "html",
        "-o",
        page.to_str().expect("path"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(!html.contains("<script"));
    assert!(!html.contains("http://") && !html.contains("https://"));
    assert!(html.contains("default-src 'none'"));
    assert!(html.contains("<a href=\"#n1\">"));
    assert!(html.contains("id=\"n1\""));
}

/// A damaged index (bytes changed anywhere) gives answers or errors, never a panic.
#[test]
fn a_damaged_index_never_panics() {
    let samples = samples(6);
    let dir = tempfile::tempdir().expect("tempdir");
    index_of(&samples, dir.path());
    let path = dir.path().join("samples.idx");
    let good = std::fs::read(&path).expect("read");
    let queries = [
        Query {
            position: Some(parse_fen("W:W31-50:B1-20").expect("fen")),
            ..Query::default()
        },
        Query {
            material: Some(Material::parse("w=5+").expect("material")),
            mirror: true,
            ..Query::default()
        },
    ];
    let mut rng = Rng(99);
    for round in 0..300 {
        let mut bad = good.clone();
        for _ in 0..1 + rng.below(8) {
            let at = if round % 2 == 0 {
                rng.below(bad.len())
            } else {
                // The header and the first games: offsets, lengths, counts.
                rng.below(bad.len().min(4096))
            };
            bad[at] = rng.next() as u8;
        }
        std::fs::write(&path, &bad).expect("write");
        let Ok(index) = Index::open(&path) else {
            continue;
        };
        for q in &queries {
            let s = Searcher::new(q.clone(), SearchOptions::default()).expect("query");
            let _ = search_index(&index, &s, |_, _, _| Ok(()));
        }
        let root = VariantPosition::of::<pdn::rules::spec::International>(
            &pdn::rules::spec::International::start(),
        );
        let _ = explore(&index, &root, &ExploreOptions::default());
    }
}

/// The three commands have their man pages, and the completions offer them and their
/// formats.
#[test]
fn the_commands_have_pages_and_completions() {
    for (page, says) in [
        ("search", "QUERIES"),
        ("explore", "WHAT THE NUMBERS MEAN"),
        ("index", "EXAMPLES"),
    ] {
        let o = run(&["man", page]);
        assert_eq!(o.status.code(), Some(0));
        let roff = text(&o.stdout);
        assert!(roff.contains(says), "{page}");
        assert!(
            roff.contains(&format!(".TH PDN-{} 1", page.to_uppercase())),
            "{page}"
        );
    }
    let script = text(&run(&["completions", "bash"]).stdout);
    for word in [
        "search",
        "explore",
        "index",
        "--any-side",
        "--sacrifice",
        "--max-ply",
        "pdn",
    ] {
        assert!(script.contains(word), "{word}");
    }
    let help = text(&run(&["search", "--help"]).stdout);
    for value in ["human", "json", "csv", "pdn", "man", "king"] {
        assert!(help.contains(&format!("- {value}:")), "{value}");
    }
}
