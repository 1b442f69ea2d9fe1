//! The reader: the one pass over the input. The tokenizer reads tags and
//! movetext over whole buffers of lines; a small state machine around it
//! takes over where a token opens what may cross lines: a comment's text
//! (found with `memchr` up to `}`) and a variation the chain drops
//! (skipped by counting depth). Game boundaries, move numbering and the
//! result are decided here; what to keep and how to spell it is the
//! passes' and the writer's business.
//!
//! Every input byte belongs to exactly one game or to the blank space
//! before the first: a game runs from its first byte to the next game's
//! first byte (or the end of the input), and a rejected game's bytes are
//! handed to the rejects sink exactly as read.

mod input;
mod movetext;

use crate::diag::{
    char_column, chars_in, excerpt_at, invalid_utf8, Diagnostic, DiagnosticKind, Message, Severity,
};
use crate::filter::{Filter, Origin, Report};
use crate::grammar::half_move::{self, Traits};
use crate::grammar::model::{Check, HalfMove, Outcome, Rating, Side};
use crate::grammar::standard_chess;
use crate::grammar::token::{self, label_value, number_value, tag_parts, Token};
use crate::passes::{Context, Flow, Interest, Tag, Variation};
use crate::pdtl::Pdtl;
pub(crate) use input::read_some;
use input::{Input, Spill};
use logos::Logos;
use movetext::Movetext;
use std::fmt;
use std::io::{self, Read, Write};
use unicode_normalization::UnicodeNormalization;

/// Who reads the next bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The tokenizer.
    Tokens,
    /// A comment's text, up to `}`.
    Comment,
    /// A variation the chain drops, up to its `)`.
    SkipVariation,
}

/// What a token is to the game-start rule ([`Reading::game_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opens {
    Tag,
    Movetext,
    Result,
    /// A comment or a variation.
    Aside,
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
}

impl From<Origin> for Resume {
    /// A piece of a stream starts a line: the one after the lines before it.
    fn from(origin: Origin) -> Resume {
        Resume {
            line: origin.line + 1,
            line_start: origin.byte,
            at: origin.byte,
        }
    }
}

/// A place in the input that a diagnostic made later may point at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Mark {
    line: u64,
    column: u64,
    /// Stream offset.
    at: u64,
}

/// What is known of the game being read.
#[derive(Debug, Default)]
struct Game {
    open: bool,
    /// Its first byte, and where that byte is.
    start: Mark,
    /// Where the line of its first byte starts.
    start_line: u64,
    /// Anything but tags and comments was read: a tag now starts a new game.
    past_tags: bool,
    has_tags: bool,
    has_variant: bool,
    has_setup: bool,
    result_tag: Option<(Outcome, Mark)>,
    last_move: Mark,
    /// The outermost variation open.
    variation: Mark,
    /// The comment open.
    comment: Mark,
    /// The last move number or `...`.
    last_number: Mark,
    /// The line of the last movetext token (0 for none).
    movetext_line: u64,
}

/// A half-move read, waiting for the ratings and indicators after it on
/// its line.
#[derive(Clone, Copy, Debug)]
struct Pending {
    mv: HalfMove,
    traits: Traits,
    /// Its stream offset.
    at: u64,
    /// Where its text is in the input, when that text is what
    /// [`HalfMove::write_move`] writes (stream offsets).
    text: Option<(u64, u64)>,
}

/// Numbering inside kept variations: tracked loosely, only to tell White's
/// moves from Black's.
#[derive(Debug, Default)]
struct VariationNumbers {
    number: u32,
    side: Option<Side>,
    /// (number, side) of each enclosing level.
    stack: Vec<(u32, Option<Side>)>,
}

/// A comment never closed: where reading starts again, once the input has
/// ended, so that the games quoted in it are not lost.
#[derive(Clone, Copy, Debug)]
struct ReadAgain {
    /// Stream offset of the first line inside the comment that starts a
    /// game, and its number.
    at: u64,
    line: u64,
    /// Stream offset of that line's tag: the comment's game ends there,
    /// as a game ends where the next one's first token is.
    tag: u64,
}

/// A piece of a line kept for a diagnostic about it made after the line
/// left the buffer.
#[derive(Debug)]
struct Excerpt {
    line: u64,
    column: u64,
    text: String,
    first_column: u64,
}

/// The text a token was read from: the input, or a word folded with NFKC
/// (full-width letters and digits), whose bytes map back to the input.
#[derive(Clone, Copy)]
struct Span<'a> {
    text: &'a [u8],
    /// Stream offset of `text[0]`.
    at: u64,
    /// For folded text: the stream offset of the word folded, and the
    /// offset in it of each byte of `text`.
    map: Option<(u64, &'a [u32])>,
}

impl Span<'_> {
    /// The stream offset of `text[i]`.
    fn offset(&self, i: usize) -> u64 {
        match self.map {
            None => self.at + i as u64,
            Some((word, m)) => word + u64::from(m.get(i).or(m.last()).copied().unwrap_or(0)),
        }
    }
}

pub(crate) struct Reader<'f, R> {
    input: Input<R>,
    st: Reading<'f>,
}

/// Everything the reader knows but the input itself.
pub(crate) struct Reading<'f> {
    f: &'f mut Filter,
    until: Until<'f>,
    /// Where reading stopped short of the input's end, once it has.
    stop: Option<Stop>,
    /// The counts of the game under way, added to `report` as it ends.
    counts: Report,
    out: &'f mut dyn Write,
    rejects: Option<&'f mut dyn Write>,
    /// Where a game the verdict sets aside goes, as read: a duplicate, or
    /// with `--jobs` a game the merger may find one.
    aside: Option<&'f mut dyn Write>,
    on_diagnostic: &'f mut dyn FnMut(&Diagnostic),
    report: Report,
    /// The stream offset up to which the input is read.
    at: u64,
    /// The line being read, where it starts, and the first line held.
    line: u64,
    line_start: u64,
    /// A column computed on the current line: (stream offset, column).
    column_cache: (u64, u64),
    /// The lines being read are ASCII (from the current line's start), so
    /// that a column is a count of bytes.
    region_ascii: bool,
    mode: Mode,
    /// Variation depth, kept or skipped.
    depth: u32,
    /// The comment open is inside a dropped variation.
    comment_in_skip: bool,
    /// The comment's first line (with its `{`) is not looked through yet.
    comment_on_first_line: bool,
    comment_next_line: u64,
    /// The chain drops every comment, every variation: skip them unread.
    skip_comments: bool,
    skip_variations: bool,
    game: Game,
    movetext: Movetext,
    /// The half-move read last, when `has_pending`.
    pending: Pending,
    has_pending: bool,
    numbers: VariationNumbers,
    /// The text of a kept comment that runs past a buffer's end.
    comment: Vec<u8>,
    /// Kept comments read among the tags, end to end, and where each ends.
    held: Vec<u8>,
    held_ends: Vec<usize>,
    /// With rejects: the current game's bytes that left the buffer.
    raw: Vec<u8>,
    /// The comment open is never closed: where to read again, what must
    /// be read again, and how far its text was looked at for a game start.
    read_again: Option<ReadAgain>,
    spill: Spill,
    comment_next: u64,
    excerpts: Vec<Excerpt>,
    /// Diagnostics of the game that have their source already.
    sourced: usize,
    /// NFKC of a word, and the input offset of each of its bytes.
    fold: Vec<u8>,
    fold_map: Vec<u32>,
    scratch: Vec<u8>,
    /// The bytes being read are valid UTF-8 (checked a buffer at a time).
    utf8: bool,
}

impl<'f, R: Read> Reader<'f, R> {
    /// A reader from `resume`, the start of a stream (a line that is line
    /// 1, at offset 0) or of a game within one.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        f: &'f mut Filter,
        resume: Resume,
        until: Until<'f>,
        src: R,
        out: &'f mut dyn Write,
        rejects: Option<&'f mut dyn Write>,
        aside: Option<&'f mut dyn Write>,
        on_diagnostic: &'f mut dyn FnMut(&Diagnostic),
    ) -> Reader<'f, R> {
        let skip_comments = f.chain.drops(Interest::COMMENTS);
        let skip_variations = f.chain.drops(Interest::VARIATIONS);
        Reader {
            input: Input::new(src, resume.line_start),
            st: Reading {
                f,
                until,
                stop: None,
                counts: Report::default(),
                out,
                rejects,
                aside,
                on_diagnostic,
                report: Report::default(),
                at: resume.at,
                line: resume.line,
                line_start: resume.line_start,
                column_cache: (resume.line_start, 1),
                region_ascii: false,
                mode: Mode::Tokens,
                depth: 0,
                comment_in_skip: false,
                comment_on_first_line: false,
                comment_next_line: 0,
                skip_comments,
                skip_variations,
                game: Game::default(),
                movetext: Movetext::default(),
                pending: Pending {
                    mv: HalfMove::new(
                        0,
                        Side::White,
                        crate::grammar::model::Action::ForcedPromotion {
                            at: crate::Hex::from_index(0),
                            piece: crate::Glyph::letter(b'D'),
                        },
                        None,
                    ),
                    traits: Traits::default(),
                    at: 0,
                    text: None,
                },
                has_pending: false,
                numbers: VariationNumbers::default(),
                comment: Vec::new(),
                held: Vec::new(),
                held_ends: Vec::new(),
                raw: Vec::new(),
                read_again: None,
                spill: Spill::default(),
                comment_next: 0,
                excerpts: Vec::new(),
                sourced: 0,
                fold: Vec::new(),
                fold_map: Vec::new(),
                scratch: Vec::new(),
                utf8: true,
            },
        }
    }

    /// Reads the input (see [`Until`]); returns the counts of the games
    /// finished, and where it stopped.
    pub(crate) fn run(mut self) -> io::Result<(Report, Stop)> {
        let stop = loop {
            let Some(end) = self.input.lines_end(self.st.at) else {
                let (held, base) = self.input.held();
                let keep = self.st.line_start;
                self.st.before_discard(held, base, keep)?;
                self.input.read_more(keep)?;
                continue;
            };
            if end > self.st.at {
                let (held, base) = self.input.held();
                self.st.region(held, base, end)?;
                if let Some(stop) = self.st.stop {
                    break stop;
                }
            }
            if self.input.ended_at(self.st.at) {
                let (held, base) = self.input.held();
                match self.st.end_of_input(held, base)? {
                    Ok(stop) => break stop,
                    Err((again, spill)) => self.input.read_again(again, spill)?,
                }
            }
        };
        Ok((self.st.report, stop))
    }
}

impl Reading<'_> {
    // ───────────────────────────── positions ─────────────────────────────

    /// The column of stream offset `at` on the current line.
    #[inline]
    fn column(&mut self, held: &[u8], base: u64, at: u64) -> u64 {
        if self.region_ascii {
            return at - self.line_start + 1;
        }
        let (o, c) = self.column_cache;
        if at < o {
            let line = &held[(self.line_start - base) as usize..];
            return char_column(line, (at - self.line_start) as usize);
        }
        let c = c + chars_in(&held[(o - base) as usize..(at - base) as usize]);
        self.column_cache = (at, c);
        c
    }

    fn mark(&mut self, held: &[u8], base: u64, at: u64) -> Mark {
        Mark {
            line: self.line,
            column: self.column(held, base, at),
            at,
        }
    }

    /// A new line starts at stream offset `at`.
    #[inline]
    fn new_line(&mut self, at: u64) {
        self.line += 1;
        self.line_start = at;
        self.column_cache = (at, 1);
    }

    /// Counts the lines in `text`, which ends at stream offset `end`.
    fn lines_in(&mut self, text: &[u8], end: u64) {
        if let Some(last) = memchr::memrchr(b'\n', text) {
            let n = memchr::memchr_iter(b'\n', text).count() as u64;
            self.line += n - 1;
            self.new_line(end - (text.len() - last - 1) as u64);
        }
    }

    // ───────────────────────────── diagnostics ─────────────────────────────

    /// An error at stream offset `at`, on the current line or (inside a
    /// comment's text) on a line before it.
    #[cold]
    #[inline(never)]
    fn error_at(&mut self, held: &[u8], base: u64, at: u64, message: impl Into<Message>) {
        let (line, column) = self.position(held, base, at);
        let n = self.f.cx.diagnostics.len();
        self.f.cx.error(line, column, message);
        if self.f.cx.diagnostics.len() > n {
            let (text, first) = excerpt_at(held, (at - base) as usize, column);
            let d = &mut self.f.cx.diagnostics[n];
            d.source = text;
            d.source_column = first;
        }
        self.fill_sources(held, base);
    }

    /// A warning at stream offset `at` of the current line, about a
    /// `problem` the filter repairs as `fix` says.
    #[cold]
    fn warn_fixed_at(
        &mut self,
        held: &[u8],
        base: u64,
        at: u64,
        problem: impl Into<Message>,
        fix: impl fmt::Display,
    ) {
        let (line, column) = self.position(held, base, at);
        self.f.cx.warn_fixed(line, column, problem, fix);
        self.fill_sources(held, base);
    }

    /// The line and column of stream offset `at`, held, up to the current line.
    fn position(&mut self, held: &[u8], base: u64, at: u64) -> (u64, u64) {
        if at >= self.line_start {
            return (self.line, self.column(held, base, at));
        }
        let i = (at - base) as usize;
        let later = memchr::memchr_iter(b'\n', &held[i..(self.line_start - base) as usize]).count();
        let start = memchr::memrchr(b'\n', &held[..i]).map_or(0, |n| n + 1);
        (
            self.line - later as u64,
            char_column(&held[start..], i - start),
        )
    }

    /// A diagnostic made later about `mark`: `say` reports it to the
    /// context at the mark's line and column.
    #[cold]
    #[inline(never)]
    fn late(
        &mut self,
        held: &[u8],
        base: u64,
        mark: Mark,
        say: impl FnOnce(&mut Context, u64, u64),
    ) {
        let mark = resolve(held, base, mark);
        let n = self.f.cx.diagnostics.len();
        say(&mut self.f.cx, mark.line, mark.column);
        if self.f.cx.diagnostics.len() > n && mark.at >= base {
            let (text, first) = excerpt_at(held, (mark.at - base) as usize, mark.column);
            let d = &mut self.f.cx.diagnostics[n];
            d.source = text;
            d.source_column = first;
        }
        self.fill_sources(held, base);
    }

    /// Gives the game's new diagnostics (the passes' among them) their
    /// source: the line as held, or an excerpt kept when the line left the
    /// buffer.
    #[inline]
    fn fill_sources(&mut self, held: &[u8], base: u64) {
        if self.sourced < self.f.cx.diagnostics.len() {
            self.fill_new_sources(held, base);
        }
    }

    #[cold]
    #[inline(never)]
    fn fill_new_sources(&mut self, held: &[u8], base: u64) {
        while self.sourced < self.f.cx.diagnostics.len() {
            let i = self.sourced;
            self.sourced += 1;
            let d = &self.f.cx.diagnostics[i];
            if !d.source.is_empty() {
                continue;
            }
            let (line, column) = (d.line, d.column);
            let source = match self.offset_of(held, base, line, column) {
                Some(at) => Some(excerpt_at(held, (at - base) as usize, column)),
                None => self
                    .excerpts
                    .iter()
                    .find(|e| e.line == line && e.column == column)
                    .map(|e| (e.text.clone(), e.first_column)),
            };
            if let Some((text, first)) = source {
                let d = &mut self.f.cx.diagnostics[i];
                d.source = text;
                d.source_column = first;
            }
        }
    }

    /// The stream offset of `line`, `column`, if held: on the current line
    /// found from the last column computed there, which is near.
    #[cold]
    #[inline(never)]
    fn offset_of(&self, held: &[u8], base: u64, line: u64, column: u64) -> Option<u64> {
        if line == self.line {
            let (mut o, mut c) = self.column_cache;
            let mut i = (o - base) as usize;
            while c > column && o > self.line_start {
                i -= 1;
                o -= 1;
                if held[i] & 0xC0 != 0x80 {
                    c -= 1;
                }
            }
            while c < column && i < held.len() && held[i] != b'\n' {
                i += 1;
                o += 1;
                while i < held.len() && held[i] & 0xC0 == 0x80 {
                    i += 1;
                    o += 1;
                }
                c += 1;
            }
            return Some(o);
        }
        let text = self.held_line(held, base, line)?;
        let start = text.as_ptr() as usize - held.as_ptr() as usize;
        Some(base + (start + byte_of_column(text, column)) as u64)
    }

    /// The bytes of input line `line` (without its line end), if held.
    /// The buffer starts at a line's start, and holds the current line.
    fn held_line<'h>(&self, held: &'h [u8], base: u64, line: u64) -> Option<&'h [u8]> {
        if line > self.line {
            return None;
        }
        let mut start = (self.line_start - base) as usize;
        for _ in line..self.line {
            if start == 0 {
                return None;
            }
            start = memchr::memrchr(b'\n', &held[..start - 1]).map_or(0, |n| n + 1);
        }
        let rest = &held[start..];
        let text = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
        Some(text.strip_suffix(b"\r").unwrap_or(text))
    }

    /// Before the buffer drops what lies before stream offset `keep`:
    /// keeps what the game under way still needs of it.
    fn before_discard(&mut self, held: &[u8], base: u64, keep: u64) -> io::Result<()> {
        let gone = &held[..(keep - base) as usize];
        if !self.game.open {
            return Ok(());
        }
        // Excerpts of the places later diagnostics may point at.
        let g = &mut self.game;
        let marks = [
            &mut g.start,
            &mut g.last_move,
            &mut g.last_number,
            &mut g.variation,
            &mut g.comment,
        ]
        .into_iter()
        .chain(g.result_tag.as_mut().map(|t| &mut t.1));
        for m in marks {
            if m.line != 0 && m.at >= base && m.at < keep {
                *m = resolve(held, base, *m);
                let (text, first_column) = excerpt_at(held, (m.at - base) as usize, m.column);
                self.excerpts.push(Excerpt {
                    line: m.line,
                    column: m.column,
                    text,
                    first_column,
                });
            }
        }
        if self.rejects.is_some() || self.aside.is_some() {
            let from = self.game.start.at.max(base);
            self.raw
                .extend_from_slice(&held[(from - base) as usize..gone.len()]);
        }
        if self.mode == Mode::Comment {
            self.look_for_a_game_in_the_comment(held, base, keep, false);
            if let Some(again) = self.read_again {
                let from = again.at.max(base);
                self.spill.push(&held[(from - base) as usize..gone.len()])?;
            }
        }
        Ok(())
    }

    // ───────────────────────────── the input ─────────────────────────────

    /// Reads the whole lines of `held` from `self.at` to `end`.
    fn region(&mut self, held: &[u8], base: u64, end: u64) -> io::Result<()> {
        let bytes = &held[(self.at - base) as usize..(end - base) as usize];
        let lines = &held[(self.line_start - base) as usize..(end - base) as usize];
        self.region_ascii = lines.is_ascii();
        self.utf8 = self.region_ascii || simdutf8::basic::from_utf8(bytes).is_ok();
        while self.at < end && self.stop.is_none() {
            match self.mode {
                Mode::Tokens => self.tokens(held, base, end)?,
                Mode::Comment => self.comment_text(held, base, end),
                Mode::SkipVariation => self.skip_variation(held, base, end)?,
            }
        }
        Ok(())
    }

    /// Tokens from `self.at` until the mode changes or `end`.
    fn tokens(&mut self, held: &[u8], base: u64, end: u64) -> io::Result<()> {
        let from = self.at;
        let text = &held[(from - base) as usize..(end - base) as usize];
        let mut lx = Token::lexer(text);
        while let Some(tok) = lx.next() {
            let span = lx.span();
            let at = from + span.start as u64;
            let slice = &text[span.clone()];
            // A half-move waits for what annotates it; anything else (but
            // a blank the tokenizer leaves to `not_a_token`) hands it on.
            if self.has_pending
                && !tok.is_ok_and(Token::annotates)
                && blank_len(&text[span.start..]).is_none()
            {
                self.flush_pending(held, base);
            }
            // The common tokens of a game's movetext, straight; the rest,
            // and these anywhere else, through `token`.
            let in_movetext = self.depth == 0 && self.game.past_tags && !self.movetext.ended();
            match tok {
                Ok(Token::LineEnd) => {
                    self.new_line(at + 1);
                    continue;
                }
                Ok(Token::Word) if in_movetext => {
                    let s = Span {
                        text: slice,
                        at,
                        map: None,
                    };
                    self.movetext_word(held, base, s);
                    if self.at != from {
                        // A move with blanks around its dash was read up to `self.at`.
                        return Ok(());
                    }
                    continue;
                }
                Ok(Token::Number) if in_movetext => {
                    self.move_number(held, base, Token::Number, slice, at);
                    continue;
                }
                Ok(Token::Comma) if in_movetext && self.movetext.black_due() => continue,
                Ok(tok) => {
                    let s = Span {
                        text: slice,
                        at,
                        map: None,
                    };
                    self.token(held, base, tok, s)?;
                    if self.at != from {
                        return Ok(());
                    }
                }
                Err(()) => {
                    self.not_a_token(held, base, &text[span.start..], at)?;
                    if self.at != from {
                        // A word was folded and read up to `self.at`.
                        return Ok(());
                    }
                }
            }
            if self.mode != Mode::Tokens || self.stop.is_some() {
                self.at = from + span.end as u64;
                return Ok(());
            }
        }
        self.at = end;
        Ok(())
    }

    /// Bytes no token starts with: a full-width word to fold, or an error.
    #[cold]
    #[inline(never)]
    fn not_a_token(&mut self, held: &[u8], base: u64, rest: &[u8], at: u64) -> io::Result<()> {
        if let Some(n) = blank_len(rest) {
            self.at = at + n as u64;
            return Ok(());
        }
        if rest[0] >= 0x80 {
            let word_end = rest
                .iter()
                .position(|&c| matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'{'))
                .unwrap_or(rest.len());
            if self.fold_word(&rest[..word_end]) {
                return self.folded_tokens(held, base, at, word_end);
            }
        }
        self.unexpected(held, base, rest, at)
    }

    /// NFKC-folds `word` into `self.fold` if that changes its first
    /// character (full-width letters and digits, say).
    fn fold_word(&mut self, word: &[u8]) -> bool {
        let Ok(s) = std::str::from_utf8(word) else {
            return false;
        };
        let Some(c) = s.chars().next() else {
            return false;
        };
        if std::iter::once(c).nfkc().eq(std::iter::once(c)) {
            return false;
        }
        self.fold.clear();
        self.fold_map.clear();
        let mut buf = [0u8; 4];
        for (i, ch) in s.char_indices() {
            for n in std::iter::once(ch).nfkc() {
                let e = n.encode_utf8(&mut buf);
                self.fold.extend_from_slice(e.as_bytes());
                self.fold_map.extend(std::iter::repeat_n(i as u32, e.len()));
            }
        }
        true
    }

    /// Reads the tokens of the folded word at `at`, `len` bytes long.
    fn folded_tokens(&mut self, held: &[u8], base: u64, at: u64, len: usize) -> io::Result<()> {
        let fold = std::mem::take(&mut self.fold);
        let map = std::mem::take(&mut self.fold_map);
        self.at = at + len as u64;
        let mut lx = Token::lexer(&fold[..]);
        while let Some(tok) = lx.next() {
            let span = lx.span();
            let s = Span {
                text: &fold[span.clone()],
                at: at + u64::from(map[span.start]),
                map: Some((at, &map[span.start..])),
            };
            match tok {
                Ok(tok) => self.token(held, base, tok, s)?,
                Err(()) if blank_len(&fold[span.start..]).is_some() => {}
                Err(()) => self.unexpected(held, base, &fold[span.start..], s.at)?,
            }
            if self.mode != Mode::Tokens || self.stop.is_some() {
                self.at = match map.get(span.end) {
                    Some(&o) => at + u64::from(o),
                    None => at + len as u64,
                };
                break;
            }
        }
        self.fold = fold;
        self.fold_map = map;
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn unexpected(&mut self, held: &[u8], base: u64, rest: &[u8], at: u64) -> io::Result<()> {
        if !self.game_at(held, base, Opens::Movetext, at)? {
            return Ok(());
        }
        self.leave_tags(held, base);
        let i = (at - base) as usize;
        if first_char(rest) == Some('[') && held[i] == b'[' {
            let (off, message) = token::tag_fault(&held[i..], at);
            self.error_at(held, base, at + off as u64, message);
            return Ok(());
        }
        let message: Message = match first_char(rest) {
            None => invalid_utf8(held, i, at),
            Some('[') => "tag not closed: a tag is [Name \"value\"] on one line".into(),
            Some('\0') => "NUL byte in the input".into(),
            Some(c) if c.is_control() => format!("control character U+{:04X}", c as u32).into(),
            Some(';') => standard_chess::semicolon(),
            Some(c) => format!("unexpected character '{c}'").into(),
        };
        self.error_at(held, base, at, message);
        Ok(())
    }

    // ───────────────────────────── tokens ─────────────────────────────

    fn token(&mut self, held: &[u8], base: u64, tok: Token, s: Span<'_>) -> io::Result<()> {
        let annotation = tok.annotates();
        if !annotation && self.has_pending {
            self.flush_pending(held, base);
        }
        if tok == Token::CommentOpen {
            if self.game_at(held, base, Opens::Aside, s.at)? {
                self.open_comment(held, base, s.at);
            }
            return Ok(());
        }
        if self.depth > 0 {
            return self.variation_token(held, base, tok, s);
        }
        match tok {
            Token::Tag => return self.tag(held, base, s),
            Token::Result | Token::Unfinished | Token::PgnDraw => {
                if !self.game_at(held, base, Opens::Result, s.at)? {
                    return Ok(());
                }
                self.leave_tags(held, base);
                self.result(held, base, tok, s);
            }
            // A variation after the end marker still belongs to the game.
            Token::VariationOpen => self.open_variation(held, base, s.at, None)?,
            Token::LabeledVariationOpen => {
                self.open_variation(held, base, s.at, Some(label_value(s.text)))?
            }
            _ if annotation && self.has_pending => self.annotation(held, base, tok, s),
            _ => {
                if !self.game_at(held, base, Opens::Movetext, s.at)? {
                    return Ok(());
                }
                self.leave_tags(held, base);
                self.movetext_token(held, base, tok, s);
            }
        }
        self.game.movetext_line = self.line;
        Ok(())
    }

    /// A movetext token on the main line, but a result, a variation's
    /// opening, or an annotation of the half-move before it.
    fn movetext_token(&mut self, held: &[u8], base: u64, tok: Token, s: Span<'_>) {
        match tok {
            Token::Number | Token::UnknownNumber => self.move_number(held, base, tok, s.text, s.at),
            Token::Dots if s.text.len() == 3 && self.movetext.white_due() => {
                self.ellipsis(held, base, s.at)
            }
            Token::Ellipsis => self.ellipsis(held, base, s.at),
            // Leading dots belong inside variations; elsewhere they are
            // read past.
            Token::Dots => {}
            Token::Comma => {
                if !self.movetext.black_due() {
                    self.error_at(
                        held,
                        base,
                        s.at,
                        "unexpected , : it separates White's move from Black's",
                    );
                }
            }
            Token::Word => self.movetext_word(held, base, s),
            Token::Rating | Token::Nag | Token::DrawOffer | Token::EndMarker => {
                self.annotation(held, base, tok, s)
            }
            Token::PgnNumber => {
                let n = number_value(s.text);
                self.error_at(
                    held,
                    base,
                    s.at,
                    format!(
                        "{n}... is PGN numbering: CTL-PGN writes Black's move as {n}. ..., MOVE"
                    ),
                );
            }
            Token::Label => self.error_at(
                held,
                base,
                s.at,
                "a variation label $[n] goes right after the (",
            ),
            Token::VariationClose => self.error_at(held, base, s.at, ") closes no variation"),
            Token::CommentClose => self.error_at(held, base, s.at, "} closes no comment"),
            Token::LineEnd
            | Token::Tag
            | Token::CommentOpen
            | Token::VariationOpen
            | Token::LabeledVariationOpen
            | Token::Result
            | Token::Unfinished
            | Token::PgnDraw => unreachable!("read by token()"),
        }
    }

    /// A token inside a kept variation.
    fn variation_token(
        &mut self,
        held: &[u8],
        base: u64,
        tok: Token,
        s: Span<'_>,
    ) -> io::Result<()> {
        match tok {
            Token::Tag if s.at == self.first_token_of_line(held, base) => {
                // A tag line: the variation was never closed, and the game
                // ends here.
                self.variation_not_closed(held, base);
                self.tag(held, base, s)?;
            }
            Token::Number | Token::UnknownNumber => {
                let n = number_value(s.text);
                self.numbers.number = n;
                self.numbers.side = Some(Side::White);
            }
            Token::Dots if s.text.len() == 3 => self.numbers.side = Some(Side::Black),
            Token::Ellipsis => self.numbers.side = Some(Side::Black),
            Token::Dots | Token::Comma => {}
            Token::Word => {
                let side = self.numbers.side.unwrap_or(Side::White);
                let number = self.numbers.number;
                self.half_move(held, base, s, number, side);
                self.numbers.number = side.next_number(number);
                self.numbers.side = Some(side.other());
            }
            Token::Rating | Token::Nag | Token::DrawOffer | Token::EndMarker => {
                self.annotation(held, base, tok, s)
            }
            Token::VariationOpen => self.open_variation(held, base, s.at, None)?,
            Token::LabeledVariationOpen => {
                self.open_variation(held, base, s.at, Some(label_value(s.text)))?
            }
            Token::VariationClose => {
                self.f.cx.depth = self.depth;
                if self.f.chain.variation(Variation::Close, &mut self.f.cx) == Flow::Keep {
                    self.f.writer.variation(Variation::Close, self.depth);
                }
                self.fill_sources(held, base);
                self.depth -= 1;
                if let Some((n, side)) = self.numbers.stack.pop() {
                    self.numbers.number = n;
                    self.numbers.side = side;
                }
            }
            _ => {
                let what = String::from_utf8_lossy(s.text).into_owned();
                self.error_at(
                    held,
                    base,
                    s.at,
                    format!("{what} inside a variation: is a ) missing?"),
                );
            }
        }
        Ok(())
    }

    /// The stream offset of the current line's first byte after blanks.
    fn first_token_of_line(&self, held: &[u8], base: u64) -> u64 {
        let line = &held[(self.line_start - base) as usize..];
        let blanks = line
            .iter()
            .position(|&c| c != b' ' && c != b'\t')
            .unwrap_or(line.len());
        self.line_start + blanks as u64
    }

    /// The game-start rule, stated once: does the token at `at`, of this
    /// kind, start a new game (ending the one under way)? A game starts
    /// with any token when none is under way; with a tag once its game is
    /// past its tags or has ended; with movetext once its game has ended
    /// (its result read, or its last move marked `:` or `#`); with a result
    /// once its game has one. Comments and variations belong to the game
    /// under way, ended or not. Returns `false` when reading stops here
    /// instead: a boundary asked for ([`Until::Boundary`]).
    fn game_at(&mut self, held: &[u8], base: u64, opens: Opens, at: u64) -> io::Result<bool> {
        let g = &self.game;
        let starts = !g.open
            || match opens {
                Opens::Tag => g.past_tags || self.movetext.ended(),
                Opens::Movetext => self.movetext.ended(),
                Opens::Result => self.movetext.result.is_some(),
                Opens::Aside => false,
            };
        if !starts {
            return Ok(true);
        }
        if self.game.open {
            self.finish_game(held, base, at)?;
        }
        if let Until::Boundary { is_boundary, .. } = self.until {
            if is_boundary(at) {
                self.stop = Some(Stop::Boundary(at));
                return Ok(false);
            }
        }
        self.begin_game(held, base, at);
        Ok(self.stop.is_none())
    }

    #[cold]
    #[inline(never)]
    fn tag(&mut self, held: &[u8], base: u64, s: Span<'_>) -> io::Result<()> {
        let (name, raw) = tag_parts(s.text);
        let ended = self.movetext.ended();
        let amid_moves = self.game.movetext_line == self.line && self.movetext.has_moves && !ended;
        if self.game.open && amid_moves && name == b"Redefine" {
            // A Redefine after moves on their own line is misplaced, not a new game.
            self.error_at(
                held,
                base,
                s.at,
                "a Redefine tag must come before the movetext it applies to (with the other tags)",
            );
            return Ok(());
        }
        if !self.game_at(held, base, Opens::Tag, s.at)? {
            return Ok(());
        }
        self.game.has_tags = true;
        let column = self.column(held, base, s.at);
        let name = std::str::from_utf8(name).unwrap_or("");
        let value_at = s.at + (raw.as_ptr() as usize - s.text.as_ptr() as usize) as u64;
        let raw = match std::str::from_utf8(raw) {
            Ok(v) => v,
            Err(e) => {
                let bad = value_at + e.valid_up_to() as u64;
                let message = invalid_utf8(held, (bad - base) as usize, bad);
                self.error_at(held, base, bad, message);
                return Ok(());
            }
        };
        let nfc;
        let value = if raw.is_ascii()
            || unicode_normalization::is_nfc_quick(raw.chars())
                == unicode_normalization::IsNormalized::Yes
        {
            raw
        } else {
            nfc = raw.nfc().collect::<String>();
            &nfc
        };
        let name = if name != "Variant" && name.eq_ignore_ascii_case("Variant") {
            let problem = format_args!("tag name {name} (tag names are case-sensitive)");
            self.warn_fixed_at(held, base, s.at, problem, "read as Variant");
            "Variant"
        } else {
            name
        };
        match name {
            "Variant" => {
                self.game.has_variant = true;
                self.variant(held, base, value, value_at);
            }
            "Redefine" => {
                if let Err(e) = self.f.cx.redefine.merge(value) {
                    self.error_at(held, base, value_at, e.to_string());
                }
            }
            "Result" => {
                let mark = self.mark(held, base, s.at);
                self.game.result_tag = Outcome::parse(value).map(|o| (o, mark));
            }
            "PDTL" | "DPTL" => {
                if name == "DPTL" {
                    let fix = "read as PDTL (the usual misspelling)";
                    self.f.cx.warn_fixed(self.line, column, "tag DPTL", fix);
                }
                if self.game.has_setup {
                    self.error_at(held, base, s.at, "a game has one PDTL tag");
                    return Ok(());
                }
                self.game.has_setup = true;
                match Pdtl::parse_with_warnings(value) {
                    Ok((mut pdtl, normalised)) => {
                        for w in normalised {
                            let at = value_at + byte_in_value(raw, value, w.offset) as u64;
                            self.warn_fixed_at(
                                held,
                                base,
                                at,
                                format_args!("PDTL: {}", w.message),
                                &w.fix,
                            );
                        }
                        pdtl.line = self.line;
                        pdtl.column = column;
                        self.f.chain.setup(&mut pdtl, &mut self.f.cx);
                        self.f.writer.setup(&pdtl);
                    }
                    Err(e) => {
                        let at = value_at + byte_in_value(raw, value, e.offset) as u64;
                        self.error_at(held, base, at, e.to_string());
                    }
                }
                self.fill_sources(held, base);
                return Ok(());
            }
            _ => {}
        }
        let tag = Tag {
            name,
            value,
            line: self.line,
            column,
        };
        if self.f.chain.tag(&tag, &mut self.f.cx) == Flow::Keep {
            self.f.writer.tag(&tag);
        }
        self.fill_sources(held, base);
        Ok(())
    }

    /// The Variant tag's value, at stream offset `at`: C'escacs, or
    /// unambiguously meant to be (a typographic apostrophe, another case).
    fn variant(&mut self, held: &[u8], base: u64, value: &str, at: u64) {
        const CESCACS: &str = "C'escacs";
        if value == CESCACS {
            return;
        }
        let apostrophes = ['’', '‘', 'ʼ', '´', '`', '′'];
        let plain = value.replace(apostrophes, "'");
        let problem = if plain == CESCACS {
            "has a typographic apostrophe"
        } else if plain.eq_ignore_ascii_case(CESCACS) {
            "is C'escacs in another case"
        } else {
            let message = format!(
                "Variant \"{value}\" is not C'escacs: this filter reads C'escacs games only"
            );
            return self.error_at(held, base, at, message);
        };
        let problem = format_args!("Variant \"{value}\" {problem}");
        self.warn_fixed_at(held, base, at, problem, "read as C'escacs");
    }

    /// A move number `n.` or `n?` at stream offset `at`.
    #[inline]
    fn move_number(&mut self, held: &[u8], base: u64, tok: Token, text: &[u8], at: u64) {
        let n = number_value(text);
        if let Some(f) = self.movetext.number(n, tok == Token::UnknownNumber) {
            self.error_at(held, base, at, f.message(text));
        }
        self.game.last_number = Mark {
            line: self.line,
            column: 0,
            at,
        };
    }

    fn ellipsis(&mut self, held: &[u8], base: u64, at: u64) {
        if let Some(f) = self.movetext.ellipsis() {
            self.error_at(held, base, at, f.message(b""));
        }
        self.game.last_number = self.mark(held, base, at);
    }

    /// A word of the game's own movetext: the half-move its numbering makes
    /// it.
    #[inline]
    fn movetext_word(&mut self, held: &[u8], base: u64, s: Span<'_>) {
        let (number, side, fault) = self.movetext.half_move();
        if let Some(f) = fault {
            self.error_at(held, base, s.at, f.message(b""));
        }
        self.half_move(held, base, s, number, side);
    }

    /// A half-move's word: parsed, and held until its annotations are read.
    #[inline]
    fn half_move(&mut self, held: &[u8], base: u64, s: Span<'_>, number: u32, side: Side) {
        match half_move::parse(s.text) {
            Ok(p) => {
                let column = self.column(held, base, s.at) as u32;
                let mut traits = p.traits;
                if self.depth > 0 {
                    traits |= Traits::IN_VARIATION;
                }
                let text = (s.map.is_none() && !traits.intersects(Traits::RESPELLED))
                    .then(|| (s.at, s.at + s.text.len() as u64));
                self.pending = Pending {
                    mv: HalfMove {
                        number,
                        side,
                        unknown_number: self.movetext.unknown_number && self.depth == 0,
                        action: p.action,
                        check: p.check,
                        rating: None,
                        nags: [0; HalfMove::MAX_NAGS],
                        nag_count: 0,
                        draw_offer: false,
                        end: false,
                        line: self.line,
                        column,
                    },
                    traits,
                    at: s.offset(0),
                    text,
                };
                self.has_pending = true;
            }
            Err(e) => self.not_a_half_move(held, base, s, e, number, side),
        }
    }

    #[cold]
    fn not_a_half_move(
        &mut self,
        held: &[u8],
        base: u64,
        s: Span<'_>,
        e: half_move::Fault,
        number: u32,
        side: Side,
    ) {
        let next = s.at + s.text.len() as u64;
        let rest = &held[(next - base) as usize..];
        let line_rest = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
        if s.map.is_none()
            && e.offset == s.text.len()
            && self.spaced_move(held, base, s, line_rest, number, side)
        {
            return;
        }
        if let Some(message) = standard_chess::move_message(s.text, line_rest) {
            return self.error_at(held, base, s.at, message);
        }
        // A word cut short by invalid UTF-8: that is what to say.
        if !self.utf8 && s.map.is_none() && !rest.is_empty() && first_char(rest).is_none() {
            let message = invalid_utf8(held, (next - base) as usize, next);
            return self.error_at(held, base, next, message);
        }
        let at = s.offset(e.offset);
        self.error_at(held, base, at, e.message(s.text));
    }

    /// `E7 - E13`, `E7- E13`, `JE5 × F16`: a move with blanks around its
    /// dash or `×`, read as one word (with a warning) when the word `s`
    /// ends where its separator or destination is due; `rest` is what
    /// follows it on its line. Reading goes on after the move (`self.at`).
    fn spaced_move(
        &mut self,
        held: &[u8],
        base: u64,
        s: Span<'_>,
        rest: &[u8],
        number: u32,
        side: Side,
    ) -> bool {
        let next = s.at + s.text.len() as u64;
        let blanks = |b: &[u8]| b.iter().take_while(|&&c| c == b' ' || c == b'\t').count();
        let mut i = blanks(rest);
        // A dash or `×`; not `*`, which alone is a result.
        let separator_at = |b: &[u8], i: usize| match half_move::dash_at(b, i) {
            Some((_, n)) => Some(n),
            None => b[i..].starts_with("×".as_bytes()).then_some(2),
        };
        let t = s.text;
        let ends_in_separator =
            (1..=3).any(|n| t.len() > n && separator_at(t, t.len() - n) == Some(n));
        let separator = if ends_in_separator {
            None
        } else {
            let Some(n) = separator_at(rest, i) else {
                return false;
            };
            let d = (i, n);
            i += n;
            i += blanks(&rest[i..]);
            Some(d)
        };
        let word = rest[i..]
            .iter()
            .position(|&c| {
                matches!(
                    c,
                    b' ' | b'\t' | b'\r' | b'{' | b'(' | b')' | b'!' | b'?' | b'$' | b':' | b','
                )
            })
            .unwrap_or(rest.len() - i);
        if i == 0 || word == 0 {
            return false;
        }
        let mut fold = std::mem::take(&mut self.fold);
        let mut map = std::mem::take(&mut self.fold_map);
        fold.clear();
        map.clear();
        let mut take = |from: usize, bytes: &[u8]| {
            fold.extend_from_slice(bytes);
            map.extend((from..from + bytes.len()).map(|o| o as u32));
        };
        take(0, s.text);
        let len = s.text.len();
        if let Some((d, n)) = separator {
            take(len + d, &rest[d..d + n]);
        }
        take(len + i, &rest[i..i + word]);
        let joined = half_move::parse(&fold).is_ok();
        if joined {
            let written = String::from_utf8_lossy(&fold).into_owned();
            self.warn_fixed_at(
                held,
                base,
                next,
                "blanks inside a move",
                format_args!("read as {written}"),
            );
            let span = Span {
                text: &fold,
                at: s.at,
                map: Some((s.at, &map)),
            };
            self.half_move(held, base, span, number, side);
            self.at = next + (i + word) as u64;
        }
        self.fold = fold;
        self.fold_map = map;
        joined
    }

    fn annotation(&mut self, held: &[u8], base: u64, tok: Token, s: Span<'_>) {
        if !self.has_pending {
            let what = match tok {
                Token::Rating => "a rating",
                Token::Nag => "a NAG",
                Token::DrawOffer => "(=)",
                _ => ":",
            };
            self.error_at(
                held,
                base,
                s.at,
                format!("{what} must follow a move on the same line"),
            );
            return;
        }
        let p = &mut self.pending;
        let mv = &mut p.mv;
        let problem = match tok {
            Token::Rating if mv.rating.is_some() => Some("a move takes one rating"),
            Token::Rating => {
                mv.rating = Rating::parse(s.text);
                p.traits |= Traits::RATED;
                None
            }
            Token::Nag => match std::str::from_utf8(&s.text[1..])
                .ok()
                .and_then(|n| n.parse::<u8>().ok())
            {
                None => Some("NAGs are $0 to $255"),
                Some(_) if mv.nag_count as usize == HalfMove::MAX_NAGS => {
                    Some("too many NAGs on one move")
                }
                Some(n) => {
                    mv.nags[mv.nag_count as usize] = n;
                    mv.nag_count += 1;
                    p.traits |= Traits::RATED;
                    None
                }
            },
            Token::DrawOffer => {
                mv.draw_offer = true;
                None
            }
            _ => {
                mv.end = true;
                None
            }
        };
        if let Some(p) = problem {
            self.error_at(held, base, s.at, p);
        }
    }

    /// Hands the half-move read last, if any, to the chain and the writer.
    #[inline]
    fn flush_pending(&mut self, held: &[u8], base: u64) {
        if self.has_pending {
            self.has_pending = false;
            self.pass_half_move(held, base);
        }
    }

    fn pass_half_move(&mut self, held: &[u8], base: u64) {
        let p = &mut self.pending;
        if self.depth == 0 {
            let mate = p.mv.check == Some(Check::Mate);
            self.movetext.move_ends(p.mv.end, mate.then_some(p.mv.side));
            self.game.last_move = Mark {
                line: p.mv.line,
                column: u64::from(p.mv.column),
                at: p.at,
            };
            self.counts.half_moves += 1;
        }
        if self.f.chain.wants_move(p.traits) && self.chain_half_move(held, base) == Flow::Drop {
            return;
        }
        if self.f.cx.has_error() {
            return;
        }
        let p = &self.pending;
        self.f.chain.main_line_move(&p.mv, self.depth);
        let text = p
            .text
            .map(|(from, to)| &held[(from - base) as usize..(to - base) as usize]);
        self.f.writer.half_move(&p.mv, self.depth, text);
    }

    /// The chain's part of [`Reading::pass_half_move`], for the half-moves
    /// a pass wants.
    #[inline(never)]
    fn chain_half_move(&mut self, held: &[u8], base: u64) -> Flow {
        let p = &mut self.pending;
        let read = p.mv;
        self.f.cx.depth = self.depth;
        let flow = self.f.chain.half_move(&mut p.mv, p.traits, &mut self.f.cx);
        self.counts.ratings_dropped += u64::from(read.rating.is_some()) + u64::from(read.nag_count)
            - u64::from(p.mv.rating.is_some())
            - u64::from(p.mv.nag_count);
        if p.mv != read {
            p.text = None;
        }
        self.fill_sources(held, base);
        flow
    }

    #[cold]
    #[inline(never)]
    fn result(&mut self, held: &[u8], base: u64, tok: Token, s: Span<'_>) {
        let text = String::from_utf8_lossy(s.text);
        let outcome = match tok {
            Token::PgnDraw => {
                let message = standard_chess::result_message(s.text);
                self.error_at(held, base, s.at, message);
                Outcome::Draw
            }
            _ => match Outcome::parse(&text) {
                Some(o) => o,
                None => {
                    let message = standard_chess::result_message(s.text);
                    self.error_at(held, base, s.at, message);
                    Outcome::Unfinished
                }
            },
        };
        self.movetext.result = Some(outcome);
    }

    // ───────────────────────────── comments ─────────────────────────────

    /// A comment opens at `at` (in the game under way: see [`Reading::game_at`]).
    fn open_comment(&mut self, held: &[u8], base: u64, at: u64) {
        self.game.comment = self.mark(held, base, at);
        self.comment.clear();
        self.comment_next = at + 1;
        self.comment_next_line = self.line;
        self.comment_on_first_line = true;
        self.comment_in_skip = self.mode == Mode::SkipVariation;
        self.mode = Mode::Comment;
    }

    /// A comment's text from `self.at`, up to `}` or `end`.
    fn comment_text(&mut self, held: &[u8], base: u64, end: u64) {
        let text = &held[(self.at - base) as usize..(end - base) as usize];
        let (body, close) = match memchr::memchr(b'}', text) {
            Some(j) => (&text[..j], Some(j)),
            None => (text, None),
        };
        let body_at = self.at;
        self.lines_in(body, body_at + body.len() as u64);
        self.check_utf8(held, base, body, body_at);
        let keep = !self.skip_comments && !self.comment_in_skip;
        let Some(j) = close else {
            if keep {
                self.comment.extend_from_slice(body);
            }
            self.at = end;
            return;
        };
        self.at += j as u64 + 1;
        self.mode = if self.comment_in_skip {
            Mode::SkipVariation
        } else {
            Mode::Tokens
        };
        self.read_again = None;
        if !self.spill.is_empty() {
            self.spill = Spill::default();
        }
        if self.skip_comments {
            self.counts.comments_dropped += 1;
        } else if keep {
            if self.comment.is_empty() {
                self.deliver_comment(held, base, body);
            } else {
                let mut whole = std::mem::take(&mut self.comment);
                whole.extend_from_slice(body);
                self.deliver_comment(held, base, &whole);
                whole.clear();
                self.comment = whole;
            }
        }
    }

    fn deliver_comment(&mut self, held: &[u8], base: u64, text: &[u8]) {
        if !self.game.past_tags && self.depth == 0 {
            // Among the tags, a Redefine may still come that the comment's
            // `~X` references need: hold it until the tags end.
            push_lines(&mut self.held, text);
            self.held_ends.push(self.held.len());
            return;
        }
        self.pass_comment(held, base, text);
    }

    fn pass_comment(&mut self, held: &[u8], base: u64, text: &[u8]) {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        push_lines(&mut scratch, text);
        self.f.cx.depth = self.depth;
        if self.f.chain.comment(&mut scratch, &mut self.f.cx) == Flow::Keep {
            let after = self.movetext.result.is_some();
            self.f.writer.comment(&scratch, self.depth, after);
        } else {
            self.counts.comments_dropped += 1;
        }
        self.fill_sources(held, base);
        self.scratch = scratch;
    }

    /// The tags are over: the chain learns what each pass wants of the
    /// movetext, and the comments held among the tags go on.
    #[inline]
    fn leave_tags(&mut self, held: &[u8], base: u64) {
        if !self.game.past_tags {
            self.tags_end(held, base);
        }
    }

    #[cold]
    #[inline(never)]
    fn tags_end(&mut self, held: &[u8], base: u64) {
        self.game.past_tags = true;
        self.f.chain.movetext_begins(&self.f.cx);
        if self.held_ends.is_empty() {
            return;
        }
        let text = std::mem::take(&mut self.held);
        let ends = std::mem::take(&mut self.held_ends);
        let mut from = 0;
        for &to in &ends {
            self.pass_comment(held, base, &text[from..to]);
            from = to;
        }
        self.held = text;
        self.held.clear();
        self.held_ends = ends;
        self.held_ends.clear();
    }

    /// Looks through the text of the comment open, up to `upto`, for the
    /// first line that starts a game: where reading starts again if the
    /// comment is never closed. The lines looked at are the whole ones (all
    /// of them once the input has ended, `at_end`) after the comment's first.
    fn look_for_a_game_in_the_comment(&mut self, held: &[u8], base: u64, upto: u64, at_end: bool) {
        if self.read_again.is_some() || self.comment_next >= upto {
            return;
        }
        let text = |from: u64| &held[(from - base) as usize..(upto - base) as usize];
        let mut at = self.comment_next;
        let mut line = self.comment_next_line;
        if self.comment_on_first_line {
            // The `{` line cannot start a game: on to the next.
            let Some(n) = memchr::memchr(b'\n', text(at)) else {
                self.comment_next = upto;
                return;
            };
            at += n as u64 + 1;
            line += 1;
            self.comment_on_first_line = false;
        }
        while at < upto {
            let rest = text(at);
            let len = match memchr::memchr(b'\n', rest) {
                Some(n) => n,
                None if at_end => rest.len(),
                // The rest of this line is still to come.
                None => break,
            };
            if let Some(blanks) = token::tag_starting(&rest[..len]) {
                let tag = at + blanks as u64;
                self.read_again = Some(ReadAgain { at, line, tag });
                return;
            }
            at += len as u64 + 1;
            line += 1;
        }
        self.comment_next = at.min(upto);
        self.comment_next_line = line;
    }

    // ───────────────────────────── variations ─────────────────────────────

    fn open_variation(
        &mut self,
        held: &[u8],
        base: u64,
        at: u64,
        label: Option<u32>,
    ) -> io::Result<()> {
        if !self.game_at(held, base, Opens::Aside, at)? {
            return Ok(());
        }
        self.leave_tags(held, base);
        if self.depth == 0 {
            self.game.variation = self.mark(held, base, at);
        }
        self.depth += 1;
        if self.skip_variations {
            self.counts.variations_dropped += 1;
            self.mode = Mode::SkipVariation;
            return Ok(());
        }
        if self.depth > 1 {
            self.numbers
                .stack
                .push((self.numbers.number, self.numbers.side));
        }
        self.numbers.number = self.movetext.number;
        self.numbers.side = None;
        self.f.cx.depth = self.depth;
        if self
            .f
            .chain
            .variation(Variation::Open { label }, &mut self.f.cx)
            == Flow::Keep
        {
            self.f
                .writer
                .variation(Variation::Open { label }, self.depth);
        }
        self.fill_sources(held, base);
        Ok(())
    }

    /// A dropped variation from `self.at`: its depth counted to its `)`,
    /// comments inside read as comments, until `end`.
    fn skip_variation(&mut self, held: &[u8], base: u64, end: u64) -> io::Result<()> {
        while self.at < end {
            if self.at == self.line_start
                && token::tag_starting(self.current_line(held, base)).is_some()
            {
                // A tag line: the variation was never closed.
                self.variation_not_closed(held, base);
                return Ok(());
            }
            let at = self.at;
            let text = &held[(at - base) as usize..(end - base) as usize];
            let line_end = memchr::memchr(b'\n', text).unwrap_or(text.len());
            let line = &text[..line_end];
            let mut i = 0;
            while let Some(j) = memchr::memchr3(b'(', b')', b'{', &line[i..]) {
                let k = i + j;
                i = k + 1;
                match line[k] {
                    // A draw offer `(=)` inside is no variation.
                    b'(' if line[i..].starts_with(b"=)") => i += 2,
                    b'(' => {
                        self.depth += 1;
                        self.counts.variations_dropped += 1;
                    }
                    b')' => {
                        self.depth -= 1;
                        if self.depth == 0 {
                            self.check_utf8(held, base, &line[..i], at);
                            self.at = at + i as u64;
                            self.mode = Mode::Tokens;
                            return Ok(());
                        }
                    }
                    _ => {
                        self.check_utf8(held, base, &line[..k], at);
                        self.at = at + i as u64;
                        self.open_comment(held, base, at + k as u64);
                        return Ok(());
                    }
                }
            }
            self.check_utf8(held, base, line, at);
            if line_end < text.len() {
                self.at = at + line_end as u64 + 1;
                self.new_line(self.at);
            } else {
                self.at = end;
            }
        }
        Ok(())
    }

    /// The current line, without its line end.
    fn current_line<'h>(&self, held: &'h [u8], base: u64) -> &'h [u8] {
        self_line(held, base, self.line_start)
    }

    /// Reports invalid UTF-8 in skipped text.
    fn check_utf8(&mut self, held: &[u8], base: u64, text: &[u8], at: u64) {
        if self.utf8 {
            return;
        }
        if let Err(e) = simdutf8::compat::from_utf8(text) {
            let bad = at + e.valid_up_to() as u64;
            let message = invalid_utf8(text, e.valid_up_to(), bad);
            self.error_at(held, base, bad, message);
        }
    }

    #[cold]
    #[inline(never)]
    fn variation_not_closed(&mut self, held: &[u8], base: u64) {
        let mark = self.game.variation;
        self.late(held, base, mark, |cx, l, c| {
            cx.error(l, c, "variation not closed: ) is missing")
        });
        self.depth = 0;
        self.numbers = VariationNumbers::default();
        self.mode = Mode::Tokens;
    }

    // ───────────────────────────── games ─────────────────────────────

    /// Starts a game at stream offset `at`.
    #[cold]
    #[inline(never)]
    fn begin_game(&mut self, held: &[u8], base: u64, at: u64) {
        let start = self.mark(held, base, at);
        self.game = Game {
            open: true,
            start,
            start_line: self.line_start,
            ..Game::default()
        };
        self.movetext = Movetext::default();
        self.counts = Report::default();
        self.raw.clear();
        self.excerpts.clear();
        self.sourced = 0;
        self.f.cx.reset(start.line);
        self.f.chain.begin_game(&mut self.f.cx);
        self.f.writer.begin(start.line);
    }

    /// Ends the game under way at stream offset `end`, where the next one
    /// starts or the input ends: checks what only the whole game shows,
    /// writes or rejects it, and hands its diagnostics on.
    #[cold]
    #[inline(never)]
    fn finish_game(&mut self, held: &[u8], base: u64, end: u64) -> io::Result<()> {
        self.flush_pending(held, base);
        if !self.game.open {
            return Ok(());
        }
        let only_comments = !self.game.has_tags && !self.game.past_tags;
        self.leave_tags(held, base);
        if self.mode == Mode::Comment {
            let mark = self.game.comment;
            self.late(held, base, mark, |cx, l, c| {
                cx.error(l, c, "comment not closed: } is missing")
            });
            self.mode = Mode::Tokens;
        }
        if self.depth > 0 {
            self.variation_not_closed(held, base);
        }
        let start = self.game.start;
        if only_comments {
            let message = "a comment that belongs to no game: no tags and no moves come with it";
            self.late(held, base, start, |cx, l, c| cx.error(l, c, message));
        } else if let Some(missing) = self.movetext.dangling() {
            let mark = self.game.last_number;
            self.late(held, base, mark, |cx, l, c| cx.error(l, c, missing));
        } else if !self.game.has_tags && !self.movetext.has_moves {
            let message = "no game here: a game has tags ([Variant \"C'escacs\"] first) or moves";
            self.late(held, base, start, |cx, l, c| cx.error(l, c, message));
        }
        if !self.game.has_variant {
            self.late(held, base, start, |cx, l, c| {
                let problem = Message::new(
                    DiagnosticKind::NoVariantTag,
                    "no [Variant \"C'escacs\"] tag",
                );
                cx.warn_fixed(l, c, problem, "added")
            });
        }
        if self.movetext.has_moves && !self.movetext.last_move_ends {
            let mark = self.game.last_move;
            self.late(held, base, mark, |cx, l, c| {
                let message = "the last move has no end marker (: or #)";
                cx.warn(l, c, Message::new(DiagnosticKind::NoEndMarker, message))
            });
        }
        let tag = self.game.result_tag;
        let result = self.movetext.outcome(tag.map(|t| t.0));
        if let Some((written, mark)) = tag {
            if written != result {
                let problem = format!(
                    "the Result tag says {} but the game ends {}",
                    written.as_str(),
                    result.as_str()
                );
                if self.f.fix_result {
                    self.f.writer.fix_result_tag(result);
                    let fix = format!("written {}", result.as_str());
                    self.late(held, base, mark, |cx, l, c| {
                        cx.warn_fixed(l, c, problem, fix)
                    });
                } else {
                    let hint = format!("{problem} (--fix-result writes the tag so)");
                    self.late(held, base, mark, |cx, l, c| cx.warn(l, c, hint));
                }
            }
        }
        self.f.chain.end_game(self.movetext.result, &mut self.f.cx);
        let (variations, variations_failed) = if self.f.cx.has_error() {
            (0, 0)
        } else {
            let verify = self.f.chain.verify.is_some();
            self.f.writer.plan_variations(verify, &mut self.f.cx)
        };
        self.fill_sources(held, base);
        let at = (start.line, start.column);
        let verdict = self.f.verdict(result, at, &self.report);
        if let (true, Some(aside)) = (verdict.aside, self.aside.as_mut()) {
            write_game(*aside, &mut self.raw, held, base, start.at, end)?;
        }
        self.counts.games_read += 1;
        let rejected = self.f.cx.has_error();
        if let Some(reason) = verdict.left_out {
            self.counts.left_out.count(reason);
            if let Some(note) = &verdict.note {
                (self.on_diagnostic)(note);
            }
        } else if rejected {
            self.counts.games_rejected += 1;
            self.reject(held, base, start.at, end, None)?;
            // The first error says why; nothing of the game is written.
            if let Some(d) = self
                .f
                .cx
                .diagnostics
                .iter()
                .find(|d| d.severity == Severity::Error)
            {
                (self.on_diagnostic)(d);
            }
        } else {
            self.f.writer.finish(result, self.out)?;
            self.counts.games_written += 1;
            self.counts.variations_written += variations - variations_failed;
            self.counts.variations_rejected += variations_failed;
            if variations_failed > 0 {
                let note = self.f.writer.failed_variations();
                self.reject(held, base, start.at, end, Some(&note))?;
            }
            let cx = &mut self.f.cx;
            cx.diagnostics.sort_by_key(|d| (d.line, d.column));
            for d in &cx.diagnostics {
                self.counts.warnings += u64::from(d.severity == Severity::Warning);
                (self.on_diagnostic)(d);
            }
        }
        self.f.cx.diagnostics.clear();
        self.report.add(&std::mem::take(&mut self.counts));
        self.game = Game::default();
        self.raw.clear();
        if (rejected || variations_failed > 0) && self.f.fail_fast || verdict.stop {
            self.stop = Some(Stop::FailFast);
        }
        Ok(())
    }

    /// Writes the game read from `start` to `end` to the rejects, byte for
    /// byte, after a comment naming the variation games rejected, if any.
    fn reject(
        &mut self,
        held: &[u8],
        base: u64,
        start: u64,
        end: u64,
        variations: Option<&str>,
    ) -> io::Result<()> {
        let Some(rejects) = self.rejects.as_mut() else {
            return Ok(());
        };
        if let Some(paths) = variations {
            writeln!(
                rejects,
                "{{ctlpgn-filter: variation games rejected: {paths}}}"
            )?;
        }
        write_game(*rejects, &mut self.raw, held, base, start, end)
    }

    /// The input has ended (at `self.at`): ends the game under way, or,
    /// short of a boundary asked for, leaves it unfinished. A comment never
    /// closed ends its game where the first line inside it that starts a
    /// game is, and the input is read again from there: returns where,
    /// with what must be read again.
    #[cold]
    #[inline(never)]
    fn end_of_input(&mut self, held: &[u8], base: u64) -> io::Result<Result<Stop, (u64, Spill)>> {
        self.flush_pending(held, base);
        if let Until::Boundary { whole: false, .. } = self.until {
            let g = &self.game;
            let resume = if g.open {
                Resume {
                    line: g.start.line,
                    line_start: g.start_line,
                    at: g.start.at,
                }
            } else {
                Resume {
                    line: self.line,
                    line_start: self.line_start,
                    at: self.at,
                }
            };
            return Ok(Ok(Stop::Unfinished(resume)));
        }
        if self.mode == Mode::Comment {
            self.look_for_a_game_in_the_comment(held, base, self.at, true);
            if let Some(again) = self.read_again.take() {
                self.finish_game(held, base, again.tag)?;
                if let Some(stop) = self.stop {
                    return Ok(Ok(stop));
                }
                self.mode = Mode::Tokens;
                self.depth = 0;
                self.at = again.at;
                self.line = again.line;
                self.line_start = again.at;
                self.column_cache = (again.at, 1);
                return Ok(Err((again.at, std::mem::take(&mut self.spill))));
            }
        }
        let end = self.at;
        self.finish_game(held, base, end)?;
        Ok(Ok(self.stop.unwrap_or(Stop::End)))
    }
}

/// Writes the game read from stream offset `start` to `end` to `sink`,
/// byte for byte: `raw`, what of it left the buffer, then what `held`
/// (from `base`) still holds.
fn write_game(
    sink: &mut dyn Write,
    raw: &mut Vec<u8>,
    held: &[u8],
    base: u64,
    start: u64,
    end: u64,
) -> io::Result<()> {
    if end < base {
        // The game ends in what left the buffer.
        raw.truncate((end - start) as usize);
        sink.write_all(raw)
    } else {
        sink.write_all(raw)?;
        let from = start.max(base);
        sink.write_all(&held[(from - base) as usize..(end - base) as usize])
    }
}

/// `mark` with its column, if it was left to be counted (0), and held.
fn resolve(held: &[u8], base: u64, mut mark: Mark) -> Mark {
    if mark.column == 0 && mark.at >= base {
        let i = (mark.at - base) as usize;
        let start = memchr::memrchr(b'\n', &held[..i]).map_or(0, |n| n + 1);
        mark.column = char_column(&held[start..], i - start);
    }
    mark
}

/// The line that starts at stream offset `start`, without its line end.
fn self_line(held: &[u8], base: u64, start: u64) -> &[u8] {
    let rest = &held[(start - base) as usize..];
    &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())]
}

/// The length of the blank `b` starts with, of those the tokenizer leaves
/// to this rare path (so that its own are ASCII): a no-break space, a byte
/// order mark.
#[inline]
fn blank_len(b: &[u8]) -> Option<usize> {
    match b {
        [0xC2, 0xA0, ..] => Some(2),
        [0xEF, 0xBB, 0xBF, ..] => Some(3),
        _ => None,
    }
}

/// The character `b` starts with; `None` where it starts with invalid UTF-8.
fn first_char(b: &[u8]) -> Option<char> {
    (1..=b.len().min(4))
        .find_map(|k| std::str::from_utf8(&b[..k]).ok())
        .and_then(|s| s.chars().next())
}

/// Appends the lines of `text`, each line end written `\n` (a comment
/// written on CRLF lines is written on LF lines).
fn push_lines(out: &mut Vec<u8>, text: &[u8]) {
    let mut rest = text;
    while let Some(n) = memchr::memchr(b'\n', rest) {
        let mut line = &rest[..n];
        while let [l @ .., b'\r'] = line {
            line = l;
        }
        out.extend_from_slice(line);
        out.push(b'\n');
        rest = &rest[n + 1..];
    }
    out.extend_from_slice(rest);
}

/// The byte offset of character column `column` in `line`.
fn byte_of_column(line: &[u8], column: u64) -> usize {
    let mut chars = 1;
    for (i, &b) in line.iter().enumerate() {
        if b & 0xC0 != 0x80 {
            if chars == column {
                return i;
            }
            chars += 1;
        }
    }
    line.len()
}

/// Where byte `offset` of the NFC form `value` of a tag value is in the
/// value as written, `raw` (the same when the value needed no folding).
fn byte_in_value(raw: &str, value: &str, offset: usize) -> usize {
    if raw.len() == value.len() {
        return offset.min(raw.len());
    }
    // Characters before the offset, counted in the written value.
    let chars = value[..offset.min(value.len())].chars().count();
    raw.char_indices().nth(chars).map_or(raw.len(), |(i, _)| i)
}
