//! Reading a PDTL value: the lines of the board, then the turn, castling,
//! en passant, clock and number fields, with the forms the spec does not
//! write (the author's program's among them) read and noted as warnings.

use super::{Board, CastleMark, EnPassant, Pdtl, PdtlError, PdtlWarning, Piece};
use crate::diag::Pos;
use crate::grammar::alphabet::{is_piece_letter, is_standard_letter};
use crate::grammar::hex::Hex;
use crate::grammar::model::{decode_figurine, Dash, Glyph, Side};
use crate::grammar::token::decimal_at;

fn fail<T>(offset: usize, message: impl Into<String>) -> Result<T, PdtlError> {
    Err(PdtlError {
        offset,
        message: message.into(),
    })
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
#[inline(always)]
fn piece_at(b: &[u8], i: usize) -> Option<(Piece, usize)> {
    let c = *b.get(i)?;
    if c.is_ascii_alphabetic() {
        return Some((letter_piece(c), 1));
    }
    figurine_at(b, i)
}

/// The piece a letter names: its upper case, White when written so.
const fn letter_piece(c: u8) -> Piece {
    let side = if c.is_ascii_uppercase() {
        Side::White
    } else {
        Side::Black
    };
    Piece {
        glyph: Glyph::letter(c.to_ascii_uppercase()),
        side,
    }
}

/// Each byte's piece where it is a piece letter (standard or alternative,
/// either case), and whether the letter is standard: a line's content is
/// read a table lookup a byte.
const PIECE_OF_BYTE: [Option<(Piece, bool)>; 256] = {
    let mut t = [None; 256];
    let mut c = 0;
    while c < 256 {
        let upper = (c as u8).to_ascii_uppercase();
        if (c as u8).is_ascii_alphabetic() && is_piece_letter(upper) {
            t[c] = Some((letter_piece(c as u8), is_standard_letter(upper)));
        }
        c += 1;
    }
    t
};

#[cold]
fn figurine_at(b: &[u8], i: usize) -> Option<(Piece, usize)> {
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
#[inline(always)]
fn number_at(b: &[u8], i: usize) -> Option<(u32, usize)> {
    // Most are one or two digits: those read here, the rest by `decimal_at`.
    let digit = |k: usize| b.get(i + k).map_or(10, |c| c.wrapping_sub(b'0'));
    match (digit(0), digit(1), digit(2)) {
        (d0 @ 0..=9, 10.., _) => Some((u32::from(d0), 1)),
        (d0 @ 0..=9, d1 @ 0..=9, 10..) => Some((u32::from(d0 * 10 + d1), 2)),
        _ => decimal_at(b, i, 9).filter(|&(_, digits)| digits > 0),
    }
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
        let (read, i) = parse_board(value.as_bytes(), &mut warnings)?;
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
        // Four fields, as the author's program saves them, have neither.
        let (halfmove, number) = match fields.next() {
            None => {
                note(
                    &mut warnings,
                    value.len(),
                    "no halfmove clock and no move number (four fields, as the author's program saves them)",
                    "written 0 ?",
                );
                (0, None)
            }
            Some(hf) => {
                let halfmove = match hf {
                    "-" => {
                        note(
                            &mut warnings,
                            offset_of(hf),
                            "halfmove clock - (the author's program's unknown)",
                            "written 0, the spec's unknown value",
                        );
                        0
                    }
                    _ => match number_at(hf.as_bytes(), 0) {
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
                        _ => {
                            return fail(offset_of(nf), "the move number is a number from 1, or ?")
                        }
                    },
                };
                (halfmove, number)
            }
        };
        if let Some(extra) = fields.next() {
            return fail(offset_of(extra), "unexpected text after the move number");
        }
        Ok((
            Pdtl {
                board: read.board,
                standard_glyphs: read.standard && castling.iter().all(CastleMark::is_standard),
                board_as_read: read.canonical.then(|| value.as_bytes()[..i].into()),
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
}

/// The position: its lines, `N:content/` each, from the leading `/` up to
/// the space before the turn, lines out of order noted in `warnings`: the
/// board, and where the fields after it start.
fn parse_board(b: &[u8], warnings: &mut Warnings) -> Result<(BoardRead, usize), PdtlError> {
    let mut read = BoardRead {
        board: Board::default(),
        standard: true,
        canonical: true,
    };
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
        read.canonical &= is_canonical_number(b, start, n);
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
            read.canonical = false;
        }
        previous = Some(line);
        if b.get(i) != Some(&b':') {
            return fail(i, format!("expected : after the line number {line}"));
        }
        i += 1;
        i = parse_line(b, i, line, &mut read, &mut kings)?;
        i += 1; // the closing slash
    }
    if let Some(message) = missing_kings(kings) {
        return fail(0, message);
    }
    if let Some((at, line, before)) = disorder {
        note(
            warnings,
            at,
            format!("lines are written from 28 down to 0: line {line} comes after line {before}"),
            "written in order",
        );
    }
    Ok((read, i))
}

/// A board as read: with [`Pdtl::standard_glyphs`], and whether its text is
/// what [`Pdtl::write_to`] writes (lines from 28 down, each with a piece,
/// numbers without leading zeros, letters not figurines).
struct BoardRead {
    board: Board,
    standard: bool,
    canonical: bool,
}

/// The `n` digits at `b[i]` are a number as the writer writes it.
#[inline(always)]
fn is_canonical_number(b: &[u8], i: usize, n: usize) -> bool {
    n == 1 || b[i] != b'0'
}

/// The hexes of line `line` as `b[i..]` describes them, up to its closing
/// `/`: each piece set on the board, each king counted in `kings`.
/// Returns where the slash stands.
fn parse_line(
    b: &[u8],
    mut i: usize,
    line: u32,
    read: &mut BoardRead,
    kings: &mut [u8; 2],
) -> Result<usize, PdtlError> {
    let cells = read.board.line_mut(line as u8);
    let mut k = 0usize;
    let mut pieces = false;
    loop {
        let Some(&c) = b.get(i) else {
            return fail(i, "the position ends with / before the turn");
        };
        let (p, n) = match PIECE_OF_BYTE[usize::from(c)] {
            Some((p, is_standard)) => {
                read.standard &= is_standard;
                (p, 1)
            }
            None => match c {
                b'/' => break,
                b'0'..=b'9' => {
                    // A count too long to read overruns the line all the same.
                    let (run, n) = number_at(b, i).unwrap_or((u32::MAX, 0));
                    if run == 0 {
                        return fail(i, "an empty run is at least 1");
                    }
                    read.canonical &= is_canonical_number(b, i, n);
                    k = k.saturating_add(run as usize);
                    if k > cells.len() {
                        return fail(
                            i,
                            format!(
                                "line {line} has {} hexes; this run overruns it",
                                cells.len()
                            ),
                        );
                    }
                    i += n;
                    continue;
                }
                _ => {
                    (read.standard, read.canonical) = (false, false);
                    other_piece_at(b, i)?
                }
            },
        };
        let Some(cell) = cells.get_mut(k) else {
            return fail(i, format!("line {line} has only {} hexes", cells.len()));
        };
        if p.glyph.letter == b'K' {
            let count = &mut kings[p.side as usize];
            *count += 1;
            if *count > 1 {
                return fail(i, format!("two {} kings", p.side));
            }
        }
        *cell = Some(p);
        pieces = true;
        k += 1;
        i += n;
    }
    // The writer leaves a line without a piece out.
    read.canonical &= pieces;
    let hexes = cells.len();
    if k != hexes {
        return fail(
            i,
            format!(
                "line {line} has {hexes} hexes, but {k} {} described",
                if k == 1 { "is" } else { "are" }
            ),
        );
    }
    Ok(i)
}

/// A piece at `b[i]` that is no letter of [`PIECE_OF_BYTE`]: a figurine,
/// or the fault.
#[cold]
fn other_piece_at(b: &[u8], i: usize) -> Result<(Piece, usize), PdtlError> {
    match figurine_at(b, i) {
        Some(piece) => Ok(piece),
        None if b[i].is_ascii_alphabetic() => fail(
            i,
            format!(
                "{} is not a piece letter: pieces are P E J N G R V D K (upper case White, lower case Black)",
                b[i] as char
            ),
        ),
        None => fail(i, "expected a piece letter, a count of empty hexes, or /"),
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
