//! Strict PDN 3.0 output: the normal form of a game written by the syntax layer's writer,
//! each move in its canonical notation (see the module documentation of `export`).
//!
//! When the square names asked for are not the variant's own, the `GameType` tag is set to
//! the extended form that describes them, so that a reader knows how to read the squares.
//!
//! A game whose normal form is its own tree renumbered (`normal::numbering_only`) can be
//! written from the record it was read into (`write_by_record`: what `fix` writes of a
//! game it changes only in its tags, numbers and notation), no tree made: the bytes the
//! syntax layer's writer gives of the renumbered tree.

use crate::rules::Variant;
use crate::syntax::{
    Drain, GameParts, Keep, MoveKind, Num, Span, Tag, WriteOptions, comment_for_writing,
    result_terminator, setup_for_writing, write_parts_to, write_tags,
};

use crate::app::model::gametype::parse_game_type;

use super::lines::{self, Lines, Piece};
use super::plies::{Form, push_u32};
use super::{Analysed, ResultStyle, game_type_for};

/// The tags of an exported game: as read, with a `GameType` that makes a reader replay the
/// game in the variant it was replayed in: added when the game had none (the variant was
/// inferred from what the game or its file shows, taken from a `Variant` tag or given with
/// `--variant`; not when nothing showed it, `Verdict::guessed`), set when the one read
/// names another variant or cannot be read, and describing the square names when they are
/// not the variant's own.
pub(crate) fn export_tags(a: &Analysed<'_>) -> Vec<Tag> {
    let mut tags = a.game.tags.clone();
    if let (Some(v), Some(names)) = (a.variant(), &a.names) {
        let native = v.rules().layout.notation == crate::rules::NotationKind::Algebraic;
        let names_it = a
            .game
            .tag("GameType")
            .and_then(|gt| parse_game_type(gt).ok())
            .is_some_and(|gt| {
                Variant::from_game_type(gt.number) == Some(v)
                    && gt.layout.is_none_or(|l| {
                        (l.notation == crate::rules::NotationKind::Algebraic) == names.algebraic
                    })
            });
        // (Not for a variant that nothing showed: the reader guesses it again.)
        if names.algebraic != native || (!names_it && !a.report.guessed) {
            let value = game_type_for(v, names);
            match tags.iter_mut().find(|t| t.name == "GameType") {
                Some(t) => t.value = value,
                // First among the tags after the seven standard ones (the writer puts
                // those first).
                None => tags.insert(0, Tag::new("GameType", value, Span::default())),
            }
        }
    }
    tags
}

/// Write a game as strict PDN 3.0: the exported tags, the normal form of its moves, the
/// movetext ending with the result it ended with as read when that disagrees with the
/// `Result` tag (nothing read is lost), else with `*` or (`ResultStyle::Terminator`) the
/// result.
pub fn write(a: &Analysed<'_>, out: &mut String) {
    write_to(a, out, &mut Keep);
}

/// [`write()`] handing the text to `drain` as it grows (see `app::write::spill`).
pub fn write_to(a: &Analysed<'_>, out: &mut String, drain: &mut dyn Drain) {
    debug_assert!(
        a.by_record.is_none(),
        "a tree to write (only JSON reads a record)"
    );
    let tags = export_tags(a);
    let parts = GameParts {
        tags: &tags,
        body: &a.normal.body,
        result: a.game.result.as_ref(),
    };
    let opts = WriteOptions {
        keep_terminator: true,
        numbers_as_given: true,
        result_terminator: a.result_style == ResultStyle::Terminator,
        ..WriteOptions::default()
    };
    write_with(a, parts, &opts, out, drain);
}

/// Write the game of `a` as strict PDN 3.0 with the given tags, main line and result: the one
/// way every PDN output is written. The moves of `parts` are those of `a.game` (their spans
/// index its text): each is written in canonical notation when the replay of `a` found it
/// legal, else in its syntactic normal form; the text handed to `drain` as it grows.
pub(crate) fn write_with(
    a: &Analysed<'_>,
    parts: GameParts<'_>,
    opts: &WriteOptions,
    out: &mut String,
    drain: &mut dyn Drain,
) {
    write_parts_to(
        a.game,
        parts,
        opts,
        &mut |g, m| a.move_text(g, m, Form::Pdn),
        out,
        drain,
    );
}

/// Write the game of `a`, analysed on its record (`a.by_record`: its normal form is its own
/// tree renumbered), as strict PDN 3.0 with the tags `tags` and no result token of the
/// movetext: the bytes [`write_with`] gives of the game's tree renumbered by its replay
/// (`normal::renumber`) with these tags, `result: None` and the same options; with
/// `main_line`, the variations of the main line left out. The text is handed to `drain` as it
/// grows. (`opts.keep_terminator` has nothing to keep: there is no result token.) `markers`
/// are the comments that end the main line: the markers of the syntax errors after it
/// (`normal::end_markers`), as the tree's normal form keeps them there.
pub(crate) fn write_by_record(
    a: &Analysed<'_>,
    tags: &(impl TagSection + ?Sized),
    opts: &WriteOptions,
    (main_line, markers): (bool, &[String]),
    out: &mut String,
    drain: &mut dyn Drain,
) {
    let Some(record) = a.by_record else {
        debug_assert!(false, "a game analysed on its record");
        return;
    };
    tags.write(out, drain);
    let source = lines::ByRecord {
        record,
        text: a.source,
        a,
        markers,
    };
    let mut w = Wrap {
        out,
        col: 0,
        width: opts.line_width.max(1),
        open: 0,
        drain,
    };
    write_lines(
        a,
        &source,
        (record.body(), Num::START),
        opts,
        main_line,
        &mut w,
    );
    match result_terminator(tags.results(), None).filter(|_| opts.result_terminator) {
        Some(text) => w.unit(text),
        None => w.unit("*"),
    }
    out.push_str("\n\n");
}

/// The tag section of a game [`write_by_record`] writes: a list of tags, or what holds them
/// otherwise (`fix` keeps the tags of a huge game of tags on its record: `fix::tags`).
pub(crate) trait TagSection {
    /// Write the section as the syntax layer's writer writes a list of these tags (the tags
    /// in writing order, a blank line after them), handing it to `drain` as it grows.
    fn write(&self, out: &mut String, drain: &mut dyn Drain);

    /// The tags among which every `Result` tag of the section is, in their order: what
    /// says the result terminator.
    fn results(&self) -> &[Tag];
}

impl TagSection for [Tag] {
    fn write(&self, out: &mut String, drain: &mut dyn Drain) {
        write_tags(self, None, out, drain);
    }

    fn results(&self) -> &[Tag] {
        self
    }
}

/// Movetext output as the syntax layer's writer makes it: units separated by one space, a
/// new line when the next unit would pass the width, `(` glued to the unit after it.
struct Wrap<'o> {
    out: &'o mut String,
    col: usize,
    width: usize,
    /// How many `(` wait to be glued to the next unit.
    open: usize,
    drain: &'o mut dyn Drain,
}

impl Wrap<'_> {
    fn unit(&mut self, text: &str) {
        let prefix = std::mem::take(&mut self.open);
        let len = prefix
            + if text.is_ascii() {
                text.len()
            } else {
                text.chars().count()
            };
        if self.col > 0 {
            if self.col + 1 + len > self.width {
                self.out.push('\n');
                self.col = 0;
            } else {
                self.out.push(' ');
                self.col += 1;
            }
        }
        for _ in 0..prefix {
            self.out.push('(');
        }
        self.out.push_str(text);
        match text.rfind(['\n', '\r']) {
            Some(k) => self.col = text[k + 1..].chars().count(),
            None => self.col += len,
        }
        if self.out.len() >= self.drain.at() {
            self.drain.take(self.out);
        }
    }

    fn close_paren(&mut self) {
        if self.open == 0 {
            self.out.push(')');
            self.col += 1;
        } else {
            // An empty variation: `()`.
            self.unit(")");
        }
    }
}

/// The state of a line being written (as the syntax layer's writer keeps it).
struct Frame<I> {
    items: I,
    next: Num,
    /// The count before the last move of this line (where a variation after it starts).
    before_last: Option<Num>,
    /// Write the number even for a second-player move (line start, after a comment, …).
    force: bool,
    /// The next move may take its own number token (line start, after a setup).
    resync: bool,
}

impl<I> Frame<I> {
    fn new(items: I, next: Num) -> Frame<I> {
        Frame {
            items,
            next,
            before_last: None,
            force: true,
            resync: true,
        }
    }
}

/// Write the lines of `source` from `body` (the main line) with an explicit stack, each move
/// in canonical notation when the replay of `a` found it legal (see [`write_with`]).
fn write_lines<'l, L: Lines<'l>>(
    a: &Analysed<'_>,
    source: &L,
    body: L::Line,
    opts: &WriteOptions,
    main_line: bool,
    w: &mut Wrap<'_>,
) {
    let mut stack = vec![Frame::new(source.pieces(body), Num::START)];
    // (`on_main`: the line written is the main line.)
    let mut unit = String::new();
    loop {
        let on_main = stack.len() == 1;
        let Some(f) = stack.last_mut() else { break };
        let Some(piece) = f.items.next() else {
            stack.pop();
            if let Some(parent) = stack.last_mut() {
                w.close_paren();
                parent.force = true;
            }
            continue;
        };
        unit.clear();
        match piece {
            Piece::Move(m) => {
                if let Some(n) = m.number
                    && (f.resync || opts.numbers_as_given)
                {
                    let n = Num {
                        number: n.number,
                        second: n.second_player,
                    };
                    if !f.resync && n != f.next {
                        f.force = true;
                    }
                    f.next = n;
                }
                f.resync = false;
                if !f.next.second {
                    push_u32(&mut unit, f.next.number);
                    unit.push_str(". ");
                } else if f.force {
                    push_u32(&mut unit, f.next.number);
                    unit.push_str("... ");
                }
                let at = unit.len();
                a.push_move_text_in(a.source, &m, Form::Pdn, &mut unit);
                if m.kind == MoveKind::Unknown && unit[at..].starts_with('.') {
                    // `12. ...` would read back as the second player's number.
                    unit.truncate(at);
                    unit.push('-');
                }
                if let Some(s) = &m.strength {
                    unit.push_str(s);
                }
                f.before_last = Some(f.next);
                f.next = f.next.after();
                f.force = false;
                w.unit(&unit);
            }
            Piece::Comment(c) => {
                unit.push('{');
                unit.push_str(&comment_for_writing(c));
                unit.push('}');
                f.force = true;
                w.unit(&unit);
            }
            Piece::Nag(n) => {
                unit.push('$');
                push_u32(&mut unit, u32::from(n));
                w.unit(&unit);
            }
            Piece::Setup(fen) => {
                unit.push_str("/FEN \"");
                unit.push_str(&setup_for_writing(fen));
                unit.push_str("\"/");
                f.force = true;
                f.resync = true;
                w.unit(&unit);
            }
            Piece::Variation(v) => {
                if main_line && on_main {
                    // Left out (`--main-line`).
                    continue;
                }
                let start = f.before_last.unwrap_or(f.next);
                w.open += 1;
                stack.push(Frame::new(source.pieces(v), start));
            }
        }
    }
}
