//! Canonical CTL-PGN: tags a line each, `Variant` first; a move line a
//! move number (`N. WHITE, BLACK`); comments on lines of their own; each
//! kept variation from a new line, its nesting shown by leading dots, as
//! the notation lays them out.

use super::held::Held;
use super::text::{write_tag, VARIANT_LINE};
use crate::grammar::hex::push_decimal;
use crate::grammar::model::{
    push_ascii_separators, push_typographic_captures, HalfMove, Outcome, Side, Text, ELLIPSIS,
    ELLIPSIS_ASCII,
};
use crate::pass::{Tag, Variation};
use crate::pdtl::Pdtl;
use crate::read::Source;
use std::io::{self, Write};
use std::ops::Range;

/// The game being written; its buffers are reused from game to game.
#[derive(Debug, Default)]
pub(super) struct CtlPgn {
    /// Tag lines, the `Variant` line first.
    head: Vec<u8>,
    /// Where the value of the `Result` tag is in `head`.
    result_tag: Option<Range<usize>>,
    /// Movetext lines, and kept comments and variations between them.
    body: Held,
    /// Kept comments after the result.
    tail: Held,
    /// A main-line half-move was written.
    moved: bool,
    /// Number of the move line still open (White moved, Black not yet).
    open_line: Option<u32>,
    /// Text of the variation being kept, from its outermost `(`.
    variation: Held,
    /// The dots that show the depth of its items: (where in `variation`,
    /// how many). They are written out only with the game: a variation
    /// nested `n` deep has `n²` of them.
    variation_dots: Vec<(u64, u32)>,
    /// The same, moved into `body`.
    dots: Vec<(u64, u32)>,
    /// Where the comment open goes.
    comment_in: CommentIn,
    /// Inside a kept variation: the number of the White half-move that
    /// was the last item, if it was one.
    open_pair: Option<u32>,
    /// Inside a kept variation: nothing written yet since its `(`.
    just_opened: bool,
    /// The typographic form: captures `×`, `…` in White's place when Black
    /// moves first.
    typographic: bool,
    /// Input already laid out as this layout lays it out, not yet copied
    /// into its part (see [`CtlPgn::settle`]).
    copy: Option<Copy>,
    /// Move lines in ASCII, before their captures are respelled `×`.
    scratch: Vec<u8>,
}

/// A run of input that reads as written: where it starts and ends in the
/// stream, whether it goes to the movetext (else the tags), and whether
/// its moves' separators are written in ASCII (its only characters not
/// ASCII but `∞`).
#[derive(Clone, Copy, Debug)]
struct Copy {
    from: u64,
    to: u64,
    body: bool,
    ascii: bool,
}

/// Where a comment goes: see [`CtlPgn::comment_open`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum CommentIn {
    #[default]
    Body,
    Tail,
    Variation,
}

impl CtlPgn {
    /// A writer that holds `bound` bytes of each part of a game in memory,
    /// and spills the rest ([`Held`]); `typographic`: moves spelled as the
    /// notation prints them ([`crate::FilterBuilder::typographic`]).
    pub fn new(bound: usize, typographic: bool) -> CtlPgn {
        CtlPgn {
            body: Held::new(bound),
            tail: Held::new(bound),
            variation: Held::new(bound),
            typographic,
            ..CtlPgn::default()
        }
    }

    /// Appends move text (moves, their numbers and what follows them) to
    /// `out`, in the form asked for. Every path a move takes to the output
    /// comes through here, the runs copied as read included, so the form
    /// holds whichever path the move took.
    #[inline]
    fn push_moves(typographic: bool, out: &mut Vec<u8>, text: &[u8]) {
        if typographic {
            push_typographic_captures(out, text);
        } else {
            out.extend_from_slice(text);
        }
    }

    /// What stands for White's move when Black's comes first.
    fn ellipsis(&self) -> &'static str {
        if self.typographic {
            ELLIPSIS
        } else {
            ELLIPSIS_ASCII
        }
    }

    pub fn begin(&mut self) {
        debug_assert!(self.copy.is_none(), "settled before the game was written");
        self.head.clear();
        self.head.extend_from_slice(VARIANT_LINE);
        self.result_tag = None;
        self.body.clear();
        self.tail.clear();
        self.variation.clear();
        self.variation_dots.clear();
        self.dots.clear();
        self.open_line = None;
        self.moved = false;
        self.open_pair = None;
        self.just_opened = false;
    }

    /// The run of input pending, copied into its part: before anything
    /// else is written there, and before the reader lets go of it.
    #[inline]
    pub fn settle(&mut self, src: Source<'_>) {
        if let Some(c) = self.copy.take() {
            let bytes = src.slice(c.from, c.to);
            if !c.body {
                self.head.extend_from_slice(bytes);
                return;
            }
            if c.ascii {
                self.scratch.clear();
                push_ascii_separators(&mut self.scratch, bytes);
                Self::push_moves(self.typographic, &mut self.body.mem, &self.scratch);
            } else {
                Self::push_moves(self.typographic, &mut self.body.mem, bytes);
            }
            self.body.settle();
        }
    }

    /// Is no run of input pending for the movetext (`body`), or the tags?
    fn settled(&self, body: bool) -> bool {
        self.copy.is_none_or(|c| c.body != body)
    }

    /// Extends the run of input pending by `from..to`, when it starts
    /// where the run ends and goes to the same part; else settles the run
    /// and starts another.
    #[inline(always)]
    fn copy(&mut self, from: u64, to: u64, body: bool, ascii: bool, src: Source<'_>) {
        match &mut self.copy {
            Some(c) if c.to == from && c.body == body => {
                c.to = to;
                c.ascii |= ascii;
            }
            _ => {
                self.settle(src);
                self.copy = Some(Copy {
                    from,
                    to,
                    body,
                    ascii,
                });
            }
        }
    }

    /// A tag whose line, `line` in the stream, is written as this layout
    /// writes it: copied. (A `Result` tag is laid out, so that
    /// `--fix-result` knows where its value is.)
    pub fn tag_as_written(&mut self, tag: &Tag<'_>, line: (u64, u64), src: Source<'_>) {
        if tag.name == "Result" {
            self.settle(src);
            return self.tag(tag);
        }
        self.copy(line.0, line.1, false, false, src);
    }

    /// A main-line half-move whose text, `text` in the stream, is written
    /// as read, with nothing after it but the end marker: copied, with
    /// what this layout writes around it, when the input has exactly that
    /// around it (its number before White's move, `, ` before Black's, the
    /// line end after Black's); with `ascii`, its separator written in
    /// ASCII. Returns whether it was.
    #[inline]
    pub fn move_as_read(
        &mut self,
        mv: &HalfMove,
        text: (u64, u64),
        ascii: bool,
        src: Source<'_>,
    ) -> bool {
        if mv.rating.is_some() || mv.nag_count > 0 || mv.draw_offer {
            return false;
        }
        let (from, mut to) = text;
        // The bytes held before the move, and from its end on.
        let (before, after) = src.split_at(from, to);
        let start = match (mv.side, self.open_line) {
            (Side::Black, Some(n)) if n == mv.number => {
                if before.last_chunk::<2>() != Some(b", ") {
                    return false;
                }
                from - 2
            }
            (Side::White, None) => {
                // `N. ` (or `N? ` for an unknown start), the number as
                // written canonically.
                let mark = if mv.unknown_number && !self.moved {
                    b'?'
                } else {
                    b'.'
                };
                let n = mv.number;
                let laid_out = if n < 10 {
                    before.last_chunk::<3>() == Some(&[b'0' + n as u8, mark, b' '])
                } else if n < 100 {
                    let (tens, units) = (b'0' + (n / 10) as u8, b'0' + (n % 10) as u8);
                    before.last_chunk::<4>() == Some(&[tens, units, mark, b' '])
                } else {
                    let mut t = Text::default();
                    t.decimal(n);
                    t.push(mark);
                    t.push(b' ');
                    before.ends_with(t.as_bytes())
                };
                if !laid_out {
                    return false;
                }
                from - (decimal_len(n) + 2)
            }
            _ => return false,
        };
        let mut after = after.iter();
        if mv.end {
            if after.next() != Some(&b':') {
                return false;
            }
            to += 1;
        }
        if mv.side == Side::Black {
            if after.next() != Some(&b'\n') {
                return false;
            }
            to += 1;
        }
        self.copy(start, to, true, ascii, src);
        self.moved = true;
        self.open_line = (mv.side == Side::White).then_some(mv.number);
        true
    }

    pub fn tag(&mut self, tag: &Tag<'_>) {
        debug_assert!(self.settled(false));
        if tag.name == "Result" {
            let at = self.head.len() + "[Result \"".len();
            self.result_tag = Some(at..at + tag.value.len());
        }
        write_tag(&mut self.head, tag.name.as_bytes(), tag.value.as_bytes());
    }

    pub fn fix_result_tag(&mut self, result: Outcome) {
        debug_assert!(self.settled(false));
        if let Some(r) = self.result_tag.take() {
            self.head.splice(r, result.as_str().bytes());
        }
    }

    pub fn setup(&mut self, pdtl: &Pdtl) {
        debug_assert!(self.settled(false));
        self.head.extend_from_slice(b"[PDTL \"");
        pdtl.write_to(&mut self.head);
        self.head.extend_from_slice(b"\"]\n");
    }

    fn close_line(&mut self) {
        if self.open_line.take().is_some() {
            self.body.mem.push(b'\n');
        }
    }

    #[inline]
    pub fn half_move(&mut self, mv: &HalfMove, depth: u32, text: Option<&[u8]>) {
        debug_assert!(self.settled(true));
        if depth > 0 {
            return self.variation_move(mv, depth, text);
        }
        let mut t = Text::default();
        self.lay_main_line_move(&mut t, mv.number, mv.side, mv.unknown_number);
        lay_half_move(&mut t, mv, text);
        self.lay_main_line_move_done(&mut t, mv.side);
        Self::push_moves(self.typographic, &mut self.body.mem, t.as_bytes());
    }

    /// What goes before a main-line half-move: the end of the line open
    /// but for Black's move after White's, its number.
    #[inline]
    fn lay_main_line_move(&mut self, t: &mut Text, number: u32, side: Side, unknown: bool) {
        // `N?` marks a game's first move line only: the reader accepts it nowhere else.
        let mark = if unknown && !self.moved { b'?' } else { b'.' };
        self.moved = true;
        if side == Side::Black && self.open_line == Some(number) {
            t.push_str(", ");
            return;
        }
        if self.open_line.take().is_some() {
            t.push(b'\n');
        }
        t.decimal(number);
        t.push(mark);
        t.push(b' ');
        match side {
            Side::White => self.open_line = Some(number),
            Side::Black => {
                t.push_str(self.ellipsis());
                t.push_str(", ");
            }
        }
    }

    /// Black's move ends its line.
    #[inline]
    fn lay_main_line_move_done(&mut self, t: &mut Text, side: Side) {
        if side == Side::Black {
            t.push(b'\n');
            self.open_line = None;
        }
    }

    /// Inside a variation at `depth`: a White move and the Black reply
    /// that follows it stay together (`N. WHITE, BLACK`); anything else
    /// starts with its number (`N. ..., BLACK`) and `depth` dots.
    fn variation_move(&mut self, mv: &HalfMove, depth: u32, text: Option<&[u8]>) {
        if mv.side == Side::White || self.open_pair != Some(mv.number) {
            self.item(depth);
            let ellipsis = self.ellipsis();
            let v = &mut self.variation.mem;
            push_decimal(v, u64::from(mv.number));
            v.extend_from_slice(b". ");
            if mv.side == Side::Black {
                v.extend_from_slice(ellipsis.as_bytes());
                v.extend_from_slice(b", ");
            }
        } else {
            self.variation.mem.extend_from_slice(b", ");
        }
        let mut t = Text::default();
        lay_half_move(&mut t, mv, text);
        Self::push_moves(self.typographic, &mut self.variation.mem, t.as_bytes());
        self.open_pair = (mv.side == Side::White).then_some(mv.number);
    }

    /// Starts an item (a move number, a nested `(`, a comment) inside the
    /// variation at `depth`: after a blank, or at a line's start, then the
    /// dots that show the depth; right after the `(`, nothing.
    fn item(&mut self, depth: u32) {
        let v = &mut self.variation;
        if std::mem::take(&mut self.just_opened) {
            if v.last() == Some(b']') {
                v.mem.push(b' ');
            }
            return;
        }
        if v.last() != Some(b'\n') {
            v.mem.push(b' ');
        }
        self.variation_dots.push((v.len(), depth));
    }

    pub fn variation(&mut self, edge: Variation, depth: u32) {
        debug_assert!(self.settled(true));
        match edge {
            Variation::Open { label } => {
                if depth == 1 {
                    self.close_line();
                } else {
                    self.item(depth - 1);
                }
                let v = &mut self.variation.mem;
                v.push(b'(');
                if let Some(l) = label {
                    v.extend_from_slice(b"$[");
                    push_decimal(v, u64::from(l));
                    v.push(b']');
                }
                self.just_opened = true;
            }
            Variation::Close => {
                self.variation.mem.push(b')');
                if depth == 1 {
                    let base = self.body.len();
                    let dots = self.variation_dots.drain(..);
                    self.dots.extend(dots.map(|(at, n)| (base + at, n)));
                    self.body.append(&mut self.variation);
                    self.body.mem.push(b'\n');
                }
                self.just_opened = false;
            }
        }
        self.open_pair = None;
    }

    /// A comment: on lines of its own, `{` first and `}` last; inside a
    /// variation, after the dots of its depth.
    pub fn comment(&mut self, text: &[u8], depth: u32, after_result: bool) {
        self.comment_open(depth, after_result);
        self.comment_piece(text);
        self.comment_close();
    }

    /// A comment opens: its text comes in pieces ([`CtlPgn::comment_piece`]).
    pub fn comment_open(&mut self, depth: u32, after_result: bool) {
        debug_assert!(self.settled(true));
        self.comment_in = if depth > 0 {
            let v = &mut self.variation;
            if v.last() != Some(b'\n') {
                v.mem.push(b'\n');
            }
            self.variation_dots.push((v.len(), depth));
            self.just_opened = false;
            self.open_pair = None;
            CommentIn::Variation
        } else {
            self.close_line();
            if after_result {
                CommentIn::Tail
            } else {
                CommentIn::Body
            }
        };
        self.comment_held().mem.push(b'{');
    }

    pub fn comment_piece(&mut self, text: &[u8]) {
        self.comment_held().push(text);
    }

    pub fn comment_close(&mut self) {
        self.comment_held().mem.extend_from_slice(b"}\n");
    }

    fn comment_held(&mut self) -> &mut Held {
        match self.comment_in {
            CommentIn::Body => &mut self.body,
            CommentIn::Tail => &mut self.tail,
            CommentIn::Variation => &mut self.variation,
        }
    }

    pub fn finish(&mut self, result: Outcome, out: &mut dyn Write) -> io::Result<()> {
        debug_assert!(self.copy.is_none());
        self.close_line();
        self.body.mem.extend_from_slice(result.as_str().as_bytes());
        self.body.mem.push(b'\n');
        self.body.append(&mut self.tail);
        self.body.mem.push(b'\n');
        // A spill that failed: nothing of the game is written.
        self.body.check()?;
        // Few writes a game: the buffers are the game's, and begin() clears them.
        self.head.push(b'\n');
        out.write_all(&self.head)?;
        let mut from = 0;
        for &(at, n) in &self.dots {
            self.body.write_range(out, from, at)?;
            write_dots(n, out)?;
            from = at;
        }
        let end = self.body.len();
        self.body.write_range(out, from, end)
    }
}

/// The move (its text as read, when the reader has it), then what is
/// written after it.
#[inline]
fn lay_half_move(t: &mut Text, mv: &HalfMove, text: Option<&[u8]>) {
    match text {
        Some(text) => t.push_slice(text),
        None => mv.lay_move(t),
    }
    mv.lay_annotations(t);
}

/// How many digits `n` is written with.
#[inline(always)]
fn decimal_len(n: u32) -> u64 {
    match n {
        0..=9 => 1,
        10..=99 => 2,
        _ => u64::from(n.ilog10()) + 1,
    }
}

fn write_dots(n: u32, out: &mut dyn Write) -> io::Result<()> {
    const DOTS: [u8; 64] = [b'.'; 64];
    let mut n = n as usize;
    while n > 0 {
        let k = n.min(DOTS.len());
        out.write_all(&DOTS[..k])?;
        n -= k;
    }
    Ok(())
}
