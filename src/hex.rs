//! The C'escacs board: 15 columns, cross-lines 0-28, 169 hexes.

use std::fmt;

/// Column letters from White's left; `J` is not a column.
pub const COLUMNS: &[u8; 15] = b"PTABCDEFGHIKLXZ";

/// A hex in CTL coordinates: a column and a cross-line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hex {
    col: u8,
    line: u8,
}

/// Why a coordinate is not a hex of the board.
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
    pub fn new(column: u8, line: u32) -> Result<Hex, HexError> {
        let col = column_index(column).ok_or(HexError::NoColumn(column))?;
        let (lo, hi) = line_range(col);
        if line < lo as u32 || line > hi as u32 || (line - lo as u32) % 2 != 0 {
            return Err(HexError::OffBoard { column, line });
        }
        Ok(Hex {
            col,
            line: line as u8,
        })
    }

    /// Parses `F14`: a column letter then the line number, nothing else.
    pub fn parse(text: &[u8]) -> Result<Hex, HexError> {
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

    /// A dense index in `0..169`, ordered by line then column.
    pub fn index(self) -> usize {
        LINE_START[self.line as usize] as usize + self.rank_in_line()
    }

    /// The hex with dense index `i` (inverse of [`Hex::index`]).
    pub fn from_index(i: usize) -> Hex {
        let line = LINE_START.iter().rposition(|&s| s as usize <= i).unwrap();
        let k = i - LINE_START[line] as usize;
        Hex::on_line(line as u8).nth(k).unwrap()
    }

    /// The hexes of a cross-line, in column order.
    pub fn on_line(line: u8) -> impl Iterator<Item = Hex> {
        (0..15u8).filter_map(move |col| {
            let (lo, hi) = line_range(col);
            (line >= lo && line <= hi && (line - lo) % 2 == 0).then_some(Hex { col, line })
        })
    }

    fn rank_in_line(self) -> usize {
        Hex::on_line(self.line)
            .position(|h| h.col == self.col)
            .unwrap()
    }

    /// Appends `F14` to `out`.
    pub fn write_to(self, out: &mut Vec<u8>) {
        out.push(self.column());
        push_decimal(out, u64::from(self.line));
    }
}

/// Writes `n` in decimal without allocating.
pub(crate) fn push_decimal(out: &mut Vec<u8>, n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}

/// Number of hexes on each cross-line.
#[cfg(test)]
pub fn hexes_on_line(line: u8) -> usize {
    Hex::on_line(line).count()
}

/// First dense index of each line.
const LINE_START: [u8; 29] = {
    let mut starts = [0u8; 29];
    let mut line = 0;
    let mut acc = 0u8;
    while line < 29 {
        starts[line] = acc;
        let mut col = 0;
        while col < 15 {
            let d = if col > 7 { col - 7 } else { 7 - col };
            let (lo, hi) = (d as u8, 28 - d as u8);
            let l = line as u8;
            if l >= lo && l <= hi && (l - lo) % 2 == 0 {
                acc += 1;
            }
            col += 1;
        }
        line += 1;
    }
    starts
};

fn column_index(c: u8) -> Option<u8> {
    COLUMNS.iter().position(|&x| x == c).map(|i| i as u8)
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
            assert_eq!(Hex::from_index(i).index(), i);
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
    fn j_is_not_a_column() {
        assert_eq!(Hex::parse(b"J5"), Err(HexError::NoColumn(b'J')));
    }
}
