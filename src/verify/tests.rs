//! The unit tests of [`Position`]: read from a PDTL, played on, refused
//! or not, and written back; with the helpers the other files' tests
//! share (a half-move as the reader hands it over).

use super::castling::{home, CASTLINGS, KING_HOME};
use super::position::{Position, INITIAL_PDTL};
use super::rules::{KING, ROOK};
use crate::diag::Pos;
use crate::grammar::hex::Hex;
use crate::grammar::model::{Action, Glyph, HalfMove, Side};
use crate::pdtl::{EnPassant, Pdtl};

fn hex(s: &str) -> Hex {
    Hex::parse(s.as_bytes()).unwrap()
}

/// A half-move as the reader would hand it over.
pub(super) fn half_move(side: Side, number: u32, text: &str) -> HalfMove {
    let p = crate::grammar::half_move::parse(text.as_bytes())
        .unwrap_or_else(|e| panic!("{text}: {}", e.message(text.as_bytes())));
    let (action, check) = (p.action, p.check);
    let mut mv = HalfMove::new(number, side, action, check);
    mv.pos = Pos { line: 1, offset: 0 };
    mv
}

/// Plays `moves` (White first, numbered from 1) and returns the position.
fn after(moves: &[&str]) -> Position {
    let mut p = Position::initial();
    for (i, m) in moves.iter().enumerate() {
        let side = if i % 2 == 0 { Side::White } else { Side::Black };
        p.play(&half_move(side, 1 + i as u32 / 2, m))
            .unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    p
}

/// The reason `text` is refused after `moves`, and that refusing it
/// changed nothing.
fn refusal(moves: &[&str], text: &str) -> String {
    let mut p = after(moves);
    let before = p.clone();
    let side = if moves.len().is_multiple_of(2) {
        Side::White
    } else {
        Side::Black
    };
    let e = p
        .play(&half_move(side, 1 + moves.len() as u32 / 2, text))
        .expect_err(text);
    assert_eq!(p, before, "a refused move leaves the position as it was");
    e.to_string()
}

fn at(p: &Position, h: &str) -> Option<(Side, char)> {
    p.piece(hex(h)).map(|p| (p.side, p.glyph.letter as char))
}

#[test]
fn the_initial_position_is_the_spec_setup_and_writes_back_the_same() {
    let p = Position::initial();
    assert_eq!(p.to_string(), INITIAL_PDTL);
    assert_eq!(p.pieces().count(), 54);
    assert_eq!(at(&p, "G1"), Some((Side::White, 'K')));
    assert_eq!(at(&p, "G27"), Some((Side::Black, 'K')));
    assert_eq!(at(&p, "F0"), Some((Side::White, 'V')));
    assert_eq!(p.turn(), Side::White);
}

#[test]
fn pdtl_fields_round_trip_through_a_position() {
    for s in [
        "/27:1k/22:1P5/7:1p6/1:DK/ w -- - 0 40",
        "/27:1k/25:r3/3:R2R/1:1K/ b RKR- G15@13 7 12",
        "/27:1k/25:r2r/3:3R/1:1K/ w KRrkr G13@9-11 0 3",
        "/27:1k/25:r3/1:1K/ w K- F14 3 ?",
    ] {
        let p = Position::from_pdtl(&Pdtl::parse(s).unwrap());
        assert_eq!(p.to_string(), s);
    }
}

#[test]
fn alternative_letters_and_figurines_become_standard_letters() {
    let p = Position::from_pdtl(&Pdtl::parse("/28:🩒/27:1♚/3:T3/1:QK/ b TK- - 0 1").unwrap());
    assert_eq!(p.to_string(), "/28:v/27:1k/3:R3/1:DK/ b RK- - 0 1");
}

#[test]
fn a_plain_move_moves_the_piece_and_counts_the_clock() {
    let p = after(&["E7-E13", "NE25-C21"]);
    assert_eq!(at(&p, "E7"), None);
    assert_eq!(at(&p, "E13"), Some((Side::White, 'P')));
    assert_eq!(at(&p, "C21"), Some((Side::Black, 'N')));
    assert_eq!(p.halfmove_clock(), 1);
    assert_eq!(p.number(), Some(2));
    assert_eq!(p.turn(), Side::White);
}

#[test]
fn the_origin_must_hold_the_movers_piece_of_the_named_kind() {
    assert_eq!(refusal(&[], "E9-E11"), "no piece at E9");
    assert_eq!(
        refusal(&[], "E21-E17"),
        "E21 holds a Black pawn (P), not a White piece"
    );
    assert_eq!(
        refusal(&[], "JE7-E11"),
        "E7 holds a White pawn (P), not a bishop (J)"
    );
}

#[test]
fn a_move_is_refused_out_of_turn() {
    let mut p = Position::initial();
    let e = p.play(&half_move(Side::Black, 1, "E21-E15")).unwrap_err();
    assert_eq!(e.to_string(), "it is White's turn");
}

#[test]
fn a_plain_move_needs_an_empty_destination() {
    assert_eq!(
        refusal(&[], "EE5-E7"),
        "E7 is occupied by a White pawn (P): a move without capture lands on an empty hex"
    );
}

#[test]
fn a_capture_needs_an_opponent_piece_of_the_named_kind() {
    let opening = ["E7-E13", "E21-E15", "F8-F12", "F20-F16"];
    let p = after(&[&opening[..], &["E13*F16"]].concat());
    assert_eq!(at(&p, "F16"), Some((Side::White, 'P')));
    assert_eq!(p.halfmove_clock(), 0);
    assert_eq!(refusal(&opening, "E13*F18"), "nothing to capture on F18");
    assert_eq!(
        refusal(&opening, "E13*NF16"),
        "F16 holds a Black pawn (P), not a knight (N)"
    );
    assert_eq!(refusal(&[], "EE5*E7"), "E7 holds White's own pawn (P)");
}

#[test]
fn en_passant_on_the_first_hex_of_a_triple_move_is_double_at() {
    let opening = [
        "E7-E13", "E21-E15", "F8-F12", "F20-F16", "E13*F16", "E15*F12",
    ];
    let p = after(&[&opening[..], &["G7-G13"]].concat());
    assert_eq!(p.en_passant(), EnPassant::Triple(hex("G13"), 9, 11));
    let p = after(&[&opening[..], &["G7-G13", "F12@@G9"]].concat());
    assert_eq!(at(&p, "G13"), None, "the pawn taken is removed");
    assert_eq!(at(&p, "G9"), Some((Side::Black, 'P')));
    assert_eq!(at(&p, "F12"), None);
    assert_eq!(p.en_passant(), EnPassant::None);
    assert_eq!(
        refusal(&[&opening[..], &["G7-G13"]].concat(), "F12@@G11"),
        "@@ takes on the first hex a triple pawn move passed, and White's last move passed no pawn over G11 first"
    );
}

#[test]
fn en_passant_takes_on_any_hex_the_pawn_passed() {
    // 8... D22-D16 passes D20 and D18; 9. E15@D18 takes on the second.
    let p = after(&["E7-E15", "D22-D16", "E15@D18"]);
    assert_eq!(at(&p, "D16"), None);
    assert_eq!(at(&p, "D18"), Some((Side::White, 'P')));
    let p = after(&["H6-H10", "D22-D18", "H10-H12", "D18-D14"]);
    assert_eq!(p.en_passant(), EnPassant::Double(hex("D14"), 16));
    assert_eq!(
        refusal(&["E7-E15", "D22-D16"], "E15@D14"),
        "nothing to take on D14: no Black pawn stands there (scornful capture) and Black's last move passed no pawn over it (en passant)"
    );
}

#[test]
fn en_passant_from_the_pdtl_field() {
    let pdtl = Pdtl::parse("/27:1k/13:3p4/11:2P5/1:1K/ w - E13@9-11 0 30").unwrap();
    let mut p = Position::from_pdtl(&pdtl);
    let e = p.play(&half_move(Side::White, 30, "C11@E7")).unwrap_err();
    assert!(e.to_string().starts_with("nothing to take on E7"), "{e}");
    // On the first hex of a triple move the spec writes `@@`, not `@`.
    let e = p
        .clone()
        .play(&half_move(Side::White, 30, "C11@E9"))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "E9 is the first hex the pawn on E13 crossed in its triple move: en passant there is written @@, not @"
    );
    p.play(&half_move(Side::White, 30, "C11@@E9")).unwrap();
    assert_eq!(at(&p, "E13"), None);
    let pdtl = Pdtl::parse("/27:1k/11:2P5/1:1K/ w - E13@9-11 0 30").unwrap();
    let mut p = Position::from_pdtl(&pdtl);
    let e = p.play(&half_move(Side::White, 30, "C11@@E9")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no piece at E13, the pawn to take en passant"
    );
    let pdtl = Pdtl::parse("/27:1k/13:4P3/10:3p3/1:1K/ b - G13@9-11 0 30").unwrap();
    let mut p = Position::from_pdtl(&pdtl);
    p.play(&half_move(Side::Black, 30, "F10@@G9")).unwrap();
    assert_eq!(at(&p, "G13"), None);
    assert_eq!(at(&p, "G9"), Some((Side::Black, 'P')));
    assert_eq!(p.number(), Some(31));
}

#[test]
fn a_scornful_capture_takes_the_pawn_that_stepped_to_the_destination() {
    // The spec's F14: White's E13 faces Black's E15 and steps to F14.
    let scornful = ["E7-E13", "E21-E15", "E13-F14"];
    let p = after(&[&scornful[..], &["E15@F14"]].concat());
    assert_eq!(at(&p, "F14"), Some((Side::Black, 'P')));
    assert_eq!(at(&p, "E15"), None);
    // A pawn that stands there otherwise is taken with ×: here F14
    // made a triple move, and en passant takes on F16 or F18.
    assert_eq!(
        refusal(&["E7-E13", "F20-F14"], "E13@F14"),
        "@ is for en passant and scornful captures: write E13×F14"
    );
    // Only on the half-move right after the scornful move.
    assert_eq!(
        refusal(
            &[&scornful[..], &["NE25-C21", "EE5-E7"]].concat(),
            "E15@F14"
        ),
        "@ is for en passant and scornful captures: write E15×F14"
    );
    // What is taken must be what the move names, whatever the sign.
    assert_eq!(
        refusal(&["E7-E13", "NE25-F14"], "E13@F14"),
        "F14 holds a Black knight (N), not a pawn (P)"
    );
    assert_eq!(
        refusal(&["E7-E13", "NE25-F14"], "E13@NF14+"),
        "@ is for en passant and scornful captures: write E13×NF14+"
    );
    assert_eq!(
        refusal(&["E7-E13", "F20-F14"], "JF6@F14"),
        "@ is a pawn's capture, and the piece moved is a bishop (J)"
    );
}

/// The spec's rare case: a scornful move that promotes (from column A
/// onto T22, T's last hex) is taken with `@` naming the promoted piece.
#[test]
fn a_scornful_pawn_that_promoted_is_taken_with_at_naming_its_piece() {
    let pdtl = Pdtl::parse("/27:1k/23:p5/21:1P6/1:1K/ w -- - 0 30").unwrap();
    let mut p = Position::from_pdtl(&pdtl);
    p.play(&half_move(Side::White, 30, "A21-T22=D")).unwrap();
    assert_eq!(p.en_passant(), EnPassant::Scornful(hex("T22")));
    let e = p
        .clone()
        .play(&half_move(Side::Black, 30, "A23@T22"))
        .unwrap_err();
    assert_eq!(e.to_string(), "T22 holds a White queen (D), not a pawn (P)");
    p.play(&half_move(Side::Black, 30, "A23@DT22")).unwrap();
    assert_eq!(at(&p, "T22"), Some((Side::Black, 'P')));
}

#[test]
fn promotion_needs_a_pawn_arriving_on_the_last_hex() {
    let pdtl = "/27:1k/22:1P5/7:1p6/1:DK/ w -- - 0 40";
    let mut p = Position::from_pdtl(&Pdtl::parse(pdtl).unwrap());
    let e = p
        .play(&half_move(Side::White, 40, "B22-B24=&"))
        .map(|_| p.clone());
    assert_eq!(at(&e.unwrap(), "B24"), Some((Side::White, 'P')));
    let mut p = Position::from_pdtl(&Pdtl::parse(pdtl).unwrap());
    p.play(&half_move(Side::White, 40, "B22-B24=D")).unwrap();
    assert_eq!(at(&p, "B24"), Some((Side::White, 'D')));
    p.play(&half_move(Side::Black, 40, "A7-A5=&")).unwrap();
    p.play(&half_move(Side::White, 41, "DB24-B20")).unwrap();
    let mut to_king = half_move(Side::Black, 41, "A5=J");
    to_king.action = Action::ForcedPromotion {
        at: hex("A5"),
        piece: Glyph::letter(KING),
    };
    let e = p.play(&to_king).unwrap_err();
    assert_eq!(e.to_string(), "a pawn promotes to E, J, N, G, R, V or D");
    p.play(&half_move(Side::Black, 41, "A5=J")).unwrap();
    assert_eq!(at(&p, "A5"), Some((Side::Black, 'J')));
    assert_eq!(
        refusal(&[], "E7-E13=D"),
        "a pawn promotes on the last hex of its column, and E13 is not: column E ends at E27 for White"
    );
    assert_eq!(
        refusal(&[], "E7=D"),
        "a pawn awaiting promotion stands on the last hex of its column, and E7 is not: column E ends at E27 for White"
    );
    assert_eq!(
        refusal(&[], "B24=D"),
        "B24 holds a Black pawn (P), not a White piece"
    );
    let mut p = Position::from_pdtl(&Pdtl::parse(pdtl).unwrap());
    let e = p.play(&half_move(Side::White, 40, "KG1-G3=D")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "only a pawn promotes, and the piece moved is a king (K)"
    );
}

/// A board with only the kings and rooks at home.
fn castling_ready() -> Position {
    let mut p = Position::initial();
    for cell in p.board.iter_mut() {
        if !matches!(cell, Some(pc) if matches!(pc.glyph.letter, KING | ROOK)) {
            *cell = None;
        }
    }
    p
}

#[test]
fn every_castling_lands_on_its_table_hexes_for_both_sides() {
    for &(prefix, suffix, king_to, rook_to, queen_rook_to) in &CASTLINGS {
        for side in [Side::White, Side::Black] {
            let text = format!("{prefix}-{suffix}");
            let mut p = castling_ready();
            p.turn = side;
            p.play(&half_move(side, 1, &text))
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            let mirror = |h: &str| home(h, side);
            let want_rooks: Vec<Hex> = std::iter::once(mirror(rook_to))
                .chain(queen_rook_to.map(mirror))
                .collect();
            assert_eq!(
                p.piece(mirror(king_to)).map(|p| (p.side, p.glyph.letter)),
                Some((side, KING)),
                "{text} {side}"
            );
            for r in &want_rooks {
                assert_eq!(
                    p.piece(*r).map(|p| (p.side, p.glyph.letter)),
                    Some((side, ROOK)),
                    "{text} {side}: rook on {r}"
                );
            }
            let own = p.pieces().filter(|(_, pc)| pc.side == side).count();
            assert_eq!(own, 3, "{text} {side}: three pieces, none duplicated");
            assert_eq!(p.piece(home(KING_HOME, side)), None, "{text} {side}");
            let field = p.to_string();
            let castling = field.split(' ').nth(2).unwrap();
            assert_eq!(
                castling,
                if side == Side::White { "-rkr" } else { "RKR-" },
                "{text} {side}"
            );
        }
    }
}

#[test]
fn black_castling_mirrors_the_lines() {
    let mut p = castling_ready();
    p.turn = Side::Black;
    p.play(&half_move(Side::Black, 21, "KRD-DE")).unwrap();
    assert_eq!(at(&p, "D26"), Some((Side::Black, 'K')));
    assert_eq!(at(&p, "E27"), Some((Side::Black, 'R')));
    assert_eq!(at(&p, "I25"), Some((Side::Black, 'R')));
}

#[test]
fn castling_needs_its_pieces_at_home_and_its_targets_free() {
    assert_eq!(
        refusal(&[], "KRK-II"),
        "castling needs I5 empty, and it holds a White pawn (P)"
    );
    let mut p = castling_ready();
    p.board[hex("I3")] = None;
    let e = p.play(&half_move(Side::White, 1, "KRK-II")).unwrap_err();
    assert_eq!(e.to_string(), "the rook castles from I3: no piece at I3");
    let mut p = castling_ready();
    p.board[hex("G1")] = None;
    let e = p.play(&half_move(Side::White, 1, "KRR-HIH")).unwrap_err();
    assert_eq!(e.to_string(), "the king castles from G1: no piece at G1");
    // The rook the prefix names is the one that must be home.
    let mut p = castling_ready();
    p.board[hex("I3")] = None;
    p.play(&half_move(Side::White, 1, "KRD-DD")).unwrap();
}

#[test]
fn the_castling_field_follows_pieces_leaving_home() {
    let p = after(&["I5-I7", "C23-C21", "RI3-I5", "C21-C19", "RI5-I3"]);
    assert!(p.to_string().contains(" b RKrkr "), "{p}");
    let p = after(&["E7-E13", "NE25-C21", "KG1-G11", "RC25-C13"]);
    assert!(p.to_string().contains(" w -kr "), "{p}");
}

#[test]
fn the_move_number_follows_the_moves_and_becomes_unknown_with_n_question() {
    let mut p = Position::initial();
    let mut mv = half_move(Side::White, 7, "E7-E13");
    mv.unknown_number = true;
    p.play(&mv).unwrap();
    assert_eq!(p.number(), None);
    p.play(&half_move(Side::Black, 7, "E21-E15")).unwrap();
    assert_eq!(p.number(), None, "still unknown after the N? move");
    assert!(p.to_string().ends_with(" w RKRrkr E15@17-19 0 ?"), "{p}");
}

#[test]
fn a_scornful_move_is_recorded_in_the_final_position() {
    // The spec's F14: White's E13 faces Black's E15 and steps to F14.
    let p = after(&["E7-E13", "E21-E15", "E13-F14"]);
    assert_eq!(p.en_passant(), EnPassant::Scornful(hex("F14")));
    assert!(p.to_string().ends_with(" b RKRrkr F14 0 2"), "{p}");
    // Black's E15 takes it with `@`, and the field is cleared.
    let p = after(&["E7-E13", "E21-E15", "E13-F14", "E15@F14"]);
    assert_eq!(at(&p, "F14"), Some((Side::Black, 'P')));
    assert_eq!(p.en_passant(), EnPassant::None);
    // Black's G15, facing White's G13, steps to F14: the same field.
    let p = after(&["G7-G13", "G21-G15", "EE5-E9", "G15-F14"]);
    assert_eq!(p.en_passant(), EnPassant::Scornful(hex("F14")));
    // No pawn faced it, or its own pawn did: not scornful.
    assert_eq!(
        after(&["E7-E13", "NE25-C21", "E13-F14"]).en_passant(),
        EnPassant::None
    );
    let pdtl = Pdtl::parse("/27:1k/11:3P4/9:3P4/1:1K/ w -- - 0 5").unwrap();
    let mut p = Position::from_pdtl(&pdtl);
    p.play(&half_move(Side::White, 5, "E9-F10")).unwrap();
    assert_eq!(p.en_passant(), EnPassant::None);
    // A step along the column is no scornful move.
    assert_eq!(
        after(&["E7-E11", "E21-E15", "E11-E13"]).en_passant(),
        EnPassant::None
    );
}
