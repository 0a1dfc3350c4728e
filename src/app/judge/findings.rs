//! What `validate` reports and how much of it, as a layer over the diagnostics a game's
//! validation produced: the policy of the command line (`--allow` and `--deny` a code,
//! `--min-severity`, `--max-diagnostics`), the findings of a game put in source order, a
//! game's rendering with the shown findings, and the totals (per severity and per code) with
//! their closing summary.
//!
//! Allowed codes are gone before anything is counted (as clippy's `allow`); a denied code is
//! an error wherever it is counted, so the exit status follows. `--min-severity` and
//! `--max-diagnostics` only choose what is shown: the totals, the JSON `game` records and
//! the exit status count every finding that is not allowed.

use std::fmt::Write as _;

use crate::app::judge::diagnostic::{
    Code, Diagnostic, Format, GameText, Palette, Severity, board_note, close, json_place, open,
    paint, place, render_json, render_styled,
};
use crate::app::judge::validate::Verdict;
use crate::app::write::jsonl::{Object, push_str, push_uint};
use crate::syntax::{Game, LineIndex};

/// Up to this many findings shown, a game's findings are located without an index of its
/// lines ([`LineIndex::direct`]).
const DIRECT: usize = 4;

/// What the command line says of one code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Level {
    /// As docs/formats.md classes it.
    #[default]
    Default,
    /// Silenced: not shown, not counted.
    Allow,
    /// An error, whatever its severity.
    Deny,
}

/// What to report and how much.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// The least severity shown.
    pub min_severity: Severity,
    /// Per code, in the order of [`Code::ALL`].
    levels: [Level; Code::ALL.len()],
    /// At most this many findings shown in all (the rest are counted).
    pub max_diagnostics: Option<u64>,
}

impl Default for Policy {
    /// Everything shown, every code as docs/formats.md classes it.
    fn default() -> Self {
        Policy {
            min_severity: Severity::Info,
            levels: [Level::Default; Code::ALL.len()],
            max_diagnostics: None,
        }
    }
}

fn index(code: Code) -> usize {
    Code::ALL.iter().position(|c| *c == code).unwrap_or(0)
}

impl Policy {
    /// Set the level of a code.
    pub fn set(&mut self, code: Code, level: Level) {
        self.levels[index(code)] = level;
    }

    /// The level of a code.
    pub fn level(&self, code: Code) -> Level {
        self.levels[index(code)]
    }

    /// The severity a finding of this code has under the policy (`None`: allowed).
    pub fn severity(&self, code: Code) -> Option<Severity> {
        match self.level(code) {
            Level::Default => Some(code.severity()),
            Level::Allow => None,
            Level::Deny => Some(Severity::Error),
        }
    }

    /// True if a finding of this severity is shown.
    pub fn shows(&self, severity: Severity) -> bool {
        severity >= self.min_severity
    }

    /// Apply the policy to a game's findings: the allowed ones dropped, the denied ones made
    /// errors, all of them in source order (those without a place first, at the game's
    /// start, where they are reported; ties in the order they were found).
    pub fn apply(&self, report: &mut Verdict) {
        let d = &mut report.diagnostics;
        if self.levels.iter().any(|l| *l != Level::Default) {
            d.retain_mut(|d| match self.severity(d.code) {
                Some(s) => {
                    d.severity = s;
                    true
                }
                None => false,
            });
        }
        in_source_order(d);
    }
}

/// Sort findings by the place they are reported at (a stable sort: ties keep their order).
pub(crate) fn in_source_order(d: &mut [Diagnostic]) {
    let key = |d: &Diagnostic| d.span.map_or(0, |s| s.start);
    if !d.is_sorted_by_key(key) {
        d.sort_by_key(key);
    }
}

/// A game's findings rendered for the output, with where each shown one ends, so that the
/// writer can cut the output at `--max-diagnostics` (the findings of the games are rendered
/// on any thread, the cap is counted in input order).
#[derive(Clone, Debug, Default)]
pub struct Rendered {
    /// The shown findings, then (JSON) the game's record.
    pub text: String,
    /// Where each shown finding's rendering ends in `text`.
    pub ends: Vec<usize>,
    /// What the game counts (not its findings reported once per file).
    pub counts: Counts,
    /// Its findings reported once per file (see [`Diagnostic::per_file`]): rendered by
    /// [`Totals::end_file`] at the end of the file, with their count.
    pub per_file: Vec<FileFinding>,
    /// For the human format, of each shown finding: what makes it the same finding as
    /// another (severity, code, message), where it is (`line:column (game N)`), and its
    /// board, rendered apart (the writer puts it before the finding's last line break, or
    /// leaves it out).
    pub human: Vec<HumanExtras>,
}

/// What the writer of the human format may do with a finding: group it with the same
/// finding elsewhere in the file, draw its board or not.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HumanExtras {
    /// Severity, code and message: the same in every repeat of a finding.
    pub key: String,
    /// `line:column (game N)`.
    pub place: String,
    /// The board note (`= position before the move:` and the board), if the finding has one.
    pub board: Option<String>,
}

/// A finding reported once per file, as the first game of the file that has it holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileFinding {
    /// The finding (its `per_file` key set).
    diagnostic: Diagnostic,
    /// What rendering it needs of its game.
    index: usize,
    source: String,
    line: u32,
    column: u32,
    white: Option<String>,
    black: Option<String>,
}

impl FileFinding {
    fn of(d: &Diagnostic, game: &GameText<'_>) -> FileFinding {
        FileFinding {
            diagnostic: d.clone(),
            index: game.index,
            source: game.source.to_owned(),
            line: game.line,
            column: game.column,
            white: game.white.map(str::to_owned),
            black: game.black.map(str::to_owned),
        }
    }

    fn key(&self) -> &str {
        self.diagnostic.per_file.as_deref().unwrap_or("")
    }
}

/// What a game counts: plies, findings per severity and per code (allowed codes excluded;
/// shown or not).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Plies replayed.
    pub plies: u32,
    /// Findings of severity error.
    pub errors: u32,
    /// Findings of severity warning.
    pub warnings: u32,
    /// Findings of severity info.
    pub infos: u32,
    /// Per code, in the order of [`Code::ALL`].
    pub codes: [u32; Code::ALL.len()],
    /// Per code, those found inside variations (counted in `codes` too).
    pub in_variations: [u32; Code::ALL.len()],
}

impl Counts {
    pub(crate) fn of(report: &Verdict) -> Counts {
        Counts::of_those(report, |_| true)
    }

    /// What a game counts of the findings `counted` keeps.
    fn of_those(report: &Verdict, counted: impl Fn(&Diagnostic) -> bool) -> Counts {
        let mut c = Counts {
            plies: report.plies,
            ..Counts::default()
        };
        for d in report.diagnostics.iter().filter(|d| counted(d)) {
            c.add(d);
        }
        c
    }

    /// Count one finding.
    fn add(&mut self, d: &Diagnostic) {
        let c = self;
        {
            match d.severity() {
                Severity::Error => c.errors += 1,
                Severity::Warning => c.warnings += 1,
                Severity::Info => c.infos += 1,
            }
            c.codes[index(d.code)] += 1;
            if d.variation {
                c.in_variations[index(d.code)] += 1;
            }
        }
    }
}

/// Render a game's shown findings (and in JSON its `game` record, which counts all of them)
/// after the policy was applied to its report.
pub fn render_game(
    format: Format,
    palette: &Palette,
    policy: &Policy,
    file: &str,
    game: &Game,
    report: &Verdict,
) -> Rendered {
    render_game_text(format, palette, policy, file, &GameText::of(game), report)
}

/// [`render_game`] for a game known by its text.
pub fn render_game_text(
    format: Format,
    palette: &Palette,
    policy: &Policy,
    file: &str,
    game: &GameText<'_>,
    report: &Verdict,
) -> Rendered {
    let counts = Counts::of_those(report, |d| d.per_file.is_none());
    // About the size of the game for JSON with its usual notes; grows if needed. (At most
    // 64 KB ahead: a huge game with one finding would otherwise reserve its whole size.)
    let mut r = Rendered {
        text: String::with_capacity(if report.diagnostics.is_empty() {
            0
        } else {
            (256 + game.source.len()).min(64 << 10)
        }),
        ends: Vec::with_capacity(report.diagnostics.len()),
        counts,
        per_file: Vec::new(),
        human: Vec::new(),
    };
    let mut lines = None;
    let json_at = if format == Format::Json {
        json_place(file, game.index)
    } else {
        String::new()
    };
    for d in &report.diagnostics {
        if d.per_file.is_some() {
            r.per_file.push(FileFinding::of(d, game));
            continue;
        }
        if policy.shows(d.severity()) {
            // A few findings are located by counting from the start of the game; more, through
            // an index of its lines as far as its last finding shown (most are in its tags).
            let lines = lines.get_or_insert_with(|| {
                let shown = || {
                    let all = report.diagnostics.iter();
                    all.filter(|d| policy.shows(d.severity()))
                };
                if shown().nth(DIRECT).is_none() {
                    return LineIndex::direct();
                }
                let last = shown().filter_map(|d| d.span.map(|s| s.start)).max();
                game.lines_to(last.unwrap_or(0))
            });
            if format == Format::Human {
                let mut board = None;
                if let Some(b) = &d.board {
                    let mut note = String::new();
                    board_note(&mut note, palette, b);
                    board = Some(note);
                }
                let mut bare = d.clone();
                bare.board = None;
                render_styled(format, palette, file, game, lines, &bare, &mut r.text);
                r.human.push(HumanExtras {
                    key: format!(
                        "{}[{}]: {}",
                        d.severity().as_str(),
                        d.code.as_str(),
                        d.message
                    ),
                    place: place(game, lines, d),
                    board,
                });
            } else if format == Format::Json {
                render_json(&mut r.text, &json_at, game, lines, d);
            } else {
                render_styled(format, palette, file, game, lines, d, &mut r.text);
            }
            r.ends.push(r.text.len());
        }
    }
    if format == Format::Json {
        // The keys and their order are docs/formats.md's (written as `Object` writes them,
        // after the file and game made once for the findings).
        let t = &mut r.text;
        t.push_str("{\"type\":\"game\",");
        t.push_str(&json_at);
        // (A variant's name is a word of `a-z`, written without an escaping pass.)
        match report.variant {
            Some(v) => {
                t.push_str("\"variant\":\"");
                t.push_str(v.name());
                t.push('"');
            }
            None => t.push_str("\"variant\":null"),
        }
        t.push_str(",\"plies\":");
        push_uint(t, u64::from(report.plies));
        t.push_str(",\"errors\":");
        push_uint(t, u64::from(r.counts.errors));
        t.push_str(",\"warnings\":");
        push_uint(t, u64::from(r.counts.warnings));
        t.push_str(",\"result\":");
        match report.result.as_deref() {
            Some(v) => push_str(t, v),
            None => t.push_str("null"),
        }
        if let Some(why) = report.inferred.as_deref() {
            t.push_str(",\"variant_inferred\":");
            push_str(t, why);
        }
        t.push_str("}\n");
    }
    r
}

/// Totals over files and games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Files read.
    pub files: u64,
    /// Games.
    pub games: u64,
    /// Plies replayed.
    pub plies: u64,
    /// Error findings (the denied codes among them).
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
    /// Games with at least one error.
    pub games_with_errors: u64,
    /// Information findings.
    pub infos: u64,
    /// Findings per code, in the order of [`Code::ALL`].
    pub codes: [u64; Code::ALL.len()],
    /// Findings per code inside variations (counted in `codes` too).
    pub in_variations: [u64; Code::ALL.len()],
    /// Inputs that could not be read, or not to their end (docs/formats.md).
    pub unreadable_files: u64,
    /// Findings shown.
    pub shown: u64,
    /// Findings of a shown severity left out by `--max-diagnostics`.
    pub capped: u64,
    /// The findings reported once per file of the file being read, with their counts.
    file: Vec<(FileFinding, u64)>,
}

impl Totals {
    /// Add a game's counts.
    pub fn add(&mut self, c: &Counts) {
        self.games += 1;
        self.plies += u64::from(c.plies);
        self.errors += u64::from(c.errors);
        self.warnings += u64::from(c.warnings);
        self.infos += u64::from(c.infos);
        if c.errors > 0 {
            self.games_with_errors += 1;
        }
        for (t, n) in self.codes.iter_mut().zip(c.codes) {
            *t += u64::from(n);
        }
        for (t, n) in self.in_variations.iter_mut().zip(c.in_variations) {
            *t += u64::from(n);
        }
    }

    /// Take a game: count it, and return the part of its rendering to write (all of it, or
    /// what `--max-diagnostics` leaves). Its findings reported once per file wait for
    /// [`Totals::end_file`].
    pub fn take<'a>(&mut self, policy: &Policy, r: &'a Rendered) -> (&'a str, Option<&'a str>) {
        self.add(&r.counts);
        for f in &r.per_file {
            match self.file.iter_mut().find(|(g, _)| g.key() == f.key()) {
                Some((_, n)) => *n += 1,
                None => self.file.push((f.clone(), 1)),
            }
        }
        let n = r.ends.len() as u64;
        let left = policy
            .max_diagnostics
            .map_or(u64::MAX, |m| m.saturating_sub(self.shown));
        if n <= left {
            self.shown += n;
            return (&r.text, None);
        }
        // `left` < n: cut after the last finding allowed; the game record (JSON) stays.
        self.shown += left;
        self.capped += n - left;
        let cut = match left {
            0 => 0,
            k => r.ends[k as usize - 1],
        };
        let tail = r.ends.last().copied().unwrap_or(0);
        (&r.text[..cut], Some(&r.text[tail..]))
    }

    /// The end of a file: its findings reported once per file, each at the first game that
    /// has it with the number of games that do (written in `format`, counted, shown as the
    /// policy and `--max-diagnostics` say). In JSON they come after the file's last game.
    pub fn end_file(
        &mut self,
        format: Format,
        palette: &Palette,
        policy: &Policy,
        file: &str,
        out: &mut String,
    ) {
        for (f, n) in std::mem::take(&mut self.file) {
            let mut d = f.diagnostic;
            let _ = write!(
                d.message.to_mut(),
                " (in {n} game{} of this file)",
                if n == 1 { "" } else { "s" }
            );
            let mut c = Counts::default();
            c.add(&d);
            self.errors += u64::from(c.errors);
            self.warnings += u64::from(c.warnings);
            self.infos += u64::from(c.infos);
            for (t, k) in self.codes.iter_mut().zip(c.codes) {
                *t += u64::from(k);
            }
            for (t, k) in self.in_variations.iter_mut().zip(c.in_variations) {
                *t += u64::from(k);
            }
            if !policy.shows(d.severity()) {
                continue;
            }
            if policy.max_diagnostics.is_some_and(|m| self.shown >= m) {
                self.capped += 1;
                continue;
            }
            self.shown += 1;
            let game = GameText {
                index: f.index,
                source: &f.source,
                line: f.line,
                column: f.column,
                white: f.white.as_deref(),
                black: f.black.as_deref(),
            };
            let lines = game.lines();
            render_styled(format, palette, file, &game, &lines, &d, out);
        }
    }

    /// The number of findings of a severity.
    pub fn of(&self, s: Severity) -> u64 {
        match s {
            Severity::Error => self.errors,
            Severity::Warning => self.warnings,
            Severity::Info => self.infos,
        }
    }

    /// The findings per code: those the policy shows (`shown`) or those it hides, as
    /// (code, severity under the policy, count, of which in variations), errors first, then
    /// in docs/formats.md's order.
    fn by_code(&self, policy: &Policy, shown: bool) -> Vec<(Code, Severity, u64, u64)> {
        let mut v: Vec<_> = Code::ALL
            .iter()
            .zip(self.codes)
            .zip(self.in_variations)
            .filter(|((_, n), _)| *n > 0)
            .filter_map(|((c, n), var)| Some((*c, policy.severity(*c)?, n, var)))
            .filter(|(_, s, _, _)| policy.shows(*s) == shown)
            .collect();
        v.sort_by_key(|(_, s, _, _)| std::cmp::Reverse(*s));
        v
    }

    /// The closing lines of human and short output: the shown findings per code, then the
    /// summary line ([`Totals::summary_line`]).
    pub fn render_text(&self, palette: &Palette, policy: &Policy, out: &mut String) {
        let codes = self.by_code(policy, true);
        if !codes.is_empty() {
            let width = codes
                .iter()
                .map(|(_, _, n, _)| n.to_string().len())
                .max()
                .unwrap_or(1);
            // The main line and the variations apart, where a code has findings in both.
            let label = |s: Severity, code: Code| format!("{}[{}]", s.as_str(), code.as_str());
            let label_width = codes
                .iter()
                .map(|(c, s, _, _)| label(*s, *c).len())
                .max()
                .unwrap_or(0);
            for (code, s, n, var) in codes {
                let style = palette.severity(s);
                let _ = write!(out, "{n:>width$} ");
                open(out, style);
                out.push_str(&label(s, code));
                close(out, style);
                if var > 0 {
                    let pad = label_width - label(s, code).len();
                    let _ = write!(
                        out,
                        "{:pad$}  ({} main line, {var} in variations)",
                        "",
                        n - var
                    );
                }
                out.push('\n');
            }
        }
        paint(out, palette.emphasis, &self.summary_line(policy));
        out.push('\n');
    }

    /// `checked 120 games (9512 plies) in 1 file: 4 errors, 7 warnings, 3 games with errors`,
    /// and what was not shown.
    pub fn summary_line(&self, policy: &Policy) -> String {
        let mut s = format!(
            "checked {} game{} ({} {}) in {} file{}: {} error{}, {} warning{}, {} game{} with errors",
            self.games,
            plural(self.games),
            self.plies,
            if self.plies == 1 { "ply" } else { "plies" },
            self.files,
            plural(self.files),
            self.errors,
            plural(self.errors),
            self.warnings,
            plural(self.warnings),
            self.games_with_errors,
            plural(self.games_with_errors)
        );
        let mut hidden = Vec::new();
        for sev in [Severity::Warning, Severity::Info] {
            let n = self.of(sev);
            if n > 0 && !policy.shows(sev) {
                hidden.push(format!("{n} {}{}", sev.as_str(), plural(n)));
            }
        }
        if let Some(m) = policy.max_diagnostics
            && self.capped > 0
        {
            hidden.push(format!("{} past --max-diagnostics {m}", self.capped));
        }
        if !hidden.is_empty() {
            let _ = write!(s, " (not shown: {})", hidden.join(", "));
        }
        s
    }

    /// The JSON `summary` record (docs/formats.md): every finding that is not allowed is counted,
    /// shown or not.
    pub fn render_json(&self, out: &mut String) {
        let mut o = Object::new(out);
        o.str("type", "summary")
            .uint("files", self.files)
            .uint("games", self.games)
            .uint("plies", self.plies)
            .uint("errors", self.errors)
            .uint("warnings", self.warnings)
            .uint("games_with_errors", self.games_with_errors)
            .uint("infos", self.infos);
        // By name (the order of the JSON maps this record was first written with).
        let mut named: Vec<(&str, u64)> = Code::ALL
            .iter()
            .zip(self.codes)
            .filter(|&(_, n)| n > 0)
            .map(|(c, n)| (c.as_str(), n))
            .collect();
        named.sort_unstable();
        let mut codes = o.object("codes");
        for (name, n) in named {
            codes.uint(name, n);
        }
        codes.close();
        // The same findings inside variations (the main line's are the difference).
        let mut named: Vec<(&str, u64)> = Code::ALL
            .iter()
            .zip(self.in_variations)
            .filter(|&(_, n)| n > 0)
            .map(|(c, n)| (c.as_str(), n))
            .collect();
        named.sort_unstable();
        let mut codes = o.object("codes_in_variations");
        for (name, n) in named {
            codes.uint(name, n);
        }
        codes.close();
        o.uint("unreadable_files", self.unreadable_files);
        if self.capped > 0 {
            o.uint("not_shown", self.capped);
        }
        o.end();
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::Span;

    fn d(code: Code, start: Option<u32>) -> Diagnostic {
        let d = Diagnostic::new(code, "m");
        match start {
            Some(s) => d.at(Span {
                start: s,
                end: s + 1,
            }),
            None => d,
        }
    }

    fn report(diagnostics: Vec<Diagnostic>) -> Verdict {
        Verdict {
            game: 1,
            variant: None,
            inferred: None,
            guessed: false,
            plies: 3,
            result: None,
            diagnostics,
        }
    }

    #[test]
    fn allow_drops_deny_raises_and_the_order_is_the_source_order() {
        let mut p = Policy::default();
        p.set(Code::Tolerated, Level::Allow);
        p.set(Code::DrawRule, Level::Deny);
        let mut r = report(vec![
            d(Code::DrawRule, Some(40)),
            d(Code::Tolerated, Some(1)),
            d(Code::IllegalMove, Some(20)),
            d(Code::UnknownVariant, None),
            d(Code::BadTag, Some(20)),
        ]);
        p.apply(&mut r);
        let got: Vec<_> = r
            .diagnostics
            .iter()
            .map(|d| (d.code, d.severity()))
            .collect();
        assert_eq!(
            got,
            [
                (Code::UnknownVariant, Severity::Error),
                (Code::IllegalMove, Severity::Error),
                (Code::BadTag, Severity::Warning),
                (Code::DrawRule, Severity::Error),
            ]
        );
        let c = Counts::of(&r);
        assert_eq!((c.errors, c.warnings, c.infos), (3, 1, 0));
        assert_eq!(c.codes[index(Code::DrawRule)], 1);
        assert_eq!(c.codes[index(Code::Tolerated)], 0);
    }

    #[test]
    fn the_cap_cuts_between_findings_and_keeps_the_game_record() {
        let r = Rendered {
            text: "a\nb\nc\n{game}\n".into(),
            ends: vec![2, 4, 6],
            counts: Counts {
                errors: 3,
                ..Counts::default()
            },
            per_file: Vec::new(),
            human: Vec::new(),
        };
        let p = Policy {
            max_diagnostics: Some(4),
            ..Policy::default()
        };
        let mut t = Totals::default();
        assert_eq!(t.take(&p, &r), (r.text.as_str(), None));
        assert_eq!(t.take(&p, &r), ("a\n", Some("{game}\n")));
        assert_eq!(t.take(&p, &r), ("", Some("{game}\n")));
        assert_eq!((t.shown, t.capped, t.errors, t.games), (4, 5, 9, 3));
        assert!(
            t.summary_line(&p)
                .ends_with("(not shown: 5 past --max-diagnostics 4)")
        );
    }

    #[test]
    fn findings_of_a_file_are_one_with_their_count() {
        let date = |start: u32| {
            let mut d = d(Code::BadTag, Some(start));
            d.message = "Date `09.07.2007` is not YYYY.MM.DD".into();
            d.per_file = Some("Date D.D.YYYY".into());
            d
        };
        let p = Policy::default();
        let mut t = Totals::default();
        for _ in 0..3 {
            let mut r = report(vec![date(1), d(Code::IllegalMove, Some(9))]);
            r.diagnostics[0].severity = Severity::Warning;
            let g = crate::syntax::read_games(b"[Date \"09.07.2007\"]\n1. 32-28 *\n");
            let text = GameText::of(&g[0]);
            let rendered = render_game_text(Format::Short, &Palette::PLAIN, &p, "f", &text, &r);
            assert_eq!((rendered.counts.errors, rendered.counts.warnings), (1, 0));
            assert_eq!(rendered.per_file.len(), 1);
            t.take(&p, &rendered);
        }
        let mut out = String::new();
        t.end_file(Format::Short, &Palette::PLAIN, &p, "f", &mut out);
        assert_eq!(out.lines().count(), 1, "{out}");
        assert!(out.contains("(in 3 games of this file)"), "{out}");
        assert_eq!((t.errors, t.warnings), (3, 1));
        // The next file starts afresh.
        let mut out = String::new();
        t.end_file(Format::Short, &Palette::PLAIN, &p, "f", &mut out);
        assert!(out.is_empty());
    }

    #[test]
    fn variant_names_need_no_escaping() {
        for v in crate::rules::Variant::ALL {
            assert!(
                v.name().bytes().all(|b| b.is_ascii_lowercase()),
                "{}",
                v.name()
            );
        }
    }

    #[test]
    fn hidden_severities_are_counted_and_named() {
        let p = Policy {
            min_severity: Severity::Error,
            ..Policy::default()
        };
        let mut t = Totals {
            warnings: 2,
            infos: 1,
            ..Totals::default()
        };
        t.codes[index(Code::BadTag)] = 2;
        t.codes[index(Code::Tolerated)] = 1;
        let mut out = String::new();
        t.render_text(&Palette::PLAIN, &p, &mut out);
        assert!(!out.contains("warning["), "{out}");
        assert!(out.ends_with("(not shown: 2 warnings, 1 info)\n"), "{out}");
        let mut json = String::new();
        t.render_json(&mut json);
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["codes"]["bad-tag"], 2);
        assert_eq!(v["infos"], 1);
    }
}
