//! The fast fuzz target's checks (`tests/support/invariants.rs`) on every
//! input of its seed corpus (every `.ctl-pgn` file under `corpus/`) and of
//! its regression corpus (`fuzz/regressions/core_invariants/`: every input
//! that ever broke them, kept with its fix), on stable, without cargo-fuzz.

use std::path::{Path, PathBuf};

#[path = "support/invariants.rs"]
mod invariants;

/// The files under `dir`, at any depth, that `keep` takes.
fn files_under(dir: &Path, keep: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(files_under(&path, keep));
        } else if keep(&path) {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// The paths of `files` whose input breaks an invariant, each with what
/// it broke.
fn failing(files: &[PathBuf]) -> Vec<String> {
    let mut failed = Vec::new();
    for path in files {
        let data = std::fs::read(path).unwrap();
        if let Err(panic) = std::panic::catch_unwind(|| invariants::hold(&data)) {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            failed.push(format!("{}: {why}", path.display()));
        }
    }
    failed
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_seed_holds_the_core_invariants() {
    let seeds = files_under(&root().join("corpus"), &|p| {
        p.extension().is_some_and(|e| e == "ctl-pgn")
    });
    // The corpus's top folder, errors/, split/ and real-world/.
    assert!(seeds.len() >= 130, "{} seeds", seeds.len());
    let failed = failing(&seeds);
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn every_input_that_ever_failed_holds_the_core_invariants() {
    let regressions = files_under(&root().join("fuzz/regressions/core_invariants"), &|_| true);
    assert!(!regressions.is_empty());
    let failed = failing(&regressions);
    assert!(failed.is_empty(), "{failed:#?}");
}
