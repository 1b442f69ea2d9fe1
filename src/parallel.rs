//! Filtering on several threads, byte for byte as on one.
//!
//! The input is cut into chunks before lines that start `[Variant "`
//! (or, where none comes soon enough, any line, or inside a line too long):
//! places where a game usually starts, but not always (the line may be
//! quoted inside a comment, or follow a tag section it belongs to). Each
//! chunk is read on a worker by a reader that starts there afresh, and
//! that reads on into the next chunk's first line to learn whether a game
//! really starts there ([`Until::Boundary`]). Where one does, the chunk's
//! games are exactly those of a reader over the whole input; where none
//! does, the reader stops short of the game it is in, and that game is
//! read again, here, by one reader from its first byte across as many
//! chunks as it takes to reach a chunk whose start is a game's.
//!
//! What depends on the games before (`--dedup`, `--stop-after`) is decided
//! here, in input order: a worker writes each game as if let through and
//! notes where each game's part of its output starts; the merger asks the
//! run's ledger of each game in turn, and leaves the duplicates' parts
//! out (`src/ledger.rs`).
//!
//! Diagnostics do not wait for their chunk's end: a worker hands each on
//! as it comes ([`Mailbox`]), and the merger takes those of the chunk
//! whose turn it is as they come, in input order. A chunk's queue is
//! bounded: a worker whose chunk's turn has not come waits when its queue
//! is full, so that messages cost memory only while they wait their turn,
//! however many a chunk has (whether they are shown is the caller's
//! business: its callback gets every one, in order).

use crate::diag::Diagnostic;
use crate::filter::{Filter, Sinks};
use crate::ledger::{Deferral, Deferred, Lengths, Verdict};
use crate::read::{read_some, Reader, Resume, Stop, Until};
use crate::report::{Origin, Report};
use std::cell::RefCell;
use std::collections::{BTreeMap, VecDeque};
use std::io::{self, Read, Write};
use std::ops::Range;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::AtomicU64;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// The most worker threads [`run_parallel`] starts.
pub(crate) const MAX_JOBS: usize = 1024;

/// Where a chunk may start: a line that starts with this.
const CANDIDATE: &[u8] = b"\n[Variant \"";

/// Cuts a byte stream into chunks of about `size` bytes, each starting at a
/// line that starts `[Variant "` (but the first) where one comes soon
/// enough, else at a line start or, in a line too long, anywhere: a chunk
/// holds at most `2 × size` bytes of its own, whatever the input.
pub(crate) struct Chunker<R> {
    input: R,
    /// `buf[..filled]` is read but not yet handed out.
    buf: Vec<u8>,
    filled: usize,
    /// Where `buf` starts in the stream.
    origin: Origin,
    /// `buf` starts a line.
    starts_line: bool,
    eof: bool,
    size: usize,
}

/// A chunk: its place in the stream and its bytes, followed by the first
/// line of the next chunk (`lookahead`), if there is one.
pub(crate) struct Chunk {
    pub index: usize,
    pub origin: Origin,
    pub bytes: Vec<u8>,
    /// How many of `bytes` are the chunk's own.
    pub len: usize,
    pub last: bool,
    /// The chunk starts a line: a game may start where it starts. One cut
    /// inside a line is never read on a worker: it is read again.
    pub starts_line: bool,
    /// The next chunk starts a line, carried whole after the chunk's own
    /// bytes: a reader of this chunk can tell whether a game starts there.
    /// Else (a line too long to carry) the chunk's last game is read again.
    pub boundary: bool,
}

impl Chunk {
    fn own(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// The stream offset just past the chunk.
    fn end(&self) -> u64 {
        self.origin.byte + self.len as u64
    }
}

/// Does a line that follows `before` seem to stand inside a comment (the
/// last brace before it opens one)? Then a game quoted in the comment is
/// likely, and a cut there would be read again on one thread. Only a
/// guess: a brace in a tag's value fools it, and a wrong guess costs time,
/// never bytes. The scan back stops at the first brace.
fn seems_inside_comment(before: &[u8]) -> bool {
    memchr::memrchr2(b'{', b'}', before).is_some_and(|i| before[i] == b'{')
}

/// Where a chunk ends.
enum Cut {
    /// Before a line that starts `[Variant "`, or any line: a game may start there.
    Line(usize),
    /// Inside a line.
    MidLine(usize),
    /// At the end of the input.
    End,
}

impl<R: Read> Chunker<R> {
    pub fn new(input: R, size: usize) -> Chunker<R> {
        Chunker {
            input,
            buf: Vec::new(),
            filled: 0,
            origin: Origin::START,
            starts_line: true,
            eof: false,
            size: size.max(1),
        }
    }

    /// The most bytes of its own a chunk holds.
    fn bound(&self) -> usize {
        2 * self.size
    }

    /// The longest first line of the next chunk carried with one: at
    /// least 64 KiB, so that tiny chunks in tests still carry a line.
    fn lookahead(&self) -> usize {
        self.bound().max(1 << 16)
    }

    /// The next chunk, or `None` at the end of the input. A chunk is longer
    /// than `size` only when no candidate line comes sooner, and at most
    /// `2 × size`.
    pub fn next_chunk(&mut self, index: usize) -> io::Result<Option<Chunk>> {
        let bound = self.bound();
        let mut searched = 0;
        let cut = 'search: loop {
            if self.filled >= self.size {
                let mut from = searched.max(self.size).saturating_sub(CANDIDATE.len());
                while let Some(i) = memchr::memmem::find(&self.buf[from..self.filled], CANDIDATE) {
                    let line = from + i + 1;
                    if line > bound {
                        break;
                    }
                    if !seems_inside_comment(&self.buf[..line]) {
                        break 'search Cut::Line(line);
                    }
                    from = line;
                }
                searched = self.filled;
                if self.filled >= bound {
                    break self.forced_cut();
                }
            }
            if self.eof {
                break Cut::End;
            }
            self.fill()?;
        };
        let (len, next_starts_line) = match cut {
            Cut::Line(at) => (at, true),
            Cut::MidLine(at) => (at, false),
            Cut::End if self.filled == 0 => return Ok(None),
            Cut::End => (self.filled, false),
        };
        // The next chunk's first line, whole, when it is not too long.
        let mut lookahead = len;
        if next_starts_line {
            let most = self.lookahead();
            loop {
                let ahead = &self.buf[len..self.filled.min(len + most)];
                if let Some(n) = memchr::memchr(b'\n', ahead) {
                    lookahead = len + n + 1;
                    break;
                }
                if self.eof {
                    lookahead = self.filled;
                    break;
                }
                if ahead.len() >= most {
                    break;
                }
                self.fill()?;
            }
        }
        // A copy the chunk's size: the buffer, read into up to twice the
        // size, stays here for the next chunk.
        let bytes = self.buf[..lookahead].to_vec();
        self.buf.copy_within(len..self.filled, 0);
        self.filled -= len;
        let origin = self.origin;
        self.origin.byte += len as u64;
        self.origin.line += memchr::memchr_iter(b'\n', &bytes[..len]).count() as u64;
        let starts_line = std::mem::replace(&mut self.starts_line, next_starts_line);
        Ok(Some(Chunk {
            index,
            origin,
            bytes,
            len,
            last: matches!(cut, Cut::End),
            starts_line,
            boundary: lookahead > len,
        }))
    }

    /// No candidate line within `2 × size` bytes (a long comment, games
    /// without a Variant tag): a cut after `size` bytes anyway, before the
    /// first line that follows an empty one (games are set apart so), or
    /// before any line, or, in a line too long, at `2 × size`. Reading
    /// checks every cut: one that no game starts at only costs a reading
    /// again on one thread.
    fn forced_cut(&self) -> Cut {
        let bound = self.bound();
        let window = &self.buf[self.size..bound];
        if let Some(i) = memchr::memmem::find(window, b"\n\n") {
            Cut::Line(self.size + i + 2)
        } else if let Some(i) = memchr::memchr(b'\n', window) {
            Cut::Line(self.size + i + 1)
        } else {
            Cut::MidLine(bound)
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        let want = self.size.saturating_sub(self.filled).max(1 << 16);
        if self.buf.len() < self.filled + want {
            self.buf.resize(self.filled + want, 0);
        }
        let n = read_some(
            &mut self.input,
            &mut self.buf[self.filled..self.filled + want],
        )?;
        self.filled += n;
        self.eof |= n == 0;
        Ok(())
    }
}

/// What a reader made of some input: its games' text and rejects, their
/// counts, and where it stopped; when the merger decides what depends on
/// the games before, the bytes as read of the games it may leave out.
/// Its diagnostics, and its notes of each game, were handed on as [`Item`]s.
#[derive(Default)]
struct Output {
    out: Vec<u8>,
    rejects: Vec<u8>,
    aside: Vec<u8>,
    report: Report,
}

/// What a reader hands on as it reads, in input order: a diagnostic, or,
/// when the merger decides what depends on the games before, a game's
/// note, before the game's diagnostics.
enum Item {
    Diagnostic(Diagnostic),
    Game(Deferred),
}

impl Item {
    /// The memory it holds, near enough to bound a queue by.
    fn cost(&self) -> usize {
        std::mem::size_of::<Item>()
            + match self {
                Item::Diagnostic(d) => d.message.capacity() + d.source.capacity(),
                Item::Game(_) => 0,
            }
    }
}

/// Where a reader hands its items on.
type Post = Arc<dyn Fn(Item) + Send + Sync>;

/// What a worker that panicked panicked with.
type Panic = Box<dyn std::any::Any + Send>;

/// The items of the chunks read on the workers, each chunk's in a queue
/// of at most `cap` bytes, and the chunks read.
struct Mailbox {
    board: Mutex<Board>,
    /// The merger waits here for items or a chunk read; workers, for room.
    merger: Condvar,
    workers: Condvar,
    cap: usize,
}

#[derive(Default)]
struct Board {
    queues: BTreeMap<usize, Queue>,
    done: BTreeMap<usize, Done>,
    /// Chunks read, whether kept or not.
    finished: usize,
    /// What is handed on for a chunk below this is dropped: it was read
    /// again on the merger (or the run is over).
    floor: usize,
    merger_waits: bool,
    workers_wait: usize,
    /// The first panic of a worker: the run ends with it.
    panic: Option<Panic>,
}

#[derive(Default)]
struct Queue {
    items: VecDeque<Item>,
    /// What the items hold ([`Item::cost`]).
    bytes: usize,
}

/// A worker panicked: the merger stops, and the panic goes on from
/// [`run_parallel_into`].
struct Panicked;

impl Mailbox {
    fn new(cap: usize) -> Mailbox {
        Mailbox {
            board: Mutex::new(Board::default()),
            merger: Condvar::new(),
            workers: Condvar::new(),
            cap: cap.max(1),
        }
    }

    fn board(&self) -> MutexGuard<'_, Board> {
        // A worker that panicked holding it left whole queues.
        self.board.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hands `item` of chunk `index` on, once its queue has room.
    fn post(&self, index: usize, item: Item) {
        let mut board = self.board();
        while index >= board.floor
            && board
                .queues
                .get(&index)
                .is_some_and(|q| q.bytes >= self.cap)
        {
            board.workers_wait += 1;
            board = self.workers.wait(board).unwrap_or_else(|e| e.into_inner());
            board.workers_wait -= 1;
        }
        if index < board.floor {
            return;
        }
        let queue = board.queues.entry(index).or_default();
        queue.bytes += item.cost();
        queue.items.push_back(item);
        if board.merger_waits {
            self.merger.notify_one();
        }
    }

    /// A chunk read, after its items.
    fn finish(&self, done: Done) {
        let mut board = self.board();
        board.finished += 1;
        if done.chunk.index >= board.floor {
            board.done.insert(done.chunk.index, done);
        }
        if board.merger_waits {
            self.merger.notify_one();
        }
    }

    /// A worker panicked: the merger is told, and the other workers stop
    /// waiting for room.
    fn panicked(&self, panic: Panic) {
        let mut board = self.board();
        board.panic.get_or_insert(panic);
        board.floor = usize::MAX;
        board.queues.clear();
        self.merger.notify_one();
        self.workers.notify_all();
    }

    /// The panic of a worker, if one panicked.
    fn take_panic(&self) -> Option<Panic> {
        self.board().panic.take()
    }

    /// Waits for items of chunk `index`, or its end: the items come so far,
    /// and the chunk read once they are all taken.
    fn collect(&self, index: usize) -> Result<(VecDeque<Item>, Option<Done>), Panicked> {
        let mut board = self.board();
        loop {
            if board.panic.is_some() {
                return Err(Panicked);
            }
            let items = board.queues.remove(&index).unwrap_or_default().items;
            let done = board.done.remove(&index);
            if !items.is_empty() || done.is_some() {
                if board.workers_wait > 0 && !items.is_empty() {
                    self.workers.notify_all();
                }
                return Ok((items, done));
            }
            board.merger_waits = true;
            board = self.merger.wait(board).unwrap_or_else(|e| e.into_inner());
            board.merger_waits = false;
        }
    }

    /// Drops what is handed on for the chunks below `floor`, now and later.
    fn drop_below(&self, floor: usize) {
        let mut board = self.board();
        board.floor = board.floor.max(floor);
        let floor = board.floor;
        board.queues.retain(|&i, _| i >= floor);
        board.done.retain(|&i, _| i >= floor);
        if board.workers_wait > 0 {
            self.workers.notify_all();
        }
    }

    fn finished(&self) -> usize {
        self.board().finished
    }
}

/// Which sinks the merger has besides the output.
#[derive(Clone, Copy)]
struct Keep {
    rejects: bool,
    duplicates: bool,
}

/// A worker's sink, whose length its gate reads.
struct Counted<'a> {
    sink: &'a mut Vec<u8>,
    len: &'a AtomicU64,
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.sink.extend_from_slice(buf);
        Lengths::grow(self.len, buf.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A chunk read on a worker.
struct Done {
    chunk: Arc<Chunk>,
    output: Output,
    stop: io::Result<Stop>,
}

/// Reads `src`, from `start`, up to `until`, into `output`, handing its
/// diagnostics to `post`; with a filter that leaves the games before to
/// decide (see [`Deferral`]), each game's note before them.
fn read_into(
    filter: &mut Filter,
    start: Resume,
    until: Until<'_>,
    src: impl Read,
    output: &mut Output,
    keep: Keep,
    post: &Post,
) -> io::Result<Stop> {
    let mut on_diagnostic = |d: &Diagnostic| post(Item::Diagnostic(d.clone()));
    if !filter.gate.orders() {
        let Output { out, rejects, .. } = output;
        let rejects = keep.rejects.then_some(rejects as &mut dyn Write);
        let reader = Reader::new(
            filter,
            start,
            until,
            src,
            out,
            rejects,
            None,
            &mut on_diagnostic,
        );
        let (counts, stop) = reader.run()?;
        output.report.add(&counts);
        return Ok(stop);
    }
    let lengths = Arc::new(Lengths::default());
    let games = Arc::clone(post);
    filter.gate.defer = Some(Deferral {
        lengths: Arc::clone(&lengths),
        post: Box::new(move |game| games(Item::Game(game))),
    });
    let Output {
        out,
        rejects,
        aside,
        report,
    } = output;
    let mut out = Counted {
        sink: out,
        len: &lengths.out,
    };
    let mut rejects = Counted {
        sink: rejects,
        len: &lengths.rejects,
    };
    let mut aside = Counted {
        sink: aside,
        len: &lengths.aside,
    };
    let reader = Reader::new(
        filter,
        start,
        until,
        src,
        &mut out,
        keep.rejects.then_some(&mut rejects as &mut dyn Write),
        keep.duplicates.then_some(&mut aside as &mut dyn Write),
        &mut on_diagnostic,
    );
    let run = reader.run();
    filter.gate.defer = None;
    let (counts, stop) = run?;
    report.add(&counts);
    Ok(stop)
}

/// A chunk read from its start: to where the next chunk starts if a game
/// starts there, else short of the game under way.
fn read_chunk(
    filter: &mut Filter,
    chunk: &Chunk,
    keep: Keep,
    post: &Post,
) -> (Output, io::Result<Stop>) {
    let start = Resume::from(chunk.origin);
    let end = chunk.end();
    // Without the next chunk's first line, no game can be told to start
    // there: the last game is left unfinished, to be read again.
    let boundary = chunk.boundary;
    let is_next = move |at: u64| boundary && at == end;
    let until = if chunk.last {
        Until::End
    } else {
        Until::Boundary {
            is_boundary: &is_next,
            whole: false,
        }
    };
    // A chunk cut inside a line is read up to its last line end: a line
    // cut short could read as the end of a game and the start of another.
    let bytes = match chunk.boundary || chunk.last {
        true => &chunk.bytes[..],
        false => {
            let own = chunk.own();
            &own[..memchr::memrchr(b'\n', own).map_or(0, |n| n + 1)]
        }
    };
    let mut output = Output::default();
    let stop = read_into(filter, start, until, bytes, &mut output, keep, post);
    (output, stop)
}

/// Filters `input` on `jobs` threads (at most 1024: more are
/// taken as that many), each with a filter from `make`, and writes output,
/// rejects and diagnostics in input order: the same bytes, diagnostics and
/// counts as one thread. Memory is bounded by a few chunks of up to
/// `2 × chunk_size` bytes per thread, whatever the input, and what one
/// thread takes to read a game (a game read again is read as on one
/// thread, straight to the sinks). A worker's panic is raised here once
/// the other workers end. A thread that
/// cannot be started is an error, before anything is read.
///
/// ```
/// use ctlpgn_filter::{run_parallel, Filter};
/// // The second game quotes a third in its comment: no chunk starts there.
/// let input = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n{ quoted:\n[Variant \"C'escacs\"]\n1. F8-F12:\n}\n"
///     .repeat(50);
/// let (mut one, mut two) = (Vec::new(), Vec::new());
/// Filter::default().run(input.as_bytes(), &mut one, &mut |_| {}).unwrap();
/// let report = run_parallel(&Filter::default, input.as_bytes(), 2, 64, &mut two, None, &mut |_| {})
///     .unwrap();
/// assert_eq!(one, two);
/// assert_eq!(report.games_written, 50);
/// ```
pub fn run_parallel<'a>(
    make: &'a (dyn Fn() -> Filter + Sync),
    input: impl Read,
    jobs: usize,
    chunk_size: usize,
    out: &'a mut dyn Write,
    rejects: Option<&'a mut dyn Write>,
    on_diagnostic: &'a mut dyn FnMut(&Diagnostic),
) -> io::Result<Report> {
    let sinks = Sinks {
        out,
        rejects,
        duplicates: None,
        on_diagnostic,
    };
    run_parallel_into(make, input, jobs, chunk_size, sinks)
}

/// [`run_parallel`] into [`Sinks`], duplicates included. What depends on
/// the games before (`dedup`, `stop_after`) is decided on this thread, in
/// input order, with a filter from `make` (give every filter it makes the
/// same [`crate::Ledger`] to carry it from one input to the next): the
/// bytes, diagnostics and counts are still one thread's.
///
/// ```
/// use ctlpgn_filter::{run_parallel_into, FilterBuilder, Sinks};
/// let input = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n[Variant \"C'escacs\"]\n1. F8-F12:\n*\n".repeat(20);
/// let (mut out, mut duplicates) = (Vec::new(), Vec::new());
/// let make = || FilterBuilder::new().dedup(true).build();
/// let sinks = Sinks {
///     out: &mut out,
///     rejects: None,
///     duplicates: Some(&mut duplicates),
///     on_diagnostic: &mut |_| {},
/// };
/// let report = run_parallel_into(&make, input.as_bytes(), 2, 64, sinks).unwrap();
/// assert_eq!((report.games_written, report.left_out.duplicates), (2, 38));
/// assert_eq!(duplicates.len(), input.len() - input.len() / 20);
/// ```
pub fn run_parallel_into<'a>(
    make: &'a (dyn Fn() -> Filter + Sync),
    input: impl Read,
    jobs: usize,
    chunk_size: usize,
    sinks: Sinks<'a>,
) -> io::Result<Report> {
    let jobs = jobs.clamp(1, MAX_JOBS);
    let decider = make();
    if decider.gate.closed() {
        return Ok(Report::default());
    }
    let keep = Keep {
        rejects: sinks.rejects.is_some(),
        duplicates: sinks.duplicates.is_some(),
    };
    // Room for half a chunk of messages: a chunk of games with a few
    // warnings each is read without waiting its turn.
    let mailbox = Arc::new(Mailbox::new((chunk_size / 2).max(1 << 18)));
    std::thread::scope(|scope| {
        // Unbounded: the merger never waits to hand a chunk over, while
        // the workers wait for it to take their messages.
        let (work_tx, work_rx) = mpsc::channel::<Arc<Chunk>>();
        let work_rx = Arc::new(Mutex::new(work_rx));
        for started in 0..jobs {
            let work_rx = Arc::clone(&work_rx);
            let mailbox = Arc::clone(&mailbox);
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                let mut filter = make();
                loop {
                    let job = work_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok(chunk) = job else {
                        return;
                    };
                    if !chunk.starts_line {
                        // Never where a game starts: it is read again.
                        let stop = Ok(Stop::Unfinished(Resume::from(chunk.origin)));
                        let output = Output::default();
                        mailbox.finish(Done {
                            chunk,
                            output,
                            stop,
                        });
                        continue;
                    }
                    let index = chunk.index;
                    let to = Arc::clone(&mailbox);
                    let post: Post = Arc::new(move |item| to.post(index, item));
                    // A panic (a pass of the caller's, say) is the merger's to
                    // raise, which would else wait for this chunk for ever.
                    let read = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        read_chunk(&mut filter, &chunk, keep, &post)
                    }));
                    match read {
                        Ok((output, stop)) => mailbox.finish(Done {
                            chunk,
                            output,
                            stop,
                        }),
                        Err(panic) => return mailbox.panicked(panic),
                    }
                }
            });
            if let Err(e) = spawned {
                // Nothing read yet; the workers started end as `work_tx` drops.
                let why = e.to_string();
                let why = why.split(" (os error").next().unwrap_or_default();
                let n = started + 1;
                return Err(io::Error::new(
                    e.kind(),
                    format!(
                        "cannot start worker thread {n} of {jobs}: {why}: ask for fewer threads"
                    ),
                ));
            }
        }
        let mut merger = Merger {
            store: Store {
                chunker: Chunker::new(input, chunk_size),
                work_tx: Some(work_tx),
                mailbox: Arc::clone(&mailbox),
                sent: 0,
                jobs,
                produced: 0,
                eof: false,
                chunks: BTreeMap::new(),
                inline: BTreeMap::new(),
            },
            make,
            sinks: Ordered {
                sinks,
                decider,
                total: Report::default(),
            },
            window: (4 * chunk_size).max(1 << 16),
        };
        let result = std::panic::catch_unwind(AssertUnwindSafe(|| merger.run()));
        drop(merger.store.work_tx.take());
        // The workers still reading drop what they hand on, and end.
        mailbox.drop_below(usize::MAX);
        let panic = match result {
            Ok(result) => mailbox.take_panic().map_or(Ok(result), Err),
            Err(panic) => Err(panic),
        };
        match panic {
            Ok(result) => result.map(|()| merger.sinks.total),
            // Once the workers are told to end: the scope waits for them.
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Where the output goes, in input order; what depends on the games
/// before is decided here, by `decider`'s gate.
struct Ordered<'a> {
    sinks: Sinks<'a>,
    decider: Filter,
    total: Report,
}

/// What the merger has taken of a chunk's items so far: the game whose
/// note came last, and what is to be written of the games before it.
#[derive(Default)]
struct Told {
    /// Its part ends where the next game's starts, or with the chunk.
    last: Option<(Deferred, Decided)>,
    plan: Plan,
    /// The counts of the games in `plan`, as decided.
    counts: Report,
    /// The diagnostics that come now are dropped: their game is left out,
    /// or comes after the last that `--stop-after` lets through (or, when
    /// the merger decides, no game's note has come yet).
    dropping: bool,
    stopped: bool,
}

/// What became of a game, its note told: [`Verdict`] without the note.
struct Decided {
    left_out: Option<crate::passes::LeftOut>,
    aside: bool,
}

/// The parts of a chunk's output, rejects and bytes set aside to write
/// once it is read: each run of games that go to a sink whole is one
/// range, so that the plan grows with the games left out between games
/// written, not with the games.
#[derive(Default)]
struct Plan {
    out: Ranges,
    rejects: Ranges,
    aside: Ranges,
}

#[derive(Default)]
struct Ranges(Vec<Range<usize>>);

impl Ranges {
    fn push(&mut self, r: Range<usize>) {
        match self.0.last_mut() {
            _ if r.is_empty() => {}
            Some(last) if last.end == r.start => last.end = r.end,
            _ => self.0.push(r),
        }
    }

    fn write(&self, from: &[u8], to: Option<&mut &mut dyn Write>) -> io::Result<()> {
        let Some(to) = to else {
            return Ok(());
        };
        self.0
            .iter()
            .try_for_each(|r| to.write_all(&from[r.clone()]))
    }
}

/// Where a game's part of each sink starts, and the counts before it: a
/// game's note, or, past the last game, the chunk's end.
struct Mark {
    out: usize,
    rejects: usize,
    aside: usize,
    before: Report,
}

impl Mark {
    fn of(game: &Deferred) -> Mark {
        Mark {
            out: game.out,
            rejects: game.rejects,
            aside: game.aside,
            before: game.before,
        }
    }

    fn end(o: &Output) -> Mark {
        Mark {
            out: o.out.len(),
            rejects: o.rejects.len(),
            aside: o.aside.len(),
            before: o.report,
        }
    }
}

impl Told {
    fn new(ordered: bool) -> Told {
        Told {
            dropping: ordered,
            ..Told::default()
        }
    }

    /// Plans the last game told, its part ending at `end`.
    fn settle(&mut self, end: Mark) {
        let Some((game, decided)) = self.last.take() else {
            return;
        };
        let mut counts = end.before.since(&game.before);
        if let Some(reason) = decided.left_out {
            // A game left out gives, to the duplicates, its bytes as read.
            counts.left_out_instead(reason);
            if decided.aside {
                self.plan.aside.push(game.aside..end.aside);
            }
        } else {
            self.plan.out.push(game.out..end.out);
            self.plan.rejects.push(game.rejects..end.rejects);
        }
        self.counts.add(&counts);
    }
}

impl Ordered<'_> {
    /// Takes a chunk's `items` in order: hands on the diagnostics of the
    /// games written, and decides on each game as its note comes.
    fn tell(&mut self, items: impl IntoIterator<Item = Item>, told: &mut Told) {
        for item in items {
            match item {
                Item::Diagnostic(d) => {
                    if !told.dropping {
                        (self.sinks.on_diagnostic)(&d);
                    }
                }
                Item::Game(game) => {
                    told.settle(Mark::of(&game));
                    if told.stopped {
                        // After `--stop-after`'s last game: nothing more.
                        told.dropping = true;
                        continue;
                    }
                    let mut verdict = Verdict::default();
                    if game.candidate {
                        let file = &self.decider.writer.file;
                        self.decider
                            .gate
                            .admit(&mut verdict, game.key, game.at, file);
                    }
                    told.dropping = verdict.left_out.is_some();
                    if let Some(note) = &verdict.note {
                        (self.sinks.on_diagnostic)(note);
                    }
                    told.stopped = verdict.stop;
                    let decided = Decided {
                        left_out: verdict.left_out,
                        aside: verdict.aside,
                    };
                    told.last = Some((game, decided));
                }
            }
        }
    }

    /// Writes what a reader made, its items told: `true` when
    /// `--stop-after` has let its last game through: nothing more is
    /// written.
    fn write(&mut self, output: &Output, mut told: Told) -> io::Result<bool> {
        let s = &mut self.sinks;
        if !self.decider.gate.orders() {
            s.out.write_all(&output.out)?;
            if let Some(r) = s.rejects.as_mut() {
                r.write_all(&output.rejects)?;
            }
            self.total.add(&output.report);
            return Ok(false);
        }
        told.settle(Mark::end(output));
        let plan = &told.plan;
        plan.out.write(&output.out, Some(&mut s.out))?;
        plan.rejects.write(&output.rejects, s.rejects.as_mut())?;
        plan.aside.write(&output.aside, s.duplicates.as_mut())?;
        self.total.add(&told.counts);
        Ok(told.stopped)
    }
}

/// The main thread: hands chunks to the workers, and writes what they
/// made of them in order, reading again where a chunk did not start a
/// game.
struct Merger<'a, R> {
    store: Store<R>,
    make: &'a (dyn Fn() -> Filter + Sync),
    sinks: Ordered<'a>,
    /// The most bytes of chunks a reading again keeps for the workers
    /// while a line it has not read to its end may start a game.
    window: usize,
}

/// The chunks cut, handed to the workers, and kept until written or read
/// again.
struct Store<R> {
    chunker: Chunker<R>,
    work_tx: Option<mpsc::Sender<Arc<Chunk>>>,
    mailbox: Arc<Mailbox>,
    /// Chunks handed to the workers.
    sent: usize,
    jobs: usize,
    /// Chunks cut so far, and whether the input has no more.
    produced: usize,
    eof: bool,
    /// Chunks handed to the workers and not yet written or read again.
    chunks: BTreeMap<usize, Arc<Chunk>>,
    /// Chunks cut while reading again, not yet handed to a worker.
    inline: BTreeMap<usize, Arc<Chunk>>,
}

impl<R: Read> Merger<'_, R> {
    fn run(&mut self) -> io::Result<()> {
        let mut next = 0;
        loop {
            self.store.dispatch()?;
            let Some((done, told)) = self.take(next)? else {
                return Ok(());
            };
            self.store.chunks.remove(&next);
            let Done {
                chunk,
                output,
                stop,
            } = done;
            if self.sinks.write(&output, told)? {
                return Ok(());
            }
            drop(output);
            match stop? {
                Stop::Unfinished(resume) => match self.read_again(resume, &chunk)? {
                    Some(boundary) => next = boundary,
                    None => return Ok(()),
                },
                Stop::FailFast => return Ok(()),
                Stop::Boundary(_) | Stop::End => next += 1,
            }
        }
    }

    /// Chunk `index` as read by a worker, its items told as they come;
    /// `None` past the last chunk.
    fn take(&mut self, index: usize) -> io::Result<Option<(Done, Told)>> {
        let store = &mut self.store;
        while index >= store.produced {
            if store.eof {
                return Ok(None);
            }
            store.dispatch()?;
        }
        store.dispatch()?;
        let mut told = Told::new(self.sinks.decider.gate.orders());
        loop {
            let Ok((items, done)) = store.mailbox.collect(index) else {
                // Its panic is raised once the others are told to end.
                return Err(io::Error::other("a worker thread panicked"));
            };
            self.sinks.tell(items, &mut told);
            if let Some(done) = done {
                return Ok(Some((done, told)));
            }
        }
    }

    /// Reads again, on this thread, from `resume` in `chunk` on, across
    /// the chunks that follow, until a game starts where a chunk starts;
    /// returns that chunk's index, or `None` at the end of the input (or of
    /// what `--stop-after` lets through). Everything before is written:
    /// what it reads goes straight to the sinks, and what depends on the
    /// games before is decided as on one thread, by the run's ledger.
    fn read_again(&mut self, resume: Resume, chunk: &Arc<Chunk>) -> io::Result<Option<usize>> {
        let from = (resume.line_start - chunk.origin.byte) as usize;
        let window = RefCell::new(Window::new(self.window));
        let is_start = |at: u64| window.borrow().chunk_at(at).is_some();
        let until = Until::Boundary {
            is_boundary: &is_start,
            whole: true,
        };
        let mut filter = (self.make)();
        filter.gate.ledger = self.sinks.decider.gate.ledger.clone();
        let store = &mut self.store;
        let mut fetch = |index: usize| -> io::Result<Option<Arc<Chunk>>> {
            let Some(fetched) = store.fetch(index)? else {
                return Ok(None);
            };
            let keep = window.borrow_mut().fetched(&fetched);
            store.drop_below(keep);
            Ok(Some(fetched))
        };
        let src = Chained {
            current: Arc::clone(chunk),
            at: from,
            fetch: &mut fetch,
        };
        let s = &mut self.sinks.sinks;
        let reader = Reader::new(
            &mut filter,
            resume,
            until,
            src,
            &mut *s.out,
            s.rejects.as_mut().map(|r| &mut **r as &mut dyn Write),
            s.duplicates.as_mut().map(|r| &mut **r as &mut dyn Write),
            &mut *s.on_diagnostic,
        );
        let (counts, stop) = reader.run()?;
        self.sinks.total.add(&counts);
        let boundary = match stop {
            Stop::Boundary(at) => Some(
                window
                    .borrow()
                    .chunk_at(at)
                    .expect("a boundary is a chunk's start"),
            ),
            Stop::End | Stop::FailFast | Stop::Unfinished(_) => None,
        };
        // What the workers made of the chunks read again is not needed.
        self.store
            .drop_below(boundary.unwrap_or(self.store.produced));
        Ok(boundary)
    }
}

impl<R: Read> Store<R> {
    /// Hands the chunks cut while reading again to the workers, then cuts
    /// more while fewer than `2 × jobs` are in flight. Chunks go in input
    /// order, so that the one whose turn it is is never behind a worker
    /// waiting for its turn.
    fn dispatch(&mut self) -> io::Result<()> {
        while let Some((_, chunk)) = self.inline.pop_first() {
            self.chunks.insert(chunk.index, Arc::clone(&chunk));
            self.send(chunk);
        }
        while !self.eof && self.sent - self.mailbox.finished() < 2 * self.jobs {
            let Some(chunk) = self.cut()? else {
                return Ok(());
            };
            let chunk = Arc::new(chunk);
            self.chunks.insert(chunk.index, Arc::clone(&chunk));
            self.send(chunk);
        }
        Ok(())
    }

    fn cut(&mut self) -> io::Result<Option<Chunk>> {
        let chunk = self.chunker.next_chunk(self.produced)?;
        match &chunk {
            Some(c) => {
                self.produced += 1;
                self.eof = c.last;
            }
            None => self.eof = true,
        }
        Ok(chunk)
    }

    fn send(&mut self, chunk: Arc<Chunk>) {
        self.sent += 1;
        self.work_tx
            .as_ref()
            .expect("workers run while the merger does")
            .send(chunk)
            .expect("workers outlive the merger");
    }

    /// Chunk `index`, for reading again, cut now if it was not yet (its
    /// worker's reading of it, if any, is kept: it may start a game).
    fn fetch(&mut self, index: usize) -> io::Result<Option<Arc<Chunk>>> {
        if index >= self.produced && !self.eof {
            if let Some(chunk) = self.cut()? {
                let chunk = Arc::new(chunk);
                self.inline.insert(chunk.index, Arc::clone(&chunk));
                return Ok(Some(chunk));
            }
        }
        let chunk = self.inline.get(&index).or_else(|| self.chunks.get(&index));
        Ok(chunk.cloned())
    }

    /// Forgets the chunks below `floor`, and what the workers make of them.
    fn drop_below(&mut self, floor: usize) {
        self.mailbox.drop_below(floor);
        self.chunks.retain(|&i, _| i >= floor);
        self.inline.retain(|&i, _| i >= floor);
    }
}

/// The chunks that a reading again may yet find a game to start at, and
/// those after them: the first is one whose first line it has not read to
/// its end. The reader asks for more input only once it has read every
/// whole line it holds, so a chunk fetched after a line end was fetched
/// tells that the lines of the chunks before are read, and whether a
/// game starts at their starts is known. A line longer than `limit` gives
/// up the chunks it starts: read on here, as on one thread, the run is the
/// same, and memory stays bounded.
struct Window {
    chunks: VecDeque<Kept>,
    bytes: usize,
    limit: usize,
    /// The chunk fetched last has a line end.
    line_end: bool,
}

struct Kept {
    index: usize,
    start: u64,
    starts_line: bool,
    len: usize,
}

impl Window {
    fn new(limit: usize) -> Window {
        Window {
            chunks: VecDeque::new(),
            bytes: 0,
            limit,
            line_end: false,
        }
    }

    /// Chunk `c` is fetched: returns the first chunk to keep.
    fn fetched(&mut self, c: &Chunk) -> usize {
        if self.line_end {
            self.chunks.clear();
            self.bytes = 0;
        }
        self.line_end = memchr::memchr(b'\n', c.own()).is_some();
        let index = c.index;
        if c.starts_line || !self.chunks.is_empty() {
            self.chunks.push_back(Kept {
                index,
                start: c.origin.byte,
                starts_line: c.starts_line,
                len: c.len,
            });
            self.bytes += c.len;
        }
        while self.bytes > self.limit {
            let Some(first) = self.chunks.pop_front() else {
                break;
            };
            self.bytes -= first.len;
            while let Some(k) = self.chunks.front().filter(|k| !k.starts_line) {
                self.bytes -= k.len;
                self.chunks.pop_front();
            }
        }
        self.chunks.front().map_or(index + 1, |k| k.index)
    }

    /// The chunk kept that starts at stream offset `at` and a line.
    fn chunk_at(&self, at: u64) -> Option<usize> {
        let i = self.chunks.binary_search_by_key(&at, |k| k.start).ok()?;
        let k = &self.chunks[i];
        k.starts_line.then_some(k.index)
    }
}

/// The input again, from a place in a chunk on: the chunks after it are
/// fetched as the reader gets to them.
struct Chained<'a> {
    current: Arc<Chunk>,
    /// How many of its own bytes are read.
    at: usize,
    fetch: &'a mut dyn FnMut(usize) -> io::Result<Option<Arc<Chunk>>>,
}

impl Read for Chained<'_> {
    /// Fills `buf` across chunks, as the input itself would be read: the
    /// reader then holds what one thread holds, so that what it places
    /// from held bytes (a column) is the same.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            let rest = &self.current.own()[self.at..];
            if rest.is_empty() {
                match (self.fetch)(self.current.index + 1)? {
                    Some(next) => {
                        self.current = next;
                        self.at = 0;
                        continue;
                    }
                    None => break,
                }
            }
            let k = rest.len().min(buf.len() - n);
            buf[n..n + k].copy_from_slice(&rest[..k]);
            self.at += k;
            n += k;
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FilterBuilder, Ledger};

    fn chunks(input: &str, size: usize) -> Vec<(Origin, String, String)> {
        cut(input, size)
            .into_iter()
            .map(|c| {
                let own = String::from_utf8(c.own().to_vec()).unwrap();
                let ahead = String::from_utf8(c.bytes[c.len..].to_vec()).unwrap();
                (c.origin, own, ahead)
            })
            .collect()
    }

    fn cut(input: &str, size: usize) -> Vec<Chunk> {
        let mut c = Chunker::new(input.as_bytes(), size);
        let mut v = Vec::new();
        while let Some(chunk) = c.next_chunk(v.len()).unwrap() {
            v.push(chunk);
        }
        v
    }

    #[test]
    fn chunks_start_at_variant_lines_and_carry_the_next_ones_first_line() {
        let a = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
        let b = "[Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
        // A candidate line within twice the size is waited for.
        let v = chunks(&format!("{a}{b}"), a.len() / 2 + 1);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].1, a);
        assert_eq!(v[0].2, "[Variant \"C'escacs\"]\n");
        assert_eq!(
            v[1].0,
            Origin {
                line: 3,
                byte: a.len() as u64
            }
        );
        assert_eq!(v[1].2, "");
    }

    #[test]
    fn chunks_do_not_start_at_a_game_quoted_in_a_comment() {
        let a = "[Variant \"C'escacs\"]\n1. E7-E13 { as in:\n[Variant \"C'escacs\"]\n1. F8-F12:\n*\n}:\n*\n";
        let b = "[Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
        let v = chunks(&format!("{a}{b}"), a.len() / 2 + 1);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].1, a);
        assert_eq!(v[1].1, b);
    }

    #[test]
    fn chunks_without_a_variant_line_are_cut_within_twice_their_size_after_an_empty_line() {
        let input = "1. E7-E13:\n*\n\n".repeat(1000);
        let v = chunks(&input, 100);
        assert!(v.len() > 60);
        for (_, own, ahead) in &v[..v.len() - 1] {
            assert!(own.len() <= 200 && own.ends_with("\n\n"), "{own:?}");
            assert_eq!(ahead, "1. E7-E13:\n");
        }
        let joined: String = v.iter().map(|c| c.1.as_str()).collect();
        assert_eq!(joined, input);
    }

    #[test]
    fn a_line_longer_than_twice_the_size_is_cut_inside_and_never_carried() {
        let input = format!("1. E7-E13:\n{{{}}}\n*\n", "x".repeat(1000));
        let v = cut(&input, 100);
        assert!(v.iter().all(|c| c.len <= 200));
        // The chunk before the long line carries no line of it; those cut
        // inside it do not start a line.
        assert!(v[0].starts_line && !v[0].boundary);
        assert!(v[1..v.len() - 1]
            .iter()
            .all(|c| !c.starts_line && !c.boundary));
        let joined: Vec<u8> = v.iter().flat_map(|c| c.own().to_vec()).collect();
        assert_eq!(joined, input.as_bytes());
    }

    /// The options a test's filters are built with.
    type Options = fn(FilterBuilder) -> FilterBuilder;

    /// Output, rejects, diagnostics and counts of `input` on `jobs` threads
    /// (1: the filter's own run), with filters as `options` build them,
    /// sharing one ledger.
    fn filtered(
        options: Options,
        input: &str,
        jobs: usize,
    ) -> (Vec<u8>, Vec<u8>, Vec<String>, Report) {
        let ledger = Ledger::new();
        let make = || options(FilterBuilder::new()).ledger(ledger.clone()).build();
        let (mut out, mut rejects, mut told) = (Vec::new(), Vec::new(), Vec::new());
        let sinks = Sinks {
            out: &mut out,
            rejects: Some(&mut rejects),
            duplicates: None,
            on_diagnostic: &mut |d| told.push(d.render("f")),
        };
        let report = if jobs == 1 {
            make().run_into(Origin::START, input.as_bytes(), sinks)
        } else {
            run_parallel_into(&make, input.as_bytes(), jobs, 64, sinks)
        }
        .unwrap();
        (out, rejects, told, report)
    }

    #[test]
    fn more_messages_than_a_chunks_queue_holds_come_out_as_on_one_thread() {
        // No Variant line to cut at: one chunk of 5,000 warnings, then
        // chunks of a warning and an error each.
        let mut input = "1. E7-E13:\n*\n\n".repeat(5000);
        for i in 0..300 {
            input += &format!(
                "[Variant \"C'escacs\"]\n[Event \"{}\"]\n1. E7-E13\n*\n",
                i % 40
            );
            input += "[Variant \"C'escacs\"]\n1. E13xF16:\n*\n";
        }
        let runs: [(&str, Options); 3] = [
            ("plain", |b| b),
            ("dedup", |b| b.dedup(true)),
            ("stop-after", |b| b.stop_after(Some(5100))),
        ];
        for (name, options) in runs {
            let one = filtered(options, &input, 1);
            assert!(one.2.len() > 5000, "{name}");
            for jobs in [2, 3] {
                let many = filtered(options, &input, jobs);
                assert!(many.0 == one.0 && many.1 == one.1, "{name} {jobs}: output");
                assert_eq!(many.2, one.2, "{name} {jobs}: diagnostics");
                assert_eq!(many.3, one.3, "{name} {jobs}: counts");
            }
        }
    }

    /// Panics as the game on line 401 begins.
    struct Boom;

    impl crate::Pass for Boom {
        fn name(&self) -> &'static str {
            "boom"
        }

        fn begin_game(&mut self, cx: &mut crate::Context) {
            if cx.game_start.line == 401 {
                panic!("boom at 401");
            }
        }
    }

    #[test]
    fn a_panic_in_a_pass_ends_the_run_with_that_panic_on_a_worker_or_the_merger() {
        let input = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n\n".repeat(200);
        // In chunks of 1 byte the merger reads nearly all; of 64, the workers.
        for chunk in [1, 64, 4096] {
            let (tx, rx) = mpsc::channel();
            let input = input.clone();
            std::thread::spawn(move || {
                let make = || FilterBuilder::new().pass(Box::new(Boom)).build();
                let run = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    let (mut out, mut on_diagnostic) = (io::sink(), |_: &Diagnostic| {});
                    run_parallel(
                        &make,
                        input.as_bytes(),
                        2,
                        chunk,
                        &mut out,
                        None,
                        &mut on_diagnostic,
                    )
                }));
                let panic = run
                    .err()
                    .map(|p| p.downcast_ref::<&str>().map(|s| s.to_string()));
                tx.send(panic).unwrap();
            });
            let panic = rx
                .recv_timeout(std::time::Duration::from_secs(60))
                .expect("the run ends");
            assert_eq!(
                panic,
                Some(Some("boom at 401".to_string())),
                "chunks of {chunk}"
            );
        }
    }

    #[test]
    fn chunks_concatenate_to_the_input() {
        let game = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n*\n\n";
        let input = game.repeat(50);
        let v = chunks(&input, 100);
        assert!(v.len() > 5);
        let joined: String = v.iter().map(|c| c.1.as_str()).collect();
        assert_eq!(joined, input);
    }
}
