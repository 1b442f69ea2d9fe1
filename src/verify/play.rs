//! A half-move played on a [`Position`]: the piece it moves on its origin,
//! what it captures, en passant and scornful captures, promotions and
//! castlings, or why it does not fit.

use super::castling::{castling, castling_homes, Castling, HOME_LINES};
use super::messages::{describe, named, named_short, written_as_capture, Incoherence};
use super::position::Position;
use super::rules::{column_run, is_last_hex, kind_of, last_hex, promoted_kind, KING, PAWN, ROOK};
use crate::grammar::hex::Hex;
use crate::grammar::model::{Action, Glyph, HalfMove, Sep, Side};
use crate::pdtl::{EnPassant, Piece};

impl Position {
    /// Plays `mv` if it is coherent with this position; otherwise says why
    /// and leaves the position as it was.
    ///
    /// The mover is `mv.side`, who must have the turn. The move number and
    /// whether it is known come from `mv.number` and `mv.unknown_number`.
    pub fn play(&mut self, mv: &HalfMove) -> Result<(), Incoherence> {
        let side = mv.side;
        if side != self.turn {
            return Err(not_the_turn(self.turn));
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

    fn at(&self, hex: Hex) -> Option<Piece> {
        self.board[hex]
    }

    /// Empties `hex`, or puts a piece there, forgetting the castling
    /// rights of whatever stood there at home.
    #[inline]
    fn set(&mut self, hex: Hex, piece: Option<Piece>) {
        self.board[hex] = piece;
        if HOME_LINES & 1 << hex.line() != 0 {
            self.forget_home(hex);
        }
    }

    /// Forgets the castling right of the king or rook whose home is `hex`.
    fn forget_home(&mut self, hex: Hex) {
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
    #[inline]
    fn origin(&self, side: Side, from: Hex, kind: u8) -> Result<Piece, Incoherence> {
        match self.at(from) {
            Some(p) if p.side == side && p.glyph.letter == kind => Ok(p),
            found => Err(not_the_mover(found, side, from, kind)),
        }
    }

    /// The opponent's piece of kind `kind` on `hex`, for a capture.
    #[inline]
    fn victim(&self, side: Side, hex: Hex, kind: u8) -> Result<(), Incoherence> {
        match self.at(hex) {
            Some(p) if p.side != side && p.glyph.letter == kind => Ok(()),
            found => Err(not_the_victim(found, side, hex, kind)),
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
        let taken = self.taken(mv, sep, captured, to, kind, victim_kind)?;
        let lands = landing(mover, kind, to, promotion)?;
        // A piece taken on `to` is replaced there below.
        if let Some(t) = taken.filter(|&t| t != to) {
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

    /// Where the piece `mv` captures stands, when it captures one: the
    /// fields of its `Action::Move` say how, `kind` is the mover's and
    /// `victim_kind` the kind it names.
    fn taken(
        &self,
        mv: &HalfMove,
        sep: Sep,
        captured: Option<Glyph>,
        to: Hex,
        kind: u8,
        victim_kind: u8,
    ) -> Result<Option<Hex>, Incoherence> {
        let side = mv.side;
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
        Ok(match sep {
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
        })
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

/// Why a half-move of the side not to move, `turn`'s opponent, does not fit.
#[cold]
fn not_the_turn(turn: Side) -> Incoherence {
    Incoherence::new(format!("it is {turn}'s turn"))
}

/// Why `found`, on `from`, is not the mover's piece of kind `kind`:
/// [`Position::origin`]'s faults, off its path.
#[cold]
fn not_the_mover(found: Option<Piece>, side: Side, from: Hex, kind: u8) -> Incoherence {
    Incoherence::new(match found {
        None => format!("no piece at {from}"),
        Some(p) if p.side != side => format!("{from} holds {}, not a {side} piece", describe(p)),
        Some(p) => format!("{from} holds {}, not a {}", describe(p), named(kind)),
    })
}

/// Why `found`, on `hex`, is not the opponent's piece of kind `kind`:
/// [`Position::victim`]'s faults, off its path.
#[cold]
fn not_the_victim(found: Option<Piece>, side: Side, hex: Hex, kind: u8) -> Incoherence {
    Incoherence::new(match found {
        None => format!("nothing to capture on {hex}"),
        Some(p) if p.side == side => format!("{hex} holds {side}'s own {}", named(p.glyph.letter)),
        Some(p) => format!("{hex} holds {}, not a {}", describe(p), named(kind)),
    })
}

/// The piece that lands on `to`: the `mover`, of kind `kind`, or what it
/// promotes to, as `promotion` says.
fn landing(
    mover: Piece,
    kind: u8,
    to: Hex,
    promotion: Option<Option<Glyph>>,
) -> Result<Piece, Incoherence> {
    let side = mover.side;
    Ok(match promotion {
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
    })
}
