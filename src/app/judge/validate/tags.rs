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
                // (Built by hand: a file of dates in another form has one on every game.)
                let mut m = String::with_capacity(name.len() + v.len() + 50);
                for part in [
                    name,
                    " `",
                    v,
                    "` is not YYYY.MM.DD (with ? for unknown digits)",
                ] {
                    m.push_str(part);
                }
                Some(m)
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
                let mut key = String::with_capacity(name.len() + 1 + v.len());
                key.push_str(name);
                key.push(' ');
                date_form(v, &mut key);
                d.per_file = Some(key);
            }
            diags.push(d);
        }
    }
}

/// The form of a date as written, added to `out`: a run of four digits `YYYY`, a shorter one
/// `D`, a longer one `N`, the rest as it is (`13.07.2007`, `9.7.2007` and `09.07.2007` are
/// `D.D.YYYY`).
pub(crate) fn date_form(v: &str, out: &mut String) {
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
            flush(&mut digits, out);
            out.push(c);
        }
    }
    flush(&mut digits, out);
}

pub(super) fn bad_tag(span: Span, message: String) -> Diagnostic {
    Diagnostic::new(Code::BadTag, message)
        .at(span)
        .rule("PDN 3.0 tag pairs")
}

/// `YYYY.MM.DD` with `?` for unknown digits (per group).
pub fn is_pdn_date(v: &str) -> bool {
    let ok = |p: &[u8]| p.iter().all(u8::is_ascii_digit) || p.iter().all(|&c| c == b'?');
    // Three parts of 4, 2 and 2 bytes: ten bytes, the dots at 4 and 7.
    let b = v.as_bytes();
    b.len() == 10 && b[4] == b'.' && b[7] == b'.' && ok(&b[..4]) && ok(&b[5..7]) && ok(&b[8..])
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
        for v in [
            "2004.10.27 - 2004.11.01",
            "2004.1.27",
            "2004.10.2é",
            "20.4.10.27",
            "1950.??.?1",
        ] {
            assert!(!is_pdn_date(v), "{v}");
        }
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
            let mut got = String::from("Date ");
            date_form(v, &mut got);
            assert_eq!(got, format!("Date {form}"), "{v}");
        }
    }
}
