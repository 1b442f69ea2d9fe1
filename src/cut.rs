//! Sound cuts for engines that spread the work over processes or machines
//! (GNU parallel, Spark, Hadoop Streaming): the input as it was, with a NUL
//! byte at true game starts, as the reader decides them; a `[Variant "`
//! line quoted in a comment, or among a game's tags, is no cut.
//!
//! It is the reader's own contract put to work: a filter that rejects
//! every game writes each game's bytes to its rejects exactly as read, in
//! order, so the cuts go between those writes. The games the filter would
//! leave out (`--dedup`, `--tag`, ...) are left out of the pieces, so that
//! the choices that depend on the games before are taken once, here.

use crate::diag::Pos;
use crate::filter::FilterBuilder;
use crate::pass::{Context, Interest, Pass};
use crate::report::LeftOutCounts;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// What starts a line that says where a piece comes from
/// ([`cut_at_games_marked`]): `%ctlpgn-filter-origin LINE BYTE NAME`, with
/// the lines and bytes of the input before the piece and the input's name.
/// A `%` line is PGN's escape, ignored by PGN readers.
pub const ORIGIN_MARK: &[u8] = b"%ctlpgn-filter-origin ";

/// What [`cut_at_games`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cuts {
    /// Games in the pieces (every game found, but those left out).
    pub games: u64,
    /// Games left out of the pieces, as the filter would leave them out.
    pub left_out: LeftOutCounts,
    /// Games the filter leaves out that are in the pieces all the same:
    /// without them, the game before would read otherwise. Each starts
    /// mid-line, or follows a game without a result, or the game after it
    /// starts mid-line (a game whose moves went on after one left out
    /// would take the next game's moves). The pieces' filters leave out
    /// those they can tell apart (a game not selected; a duplicate of a
    /// game in the same piece); another duplicate is written there, one
    /// game more than one run writes.
    pub kept: LeftOutCounts,
    /// Pieces written (one more than the NUL bytes written).
    pub pieces: u64,
    /// Bytes written, NUL bytes left out.
    pub bytes: u64,
}

/// Copies `input` to `out` cut into pieces of at least `size` bytes (the
/// last one may be smaller) at true game starts, each piece but the last
/// followed by a NUL byte. Blanks before the first game are left out; no
/// other byte is changed.
///
/// `filter` is how the pieces will be filtered: whether comments and
/// variations are kept or dropped decides where a broken game (a
/// variation never closed, say) ends, so the cuts follow it. Filtering
/// each piece on its own that way and concatenating the outputs in order
/// gives the bytes one run over the whole input gives (diagnostics then
/// count lines from each piece's start). The games the filter would leave
/// out are not in the pieces: duplicates (`dedup`, decided here, over the
/// whole input), the games after `stop_after`'s count (not read), the
/// games a selection leaves out; so the pieces filtered apart, with or
/// without those options, give the whole's output and rejects. An input
/// holding a NUL byte (not CTL-PGN: binary) is refused, since a NUL is
/// what marks a cut.
///
/// ```
/// use ctlpgn_filter::{cut_at_games, FilterBuilder};
/// let input = b"[Variant \"C'escacs\"]\n{ quoting [Variant \"C'escacs\"] }\n1. E7-E13:\n*\n\
///               [Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
/// let mut out = Vec::new();
/// let cuts = cut_at_games(FilterBuilder::new(), &input[..], &mut out, 1).unwrap();
/// assert_eq!((cuts.games, cuts.pieces), (2, 2));
/// assert_eq!(cuts.left_out.total(), 0);
/// let pieces: Vec<&[u8]> = out.split(|&b| b == 0).collect();
/// assert!(pieces[1].starts_with(b"[Variant \"C'escacs\"]\n1. F8-F12:"));
/// ```
pub fn cut_at_games(
    filter: FilterBuilder,
    input: impl Read,
    out: &mut dyn Write,
    size: u64,
) -> io::Result<Cuts> {
    cut_at_games_marked(filter, input, out, size, None)
}

/// [`cut_at_games`], and with `name` each piece starts with a line that
/// says where it comes from ([`ORIGIN_MARK`]): the command line, reading a
/// piece that starts so, names that input in its diagnostics and counts
/// its lines and bytes from there, as a run over the whole input would.
/// For engines that filter each piece alone (GNU parallel's `-N1`): the
/// line is honoured at the start of an input only.
///
/// ```
/// use ctlpgn_filter::{cut_at_games_marked, FilterBuilder};
/// let input = b"[Variant \"C'escacs\"]\n1. E7-E13:\n*\n[Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
/// let mut out = Vec::new();
/// cut_at_games_marked(FilterBuilder::new(), &input[..], &mut out, 1, Some("g.pgn")).unwrap();
/// let pieces: Vec<&[u8]> = out.split(|&b| b == 0).collect();
/// assert!(pieces[0].starts_with(b"%ctlpgn-filter-origin 0 0 g.pgn\n[Variant"));
/// assert!(pieces[1].starts_with(b"%ctlpgn-filter-origin 3 34 g.pgn\n[Variant"));
/// ```
pub fn cut_at_games_marked(
    filter: FilterBuilder,
    input: impl Read,
    out: &mut dyn Write,
    size: u64,
    name: Option<&str>,
) -> io::Result<Cuts> {
    let began = Arc::new(AtomicBool::new(false));
    let start = Arc::new(Mutex::new(Pos::default()));
    // Every game the filter would write is rejected instead: at its verdict
    // when it might be left out, else at once (the game is then not laid
    // out for nothing).
    let late = filter.leaves_games_out();
    let mark = MarkGameStarts {
        began: Arc::clone(&began),
        start: Arc::clone(&start),
        reject: !late,
    };
    let mut filter = filter.pass(Box::new(mark)).build();
    filter.stages.gate.cut = late;
    let mut pieces = Pieces {
        out,
        began,
        size,
        since_cut: 0,
        line_ended: true,
        cuts: Cuts::default(),
        // A line break in a name would end the line early.
        name: name.map(|n| n.replace(['\n', '\r'], "?")),
        start,
    };
    let report = filter.run_with_rejects(input, &mut io::sink(), Some(&mut pieces), &mut |_| {})?;
    let mut cuts = pieces.cuts;
    cuts.left_out = report.left_out;
    cuts.kept = filter.stages.gate.kept;
    cuts.pieces += u64::from(cuts.bytes > 0);
    Ok(cuts)
}

/// Notes that a game began, so that the next bytes may start a piece;
/// rejects it at once if `reject`.
struct MarkGameStarts {
    began: Arc<AtomicBool>,
    /// Where it began.
    start: Arc<Mutex<Pos>>,
    reject: bool,
}

impl Pass for MarkGameStarts {
    fn name(&self) -> &'static str {
        "mark-game-starts"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::NONE
    }

    fn begin_game(&mut self, cx: &mut Context) {
        *self.start.lock().expect("no thread panics holding it") = cx.game_start;
        self.began.store(true, Ordering::Relaxed);
        if self.reject {
            cx.error(cx.game_start, "cut here");
        }
    }
}

/// The rejects stream: game after game, cut where a game begins on a line
/// of its own and the piece is long enough. A game that starts on the line
/// where the one before ends (two files joined without a final newline)
/// is read so, with a warning, only by a reader that sees that line whole.
struct Pieces<'a> {
    out: &'a mut dyn Write,
    began: Arc<AtomicBool>,
    size: u64,
    since_cut: u64,
    /// What was written ends a line (but for blanks): a game beginning now
    /// begins a line.
    line_ended: bool,
    cuts: Cuts,
    /// The input's name, when each piece says where it comes from.
    name: Option<String>,
    /// Where the game beginning now begins in the input.
    start: Arc<Mutex<Pos>>,
}

impl Write for Pieces<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(i) = memchr::memchr(0, buf) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "NUL byte at byte offset {} of the pieces: binary input, which cannot be cut with NUL bytes",
                    self.cuts.bytes + i as u64
                ),
            ));
        }
        if self.began.swap(false, Ordering::Relaxed) {
            self.cuts.games += 1;
            let first = self.cuts.bytes == 0;
            let cut = !first && self.since_cut >= self.size.max(1) && self.line_ended;
            if cut {
                self.out.write_all(b"\0")?;
                self.cuts.pieces += 1;
                self.since_cut = 0;
            }
            if let (true, Some(name)) = (first || cut, &self.name) {
                let at = *self.start.lock().expect("no thread panics holding it");
                self.out.write_all(ORIGIN_MARK)?;
                let line = at.line.saturating_sub(1);
                writeln!(self.out, "{line} {} {name}", at.offset)?;
            }
        }
        self.out.write_all(buf)?;
        let blanks = &buf[buf.trim_ascii_end().len()..];
        let ends_line = blanks.contains(&b'\n');
        if ends_line || blanks.len() < buf.len() {
            self.line_ended = ends_line;
        }
        self.since_cut += buf.len() as u64;
        self.cuts.bytes += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
