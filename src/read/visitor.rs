//! What the reader hands on, game by game: the [`Visitor`] it calls, what
//! it answers ([`Skip`]), and what each call carries.

use super::held::Source;
use crate::diag::{Message, Pos};
use crate::grammar::half_move::{Lexeme, Traits};
use crate::grammar::model::{HalfMove, Outcome, Side};
use crate::pass::{Context, Tag};
use crate::pdtl::Pdtl;
use crate::report::Report;

/// Whether the reader skips what a call opens: `Skip(true)` passes it
/// over unread (its end still found, its faults of structure still
/// reported), and hands nothing of it on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Skip(pub bool);

/// What a reader of games hands on, in input order, as
/// [`Reader::read_game`](crate::read::Reader::read_game) reads each game.
/// Every method but [`Visitor::end_game`] has a default that does nothing
/// (and, where it answers, reads on): write only those you need.
///
/// The reader's own diagnostics, and those a visitor reports, go to the
/// game's [`Context`] (`cx.error`, `cx.warn`): a game with an error is one
/// a minimal reader rejects. The items come as written: piece letters as
/// the game spells them (its `Redefine` tags are in `cx.redefine`),
/// figurines decoded, ratings with their move. [`crate::Filter`] is the
/// visitor that turns them into canonical CTL-PGN.
pub trait Visitor {
    /// What a game read comes to: [`Reader::read_game`](crate::read::Reader::read_game) returns it.
    type Output;

    /// A game starts, at `cx.game_start`.
    fn begin_game(&mut self, _cx: &mut Context) {}

    /// A tag pair (the `PDTL` comes as [`Visitor::setup`]), in input order.
    fn tag(&mut self, _tag: &TagRead<'_>, _cx: &mut Context) {}

    /// The game's start position, its `PDTL` tag read (`src`: the bytes
    /// held).
    fn setup(&mut self, _pdtl: &mut Pdtl, _src: Source<'_>, _cx: &mut Context) {}

    /// The tags are over: the movetext, or the game's end, comes next.
    fn end_tags(&mut self, _cx: &mut Context) {}

    /// A half-move, with what annotates it on its line.
    fn half_move(&mut self, _mv: &MoveRead<'_>, _cx: &mut Context) {}

    /// A comment opens, at `depth` (0: the main line), after the game's
    /// result when `after_result`. Unless skipped, its text comes in
    /// pieces, as read ([`Visitor::comment`]), then [`Visitor::end_comment`].
    /// `src`: the bytes held.
    fn begin_comment(
        &mut self,
        _depth: u32,
        _after_result: bool,
        _src: Source<'_>,
        _cx: &mut Context,
    ) -> Skip {
        Skip(true)
    }

    /// A piece of the comment open, as read (its line ends as written).
    fn comment(&mut self, _text: &[u8], _cx: &mut Context) {}

    /// The comment open is closed.
    fn end_comment(&mut self, _cx: &mut Context) {}

    /// A variation opens, at `depth` (1: on the main line), with its label
    /// if written. Unless skipped, its items come at that depth, then
    /// [`Visitor::end_variation`]. `src`: the bytes held.
    fn begin_variation(
        &mut self,
        _depth: u32,
        _label: Option<u32>,
        _src: Source<'_>,
        _cx: &mut Context,
    ) -> Skip {
        Skip(true)
    }

    /// The variation open at `depth` closes.
    fn end_variation(&mut self, _depth: u32, _cx: &mut Context) {}

    /// An error read inside a variation (`at.depth` above 0): `Err` makes
    /// it the game's (the default); a visitor that writes each variation
    /// as a game of its own may keep it for that variation's game.
    fn variation_error(&mut self, at: VariationError, _cx: &mut Context) -> Result<(), Message> {
        Err(at.message)
    }

    /// The game is read to its end: what it comes to.
    fn end_game(&mut self, end: &mut GameEnd<'_>, cx: &mut Context) -> Self::Output;

    /// The reader is about to let go of the bytes before stream offset
    /// `before`: the last moment to copy any of them (see [`Source`]).
    fn discard(&mut self, _src: Source<'_>, _before: u64) {}
}

/// A tag pair as read.
pub struct TagRead<'a> {
    /// Its name, value (NFC, escapes as written) and place.
    pub tag: Tag<'a>,
    /// Does it carry meaning to a reader (`Variant`, `Redefine`,
    /// `Result`)? Such a tag reaches every pass.
    pub meaningful: bool,
    /// Where the tag line is in the stream, line end included, when it is
    /// written as [`crate::Filter`] writes one (`[Name "value"]`, one
    /// blank, the value NFC, then the line end): it may be copied so.
    pub as_written: Option<(u64, u64)>,
    /// The bytes held.
    pub src: Source<'a>,
}

/// A half-move read, with what annotates it. Its move is made on demand
/// ([`MoveRead::half_move`]): a word in a common spelling is only checked
/// to be one as it is read.
pub struct MoveRead<'a> {
    pub(super) p: &'a Pending,
    /// Its variation depth (0: the main line).
    pub depth: u32,
    /// The bytes held.
    pub src: Source<'a>,
}

impl MoveRead<'_> {
    /// The half-move: its number and side, the move, its annotations,
    /// where it is.
    #[inline]
    pub fn half_move(&self) -> HalfMove {
        let mut mv = self.p.mv;
        if !self.p.parsed {
            let (from, to) = self
                .p
                .text
                .expect("a word read plain is read where it stands");
            let parsed = Lexeme::parsed(self.src.from(from), (to - from) as usize);
            (mv.action, mv.check) = (parsed.action, parsed.check);
        }
        mv
    }

    /// The half-move, when the reader made its move as it read it
    /// (Settings::made_moves, or a word the parser read): no copy to make.
    #[inline]
    pub(crate) fn made(&self) -> Option<&HalfMove> {
        self.p.parsed.then_some(&self.p.mv)
    }

    /// Its move number.
    #[inline(always)]
    pub fn number(&self) -> u32 {
        self.p.mv.number
    }

    /// Who moves.
    #[inline(always)]
    pub fn side(&self) -> Side {
        self.p.mv.side
    }

    /// What its text holds besides the move (a figurine, an alternative
    /// letter, a Unicode separator, a rating, inside a variation).
    #[inline(always)]
    pub fn traits(&self) -> Traits {
        self.p.traits
    }

    /// Where its text is in the stream, when that text is what
    /// [`HalfMove::write_move`] writes, or would but for a Unicode
    /// separator.
    #[inline(always)]
    pub fn text_span(&self) -> Option<(u64, u64)> {
        self.p.text
    }

    /// Its text, when [`MoveRead::text_span`] says where.
    #[inline]
    pub fn text(&self) -> Option<&[u8]> {
        self.p.text.map(|(from, to)| self.src.slice(from, to))
    }

    /// The half-move in standard letters, separators in ASCII, as the
    /// filter writes it: the game's `Redefine` letters (`cx.redefine`)
    /// undone where they can be (one that cannot stays as written: the
    /// filter rejects its game), figurines as their letters, `×` and
    /// Unicode dashes as `*` and `-`.
    pub fn standard(&self, cx: &Context) -> HalfMove {
        let mut mv = self.half_move();
        for g in mv.glyphs_mut() {
            if g.fan.take().is_none() {
                g.letter = cx.redefine.resolve(g.letter).unwrap_or(g.letter);
            }
        }
        mv.action.respell_ascii();
        mv
    }

    /// The half-move but its move and check mark, which may not be made
    /// yet: its number, side, annotations and place.
    #[inline(always)]
    pub(crate) fn unmade(&self) -> &HalfMove {
        &self.p.mv
    }
}

/// A half-move read, waiting for the ratings and indicators after it on
/// its line.
#[derive(Clone, Copy, Debug)]
pub(super) struct Pending {
    /// The half-move and its annotations; its action and check are its
    /// own only when `parsed` (else they are made from its text on demand,
    /// [`MoveRead::half_move`]).
    pub(super) mv: HalfMove,
    pub(super) parsed: bool,
    /// It gives mate.
    pub(super) mate: bool,
    pub(super) traits: Traits,
    /// Where its text is in the input, when that text is what
    /// [`HalfMove::write_move`] writes (stream offsets), or would but for
    /// a Unicode separator.
    pub(super) text: Option<(u64, u64)>,
}

impl Default for Pending {
    fn default() -> Pending {
        let nowhere = crate::grammar::hex::Hex::from_index(0);
        let action = crate::grammar::model::Action::ForcedPromotion {
            at: nowhere,
            piece: crate::grammar::model::Glyph::letter(b'D'),
        };
        Pending {
            mv: HalfMove::new(0, Side::White, action, None),
            parsed: true,
            mate: false,
            traits: Traits::default(),
            text: None,
        }
    }
}

/// An error read inside a variation, where `depth` says.
pub struct VariationError {
    /// Where it is.
    pub pos: Pos,
    /// What it says.
    pub message: Message,
    /// When it is a word where a half-move was due: the number and side of
    /// that half-move, and where the word is. It still holds that
    /// half-move's place in its line.
    pub unread: Option<(u32, Side, Pos)>,
}

/// A game read to its end, as [`Visitor::end_game`] sees it.
pub struct GameEnd<'a> {
    /// The result it is written with: its result line, else the winner of
    /// its `#` move, else its `Result` tag's, else `*`.
    pub result: Outcome,
    /// Its result line, if it has one.
    pub result_read: Option<Outcome>,
    /// Its `Result` tag says otherwise, and the reader was told to have it
    /// written as the game ends (`--fix-result`; the warning says so).
    pub fix_result_tag: Option<Outcome>,
    /// Left out of `--cut`'s pieces, would the games beside it read as
    /// they do? It and the next begin lines, and the next would begin a
    /// game after the game before it that was not left out.
    pub removable: bool,
    /// What the reader counted of it: one game, its main-line half-moves,
    /// the variations it skipped.
    pub counts: Report,
    /// Comments inside the variations it skipped.
    pub skipped_comments: u64,
    /// The stream offset of its first byte.
    pub start: u64,
    /// The stream offset where it ends: the next game's first byte, or the
    /// input's end.
    pub end: u64,
    /// The bytes held.
    pub src: Source<'a>,
    /// The visitor leaves the game out (neither written nor rejected): a
    /// game after it that `--cut` would leave out reads as after the one
    /// before. Set it in [`Visitor::end_game`].
    pub left_out: bool,
    /// What of it left the buffer, kept, from its first byte.
    pub(super) kept: Option<&'a [u8]>,
    pub(super) places: &'a mut super::places::Places,
    pub(super) start_pos: Pos,
}

impl GameEnd<'_> {
    /// The line and column of its first byte.
    pub fn start_line_column(&mut self) -> (u64, u64) {
        let kept = self.kept.map(|k| (k, self.start_pos.offset));
        let column = self.places.column_of(self.src, kept, self.start_pos.offset);
        (self.start_pos.line, column)
    }
}
