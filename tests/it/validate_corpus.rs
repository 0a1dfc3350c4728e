//! The whole shared corpus as a regression suite for `validate`: every error reported must be
//! one of those checked by hand and listed in `tests/it/corpus_expectations.tsv`, with the same
//! count; every line of that file must still match.

use crate::support as common;

use std::collections::BTreeMap;
use std::path::Path;

use pdn::app::judge::diagnostic::Severity;
use pdn::app::judge::validate::{Options, validate};
use pdn::app::model::gametype::FileHint;
use pdn::syntax::read_games;

struct Rule {
    path: String,
    game: Option<usize>,
    code: Option<String>,
    count: Option<usize>,
    place: String,
    line: usize,
}

impl Rule {
    fn matches(&self, path: &str, game: usize, code: &str, place: &str) -> bool {
        let path_ok = match self.path.strip_suffix('*') {
            Some(prefix) => path.starts_with(prefix) && !path[prefix.len()..].contains('/'),
            None => path == self.path,
        };
        path_ok
            && self.game.is_none_or(|g| g == game)
            && self.code.as_deref().is_none_or(|c| c == code)
            && (self.place == "any" || self.place == place)
    }
}

fn rules() -> Vec<Rule> {
    let text = include_str!("corpus_expectations.tsv");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 6, "line {}: six tab-separated columns", i + 1);
        assert!(
            !f[5].trim().is_empty(),
            "line {}: every expectation says why",
            i + 1
        );
        out.push(Rule {
            path: f[0].to_string(),
            game: (f[1] != "*").then(|| f[1].parse().unwrap()),
            code: (f[2] != "*").then(|| f[2].to_string()),
            count: (f[3] != "*").then(|| f[3].parse().unwrap()),
            place: f[4].to_string(),
            line: i + 1,
        });
    }
    out
}

fn pdn_files(root: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pdn")) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_error_on_the_corpus_is_expected() {
    let root = common::corpus();
    let rules = rules();
    let mut used: BTreeMap<usize, usize> = BTreeMap::new();
    // (rule index) -> errors matched; unexpected errors listed.
    let mut unexpected = Vec::new();
    let mut per_group: BTreeMap<(usize, String, usize, String), usize> = BTreeMap::new();
    let mut games = 0;
    for path in pdn_files(&root) {
        let rel = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = std::fs::read(&path).unwrap();
        let mut hint = FileHint::default();
        for game in read_games(&bytes) {
            games += 1;
            let h = hint.observe(&game);
            let report = validate(
                &game,
                &Options {
                    hint: h,
                    ..Options::default()
                },
            );
            for d in report
                .diagnostics
                .iter()
                .filter(|d| d.severity() == Severity::Error)
            {
                let place = if d.variation { "variation" } else { "main" };
                let code = d.code.as_str();
                match rules
                    .iter()
                    .position(|r| r.matches(&rel, game.index, code, place))
                {
                    Some(r) => {
                        *used.entry(r).or_default() += 1;
                        *per_group
                            .entry((r, rel.clone(), game.index, code.to_string()))
                            .or_default() += 1;
                    }
                    None => unexpected.push(format!(
                        "{rel}\t{}\t{code}\t1\t{place}\t{}",
                        game.index, d.message
                    )),
                }
            }
        }
    }
    assert!(games > 10_000, "the corpus holds more games than {games}");
    assert!(
        unexpected.is_empty(),
        "errors not in tests/it/corpus_expectations.tsv:\n{}",
        unexpected.join("\n")
    );
    let mut problems = Vec::new();
    for (i, r) in rules.iter().enumerate() {
        let n = used.get(&i).copied().unwrap_or(0);
        if n == 0 {
            problems.push(format!(
                "line {}: {} matches no error any more",
                r.line, r.path
            ));
        }
        if let Some(want) = r.count {
            // A counted line is per game: check each (file, game, code) group.
            for ((ri, file, game, code), got) in &per_group {
                if *ri == i && *got != want {
                    problems.push(format!(
                        "line {}: {file} game {game} {code}: {got} errors, expected {want}",
                        r.line
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
