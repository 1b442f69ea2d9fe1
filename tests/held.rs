//! A game's output is held until its verdict, in memory up to a bound and
//! in a temporary file past it: where it is held changes no byte written.

mod support;

use ctlpgn_filter::{Context, FilterBuilder, Flow, Format, Interest, Pass};
use support::corpus_files;

/// Comments and variations kept, in `format`, variations split or not.
fn keeping(format: Format, split: bool) -> FilterBuilder {
    FilterBuilder::new()
        .keep_comments(true)
        .keep_variations(!split)
        .split_variations(split)
        .format(format)
}

/// What `builder` writes of `input`, and the rejects.
fn filtered(builder: FilterBuilder, input: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let (mut out, mut rejects) = (Vec::new(), Vec::new());
    builder
        .build()
        .run_with_rejects(input, &mut out, Some(&mut rejects), &mut |_| {})
        .unwrap();
    (out, rejects)
}

#[test]
fn each_corpus_file_comes_out_the_same_when_every_game_is_held_in_a_temporary_file() {
    for path in corpus_files() {
        let input = std::fs::read(&path).unwrap();
        for (format, split) in [
            (Format::CtlPgn, false),
            (Format::CtlPgn, true),
            (Format::Ndjson, false),
            (Format::Ndjson, true),
        ] {
            let held = filtered(keeping(format, split), &input);
            let spilled = filtered(keeping(format, split).held_bytes(1), &input);
            assert!(
                held == spilled,
                "{}, {format:?}, split {split}: written otherwise when spilled",
                path.display()
            );
        }
    }
}

/// A game whose comments (on the main line, in a variation nested in
/// another, after the result) each run over many buffers of the reader.
fn long_comments(lines: usize) -> Vec<u8> {
    let text: String = (0..lines)
        .map(|i| format!("line {i}: \"quoted\" \\ and a tab\there\r\n"))
        .collect();
    format!(
        "[Variant \"C'escacs\"]\n1. E7-E13 {{{text}}} (1. F8-F12 {{{text}}} (1. G7-G13 {{{text}}}) {{{text}}}), E21-E15:\n*\n{{{text}}}\n\
         [Variant \"C'escacs\"]\n1. E7-E13:\n*\n"
    )
    .into_bytes()
}

#[test]
fn comments_longer_than_the_reader_s_buffer_come_out_the_same_whatever_is_held_in_memory() {
    let input = long_comments(20_000);
    for (format, split) in [
        (Format::CtlPgn, false),
        (Format::CtlPgn, true),
        (Format::Ndjson, false),
    ] {
        let held = filtered(keeping(format, split).held_bytes(usize::MAX), &input);
        assert!(
            held.0.len() > 4 * input.len() / 5,
            "{format:?}: the comments are written"
        );
        for bound in [1, 1000, 100_000] {
            let spilled = filtered(keeping(format, split).held_bytes(bound), &input);
            assert!(
                held == spilled,
                "{format:?}, split {split}, {bound} bytes held: written otherwise"
            );
        }
    }
}

#[test]
fn a_comment_never_closed_rejects_its_game_whole_however_long_it_is() {
    let mut input = long_comments(20_000);
    // The last comment, after the result, is never closed: the game ends
    // at the tag that follows it.
    let close = input.iter().rposition(|&b| b == b'}').unwrap();
    input.remove(close);
    let game_end = input.len() - "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n".len();
    for format in [Format::CtlPgn, Format::Ndjson] {
        let (out, rejects) = filtered(keeping(format, false).held_bytes(1000), &input);
        assert_eq!(rejects, &input[..game_end], "{format:?}");
        // The next game alone is written (ndjson names its line: one object).
        let (next, _) = filtered(keeping(format, false), &input[game_end..]);
        if format == Format::CtlPgn {
            assert_eq!(out, next);
        } else {
            assert_eq!(out.iter().filter(|&&b| b == b'\n').count(), 1);
        }
        assert!(!out.windows(6).any(|w| w == b"quoted"), "{format:?}");
    }
}

/// Counts the comments handed to it, and keeps the longest.
#[derive(Default)]
struct Longest(std::sync::Arc<std::sync::Mutex<(usize, Vec<u8>)>>);

impl Pass for Longest {
    fn name(&self) -> &'static str {
        "longest"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::COMMENTS
    }

    fn comment(&mut self, text: &mut [u8], _cx: &mut Context) -> Flow {
        let mut seen = self.0.lock().unwrap();
        seen.0 += 1;
        if text.len() > seen.1.len() {
            seen.1 = text.to_vec();
        }
        Flow::Keep
    }
}

#[test]
fn a_pass_that_asks_for_comments_is_handed_each_whole_and_the_output_is_the_same() {
    let input = long_comments(20_000);
    let pass = Longest::default();
    let seen = pass.0.clone();
    let with_pass = filtered(keeping(Format::CtlPgn, false).pass(Box::new(pass)), &input);
    let (count, longest) = seen.lock().unwrap().clone();
    assert_eq!(count, 5);
    // Its line ends `\n`, as written.
    let expected: String = (0..20_000)
        .map(|i| format!("line {i}: \"quoted\" \\ and a tab\there\n"))
        .collect();
    assert!(
        longest == expected.as_bytes(),
        "a comment was handed in pieces"
    );
    assert!(with_pass == filtered(keeping(Format::CtlPgn, false), &input));
}
