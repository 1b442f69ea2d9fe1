//! What a run reports and where its input starts: the counts of the
//! games read ([`Report`]), a piece's place in its stream ([`Origin`]),
//! and the flag of an input that ends early ([`CutShort`]). The reader,
//! the ledger, the filter and `--jobs` all speak these; they import
//! nothing of those.

use crate::pass::LeftOut;

/// What a run did: every game read is written, rejected, or left out
/// (`games_read == games_written + games_rejected + left_out.total()`).
///
/// ```
/// let (_, _, report) = ctlpgn_filter::Filter::default()
///     .filter_bytes(b"[Variant \"C'escacs\"]\n1. E13xF16:\n*\n[Variant \"C'escacs\"]\n1. E7-E13:\n*\n");
/// assert_eq!((report.games_read, report.games_written, report.games_rejected), (2, 1, 1));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Games found in the input.
    pub games_read: u64,
    /// Games written to the output.
    pub games_written: u64,
    /// Games rejected for an error.
    pub games_rejected: u64,
    /// Games left out whole, neither written nor rejected, by reason.
    pub left_out: LeftOutCounts,
    /// Warnings reported for written games.
    pub warnings: u64,
    /// Main-line half-moves read.
    pub half_moves: u64,
    /// Comments dropped.
    pub comments_dropped: u64,
    /// Variations dropped (nested ones included).
    pub variations_dropped: u64,
    /// Variation games written (`--split-variations`).
    pub variations_written: u64,
    /// Variation games rejected (`--split-variations`): an error read
    /// inside them or a variation they branch from, a half-move left out,
    /// or with verify moves that did not replay.
    pub variations_rejected: u64,
    /// Ratings and NAGs dropped.
    pub ratings_dropped: u64,
}

/// Games left out, by reason ([`LeftOut`]).
///
/// ```
/// use ctlpgn_filter::FilterBuilder;
/// let game = b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
/// let (_, diags, report) = FilterBuilder::new().dedup(true).build().filter_bytes(&game.repeat(3));
/// assert_eq!((report.games_read, report.games_written, report.left_out.duplicates), (3, 1, 2));
/// assert_eq!(report.left_out.total(), 2);
/// assert_eq!(diags[0].message, "a duplicate of the game at line 1 (the same start and moves): left out");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LeftOutCounts {
    /// Duplicates of a game written before (`--dedup`).
    pub duplicates: u64,
    /// Games whose tags do not match (`--tag`).
    pub tag: u64,
    /// Games whose main line is too short or too long (`--plies`).
    pub plies: u64,
    /// Games whose main line does not reach the position (`--reaches`).
    pub position: u64,
    /// Games written with a result not asked for (`--result`).
    pub result: u64,
    /// Games dated outside the range (`--date`).
    pub date: u64,
    /// Games whose date is unknown at the precision the range needs (`--date`).
    pub date_unknown: u64,
    /// Games a pass of your own left out.
    pub other: u64,
    /// Games that match the selection, left out by `--invert`.
    pub inverted: u64,
}

impl LeftOutCounts {
    /// Games left out, for any reason.
    pub fn total(&self) -> u64 {
        self.duplicates
            + self.tag
            + self.plies
            + self.position
            + self.result
            + self.date
            + self.date_unknown
            + self.other
            + self.inverted
    }

    /// Counts one more game left out for `reason`.
    pub fn count(&mut self, reason: LeftOut) {
        *match reason {
            LeftOut::Duplicate => &mut self.duplicates,
            LeftOut::Tag => &mut self.tag,
            LeftOut::Plies => &mut self.plies,
            LeftOut::Position => &mut self.position,
            LeftOut::Result => &mut self.result,
            LeftOut::Date => &mut self.date,
            LeftOut::DateUnknown => &mut self.date_unknown,
            LeftOut::Other => &mut self.other,
            LeftOut::Inverted => &mut self.inverted,
        } += 1;
    }

    /// Adds another run's counts to these.
    pub fn add(&mut self, other: &LeftOutCounts) {
        self.duplicates += other.duplicates;
        self.tag += other.tag;
        self.plies += other.plies;
        self.position += other.position;
        self.result += other.result;
        self.date += other.date;
        self.date_unknown += other.date_unknown;
        self.other += other.other;
        self.inverted += other.inverted;
    }

    fn since(&self, before: &LeftOutCounts) -> LeftOutCounts {
        LeftOutCounts {
            duplicates: self.duplicates - before.duplicates,
            tag: self.tag - before.tag,
            plies: self.plies - before.plies,
            position: self.position - before.position,
            result: self.result - before.result,
            date: self.date - before.date,
            date_unknown: self.date_unknown - before.date_unknown,
            other: self.other - before.other,
            inverted: self.inverted - before.inverted,
        }
    }
}

/// Calls `$do!(field)` for each count of a [`Report`] but `left_out`.
macro_rules! counts {
    ($do:ident) => {
        $do!(games_read);
        $do!(games_written);
        $do!(games_rejected);
        $do!(warnings);
        $do!(half_moves);
        $do!(comments_dropped);
        $do!(variations_dropped);
        $do!(variations_written);
        $do!(variations_rejected);
        $do!(ratings_dropped);
    };
}

impl Report {
    /// Adds another run's counts to this one.
    pub fn add(&mut self, other: &Report) {
        macro_rules! add {
            ($f:ident) => {
                self.$f += other.$f
            };
        }
        counts!(add);
        self.left_out.add(&other.left_out);
    }

    /// The counts made since `before` (counts this one includes).
    pub(crate) fn since(&self, before: &Report) -> Report {
        let mut r = *self;
        macro_rules! sub {
            ($f:ident) => {
                r.$f -= before.$f
            };
        }
        counts!(sub);
        r.left_out = self.left_out.since(&before.left_out);
        r
    }

    /// One game's counts, written, as they are when it is left out for
    /// `reason` instead: read, not written, its warnings and variation
    /// games not counted (what the reader counts of a game left out).
    pub(crate) fn left_out_instead(&mut self, reason: LeftOut) {
        self.games_written = 0;
        self.warnings = 0;
        self.variations_written = 0;
        self.variations_rejected = 0;
        self.left_out.count(reason);
    }
}

/// Where a piece of input starts in its stream: lines before it, bytes before it.
///
/// ```
/// use ctlpgn_filter::{Filter, Origin};
/// let mut diags = Vec::new();
/// let mut out = Vec::new();
/// // This piece starts at line 41 of its file: the error says line 42.
/// Filter::default()
///     .run_from(Origin { line: 41, byte: 1000 }, &b"1. E13xF16:\n"[..], &mut out, None, &mut |d| {
///         diags.push(d.clone())
///     })
///     .unwrap();
/// assert_eq!(diags[0].line, 42);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// Lines before the piece (0 at the start of a stream).
    pub line: u64,
    /// Bytes before the piece.
    pub byte: u64,
}

impl Origin {
    /// The start of a stream.
    pub const START: Origin = Origin { line: 0, byte: 0 };
}

/// Says that an input's text ends early: its source failed part way (a
/// compressed file cut short, or corrupt), and what came before the
/// failure is read as a text that ends there. Then the game under way at
/// the end, its result not yet read, is rejected as cut short; the games
/// before it read as they would in a file cut at that byte. Clones share
/// it: the reader of the source sets it before it answers the end of the
/// text, and every filter reading that source (one per `--jobs` worker)
/// is given one ([`Filter::set_cut_short`](crate::Filter::set_cut_short)).
///
/// ```
/// use ctlpgn_filter::{CutShort, Filter};
/// let cut = CutShort::new();
/// let mut filter = Filter::default();
/// filter.set_cut_short(Some(cut.clone()));
/// cut.set();
/// let mut out = Vec::new();
/// let text = b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n[Variant \"C'escacs\"]\n1. E7-E1";
/// let report = filter.run(&text[..], &mut out, &mut |_| {}).unwrap();
/// assert_eq!((report.games_written, report.games_rejected), (1, 1));
/// ```
#[derive(Clone, Debug, Default)]
pub struct CutShort(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl CutShort {
    /// A text not (yet) known to end early.
    pub fn new() -> CutShort {
        CutShort::default()
    }

    /// The text ends early: called before its end is read.
    pub fn set(&self) {
        self.0.store(true, std::sync::atomic::Ordering::Release);
    }

    /// Does the text end early?
    pub fn is_set(&self) -> bool {
        self.0.load(std::sync::atomic::Ordering::Acquire)
    }
}
