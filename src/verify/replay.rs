//! One line of play replayed from its game's start: the first half-move's
//! side and number checked against the PDTL (or the initial setup), then
//! each half-move played.

use super::messages::Incoherence;
use super::position::{Position, INITIAL_PDTL};
use crate::grammar::model::HalfMove;
use crate::pdtl::Pdtl;

/// One line of play replayed from the game's start (its PDTL, or the
/// initial setup): the first half-move must be of the side to move, and
/// numbered as the PDTL says; then each is played on the position.
#[derive(Clone, Debug)]
pub(crate) struct Replay {
    pub position: Position,
    pub(super) from_pdtl: bool,
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
    #[inline]
    pub fn numbering_fault(&self, mv: &HalfMove) -> Option<Incoherence> {
        if self.half_moves != 0 {
            return None;
        }
        self.first_numbering_fault(mv)
    }

    /// [`Replay::numbering_fault`] of the first half-move, once a game.
    #[cold]
    fn first_numbering_fault(&self, mv: &HalfMove) -> Option<Incoherence> {
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
    #[inline]
    pub fn play(&mut self, mv: &HalfMove) -> Result<(), Incoherence> {
        if self.half_moves == 0 && mv.side != self.position.turn {
            return Err(self.not_the_first_side());
        }
        self.position.play(mv)?;
        self.half_moves += 1;
        Ok(())
    }

    /// Why the first half-move, not of the side to move, does not fit.
    #[cold]
    fn not_the_first_side(&self) -> Incoherence {
        let turn = self.position.turn;
        Incoherence::new(if self.from_pdtl {
            format!("the PDTL gives the move to {turn}")
        } else {
            format!(
                "without a PDTL the game starts from the initial setup with White to move; a game that starts with Black needs a PDTL with b to move (from the initial setup: [PDTL \"{}\"])",
                initial_with_black_to_move()
            )
        })
    }
}

/// The initial setup with Black to move, for a game that starts with Black.
pub(super) fn initial_with_black_to_move() -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::model::Side;
    use crate::verify::tests::half_move;

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
}
