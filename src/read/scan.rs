//! The modes that cross lines, read from the structural index: a
//! comment's text, opaque up to the next `}`; a variation the chain drops,
//! skipped by counting its depth to its `)`; and, while a comment is open,
//! the search for the first line inside it that starts a game, where
//! reading starts again if the comment is never closed.

use super::held::Held;
use super::index::Classes;
use super::state::{Mode, ReadAgain, Scan, Step, Stop};
use super::visitor::Visitor;
use crate::grammar::game_start::Opens;
use crate::grammar::token;
use crate::spill::Spill;
use std::io;

impl Default for Scan {
    fn default() -> Scan {
        Scan {
            mode: Mode::Tokens,
            utf8: true,
            ascii: true,
            comment_in_skip: false,
            pieces: false,
            search: (0, 0, false),
            read_again: None,
            spill: Spill::default(),
            no_close_after: None,
            spilled_fault: None,
        }
    }
}

impl Scan {
    /// A new region, from `at` to `end`, is read.
    pub fn region(&mut self, h: Held<'_>, at: u64, end: u64) {
        self.ascii = h.index.find(Classes::NON_ASCII, at, end).is_none();
        self.utf8 = self.ascii || simdutf8::basic::from_utf8(h.slice(at, end)).is_ok();
    }
}

impl<V: Visitor> Step<'_, '_, V> {
    // ───────────────────────────── comments ─────────────────────────────

    /// A comment opens at `at` (in the game under way: see `game_at`).
    pub(super) fn open_comment(&mut self, h: Held<'_>, at: u64) {
        self.game.marks.comment = self.places.pos(at);
        let in_skip = self.scan.mode == Mode::SkipVariation;
        let s = &mut self.st.scan;
        s.search = (at + 1, self.st.places.line, true);
        s.spilled_fault = None;
        s.comment_in_skip = in_skip;
        s.mode = Mode::Comment;
        s.pieces = false;
        if !in_skip {
            let (depth, after) = (self.game.depth, self.movetext.result.is_some());
            let skip = self.v.begin_comment(depth, after, h.src(), &mut self.st.cx);
            self.st.scan.pieces = !skip.0;
            self.place(h);
        }
    }

    /// A comment's text from `self.at`, up to `}` or `end`.
    pub(super) fn comment_text(&mut self, h: Held<'_>, end: u64) -> io::Result<()> {
        let from = self.at;
        let close = h.index.find(Classes::CLOSE_BRACE, from, end);
        let body_end = close.unwrap_or(end);
        if close.is_none() {
            // The lines of the region are whole; the last line of the
            // input may lack its line end.
            let at_end = h.slice(from, end).last() != Some(&b'\n');
            self.look_for_a_game_in_the_comment(h, end, at_end);
            let opened = self.game.marks.comment.offset;
            if self.scan.read_again.is_some()
                && self.scan.no_close_after.is_some_and(|a| a <= opened)
            {
                // No `}` comes any more: the comment is never closed, and
                // reading goes on from its first line that starts a game
                // now, as it would once the input had ended.
                let to = self.scan.read_again.map_or(end, |r| r.at.max(from));
                // Its lines counted first: a fault there is placed from them.
                self.places.lines_in(h, from, to);
                self.check_utf8(h, from, to);
                return self.read_again_now(h).map(|_| ());
            }
        }
        // What a comment never closed holds from its first line that starts
        // a game on is read again, and checked then.
        let checked_to = self
            .scan
            .read_again
            .map_or(body_end, |r| r.at.clamp(from, body_end));
        self.places.lines_in(h, from, body_end);
        self.check_utf8(h, from, checked_to);
        let body = h.slice(from, body_end);
        let Some(close) = close else {
            if self.scan.pieces {
                self.v.comment(body, &mut self.st.cx);
            }
            self.at = end;
            return Ok(());
        };
        self.at = close + 1;
        if let Some(again) = self.scan.read_again {
            // It closes after all: the text kept to be read again, whose
            // check waited for that, is the comment's.
            match self.scan.spilled_fault.take() {
                Some((pos, message)) => self.error_at_pos(h, pos, message),
                None => self.check_utf8_in(h, again.at.max(h.base), body_end),
            }
        }
        let s = &mut self.scan;
        s.mode = if s.comment_in_skip {
            Mode::SkipVariation
        } else {
            Mode::Tokens
        };
        s.read_again = None;
        if !s.spill.is_empty() {
            s.spill = Spill::default();
        }
        if self.scan.pieces {
            self.v.comment(body, &mut self.st.cx);
            self.v.end_comment(&mut self.st.cx);
            self.place(h);
        } else if self.scan.comment_in_skip {
            self.game.skipped_comments += 1;
        }
        Ok(())
    }

    /// Looks through the text of the comment open, up to `upto` (whole
    /// lines, and, at the input's end, the last one), for the first line
    /// that starts a game: where reading starts again if the comment is
    /// never closed.
    fn look_for_a_game_in_the_comment(&mut self, h: Held<'_>, upto: u64, at_end: bool) {
        let (mut at, mut line, on_first_line) = self.scan.search;
        if self.scan.read_again.is_some() || at >= upto {
            return;
        }
        if on_first_line {
            // The `{` line cannot start a game: on to the next.
            let Some(n) = h.index.find(Classes::LF, at, upto) else {
                self.scan.search.0 = upto;
                return;
            };
            at = n + 1;
            line += 1;
        }
        while at < upto {
            let line_end = match h.index.find(Classes::LF, at, upto) {
                Some(n) => n,
                None if at_end => upto,
                // The rest of this line is still to come.
                None => break,
            };
            // A line that starts a game starts with a tag: a `[` in it first.
            if h.index.find(Classes::BRACKET, at, line_end).is_some() {
                if let Some(blanks) = token::tag_starting(h.slice(at, line_end)) {
                    let tag = at + blanks as u64;
                    self.scan.read_again = Some(ReadAgain { at, line, tag });
                    return;
                }
            }
            at = line_end + 1;
            line += 1;
        }
        self.scan.search = (at.min(upto), line, false);
    }

    /// Before the buffer drops what lies before `keep`: what must be read
    /// again if the comment open is never closed.
    pub(super) fn spill_comment(&mut self, h: Held<'_>, keep: u64) -> io::Result<()> {
        if self.scan.mode != Mode::Comment {
            return Ok(());
        }
        if let Some(again) = self.scan.read_again {
            let from = again.at.max(h.base);
            if from < keep {
                if self.scan.spilled_fault.is_none() {
                    if let Err(e) = simdutf8::compat::from_utf8(h.slice(from, keep)) {
                        let bad = from + e.valid_up_to() as u64;
                        let pos = self.places_pos_before(h, bad);
                        self.scan.spilled_fault = Some((pos, invalid_utf8(h, bad)));
                    }
                }
                self.scan.spill.push(h.slice(from, keep))?;
            }
        }
        Ok(())
    }

    /// At the input's end, a comment never closed that holds a line
    /// starting a game: its game ends at that line's tag, and reading
    /// starts again from that line. Returns where, and what must be read
    /// again (or where reading stops).
    pub(super) fn read_again_after_comment(
        &mut self,
        h: Held<'_>,
    ) -> io::Result<Option<Result<Stop, (u64, Spill)>>> {
        if self.scan.mode != Mode::Comment {
            return Ok(None);
        }
        // No `}` follows the comment's `{`: any comment opened after it is
        // never closed either (`comment_text` need not wait for the end).
        self.scan.no_close_after = Some(self.game.marks.comment.offset);
        Ok(self
            .read_again_now(h)?
            .map(|again| Err((again, std::mem::take(&mut self.scan.spill)))))
    }

    /// The comment open is never closed: its game ends at the tag of its
    /// first line that starts a game, and reading starts again at that
    /// line, whose stream offset it returns (none if the comment holds no
    /// such line).
    fn read_again_now(&mut self, h: Held<'_>) -> io::Result<Option<u64>> {
        let Some(again) = self.scan.read_again.take() else {
            return Ok(None);
        };
        // What it holds is read again, and checked then.
        self.scan.spilled_fault = None;
        self.finish_game(h, again.tag, Some((Opens::Tag, again.tag == again.at)))?;
        self.scan.mode = Mode::Tokens;
        self.game.depth = 0;
        self.at = again.at;
        self.places.restart(again.line, again.at);
        Ok(Some(again.at))
    }

    // ───────────────────────────── variations ─────────────────────────────

    /// A variation opens at `at`, with its label if written.
    pub(super) fn open_variation(
        &mut self,
        h: Held<'_>,
        at: u64,
        label: Option<u32>,
    ) -> io::Result<()> {
        if !self.game_at(h, Opens::Aside, at)? {
            return Ok(());
        }
        self.leave_tags(h);
        if self.game.depth == 0 {
            self.game.marks.variation = self.places.pos(at);
        }
        self.game.depth += 1;
        if self.game.depth > self.set.max_depth {
            self.too_deep(h, at);
            return Ok(());
        }
        let depth = self.game.depth;
        let skip = self
            .v
            .begin_variation(depth, label, h.src(), &mut self.st.cx);
        self.place(h);
        if skip.0 {
            self.game.counts.variations_dropped += 1;
            self.scan.mode = Mode::SkipVariation;
            return Ok(());
        }
        let number = self.movetext.number;
        self.moves.numbers.enter(depth, number);
        Ok(())
    }

    /// A dropped variation from `self.at`: its depth counted to its `)`,
    /// comments inside read as comments, until `end`. A line that starts
    /// with a tag ends it: it was never closed.
    pub(super) fn skip_variation(&mut self, h: Held<'_>, end: u64) -> io::Result<()> {
        const EDGES: Classes = Classes::OPEN_PAREN
            .or(Classes::CLOSE_PAREN)
            .or(Classes::OPEN_BRACE)
            .or(Classes::LF);
        let mut at = self.at;
        if at == self.places.line_start && self.starts_a_game(h, at, end) {
            self.variation_not_closed(h);
            return Ok(());
        }
        while let Some(k) = h.index.find(EDGES, at, end) {
            let next = k + 1;
            match h.from(k)[0] {
                b'\n' => {
                    self.places.new_line(next);
                    if self.starts_a_game(h, next, end) {
                        self.check_utf8(h, self.at, next);
                        self.at = next;
                        self.variation_not_closed(h);
                        return Ok(());
                    }
                }
                // A draw offer `(=)` inside is no variation.
                b'(' if h.from(next).starts_with(b"=)") => {
                    at = next + 2;
                    continue;
                }
                b'(' => {
                    self.game.depth += 1;
                    self.game.counts.variations_dropped += 1;
                    if self.game.depth > self.set.max_depth {
                        self.too_deep(h, k);
                    }
                }
                b')' => {
                    self.game.depth -= 1;
                    if self.game.depth == 0 {
                        self.check_utf8(h, self.at, next);
                        self.at = next;
                        self.scan.mode = Mode::Tokens;
                        return Ok(());
                    }
                }
                _ => {
                    self.check_utf8(h, self.at, k);
                    self.at = next;
                    self.open_comment(h, k);
                    return Ok(());
                }
            }
            at = next;
        }
        self.check_utf8(h, self.at, end);
        self.at = end;
        Ok(())
    }

    /// The variation opened at `at` nests past the limit: the game is
    /// rejected, and the rest of its variations are only counted to their
    /// `)`, as dropped ones are, so that neither the output nor the
    /// writer's memory grows with the depth (kept, a move shows its depth
    /// in dots; split, a variation repeats the moves before it).
    #[cold]
    #[inline(never)]
    fn too_deep(&mut self, h: Held<'_>, at: u64) {
        if !self.cx.has_error() {
            let message = format!(
                "variations nested {} deep: at most {} (--max-depth N raises the limit)",
                self.game.depth, self.set.max_depth
            );
            // The whole game's, even under --split-variations: what is past
            // the limit is not read, so no variation game could be made whole.
            let pos = self.places.pos(at);
            self.game_error_at_pos(h, pos, message);
        }
        self.moves.numbers = Default::default();
        self.scan.mode = Mode::SkipVariation;
    }

    /// Does the line that starts at `at` (before `end`) start with a tag?
    fn starts_a_game(&self, h: Held<'_>, at: u64, end: u64) -> bool {
        if at >= end {
            return false;
        }
        let line_end = h.index.find(Classes::LF, at, end).unwrap_or(end);
        h.index.find(Classes::BRACKET, at, line_end).is_some()
            && token::tag_starting(h.slice(at, line_end)).is_some()
    }

    /// Reports invalid UTF-8 in skipped text from `from` to `to`.
    fn check_utf8(&mut self, h: Held<'_>, from: u64, to: u64) {
        if !self.scan.utf8 {
            self.check_utf8_in(h, from, to);
        }
    }

    /// Reports invalid UTF-8 from `from` to `to`, whatever region holds it.
    fn check_utf8_in(&mut self, h: Held<'_>, from: u64, to: u64) {
        if let Err(e) = simdutf8::compat::from_utf8(h.slice(from, to)) {
            let bad = from + e.valid_up_to() as u64;
            let at = self.places_pos_before(h, bad);
            self.error_at_pos(h, at, invalid_utf8(h, bad));
        }
    }

    /// The position of `at`, on the current line or one before it.
    fn places_pos_before(&self, h: Held<'_>, at: u64) -> crate::diag::Pos {
        let mut pos = self.places.pos(at);
        if at < self.places.line_start {
            let between = h.slice(at, self.places.line_start);
            pos.line -= memchr::memchr_iter(b'\n', between).count() as u64;
        }
        pos
    }

    #[cold]
    #[inline(never)]
    pub(super) fn variation_not_closed(&mut self, h: Held<'_>) {
        let at = self.game.marks.variation;
        self.game_error_at_pos(h, at, "variation not closed: ) is missing");
        self.game.depth = 0;
        self.moves.numbers = Default::default();
        self.scan.mode = super::scan::Mode::Tokens;
    }
}

/// The message for the invalid UTF-8 byte at stream offset `at`, held.
pub(super) fn invalid_utf8(h: Held<'_>, at: u64) -> crate::diag::Message {
    crate::diag::invalid_utf8(h.bytes, (at - h.base) as usize, at)
}
