//! The messages for the common mistakes: each says what is wrong and what
//! to write; what is unambiguous is read, with a warning naming the fix.

mod support;

use support::run;

fn game(movetext: &str) -> String {
    format!("[Variant \"C'escacs\"]\n\n{movetext}\n*\n")
}

fn errors(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains(": error: ")).collect()
}

#[test]
fn standard_chess_gets_one_error_per_game_showing_the_ctl_an_form() {
    let input = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 3. O-O exd5 1-0\n\n\
                 [Event \"y\"]\n\n1. d4 d5 1/2-1/2\n";
    let (ok, out, err) = run(&[], input);
    assert!(!ok);
    assert_eq!(out, "");
    let errors = errors(&err);
    assert_eq!(errors.len(), 2, "{err}");
    assert!(errors[0].starts_with("<stdin>:3:4: error: e4 looks like standard-chess PGN"));
    assert!(errors[1].starts_with("<stdin>:7:4: error: d4 looks like standard-chess PGN"));
    for e in errors {
        assert!(
            e.contains("E7-E13") && e.contains("× or *") && e.contains("KRK-II"),
            "{e}"
        );
    }
}

#[test]
fn standard_castling_results_and_comments_are_named_as_such() {
    for (movetext, says) in [
        ("1. E7-E13, O-O:", "O-O is standard-chess castling"),
        (
            "1. E7-E13, E23-E21 1-0",
            "result 1-0 is standard-chess PGN: CTL-PGN writes 3-0",
        ),
        (
            "1. E7-E13, E23-E21 ; a comment",
            "; starts a comment in standard-chess PGN",
        ),
        (
            "1. E7-E13, E23-E21 2. E13×F14 e.p.:",
            "e.p. is standard-chess notation",
        ),
    ] {
        let (_, _, err) = run(&[], &game(movetext));
        assert!(err.contains(says), "{movetext}: {err}");
    }
}

#[test]
fn a_lower_case_piece_letter_is_an_error_naming_the_fix() {
    let (ok, _, err) = run(&[], &game("1. E7-E13, nE25-C21:"));
    assert!(!ok);
    assert!(
        err.contains(":3:12: error: piece letters are upper case: write NE25-C21"),
        "{err}"
    );
}

#[test]
fn blanks_around_a_dash_are_read_with_a_warning() {
    let (ok, out, err) = run(&[], &game("1. E7 - E13, E23 -E21 2. F8- F12:"));
    assert!(ok, "{err}");
    assert!(out.contains("1. E7-E13, E23-E21\n2. F8-F12:\n"), "{out}");
    assert!(
        err.contains(":3:6: warning: blanks inside a move: read as E7-E13"),
        "{err}"
    );
    assert_eq!(err.matches("blanks inside a move").count(), 3);
}

#[test]
fn blanks_before_what_is_no_move_are_still_an_error() {
    let (ok, _, err) = run(&[], &game("1. E7 - X3:"));
    assert!(!ok);
    assert!(
        err.contains("error: a move is written ORIGIN-DESTINATION"),
        "{err}"
    );
}

#[test]
fn a_typographic_apostrophe_in_the_variant_is_read_with_a_warning() {
    let input = "[Variant \"C’escacs\"]\n\n1. E7-E13:\n*\n";
    let (ok, out, err) = run(&[], input);
    assert!(ok, "{err}");
    assert!(out.starts_with("[Variant \"C'escacs\"]\n"));
    assert!(err.contains(
        ":1:11: warning: Variant \"C’escacs\" has a typographic apostrophe: read as C'escacs"
    ));
}

#[test]
fn a_variant_tag_in_another_case_is_read_with_a_warning() {
    let input = "[variant \"C'escacs\"]\n\n1. E7-E13:\n*\n";
    let (ok, out, err) = run(&[], input);
    assert!(ok, "{err}");
    assert_eq!(out, "[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n\n");
    assert!(
        err.contains("warning: tag name variant (tag names are case-sensitive): read as Variant")
    );
}

#[test]
fn another_variant_is_an_error() {
    let (ok, _, err) = run(&[], "[Variant \"Chess\"]\n\n1. E7-E13:\n*\n");
    assert!(!ok);
    assert!(err.contains("error: Variant \"Chess\" is not C'escacs"));
}

#[test]
fn under_strict_a_warning_says_it_rejects_the_game() {
    let (ok, out, err) = run(&["--strict"], "1. E7-E13:\n*\n");
    assert!(!ok);
    assert_eq!(out, "");
    assert!(
        err.contains(
            "error: no [Variant \"C'escacs\"] tag: rejected by --strict (without it: added)"
        ),
        "{err}"
    );
    let (_, _, err) = run(&["--strict"], &game("1. E7-E13"));
    assert!(err.contains("error: the last move has no end marker (: or #): rejected by --strict"));
}

/// "Each move is written on a line, numbered": White's move without its
/// number after Black's can only be the next, and is written so.
#[test]
fn a_white_move_without_its_number_is_numbered_with_a_warning_naming_the_number() {
    let (ok, out, err) = run(&[], &game("1. E7-E13, E21-E15 F8-F12, F20-F16:"));
    assert!(ok, "{err}");
    assert!(
        out.contains("1. E7-E13, E21-E15\n2. F8-F12, F20-F16:\n"),
        "{out}"
    );
    assert_eq!(
        err,
        "<stdin>:3:20: warning: White's move 2 has no number: numbered 2.\n\
         3 | 1. E7-E13, E21-E15 F8-F12, F20-F16:\n  |                    ^\n"
    );
}

#[test]
fn under_strict_a_white_move_without_its_number_rejects_its_game_in_check_too() {
    for options in [&["--strict"][..], &["--strict", "--check"]] {
        let (ok, out, err) = run(options, &game("1. E7-E13, E21-E15 F8-F12, F20-F16:"));
        assert!(!ok, "{options:?}");
        assert_eq!(out, "");
        assert!(
            err.starts_with(
                "<stdin>:3:20: error: White's move 2 has no number: rejected by --strict (without it: numbered 2.)\n"
            ),
            "{options:?}: {err}"
        );
    }
}

/// CTL-FAN is declared with `[Redefine "FAN"]`; a pawn's figurine, which
/// the canonical move drops as it drops a `P`, is a figurine all the same.
#[test]
fn a_pawn_figurine_without_redefine_fan_is_read_with_a_warning() {
    let (ok, out, err) = run(&[], &game("1. ♙F8-F12, ♟F20-F16:"));
    assert!(ok, "{err}");
    assert!(out.contains("1. F8-F12, F20-F16:\n"), "{out}");
    assert!(
        err.starts_with(
            "<stdin>:3:4: warning: FAN figurine in a game without [Redefine \"FAN\"]: read as its letter\n"
        ),
        "{err}"
    );
    let declared = "[Variant \"C'escacs\"]\n[Redefine \"FAN\"]\n\n1. ♙F8-F12, ♟F20-F16:\n*\n";
    let (ok, out, err) = run(&["--strict"], declared);
    assert!(ok && err.is_empty(), "{err}");
    assert!(out.contains("1. F8-F12, F20-F16:\n"), "{out}");
}

#[test]
fn under_strict_a_pawn_figurine_without_redefine_fan_rejects_its_game() {
    let (ok, out, err) = run(&["--strict"], &game("1. E7-E13, ♟F20-F16:"));
    assert!(!ok);
    assert_eq!(out, "");
    assert!(
        err.starts_with(
            "<stdin>:3:12: error: FAN figurine in a game without [Redefine \"FAN\"]: rejected by --strict (without it: read as its letter)\n"
        ),
        "{err}"
    );
}

/// A PDTL "describes a game situation with all its conditions": a position
/// without a king describes none. Every PDTL is parsed, so the error comes
/// with or without `--check`, and names the king that is missing.
#[test]
fn a_pdtl_describes_a_game_situation_and_a_position_without_a_king_is_none() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/errors/pdtl-missing-king.ctl-pgn"
    );
    let input = std::fs::read_to_string(path).unwrap();
    let no = |line: u32, which: &str| {
        format!("<stdin>:{line}:8: error: PDTL: the position has no {which}")
    };
    for args in [&[][..], &["--check"]] {
        let (ok, _, err) = run(args, &input);
        assert!(!ok, "{args:?}");
        assert_eq!(
            errors(&err),
            [
                no(10, "Black king: each side has one; place Black's (k)"),
                no(17, "White king: each side has one; place White's (K)"),
                no(
                    24,
                    "king: each side has one; place White's (K) and Black's (k)"
                ),
                no(32, "Black king: each side has one; place Black's (k)"),
            ],
            "{args:?}"
        );
        // --check says coherent, not written: it writes nothing.
        let done = if args.is_empty() {
            "2 written"
        } else {
            "2 coherent"
        };
        assert!(
            err.contains(&format!("{done}, 4 rejected")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn a_tag_that_is_not_well_formed_says_what_is_wrong_where() {
    for (tag, column, says) in [
        (
            r#"[Event "The "Big" one"]"#,
            13,
            r#"a quote inside the value of the tag Event must be escaped: write \""#,
        ),
        (
            "[White Kasparov]",
            8,
            r#"the value of the tag White is not in quotes: write [White "Kasparov"]"#,
        ),
        (
            r#"[Event "x""#,
            11,
            "the tag is not closed: ] is missing before the line's end",
        ),
        (
            r#"[Event "x]"#,
            11,
            "the tag's value is not closed: \" is missing before the line's end",
        ),
        (r#"[Ev-ent "x"]"#, 4, "unexpected character '-' in a tag"),
    ] {
        let input = format!("[Variant \"C'escacs\"]\n{tag}\n1. E7-E13:\n*\n");
        let (ok, out, err) = run(&[], &input);
        assert!(!ok, "{tag}");
        assert_eq!(out, "", "{tag}");
        assert!(
            err.starts_with(&format!("<stdin>:2:{column}: error: {says}")),
            "{tag}: {err}"
        );
    }
}

/// `n` games in standard-chess PGN, each an error.
fn standard_chess_games(n: usize) -> String {
    "[Variant \"C'escacs\"]\n1. e4 e5:\n*\n".repeat(n)
}

#[test]
fn after_ten_diagnostics_of_a_kind_the_rest_are_counted() {
    let input = format!(
        "{}{}",
        standard_chess_games(9000),
        // Another kind has its own ten.
        "[Variant \"C'escacs\"]\n1. E13xF16:\n*\n".repeat(3)
    );
    let (ok, out, err) = run(&["-j1"], &input);
    assert!(!ok);
    assert_eq!(out, "");
    assert_eq!(errors(&err).len(), 13, "{err}");
    assert_eq!(
        err.lines().rev().take(2).collect::<Vec<_>>(),
        [
            "ctlpgn-filter: 9003 games read, 0 written, 9003 rejected, 0 warnings",
            "ctlpgn-filter: ... and 8,990 more \"standard-chess PGN\" errors in <stdin> \
             (--all-diagnostics prints them)",
        ]
    );
    // --all-diagnostics prints them all.
    let (_, _, all) = run(&["-j1", "--all-diagnostics"], &input);
    assert_eq!(errors(&all).len(), 9003);
    assert!(!all.contains("more \"standard-chess PGN\""));
    // --jobs counts them in input order: the same lines.
    let (jobs_ok, jobs_out, jobs) = run(&["-j", "4", "--chunk-bytes", "500"], &input);
    assert_eq!((jobs_ok, jobs_out.as_str()), (ok, out.as_str()));
    assert_eq!(jobs, err);
}

#[test]
fn the_cap_is_per_input_and_the_rejects_file_gets_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.pgn"), dir.path().join("b.pgn"));
    std::fs::write(&a, standard_chess_games(12)).unwrap();
    std::fs::write(&b, standard_chess_games(11)).unwrap();
    let rejects = dir.path().join("rejects.txt");
    let out = support::cmd()
        .arg("--rejects")
        .arg(&rejects)
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(errors(&err).len(), 20, "{err}");
    for (file, more) in [
        (&a, "2 more \"standard-chess PGN\" errors"),
        (&b, "1 more \"standard-chess PGN\" error"),
    ] {
        let line = format!("ctlpgn-filter: ... and {more} in {} (", file.display());
        assert!(err.contains(&line), "{line}: {err}");
    }
    assert_eq!(
        std::fs::read_to_string(&rejects).unwrap(),
        standard_chess_games(23)
    );
}

#[test]
fn quiet_warnings_are_neither_printed_nor_counted() {
    // 20 games without a Variant tag: 20 warnings of one kind.
    let input = "1. E7-E13:\n*\n".repeat(20);
    let (ok, _, err) = run(&[], &input);
    assert!(ok);
    assert_eq!(err.matches(": warning: no [Variant").count(), 10, "{err}");
    assert!(
        err.contains("... and 10 more \"no Variant tag\" warnings in <stdin>"),
        "{err}"
    );
    let (_, _, quiet) = run(&["-q"], &input);
    assert_eq!(quiet, "");
}

/// The usage error clap prints for `args`, with status 2.
fn usage_error(args: &[&str]) -> String {
    let out = support::cmd().args(args).write_stdin("").output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn a_negative_or_wordy_jobs_says_what_jobs_takes_in_words() {
    for bad in ["-1", "many"] {
        let err = usage_error(&["-j", bad]);
        assert!(
            err.contains("--jobs takes a whole number of threads, from 1 up")
                && err.contains("0 means one per core"),
            "{err}"
        );
        assert!(
            !err.contains("-- -1") && !err.contains("invalid digit"),
            "{err}"
        );
    }
}

#[test]
fn stop_after_0_says_what_stop_after_takes_in_words() {
    let err = usage_error(&["--stop-after", "0"]);
    assert!(
        err.contains("--stop-after takes a whole number of games, 1 or more"),
        "{err}"
    );
    assert!(!err.contains("18446744073709551615"), "{err}");
}

#[test]
fn fail_fast_s_summary_says_where_it_stopped() {
    let input = "[Variant \"C'escacs\"]\n1. E7-E99:\n*\n[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
    let out = support::cmd()
        .arg("--fail-fast")
        .write_stdin(input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("stopped at the first rejected game, at <stdin>:2 (--fail-fast)"),
        "{err}"
    );
}
