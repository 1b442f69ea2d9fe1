//! The bytes the buffer holds, as the reader's layers read them
//! ([`Held`]) and as a visitor may copy them ([`Source`]).

use super::index::Index;
use crate::grammar::half_move::Window;

/// What every layer reads through: the bytes the buffer holds, where they
/// are in the stream, and the index of the region being read.
#[derive(Clone, Copy)]
pub(super) struct Held<'a> {
    pub(super) bytes: &'a [u8],
    /// `bytes` and the 64 bytes after them (zero past the input held).
    pub(super) padded: &'a [u8],
    /// Stream offset of `bytes[0]`, always a line's start.
    pub(super) base: u64,
    pub(super) index: &'a Index,
}

impl<'a> Held<'a> {
    /// The bytes of `Input::held`, with `index`.
    pub(super) fn new((padded, len, base): (&'a [u8], usize, u64), index: &'a Index) -> Held<'a> {
        Held {
            bytes: &padded[..len],
            padded,
            base,
            index,
        }
    }

    /// The 64 bytes from stream offset `at`, of which those before `end`
    /// are the text read: what the move lexeme looks at first.
    #[inline(always)]
    pub(super) fn window(self, at: u64, end: u64) -> Window<'a> {
        let i = (at - self.base) as usize;
        let bytes = self.padded[i..]
            .first_chunk::<64>()
            .expect("64 bytes follow the bytes held");
        Window::new(bytes, (end - at).min(64) as usize)
    }

    /// What a visitor may copy of them.
    #[inline(always)]
    pub(super) fn src(self) -> Source<'a> {
        Source {
            bytes: self.bytes,
            base: self.base,
        }
    }

    /// The bytes from stream offset `from` to `to`.
    #[inline(always)]
    pub(super) fn slice(self, from: u64, to: u64) -> &'a [u8] {
        &self.bytes[(from - self.base) as usize..(to - self.base) as usize]
    }

    /// The bytes from stream offset `from` on.
    #[inline(always)]
    pub(super) fn from(self, from: u64) -> &'a [u8] {
        &self.bytes[(from - self.base) as usize..]
    }

    /// The stream offset just past the bytes held.
    pub(super) fn end(self) -> u64 {
        self.base + self.bytes.len() as u64
    }

    /// Is stream offset `at` held?
    pub(super) fn holds(self, at: u64) -> bool {
        at >= self.base && at <= self.end()
    }

    /// What follows stream offset `at` on its line, without its line end,
    /// up to `max` bytes: what a message or a spaced move looks at after a
    /// word, so that a long line costs no more per word than a short one.
    pub(super) fn line_rest(self, at: u64, max: usize) -> &'a [u8] {
        let rest = self.from(at);
        let rest = &rest[..rest.len().min(max)];
        &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())]
    }
}

/// The bytes the reader holds, from stream offset [`Source::start`]: what a
/// visitor may copy as read, up to [`Visitor::discard`](super::Visitor::discard).
#[derive(Clone, Copy)]
pub struct Source<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) base: u64,
}

impl<'a> Source<'a> {
    /// The stream offset of the first byte held.
    pub fn start(&self) -> u64 {
        self.base
    }

    /// The bytes from stream offset `from` to `to`, both held.
    ///
    /// # Panics
    /// If they are not held.
    #[inline(always)]
    pub fn slice(&self, from: u64, to: u64) -> &'a [u8] {
        &self.bytes[(from - self.base) as usize..(to - self.base) as usize]
    }

    /// The bytes held from stream offset `from` on.
    #[inline]
    pub(crate) fn from(&self, from: u64) -> &'a [u8] {
        &self.bytes[(from - self.base) as usize..]
    }

    /// Is stream offset `at` held (or just past the bytes held)?
    pub(crate) fn holds(&self, at: u64) -> bool {
        at >= self.base && at - self.base <= self.bytes.len() as u64
    }

    /// The bytes held before stream offset `from`, and those from `to`
    /// on (`from..to` held).
    #[inline(always)]
    pub(crate) fn split_at(&self, from: u64, to: u64) -> (&'a [u8], &'a [u8]) {
        let (i, j) = ((from - self.base) as usize, (to - self.base) as usize);
        (&self.bytes[..i], &self.bytes[j..])
    }

    /// The byte at stream offset `at`, if held.
    #[inline(always)]
    pub fn byte(&self, at: u64) -> Option<u8> {
        let i = at.checked_sub(self.base)?;
        self.bytes.get(i as usize).copied()
    }
}
