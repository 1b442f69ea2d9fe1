//! The half-move parser: one `Word` token in, the move it writes out.
//!
//! A word is a plain move (`EE5-E11`, `JE11×A23`, `F12@@G9`, `E23-E25=D+`),
//! a castling (`KRK-II`) or a forced promotion (`B24=D`); whatever else the
//! tokenizer read as a word is refused here, with the reason.

mod fault;
mod lexemes;
mod parsed;
mod parser;
mod quick;

pub(crate) use fault::Fault;
pub(crate) use parsed::Parsed;
pub use parsed::Traits;
pub(crate) use parser::parse;
pub(crate) use quick::{plain_move_in, Window};
