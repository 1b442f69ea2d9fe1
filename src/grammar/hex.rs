//! The C'escacs board: 15 columns, cross-lines 0-28, 169 hexes.

use std::fmt;

pub use crate::grammar::alphabet::COLUMNS;
use crate::grammar::alphabet::LINES_OF;

/// A hex in CTL coordinates: a column and a cross-line.
///
/// ```
/// use ctlpgn_filter::Hex;
/// let h = Hex::parse(b"F14").unwrap();
/// assert_eq!((h.column(), h.line()), (b'F', 14));
/// assert_eq!(h.to_string(), "F14");
/// assert!(Hex::parse(b"F13").is_err()); // column F has even lines only
/// assert_eq!(Hex::from_index(h.index()), h);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hex {
    col: u8,
    line: u8,
}

/// The three colours of the board's hexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HexColour {
    /// White's king and queen start on white hexes.
    White,
    /// Black's king and queen start on black hexes.
    Black,
    /// The third colour: the midline's, and so the central hex F14's.
    Coloured,
}

/// Why a coordinate is not a hex of the board.
///
/// ```
/// use ctlpgn_filter::{Hex, HexError};
/// assert_eq!(Hex::parse(b"J5"), Err(HexError::NoColumn(b'J')));
/// assert_eq!(
///     Hex::parse(b"F1").unwrap_err().to_string(),
///     "F1 is not on the board: column F has even lines 0-28"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HexError {
    /// The letter names no column.
    NoColumn(u8),
    /// The column exists but does not reach this line, or the parity is wrong.
    OffBoard {
        /// Column letter.
        column: u8,
        /// Line written.
        line: u32,
    },
}

impl Hex {
    /// Number of hexes on the board.
    pub const COUNT: usize = 169;

    /// The hex at `column` (a letter of [`COLUMNS`]) and cross-line `line`.
    #[inline]
    pub fn new(column: u8, line: u32) -> Result<Hex, HexError> {
        let col = column_index(column).ok_or(HexError::NoColumn(column))?;
        if line > 28 || LINES_OF[col as usize] & (1 << line) == 0 {
            return Err(HexError::OffBoard { column, line });
        }
        Ok(Hex {
            col,
            line: line as u8,
        })
    }

    /// Parses `F14`: a column letter then the line number, nothing else.
    #[inline]
    pub fn parse(text: &[u8]) -> Result<Hex, HexError> {
        // The usual shapes first: a column and one or two digits.
        let (c, line) = match *text {
            [c, d] if d.is_ascii_digit() => (c, d - b'0'),
            [c, d1, d2] if d1.is_ascii_digit() && d2.is_ascii_digit() => {
                (c, (d1 - b'0') * 10 + (d2 - b'0'))
            }
            _ => return Hex::parse_slow(text),
        };
        match column_index(c) {
            Some(col) if line <= 28 && LINES_OF[col as usize] & (1 << line) != 0 => {
                Ok(Hex { col, line })
            }
            _ => Hex::new(c, u32::from(line)),
        }
    }

    /// The hex at the start of a text as [`Hex`] writes it (a column, then
    /// the line without a leading zero or a third digit), and its byte
    /// length; `at(k)` is the text's byte `k` (0, or any byte not a digit,
    /// past its end). Anything else is `None`: the parser's slow path reads
    /// it or says what is wrong.
    #[inline(always)]
    pub(crate) fn plain_at(at: impl Fn(usize) -> u8) -> Option<(Hex, usize)> {
        let d1 = at(1).wrapping_sub(b'0');
        let d2 = at(2).wrapping_sub(b'0');
        if d1 > 9 {
            return None;
        }
        let (line, n) = if d2 > 9 {
            (d1, 2)
        } else if d1 == 0 || at(3).is_ascii_digit() {
            return None;
        } else {
            (d1 * 10 + d2, 3)
        };
        Hex::on_board(at(0), line).map(|h| (h, n))
    }

    /// The hex at `column` (a letter) and `line`, if it is on the board.
    #[inline(always)]
    pub(crate) fn on_board(column: u8, line: u8) -> Option<Hex> {
        // One load decides; the column's index is looked up only for a hex.
        (line <= 28 && LINES_OF_BYTE[column as usize] & (1 << line) != 0).then(|| Hex {
            col: COLUMN_OF[column as usize] - 1,
            line,
        })
    }

    #[cold]
    fn parse_slow(text: &[u8]) -> Result<Hex, HexError> {
        let (&c, digits) = text.split_first().ok_or(HexError::NoColumn(b' '))?;
        let mut line: u32 = 0;
        if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(HexError::OffBoard {
                column: c,
                line: u32::MAX,
            });
        }
        for d in digits {
            line = line * 10 + u32::from(d - b'0');
        }
        Hex::new(c, line)
    }

    /// Its text (`F14`): three bytes, of which the first `len` are its own.
    #[inline(always)]
    pub(crate) fn text(self) -> ([u8; 3], usize) {
        let l = self.line;
        let c = COLUMNS[self.col as usize & 15];
        if l < 10 {
            ([c, b'0' + l, 0], 2)
        } else {
            ([c, b'0' + l / 10, b'0' + l % 10], 3)
        }
    }

    /// The column letter.
    pub fn column(self) -> u8 {
        COLUMNS[self.col as usize]
    }

    /// Index of the column, 0 (P) to 14 (Z).
    pub fn column_index(self) -> usize {
        self.col as usize
    }

    /// The cross-line, 0-28.
    pub fn line(self) -> u8 {
        self.line
    }

    /// Its colour: the hexes of one cross-line share a colour, and the
    /// colours follow each other line by line, so that the midline (14)
    /// is coloured, White's vertex F0 black and Black's vertex F28 white,
    /// as the spec's board has them (White's king and queen on white hexes).
    ///
    /// ```
    /// use ctlpgn_filter::{Hex, HexColour};
    /// let colour = |h: &str| Hex::parse(h.as_bytes()).unwrap().colour();
    /// assert_eq!(colour("F14"), HexColour::Coloured);
    /// assert_eq!(colour("G1"), HexColour::White);
    /// assert_eq!(colour("G27"), HexColour::Black);
    /// ```
    pub fn colour(self) -> HexColour {
        match self.line % 3 {
            0 => HexColour::Black,
            1 => HexColour::White,
            _ => HexColour::Coloured,
        }
    }

    /// A dense index in `0..169`, ordered by line then column.
    #[inline]
    pub fn index(self) -> usize {
        INDEX[self.col as usize & 15][self.line as usize & 31] as usize
    }

    /// The hex with dense index `i` (inverse of [`Hex::index`]).
    pub fn from_index(i: usize) -> Hex {
        let line = LINE_START.iter().rposition(|&s| s as usize <= i).unwrap();
        let k = i - LINE_START[line] as usize;
        Hex::on_line(line as u8).nth(k).unwrap()
    }

    /// The dense indices of a cross-line's hexes, in column order (empty
    /// past line 28): they lie side by side, as the index runs by line,
    /// then column.
    #[inline]
    pub(crate) fn line_indices(line: u8) -> std::ops::Range<usize> {
        match LINE_START.get(line as usize..line as usize + 2) {
            Some(&[start, end]) => start as usize..end as usize,
            _ => 0..0,
        }
    }

    /// The hexes of a cross-line, in column order.
    pub fn on_line(line: u8) -> impl Iterator<Item = Hex> {
        (0..15u8).filter_map(move |col| {
            let (lo, hi) = line_range(col);
            (line >= lo && line <= hi && (line - lo).is_multiple_of(2)).then_some(Hex { col, line })
        })
    }

    #[cfg(test)]
    fn rank_in_line(self) -> usize {
        Hex::on_line(self.line)
            .position(|h| h.col == self.col)
            .unwrap()
    }

    /// Appends `F14` to `out`.
    #[inline]
    pub fn write_to(self, out: &mut Vec<u8>) {
        let c = self.column();
        let l = self.line;
        if l < 10 {
            out.extend_from_slice(&[c, b'0' + l]);
        } else {
            out.extend_from_slice(&[c, b'0' + l / 10, b'0' + l % 10]);
        }
    }
}

/// Writes `n` in decimal without allocating.
#[inline(always)]
pub(crate) fn push_decimal(out: &mut Vec<u8>, n: u64) {
    if n < 10 {
        out.push(b'0' + n as u8);
    } else if n < 100 {
        out.extend_from_slice(&[b'0' + (n / 10) as u8, b'0' + (n % 10) as u8]);
    } else {
        push_large_decimal(out, n);
    }
}

#[cold]
fn push_large_decimal(out: &mut Vec<u8>, n: u64) {
    // Two digits a division: line numbers run to six or seven.
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut n = n;
    while n >= 100 {
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[(n % 100) as usize * 2..][..2]);
        n /= 100;
    }
    if n >= 10 {
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[n as usize * 2..][..2]);
    } else {
        i -= 1;
        buf[i] = b'0' + n as u8;
    }
    out.extend_from_slice(&buf[i..]);
}

/// Number of hexes on each cross-line.
#[cfg(test)]
pub fn hexes_on_line(line: u8) -> usize {
    Hex::on_line(line).count()
}

/// First dense index of each line, and past the last ([`Hex::COUNT`]).
const LINE_START: [u8; 30] = {
    let mut starts = [0u8; 30];
    let mut line = 0;
    let mut acc = 0u8;
    while line < 29 {
        starts[line] = acc;
        let mut col = 0;
        while col < 15 {
            if LINES_OF[col] & (1 << line) != 0 {
                acc += 1;
            }
            col += 1;
        }
        line += 1;
    }
    starts[29] = acc;
    starts
};

/// [`Hex::index`] of each (column, line) on the board, in rows of
/// powers of two: read with masks, so with no bounds to check.
const INDEX: [[u8; 32]; 16] = {
    let mut t = [[0u8; 32]; 16];
    let mut line = 0;
    while line < 29 {
        let mut rank = 0;
        let mut col = 0;
        while col < 15 {
            if LINES_OF[col] & (1 << line) != 0 {
                t[col][line] = LINE_START[line] + rank;
                rank += 1;
            }
            col += 1;
        }
        line += 1;
    }
    t
};

/// Column index of each byte plus one; 0 for bytes that name no column.
const COLUMN_OF: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < COLUMNS.len() {
        t[COLUMNS[i] as usize] = i as u8 + 1;
        i += 1;
    }
    t
};

/// [`LINES_OF`] by the column's letter; 0 for bytes that name no column.
const LINES_OF_BYTE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < COLUMNS.len() {
        t[COLUMNS[i] as usize] = LINES_OF[i];
        i += 1;
    }
    t
};

#[inline]
fn column_index(c: u8) -> Option<u8> {
    COLUMN_OF[c as usize].checked_sub(1)
}

/// Lowest and highest line of a column: the farther from F, the shorter.
fn line_range(col: u8) -> (u8, u8) {
    let d = col.abs_diff(7);
    (d, 28 - d)
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column() as char, self.line)
    }
}

impl fmt::Display for HexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            HexError::NoColumn(c) => write!(
                f,
                "{} is not a column (columns are P T A B C D E F G H I K L X Z)",
                c as char
            ),
            HexError::OffBoard { column, line } => {
                let col = column_index(column).unwrap_or(7);
                let (lo, hi) = line_range(col);
                let parity = if lo % 2 == 0 { "even" } else { "odd" };
                if line == u32::MAX {
                    write!(f, "a hex is a column letter and a line number, like F14")
                } else {
                    write!(
                        f,
                        "{}{} is not on the board: column {} has {} lines {}-{}",
                        column as char, line, column as char, parity, lo, hi
                    )
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_has_169_hexes() {
        let n: usize = (0..29).map(hexes_on_line).sum();
        assert_eq!(n, Hex::COUNT);
    }

    #[test]
    fn dense_index_round_trips() {
        for i in 0..Hex::COUNT {
            let h = Hex::from_index(i);
            assert_eq!(h.index(), i);
            assert_eq!(LINE_START[h.line as usize] as usize + h.rank_in_line(), i);
        }
    }

    #[test]
    fn column_ranges_follow_the_spec() {
        for (c, lo, hi) in [(b'P', 7, 21), (b'T', 6, 22), (b'F', 0, 28), (b'Z', 7, 21)] {
            assert!(Hex::new(c, lo).is_ok());
            assert!(Hex::new(c, hi).is_ok());
            assert!(Hex::new(c, lo + 1).is_err());
            assert!(Hex::new(c, hi + 2).is_err());
        }
    }

    #[test]
    fn off_board_message_names_the_column_lines() {
        let e = Hex::parse(b"F1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "F1 is not on the board: column F has even lines 0-28"
        );
    }

    #[test]
    fn fast_checks_agree_with_the_ranges() {
        for (i, &c) in COLUMNS.iter().enumerate() {
            let (lo, hi) = line_range(i as u8);
            for line in 0..40u32 {
                let on = line >= u32::from(lo)
                    && line <= u32::from(hi)
                    && (line - u32::from(lo)) % 2 == 0;
                assert_eq!(Hex::new(c, line).is_ok(), on, "{}{line}", c as char);
                let text = format!("{}{line}", c as char);
                assert_eq!(Hex::parse(text.as_bytes()).is_ok(), on, "{text}");
                if on {
                    let mut out = Vec::new();
                    Hex::new(c, line).unwrap().write_to(&mut out);
                    assert_eq!(out, text.as_bytes());
                }
            }
        }
        for b in 0..=255u8 {
            assert_eq!(column_index(b).is_some(), COLUMNS.contains(&b));
        }
        let large = [101, 999, 1000, 12345, 100_000, 1_234_567, u64::MAX];
        for n in [0u64, 9, 10, 99, 100].into_iter().chain(large) {
            let mut out = Vec::new();
            push_decimal(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
        }
    }

    #[test]
    fn line_indices_match_the_iterator() {
        for line in 0..32u8 {
            assert_eq!(
                Hex::line_indices(line)
                    .map(Hex::from_index)
                    .collect::<Vec<_>>(),
                Hex::on_line(line).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn neighbours_differ_in_colour_and_diagonals_keep_it() {
        let f14 = Hex::parse(b"F14").unwrap();
        for n in ["F12", "F16", "E13", "E15", "G13", "G15"] {
            assert_ne!(
                Hex::parse(n.as_bytes()).unwrap().colour(),
                f14.colour(),
                "{n}"
            );
        }
        for d in ["D14", "H14", "E11", "E17", "G11", "G17"] {
            assert_eq!(
                Hex::parse(d.as_bytes()).unwrap().colour(),
                f14.colour(),
                "{d}"
            );
        }
    }

    #[test]
    fn the_vertices_are_three_white_and_three_black() {
        let colour = |h: &[u8]| Hex::parse(h).unwrap().colour();
        let corners: [&[u8]; 6] = [b"F0", b"P7", b"P21", b"F28", b"Z21", b"Z7"];
        let whites = corners
            .iter()
            .filter(|h| colour(h) == HexColour::White)
            .count();
        let blacks = corners
            .iter()
            .filter(|h| colour(h) == HexColour::Black)
            .count();
        assert_eq!((whites, blacks), (3, 3));
        assert_eq!(colour(b"F0"), HexColour::Black);
        assert_eq!(colour(b"F28"), HexColour::White);
    }

    #[test]
    fn j_is_not_a_column() {
        assert_eq!(Hex::parse(b"J5"), Err(HexError::NoColumn(b'J')));
    }
}
