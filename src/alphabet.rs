// The notation's fixed alphabet: the board's columns and lines, the piece
// letters, the castlings. Plain constants with no other dependency, so that
// `build.rs` can include this file too (it builds the canonical move-line
// DFA from them); hence no inner doc comment here.

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
