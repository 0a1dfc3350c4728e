//! The statistics as aligned text tables (`--format text`), one section after another.

use std::fmt::Write as _;

use super::{By, Names, Reason, Scale, Stats, TOP_OPENINGS, TOP_PLAYERS, file_line, file_name};

/// What `unknown` counts, under the title of the tables with that column.
const UNKNOWN: &str = "unknown: *, 0-0, no result, or a score that is no game result";

impl Stats {
    /// The statistics as aligned tables. `by` shows that table in full (otherwise only the
    /// `TOP_OPENINGS` most played openings per variant and depth and the `TOP_PLAYERS`
    /// players with the most games of each variant).
    pub fn to_text(&self, by: Option<By>, names: Names<'_>) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} game{} ({} plies) in {} file{}; {} game{} with errors",
            self.games,
            plural(self.games),
            self.plies,
            self.files,
            plural(self.files),
            self.games_with_errors,
            plural(self.games_with_errors),
        );

        self.text_results(&mut out);
        self.text_variants(&mut out);
        self.text_length(&mut out, names);
        self.text_captures(&mut out, names);
        self.text_promotions(&mut out, names);
        self.text_named(&mut out, by == Some(By::Opening));
        self.text_openings(&mut out, by == Some(By::Moves));
        self.text_players(&mut out, by == Some(By::Player));
        if by == Some(By::Event) {
            self.text_events(&mut out);
        }
        self.text_diagnostics(&mut out);
        self.text_duplicates(&mut out, names);
        out
    }

    /// Each variant's results, in its standard form, with the winner and the share of the
    /// variant's games.
    fn text_results(&self, out: &mut String) {
        section(out, "Results (per variant, in its standard form)");
        let mut t = Table::new(&["variant", "result", "winner", "games", "%"], "lllrr");
        let variants = self.variants();
        for (v, r, winner, n) in self.variant_results() {
            let name = v.map_or("unknown", |v| v.name());
            let of = variants
                .iter()
                .find(|(k, _)| *k == name)
                .map_or(self.games, |(_, n)| *n);
            t.row(vec![
                name.to_string(),
                r.to_string(),
                winner.to_string(),
                n.to_string(),
                percent(n, of),
            ]);
        }
        t.render(out);
    }

    /// Variants, with their share of the games.
    fn text_variants(&self, out: &mut String) {
        self.text_shares(out, "Variants", "variant", self.variants());
    }

    /// A section of games counted by `what` (one row each, as `rows` has them), with their
    /// share of the games.
    fn text_shares(&self, out: &mut String, title: &str, what: &str, rows: Vec<(&str, u64)>) {
        section(out, title);
        let mut t = Table::new(&[what, "games", "%"], "lrr");
        for (k, n) in rows {
            t.row(vec![k.to_string(), n.to_string(), percent(n, self.games)]);
        }
        t.render(out);
    }

    /// Game lengths: mean, median, the longest game and a histogram.
    fn text_length(&self, out: &mut String, names: Names<'_>) {
        section(out, "Game length (plies)");
        let longest = match self.longest {
            Some((p, at)) => format!("{p} ({}, game {})", file_line(names, at), at.game),
            None => "0".to_string(),
        };
        let _ = writeln!(
            out,
            "  mean {}   median {}   max {longest}",
            self.mean_length(),
            self.median_length()
        );
        let max = self.longest.map_or(0, |l| l.0);
        let width = bucket_width(max);
        let hist = self.histogram(width);
        let peak = hist.iter().map(|h| h.1).max().unwrap_or(0);
        let mut dense: Vec<(u32, u64)> = Vec::new();
        let mut from = 0;
        for (f, n) in hist {
            while from < f {
                dense.push((from, 0));
                from += width;
            }
            dense.push((f, n));
            from = f + width;
        }
        let mut t = Table::new(&["plies", "games", ""], "rrl");
        for (f, n) in dense {
            let bar = if peak == 0 {
                0
            } else {
                (n * 40).div_ceil(peak) as usize
            };
            t.row(vec![
                format!("{f}-{}", f + width - 1),
                n.to_string(),
                "#".repeat(bar),
            ]);
        }
        t.render(out);
    }

    /// Captures: counts, by pieces taken, the largest.
    fn text_captures(&self, out: &mut String, names: Names<'_>) {
        section(out, "Captures");
        figures(
            out,
            vec![
                ("capturing moves", self.captures.to_string()),
                (
                    "multi-captures (2+ pieces)",
                    self.multi_captures.to_string(),
                ),
                ("pieces taken", self.pieces.to_string()),
            ],
        );
        if !self.capture_sizes.is_empty() {
            let sizes: Vec<String> = self
                .capture_sizes
                .iter()
                .map(|(k, n)| format!("{k}: {n}"))
                .collect();
            let _ = writeln!(out, "  by pieces taken: {}", sizes.join(", "));
        }
        if let Some(m) = &self.rafle {
            let _ = writeln!(
                out,
                "  largest: {} piece{}, {} at {}:{} (game {}, ply {})",
                m.pieces,
                plural(u64::from(m.pieces)),
                m.text,
                file_name(names, m.at),
                m.line,
                m.at.game,
                m.ply
            );
        }
    }

    /// Promotions and the first king.
    fn text_promotions(&self, out: &mut String, names: Names<'_>) {
        section(out, "Promotions");
        let mut rows = vec![
            ("promotions", self.promotions.to_string()),
            (
                "games with a king (from the start)",
                self.games_with_king().to_string(),
            ),
        ];
        if let Some((mean, median)) = self.first_king() {
            rows.push(("first king: mean ply", mean.to_string()));
            rows.push(("first king: median ply", median.to_string()));
        }
        figures(out, rows);
        if let Some(m) = &self.earliest_king {
            let _ = writeln!(
                out,
                "  earliest king: ply {}, {} at {}:{} (game {})",
                m.ply,
                m.text,
                file_name(names, m.at),
                m.line,
                m.at.game
            );
        }
    }

    /// Openings by the opening tables (name and ballot): all with `--by opening`, else the
    /// most played of each variant.
    fn text_named(&self, out: &mut String, full: bool) {
        if !self.classified() {
            return;
        }
        let named = self.named_openings();
        let title = if full {
            "Openings (by the opening tables: the deepest name and ballot each game reaches)"
                .to_string()
        } else {
            format!(
                "Openings (by the opening tables; the {TOP_OPENINGS} most played per variant; --by opening for all)"
            )
        };
        section(out, &title);
        let _ = writeln!(
            out,
            "  score%: White's score over decided games (won, drawn, lost); {UNKNOWN}"
        );
        let mut t = Table::new(
            &[
                "variant",
                "opening",
                "ballot",
                "games",
                "White won",
                "draws",
                "Black won",
                "unknown",
                "score%",
            ],
            "lllrrrrrr",
        );
        for group in named.chunk_by(|a, b| a.0.variant == b.0.variant) {
            let listed = group
                .iter()
                .filter(|(k, _)| k.opening.is_some() || k.ballot.is_some());
            let rest = group
                .iter()
                .filter(|(k, _)| k.opening.is_none() && k.ballot.is_none());
            let shown: Vec<_> = if full {
                listed.chain(rest).collect()
            } else {
                listed.take(TOP_OPENINGS).chain(rest).collect()
            };
            for (k, tally) in shown {
                let ballot = match &k.ballot {
                    Some(b) if k.barred => format!("{b} (barred)"),
                    Some(b) => b.clone(),
                    None => String::new(),
                };
                let opening = match (&k.opening, &k.ballot) {
                    (None, None) => "(none)".to_string(),
                    (o, _) => o.clone().unwrap_or_default(),
                };
                t.row(
                    [
                        k.variant.name().to_string(),
                        opening,
                        ballot,
                        tally.games.to_string(),
                    ]
                    .into_iter()
                    .chain(tally.colour_cells(k.variant.rules().first_mover()))
                    .collect(),
                );
            }
        }
        t.render(out);
    }

    /// First moves: all with `--by moves`, else the most played.
    fn text_openings(&self, out: &mut String, full: bool) {
        let openings = self.openings();
        let title = if full {
            "First moves".to_string()
        } else {
            format!(
                "First moves (the {TOP_OPENINGS} most played per variant and depth; --by moves for all)"
            )
        };
        section(out, &title);
        if !openings.is_empty() {
            let _ = writeln!(
                out,
                "  score%: White's score over decided games (won, drawn, lost); {UNKNOWN}"
            );
        }
        let mut t = Table::new(
            &[
                "plies",
                "variant",
                "moves",
                "games",
                "White won",
                "draws",
                "Black won",
                "unknown",
                "score%",
            ],
            "rllrrrrrr",
        );
        let mut group = None;
        let mut shown = 0;
        for (k, tally) in &openings {
            if group != Some((k.variant, k.plies)) {
                group = Some((k.variant, k.plies));
                shown = 0;
            }
            if !full && shown >= TOP_OPENINGS {
                continue;
            }
            shown += 1;
            t.row(
                [
                    k.plies.to_string(),
                    k.variant.name().to_string(),
                    k.moves.clone(),
                    tally.games.to_string(),
                ]
                .into_iter()
                .chain(tally.colour_cells(k.variant.rules().first_mover()))
                .collect(),
            );
        }
        t.render(out);
    }

    /// Players, one table per variant (points on its scale): all with `--by player`, else
    /// those with most games.
    fn text_players(&self, out: &mut String, full: bool) {
        let players = self.players();
        section(
            out,
            &format!(
                "Players ({}, counted per variant; points on each variant's scale)",
                players.len()
            ),
        );
        if players.is_empty() {
            out.push_str("  (none)\n");
            return;
        }
        let _ = writeln!(
            out,
            "  points and score% over decided games (won, drawn, lost); {UNKNOWN}"
        );
        for group in players.chunk_by(|a, b| a.0.variant == b.0.variant) {
            let key = group[0].0;
            let scale = Scale::of(key.variant);
            let shown = if full {
                group.len()
            } else {
                group.len().min(TOP_PLAYERS)
            };
            let count = if shown == group.len() {
                format!("{} {}", group.len(), plural_word(group.len(), "player"))
            } else {
                format!(
                    "the {shown} with most games of {} players, --by player for all",
                    group.len()
                )
            };
            let _ = writeln!(
                out,
                "\n  {}: {count}; a win {} {}, a draw {}",
                key.variant_name(),
                scale_points(scale.win),
                if scale.win == 2 { "point" } else { "points" },
                scale_points(scale.draw)
            );
            let mut t = Table::new(
                &[
                    "player", "games", "wins", "draws", "losses", "unknown", "points", "score%",
                ],
                "lrrrrrrr",
            );
            for (k, p) in &group[..shown] {
                t.row(
                    [k.name.clone()]
                        .into_iter()
                        .chain(p.cells())
                        .chain([p.score().map(|s| format!("{s:.1}")).unwrap_or_default()])
                        .collect(),
                );
            }
            t.render(out);
        }
    }

    /// Events, in the order of their first game.
    fn text_events(&self, out: &mut String) {
        let events = self.events();
        section(out, &format!("Events ({})", events.len()));
        let mut t = Table::new(
            &[
                "event",
                "games",
                "plies",
                "first won",
                "draws",
                "second won",
                "unknown",
            ],
            "lrrrrrr",
        );
        for (name, e) in events {
            t.row(
                [
                    name.to_string(),
                    e.tally.games.to_string(),
                    e.plies.to_string(),
                ]
                .into_iter()
                .chain(e.tally.outcome_cells())
                .collect(),
            );
        }
        t.render(out);
    }

    /// Diagnostics by code.
    fn text_diagnostics(&self, out: &mut String) {
        section(out, "Diagnostics");
        let mut t = Table::new(&["code", "severity", "count"], "llr");
        for (c, n) in self.diagnostics() {
            t.row(vec![
                c.as_str().to_string(),
                c.severity().as_str().to_string(),
                n.to_string(),
            ]);
        }
        t.render(out);
    }

    /// Duplicates, if they were looked for.
    fn text_duplicates(&self, out: &mut String, names: Names<'_>) {
        let Some((_, min_plies)) = self.duplicate_options() else {
            return;
        };
        let dups = self.duplicates();
        section(
            out,
            &format!(
                "Duplicates ({}; games under {min_plies} {} left out)",
                dups.len(),
                plies_word(min_plies)
            ),
        );
        let mut t = Table::new(&["why", "at", "game", "other", "game"], "llrlr");
        for d in dups {
            let n = d.plies;
            let why = match d.reason {
                Reason::Identical => format!("identical moves ({n} {})", plies_word(n)),
                Reason::ColoursReversed => {
                    format!("identical moves, colours reversed ({n} {})", plies_word(n))
                }
                Reason::Contained => format!("contained in other ({n} {})", plies_word(n)),
                Reason::SameStart(n) => format!("same first {n} {}", plies_word(n)),
            };
            t.row(vec![
                why,
                file_line(names, d.game),
                d.game.game.to_string(),
                file_line(names, d.other),
                d.other.game.to_string(),
            ]);
        }
        t.render(out);
    }
}

/// The points of a win or a draw on a scale, from half points: `2`, `1`, `½`.
fn scale_points(half: u64) -> String {
    if half == 1 {
        "½".to_string()
    } else {
        (half as f64 / 2.0).to_string()
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn plural_word(n: usize, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

fn plies_word(n: u32) -> &'static str {
    if n == 1 { "ply" } else { "plies" }
}

fn percent(n: u64, of: u64) -> String {
    if of == 0 {
        String::new()
    } else {
        format!("{:.1}", 100.0 * n as f64 / of as f64)
    }
}

/// A histogram bucket width that keeps the text histogram under about 30 rows.
fn bucket_width(max: u32) -> u32 {
    [10u32, 20, 25, 50, 100, 200, 250, 500, 1000]
        .into_iter()
        .find(|w| max / w < 30)
        .unwrap_or_else(|| (max / 30).max(1))
}

fn section(out: &mut String, title: &str) {
    let _ = writeln!(out, "\n{title}");
}

/// Figures with their labels, one a line (a table of two columns without a header).
fn figures(out: &mut String, rows: Vec<(&str, String)>) {
    let mut t = Table::new(&["", ""], "lr");
    for (label, value) in rows {
        t.row(vec![label.to_string(), value]);
    }
    t.render_plain(out);
}

/// A text table: a header, rows, and per column `l` (left) or `r` (right) alignment.
struct Table {
    header: Vec<String>,
    align: Vec<u8>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn new(header: &[&str], align: &str) -> Table {
        Table {
            header: header.iter().map(|s| s.to_string()).collect(),
            align: align.bytes().collect(),
            rows: Vec::new(),
        }
    }

    fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    fn render(&self, out: &mut String) {
        if self.rows.is_empty() {
            out.push_str("  (none)\n");
            return;
        }
        self.write(out, true);
    }

    fn render_plain(&self, out: &mut String) {
        self.write(out, false);
    }

    fn write(&self, out: &mut String, header: bool) {
        let cols = self.header.len();
        let mut widths = vec![0usize; cols];
        let all = header.then_some(&self.header).into_iter().chain(&self.rows);
        for r in all.clone() {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        for r in all {
            let mut line = String::from(" ");
            for (i, c) in r.iter().enumerate().take(cols) {
                let pad = widths[i].saturating_sub(c.chars().count());
                line.push(' ');
                if self.align.get(i) == Some(&b'r') {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(c);
                } else {
                    line.push_str(c);
                    line.extend(std::iter::repeat_n(' ', pad));
                }
                line.push(' ');
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_widths() {
        assert_eq!(bucket_width(0), 10);
        assert_eq!(bucket_width(299), 10);
        assert_eq!(bucket_width(300), 20);
        assert_eq!(bucket_width(100_000), 3333);
    }
}
