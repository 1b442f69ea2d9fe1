//! Corpus work, as passes of the chain: duplicates found (`--dedup`,
//! `--duplicates`), games selected (`--tag`, `--plies`, `--reaches`),
//! `--stop-after`; each alone and combined, on one thread and on two in
//! small chunks, with ndjson, `--split-variations` and `--keep-*`.
//!
//! The acceptance data: the notation author's archive
//! (`corpus/real-world/`, and the seven game files of
//! `../shared/data/real-games/`, copied in `corpus/real-*.ctl-pgn`).

mod support;

use ctlpgn_filter::{
    cut_at_games, run_parallel_into, Diagnostic, Filter, FilterBuilder, Format, Ledger, Origin,
    Pdtl, Report, Sinks, TagPattern,
};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

use support::cmd;

// ───────────────────────────── the author's archive ─────────────────────────────

/// The 74 records of `corpus/real-world/` (in the order the command walks
/// the folder) and the seven game files, as in `../shared/data/real-games/`.
fn archive() -> Vec<PathBuf> {
    let dir = root().join("corpus/real-world");
    let mut files = Vec::new();
    for sub in ["html", "html-history"] {
        let mut these: Vec<PathBuf> = std::fs::read_dir(dir.join(sub))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        these.sort();
        files.extend(these);
    }
    for game in [
        "2020-07-20",
        "2022-08-14.1",
        "2022-08-14.2",
        "2023-09-08",
        "2023-09-11",
        "2023-09-17",
        "2023-09-18",
    ] {
        let ours = root().join(format!("corpus/real-{game}.ctl-pgn"));
        let shared = root().join(format!("../shared/data/real-games/{game}.ctl-pgn"));
        if let Ok(theirs) = std::fs::read(&shared) {
            assert_eq!(
                std::fs::read(&ours).unwrap(),
                theirs,
                "{}",
                shared.display()
            );
        }
        files.push(ours);
    }
    assert_eq!(files.len(), 81);
    files
}

/// Each game of `input`, its bytes as read (the reader's cut at every game).
fn games_of(input: &[u8]) -> Vec<Vec<u8>> {
    let mut cut = Vec::new();
    cut_at_games(FilterBuilder::new(), input, &mut cut, 1).unwrap();
    if cut.is_empty() {
        return Vec::new();
    }
    cut.split(|&b| b == 0).map(<[u8]>::to_vec).collect()
}

/// What `--dedup` compares, worked out apart from the filter's own key:
/// the start and the main line of the game's ndjson, check marks cut off.
fn moves_key(game: &[u8]) -> (String, Vec<(String, String)>) {
    let mut f = FilterBuilder::new().format(Format::Ndjson).build();
    let (out, _, report) = f.filter_bytes(game);
    assert_eq!(report.games_written, 1);
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let moves = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let text = m["move"].as_str().unwrap();
            let bare = ["+∞", "+^", "++", "+", "#"]
                .iter()
                .find_map(|mark| text.strip_suffix(mark))
                .unwrap_or(text);
            (m["side"].as_str().unwrap().to_string(), bare.to_string())
        })
        .collect();
    (v["start"].to_string(), moves)
}

/// The archive's games grouped by hand, once: the first copy of each
/// distinct game, and how many copies it has (itself included). Every
/// group was read through: the same game in English, Catalan and
/// Spanish, on the notation and glossary pages, in the site's history,
/// with `+` in one copy and `+∞` in another, with and without its
/// variations (`-V` boxes), and as one of the seven game files.
const GROUPS: [(&str, usize); 11] = [
    // The first example, 2021-06-04 (incoherent at its third move).
    ("html/ca-glossary-01-box-date-2021-06-04.ctl-pgn", 11),
    // Cescacs-A0001-24 = A0001-44: the 2020-07-20 and 2022-08-14.2 game
    // files hold the same moves under two Ids (other tags differ).
    ("html/ca-glossary-02-box-Cescacs-A0001-24.ctl-pgn", 14),
    ("html/ca-glossary-03-box-Cescacs-A0001-91.ctl-pgn", 8),
    // The Fool's mate, X01, with and without variations, and O01-X.
    (
        "html/ca-glossary-04-Cescacs-X01-ca-Cescacs-X01-ca.ctl-pgn",
        25,
    ),
    // The continuation snippet `1? …, RC25-D26`.
    ("html/ca-notation-01-snippet-noid.ctl-pgn", 3),
    // The twenty moves before the 2020-07-20 position...
    ("html/ca-notation-07-nested-prev-noid.ctl-pgn", 6),
    // ... and the game resumed from it (its DPTL).
    ("html/ca-notation-08-box-dptl-Cescacs-A0001-24.ctl-pgn", 7),
    ("html/ca-notation-09-box-Cescacs-A0001-43.ctl-pgn", 6),
    ("real-2023-09-11.ctl-pgn", 1),
    ("real-2023-09-17.ctl-pgn", 1),
    ("real-2023-09-18.ctl-pgn", 1),
];

/// Every game of the archive, in order: its file and its bytes.
fn archive_games() -> Vec<(PathBuf, Vec<u8>)> {
    archive()
        .into_iter()
        .flat_map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            games_of(&bytes).into_iter().map(move |g| (p.clone(), g))
        })
        .collect()
}

fn short(path: &Path) -> String {
    let s = path.display().to_string();
    let base = root().join("corpus").display().to_string();
    let s = s.strip_prefix(&base).unwrap_or(&s).trim_start_matches('/');
    s.strip_prefix("real-world/").unwrap_or(s).to_string()
}

#[test]
fn the_archive_holds_83_games_of_which_11_are_distinct_by_moves() {
    let games = archive_games();
    assert_eq!(games.len(), 83);
    let mut groups: Vec<(_, String, usize)> = Vec::new();
    for (path, game) in &games {
        let key = moves_key(game);
        match groups.iter_mut().find(|(k, _, _)| *k == key) {
            Some(g) => g.2 += 1,
            None => groups.push((key, short(path), 1)),
        }
    }
    let found: Vec<(&str, usize)> = groups.iter().map(|(_, f, n)| (f.as_str(), *n)).collect();
    assert_eq!(found, GROUPS);
    assert_eq!(GROUPS.iter().map(|g| g.1).sum::<usize>(), 83);
}

/// The command's run over the archive: output, duplicates file, stderr.
fn dedup_archive(extra: &[&str]) -> (String, Vec<u8>, String) {
    let dir = tempfile::tempdir().unwrap();
    let (out, dups) = (dir.path().join("out"), dir.path().join("dups"));
    let o = cmd()
        .args(["--dedup", "--duplicates"])
        .arg(&dups)
        .arg("-o")
        .arg(&out)
        .args(extra)
        .args(archive())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0));
    (
        std::fs::read_to_string(&out).unwrap(),
        std::fs::read(&dups).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

#[test]
fn dedup_writes_the_11_distinct_games_and_the_duplicates_hold_the_other_72_as_read() {
    let (out, dups, err) = dedup_archive(&[]);
    assert!(
        err.ends_with(
            "ctlpgn-filter: 83 games read, 11 written, 0 rejected, 72 duplicates, 10 warnings\n"
        ),
        "{err}"
    );
    assert_eq!(
        err.matches(": note: a duplicate of the game at ").count(),
        72
    );
    // The first copies, filtered, are the output; the others, as read,
    // the duplicates.
    let (mut firsts, mut others, mut seen) = (Vec::new(), Vec::new(), Vec::new());
    for (_, game) in archive_games() {
        let key = moves_key(&game);
        if seen.contains(&key) {
            others.extend_from_slice(&game);
        } else {
            seen.push(key);
            firsts.push(game);
        }
    }
    assert_eq!(firsts.len(), 11);
    assert_eq!(dups, others);
    let expected: Vec<u8> = firsts
        .iter()
        .flat_map(|g| Filter::default().filter_bytes(g).0)
        .collect();
    assert_eq!(out, String::from_utf8(expected).unwrap());
    // A note names the first copy: the 2022-08-14.2 game file holds the
    // moves of Cescacs-A0001-24, first published in the Catalan glossary.
    let note = err
        .lines()
        .find(|l| l.contains("real-2022-08-14.2.ctl-pgn:1:1: note: "))
        .unwrap();
    assert!(
        note.ends_with(
            "corpus/real-world/html/ca-glossary-02-box-Cescacs-A0001-24.ctl-pgn:1 \
             (the same start and moves): left out"
        ),
        "{note}"
    );
}

#[test]
fn dedup_on_the_archive_is_the_same_on_two_threads_in_small_chunks_and_walking_folders() {
    let one = dedup_archive(&[]);
    for chunk in ["1", "64", "700"] {
        let two = dedup_archive(&["--jobs", "2", "--chunk-bytes", chunk]);
        assert_eq!(two, one, "chunks of {chunk}");
    }
    // The folders, walked: the same games, counted the same.
    let shared = root().join("../shared/data/real-games");
    let games: Vec<PathBuf> = if shared.is_dir() {
        vec![shared]
    } else {
        archive()[74..].to_vec()
    };
    let o = cmd()
        .arg("--dedup")
        .arg(root().join("corpus/real-world"))
        .args(games)
        .output()
        .unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    let summary = err.lines().last().unwrap();
    assert_eq!(
        summary,
        "ctlpgn-filter: 83 games read, 11 written, 0 rejected, 72 duplicates, 10 warnings"
    );
}

#[test]
fn with_the_result_compared_the_archive_still_has_11_games_and_with_verify_9() {
    // The copies of each game end alike: the same output and duplicates
    // as without the result, each note saying the result was compared.
    let (out, dups, err) = dedup_archive(&["--dedup-result"]);
    let (plain_out, plain_dups, _) = dedup_archive(&[]);
    assert!(out == plain_out && dups == plain_dups);
    assert!(
        err.contains("11 written, 0 rejected, 72 duplicates"),
        "{err}"
    );
    assert_eq!(
        err.matches(" (the same start, moves and result): left out")
            .count(),
        72
    );
    // The incoherent first example (11 copies) and snippet (3) are
    // rejected, not duplicates: rejection comes first.
    let o = cmd()
        .args(["--dedup", "--verify", "-q"])
        .args(archive())
        .output()
        .unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.ends_with("83 games read, 9 written, 14 rejected, 60 duplicates, 9 warnings\n"),
        "{err}"
    );
}

/// The command's run with `option` on `input`: output, duplicates, stderr.
fn dedup_run(option: &str, input: &str) -> (String, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let (out, dups) = (dir.path().join("out"), dir.path().join("dups"));
    let o = cmd()
        .arg(option)
        .arg("--duplicates")
        .arg(&dups)
        .arg("-o")
        .arg(&out)
        .write_stdin(input)
        .output()
        .unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(o.status.code(), Some(0), "{option}: {err}");
    (
        std::fs::read_to_string(&out).unwrap(),
        std::fs::read_to_string(&dups).unwrap(),
        err,
    )
}

#[test]
fn dedup_result_writes_a_copy_that_ends_with_another_result_and_dedup_does_not() {
    let game = |result: &str| format!("[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n{result}\n");
    let (won, drawn) = (game("3-0"), game("1-1"));
    let input = [won.as_str(), &drawn, &drawn].concat();
    let filtered =
        |g: &str| String::from_utf8(Filter::default().filter_bytes(g.as_bytes()).0).unwrap();

    let (out, dups, err) = dedup_run("--dedup", &input);
    assert_eq!(out, filtered(&won));
    assert_eq!(dups, drawn.repeat(2));
    assert!(
        err.ends_with(": 3 games read, 1 written, 0 rejected, 2 duplicates, 0 warnings\n"),
        "{err}"
    );
    assert_eq!(
        err.matches("a duplicate of the game at <stdin>:1 (the same start and moves)")
            .count(),
        2,
        "{err}"
    );

    let (out, dups, err) = dedup_run("--dedup-result", &input);
    assert_eq!(out, filtered(&won) + &filtered(&drawn));
    assert_eq!(dups, drawn);
    assert!(
        err.ends_with(": 3 games read, 2 written, 0 rejected, 1 duplicate, 0 warnings\n"),
        "{err}"
    );
    assert!(
        err.starts_with(
            "<stdin>:7:1: note: a duplicate of the game at <stdin>:4 \
             (the same start, moves and result): left out"
        ),
        "{err}"
    );
}

// ───────────────────────────── the options, alone and combined ─────────────────────────────

/// Every corpus file and the broken ones, end to end, twice: the second
/// time with another layout, marks and comments, so that every game has
/// a copy that is the same game, and some copies differ in result.
fn mixed_input() -> Vec<u8> {
    let mut input = Vec::new();
    for f in &support::corpus_files() {
        let bytes = std::fs::read(f).unwrap();
        if bytes.contains(&0) {
            continue; // binary: cut refuses it
        }
        input.extend_from_slice(&bytes);
        input.push(b'\n');
    }
    let again = String::from_utf8_lossy(&input)
        .replace("+∞", "+")
        .replace(" ?!", "")
        .replace(", ", " , ")
        .replace("3-0\n", "*\n");
    input.extend_from_slice(again.as_bytes());
    input
}

/// After `1. E7-E13`: Black to move.
const AFTER_E13: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/\
    13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E13@9-11 0 1";

type Config = fn(FilterBuilder) -> FilterBuilder;

/// Each option alone, and combined.
fn configs() -> Vec<(&'static str, Config)> {
    vec![
        ("dedup", |b| b.dedup(true)),
        ("dedup-result", |b| b.dedup(true).dedup_result(true)),
        ("tag", |b| {
            b.select_tag(TagPattern::parse("Id=Cescacs-*").unwrap())
        }),
        ("two tags", |b| {
            b.select_tag(TagPattern::parse("Variant=C'escacs").unwrap())
                .select_tag(TagPattern::parse("Lang={en,ca}").unwrap())
        }),
        ("plies", |b| b.plies(3..=40)),
        ("reaches", |b| b.reaches(&Pdtl::parse(AFTER_E13).unwrap())),
        ("stop-after", |b| b.stop_after(Some(25))),
        ("stop-after 1", |b| b.stop_after(Some(1))),
        ("dedup, stop-after", |b| b.dedup(true).stop_after(Some(40))),
        ("all", |b| {
            b.dedup(true)
                .select_tag(TagPattern::parse("Variant=*").unwrap())
                .plies(1..=200)
                .reaches(&Pdtl::parse(AFTER_E13).unwrap())
                .stop_after(Some(12))
        }),
    ]
}

/// How the games are written: the default, and the other outputs.
fn outputs() -> Vec<(&'static str, Config)> {
    vec![
        ("default", |b| b),
        ("ndjson", |b| b.format(Format::Ndjson)),
        ("split", |b| b.split_variations(true)),
        ("keep all", |b| {
            b.keep_comments(true)
                .keep_variations(true)
                .keep_ratings(true)
        }),
        ("verify", |b| b.verify(ctlpgn_filter::Verify::new())),
    ]
}

/// What a run made: output, rejects, duplicates, diagnostics, counts.
#[derive(Debug, PartialEq)]
struct Run {
    out: Vec<u8>,
    rejects: Vec<u8>,
    duplicates: Vec<u8>,
    diagnostics: Vec<Diagnostic>,
    report: Report,
}

fn run_one(filter: &mut Filter, input: &[u8]) -> Run {
    let (mut out, mut rejects, mut duplicates, mut diagnostics) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let sinks = Sinks {
        out: &mut out,
        rejects: Some(&mut rejects),
        duplicates: Some(&mut duplicates),
        on_diagnostic: &mut |d| diagnostics.push(d.clone()),
    };
    let report = filter.run_into(Origin::START, input, sinks).unwrap();
    Run {
        out,
        rejects,
        duplicates,
        diagnostics,
        report,
    }
}

fn run_two(make: &(dyn Fn() -> Filter + Sync), input: &[u8], chunk: usize) -> Run {
    let (mut out, mut rejects, mut duplicates, mut diagnostics) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let sinks = Sinks {
        out: &mut out,
        rejects: Some(&mut rejects),
        duplicates: Some(&mut duplicates),
        on_diagnostic: &mut |d| diagnostics.push(d.clone()),
    };
    let report = run_parallel_into(make, input, 2, chunk, sinks).unwrap();
    Run {
        out,
        rejects,
        duplicates,
        diagnostics,
        report,
    }
}

fn nothing_lost(r: &Report) {
    assert_eq!(
        r.games_read,
        r.games_written + r.games_rejected + r.left_out.total(),
        "{r:?}"
    );
}

#[test]
fn each_option_alone_and_combined_on_two_threads_in_small_chunks_is_one_thread() {
    let input = mixed_input();
    for (name, config) in configs() {
        for (output, how) in outputs() {
            let build = move || how(config(FilterBuilder::new())).build();
            let one = run_one(&mut build(), &input);
            nothing_lost(&one.report);
            assert!(one.report.games_written > 0, "{name}, {output}");
            for chunk in [1, 97, 4096] {
                let two = run_two(&build, &input, chunk);
                assert!(
                    two == one,
                    "{name}, {output}, chunks of {chunk}: {:?} vs {:?}",
                    two.report,
                    one.report
                );
            }
        }
    }
}

#[test]
fn each_option_leaves_games_out_and_says_why() {
    let input = mixed_input();
    let plain = run_one(&mut Filter::default(), &input).report;
    for (name, config) in configs() {
        let r = run_one(&mut config(FilterBuilder::new()).build(), &input).report;
        let l = r.left_out;
        let stops = name.contains("stop") || name == "all";
        if stops {
            // Reading stopped: fewer games read.
            assert!(r.games_read < plain.games_read, "{name}: {r:?}");
            continue;
        }
        assert_eq!(r.games_read, plain.games_read, "{name}");
        assert_eq!(r.games_rejected, plain.games_rejected, "{name}");
        let why = match name {
            "dedup" | "dedup-result" => l.duplicates,
            "tag" | "two tags" => l.tag,
            "plies" => l.plies,
            _ => l.position,
        };
        assert!(why > 0 && why == l.total(), "{name}: {r:?}");
    }
}

#[test]
fn the_result_makes_copies_distinct_only_when_asked() {
    let game = |result: &str| format!("[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n{result}\n");
    let input = [game("3-0"), game("1-1"), game("1-1")].concat();
    let (_, _, r) = FilterBuilder::new()
        .dedup(true)
        .build()
        .filter_bytes(input.as_bytes());
    assert_eq!((r.games_written, r.left_out.duplicates), (1, 2));
    let (_, _, r) = FilterBuilder::new()
        .dedup(true)
        .dedup_result(true)
        .build()
        .filter_bytes(input.as_bytes());
    assert_eq!((r.games_written, r.left_out.duplicates), (2, 1));
}

#[test]
fn a_rejected_game_is_no_first_copy_and_no_duplicate() {
    let good = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
    let bad = "[Variant \"C'escacs\"]\n[Result \"x\"]\n1. E7-E13:\n*\n{ never closed";
    let input = format!("{bad}\n{good}{good}");
    let mut f = FilterBuilder::new().dedup(true).build();
    let r = run_one(&mut f, input.as_bytes());
    assert_eq!(
        (
            r.report.games_rejected,
            r.report.games_written,
            r.report.left_out.duplicates
        ),
        (1, 1, 1)
    );
    assert_eq!(r.duplicates, good.as_bytes());
}

#[test]
fn a_duplicate_s_warnings_are_not_shown_its_note_is() {
    let first = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
    let copy = "1. E7-E13\n"; // no Variant tag, no end marker: two warnings
    let mut f = FilterBuilder::new().dedup(true).build();
    let r = run_one(&mut f, format!("{first}{copy}").as_bytes());
    assert_eq!(r.diagnostics.len(), 1);
    let d = &r.diagnostics[0];
    assert_eq!(d.severity, ctlpgn_filter::Severity::Note);
    assert_eq!(d.kind, ctlpgn_filter::DiagnosticKind::Duplicate);
    assert_eq!((d.line, d.column), (4, 1));
    assert_eq!(r.report.warnings, 0);
    assert_eq!(r.duplicates, copy.as_bytes());
}

#[test]
fn the_dedup_key_is_the_start_and_the_moves() {
    let input = "[Variant \"C'escacs\"]\n[Id \"a\"]\n1. DB10-D10+ ?!, E21-E15 { c }\n2. F8-F12:\n3-0\n\
        [Variant \"C'escacs\"]\n[Id \"b\"]\n7. DB10-D10+∞ (7. F8-F12), E21-E15 $3 8. F8-F12 (=):\n1-1\n\
        [Variant \"C'escacs\"]\n[PDTL \"/27:dk/1:DK/0:V/ w - - 0 1\"]\n1. DB10-D10, E21-E15 2. F8-F12:\n*\n\
        [Variant \"C'escacs\"]\n1. DB10-D10, E21-E15 2. G7-G13:\n*\n";
    let (out, _, r) = FilterBuilder::new()
        .dedup(true)
        .build()
        .filter_bytes(input.as_bytes());
    assert_eq!((r.games_written, r.left_out.duplicates), (3, 1));
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("[Id \"a\"]") && !out.contains("[Id \"b\"]"),
        "{out}"
    );
}

#[test]
fn dedup_remembers_the_games_of_earlier_inputs_and_a_shared_ledger_across_filters() {
    let game = b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
    let mut f = FilterBuilder::new().dedup(true).build();
    f.set_file_name("a.ctl-pgn");
    assert_eq!(f.filter_bytes(game).2.games_written, 1);
    f.set_file_name("b.ctl-pgn");
    let (_, d, r) = f.filter_bytes(game);
    assert_eq!(r.left_out.duplicates, 1);
    assert!(d[0].message.contains("a.ctl-pgn:1"), "{}", d[0].message);
    // Two filters with one ledger answer as one.
    let ledger = Ledger::new();
    let build = || {
        FilterBuilder::new()
            .dedup(true)
            .ledger(ledger.clone())
            .build()
    };
    build().filter_bytes(game);
    assert_eq!(build().filter_bytes(game).2.left_out.duplicates, 1);
    assert_eq!((ledger.written(), ledger.distinct()), (1, 1));
}

#[test]
fn tag_patterns_must_all_hold_and_a_missing_tag_does_not() {
    let game = |tags: &str| format!("[Variant \"C'escacs\"]\n{tags}1. E7-E13:\n*\n");
    let input = [
        game("[Event \"Open A\"]\n[White \"Sasal, Cesc\"]\n"),
        game("[Event \"Open B\"]\n[White \"Ros, Xus\"]\n"),
        game("[White \"Sasal, Cesc\"]\n"),
        game("[Event \"Closed\"]\n[White \"Sasal, Cesc\"]\n"),
    ]
    .concat();
    let select = |patterns: &[&str]| {
        let mut b = FilterBuilder::new();
        for p in patterns {
            b = b.select_tag(TagPattern::parse(p).unwrap());
        }
        let (_, _, r) = b.build().filter_bytes(input.as_bytes());
        (r.games_written, r.left_out.tag)
    };
    assert_eq!(select(&["Event=Open*"]), (2, 2));
    assert_eq!(select(&["Event=Open*", "White=Sasal*"]), (1, 3));
    assert_eq!(select(&["White=*"]), (4, 0));
    assert_eq!(select(&["Round=*"]), (0, 4));
    assert_eq!(select(&["Event=open*"]), (0, 4)); // case counts
}

#[test]
fn reaches_compares_the_start_and_each_position_after_a_half_move() {
    let target = Pdtl::parse(AFTER_E13).unwrap();
    let reached = |game: &str| {
        let mut f = FilterBuilder::new().reaches(&target).build();
        f.filter_bytes(game.as_bytes()).2.games_written == 1
    };
    assert!(reached("1. E7-E13, E21-E15 2. F8-F12:\n"));
    assert!(reached("1. E7-E13:\n"));
    assert!(!reached("1. F8-F12, E21-E15 2. E7-E13:\n")); // Black's pawn moved too
    assert!(!reached("1. E7-E12, E21-E15:\n"));
    // The start: a game whose PDTL is the position.
    assert!(reached(&format!(
        "[PDTL \"{AFTER_E13}\"]\n1. ..., E21-E15:\n"
    )));
    // Side to move counts: the same board with White to move is not it.
    let white = AFTER_E13.replace(" b ", " w ");
    assert!(!reached(&format!("[PDTL \"{white}\"]\n1. F8-F12:\n")));
    // A half-move that does not fit ends the replay: not reached after.
    assert!(!reached("1. E7-E12, E21-E15 2. E12-E13:\n"));
}

#[test]
fn plies_count_the_main_line_only() {
    let game = "1. E7-E13 (1. F8-F12, F20-F16 2. G7-G13), E21-E15:\n";
    for keep in [false, true] {
        let build = |r| FilterBuilder::new().keep_variations(keep).plies(r).build();
        assert_eq!(
            build(2..=2).filter_bytes(game.as_bytes()).2.games_written,
            1
        );
        assert_eq!(
            build(3..=9).filter_bytes(game.as_bytes()).2.left_out.plies,
            1
        );
    }
}

/// A reader that counts the bytes read from it.
struct Counting<'a>(&'a [u8], &'a std::cell::Cell<usize>);

impl std::io::Read for Counting<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.len().min(buf.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        self.1.set(self.1.get() + n);
        Ok(n)
    }
}

#[test]
fn stop_after_stops_reading_a_cheap_head_for_games() {
    let game = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15 2. F8-F12:\n*\n";
    let input = game.repeat(200_000); // 10 MB
    let read = std::cell::Cell::new(0);
    let mut f = FilterBuilder::new().stop_after(Some(3)).build();
    let (mut out, mut diags) = (Vec::new(), Vec::new());
    let r = f
        .run(Counting(input.as_bytes(), &read), &mut out, &mut |d| {
            diags.push(d.clone())
        })
        .unwrap();
    assert_eq!((r.games_read, r.games_written), (3, 3));
    assert_eq!(
        out,
        Filter::default().filter_bytes(game.repeat(3).as_bytes()).0
    );
    assert!(read.get() <= 1 << 20, "{} bytes read", read.get());
    // Once the count is written, nothing more is read.
    let r = f.run(Counting(input.as_bytes(), &read), &mut out, &mut |_| {});
    assert_eq!(r.unwrap(), Report::default());
    // On two threads, as far as the chunks in flight.
    read.set(0);
    let make = || FilterBuilder::new().stop_after(Some(3)).build();
    let sinks = Sinks {
        out: &mut Vec::new(),
        rejects: None,
        duplicates: None,
        on_diagnostic: &mut |_| {},
    };
    let r = run_parallel_into(&make, Counting(input.as_bytes(), &read), 2, 64 << 10, sinks);
    assert_eq!(r.unwrap().games_written, 3);
    assert!(read.get() <= 2 << 20, "{} bytes read", read.get());
}

// ───────────────────────────── --cut ─────────────────────────────

#[test]
fn cut_leaves_out_what_the_filter_leaves_out_and_the_pieces_filtered_apart_are_the_whole() {
    let input = mixed_input();
    for (name, config) in configs() {
        let whole = run_one(&mut config(FilterBuilder::new()).build(), &input);
        for size in [1, 5000] {
            let mut cut = Vec::new();
            let cuts =
                cut_at_games(config(FilterBuilder::new()), &input[..], &mut cut, size).unwrap();
            let mut left_out = cuts.left_out;
            left_out.add(&cuts.kept);
            assert_eq!(left_out, whole.report.left_out, "{name}");
            let pieces: Vec<&[u8]> = cut.split(|&b| b == 0).collect();
            assert_eq!(cuts.pieces as usize, pieces.len());
            // Filtered apart, with the options or without (then the games
            // the cut kept are written).
            for (again, kept) in [
                (config, cuts.kept.duplicates),
                ((|b| b) as Config, cuts.kept.total()),
            ] {
                let (mut out, mut rejects, mut read) = (Vec::new(), Vec::new(), 0);
                for p in &pieces {
                    let r = run_one(&mut again(FilterBuilder::new()).build(), p);
                    out.extend(r.out);
                    rejects.extend(r.rejects);
                    read += r.report.games_read;
                }
                if kept == 0 {
                    assert!(out == whole.out, "{name}: cut at {size}");
                } else {
                    // The options leave them out of that output.
                    let again = run_one(&mut config(FilterBuilder::new()).build(), &out);
                    assert!(again.out == whole.out, "{name}: cut at {size}, again");
                }
                assert!(rejects == whole.rejects, "{name}: cut at {size}");
                assert_eq!(
                    read + cuts.left_out.total(),
                    whole.report.games_read,
                    "{name}"
                );
            }
        }
    }
}

#[test]
fn cut_keeps_a_duplicate_whose_removal_would_join_the_games_beside_it() {
    let first = "[Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
    // No result: a game that begins with a move, right after it, would be
    // read as its moves.
    let open = "[Variant \"C'escacs\"]\n[Event \"a\"]\n1. E7-E13, E21-E15\n";
    let tagless = "1. E7-E13:\n*\n";
    let input = format!("{first}{open}{first}{tagless}");
    let dedup = || FilterBuilder::new().dedup(true);
    let whole = run_one(&mut dedup().build(), input.as_bytes());
    let r = whole.report;
    assert_eq!((r.games_written, r.left_out.duplicates), (3, 1));
    let mut cut = Vec::new();
    let cuts = cut_at_games(dedup(), input.as_bytes(), &mut cut, 1).unwrap();
    assert_eq!((cuts.left_out.duplicates, cuts.kept.duplicates), (0, 1));
    let pieces: Vec<&[u8]> = cut.split(|&b| b == 0).collect();
    assert_eq!(pieces.concat(), input.as_bytes());
    // The pieces write it; --dedup over their output leaves it out again.
    let mut out = Vec::new();
    for p in pieces {
        out.extend(run_one(&mut dedup().build(), p).out);
    }
    assert_ne!(out, whole.out);
    assert_eq!(run_one(&mut dedup().build(), &out).out, whole.out);
}

// ───────────────────────────── the command line ─────────────────────────────

const GAME: &str = "[Variant \"C'escacs\"]\n[Event \"Open\"]\n1. E7-E13, E21-E15 2. F8-F12:\n*\n";
const COPY: &str =
    "[Variant \"C'escacs\"]\n[Event \"Club\"]\n1. E7-E13 ?!, E21-E15 2. F8-F12 :\n*\n";
const OTHER: &str = "[Variant \"C'escacs\"]\n[Event \"Club\"]\n1. F8-F12:\n*\n";

fn input3() -> String {
    format!("{GAME}{COPY}{OTHER}")
}

#[test]
fn the_summary_says_what_was_left_out_and_the_status_stays_0() {
    let (ok, out, err) = support::run(&["--dedup"], &input3());
    assert!(ok, "{err}");
    assert_eq!(out.matches("[Variant").count(), 2);
    assert_eq!(
        err,
        "<stdin>:5:1: note: a duplicate of the game at <stdin>:1 (the same start and moves): left out\n\
         ctlpgn-filter: 3 games read, 2 written, 0 rejected, 1 duplicate, 0 warnings\n"
    );
    // -q: no note, no summary.
    let (ok, _, err) = support::run(&["--dedup", "-q"], &input3());
    assert!(ok && err.is_empty(), "{err}");
    let (_, _, err) = support::run(&["--tag", "Event=Club", "--plies", "3.."], &input3());
    assert_eq!(
        err,
        "ctlpgn-filter: 3 games read, 1 written, 0 rejected, 1 not matching --tag, 1 outside --plies, 0 warnings\n"
    );
    let (_, out, err) = support::run(&["--stop-after", "1"], &input3());
    assert_eq!(
        out.as_bytes(),
        Filter::default().filter_bytes(GAME.as_bytes()).0
    );
    assert_eq!(
        err,
        "ctlpgn-filter: 1 game read, 1 written, 0 rejected, stopped after 1 written (--stop-after), 0 warnings\n"
    );
}

#[test]
fn stats_count_what_was_left_out_in_text_and_json() {
    let (_, _, err) = support::run(&["--dedup", "--stats", "-q"], &input3());
    assert!(
        err.starts_with(
            "ctlpgn-filter: <stdin>: 3 games, 7 half-moves; dropped 0 comments, 0 variations, 1 rating; \
             0 rejected, 0 warnings; left out 1 duplicate\n"
        ),
        "{err}"
    );
    let (_, _, err) = support::run(
        &[
            "--dedup",
            "--stats",
            "--format",
            "ndjson",
            "--tag",
            "Event=Club",
            "--stop-after",
            "5",
        ],
        &input3(),
    );
    let lines: Vec<serde_json::Value> = err
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let total = lines.last().unwrap();
    // The Open game is not selected, so its Club copy is no duplicate:
    // only the games written count as first copies.
    assert_eq!(total["games"], 3);
    assert_eq!(total["written"], 2);
    assert_eq!(total["left_out"], 1);
    assert_eq!(total["not_matching_tag"], 1);
    assert_eq!(total["duplicates"], 0);
    assert_eq!(total["stopped_after"], false);
}

#[test]
fn the_duplicates_file_holds_the_copies_as_read() {
    let dir = tempfile::tempdir().unwrap();
    let dups = dir.path().join("dups.ctl-pgn");
    let input = format!("{GAME}{COPY}{OTHER}{COPY}");
    let o = cmd()
        .arg("--duplicates")
        .arg(&dups)
        .args(["-q", "--jobs", "2", "--chunk-bytes", "10"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(
        std::fs::read_to_string(&dups).unwrap(),
        format!("{COPY}{COPY}")
    );
    // No duplicate: an empty file, as --rejects.
    let o = cmd()
        .arg("--duplicates")
        .arg(&dups)
        .write_stdin(GAME)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(std::fs::read(&dups).unwrap(), b"");
}

#[test]
fn usage_errors_say_what_to_write() {
    for (args, says) in [
        (&["--tag", "Event"][..], "write NAME=PATTERN"),
        (&["--tag", "Event=[a"], "Event=[a"),
        (&["--plies", "9..3"], "MIN 9 is above MAX 3"),
        (&["--plies", "a..3"], "write MIN..MAX"),
        (&["--reaches", "/1:DK/ x - - 0 1"], "PDTL"),
        (&["--stop-after", "0"], "0"),
        (
            &["--stop-after", "3", "--in-place", "x.ctl-pgn"],
            "--in-place",
        ),
        (&["--cut", "1M", "--duplicates", "d"], "--duplicates"),
    ] {
        let o = cmd().args(args).write_stdin(GAME).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn the_duplicates_file_is_refused_where_another_output_goes() {
    let dir = tempfile::tempdir().unwrap();
    let same = dir.path().join("same.ctl-pgn");
    let input = dir.path().join("in.ctl-pgn");
    std::fs::write(&input, GAME).unwrap();
    for (args, says) in [
        (
            vec![
                "--rejects".into(),
                same.clone(),
                "--duplicates".into(),
                same.clone(),
            ],
            "is also where --rejects writes",
        ),
        (
            vec![
                "-o".into(),
                same.clone(),
                "--duplicates".into(),
                same.clone(),
            ],
            "is also where the output goes",
        ),
        (vec!["--duplicates".into(), input.clone()], "is the input"),
        (
            vec!["--duplicates".into(), "-".into()],
            "both go to standard output",
        ),
    ] {
        let o = cmd().args(&args).arg(&input).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn every_output_option_leaves_the_same_games_out() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.ctl-pgn"), dir.path().join("b.ctl-pgn"));
    std::fs::write(&a, format!("{GAME}{OTHER}")).unwrap();
    std::fs::write(&b, format!("{COPY}{OTHER}")).unwrap();
    // --out-dir: b's copies of a's games are left out of b.
    let mirror = dir.path().join("mirror");
    let o = cmd()
        .args(["--dedup", "-q", "--out-dir"])
        .arg(&mirror)
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(
        std::fs::read_to_string(mirror.join("b.ctl-pgn")).unwrap(),
        ""
    );
    assert_eq!(
        std::fs::read_to_string(mirror.join("a.ctl-pgn"))
            .unwrap()
            .matches("[Variant")
            .count(),
        2
    );
    // --check: counts only; it writes nothing, so the games kept are coherent.
    let o = cmd()
        .args(["--dedup", "--check"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8(o.stderr)
        .unwrap()
        .ends_with("4 games read, 2 coherent, 0 rejected, 2 duplicates, 0 warnings\n"));
    // --final-pdtl: the written games' positions only.
    let o = cmd()
        .args(["--dedup", "--check", "--final-pdtl", "-q"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(o.stderr)
            .unwrap()
            .matches("final position")
            .count(),
        2
    );
    // ndjson: one line per game written.
    let o = cmd()
        .args(["--dedup", "-q", "--format", "ndjson"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(o.stdout).unwrap().lines().count(), 2);
    // --in-place: the copies leave b.
    let o = cmd()
        .args(["--dedup", "-q", "--in-place"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(std::fs::read_to_string(&b).unwrap(), "");
    // --stop-after across inputs: b is not read.
    std::fs::write(&b, format!("{COPY}{OTHER}")).unwrap();
    let o = cmd()
        .args(["--stop-after", "2", "--stats", "-q"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(!err.contains("b.ctl-pgn"), "{err}");
    // --cut: the duplicates are not in the pieces.
    std::fs::write(&a, format!("{GAME}{OTHER}")).unwrap();
    let o = cmd()
        .args(["--dedup", "--cut", "1"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    let pieces = String::from_utf8(o.stdout).unwrap();
    assert_eq!(pieces, format!("{GAME}\0{OTHER}"));
}

#[test]
fn duplicate_notes_are_capped_as_their_own_kind() {
    // 15 copies, each also missing its end marker: their warnings are not
    // shown (a duplicate's are not), so only the notes meet the cap.
    let input = format!("{GAME}{}", COPY.replace(" :", "").repeat(15));
    let o = cmd()
        .arg("--dedup")
        .write_stdin(input.clone())
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8(o.stderr).unwrap();
    assert_eq!(err.matches(": note: a duplicate").count(), 10, "{err}");
    assert!(
        err.contains(
            "ctlpgn-filter: ... and 5 more \"duplicate\" notes in <stdin> \
             (--all-diagnostics prints them)\n"
        ),
        "{err}"
    );
    assert!(err.ends_with("16 games read, 1 written, 0 rejected, 15 duplicates, 0 warnings\n"));
    let all = cmd()
        .args(["--dedup", "--all-diagnostics"])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    let err = String::from_utf8(all.stderr).unwrap();
    assert_eq!(err.matches(": note: a duplicate").count(), 15, "{err}");
    // -q: no notes, and no summary that would only say what was left out.
    let quiet = cmd()
        .args(["--dedup", "-q"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(quiet.stderr).unwrap(), "");
}

#[test]
fn final_positions_are_those_of_the_games_written_variation_games_included() {
    // The first game and its variation game are written; its copy, and the
    // game --tag leaves out, have no final position, main line or variation.
    let game = "[Variant \"C'escacs\"]\n[Event \"Open\"]\n\
                1. E7-E13, E21-E15 (1. ..., F20-F16) 2. F8-F12:\n*\n";
    let copy = game.replace("(1. ..., F20-F16)", "(1. ..., G19-G15)");
    let other = "[Variant \"C'escacs\"]\n[Event \"Club\"]\n1. F8-F12 (1. E7-E13), F20-F16:\n*\n";
    let input = format!("{game}{copy}{other}");
    let o = cmd()
        .args(["--check", "--final-pdtl", "--split-variations", "--dedup"])
        .args(["--tag", "Event=Open"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(o.status.success());
    let err = String::from_utf8(o.stderr).unwrap();
    let finals: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("final position"))
        .map(|l| l.split(": final position").next().unwrap())
        .collect();
    assert_eq!(finals, ["<stdin>:1", "<stdin>:1"], "{err}");
    assert!(
        err.contains("<stdin>:1: final position (variation 1): "),
        "{err}"
    );
    let main = err.find("<stdin>:1: final position: ").unwrap();
    assert!(main < err.find("(variation 1)").unwrap(), "{err}");
    assert!(
        err.ends_with(
            "3 games read, 1 coherent, 0 rejected, 1 variation game written, 0 rejected, \
             1 duplicate, 1 not matching --tag, 0 warnings\n"
        ),
        "{err}"
    );
}
