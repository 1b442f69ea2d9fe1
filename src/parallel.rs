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
    /// Read but not yet handed out.
    pending: Vec<u8>,
    /// Where `pending` starts in the stream.
    origin: Origin,
    eof: bool,
    size: usize,
}

impl<R: Read> Chunker<R> {
    /// A chunker aiming at `size` bytes per chunk.
    pub fn new(input: R, size: usize) -> Chunker<R> {
        Chunker {
            input,
            pending: Vec::new(),
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
            if self.pending.len() >= self.size {
                let from = searched.max(self.size).saturating_sub(GAME_START.len());
                if let Some(cut) = find_cut(&self.pending, from) {
                    return Ok(Some(self.split(cut)));
                }
                searched = self.pending.len();
            }
            if self.eof {
                if self.pending.is_empty() {
                    return Ok(None);
                }
                let len = self.pending.len();
                return Ok(Some(self.split(len)));
            }
            self.fill()?;
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        // Up to the chunk size at once; past it, a little at a time, so that
        // what follows the cut, copied out when the chunk is split off, is
        // short.
        let want = self.size.saturating_sub(self.pending.len()).max(1 << 16);
        // Room for all of it first: read_to_end would grow the buffer by
        // doubling, copying each chunk about twice more on this thread,
        // which all workers wait on.
        self.pending.reserve(want);
        // read_to_end retries an interrupted read; fewer than `want` bytes
        // means the end.
        let n = (&mut self.input)
            .take(want as u64)
            .read_to_end(&mut self.pending)?;
        self.eof = n < want;
        Ok(())
    }

    fn split(&mut self, cut: usize) -> (Origin, Vec<u8>) {
        let rest = self.pending.split_off(cut);
        let chunk = std::mem::replace(&mut self.pending, rest);
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
    out: Vec<u8>,
    rejects: Vec<u8>,
    diagnostics: Vec<Diagnostic>,
    report: io::Result<Report>,
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
        let (work_tx, work_rx) = mpsc::sync_channel::<(usize, Origin, Vec<u8>)>(jobs);
        let work_rx = Arc::new(Mutex::new(work_rx));
        let (done_tx, done_rx) = mpsc::channel::<(usize, Done)>();
        for _ in 0..jobs {
            let work_rx = Arc::clone(&work_rx);
            let done_tx = done_tx.clone();
            scope.spawn(move || {
                let mut filter = make();
                loop {
                    let job = work_rx.lock().expect("a worker panicked").recv();
                    let Ok((index, origin, chunk)) = job else {
                        return;
                    };
                    let mut done = Done {
                        out: Vec::with_capacity(chunk.len()),
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
                    if done_tx.send((index, done)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done_tx);

        let mut ready = BTreeMap::new();
        let mut next = 0;
        let mut write_ready =
            |ready: &mut BTreeMap<usize, Done>, next: &mut usize| -> io::Result<()> {
                while let Some(done) = ready.remove(next) {
                    for d in &done.diagnostics {
                        on_diagnostic(d);
                    }
                    total.add(&done.report?);
                    out.write_all(&done.out)?;
                    if let Some(r) = rejects.as_mut() {
                        r.write_all(&done.rejects)?;
                    }
                    *next += 1;
                }
                Ok(())
            };
        let mut sent = 0;
        while let Some((origin, chunk)) = chunker.next_chunk()? {
            // Keep at most 2 × jobs chunks in flight.
            while sent - next >= 2 * jobs {
                let (i, done) = done_rx.recv().expect("workers outlive the queue");
                ready.insert(i, done);
                write_ready(&mut ready, &mut next)?;
            }
            work_tx
                .send((sent, origin, chunk))
                .expect("workers outlive the queue");
            sent += 1;
            while let Ok((i, done)) = done_rx.try_recv() {
                ready.insert(i, done);
            }
            write_ready(&mut ready, &mut next)?;
        }
        drop(work_tx);
        for (i, done) in done_rx.iter() {
            ready.insert(i, done);
            write_ready(&mut ready, &mut next)?;
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
    fn chunks_concatenate_to_the_input() {
        let game = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n*\n\n";
        let input = game.repeat(50);
        let v = chunks(&input, 100);
        assert!(v.len() > 5);
        let joined: String = v.iter().map(|c| c.1.as_str()).collect();
        assert_eq!(joined, input);
    }
}
