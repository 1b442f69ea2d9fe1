//! The reader: the one pass over the input, in layers.
//!
//! - `input.rs`: the one buffer, which holds whole lines and says how far
//!   the input is read.
//! - `index.rs`: stage 1, a vectorised structural index of each region of
//!   lines (line ends, braces, parentheses, `[`, `"`, non-ASCII bytes).
//! - `scan.rs`: the modes that cross lines, read from the index: a
//!   comment's text up to `}`, a dropped variation up to its `)`, and the
//!   search of a comment never closed for a game to read again.
//! - `tokens.rs`: stage 2 for everything else, through the `logos`
//!   tokenizer but where `spans.rs` reads a main line already canonical
//!   (moves and move numbers in sequence) straight from the bytes; tokens
//!   handed on by kind to `tags.rs`, `moves.rs` (with `movetext.rs`, the
//!   numbering's state machine), or, for variations and comments, kept
//!   in `tokens.rs`.
//! - `game.rs`: the game assembler: the game-start rule, and each game's
//!   end, written or rejected.
//! - `places.rs`: positions, worked out when a diagnostic is made.
//!
//! Every input byte belongs to exactly one game or to the blank space
//! before the first: a game runs from its first byte to the next game's
//! first byte (or the end of the input), and a rejected game's bytes are
//! handed to the rejects sink exactly as read.

mod game;
mod index;
mod input;
mod moves;
mod movetext;
mod places;
mod scan;
mod tags;
mod tokens;

use crate::diag::Diagnostic;
use crate::grammar::half_move::Window;
use crate::pass::Interest;
use crate::report::{Origin, Report};
use crate::stages::Stages;
use game::{Game, Io};
pub(crate) use index::Impl as IndexImpl;
use index::Index;
pub(crate) use input::read_some;
use input::{Ahead, Input};
use movetext::Movetext;
use places::Places;
use scan::Scan;
use std::io::{self, Read, Write};
use tokens::{Asides, Moves};

/// Where a run writes: the games written, the games rejected (as read),
/// the duplicates left out by `--dedup` (as read), the diagnostics.
pub struct Sinks<'a> {
    /// The games written.
    pub out: &'a mut dyn Write,
    /// Each rejected game's bytes, exactly as read.
    pub rejects: Option<&'a mut dyn Write>,
    /// Each game left out as a duplicate ([`LeftOut::Duplicate`](crate::LeftOut::Duplicate)), its
    /// bytes exactly as read.
    pub duplicates: Option<&'a mut dyn Write>,
    /// Each diagnostic, as its game ends.
    pub on_diagnostic: &'a mut dyn FnMut(&Diagnostic),
}

/// What the reader is told once, for every input: how it reads, how far
/// it lets a line and a nesting go, what it does at a game's end.
#[derive(Clone, Copy)]
pub(crate) struct Settings {
    /// Copy moves already canonical as they stand (`FilterBuilder::spans`).
    pub spans: bool,
    pub index: IndexImpl,
    /// Stop at the first rejected game.
    pub fail_fast: bool,
    /// Write a Result tag that disagrees with the game's result line as
    /// the result line says.
    pub fix_result: bool,
    /// The longest line read: a longer one rejects its game unread.
    pub max_line_bytes: u64,
    /// Variations nested deeper reject their game.
    pub max_depth: u32,
}

/// How far a run reads.
#[derive(Clone, Copy)]
pub(crate) enum Until<'a> {
    /// To the end of the input, where the last game ends.
    End,
    /// To the first game that starts at a stream offset `is_boundary`
    /// takes (a `--jobs` chunk's start). If the input ends first: where it
    /// ends (`whole`), or, when the input is only the first part of the
    /// stream, short of the game under way, left unfinished.
    Boundary {
        is_boundary: &'a dyn Fn(u64) -> bool,
        whole: bool,
    },
}

/// Where a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// At the end of the input: every game is finished.
    End,
    /// Where a game starts (at a [`Until::Boundary`]): every game before
    /// it is finished.
    Boundary(u64),
    /// The input ended before a boundary, inside the game that starts here.
    Unfinished(Resume),
    /// At the first rejected game (fail-fast), or after the last game
    /// `--stop-after` lets through.
    FailFast,
}

/// Where reading may start afresh: a game's first byte, on a line that
/// starts at `line_start`, the `line`-th of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Resume {
    pub line: u64,
    pub line_start: u64,
    pub at: u64,
    /// The game at `at` starts on the line where the one before ended.
    pub joined: bool,
}

impl From<Origin> for Resume {
    /// A piece of a stream starts a line: the one after the lines before it.
    fn from(origin: Origin) -> Resume {
        Resume {
            line: origin.line + 1,
            line_start: origin.byte,
            at: origin.byte,
            joined: false,
        }
    }
}

/// What every layer reads through: the bytes the buffer holds, where they
/// are in the stream, and the index of the region being read.
#[derive(Clone, Copy)]
struct Held<'a> {
    bytes: &'a [u8],
    /// `bytes` and the 64 bytes after them (zero past the input held).
    padded: &'a [u8],
    /// Stream offset of `bytes[0]`, always a line's start.
    base: u64,
    index: &'a Index,
}

impl<'a> Held<'a> {
    /// The bytes of `Input::held` (followed by padding), with `index`.
    fn new((padded, len, base): (&'a [u8], usize, u64), index: &'a Index) -> Held<'a> {
        Held {
            bytes: &padded[..len],
            padded,
            base,
            index,
        }
    }

    /// The 64 bytes from stream offset `at`, of which those before `end`
    /// are the text read: what the quick readers look at.
    #[inline(always)]
    fn window(self, at: u64, end: u64) -> Window<'a> {
        let i = (at - self.base) as usize;
        let bytes = self.padded[i..]
            .first_chunk::<64>()
            .expect("64 bytes follow the bytes held");
        Window::new(bytes, (end - at).min(64) as usize)
    }

    /// The bytes from stream offset `from` to `to`.
    #[inline(always)]
    fn slice(self, from: u64, to: u64) -> &'a [u8] {
        &self.bytes[(from - self.base) as usize..(to - self.base) as usize]
    }

    /// The bytes from stream offset `from` on.
    #[inline(always)]
    fn from(self, from: u64) -> &'a [u8] {
        &self.bytes[(from - self.base) as usize..]
    }

    /// The stream offset just past the bytes held.
    fn end(self) -> u64 {
        self.base + self.bytes.len() as u64
    }

    /// Is stream offset `at` held?
    fn holds(self, at: u64) -> bool {
        at >= self.base && at <= self.end()
    }

    /// What follows stream offset `at` on its line, without its line end,
    /// up to `max` bytes: what a message or a spaced move looks at after a
    /// word, so that a long line costs no more per word than a short one.
    fn line_rest(self, at: u64, max: usize) -> &'a [u8] {
        let rest = self.from(at);
        let rest = &rest[..rest.len().min(max)];
        &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())]
    }
}

pub(crate) struct Reader<'f, R> {
    input: Input<R>,
    index: Index,
    st: Reading<'f>,
}

/// Everything the reader knows but the input and its index.
struct Reading<'f> {
    /// What each game is handed to.
    f: &'f mut Stages,
    set: Settings,
    io: Io<'f>,
    /// The stream offset up to which the input is read.
    at: u64,
    places: Places,
    scan: Scan,
    game: Game,
    movetext: Movetext,
    moves: Moves,
    asides: Asides,
}

impl<'f, R: Read> Reader<'f, R> {
    /// A reader from `resume`, the start of a stream (a line that is line
    /// 1, at offset 0) or of a game within one, that hands each game to
    /// `f` and writes to `sinks` (the games the verdict sets aside, as
    /// read, to `sinks.duplicates`).
    pub(crate) fn new(
        f: &'f mut Stages,
        set: Settings,
        resume: Resume,
        until: Until<'f>,
        src: R,
        sinks: Sinks<'f>,
    ) -> Reader<'f, R> {
        let skip_comments = f.chain.drops(Interest::COMMENTS);
        let skip_variations = f.chain.drops(Interest::VARIATIONS);
        // Split variation games report at places long read: keep the game.
        let keep_raw = sinks.rejects.is_some() || sinks.duplicates.is_some() || f.writer.splits();
        let index = Index::new(set.index);
        let mut game = Game::new(keep_raw);
        game.joined = resume.joined;
        Reader {
            input: Input::new(src, resume.line_start, set.max_line_bytes),
            index,
            st: Reading {
                io: Io::new(sinks, until),
                at: resume.at,
                places: Places::new(resume.line, resume.line_start),
                scan: Scan::new(skip_comments, skip_variations),
                game,
                movetext: Movetext::default(),
                moves: Moves::default(),
                asides: Asides::default(),
                f,
                set,
            },
        }
    }

    /// Reads the input (see [`Until`]); returns the counts of the games
    /// finished, and where it stopped.
    pub(crate) fn run(mut self) -> io::Result<(Report, Stop)> {
        let stop = loop {
            let end = match self.input.lines_end(self.st.at, self.st.places.line_start) {
                Ahead::Lines(end) => end,
                Ahead::More => {
                    // The buffer keeps the line being read, and drops what is before it.
                    let keep = self.st.places.line_start;
                    self.index.build(&[], keep);
                    let h = Held::new(self.input.held(), &self.index);
                    self.st.before_discard(h, keep)?;
                    self.input.read_more(keep)?;
                    continue;
                }
                Ahead::TooLong => {
                    self.past_long_line()?;
                    if let Some(stop) = self.st.io.stop {
                        break stop;
                    }
                    continue;
                }
            };
            if end > self.st.at {
                let (bytes, _, base) = self.input.held();
                let region = &bytes[(self.st.at - base) as usize..(end - base) as usize];
                self.index.build(region, self.st.at);
                let h = Held::new(self.input.held(), &self.index);
                self.st.region(h, end)?;
                if let Some(stop) = self.st.io.stop {
                    break stop;
                }
            }
            if self.input.ended_at(self.st.at) {
                self.index.build(&[], self.st.at);
                let h = Held::new(self.input.held(), &self.index);
                match self.st.end_of_input(h)? {
                    Ok(stop) => break stop,
                    Err((again, spill)) => self.input.read_again(again, spill)?,
                }
            }
        };
        Ok((self.st.io.report, stop))
    }

    /// The line being read is longer than the limit: its game is rejected,
    /// and the line is passed over unread, a block at a time, what its game
    /// keeps of it kept as it passes (`before_discard`). Reading goes on at
    /// the next line, as if the long one were not there.
    #[cold]
    #[inline(never)]
    fn past_long_line(&mut self) -> io::Result<()> {
        let at = self.st.at;
        self.index.build(&[], at);
        let h = Held::new(self.input.held(), &self.index);
        let limit = self.st.set.max_line_bytes;
        if !self.st.line_too_long(h, at, limit)? {
            return Ok(());
        }
        loop {
            if let Some((next, line_end)) = self.input.past_line(self.st.at) {
                self.st.at = next;
                if line_end {
                    self.st.places.new_line(next);
                } else {
                    // The input ends in it: nothing of it is left to read.
                    let line = self.st.places.line;
                    self.st.places.restart(line, next);
                }
                return Ok(());
            }
            let end = self.input.held_end();
            self.index.build(&[], end);
            let h = Held::new(self.input.held(), &self.index);
            self.st.before_discard(h, end)?;
            self.st.at = end;
            self.input.read_more(end)?;
        }
    }
}

impl Reading<'_> {
    /// Reads the whole lines held from `self.at` to `end`.
    fn region(&mut self, h: Held<'_>, end: u64) -> io::Result<()> {
        self.scan.region(h, self.at, end);
        while self.at < end && self.io.stop.is_none() {
            match self.scan.mode {
                scan::Mode::Tokens => self.tokens(h, end)?,
                scan::Mode::Comment => self.comment_text(h, end)?,
                scan::Mode::SkipVariation => self.skip_variation(h, end)?,
            }
        }
        Ok(())
    }
}
