//! Pass "fan": FAN figurines to letters.

use crate::diag::Pos;
use crate::grammar::half_move::Traits;
use crate::grammar::model::HalfMove;
use crate::pass::{Context, Flow, Interest, Pass};
use crate::pdtl::Pdtl;

/// Turns figurines into standard letters: upper case in moves, the
/// figurine's colour in PDTL (the writer prints Black's in lower case).
/// A figurine in a game that did not declare `[Redefine "FAN"]`, a pawn's
/// included, is accepted with one warning per game.
///
/// ```
/// let input = "[Redefine \"FAN\"]\n1. ♗F6-C15, ♝F24-C17:\n";
/// let (out, diags, _) = ctlpgn_filter::Filter::default().filter_bytes(input.as_bytes());
/// assert!(String::from_utf8(out).unwrap().contains("1. JF6-C15, JF24-C17:"));
/// assert_eq!(diags.len(), 1); // only the missing Variant tag
/// ```
#[derive(Debug, Default)]
pub struct FanToLetters {
    warned: bool,
}

impl FanToLetters {
    /// A figurine was read at `at`: warned about, once a game, unless the
    /// game declared FAN.
    fn figurine_read(&mut self, cx: &mut Context, at: Pos) {
        if !cx.redefine.fan() && !self.warned {
            self.warned = true;
            let problem = "FAN figurine in a game without [Redefine \"FAN\"]";
            cx.warn_fixed(at, problem, "read as its letter");
        }
    }
}

impl Pass for FanToLetters {
    fn name(&self) -> &'static str {
        "fan"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::moves_with(Traits::FIGURINE)
    }

    fn begin_game(&mut self, _cx: &mut Context) {
        self.warned = false;
    }

    fn setup(&mut self, pdtl: &mut Pdtl, cx: &mut Context) {
        if pdtl.has_standard_glyphs() {
            return;
        }
        let at = pdtl.pos;
        for g in pdtl.glyphs_mut() {
            if g.fan.take().is_some() {
                self.figurine_read(cx, at);
            }
        }
    }

    fn half_move(&mut self, mv: &mut HalfMove, cx: &mut Context) -> Flow {
        // The move's text tells, for a pawn's figurine leaves no glyph.
        if cx.traits.intersects(Traits::FIGURINE) {
            self.figurine_read(cx, mv.pos);
        }
        for g in mv.glyphs_mut() {
            g.fan = None;
        }
        Flow::Keep
    }
}
