//! Games joined on one line, as `cat` joins files that end without a final
//! newline: a game that has ended (its result, or its last move marked `:`
//! or `#`) and whose line goes on with a tag or a move number is followed
//! by the next game, there, with a warning that names the join. Read so by
//! one thread, by `--jobs` in small chunks and in `--cut` pieces alike.

use ctlpgn_filter::{cut_at_games, run_parallel, Diagnostic, Filter, FilterBuilder, Report};
use std::path::Path;

const JOINED: &str = "two games on one line: a file without a final newline?";

/// What one thread makes of `input`: output, warnings, counts.
fn filter(input: &[u8]) -> (String, Vec<String>, Report) {
    let (out, diags, report) = Filter::default().filter_bytes(input);
    let messages = diags.into_iter().map(|d| d.message).collect();
    (String::from_utf8(out).unwrap(), messages, report)
}

/// What two threads make of `input` in chunks of `chunk` bytes: output,
/// messages, counts.
fn in_chunks(input: &[u8], chunk: usize) -> (String, Vec<String>, Report) {
    let (mut out, mut messages) = (Vec::new(), Vec::new());
    let on_diagnostic = &mut |d: &Diagnostic| messages.push(d.message.clone());
    let report = run_parallel(
        &Filter::default,
        input,
        2,
        chunk,
        &mut out,
        None,
        on_diagnostic,
    );
    (String::from_utf8(out).unwrap(), messages, report.unwrap())
}

/// The output of each of `files` filtered alone, one after the other.
fn one_by_one(files: &[Vec<u8>]) -> String {
    files.iter().map(|f| filter(f).0).collect()
}

/// Two games whose files `cat` joins on one line, with the way the
/// first ends.
fn joined_forms() -> Vec<(&'static str, Vec<u8>, Vec<u8>)> {
    let first_mate = b"[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n2. F8-F12, DF12*JF2#".to_vec();
    let first_marked = b"[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:".to_vec();
    let first_result = b"[Variant \"C'escacs\"]\n1. E7-E13, E21-E15: 1-1".to_vec();
    let tagged = b"[Variant \"C'escacs\"]\n[Event \"B\"]\n1. F8-F12:\n*\n".to_vec();
    let untagged = b"1. F8-F12, F20-F16:\n*\n".to_vec();
    vec![
        ("# before a tag", first_mate.clone(), tagged.clone()),
        ("# before 1.", first_mate, untagged.clone()),
        (": before a tag", first_marked.clone(), tagged.clone()),
        (": before 1.", first_marked, untagged.clone()),
        ("a result before a tag", first_result.clone(), tagged),
        ("a result before 1.", first_result, untagged),
    ]
}

#[test]
fn a_game_ended_and_the_next_on_its_line_are_two_games_with_a_warning() {
    for (form, a, b) in joined_forms() {
        let joined = [a.clone(), b.clone()].concat();
        let (out, messages, report) = filter(&joined);
        assert_eq!(out, one_by_one(&[a, b]), "{form}");
        assert_eq!((report.games_read, report.games_written), (2, 2), "{form}");
        assert!(messages.iter().any(|m| m == JOINED), "{form}: {messages:?}");
    }
}

#[test]
fn a_mate_ends_its_word_as_it_ends_its_game() {
    let (out, _, report) = filter(b"1. E7-E13, DF12*JF2#1. E7-E13:\n");
    assert_eq!(report.games_written, 2);
    assert!(out.contains("1. E7-E13, DF12*JF2#\n0-3\n"), "{out}");
}

#[test]
fn games_on_lines_of_their_own_are_not_said_to_be_joined() {
    let input = b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n[Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
    let (_, messages, report) = filter(input);
    assert_eq!(report.games_written, 2);
    assert!(messages.is_empty(), "{messages:?}");
}

#[test]
fn joins_read_the_same_in_jobs_chunks_and_cut_pieces() {
    let input: Vec<u8> = joined_forms()
        .into_iter()
        .flat_map(|(_, a, b)| [a, b].concat())
        .collect::<Vec<u8>>()
        .repeat(5);
    let whole = filter(&input);
    // Each form is two games, each written, each join named.
    let games = 2 * 5 * joined_forms().len() as u64;
    assert_eq!((whole.2.games_read, whole.2.games_written), (games, games));
    assert_eq!(
        whole.1.iter().filter(|m| *m == JOINED).count() as u64,
        games / 2
    );
    for chunk in [1, 13, 97] {
        assert_eq!(in_chunks(&input, chunk), whole, "chunks of {chunk}");
    }
    let whole = whole.0;
    for size in [1, 200] {
        let mut cut = Vec::new();
        cut_at_games(FilterBuilder::new(), &input[..], &mut cut, size).unwrap();
        let pieces: Vec<Vec<u8>> = cut.split(|&b| b == 0).map(<[u8]>::to_vec).collect();
        assert_eq!(one_by_one(&pieces), whole, "pieces of {size}");
    }
}

#[test]
fn the_game_after_a_joined_one_on_a_line_of_its_own_is_not_joined() {
    // The joined game's comment is never closed: reading starts again at
    // the line inside it that starts a game, on a line of its own.
    let input = b"[Variant \"C'escacs\"]\n1. E7-E13: *[Variant \"C'escacs\"] { never closed\n\
        [Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
    let (_, messages, report) = filter(input);
    // The joined game is rejected (its first error is all it says); the
    // one read again is written, with no warning.
    let r = (report.games_read, report.games_rejected, report.warnings);
    assert_eq!(r, (3, 1, 0), "{messages:?}");
}

#[test]
fn a_joined_game_read_again_across_chunks_keeps_its_warning() {
    // A chunk starts at the second Variant tag, but no game does: the game
    // it is in is read again from its start, on its line.
    let input = b"[Variant \"C'escacs\"]\n1. E7-E13:\n*[Variant \"C'escacs\"]\n\
        [Event \"x\"]\n[Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
    let whole = filter(input);
    assert!(whole.1.iter().any(|m| m == JOINED), "{:?}", whole.1);
    for chunk in [1, 13] {
        assert_eq!(in_chunks(input, chunk), whole, "chunks of {chunk}");
    }
}

#[test]
fn the_real_games_joined_by_cat_come_out_as_the_files_one_by_one() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                n.starts_with("real-") && n.ends_with(".ctl-pgn")
            })
        })
        .collect();
    files.sort();
    let files: Vec<Vec<u8>> = files.iter().map(|p| std::fs::read(p).unwrap()).collect();
    assert_eq!(files.len(), 7);
    // Two of the author's files end with `#` and no final newline.
    assert!(files.iter().filter(|f| !f.ends_with(b"\n")).count() >= 2);
    let cat = files.concat();
    let (out, messages, report) = filter(&cat);
    assert_eq!(out, one_by_one(&files));
    assert_eq!((report.games_read, report.games_written), (7, 7));
    assert_eq!(messages.iter().filter(|m| *m == JOINED).count(), 2);
}

#[test]
fn a_join_points_at_the_game_that_starts_on_the_line() {
    let mut seen = Vec::new();
    Filter::default()
        .run(
            &b"[Variant \"C'escacs\"]\n1. E7-E13:[Variant \"C'escacs\"]\n1. F8-F12:\n"[..],
            &mut Vec::new(),
            &mut |d: &Diagnostic| seen.push((d.line, d.column, d.message.clone())),
        )
        .unwrap();
    assert!(seen.contains(&(2, 11, JOINED.to_string())), "{seen:?}");
}

/// A game that ends inside a word of full-width characters (its result
/// `３－０`, or a mate, read folded), and the next game glued to it in that
/// word, as it would be read alone: an ASCII move with a full-width hex.
fn joined_inside_a_full_width_word() -> Vec<(Vec<u8>, Vec<u8>)> {
    let second = "F8-Ｆ１２:\n";
    ["[Variant \"C'escacs\"]\n1. E7-E13 ３－０", "１．DF12*JF2#"]
        .into_iter()
        .map(|first| (first.into(), second.into()))
        .collect()
}

#[test]
fn a_game_that_starts_inside_a_full_width_word_is_read_as_it_is_alone() {
    for (first, second) in joined_inside_a_full_width_word() {
        let alone = filter(&second);
        assert_eq!(alone.2.games_rejected, 1, "{:?}", alone.1);
        let (out, messages, report) = filter(&[first.clone(), second].concat());
        assert_eq!(out, filter(&first).0);
        assert_eq!((report.games_read, report.games_rejected), (2, 1));
        assert!(messages.contains(&alone.1[0]), "{messages:?}");
    }
}

#[test]
fn a_game_that_starts_inside_a_full_width_word_reads_the_same_in_jobs_chunks() {
    for (first, second) in joined_inside_a_full_width_word() {
        let input = [first, second].concat();
        let whole = filter(&input);
        for chunk in 1..=input.len() {
            assert_eq!(in_chunks(&input, chunk), whole, "chunks of {chunk}");
        }
    }
}
