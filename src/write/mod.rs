//! The writer of canonical CTL-PGN: what survives the passes, laid out one
//! way only. A game is held (in memory, past a bound in a temporary file:
//! [`held`]) and written whole, so that a game rejected half-way leaves
//! nothing behind.

mod ctl;
mod diagram;
mod format;
mod held;
mod json;
mod layout;
mod split;
mod table;
mod text;

use crate::diag::{Message, Pos};
use crate::grammar::model::{HalfMove, Outcome, Side};
use crate::pass::{Context, Tag, Variation};
use crate::pdtl::Pdtl;
use crate::read::Source;
use crate::verify::GameEndHook;
use ctl::CtlPgn;
pub use diagram::{Diagram, DiagramOptions, Marks, PieceStyle};
pub use format::Format;
use json::Ndjson;
use layout::{laid_out, Layout};
use split::Split;
pub use split::VARIATION_PATH_TAG;
pub use table::{Column, Columns, ColumnsError};
use table::{Listing, Table};
pub(crate) use text::push_lines;
pub use text::unescape_pgn;

/// How many bytes of a game's output are held in memory by default
/// ([`crate::FilterBuilder::held_bytes`]).
pub(crate) const HELD_BYTES: usize = held::Held::BOUND;
use std::io::{self, Write};

/// The writer: the game laid out in the format asked for.
#[derive(Debug)]
pub(crate) struct Writer {
    /// Input name, for ndjson's `file`.
    pub file: String,
    /// Input line where the game starts, for ndjson's `line`.
    line: u64,
    layout: Layout,
    /// `--split-variations`: the variations are recorded, not laid out.
    split: Option<Split>,
}

impl Writer {
    /// `hook`: [`Verify::on_game_end`]'s callback, called for each
    /// variation game replayed (`split_variations` with verify) of a game
    /// written ([`Writer::variation_ends`]).
    ///
    /// [`Verify::on_game_end`]: crate::Verify::on_game_end
    ///
    /// `held`: how many bytes of a game's output (of each of its parts)
    /// are held in memory before the rest goes to a temporary file.
    ///
    /// `typographic`: CTL-PGN's moves spelled as the notation prints them
    /// ([`crate::FilterBuilder::typographic`]); ndjson's stay canonical.
    pub fn new(
        format: Format,
        split_variations: bool,
        hook: Option<GameEndHook>,
        held: usize,
        typographic: bool,
    ) -> Writer {
        Writer {
            file: String::new(),
            line: 0,
            layout: match format {
                Format::CtlPgn => Layout::CtlPgn(CtlPgn::new(held, typographic)),
                Format::Ndjson => Layout::Ndjson(Ndjson::new(held)),
                Format::Tsv => Layout::Table(Table::new(Listing::Tsv, Columns::default())),
                Format::Csv => Layout::Table(Table::new(Listing::Csv, Columns::default())),
                Format::Count => Layout::Table(Table::new(Listing::Count, Columns::default())),
            },
            split: split_variations.then(|| Split::new(hook)),
        }
    }

    /// The columns of a listing ([`Format::Tsv`], [`Format::Csv`]).
    pub fn set_columns(&mut self, columns: Columns) {
        if let Layout::Table(t) = &mut self.layout {
            t.set_columns(columns);
        }
    }

    pub fn begin(&mut self, line: u64) {
        self.line = line;
        self.layout.begin();
        if let Some(s) = &mut self.split {
            s.begin();
        }
    }

    /// A tag pair; the `Variant` tag is the writer's own, written first.
    /// `as_written`: where its line is in `src`, when it reads as written.
    pub fn tag(&mut self, tag: &Tag<'_>, as_written: Option<(u64, u64)>, src: Source<'_>) {
        if tag.name == "Variant" {
            return;
        }
        match (&mut self.layout, as_written) {
            (Layout::CtlPgn(w), Some(line)) if self.split.is_none() => {
                w.tag_as_written(tag, line, src)
            }
            (layout, _) => {
                layout.settle(src);
                layout.tag(tag);
            }
        }
        if let Some(s) = &mut self.split {
            s.tag(tag);
        }
    }

    /// What it holds of `src` not yet copied, copied: before the reader
    /// lets go of it, or anything else is written.
    #[inline]
    pub fn settle(&mut self, src: Source<'_>) {
        self.layout.settle(src);
    }

    /// The game's final position, as a replay left it: ndjson's
    /// `final_pdtl` (CTL-PGN has no place for it).
    pub fn final_position(&mut self, position: &impl std::fmt::Display) {
        if let Layout::Ndjson(w) = &mut self.layout {
            w.final_position(position);
        }
    }

    /// `--fix-result`: the `Result` tag, if written, says `result`.
    pub fn fix_result_tag(&mut self, result: Outcome) {
        laid_out!(&mut self.layout, w => w.fix_result_tag(result))
    }

    pub fn setup(&mut self, pdtl: &Pdtl, src: Source<'_>) {
        self.layout.settle(src);
        self.layout.setup(pdtl);
        if let Some(s) = &mut self.split {
            s.setup(pdtl);
        }
    }

    /// A half-move at variation `depth` (0: the main line); `text` is its
    /// move as [`HalfMove::write_move`] writes it, when the reader has it.
    #[inline]
    pub fn half_move(&mut self, mv: &HalfMove, depth: u32, text: Option<&[u8]>, src: Source<'_>) {
        self.layout.settle(src);
        if let Some(s) = &mut self.split {
            s.half_move(mv);
            if depth > 0 {
                return;
            }
        }
        self.layout.half_move(mv, depth, text)
    }

    /// Does it read a half-move's move, not only its text as read? The
    /// split variations replay it; the layouts write the text.
    #[inline]
    pub fn reads_moves(&self) -> bool {
        self.split.is_some()
    }

    /// A main-line half-move whose text (`text` in `src`) is written as
    /// read, with nothing after it but the end marker: copied, when the
    /// layout copies the input as read around it. Returns whether it was.
    /// With `ascii`, its separator is written in ASCII.
    #[inline]
    pub fn move_as_read(
        &mut self,
        mv: &HalfMove,
        text: (u64, u64),
        ascii: bool,
        src: Source<'_>,
    ) -> bool {
        match &mut self.layout {
            Layout::CtlPgn(w) if self.split.is_none() => w.move_as_read(mv, text, ascii, src),
            // A listing counts it, and takes nothing else of it.
            Layout::Table(t) if self.split.is_none() => t.ply_as_read(),
            _ => false,
        }
    }

    /// A variation opens or closes; `depth` is its own (1: on the main line).
    pub fn variation(&mut self, edge: Variation, depth: u32) {
        match &mut self.split {
            Some(s) => s.variation(edge),
            None => self.layout.variation(edge, depth),
        }
    }

    /// A comment's text, at variation `depth`, or after the result.
    pub fn comment(&mut self, text: &[u8], depth: u32, after_result: bool) {
        match &mut self.split {
            Some(s) if depth > 0 => s.comment(text),
            _ => self.layout.comment(text, depth, after_result),
        }
    }

    /// `--split-variations`: an error read inside the innermost variation
    /// open, kept to reject its game only ([`Split::fault`]); handed back
    /// when no variation is open, to reject the game.
    pub fn variation_fault(&mut self, pos: Pos, message: Message) -> Result<(), Message> {
        match &mut self.split {
            Some(s) => s.fault(pos, message),
            None => Err(message),
        }
    }

    /// `--split-variations`: a word inside a variation, at `pos`, where
    /// half-move `number` of `side` is due, is no half-move.
    pub fn unread_half_move(&mut self, number: u32, side: Side, pos: Pos) {
        if let Some(s) = &mut self.split {
            s.unread_half_move(number, side, pos);
        }
    }

    /// Does it take a comment at `depth` in pieces, as read
    /// ([`Writer::comment_open`])? Not one that `--split-variations`
    /// records for a variation game.
    pub fn takes_comment_pieces(&self, depth: u32) -> bool {
        self.split.is_none() || depth == 0
    }

    /// A comment at variation `depth`, or after the result, opens: its
    /// text comes in pieces, each as [`Writer::comment`] would take the
    /// whole ([`Writer::comment_piece`]), then [`Writer::comment_close`].
    /// The same bytes are written, but no more of it is held in memory
    /// than a piece and the writer's bound.
    pub fn comment_open(&mut self, depth: u32, after_result: bool) {
        debug_assert!(self.takes_comment_pieces(depth));
        self.layout.comment_open(depth, after_result);
    }

    pub fn comment_piece(&mut self, text: &[u8]) {
        self.layout.comment_piece(text);
    }

    pub fn comment_close(&mut self) {
        self.layout.comment_close();
    }

    /// `--split-variations`, at the game's end: plans its variation games
    /// (replaying each with `verify`, its end kept for the hook), reporting
    /// to `cx`; returns how many there are, and how many failed to replay.
    pub fn plan_variations(&mut self, verify: bool, cx: &mut Context) -> (u64, u64) {
        match &mut self.split {
            Some(s) => {
                s.plan(verify, cx);
                s.counts()
            }
            None => (0, 0),
        }
    }

    /// The game is to be written: hands the end of each variation game
    /// replayed to the hook, in the order they are written; `cx` is the
    /// game's.
    pub fn variation_ends(&self, cx: &Context) {
        if let Some(s) = &self.split {
            s.hand_ends(cx);
        }
    }

    /// The paths of the variation games that failed to replay.
    pub fn failed_variations(&self) -> String {
        self.split
            .as_ref()
            .map(Split::failed_paths)
            .unwrap_or_default()
    }

    /// Writes the whole game to `out`, then its variation games.
    pub fn finish(&mut self, result: Outcome, out: &mut dyn Write) -> io::Result<()> {
        self.layout
            .finish(result, &self.file, self.line, &[], out)?;
        if let Some(s) = &self.split {
            s.write_games(&mut self.layout, &self.file, self.line, out)?;
        }
        Ok(())
    }
}
