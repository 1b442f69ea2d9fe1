//! The passes that leave whole games out, each deciding on the game alone
//! (so a `--jobs` worker decides them): by tag ([`SelectTags`]), by the
//! main line's length ([`SelectPlies`]), by a position the main line
//! reaches ([`Reaches`]); and the key `--dedup` compares, the game's start
//! and main-line moves ([`DedupKey`]), whose verdict is taken in input
//! order, after the chain (`src/passes/ledger.rs`).
//!
//! A game left out is neither written nor rejected: the pass says so with
//! [`Context::leave_out`], and the reader counts it in the report.

use super::dates::SelectDate;
use super::ledger::Ledger;
use super::select_error::SelectError;
use super::tag_pattern::TagPattern;
use crate::grammar::model::{HalfMove, Outcome};
use crate::pass::{Context, Flow, Interest, LeftOut, Pass, Tag};
use crate::pdtl::Pdtl;
use crate::verify::{Position, Replay, INITIAL_PDTL};
use std::ops::RangeInclusive;

/// Leaves out a game unless its tags match the patterns: patterns for the
/// same tags (two `--tag Event=...`, two `--player`) are alternatives, one
/// of them must hold; patterns for different tags must all hold. The tags are those
/// the passes before it keep: `Redefine` is gone; the `PDTL` is no tag here
/// (see [`Reaches`]).
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, TagPattern};
/// let mut f = FilterBuilder::new()
///     .select_tag(TagPattern::parse("White=Sasal*").unwrap())
///     .build();
/// let (out, _, report) = f.filter_bytes(
///     b"[Variant \"C'escacs\"]\n[White \"Sasal, Cesc\"]\n1. E7-E13:\n*\n\
///       [Variant \"C'escacs\"]\n[White \"Ros, Xus\"]\n1. E7-E13:\n*\n",
/// );
/// assert_eq!((report.games_written, report.left_out.tag), (1, 1));
/// assert!(String::from_utf8(out).unwrap().contains("Sasal"));
/// ```
#[derive(Clone, Debug, Default)]
pub struct SelectTags {
    patterns: Vec<TagPattern>,
    /// The group of each pattern: the patterns for the same tags.
    group: Vec<usize>,
    /// Which groups a tag of this game matched.
    held: Vec<bool>,
    /// Which groups a tag of this game matched loosely
    /// ([`TagPattern::loosely_matches`]), and by which pattern.
    loose: Vec<Option<usize>>,
    /// The patterns the ledger was told a game matched loosely; how many
    /// are not, so that none is looked for once all are, or once a game's
    /// tags held (then the tags found games, and no looser match is
    /// told of).
    told: Vec<bool>,
    untold: usize,
    /// The tag names asked for and not yet met in a game, told to the
    /// ledger as they are met (for [`Ledger::unmet_tag_names`]).
    ///
    /// [`Ledger::unmet_tag_names`]: crate::Ledger::unmet_tag_names
    unmet: Vec<Unmet>,
    ledger: Option<Ledger>,
}

/// A tag name asked for, not yet met in a game; `other_case` once a name
/// that differs from it in case alone was.
#[derive(Clone, Debug)]
struct Unmet {
    name: String,
    other_case: bool,
}

impl SelectTags {
    /// Patterns for the same tags: one must hold; for different tags: all.
    pub fn new(patterns: Vec<TagPattern>) -> SelectTags {
        let mut groups: Vec<&[String]> = Vec::new();
        let mut group = Vec::with_capacity(patterns.len());
        for p in &patterns {
            let g = groups
                .iter()
                .position(|&n| n == p.names())
                .unwrap_or_else(|| {
                    groups.push(p.names());
                    groups.len() - 1
                });
            group.push(g);
        }
        let held = vec![false; groups.len()];
        let loose = vec![None; groups.len()];
        let mut unmet: Vec<Unmet> = Vec::new();
        for name in patterns.iter().flat_map(TagPattern::names) {
            if !unmet.iter().any(|u| &u.name == name) {
                unmet.push(Unmet {
                    name: name.clone(),
                    other_case: false,
                });
            }
        }
        SelectTags {
            told: vec![false; patterns.len()],
            untold: patterns.len(),
            patterns,
            group,
            held,
            loose,
            unmet,
            ledger: None,
        }
    }

    pub(crate) fn into_patterns(self) -> Vec<TagPattern> {
        self.patterns
    }

    /// Tells `ledger` the tag names and patterns asked for, and then
    /// which names are met, and which patterns a game matched loosely.
    pub(crate) fn tell(&mut self, ledger: &Ledger) {
        ledger.ask_tag_names(self.unmet.iter().map(|u| u.name.as_str()));
        ledger.ask_patterns(&self.patterns);
        self.ledger = Some(ledger.clone());
    }

    /// A new game: no group held.
    fn begin(&mut self) {
        self.held.fill(false);
        self.loose.fill(None);
    }

    /// A tag of the game: which groups it holds, or, while a pattern is
    /// not yet told, holds loosely.
    fn see(&mut self, tag: &Tag<'_>) {
        if !self.unmet.is_empty() {
            self.meet(tag.name);
        }
        for (i, (p, &g)) in self.patterns.iter().zip(&self.group).enumerate() {
            if self.held[g] || !p.is_for(tag.name) {
                continue;
            }
            if p.matches(tag.value) {
                self.held[g] = true;
            } else if self.untold > 0
                && !self.told[i]
                && self.loose[g].is_none()
                && p.loosely_matches(tag.value)
            {
                self.loose[g] = Some(i);
            }
        }
    }

    /// The game's tags are all read: when they fail, but every group
    /// holds or holds loosely, tells the ledger the patterns that held
    /// loosely (for [`Ledger::loose_matches`]), each once.
    ///
    /// [`Ledger::loose_matches`]: crate::Ledger::loose_matches
    fn end(&mut self) {
        if self.untold == 0 {
            return;
        }
        if self.all_held() {
            self.untold = 0;
            if let Some(ledger) = &self.ledger {
                ledger.tags_held();
            }
            return;
        }
        let groups = self.held.iter().zip(&self.loose);
        if !groups.clone().all(|(&h, l)| h || l.is_some()) {
            return;
        }
        for (_, l) in groups.filter(|(&h, _)| !h) {
            let i = l.expect("held loosely");
            if !self.told[i] {
                self.told[i] = true;
                self.untold -= 1;
                if let Some(ledger) = &self.ledger {
                    ledger.matched_loosely(&self.patterns[i]);
                }
            }
        }
    }

    /// Does every group hold for the tags read so far?
    pub(crate) fn all_held(&self) -> bool {
        self.held.iter().all(|&h| h)
    }

    /// A tag name met: is it one asked for and not met before, or one
    /// that differs from such a name in case alone?
    #[cold]
    fn meet(&mut self, name: &str) {
        let ledger = self.ledger.as_ref();
        self.unmet.retain_mut(|u| {
            if u.name == name {
                if let Some(l) = ledger {
                    l.met_tag_name(&u.name, None);
                }
                return false;
            }
            if !u.other_case && u.name.eq_ignore_ascii_case(name) {
                u.other_case = true;
                if let Some(l) = ledger {
                    l.met_tag_name(&u.name, Some(name));
                }
            }
            true
        });
    }
}

impl Pass for SelectTags {
    fn name(&self) -> &'static str {
        "select-tags"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::TAGS
    }

    fn begin_game(&mut self, _cx: &mut Context) {
        self.begin();
    }

    fn tag(&mut self, tag: &Tag<'_>, _cx: &mut Context) -> Flow {
        self.see(tag);
        Flow::Keep
    }

    fn end_game(&mut self, cx: &mut Context) {
        self.end();
        if !self.all_held() {
            cx.leave_out(LeftOut::Tag);
        }
    }
}

/// Leaves out a game whose main line has fewer or more half-moves than
/// its range allows, both ends included (`--plies MIN..MAX`).
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, SelectPlies};
/// assert_eq!(SelectPlies::parse("20..40").unwrap().range(), 20..=40);
/// assert_eq!(SelectPlies::parse("..40").unwrap().range(), 0..=40);
/// assert_eq!(SelectPlies::parse("20..").unwrap().range(), 20..=u32::MAX);
/// assert_eq!(SelectPlies::parse("3").unwrap().range(), 3..=3);
/// let mut f = FilterBuilder::new().plies(2..=u32::MAX).build();
/// let (_, _, report) = f.filter_bytes(b"1. E7-E13:\n1. E7-E13, E21-E15:\n");
/// assert_eq!((report.games_written, report.left_out.plies), (1, 1));
/// ```
#[derive(Clone, Debug)]
pub struct SelectPlies {
    range: RangeInclusive<u32>,
    count: u32,
}

impl SelectPlies {
    /// Keeps the games whose main line's half-moves are in `range`.
    pub fn new(range: RangeInclusive<u32>) -> SelectPlies {
        SelectPlies { range, count: 0 }
    }

    /// `MIN..MAX`, `MIN..`, `..MAX` (both ends included), or `N` alone.
    pub fn parse(s: &str) -> Result<SelectPlies, SelectError> {
        let number = |t: &str, none: u32| -> Result<u32, SelectError> {
            if t.is_empty() {
                return Ok(none);
            }
            t.parse().map_err(|_| {
                SelectError(format!(
                    "{s:?}: write MIN..MAX (half-moves, both included), MIN.., ..MAX or N"
                ))
            })
        };
        let (min, max) = match s.split_once("..") {
            Some((a, b)) => (number(a, 0)?, number(b, u32::MAX)?),
            None if !s.is_empty() => {
                let n = number(s, 0)?;
                (n, n)
            }
            None => return Err(SelectError("--plies needs MIN..MAX".into())),
        };
        if min > max {
            return Err(SelectError(format!(
                "{s:?}: MIN {min} is above MAX {max}: no game would be kept"
            )));
        }
        Ok(SelectPlies::new(min..=max))
    }

    /// The half-moves allowed, both ends included.
    pub fn range(&self) -> RangeInclusive<u32> {
        self.range.clone()
    }

    /// Is the count of the game read so far in the range?
    fn holds(&self) -> bool {
        self.range.contains(&self.count)
    }

    /// `n` more main-line half-moves.
    #[inline]
    fn see(&mut self, n: usize) {
        self.count = self
            .count
            .saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
    }
}

impl Pass for SelectPlies {
    fn name(&self) -> &'static str {
        "select-plies"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::MOVES
    }

    fn begin_game(&mut self, _cx: &mut Context) {
        self.count = 0;
    }

    fn half_move(&mut self, _mv: &mut HalfMove, cx: &mut Context) -> Flow {
        if cx.depth == 0 {
            self.see(1);
        }
        Flow::Keep
    }

    fn end_game(&mut self, cx: &mut Context) {
        if !self.holds() {
            cx.leave_out(LeftOut::Plies);
        }
    }
}

/// Leaves out a game whose main line never passes through a position
/// (`--reaches PDTL`): the line is replayed as `--verify` replays it, from
/// the game's PDTL or the initial setup, and after each half-move (and
/// before the first) the board and the side to move are compared with
/// the position's; castling, en passant and the clocks are not. A
/// half-move that does not fit the board ends the replay there.
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, Pdtl, Reaches};
/// // After 1. E7-E13, E21-E15: White to move (`--final-pdtl` says so).
/// let after = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/15:3p4/\
///     13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 2";
/// let target = Pdtl::parse(after).unwrap();
/// let mut f = FilterBuilder::new().reaches(&target).build();
/// let (_, _, report) = f.filter_bytes(b"1. E7-E13, E21-E15 2. F8-F12:\n1. E7-E13, F20-F16:\n");
/// assert_eq!((report.games_written, report.left_out.position), (1, 1));
/// # let _ = Reaches::new(&target);
/// ```
#[derive(Clone, Debug)]
pub struct Reaches {
    target: Position,
    replay: Replay,
    /// Reached, or the replay stopped at a half-move that did not fit.
    reached: bool,
    lost: bool,
}

impl Reaches {
    /// Keeps the games whose main line passes through `target`.
    pub fn new(target: &Pdtl) -> Reaches {
        Reaches {
            target: Position::from_pdtl(target),
            replay: Replay::new(None),
            reached: false,
            lost: false,
        }
    }

    /// The replay is at its start: a position, to compare.
    fn start(&mut self, replay: Replay) {
        self.reached = replay.position.same_placement(&self.target);
        self.lost = false;
        self.replay = replay;
    }

    /// The next main-line half-move.
    #[inline]
    fn see(&mut self, mv: &HalfMove) {
        if self.reached || self.lost {
            return;
        }
        match self.replay.play(mv) {
            Ok(()) => self.reached = self.replay.position.same_placement(&self.target),
            Err(_) => self.lost = true,
        }
    }
}

impl Pass for Reaches {
    fn name(&self) -> &'static str {
        "reaches"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::MOVES
    }

    fn begin_game(&mut self, _cx: &mut Context) {
        self.start(Replay::new(None));
    }

    fn setup(&mut self, pdtl: &mut Pdtl, _cx: &mut Context) {
        self.start(Replay::new(Some(pdtl)));
    }

    fn half_move(&mut self, mv: &mut HalfMove, cx: &mut Context) -> Flow {
        if cx.depth == 0 {
            self.see(mv);
        }
        Flow::Keep
    }

    fn end_game(&mut self, cx: &mut Context) {
        if !self.reached {
            cx.leave_out(LeftOut::Position);
        }
    }
}

/// What `--dedup` compares: the game's start (its PDTL in canonical form,
/// none for the initial setup, written or not) and its main-line moves as
/// written, compared as moves: the piece, the hexes, the kind of
/// separator (any dash is a move, `×` and `*` are a capture), the
/// captured piece as written, the promotion (who moves follows from the
/// start). Check and mate marks, ratings, NAGs, `(=)`, `:`, move numbers,
/// comments, variations and the layout are left out. Kept as a 128-bit
/// hash per game ([`DedupKey::key`]).
///
/// Each move comes as its key ([`Action::key`]), made from its action,
/// made from the move the reader read (for a move the writer copies as
/// read, [`MoveRead::half_move`](crate::read::MoveRead::half_move)): no move
/// is laid out for it.
#[derive(Clone, Debug, Default)]
pub(crate) struct DedupKey {
    start: Vec<u8>,
    /// One key per half-move ([`Action::key`]), little-endian, as hashed.
    moves: Vec<u8>,
}

impl DedupKey {
    /// The key of the game read, with its `result` when it counts too.
    pub fn key(&self, result: Option<Outcome>) -> u128 {
        // XXH3 with fixed seeds: the same for the same game on any thread
        // and in any build. The start and the result make the seed of the
        // moves' hash.
        let result = result.map_or(0, |r| 1 + r as u64);
        let seed = twox_hash::XxHash3_64::oneshot_with_seed(result, &self.start);
        twox_hash::XxHash3_128::oneshot_with_seed(seed, &self.moves)
    }

    fn begin(&mut self) {
        self.start.clear();
        self.moves.clear();
    }

    fn setup(&mut self, pdtl: &Pdtl) {
        self.start.clear();
        pdtl.write_to(&mut self.start);
        if self.start == INITIAL_PDTL.as_bytes() {
            self.start.clear();
        }
    }

    /// The next main-line half-moves, by their keys ([`Action::key`]).
    #[inline]
    fn see(&mut self, keys: &[u64]) {
        for k in keys {
            self.moves.extend_from_slice(&k.to_le_bytes());
        }
    }
}

/// Leaves out a game written with a result not asked for (`--result`):
/// the result it is written with ([`Pass::result_written`]: its result
/// line, so a game that ends with `#` and no result line is its mover's
/// win), not its `Result` tag. Results: `3-0`, `2-1`, `0-3`, `1-2`,
/// `1-1`, `*`, or the words `white` (`3-0` or `2-1`: White scores more),
/// `black` (`0-3` or `1-2`) and `draw` (`1-1`); several are alternatives
/// ([`SelectResult::or`]).
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, SelectResult};
/// let white = SelectResult::parse("white").unwrap();
/// let mut f = FilterBuilder::new().result(white).build();
/// // Mate by White, no result line; a Result tag that says 0-3 is not read.
/// let (_, _, report) = f.filter_bytes(
///     b"[Variant \"C'escacs\"]\n[Result \"0-3\"]\n1. E7-E13#\n\
///       [Variant \"C'escacs\"]\n1. E7-E13:\n1-1\n",
/// );
/// assert_eq!((report.games_written, report.left_out.result), (1, 1));
/// ```
#[derive(Clone, Debug)]
pub struct SelectResult {
    /// The results kept, a bit each ([`Outcome`] as a bit number).
    wanted: u8,
    /// The result the game read is written with, once known.
    written: Option<Outcome>,
}

impl SelectResult {
    /// A result as written (`3-0`, `*`...), or `white`, `black`, `draw`.
    pub fn parse(s: &str) -> Result<SelectResult, SelectError> {
        let results: &[Outcome] = match s.trim().to_ascii_lowercase().as_str() {
            "white" => &[Outcome::WhiteWins, Outcome::WhiteStalemates],
            "black" => &[Outcome::BlackWins, Outcome::BlackStalemates],
            "draw" => &[Outcome::Draw],
            t => match Outcome::parse(t) {
                Some(r) => return Ok(SelectResult::of(&[r])),
                None => {
                    return Err(SelectError(format!(
                        "{s:?} is no result: write 3-0, 2-1, 0-3, 1-2, 1-1 or * (quoted for the \
                         shell), or white, black or draw"
                    )))
                }
            },
        };
        Ok(SelectResult::of(results))
    }

    /// Keeps the games written with one of `results`.
    pub fn of(results: &[Outcome]) -> SelectResult {
        SelectResult {
            wanted: results.iter().fold(0, |w, &r| w | bit(r)),
            written: None,
        }
    }

    /// The games either keeps.
    pub fn or(self, other: SelectResult) -> SelectResult {
        SelectResult {
            wanted: self.wanted | other.wanted,
            written: None,
        }
    }

    /// The results it keeps, in the order of [`Outcome`]'s variants.
    ///
    /// ```
    /// use ctlpgn_filter::{Outcome, SelectResult};
    /// let r = SelectResult::parse("draw").unwrap().or(SelectResult::parse("*").unwrap());
    /// assert_eq!(r.results(), [Outcome::Draw, Outcome::Unfinished]);
    /// ```
    pub fn results(&self) -> Vec<Outcome> {
        ALL_OUTCOMES
            .into_iter()
            .filter(|&r| self.wanted & bit(r) != 0)
            .collect()
    }

    /// Does the game read hold: written with a result kept?
    fn holds(&self) -> bool {
        self.written.is_some_and(|r| self.wanted & bit(r) != 0)
    }
}

/// Every result, in the order of [`Outcome`]'s variants.
const ALL_OUTCOMES: [Outcome; 6] = [
    Outcome::WhiteWins,
    Outcome::WhiteStalemates,
    Outcome::BlackWins,
    Outcome::BlackStalemates,
    Outcome::Draw,
    Outcome::Unfinished,
];

/// A result's bit in [`SelectResult`]'s set.
fn bit(r: Outcome) -> u8 {
    1 << r as u8
}

impl Pass for SelectResult {
    fn name(&self) -> &'static str {
        "select-result"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::NONE
    }

    fn result_written(&mut self, result: Outcome, cx: &mut Context) {
        self.written = Some(result);
        if !self.holds() {
            cx.leave_out(LeftOut::Result);
        }
    }
}

/// The built-in slot of the chain for all of the above, called without
/// dynamic dispatch, in the order tag, date, result, plies, position: a
/// game left out by one is counted under the first that leaves it out,
/// and once its tags or date fail, none of its moves is looked at. It
/// decides once the result the game is written with is known
/// ([`Pass::result_written`]), after every pass has ended the game. It reads the main line as written
/// ([`Interest::MAIN_LINE`]: the reader hands it each half-move after the
/// chain, read-only), not as a pass that may rewrite it, which costs a
/// copy and a compare a move; and, but for [`Reaches`], which replays the
/// half-moves themselves, as the keys of the moves, those the writer
/// copies as read included ([`Pass::main_line`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct Select {
    pub tags: Option<SelectTags>,
    pub plies: Option<SelectPlies>,
    pub reaches: Option<Reaches>,
    pub result: Option<SelectResult>,
    pub date: Option<SelectDate>,
    pub dedup: Option<DedupKey>,
    /// `--invert`: leave out the games the selection keeps, keep the others.
    pub invert: bool,
}

impl Select {
    /// Is anything asked of it?
    pub fn is_idle(&self) -> bool {
        !self.selects() && self.dedup.is_none() && !self.invert
    }

    /// Is a selection asked for (tags, date, result, plies, a position)?
    pub fn selects(&self) -> bool {
        self.tags.is_some()
            || self.date.is_some()
            || self.result.is_some()
            || self.plies.is_some()
            || self.reaches.is_some()
    }

    /// Do the tags read so far leave the game out: its tag patterns, or
    /// its date?
    fn tags_fail(&self) -> Option<LeftOut> {
        if self.tags.as_ref().is_some_and(|t| !t.all_held()) {
            Some(LeftOut::Tag)
        } else {
            self.date.as_ref().and_then(SelectDate::fails)
        }
    }

    /// Why the selection leaves the game read so far out, if it does: the
    /// first test it fails, in the order tags, date, result, plies,
    /// position.
    fn fails(&self) -> Option<LeftOut> {
        if let Some(reason) = self.tags_fail() {
            Some(reason)
        } else if self.result.as_ref().is_some_and(|r| !r.holds()) {
            Some(LeftOut::Result)
        } else if self.plies.as_ref().is_some_and(|p| !p.holds()) {
            Some(LeftOut::Plies)
        } else if self.reaches.as_ref().is_some_and(|r| !r.reached) {
            Some(LeftOut::Position)
        } else {
            None
        }
    }
}

impl Pass for Select {
    fn name(&self) -> &'static str {
        "select"
    }

    /// The main line, when something reads it and the tags hold: as
    /// whole half-moves for `--reaches`, else as keys.
    fn interest(&self, _cx: &Context) -> Interest {
        // The tags, to match them (asked as the game begins); then the main
        // line, unless the tags already leave the game out.
        let tags = if self.tags.is_some() || self.date.is_some() {
            Interest::TAGS
        } else {
            Interest::NONE
        };
        let tags_fail = self.tags_fail().is_some();
        if tags_fail && self.invert {
            // Kept whatever its moves: only `--dedup` reads them.
            match self.dedup {
                Some(_) => tags | Interest::MAIN_LINE,
                None => tags,
            }
        } else if tags_fail {
            tags
        } else if self.reaches.is_some() {
            tags | Interest::MAIN_LINE | Interest::MAIN_LINE_MOVES
        } else if self.plies.is_some() || self.dedup.is_some() {
            tags | Interest::MAIN_LINE
        } else {
            tags
        }
    }

    fn begin_game(&mut self, cx: &mut Context) {
        if let Some(p) = &mut self.tags {
            p.begin();
        }
        if let Some(p) = &mut self.date {
            p.begin_game();
        }
        if let Some(p) = &mut self.result {
            p.written = None;
        }
        if let Some(p) = &mut self.plies {
            p.begin_game(cx);
        }
        if let Some(p) = &mut self.reaches {
            p.begin_game(cx);
        }
        if let Some(p) = &mut self.dedup {
            p.begin();
        }
    }

    fn tag(&mut self, tag: &Tag<'_>, _cx: &mut Context) -> Flow {
        if let Some(p) = &mut self.tags {
            p.see(tag);
        }
        if let Some(p) = &mut self.date {
            p.tag(tag);
        }
        Flow::Keep
    }

    fn setup(&mut self, pdtl: &mut Pdtl, cx: &mut Context) {
        if let Some(p) = &mut self.reaches {
            p.setup(pdtl, cx);
        }
        if let Some(p) = &mut self.dedup {
            p.setup(pdtl);
        }
    }

    /// A main-line half-move as written.
    fn main_line_move(&mut self, mv: &HalfMove) {
        if let Some(p) = &mut self.reaches {
            p.see(mv);
        }
        self.main_line(&[mv.action.key()]);
    }

    /// Main-line half-moves no pass took, by their keys. Never with
    /// [`Reaches`], which replays the half-moves themselves
    /// ([`Interest::MAIN_LINE_MOVES`]).
    fn main_line(&mut self, keys: &[u64]) {
        if let Some(p) = &mut self.plies {
            p.see(keys.len());
        }
        if let Some(p) = &mut self.dedup {
            p.see(keys);
        }
    }

    /// Decides, the game's result written known.
    fn result_written(&mut self, result: Outcome, cx: &mut Context) {
        if let Some(r) = &mut self.result {
            r.written = Some(result);
        }
        if let Some(t) = &mut self.tags {
            t.end();
        }
        match (self.fails(), self.invert) {
            (Some(reason), false) => cx.leave_out(reason),
            (None, true) => cx.leave_out(LeftOut::Inverted),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_result_is_in_the_key_only_when_asked() {
        let mut k = DedupKey::default();
        k.see(&[1]);
        assert_ne!(k.key(Some(Outcome::WhiteWins)), k.key(Some(Outcome::Draw)));
        assert_ne!(k.key(None), k.key(Some(Outcome::Draw)));
    }

    #[test]
    fn plies_ranges_read_as_written() {
        assert!(SelectPlies::parse("40..20").is_err());
        assert!(SelectPlies::parse("x..2").is_err());
        assert!(SelectPlies::parse("").is_err());
        assert_eq!(SelectPlies::parse("..").unwrap().range(), 0..=u32::MAX);
    }
}
