//! The command line as a user meets it: files and stdin, `-o`, exit codes,
//! the diagnostic format, pipes.

use assert_cmd::Command;
use std::io::{Read, Write};
use std::process::Stdio;

const GOOD: &str = "[Variant \"C'escacs\"]\n1. E7‐E13, E21×E15:\n*\n";
const GOOD_OUT: &str = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21*E15:\n*\n\n";
const BAD: &str = "[Variant \"C'escacs\"]\n1. E13xF16:\n*\n";

fn cmd() -> Command {
    Command::cargo_bin("ctlpgn-filter").unwrap()
}

#[test]
fn stdin_to_stdout() {
    cmd().write_stdin(GOOD).assert().success().stdout(GOOD_OUT);
}

#[test]
fn dash_reads_stdin() {
    cmd()
        .arg("-")
        .write_stdin(GOOD)
        .assert()
        .success()
        .stdout(GOOD_OUT);
}

#[test]
fn files_are_read_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.ctl-pgn");
    let b = dir.path().join("b.ctl-pgn");
    std::fs::write(&a, GOOD.replace("E7‐E13", "F8-F12")).unwrap();
    std::fs::write(&b, GOOD).unwrap();
    let out = cmd().arg(&a).arg(&b).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.find("F8-F12").unwrap() < text.find("E7-E13").unwrap());
}

#[test]
fn output_file_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.ctl-pgn");
    cmd()
        .arg("-o")
        .arg(&out)
        .write_stdin(GOOD)
        .assert()
        .success()
        .stdout("");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), GOOD_OUT);
    // Nothing else is left beside it.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn a_rejected_game_exits_1_and_the_others_still_come_out() {
    let input = format!("{GOOD}\n{BAD}\n{GOOD}");
    let out = cmd().write_stdin(input).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), GOOD_OUT.repeat(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("ctlpgn-filter: 3 games read, 2 written, 1 rejected, 0 warnings"),
        "{err}"
    );
}

#[test]
fn errors_name_file_line_and_column_with_a_caret() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.ctl-pgn");
    std::fs::write(&f, BAD).unwrap();
    let out = cmd().arg(&f).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    let expected = format!(
        "{}:2:7: error: the letter x is not a capture sign in CTL-AN: write × or *\n2 | 1. E13xF16:\n  |       ^\n",
        f.display()
    );
    assert!(err.starts_with(&expected), "{err}");
}

#[test]
fn stdin_is_named_stdin_in_diagnostics() {
    let out = cmd().write_stdin(BAD).output().unwrap();
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .starts_with("<stdin>:2:7: error:"));
}

#[test]
fn a_missing_file_is_an_io_error_exit_2() {
    let out = cmd().arg("/nonexistent/games.ctl-pgn").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("/nonexistent/games.ctl-pgn"));
}

#[test]
fn an_unknown_option_is_a_usage_error_exit_2() {
    let out = cmd().arg("--no-such-option").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--help"));
}

#[test]
fn an_unknown_pass_name_is_a_usage_error() {
    let out = cmd().args(["--skip-pass", "nope"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("redefine"));
}

#[test]
fn skip_pass_ascii_keeps_unicode_separators() {
    cmd()
        .args(["--skip-pass", "ascii"])
        .write_stdin(GOOD)
        .assert()
        .success()
        .stdout("[Variant \"C'escacs\"]\n\n1. E7‐E13, E21×E15:\n*\n\n");
}

#[test]
fn keep_comments_keeps_them() {
    cmd()
        .arg("--keep-comments")
        .write_stdin("[Variant \"C'escacs\"]\n1. E7-E13:\n{ note }\n*\n")
        .assert()
        .success()
        .stdout("[Variant \"C'escacs\"]\n\n1. E7-E13:\n{ note }\n*\n\n");
}

#[test]
fn strict_rejects_a_game_with_a_warning() {
    let out = cmd()
        .arg("--strict")
        .write_stdin("1. E7-E13:\n*\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

#[test]
fn fail_fast_stops_at_the_first_rejected_game() {
    let out = cmd()
        .arg("--fail-fast")
        .write_stdin(format!("{BAD}\n{GOOD}"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
}

#[test]
fn quiet_silences_warnings() {
    cmd()
        .arg("-q")
        .write_stdin("1. E7-E13:\n*\n")
        .assert()
        .success()
        .stderr("");
}

#[test]
fn stats_prints_counts_per_file_then_the_summary() {
    cmd()
        .arg("--stats")
        .write_stdin("[Variant \"C'escacs\"]\n1. E7-E13 ?!, E21-E15 $2\n{ c }\n(1. F8-F12)\n2. F8-F12:\n*\n")
        .assert()
        .success()
        .stderr(
            "ctlpgn-filter: <stdin>: 1 games, 3 half-moves; dropped 1 comments, 1 variations, 2 ratings; 0 rejected, 0 warnings\n\
             ctlpgn-filter: 1 games read, 1 written, 0 rejected, 0 warnings\n",
        );
}

#[test]
fn a_closed_pipe_ends_quietly_with_0() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("ctlpgn-filter"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for _ in 0..20_000 {
            if stdin.write_all(GOOD.as_bytes()).is_err() {
                break;
            }
        }
    });
    let mut first = [0u8; 64];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut first)
        .unwrap();
    drop(child.stdout.take());
    let status = child.wait().unwrap();
    writer.join().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert_eq!(err, "");
}

#[test]
fn readme_quick_start_filters_the_corpus() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let mut files: Vec<_> = std::fs::read_dir(format!("{dir}/corpus"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ctl-pgn"))
        .collect();
    files.sort();
    let out = cmd().args(&files).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(!out.stdout.is_empty());
}

#[test]
fn keep_variations_and_keep_ratings_keep_them() {
    cmd()
        .args(["--keep-variations", "--keep-ratings"])
        .write_stdin(
            "[Variant \"C'escacs\"]\n1. E7-E13 ?!, E21-E15 $2\n(1. F8-F12)\n2. F8-F12:\n*\n",
        )
        .assert()
        .success()
        .stdout(
            "[Variant \"C'escacs\"]\n\n1. E7-E13 ?!, E21-E15 $2\n(1. F8-F12)\n2. F8-F12:\n*\n\n",
        );
}

#[test]
fn jobs_must_be_a_number() {
    let out = cmd().args(["--jobs", "many"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--jobs"));
}

/// A game is named by one line everywhere: its first, a comment before its
/// tags included (ndjson's `line`, `--final-pdtl`, the warnings about it).
#[test]
fn a_game_is_named_by_its_first_line_everywhere() {
    let input = "\n{ the opening game }\n[Event \"CG\"]\n1. E7-E13:\n*\n";
    let ndjson = cmd()
        .args(["--format", "ndjson"])
        .write_stdin(input)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&ndjson.stdout).unwrap();
    assert_eq!(json["line"], 2);
    let warning = String::from_utf8(ndjson.stderr).unwrap();
    assert!(
        warning.starts_with("<stdin>:2:1: warning: no [Variant"),
        "{warning}"
    );
    let check = cmd()
        .args(["--check", "--final-pdtl"])
        .write_stdin(input)
        .output()
        .unwrap();
    let stderr = String::from_utf8(check.stderr).unwrap();
    assert!(stderr.contains("<stdin>:2: final position: "), "{stderr}");
}
