//! Pass "ratings": drop move ratings and NAGs.

use crate::grammar::half_move::Traits;
use crate::grammar::model::HalfMove;
use crate::pass::{Context, Flow, Interest, Pass};

/// Removes `?`, `!?`, `◇`... and `$n` from every half-move.
///
/// ```
/// let (out, _, _) = ctlpgn_filter::Filter::default().filter_bytes(b"1. H6-H12 ?! $6, I23-I19!!:\n");
/// assert!(String::from_utf8(out).unwrap().contains("1. H6-H12, I23-I19:"));
/// ```
#[derive(Debug, Default)]
pub struct DropRatings;

impl Pass for DropRatings {
    fn name(&self) -> &'static str {
        "ratings"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::moves_with(Traits::RATED)
    }

    fn half_move(&mut self, mv: &mut HalfMove, _cx: &mut Context) -> Flow {
        mv.rating = None;
        mv.nag_count = 0;
        Flow::Keep
    }
}
