//! The reader's fast path: lines (or their first part) made only of plain
//! move pairs, `N. WHITE, BLACK`, read without the logos lexer.
//!
//! [`scan_plain_line`] accepts only what the token path reads the same way,
//! move for move, and reports nothing about; anything else (and anything
//! wrong) is left to the lexer and the reader, which then read the line as
//! before. The tests below check that claim against the lexer and
//! [`parse_move`](super::parse_move) on the corpus and generated games.

use super::{meaning, PIECE_OF};
use crate::hex::Hex;
use crate::model::{
    decode_figurine, Action, Check, Dash, Glyph, HalfMove, Outcome, Rating, Sep, Side,
};
use crate::redefine::RedefineMap;

/// One half-move of a plain move line, as [`scan_plain_line`] read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlainMove {
    /// Byte offset of the move in the line.
    pub off: usize,
    /// The half-move as the token path reads it (line and column not set).
    pub half: HalfMove,
    /// Where the move's canonical text (no rating, NAG, `(=)` or `:`) is
    /// in [`PlainLine::text`].
    pub text: (u32, u32),
    /// The built-in passes would make this move `text` without a
    /// diagnostic (else `text` means nothing).
    pub text_ok: bool,
}

/// What [`scan_plain_line`] read.
#[derive(Debug, Default)]
pub(crate) struct PlainLine {
    /// The number of the line's first pair.
    pub first_number: u32,
    /// Its half-moves, in order.
    pub moves: Vec<PlainMove>,
    /// The result written at the end of the line, and its byte offset.
    pub result: Option<(Outcome, usize)>,
    /// The canonical text of every move, one after the other.
    pub text: Vec<u8>,
}

/// Is `b` where a token may end after a move or rating?
#[inline]
fn ends_token(b: Option<&u8>) -> bool {
    matches!(b, None | Some(b' ' | b'\t' | b',' | b':'))
}

#[inline]
fn skip_blanks(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    i
}

/// A piece glyph at `i`, as [`parse_move`] reads one: a piece letter
/// (standard or alternative) followed by a letter, or a figurine, with its
/// byte length. `Ok(None)` when `i` starts a hex; `Err` for what the token
/// path must read (and report).
#[inline]
fn plain_glyph(b: &[u8], i: usize) -> Result<Option<(Glyph, usize)>, ()> {
    match b.get(i) {
        Some(&c) if c.is_ascii_uppercase() => {
            if !b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
                Ok(None)
            } else if PIECE_OF[(c - b'A') as usize] == 0 {
                Err(())
            } else {
                Ok(Some((Glyph::letter(c), 1)))
            }
        }
        Some(&c) if c >= 0x80 => match decode_figurine(&b[i..]) {
            Some((letter, side, n)) => Ok(Some((
                Glyph {
                    letter,
                    fan: Some(side),
                },
                n,
            ))),
            None => Err(()),
        },
        _ => Ok(None),
    }
}

/// The standard letter the passes make of `g` without a diagnostic, if
/// they do (undo Redefine, figurines to letters).
#[inline]
fn canonical_letter(g: Glyph, map: &RedefineMap) -> Option<u8> {
    match g.fan {
        Some(_) => map.fan().then_some(g.letter),
        None => map.resolve_piece(g.letter),
    }
}

/// A hex at `i` (upper-case column, one or two digits, on the board).
#[inline(always)]
fn plain_hex(b: &[u8], i: usize) -> Option<(Hex, usize)> {
    let d1 = b.get(i + 1)?.wrapping_sub(b'0');
    if d1 > 9 {
        return None;
    }
    let d2 = b.get(i + 2).map_or(10, |d| d.wrapping_sub(b'0'));
    let (line, n) = if d2 <= 9 {
        if b.get(i + 3).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        (d1 * 10 + d2, 3)
    } else {
        (d1, 2)
    };
    Hex::on_board(b[i], line).map(|h| (h, n))
}

/// Reads a plain move at `i`: the common shapes only (piece glyphs, any
/// accepted dash, `×` or `*`, `@`, `@@`, promotion, check); castling and
/// forced promotions are left to the lexer. Appends to `text` the move as
/// the built-in passes and the writer would write it, when they would
/// without a diagnostic.
/// Returns the move, its check, where it ends, and whether `text` holds:
/// false when the passes would report a glyph (then `text` means nothing).
#[inline]
fn plain_move(
    b: &[u8],
    mut i: usize,
    map: &RedefineMap,
    text: &mut Vec<u8>,
) -> Option<(Action, Option<Check>, usize, bool)> {
    let mut text_ok = true;
    let mut glyph = |g: Glyph, text: &mut Vec<u8>| match canonical_letter(g, map) {
        Some(c) => text.push(c),
        None => text_ok = false,
    };
    let mut piece = None;
    if let Some((g, n)) = plain_glyph(b, i).ok()? {
        if meaning(g) != b'P' {
            piece = Some(g);
            glyph(g, text);
        }
        i += n;
    }
    let (from, n) = plain_hex(b, i)?;
    text.extend_from_slice(&b[i..i + n]);
    i += n;
    let (sep, n) = match b.get(i)? {
        b'-' => (Sep::Move(Dash::ASCII), 1),
        b'*' => (Sep::Capture { times: false }, 1),
        b'@' if b.get(i + 1) == Some(&b'@') => (Sep::AtAt, 2),
        b'@' => (Sep::At, 1),
        0xC3 if b.get(i + 1) == Some(&0x97) => (Sep::Capture { times: true }, 2),
        0xE2 => match (b.get(i + 1)?, b.get(i + 2)?) {
            (0x80, 0x90) => (Sep::Move(Dash('\u{2010}')), 3),
            (0x80, 0x91) => (Sep::Move(Dash('\u{2011}')), 3),
            (0x80, 0x92) => (Sep::Move(Dash('\u{2012}')), 3),
            (0x80, 0x93) => (Sep::Move(Dash('\u{2013}')), 3),
            (0x80, 0x94) => (Sep::Move(Dash('\u{2014}')), 3),
            (0x88, 0x92) => (Sep::Move(Dash('\u{2212}')), 3),
            _ => return None,
        },
        _ => return None,
    };
    text.extend_from_slice(match sep {
        Sep::Move(_) => b"-",
        Sep::Capture { .. } => b"*",
        Sep::At => b"@",
        Sep::AtAt => b"@@",
    });
    i += n;
    let mut captured = None;
    if let Some((g, n)) = plain_glyph(b, i).ok()? {
        if matches!(sep, Sep::Move(_)) {
            return None;
        }
        if meaning(g) != b'P' {
            captured = Some(g);
            glyph(g, text);
        }
        i += n;
    }
    let (to, n) = plain_hex(b, i)?;
    if to == from {
        return None;
    }
    text.extend_from_slice(&b[i..i + n]);
    i += n;
    let mut promotion = None;
    if b.get(i) == Some(&b'=') {
        text.push(b'=');
        if b.get(i + 1) == Some(&b'&') {
            promotion = Some(None);
            text.push(b'&');
            i += 2;
        } else {
            let (g, n) = match b.get(i + 1) {
                Some(&c) if c.is_ascii_uppercase() && PIECE_OF[(c - b'A') as usize] != 0 => {
                    (Glyph::letter(c), 1)
                }
                Some(&c) if c >= 0x80 => {
                    let (letter, side, n) = decode_figurine(&b[i + 1..])?;
                    (
                        Glyph {
                            letter,
                            fan: Some(side),
                        },
                        n,
                    )
                }
                _ => return None,
            };
            if matches!(meaning(g), b'P' | b'K') {
                return None;
            }
            promotion = Some(Some(g));
            glyph(g, text);
            i += 1 + n;
        }
    }
    let (check, n) = match (b.get(i), b.get(i + 1)) {
        (Some(b'+'), Some(b'+')) => (Some(Check::Double), 2),
        (Some(b'+'), Some(b'^')) => (Some(Check::Adjoining), 2),
        (Some(b'^'), Some(b'+')) => (Some(Check::Adjoining), 2),
        (Some(b'+'), Some(0xE2)) if b.get(i + 2..i + 4) == Some(&[0x88, 0x9E]) => {
            (Some(Check::Afar), 4)
        }
        (Some(b'+'), _) => (Some(Check::Check), 1),
        (Some(b'#'), _) => (Some(Check::Mate), 1),
        _ => (None, 0),
    };
    if let Some(c) = check {
        text.extend_from_slice(c.as_str().as_bytes());
    }
    i += n;
    let action = Action::Move {
        piece,
        from,
        sep,
        captured,
        to,
        promotion,
    };
    Some((action, check, i, text_ok))
}

/// Reads a rating at `i` (with its length), if one is there.
#[inline]
fn plain_rating(b: &[u8], i: usize) -> Option<(Rating, usize)> {
    let two = |c| b.get(i + 1) == Some(&c);
    Some(match b.get(i)? {
        b'?' if two(b'?') => (Rating::Blunder, 2),
        b'?' if two(b'!') => (Rating::Dubious, 2),
        b'?' => (Rating::Mistake, 1),
        b'!' if two(b'!') => (Rating::Brilliant, 2),
        b'!' if two(b'?') => (Rating::Interesting, 2),
        b'!' => (Rating::Good, 1),
        0xE2 if b.get(i + 1..i + 3) == Some(&[0x97, 0x87]) => (Rating::Forced, 3),
        _ => return None,
    })
}

/// Reads a result (`3-0` ... `1-1`, any accepted dash, or `*`) at `i`
/// that ends the line.
fn plain_result(b: &[u8], i: usize) -> Option<Outcome> {
    let rest = &b[i..];
    let (a, d, c) = match rest {
        [b'*'] => return Some(Outcome::Unfinished),
        [a, b'-', c] => (*a, '-', *c),
        [a, 0xE2, x, y, c] => {
            let d = match (x, y) {
                (0x80, 0x90) => '\u{2010}',
                (0x80, 0x91..=0x94) => '\u{2011}',
                (0x88, 0x92) => '\u{2212}',
                _ => return None,
            };
            (*a, d, *c)
        }
        _ => return None,
    };
    let _ = d;
    Some(match (a, c) {
        (b'3', b'0') => Outcome::WhiteWins,
        (b'2', b'1') => Outcome::WhiteStalemates,
        (b'0', b'3') => Outcome::BlackWins,
        (b'1', b'2') => Outcome::BlackStalemates,
        (b'1', b'1') => Outcome::Draw,
        _ => return None,
    })
}

/// Is a comment or a variation (not `(=)`) at `i`? The plain path stops
/// there and leaves the rest of the line to the lexer.
#[inline]
fn opens_aside(b: &[u8], i: usize) -> bool {
    match b.get(i) {
        Some(b'{') => true,
        Some(b'(') => b.get(i + 1..i + 3) != Some(b"=)"),
        _ => false,
    }
}

/// Reads move pairs `N. WHITE, BLACK` from byte `start` of a line, numbered
/// from `first` on (any number from 1 when `None`): the last pair may lack
/// Black's move; ratings, NAGs, `(=)` and `:` may follow a move; a result
/// may end the line. Reads up to the end of the line, or up to a comment or
/// variation that follows a move (its annotations read), and returns where
/// it stopped. `None`, with `out` in no particular state, for anything
/// else, or for anything the lexer and the reader would report: the caller
/// then reads from `start` token by token, and reads it the same way, move
/// for move.
pub(crate) fn scan_plain_line(
    line: &[u8],
    start: usize,
    first: Option<u32>,
    map: &RedefineMap,
    out: &mut PlainLine,
) -> Option<usize> {
    out.moves.clear();
    out.text.clear();
    out.result = None;
    let mut b = line;
    while let [rest @ .., b' ' | b'\t'] = b {
        b = rest;
    }
    let mut i = skip_blanks(b, start);
    let mut expected = first;
    let mut ended = false;
    while i < b.len() {
        if ended {
            // Only a result may follow the end of the game.
            let o = plain_result(b, i)?;
            out.result = Some((o, i));
            return Some(line.len());
        }
        if opens_aside(b, i) && !out.moves.is_empty() {
            return Some(i);
        }
        // `N.`
        let from = i;
        let mut n = 0u32;
        while let Some(d) = b.get(i).filter(|d| d.is_ascii_digit()) {
            n = n * 10 + u32::from(d - b'0');
            i += 1;
            // The reader reports numbers past 99,999.
            if i - from > 5 {
                return None;
            }
        }
        if b.get(i) != Some(&b'.') || b.get(i + 1) == Some(&b'.') || n == 0 {
            // A result, or `12...`, `12?` and the like for the lexer.
            if out.moves.is_empty() {
                return None;
            }
            let o = plain_result(b, from)?;
            out.result = Some((o, from));
            return Some(line.len());
        }
        if expected.is_some_and(|e| e != n) {
            return None;
        }
        if out.moves.is_empty() {
            out.first_number = n;
        }
        expected = Some(n + 1);
        i = skip_blanks(b, i + 1);
        // White's move, then optionally `, ` and Black's.
        for side in [Side::White, Side::Black] {
            if side == Side::Black {
                if opens_aside(b, i) {
                    return Some(i);
                }
                if b.get(i) != Some(&b',') {
                    // White's move alone ends the line, or the game.
                    if i < b.len() {
                        ended = true;
                    }
                    break;
                }
                i = skip_blanks(b, i + 1);
            }
            let t0 = out.text.len() as u32;
            let (action, check, e, text_ok) = plain_move(b, i, map, &mut out.text)?;
            let mut mv = PlainMove {
                off: i,
                half: HalfMove::new(n, side, action, check),
                text: (t0, out.text.len() as u32),
                text_ok,
            };
            i = e;
            // Annotations: a rating, NAGs, `(=)`, `:`.
            loop {
                let j = skip_blanks(b, i);
                match b.get(j) {
                    Some(b'?' | b'!' | 0xE2)
                        if mv.half.rating.is_none() && mv.half.nag_count == 0 =>
                    {
                        let (r, n) = plain_rating(b, j)?;
                        mv.half.rating = Some(r);
                        i = j + n;
                    }
                    Some(b'$') if b.get(j + 1).is_some_and(u8::is_ascii_digit) => {
                        let mut k = j + 1;
                        let mut v = 0u32;
                        while let Some(d) = b.get(k).filter(|d| d.is_ascii_digit()) {
                            v = v * 10 + u32::from(d - b'0');
                            k += 1;
                            if k - j > 4 {
                                return None;
                            }
                        }
                        if v > 255 || mv.half.nag_count as usize == HalfMove::MAX_NAGS {
                            return None;
                        }
                        mv.half.nags[mv.half.nag_count as usize] = v as u8;
                        mv.half.nag_count += 1;
                        i = k;
                    }
                    Some(b'(') if !mv.half.draw_offer && b.get(j + 1..j + 3) == Some(b"=)") => {
                        mv.half.draw_offer = true;
                        i = j + 3;
                    }
                    Some(b':') => {
                        mv.half.end = true;
                        i = j + 1;
                        break;
                    }
                    _ => break,
                }
                if !ends_token(b.get(i))
                    && !matches!(b.get(i), Some(b'$' | b'(' | b'?' | b'!' | b'{'))
                {
                    return None;
                }
            }
            if !ends_token(b.get(i)) && !opens_aside(b, i) {
                return None;
            }
            ended = mv.half.end || mv.half.check == Some(Check::Mate);
            out.moves.push(mv);
            i = skip_blanks(b, i);
            if ended {
                break;
            }
        }
    }
    (!out.moves.is_empty()).then_some(line.len())
}

/// The benchmark corpus generator, for the tests.
#[cfg(test)]
#[path = "../../examples/support/corpus.rs"]
mod test_corpus;

#[cfg(test)]
mod tests {
    use super::test_corpus as corpus;
    use super::*;
    use crate::lexer::{parse_move, Token};
    use crate::model::{HalfMove, Side};
    use logos::Logos;

    /// What the token path makes of `line[start..end]`: its half-moves with
    /// their annotations, and the result. `None` if a token is one the
    /// plain path should never have accepted.
    fn token_path(
        line: &[u8],
        start: usize,
        end: usize,
    ) -> Option<(Vec<PlainMove>, Option<Outcome>)> {
        let mut moves: Vec<PlainMove> = Vec::new();
        let mut result = None;
        let (mut number, mut side) = (0, Side::White);
        let mut lx = Token::lexer(&line[start..end]);
        while let Some(tok) = lx.next() {
            let slice = lx.slice();
            let off = start + lx.span().start;
            match tok.ok()? {
                Token::Number => {
                    number = std::str::from_utf8(&slice[..slice.len() - 1])
                        .ok()?
                        .parse()
                        .ok()?;
                    side = Side::White;
                }
                Token::Comma => {}
                Token::Move => {
                    let (action, check) = parse_move(slice).ok()?;
                    moves.push(PlainMove {
                        off,
                        half: HalfMove::new(number, side, action, check),
                        text: (0, 0),
                        text_ok: false,
                    });
                    side = Side::Black;
                }
                Token::Rating => moves.last_mut()?.half.rating = Rating::parse(slice),
                Token::Nag => {
                    let m = &mut moves.last_mut()?.half;
                    m.nags[m.nag_count as usize] =
                        std::str::from_utf8(&slice[1..]).ok()?.parse().ok()?;
                    m.nag_count += 1;
                }
                Token::DrawOffer => moves.last_mut()?.half.draw_offer = true,
                Token::EndMarker => moves.last_mut()?.half.end = true,
                Token::Result | Token::Unfinished => {
                    result = Some(Outcome::parse(std::str::from_utf8(slice).ok()?)?)
                }
                _ => return None,
            }
        }
        Some((moves, result))
    }

    /// Whatever the plain path accepts, the token path reads the same way,
    /// and its text is what the built-in passes and `write_move` make of it.
    fn check_plain(line: &[u8], maps: &[RedefineMap]) -> bool {
        use crate::pass::Pass;
        let mut out = PlainLine::default();
        let mut accepted = false;
        for map in maps {
            let Some(end) = scan_plain_line(line, 0, None, map, &mut out) else {
                continue;
            };
            accepted = true;
            let text = String::from_utf8_lossy(line);
            let (moves, result) = token_path(line, 0, end)
                .unwrap_or_else(|| panic!("the token path reads otherwise: {text}"));
            assert_eq!(result, out.result.map(|r| r.0), "{text}");
            assert_eq!(moves.len(), out.moves.len(), "{text}");
            for (t, p) in moves.iter().zip(&out.moves) {
                assert_eq!((t.off, t.half), (p.off, p.half), "{text}");
                // The built-in passes on the move, as the reader runs them.
                let mut cx = crate::pass::Context {
                    redefine: *map,
                    ..Default::default()
                };
                let mut mv = p.half;
                crate::passes::UndoRedefine.half_move(&mut mv, &mut cx);
                crate::passes::FanToLetters::default().half_move(&mut mv, &mut cx);
                crate::passes::AsciiSeparators.half_move(&mut mv, &mut cx);
                assert_eq!(cx.diagnostics.is_empty(), p.text_ok, "{text}");
                if p.text_ok {
                    let mut w = Vec::new();
                    mv.write_move(&mut w);
                    let t = &out.text[p.text.0 as usize..p.text.1 as usize];
                    assert_eq!(t, &w[..], "{text}");
                }
            }
        }
        accepted
    }

    fn maps() -> Vec<RedefineMap> {
        let mut v = vec![RedefineMap::default()];
        for value in ["FAN", "A@J, C@N, T@R", "B@J, Q@D, W@V"] {
            let mut m = RedefineMap::default();
            m.merge(value).unwrap();
            v.push(m);
        }
        v
    }

    #[test]
    fn plain_lines_read_as_the_token_path_reads_them() {
        let maps = maps();
        let mut accepted = 0;
        let mut input = corpus::generate_vec(300_000, 5, false);
        input.extend(corpus::generate_vec(100_000, 6, true));
        for entry in std::fs::read_dir("corpus").unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "ctl-pgn") {
                input.extend(std::fs::read(path).unwrap());
            }
        }
        for line in input.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            accepted += usize::from(check_plain(line, &maps));
        }
        assert!(accepted > 3000, "{accepted}");
    }

    #[test]
    fn plain_lines_of_every_kind() {
        let maps = maps();
        for line in [
            "1. E7-E13, E21-E15",
            "12. EE5-E11 ?!, G21\u{2010}G15 !! 13. JF6\u{d7}C15+, GH26*Z11 $14 $2",
            "3. G7-E13: *",
            "4. K4-K10 ?!(=):",
            "5. PE7-E13, F12@@G9+^ 6. C11@D14^+, B22-B24=D++",
            "7. A21-A23=&, EF12\u{d7}NF14+\u{221e} 3-0",
            "8. \u{2616}E5-E11, \u{1fa53}G25-L17",
            "9. AF6-C15, CE25-D20",
            "10. TC3-A5, TC25\u{d7}RA23",
            "  11.  E7-E13 ,  E21-E15  ",
            "1. E7-E13 { comment } 1. ..., E21-E15",
            "1. E7-E13, E21-E15 (2. F8-F12)",
            "6. K4-K10 ??, GL5-H6#",
            "6. K4-K10, GL5-H6# 0\u{2010}3",
            "7. B22-B24=\u{2655}+, \u{265b}E27\u{d7}\u{2655}B24",
        ] {
            assert!(check_plain(line.as_bytes(), &maps), "not plain: {line}");
        }
        for line in [
            "1. E7-E13 2. F8-F12",
            "1. E7-E13 E21-E15",
            "1. E7-E13x, E21-E15",
            "1. E13xF16",
            "1. e7-e13",
            "1. E7-E13:, E21-E15",
            "1. KRK-II, KRD-DD",
            "1. B24=D",
            "1. E7-E13 ?!!",
            "1. E7-E13 $300",
            "1... E7-E13",
            "1? ..., E21-E15",
            "1. E7-E13, E21-E15 1-0",
            "1. F1-F3",
            "1. E7-E7",
            "1. HE7-E9",
            "1. E7-E13-E15",
            "1. E7-E13, E21-E15 [Event \"x\"]",
            "1. E7\u{a0}-E13",
            "3-0",
            "",
        ] {
            assert!(!check_plain(line.as_bytes(), &maps), "plain: {line}");
        }
    }
}
