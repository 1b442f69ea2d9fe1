//! Why a word is no half-move: the [`Fault`], its kinds, and the message
//! each makes from the word.

use crate::diag::{DiagnosticKind, Message};
use crate::grammar::alphabet::CASTLING;
use crate::grammar::hex::{Hex, HexError};
use crate::grammar::model::char_at;

/// Why a word is no half-move: where in the word, and what is wrong. Made
/// into a message only when reported ([`Fault::message`]), from the word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    pub offset: usize,
    kind: FaultKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FaultKind {
    NotAPiece,
    NoHexAtEnd,
    NotAHex,
    LowerCaseColumn,
    LowerCasePiece,
    OffBoard,
    PromotesTo,
    NoPromotionPiece,
    ForcedPromotionPiece,
    TextAfterMove,
    LetterX,
    NoSeparator,
    CapturedPieceWithDash,
    SameHex,
    CastlingPrefix,
    /// The castling's prefix, by its pieces' meanings (`KRK` for `KTK`).
    CastlingSuffix([u8; 3]),
}

impl Fault {
    /// What to tell the user about `word`, the word parsed.
    pub fn message(&self, word: &[u8]) -> Message {
        Message::new(DiagnosticKind::MoveSyntax, self.text(word))
    }

    fn text(&self, word: &[u8]) -> String {
        let at = &word[self.offset.min(word.len())..];
        let digits = at
            .get(1..)
            .map_or(0, |d| d.iter().take_while(|c| c.is_ascii_digit()).count());
        match self.kind {
            FaultKind::NotAPiece => format!(
                "{} is not a piece letter: pieces are P E J N G R V D K (alternatives A B F L C S T W Q with a Redefine tag){}",
                at[0] as char,
                if at[0] == b'X' { "; X is a column, not a piece" } else { "" }
            ),
            FaultKind::NoHexAtEnd => "a hex is missing at the end of the move".into(),
            FaultKind::NotAHex => format!(
                "expected a hex like F14 here, not '{}'",
                char_at(at, 0).unwrap_or(char::REPLACEMENT_CHARACTER)
            ),
            FaultKind::LowerCaseColumn => format!(
                "column letters are upper case: write {}{}",
                at[0].to_ascii_uppercase() as char,
                String::from_utf8_lossy(&at[1..1 + digits])
            ),
            FaultKind::LowerCasePiece => {
                let mut fixed = word.to_vec();
                fixed[self.offset].make_ascii_uppercase();
                format!(
                    "piece letters are upper case: write {}",
                    String::from_utf8_lossy(&fixed)
                )
            }
            FaultKind::OffBoard => match Hex::parse(&at[..1 + digits]) {
                Err(e @ HexError::NoColumn(b'J')) => {
                    format!("{e}; J is the bishop's letter: a bishop move is written JF4-D10")
                }
                Err(e) => e.to_string(),
                Ok(h) => format!("{h} is not a hex here"),
            },
            FaultKind::PromotesTo => {
                "a pawn promotes to E, J, N, G, R, V or D (or & while it awaits promotion)".into()
            }
            FaultKind::NoPromotionPiece => "= must be followed by the piece promoted to (E J N G R V D), or & for a pawn awaiting promotion".into(),
            FaultKind::ForcedPromotionPiece => {
                "a forced promotion names the piece: B24=D (=& is only for a pawn arriving)".into()
            }
            FaultKind::TextAfterMove => "unexpected text after the move".into(),
            FaultKind::LetterX => "the letter x is not a capture sign in CTL-AN: write × or *".into(),
            FaultKind::NoSeparator => "a move is written ORIGIN-DESTINATION (- or ‐), ORIGIN×DESTINATION (× or *) or with @ / @@ for the pawn captures".into(),
            FaultKind::CapturedPieceWithDash => {
                "a captured piece is written only in a capture: use × or * instead of -".into()
            }
            FaultKind::SameHex => "origin and destination are the same hex".into(),
            FaultKind::CastlingPrefix => {
                "castling is written KRK-, KRD- or KRR- followed by the target columns".into()
            }
            FaultKind::CastlingSuffix(shape) => {
                let letters = at.iter().take_while(|c| c.is_ascii_alphabetic()).count();
                let suffixes = CASTLING
                    .iter()
                    .find(|(p, _)| **p == shape)
                    .map_or(&[][..], |(_, s)| *s);
                format!(
                    "{} is not a castling of {}: write one of {}",
                    String::from_utf8_lossy(&at[..letters]),
                    String::from_utf8_lossy(&shape),
                    suffixes.join(" ")
                )
            }
        }
    }
}

pub(crate) type Parse<T> = Result<T, Fault>;

#[cold]
pub(super) fn fail<T>(offset: usize, kind: FaultKind) -> Parse<T> {
    Err(Fault { offset, kind })
}
