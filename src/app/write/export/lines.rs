//! Where the writers read the lines of a game's normal form: its tree ([`Tree`]), or the
//! record the game was read into when its normal form is its own tree renumbered
//! ([`ByRecord`], `normal::numbering_only`): each line as [`Piece`]s, the same either way.

use std::borrow::Cow;

use crate::syntax::{Item, Line, MoveItem, MoveNumber, Span, Squares};

use super::Analysed;
use super::normal::{Ctx, Num};
use crate::app::model::record::{LineRef, Node, Record};

/// One item of a line of the normal form, as the writer reads it (`V`: a variation).
pub(crate) enum Piece<'l, V> {
    /// A move, with the number token the normal form gives it.
    Move(Cow<'l, MoveItem>),
    /// A comment's text.
    Comment(&'l str),
    /// A setup's FEN.
    Setup(&'l str),
    /// A NAG's value.
    Nag(u16),
    /// A variation, as the source reads it.
    Variation(V),
}

/// Where the writer reads the lines of the normal form: its tree ([`Tree`]), or the record
/// of a game whose normal form is its tree renumbered ([`ByRecord`]).
pub(crate) trait Lines<'l> {
    /// A line.
    type Line;
    /// Its items, in order.
    fn pieces(&self, line: Self::Line) -> impl Iterator<Item = Piece<'l, Self::Line>>;
}

/// The normal form made: `Analysed::normal`'s tree.
pub(crate) struct Tree;

impl<'l> Lines<'l> for Tree {
    type Line = &'l Line;

    fn pieces(&self, line: &'l Line) -> impl Iterator<Item = Piece<'l, &'l Line>> {
        line.items.iter().map(|item| match item {
            Item::Move(m) => Piece::Move(Cow::Borrowed(m)),
            Item::Comment(c) => Piece::Comment(&c.text),
            Item::Setup(s) => Piece::Setup(&s.fen),
            Item::Nag(n) => Piece::Nag(n.value),
            Item::Variation(v) => Piece::Variation(&v.line),
        })
    }
}

/// The record a game was read into, whose normal form is its own tree renumbered
/// (`normal::numbering_only`): each move is given, as it is read, the number the normal
/// form would give it (`normal::Ctx::count`, as the normal form counts a line).
pub(crate) struct ByRecord<'l, 'g> {
    pub record: &'l Record,
    /// The game's text (the record's spans index into it).
    pub text: &'l str,
    /// Its analysis (the replay's record of every move).
    pub a: &'l Analysed<'g>,
    /// The comments that end the main line (markers of syntax errors).
    pub markers: &'l [String],
}

impl<'l> Lines<'l> for ByRecord<'l, '_> {
    /// A line of the record and where its count starts.
    type Line = (LineRef, Num);

    fn pieces(&self, (line, start): (LineRef, Num)) -> impl Iterator<Item = Piece<'l, Self::Line>> {
        let (record, text, a) = (self.record, self.text, self.a);
        let first = a.first_mover();
        let mut ctx = Ctx::new(start);
        let last: &[String] = if line == record.body() {
            self.markers
        } else {
            &[]
        };
        let items = record.items(line).map(move |(at, node)| match node {
            Node::Move(m) => {
                let mv = record.move_ref(m);
                let r = a.rec.find(m.span.start).copied();
                let number = ctx.count(r, mv.number, first).map(|n| MoveNumber {
                    number: n.number,
                    second_player: n.second,
                    span: mv.number.map_or(Span::at(m.span.start), |t| t.span),
                });
                Piece::Move(Cow::Owned(MoveItem {
                    number,
                    squares: Squares::from(mv.squares),
                    kind: mv.kind,
                    strength: mv.strength.map(|b| String::from_utf8_lossy(b).into()),
                    span: m.span,
                }))
            }
            Node::Comment { text: t, .. } => {
                Piece::Comment(text.get(t.start as usize..t.end as usize).unwrap_or(""))
            }
            Node::Nag { value } => Piece::Nag(*value),
            Node::Variation { .. } => Piece::Variation((record.inside(at), ctx.variation_start())),
            Node::Setup { .. } => {
                ctx.setup();
                Piece::Setup(record.node_text(node))
            }
        });
        items.chain(last.iter().map(|m| Piece::Comment(m.as_str())))
    }
}
