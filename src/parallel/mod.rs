//! Filtering on several threads, byte for byte as on one.
//!
//! The input is cut into chunks before lines that start `[Variant "`
//! (or, where none comes soon enough, any line, or inside a line too long):
//! places where a game usually starts, but not always (the line may be
//! quoted inside a comment, or follow a tag section it belongs to). Each
//! chunk is read on a worker by a reader that starts there afresh, and
//! that reads on into the next chunk's first line to learn whether a game
//! really starts there ([`Until::Boundary`]). Where one does, the chunk's
//! games are exactly those of a reader over the whole input; where none
//! does, the reader stops short of the game it is in, and that game is
//! read again, here, by one reader from its first byte across as many
//! chunks as it takes to reach a chunk whose start is a game's.
//!
//! What depends on the games before (`--dedup`, `--stop-after`) is decided
//! here, in input order: a worker writes each game as if let through and
//! notes where each game's part of its output starts; the merger asks the
//! run's ledger of each game in turn, and leaves the duplicates' parts
//! out (`src/passes/ledger.rs`).
//!
//! Diagnostics do not wait for their chunk's end: a worker hands each on
//! as it comes ([`Mailbox`]), and the merger takes those of the chunk
//! whose turn it is as they come, in input order. A chunk's queue is
//! bounded: a worker whose chunk's turn has not come waits when its queue
//! is full, so that messages cost memory only while they wait their turn,
//! however many a chunk has (whether they are shown is the caller's
//! business: its callback gets every one, in order).
//!
//! [`Until::Boundary`]: crate::read::Until::Boundary

mod again;
mod chunk;
mod mailbox;
mod merger;
mod worker;

use crate::diag::Diagnostic;
use crate::read::Sinks;
use crate::report::Report;
use crate::stages::Filter;
use chunk::{Chunk, Chunker};
use mailbox::Mailbox;
use merger::{Merger, Ordered, Store};
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::panic::AssertUnwindSafe;
use std::sync::{mpsc, Arc, Mutex};
use worker::{work, Keep};

/// The most worker threads [`run_parallel`] starts.
pub(crate) const MAX_JOBS: usize = 1024;

/// Filters `input` on `jobs` threads (at most 1024: more are
/// taken as that many), each with a filter from `make`, and writes output,
/// rejects and diagnostics in input order: the same bytes, diagnostics and
/// counts as one thread. Memory is bounded by a few chunks of up to
/// `2 × chunk_size` bytes per thread, whatever the input, and what one
/// thread takes to read a game (a game read again is read as on one
/// thread, straight to the sinks). A worker's panic is raised here once
/// the other workers end. A thread that
/// cannot be started is an error, before anything is read.
///
/// ```
/// use ctlpgn_filter::{run_parallel, Filter};
/// // The second game quotes a third in its comment: no chunk starts there.
/// let input = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n{ quoted:\n[Variant \"C'escacs\"]\n1. F8-F12:\n}\n"
///     .repeat(50);
/// let (mut one, mut two) = (Vec::new(), Vec::new());
/// Filter::default().run(input.as_bytes(), &mut one, &mut |_| {}).unwrap();
/// let report = run_parallel(&Filter::default, input.as_bytes(), 2, 64, &mut two, None, &mut |_| {})
///     .unwrap();
/// assert_eq!(one, two);
/// assert_eq!(report.games_written, 50);
/// ```
pub fn run_parallel<'a>(
    make: &'a (dyn Fn() -> Filter + Sync),
    input: impl Read,
    jobs: usize,
    chunk_size: usize,
    out: &'a mut dyn Write,
    rejects: Option<&'a mut dyn Write>,
    on_diagnostic: &'a mut dyn FnMut(&Diagnostic),
) -> io::Result<Report> {
    let sinks = Sinks {
        out,
        rejects,
        duplicates: None,
        on_diagnostic,
    };
    run_parallel_into(make, input, jobs, chunk_size, sinks)
}

/// [`run_parallel`] into [`Sinks`], duplicates included. What depends on
/// the games before (`dedup`, `stop_after`) is decided on this thread, in
/// input order, with a filter from `make` (give every filter it makes the
/// same [`crate::Ledger`] to carry it from one input to the next): the
/// bytes, diagnostics and counts are still one thread's.
///
/// ```
/// use ctlpgn_filter::{run_parallel_into, FilterBuilder, Sinks};
/// let input = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n[Variant \"C'escacs\"]\n1. F8-F12:\n*\n".repeat(20);
/// let (mut out, mut duplicates) = (Vec::new(), Vec::new());
/// let make = || FilterBuilder::new().dedup(true).build();
/// let sinks = Sinks {
///     out: &mut out,
///     rejects: None,
///     duplicates: Some(&mut duplicates),
///     on_diagnostic: &mut |_| {},
/// };
/// let report = run_parallel_into(&make, input.as_bytes(), 2, 64, sinks).unwrap();
/// assert_eq!((report.games_written, report.left_out.duplicates), (2, 38));
/// assert_eq!(duplicates.len(), input.len() - input.len() / 20);
/// ```
pub fn run_parallel_into<'a>(
    make: &'a (dyn Fn() -> Filter + Sync),
    input: impl Read,
    jobs: usize,
    chunk_size: usize,
    sinks: Sinks<'a>,
) -> io::Result<Report> {
    let jobs = jobs.clamp(1, MAX_JOBS);
    let decider = make();
    if decider.stages.gate.closed() {
        return Ok(Report::default());
    }
    let keep = Keep {
        rejects: sinks.rejects.is_some(),
        duplicates: sinks.duplicates.is_some(),
    };
    // Room for half a chunk of messages: a chunk of games with a few
    // warnings each is read without waiting its turn.
    let mailbox = Arc::new(Mailbox::new((chunk_size / 2).max(1 << 18)));
    std::thread::scope(|scope| {
        // Unbounded: the merger never waits to hand a chunk over, while
        // the workers wait for it to take their messages.
        let (work_tx, work_rx) = mpsc::channel::<Arc<Chunk>>();
        let work_rx = Arc::new(Mutex::new(work_rx));
        for started in 0..jobs {
            let work_rx = Arc::clone(&work_rx);
            let mailbox = Arc::clone(&mailbox);
            let spawned = std::thread::Builder::new()
                .spawn_scoped(scope, move || work(make, work_rx, mailbox, keep));
            if let Err(e) = spawned {
                // Nothing read yet; the workers started end as `work_tx` drops.
                let why = e.to_string();
                let why = why.split(" (os error").next().unwrap_or_default();
                let n = started + 1;
                return Err(io::Error::new(
                    e.kind(),
                    format!(
                        "cannot start worker thread {n} of {jobs}: {why}: ask for fewer threads"
                    ),
                ));
            }
        }
        let mut merger = Merger {
            store: Store {
                chunker: Chunker::new(input, chunk_size),
                work_tx: Some(work_tx),
                mailbox: Arc::clone(&mailbox),
                jobs,
                produced: 0,
                eof: false,
                chunks: BTreeMap::new(),
                inline: BTreeMap::new(),
            },
            make,
            sinks: Ordered {
                sinks,
                decider,
                total: Report::default(),
            },
            window: (4 * chunk_size).max(1 << 16),
        };
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| merger.run()));
        drop(merger.store.work_tx.take());
        // The workers still reading drop what they hand on, and end.
        mailbox.drop_below(usize::MAX);
        let panic = match result {
            Ok(result) => mailbox.take_panic().map_or(Ok(result), Err),
            Err(panic) => Err(panic),
        };
        match panic {
            Ok(result) => result.map(|()| merger.sinks.total),
            // Once the workers are told to end: the scope waits for them.
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Origin;
    use crate::{FilterBuilder, Ledger};

    /// The options a test's filters are built with.
    type Options = fn(FilterBuilder) -> FilterBuilder;

    /// Output, rejects, diagnostics and counts of `input` on `jobs` threads
    /// (1: the filter's own run), with filters as `options` build them,
    /// sharing one ledger.
    fn filtered(
        options: Options,
        input: &str,
        jobs: usize,
    ) -> (Vec<u8>, Vec<u8>, Vec<String>, Report) {
        filtered_in_chunks(options, input, jobs, 64)
    }

    /// [`filtered`], in chunks of `chunk_size` bytes.
    fn filtered_in_chunks(
        options: Options,
        input: &str,
        jobs: usize,
        chunk_size: usize,
    ) -> (Vec<u8>, Vec<u8>, Vec<String>, Report) {
        let ledger = Ledger::new();
        let make = || options(FilterBuilder::new()).ledger(ledger.clone()).build();
        let (mut out, mut rejects, mut told) = (Vec::new(), Vec::new(), Vec::new());
        let sinks = Sinks {
            out: &mut out,
            rejects: Some(&mut rejects),
            duplicates: None,
            on_diagnostic: &mut |d| told.push(d.render("f")),
        };
        let report = if jobs == 1 {
            make().run_into(Origin::START, input.as_bytes(), sinks)
        } else {
            run_parallel_into(&make, input.as_bytes(), jobs, chunk_size, sinks)
        }
        .unwrap();
        (out, rejects, told, report)
    }

    #[test]
    fn more_messages_than_a_chunks_queue_holds_come_out_as_on_one_thread() {
        // No Variant line to cut at: one chunk of 5,000 warnings, then
        // chunks of a warning and an error each.
        let mut input = "1. E7-E13:\n*\n\n".repeat(5000);
        for i in 0..300 {
            input += &format!(
                "[Variant \"C'escacs\"]\n[Event \"{}\"]\n1. E7-E13\n*\n",
                i % 40
            );
            input += "[Variant \"C'escacs\"]\n1. E13xF16:\n*\n";
        }
        let runs: [(&str, Options); 3] = [
            ("plain", |b| b),
            ("dedup", |b| b.dedup(true)),
            ("stop-after", |b| b.stop_after(Some(5100))),
        ];
        for (name, options) in runs {
            let one = filtered(options, &input, 1);
            assert!(one.2.len() > 5000, "{name}");
            for jobs in [2, 3] {
                let many = filtered(options, &input, jobs);
                assert!(many.0 == one.0 && many.1 == one.1, "{name} {jobs}: output");
                assert_eq!(many.2, one.2, "{name} {jobs}: diagnostics");
                assert_eq!(many.3, one.3, "{name} {jobs}: counts");
            }
        }
    }

    #[test]
    fn blank_lines_across_chunks_before_the_first_game_or_alone_read_as_on_one_thread() {
        // A reading that meets no game reads on into the next chunk's
        // first line, and may stop past its own chunk.
        let games = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n\n".repeat(20);
        let mut inputs = Vec::new();
        for end in ["\n", "\r\n"] {
            // Over twice the default chunk size: several chunks of blanks.
            let blank = end.repeat((3 << 20) / end.len());
            inputs.push(format!("{blank}{games}"));
            inputs.push(blank);
            inputs.push(end.repeat(3));
        }
        for input in &inputs {
            let one = filtered(|b| b, input, 1);
            for chunk in [1, 2, 3, 1 << 20] {
                if input.len() > 1000 && chunk < 4 {
                    continue;
                }
                let two = filtered_in_chunks(|b| b, input, 2, chunk);
                let case = format!("{} bytes in chunks of {chunk}", input.len());
                assert!(two.0 == one.0 && two.1 == one.1, "{case}: output");
                assert_eq!(two.2, one.2, "{case}: diagnostics");
                assert_eq!(two.3, one.3, "{case}: counts");
            }
        }
        // Blank lines in chunks of a few bytes, then games.
        let input = format!("\n\r\n \n\t\n\n{}", &games[..games.len() / 4]);
        let one = filtered(|b| b, &input, 1);
        for chunk in [1, 2, 3] {
            let two = filtered_in_chunks(|b| b, &input, 2, chunk);
            assert!(two.0 == one.0 && two.3 == one.3, "chunks of {chunk}");
        }
    }

    /// Panics as the game on line 401 begins.
    struct Boom;

    impl crate::Pass for Boom {
        fn name(&self) -> &'static str {
            "boom"
        }

        fn begin_game(&mut self, cx: &mut crate::Context) {
            if cx.game_start.line == 401 {
                panic!("boom at 401");
            }
        }
    }

    #[test]
    fn a_panic_in_a_pass_ends_the_run_with_that_panic_on_a_worker_or_the_merger() {
        let input = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n\n".repeat(200);
        // In chunks of 1 byte the merger reads nearly all; of 64, the workers.
        for chunk in [1, 64, 4096] {
            let (tx, rx) = mpsc::channel();
            let input = input.clone();
            std::thread::spawn(move || {
                let make = || FilterBuilder::new().pass(Box::new(Boom)).build();
                let run = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    let (mut out, mut on_diagnostic) = (io::sink(), |_: &Diagnostic| {});
                    run_parallel(
                        &make,
                        input.as_bytes(),
                        2,
                        chunk,
                        &mut out,
                        None,
                        &mut on_diagnostic,
                    )
                }));
                let panic = run
                    .err()
                    .map(|p| p.downcast_ref::<&str>().map(|s| s.to_string()));
                tx.send(panic).unwrap();
            });
            let panic = rx
                .recv_timeout(std::time::Duration::from_secs(60))
                .expect("the run ends");
            assert_eq!(
                panic,
                Some(Some("boom at 401".to_string())),
                "chunks of {chunk}"
            );
        }
    }
}
