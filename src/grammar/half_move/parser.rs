//! The half-move parser: a word read as a castling, a forced promotion or
//! a plain move, from its lexemes, and its check mark.

use super::fault::{fail, FaultKind, Parse};
use super::lexemes::Cursor;
use super::parsed::{Parsed, Traits};
use crate::grammar::alphabet::{piece_meant, CASTLING};
use crate::grammar::model::{Action, Dash, Glyph, Sep};

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

impl Cursor<'_> {
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
        let (_, d) = Dash::at(self.b, n)?;
        Some(n + d)
    }

    /// `B24=`: a hex, then `=`.
    #[inline(always)]
    fn forced_promotion_ahead(&self) -> bool {
        self.at(1).is_ascii_digit()
            && (self.at(2) == b'=' || self.at(2).is_ascii_digit() && self.at(3) == b'=')
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
        let sep = self.separator()?;
        let captured_at = self.i;
        let captured = self.leading_piece()?;
        if captured.is_some() && matches!(sep, Sep::Move(_)) {
            return fail(captured_at, FaultKind::CapturedPieceWithDash);
        }
        let captured = captured.filter(|g| piece_meant(g.letter) != b'P');
        if captured.is_none() && self.i > captured_at {
            // A written captured pawn is dropped, as a moving one is.
            self.traits |= Traits::RESPELLED;
        }
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
        let (dash, n) = Dash::at(self.b, self.i).expect("castling_ahead saw a dash");
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
            return fail(self.i, FaultKind::CastlingSuffix(shape));
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
    fn respelled_hexes_and_pawns_are_not_copied_as_written() {
        assert!(parse(b"F04-F06")
            .unwrap()
            .traits
            .intersects(Traits::RESPELLED));
        assert!(parse(b"E13*PF16")
            .unwrap()
            .traits
            .intersects(Traits::RESPELLED));
        assert_eq!(canon("E13*PF16"), "E13*F16");
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
