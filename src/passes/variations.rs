//! Pass "variations": drop RAVs `( ... )`.

use crate::pass::{Context, Flow, Interest, Pass, Variation};

/// Drops every variation with all it holds: the reader then skips them by
/// counting depth, without lexing what is inside.
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

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::VARIATIONS
    }

    fn drops(&self) -> Interest {
        Interest::VARIATIONS
    }

    fn variation(&mut self, _edge: Variation, _cx: &mut Context) -> Flow {
        Flow::Drop
    }
}
