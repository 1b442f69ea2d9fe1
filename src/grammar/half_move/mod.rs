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

    /// The move of the word the lexeme read as `Plain`, the first `len`
    /// of `text`: read again by the quick reader, on the text as it was
    /// read ([`Window::on`]), which ends it where it ended.
    #[inline(never)]
    pub fn parsed(text: &[u8], len: usize) -> Parsed {
        match Window::on(text, 0, |w| plain_move_in::<Parsed>(w, 0)) {
            Some((parsed, n)) if n == len => parsed,
            _ => parse(&text[..len]).expect("a plain move parses"),
        }
    }
}

/// The quick part of the move lexeme: the word that `w` begins with, when
/// it is in a common spelling ([`plain_move_in`]), known to be a plain
/// move, and its byte length, which is the `Word` token's there
/// (`quick_moves_read_as_parse_reads_them`); `None` for any other, which
/// [`read`] parses. With `MADE`, its move is made at once.
#[inline(always)]
pub(crate) fn read_plain<const MADE: bool>(w: &Window<'_>) -> Option<(Lexeme, usize)> {
    if MADE {
        plain_move_in::<Parsed>(w, 0).map(|(p, len)| (Lexeme::Parsed(p), len))
    } else {
        plain_move_in::<Plain>(w, 0).map(|(p, len)| (Lexeme::Plain(p), len))
    }
}

/// The one reading of a move word, `word`, which `w` (when the word is
/// read where it stands in the input) begins with: its common spellings
/// recognised from the grammar's tables ([`read_plain`], the canonical
/// one and the same with a Unicode dash or `×`), their move made only when
/// asked for; anything else by the parser, which refuses what is no
/// half-move, with the reason.
#[inline(always)]
pub(crate) fn read(word: &[u8], w: Option<&Window<'_>>, made: bool) -> Parse<Lexeme> {
    let plain = if made {
        read_plain::<true>
    } else {
        read_plain::<false>
    };
    match w.and_then(plain) {
        Some((lexeme, len)) if len == word.len() => Ok(lexeme),
        _ => parse(word).map(Lexeme::Parsed),
    }
}
