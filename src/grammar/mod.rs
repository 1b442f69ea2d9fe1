//! What the notation says, each rule once: the alphabet and the board,
//! the tokens, the half-move, and the tag values that carry meaning
//! (`Redefine`, `PDTL`); and what standard-chess PGN looks like, to say so.

pub(crate) mod alphabet;
pub(crate) mod game_start;
pub(crate) mod half_move;
pub(crate) mod hex;
pub(crate) mod model;
pub(crate) mod redefine;
pub(crate) mod standard_chess;
pub(crate) mod token;
