//! The formats the writer writes in.

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
    /// One line per game, its values separated by tabs ([`Columns`](crate::Columns):
    /// `FilterBuilder::columns`; the header line is the caller's to
    /// write, once, [`Columns::header`](crate::Columns::header)).
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
