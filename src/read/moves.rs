//! The movetext the tokenizer reads: move numbers, half-moves and what
//! annotates them, results; each half-move handed to the chain and the
//! writer.

use super::held::Held;
use super::movetext::Fault;
use super::scan::invalid_utf8;
use super::state::Step;
use super::tokens::*;
use super::visitor::{MoveRead, Visitor};
use crate::grammar::half_move::{self, Lexeme, Parse, Traits};
use crate::grammar::model::{HalfMove, Outcome, Rating, Sep, Side};
use crate::grammar::standard_chess;
use crate::grammar::token::blanks_len;
use crate::grammar::token::{number_value, Token};

impl<V: Visitor> Step<'_, '_, V> {
    /// A move number `n.` or `n?`.
    pub(super) fn move_number(&mut self, h: Held<'_>, tok: Token, s: Span<'_>) {
        let n = number_value(s.text);
        self.number_read(h, n, tok == Token::UnknownNumber, s);
    }

    /// The move number `s`, whose value is `n`.
    #[inline(always)]
    pub(super) fn number_read(&mut self, h: Held<'_>, n: u32, unknown: bool, s: Span<'_>) {
        if let Some(f) = self.movetext.number(n, unknown) {
            self.error_at(h, s.at, f.message(s.text));
        }
        self.game.marks.last_number = self.places.pos(s.at);
    }

    pub(super) fn ellipsis(&mut self, h: Held<'_>, s: Span<'_>) {
        if let Some(f) = self.movetext.ellipsis() {
            self.error_at(h, s.at, f.message(b""));
        }
        self.game.marks.last_number = self.places.pos(s.at);
    }

    /// A word of the game's own movetext: the half-move its numbering makes
    /// it. Returns where reading goes on, if past the word.
    pub(super) fn movetext_word(&mut self, h: Held<'_>, s: Span<'_>) -> Option<u64> {
        let read = self.lexeme(h, s);
        self.movetext_word_read(h, s, read)
    }

    /// [`Step::movetext_word`] of the word `s` the move lexeme read as `read`.
    #[inline(always)]
    pub(super) fn movetext_word_read(
        &mut self,
        h: Held<'_>,
        s: Span<'_>,
        read: Parse<Lexeme>,
    ) -> Option<u64> {
        let (number, side, fault) = self.movetext.half_move();
        if let Some(f) = fault {
            self.movetext_fault(h, s.at, f);
        }
        self.half_move_read(h, s, read, number, side)
    }

    /// The move lexeme's reading of the word `s`: in its window, when
    /// read where it stands.
    #[inline(always)]
    fn lexeme(&self, h: Held<'_>, s: Span<'_>) -> Parse<Lexeme> {
        let w = s.map.is_none().then(|| h.window(s.at, h.end()));
        half_move::read(s.text, w.as_ref(), self.set.made_moves)
    }

    /// Reports what is wrong with the half-move at `at`: a warning when
    /// the fault is repaired, else an error.
    #[cold]
    fn movetext_fault(&mut self, h: Held<'_>, at: u64, f: Fault) {
        match f.repair() {
            Some(fix) => {
                let pos = self.places.pos(at);
                self.warn_fixed_at(h, pos, f.message(b""), fix);
            }
            None => self.error_at(h, at, f.message(b"")),
        }
    }

    /// A half-move's word: parsed, and held until its annotations are
    /// read. Returns where reading goes on, if past the word (a move with
    /// blanks around its dash).
    pub(super) fn half_move(
        &mut self,
        h: Held<'_>,
        s: Span<'_>,
        number: u32,
        side: Side,
    ) -> Option<u64> {
        let read = self.lexeme(h, s);
        self.half_move_read(h, s, read, number, side)
    }

    /// [`Step::half_move`] of the word `s` the move lexeme read as `read`.
    #[inline(always)]
    fn half_move_read(
        &mut self,
        h: Held<'_>,
        s: Span<'_>,
        read: Parse<Lexeme>,
        number: u32,
        side: Side,
    ) -> Option<u64> {
        let (lexeme, mut traits) = match read {
            Ok(lexeme) => (lexeme, lexeme.traits()),
            Err(e) => return self.not_a_half_move(h, s, e, number, side),
        };
        if self.game.depth > 0 {
            traits |= Traits::IN_VARIATION;
        }
        let unknown = self.movetext.unknown_number && self.game.depth == 0;
        let pos = self.places.pos(s.offset(0));
        let p = &mut self.st.moves.pending;
        p.mv.number = number;
        p.mv.side = side;
        p.mv.unknown_number = unknown;
        p.mv.rating = None;
        p.mv.nag_count = 0;
        p.mv.draw_offer = false;
        p.mv.end = false;
        p.mv.pos = pos;
        p.mate = lexeme.mate();
        p.parsed = match lexeme {
            Lexeme::Plain(_) => false,
            Lexeme::Parsed(parsed) => {
                (p.mv.action, p.mv.check) = (parsed.action, parsed.check);
                true
            }
        };
        p.traits = traits;
        p.text = (s.map.is_none() && !traits.intersects(Traits::RESPELLED))
            .then(|| (s.at, s.at + s.text.len() as u64));
        self.st.moves.held = true;
        None
    }

    #[cold]
    pub(super) fn not_a_half_move(
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
        if !self.reports_errors() {
            // Only the first error of a game is kept: no need to make another.
            return None;
        }
        let (at, message) = if let Some(message) = standard_chess::move_message(s.text, line_rest) {
            (s.at, message)
        } else if !self.scan.utf8
            && s.map.is_none()
            && h.end() > next
            && first_char(h.from(next)).is_none()
        {
            // A word cut short by invalid UTF-8: that is what to say.
            (next, invalid_utf8(h, next))
        } else {
            let at = s.offset(e.offset);
            (at, e.message(s.text))
        };
        // Inside a variation, the word still holds the half-move's place.
        let unread = (self.game.depth > 0).then(|| (number, side, self.places.pos(s.at)));
        let pos = self.places.pos(at);
        self.error_with(h, pos, message, unread);
        None
    }

    /// `E7 - E13`, `E7- E13`, `JE5 × F16`: a move with blanks around its
    /// dash or `×`, read as one word (with a warning) when the word `s`
    /// ends where its separator or destination is due; `rest` is what
    /// follows it on its line. Returns where reading goes on, after the
    /// move.
    pub(super) fn spaced_move(
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
        let separator_at = |b: &[u8], i: usize| match Sep::at(b, i)? {
            (Sep::Move(_) | Sep::Capture { times: true }, n, _) => Some(n),
            _ => None,
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
        let joined = half_move::read(&fold, None, false).is_ok();
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

    pub(super) fn annotation(&mut self, h: Held<'_>, tok: Token, s: Span<'_>) {
        if !self.moves.held {
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
        }
        let p = &mut self.st.moves.pending;
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

    /// Hands the half-move read last, if any, to the visitor.
    #[inline]
    pub(super) fn flush_pending(&mut self, h: Held<'_>) {
        if self.moves.held {
            self.hand_held(h);
        }
    }

    #[inline(never)]
    fn hand_held(&mut self, h: Held<'_>) {
        self.hand_half_move(h);
    }

    /// [`Step::flush_pending`], inlined where a half-move is read most.
    #[inline(always)]
    pub(super) fn flush_pending_here(&mut self, h: Held<'_>) {
        if self.moves.held {
            self.hand_half_move(h);
        }
    }

    /// The half-move read last and its annotations: to the visitor.
    #[inline(always)]
    fn hand_half_move(&mut self, h: Held<'_>) {
        let st = &mut *self.st;
        st.moves.held = false;
        let p = &st.moves.pending;
        let depth = st.game.depth;
        if depth == 0 {
            // A main-line half-move is read: does it end the game (`:`), or mate?
            let mv = &p.mv;
            st.movetext.move_ends(mv.end, p.mate.then_some(mv.side));
            st.game.marks.last_move = mv.pos;
            st.game.counts.half_moves += 1;
        }
        let m = MoveRead {
            p,
            depth,
            src: h.src(),
        };
        self.v.half_move(&m, &mut st.cx);
        self.place(h);
    }

    pub(super) fn result(&mut self, h: Held<'_>, tok: Token, s: Span<'_>) {
        let outcome = match tok {
            Token::PgnDraw => {
                let message = standard_chess::result_message(s.text);
                self.error_at(h, s.at, message);
                Outcome::Draw
            }
            _ => match Outcome::read(s.text) {
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
}
