//! The filter: which passes run, and a run over one input.

use crate::diag::Diagnostic;
use crate::express::NEXT_GAME;
use crate::pass::{Context, Pass};
use crate::reader::Reader;
use crate::writer::{Format, Writer};
use std::io::{self, BufRead, Write};

/// What a run did: every game read is either written or rejected.
///
/// ```
/// let (_, _, report) = ctlpgn_filter::Filter::default()
///     .filter_bytes(b"[Variant \"C'escacs\"]\n1. E13xF16:\n*\n[Variant \"C'escacs\"]\n1. E7-E13:\n*\n");
/// assert_eq!((report.games_read, report.games_written, report.games_rejected), (2, 1, 1));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Games found in the input.
    pub games_read: u64,
    /// Games written to the output.
    pub games_written: u64,
    /// Games rejected for an error.
    pub games_rejected: u64,
    /// Warnings reported for written games.
    pub warnings: u64,
    /// Main-line half-moves read.
    pub half_moves: u64,
    /// Comments dropped.
    pub comments_dropped: u64,
    /// Variations dropped (nested ones included).
    pub variations_dropped: u64,
    /// Ratings and NAGs dropped.
    pub ratings_dropped: u64,
}

impl Report {
    /// Adds another run's counts to this one.
    pub fn add(&mut self, other: &Report) {
        self.games_read += other.games_read;
        self.games_written += other.games_written;
        self.games_rejected += other.games_rejected;
        self.warnings += other.warnings;
        self.half_moves += other.half_moves;
        self.comments_dropped += other.comments_dropped;
        self.variations_dropped += other.variations_dropped;
        self.ratings_dropped += other.ratings_dropped;
    }
}

/// Where a piece of input starts in its stream: lines before it, bytes before it.
///
/// ```
/// use ctlpgn_filter::{Filter, Origin};
/// let mut diags = Vec::new();
/// let mut out = Vec::new();
/// // This piece starts at line 41 of its file: the error says line 42.
/// Filter::default()
///     .run_from(Origin { line: 41, byte: 1000 }, &b"1. E13xF16:\n"[..], &mut out, None, &mut |d| {
///         diags.push(d.clone())
///     })
///     .unwrap();
/// assert_eq!(diags[0].line, 42);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// Lines before the piece (0 at the start of a stream).
    pub line: u64,
    /// Bytes before the piece.
    pub byte: u64,
}

impl Origin {
    /// The start of a stream.
    pub const START: Origin = Origin { line: 0, byte: 0 };
}

/// The names of the built-in passes, in chain order.
pub const PASS_NAMES: [&str; 6] = [
    "redefine",
    "fan",
    "comments",
    "variations",
    "ratings",
    "ascii",
];

/// Builds a [`Filter`]: which built-in passes run, extra passes, strictness.
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, Format};
/// let filter = FilterBuilder::new()
///     .keep_comments(true)
///     .skip_pass("ascii")
///     .format(Format::CtlPgn)
///     .strict(true)
///     .build();
/// assert_eq!(filter.pass_names(), ["redefine", "fan", "variations", "ratings"]);
/// ```
pub struct FilterBuilder {
    format: Format,
    skip: Vec<&'static str>,
    extra: Vec<Box<dyn Pass>>,
    strict: bool,
    fail_fast: bool,
}

impl Default for FilterBuilder {
    fn default() -> Self {
        FilterBuilder::new()
    }
}

impl FilterBuilder {
    /// All six built-in passes, nothing else.
    pub fn new() -> FilterBuilder {
        FilterBuilder {
            format: Format::CtlPgn,
            skip: Vec::new(),
            extra: Vec::new(),
            strict: false,
            fail_fast: false,
        }
    }

    /// Leaves out the built-in pass `name` (one of [`PASS_NAMES`]).
    ///
    /// # Panics
    /// If `name` is not a built-in pass.
    pub fn skip_pass(mut self, name: &str) -> Self {
        let n = PASS_NAMES
            .iter()
            .find(|&&p| p == name)
            .unwrap_or_else(|| panic!("no built-in pass named {name}"));
        self.skip.push(n);
        self
    }

    /// Keeps comments (skips pass "comments").
    pub fn keep_comments(self, keep: bool) -> Self {
        if keep {
            self.skip_pass("comments")
        } else {
            self
        }
    }

    /// Keeps variations (skips pass "variations").
    pub fn keep_variations(self, keep: bool) -> Self {
        if keep {
            self.skip_pass("variations")
        } else {
            self
        }
    }

    /// Keeps ratings and NAGs (skips pass "ratings").
    pub fn keep_ratings(self, keep: bool) -> Self {
        if keep {
            self.skip_pass("ratings")
        } else {
            self
        }
    }

    /// Appends a pass of your own after the built-in ones.
    pub fn pass(mut self, pass: Box<dyn Pass>) -> Self {
        self.extra.push(pass);
        self
    }

    /// Turns every warning into an error that rejects its game.
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Chooses the output format.
    pub fn format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// Stops at the first rejected game.
    pub fn fail_fast(mut self, fail_fast: bool) -> Self {
        self.fail_fast = fail_fast;
        self
    }

    /// The filter.
    pub fn build(self) -> Filter {
        let mut passes: Vec<Box<dyn Pass>> = crate::passes::builtin()
            .into_iter()
            .filter(|p| !self.skip.contains(&p.name()))
            .collect();
        // Without extra passes, and with these three, the canonical text of
        // a plain move is known before the chain runs (see Reader::plain);
        // ndjson builds its moves from the half-move itself.
        let plain_chain = self.extra.is_empty()
            && self.format == Format::CtlPgn
            && ["redefine", "fan", "ascii"]
                .iter()
                .all(|n| !self.skip.contains(n));
        // And with these three, the express path's text is the chain's.
        let drops_all = ["comments", "variations", "ratings"]
            .iter()
            .all(|n| !self.skip.contains(n));
        passes.extend(self.extra);
        Filter {
            drop_comments: passes.iter().any(|p| p.drops_comments()),
            drop_variations: passes.iter().any(|p| p.drops_variations()),
            drop_ratings: passes.iter().any(|p| p.name() == "ratings"),
            plain_chain,
            copy_canonical: plain_chain,
            express: plain_chain && drops_all,
            passes,
            strict: self.strict,
            fail_fast: self.fail_fast,
            cx: Context::default(),
            writer: Writer::new(self.format),
        }
    }
}

/// A configured filter; reusable over many inputs, one after the other.
///
/// ```
/// let mut filter = ctlpgn_filter::Filter::default();
/// let mut out = Vec::new();
/// let report = filter
///     .run(&b"1. E7-E13:\n*\n"[..], &mut out, &mut |d| eprint!("{}", d.render("-")))
///     .unwrap();
/// assert_eq!(report.warnings, 1); // no Variant tag: added
/// assert_eq!(out, b"[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n\n");
/// ```
pub struct Filter {
    pub(crate) passes: Vec<Box<dyn Pass>>,
    pub(crate) drop_comments: bool,
    pub(crate) drop_variations: bool,
    pub(crate) drop_ratings: bool,
    /// The chain does to plain moves only what `Reader::plain` knows.
    pub(crate) plain_chain: bool,
    /// With `plain_chain`: games that are canonical already are copied
    /// (see `Reader::fast_games`); off only to test that it changes nothing.
    pub(crate) copy_canonical: bool,
    /// With `plain_chain` and comments, variations and ratings dropped:
    /// games in the common forms are translated without the reader (see
    /// `Reader::fast_games`); off only to test that it changes nothing.
    pub(crate) express: bool,
    pub(crate) strict: bool,
    pub(crate) fail_fast: bool,
    pub(crate) cx: Context,
    pub(crate) writer: Writer,
}

impl Default for Filter {
    fn default() -> Self {
        FilterBuilder::new().build()
    }
}

impl Filter {
    /// Names the input in ndjson output (`"file"`); diagnostics are named
    /// by whoever prints them.
    pub fn set_file_name(&mut self, name: &str) {
        self.writer.file.clear();
        self.writer.file.push_str(name);
    }

    /// The names of the passes in the chain, in order.
    pub fn pass_names(&self) -> Vec<&'static str> {
        self.passes.iter().map(|p| p.name()).collect()
    }

    /// Filters `input` into `out`, handing each diagnostic to `on_diagnostic`
    /// as its game ends. I/O errors end the run; bad games do not.
    pub fn run(
        &mut self,
        input: impl BufRead,
        out: &mut dyn Write,
        on_diagnostic: &mut dyn FnMut(&Diagnostic),
    ) -> io::Result<Report> {
        self.run_with_rejects(input, out, None, on_diagnostic)
    }

    /// Like [`Filter::run`], and writes each rejected game's original bytes
    /// (from its first token to the next game's) to `rejects`, followed by a
    /// newline when they do not end with one.
    pub fn run_with_rejects<'a>(
        &'a mut self,
        input: impl BufRead,
        out: &'a mut dyn Write,
        rejects: Option<&'a mut dyn Write>,
        on_diagnostic: &'a mut dyn FnMut(&Diagnostic),
    ) -> io::Result<Report> {
        self.run_from(Origin::START, input, out, rejects, on_diagnostic)
    }

    /// Like [`Filter::run_with_rejects`], for input that continues a stream
    /// at `origin` (a game boundary): positions in diagnostics are the
    /// whole stream's.
    pub fn run_from<'a>(
        &'a mut self,
        origin: Origin,
        mut input: impl BufRead,
        out: &'a mut dyn Write,
        rejects: Option<&'a mut dyn Write>,
        on_diagnostic: &'a mut dyn FnMut(&Diagnostic),
    ) -> io::Result<Report> {
        let mut reader = Reader::new(self, out, on_diagnostic);
        reader.rejects = rejects;
        reader.line_no = origin.line;
        reader.line_start = origin.byte;
        // Lines are read where they lie in the input's buffer. What a
        // buffer ends inside of, a line or a game the fast path would take
        // whole, is kept in `tail` and read once the next buffer has
        // given it its end: the rest of its line, or the rest of its game
        // up to the next game's Variant line.
        let mut tail = Vec::new();
        loop {
            let available = match input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let end = available.is_empty();
            let mut from = 0;
            if !tail.is_empty() {
                let completion = if tail[0] == b'[' && tail.len() < MAX_TAIL {
                    // A game: up to and with the next game's first line.
                    memchr::memmem::find(available, NEXT_GAME)
                        .and_then(|n| memchr::memchr(b'\n', &available[n + 1..]).map(|m| n + m + 2))
                } else {
                    memchr::memchr(b'\n', available).map(|n| n + 1)
                };
                if completion.is_none() && !end && tail.len() + available.len() < MAX_TAIL {
                    // Still no end in sight: nothing to read yet.
                    tail.extend_from_slice(available);
                    let n = available.len();
                    input.consume(n);
                    continue;
                }
                from = completion.unwrap_or(available.len());
                tail.extend_from_slice(&available[..from]);
                let read = read_buffer(&mut reader, &tail, end, tail.len() < MAX_TAIL)?;
                if reader.stopped {
                    break;
                }
                tail.drain(..read);
                if tail.len() <= from {
                    // What is left of the tail is in this buffer too.
                    from -= tail.len();
                    tail.clear();
                } else {
                    tail.extend_from_slice(&available[from..]);
                    from = available.len();
                }
            }
            if end {
                break;
            }
            let rest = &available[from..];
            let read = read_buffer(&mut reader, rest, false, true)?;
            if reader.stopped {
                break;
            }
            tail.extend_from_slice(&rest[read..]);
            let n = available.len();
            input.consume(n);
        }
        if !reader.stopped {
            reader.finish_game(&[], None)?;
        }
        Ok(reader.report)
    }

    /// Filters a whole byte slice; returns the output, the diagnostics and
    /// the counts. Handy in tests and for small inputs.
    pub fn filter_bytes(&mut self, input: &[u8]) -> (Vec<u8>, Vec<Diagnostic>, Report) {
        let mut out = Vec::new();
        let mut diags = Vec::new();
        let report = self
            .run(input, &mut out, &mut |d| diags.push(d.clone()))
            .expect("writing to memory does not fail");
        (out, diags, report)
    }
}

/// A game longer than this that a buffer ends inside of is read line by
/// line rather than kept whole.
const MAX_TAIL: usize = 1 << 20;

/// Reads the whole lines of `buf`, and at a game's start the run of games
/// the fast path copies whole. `at_end`: the input ends with `buf`, so its
/// last line is read even with no line end. `wait_for_games`: a game that
/// the fast path would check and that `buf` may end inside of is left
/// unread, to come again with its end. Returns how many bytes it read,
/// which falls short of `buf` only by such a game or line.
fn read_buffer(
    reader: &mut Reader<'_>,
    buf: &[u8],
    at_end: bool,
    wait_for_games: bool,
) -> io::Result<usize> {
    // The buffer's whole lines are checked as UTF-8 in one go: for lines
    // this short, SIMD pays only over many at once.
    let lines = memchr::memrchr(b'\n', buf).map_or(0, |n| n + 1);
    let lines_utf8 = lines > 0 && simdutf8::basic::from_utf8(&buf[..lines]).is_ok();
    let mut start = 0;
    while start < buf.len() {
        // Only a tag line may start a canonical game.
        if buf[start] == b'[' {
            match reader.fast_games(&buf[start..], lines_utf8)? {
                None if wait_for_games && !at_end => return Ok(start),
                Some(copied) if copied > 0 => {
                    start += copied;
                    continue;
                }
                _ => {}
            }
            if reader.stopped {
                return Ok(start);
            }
        }
        let line = match memchr::memchr(b'\n', &buf[start..]) {
            Some(n) => &buf[start..=start + n],
            None if at_end => &buf[start..],
            None => return Ok(start),
        };
        reader.line(line, lines_utf8 && start + line.len() <= lines)?;
        start += line.len();
        if reader.stopped {
            return Ok(start);
        }
    }
    Ok(start)
}

/// Hands its bytes out a few at a time (1 to 4093, varying), as a pipe
/// may: for the tests of the reading and chunking.
#[cfg(test)]
pub(crate) struct Trickle<'a>(pub &'a [u8], pub usize);

#[cfg(test)]
impl io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.1 = (self.1 * 31 + 7) % 4093;
        let n = (self.1 + 1).min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::plain::test_corpus as corpus;
    use std::io::BufReader;

    #[test]
    fn output_is_the_same_however_the_input_arrives() {
        let mixed = corpus::generate_vec(200_000, 31, false);
        let canonical = Filter::default().filter_bytes(&mixed).0;
        // Games the fast path takes whole and games it does not, cut by
        // every kind of buffer end: inside a line, inside a game, between.
        let mut input = canonical.clone();
        input.extend_from_slice(&mixed);
        input.extend_from_slice(&canonical);
        input.extend_from_slice(b"[Variant \"C'escacs\"]\n\n1. E7-E13:");
        let whole = Filter::default().filter_bytes(&input);
        for capacity in [1, 7, 64, 1000, 4096] {
            let mut out = Vec::new();
            let mut diags = Vec::new();
            let report = Filter::default()
                .run(
                    BufReader::with_capacity(capacity, Trickle(&input, 0)),
                    &mut out,
                    &mut |d| diags.push(d.clone()),
                )
                .unwrap();
            assert!(out == whole.0, "capacity {capacity}");
            assert_eq!(
                (diags, report),
                (whole.1.clone(), whole.2),
                "capacity {capacity}"
            );
        }
    }
}
