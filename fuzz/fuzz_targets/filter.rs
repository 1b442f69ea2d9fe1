//! Any bytes in, with the default passes and with every drop pass off:
//!
//! - no panic, and every game read is written or rejected;
//! - whatever is written is canonical (filtering it again changes nothing);
//! - every input byte belongs to exactly one game or to the blank space
//!   before the first: with every game rejected, the rejects are the input
//!   but that blank space;
//! - what the passes do not ask for changes nothing (a pass that takes
//!   every item in the chain gives the same output, diagnostics, counts);
//! - `--jobs` changes nothing: on two threads, in chunks of a few bytes,
//!   the output, rejects, diagnostics and counts are one thread's.
#![no_main]

use ctlpgn_filter::{run_parallel, Context, Diagnostic, FilterBuilder, Pass, Report};
use libfuzzer_sys::fuzz_target;

/// Changes nothing, and takes every item.
struct Unchanged;

impl Pass for Unchanged {
    fn name(&self) -> &'static str {
        "unchanged"
    }
}

/// Rejects every game.
struct RejectAll;

impl Pass for RejectAll {
    fn name(&self) -> &'static str {
        "reject-all"
    }
    fn begin_game(&mut self, cx: &mut Context) {
        cx.error(1, 1, "rejected");
    }
}

type Run = (Vec<u8>, Vec<u8>, Vec<Diagnostic>, Report);

/// How many bytes the blank space before the first game takes: blanks,
/// line ends, no-break spaces and byte order marks.
fn leading_blanks(data: &[u8]) -> usize {
    let mut i = 0;
    loop {
        let rest = &data[i..];
        i += match rest {
            [b' ' | b'\t' | b'\r' | b'\n' | 0x0B | 0x0C, ..] => 1,
            [0xC2, 0xA0, ..] => 2,
            [0xEF, 0xBB, 0xBF, ..] => 3,
            _ => return i,
        };
    }
}

fn run(builder: FilterBuilder, data: &[u8]) -> Run {
    let (mut out, mut rejects, mut diagnostics) = (Vec::new(), Vec::new(), Vec::new());
    let report = builder
        .build()
        .run_with_rejects(data, &mut out, Some(&mut rejects), &mut |d| {
            diagnostics.push(d.clone())
        })
        .expect("memory does not fail");
    (out, rejects, diagnostics, report)
}

fuzz_target!(|data: &[u8]| {
    for keep in [false, true] {
        let builder = move || {
            FilterBuilder::new()
                .keep_comments(keep)
                .keep_variations(keep)
                .keep_ratings(keep)
        };
        let one = run(builder(), data);
        let (out, _, _, report) = &one;
        assert_eq!(
            report.games_read,
            report.games_written + report.games_rejected
        );

        let (again, _, _, second) = run(builder(), out);
        assert_eq!(
            second.games_rejected,
            0,
            "output rejected: {:?}",
            String::from_utf8_lossy(out)
        );
        assert_eq!(
            &again,
            out,
            "not a fixed point: {:?}",
            String::from_utf8_lossy(out)
        );

        let (_, every_game, _, all) = run(builder().pass(Box::new(RejectAll)), data);
        let games = &data[leading_blanks(data)..];
        assert_eq!(every_game, games, "the games are not the input");
        assert_eq!(all.games_read, report.games_read);

        let taking_all = run(builder().pass(Box::new(Unchanged)), data);
        assert_eq!(taking_all, one, "a pass that takes everything changed the run");

        for chunk in [1, 1 + data.len() / 3] {
            let (mut out, mut rejects, mut diagnostics) = (Vec::new(), Vec::new(), Vec::new());
            let make = move || builder().build();
            let report = run_parallel(
                &make,
                data,
                2,
                chunk,
                &mut out,
                Some(&mut rejects),
                &mut |d| diagnostics.push(d.clone()),
            )
            .expect("memory does not fail");
            assert!(
                (out, rejects, diagnostics, report) == one,
                "--jobs 2 in chunks of {chunk} differs"
            );
        }
    }
});
