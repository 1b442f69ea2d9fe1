//! The pieces as the rules know them: the kinds a move names, by their
//! standard letters, and a pawn's column: its runs and its last hex.

use super::messages::Incoherence;
use crate::grammar::alphabet::{is_standard_letter, piece_meant};
use crate::grammar::hex::Hex;
use crate::grammar::model::{Glyph, Side};
use crate::pdtl::EnPassant;

pub(super) const PAWN: u8 = b'P';
pub(super) const ROOK: u8 = b'R';
pub(super) const KING: u8 = b'K';

/// The standard letter of a glyph (alternative letters mapped, in case the
/// redefine pass was left out).
#[inline]
pub(super) fn standard(g: Glyph) -> u8 {
    piece_meant(g.letter)
}

/// The kind a move names: a pawn when no letter is written.
#[inline]
pub(super) fn kind_of(g: Option<Glyph>) -> Result<u8, Incoherence> {
    let kind = g.map_or(PAWN, standard);
    if is_standard_letter(kind) {
        Ok(kind)
    } else {
        Err(not_a_piece_letter(kind))
    }
}

#[cold]
fn not_a_piece_letter(kind: u8) -> Incoherence {
    Incoherence::new(format!("{} is not a piece letter", kind as char))
}

pub(super) fn promoted_kind(g: Glyph) -> Result<u8, Incoherence> {
    match kind_of(Some(g))? {
        PAWN | KING => Err(Incoherence::new("a pawn promotes to E, J, N, G, R, V or D")),
        k => Ok(k),
    }
}

/// The en passant field a pawn's plain move leaves: its double or triple
/// move along its column, lines in ascending order.
pub(super) fn column_run(from: Hex, to: Hex) -> EnPassant {
    if from.column() != to.column() {
        return EnPassant::None;
    }
    let (lo, hi) = (from.line().min(to.line()), from.line().max(to.line()));
    match hi - lo {
        4 => EnPassant::Double(to, lo + 2),
        6 => EnPassant::Triple(to, lo + 2, lo + 4),
        _ => EnPassant::None,
    }
}

/// The last hex of `hex`'s column for `side`: the highest line for White,
/// the lowest for Black.
pub(super) fn last_hex(hex: Hex, side: Side) -> Hex {
    let first_line = hex.column_index().abs_diff(7) as u32;
    let line = match side {
        Side::White => 28 - first_line,
        Side::Black => first_line,
    };
    Hex::new(hex.column(), line).expect("every column has a first and a last hex")
}

pub(super) fn is_last_hex(hex: Hex, side: Side) -> bool {
    last_hex(hex, side) == hex
}
