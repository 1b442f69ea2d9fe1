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

mod castling;
mod messages;
mod pass;
mod play;
mod position;
mod replay;
mod rules;
#[cfg(test)]
mod tests;

pub(crate) use castling::move_hexes;
pub(crate) use messages::incoherent;
pub use messages::Incoherence;
pub(crate) use pass::GameEndHook;
pub use pass::{GameEnd, Verify};
pub use position::{Position, INITIAL_PDTL};
pub(crate) use replay::Replay;
