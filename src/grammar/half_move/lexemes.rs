//! The lexemes of a half-move, read at a [`Cursor`] over its word: a
//! glyph, a piece, a hex, a separator, a promotion, a check mark.

use super::fault::{fail, FaultKind, Parse};
use super::parsed::Traits;
use crate::grammar::alphabet::{is_piece_letter, is_standard_letter, piece_meant};
use crate::grammar::hex::Hex;
use crate::grammar::model::{decode_figurine, Check, Glyph, Sep};

pub(super) struct Cursor<'a> {
    pub(super) b: &'a [u8],
    pub(super) i: usize,
    pub(super) traits: Traits,
}

impl Cursor<'_> {
    /// The byte at `i`, or 0 past the end.
    #[inline(always)]
    pub(super) fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(0)
    }

    /// A glyph (letter or figurine) at `i`: the glyph and its byte length.
    #[inline(always)]
    pub(super) fn glyph_at(&self, i: usize) -> Option<(Glyph, usize)> {
        match self.at(i) {
            c @ b'A'..=b'Z' => Some((Glyph::letter(c), 1)),
            c if c >= 0x80 => self.figurine_at(i),
            _ => None,
        }
    }

    #[cold]
    pub(super) fn figurine_at(&self, i: usize) -> Option<(Glyph, usize)> {
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
    pub(super) fn piece(&mut self, g: Glyph, i: usize) -> Parse<Glyph> {
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
    pub(super) fn leading_piece(&mut self) -> Parse<Option<Glyph>> {
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

    /// A hex `F14` at the cursor.
    #[inline(always)]
    pub(super) fn hex(&mut self) -> Parse<Hex> {
        // A leading zero (`F04`) is respelled: the slow path says so.
        match Hex::plain_at(|k| self.at(self.i + k)) {
            Some((h, n)) => {
                self.i += n;
                Ok(h)
            }
            None => self.hex_slow(),
        }
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
    pub(super) fn promotion(&mut self) -> Parse<Option<Glyph>> {
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

    /// The check mark that ends the word, if any ([`Check::at`]).
    #[inline(always)]
    pub(super) fn check(&mut self) -> Parse<Option<Check>> {
        let rest = self.b.len() - self.i;
        if rest == 0 {
            return Ok(None);
        }
        match Check::at(|k| self.at(self.i + k)) {
            Some((c, n, respelled)) if n == rest => {
                if respelled {
                    self.traits |= Traits::RESPELLED;
                }
                Ok(Some(c))
            }
            _ => fail(self.i, FaultKind::TextAfterMove),
        }
    }

    /// The separator at the cursor ([`Sep::at`]).
    #[inline(always)]
    pub(super) fn separator(&mut self) -> Parse<Sep> {
        let Some((sep, n, unicode)) = Sep::at(self.b, self.i) else {
            return self.no_separator();
        };
        if unicode {
            self.traits |= Traits::UNICODE_SEPARATOR;
        }
        self.i += n;
        Ok(sep)
    }

    #[cold]
    fn no_separator(&self) -> Parse<Sep> {
        let kind = match self.at(self.i) {
            b'x' => FaultKind::LetterX,
            _ => FaultKind::NoSeparator,
        };
        fail(self.i, kind)
    }
}
