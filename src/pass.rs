//! The pass chain: each pass sees every item of a game, may rewrite it in
//! place, drop it, or report a problem; what survives reaches the writer.

use crate::diag::{Diagnostic, Severity};
use crate::model::{HalfMove, Outcome};
use crate::pdtl::Pdtl;
use crate::redefine::RedefineMap;

/// Whether an item goes on down the chain: see [`Pass`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Pass it on.
    Keep,
    /// Drop it: later passes and the writer never see it.
    Drop,
}

/// A tag pair `[Name "value"]` as it reaches the passes.
///
/// ```
/// use ctlpgn_filter::{Context, Flow, FilterBuilder, Pass, Tag};
/// /// Drops the `Lang` tag (passes see tags read-only: they keep or drop them).
/// struct NoLang;
/// impl Pass for NoLang {
///     fn name(&self) -> &'static str { "no-lang" }
///     fn tag(&mut self, tag: &Tag<'_>, _cx: &mut Context) -> Flow {
///         if tag.name == "Lang" { Flow::Drop } else { Flow::Keep }
///     }
/// }
/// let mut f = FilterBuilder::new().pass(Box::new(NoLang)).build();
/// let (out, _, _) = f.filter_bytes(b"[Variant \"C'escacs\"]\n[Lang \"en\"]\n1. E7-E13:\n");
/// assert!(!String::from_utf8(out).unwrap().contains("Lang"));
/// ```
#[derive(Debug)]
pub struct Tag<'a> {
    /// Tag name.
    pub name: &'a str,
    /// Tag value, escapes kept as written, NFC-normalised.
    pub value: &'a str,
    /// 1-based input line.
    pub line: u64,
    /// 1-based input column (characters) of the `[`.
    pub column: u64,
}

/// Where a variation edge is.
///
/// ```
/// use ctlpgn_filter::{Context, Flow, FilterBuilder, Pass, Variation};
/// /// Counts labelled variations.
/// struct Labelled(u32);
/// impl Pass for Labelled {
///     fn name(&self) -> &'static str { "labelled" }
///     fn variation(&mut self, edge: Variation, _cx: &mut Context) -> Flow {
///         if let Variation::Open { label: Some(_) } = edge { self.0 += 1; }
///         Flow::Keep
///     }
/// }
/// let mut f = FilterBuilder::new().keep_variations(true).pass(Box::new(Labelled(0))).build();
/// let (out, _, _) = f.filter_bytes(b"1. E7-E13: ($[1] 1. F8-F12)\n");
/// assert!(String::from_utf8(out).unwrap().contains("($[1] 1. F8-F12)"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variation {
    /// `(`, optionally with a label `$[n]`.
    Open {
        /// The label number, when written.
        label: Option<u32>,
    },
    /// `)`
    Close,
}

/// What the passes know of the game being read, and where they report.
///
/// ```
/// use ctlpgn_filter::{Context, FilterBuilder, Flow, HalfMove, Pass};
///
/// /// Refuses games longer than 2 moves.
/// struct Short;
///
/// impl Pass for Short {
///     fn name(&self) -> &'static str {
///         "short"
///     }
///     fn half_move(&mut self, mv: &mut HalfMove, cx: &mut Context) -> Flow {
///         if cx.depth == 0 && mv.number > 2 {
///             cx.error(mv.line, u64::from(mv.column), "too long");
///         }
///         Flow::Keep
///     }
/// }
///
/// let mut filter = FilterBuilder::new().pass(Box::new(Short)).build();
/// let (_, diags, report) = filter.filter_bytes(b"1. E7-E13, E21-E15 2. F8-F12, F20-F16 3. G7-G13:\n");
/// assert_eq!(report.games_rejected, 1);
/// assert_eq!((diags[0].line, diags[0].column, diags[0].message.as_str()), (1, 42, "too long"));
/// ```
#[derive(Debug, Default)]
pub struct Context {
    /// The merged `Redefine` tags of this game.
    pub redefine: RedefineMap,
    /// Variation depth of the item being passed (0 on the main line).
    pub depth: u32,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl Context {
    /// Reports an error: the game will be rejected.
    pub fn error(&mut self, line: u64, column: u64, message: impl Into<String>) {
        self.report(Severity::Error, line, column, message.into());
    }

    /// Reports a warning: the game is still written (unless `--strict`).
    pub fn warn(&mut self, line: u64, column: u64, message: impl Into<String>) {
        self.report(Severity::Warning, line, column, message.into());
    }

    /// Has an error been reported for this game?
    pub fn has_error(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error)
    }

    fn report(&mut self, severity: Severity, line: u64, column: u64, message: String) {
        self.diagnostics.push(Diagnostic {
            severity,
            line,
            column,
            message,
            source: String::new(),
            source_column: 1,
        });
    }
}

/// One step of the chain. Every method has a default that passes the item
/// on unchanged, so a pass overrides only what it cares about.
///
/// ```
/// use ctlpgn_filter::{Context, FilterBuilder, Flow, Pass, Tag};
///
/// /// Drops the `Annotator` tags.
/// struct NoAnnotators;
///
/// impl Pass for NoAnnotators {
///     fn name(&self) -> &'static str {
///         "no-annotators"
///     }
///     fn tag(&mut self, tag: &Tag<'_>, _cx: &mut Context) -> Flow {
///         if tag.name == "Annotator" { Flow::Drop } else { Flow::Keep }
///     }
/// }
///
/// let mut filter = FilterBuilder::new().pass(Box::new(NoAnnotators)).build();
/// let (out, _, _) = filter.filter_bytes(b"[Variant \"C'escacs\"]\n[Annotator \"Cescacs\"]\n1. E7-E13:\n*\n");
/// assert_eq!(out, b"[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n\n");
/// ```
pub trait Pass: Send {
    /// A short name, as used by `--skip-pass`.
    fn name(&self) -> &'static str;

    /// `true` if this pass drops every comment: the reader then skips their
    /// text without handing it to anyone.
    fn drops_comments(&self) -> bool {
        false
    }

    /// `true` if this pass drops every variation: the reader then skips them
    /// by counting depth, without lexing what is inside.
    fn drops_variations(&self) -> bool {
        false
    }

    /// A new game starts.
    fn begin_game(&mut self, _cx: &mut Context) {}

    /// A tag pair (not `PDTL`, which comes as [`Pass::setup`]).
    fn tag(&mut self, _tag: &Tag<'_>, _cx: &mut Context) -> Flow {
        Flow::Keep
    }

    /// The game's `PDTL` start position.
    fn setup(&mut self, _pdtl: &mut Pdtl, _cx: &mut Context) {}

    /// A half-move, main line or (when kept) inside a variation.
    fn half_move(&mut self, _mv: &mut HalfMove, _cx: &mut Context) -> Flow {
        Flow::Keep
    }

    /// A comment's text, without the braces. Letters may be rewritten in place.
    fn comment(&mut self, _text: &mut [u8], _cx: &mut Context) -> Flow {
        Flow::Keep
    }

    /// A variation opens or closes.
    fn variation(&mut self, _edge: Variation, _cx: &mut Context) -> Flow {
        Flow::Keep
    }

    /// A move number inside a kept variation.
    fn variation_number(&mut self, _number: u32, _cx: &mut Context) -> Flow {
        Flow::Keep
    }

    /// The result line the game was written with, when it has one; called
    /// just before [`Pass::end_game`].
    fn result(&mut self, _result: Outcome, _cx: &mut Context) {}

    /// The game ends.
    fn end_game(&mut self, _cx: &mut Context) {}
}
