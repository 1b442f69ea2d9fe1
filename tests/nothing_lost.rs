//! The reader's contract: every input byte belongs to exactly one game or
//! to the blank space before the first; every game is written or rejected,
//! whatever it holds; the rejects hold each rejected game's bytes exactly
//! as read; `--jobs` changes nothing. And the comment rule it rests on: a
//! comment is everything from `{` to the next `}`.

mod support;

use ctlpgn_filter::{run_parallel, Context, Diagnostic, Filter, FilterBuilder, Pass, Report};
use support::corpus_files;

/// What a run made of an input.
#[derive(Debug, PartialEq)]
struct Run {
    out: String,
    rejects: Vec<u8>,
    errors: Vec<(u64, u64, String)>,
    report: Report,
}

fn run_with(mut filter: Filter, input: &[u8]) -> Run {
    let (mut out, mut rejects, mut errors) = (Vec::new(), Vec::new(), Vec::new());
    let report = filter
        .run_with_rejects(
            input,
            &mut out,
            Some(&mut rejects),
            &mut |d: &Diagnostic| errors.push((d.line, d.column, d.message.clone())),
        )
        .unwrap();
    Run {
        out: String::from_utf8(out).unwrap(),
        rejects,
        errors,
        report,
    }
}

fn run(input: &str) -> Run {
    run_with(Filter::default(), input.as_bytes())
}

/// Rejects every game: the rejects then hold all of them.
struct RejectAll;

impl Pass for RejectAll {
    fn name(&self) -> &'static str {
        "reject-all"
    }
    fn begin_game(&mut self, cx: &mut Context) {
        cx.error(cx.game_start, "rejected for the test");
    }
}

/// The bytes of all the games of `input`, as the reader cuts them.
fn all_games(input: &[u8]) -> Vec<u8> {
    let filter = FilterBuilder::new().pass(Box::new(RejectAll)).build();
    run_with(filter, input).rejects
}

/// `input` without the blank space before its first game.
fn after_leading_blanks(input: &[u8]) -> &[u8] {
    let blank = |c: &u8| matches!(c, b' ' | b'\t' | b'\r' | b'\n');
    &input[input.iter().position(|c| !blank(c)).unwrap_or(input.len())..]
}

#[test]
fn the_games_of_an_input_are_all_its_bytes_but_the_blanks_before_the_first() {
    for input in [
        "\n\n[Variant \"C'escacs\"]\n1. E7-E13:\n*\n\n  \n[Variant \"C'escacs\"]\n1. F8-F12:\n*\n\n",
        "E7-E13",
        "1. E7-E13# 2 E21-E15",
        "\u{FEFF}{ intro }\n[Variant \"C'escacs\"]\n1. E7-E13: 3-0 [Variant \"C'escacs\"] 1. F8-F12:",
        "*\n\u{FF}[Variant \"C'escacs\"]\n1. E7-E13:\n",
    ] {
        let bytes = input.as_bytes();
        let mut expected = after_leading_blanks(bytes);
        if let Some(rest) = expected.strip_prefix("\u{FEFF}".as_bytes()) {
            expected = rest;
        }
        assert_eq!(all_games(bytes), expected, "{input:?}");
    }
}

#[test]
fn a_lone_move_is_a_game() {
    let r = run("E7-E13");
    assert_eq!(r.report.games_read, 1);
    assert_eq!(r.out, "[Variant \"C'escacs\"]\n\n1. E7-E13\n*\n\n");
}

#[test]
fn a_move_after_a_result_is_a_game_of_its_own() {
    let r = run("1. E7-E13:\n3-0\nE21-E15");
    assert_eq!(r.report.games_written, 2);
    assert!(r.out.ends_with("1. E21-E15\n*\n\n"), "{}", r.out);
}

#[test]
fn a_bare_move_before_a_tag_section_does_not_cost_the_game_after_it() {
    let r = run("E7-E13\n[Variant \"C'escacs\"]\n1. F8-F12:\n*\n");
    assert_eq!((r.report.games_written, r.report.games_rejected), (2, 0));
}

#[test]
fn a_lone_token_at_the_end_is_a_game_rejected_with_what_it_lacks() {
    let game = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
    for (token, lacks) in [
        ("3-0", "a game has tags"),
        ("*", "a game has tags"),
        ("1.", "move number 1 has no move after it"),
        ("$1", "a NAG must follow a move"),
        (".", "a game has tags"),
        (":*", ": must follow a move"),
    ] {
        let r = run(&format!("{game}{token}"));
        assert_eq!(
            (r.report.games_written, r.report.games_rejected),
            (1, 1),
            "{token}"
        );
        assert_eq!(r.rejects, token.as_bytes(), "{token}");
        assert!(r.errors[0].2.contains(lacks), "{token}: {:?}", r.errors);
    }
}

#[test]
fn the_rejects_hold_a_rejected_game_exactly_as_read() {
    // No line end is added to a game that ends without one.
    let r = run("[Variant \"C'escacs\"]\n1. E13xF16:");
    assert_eq!(r.rejects, b"[Variant \"C'escacs\"]\n1. E13xF16:");
    // The blank lines after a game are its own.
    let r = run("1. E13xF16:\n*\n\n\n[Variant \"C'escacs\"]\n1. E7-E13:\n*\n");
    assert_eq!(r.rejects, b"1. E13xF16:\n*\n\n\n");
}

#[test]
fn what_follows_a_mate_on_its_line_is_the_next_game() {
    let r = run("1. E7-E13# 2 E21-E15");
    assert_eq!((r.report.games_written, r.report.games_rejected), (1, 1));
    assert_eq!(r.rejects, b"2 E21-E15");
}

#[test]
fn invalid_utf8_before_a_tag_is_charged_to_a_game_of_its_own() {
    let r = run_with(
        Filter::default(),
        b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n\xFF[Variant \"C'escacs\"]\n1. F8-F12:\n*\n",
    );
    assert_eq!((r.report.games_written, r.report.games_rejected), (2, 1));
    assert_eq!(r.rejects, b"\xFF");
    assert!(r.errors[0].2.starts_with("invalid UTF-8: byte 0xFF"));
}

// ───────────────────────────── tags ─────────────────────────────

/// A game of four tags, the third of them `bad`, then a game after it.
fn with_bad_third_tag(bad: &str) -> (String, String) {
    let game = format!(
        "[Variant \"C'escacs\"]\n[Event \"CG\"]\n{bad}\n[Black \"Sasal, Cesc\"]\n\n1. E7-E13:\n*\n\n"
    );
    let after = "[Variant \"C'escacs\"]\n[Event \"after\"]\n\n1. F8-F12:\n*\n".to_string();
    (game, after)
}

#[test]
fn a_bad_tag_line_inside_a_tag_section_rejects_that_game_whole() {
    for bad in [
        r#"[White "Ros, "Xus"]"#,
        "[White Ros]",
        "[White \u{201C}Ros\u{201D}]",
        r#"[White "Ros""#,
        r#"[Wh-ite "Ros"]"#,
        r#"[White "Ros" { a brace ( in it"#,
    ] {
        let (game, after) = with_bad_third_tag(bad);
        let r = run(&(game.clone() + &after));
        assert_eq!(
            (r.report.games_read, r.report.games_rejected),
            (2, 1),
            "{bad}: {:?}",
            r.errors
        );
        assert_eq!(r.rejects, game.as_bytes(), "{bad}");
        assert_eq!(r.errors.len(), 1, "{bad}: {:?}", r.errors);
        assert_eq!(
            r.errors[0].0, 3,
            "{bad}: the error is on the bad tag's line"
        );
        assert_eq!(
            r.out,
            run(&after).out,
            "{bad}: the game after is written whole"
        );
    }
}

#[test]
fn a_bad_tag_line_with_a_latin1_byte_rejects_that_game_whole() {
    let (game, after) = with_bad_third_tag("[White \"Fran\u{E7}ois\"]");
    let game = game.replace('\u{E7}', "\u{1}").into_bytes();
    let game: Vec<u8> = game
        .iter()
        .map(|&b| if b == 1 { 0xE7 } else { b })
        .collect();
    let input = [game.as_slice(), after.as_bytes()].concat();
    let r = run_with(Filter::default(), &input);
    assert_eq!(
        (r.report.games_read, r.report.games_rejected),
        (2, 1),
        "{:?}",
        r.errors
    );
    assert_eq!(r.rejects, game);
    assert!(r.errors[0].2.contains("Latin-1"), "{:?}", r.errors);
}

#[test]
fn a_bad_first_tag_after_a_game_starts_the_next_game() {
    let first = "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15\n\n";
    let bad = "[Event CG]\n[Variant \"C'escacs\"]\n\n1. F8-F12:\n*\n";
    let r = run(&(first.to_string() + bad));
    assert_eq!(
        (r.report.games_read, r.report.games_rejected),
        (2, 1),
        "{:?}",
        r.errors
    );
    assert_eq!(r.rejects, bad.as_bytes());
}

// ───────────────────────────── comments ─────────────────────────────

/// A game whose comment quotes another, tags and all.
const QUOTING: &str = "[Variant \"C'escacs\"]\n[Event \"quoting\"]\n\n1. E7-E13, E21-E15\n\
    { the same as in this game:\n[Variant \"C'escacs\"]\n[Event \"quoted\"]\n\n1. E7-E13:\n*\n}\n\
    2. F8-F12:\n*\n";

#[test]
fn a_comment_runs_to_the_next_closing_brace_whatever_it_quotes() {
    let r = run(QUOTING);
    assert_eq!((r.report.games_read, r.report.games_written), (1, 1));
    assert!(!r.out.contains("quoted"), "{}", r.out);
    assert!(r.out.contains("2. F8-F12:"), "{}", r.out);
}

#[test]
fn a_comment_never_closed_is_an_error_at_its_brace_and_the_games_it_swallowed_come_out() {
    let input = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n{ never closed\n\n[Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
    let r = run(input);
    assert_eq!((r.report.games_written, r.report.games_rejected), (1, 1));
    assert_eq!(
        r.errors[0],
        (4, 1, "comment not closed: } is missing".into())
    );
    assert!(r.out.contains("1. F8-F12:"), "{}", r.out);
    // The game with the comment ends where the game inside it starts.
    assert_eq!(
        r.rejects,
        b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n{ never closed\n\n"
    );
}

#[test]
fn a_comment_never_closed_keeps_the_blanks_before_the_tag_it_swallowed() {
    let input = "{ never closed\n  [Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
    let r = run(input);
    assert_eq!((r.report.games_written, r.report.games_rejected), (1, 1));
    // As between any two games, the blanks go with the game before the tag.
    assert_eq!(r.rejects, b"{ never closed\n  ");
    assert_eq!(all_games(input.as_bytes()), input.as_bytes());
}

#[test]
fn a_comment_never_closed_with_no_game_inside_runs_to_the_end() {
    let input = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n{ never closed\n1. F8-F12:\n";
    let r = run(input);
    assert_eq!((r.report.games_written, r.report.games_rejected), (0, 1));
    assert_eq!(r.rejects, input.as_bytes());
}

// ───────────────────────────── --jobs ─────────────────────────────

fn parallel(input: &[u8], chunk: usize) -> Run {
    let (mut out, mut rejects, mut errors) = (Vec::new(), Vec::new(), Vec::new());
    let report = run_parallel(
        &Filter::default,
        input,
        2,
        chunk,
        &mut out,
        Some(&mut rejects),
        &mut |d: &Diagnostic| errors.push((d.line, d.column, d.message.clone())),
    )
    .unwrap();
    Run {
        out: String::from_utf8(out).unwrap(),
        rejects,
        errors,
        report,
    }
}

/// Inputs whose `[Variant "` lines do not all start games.
fn tricky() -> Vec<String> {
    let good = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
    vec![
        format!("{good}{QUOTING}{good}"),
        // A tag section that the next Variant line continues.
        format!("[Variant \"C'escacs\"]\n[Variant \"C'escacs\"]\n1. E7-E13:\n{good}"),
        // A Variant line that is no tag, after a finished game.
        format!("{good}[Variant \"C'escacs\" oops\n1. F8-F12:\n*\n{good}"),
        // A comment never closed, quoting games.
        format!("{good}{{ never closed\n{good}{good}\n{good}"),
        // A variation never closed.
        format!("{good}[Variant \"C'escacs\"]\n1. E7-E13 (1. F8-F12\n{good}{good}"),
    ]
}

#[test]
fn jobs_write_what_one_thread_writes_where_comments_quote_games() {
    for input in tricky() {
        let one = run(&input);
        for chunk in [1, 7, 30, 64, 1000] {
            assert_eq!(parallel(input.as_bytes(), chunk), one, "{chunk}: {input}");
        }
    }
}

/// A comment whose text holds a line that starts a game, then a byte not
/// UTF-8, then its `}`: the text after that line waits to be checked in
/// case the comment is never closed and it must be read again.
fn comment_with_a_game_line_then_a_bad_byte(filler_lines: usize) -> Vec<u8> {
    let mut input = b"[Variant \"C'escacs\"]\n1. E7-E13 {\n[Event \"x\"]\n".to_vec();
    input.extend(b"a comment line\n".repeat(filler_lines));
    input.extend(b"\xFF}\n2. F8-F12:\n*\n");
    input
}

#[test]
fn a_byte_not_utf8_in_a_comment_that_closes_after_a_game_line_is_its_error() {
    // Long enough that the comment leaves the reader's buffer before it
    // closes, and short.
    for filler in [0, 40_000] {
        let input = comment_with_a_game_line_then_a_bad_byte(filler);
        let r = run_with(Filter::default(), &input);
        assert_eq!(r.report.games_rejected, 1, "{filler}: {:?}", r.errors);
        let (line, column, message) = &r.errors[0];
        assert!(message.starts_with("invalid UTF-8: byte 0xFF"), "{message}");
        assert_eq!((*line, *column), (filler as u64 + 4, 1));
    }
}

#[test]
fn jobs_write_what_one_thread_writes_where_a_comment_closes_after_a_game_line_and_a_bad_byte() {
    for input in [
        comment_with_a_game_line_then_a_bad_byte(3),
        b"{\n[e\"\"]\n\xFF}\n".to_vec(),
    ] {
        let one = run_with(Filter::default(), &input);
        for chunk in [1, 2, 5, 30] {
            assert_eq!(parallel(&input, chunk), one, "{chunk}");
        }
    }
}

#[test]
fn jobs_write_what_one_thread_writes_on_many_tricky_games_in_small_chunks() {
    let input = tricky().concat().repeat(20);
    let one = run(&input);
    for chunk in [1, 100, 500, 4096] {
        assert_eq!(parallel(input.as_bytes(), chunk), one, "{chunk}");
    }
}

#[test]
fn jobs_write_what_one_thread_writes_on_every_corpus_file_in_tiny_chunks() {
    for path in corpus_files() {
        let input = std::fs::read(&path).unwrap();
        let one = run_with(Filter::default(), &input);
        for chunk in [1, 13, 97] {
            assert_eq!(
                parallel(&input, chunk),
                one,
                "{} in chunks of {chunk}",
                path.display()
            );
        }
    }
}

// ───────────────────────────── --cut ─────────────────────────────

/// The pieces `cut_at_games` makes of `input`, at least `size` bytes each.
fn pieces(input: &[u8], size: u64) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let cuts = ctlpgn_filter::cut_at_games(FilterBuilder::new(), input, &mut out, size).unwrap();
    let pieces: Vec<Vec<u8>> = if out.is_empty() {
        Vec::new()
    } else {
        out.split(|&b| b == 0).map(<[u8]>::to_vec).collect()
    };
    assert_eq!(cuts.pieces as usize, pieces.len());
    pieces
}

/// Notes where each game starts.
struct Starts(std::sync::Arc<std::sync::Mutex<Vec<u64>>>);

impl Pass for Starts {
    fn name(&self) -> &'static str {
        "starts"
    }
    fn interest(&self, _cx: &Context) -> ctlpgn_filter::Interest {
        ctlpgn_filter::Interest::NONE
    }
    fn begin_game(&mut self, cx: &mut Context) {
        self.0.lock().unwrap().push(cx.game_start.offset);
    }
}

/// Each game of `input`'s bytes, as the reader reads them: from its first
/// byte to the next game's.
fn games_of(input: &[u8]) -> Vec<Vec<u8>> {
    let starts = std::sync::Arc::default();
    let filter = FilterBuilder::new()
        .pass(Box::new(Starts(std::sync::Arc::clone(&starts))))
        .build();
    run_with(filter, input);
    let mut starts = starts.lock().unwrap().clone();
    starts.push(input.len() as u64);
    starts
        .windows(2)
        .map(|w| input[w[0] as usize..w[1] as usize].to_vec())
        .collect()
}

/// Filtering each piece apart, outputs and rejects concatenated, counts added.
fn filtered_apart(pieces: &[Vec<u8>]) -> (String, Vec<u8>, Report) {
    let (mut out, mut rejects, mut report) = (String::new(), Vec::new(), Report::default());
    for p in pieces {
        let run = run_with(Filter::default(), p);
        out += &run.out;
        rejects.extend_from_slice(&run.rejects);
        report.add(&run.report);
    }
    (out, rejects, report)
}

#[test]
fn the_pieces_of_a_cut_are_the_input_but_its_leading_blanks() {
    for input in tricky() {
        for size in [1, 40, 1 << 20] {
            assert_eq!(
                pieces(input.as_bytes(), size).concat(),
                after_leading_blanks(input.as_bytes()),
                "{size}: {input}"
            );
        }
    }
}

#[test]
fn a_cut_is_never_inside_a_comment_that_quotes_games() {
    let good = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
    let input = format!("{good}{QUOTING}{good}");
    let pieces = pieces(input.as_bytes(), 1);
    assert_eq!(pieces.len(), 3);
    assert!(String::from_utf8_lossy(&pieces[1]).contains(QUOTING.trim_start()));
}

#[test]
fn filtering_the_pieces_apart_is_filtering_the_whole_on_every_corpus_file() {
    for path in corpus_files() {
        let input = std::fs::read(&path).unwrap();
        if input.contains(&0) {
            continue; // binary: refused, below
        }
        let whole = run_with(Filter::default(), &input);
        for size in [1, 200] {
            let (out, rejects, report) = filtered_apart(&pieces(&input, size));
            assert_eq!(out, whole.out, "{} cut at {size}", path.display());
            assert_eq!(rejects, whole.rejects, "{} cut at {size}", path.display());
            assert_eq!(report, whole.report, "{} cut at {size}", path.display());
        }
    }
}

#[test]
fn filtering_the_pieces_apart_is_filtering_the_whole_on_tricky_inputs() {
    let input = tricky().concat().repeat(5);
    let whole = run(&input);
    for size in [1, 100, 1000] {
        let (out, rejects, report) = filtered_apart(&pieces(input.as_bytes(), size));
        assert_eq!(
            (out, rejects, report),
            (whole.out.clone(), whole.rejects.clone(), whole.report)
        );
    }
}

/// Found by fuzzing: a variation never closed after a game's end marker is
/// skipped to its `)` when dropped, read token by token when kept, and the
/// two end the broken game at different places; the cut follows the filter.
#[test]
fn a_cut_follows_how_the_filter_reads_a_broken_game() {
    let input = b"[Variant \"C'escacs\"]\n\n1. E7-E13:(file\"]\n\n1. F8-F12:\n*\n{ never closed\n";
    for keep in [false, true] {
        let builder = || FilterBuilder::new().keep_variations(keep);
        let mut cut = Vec::new();
        ctlpgn_filter::cut_at_games(builder(), &input[..], &mut cut, 1).unwrap();
        let whole = run_with(builder().build(), input);
        let (mut out, mut rejects) = (String::new(), Vec::new());
        for piece in cut.split(|&b| b == 0) {
            let run = run_with(builder().build(), piece);
            out += &run.out;
            rejects.extend_from_slice(&run.rejects);
        }
        assert_eq!((out, rejects), (whole.out, whole.rejects), "keep: {keep}");
    }
}

#[test]
fn input_holding_a_nul_byte_is_not_cut() {
    let input = b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n{\0}\n";
    let err = ctlpgn_filter::cut_at_games(FilterBuilder::new(), &input[..], &mut Vec::new(), 1)
        .unwrap_err();
    assert!(err.to_string().contains("NUL byte"), "{err}");
}

// ───────────────────────────── games left out ─────────────────────────────

/// With games left out (`--dedup`, `--tag`, `--plies`, `--reaches`), on one
/// thread and on two: every game is written, rejected (its bytes in the
/// rejects), a duplicate (its bytes in the duplicates) or left out by a
/// selection; none twice, none lost: read = written + rejected + left out.
#[test]
fn every_game_is_written_rejected_or_left_out_and_the_sinks_hold_their_bytes() {
    use ctlpgn_filter::{run_parallel_into, Origin, Sinks, TagPattern};
    let mut input = Vec::new();
    for path in corpus_files() {
        let bytes = std::fs::read(&path).unwrap();
        if !bytes.contains(&0) {
            input.extend_from_slice(&bytes);
        }
    }
    input.extend_from_slice(tricky().concat().as_bytes());
    let input = input.repeat(2);
    let build = || {
        FilterBuilder::new()
            .dedup(true)
            .select_tag(TagPattern::parse("Variant=*").unwrap())
            .plies(2..=300)
            .build()
    };
    let games = games_of(&input);
    for jobs in [1, 2] {
        let (mut out, mut rejects, mut duplicates) = (Vec::new(), Vec::new(), Vec::new());
        let sinks = Sinks {
            out: &mut out,
            rejects: Some(&mut rejects),
            duplicates: Some(&mut duplicates),
            on_diagnostic: &mut |_| {},
        };
        let report = if jobs == 1 {
            build().run_into(Origin::START, &input[..], sinks).unwrap()
        } else {
            run_parallel_into(&build, &input[..], 2, 50, sinks).unwrap()
        };
        let left = report.left_out;
        assert_eq!(
            report.games_read,
            report.games_written + report.games_rejected + left.total()
        );
        assert_eq!(report.games_read as usize, games.len());
        assert!(
            left.duplicates > 0 && left.tag > 0 && left.plies > 0,
            "{report:?}"
        );
        // Each game, in order: in the rejects, in the duplicates, or neither.
        let (mut r, mut d, mut neither) = (&rejects[..], &duplicates[..], 0);
        let (mut in_rejects, mut in_duplicates) = (0, 0);
        for game in &games {
            let rejected_alone = Filter::default().filter_bytes(game).2.games_rejected == 1;
            if rejected_alone {
                r = r
                    .strip_prefix(&game[..])
                    .expect("a rejected game in the rejects, as read");
                in_rejects += 1;
            } else if let Some(rest) = d.strip_prefix(&game[..]) {
                d = rest;
                in_duplicates += 1;
            } else {
                neither += 1;
            }
        }
        assert!(r.is_empty() && d.is_empty(), "jobs {jobs}: bytes left over");
        assert_eq!(in_rejects, report.games_rejected);
        assert_eq!(in_duplicates, left.duplicates);
        assert_eq!(
            neither,
            report.games_written + left.total() - left.duplicates
        );
    }
}
