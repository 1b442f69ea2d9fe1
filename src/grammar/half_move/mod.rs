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
use fault::Parse;
pub(crate) use parsed::Parsed;
pub use parsed::Traits;
pub(crate) use parser::parse;
use quick::plain_move_in;
pub(crate) use quick::Window;

/// The one reading of a move word, `word`, which `w` (when the word is
/// read where it stands in the input) begins with: its common spellings
/// recognised from the grammar's tables ([`plain_move_in`], the canonical
/// one and the same with a Unicode dash or `×`), anything else by the
/// parser, which refuses what is no half-move, with the reason.
#[inline(always)]
pub(crate) fn read(word: &[u8], w: Option<&Window<'_>>) -> Parse<Parsed> {
    match w.and_then(|w| plain_move_in(w, 0)) {
        Some((p, len)) if len == word.len() => Ok(p),
        _ => parse(word),
    }
}
