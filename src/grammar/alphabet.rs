//! The notation's fixed alphabet: the board's columns and lines, the piece
//! letters and their alternatives, the castlings.

/// Column letters from White's left; `J` is not a column.
pub const COLUMNS: &[u8; 15] = b"PTABCDEFGHIKLXZ";

/// The lines each column has, one bit per line: the farther a column from
/// F (index 7), the shorter, and every other line.
pub(crate) const LINES_OF: [u32; 15] = {
    let mut t = [0u32; 15];
    let mut col: usize = 0;
    while col < 15 {
        let d = col.abs_diff(7);
        let mut line = d;
        while line <= 28 - d {
            t[col] |= 1 << line;
            line += 2;
        }
        col += 1;
    }
    t
};

/// The standard piece letters of CTL-AN.
pub const STANDARD_LETTERS: &[u8; 9] = b"PEJNGRVDK";

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
    let mut i = 0;
    while i < STANDARD_LETTERS.len() {
        t[(STANDARD_LETTERS[i] - b'A') as usize] = STANDARD_LETTERS[i];
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
pub(crate) const fn is_piece_letter(c: u8) -> bool {
    matches!(c.wrapping_sub(b'A'), i @ 0..=25 if PIECE_OF[i as usize] != 0)
}

/// Is `c` a standard piece letter?
#[inline]
pub(crate) const fn is_standard_letter(c: u8) -> bool {
    matches!(c.wrapping_sub(b'A'), i @ 0..=25 if PIECE_OF[i as usize] == c)
}

/// The piece a letter means, standard or alternative, whether or not its
/// Redefine is declared; any other byte means itself.
#[inline]
pub(crate) fn piece_meant(c: u8) -> u8 {
    match c.wrapping_sub(b'A') {
        i @ 0..=25 if PIECE_OF[i as usize] != 0 => PIECE_OF[i as usize],
        _ => c,
    }
}

/// The castling suffixes CTL-AN defines for each prefix.
pub const CASTLING: [(&[u8; 3], &[&str]); 3] = [
    (
        b"KRK",
        &[
            "II", "IK", "IH", "HIO", "HIOO", "HH", "HG", "FG", "FE", "EF", "EE",
        ],
    ),
    (b"KRD", &["DD", "DE", "HH", "HG", "FG", "FE", "EF", "ED"]),
    (b"KRR", &["HIH", "HGG", "FGG", "FEE", "EEF"]),
];
