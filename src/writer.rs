//! The writer of canonical CTL-PGN: what survives the passes, laid out one
//! way only. A game is built in memory and written whole, so that a game
//! rejected half-way leaves nothing behind.

use crate::model::{HalfMove, Outcome, Side};
use crate::pass::{Tag, Variation};
use crate::pdtl::Pdtl;
use std::io::{self, Write};

/// Buffers of the game being written; reused from game to game.
#[derive(Debug, Default)]
pub(crate) struct Writer {
    /// Tag lines, except `Variant`, which is always written first.
    head: Vec<u8>,
    /// Movetext lines, and kept comments and variations between them.
    body: Vec<u8>,
    /// Kept comments after the result.
    tail: Vec<u8>,
    /// Number of the move line still open (White moved, Black not yet).
    open_line: Option<u32>,
    /// Text of the variation being kept, from its outermost `(`.
    variation: Vec<u8>,
    /// Inside a kept variation: the last item was a White half-move.
    after_white: bool,
    /// Inside a kept variation: a move number waits for its half-move.
    number: Option<u32>,
}

impl Writer {
    pub fn begin(&mut self) {
        self.head.clear();
        self.body.clear();
        self.tail.clear();
        self.variation.clear();
        self.open_line = None;
        self.after_white = false;
        self.number = None;
    }

    pub fn tag(&mut self, tag: &Tag<'_>) {
        if tag.name == "Variant" {
            return;
        }
        write_tag(&mut self.head, tag.name.as_bytes(), tag.value.as_bytes());
    }

    pub fn setup(&mut self, pdtl: &Pdtl) {
        self.head.extend_from_slice(b"[PDTL \"");
        pdtl.write_to(&mut self.head);
        self.head.extend_from_slice(b"\"]\n");
    }

    fn close_line(&mut self) {
        if self.open_line.take().is_some() {
            self.body.push(b'\n');
        }
    }

    pub fn half_move(&mut self, mv: &HalfMove, depth: u32) {
        if depth > 0 {
            return self.variation_move(mv);
        }
        let mark = if mv.unknown_number { b'?' } else { b'.' };
        match mv.side {
            Side::White => {
                self.close_line();
                crate::hex::push_decimal(&mut self.body, u64::from(mv.number));
                self.body.extend_from_slice(&[mark, b' ']);
                self.open_line = Some(mv.number);
            }
            Side::Black if self.open_line == Some(mv.number) => {
                self.body.extend_from_slice(b", ");
            }
            Side::Black => {
                self.close_line();
                crate::hex::push_decimal(&mut self.body, u64::from(mv.number));
                self.body.extend_from_slice(&[mark, b' ']);
                self.body.extend_from_slice(b"..., ");
            }
        }
        mv.write_move(&mut self.body);
        mv.write_annotations(&mut self.body);
        mv.write_indicators(&mut self.body);
        if mv.side == Side::Black {
            self.open_line = Some(0);
            self.close_line();
        }
    }

    fn variation_move(&mut self, mv: &HalfMove) {
        let v = &mut self.variation;
        if let Some(n) = self.number.take() {
            space(v);
            crate::hex::push_decimal(v, u64::from(n));
            v.extend_from_slice(if mv.unknown_number { b"? " } else { b". " });
            if mv.side == Side::Black {
                v.extend_from_slice(b"..., ");
            }
        } else if mv.side == Side::Black && self.after_white {
            v.extend_from_slice(b", ");
        } else {
            space(v);
        }
        mv.write_move(v);
        mv.write_annotations(v);
        mv.write_indicators(v);
        self.after_white = mv.side == Side::White;
    }

    pub fn variation_number(&mut self, number: u32) {
        self.number = Some(number);
    }

    pub fn variation(&mut self, edge: Variation, depth: u32) {
        match edge {
            Variation::Open { label } => {
                if depth == 1 {
                    self.close_line();
                } else {
                    space(&mut self.variation);
                }
                self.variation.push(b'(');
                if let Some(l) = label {
                    self.variation.extend_from_slice(b"$[");
                    crate::hex::push_decimal(&mut self.variation, u64::from(l));
                    self.variation.extend_from_slice(b"]");
                }
            }
            Variation::Close => {
                self.variation.push(b')');
                if depth == 1 {
                    self.body.append(&mut self.variation);
                    self.body.push(b'\n');
                }
            }
        }
        self.after_white = false;
        self.number = None;
    }

    pub fn comment(&mut self, text: &[u8], depth: u32, after_result: bool) {
        if depth > 0 {
            space(&mut self.variation);
            self.variation.push(b'{');
            self.variation.extend_from_slice(text);
            self.variation.push(b'}');
            return;
        }
        self.close_line();
        let out = if after_result {
            &mut self.tail
        } else {
            &mut self.body
        };
        out.push(b'{');
        out.extend_from_slice(text);
        out.extend_from_slice(b"}\n");
    }

    /// Writes the whole game to `out`.
    pub fn finish(&mut self, result: Outcome, out: &mut dyn Write) -> io::Result<()> {
        self.close_line();
        out.write_all(b"[Variant \"C'escacs\"]\n")?;
        out.write_all(&self.head)?;
        out.write_all(b"\n")?;
        out.write_all(&self.body)?;
        out.write_all(result.as_str().as_bytes())?;
        out.write_all(b"\n")?;
        out.write_all(&self.tail)?;
        out.write_all(b"\n")
    }
}

fn space(v: &mut Vec<u8>) {
    if !matches!(v.last(), None | Some(b'(') | Some(b' ')) {
        v.push(b' ');
    }
}

fn write_tag(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.push(b'[');
    out.extend_from_slice(name);
    out.extend_from_slice(b" \"");
    out.extend_from_slice(value);
    out.extend_from_slice(b"\"]\n");
}
