//! The reader's one buffer: input read in large blocks, handed out as
//! whole lines. Its state is three numbers: `base`, the stream offset of
//! `buf[0]`; `filled`, how much of `buf` holds input; and `eof`. The
//! reader says where it stands; what lies before that is discarded at
//! the next read, and a line longer than the buffer grows it. After what
//! it holds come [`PAD`] zero bytes, so that the quick readers may look 64
//! bytes ahead anywhere without checking bounds.

use crate::spill::Spill;
use std::io::{self, Read};

/// One `read` into `buf`, tried again when a signal interrupts it: how
/// many bytes came, 0 at the end of the input.
pub(crate) fn read_some(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match r.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            read => return read,
        }
    }
}

/// Bytes read at once, and the buffer's first size.
pub(crate) const BLOCK: usize = 1 << 18;

/// Zero bytes after those held.
pub(crate) const PAD: usize = 64;

pub(crate) struct Input<R> {
    src: Source<R>,
    buf: Vec<u8>,
    filled: usize,
    /// Stream offset of `buf[0]`.
    base: u64,
    eof: bool,
    /// `buf[..scanned]` has no line end at or after the reader's position.
    scanned: usize,
    /// The longest line read (`--max-line-bytes`): a longer one is not held.
    max_line: u64,
}

/// What lies ahead of the reader's position ([`Input::lines_end`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ahead {
    /// Whole lines, up to this stream offset.
    Lines(u64),
    /// Nothing whole: more must be read first ([`Input::read_more`]).
    More,
    /// The line being read is longer than the limit.
    TooLong,
}

/// Where the bytes come from: the input, then what a comment left open to
/// the end must have read again ([`Spill`]).
enum Source<R> {
    Input(R),
    Again(Box<dyn Read + Send>),
}

impl<R: Read> Input<R> {
    pub fn new(src: R, base: u64, max_line: u64) -> Input<R> {
        Input {
            src: Source::Input(src),
            buf: vec![0; PAD],
            filled: 0,
            base,
            eof: false,
            scanned: 0,
            max_line,
        }
    }

    /// The bytes held followed by [`PAD`] more (zero where nothing is
    /// held), how many are held, and the stream offset of the first.
    #[inline]
    pub fn held(&self) -> (&[u8], usize, u64) {
        (&self.buf[..self.filled + PAD], self.filled, self.base)
    }

    /// Where the whole lines after stream offset `at`, on the line that
    /// starts at `line_start`, end: after the last line end held, or, once
    /// the input has ended, where it ends; short of the first line longer
    /// than the limit, if there is one, and [`Ahead::TooLong`] at it.
    pub fn lines_end(&mut self, at: u64, line_start: u64) -> Ahead {
        let from = ((at - self.base) as usize).max(self.scanned);
        if from > self.filled {
            // Reading starts past what is held (a game resumed in a line
            // whose start is here): more first.
            return Ahead::More;
        }
        let end = match memchr::memrchr(b'\n', &self.buf[from..self.filled]) {
            Some(n) => self.base + (from + n + 1) as u64,
            None if self.eof => self.base + self.filled as u64,
            None => {
                self.scanned = self.filled;
                let held = self.base + self.filled as u64;
                return if held - line_start > self.max_line {
                    Ahead::TooLong
                } else {
                    Ahead::More
                };
            }
        };
        if end - line_start <= self.max_line {
            return Ahead::Lines(end);
        }
        // Long enough to hold a line too long: where its lines start.
        let mut start = line_start;
        let lines = &self.buf[(at - self.base) as usize..(end - self.base) as usize];
        let ends = memchr::memchr_iter(b'\n', lines).map(|n| at + n as u64 + 1);
        for next in ends {
            // (Its line end not counted.)
            if next - start > self.max_line + 1 {
                break;
            }
            start = next;
        }
        // `start`: the line too long, or the last line, unended at the input's end.
        if end - start <= self.max_line {
            Ahead::Lines(end)
        } else if start > at {
            Ahead::Lines(start)
        } else {
            Ahead::TooLong
        }
    }

    /// Past the line too long that `at` is in: the stream offset after its
    /// line end (or the input's end), once held, and whether it ended a line.
    pub fn past_line(&mut self, at: u64) -> Option<(u64, bool)> {
        let from = (at - self.base) as usize;
        self.scanned = 0;
        match memchr::memchr(b'\n', &self.buf[from..self.filled]) {
            Some(n) => Some((at + n as u64 + 1, true)),
            None => self.eof.then_some((self.base + self.filled as u64, false)),
        }
    }

    /// The stream offset just past the bytes held.
    pub fn held_end(&self) -> u64 {
        self.base + self.filled as u64
    }

    /// Has the input ended at `at`?
    pub fn ended_at(&self, at: u64) -> bool {
        self.eof && at == self.base + self.filled as u64
    }

    /// Discards what lies before stream offset `at` and reads on.
    pub fn read_more(&mut self, at: u64) -> io::Result<()> {
        let keep = (at - self.base) as usize;
        if keep > 0 {
            self.buf.copy_within(keep..self.filled, 0);
        }
        self.filled -= keep;
        self.scanned = self.scanned.saturating_sub(keep);
        self.base = at;
        if self.buf.len() < BLOCK + PAD || self.filled * 2 > self.buf.len() {
            // A line longer than half the buffer: room for the rest of it.
            // A new zeroed buffer is zeroed by the system as it is written,
            // so that what a line does not fill costs no memory.
            let mut grown = vec![0; (self.buf.len() * 2).max(BLOCK + PAD)];
            grown[..self.filled].copy_from_slice(&self.buf[..self.filled]);
            self.buf = grown;
        }
        let room = self.buf.len() - PAD;
        let n = match &mut self.src {
            Source::Input(r) => read_some(r, &mut self.buf[self.filled..room])?,
            Source::Again(r) => read_some(r, &mut self.buf[self.filled..room])?,
        };
        self.filled += n;
        self.eof |= n == 0;
        self.buf[self.filled..self.filled + PAD].fill(0);
        Ok(())
    }

    /// Reads on from stream offset `at`, where the input will come again:
    /// `spill` holds what was read from `at` on and is no longer held.
    pub fn read_again(&mut self, at: u64, mut spill: Spill) -> io::Result<()> {
        if at >= self.base {
            // All of it is held still.
            self.scanned = 0;
            return Ok(());
        }
        spill.push(&self.buf[..self.filled])?;
        self.src = Source::Again(spill.into_reader()?);
        self.filled = 0;
        self.buf[..PAD].fill(0);
        self.scanned = 0;
        self.base = at;
        self.eof = false;
        Ok(())
    }
}
