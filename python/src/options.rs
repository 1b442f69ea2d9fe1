//! The keyword options of `filter` and `filter_file`, named as the
//! command line's long options (`keep_comments` for `--keep-comments`), and
//! the filter they build. A bad value is refused with the command line's
//! words for it.

use ctlpgn_filter::{FilterBuilder, Format, Pdtl, SelectPlies, TagPattern, Verify, PASS_NAMES};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// What the options ask of the filter; plain data, so that a reading
/// thread can build its filter from it.
#[derive(Clone, Default)]
pub struct Options {
    pub keep_comments: bool,
    pub keep_variations: bool,
    pub keep_ratings: bool,
    pub split_variations: bool,
    pub max_depth: Option<u32>,
    pub skip_pass: Vec<&'static str>,
    pub verify: bool,
    pub strict: bool,
    pub fix_result: bool,
    pub ndjson: bool,
    pub typographic: bool,
    pub dedup: bool,
    pub dedup_result: bool,
    pub tags: Vec<TagPattern>,
    pub invert: bool,
    pub plies: Option<SelectPlies>,
    pub reaches: Option<Pdtl>,
    pub stop_after: Option<u64>,
    pub max_line_bytes: Option<u64>,
    pub quiet: bool,
    pub fail_fast: bool,
}

/// The options `filter` takes, for the error that names an unknown one.
const NAMES: &[&str] = &[
    "keep_comments",
    "keep_variations",
    "keep_ratings",
    "split_variations",
    "max_depth",
    "skip_pass",
    "verify",
    "strict",
    "fix_result",
    "format",
    "typographic",
    "dedup",
    "dedup_result",
    "tag",
    "player",
    "invert",
    "plies",
    "reaches",
    "stop_after",
    "max_line_bytes",
    "quiet",
    "fail_fast",
];

/// The error clap gives for a value its parser refuses.
fn invalid(value: &str, option: &str, why: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!("invalid value '{value}' for '{option}': {why}"))
}

/// One string, or a list of them (a repeated option).
fn strings(value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(s) = value.downcast::<PyString>() {
        return Ok(vec![s.to_cow()?.into_owned()]);
    }
    value.extract()
}

impl Options {
    /// Reads `kwargs`; `function` names the caller in the error about an
    /// option it does not take.
    pub fn from_kwargs(function: &str, kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Options> {
        let mut o = Options::default();
        let Some(kwargs) = kwargs else {
            return Ok(o);
        };
        for (key, value) in kwargs.iter() {
            let key: String = key.extract()?;
            let flag = || value.is_truthy();
            match key.as_str() {
                "keep_comments" => o.keep_comments = flag()?,
                "keep_variations" => o.keep_variations = flag()?,
                "keep_ratings" => o.keep_ratings = flag()?,
                "split_variations" => o.split_variations = flag()?,
                "verify" => o.verify = flag()?,
                "strict" => o.strict = flag()?,
                "fix_result" => o.fix_result = flag()?,
                "typographic" => o.typographic = flag()?,
                "dedup" => o.dedup = o.dedup || flag()?,
                "dedup_result" => {
                    o.dedup_result = flag()?;
                    o.dedup = o.dedup || o.dedup_result;
                }
                "invert" => o.invert = flag()?,
                "quiet" => o.quiet = flag()?,
                "fail_fast" => o.fail_fast = flag()?,
                "max_depth" => {
                    let n: i64 = value.extract()?;
                    o.max_depth =
                        Some(u32::try_from(n).ok().filter(|&n| n >= 1).ok_or_else(|| {
                            invalid(
                                &n.to_string(),
                                "--max-depth <N>",
                                format!("{n} is not in 1..={}", u32::MAX),
                            )
                        })?);
                }
                "max_line_bytes" => {
                    let n: i64 = value.extract()?;
                    o.max_line_bytes =
                        Some(u64::try_from(n).ok().filter(|&n| n > 0).ok_or_else(|| {
                            invalid(
                                &n.to_string(),
                                "--max-line-bytes <SIZE>",
                                format!(
                                    "{n}: a size is a number of bytes above 0, with K, M or G \
                                     after it (powers of 1024)"
                                ),
                            )
                        })?);
                }
                "stop_after" => {
                    if !value.is_none() {
                        let n: i64 = value.extract()?;
                        o.stop_after =
                            Some(u64::try_from(n).ok().filter(|&n| n > 0).ok_or_else(|| {
                                invalid(
                                    &n.to_string(),
                                    "--stop-after <N>",
                                    "--stop-after takes a whole number of games, 1 or more",
                                )
                            })?);
                    }
                }
                "format" => {
                    let f: String = value.extract()?;
                    o.ndjson = match f.as_str() {
                        "ctl-pgn" => false,
                        "ndjson" => true,
                        _ => {
                            return Err(invalid(
                                &f,
                                "--format <FORMAT>",
                                "[possible values: ctl-pgn, ndjson]",
                            ))
                        }
                    }
                }
                "skip_pass" => {
                    for name in strings(&value)? {
                        let pass = PASS_NAMES.iter().find(|&&p| p == name).ok_or_else(|| {
                            invalid(
                                &name,
                                "--skip-pass <PASS>",
                                format!("[possible values: {}]", PASS_NAMES.join(", ")),
                            )
                        })?;
                        o.skip_pass.push(pass);
                    }
                }
                "tag" => {
                    for t in strings(&value)? {
                        let p = TagPattern::parse(&t)
                            .map_err(|e| invalid(&t, "--tag <NAME=PATTERN>", e))?;
                        o.tags.push(p);
                    }
                }
                "player" => {
                    for t in strings(&value)? {
                        let p = TagPattern::player(&t)
                            .map_err(|e| invalid(&t, "--player <PATTERN>", e))?;
                        o.tags.push(p);
                    }
                }
                "plies" => {
                    if !value.is_none() {
                        // A number of half-moves, or a range as the command line writes it.
                        let s = match value.extract::<u32>() {
                            Ok(n) => n.to_string(),
                            Err(_) => value.extract::<String>()?,
                        };
                        o.plies = Some(
                            SelectPlies::parse(&s)
                                .map_err(|e| invalid(&s, "--plies <MIN..MAX>", e))?,
                        );
                    }
                }
                "reaches" => {
                    if !value.is_none() {
                        let s: String = value.extract()?;
                        o.reaches =
                            Some(Pdtl::parse(&s).map_err(|e| invalid(&s, "--reaches <PDTL>", e))?);
                    }
                }
                _ => {
                    return Err(PyTypeError::new_err(format!(
                        "{function}() got an unexpected keyword argument '{key}' \
                         (its options: {})",
                        NAMES.join(", ")
                    )))
                }
            }
        }
        if o.split_variations && o.keep_variations {
            return Err(PyValueError::new_err(
                "the argument '--split-variations' cannot be used with '--keep-variations'",
            ));
        }
        Ok(o)
    }

    /// The filter these options ask for, `verify` its replay when it has one.
    pub fn builder(&self, verify: Option<Verify>) -> FilterBuilder {
        let mut b = FilterBuilder::new()
            .keep_comments(self.keep_comments)
            .keep_variations(self.keep_variations)
            .keep_ratings(self.keep_ratings)
            .split_variations(self.split_variations)
            .strict(self.strict)
            .fix_result(self.fix_result)
            .typographic(self.typographic)
            .silence_warnings(self.quiet)
            .fail_fast(self.fail_fast)
            .dedup(self.dedup)
            .dedup_result(self.dedup_result)
            .invert(self.invert)
            .stop_after(self.stop_after)
            .format(if self.ndjson {
                Format::Ndjson
            } else {
                Format::CtlPgn
            });
        // A pass skipped twice (skip_pass and keep_*) is skipped once.
        for pass in &self.skip_pass {
            b = b.skip_pass(pass);
        }
        if let Some(d) = self.max_depth {
            b = b.max_depth(d);
        }
        if let Some(n) = self.max_line_bytes {
            b = b.max_line_bytes(n);
        }
        for t in &self.tags {
            b = b.select_tag(t.clone());
        }
        if let Some(p) = &self.plies {
            b = b.plies(p.range());
        }
        if let Some(p) = &self.reaches {
            b = b.reaches(p);
        }
        match verify {
            Some(v) => b.verify(v),
            None if self.verify => b.verify(Verify::new()),
            None => b,
        }
    }
}
