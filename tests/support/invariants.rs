//! The reader's core invariants, stated once: the fast fuzz target
//! (`fuzz/fuzz_targets/core_invariants.rs`) checks them on every input it
//! makes, and `tests/fuzz_corpus.rs` on the seed and regression corpora,
//! under a plain `cargo test`. Included by `#[path]` in both.
//!
//! For any bytes, with the default options:
//!
//! - no panic, and every game read is written or rejected;
//! - every input byte belongs to exactly one game or to the blank space
//!   before the first: with every game rejected, the rejects are the input
//!   but that blank space, in as many games as the plain run reads;
//! - `--jobs 2` in chunks of a few bytes gives one thread's output,
//!   rejects, diagnostics and counts;
//! - the output is a fixed point: filtering it again gives it back.
//!
//! Each input is checked as it comes, and its first bytes as the recipe
//! for a text of the grammar's tokens (`grammar_soup`): byte mutations
//! rarely build a tag glued to a folded move or a join of two games.
//!
//! Kept cheap on purpose (four runs of the filter, no option sets): the
//! battery target `fuzz/fuzz_targets/filter.rs` checks the rest, slowly.

use ctlpgn_filter::{run_parallel_into, Context, Diagnostic, FilterBuilder, Pass, Report, Sinks};
use unicode_normalization::UnicodeNormalization;

#[path = "../../fuzz/fuzz_targets/soup.rs"]
pub mod soup;

/// The chunk sizes `--jobs 2` is tried at on `data`: one byte, where every
/// place is a chunk's edge and nearly every game is read again on the
/// merger, and a third of it, where the workers write whole games.
fn chunks(data: &[u8]) -> [usize; 2] {
    [1, 1 + data.len() / 3]
}

/// What a run made of an input: output, rejects, diagnostics, counts.
type Run = (Vec<u8>, Vec<u8>, Vec<Diagnostic>, Report);

/// Rejects every game: the rejects then hold all of them.
struct RejectAll;

impl Pass for RejectAll {
    fn name(&self) -> &'static str {
        "reject-all"
    }
    fn begin_game(&mut self, cx: &mut Context) {
        cx.error(cx.game_start, "rejected");
    }
}

/// `data` filtered by `builder`'s filter on one thread.
fn one_thread(builder: FilterBuilder, data: &[u8]) -> Run {
    let (mut out, mut rejects, mut diagnostics) = (Vec::new(), Vec::new(), Vec::new());
    let report = builder
        .build()
        .run_with_rejects(data, &mut out, Some(&mut rejects), &mut |d| {
            diagnostics.push(d.clone())
        })
        .expect("memory does not fail");
    (out, rejects, diagnostics, report)
}

/// `data` filtered with the default options on two threads, in chunks of
/// `chunk` bytes.
fn two_threads(data: &[u8], chunk: usize) -> Run {
    let (mut out, mut rejects, mut diagnostics) = (Vec::new(), Vec::new(), Vec::new());
    let sinks = Sinks {
        out: &mut out,
        rejects: Some(&mut rejects),
        duplicates: None,
        on_diagnostic: &mut |d| diagnostics.push(d.clone()),
    };
    let make = || FilterBuilder::new().build();
    let report = run_parallel_into(&make, data, 2, chunk, sinks).expect("memory does not fail");
    (out, rejects, diagnostics, report)
}

/// How many bytes the blank space before the first game takes: blanks,
/// line ends, byte order marks, and the characters NFKC folds to spaces
/// (no-break, ideographic, em and narrow spaces), which the reader folds as
/// it folds full-width text.
pub fn leading_blanks(data: &[u8]) -> usize {
    let mut i = 0;
    loop {
        let rest = &data[i..];
        i += match rest {
            [b' ' | b'\t' | b'\r' | b'\n' | 0x0B | 0x0C, ..] => 1,
            [0xEF, 0xBB, 0xBF, ..] => 3,
            _ => match rest[..rest.len().min(4)].utf8_chunks().next() {
                Some(c) => match c.valid().chars().next() {
                    Some(c) if std::iter::once(c).nfkc().all(|f| f == ' ') => c.len_utf8(),
                    _ => return i,
                },
                None => return i,
            },
        };
    }
}

/// How many of an input's first bytes are read as a grammar recipe: about
/// 500 bytes of text, a few games. Each byte makes several of text, and
/// the cost of a check grows with the text (the `--jobs` run in chunks of
/// one byte most).
const SOUP_BYTES: usize = 64;

/// Panics, saying which, where `data` or its grammar soup breaks an
/// invariant.
pub fn hold(data: &[u8]) {
    hold_on(data);
    hold_on(&soup::grammar_soup(&data[..data.len().min(SOUP_BYTES)]));
}

/// The invariants on `data` as it is.
fn hold_on(data: &[u8]) {
    let one = one_thread(FilterBuilder::new(), data);
    let (out, _, _, report) = &one;
    assert_eq!(
        report.games_read,
        report.games_written + report.games_rejected,
        "a game neither written nor rejected"
    );

    let (_, every_game, _, all) = one_thread(FilterBuilder::new().pass(Box::new(RejectAll)), data);
    assert!(
        every_game == data[leading_blanks(data)..],
        "the games are not the input but its leading blanks"
    );
    assert_eq!(
        all.games_read, report.games_read,
        "rejecting every game read other games"
    );

    for chunk in chunks(data) {
        assert!(
            two_threads(data, chunk) == one,
            "--jobs 2 in chunks of {chunk} differs from one thread"
        );
    }

    let (again, _, _, _) = one_thread(FilterBuilder::new(), out);
    assert!(&again == out, "the output is not a fixed point");
}
