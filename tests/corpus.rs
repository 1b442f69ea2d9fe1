//! One snapshot per corpus file: the canonical output, then every
//! diagnostic as the CLI prints it, then the counts.

mod support;

use ctlpgn_filter::{Filter, FilterBuilder};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// What filtering `path` gives, printed: the same with each structural
/// index this machine runs, which is checked here.
fn run(make: impl Fn() -> FilterBuilder, path: &Path) -> String {
    let printed = run_one(&mut make().build(), path);
    for index in ctlpgn_filter::index_implementations() {
        let mut filter = make().index_implementation(index).build();
        assert_eq!(
            run_one(&mut filter, path),
            printed,
            "{}: index {index}",
            path.display()
        );
    }
    printed
}

fn run_one(filter: &mut Filter, path: &Path) -> String {
    let input = std::fs::read(path).unwrap();
    let (out, diags, report) = filter.filter_bytes(&input);
    let name = path.file_name().unwrap().to_string_lossy();
    let mut s = String::from_utf8(out).expect("output is UTF-8");
    s += "--- diagnostics\n";
    for d in &diags {
        s += &d.render(&name);
    }
    writeln!(
        s,
        "--- {} read, {} written, {} rejected, {} warnings",
        report.games_read, report.games_written, report.games_rejected, report.warnings
    )
    .unwrap();
    assert_eq!(
        report.games_read,
        report.games_written + report.games_rejected
    );
    s
}

/// The corpus files with a snapshot each: the top level and `errors/`.
/// `real-world/` has snapshots of its own, one per folder
/// (`real_world_records`).
const TOP_LEVEL_AND_ERRORS: &str = "{*.ctl-pgn,errors/*.ctl-pgn}";

#[test]
fn corpus_snapshots() {
    insta::with_settings!({
        snapshot_path => "../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("../corpus", TOP_LEVEL_AND_ERRORS, |path| {
            insta::assert_snapshot!(run(FilterBuilder::new, path));
        });
    });
}

/// The same corpus with every drop pass off: kept items are normalised too.
#[test]
fn corpus_snapshots_keeping_everything() {
    insta::with_settings!({
        snapshot_path => "../snapshots/keep",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("../corpus", TOP_LEVEL_AND_ERRORS, |path| {
            let keep = || {
                FilterBuilder::new()
                    .keep_comments(true)
                    .keep_variations(true)
                    .keep_ratings(true)
            };
            insta::assert_snapshot!(run(keep, path));
        });
    });
}

/// The `.ctl-pgn` files of `corpus/real-world/<folder>`, sorted by name.
fn real_world_files(folder: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/real-world")
        .join(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ctl-pgn"))
        .collect();
    files.sort();
    files
}

/// One snapshot per folder of `corpus/real-world/`, named
/// `<test>@<folder>`: each file under a line naming it, then what `run`
/// gives for it with a fresh filter from `build`.
fn real_world_snapshots(test: &str, build: impl Fn() -> FilterBuilder) {
    insta::with_settings!({
        snapshot_path => "../snapshots/real-world",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        for (folder, count) in [("html", 45), ("html-history", 29)] {
            let files = real_world_files(folder);
            assert_eq!(files.len(), count, "{folder}");
            let mut s = String::new();
            for path in &files {
                let name = path.file_name().unwrap().to_string_lossy();
                writeln!(s, "=== {folder}/{name}").unwrap();
                s += &run(&build, path);
                s.push('\n');
            }
            insta::assert_snapshot!(format!("{test}@{folder}"), s);
        }
    });
}

/// The author's published records (`corpus/real-world/`), filtered.
#[test]
fn real_world_records() {
    real_world_snapshots("real_world_records", FilterBuilder::new);
}

/// The same records with every drop pass off.
#[test]
fn real_world_records_keeping_everything() {
    real_world_snapshots("real_world_records_keeping_everything", || {
        FilterBuilder::new()
            .keep_comments(true)
            .keep_variations(true)
            .keep_ratings(true)
    });
}

/// Filtering the published records' canonical output changes nothing, in
/// both modes.
#[test]
fn real_world_output_is_a_fixed_point() {
    for folder in ["html", "html-history"] {
        for path in real_world_files(folder) {
            assert_output_is_a_fixed_point(&path);
        }
    }
}

/// Filtering `path`'s output again changes nothing, with the default
/// passes and with every drop pass off.
fn assert_output_is_a_fixed_point(path: &Path) {
    let input = std::fs::read(path).unwrap();
    for keep in [false, true] {
        let build = || {
            FilterBuilder::new()
                .keep_comments(keep)
                .keep_variations(keep)
                .keep_ratings(keep)
                .build()
        };
        let (once, _, _) = build().filter_bytes(&input);
        let (twice, _, r) = build().filter_bytes(&once);
        assert_eq!(r.games_rejected, 0, "{}", path.display());
        assert_eq!(
            String::from_utf8_lossy(&twice),
            String::from_utf8_lossy(&once),
            "{} (keep = {keep})",
            path.display()
        );
    }
}

#[test]
fn real_games_come_out_as_their_author_expects() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let expected_dir = dir.join("tests/real-games-expected");
    let mut n = 0;
    for entry in std::fs::read_dir(&expected_dir).unwrap() {
        let expected_path = entry.unwrap().path();
        let input =
            std::fs::read(dir.join("corpus").join(expected_path.file_name().unwrap())).unwrap();
        let (out, _, report) = Filter::default().filter_bytes(&input);
        assert_eq!(report.games_rejected, 0);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            std::fs::read_to_string(&expected_path).unwrap(),
            "{}",
            expected_path.display()
        );
        n += 1;
    }
    assert_eq!(n, 7);
}

/// Filtering canonical output changes nothing, for every corpus file and
/// in both modes.
#[test]
fn corpus_output_is_a_fixed_point() {
    for path in support::corpus_files() {
        assert_output_is_a_fixed_point(&path);
    }
}
