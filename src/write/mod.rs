//! The writer of canonical CTL-PGN: what survives the passes, laid out one
//! way only. A game is built in memory and written whole, so that a game
//! rejected half-way leaves nothing behind.

use crate::grammar::hex::push_decimal;
use crate::grammar::model::{HalfMove, Outcome, Side};
use crate::passes::{Tag, Variation};
use crate::pdtl::Pdtl;
use std::io::{self, Write};

/// What the writer produces.
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, Format};
/// let mut filter = FilterBuilder::new().format(Format::Ndjson).build();
/// filter.set_file_name("g.ctl-pgn");
/// let (out, _, _) = filter.filter_bytes(b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n");
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     "{\"file\":\"g.ctl-pgn\",\"line\":1,\"tags\":[[\"Variant\",\"C'escacs\"]],\"start\":null,\
///      \"moves\":[{\"number\":1,\"side\":\"white\",\"move\":\"E7-E13\",\"end\":true}],\"result\":\"*\"}\n"
/// );
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Canonical CTL-PGN.
    #[default]
    CtlPgn,
    /// One JSON object per game (see the README for the schema).
    Ndjson,
}

/// Buffers of the game being written; reused from game to game.
#[derive(Debug, Default)]
pub(crate) struct Writer {
    pub format: Format,
    /// Input name, for ndjson's `file`.
    pub file: String,
    /// Input line where the game starts, for ndjson's `line`.
    line: u64,
    /// ndjson: the canonical PDTL, if any.
    start: Vec<u8>,
    /// Tag lines, after the `Variant` line, which is always written first
    /// (ndjson: the tag pairs but `Variant`).
    head: Vec<u8>,
    /// Movetext lines, and kept comments and variations between them.
    body: Vec<u8>,
    /// Kept comments after the result.
    tail: Vec<u8>,
    /// A main-line half-move was written.
    moved: bool,
    /// Number of the move line still open (White moved, Black not yet).
    open_line: Option<u32>,
    /// Text of the variation being kept, from its outermost `(`.
    variation: Vec<u8>,
    /// Inside a kept variation: the last item was a White half-move.
    after_white: bool,
    /// Inside a kept variation: a move number waits for its half-move.
    number: Option<u32>,
}

impl Writer {
    pub fn new(format: Format) -> Writer {
        Writer {
            format,
            ..Writer::default()
        }
    }

    pub fn begin(&mut self, line: u64) {
        self.line = line;
        self.start.clear();
        self.head.clear();
        if self.format == Format::CtlPgn {
            self.head.extend_from_slice(VARIANT_LINE);
        }
        self.body.clear();
        self.tail.clear();
        self.variation.clear();
        self.open_line = None;
        self.moved = false;
        self.after_white = false;
        self.number = None;
    }

    pub fn tag(&mut self, tag: &Tag<'_>) {
        if tag.name == "Variant" {
            return;
        }
        if self.format == Format::Ndjson {
            self.head.extend_from_slice(b",[");
            json_string(&mut self.head, tag.name.as_bytes());
            self.head.push(b',');
            json_string(&mut self.head, &unescape_pgn(tag.value.as_bytes()));
            self.head.push(b']');
            return;
        }
        write_tag(&mut self.head, tag.name.as_bytes(), tag.value.as_bytes());
    }

    pub fn setup(&mut self, pdtl: &Pdtl) {
        if self.format == Format::Ndjson {
            pdtl.write_to(&mut self.start);
            return;
        }
        self.head.extend_from_slice(b"[PDTL \"");
        pdtl.write_to(&mut self.head);
        self.head.extend_from_slice(b"\"]\n");
    }

    fn close_line(&mut self) {
        if self.open_line.take().is_some() {
            self.body.push(b'\n');
        }
    }

    /// Lays out a half-move; `text` is its move as
    /// [`HalfMove::write_move`] writes it, when the reader has it already.
    #[inline]
    pub fn half_move(&mut self, mv: &HalfMove, depth: u32, text: Option<&[u8]>) {
        if self.format == Format::Ndjson {
            if depth == 0 {
                self.json_move(mv, text);
            }
            return;
        }
        if depth > 0 {
            return self.variation_move(mv, text);
        }
        self.main_line(mv, text);
    }

    /// Lays out a main-line half-move: `N. WHITE, BLACK` a line, `N. ..., `
    /// for a Black move that opens one.
    fn main_line(&mut self, mv: &HalfMove, text: Option<&[u8]>) {
        // `N?` marks a game's first move line only: the reader accepts it nowhere else.
        let mark = if mv.unknown_number && !self.moved {
            b'?'
        } else {
            b'.'
        };
        self.moved = true;
        match mv.side {
            Side::White => {
                self.close_line();
                push_decimal(&mut self.body, u64::from(mv.number));
                self.body.extend_from_slice(&[mark, b' ']);
                self.open_line = Some(mv.number);
            }
            Side::Black if self.open_line == Some(mv.number) => {
                self.body.extend_from_slice(b", ");
            }
            Side::Black => {
                self.close_line();
                push_decimal(&mut self.body, u64::from(mv.number));
                self.body.extend_from_slice(&[mark, b' ']);
                self.body.extend_from_slice(b"..., ");
            }
        }
        write_move(mv, text, &mut self.body);
        mv.write_annotations(&mut self.body);
        mv.write_indicators(&mut self.body);
        if mv.side == Side::Black {
            self.open_line = Some(0);
            self.close_line();
        }
    }

    fn json_move(&mut self, mv: &HalfMove, text: Option<&[u8]>) {
        let b = &mut self.body;
        if !b.is_empty() {
            b.push(b',');
        }
        b.extend_from_slice(b"{\"number\":");
        push_decimal(b, u64::from(mv.number));
        b.extend_from_slice(match mv.side {
            Side::White => b",\"side\":\"white\",\"move\":\"",
            Side::Black => b",\"side\":\"black\",\"move\":\"",
        });
        // Move text is ASCII letters, digits and signs, or ∞: nothing to escape.
        write_move(mv, text, b);
        b.push(b'"');
        if mv.draw_offer {
            b.extend_from_slice(b",\"draw_offer\":true");
        }
        if mv.end {
            b.extend_from_slice(b",\"end\":true");
        }
        b.push(b'}');
    }

    fn variation_move(&mut self, mv: &HalfMove, text: Option<&[u8]>) {
        let v = &mut self.variation;
        if let Some(n) = self.number.take() {
            space(v);
            push_decimal(v, u64::from(n));
            v.extend_from_slice(if mv.unknown_number { b"? " } else { b". " });
            if mv.side == Side::Black {
                v.extend_from_slice(b"..., ");
            }
        } else if mv.side == Side::Black && self.after_white {
            v.extend_from_slice(b", ");
        } else {
            space(v);
        }
        write_move(mv, text, v);
        mv.write_annotations(v);
        mv.write_indicators(v);
        self.after_white = mv.side == Side::White;
    }

    pub fn variation_number(&mut self, number: u32) {
        if self.format == Format::Ndjson {
            return;
        }
        self.number = Some(number);
    }

    pub fn variation(&mut self, edge: Variation, depth: u32) {
        if self.format == Format::Ndjson {
            return;
        }
        match edge {
            Variation::Open { label } => {
                if depth == 1 {
                    self.close_line();
                } else {
                    space(&mut self.variation);
                }
                self.variation.push(b'(');
                if let Some(l) = label {
                    self.variation.extend_from_slice(b"$[");
                    push_decimal(&mut self.variation, u64::from(l));
                    self.variation.extend_from_slice(b"]");
                }
            }
            Variation::Close => {
                self.variation.push(b')');
                if depth == 1 {
                    self.body.append(&mut self.variation);
                    self.body.push(b'\n');
                }
            }
        }
        self.after_white = false;
        self.number = None;
    }

    pub fn comment(&mut self, text: &[u8], depth: u32, after_result: bool) {
        if self.format == Format::Ndjson {
            return;
        }
        if depth > 0 {
            space(&mut self.variation);
            self.variation.push(b'{');
            self.variation.extend_from_slice(text);
            self.variation.push(b'}');
            return;
        }
        self.close_line();
        let out = if after_result {
            &mut self.tail
        } else {
            &mut self.body
        };
        out.push(b'{');
        out.extend_from_slice(text);
        out.extend_from_slice(b"}\n");
    }

    /// Writes the whole game to `out`.
    pub fn finish(&mut self, result: Outcome, out: &mut dyn Write) -> io::Result<()> {
        if self.format == Format::Ndjson {
            let mut head = Vec::with_capacity(64);
            head.extend_from_slice(b"{\"file\":");
            json_string(&mut head, self.file.as_bytes());
            head.extend_from_slice(b",\"line\":");
            push_decimal(&mut head, self.line);
            head.extend_from_slice(b",\"tags\":[[\"Variant\",\"C'escacs\"]");
            out.write_all(&head)?;
            out.write_all(&self.head)?;
            out.write_all(b"],\"start\":")?;
            if self.start.is_empty() {
                out.write_all(b"null")?;
            } else {
                out.write_all(b"\"")?;
                out.write_all(&self.start)?;
                out.write_all(b"\"")?;
            }
            out.write_all(b",\"moves\":[")?;
            out.write_all(&self.body)?;
            out.write_all(b"],\"result\":\"")?;
            out.write_all(result.as_str().as_bytes())?;
            return out.write_all(b"\"}\n");
        }
        self.close_line();
        // Two writes a game: the buffers are the game's, and begin() clears them.
        self.head.push(b'\n');
        out.write_all(&self.head)?;
        self.body.extend_from_slice(result.as_str().as_bytes());
        self.body.push(b'\n');
        self.body.extend_from_slice(&self.tail);
        self.body.push(b'\n');
        out.write_all(&self.body)
    }
}

/// The first line of every game written.
pub(crate) const VARIANT_LINE: &[u8] = b"[Variant \"C'escacs\"]\n";

#[inline]
fn write_move(mv: &HalfMove, text: Option<&[u8]>, out: &mut Vec<u8>) {
    match text {
        Some(t) => out.extend_from_slice(t),
        None => mv.write_move(out),
    }
}

fn space(v: &mut Vec<u8>) {
    if !matches!(v.last(), None | Some(b'(') | Some(b' ')) {
        v.push(b' ');
    }
}

fn write_tag(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    out.push(b'[');
    out.extend_from_slice(name);
    out.extend_from_slice(b" \"");
    out.extend_from_slice(value);
    out.extend_from_slice(b"\"]\n");
}

/// Undoes the PGN escapes `\"` and `\\` of a tag value.
fn unescape_pgn(v: &[u8]) -> std::borrow::Cow<'_, [u8]> {
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
fn json_string(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
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
    out.push(b'"');
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

    #[test]
    fn pgn_escapes_are_undone_for_json() {
        assert_eq!(&*unescape_pgn(br#"say \"hi\" \\o/"#), br#"say "hi" \o/"#);
    }
}
