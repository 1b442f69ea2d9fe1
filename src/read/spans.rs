//! The span path: a game's main line read straight from the bytes where
//! it is already canonical.
//!
//! It reads blanks, line ends, `,`, move numbers in sequence and canonical
//! moves ([`half_move::plain_move_at`]) in a game's main line; at anything
//! else (a fault, a move that an annotation follows, a token of another
//! kind) it hands the byte where it stopped to the tokenizer
//! (`tokens.rs`), which reads one token there, and takes over again after
//! it. The two read the same tokens the same way, so the output is the
//! same bytes with the span path off (`FilterBuilder::spans(false)`),
//! which the tests and the fuzz target check. When nothing but the writer
//! wants a main line's moves, a whole move line already canonical goes to
//! the writer as one span.

use super::tokens::*;
use super::{Held, Reading};
use crate::diag::Pos;
use crate::grammar::game_start::is_blank;
use crate::grammar::half_move::{self, Traits, Window};
use crate::grammar::model::{Action, Check, HalfMove, Sep, Side, Text};
use crate::grammar::token::decimal_at;
use crate::passes::Flow;

impl Reading<'_> {
    /// Among the tags of a game under way, which no pass but the writer
    /// wants: where the span path reads tag lines.
    #[inline(always)]
    pub(super) fn in_plain_tags(&self) -> bool {
        self.game.open && !self.game.past_tags && !self.f.chain.wants_tags()
    }

    /// In a game's main line, past its tags and not ended: where the span
    /// path reads.
    #[inline(always)]
    pub(super) fn in_main_line(&self) -> bool {
        self.game.past_tags && self.game.depth == 0 && self.game.open && !self.movetext.ended()
    }

    /// The span path from `text[i]`: blanks, line ends, `,`, move numbers
    /// in sequence and canonical moves, read as the tokenizer would read
    /// them; returns where it stopped, for the tokenizer to read one token
    /// there. When nothing but the writer wants a canonical move, its text
    /// goes to the writer as read, and a whole move line already canonical
    /// goes as one span.
    #[inline]
    pub(super) fn spans(&mut self, h: Held<'_>, text: &[u8], from: u64, i: usize) -> usize {
        let spans = self.f.writer.takes_spans() && !self.f.chain.wants_main_line_moves();
        // Two copies: the one for a pass that wants every move leaves the
        // other as it was without it.
        if spans && !self.f.chain.wants_move(Traits::default()) {
            self.spans_of::<true>(spans, h, text, from, i)
        } else {
            self.spans_of::<false>(spans, h, text, from, i)
        }
    }

    /// [`Reading::spans`]; `BARE` when no pass but the writer wants a
    /// canonical move and the writer takes spans; `spans` when the writer
    /// takes spans and the select slot does not replay the main line.
    #[inline]
    fn spans_of<const BARE: bool>(
        &mut self,
        spans: bool,
        h: Held<'_>,
        text: &[u8],
        from: u64,
        mut i: usize,
    ) -> usize {
        let separators = Traits::UNICODE_SEPARATOR;
        // A move whose separator is all the passes would change.
        let respelled = BARE && self.f.chain.only_respells(separators);
        // Whole lines, their moves through the passes that want them.
        let lines = spans && self.f.writer.takes_lines();
        if lines && from + i as u64 == self.places.line_start {
            i = self.lines_at::<BARE>(h, text, from, i);
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
                        i = self.lines_at::<BARE>(h, text, from, i);
                        if self.movetext.ended() {
                            return i;
                        }
                    }
                }
                b',' if self.movetext.black_due() => {
                    // A movetext token, as the tokenizer reads it: a
                    // Redefine after it on its line is misplaced.
                    self.game.movetext_line = self.places.line;
                    i += 1;
                }
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
                    let respell = !canonical && respelled;
                    // `:` may end the move; then nothing that annotates a
                    // move may follow it on its line, for the tokenizer
                    // would hold the move for that.
                    let end = text.get(i + len) == Some(&b':');
                    let after = i + len + usize::from(end);
                    if !plain_after(text, after) || !self.movetext.takes_half_move() {
                        return i;
                    }
                    let at = from + i as u64;
                    if BARE && canonical || respell {
                        let mate = p.check == Some(Check::Mate);
                        let (number, side) = self.span_move(at, end, mate);
                        if self.f.chain.wants_main_line() {
                            self.select_reads(&p.action);
                        }
                        if !self.f.cx.has_error() {
                            let unknown = self.movetext.unknown_number;
                            let word = &text[i..i + len];
                            match p.action.separator().filter(|_| respell) {
                                Some(sep) => {
                                    let mut t = Text::default();
                                    t.respelled(word, sep.ascii());
                                    let word = t.as_bytes();
                                    self.f.writer.move_span(number, side, unknown, word, end);
                                }
                                None => self.f.writer.move_span(number, side, unknown, word, end),
                            }
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
    pub(super) fn move_lines(&mut self, h: Held<'_>, text: &[u8], from: u64, i: usize) -> usize {
        let mut j = i;
        let respelled = self.f.chain.only_respells(Traits::UNICODE_SEPARATOR);
        loop {
            // Two copies of the loop: the one that hands each move to the
            // select slot leaves the other as fast as without it.
            let (pairs, alone) = if self.f.chain.wants_main_line() {
                self.move_pairs::<true>(h, text, from, j, respelled)
            } else {
                self.move_pairs::<false>(h, text, from, j, respelled)
            };
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

    /// Move lines from `text[i]`, a line's start: copied as they stand
    /// when no pass wants their moves (`BARE`), else through the passes.
    #[inline(always)]
    fn lines_at<const BARE: bool>(
        &mut self,
        h: Held<'_>,
        text: &[u8],
        from: u64,
        i: usize,
    ) -> usize {
        if BARE {
            self.move_lines(h, text, from, i)
        } else {
            self.move_lines_through_passes(h, text, from, i)
        }
    }

    /// [`Reading::move_lines`] when a pass wants every move: each line is
    /// read alone ([`Reading::move_line_alone`]), its moves handed to the
    /// passes, and goes to the writer whole if they changed no more than
    /// separators.
    #[inline(never)]
    fn move_lines_through_passes(
        &mut self,
        h: Held<'_>,
        text: &[u8],
        from: u64,
        mut j: usize,
    ) -> usize {
        let end = from + text.len() as u64;
        while let Some(line) = move_line_at(&h.window(from + j as u64, end)) {
            if !self.movetext.takes_pairs(line.number) {
                break;
            }
            self.move_line_alone(h, text, from, j, &line);
            j += line.len;
            if self.movetext.ended() {
                break;
            }
        }
        j
    }

    /// The lines `N. WHITE, BLACK` of canonical moves, in sequence, from
    /// `text[i]`, as one span; returns where they end, and the move line
    /// that follows them if it is one to read alone. With `respelled`
    /// (all the passes would do to a move with a Unicode separator is
    /// write it in ASCII), such moves are taken too, and the span written
    /// with their separators in ASCII. With `SELECT`, each move goes to
    /// the select slot too.
    #[inline]
    pub(super) fn move_pairs<const SELECT: bool>(
        &mut self,
        h: Held<'_>,
        text: &[u8],
        from: u64,
        i: usize,
        respelled: bool,
    ) -> (usize, Option<(usize, MoveLine)>) {
        let mut j = i;
        // The pairs read: their count, the first's number, where the last
        // line and its Black move are; whether any is not canonical.
        let (mut pairs, mut first, mut last, mut black) = (0, 0, i, i);
        let mut unicode = false;
        let mut alone = None;
        // With `SELECT`, the moves' keys not yet handed on.
        let mut keys = [0u64; 16];
        let mut held = 0;
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
            let canonical = line.canonical();
            match &line.black {
                Some(b) if !line.marked && !line.mates() && (canonical || respelled) => {
                    unicode |= !canonical;
                    if SELECT {
                        if held == keys.len() {
                            self.f.chain.main_line(&keys);
                            held = 0;
                        }
                        keys[held] = line.white.parsed.action.key();
                        keys[held + 1] = b.parsed.action.key();
                        held += 2;
                    }
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
        if SELECT && held > 0 {
            self.f.chain.main_line(&keys[..held]);
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
            if self.f.cx.has_error() {
                // Nothing of a game rejected is written.
            } else if unicode {
                self.f.writer.move_lines_ascii(&text[i..j]);
            } else {
                self.f.writer.move_lines(&text[i..j], None);
            }
            self.places.new_lines(u64::from(pairs), at(j));
        }
        (j, alone)
    }

    /// A move line read alone: the game's last, White's move alone, or one
    /// with a move whose separator is a Unicode dash or `×`. Each move is
    /// read as on the span path and goes to the passes that want it; the
    /// line goes to the writer whole when they changed no more than
    /// separators (respelled in the line), else move by move.
    #[inline(always)]
    pub(super) fn move_line_alone(
        &mut self,
        h: Held<'_>,
        text: &[u8],
        from: u64,
        k: usize,
        line: &MoveLine,
    ) {
        let at = |i: usize| from + i as u64;
        self.span_number(line.number, at(k));
        let moves = [Some(&line.white), line.black.as_ref()];
        let mut read: [Option<Pending>; 2] = [None, None];
        // The separator each move is written with, when not as read.
        let mut seps: [Option<Sep>; 2] = [None, None];
        let mut whole = true;
        let separators = Traits::UNICODE_SEPARATOR;
        let needed = self.f.chain.needs_move(separators);
        let respells = self.f.chain.respells(separators);
        for ((slot, sep), m) in read.iter_mut().zip(&mut seps).zip(moves) {
            let Some(m) = m else {
                continue;
            };
            let last = std::ptr::eq(m, line.black.as_ref().unwrap_or(&line.white));
            let end = line.marked && last;
            let (number, side, _) = self.movetext.half_move();
            let pos = self.places.pos(at(k + m.at));
            let p = &m.parsed;
            self.main_line_move_read(side, pos, end, p.check == Some(Check::Mate));
            if !needed {
                // All a pass would do to it is respell its separator.
                let unicode = p.traits.intersects(separators);
                *sep = p
                    .action
                    .separator()
                    .filter(|_| respells && unicode)
                    .map(Sep::ascii);
                continue;
            }
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
            if self.through_passes(h, &mut p) == Flow::Drop {
                whole = false;
                continue;
            }
            whole &= p.text.is_some();
            *sep = p.mv.action.separator().filter(|_| p.respell);
            *slot = Some(p);
        }
        if self.f.chain.wants_main_line() {
            self.select_reads_alone(line, &read, needed, whole);
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
                line.respelled(&text[k..end], seps, &mut t);
                self.f.writer.move_lines(t.as_bytes(), open);
            } else {
                for p in read.iter().flatten() {
                    self.write_half_move(h, p);
                }
            }
        }
        self.places.new_line(at(k + line.len));
    }

    /// A main-line move read on the span path and no pass's, for the
    /// select slot.
    #[inline(never)]
    fn select_reads(&mut self, action: &Action) {
        self.f.chain.main_line(&[action.key()]);
    }

    /// The moves of a move line read alone, `line`, for the select slot:
    /// when the passes `needed` them, those they kept, `read`, if the line
    /// goes to the writer `whole` (else `write_half_move` hands them on);
    /// else the moves as read.
    #[inline(never)]
    fn select_reads_alone(
        &mut self,
        line: &MoveLine,
        read: &[Option<Pending>; 2],
        needed: bool,
        whole: bool,
    ) {
        if !needed {
            let white = line.white.parsed.action.key();
            match &line.black {
                Some(b) => self.f.chain.main_line(&[white, b.parsed.action.key()]),
                None => self.f.chain.main_line(&[white]),
            }
        } else if whole {
            for p in read.iter().flatten() {
                self.f.chain.main_line_move(&p.mv, 0);
            }
        }
    }

    /// A move number `n.` at `at`, in sequence, read on the span path.
    #[inline]
    pub(super) fn span_number(&mut self, n: u32, at: u64) {
        self.movetext.number(n, false);
        self.game.marks.last_number = self.places.pos(at);
        self.game.movetext_line = self.places.line;
    }

    /// A canonical half-move at `at`, read on the span path and going to
    /// the writer as read (`end`: `:` follows it): its number and side.
    #[inline]
    pub(super) fn span_move(&mut self, at: u64, end: bool, mate: bool) -> (u32, Side) {
        let (number, side, _) = self.movetext.half_move();
        self.main_line_move_read(side, self.places.pos(at), end, mate);
        (number, side)
    }

    /// A main-line half-move by `side` at `pos` is read: whether it ends
    /// the game (`:`) or mates.
    #[inline(always)]
    pub(super) fn main_line_move_read(&mut self, side: Side, pos: Pos, end: bool, mate: bool) {
        self.movetext.move_ends(end, mate.then_some(side));
        self.game.marks.last_move = pos;
        self.game.counts.half_moves += 1;
    }
}

/// A move line already canonical, as the writer writes one: `N. WHITE,
/// BLACK` or `N. WHITE`, `:` after the last move if it ends the game, the
/// moves canonical, then the line end.
pub(super) struct MoveLine {
    pub(super) number: u32,
    pub(super) white: LineMove,
    pub(super) black: Option<LineMove>,
    /// Its last move is marked `:`.
    pub(super) marked: bool,
    /// Its length, line end included.
    pub(super) len: usize,
}

/// A plain move in a move line: where it starts in the line, its length,
/// how it reads.
pub(super) struct LineMove {
    pub(super) at: usize,
    pub(super) len: usize,
    pub(super) parsed: half_move::Parsed,
}

impl MoveLine {
    /// Its last move mates.
    pub(super) fn mates(&self) -> bool {
        let last = self.black.as_ref().unwrap_or(&self.white);
        last.parsed.check == Some(Check::Mate)
    }

    /// Its text, `line`, with the separators of its moves (White's,
    /// Black's) Unicode as read and written `seps`, where given.
    pub(super) fn respelled(&self, line: &[u8], seps: [Option<Sep>; 2], t: &mut Text) {
        let mut i = 0;
        for (m, sep) in [Some(&self.white), self.black.as_ref()]
            .into_iter()
            .zip(seps)
        {
            let (Some(m), Some(sep)) = (m, sep) else {
                continue;
            };
            let (a, b) = (m.at, m.at + m.len);
            t.push_slice(&line[i..a]);
            t.respelled(&line[a..b], sep);
            i = b;
        }
        t.push_slice(&line[i..]);
    }

    /// Its moves are canonical (none with a Unicode separator).
    pub(super) fn canonical(&self) -> bool {
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
pub(super) fn move_line_at(w: &Window<'_>) -> Option<MoveLine> {
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
pub(super) fn plain_after(text: &[u8], mut i: usize) -> bool {
    loop {
        match text.get(i) {
            None | Some(b'\n' | b',') => return true,
            Some(&c) if is_blank(c) => i += 1,
            // A move number, a move, a result.
            Some(c) => return c.is_ascii_alphanumeric(),
        }
    }
}
