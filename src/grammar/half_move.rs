//! The half-move parser: one `Word` token in, the move it writes out.
//!
//! A word is a plain move (`EE5-E11`, `JE11×A23`, `F12@@G9`, `E23-E25=D+`),
//! a castling (`KRK-II`) or a forced promotion (`B24=D`); whatever else the
//! tokenizer read as a word is refused here, with the reason.

use crate::diag::{DiagnosticKind, Message};
use crate::grammar::alphabet::{is_piece_letter, is_standard_letter, piece_meant, CASTLING};
use crate::grammar::hex::{Hex, HexError};
use crate::grammar::model::{char_at, decode_figurine, Action, Check, Dash, Glyph, Sep};

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
#[cfg(test)]
pub(crate) fn plain_move_at(b: &[u8], i: usize) -> Option<(Parsed, usize)> {
    Window::on(b, i, |w| plain_move_in(w, 0))
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
    #[cfg(test)]
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

/// [`plain_move_at`] at `w[i..]`.
#[inline(always)]
pub(crate) fn plain_move_in(w: &Window<'_>, i: usize) -> Option<(Parsed, usize)> {
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
    let (from, n) = plain_hex(w, i + j)?;
    j += n;
    let (sep, n) = match (at(j), at(j + 1), at(j + 2)) {
        (b'-', _, _) => (Sep::Move(Dash::ASCII), 1),
        (b'*', _, _) => (Sep::Capture { times: false }, 1),
        (b'@', b'@', _) => (Sep::AtAt, 2),
        (b'@', _, _) => (Sep::At, 1),
        // `×`, U+00D7
        (0xC3, 0x97, _) => (Sep::Capture { times: true }, 2),
        // U+2010 to U+2014, U+2212: the dashes of `Dash::from_char`.
        (0xE2, 0x80, c @ 0x90..=0x94) => {
            let dash = char::from_u32(0x2010 + u32::from(c - 0x90)).expect("a dash");
            (Sep::Move(Dash(dash)), 3)
        }
        (0xE2, 0x88, 0x92) => (Sep::Move(Dash('\u{2212}')), 3),
        _ => return None,
    };
    if n > 1 && sep != Sep::AtAt {
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
    let (to, n) = plain_hex(w, i + j)?;
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
    let (check, n) = match (at(j), at(j + 1), at(j + 2), at(j + 3)) {
        (b'+', b'^', _, _) => (Some(Check::Adjoining), 2),
        (b'+', b'+', _, _) => (Some(Check::Double), 2),
        // `+∞`, U+221E
        (b'+', 0xE2, 0x88, 0x9E) => (Some(Check::Afar), 4),
        (b'+', _, _, _) => (Some(Check::Check), 1),
        (b'#', _, _, _) => (Some(Check::Mate), 1),
        _ => (None, 0),
    };
    j += n;
    // `#` ends a word; anything else ends where the word's bytes do.
    if check != Some(Check::Mate) && continues_word(at(j)) || i + j > w.len {
        return None;
    }
    let action = Action::Move {
        piece,
        from,
        sep,
        captured,
        to,
        promotion,
    };
    Some((
        Parsed {
            action,
            check,
            traits,
        },
        j,
    ))
}

/// A piece letter as the writer writes it: standard, and not the pawn's
/// (a pawn goes unnamed).
#[inline(always)]
fn is_canonical_piece(c: u8) -> bool {
    c != b'P' && is_standard_letter(c)
}

/// A hex at `w[j..]` written as [`crate::Hex`] writes it (no leading zero,
/// no third digit): the hex and its length.
#[inline(always)]
fn plain_hex(w: &Window<'_>, j: usize) -> Option<(Hex, usize)> {
    let d1 = w.byte(j + 1).wrapping_sub(b'0');
    let d2 = w.byte(j + 2).wrapping_sub(b'0');
    if d1 > 9 {
        return None;
    }
    let (line, n) = if d2 > 9 {
        (d1, 2)
    } else if d1 == 0 || w.byte(j + 3).is_ascii_digit() {
        // A leading zero, a third digit: not as the writer writes hexes.
        return None;
    } else {
        (d1 * 10 + d2, 3)
    };
    Hex::on_board(w.byte(j), line).map(|h| (h, n))
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
        let (_, d) = Dash::at(self.b, n)?;
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
        // A leading zero (`F04`) is respelled: the slow path says so.
        if d1 < 10 && !(d1 == 0 && d2 < 10) {
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

    /// `×` or a Unicode dash at the cursor, or the fault.
    #[cold]
    fn unicode_separator(&mut self) -> Parse<(Sep, usize)> {
        if self.b[self.i..].starts_with("×".as_bytes()) {
            self.traits |= Traits::UNICODE_SEPARATOR;
            return Ok((Sep::Capture { times: true }, 2));
        }
        if let Some((d, n)) = Dash::at(self.b, self.i) {
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
