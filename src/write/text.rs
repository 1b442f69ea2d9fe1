//! The bytes every layout writes alike: lines, the `Variant` tag, a tag
//! line, a move, a tag value's PGN escapes undone, a JSON string.

use crate::grammar::model::HalfMove;

/// Appends the lines of `text`, each line end written `\n` (a comment
/// written on CRLF lines is written on LF lines).
pub(crate) fn push_lines(out: &mut Vec<u8>, text: &[u8]) {
    let mut rest = text;
    while let Some(n) = memchr::memchr(b'\n', rest) {
        let mut line = &rest[..n];
        while let [l @ .., b'\r'] = line {
            line = l;
        }
        out.extend_from_slice(line);
        out.push(b'\n');
        rest = &rest[n + 1..];
    }
    out.extend_from_slice(rest);
}

/// The first line of every game written.
pub(crate) const VARIANT_LINE: &[u8] = b"[Variant \"C'escacs\"]\n";

#[inline]
pub(super) fn write_move(mv: &HalfMove, text: Option<&[u8]>, out: &mut Vec<u8>) {
    match text {
        Some(t) => out.extend_from_slice(t),
        None => mv.write_move(out),
    }
}

pub(super) fn write_tag(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.push(b'[');
    out.extend_from_slice(name);
    out.extend_from_slice(b" \"");
    out.extend_from_slice(value);
    out.extend_from_slice(b"\"]\n");
}

/// Undoes the PGN escapes `\"` and `\\` of a tag value, as ndjson's
/// `tags` and [`Visitor::tag`](crate::read::Visitor::tag)'s users want it.
///
/// ```
/// let v = ctlpgn_filter::unescape_pgn(br#"Escaped \"quotes\" and \\"#);
/// assert_eq!(&*v, br#"Escaped "quotes" and \"#);
/// ```
pub fn unescape_pgn(v: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if !v.contains(&b'\\') {
        return v.into();
    }
    let mut out = Vec::with_capacity(v.len());
    let mut it = v.iter();
    while let Some(&c) = it.next() {
        match (c, it.as_slice().first()) {
            (b'\\', Some(&n @ (b'"' | b'\\'))) => {
                out.push(n);
                it.next();
            }
            _ => out.push(c),
        }
    }
    out.into()
}

/// Appends `s` as a JSON string (UTF-8 passes through; controls are escaped).
pub(super) fn json_string(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    json_escaped(out, s);
    out.push(b'"');
}

/// Appends `s` escaped for a JSON string, a byte at a time: a string cut
/// anywhere is escaped as the whole is.
pub(super) fn json_escaped(out: &mut Vec<u8>, s: &[u8]) {
    for &c in s {
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\r' => out.extend_from_slice(b"\\r"),
            0..=0x1F | 0x7F => {
                out.extend_from_slice(format!("\\u{c:04x}").as_bytes());
            }
            _ => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_escape_quotes_backslashes_and_controls() {
        let mut v = Vec::new();
        json_string(&mut v, "a\"b\\c\u{1}é".as_bytes());
        assert_eq!(String::from_utf8(v).unwrap(), r#""a\"b\\c\u0001é""#);
    }

    /// The reader's `as_written` (a tag line it may copy) is exactly a line
    /// `write_tag` writes: one statement of the tag line as the writer
    /// writes it, tested against the other on spellings near it.
    #[test]
    fn a_tag_is_read_as_written_exactly_when_write_tag_writes_its_line() {
        use crate::read::{GameEnd, Reader, TagRead, Visitor};
        use crate::Context;
        struct Lines(Vec<(Vec<u8>, Option<Vec<u8>>)>);
        impl Visitor for Lines {
            type Output = ();
            fn tag(&mut self, t: &TagRead<'_>, _cx: &mut Context) {
                let mut line = Vec::new();
                write_tag(&mut line, t.tag.name.as_bytes(), t.tag.value.as_bytes());
                let read = t.as_written.map(|(a, b)| t.src.slice(a, b).to_vec());
                self.0.push((line, read));
            }
            fn end_game(&mut self, _end: &mut GameEnd<'_>, _cx: &mut Context) {}
        }
        for (input, copied) in [
            ("[Event \"x\"]\n", true),
            ("[Event \"Caf\u{e9}\"]\n", true),
            ("[Event \"a \\\"b\\\"\"]\n", true),
            ("[Event  \"x\"]\n", false),
            ("[Event \"x\"] \n", false),
            ("[Event \"x\"]\r\n", false),
            // Blanks before the `[` are between tokens, not the line's.
            (" [Event \"x\"]\n", true),
            ("[ Event \"x\"]\n", false),
            ("[Event \"Cafe\u{301}\"]\n", false),
            ("[Event \"x\"][Site \"y\"]\n", false),
        ] {
            let mut lines = Lines(Vec::new());
            let text = format!("{input}1. E7-E13 *\n");
            Reader::new(text.as_bytes()).read_game(&mut lines).unwrap();
            let (written, read) = &lines.0[0];
            assert_eq!(read.is_some(), copied, "{input:?}");
            if let Some(read) = read {
                assert_eq!(read, written, "{input:?}");
                assert_eq!(read.as_slice(), input.trim_start().as_bytes(), "{input:?}");
            }
        }
    }

    #[test]
    fn pgn_escapes_are_undone_for_json() {
        assert_eq!(&*unescape_pgn(br#"say \"hi\" \\o/"#), br#"say "hi" \o/"#);
    }
}
