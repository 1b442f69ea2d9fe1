//! PDTL, Position Description by Transversal Lines: the `PDTL` tag's value.
//!
//! `/28:v/27:dk/.../0:V/ w RKRrkr - 0 1`: pieces line by line from 28 down,
//! turn, castling state, en passant / scornful hex, halfmove clock, move number.

mod parse;
#[cfg(test)]
mod tests;
mod write;

use crate::diag::Pos;
use crate::grammar::hex::Hex;
use crate::grammar::model::{Glyph, Side};
use std::fmt;

/// A piece on the board: its glyph as written and its colour.
///
/// ```
/// use ctlpgn_filter::{Hex, Pdtl, Side};
/// let p = Pdtl::parse("/27:1K/1:Dk/ w - - 0 1").unwrap();
/// let king = p.piece(Hex::parse(b"G1").unwrap()).unwrap();
/// assert_eq!((king.glyph.letter, king.side), (b'K', Side::Black));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Letter or figurine.
    pub glyph: Glyph,
    /// Colour (upper case or white figurine is White).
    pub side: Side,
}

/// What stands on each of the 169 hexes, indexed by [`Hex`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board([Option<Piece>; Hex::COUNT]);

impl Default for Board {
    fn default() -> Board {
        Board([None; Hex::COUNT])
    }
}

impl Board {
    /// The contents of a cross-line's hexes, in column order.
    #[inline]
    pub(super) fn line(&self, line: u8) -> &[Option<Piece>] {
        &self.0[Hex::line_indices(line)]
    }

    /// The cells of line `line`, in column order, to set.
    #[inline]
    pub(super) fn line_mut(&mut self, line: u8) -> &mut [Option<Piece>] {
        &mut self.0[Hex::line_indices(line)]
    }

    /// Every occupied hex and its piece, line by line from line 0.
    pub fn pieces(&self) -> impl Iterator<Item = (Hex, Piece)> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (Hex::from_index(i), p)))
    }

    /// Every hex's content, for rewriting in place.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Option<Piece>> {
        self.0.iter_mut()
    }
}

impl std::ops::Index<Hex> for Board {
    type Output = Option<Piece>;
    #[inline]
    fn index(&self, hex: Hex) -> &Option<Piece> {
        &self.0[hex.index()]
    }
}

impl std::ops::IndexMut<Hex> for Board {
    #[inline]
    fn index_mut(&mut self, hex: Hex) -> &mut Option<Piece> {
        &mut self.0[hex.index()]
    }
}

/// One mark of the castling field: a piece letter, or a dash.
///
/// ```
/// use ctlpgn_filter::{CastleMark, Pdtl};
/// let p = Pdtl::parse("/27:1k/1:DK/ w K- - 0 1").unwrap();
/// assert!(matches!(p.castling(), [CastleMark::Piece(_), CastleMark::Moved]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastleMark {
    /// `R`, `K`, `r`, `k` (or an alternative letter, or a figurine).
    Piece(Piece),
    /// `-` (or U+2010): that side's king has moved.
    Moved,
}

impl CastleMark {
    /// A dash, or a standard letter.
    pub(super) fn is_standard(&self) -> bool {
        match self {
            CastleMark::Piece(p) => p.glyph.is_standard_letter(),
            CastleMark::Moved => true,
        }
    }
}

/// The en passant / scornful pawn field.
///
/// ```
/// use ctlpgn_filter::{EnPassant, Hex, Pdtl};
/// let p = Pdtl::parse("/27:1k/1:DK/ b - G13@9-11 0 1").unwrap();
/// assert_eq!(p.en_passant, EnPassant::Triple(Hex::parse(b"G13").unwrap(), 9, 11));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnPassant {
    /// `-`
    None,
    /// `F14`: a scornful pawn that may be taken.
    Scornful(Hex),
    /// `G15@13`: a pawn after a double move, capturable on that line.
    Double(Hex, u8),
    /// `G13@9-11`: a pawn after a triple move, capturable on both lines.
    Triple(Hex, u8, u8),
}

/// A parsed PDTL.
///
/// ```
/// use ctlpgn_filter::{Pdtl, Side};
/// // The spec's continuation example: five fields, no move number.
/// let p = Pdtl::parse("/27:1k/1:DK/0:V/ b KRrkr - 2").unwrap();
/// assert_eq!((p.turn, p.halfmove, p.number), (Side::Black, 2, None));
/// let mut out = Vec::new();
/// p.write_to(&mut out);
/// assert_eq!(out, b"/27:1k/1:DK/0:V/ b KRrkr - 2 ?");
/// ```
#[derive(Clone, Debug)]
pub struct Pdtl {
    pub(super) board: Board,
    /// Every glyph is a standard letter (no alternative letter, no
    /// figurine), as parsed or made: the passes that rewrite glyphs then
    /// have nothing to look at. [`Pdtl::glyphs_mut`] clears it; not part of
    /// equality.
    pub(super) standard_glyphs: bool,
    /// The board's text as read (up to the space before the turn), when it
    /// is what [`Pdtl::write_to`] writes: then copied, not laid out again.
    /// [`Pdtl::glyphs_mut`] clears it; not part of equality.
    pub(super) board_as_read: Option<Box<[u8]>>,
    /// Side to move.
    pub turn: Side,
    pub(super) castling: [CastleMark; 6],
    pub(super) castling_len: u8,
    /// En passant / scornful field.
    pub en_passant: EnPassant,
    /// Halfmove clock.
    pub halfmove: u32,
    /// Move number; `None` when written `?` or missing.
    pub number: Option<u32>,
    /// Where the tag is in the input.
    pub pos: Pos,
}

impl PartialEq for Pdtl {
    fn eq(&self, other: &Pdtl) -> bool {
        self.board == other.board
            && self.turn == other.turn
            && self.castling() == other.castling()
            && self.en_passant == other.en_passant
            && self.halfmove == other.halfmove
            && self.number == other.number
            && self.pos == other.pos
    }
}

impl Eq for Pdtl {}

/// A fault in a PDTL value: byte offset into the value, and what is wrong.
///
/// ```
/// use ctlpgn_filter::Pdtl;
/// let e = Pdtl::parse("/22:2pjp/ w - - 0 1").unwrap_err();
/// assert_eq!(e.to_string(), "PDTL: line 22 has 7 hexes, but 5 are described");
/// assert_eq!(e.offset, 8);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdtlError {
    /// Byte offset into the tag value.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PdtlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PDTL: {}", self.message)
    }
}

/// A form the spec does not write, read all the same and normalised (see
/// [`Pdtl::parse_with_warnings`]): byte offset into the tag value, and what
/// was read and how it is written.
///
/// ```
/// use ctlpgn_filter::Pdtl;
/// let (_, warnings) = Pdtl::parse_with_warnings("/27:1k/1:DK/ w KR -").unwrap();
/// assert_eq!(warnings[0].offset, 19);
/// assert_eq!(
///     warnings[0].to_string(),
///     "PDTL: no halfmove clock and no move number (four fields, as the author's program saves them): written 0 ?"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdtlWarning {
    /// Byte offset into the tag value.
    pub offset: usize,
    /// What was found.
    pub message: String,
    /// How it is written.
    pub fix: String,
}

impl fmt::Display for PdtlWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PDTL: {}: {}", self.message, self.fix)
    }
}

impl Pdtl {
    /// A PDTL made from its parts rather than parsed, e.g. to write a
    /// position reached by play; `line` and `column` are 0 (no tag).
    ///
    /// # Panics
    /// If `castling` is empty or holds more than six marks: the castling
    /// field is `RKRrkr` at most and `-` at least.
    pub fn from_parts(
        pieces: impl IntoIterator<Item = (Hex, Piece)>,
        turn: Side,
        castling: &[CastleMark],
        en_passant: EnPassant,
        halfmove: u32,
        number: Option<u32>,
    ) -> Pdtl {
        assert!(
            (1..=6).contains(&castling.len()),
            "a castling field has one to six marks, not {}",
            castling.len()
        );
        let mut board = Board::default();
        let mut standard_glyphs = castling.iter().all(CastleMark::is_standard);
        for (hex, piece) in pieces {
            standard_glyphs &= piece.glyph.is_standard_letter();
            board[hex] = Some(piece);
        }
        let mut marks = [CastleMark::Moved; 6];
        marks[..castling.len()].copy_from_slice(castling);
        Pdtl {
            board,
            standard_glyphs,
            board_as_read: None,
            turn,
            castling: marks,
            castling_len: castling.len() as u8,
            en_passant,
            halfmove,
            number,
            pos: Pos::default(),
        }
    }

    /// The piece on `hex`, if any.
    pub fn piece(&self, hex: Hex) -> Option<Piece> {
        self.board[hex]
    }

    /// Every occupied hex and its piece.
    pub fn pieces(&self) -> impl Iterator<Item = (Hex, Piece)> + '_ {
        self.board.pieces()
    }

    /// The castling field's marks.
    pub fn castling(&self) -> &[CastleMark] {
        &self.castling[..self.castling_len as usize]
    }

    /// Is every glyph a standard letter, as parsed or made (none has been
    /// handed out to rewrite since)?
    #[inline]
    pub(crate) fn has_standard_glyphs(&self) -> bool {
        self.standard_glyphs
    }

    /// Every glyph (board and castling field), for passes that rewrite letters.
    pub fn glyphs_mut(&mut self) -> impl Iterator<Item = &mut Glyph> {
        self.standard_glyphs = false;
        self.board_as_read = None;
        let n = self.castling_len as usize;
        self.board
            .iter_mut()
            .filter_map(|p| p.as_mut().map(|p| &mut p.glyph))
            .chain(self.castling[..n].iter_mut().filter_map(|m| match m {
                CastleMark::Piece(p) => Some(&mut p.glyph),
                CastleMark::Moved => None,
            }))
    }
}
