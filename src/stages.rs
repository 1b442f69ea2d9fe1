//! What the reader hands each game to: the pass chain, the context the
//! passes report to, the writer, and the gate that gives each game its
//! verdict. The filter holds one, the reader drives it; neither the
//! reader nor this knows the filter.

use crate::grammar::model::Outcome;
use crate::ledger::{Gate, Verdict};
use crate::passes::{Chain, Context};
use crate::report::{CutShort, Report};
use crate::write::Writer;

pub(crate) struct Stages {
    pub chain: Chain,
    pub cx: Context,
    pub writer: Writer,
    pub gate: Gate,
    /// Whether the input being read ends early.
    pub cut_short: Option<CutShort>,
}

impl Stages {
    /// The verdict on the game that ends, its passes run, at the reader's
    /// one question: is it left out (by a pass, or as a duplicate), does it
    /// go aside as read, is it the last `--stop-after` lets through?
    /// `result` is the result line written, `at` says where its first byte
    /// is (line and column: asked only when a verdict may name the game),
    /// `before` the counts of the games before it, `removable` whether the
    /// games beside it read the same without it.
    pub(crate) fn verdict(
        &mut self,
        result: Outcome,
        at: impl FnOnce() -> (u64, u64),
        before: &Report,
        removable: bool,
    ) -> Verdict {
        let Stages {
            chain,
            cx,
            gate,
            writer,
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
