//! The reader: lines in, tokens through the pass chain, canonical games out.
//!
//! Per line, a small mode machine decides who reads the bytes: the logos
//! lexer (movetext and tags), `memchr` (comment text up to `}`), or a depth
//! counter (a variation being dropped). Game boundaries, move numbering and
//! the result are decided here; what to keep and how to spell it is the
//! passes' and the writer's business.

use crate::canonical::{
    canonical_games, checked_games, GameText, Scratch, RUN_BYTES, VARIANT_LINE,
};
use crate::diag::{char_column, chars_in, excerpt, Diagnostic, Severity};
use crate::express::{next_game, translate, Translation, VARIANT_TAG};
use crate::filter::{Filter, Report};
use crate::lexer::plain::{
    decimal_at, is_tag_name_byte, scan_plain_line, skip_blanks, CanonicalText, HalfMoves,
};
use crate::lexer::{parse_castling, parse_forced_promotion, parse_move, Token};
use crate::model::{Check, HalfMove, Outcome, Rating, Side};
use crate::pass::{Flow, Tag, Variation};
use crate::pdtl::Pdtl;
use bstr::ByteSlice;
use logos::Logos;
use std::io::{self, Write};
use unicode_normalization::UnicodeNormalization;

/// Who reads the next bytes of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The lexer.
    Code,
    /// Comment text, up to `}`.
    Comment,
}

/// Where the main line's numbering stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// No move yet.
    Start,
    /// A number was read: White's move (or `...`) comes.
    White,
    /// White moved (or `...`): Black's move comes.
    Black,
    /// Black moved: the next number comes.
    Number,
}

/// What is known of the game being read.
#[derive(Debug)]
struct Game {
    started: bool,
    line: u64,
    column: u64,
    has_moves: bool,
    /// Anything but tags and comments was read: a tag now starts a new game.
    past_tags: bool,
    has_tags: bool,
    end_seen: bool,
    last_move_ends: bool,
    mate_by: Option<Side>,
    result: Option<Outcome>,
    result_tag: Option<(Outcome, u64, u64)>,
    has_variant: bool,
    has_setup: bool,
    number: u32,
    unknown_number: bool,
    expect: Expect,
    /// `N.` repeated after White's move N, to resume with `...` for Black.
    resuming: bool,
    pending: Option<HalfMove>,
    last_move_pos: (u64, u64),
}

impl Game {
    /// The result was read, or a move ended the game (`:`, mate).
    fn ended(&self) -> bool {
        self.result.is_some() || self.end_seen
    }

    fn new() -> Game {
        Game {
            started: false,
            line: 0,
            column: 0,
            has_moves: false,
            past_tags: false,
            has_tags: false,
            end_seen: false,
            last_move_ends: false,
            mate_by: None,
            result: None,
            result_tag: None,
            has_variant: false,
            has_setup: false,
            number: 0,
            unknown_number: false,
            expect: Expect::Start,
            resuming: false,
            pending: None,
            last_move_pos: (0, 0),
        }
    }
}

/// One run over one input.
pub(crate) struct Reader<'f> {
    f: &'f mut Filter,
    out: &'f mut dyn Write,
    on_diagnostic: &'f mut dyn FnMut(&Diagnostic),
    pub(crate) report: Report,
    pub(crate) stopped: bool,
    pub(crate) line_no: u64,
    mode: Mode,
    /// Where the open comment started (line, column).
    comment_at: (u64, u64),
    /// Text of a kept comment, across lines.
    comment: Vec<u8>,
    /// The current line had a movetext token (before the one being read).
    moves_on_line: bool,
    /// Kept comments read among the tags, end to end, and where each ends.
    held: Vec<u8>,
    held_ends: Vec<usize>,
    depth: u32,
    /// Where the outermost open variation started.
    variation_at: (u64, u64),
    /// Kept variations: (number, side) of each enclosing level.
    var_stack: Vec<(u32, Side)>,
    var_number: u32,
    var_side: Side,
    game: Game,
    /// NFKC of a line's tail, and the original offset of each of its bytes.
    norm: Vec<u8>,
    norm_map: Vec<u32>,
    /// Move pairs read without the lexer (see [`Reader::plain`]).
    plain: HalfMoves,
    /// Incremental column count within the current line: (offset, column).
    col_cache: (usize, u64),
    /// The current line is ASCII: a column is its byte offset plus one.
    line_ascii: bool,
    /// Byte offset in the input of the current line's start.
    pub(crate) line_start: u64,
    /// Byte length of the current line, line end included.
    line_len: u64,
    /// Where rejected games go, verbatim.
    pub(crate) rejects: Option<&'f mut dyn Write>,
    /// With `rejects`: the current line as read, line end included.
    raw_line: Vec<u8>,
    /// With `rejects`: where the lexed line starts in `raw_line` (after a
    /// BOM), or `None` when the line was re-decoded and offsets do not map.
    raw_base: Option<usize>,
    /// With `rejects`: the current game's bytes so far.
    raw_game: Vec<u8>,
    /// Lines that diagnostics made at the end of a game point back to.
    kept_lines: [Excerpt; KEPT_LINES],
    /// When to try the fast paths next (see [`Reader::fast_games`]).
    canonical_tries: Backoff,
    express_tries: Backoff,
    canonical_scratch: Scratch,
    /// Games the express path translated, and what it read of each.
    translated: Vec<u8>,
    translations: Vec<Translation>,
    translated_games: Vec<GameText>,
}

/// When to try a fast path again: input it does not take would be tried
/// in vain game after game, so after each miss the next 1, 3, 7 ... 63
/// game starts are not tried.
#[derive(Debug, Default)]
struct Backoff {
    /// Misses in a row, up to 6.
    misses: u32,
    /// Game starts still to pass by.
    skip: u32,
}

impl Backoff {
    /// Try at this game start?
    fn ready(&mut self) -> bool {
        if self.skip > 0 {
            self.skip -= 1;
            return false;
        }
        true
    }

    fn missed(&mut self) {
        self.misses = (self.misses + 1).min(6);
        self.skip = (1 << self.misses) - 1;
    }

    fn took(&mut self) {
        self.misses = 0;
    }
}

/// A piece of an earlier line, kept for a diagnostic made later.
#[derive(Debug, Default)]
struct Excerpt {
    line: u64,
    /// Column of the fault the excerpt was kept for.
    column: u64,
    /// The line's bytes around the fault, as read; made into text only if
    /// a diagnostic needs them, which is rare.
    bytes: Vec<u8>,
    /// Where the fault is in `bytes`.
    at: usize,
}

/// Bytes kept each side of a fault: enough for the shown window of
/// characters, whatever their UTF-8 length.
const KEPT_BYTES: usize = 4 * crate::diag::WINDOW + 4;

/// Slots of [`Reader::kept_lines`].
const KEPT_LINES: usize = 5;
const GAME_START: usize = 0;
const RESULT_TAG: usize = 1;
const LAST_MOVE: usize = 2;
const COMMENT_START: usize = 3;
const VARIATION_START: usize = 4;

/// The text being lexed: a line, or the NFKC-folded tail of one.
#[derive(Clone, Copy)]
struct Seg<'a> {
    text: &'a [u8],
    /// Original line offset of each byte of `text`, if folded.
    map: Option<&'a [u32]>,
}

impl Seg<'_> {
    fn orig(&self, i: usize) -> usize {
        match self.map {
            None => i,
            Some(m) => m
                .get(i)
                .map_or_else(|| m.last().map_or(0, |&x| x as usize + 1), |&x| x as usize),
        }
    }
}

impl<'f> Reader<'f> {
    pub(crate) fn new(
        f: &'f mut Filter,
        out: &'f mut dyn Write,
        on_diagnostic: &'f mut dyn FnMut(&Diagnostic),
    ) -> Reader<'f> {
        Reader {
            f,
            out,
            on_diagnostic,
            report: Report::default(),
            stopped: false,
            line_no: 0,
            mode: Mode::Code,
            comment_at: (0, 0),
            comment: Vec::new(),
            held: Vec::new(),
            held_ends: Vec::new(),
            moves_on_line: false,
            depth: 0,
            variation_at: (0, 0),
            var_stack: Vec::new(),
            var_number: 0,
            var_side: Side::White,
            game: Game::new(),
            norm: Vec::new(),
            norm_map: Vec::new(),
            plain: HalfMoves::default(),
            col_cache: (0, 1),
            line_ascii: true,
            line_start: 0,
            line_len: 0,
            kept_lines: Default::default(),
            canonical_tries: Backoff::default(),
            express_tries: Backoff::default(),
            canonical_scratch: Scratch::default(),
            translated: Vec::new(),
            translations: Vec::new(),
            translated_games: Vec::new(),
            rejects: None,
            raw_line: Vec::new(),
            raw_base: Some(0),
            raw_game: Vec::new(),
        }
    }

    /// Keeps the text around byte `off` of the current line, for a
    /// diagnostic that the end of the game may make about it.
    fn keep_line(&mut self, slot: usize, line: &[u8], off: usize) {
        let column = self.column(line, off);
        self.keep_excerpt(slot, line, off, column);
    }

    /// [`Reader::keep_line`] for a byte offset whose column is known.
    fn keep_excerpt(&mut self, slot: usize, line: &[u8], off: usize, column: u64) {
        let from = off.saturating_sub(KEPT_BYTES);
        let to = (off + KEPT_BYTES).min(line.len());
        let k = &mut self.kept_lines[slot];
        k.line = self.line_no;
        k.column = column;
        k.bytes.clear();
        k.bytes.extend_from_slice(&line[from..to]);
        k.at = off - from;
    }

    /// Byte offset of character column `col` in `line`, walking from the
    /// last column computed so that a long line is not rescanned.
    fn byte_of_column(&self, line: &[u8], col: u64) -> usize {
        if self.line_ascii {
            return (col.saturating_sub(1) as usize).min(line.len());
        }
        let (mut o, mut c) = self.col_cache;
        o = o.min(line.len());
        while c > col && o > 0 {
            o -= 1;
            if (line[o] & 0xC0) != 0x80 {
                c -= 1;
            }
        }
        while c < col && o < line.len() {
            o += 1;
            while o < line.len() && (line[o] & 0xC0) == 0x80 {
                o += 1;
            }
            c += 1;
        }
        o
    }

    fn skipping(&self) -> bool {
        self.depth > 0 && self.f.drop_variations
    }

    fn column(&mut self, line: &[u8], off: usize) -> u64 {
        if self.line_ascii {
            return off.min(line.len()) as u64 + 1;
        }
        let (o, c) = self.col_cache;
        if off < o {
            return char_column(line, off);
        }
        let end = off.min(line.len());
        let add = chars_in(&line[o.min(end)..end]);
        self.col_cache = (end, c + add);
        c + add
    }

    fn error_at(&mut self, line: &[u8], off: usize, message: impl Into<String>) {
        let col = self.column(line, off);
        self.f.cx.error(self.line_no, col, message);
    }

    /// Reads one input line (with its line end, if any); `utf8_checked`:
    /// the caller has found it UTF-8 already.
    pub(crate) fn line(&mut self, buf: &[u8], utf8_checked: bool) -> io::Result<()> {
        self.line_no += 1;
        self.col_cache = (0, 1);
        self.moves_on_line = false;
        self.line_start += self.line_len;
        self.line_len = buf.len() as u64;
        let mut line: &[u8] = buf;
        while let [rest @ .., b'\n' | b'\r'] = line {
            line = rest;
        }
        if self.line_no == 1 {
            line = line.strip_prefix("\u{FEFF}".as_bytes()).unwrap_or(line);
        }
        if self.rejects.is_some() {
            self.raw_line.clear();
            self.raw_line.extend_from_slice(buf);
            self.raw_base = Some(line.as_ptr() as usize - buf.as_ptr() as usize);
            if self.game.started {
                self.raw_game.extend_from_slice(buf);
            }
        }
        let lossy;
        let mut bad_utf8 = None;
        self.line_ascii = line.is_ascii();
        if !self.line_ascii && !utf8_checked {
            if let Err(e) = line.to_str() {
                let off = e.valid_up_to();
                bad_utf8 = Some((
                    char_column(line, off),
                    format!(
                        "invalid UTF-8: byte 0x{:02X} at byte offset {} of the input",
                        line[off],
                        self.line_start
                            + (off + line.as_ptr() as usize - buf.as_ptr() as usize) as u64
                    ),
                ));
                lossy = line.to_str_lossy().into_owned().into_bytes();
                line = &lossy;
                self.raw_base = None;
            }
        }
        // Unclosed comment or variation: a tag line starts the next game.
        if (self.mode == Mode::Comment || self.depth > 0) && looks_like_tag(line) {
            self.finish_game(line, Some(0))?;
        }
        if let Some((col, message)) = bad_utf8 {
            // The fault is the game's the line is read into: a new one when
            // the line opens with a tag that starts one (what token()
            // does with it), not the one before.
            let first = skip_blanks(line, 0);
            let tag_first = self.mode == Mode::Code
                && self.depth == 0
                && Token::lexer(&line[first..]).next() == Some(Ok(Token::Tag));
            let g = &self.game;
            if tag_first && g.started && (g.past_tags || g.ended()) {
                self.finish_game(line, Some(first))?;
            }
            if !self.game.started {
                self.begin_game(line, if tag_first { first } else { 0 });
            }
            self.f.cx.error(self.line_no, col, message);
        }
        self.segment(
            line,
            Seg {
                text: line,
                map: None,
            },
            0,
        )?;
        if self.mode == Mode::Comment && !self.f.drop_comments {
            self.comment.push(b'\n');
        }
        if let Some(mv) = self.game.pending.take() {
            self.emit_move(mv);
        }
        if self.game.last_move_pos.0 == self.line_no {
            let column = self.game.last_move_pos.1;
            let off = self.byte_of_column(line, column);
            self.keep_excerpt(LAST_MOVE, line, off, column);
        }
        self.fill_sources(line);
        Ok(())
    }

    /// The fast paths, at a line where a game that opens with
    /// [`VARIANT_TAG`] would start: when `buf` starts with games that are
    /// canonical already (see [`canonical_games`]), or that translate into
    /// canonical games (see [`translate`]), ends the game under way, writes
    /// them and returns how many bytes of `buf` they took; otherwise does
    /// nothing and returns 0. `None` when it would try but `buf` may end
    /// inside the game (no game starts after it): the caller may come back
    /// with more bytes. `utf8_checked`: `buf`'s whole lines are UTF-8.
    pub(crate) fn fast_games(
        &mut self,
        buf: &[u8],
        utf8_checked: bool,
    ) -> io::Result<Option<usize>> {
        let g = &self.game;
        if !(self.f.copy_canonical || self.f.express)
            || self.mode != Mode::Code
            || self.depth > 0
            || (g.started && !(g.past_tags || g.ended()))
            || !buf.starts_with(VARIANT_TAG)
        {
            return Ok(Some(0));
        }
        if next_game(buf).is_none() {
            return Ok(None);
        }
        if self.f.copy_canonical && buf.starts_with(VARIANT_LINE) && self.canonical_tries.ready() {
            let run = canonical_games(buf, false, &mut self.canonical_scratch);
            if run.games > 0 {
                self.canonical_tries.took();
                return self.take_games(&buf[..run.len], run.len, run.lines, run.report());
            }
            self.canonical_tries.missed();
        }
        if !self.f.express || !self.express_tries.ready() {
            return Ok(Some(0));
        }
        // Games translated one after the other, then checked at once.
        let mut text = std::mem::take(&mut self.translated);
        text.clear();
        self.translations.clear();
        self.translated_games.clear();
        let mut at = 0;
        while at < buf.len() && at <= RUN_BYTES && buf[at..].starts_with(VARIANT_TAG) {
            let Some((t, game)) = translate(&buf[at..], &mut text, utf8_checked) else {
                break;
            };
            at += t.len;
            self.translations.push(t);
            self.translated_games.push(game);
        }
        let run = checked_games(&text, &self.translated_games);
        let taken = if run.games == 0 {
            self.express_tries.missed();
            Ok(Some(0))
        } else {
            self.express_tries.took();
            let mut counts = run.report();
            let mut len = 0;
            for t in &self.translations[..run.games as usize] {
                len += t.len;
                counts.comments_dropped += t.comments;
                counts.variations_dropped += t.variations;
                counts.ratings_dropped += t.ratings;
            }
            self.take_games(&text[..run.len], len, run.lines, counts)
        };
        self.translated = text;
        taken
    }

    /// Ends the game under way and writes `text`, the games a fast path
    /// made of the next `len` bytes of input (`lines` lines).
    fn take_games(
        &mut self,
        text: &[u8],
        len: usize,
        lines: u64,
        counts: Report,
    ) -> io::Result<Option<usize>> {
        if self.game.started {
            // What the Variant tag's token would do: the line is not read
            // yet, so no diagnostic of the game takes its text.
            self.finish_game(&[], None)?;
            if self.stopped {
                return Ok(Some(0));
            }
        }
        self.out.write_all(text)?;
        self.line_no += lines;
        self.line_start += self.line_len;
        self.line_len = len as u64;
        self.report.add(&counts);
        Ok(Some(len))
    }

    /// Gives each diagnostic of the game its source line: the current one,
    /// or one kept for the purpose.
    #[inline]
    fn fill_sources(&mut self, line: &[u8]) {
        // Called for every line; most lines leave no diagnostic.
        if !self.f.cx.diagnostics.is_empty() {
            self.fill_sources_of(line);
        }
    }

    fn fill_sources_of(&mut self, line: &[u8]) {
        let n = self.line_no;
        for i in 0..self.f.cx.diagnostics.len() {
            let d = &self.f.cx.diagnostics[i];
            if !d.source.is_empty() {
                continue;
            }
            let kept = self
                .kept_lines
                .iter()
                .find(|k| k.line == d.line && k.column == d.column);
            let (text, first) = match kept {
                Some(k) => excerpt(&k.bytes, k.at, k.column),
                None if d.line == n && !line.is_empty() => {
                    excerpt(line, self.byte_of_column(line, d.column), d.column)
                }
                None => continue,
            };
            let d = &mut self.f.cx.diagnostics[i];
            d.source = text;
            d.source_column = first;
        }
    }

    /// Reads `seg.text[pos..]`, switching modes as comments and variations open and close.
    fn segment(&mut self, line: &[u8], seg: Seg<'_>, mut pos: usize) -> io::Result<()> {
        let text = seg.text;
        while pos < text.len() {
            if self.mode == Mode::Comment {
                match memchr::memchr(b'}', &text[pos..]) {
                    Some(j) => {
                        if self.f.drop_comments {
                            self.report.comments_dropped += 1;
                        } else {
                            self.comment.extend_from_slice(&text[pos..pos + j]);
                            self.emit_comment();
                        }
                        self.mode = Mode::Code;
                        pos += j + 1;
                    }
                    None => {
                        if !self.f.drop_comments {
                            self.comment.extend_from_slice(&text[pos..]);
                        }
                        return Ok(());
                    }
                }
            } else if self.skipping() {
                // Count depth to the matching `)`; comments inside may hold parentheses.
                match memchr::memchr3(b'(', b')', b'{', &text[pos..]) {
                    None => return Ok(()),
                    Some(j) => {
                        pos += j + 1;
                        match text[pos - 1] {
                            // A draw offer `(=)` inside is no variation.
                            b'(' if text[pos..].starts_with(b"=)") => pos += 2,
                            b'(' => {
                                self.depth += 1;
                                self.report.variations_dropped += 1;
                            }
                            b')' => self.depth -= 1,
                            _ => self.open_comment(line, seg.orig(pos - 1)),
                        }
                    }
                }
            } else if let Some(p) = starts_number(text, pos)
                .then(|| self.plain(line, seg, pos))
                .flatten()
            {
                pos = p;
            } else if let Some((start, end)) = plain_tag(text, pos) {
                // What lex() does with the Tag token it would read.
                self.token(line, Token::Tag, &text[start..end], seg.orig(start))?;
                if self.stopped {
                    return Ok(());
                }
                pos = end;
            } else {
                pos = self.lex(line, seg, pos)?;
            }
        }
        Ok(())
    }

    fn open_comment(&mut self, line: &[u8], off: usize) {
        let col = self.column(line, off);
        self.comment_at = (self.line_no, col);
        self.keep_line(COMMENT_START, line, off);
        self.comment.clear();
        self.mode = Mode::Comment;
        if !self.game.started {
            // A comment before anything else belongs to the game it introduces.
            self.begin_game(line, off);
        }
    }

    fn emit_comment(&mut self) {
        if !self.game.past_tags && self.depth == 0 {
            // Among the tags, a Redefine may still come that the comment's
            // `~X` references need: hold it until the tags end.
            self.held.extend_from_slice(&self.comment);
            self.held_ends.push(self.held.len());
            self.comment.clear();
            return;
        }
        self.pass_comment();
    }

    /// Hands the comments held among the tags on, now that the tags are over.
    fn leave_tags(&mut self) {
        self.game.past_tags = true;
        if self.held_ends.is_empty() {
            return;
        }
        let held = std::mem::take(&mut self.held);
        let mut from = 0;
        for i in 0..self.held_ends.len() {
            let to = self.held_ends[i];
            self.comment.clear();
            self.comment.extend_from_slice(&held[from..to]);
            self.pass_comment();
            from = to;
        }
        self.held = held;
        self.held.clear();
        self.held_ends.clear();
    }

    fn pass_comment(&mut self) {
        let mut text = std::mem::take(&mut self.comment);
        self.f.cx.depth = self.depth;
        let mut keep = true;
        for p in &mut self.f.passes {
            if p.comment(&mut text, &mut self.f.cx) == Flow::Drop {
                keep = false;
                break;
            }
        }
        if keep {
            let after = self.game.result.is_some();
            self.f.writer.comment(&text, self.depth, after);
        }
        text.clear();
        self.comment = text;
    }

    /// Lexes from `pos` until the mode changes or the segment ends; returns
    /// where to go on.
    fn lex(&mut self, line: &[u8], seg: Seg<'_>, pos: usize) -> io::Result<usize> {
        let mut lx = Token::lexer(&seg.text[pos..]);
        let mut resume = seg.map.is_none();
        while let Some(tok) = lx.next() {
            let span = lx.span();
            let (start, end) = (pos + span.start, pos + span.end);
            let slice = &seg.text[start..end];
            let off = seg.orig(start);
            let tok = match tok {
                Ok(t) => t,
                Err(()) => {
                    // Full-width letters and the like: fold this word with NFKC,
                    // read it, and go on after it.
                    if seg.map.is_none() && slice.first().is_some_and(|&b| b >= 0x80) {
                        let word_end = seg.text[start..]
                            .iter()
                            .position(|&b| matches!(b, b' ' | b'\t' | b'{'))
                            .map_or(seg.text.len(), |n| start + n);
                        if let Some(()) = self.fold(&seg.text[start..word_end], start) {
                            let norm = std::mem::take(&mut self.norm);
                            let map = std::mem::take(&mut self.norm_map);
                            let r = self.segment(
                                line,
                                Seg {
                                    text: &norm,
                                    map: Some(&map),
                                },
                                0,
                            );
                            self.norm = norm;
                            self.norm_map = map;
                            r?;
                            return Ok(word_end);
                        }
                    }
                    self.unexpected(line, off, &seg.text[start..]);
                    continue;
                }
            };
            match tok {
                Token::CommentOpen => {
                    self.flush_pending();
                    self.open_comment(line, off);
                    return Ok(end);
                }
                Token::VariationOpen | Token::VariationOpenLabeled if self.f.drop_variations => {
                    self.flush_pending();
                    self.open_variation(line, off, None);
                    return Ok(end);
                }
                _ => self.token(line, tok, slice, off)?,
            }
            if self.stopped {
                return Ok(seg.text.len());
            }
            // After a pair the plain path does not read (a castling, say),
            // it may read on from the next move number, once per call: if
            // it cannot, the lexer reads the rest. The number's token would
            // first pass the pending move on; so does this.
            if resume && self.game.expect == Expect::Number && self.depth == 0 {
                let next = skip_blanks(seg.text, end);
                // (The plain path reads numbers of five digits at most.)
                let number = decimal_at(seg.text, next, 5).filter(|&(_, digits)| {
                    digits > 0 && seg.text.get(next + digits) == Some(&b'.')
                });
                if number.is_some() {
                    self.flush_pending();
                    if let Some(p) = self.plain(line, seg, next) {
                        return Ok(p);
                    }
                    resume = false;
                }
            }
        }
        Ok(seg.text.len())
    }

    /// NFKC-folds `tail` into `self.norm` if that changes anything.
    fn fold(&mut self, tail: &[u8], base: usize) -> Option<()> {
        let s = std::str::from_utf8(tail).ok()?;
        let c = s.chars().next()?;
        if std::iter::once(c).nfkc().eq(std::iter::once(c)) {
            return None;
        }
        self.norm.clear();
        self.norm_map.clear();
        let mut buf = [0u8; 4];
        for (i, ch) in s.char_indices() {
            for n in std::iter::once(ch).nfkc() {
                let e = n.encode_utf8(&mut buf);
                self.norm.extend_from_slice(e.as_bytes());
                self.norm_map
                    .extend(std::iter::repeat_n((base + i) as u32, e.len()));
            }
        }
        Some(())
    }

    fn unexpected(&mut self, line: &[u8], off: usize, rest: &[u8]) {
        if !self.game.started {
            self.begin_game(line, off);
        }
        let c = std::str::from_utf8(rest)
            .ok()
            .and_then(|s| s.chars().next())
            .unwrap_or(char::REPLACEMENT_CHARACTER);
        let msg = match c {
            '[' => "tag not closed: a tag is [Name \"value\"] on one line".to_string(),
            '\0' => "NUL byte in the input".to_string(),
            '}' => "} closes no comment".to_string(),
            c if c.is_control() => format!("control character U+{:04X}", c as u32),
            c => format!("unexpected character '{c}'"),
        };
        self.leave_tags();
        self.error_at(line, off, msg);
    }

    /// Starts a game at this token, ending the previous one where the
    /// boundary rules say so.
    fn begin_game(&mut self, line: &[u8], off: usize) {
        let col = self.column(line, off);
        self.game = Game::new();
        self.game.started = true;
        self.game.line = self.line_no;
        self.game.column = col;
        if self.rejects.is_some() {
            self.raw_game.clear();
            let from = self.raw_base.map_or(0, |b| b + off);
            self.raw_game
                .extend_from_slice(&self.raw_line[from.min(self.raw_line.len())..]);
        }
        self.keep_line(GAME_START, line, off);
        self.f.cx.redefine = Default::default();
        self.f.cx.depth = 0;
        self.f.writer.begin(self.line_no);
        for p in &mut self.f.passes {
            p.begin_game(&mut self.f.cx);
        }
    }

    /// Before a movetext token: a game that has ended gives way to a new one.
    fn before_movetext(&mut self, line: &[u8], off: usize) -> io::Result<()> {
        if self.game.started && self.game.ended() {
            self.finish_game(line, Some(off))?;
        }
        if !self.game.started {
            self.begin_game(line, off);
        }
        Ok(())
    }

    fn token(&mut self, line: &[u8], tok: Token, slice: &[u8], off: usize) -> io::Result<()> {
        if !matches!(
            tok,
            Token::Rating | Token::Nag | Token::DrawOffer | Token::EndMarker
        ) {
            self.flush_pending();
        }
        if self.depth > 0 {
            self.variation_token(line, tok, slice, off);
            return Ok(());
        }
        if tok != Token::Tag {
            if !self.game.past_tags {
                self.leave_tags();
            }
            self.moves_on_line = true;
        }
        match tok {
            Token::Tag => {
                let g = &self.game;
                let ended = g.ended();
                let amid_moves = self.moves_on_line && g.has_moves && !ended;
                if amid_moves && tag_name(slice) == b"Redefine" {
                    // A Redefine after moves on their own line is misplaced, not a new game.
                    self.error_at(
                        line,
                        off,
                        "a Redefine tag must come before the movetext it applies to (with the other tags)",
                    );
                    return Ok(());
                }
                if g.started && (g.past_tags || ended) {
                    self.finish_game(line, Some(off))?;
                }
                if !self.game.started {
                    self.begin_game(line, off);
                }
                self.game.has_tags = true;
                self.tag(line, slice, off);
            }
            Token::Number | Token::UnknownNumber => {
                self.before_movetext(line, off)?;
                self.number(line, tok == Token::UnknownNumber, slice, off);
            }
            Token::Dots if slice.len() == 3 && self.game.expect == Expect::White => {
                self.ellipsis(line, off);
            }
            Token::Dots => {}
            Token::Ellipsis => {
                self.before_movetext(line, off)?;
                self.ellipsis(line, off);
            }
            Token::Comma => {
                if self.game.expect != Expect::Black {
                    self.error_at(
                        line,
                        off,
                        "unexpected , : it separates White's move from Black's",
                    );
                }
            }
            Token::Move | Token::Castling | Token::ForcedPromotion => {
                self.before_movetext(line, off)?;
                self.main_move(line, tok, slice, off);
            }
            Token::Rating | Token::Nag | Token::DrawOffer | Token::EndMarker => {
                self.annotation(line, tok, slice, off);
            }
            Token::Result | Token::Unfinished => {
                if self.game.started && self.game.result.is_some() {
                    self.finish_game(line, Some(off))?;
                }
                if !self.game.started {
                    self.begin_game(line, off);
                }
                let text = std::str::from_utf8(slice).unwrap_or("");
                match Outcome::parse(text) {
                    Some(o) => self.game.result = Some(o),
                    None => {
                        let hint = match text.as_bytes() {
                            [b'1', _, b'0'] => ": CTL-PGN writes 3-0",
                            [b'0', _, b'1'] => ": CTL-PGN writes 0-3",
                            _ => ": results are 3-0 2-1 0-3 1-2 1-1 *",
                        };
                        let pgn = if hint.contains("writes") {
                            " is PGN"
                        } else {
                            " is not a result"
                        };
                        self.error_at(line, off, format!("result {text}{pgn}{hint}"));
                        self.game.result = Some(Outcome::Unfinished);
                    }
                }
            }
            Token::PgnDraw => {
                if self.game.started && self.game.result.is_some() {
                    self.finish_game(line, Some(off))?;
                }
                if !self.game.started {
                    self.begin_game(line, off);
                }
                let text = slice.to_str_lossy();
                self.error_at(
                    line,
                    off,
                    format!("result {text} is PGN: CTL-PGN writes 1-1"),
                );
                self.game.result = Some(Outcome::Draw);
            }
            Token::PgnNumber => {
                self.before_movetext(line, off)?;
                let n = parse_number(slice);
                self.error_at(
                    line,
                    off,
                    format!(
                        "{n}... is PGN numbering: CTL-PGN writes Black's move as {n}. ..., MOVE"
                    ),
                );
            }
            Token::Label => {
                self.before_movetext(line, off)?;
                self.error_at(line, off, "a variation label $[n] goes right after the (");
            }
            // A variation after the end marker still belongs to the game.
            Token::VariationOpen => self.open_variation(line, off, None),
            Token::VariationOpenLabeled => self.open_variation(line, off, label_of(slice)),
            Token::VariationClose => {
                if !self.game.started {
                    self.begin_game(line, off);
                }
                self.error_at(line, off, ") closes no variation");
            }
            Token::CommentOpen => unreachable!("handled by lex"),
        }
        Ok(())
    }

    fn open_variation(&mut self, line: &[u8], off: usize, label: Option<u32>) {
        if !self.game.started {
            self.begin_game(line, off);
        }
        self.leave_tags();
        if self.depth == 0 {
            self.variation_at = (self.line_no, self.column(line, off));
            self.keep_line(VARIATION_START, line, off);
        }
        self.depth += 1;
        if self.f.drop_variations {
            self.report.variations_dropped += 1;
            return;
        }
        if self.depth > 1 {
            self.var_stack.push((self.var_number, self.var_side));
        }
        self.var_number = self.game.number;
        self.var_side = Side::White;
        self.pass_variation(Variation::Open { label });
    }

    fn pass_variation(&mut self, edge: Variation) {
        self.f.cx.depth = self.depth;
        for p in &mut self.f.passes {
            if p.variation(edge, &mut self.f.cx) == Flow::Drop {
                return;
            }
        }
        self.f.writer.variation(edge, self.depth);
    }

    /// A token inside a kept variation: numbering is tracked loosely, only
    /// to tell White's moves from Black's.
    fn variation_token(&mut self, line: &[u8], tok: Token, slice: &[u8], off: usize) {
        match tok {
            Token::Number | Token::UnknownNumber => {
                let n = parse_number(slice);
                self.var_number = n;
                self.var_side = Side::White;
                self.f.cx.depth = self.depth;
                if self
                    .f
                    .passes
                    .iter_mut()
                    .all(|p| p.variation_number(n, &mut self.f.cx) == Flow::Keep)
                {
                    self.f.writer.variation_number(n);
                }
            }
            Token::Dots if slice.len() == 3 => self.var_side = Side::Black,
            Token::Ellipsis => self.var_side = Side::Black,
            Token::Dots | Token::Comma => {}
            Token::Move | Token::Castling | Token::ForcedPromotion => {
                if let Some(mv) =
                    self.half_move(line, tok, slice, off, self.var_number, self.var_side)
                {
                    self.game.pending = Some(mv);
                }
                if self.var_side == Side::Black {
                    self.var_number = self.var_number.saturating_add(1);
                }
                self.var_side = self.var_side.other();
            }
            Token::Rating | Token::Nag | Token::DrawOffer | Token::EndMarker => {
                self.annotation(line, tok, slice, off)
            }
            Token::VariationOpen => self.open_variation(line, off, None),
            Token::VariationOpenLabeled => self.open_variation(line, off, label_of(slice)),
            Token::VariationClose => {
                self.pass_variation(Variation::Close);
                self.depth -= 1;
                if let Some((n, s)) = self.var_stack.pop() {
                    self.var_number = n;
                    self.var_side = s;
                }
            }
            _ => {
                let what = slice.to_str_lossy();
                self.error_at(
                    line,
                    off,
                    format!("{what} inside a variation: is a ) missing?"),
                );
            }
        }
    }

    fn number(&mut self, line: &[u8], unknown: bool, slice: &[u8], off: usize) {
        let n = parse_number(slice);
        let g = &mut self.game;
        let problem = match g.expect {
            _ if n == 0 => Some("move numbers start at 1".to_string()),
            _ if n > MAX_MOVE_NUMBER => Some(format!(
                "move number {} is too large (at most {MAX_MOVE_NUMBER})",
                slice[..slice.len() - 1].to_str_lossy()
            )),
            Expect::Start => None,
            _ if unknown => Some(format!(
                "{n}? is only for the first move of a game whose start number is unknown"
            )),
            Expect::Number if n == g.number.saturating_add(1) => None,
            Expect::Number => Some(format!(
                "move number {n} out of sequence: {} comes next",
                g.number.saturating_add(1)
            )),
            Expect::Black if n == g.number => {
                g.resuming = true;
                None
            }
            Expect::Black => Some(format!(
                "Black's move {} is missing before move {n}",
                g.number
            )),
            Expect::White => Some(format!(
                "move number {n} follows move number {} with no move",
                g.number
            )),
        };
        if let Some(p) = problem {
            self.error_at(line, off, p);
        }
        let g = &mut self.game;
        g.unknown_number = unknown;
        g.number = n;
        g.expect = Expect::White;
    }

    fn ellipsis(&mut self, line: &[u8], off: usize) {
        let g = &mut self.game;
        if g.expect == Expect::White && (!g.has_moves || g.resuming) {
            g.expect = Expect::Black;
            g.resuming = false;
        } else {
            let n = g.number;
            self.error_at(
                line,
                off,
                format!("a Black move where White's move {n} is due: ... stands for White's move only at the start of a game"),
            );
        }
    }

    fn main_move(&mut self, line: &[u8], tok: Token, slice: &[u8], off: usize) {
        let g = &mut self.game;
        let side = match g.expect {
            Expect::Start => {
                g.number = 1;
                Side::White
            }
            Expect::Number => {
                // An unnumbered move after `N?`'s pair is plainly N+1.
                g.number = g.number.saturating_add(1);
                g.unknown_number = false;
                if g.number > MAX_MOVE_NUMBER {
                    let n = g.number;
                    self.error_at(
                        line,
                        off,
                        format!("move number {n} is too large (at most {MAX_MOVE_NUMBER})"),
                    );
                }
                Side::White
            }
            Expect::White if g.resuming => {
                let n = g.number;
                self.error_at(
                    line,
                    off,
                    format!(
                        "White's move {n} was already played: write {n}. ..., MOVE for Black's"
                    ),
                );
                Side::White
            }
            Expect::White => Side::White,
            Expect::Black => Side::Black,
        };
        let g = &mut self.game;
        g.expect = match side {
            Side::White => Expect::Black,
            Side::Black => Expect::Number,
        };
        g.has_moves = true;
        let number = g.number;
        if let Some(mv) = self.half_move(line, tok, slice, off, number, side) {
            self.game.pending = Some(mv);
        }
    }

    fn half_move(
        &mut self,
        line: &[u8],
        tok: Token,
        slice: &[u8],
        off: usize,
        number: u32,
        side: Side,
    ) -> Option<HalfMove> {
        let parsed = match tok {
            Token::Move => parse_move(slice),
            Token::Castling => parse_castling(slice),
            _ => parse_forced_promotion(slice),
        };
        let (action, check) = match parsed {
            Ok(x) => x,
            Err(e) => {
                // Offsets inside a token are from the (possibly folded) text.
                let at = off + e.offset;
                self.error_at(line, at, e.message);
                return None;
            }
        };
        let mut mv = HalfMove::new(number, side, action, check);
        mv.unknown_number = self.game.unknown_number && self.depth == 0;
        mv.line = self.line_no;
        mv.column = self.column(line, off) as u32;
        Some(mv)
    }

    fn annotation(&mut self, line: &[u8], tok: Token, slice: &[u8], off: usize) {
        let Some(mv) = self.game.pending.as_mut() else {
            let what = match tok {
                Token::Rating => "a rating",
                Token::Nag => "a NAG",
                Token::DrawOffer => "(=)",
                _ => ":",
            };
            self.error_at(
                line,
                off,
                format!("{what} must follow a move on the same line"),
            );
            return;
        };
        let problem = match tok {
            Token::Rating if mv.rating.is_some() => Some("a move takes one rating"),
            Token::Rating => {
                mv.rating = Rating::parse(slice);
                None
            }
            Token::Nag => match std::str::from_utf8(&slice[1..])
                .ok()
                .and_then(|s| s.parse::<u8>().ok())
            {
                None => Some("NAGs are $0 to $255"),
                Some(_) if mv.nag_count as usize == HalfMove::MAX_NAGS => {
                    Some("too many NAGs on one move")
                }
                Some(n) => {
                    mv.nags[mv.nag_count as usize] = n;
                    mv.nag_count += 1;
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
            self.error_at(line, off, p);
        }
    }

    fn flush_pending(&mut self) {
        if let Some(mv) = self.game.pending.take() {
            self.emit_move(mv);
        }
    }

    fn emit_move(&mut self, mut mv: HalfMove) {
        if self.f.drop_ratings {
            self.report.ratings_dropped += u64::from(mv.rating.is_some()) + u64::from(mv.nag_count);
        }
        if self.depth == 0 {
            let mate = mv.check == Some(Check::Mate);
            let pos = (mv.line, u64::from(mv.column));
            self.main_line_moves(1, pos, mv.end || mate, mate.then_some(mv.side));
        }
        self.f.cx.depth = self.depth;
        for p in &mut self.f.passes {
            if p.half_move(&mut mv, &mut self.f.cx) == Flow::Drop {
                return;
            }
        }
        self.f.writer.half_move(&mv, self.depth);
    }

    /// What `count` main-line moves tell of the game: the last one is at
    /// `pos` (line, column), ends the game or not, and mates for `mate_by`.
    fn main_line_moves(&mut self, count: u32, pos: (u64, u64), ends: bool, mate_by: Option<Side>) {
        self.report.half_moves += u64::from(count);
        let g = &mut self.game;
        g.last_move_ends = ends;
        g.last_move_pos = pos;
        g.end_seen |= ends;
        if mate_by.is_some() {
            g.mate_by = mate_by;
        }
    }

    /// The fast path for the commonest text, move pairs of a game under way
    /// (`N. WHITE, BLACK ...`), read by [`scan_plain_line`] without the
    /// lexer, from `pos` to the end of the line or to a comment or
    /// variation. Does what the token path would do with the same text and
    /// returns where to go on; or does nothing and returns `None`.
    fn plain(&mut self, line: &[u8], seg: Seg<'_>, pos: usize) -> Option<usize> {
        let g = &self.game;
        if seg.map.is_some()
            || self.depth > 0
            || !g.started
            || g.ended()
            || g.resuming
            || g.pending.is_some()
        {
            return None;
        }
        let first = match g.expect {
            Expect::Start => None,
            Expect::Number => Some(g.number.saturating_add(1)),
            Expect::White | Expect::Black => return None,
        };
        if !self.game.past_tags {
            // What token() does for the line's first token, when it is a
            // number: the comments held among the tags go first.
            let first_token = line[pos..].iter().find(|&&c| c != b' ' && c != b'\t');
            if !first_token.is_some_and(u8::is_ascii_digit) {
                return None;
            }
            self.leave_tags();
        }
        let map = &self.f.cx.redefine;
        let run = if self.f.plain_chain {
            // The chain would leave these moves as the scanner writes them:
            // it writes them straight into the game's text.
            let text = self.f.writer.plain_text();
            let len = text.len();
            let mut out = CanonicalText::new(text, !self.f.drop_ratings);
            let run = scan_plain_line(line, pos, first, map, &mut out);
            if run.is_none() {
                self.f.writer.plain_text().truncate(len);
            }
            run?
        } else {
            self.plain.0.clear();
            scan_plain_line(line, pos, first, map, &mut self.plain)?
        };
        // What number() and main_move() do for the moves.
        self.moves_on_line = true;
        let g = &mut self.game;
        g.unknown_number = false;
        g.number = run.number;
        g.expect = if run.white_last {
            Expect::Black
        } else {
            Expect::Number
        };
        g.has_moves = true;
        if self.f.plain_chain {
            // What emit_move() and the writer do for each move.
            let last_side = if run.white_last {
                Side::White
            } else {
                Side::Black
            };
            let pos = (self.line_no, self.column(line, run.last_off));
            let mate_by = run.mate.then_some(last_side);
            self.main_line_moves(run.half_moves, pos, run.ends, mate_by);
            if self.f.drop_ratings {
                self.report.ratings_dropped += u64::from(run.ratings);
            }
            self.f
                .writer
                .plain_written(run.white_last.then_some(run.number));
        } else {
            let moves = std::mem::take(&mut self.plain);
            for &(off, mut mv) in &moves.0 {
                mv.line = self.line_no;
                mv.column = self.column(line, off) as u32;
                self.emit_move(mv);
            }
            self.plain = moves;
        }
        if let Some(o) = run.result {
            self.game.result = Some(o);
        }
        Some(run.end)
    }

    fn tag(&mut self, line: &[u8], slice: &[u8], off: usize) {
        let col = self.column(line, off);
        let q1 = memchr::memchr(b'"', slice).expect("the lexer matched a quote");
        let q2 = memchr::memrchr(b'"', slice).expect("the lexer matched a quote");
        // One UTF-8 check for the whole tag; the quotes are char boundaries.
        let text = std::str::from_utf8(slice).unwrap_or("");
        let name = text.get(1..q1).unwrap_or("").trim_ascii();
        let raw = text.get(q1 + 1..q2).unwrap_or("");
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
        // Column of byte `i` of the value, for faults found inside it.
        let value_col = |r: &mut Self, i: usize| {
            let at = off + q1 + 1 + i.min(raw.len());
            r.column(line, at)
        };
        match name {
            "Variant" => {
                self.game.has_variant = true;
                if value != "C'escacs" {
                    self.f.cx.error(
                        self.line_no,
                        col,
                        format!("Variant \"{value}\" is not C'escacs: this filter reads C'escacs games only"),
                    );
                }
            }
            "Redefine" => {
                if let Err(e) = self.f.cx.redefine.merge(value) {
                    let c = value_col(self, 0);
                    self.f.cx.error(self.line_no, c, e.to_string());
                }
            }
            "Result" => {
                self.game.result_tag = Outcome::parse(value).map(|o| (o, self.line_no, col));
                self.keep_line(RESULT_TAG, line, off);
            }
            "PDTL" | "DPTL" => {
                if name == "DPTL" {
                    self.f.cx.warn(
                        self.line_no,
                        col,
                        "tag DPTL is read as PDTL (the usual misspelling)",
                    );
                }
                if self.game.has_setup {
                    self.f
                        .cx
                        .error(self.line_no, col, "a game has one PDTL tag");
                    return;
                }
                self.game.has_setup = true;
                match Pdtl::parse(value) {
                    Ok(mut pdtl) => {
                        pdtl.line = self.line_no;
                        pdtl.column = col;
                        for p in &mut self.f.passes {
                            p.setup(&mut pdtl, &mut self.f.cx);
                        }
                        self.f.writer.setup(&pdtl);
                    }
                    Err(e) => {
                        let c = value_col(self, e.offset);
                        self.f.cx.error(self.line_no, c, e.to_string());
                    }
                }
                return;
            }
            _ => {}
        }
        let tag = Tag {
            name,
            value,
            line: self.line_no,
            column: col,
        };
        for p in &mut self.f.passes {
            if p.tag(&tag, &mut self.f.cx) == Flow::Drop {
                return;
            }
        }
        self.f.writer.tag(&tag);
    }

    /// Ends the current game: checks what only the whole game shows, writes
    /// or rejects it, and hands its diagnostics on.
    ///
    /// `cut` is where in the current line the next game starts, if it does.
    pub(crate) fn finish_game(&mut self, line: &[u8], cut: Option<usize>) -> io::Result<()> {
        self.flush_pending();
        let tags_only = !self.game.past_tags;
        self.leave_tags();
        self.game.past_tags = !tags_only;
        self.fill_sources(line);
        if !self.game.started {
            return Ok(());
        }
        let cx = &mut self.f.cx;
        if self.mode == Mode::Comment {
            let (l, c) = self.comment_at;
            cx.error(l, c, "comment not closed: } is missing");
            self.mode = Mode::Code;
        }
        if self.depth > 0 {
            let (l, c) = self.variation_at;
            cx.error(l, c, "variation not closed: ) is missing");
            self.depth = 0;
            self.var_stack.clear();
        }
        let g = &self.game;
        let empty = !g.has_tags && !g.past_tags && !self.f.cx.has_error();
        if empty {
            // Nothing but comments: no game to write (see the README).
            self.mode = Mode::Code;
            self.depth = 0;
            self.game = Game::new();
            self.f.cx.diagnostics.clear();
            return Ok(());
        }
        let cx = &mut self.f.cx;
        let g = &self.game;
        if !g.has_variant {
            cx.warn(g.line, g.column, "no [Variant \"C'escacs\"] tag: added");
        }
        if g.has_moves && !g.last_move_ends {
            let (l, c) = g.last_move_pos;
            cx.warn(l, c, "the last move has no end marker (: or #)");
        }
        let mated = g.mate_by.map(|s| match s {
            Side::White => Outcome::WhiteWins,
            Side::Black => Outcome::BlackWins,
        });
        let result = g
            .result
            .or(mated)
            .or(g.result_tag.map(|t| t.0))
            .unwrap_or(Outcome::Unfinished);
        if let Some((tag, l, c)) = g.result_tag {
            if tag != result {
                cx.warn(
                    l,
                    c,
                    format!(
                        "the Result tag says {} but the game ends {}",
                        tag.as_str(),
                        result.as_str()
                    ),
                );
            }
        }
        for p in &mut self.f.passes {
            if let Some(r) = g.result {
                p.result(r, cx);
            }
            p.end_game(cx);
        }
        self.fill_sources(line);
        let cx = &mut self.f.cx;
        if self.f.strict {
            for d in &mut cx.diagnostics {
                d.severity = Severity::Error;
            }
        }
        self.report.games_read += 1;
        let rejected = cx.has_error();
        if rejected {
            self.report.games_rejected += 1;
        } else {
            self.f.writer.finish(result, self.out)?;
            self.report.games_written += 1;
        }
        if rejected {
            if let Some(rejects) = self.rejects.as_mut() {
                if let Some(cut) = cut {
                    let keep = self
                        .raw_base
                        .map_or(0, |b| b + cut)
                        .min(self.raw_line.len());
                    let drop = self.raw_line.len() - keep;
                    self.raw_game
                        .truncate(self.raw_game.len().saturating_sub(drop));
                }
                rejects.write_all(&self.raw_game)?;
                if !self.raw_game.ends_with(b"\n") {
                    rejects.write_all(b"\n")?;
                }
            }
            // The first error says why; later errors and the warnings tend
            // to follow from it, and nothing of the game is written.
            if let Some(d) = cx
                .diagnostics
                .iter()
                .find(|d| d.severity == Severity::Error)
            {
                (self.on_diagnostic)(d);
            }
        } else {
            cx.diagnostics.sort_by_key(|d| (d.line, d.column));
            for d in &cx.diagnostics {
                self.report.warnings += 1;
                (self.on_diagnostic)(d);
            }
        }
        cx.diagnostics.clear();
        self.game = Game::new();
        if rejected && self.f.fail_fast {
            self.stopped = true;
        }
        Ok(())
    }
}

/// No game comes near it; a larger number is a typo.
const MAX_MOVE_NUMBER: u32 = 99_999;

fn parse_number(slice: &[u8]) -> u32 {
    slice
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .fold(0u32, |n, &d| {
            n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
        })
}

fn label_of(slice: &[u8]) -> Option<u32> {
    let i = memchr::memchr(b'[', slice)?;
    Some(parse_number(&slice[i + 1..]))
}

/// The name of a lexed tag `[Name "value"]`.
fn tag_name(tag: &[u8]) -> &[u8] {
    let q = memchr::memchr(b'"', tag).unwrap_or(tag.len());
    tag[1..q].trim_ascii()
}

/// A tag pair at `pos` (after blanks) whose value has no escape: where it
/// starts and ends. The lexer reads the same bytes as one `Tag` token; a
/// value with a backslash is left to it.
fn plain_tag(text: &[u8], pos: usize) -> Option<(usize, usize)> {
    let start = skip_blanks(text, pos);
    let rest = text.get(start..)?.strip_prefix(b"[")?;
    let name = skip_blanks(rest, 0);
    let name_len = rest[name..]
        .iter()
        .take_while(|&&c| is_tag_name_byte(c))
        .count();
    if name_len == 0 {
        return None;
    }
    let i = skip_blanks(rest, name + name_len);
    let value = rest.get(i..)?.strip_prefix(b"\"")?;
    let q = memchr::memchr2(b'"', b'\\', value)?;
    if value[q] != b'"' {
        return None;
    }
    let after = &value[q + 1..];
    let close = skip_blanks(after, 0);
    (after.get(close) == Some(&b']')).then(|| {
        let end = text.len() - after.len() + close + 1;
        (start, end)
    })
}

/// Does a number follow `pos` (after blanks)? A plain run starts with one:
/// nothing else is worth the fast path's scan.
fn starts_number(text: &[u8], pos: usize) -> bool {
    text.get(skip_blanks(text, pos))
        .is_some_and(u8::is_ascii_digit)
}

/// `[Name "` at the start of a line (after blanks).
pub(crate) fn looks_like_tag(line: &[u8]) -> bool {
    let t = line.trim_ascii_start();
    let Some(rest) = t.strip_prefix(b"[") else {
        return false;
    };
    let n = rest.iter().take_while(|&&c| is_tag_name_byte(c)).count();
    n > 0 && rest[n..].trim_ascii_start().starts_with(b"\"")
}

#[cfg(test)]
mod tests {
    use crate::Filter;

    /// After a pair the plain path does not read (a castling), the reader
    /// goes back to it at the next move number, but only at a number: `3:`
    /// is no number, so the `:` after it still ends Black's move before it
    /// (and the game), and the pair after it starts a new game.
    #[test]
    fn after_a_castling_an_end_marker_still_ends_the_move_before_it() {
        let input = "[Variant \"C'escacs\"]\n\n\
                     1. KRK-II, E21-E15 2. E7-E13, F20-F16 3:. G7-G13, G21-G15 4. F8-F12:\n*\n";
        let (_, diagnostics, report) = Filter::default().filter_bytes(input.as_bytes());
        let found: Vec<_> = diagnostics
            .iter()
            .map(|d| (d.line, d.column, d.message.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                (3, 39, "unexpected character '3'"),
                (3, 59, "move number 4 out of sequence: 2 comes next"),
            ]
        );
        assert_eq!((report.games_read, report.games_rejected), (2, 2));
    }
}
