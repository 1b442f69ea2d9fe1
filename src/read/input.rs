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
}

/// Where the bytes come from: the input, then what a comment left open to
/// the end must have read again ([`Spill`]).
enum Source<R> {
    Input(R),
    Again(Box<dyn Read + Send>),
}

impl<R: Read> Input<R> {
    pub fn new(src: R, base: u64) -> Input<R> {
        Input {
            src: Source::Input(src),
            buf: vec![0; PAD],
            filled: 0,
            base,
            eof: false,
            scanned: 0,
        }
    }

    /// The bytes held followed by [`PAD`] more (zero where nothing is
    /// held), how many are held, and the stream offset of the first.
    #[inline]
    pub fn held(&self) -> (&[u8], usize, u64) {
        (&self.buf[..self.filled + PAD], self.filled, self.base)
    }

    /// Where the whole lines after stream offset `at` end: after the last
    /// line end held, or, once the input has ended, where it ends. `None`
    /// when more must be read first ([`Input::read_more`]).
    pub fn lines_end(&mut self, at: u64) -> Option<u64> {
        let from = ((at - self.base) as usize).max(self.scanned);
        if from > self.filled {
            // Reading starts past what is held (a game resumed in a line
            // whose start is here): more first.
            return None;
        }
        match memchr::memrchr(b'\n', &self.buf[from..self.filled]) {
            Some(n) => Some(self.base + (from + n + 1) as u64),
            None if self.eof => Some(self.base + self.filled as u64),
            None => {
                self.scanned = self.filled;
                None
            }
        }
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

/// What must be read again if a comment is never closed: the input from
/// the first line inside the comment that starts a game, kept from where
/// the buffer discards it. In memory up to [`Spill::MEMORY`] bytes, then
/// in an anonymous temporary file, so that memory stays bounded whatever
/// the comment holds.
#[derive(Default)]
pub(crate) struct Spill {
    memory: Vec<u8>,
    file: Option<std::fs::File>,
}

impl Spill {
    pub const MEMORY: usize = 8 << 20;

    pub fn push(&mut self, bytes: &[u8]) -> io::Result<()> {
        use std::io::Write;
        if self.file.is_none() && self.memory.len() + bytes.len() <= Spill::MEMORY {
            self.memory.extend_from_slice(bytes);
            return Ok(());
        }
        let file = match &mut self.file {
            Some(f) => f,
            None => {
                let mut f = tempfile::tempfile()?;
                f.write_all(&self.memory)?;
                self.memory = Vec::new();
                self.file.insert(f)
            }
        };
        file.write_all(bytes)
    }

    fn into_reader(self) -> io::Result<Box<dyn Read + Send>> {
        use std::io::Seek;
        Ok(match self.file {
            None => Box::new(io::Cursor::new(self.memory)),
            Some(mut f) => {
                f.rewind()?;
                Box::new(io::BufReader::new(f))
            }
        })
    }

    pub fn is_empty(&self) -> bool {
        self.file.is_none() && self.memory.is_empty()
    }
}
