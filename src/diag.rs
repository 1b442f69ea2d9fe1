//! Diagnostics: `FILE:LINE:COL: error: MESSAGE`, the source line, a caret.

use bstr::ByteSlice;
use std::fmt;
use unicode_width::UnicodeWidthChar;

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
    /// Says what was done with a game that has nothing wrong with it: a
    /// duplicate left out (`--dedup`) names the first copy. Never an
    /// error, whatever `--strict` says, and quiet with `-q`.
    Note,
}

impl Severity {
    /// The word a rendered diagnostic shows: `error`, `warning`, `note`.
    ///
    /// ```
    /// assert_eq!(ctlpgn_filter::Severity::Note.as_str(), "note");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// One message about the input, with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error, warning or note.
    pub severity: Severity,
    /// 1-based line of the input.
    pub line: u64,
    /// 1-based column, counted in characters.
    pub column: u64,
    /// What is wrong, and how to fix it where that is clear.
    pub message: String,
    /// The input line, or the part of it around the fault (with `…` where
    /// cut), without its line end; empty when unknown. Kept as read
    /// (invalid UTF-8 as U+FFFD): [`Diagnostic::render`] escapes controls.
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
    ///
    /// Nothing of the input reaches the terminal as a control: a control
    /// character in the message or the source line (`\0`, an escape, a
    /// carriage return, a C1 control, a bidirectional override) is shown
    /// escaped, `\x00`, `\x1b`, `\u{9b}`, `\u{202e}`; a tab is kept, so
    /// that the caret lines up under it. The caret counts display columns:
    /// a wide character (East Asian full width) takes two, a combining
    /// mark none, an escape its length.
    pub fn render_styled(&self, file: &str, color: bool) -> String {
        let (level, caret, reset) = match (color, self.severity) {
            (false, _) => ("", "", ""),
            (true, Severity::Error) => ("\x1b[1;31m", "\x1b[1;31m", "\x1b[0m"),
            (true, Severity::Warning) => ("\x1b[1;33m", "\x1b[1;33m", "\x1b[0m"),
            (true, Severity::Note) => ("\x1b[1;36m", "\x1b[1;36m", "\x1b[0m"),
        };
        let word = self.severity.as_str();
        let mut s = format!(
            "{file}:{}:{}: {level}{word}{reset}: ",
            self.line, self.column
        );
        for c in self.message.chars() {
            push_shown(&mut s, c);
        }
        s.push('\n');
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
            let (lead, trail) = (
                if from > 0 { "…" } else { "" },
                if to < chars.len() { "…" } else { "" },
            );
            s += &format!("{gutter} | {lead}");
            for &c in &chars[from..to] {
                push_shown(&mut s, c);
            }
            s += &format!("{trail}\n{} | ", " ".repeat(gutter.len()));
            // Under each character before the fault, as many columns as it
            // takes on the line above; tabs are copied.
            for c in lead.chars().chain(chars[from..at].iter().copied()) {
                match c {
                    '\t' => s.push('\t'),
                    c => s.extend(std::iter::repeat_n(' ', shown_width(c))),
                }
            }
            s += &format!("{caret}^{reset}\n");
        }
        s
    }
}

/// Characters shown escaped rather than sent to the terminal: the C0 and
/// C1 controls and DEL (a tab excepted) and the bidirectional formatting
/// characters, which could reorder what the terminal shows.
fn is_escaped(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Appends `c` as the terminal is to show it: escaped if [`is_escaped`].
fn push_shown(s: &mut String, c: char) {
    use fmt::Write;
    if !is_escaped(c) {
        s.push(c);
    } else if c.is_ascii() {
        write!(s, "\\x{:02x}", c as u32).expect("a String takes any text");
    } else {
        write!(s, "\\u{{{:x}}}", c as u32).expect("a String takes any text");
    }
}

/// Columns `c` takes as [`push_shown`] shows it (a tab aside).
fn shown_width(c: char) -> usize {
    if !is_escaped(c) {
        UnicodeWidthChar::width(c).unwrap_or(0)
    } else if c.is_ascii() {
        4
    } else {
        // `\u{` + hex digits + `}`
        4 + format!("{:x}", c as u32).len()
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.severity.as_str(), self.message)
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

    fn error_at(column: u64, source: &str) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            line: 1,
            column,
            message: "bad".into(),
            source: source.into(),
            source_column: 1,
        }
    }

    /// The caret line: the gutter of line 1, then `pad` columns, then `^`.
    fn caret_at(pad: usize) -> String {
        format!("  | {}^", " ".repeat(pad))
    }

    #[test]
    fn control_characters_are_shown_escaped_and_the_caret_counts_the_escapes() {
        // NUL, escape, carriage return, DEL, a C1 control (CSI), a
        // bidirectional override; the fault is the x, the 13th character.
        let d = error_at(13, "1.\0\x1b[2J\r\x7f\u{9b}\u{202e} x");
        let r = d.render("f");
        let lines: Vec<&str> = r.lines().collect();
        assert_eq!(lines[0], "f:1:13: error: bad");
        assert_eq!(lines[1], "1 | 1.\\x00\\x1b[2J\\x0d\\x7f\\u{9b}\\u{202e} x");
        // 1 + 1 + 4 + 4 + 3 + 4 + 4 + 6 + 8 + 1 columns before the x.
        assert_eq!(lines[2], caret_at(36));
    }

    #[test]
    fn no_control_character_reaches_the_terminal_from_any_part() {
        let mut d = error_at(3, "a\x1b]0;title\x07b\0c");
        d.message = "quoted \x1b[31mred\x1b[0m".into();
        for color in [false, true] {
            let r = d.render_styled("f", color);
            let text: String = if color {
                // Only the colours' own escapes, which start `\x1b[1;3` or `\x1b[0m`.
                r.replace("\x1b[1;31m", "").replace("\x1b[0m", "")
            } else {
                r.clone()
            };
            assert!(!text.chars().any(|c| c.is_control() && c != '\n'), "{r:?}");
        }
        assert!(d.render("f").contains("quoted \\x1b[31mred\\x1b[0m"));
    }

    #[test]
    fn tabs_are_kept_so_the_caret_lines_up() {
        let d = error_at(4, "1.\tE7x");
        assert_eq!(d.render("f"), "f:1:4: error: bad\n1 | 1.\tE7x\n  |   \t^\n");
    }

    #[test]
    fn the_caret_lines_up_under_wide_characters() {
        // Full-width digits and letters take two columns each; the header's
        // column still counts characters: the x is the 10th.
        let d = error_at(10, "１. Ｅ7-E13x");
        let r = d.render("f");
        assert!(r.starts_with("f:1:10: error: bad\n"), "{r}");
        assert_eq!(r.lines().nth(2), Some(caret_at(11).as_str()), "{r}");
        // CJK ideographs in a comment, then the fault.
        let d = error_at(6, "{棋局} x");
        assert_eq!(d.render("f").lines().nth(2), Some(caret_at(7).as_str()));
        // A combining mark takes no column.
        let d = error_at(5, "e\u{301}  x");
        assert_eq!(d.render("f").lines().nth(2), Some(caret_at(3).as_str()));
    }

    #[test]
    fn figurines_and_the_capture_sign_take_one_column() {
        let d = error_at(4, "♘🩒×x");
        assert_eq!(d.render("f").lines().nth(2), Some(caret_at(3).as_str()));
    }

    #[test]
    fn the_reader_s_excerpts_show_control_bytes_escaped() {
        let input = b"[Variant \"C'escacs\"]\n1. E7-E13\x1b[2J, E21-E15:\n*\n";
        let (_, diags, _) = crate::Filter::default().filter_bytes(input);
        assert!(!diags.is_empty());
        for d in &diags {
            let r = d.render("f");
            assert!(!r.contains('\x1b'), "{r:?}");
            assert!(r.contains("\\x1b[2J"), "{r:?}");
        }
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
