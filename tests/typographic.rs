//! The typographic output form (issue 44, `--typographic`): captures `×`
//! and Black's first move `…`, as the notation prints them, for readers
//! (the notation's author's) that know no other spelling; read again, the
//! default output, byte for byte.

mod support;

use ctlpgn_filter::FilterBuilder;
use std::path::Path;
use support::{cmd, corpus_files, run};

/// Options set on a builder.
type Options = fn(FilterBuilder) -> FilterBuilder;

/// The option sets each corpus file is filtered under.
fn option_sets() -> [(&'static str, Options); 3] {
    [
        ("default", |b| b),
        ("everything kept", |b| {
            b.keep_comments(true)
                .keep_variations(true)
                .keep_ratings(true)
        }),
        ("variations split", |b| b.split_variations(true)),
    ]
}

fn filtered(options: Options, typographic: bool, input: &[u8]) -> Vec<u8> {
    options(FilterBuilder::new())
        .typographic(typographic)
        .build()
        .filter_bytes(input)
        .0
}

const GAME: &str = "[Variant \"C'escacs\"]\n\
    1. ..., E21-E15 2. E7-E13, E15*E13 3. F8-F12 (3. ..., F20-F16) 3. ..., F20-F16:\n*\n";

#[test]
fn typographic_output_writes_captures_times_and_white_s_missing_move_as_an_ellipsis() {
    let (ok, out, err) = run(&["--typographic", "--keep-variations"], GAME);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "[Variant \"C'escacs\"]\n\n\
         1. …, E21-E15\n2. E7-E13, E15×E13\n3. F8-F12\n(3. …, F20-F16)\n3. …, F20-F16:\n*\n\n"
    );
}

#[test]
fn typographic_output_keeps_the_ascii_hyphen_and_the_unfinished_result_asterisk() {
    let (ok, out, err) = run(&["--typographic"], "1. E7‐E13, E21–E15:\n*\n");
    assert!(ok, "{err}");
    assert!(out.contains("1. E7-E13, E21-E15:\n*\n"), "{out}");
}

#[test]
fn typographic_output_leaves_comments_as_written() {
    let (ok, out, err) = run(
        &["--typographic", "--keep-comments"],
        "{ 3*4 ... }\n1. E7-E13, E21-E15:\n*\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("{ 3*4 ... }\n"), "{out}");
}

/// The default output as the typographic form spells it: in the moves,
/// each capture sign `*` written `×`, and White's missing move `...`
/// (before its comma; not a variation's depth dots) written `…`; tag
/// lines, comments and the result `*` as they are.
fn spelled_typographically(default: &[u8]) -> String {
    let mut out = String::new();
    let mut in_comment = false;
    for line in std::str::from_utf8(default).unwrap().split_inclusive('\n') {
        if !in_comment && (line.starts_with('[') || line.trim_end() == "*") {
            out += line;
            continue;
        }
        for part in line.split_inclusive(['{', '}']) {
            if in_comment {
                out += part;
                in_comment = !part.ends_with('}');
            } else {
                let moves = part.strip_suffix('{').unwrap_or(part);
                out += &moves.replace('*', "×").replace("...,", "…,");
                in_comment = moves.len() < part.len();
                if in_comment {
                    out.push('{');
                }
            }
        }
    }
    out
}

#[test]
fn typographic_output_is_the_default_output_with_times_and_ellipses_on_every_corpus_file() {
    for (name, options) in option_sets() {
        let (mut times, mut ellipses) = (0, 0);
        for path in corpus_files() {
            let input = std::fs::read(&path).unwrap();
            let default = filtered(options, false, &input);
            let typographic = String::from_utf8(filtered(options, true, &input)).unwrap();
            assert_eq!(
                typographic,
                spelled_typographically(&default),
                "{}, {name}",
                path.display()
            );
            times += typographic.matches('×').count();
            ellipses += typographic.matches('…').count();
        }
        // The corpus has both under every option set: the test has teeth.
        assert!(
            times > 100 && ellipses > 10,
            "{name}: {times} ×, {ellipses} …"
        );
    }
}

#[test]
fn typographic_output_read_again_gives_the_default_output_on_every_corpus_file() {
    for path in corpus_files() {
        let input = std::fs::read(&path).unwrap();
        for (name, options) in option_sets() {
            let default = filtered(options, false, &input);
            let typographic = filtered(options, true, &input);
            assert!(
                filtered(options, false, &typographic) == default,
                "{}, {name}: the typographic output read again is not the default output",
                path.display()
            );
        }
    }
}

#[test]
fn typographic_output_filtered_again_is_unchanged_on_every_corpus_file() {
    for path in corpus_files() {
        let input = std::fs::read(&path).unwrap();
        for (name, options) in option_sets() {
            let once = filtered(options, true, &input);
            assert!(
                filtered(options, true, &once) == once,
                "{}, {name}: the typographic form is not a fixed point",
                path.display()
            );
        }
    }
}

#[test]
fn typographic_outputs_joined_read_as_each_read_alone() {
    let files = corpus_files();
    let options = option_sets()[0].1;
    for pair in files.windows(2) {
        let (a, b) = (
            std::fs::read(&pair[0]).unwrap(),
            std::fs::read(&pair[1]).unwrap(),
        );
        let joined = [filtered(options, true, &a), filtered(options, true, &b)].concat();
        let defaults = [filtered(options, false, &a), filtered(options, false, &b)].concat();
        assert!(
            filtered(options, true, &joined) == joined,
            "{} then {}: their typographic outputs joined, filtered again, changed",
            pair[0].display(),
            pair[1].display()
        );
        assert!(
            filtered(options, false, &joined) == defaults,
            "{} then {}: their typographic outputs joined do not read as their default outputs joined",
            pair[0].display(),
            pair[1].display()
        );
    }
}

#[test]
fn typographic_output_is_the_same_for_any_number_of_jobs() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let outputs: Vec<Vec<u8>> = ["1", "2", "4"]
        .iter()
        .map(|jobs| {
            let out = cmd()
                .args(["--typographic", "-q", "--jobs", jobs])
                .arg(&corpus)
                .output()
                .unwrap();
            out.stdout
        })
        .collect();
    assert!(outputs[0].len() > 10_000 && outputs[0].windows(2).any(|w| w == "×".as_bytes()));
    assert!(outputs[1] == outputs[0], "--jobs 2 differs from --jobs 1");
    assert!(outputs[2] == outputs[0], "--jobs 4 differs from --jobs 1");
}

#[test]
fn ndjson_is_unchanged_by_typographic() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let ndjson = |typographic: bool| {
        let mut c = cmd();
        c.args(["--format", "ndjson", "-q", "--keep-variations"]);
        if typographic {
            c.arg("--typographic");
        }
        c.arg(&corpus).output().unwrap().stdout
    };
    let plain = ndjson(false);
    assert!(plain.len() > 10_000);
    assert!(ndjson(true) == plain);
}

#[test]
fn check_refuses_typographic_as_it_writes_nothing() {
    let (ok, _, err) = run(&["--check", "--typographic"], GAME);
    assert!(!ok);
    assert!(err.contains("--typographic"), "{err}");
}
