//! Filtering on several threads. The input is cut into chunks at game
//! boundaries, each chunk is filtered by its own [`Filter`] on a worker, and
//! the results are written in input order: the same bytes, diagnostics and
//! counts as one thread, because filtering is concatenation-safe.

use crate::diag::Diagnostic;
use crate::filter::{Filter, Origin, Report};
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// Where a chunk may end: just before a line that starts with this.
const GAME_START: &[u8] = b"\n[Variant \"";

/// Cuts a byte stream into chunks of about `size` bytes, each ending at a
/// game boundary the reader is sure to honour.
///
/// ```
/// let games = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n".repeat(3);
/// let mut chunker = ctlpgn_filter::Chunker::new(games.as_bytes(), 1);
/// let mut n = 0;
/// while let Some((origin, chunk)) = chunker.next_chunk().unwrap() {
///     assert_eq!(origin.line, 3 * n);
///     assert!(chunk.starts_with(b"[Variant"));
///     n += 1;
/// }
/// assert_eq!(n, 3);
/// ```
///
/// A line starting `[Variant "` ends the game before it when that game has
/// read anything but tags and comments, or when a comment or variation is
/// left open (the reader then reports it and starts afresh). Both hold when
/// the last non-blank byte before the line is neither `]` (a tag) nor `}` (a
/// comment): see the README. Anything else is not a cut point.
pub struct Chunker<R> {
    input: R,
    /// `buf[..filled]` is read but not yet handed out. All of `buf` is
    /// initialized, so a read into it needs no zeroing first.
    buf: Vec<u8>,
    filled: usize,
    /// Buffers handed back by [`Chunker::recycle`], to read into again:
    /// their pages are mapped already.
    spare: Vec<Vec<u8>>,
    /// Where `buf` starts in the stream.
    origin: Origin,
    eof: bool,
    size: usize,
}

impl<R: Read> Chunker<R> {
    /// A chunker aiming at `size` bytes per chunk.
    pub fn new(input: R, size: usize) -> Chunker<R> {
        Chunker {
            input,
            buf: Vec::new(),
            filled: 0,
            spare: Vec::new(),
            origin: Origin::START,
            eof: false,
            size: size.max(1),
        }
    }

    /// The next chunk and its origin, or `None` at the end of the input.
    /// A chunk is longer than `size` only when no cut point comes sooner.
    pub fn next_chunk(&mut self) -> io::Result<Option<(Origin, Vec<u8>)>> {
        let mut searched = 0;
        loop {
            if self.filled >= self.size {
                let from = searched.max(self.size).saturating_sub(GAME_START.len());
                if let Some(cut) = find_cut(&self.buf[..self.filled], from) {
                    return Ok(Some(self.split(cut)));
                }
                searched = self.filled;
            }
            if self.eof {
                if self.filled == 0 {
                    return Ok(None);
                }
                return Ok(Some(self.split(self.filled)));
            }
            self.fill()?;
        }
    }

    /// Hands back a chunk's buffer, done with, to read later chunks into
    /// (optional: a chunk not handed back is freed as any `Vec`).
    pub fn recycle(&mut self, mut chunk: Vec<u8>) {
        // Initialized to its capacity: past the chunk, that is the little
        // read after its cut point.
        chunk.resize(chunk.capacity(), 0);
        self.spare.push(chunk);
    }

    fn fill(&mut self) -> io::Result<()> {
        // Up to the chunk size at once; past it, a little at a time, so that
        // what follows the cut, copied out when the chunk is split off, is
        // short.
        let want = self.size.saturating_sub(self.filled).max(1 << 16);
        let end = self.filled + want;
        if self.buf.len() < end {
            // Room for a chunk and what is read past it: growing by
            // doubling would leave spare buffers twice as long, zeroed
            // again on each recycle.
            self.buf
                .reserve_exact((self.size + (2 << 16)).saturating_sub(self.buf.len()));
            self.buf.resize(end, 0);
        }
        // Fewer than `want` bytes means the end.
        while self.filled < end {
            match self.input.read(&mut self.buf[self.filled..end]) {
                Ok(0) => break,
                Ok(n) => self.filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        self.eof = self.filled < end;
        Ok(())
    }

    fn split(&mut self, cut: usize) -> (Origin, Vec<u8>) {
        // What follows the cut moves to the front of a spare buffer, which
        // then reads on.
        let rest = self.filled - cut;
        let mut next = self.spare.pop().unwrap_or_default();
        if next.len() < rest {
            next.resize(rest, 0);
        }
        next[..rest].copy_from_slice(&self.buf[cut..self.filled]);
        let mut chunk = std::mem::replace(&mut self.buf, next);
        chunk.truncate(cut);
        self.filled = rest;
        let origin = self.origin;
        self.origin.byte += chunk.len() as u64;
        self.origin.line += memchr::memchr_iter(b'\n', &chunk).count() as u64;
        (origin, chunk)
    }
}

/// The first cut point at or after `from`: the offset of a `[Variant "` line.
fn find_cut(buf: &[u8], from: usize) -> Option<usize> {
    memchr::memmem::find_iter(&buf[from..], GAME_START)
        .map(|i| from + i + 1)
        .find(|&cut| {
            let before = buf[..cut].trim_ascii_end();
            !matches!(before.last(), None | Some(b']' | b'}'))
        })
}

/// What a worker makes of one chunk.
struct Done {
    /// The chunk, handed back to be read into again.
    chunk: Vec<u8>,
    out: Vec<u8>,
    rejects: Vec<u8>,
    diagnostics: Vec<Diagnostic>,
    report: io::Result<Report>,
}

/// A filtered chunk received: its input buffer goes back to the chunker,
/// the rest waits its turn to be written.
fn receive<R: Read>(
    chunker: &mut Chunker<R>,
    ready: &mut BTreeMap<usize, Done>,
    (index, mut done): (usize, Done),
) {
    chunker.recycle(std::mem::take(&mut done.chunk));
    ready.insert(index, done);
}

/// Filters `input` on `jobs` threads, each with a filter from `make`, and
/// writes output, rejects and diagnostics in input order. Memory is bounded
/// by about `2 × jobs` chunks of `chunk_size` bytes (more only for a stretch
/// of input with no cut point).
///
/// ```
/// use ctlpgn_filter::{run_parallel, Filter};
/// let input = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n".repeat(100);
/// let (mut one, mut two) = (Vec::new(), Vec::new());
/// Filter::default().run(input.as_bytes(), &mut one, &mut |_| {}).unwrap();
/// let report = run_parallel(&Filter::default, input.as_bytes(), 2, 64, &mut two, None, &mut |_| {})
///     .unwrap();
/// assert_eq!(one, two);
/// assert_eq!(report.games_written, 100);
/// ```
pub fn run_parallel(
    make: &(dyn Fn() -> Filter + Sync),
    input: impl Read,
    jobs: usize,
    chunk_size: usize,
    out: &mut dyn Write,
    mut rejects: Option<&mut dyn Write>,
    on_diagnostic: &mut dyn FnMut(&Diagnostic),
) -> io::Result<Report> {
    let jobs = jobs.max(1);
    let keep_rejects = rejects.is_some();
    let mut chunker = Chunker::new(input, chunk_size);
    let mut total = Report::default();
    std::thread::scope(|scope| {
        // A chunk's index, origin and bytes, and a buffer for its output.
        let (work_tx, work_rx) = mpsc::sync_channel::<(usize, Origin, Vec<u8>, Vec<u8>)>(jobs);
        let work_rx = Arc::new(Mutex::new(work_rx));
        let (done_tx, done_rx) = mpsc::channel::<(usize, Done)>();
        for _ in 0..jobs {
            let work_rx = Arc::clone(&work_rx);
            let done_tx = done_tx.clone();
            scope.spawn(move || {
                let mut filter = make();
                loop {
                    let job = work_rx.lock().expect("a worker panicked").recv();
                    let Ok((index, origin, chunk, mut out)) = job else {
                        return;
                    };
                    out.clear();
                    out.reserve(chunk.len());
                    let mut done = Done {
                        chunk: Vec::new(),
                        out,
                        rejects: Vec::new(),
                        diagnostics: Vec::new(),
                        report: Ok(Report::default()),
                    };
                    let mut diags = Vec::new();
                    done.report = filter.run_from(
                        origin,
                        &chunk[..],
                        &mut done.out,
                        keep_rejects.then_some(&mut done.rejects as &mut dyn Write),
                        &mut |d| diags.push(d.clone()),
                    );
                    done.diagnostics = diags;
                    done.chunk = chunk;
                    if done_tx.send((index, done)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);

        let mut ready = BTreeMap::new();
        let mut next = 0;
        // Output buffers written, to hand to workers again.
        let mut spare_outs: Vec<Vec<u8>> = Vec::new();
        let mut write_ready = |ready: &mut BTreeMap<usize, Done>,
                               next: &mut usize,
                               spare_outs: &mut Vec<Vec<u8>>|
         -> io::Result<()> {
            while let Some(done) = ready.remove(next) {
                for d in &done.diagnostics {
                    on_diagnostic(d);
                }
                total.add(&done.report?);
                out.write_all(&done.out)?;
                if let Some(r) = rejects.as_mut() {
                    r.write_all(&done.rejects)?;
                }
                spare_outs.push(done.out);
                *next += 1;
            }
            Ok(())
        };
        let mut sent = 0;
        while let Some((origin, chunk)) = chunker.next_chunk()? {
            // Keep at most 2 × jobs chunks in flight.
            while sent - next >= 2 * jobs {
                let done = done_rx.recv().expect("workers outlive the queue");
                receive(&mut chunker, &mut ready, done);
                write_ready(&mut ready, &mut next, &mut spare_outs)?;
            }
            let out = spare_outs.pop().unwrap_or_default();
            work_tx
                .send((sent, origin, chunk, out))
                .expect("workers outlive the queue");
            sent += 1;
            while let Ok(done) = done_rx.try_recv() {
                receive(&mut chunker, &mut ready, done);
            }
            write_ready(&mut ready, &mut next, &mut spare_outs)?;
        }
        drop(work_tx);
        for done in done_rx.iter() {
            receive(&mut chunker, &mut ready, done);
            write_ready(&mut ready, &mut next, &mut spare_outs)?;
        }
        Ok::<(), io::Error>(())
    })?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::Trickle;

    fn chunks(input: &str, size: usize) -> Vec<(Origin, String)> {
        let mut c = Chunker::new(input.as_bytes(), size);
        let mut v = Vec::new();
        while let Some((o, b)) = c.next_chunk().unwrap() {
            v.push((o, String::from_utf8(b).unwrap()));
        }
        v
    }

    #[test]
    fn cuts_before_a_variant_line_after_movetext() {
        let a = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
        let b = "[Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
        let v = chunks(&format!("{a}{b}"), 4);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].1, a);
        assert_eq!(
            v[1].0,
            Origin {
                line: 3,
                byte: a.len() as u64
            }
        );
    }

    #[test]
    fn never_cuts_inside_a_tag_section_or_after_a_comment() {
        let s = "[Variant \"C'escacs\"]\n[Variant \"C'escacs\"]\n{ c }\n[Variant \"C'escacs\"]\n1. E7-E13:\n";
        assert_eq!(chunks(s, 1).len(), 1);
    }

    #[test]
    fn chunks_are_cut_in_the_same_places_however_the_input_arrives() {
        let game = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n*\n\n";
        let input = game.repeat(5000);
        let cut = |r: &mut dyn Read| {
            let mut c = Chunker::new(r, 70_000);
            let mut v = Vec::new();
            while let Some(chunk) = c.next_chunk().unwrap() {
                v.push(chunk);
            }
            v
        };
        let whole = cut(&mut input.as_bytes());
        assert!(whole.len() > 2);
        assert_eq!(cut(&mut Trickle(input.as_bytes(), 0)), whole);
    }

    #[test]
    fn chunks_read_into_recycled_buffers_are_the_same() {
        let game = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n*\n\n";
        let input = game.repeat(5000);
        let cut = |recycle: bool| {
            let mut c = Chunker::new(Trickle(input.as_bytes(), 0), 70_000);
            let mut v = Vec::new();
            while let Some((origin, chunk)) = c.next_chunk().unwrap() {
                v.push((origin, chunk.clone()));
                if recycle {
                    // What a worker leaves in a buffer is no input.
                    let len = chunk.len();
                    c.recycle(vec![b'}'; len]);
                }
            }
            v
        };
        let recycled = cut(true);
        assert!(recycled.len() > 2);
        let joined: Vec<u8> = recycled.iter().flat_map(|(_, c)| c.clone()).collect();
        assert_eq!(joined, input.as_bytes());
        assert_eq!(recycled, cut(false));
    }

    #[test]
    fn chunks_concatenate_to_the_input() {
        let game = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n*\n\n";
        let input = game.repeat(50);
        let v = chunks(&input, 100);
        assert!(v.len() > 5);
        let joined: String = v.iter().map(|c| c.1.as_str()).collect();
        assert_eq!(joined, input);
    }
}
