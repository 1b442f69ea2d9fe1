//! The reader's one buffer: input read in large blocks, handed out as
//! whole lines. Its state is three numbers: `base`, the stream offset of
//! `buf[0]`; `filled`, how much of `buf` holds input; and `eof`. The
//! reader says where it stands; what lies before that is discarded at
//! the next read, and a line longer than the buffer grows it. After what
//! it holds come [`PAD`] zero bytes, so that the quick readers may look 64
//! bytes ahead anywhere without checking bounds.

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

/// Bytes that left the buffer and are still needed: what a comment never
/// closed must have read again, and a game's bytes for `--rejects` and
/// `--duplicates`; and a game's output until its verdict (`write::held`).
/// The first bytes, [`Spill::MEMORY`] unless [`Spill::with_memory`] says
/// otherwise, stay in memory (where a diagnostic may still find its
/// place), the rest goes to an anonymous temporary file, so that memory
/// stays bounded whatever a game or a comment holds.
#[derive(Debug)]
pub(crate) struct Spill {
    head: Vec<u8>,
    tail: Option<std::fs::File>,
    len: u64,
    /// How many bytes stay in memory.
    memory: usize,
    /// Bytes of the file read back, from `window_at`: a game's output is
    /// written in many short ranges, mostly in order.
    window: Vec<u8>,
    window_at: u64,
}

impl Default for Spill {
    fn default() -> Spill {
        Spill::with_memory(Spill::MEMORY)
    }
}

impl Spill {
    pub const MEMORY: usize = 8 << 20;

    pub fn with_memory(memory: usize) -> Spill {
        Spill {
            head: Vec::new(),
            tail: None,
            len: 0,
            memory,
            window: Vec::new(),
            window_at: 0,
        }
    }

    /// How much of the file one read back brings into the window.
    const WINDOW: usize = 64 << 10;

    pub fn push(&mut self, bytes: &[u8]) -> io::Result<()> {
        use std::io::Write;
        let room = if self.tail.is_none() {
            (self.memory.saturating_sub(self.head.len())).min(bytes.len())
        } else {
            0
        };
        self.head.extend_from_slice(&bytes[..room]);
        self.len += bytes.len() as u64;
        if room == bytes.len() {
            return Ok(());
        }
        let file = match &mut self.tail {
            Some(f) => f,
            None => self.tail.insert(tempfile::tempfile()?),
        };
        file.write_all(&bytes[room..])
    }

    /// The first bytes, those held in memory.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Forgets every byte (and the temporary file).
    pub fn clear(&mut self) {
        self.head.clear();
        self.tail = None;
        self.len = 0;
        self.window.clear();
        self.window_at = 0;
    }

    /// Writes the first `n` bytes to `sink`; more may be pushed after.
    pub fn write_to(&mut self, sink: &mut dyn io::Write, n: u64) -> io::Result<()> {
        self.write_range(sink, 0, n)
    }

    /// Writes the bytes from `start` to `end` to `sink`; more may be
    /// pushed after.
    pub fn write_range(
        &mut self,
        sink: &mut dyn io::Write,
        start: u64,
        end: u64,
    ) -> io::Result<()> {
        use std::io::{Seek, SeekFrom};
        let in_head = self.head.len() as u64;
        if start < in_head {
            sink.write_all(&self.head[start as usize..end.min(in_head) as usize])?;
        }
        let (from, to) = (start.max(in_head), end.max(in_head));
        let Spill {
            tail,
            window,
            window_at,
            ..
        } = self;
        if let (Some(f), true) = (tail.as_mut(), to > from) {
            let (at, len) = (from - in_head, (to - from) as usize);
            let held = |window: &Vec<u8>, window_at: u64| {
                at >= window_at && at + len as u64 <= window_at + window.len() as u64
            };
            if !held(window, *window_at) && len < Spill::WINDOW {
                window.resize(Spill::WINDOW, 0);
                let n = read_at_most(f, window, at)?;
                window.truncate(n);
                *window_at = at;
            }
            if held(window, *window_at) {
                let i = (at - *window_at) as usize;
                return sink.write_all(&window[i..i + len]);
            }
            f.seek(SeekFrom::Start(at))?;
            let copied = io::copy(&mut Read::by_ref(f).take(to - from), sink);
            f.seek(SeekFrom::End(0))?;
            copied?;
        }
        Ok(())
    }

    fn into_reader(self) -> io::Result<Box<dyn Read + Send>> {
        use std::io::Seek;
        let head = io::Cursor::new(self.head);
        Ok(match self.tail {
            None => Box::new(head),
            Some(mut f) => {
                f.rewind()?;
                Box::new(head.chain(io::BufReader::new(f)))
            }
        })
    }
}

/// Reads `file` from `at` into `buf` until it is full or the file ends;
/// returns how much was read. The file's own position is left as it is.
fn read_at_most(file: &std::fs::File, buf: &mut [u8], at: u64) -> io::Result<usize> {
    use std::os::unix::fs::FileExt;
    let mut n = 0;
    while n < buf.len() {
        match file.read_at(&mut buf[n..], at + n as u64) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Pushing, as a sink: what another spill writes to it.
impl io::Write for Spill {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.push(bytes)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
