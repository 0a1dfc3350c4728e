//! Diagnostics: the codes and severities of docs/formats.md, the diagnostic record, and its three
//! renderings (human like a compiler, one line each, JSON Lines). In the human and short
//! renderings every string from the input (file name, message, tags, the source line) is
//! escaped for the terminal ([`crate::app::write::terminal`]); JSON escapes as JSON does. The human and
//! short renderings may be coloured ([`Palette`], cargo's colours through anstyle): the
//! escape sequences come only from the palette, never from the input.

use std::borrow::Cow;
use std::fmt::Write as _;

use anstyle::{AnsiColor, Effects, Style};

use crate::app::write::jsonl::{push_str, push_uint};
use crate::app::write::terminal::{escaped_width, push_escaped};
use crate::rules::Color;
use crate::syntax::{Game, Span, lines};

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// A non-standard construct that was read anyway.
    Info,
    /// Suspicious but not wrong (exit status 0).
    Warning,
    /// A broken rule or malformed record (exit status 1).
    Error,
}

impl Severity {
    /// As written.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// The diagnostic codes (docs/formats.md). The strings are a public contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    /// Malformed PDN.
    SyntaxError,
    /// Malformed or impossible FEN.
    BadFen,
    /// GameType unknown and no variant could be inferred.
    UnknownVariant,
    /// No legal move matches.
    IllegalMove,
    /// A non-capturing move while a capture was mandatory.
    MissedCapture,
    /// A capture taking fewer pieces (or less value) than the precedence rule demands.
    NonMaximalCapture,
    /// The capture stops where the same piece could go on capturing.
    UnfinishedCapture,
    /// Legal only if a man had already been crowned.
    PrematurePromotion,
    /// The notation matches several legal moves that take different pieces.
    AmbiguousMove,
    /// The moved piece belongs to the side not to move.
    WrongSide,
    /// Moves after the side to move had no legal move.
    MovesAfterEnd,
    /// Result tag, terminator and final position disagree.
    ResultMismatch,
    /// A draw by rule was reached and play went on or a win was claimed.
    DrawRule,
    /// Move numbers out of sequence.
    MoveNumber,
    /// A tag value that breaks its format.
    BadTag,
    /// A non-standard construct that was read anyway.
    Tolerated,
}

impl Code {
    /// Every code, in the order of docs/formats.md.
    pub const ALL: [Code; 16] = [
        Code::SyntaxError,
        Code::BadFen,
        Code::UnknownVariant,
        Code::IllegalMove,
        Code::MissedCapture,
        Code::NonMaximalCapture,
        Code::UnfinishedCapture,
        Code::PrematurePromotion,
        Code::AmbiguousMove,
        Code::WrongSide,
        Code::MovesAfterEnd,
        Code::ResultMismatch,
        Code::DrawRule,
        Code::MoveNumber,
        Code::BadTag,
        Code::Tolerated,
    ];

    /// The code as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::SyntaxError => "syntax-error",
            Code::BadFen => "bad-fen",
            Code::UnknownVariant => "unknown-variant",
            Code::IllegalMove => "illegal-move",
            Code::MissedCapture => "missed-capture",
            Code::NonMaximalCapture => "non-maximal-capture",
            Code::UnfinishedCapture => "unfinished-capture",
            Code::PrematurePromotion => "premature-promotion",
            Code::AmbiguousMove => "ambiguous-move",
            Code::WrongSide => "wrong-side",
            Code::MovesAfterEnd => "moves-after-end",
            Code::ResultMismatch => "result-mismatch",
            Code::DrawRule => "draw-rule",
            Code::MoveNumber => "move-number",
            Code::BadTag => "bad-tag",
            Code::Tolerated => "tolerated",
        }
    }

    /// The severity of the code.
    pub fn severity(self) -> Severity {
        match self {
            Code::DrawRule | Code::MoveNumber | Code::BadTag => Severity::Warning,
            Code::Tolerated => Severity::Info,
            _ => Severity::Error,
        }
    }

    /// True if the code concerns a move and may come with a board diagram.
    pub fn is_move_code(self) -> bool {
        matches!(
            self,
            Code::IllegalMove
                | Code::MissedCapture
                | Code::NonMaximalCapture
                | Code::UnfinishedCapture
                | Code::PrematurePromotion
                | Code::AmbiguousMove
                | Code::WrongSide
                | Code::MovesAfterEnd
        )
    }

    /// The code of a move-resolution outcome.
    pub(crate) fn from_resolution(c: crate::app::judge::resolve::Code) -> Code {
        use crate::app::judge::resolve::Code as R;
        match c {
            R::IllegalMove => Code::IllegalMove,
            R::MissedCapture => Code::MissedCapture,
            R::NonMaximalCapture => Code::NonMaximalCapture,
            R::UnfinishedCapture => Code::UnfinishedCapture,
            R::PrematurePromotion => Code::PrematurePromotion,
            R::WrongSide => Code::WrongSide,
            R::AmbiguousMove => Code::AmbiguousMove,
        }
    }
}

/// A name that is no diagnostic code (the name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCode(pub String);

impl std::fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown diagnostic code `{}`", self.0)
    }
}

impl std::error::Error for UnknownCode {}

impl std::str::FromStr for Code {
    type Err = UnknownCode;
    fn from_str(s: &str) -> Result<Code, UnknownCode> {
        Code::ALL
            .into_iter()
            .find(|c| c.as_str() == s)
            .ok_or_else(|| UnknownCode(s.to_owned()))
    }
}

/// One finding about a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What kind of finding.
    pub code: Code,
    /// Where in the game's text.
    pub span: Option<Span>,
    /// Ply along the main line (1-based), for move diagnostics.
    pub ply: Option<u32>,
    /// The move number of that ply.
    pub move_number: Option<u32>,
    /// The side that moved (or should have).
    pub side: Option<Color>,
    /// The move as written.
    pub mv: Option<String>,
    /// What is wrong (a fixed text borrowed: most notes have one).
    pub message: Cow<'static, str>,
    /// The rule (article) it concerns.
    pub rule: Option<Cow<'static, str>>,
    /// The legal moves in the position, for move diagnostics.
    pub legal: Option<Vec<String>>,
    /// A diagram of the position before the move (human output only).
    pub board: Option<String>,
    /// True for a finding inside a variation (not on the main line).
    pub variation: bool,
    /// Reported once per file (`validate`'s human, short and JSON output): the findings of
    /// a file with the same key are one finding, shown at their first game with their
    /// count (a file whose dates all have one form, a broken exporter's damage). `None`:
    /// reported with its game.
    pub per_file: Option<String>,
    /// How serious it is: its code's severity, unless `--deny` raised it
    /// (`crate::app::judge::findings`).
    pub severity: Severity,
}

impl Diagnostic {
    /// A diagnostic with a code and message and nothing else.
    pub fn new(code: Code, message: impl Into<Cow<'static, str>>) -> Self {
        Diagnostic {
            code,
            span: None,
            ply: None,
            move_number: None,
            side: None,
            mv: None,
            message: message.into(),
            rule: None,
            legal: None,
            board: None,
            variation: false,
            per_file: None,
            severity: code.severity(),
        }
    }

    /// Attach a span.
    #[must_use]
    pub fn at(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    /// Attach a rule.
    #[must_use]
    pub fn rule(mut self, rule: impl Into<Cow<'static, str>>) -> Self {
        self.rule = Some(rule.into());
        self
    }

    /// How serious it is: its code's severity unless raised by `--deny`.
    pub fn severity(&self) -> Severity {
        self.severity
    }
}

/// Output format of `validate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Like a compiler: location, message, source line with the move marked, rule, legal
    /// moves, board.
    Human,
    /// One line per diagnostic.
    Short,
    /// JSON Lines (docs/formats.md).
    Json,
}

pub use crate::syntax::LineIndex;

/// What the renderings need of a game: its number, its text and where that starts, the
/// players (an owned [`Game`] or the bytes of a game read into a visitor alike).
#[derive(Clone, Copy, Debug)]
pub struct GameText<'a> {
    /// 1-based position of the game in its file.
    pub index: usize,
    /// The game's text; spans index into it.
    pub source: &'a str,
    /// 1-based line of its first byte.
    pub line: u32,
    /// 1-based column (in characters) of its first byte.
    pub column: u32,
    /// The `White` tag.
    pub white: Option<&'a str>,
    /// The `Black` tag.
    pub black: Option<&'a str>,
}

impl<'a> GameText<'a> {
    /// The text of an owned game.
    pub fn of(game: &'a Game) -> GameText<'a> {
        GameText {
            index: game.index,
            source: &game.source,
            line: game.line,
            column: game.column,
            white: game.tag("White"),
            black: game.tag("Black"),
        }
    }

    /// Line and column of a byte offset into the text (as `Game::line_col`).
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        crate::syntax::line_col_of(self.source, self.line, self.column, offset)
    }

    /// The text of a span (empty if out of range or not at character boundaries).
    pub fn text(&self, span: Span) -> &'a str {
        self.source
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
    }

    /// Index the lines of the text.
    pub fn lines(&self) -> LineIndex {
        LineIndex::of_text(self.source.as_bytes())
    }

    /// The line starts of the text up to the byte after `offset`: enough to locate every
    /// offset up to `offset` (a CR right there is told from a CR LF).
    pub(crate) fn lines_to(&self, offset: u32) -> LineIndex {
        let b = self.source.as_bytes();
        LineIndex::of_text(&b[..(offset as usize).saturating_add(2).min(b.len())])
    }
}

/// The styles of the human and short renderings: cargo's and rustc's colours (a severity and
/// its code in red, yellow or cyan, bold; the carets in the severity's colour; the gutter in
/// blue; the location and the message in bold). [`Palette::PLAIN`] writes no escape sequence
/// at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// `error`, its code and its carets.
    pub error: Style,
    /// `warning`, its code and its carets.
    pub warning: Style,
    /// `info`, its code and its carets.
    pub info: Style,
    /// The location and the message.
    pub emphasis: Style,
    /// The gutter of a source excerpt (`12 |`) and the `=` of the notes.
    pub gutter: Style,
}

impl Palette {
    /// No colour.
    pub const PLAIN: Palette = Palette {
        error: Style::new(),
        warning: Style::new(),
        info: Style::new(),
        emphasis: Style::new(),
        gutter: Style::new(),
    };

    /// Cargo's colours.
    pub(crate) const CARGO: Palette = Palette {
        error: AnsiColor::Red.on_default().effects(Effects::BOLD),
        warning: AnsiColor::Yellow.on_default().effects(Effects::BOLD),
        info: AnsiColor::Cyan.on_default().effects(Effects::BOLD),
        emphasis: Style::new().effects(Effects::BOLD),
        gutter: AnsiColor::Blue.on_default().effects(Effects::BOLD),
    };

    /// The palette: cargo's colours if `colour`, else plain.
    pub fn new(colour: bool) -> Palette {
        if colour {
            Palette::CARGO
        } else {
            Palette::PLAIN
        }
    }

    /// The style of a severity.
    pub fn severity(&self, s: Severity) -> Style {
        match s {
            Severity::Error => self.error,
            Severity::Warning => self.warning,
            Severity::Info => self.info,
        }
    }
}

/// Start a style (nothing for a plain one).
pub fn open(out: &mut String, style: Style) {
    if style != Style::new() {
        let _ = write!(out, "{style}");
    }
}

/// End a style (nothing for a plain one).
pub fn close(out: &mut String, style: Style) {
    if style != Style::new() {
        let _ = write!(out, "{style:#}");
    }
}

/// `text` (not from the input: it is not escaped) in a style.
pub fn paint(out: &mut String, style: Style, text: &str) {
    open(out, style);
    out.push_str(text);
    close(out, style);
}

/// Write one diagnostic in a format, without colour.
pub fn render(
    format: Format,
    file: &str,
    game: &GameText<'_>,
    lines: &LineIndex,
    d: &Diagnostic,
    out: &mut String,
) {
    render_styled(format, &Palette::PLAIN, file, game, lines, d, out);
}

/// Write one diagnostic in a format, the human and short formats in a palette's colours.
pub(crate) fn render_styled(
    format: Format,
    palette: &Palette,
    file: &str,
    game: &GameText<'_>,
    lines: &LineIndex,
    d: &Diagnostic,
    out: &mut String,
) {
    let (line, column) = locate(game, lines, d);
    match format {
        Format::Json => json_finding(out, &json_place(file, game.index), (line, column), d),
        Format::Short => {
            location(out, palette, file, game, line, column);
            label(out, palette, d);
            out.push(' ');
            one_line(out, &d.message);
            if let Some(p) = d.ply {
                let _ = write!(out, " (game {}, ply {p})", game.index);
            } else {
                let _ = write!(out, " (game {})", game.index);
            }
            out.push('\n');
        }
        Format::Human => human(out, palette, file, game, (line, column), d),
    }
}

/// Where a finding is in its file: (line, column), if it has a place.
fn locate(game: &GameText<'_>, lines: &LineIndex, d: &Diagnostic) -> (Option<u32>, Option<u32>) {
    match d.span {
        Some(s) => {
            let (l, c) = lines.locate(game.source.as_bytes(), game.line, game.column, s.start);
            (Some(l), Some(c))
        }
        None => (None, None),
    }
}

/// [`render_styled`] in JSON for the findings of one game, `place` made once for the game by
/// [`json_place`].
pub(crate) fn render_json(
    out: &mut String,
    place: &str,
    game: &GameText<'_>,
    lines: &LineIndex,
    d: &Diagnostic,
) {
    json_finding(out, place, locate(game, lines, d), d);
}

/// What every JSON line of a game's findings says alike: `"file":"…","game":N,` (the file
/// name escaped once for the whole game, not once a finding).
pub(crate) fn json_place(file: &str, game: usize) -> String {
    let mut place = String::with_capacity(file.len() + 24);
    place.push_str("\"file\":");
    push_str(&mut place, file);
    place.push_str(",\"game\":");
    push_uint(&mut place, game as u64);
    place.push(',');
    place
}

/// One finding as a line of JSON, `place` from [`json_place`]; at `(line, column)` of its file.
/// The keys and their order are docs/formats.md's (the `Object` writer's output, byte for
/// byte: a test holds them together). Written straight, as this runs for nearly every game:
/// the keys in the runs of constant text between the values, the code, the severity and the
/// side (words of `a-z` and `-`) without an escaping pass.
pub(crate) fn json_finding(
    out: &mut String,
    place: &str,
    (line, column): (Option<u32>, Option<u32>),
    d: &Diagnostic,
) {
    out.reserve(place.len() + d.message.len() + 224);
    match json_head(d.code, d.severity()) {
        Some(head) => out.push_str(head),
        None => {
            out.push_str("{\"type\":\"diagnostic\",\"code\":\"");
            out.push_str(d.code.as_str());
            out.push_str("\",\"severity\":\"");
            out.push_str(d.severity().as_str());
            out.push_str("\",");
        }
    }
    out.push_str(place);
    out.push_str("\"line\":");
    json_opt_uint(out, line);
    out.push_str(",\"column\":");
    json_opt_uint(out, column);
    if d.ply.is_none() && d.move_number.is_none() && d.side.is_none() && d.mv.is_none() {
        // (Most findings are not about a move: the four fields at once.)
        out.push_str(",\"ply\":null,\"move_number\":null,\"side\":null,\"move\":null,\"message\":");
    } else {
        out.push_str(",\"ply\":");
        json_opt_uint(out, d.ply);
        out.push_str(",\"move_number\":");
        json_opt_uint(out, d.move_number);
        match d.side {
            Some(Color::White) => out.push_str(",\"side\":\"white\",\"move\":"),
            Some(Color::Black) => out.push_str(",\"side\":\"black\",\"move\":"),
            None => out.push_str(",\"side\":null,\"move\":"),
        }
        json_opt_str(out, d.mv.as_deref());
        out.push_str(",\"message\":");
    }
    push_str(out, &d.message);
    if d.rule.is_none() && d.legal.is_none() {
        // (The commonest end: a note, without rule or legal moves.)
        out.push_str(if d.variation {
            ",\"rule\":null,\"legal\":null,\"in_variation\":true}\n"
        } else {
            ",\"rule\":null,\"legal\":null,\"in_variation\":false}\n"
        });
        return;
    }
    out.push_str(",\"rule\":");
    json_opt_str(out, d.rule.as_deref());
    out.push_str(",\"legal\":");
    match d.legal.as_deref() {
        Some(legal) => {
            out.push('[');
            for (i, s) in legal.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_str(out, s);
            }
            out.push(']');
        }
        None => out.push_str("null"),
    }
    out.push_str(if d.variation {
        ",\"in_variation\":true}\n"
    } else {
        ",\"in_variation\":false}\n"
    });
}

/// The start of a finding's JSON line up to its place (`{"type":"diagnostic","code":…,
/// "severity":…,`) in one piece, for a finding of its code's own severity (`None` for a
/// severity `--deny` raised: written in parts).
#[inline]
fn json_head(code: Code, severity: Severity) -> Option<&'static str> {
    macro_rules! head {
        ($code:literal, $severity:literal) => {
            concat!(
                "{\"type\":\"diagnostic\",\"code\":\"",
                $code,
                "\",\"severity\":\"",
                $severity,
                "\","
            )
        };
    }
    if severity != code.severity() {
        return None;
    }
    Some(match code {
        Code::SyntaxError => head!("syntax-error", "error"),
        Code::BadFen => head!("bad-fen", "error"),
        Code::UnknownVariant => head!("unknown-variant", "error"),
        Code::IllegalMove => head!("illegal-move", "error"),
        Code::MissedCapture => head!("missed-capture", "error"),
        Code::NonMaximalCapture => head!("non-maximal-capture", "error"),
        Code::UnfinishedCapture => head!("unfinished-capture", "error"),
        Code::PrematurePromotion => head!("premature-promotion", "error"),
        Code::AmbiguousMove => head!("ambiguous-move", "error"),
        Code::WrongSide => head!("wrong-side", "error"),
        Code::MovesAfterEnd => head!("moves-after-end", "error"),
        Code::ResultMismatch => head!("result-mismatch", "error"),
        Code::DrawRule => head!("draw-rule", "warning"),
        Code::MoveNumber => head!("move-number", "warning"),
        Code::BadTag => head!("bad-tag", "warning"),
        Code::Tolerated => head!("tolerated", "info"),
    })
}

/// A JSON number, `null` when absent: below 1,000,000 (nearly every line, column, ply and
/// move number) from its digits directly, larger ones through `push_uint`.
#[inline]
fn json_opt_uint(out: &mut String, v: Option<u32>) {
    let digit = |n: u32| char::from(b'0' + (n % 10) as u8);
    match v {
        None => out.push_str("null"),
        Some(n) if n < 1_000_000 => {
            if n >= 100_000 {
                out.push(digit(n / 100_000));
            }
            if n >= 10_000 {
                out.push(digit(n / 10_000));
            }
            if n >= 1000 {
                out.push(digit(n / 1000));
            }
            if n >= 100 {
                out.push(digit(n / 100));
            }
            if n >= 10 {
                out.push(digit(n / 10));
            }
            out.push(digit(n));
        }
        Some(n) => push_uint(out, u64::from(n)),
    }
}

/// A JSON string, `null` when absent.
#[inline]
fn json_opt_str(out: &mut String, v: Option<&str>) {
    match v {
        Some(v) => push_str(out, v),
        None => out.push_str("null"),
    }
}

/// `error[code]:` in the severity's style.
fn label(out: &mut String, palette: &Palette, d: &Diagnostic) {
    let style = palette.severity(d.severity());
    open(out, style);
    let _ = write!(out, "{}[{}]:", d.severity().as_str(), d.code.as_str());
    close(out, style);
}

/// The human rendering, like a compiler's.
fn human(
    out: &mut String,
    palette: &Palette,
    file: &str,
    game: &GameText<'_>,
    (line, column): (Option<u32>, Option<u32>),
    d: &Diagnostic,
) {
    location(out, palette, file, game, line, column);
    label(out, palette, d);
    out.push(' ');
    open(out, palette.emphasis);
    one_line(out, &d.message);
    close(out, palette.emphasis);
    out.push('\n');
    let mut context = format!("game {}", game.index);
    if let Some(w) = game.white.filter(|s| !s.is_empty() && *s != "?") {
        let b = game.black.unwrap_or("?");
        context.push_str(" (");
        one_line(&mut context, w);
        context.push_str(" - ");
        one_line(&mut context, b);
        context.push(')');
    }
    if let Some(p) = d.ply {
        let _ = write!(context, ", ply {p}");
        if let (Some(n), Some(side)) = (d.move_number, d.side) {
            let _ = write!(context, " (move {n}, {side})");
        }
    }
    if let Some(r) = &d.rule {
        context.push_str("; rule: ");
        one_line(&mut context, r);
    }
    note(out, palette);
    out.push_str(&context);
    out.push('\n');
    if let (Some(span), Some(l)) = (d.span, line) {
        source_excerpt(out, palette, palette.severity(d.severity()), game, span, l);
    }
    if let Some(legal) = &d.legal {
        note(out, palette);
        if legal.is_empty() {
            out.push_str("legal moves: none\n");
        } else {
            let _ = writeln!(out, "legal moves: {}", legal.join(" "));
        }
    }
    if let Some(b) = &d.board {
        board_note(out, palette, b);
    }
    out.push('\n');
}

/// The note of a finding that draws the position before the move.
pub(crate) fn board_note(out: &mut String, palette: &Palette, board: &str) {
    note(out, palette);
    out.push_str("position before the move:\n");
    for l in board.lines() {
        let _ = writeln!(out, "     {l}");
    }
}

/// Where a finding is, `line:column (game N)` (the game's first line if it has no span).
pub(crate) fn place(game: &GameText<'_>, lines: &LineIndex, d: &Diagnostic) -> String {
    match d.span {
        Some(s) => {
            let (l, c) = lines.locate(game.source.as_bytes(), game.line, game.column, s.start);
            format!("{l}:{c} (game {})", game.index)
        }
        None => format!("{} (game {})", game.line, game.index),
    }
}

/// The start of a note line: `   = `.
fn note(out: &mut String, palette: &Palette) {
    out.push_str("   ");
    paint(out, palette.gutter, "=");
    out.push(' ');
}

fn location(
    out: &mut String,
    palette: &Palette,
    file: &str,
    game: &GameText<'_>,
    line: Option<u32>,
    column: Option<u32>,
) {
    open(out, palette.emphasis);
    push_escaped(out, file);
    match (line, column) {
        (Some(l), Some(c)) => {
            let _ = write!(out, ":{l}:{c}:");
        }
        _ => {
            let _ = write!(out, ":{}:", game.line);
        }
    }
    close(out, palette.emphasis);
    out.push(' ');
}

/// A message on one line (line breaks in quoted text become spaces), escaped for the
/// terminal.
fn one_line(out: &mut String, s: &str) {
    if s.contains(['\n', '\r']) {
        push_escaped(out, &s.replace(['\n', '\r'], " "));
    } else {
        push_escaped(out, s);
    }
}

/// The source line of a span with the span marked under it (the carets in `marker`).
fn source_excerpt(
    out: &mut String,
    palette: &Palette,
    marker: Style,
    game: &GameText<'_>,
    span: Span,
    line_no: u32,
) {
    let src = game.source;
    let start = (span.start as usize).min(src.len());
    // Keep long lines readable: a line of up to 100 characters is shown whole, a longer one
    // 100 characters from 40 before the span. Only those characters are looked at (the
    // excerpts of many findings on one long line cost each its own width, not the line's).
    let (back, at_line_start) = lines::chars_back(src, start, 101);
    let (end, at_line_end) = lines::chars_forward(src, start, 101);
    let (from, shown_end) = if at_line_start
        && at_line_end
        && src[back..start].chars().count() + src[start..end].chars().count() <= 100
    {
        (back, end)
    } else {
        let from = lines::chars_back(src, start, 40).0;
        let before = src[from..start].chars().count();
        (from, lines::chars_forward(src, start, 100 - before).0)
    };
    // Tabs shown as one space, other control characters escaped (the marker is placed
    // under the escaped text).
    let shown = src[from..shown_end].replace('\t', " ");
    let before = src[from..start].replace('\t', " ");
    let marked: String = game
        .text(span)
        .chars()
        .take_while(|c| *c != '\n' && *c != '\r')
        .map(|c| if c == '\t' { ' ' } else { c })
        .take(100)
        .collect();
    let pad = escaped_width(&before);
    let span_len = escaped_width(&marked).max(1);
    let gutter = line_no.to_string().len().max(2);
    open(out, palette.gutter);
    let _ = write!(out, "{line_no:>gutter$} |");
    close(out, palette.gutter);
    out.push(' ');
    push_escaped(out, &shown);
    out.push('\n');
    open(out, palette.gutter);
    let _ = write!(out, "{:>gutter$} |", "");
    close(out, palette.gutter);
    let _ = write!(out, " {}", " ".repeat(pad));
    paint(out, marker, &"^".repeat(span_len.min(100)));
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::write::jsonl::Object;

    /// What [`source_excerpt`] wrote when it took the whole line: the reference its bounded
    /// look must give, byte for byte.
    fn excerpt_of_the_whole_line(out: &mut String, game: &GameText<'_>, span: Span, line_no: u32) {
        let src = game.source;
        let start = (span.start as usize).min(src.len());
        let line_start = src[..start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let line_end = src[start..]
            .find(['\n', '\r'])
            .map_or(src.len(), |i| start + i);
        let text = src[line_start..line_end].replace('\t', " ");
        let before = src[line_start..start].replace('\t', " ");
        let col = before.chars().count();
        let (skip, shown): (usize, String) = if text.chars().count() > 100 {
            let skip = col.saturating_sub(40);
            (skip, text.chars().skip(skip).take(100).collect())
        } else {
            (0, text)
        };
        let marked: String = game
            .text(span)
            .chars()
            .take_while(|c| *c != '\n' && *c != '\r')
            .map(|c| if c == '\t' { ' ' } else { c })
            .take(100)
            .collect();
        let pad = escaped_width(&before.chars().skip(skip).collect::<String>());
        let span_len = escaped_width(&marked).max(1);
        let gutter = line_no.to_string().len().max(2);
        let _ = write!(out, "{line_no:>gutter$} | ");
        push_escaped(out, &shown);
        let _ = writeln!(
            out,
            "\n{:>gutter$} | {}{}",
            "",
            " ".repeat(pad),
            "^".repeat(span_len.min(100))
        );
    }

    #[test]
    fn an_excerpt_looks_only_at_what_it_shows_and_shows_what_the_whole_line_gave() {
        // Lines of 0 to 300 characters, with tabs, control characters and characters of one
        // to four bytes, ended by LF, CR LF or a lone CR; spans of every length at every place.
        let mut src = String::new();
        for (k, n) in [0usize, 1, 39, 40, 41, 99, 100, 101, 140, 141, 300]
            .iter()
            .enumerate()
        {
            for i in 0..*n {
                src.push(['a', '\t', 'é', '€', '𝄞', '\u{7}', 'b'][(i + k) % 7]);
            }
            src.push_str(["\n", "\r\n", "\r"][k % 3]);
        }
        let game = GameText {
            index: 1,
            source: &src,
            line: 1,
            column: 1,
            white: None,
            black: None,
        };
        let starts: Vec<usize> = (0..=src.len())
            .filter(|&i| src.is_char_boundary(i))
            .collect();
        for (a, &start) in starts.iter().enumerate() {
            for &end in starts[a..].iter().step_by(37).take(4) {
                let span = Span::new(start as u32, end as u32);
                let (mut got, mut want) = (String::new(), String::new());
                source_excerpt(&mut got, &Palette::PLAIN, Style::new(), &game, span, 7);
                excerpt_of_the_whole_line(&mut want, &game, span, 7);
                assert_eq!(got, want, "span {start}..{end}");
            }
        }
    }

    /// A finding as the generic writer writes it: what [`json_finding`] must give.
    fn by_object(
        out: &mut String,
        file: &str,
        game: usize,
        at: (Option<u32>, Option<u32>),
        d: &Diagnostic,
    ) {
        Object::new(out)
            .str("type", "diagnostic")
            .str("code", d.code.as_str())
            .str("severity", d.severity().as_str())
            .str("file", file)
            .uint("game", game as u64)
            .opt_uint("line", at.0.map(u64::from))
            .opt_uint("column", at.1.map(u64::from))
            .opt_uint("ply", d.ply.map(u64::from))
            .opt_uint("move_number", d.move_number.map(u64::from))
            .opt_str("side", d.side.map(Color::name))
            .opt_str("move", d.mv.as_deref())
            .str("message", &d.message)
            .opt_str("rule", d.rule.as_deref())
            .opt_strs("legal", d.legal.as_deref())
            .bool("in_variation", d.variation)
            .end();
    }

    /// The direct JSON writer of findings writes, byte for byte, what the generic writer
    /// writes, for every code and every shape of finding (absent fields, numbers of every
    /// width, strings to escape, an empty list of legal moves).
    #[test]
    fn a_finding_in_json_is_what_the_generic_writer_writes() {
        let files = ["/tmp/intl.pdn", "a \"quoted\"\\ name\u{202e}.pdn", ""];
        let numbers = [
            None,
            Some(0),
            Some(7),
            Some(42),
            Some(100),
            Some(999),
            Some(1000),
            Some(5_608),
            Some(9_999),
            Some(10_000),
            Some(u32::MAX),
        ];
        let mut cases = Vec::new();
        for (k, code) in Code::ALL.into_iter().enumerate() {
            let mut d =
                Diagnostic::new(code, format!("message {k}: `32-28` \"q\"\n\t\u{1b}[31m é"));
            cases.push(d.clone());
            // A bare finding in a variation, and one with a side but no ply.
            let mut bare = d.clone();
            bare.variation = true;
            cases.push(bare.clone());
            bare.side = Some(Color::Black);
            cases.push(bare);
            d.ply = numbers[k % numbers.len()];
            d.move_number = numbers[(k + 3) % numbers.len()];
            d.side = [None, Some(Color::White), Some(Color::Black)][k % 3];
            d.mv = (k % 2 == 0).then(|| "32x\"23".to_string());
            d.rule = (k % 3 != 1).then(|| "FMJD 4.13 \\ \u{85}".into());
            d.legal = match k % 3 {
                0 => None,
                1 => Some(Vec::new()),
                _ => Some(vec!["32-28".into(), "33x\"22".into()]),
            };
            d.variation = k % 2 == 1;
            cases.push(d.clone());
            d.severity = Severity::Error;
            cases.push(d);
        }
        for (i, d) in cases.iter().enumerate() {
            let file = files[i % files.len()];
            let game = [1, 9, 10, 123_456][i % 4];
            let at = (numbers[i % numbers.len()], numbers[(i + 5) % numbers.len()]);
            let mut want = String::new();
            by_object(&mut want, file, game, at, d);
            let mut got = String::new();
            json_finding(&mut got, &json_place(file, game), at, d);
            assert_eq!(got, want);
        }
        // Each code's head, written in one piece, is the one written in parts.
        for code in Code::ALL {
            let parts = format!(
                "{{\"type\":\"diagnostic\",\"code\":\"{}\",\"severity\":\"{}\",",
                code.as_str(),
                code.severity().as_str()
            );
            assert_eq!(json_head(code, code.severity()), Some(parts.as_str()));
        }
        // The words written without an escaping pass need none.
        let plain = |s: &str| s.bytes().all(|b| b.is_ascii_lowercase() || b == b'-');
        assert!(Code::ALL.iter().all(|c| plain(c.as_str())));
        for s in [Severity::Info, Severity::Warning, Severity::Error] {
            assert!(plain(s.as_str()));
        }
    }
}
