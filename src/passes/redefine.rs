//! Pass "redefine": undo `[Redefine "..."]`.

use crate::diag::{DiagnosticKind, Message, Pos};
use crate::grammar::alphabet::is_standard_letter;
use crate::grammar::half_move::Traits;
use crate::grammar::model::{Glyph, HalfMove};
use crate::grammar::token::TagMeaning;
use crate::pass::{Context, Flow, Interest, Pass, Tag};
use crate::pdtl::Pdtl;

/// Pass "redefine": drops `Redefine` tags and rewrites alternative letters
/// (moves, PDTL, and `~X` references in kept comments) to standard ones.
///
/// ```
/// let input = "[Redefine \"T@R\"]\n1. TA5-A9, A23-A19:\n";
/// let (out, _, _) = ctlpgn_filter::Filter::default().filter_bytes(input.as_bytes());
/// let out = String::from_utf8(out).unwrap();
/// assert!(out.contains("1. RA5-A9, A23-A19:")); // the column A is never rewritten
/// assert!(!out.contains("Redefine"));
/// ```
#[derive(Debug, Default)]
pub struct UndoRedefine;

impl UndoRedefine {
    fn glyph(g: &mut Glyph, cx: &mut Context, at: Pos) {
        if g.fan.is_some() {
            return;
        }
        match cx.redefine.resolve(g.letter) {
            Ok(s) => g.letter = s,
            Err(m) => cx.error(at, Message::new(DiagnosticKind::Redefine, m)),
        }
    }
}

impl Pass for UndoRedefine {
    fn name(&self) -> &'static str {
        "redefine"
    }

    fn interest(&self, cx: &Context) -> Interest {
        if cx.redefine.is_empty() {
            // Only to say which Redefine an alternative letter needs.
            Interest::moves_with(Traits::ALTERNATIVE_LETTER)
        } else {
            // A redefined standard letter is an error wherever it is.
            Interest::MOVES | Interest::COMMENTS
        }
    }

    fn tag(&mut self, tag: &Tag<'_>, _cx: &mut Context) -> Flow {
        if TagMeaning::of(tag.name.as_bytes()) == Some(TagMeaning::Redefine) {
            Flow::Drop
        } else {
            Flow::Keep
        }
    }

    fn setup(&mut self, pdtl: &mut Pdtl, cx: &mut Context) {
        let at = pdtl.pos;
        // Without a Redefine tag only an alternative letter has anything to
        // say (which Redefine it needs); standard letters stand.
        let redefined = !cx.redefine.is_empty();
        if !redefined && pdtl.has_standard_glyphs() {
            return;
        }
        // (`for_each`: a chained iterator's own loop, one for each part.)
        pdtl.glyphs_mut().for_each(|g| {
            if redefined || !is_standard_letter(g.letter) {
                Self::glyph(g, cx, at);
            }
        });
    }

    fn half_move(&mut self, mv: &mut HalfMove, cx: &mut Context) -> Flow {
        let at = mv.pos;
        for g in mv.glyphs_mut() {
            Self::glyph(g, cx, at);
        }
        Flow::Keep
    }

    fn comment(&mut self, text: &mut [u8], cx: &mut Context) -> Flow {
        if cx.redefine.is_empty() {
            return Flow::Keep;
        }
        // `~J`, `~gL5`, `~J[d]`: the letter after a tilde names a piece
        // (lower case for Black) when a letter or hex follows, or nothing.
        for i in 1..text.len() {
            if text[i - 1] != b'~' || !text[i].is_ascii_alphabetic() {
                continue;
            }
            let next = text.get(i + 1).copied().unwrap_or(b' ');
            // `~F14` is a hex: the letter is followed by a digit.
            if next.is_ascii_digit() {
                continue;
            }
            let upper = text[i].to_ascii_uppercase();
            if let Some(s) = cx.redefine.standard(upper) {
                text[i] = if text[i].is_ascii_lowercase() {
                    s.to_ascii_lowercase()
                } else {
                    s
                };
            }
        }
        Flow::Keep
    }
}
