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

use crate::grammar::model;
pub(crate) use fault::Fault;
pub(crate) use fault::Parse;
pub(crate) use parsed::Parsed;
pub use parsed::Traits;
pub(crate) use parser::parse;
pub(crate) use quick::Window;
use quick::{plain_move_in, Plain};

/// A move word as the lexeme reads it: one in a common spelling, known to
/// be a plain move, its move made only when asked for
/// ([`Lexeme::parsed`]); or any other, parsed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Lexeme {
    Plain(Plain),
    Parsed(Parsed),
}

impl Lexeme {
    /// What its text holds besides the move.
    #[inline(always)]
    pub fn traits(self) -> Traits {
        match self {
            Lexeme::Plain(p) => p.traits,
            Lexeme::Parsed(p) => p.traits,
        }
    }

    /// It gives mate.
    #[inline(always)]
    pub fn mate(self) -> bool {
        match self {
            Lexeme::Plain(p) => p.mate,
            Lexeme::Parsed(p) => p.check == Some(model::Check::Mate),
        }
    }

    /// The move of the word `word` the lexeme read as `Plain`.
    #[cold]
    pub fn parsed(word: &[u8]) -> Parsed {
        parse(word).expect("a plain move parses")
    }
}

/// The one reading of a move word, `word`, which `w` (when the word is
/// read where it stands in the input) begins with: its common spellings
/// recognised from the grammar's tables ([`plain_move_in`], the canonical
/// one and the same with a Unicode dash or `×`), their move made only when
/// asked for; anything else by the parser, which refuses what is no
/// half-move, with the reason.
#[inline(always)]
pub(crate) fn read(word: &[u8], w: Option<&Window<'_>>) -> Parse<Lexeme> {
    match w.and_then(|w| plain_move_in::<Plain>(w, 0)) {
        Some((p, len)) if len == word.len() => Ok(Lexeme::Plain(p)),
        _ => parse(word).map(Lexeme::Parsed),
    }
}

/// [`read`] of the word that starts `text`, read where it stands (`w`
/// begins with it), and the word's byte length: `word_len`, asked only
/// for a word not in a common spelling; else the length read, which is
/// the `Word` token's (`quick_moves_read_as_parse_reads_them`).
#[inline(always)]
pub(crate) fn read_at(
    text: &[u8],
    w: &Window<'_>,
    word_len: impl FnOnce() -> usize,
) -> (Parse<Lexeme>, usize) {
    match plain_move_in::<Plain>(w, 0) {
        Some((p, len)) => (Ok(Lexeme::Plain(p)), len),
        None => {
            let len = word_len();
            (parse(&text[..len]).map(Lexeme::Parsed), len)
        }
    }
}
