//! The pass chain: each pass sees the items of a game it asked for, may
//! rewrite them in place, drop them, or report a problem; what survives
//! reaches the writer.

use super::select::Select;
use super::{
    AsciiSeparators, DropComments, DropRatings, DropVariations, FanToLetters, UndoRedefine,
};
use crate::grammar::half_move::Traits;
use crate::grammar::model::{HalfMove, Outcome};
use crate::pass::{Context, Flow, Interest, Pass, Tag, Variation};
use crate::pdtl::Pdtl;
use crate::verify::Verify;

/// A pass in the chain, and what it wants of the game being read.
pub(crate) struct Slot<P> {
    pub pass: P,
    wants: Interest,
}

impl<P> Slot<P> {
    pub fn new(pass: P) -> Slot<P> {
        Slot {
            pass,
            wants: Interest::ALL,
        }
    }
}

/// The chain itself: the built-in passes in their fixed order, called
/// directly, then the passes a library user adds, through `dyn Pass`.
#[derive(Default)]
pub(crate) struct Chain {
    pub redefine: Option<Slot<UndoRedefine>>,
    pub fan: Option<Slot<FanToLetters>>,
    pub comments: Option<Slot<DropComments>>,
    pub variations: Option<Slot<DropVariations>>,
    pub ratings: Option<Slot<DropRatings>>,
    pub ascii: Option<Slot<AsciiSeparators>>,
    pub verify: Option<Slot<Verify>>,
    /// The passes that leave whole games out (`--tag`, `--plies`,
    /// `--reaches`), and `--dedup`'s key.
    pub select: Option<Slot<Select>>,
    pub extra: Vec<Slot<Box<dyn Pass>>>,
    /// What any pass wants of the game being read.
    pub wanted: Interest,
    /// The same, but for the half-moves a pass only respells
    /// ([`Pass::only_respells_separators`]).
    pub needed: Interest,
    /// A pass respells the separators of the half-moves that need nothing else.
    pub respells: bool,
    /// The verify pass replays the main line: it reads each half-move and
    /// changes none, so `wanted` and `needed` leave its half-moves out, and
    /// one no other pass wants is handed to it alone ([`Chain::replay`]),
    /// the writer still copying it as read.
    pub replays: bool,
}

/// A pass with either interest reads the main line as written.
const READS_MAIN_LINE: Interest = Interest::MAIN_LINE.union(Interest::MAIN_LINE_MOVES);

/// Runs `$body` with `$p` bound to each pass of the chain in order and `$w`
/// to what it wants: the built-in passes without dynamic dispatch.
macro_rules! each_pass {
    ($chain:expr, |$p:ident, $w:ident| $body:expr) => {{
        let chain = $chain;
        each_pass!(@one chain.redefine, |$p, $w| $body);
        each_pass!(@one chain.fan, |$p, $w| $body);
        each_pass!(@one chain.comments, |$p, $w| $body);
        each_pass!(@one chain.variations, |$p, $w| $body);
        each_pass!(@one chain.ratings, |$p, $w| $body);
        each_pass!(@one chain.ascii, |$p, $w| $body);
        each_pass!(@one chain.verify, |$p, $w| $body);
        each_pass!(@one chain.select, |$p, $w| $body);
        for slot in chain.extra.iter_mut() {
            #[allow(unused_variables)]
            let $w = slot.wants;
            let $p = slot.pass.as_mut();
            $body;
        }
    }};
    (@one $slot:expr, |$p:ident, $w:ident| $body:expr) => {
        if let Some(slot) = $slot.as_mut() {
            #[allow(unused_variables)]
            let $w = slot.wants;
            let $p = &mut slot.pass;
            $body;
        }
    };
}

impl Chain {
    /// The names of the passes, in order.
    pub fn names(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        self.each(|p| names.push(p.name()));
        names
    }

    /// Every pass, read-only and through `dyn`: for what is asked once.
    fn each(&self, mut f: impl FnMut(&dyn Pass)) {
        let c = self;
        let statics: [Option<&dyn Pass>; 8] = [
            c.redefine.as_ref().map(|s| &s.pass as &dyn Pass),
            c.fan.as_ref().map(|s| &s.pass as &dyn Pass),
            c.comments.as_ref().map(|s| &s.pass as &dyn Pass),
            c.variations.as_ref().map(|s| &s.pass as &dyn Pass),
            c.ratings.as_ref().map(|s| &s.pass as &dyn Pass),
            c.ascii.as_ref().map(|s| &s.pass as &dyn Pass),
            c.verify.as_ref().map(|s| &s.pass as &dyn Pass),
            c.select.as_ref().map(|s| &s.pass as &dyn Pass),
        ];
        for p in statics.into_iter().flatten() {
            f(p);
        }
        for s in &c.extra {
            f(s.pass.as_ref());
        }
    }

    /// Does some pass drop every item of `kind`, so that the reader skips them?
    pub fn drops(&self, kind: Interest) -> bool {
        let mut drops = false;
        self.each(|p| drops |= p.drops().contains(kind));
        drops
    }

    pub fn begin_game(&mut self, cx: &mut Context) {
        each_pass!(&mut *self, |p, _w| p.begin_game(cx));
        // What each wants of its tags.
        self.ask_interest(cx);
    }

    /// The game's tags are read: asks each pass what it wants of the rest.
    pub fn movetext_begins(&mut self, cx: &Context) {
        self.ask_interest(cx);
    }

    /// Asks each pass what it wants of the game.
    fn ask_interest(&mut self, cx: &Context) {
        let (mut wanted, mut needed, mut respells) = (Interest::NONE, Interest::NONE, false);
        let mut replays = false;
        let respelled = Interest::moves_with(Traits::UNICODE_SEPARATOR);
        let mut note = |wants: Interest, only_respells: bool| {
            wanted = wanted | wants;
            if only_respells && !wants.contains(Interest::MOVES) {
                respells |= wants.contains(respelled);
                needed = needed | wants.without(respelled);
            } else {
                needed = needed | wants;
            }
        };
        let c = &mut *self;
        macro_rules! ask {
            ($slot:expr) => {
                if let Some(s) = $slot.as_mut() {
                    s.wants = s.pass.interest(cx);
                    note(s.wants, s.pass.only_respells_separators());
                }
            };
        }
        ask!(c.redefine);
        ask!(c.fan);
        ask!(c.comments);
        ask!(c.variations);
        ask!(c.ratings);
        ask!(c.ascii);
        if let Some(s) = c.verify.as_mut() {
            s.wants = s.pass.interest(cx);
            replays = s.wants.contains(Interest::MOVES);
            note(s.wants.without(Interest::MOVES), false);
        }
        ask!(c.select);
        for s in &mut c.extra {
            s.wants = s.pass.interest(cx);
            note(s.wants, s.pass.only_respells_separators());
        }
        (self.wanted, self.needed, self.respells) = (wanted, needed, respells);
        self.replays = replays;
    }

    /// Hands a tag to the passes that want it: every pass when it
    /// carries meaning to the reader (`meaningful`), else those that want
    /// [`Interest::TAGS`].
    pub fn tag(&mut self, tag: &Tag<'_>, meaningful: bool, cx: &mut Context) -> Flow {
        each_pass!(
            &mut *self,
            |p, w| if (meaningful || w.contains(Interest::TAGS)) && p.tag(tag, cx) == Flow::Drop {
                return Flow::Drop;
            }
        );
        Flow::Keep
    }

    pub fn setup(&mut self, pdtl: &mut Pdtl, cx: &mut Context) {
        each_pass!(&mut *self, |p, _w| p.setup(pdtl, cx));
    }

    /// Does any pass want a half-move with these traits?
    #[inline]
    pub fn wants_move(&self, traits: Traits) -> bool {
        self.wanted.takes_move(traits)
    }

    /// Does a pass want a half-move with these traits for more than its
    /// separator respelled ([`Pass::only_respells_separators`])?
    #[inline]
    pub fn needs_move(&self, traits: Traits) -> bool {
        self.needed.takes_move(traits)
    }

    /// Is the separator of a half-move with these traits, which no pass
    /// needs, to be respelled in ASCII ([`Sep::ascii`])?
    ///
    /// [`Sep::ascii`]: crate::Sep::ascii
    #[inline]
    pub fn respells(&self, traits: Traits) -> bool {
        self.respells && traits.intersects(Traits::UNICODE_SEPARATOR)
    }

    /// Is all the passes would do to a half-move with these traits write
    /// its separator in ASCII?
    #[inline]
    pub fn only_respells(&self, traits: Traits) -> bool {
        self.respells(traits) && !self.needs_move(traits)
    }

    /// Hands a half-move to the passes that want one with these traits.
    pub fn half_move(&mut self, mv: &mut HalfMove, traits: Traits, cx: &mut Context) -> Flow {
        cx.traits = traits;
        each_pass!(
            &mut *self,
            |p, w| if w.takes_move(traits) && p.half_move(mv, cx) == Flow::Drop {
                return Flow::Drop;
            }
        );
        Flow::Keep
    }

    /// A half-move no other pass wants (or one they only respell), to the
    /// verify pass alone, at variation depth `cx.depth`.
    #[inline]
    pub fn replay(&mut self, mv: &HalfMove, cx: &mut Context) {
        if let Some(s) = self.verify.as_mut().filter(|_| self.replays) {
            s.pass.replay_move(mv, cx);
        }
    }

    /// Does a pass read the main line ([`Interest::MAIN_LINE`])?
    #[inline]
    pub fn wants_main_line(&self) -> bool {
        self.wanted.intersects(READS_MAIN_LINE)
    }

    /// A half-move as it will be written, once every pass has had it, at
    /// variation `depth`, for the passes that read the main line.
    #[inline]
    pub fn main_line_move(&mut self, mv: &HalfMove, depth: u32) {
        if self.wants_main_line() && depth == 0 {
            self.hand_main_line_move(mv);
        }
    }

    /// Off the reader's hot path, which stays as it was without a pass
    /// that reads the main line.
    #[cold]
    #[inline(never)]
    fn hand_main_line_move(&mut self, mv: &HalfMove) {
        each_pass!(&mut *self, |p, w| if w.intersects(READS_MAIN_LINE) {
            p.main_line_move(mv);
        });
    }

    pub fn comment(&mut self, text: &mut [u8], cx: &mut Context) -> Flow {
        each_pass!(&mut *self, |p, w| if w.contains(Interest::COMMENTS)
            && p.comment(text, cx) == Flow::Drop
        {
            return Flow::Drop;
        });
        Flow::Keep
    }

    pub fn variation(&mut self, edge: Variation, cx: &mut Context) -> Flow {
        each_pass!(&mut *self, |p, w| if w.contains(Interest::VARIATIONS)
            && p.variation(edge, cx) == Flow::Drop
        {
            return Flow::Drop;
        });
        Flow::Keep
    }

    /// The game's `--dedup` key, with the result `written` when it counts.
    pub fn dedup_key(&self, written: Option<Outcome>) -> Option<u128> {
        let s = self.select.as_ref()?;
        s.pass.dedup.as_ref().map(|d| d.key(written))
    }

    /// The game's verdict (see [`Pass::verdict`]).
    pub fn verdict(&mut self, left_out: bool, cx: &Context) {
        each_pass!(&mut *self, |p, _w| p.verdict(left_out, cx));
    }

    /// The result the game is written with (see [`Pass::result_written`]).
    pub fn result_written(&mut self, result: Outcome, cx: &mut Context) {
        each_pass!(&mut *self, |p, _w| p.result_written(result, cx));
    }

    pub fn end_game(&mut self, result: Option<Outcome>, cx: &mut Context) {
        each_pass!(&mut *self, |p, _w| {
            if let Some(r) = result {
                p.result(r, cx);
            }
            p.end_game(cx);
        });
    }
}
