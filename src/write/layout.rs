//! The layouts a game is written in, one of them in use at a time.

use super::ctl::CtlPgn;
use super::json::Ndjson;
use super::table::Table;
use crate::grammar::model::{HalfMove, Outcome};
use crate::pass::{Tag, Variation};
use crate::pdtl::Pdtl;
use crate::read::Source;
use std::io::{self, Write};

/// One of the layouts of a game.
#[derive(Debug)]
pub(super) enum Layout {
    CtlPgn(CtlPgn),
    Ndjson(Ndjson),
    /// A listing, or a count.
    Table(Table),
}

/// Calls the same method of whichever layout is in use.
macro_rules! laid_out {
    ($self:expr, $w:ident => $call:expr) => {
        match $self {
            Layout::CtlPgn($w) => $call,
            Layout::Ndjson($w) => $call,
            Layout::Table($w) => $call,
        }
    };
}
pub(super) use laid_out;

impl Layout {
    #[inline]
    pub(super) fn settle(&mut self, src: Source<'_>) {
        if let Layout::CtlPgn(w) = self {
            w.settle(src);
        }
    }

    pub(super) fn begin(&mut self) {
        laid_out!(self, w => w.begin())
    }

    pub(super) fn tag(&mut self, tag: &Tag<'_>) {
        laid_out!(self, w => w.tag(tag))
    }

    pub(super) fn setup(&mut self, pdtl: &Pdtl) {
        laid_out!(self, w => w.setup(pdtl))
    }

    #[inline]
    pub(super) fn half_move(&mut self, mv: &HalfMove, depth: u32, text: Option<&[u8]>) {
        laid_out!(self, w => w.half_move(mv, depth, text))
    }

    /// Main-line half-moves laid out from their moves.
    pub(super) fn half_moves(&mut self, moves: &[HalfMove]) {
        for mv in moves {
            self.half_move(mv, 0, None);
        }
    }

    pub(super) fn variation(&mut self, edge: Variation, depth: u32) {
        laid_out!(self, w => w.variation(edge, depth))
    }

    pub(super) fn comment(&mut self, text: &[u8], depth: u32, after_result: bool) {
        laid_out!(self, w => w.comment(text, depth, after_result))
    }

    pub(super) fn comment_open(&mut self, depth: u32, after_result: bool) {
        laid_out!(self, w => w.comment_open(depth, after_result))
    }

    pub(super) fn comment_piece(&mut self, text: &[u8]) {
        laid_out!(self, w => w.comment_piece(text))
    }

    pub(super) fn comment_close(&mut self) {
        laid_out!(self, w => w.comment_close())
    }

    /// Writes the game: `file` and `line` name it in ndjson, with `path`
    /// when it is a variation game.
    pub(super) fn finish(
        &mut self,
        result: Outcome,
        file: &str,
        line: u64,
        path: &[u32],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        match self {
            Layout::CtlPgn(w) => w.finish(result, out),
            Layout::Ndjson(w) => w.finish(file, line, path, result, out),
            Layout::Table(w) => w.finish(result, file, line, out),
        }
    }
}
