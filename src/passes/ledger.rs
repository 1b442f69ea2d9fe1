//! The choices that depend on the games before: `--dedup` (was a game
//! with this key written already?) and `--stop-after` (how many games are
//! written so far?). They are taken in input order, once a game is known
//! to be writable (no error, not left out by a pass), by the [`Gate`] at
//! the end of the chain.
//!
//! On one thread the gate decides as each game ends. With `--jobs`, a
//! worker cannot know the games before its chunk: its gate defers
//! ([`Deferral`]): the game is written as if let through, and the worker
//! notes where each game's output, rejects and bytes as read start, its
//! counts so far and its key, and hands the note on before the game's
//! diagnostics; the merger, which takes the chunks in order, then asks its
//! own gate of each game in turn (`src/parallel/`). Either way one [`Ledger`] holds what was let
//! through, so the answers are the same.

use super::TagPattern;
use crate::diag::{Diagnostic, DiagnosticKind, Severity};
use crate::grammar::hex::push_decimal;
use crate::grammar::model::Outcome;
use crate::pass::{Context, LeftOut};
use crate::report::{LeftOutCounts, Report};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// What the filters built with it have let through so far: for
/// `--dedup`, the key of each distinct game written and where its first
/// copy is; for `--stop-after`, how many games were written. Clones share
/// it, so that every filter of one run (one per `--jobs` worker, one per
/// input) answers as one: give the same ledger to each
/// ([`crate::FilterBuilder::ledger`]). A filter built without one has its
/// own, kept from one input to the next.
///
/// Memory: 16 bytes of key and 12 of place per distinct game, in a hash
/// table (about 40 bytes each, up to twice that just after it grows), and
/// each file's name once.
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, Ledger};
/// let ledger = Ledger::new();
/// let game = b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
/// for _ in 0..2 {
///     let mut f = FilterBuilder::new().dedup(true).ledger(ledger.clone()).build();
///     f.filter_bytes(game);
/// }
/// assert_eq!((ledger.written(), ledger.distinct()), (1, 1));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Ledger(Arc<Mutex<Book>>);

#[derive(Debug, Default)]
struct Book {
    /// Key of each distinct game written: the file (index into `files`)
    /// and line of its first copy.
    first: HashMap<u128, (u32, u64)>,
    files: Vec<Arc<str>>,
    written: u64,
    /// The tag names a selection asks for: met in a game, or else the
    /// first name met that differs from it in case alone.
    tag_names: Vec<(String, Met)>,
    /// The tag patterns a selection asks for, in order: whether a game
    /// matched one loosely, its other groups holding.
    patterns: Vec<(TagPattern, bool)>,
    /// A game's tags held, every pattern group.
    tags_held: bool,
}

/// Whether a tag name asked for was met in a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
enum Met {
    #[default]
    Not,
    /// Not it, but this name, which differs from it in case alone.
    OtherCase(String),
    Yes,
}

/// Where a game's first copy is: its file's name (empty when the input
/// has none) and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FirstCopy {
    pub file: Arc<str>,
    pub line: u64,
}

/// What the ledger says of a game that could be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Admit {
    /// Written; `last` when that makes `--stop-after`'s count.
    Written { last: bool },
    /// A game with this key was written before: left out.
    Duplicate(FirstCopy),
}

impl Ledger {
    /// An empty ledger.
    pub fn new() -> Ledger {
        Ledger::default()
    }

    /// Games written so far.
    pub fn written(&self) -> u64 {
        self.book().written
    }

    /// The tag names a selection (`--tag`, `--player`) asks for that no
    /// game read with this ledger carries, each with a name met that
    /// differs from it in case alone, if one was (`white`: `White`): a
    /// selection that cannot hold, most likely a typing error.
    ///
    /// ```
    /// use ctlpgn_filter::{FilterBuilder, Ledger, TagPattern};
    /// let ledger = Ledger::new();
    /// let mut f = FilterBuilder::new()
    ///     .select_tag(TagPattern::parse("white=Sasal*").unwrap())
    ///     .select_tag(TagPattern::parse("Event=*").unwrap())
    ///     .ledger(ledger.clone())
    ///     .build();
    /// f.filter_bytes(b"[Variant \"C'escacs\"]\n[White \"Sasal\"]\n1. E7-E13:\n*\n");
    /// assert_eq!(
    ///     ledger.unmet_tag_names(),
    ///     [("white".to_string(), Some("White".to_string())), ("Event".to_string(), None)]
    /// );
    /// ```
    pub fn unmet_tag_names(&self) -> Vec<(String, Option<String>)> {
        self.book()
            .tag_names
            .iter()
            .filter_map(|(name, met)| match met {
                Met::Yes => None,
                Met::Not => Some((name.clone(), None)),
                Met::OtherCase(other) => Some((name.clone(), Some(other.clone()))),
            })
            .collect()
    }

    /// A selection asks for these tag names.
    pub(crate) fn ask_tag_names<'a>(&self, names: impl Iterator<Item = &'a str>) {
        let mut book = self.book();
        for name in names {
            if !book.tag_names.iter().any(|(n, _)| n == name) {
                book.tag_names.push((name.to_string(), Met::Not));
            }
        }
    }

    /// The tag name `asked` was met in a game, or (`other_case`) a name
    /// that differs from it in case alone.
    pub(crate) fn met_tag_name(&self, asked: &str, other_case: Option<&str>) {
        let mut book = self.book();
        if let Some((_, met)) = book.tag_names.iter_mut().find(|(n, _)| n == asked) {
            match other_case {
                None => *met = Met::Yes,
                Some(other) if *met == Met::Not => *met = Met::OtherCase(other.to_string()),
                Some(_) => {}
            }
        }
    }

    /// When no game read had tags that the selection's patterns (`--tag`,
    /// `--player`) hold, those that a looser form of matched in a game
    /// whose tags the selection otherwise held (a value typed plainly
    /// anywhere inside the tag's, the glob `*VALUE*`; a glob in any case),
    /// in the order asked: what to tell a user whose selection kept no
    /// game.
    ///
    /// ```
    /// use ctlpgn_filter::{FilterBuilder, Ledger, TagPattern};
    /// let ledger = Ledger::new();
    /// let mut f = FilterBuilder::new()
    ///     .select_tag(TagPattern::player("sal").unwrap())
    ///     .ledger(ledger.clone())
    ///     .build();
    /// let (_, _, report) = f.filter_bytes(b"[Variant \"C'escacs\"]\n[White \"Sasal\"]\n1. E7-E13:\n*\n");
    /// assert_eq!(report.games_written, 0); // `sal` starts no word of it
    /// let loose: Vec<String> = ledger.loose_matches().iter().map(|p| p.pattern().into()).collect();
    /// assert_eq!(loose, ["sal"]); // but it is inside one: `--player '*sal*'`
    /// ```
    pub fn loose_matches(&self) -> Vec<TagPattern> {
        let book = self.book();
        if book.tags_held {
            return Vec::new();
        }
        book.patterns
            .iter()
            .filter(|(_, loose)| *loose)
            .map(|(p, _)| p.clone())
            .collect()
    }

    /// A selection asks for these tag patterns.
    pub(crate) fn ask_patterns(&self, patterns: &[TagPattern]) {
        let mut book = self.book();
        for p in patterns {
            if !book.patterns.iter().any(|(q, _)| same(p, q)) {
                book.patterns.push((p.clone(), false));
            }
        }
    }

    /// A game's tags held every pattern group.
    pub(crate) fn tags_held(&self) {
        self.book().tags_held = true;
    }

    /// A game matched `pattern` loosely, its other groups holding.
    pub(crate) fn matched_loosely(&self, pattern: &TagPattern) {
        if let Some((_, loose)) = self
            .book()
            .patterns
            .iter_mut()
            .find(|(q, _)| same(pattern, q))
        {
            *loose = true;
        }
    }

    /// Distinct games written so far (with `--dedup`).
    pub fn distinct(&self) -> u64 {
        self.book().first.len() as u64
    }

    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        // A thread that panicked holding it left it whole: a key is
        // inserted or not.
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Lets a game through, unless `key` was written before.
    fn admit(&self, key: Option<u128>, file: &str, line: u64, stop_after: Option<u64>) -> Admit {
        let mut book = self.book();
        if let Some(key) = key {
            if let Some(&(f, l)) = book.first.get(&key) {
                let file = Arc::clone(&book.files[f as usize]);
                return Admit::Duplicate(FirstCopy { file, line: l });
            }
            let f = match book.files.last() {
                Some(last) if **last == *file => book.files.len() - 1,
                _ => {
                    book.files.push(file.into());
                    book.files.len() - 1
                }
            };
            book.first.insert(key, (f as u32, line));
        }
        book.written += 1;
        Admit::Written {
            last: stop_after == Some(book.written),
        }
    }
}

/// Are `a` and `b` the same pattern for the same tags?
fn same(a: &TagPattern, b: &TagPattern) -> bool {
    a.names() == b.names() && a.pattern() == b.pattern()
}

/// What the gate asks of a game, and holds between games.
#[derive(Debug, Default)]
pub(crate) struct Gate {
    /// `--dedup`: `Some(true)` when the result counts too.
    pub dedup: Option<bool>,
    pub stop_after: Option<u64>,
    pub ledger: Ledger,
    /// A `--jobs` worker's: note, and let the merger decide.
    pub defer: Option<Deferral>,
    /// `--cut`: a game that would be written is rejected instead, so that
    /// its bytes, as read, go to the pieces.
    pub cut: bool,
    /// `--cut`: the games left out that went to the pieces all the same,
    /// since leaving them out would change how the games beside them read.
    pub kept: LeftOutCounts,
}

/// What becomes of a game that ends: see [`crate::Filter`]'s `verdict`.
#[derive(Debug, Default)]
pub(crate) struct Verdict {
    /// Left out, and why (not for a game with an error: it is rejected).
    pub left_out: Option<LeftOut>,
    /// The note that says so (a duplicate's first copy).
    pub note: Option<Diagnostic>,
    /// Its bytes as read go to the duplicates sink (a duplicate; with
    /// `--jobs`, any game the merger may yet find one).
    pub aside: bool,
    /// The last game `--stop-after` lets through: reading stops after it.
    pub stop: bool,
}

impl Gate {
    /// Is a choice taken in input order asked for?
    pub fn orders(&self) -> bool {
        self.dedup.is_some() || self.stop_after.is_some()
    }

    /// Has `--stop-after` let its count through already?
    pub fn closed(&self) -> bool {
        self.stop_after.is_some_and(|n| self.ledger.written() >= n)
    }

    /// The verdict on a game that ends, its passes run: `key` is its
    /// `--dedup` key, `at` the line and column of its first byte, `file`
    /// its input's name; `before` the counts of the games before it in
    /// this run (a worker's note, for the merger); `removable`, whether
    /// the games beside it read the same without it (see
    /// [`crate::Cuts::kept`]).
    pub fn verdict(
        &mut self,
        cx: &mut Context,
        key: Option<u128>,
        at: (u64, u64),
        file: &str,
        before: &Report,
        removable: bool,
    ) -> Verdict {
        let rejected = cx.has_error();
        let left_out = cx.left_out().filter(|_| !rejected);
        let writable = !rejected && left_out.is_none();
        let mut v = Verdict {
            left_out,
            ..Verdict::default()
        };
        if let Some(d) = &mut self.defer {
            let candidate = writable && (self.dedup.is_some() || self.stop_after.is_some());
            d.note(key, at, before, candidate);
            v.aside = candidate && self.dedup.is_some();
            return v;
        }
        if writable && self.orders() {
            self.admit(&mut v, key, at, file);
        }
        if self.cut && !rejected {
            if let (Some(reason), false) = (v.left_out, removable) {
                self.kept.count(reason);
                v = Verdict::default();
            }
            if v.left_out.is_none() {
                cx.error(cx.game_start, "cut here");
            }
        }
        v
    }

    /// Asks the ledger about a game that could be written.
    pub fn admit(&self, v: &mut Verdict, key: Option<u128>, at: (u64, u64), file: &str) {
        let key = key.filter(|_| self.dedup.is_some());
        match self.ledger.admit(key, file, at.0, self.stop_after) {
            Admit::Written { last } => v.stop = last,
            Admit::Duplicate(first) => {
                v.left_out = Some(LeftOut::Duplicate);
                v.note = Some(duplicate_note(at, &first, self.dedup == Some(true)));
                v.aside = true;
            }
        }
    }

    /// `--dedup-result`: the result is part of the key.
    pub fn result_counts(&self, result: Outcome) -> Option<Outcome> {
        (self.dedup == Some(true)).then_some(result)
    }
}

/// The note on a duplicate at `at`, naming its first copy.
fn duplicate_note(at: (u64, u64), first: &FirstCopy, with_result: bool) -> Diagnostic {
    // Made for every duplicate, shown or not: pieces put together, not
    // `format!`, which costs a duplicate as much as reading its moves.
    let mut message = String::with_capacity(96 + first.file.len());
    message.push_str("a duplicate of the game at ");
    if first.file.is_empty() {
        message.push_str("line ");
    } else {
        message.push_str(&first.file);
        message.push(':');
    }
    let mut line = Vec::new();
    push_decimal(&mut line, first.line);
    message.extend(line.iter().map(|&d| char::from(d)));
    message.push_str(if with_result {
        " (the same start, moves and result): left out"
    } else {
        " (the same start and moves): left out"
    });
    Diagnostic {
        severity: Severity::Note,
        kind: DiagnosticKind::Duplicate,
        line: at.0,
        column: at.1,
        message,
        source: String::new(),
        source_column: 1,
    }
}

/// How long a worker's sinks are, shared with the worker's gate, which
/// notes where each game's part starts.
#[derive(Debug, Default)]
pub(crate) struct Lengths {
    pub out: AtomicU64,
    pub rejects: AtomicU64,
    pub aside: AtomicU64,
}

impl Lengths {
    pub fn grow(counter: &AtomicU64, by: usize) {
        counter.fetch_add(by as u64, Ordering::Relaxed);
    }

    fn get(counter: &AtomicU64) -> usize {
        counter.load(Ordering::Relaxed) as usize
    }
}

/// A game as a `--jobs` worker leaves it to the merger.
#[derive(Clone, Debug)]
pub(crate) struct Deferred {
    /// Where its part of each sink starts.
    pub out: usize,
    pub rejects: usize,
    pub aside: usize,
    /// The counts of the games before it in the worker's run.
    pub before: Report,
    pub key: Option<u128>,
    pub at: (u64, u64),
    /// Written as if let through: the merger's gate decides.
    pub candidate: bool,
}

/// A worker's notes: each game's, handed on to `post` as its verdict is
/// asked, before its diagnostics are.
pub(crate) struct Deferral {
    pub lengths: Arc<Lengths>,
    pub post: Box<dyn FnMut(Deferred) + Send>,
}

impl std::fmt::Debug for Deferral {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Deferral")
            .field("lengths", &self.lengths)
            .finish_non_exhaustive()
    }
}

impl Deferral {
    fn note(&mut self, key: Option<u128>, at: (u64, u64), before: &Report, candidate: bool) {
        let l = &self.lengths;
        let game = Deferred {
            out: Lengths::get(&l.out),
            rejects: Lengths::get(&l.rejects),
            aside: Lengths::get(&l.aside),
            before: *before,
            key,
            at,
            candidate,
        };
        (self.post)(game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_copy_is_named_and_the_count_closes() {
        let ledger = Ledger::new();
        assert_eq!(
            ledger.admit(Some(7), "a", 3, Some(2)),
            Admit::Written { last: false }
        );
        assert_eq!(
            ledger.admit(Some(7), "b", 9, Some(2)),
            Admit::Duplicate(FirstCopy {
                file: "a".into(),
                line: 3
            })
        );
        assert_eq!(
            ledger.admit(Some(8), "b", 12, Some(2)),
            Admit::Written { last: true }
        );
        assert_eq!((ledger.written(), ledger.distinct()), (2, 2));
    }

    #[test]
    fn the_note_names_the_first_copy() {
        let first = FirstCopy {
            file: "games.ctl-pgn".into(),
            line: 12,
        };
        let n = duplicate_note((40, 1), &first, false);
        assert_eq!(
            n.render("other.ctl-pgn"),
            "other.ctl-pgn:40:1: note: a duplicate of the game at games.ctl-pgn:12 \
             (the same start and moves): left out\n"
        );
    }
}
