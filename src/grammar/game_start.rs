//! The game-start rule: which token starts a new game, given how the
//! game under way stands (`docs/design.md`, "The game-start rule"). The
//! reader's `game_at` asks it, and nothing else states it.

use super::token::{is_blank, Token};
use logos::Logos;

/// What a token is to the game-start rule (the reader's `game_at`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Opens {
    Tag,
    Movetext,
    Result,
    /// A comment or a variation.
    Aside,
}

impl Opens {
    /// What the first token of `text`, past blanks, is to the game-start
    /// rule, read from its first bytes (a line too long to read); `None`
    /// when they are all blanks.
    pub(crate) fn of_first_token(text: &[u8]) -> Option<(usize, Opens)> {
        let i = text.iter().position(|&b| !is_blank(b))?;
        let opens = match text[i] {
            b'[' => Opens::Tag,
            b'{' | b'(' => Opens::Aside,
            _ => {
                let word = &text[i..text.len().min(i + 64)];
                match Token::lexer(word).next() {
                    Some(Ok(Token::Result | Token::Unfinished | Token::PgnDraw)) => Opens::Result,
                    _ => Opens::Movetext,
                }
            }
        };
        Some((i, opens))
    }
}

/// How a game stands, to the game-start rule: what may start the next.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Standing {
    /// A game is under way (none: anything starts one).
    pub open: bool,
    pub past_tags: bool,
    /// A result, or a last move marked `:` or `#`.
    pub ended: bool,
    pub has_result: bool,
}

impl Standing {
    /// Does a token of kind `opens` start a game after this one?
    pub fn starts(self, opens: Opens) -> bool {
        !self.open
            || match opens {
                Opens::Tag => self.past_tags || self.ended,
                Opens::Movetext => self.ended,
                Opens::Result => self.has_result,
                Opens::Aside => false,
            }
    }
}
