//! The filter: which passes run, and a run over one input.

use crate::diag::{Diagnostic, Severity};
use crate::pass::LeftOut;
use crate::passes::ledger::{Gate, Ledger};
use crate::passes::{
    AsciiSeparators, Chain, DedupKey, DropComments, DropRatings, DropVariations, FanToLetters,
    Pass, Reaches, Select, SelectDate, SelectPlies, SelectResult, SelectTags, Slot, TagPattern,
    UndoRedefine,
};
use crate::pdtl::Pdtl;
use crate::read::{
    IndexImpl, Reader, Resume, Settings, Sinks, Stop, Until, DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_LINE_BYTES,
};
use crate::report::{CutShort, Origin, Report};
use crate::stages::{Decided, Filter, Stages};
use crate::verify::Verify;
use crate::write::{Columns, Format, Writer, HELD_BYTES};
use std::io::{self, Read, Write};
use std::ops::RangeInclusive;

/// The implementations of the reader's structural index this machine
/// runs, by name (see `FilterBuilder::index_implementation`).
#[doc(hidden)]
pub fn index_implementations() -> Vec<&'static str> {
    IndexImpl::available()
        .into_iter()
        .map(IndexImpl::name)
        .collect()
}

/// The names of the built-in passes, in chain order.
pub const PASS_NAMES: [&str; 6] = [
    "redefine",
    "fan",
    "comments",
    "variations",
    "ratings",
    "ascii",
];

/// Builds a [`Filter`]: which built-in passes run, extra passes, strictness.
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, Format};
/// let filter = FilterBuilder::new()
///     .keep_comments(true)
///     .skip_pass("ascii")
///     .format(Format::CtlPgn)
///     .strict(true)
///     .build();
/// assert_eq!(filter.pass_names(), ["redefine", "fan", "variations", "ratings"]);
/// ```
pub struct FilterBuilder {
    format: Format,
    columns: Option<Columns>,
    typographic: bool,
    skip: Vec<&'static str>,
    verify: Option<Verify>,
    extra: Vec<Box<dyn Pass>>,
    strict: bool,
    silence_warnings: bool,
    fail_fast: bool,
    fix_result: bool,
    max_line_bytes: u64,
    held_bytes: usize,
    split_variations: bool,
    max_depth: u32,
    index: IndexImpl,
    select: Select,
    gate: Gate,
}

impl Default for FilterBuilder {
    fn default() -> Self {
        FilterBuilder::new()
    }
}

impl FilterBuilder {
    /// All six built-in passes, nothing else.
    pub fn new() -> FilterBuilder {
        FilterBuilder {
            format: Format::CtlPgn,
            columns: None,
            typographic: false,
            skip: Vec::new(),
            verify: None,
            extra: Vec::new(),
            strict: false,
            silence_warnings: false,
            fail_fast: false,
            fix_result: false,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            held_bytes: HELD_BYTES,
            split_variations: false,
            max_depth: DEFAULT_MAX_DEPTH,
            index: IndexImpl::best(),
            select: Select::default(),
            gate: Gate::default(),
        }
    }

    /// Leaves out the built-in pass `name` (one of [`PASS_NAMES`]).
    ///
    /// # Panics
    /// If `name` is not a built-in pass.
    pub fn skip_pass(mut self, name: &str) -> Self {
        let n = PASS_NAMES
            .iter()
            .find(|&&p| p == name)
            .unwrap_or_else(|| panic!("no built-in pass named {name}"));
        self.skip.push(n);
        self
    }

    /// Keeps comments (skips pass "comments").
    pub fn keep_comments(self, keep: bool) -> Self {
        if keep {
            self.skip_pass("comments")
        } else {
            self
        }
    }

    /// Keeps variations (skips pass "variations").
    pub fn keep_variations(self, keep: bool) -> Self {
        if keep {
            self.skip_pass("variations")
        } else {
            self
        }
    }

    /// Keeps ratings and NAGs (skips pass "ratings").
    pub fn keep_ratings(self, keep: bool) -> Self {
        if keep {
            self.skip_pass("ratings")
        } else {
            self
        }
    }

    /// Replays each game with `verify`, after the built-in passes (see
    /// [`Verify`]): the same as `.pass(Box::new(verify))`, without the
    /// dynamic dispatch.
    pub fn verify(mut self, verify: Verify) -> Self {
        self.verify = Some(verify);
        self
    }

    /// Appends a pass of your own after the built-in ones.
    pub fn pass(mut self, pass: Box<dyn Pass>) -> Self {
        self.extra.push(pass);
        self
    }

    /// Turns every warning into an error that rejects its game.
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Counts warnings (`Report::warnings`) without making their messages,
    /// so that they cost nothing more, and hands only errors and notes to
    /// the diagnostics callback (`-q`). Under [`FilterBuilder::strict`] a
    /// warning is an error still, with its message.
    ///
    /// ```
    /// use ctlpgn_filter::FilterBuilder;
    /// let game = b"1. E7-E13:\n*\n"; // no Variant tag: a warning
    /// let (_, diags, report) = FilterBuilder::new().silence_warnings(true).build().filter_bytes(game);
    /// assert_eq!((diags.len(), report.warnings), (0, 1));
    /// ```
    pub fn silence_warnings(mut self, silence: bool) -> Self {
        self.silence_warnings = silence;
        self
    }

    /// Writes the `Result` tag of a game whose end says otherwise (its
    /// result line, or its `#` move) with the result of that end, as
    /// pgn-extract's `--fixresulttags` does; the warning says so.
    ///
    /// ```
    /// use ctlpgn_filter::FilterBuilder;
    /// let game = b"[Variant \"C'escacs\"]\n[Result \"0-3\"]\n1. E7-E13#\n";
    /// let (out, d, _) = FilterBuilder::new().fix_result(true).build().filter_bytes(game);
    /// assert!(String::from_utf8(out).unwrap().contains("[Result \"3-0\"]"));
    /// assert_eq!(d[0].message, "the Result tag says 0-3 but the game ends 3-0: written 3-0");
    /// ```
    pub fn fix_result(mut self, fix: bool) -> Self {
        self.fix_result = fix;
        self
    }

    /// Writes every variation, at any depth, as a linear game of its own
    /// after its game, named by its path (see [`VARIATION_PATH_TAG`]); the
    /// game itself is written without them. An error read inside a
    /// variation rejects its game and those of the variations inside it,
    /// not the game, unless it breaks the game's structure (a `(` never
    /// closed). With [`FilterBuilder::verify`] each variation game is
    /// replayed, and one whose moves do not fit is rejected alone
    /// ([`Report::variations_rejected`]).
    ///
    /// ```
    /// use ctlpgn_filter::FilterBuilder;
    /// let game = b"[Variant \"C'escacs\"]\n[Id \"Cescacs-X02-V-en\"]\n\
    ///     1. E7-E13, E21-E15 (1. ..., F20-F16) 2. F8-F12:\n*\n";
    /// let (out, _, report) = FilterBuilder::new().split_variations(true).build().filter_bytes(game);
    /// assert_eq!(
    ///     String::from_utf8(out).unwrap(),
    ///     "[Variant \"C'escacs\"]\n[Id \"Cescacs-X02-V-en\"]\n\n1. E7-E13, E21-E15\n2. F8-F12:\n*\n\n\
    ///      [Variant \"C'escacs\"]\n[Id \"Cescacs-X02-V-S:1-en\"]\n\n1. E7-E13, F20-F16:\n*\n\n"
    /// );
    /// assert_eq!((report.games_written, report.variations_written), (1, 1));
    /// ```
    ///
    /// [`VARIATION_PATH_TAG`]: crate::VARIATION_PATH_TAG
    pub fn split_variations(mut self, split: bool) -> Self {
        self.split_variations = split;
        self
    }

    /// Rejects a game whose variations nest deeper than `depth` (a
    /// variation on the main line is at depth 1), with an error at the
    /// `(` past the limit; [`DEFAULT_MAX_DEPTH`] unless set. Whether
    /// variations are dropped, kept or split, the same games are rejected;
    /// past the limit the rest of the game's variations are only counted,
    /// so that a hostile nesting's output cannot grow with the square of
    /// its size (a kept variation shows its depth in dots, a split one
    /// repeats the moves of those around it).
    ///
    /// ```
    /// use ctlpgn_filter::FilterBuilder;
    /// let game = b"[Variant \"C'escacs\"]\n1. E7-E13: (1. F8-F12 (1. G7-G9))\n*\n";
    /// let (_, d, report) = FilterBuilder::new().max_depth(1).build().filter_bytes(game);
    /// assert_eq!(report.games_rejected, 1);
    /// assert_eq!((d[0].line, d[0].column), (2, 23));
    /// assert_eq!(
    ///     d[0].message,
    ///     "variations nested 2 deep: at most 1 (--max-depth N raises the limit)"
    /// );
    /// let (_, _, report) = FilterBuilder::new().max_depth(2).build().filter_bytes(game);
    /// assert_eq!(report.games_written, 1);
    /// ```
    pub fn max_depth(mut self, depth: u32) -> Self {
        self.max_depth = depth;
        self
    }

    /// Leaves out a game unless one of its tags named as `pattern` says
    /// matches it (`--tag`, `--player`); called again, one of the patterns
    /// for the same tags must hold, and every pattern for other tags
    /// ([`SelectTags`]).
    pub fn select_tag(mut self, pattern: TagPattern) -> Self {
        let mut patterns = self
            .select
            .tags
            .take()
            .map(SelectTags::into_patterns)
            .unwrap_or_default();
        patterns.push(pattern);
        self.select.tags = Some(SelectTags::new(patterns));
        self
    }

    /// Leaves out the games the selection ([`FilterBuilder::select_tag`],
    /// [`FilterBuilder::plies`], [`FilterBuilder::reaches`]) keeps, and
    /// keeps the others (`--invert`); counted as [`LeftOut::Inverted`](crate::LeftOut::Inverted).
    ///
    /// ```
    /// use ctlpgn_filter::{FilterBuilder, TagPattern};
    /// let mut f = FilterBuilder::new()
    ///     .select_tag(TagPattern::player("Sasal*").unwrap())
    ///     .invert(true)
    ///     .build();
    /// let (out, _, report) = f.filter_bytes(
    ///     b"[Variant \"C'escacs\"]\n[Black \"Sasal, Cesc\"]\n1. E7-E13:\n*\n\
    ///       [Variant \"C'escacs\"]\n[White \"Ros, Xus\"]\n1. E7-E13:\n*\n",
    /// );
    /// assert_eq!((report.games_written, report.left_out.inverted), (1, 1));
    /// assert!(String::from_utf8(out).unwrap().contains("Ros"));
    /// ```
    pub fn invert(mut self, invert: bool) -> Self {
        self.select.invert = invert;
        self
    }

    /// Leaves out a game written with a result `results` does not keep
    /// (`--result`, [`SelectResult`]); called again, either result.
    pub fn result(mut self, results: SelectResult) -> Self {
        self.select.result = Some(match self.select.result.take() {
            Some(r) => r.or(results),
            None => results,
        });
        self
    }

    /// Leaves out a game whose `Date` is outside `range`, or unknown at
    /// the precision it needs (`--date`, [`SelectDate`]).
    pub fn date(mut self, range: SelectDate) -> Self {
        self.select.date = Some(range);
        self
    }

    /// Leaves out a game whose main line has a number of half-moves
    /// outside `range` (`--plies`, [`SelectPlies`]).
    pub fn plies(mut self, range: RangeInclusive<u32>) -> Self {
        self.select.plies = Some(SelectPlies::new(range));
        self
    }

    /// Leaves out a game whose main line never passes through `position`
    /// (`--reaches`, [`Reaches`]).
    pub fn reaches(mut self, position: &Pdtl) -> Self {
        self.select.reaches = Some(Reaches::new(position));
        self
    }

    /// Leaves out a game whose start and main-line moves are those of a
    /// game written before (`--dedup`; what is compared: see the README),
    /// with a note naming the first copy; its bytes, as read, go to the
    /// duplicates sink ([`Sinks::duplicates`]). The games written before
    /// are those of this filter's [`Ledger`], from one input to the next.
    pub fn dedup(mut self, dedup: bool) -> Self {
        match (dedup, self.gate.dedup) {
            (true, None) => self.gate.dedup = Some(false),
            (false, _) => self.gate.dedup = None,
            _ => {}
        }
        self.select.dedup = self.gate.dedup.map(|_| DedupKey::default());
        self
    }

    /// With [`FilterBuilder::dedup`], games that end with another result
    /// (the result line written) are not duplicates (`--dedup-result`).
    pub fn dedup_result(mut self, result: bool) -> Self {
        if let Some(d) = &mut self.gate.dedup {
            *d = result;
        }
        self
    }

    /// Stops reading once `n` games are written (`--stop-after`): the
    /// rest of the input, and any input after it, is not read. Counted in
    /// this filter's [`Ledger`], from one input to the next.
    ///
    /// ```
    /// use ctlpgn_filter::FilterBuilder;
    /// let games = ["E7-E13", "E13xF16", "F8-F12", "G7-G13"]
    ///     .map(|m| format!("[Variant \"C'escacs\"]\n1. {m}:\n*\n"))
    ///     .concat();
    /// let mut filter = FilterBuilder::new().stop_after(Some(2)).build();
    /// let (out, _, report) = filter.filter_bytes(games.as_bytes());
    /// assert_eq!((report.games_read, report.games_written, report.games_rejected), (3, 2, 1));
    /// assert!(!String::from_utf8(out).unwrap().contains("G7-G13"));
    /// ```
    pub fn stop_after(mut self, n: Option<u64>) -> Self {
        self.gate.stop_after = n;
        self
    }

    /// What `dedup` and `stop_after` count on, shared with the other
    /// filters given the same ledger: one per input, or per `--jobs`
    /// worker, of one run. Without it a filter has a ledger of its own.
    pub fn ledger(mut self, ledger: Ledger) -> Self {
        self.gate.ledger = ledger;
        self
    }

    /// Chooses the output format.
    pub fn format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// The columns of a listing ([`Format::Tsv`], [`Format::Csv`]; by
    /// default [`Columns::default`]).
    ///
    /// ```
    /// use ctlpgn_filter::{Columns, FilterBuilder, Format};
    /// let mut f = FilterBuilder::new()
    ///     .format(Format::Tsv)
    ///     .columns(Columns::parse("White,result,plies,line").unwrap())
    ///     .build();
    /// let (out, _, _) = f.filter_bytes(b"[Variant \"C'escacs\"]\n[White \"Sasal, Cesc\"]\n1. E7-E13, E21-E15\n2. F8-F12#\n");
    /// assert_eq!(out, b"Sasal, Cesc\t3-0\t3\t1\n");
    /// ```
    pub fn columns(mut self, columns: Columns) -> Self {
        self.columns = Some(columns);
        self
    }

    /// Writes CTL-PGN's moves as the notation prints them: captures `×`
    /// (not `*`), and where Black moves first, `…` in White's place (not
    /// `...`); dashes stay `-`. Read again, the output gives the default
    /// output byte for byte. Ndjson is left as it is.
    ///
    /// ```
    /// use ctlpgn_filter::FilterBuilder;
    /// let mut filter = FilterBuilder::new().typographic(true).build();
    /// let (out, _, _) = filter.filter_bytes(b"1. ..., E21-E15 2. E7-E13, E15*E13:\n*\n");
    /// assert!(String::from_utf8(out).unwrap().contains("1. …, E21-E15\n2. E7-E13, E15×E13:\n"));
    /// ```
    pub fn typographic(mut self, typographic: bool) -> Self {
        self.typographic = typographic;
        self
    }

    /// Stops at the first rejected game.
    pub fn fail_fast(mut self, fail_fast: bool) -> Self {
        self.fail_fast = fail_fast;
        self
    }

    /// The longest line read, in bytes (its line end not counted; by
    /// default [`DEFAULT_MAX_LINE_BYTES`]): a longer line is never held whole, and
    /// rejects its game, whose bytes still go to the rejects as read.
    ///
    /// ```
    /// use ctlpgn_filter::FilterBuilder;
    /// let mut filter = FilterBuilder::new().max_line_bytes(24).build();
    /// let input = b"[Variant \"C'escacs\"] {a comment too long}\n*\n";
    /// let (mut out, mut rejects) = (Vec::new(), Vec::new());
    /// let report = filter
    ///     .run_with_rejects(&input[..], &mut out, Some(&mut rejects), &mut |_| {})
    ///     .unwrap();
    /// assert_eq!((out.len(), report.games_rejected), (0, 1));
    /// assert_eq!(rejects, input);
    /// ```
    pub fn max_line_bytes(mut self, bytes: u64) -> Self {
        self.max_line_bytes = bytes.max(1);
        self
    }

    /// How many bytes of a game's output the writer holds in memory until
    /// its verdict (of each part it lays out apart), the rest going to a
    /// temporary file: 1 MiB by default. The output is the same
    /// whatever it is: this is for the tests that check so.
    #[doc(hidden)]
    pub fn held_bytes(mut self, bytes: usize) -> Self {
        self.held_bytes = bytes;
        self
    }

    /// The implementation of the reader's structural index: one of
    /// [`index_implementations`] (the fastest by default). The output is
    /// the same with each: this is for the tests that check so.
    ///
    /// # Panics
    /// If `name` is not available on this machine.
    #[doc(hidden)]
    pub fn index_implementation(mut self, name: &str) -> Self {
        self.index = IndexImpl::named(name)
            .unwrap_or_else(|| panic!("no structural index implementation {name} here"));
        self
    }

    /// Might the filter leave a game out: a selection, `dedup`,
    /// `stop_after`, or a pass of your own (which may)?
    pub(crate) fn leaves_games_out(&self) -> bool {
        !self.select.is_idle() || self.gate.orders() || !self.extra.is_empty()
    }

    /// The filter.
    pub fn build(mut self) -> Filter {
        if let Some(t) = &mut self.select.tags {
            t.tell(&self.gate.ledger);
        }
        let on = |name: &str| !self.skip.contains(&name);
        let verify = self.verify;
        // Whoever replays or keys the main line takes every move: the
        // reader makes each as it reads it, not again on demand.
        let made_moves = verify.is_some()
            || self.select.dedup.is_some()
            || self.select.plies.is_some()
            || self.select.reaches.is_some();
        // Variation games end after the passes: the writer replays them,
        // and hands on their ends once the game's verdict is known.
        let hook = verify.as_ref().and_then(Verify::game_end_hook);
        let chain = Chain {
            redefine: on("redefine").then(|| Slot::new(UndoRedefine)),
            fan: on("fan").then(|| Slot::new(FanToLetters::default())),
            comments: on("comments").then(|| Slot::new(DropComments)),
            // Split, the variations are read (not dropped) for the writer.
            variations: (on("variations") && !self.split_variations)
                .then(|| Slot::new(DropVariations)),
            ratings: on("ratings").then(|| Slot::new(DropRatings)),
            ascii: on("ascii").then(|| Slot::new(AsciiSeparators)),
            verify: verify.map(Slot::new),
            select: (!self.select.is_idle()).then(|| Slot::new(self.select)),
            extra: self.extra.into_iter().map(Slot::new).collect(),
            ..Chain::default()
        };
        let mut writer = Writer::new(
            self.format,
            self.split_variations,
            hook,
            self.held_bytes,
            self.typographic,
        );
        if let Some(columns) = self.columns {
            writer.set_columns(columns);
        }
        Filter {
            reading: Settings {
                index: self.index,
                fix_result: self.fix_result,
                max_line_bytes: self.max_line_bytes,
                max_depth: self.max_depth,
                strict: self.strict,
                silence_warnings: self.silence_warnings,
                // Split variation games report at places long read: keep the game.
                keep_raw: self.split_variations,
                made_moves,
            },
            stages: Stages::new(chain, writer, self.gate),
            fail_fast: self.fail_fast,
        }
    }
}

/// What became of a game read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Written to the output.
    Written,
    /// Rejected for an error: nothing of it is written.
    Rejected,
    /// Left out by the selection, `--dedup` or a pass of your own.
    LeftOut(LeftOut),
}

impl Default for Filter {
    fn default() -> Self {
        FilterBuilder::new().build()
    }
}

impl Filter {
    /// Names the input in ndjson output (`"file"`); diagnostics are named
    /// by whoever prints them.
    pub fn set_file_name(&mut self, name: &str) {
        self.stages.writer.file.clear();
        self.stages.writer.file.push_str(name);
    }

    /// Watches `cut` for an input that ends early (see [`CutShort`]); `None`
    /// for one read to its true end.
    pub fn set_cut_short(&mut self, cut: Option<CutShort>) {
        self.stages.cut_short = cut;
    }

    /// The names of the passes in the chain, in order.
    pub fn pass_names(&self) -> Vec<&'static str> {
        self.stages.chain.names()
    }

    /// What this filter's `dedup` and `stop_after` count on.
    pub fn ledger(&self) -> &Ledger {
        &self.stages.gate.ledger
    }

    /// Filters `input` into `out`, handing each diagnostic to `on_diagnostic`
    /// as its game ends. I/O errors end the run; bad games do not.
    pub fn run(
        &mut self,
        input: impl Read,
        out: &mut dyn Write,
        on_diagnostic: &mut dyn FnMut(&Diagnostic),
    ) -> io::Result<Report> {
        self.run_with_rejects(input, out, None, on_diagnostic)
    }

    /// Like [`Filter::run`], and writes each rejected game's bytes, exactly
    /// as read (from its first byte to the next game's), to `rejects`.
    pub fn run_with_rejects<'a>(
        &'a mut self,
        input: impl Read,
        out: &'a mut dyn Write,
        rejects: Option<&'a mut dyn Write>,
        on_diagnostic: &'a mut dyn FnMut(&Diagnostic),
    ) -> io::Result<Report> {
        self.run_from(Origin::START, input, out, rejects, on_diagnostic)
    }

    /// Like [`Filter::run_with_rejects`], for input that continues a stream
    /// at `origin` (a game boundary): positions in diagnostics are the
    /// whole stream's.
    pub fn run_from<'a>(
        &'a mut self,
        origin: Origin,
        input: impl Read,
        out: &'a mut dyn Write,
        rejects: Option<&'a mut dyn Write>,
        on_diagnostic: &'a mut dyn FnMut(&Diagnostic),
    ) -> io::Result<Report> {
        let sinks = Sinks {
            out,
            rejects,
            duplicates: None,
            on_diagnostic,
        };
        self.run_into(origin, input, sinks)
    }

    /// The run all the others are: `input`, a piece of a stream from
    /// `origin`, into `sinks`. Once `stop_after` has let its count of games
    /// through, nothing is read.
    ///
    /// ```
    /// use ctlpgn_filter::{FilterBuilder, Origin, Sinks};
    /// let game = "[Variant \"C'escacs\"]\n[Round \"1\"]\n1. E7-E13:\n*\n";
    /// let copy = game.replace("\"1\"", "\"2\"").replace("E13:", "E13 !:");
    /// let input = format!("{game}{copy}");
    /// let (mut out, mut duplicates, mut notes) = (Vec::new(), Vec::new(), Vec::new());
    /// let sinks = Sinks {
    ///     out: &mut out,
    ///     rejects: None,
    ///     duplicates: Some(&mut duplicates),
    ///     on_diagnostic: &mut |d| notes.push(d.render("games.ctl-pgn")),
    /// };
    /// let mut filter = FilterBuilder::new().dedup(true).build();
    /// filter.set_file_name("games.ctl-pgn");
    /// let report = filter.run_into(Origin::START, input.as_bytes(), sinks).unwrap();
    /// assert_eq!((report.games_written, report.left_out.duplicates), (1, 1));
    /// assert_eq!(duplicates, copy.as_bytes());
    /// assert_eq!(
    ///     notes,
    ///     ["games.ctl-pgn:5:1: note: a duplicate of the game at games.ctl-pgn:1 \
    ///       (the same start and moves): left out\n"]
    /// );
    /// ```
    pub fn run_into<'a>(
        &'a mut self,
        origin: Origin,
        input: impl Read,
        sinks: Sinks<'a>,
    ) -> io::Result<Report> {
        if self.stages.gate.closed() {
            return Ok(Report::default());
        }
        let (report, _) = self.read(Resume::from(origin), Until::End, input, sinks)?;
        Ok(report)
    }

    /// Reads `src` from `resume` as far as `until` says, into `sinks`:
    /// the counts of the games read, and where reading stopped.
    pub(crate) fn read<R: Read>(
        &mut self,
        resume: Resume,
        until: Until<'_>,
        src: R,
        mut sinks: Sinks<'_>,
    ) -> io::Result<(Report, Stop)> {
        let mut set = self.reading;
        set.keep_raw |= sinks.rejects.is_some() || sinks.duplicates.is_some();
        let cut_short = self.stages.cut_short.clone();
        let mut reader = Reader::resumed(set, resume, until, cut_short, src);
        self.stages.before = Report::default();
        while let Some(decided) = reader.read_game(self)? {
            let (_, stop) = self.write_game(&mut reader, decided, &mut sinks)?;
            if stop {
                return Ok((self.stages.before, Stop::FailFast));
            }
        }
        Ok((self.stages.before, reader.stop()))
    }

    /// Writes the game `reader` read last as `decided`: written, rejected
    /// (its bytes as read to the rejects), or left out (a duplicate's
    /// bytes as read to the duplicates); hands on its diagnostics, and
    /// counts it. Returns what became of it, and whether reading stops
    /// after it.
    pub(crate) fn write_game<R: Read>(
        &mut self,
        reader: &mut Reader<'_, R>,
        decided: Decided,
        sinks: &mut Sinks<'_>,
    ) -> io::Result<(Fate, bool)> {
        let Decided {
            verdict,
            result,
            variations: (variations, variations_failed),
            mut counts,
        } = decided;
        if let (true, Some(aside)) = (verdict.aside, sinks.duplicates.as_mut()) {
            reader.write_game(*aside)?;
        }
        let cx = reader.context_mut();
        let rejected = cx.has_error();
        let fate = match verdict.left_out {
            Some(reason) => Fate::LeftOut(reason),
            None if rejected => Fate::Rejected,
            None => Fate::Written,
        };
        if let Some(reason) = verdict.left_out {
            counts.left_out.count(reason);
            if let Some(note) = &verdict.note {
                (sinks.on_diagnostic)(note);
            }
        } else if rejected {
            counts.games_rejected += 1;
            if let Some(rejects) = sinks.rejects.as_mut() {
                reader.write_game(*rejects)?;
            }
            // The first error says why; nothing of the game is written.
            let cx = reader.context();
            if let Some(d) = cx
                .diagnostics
                .iter()
                .find(|d| d.severity == Severity::Error)
            {
                (sinks.on_diagnostic)(d);
            }
        } else {
            self.stages.writer.finish(result, sinks.out)?;
            counts.games_written += 1;
            counts.variations_written += variations - variations_failed;
            counts.variations_rejected += variations_failed;
            // Their paths, as long as their depth each, only when written.
            if let (true, Some(rejects)) = (variations_failed > 0, sinks.rejects.as_mut()) {
                let paths = self.stages.writer.failed_variations();
                writeln!(
                    rejects,
                    "{{ctlpgn-filter: variation games rejected: {paths}}}"
                )?;
                reader.write_game(*rejects)?;
            }
            let cx = reader.context_mut();
            counts.warnings += u64::from(cx.silent_warnings);
            cx.diagnostics.sort_by_key(|d| (d.line, d.column));
            for d in &cx.diagnostics {
                counts.warnings += u64::from(d.severity == Severity::Warning);
                (sinks.on_diagnostic)(d);
            }
        }
        self.stages.before.add(&counts);
        let stop = (rejected || variations_failed > 0) && self.fail_fast || verdict.stop;
        Ok((fate, stop))
    }

    /// Filters a whole byte slice; returns the output, the diagnostics and
    /// the counts. Handy in tests and for small inputs.
    pub fn filter_bytes(&mut self, input: &[u8]) -> (Vec<u8>, Vec<Diagnostic>, Report) {
        let mut out = Vec::new();
        let mut diags = Vec::new();
        let report = self
            .run(input, &mut out, &mut |d| diags.push(d.clone()))
            .expect("writing to memory does not fail");
        (out, diags, report)
    }
}

/// Hands its bytes out a few at a time (1 to 4093, varying), as a pipe
/// may: for the tests of the reading and chunking.
#[cfg(test)]
pub(crate) struct Trickle<'a>(pub &'a [u8], pub usize);

#[cfg(test)]
impl io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.1 = (self.1 * 31 + 7) % 4093;
        let n = (self.1 + 1).min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::INITIAL_PDTL;
    use std::io::BufReader;

    #[test]
    fn output_is_the_same_however_the_input_arrives() {
        let game = "[Variant \"C'escacs\"]\n{ a comment\nover lines }\n1. E7‐E13 ?!, E21-E15 (1. ..., F20-F16\n.{ inside }\n) 2. F8-F12:\n*\n\n";
        let mut input = game.repeat(300).into_bytes();
        // A comment quoting games, and one never closed.
        input.extend_from_slice(
            b"{ quoted:\n[Variant \"C'escacs\"]\n1. F8-F12:\n*\n}\n[Variant \"C'escacs\"]\n1. E7-E13: *\n\
              { never closed\n[Variant \"C'escacs\"]\n1. F8-F12:\n*\n",
        );
        input.extend_from_slice(b"[Variant \"C'escacs\"]\n\n1. E7-E13:");
        let whole = Filter::default().filter_bytes(&input);
        for capacity in [1, 7, 64, 1000, 4096] {
            let mut out = Vec::new();
            let mut diags = Vec::new();
            let report = Filter::default()
                .run(
                    BufReader::with_capacity(capacity, Trickle(&input, 0)),
                    &mut out,
                    &mut |d| diags.push(d.clone()),
                )
                .unwrap();
            assert!(out == whole.0, "capacity {capacity}");
            assert_eq!(
                (diags, report),
                (whole.1.clone(), whole.2),
                "capacity {capacity}"
            );
        }
    }

    /// The `--dedup` key of `game`.
    fn key_of(game: &str) -> u128 {
        let mut f = FilterBuilder::new().dedup(true).build();
        f.filter_bytes(game.as_bytes());
        f.stages
            .chain
            .select
            .as_ref()
            .unwrap()
            .pass
            .dedup
            .as_ref()
            .unwrap()
            .key(None)
    }

    #[test]
    fn marks_ratings_numbers_and_layout_do_not_change_the_key() {
        let plain = key_of("[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n2. DB10-D10+:\n*\n");
        for same in [
            "1. E7‐E13 ?!, E21-E15 { hm }\n2. DB10-D10+∞\n",
            // Unicode separators on whole move lines, read as one token.
            "1. E7‐E13, E21−E15\n2. DB10-D10+\n",
            "1. E7-E13\n1. ..., E21-E15 2. DB10‐D10++:\n",
            "[Variant \"C'escacs\"] [Event \"x\"]\n5. E7-E13, E21-E15 6. DB10-D10# 3-0",
            "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15 (1. ..., F20-F16) 2. DB10-D10 $1 (=):\n",
            // The initial setup written as a PDTL is no PDTL.
            &format!("[PDTL \"{INITIAL_PDTL}\"]\n1. E7-E13, E21-E15\n2. DB10-D10:\n"),
        ] {
            assert_eq!(key_of(same), plain, "{same}");
        }
        for other in [
            "1. E7-E13, E21-E15\n",
            "1. E7-E13, E21-E15\n2. DB10-D11:\n",
            "1. E7-E13, E21-E15\n2. DB10*D10:\n",
            "1. E7-E13, E21-E15\n2. DB10×D10:\n",
            "1. E21-E15, E7-E13\n2. DB10-D10:\n",
            "[PDTL \"/27:1k/1:DK/ w - - 0 1\"]\n1. E7-E13, E21-E15\n2. DB10-D10:\n",
        ] {
            assert_ne!(key_of(other), plain, "{other}");
        }
    }

    #[test]
    fn the_reader_s_excerpts_show_control_bytes_escaped() {
        let input = b"[Variant \"C'escacs\"]\n1. E7-E13\x1b[2J, E21-E15:\n*\n";
        let (_, diags, _) = Filter::default().filter_bytes(input);
        assert!(!diags.is_empty());
        for d in &diags {
            let r = d.render("f");
            assert!(!r.contains('\x1b'), "{r:?}");
            assert!(r.contains("\\x1b[2J"), "{r:?}");
        }
    }
}
