//! Opening tables as written: TSV (one opening a line) or PDN (one opening a game), and the
//! shipped tables, embedded data files in the TSV format a user writes.
//!
//! **TSV.** Lines starting with `#` are comments; `# variant: NAME[, NAME…]` says the
//! variant of the table (a name, an alias or a GameType number, as `--variant` takes) and
//! `# title: TEXT` its title. Each other line is an entry, its fields separated by tabs:
//! `name<TAB>moves` or `name<TAB>FEN` by default; a first line naming the columns (`ballot`,
//! `name`, `moves` or `fen`, `barred`, in any order) says otherwise. `moves` are PDN moves
//! from the variant's start (`11-15 23-19 8-11`, move numbers allowed), a FEN (`B:W…:B…`,
//! with the side to move) is the entry's position itself. An entry has a name or a ballot
//! number (or both); `barred` is empty or `barred` (also `yes`, `true`, `1`).
//!
//! **PDN.** Each game is an entry: its `Opening` tag is the name, a `Ballot` tag the number
//! (its first word), a `Barred` tag (`yes`/`true`/`1`/`barred`) marks it barred; its
//! `GameType`, `FEN` and moves are read as `validate` reads a game.

use std::fmt;

use crate::rules::Variant;
use crate::syntax::read_games;

/// What an entry's line holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum What {
    /// Moves from the variant's start position (PDN movetext).
    Moves(String),
    /// A position, as a FEN: the entry is that position itself.
    Position(String),
    /// A PDN game (its tags, `FEN` and moves), as read from a PDN table.
    Game(String),
}

/// One opening of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// 1-based line of the entry in its file.
    pub line: u32,
    /// The opening's name.
    pub name: Option<String>,
    /// The ballot number.
    pub ballot: Option<u32>,
    /// True for a barred ballot (lost or unbalanced, not played in tournaments).
    pub barred: bool,
    /// The moves, the position or the game.
    pub what: What,
}

/// An opening table as read (see the module documentation); [`Table::check`] replays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// Its short name: a shipped table's (`english-3move`), or the file's.
    pub name: String,
    /// Where it was read from, as shown in messages (a path, or `shipped`).
    pub origin: String,
    /// The `# title:` line.
    pub title: Option<String>,
    /// The `# variant:` line's variants (empty: not said; a PDN table's games say it).
    pub variants: Vec<Variant>,
    /// The entries, in file order.
    pub entries: Vec<Entry>,
    /// True for a PDN table.
    pub pdn: bool,
}

/// Why a table could not be read: where (1-based line, 0 for the whole file) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The line.
    pub line: u32,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for TableError {}

fn error(line: u32, message: impl Into<String>) -> TableError {
    TableError {
        line,
        message: message.into(),
    }
}

/// The shipped tables: name and text (the files of `src/app/openings/tables/`).
const SHIPPED: [(&str, &str); 7] = [
    ("english-3move", include_str!("tables/english-3move.tsv")),
    ("english-2move", include_str!("tables/english-2move.tsv")),
    ("english-named", include_str!("tables/english-named.tsv")),
    ("english-11man", include_str!("tables/english-11man.tsv")),
    ("italian-11man", include_str!("tables/italian-11man.tsv")),
    ("draughts64-idf", include_str!("tables/draughts64-idf.tsv")),
    (
        "international-named",
        include_str!("tables/international-named.tsv"),
    ),
];

/// A column of a TSV table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Ballot,
    Name,
    /// `moves` or `fen`: moves, or a FEN (told apart by their form).
    Line,
    Barred,
}

impl Column {
    fn of(field: &str) -> Option<Column> {
        Some(match field.trim().to_ascii_lowercase().as_str() {
            "ballot" => Column::Ballot,
            "name" | "opening" => Column::Name,
            "moves" | "fen" | "position" => Column::Line,
            "barred" => Column::Barred,
            _ => return None,
        })
    }
}

impl Table {
    /// The names of the shipped tables.
    pub fn shipped_names() -> impl Iterator<Item = &'static str> {
        SHIPPED.iter().map(|(n, _)| *n)
    }

    /// The text of a shipped table (its data file), by name.
    pub fn shipped_text(name: &str) -> Option<&'static str> {
        SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
    }

    /// The shipped tables' names and texts, in their order of precedence.
    pub(crate) fn shipped_sources() -> impl Iterator<Item = (&'static str, &'static str)> {
        SHIPPED.iter().copied()
    }

    /// The variants a TSV table's `# variant:` lines name, read from its leading comments
    /// only (the lines before its first entry); those that name none are left out.
    pub(crate) fn header_variants(text: &str) -> Vec<Variant> {
        let mut t = Table {
            name: String::new(),
            origin: String::new(),
            title: None,
            variants: Vec::new(),
            entries: Vec::new(),
            pdn: false,
        };
        for line in text.lines() {
            let line = line.trim_start();
            match line.strip_prefix('#') {
                Some(comment) => {
                    let _ = t.directive(0, comment);
                }
                None if line.trim().is_empty() => {}
                None => break,
            }
        }
        t.variants
    }

    /// The shipped tables, in their order of precedence (a test reads every one of them
    /// without error and checks it: see [`Table::check`]).
    pub fn shipped() -> Vec<Table> {
        SHIPPED
            .iter()
            .filter_map(|(name, text)| Table::parse(name, "shipped", text).ok())
            .collect()
    }

    /// Read a table from bytes (UTF-8, a byte-order mark allowed): PDN if its first line
    /// that is neither blank nor a `#` comment starts with `[`, else TSV.
    ///
    /// # Errors
    ///
    /// Text that is not UTF-8, or a line that is no entry (see the module documentation).
    pub fn from_bytes(name: &str, origin: &str, bytes: &[u8]) -> Result<Table, TableError> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Table::parse(name, origin, text),
            Err(e) => {
                let line = 1 + bytes[..e.valid_up_to()]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count() as u32;
                Err(error(line, "not UTF-8 text"))
            }
        }
    }

    /// Read a table from its text (see [`Table::from_bytes`]).
    ///
    /// # Errors
    ///
    /// A line that is no entry, a table without any.
    pub fn parse(name: &str, origin: &str, text: &str) -> Result<Table, TableError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let pdn = text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .is_some_and(|l| l.starts_with('['));
        let mut table = Table {
            name: name.to_string(),
            origin: origin.to_string(),
            title: None,
            variants: Vec::new(),
            entries: Vec::new(),
            pdn,
        };
        if pdn {
            table.read_pdn(text)?;
        } else {
            table.read_tsv(text)?;
        }
        if table.entries.is_empty() {
            return Err(error(0, "no opening in the table"));
        }
        Ok(table)
    }

    fn read_pdn(&mut self, text: &str) -> Result<(), TableError> {
        for game in read_games(text.as_bytes()) {
            let tag = |n: &str| {
                game.tag(n)
                    .map(str::trim)
                    .filter(|v| !v.is_empty() && *v != "?")
            };
            let ballot = match tag("Ballot") {
                Some(b) => Some(
                    ballot_number(b.split_whitespace().next().unwrap_or("")).ok_or_else(|| {
                        error(game.line, format!("Ballot \"{b}\": no ballot number first"))
                    })?,
                ),
                None => None,
            };
            let barred = match tag("Barred") {
                Some(b) => yes(b)
                    .ok_or_else(|| error(game.line, format!("Barred \"{b}\": not yes or no")))?,
                None => false,
            };
            let name = tag("Opening").map(str::to_string);
            if name.is_none() && ballot.is_none() {
                return Err(error(
                    game.line,
                    "a game without an Opening tag (or a Ballot tag): every game of a PDN table names an opening",
                ));
            }
            self.entries.push(Entry {
                line: game.line,
                name,
                ballot,
                barred,
                what: What::Game(game.source.clone()),
            });
        }
        Ok(())
    }

    fn read_tsv(&mut self, text: &str) -> Result<(), TableError> {
        let mut columns: Option<Vec<Column>> = None;
        for (i, raw) in text.split('\n').enumerate() {
            let line = i as u32 + 1;
            let row = raw.strip_suffix('\r').unwrap_or(raw);
            if row.trim().is_empty() {
                continue;
            }
            if let Some(comment) = row.trim_start().strip_prefix('#') {
                self.directive(line, comment)?;
                continue;
            }
            let fields: Vec<&str> = row.split('\t').collect();
            let cols = match &columns {
                Some(c) => c,
                None => {
                    let named: Option<Vec<Column>> = fields.iter().map(|f| Column::of(f)).collect();
                    match named {
                        Some(named) if named.contains(&Column::Line) => {
                            for c in [Column::Ballot, Column::Name, Column::Line, Column::Barred] {
                                if named.iter().filter(|&&n| n == c).count() > 1 {
                                    return Err(error(line, "a column named twice"));
                                }
                            }
                            if !named.contains(&Column::Name) && !named.contains(&Column::Ballot) {
                                return Err(error(
                                    line,
                                    "the header names no `name` or `ballot` column",
                                ));
                            }
                            columns = Some(named);
                            continue;
                        }
                        _ => columns.insert(vec![Column::Name, Column::Line]),
                    }
                }
            };
            let entry = entry_of(line, cols, &fields)?;
            self.entries.push(entry);
        }
        Ok(())
    }

    /// A `# key: value` comment line.
    fn directive(&mut self, line: u32, comment: &str) -> Result<(), TableError> {
        let Some((key, value)) = comment.split_once(':') else {
            return Ok(());
        };
        match key.trim().to_ascii_lowercase().as_str() {
            "variant" | "variants" => {
                for v in value.split(',').map(str::trim).filter(|v| !v.is_empty()) {
                    let v: Variant = v.parse().map_err(|e| error(line, format!("{e}")))?;
                    if !self.variants.contains(&v) {
                        self.variants.push(v);
                    }
                }
            }
            "title" => self.title = Some(value.trim().to_string()),
            _ => {}
        }
        Ok(())
    }
}

/// One TSV line.
fn entry_of(line: u32, cols: &[Column], fields: &[&str]) -> Result<Entry, TableError> {
    if fields.len() > cols.len() && fields[cols.len()..].iter().any(|f| !f.trim().is_empty()) {
        return Err(error(
            line,
            format!(
                "{} fields where the table has {} columns (fields are separated by tabs)",
                fields.len(),
                cols.len()
            ),
        ));
    }
    let mut entry = Entry {
        line,
        name: None,
        ballot: None,
        barred: false,
        what: What::Moves(String::new()),
    };
    let mut text = "";
    for (c, f) in cols.iter().zip(fields.iter().chain(std::iter::repeat(&""))) {
        let f = f.trim();
        match c {
            Column::Name => entry.name = (!f.is_empty()).then(|| f.to_string()),
            Column::Ballot if f.is_empty() => {}
            Column::Ballot => {
                entry.ballot =
                    Some(ballot_number(f).ok_or_else(|| {
                        error(line, format!("ballot `{f}`: not a number from 1"))
                    })?);
            }
            Column::Barred => {
                entry.barred = yes(f)
                    .ok_or_else(|| error(line, format!("barred `{f}`: not `barred`, yes or no")))?;
            }
            Column::Line => text = f,
        }
    }
    if text.is_empty() {
        return Err(error(
            line,
            if cols == [Column::Name, Column::Line] && fields.len() < 2 {
                "no moves or FEN: write name<TAB>moves or name<TAB>FEN (a tab between them)"
            } else {
                "no moves or FEN"
            },
        ));
    }
    if entry.name.is_none() && entry.ballot.is_none() {
        return Err(error(line, "an entry without a name or a ballot number"));
    }
    entry.what = if looks_like_fen(text) {
        What::Position(text.to_string())
    } else {
        What::Moves(text.to_string())
    };
    Ok(entry)
}

/// A FEN starts with the side to move (or `?`) and a colon: `W:W31-50:B1-20`. (Moves never
/// do: a Russian capture `c3:e5` starts with a square.)
fn looks_like_fen(text: &str) -> bool {
    let mut chars = text.trim_start_matches('"').chars();
    matches!(chars.next(), Some('W' | 'B' | 'w' | 'b' | '?'))
        && chars.find(|c| !c.is_whitespace()) == Some(':')
}

fn ballot_number(s: &str) -> Option<u32> {
    let s = s.trim().trim_start_matches('#');
    s.parse::<u32>().ok().filter(|&n| n > 0)
}

fn yes(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "barred" | "yes" | "true" | "1" | "x" => Some(true),
        "no" | "false" | "0" | "" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tsv_default_columns_and_directives() {
        let t = Table::parse(
            "mine",
            "mine.tsv",
            "# my openings\n# variant: english, italian\n# title: Mine\n\
             Old Fourteenth\t11-15 23-19 8-11 22-17 4-8\r\n\nEleven\tB:W21-31:B1-11\n",
        )
        .unwrap();
        assert_eq!(t.variants, vec![Variant::English, Variant::Italian]);
        assert_eq!(t.title.as_deref(), Some("Mine"));
        assert_eq!(t.entries.len(), 2);
        assert_eq!(t.entries[0].line, 4);
        assert_eq!(
            t.entries[0].what,
            What::Moves("11-15 23-19 8-11 22-17 4-8".into())
        );
        assert_eq!(t.entries[1].what, What::Position("B:W21-31:B1-11".into()));
        assert!(!t.pdn);
    }

    #[test]
    fn tsv_header_ballots_and_barred() {
        let t = Table::parse(
            "b",
            "b.tsv",
            "ballot\tname\tmoves\tbarred\n1\t\t9-13 21-17 5-9\t\n3\t\t9-13 21-17 10-14\tbarred\n",
        )
        .unwrap();
        assert_eq!(t.entries[0].ballot, Some(1));
        assert!(!t.entries[0].barred && t.entries[1].barred);
        assert_eq!(t.entries[1].name, None);
    }

    #[test]
    fn tsv_errors_say_where() {
        for (text, line, what) in [
            ("Name only\n", 1, "a tab between them"),
            ("ballot\tmoves\nx\t9-13\n", 2, "not a number"),
            (
                "ballot\tmoves\tbarred\n1\t9-13\tperhaps\n",
                2,
                "barred `perhaps`",
            ),
            ("# variant: chess\n", 1, "unknown variant"),
            ("a\tb\tc\n", 1, "3 fields"),
            ("\tB:W1:B2\n", 1, "without a name"),
            ("# nothing\n", 0, "no opening"),
        ] {
            let e = Table::parse("t", "t", text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.message.contains(what), "{text:?}: {e}");
        }
        let e = Table::from_bytes("t", "t", b"a\t11-15\n\xff\t1\n").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn pdn_tables_name_openings_by_tag() {
        let t = Table::parse(
            "p",
            "p.pdn",
            "[GameType \"21\"]\n[Opening \"Old Fourteenth\"]\n1. 11-15 23-19 2. 8-11 22-17 3. 4-8 *\n\n\
             [Opening \"\"]\n[Ballot \"7 9-13 22-18 10-15\"]\n[Barred \"no\"]\n1. 9-13 22-18 2. 10-15 *\n",
        )
        .unwrap();
        assert!(t.pdn);
        assert_eq!(t.entries[0].name.as_deref(), Some("Old Fourteenth"));
        assert_eq!(t.entries[1].ballot, Some(7));
        assert_eq!(t.entries[1].name, None);
        assert_eq!(t.entries[1].line, 5);
        let e = Table::parse("p", "p.pdn", "[Event \"x\"]\n1. 32-28 *\n").unwrap_err();
        assert!(e.message.contains("Opening tag"), "{e}");
    }

    #[test]
    fn fen_and_moves_are_told_apart() {
        assert!(looks_like_fen("W:W31-50:B1-20"));
        assert!(looks_like_fen("B :W21:B1"));
        assert!(!looks_like_fen("c3:e5"));
        assert!(!looks_like_fen("32-28 18-23"));
        assert!(!looks_like_fen("1. 32-28"));
    }
}
