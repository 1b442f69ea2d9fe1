//! The reader's state, apart from the input and its index: what it is
//! told ([`Settings`], [`Until`]), where it stops ([`Stop`], [`Resume`]),
//! and what each layer keeps between calls ([`Reading`]: the game
//! assembler's [`Game`], the modes' [`Scan`], the tokenizer's [`Moves`]),
//! with the [`Step`] a visitor is read to through. The layers' behaviour
//! is in their own files (`game.rs`, `scan.rs`, `tokens.rs`, ...), which
//! work on this state; this file imports none of them.

use super::index::Impl as IndexImpl;
use super::movetext::Movetext;
use super::places::Places;
use super::visitor::{Pending, Visitor};
use crate::diag::Pos;
use crate::grammar::game_start::Standing;
use crate::grammar::model::{Outcome, Side};
use crate::pass::Context;
use crate::report::{CutShort, Origin, Report};
use crate::spill::Spill;

/// What the reader is told once, for every input: how it reads, how far
/// it lets a line and a nesting go, what it keeps.
#[derive(Clone, Copy)]
pub(crate) struct Settings {
    pub index: IndexImpl,
    /// Warn that a Result tag that disagrees with the game's end is to be
    /// written as the end says (`GameEnd::fix_result_tag`).
    pub fix_result: bool,
    /// The longest line read: a longer one rejects its game unread.
    pub max_line_bytes: u64,
    /// Variations nested deeper reject their game.
    pub max_depth: u32,
    /// Warnings are errors (`--strict`); warnings are counted, not made (`-q`).
    pub strict: bool,
    pub silence_warnings: bool,
    /// Keep a game's bytes that leave the buffer, for
    /// [`Reader::write_game`] and for the places of diagnostics made at
    /// its end.
    pub keep_raw: bool,
    /// Make the move of each word in a common spelling as it is read,
    /// not on demand: the verify pass replays every main-line move, and
    /// `--dedup`, `--plies` and `--reaches` read each one.
    pub made_moves: bool,
}

/// How far a run reads.
#[derive(Clone, Copy)]
pub(crate) enum Until<'a> {
    /// To the end of the input, where the last game ends.
    End,
    /// To the first game that starts at a stream offset `is_boundary`
    /// takes (a `--jobs` chunk's start). If the input ends first: where it
    /// ends (`whole`), or, when the input is only the first part of the
    /// stream, short of the game under way, left unfinished.
    Boundary {
        is_boundary: &'a dyn Fn(u64) -> bool,
        whole: bool,
    },
}

/// Where a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// At the end of the input: every game is finished.
    End,
    /// Where a game starts (at a [`Until::Boundary`]): every game before
    /// it is finished.
    Boundary(u64),
    /// The input ended before a boundary, inside the game that starts here.
    Unfinished(Resume),
    /// At the first rejected game (fail-fast), or after the last game
    /// `--stop-after` lets through.
    FailFast,
}

/// Where reading may start afresh: a game's first byte, on a line that
/// starts at `line_start`, the `line`-th of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Resume {
    pub line: u64,
    pub line_start: u64,
    pub at: u64,
    /// The game at `at` starts on the line where the one before ended.
    pub joined: bool,
}

impl From<Origin> for Resume {
    /// A piece of a stream starts a line: the one after the lines before it.
    fn from(origin: Origin) -> Resume {
        Resume {
            line: origin.line + 1,
            line_start: origin.byte,
            at: origin.byte,
            joined: false,
        }
    }
}

/// Everything the reader knows but the input and its index.
pub(super) struct Reading<'u> {
    pub(super) set: Settings,
    /// The game's context: its diagnostics, and what the passes know.
    pub(super) cx: Context,
    pub(super) until: Until<'u>,
    /// Where reading stopped short of the input's end, once it has.
    pub(super) stop: Option<Stop>,
    /// A game has ended, and what its visitor made of it waits to be
    /// handed back: reading pauses.
    pub(super) waiting: bool,
    /// Where reading goes on once a game ended short of the token that
    /// begins the next: that token is read again, then as the next game's.
    pub(super) again_at: Option<u64>,
    /// The input being read ends early (`--cut`, a decoder's error).
    pub(super) cut_short: Option<CutShort>,
    /// The games begun so far.
    pub(super) games: u64,
    /// The stream offset up to which the input is read.
    pub(super) at: u64,
    pub(super) places: Places,
    pub(super) scan: Scan,
    pub(super) game: Game,
    pub(super) movetext: Movetext,
    pub(super) moves: Moves,
}

/// A visitor being read to, and what it made of the game that ended last.
pub(super) struct Step<'a, 'u, V: Visitor> {
    pub(super) st: &'a mut Reading<'u>,
    pub(super) v: &'a mut V,
    pub(super) out: Option<V::Output>,
}

impl<'u, V: Visitor> std::ops::Deref for Step<'_, 'u, V> {
    type Target = Reading<'u>;
    #[inline(always)]
    fn deref(&self) -> &Reading<'u> {
        self.st
    }
}

impl<V: Visitor> std::ops::DerefMut for Step<'_, '_, V> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.st
    }
}

impl Reading<'_> {
    /// Does reading pause here: it has stopped, or a game has ended?
    #[inline(always)]
    pub(super) fn paused(&self) -> bool {
        self.waiting || self.stop.is_some()
    }
}

/// The places of a game that a diagnostic made later may point at.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Marks {
    pub last_move: Pos,
    /// The last move number or `...`.
    pub last_number: Pos,
    /// The outermost variation open.
    pub variation: Pos,
    /// The comment open.
    pub comment: Pos,
    pub result_tag: Option<(Outcome, Pos)>,
}

/// What is known of the game being read.
#[derive(Debug, Default)]
pub(super) struct Game {
    pub open: bool,
    /// Its first byte, and the start of that byte's line.
    pub start: Pos,
    pub start_line: u64,
    /// Its first byte begins a line (but for blanks).
    pub starts_line: bool,
    /// It starts on the line where the game before it ended, after its
    /// end (before a game is open: the next game does, as a reader
    /// resumed at one learns from [`Resume`]).
    pub joined: bool,
    /// How the last game not left out before it stood when it ended.
    pub kept_before: Standing,
    /// Anything but tags and comments was read: a tag now starts a new game.
    pub past_tags: bool,
    pub has_tags: bool,
    pub has_variant: bool,
    pub has_setup: bool,
    pub marks: Marks,
    /// The line of the last movetext token (0 for none).
    pub movetext_line: u64,
    /// Variation depth, kept or skipped.
    pub depth: u32,
    /// The counts of the game, added to the report as it ends.
    pub counts: Report,
    /// Its diagnostics placed so far.
    pub placed: usize,
    /// Comments it skipped inside skipped variations.
    pub skipped_comments: u64,
    /// Where it ended (once it has): the stream offset of the next
    /// game's first byte, or of the input's end.
    pub end: u64,
    /// Its bytes that left the buffer (with rejects, and for the places of
    /// split variation games), and whether they are kept at all.
    pub raw: Spill,
    pub keep_raw: bool,
}

/// Who reads the next bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mode {
    /// The tokenizer.
    Tokens,
    /// A comment's text, up to `}`.
    Comment,
    /// A variation the chain drops, up to its `)`.
    SkipVariation,
}

/// The mode machine's state.
pub(super) struct Scan {
    pub mode: Mode,
    /// The region being read is valid UTF-8.
    pub utf8: bool,
    /// The region being read is ASCII: no byte of it needs a UTF-8 check
    /// or NFC.
    pub ascii: bool,
    /// The comment open is inside a skipped variation.
    pub comment_in_skip: bool,
    /// The comment open goes to the visitor, in pieces, as read.
    pub pieces: bool,
    /// How far the comment open was looked through for a game start: the
    /// next line to look at, its number, and whether it is the comment's
    /// first (which cannot start a game: the `{` is on it).
    pub search: (u64, u64, bool),
    /// The comment open is never closed: where to read again.
    pub read_again: Option<ReadAgain>,
    /// What must be read again that left the buffer.
    pub spill: Spill,
    /// The first byte not UTF-8 in what must be read again, found as it
    /// left the buffer (placed while held): the comment's error if it
    /// closes after all, the game's read again if it does not.
    pub spilled_fault: Option<(crate::diag::Pos, crate::diag::Message)>,
    /// No `}` follows this stream offset: a comment opened there reached
    /// the input's end.
    pub no_close_after: Option<u64>,
}

/// A comment never closed: where reading starts again, once the input has
/// ended, so that the games quoted in it are not lost.
#[derive(Clone, Copy, Debug)]
pub(super) struct ReadAgain {
    /// Stream offset of the first line inside the comment that starts a
    /// game, and its number.
    pub at: u64,
    pub line: u64,
    /// Stream offset of that line's tag: the comment's game ends there,
    /// as a game ends where the next one's first token is.
    pub tag: u64,
}

/// The half-moves being read.
#[derive(Debug, Default)]
pub(super) struct Moves {
    /// The half-move read last, while `held` (waiting for its annotations).
    pub(super) pending: Pending,
    pub(super) held: bool,
    pub numbers: VariationNumbers,
    /// NFKC of a word, and the input offset of each of its bytes.
    pub(super) fold: Vec<u8>,
    pub(super) fold_map: Vec<u32>,
}

/// Numbering inside kept variations: tracked loosely, only to tell White's
/// moves from Black's.
#[derive(Debug, Default)]
pub(super) struct VariationNumbers {
    pub(super) number: u32,
    pub(super) side: Option<Side>,
    /// (number, side) of each enclosing level.
    pub(super) stack: Vec<(u32, Option<Side>)>,
}
