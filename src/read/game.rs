//! The game assembler: where games start and end, what only a whole game
//! shows, and where each goes once read: written, or rejected with its
//! bytes exactly as read.

use super::held::Held;
use super::state::Mode;
use super::state::{Game, Reading, Resume, Step, Stop, Until};
use super::visitor::{GameEnd, VariationError, Visitor};
use crate::diag::{DiagnosticKind, Message, Pos};
use crate::grammar::game_start::{Opens, Standing};
use crate::grammar::model::Side;
use crate::grammar::token::is_blank;
use crate::report::CutShort;
use crate::spill::Spill;
use std::io::{self, Write};

impl Game {
    pub fn new(keep_raw: bool) -> Game {
        Game {
            keep_raw,
            // Only a game longer than this spills: under --jobs three
            // readers may each hold one (two workers, the merger reading
            // again), with the writer's own (`write::held`) beside it.
            raw: Spill::with_memory(2 << 20),
            ..Game::default()
        }
    }

    /// Its first bytes that left the buffer, those still in memory, and
    /// the stream offset of the first, when they are kept.
    fn kept(&self) -> Option<(&[u8], u64)> {
        self.keep_raw
            .then_some((self.raw.head(), self.start.offset))
    }
}

impl<V: Visitor> Step<'_, '_, V> {
    // ───────────────────────────── diagnostics ─────────────────────────────

    /// An error at stream offset `at` of the current line.
    #[cold]
    #[inline(never)]
    pub(super) fn error_at(&mut self, h: Held<'_>, at: u64, message: impl Into<Message>) {
        let pos = self.places.pos(at);
        self.error_at_pos(h, pos, message);
    }

    /// An error at `pos`. Inside a variation, the visitor may keep it for
    /// that variation alone ([`Visitor::variation_error`]: the variation's
    /// game, with `--split-variations`), but for the errors that break the
    /// game's structure ([`Step::game_error_at_pos`]).
    #[cold]
    #[inline(never)]
    pub(super) fn error_at_pos(&mut self, h: Held<'_>, pos: Pos, message: impl Into<Message>) {
        self.error_with(h, pos, message.into(), None);
    }

    /// [`Step::error_at_pos`]; `unread`: the error is a word where the
    /// half-move of this number and side was due, at this place.
    #[cold]
    #[inline(never)]
    pub(super) fn error_with(
        &mut self,
        h: Held<'_>,
        pos: Pos,
        mut message: Message,
        unread: Option<(u32, Side, Pos)>,
    ) {
        if self.game.depth > 0 && !self.cx.has_error() {
            let at = VariationError {
                pos,
                message,
                unread,
            };
            match self.v.variation_error(at, &mut self.st.cx) {
                Ok(()) => return self.place(h),
                Err(m) => message = m,
            }
        }
        self.game_error_at_pos(h, pos, message);
    }

    /// An error at `pos` that rejects the game, inside a variation or not.
    #[cold]
    #[inline(never)]
    pub(super) fn game_error_at_pos(&mut self, h: Held<'_>, pos: Pos, message: impl Into<Message>) {
        self.cx.error(pos, message);
        self.place(h);
    }

    /// Would an error here be reported? Not after the game's error.
    pub(super) fn reports_errors(&self) -> bool {
        !self.cx.has_error()
    }

    /// A warning at `pos`, about a `problem` the filter repairs as `fix`
    /// says.
    #[cold]
    pub(super) fn warn_fixed_at(
        &mut self,
        h: Held<'_>,
        pos: Pos,
        problem: impl Into<Message>,
        fix: impl std::fmt::Display,
    ) {
        self.cx.warn_fixed(pos, problem, fix);
        self.place(h);
    }

    /// Before the buffer drops what lies before stream offset `keep`:
    /// keeps what the game under way still needs of it, and the visitor
    /// copies what it needs of it.
    pub(super) fn before_discard(&mut self, h: Held<'_>, keep: u64) -> io::Result<()> {
        self.v.discard(h.src(), keep);
        if !self.game.open {
            return Ok(());
        }
        let g = &self.game;
        let m = &g.marks;
        let marks = [g.start, m.last_move, m.last_number, m.variation, m.comment]
            .into_iter()
            .chain(m.result_tag.map(|t| t.1));
        for p in marks {
            if p.line != 0 && p.offset < keep {
                self.places.keep(h.src(), p.offset);
            }
        }
        if self.game.keep_raw {
            let from = self.game.start.offset.max(h.base);
            self.game.raw.push(h.slice(from, keep))?;
        }
        self.spill_comment(h, keep)
    }

    /// The line being read, from stream offset `at` (held up to past
    /// `limit` bytes), is longer than `limit`: its game is rejected, the
    /// game its first token belongs to by the game-start rule (the game
    /// under way when it continues a comment or a dropped variation).
    /// Returns `false` when reading stops here instead (see
    /// [`Step::game_at`]).
    #[cold]
    pub(super) fn line_too_long(&mut self, h: Held<'_>, at: u64, limit: u64) -> io::Result<bool> {
        self.flush_pending(h);
        let rest = h.line_rest(at, usize::try_from(limit).unwrap_or(usize::MAX));
        let (i, opens) = match Opens::of_first_token(rest) {
            Some(first) if self.scan.mode == Mode::Tokens => first,
            // Blanks as far as it is held: a game that has ended ends
            // here, as it would at movetext.
            None if self.scan.mode == Mode::Tokens => (0, Opens::Movetext),
            // The comment or dropped variation under way goes on.
            _ => (0, Opens::Aside),
        };
        let first = at + i as u64;
        if !self.game_at(h, opens, first)? {
            return Ok(false);
        }
        if matches!(opens, Opens::Movetext | Opens::Result) {
            // As movetext would: a tag after it starts the next game.
            self.leave_tags(h);
        }
        let message = format!(
            "this line is longer than {}: its game is rejected, and the line is not read \
             (--max-line-bytes SIZE reads longer lines)",
            bytes_in_words(limit)
        );
        self.error_at(h, first, message);
        Ok(true)
    }

    // ───────────────────────────── the game-start rule ─────────────────────────────

    /// The game-start rule, stated once: does the token at `at`, of this
    /// kind, start a new game (ending the one under way)? A game starts
    /// with any token when none is under way; with a tag once its game is
    /// past its tags or has ended; with movetext once its game has ended
    /// (its result read, or its last move marked `:` or `#`); with a result
    /// once its game has one. Comments and variations belong to the game
    /// under way, ended or not. A game that starts with a tag or movetext
    /// on the line where the game before ended is warned about: two files
    /// joined without a final newline look so. Returns `false` when the
    /// token is not to be read now: reading pauses at the end of the game
    /// under way, and the token is read again as the next game's first;
    /// or reading stops at a boundary asked for ([`Until::Boundary`]).
    #[inline(always)]
    pub(super) fn game_at(&mut self, h: Held<'_>, opens: Opens, at: u64) -> io::Result<bool> {
        // Most tokens come inside a game's movetext, where nothing but a
        // tag may start the next game (`Standing::starts`, said quickly).
        let g = &self.game;
        if g.open && !self.movetext.ended() && (opens != Opens::Tag || !g.past_tags) {
            debug_assert!(!self.standing().starts(opens));
            return Ok(true);
        }
        self.game_at_slow(h, opens, at)
    }

    #[inline(never)]
    fn game_at_slow(&mut self, h: Held<'_>, opens: Opens, at: u64) -> io::Result<bool> {
        let now = self.standing();
        if !now.starts(opens) {
            return Ok(true);
        }
        let starts_line = self.starts_line(h, at);
        if self.game.open {
            let g = &self.game;
            let joined = now.ended && opens != Opens::Result && g.movetext_line == self.places.line;
            self.finish_game(h, at, Some((opens, starts_line)))?;
            // (Not open, it says whether the next game is joined.)
            self.game.joined = joined;
            self.again_at = Some(at);
            return Ok(false);
        }
        if let Until::Boundary { is_boundary, .. } = self.until {
            if is_boundary(at) {
                self.stop = Some(Stop::Boundary(at));
                return Ok(false);
            }
        }
        let joined = self.game.joined;
        self.begin_game(h, at);
        self.game.starts_line = starts_line;
        self.game.joined = joined;
        if joined {
            let pos = self.game.start;
            self.cx.warn(
                pos,
                "two games on one line: a file without a final newline?",
            );
            self.place(h);
        }
        Ok(true)
    }

    // ───────────────────────────── games ─────────────────────────────

    /// Starts a game at stream offset `at`, on the current line.
    #[cold]
    #[inline(never)]
    fn begin_game(&mut self, h: Held<'_>, at: u64) {
        let start = self.places.pos(at);
        let raw = std::mem::take(&mut self.game.raw);
        self.game = Game {
            open: true,
            start,
            start_line: self.places.line_start,
            raw,
            keep_raw: self.game.keep_raw,
            kept_before: self.game.kept_before,
            ..Game::default()
        };
        self.game.raw.clear();
        self.movetext = Default::default();
        self.places.forget();
        self.games += 1;
        let number = self.games;
        self.cx.reset(start, number);
        self.v.begin_game(&mut self.st.cx);
        self.place(h);
    }

    /// The tags are over: the chain learns what each pass wants of the
    /// movetext, and the comments held among the tags go on.
    #[inline]
    pub(super) fn leave_tags(&mut self, h: Held<'_>) {
        if !self.game.past_tags {
            self.tags_end(h);
        }
    }

    #[cold]
    #[inline(never)]
    fn tags_end(&mut self, h: Held<'_>) {
        self.game.past_tags = true;
        self.v.end_tags(&mut self.st.cx);
        self.place(h);
    }

    /// Does stream offset `at`, on the line being read, begin that line
    /// (but for blanks)?
    fn starts_line(&self, h: Held<'_>, at: u64) -> bool {
        let line = self.places.line_start;
        at == line || (line < at && h.holds(line) && h.slice(line, at).iter().all(|&b| is_blank(b)))
    }

    /// How the game under way stands, to the game-start rule.
    pub(super) fn standing(&self) -> Standing {
        Standing {
            open: self.game.open,
            past_tags: self.game.past_tags,
            ended: self.movetext.ended(),
            has_result: self.movetext.result.is_some(),
        }
    }

    /// Ends the game under way at stream offset `end`, where the next one
    /// starts (`next`: its first token's kind, and whether it begins a
    /// line) or the input ends (`None`): checks what only the whole game
    /// shows, and hands it to the visitor's end; reading then pauses.
    #[cold]
    #[inline(never)]
    pub(super) fn finish_game(
        &mut self,
        h: Held<'_>,
        end: u64,
        next: Option<(Opens, bool)>,
    ) -> io::Result<()> {
        self.flush_pending(h);
        if !self.game.open {
            return Ok(());
        }
        let only_comments = !self.game.has_tags && !self.game.past_tags;
        self.leave_tags(h);
        if self.scan.mode == Mode::Comment {
            let at = self.game.marks.comment;
            self.game_error_at_pos(h, at, "comment not closed: } is missing");
            self.scan.mode = Mode::Tokens;
        }
        if self.game.depth > 0 {
            self.variation_not_closed(h);
        }
        let start = self.game.start;
        if only_comments {
            let message = "a comment that belongs to no game: no tags and no moves come with it";
            self.error_at_pos(h, start, message);
        } else if let Some(missing) = self.movetext.dangling() {
            let at = self.game.marks.last_number;
            self.error_at_pos(h, at, missing);
        } else if !self.game.has_tags && !self.movetext.has_moves {
            let message = "no game here: a game has tags ([Variant \"C'escacs\"] first) or moves";
            self.error_at_pos(h, start, message);
        }
        if !self.game.has_variant {
            let problem = "no [Variant \"C'escacs\"] tag";
            let problem = Message::new(DiagnosticKind::NoVariantTag, problem);
            self.warn_fixed_at(h, start, problem, "added");
        }
        if self.movetext.has_moves && !self.movetext.last_move_ends {
            let at = self.game.marks.last_move;
            let message = "the last move has no end marker (: or #)";
            let message = Message::new(DiagnosticKind::NoEndMarker, message);
            self.cx.warn(at, message);
            self.place(h);
        }
        let tag = self.game.marks.result_tag;
        let result = self.movetext.outcome(tag.map(|t| t.0));
        let mut fix_result_tag = None;
        if let Some((written, at)) = tag {
            if written != result {
                let problem = format!(
                    "the Result tag says {} but the game ends {}",
                    written.as_str(),
                    result.as_str()
                );
                if self.set.fix_result {
                    fix_result_tag = Some(result);
                    let fix = format!("written {}", result.as_str());
                    self.warn_fixed_at(h, at, problem, fix);
                } else {
                    let hint = format!("{problem} (--fix-result writes the tag so)");
                    self.cx.warn(at, hint);
                }
            }
        }
        // Left out of `--cut`'s pieces, would it leave the games beside it
        // reading as they do? It and the next begin lines, and the next
        // would begin a game after the last game kept.
        let before = self.game.kept_before;
        let removable =
            self.game.starts_line && next.is_none_or(|(opens, line)| line && before.starts(opens));
        let mut counts = std::mem::take(&mut self.game.counts);
        counts.games_read = 1;
        self.game.end = end;
        let st = &mut *self.st;
        let mut game_end = GameEnd {
            result,
            result_read: st.movetext.result,
            fix_result_tag,
            removable,
            counts,
            skipped_comments: st.game.skipped_comments,
            start: start.offset,
            end,
            src: h.src(),
            kept: st.game.keep_raw.then_some(st.game.raw.head()),
            places: &mut st.places,
            start_pos: start,
            left_out: false,
        };
        let out = self.v.end_game(&mut game_end, &mut st.cx);
        let left_out = game_end.left_out;
        self.place(h);
        if !left_out {
            self.game.kept_before = self.standing();
        }
        self.out = Some(out);
        self.waiting = true;
        self.game.open = false;
        // (Not open, it says whether the next game is joined: not known.)
        self.game.joined = false;
        Ok(())
    }

    /// The input has ended (at `self.at`): ends the game under way, or,
    /// short of a boundary asked for, leaves it unfinished. A comment never
    /// closed ends its game where the first line inside it that starts a
    /// game is, and the input is read again from there: returns where,
    /// with what must be read again.
    #[cold]
    #[inline(never)]
    pub(super) fn end_of_input(&mut self, h: Held<'_>) -> io::Result<Result<Stop, (u64, Spill)>> {
        self.flush_pending(h);
        if let Until::Boundary { whole: false, .. } = self.until {
            let g = &self.game;
            let resume = if g.open {
                Resume {
                    line: g.start.line,
                    line_start: g.start_line,
                    at: g.start.offset,
                    joined: g.joined,
                }
            } else {
                Resume {
                    line: self.places.line,
                    line_start: self.places.line_start,
                    at: self.at,
                    joined: false,
                }
            };
            return Ok(Ok(Stop::Unfinished(resume)));
        }
        if let Some(again) = self.read_again_after_comment(h)? {
            return Ok(again);
        }
        let end = self.at;
        let cut = self.cut_short.as_ref().is_some_and(CutShort::is_set);
        if cut && self.game.open && self.movetext.result.is_none() {
            let message = "the game is cut short here, where the input's text ends early \
                           (the error after the games says why): rejected";
            self.error_at_pos(h, self.places.pos(end), message);
        }
        self.finish_game(h, end, None)?;
        Ok(Ok(Stop::End))
    }
}

impl Reading<'_> {
    /// Gives the game's new diagnostics (the visitor's among them) their
    /// column and source.
    #[inline]
    pub(super) fn place(&mut self, h: Held<'_>) {
        if self.game.placed < self.cx.diagnostics.len() {
            self.place_new(h);
        }
    }

    #[cold]
    #[inline(never)]
    fn place_new(&mut self, h: Held<'_>) {
        let kept = self.game.kept();
        self.places
            .place(h.src(), kept, &mut self.cx, self.game.placed);
        self.game.placed = self.cx.diagnostics.len();
    }

    /// Writes the bytes of the game read last, exactly as read, to `sink`
    /// (those that left the buffer only when kept: [`Settings::keep_raw`]).
    ///
    /// [`Settings::keep_raw`]: super::Settings::keep_raw
    pub(super) fn write_game(&mut self, h: Held<'_>, sink: &mut dyn Write) -> io::Result<()> {
        let (start, end) = (self.game.start.offset, self.game.end);
        write_game(sink, &mut self.game.raw, h, start, end)
    }
}

/// `bytes` as the options take a size: `64 MiB`, `1 KiB`, or `1000 bytes`.
fn bytes_in_words(bytes: u64) -> String {
    [(30, "GiB"), (20, "MiB"), (10, "KiB")]
        .into_iter()
        .find(|&(shift, _)| bytes >= 1 << shift && bytes.is_multiple_of(1 << shift))
        .map_or(format!("{bytes} bytes"), |(shift, unit)| {
            format!("{} {unit}", bytes >> shift)
        })
}

/// Writes the game read from stream offset `start` to `end` to `sink`,
/// byte for byte: `raw`, what of it left the buffer, then what is held.
fn write_game(
    sink: &mut dyn Write,
    raw: &mut Spill,
    h: Held<'_>,
    start: u64,
    end: u64,
) -> io::Result<()> {
    if end < h.base {
        // The game ends in what left the buffer.
        raw.write_to(sink, end - start)
    } else {
        raw.write_to(sink, raw.len())?;
        sink.write_all(h.slice(start.max(h.base), end))
    }
}
