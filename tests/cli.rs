//! The command line as a user meets it: files and stdin, `-o`, exit codes,
//! the diagnostic format, pipes.

use std::io::{Read, Write};
use std::process::Stdio;

const GOOD: &str = "[Variant \"C'escacs\"]\n1. E7‐E13, E21×E15:\n*\n";
const GOOD_OUT: &str = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21*E15:\n*\n\n";
const BAD: &str = "[Variant \"C'escacs\"]\n1. E13xF16:\n*\n";

mod support;

use support::{binary, cmd};

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
fn quiet_still_counts_the_warnings_in_the_stats() {
    cmd()
        .args(["-q", "--stats"])
        .write_stdin("1. E7-E13:\n*\n")
        .assert()
        .success()
        .stderr(
            "ctlpgn-filter: <stdin>: 1 game, 1 half-move; dropped 0 comments, 0 variations, 0 ratings; 0 rejected, 1 warning\n\
             ctlpgn-filter: 1 game read, 1 written, 0 rejected, 1 warning\n",
        );
}

#[test]
fn quiet_with_strict_still_says_why_a_game_is_rejected() {
    let out = cmd()
        .args(["-q", "--strict"])
        .write_stdin("1. E7-E13:\n*\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("tag: rejected by --strict"), "{err}");
}

#[test]
fn stats_prints_counts_per_file_then_the_summary() {
    cmd()
        .arg("--stats")
        .write_stdin("[Variant \"C'escacs\"]\n1. E7-E13 ?!, E21-E15 $2\n{ c }\n(1. F8-F12)\n2. F8-F12:\n*\n")
        .assert()
        .success()
        .stderr(
            "ctlpgn-filter: <stdin>: 1 game, 3 half-moves; dropped 1 comment, 1 variation, 2 ratings; 0 rejected, 0 warnings\n\
             ctlpgn-filter: 1 game read, 1 written, 0 rejected, 0 warnings\n",
        );
}

#[test]
fn a_closed_pipe_ends_quietly_with_0() {
    let mut child = binary()
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

#[test]
fn counts_are_english() {
    // One of each in the file's line and the summary: singular.
    let one = "1. E7-E13 ?!:\n{ c }\n(1. F8-F12)\n*\n";
    cmd()
        .arg("--stats")
        .write_stdin(one)
        .assert()
        .success()
        .stderr(
            "<stdin>:1:1: warning: no [Variant \"C'escacs\"] tag: added\n\
             1 | 1. E7-E13 ?!:\n  | ^\n\
             ctlpgn-filter: <stdin>: 1 game, 1 half-move; dropped 1 comment, 1 variation, 1 rating; 0 rejected, 1 warning\n\
             ctlpgn-filter: 1 game read, 1 written, 0 rejected, 1 warning\n",
        );
    // None and two: plural.
    let out = cmd()
        .arg("--stats")
        .arg("-q")
        .write_stdin(format!("{GOOD}\n{GOOD}"))
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(": 2 games, 4 half-moves; dropped 0 comments, 0 variations, 0 ratings; 0 rejected, 0 warnings\n"),
        "{err}"
    );
    assert!(
        err.ends_with(": 2 games read, 2 written, 0 rejected, 0 warnings\n"),
        "{err}"
    );
}

#[test]
fn final_pdtl_without_verify_or_check_is_a_usage_error() {
    let out = cmd()
        .arg("--final-pdtl")
        .write_stdin(GOOD)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("add --verify"), "{err}");
    assert!(err.contains("--check"), "{err}");
    // With either, it prints the final position.
    for with in ["--verify", "--check"] {
        let out = cmd()
            .args([with, "--final-pdtl"])
            .write_stdin("[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n*\n")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{with}");
        assert!(String::from_utf8(out.stderr)
            .unwrap()
            .contains("<stdin>:1: final position: "));
    }
}

#[test]
fn help_has_exit_status_and_examples() {
    let out = cmd().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    let exit = help
        .find("\nExit status:\n")
        .expect("an exit status section");
    let statuses = &help[exit..];
    for status in ["0", "1", "2", "3", "4"] {
        assert!(
            statuses.contains(&format!("\n  {status}   ")),
            "{status}: {help}"
        );
    }
    assert!(statuses.contains("the first of 2, 3, 1, 4"), "{help}");
    assert!(help.contains("\nExamples:\n  ctlpgn-filter "), "{help}");
}

#[test]
fn the_man_page_has_exit_status_environment_and_examples_sections() {
    let out = cmd().arg("--man").output().unwrap();
    assert!(out.status.success());
    let page = String::from_utf8(out.stdout).unwrap();
    let sections: Vec<&str> = page
        .lines()
        .filter_map(|l| l.strip_prefix(".SH "))
        .collect();
    // clap's sections, then one per group of options, then ours.
    assert_eq!(
        sections[..4],
        ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS"],
        "{sections:?}"
    );
    assert!(sections.contains(&"SELECTION"), "{sections:?}");
    assert_eq!(
        sections[sections.len() - 3..],
        ["\"EXIT STATUS\"", "ENVIRONMENT", "EXAMPLES"],
        "{sections:?}"
    );
    let exit =
        &page[page.find(".SH \"EXIT STATUS\"").unwrap()..page.find(".SH ENVIRONMENT").unwrap()];
    for status in ["0", "1", "2", "3", "4"] {
        assert!(exit.contains(&format!(".TP\n\\fB{status}\\fR\n")), "{exit}");
    }
    let examples = &page[page.find(".SH EXAMPLES").unwrap()..];
    assert!(
        examples.contains("\\fBctlpgn\\-filter game.ctl\\-pgn > clean.ctl\\-pgn\\fR"),
        "{examples}"
    );
    // The preamble that defines the apostrophe once, not per section.
    assert_eq!(page.matches(".ds Aq").count(), 2, "{page}");
}

#[test]
fn completions_offer_no_hidden_option() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = cmd().args(["--completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let script = String::from_utf8(out.stdout).unwrap();
        assert!(script.contains("keep-comments"), "{shell}: {script}");
        assert!(script.contains("final-pdtl"), "{shell}: {script}");
        assert!(!script.contains("chunk-bytes"), "{shell}: {script}");
    }
    // The hidden option still works.
    cmd()
        .args(["--chunk-bytes", "64", "--jobs", "2"])
        .write_stdin(GOOD)
        .assert()
        .success()
        .stdout(GOOD_OUT);
}

/// A pseudo-terminal: its master end, and the slave end a child is given.
fn pseudo_terminal() -> (std::os::fd::OwnedFd, std::os::fd::OwnedFd) {
    use std::os::fd::{FromRawFd, OwnedFd};
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two descriptors into the two ints it is given;
    // the name, termios and winsize arguments may be null.
    let r = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(r, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors were just opened by openpty and are ours.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// Runs the command with stderr on a terminal (a pseudo-terminal made
/// here) and `env` set, and returns what it wrote there.
fn stderr_on_a_terminal(args: &[&str], env: &[(&str, &str)], input: &str) -> String {
    let (master, slave) = pseudo_terminal();
    let mut command = binary();
    command
        .args(args)
        .env("TERM", "xterm")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::from(slave));
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command.spawn().unwrap();
    // The parent's copy of the slave end is gone with `command`: the master
    // then reads to the end once the child exits.
    drop(command);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let mut master = std::fs::File::from(master);
    let mut text = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match master.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => text.extend_from_slice(&buf[..n]),
            // EIO: the terminal's last writer has gone.
            Err(_) => break,
        }
    }
    child.wait().unwrap();
    String::from_utf8(text).unwrap()
}

#[test]
fn no_color_and_term_dumb_turn_colour_off_in_auto() {
    let colored = stderr_on_a_terminal(&[], &[], BAD);
    assert!(colored.contains("\x1b[1;31merror"), "{colored:?}");
    for env in [[("NO_COLOR", "1")], [("TERM", "dumb")]] {
        let plain = stderr_on_a_terminal(&[], &env, BAD);
        assert!(plain.contains("error: the letter x"), "{env:?}: {plain:?}");
        assert!(!plain.contains('\x1b'), "{env:?}: {plain:?}");
        // --color always still colours.
        let always = stderr_on_a_terminal(&["--color", "always"], &env, BAD);
        assert!(always.contains("\x1b[1;31merror"), "{env:?}: {always:?}");
    }
    // An empty NO_COLOR is as if unset (no-color.org).
    let empty = stderr_on_a_terminal(&[], &[("NO_COLOR", "")], BAD);
    assert!(empty.contains("\x1b[1;31merror"), "{empty:?}");
}

#[test]
fn a_ci_log_is_coloured_even_when_term_is_dumb() {
    // CI services set CI and TERM=dumb on a log that renders colour.
    let ci = stderr_on_a_terminal(&[], &[("TERM", "dumb"), ("CI", "true")], BAD);
    assert!(ci.contains("\x1b[1;31merror"), "{ci:?}");
}

#[test]
fn clicolor_force_colours_a_pipe_and_no_color_wins_over_it() {
    let forced = support::cmd()
        .env("CLICOLOR_FORCE", "1")
        .write_stdin(BAD)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&forced.stderr).contains("\x1b[1;31merror"));
    let both = support::cmd()
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .write_stdin(BAD)
        .output()
        .unwrap();
    let plain = String::from_utf8_lossy(&both.stderr);
    assert!(plain.contains("error: the letter x"), "{plain:?}");
    assert!(!plain.contains('\x1b'), "{plain:?}");
}

#[test]
fn excerpts_show_control_bytes_escaped() {
    let out = cmd()
        .arg("--color")
        .arg("never")
        .write_stdin("[Variant \"C'escacs\"]\n1. E7-E13\x1b]0;owned\x07, E21-E15:\n*\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains('\x1b') && !err.contains('\x07'), "{err:?}");
    assert!(err.contains("E7-E13\\x1b]0;owned\\x07, E21-E15:"), "{err}");
}

#[test]
fn short_help_is_a_summary_of_at_most_50_lines_of_80_columns() {
    let out = cmd().arg("-h").env("COLUMNS", "200").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(
        help.lines().count() <= 50,
        "{} lines:\n{help}",
        help.lines().count()
    );
    assert!(help.lines().all(|l| l.chars().count() <= 80), "{help}");
    // One line per option, the rarest sharing the last lines.
    assert!(help.contains("\n  -o, --output FILE "), "{help}");
    assert!(help.contains("--completions SHELL"), "{help}");
    assert!(!help.contains("Exit status:"), "{help}");
    assert!(help.contains("--help: all in full"), "{help}");
}

#[test]
fn no_input_at_a_terminal_prints_the_usage_and_exits_2() {
    let (master, slave) = pseudo_terminal();
    let out = support::binary()
        .stdin(std::process::Stdio::from(slave))
        .output()
        .unwrap();
    drop(master);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("Usage: ctlpgn-filter [OPTIONS] [FILE]..."),
        "{err}"
    );
    assert!(err.contains("-h: the options in brief"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn no_input_on_a_pipe_reads_standard_input() {
    let out = cmd().write_stdin(GOOD).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8(out.stdout).unwrap(), GOOD_OUT);
}

#[test]
fn long_help_is_wrapped_to_the_width_given() {
    for width in [60, 80] {
        let out = cmd()
            .arg("--help")
            .env("COLUMNS", width.to_string())
            .output()
            .unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        let widest = help.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= width, "{widest} > {width}:\n{help}");
        // Everything is there: the options hidden from -h too.
        assert!(help.contains("--completions") && help.contains("--all-diagnostics"));
    }
}

#[test]
fn jobs_0_is_one_per_core_and_huge_values_are_capped_with_a_warning() {
    let input = GOOD.repeat(100);
    let one = cmd()
        .arg("-j1")
        .write_stdin(input.clone())
        .output()
        .unwrap();
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(one.stdout.clone()).unwrap(),
        GOOD_OUT.repeat(100)
    );
    for jobs in ["0", "30000", "4294967296", "18446744073709551615"] {
        let out = cmd()
            .args(["--jobs", jobs, "--chunk-bytes", "64"])
            .write_stdin(input.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "--jobs {jobs}");
        assert_eq!(out.stdout, one.stdout, "--jobs {jobs}");
        let err = String::from_utf8(out.stderr).unwrap();
        if jobs == "0" {
            assert_eq!(err, "");
        } else {
            assert!(
                err.starts_with(&format!("ctlpgn-filter: warning: --jobs {jobs}: using ")),
                "{err}"
            );
            assert!(
                err.contains("threads, 4 per core of this machine's"),
                "{err}"
            );
        }
    }
    // -q silences the warning.
    cmd()
        .args(["-q", "--jobs", "30000"])
        .write_stdin(GOOD)
        .assert()
        .success()
        .stderr("");
}

#[test]
fn check_counts_coherent_games_not_written_ones() {
    let coherent = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
    let input = format!("{coherent}{BAD}");
    let out = cmd().arg("--check").write_stdin(input).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.ends_with("ctlpgn-filter: 2 games read, 1 coherent, 1 rejected, 0 warnings\n"),
        "{err}"
    );
}

#[test]
fn cut_sizes_are_powers_of_1024() {
    // 1K is 1024 bytes: a piece ends at the first game start at or past
    // it, here after 31 games of 34 bytes (30 would make 1020).
    let game = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
    assert_eq!(game.len(), 34);
    let input = game.repeat(64);
    for (size, first) in [
        ("1K", 31),
        ("1k", 31),
        ("1KiB", 31),
        ("1024", 31),
        ("1000", 30),
        ("2K", 61),
    ] {
        let out = cmd()
            .args(["--cut", size])
            .write_stdin(input.clone())
            .output()
            .unwrap();
        assert!(out.status.success(), "{size}");
        let piece = out.stdout.iter().position(|&b| b == 0).unwrap();
        assert_eq!(piece, first * game.len(), "{size}");
    }
}
