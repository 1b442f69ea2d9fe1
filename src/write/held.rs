//! A game's output, held until its verdict: appended to in memory, and
//! once that outgrows a bound, moved on to a [`Spill`] (a temporary file
//! past its own first bytes), so that a game with a comment of any size
//! is held in bounded memory. A game that never comes near the bound
//! never touches the spill.

use crate::spill::Spill;
use std::io::{self, Write};

/// Bytes of a game's output, at stream-like offsets from 0: those before
/// [`Held::mem`] in the spill, the rest in `mem`.
#[derive(Debug)]
pub(crate) struct Held {
    /// The latest bytes, appended to directly where the writer is fast.
    pub mem: Vec<u8>,
    /// The bytes before `mem`'s.
    spilled: Spill,
    /// The last byte spilled, for [`Held::last`] when `mem` is empty.
    spilled_last: Option<u8>,
    /// How much `mem` holds before [`Held::settle`] spills it.
    bound: usize,
    /// The spill failed: reported when the game is written, as an error
    /// writing it (nothing of it is written then).
    failed: Option<io::Error>,
}

impl Default for Held {
    fn default() -> Held {
        Held::new(Held::BOUND)
    }
}

impl Held {
    /// The default bound, 1 MiB, for a game's output before its
    /// verdict; each spill keeps as much again in memory.
    pub const BOUND: usize = 1 << 20;

    pub fn new(bound: usize) -> Held {
        Held {
            mem: Vec::new(),
            spilled: Spill::with_memory(bound),
            spilled_last: None,
            bound,
            failed: None,
        }
    }

    pub fn len(&self) -> u64 {
        self.spilled.len() + self.mem.len() as u64
    }

    pub fn last(&self) -> Option<u8> {
        self.mem.last().copied().or(self.spilled_last)
    }

    pub fn clear(&mut self) {
        self.mem.clear();
        if !self.spilled.is_empty() {
            self.spilled = Spill::with_memory(self.bound);
            // What a huge game grew it to is not kept for the next.
            self.mem = Vec::new();
        }
        self.spilled_last = None;
        self.failed = None;
    }

    /// Appends a piece of something of any size (a comment, as read).
    pub fn push(&mut self, bytes: &[u8]) {
        self.mem.extend_from_slice(bytes);
        self.settle();
    }

    /// Moves what `mem` holds to the spill, if it holds more than the bound.
    pub fn settle(&mut self) {
        if self.mem.len() > self.bound && self.failed.is_none() {
            self.spill_mem();
        }
    }

    #[cold]
    #[inline(never)]
    fn spill_mem(&mut self) {
        match self.spilled.push(&self.mem) {
            Ok(()) => {
                self.spilled_last = self.mem.last().copied().or(self.spilled_last);
                self.mem.clear();
            }
            Err(e) => self.failed = Some(e),
        }
    }

    /// Appends all of `other`, which is left empty.
    pub fn append(&mut self, other: &mut Held) {
        if !other.spilled.is_empty() || other.failed.is_some() {
            self.spill_all_of(other);
        }
        self.mem.append(&mut other.mem);
        other.clear();
        self.settle();
    }

    /// `other`'s spilled bytes go on after this one's, through the spill.
    #[cold]
    #[inline(never)]
    fn spill_all_of(&mut self, other: &mut Held) {
        if let Some(e) = other.failed.take() {
            self.failed.get_or_insert(e);
        }
        if self.failed.is_some() {
            return;
        }
        if !self.mem.is_empty() {
            self.spill_mem();
        }
        let n = other.spilled.len();
        let copied = other.spilled.write_range(&mut self.spilled, 0, n);
        match copied {
            Ok(()) => self.spilled_last = other.spilled_last,
            Err(e) => self.failed = Some(e),
        }
    }

    /// Has a spill failed? Then nothing of the game is to be written.
    pub fn check(&mut self) -> io::Result<()> {
        match self.failed.take() {
            None => Ok(()),
            Some(e) => Err(io::Error::new(
                e.kind(),
                format!("holding a game's output in a temporary file (TMPDIR names where): {e}"),
            )),
        }
    }

    /// Writes the bytes from `start` to `end`.
    pub fn write_range(&mut self, out: &mut dyn Write, start: u64, end: u64) -> io::Result<()> {
        let spilled = self.spilled.len();
        if start < spilled {
            self.spilled.write_range(out, start, end.min(spilled))?;
        }
        let (from, to) = (start.max(spilled) - spilled, end.max(spilled) - spilled);
        out.write_all(&self.mem[from as usize..to as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_range_reads_back_as_pushed_across_memory_spill_and_file() {
        let bytes: Vec<u8> = (0..5000u32).map(|i| (i % 251) as u8).collect();
        let mut held = Held::new(100);
        for piece in bytes.chunks(37) {
            let (hot, any) = piece.split_at(piece.len().min(10));
            held.mem.extend_from_slice(hot);
            held.push(any);
        }
        assert_eq!(held.len(), bytes.len() as u64);
        assert_eq!(held.last(), bytes.last().copied());
        for (start, end) in [
            (0, 5000),
            (0, 50),
            (90, 250),
            (150, 4990),
            (4999, 5000),
            (7, 7),
        ] {
            let mut out = Vec::new();
            held.write_range(&mut out, start, end).unwrap();
            assert_eq!(out, &bytes[start as usize..end as usize], "{start}..{end}");
        }
    }

    #[test]
    fn appending_a_spilled_buffer_keeps_the_order() {
        let (mut a, mut b) = (Held::new(8), Held::new(8));
        a.mem.extend_from_slice(b"first ");
        b.push(b"a second part longer than the bound, ");
        b.mem.extend_from_slice(b"then more");
        a.append(&mut b);
        assert_eq!(b.len(), 0);
        let mut out = Vec::new();
        let n = a.len();
        a.write_range(&mut out, 0, n).unwrap();
        assert_eq!(out, b"first a second part longer than the bound, then more");
    }
}
