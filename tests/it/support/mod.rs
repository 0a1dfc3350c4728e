//! Helpers shared by the integration tests: where the shared corpus lives, its PDN files, the
//! configuration of the property tests; [`syntax`] has the round-trip comparison of the
//! syntax tests, [`pty`] pseudo-terminals, [`browser`] headless Chromium.
#![allow(dead_code)]

pub(crate) mod browser;
pub(crate) mod pty;
pub(crate) mod syntax;

use std::path::{Path, PathBuf};

use proptest::test_runner::{Config as ProptestConfig, FileFailurePersistence};

/// The modules of property tests, each with its seeds in `proptest-regressions/it/`.
pub(crate) const PROPERTY_MODULES: [&str; 2] = ["properties", "syntax_props"];

/// Where the seeds of the property tests of `module` are kept and replayed from, relative to
/// the repository's root (the tests' working directory): `proptest-regressions/it/`, beside
/// the library's own (`proptest-regressions/app/…`, proptest's default for `src/`). One
/// place for every seed; proptest's default for a test binary (`tests/proptest-regressions/`)
/// and the `*.proptest-regressions` files beside the sources are not used.
pub(crate) fn seed_file(module: &str) -> String {
    format!("proptest-regressions/it/{module}.txt")
}

/// The configuration of the property tests of `module` (one of [`PROPERTY_MODULES`]):
/// `cases` cases (`PROPTEST_CASES` asks for more, for a deeper run by hand), the failures
/// saved to and replayed from [`seed_file`].
pub(crate) fn proptest_config(module: &'static str, cases: u32) -> ProptestConfig {
    assert!(PROPERTY_MODULES.contains(&module), "{module}");
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    // (The path must live as long as the configuration: one small string per test.)
    let path: &'static str = Box::leak(seed_file(module).into_boxed_str());
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(path))),
        ..ProptestConfig::default()
    }
}

/// Every `.pdn` file (any case) under `dir`, recursively, in sorted order.
pub(crate) fn pdn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            pdn_files(&p, out);
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdn")) {
            out.push(p);
        }
    }
}

/// The shared corpus (`../shared/corpus` next to the checkout, or `$PDN_CORPUS`).
///
/// The corpus is part of the test contract: a missing corpus fails the test loudly
/// instead of skipping it.
pub(crate) fn corpus() -> PathBuf {
    let dir = match std::env::var_os("PDN_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
    };
    assert!(
        dir.join("perft.tsv").is_file(),
        "shared corpus not found at {} (set PDN_CORPUS)",
        dir.display()
    );
    dir
}

/// Text without the SGR sequences of `pdn`'s palette (bold, reset, red, yellow, blue, cyan):
/// any other escape sequence is left in.
pub(crate) fn strip_styles(text: &str) -> String {
    let mut out = text.to_string();
    for sgr in [
        "\x1b[0m", "\x1b[1m", "\x1b[31m", "\x1b[33m", "\x1b[36m", "\x1b[34m",
    ] {
        out = out.replace(sgr, "");
    }
    out
}

/// The shared corpus's PDN files joined and repeated to about `mb` megabytes, as
/// `dir/big.pdn` (a run long enough to be interrupted midway).
pub(crate) fn big_input(dir: &Path, mb: usize) -> PathBuf {
    use std::io::Write;
    let mut files = Vec::new();
    pdn_files(&corpus(), &mut files);
    let mut one = Vec::new();
    for f in files {
        one.extend_from_slice(&std::fs::read(f).expect("corpus file"));
        one.extend_from_slice(b"\n\n");
    }
    let path = dir.join("big.pdn");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).expect("big.pdn"));
    let mut written = 0;
    while written < mb << 20 {
        out.write_all(&one).expect("write big.pdn");
        written += one.len();
    }
    out.flush().expect("write big.pdn");
    path
}
