//! A worker: reads the chunks it is handed, each from its start, and
//! hands on what it makes of them.

use super::chunk::Chunk;
use super::mailbox::{Done, Item, Mailbox, Output, Post};
use crate::diag::Diagnostic;
use crate::passes::ledger::{Deferral, Lengths};
use crate::read::{Resume, Sinks, Stop, Until};
use crate::stages::Filter;
use std::io::{self, Read, Write};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::AtomicU64;
use std::sync::{mpsc, Arc, Mutex};

/// Which sinks the merger has besides the output.
#[derive(Clone, Copy)]
pub(super) struct Keep {
    pub(super) rejects: bool,
    pub(super) duplicates: bool,
}

/// A worker's sink, whose length its gate reads.
struct Counted<'a> {
    sink: &'a mut Vec<u8>,
    len: &'a AtomicU64,
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.sink.extend_from_slice(buf);
        Lengths::grow(self.len, buf.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Reads the chunks `work_rx` hands on until there are none, with a
/// filter from `make`, and hands what it makes of each to `mailbox`.
pub(super) fn work(
    make: &(dyn Fn() -> Filter + Sync),
    work_rx: Arc<Mutex<mpsc::Receiver<Arc<Chunk>>>>,
    mailbox: Arc<Mailbox>,
    keep: Keep,
) {
    let mut filter = make();
    loop {
        let job = work_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok(chunk) = job else {
            return;
        };
        if !chunk.starts_line {
            // Never where a game starts: it is read again.
            let stop = Ok(Stop::Unfinished(Resume::from(chunk.origin)));
            let output = Output::default();
            mailbox.finish(Done {
                chunk,
                output,
                stop,
            });
            continue;
        }
        let index = chunk.index;
        let to = Arc::clone(&mailbox);
        let post: Post = Arc::new(move |item| to.post(index, item));
        // A panic (a pass of the caller's, say) is the merger's to
        // raise, which would else wait for this chunk for ever.
        let read = std::panic::catch_unwind(AssertUnwindSafe(|| {
            read_chunk(&mut filter, &chunk, keep, &post)
        }));
        match read {
            Ok((output, stop)) => mailbox.finish(Done {
                chunk,
                output,
                stop,
            }),
            Err(panic) => return mailbox.panicked(panic),
        }
    }
}

/// Reads `src`, from `start`, up to `until`, into `output`, handing its
/// diagnostics to `post`; with a filter that leaves the games before to
/// decide (see [`Deferral`]), each game's note before them.
fn read_into(
    filter: &mut Filter,
    start: Resume,
    until: Until<'_>,
    src: impl Read,
    output: &mut Output,
    keep: Keep,
    post: &Post,
) -> io::Result<Stop> {
    let mut on_diagnostic = |d: &Diagnostic| post(Item::Diagnostic(d.clone()));
    if !filter.stages.gate.orders() {
        let Output { out, rejects, .. } = output;
        let rejects = keep.rejects.then_some(rejects as &mut dyn Write);
        let sinks = Sinks {
            out,
            rejects,
            duplicates: None,
            on_diagnostic: &mut on_diagnostic,
        };
        let (counts, stop) = filter.read(start, until, src, sinks)?;
        output.report.add(&counts);
        return Ok(stop);
    }
    let lengths = Arc::new(Lengths::default());
    let games = Arc::clone(post);
    filter.stages.gate.defer = Some(Deferral {
        lengths: Arc::clone(&lengths),
        post: Box::new(move |game| games(Item::Game(game))),
    });
    let Output {
        out,
        rejects,
        aside,
        report,
    } = output;
    let mut out = Counted {
        sink: out,
        len: &lengths.out,
    };
    let mut rejects = Counted {
        sink: rejects,
        len: &lengths.rejects,
    };
    let mut aside = Counted {
        sink: aside,
        len: &lengths.aside,
    };
    let sinks = Sinks {
        out: &mut out,
        rejects: keep.rejects.then_some(&mut rejects as &mut dyn Write),
        duplicates: keep.duplicates.then_some(&mut aside as &mut dyn Write),
        on_diagnostic: &mut on_diagnostic,
    };
    let run = filter.read(start, until, src, sinks);
    filter.stages.gate.defer = None;
    let (counts, stop) = run?;
    report.add(&counts);
    Ok(stop)
}

/// A chunk read from its start: to where the next chunk starts if a game
/// starts there, else short of the game under way.
fn read_chunk(
    filter: &mut Filter,
    chunk: &Chunk,
    keep: Keep,
    post: &Post,
) -> (Output, io::Result<Stop>) {
    let start = Resume::from(chunk.origin);
    let end = chunk.end();
    // Without the next chunk's first line, no game can be told to start
    // there: the last game is left unfinished, to be read again.
    let boundary = chunk.boundary;
    let is_next = move |at: u64| boundary && at == end;
    let until = if chunk.last {
        Until::End
    } else {
        Until::Boundary {
            is_boundary: &is_next,
            whole: false,
        }
    };
    // A chunk cut inside a line is read up to its last line end: a line
    // cut short could read as the end of a game and the start of another.
    let bytes = match chunk.boundary || chunk.last {
        true => &chunk.bytes[..],
        false => {
            let own = chunk.own();
            &own[..memchr::memrchr(b'\n', own).map_or(0, |n| n + 1)]
        }
    };
    let mut output = Output::default();
    let stop = read_into(filter, start, until, bytes, &mut output, keep, post);
    (output, stop)
}
