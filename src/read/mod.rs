//! The reader: one pass over the input, a game at a time, each handed to
//! a [`Visitor`] as it is read.
//!
//! - `input.rs`: the one buffer, which holds whole lines and says how far
//!   the input is read.
//! - `index.rs`: stage 1, a vectorised structural index of each region of
//!   lines (line ends, braces, parentheses, `[`, `"`, non-ASCII bytes).
//! - `state.rs`: the reader's state (`Reading`, with each layer's, and
//!   the `Step` a visitor is read to through), which the layers' files
//!   work on and none of them holds.
//! - `scan.rs`: the modes that cross lines, read from the index: a
//!   comment's text up to `}`, a skipped variation up to its `)`, and the
//!   search of a comment never closed for a game to read again.
//! - `tokens.rs`: stage 2, the one loop over the `logos` tokens of each
//!   region of lines; tokens handed on by kind to `tags.rs`, `moves.rs`
//!   (with `movetext.rs`, the numbering's state machine), or, for
//!   variations and comments, kept in `tokens.rs`.
//! - `game.rs`: the game assembler: the game-start rule, and each game's
//!   end.
//! - `places.rs`: positions, worked out when a diagnostic is made.
//! - `visitor.rs`: what the reader hands on, and what it is answered.
//!
//! Every input byte belongs to exactly one game or to the blank space
//! before the first: a game runs from its first byte to the next game's
//! first byte (or the end of the input); a visitor may have a game's bytes
//! exactly as read ([`Reader::write_game`]).

mod game;
mod held;
mod index;
mod input;
mod moves;
mod movetext;
mod places;
mod scan;
mod state;
mod tags;
mod tokens;
mod visitor;

use crate::diag::Diagnostic;
use crate::pass::Context;
use crate::report::{CutShort, Origin};
use held::Held;
pub use held::Source;
pub(crate) use index::Impl as IndexImpl;
use index::Index;
pub(crate) use input::read_some;
use input::{Ahead, Input};
use movetext::Movetext;
use places::Places;
use state::{Game, Mode, Moves, Reading, Scan, Step};
pub(crate) use state::{Resume, Settings, Stop, Until};
use std::io::{self, Read, Write};
pub use visitor::{GameEnd, MoveRead, Skip, TagRead, VariationError, Visitor};

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

/// Reads games from a byte stream, one at a time, handing each to a
/// [`Visitor`] as it goes: the one reader of this crate, which the filter,
/// `--jobs`, [`read_games`](crate::read_games) and the Python package all read through.
///
/// ```
/// use ctlpgn_filter::read::{GameEnd, MoveRead, Reader, Visitor};
/// use ctlpgn_filter::Context;
///
/// /// Counts each game's half-moves.
/// struct Plies(u32);
///
/// impl Visitor for Plies {
///     type Output = (u32, bool);
///     fn begin_game(&mut self, _cx: &mut Context) {
///         self.0 = 0;
///     }
///     fn half_move(&mut self, _mv: &MoveRead<'_>, _cx: &mut Context) {
///         self.0 += 1;
///     }
///     fn end_game(&mut self, _end: &mut GameEnd<'_>, cx: &mut Context) -> (u32, bool) {
///         (self.0, cx.has_error())
///     }
/// }
///
/// let input = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n2. F8-F12:\n*\n\n\
///              [Variant \"C'escacs\"]\n1. E7-E13 ??: { no good }\n*\n";
/// let mut reader = Reader::new(input.as_bytes());
/// let mut plies = Plies(0);
/// assert_eq!(reader.read_game(&mut plies).unwrap(), Some((3, false)));
/// assert_eq!(reader.read_game(&mut plies).unwrap(), Some((1, false)));
/// assert_eq!(reader.read_game(&mut plies).unwrap(), None);
/// ```
pub struct Reader<'u, R> {
    input: Input<R>,
    index: Index,
    st: Reading<'u>,
    /// A comment never closed ended the game read last: the input is read
    /// again from here, with what left the buffer, once that game's bytes
    /// are let go (the next [`Reader::read_game`]).
    again: Option<(u64, crate::spill::Spill)>,
    /// The stream offsets the index and the region's checks cover: a
    /// region a game ended in is read on without indexing it again.
    indexed: (u64, u64),
}

/// The longest line the reader reads by default, in bytes (64 MiB): see
/// [`FilterBuilder::max_line_bytes`](crate::FilterBuilder::max_line_bytes).
pub const DEFAULT_MAX_LINE_BYTES: u64 = 64 << 20;
/// How deep variations may nest by default ([`FilterBuilder::max_depth`](crate::FilterBuilder::max_depth)):
/// far deeper than any record written by hand (the spec's nest two or
/// three), and shallow enough that the output a hostile nesting makes
/// stays a small multiple of its input.
pub const DEFAULT_MAX_DEPTH: u32 = 64;

impl<R: Read> Reader<'static, R> {
    /// A reader of `src` from its start, with the default settings: lines
    /// up to [`DEFAULT_MAX_LINE_BYTES`] long, variations up to
    /// [`DEFAULT_MAX_DEPTH`] deep.
    pub fn new(src: R) -> Reader<'static, R> {
        let set = Settings {
            index: IndexImpl::best(),
            fix_result: false,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            max_depth: DEFAULT_MAX_DEPTH,
            strict: false,
            silence_warnings: false,
            keep_raw: false,
            made_moves: false,
        };
        Reader::resumed(set, Resume::from(Origin::START), Until::End, None, src)
    }
}

impl<'u, R: Read> Reader<'u, R> {
    /// A reader from `resume`, the start of a stream (a line that is line
    /// 1, at offset 0) or of a game within one, that reads as far as
    /// `until` says.
    pub(crate) fn resumed(
        set: Settings,
        resume: Resume,
        until: Until<'u>,
        cut_short: Option<CutShort>,
        src: R,
    ) -> Reader<'u, R> {
        let mut game = Game::new(set.keep_raw);
        game.joined = resume.joined;
        Reader {
            input: Input::new(src, resume.line_start, set.max_line_bytes),
            index: Index::new(set.index),
            again: None,
            indexed: (0, 0),
            st: Reading {
                cx: Context::new(set.strict, set.silence_warnings),
                set,
                until,
                stop: None,
                waiting: false,
                again_at: None,
                cut_short,
                games: 0,
                at: resume.at,
                places: Places::new(resume.line, resume.line_start),
                scan: Scan::default(),
                game,
                movetext: Movetext::default(),
                moves: Moves::default(),
            },
        }
    }

    /// Where reading stopped, once [`Reader::read_game`] has handed back
    /// `None`.
    pub(crate) fn stop(&self) -> Stop {
        self.st.stop.unwrap_or(Stop::End)
    }

    /// The context of the game read last: its diagnostics, placed, in the
    /// order they were made.
    pub fn context(&self) -> &Context {
        &self.st.cx
    }

    /// The context of the game read last, to take its diagnostics from.
    pub(crate) fn context_mut(&mut self) -> &mut Context {
        &mut self.st.cx
    }

    /// Reads the next game, handing it to `visitor`; returns what the
    /// visitor made of it ([`Visitor::end_game`]), or `None` at the end of
    /// the input.
    pub fn read_game<V: Visitor>(&mut self, visitor: &mut V) -> io::Result<Option<V::Output>> {
        if let Some((again, spill)) = self.again.take() {
            self.input.read_again(again, spill)?;
        }
        let mut s = Step {
            st: &mut self.st,
            v: visitor,
            out: None,
        };
        s.waiting = false;
        if s.stop.is_some() {
            return Ok(None);
        }
        loop {
            let end = match self.input.lines_end(s.at, s.places.line_start) {
                Ahead::Lines(end) => end,
                Ahead::More => {
                    // The buffer keeps the line being read, and drops what is before it.
                    let keep = s.places.line_start;
                    self.indexed = (0, 0);
                    self.index.build(&[], keep);
                    let h = Held::new(self.input.held(), &self.index);
                    s.before_discard(h, keep)?;
                    self.input.read_more(keep)?;
                    continue;
                }
                Ahead::TooLong => {
                    self.indexed = (0, 0);
                    Reader::past_long_line(&mut self.input, &mut self.index, &mut s)?;
                    if s.paused() {
                        break;
                    }
                    continue;
                }
            };
            if end > s.at {
                if !(self.indexed.0 <= s.at && self.indexed.1 == end) {
                    let (bytes, _, base) = self.input.held();
                    let region = &bytes[(s.at - base) as usize..(end - base) as usize];
                    self.index.build(region, s.at);
                    let h = Held::new(self.input.held(), &self.index);
                    s.st.scan.region(h, s.st.at, end);
                    self.indexed = (s.at, end);
                }
                let h = Held::new(self.input.held(), &self.index);
                s.region(h, end)?;
                if s.paused() {
                    break;
                }
            }
            if self.input.ended_at(s.at) {
                self.indexed = (0, 0);
                self.index.build(&[], s.at);
                let h = Held::new(self.input.held(), &self.index);
                match s.end_of_input(h)? {
                    Ok(stop) => {
                        s.stop.get_or_insert(stop);
                        break;
                    }
                    Err(again) => {
                        // It ended the game read last (`finish_game`).
                        self.again = Some(again);
                        break;
                    }
                }
            }
        }
        Ok(s.out.take())
    }

    /// Writes the bytes of the game read last, exactly as read, to `sink`:
    /// for the rejects, say. Those that left the reader's buffer are there
    /// only when it was told to keep them.
    pub fn write_game(&mut self, sink: &mut dyn Write) -> io::Result<()> {
        let h = Held::new(self.input.held(), &self.index);
        self.st.write_game(h, sink)
    }

    /// The line being read is longer than the limit: its game is rejected,
    /// and the line is passed over unread, a block at a time, what its game
    /// keeps of it kept as it passes (`before_discard`). Reading goes on at
    /// the next line, as if the long one were not there.
    #[cold]
    #[inline(never)]
    fn past_long_line<V: Visitor>(
        input: &mut Input<R>,
        index: &mut Index,
        s: &mut Step<'_, 'u, V>,
    ) -> io::Result<()> {
        let at = s.at;
        index.build(&[], at);
        let h = Held::new(input.held(), index);
        let limit = s.set.max_line_bytes;
        if !s.line_too_long(h, at, limit)? {
            return Ok(());
        }
        loop {
            if let Some((next, line_end)) = input.past_line(s.at) {
                s.at = next;
                if line_end {
                    s.places.new_line(next);
                } else {
                    // The input ends in it: nothing of it is left to read.
                    let line = s.places.line;
                    s.places.restart(line, next);
                }
                return Ok(());
            }
            let end = input.held_end();
            index.build(&[], end);
            let h = Held::new(input.held(), index);
            s.before_discard(h, end)?;
            s.at = end;
            input.read_more(end)?;
        }
    }
}

impl<V: Visitor> Step<'_, '_, V> {
    /// Reads the whole lines held from `self.at` to `end`, indexed.
    fn region(&mut self, h: Held<'_>, end: u64) -> io::Result<()> {
        while self.at < end && !self.paused() {
            match self.scan.mode {
                Mode::Tokens => self.tokens(h, end)?,
                Mode::Comment => self.comment_text(h, end)?,
                Mode::SkipVariation => self.skip_variation(h, end)?,
            }
        }
        Ok(())
    }
}
