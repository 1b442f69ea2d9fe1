//! Diagnostics: `FILE:LINE:COL: error: MESSAGE`, the source line, a caret.

use std::fmt;

/// How bad a diagnostic is.
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
    /// The input line, without its line end (empty when unknown).
    pub source: String,
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
            let at = (self.column.saturating_sub(1) as usize).min(chars.len());
            let from = at.saturating_sub(WINDOW / 2);
            let to = (from + WINDOW).min(chars.len());
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
const WINDOW: usize = 100;

/// Column (1-based, in characters) of byte `offset` in `line`.
pub(crate) fn char_column(line: &[u8], offset: usize) -> u64 {
    let offset = offset.min(line.len());
    1 + line[..offset]
        .iter()
        .filter(|&&b| (b & 0xC0) != 0x80)
        .count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

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
        };
        assert_eq!(d.render("f"), "f:3:5: error: bad\n3 | 1. ×E7\n  |     ^\n");
    }
}
