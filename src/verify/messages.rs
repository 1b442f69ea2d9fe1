//! What the verifier says: why a half-move does not fit ([`Incoherence`]),
//! the error that reports it, and how pieces are named in both.

use crate::diag::{DiagnosticKind, Message};
use crate::grammar::model::{Action, HalfMove, Sep};
use crate::pdtl::Piece;
use std::fmt;

/// Why a half-move does not fit the position it is played in.
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, Verify};
/// let mut f = FilterBuilder::new().pass(Box::new(Verify::new())).build();
/// let (_, diags, _) = f.filter_bytes(b"1. E9-E11:\n");
/// assert_eq!(diags[0].message, "move 1 (White) E9-E11: no piece at E9");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoherence {
    /// Boxed, so that a replay's results travel in two registers.
    message: Box<str>,
}

impl Incoherence {
    pub(super) fn new(message: impl Into<String>) -> Incoherence {
        Incoherence {
            message: message.into().into_boxed_str(),
        }
    }
}

impl fmt::Display for Incoherence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Incoherence {}

/// `mv` written with the spec's capture sign `×` for its separator.
pub(super) fn written_as_capture(mv: &HalfMove) -> String {
    let mut capture = *mv;
    if let Action::Move { sep, .. } = &mut capture.action {
        *sep = Sep::Capture { times: true };
    }
    let mut text = Vec::new();
    capture.write_move(&mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// `a White pegasus (G)`
pub(super) fn describe(p: Piece) -> String {
    format!("a {} {}", p.side, named(p.glyph.letter))
}

/// `pegasus (G)`
pub(super) fn named(kind: u8) -> String {
    format!("{} ({})", named_short(kind), kind as char)
}

pub(super) fn named_short(kind: u8) -> &'static str {
    match kind {
        b'P' => "pawn",
        b'E' => "elephant",
        b'J' => "bishop",
        b'N' => "knight",
        b'G' => "pegasus",
        b'R' => "rook",
        b'V' => "wyvern",
        b'D' => "queen",
        b'K' => "king",
        _ => "piece",
    }
}

/// Reports `fault` as an error at `mv`: `move 7 (White) E7-E13: FAULT`.
/// What to say of `mv`, incoherent as `fault` says.
pub(crate) fn incoherent(mv: &HalfMove, fault: &Incoherence) -> Message {
    let mut text = Vec::new();
    mv.write_move(&mut text);
    let text = format!(
        "move {}{} ({}) {}: {fault}",
        mv.number,
        if mv.unknown_number { "?" } else { "" },
        mv.side,
        String::from_utf8_lossy(&text)
    );
    Message::new(DiagnosticKind::Incoherent, text)
}
