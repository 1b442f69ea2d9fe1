//! The merger, on the caller's thread: hands chunks to the workers, takes
//! what they made in input order, decides what depends on the games
//! before, and writes.

use super::chunk::{Chunk, Chunker};
use super::mailbox::{Done, Item, Mailbox, Output};
use crate::passes::ledger::{Deferred, Verdict};
use crate::read::{Sinks, Stop};
use crate::report::Report;
use crate::stages::Filter;
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::ops::Range;
use std::sync::{mpsc, Arc};

/// Where the output goes, in input order; what depends on the games
/// before is decided here, by `decider`'s gate.
pub(super) struct Ordered<'a> {
    pub(super) sinks: Sinks<'a>,
    pub(super) decider: Filter,
    pub(super) total: Report,
}

/// What the merger has taken of a chunk's items so far: the game whose
/// note came last, and what is to be written of the games before it.
#[derive(Default)]
struct Told {
    /// Its part ends where the next game's starts, or with the chunk.
    last: Option<(Deferred, Decided)>,
    plan: Plan,
    /// The counts of the games in `plan`, as decided.
    counts: Report,
    /// The diagnostics that come now are dropped: their game is left out,
    /// or comes after the last that `--stop-after` lets through (or, when
    /// the merger decides, no game's note has come yet).
    dropping: bool,
    stopped: bool,
}

/// What became of a game, its note told: [`Verdict`] without the note.
struct Decided {
    left_out: Option<crate::pass::LeftOut>,
    aside: bool,
}

/// The parts of a chunk's output, rejects and bytes set aside to write
/// once it is read: each run of games that go to a sink whole is one
/// range, so that the plan grows with the games left out between games
/// written, not with the games.
#[derive(Default)]
struct Plan {
    out: Ranges,
    rejects: Ranges,
    aside: Ranges,
}

#[derive(Default)]
struct Ranges(Vec<Range<usize>>);

impl Ranges {
    fn push(&mut self, r: Range<usize>) {
        match self.0.last_mut() {
            _ if r.is_empty() => {}
            Some(last) if last.end == r.start => last.end = r.end,
            _ => self.0.push(r),
        }
    }

    fn write(&self, from: &[u8], to: Option<&mut &mut dyn Write>) -> io::Result<()> {
        let Some(to) = to else {
            return Ok(());
        };
        self.0
            .iter()
            .try_for_each(|r| to.write_all(&from[r.clone()]))
    }
}

/// Where a game's part of each sink starts, and the counts before it: a
/// game's note, or, past the last game, the chunk's end.
struct Mark {
    out: usize,
    rejects: usize,
    aside: usize,
    before: Report,
}

impl Mark {
    fn of(game: &Deferred) -> Mark {
        Mark {
            out: game.out,
            rejects: game.rejects,
            aside: game.aside,
            before: game.before,
        }
    }

    fn end(o: &Output) -> Mark {
        Mark {
            out: o.out.len(),
            rejects: o.rejects.len(),
            aside: o.aside.len(),
            before: o.report,
        }
    }
}

impl Told {
    fn new(ordered: bool) -> Told {
        Told {
            dropping: ordered,
            ..Told::default()
        }
    }

    /// Plans the last game told, its part ending at `end`.
    fn settle(&mut self, end: Mark) {
        let Some((game, decided)) = self.last.take() else {
            return;
        };
        let mut counts = end.before.since(&game.before);
        if let Some(reason) = decided.left_out {
            // A game left out gives, to the duplicates, its bytes as read.
            counts.left_out_instead(reason);
            if decided.aside {
                self.plan.aside.push(game.aside..end.aside);
            }
        } else {
            self.plan.out.push(game.out..end.out);
            self.plan.rejects.push(game.rejects..end.rejects);
        }
        self.counts.add(&counts);
    }
}

impl Ordered<'_> {
    /// Takes a chunk's `items` in order: hands on the diagnostics of the
    /// games written, and decides on each game as its note comes.
    fn tell(&mut self, items: impl IntoIterator<Item = Item>, told: &mut Told) {
        for item in items {
            match item {
                Item::Diagnostic(d) => {
                    if !told.dropping {
                        (self.sinks.on_diagnostic)(&d);
                    }
                }
                Item::Game(game) => {
                    told.settle(Mark::of(&game));
                    if told.stopped {
                        // After `--stop-after`'s last game: nothing more.
                        told.dropping = true;
                        continue;
                    }
                    let mut verdict = Verdict::default();
                    if game.candidate {
                        let file = &self.decider.stages.writer.file;
                        self.decider
                            .stages
                            .gate
                            .admit(&mut verdict, game.key, game.at, file);
                    }
                    told.dropping = verdict.left_out.is_some();
                    if let Some(note) = &verdict.note {
                        (self.sinks.on_diagnostic)(note);
                    }
                    told.stopped = verdict.stop;
                    let decided = Decided {
                        left_out: verdict.left_out,
                        aside: verdict.aside,
                    };
                    told.last = Some((game, decided));
                }
            }
        }
    }

    /// Writes what a reader made, its items told: `true` when
    /// `--stop-after` has let its last game through: nothing more is
    /// written.
    fn write(&mut self, output: &Output, mut told: Told) -> io::Result<bool> {
        let s = &mut self.sinks;
        if !self.decider.stages.gate.orders() {
            s.out.write_all(&output.out)?;
            if let Some(r) = s.rejects.as_mut() {
                r.write_all(&output.rejects)?;
            }
            self.total.add(&output.report);
            return Ok(false);
        }
        told.settle(Mark::end(output));
        let plan = &told.plan;
        plan.out.write(&output.out, Some(&mut s.out))?;
        plan.rejects.write(&output.rejects, s.rejects.as_mut())?;
        plan.aside.write(&output.aside, s.duplicates.as_mut())?;
        self.total.add(&told.counts);
        Ok(told.stopped)
    }
}

/// The main thread: hands chunks to the workers, and writes what they
/// made of them in order, reading again where a chunk did not start a
/// game.
pub(super) struct Merger<'a, R> {
    pub(super) store: Store<R>,
    pub(super) make: &'a (dyn Fn() -> Filter + Sync),
    pub(super) sinks: Ordered<'a>,
    /// The most bytes of chunks a reading again keeps for the workers
    /// while a line it has not read to its end may start a game.
    pub(super) window: usize,
}

/// The chunks cut, handed to the workers, and kept until written or read
/// again.
pub(super) struct Store<R> {
    pub(super) chunker: Chunker<R>,
    pub(super) work_tx: Option<mpsc::Sender<Arc<Chunk>>>,
    pub(super) mailbox: Arc<Mailbox>,
    pub(super) jobs: usize,
    /// Chunks cut so far, and whether the input has no more.
    pub(super) produced: usize,
    pub(super) eof: bool,
    /// Chunks handed to the workers and not yet written or read again.
    pub(super) chunks: BTreeMap<usize, Arc<Chunk>>,
    /// Chunks cut while reading again, not yet handed to a worker.
    pub(super) inline: BTreeMap<usize, Arc<Chunk>>,
}

impl<R: Read> Merger<'_, R> {
    pub(super) fn run(&mut self) -> io::Result<()> {
        let mut next = 0;
        loop {
            self.store.dispatch()?;
            let Some((done, told)) = self.take(next)? else {
                return Ok(());
            };
            self.store.chunks.remove(&next);
            let Done {
                chunk,
                output,
                stop,
            } = done;
            if self.sinks.write(&output, told)? {
                return Ok(());
            }
            drop(output);
            match stop? {
                Stop::Unfinished(resume) => match self.read_again(resume, &chunk)? {
                    Some(boundary) => next = boundary,
                    None => return Ok(()),
                },
                Stop::FailFast => return Ok(()),
                Stop::Boundary(_) | Stop::End => next += 1,
            }
        }
    }

    /// Chunk `index` as read by a worker, its items told as they come;
    /// `None` past the last chunk.
    fn take(&mut self, index: usize) -> io::Result<Option<(Done, Told)>> {
        let store = &mut self.store;
        while index >= store.produced {
            if store.eof {
                return Ok(None);
            }
            store.dispatch()?;
        }
        store.dispatch()?;
        let mut told = Told::new(self.sinks.decider.stages.gate.orders());
        loop {
            let Ok((items, done)) = store.mailbox.collect(index) else {
                // Its panic is raised once the others are told to end.
                return Err(io::Error::other("a worker thread panicked"));
            };
            self.sinks.tell(items, &mut told);
            if let Some(done) = done {
                return Ok(Some((done, told)));
            }
        }
    }
}

impl<R: Read> Store<R> {
    /// Hands the chunks cut while reading again to the workers, then cuts
    /// more while fewer than `2 × jobs` are held, handed on and not yet
    /// written or read again. Held, not in flight: a chunk read but not
    /// yet written keeps its bytes and what a worker made of them, and
    /// workers that finish faster than the merger writes would else have
    /// the whole input cut and kept. Chunks go in input order, so that the
    /// one whose turn it is is never behind a worker waiting for its turn.
    fn dispatch(&mut self) -> io::Result<()> {
        while let Some((_, chunk)) = self.inline.pop_first() {
            self.chunks.insert(chunk.index, Arc::clone(&chunk));
            self.send(chunk);
        }
        while !self.eof && self.chunks.len() < 2 * self.jobs {
            let Some(chunk) = self.cut()? else {
                return Ok(());
            };
            let chunk = Arc::new(chunk);
            self.chunks.insert(chunk.index, Arc::clone(&chunk));
            self.send(chunk);
        }
        Ok(())
    }

    fn cut(&mut self) -> io::Result<Option<Chunk>> {
        let chunk = self.chunker.next_chunk(self.produced)?;
        match &chunk {
            Some(c) => {
                self.produced += 1;
                self.eof = c.last;
            }
            None => self.eof = true,
        }
        Ok(chunk)
    }

    fn send(&mut self, chunk: Arc<Chunk>) {
        self.work_tx
            .as_ref()
            .expect("workers run while the merger does")
            .send(chunk)
            .expect("workers outlive the merger");
    }

    /// Chunk `index`, for reading again, cut now if it was not yet (its
    /// worker's reading of it, if any, is kept: it may start a game).
    pub(super) fn fetch(&mut self, index: usize) -> io::Result<Option<Arc<Chunk>>> {
        if index >= self.produced && !self.eof {
            if let Some(chunk) = self.cut()? {
                let chunk = Arc::new(chunk);
                self.inline.insert(chunk.index, Arc::clone(&chunk));
                return Ok(Some(chunk));
            }
        }
        let chunk = self.inline.get(&index).or_else(|| self.chunks.get(&index));
        Ok(chunk.cloned())
    }

    /// Forgets the chunks below `floor`, and what the workers make of them.
    /// From the front, not by a walk over all: a reading again calls this
    /// for each chunk it fetches, and keeps thousands of tiny ones.
    pub(super) fn drop_below(&mut self, floor: usize) {
        self.mailbox.drop_below(floor);
        for kept in [&mut self.chunks, &mut self.inline] {
            while kept.first_key_value().is_some_and(|(&i, _)| i < floor) {
                kept.pop_first();
            }
        }
    }
}
