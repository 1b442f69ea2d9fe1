//! Stage 2: the one loop over the `logos` tokens of each region of lines,
//! each rule of the notation stated in `grammar/`. A token is handed on by
//! kind: tags (`tags.rs`), movetext (`moves.rs`), variations and comments
//! (here). After a move number on the main line, the words the writer
//! lays out after it are read in place by the move lexeme, as long as
//! each is plain ([`Step::main_line_on`]).

use super::held::Held;
use super::scan::invalid_utf8;
use super::state::{Mode, Step, VariationNumbers};
use super::visitor::Visitor;
use crate::diag::Message;
use crate::grammar::game_start::Opens;
use crate::grammar::half_move;
use crate::grammar::model::Side;
use crate::grammar::standard_chess;
use crate::grammar::token::{self, blank_len, blanks_len, label_value, number_value, Token};
use logos::Logos;
use std::io;
use unicode_normalization::UnicodeNormalization;

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

    pub(super) fn leave(&mut self) {
        if let Some((n, side)) = self.stack.pop() {
            self.number = n;
            self.side = side;
        }
    }
}

/// The text a token was read from: the input, or a word folded with NFKC
/// (full-width letters and digits), whose bytes map back to the input.
#[derive(Clone, Copy)]
pub(super) struct Span<'a> {
    pub(super) text: &'a [u8],
    /// Stream offset of `text[0]`.
    pub(super) at: u64,
    /// For folded text: the stream offset of the word folded, and the
    /// offset in it of each byte of `text`.
    pub(super) map: Option<(u64, &'a [u32])>,
}

impl Span<'_> {
    /// The stream offset of `text[i]`.
    pub(super) fn offset(&self, i: usize) -> u64 {
        match self.map {
            None => self.at + i as u64,
            Some((word, m)) => word + u64::from(m.get(i).or(m.last()).copied().unwrap_or(0)),
        }
    }
}

impl<V: Visitor> Step<'_, '_, V> {
    /// Tokens from `self.at` until the mode changes or `end`.
    pub(super) fn tokens(&mut self, h: Held<'_>, end: u64) -> io::Result<()> {
        let from = self.at;
        let text = h.slice(from, end);
        // One lexer over the region, made anew where reading jumps (past a
        // word read otherwise, a tag line's fault, a blank it leaves).
        let (mut lx, mut base) = (Token::lexer(text), 0);
        let mut i;
        loop {
            let Some(tok) = lx.next() else {
                // Blanks to the end.
                i = text.len();
                break;
            };
            let span = lx.span();
            let (start, stop) = (base + span.start, base + span.end);
            let at = from + start as u64;
            i = stop;
            let jump = match tok {
                Ok(tok) => {
                    let s = Span {
                        text: &text[start..stop],
                        at,
                        map: None,
                    };
                    self.read_token(h, tok, s, end)?
                }
                Err(()) => {
                    let rest = &text[start..];
                    // A blank the tokenizer leaves to `not_a_token` hands
                    // nothing on.
                    if self.moves.held && blank_len(rest).is_none() {
                        self.flush_pending(h);
                    }
                    self.not_a_token(h, rest, at)?
                }
            };
            if self.scan.mode != Mode::Tokens || self.paused() {
                i = match self.again_at.take() {
                    // A game ended at the token that begins the next: read
                    // it again, as the next game's.
                    Some(again) => (again - from) as usize,
                    None => jump.map_or(i, |to| (to - from) as usize),
                };
                break;
            }
            if let Some(to) = jump {
                i = (to - from) as usize;
                (lx, base) = (Token::lexer(&text[i..]), i);
            }
        }
        self.at = from + i as u64;
        Ok(())
    }

    /// A token read, in a region that ends at `end`; returns where reading
    /// goes on, if not after it.
    #[inline(always)]
    fn read_token(
        &mut self,
        h: Held<'_>,
        tok: Token,
        s: Span<'_>,
        end: u64,
    ) -> io::Result<Option<u64>> {
        // A half-move waits for what annotates it; anything else hands it on.
        if self.moves.held && !tok.annotates() {
            self.flush_pending(h);
        }
        match tok {
            Token::LineEnd => self.places.new_line(s.at + 1),
            // The main line's own tokens, the most of most games.
            Token::Word if self.in_main_line() => {
                let jump = self.movetext_word(h, s);
                self.game.movetext_line = self.places.line;
                return Ok(jump);
            }
            Token::Number if self.in_main_line() => {
                self.move_number(h, tok, s);
                self.game.movetext_line = self.places.line;
                let at = s.at + s.text.len() as u64;
                // Each spelling of the loop its own code: a reader that
                // makes no move stays as fast as it was.
                return Ok(if self.set.made_moves {
                    self.main_line_on::<true>(h, at, end)
                } else {
                    self.main_line_on::<false>(h, at, end)
                });
            }
            Token::Comma if self.in_main_line() && self.movetext.black_due() => {
                self.game.movetext_line = self.places.line;
            }
            _ => return self.token(h, tok, s),
        }
        Ok(None)
    }

    /// The main line read on in place from `at`, just past a move number
    /// read on it, up to `end`, as long as what follows is what the writer
    /// lays out there: one blank and a word the move lexeme reads as plain
    /// ([`half_move::read_plain`]), `:` after it if it ends the game, then
    /// `, ` and Black's word, then the line end and the next line's `N. `
    /// ([`token::number_then_blank`]), and so on. Each is the token the
    /// tokenizer reads there, read by the same functions as alone
    /// (`read_token`'s arms); at the first that is not, or that the main
    /// line does not take there, the tokenizer reads on from it. Returns
    /// where reading goes on, if not just past the number.
    #[inline(always)]
    fn main_line_on<const MADE: bool>(&mut self, h: Held<'_>, at: u64, end: u64) -> Option<u64> {
        let text = h.slice(at, end);
        let part = |from: usize, to: usize| Span {
            text: &text[from..to],
            at: at + from as u64,
            map: None,
        };
        let on = |i: usize| (i > 0).then_some(at + i as u64);
        // Just past a number, or the `,` before Black's word.
        let mut k = 0;
        loop {
            // A blank, then a word in a common spelling: the half-move due
            // (`read_token`'s `Word` arm; nothing is held here, and the
            // main line goes on: a number or a `,` it took came before).
            if text.get(k) != Some(&b' ') {
                return on(k);
            }
            let from = k + 1;
            let Some((lexeme, len)) =
                half_move::read_plain::<MADE>(&h.window(at + from as u64, h.end()))
            else {
                return on(k);
            };
            debug_assert!(self.in_main_line() && !self.moves.held);
            k = from + len;
            self.movetext_word_read(h, part(from, k), Ok(lexeme));
            self.game.movetext_line = self.places.line;
            // The `:` that ends the game: an annotation of the word.
            if text.get(k) == Some(&b':') {
                self.annotation(h, Token::EndMarker, part(k, k + 1));
                k += 1;
            }
            match text.get(k) {
                // `,`, then Black's word if it is due.
                Some(b',') => {
                    self.flush_pending_here(h);
                    if !(self.in_main_line() && self.movetext.black_due()) {
                        return on(k);
                    }
                    k += 1;
                }
                // The line end, then the next line's `N. ` (`read_token`'s
                // `Number` arm, nothing held), if the main line goes on.
                Some(b'\n') => {
                    self.flush_pending_here(h);
                    let line = k + 1;
                    self.places.new_line(at + line as u64);
                    match token::number_then_blank(&text[line..]) {
                        Some((n, len)) if self.in_main_line() => {
                            self.number_read(h, n, false, part(line, line + len));
                            self.game.movetext_line = self.places.line;
                            k = line + len;
                        }
                        _ => return on(line),
                    }
                }
                _ => return on(k),
            }
            debug_assert!(self.scan.mode == Mode::Tokens && !self.paused());
        }
    }

    /// In a game's main line, past its tags and not ended: where the
    /// main line's own tokens are read on the quick arms of `tokens`.
    #[inline(always)]
    fn in_main_line(&self) -> bool {
        let g = &self.game;
        g.past_tags && g.depth == 0 && g.open && !self.movetext.ended()
    }

    // ───────────────────────────── the tokenizer's tokens ─────────────────────────────

    /// Bytes no token starts with: a blank the tokenizer leaves here, a
    /// full-width word to fold, or an error. Returns where reading goes on,
    /// if not after the tokenizer's error span.
    #[cold]
    #[inline(never)]
    pub(super) fn not_a_token(
        &mut self,
        h: Held<'_>,
        rest: &[u8],
        at: u64,
    ) -> io::Result<Option<u64>> {
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
        self.unexpected(h, rest, at)
    }

    /// NFKC-folds `word`, valid UTF-8, into `self.moves.fold`, with the
    /// input offset of each of its bytes.
    pub(super) fn fold_word(&mut self, word: &[u8]) {
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
    pub(super) fn folded_tokens(&mut self, h: Held<'_>, at: u64, len: usize) -> io::Result<u64> {
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
            if self.moves.held && !tok.is_ok_and(Token::annotates) && blank_len(rest).is_none() {
                self.flush_pending(h);
            }
            // A game that would start inside the word is read from its
            // first byte as a reader resumed there reads it (`--jobs`):
            // the rest of the word unfolded, folded again from there. (Once
            // the move before is handed on: a mate ends its game then.)
            if s.at > at && self.game.depth == 0 {
                let opens = Opens::of_first_token(rest).map(|(_, o)| o);
                if opens.is_some_and(|o| self.standing().starts(o)) {
                    next = s.at;
                    break;
                }
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
            if self.scan.mode != Mode::Tokens || self.paused() {
                if let Some(again) = self.again_at.take() {
                    next = again;
                    break;
                }
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

    /// Bytes that start no token: the game's error. Returns where reading
    /// goes on, if not after the tokenizer's error span.
    #[cold]
    #[inline(never)]
    pub(super) fn unexpected(
        &mut self,
        h: Held<'_>,
        rest: &[u8],
        at: u64,
    ) -> io::Result<Option<u64>> {
        if rest.first() == Some(&b'[') {
            return self.bad_tag_line(h, rest, at);
        }
        // Inside a variation, as any token there, it belongs to the game
        // under way, ended or not.
        if self.game.depth == 0 && !self.game_at(h, Opens::Movetext, at)? {
            return Ok(None);
        }
        self.leave_tags(h);
        if !self.reports_errors() {
            // Only the first error of a game, or of a variation game, is
            // kept: no need to make another.
            return Ok(None);
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
        Ok(None)
    }

    /// A `[` that starts no tag: a tag line that is not well formed. To
    /// the game-start rule it is a tag, so a bad tag inside a tag section
    /// rejects that one game instead of ending it there; the rest of its
    /// line is part of the fault, never read as movetext. Returns where
    /// reading goes on: the line's end.
    fn bad_tag_line(&mut self, h: Held<'_>, rest: &[u8], at: u64) -> io::Result<Option<u64>> {
        if !self.game_at(h, Opens::Tag, at)? {
            return Ok(None);
        }
        // Only the game's first error is kept.
        if self.reports_errors() && h.holds(at) {
            let (off, message) = token::tag_fault(h.from(at), at);
            self.error_at(h, at + off as u64, message);
        }
        let line_end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        Ok(Some(at + line_end as u64))
    }

    /// A token read by the tokenizer; returns where reading goes on, if
    /// not after it.
    pub(super) fn token(
        &mut self,
        h: Held<'_>,
        tok: Token,
        s: Span<'_>,
    ) -> io::Result<Option<u64>> {
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
                self.open_comment(h, s.at);
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
            _ if annotation && self.moves.held => self.annotation(h, tok, s),
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
    pub(super) fn labeled_variation(&mut self, h: Held<'_>, s: Span<'_>) -> io::Result<()> {
        if let Some(label) = label_value(s.text) {
            return self.open_variation(h, s.at, Some(label));
        }
        if self.game_at(h, Opens::Aside, s.at)? {
            // Still a variation: its `)` closes it. Opened first, so that
            // the error is the variation's own.
            self.open_variation(h, s.at, None)?;
            let i = memchr::memchr(b'$', s.text).unwrap_or(0);
            let message = format!(
                "variation label {} is too large (at most $[{}])",
                String::from_utf8_lossy(&s.text[i..]),
                token::MAX_LABEL
            );
            self.error_at(h, s.offset(i), message);
        }
        Ok(())
    }

    /// A movetext token on the main line, but a result, a variation's
    /// opening, or an annotation of the half-move before it.
    pub(super) fn movetext_token(&mut self, h: Held<'_>, tok: Token, s: Span<'_>) -> Option<u64> {
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
    pub(super) fn variation_token(
        &mut self,
        h: Held<'_>,
        tok: Token,
        s: Span<'_>,
    ) -> io::Result<()> {
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
                self.v.end_variation(depth, &mut self.st.cx);
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
    pub(super) fn first_token_of_line(&self, h: Held<'_>) -> u64 {
        let line = h.from(self.places.line_start);
        self.places.line_start + blanks_len(line) as u64
    }
}

/// The length of the `Word` token `b` starts with, 0 if none.
pub(super) fn word_len(b: &[u8]) -> usize {
    let mut lx = Token::lexer(b);
    match lx.next() {
        Some(Ok(Token::Word)) if lx.span().start == 0 => lx.span().end,
        _ => 0,
    }
}

/// The length of the word to fold that `b` starts with: up to a blank, a
/// line end, or a byte that opens or closes something (`[`, `{`, `(`...),
/// which the tokenizer reads after the word whatever the word holds.
pub(super) fn fold_word_len(b: &[u8]) -> usize {
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' | b'{' | b'}' | b'[' | b'(' | b')' => break,
            _ if blank_len(&b[i..]).is_some() => break,
            _ => i += 1,
        }
    }
    i
}

/// The character `b` starts with; `None` where it starts with invalid UTF-8.
pub(super) fn first_char(b: &[u8]) -> Option<char> {
    (1..=b.len().min(4))
        .find_map(|k| std::str::from_utf8(&b[..k]).ok())
        .and_then(|s| s.chars().next())
}
