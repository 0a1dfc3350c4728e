//! The rules layer: board geometry, variants, positions, move generation, FEN, notation and
//! perft. It knows nothing of PDN files.
//!
//! Each variant is a zero-sized type implementing [`Spec`]; its rules are a constant
//! [`Rules`] value, so the generic move generator is compiled once per variant with every
//! rule folded to a constant. Code that chooses the variant at run time dispatches once with
//! [`with_variant!`](crate::with_variant).
//!
//! ```
//! use pdn::rules::{Spec, spec::International, MoveList};
//!
//! let pos = International::start();
//! let mut moves = MoveList::new();
//! International::legal_moves(&pos, &mut moves);
//! assert_eq!(moves.len(), 9);
//! ```

mod bits;
mod color;
mod erased;
pub mod fen;
mod geometry;
mod movegen;
pub mod notation;
pub mod perft;
mod position;
mod variant;

pub use bits::{BitIter, Bits};
pub use color::Color;
pub use erased::VariantPosition;
pub use geometry::{
    Dir, DirSet, Geometry, Layout, Lookup, MAX_BITS, NONE, NotationKind, Numbering, Shape,
};
pub use movegen::Options;
pub use position::{KingRun, Move, MoveList, Piece, Position, Role, Step};
pub use variant::{
    ANTIDRAUGHTS, Articles, BRAZILIAN, BREAKTHROUGH, CANADIAN, CZECH, DrawRule, ENGLISH, FRISIAN,
    FRYSK, INTERNATIONAL, ITALIAN, KingRange, POOL, PORTUGUESE, PassingPromotion, Precedence,
    RUSSIAN, Removal, ResultType, Rules, SPANISH, THAI, TURKISH, UnknownVariant, Variant,
};

use movegen::{Fixed, Relaxed, Toward};

/// A variant known at compile time: its bit-set type, rules and geometry.
///
/// The provided methods are the engine's entry points; they are monomorphised per variant.
pub trait Spec: 'static + Send + Sync {
    /// The bit-set type of the board.
    type B: Bits;
    /// The rules.
    const RULES: &'static Rules;
    /// The board layout.
    fn geometry() -> &'static Geometry<Self::B>;
    /// The standard square names of the variant's `GameType`.
    fn numbering() -> &'static Numbering;
    /// A position of this variant with its variant named (see [`VariantPosition::of`]).
    /// The variants' own specs put it into their arm directly; another spec (a test board)
    /// is put into the arm of its rules' variant.
    fn erase(pos: Position<Self::B>) -> VariantPosition {
        VariantPosition::convert(Self::RULES.variant, &pos)
    }
    /// The position, if `pos` is of this variant (see [`VariantPosition::get`]).
    fn restore(pos: &VariantPosition) -> Option<Position<Self::B>> {
        (pos.variant() == Self::RULES.variant).then(|| pos.with_bits::<Self::B>())
    }

    /// The legal moves of the side to move (captures only when one is possible, of the
    /// precedence the rules demand; one route per distinct move).
    #[inline]
    fn legal_moves(pos: &Position<Self::B>, out: &mut MoveList<Self::B>) {
        movegen::Gen {
            geo: Self::geometry(),
            cfg: Fixed::<Self>::new(),
            pos,
        }
        .generate(out);
    }

    /// True if the side to move has a legal move ([`Spec::legal_moves`] would list one),
    /// answered without listing them.
    #[inline]
    fn has_legal_move(pos: &Position<Self::B>) -> bool {
        movegen::Gen {
            geo: Self::geometry(),
            cfg: Fixed::<Self>::new(),
            pos,
        }
        .has_move()
    }

    /// Moves under changed rules or options (to explain an illegal move, or to count every
    /// capture route).
    fn relaxed_moves(
        pos: &Position<Self::B>,
        rules: &Rules,
        options: Options,
        out: &mut MoveList<Self::B>,
    ) {
        movegen::Gen {
            geo: Self::geometry(),
            cfg: Relaxed { rules, options },
            pos,
        }
        .generate(out);
    }

    /// The legal moves from `from` to `to` that capture (in the order and with the routes
    /// [`Spec::legal_moves`] gives them): the other pieces' captures are searched only for
    /// the precedence a legal capture must have, not recorded.
    #[inline]
    fn captures_between(pos: &Position<Self::B>, from: u32, to: u32, out: &mut MoveList<Self::B>) {
        movegen::Gen {
            geo: Self::geometry(),
            cfg: Toward::<Self> {
                from,
                to,
                variant: std::marker::PhantomData,
            },
            pos,
        }
        .captures_only(out);
    }

    /// True if the side to move can capture (and so must). Always inlined: the replay asks
    /// it before every plain move, and the call's frame cost a third of the answer.
    #[inline(always)]
    fn has_capture(pos: &Position<Self::B>) -> bool {
        Self::has_capture_on(Self::geometry(), pos)
    }

    /// [`Spec::has_capture`] on `geo`, the variant's geometry (`Self::geometry()`) looked up
    /// once by a caller that asks many times: each lookup checks that the lazily built
    /// table is there.
    #[inline(always)]
    fn has_capture_on(geo: &Geometry<Self::B>, pos: &Position<Self::B>) -> bool {
        movegen::has_capture(geo, Fixed::<Self>::new(), pos)
    }

    /// The capture from `from` to `to` answered without a move list where the position allows
    /// it: when every capture of the side to move is one man's jump, all of one precedence
    /// (see the `single_jump` answer of the generator), `Some(Some((move, step)))` if the man
    /// on `from` can jump to `to` (then it is the one legal move between the two squares,
    /// with its one step), `Some(None)` if no legal move captures from `from` to `to`. `None`
    /// where the search must decide: [`Spec::captures_between`] answers then. `geo` is
    /// `Self::geometry()`.
    #[inline(always)]
    fn one_jump_between(
        geo: &Geometry<Self::B>,
        pos: &Position<Self::B>,
        from: u32,
        to: u32,
    ) -> Option<Option<(Move<Self::B>, Step)>> {
        let single = movegen::Gen {
            geo,
            cfg: Fixed::<Self>::new(),
            pos,
        }
        .single_jump(from, to)?;
        Some(single.map(|(m, step, _)| (m, step)))
    }

    /// True if `to` is one non-capturing step of a man of `side` from `from` (both squares
    /// of the board).
    #[inline(always)]
    fn is_man_step(side: Color, from: u32, to: u32) -> bool {
        Self::is_man_step_on(Self::geometry(), side, from, to)
    }

    /// [`Spec::is_man_step`] on `geo`, the variant's geometry looked up once by the caller
    /// (see [`Spec::has_capture_on`]).
    #[inline(always)]
    fn is_man_step_on(geo: &Geometry<Self::B>, side: Color, from: u32, to: u32) -> bool {
        movegen::is_man_step(geo, Self::RULES, side, from, to)
    }

    /// Play a legal move.
    #[inline]
    fn play(pos: &mut Position<Self::B>, m: &Move<Self::B>) {
        pos.play(m, Self::RULES);
    }

    /// The start position (read once from the variant table's FEN, then copied).
    fn start() -> Position<Self::B> {
        start_from_table::<Self>()
    }

    /// Read a FEN in the variant's standard numbering.
    ///
    /// # Errors
    ///
    /// Any [`fen::FenError`].
    fn from_fen(text: &str) -> Result<Position<Self::B>, fen::FenError> {
        let setup = fen::parse(text)?;
        setup.position(
            Self::numbering(),
            Self::geometry(),
            Self::RULES.first_mover(),
        )
    }

    /// Write a FEN in the variant's standard numbering.
    fn to_fen(pos: &Position<Self::B>) -> String {
        fen::write(pos, Self::numbering())
    }
}

/// The standard numbering of a variant (convenience for `V::numbering()`).
pub fn numbering<V: Spec>() -> &'static Numbering {
    V::numbering()
}

/// The start position of the variant table's FEN (a test of the table pins it).
fn start_from_table<V: Spec + ?Sized>() -> Position<V::B> {
    let setup = fen::parse(V::RULES.start_fen).expect("start FEN of the variant table");
    setup
        .position(V::numbering(), V::geometry(), V::RULES.first_mover())
        .expect("start FEN of the variant table")
}

/// The zero-sized [`Spec`] types, one per variant.
pub mod spec {
    use std::sync::LazyLock;

    use super::geometry::{self, Geometry, Numbering};
    use super::variant::{self, Rules};
    use super::{Position, Spec, VariantPosition};

    macro_rules! specs {
        ($($name:ident: $bits:ty, $rules:path, $geo:path;)*) => {$(
            #[doc = concat!("The `", stringify!($name), "` variant.")]
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            pub struct $name;

            impl Spec for $name {
                type B = $bits;
                const RULES: &'static Rules = &$rules;
                #[inline(always)]
                fn geometry() -> &'static Geometry<$bits> {
                    $geo()
                }
                #[inline]
                fn numbering() -> &'static Numbering {
                    static N: LazyLock<Numbering> =
                        LazyLock::new(|| Numbering::new($rules.layout, $geo()));
                    &N
                }
                fn start() -> Position<$bits> {
                    static S: LazyLock<Position<$bits>> =
                        LazyLock::new(super::start_from_table::<$name>);
                    *S
                }
                #[inline]
                fn erase(pos: Position<$bits>) -> VariantPosition {
                    VariantPosition::$name(pos)
                }
                #[inline]
                fn restore(pos: &VariantPosition) -> Option<Position<$bits>> {
                    match pos {
                        VariantPosition::$name(p) => Some(*p),
                        _ => None,
                    }
                }
            }
        )*};
    }

    specs! {
        International: u64, variant::INTERNATIONAL, geometry::diagonal_10;
        English: u64, variant::ENGLISH, geometry::diagonal_8;
        Italian: u64, variant::ITALIAN, geometry::diagonal_8;
        Pool: u64, variant::POOL, geometry::diagonal_8;
        Spanish: u64, variant::SPANISH, geometry::diagonal_8;
        Russian: u64, variant::RUSSIAN, geometry::diagonal_8;
        Brazilian: u64, variant::BRAZILIAN, geometry::diagonal_8;
        Canadian: u128, variant::CANADIAN, geometry::diagonal_12;
        Portuguese: u64, variant::PORTUGUESE, geometry::diagonal_8;
        Czech: u64, variant::CZECH, geometry::diagonal_8;
        Turkish: u64, variant::TURKISH, geometry::full_8;
        Thai: u64, variant::THAI, geometry::diagonal_8;
        Frisian: u64, variant::FRISIAN, geometry::diagonal_10;
        Frysk: u64, variant::FRYSK, geometry::diagonal_10;
        Antidraughts: u64, variant::ANTIDRAUGHTS, geometry::diagonal_10;
        Breakthrough: u64, variant::BREAKTHROUGH, geometry::diagonal_10;
    }
}

/// Run an expression with a type alias bound to the [`Spec`] of a run-time [`Variant`]:
/// `with_variant!(variant, V => V::start())`. The expression is compiled once per variant.
#[macro_export]
macro_rules! with_variant {
    ($variant:expr, $V:ident => $body:expr) => {{
        use $crate::rules::spec as __spec;
        match $variant {
            $crate::rules::Variant::International => {
                type $V = __spec::International;
                $body
            }
            $crate::rules::Variant::English => {
                type $V = __spec::English;
                $body
            }
            $crate::rules::Variant::Italian => {
                type $V = __spec::Italian;
                $body
            }
            $crate::rules::Variant::Pool => {
                type $V = __spec::Pool;
                $body
            }
            $crate::rules::Variant::Spanish => {
                type $V = __spec::Spanish;
                $body
            }
            $crate::rules::Variant::Russian => {
                type $V = __spec::Russian;
                $body
            }
            $crate::rules::Variant::Brazilian => {
                type $V = __spec::Brazilian;
                $body
            }
            $crate::rules::Variant::Canadian => {
                type $V = __spec::Canadian;
                $body
            }
            $crate::rules::Variant::Portuguese => {
                type $V = __spec::Portuguese;
                $body
            }
            $crate::rules::Variant::Czech => {
                type $V = __spec::Czech;
                $body
            }
            $crate::rules::Variant::Turkish => {
                type $V = __spec::Turkish;
                $body
            }
            $crate::rules::Variant::Thai => {
                type $V = __spec::Thai;
                $body
            }
            $crate::rules::Variant::Frisian => {
                type $V = __spec::Frisian;
                $body
            }
            $crate::rules::Variant::Frysk => {
                type $V = __spec::Frysk;
                $body
            }
            $crate::rules::Variant::Antidraughts => {
                type $V = __spec::Antidraughts;
                $body
            }
            $crate::rules::Variant::Breakthrough => {
                type $V = __spec::Breakthrough;
                $body
            }
        }
    }};
}

pub use crate::with_variant;
