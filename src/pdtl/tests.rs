//! The unit tests of the PDTL: values parsed and written back, the faults
//! refused, and the forms read with a warning.

use super::{CastleMark, EnPassant, Pdtl, PdtlError, Piece};
use crate::grammar::hex::Hex;
use crate::grammar::model::{Glyph, Side};

const INITIAL: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1";

fn round_trip(s: &str) -> String {
    let mut out = Vec::new();
    Pdtl::parse(s).unwrap().write_to(&mut out);
    String::from_utf8(out).unwrap()
}

#[test]
fn initial_setup_round_trips() {
    assert_eq!(round_trip(INITIAL), INITIAL);
}

#[test]
fn initial_setup_has_the_kings_on_g1_and_g27() {
    let p = Pdtl::parse(INITIAL).unwrap();
    let k = p.piece(Hex::parse(b"G1").unwrap()).unwrap();
    assert_eq!((k.glyph.letter, k.side), (b'K', Side::White));
    let k = p.piece(Hex::parse(b"G27").unwrap()).unwrap();
    assert_eq!((k.glyph.letter, k.side), (b'K', Side::Black));
}

#[test]
fn missing_move_number_becomes_question_mark() {
    let s = "/28:v/27:1k/26:1jg/25:r1nr/24:pejep/23:pp2pp/22:2pjp2/21:4p3/11:3J4/9:4J3/8:3G3/7:2NN1P2/6:2P1Pd1/5:PPG2g/4:PE1EP/3:R3/2:2R/1:DK/0:V/ b KRrkr - 2";
    assert!(round_trip(s).ends_with(" b KRrkr - 2 ?"));
}

#[test]
fn en_passant_forms() {
    for ep in ["F14", "G15@13", "G13@9-11"] {
        let s = format!("/27:1k/1:1K/0:V/ w - {ep} 0 1");
        assert_eq!(round_trip(&s), s);
    }
    assert_eq!(
        round_trip("/27:1k/1:1K/0:V/ w - G13@9‐11 0 1"),
        "/27:1k/1:1K/0:V/ w - G13@9-11 0 1"
    );
}

#[test]
fn en_passant_lines_are_on_the_board() {
    assert!(Pdtl::parse("/27:1k/1:1K/0:V/ w - G15@300 0 1").is_err());
    assert!(Pdtl::parse("/27:1k/1:1K/0:V/ w - G13@9-30 0 1").is_err());
}

#[test]
fn castling_forms() {
    for c in ["RKRrkr", "KRrkr", "Kk", "-", "--", "RK-", "-kr"] {
        let s = format!("/27:1k/1:1K/0:V/ w {c} - 0 1");
        assert_eq!(round_trip(&s), s, "{c}");
    }
    assert_eq!(
        round_trip("/27:1k/1:1K/0:V/ w ‐‐ - 0 1"),
        "/27:1k/1:1K/0:V/ w -- - 0 1"
    );
    assert!(Pdtl::parse("/27:1k/1:1K/0:V/ w RRK - 0 1").is_err());
}

fn error(s: &str) -> PdtlError {
    Pdtl::parse(s).unwrap_err()
}

#[test]
fn line_outside_the_board() {
    assert_eq!(error("/29:v/ w - - 0 1").offset, 1);
}

#[test]
fn too_few_hexes_on_a_line() {
    assert!(error("/22:2pjp/ w - - 0 1")
        .message
        .contains("7 hexes, but 5"));
}

#[test]
fn digits_that_overrun() {
    assert!(error("/22:8/ w - - 0 1").message.contains("overruns"));
}

#[test]
fn a_count_too_long_to_read_overruns_its_line() {
    let e = error("/1:D99999999999999999K/ w - - 0 1");
    assert_eq!(e.message, "line 1 has 2 hexes; this run overruns it");
    assert_eq!(e.offset, 4);
}

#[test]
fn numbers_too_long_to_read_are_errors() {
    for f in [
        "/99999999999:K/ w - - 0 1",
        "/27:1k/1:DK/ w - - 99999999999 1",
        "/27:1k/1:DK/ w - - 0 99999999999",
    ] {
        assert!(Pdtl::parse(f).is_err(), "{f}");
    }
}

#[test]
fn unknown_piece_letter() {
    assert!(error("/0:Y/ w - - 0 1")
        .message
        .starts_with("Y is not a piece"));
}

#[test]
fn two_kings_of_one_colour() {
    assert_eq!(error("/1:KK/ w - - 0 1").message, "two White kings");
}

/// Not a C'escacs position: an error at the value's start, naming the
/// king that is missing.
#[test]
fn a_position_without_a_king_is_an_error_naming_the_missing_king() {
    for (value, message) in [
        (
            "/27:1k/3:R3/ w - - 0 1",
            "the position has no White king: each side has one; place White's (K)",
        ),
        (
            "/3:R3/1:1K/ w K - 0 1",
            "the position has no Black king: each side has one; place Black's (k)",
        ),
        (
            "/0:V/ w - - 0 1",
            "the position has no king: each side has one; place White's (K) and Black's (k)",
        ),
        // A figurine king counts as one.
        (
            "/27:1♚/3:R3/ w - - 0 1",
            "the position has no White king: each side has one; place White's (K)",
        ),
    ] {
        let e = error(value);
        assert_eq!((e.offset, e.message.as_str()), (0, message), "{value}");
    }
    assert!(Pdtl::parse("/27:1♚/1:1♔/ w - - 0 1").is_ok());
}

/// The value written back, and the (offset, message) of each warning.
fn normalised(s: &str) -> (String, Vec<(usize, String)>) {
    let (p, warnings) = Pdtl::parse_with_warnings(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    let mut out = Vec::new();
    p.write_to(&mut out);
    let warnings = warnings
        .into_iter()
        .map(|w| (w.offset, format!("{}: {}", w.message, w.fix)))
        .collect();
    (String::from_utf8(out).unwrap(), warnings)
}

#[test]
fn the_spec_forms_parse_without_a_warning() {
    for s in [
        INITIAL,
        "/27:1k/1:1K/0:V/ w - F14 0 1",
        "/27:1k/1:1K/0:V/ w - G15@13 0 ?",
        "/27:1k/1:1K/0:V/ w - G13@9-11 3 12",
        "/27:1k/1:1K/0:V/ w -- - 0 1",
    ] {
        assert_eq!(normalised(s), (s.to_string(), vec![]), "{s}");
    }
}

#[test]
fn lines_in_any_order_are_written_from_28_down() {
    // The author's program's saved position, line 5 after line 3.
    let (text, warnings) = normalised("/27:1k/25:r2r/3:R2R/5:4P1/1:1K/ b RKRrkr - 0 1");
    assert_eq!(text, "/27:1k/25:r2r/5:4P1/3:R2R/1:1K/ b RKRrkr - 0 1");
    assert_eq!(
        warnings,
        [(
            20,
            "lines are written from 28 down to 0: line 5 comes after line 3: written in order"
                .to_string()
        )]
    );
    // Ascending throughout: one warning, at the first line out of order.
    let (text, warnings) = normalised("/0:V/1:DK/27:dk/28:v/ w RKRrkr - 0 1");
    assert_eq!(text, "/28:v/27:dk/1:DK/0:V/ w RKRrkr - 0 1");
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].0, 5);
    assert!(warnings[0].1.contains("line 1 comes after line 0"));
}

#[test]
fn a_line_given_twice_is_an_error_at_its_second_label() {
    let e = error("/5:PPEEPP/1:DK/5:PPEEPP/ w - - 0 1");
    assert_eq!(
        (e.offset, e.message.as_str()),
        (15, "line 5 is given twice: each line is described once")
    );
    // Twice in a row, or with the board in any order, the same.
    assert_eq!(error("/1:DK/1:DK/ w - - 0 1").offset, 6);
    assert_eq!(error("/0:V/1:DK/0:V/ w - - 0 1").offset, 10);
}

#[test]
fn four_fields_are_written_with_0_and_question_mark() {
    // The author's program's partial-game example.
    let (text, warnings) = normalised("/28:r/26:kr1/1:1K/0:V/ w KR -");
    assert_eq!(text, "/28:r/26:kr1/1:1K/0:V/ w KR - 0 ?");
    assert_eq!(
        warnings,
        [(
            29,
            "no halfmove clock and no move number (four fields, as the author's program saves them): written 0 ?"
                .to_string()
        )]
    );
    let (text, _) = normalised("/27:1k/1:DK/ b kr F14");
    assert_eq!(text, "/27:1k/1:DK/ b kr F14 0 ?");
}

#[test]
fn five_fields_and_the_programs_dash_are_an_unknown_move_number() {
    let (text, warnings) = normalised("/27:1k/1:DK/0:V/ b KRrkr - 2");
    assert_eq!(text, "/27:1k/1:DK/0:V/ b KRrkr - 2 ?");
    assert_eq!(
        warnings,
        [(
            28,
            "no move number (five fields): written ?, the spec's unknown value".to_string()
        )]
    );
    // The program writes `-` for a move number it does not know.
    let (text, warnings) = normalised("/27:1k/1:DK/ w K - 3 -");
    assert_eq!(text, "/27:1k/1:DK/ w K - 3 ?");
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].0, 21);
    let (text, warnings) = normalised("/27:1k/1:DK/ w K - - 4");
    assert_eq!(text, "/27:1k/1:DK/ w K - 0 4");
    assert_eq!(warnings[0].0, 19);
    assert!(warnings[0].1.starts_with("halfmove clock - "));
}

#[test]
fn the_programs_en_passant_form_is_written_as_the_spec_writes_it() {
    for (field, spec, hexes) in [
        ("P@E9[E11]", "E11@9", "hex"),
        ("P@E9,11[E13]", "E13@9-11", "hexes"),
        // Black's triple move, the lines as the program lists them.
        ("P@E19,17[E15]", "E15@17-19", "hexes"),
        ("P@D18[D16]", "D16@18", "hex"),
    ] {
        let (text, warnings) = normalised(&format!("/27:1k/1:DK/ w - {field} 0 9"));
        assert_eq!(text, format!("/27:1k/1:DK/ w - {spec} 0 9"));
        assert_eq!(
            warnings,
            [(
                17,
                format!("en passant field {field} (the author's program's form: the capture {hexes}, then the pawn's hex in brackets): written {spec}")
            )]
        );
    }
}

#[test]
fn the_programs_scornful_form_is_written_as_the_hex_of_the_scornful_pawn() {
    let (text, warnings) = normalised("/27:1k/1:DK/ b - G13@F14 0 9");
    assert_eq!(text, "/27:1k/1:DK/ b - F14 0 9");
    assert_eq!(
        warnings,
        [(
            17,
            "scornful field G13@F14 (the author's program's form: the capturing pawn's hex, then the scornful pawn's): written F14"
                .to_string()
        )]
    );
}

#[test]
fn descending_en_passant_lines_are_written_ascending() {
    let (text, warnings) = normalised("/27:1k/1:DK/ w - E15@19-17 0 9");
    assert_eq!(text, "/27:1k/1:DK/ w - E15@17-19 0 9");
    assert_eq!(
        warnings,
        [(
            17,
            "en passant lines are written in ascending order, not as E15@19-17: written E15@17-19"
                .to_string()
        )]
    );
}

#[test]
fn the_programs_castling_shorthand_is_kept() {
    for c in ["-", "kr", "KR", "RKRkr", "K"] {
        let s = format!("/27:1k/1:DK/ w {c} - 0 1");
        assert_eq!(normalised(&s), (s.clone(), vec![]), "{c}");
    }
}

#[test]
fn what_stays_ambiguous_is_an_error_inside_the_value() {
    for (value, offset, message) in [
        (
            "/27:1k/1:DK/ w - P@G9[E11] 0 1",
            19,
            "en passant field P@G9[E11]: the capture hex G9 is not on the pawn's column E",
        ),
        (
            "/27:1k/1:DK/ w - P@E11[E11] 0 1",
            19,
            "en passant field P@E11[E11]: the capture hexes are the hexes the pawn passed, not its own, each once",
        ),
        (
            "/27:1k/1:DK/ w - P@E9,x[E13] 0 1",
            22,
            "en passant field P@E9,x[E13]: after the comma, a line number",
        ),
        (
            "/27:1k/1:DK/ w - P@E9 0 1",
            17,
            "the author's program writes en passant as P@E9[E11] or P@E9,11[E13]: the capture hexes, then the pawn's hex in brackets",
        ),
        (
            "/27:1k/1:DK/ w - P@E9[Y11] 0 1",
            22,
            "Y is not a column (columns are P T A B C D E F G H I K L X Z)",
        ),
        (
            "/27:1k/1:DK/ w - G13@F15 0 1",
            21,
            "F15 is not on the board: column F has even lines 0-28",
        ),
    ] {
        let e = error(value);
        assert_eq!((e.offset, e.message.as_str()), (offset, message), "{value}");
    }
}

/// The board laid out from the pieces, as when no text is kept.
fn laid_board(p: &Pdtl) -> Vec<u8> {
    let mut out = Vec::new();
    p.lay_board(&mut out);
    out
}

#[test]
fn a_board_copied_as_read_is_the_board_laid_out() {
    let fields = " w - - 0 1";
    for (board, copied) in [
        ("/27:1k/1:DK/", true),
        ("/28:v/27:dk/13:3P4/1:DK/0:V/", true),
        ("/27:k1/22:pp2pp1/1:DK/", true),
        ("/27:1k/14:7/1:DK/", false),   // a line without a piece
        ("/27:01k/1:DK/", false),       // a count with a leading zero
        ("/27:1k/01:DK/", false),       // a label with a leading zero
        ("/1:DK/27:1k/", false),        // lines out of order
        ("/27:1\u{265a}/1:DK/", false), // a figurine
        ("/27:1k/13:2T5/1:DK/", true),  // an alternative letter, as read
    ] {
        let p = Pdtl::parse(&format!("{board}{fields}")).unwrap();
        assert_eq!(p.board_as_read.is_some(), copied, "{board}");
        if let Some(text) = &p.board_as_read {
            assert_eq!(**text, *laid_board(&p), "{board}");
        }
    }
}

#[test]
fn every_board_written_is_read_back_as_its_own_text() {
    // Random boards (xorshift), written, read back: the text kept is the
    // text laid out.
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let letters = b"PEJNGRVDpejngrvd";
    for _ in 0..2000 {
        let mut pieces = vec![
            (Hex::parse(b"G1").unwrap(), piece(b'K', Side::White)),
            (Hex::parse(b"G27").unwrap(), piece(b'K', Side::Black)),
        ];
        let crowd = next() % 60;
        for _ in 0..crowd {
            let hex = Hex::from_index((next() % Hex::COUNT as u64) as usize);
            let c = letters[(next() % letters.len() as u64) as usize];
            let side = if c.is_ascii_uppercase() {
                Side::White
            } else {
                Side::Black
            };
            if pieces.iter().all(|(h, _)| *h != hex) {
                pieces.push((hex, piece(c.to_ascii_uppercase(), side)));
            }
        }
        let made = Pdtl::from_parts(
            pieces,
            Side::White,
            &[CastleMark::Moved],
            EnPassant::None,
            0,
            Some(1),
        );
        let text = made.to_string();
        let read = Pdtl::parse(&text).unwrap();
        let kept = read
            .board_as_read
            .as_deref()
            .expect("a board as written is kept");
        assert_eq!(kept, laid_board(&read), "{text}");
        assert_eq!(read, made);
    }
}

fn piece(letter: u8, side: Side) -> Piece {
    Piece {
        glyph: Glyph::letter(letter),
        side,
    }
}
