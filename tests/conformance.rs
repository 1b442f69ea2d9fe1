//! The conformance corpus (`conformance/`, issue 44): one small game per
//! rule of the notation a reader can get wrong, each with its expected
//! verdict, canonical output and final PDTL. This filter passes every
//! case, through the protocol's own command (`examples/conformance.rs`).

#[path = "../examples/conformance.rs"]
mod protocol;

use ctlpgn_filter::Filter;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every case's folder, sorted.
fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root().join("conformance"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 40, "the conformance corpus is there");
    cases
}

fn read(case: &Path, file: &str) -> String {
    std::fs::read_to_string(case.join(file))
        .unwrap_or_else(|e| panic!("{}: {e}", case.join(file).display()))
}

/// A case's `expected`: its rule, its spec sentence (with the section),
/// then the protocol's answer.
struct Expected {
    rule: String,
    spec: String,
    answer: String,
}

fn expected(case: &Path) -> Expected {
    let text = read(case, "expected");
    let mut lines = text.split_inclusive('\n');
    let mut field = |name: &str| {
        let line = lines.next().unwrap_or_default();
        line.strip_prefix(name)
            .unwrap_or_else(|| panic!("{}: expected starts {name:?}", case.display()))
            .trim()
            .to_string()
    };
    let rule = field("rule: ");
    let spec = field("spec (");
    Expected {
        rule,
        spec,
        answer: lines.collect(),
    }
}

#[test]
fn every_case_gives_its_expected_verdict_half_moves_and_final_pdtl() {
    for case in cases() {
        let input = std::fs::read(case.join("input.ctl-pgn")).unwrap();
        assert_eq!(
            protocol::verdict(&input),
            expected(&case).answer,
            "{}",
            case.display()
        );
    }
}

#[test]
fn every_case_filters_to_its_canonical_output() {
    for case in cases() {
        let input = std::fs::read(case.join("input.ctl-pgn")).unwrap();
        let (out, _, report) = Filter::default().filter_bytes(&input);
        match std::fs::read(case.join("canonical.ctl-pgn")) {
            Ok(canonical) => assert!(out == canonical, "{}", case.display()),
            // Not CTL-PGN a reader may take: the filter rejects it unread.
            Err(_) => assert_eq!(
                (out.len(), report.games_rejected),
                (0, 1),
                "{}",
                case.display()
            ),
        }
    }
}

#[test]
fn every_coherent_case_s_canonical_output_gives_the_same_verdict() {
    for case in cases() {
        let expected = expected(&case);
        if expected.answer.starts_with("coherent\n") {
            let canonical = read(&case, "canonical.ctl-pgn");
            assert_eq!(
                protocol::verdict(canonical.as_bytes()),
                expected.answer,
                "{}",
                case.display()
            );
        }
    }
}

#[test]
fn every_case_states_its_rule_and_quotes_the_spec() {
    // The spec beside the repository, as CI has it; without it, the
    // sentences are checked to be there only.
    let spec = std::fs::read_to_string(root().join("../shared/spec/ctl-pgn-notation.en.txt")).ok();
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    for case in cases() {
        let e = expected(&case);
        assert!(!e.rule.is_empty(), "{}: no rule", case.display());
        let (section, sentence) = e
            .spec
            .split_once("): ")
            .unwrap_or_else(|| panic!("{}: spec (SECTION): SENTENCE", case.display()));
        assert!(
            !section.is_empty() && !sentence.is_empty(),
            "{}",
            case.display()
        );
        if let Some(spec) = &spec {
            for quoted in sentence
                .split("[...]")
                .map(str::trim)
                .filter(|q| !q.is_empty())
            {
                assert!(
                    words(spec).contains(&words(quoted)),
                    "{}: not in the spec: {quoted:?}",
                    case.display()
                );
            }
        }
    }
}
