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

/// A place in the input: its line and its byte offset in the stream. Items
/// carry one ([`crate::HalfMove::pos`], [`crate::Tag::pos`]); a report's
/// column is worked out from it only when a diagnostic is made.
///
/// ```
/// use ctlpgn_filter::{Context, FilterBuilder, Flow, HalfMove, Pass};
/// /// Reports Black's moves.
/// struct Black;
/// impl Pass for Black {
///     fn name(&self) -> &'static str { "black" }
///     fn half_move(&mut self, mv: &mut HalfMove, cx: &mut Context) -> Flow {
///         if mv.side == ctlpgn_filter::Side::Black {
///             cx.warn(mv.pos, "Black moved");
///         }
///         Flow::Keep
///     }
/// }
/// let mut f = FilterBuilder::new().pass(Box::new(Black)).build();
/// let input = "[Variant \"C'escacs\"]\n1. E7‐E13, E21-E15:\n";
/// let (_, d, _) = f.filter_bytes(input.as_bytes());
/// // The hyphen is three bytes, one column.
/// assert_eq!((d[0].line, d[0].column, d[0].source.as_str()), (2, 12, "1. E7‐E13, E21-E15:"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pos {
    /// 1-based input line.
    pub line: u64,
    /// Byte offset in the input stream.
    pub offset: u64,
}

/// What a diagnostic is about, named where its message is made: the
/// command line counts alike diagnostics by it, and after a few of one kind
/// in an input says how many more there were instead of printing them.
///
/// ```
/// use ctlpgn_filter::{DiagnosticKind, Filter};
/// let (_, d, _) = Filter::default().filter_bytes(b"[Variant \"C'escacs\"]\n1. e4 e5\n");
/// assert_eq!(d[0].kind, DiagnosticKind::StandardChess);
/// assert_eq!(d[0].kind.name(), "standard-chess PGN");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum DiagnosticKind {
    /// Any other fault.
    #[default]
    Other,
    /// Standard-chess PGN (SAN moves, `1-0`, `O-O`, `;` comments).
    StandardChess,
    /// Bytes that are not UTF-8 (Latin-1, Windows-1252, UTF-16 text).
    Encoding,
    /// A tag line that is not `[Name "value"]`.
    TagSyntax,
    /// A word where a half-move stands that is not one.
    MoveSyntax,
    /// A half-move that the board does not allow (`--verify`).
    Incoherent,
    /// A game without `[Variant "C'escacs"]` (the tag is added).
    NoVariantTag,
    /// A last move without `:` or `#`.
    NoEndMarker,
    /// A letter that `[Redefine]` does not allow.
    Redefine,
    /// A game left out as a copy of one written before (`--dedup`): the
    /// note that names the first copy.
    Duplicate,
}

impl DiagnosticKind {
    /// The kind's name in messages: `"standard-chess PGN" errors`.
    pub fn name(self) -> &'static str {
        match self {
            DiagnosticKind::Other => "other",
            DiagnosticKind::StandardChess => "standard-chess PGN",
            DiagnosticKind::Encoding => "encoding",
            DiagnosticKind::TagSyntax => "tag syntax",
            DiagnosticKind::MoveSyntax => "move syntax",
            DiagnosticKind::Incoherent => "incoherent move",
            DiagnosticKind::NoVariantTag => "no Variant tag",
            DiagnosticKind::NoEndMarker => "no end marker",
            DiagnosticKind::Redefine => "Redefine",
            DiagnosticKind::Duplicate => "duplicate",
        }
    }
}

/// A diagnostic's text and its kind, as made where the fault is found.
/// Plain text (a `String`, a `&str`, `format_args!`) is of kind
/// [`DiagnosticKind::Other`].
///
/// ```
/// use ctlpgn_filter::{DiagnosticKind, Message};
/// let m = Message::new(DiagnosticKind::MoveSyntax, "a hex is missing");
/// assert_eq!(m.to_string(), "a hex is missing");
/// assert_eq!(Message::from("too long").kind, DiagnosticKind::Other);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// What the message is about.
    pub kind: DiagnosticKind,
    /// The message.
    pub text: String,
}

impl Message {
    /// A message of `kind`.
    pub fn new(kind: DiagnosticKind, text: impl Into<String>) -> Message {
        Message {
            kind,
            text: text.into(),
        }
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl From<String> for Message {
    fn from(text: String) -> Message {
        Message::new(DiagnosticKind::Other, text)
    }
}

impl From<&str> for Message {
    fn from(text: &str) -> Message {
        Message::new(DiagnosticKind::Other, text)
    }
}

impl From<&String> for Message {
    fn from(text: &String) -> Message {
        Message::new(DiagnosticKind::Other, text.as_str())
    }
}

impl From<std::borrow::Cow<'_, str>> for Message {
    fn from(text: std::borrow::Cow<'_, str>) -> Message {
        Message::new(DiagnosticKind::Other, text)
    }
}

impl From<Box<str>> for Message {
    fn from(text: Box<str>) -> Message {
        Message::new(DiagnosticKind::Other, text)
    }
}

impl From<fmt::Arguments<'_>> for Message {
    fn from(text: fmt::Arguments<'_>) -> Message {
        Message::new(DiagnosticKind::Other, text.to_string())
    }
}

/// One message about the input, with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error, warning or note.
    pub severity: Severity,
    /// What it is about.
    pub kind: DiagnosticKind,
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
    /// use ctlpgn_filter::{Diagnostic, DiagnosticKind, Severity};
    /// let d = Diagnostic {
    ///     severity: Severity::Error,
    ///     kind: DiagnosticKind::MoveSyntax,
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
        assert_eq!(1 + chars_in(&line[..x]), 16);
    }

    #[test]
    fn render_puts_the_caret_under_the_fault() {
        let d = Diagnostic {
            severity: Severity::Error,
            kind: DiagnosticKind::Other,
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
            kind: DiagnosticKind::Other,
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
    // Does the window start inside the line?
    let cut = from > 0 && from == lo && bytes[from - 1] != b'\n';
    excerpt(&bytes[from..to], i - from, column, cut)
}

/// The part of `line` shown under a fault at byte `off`, whose column is
/// `column`: up to half a window of characters each side, `…` where cut.
/// Returns the text and the column of its first character.
/// `cut`: the line goes on before `line`'s first byte.
fn excerpt(line: &[u8], off: usize, column: u64, cut: bool) -> (String, u64) {
    let off = off.min(line.len());
    let half = WINDOW / 2;
    let is_start = |b: &u8| (b & 0xC0) != 0x80;
    // ASCII, the usual case, is counted in bytes.
    let mut start = off.saturating_sub(half);
    let mut before = (off - start) as u64;
    if !line[start..off].is_ascii() {
        (start, before) = (off, 0);
        while start > 0 && before < half as u64 {
            start -= 1;
            if is_start(&line[start]) {
                before += 1;
            }
        }
    }
    // What is not shown before the fault may be shown after it.
    let room = WINDOW - before as usize;
    let mut end = (off + room).min(line.len());
    if !line[off..end].is_ascii() {
        end = off;
        let mut after = 0;
        while end < line.len() && after < room {
            end += 1;
            while end < line.len() && !is_start(&line[end]) {
                end += 1;
            }
            after += 1;
        }
    }
    let shown = line[start..end].to_str_lossy();
    let mut text = String::with_capacity(shown.len() + 2 * '…'.len_utf8());
    let mut first = column.saturating_sub(before);
    if start > 0 || cut {
        text.push('…');
        first = first.saturating_sub(1);
    }
    text += &shown;
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
        assert_eq!(
            excerpt(b"1. E7-E13", 3, 4, false),
            ("1. E7-E13".to_string(), 1)
        );
    }

    #[test]
    fn a_long_line_is_cut_around_the_fault_and_the_caret_stays_on_it() {
        let line = format!("{}X{}", "a".repeat(500), "b".repeat(500));
        let (text, first) = excerpt(line.as_bytes(), 500, 501, false);
        let d = Diagnostic {
            severity: Severity::Error,
            kind: DiagnosticKind::Other,
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

// ───────────────────────────── encodings ─────────────────────────────

/// The message for the byte `bytes[i]`, which is not UTF-8, at stream
/// offset `offset`: the byte and its offset, and, when the text around it
/// reads as another encoding, that encoding and the command that converts
/// the file (`iconv -f latin1 -t utf-8`).
///
/// `bytes` holds the line around the byte (more is fine: only the line is
/// looked at, and at most a few hundred bytes each side of the byte).
pub(crate) fn invalid_utf8(bytes: &[u8], i: usize, offset: u64) -> Message {
    let byte = bytes[i];
    let mut text = format!("invalid UTF-8: byte 0x{byte:02X} at byte offset {offset} of the input");
    if offset == i as u64 && i <= 1 {
        if let Some(utf16) = utf16_bom(bytes) {
            text += &format!(
                ": the input is {utf16} text (it starts with that byte order mark): \
                 convert it with iconv -f {utf16} -t utf-8"
            );
            return Message::new(DiagnosticKind::Encoding, text);
        }
    }
    let (from, to) = line_around(bytes, i);
    if let Some(legacy) = legacy_encoding(&bytes[from..to]) {
        if let Some(c) = legacy.char_of(byte) {
            text += &format!(" ('{c}' in {})", legacy.short_name());
        }
        text += &format!(
            ": the text seems to be {}, not UTF-8: convert the file with iconv -f {} -t utf-8",
            legacy.name(),
            legacy.iconv()
        );
    }
    Message::new(DiagnosticKind::Encoding, text)
}

/// The bounds of the line that byte `i` is on, at most [`LINE_REACH`]
/// bytes each side of it.
fn line_around(bytes: &[u8], i: usize) -> (usize, usize) {
    let lo = i.saturating_sub(LINE_REACH);
    let hi = (i + LINE_REACH).min(bytes.len());
    let from = memchr::memrchr(b'\n', &bytes[lo..i]).map_or(lo, |n| lo + n + 1);
    let to = memchr::memchr(b'\n', &bytes[i..hi]).map_or(hi, |n| i + n);
    (from, to)
}

/// How far each side of a byte not UTF-8 its line is looked at.
const LINE_REACH: usize = 512;

/// `UTF-16LE` or `UTF-16BE` when `bytes` starts with its byte order mark
/// (`UTF-32LE` for FF FE 00 00).
pub(crate) fn utf16_bom(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0xFF, 0xFE, 0, 0, ..] => Some("UTF-32LE"),
        [0xFF, 0xFE, ..] => Some("UTF-16LE"),
        [0xFE, 0xFF, ..] => Some("UTF-16BE"),
        _ => None,
    }
}

/// An 8-bit encoding that text which is not UTF-8 may be in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Legacy {
    /// ISO 8859-1: bytes 0xA0 to 0xFF are letters and signs.
    Latin1,
    /// Windows-1252: Latin-1, and in 0x80 to 0x9F the typographic quotes,
    /// dashes, `€`, `…` and a few letters.
    Windows1252,
}

/// The characters of Windows-1252 at 0x80 to 0x9F (`None` where it has none).
const CP1252_HIGH: [Option<char>; 32] = [
    Some('€'),
    None,
    Some('‚'),
    Some('ƒ'),
    Some('„'),
    Some('…'),
    Some('†'),
    Some('‡'),
    Some('ˆ'),
    Some('‰'),
    Some('Š'),
    Some('‹'),
    Some('Œ'),
    None,
    Some('Ž'),
    None,
    None,
    Some('‘'),
    Some('’'),
    Some('“'),
    Some('”'),
    Some('•'),
    Some('–'),
    Some('—'),
    Some('˜'),
    Some('™'),
    Some('š'),
    Some('›'),
    Some('œ'),
    None,
    Some('ž'),
    Some('Ÿ'),
];

impl Legacy {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Legacy::Latin1 => "Latin-1 (ISO 8859-1)",
            Legacy::Windows1252 => "Windows-1252",
        }
    }

    fn short_name(self) -> &'static str {
        match self {
            Legacy::Latin1 => "Latin-1",
            Legacy::Windows1252 => "Windows-1252",
        }
    }

    /// The encoding's name for `iconv -f`.
    pub(crate) fn iconv(self) -> &'static str {
        match self {
            Legacy::Latin1 => "latin1",
            Legacy::Windows1252 => "windows-1252",
        }
    }

    /// The character `byte` stands for in this encoding, if one.
    pub(crate) fn char_of(self, byte: u8) -> Option<char> {
        match byte {
            0x80..=0x9F if self == Legacy::Windows1252 => CP1252_HIGH[usize::from(byte - 0x80)],
            0x80..=0x9F => None,
            _ => Some(char::from(byte)),
        }
    }
}

/// Whether `line`, which is not UTF-8, reads as Latin-1 or Windows-1252
/// text: no character in it is written in UTF-8 (a line that mixes the
/// two is no one file's encoding), and every byte above 0x7F is a
/// character of Windows-1252, a letter (`ç`, `é`) not next to a digit (a
/// lone byte inside a move or a number is no text). Latin-1 when none is in 0x80 to 0x9F (there Latin-1 has
/// only control codes), else Windows-1252.
pub(crate) fn legacy_encoding(line: &[u8]) -> Option<Legacy> {
    let mut legacy = None;
    let mut i = 0;
    let digit = |j: Option<usize>| j.and_then(|j| line.get(j)).is_some_and(u8::is_ascii_digit);
    while let Some(n) = line[i..].iter().position(|&b| b >= 0x80) {
        i += n;
        let b = line[i];
        if utf8_char_len(&line[i..]).is_some() {
            // A character in UTF-8: the line is not all in another encoding.
            return None;
        }
        match b {
            // Signs: ° « » ¿ ¡ × ÷ and the like.
            0xA0..=0xBF | 0xD7 | 0xF7 => {}
            // Letters, not among digits.
            0xC0..=0xFF if digit(i.checked_sub(1)) || digit(Some(i + 1)) => return None,
            0xC0..=0xFF => {}
            0x80..=0x9F if CP1252_HIGH[usize::from(b - 0x80)].is_some() => {
                legacy = Some(Legacy::Windows1252)
            }
            _ => return None,
        }
        legacy.get_or_insert(Legacy::Latin1);
        i += 1;
    }
    legacy
}

/// The length of the UTF-8 character that `bytes` starts with, if it
/// starts with a whole one of two bytes or more.
fn utf8_char_len(bytes: &[u8]) -> Option<usize> {
    let len = match bytes.first()? {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    std::str::from_utf8(bytes.get(..len)?).ok().map(|_| len)
}

#[cfg(test)]
mod encoding_tests {
    use super::*;

    #[test]
    fn latin1_text_is_named_with_the_fix() {
        let line = b"[White \"Fran\xE7ois\"]";
        assert_eq!(legacy_encoding(line), Some(Legacy::Latin1));
        let m = invalid_utf8(line, 12, 40);
        assert_eq!(m.kind, DiagnosticKind::Encoding);
        assert_eq!(
            m.text,
            "invalid UTF-8: byte 0xE7 at byte offset 40 of the input ('ç' in Latin-1): the \
             text seems to be Latin-1 (ISO 8859-1), not UTF-8: convert the file with \
             iconv -f latin1 -t utf-8"
        );
    }

    #[test]
    fn windows_1252_quotes_name_windows_1252() {
        let line = b"{ the \x93best\x94 move } 1. E7-E13 \xE9";
        assert_eq!(legacy_encoding(line), Some(Legacy::Windows1252));
        let m = invalid_utf8(line, 6, 6).text;
        assert!(m.contains("('“' in Windows-1252)"), "{m}");
        assert!(m.ends_with("iconv -f windows-1252 -t utf-8"), "{m}");
    }

    #[test]
    fn only_the_line_of_the_byte_counts() {
        // UTF-8 on another line does not make this one mixed.
        let text = "é on a line before\n"
            .as_bytes()
            .iter()
            .chain(b"Fran\xE7ois")
            .copied();
        let text: Vec<u8> = text.collect();
        let i = text.iter().position(|&b| b == 0xE7).unwrap();
        assert!(invalid_utf8(&text, i, i as u64).text.contains("Latin-1"));
    }

    #[test]
    fn a_line_mixing_utf8_and_other_bytes_is_not_named() {
        let line = "Müller et Fran".bytes().chain([0xE7]).collect::<Vec<u8>>();
        assert_eq!(legacy_encoding(&line), None);
        assert_eq!(
            invalid_utf8(&line, line.len() - 1, 9).text,
            "invalid UTF-8: byte 0xE7 at byte offset 9 of the input"
        );
    }

    #[test]
    fn bytes_no_8_bit_text_holds_are_not_named() {
        // 0x81 is no character of Windows-1252; a lone continuation byte
        // among 0x80-0x9F neither, when undefined.
        assert_eq!(legacy_encoding(b"a\x81b"), None);
        assert_eq!(legacy_encoding(b"a\x8Db"), None);
        // Plain ASCII is no other encoding either.
        assert_eq!(legacy_encoding(b"abc"), None);
        // A letter byte next to a digit is no word's letter.
        assert_eq!(legacy_encoding(b"1. E7-E13, E21\xFF-E15:"), None);
        assert_eq!(
            legacy_encoding(b"\xC9lise, \xE0 1 \xB0C"),
            Some(Legacy::Latin1)
        );
    }

    #[test]
    fn a_utf16_byte_order_mark_is_named() {
        let m = invalid_utf8(b"\xFF\xFE[\0V\0", 0, 0).text;
        assert!(m.ends_with("the input is UTF-16LE text (it starts with that byte order mark): convert it with iconv -f UTF-16LE -t utf-8"), "{m}");
        assert_eq!(utf16_bom(b"\xFE\xFF\0["), Some("UTF-16BE"));
        assert_eq!(utf16_bom(b"\xEF\xBB\xBF["), None);
    }
}
