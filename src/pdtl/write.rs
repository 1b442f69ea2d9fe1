//! Writing a PDTL in the spec's canonical form: [`Pdtl::write_to`] and
//! `Display`, for the whole value and for its en passant field.

use super::{CastleMark, EnPassant, Pdtl, Piece};
use crate::grammar::hex::push_decimal;
use crate::grammar::model::Side;
use std::fmt;

impl fmt::Display for EnPassant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Vec::with_capacity(10);
        self.write_to(&mut out);
        f.write_str(&String::from_utf8_lossy(&out))
    }
}

impl EnPassant {
    /// Appends the field as the writer writes it.
    fn write_to(self, out: &mut Vec<u8>) {
        match self {
            EnPassant::None => out.push(b'-'),
            EnPassant::Scornful(h) => h.write_to(out),
            EnPassant::Double(h, l) => {
                h.write_to(out);
                out.push(b'@');
                push_decimal(out, u64::from(l));
            }
            EnPassant::Triple(h, l1, l2) => {
                h.write_to(out);
                out.push(b'@');
                push_decimal(out, u64::from(l1));
                out.push(b'-');
                push_decimal(out, u64::from(l2));
            }
        }
    }
}

impl Pdtl {
    /// Appends the canonical PDTL text.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        match &self.board_as_read {
            Some(text) => out.extend_from_slice(text),
            None => self.lay_board(out),
        }
        self.write_fields(out);
    }

    /// The board's lines, laid out from its cells.
    pub(super) fn lay_board(&self, out: &mut Vec<u8>) {
        out.push(b'/');
        for line in (0..=28u8).rev() {
            // A line without a piece is left out: written, then taken back.
            let label = out.len();
            push_decimal(out, u64::from(line));
            out.push(b':');
            let mut empty = 0u64;
            let mut pieces = false;
            for cell in self.board.line(line) {
                match *cell {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            push_decimal(out, empty);
                            empty = 0;
                        }
                        write_piece(p, out);
                        pieces = true;
                    }
                }
            }
            if !pieces {
                out.truncate(label);
                continue;
            }
            if empty > 0 {
                push_decimal(out, empty);
            }
            out.push(b'/');
        }
    }

    /// The fields after the board, from the space before the turn.
    fn write_fields(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(match self.turn {
            Side::White => b" w ",
            Side::Black => b" b ",
        });
        for m in self.castling() {
            match *m {
                CastleMark::Piece(p) => write_piece(p, out),
                CastleMark::Moved => out.push(b'-'),
            }
        }
        out.push(b' ');
        self.en_passant.write_to(out);
        out.push(b' ');
        push_decimal(out, u64::from(self.halfmove));
        out.push(b' ');
        match self.number {
            Some(n) => push_decimal(out, u64::from(n)),
            None => out.push(b'?'),
        }
    }
}

/// The canonical PDTL text ([`Pdtl::write_to`]).
///
/// ```
/// use ctlpgn_filter::Pdtl;
/// let p = Pdtl::parse("/27:1K/1:Dk/ w - - 0 1").unwrap();
/// assert_eq!(Pdtl::parse(&p.to_string()).unwrap(), p);
/// ```
impl fmt::Display for Pdtl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::new();
        self.write_to(&mut text);
        // ASCII, or a figurine's UTF-8 where no pass turned it to a letter.
        f.write_str(&String::from_utf8_lossy(&text))
    }
}

fn write_piece(p: Piece, out: &mut Vec<u8>) {
    match p.glyph.fan {
        Some(_) => p.glyph.write_to(out),
        None if p.side == Side::Black => out.push(p.glyph.letter.to_ascii_lowercase()),
        None => out.push(p.glyph.letter),
    }
}
