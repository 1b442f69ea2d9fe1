//! Diagnostics: `FILE:LINE:COL: error: MESSAGE`, the source line, a caret.

use bstr::ByteSlice;
use std::fmt;

/// How bad a diagnostic is.
///
/// ```
/// use ctlpgn_filter::{Filter, Severity};
/// let (_, diags, _) = Filter::default().filter_bytes(b"1. E7-E13:\n");
/// assert_eq!(diags[0].severity, Severity::Warning); // no Variant tag: added
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The game is rejected.
    Error,
    /// The game is written; `--strict` rejects it.
    Warning,
}

/// One message about the input, with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// 1-based line of the input.
    pub line: u64,
    /// 1-based column, counted in characters.
    pub column: u64,
    /// What is wrong, and how to fix it where that is clear.
    pub message: String,
    /// The input line, or the part of it around the fault (with `…` where
    /// cut), without its line end; empty when unknown.
    pub source: String,
    /// Column of the first character of `source` (1 for a whole line).
    pub source_column: u64,
}

impl Diagnostic {
    /// Renders the diagnostic for a human: header, source line, caret.
    ///
    /// ```
    /// use ctlpgn_filter::{Diagnostic, Severity};
    /// let d = Diagnostic {
    ///     severity: Severity::Error,
    ///     line: 2,
    ///     column: 7,
    ///     message: "the letter x is not a capture sign in CTL-AN: write × or *".into(),
    ///     source: "1. E13xF16:".into(),
    ///     source_column: 1,
    /// };
    /// assert_eq!(
    ///     d.render("games.ctl-pgn"),
    ///     "games.ctl-pgn:2:7: error: the letter x is not a capture sign in CTL-AN: write × or *\n\
    ///      2 | 1. E13xF16:\n  |       ^\n"
    /// );
    /// ```
    pub fn render(&self, file: &str) -> String {
        self.render_styled(file, false)
    }

    /// [`Diagnostic::render`], with ANSI colours when `color` is true.
    pub fn render_styled(&self, file: &str, color: bool) -> String {
        let (level, caret, reset) = match (color, self.severity) {
            (false, _) => ("", "", ""),
            (true, Severity::Error) => ("\x1b[1;31m", "\x1b[1;31m", "\x1b[0m"),
            (true, Severity::Warning) => ("\x1b[1;33m", "\x1b[1;33m", "\x1b[0m"),
        };
        let word = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        let mut s = format!(
            "{file}:{}:{}: {level}{word}{reset}: {}\n",
            self.line, self.column, self.message
        );
        if !self.source.is_empty() {
            let gutter = self.line.to_string();
            // A long line is shown as a window around the fault.
            let chars: Vec<char> = self.source.chars().collect();
            let at = (self.column.saturating_sub(self.source_column) as usize).min(chars.len());
            let (from, to) = if chars.len() <= WINDOW + 2 {
                (0, chars.len())
            } else {
                let from = at.saturating_sub(WINDOW / 2);
                (from, (from + WINDOW).min(chars.len()))
            };
            let shown: String = chars[from..to].iter().collect();
            let (lead, trail) = (
                if from > 0 { "…" } else { "" },
                if to < chars.len() { "…" } else { "" },
            );
            s += &format!("{gutter} | {lead}{shown}{trail}\n");
            // Columns count characters; tabs are copied so the caret lines up.
            let pad: String = lead
                .chars()
                .chain(chars[from..at].iter().copied())
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            s += &format!("{} | {pad}{caret}^{reset}\n", " ".repeat(gutter.len()));
        }
        s
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{level}: {}", self.message)
    }
}

/// How many characters of a long source line are shown.
pub(crate) const WINDOW: usize = 100;

/// Column (1-based, in characters) of byte `offset` in `line`.
pub(crate) fn char_column(line: &[u8], offset: usize) -> u64 {
    1 + chars_in(&line[..offset.min(line.len())])
}

/// How many characters the UTF-8 `bytes` hold: the bytes that start one,
/// that is all but the continuation bytes (`10xxxxxx`), counted eight at
/// a time.
#[inline]
pub(crate) fn chars_in(bytes: &[u8]) -> u64 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let words = bytes.chunks_exact(8);
    let tail = words.remainder();
    let continuation: u64 = words
        .map(|w| {
            let w = u64::from_le_bytes(w.try_into().expect("eight bytes"));
            // Bit 7 of each byte set, bit 6 clear.
            u64::from((w & !(w << 1) & HIGH).count_ones())
        })
        .sum::<u64>()
        + tail
            .iter()
            .map(|&b| u64::from(b & 0xC0 == 0x80))
            .sum::<u64>();
    bytes.len() as u64 - continuation
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chars_in_counts_characters_not_bytes() {
        let text = "1. ♘I19-D2, 🩒F22×A19 {défense} E7‐E13";
        for end in 0..=text.len() {
            let bytes = &text.as_bytes()[..end];
            let expected = bytes.iter().filter(|&&b| b & 0xC0 != 0x80).count();
            assert_eq!(chars_in(bytes), expected as u64, "{end}");
        }
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let line = "3. E13×F16, E15xF12".as_bytes();
        let x = line.iter().position(|&b| b == b'x').unwrap();
        assert_eq!(char_column(line, x), 16);
    }

    #[test]
    fn render_puts_the_caret_under_the_fault() {
        let d = Diagnostic {
            severity: Severity::Error,
            line: 3,
            column: 5,
            message: "bad".into(),
            source: "1. ×E7".into(),
            source_column: 1,
        };
        assert_eq!(d.render("f"), "f:3:5: error: bad\n3 | 1. ×E7\n  |     ^\n");
    }
}

/// [`excerpt`] of the line that byte `i` of `bytes` is on, whatever the
/// line's length: only the bytes a window of characters can take each
/// side of the fault are looked at.
pub(crate) fn excerpt_at(bytes: &[u8], i: usize, column: u64) -> (String, u64) {
    // Enough for the shown window of characters, whatever their UTF-8 length.
    const REACH: usize = 4 * WINDOW + 4;
    let i = i.min(bytes.len());
    let lo = i.saturating_sub(REACH);
    let from = memchr::memrchr(b'\n', &bytes[lo..i]).map_or(lo, |n| lo + n + 1);
    let hi = (i + REACH).min(bytes.len());
    let mut to = memchr::memchr(b'\n', &bytes[i..hi]).map_or(hi, |n| i + n);
    while to > i && bytes[to - 1] == b'\r' {
        to -= 1;
    }
    let (mut text, mut first) = excerpt(&bytes[from..to], i - from, column);
    if from > 0 && from == lo && bytes[from - 1] != b'\n' && !text.starts_with('…') {
        // The window starts inside the line.
        text.insert(0, '…');
        first = first.saturating_sub(1);
    }
    (text, first)
}

/// The part of `line` shown under a fault at byte `off`, whose column is
/// `column`: up to half a window of characters each side, `…` where cut.
/// Returns the text and the column of its first character.
pub(crate) fn excerpt(line: &[u8], off: usize, column: u64) -> (String, u64) {
    let off = off.min(line.len());
    let half = WINDOW / 2;
    let is_start = |b: &u8| (b & 0xC0) != 0x80;
    let mut start = off;
    let mut before = 0u64;
    while start > 0 && before < half as u64 {
        start -= 1;
        if is_start(&line[start]) {
            before += 1;
        }
    }
    // What is not shown before the fault may be shown after it.
    let room = WINDOW - before as usize;
    let mut end = off;
    let mut after = 0;
    while end < line.len() && after < room {
        end += 1;
        while end < line.len() && !is_start(&line[end]) {
            end += 1;
        }
        after += 1;
    }
    let mut text = String::new();
    let mut first = column.saturating_sub(before);
    if start > 0 {
        text.push('…');
        first = first.saturating_sub(1);
    }
    text += &line[start..end].to_str_lossy();
    if end < line.len() {
        text.push('…');
    }
    (text, first)
}

#[cfg(test)]
mod excerpt_tests {
    use super::*;

    #[test]
    fn a_short_line_is_shown_whole() {
        assert_eq!(excerpt(b"1. E7-E13", 3, 4), ("1. E7-E13".to_string(), 1));
    }

    #[test]
    fn a_long_line_is_cut_around_the_fault_and_the_caret_stays_on_it() {
        let line = format!("{}X{}", "a".repeat(500), "b".repeat(500));
        let (text, first) = excerpt(line.as_bytes(), 500, 501);
        let d = Diagnostic {
            severity: Severity::Error,
            line: 1,
            column: 501,
            message: "m".into(),
            source: text,
            source_column: first,
        };
        let r = d.render("f");
        let lines: Vec<&str> = r.lines().collect();
        let caret = lines[2].chars().position(|c| c == '^').unwrap();
        assert_eq!(lines[1].chars().nth(caret), Some('X'));
        assert!(lines[1].contains('…'));
    }
}
