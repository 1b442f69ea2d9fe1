//! PDTL, Position Description by Transversal Lines: the `PDTL` tag's value.
//!
//! `/28:v/27:dk/.../0:V/ w RKRrkr - 0 1`: pieces line by line from 28 down,
//! turn, castling state, en passant / scornful hex, halfmove clock, move number.

use crate::grammar::alphabet::is_piece_letter;
use crate::grammar::hex::{push_decimal, Hex};
use crate::grammar::model::{decode_figurine, Dash, Glyph, Side};
use crate::grammar::token::decimal_at;
use std::fmt;

/// A piece on the board: its glyph as written and its colour.
///
/// ```
/// use ctlpgn_filter::{Hex, Pdtl, Side};
/// let p = Pdtl::parse("/1:Dk/ w - - 0 1").unwrap();
/// let king = p.piece(Hex::parse(b"G1").unwrap()).unwrap();
/// assert_eq!((king.glyph.letter, king.side), (b'K', Side::Black));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Letter or figurine.
    pub glyph: Glyph,
    /// Colour (upper case or white figurine is White).
    pub side: Side,
}

/// What stands on each of the 169 hexes, indexed by [`Hex`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Board([Option<Piece>; Hex::COUNT]);

impl Default for Board {
    fn default() -> Board {
        Board([None; Hex::COUNT])
    }
}

impl Board {
    /// The contents of a cross-line's hexes, in column order: they lie
    /// side by side, as the dense index runs by line, then column.
    fn line(&self, line: u8) -> &[Option<Piece>] {
        match Hex::line_hexes(line) {
            hexes @ [first, ..] => {
                let start = first.index();
                &self.0[start..start + hexes.len()]
            }
            [] => &[],
        }
    }

    /// Every occupied hex and its piece, line by line from line 0.
    pub fn pieces(&self) -> impl Iterator<Item = (Hex, Piece)> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.map(|p| (Hex::from_index(i), p)))
    }

    /// Every hex's content, for rewriting in place.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Option<Piece>> {
        self.0.iter_mut()
    }
}

impl std::ops::Index<Hex> for Board {
    type Output = Option<Piece>;
    fn index(&self, hex: Hex) -> &Option<Piece> {
        &self.0[hex.index()]
    }
}

impl std::ops::IndexMut<Hex> for Board {
    fn index_mut(&mut self, hex: Hex) -> &mut Option<Piece> {
        &mut self.0[hex.index()]
    }
}

/// One mark of the castling field: a piece letter, or a dash.
///
/// ```
/// use ctlpgn_filter::{CastleMark, Pdtl};
/// let p = Pdtl::parse("/1:DK/ w K- - 0 1").unwrap();
/// assert!(matches!(p.castling(), [CastleMark::Piece(_), CastleMark::Moved]));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastleMark {
    /// `R`, `K`, `r`, `k` (or an alternative letter, or a figurine).
    Piece(Piece),
    /// `-` (or U+2010): that side's king has moved.
    Moved,
}

/// The en passant / scornful pawn field.
///
/// ```
/// use ctlpgn_filter::{EnPassant, Hex, Pdtl};
/// let p = Pdtl::parse("/1:DK/ b - G13@9-11 0 1").unwrap();
/// assert_eq!(p.en_passant, EnPassant::Triple(Hex::parse(b"G13").unwrap(), 9, 11));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnPassant {
    /// `-`
    None,
    /// `F14`: a scornful pawn that may be taken.
    Scornful(Hex),
    /// `G15@13`: a pawn after a double move, capturable on that line.
    Double(Hex, u8),
    /// `G13@9-11`: a pawn after a triple move, capturable on both lines.
    Triple(Hex, u8, u8),
}

impl EnPassant {
    /// Appends the field as the writer writes it.
    fn write_to(self, out: &mut Vec<u8>) {
        match self {
            EnPassant::None => out.push(b'-'),
            EnPassant::Scornful(h) => h.write_to(out),
            EnPassant::Double(h, l) => {
                h.write_to(out);
                out.push(b'@');
                push_decimal(out, u64::from(l));
            }
            EnPassant::Triple(h, l1, l2) => {
                h.write_to(out);
                out.push(b'@');
                push_decimal(out, u64::from(l1));
                out.push(b'-');
                push_decimal(out, u64::from(l2));
            }
        }
    }
}

/// A parsed PDTL.
///
/// ```
/// use ctlpgn_filter::{Pdtl, Side};
/// // The spec's continuation example: five fields, no move number.
/// let p = Pdtl::parse("/1:DK/0:V/ b KRrkr - 2").unwrap();
/// assert_eq!((p.turn, p.halfmove, p.number), (Side::Black, 2, None));
/// let mut out = Vec::new();
/// p.write_to(&mut out);
/// assert_eq!(out, b"/1:DK/0:V/ b KRrkr - 2 ?");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pdtl {
    board: Board,
    /// Side to move.
    pub turn: Side,
    castling: [CastleMark; 6],
    castling_len: u8,
    /// En passant / scornful field.
    pub en_passant: EnPassant,
    /// Halfmove clock.
    pub halfmove: u32,
    /// Move number; `None` when written `?` or missing.
    pub number: Option<u32>,
    /// 1-based input line of the tag.
    pub line: u64,
    /// 1-based input column of the tag.
    pub column: u64,
}

/// A fault in a PDTL value: byte offset into the value, and what is wrong.
///
/// ```
/// use ctlpgn_filter::Pdtl;
/// let e = Pdtl::parse("/22:2pjp/ w - - 0 1").unwrap_err();
/// assert_eq!(e.to_string(), "PDTL: line 22 has 7 hexes, but 5 are described");
/// assert_eq!(e.offset, 8);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdtlError {
    /// Byte offset into the tag value.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PdtlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PDTL: {}", self.message)
    }
}

fn fail<T>(offset: usize, message: impl Into<String>) -> Result<T, PdtlError> {
    Err(PdtlError {
        offset,
        message: message.into(),
    })
}

/// Reads a piece (letter, either case, or figurine) at `i`.
fn piece_at(b: &[u8], i: usize) -> Option<(Piece, usize)> {
    let c = *b.get(i)?;
    if c.is_ascii_alphabetic() {
        let side = if c.is_ascii_uppercase() {
            Side::White
        } else {
            Side::Black
        };
        return Some((
            Piece {
                glyph: Glyph::letter(c.to_ascii_uppercase()),
                side,
            },
            1,
        ));
    }
    decode_figurine(&b[i..]).map(|(letter, side, n)| {
        (
            Piece {
                glyph: Glyph {
                    letter,
                    fan: Some(side),
                },
                side,
            },
            n,
        )
    })
}

/// A number of one to nine digits at `i` (nine at most: no overflow).
fn number_at(b: &[u8], i: usize) -> Option<(u32, usize)> {
    decimal_at(b, i, 9).filter(|&(_, digits)| digits > 0)
}

/// Byte length of a dash (`-` or a Unicode one) at `i`, if one is there.
fn dash_at(b: &[u8], i: usize) -> Option<usize> {
    let c = std::str::from_utf8(b.get(i..)?).ok()?.chars().next()?;
    Dash::from_char(c).map(|_| c.len_utf8())
}

impl Pdtl {
    /// Parses a PDTL value.
    pub fn parse(value: &str) -> Result<Pdtl, PdtlError> {
        let b = value.as_bytes();
        let mut board = Board::default();
        let mut i = 0;
        if b.first() != Some(&b'/') {
            return fail(
                0,
                "the position starts with / and lists lines like /28:v/27:dk/.../0:V/",
            );
        }
        i += 1;
        let mut previous: Option<u32> = None;
        let mut kings = [0u8; 2];
        // Lines: `N:content/` until the space before the turn.
        while i < b.len() && b[i] != b' ' {
            let start = i;
            let Some((line, n)) = number_at(b, i) else {
                return fail(i, "expected a line number, like 28:");
            };
            i += n;
            if line > 28 {
                return fail(
                    start,
                    format!("line {line} is not on the board: lines are 0-28"),
                );
            }
            if previous.is_some_and(|p| line >= p) {
                return fail(
                    start,
                    format!("line {line} is out of order: lines go from 28 down to 0, each once"),
                );
            }
            previous = Some(line);
            if b.get(i) != Some(&b':') {
                return fail(i, format!("expected : after the line number {line}"));
            }
            i += 1;
            let hexes = Hex::line_hexes(line as u8);
            let mut k = 0usize;
            while i < b.len() && b[i] != b'/' {
                if b[i].is_ascii_digit() {
                    // A count too long to read overruns the line all the same.
                    let (run, n) = number_at(b, i).unwrap_or((u32::MAX, 0));
                    if run == 0 {
                        return fail(i, "an empty run is at least 1");
                    }
                    k = k.saturating_add(run as usize);
                    if k > hexes.len() {
                        return fail(
                            i,
                            format!(
                                "line {line} has {} hexes; this run overruns it",
                                hexes.len()
                            ),
                        );
                    }
                    i += n;
                } else if let Some((p, n)) = piece_at(b, i) {
                    if p.glyph.fan.is_none() && !is_piece_letter(p.glyph.letter) {
                        return fail(
                            i,
                            format!(
                                "{} is not a piece letter: pieces are P E J N G R V D K (upper case White, lower case Black)",
                                b[i] as char
                            ),
                        );
                    }
                    let Some(&hex) = hexes.get(k) else {
                        return fail(i, format!("line {line} has only {} hexes", hexes.len()));
                    };
                    if p.glyph.letter == b'K' {
                        let count = &mut kings[p.side as usize];
                        *count += 1;
                        if *count > 1 {
                            return fail(i, format!("two {} kings", p.side));
                        }
                    }
                    board[hex] = Some(p);
                    k += 1;
                    i += n;
                } else {
                    return fail(i, "expected a piece letter, a count of empty hexes, or /");
                }
            }
            if i >= b.len() {
                return fail(i, "the position ends with / before the turn");
            }
            if k != hexes.len() {
                return fail(
                    i,
                    format!(
                        "line {line} has {} hexes, but {k} are described",
                        hexes.len()
                    ),
                );
            }
            i += 1; // the closing slash
        }
        let fields_at = i;
        let mut fields = value[i..].split(' ').filter(|f| !f.is_empty());
        let offset_of = |f: &str| f.as_ptr() as usize - value.as_ptr() as usize;

        let turn = match fields.next() {
            Some("w") => Side::White,
            Some("b") => Side::Black,
            Some(f) => return fail(offset_of(f), "the turn is w or b"),
            None => return fail(fields_at, "the turn (w or b) is missing after the position"),
        };
        let Some(cf) = fields.next() else {
            return fail(value.len(), "the castling field is missing (RKRrkr, or - )");
        };
        let (castling, castling_len) = parse_castling(cf, offset_of(cf))?;
        let Some(ef) = fields.next() else {
            return fail(value.len(), "the en passant field is missing (- if none)");
        };
        let en_passant = parse_en_passant(ef, offset_of(ef))?;
        let Some(hf) = fields.next() else {
            return fail(value.len(), "the halfmove clock is missing (0 if unknown)");
        };
        let halfmove = match number_at(hf.as_bytes(), 0) {
            Some((v, n)) if n == hf.len() => v,
            _ => return fail(offset_of(hf), "the halfmove clock is a number"),
        };
        let number = match fields.next() {
            None | Some("?") => None,
            Some(nf) => match number_at(nf.as_bytes(), 0) {
                Some((v, n)) if n == nf.len() && v > 0 => Some(v),
                _ => return fail(offset_of(nf), "the move number is a number from 1, or ?"),
            },
        };
        if let Some(extra) = fields.next() {
            return fail(offset_of(extra), "unexpected text after the move number");
        }
        Ok(Pdtl {
            board,
            turn,
            castling,
            castling_len,
            en_passant,
            halfmove,
            number,
            line: 0,
            column: 0,
        })
    }

    /// A PDTL made from its parts rather than parsed, e.g. to write a
    /// position reached by play; `line` and `column` are 0 (no tag).
    ///
    /// # Panics
    /// If `castling` is empty or holds more than six marks: the castling
    /// field is `RKRrkr` at most and `-` at least.
    pub fn from_parts(
        pieces: impl IntoIterator<Item = (Hex, Piece)>,
        turn: Side,
        castling: &[CastleMark],
        en_passant: EnPassant,
        halfmove: u32,
        number: Option<u32>,
    ) -> Pdtl {
        assert!(
            (1..=6).contains(&castling.len()),
            "a castling field has one to six marks, not {}",
            castling.len()
        );
        let mut board = Board::default();
        for (hex, piece) in pieces {
            board[hex] = Some(piece);
        }
        let mut marks = [CastleMark::Moved; 6];
        marks[..castling.len()].copy_from_slice(castling);
        Pdtl {
            board,
            turn,
            castling: marks,
            castling_len: castling.len() as u8,
            en_passant,
            halfmove,
            number,
            line: 0,
            column: 0,
        }
    }

    /// The piece on `hex`, if any.
    pub fn piece(&self, hex: Hex) -> Option<Piece> {
        self.board[hex]
    }

    /// Every occupied hex and its piece.
    pub fn pieces(&self) -> impl Iterator<Item = (Hex, Piece)> + '_ {
        self.board.pieces()
    }

    /// The castling field's marks.
    pub fn castling(&self) -> &[CastleMark] {
        &self.castling[..self.castling_len as usize]
    }

    /// Every glyph (board and castling field), for passes that rewrite letters.
    pub fn glyphs_mut(&mut self) -> impl Iterator<Item = &mut Glyph> {
        let n = self.castling_len as usize;
        self.board
            .iter_mut()
            .filter_map(|p| p.as_mut().map(|p| &mut p.glyph))
            .chain(self.castling[..n].iter_mut().filter_map(|m| match m {
                CastleMark::Piece(p) => Some(&mut p.glyph),
                CastleMark::Moved => None,
            }))
    }

    /// Appends the canonical PDTL text.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.push(b'/');
        for line in (0..=28u8).rev() {
            let cells = self.board.line(line);
            if cells.iter().all(Option::is_none) {
                continue;
            }
            push_decimal(out, u64::from(line));
            out.push(b':');
            let mut empty = 0u64;
            for cell in cells {
                match *cell {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            push_decimal(out, empty);
                            empty = 0;
                        }
                        write_piece(p, out);
                    }
                }
            }
            if empty > 0 {
                push_decimal(out, empty);
            }
            out.push(b'/');
        }
        out.extend_from_slice(match self.turn {
            Side::White => b" w ",
            Side::Black => b" b ",
        });
        for m in self.castling() {
            match *m {
                CastleMark::Piece(p) => write_piece(p, out),
                CastleMark::Moved => out.push(b'-'),
            }
        }
        out.push(b' ');
        self.en_passant.write_to(out);
        out.push(b' ');
        push_decimal(out, u64::from(self.halfmove));
        out.push(b' ');
        match self.number {
            Some(n) => push_decimal(out, u64::from(n)),
            None => out.push(b'?'),
        }
    }
}

fn write_piece(p: Piece, out: &mut Vec<u8>) {
    match p.glyph.fan {
        Some(_) => p.glyph.write_to(out),
        None if p.side == Side::Black => out.push(p.glyph.letter.to_ascii_lowercase()),
        None => out.push(p.glyph.letter),
    }
}

/// The castling field: White's part (`RKR`, `RK`, `KR`, `K` or `-`), then
/// Black's in lower case; `-` alone or `--` when both kings moved.
fn parse_castling(f: &str, at: usize) -> Result<([CastleMark; 6], u8), PdtlError> {
    let b = f.as_bytes();
    let mut marks = [CastleMark::Moved; 6];
    let mut n = 0usize;
    let mut i = 0;
    while i < b.len() {
        if n == 6 {
            return fail(at + i, "the castling field has at most six marks");
        }
        if let Some(len) = dash_at(b, i) {
            marks[n] = CastleMark::Moved;
            i += len;
        } else if let Some((p, len)) = piece_at(b, i) {
            marks[n] = CastleMark::Piece(p);
            i += len;
        } else {
            return fail(at + i, "the castling field holds R, K, r, k or -");
        }
        n += 1;
    }
    // Check the shape: the meaning of each letter (T is a rook under T@R).
    let meaning = |m: &CastleMark| match m {
        CastleMark::Moved => (b'-', None),
        CastleMark::Piece(p) => (
            crate::grammar::alphabet::standard_for(p.glyph.letter).unwrap_or(p.glyph.letter),
            Some(p.side),
        ),
    };
    let side_part = |marks: &[CastleMark], side: Side| -> Option<usize> {
        let forms: [&[u8]; 5] = [b"RKR", b"RK", b"KR", b"K", b"-"];
        forms.iter().find_map(|form| {
            let ok = form.len() <= marks.len()
                && form.iter().zip(marks).all(|(&c, m)| {
                    let (l, s) = meaning(m);
                    l == c && (s.is_none() || s == Some(side))
                });
            ok.then_some(form.len())
        })
    };
    let all = &marks[..n];
    let valid = match side_part(all, Side::White) {
        Some(w) if w == n => all == [CastleMark::Moved] || w > 0,
        Some(w) => side_part(&all[w..], Side::Black) == Some(n - w),
        None => side_part(all, Side::Black) == Some(n),
    };
    if !valid || n == 0 {
        return fail(
            at,
            format!("castling field {f} is not White's RKR, RK, KR, K or - followed by Black's rkr, rk, kr, k or -"),
        );
    }
    Ok((marks, n as u8))
}

fn parse_en_passant(f: &str, at: usize) -> Result<EnPassant, PdtlError> {
    let b = f.as_bytes();
    if dash_at(b, 0) == Some(f.len()) {
        return Ok(EnPassant::None);
    }
    let hex_len = 1 + b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    let hex = Hex::parse(&b[..hex_len.min(b.len())]).map_err(|e| PdtlError {
        offset: at,
        message: e.to_string(),
    })?;
    let rest = &b[hex_len..];
    if rest.is_empty() {
        return Ok(EnPassant::Scornful(hex));
    }
    let bad = || {
        fail(
            at,
            "the en passant field is -, a hex (F14), G15@13 or G13@9-11",
        )
    };
    if rest[0] != b'@' {
        return bad();
    }
    let Some((l1, n1)) = number_at(rest, 1) else {
        return bad();
    };
    if l1 > 28 {
        return bad();
    }
    let after = 1 + n1;
    if after == rest.len() {
        return Ok(EnPassant::Double(hex, l1 as u8));
    }
    let Some(d) = dash_at(rest, after) else {
        return bad();
    };
    match number_at(rest, after + d) {
        Some((l2, n2)) if after + d + n2 == rest.len() && l1 <= 28 && l2 <= 28 => {
            Ok(EnPassant::Triple(hex, l1 as u8, l2 as u8))
        }
        _ => bad(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            let s = format!("/0:V/ w - {ep} 0 1");
            assert_eq!(round_trip(&s), s);
        }
        assert_eq!(
            round_trip("/0:V/ w - G13@9‐11 0 1"),
            "/0:V/ w - G13@9-11 0 1"
        );
    }

    #[test]
    fn en_passant_lines_are_on_the_board() {
        assert!(Pdtl::parse("/0:V/ w - G15@300 0 1").is_err());
        assert!(Pdtl::parse("/0:V/ w - G13@9-30 0 1").is_err());
    }

    #[test]
    fn castling_forms() {
        for c in ["RKRrkr", "KRrkr", "Kk", "-", "--", "RK-", "-kr"] {
            let s = format!("/0:V/ w {c} - 0 1");
            assert_eq!(round_trip(&s), s, "{c}");
        }
        assert_eq!(round_trip("/0:V/ w ‐‐ - 0 1"), "/0:V/ w -- - 0 1");
        assert!(Pdtl::parse("/0:V/ w RRK - 0 1").is_err());
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
            "/1:DK/ w - - 99999999999 1",
            "/1:DK/ w - - 0 99999999999",
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

    #[test]
    fn lines_must_descend() {
        assert!(error("/0:V/1:DK/ w - - 0 1")
            .message
            .contains("out of order"));
    }
}
