//! What the benchmarks share: the corpus they read.

use std::path::{Path, PathBuf};

/// The shared corpus: `$PDN_CORPUS`, else `../shared/corpus` beside the crate.
pub(crate) fn corpus() -> PathBuf {
    let dir = match std::env::var_os("PDN_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"),
    };
    assert!(
        dir.is_dir(),
        "corpus not found at {} (set PDN_CORPUS)",
        dir.display()
    );
    dir
}

/// The `.pdn` files below `dir` (any case of the extension), in name order, each folder's
/// where its name sorts.
pub(crate) fn pdn_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(dir, &mut out);
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("corpus directory {}: {e}", dir.display()))
        .map(|e| e.expect("corpus entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pdn")) {
            out.push(p);
        }
    }
}
