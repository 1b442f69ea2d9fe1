//! What a pass is: the [`Pass`] trait, what it asks for ([`Interest`]),
//! what it is handed ([`Tag`], [`Variation`]), what it knows and reports
//! through ([`Context`]), and what it answers ([`Flow`], [`LeftOut`]).

use crate::diag::{Diagnostic, Message, Pos, Severity};
use crate::grammar::half_move::Traits;
use crate::grammar::model::{HalfMove, Outcome};
use crate::grammar::redefine::RedefineMap;
use crate::pdtl::Pdtl;
use std::fmt;

/// Whether an item goes on down the chain: see [`Pass`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Pass it on.
    Keep,
    /// Drop it: later passes and the writer never see it.
    Drop,
}

/// Why a game is left out: neither written nor rejected (see
/// [`Context::leave_out`]). The [`crate::Report`] counts each reason
/// ([`crate::LeftOutCounts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LeftOut {
    /// The same start and moves as a game written before (`--dedup`); its
    /// bytes go to the duplicates sink, as read.
    Duplicate,
    /// A tag pattern does not hold (`--tag`).
    Tag,
    /// The main line is too short or too long (`--plies`).
    Plies,
    /// The main line never reaches the position asked for (`--reaches`).
    Position,
    /// The result the game is written with is not one asked for (`--result`).
    Result,
    /// The game's `Date` is outside the range asked for (`--date`).
    Date,
    /// The game's `Date` is unknown at the precision the range needs: no
    /// tag, `??` where the range's ends fall, or no date (`--date`).
    DateUnknown,
    /// The game matches the selection, and `--invert` keeps the others.
    Inverted,
    /// A pass of your own left it out.
    Other,
}

/// Which items a pass is handed (the PDTL, the result, the game's begin and
/// end, and the tags that carry meaning to the reader, `Variant`,
/// `Redefine`, `Result`, always are): the other tags, half-moves (all of
/// them or only those whose text holds some [`Traits`]), comments,
/// variations.
///
/// ```
/// use ctlpgn_filter::{Interest, Traits};
/// let figurines = Interest::moves_with(Traits::FIGURINE);
/// assert!(Interest::ALL.contains(figurines));
/// assert!(!figurines.contains(Interest::MOVES));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interest(u32);

impl Interest {
    /// Nothing but what every pass gets.
    pub const NONE: Interest = Interest(0);
    /// Every half-move, on the main line and in kept variations.
    pub const MOVES: Interest = Interest(1);
    /// Comments.
    pub const COMMENTS: Interest = Interest(2);
    /// Variations: their edges and labels, and the move numbers inside.
    pub const VARIATIONS: Interest = Interest(4);
    /// Tags but `Variant`, `Redefine`, `Result` (and the PDTL, which comes
    /// as [`Pass::setup`]), which every pass gets.
    pub const TAGS: Interest = Interest(16);
    /// Every item: tags, half-moves, comments, variations (not the
    /// read-only main line of [`Interest::MAIN_LINE`], which is asked for
    /// by name).
    pub const ALL: Interest = Interest(!(Interest::MAIN_LINE.0 | Interest::MAIN_LINE_MOVES.0));
    /// The main line as it will be written, read-only, once every pass
    /// has had it: the keys of its half-moves
    /// ([`Action::key`](crate::Action::key)), in order, through
    /// [`Pass::main_line`]. The writer still copies the moves it may copy
    /// as read, and their keys are handed on without laying a [`HalfMove`]
    /// out (`--dedup` and `--plies` read the main line so).
    pub const MAIN_LINE: Interest = Interest(8);
    /// The main line's half-moves themselves, read-only, through
    /// [`Pass::main_line_move`]: the writer still copies the moves it may
    /// copy as read, and each is made a [`HalfMove`] for the pass
    /// (`--reaches` replays them so).
    pub const MAIN_LINE_MOVES: Interest = Interest(32);

    /// The half-moves whose text holds any of `traits`.
    pub const fn moves_with(traits: Traits) -> Interest {
        Interest((traits.0 as u32) << 8)
    }

    /// Both sets.
    pub const fn union(self, other: Interest) -> Interest {
        Interest(self.0 | other.0)
    }

    /// Is all of `other` in `self`?
    pub const fn contains(self, other: Interest) -> bool {
        self.0 & other.0 == other.0
    }

    /// Does `self` hold any of `other`?
    pub const fn intersects(self, other: Interest) -> bool {
        self.0 & other.0 != 0
    }

    /// `self` without `other`.
    pub const fn without(self, other: Interest) -> Interest {
        Interest(self.0 & !other.0)
    }

    /// Does this interest take a half-move with these traits?
    #[inline]
    pub(crate) fn takes_move(self, traits: Traits) -> bool {
        self.0 & Interest::MOVES.0 != 0 || (self.0 >> 8) as u8 & traits.0 != 0
    }
}

impl std::ops::BitOr for Interest {
    type Output = Interest;
    fn bitor(self, other: Interest) -> Interest {
        self.union(other)
    }
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
    /// Where its `[` is.
    pub pos: Pos,
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
///             cx.error(mv.pos, "too long");
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
    /// What the text of the half-move being passed held (a pawn's
    /// figurine among them, which leaves no glyph in the move: a pawn
    /// goes unnamed).
    pub traits: Traits,
    /// Where the game's first byte is (a comment before its tags
    /// included): the line ndjson's `line` names.
    pub game_start: Pos,
    /// The game's number among the games of the stream read, from 1 (a
    /// piece of a parallel run counts from its own start).
    pub(crate) game_number: u64,
    /// This game's diagnostics: its first error ends the list (the game is
    /// rejected, and later errors tend to follow from the first), and
    /// warnings stop at [`MAX_WARNINGS`], so that a hostile game costs
    /// memory and time in proportion to its size, not to its faults. A
    /// column is worked out by the reader from the offset in `offsets`.
    pub(crate) diagnostics: Vec<Diagnostic>,
    /// The stream offset each diagnostic points at, in step with `diagnostics`.
    pub(crate) offsets: Vec<u64>,
    has_error: bool,
    /// Why the game is left out, when a pass said so first.
    left_out: Option<LeftOut>,
    /// `--strict`: a warning rejects the game, and says so.
    pub(crate) strict: bool,
    /// Warnings are counted, and no message is made of them (`-q`).
    pub(crate) silence_warnings: bool,
    /// This game's warnings counted without a message.
    pub(crate) silent_warnings: u32,
}

/// Warnings kept for one game.
pub(crate) const MAX_WARNINGS: usize = 100;

impl Context {
    /// Reports an error: the game will be rejected. The message is text,
    /// or a [`Message`] that names its kind.
    pub fn error(&mut self, at: Pos, message: impl Into<Message>) {
        if !self.has_error {
            self.has_error = true;
            self.push(Severity::Error, at, message.into());
        }
    }

    /// Reports a warning: the game is still written (unless `--strict`,
    /// which makes it the error that rejects the game).
    pub fn warn(&mut self, at: Pos, message: impl Into<Message>) {
        if self.strict {
            let message = message.into();
            let text = format!("{}: rejected by --strict", message.text);
            self.error(at, Message::new(message.kind, text));
        } else if self.warning_kept() {
            self.push(Severity::Warning, at, message.into());
        }
    }

    /// Does a warning count, and is its message to be made? A warning
    /// counted only is counted here, and costs nothing more.
    #[inline]
    fn warning_kept(&mut self) -> bool {
        let counted = self.diagnostics.len() + self.silent_warnings as usize;
        if self.has_error || counted >= MAX_WARNINGS {
            return false;
        }
        if self.silence_warnings {
            self.silent_warnings += 1;
            return false;
        }
        true
    }

    /// Reports a warning about a `problem` the filter repairs, saying how
    /// (`fix`: "added", "read as PDTL"); under `--strict` the game is
    /// rejected instead, and the message says so.
    ///
    /// ```
    /// use ctlpgn_filter::FilterBuilder;
    /// let (_, d, _) = FilterBuilder::new().build().filter_bytes(b"1. E7-E13:\n");
    /// assert_eq!(d[0].message, "no [Variant \"C'escacs\"] tag: added");
    /// let (_, d, _) = FilterBuilder::new().strict(true).build().filter_bytes(b"1. E7-E13:\n");
    /// assert_eq!(
    ///     d[0].message,
    ///     "no [Variant \"C'escacs\"] tag: rejected by --strict (without it: added)"
    /// );
    /// ```
    pub fn warn_fixed(&mut self, at: Pos, problem: impl Into<Message>, fix: impl fmt::Display) {
        if self.strict {
            let problem = problem.into();
            let text = format!("{problem}: rejected by --strict (without it: {fix})");
            self.error(at, Message::new(problem.kind, text));
        } else if self.warning_kept() {
            let problem = problem.into();
            let text = format!("{problem}: {fix}");
            self.push(Severity::Warning, at, Message::new(problem.kind, text));
        }
    }

    /// Reports an error that rejects one variation game of this game
    /// (`--split-variations`), not the game.
    pub(crate) fn error_in_variation(&mut self, at: Pos, message: impl Into<Message>) {
        if !self.has_error {
            self.push(Severity::Error, at, message.into());
        }
    }

    /// The game's diagnostics so far, in the order they were made: its
    /// first error last, if it has one (none is made after it).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Has an error been reported for this game?
    #[inline]
    pub fn has_error(&self) -> bool {
        self.has_error
    }

    /// Leaves this game out: it is neither written nor rejected, and no
    /// diagnostic of it is shown; the [`crate::Report`] counts it under
    /// `reason` (the first reason given is kept). A game with an error is
    /// rejected all the same: only a game that could be written is left out.
    ///
    /// ```
    /// use ctlpgn_filter::{Context, FilterBuilder, LeftOut, Pass, Tag, Flow};
    /// /// Keeps the games of one event.
    /// struct OneEvent;
    /// impl Pass for OneEvent {
    ///     fn name(&self) -> &'static str { "one-event" }
    ///     fn tag(&mut self, tag: &Tag<'_>, cx: &mut Context) -> Flow {
    ///         if tag.name == "Event" && tag.value != "CG" {
    ///             cx.leave_out(LeftOut::Other);
    ///         }
    ///         Flow::Keep
    ///     }
    /// }
    /// let mut f = FilterBuilder::new().pass(Box::new(OneEvent)).build();
    /// let (out, _, report) = f.filter_bytes(
    ///     b"[Variant \"C'escacs\"]\n[Event \"CG\"]\n1. E7-E13:\n*\n\
    ///       [Variant \"C'escacs\"]\n[Event \"Other\"]\n1. E7-E13:\n*\n",
    /// );
    /// assert_eq!((report.games_read, report.games_written), (2, 1));
    /// assert_eq!(report.left_out.other, 1);
    /// assert!(String::from_utf8(out).unwrap().contains("CG"));
    /// ```
    pub fn leave_out(&mut self, reason: LeftOut) {
        self.left_out.get_or_insert(reason);
    }

    /// Why this game is left out, if a pass has said so.
    #[inline]
    pub fn left_out(&self) -> Option<LeftOut> {
        self.left_out
    }

    fn push(&mut self, severity: Severity, at: Pos, message: Message) {
        self.diagnostics.push(Diagnostic {
            severity,
            kind: message.kind,
            line: at.line,
            // Worked out by the reader, from the offset.
            column: 0,
            message: message.text,
            source: String::new(),
            source_column: 1,
        });
        self.offsets.push(at.offset);
    }

    /// A context whose warnings reject the game when `strict`, and are
    /// counted without a message when `silence_warnings`.
    pub(crate) fn new(strict: bool, silence_warnings: bool) -> Context {
        Context {
            strict,
            silence_warnings,
            ..Context::default()
        }
    }

    /// A new game: no diagnostics, no letters redefined.
    pub(crate) fn reset(&mut self, game_start: Pos, game_number: u64) {
        self.redefine = RedefineMap::default();
        self.depth = 0;
        self.game_start = game_start;
        self.game_number = game_number;
        self.diagnostics.clear();
        self.offsets.clear();
        self.has_error = false;
        self.left_out = None;
        self.silent_warnings = 0;
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

    /// Which items of this game the pass wants, asked as the game begins,
    /// for its tags ([`Interest::TAGS`]), and again once its tags are read
    /// (its `Redefine` tags are then in `cx.redefine`), for the rest. A
    /// pass is handed nothing else, so the chain costs nothing on the rest.
    fn interest(&self, _cx: &Context) -> Interest {
        Interest::ALL
    }

    /// Whether all it does to a half-move it is handed for
    /// [`Traits::UNICODE_SEPARATOR`] alone (through
    /// [`Interest::moves_with`]) is write its separator in ASCII, `-` or
    /// `*` ([`Sep::ascii`]), as the built-in pass "ascii" does. The reader
    /// then does so itself, without making a [`HalfMove`] for the pass.
    /// (A pass that wants [`Interest::MOVES`] is handed every move.)
    ///
    /// [`Sep::ascii`]: crate::Sep::ascii
    fn only_respells_separators(&self) -> bool {
        false
    }

    /// Items this pass drops whatever they hold ([`Interest::COMMENTS`],
    /// [`Interest::VARIATIONS`]): the reader then skips them unread, and no
    /// pass sees them.
    fn drops(&self) -> Interest {
        Interest::NONE
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

    /// The result token read at the game's end, when it has one; called
    /// just before [`Pass::end_game`]. The result the game is written
    /// with, which may come from a `#` move or the `Result` tag instead,
    /// is [`Pass::result_written`]'s.
    fn result(&mut self, _result: Outcome, _cx: &mut Context) {}

    /// The result the game is written with, its result line and ndjson's
    /// `result`: the result token read, else the winner of a `#` move,
    /// else the `Result` tag's, else `*`. Called for every game, rejected
    /// ones too, once every pass has ended it and before the run's
    /// verdict on it, so that a pass may still leave it out here (as
    /// `--result` does); a diagnostic reported here has no column.
    ///
    /// ```
    /// use ctlpgn_filter::{Context, FilterBuilder, Outcome, Pass};
    /// use std::sync::{Arc, Mutex};
    ///
    /// /// Keeps each game's result.
    /// struct Results(Arc<Mutex<Vec<Outcome>>>);
    /// impl Pass for Results {
    ///     fn name(&self) -> &'static str { "results" }
    ///     fn result_written(&mut self, result: Outcome, _cx: &mut Context) {
    ///         self.0.lock().unwrap().push(result);
    ///     }
    /// }
    /// let seen = Arc::new(Mutex::new(Vec::new()));
    /// let mut f = FilterBuilder::new().pass(Box::new(Results(Arc::clone(&seen)))).build();
    /// // No result token: White's mate, then the tag, then nothing.
    /// f.filter_bytes(b"1. E7-E13#\n[Variant \"C'escacs\"]\n[Result \"1-1\"]\n1. E7-E13:\n\n1. F8-F12:\n");
    /// assert_eq!(*seen.lock().unwrap(), [Outcome::WhiteWins, Outcome::Draw, Outcome::Unfinished]);
    /// ```
    fn result_written(&mut self, _result: Outcome, _cx: &mut Context) {}

    /// The game ends.
    fn end_game(&mut self, _cx: &mut Context) {}

    /// With [`Interest::MAIN_LINE`]: the next main-line half-moves as they
    /// will be written, as they come, as their keys ([`Action::key`](crate::Action::key):
    /// what `--dedup` compares, 8 bytes a move, made from what the reader
    /// parsed of a move line it copies).
    ///
    /// ```
    /// use ctlpgn_filter::{Context, FilterBuilder, Interest, Pass};
    /// use std::collections::HashSet;
    /// use std::sync::{Arc, Mutex};
    ///
    /// /// Counts the distinct moves of the main lines, read-only.
    /// struct Distinct(Arc<Mutex<HashSet<u64>>>);
    /// impl Pass for Distinct {
    ///     fn name(&self) -> &'static str { "distinct" }
    ///     fn interest(&self, _cx: &Context) -> Interest { Interest::MAIN_LINE }
    ///     fn main_line(&mut self, keys: &[u64]) {
    ///         self.0.lock().unwrap().extend(keys);
    ///     }
    /// }
    /// let seen = Arc::new(Mutex::new(HashSet::new()));
    /// let mut f = FilterBuilder::new().pass(Box::new(Distinct(Arc::clone(&seen)))).build();
    /// // The variation is not the main line; `×` and `*` are both a capture.
    /// f.filter_bytes(b"1. E7-E13, E21-E15\n2. E13\xc3\x97E15 (2. F8-F12)\n\
    ///                  1. E7-E13, E21-E15\n2. E13*E15:\n");
    /// assert_eq!(seen.lock().unwrap().len(), 3);
    /// ```
    fn main_line(&mut self, _keys: &[u64]) {}

    /// With [`Interest::MAIN_LINE_MOVES`]: the next main-line half-move as
    /// it will be written (by default, its key to [`Pass::main_line`]).
    fn main_line_move(&mut self, mv: &HalfMove) {
        self.main_line(&[mv.action.key()]);
    }

    /// The game's verdict, once every pass has ended it and the run has
    /// decided: `left_out` whether it is left out (by a pass, or as a
    /// duplicate), `cx.has_error()` whether it is rejected; else it is
    /// written.
    fn verdict(&mut self, _left_out: bool, _cx: &Context) {}
}
