//! What the workers hand the merger, and the [`Mailbox`] it goes through:
//! each chunk's items in a bounded queue, and each chunk read.

use super::chunk::Chunk;
use crate::diag::Diagnostic;
use crate::passes::ledger::Deferred;
use crate::read::Stop;
use crate::report::Report;
use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// What a reader made of some input: its games' text and rejects, their
/// counts, and where it stopped; when the merger decides what depends on
/// the games before, the bytes as read of the games it may leave out.
/// Its diagnostics, and its notes of each game, were handed on as [`Item`]s.
#[derive(Default)]
pub(super) struct Output {
    pub(super) out: Vec<u8>,
    pub(super) rejects: Vec<u8>,
    pub(super) aside: Vec<u8>,
    pub(super) report: Report,
}

/// A chunk read on a worker.
pub(super) struct Done {
    pub(super) chunk: Arc<Chunk>,
    pub(super) output: Output,
    pub(super) stop: io::Result<Stop>,
}

/// What a reader hands on as it reads, in input order: a diagnostic, or,
/// when the merger decides what depends on the games before, a game's
/// note, before the game's diagnostics.
pub(super) enum Item {
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
pub(super) type Post = Arc<dyn Fn(Item) + Send + Sync>;

/// What a worker that panicked panicked with.
type Panic = Box<dyn std::any::Any + Send>;

/// The items of the chunks read on the workers, each chunk's in a queue
/// of at most `cap` bytes, and the chunks read.
pub(super) struct Mailbox {
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
pub(super) struct Panicked;

impl Mailbox {
    pub(super) fn new(cap: usize) -> Mailbox {
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
    pub(super) fn post(&self, index: usize, item: Item) {
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
    pub(super) fn finish(&self, done: Done) {
        let mut board = self.board();
        if done.chunk.index >= board.floor {
            board.done.insert(done.chunk.index, done);
        }
        if board.merger_waits {
            self.merger.notify_one();
        }
    }

    /// A worker panicked: the merger is told, and the other workers stop
    /// waiting for room.
    pub(super) fn panicked(&self, panic: Panic) {
        let mut board = self.board();
        board.panic.get_or_insert(panic);
        board.floor = usize::MAX;
        board.queues.clear();
        self.merger.notify_one();
        self.workers.notify_all();
    }

    /// The panic of a worker, if one panicked.
    pub(super) fn take_panic(&self) -> Option<Panic> {
        self.board().panic.take()
    }

    /// Waits for items of chunk `index`, or its end: the items come so far,
    /// and the chunk read once they are all taken.
    pub(super) fn collect(&self, index: usize) -> Result<(VecDeque<Item>, Option<Done>), Panicked> {
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
    pub(super) fn drop_below(&self, floor: usize) {
        let mut board = self.board();
        board.floor = board.floor.max(floor);
        let floor = board.floor;
        board.queues.retain(|&i, _| i >= floor);
        board.done.retain(|&i, _| i >= floor);
        if board.workers_wait > 0 {
            self.workers.notify_all();
        }
    }
}
