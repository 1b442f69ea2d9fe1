//! The logos lexer for one line of CTL-PGN, and the parser of a half-move token.
//!
//! Cross-line state (inside a comment, variation depth) is not here: the
//! reader keeps it and restarts the lexer after each comment.

use crate::hex::{Hex, HexError};
use crate::model::{decode_figurine, Action, Check, Dash, Glyph, HalfMove, Sep, Side, CASTLING};
use logos::Logos;

/// Tokens of one line.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(utf8 = false)]
#[logos(skip r"([ \t\r\x0B\x0C]|\u{A0}|\u{FEFF})+")]
#[logos(subpattern fig = r"♙|♟|☖|☗|♗|♝|♘|♞|🩐|🩓|♖|♜|🩏|🩒|♕|♛|♔|♚")]
#[logos(subpattern piece = r"[A-Z]|(?&fig)")]
#[logos(subpattern sq = r"[A-Za-z][0-9]+")]
#[logos(subpattern dash = r"-|‐|‑|‒|–|—|−")]
#[logos(subpattern check = r"\+∞|\+\^|\+\+|\+|#|\^\+")]
pub(crate) enum Token {
    /// `[Name "value"]`, escapes allowed in the value.
    #[regex(r#"\[[ \t]*[A-Za-z0-9_]+[ \t]*"([^"\\\n]|\\[^\n])*"[ \t]*\]"#)]
    Tag,
    /// `{`: the reader takes over until `}`.
    #[token("{")]
    CommentOpen,
    /// `(`
    #[token("(")]
    VariationOpen,
    /// `($[2]`: a variation with its label.
    #[regex(r"\([ \t]*\$\[[0-9]+\]")]
    VariationOpenLabeled,
    /// `)`
    #[token(")")]
    VariationClose,
    /// `(=)`
    #[token("(=)")]
    DrawOffer,
    /// `:`
    #[token(":")]
    EndMarker,
    /// `,`
    #[token(",")]
    Comma,
    /// Leading dots of variation lines, or `...` standing for White's move.
    #[regex(r"\.+")]
    Dots,
    /// `…`
    #[token("…")]
    Ellipsis,
    /// `12.`
    #[regex(r"[0-9]+\.")]
    Number,
    /// `12?`: unknown start number.
    #[regex(r"[0-9]+\?")]
    UnknownNumber,
    /// `12...`: PGN's black-move numbering.
    #[regex(r"[0-9]+\.\.+")]
    PgnNumber,
    /// `3-0` and other digit-dash-digit results.
    #[regex(r"[0-9](?&dash)[0-9]")]
    Result,
    /// `1/2-1/2` or `½-½`: PGN's draw.
    #[regex(r"1/2(?&dash)1/2|½(?&dash)½")]
    PgnDraw,
    /// `*`
    #[token("*")]
    Unfinished,
    /// `?`, `??`, `?!`, `!`, `!!`, `!?`, `◇`
    #[regex(r"\?|\?\?|\?!|!|!!|!\?|◇")]
    Rating,
    /// `$12`
    #[regex(r"\$[0-9]+")]
    Nag,
    /// `$[1]` after a variation's `(`.
    #[regex(r"\$\[[0-9]+\]")]
    Label,
    /// `EE5-E11`, `JE11×A23`, `F12@@G9`, `E23-E25=D+`.
    #[regex(r"(?&piece)?(?&sq)((?&dash)|×|\*|@|@@|x)(?&piece)?(?&sq)(=((?&piece)|&)?)?(?&check)?")]
    Move,
    /// `KRK-II`, `KTD-FE`.
    #[regex(r"(K|♔|♚)((?&piece))((?&piece))(?&dash)[A-Za-z]+(?&check)?")]
    Castling,
    /// `B24=D`: a pawn awaiting promotion is promoted where it stands.
    #[regex(r"(?&sq)=((?&piece)|&)?(?&check)?")]
    ForcedPromotion,
}

/// A fault inside a token: byte offset into the token and the message.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TokenError {
    pub offset: usize,
    pub message: String,
}

fn err<T>(offset: usize, message: impl Into<String>) -> Result<T, TokenError> {
    Err(TokenError {
        offset,
        message: message.into(),
    })
}

/// Alternative letters and the standard letter each stands for.
pub const ALTERNATIVES: [(u8, u8); 9] = [
    (b'A', b'J'),
    (b'B', b'J'),
    (b'F', b'J'),
    (b'L', b'J'),
    (b'C', b'N'),
    (b'S', b'N'),
    (b'T', b'R'),
    (b'W', b'V'),
    (b'Q', b'D'),
];

/// For each upper-case letter `A + i`: the standard letter it may stand
/// for (itself for a standard letter, its piece for an alternative), or 0.
const PIECE_OF: [u8; 26] = {
    let mut t = [0u8; 26];
    let std = crate::model::STANDARD_LETTERS;
    let mut i = 0;
    while i < std.len() {
        t[(std[i] - b'A') as usize] = std[i];
        i += 1;
    }
    let mut i = 0;
    while i < ALTERNATIVES.len() {
        t[(ALTERNATIVES[i].0 - b'A') as usize] = ALTERNATIVES[i].1;
        i += 1;
    }
    t
};

/// The standard letter an alternative stands for.
#[inline]
pub fn standard_for(alt: u8) -> Option<u8> {
    match alt.wrapping_sub(b'A') {
        i @ 0..=25 if PIECE_OF[i as usize] != alt && PIECE_OF[i as usize] != 0 => {
            Some(PIECE_OF[i as usize])
        }
        _ => None,
    }
}

/// Letters that may stand for a piece somewhere: standard or alternative.
#[inline]
pub(crate) fn is_piece_letter(c: u8) -> bool {
    matches!(c.wrapping_sub(b'A'), i @ 0..=25 if PIECE_OF[i as usize] != 0)
}

/// The standard letter a glyph means, ignoring whether its Redefine is declared.
#[inline]
fn meaning(g: Glyph) -> u8 {
    match g.letter.wrapping_sub(b'A') {
        i @ 0..=25 if PIECE_OF[i as usize] != 0 => PIECE_OF[i as usize],
        _ => g.letter,
    }
}

/// Reads a glyph (letter or figurine) at `i`.
#[inline]
fn glyph_at(b: &[u8], i: usize) -> Option<(Glyph, usize)> {
    match b.get(i)? {
        c @ b'A'..=b'Z' => Some((Glyph::letter(*c), 1)),
        c if *c >= 0x80 => decode_figurine(&b[i..]).map(|(l, side, n)| {
            (
                Glyph {
                    letter: l,
                    fan: Some(side),
                },
                n,
            )
        }),
        _ => None,
    }
}

#[inline]
fn piece_glyph(b: &[u8], i: usize) -> Result<(Glyph, usize), TokenError> {
    let (g, n) = glyph_at(b, i).expect("the lexer matched a piece here");
    if g.fan.is_none() && !is_piece_letter(g.letter) {
        let hint = if g.letter == b'X' {
            "; X is a column, not a piece"
        } else {
            ""
        };
        return err(
            i,
            format!(
                "{} is not a piece letter: pieces are P E J N G R V D K (alternatives A B F L C S T W Q with a Redefine tag){hint}",
                g.letter as char
            ),
        );
    }
    Ok((g, n))
}

/// Reads a hex `F14` at `i`.
#[inline]
fn hex_at(b: &[u8], i: usize) -> Result<(Hex, usize), TokenError> {
    let mut n = 1;
    while b.get(i + n).is_some_and(u8::is_ascii_digit) {
        n += 1;
    }
    let text = &b[i..i + n];
    if let Ok(h) = Hex::parse(text) {
        return Ok((h, n));
    }
    hex_error(i, text)
}

#[cold]
fn hex_error(i: usize, text: &[u8]) -> Result<(Hex, usize), TokenError> {
    let n = text.len();
    if text[0].is_ascii_lowercase() {
        return err(
            i,
            format!(
                "column letters are upper case: write {}{}",
                text[0].to_ascii_uppercase() as char,
                std::str::from_utf8(&text[1..]).unwrap_or("")
            ),
        );
    }
    match Hex::parse(text) {
        Ok(h) => Ok((h, n)),
        Err(e @ HexError::NoColumn(b'J')) => err(
            i,
            format!("{e}; J is the bishop's letter: a bishop move is written JF4-D10"),
        ),
        Err(e) => err(i, e.to_string()),
    }
}

/// Reads an optional check indicator at `i`; it must end the token.
#[inline]
fn check_at(b: &[u8], i: usize) -> Result<Option<Check>, TokenError> {
    let rest = &b[i..];
    let c = match rest {
        [] => return Ok(None),
        b"+" => Check::Check,
        b"+^" | b"^+" => Check::Adjoining,
        b"++" => Check::Double,
        b"#" => Check::Mate,
        _ if rest == "+∞".as_bytes() => Check::Afar,
        _ => return err(i, "unexpected text after the move"),
    };
    Ok(Some(c))
}

fn promotion_at(b: &[u8], i: usize) -> Result<(Option<Glyph>, usize), TokenError> {
    match b.get(i + 1) {
        Some(b'&') => Ok((None, 2)),
        Some(_) if glyph_at(b, i + 1).is_some() => {
            let (g, n) = piece_glyph(b, i + 1)?;
            if matches!(meaning(g), b'P' | b'K') {
                return err(
                    i + 1,
                    "a pawn promotes to E, J, N, G, R, V or D (or & while it awaits promotion)",
                );
            }
            Ok((Some(g), 1 + n))
        }
        _ => err(
            i,
            "= must be followed by the piece promoted to (E J N G R V D), or & for a pawn awaiting promotion",
        ),
    }
}

/// Decodes the character at `b[i..]` (two or three bytes in a separator),
/// without validating the rest of the token: (char, byte length).
#[inline]
fn char_at(b: &[u8], i: usize) -> Option<(char, usize)> {
    let n = match *b.get(i)? {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    let s = std::str::from_utf8(b.get(i..i + n)?).ok()?;
    s.chars().next().map(|c| (c, n))
}

/// Parses a `Move` token.
pub(crate) fn parse_move(b: &[u8]) -> Result<(Action, Option<Check>), TokenError> {
    let mut i = 0;
    let mut piece = None;
    // A glyph followed by a letter is a piece; otherwise the token starts at the hex.
    if let Some((g, n)) = glyph_at(b, 0) {
        if g.fan.is_some() || b.get(n).is_some_and(u8::is_ascii_alphabetic) {
            let (g, n) = piece_glyph(b, 0)?;
            piece = (meaning(g) != b'P').then_some(g);
            i = n;
        }
    }
    let (from, n) = hex_at(b, i)?;
    i += n;
    let sep_at = i;
    let (sep, n) = match b[i] {
        b'@' if b.get(i + 1) == Some(&b'@') => (Sep::AtAt, 2),
        b'@' => (Sep::At, 1),
        b'*' => (Sep::Capture { times: false }, 1),
        b'x' => {
            return err(
                i,
                "the letter x is not a capture sign in CTL-AN: write × or *",
            )
        }
        b'-' => (Sep::Move(Dash::ASCII), 1),
        _ => {
            let (c, n) = char_at(b, i).expect("the lexer matched a separator here");
            let sep = if c == '×' {
                Sep::Capture { times: true }
            } else {
                Sep::Move(Dash::from_char(c).expect("the lexer matched a dash here"))
            };
            (sep, n)
        }
    };
    i += n;
    let mut captured = None;
    if let Some((g, n)) = glyph_at(b, i) {
        if g.fan.is_some() || b.get(i + n).is_some_and(u8::is_ascii_alphabetic) {
            let (g, n) = piece_glyph(b, i)?;
            if matches!(sep, Sep::Move(_)) {
                return err(
                    i,
                    "a captured piece is written only in a capture: use × or * instead of -",
                );
            }
            captured = (meaning(g) != b'P').then_some(g);
            i += n;
        }
    }
    let (to, n) = hex_at(b, i)?;
    i += n;
    let mut promotion = None;
    if b.get(i) == Some(&b'=') {
        let (p, n) = promotion_at(b, i)?;
        promotion = Some(p);
        i += n;
    }
    if from == to {
        return err(sep_at, "origin and destination are the same hex");
    }
    let check = check_at(b, i)?;
    Ok((
        Action::Move {
            piece,
            from,
            sep,
            captured,
            to,
            promotion,
        },
        check,
    ))
}

/// Parses a `ForcedPromotion` token.
pub(crate) fn parse_forced_promotion(b: &[u8]) -> Result<(Action, Option<Check>), TokenError> {
    let (at, i) = hex_at(b, 0)?;
    let (p, n) = promotion_at(b, i)?;
    let Some(piece) = p else {
        return err(
            i,
            "a forced promotion names the piece: B24=D (=& is only for a pawn arriving)",
        );
    };
    let check = check_at(b, i + n)?;
    Ok((Action::ForcedPromotion { at, piece }, check))
}

/// Parses a `Castling` token.
pub(crate) fn parse_castling(b: &[u8]) -> Result<(Action, Option<Check>), TokenError> {
    let mut i = 0;
    let mut prefix = [Glyph::letter(b'K'); 3];
    for slot in &mut prefix {
        let (g, n) = piece_glyph(b, i)?;
        *slot = g;
        i += n;
    }
    let shape = [meaning(prefix[0]), meaning(prefix[1]), meaning(prefix[2])];
    let Some((_, suffixes)) = CASTLING.iter().find(|(p, _)| **p == shape) else {
        return err(
            0,
            "castling is written KRK-, KRD- or KRR- followed by the target columns",
        );
    };
    let (c, n) = char_at(b, i).expect("the lexer matched a dash here");
    let dash = Dash::from_char(c).expect("the lexer matched a dash here");
    i += n;
    let letters = b[i..]
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    let text = &b[i..i + letters];
    if !suffixes.iter().any(|s| s.as_bytes() == text) {
        return err(
            i,
            format!(
                "{} is not a castling of {}: write one of {}",
                String::from_utf8_lossy(text),
                std::str::from_utf8(&[shape[0], shape[1], shape[2]]).unwrap_or("K"),
                suffixes.join(" ")
            ),
        );
    }
    let mut suffix = [0u8; 4];
    suffix[..letters].copy_from_slice(text);
    let check = check_at(b, i + letters)?;
    Ok((
        Action::Castling {
            prefix,
            dash,
            suffix,
        },
        check,
    ))
}

// The reader's fast path for plain move pairs (`Reader::plain`).
pub(crate) mod plain;

/// Benchmark support: lexes `input` line by line, as the reader's lexer
/// sees it (no comment or variation modes), and counts the tokens and lexer
/// errors. Not part of the API.
#[doc(hidden)]
pub fn bench_lex(input: &[u8]) -> usize {
    input
        .split(|&b| b == b'\n')
        .map(|line| Token::lexer(line).count())
        .sum()
}

/// Benchmark support: the half-moves of `input` (every `Move` token that
/// parses, with standard letters or figurines), as the reader would hand
/// them to the passes. Not part of the API.
#[doc(hidden)]
pub fn bench_half_moves(input: &[u8]) -> Vec<HalfMove> {
    let mut moves = Vec::new();
    for (n, line) in input.split(|&b| b == b'\n').enumerate() {
        let mut lx = Token::lexer(line);
        while let Some(tok) = lx.next() {
            if tok != Ok(Token::Move) {
                continue;
            }
            let Ok((action, check)) = parse_move(lx.slice()) else {
                continue;
            };
            let mut mv = HalfMove::new(1, Side::White, action, check);
            mv.line = n as u64 + 1;
            mv.column = lx.span().start as u32 + 1;
            if mv
                .glyphs_mut()
                .all(|g| g.fan.is_some() || crate::model::STANDARD_LETTERS.contains(&g.letter))
            {
                moves.push(mv);
            }
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{HalfMove, Side};

    fn lex(s: &str) -> Vec<(Result<Token, ()>, &str)> {
        let mut lx = Token::lexer(s.as_bytes());
        let mut v = Vec::new();
        while let Some(t) = lx.next() {
            v.push((t, &s[lx.span()]));
        }
        v
    }

    fn canon(s: &str) -> String {
        let b = s.as_bytes();
        let (t, _) = lex(s)[0];
        let (action, check) = match t.unwrap() {
            Token::Move => parse_move(b),
            Token::Castling => parse_castling(b),
            Token::ForcedPromotion => parse_forced_promotion(b),
            other => panic!("{other:?}"),
        }
        .unwrap();
        let mv = HalfMove::new(1, Side::White, action, check);
        let mut out = Vec::new();
        mv.write_move(&mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_tag_is_one_token() {
        assert_eq!(
            lex(r#"[Event  "CG"]"#),
            vec![(Ok(Token::Tag), r#"[Event  "CG"]"#)]
        );
    }

    #[test]
    fn a_tag_value_may_hold_escaped_quotes() {
        assert_eq!(lex(r#"[Title "a \"b\""]"#)[0].0, Ok(Token::Tag));
    }

    #[test]
    fn move_number_forms() {
        assert_eq!(lex("12.")[0].0, Ok(Token::Number));
        assert_eq!(lex("1?")[0].0, Ok(Token::UnknownNumber));
        assert_eq!(lex("1...")[0].0, Ok(Token::PgnNumber));
    }

    #[test]
    fn draw_offer_is_not_a_variation() {
        let t: Vec<_> = lex("E7-E13 (=):").into_iter().map(|x| x.0).collect();
        assert_eq!(
            t,
            vec![Ok(Token::Move), Ok(Token::DrawOffer), Ok(Token::EndMarker)]
        );
    }

    #[test]
    fn ratings_attach_without_space() {
        let t: Vec<_> = lex("H6-H12?!").into_iter().map(|x| x.0).collect();
        assert_eq!(t, vec![Ok(Token::Move), Ok(Token::Rating)]);
        assert_eq!(lex("◇")[0].0, Ok(Token::Rating));
    }

    #[test]
    fn results_and_pgn_results() {
        assert_eq!(lex("3-0")[0].0, Ok(Token::Result));
        assert_eq!(lex("1‐1")[0].0, Ok(Token::Result));
        assert_eq!(lex("1/2-1/2")[0].0, Ok(Token::PgnDraw));
        assert_eq!(lex("*")[0].0, Ok(Token::Unfinished));
    }

    #[test]
    fn nag_and_label() {
        assert_eq!(lex("$14")[0].0, Ok(Token::Nag));
        assert_eq!(lex("$[2]")[0].0, Ok(Token::Label));
    }

    #[test]
    fn moves_of_every_shape() {
        assert_eq!(canon("EE5-E11"), "EE5-E11");
        assert_eq!(canon("JE11×A23"), "JE11×A23");
        assert_eq!(canon("F12@@G9"), "F12@@G9");
        assert_eq!(canon("DC19-E25#"), "DC19-E25#");
        assert_eq!(canon("GL5×GE5^+"), "GL5×GE5+^");
        assert_eq!(canon("DB20-C19+∞"), "DB20-C19+∞");
        assert_eq!(canon("KRK-II"), "KRK-II");
        assert_eq!(canon("KRR-HIH+"), "KRR-HIH+");
        assert_eq!(canon("B24=D"), "B24=D");
        assert_eq!(canon("A21-A23=&"), "A21-A23=&");
        assert_eq!(canon("E21‐E15"), "E21‐E15");
    }

    #[test]
    fn a_leading_pawn_letter_is_dropped() {
        assert_eq!(canon("PE7-E13"), "E7-E13");
        assert_eq!(canon("♙E7-E13"), "E7-E13");
        assert_eq!(canon("PP7-P9"), "P7-P9");
        assert_eq!(canon("P7-P9"), "P7-P9");
    }

    #[test]
    fn figurines_are_pieces() {
        assert_eq!(canon("♗F6×♞C15"), "♗F6×♞C15");
        assert_eq!(canon("🩐D2-F8"), "🩐D2-F8");
    }

    fn move_error(s: &str) -> String {
        parse_move(s.as_bytes()).unwrap_err().message
    }

    #[test]
    fn x_is_not_a_capture() {
        assert_eq!(
            move_error("E13xF16"),
            "the letter x is not a capture sign in CTL-AN: write × or *"
        );
    }

    #[test]
    fn off_board_hex_is_an_error() {
        assert_eq!(
            move_error("F1-F3"),
            "F1 is not on the board: column F has even lines 0-28"
        );
    }

    #[test]
    fn unknown_piece_letter_is_an_error() {
        assert!(move_error("HE7-E9").starts_with("H is not a piece letter"));
    }

    #[test]
    fn promotion_needs_a_piece() {
        assert!(move_error("A21-A23=").starts_with("= must be followed"));
        assert!(move_error("A21-A23=K").starts_with("a pawn promotes to"));
    }

    #[test]
    fn castling_suffix_must_exist() {
        let e = parse_castling(b"KRK-XX").unwrap_err();
        assert_eq!(e.offset, 4);
        assert!(e.message.starts_with("XX is not a castling of KRK"));
        assert!(parse_castling(b"KTK-II").is_ok());
        assert!(parse_castling(b"KTT-HIH").is_ok());
    }
}
