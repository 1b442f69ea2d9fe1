//! Stage 2 of the tokens: a game's main line read straight from the
//! bytes where it is already canonical (the span path), and every other
//! token through the `logos` tokenizer, each rule of the notation stated
//! once in `grammar/`.
//!
//! The span path reads blanks, line ends, `,`, move numbers in sequence
//! and canonical moves ([`half_move::plain_move_at`]) in a game's main
//! line; at anything else (a fault, a move that an annotation follows, a
//! token of another kind) it hands the byte where it stopped to the
//! tokenizer, which reads one token there, and takes over again after it.
//! The two read the same tokens the same way, so the output is the same
//! bytes with the span path off (`FilterBuilder::spans(false)`), which the
//! tests and the fuzz target check.

use super::game::Opens;
use super::scan::{invalid_utf8, Mode};
use super::{Held, Reading};
use crate::diag::{Message, Pos};
use crate::grammar::half_move::{self, Traits, Window};
use crate::grammar::model::{Check, HalfMove, Outcome, Rating, Side, Text};
use crate::grammar::standard_chess;
use crate::grammar::token::{self, decimal_at, label_value, number_value, tag_parts, Token};
use crate::passes::{Flow, Tag, Variation};
use crate::pdtl::Pdtl;
use logos::Logos;
use std::io;
use unicode_normalization::UnicodeNormalization;

/// A half-move read, waiting for the ratings and indicators after it on
/// its line.
#[derive(Clone, Copy, Debug)]
struct Pending {
    mv: HalfMove,
    traits: Traits,
    /// Where its text is in the input, when that text is what
    /// [`HalfMove::write_move`] writes (stream offsets), or would but for
    /// its separator (`respell`).
    text: Option<(u64, u64)>,
    /// A pass rewrote the separator, and nothing else of the move: its
    /// text is written with the move's separator in place of its own.
    respell: bool,
}

/// The half-moves being read.
#[derive(Debug, Default)]
pub(super) struct Moves {
    pending: Option<Pending>,
    pub numbers: VariationNumbers,
    /// NFKC of a word, and the input offset of each of its bytes.
    fold: Vec<u8>,
    fold_map: Vec<u32>,
}

/// Numbering inside kept variations: tracked loosely, only to tell White's
/// moves from Black's.
#[derive(Debug, Default)]
pub(super) struct VariationNumbers {
    number: u32,
    side: Option<Side>,
    /// (number, side) of each enclosing level.
    stack: Vec<(u32, Option<Side>)>,
}

impl VariationNumbers {
    /// A variation opens at `depth`, branching where the line's move
    /// `number` stands.
    pub fn enter(&mut self, depth: u32, number: u32) {
        if depth > 1 {
            self.stack.push((self.number, self.side));
        }
        self.number = number;
        self.side = None;
    }

    fn leave(&mut self) {
        if let Some((n, side)) = self.stack.pop() {
            self.number = n;
            self.side = side;
        }
    }
}

/// Comments kept: their text, as read and as handed on.
#[derive(Debug, Default)]
pub(super) struct Asides {
    /// The text of a kept comment that runs past a buffer's end.
    pub comment: Vec<u8>,
    /// Kept comments read among the tags, end to end, and where each ends.
    held: Vec<u8>,
    held_ends: Vec<usize>,
    scratch: Vec<u8>,
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

/// Is `b` a blank the span path reads (the tokenizer's own skip them too)?
#[inline(always)]
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

impl Reading<'_> {
    /// Tokens from `self.at` until the mode changes or `end`.
    pub(super) fn tokens(&mut self, h: Held<'_>, end: u64) -> io::Result<()> {
        let from = self.at;
        let text = h.slice(from, end);
        let mut i = 0;
        loop {
            if self.f.spans {
                if self.in_main_line() {
                    i = self.spans(h, text, from, i);
                } else if self.in_plain_tags() && from + i as u64 == self.places.line_start {
                    i = self.tag_lines(h, text, from, i);
                }
            }
            if i >= text.len() {
                break;
            }
            let mut lx = Token::lexer(&text[i..]);
            let Some(tok) = lx.next() else {
                // Blanks to the end.
                i = text.len();
                break;
            };
            let span = lx.span();
            let (start, stop) = (i + span.start, i + span.end);
            let at = from + start as u64;
            let rest = &text[start..];
            // A half-move waits for what annotates it; anything else (but
            // a blank the tokenizer leaves to `not_a_token`) hands it on.
            if self.moves.pending.is_some()
                && !tok.is_ok_and(Token::annotates)
                && blank_len(rest).is_none()
            {
                self.flush_pending(h);
            }
            let jump = match tok {
                Ok(Token::LineEnd) => {
                    self.places.new_line(at + 1);
                    None
                }
                Ok(tok) => {
                    let s = Span {
                        text: &rest[..stop - start],
                        at,
                        map: None,
                    };
                    self.token(h, tok, s)?
                }
                Err(()) => self.not_a_token(h, rest, at)?,
            };
            i = match jump {
                Some(to) => (to - from) as usize,
                None => stop,
            };
            if self.scan.mode != Mode::Tokens || self.io.stop.is_some() {
                break;
            }
        }
        self.at = from + i as u64;
        Ok(())
    }

    /// Among the tags of a game under way, which no pass but the writer
    /// wants: where the span path reads tag lines.
    #[inline(always)]
    fn in_plain_tags(&self) -> bool {
        self.game.open && !self.game.past_tags && !self.f.chain.wants_tags()
    }

    /// In a game's main line, past its tags and not ended: where the span
    /// path reads.
    #[inline(always)]
    fn in_main_line(&self) -> bool {
        self.game.past_tags && self.game.depth == 0 && self.game.open && !self.movetext.ended()
    }

    // ───────────────────────────── the span path ─────────────────────────────

    /// The span path from `text[i]`: blanks, line ends, `,`, move numbers
    /// in sequence and canonical moves, read as the tokenizer would read
    /// them; returns where it stopped, for the tokenizer to read one token
    /// there. When nothing but the writer wants a canonical move, its text
    /// goes to the writer as read, and a whole move line already canonical
    /// goes as one span.
    #[inline]
    fn spans(&mut self, h: Held<'_>, text: &[u8], from: u64, mut i: usize) -> usize {
        let bare = self.f.writer.takes_spans()
            && !self.f.chain.wants_move(Traits::default())
            && !self.f.chain.wants_main_line();
        let lines = bare && self.f.writer.takes_lines();
        if lines && from + i as u64 == self.places.line_start {
            i = self.move_lines(h, text, from, i);
            if self.movetext.ended() {
                return i;
            }
        }
        while let Some(&c) = text.get(i) {
            match c {
                b' ' | b'\t' | b'\r' => i += 1,
                // None of these annotates a move: the move waiting for its
                // annotations goes on, and may end the game, whose next
                // token is then the tokenizer's to read (it may start a
                // game).
                b'\n' | b',' | b'0'..=b'9' | b'A'..=b'Z' if self.moves.pending.is_some() => {
                    self.flush_pending(h);
                    if self.movetext.ended() {
                        return i;
                    }
                }
                b'\n' => {
                    i += 1;
                    self.places.new_line(from + i as u64);
                    if lines {
                        i = self.move_lines(h, text, from, i);
                        if self.movetext.ended() {
                            return i;
                        }
                    }
                }
                b',' if self.movetext.black_due() => i += 1,
                b'0'..=b'9' => {
                    // `N.`, the number that comes next, and not `N..`.
                    let Some((n, len)) = decimal_at(text, i, 9) else {
                        return i;
                    };
                    if text.get(i + len) != Some(&b'.')
                        || text.get(i + len + 1) == Some(&b'.')
                        || !self.movetext.takes_number(n)
                    {
                        return i;
                    }
                    self.span_number(n, from + i as u64);
                    i += len + 1;
                }
                b'A'..=b'Z' => {
                    let w = h.window(from + i as u64, from + text.len() as u64);
                    let Some((p, len)) = half_move::plain_move_in(&w, 0) else {
                        return i;
                    };
                    let canonical = p.traits == Traits::default();
                    // `:` may end the move; then nothing that annotates a
                    // move may follow it on its line, for the tokenizer
                    // would hold the move for that.
                    let end = text.get(i + len) == Some(&b':');
                    let after = i + len + usize::from(end);
                    if !plain_after(text, after) || !self.movetext.takes_half_move() {
                        return i;
                    }
                    let at = from + i as u64;
                    if bare && canonical {
                        let mate = p.check == Some(Check::Mate);
                        let (number, side) = self.span_move(at, end, mate);
                        if !self.f.cx.has_error() {
                            let unknown = self.movetext.unknown_number;
                            let word = &text[i..i + len];
                            self.f.writer.move_span(number, side, unknown, word, end);
                        }
                    } else {
                        let (number, side, _) = self.movetext.half_move();
                        let mut mv = HalfMove::new(number, side, p.action, p.check);
                        mv.unknown_number = self.movetext.unknown_number;
                        mv.end = end;
                        mv.pos = self.places.pos(at);
                        let text = Some((at, at + len as u64));
                        let traits = p.traits;
                        let respell = false;
                        self.pass_half_move(
                            h,
                            Pending {
                                mv,
                                traits,
                                text,
                                respell,
                            },
                        );
                    }
                    self.game.movetext_line = self.places.line;
                    i = after;
                    if self.movetext.ended() {
                        return i;
                    }
                }
                _ => return i,
            }
        }
        i
    }

    /// Whole move lines already canonical from `text[i]`, a line's start,
    /// as far as they go: `N. WHITE, BLACK`, the numbers in sequence;
    /// then, if it comes, the game's last line (`:` after its last move, or
    /// `#`) or White's move alone. They go to the writer as one span.
    /// Returns where they end.
    #[inline]
    fn move_lines(&mut self, h: Held<'_>, text: &[u8], from: u64, i: usize) -> usize {
        let mut j = i;
        loop {
            let (pairs, alone) = self.move_pairs(h, text, from, j);
            j = pairs;
            let Some((k, line)) = alone else {
                return j;
            };
            self.move_line_alone(h, text, from, k, &line);
            j = k + line.len;
            if self.movetext.ended() {
                return j;
            }
        }
    }

    /// The lines `N. WHITE, BLACK` of canonical moves, in sequence, from
    /// `text[i]`, as one span; returns where they end, and the move line
    /// that follows them if it is one to read alone.
    #[inline]
    fn move_pairs(
        &mut self,
        h: Held<'_>,
        text: &[u8],
        from: u64,
        i: usize,
    ) -> (usize, Option<(usize, MoveLine)>) {
        let mut j = i;
        // The pairs read: their count, the first's number, where the last
        // line and its Black move are.
        let (mut pairs, mut first, mut last, mut black) = (0, 0, i, i);
        let mut alone = None;
        let end = from + text.len() as u64;
        while let Some(line) = move_line_at(&h.window(from + j as u64, end)) {
            let in_sequence = if pairs == 0 {
                self.movetext.takes_pairs(line.number)
            } else {
                line.number == first + pairs
            };
            if !in_sequence {
                break;
            }
            match &line.black {
                Some(b) if !line.marked && !line.mates() && line.canonical() => {
                    if pairs == 0 {
                        first = line.number;
                    }
                    pairs += 1;
                    (last, black) = (j, j + b.at);
                    j += line.len;
                }
                _ => {
                    alone = Some((j, line));
                    break;
                }
            }
        }
        let at = |k: usize| from + k as u64;
        if pairs > 0 {
            self.movetext.pairs(first, pairs);
            let line = self.places.line + u64::from(pairs) - 1;
            let m = &mut self.game.marks;
            m.last_number = Pos {
                line,
                offset: at(last),
            };
            m.last_move = Pos {
                line,
                offset: at(black),
            };
            self.game.counts.half_moves += 2 * u64::from(pairs);
            self.game.movetext_line = line;
            if !self.f.cx.has_error() {
                self.f.writer.move_lines(&text[i..j], None);
            }
            self.places.line = line + 1;
            self.places.line_start = at(j);
        }
        (j, alone)
    }

    /// A move line read alone: the game's last, White's move alone, or one
    /// with a move whose separator is a Unicode dash or `×`. Each move is
    /// read as on the span path and goes to the passes that want it; the
    /// line goes to the writer whole when they changed no more than
    /// separators (respelled in the line), else move by move.
    fn move_line_alone(&mut self, h: Held<'_>, text: &[u8], from: u64, k: usize, line: &MoveLine) {
        let at = |i: usize| from + i as u64;
        self.span_number(line.number, at(k));
        let moves = [Some(&line.white), line.black.as_ref()];
        let mut read: [Option<Pending>; 2] = [None, None];
        let mut whole = true;
        for (slot, m) in read.iter_mut().zip(moves) {
            let Some(m) = m else {
                continue;
            };
            let last = std::ptr::eq(m, line.black.as_ref().unwrap_or(&line.white));
            let end = line.marked && last;
            let (number, side, _) = self.movetext.half_move();
            let pos = self.places.pos(at(k + m.at));
            let p = &m.parsed;
            self.main_line_move_read(side, pos, end, p.check == Some(Check::Mate));
            let mut mv = HalfMove::new(number, side, p.action, p.check);
            mv.unknown_number = self.movetext.unknown_number;
            mv.end = end;
            mv.pos = pos;
            let text = Some((pos.offset, pos.offset + m.len as u64));
            let mut p = Pending {
                mv,
                traits: p.traits,
                text,
                respell: false,
            };
            if self.f.chain.wants_move(p.traits) && self.chain_half_move(h, &mut p) == Flow::Drop {
                whole = false;
                continue;
            }
            whole &= p.text.is_some();
            *slot = Some(p);
        }
        self.game.movetext_line = self.places.line;
        if !self.f.cx.has_error() {
            let open =
                (line.black.is_none() && !line.marked && !line.mates()).then_some(line.number);
            // The line end goes with a closed line only.
            let end = k + line.len - usize::from(open.is_some());
            if whole {
                // The line as read, each separator as its move now has it.
                let mut t = Text::default();
                let mut i = k;
                for p in read.iter().flatten() {
                    let (a, b) = p
                        .text
                        .map(|(a, b)| ((a - from) as usize, (b - from) as usize))
                        .unwrap_or((i, i));
                    t.push_slice(&text[i..a]);
                    match p.mv.action.separator().filter(|_| p.respell) {
                        Some(sep) => t.respelled(&text[a..b], sep),
                        None => t.push_slice(&text[a..b]),
                    }
                    i = b;
                }
                t.push_slice(&text[i..end]);
                self.f.writer.move_lines(t.as_bytes(), open);
            } else {
                for p in read.iter().flatten() {
                    self.write_half_move(h, p);
                }
            }
        }
        self.places.new_line(at(k + line.len));
    }

    /// A move number `n.` at `at`, in sequence, read on the span path.
    #[inline]
    fn span_number(&mut self, n: u32, at: u64) {
        self.movetext.number(n, false);
        self.game.marks.last_number = self.places.pos(at);
        self.game.movetext_line = self.places.line;
    }

    /// A canonical half-move at `at`, read on the span path and going to
    /// the writer as read (`end`: `:` follows it): its number and side.
    #[inline]
    fn span_move(&mut self, at: u64, end: bool, mate: bool) -> (u32, Side) {
        let (number, side, _) = self.movetext.half_move();
        self.main_line_move_read(side, self.places.pos(at), end, mate);
        (number, side)
    }

    /// A main-line half-move by `side` at `pos` is read: whether it ends
    /// the game (`:`) or mates.
    #[inline(always)]
    fn main_line_move_read(&mut self, side: Side, pos: Pos, end: bool, mate: bool) {
        self.movetext.move_ends(end, mate.then_some(side));
        self.game.marks.last_move = pos;
        self.game.counts.half_moves += 1;
    }

    // ───────────────────────────── the tokenizer's tokens ─────────────────────────────

    /// Bytes no token starts with: a blank the tokenizer leaves here, a
    /// full-width word to fold, or an error. Returns where reading goes on,
    /// if not after the tokenizer's error span.
    #[cold]
    #[inline(never)]
    fn not_a_token(&mut self, h: Held<'_>, rest: &[u8], at: u64) -> io::Result<Option<u64>> {
        if let Some(n) = blank_len(rest) {
            return Ok(Some(at + n as u64));
        }
        // A character NFKC folds (a full-width letter or digit, say)
        // starts a word to fold: its valid UTF-8 up to a blank or a byte
        // that opens or closes something, looked at only then, once.
        if first_char(rest).is_some_and(|c| !std::iter::once(c).nfkc().eq(std::iter::once(c))) {
            let len = fold_word_len(rest);
            let len = match std::str::from_utf8(&rest[..len]) {
                Ok(_) => len,
                Err(e) => e.valid_up_to(),
            };
            self.fold_word(&rest[..len]);
            return self.folded_tokens(h, at, len).map(Some);
        }
        self.unexpected(h, rest, at)?;
        Ok(None)
    }

    /// NFKC-folds `word`, valid UTF-8, into `self.moves.fold`, with the
    /// input offset of each of its bytes.
    fn fold_word(&mut self, word: &[u8]) {
        let s = std::str::from_utf8(word).unwrap_or_default();
        let m = &mut self.moves;
        m.fold.clear();
        m.fold_map.clear();
        let mut buf = [0u8; 4];
        for (i, ch) in s.char_indices() {
            for n in std::iter::once(ch).nfkc() {
                let e = n.encode_utf8(&mut buf);
                m.fold.extend_from_slice(e.as_bytes());
                m.fold_map.extend(std::iter::repeat_n(i as u32, e.len()));
            }
        }
    }

    /// Reads the tokens of the folded word at `at`, `len` bytes long;
    /// returns where reading goes on.
    fn folded_tokens(&mut self, h: Held<'_>, at: u64, len: usize) -> io::Result<u64> {
        let fold = std::mem::take(&mut self.moves.fold);
        let map = std::mem::take(&mut self.moves.fold_map);
        let mut next = at + len as u64;
        let mut i = 0;
        while i < fold.len() {
            let mut lx = Token::lexer(&fold[i..]);
            let Some(tok) = lx.next() else {
                break;
            };
            let span = lx.span();
            let (start, stop) = (i + span.start, i + span.end);
            let s = Span {
                text: &fold[start..stop],
                at: at + u64::from(map[start]),
                map: Some((at, &map[start..])),
            };
            let rest = &fold[start..];
            if self.moves.pending.is_some()
                && !tok.is_ok_and(Token::annotates)
                && blank_len(rest).is_none()
            {
                self.flush_pending(h);
            }
            i = match tok {
                Ok(tok) => {
                    self.token(h, tok, s)?;
                    stop
                }
                Err(()) => match blank_len(rest) {
                    Some(n) => start + n,
                    None => {
                        self.unexpected(h, rest, s.at)?;
                        stop
                    }
                },
            };
            if self.scan.mode != Mode::Tokens || self.io.stop.is_some() {
                next = match map.get(i) {
                    Some(&o) => at + u64::from(o),
                    None => at + len as u64,
                };
                break;
            }
        }
        self.moves.fold = fold;
        self.moves.fold_map = map;
        Ok(next)
    }

    #[cold]
    #[inline(never)]
    fn unexpected(&mut self, h: Held<'_>, rest: &[u8], at: u64) -> io::Result<()> {
        if !self.game_at(h, Opens::Movetext, at)? {
            return Ok(());
        }
        self.leave_tags(h);
        if self.f.cx.has_error() {
            // Only the game's first error is kept: no need to make another.
            return Ok(());
        }
        if rest.first() == Some(&b'[') && h.holds(at) {
            // A tag that is not well formed: say what is wrong, where.
            let (off, message) = token::tag_fault(h.from(at), at);
            self.error_at(h, at + off as u64, message);
            return Ok(());
        }
        // A number or word the tokenizer could not read for invalid UTF-8
        // inside it (`12\xFF.`): the invalid byte is the fault.
        let token = rest
            .iter()
            .position(|c| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let bad = (!self.scan.utf8
            && token > 0
            && token < rest.len()
            && first_char(&rest[token..]).is_none())
        .then_some(token);
        let (at, message): (u64, Message) = match (bad, first_char(rest)) {
            (Some(k), _) => {
                let bad = at + k as u64;
                (bad, invalid_utf8(h, bad))
            }
            (_, None) => (at, invalid_utf8(h, at)),
            (_, Some('\0')) => (at, "NUL byte in the input".into()),
            (_, Some(c)) if c.is_control() => {
                (at, format!("control character U+{:04X}", c as u32).into())
            }
            (_, Some(';')) => (at, standard_chess::semicolon()),
            (_, Some(c)) => (at, format!("unexpected character '{c}'").into()),
        };
        self.error_at(h, at, message);
        Ok(())
    }

    /// A token read by the tokenizer; returns where reading goes on, if
    /// not after it.
    fn token(&mut self, h: Held<'_>, tok: Token, s: Span<'_>) -> io::Result<Option<u64>> {
        let annotation = tok.annotates();
        if !annotation {
            self.flush_pending(h);
        }
        if tok == Token::LineEnd {
            // Only from folded text, which holds no line end.
            return Ok(None);
        }
        if tok == Token::CommentOpen {
            if self.game_at(h, Opens::Aside, s.at)? {
                self.open_comment(s.at);
            }
            return Ok(None);
        }
        if self.game.depth > 0 {
            return self.variation_token(h, tok, s).map(|()| None);
        }
        let mut jump = None;
        match tok {
            Token::Tag => return self.tag(h, s).map(|()| None),
            Token::Result | Token::Unfinished | Token::PgnDraw => {
                if !self.game_at(h, Opens::Result, s.at)? {
                    return Ok(None);
                }
                self.leave_tags(h);
                self.result(h, tok, s);
            }
            // A variation after the end marker still belongs to the game.
            Token::VariationOpen => self.open_variation(h, s.at, None)?,
            Token::LabeledVariationOpen => self.labeled_variation(h, s)?,
            _ if annotation && self.moves.pending.is_some() => self.annotation(h, tok, s),
            _ => {
                if !self.game_at(h, Opens::Movetext, s.at)? {
                    return Ok(None);
                }
                self.leave_tags(h);
                jump = self.movetext_token(h, tok, s);
            }
        }
        self.game.movetext_line = self.places.line;
        Ok(jump)
    }

    /// A variation opening with its label `$[n]`: an error when the label
    /// is too large.
    fn labeled_variation(&mut self, h: Held<'_>, s: Span<'_>) -> io::Result<()> {
        if let Some(label) = label_value(s.text) {
            return self.open_variation(h, s.at, Some(label));
        }
        if self.game_at(h, Opens::Aside, s.at)? {
            let i = memchr::memchr(b'$', s.text).unwrap_or(0);
            let message = format!(
                "variation label {} is too large (at most $[{}])",
                String::from_utf8_lossy(&s.text[i..]),
                token::MAX_LABEL
            );
            self.error_at(h, s.offset(i), message);
            // Still a variation: its `)` closes it.
            self.open_variation(h, s.at, None)?;
        }
        Ok(())
    }

    /// A movetext token on the main line, but a result, a variation's
    /// opening, or an annotation of the half-move before it.
    fn movetext_token(&mut self, h: Held<'_>, tok: Token, s: Span<'_>) -> Option<u64> {
        match tok {
            Token::Number | Token::UnknownNumber => self.move_number(h, tok, s),
            Token::Dots if s.text.len() == 3 && self.movetext.white_due() => self.ellipsis(h, s),
            Token::Ellipsis => self.ellipsis(h, s),
            // Leading dots belong inside variations; elsewhere they are
            // read past.
            Token::Dots => {}
            Token::Comma => {
                if !self.movetext.black_due() {
                    self.error_at(
                        h,
                        s.at,
                        "unexpected , : it separates White's move from Black's",
                    );
                }
            }
            Token::Word => return self.movetext_word(h, s),
            Token::Rating | Token::Nag | Token::DrawOffer | Token::EndMarker => {
                self.annotation(h, tok, s)
            }
            Token::PgnNumber => {
                let n = number_value(s.text);
                self.error_at(
                    h,
                    s.at,
                    format!(
                        "{n}... is PGN numbering: CTL-PGN writes Black's move as {n}. ..., MOVE"
                    ),
                );
            }
            Token::Label => self.error_at(h, s.at, "a variation label $[n] goes right after the ("),
            Token::VariationClose => self.error_at(h, s.at, ") closes no variation"),
            Token::CommentClose => self.error_at(h, s.at, "} closes no comment"),
            Token::LineEnd
            | Token::Tag
            | Token::CommentOpen
            | Token::VariationOpen
            | Token::LabeledVariationOpen
            | Token::Result
            | Token::Unfinished
            | Token::PgnDraw => unreachable!("read by token()"),
        }
        None
    }

    /// A token inside a kept variation.
    fn variation_token(&mut self, h: Held<'_>, tok: Token, s: Span<'_>) -> io::Result<()> {
        match tok {
            Token::Tag if s.at == self.first_token_of_line(h) => {
                // A tag line: the variation was never closed, and the game
                // ends here.
                self.variation_not_closed(h);
                self.tag(h, s)?;
            }
            Token::Number | Token::UnknownNumber => {
                let n = &mut self.moves.numbers;
                n.number = number_value(s.text);
                n.side = Some(Side::White);
            }
            Token::Dots if s.text.len() == 3 => self.moves.numbers.side = Some(Side::Black),
            Token::Ellipsis => self.moves.numbers.side = Some(Side::Black),
            Token::Dots | Token::Comma => {}
            Token::Word => {
                let n = &self.moves.numbers;
                let side = n.side.unwrap_or(Side::White);
                let number = n.number;
                self.half_move(h, s, number, side);
                let n = &mut self.moves.numbers;
                n.number = side.next_number(number);
                n.side = Some(side.other());
            }
            Token::Rating | Token::Nag | Token::DrawOffer | Token::EndMarker => {
                self.annotation(h, tok, s)
            }
            Token::VariationOpen => self.open_variation(h, s.at, None)?,
            Token::LabeledVariationOpen => self.labeled_variation(h, s)?,
            Token::VariationClose => {
                let depth = self.game.depth;
                self.f.cx.depth = depth;
                if self.f.chain.variation(Variation::Close, &mut self.f.cx) == Flow::Keep {
                    self.f.writer.variation(Variation::Close, depth);
                }
                self.place(h);
                self.game.depth -= 1;
                self.moves.numbers.leave();
            }
            _ => {
                let what = String::from_utf8_lossy(s.text).into_owned();
                self.error_at(
                    h,
                    s.at,
                    format!("{what} inside a variation: is a ) missing?"),
                );
            }
        }
        Ok(())
    }

    /// The stream offset of the current line's first byte after blanks.
    fn first_token_of_line(&self, h: Held<'_>) -> u64 {
        let line = h.from(self.places.line_start);
        self.places.line_start + blanks_len(line) as u64
    }

    // ───────────────────────────── tags ─────────────────────────────

    #[cold]
    #[inline(never)]
    fn tag(&mut self, h: Held<'_>, s: Span<'_>) -> io::Result<()> {
        let (name, raw) = tag_parts(s.text);
        let ended = self.movetext.ended();
        let amid_moves =
            self.game.movetext_line == self.places.line && self.movetext.has_moves && !ended;
        if self.game.open && amid_moves && name == b"Redefine" {
            // A Redefine after moves on their own line is misplaced, not a new game.
            self.error_at(
                h,
                s.at,
                "a Redefine tag must come before the movetext it applies to (with the other tags)",
            );
            return Ok(());
        }
        if !self.game_at(h, Opens::Tag, s.at)? {
            return Ok(());
        }
        self.game.has_tags = true;
        let pos = self.places.pos(s.at);
        // The tag's regular expression takes only ASCII in a name.
        let name = ascii_text(name);
        let value_at = s.at + (raw.as_ptr() as usize - s.text.as_ptr() as usize) as u64;
        let raw = match self.text_of(raw) {
            Ok(v) => v,
            Err(e) => {
                let bad = value_at + e.valid_up_to() as u64;
                self.error_at(h, bad, invalid_utf8(h, bad));
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
            self.warn_fixed_at(h, pos, problem, "read as Variant");
            "Variant"
        } else {
            name
        };
        match name {
            "Variant" => {
                self.game.has_variant = true;
                self.variant(h, value, value_at);
            }
            "Redefine" => {
                if let Err(e) = self.f.cx.redefine.merge(value) {
                    self.error_at(h, value_at, e.to_string());
                }
            }
            "Result" => {
                self.game.marks.result_tag = Outcome::parse(value).map(|o| (o, pos));
            }
            "PDTL" | "DPTL" => return self.setup(h, name, raw, value, pos, value_at),
            _ => {}
        }
        let tag = Tag { name, value, pos };
        let meaningful = is_meaningful_tag(name.as_bytes());
        if self.f.chain.tag(&tag, meaningful, &mut self.f.cx) == Flow::Keep {
            self.f.writer.tag(&tag);
        }
        self.place(h);
        Ok(())
    }

    /// `bytes` of the region being read as text: checked once with the
    /// region, else here.
    #[inline]
    fn text_of<'b>(&self, bytes: &'b [u8]) -> Result<&'b str, simdutf8::compat::Utf8Error> {
        if self.scan.utf8 {
            // SAFETY: the region was checked UTF-8 as a whole, and a tag
            // token starts and ends on ASCII bytes.
            return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
        }
        simdutf8::compat::from_utf8(bytes)
    }

    /// Tag lines `[Name "value"]` from `text[i]`, a line's start, among
    /// the tags of a game under way, as far as they are as the writer
    /// writes them and carry no meaning to the reader: when no pass wants
    /// them, they go to the writer as read. Returns where they end.
    #[inline]
    fn tag_lines(&mut self, h: Held<'_>, text: &[u8], from: u64, mut i: usize) -> usize {
        while let Some(t) = plain_tag_line(h, text, from, i, self.scan.utf8) {
            self.game.has_tags = true;
            let tag = Tag {
                // Checked ASCII, and the value UTF-8 with its region.
                name: ascii_text(&text[t.name.clone()]),
                value: self.text_of(&text[t.value.clone()]).unwrap_or_default(),
                pos: self.places.pos(from + i as u64),
            };
            self.f.writer.tag_line(&tag, &text[i..t.end]);
            i = t.end;
            self.places.new_line(from + i as u64);
        }
        i
    }

    /// The PDTL tag (`name`, maybe misspelled `DPTL`) at `pos`, its value
    /// `value` (`raw` as written) at `value_at`.
    fn setup(
        &mut self,
        h: Held<'_>,
        name: &str,
        raw: &str,
        value: &str,
        pos: Pos,
        value_at: u64,
    ) -> io::Result<()> {
        if name == "DPTL" {
            let fix = "read as PDTL (the usual misspelling)";
            self.warn_fixed_at(h, pos, "tag DPTL", fix);
        }
        if self.game.has_setup {
            self.error_at_pos(h, pos, "a game has one PDTL tag");
            return Ok(());
        }
        self.game.has_setup = true;
        match Pdtl::parse_with_warnings(value) {
            Ok((mut pdtl, normalised)) => {
                for w in normalised {
                    let at = value_at + byte_in_value(raw, value, w.offset) as u64;
                    let at = self.places.pos(at);
                    self.warn_fixed_at(h, at, format_args!("PDTL: {}", w.message), &w.fix);
                }
                pdtl.pos = pos;
                self.f.chain.setup(&mut pdtl, &mut self.f.cx);
                self.f.writer.setup(&pdtl);
            }
            Err(e) => {
                let at = value_at + byte_in_value(raw, value, e.offset) as u64;
                self.error_at(h, at, e.to_string());
            }
        }
        self.place(h);
        Ok(())
    }

    /// The Variant tag's value, at stream offset `at`: C'escacs, or
    /// unambiguously meant to be (a typographic apostrophe, another case).
    fn variant(&mut self, h: Held<'_>, value: &str, at: u64) {
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
            return self.error_at(h, at, message);
        };
        let problem = format_args!("Variant \"{value}\" {problem}");
        let pos = self.places.pos(at);
        self.warn_fixed_at(h, pos, problem, "read as C'escacs");
    }

    // ───────────────────────────── movetext ─────────────────────────────

    /// A move number `n.` or `n?`.
    fn move_number(&mut self, h: Held<'_>, tok: Token, s: Span<'_>) {
        let n = number_value(s.text);
        if let Some(f) = self.movetext.number(n, tok == Token::UnknownNumber) {
            self.error_at(h, s.at, f.message(s.text));
        }
        self.game.marks.last_number = self.places.pos(s.at);
    }

    fn ellipsis(&mut self, h: Held<'_>, s: Span<'_>) {
        if let Some(f) = self.movetext.ellipsis() {
            self.error_at(h, s.at, f.message(b""));
        }
        self.game.marks.last_number = self.places.pos(s.at);
    }

    /// A word of the game's own movetext: the half-move its numbering makes
    /// it. Returns where reading goes on, if past the word.
    fn movetext_word(&mut self, h: Held<'_>, s: Span<'_>) -> Option<u64> {
        let (number, side, fault) = self.movetext.half_move();
        if let Some(f) = fault {
            self.error_at(h, s.at, f.message(b""));
        }
        self.half_move(h, s, number, side)
    }

    /// A half-move's word: parsed, and held until its annotations are
    /// read. Returns where reading goes on, if past the word (a move with
    /// blanks around its dash).
    fn half_move(&mut self, h: Held<'_>, s: Span<'_>, number: u32, side: Side) -> Option<u64> {
        match half_move::parse(s.text) {
            Ok(p) => {
                let mut traits = p.traits;
                if self.game.depth > 0 {
                    traits |= Traits::IN_VARIATION;
                }
                let text = (s.map.is_none() && !traits.intersects(Traits::RESPELLED))
                    .then(|| (s.at, s.at + s.text.len() as u64));
                let mut mv = HalfMove::new(number, side, p.action, p.check);
                mv.unknown_number = self.movetext.unknown_number && self.game.depth == 0;
                mv.pos = self.places.pos(s.offset(0));
                self.moves.pending = Some(Pending {
                    mv,
                    traits,
                    text,
                    respell: false,
                });
                None
            }
            Err(e) => self.not_a_half_move(h, s, e, number, side),
        }
    }

    #[cold]
    fn not_a_half_move(
        &mut self,
        h: Held<'_>,
        s: Span<'_>,
        e: half_move::Fault,
        number: u32,
        side: Side,
    ) -> Option<u64> {
        // What follows the word on its line (nothing known, for a folded word).
        let next = s.at + s.text.len() as u64;
        let line_rest = if s.map.is_none() {
            // Enough for a separator and a destination between blanks, or
            // the rest of a standard-chess move.
            h.line_rest(next, 256)
        } else {
            &[]
        };
        if s.map.is_none() && e.offset == s.text.len() {
            if let Some(jump) = self.spaced_move(h, s, line_rest, number, side) {
                return Some(jump);
            }
        }
        if let Some(message) = standard_chess::move_message(s.text, line_rest) {
            self.error_at(h, s.at, message);
            return None;
        }
        // A word cut short by invalid UTF-8: that is what to say.
        if !self.scan.utf8
            && s.map.is_none()
            && h.end() > next
            && first_char(h.from(next)).is_none()
        {
            self.error_at(h, next, invalid_utf8(h, next));
            return None;
        }
        let at = s.offset(e.offset);
        self.error_at(h, at, e.message(s.text));
        None
    }

    /// `E7 - E13`, `E7- E13`, `JE5 × F16`: a move with blanks around its
    /// dash or `×`, read as one word (with a warning) when the word `s`
    /// ends where its separator or destination is due; `rest` is what
    /// follows it on its line. Returns where reading goes on, after the
    /// move.
    fn spaced_move(
        &mut self,
        h: Held<'_>,
        s: Span<'_>,
        rest: &[u8],
        number: u32,
        side: Side,
    ) -> Option<u64> {
        let next = s.at + s.text.len() as u64;
        let mut i = blanks_len(rest);
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
            let n = separator_at(rest, i)?;
            let d = (i, n);
            i += n;
            i += blanks_len(&rest[i..]);
            Some(d)
        };
        // The destination: the word the tokenizer reads there.
        let word = word_len(&rest[i..]);
        if i == 0 || word == 0 {
            return None;
        }
        let m = &mut self.moves;
        let mut fold = std::mem::take(&mut m.fold);
        let mut map = std::mem::take(&mut m.fold_map);
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
            let pos = self.places.pos(next);
            self.warn_fixed_at(
                h,
                pos,
                "blanks inside a move",
                format_args!("read as {written}"),
            );
            let span = Span {
                text: &fold,
                at: s.at,
                map: Some((s.at, &map)),
            };
            self.half_move(h, span, number, side);
        }
        self.moves.fold = fold;
        self.moves.fold_map = map;
        joined.then(|| next + (i + word) as u64)
    }

    fn annotation(&mut self, h: Held<'_>, tok: Token, s: Span<'_>) {
        let Some(p) = self.moves.pending.as_mut() else {
            let what = match tok {
                Token::Rating => "a rating",
                Token::Nag => "a NAG",
                Token::DrawOffer => "(=)",
                _ => ":",
            };
            self.error_at(
                h,
                s.at,
                format!("{what} must follow a move on the same line"),
            );
            return;
        };
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
            self.error_at(h, s.at, p);
        }
    }

    /// Hands the half-move read last, if any, to the chain and the writer.
    #[inline]
    pub(super) fn flush_pending(&mut self, h: Held<'_>) {
        if let Some(p) = self.moves.pending.take() {
            self.pass_half_move(h, p);
        }
    }

    #[inline]
    fn pass_half_move(&mut self, h: Held<'_>, mut p: Pending) {
        let depth = self.game.depth;
        if depth == 0 {
            let mate = p.mv.check == Some(Check::Mate);
            self.main_line_move_read(p.mv.side, p.mv.pos, p.mv.end, mate);
        }
        if self.f.chain.wants_move(p.traits) && self.chain_half_move(h, &mut p) == Flow::Drop {
            return;
        }
        if self.f.cx.has_error() {
            return;
        }
        self.write_half_move(h, &p);
    }

    /// Hands a half-move read, and through the passes, to the writer (and
    /// a main-line one to the select slot).
    #[inline]
    fn write_half_move(&mut self, h: Held<'_>, p: &Pending) {
        self.f.chain.main_line_move(&p.mv, self.game.depth);
        let mut t = Text::default();
        let text = p.text.map(|(from, to)| match p.mv.action.separator() {
            Some(sep) if p.respell => {
                t.respelled(h.slice(from, to), sep);
                t.as_bytes()
            }
            _ => h.slice(from, to),
        });
        self.f.writer.half_move(&p.mv, self.game.depth, text);
    }

    /// The chain's part of [`Reading::pass_half_move`], for the half-moves
    /// a pass wants.
    #[inline(never)]
    fn chain_half_move(&mut self, h: Held<'_>, p: &mut Pending) -> Flow {
        let ratings = |mv: &HalfMove| u64::from(mv.rating.is_some()) + u64::from(mv.nag_count);
        let (action, check, rated) = (p.mv.action, p.mv.check, ratings(&p.mv));
        self.f.cx.depth = self.game.depth;
        let flow = self.f.chain.half_move(&mut p.mv, p.traits, &mut self.f.cx);
        self.game.counts.ratings_dropped += rated - ratings(&p.mv);
        // The text as read is the move's as long as no pass changed it, or
        // only its separator.
        if p.mv.action != action || p.mv.check != check {
            if p.mv.check == check && p.mv.action.same_but_separator(&action) {
                p.respell = true;
            } else {
                p.text = None;
            }
        }
        self.place(h);
        flow
    }

    #[cold]
    #[inline(never)]
    fn result(&mut self, h: Held<'_>, tok: Token, s: Span<'_>) {
        let text = String::from_utf8_lossy(s.text);
        let outcome = match tok {
            Token::PgnDraw => {
                let message = standard_chess::result_message(s.text);
                self.error_at(h, s.at, message);
                Outcome::Draw
            }
            _ => match Outcome::parse(&text) {
                Some(o) => o,
                None => {
                    let message = standard_chess::result_message(s.text);
                    self.error_at(h, s.at, message);
                    Outcome::Unfinished
                }
            },
        };
        self.movetext.result = Some(outcome);
    }

    // ───────────────────────────── comments ─────────────────────────────

    pub(super) fn deliver_comment(&mut self, h: Held<'_>, text: &[u8]) {
        if !self.game.past_tags && self.game.depth == 0 {
            // Among the tags, a Redefine may still come that the comment's
            // `~X` references need: hold it until the tags end.
            let a = &mut self.asides;
            push_lines(&mut a.held, text);
            a.held_ends.push(a.held.len());
            return;
        }
        self.pass_comment(h, text);
    }

    fn pass_comment(&mut self, h: Held<'_>, text: &[u8]) {
        let mut scratch = std::mem::take(&mut self.asides.scratch);
        scratch.clear();
        push_lines(&mut scratch, text);
        self.f.cx.depth = self.game.depth;
        if self.f.chain.comment(&mut scratch, &mut self.f.cx) == Flow::Keep {
            let after = self.movetext.result.is_some();
            self.f.writer.comment(&scratch, self.game.depth, after);
        } else {
            self.game.counts.comments_dropped += 1;
        }
        self.place(h);
        self.asides.scratch = scratch;
    }

    /// The comments held among the tags go on, now that the tags are over.
    pub(super) fn release_held_comments(&mut self, h: Held<'_>) {
        if self.asides.held_ends.is_empty() {
            return;
        }
        let text = std::mem::take(&mut self.asides.held);
        let ends = std::mem::take(&mut self.asides.held_ends);
        let mut from = 0;
        for &to in &ends {
            self.pass_comment(h, &text[from..to]);
            from = to;
        }
        let a = &mut self.asides;
        a.held = text;
        a.held.clear();
        a.held_ends = ends;
        a.held_ends.clear();
    }
}

/// A tag's name as text: ASCII letters, digits and `_`, as the tag's
/// regular expression and [`plain_tag_line`] take them.
#[inline]
fn ascii_text(name: &[u8]) -> &str {
    debug_assert!(name.is_ascii());
    // SAFETY: ASCII is UTF-8 (checking it again costs more than the tag).
    unsafe { std::str::from_utf8_unchecked(name) }
}

/// Do tags of this name carry meaning to the reader (the PDTL aside,
/// which is read as a position)? They reach every pass.
fn is_meaningful_tag(name: &[u8]) -> bool {
    matches!(name, b"Redefine" | b"Result" | b"PDTL" | b"DPTL")
        || name.eq_ignore_ascii_case(b"Variant")
}

/// Where the name and value of a tag line are, and where the line ends
/// (after its line end).
struct TagLine {
    name: std::ops::Range<usize>,
    value: std::ops::Range<usize>,
    end: usize,
}

/// The tag line at `text[i..]`, a line's start, if it is written as the
/// writer writes tags (`[Name "value"]` with one space, no escape, then
/// the line end), its value NFC (ASCII, or valid UTF-8 when `utf8`), and
/// its name of no meaning to the reader. The quotes come from the index.
#[inline]
fn plain_tag_line(h: Held<'_>, text: &[u8], from: u64, i: usize, utf8: bool) -> Option<TagLine> {
    use super::index::Classes;
    if text.get(i) != Some(&b'[') {
        return None;
    }
    let name_end = i
        + 1
        + text[i + 1..]
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))?;
    if name_end == i + 1 || text.get(name_end..name_end + 2) != Some(b" \"") {
        return None;
    }
    let value = name_end + 2;
    let at = |k: usize| from + k as u64;
    let close = (h
        .index
        .find(Classes::QUOTE.or(Classes::LF), at(value), h.index.end())?
        - from) as usize;
    if text.get(close..close + 3) != Some(b"\"]\n") {
        return None;
    }
    let v = &text[value..close];
    // (Values are short: a loop, not a vectorised search, is the quicker.)
    if v.contains(&b'\\') || is_meaningful_tag(&text[i + 1..name_end]) {
        return None;
    }
    if h.index
        .find(Classes::NON_ASCII, at(value), at(close))
        .is_some()
    {
        let s = std::str::from_utf8(v).ok().filter(|_| utf8)?;
        if unicode_normalization::is_nfc_quick(s.chars())
            != unicode_normalization::IsNormalized::Yes
        {
            return None;
        }
    }
    Some(TagLine {
        name: i + 1..name_end,
        value: value..close,
        end: close + 3,
    })
}

/// A move line already canonical, as the writer writes one: `N. WHITE,
/// BLACK` or `N. WHITE`, `:` after the last move if it ends the game, the
/// moves canonical, then the line end.
struct MoveLine {
    number: u32,
    white: LineMove,
    black: Option<LineMove>,
    /// Its last move is marked `:`.
    marked: bool,
    /// Its length, line end included.
    len: usize,
}

/// A plain move in a move line: where it starts in the line, its length,
/// how it reads.
struct LineMove {
    at: usize,
    len: usize,
    parsed: half_move::Parsed,
}

impl MoveLine {
    /// Its last move mates.
    fn mates(&self) -> bool {
        let last = self.black.as_ref().unwrap_or(&self.white);
        last.parsed.check == Some(Check::Mate)
    }

    /// Its moves are canonical (none with a Unicode separator).
    fn canonical(&self) -> bool {
        self.white.parsed.traits == Traits::default()
            && self
                .black
                .as_ref()
                .is_none_or(|b| b.parsed.traits == Traits::default())
    }
}

/// The move line that the window starts with, if it is one. Its moves
/// are plain moves: canonical, or with a Unicode dash or `×`.
#[inline(always)]
fn move_line_at(w: &Window<'_>) -> Option<MoveLine> {
    let mut number = 0u32;
    let mut j = 0;
    // A number without a leading zero, of at most 5 digits, `. `.
    while let d @ b'0'..=b'9' = w.byte(j) {
        if j == 5 || (j == 0 && d == b'0') {
            return None;
        }
        number = number * 10 + u32::from(d - b'0');
        j += 1;
    }
    if j == 0 || w.byte(j) != b'.' || w.byte(j + 1) != b' ' {
        return None;
    }
    let at = j + 2;
    let (parsed, len) = half_move::plain_move_in(w, at)?;
    let white = LineMove { at, len, parsed };
    j = at + len;
    let mut black = None;
    if white.parsed.check != Some(Check::Mate) && w.byte(j) == b',' && w.byte(j + 1) == b' ' {
        let at = j + 2;
        let (parsed, len) = half_move::plain_move_in(w, at)?;
        black = Some(LineMove { at, len, parsed });
        j = at + len;
    }
    let marked = w.byte(j) == b':';
    j += usize::from(marked);
    (w.byte(j) == b'\n' && j < w.len).then_some(MoveLine {
        number,
        white,
        black,
        marked,
        len: j + 1,
    })
}

/// Can a move read on the span path end at `text[i]`: nothing that
/// annotates a move follows it on its line (a rating, a NAG, `(=)`, `:`)?
#[inline(always)]
fn plain_after(text: &[u8], mut i: usize) -> bool {
    loop {
        match text.get(i) {
            None | Some(b'\n' | b',') => return true,
            Some(&c) if is_blank(c) => i += 1,
            // A move number, a move, a result.
            Some(c) => return c.is_ascii_alphanumeric(),
        }
    }
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

/// The length of the blanks `b` starts with: ASCII ones and those of
/// [`blank_len`], a no-break space being a blank wherever a space is.
fn blanks_len(b: &[u8]) -> usize {
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' => i += 1,
            _ => match blank_len(&b[i..]) {
                Some(n) => i += n,
                None => break,
            },
        }
    }
    i
}

/// The length of the `Word` token `b` starts with, 0 if none.
fn word_len(b: &[u8]) -> usize {
    let mut lx = Token::lexer(b);
    match lx.next() {
        Some(Ok(Token::Word)) if lx.span().start == 0 => lx.span().end,
        _ => 0,
    }
}

/// The length of the word to fold that `b` starts with: up to a blank, a
/// line end, or a byte that opens or closes something (`[`, `{`, `(`...),
/// which the tokenizer reads after the word whatever the word holds.
fn fold_word_len(b: &[u8]) -> usize {
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\r' | b'\n' | b'{' | b'}' | b'[' | b'(' | b')' => break,
            _ if blank_len(&b[i..]).is_some() => break,
            _ => i += 1,
        }
    }
    i
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

#[cfg(test)]
mod probe {
    #[test]
    #[ignore]
    fn probe_move_line_cost() {
        let text = b"12. K14*EP15, GT22-H12\n13. E7-E13, NE3-G13\n".repeat(1000);
        let mut n = 0usize;
        for _ in 0..10 {
            let mut i = 0;
            while let Some(l) = super::Window::on(&text, i, super::move_line_at) {
                n += l.number as usize;
                i += l.len;
            }
        }
        assert!(n > 0);
    }

    #[test]
    #[ignore]
    fn probe_write_move_cost() {
        let p = crate::grammar::half_move::parse(b"JE11*A23").unwrap();
        let mv = crate::HalfMove::new(1, crate::Side::White, p.action, p.check);
        let mut out = Vec::with_capacity(1 << 20);
        for _ in 0..20_000 {
            mv.write_move(&mut out);
        }
        assert!(out.len() > 100);
    }
}
