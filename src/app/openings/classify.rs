//! The [`Classifier`]: tables compiled into one book of positions per variant, and the
//! classification of a game by an observer of its replay (the replay of `validate`).

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use crate::rules::{Position, Spec, Variant};
use crate::syntax::{Game, Span, Tag};

use super::compile::{Compiled, Key, KeyHasher, KeyMap, Problem, compile, compile_in};
use super::table::Table;
use crate::app::judge::replay::{Branch, Observer, Played, PlyEvent};
use crate::app::judge::validate::{self, Verdict, validate_record};
use crate::app::model::reading::GameRef;
use crate::app::model::record::Record;

/// The opening a game reached: the deepest named table entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Its name.
    pub name: String,
    /// The ply after which the game stood in its position (0: the start).
    pub ply: u32,
    /// The table it is from.
    pub table: String,
}

/// The ballot a game reached: the deepest numbered table entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ballot {
    /// Its number.
    pub number: u32,
    /// Its moves in canonical PDN, space-separated (empty for a start position).
    pub moves: String,
    /// True for a barred ballot.
    pub barred: bool,
    /// The ply after which the game stood in its position (0: the start).
    pub ply: u32,
    /// The table it is from.
    pub table: String,
}

impl Ballot {
    /// `<number> <moves>` (the number alone for a start position), as the `Ballot` tag and
    /// the JSON write it.
    pub fn text(&self) -> String {
        if self.moves.is_empty() {
            self.number.to_string()
        } else {
            format!("{} {}", self.number, self.moves)
        }
    }
}

/// Why a game has neither an opening nor a ballot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unclassified {
    /// No variant fits the game.
    UnknownVariant,
    /// No table is for the game's variant.
    NoTable,
    /// Its start position could not be set up (a bad `FEN` tag).
    BadStart,
    /// It is played from a setup position where no table starts.
    Setup,
    /// It reaches no position of the tables (before its replay failed, if it did).
    NotReached,
}

impl Unclassified {
    /// A short name, for JSON and CSV.
    pub fn as_str(self) -> &'static str {
        match self {
            Unclassified::UnknownVariant => "unknown-variant",
            Unclassified::NoTable => "no-table",
            Unclassified::BadStart => "bad-start",
            Unclassified::Setup => "setup",
            Unclassified::NotReached => "not-reached",
        }
    }

    /// What it means, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Unclassified::UnknownVariant => "no variant fits the game",
            Unclassified::NoTable => "no opening table for its variant",
            Unclassified::BadStart => "its start position could not be set up",
            Unclassified::Setup => "played from a setup position where no table starts",
            Unclassified::NotReached => "no table position reached",
        }
    }
}

/// What the tables say of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classification {
    /// The variant it was replayed in.
    pub variant: Option<Variant>,
    /// The deepest named entry it reaches.
    pub opening: Option<Opening>,
    /// The deepest numbered entry it reaches.
    pub ballot: Option<Ballot>,
    /// Why it has neither, if it has neither.
    pub unclassified: Option<Unclassified>,
}

impl Classification {
    /// Where the deepest entry was reached: the later of the opening's and the ballot's
    /// plies.
    pub fn ply(&self) -> Option<u32> {
        let a = self.opening.as_ref().map(|o| o.ply);
        let b = self.ballot.as_ref().map(|b| b.ply);
        a.max(b)
    }

    /// True if the game has an opening or a ballot.
    pub fn is_classified(&self) -> bool {
        self.opening.is_some() || self.ballot.is_some()
    }

    /// The tags `fix --classify` and `convert --classify` write: `Opening` and `Ballot`
    /// (`<number> <moves>`), those the game has.
    pub fn tag_values(&self) -> Vec<(&'static str, String)> {
        let mut v = Vec::new();
        if let Some(o) = &self.opening {
            v.push(("Opening", o.name.clone()));
        }
        if let Some(b) = &self.ballot {
            v.push(("Ballot", b.text()));
        }
        v
    }

    /// Set the `Opening` and `Ballot` tags in `tags` (the first of each name replaced, or a
    /// tag added at the end); returns what changed: the tag's name, its value before (if it
    /// had one) and after. A game without an opening (or ballot) keeps the tag it has.
    pub fn set_tags(&self, tags: &mut Vec<Tag>) -> Vec<(&'static str, Option<String>, String)> {
        let mut changes = Vec::new();
        for (name, value) in self.tag_values() {
            match tags.iter_mut().find(|t| t.name == name) {
                Some(t) if t.value == value => {}
                Some(t) => {
                    let before = std::mem::replace(&mut t.value, value.clone());
                    changes.push((name, Some(before), value));
                }
                None => {
                    tags.push(Tag::new(name, value.clone(), Span::default()));
                    changes.push((name, None, value));
                }
            }
        }
        changes
    }

    /// Append the JSON Lines record of the game (docs/formats.md, `pdn classify`):
    /// `{"type":"game","file":…,"game":N,"opening":…,"ballot":"<number> <moves>",
    /// "barred":false,"ply":K,"variant":…,"line":L,"unclassified":…}`.
    pub fn write_json(&self, file: &str, game: usize, line: u32, out: &mut String) {
        use crate::app::write::jsonl::{push_str, push_uint};
        let opt = |out: &mut String, v: Option<&str>| match v {
            Some(s) => push_str(out, s),
            None => out.push_str("null"),
        };
        out.push_str("{\"type\":\"game\",\"file\":");
        push_str(out, file);
        out.push_str(",\"game\":");
        push_uint(out, game as u64);
        out.push_str(",\"opening\":");
        opt(out, self.opening.as_ref().map(|o| o.name.as_str()));
        out.push_str(",\"ballot\":");
        opt(out, self.ballot.as_ref().map(Ballot::text).as_deref());
        out.push_str(",\"barred\":");
        out.push_str(if self.ballot.as_ref().is_some_and(|b| b.barred) {
            "true"
        } else {
            "false"
        });
        out.push_str(",\"ply\":");
        match self.ply() {
            Some(p) => push_uint(out, u64::from(p)),
            None => out.push_str("null"),
        }
        out.push_str(",\"variant\":");
        opt(out, self.variant.map(Variant::name));
        out.push_str(",\"line\":");
        push_uint(out, u64::from(line));
        out.push_str(",\"unclassified\":");
        opt(out, self.unclassified.map(Unclassified::as_str));
        out.push_str("}\n");
    }
}

/// An entry of a book: where it comes from, what it is, its moves in the book's variant.
#[derive(Clone, Debug)]
struct BookEntry {
    table: u32,
    name: Option<String>,
    ballot: Option<u32>,
    barred: bool,
    moves: String,
}

/// The positions of every table of one variant.
#[derive(Debug, Default)]
struct Book {
    entries: Vec<BookEntry>,
    /// Each position's entries: a range of `order`.
    at: KeyMap<(u32, u32)>,
    /// The entries by position, each position's in the order of the tables' precedence.
    order: Vec<u32>,
    /// The positions the tables' lines start from.
    starts: HashSet<Key, std::hash::BuildHasherDefault<KeyHasher>>,
    /// The fewest pieces of a position (the search stops below).
    min_pieces: u32,
    /// True if a position has a king (else the search stops at the first king).
    kings: bool,
}

impl Book {
    /// The book of entries compiled from tables (each with its table's index), in the order
    /// of the tables' precedence.
    fn of(mut compiled: Vec<(u32, BookEntry, Compiled)>) -> Book {
        compiled.sort_by_key(|(t, _, c)| (*t, c.entry));
        let mut b = Book {
            min_pieces: u32::MAX,
            ..Book::default()
        };
        let mut keys = Vec::with_capacity(compiled.len());
        for (_, e, c) in compiled {
            keys.push((c.key, b.entries.len() as u32));
            b.starts.insert(c.start);
            b.min_pieces = b.min_pieces.min(c.key.pieces());
            b.kings |= c.key.has_kings();
            b.entries.push(e);
        }
        // (A stable sort: each position's entries stay in the order of precedence.)
        keys.sort_by_key(|(k, _)| *k);
        b.at.reserve(keys.len());
        b.order.reserve(keys.len());
        for group in keys.chunk_by(|a, b| a.0 == b.0) {
            let start = b.order.len() as u32;
            b.order.extend(group.iter().map(|(_, i)| *i));
            b.at.insert(group[0].0, (start, group.len() as u32));
        }
        b
    }
}

/// The book entries of a table's compiled lines.
fn entries(t: u32, table: &Table, compiled: Vec<Compiled>) -> Vec<(u32, BookEntry, Compiled)> {
    compiled
        .into_iter()
        .filter_map(|mut c| {
            let e = table.entries.get(c.entry)?;
            let b = BookEntry {
                table: t,
                name: e.name.clone(),
                ballot: e.ballot,
                barred: e.barred,
                moves: std::mem::take(&mut c.moves),
            };
            Some((t, b, c))
        })
        .collect()
}

/// A shipped table not read yet: its index among the tables, its name, text and variants.
#[derive(Debug)]
struct Lazy {
    index: u32,
    name: &'static str,
    text: &'static str,
    variants: Vec<Variant>,
}

#[derive(Debug)]
struct Inner {
    /// The name of each table, by index.
    names: Vec<String>,
    /// The entries of the tables compiled (and checked) when the classifier was made.
    compiled: Vec<(u32, BookEntry, Compiled)>,
    /// The shipped tables, read and compiled in a variant when a game of it is first
    /// classified (their self-test is a test of the project).
    lazy: Vec<Lazy>,
    /// The book of each variant some table is for, made on first use.
    books: Vec<(Variant, OnceLock<Book>)>,
}

impl Inner {
    fn book(&self, variant: Variant) -> Option<&Book> {
        let (_, cell) = self.books.iter().find(|(v, _)| *v == variant)?;
        Some(cell.get_or_init(|| {
            let mut all: Vec<(u32, BookEntry, Compiled)> = self
                .compiled
                .iter()
                .filter(|(_, _, c)| c.variant == variant)
                .cloned()
                .collect();
            for l in self.lazy.iter().filter(|l| l.variants.contains(&variant)) {
                if let Ok(table) = Table::parse(l.name, "shipped", l.text) {
                    let (compiled, _) = compile_in(&table, None, Some(variant));
                    all.extend(entries(l.index, &table, compiled));
                }
            }
            Book::of(all)
        }))
    }
}

/// Opening tables compiled for classification (see the module documentation of
/// `openings`). Cheap to clone (shared); two classifiers are equal if they are the same one.
#[derive(Clone, Debug)]
pub struct Classifier {
    inner: Arc<Inner>,
}

impl PartialEq for Classifier {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

impl Eq for Classifier {}

impl Classifier {
    /// The classifier of `tables`, the first taking precedence where two name one position.
    /// `variant` is the variant of a TSV table that names none (`--variant`).
    ///
    /// # Errors
    ///
    /// What the self-test found in the tables (see [`Table::check`]): nothing is classified
    /// with a table that has a problem.
    pub fn new(tables: &[Table], variant: Option<Variant>) -> Result<Classifier, Vec<Problem>> {
        Classifier::build(tables, false, variant)
    }

    /// The classifier of `tables` (checked now, as [`Classifier::new`] checks them) followed
    /// by the shipped tables (each read and compiled for a variant when a game of it is
    /// first classified: a run reads only the tables of the variants it meets).
    ///
    /// # Errors
    ///
    /// What the self-test found in `tables`.
    pub fn with_shipped(
        tables: &[Table],
        variant: Option<Variant>,
    ) -> Result<Classifier, Vec<Problem>> {
        Classifier::build(tables, true, variant)
    }

    /// The classifier of the shipped tables (made once per process; each variant's book is
    /// made when a game of it is first classified).
    pub fn shipped() -> Classifier {
        static SHIPPED: OnceLock<Classifier> = OnceLock::new();
        SHIPPED
            .get_or_init(|| {
                Classifier::with_shipped(&[], None).unwrap_or_else(|_| Classifier::empty())
            })
            .clone()
    }

    /// A classifier without tables (what the shipped one would be if it could not be made:
    /// it always can).
    fn empty() -> Classifier {
        Classifier {
            inner: Arc::new(Inner {
                names: Vec::new(),
                compiled: Vec::new(),
                lazy: Vec::new(),
                books: Vec::new(),
            }),
        }
    }

    fn build(
        checked: &[Table],
        shipped: bool,
        variant: Option<Variant>,
    ) -> Result<Classifier, Vec<Problem>> {
        let mut problems = Vec::new();
        let mut compiled = Vec::new();
        for (ti, t) in checked.iter().enumerate() {
            let (done, found) = compile(t, variant);
            problems.extend(found);
            compiled.extend(entries(ti as u32, t, done));
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut names: Vec<String> = checked.iter().map(|t| t.name.clone()).collect();
        let mut variants: Vec<Variant> = Vec::new();
        for (_, _, c) in &compiled {
            if !variants.contains(&c.variant) {
                variants.push(c.variant);
            }
        }
        let mut lazy = Vec::new();
        if shipped {
            for (name, text) in Table::shipped_sources() {
                let vs = Table::header_variants(text);
                for v in &vs {
                    if !variants.contains(v) {
                        variants.push(*v);
                    }
                }
                lazy.push(Lazy {
                    index: names.len() as u32,
                    name,
                    text,
                    variants: vs,
                });
                names.push(name.to_string());
            }
        }
        Ok(Classifier {
            inner: Arc::new(Inner {
                names,
                compiled,
                lazy,
                books: variants.into_iter().map(|v| (v, OnceLock::new())).collect(),
            }),
        })
    }

    /// The variants some table is for.
    pub fn variants(&self) -> Vec<Variant> {
        self.inner.books.iter().map(|(v, _)| *v).collect()
    }

    /// Classify a game, replayed as `validate` replays it with `opts`; also what validating
    /// it found.
    pub fn classify_game(
        &self,
        game: &Game,
        opts: &validate::Options,
    ) -> (Classification, Verdict) {
        self.classify_record(&Record::of_game(game), &game.source, opts)
    }

    /// [`Classifier::classify_game`] for the record of a game whose text is `text`.
    pub fn classify_record(
        &self,
        record: &Record,
        text: &str,
        opts: &validate::Options,
    ) -> (Classification, Verdict) {
        let mut m = self.matcher();
        let report = validate_record(record, text, opts, &mut m);
        (m.finish(report.variant), report)
    }

    /// An observer of a replay that classifies the game (see [`Matcher::finish`]).
    pub(crate) fn matcher(&self) -> Matcher<'_> {
        Matcher {
            inner: &self.inner,
            book: None,
            state: State::Fresh,
            opening: None,
            ballot: None,
            reason: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// No position yet.
    Fresh,
    /// Looking up every position of the main line.
    Active,
    /// Done: the search stopped (or never started: `Matcher::reason` says why).
    Stopped,
}

/// The observer that looks up every position of a game's main line in the book of its
/// variant, from its start (when the book starts there) to the first irregular move, setup,
/// or position with fewer pieces than any of the book's (or a king, when none has one).
#[derive(Debug)]
pub(crate) struct Matcher<'c> {
    inner: &'c Inner,
    book: Option<&'c Book>,
    state: State,
    /// The deepest named entry so far: ply, entry of the book.
    opening: Option<(u32, u32)>,
    /// The deepest numbered entry so far.
    ballot: Option<(u32, u32)>,
    reason: Option<Unclassified>,
}

impl Matcher<'_> {
    fn look(&mut self, ply: u32, key: &Key) {
        let Some(book) = self.book else { return };
        let Some(&(start, len)) = book.at.get(key) else {
            return;
        };
        let list = &book.order[start as usize..(start + len) as usize];
        let (mut named, mut numbered) = (false, false);
        for &i in list {
            let e = &book.entries[i as usize];
            let (name, ballot) = (&e.name, &e.ballot);
            if name.is_some() && !named {
                named = true;
                self.opening = Some((ply, i));
            }
            if ballot.is_some() && !numbered {
                numbered = true;
                self.ballot = Some((ply, i));
            }
        }
    }

    /// The classification, once the replay (in `variant`, if one fits) is over.
    pub(crate) fn finish(self, variant: Option<Variant>) -> Classification {
        let (opening, ballot) = match self.book {
            Some(book) => {
                let table = |e: &BookEntry| {
                    self.inner
                        .names
                        .get(e.table as usize)
                        .cloned()
                        .unwrap_or_default()
                };
                let opening = self.opening.map(|(ply, i)| {
                    let e = &book.entries[i as usize];
                    Opening {
                        name: e.name.clone().unwrap_or_default(),
                        ply,
                        table: table(e),
                    }
                });
                let ballot = self.ballot.map(|(ply, i)| {
                    let e = &book.entries[i as usize];
                    Ballot {
                        number: e.ballot.unwrap_or_default(),
                        moves: e.moves.clone(),
                        barred: e.barred,
                        ply,
                        table: table(e),
                    }
                });
                (opening, ballot)
            }
            None => (None, None),
        };
        let unclassified = if opening.is_some() || ballot.is_some() {
            None
        } else if variant.is_none() {
            Some(Unclassified::UnknownVariant)
        } else {
            Some(self.reason.unwrap_or(match self.state {
                State::Fresh => Unclassified::BadStart,
                _ => Unclassified::NotReached,
            }))
        };
        Classification {
            variant,
            opening,
            ballot,
            unclassified,
        }
    }
}

impl Observer for Matcher<'_> {
    fn position<V: Spec>(&mut self, pos: &Position<V::B>, main: bool) {
        if !main {
            return;
        }
        if self.state != State::Fresh {
            // A setup in the main line: what follows was not played from the start.
            self.state = State::Stopped;
            return;
        }
        self.state = State::Stopped;
        let Some(book) = self.inner.book(V::RULES.variant) else {
            self.reason = Some(Unclassified::NoTable);
            return;
        };
        let key = Key::of(pos);
        if key != Key::of(&V::start()) && !book.starts.contains(&key) {
            self.reason = Some(Unclassified::Setup);
            return;
        }
        self.book = Some(book);
        self.state = State::Active;
        self.look(0, &key);
    }

    #[inline]
    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        if !e.main || self.state != State::Active {
            return;
        }
        let Some(book) = self.book else { return };
        if e.played != Played::Legal {
            self.state = State::Stopped;
            return;
        }
        let key = Key::of(e.after);
        if key.pieces() < book.min_pieces || (key.has_kings() && !book.kings) {
            self.state = State::Stopped;
            return;
        }
        self.look(e.ply, &key);
    }
}

/// Two observers of one replay.
pub(crate) struct Both<'a, A, B>(pub &'a mut A, pub &'a mut B);

impl<A: Observer, B: Observer> Observer for Both<'_, A, B> {
    #[inline]
    fn ply<V: Spec>(&mut self, e: &PlyEvent<'_, V>) {
        self.0.ply::<V>(e);
        self.1.ply::<V>(e);
    }

    fn position<V: Spec>(&mut self, pos: &Position<V::B>, main: bool) {
        self.0.position::<V>(pos, main);
        self.1.position::<V>(pos, main);
    }

    fn variation(&mut self, span: u32, branch: Branch) {
        self.0.variation(span, branch);
        self.1.variation(span, branch);
    }

    fn wants_events(&self) -> bool {
        self.0.wants_events() || self.1.wants_events()
    }
}

/// One game classified (see [`Classified::of_ref`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classified {
    /// 1-based number of the game in its file.
    pub game: usize,
    /// 1-based line of its first byte.
    pub line: u32,
    /// What the tables say of it.
    pub classification: Classification,
    /// Error findings of its replay (as `validate` counts them).
    pub errors: u32,
}

impl Classified {
    /// Classify a game as the pipeline reads it, with its file's hint.
    pub fn of_ref(c: &Classifier, game: &GameRef<'_>, opts: &validate::Options) -> Classified {
        let (classification, report) =
            c.classify_record(game.record, game.text, &game.options(opts));
        Classified {
            game: game.index(),
            line: game.line,
            classification,
            errors: report.errors(),
        }
    }

    /// Classify an owned game.
    pub fn of_game(c: &Classifier, game: &Game, opts: &validate::Options) -> Classified {
        let (classification, report) = c.classify_game(game, opts);
        Classified {
            game: game.index,
            line: game.line,
            classification,
            errors: report.errors(),
        }
    }
}
