//! PDTL, Position Description by Transversal Lines: the `PDTL` tag's value.
//!
//! `/28:v/27:dk/.../0:V/ w RKRrkr - 0 1`: pieces line by line from 28 down,
//! turn, castling state, en passant / scornful hex, halfmove clock, move number.

use crate::diag::Pos;
use crate::grammar::alphabet::is_piece_letter;
use crate::grammar::hex::{push_decimal, Hex};
use crate::grammar::model::{decode_figurine, Dash, Glyph, Side};
use crate::grammar::token::decimal_at;
use std::fmt;

/// A piece on the board: its glyph as written and its colour.
///
/// ```
/// use ctlpgn_filter::{Hex, Pdtl, Side};
/// let p = Pdtl::parse("/27:1K/1:Dk/ w - - 0 1").unwrap();
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
/// let p = Pdtl::parse("/27:1k/1:DK/ w K- - 0 1").unwrap();
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
/// let p = Pdtl::parse("/27:1k/1:DK/ b - G13@9-11 0 1").unwrap();
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

impl fmt::Display for EnPassant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = Vec::with_capacity(10);
        self.write_to(&mut out);
        f.write_str(&String::from_utf8_lossy(&out))
    }
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
/// let p = Pdtl::parse("/27:1k/1:DK/0:V/ b KRrkr - 2").unwrap();
/// assert_eq!((p.turn, p.halfmove, p.number), (Side::Black, 2, None));
/// let mut out = Vec::new();
/// p.write_to(&mut out);
/// assert_eq!(out, b"/27:1k/1:DK/0:V/ b KRrkr - 2 ?");
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
    /// Where the tag is in the input.
    pub pos: Pos,
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

/// A form the spec does not write, read all the same and normalised (see
/// [`Pdtl::parse_with_warnings`]): byte offset into the tag value, and what
/// was read and how it is written.
///
/// ```
/// use ctlpgn_filter::Pdtl;
/// let (_, warnings) = Pdtl::parse_with_warnings("/27:1k/1:DK/ w KR -").unwrap();
/// assert_eq!(warnings[0].offset, 19);
/// assert_eq!(
///     warnings[0].to_string(),
///     "PDTL: no halfmove clock and no move number (four fields, as the author's program saves them): written 0 ?"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdtlWarning {
    /// Byte offset into the tag value.
    pub offset: usize,
    /// What was found.
    pub message: String,
    /// How it is written.
    pub fix: String,
}

impl fmt::Display for PdtlWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PDTL: {}: {}", self.message, self.fix)
    }
}

/// Where [`Pdtl::parse_with_warnings`] gathers its warnings.
type Warnings = Vec<PdtlWarning>;

fn note(
    warnings: &mut Warnings,
    offset: usize,
    message: impl Into<String>,
    fix: impl Into<String>,
) {
    warnings.push(PdtlWarning {
        offset,
        message: message.into(),
        fix: fix.into(),
    });
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
    Dash::at(b, i).map(|(_, len)| len)
}

impl Pdtl {
    /// Parses a PDTL value, accepting the forms
    /// [`Pdtl::parse_with_warnings`] accepts, without saying which were
    /// normalised.
    pub fn parse(value: &str) -> Result<Pdtl, PdtlError> {
        Pdtl::parse_with_warnings(value).map(|(pdtl, _)| pdtl)
    }

    /// Parses a PDTL value, and says what it read that the spec does not
    /// write and [`Pdtl::write_to`] writes in the spec's form: one warning
    /// per normalisation, at a byte offset into the value.
    ///
    /// - Lines in any order (the spec enters them from 28 down; every line
    ///   is labelled, so the order carries nothing): written from 28 down.
    ///   A line given twice is an error.
    /// - Four fields (`... w KR -`, as the author's program saves them):
    ///   written with `0 ?`; five fields (no move number): with `?`; the
    ///   program's `-` for an unknown halfmove clock or move number: `0`,
    ///   `?` (the spec's unknown values).
    /// - The program's special-capture field: en passant `P@E9[E11]`,
    ///   `P@E9,11[E13]` (the capture hexes, then the pawn's hex in
    ///   brackets) written `E11@9`, `E13@9-11`; a scornful pawn `G13@F14`
    ///   (the capturing pawn's hex, then the scornful pawn's) written `F14`.
    /// - En passant lines written descending (`E15@19-17`): ascending.
    ///
    /// ```
    /// use ctlpgn_filter::Pdtl;
    /// let (p, warnings) = Pdtl::parse_with_warnings("/27:1k/1:DK/5:P5/ b - P@E9[E11] 0 3").unwrap();
    /// let mut out = Vec::new();
    /// p.write_to(&mut out);
    /// assert_eq!(out, b"/27:1k/5:P5/1:DK/ b - E11@9 0 3");
    /// let found: Vec<(usize, &str, &str)> = warnings
    ///     .iter()
    ///     .map(|w| (w.offset, w.message.as_str(), w.fix.as_str()))
    ///     .collect();
    /// assert_eq!(found, [
    ///     (12, "lines are written from 28 down to 0: line 5 comes after line 1", "written in order"),
    ///     (22, "en passant field P@E9[E11] (the author's program's form: the capture hex, then the pawn's hex in brackets)", "written E11@9"),
    /// ]);
    /// ```
    pub fn parse_with_warnings(value: &str) -> Result<(Pdtl, Vec<PdtlWarning>), PdtlError> {
        let mut warnings = Warnings::new();
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
        // Lines read so far, one bit each, and the first out of order.
        let mut seen = 0u32;
        let mut disorder: Option<(usize, u32, u32)> = None;
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
            if seen & (1 << line) != 0 {
                return fail(
                    start,
                    format!("line {line} is given twice: each line is described once"),
                );
            }
            seen |= 1 << line;
            if let Some(p) = previous.filter(|&p| line > p && disorder.is_none()) {
                disorder = Some((start, line, p));
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
                        "line {line} has {} hexes, but {k} {} described",
                        hexes.len(),
                        if k == 1 { "is" } else { "are" }
                    ),
                );
            }
            i += 1; // the closing slash
        }
        if let Some(message) = missing_kings(kings) {
            return fail(0, message);
        }
        if let Some((at, line, before)) = disorder {
            note(
                &mut warnings,
                at,
                format!(
                    "lines are written from 28 down to 0: line {line} comes after line {before}"
                ),
                "written in order",
            );
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
        let en_passant = parse_en_passant(ef, offset_of(ef), &mut warnings)?;
        let halfmove = match fields.next() {
            None => {
                note(
                    &mut warnings,
                    value.len(),
                    "no halfmove clock and no move number (four fields, as the author's program saves them)",
                    "written 0 ?",
                );
                return Ok((
                    Pdtl {
                        board,
                        turn,
                        castling,
                        castling_len,
                        en_passant,
                        halfmove: 0,
                        number: None,
                        pos: Pos::default(),
                    },
                    warnings,
                ));
            }
            Some(hf @ "-") => {
                note(
                    &mut warnings,
                    offset_of(hf),
                    "halfmove clock - (the author's program's unknown)",
                    "written 0, the spec's unknown value",
                );
                0
            }
            Some(hf) => match number_at(hf.as_bytes(), 0) {
                Some((v, n)) if n == hf.len() => v,
                _ => return fail(offset_of(hf), "the halfmove clock is a number"),
            },
        };
        let number = match fields.next() {
            None => {
                note(
                    &mut warnings,
                    value.len(),
                    "no move number (five fields)",
                    "written ?, the spec's unknown value",
                );
                None
            }
            Some("?") => None,
            Some(nf @ "-") => {
                note(
                    &mut warnings,
                    offset_of(nf),
                    "move number - (the author's program's unknown)",
                    "written ?, the spec's unknown value",
                );
                None
            }
            Some(nf) => match number_at(nf.as_bytes(), 0) {
                Some((v, n)) if n == nf.len() && v > 0 => Some(v),
                _ => return fail(offset_of(nf), "the move number is a number from 1, or ?"),
            },
        };
        if let Some(extra) = fields.next() {
            return fail(offset_of(extra), "unexpected text after the move number");
        }
        Ok((
            Pdtl {
                board,
                turn,
                castling,
                castling_len,
                en_passant,
                halfmove,
                number,
                pos: Pos::default(),
            },
            warnings,
        ))
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
            pos: Pos::default(),
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

/// The canonical PDTL text ([`Pdtl::write_to`]).
///
/// ```
/// use ctlpgn_filter::Pdtl;
/// let p = Pdtl::parse("/27:1K/1:Dk/ w - - 0 1").unwrap();
/// assert_eq!(Pdtl::parse(&p.to_string()).unwrap(), p);
/// ```
impl fmt::Display for Pdtl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::new();
        self.write_to(&mut text);
        // ASCII, or a figurine's UTF-8 where no pass turned it to a letter.
        f.write_str(&String::from_utf8_lossy(&text))
    }
}

fn write_piece(p: Piece, out: &mut Vec<u8>) {
    match p.glyph.fan {
        Some(_) => p.glyph.write_to(out),
        None if p.side == Side::Black => out.push(p.glyph.letter.to_ascii_lowercase()),
        None => out.push(p.glyph.letter),
    }
}

/// What a position lacks when it has no king of a side (`kings`: White's
/// and Black's count): a C'escacs position has one king a side, as it has
/// no more than one (two of a colour fail where the second is read).
fn missing_kings(kings: [u8; 2]) -> Option<&'static str> {
    match kings {
        [0, 0] => {
            Some("the position has no king: each side has one; place White's (K) and Black's (k)")
        }
        [0, _] => Some("the position has no White king: each side has one; place White's (K)"),
        [_, 0] => Some("the position has no Black king: each side has one; place Black's (k)"),
        _ => None,
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

/// The en passant / scornful field at byte `at` of the value: the spec's
/// forms, and the author's program's, which are noted in `warnings`.
fn parse_en_passant(f: &str, at: usize, warnings: &mut Warnings) -> Result<EnPassant, PdtlError> {
    let b = f.as_bytes();
    if dash_at(b, 0) == Some(f.len()) {
        return Ok(EnPassant::None);
    }
    if let Some(rest) = f.strip_prefix("P@") {
        return program_en_passant(f, rest, at, warnings);
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
    if rest.get(1).is_some_and(u8::is_ascii_alphabetic) {
        // The program's scornful form: the capturing pawn's hex, then the
        // scornful pawn's.
        let scornful = Hex::parse(&rest[1..]).map_err(|e| PdtlError {
            offset: at + hex_len + 1,
            message: e.to_string(),
        })?;
        note(
            warnings,
            at,
            format!("scornful field {f} (the author's program's form: the capturing pawn's hex, then the scornful pawn's)"),
            format!("written {scornful}"),
        );
        return Ok(EnPassant::Scornful(scornful));
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
            let (lo, hi) = (l1.min(l2) as u8, l1.max(l2) as u8);
            let ep = EnPassant::Triple(hex, lo, hi);
            if l1 > l2 {
                note(
                    warnings,
                    at,
                    format!("en passant lines are written in ascending order, not as {f}"),
                    format!("written {ep}"),
                );
            }
            Ok(ep)
        }
        _ => bad(),
    }
}

/// The author's program's en passant field, `P@E9[E11]` or `P@E9,11[E13]`
/// (`f`; `rest` follows its `P@`; `at` is its offset in the value): the
/// capture hexes, then the pawn's hex in brackets. The spec's form records
/// the pawn's hex and the lines of its column, so a capture hex on another
/// column is an error.
fn program_en_passant(
    f: &str,
    rest: &str,
    at: usize,
    warnings: &mut Warnings,
) -> Result<EnPassant, PdtlError> {
    let rest_at = at + 2;
    let shape = "the author's program writes en passant as P@E9[E11] or P@E9,11[E13]: the capture hexes, then the pawn's hex in brackets";
    let (Some(open), true) = (rest.find('['), rest.ends_with(']')) else {
        return fail(at, shape);
    };
    let hex_at = |text: &str, offset: usize| {
        Hex::parse(text.as_bytes()).map_err(|e| PdtlError {
            offset,
            message: e.to_string(),
        })
    };
    let pawn = hex_at(&rest[open + 1..rest.len() - 1], rest_at + open + 1)?;
    let captures = &rest[..open];
    let (first, second) = match captures.split_once(',') {
        Some((h, l)) => (h, Some(l)),
        None => (captures, None),
    };
    let first_hex = hex_at(first, rest_at)?;
    if first_hex.column() != pawn.column() {
        return fail(
            rest_at,
            format!(
                "en passant field {f}: the capture hex {first_hex} is not on the pawn's column {}",
                pawn.column() as char
            ),
        );
    }
    let mut lines = [first_hex.line(), 0];
    let mut count = 1;
    if let Some(l) = second {
        let l_at = rest_at + first.len() + 1;
        let line = match number_at(l.as_bytes(), 0) {
            Some((v, n)) if n == l.len() => v,
            _ => {
                return fail(
                    l_at,
                    format!("en passant field {f}: after the comma, a line number"),
                )
            }
        };
        let hex = Hex::new(pawn.column(), line).map_err(|e| PdtlError {
            offset: l_at,
            message: e.to_string(),
        })?;
        lines[1] = hex.line();
        count = 2;
    }
    if lines[..count].contains(&pawn.line()) || (count == 2 && lines[0] == lines[1]) {
        return fail(
            rest_at,
            format!("en passant field {f}: the capture hexes are the hexes the pawn passed, not its own, each once"),
        );
    }
    let ep = if count == 1 {
        EnPassant::Double(pawn, lines[0])
    } else {
        EnPassant::Triple(pawn, lines[0].min(lines[1]), lines[0].max(lines[1]))
    };
    note(
        warnings,
        at,
        format!(
            "en passant field {f} (the author's program's form: the capture {}, then the pawn's hex in brackets)",
            if count == 1 { "hex" } else { "hexes" }
        ),
        format!("written {ep}"),
    );
    Ok(ep)
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
}
