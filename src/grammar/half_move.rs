//! The half-move parser: one `Word` token in, the move it writes out.
//!
//! A word is a plain move (`EE5-E11`, `JE11×A23`, `F12@@G9`, `E23-E25=D+`),
//! a castling (`KRK-II`) or a forced promotion (`B24=D`); whatever else the
//! tokenizer read as a word is refused here, with the reason.

use crate::diag::{DiagnosticKind, Message};
use crate::grammar::alphabet::{is_piece_letter, is_standard_letter, piece_meant, CASTLING};
use crate::grammar::hex::{Hex, HexError};
use crate::grammar::model::{decode_figurine, Action, Check, Dash, Glyph, Sep};

/// What the text of a half-move holds besides the move itself: the
/// passes say which of these they want to see (see [`crate::Interest`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traits(pub(crate) u8);

impl Traits {
    /// A FAN figurine.
    pub const FIGURINE: Traits = Traits(1);
    /// A letter that is not a standard piece letter (an alternative).
    pub const ALTERNATIVE_LETTER: Traits = Traits(2);
    /// A Unicode dash or `×`.
    pub const UNICODE_SEPARATOR: Traits = Traits(4);
    /// A rating or NAG after the move.
    pub const RATED: Traits = Traits(8);
    /// Inside a variation.
    pub const IN_VARIATION: Traits = Traits(16);
    /// The text as read is not what [`crate::HalfMove::write_move`] writes
    /// (a leading `P` dropped, `^+` read as `+^`): not a pass's concern.
    pub(crate) const RESPELLED: Traits = Traits(32);

    /// Does `self` hold any trait of `other`?
    #[inline]
    pub fn intersects(self, other: Traits) -> bool {
        self.0 & other.0 != 0
    }
}

impl std::ops::BitOr for Traits {
    type Output = Traits;
    fn bitor(self, other: Traits) -> Traits {
        Traits(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for Traits {
    fn bitor_assign(&mut self, other: Traits) {
        self.0 |= other.0;
    }
}

/// A half-move as read: the move, its check mark, and its traits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parsed {
    pub action: Action,
    pub check: Option<Check>,
    pub traits: Traits,
}

/// Why a word is no half-move: where in the word, and what is wrong. Made
/// into a message only when reported ([`Fault::message`]), from the word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fault {
    pub offset: usize,
    kind: FaultKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FaultKind {
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
    CastlingSuffix,
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
            FaultKind::CastlingSuffix => {
                let mut c = Cursor {
                    b: word,
                    i: 0,
                    traits: Traits::default(),
                };
                let shape = c.castling_prefix().map_or(*b"KRK", |p| p.map(|g| piece_meant(g.letter)));
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

type Parse<T> = Result<T, Fault>;

#[cold]
fn fail<T>(offset: usize, kind: FaultKind) -> Parse<T> {
    Err(Fault { offset, kind })
}

/// Parses a `Word` token.
#[inline]
pub(crate) fn parse(word: &[u8]) -> Parse<Parsed> {
    let mut p = Cursor {
        b: word,
        i: 0,
        traits: Traits::default(),
    };
    let action = if p.castling_ahead() {
        p.castling()?
    } else if p.forced_promotion_ahead() {
        p.forced_promotion()?
    } else {
        p.plain_move()?
    };
    let check = p.check()?;
    Ok(Parsed {
        action,
        check,
        traits: p.traits,
    })
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
    traits: Traits,
}

impl Cursor<'_> {
    /// The byte at `i`, or 0 past the end.
    #[inline(always)]
    fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(0)
    }

    /// A glyph (letter or figurine) at `i`: the glyph and its byte length.
    #[inline(always)]
    fn glyph_at(&self, i: usize) -> Option<(Glyph, usize)> {
        match self.at(i) {
            c @ b'A'..=b'Z' => Some((Glyph::letter(c), 1)),
            c if c >= 0x80 => self.figurine_at(i),
            _ => None,
        }
    }

    #[cold]
    fn figurine_at(&self, i: usize) -> Option<(Glyph, usize)> {
        decode_figurine(&self.b[i..]).map(|(letter, side, n)| {
            (
                Glyph {
                    letter,
                    fan: Some(side),
                },
                n,
            )
        })
    }

    /// Notes what the piece glyph `g` at `i` holds; refuses a letter that
    /// names no piece.
    #[inline(always)]
    fn piece(&mut self, g: Glyph, i: usize) -> Parse<Glyph> {
        if g.fan.is_some() {
            self.traits |= Traits::FIGURINE;
        } else if !is_standard_letter(g.letter) {
            if !is_piece_letter(g.letter) {
                return fail(i, FaultKind::NotAPiece);
            }
            self.traits |= Traits::ALTERNATIVE_LETTER;
        }
        Ok(g)
    }

    /// A piece glyph at the cursor, when one stands before a hex there: a
    /// figurine, or a letter followed by another letter (`EE5`, not `E5`).
    #[inline(always)]
    fn leading_piece(&mut self) -> Parse<Option<Glyph>> {
        let c = self.at(self.i);
        if c < 0x80 {
            if !(c.is_ascii_uppercase() && self.at(self.i + 1).is_ascii_alphabetic()) {
                return Ok(None);
            }
            let g = self.piece(Glyph::letter(c), self.i)?;
            self.i += 1;
            return Ok(Some(g));
        }
        let Some((g, n)) = self.figurine_at(self.i) else {
            return Ok(None);
        };
        let g = self.piece(g, self.i)?;
        self.i += n;
        Ok(Some(g))
    }

    /// `KRK-`, `KTD‐`, `♔♖♔-`: three glyphs and a dash.
    #[inline(always)]
    fn castling_ahead(&self) -> bool {
        match self.at(0) {
            b'K' => {
                // The common king move `KG1-E1` has a digit third.
                self.at(2) >= b'A' && self.castling_prefix_len().is_some()
            }
            c if c >= 0x80 => self.castling_prefix_len().is_some(),
            _ => false,
        }
    }

    /// The byte length of a castling's three glyphs and dash, if the word
    /// starts with them.
    fn castling_prefix_len(&self) -> Option<usize> {
        let (g, n0) = self.glyph_at(0)?;
        if g.letter != b'K' {
            return None;
        }
        let (_, n1) = self.glyph_at(n0)?;
        let (_, n2) = self.glyph_at(n0 + n1)?;
        let n = n0 + n1 + n2;
        let (_, d) = dash_at(self.b, n)?;
        Some(n + d)
    }

    /// `B24=`: a hex, then `=`.
    #[inline(always)]
    fn forced_promotion_ahead(&self) -> bool {
        self.at(1).is_ascii_digit()
            && (self.at(2) == b'=' || self.at(2).is_ascii_digit() && self.at(3) == b'=')
    }

    /// A hex `F14` at the cursor.
    #[inline(always)]
    fn hex(&mut self) -> Parse<Hex> {
        let i = self.i;
        let c = self.at(i);
        let d1 = self.at(i + 1).wrapping_sub(b'0');
        let d2 = self.at(i + 2).wrapping_sub(b'0');
        if d1 < 10 {
            let (line, n) = if d2 < 10 { (d1 * 10 + d2, 3) } else { (d1, 2) };
            if !self.at(i + n).is_ascii_digit() {
                if let Some(h) = Hex::on_board(c, line) {
                    self.i += n;
                    return Ok(h);
                }
            }
        }
        self.hex_slow()
    }

    /// [`Cursor::hex`] for the rest: leading zeros, and the faults.
    #[cold]
    fn hex_slow(&mut self) -> Parse<Hex> {
        let b = self.b;
        let i = self.i;
        let Some(&c) = b.get(i) else {
            return fail(i, FaultKind::NoHexAtEnd);
        };
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if c.is_ascii_lowercase()
            && self.at(i + 1).is_ascii_uppercase()
            && is_piece_letter(c.to_ascii_uppercase())
        {
            return fail(i, FaultKind::LowerCasePiece);
        }
        if !c.is_ascii_alphabetic() || digits == 0 {
            return fail(i, FaultKind::NotAHex);
        }
        if c.is_ascii_lowercase() {
            return fail(i, FaultKind::LowerCaseColumn);
        }
        let text = &b[i..=i + digits];
        match Hex::parse(text) {
            Ok(h) => {
                // `F014`: written `F14`.
                self.traits |= Traits::RESPELLED;
                self.i += text.len();
                Ok(h)
            }
            Err(_) => fail(i, FaultKind::OffBoard),
        }
    }

    /// `=X` or `=&` at the cursor: the piece promoted to, `None` for `&`.
    #[cold]
    fn promotion(&mut self) -> Parse<Option<Glyph>> {
        let at = self.i;
        if self.at(at + 1) == b'&' {
            self.i += 2;
            return Ok(None);
        }
        let Some((g, n)) = self.glyph_at(at + 1) else {
            return fail(at, FaultKind::NoPromotionPiece);
        };
        let g = self.piece(g, at + 1)?;
        if matches!(piece_meant(g.letter), b'P' | b'K') {
            return fail(at + 1, FaultKind::PromotesTo);
        }
        self.i += 1 + n;
        Ok(Some(g))
    }

    /// The check mark that ends the word, if any.
    #[inline(always)]
    fn check(&mut self) -> Parse<Option<Check>> {
        let rest = self.b.len() - self.i;
        if rest == 0 {
            return Ok(None);
        }
        let (c, n) = match (self.at(self.i), self.at(self.i + 1)) {
            (b'+', b'^') => (Check::Adjoining, 2),
            (b'+', b'+') => (Check::Double, 2),
            (b'+', 0xE2) if self.b[self.i..] == *"+∞".as_bytes() => (Check::Afar, 4),
            (b'+', _) => (Check::Check, 1),
            (b'#', _) => (Check::Mate, 1),
            (b'^', b'+') => {
                self.traits |= Traits::RESPELLED;
                (Check::Adjoining, 2)
            }
            _ => return fail(self.i, FaultKind::TextAfterMove),
        };
        if n != rest {
            return fail(self.i, FaultKind::TextAfterMove);
        }
        Ok(Some(c))
    }

    #[inline(always)]
    fn plain_move(&mut self) -> Parse<Action> {
        let mut piece = self.leading_piece()?;
        if piece.is_some_and(|g| piece_meant(g.letter) == b'P') {
            // A written pawn letter is dropped: pawns go unnamed.
            piece = None;
            self.traits |= Traits::RESPELLED;
        }
        let from = self.hex()?;
        let sep_at = self.i;
        let (sep, n) = match self.at(self.i) {
            b'-' => (Sep::Move(Dash::ASCII), 1),
            b'*' => (Sep::Capture { times: false }, 1),
            b'@' if self.at(self.i + 1) == b'@' => (Sep::AtAt, 2),
            b'@' => (Sep::At, 1),
            _ => self.unicode_separator()?,
        };
        self.i += n;
        let captured_at = self.i;
        let captured = self.leading_piece()?;
        if captured.is_some() && matches!(sep, Sep::Move(_)) {
            return fail(captured_at, FaultKind::CapturedPieceWithDash);
        }
        let captured = captured.filter(|g| piece_meant(g.letter) != b'P');
        let to = self.hex()?;
        let promotion = if self.at(self.i) == b'=' {
            Some(self.promotion()?)
        } else {
            None
        };
        if from == to {
            return fail(sep_at, FaultKind::SameHex);
        }
        Ok(Action::Move {
            piece,
            from,
            sep,
            captured,
            to,
            promotion,
        })
    }

    /// `×` or a Unicode dash at the cursor, or the fault.
    #[cold]
    fn unicode_separator(&mut self) -> Parse<(Sep, usize)> {
        if self.b[self.i..].starts_with("×".as_bytes()) {
            self.traits |= Traits::UNICODE_SEPARATOR;
            return Ok((Sep::Capture { times: true }, 2));
        }
        if let Some((d, n)) = dash_at(self.b, self.i) {
            self.traits |= Traits::UNICODE_SEPARATOR;
            return Ok((Sep::Move(d), n));
        }
        let kind = match self.b.get(self.i) {
            Some(b'x') => FaultKind::LetterX,
            _ => FaultKind::NoSeparator,
        };
        fail(self.i, kind)
    }

    fn forced_promotion(&mut self) -> Parse<Action> {
        let at = self.hex()?;
        let eq = self.i;
        match self.promotion()? {
            Some(piece) => Ok(Action::ForcedPromotion { at, piece }),
            None => fail(eq, FaultKind::ForcedPromotionPiece),
        }
    }

    /// The three glyphs of a castling's prefix, from the word's start.
    fn castling_prefix(&mut self) -> Parse<[Glyph; 3]> {
        let mut prefix = [Glyph::letter(b'K'); 3];
        for slot in &mut prefix {
            let (g, n) = self
                .glyph_at(self.i)
                .expect("castling_ahead saw three glyphs");
            *slot = self.piece(g, self.i)?;
            self.i += n;
        }
        Ok(prefix)
    }

    fn castling(&mut self) -> Parse<Action> {
        let prefix = self.castling_prefix()?;
        let shape = prefix.map(|g| piece_meant(g.letter));
        let Some((_, suffixes)) = CASTLING.iter().find(|(p, _)| **p == shape) else {
            return fail(0, FaultKind::CastlingPrefix);
        };
        let (dash, n) = dash_at(self.b, self.i).expect("castling_ahead saw a dash");
        if dash != Dash::ASCII {
            self.traits |= Traits::UNICODE_SEPARATOR;
        }
        self.i += n;
        let letters = self.b[self.i..]
            .iter()
            .take_while(|c| c.is_ascii_alphabetic())
            .count();
        let text = &self.b[self.i..self.i + letters];
        if !suffixes.iter().any(|s| s.as_bytes() == text) {
            return fail(self.i, FaultKind::CastlingSuffix);
        }
        let mut suffix = [0u8; 4];
        suffix[..letters].copy_from_slice(text);
        self.i += letters;
        Ok(Action::Castling {
            prefix,
            dash,
            suffix,
        })
    }
}

/// A dash at `b[i..]`: which, and its byte length.
#[inline]
pub(crate) fn dash_at(b: &[u8], i: usize) -> Option<(Dash, usize)> {
    match b.get(i)? {
        b'-' => Some((Dash::ASCII, 1)),
        0xE2 => {
            let c = char_at(b, i)?;
            Dash::from_char(c).map(|d| (d, c.len_utf8()))
        }
        _ => None,
    }
}

/// The character at `b[i..]`, if valid UTF-8 starts there.
fn char_at(b: &[u8], i: usize) -> Option<char> {
    let n = match *b.get(i)? {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    std::str::from_utf8(b.get(i..i + n)?).ok()?.chars().next()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{HalfMove, Side};

    fn canon(s: &str) -> String {
        let p = parse(s.as_bytes()).unwrap_or_else(|e| panic!("{s}: {}", e.message(s.as_bytes())));
        let mv = HalfMove::new(1, Side::White, p.action, p.check);
        let mut out = Vec::new();
        mv.write_move(&mut out);
        String::from_utf8(out).unwrap()
    }

    fn error(s: &str) -> (usize, String) {
        let e = parse(s.as_bytes()).unwrap_err();
        (e.offset, e.message(s.as_bytes()).text)
    }

    #[test]
    fn moves_of_every_shape() {
        for m in [
            "EE5-E11",
            "JE11×A23",
            "F12@@G9",
            "DC19-E25#",
            "DB20-C19+∞",
            "KRK-II",
            "KRR-HIH+",
            "B24=D",
            "A21-A23=&",
            "E21‐E15",
            "KG1-E1",
            "♗F6×♞C15",
            "🩐D2-F8",
        ] {
            assert_eq!(canon(m), m);
        }
    }

    #[test]
    fn the_legacy_check_mark_is_read_as_adjoining() {
        assert_eq!(canon("GL5×GE5^+"), "GL5×GE5+^");
        assert!(parse(b"GL5*GE5^+")
            .unwrap()
            .traits
            .intersects(Traits::RESPELLED));
    }

    #[test]
    fn a_leading_pawn_letter_is_dropped() {
        assert_eq!(canon("PE7-E13"), "E7-E13");
        assert_eq!(canon("♙E7-E13"), "E7-E13");
        assert_eq!(canon("PP7-P9"), "P7-P9");
        assert_eq!(canon("P7-P9"), "P7-P9");
    }

    #[test]
    fn traits_say_what_the_text_holds() {
        let t = |s: &str| parse(s.as_bytes()).unwrap().traits;
        assert_eq!(t("EE5-E11"), Traits::default());
        assert_eq!(t("E5‐E11"), Traits::UNICODE_SEPARATOR);
        assert_eq!(t("E13×F16"), Traits::UNICODE_SEPARATOR);
        assert_eq!(t("♗F6-C15"), Traits::FIGURINE);
        assert_eq!(t("TA5-A9"), Traits::ALTERNATIVE_LETTER);
        assert_eq!(t("KTK-II"), Traits::ALTERNATIVE_LETTER);
    }

    #[test]
    fn x_is_not_a_capture() {
        assert_eq!(
            error("E13xF16"),
            (
                3,
                "the letter x is not a capture sign in CTL-AN: write × or *".into()
            )
        );
    }

    #[test]
    fn an_off_board_hex_is_an_error() {
        assert_eq!(
            error("F1-F3"),
            (
                0,
                "F1 is not on the board: column F has even lines 0-28".into()
            )
        );
        assert_eq!(
            error("E7-e13").1,
            "column letters are upper case: write E13"
        );
    }

    #[test]
    fn a_lower_case_piece_letter_is_an_error_naming_the_fix() {
        assert_eq!(
            error("nE25-C21"),
            (0, "piece letters are upper case: write NE25-C21".into())
        );
        assert_eq!(
            error("E13×nF16").1,
            "piece letters are upper case: write E13×NF16"
        );
    }

    #[test]
    fn an_unknown_piece_letter_is_an_error() {
        assert!(error("HE7-E9").1.starts_with("H is not a piece letter"));
    }

    #[test]
    fn a_promotion_needs_a_piece() {
        assert!(error("A21-A23=").1.starts_with("= must be followed"));
        assert!(error("A21-A23=K").1.starts_with("a pawn promotes to"));
        assert!(error("B24=&").1.starts_with("a forced promotion names"));
    }

    #[test]
    fn a_castling_suffix_must_exist() {
        let (at, m) = error("KRK-XX");
        assert_eq!(at, 4);
        assert!(m.starts_with("XX is not a castling of KRK"));
        assert!(parse(b"KTK-II").is_ok());
        assert!(parse(b"KTT-HIH").is_ok());
    }

    #[test]
    fn text_after_the_move_is_an_error() {
        assert_eq!(
            error("E7-E13xyz"),
            (6, "unexpected text after the move".into())
        );
        assert_eq!(error("E7"), (2, "a move is written ORIGIN-DESTINATION (- or ‐), ORIGIN×DESTINATION (× or *) or with @ / @@ for the pawn captures".into()));
    }
}
