//! Algebraic coherence, the check the spec's minimal reader must make:
//! each game's main line is replayed on the 169 hexes, from the initial
//! setup (White to move) or the game's PDTL, and every half-move must find
//! what it names. The first half-move is the side to move's, and its number
//! is the PDTL's (`N.` for a known number, `1?` for `?`), or 1 without a
//! PDTL; the piece it moves stands on its origin; a plain move lands on an
//! empty hex; a capture finds the piece it names; `@` and `@@` are kept for
//! what the last half-move left to take (the PDTL's en passant field): a
//! pawn that passed the destination in a double or triple move (`@@`
//! exactly on the first hex a triple move crossed), or one that made a
//! scornful move to it; a promotion has its pawn on the last hex of the
//! column; castling finds its king and rooks at home and its target hexes
//! free. A PDTL castling field that claims a king or rook away from its
//! home hex is a warning.
//!
//! No rule of play is checked: not how pieces move, not checks or mates,
//! not castling rights, not whether a pawn may really take en passant.
//!
//! ```
//! use ctlpgn_filter::{FilterBuilder, Verify};
//!
//! let game = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n2. G7-E13:\n";
//! let mut filter = FilterBuilder::new().pass(Box::new(Verify::new())).build();
//! let (_, diagnostics, report) = filter.filter_bytes(game.as_bytes());
//! assert_eq!(report.games_rejected, 1);
//! assert_eq!((diagnostics[0].line, diagnostics[0].column), (3, 4));
//! assert_eq!(
//!     diagnostics[0].message,
//!     "move 2 (White) G7-E13: E13 is occupied by a White pawn (P): a move without capture lands on an empty hex"
//! );
//! ```

use crate::diag::{DiagnosticKind, Message, Pos};
use crate::grammar::alphabet::standard_for;
use crate::grammar::hex::Hex;
use crate::grammar::model::{Action, Check, Glyph, HalfMove, Outcome, Sep, Side, STANDARD_LETTERS};
use crate::passes::{Context, Flow, Interest, Pass, Tag};
use crate::pdtl::{Board, CastleMark, EnPassant, Pdtl, Piece};
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// The spec's initial setup, as a PDTL.
pub const INITIAL_PDTL: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1";

const PAWN: u8 = b'P';
const ROOK: u8 = b'R';
const KING: u8 = b'K';

/// White's castlings, from the author's reference program: prefix, suffix,
/// the king's target, the target of the rook the prefix names (the king's
/// rook for KRR), and for KRR the queen's rook's target. Black mirrors the
/// lines (line L becomes 28 - L).
const CASTLINGS: [(&str, &str, &str, &str, Option<&str>); 24] = [
    ("KRK", "II", "I5", "I7", None),
    ("KRK", "IK", "I5", "K4", None),
    ("KRK", "IH", "I5", "H4", None),
    ("KRK", "HIO", "H6", "I5", None),
    ("KRK", "HIOO", "H6", "I7", None),
    ("KRK", "HH", "H6", "H4", None),
    ("KRK", "HG", "H6", "G5", None),
    ("KRK", "FG", "F6", "G5", None),
    ("KRK", "FE", "F6", "E7", None),
    ("KRK", "EF", "E5", "F6", None),
    ("KRK", "EE", "E5", "E7", None),
    ("KRD", "DD", "D2", "D4", None),
    ("KRD", "DE", "D2", "E1", None),
    ("KRD", "HH", "H6", "H8", None),
    ("KRD", "HG", "H6", "G7", None),
    ("KRD", "FG", "F6", "G7", None),
    ("KRD", "FE", "F6", "E5", None),
    ("KRD", "EF", "E5", "F6", None),
    ("KRD", "ED", "E5", "D4", None),
    ("KRR", "HIH", "H6", "I7", Some("H8")),
    ("KRR", "HGG", "H6", "G5", Some("G7")),
    ("KRR", "FGG", "F6", "G5", Some("G7")),
    ("KRR", "FEE", "F6", "E7", Some("E5")),
    ("KRR", "EEF", "E5", "E7", Some("F6")),
];

/// Home hexes on White's side; Black's mirror them.
const KING_HOME: &str = "G1";
const KING_ROOK_HOME: &str = "I3";
const QUEEN_ROOK_HOME: &str = "C3";

/// Why a half-move does not fit the position it is played in.
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, Verify};
/// let mut f = FilterBuilder::new().pass(Box::new(Verify::new())).build();
/// let (_, diags, _) = f.filter_bytes(b"1. E9-E11:\n");
/// assert_eq!(diags[0].message, "move 1 (White) E9-E11: no piece at E9");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoherence {
    message: String,
}

impl Incoherence {
    fn new(message: impl Into<String>) -> Incoherence {
        Incoherence {
            message: message.into(),
        }
    }
}

impl fmt::Display for Incoherence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Incoherence {}

/// Which of a side's castling pieces have never left home: what the PDTL
/// castling field records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Unmoved {
    king: bool,
    queen_rook: bool,
    king_rook: bool,
}

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
    board: Board,
    turn: Side,
    unmoved: [Unmoved; 2],
    en_passant: EnPassant,
    halfmove: u32,
    number: Option<u32>,
    /// A move was numbered `N?`: the real move number is unknown from then on.
    relative_numbering: bool,
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
            let part = |u: Unmoved| {
                let mut s = String::new();
                if !u.king {
                    s.push('-');
                } else {
                    if u.queen_rook {
                        s.push('R');
                    }
                    s.push('K');
                    if u.king_rook {
                        s.push('R');
                    }
                }
                if side == Side::Black {
                    s.make_ascii_lowercase();
                }
                s
            };
            let king = home(KING_HOME, side);
            if u.king && !own(king, KING) {
                warnings.push((
                    format!(
                        "PDTL castling field {field} says {side}'s king has not moved, but {king}, its home hex, {}",
                        holds(king)
                    ),
                    format!("read as {}", part(Unmoved::default())),
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
                        part(swapped)
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
                    format!("read as {}{hint}", part(kept)),
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

    /// Plays `mv` if it is coherent with this position; otherwise says why
    /// and leaves the position as it was.
    ///
    /// The mover is `mv.side`, who must have the turn. The move number and
    /// whether it is known come from `mv.number` and `mv.unknown_number`.
    pub fn play(&mut self, mv: &HalfMove) -> Result<(), Incoherence> {
        let side = mv.side;
        if side != self.turn {
            return Err(Incoherence::new(format!("it is {}'s turn", self.turn)));
        }
        match mv.action {
            Action::Move {
                piece,
                from,
                sep,
                captured,
                to,
                promotion,
            } => self.play_move(mv, piece, from, sep, captured, to, promotion)?,
            Action::Castling { prefix, suffix, .. } => self.castle(side, prefix, suffix)?,
            Action::ForcedPromotion { at, piece } => self.force_promotion(side, at, piece)?,
        }
        self.turn = side.other();
        self.relative_numbering |= mv.unknown_number;
        self.number = (!self.relative_numbering).then_some(side.next_number(mv.number));
        Ok(())
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

    fn at(&self, hex: Hex) -> Option<Piece> {
        self.board[hex]
    }

    /// Empties `hex`, or puts a piece there, forgetting the castling
    /// rights of whatever stood there at home.
    fn set(&mut self, hex: Hex, piece: Option<Piece>) {
        self.board[hex] = piece;
        for side in [Side::White, Side::Black] {
            let [king, king_rook, queen_rook] = castling_homes()[side as usize];
            let u = &mut self.unmoved[side as usize];
            if hex == king {
                u.king = false;
            } else if hex == king_rook {
                u.king_rook = false;
            } else if hex == queen_rook {
                u.queen_rook = false;
            }
        }
    }

    /// The mover's piece of kind `kind` on `from`.
    fn origin(&self, side: Side, from: Hex, kind: u8) -> Result<Piece, Incoherence> {
        match self.at(from) {
            None => Err(Incoherence::new(format!("no piece at {from}"))),
            Some(p) if p.side != side => Err(Incoherence::new(format!(
                "{from} holds {}, not a {side} piece",
                describe(p)
            ))),
            Some(p) if p.glyph.letter != kind => Err(Incoherence::new(format!(
                "{from} holds {}, not a {}",
                describe(p),
                named(kind)
            ))),
            Some(p) => Ok(p),
        }
    }

    /// The opponent's piece of kind `kind` on `hex`, for a capture.
    fn victim(&self, side: Side, hex: Hex, kind: u8) -> Result<(), Incoherence> {
        match self.at(hex) {
            None => Err(Incoherence::new(format!("nothing to capture on {hex}"))),
            Some(p) if p.side == side => Err(Incoherence::new(format!(
                "{hex} holds {side}'s own {}",
                named(p.glyph.letter)
            ))),
            Some(p) if p.glyph.letter != kind => Err(Incoherence::new(format!(
                "{hex} holds {}, not a {}",
                describe(p),
                named(kind)
            ))),
            Some(_) => Ok(()),
        }
    }

    /// The hexes the last half-move's double or triple pawn move passed
    /// over, the one nearest its origin first, and where that pawn stands.
    fn passed(&self) -> Option<(Hex, [Option<Hex>; 2])> {
        let on_column = |h: Hex, line: u8| Hex::new(h.column(), u32::from(line)).ok();
        match self.en_passant {
            EnPassant::Double(h, l) => Some((h, [on_column(h, l), None])),
            EnPassant::Triple(h, a, b) => {
                let (near, far) = if a.abs_diff(h.line()) < b.abs_diff(h.line()) {
                    (a, b)
                } else {
                    (b, a)
                };
                Some((h, [on_column(h, far), on_column(h, near)]))
            }
            EnPassant::None | EnPassant::Scornful(_) => None,
        }
    }

    /// Where the pawn taken en passant on `to` stands.
    fn en_passant_victim(
        &self,
        side: Side,
        to: Hex,
        kind: u8,
        first_of_triple: bool,
    ) -> Result<Hex, Incoherence> {
        let passed = self.passed();
        let fits = match passed {
            Some((_, [first, second])) if first_of_triple => second.is_some() && first == Some(to),
            Some((_, hexes)) => hexes.contains(&Some(to)),
            None => false,
        };
        if let Some((pawn_at, [first, Some(_)])) = passed {
            if fits && !first_of_triple && first == Some(to) {
                return Err(Incoherence::new(format!(
                    "{to} is the first hex the pawn on {pawn_at} crossed in its triple move: en passant there is written @@, not @"
                )));
            }
        }
        let Some((pawn_at, _)) = passed.filter(|_| fits) else {
            let other = side.other();
            return Err(Incoherence::new(if first_of_triple {
                format!("@@ takes on the first hex a triple pawn move passed, and {other}'s last move passed no pawn over {to} first")
            } else {
                format!(
                    "nothing to take on {to}: no {other} {} stands there (scornful capture) and {other}'s last move passed no pawn over it (en passant)",
                    named_short(kind)
                )
            }));
        };
        match self.at(pawn_at) {
            Some(p) if p.side != side && p.glyph.letter == kind => Ok(pawn_at),
            Some(p) => Err(Incoherence::new(format!(
                "{pawn_at}, the pawn to take en passant, holds {}",
                describe(p)
            ))),
            None => Err(Incoherence::new(format!(
                "no piece at {pawn_at}, the pawn to take en passant"
            ))),
        }
    }

    /// Plays `mv`, an `Action::Move` whose fields follow it.
    #[allow(clippy::too_many_arguments)] // the fields of one `Action::Move`
    fn play_move(
        &mut self,
        mv: &HalfMove,
        piece: Option<Glyph>,
        from: Hex,
        sep: Sep,
        captured: Option<Glyph>,
        to: Hex,
        promotion: Option<Option<Glyph>>,
    ) -> Result<(), Incoherence> {
        let side = mv.side;
        if from == to {
            return Err(Incoherence::new("origin and destination are the same hex"));
        }
        let kind = kind_of(piece)?;
        let victim_kind = kind_of(captured)?;
        let mover = self.origin(side, from, kind)?;
        let pawn_capture = |what: &str| {
            if kind == PAWN {
                Ok(())
            } else {
                Err(Incoherence::new(format!(
                    "{what} is a pawn's capture, and the piece moved is a {}",
                    named(kind)
                )))
            }
        };
        // Where the captured piece stands, when something is captured.
        let taken = match sep {
            Sep::Move(_) => {
                if captured.is_some() {
                    return Err(Incoherence::new(
                        "a captured piece is written only in a capture",
                    ));
                }
                if let Some(p) = self.at(to) {
                    return Err(Incoherence::new(format!(
                        "{to} is occupied by {}: a move without capture lands on an empty hex",
                        describe(p)
                    )));
                }
                None
            }
            Sep::Capture { .. } => {
                self.victim(side, to, victim_kind)?;
                Some(to)
            }
            Sep::At => {
                pawn_capture("@")?;
                if self.at(to).is_some() {
                    // A scornful capture takes the pawn that made a
                    // scornful move to the destination on the last
                    // half-move: the en passant field names its hex.
                    // Anything else there is an ordinary capture's.
                    self.victim(side, to, victim_kind)?;
                    if self.en_passant != EnPassant::Scornful(to) {
                        return Err(Incoherence::new(format!(
                            "@ is for en passant and scornful captures: write {}",
                            written_as_capture(mv)
                        )));
                    }
                    Some(to)
                } else {
                    Some(self.en_passant_victim(side, to, victim_kind, false)?)
                }
            }
            Sep::AtAt => {
                pawn_capture("@@")?;
                if let Some(p) = self.at(to) {
                    return Err(Incoherence::new(format!(
                        "{to} is occupied by {}: @@ lands on the empty hex a pawn passed",
                        describe(p)
                    )));
                }
                Some(self.en_passant_victim(side, to, victim_kind, true)?)
            }
        };
        let lands = match promotion {
            None => mover,
            Some(_) if kind != PAWN => {
                return Err(Incoherence::new(format!(
                    "only a pawn promotes, and the piece moved is a {}",
                    named(kind)
                )))
            }
            Some(_) if !is_last_hex(to, side) => {
                return Err(Incoherence::new(format!(
                    "a pawn promotes on the last hex of its column, and {to} is not: column {} ends at {} for {side}",
                    to.column() as char,
                    last_hex(to, side)
                )))
            }
            // `=&`: a pawn awaiting promotion.
            Some(None) => mover,
            Some(Some(g)) => Piece {
                glyph: Glyph::letter(promoted_kind(g)?),
                side,
            },
        };
        if let Some(t) = taken {
            self.set(t, None);
        }
        self.set(from, None);
        self.set(to, Some(lands));
        self.halfmove = if kind == PAWN || taken.is_some() {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        self.en_passant = if kind == PAWN && matches!(sep, Sep::Move(_)) {
            match column_run(from, to) {
                EnPassant::None if self.scornful(side, from, to) => EnPassant::Scornful(to),
                run => run,
            }
        } else {
            EnPassant::None
        };
        Ok(())
    }

    /// Was a pawn's plain move from `from` to `to` a scornful move? It
    /// steps to a neighbouring column and line, away from an opponent's
    /// pawn that stood facing it on its own column: the spec's `F14`, "two
    /// pawns of different sides were facing each other at G13 and G15 or
    /// at E13 and E15, and one pawn ... made a scornful move to F14".
    fn scornful(&self, side: Side, from: Hex, to: Hex) -> bool {
        if from.column_index().abs_diff(to.column_index()) != 1
            || from.line().abs_diff(to.line()) != 1
        {
            return false;
        }
        let facing = if to.line() > from.line() {
            u32::from(from.line()) + 2
        } else {
            u32::from(from.line()).wrapping_sub(2)
        };
        Hex::new(from.column(), facing).is_ok_and(|h| {
            self.at(h)
                .is_some_and(|p| p.side != side && p.glyph.letter == PAWN)
        })
    }

    fn castle(
        &mut self,
        side: Side,
        prefix: [Glyph; 3],
        suffix: [u8; 4],
    ) -> Result<(), Incoherence> {
        let Castling {
            king_from,
            king_target,
            rooks,
        } = castling(side, prefix, suffix)?;
        let king = self
            .origin(side, king_from, KING)
            .map_err(|e| Incoherence::new(format!("the king castles from {king_from}: {e}")))?;
        for &(rook_from, _) in &rooks {
            self.origin(side, rook_from, ROOK)
                .map_err(|e| Incoherence::new(format!("the rook castles from {rook_from}: {e}")))?;
        }
        let leaving = |h: Hex| h == king_from || rooks.iter().any(|r| r.0 == h);
        for target in std::iter::once(king_target).chain(rooks.iter().map(|r| r.1)) {
            if let Some(p) = self.at(target).filter(|_| !leaving(target)) {
                return Err(Incoherence::new(format!(
                    "castling needs {target} empty, and it holds {}",
                    describe(p)
                )));
            }
        }
        let rook = Piece {
            glyph: Glyph::letter(ROOK),
            side,
        };
        self.set(king_from, None);
        for &(rook_from, _) in &rooks {
            self.set(rook_from, None);
        }
        self.set(king_target, Some(king));
        for &(_, rook_target) in &rooks {
            self.set(rook_target, Some(rook));
        }
        self.halfmove = self.halfmove.saturating_add(1);
        self.en_passant = EnPassant::None;
        Ok(())
    }

    fn force_promotion(&mut self, side: Side, at: Hex, piece: Glyph) -> Result<(), Incoherence> {
        self.origin(side, at, PAWN)?;
        if !is_last_hex(at, side) {
            return Err(Incoherence::new(format!(
                "a pawn awaiting promotion stands on the last hex of its column, and {at} is not: column {} ends at {} for {side}",
                at.column() as char,
                last_hex(at, side)
            )));
        }
        let kind = promoted_kind(piece)?;
        self.set(
            at,
            Some(Piece {
                glyph: Glyph::letter(kind),
                side,
            }),
        );
        self.halfmove = 0;
        self.en_passant = EnPassant::None;
        Ok(())
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

/// `mv` written with the spec's capture sign `×` for its separator.
fn written_as_capture(mv: &HalfMove) -> String {
    let mut capture = *mv;
    if let Action::Move { sep, .. } = &mut capture.action {
        *sep = Sep::Capture { times: true };
    }
    let mut text = Vec::new();
    capture.write_move(&mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// The standard letter of a glyph (alternative letters mapped, in case the
/// redefine pass was left out).
fn standard(g: Glyph) -> u8 {
    standard_for(g.letter).unwrap_or(g.letter)
}

/// The kind a move names: a pawn when no letter is written.
fn kind_of(g: Option<Glyph>) -> Result<u8, Incoherence> {
    let kind = g.map_or(PAWN, standard);
    if STANDARD_LETTERS.contains(&kind) {
        Ok(kind)
    } else {
        Err(Incoherence::new(format!(
            "{} is not a piece letter",
            kind as char
        )))
    }
}

fn promoted_kind(g: Glyph) -> Result<u8, Incoherence> {
    match kind_of(Some(g))? {
        PAWN | KING => Err(Incoherence::new("a pawn promotes to E, J, N, G, R, V or D")),
        k => Ok(k),
    }
}

/// The en passant field a pawn's plain move leaves: its double or triple
/// move along its column, lines in ascending order.
fn column_run(from: Hex, to: Hex) -> EnPassant {
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

/// Each side's king, king's rook and queen's rook homes: a piece set on
/// one ends that castling right. Worked out once, as every move asks.
fn castling_homes() -> &'static [[Hex; 3]; 2] {
    static HOMES: OnceLock<[[Hex; 3]; 2]> = OnceLock::new();
    HOMES.get_or_init(|| {
        [Side::White, Side::Black]
            .map(|side| [KING_HOME, KING_ROOK_HOME, QUEEN_ROOK_HOME].map(|h| home(h, side)))
    })
}

/// A White home hex (`G1`) for `side`: Black's mirrors the line.
/// Where a castling takes its king and rooks from, and to.
struct Castling {
    king_from: Hex,
    king_target: Hex,
    /// (home, target) of each rook that castles, the prefix's rook first.
    rooks: Vec<(Hex, Hex)>,
}

/// The castling `prefix`-`suffix` of `side`, as [`CASTLINGS`] lists it.
fn castling(side: Side, prefix: [Glyph; 3], suffix: [u8; 4]) -> Result<Castling, Incoherence> {
    let shape = [
        standard(prefix[0]),
        standard(prefix[1]),
        standard(prefix[2]),
    ];
    let suffix = &suffix[..suffix.iter().position(|&b| b == 0).unwrap_or(4)];
    let Some(&(_, _, king_to, rook_to, queen_rook_to)) = CASTLINGS
        .iter()
        .find(|c| c.0.as_bytes() == shape && c.1.as_bytes() == suffix)
    else {
        return Err(Incoherence::new(format!(
            "{}-{} is not a castling",
            String::from_utf8_lossy(&shape),
            String::from_utf8_lossy(suffix)
        )));
    };
    let rooks = match (&shape, queen_rook_to) {
        (b"KRD", _) => vec![(home(QUEEN_ROOK_HOME, side), home(rook_to, side))],
        (_, None) => vec![(home(KING_ROOK_HOME, side), home(rook_to, side))],
        (_, Some(q)) => vec![
            (home(KING_ROOK_HOME, side), home(rook_to, side)),
            (home(QUEEN_ROOK_HOME, side), home(q, side)),
        ],
    };
    Ok(Castling {
        king_from: home(KING_HOME, side),
        king_target: home(king_to, side),
        rooks,
    })
}

/// The hexes `mv` names: its origin and destination; a castling's king's
/// and rooks' homes and targets (its king's home alone when the castling
/// is not one); a forced promotion's hex.
pub(crate) fn move_hexes(mv: &HalfMove) -> Vec<Hex> {
    match mv.action {
        Action::Move { from, to, .. } => vec![from, to],
        Action::ForcedPromotion { at, .. } => vec![at],
        Action::Castling { prefix, suffix, .. } => match castling(mv.side, prefix, suffix) {
            Ok(c) => std::iter::once((c.king_from, c.king_target))
                .chain(c.rooks)
                .flat_map(|(from, to)| [from, to])
                .collect(),
            Err(_) => vec![home(KING_HOME, mv.side)],
        },
    }
}

fn home(white: &str, side: Side) -> Hex {
    let h = Hex::parse(white.as_bytes()).expect("home and target hexes are on the board");
    match side {
        Side::White => h,
        Side::Black => Hex::new(h.column(), 28 - u32::from(h.line()))
            .expect("the board is symmetric across line 14"),
    }
}

/// The last hex of `hex`'s column for `side`: the highest line for White,
/// the lowest for Black.
fn last_hex(hex: Hex, side: Side) -> Hex {
    let first_line = hex.column_index().abs_diff(7) as u32;
    let line = match side {
        Side::White => 28 - first_line,
        Side::Black => first_line,
    };
    Hex::new(hex.column(), line).expect("every column has a first and a last hex")
}

fn is_last_hex(hex: Hex, side: Side) -> bool {
    last_hex(hex, side) == hex
}

/// `a White pegasus (G)`
fn describe(p: Piece) -> String {
    format!("a {} {}", p.side, named(p.glyph.letter))
}

/// `pegasus (G)`
fn named(kind: u8) -> String {
    format!("{} ({})", named_short(kind), kind as char)
}

fn named_short(kind: u8) -> &'static str {
    match kind {
        b'P' => "pawn",
        b'E' => "elephant",
        b'J' => "bishop",
        b'N' => "knight",
        b'G' => "pegasus",
        b'R' => "rook",
        b'V' => "wyvern",
        b'D' => "queen",
        b'K' => "king",
        _ => "piece",
    }
}

/// Castling state from a PDTL castling field: White's marks (upper case,
/// or a leading `-`), then Black's. A side left out has moved its king.
fn unmoved_from_marks(marks: &[CastleMark]) -> [Unmoved; 2] {
    let white_len = match marks.first() {
        Some(CastleMark::Moved) => 1,
        _ => marks
            .iter()
            .take_while(|m| matches!(m, CastleMark::Piece(p) if p.side == Side::White))
            .count(),
    };
    let (white, black) = marks.split_at(white_len);
    [read_side(white), read_side(black)]
}

/// `RKR`, `RK`, `KR`, `K`: a rook before the king is the queen's rook.
fn read_side(marks: &[CastleMark]) -> Unmoved {
    let letters: Vec<u8> = marks
        .iter()
        .map(|m| match m {
            CastleMark::Piece(p) => standard(p.glyph),
            CastleMark::Moved => b'-',
        })
        .collect();
    let Some(k) = letters.iter().position(|&l| l == KING) else {
        return Unmoved::default();
    };
    Unmoved {
        king: true,
        queen_rook: letters[..k].contains(&ROOK),
        king_rook: letters[k + 1..].contains(&ROOK),
    }
}

/// Reports `fault` as an error at `mv`: `move 7 (White) E7-E13: FAULT`.
/// What to say of `mv`, incoherent as `fault` says.
pub(crate) fn incoherent(mv: &HalfMove, fault: &Incoherence) -> Message {
    let mut text = Vec::new();
    mv.write_move(&mut text);
    let text = format!(
        "move {}{} ({}) {}: {fault}",
        mv.number,
        if mv.unknown_number { "?" } else { "" },
        mv.side,
        String::from_utf8_lossy(&text)
    );
    Message::new(DiagnosticKind::Incoherent, text)
}

/// One line of play replayed from the game's start (its PDTL, or the
/// initial setup): the first half-move must be of the side to move, and
/// numbered as the PDTL says; then each is played on the position.
#[derive(Clone, Debug)]
pub(crate) struct Replay {
    pub position: Position,
    from_pdtl: bool,
    /// Half-moves played.
    pub half_moves: u32,
}

impl Replay {
    /// From `start`, or from the initial setup.
    pub fn new(start: Option<&Pdtl>) -> Replay {
        Replay {
            position: start.map_or_else(Position::initial, Position::from_pdtl),
            from_pdtl: start.is_some(),
            half_moves: 0,
        }
    }

    /// Why `mv`, about to be the first half-move, is not numbered as the
    /// game's start says: the PDTL's move number, or 1 without a PDTL (the
    /// initial setup). An error that leaves the board as it is, so the
    /// replay can go on.
    pub fn numbering_fault(&self, mv: &HalfMove) -> Option<Incoherence> {
        if self.half_moves != 0 {
            return None;
        }
        let fault = if self.from_pdtl {
            numbering_fault(self.position.number, mv)
        } else {
            // `1?` is move 1 all the same: the spec's way of writing a
            // start whose number is not known.
            (mv.number != 1).then(|| {
                "a game without a PDTL starts at move 1: add a PDTL or number from 1".to_string()
            })
        };
        fault.map(Incoherence::new)
    }

    /// Plays `mv`, or says why it does not fit (the position is left as it was).
    pub fn play(&mut self, mv: &HalfMove) -> Result<(), Incoherence> {
        if self.half_moves == 0 {
            let turn = self.position.turn;
            if mv.side != turn && self.from_pdtl {
                return Err(Incoherence::new(format!(
                    "the PDTL gives the move to {turn}"
                )));
            }
            if mv.side != turn {
                return Err(Incoherence::new(format!(
                    "without a PDTL the game starts from the initial setup with White to move; a game that starts with Black needs a PDTL with b to move (from the initial setup: [PDTL \"{}\"])",
                    initial_with_black_to_move()
                )));
            }
        }
        self.position.play(mv)?;
        self.half_moves += 1;
        Ok(())
    }
}

/// The initial setup with Black to move, for a game that starts with Black.
fn initial_with_black_to_move() -> String {
    INITIAL_PDTL.replacen(" w ", " b ", 1)
}

/// Why the first half-move's number disagrees with the PDTL's move number
/// (`pdtl`, `None` for `?`): a known number is written `N.` with the same
/// N; `?` is written `1?`, as the spec starts a record whose first number
/// is not known: "start with one, but end the number one with a question
/// mark".
fn numbering_fault(pdtl: Option<u32>, mv: &HalfMove) -> Option<String> {
    let (n, unknown) = (mv.number, mv.unknown_number);
    match pdtl {
        Some(p) if unknown => Some(format!(
            "the PDTL gives the move number {p}: number the first move {p}. (a number the PDTL knows is not written {n}?)"
        )),
        Some(p) if p != n => Some(format!(
            "the PDTL gives the move number {p}, and the first move is numbered {n}: number it {p}., or change the PDTL's number"
        )),
        None if !unknown => Some(format!(
            "the PDTL's move number is ? (unknown), and the first move is numbered {n}.: number it 1? or give the PDTL the number {n}"
        )),
        None if n != 1 => Some(format!(
            "the PDTL's move number is ? (unknown), and the first move is numbered {n}?: number it 1? (the spec starts an unknown number at one), or give the PDTL the number {n} and number it {n}."
        )),
        _ => None,
    }
}

/// How a game ended, as [`Verify`] saw it; handed to the callback set with
/// [`Verify::on_game_end`].
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, Verify};
/// use std::sync::{Arc, Mutex};
/// let last = Arc::new(Mutex::new(String::new()));
/// let keep = Arc::clone(&last);
/// let verify = Verify::new().on_game_end(move |end| *keep.lock().unwrap() = end.position.to_string());
/// let mut f = FilterBuilder::new().pass(Box::new(verify)).build();
/// f.filter_bytes(b"1. E7-E13:\n");
/// assert!(last.lock().unwrap().contains("/13:3P4/"));
/// ```
///
/// With [`crate::FilterBuilder::verify`] and
/// [`crate::FilterBuilder::split_variations`], each variation game that is
/// replayed ends too, after its game, its `path` naming it; only a game
/// written has them (not one rejected, nor one left out, as a duplicate
/// here, whose main line still ends, `left_out` set), and a variation game
/// rejected for an error read inside it is not replayed:
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, Verify};
/// use std::sync::{Arc, Mutex};
/// let ends = Arc::new(Mutex::new(Vec::new()));
/// let keep = Arc::clone(&ends);
/// let verify = Verify::new()
///     .on_game_end(move |end| keep.lock().unwrap().push((end.path.to_vec(), end.left_out)));
/// let mut f = FilterBuilder::new().verify(verify).split_variations(true).dedup(true).build();
/// let game = "1. E7-E13, E21-E15 (1. ..., F20-F16) 2. F8-F12:\n";
/// f.filter_bytes(game.repeat(2).as_bytes());
/// assert_eq!(*ends.lock().unwrap(), [(vec![], false), (vec![1], false), (vec![], true)]);
/// ```
#[derive(Debug)]
pub struct GameEnd<'a> {
    /// The position after the last coherent half-move of the line
    /// replayed: the final position when `coherent`. `to_string()` writes
    /// it as a PDTL.
    pub position: &'a Position,
    /// Every half-move of the line was coherent.
    pub coherent: bool,
    /// An error (from any pass or the reader) rejects the game: every one
    /// of the game's with the filter's own verify, which calls back at the
    /// verdict; the errors so far with a `Verify` added as a pass (not
    /// those found after the passes, as a `--strict` warning about a
    /// variation). A variation game is rejected when it does not replay.
    pub rejected: bool,
    /// Half-moves played (the coherent ones).
    pub half_moves: u32,
    /// The game is left out whole (`--dedup`, `--tag`, ...: see
    /// [`crate::LeftOut`]): known only when the pass is the filter's own
    /// ([`crate::FilterBuilder::verify`]), whose callback waits for the
    /// verdict; a `Verify` added with [`crate::FilterBuilder::pass`] calls
    /// back as the game ends, when it is not known yet (`false`).
    pub left_out: bool,
    /// The game's first line (see [`Context::game_start`]): the line
    /// ndjson's `line` and the diagnostics about the whole game name too;
    /// a variation game's is its game's.
    pub line: u64,
    /// Empty for the game's main line; for a variation game
    /// (`--split-variations`), its path, as its `Id` or `VariationPath`
    /// tag and ndjson's `path` give it (`[0, 2]` is `0:2`).
    pub path: &'a [u32],
    /// The game's number among the games of the input, from 1 (a variation
    /// game's is its game's; in a parallel run, see
    /// [`crate::run_parallel`], a piece counts from its own start).
    pub number: u64,
    /// The game's `Id` tag, when it has one and [`Verify::read_ids`] asks
    /// for it (a variation game's: its own, as written, `Cescacs-X01-V-S:0:1-en`).
    pub id: Option<&'a str>,
    /// The last coherent half-move of the line replayed, if any.
    pub last_move: Option<&'a HalfMove>,
    /// The first incoherent half-move, when not `coherent`: `position` is
    /// the position it was played on.
    pub incoherent: Option<&'a HalfMove>,
}

/// What is known of a game's `#` move.
#[derive(Clone, Copy, Debug)]
struct Mate {
    by: Side,
    pos: Pos,
    number: u32,
}

/// The callback of [`Verify::on_game_end`].
type OnGameEnd = dyn FnMut(&GameEnd<'_>) + Send;

/// The callback of [`Verify::on_game_end`], shared by the pass (a game's
/// main line) and the writer (its variation games, replayed when they are
/// planned, after the passes are done with the game, and handed on after
/// the main line's end once the game is known to be written).
#[derive(Clone)]
pub(crate) struct GameEndHook(Arc<Mutex<Box<OnGameEnd>>>);

impl GameEndHook {
    pub fn call(&self, end: &GameEnd<'_>) {
        // A callback that panicked once is called on all the same.
        let mut f = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        f(end);
    }
}

impl fmt::Debug for GameEndHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GameEndHook")
    }
}

/// The verify pass: replays each game's main line with [`Position`] and
/// rejects the game at the first incoherent half-move, with a message like
/// `move 17 (Black) GD26*L5: no piece at D26` at that half-move's position.
///
/// Put it after the built-in passes ([`crate::FilterBuilder::pass`]), where
/// piece letters are standard; variations are not replayed.
pub struct Verify {
    replay: Replay,
    coherent: bool,
    mate: Option<Mate>,
    on_game_end: Option<GameEndHook>,
    /// The last coherent half-move, and the first incoherent one.
    last_move: Option<HalfMove>,
    incoherent: Option<HalfMove>,
    /// Read the `Id` tag for the callback ([`Verify::read_ids`]).
    read_ids: bool,
    id: Option<String>,
    /// The filter's own verify: the callback waits for the game's verdict
    /// ([`Verify::game_verdict`]).
    pub(crate) deferred: bool,
}

impl Default for Verify {
    fn default() -> Verify {
        Verify::new()
    }
}

impl fmt::Debug for Verify {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Verify")
            .field("position", &self.replay.position)
            .field("coherent", &self.coherent)
            .field("half_moves", &self.replay.half_moves)
            .finish_non_exhaustive()
    }
}

impl Verify {
    /// A verify pass with no callback.
    pub fn new() -> Verify {
        Verify {
            replay: Replay::new(None),
            coherent: true,
            mate: None,
            on_game_end: None,
            last_move: None,
            incoherent: None,
            read_ids: false,
            id: None,
            deferred: false,
        }
    }

    /// Reads each game's `Id` tag for [`GameEnd::id`] (`--diagrams` names
    /// its files so): the pass is then handed the tags, which it otherwise
    /// does without.
    pub fn read_ids(mut self, yes: bool) -> Verify {
        self.read_ids = yes;
        self
    }

    /// The game's verdict is known (the filter's own verify): calls back.
    pub(crate) fn game_verdict(&self, cx: &Context, left_out: bool) {
        self.call_back(cx, left_out);
    }

    fn call_back(&self, cx: &Context, left_out: bool) {
        if let Some(hook) = &self.on_game_end {
            hook.call(&GameEnd {
                position: &self.replay.position,
                coherent: self.coherent,
                rejected: cx.has_error(),
                half_moves: self.replay.half_moves,
                line: cx.game_start.line,
                left_out,
                path: &[],
                number: cx.game_number,
                id: self.id.as_deref(),
                last_move: self.last_move.as_ref(),
                incoherent: self.incoherent.as_ref(),
            });
        }
    }

    /// Calls `f` at the end of every game with its final position, e.g. to
    /// print it as a PDTL (`--final-pdtl`), then, with
    /// [`crate::FilterBuilder::split_variations`], at the end of each of
    /// its variation games (see [`GameEnd`]). The pass lives inside the
    /// filter, so this is how the position gets out.
    pub fn on_game_end(mut self, f: impl FnMut(&GameEnd<'_>) + Send + 'static) -> Verify {
        self.on_game_end = Some(GameEndHook(Arc::new(Mutex::new(Box::new(f)))));
        self
    }

    /// The callback, for the writer to call at the end of variation games.
    pub(crate) fn game_end_hook(&self) -> Option<GameEndHook> {
        self.on_game_end.clone()
    }

    /// The position of the game being read (or the last one read).
    pub fn position(&self) -> &Position {
        &self.replay.position
    }

    /// Warns when `result`, the game's result line, says the side mated by
    /// its `#` move won ([`Pass::result`] calls it).
    pub fn check_result(&self, result: Outcome, cx: &mut Context) {
        let Some(m) = self.mate else {
            return;
        };
        let mated = m.by.other();
        if result.winner() == Some(mated) {
            cx.warn(
                m.pos,
                format!(
                    "move {} ({}) mates {mated}, but the result {} says {mated} won",
                    m.number,
                    m.by,
                    result.as_str()
                ),
            );
        }
    }
}

impl Pass for Verify {
    fn name(&self) -> &'static str {
        "verify"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        if self.read_ids {
            Interest::MOVES.union(Interest::TAGS)
        } else {
            Interest::MOVES
        }
    }

    fn tag(&mut self, tag: &Tag<'_>, _cx: &mut Context) -> Flow {
        if self.read_ids && tag.name == "Id" {
            self.id = Some(tag.value.to_string());
        }
        Flow::Keep
    }

    fn result(&mut self, result: Outcome, cx: &mut Context) {
        self.check_result(result, cx);
    }

    fn begin_game(&mut self, _cx: &mut Context) {
        self.replay = Replay::new(None);
        self.coherent = true;
        self.mate = None;
        self.last_move = None;
        self.incoherent = None;
        self.id = None;
    }

    fn setup(&mut self, pdtl: &mut Pdtl, cx: &mut Context) {
        let (position, warnings) = Position::from_pdtl_with_warnings(pdtl);
        for (problem, fix) in warnings {
            cx.warn_fixed(pdtl.pos, problem, fix);
        }
        self.replay = Replay {
            position,
            from_pdtl: true,
            half_moves: 0,
        };
    }

    fn half_move(&mut self, mv: &mut HalfMove, cx: &mut Context) -> Flow {
        if cx.depth != 0 {
            return Flow::Keep;
        }
        self.mate = (mv.check == Some(Check::Mate)).then_some(Mate {
            by: mv.side,
            pos: mv.pos,
            number: mv.number,
        });
        // After the first fault the board no longer matches the game, so
        // whatever follows would only repeat it.
        if !self.coherent {
            return Flow::Keep;
        }
        if let Some(e) = self.replay.numbering_fault(mv) {
            cx.error(mv.pos, incoherent(mv, &e));
        }
        match self.replay.play(mv) {
            Ok(()) => self.last_move = Some(*mv),
            Err(e) => {
                self.coherent = false;
                self.incoherent = Some(*mv);
                cx.error(mv.pos, incoherent(mv, &e));
            }
        }
        Flow::Keep
    }

    fn end_game(&mut self, cx: &mut Context) {
        if !self.deferred {
            self.call_back(cx, false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Hex {
        Hex::parse(s.as_bytes()).unwrap()
    }

    /// A half-move as the reader would hand it over.
    fn half_move(side: Side, number: u32, text: &str) -> HalfMove {
        let p = crate::grammar::half_move::parse(text.as_bytes())
            .unwrap_or_else(|e| panic!("{text}: {}", e.message(text.as_bytes())));
        let (action, check) = (p.action, p.check);
        let mut mv = HalfMove::new(number, side, action, check);
        mv.pos = Pos { line: 1, offset: 0 };
        mv
    }

    /// Plays `moves` (White first, numbered from 1) and returns the position.
    fn after(moves: &[&str]) -> Position {
        let mut p = Position::initial();
        for (i, m) in moves.iter().enumerate() {
            let side = if i % 2 == 0 { Side::White } else { Side::Black };
            p.play(&half_move(side, 1 + i as u32 / 2, m))
                .unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        p
    }

    /// The reason `text` is refused after `moves`, and that refusing it
    /// changed nothing.
    fn refusal(moves: &[&str], text: &str) -> String {
        let mut p = after(moves);
        let before = p.clone();
        let side = if moves.len().is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        };
        let e = p
            .play(&half_move(side, 1 + moves.len() as u32 / 2, text))
            .expect_err(text);
        assert_eq!(p, before, "a refused move leaves the position as it was");
        e.to_string()
    }

    fn at(p: &Position, h: &str) -> Option<(Side, char)> {
        p.piece(hex(h)).map(|p| (p.side, p.glyph.letter as char))
    }

    #[test]
    fn the_initial_position_is_the_spec_setup_and_writes_back_the_same() {
        let p = Position::initial();
        assert_eq!(p.to_string(), INITIAL_PDTL);
        assert_eq!(p.pieces().count(), 54);
        assert_eq!(at(&p, "G1"), Some((Side::White, 'K')));
        assert_eq!(at(&p, "G27"), Some((Side::Black, 'K')));
        assert_eq!(at(&p, "F0"), Some((Side::White, 'V')));
        assert_eq!(p.turn(), Side::White);
    }

    #[test]
    fn pdtl_fields_round_trip_through_a_position() {
        for s in [
            "/27:1k/22:1P5/7:1p6/1:DK/ w -- - 0 40",
            "/27:1k/25:r3/3:R2R/1:1K/ b RKR- G15@13 7 12",
            "/27:1k/25:r2r/3:3R/1:1K/ w KRrkr G13@9-11 0 3",
            "/27:1k/25:r3/1:1K/ w K- F14 3 ?",
        ] {
            let p = Position::from_pdtl(&Pdtl::parse(s).unwrap());
            assert_eq!(p.to_string(), s);
        }
    }

    #[test]
    fn alternative_letters_and_figurines_become_standard_letters() {
        let p = Position::from_pdtl(&Pdtl::parse("/28:🩒/27:1♚/3:T3/1:QK/ b TK- - 0 1").unwrap());
        assert_eq!(p.to_string(), "/28:v/27:1k/3:R3/1:DK/ b RK- - 0 1");
    }

    #[test]
    fn a_plain_move_moves_the_piece_and_counts_the_clock() {
        let p = after(&["E7-E13", "NE25-C21"]);
        assert_eq!(at(&p, "E7"), None);
        assert_eq!(at(&p, "E13"), Some((Side::White, 'P')));
        assert_eq!(at(&p, "C21"), Some((Side::Black, 'N')));
        assert_eq!(p.halfmove_clock(), 1);
        assert_eq!(p.number(), Some(2));
        assert_eq!(p.turn(), Side::White);
    }

    #[test]
    fn the_origin_must_hold_the_movers_piece_of_the_named_kind() {
        assert_eq!(refusal(&[], "E9-E11"), "no piece at E9");
        assert_eq!(
            refusal(&[], "E21-E17"),
            "E21 holds a Black pawn (P), not a White piece"
        );
        assert_eq!(
            refusal(&[], "JE7-E11"),
            "E7 holds a White pawn (P), not a bishop (J)"
        );
    }

    #[test]
    fn a_move_is_refused_out_of_turn() {
        let mut p = Position::initial();
        let e = p.play(&half_move(Side::Black, 1, "E21-E15")).unwrap_err();
        assert_eq!(e.to_string(), "it is White's turn");
    }

    #[test]
    fn a_plain_move_needs_an_empty_destination() {
        assert_eq!(
            refusal(&[], "EE5-E7"),
            "E7 is occupied by a White pawn (P): a move without capture lands on an empty hex"
        );
    }

    #[test]
    fn a_capture_needs_an_opponent_piece_of_the_named_kind() {
        let opening = ["E7-E13", "E21-E15", "F8-F12", "F20-F16"];
        let p = after(&[&opening[..], &["E13*F16"]].concat());
        assert_eq!(at(&p, "F16"), Some((Side::White, 'P')));
        assert_eq!(p.halfmove_clock(), 0);
        assert_eq!(refusal(&opening, "E13*F18"), "nothing to capture on F18");
        assert_eq!(
            refusal(&opening, "E13*NF16"),
            "F16 holds a Black pawn (P), not a knight (N)"
        );
        assert_eq!(refusal(&[], "EE5*E7"), "E7 holds White's own pawn (P)");
    }

    #[test]
    fn en_passant_on_the_first_hex_of_a_triple_move_is_double_at() {
        let opening = [
            "E7-E13", "E21-E15", "F8-F12", "F20-F16", "E13*F16", "E15*F12",
        ];
        let p = after(&[&opening[..], &["G7-G13"]].concat());
        assert_eq!(p.en_passant(), EnPassant::Triple(hex("G13"), 9, 11));
        let p = after(&[&opening[..], &["G7-G13", "F12@@G9"]].concat());
        assert_eq!(at(&p, "G13"), None, "the pawn taken is removed");
        assert_eq!(at(&p, "G9"), Some((Side::Black, 'P')));
        assert_eq!(at(&p, "F12"), None);
        assert_eq!(p.en_passant(), EnPassant::None);
        assert_eq!(
            refusal(&[&opening[..], &["G7-G13"]].concat(), "F12@@G11"),
            "@@ takes on the first hex a triple pawn move passed, and White's last move passed no pawn over G11 first"
        );
    }

    #[test]
    fn en_passant_takes_on_any_hex_the_pawn_passed() {
        // 8... D22-D16 passes D20 and D18; 9. E15@D18 takes on the second.
        let p = after(&["E7-E15", "D22-D16", "E15@D18"]);
        assert_eq!(at(&p, "D16"), None);
        assert_eq!(at(&p, "D18"), Some((Side::White, 'P')));
        let p = after(&["H6-H10", "D22-D18", "H10-H12", "D18-D14"]);
        assert_eq!(p.en_passant(), EnPassant::Double(hex("D14"), 16));
        assert_eq!(
            refusal(&["E7-E15", "D22-D16"], "E15@D14"),
            "nothing to take on D14: no Black pawn stands there (scornful capture) and Black's last move passed no pawn over it (en passant)"
        );
    }

    #[test]
    fn en_passant_from_the_pdtl_field() {
        let pdtl = Pdtl::parse("/27:1k/13:3p4/11:2P5/1:1K/ w - E13@9-11 0 30").unwrap();
        let mut p = Position::from_pdtl(&pdtl);
        let e = p.play(&half_move(Side::White, 30, "C11@E7")).unwrap_err();
        assert!(e.to_string().starts_with("nothing to take on E7"), "{e}");
        // On the first hex of a triple move the spec writes `@@`, not `@`.
        let e = p
            .clone()
            .play(&half_move(Side::White, 30, "C11@E9"))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "E9 is the first hex the pawn on E13 crossed in its triple move: en passant there is written @@, not @"
        );
        p.play(&half_move(Side::White, 30, "C11@@E9")).unwrap();
        assert_eq!(at(&p, "E13"), None);
        let pdtl = Pdtl::parse("/27:1k/11:2P5/1:1K/ w - E13@9-11 0 30").unwrap();
        let mut p = Position::from_pdtl(&pdtl);
        let e = p.play(&half_move(Side::White, 30, "C11@@E9")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "no piece at E13, the pawn to take en passant"
        );
        let pdtl = Pdtl::parse("/27:1k/13:4P3/10:3p3/1:1K/ b - G13@9-11 0 30").unwrap();
        let mut p = Position::from_pdtl(&pdtl);
        p.play(&half_move(Side::Black, 30, "F10@@G9")).unwrap();
        assert_eq!(at(&p, "G13"), None);
        assert_eq!(at(&p, "G9"), Some((Side::Black, 'P')));
        assert_eq!(p.number(), Some(31));
    }

    #[test]
    fn a_scornful_capture_takes_the_pawn_that_stepped_to_the_destination() {
        // The spec's F14: White's E13 faces Black's E15 and steps to F14.
        let scornful = ["E7-E13", "E21-E15", "E13-F14"];
        let p = after(&[&scornful[..], &["E15@F14"]].concat());
        assert_eq!(at(&p, "F14"), Some((Side::Black, 'P')));
        assert_eq!(at(&p, "E15"), None);
        // A pawn that stands there otherwise is taken with ×: here F14
        // made a triple move, and en passant takes on F16 or F18.
        assert_eq!(
            refusal(&["E7-E13", "F20-F14"], "E13@F14"),
            "@ is for en passant and scornful captures: write E13×F14"
        );
        // Only on the half-move right after the scornful move.
        assert_eq!(
            refusal(
                &[&scornful[..], &["NE25-C21", "EE5-E7"]].concat(),
                "E15@F14"
            ),
            "@ is for en passant and scornful captures: write E15×F14"
        );
        // What is taken must be what the move names, whatever the sign.
        assert_eq!(
            refusal(&["E7-E13", "NE25-F14"], "E13@F14"),
            "F14 holds a Black knight (N), not a pawn (P)"
        );
        assert_eq!(
            refusal(&["E7-E13", "NE25-F14"], "E13@NF14+"),
            "@ is for en passant and scornful captures: write E13×NF14+"
        );
        assert_eq!(
            refusal(&["E7-E13", "F20-F14"], "JF6@F14"),
            "@ is a pawn's capture, and the piece moved is a bishop (J)"
        );
    }

    /// The spec's rare case: a scornful move that promotes (from column A
    /// onto T22, T's last hex) is taken with `@` naming the promoted piece.
    #[test]
    fn a_scornful_pawn_that_promoted_is_taken_with_at_naming_its_piece() {
        let pdtl = Pdtl::parse("/27:1k/23:p5/21:1P6/1:1K/ w -- - 0 30").unwrap();
        let mut p = Position::from_pdtl(&pdtl);
        p.play(&half_move(Side::White, 30, "A21-T22=D")).unwrap();
        assert_eq!(p.en_passant(), EnPassant::Scornful(hex("T22")));
        let e = p
            .clone()
            .play(&half_move(Side::Black, 30, "A23@T22"))
            .unwrap_err();
        assert_eq!(e.to_string(), "T22 holds a White queen (D), not a pawn (P)");
        p.play(&half_move(Side::Black, 30, "A23@DT22")).unwrap();
        assert_eq!(at(&p, "T22"), Some((Side::Black, 'P')));
    }

    #[test]
    fn promotion_needs_a_pawn_arriving_on_the_last_hex() {
        let pdtl = "/27:1k/22:1P5/7:1p6/1:DK/ w -- - 0 40";
        let mut p = Position::from_pdtl(&Pdtl::parse(pdtl).unwrap());
        let e = p
            .play(&half_move(Side::White, 40, "B22-B24=&"))
            .map(|_| p.clone());
        assert_eq!(at(&e.unwrap(), "B24"), Some((Side::White, 'P')));
        let mut p = Position::from_pdtl(&Pdtl::parse(pdtl).unwrap());
        p.play(&half_move(Side::White, 40, "B22-B24=D")).unwrap();
        assert_eq!(at(&p, "B24"), Some((Side::White, 'D')));
        p.play(&half_move(Side::Black, 40, "A7-A5=&")).unwrap();
        p.play(&half_move(Side::White, 41, "DB24-B20")).unwrap();
        let mut to_king = half_move(Side::Black, 41, "A5=J");
        to_king.action = Action::ForcedPromotion {
            at: hex("A5"),
            piece: Glyph::letter(KING),
        };
        let e = p.play(&to_king).unwrap_err();
        assert_eq!(e.to_string(), "a pawn promotes to E, J, N, G, R, V or D");
        p.play(&half_move(Side::Black, 41, "A5=J")).unwrap();
        assert_eq!(at(&p, "A5"), Some((Side::Black, 'J')));
        assert_eq!(
            refusal(&[], "E7-E13=D"),
            "a pawn promotes on the last hex of its column, and E13 is not: column E ends at E27 for White"
        );
        assert_eq!(
            refusal(&[], "E7=D"),
            "a pawn awaiting promotion stands on the last hex of its column, and E7 is not: column E ends at E27 for White"
        );
        assert_eq!(
            refusal(&[], "B24=D"),
            "B24 holds a Black pawn (P), not a White piece"
        );
        let mut p = Position::from_pdtl(&Pdtl::parse(pdtl).unwrap());
        let e = p.play(&half_move(Side::White, 40, "KG1-G3=D")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "only a pawn promotes, and the piece moved is a king (K)"
        );
    }

    /// A board with only the kings and rooks at home.
    fn castling_ready() -> Position {
        let mut p = Position::initial();
        for cell in p.board.iter_mut() {
            if !matches!(cell, Some(pc) if matches!(pc.glyph.letter, KING | ROOK)) {
                *cell = None;
            }
        }
        p
    }

    #[test]
    fn every_castling_lands_on_its_table_hexes_for_both_sides() {
        for &(prefix, suffix, king_to, rook_to, queen_rook_to) in &CASTLINGS {
            for side in [Side::White, Side::Black] {
                let text = format!("{prefix}-{suffix}");
                let mut p = castling_ready();
                p.turn = side;
                p.play(&half_move(side, 1, &text))
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                let mirror = |h: &str| home(h, side);
                let want_rooks: Vec<Hex> = std::iter::once(mirror(rook_to))
                    .chain(queen_rook_to.map(mirror))
                    .collect();
                assert_eq!(
                    p.piece(mirror(king_to)).map(|p| (p.side, p.glyph.letter)),
                    Some((side, KING)),
                    "{text} {side}"
                );
                for r in &want_rooks {
                    assert_eq!(
                        p.piece(*r).map(|p| (p.side, p.glyph.letter)),
                        Some((side, ROOK)),
                        "{text} {side}: rook on {r}"
                    );
                }
                let own = p.pieces().filter(|(_, pc)| pc.side == side).count();
                assert_eq!(own, 3, "{text} {side}: three pieces, none duplicated");
                assert_eq!(p.piece(home(KING_HOME, side)), None, "{text} {side}");
                let field = p.to_string();
                let castling = field.split(' ').nth(2).unwrap();
                assert_eq!(
                    castling,
                    if side == Side::White { "-rkr" } else { "RKR-" },
                    "{text} {side}"
                );
            }
        }
    }

    #[test]
    fn black_castling_mirrors_the_lines() {
        let mut p = castling_ready();
        p.turn = Side::Black;
        p.play(&half_move(Side::Black, 21, "KRD-DE")).unwrap();
        assert_eq!(at(&p, "D26"), Some((Side::Black, 'K')));
        assert_eq!(at(&p, "E27"), Some((Side::Black, 'R')));
        assert_eq!(at(&p, "I25"), Some((Side::Black, 'R')));
    }

    #[test]
    fn castling_needs_its_pieces_at_home_and_its_targets_free() {
        assert_eq!(
            refusal(&[], "KRK-II"),
            "castling needs I5 empty, and it holds a White pawn (P)"
        );
        let mut p = castling_ready();
        p.board[hex("I3")] = None;
        let e = p.play(&half_move(Side::White, 1, "KRK-II")).unwrap_err();
        assert_eq!(e.to_string(), "the rook castles from I3: no piece at I3");
        let mut p = castling_ready();
        p.board[hex("G1")] = None;
        let e = p.play(&half_move(Side::White, 1, "KRR-HIH")).unwrap_err();
        assert_eq!(e.to_string(), "the king castles from G1: no piece at G1");
        // The rook the prefix names is the one that must be home.
        let mut p = castling_ready();
        p.board[hex("I3")] = None;
        p.play(&half_move(Side::White, 1, "KRD-DD")).unwrap();
    }

    #[test]
    fn the_castling_field_follows_pieces_leaving_home() {
        let p = after(&["I5-I7", "C23-C21", "RI3-I5", "C21-C19", "RI5-I3"]);
        assert!(p.to_string().contains(" b RKrkr "), "{p}");
        let p = after(&["E7-E13", "NE25-C21", "KG1-G11", "RC25-C13"]);
        assert!(p.to_string().contains(" w -kr "), "{p}");
    }

    #[test]
    fn the_move_number_follows_the_moves_and_becomes_unknown_with_n_question() {
        let mut p = Position::initial();
        let mut mv = half_move(Side::White, 7, "E7-E13");
        mv.unknown_number = true;
        p.play(&mv).unwrap();
        assert_eq!(p.number(), None);
        p.play(&half_move(Side::Black, 7, "E21-E15")).unwrap();
        assert_eq!(p.number(), None, "still unknown after the N? move");
        assert!(p.to_string().ends_with(" w RKRrkr E15@17-19 0 ?"), "{p}");
    }

    fn context() -> Context {
        Context::default()
    }

    #[test]
    fn a_result_that_says_the_mated_side_won_is_a_warning() {
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        for (side, n, text) in [(Side::White, 1, "H6-H12"), (Side::Black, 1, "GH26-Z11#")] {
            let mut mv = half_move(side, n, text);
            mv.pos = Pos {
                line: 7,
                offset: 11,
            };
            v.half_move(&mut mv, &mut cx);
        }
        v.check_result(Outcome::BlackWins, &mut cx);
        assert!(cx.diagnostics.is_empty(), "{:?}", cx.diagnostics);
        v.check_result(Outcome::WhiteWins, &mut cx);
        assert_eq!(cx.diagnostics.len(), 1);
        let d = &cx.diagnostics[0];
        assert_eq!(
            (d.severity, d.line, cx.offsets[0]),
            (crate::Severity::Warning, 7, 11)
        );
        assert_eq!(
            d.message,
            "move 1 (Black) mates White, but the result 3-0 says White won"
        );
    }

    #[test]
    fn the_pass_reports_the_first_incoherent_move_only() {
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        for (side, n, text) in [
            (Side::White, 1, "E7-E13"),
            (Side::Black, 1, "E19-E15"),
            (Side::White, 2, "E13-E15"),
        ] {
            v.half_move(&mut half_move(side, n, text), &mut cx);
        }
        assert_eq!(cx.diagnostics.len(), 1);
        assert_eq!(
            cx.diagnostics[0].message,
            "move 1 (Black) E19-E15: no piece at E19"
        );
    }

    #[test]
    fn without_a_pdtl_a_game_starting_with_black_is_incoherent() {
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        v.half_move(&mut half_move(Side::Black, 1, "E21-E15"), &mut cx);
        assert_eq!(cx.diagnostics.len(), 1);
        assert_eq!(
            cx.diagnostics[0].message,
            format!("move 1 (Black) E21-E15: without a PDTL the game starts from the initial setup with White to move; a game that starts with Black needs a PDTL with b to move (from the initial setup: [PDTL \"{}\"])", INITIAL_PDTL.replace(" w ", " b "))
        );
        assert_eq!(v.position(), &Position::initial(), "nothing was played");
        // That PDTL makes the same move coherent.
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        v.setup(
            &mut Pdtl::parse(&initial_with_black_to_move()).unwrap(),
            &mut cx,
        );
        v.half_move(&mut half_move(Side::Black, 1, "E21-E15"), &mut cx);
        assert!(cx.diagnostics.is_empty(), "{:?}", cx.diagnostics);
    }

    /// The first half-move's number against a PDTL's: `(pdtl number,
    /// written number, written N?)` and the fault, if any.
    #[test]
    fn the_first_move_number_agrees_with_the_pdtl() {
        for (pdtl, number, unknown, fault) in [
            (Some(7), 7, false, None),
            (None, 1, true, None),
            (
                None,
                20,
                true,
                Some("the PDTL's move number is ? (unknown), and the first move is numbered 20?: number it 1? (the spec starts an unknown number at one), or give the PDTL the number 20 and number it 20."),
            ),
            (
                Some(7),
                8,
                false,
                Some("the PDTL gives the move number 7, and the first move is numbered 8: number it 7., or change the PDTL's number"),
            ),
            (
                Some(7),
                7,
                true,
                Some("the PDTL gives the move number 7: number the first move 7. (a number the PDTL knows is not written 7?)"),
            ),
            (
                None,
                1,
                false,
                Some("the PDTL's move number is ? (unknown), and the first move is numbered 1.: number it 1? or give the PDTL the number 1"),
            ),
        ] {
            let mut mv = half_move(Side::White, number, "E7-E13");
            mv.unknown_number = unknown;
            assert_eq!(numbering_fault(pdtl, &mv).as_deref(), fault, "{pdtl:?} {number} {unknown}");
        }
    }

    #[test]
    fn a_move_number_against_the_pdtl_is_an_error_and_the_replay_goes_on() {
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        let mut pdtl = Pdtl::parse("/27:1k/7:4P3/1:1K/ w -- - 0 12").unwrap();
        v.setup(&mut pdtl, &mut cx);
        v.half_move(&mut half_move(Side::White, 1, "G7-G9"), &mut cx);
        v.half_move(&mut half_move(Side::Black, 1, "KG27-G25"), &mut cx);
        assert_eq!(cx.diagnostics.len(), 1);
        assert_eq!(
            cx.diagnostics[0].message,
            "move 1 (White) G7-G9: the PDTL gives the move number 12, and the first move is numbered 1: number it 12., or change the PDTL's number"
        );
        assert_eq!(v.replay.half_moves, 2, "the board is still the game's");
    }

    #[test]
    fn a_scornful_move_is_recorded_in_the_final_position() {
        // The spec's F14: White's E13 faces Black's E15 and steps to F14.
        let p = after(&["E7-E13", "E21-E15", "E13-F14"]);
        assert_eq!(p.en_passant(), EnPassant::Scornful(hex("F14")));
        assert!(p.to_string().ends_with(" b RKRrkr F14 0 2"), "{p}");
        // Black's E15 takes it with `@`, and the field is cleared.
        let p = after(&["E7-E13", "E21-E15", "E13-F14", "E15@F14"]);
        assert_eq!(at(&p, "F14"), Some((Side::Black, 'P')));
        assert_eq!(p.en_passant(), EnPassant::None);
        // Black's G15, facing White's G13, steps to F14: the same field.
        let p = after(&["G7-G13", "G21-G15", "EE5-E9", "G15-F14"]);
        assert_eq!(p.en_passant(), EnPassant::Scornful(hex("F14")));
        // No pawn faced it, or its own pawn did: not scornful.
        assert_eq!(
            after(&["E7-E13", "NE25-C21", "E13-F14"]).en_passant(),
            EnPassant::None
        );
        let pdtl = Pdtl::parse("/27:1k/11:3P4/9:3P4/1:1K/ w -- - 0 5").unwrap();
        let mut p = Position::from_pdtl(&pdtl);
        p.play(&half_move(Side::White, 5, "E9-F10")).unwrap();
        assert_eq!(p.en_passant(), EnPassant::None);
        // A step along the column is no scornful move.
        assert_eq!(
            after(&["E7-E11", "E21-E15", "E11-E13"]).en_passant(),
            EnPassant::None
        );
    }

    #[test]
    fn a_castling_claim_the_board_contradicts_is_a_warning_naming_the_hex() {
        // The spec's DPTL: the rook that moved is the king's rook (RK).
        let dptl = "/28:v/27:1k/26:1jg/25:r1nr/24:pejep/23:pp2pp/22:2pjp2/21:4p3/11:3J4/9:4J3/8:3G3/7:2NN1P2/6:2P1Pd1/5:PPG2g/4:PE1EP/3:R3/2:2R/1:DK/0:V/ b KRrkr - 2";
        let mut pdtl = Pdtl::parse(dptl).unwrap();
        pdtl.pos = Pos { line: 8, offset: 0 };
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        v.setup(&mut pdtl, &mut cx);
        assert_eq!(cx.diagnostics.len(), 1);
        let d = &cx.diagnostics[0];
        assert_eq!(
            (d.severity, d.line, cx.offsets[0], d.message.as_str()),
            (
                crate::Severity::Warning,
                8,
                0,
                "PDTL castling field KRrkr says White's king's rook has not moved, but I3, its home hex, is empty: read as K (RK, the queen's rook on C3, fits the board)"
            )
        );
        assert!(v.position().to_string().contains(" b Krkr "));
        // A king away from home, a rook's home taken by another piece.
        for (value, warnings) in [
            (
                "/27:1k/3:R2R/2:K2/ w RKR - 0 1",
                vec!["PDTL castling field RKR says White's king has not moved, but G1, its home hex, is empty: read as -"],
            ),
            (
                "/27:1k/25:r2n/1:1K/ w -rkr - 0 1",
                vec!["PDTL castling field -rkr says Black's king's rook has not moved, but I25, its home hex, holds a Black knight (N): read as rk"],
            ),
            (
                "/27:1k/1:1K/ w -rkr - 0 1",
                vec![
                    "PDTL castling field -rkr says Black's queen's rook has not moved, but C25, its home hex, is empty: read as k",
                    "PDTL castling field -rkr says Black's king's rook has not moved, but I25, its home hex, is empty: read as k",
                ],
            ),
            ("/27:1k/25:r2r/3:R2R/1:1K/ w RKRrkr - 0 1", vec![]),
        ] {
            let (_, got) = Position::from_pdtl_with_warnings(&Pdtl::parse(value).unwrap());
            let got: Vec<String> = got.iter().map(|(p, f)| format!("{p}: {f}")).collect();
            assert_eq!(got, warnings, "{value}");
        }
    }

    #[test]
    fn with_a_pdtl_the_first_move_is_the_side_it_names() {
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        let mut pdtl = Pdtl::parse("/27:1k/7:4P3/1:1K/ b -- - 0 12").unwrap();
        v.setup(&mut pdtl, &mut cx);
        v.half_move(&mut half_move(Side::White, 12, "G7-G9"), &mut cx);
        assert_eq!(
            cx.diagnostics[0].message,
            "move 12 (White) G7-G9: the PDTL gives the move to Black"
        );
    }
}
