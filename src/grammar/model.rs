//! What a game is made of once lexed: tags, half-moves, results.

use crate::diag::Pos;
pub use crate::grammar::alphabet::{CASTLING, STANDARD_LETTERS};
use crate::grammar::hex::Hex;
use std::fmt;

/// White or Black.
///
/// ```
/// use ctlpgn_filter::Side;
/// assert_eq!(Side::White.other(), Side::Black);
/// assert_eq!(Side::Black.to_string(), "Black");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The first player.
    White,
    /// The second player.
    Black,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// The number of the move after `number`'s half-move by this side:
    /// Black's reply shares White's number, White's next move takes the
    /// next one.
    pub(crate) fn next_number(self, number: u32) -> u32 {
        match self {
            Side::White => number,
            Side::Black => number.saturating_add(1),
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::White => "White",
            Side::Black => "Black",
        })
    }
}

/// A piece as written: an upper-case letter (standard or alternative) or a
/// FAN figurine, which also carries the colour it was drawn in.
///
/// ```
/// use ctlpgn_filter::{Glyph, Side};
/// let mut out = Vec::new();
/// Glyph::letter(b'J').write_to(&mut out);
/// Glyph { letter: b'J', fan: Some(Side::Black) }.write_to(&mut out);
/// assert_eq!(String::from_utf8(out).unwrap(), "J♝");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Glyph {
    /// Upper-case ASCII letter; for a figurine, the standard letter it stands for.
    pub letter: u8,
    /// `Some(side)` when written as a FAN figurine of that colour.
    pub fan: Option<Side>,
}

impl Glyph {
    /// A plain letter.
    pub const fn letter(letter: u8) -> Glyph {
        Glyph { letter, fan: None }
    }

    /// A standard letter, not a figurine ([`STANDARD_LETTERS`]).
    #[inline]
    pub(crate) fn is_standard_letter(self) -> bool {
        self.fan.is_none() && crate::grammar::alphabet::is_standard_letter(self.letter)
    }

    /// Appends the glyph as written (letter, or figurine if still FAN).
    #[inline]
    pub fn write_to(self, out: &mut Vec<u8>) {
        match self.fan {
            None => out.push(self.letter),
            Some(side) => out.extend_from_slice(figurine(self.letter, side).as_bytes()),
        }
    }
}

/// FAN figurines: (white, black, standard letter).
pub const FIGURINES: [(&str, &str, u8); 9] = [
    ("♙", "♟", b'P'),
    ("☖", "☗", b'E'),
    ("♗", "♝", b'J'),
    ("♘", "♞", b'N'),
    ("🩐", "🩓", b'G'),
    ("♖", "♜", b'R'),
    ("🩏", "🩒", b'V'),
    ("♕", "♛", b'D'),
    ("♔", "♚", b'K'),
];

/// The figurine for a standard letter and colour.
pub fn figurine(letter: u8, side: Side) -> &'static str {
    let (w, b, _) = FIGURINES
        .iter()
        .find(|f| f.2 == letter)
        .expect("figurine glyphs only carry standard letters");
    match side {
        Side::White => w,
        Side::Black => b,
    }
}

/// Decodes a figurine at the start of `bytes`: (letter, colour, byte length).
///
/// The figurines of [`FIGURINES`] by their UTF-8 bytes: U+2654 to U+265F
/// (`E2 99 94..9F`), U+2616 and U+2617 (`E2 98 96/97`), U+1FA4F to
/// U+1FA53 (`F0 9F A9 8F..93`).
#[inline]
pub fn decode_figurine(bytes: &[u8]) -> Option<(u8, Side, usize)> {
    let side = |black: bool| if black { Side::Black } else { Side::White };
    match *bytes {
        [0xE2, 0x99, c @ 0x94..=0x9F, ..] => {
            let k = c - 0x94;
            Some((b"KDRJNP"[usize::from(k % 6)], side(k >= 6), 3))
        }
        [0xE2, 0x98, c @ 0x96..=0x97, ..] => Some((b'E', side(c == 0x97), 3)),
        [0xF0, 0x9F, 0xA9, c @ (0x8F | 0x90 | 0x92 | 0x93), ..] => {
            let letter = if matches!(c, 0x8F | 0x92) { b'V' } else { b'G' };
            Some((letter, side(c >= 0x92), 4))
        }
        _ => None,
    }
}

/// The separator between origin and destination.
///
/// ```
/// use ctlpgn_filter::{Action, Filter, Sep};
/// // `@@`: en passant on the first hex a triple move passed.
/// let (out, _, _) = Filter::default().filter_bytes(b"1. G7-G13, F12@@G9:\n");
/// assert!(String::from_utf8(out).unwrap().contains("F12@@G9:"));
/// assert_ne!(Sep::At, Sep::AtAt);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sep {
    /// A plain move, with the dash as written (`-` or a Unicode dash).
    Move(Dash),
    /// A capture: `×` or `*`.
    Capture {
        /// `true` for `×` (U+00D7), `false` for `*`.
        times: bool,
    },
    /// `@`: en passant or scornful pawn capture.
    At,
    /// `@@`: en passant on the first hex of a triple move.
    AtAt,
}

impl Sep {
    /// As the pass "ascii" writes it: `-` for any dash, `*` for `×`.
    ///
    /// ```
    /// use ctlpgn_filter::{Dash, Sep};
    /// assert_eq!(Sep::Move(Dash('\u{2013}')).ascii(), Sep::Move(Dash::ASCII));
    /// assert_eq!(Sep::Capture { times: true }.ascii(), Sep::Capture { times: false });
    /// assert_eq!(Sep::AtAt.ascii(), Sep::AtAt);
    /// ```
    pub fn ascii(self) -> Sep {
        match self {
            Sep::Move(_) => Sep::Move(Dash::ASCII),
            Sep::Capture { .. } => Sep::Capture { times: false },
            Sep::At | Sep::AtAt => self,
        }
    }

    /// The separator at `b[i..]`, if one is there: which, its byte length,
    /// and whether it is a Unicode one (`×` or a dash not ASCII).
    #[inline(always)]
    pub(crate) fn at(b: &[u8], i: usize) -> Option<(Sep, usize, bool)> {
        let at = |k: usize| b.get(i + k).copied().unwrap_or(0);
        Some(match (at(0), at(1)) {
            (b'-', _) => (Sep::Move(Dash::ASCII), 1, false),
            (b'*', _) => (Sep::Capture { times: false }, 1, false),
            (b'@', b'@') => (Sep::AtAt, 2, false),
            (b'@', _) => (Sep::At, 1, false),
            (c0, c1) if TIMES.as_bytes() == [c0, c1] => (Sep::Capture { times: true }, 2, true),
            _ => {
                let (d, n) = Dash::at(b, i)?;
                (Sep::Move(d), n, true)
            }
        })
    }
}

/// Dashes accepted for a move; the ASCII pass turns them all into `-`.
///
/// ```
/// use ctlpgn_filter::Dash;
/// assert_eq!(Dash::from_char('\u{2010}'), Some(Dash('\u{2010}')));
/// assert_eq!(Dash::from_char('x'), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dash(pub char);

impl Dash {
    /// Hyphen-minus.
    pub const ASCII: Dash = Dash('-');

    /// The dashes CTL-AN accepts between two hexes.
    pub fn from_char(c: char) -> Option<Dash> {
        matches!(
            c,
            '-' | '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2212}'
        )
        .then_some(Dash(c))
    }

    /// The dash at `b[i..]`, if one is there: which, and its byte length.
    #[inline(always)]
    pub(crate) fn at(b: &[u8], i: usize) -> Option<(Dash, usize)> {
        match b.get(i)? {
            b'-' => Some((Dash::ASCII, 1)),
            // The Unicode dashes are all U+2xxx, three bytes from 0xE2.
            0xE2 => {
                let (b1, b2) = (*b.get(i + 1)?, *b.get(i + 2)?);
                if b1 & 0xC0 != 0x80 || b2 & 0xC0 != 0x80 {
                    return None;
                }
                let c = 0x2000 | u32::from(b1 & 0x3F) << 6 | u32::from(b2 & 0x3F);
                Dash::from_char(char::from_u32(c)?).map(|d| (d, 3))
            }
            _ => None,
        }
    }
}

/// The character at `b[i..]`, if valid UTF-8 starts there.
pub(crate) fn char_at(b: &[u8], i: usize) -> Option<char> {
    let n = match *b.get(i)? {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    };
    std::str::from_utf8(b.get(i..i + n)?).ok()?.chars().next()
}

/// Check indicators.
///
/// ```
/// use ctlpgn_filter::Check;
/// assert_eq!(Check::Afar.as_str(), "+∞");
/// assert_eq!(Check::Adjoining.as_str(), "+^"); // also read from the legacy `^+`
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// `+`
    Check,
    /// `+∞`, check from afar.
    Afar,
    /// `+^` (legacy `^+`), adjoining check.
    Adjoining,
    /// `++`, double check.
    Double,
    /// `#`, checkmate.
    Mate,
}

impl Check {
    /// The check mark at the start of a text, `at(k)` its byte `k` (0
    /// past its end): the mark, its byte length, and whether it is written
    /// otherwise than [`Check::as_str`] writes it (`^+` for `+^`).
    #[inline(always)]
    pub(crate) fn at(at: impl Fn(usize) -> u8) -> Option<(Check, usize, bool)> {
        Some(match (at(0), at(1)) {
            (b'+', b'^') => (Check::Adjoining, 2, false),
            (b'+', b'+') => (Check::Double, 2, false),
            (b'+', c1) if Check::Afar.as_str().as_bytes() == [b'+', c1, at(2), at(3)] => {
                (Check::Afar, 4, false)
            }
            (b'+', _) => (Check::Check, 1, false),
            (b'#', _) => (Check::Mate, 1, false),
            (b'^', b'+') => (Check::Adjoining, 2, true),
            _ => return None,
        })
    }

    /// Canonical text.
    pub fn as_str(self) -> &'static str {
        match self {
            Check::Check => "+",
            Check::Afar => "+∞",
            Check::Adjoining => "+^",
            Check::Double => "++",
            Check::Mate => "#",
        }
    }
}

/// Move ratings.
///
/// ```
/// use ctlpgn_filter::Rating;
/// assert_eq!(Rating::parse(b"?!"), Some(Rating::Dubious));
/// assert_eq!(Rating::parse("◇".as_bytes()).map(Rating::as_str), Some("◇"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rating {
    /// `?`
    Mistake,
    /// `??`
    Blunder,
    /// `?!`
    Dubious,
    /// `!`
    Good,
    /// `!!`
    Brilliant,
    /// `!?`
    Interesting,
    /// `◇`, the only move.
    Forced,
}

impl Rating {
    /// Parses the rating symbols.
    pub fn parse(s: &[u8]) -> Option<Rating> {
        Some(match s {
            b"?" => Rating::Mistake,
            b"??" => Rating::Blunder,
            b"?!" => Rating::Dubious,
            b"!" => Rating::Good,
            b"!!" => Rating::Brilliant,
            b"!?" => Rating::Interesting,
            _ if s == "◇".as_bytes() => Rating::Forced,
            _ => return None,
        })
    }

    /// Canonical text.
    pub fn as_str(self) -> &'static str {
        match self {
            Rating::Mistake => "?",
            Rating::Blunder => "??",
            Rating::Dubious => "?!",
            Rating::Good => "!",
            Rating::Brilliant => "!!",
            Rating::Interesting => "!?",
            Rating::Forced => "◇",
        }
    }
}

/// What a half-move does.
///
/// ```
/// use ctlpgn_filter::{Action, Context, Flow, HalfMove, Pass, FilterBuilder};
/// /// Counts castlings.
/// struct Castlings(u32);
/// impl Pass for Castlings {
///     fn name(&self) -> &'static str { "castlings" }
///     fn half_move(&mut self, mv: &mut HalfMove, _cx: &mut Context) -> Flow {
///         if matches!(mv.action, Action::Castling { .. }) { self.0 += 1; }
///         Flow::Keep
///     }
/// }
/// let mut filter = FilterBuilder::new().pass(Box::new(Castlings(0))).build();
/// let (out, _, _) = filter.filter_bytes(b"1. KRK-II, KRD-DE:\n");
/// assert!(String::from_utf8(out).unwrap().contains("1. KRK-II, KRD-DE:"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Origin, separator, destination: `JE11×A23`.
    Move {
        /// Moving piece; `None` for a pawn (a written `P` is dropped).
        piece: Option<Glyph>,
        /// Origin hex.
        from: Hex,
        /// Separator.
        sep: Sep,
        /// Captured piece letter, when written.
        captured: Option<Glyph>,
        /// Destination hex.
        to: Hex,
        /// Promotion: `Some(Some(g))` for `=X`, `Some(None)` for `=&`.
        promotion: Option<Option<Glyph>>,
    },
    /// Castling `KRK-II`: the three prefix glyphs, the dash and the suffix.
    Castling {
        /// `K`, rook-or-king, rook-or-king.
        prefix: [Glyph; 3],
        /// Dash as written.
        dash: Dash,
        /// Suffix letters (II, HIOO, ...), padded with zeros.
        suffix: [u8; 4],
    },
    /// Forced promotion of a pawn awaiting it: `B24=D`.
    ForcedPromotion {
        /// Where the pawn stands.
        at: Hex,
        /// The piece it becomes.
        piece: Glyph,
    },
}

impl Action {
    /// The action in one word, as `--dedup` compares half-moves: its kind
    /// (2 bits), then its letters a byte each and its hexes two: the
    /// piece, the hexes, the kind of separator (any dash is a move, `×` and
    /// `*` a capture), the captured piece, the promotion. Two actions have
    /// the same key when they are the same move however their separators
    /// are spelled. What [`crate::Pass::main_line`] is handed.
    ///
    /// ```
    /// use ctlpgn_filter::{Action, Hex, Sep};
    /// let capture = |times, to: &[u8]| Action::Move {
    ///     piece: None,
    ///     from: Hex::parse(b"E13").unwrap(),
    ///     sep: Sep::Capture { times },
    ///     captured: None,
    ///     to: Hex::parse(to).unwrap(),
    ///     promotion: None,
    /// };
    /// assert_eq!(capture(true, b"F16").key(), capture(false, b"F16").key());
    /// assert_ne!(capture(false, b"F16").key(), capture(false, b"D16").key());
    /// ```
    #[inline]
    pub fn key(&self) -> u64 {
        let letter = |g: Option<Glyph>| u64::from(g.map_or(0, |g| g.letter));
        let hex = |h: Hex| u64::from(h.column_index() as u8) << 8 | u64::from(h.line());
        match *self {
            Action::Move {
                piece,
                from,
                sep,
                captured,
                to,
                promotion,
            } => {
                let sep: u64 = match sep {
                    Sep::Move(_) => 0,
                    Sep::Capture { .. } => 1,
                    Sep::At => 2,
                    Sep::AtAt => 3,
                };
                let promotion = match promotion {
                    None => 0,
                    Some(None) => u64::from(b'&'),
                    Some(Some(g)) => u64::from(g.letter),
                };
                letter(piece) << 2
                    | hex(from) << 10
                    | sep << 26
                    | letter(captured) << 28
                    | hex(to) << 36
                    | promotion << 52
            }
            Action::Castling { prefix, suffix, .. } => {
                1 | u64::from(prefix[0].letter) << 2
                    | u64::from(prefix[1].letter) << 10
                    | u64::from(prefix[2].letter) << 18
                    | u64::from(u32::from_le_bytes(suffix)) << 26
            }
            Action::ForcedPromotion { at, piece } => 2 | hex(at) << 2 | letter(Some(piece)) << 18,
        }
    }

    /// The separator of a plain move.
    #[inline]
    pub(crate) fn separator(&self) -> Option<Sep> {
        match self {
            Action::Move { sep, .. } => Some(*sep),
            _ => None,
        }
    }

    /// Its separator in ASCII ([`Sep::ascii`]; a castling's dash `-`).
    #[inline]
    pub(crate) fn respell_ascii(&mut self) {
        match self {
            Action::Move { sep, .. } => *sep = sep.ascii(),
            Action::Castling { dash, .. } => *dash = Dash::ASCII,
            Action::ForcedPromotion { .. } => {}
        }
    }

    /// Is it `other`, but for a plain move's separator?
    #[inline]
    pub(crate) fn same_but_separator(&self, other: &Action) -> bool {
        match (*self, other.separator()) {
            (Action::Move { .. }, Some(sep)) => {
                let mut a = *self;
                if let Action::Move { sep: s, .. } = &mut a {
                    *s = sep;
                }
                a == *other
            }
            _ => false,
        }
    }
}

/// One player's move with everything written after it.
///
/// ```
/// use ctlpgn_filter::{Context, Flow, FilterBuilder, HalfMove, Pass, Side};
/// /// Writes Black's moves' numbers into a list.
/// struct Numbers(std::sync::Arc<std::sync::Mutex<Vec<u32>>>);
/// impl Pass for Numbers {
///     fn name(&self) -> &'static str { "numbers" }
///     fn half_move(&mut self, mv: &mut HalfMove, _cx: &mut Context) -> Flow {
///         if mv.side == Side::Black {
///             self.0.lock().unwrap().push(mv.number);
///         }
///         let mut text = Vec::new();
///         mv.write_move(&mut text);
///         assert!(!text.is_empty());
///         Flow::Keep
///     }
/// }
/// let seen = std::sync::Arc::default();
/// let mut filter = FilterBuilder::new().pass(Box::new(Numbers(std::sync::Arc::clone(&seen)))).build();
/// filter.filter_bytes(b"1. E7-E13, E21-E15 2. F8-F12, F20-F16:\n");
/// assert_eq!(*seen.lock().unwrap(), [1, 2]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalfMove {
    /// Move number it belongs to.
    pub number: u32,
    /// Who moves.
    pub side: Side,
    /// `true` when the number was written `N?` (unknown start).
    pub unknown_number: bool,
    /// The move itself.
    pub action: Action,
    /// Check indicator.
    pub check: Option<Check>,
    /// Rating, when written.
    pub rating: Option<Rating>,
    /// NAGs (`$n`), at most [`HalfMove::MAX_NAGS`].
    pub nags: [u8; HalfMove::MAX_NAGS],
    /// How many of `nags` are used.
    pub nag_count: u8,
    /// `(=)`: a draw was offered.
    pub draw_offer: bool,
    /// `:`: the last move of the game.
    pub end: bool,
    /// Where it is in the input.
    pub pos: Pos,
}

impl HalfMove {
    /// How many NAGs one half-move may carry.
    pub const MAX_NAGS: usize = 4;

    /// A half-move with nothing written after it (no rating, NAG, `(=)` or
    /// `:`), at no place until the reader places it.
    pub fn new(number: u32, side: Side, action: Action, check: Option<Check>) -> HalfMove {
        HalfMove {
            number,
            side,
            unknown_number: false,
            action,
            check,
            rating: None,
            nags: [0; HalfMove::MAX_NAGS],
            nag_count: 0,
            draw_offer: false,
            end: false,
            pos: Pos::default(),
        }
    }

    /// The NAGs written after the move.
    pub fn nags(&self) -> &[u8] {
        &self.nags[..self.nag_count as usize]
    }

    /// Appends the move text (piece, hexes, promotion, check), without
    /// rating, NAGs, draw offer or end marker.
    #[inline]
    pub fn write_move(&self, out: &mut Vec<u8>) {
        // Laid out on the stack, then appended at once.
        let mut t = Text::default();
        self.lay_move(&mut t);
        out.extend_from_slice(t.as_bytes());
    }

    /// Lays out the move text as [`HalfMove::write_move`] writes it.
    #[inline]
    pub(crate) fn lay_move(&self, t: &mut Text) {
        match self.action {
            Action::Move {
                piece,
                from,
                sep,
                captured,
                to,
                promotion,
            } => {
                if let Some(p) = piece {
                    t.glyph(p);
                }
                t.hex(from);
                t.separator(sep);
                if let Some(c) = captured {
                    t.glyph(c);
                }
                t.hex(to);
                match promotion {
                    None => {}
                    Some(Some(g)) => {
                        t.push(b'=');
                        t.glyph(g);
                    }
                    Some(None) => t.push_str("=&"),
                }
            }
            Action::Castling {
                prefix,
                dash,
                suffix,
            } => {
                for g in prefix {
                    t.glyph(g);
                }
                t.dash(dash);
                for &b in suffix.iter().take_while(|&&b| b != 0) {
                    t.push(b);
                }
            }
            Action::ForcedPromotion { at, piece } => {
                t.hex(at);
                t.push(b'=');
                t.glyph(piece);
            }
        }
        if let Some(c) = self.check {
            t.push_str(c.as_str());
        }
    }

    /// Lays out what is written after the move: ratings and NAGs, each
    /// after a space, then the game indicators, ` (=)` (joined to a
    /// rating) and `:`.
    #[inline]
    pub(crate) fn lay_annotations(&self, t: &mut Text) {
        if self.rating.is_some() || self.nag_count > 0 || self.draw_offer {
            self.lay_annotations_now(t);
        }
        if self.end {
            t.push(b':');
        }
    }

    #[cold]
    fn lay_annotations_now(&self, t: &mut Text) {
        if let Some(r) = self.rating {
            t.push(b' ');
            t.push_str(r.as_str());
        }
        for &n in self.nags() {
            t.push_str(" $");
            t.decimal(u32::from(n));
        }
        if self.draw_offer {
            if self.rating.is_none() {
                t.push(b' ');
            }
            t.push_str("(=)");
        }
    }

    /// Every glyph of the move, for passes that rewrite letters.
    pub fn glyphs_mut(&mut self) -> impl Iterator<Item = &mut Glyph> {
        let (a, b, c): (Option<&mut Glyph>, Option<&mut Glyph>, Option<&mut Glyph>) =
            match &mut self.action {
                Action::Move {
                    piece,
                    captured,
                    promotion,
                    ..
                } => (
                    piece.as_mut(),
                    captured.as_mut(),
                    promotion.as_mut().and_then(|p| p.as_mut()),
                ),
                Action::Castling { prefix, .. } => {
                    let [x, y, z] = prefix;
                    (Some(x), Some(y), Some(z))
                }
                Action::ForcedPromotion { piece, .. } => (Some(piece), None, None),
            };
        a.into_iter().chain(b).chain(c)
    }
}

/// Text laid out on the stack, then appended at once: a half-move's (the
/// longest, figurines everywhere, a Unicode dash, `+∞`, takes 30 bytes),
/// or a move line's (its number, a half-move, its annotations: under 128).
#[derive(Default)]
pub(crate) struct Text {
    bytes: TextBytes,
    len: usize,
}

/// [`Text`]'s bytes, zero until written.
struct TextBytes([u8; 128]);

impl Default for TextBytes {
    fn default() -> TextBytes {
        TextBytes([0; 128])
    }
}

impl Text {
    #[inline(always)]
    pub fn push(&mut self, b: u8) {
        self.bytes.0[self.len & 127] = b;
        self.len += 1;
    }

    #[inline(always)]
    pub fn push_str(&mut self, s: &str) {
        self.push_slice(s.as_bytes());
    }

    #[inline(always)]
    pub fn push_slice(&mut self, s: &[u8]) {
        for &b in s {
            self.push(b);
        }
    }

    /// `n` in decimal.
    #[inline(always)]
    pub fn decimal(&mut self, n: u32) {
        if n < 10 {
            self.push(b'0' + n as u8);
        } else if n < 100 {
            self.push(b'0' + (n / 10) as u8);
            self.push(b'0' + (n % 10) as u8);
        } else {
            let mut digits = [0u8; 10];
            let (mut k, mut n) = (digits.len(), n);
            while n > 0 {
                k -= 1;
                digits[k] = b'0' + (n % 10) as u8;
                n /= 10;
            }
            self.push_slice(&digits[k..]);
        }
    }

    /// The text laid out (the first 128 bytes, which is all a move line
    /// takes).
    #[inline(always)]
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes.0[..self.len.min(128)]
    }

    #[inline(always)]
    fn glyph(&mut self, g: Glyph) {
        match g.fan {
            None => self.push(g.letter),
            Some(side) => self.push_str(figurine(g.letter, side)),
        }
    }

    #[inline(always)]
    fn hex(&mut self, h: Hex) {
        let (b, n) = h.text();
        for (k, &c) in b.iter().enumerate() {
            self.bytes.0[(self.len + k) & 127] = c;
        }
        self.len += n;
    }

    #[inline(always)]
    fn dash(&mut self, d: Dash) {
        if d == Dash::ASCII {
            self.push(b'-');
        } else {
            let mut b = [0u8; 4];
            self.push_str(d.0.encode_utf8(&mut b));
        }
    }

    /// A move's separator, as written.
    #[inline(always)]
    pub fn separator(&mut self, sep: Sep) {
        match sep {
            Sep::Move(d) => self.dash(d),
            Sep::Capture { times: true } => self.push_str(TIMES),
            Sep::Capture { times: false } => self.push(b'*'),
            Sep::At => self.push(b'@'),
            Sep::AtAt => self.push_str("@@"),
        }
    }

    /// `text`, a plain move's as read with a Unicode separator (its first
    /// byte not ASCII), with `sep` in the place of that separator.
    #[inline]
    pub fn respelled(&mut self, text: &[u8], sep: Sep) {
        let k = text.iter().position(|&c| c >= 0x80).unwrap_or(text.len());
        // `×` is two bytes, the dashes three.
        let n = if text.get(k) == Some(&0xC3) { 2 } else { 3 };
        self.push_slice(&text[..k]);
        self.separator(sep);
        self.push_slice(&text[(k + n).min(text.len())..]);
    }
}

/// The capture sign as the notation prints it (U+00D7); `*` is its
/// keyboard spelling, the one canonical output writes.
pub(crate) const TIMES: &str = "×";

/// What stands for White's move when Black's comes first: `...`, the
/// keyboard spelling canonical output writes, or `…` (U+2026), the
/// notation's own.
pub(crate) const ELLIPSIS_ASCII: &str = "...";
/// See [`ELLIPSIS_ASCII`].
pub(crate) const ELLIPSIS: &str = "…";

/// Appends `text`, canonical move text (moves, their numbers and what is
/// written after them, never a result or a comment), with each capture
/// sign `*` written `×`, as the typographic form spells it: in such text
/// `*` is nothing else.
pub(crate) fn push_typographic_captures(out: &mut Vec<u8>, text: &[u8]) {
    let mut rest = text;
    while let Some(k) = memchr::memchr(b'*', rest) {
        out.extend_from_slice(&rest[..k]);
        out.extend_from_slice(TIMES.as_bytes());
        rest = &rest[k + 1..];
    }
    out.extend_from_slice(rest);
}

/// Appends `text`, a run of move lines the writer copies as read (plain
/// moves and the ASCII around them), with each move's Unicode separator
/// (`×`, a dash) written in ASCII, as [`Sep::ascii`] spells it; any other character (`∞`) as it
/// stands.
pub(crate) fn push_ascii_separators(out: &mut Vec<u8>, text: &[u8]) {
    let (mut i, mut k) = (0, 0);
    loop {
        let at = k + ascii_len(&text[k..]);
        if at == text.len() {
            out.extend_from_slice(&text[i..]);
            return;
        }
        let (sep, len) = if text[at..].starts_with(TIMES.as_bytes()) {
            (b'*', TIMES.len())
        } else if let Some((_, len)) = Dash::at(text, at) {
            (b'-', len)
        } else {
            k = at + 1;
            continue;
        };
        out.extend_from_slice(&text[i..at]);
        out.push(sep);
        (i, k) = (at + len, at + len);
    }
}

/// How many bytes `b` starts with that are ASCII: 32 at a time, then 8.
#[inline]
fn ascii_len(b: &[u8]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |w: &[u8]| u64::from_le_bytes(w.try_into().expect("eight bytes"));
    let mut k = 0;
    while let Some(c) = b.get(k..k + 32) {
        if (word(&c[..8]) | word(&c[8..16]) | word(&c[16..24]) | word(&c[24..])) & HIGH != 0 {
            break;
        }
        k += 32;
    }
    while let Some(w) = b.get(k..k + 8) {
        let high = word(w) & HIGH;
        if high != 0 {
            return k + (high.trailing_zeros() / 8) as usize;
        }
        k += 8;
    }
    k + b[k..]
        .iter()
        .position(|&c| c >= 0x80)
        .unwrap_or(b.len() - k)
}

/// A game result.
///
/// ```
/// use ctlpgn_filter::{Outcome, Side};
/// assert_eq!(Outcome::parse("3-0"), Some(Outcome::WhiteWins));
/// assert_eq!(Outcome::parse("1-0"), None); // PGN's, not CTL-PGN's
/// assert_eq!(Outcome::BlackWins.winner(), Some(Side::Black));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `3-0`
    WhiteWins,
    /// `2-1`, White stalemates Black.
    WhiteStalemates,
    /// `0-3`
    BlackWins,
    /// `1-2`, Black stalemates White.
    BlackStalemates,
    /// `1-1`
    Draw,
    /// `*`
    Unfinished,
}

impl Outcome {
    /// Parses `3-0`, `2-1`, `0-3`, `1-2`, `1-1` or `*` (any dash).
    pub fn parse(s: &str) -> Option<Outcome> {
        Outcome::read(s.as_bytes())
    }

    /// [`Outcome::parse`] over bytes (a result token's): the dash read by
    /// [`Dash::at`].
    #[inline]
    pub(crate) fn read(b: &[u8]) -> Option<Outcome> {
        if b == b"*" {
            return Some(Outcome::Unfinished);
        }
        let (_, n) = Dash::at(b, 1)?;
        Some(match (*b.first()?, b.get(1 + n..)?) {
            (b'3', b"0") => Outcome::WhiteWins,
            (b'2', b"1") => Outcome::WhiteStalemates,
            (b'0', b"3") => Outcome::BlackWins,
            (b'1', b"2") => Outcome::BlackStalemates,
            (b'1', b"1") => Outcome::Draw,
            _ => return None,
        })
    }

    /// Canonical text.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "3-0",
            Outcome::WhiteStalemates => "2-1",
            Outcome::BlackWins => "0-3",
            Outcome::BlackStalemates => "1-2",
            Outcome::Draw => "1-1",
            Outcome::Unfinished => "*",
        }
    }

    /// The result of a mate given by `side`.
    pub fn mate_by(side: Side) -> Outcome {
        match side {
            Side::White => Outcome::WhiteWins,
            Side::Black => Outcome::BlackWins,
        }
    }

    /// The side this result says won, if any.
    pub fn winner(self) -> Option<Side> {
        match self {
            Outcome::WhiteWins => Some(Side::White),
            Outcome::BlackWins => Some(Side::Black),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_is_its_two_scores_with_any_dash_or_a_star() {
        let dashes = [
            '-', '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2212}',
        ];
        for outcome in [
            Outcome::WhiteWins,
            Outcome::WhiteStalemates,
            Outcome::BlackWins,
            Outcome::BlackStalemates,
            Outcome::Draw,
        ] {
            for dash in dashes {
                let text = outcome.as_str().replace('-', &dash.to_string());
                assert_eq!(Outcome::parse(&text), Some(outcome), "{text}");
            }
        }
        assert_eq!(Outcome::parse("*"), Some(Outcome::Unfinished));
        for no in [
            "",
            "*-",
            "3-",
            "-0",
            "30",
            "3-00",
            "3~0",
            "3\u{2015}0",
            "1-0",
            "0-0",
            "3-0 ",
        ] {
            assert_eq!(Outcome::parse(no), None, "{no:?}");
        }
    }

    #[test]
    fn move_lines_are_written_with_every_separator_in_ascii_and_nothing_else_changed() {
        let lines = "1. E7\u{2010}E13, E21\u{2212}E15\n2. JE11\u{d7}A23+\u{221e}, F12@@G9\n3. A5\u{2014}A9, B24-B18\n";
        let mut out = Vec::new();
        push_ascii_separators(&mut out, lines.as_bytes());
        let expected = "1. E7-E13, E21-E15\n2. JE11*A23+\u{221e}, F12@@G9\n3. A5-A9, B24-B18\n";
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    #[test]
    fn every_figurine_decodes_to_its_letter_and_colour_and_nothing_else_does() {
        for &(w, b, letter) in &FIGURINES {
            assert_eq!(
                decode_figurine(w.as_bytes()),
                Some((letter, Side::White, w.len()))
            );
            assert_eq!(
                decode_figurine(b.as_bytes()),
                Some((letter, Side::Black, b.len()))
            );
            assert_eq!(figurine(letter, Side::Black), b);
        }
        // Every other character of the planes the figurines live in.
        for c in ('\u{2600}'..='\u{26FF}').chain('\u{1FA00}'..='\u{1FAFF}') {
            let s = c.to_string();
            let known = FIGURINES.iter().any(|f| f.0 == s || f.1 == s);
            assert_eq!(decode_figurine(s.as_bytes()).is_some(), known, "{c}");
        }
        assert_eq!(decode_figurine(&[0xE2, 0x99]), None);
    }
}
