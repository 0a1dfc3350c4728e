//! `fix --repair` benchmark (`cargo bench --bench repair`): clean games of the shared corpus
//! (international and English), each given one scoresheet slip of one kind at a random ply,
//! fixed in process with `--repair`; per kind, how many slips made the record illegal and,
//! of those, how many were restored exactly, left (nothing applied: the comment names the
//! error) or repaired wrongly (a correction applied, but the main line is not the game
//! played). Slips that leave the record legal are counted apart, and such records must come
//! out of `--repair` unchanged. A row of games with two slips, and the speed of `fix
//! --repair` on an archive with 5% bad games, in plies per second on one core.
//!
//! The slips are injected here, by code of its own (not the repair's model): a square's two
//! digits transposed, one digit wrong (a neighbour on the number row, the keypad or in
//! handwriting seven times in ten, any other digit else), from and to swapped, a square off
//! by one, the other side's numbering, the other separator, an ambiguous capture written
//! short; a ply left out, a ply written twice, two moves of one player exchanged, the two
//! halves of a move exchanged, a whole move left out.
//!
//! The games are split in two halves by a hash of their moves: `dev` (looked at while the
//! repair was built) and `test` (only ever measured). Environment: `PDN_CORPUS` (the
//! corpus), `REPAIR_BENCH_GAMES` (games per kind and variant, default 400), `REPAIR_BENCH_SPLIT`
//! (`dev`, `test` or `all`, default `all`), `REPAIR_BENCH_OUT` (a directory to write the
//! archives with 5% bad games to, for timing the binary), `REPAIR_BENCH_SHOW` (print the
//! games of one kind that were not restored).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use pdn::app::fix::{FixOptions, fix};
use pdn::app::judge::validate::{Options, validate};
use pdn::app::write::export::plies::Form;
use pdn::app::write::export::{Analysed, ExportOptions, analyse};
use pdn::rules::Variant;
use pdn::syntax::{Game, Item, read_games};

mod support;
use support::{corpus, pdn_files};

/// The allocator of the `pdn` binary, so that the figures are those of the tool.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

/// A clean game: its start (FEN tag, if any) and its main line, one canonical move per ply.
#[derive(Clone)]
struct Clean {
    fen: Option<String>,
    /// The first ply is the first player's.
    first_moves_first: bool,
    moves: Vec<String>,
    dev: bool,
}

/// The kinds of slip; `#`: a ply or a move left out of a record whose move numbers are those
/// of the game played (the other kinds are written numbered as they stand).
const KINDS: [&str; 14] = [
    "transposed",
    "digit",
    "from-to",
    "off-by-one",
    "other-side",
    "separator",
    "route",
    "missing-ply",
    "doubled-ply",
    "swapped-own",
    "swapped-halves",
    "missing-move",
    "missing-ply#",
    "missing-move#",
];

/// A kind counted in the total row and drawn for games of several slips: not the separator
/// (no error), not the `#` kinds (the same slips, numbered otherwise).
fn mixed(kind: &str) -> bool {
    kind != "separator" && !kind.ends_with('#')
}

/// The kinds that [`mixed`] takes, in order.
fn mixed_kinds() -> Vec<&'static str> {
    KINDS.iter().copied().filter(|k| mixed(k)).collect()
}

fn game_type(v: Variant) -> u32 {
    v.game_type()
}

/// Validation in `variant`.
fn in_variant(variant: Variant) -> Options {
    Options {
        variant: Some(variant),
        ..Options::default()
    }
}

/// The exporter's analysis of a game replayed in `variant`.
fn analysed(game: &Game, variant: Variant) -> Analysed<'_> {
    let opts = ExportOptions {
        validate: in_variant(variant),
        ..ExportOptions::default()
    };
    analyse(game, &opts)
}

/// The main line of a game in canonical notation (`None` if it is not clean: an error of
/// the main line, a setup or an unknown move in it).
fn main_line(game: &Game, variant: Variant) -> Option<Vec<String>> {
    let a = analysed(game, variant);
    let mut out = Vec::new();
    for item in &a.normal.body.items {
        match item {
            Item::Move(m) => {
                let r = a.record(m)?;
                if r.played != pdn::app::judge::replay::Played::Legal {
                    return None;
                }
                out.push(a.move_text(game, m, Form::Pdn));
            }
            Item::Setup(_) => return None,
            _ => {}
        }
    }
    Some(out)
}

/// The main line of a game as written (canonical where legal, syntactic else).
fn written_line(game: &Game, variant: Variant) -> Vec<String> {
    let a = analysed(game, variant);
    a.normal
        .body
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Move(m) => Some(a.move_text(game, m, Form::Pdn)),
            _ => None,
        })
        .collect()
}

fn has_main_error(game: &Game, variant: Variant) -> bool {
    let r = validate(game, &in_variant(variant));
    r.diagnostics.iter().any(|d| {
        d.severity() == pdn::app::judge::diagnostic::Severity::Error
            && d.code.is_move_code()
            && !d.variation
    })
}

fn record(variant: Variant, c: &Clean, moves: &[String]) -> String {
    let mut s = format!("[Event \"bench\"]\n[GameType \"{}\"]\n", game_type(variant));
    if let Some(f) = &c.fen {
        s.push_str(&format!("[FEN \"{f}\"]\n"));
    }
    s.push('\n');
    let mut number = 1;
    let mut first = c.first_moves_first;
    for (i, m) in moves.iter().enumerate() {
        if first {
            s.push_str(&format!("{number}. "));
        } else if i == 0 {
            s.push_str(&format!("{number}... "));
        }
        s.push_str(m);
        s.push(' ');
        if !first {
            number += 1;
        }
        first = !first;
    }
    s.push_str("*\n\n");
    s
}

/// A record of the game with plies `left_out` (indices, in order) left out, the others
/// numbered as in the game played (a gap in the numbers where a move is missing).
fn record_numbered(variant: Variant, c: &Clean, left_out: &[usize]) -> String {
    let mut s = format!("[Event \"bench\"]\n[GameType \"{}\"]\n", game_type(variant));
    if let Some(f) = &c.fen {
        s.push_str(&format!("[FEN \"{f}\"]\n"));
    }
    s.push('\n');
    let off = usize::from(!c.first_moves_first);
    let mut last: Option<usize> = None;
    for (i, m) in c.moves.iter().enumerate() {
        if left_out.contains(&i) {
            continue;
        }
        let number = (i + off) / 2 + 1;
        if (i + off) % 2 == 0 {
            s.push_str(&format!("{number}. "));
        } else if last.is_none_or(|l| l + 1 != i) {
            s.push_str(&format!("{number}... "));
        }
        s.push_str(m);
        s.push(' ');
        last = Some(i);
    }
    s.push_str("*\n\n");
    s
}

fn clean_games(variant: Variant, dir: &str) -> Vec<Clean> {
    let paths = pdn_files(&corpus().join(dir));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for p in paths {
        let bytes = std::fs::read(&p).unwrap();
        for g in read_games(&bytes) {
            if !g.errors.is_empty() {
                continue;
            }
            let report = validate(&g, &Options::default());
            if report.variant != Some(variant) {
                continue;
            }
            let Some(moves) = main_line(&g, variant) else {
                continue;
            };
            if moves.len() < 16 || has_main_error(&g, variant) {
                continue;
            }
            let key = moves.join(" ");
            if !seen.insert(key.clone()) {
                continue;
            }
            let fen = g
                .tag("FEN")
                .map(str::to_string)
                .filter(|f| !f.trim().is_empty());
            // Who moves first: from the replay's first record.
            let first_moves_first = analysed(&g, variant)
                .rec
                .records
                .iter()
                .find(|r| r.main)
                .is_none_or(|r| r.side == variant.rules().first_mover());
            let mut h: u64 = 1469598103934665603;
            for b in key.bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(1099511628211);
            }
            let c = Clean {
                fen,
                first_moves_first,
                moves,
                dev: h.is_multiple_of(2),
            };
            // The record written from the canonical moves must replay as the game did.
            let text = record(variant, &c, &c.moves);
            let Some(back) = read_games(text.as_bytes()).into_iter().next() else {
                continue;
            };
            if has_main_error(&back, variant) || written_line(&back, variant) != c.moves {
                continue;
            }
            out.push(c);
        }
    }
    out
}

/// The squares and separator of a canonical move (numeric squares only).
fn parse_move(m: &str) -> Option<(Vec<u32>, char)> {
    let sep = if m.contains('x') { 'x' } else { '-' };
    let squares: Option<Vec<u32>> = m.split(sep).map(|s| s.parse().ok()).collect();
    squares.filter(|s| s.len() >= 2).map(|s| (s, sep))
}

fn join(squares: &[u32], sep: char) -> String {
    squares
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(&sep.to_string())
}

/// Neighbours of a digit: number row, keypad, handwriting.
fn digit_neighbours(d: u8) -> Vec<u8> {
    let row = b"1234567890";
    let mut v = Vec::new();
    let i = row.iter().position(|&c| c == d).unwrap();
    if i > 0 {
        v.push(row[i - 1]);
    }
    if i + 1 < row.len() {
        v.push(row[i + 1]);
    }
    let pad = |c: u8| -> (i32, i32) {
        if c == b'0' {
            (3, 0)
        } else {
            let k = i32::from(c - b'1');
            (2 - k / 3, k % 3)
        }
    };
    for c in b'0'..=b'9' {
        let ((r1, c1), (r2, c2)) = (pad(d), pad(c));
        if c != d && (r1 - r2).abs() + (c1 - c2).abs() == 1 {
            v.push(c);
        }
    }
    for (a, b) in [
        (b'1', b'7'),
        (b'3', b'8'),
        (b'5', b'6'),
        (b'4', b'9'),
        (b'0', b'6'),
        (b'0', b'8'),
    ] {
        if a == d {
            v.push(b);
        }
        if b == d {
            v.push(a);
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

/// Inject a slip of `kind` at a random eligible ply: the moves written, and the ply.
fn inject(kind: &str, c: &Clean, n_squares: u32, rng: &mut Rng) -> Option<(Vec<String>, usize)> {
    let kind = kind.trim_end_matches('#');
    let moves = &c.moves;
    let n = moves.len();
    let first_player = |i: usize| i.is_multiple_of(2) == c.first_moves_first;
    let text_slip = |pick: &dyn Fn(&[u32]) -> bool| -> Vec<usize> {
        (0..n)
            .filter(|&i| parse_move(&moves[i]).is_some_and(|(s, _)| pick(&s)))
            .collect()
    };
    let eligible: Vec<usize> = match kind {
        "transposed" => text_slip(&|s| s.iter().any(|&q| q >= 10 && q / 10 != q % 10)),
        "route" => text_slip(&|s| s.len() > 2),
        "missing-ply" | "doubled-ply" => (0..n).collect(),
        "swapped-own" => (0..n.saturating_sub(2)).collect(),
        "swapped-halves" | "missing-move" => (0..n.saturating_sub(1))
            .filter(|&i| first_player(i))
            .collect(),
        _ => text_slip(&|_| true),
    };
    if eligible.is_empty() {
        return None;
    }
    let j = eligible[rng.below(eligible.len())];
    let mut out = moves.clone();
    match kind {
        "missing-ply" => {
            out.remove(j);
        }
        "doubled-ply" => out.insert(j + 1, moves[j].clone()),
        "swapped-own" => out.swap(j, j + 2),
        "swapped-halves" => out.swap(j, j + 1),
        "missing-move" => {
            out.drain(j..j + 2);
        }
        _ => {
            let (mut sq, sep) = parse_move(&moves[j])?;
            let mut sep2 = sep;
            match kind {
                "transposed" => {
                    let cands: Vec<usize> = (0..sq.len())
                        .filter(|&i| sq[i] >= 10 && sq[i] / 10 != sq[i] % 10)
                        .collect();
                    let i = cands[rng.below(cands.len())];
                    sq[i] = (sq[i] % 10) * 10 + sq[i] / 10;
                }
                "digit" => {
                    let i = rng.below(sq.len());
                    let mut digits = sq[i].to_string().into_bytes();
                    let d = rng.below(digits.len());
                    let near = digit_neighbours(digits[d]);
                    let new = if rng.chance(0.7) {
                        near[rng.below(near.len())]
                    } else {
                        let far: Vec<u8> = (b'0'..=b'9')
                            .filter(|c| *c != digits[d] && !near.contains(c))
                            .collect();
                        far[rng.below(far.len())]
                    };
                    digits[d] = new;
                    let v: u32 = String::from_utf8(digits).ok()?.parse().ok()?;
                    if v == 0 {
                        return None;
                    }
                    sq[i] = v;
                }
                "from-to" => sq.reverse(),
                "off-by-one" => {
                    let i = rng.below(sq.len());
                    sq[i] = if sq[i] == 1 || (sq[i] < n_squares && rng.chance(0.5)) {
                        sq[i] + 1
                    } else {
                        sq[i] - 1
                    };
                }
                "other-side" => {
                    for q in &mut sq {
                        *q = n_squares + 1 - *q;
                    }
                }
                "separator" => sep2 = if sep == 'x' { '-' } else { 'x' },
                "route" => {
                    let (a, b) = (sq[0], sq[sq.len() - 1]);
                    sq = vec![a, b];
                }
                _ => unreachable!(),
            }
            out[j] = join(&sq, sep2);
        }
    }
    Some((out, j))
}

#[derive(Default, Clone, Copy)]
struct Row {
    injected: u64,
    legal: u64,
    legal_changed: u64,
    restored: u64,
    /// Some slips restored, the others left.
    partial: u64,
    left: u64,
    wrong: u64,
    plies: u64,
    seconds: f64,
}

impl Row {
    fn illegal(&self) -> u64 {
        self.restored + self.partial + self.left + self.wrong
    }
    fn add(&mut self, o: &Row) {
        self.injected += o.injected;
        self.legal += o.legal;
        self.legal_changed += o.legal_changed;
        self.restored += o.restored;
        self.partial += o.partial;
        self.left += o.left;
        self.wrong += o.wrong;
        self.plies += o.plies;
        self.seconds += o.seconds;
    }
}

fn pct(a: u64, b: u64) -> String {
    if b == 0 {
        "-".into()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / b as f64)
    }
}

/// Fix a slipped record and say what came of it. `partial`: the lines that restore some
/// slips and leave the others (a game of several slips).
fn judge(
    variant: Variant,
    c: &Clean,
    written: &[String],
    text: &str,
    partial: &[Vec<String>],
    row: &mut Row,
    show: bool,
) {
    let game = read_games(text.as_bytes()).into_iter().next().unwrap();
    let illegal = has_main_error(&game, variant);
    let before = written_line(&game, variant);
    let opts = FixOptions {
        repair: true,
        ..FixOptions::default()
    };
    let t = Instant::now();
    let fixed = fix(game, &opts);
    let _ = &fixed.changes;
    row.seconds += t.elapsed().as_secs_f64();
    row.plies += written.len() as u64;
    row.injected += 1;
    let out = read_games(fixed.text.as_bytes())
        .into_iter()
        .next()
        .unwrap();
    let after = written_line(&out, variant);
    if !illegal {
        row.legal += 1;
        if after != before {
            row.legal_changed += 1;
        }
        return;
    }
    let outcome = if after == c.moves {
        row.restored += 1;
        "restored"
    } else if fixed.repairs == 0 {
        row.left += 1;
        "left"
    } else if partial.contains(&after) {
        row.partial += 1;
        "partial"
    } else {
        row.wrong += 1;
        "WRONG"
    };
    if show && outcome != "restored" {
        let comment = fixed
            .text
            .lines()
            .find(|l| l.starts_with("{pdn:"))
            .unwrap_or("");
        println!("--- {outcome}: {}", written.join(" "));
        if let Some(dir) = std::env::var_os("REPAIR_BENCH_DUMP") {
            use std::io::Write as _;
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(PathBuf::from(dir).join(format!("{outcome}.pdn")))
                .unwrap();
            let _ = f.write_all(text.as_bytes());
        }
        println!("    played:  {}", c.moves.join(" "));
        let diff: Vec<String> = (0..written.len().max(c.moves.len()))
            .filter(|&i| written.get(i) != c.moves.get(i))
            .take(3)
            .map(|i| {
                format!(
                    "ply {}: {:?} for {:?}",
                    i + 1,
                    written.get(i),
                    c.moves.get(i)
                )
            })
            .collect();
        println!("    slip: {}", diff.join(", "));
        let out: Vec<String> = (0..after.len().max(c.moves.len()))
            .filter(|&i| after.get(i) != c.moves.get(i))
            .take(3)
            .map(|i| format!("ply {}: {:?} for {:?}", i + 1, after.get(i), c.moves.get(i)))
            .collect();
        println!("    out:  {}", out.join(", "));
        println!("    {comment}");
        for ch in fixed.changes.iter().filter(|c| c.why.starts_with("repair")) {
            println!(
                "    {:?} {:?} -> {:?}: {}",
                ch.ply, ch.before, ch.after, ch.why
            );
        }
    }
}

fn main() {
    let per_kind: usize = std::env::var("REPAIR_BENCH_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(400);
    let split = std::env::var("REPAIR_BENCH_SPLIT").unwrap_or_else(|_| "all".into());
    let show = std::env::var("REPAIR_BENCH_SHOW").ok();
    let out_dir = std::env::var_os("REPAIR_BENCH_OUT").map(PathBuf::from);
    // `cargo bench` passes `--bench`; a name filter may follow.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    for (variant, dir, n_squares) in [
        (Variant::International, "international", 50),
        (Variant::English, "english", 32),
    ] {
        let all = clean_games(variant, dir);
        let games: Vec<Clean> = all
            .iter()
            .filter(|c| match split.as_str() {
                "dev" => c.dev,
                "test" => !c.dev,
                _ => true,
            })
            .cloned()
            .collect();
        println!(
            "\n{} ({} clean games, {} in the {split} split; up to {per_kind} per kind)\n",
            variant.name(),
            all.len(),
            games.len()
        );
        println!(
            "| slip | injected | still legal | illegal | restored | left | wrong | restored % | wrong % |"
        );
        println!("|---|---|---|---|---|---|---|---|---|");
        let mut total = Row::default();
        for (ki, kind) in KINDS.iter().enumerate() {
            if filter.as_deref().is_some_and(|f| !kind.contains(f)) {
                continue;
            }
            let mut rng = Rng(0x5EED ^ ((ki as u64) << 32) ^ u64::from(variant.game_type()));
            let mut row = Row::default();
            let mut order: Vec<usize> = (0..games.len()).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
            let mut used = 0;
            for &gi in &order {
                if used >= per_kind {
                    break;
                }
                let c = &games[gi];
                let Some((written, j)) = inject(kind, c, n_squares, &mut rng) else {
                    continue;
                };
                let text = match *kind {
                    "missing-ply#" => record_numbered(variant, c, &[j]),
                    "missing-move#" => record_numbered(variant, c, &[j, j + 1]),
                    _ => record(variant, c, &written),
                };
                used += 1;
                let show = show.as_deref() == Some(kind);
                judge(variant, c, &written, &text, &[], &mut row, show);
            }
            print_row(kind, &row);
            if mixed(kind) {
                total.add(&row);
            }
        }
        print_row("**all kinds but separator and `#`**", &total);
        if filter.is_none() {
            two_slips(
                variant,
                &games,
                n_squares,
                per_kind,
                show.as_deref() == Some("two"),
            );
            speed(variant, &games, n_squares, out_dir.as_deref());
        }
    }
}

fn print_row(name: &str, r: &Row) {
    println!(
        "| {name} | {} | {} | {} | {} | {} | {} | {} | {} |{}",
        r.injected,
        r.legal,
        r.illegal(),
        r.restored,
        r.left,
        r.wrong,
        pct(r.restored, r.illegal()),
        pct(r.wrong, r.illegal()),
        if r.legal_changed > 0 {
            format!(" {} LEGAL RECORDS CHANGED", r.legal_changed)
        } else {
            String::new()
        }
    );
}

/// Games with two slips of random kinds, at least 16 plies apart.
fn two_slips(variant: Variant, games: &[Clean], n_squares: u32, n: usize, show: bool) {
    let kinds = mixed_kinds();
    let mut rng = Rng(0x7770 ^ u64::from(variant.game_type()));
    let mut row = Row::default();
    let mut used = 0;
    for c in games {
        if used >= n {
            break;
        }
        if c.moves.len() < 48 {
            continue;
        }
        // The first slip in the first half, the second in the second.
        let half = c.moves.len() / 2;
        let a = Clean {
            moves: c.moves[..half].to_vec(),
            ..c.clone()
        };
        let Some((first, _)) = inject(kinds[rng.below(kinds.len())], &a, n_squares, &mut rng)
        else {
            continue;
        };
        let b = Clean {
            moves: c.moves[half..].to_vec(),
            first_moves_first: (half % 2 == 0) == c.first_moves_first,
            ..c.clone()
        };
        let Some((second, j)) = inject(kinds[rng.below(kinds.len())], &b, n_squares, &mut rng)
        else {
            continue;
        };
        if j < 16 {
            continue;
        }
        // One slip restored, the other left: as `fix` writes them (a slip that left its half
        // legal is written canonically).
        let partial: Vec<Vec<String>> = [
            [c.moves[..half].to_vec(), second.clone()].concat(),
            [first.clone(), c.moves[half..].to_vec()].concat(),
        ]
        .iter()
        .map(|moves| {
            let text = record(variant, c, moves);
            let g = read_games(text.as_bytes()).into_iter().next().unwrap();
            written_line(&g, variant)
        })
        .collect();
        let mut written = first;
        written.extend(second);
        used += 1;
        let text = record(variant, c, &written);
        judge(variant, c, &written, &text, &partial, &mut row, show);
    }
    print_row("two slips (one per half)", &row);
    println!(
        "\ntwo slips: {} restored both, {} restored one and left the other, {} left both, {} wrong",
        row.restored, row.partial, row.left, row.wrong
    );
}

/// `fix --repair` on the clean games with 5% of them slipped (kinds in turn), in process on
/// one thread: plies per second.
fn speed(variant: Variant, games: &[Clean], n_squares: u32, out_dir: Option<&Path>) {
    let kinds = mixed_kinds();
    let mut rng = Rng(0xFA57 ^ u64::from(variant.game_type()));
    let mut text = String::new();
    let mut bad = 0;
    let mut turn = 0;
    for (i, c) in games.iter().enumerate() {
        let mut written = c.moves.clone();
        if i % 20 == 7 {
            // The kinds in turn (one that does not apply to this game: the next).
            for _ in 0..kinds.len() {
                let kind = kinds[turn % kinds.len()];
                turn += 1;
                if let Some((w, _)) = inject(kind, c, n_squares, &mut rng) {
                    bad += 1;
                    written = w;
                    break;
                }
            }
        }
        text.push_str(&record(variant, c, &written));
    }
    if let Some(dir) = out_dir {
        let _ = std::fs::create_dir_all(dir);
        let path = dir.join(format!("{}-5pct.pdn", variant.name()));
        std::fs::write(&path, &text).unwrap();
        println!("\narchive written: {}", path.display());
    }
    let parsed = read_games(text.as_bytes());
    let plies: u64 = games.iter().map(|c| c.moves.len() as u64).sum();
    let opts = FixOptions {
        repair: true,
        ..FixOptions::default()
    };
    let mut best = f64::MAX;
    for _ in 0..3 {
        let gs = parsed.clone();
        let t = Instant::now();
        let mut repairs = 0;
        for g in gs {
            repairs += fix(g, &opts).repairs;
        }
        best = best.min(t.elapsed().as_secs_f64());
        let _ = repairs;
    }
    println!(
        "\nspeed: fix --repair, {} games ({bad} with a slip, {:.1}%), {plies} plies: {:.3} s = {:.0} plies/s on one core",
        games.len(),
        100.0 * bad as f64 / games.len().max(1) as f64,
        best,
        plies as f64 / best
    );
}
