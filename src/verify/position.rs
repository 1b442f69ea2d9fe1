//! [`Position`]: the pieces on the board and what a PDTL records, read
//! from a PDTL (with the castling claims the board contradicts), asked
//! about, and written back as one. Playing a half-move is `play.rs`.

use super::castling::{
    home, side_marks, unmoved_from_marks, Unmoved, KING_HOME, KING_ROOK_HOME, QUEEN_ROOK_HOME,
};
use super::messages::describe;
use super::rules::{standard, KING, ROOK};
use crate::grammar::hex::Hex;
use crate::grammar::model::{Glyph, Side};
use crate::pdtl::{Board, CastleMark, EnPassant, Pdtl, Piece};
use std::fmt;
use std::sync::OnceLock;

/// The spec's initial setup, as a PDTL.
pub const INITIAL_PDTL: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1";

/// A position: the pieces on the 169 hexes and everything a PDTL records.
///
/// Built from the initial setup ([`Position::initial`]) or a PDTL
/// ([`Position::from_pdtl`]), advanced one half-move at a time by
/// [`Position::play`], written back as a PDTL by [`Position::to_pdtl`] or
/// `to_string()`.
///
/// ```
/// use ctlpgn_filter::{Hex, Position, Side};
/// let p = Position::initial();
/// assert_eq!(p.turn(), Side::White);
/// assert_eq!(p.piece(Hex::parse(b"G1").unwrap()).unwrap().glyph.letter, b'K');
/// assert!(p.to_string().starts_with("/28:v/27:dk/"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(super) board: Board,
    pub(super) turn: Side,
    pub(super) unmoved: [Unmoved; 2],
    pub(super) en_passant: EnPassant,
    pub(super) halfmove: u32,
    pub(super) number: Option<u32>,
    /// A move was numbered `N?`: the real move number is unknown from then on.
    pub(super) relative_numbering: bool,
}

impl Default for Position {
    fn default() -> Position {
        Position::initial()
    }
}

impl Position {
    /// The spec's initial setup, White to move.
    pub fn initial() -> Position {
        static INITIAL: OnceLock<Position> = OnceLock::new();
        INITIAL
            .get_or_init(|| {
                Position::from_pdtl(&Pdtl::parse(INITIAL_PDTL).expect("the initial setup parses"))
            })
            .clone()
    }

    /// The position a PDTL describes. Alternative letters and figurines
    /// become standard letters; a castling field that leaves a side out
    /// means that side's king has moved. A king or rook the castling field
    /// says has not moved, and that does not stand on its home hex, is
    /// read as moved ([`Position::from_pdtl_with_warnings`] says which).
    pub fn from_pdtl(pdtl: &Pdtl) -> Position {
        Position::from_pdtl_with_warnings(pdtl).0
    }

    /// [`Position::from_pdtl`], and a warning for each claim of the
    /// castling field that the board contradicts, naming the hex: what the
    /// board contradicts, and how the field is read.
    ///
    /// ```
    /// use ctlpgn_filter::{Pdtl, Position};
    /// // The rook on C3 is the queen's rook: the field should say RK.
    /// let pdtl = Pdtl::parse("/27:1k/3:R3/1:DK/ w KR - 0 20").unwrap();
    /// let (p, warnings) = Position::from_pdtl_with_warnings(&pdtl);
    /// assert_eq!(
    ///     warnings,
    ///     [(
    ///         "PDTL castling field KR says White's king's rook has not moved, but I3, its home hex, is empty".to_string(),
    ///         "read as K (RK, the queen's rook on C3, fits the board)".to_string()
    ///     )]
    /// );
    /// assert!(p.to_string().ends_with(" w K- - 0 20"));
    /// ```
    pub fn from_pdtl_with_warnings(pdtl: &Pdtl) -> (Position, Vec<(String, String)>) {
        let mut board = Board::default();
        for (hex, piece) in pdtl.pieces() {
            board[hex] = Some(Piece {
                glyph: Glyph::letter(standard(piece.glyph)),
                side: piece.side,
            });
        }
        let mut position = Position {
            board,
            turn: pdtl.turn,
            unmoved: unmoved_from_marks(pdtl.castling()),
            en_passant: pdtl.en_passant,
            halfmove: pdtl.halfmove,
            number: pdtl.number,
            relative_numbering: false,
        };
        let warnings = position.drop_contradicted_claims(pdtl.castling());
        (position, warnings)
    }

    /// Forgets what the castling field (`marks`) says has not moved and
    /// does not stand at home, and says so.
    fn drop_contradicted_claims(&mut self, marks: &[CastleMark]) -> Vec<(String, String)> {
        let field: String = marks
            .iter()
            .map(|m| match m {
                CastleMark::Moved => '-',
                CastleMark::Piece(p) if p.side == Side::Black => {
                    standard(p.glyph).to_ascii_lowercase() as char
                }
                CastleMark::Piece(p) => standard(p.glyph) as char,
            })
            .collect();
        let mut warnings = Vec::new();
        for side in [Side::White, Side::Black] {
            let u = self.unmoved[side as usize];
            let own = |hex: Hex, kind: u8| {
                self.board[hex].is_some_and(|p| p.side == side && p.glyph.letter == kind)
            };
            let holds = |hex: Hex| match self.board[hex] {
                Some(p) => format!("holds {}", describe(p)),
                None => "is empty".to_string(),
            };
            let king = home(KING_HOME, side);
            if u.king && !own(king, KING) {
                warnings.push((
                    format!(
                        "PDTL castling field {field} says {side}'s king has not moved, but {king}, its home hex, {}",
                        holds(king)
                    ),
                    format!("read as {}", side_marks(Unmoved::default(), side)),
                ));
                self.unmoved[side as usize] = Unmoved::default();
                continue;
            }
            let rooks = [
                (u.queen_rook, QUEEN_ROOK_HOME, "queen's"),
                (u.king_rook, KING_ROOK_HOME, "king's"),
            ];
            let mut kept = u;
            let mut faults = Vec::new();
            for (i, &(claimed, at, which)) in rooks.iter().enumerate() {
                let hex = home(at, side);
                if !claimed || own(hex, ROOK) {
                    continue;
                }
                if i == 0 {
                    kept.queen_rook = false;
                } else {
                    kept.king_rook = false;
                }
                // The other rook at home and unclaimed: the marks swapped.
                let (other_claimed, other_at, other_which) = rooks[1 - i];
                let other = home(other_at, side);
                let hint = if !other_claimed && own(other, ROOK) {
                    let mut swapped = u;
                    (swapped.queen_rook, swapped.king_rook) = (u.king_rook, u.queen_rook);
                    format!(
                        " ({}, the {other_which} rook on {other}, fits the board)",
                        side_marks(swapped, side)
                    )
                } else {
                    String::new()
                };
                faults.push((which, hex, hint));
            }
            for (which, hex, hint) in faults {
                warnings.push((
                    format!(
                        "PDTL castling field {field} says {side}'s {which} rook has not moved, but {hex}, its home hex, {}",
                        holds(hex)
                    ),
                    format!("read as {}{hint}", side_marks(kept, side)),
                ));
            }
            self.unmoved[side as usize] = kept;
        }
        warnings
    }

    /// The same pieces on the same hexes, and the same side to move
    /// (`--reaches`): castling, en passant and the clocks aside.
    pub(crate) fn same_placement(&self, other: &Position) -> bool {
        self.turn == other.turn && self.board == other.board
    }

    /// The piece on `hex`, if any (standard letter, no figurine).
    pub fn piece(&self, hex: Hex) -> Option<Piece> {
        self.board[hex]
    }

    /// Every occupied hex and its piece, line by line from line 0.
    pub fn pieces(&self) -> impl Iterator<Item = (Hex, Piece)> + '_ {
        self.board.pieces()
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// The en passant field: what a pawn's double or triple move along its
    /// column left to take on the next half-move.
    pub fn en_passant(&self) -> EnPassant {
        self.en_passant
    }

    /// Half-moves since the last pawn move or capture.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The number of the move in progress; `None` when unknown (a PDTL
    /// with `?`, or moves numbered `N?`).
    pub fn number(&self) -> Option<u32> {
        self.number
    }

    /// This position as a PDTL: the castling field says which kings and
    /// rooks have never left home; the en passant field records a pawn's
    /// double or triple move along its column on the last half-move, or
    /// its scornful move (a step to a neighbouring column and line away
    /// from an opponent's pawn that faced it on its column: the hex it
    /// stepped to), or what the game's PDTL recorded if no half-move was
    /// played.
    pub fn to_pdtl(&self) -> Pdtl {
        let mut marks = Vec::with_capacity(6);
        for side in [Side::White, Side::Black] {
            let u = self.unmoved[side as usize];
            let mark = |letter| {
                CastleMark::Piece(Piece {
                    glyph: Glyph::letter(letter),
                    side,
                })
            };
            if !u.king {
                marks.push(CastleMark::Moved);
                continue;
            }
            if u.queen_rook {
                marks.push(mark(ROOK));
            }
            marks.push(mark(KING));
            if u.king_rook {
                marks.push(mark(ROOK));
            }
        }
        Pdtl::from_parts(
            self.pieces(),
            self.turn,
            &marks,
            self.en_passant,
            self.halfmove,
            self.number,
        )
    }
}

/// Writes the PDTL text.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Vec::with_capacity(128);
        self.to_pdtl().write_to(&mut out);
        f.write_str(&String::from_utf8_lossy(&out))
    }
}
