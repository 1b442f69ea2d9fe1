//! The writer of canonical CTL-PGN: what survives the passes, laid out one
//! way only. A game is held (in memory, past a bound in a temporary file:
//! [`held`]) and written whole, so that a game rejected half-way leaves
//! nothing behind.

mod ctl;
mod diagram;
mod held;
mod json;
mod split;
mod table;

use crate::diag::{Message, Pos};
use crate::grammar::model::{HalfMove, Outcome, Side};
use crate::pass::{Context, Tag, Variation};
use crate::pdtl::Pdtl;
use crate::read::Source;
use crate::verify::GameEndHook;
use ctl::CtlPgn;
pub use diagram::{Diagram, DiagramOptions, Marks, PieceStyle};
use json::Ndjson;
use split::Split;
pub use split::VARIATION_PATH_TAG;
pub use table::{Column, Columns, ColumnsError};
use table::{Listing, Table};

/// How many bytes of a game's output are held in memory by default
/// ([`crate::FilterBuilder::held_bytes`]).
pub(crate) const HELD_BYTES: usize = held::Held::BOUND;
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
///     "{\"file\":\"g.ctl-pgn\",\"line\":1,\"tags\":{\"Variant\":\"C'escacs\"},\
///      \"tag_list\":[[\"Variant\",\"C'escacs\"]],\"start\":null,\
///      \"moves\":[{\"number\":1,\"side\":\"white\",\"move\":\"E7-E13\",\"end\":true}],\"result\":\"*\"}\n"
/// );
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Format {
    /// Canonical CTL-PGN.
    #[default]
    CtlPgn,
    /// One JSON object per game (see the README for the schema).
    Ndjson,
    /// One line per game, its values separated by tabs ([`Columns`]:
    /// `FilterBuilder::columns`; the header line is the caller's to
    /// write, once, [`Columns::header`]).
    Tsv,
    /// One line per game, its values separated by commas and quoted
    /// (RFC 4180), as [`Format::Tsv`].
    Csv,
    /// Nothing: the games written are only counted, in the [`Report`]
    /// (`--count`).
    ///
    /// [`Report`]: crate::Report
    Count,
}

/// The writer: the game laid out in the format asked for.
#[derive(Debug)]
pub(crate) struct Writer {
    /// Input name, for ndjson's `file`.
    pub file: String,
    /// Input line where the game starts, for ndjson's `line`.
    line: u64,
    layout: Layout,
    /// `--split-variations`: the variations are recorded, not laid out.
    split: Option<Split>,
}

/// One of the layouts of a game.
#[derive(Debug)]
enum Layout {
    CtlPgn(CtlPgn),
    Ndjson(Ndjson),
    /// A listing, or a count.
    Table(Table),
}

/// Calls the same method of whichever layout is in use.
macro_rules! laid_out {
    ($self:expr, $w:ident => $call:expr) => {
        match $self {
            Layout::CtlPgn($w) => $call,
            Layout::Ndjson($w) => $call,
            Layout::Table($w) => $call,
        }
    };
}

impl Layout {
    #[inline]
    fn settle(&mut self, src: Source<'_>) {
        if let Layout::CtlPgn(w) = self {
            w.settle(src);
        }
    }

    fn begin(&mut self) {
        laid_out!(self, w => w.begin())
    }

    fn tag(&mut self, tag: &Tag<'_>) {
        laid_out!(self, w => w.tag(tag))
    }

    fn setup(&mut self, pdtl: &Pdtl) {
        laid_out!(self, w => w.setup(pdtl))
    }

    #[inline]
    fn half_move(&mut self, mv: &HalfMove, depth: u32, text: Option<&[u8]>) {
        laid_out!(self, w => w.half_move(mv, depth, text))
    }

    /// Main-line half-moves laid out from their moves.
    fn half_moves(&mut self, moves: &[HalfMove]) {
        for mv in moves {
            self.half_move(mv, 0, None);
        }
    }

    fn variation(&mut self, edge: Variation, depth: u32) {
        laid_out!(self, w => w.variation(edge, depth))
    }

    fn comment(&mut self, text: &[u8], depth: u32, after_result: bool) {
        laid_out!(self, w => w.comment(text, depth, after_result))
    }

    fn comment_open(&mut self, depth: u32, after_result: bool) {
        laid_out!(self, w => w.comment_open(depth, after_result))
    }

    fn comment_piece(&mut self, text: &[u8]) {
        laid_out!(self, w => w.comment_piece(text))
    }

    fn comment_close(&mut self) {
        laid_out!(self, w => w.comment_close())
    }

    /// Writes the game: `file` and `line` name it in ndjson, with `path`
    /// when it is a variation game.
    fn finish(
        &mut self,
        result: Outcome,
        file: &str,
        line: u64,
        path: &[u32],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        match self {
            Layout::CtlPgn(w) => w.finish(result, out),
            Layout::Ndjson(w) => w.finish(file, line, path, result, out),
            Layout::Table(w) => w.finish(result, file, line, out),
        }
    }
}

impl Writer {
    /// `hook`: [`Verify::on_game_end`]'s callback, called for each
    /// variation game replayed (`split_variations` with verify) of a game
    /// written ([`Writer::variation_ends`]).
    ///
    /// [`Verify::on_game_end`]: crate::Verify::on_game_end
    ///
    /// `held`: how many bytes of a game's output (of each of its parts)
    /// are held in memory before the rest goes to a temporary file.
    ///
    /// `typographic`: CTL-PGN's moves spelled as the notation prints them
    /// ([`crate::FilterBuilder::typographic`]); ndjson's stay canonical.
    pub fn new(
        format: Format,
        split_variations: bool,
        hook: Option<GameEndHook>,
        held: usize,
        typographic: bool,
    ) -> Writer {
        Writer {
            file: String::new(),
            line: 0,
            layout: match format {
                Format::CtlPgn => Layout::CtlPgn(CtlPgn::new(held, typographic)),
                Format::Ndjson => Layout::Ndjson(Ndjson::new(held)),
                Format::Tsv => Layout::Table(Table::new(Listing::Tsv, Columns::default())),
                Format::Csv => Layout::Table(Table::new(Listing::Csv, Columns::default())),
                Format::Count => Layout::Table(Table::new(Listing::Count, Columns::default())),
            },
            split: split_variations.then(|| Split::new(hook)),
        }
    }

    /// The columns of a listing ([`Format::Tsv`], [`Format::Csv`]).
    pub fn set_columns(&mut self, columns: Columns) {
        if let Layout::Table(t) = &mut self.layout {
            t.set_columns(columns);
        }
    }

    pub fn begin(&mut self, line: u64) {
        self.line = line;
        self.layout.begin();
        if let Some(s) = &mut self.split {
            s.begin();
        }
    }

    /// A tag pair; the `Variant` tag is the writer's own, written first.
    /// `as_written`: where its line is in `src`, when it reads as written.
    pub fn tag(&mut self, tag: &Tag<'_>, as_written: Option<(u64, u64)>, src: Source<'_>) {
        if tag.name == "Variant" {
            return;
        }
        match (&mut self.layout, as_written) {
            (Layout::CtlPgn(w), Some(line)) if self.split.is_none() => {
                w.tag_as_written(tag, line, src)
            }
            (layout, _) => {
                layout.settle(src);
                layout.tag(tag);
            }
        }
        if let Some(s) = &mut self.split {
            s.tag(tag);
        }
    }

    /// What it holds of `src` not yet copied, copied: before the reader
    /// lets go of it, or anything else is written.
    #[inline]
    pub fn settle(&mut self, src: Source<'_>) {
        self.layout.settle(src);
    }

    /// The game's final position, as a replay left it: ndjson's
    /// `final_pdtl` (CTL-PGN has no place for it).
    pub fn final_position(&mut self, position: &impl std::fmt::Display) {
        if let Layout::Ndjson(w) = &mut self.layout {
            w.final_position(position);
        }
    }

    /// `--fix-result`: the `Result` tag, if written, says `result`.
    pub fn fix_result_tag(&mut self, result: Outcome) {
        laid_out!(&mut self.layout, w => w.fix_result_tag(result))
    }

    pub fn setup(&mut self, pdtl: &Pdtl, src: Source<'_>) {
        self.layout.settle(src);
        self.layout.setup(pdtl);
        if let Some(s) = &mut self.split {
            s.setup(pdtl);
        }
    }

    /// A half-move at variation `depth` (0: the main line); `text` is its
    /// move as [`HalfMove::write_move`] writes it, when the reader has it.
    #[inline]
    pub fn half_move(&mut self, mv: &HalfMove, depth: u32, text: Option<&[u8]>, src: Source<'_>) {
        self.layout.settle(src);
        if let Some(s) = &mut self.split {
            s.half_move(mv);
            if depth > 0 {
                return;
            }
        }
        self.layout.half_move(mv, depth, text)
    }

    /// A main-line half-move whose text (`text` in `src`) is written as
    /// read, with nothing after it but the end marker: copied, when the
    /// layout copies the input as read around it. Returns whether it was.
    /// With `ascii`, its separator is written in ASCII.
    #[inline]
    pub fn move_as_read(
        &mut self,
        mv: &HalfMove,
        text: (u64, u64),
        ascii: bool,
        src: Source<'_>,
    ) -> bool {
        match &mut self.layout {
            Layout::CtlPgn(w) if self.split.is_none() => w.move_as_read(mv, text, ascii, src),
            // A listing counts it, and takes nothing else of it.
            Layout::Table(t) if self.split.is_none() => t.ply_as_read(),
            _ => false,
        }
    }

    /// A variation opens or closes; `depth` is its own (1: on the main line).
    pub fn variation(&mut self, edge: Variation, depth: u32) {
        match &mut self.split {
            Some(s) => s.variation(edge),
            None => self.layout.variation(edge, depth),
        }
    }

    /// A comment's text, at variation `depth`, or after the result.
    pub fn comment(&mut self, text: &[u8], depth: u32, after_result: bool) {
        match &mut self.split {
            Some(s) if depth > 0 => s.comment(text),
            _ => self.layout.comment(text, depth, after_result),
        }
    }

    /// `--split-variations`: an error read inside the innermost variation
    /// open, kept to reject its game only ([`Split::fault`]); handed back
    /// when no variation is open, to reject the game.
    pub fn variation_fault(&mut self, pos: Pos, message: Message) -> Result<(), Message> {
        match &mut self.split {
            Some(s) => s.fault(pos, message),
            None => Err(message),
        }
    }

    /// `--split-variations`: a word inside a variation, at `pos`, where
    /// half-move `number` of `side` is due, is no half-move.
    pub fn unread_half_move(&mut self, number: u32, side: Side, pos: Pos) {
        if let Some(s) = &mut self.split {
            s.unread_half_move(number, side, pos);
        }
    }

    /// Does it take a comment at `depth` in pieces, as read
    /// ([`Writer::comment_open`])? Not one that `--split-variations`
    /// records for a variation game.
    pub fn takes_comment_pieces(&self, depth: u32) -> bool {
        self.split.is_none() || depth == 0
    }

    /// A comment at variation `depth`, or after the result, opens: its
    /// text comes in pieces, each as [`Writer::comment`] would take the
    /// whole ([`Writer::comment_piece`]), then [`Writer::comment_close`].
    /// The same bytes are written, but no more of it is held in memory
    /// than a piece and the writer's bound.
    pub fn comment_open(&mut self, depth: u32, after_result: bool) {
        debug_assert!(self.takes_comment_pieces(depth));
        self.layout.comment_open(depth, after_result);
    }

    pub fn comment_piece(&mut self, text: &[u8]) {
        self.layout.comment_piece(text);
    }

    pub fn comment_close(&mut self) {
        self.layout.comment_close();
    }

    /// `--split-variations`, at the game's end: plans its variation games
    /// (replaying each with `verify`, its end kept for the hook), reporting
    /// to `cx`; returns how many there are, and how many failed to replay.
    pub fn plan_variations(&mut self, verify: bool, cx: &mut Context) -> (u64, u64) {
        match &mut self.split {
            Some(s) => {
                s.plan(verify, cx);
                s.counts()
            }
            None => (0, 0),
        }
    }

    /// The game is to be written: hands the end of each variation game
    /// replayed to the hook, in the order they are written; `cx` is the
    /// game's.
    pub fn variation_ends(&self, cx: &Context) {
        if let Some(s) = &self.split {
            s.hand_ends(cx);
        }
    }

    /// The paths of the variation games that failed to replay.
    pub fn failed_variations(&self) -> String {
        self.split
            .as_ref()
            .map(Split::failed_paths)
            .unwrap_or_default()
    }

    /// Writes the whole game to `out`, then its variation games.
    pub fn finish(&mut self, result: Outcome, out: &mut dyn Write) -> io::Result<()> {
        self.layout
            .finish(result, &self.file, self.line, &[], out)?;
        if let Some(s) = &self.split {
            s.write_games(&mut self.layout, &self.file, self.line, out)?;
        }
        Ok(())
    }
}

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
fn write_move(mv: &HalfMove, text: Option<&[u8]>, out: &mut Vec<u8>) {
    match text {
        Some(t) => out.extend_from_slice(t),
        None => mv.write_move(out),
    }
}

fn write_tag(out: &mut Vec<u8>, name: &[u8], value: &[u8]) {
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
fn json_string(out: &mut Vec<u8>, s: &[u8]) {
    out.push(b'"');
    json_escaped(out, s);
    out.push(b'"');
}

/// Appends `s` escaped for a JSON string, a byte at a time: a string cut
/// anywhere is escaped as the whole is.
fn json_escaped(out: &mut Vec<u8>, s: &[u8]) {
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
