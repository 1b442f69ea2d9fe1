//! The filtering options as plain data, and the one mapping of them to a
//! filter ([`Options::builder`]). The command line fills them from its
//! arguments, the Python package from its keywords ([`Options::set`],
//! [`Options::flag`]); each value is read by the functions of this module,
//! which are the command line's value parsers too, so that a bad value
//! gets the same words from both.
//!
//! ```
//! use ctlpgn_filter::Options;
//! let mut o = Options::default();
//! o.set("player", "sasal").unwrap();
//! o.flag("dedup", true).unwrap();
//! let game = "[Variant \"C'escacs\"]\n[White \"Sasal, Cesc\"]\n1. E7-E13:\n*\n";
//! let (out, _, report) = o.builder().build().filter_bytes(game.repeat(2).as_bytes());
//! assert_eq!((report.games_written, report.left_out.duplicates), (1, 1));
//! assert_eq!(
//!     o.set("tag", "Event").unwrap_err().to_string(),
//!     "invalid value 'Event' for '--tag <NAME=PATTERN>': \"Event\": write NAME=PATTERN, \
//!      as in Event=open (a word's start, case aside) or Event=*Open* (a glob)"
//! );
//! ```

use crate::filter::{FilterBuilder, PASS_NAMES};
use crate::passes::{SelectDate, SelectPlies, SelectResult, TagPattern};
use crate::pdtl::Pdtl;
use crate::read::{DEFAULT_MAX_DEPTH, DEFAULT_MAX_LINE_BYTES};
use crate::verify::Verify;
use crate::write::{Columns, Format};
use std::fmt;

/// The options of the filter, each named as the command line's long option
/// (`keep_comments` for `--keep-comments`); by default, the command's
/// defaults.
#[derive(Clone, Debug)]
pub struct Options {
    /// `--keep-comments`.
    pub keep_comments: bool,
    /// `--keep-variations`.
    pub keep_variations: bool,
    /// `--keep-ratings`.
    pub keep_ratings: bool,
    /// `--skip-pass`: built-in passes left out (of [`PASS_NAMES`]).
    pub skip_pass: Vec<String>,
    /// `--split-variations`.
    pub split_variations: bool,
    /// `--max-depth`.
    pub max_depth: u32,
    /// `--max-line-bytes`.
    pub max_line_bytes: u64,
    /// `--strict`.
    pub strict: bool,
    /// `--quiet`: warnings counted, their messages not made.
    pub quiet: bool,
    /// `--fix-result`.
    pub fix_result: bool,
    /// `--fail-fast`.
    pub fail_fast: bool,
    /// `--format` (of [`FORMATS`]).
    pub format: Format,
    /// `--columns`, of a listing.
    pub columns: Option<Columns>,
    /// `--count`: the games are only counted, whatever `format` says.
    pub count: bool,
    /// `--typographic`.
    pub typographic: bool,
    /// `--tag`, each one.
    pub tags: Vec<TagPattern>,
    /// `--player`, each one.
    pub players: Vec<TagPattern>,
    /// `--result`, each one.
    pub results: Vec<SelectResult>,
    /// `--date`.
    pub date: Option<SelectDate>,
    /// `--plies`.
    pub plies: Option<SelectPlies>,
    /// `--reaches`.
    pub reaches: Option<Pdtl>,
    /// `--invert`.
    pub invert: bool,
    /// `--dedup`.
    pub dedup: bool,
    /// `--dedup-result` (which implies `--dedup`).
    pub dedup_result: bool,
    /// `--stop-after`.
    pub stop_after: Option<u64>,
    /// `--verify`.
    pub verify: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            keep_comments: false,
            keep_variations: false,
            keep_ratings: false,
            skip_pass: Vec::new(),
            split_variations: false,
            max_depth: DEFAULT_MAX_DEPTH,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            strict: false,
            quiet: false,
            fix_result: false,
            fail_fast: false,
            format: Format::CtlPgn,
            columns: None,
            count: false,
            typographic: false,
            tags: Vec::new(),
            players: Vec::new(),
            results: Vec::new(),
            date: None,
            plies: None,
            reaches: None,
            invert: false,
            dedup: false,
            dedup_result: false,
            stop_after: None,
            verify: false,
        }
    }
}

/// Every option [`Options::set`] and [`Options::flag`] take, by its long
/// name, with the name of its value as the command line shows it
/// (`None`: a flag).
pub const OPTIONS: [(&str, Option<&str>); 26] = [
    ("keep-comments", None),
    ("keep-variations", None),
    ("keep-ratings", None),
    ("skip-pass", Some("PASS")),
    ("split-variations", None),
    ("max-depth", Some("N")),
    ("max-line-bytes", Some("SIZE")),
    ("strict", None),
    ("quiet", None),
    ("fix-result", None),
    ("fail-fast", None),
    ("format", Some("FORMAT")),
    ("columns", Some("LIST")),
    ("count", None),
    ("typographic", None),
    ("tag", Some("NAME=PATTERN")),
    ("player", Some("PATTERN")),
    ("result", Some("R")),
    ("date", Some("FROM..TO")),
    ("plies", Some("MIN..MAX")),
    ("reaches", Some("PDTL")),
    ("invert", None),
    ("dedup", None),
    ("dedup-result", None),
    ("stop-after", Some("N")),
    ("verify", None),
];

/// The output formats `--format` names, with what each writes.
pub const FORMATS: [(&str, Format, &str); 4] = [
    ("ctl-pgn", Format::CtlPgn, "Canonical CTL-PGN"),
    ("ndjson", Format::Ndjson, "One JSON object per game"),
    (
        "tsv",
        Format::Tsv,
        "One line per game, values separated by tabs (--columns)",
    ),
    (
        "csv",
        Format::Csv,
        "One line per game, values separated by commas (--columns)",
    ),
];

/// Why a listing is refused with options that write games apart.
pub const LISTING_IS_ONE: &str = "--format tsv and csv write one listing of the games, one line \
     each: not with --in-place, --out-dir or --split-variations";

/// An option not taken, or a value refused: what the command line says
/// of it (without its `error: `).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// A value refused, or options that do not go together: the message.
    Invalid(String),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unexpected argument '--{name}' found"),
            OptionError::Invalid(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for OptionError {}

/// The name of an option's value, `None` for a flag; `Err` for no option.
fn value_name(name: &str) -> Result<Option<&'static str>, OptionError> {
    OPTIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .ok_or_else(|| OptionError::Unknown(name.to_string()))
}

impl Options {
    /// Does option `name` (its long name: `tag`, `max-depth`) take a
    /// value? `None`: no option has that name.
    pub fn takes_value(name: &str) -> Option<bool> {
        value_name(name).ok().map(|v| v.is_some())
    }

    /// Sets the flag `name` (`keep-comments`, `dedup`...) on or off.
    pub fn flag(&mut self, name: &str, on: bool) -> Result<(), OptionError> {
        let flag = match name {
            "keep-comments" => &mut self.keep_comments,
            "keep-variations" => &mut self.keep_variations,
            "keep-ratings" => &mut self.keep_ratings,
            "split-variations" => &mut self.split_variations,
            "strict" => &mut self.strict,
            "quiet" => &mut self.quiet,
            "fix-result" => &mut self.fix_result,
            "fail-fast" => &mut self.fail_fast,
            "count" => &mut self.count,
            "typographic" => &mut self.typographic,
            "invert" => &mut self.invert,
            "dedup" => &mut self.dedup,
            "dedup-result" => &mut self.dedup_result,
            "verify" => &mut self.verify,
            _ => {
                return Err(match value_name(name)? {
                    Some(v) => OptionError::Invalid(format!(
                        "a value is required for '--{name} <{v}>' but none was supplied"
                    )),
                    None => unreachable!("every flag of OPTIONS is set above"),
                })
            }
        };
        *flag = on;
        Ok(())
    }

    /// Sets the option `name` (`tag`, `max-depth`...) to `value`, read as
    /// the command line reads it: a repeated option (`tag`, `player`,
    /// `result`, `skip-pass`) adds one more. A value refused is an error
    /// in the command line's words:
    /// `invalid value 'x' for '--plies <MIN..MAX>': ...`.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let Some(value_name) = value_name(name)? else {
            return Err(OptionError::Invalid(format!(
                "unexpected value '{value}' for '--{name}' found; no more were expected"
            )));
        };
        let invalid =
            |why: String| OptionError::Invalid(invalid_value(value, name, value_name, &why));
        match name {
            "skip-pass" => {
                for pass in value.split(',') {
                    if !PASS_NAMES.contains(&pass) {
                        return Err(not_one_of(pass, name, value_name, &PASS_NAMES));
                    }
                    self.skip_pass.push(pass.to_string());
                }
            }
            "format" => {
                self.format = FORMATS
                    .iter()
                    .find(|(n, ..)| *n == value)
                    .map(|(_, f, _)| *f)
                    .ok_or_else(|| {
                        not_one_of(value, name, value_name, &FORMATS.map(|(n, ..)| n))
                    })?;
            }
            "max-depth" => self.max_depth = parse_max_depth(value).map_err(invalid)?,
            "max-line-bytes" => self.max_line_bytes = parse_size(value).map_err(invalid)?,
            "columns" => self.columns = Some(parse_columns(value).map_err(invalid)?),
            "tag" => self.tags.push(parse_tag(value).map_err(invalid)?),
            "player" => self.players.push(parse_player(value).map_err(invalid)?),
            "result" => self.results.push(parse_result(value).map_err(invalid)?),
            "date" => self.date = Some(parse_date(value).map_err(invalid)?),
            "plies" => self.plies = Some(parse_plies(value).map_err(invalid)?),
            "reaches" => self.reaches = Some(parse_pdtl(value).map_err(invalid)?),
            "stop-after" => self.stop_after = Some(parse_stop_after(value).map_err(invalid)?),
            _ => unreachable!("every option of OPTIONS with a value is set above"),
        }
        Ok(())
    }

    /// Is a selection asked for: an option that keeps some games only?
    pub fn selects(&self) -> bool {
        !self.tags.is_empty()
            || !self.players.is_empty()
            || !self.results.is_empty()
            || self.date.is_some()
            || self.plies.is_some()
            || self.reaches.is_some()
    }

    /// The listing asked for (`--format tsv` or `csv`), if one is.
    pub fn listing(&self) -> Option<Format> {
        match self.format {
            Format::Tsv | Format::Csv if !self.count => Some(self.format),
            _ => None,
        }
    }

    /// The header line a listing starts with, once whatever the inputs.
    pub fn header(&self) -> Option<Vec<u8>> {
        let columns = self.columns.clone().unwrap_or_default();
        self.listing().map(|format| columns.header(format))
    }

    /// Whether the options go together: an error names those that do not.
    pub fn check(&self) -> Result<(), OptionError> {
        let refuse = |message: &str| Err(OptionError::Invalid(message.to_string()));
        if self.split_variations && self.keep_variations {
            return refuse(
                "the argument '--split-variations' cannot be used with '--keep-variations'",
            );
        }
        if self.invert && !self.selects() {
            return refuse(
                "--invert writes the games a selection leaves out: \
                 add --tag, --player, --result, --date, --plies or --reaches",
            );
        }
        if self.columns.is_some() && !matches!(self.format, Format::Tsv | Format::Csv) {
            return refuse("--columns are a listing's: add --format tsv or --format csv");
        }
        if self.listing().is_some() && self.split_variations {
            return refuse(LISTING_IS_ONE);
        }
        Ok(())
    }

    /// The filter these options ask for. What `--dedup` and `--stop-after`
    /// count on is the builder's own ledger, unless given another
    /// ([`FilterBuilder::ledger`]).
    pub fn builder(&self) -> FilterBuilder {
        let mut b = FilterBuilder::new()
            .keep_comments(self.keep_comments)
            .keep_variations(self.keep_variations)
            .keep_ratings(self.keep_ratings)
            .strict(self.strict)
            .silence_warnings(self.quiet)
            .fix_result(self.fix_result)
            .split_variations(self.split_variations)
            .max_depth(self.max_depth)
            .fail_fast(self.fail_fast)
            .max_line_bytes(self.max_line_bytes)
            .typographic(self.typographic)
            .format(if self.count {
                Format::Count
            } else {
                self.format
            });
        if let Some(columns) = &self.columns {
            b = b.columns(columns.clone());
        }
        for r in &self.results {
            b = b.result(r.clone());
        }
        if let Some(d) = &self.date {
            b = b.date(d.clone());
        }
        // A pass skipped twice (skip-pass and keep-*) is skipped once.
        for p in &self.skip_pass {
            b = b.skip_pass(p);
        }
        for t in self.tags.iter().chain(&self.players) {
            b = b.select_tag(t.clone());
        }
        if let Some(p) = &self.plies {
            b = b.plies(p.range());
        }
        if let Some(position) = &self.reaches {
            b = b.reaches(position);
        }
        b = b
            .invert(self.invert)
            .dedup(self.dedup || self.dedup_result)
            .dedup_result(self.dedup_result)
            .stop_after(self.stop_after);
        if self.verify {
            b = b.verify(Verify::new());
        }
        b
    }
}

/// The command line's words for a value its parser refuses.
fn invalid_value(value: &str, name: &str, value_name: &str, why: &str) -> String {
    format!("invalid value '{value}' for '--{name} <{value_name}>': {why}")
}

/// The command line's words for a value that is none of those listed.
fn not_one_of(value: &str, name: &str, value_name: &str, names: &[&str]) -> OptionError {
    OptionError::Invalid(format!(
        "invalid value '{value}' for '--{name} <{value_name}>'\n  [possible values: {}]",
        names.join(", ")
    ))
}

/// `--tag NAME=PATTERN` ([`TagPattern::parse`]).
pub fn parse_tag(s: &str) -> Result<TagPattern, String> {
    TagPattern::parse(s).map_err(|e| e.to_string())
}

/// `--player PATTERN` ([`TagPattern::player`]).
pub fn parse_player(s: &str) -> Result<TagPattern, String> {
    TagPattern::player(s).map_err(|e| e.to_string())
}

/// `--result R` ([`SelectResult::parse`]).
pub fn parse_result(s: &str) -> Result<SelectResult, String> {
    SelectResult::parse(s).map_err(|e| e.to_string())
}

/// `--date FROM..TO` ([`SelectDate::parse`]).
pub fn parse_date(s: &str) -> Result<SelectDate, String> {
    SelectDate::parse(s).map_err(|e| e.to_string())
}

/// `--columns LIST` ([`Columns::parse`]).
pub fn parse_columns(s: &str) -> Result<Columns, String> {
    Columns::parse(s).map_err(|e| e.to_string())
}

/// `--plies MIN..MAX` ([`SelectPlies::parse`]).
pub fn parse_plies(s: &str) -> Result<SelectPlies, String> {
    SelectPlies::parse(s).map_err(|e| e.to_string())
}

/// `--reaches PDTL` ([`Pdtl::parse`]).
pub fn parse_pdtl(s: &str) -> Result<Pdtl, String> {
    Pdtl::parse(s).map_err(|e| e.to_string())
}

/// `--stop-after N`: a whole number of games, 1 or more.
pub fn parse_stop_after(s: &str) -> Result<u64, String> {
    s.parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| "--stop-after takes a whole number of games, 1 or more".to_string())
}

/// `--max-depth N`: 1 or more (in clap's words for a range).
pub fn parse_max_depth(s: &str) -> Result<u32, String> {
    let n: i64 = s
        .parse()
        .map_err(|e: std::num::ParseIntError| e.to_string())?;
    u32::try_from(n)
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| format!("{n} is not in 1..={}", u32::MAX))
}

/// A size in bytes: `4096`, `64K`, `64M`, `1G`: K, M and G (and KiB, MB
/// and the like) are all powers of 1024, as GNU parallel's `--block` reads
/// them (`--max-line-bytes`, `--cut`).
pub fn parse_size(s: &str) -> Result<u64, String> {
    parse_size::Config::new()
        .with_binary()
        .parse_size(s)
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| {
            format!("{s}: a size is a number of bytes above 0, with K, M or G after it (powers of 1024)")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_set_by_its_name() {
        for (name, value) in OPTIONS {
            let mut o = Options::default();
            match value {
                None => o.flag(name, true).unwrap(),
                Some(_) => {
                    let v = match name {
                        "skip-pass" => "fan",
                        "format" => "tsv",
                        "columns" => "White",
                        "tag" => "Event=x",
                        "result" => "3-0",
                        "date" => "2022",
                        "plies" | "max-depth" | "stop-after" | "max-line-bytes" => "7",
                        "reaches" => crate::INITIAL_PDTL,
                        _ => "x",
                    };
                    o.set(name, v).unwrap();
                }
            }
            assert_ne!(
                format!("{o:?}"),
                format!("{:?}", Options::default()),
                "{name}"
            );
            assert_eq!(Options::takes_value(name), Some(value.is_some()));
        }
        assert_eq!(Options::takes_value("output"), None);
    }

    #[test]
    fn a_value_refused_is_said_as_the_command_line_says_it() {
        let mut o = Options::default();
        assert_eq!(
            o.set("max-depth", "0").unwrap_err().to_string(),
            "invalid value '0' for '--max-depth <N>': 0 is not in 1..=4294967295"
        );
        assert_eq!(
            o.set("format", "x").unwrap_err().to_string(),
            "invalid value 'x' for '--format <FORMAT>'\n  [possible values: ctl-pgn, ndjson, tsv, csv]"
        );
        assert_eq!(
            o.set("output", "x"),
            Err(OptionError::Unknown("output".into()))
        );
    }
}
