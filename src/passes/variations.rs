//! Pass "variations": drop RAVs `( ... )`.

use crate::model::HalfMove;
use crate::pass::{Context, Flow, Pass, Variation};

/// Drops every variation with all it holds. The reader skips them by
/// counting depth; this pass also drops whatever reaches it from inside one.
///
/// ```
/// let (out, _, _) = ctlpgn_filter::Filter::default().filter_bytes(b"1. E7-E13 (1. F8-F12 (1. G7-G13)) 1. ..., E21-E15:\n");
/// assert!(String::from_utf8(out).unwrap().contains("1. E7-E13, E21-E15:"));
/// ```
#[derive(Debug, Default)]
pub struct DropVariations;

impl Pass for DropVariations {
    fn name(&self) -> &'static str {
        "variations"
    }

    fn drops_variations(&self) -> bool {
        true
    }

    fn variation(&mut self, _edge: Variation, _cx: &mut Context) -> Flow {
        Flow::Drop
    }

    fn variation_number(&mut self, _number: u32, _cx: &mut Context) -> Flow {
        Flow::Drop
    }

    fn half_move(&mut self, _mv: &mut HalfMove, cx: &mut Context) -> Flow {
        if cx.depth > 0 {
            Flow::Drop
        } else {
            Flow::Keep
        }
    }

    fn comment(&mut self, _text: &mut [u8], cx: &mut Context) -> Flow {
        if cx.depth > 0 {
            Flow::Drop
        } else {
            Flow::Keep
        }
    }
}
