//! Legal move generation for every variant from its [`Rules`]: quiet moves, the capture
//! search (coup turc / immediate removal, flying and short kings, passing promotion, the
//! 180° ban), capture precedence, and the relaxed generators used to explain illegal moves.

use std::marker::PhantomData;

use super::Spec;
use super::bits::Bits;
use super::color::Color;
use super::geometry::{Dir, DirSet, Geometry, Shape};
use super::position::{Move, MoveList, Position, Step};
use super::variant::{KingRange, PassingPromotion, Precedence, Removal, Rules};

/// Changes to the rules for generating moves that are *not* legal, to explain why a recorded
/// move is illegal ("would it be legal if …?"), and for counting every capture route.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// List every capture route separately instead of one route per (from, to, captured set).
    pub keep_duplicates: bool,
    /// Also list every capture that stops before it is complete.
    pub partial: bool,
    /// Let men move and capture as kings (premature promotion).
    pub men_as_kings: bool,
    /// Also list non-capturing moves when a capture is available.
    pub captures_optional: bool,
    /// Ignore the majority and quality rules (free choice among captures).
    pub ignore_precedence: bool,
    /// With `keep_duplicates`: also count a flying king that lands further behind a captured
    /// piece and flies straight on as a route of its own (the convention of kish and
    /// pydraughts; dctl counts that movement once, from the first square behind).
    pub every_landing: bool,
}

/// Rules and options for one generator instantiation. The fast path uses a zero-sized
/// implementation whose answers are compile-time constants.
pub(crate) trait Config: Copy {
    fn rules(&self) -> &Rules;
    fn options(&self) -> Options;
    /// Only the captures from the first square to the second are recorded (every other
    /// capture still raises the precedence they must match): see [`Toward`].
    #[inline(always)]
    fn target(&self) -> Option<(u32, u32)> {
        None
    }
}

/// Compile-time rules, no relaxation: the rules of variant `V`, a constant in every function
/// of the search, the recursive ones included (a pointer to the rules held in the search
/// would be read from memory there, and every rule tested at run time).
pub(crate) struct Fixed<V: ?Sized>(PhantomData<V>);

impl<V: ?Sized> Fixed<V> {
    /// The configuration of variant `V`.
    #[inline(always)]
    pub(crate) fn new() -> Self {
        Fixed(PhantomData)
    }
}

impl<V: ?Sized> Clone for Fixed<V> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: ?Sized> Copy for Fixed<V> {}

impl<V: Spec + ?Sized> Config for Fixed<V> {
    #[inline(always)]
    fn rules(&self) -> &Rules {
        V::RULES
    }
    #[inline(always)]
    fn options(&self) -> Options {
        Options::default()
    }
}

/// Compile-time rules, no relaxation, and only the captures between two squares recorded:
/// what checking a capture written `from x to` needs (whether it is legal, which routes it
/// may take) without recording every other piece's routes. The list then holds exactly the
/// legal moves of [`Fixed`] that go from `from` to `to` and capture, in the same order with
/// the same routes.
pub(crate) struct Toward<V: ?Sized> {
    pub from: u32,
    pub to: u32,
    pub variant: PhantomData<V>,
}

impl<V: ?Sized> Clone for Toward<V> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<V: ?Sized> Copy for Toward<V> {}

impl<V: Spec + ?Sized> Config for Toward<V> {
    #[inline(always)]
    fn rules(&self) -> &Rules {
        V::RULES
    }
    #[inline(always)]
    fn options(&self) -> Options {
        Options::default()
    }
    #[inline(always)]
    fn target(&self) -> Option<(u32, u32)> {
        Some((self.from, self.to))
    }
}

/// Run-time rules and options.
#[derive(Clone, Copy)]
pub(crate) struct Relaxed<'a> {
    pub rules: &'a Rules,
    pub options: Options,
}

impl Config for Relaxed<'_> {
    fn rules(&self) -> &Rules {
        self.rules
    }
    fn options(&self) -> Options {
        self.options
    }
}

/// What moves are generated for: a position, its board and the rules (with their options).
#[derive(Clone, Copy)]
pub(crate) struct Gen<'a, B, C> {
    pub geo: &'a Geometry<B>,
    pub cfg: C,
    pub pos: &'a Position<B>,
}

impl<B: Bits, C: Config> Gen<'_, B, C> {
    /// Generate the moves of the side to move into `out`.
    #[inline(always)]
    pub(crate) fn generate(self, out: &mut MoveList<B>) {
        out.clear();
        self.captures(out);
        if out.is_empty() || self.cfg.options().captures_optional {
            self.quiet(out);
        }
    }

    /// Number of legal moves (bulk counting for perft): captures are generated (they must
    /// be told apart), non-capturing moves are only counted.
    #[inline(always)]
    pub(crate) fn count(self, scratch: &mut MoveList<B>) -> u64 {
        scratch.clear();
        self.captures(scratch);
        if !scratch.is_empty() {
            return scratch.len() as u64;
        }
        let Gen { geo, cfg, pos } = self;
        let rules = cfg.rules();
        let side = pos.side();
        let empty = geo.mask & !pos.occupied();
        let men = pos.men_of(side);
        let mut n = 0;
        for d in rules.man_move_dirs(side).iter() {
            n += (geo.step(men, d) & empty).count() as u64;
        }
        let kings = pos.kings_of(side) & !barred_king(rules, pos);
        for k in kings.iter() {
            for d in rules.king_moves.iter() {
                n += king_reach(geo, rules, k, d, empty).count() as u64;
            }
        }
        n
    }

    /// True if the side to move has a legal move (what [`Self::generate`] lists is not empty),
    /// without listing any: a non-capturing move (a man's step, a king's move the rules allow
    /// it) is looked for first, with a few operations on the whole board; else a capture.
    /// Either kind makes the list non-empty: captures are listed when there is one, else the
    /// non-capturing moves. For the rules' own options (those of [`Fixed`]): [`has_capture`]
    /// knows no other.
    #[inline(always)]
    pub(crate) fn has_move(self) -> bool {
        let Gen { geo, cfg, pos } = self;
        let rules = cfg.rules();
        let side = pos.side();
        let empty = geo.mask & !pos.occupied();
        let men = pos.men_of(side);
        for d in rules.man_move_dirs(side).iter() {
            if (geo.step(men, d) & empty).any() {
                return true;
            }
        }
        let kings = pos.kings_of(side) & !barred_king(rules, pos);
        for k in kings.iter() {
            for d in rules.king_moves.iter() {
                if king_reach(geo, rules, k, d, empty).any() {
                    return true;
                }
            }
        }
        has_capture(geo, cfg, pos)
    }

    /// The captures only (an empty list when there is none), for a [`Toward`] configuration.
    #[inline(always)]
    pub(crate) fn captures_only(self, out: &mut MoveList<B>) {
        out.clear();
        if let Some((from, to)) = self.cfg.target()
            && let Some(single) = self.single_jump(from, to)
        {
            if let Some((m, step, score)) = single {
                out.stack.clear();
                out.stack.push(step);
                out.push_capture(m, score, false);
                out.stack.clear();
            }
            return;
        }
        self.captures(out);
    }

    /// The common capture position answered without the search: on a diagonal board where
    /// men capture diagonally, when no king of the side to move can capture and no man can
    /// jump twice, every capture is one jump of a man, and all have the same precedence (unless
    /// the rules rank the pieces taken and a man can take a king: then `None`, as for any
    /// other position). The answer is then the one jump from `from` to `to` if the man on
    /// `from` can make it (with its route and precedence score), else nothing: what
    /// [`Self::captures`] lists between the two squares.
    #[inline(always)]
    pub(super) fn single_jump(self, from: u32, to: u32) -> Option<Option<(Move<B>, Step, u64)>> {
        let Gen { geo, cfg, pos } = self;
        let rules = cfg.rules();
        let side = pos.side();
        let dirs = rules.man_capture_dirs(side);
        let Shape::Diagonal { width, .. } = rules.shape else {
            return None;
        };
        if dirs.0 & !DirSet::DIAGONAL.0 != 0 || cfg.options() != Options::default() {
            return None;
        }
        // Kings of the side to move that cannot capture take no part (a man's capture is
        // scored the same with them or without).
        let kings = pos.kings_of(side);
        if kings.any() && kings_capture(geo, rules, pos, kings) {
            return None;
        }
        let them = side.other();
        let kings_taken = rules.men_capture_kings && pos.kings_of(them).any();
        let score = match rules.precedence {
            Precedence::Free | Precedence::KingFirst => 0,
            Precedence::Quantity => 1,
            _ if kings_taken => return None,
            // One man's jump over a man (`Search::score` with one step, no king).
            Precedence::QuantityThenKings => 1 << 8,
            Precedence::Value => 256 << 1,
            Precedence::Italian => 1 << 40,
        };
        let half = u32::from(width) / 2;
        let targets = if rules.men_capture_kings {
            pos.pieces(them)
        } else {
            pos.men_of(them)
        };
        let empty = geo.mask & !pos.occupied();
        let men = pos.men_of(side);
        let promo = geo.promotion_row(side);
        let at = B::bit(from);
        // Where a jump can start, by direction (in the order of `Dir::ALL`: NW, SE, NE, SW,
        // each the opposite of its neighbour in its pair).
        let s = [
            jump_starts(half, dirs, Dir::NW, targets, empty),
            jump_starts(half, dirs, Dir::SE, targets, empty),
            jump_starts(half, dirs, Dir::NE, targets, empty),
            jump_starts(half, dirs, Dir::SW, targets, empty),
        ];
        let (nw, nw_at) = jumps_toward(half, rules, Dir::NW, men & s[0], at, promo)?;
        let (se, se_at) = jumps_toward(half, rules, Dir::SE, men & s[1], at, promo)?;
        let (ne, ne_at) = jumps_toward(half, rules, Dir::NE, men & s[2], at, promo)?;
        let (sw, sw_at) = jumps_toward(half, rules, Dir::SW, men & s[3], at, promo)?;
        // A second jump from a landing square, in any direction but back over the piece just
        // taken (the landing is empty; the start square is only reached back over it): then
        // captures differ in length, and the search decides.
        let second = (nw & (s[0] | s[2] | s[3]))
            | (se & (s[1] | s[2] | s[3]))
            | (ne & (s[0] | s[1] | s[2]))
            | (sw & (s[0] | s[1] | s[3]));
        if second.any() {
            return None;
        }
        if !(nw_at | se_at | ne_at | sw_at).has(to) {
            return Some(None);
        }
        // A jump is two steps of one shift each: the piece taken is halfway.
        let over = (from + to) / 2;
        let m = Move::new(from, to, B::bit(over), promo.has(to), false);
        let route = Step {
            captured: over as u8,
            landing: to as u8,
        };
        Some(Some((m, route, score)))
    }
}

/// The squares from which a man of the side to move can start a capture.
#[inline(always)]
fn man_capturers<B: Bits>(geo: &Geometry<B>, rules: &Rules, pos: &Position<B>, men: B) -> B {
    let side = pos.side();
    let them = side.other();
    let empty = geo.mask & !pos.occupied();
    let targets = if rules.men_capture_kings {
        pos.pieces(them)
    } else {
        pos.men_of(them)
    };
    let mut from = B::ZERO;
    for d in rules.man_capture_dirs(side).iter() {
        let back = d.opposite();
        from |= men & geo.step(targets & geo.step(empty, back), back);
    }
    from
}

/// [`man_capturers`] on a diagonal board of half-width `half` (a constant where the variant
/// is known): each diagonal step is a shift by `half` or `half + 1` (`geometry`'s layout,
/// where a step off the board lands on a ghost bit or outside the board), so no mask of
/// the squares that can step is needed: the pieces and empty squares are all on the board.
#[inline(always)]
fn diagonal_man_capturers<B: Bits>(
    half: u32,
    rules: &Rules,
    pos: &Position<B>,
    men: B,
    empty: B,
) -> B {
    let side = pos.side();
    let targets = if rules.men_capture_kings {
        pos.pieces(side.other())
    } else {
        pos.men_of(side.other())
    };
    let dirs = rules.man_capture_dirs(side);
    men & (jump_starts(half, dirs, Dir::NW, targets, empty)
        | jump_starts(half, dirs, Dir::SE, targets, empty)
        | jump_starts(half, dirs, Dir::NE, targets, empty)
        | jump_starts(half, dirs, Dir::SW, targets, empty))
}

/// The squares from which a man can jump in direction `d` on a diagonal board of half-width
/// `half` (a target next to it that way, an empty square behind), whatever stands on them;
/// nothing if `d` is not one of `dirs`. Called with each direction written out, so that every
/// shift is a constant (a loop over the directions, or a closure, is not always unrolled or
/// inlined, and a direction known only at run time is a jump table).
#[inline(always)]
fn jump_starts<B: Bits>(half: u32, dirs: DirSet, d: Dir, targets: B, empty: B) -> B {
    if !dirs.has(d) {
        return B::ZERO;
    }
    // Back from an empty square over a target, in the direction opposite to `d`.
    let back = |x: B| diagonal_step(half, d.opposite(), x);
    back(targets & back(empty))
}

/// For [`Gen::single_jump`]: the landing squares of the jumps in direction `d` of the men
/// `jumpers` (those of [`jump_starts`]) from which the capture may go on as a man, and the
/// landing of the one on `at` if it is among them; `None` if a jump crowns a man that
/// captures on as a king (the search decides).
#[inline(always)]
fn jumps_toward<B: Bits>(
    half: u32,
    rules: &Rules,
    d: Dir,
    jumpers: B,
    at: B,
    promo: B,
) -> Option<(B, B)> {
    let two = |x: B| diagonal_step(half, d, diagonal_step(half, d, x));
    let lands = two(jumpers);
    let going_on = match rules.passing_promotion {
        PassingPromotion::ContinuesAsKing if (lands & promo).any() => return None,
        PassingPromotion::EndsMove => lands & !promo,
        _ => lands,
    };
    Some((going_on, two(jumpers & at)))
}

/// The bit of direction `d` if a man on `at` can jump that way (a target next to it, an
/// empty square behind), else 0.
#[inline(always)]
fn jump_bit<B: Bits>(half: u32, d: Dir, at: B, targets: B, empty: B) -> u8 {
    let over = diagonal_step(half, d, at) & targets;
    if (diagonal_step(half, d, over) & empty).any() {
        d.mask()
    } else {
        0
    }
}

/// [`diagonal_step`] if `d` is one of `dirs`, else nothing.
#[inline(always)]
fn step_in<B: Bits>(half: u32, dirs: DirSet, d: Dir, x: B) -> B {
    if dirs.has(d) {
        diagonal_step(half, d, x)
    } else {
        B::ZERO
    }
}

/// One diagonal step in direction `d` of every square of `x` on a diagonal board of
/// half-width `half` (see [`diagonal_shift`]): a square leaving the board lands on a ghost
/// bit or outside the set.
#[inline(always)]
fn diagonal_step<B: Bits>(half: u32, d: Dir, x: B) -> B {
    let (n, higher) = diagonal_shift(half, d);
    if higher {
        x.shift_higher(n)
    } else {
        x.shift_lower(n)
    }
}

/// True if `to` is one step of a man of the side `side` from `from` (both squares of the
/// board): by shifts on a diagonal board where men move diagonally, else through the
/// geometry's tables ([`Geometry::is_step`]).
#[inline(always)]
pub(crate) fn is_man_step<B: Bits>(
    geo: &Geometry<B>,
    rules: &Rules,
    side: Color,
    from: u32,
    to: u32,
) -> bool {
    let dirs = rules.man_move_dirs(side);
    match rules.shape {
        Shape::Diagonal { width, .. } if dirs.0 & !DirSet::DIAGONAL.0 == 0 => {
            let half = u32::from(width) / 2;
            let at = B::bit(from);
            // Each direction written out: every shift a constant.
            (step_in(half, dirs, Dir::NW, at)
                | step_in(half, dirs, Dir::SE, at)
                | step_in(half, dirs, Dir::NE, at)
                | step_in(half, dirs, Dir::SW, at))
            .has(to)
        }
        _ => geo.is_step(from, to, dirs),
    }
}

/// The shift of one diagonal step in direction `d` on a diagonal board of half-width
/// `half`: its size and whether it goes to higher bits.
#[inline(always)]
fn diagonal_shift(half: u32, d: Dir) -> (u32, bool) {
    match d {
        Dir::NW => (half + 1, false),
        Dir::NE => (half, false),
        Dir::SW => (half, true),
        Dir::SE => (half + 1, true),
        // Never asked: men of diagonal boards capture diagonally.
        _ => (0, true),
    }
}

/// The squares from which a man of the side to move can start a capture: through
/// [`diagonal_man_capturers`] where the rules' board is diagonal and men capture
/// diagonally (known at compile time for a variant's rules), else [`man_capturers`].
#[inline(always)]
fn capturers<B: Bits>(geo: &Geometry<B>, rules: &Rules, pos: &Position<B>, men: B) -> B {
    match rules.shape {
        Shape::Diagonal { width, .. }
            if rules.man_capture_dirs(pos.side()).0 & !DirSet::DIAGONAL.0 == 0 =>
        {
            let empty = geo.mask & !pos.occupied();
            diagonal_man_capturers(u32::from(width) / 2, rules, pos, men, empty)
        }
        _ => man_capturers(geo, rules, pos, men),
    }
}

/// True if the side to move has a capture (the rule of mandatory capture applies).
#[inline(always)]
pub(crate) fn has_capture<B: Bits, C: Config>(
    geo: &Geometry<B>,
    cfg: C,
    pos: &Position<B>,
) -> bool {
    let rules = cfg.rules();
    let side = pos.side();
    let men = pos.men_of(side);
    if capturers(geo, rules, pos, men).any() {
        return true;
    }
    let kings = pos.kings_of(side);
    kings.any() && kings_capture(geo, rules, pos, kings)
}

/// True if one of `kings` (kings of the side to move) has a first jump.
#[inline(always)]
fn kings_capture<B: Bits>(geo: &Geometry<B>, rules: &Rules, pos: &Position<B>, kings: B) -> bool {
    let empty = geo.mask & !pos.occupied();
    let targets = pos.pieces(pos.side().other());
    for k in kings.iter() {
        for d in rules.king_captures.iter() {
            if king_jump(geo, rules, k, d, empty, targets).is_some() {
                return true;
            }
        }
    }
    false
}

/// The first jump of a king from `sq` in direction `d`: the captured square and the set of
/// landing squares, or `None`.
#[inline(always)]
fn king_jump<B: Bits>(
    geo: &Geometry<B>,
    rules: &Rules,
    sq: u32,
    d: Dir,
    empty: B,
    targets: B,
) -> Option<(u32, B)> {
    match rules.king_range {
        KingRange::Short => {
            let t = geo.neighbour(sq, d)?;
            if !targets.has(t) {
                return None;
            }
            let l = geo.neighbour(t, d)?;
            empty.has(l).then(|| (t, B::bit(l)))
        }
        KingRange::Flying | KingRange::FlyingLandsBehind => {
            let blockers = geo.ray(sq, d) & !empty;
            if blockers.is_empty() {
                return None;
            }
            let t = geo.nearest(blockers, d);
            if !targets.has(t) {
                return None;
            }
            if rules.king_range == KingRange::FlyingLandsBehind {
                let l = geo.neighbour(t, d)?;
                return empty.has(l).then(|| (t, B::bit(l)));
            }
            let beyond = geo.ray(t, d);
            let stop = beyond & !empty;
            let lands = if stop.is_empty() {
                beyond
            } else {
                let u = geo.nearest(stop, d);
                beyond & !(geo.ray(u, d) | B::bit(u))
            };
            lands.any().then_some((t, lands))
        }
    }
}

/// Squares a king on `sq` reaches with a non-capturing move in direction `d`.
#[inline(always)]
fn king_reach<B: Bits>(geo: &Geometry<B>, rules: &Rules, sq: u32, d: Dir, empty: B) -> B {
    match rules.king_range {
        KingRange::Short => match geo.neighbour(sq, d) {
            Some(t) if empty.has(t) => B::bit(t),
            _ => B::ZERO,
        },
        KingRange::Flying | KingRange::FlyingLandsBehind => {
            let ray = geo.ray(sq, d);
            let blockers = ray & !empty;
            if blockers.is_empty() {
                ray
            } else {
                let u = geo.nearest(blockers, d);
                ray & !(geo.ray(u, d) | B::bit(u))
            }
        }
    }
}

impl Options {
    /// The men of the side to move split into those that move as men and those that move as
    /// kings ([`Options::men_as_kings`]: all of them, or none).
    #[inline(always)]
    fn split_men<B: Bits>(&self, men: B) -> (B, B) {
        if self.men_as_kings {
            (B::ZERO, men)
        } else {
            (men, B::ZERO)
        }
    }
}

/// The king of `side` barred from non-capturing moves by the Frisian same-king limit.
#[inline(always)]
fn barred_king<B: Bits>(rules: &Rules, pos: &Position<B>) -> B {
    if rules.same_king_limit == 0 {
        return B::ZERO;
    }
    let side = pos.side();
    let run = pos.king_run(side);
    if run.count >= rules.same_king_limit
        && pos.men_of(side).any()
        && pos.kings_of(side).has(run.square as u32)
    {
        B::bit(run.square as u32)
    } else {
        B::ZERO
    }
}

impl<B: Bits, C: Config> Gen<'_, B, C> {
    /// The non-capturing moves.
    #[inline(always)]
    fn quiet(self, out: &mut MoveList<B>) {
        let Gen { geo, cfg, pos } = self;
        let rules = cfg.rules();
        let side = pos.side();
        let empty = geo.mask & !pos.occupied();
        let promo = geo.promotion_row(side);
        let (men, as_kings) = cfg.options().split_men(pos.men_of(side));
        for d in rules.man_move_dirs(side).iter() {
            let shift = geo.shift(d);
            for to in (geo.step(men, d) & empty).iter() {
                let from = (to as i32 - shift) as u32;
                out.push_quiet(Move::new(from, to, B::ZERO, promo.has(to), false));
            }
        }
        let kings = pos.kings_of(side) & !barred_king(rules, pos);
        for k in (kings | as_kings).iter() {
            let is_king = kings.has(k);
            for d in rules.king_moves.iter() {
                for to in king_reach(geo, rules, k, d, empty).iter() {
                    let promotes = !is_king && promo.has(to);
                    out.push_quiet(Move::new(k, to, B::ZERO, promotes, is_king));
                }
            }
        }
    }

    /// The captures, of the precedence the rules demand.
    #[inline(always)]
    fn captures(self, out: &mut MoveList<B>) {
        let Gen { geo, cfg, pos } = self;
        let rules = cfg.rules();
        let side = pos.side();
        let them = side.other();
        let kings = pos.kings_of(side);
        let (men, as_kings) = cfg.options().split_men(pos.men_of(side));
        // Of the men, only those with a first jump start a search.
        let mut men = capturers(geo, rules, pos, men);
        let mut movers = kings | as_kings;
        if let Some((from, _)) = cfg.target()
            && rules.precedence == Precedence::Free
        {
            // No precedence to compare with: the other pieces' captures do not matter.
            men &= B::bit(from);
            movers &= B::bit(from);
        }
        if men.is_empty() && movers.is_empty() {
            return;
        }
        let mut s = Search {
            geo,
            cfg,
            side,
            promo: geo.promotion_row(side),
            from: 0,
            by_king: false,
            crowned: false,
            targets: pos.pieces(them),
            their_kings: pos.kings_of(them),
            empty: geo.mask & !pos.occupied(),
            captured: B::ZERO,
            out,
        };
        s.out.stack.clear();
        for sq in men.iter() {
            s.start(sq, false);
            s.man(sq, None);
            s.finish(sq);
        }
        for sq in movers.iter() {
            let is_king = kings.has(sq);
            s.start(sq, is_king);
            s.king(sq, None, true);
            s.finish(sq);
        }
    }
}

/// More jumps than any capture can make: each jumps a different enemy piece.
const MAX_STEPS: usize = 128;

struct Search<'g, 'o, B: Bits, C: Config> {
    geo: &'g Geometry<B>,
    cfg: C,
    side: Color,
    promo: B,
    from: u32,
    by_king: bool,
    crowned: bool,
    /// Enemy pieces that may still be jumped.
    targets: B,
    their_kings: B,
    /// Squares the capturing piece may land on or fly over.
    empty: B,
    captured: B,
    out: &'o mut MoveList<B>,
}

impl<B: Bits, C: Config> Search<'_, '_, B, C> {
    #[inline(always)]
    fn start(&mut self, sq: u32, is_king: bool) {
        self.from = sq;
        self.by_king = is_king;
        self.crowned = false;
        self.empty |= B::bit(sq);
    }

    #[inline(always)]
    fn finish(&mut self, sq: u32) {
        self.empty &= !B::bit(sq);
    }

    #[inline(always)]
    fn take(&mut self, t: u32, l: u32) {
        let b = B::bit(t);
        self.targets &= !b;
        self.captured |= b;
        if self.cfg.rules().removal == Removal::Immediate {
            self.empty |= b;
        }
        self.out.stack.push(Step {
            captured: t as u8,
            landing: l as u8,
        });
    }

    /// Number of jumps so far.
    #[inline(always)]
    fn depth(&self) -> usize {
        self.out.stack.len()
    }

    #[inline(always)]
    fn untake(&mut self, t: u32) {
        let b = B::bit(t);
        self.targets |= b;
        self.captured &= !b;
        if self.cfg.rules().removal == Removal::Immediate {
            self.empty &= !b;
        }
        self.out.stack.pop();
    }

    fn man(&mut self, sq: u32, last: Option<Dir>) {
        let cfg = self.cfg;
        let rules = cfg.rules();
        let opts = cfg.options();
        let targets = if rules.men_capture_kings {
            self.targets
        } else {
            self.targets & !self.their_kings
        };
        let mut extended = false;
        // Only the directions with a jump now (most captures end after one jump: then none).
        let dirs = self.man_jump_dirs(sq, targets);
        for d in dirs.iter() {
            if rules.no_reversal && last == Some(d.opposite()) {
                continue;
            }
            let Some((t, l)) = self.geo.jump(sq, d) else {
                continue;
            };
            if !targets.has(t) || !self.empty.has(l) {
                continue;
            }
            extended = true;
            if self.depth() >= MAX_STEPS {
                continue;
            }
            self.take(t, l);
            if self.promo.has(l) {
                match rules.passing_promotion {
                    PassingPromotion::EndsMove => self.record(l),
                    PassingPromotion::ContinuesAsKing => {
                        self.crowned = true;
                        self.king(l, Some(d), true);
                        self.crowned = false;
                    }
                    PassingPromotion::StaysMan => self.man(l, Some(d)),
                }
            } else {
                self.man(l, Some(d));
            }
            self.untake(t);
        }
        if self.depth() > 0 && (!extended || opts.partial) {
            self.record(sq);
        }
    }

    /// The directions of the rules in which a man on `sq` can jump over one of `targets`
    /// now. On a diagonal board (each step a shift, see [`diagonal_man_capturers`]) the four
    /// are tested with shifts, without a walk through the geometry's tables; elsewhere every
    /// direction of the rules is returned and [`Self::man`] tests each. The directions keep
    /// their order, so the routes are found in the same order either way.
    #[inline(always)]
    fn man_jump_dirs(&self, sq: u32, targets: B) -> DirSet {
        let rules = self.cfg.rules();
        let dirs = rules.man_capture_dirs(self.side);
        match rules.shape {
            Shape::Diagonal { width, .. } if dirs.0 & !DirSet::DIAGONAL.0 == 0 => {
                let half = u32::from(width) / 2;
                let at = B::bit(sq);
                // Each direction written out: every shift a constant.
                let e = self.empty;
                let with = jump_bit(half, Dir::NW, at, targets, e)
                    | jump_bit(half, Dir::SE, at, targets, e)
                    | jump_bit(half, Dir::NE, at, targets, e)
                    | jump_bit(half, Dir::SW, at, targets, e);
                DirSet(with & dirs.0)
            }
            _ => dirs,
        }
    }

    /// Go on capturing with a king standing on `sq`. `last` is the direction of the jump that
    /// brought it there; `straight` says whether going on in that same direction is a new
    /// route (only from the first square behind the captured piece: from a square further
    /// on, flying straight on is the same movement).
    fn king(&mut self, sq: u32, last: Option<Dir>, straight: bool) {
        let cfg = self.cfg;
        let rules = cfg.rules();
        let opts = cfg.options();
        let mut extended = false;
        for d in rules.king_captures.iter() {
            if last == Some(d) && !straight || rules.no_reversal && last == Some(d.opposite()) {
                continue;
            }
            let Some((t, lands)) = king_jump(self.geo, rules, sq, d, self.empty, self.targets)
            else {
                continue;
            };
            extended = true;
            if self.depth() >= MAX_STEPS {
                continue;
            }
            self.take(t, 0);
            // The square right behind the captured piece.
            let first = self.geo.neighbour(t, d).unwrap_or(0);
            // A capture must go on when it can: of several landing squares, only those from
            // which the capture continues may be chosen, if there are any.
            let mut lands = lands;
            // True when no landing square goes on: each ends the capture, as the search
            // from it would find (it asks what `can_continue` asked).
            let mut ends = false;
            if !opts.partial && lands.several() {
                let going_on = lands
                    .iter()
                    .filter(|&l| self.can_continue(l, d, l == first || opts.every_landing))
                    .fold(B::ZERO, |acc, l| acc | B::bit(l));
                if going_on.any() {
                    lands = going_on;
                } else {
                    ends = true;
                }
            }
            for l in lands.iter() {
                if let Some(top) = self.out.stack.last_mut() {
                    top.landing = l as u8;
                }
                if ends {
                    self.record(l);
                } else {
                    self.king(l, Some(d), l == first || opts.every_landing);
                }
            }
            self.untake(t);
        }
        if self.depth() > 0 && (!extended || opts.partial) {
            self.record(sq);
        }
    }

    /// True if a king on `sq`, having arrived in direction `last`, can capture again
    /// (straight on only if `straight`).
    #[inline]
    fn can_continue(&self, sq: u32, last: Dir, straight: bool) -> bool {
        let rules = self.cfg.rules();
        rules.king_captures.iter().any(|d| {
            !(d == last && !straight || rules.no_reversal && d == last.opposite())
                && king_jump(self.geo, rules, sq, d, self.empty, self.targets).is_some()
        })
    }

    fn record(&mut self, to: u32) {
        let cfg = self.cfg;
        let rules = cfg.rules();
        let opts = cfg.options();
        let score = if opts.ignore_precedence {
            0
        } else {
            self.score(rules.precedence)
        };
        if let Some((from, want)) = cfg.target()
            && (self.from != from || to != want)
        {
            // Not the capture asked about: only its precedence counts.
            self.out.raise(score);
            return;
        }
        let promotes = !self.by_king && (self.crowned || self.promo.has(to));
        let m = Move::new(self.from, to, self.captured, promotes, self.by_king);
        self.out.push_capture(m, score, opts.keep_duplicates);
    }

    #[inline]
    fn score(&self, precedence: Precedence) -> u64 {
        let n = self.depth() as u64;
        match precedence {
            Precedence::Free => 0,
            Precedence::Quantity => n,
            Precedence::QuantityThenKings => {
                (n << 8) | (self.captured & self.their_kings).count() as u64
            }
            Precedence::KingFirst => self.by_king as u64,
            Precedence::Value => {
                let k = (self.captured & self.their_kings).count() as u64;
                (((n + k) * 256 - k) << 1) | self.by_king as u64
            }
            Precedence::Italian => {
                let k = (self.captured & self.their_kings).count() as u64;
                let mut order = 0u64;
                for (i, s) in self.out.stack.iter().enumerate().take(24) {
                    if self.their_kings.has(s.captured as u32) {
                        order |= 1 << (23 - i);
                    }
                }
                (n << 40) | ((self.by_king as u64) << 32) | (k << 24) | order
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Spec;
    use crate::rules::geometry::{diagonal_8, diagonal_10, diagonal_12};

    /// The layout's promise behind [`diagonal_man_capturers`]: a diagonal step is a plain
    /// shift, whatever leaves the board landing on no square of it.
    #[test]
    fn a_diagonal_step_is_a_shift_on_every_diagonal_board() {
        fn check<B: Bits>(g: &Geometry<B>, half: u32) {
            for d in DirSet::DIAGONAL.iter() {
                let (n, higher) = diagonal_shift(half, d);
                let shift = |x: B| {
                    if higher {
                        x.shift_higher(n)
                    } else {
                        x.shift_lower(n)
                    }
                };
                assert_eq!(g.step(g.mask, d), shift(g.mask) & g.mask, "{d:?}");
                for b in g.mask.iter() {
                    let one = B::bit(b);
                    assert_eq!(g.step(one, d), shift(one) & g.mask, "{d:?} {b}");
                }
            }
        }
        check(diagonal_8(), 4);
        check(diagonal_10(), 5);
        check(diagonal_12(), 6);
    }

    /// [`capturers`] reads the board from the rules: it is the geometry's.
    #[test]
    fn every_variant_plays_on_the_board_its_rules_name() {
        for v in crate::rules::Variant::ALL {
            let same = crate::with_variant!(v, V => V::geometry().shape == V::RULES.shape);
            assert!(same, "{v:?}");
        }
    }
}
