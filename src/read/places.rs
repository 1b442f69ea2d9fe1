//! Positions on demand. The reader knows the line it reads and where that
//! line starts; items carry a [`Pos`] (that line, and their byte offset).
//! A column, and the source excerpt under the caret, are worked out only
//! when a diagnostic is made: from the bytes held, or, for a place that
//! left the buffer before a diagnostic could point at it, from what was
//! kept of it then.

use super::held::{Held, Source};
use crate::diag::{chars_in, excerpt_at, Pos};
use crate::pass::Context;

pub(super) struct Places {
    /// The line being read, and the stream offset where it starts.
    pub line: u64,
    pub line_start: u64,
    /// The last column worked out: (its line's start, offset, column), so
    /// that many diagnostics on one long line cost its length once.
    last: (u64, u64, u64),
    /// Places that left the buffer, with what a diagnostic needs of them.
    kept: Vec<Kept>,
}

/// What a diagnostic needs of a place no longer held.
struct Kept {
    at: u64,
    column: u64,
    source: String,
    source_column: u64,
}

impl Places {
    pub fn new(line: u64, line_start: u64) -> Places {
        Places {
            line,
            line_start,
            last: (line_start, line_start, 1),
            kept: Vec::new(),
        }
    }

    /// Stream offset `at`, on the line being read.
    #[inline(always)]
    pub fn pos(&self, at: u64) -> Pos {
        Pos {
            line: self.line,
            offset: at,
        }
    }

    /// A new line starts at stream offset `at`.
    #[inline(always)]
    pub fn new_line(&mut self, at: u64) {
        self.new_lines(1, at);
    }

    /// `n` lines are read past; the next starts at stream offset `at`.
    #[inline(always)]
    pub fn new_lines(&mut self, n: u64, at: u64) {
        self.line += n;
        self.line_start = at;
    }

    /// The lines that end between `from` and `to` (indexed): read past.
    pub fn lines_in(&mut self, h: Held<'_>, from: u64, to: u64) {
        use super::index::Classes;
        if let Some(last) = h.index.find_last(Classes::LF, from, to) {
            self.line += h.index.count(Classes::LF, from, to) - 1;
            self.new_line(last + 1);
        }
    }

    /// Restarts at the line that starts at `at`, the `line`-th.
    pub fn restart(&mut self, line: u64, at: u64) {
        self.line = line;
        self.line_start = at;
        self.last = (at, at, 1);
    }

    /// The start of the line of the held stream offset `at`.
    fn line_start_of(&self, h: Source<'_>, at: u64) -> u64 {
        if at >= self.line_start {
            return self.line_start;
        }
        let before = h.slice(h.base, at);
        h.base + memchr::memrchr(b'\n', before).map_or(0, |n| n + 1) as u64
    }

    /// The column (in characters) of the held stream offset `at`, counted
    /// from the last column worked out where that is nearer.
    fn column(&mut self, h: Source<'_>, at: u64) -> u64 {
        let start = self.line_start_of(h, at);
        let (line, o, c) = self.last;
        let column = if line == start && at >= o {
            c + chars_in(h.slice(o, at))
        } else if line == start && o - at < at - start {
            c - chars_in(h.slice(at, o))
        } else {
            1 + chars_in(h.slice(start, at))
        };
        self.last = (start, at, column);
        column
    }

    /// Works out, while it is held, what a diagnostic made later about
    /// `at` will need: before the buffer drops its line.
    pub fn keep(&mut self, h: Source<'_>, at: u64) {
        if !h.holds(at) || self.kept.iter().any(|k| k.at == at) {
            return;
        }
        let column = self.column(h, at);
        let (source, source_column) = excerpt_at(h.bytes, (at - h.base) as usize, column);
        self.kept.push(Kept {
            at,
            column,
            source,
            source_column,
        });
    }

    /// A new game: nothing of the last one is needed.
    pub fn forget(&mut self) {
        self.kept.clear();
    }

    /// The column of stream offset `at`: held, kept, or in `raw`.
    pub fn column_of(&mut self, h: Source<'_>, raw: Option<(&[u8], u64)>, at: u64) -> u64 {
        self.locate(h, raw, at, false).0
    }

    /// The column of `at`, and, with `source`, the source excerpt around
    /// it and its first column: from the bytes held, from what was kept of
    /// its place, or from `raw` (the game's bytes that left the buffer,
    /// from stream offset `raw_at`) when it holds its place.
    fn locate(
        &mut self,
        h: Source<'_>,
        raw: Option<(&[u8], u64)>,
        at: u64,
        source: bool,
    ) -> (u64, String, u64) {
        let excerpt = |bytes: &[u8], i: usize, column: u64| {
            let (s, first) = if source {
                excerpt_at(bytes, i, column)
            } else {
                (String::new(), 1)
            };
            (column, s, first)
        };
        if h.holds(at) {
            let column = self.column(h, at);
            excerpt(h.bytes, (at - h.base) as usize, column)
        } else if let Some(k) = self.kept.iter().find(|k| k.at == at) {
            let kept = source.then(|| (k.source.clone(), k.source_column));
            let (s, first) = kept.unwrap_or((String::new(), 1));
            (k.column, s, first)
        } else if let Some((bytes, raw_at)) =
            raw.filter(|(b, r)| at >= *r && at - r < b.len() as u64)
        {
            let i = (at - raw_at) as usize;
            let start = memchr::memrchr(b'\n', &bytes[..i]).map_or(0, |n| n + 1);
            excerpt(bytes, i, 1 + chars_in(&bytes[start..i]))
        } else {
            // Nothing is known of that line any more.
            (1, String::new(), 1)
        }
    }

    /// Gives the game's diagnostics from the `from`-th on their column and
    /// source: from the bytes held, from what was kept of their place, or
    /// from `raw` (the game's bytes that left the buffer, from stream
    /// offset `raw_at`) when it holds their place.
    pub fn place(
        &mut self,
        h: Source<'_>,
        raw: Option<(&[u8], u64)>,
        cx: &mut Context,
        from: usize,
    ) {
        for i in from..cx.diagnostics.len() {
            let (column, source, source_column) = self.locate(h, raw, cx.offsets[i], true);
            let d = &mut cx.diagnostics[i];
            d.column = column;
            d.source = source;
            d.source_column = source_column;
        }
    }
}
