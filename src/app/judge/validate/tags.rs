//! The formats of tag values (`bad-tag`): dates, time controls, ply counts.

use crate::syntax::Span;

use crate::app::judge::diagnostic::{Code, Diagnostic};
use crate::app::model::record::Record;

/// Tag formats (`bad-tag`): Date, TimeControl, PlyCount.
pub(super) fn check_tags(game: &Record, diags: &mut Vec<Diagnostic>) {
    for (name, value, span) in game.tags() {
        let v = value.trim();
        let problem = match name {
            "Date" | "EventDate" | "UTCDate" | "PublicationDate"
                if !v.is_empty() && !is_pdn_date(v) =>
            {
                Some(format!(
                    "{name} `{v}` is not YYYY.MM.DD (with ? for unknown digits)"
                ))
            }
            "TimeControl" if !v.is_empty() && !is_time_control(v) => Some(format!(
                "TimeControl `{v}` does not follow the PDN 3.0 grammar"
            )),
            "PlyCount" if !v.is_empty() && v.parse::<u32>().is_err() => {
                Some(format!("PlyCount `{v}` is not a number"))
            }
            _ => None,
        };
        if let Some(p) = problem {
            let mut d = bad_tag(span, p);
            if name != "TimeControl" && name != "PlyCount" {
                // One warning for the dates of a file written in one form.
                d.per_file = Some(format!("{name} {}", date_form(v)));
            }
            diags.push(d);
        }
    }
}

/// The form of a date as written: a run of four digits `YYYY`, a shorter one `D`, a longer
/// one `N`, the rest as it is (`13.07.2007`, `9.7.2007` and `09.07.2007` are `D.D.YYYY`).
pub(crate) fn date_form(v: &str) -> String {
    let mut out = String::new();
    let mut digits = 0;
    let flush = |digits: &mut usize, out: &mut String| {
        match *digits {
            0 => {}
            1 | 2 => out.push('D'),
            4 => out.push_str("YYYY"),
            _ => out.push('N'),
        }
        *digits = 0;
    };
    for c in v.chars() {
        if c.is_ascii_digit() {
            digits += 1;
        } else {
            flush(&mut digits, &mut out);
            out.push(c);
        }
    }
    flush(&mut digits, &mut out);
    out
}

pub(super) fn bad_tag(span: Span, message: String) -> Diagnostic {
    Diagnostic::new(Code::BadTag, message)
        .at(span)
        .rule("PDN 3.0 tag pairs")
}

/// `YYYY.MM.DD` with `?` for unknown digits (per group).
pub fn is_pdn_date(v: &str) -> bool {
    let parts: Vec<&str> = v.split('.').collect();
    if parts.len() != 3 {
        return false;
    }
    let ok = |p: &str, n: usize| {
        p.len() == n && (p.bytes().all(|c| c.is_ascii_digit()) || p.bytes().all(|c| c == b'?'))
    };
    ok(parts[0], 4) && ok(parts[1], 2) && ok(parts[2], 2)
}

/// The PDN 3.0 TimeControl grammar.
pub fn is_time_control(v: &str) -> bool {
    if v == "?" || v == "-" {
        return true;
    }
    let elems: Vec<&str> = v.split(':').collect();
    let n = elems.len();
    elems.iter().enumerate().all(|(i, e)| {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        let last = i + 1 == n;
        if let Some((a, b)) = e.split_once('/') {
            digits(a) && digits(b)
        } else if let Some((a, b)) = e.split_once('+') {
            last && digits(a) && digits(b)
        } else if let Some(s) = e.strip_prefix('*') {
            last && digits(s)
        } else {
            last && digits(e)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_time_controls() {
        assert!(is_pdn_date("2003.05.??"));
        assert!(is_pdn_date("????.??.??"));
        assert!(!is_pdn_date("2004-05-01"));
        assert!(!is_pdn_date("1950."));
        assert!(is_time_control("40/7200:3600"));
        assert!(is_time_control("4800+60"));
        assert!(is_time_control("40/7200:20/2400:600+5"));
        assert!(is_time_control("*120"));
        assert!(!is_time_control("90 min"));
        assert!(!is_time_control("60+1:40/20"));
    }

    #[test]
    fn date_forms() {
        for (v, form) in [
            ("13.07.2007", "D.D.YYYY"),
            ("9.7.2007", "D.D.YYYY"),
            ("2004-05-01", "YYYY-D-D"),
            ("1950.", "YYYY."),
            ("May 2003", "May YYYY"),
            ("20030501", "N"),
        ] {
            assert_eq!(date_form(v), form, "{v}");
        }
    }
}
