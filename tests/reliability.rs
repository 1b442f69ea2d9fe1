//! Bad and hostile input never costs a good game: every game read is
//! written or rejected, rejects are kept verbatim, and neither size nor
//! nesting makes the filter crash or grow its memory beyond one line.

mod support;
use support::child;

use child::{run, MB};
use std::io::Write;

const GOOD: &str = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n*\n\n";

/// Writes `piece` `n` times.
fn repeat(piece: &'static str, n: usize) -> impl FnOnce(&mut dyn Write) -> std::io::Result<()> {
    move |w| (0..n).try_for_each(|_| w.write_all(piece.as_bytes()))
}

/// Writes each of `parts` once.
fn bytes(parts: Vec<Vec<u8>>) -> impl FnOnce(&mut dyn Write) -> std::io::Result<()> {
    move |w| parts.iter().try_for_each(|p| w.write_all(p))
}

#[test]
fn a_100_mb_file_with_no_newline_is_filtered_in_memory_bounded_by_its_line() {
    let game = "[Variant \"C'escacs\"] 1. E7-E13: * ";
    let n = 100_000_000 / game.len();
    // Each game but the first starts on the line where the one before
    // ends: warned about (two games on one line), not printed with -q.
    let r = run(
        &["-j1", "-q", "--stats", "--max-line-bytes", "128M"],
        repeat(game, n),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.ends_with(&format!(
            "{n} games read, {n} written, 0 rejected, {} warnings\n",
            n - 1
        )),
        "{}",
        r.stderr
    );
    // The bound documented in the README: about one line buffer, plus a few MB.
    assert!(
        r.max_rss < 2 * 100 * MB + 32 * MB,
        "peak RSS {} MB",
        r.max_rss / MB
    );
}

#[test]
fn a_100_mb_comment_is_skipped_in_constant_memory() {
    let line = "x".repeat(99) + "\n";
    let r = run(&["-j1"], move |w| {
        w.write_all(b"[Variant \"C'escacs\"]\n1. E7-E13:\n{")?;
        (0..1_000_000).try_for_each(|_| w.write_all(line.as_bytes()))?;
        w.write_all(b"}\n*\n")
    });
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout_tail.ends_with(b"1. E7-E13:\n*\n\n"));
    assert!(r.max_rss < 32 * MB, "peak RSS {} MB", r.max_rss / MB);
}

#[test]
fn a_long_comment_read_again_on_two_threads_holds_a_few_chunks_not_all() {
    // Lines of 10 KB, each chunk's own start a line of the comment: every
    // chunk but the first is read again. Memory holds a few chunks of
    // 256 KiB, whether the workers finish them faster than they are written
    // or not (they did, and each was kept until written: all 48 MB).
    let line = "x".repeat(9_999) + "\n";
    let r = run(&["-j2", "--chunk-bytes", "262144", "--stats"], move |w| {
        w.write_all(b"[Variant \"C'escacs\"]\n1. E7-E13:\n{")?;
        for i in 0..4_800 {
            w.write_all(line.as_bytes())?;
            if i % 26 == 0 {
                // About a chunk at a time: the workers keep up.
                w.flush()?;
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        }
        w.write_all(b"}\n*\n\n")?;
        w.write_all(GOOD.as_bytes())
    });
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r
        .stderr
        .ends_with("2 games read, 2 written, 0 rejected, 0 warnings\n"));
    assert!(r.max_rss < 16 * MB, "peak RSS {} MB", r.max_rss / MB);
}

/// A game whose comment holds `lines` lines of 100 bytes, closed or not,
/// then a good game (inside the comment when it is never closed).
fn long_comment(lines: usize, closed: bool) -> impl FnOnce(&mut dyn Write) -> std::io::Result<()> {
    let line = "x".repeat(99) + "\n";
    move |w| {
        w.write_all(b"[Variant \"C'escacs\"]\n1. E7-E13:\n{")?;
        (0..lines).try_for_each(|_| w.write_all(line.as_bytes()))?;
        if closed {
            w.write_all(b"}\n*\n\n")?;
        }
        w.write_all(GOOD.as_bytes())
    }
}

#[test]
fn a_64_mb_comment_costs_no_more_memory_with_rejects() {
    for closed in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let rejects = dir.path().join("rejects");
        let args = ["-j1", "--stats", "--rejects", rejects.to_str().unwrap()];
        let r = run(&args, long_comment(640_000, closed));
        let (code, rejected) = if closed { (0, 0) } else { (1, 1) };
        assert_eq!(r.code, Some(code), "{}", r.stderr);
        assert!(
            r.stderr.ends_with(&format!(
                "2 games read, {} written, {rejected} rejected, 0 warnings\n",
                2 - rejected
            )),
            "{}",
            r.stderr
        );
        // The game never closed is rejected whole, through a temporary file.
        let kept = std::fs::metadata(&rejects).unwrap().len();
        assert_eq!(kept, if closed { 0 } else { 64_000_000 + 33 });
        assert!(r.max_rss < 32 * MB, "peak RSS {} MB", r.max_rss / MB);
    }
}

#[test]
fn a_64_mb_kept_comment_is_written_in_bounded_memory_with_or_without_rejects() {
    for format in ["ctl-pgn", "ndjson"] {
        for with_rejects in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let rejects = dir.path().join("rejects");
            let mut args = vec!["-j1", "--stats", "--keep-comments", "--format", format];
            if with_rejects {
                args.extend(["--rejects", rejects.to_str().unwrap()]);
            }
            let r = run(&args, long_comment(640_000, true));
            let case = format!("{format}, rejects {with_rejects}");
            assert_eq!(r.code, Some(0), "{case}: {}", r.stderr);
            // With ndjson, the stats are JSON too.
            let stats = match format {
                "ndjson" => "\"rejected\":0,\"stopped_after\":false,\"variations_dropped\":0,\
                             \"variations_rejected\":0,\"variations_written\":0,\"warnings\":0,\"written\":2}\n",
                _ => "2 games read, 2 written, 0 rejected, 0 warnings\n",
            };
            assert!(r.stderr.ends_with(stats), "{case}: {}", r.stderr);
            // The comment comes out whole: in ndjson each line end is `\n`.
            let line_end = if format == "ndjson" { 2 } else { 1 };
            assert!(
                r.stdout_len > 640_000 * (99 + line_end),
                "{case}: {} bytes written",
                r.stdout_len
            );
            assert!(
                r.max_rss < 32 * MB,
                "{case}: peak RSS {} MB",
                r.max_rss / MB
            );
        }
    }
}

#[test]
fn a_line_longer_than_the_limit_rejects_its_game_and_the_next_is_written() {
    let long = format!(
        "[Variant \"C'escacs\"]\n1. E7-E13:\n{{{}}}\n*\n\n",
        "x".repeat(100)
    );
    let input = format!("{GOOD}{long}{GOOD}");
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects");
    let args = [
        "-j1",
        "--max-line-bytes",
        "100",
        "--rejects",
        rejects.to_str().unwrap(),
    ];
    let r = run(&args, bytes(vec![input.into_bytes()]));
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr.contains(
            "<stdin>:7:1: error: this line is longer than 100 bytes: its game is rejected, \
             and the line is not read (--max-line-bytes SIZE reads longer lines)"
        ),
        "{}",
        r.stderr
    );
    assert_eq!(r.stdout_len, 2 * (GOOD.len() + 1));
    assert_eq!(std::fs::read_to_string(&rejects).unwrap(), long);
    assert!(r
        .stderr
        .ends_with("3 games read, 2 written, 1 rejected, 0 warnings\n"));
}

#[test]
fn a_line_as_long_as_the_limit_is_read() {
    let comment = format!(
        "[Variant \"C'escacs\"]\n1. E7-E13:\n{{{}}}\n*\n",
        "x".repeat(98)
    );
    let r = run(
        &["-j1", "--keep-comments", "--max-line-bytes", "100"],
        bytes(vec![comment.into_bytes()]),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn a_100_mb_line_with_no_newline_is_rejected_in_bounded_memory() {
    let r = run(
        &["-j1", "--stats", "--max-line-bytes", "1M"],
        repeat("[Variant \"C'escacs\"] 1. E7-E13: * ", 3_000_000),
    );
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr
            .ends_with("1 game read, 0 written, 1 rejected, 0 warnings\n"),
        "{}",
        r.stderr
    );
    assert!(r.max_rss < 16 * MB, "peak RSS {} MB", r.max_rss / MB);
}

fn nested(depth: usize) -> impl FnOnce(&mut dyn Write) -> std::io::Result<()> {
    move |w| {
        w.write_all(b"[Variant \"C'escacs\"]\n1. E7-E13: ")?;
        w.write_all(&vec![b'('; depth])?;
        w.write_all(&vec![b')'; depth])?;
        w.write_all(b"\n*\n")
    }
}

#[test]
fn a_million_nested_variations_reject_their_game_in_constant_memory_whatever_the_options() {
    for options in [
        &[][..],
        &["--keep-variations", "--keep-comments"],
        &["--split-variations"],
        &["--keep-variations", "--format", "ndjson"],
    ] {
        let r = run(&[&["-j1", "--stats"], options].concat(), move |w| {
            nested(1_000_000)(w)?;
            w.write_all(GOOD.as_bytes())
        });
        assert_eq!(r.code, Some(1), "{options:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(
                "<stdin>:2:76: error: variations nested 65 deep: at most 64 (--max-depth N raises the limit)"
            ),
            "{options:?}: {}",
            r.stderr
        );
        // The game after it is written.
        assert!(
            r.stdout_len > 0 && r.stdout_len < 1000,
            "{options:?}: {}",
            r.stdout_len
        );
        assert!(
            r.max_rss < 32 * MB,
            "{options:?}: peak RSS {} MB",
            r.max_rss / MB
        );
    }
}

#[test]
fn a_million_nested_variations_are_dropped_without_recursion_or_memory() {
    let r = run(
        &["-j1", "--stats", "--max-depth", "1000000"],
        nested(1_000_000),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.contains("dropped 0 comments, 1000000 variations"),
        "{}",
        r.stderr
    );
    assert!(r.max_rss < 32 * MB, "peak RSS {} MB", r.max_rss / MB);
}

#[test]
fn a_million_nested_variations_are_kept_without_recursion() {
    let r = run(
        &["-j1", "--keep-variations", "--max-depth", "1000000"],
        nested(1_000_000),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    // Kept, the output itself holds the nesting: memory follows it, linearly.
    assert!(r.stdout_len > 2_000_000);
    assert!(r.max_rss < 128 * MB, "peak RSS {} MB", r.max_rss / MB);
}

#[test]
fn a_million_games_of_one_move_run_in_constant_memory() {
    let r = run(&["-j1", "--stats"], repeat(GOOD, 1_000_000));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r
        .stderr
        .ends_with("1000000 games read, 1000000 written, 0 rejected, 0 warnings\n"));
    assert_eq!(r.stdout_len, 1_000_000 * (GOOD.len() + 1));
    assert!(r.max_rss < 16 * MB, "peak RSS {} MB", r.max_rss / MB);
}

#[test]
fn a_10_mb_line_of_spaces_costs_one_line_buffer() {
    let spaces = vec![b' '; 10_000_000];
    let r = run(
        &["-j1", "--stats"],
        bytes(vec![GOOD.into(), spaces, b"\n".to_vec(), GOOD.into()]),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r
        .stderr
        .ends_with("2 games read, 2 written, 0 rejected, 0 warnings\n"));
    assert!(
        r.max_rss < 2 * 10 * MB + 16 * MB,
        "peak RSS {} MB",
        r.max_rss / MB
    );
}

#[test]
fn many_bad_games_on_one_long_line_are_each_reported_in_linear_time() {
    // Each game is rejected; each diagnostic shows an excerpt, not the line.
    let game = "[Variant \"C'escacs\"] 1. E7xE13: * ";
    let r = run(&["-j1", "--all-diagnostics"], repeat(game, 200_000));
    assert_eq!(r.code, Some(1));
    assert_eq!(r.stdout_len, 0);
    assert_eq!(r.stderr.matches("error: the letter x").count(), 200_000);
    assert!(r.stderr.len() < 200_000 * 400);
}

/// The rejects file holds exactly the bytes of the rejected games.
#[test]
fn rejects_are_the_original_bytes_of_each_rejected_game() {
    let bad = [
        "[Variant \"C'escacs\"]\r\n[Title \"CRLF and x\"]   \r\n1. E13xF16:\r\n*\r\n\r\n",
        "{ a comment that opens the game }\n[Variant \"C'escacs\"]\n1. F1-F3:\n*\n",
        "[Variant \"Grand C'escacs\"]\n1. E7-E13:\n*\n\n",
    ];
    // A comment before anything opens its game; after a game, it would
    // belong to the game before (see the README), so it comes first here.
    let input = format!("{}{GOOD}{}{GOOD}{}{GOOD}", bad[1], bad[0], bad[2]);
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects");
    let r = run(
        &["-j1", "--rejects", rejects.to_str().unwrap()],
        bytes(vec![input.into_bytes()]),
    );
    assert_eq!(r.code, Some(1));
    assert_eq!(
        std::fs::read_to_string(&rejects).unwrap(),
        [bad[1], bad[0], bad[2]].concat()
    );
    assert!(r
        .stderr
        .ends_with("6 games read, 3 written, 3 rejected, 0 warnings\n"));
}

#[test]
fn invalid_utf8_is_reported_with_its_byte_offset_and_the_rest_goes_on() {
    let mut input = GOOD.as_bytes().to_vec();
    let at = input.len() + "[Variant \"C'escacs\"]\n1. E7".len();
    input.extend_from_slice(b"[Variant \"C'escacs\"]\n1. E7\xC3-E13:\n*\n\n");
    input.extend_from_slice(GOOD.as_bytes());
    let r = run(&["-j1"], bytes(vec![input]));
    assert_eq!(r.code, Some(1));
    assert!(
        r.stderr.contains(&format!(
            "invalid UTF-8: byte 0xC3 at byte offset {at} of the input"
        )),
        "{}",
        r.stderr
    );
    assert_eq!(r.stdout_len, 2 * (GOOD.len() + 1));
}

#[test]
fn an_empty_file_a_file_of_blank_lines_and_whitespace_games_write_nothing() {
    for input in ["", "\n\n\n", "   \n\t\n  \r\n"] {
        let r = run(&["--stats"], bytes(vec![input.as_bytes().to_vec()]));
        assert_eq!(r.code, Some(0));
        assert_eq!(r.stdout_len, 0);
        assert!(r
            .stderr
            .ends_with("0 games read, 0 written, 0 rejected, 0 warnings\n"));
    }
}

#[test]
fn a_game_much_longer_than_a_chunk_is_filtered_on_two_threads_in_memory_bounded_by_a_few_chunks() {
    // A 32 MB comment: no game starts for 500 chunks of 64 KiB.
    for closed in [true, false] {
        let dir = tempfile::tempdir().unwrap();
        let rejects = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
        let (r1, r2) = (rejects("one"), rejects("two"));
        // Each run holds the lock on runs until dropped: one's is kept apart.
        let one = run(
            &["-j1", "--stats", "--rejects", &r1],
            long_comment(320_000, closed),
        );
        let (code, stderr, len, tail, rss) = (
            one.code,
            one.stderr.clone(),
            one.stdout_len,
            one.stdout_tail.clone(),
            one.max_rss,
        );
        drop(one);
        let two = run(
            &[
                "-j2",
                "--chunk-bytes",
                "262144",
                "--stats",
                "--rejects",
                &r2,
            ],
            long_comment(320_000, closed),
        );
        assert_eq!(two.code, code, "{}", two.stderr);
        assert_eq!(two.stderr, stderr);
        assert_eq!((two.stdout_len, &two.stdout_tail), (len, &tail));
        assert!(same_bytes(&r1, &r2), "the rejects differ");
        // Not the game: a few chunks more than one thread (which keeps 8 MB
        // of a game never closed in memory, the rest in a temporary file).
        assert!(
            two.max_rss < rss + 8 * MB,
            "peak RSS {} MB, one thread's {} MB",
            two.max_rss / MB,
            rss / MB
        );
    }
}

/// Do two files hold the same bytes? Read a block at a time: a child's
/// peak RSS starts from this process's at fork, so it stays small.
fn same_bytes(a: &str, b: &str) -> bool {
    use std::io::Read;
    let (mut a, mut b) = (
        std::fs::File::open(a).unwrap(),
        std::fs::File::open(b).unwrap(),
    );
    let (mut x, mut y) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let n = a.read(&mut x).unwrap();
        if n == 0 {
            return b.read(&mut y).unwrap() == 0;
        }
        if b.read_exact(&mut y[..n]).is_err() || x[..n] != y[..n] {
            return false;
        }
    }
}
