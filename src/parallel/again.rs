//! Reading again, on the merger's thread, where a chunk did not start a
//! game: across the chunks that follow, until one does.

use super::chunk::Chunk;
use super::merger::Merger;
use crate::read::{Resume, Sinks, Stop, Until};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::sync::Arc;

impl<R: Read> Merger<'_, R> {
    /// Reads again, on this thread, from `resume` in `chunk` on, across
    /// the chunks that follow, until a game starts where a chunk starts;
    /// returns that chunk's index, or `None` at the end of the input (or of
    /// what `--stop-after` lets through). Everything before is written:
    /// what it reads goes straight to the sinks, and what depends on the
    /// games before is decided as on one thread, by the run's ledger.
    pub(super) fn read_again(
        &mut self,
        resume: Resume,
        chunk: &Arc<Chunk>,
    ) -> io::Result<Option<usize>> {
        let window = RefCell::new(Window::new(self.window));
        let is_start = |at: u64| window.borrow().chunk_at(at).is_some();
        let until = Until::Boundary {
            is_boundary: &is_start,
            whole: true,
        };
        let mut filter = (self.make)();
        filter.stages.gate.ledger = self.sinks.decider.stages.gate.ledger.clone();
        let store = &mut self.store;
        let mut fetch = |index: usize| -> io::Result<Option<Arc<Chunk>>> {
            let Some(fetched) = store.fetch(index)? else {
                return Ok(None);
            };
            let keep = window.borrow_mut().fetched(&fetched);
            store.drop_below(keep);
            Ok(Some(fetched))
        };
        let mut src = Chained {
            current: Arc::clone(chunk),
            at: 0,
            fetch: &mut fetch,
        };
        src.pass_over(resume.line_start - chunk.origin.byte)?;
        let s = &mut self.sinks.sinks;
        let sinks = Sinks {
            out: &mut *s.out,
            rejects: s.rejects.as_mut().map(|r| &mut **r as &mut dyn Write),
            duplicates: s.duplicates.as_mut().map(|r| &mut **r as &mut dyn Write),
            on_diagnostic: &mut *s.on_diagnostic,
        };
        let (counts, stop) = filter.read(resume, until, src, sinks)?;
        self.sinks.total.add(&counts);
        let boundary = match stop {
            Stop::Boundary(at) => Some(
                window
                    .borrow()
                    .chunk_at(at)
                    .expect("a boundary is a chunk's start"),
            ),
            Stop::End | Stop::FailFast | Stop::Unfinished(_) => None,
        };
        // What the workers made of the chunks read again is not needed.
        self.store
            .drop_below(boundary.unwrap_or(self.store.produced));
        Ok(boundary)
    }
}

/// The chunks that a reading again may yet find a game to start at, and
/// those after them: the first is one whose first line it has not read to
/// its end. The reader asks for more input only once it has read every
/// whole line it holds, so a chunk fetched after a line end was fetched
/// tells that the lines of the chunks before are read, and whether a
/// game starts at their starts is known. A line longer than `limit` gives
/// up the chunks it starts: read on here, as on one thread, the run is the
/// same, and memory stays bounded.
struct Window {
    chunks: VecDeque<Kept>,
    bytes: usize,
    limit: usize,
    /// The chunk fetched last has a line end.
    line_end: bool,
}

struct Kept {
    index: usize,
    start: u64,
    starts_line: bool,
    len: usize,
}

impl Window {
    fn new(limit: usize) -> Window {
        Window {
            chunks: VecDeque::new(),
            bytes: 0,
            limit,
            line_end: false,
        }
    }

    /// Chunk `c` is fetched: returns the first chunk to keep.
    fn fetched(&mut self, c: &Chunk) -> usize {
        if self.line_end {
            self.chunks.clear();
            self.bytes = 0;
        }
        self.line_end = memchr::memchr(b'\n', c.own()).is_some();
        let index = c.index;
        if c.starts_line || !self.chunks.is_empty() {
            self.chunks.push_back(Kept {
                index,
                start: c.origin.byte,
                starts_line: c.starts_line,
                len: c.len,
            });
            self.bytes += c.len;
        }
        while self.bytes > self.limit {
            let Some(first) = self.chunks.pop_front() else {
                break;
            };
            self.bytes -= first.len;
            while let Some(k) = self.chunks.front().filter(|k| !k.starts_line) {
                self.bytes -= k.len;
                self.chunks.pop_front();
            }
        }
        self.chunks.front().map_or(index + 1, |k| k.index)
    }

    /// The chunk kept that starts at stream offset `at` and a line.
    fn chunk_at(&self, at: u64) -> Option<usize> {
        let i = self.chunks.binary_search_by_key(&at, |k| k.start).ok()?;
        let k = &self.chunks[i];
        k.starts_line.then_some(k.index)
    }
}

/// The input again, from a place in a chunk on: the chunks after it are
/// fetched as the reader gets to them.
struct Chained<'a> {
    current: Arc<Chunk>,
    /// How many of its own bytes are read.
    at: usize,
    fetch: &'a mut dyn FnMut(usize) -> io::Result<Option<Arc<Chunk>>>,
}

impl Chained<'_> {
    /// Passes `n` bytes over, into the chunks after `current` if need be:
    /// a reading that met no game read on into the next chunk's first line,
    /// and may have stopped past its own chunk (blank lines across chunks).
    fn pass_over(&mut self, mut n: u64) -> io::Result<()> {
        loop {
            let rest = (self.current.len - self.at) as u64;
            if n <= rest {
                self.at += n as usize;
                return Ok(());
            }
            n -= rest;
            match (self.fetch)(self.current.index + 1)? {
                Some(next) => {
                    self.current = next;
                    self.at = 0;
                }
                None => return Ok(()),
            }
        }
    }
}

impl Read for Chained<'_> {
    /// Fills `buf` across chunks, as the input itself would be read: the
    /// reader then holds what one thread holds, so that what it places
    /// from held bytes (a column) is the same.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            let rest = &self.current.own()[self.at..];
            if rest.is_empty() {
                match (self.fetch)(self.current.index + 1)? {
                    Some(next) => {
                        self.current = next;
                        self.at = 0;
                        continue;
                    }
                    None => break,
                }
            }
            let k = rest.len().min(buf.len() - n);
            buf[n..n + k].copy_from_slice(&rest[..k]);
            self.at += k;
            n += k;
        }
        Ok(n)
    }
}
