//! Castling: the table of castlings, the king's and rooks' home hexes,
//! where a castling takes its pieces, and the castling field's marks of
//! which of them have never left home.

use super::messages::Incoherence;
use super::rules::{standard, KING, ROOK};
use crate::grammar::hex::Hex;
use crate::grammar::model::{Action, Glyph, HalfMove, Side};
use crate::pdtl::CastleMark;
use std::sync::OnceLock;

/// White's castlings, from the author's reference program: prefix, suffix,
/// the king's target, the target of the rook the prefix names (the king's
/// rook for KRR), and for KRR the queen's rook's target. Black mirrors the
/// lines (line L becomes 28 - L).
pub(super) const CASTLINGS: [(&str, &str, &str, &str, Option<&str>); 24] = [
    ("KRK", "II", "I5", "I7", None),
    ("KRK", "IK", "I5", "K4", None),
    ("KRK", "IH", "I5", "H4", None),
    ("KRK", "HIO", "H6", "I5", None),
    ("KRK", "HIOO", "H6", "I7", None),
    ("KRK", "HH", "H6", "H4", None),
    ("KRK", "HG", "H6", "G5", None),
    ("KRK", "FG", "F6", "G5", None),
    ("KRK", "FE", "F6", "E7", None),
    ("KRK", "EF", "E5", "F6", None),
    ("KRK", "EE", "E5", "E7", None),
    ("KRD", "DD", "D2", "D4", None),
    ("KRD", "DE", "D2", "E1", None),
    ("KRD", "HH", "H6", "H8", None),
    ("KRD", "HG", "H6", "G7", None),
    ("KRD", "FG", "F6", "G7", None),
    ("KRD", "FE", "F6", "E5", None),
    ("KRD", "EF", "E5", "F6", None),
    ("KRD", "ED", "E5", "D4", None),
    ("KRR", "HIH", "H6", "I7", Some("H8")),
    ("KRR", "HGG", "H6", "G5", Some("G7")),
    ("KRR", "FGG", "F6", "G5", Some("G7")),
    ("KRR", "FEE", "F6", "E7", Some("E5")),
    ("KRR", "EEF", "E5", "E7", Some("F6")),
];

/// Home hexes on White's side; Black's mirror them.
pub(super) const KING_HOME: &str = "G1";
pub(super) const KING_ROOK_HOME: &str = "I3";
pub(super) const QUEEN_ROOK_HOME: &str = "C3";

/// Which of a side's castling pieces have never left home: what the PDTL
/// castling field records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Unmoved {
    pub(super) king: bool,
    pub(super) queen_rook: bool,
    pub(super) king_rook: bool,
}

/// The lines that hold a castling home, either side's, as bits: a hex on
/// no other line ends no castling right, which is what most moves ask.
pub(super) const HOME_LINES: u32 = {
    let homes = [KING_HOME, KING_ROOK_HOME, QUEEN_ROOK_HOME];
    let mut lines = 0;
    let mut i = 0;
    while i < homes.len() {
        // The home's line: its digits after the column letter.
        let b = homes[i].as_bytes();
        let mut line = 0;
        let mut k = 1;
        while k < b.len() {
            line = line * 10 + (b[k] - b'0') as u32;
            k += 1;
        }
        lines |= 1 << line | 1 << (28 - line);
        i += 1;
    }
    lines
};

/// Each side's king, king's rook and queen's rook homes: a piece set on
/// one ends that castling right. Worked out once, as every move asks.
pub(super) fn castling_homes() -> &'static [[Hex; 3]; 2] {
    static HOMES: OnceLock<[[Hex; 3]; 2]> = OnceLock::new();
    HOMES.get_or_init(|| {
        [Side::White, Side::Black]
            .map(|side| [KING_HOME, KING_ROOK_HOME, QUEEN_ROOK_HOME].map(|h| home(h, side)))
    })
}

/// Where a castling takes its king and rooks from, and to.
pub(super) struct Castling {
    pub(super) king_from: Hex,
    pub(super) king_target: Hex,
    /// (home, target) of each rook that castles, the prefix's rook first.
    pub(super) rooks: Vec<(Hex, Hex)>,
}

/// The castling `prefix`-`suffix` of `side`, as [`CASTLINGS`] lists it.
pub(super) fn castling(
    side: Side,
    prefix: [Glyph; 3],
    suffix: [u8; 4],
) -> Result<Castling, Incoherence> {
    let shape = [
        standard(prefix[0]),
        standard(prefix[1]),
        standard(prefix[2]),
    ];
    let suffix = &suffix[..suffix.iter().position(|&b| b == 0).unwrap_or(4)];
    let Some(&(_, _, king_to, rook_to, queen_rook_to)) = CASTLINGS
        .iter()
        .find(|c| c.0.as_bytes() == shape && c.1.as_bytes() == suffix)
    else {
        return Err(Incoherence::new(format!(
            "{}-{} is not a castling",
            String::from_utf8_lossy(&shape),
            String::from_utf8_lossy(suffix)
        )));
    };
    let rooks = match (&shape, queen_rook_to) {
        (b"KRD", _) => vec![(home(QUEEN_ROOK_HOME, side), home(rook_to, side))],
        (_, None) => vec![(home(KING_ROOK_HOME, side), home(rook_to, side))],
        (_, Some(q)) => vec![
            (home(KING_ROOK_HOME, side), home(rook_to, side)),
            (home(QUEEN_ROOK_HOME, side), home(q, side)),
        ],
    };
    Ok(Castling {
        king_from: home(KING_HOME, side),
        king_target: home(king_to, side),
        rooks,
    })
}

/// The hexes `mv` names: its origin and destination; a castling's king's
/// and rooks' homes and targets (its king's home alone when the castling
/// is not one); a forced promotion's hex.
pub(crate) fn move_hexes(mv: &HalfMove) -> Vec<Hex> {
    match mv.action {
        Action::Move { from, to, .. } => vec![from, to],
        Action::ForcedPromotion { at, .. } => vec![at],
        Action::Castling { prefix, suffix, .. } => match castling(mv.side, prefix, suffix) {
            Ok(c) => std::iter::once((c.king_from, c.king_target))
                .chain(c.rooks)
                .flat_map(|(from, to)| [from, to])
                .collect(),
            Err(_) => vec![home(KING_HOME, mv.side)],
        },
    }
}

/// A White home hex (`G1`) for `side`: Black's mirrors the line.
pub(super) fn home(white: &str, side: Side) -> Hex {
    let h = Hex::parse(white.as_bytes()).expect("home and target hexes are on the board");
    match side {
        Side::White => h,
        Side::Black => Hex::new(h.column(), 28 - u32::from(h.line()))
            .expect("the board is symmetric across line 14"),
    }
}

/// Castling state from a PDTL castling field: White's marks (upper case,
/// or a leading `-`), then Black's. A side left out has moved its king.
pub(super) fn unmoved_from_marks(marks: &[CastleMark]) -> [Unmoved; 2] {
    let white_len = match marks.first() {
        Some(CastleMark::Moved) => 1,
        _ => marks
            .iter()
            .take_while(|m| matches!(m, CastleMark::Piece(p) if p.side == Side::White))
            .count(),
    };
    let (white, black) = marks.split_at(white_len);
    [read_side(white), read_side(black)]
}

/// `RKR`, `RK`, `KR`, `K`: a rook before the king is the queen's rook.
fn read_side(marks: &[CastleMark]) -> Unmoved {
    let letters: Vec<u8> = marks
        .iter()
        .map(|m| match m {
            CastleMark::Piece(p) => standard(p.glyph),
            CastleMark::Moved => b'-',
        })
        .collect();
    let Some(k) = letters.iter().position(|&l| l == KING) else {
        return Unmoved::default();
    };
    Unmoved {
        king: true,
        queen_rook: letters[..k].contains(&ROOK),
        king_rook: letters[k + 1..].contains(&ROOK),
    }
}

/// A side's part of the castling field, as [`read_side`] reads it:
/// `RKR`, `RK`, `KR`, `K`, or `-` when its king has moved; lower case for
/// Black.
pub(super) fn side_marks(u: Unmoved, side: Side) -> String {
    let mut s = String::new();
    if !u.king {
        s.push('-');
    } else {
        if u.queen_rook {
            s.push('R');
        }
        s.push('K');
        if u.king_rook {
            s.push('R');
        }
    }
    if side == Side::Black {
        s.make_ascii_lowercase();
    }
    s
}
