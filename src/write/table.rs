//! A listing, one line a game (`--format tsv`, `--format csv`), and a
//! count (`--count`): what the keeper of a corpus asks first. The values
//! are those ndjson gives (`jq -r '[...] | @tsv'` and `@csv` write the same
//! lines): tags with their PGN escapes undone, the result written, the
//! main line's half-moves written, the input's name and the game's line.
//!
//! The listing takes each tag the columns show as it comes, and counts
//! the main line's half-moves as read (`Table::ply_as_read`).

use super::format::Format;
use super::text::{unescape_pgn, VARIANT_LINE};
use crate::grammar::hex::push_decimal;
use crate::grammar::model::{HalfMove, Outcome};
use crate::pass::Tag;
use std::fmt;
use std::io::{self, Write};

/// A column of a listing: a tag's value, or what the filter works out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    /// `file`: the input's name (`<stdin>` for standard input), as ndjson's `file`.
    File,
    /// `line`: the line the game starts on, as ndjson's `line`.
    Line,
    /// `plies`: the main line's half-moves, as written (ndjson's `moves`, counted).
    Plies,
    /// `result`: the result the game is written with (its result line,
    /// ndjson's `result`), which its `Result` tag may contradict or lack.
    Result,
    /// Any other name: that tag's first value, its PGN escapes undone
    /// (ndjson's `tags`), empty when the game has none.
    Tag(String),
}

/// The columns of a listing, in order: `White,Black,Date,result,plies,file,line`
/// by default.
///
/// ```
/// use ctlpgn_filter::{Column, Columns, Format};
/// let c = Columns::parse("Id,result,plies").unwrap();
/// assert_eq!(c.columns(), [Column::Tag("Id".into()), Column::Result, Column::Plies]);
/// assert_eq!(c.header(Format::Tsv), b"Id\tresult\tplies\n");
/// assert_eq!(c.header(Format::Csv), b"\"Id\",\"result\",\"plies\"\n");
/// assert_eq!(Columns::default().to_string(), "White,Black,Date,result,plies,file,line");
/// assert!(Columns::parse("White,,Date").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns(Vec<Column>);

/// What is wrong with a list of columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnsError {
    /// A name between two commas is empty (or the list is).
    Empty,
    /// A name that is no tag name, nor one of the computed columns.
    NotAName(String),
}

impl fmt::Display for ColumnsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ColumnsError::Empty => f.write_str(
                "a column name is empty: write names between commas, as in White,Black,result",
            ),
            ColumnsError::NotAName(name) => write!(
                f,
                "{name:?} is no column: a tag name (letters, digits, _ and -, as White or \
                 Date) or one of file, line, plies, result"
            ),
        }
    }
}

impl std::error::Error for ColumnsError {}

impl Default for Columns {
    fn default() -> Columns {
        Columns::parse("White,Black,Date,result,plies,file,line").expect("the default's names")
    }
}

impl fmt::Display for Columns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(c.name())?;
        }
        Ok(())
    }
}

impl Column {
    /// Its name in a list of columns and in the header.
    pub fn name(&self) -> &str {
        match self {
            Column::File => "file",
            Column::Line => "line",
            Column::Plies => "plies",
            Column::Result => "result",
            Column::Tag(name) => name,
        }
    }
}

impl Columns {
    /// Names separated by commas: `file`, `line`, `plies`, `result` (in
    /// lower case), or a tag's name (case counts, as in PGN: `Result` is
    /// the tag).
    pub fn parse(list: &str) -> Result<Columns, ColumnsError> {
        list.split(',')
            .map(|name| {
                let name = name.trim();
                Ok(match name {
                    "" => return Err(ColumnsError::Empty),
                    "file" => Column::File,
                    "line" => Column::Line,
                    "plies" => Column::Plies,
                    "result" => Column::Result,
                    _ if name
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') =>
                    {
                        Column::Tag(name.to_string())
                    }
                    _ => return Err(ColumnsError::NotAName(name.to_string())),
                })
            })
            .collect::<Result<_, _>>()
            .map(Columns)
    }

    /// The columns, in order.
    pub fn columns(&self) -> &[Column] {
        &self.0
    }

    /// The header line of a listing in `format` (`Format::Tsv` or
    /// `Format::Csv`): the columns' names, escaped as values are.
    pub fn header(&self, format: Format) -> Vec<u8> {
        let mut line = Vec::new();
        let sep = if format == Format::Csv { b',' } else { b'\t' };
        for (i, c) in self.0.iter().enumerate() {
            if i > 0 {
                line.push(sep);
            }
            push_value(&mut line, format == Format::Csv, c.name().as_bytes());
        }
        line.push(b'\n');
        line
    }
}

/// What the listing writes of each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Listing {
    Tsv,
    Csv,
    /// Nothing: the games are counted (`--count`).
    Count,
}

/// The listing of the game being written; its buffers are reused.
#[derive(Debug)]
pub(super) struct Table {
    listing: Listing,
    fields: Vec<Field>,
    /// The tags the columns show, each once.
    tags: Vec<TagColumn>,
    /// Tags not yet given a value in this game: none left, the game's
    /// other tag lines are not looked at.
    unset: usize,
    /// The input's name, and its field as written: one input's games
    /// share it.
    file: (String, Vec<u8>),
    /// Each tag's value in this game, in step with `tags`: buffers kept
    /// from game to game.
    values: Vec<Value>,
    /// Half-moves of the main line, counted when a column shows them.
    plies: Option<u64>,
    row: Vec<u8>,
}

/// A tag a column shows, by its name.
#[derive(Debug)]
struct TagColumn {
    name: Vec<u8>,
}

impl TagColumn {
    fn new(name: &str) -> TagColumn {
        TagColumn {
            name: name.as_bytes().to_vec(),
        }
    }
}

/// What a column writes, told apart once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    File,
    Line,
    Plies,
    Result,
    /// The `Variant` tag: the writer's own, which the tags never bring.
    Variant,
    /// A tag, by its place in [`Table::tags`].
    Tag(usize),
}

/// A tag's value in this game.
#[derive(Clone, Debug, Default)]
struct Value {
    set: bool,
    /// No control character, `\` or `"` (so no escape to undo, nor one
    /// to write in TSV, nor a `"` to double in CSV): written as it is.
    plain: bool,
    text: Vec<u8>,
}

impl Table {
    pub fn new(listing: Listing, columns: Columns) -> Table {
        let mut t = Table {
            listing,
            fields: Vec::new(),
            tags: Vec::new(),
            unset: 0,
            file: (String::new(), Vec::new()),
            values: Vec::new(),
            plies: None,
            row: Vec::new(),
        };
        if listing != Listing::Count {
            t.set_columns(columns);
        }
        t
    }

    pub fn set_columns(&mut self, columns: Columns) {
        self.tags.clear();
        let mut tag = |name: &str| match self.tags.iter().position(|t| t.name == name.as_bytes()) {
            Some(t) => t,
            None => {
                self.tags.push(TagColumn::new(name));
                self.tags.len() - 1
            }
        };
        self.fields = (columns.0.iter())
            .map(|c| match c {
                Column::File => Field::File,
                Column::Line => Field::Line,
                Column::Plies => Field::Plies,
                Column::Result => Field::Result,
                Column::Tag(name) if name == "Variant" => Field::Variant,
                Column::Tag(name) => Field::Tag(tag(name)),
            })
            .collect();
        self.values = vec![Value::default(); self.tags.len()];
        self.plies = columns.0.contains(&Column::Plies).then_some(0);
    }

    pub fn begin(&mut self) {
        for v in &mut self.values {
            v.set = false;
        }
        self.unset = self.tags.len();
        if let Some(p) = &mut self.plies {
            *p = 0;
        }
    }

    /// A tag's first value goes to its columns.
    pub fn tag(&mut self, tag: &Tag<'_>) {
        // Every column has its value: the game's other tags change nothing.
        if self.unset == 0 {
            return;
        }
        let name = tag.name.as_bytes();
        // The first byte first: most tags are no column, and most differ
        // from a column's name there (no call to memcmp).
        let column = self
            .tags
            .iter()
            .position(|c| c.name.first() == name.first() && c.name == name);
        if let Some(t) = column {
            self.store(t, tag.value.as_bytes());
        }
    }

    /// `value`, escapes as written, is tag `t`'s, unless it has one.
    fn store(&mut self, t: usize, value: &[u8]) {
        let v = &mut self.values[t];
        if v.set {
            return;
        }
        v.set = true;
        self.unset -= 1;
        v.plain = is_plain(value);
        v.text.clear();
        if v.plain {
            v.text.extend_from_slice(value);
        } else {
            v.text.extend_from_slice(&unescape_pgn(value));
        }
    }

    /// `--fix-result`: the `Result` tag, if the game has one, says `result`.
    pub fn fix_result_tag(&mut self, result: Outcome) {
        for (t, v) in self.tags.iter().zip(&mut self.values) {
            if t.name == b"Result" && v.set {
                v.text.clear();
                v.text.extend_from_slice(result.as_str().as_bytes());
                v.plain = true;
            }
        }
    }

    pub fn setup(&mut self, _pdtl: &crate::pdtl::Pdtl) {}

    #[inline]
    pub fn half_move(&mut self, _mv: &HalfMove, depth: u32, _text: Option<&[u8]>) {
        if let (Some(p), 0) = (&mut self.plies, depth) {
            *p += 1;
        }
    }

    /// A main-line half-move as read: counted, when a column shows them.
    #[inline]
    pub fn ply_as_read(&mut self) -> bool {
        if let Some(p) = &mut self.plies {
            *p += 1;
        }
        true
    }

    pub fn variation(&mut self, _edge: crate::pass::Variation, _depth: u32) {}
    pub fn comment(&mut self, _text: &[u8], _depth: u32, _after_result: bool) {}
    pub fn comment_open(&mut self, _depth: u32, _after_result: bool) {}
    pub fn comment_piece(&mut self, _text: &[u8]) {}
    pub fn comment_close(&mut self) {}

    /// Writes the game's line: `file` and `line` name it.
    pub fn finish(
        &mut self,
        result: Outcome,
        file: &str,
        line: u64,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        if self.listing == Listing::Count {
            return Ok(());
        }
        let csv = self.listing == Listing::Csv;
        if self.file.0 != file {
            self.file.0 = file.to_string();
            self.file.1.clear();
            push_value(&mut self.file.1, csv, file.as_bytes());
        }
        let row = &mut self.row;
        row.clear();
        for (i, f) in self.fields.iter().enumerate() {
            if i > 0 {
                row.push(if csv { b',' } else { b'\t' });
            }
            match f {
                Field::File => row.extend_from_slice(&self.file.1),
                Field::Line => push_decimal(row, line),
                Field::Plies => push_decimal(row, self.plies.unwrap_or(0)),
                Field::Result => push_plain(row, csv, result.as_str().as_bytes()),
                Field::Variant => push_plain(row, csv, VARIANT),
                Field::Tag(t) => match &self.values[*t] {
                    v if !v.set => push_plain(row, csv, b""),
                    v if v.plain => push_plain(row, csv, &v.text),
                    v => push_value(row, csv, &v.text),
                },
            }
        }
        row.push(b'\n');
        out.write_all(row)
    }
}

/// Does `value` hold no control character, `\` or `"`? Eight bytes at a
/// time: a tag value is short, and looked at once a game and column.
fn is_plain(value: &[u8]) -> bool {
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGHS: u64 = ONES * 0x80;
    // Has `w` a byte below `n` (`n` at most 0x80)? Exact as to whether.
    let below = |w: u64, n: u8| w.wrapping_sub(ONES * u64::from(n)) & !w & HIGHS;
    let special =
        |w: u64| below(w, 0x20) | below(w ^ (ONES * 0x5C), 1) | below(w ^ (ONES * 0x22), 1);
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    if value.len() < 8 {
        // After letters that are plain.
        let mut rest = [b'A'; 8];
        rest[..value.len()].copy_from_slice(value);
        return special(u64::from_le_bytes(rest)) == 0;
    }
    let mut chunks = value.chunks_exact(8);
    let mut found = 0;
    for c in &mut chunks {
        found |= special(word(c));
    }
    // The last eight bytes, over some looked at already.
    found |= special(word(&value[value.len() - 8..]));
    found == 0
}

/// The value of the `Variant` tag every game is written with: inside the
/// quotes of `[Variant "C'escacs"]`.
const VARIANT: &[u8] = VARIANT_LINE.split_at(10).1.split_at(8).0;

/// Appends `value`, which holds no control character, `\` or `"`, as a
/// field: in CSV in quotes, in TSV as it is ([`push_value`]).
#[inline]
fn push_plain(row: &mut Vec<u8>, csv: bool, value: &[u8]) {
    if csv {
        row.push(b'"');
        row.extend_from_slice(value);
        row.push(b'"');
    } else {
        row.extend_from_slice(value);
    }
}

/// Appends `value` as a field: in CSV quoted, `"` doubled (RFC 4180, and
/// what jq's `@csv` writes for a string); in TSV with `\`, tab, line feed
/// and carriage return written `\\`, `\t`, `\n`, `\r` (jq's `@tsv`).
fn push_value(row: &mut Vec<u8>, csv: bool, value: &[u8]) {
    if csv && memchr::memchr(b'"', value).is_none() {
        row.push(b'"');
        row.extend_from_slice(value);
        row.push(b'"');
        return;
    }
    // What TSV escapes is `\` and three controls: a value with neither a
    // control nor `\`, nearly any, is copied.
    if !csv && !value.iter().any(|&b| b < 0x20 || b == b'\\') {
        row.extend_from_slice(value);
        return;
    }
    if csv {
        row.push(b'"');
        for &b in value {
            if b == b'"' {
                row.push(b'"');
            }
            row.push(b);
        }
        row.push(b'"');
        return;
    }
    for &b in value {
        match b {
            b'\\' => row.extend_from_slice(b"\\\\"),
            b'\t' => row.extend_from_slice(b"\\t"),
            b'\n' => row.extend_from_slice(b"\\n"),
            b'\r' => row.extend_from_slice(b"\\r"),
            _ => row.push(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_value_has_no_control_backslash_or_quote_wherever_it_is() {
        let plain = b"Sasal, Cesc (Barcelona) \xc3\xa9 ~ 2022-08-14";
        for n in 0..=plain.len() {
            assert!(is_plain(&plain[..n]), "{n}");
        }
        for special in [b'\t', b'\n', b'\r', 0, 0x1F, b'\\', b'"'] {
            for at in 0..20 {
                let mut v = plain[..20].to_vec();
                v[at] = special;
                assert!(!is_plain(&v), "{special:#x} at {at}");
            }
        }
        assert!(is_plain(&[0x7F, 0x80, 0xFF, b' ', b'#', b'[', b']', b'!']));
    }

    #[test]
    fn values_are_escaped_as_jq_escapes_them() {
        let mut row = Vec::new();
        push_value(&mut row, false, b"a\tb\nc\\d\re");
        assert_eq!(row, b"a\\tb\\nc\\\\d\\re");
        row.clear();
        push_value(&mut row, true, b"say \"hi\", then\ngo");
        assert_eq!(row, b"\"say \"\"hi\"\", then\ngo\"");
    }

    #[test]
    fn columns_are_tags_but_for_four_names_in_lower_case() {
        let c = Columns::parse("file, line ,plies,result,Result,Id").unwrap();
        assert_eq!(
            c.columns(),
            [
                Column::File,
                Column::Line,
                Column::Plies,
                Column::Result,
                Column::Tag("Result".into()),
                Column::Tag("Id".into())
            ]
        );
        assert_eq!(Columns::parse(""), Err(ColumnsError::Empty));
        assert_eq!(
            Columns::parse("White,Bl ack"),
            Err(ColumnsError::NotAName("Bl ack".into()))
        );
    }
}
