//! The conformance corpus (`conformance/`, issue 44): one small game per
//! rule of the notation a reader can get wrong, each with its expected
//! verdict, canonical output and final PDTL. This filter passes every
//! case, through the protocol's own command (`examples/conformance.rs`).
//!
//! Each case stands on the spec: its `expected` quotes the sentences that
//! decide its answer (`spec (SECTION): ...`, checked to be in that section
//! of the spec), and says where the answer follows the author's own
//! records instead (`practice (RECORD:LINES): ...`, checked to be on those
//! lines). The spec and the author's records are read from the shared
//! folder beside the repository (`../shared`, as CI has it, or
//! `CTLPGN_SHARED`): without it the checks fail, saying where to put it.

#[path = "../examples/conformance.rs"]
mod protocol;

use ctlpgn_filter::Filter;
use std::path::{Path, PathBuf};

/// The cases in `conformance/`: a case added or removed changes this, and
/// the README's table.
const CASES: usize = 59;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The shared folder: the notation's spec (`spec/`) and the author's
/// records (`data/`). `../shared` beside the repository, as CI has it, or
/// the folder `CTLPGN_SHARED` names.
fn shared() -> PathBuf {
    std::env::var_os("CTLPGN_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared"))
}

/// A file of the shared folder, or a failure saying where to put it.
fn read_shared(file: &str) -> String {
    let path = shared().join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}\n\
             The conformance corpus quotes the notation's spec and the author's records, \
             which this test reads from the shared folder (spec/ctl-pgn-notation.en.txt, \
             data/): put it beside this repository as ../shared, as CI has it, or name it \
             with CTLPGN_SHARED=/path/to/shared.",
            path.display()
        )
    })
}

/// Every case's folder, sorted.
fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root().join("conformance"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert_eq!(
        cases.len(),
        CASES,
        "conformance/ holds {} cases, CASES says {CASES}: a case added or removed \
         changes CASES and the README's table",
        cases.len()
    );
    cases
}

fn read(case: &Path, file: &str) -> String {
    std::fs::read_to_string(case.join(file))
        .unwrap_or_else(|e| panic!("{}: {e}", case.join(file).display()))
}

/// What a case's answer stands on: a line of its `expected`.
#[derive(Debug)]
enum Ground {
    /// `spec (SECTION): SENTENCE`, words left out written `[...]`.
    Spec { section: String, sentence: String },
    /// `practice (RECORD:LINES): TEXT`, where the answer follows the
    /// author's own records: TEXT is on those lines, `[...]` between parts.
    Practice {
        record: String,
        first: usize,
        last: usize,
        text: String,
    },
    /// `note: TEXT`, checked by nobody.
    Note,
}

/// A case's `expected`: its rule, what its answer stands on, then the
/// protocol's answer.
struct Expected {
    rule: String,
    grounds: Vec<Ground>,
    answer: String,
}

fn expected(case: &Path) -> Expected {
    let text = read(case, "expected");
    let fail = |what: &str| -> ! { panic!("{}: expected: {what}", case.display()) };
    let mut lines = text.split_inclusive('\n').peekable();
    let rule = lines
        .next()
        .and_then(|l| l.strip_prefix("rule: "))
        .unwrap_or_else(|| fail("starts with its rule, `rule: `"))
        .trim()
        .to_string();
    let mut grounds = Vec::new();
    while let Some(line) = lines.peek() {
        let line = line.trim_end_matches('\n');
        let ground = if let Some(rest) = line.strip_prefix("spec (") {
            let (section, sentence) = rest
                .split_once("): ")
                .unwrap_or_else(|| fail("spec (SECTION): SENTENCE"));
            Ground::Spec {
                section: section.to_string(),
                sentence: sentence.to_string(),
            }
        } else if let Some(rest) = line.strip_prefix("practice (") {
            let (place, text) = rest
                .split_once("): ")
                .unwrap_or_else(|| fail("practice (RECORD:LINES): TEXT"));
            let (record, lines) = place
                .rsplit_once(':')
                .unwrap_or_else(|| fail("practice (RECORD:LINES): TEXT, LINES N or N-M"));
            let (first, last) = lines.split_once('-').unwrap_or((lines, lines));
            let number = |n: &str| -> usize {
                n.parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .unwrap_or_else(|| fail("practice's LINES are line numbers, N or N-M"))
            };
            Ground::Practice {
                record: record.to_string(),
                first: number(first),
                last: number(last),
                text: text.to_string(),
            }
        } else if line.starts_with("note: ") {
            Ground::Note
        } else {
            break;
        };
        grounds.push(ground);
        lines.next();
    }
    let answer: String = lines.collect();
    if !(answer.starts_with("coherent\n") || answer.starts_with("error\n")) {
        fail("after its rule, spec, practice and note lines, the answer: coherent or error");
    }
    Expected {
        rule,
        grounds,
        answer,
    }
}

/// The parts of a quote, between its `[...]`, in order.
fn parts(quote: &str) -> Vec<&str> {
    quote
        .split("[...]")
        .map(str::trim)
        .filter(|q| !q.is_empty())
        .collect()
}

/// Whether `parts` are found in `text` in this order, none overlapping: the
/// first not found otherwise.
fn find_in_order<'a>(text: &str, parts: &[&'a str]) -> Result<(), &'a str> {
    let mut at = 0;
    for &part in parts {
        match text[at..].find(part) {
            Some(i) => at += i + part.len(),
            None => return Err(part),
        }
    }
    Ok(())
}

fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The notation's spec, in sections: each heading (a short line that
/// starts with a capital and ends with no punctuation, blank lines around
/// it) and the text up to the next one.
struct Spec {
    sections: Vec<(String, String)>,
}

impl Spec {
    fn read() -> Spec {
        let text = read_shared("spec/ctl-pgn-notation.en.txt");
        let lines: Vec<&str> = text.lines().collect();
        let blank = |i: Option<usize>| {
            i.and_then(|i| lines.get(i))
                .is_none_or(|l| l.trim().is_empty())
        };
        let heading = |i: usize| {
            let l = lines[i];
            l.starts_with(|c: char| c.is_uppercase())
                && l.chars().count() <= 60
                && !l.ends_with(['.', ':', ';', ','])
                && blank(i.checked_sub(1))
                && blank(Some(i + 1))
        };
        let mut sections: Vec<(String, String)> = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            if heading(i) {
                sections.push((line.to_string(), String::new()));
            } else if let Some((_, body)) = sections.last_mut() {
                body.push_str(line);
                body.push('\n');
            }
        }
        assert!(
            sections.len() > 40,
            "the spec's sections are found: {}",
            sections.len()
        );
        Spec { sections }
    }

    /// The text of the section a case names: its heading, maybe preceded
    /// by the part it is in (`PDTL: Turn`), maybe followed by the items
    /// quoted (`Notation of a movement, 3 and 4`).
    fn section(&self, name: &str) -> Option<&str> {
        self.sections
            .iter()
            .filter(|(h, _)| {
                name == h
                    || name.starts_with(&format!("{h}, "))
                    || name.ends_with(&format!(": {h}"))
                    || name.contains(&format!(": {h}, "))
            })
            .max_by_key(|(h, _)| h.len())
            .map(|(_, body)| body.as_str())
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
fn every_case_states_its_rule_and_quotes_the_spec_in_its_section() {
    let spec = Spec::read();
    for case in cases() {
        let e = expected(&case);
        assert!(!e.rule.is_empty(), "{}: no rule", case.display());
        assert!(
            e.grounds
                .iter()
                .any(|g| matches!(g, Ground::Spec { .. } | Ground::Practice { .. })),
            "{}: the answer stands on nothing: no spec or practice line",
            case.display()
        );
        for ground in &e.grounds {
            let Ground::Spec { section, sentence } = ground else {
                continue;
            };
            let body = spec.section(section).unwrap_or_else(|| {
                panic!("{}: the spec has no section {section:?}", case.display())
            });
            let quoted = parts(sentence);
            assert!(!quoted.is_empty(), "{}: an empty quote", case.display());
            let quoted: Vec<String> = quoted.into_iter().map(words).collect();
            let quoted: Vec<&str> = quoted.iter().map(String::as_str).collect();
            if let Err(part) = find_in_order(&words(body), &quoted) {
                panic!(
                    "{}: not in the spec's section {section:?} (or not in the order quoted): {part:?}",
                    case.display()
                );
            }
        }
    }
}

/// The lines `first` to `last` (from 1) of a record a practice line names:
/// a file of `../shared/data/` (`data/PATH`), or of one of the author's
/// public repositories at a commit (`cescacs/REPO@COMMIT/PATH`), read with
/// git from `AUTHOR_CHECKOUTS/REPO` when that is set (`None` when not).
fn record_lines(record: &str, first: usize, last: usize) -> Option<String> {
    assert!(
        !record.split('/').any(|p| p == ".." || p.is_empty()),
        "{record}: a record is a relative path"
    );
    let text = if record.starts_with("data/") {
        read_shared(record)
    } else if let Some(rest) = record.strip_prefix("cescacs/") {
        let (repo, path) = rest
            .split_once('/')
            .unwrap_or_else(|| panic!("{record}: cescacs/REPO@COMMIT/PATH"));
        let (repo, commit) = repo
            .split_once('@')
            .unwrap_or_else(|| panic!("{record}: cescacs/REPO@COMMIT/PATH"));
        let checkout = PathBuf::from(std::env::var_os("AUTHOR_CHECKOUTS")?).join(repo);
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(&checkout)
            .arg("show")
            .arg(format!("{commit}:{path}"))
            .output()
            .unwrap_or_else(|e| panic!("git: {e}"));
        assert!(
            out.status.success(),
            "{record}: git -C {} show {commit}:{path}: {}",
            checkout.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap_or_else(|e| panic!("{record}: {e}"))
    } else {
        panic!("{record}: a record is data/PATH (../shared/data/PATH) or cescacs/REPO@COMMIT/PATH")
    };
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        first <= last && last <= lines.len(),
        "{record}: no lines {first}-{last}: it has {}",
        lines.len()
    );
    Some(lines[first - 1..last].join("\n"))
}

#[test]
fn every_practice_line_is_on_the_lines_of_the_record_it_names() {
    let mut unchecked = 0;
    for case in cases() {
        for ground in expected(&case).grounds {
            let Ground::Practice {
                record,
                first,
                last,
                text,
            } = ground
            else {
                continue;
            };
            let Some(lines) = record_lines(&record, first, last) else {
                unchecked += 1;
                continue;
            };
            let quoted = parts(&text);
            assert!(!quoted.is_empty(), "{}: an empty practice", case.display());
            if let Err(part) = find_in_order(&lines, &quoted) {
                panic!(
                    "{}: not on lines {first}-{last} of {record} (or not in the order quoted): {part:?}",
                    case.display()
                );
            }
        }
    }
    if unchecked > 0 {
        eprintln!(
            "{unchecked} practice lines name the author's repositories, not checked: \
             set AUTHOR_CHECKOUTS to a folder holding clones of them \
             (cescacs.typescript, cescacs.github.io) to check them too"
        );
    }
}

#[test]
fn the_readme_lists_every_case_with_its_rule_and_answer() {
    let readme = std::fs::read_to_string(root().join("conformance/README.md")).unwrap();
    let rows: Vec<&str> = readme.lines().filter(|l| l.starts_with("| `")).collect();
    let cases = cases();
    assert_eq!(rows.len(), cases.len(), "README: one row a case");
    for (row, case) in rows.iter().zip(&cases) {
        let name = case.file_name().unwrap().to_str().unwrap();
        let e = expected(case);
        let verdict = e.answer.lines().next().unwrap();
        let half_moves = e
            .answer
            .lines()
            .nth(1)
            .unwrap()
            .trim_start_matches("half-moves: ");
        let want = format!("| `{name}` | {} | {verdict}, {half_moves} |", e.rule);
        assert_eq!(*row, want, "README's row for {name}");
    }
}
