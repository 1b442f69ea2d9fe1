//! Bytes that left a buffer and are still needed, in memory up to a
//! bound and past it in an anonymous temporary file: what the reader must
//! read again or keep of a game, and what the writer holds of a game's
//! output until its verdict.

use std::io::{self, Read};

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

    pub fn into_reader(self) -> io::Result<Box<dyn Read + Send>> {
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
