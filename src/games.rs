//! The filter a game at a time: each game with what became of it, its
//! text as written or as read, its diagnostics and its replay, for a
//! caller that wants the games one by one rather than one output (the
//! Python package). The run is [`Filter::read`]'s, the same reader and
//! the same decision for each game ([`Filter::write_game`]), into buffers
//! of one game.

use crate::diag::Diagnostic;
use crate::filter::Fate;
use crate::grammar::model::Outcome;
use crate::read::{Reader, Resume, Sinks, Until};
use crate::report::{Origin, Report};
use crate::stages::Filter;
use crate::verify::GameEnd;
use std::io::{self, Read};

/// The games of one input, read one at a time by [`Filter::games`].
///
/// ```
/// use ctlpgn_filter::{Fate, FilterBuilder};
/// let input = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n2. F8-F12#\n\
///              [Variant \"C'escacs\"]\n1. E13xF16:\n*\n";
/// let mut filter = FilterBuilder::new().verify(Default::default()).build();
/// let mut games = filter.games(input.as_bytes());
/// let g = games.next_game().unwrap().unwrap();
/// assert_eq!((g.fate, g.result.as_str(), g.line), (Fate::Written, "3-0", 1));
/// assert!(g.output.ends_with(b"2. F8-F12#\n3-0\n\n"));
/// assert!(g.replay.unwrap().position.to_string().ends_with(" b RKRrkr F12@10 0 2"));
/// let g = games.next_game().unwrap().unwrap();
/// assert_eq!((g.fate, g.output.len()), (Fate::Rejected, 0));
/// assert!(g.aside.starts_with(b"[Variant"));
/// assert_eq!(g.diagnostics[0].line, 5);
/// assert!(games.next_game().unwrap().is_none());
/// assert_eq!((games.report().games_written, games.report().games_rejected), (1, 1));
/// ```
pub struct Games<'f, R> {
    filter: &'f mut Filter,
    reader: Reader<'static, R>,
    output: Vec<u8>,
    rejects: Vec<u8>,
    duplicates: Vec<u8>,
    diagnostics: Vec<Diagnostic>,
    /// `--fail-fast` or `--stop-after` ended the run.
    stopped: bool,
}

/// A game read by [`Games::next_game`], and what became of it.
pub struct FilteredGame<'a> {
    /// Written, rejected, or left out.
    pub fate: Fate,
    /// The result it is written with (its result line, ndjson's
    /// `result`), whatever became of it.
    pub result: Outcome,
    /// The line of its first byte.
    pub line: u64,
    /// What the filter writes of it, in the format asked for (written
    /// only).
    pub output: &'a [u8],
    /// What goes aside, exactly as read: a rejected game's bytes (what
    /// the rejects get), a duplicate's (what the duplicates get), or,
    /// for a written game whose variation games did not replay, the
    /// rejects' comment naming them, then its bytes.
    pub aside: &'a [u8],
    /// Its diagnostics, as a run hands them on: a written game's, sorted
    /// by place; a rejected game's first error; a left-out game's note.
    pub diagnostics: &'a [Diagnostic],
    /// The replay of its main line, with [`crate::FilterBuilder::verify`].
    pub replay: Option<GameEnd<'a>>,
}

impl Filter {
    /// The games of `input`, read one at a time (each handed out as
    /// [`Filter::run`] would write it).
    pub fn games<R: Read>(&mut self, input: R) -> Games<'_, R> {
        let mut set = self.reading;
        set.keep_raw = true;
        let cut_short = self.stages.cut_short.clone();
        let resume = Resume::from(Origin::START);
        let reader = Reader::resumed(set, resume, Until::End, cut_short, input);
        self.stages.before = Report::default();
        Games {
            stopped: self.stages.gate.closed(),
            filter: self,
            reader,
            output: Vec::new(),
            rejects: Vec::new(),
            duplicates: Vec::new(),
            diagnostics: Vec::new(),
        }
    }
}

impl<R: Read> Games<'_, R> {
    /// The next game, or `None` once the input ends (or `--fail-fast`
    /// or `--stop-after` ends reading). I/O errors end the run; bad games
    /// do not.
    pub fn next_game(&mut self) -> io::Result<Option<FilteredGame<'_>>> {
        if self.stopped {
            return Ok(None);
        }
        let Some(decided) = self.reader.read_game(&mut *self.filter)? else {
            return Ok(None);
        };
        let result = decided.result;
        for buffer in [&mut self.output, &mut self.rejects, &mut self.duplicates] {
            buffer.clear();
        }
        self.diagnostics.clear();
        let diagnostics = &mut self.diagnostics;
        let mut sinks = Sinks {
            out: &mut self.output,
            rejects: Some(&mut self.rejects),
            duplicates: Some(&mut self.duplicates),
            on_diagnostic: &mut |d| diagnostics.push(d.clone()),
        };
        let (fate, stop) = self
            .filter
            .write_game(&mut self.reader, decided, &mut sinks)?;
        self.stopped = stop;
        let cx = self.reader.context();
        let left_out = matches!(fate, Fate::LeftOut(_));
        Ok(Some(FilteredGame {
            fate,
            result,
            line: cx.game_start.line,
            output: &self.output,
            aside: match fate {
                Fate::LeftOut(_) => &self.duplicates,
                _ => &self.rejects,
            },
            diagnostics: &self.diagnostics,
            replay: (self.filter.stages.chain.verify.as_ref())
                .map(|v| v.pass.game_end(cx, left_out)),
        }))
    }

    /// The counts of the games read so far.
    pub fn report(&self) -> Report {
        self.filter.stages.before
    }
}
