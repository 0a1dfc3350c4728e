//! The HTML report of `pdn validate --format html`: one self-contained page (inline CSS, SVG
//! and script; no network: its Content-Security-Policy allows only its own script and style,
//! by hash) for a whole archive, light at any size. It is written as a stream: [`head`], then
//! the games as they are validated, a thousand at a time ([`games_block`]): their rows of the
//! game list, and their data (positions, moves, tags, findings) in a
//! `<script type="application/json">` block that the page parses only when one of its games
//! is opened; then
//! [`tail`] with the summary (placed first on screen by CSS) and the script, which draws the
//! visible rows of the list only. The page holds every game's positions as `pdn` computed
//! them; its script draws boards when they are shown and knows no rules.
//!
//! Every string from the input is escaped ([`escape`]): HTML text and attributes, JSON that
//! cannot close its `<script>` block; the script inserts it with `textContent` only.

pub mod escape;
mod game;

use std::fmt::Write as _;

use crate::rules::Variant;

use crate::app::judge::diagnostic::Code;
use crate::app::judge::findings::Policy;
use crate::app::picture::{View, svg};
use crate::app::write::join::push_joined;
use escape::{push_html, push_json_str};

pub use game::{GameHtml, GameStats, ROW_FIELDS, game_html};

const CSS: &str = include_str!("report.css");
const JS: &str = include_str!("report.js");

/// The CSP source expressions of the page's script and style, `'sha256-…'` (the SHA-256 of
/// `JS` and `CSS` in base64): constants, checked by the test `csp_hashes_are_those_of_the_page`
/// (which prints the new values when `report.js` or `report.css` changes).
const JS_HASH: &str = "'sha256-Fjs16IpncUI0ct0Wi6HjC3711ZSyvObJ/AD5HB37BAY='";
const CSS_HASH: &str = "'sha256-AmEjPfsIzsNeCwRyZqoKGF8eGcdHd910E35VF1VZhDk='";

/// The page's Content-Security-Policy: nothing from the network, no script or style but
/// the page's own (whatever some text of the input held, no other can run).
pub(crate) fn content_security_policy() -> String {
    format!(
        "default-src 'none'; script-src {JS_HASH}; style-src {CSS_HASH}; img-src data:; \
         base-uri 'none'; form-action 'none'"
    )
}

/// The boards of every variant, for the page's script: for each square in number order its
/// column, row and name; the files and ranks of algebraic boards; the first mover.
pub(crate) fn layouts_json() -> String {
    let mut out = String::from("{");
    for (i, v) in Variant::ALL.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let view = View::of_variant(*v);
        push_json_str(&mut out, v.name());
        let _ = write!(
            out,
            ":{{\"w\":{},\"h\":{},\"full\":{},\"first\":\"{}\",\"sq\":[",
            view.width,
            view.height,
            view.full,
            v.rules().first_mover().letter()
        );
        for (k, s) in view.squares.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let _ = write!(out, "[{},{},", s.col, s.row);
            push_json_str(&mut out, &s.name);
            out.push(']');
        }
        out.push(']');
        if let Some((files, ranks)) = &view.coordinates {
            out.push_str(",\"files\":[");
            for (k, f) in files.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                let _ = write!(out, "\"{f}\"");
            }
            out.push_str("],\"ranks\":[");
            let r: Vec<String> = ranks.iter().map(u32::to_string).collect();
            out.push_str(&r.join(","));
            out.push(']');
        }
        out.push('}');
    }
    out.push('}');
    out
}

/// The start of the page, up to the games' data: its title, when it was made (`made`, see
/// [`made_at`]), the filters and the (empty) game list the script fills.
pub fn head(title: &str, made: &str, out: &mut String) {
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    let _ = writeln!(
        out,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
        content_security_policy()
    );
    out.push_str(
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <link rel=\"icon\" href=\"data:,\">\n",
    );
    let _ = writeln!(
        out,
        "<meta name=\"generator\" content=\"pdn {}\">",
        env!("CARGO_PKG_VERSION")
    );
    out.push_str("<title>");
    push_html(out, title);
    out.push_str("</title>\n<style>");
    out.push_str(CSS);
    out.push_str("</style>\n</head>\n<body>\n<svg class=\"defs\" aria-hidden=\"true\"><defs>");
    out.push_str(&svg::piece_symbols());
    out.push_str("</defs></svg>\n<script type=\"application/json\" id=\"layouts\">");
    out.push_str(&layouts_json());
    out.push_str("</script>\n<header class=\"top\"><h1>");
    push_html(out, title);
    out.push_str("</h1><p>Written by pdn ");
    out.push_str(env!("CARGO_PKG_VERSION"));
    out.push_str(" on <time class=\"made\">");
    push_html(out, made);
    out.push_str(
        "</time>: every game replayed under the rules of its variant. Click a game to \
         replay it (← → Home End); findings show the position before the move; click a \
         column's heading to sort.</p></header>\n",
    );
    out.push_str(
        "<section id=\"list\"><div id=\"filters\">\
         <label><input type=\"checkbox\" class=\"status\" value=\"e\" checked> errors</label>\
         <label><input type=\"checkbox\" class=\"status\" value=\"w\" checked> warnings</label>\
         <label><input type=\"checkbox\" class=\"status\" value=\"c\" checked> clean</label>\
         <label>code <select class=\"code\"><option value=\"\">all</option></select></label>\
         <label title=\"findings of severity info: what was tolerated\"><input type=\"checkbox\" class=\"notes\"> infos</label>\
         <input type=\"search\" class=\"q\" placeholder=\"players, event, file…\" aria-label=\"search\">\
         <span class=\"count\" aria-live=\"polite\"></span></div>\n\
         <div id=\"table\" role=\"grid\" aria-label=\"games\"><div class=\"thead\" role=\"row\"></div>\
         <div class=\"tbody\"></div></div>\
         <noscript><p>The list of games and the viewer need JavaScript; the summary is below.</p></noscript>\
         </section>\n",
    );
}

/// When a page was made, `YYYY-MM-DD HH:MM UTC`: `SOURCE_DATE_EPOCH` if set (reproducible
/// pages), else now.
pub fn made_at() -> String {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        });
    let (y, m, d) = civil(secs / 86_400);
    let t = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        t / 3600,
        t / 60 % 60
    )
}

/// The date of a day counted from 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

/// A block of games: their rows of the game list (each a [`GameHtml::row`]) and their data
/// (each a [`GameHtml::html`]), the rows parsed when the page opens, the data when one of
/// the games is. Every block but the last holds [`GAMES_PER_BLOCK`] games, so that game `i`
/// of the page is in block `i / GAMES_PER_BLOCK`.
pub fn games_block(rows: &str, data: &str, out: &mut String) {
    out.push_str("<script type=\"application/json\" class=\"rows\">[");
    out.push_str(rows);
    out.push_str("]</script>\n<script type=\"application/json\" class=\"gd\">[");
    out.push_str(data);
    out.push_str("]</script>\n");
}

/// The games of a block (see [`games_block`]); the page's script knows the number too.
pub const GAMES_PER_BLOCK: usize = 1000;

/// One input file's numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileTotals {
    /// Its name as given.
    pub name: String,
    /// Games.
    pub games: u64,
    /// Errors.
    pub errors: u64,
    /// Warnings.
    pub warnings: u64,
    /// It could not be read (to its end).
    pub unreadable: bool,
}

/// The numbers of the summary, added up game by game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games, plies, findings and games with errors, added up as `validate` adds them.
    pub counted: crate::app::judge::findings::Totals,
    /// Games with warnings and no error.
    pub games_with_warnings: u64,
    /// Games with the code.
    pub games_by_code: [u64; Code::ALL.len()],
    /// Games per variant (name; "unknown").
    pub variants: Vec<(&'static str, u64)>,
    /// The input files.
    pub files: Vec<FileTotals>,
}

impl Totals {
    /// Add a game of the last file started.
    pub fn add(&mut self, s: &GameStats) {
        let c = &s.counts;
        self.counted.add(c);
        if c.errors == 0 && c.warnings > 0 {
            self.games_with_warnings += 1;
        }
        for (games, n) in self.games_by_code.iter_mut().zip(c.codes) {
            *games += u64::from(n > 0);
        }
        let v = s.variant.unwrap_or("unknown");
        match self.variants.iter_mut().find(|(name, _)| *name == v) {
            Some((_, n)) => *n += 1,
            None => self.variants.push((v, 1)),
        }
        if let Some(f) = self.files.last_mut() {
            f.games += 1;
            f.errors += u64::from(c.errors);
            f.warnings += u64::from(c.warnings);
        }
    }
}

/// The end of the page: the input files' names as shown in the list (`shown`, one per
/// input, in order), the summary (each code with its severity under `policy`), the viewer
/// and the script.
pub fn tail(t: &Totals, shown: &[String], policy: &Policy, out: &mut String) {
    out.push_str("<script type=\"application/json\" id=\"files\">[");
    push_joined(out, shown, ",", |out, s| push_json_str(out, s));
    out.push_str("]</script>\n<section id=\"summary\"><h2>Summary</h2><div class=\"totals\">");
    let unreadable = t.files.iter().filter(|f| f.unreadable).count();
    let counted = &t.counted;
    let clean = counted.games - counted.games_with_errors - t.games_with_warnings;
    for (class, n, one, many) in [
        ("", t.files.len() as u64, "file", "files"),
        ("", counted.games, "game", "games"),
        ("", counted.plies, "ply", "plies"),
        ("e", counted.errors, "error", "errors"),
        ("w", counted.warnings, "warning", "warnings"),
        ("", counted.infos, "info", "infos"),
        (
            "e",
            counted.games_with_errors,
            "game with errors",
            "games with errors",
        ),
        (
            "w",
            t.games_with_warnings,
            "game with warnings only",
            "games with warnings only",
        ),
        ("c", clean, "clean game", "clean games"),
        (
            "e",
            unreadable as u64,
            "unreadable file",
            "unreadable files",
        ),
    ] {
        let label = if n == 1 { one } else { many };
        let _ = write!(
            out,
            "<div class=\"{class}\"><b>{n}</b><span>{label}</span></div>"
        );
    }
    out.push_str("</div>");
    let _ = write!(out, "<p>Variants: ");
    push_joined(out, &t.variants, ", ", |out, (v, n)| {
        let _ = write!(out, "{v} {n}");
    });
    out.push_str("</p>");
    if counted.codes.iter().any(|n| *n > 0) {
        out.push_str(
            "<table class=\"codes\"><thead><tr><th>finding</th><th>severity</th>\
             <th>count</th><th>in variations</th><th>games</th></tr></thead><tbody>",
        );
        for (i, c) in Code::ALL.iter().enumerate() {
            if counted.codes[i] == 0 {
                continue;
            }
            let sev = policy.severity(*c).unwrap_or(c.severity()).as_str();
            let _ = write!(
                out,
                "<tr><td><button data-code=\"{0}\" data-sev=\"{sev}\">{0}</button></td><td class=\"s-{1}\">{sev}</td>\
                 <td class=\"n\">{2}</td><td class=\"n\">{3}</td><td class=\"n\">{4}</td></tr>",
                c.as_str(),
                &sev[..1],
                counted.codes[i],
                counted.in_variations[i],
                t.games_by_code[i]
            );
        }
        out.push_str("</tbody></table>");
    }
    files(t, out);
    out.push_str("</section>\n");
    out.push_str(VIEWER);
    out.push_str("<script>");
    out.push_str(JS);
    out.push_str("</script>\n</body></html>\n");
}

fn files(t: &Totals, out: &mut String) {
    let _ = write!(
        out,
        "<details class=\"files\"><summary>{} file{}</summary><table><thead><tr><th>file</th>\
         <th>games</th><th>errors</th><th>warnings</th><th></th></tr></thead><tbody>",
        t.files.len(),
        if t.files.len() == 1 { "" } else { "s" }
    );
    for f in &t.files {
        out.push_str("<tr><td><bdi>");
        push_html(out, &f.name);
        let _ = write!(
            out,
            "</bdi></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            f.games,
            f.errors,
            f.warnings,
            if f.unreadable {
                "could not be read to its end"
            } else {
                ""
            }
        );
    }
    out.push_str("</tbody></table></details>");
}

const VIEWER: &str = "<aside id=\"viewer\" hidden aria-label=\"game viewer\">\
<div class=\"vh\"><h2 class=\"vt\"></h2><button class=\"close\" title=\"close (Esc)\">×</button></div>\
<p class=\"vs\"></p><div class=\"vboard\"></div><p class=\"vcap\"></p>\
<div class=\"ctl\"><button class=\"first\" title=\"first (Home)\">«</button>\
<button class=\"prev\" title=\"previous (←)\">‹</button>\
<button class=\"next\" title=\"next (→)\">›</button>\
<button class=\"last\" title=\"last (End)\">»</button>\
<button class=\"flip\" aria-pressed=\"false\" title=\"turn the board round\">⇅</button>\
<button class=\"numbers\" aria-pressed=\"true\" title=\"square numbers\">#</button>\
<button class=\"clocks\" aria-pressed=\"false\" hidden title=\"show the clock comments ([%clock …])\">⏱</button></div>\
<div class=\"moves\"></div><h3 class=\"fh3\" hidden>Findings</h3><div class=\"vfinds\"></div>\
<h3>Tags</h3><table class=\"vtags\"></table></aside>\n";

#[cfg(test)]
mod tests {
    use base64::Engine;
    use sha2::{Digest, Sha256};

    use super::*;

    /// The CSP source expression of a text, computed.
    fn csp_hash(text: &str) -> String {
        let digest = Sha256::digest(text.as_bytes());
        let b64 = base64::engine::general_purpose::STANDARD.encode(digest);
        format!("'sha256-{b64}'")
    }

    #[test]
    fn csp_hashes_are_those_of_the_page() {
        assert_eq!(
            (JS_HASH, CSS_HASH),
            (csp_hash(JS).as_str(), csp_hash(CSS).as_str()),
            "report.js or report.css changed: put the new hashes into JS_HASH and CSS_HASH"
        );
        assert!(content_security_policy().contains(JS_HASH));
        // The script finds game i in block i / GAMES_PER_BLOCK.
        assert!(JS.contains(&format!("const PER_BLOCK = {GAMES_PER_BLOCK};")));
        // The digest of a known text, to be sure of the computation itself.
        assert_eq!(
            csp_hash("abc"),
            "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='"
        );
    }
}
