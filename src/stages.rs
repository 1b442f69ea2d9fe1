//! The filter as the reader's visitor: each item read goes through the
//! pass chain to the writer, and each game, once read, to the gate that
//! gives it its verdict.

use crate::grammar::half_move::Traits;
use crate::grammar::model::{HalfMove, Outcome, Text};
use crate::pass::{Context, Flow, Interest, Variation};
use crate::passes::ledger::{Gate, Verdict};
use crate::passes::Chain;
use crate::pdtl::Pdtl;
use crate::read::{GameEnd, MoveRead, Settings, Skip, Source, TagRead, VariationError, Visitor};
use crate::report::{CutShort, Report};
use crate::write::{push_lines, Writer};

/// A configured filter; reusable over many inputs, one after the other.
///
/// ```
/// let mut filter = ctlpgn_filter::Filter::default();
/// let mut out = Vec::new();
/// let report = filter
///     .run(&b"1. E7-E13:\n*\n"[..], &mut out, &mut |d| eprint!("{}", d.render("-")))
///     .unwrap();
/// assert_eq!(report.warnings, 1); // no Variant tag: added
/// assert_eq!(out, b"[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n\n");
/// ```
pub struct Filter {
    pub(crate) stages: Stages,
    pub(crate) reading: Settings,
    /// Stop at the first rejected game.
    pub(crate) fail_fast: bool,
}

pub(crate) struct Stages {
    pub chain: Chain,
    pub writer: Writer,
    pub gate: Gate,
    /// Whether the input being read ends early.
    pub cut_short: Option<CutShort>,
    /// What the filter counts of the game being read (ratings and
    /// comments dropped), and of the games before it in this run.
    pub counts: Report,
    pub before: Report,
    /// The game's tags are not over: its comments are held until they
    /// are, for a Redefine may yet come that their `~X` references need.
    in_tags: bool,
    /// The comment open, and the comments held among the tags.
    comment: Comment,
    held: Vec<u8>,
    held_ends: Vec<usize>,
    scratch: Vec<u8>,
    /// Some pass drops every comment, every variation: the reader skips them.
    drops_comments: bool,
    drops_variations: bool,
}

/// Where the pieces of the comment open go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Route {
    /// To the writer, as they come.
    #[default]
    Writer,
    /// Gathered whole, for the passes that want comments, or for a writer
    /// that takes them whole (a variation game's).
    Whole,
    /// Gathered whole, and held until the tags are over.
    Held,
}

/// The comment open.
#[derive(Debug, Default)]
struct Comment {
    into: Route,
    depth: u32,
    after_result: bool,
    text: Vec<u8>,
}

/// What the filter made of a game: its verdict, and what the writer and
/// the counts need to write it.
pub struct Decided {
    pub(crate) verdict: Verdict,
    pub(crate) result: Outcome,
    /// Its variation games (`--split-variations`), and how many failed to replay.
    pub(crate) variations: (u64, u64),
    /// What was counted of it, by the reader and the passes.
    pub(crate) counts: Report,
}

impl Stages {
    pub fn new(chain: Chain, writer: Writer, gate: Gate) -> Stages {
        Stages {
            drops_comments: chain.drops(Interest::COMMENTS),
            drops_variations: chain.drops(Interest::VARIATIONS),
            chain,
            writer,
            gate,
            cut_short: None,
            counts: Report::default(),
            before: Report::default(),
            in_tags: false,
            comment: Comment::default(),
            held: Vec::new(),
            held_ends: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// A comment's text (line ends written `\n`) to the passes that want
    /// comments, then the writer.
    fn pass_comment(&mut self, text: &[u8], depth: u32, after_result: bool, cx: &mut Context) {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        push_lines(&mut scratch, text);
        cx.depth = depth;
        if self.chain.comment(&mut scratch, cx) == Flow::Keep {
            self.writer.comment(&scratch, depth, after_result);
        } else {
            self.counts.comments_dropped += 1;
        }
        self.scratch = scratch;
    }

    /// A half-move through the passes that want it: how it goes on, with
    /// its text as read when that is still what is written (`respell`:
    /// but for its separator, now ASCII).
    #[inline(never)]
    fn chain_half_move(
        &mut self,
        mv: &mut HalfMove,
        traits: Traits,
        text: &mut Option<(u64, u64)>,
        respell: &mut bool,
        cx: &mut Context,
    ) -> Flow {
        let ratings = |mv: &HalfMove| u64::from(mv.rating.is_some()) + u64::from(mv.nag_count);
        let (action, check, rated) = (mv.action, mv.check, ratings(mv));
        let flow = self.chain.half_move(mv, traits, cx);
        self.counts.ratings_dropped += rated - ratings(mv);
        // The text as read is the move's as long as no pass changed it, or
        // only its separator, a Unicode one (found as its first character
        // not ASCII).
        if mv.action != action || mv.check != check {
            let unicode = traits.intersects(Traits::UNICODE_SEPARATOR);
            if unicode && mv.check == check && mv.action.same_but_separator(&action) {
                *respell = true;
            } else {
                *text = None;
            }
        }
        flow
    }

    /// A half-move through the passes that want it, then to the writer;
    /// `replayed` when verify has had it already.
    #[inline(never)]
    fn half_move_through_passes(&mut self, m: &MoveRead<'_>, replayed: bool, cx: &mut Context) {
        let wants_move = self.chain.wants_move(m.traits());
        let replays = !replayed && self.chain.replays;
        // A word read plain is made into its move only for whoever reads
        // the move: a pass, verify's replay, the split variations; a layout
        // writes the text as read, with the number, side and annotations.
        let reads =
            wants_move || replays || self.chain.wants_main_line() || self.writer.reads_moves();
        let mut mv = if reads { m.half_move() } else { *m.unmade() };
        let (mut text, mut respell) = (m.text_span(), false);
        cx.depth = m.depth;
        if !wants_move {
            if replays {
                self.chain.replay(&mv, cx);
            }
        } else if mv.action.separator().is_some() && self.chain.only_respells(m.traits()) {
            // All the passes would do is write its separator in ASCII.
            mv.action.respell_ascii();
            respell = true;
            if replays {
                self.chain.replay(&mv, cx);
            }
        } else {
            let flow = self.chain_half_move(&mut mv, m.traits(), &mut text, &mut respell, cx);
            if flow == Flow::Drop {
                return;
            }
        }
        self.write_half_move(m, &mv, text, respell, cx);
    }

    /// Verify's replay of a main-line half-move that no other pass wants
    /// (or that they would only write with an ASCII separator, `ascii`).
    #[inline(never)]
    fn replay(&mut self, m: &MoveRead<'_>, ascii: bool, cx: &mut Context) {
        cx.depth = 0;
        match m.made() {
            Some(mv) if !ascii => self.chain.replay(mv, cx),
            _ => self.chain.replay(&copied_move(m, ascii), cx),
        }
    }

    /// `mv`, read as `m`, once the passes have had it: to the passes that
    /// read the main line, and to the writer, with its text as read when
    /// that is still what is written (`respell`: but for its separator,
    /// now ASCII).
    fn write_half_move(
        &mut self,
        m: &MoveRead<'_>,
        mv: &HalfMove,
        text: Option<(u64, u64)>,
        respell: bool,
        cx: &Context,
    ) {
        if cx.has_error() {
            // Nothing of a game rejected is written.
            return;
        }
        self.chain.main_line_move(mv, m.depth);
        let mut t = Text::default();
        let text = text.map(|(from, to)| match mv.action.separator() {
            Some(sep) if respell => {
                t.respelled(m.src.slice(from, to), sep);
                t.as_bytes()
            }
            _ => m.src.slice(from, to),
        });
        self.writer.half_move(mv, m.depth, text, m.src);
    }

    /// The verdict on the game that ends, its passes run, at the reader's
    /// one question: is it left out (by a pass, or as a duplicate), does it
    /// go aside as read, is it the last `--stop-after` lets through?
    /// `result` is the result line written, `at` says where its first byte
    /// is (line and column: asked only when a verdict may name the game),
    /// `removable` whether the games beside it read the same without it.
    fn verdict(
        &mut self,
        result: Outcome,
        at: impl FnOnce() -> (u64, u64),
        removable: bool,
        cx: &mut Context,
    ) -> Verdict {
        let Stages {
            chain,
            gate,
            writer,
            before,
            ..
        } = self;
        // The passes learn the result written first: `--result` may
        // still leave the game out.
        chain.result_written(result, cx);
        let writable = !cx.has_error() && cx.left_out().is_none();
        let v = if gate.orders() || gate.cut {
            let key = chain
                .dedup_key(gate.result_counts(result))
                .filter(|_| writable);
            gate.verdict(cx, key, at(), &writer.file, before, removable)
        } else {
            Verdict {
                left_out: cx.left_out().filter(|_| !cx.has_error()),
                ..Verdict::default()
            }
        };
        let left_out = v.left_out.is_some();
        chain.verdict(left_out, cx);
        if !left_out && !cx.has_error() {
            // After the main line's end, the ends of the variation games,
            // which only a game written has.
            writer.variation_ends(cx);
        }
        v
    }
}

/// The main-line move `m` that the writer copies as read: as the passes
/// would leave it, its separator in ASCII when `ascii`.
fn copied_move(m: &MoveRead<'_>, ascii: bool) -> HalfMove {
    let mut mv = m.half_move();
    if ascii {
        mv.action.respell_ascii();
    }
    mv
}

impl Visitor for Filter {
    type Output = Decided;

    fn begin_game(&mut self, cx: &mut Context) {
        self.stages.counts = Report::default();
        self.stages.in_tags = true;
        self.stages.held.clear();
        self.stages.held_ends.clear();
        self.stages.chain.begin_game(cx);
        self.stages.writer.begin(cx.game_start.line);
    }

    fn tag(&mut self, t: &TagRead<'_>, cx: &mut Context) {
        if self.stages.chain.tag(&t.tag, t.meaningful, cx) == Flow::Keep {
            self.stages.writer.tag(&t.tag, t.as_written, t.src);
        }
    }

    fn setup(&mut self, pdtl: &mut Pdtl, src: Source<'_>, cx: &mut Context) {
        self.stages.chain.setup(pdtl, cx);
        self.stages.writer.setup(pdtl, src);
    }

    fn end_tags(&mut self, cx: &mut Context) {
        self.stages.in_tags = false;
        self.stages.chain.movetext_begins(cx);
        // The comments held among the tags go on, now that the tags are over.
        if !self.stages.held_ends.is_empty() {
            let text = std::mem::take(&mut self.stages.held);
            let ends = std::mem::take(&mut self.stages.held_ends);
            let mut from = 0;
            for &to in &ends {
                self.stages.pass_comment(&text[from..to], 0, false, cx);
                from = to;
            }
            (self.stages.held, self.stages.held_ends) = (text, ends);
        }
    }

    #[inline]
    fn half_move(&mut self, m: &MoveRead<'_>, cx: &mut Context) {
        let s = &mut self.stages;
        let traits = m.traits();
        let mut replayed = false;
        // A main-line move as read that no pass wants (but verify, which
        // only reads it), or that they would only write with an ASCII
        // separator: the writer may copy it.
        if let (Some(text), 0) = (m.text_span(), m.depth) {
            let ascii = s.chain.wants_move(traits);
            if (!ascii || s.chain.only_respells(traits)) && !cx.has_error() {
                // Verify replays it first: the writer copies only a move
                // that fits.
                replayed = s.chain.replays;
                if replayed {
                    s.replay(m, ascii, cx);
                }
                if !cx.has_error() && s.writer.move_as_read(m.unmade(), text, ascii, m.src) {
                    if s.chain.wants_main_line() {
                        s.chain.main_line_move(&copied_move(m, ascii), 0);
                    }
                    return;
                }
            }
        }
        self.stages.half_move_through_passes(m, replayed, cx);
    }

    fn begin_comment(
        &mut self,
        depth: u32,
        after_result: bool,
        src: Source<'_>,
        _cx: &mut Context,
    ) -> Skip {
        if self.stages.drops_comments {
            self.stages.counts.comments_dropped += 1;
            return Skip(true);
        }
        self.stages.writer.settle(src);
        let into = if self.stages.in_tags && depth == 0 {
            Route::Held
        } else if self.stages.chain.wanted.contains(Interest::COMMENTS)
            || !self.stages.writer.takes_comment_pieces(depth)
        {
            Route::Whole
        } else {
            self.stages.writer.comment_open(depth, after_result);
            Route::Writer
        };
        let c = &mut self.stages.comment;
        (c.into, c.depth, c.after_result) = (into, depth, after_result);
        c.text.clear();
        Skip(false)
    }

    fn comment(&mut self, text: &[u8], _cx: &mut Context) {
        match self.stages.comment.into {
            Route::Writer => {
                let mut scratch = std::mem::take(&mut self.stages.scratch);
                scratch.clear();
                push_lines(&mut scratch, text);
                self.stages.writer.comment_piece(&scratch);
                self.stages.scratch = scratch;
            }
            Route::Whole | Route::Held => self.stages.comment.text.extend_from_slice(text),
        }
    }

    fn end_comment(&mut self, cx: &mut Context) {
        match self.stages.comment.into {
            Route::Writer => self.stages.writer.comment_close(),
            Route::Whole => {
                let text = std::mem::take(&mut self.stages.comment.text);
                let (depth, after) = (self.stages.comment.depth, self.stages.comment.after_result);
                self.stages.pass_comment(&text, depth, after, cx);
                self.stages.comment.text = text;
            }
            Route::Held => {
                push_lines(&mut self.stages.held, &self.stages.comment.text);
                self.stages.held_ends.push(self.stages.held.len());
            }
        }
    }

    fn begin_variation(
        &mut self,
        depth: u32,
        label: Option<u32>,
        src: Source<'_>,
        cx: &mut Context,
    ) -> Skip {
        if self.stages.drops_variations {
            return Skip(true);
        }
        self.stages.writer.settle(src);
        cx.depth = depth;
        let edge = Variation::Open { label };
        if self.stages.chain.variation(edge, cx) == Flow::Keep {
            self.stages.writer.variation(edge, depth);
        }
        Skip(false)
    }

    fn end_variation(&mut self, depth: u32, cx: &mut Context) {
        cx.depth = depth;
        if self.stages.chain.variation(Variation::Close, cx) == Flow::Keep {
            self.stages.writer.variation(Variation::Close, depth);
        }
    }

    fn variation_error(
        &mut self,
        at: VariationError,
        _cx: &mut Context,
    ) -> Result<(), crate::diag::Message> {
        if let Some((number, side, pos)) = at.unread {
            self.stages.writer.unread_half_move(number, side, pos);
        }
        self.stages.writer.variation_fault(at.pos, at.message)
    }

    fn end_game(&mut self, end: &mut GameEnd<'_>, cx: &mut Context) -> Decided {
        self.stages.writer.settle(end.src);
        if let Some(result) = end.fix_result_tag {
            self.stages.writer.fix_result_tag(result);
        }
        self.stages.chain.end_game(end.result_read, cx);
        let variations = if cx.has_error() {
            (0, 0)
        } else {
            let verify = self.stages.chain.verify.is_some();
            self.stages.writer.plan_variations(verify, cx)
        };
        let (result, removable) = (end.result, end.removable);
        let verdict = self
            .stages
            .verdict(result, || end.start_line_column(), removable, cx);
        end.left_out = verdict.left_out.is_some();
        if !end.left_out && !cx.has_error() {
            if let Some(v) = &self.stages.chain.verify {
                self.stages.writer.final_position(v.pass.position());
            }
        }
        let mut counts = end.counts;
        counts.add(&self.stages.counts);
        if self.stages.drops_comments {
            counts.comments_dropped += end.skipped_comments;
        }
        Decided {
            verdict,
            result: end.result,
            variations,
            counts,
        }
    }

    fn discard(&mut self, src: Source<'_>, _before: u64) {
        self.stages.writer.settle(src);
    }
}
