//! The quick reader: a plain move in its common spellings, read from a
//! 64-byte [`Window`] on the text without the tokenizer, as [`parse`]
//! reads it.
//!
//! [`parse`]: super::parse

use super::parsed::{Parsed, Traits};
use crate::grammar::alphabet::is_standard_letter;
use crate::grammar::hex::Hex;
use crate::grammar::model::{Action, Check, Glyph, Sep};

/// A plain move at `b[i..]` in its common spellings, ending where its
/// `Word` token ends: its parse and byte length. The spellings are the
/// canonical one, which [`HalfMove::write_move`] writes once the passes
/// are done (standard letters, no `P`, `-`, `*`, `@` or `@@`, hexes
/// without leading zeros, a check mark as written canonically), and the
/// same with a Unicode dash or `×` between the hexes. `None` for anything
/// else, which [`parse`] reads or refuses.
///
/// It reads no word [`parse`] would not, and reads each as [`parse`]
/// does, traits included, so that the reader may skip the tokenizer for
/// it; one without traits is written back byte for byte, so that the
/// reader may copy it as it stands (`quick_moves_read_as_parse_reads_them`).
///
/// [`HalfMove::write_move`]: crate::HalfMove::write_move
/// [`parse`]: super::parse
#[cfg(test)]
pub(crate) fn plain_move_at(b: &[u8], i: usize) -> Option<(Parsed, usize)> {
    Window::on(b, i, |w| plain_move_in(w, 0))
}

/// What [`plain_move_in`] makes of a plain move: the move itself
/// ([`Parsed`]), or only what a reader needs at once of a word it may copy
/// as it stands ([`Plain`]), the rest made on demand.
pub(crate) trait Made: Sized {
    #[allow(clippy::too_many_arguments)]
    fn made(
        piece: Option<Glyph>,
        from: Hex,
        sep: Sep,
        captured: Option<Glyph>,
        to: Hex,
        promotion: Option<Option<Glyph>>,
        check: Option<Check>,
        traits: Traits,
    ) -> Self;
}

impl Made for Parsed {
    #[inline(always)]
    fn made(
        piece: Option<Glyph>,
        from: Hex,
        sep: Sep,
        captured: Option<Glyph>,
        to: Hex,
        promotion: Option<Option<Glyph>>,
        check: Option<Check>,
        traits: Traits,
    ) -> Parsed {
        let action = Action::Move {
            piece,
            from,
            sep,
            captured,
            to,
            promotion,
        };
        Parsed {
            action,
            check,
            traits,
        }
    }
}

/// A plain move, known to be one: its traits, and whether it mates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Plain {
    pub traits: Traits,
    pub mate: bool,
}

impl Made for Plain {
    #[inline(always)]
    fn made(
        _: Option<Glyph>,
        _: Hex,
        _: Sep,
        _: Option<Glyph>,
        _: Hex,
        _: Option<Option<Glyph>>,
        check: Option<Check>,
        traits: Traits,
    ) -> Plain {
        Plain {
            traits,
            mate: check == Some(Check::Mate),
        }
    }
}

/// 64 bytes of a text from some offset, zero past the text's end: what
/// the quick readers read, so that they check no bounds (a plain move and
/// the byte after it take at most 19 bytes, a move line at most 48).
pub(crate) struct Window<'a> {
    bytes: &'a [u8; 64],
    /// How many of `bytes` are the text's.
    pub len: usize,
}

impl<'a> Window<'a> {
    /// The window on `bytes`, of which the first `len` are the text's.
    #[inline(always)]
    pub fn new(bytes: &'a [u8; 64], len: usize) -> Window<'a> {
        Window { bytes, len }
    }

    /// `read` on the window on `b` from `i`: the text itself, or, near its
    /// end, a copy with zeros after it.
    #[inline]
    pub fn on<R>(b: &[u8], i: usize, read: impl FnOnce(&Window<'_>) -> R) -> R {
        let rest = &b[i..];
        if let Some(bytes) = rest.first_chunk::<64>() {
            return read(&Window { bytes, len: 64 });
        }
        let mut pad = [0u8; 64];
        pad[..rest.len()].copy_from_slice(rest);
        read(&Window {
            bytes: &pad,
            len: rest.len(),
        })
    }

    /// The byte at `k`; past the window, some byte of it (a reader checks
    /// that what it read ends within [`Window::len`]).
    #[inline(always)]
    pub fn byte(&self, k: usize) -> u8 {
        self.bytes[k & 63]
    }
}

/// [`plain_move_at`] at `w[i..]`, from the lexemes the parser reads
/// ([`Hex::plain_at`], [`Sep::at`], [`Check::at`]) in their canonical
/// spellings.
#[inline(always)]
pub(crate) fn plain_move_in<M: Made>(w: &Window<'_>, i: usize) -> Option<(M, usize)> {
    let at = |k: usize| w.byte(i + k);
    let mut traits = Traits::default();
    let mut j = 0;
    // A letter followed by a letter names the piece (`EE5`), as in `parse`.
    let piece = if at(1).is_ascii_alphabetic() {
        let c = at(0);
        if !is_canonical_piece(c) {
            return None;
        }
        j = 1;
        Some(Glyph::letter(c))
    } else {
        None
    };
    let (from, n) = Hex::plain_at(|k| at(j + k))?;
    j += n;
    let (sep, n, unicode) = Sep::at(w.bytes, i + j)?;
    if unicode {
        traits |= Traits::UNICODE_SEPARATOR;
    }
    j += n;
    let captured = if at(j + 1).is_ascii_alphabetic() {
        let c = at(j);
        if !is_canonical_piece(c) || matches!(sep, Sep::Move(_)) {
            return None;
        }
        j += 1;
        Some(Glyph::letter(c))
    } else {
        None
    };
    let (to, n) = Hex::plain_at(|k| at(j + k))?;
    j += n;
    let promotion = if at(j) == b'=' {
        let c = at(j + 1);
        j += 2;
        match c {
            b'&' => Some(None),
            _ if is_canonical_piece(c) && c != b'K' => Some(Some(Glyph::letter(c))),
            _ => return None,
        }
    } else {
        None
    };
    if from == to {
        return None;
    }
    let (check, n) = match Check::at(|k| at(j + k)) {
        Some((_, _, true)) => return None,
        Some((c, n, false)) => (Some(c), n),
        None => (None, 0),
    };
    j += n;
    // `#` ends a word; anything else ends where the word's bytes do.
    if check != Some(Check::Mate) && continues_word(at(j)) || i + j > w.len {
        return None;
    }
    let made = M::made(piece, from, sep, captured, to, promotion, check, traits);
    Some((made, j))
}

/// A piece letter as the writer writes it: standard, and not the pawn's
/// (a pawn goes unnamed).
#[inline(always)]
fn is_canonical_piece(c: u8) -> bool {
    c != b'P' && is_standard_letter(c)
}

/// Can byte `c` continue a `Word` token? Its ASCII bytes (`#` last), and
/// any byte of a character (a dash, `×`, `∞`, a figurine may).
#[inline(always)]
pub(crate) fn continues_word(c: u8) -> bool {
    WORD_BYTES[c as usize]
}

/// The bytes of [`continues_word`], as a table.
const WORD_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric()
            || matches!(b, b'*' | b'@' | b'=' | b'&' | b'+' | b'^' | b'-' | b'#')
            || b >= 0x80;
        c += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::half_move::parse;
    use crate::{HalfMove, Side};

    /// Words shaped like moves, each part picked from right and wrong
    /// spellings, in a seeded order.
    fn words(count: usize, seed: u64) -> Vec<Vec<u8>> {
        const PIECES: [&str; 8] = ["", "", "", "E", "N", "P", "T", "\u{2657}"];
        const HEXES: [&str; 8] = ["E7", "F8", "E13", "Z11", "D22", "F0", "E04", "F1"];
        const SEPS: [&str; 8] = ["-", "-", "*", "@", "@@", "\u{d7}", "\u{2010}", "x"];
        const PROMOTIONS: [&str; 8] = ["", "", "", "=D", "=&", "=K", "=P", "="];
        const CHECKS: [&str; 8] = ["", "", "+", "+^", "+\u{221e}", "#", "^+", "++"];
        const AFTER: [&str; 8] = ["", " ", ",", ":", "#1.", "x", "\u{2010}", "?"];
        let mut x = seed;
        let mut pick = move |parts: &[&'static str; 8]| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            parts[(x >> 33) as usize % 8]
        };
        (0..count)
            .map(|_| {
                let parts = [
                    pick(&PIECES),
                    pick(&HEXES),
                    pick(&SEPS),
                    pick(&PIECES),
                    pick(&HEXES),
                    pick(&PROMOTIONS),
                    pick(&CHECKS),
                    pick(&AFTER),
                ];
                parts.concat().into_bytes()
            })
            .collect()
    }

    #[test]
    fn quick_moves_read_as_parse_reads_them() {
        use crate::grammar::token::Token;
        use logos::Logos;
        let mut samples: Vec<Vec<u8>> = [
            "EE5-E11",
            "JE11*A23",
            "F12@@G9",
            "DC19-E25#",
            "DB20-C19+\u{221e}",
            "E7\u{2010}E13",
            "E7\u{2212}E13",
            "E13\u{d7}F16",
            "A21-A23=&",
            "E7-E13+^",
            "E7-E13++",
            "B22-B24=D",
            "E13*NF16",
            "KG1-E1",
            "F0-F2",
            "E7-E13",
        ]
        .iter()
        .map(|w| w.as_bytes().to_vec())
        .collect();
        samples.extend(words(100_000, 7));
        let (mut accepted, mut canonical) = (0, 0);
        for w in &samples {
            let Some((p, len)) = plain_move_at(w, 0) else {
                continue;
            };
            accepted += 1;
            let word = &w[..len];
            let shown = String::from_utf8_lossy(w);
            // The tokenizer reads the same word there.
            let mut lx = Token::lexer(w);
            assert_eq!(lx.next(), Some(Ok(Token::Word)), "{shown}");
            assert_eq!(lx.span(), 0..len, "{shown}");
            // The parser reads it so, and the writer writes it back.
            let full = parse(word).unwrap_or_else(|e| panic!("{shown}: {}", e.message(word)));
            assert_eq!(full, p, "{shown}");
            if p.traits == Traits::default() {
                let mut out = Vec::new();
                HalfMove::new(1, Side::White, p.action, p.check).write_move(&mut out);
                assert_eq!(out, word, "{shown}");
                canonical += 1;
            }
        }
        assert!(
            accepted > 2000 && canonical > 1000,
            "only {accepted} plain moves, {canonical} canonical, among the samples"
        );
    }

    #[test]
    fn what_is_not_plain_is_left_to_the_parser() {
        for w in [
            "E7‐E13‐",
            "E13×F16x",
            "PE7-E13",
            "F04-F06",
            "E13*PF16",
            "TA5-A9",
            "♗F6-C15",
            "GL5*GE5^+",
            "KRK-II",
            "B24=D",
            "E7-E13x",
            "e7-E13",
            "E7-E7",
        ] {
            assert_eq!(plain_move_at(w.as_bytes(), 0), None, "{w}");
        }
    }
}
