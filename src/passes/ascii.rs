//! Pass "ascii": Unicode hyphens and × to ASCII.

use crate::grammar::half_move::Traits;
use crate::grammar::model::HalfMove;
use crate::pass::{Context, Flow, Interest, Pass};

/// Writes every dash as `-` and `×` as `*`.
///
/// ```
/// let (out, _, _) = ctlpgn_filter::Filter::default().filter_bytes("1. E7‐E13, E15×F16:\n".as_bytes());
/// assert!(String::from_utf8(out).unwrap().contains("1. E7-E13, E15*F16:"));
/// ```
#[derive(Debug, Default)]
pub struct AsciiSeparators;

impl Pass for AsciiSeparators {
    fn name(&self) -> &'static str {
        "ascii"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::moves_with(Traits::UNICODE_SEPARATOR)
    }

    fn only_respells_separators(&self) -> bool {
        true
    }

    fn half_move(&mut self, mv: &mut HalfMove, _cx: &mut Context) -> Flow {
        mv.action.respell_ascii();
        Flow::Keep
    }
}
