//! One snapshot per corpus file: the canonical output, then every
//! diagnostic as the CLI prints it, then the counts.

use ctlpgn_filter::{Filter, FilterBuilder};
use std::fmt::Write;
use std::path::Path;

fn run(filter: &mut Filter, path: &Path) -> String {
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

#[test]
fn corpus_snapshots() {
    insta::with_settings!({
        snapshot_path => "../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("../corpus", "**/*.ctl-pgn", |path| {
            let mut filter = Filter::default();
            insta::assert_snapshot!(run(&mut filter, path));
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
        insta::glob!("../corpus", "**/*.ctl-pgn", |path| {
            let mut filter = FilterBuilder::new()
                .keep_comments(true)
                .keep_variations(true)
                .keep_ratings(true)
                .build();
            insta::assert_snapshot!(run(&mut filter, path));
        });
    });
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
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let files = std::fs::read_dir(&corpus)
        .unwrap()
        .chain(std::fs::read_dir(corpus.join("errors")).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ctl-pgn"));
    for path in files {
        let input = std::fs::read(&path).unwrap();
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
}
