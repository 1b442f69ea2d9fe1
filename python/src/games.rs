//! Games as the filter reads them, one whole game at a time: its tags,
//! moves, result and text, and its diagnostics, which the filter hands on
//! only after the game ends. A game is complete when the next one begins
//! (or the input ends): then its output or its rejected bytes are written
//! and its diagnostics are in, and it is handed to `deliver`.

use ctlpgn_filter::{
    decode, unescape_pgn, Context, Diagnostic, Flow, GameEnd, HalfMove, Interest, Outcome, Pass,
    Pdtl, Report, Tag, Verify,
};
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use ctlpgn_filter::Options;

/// One game, read.
#[derive(Default)]
pub struct GameData {
    pub tags: Vec<(String, String)>,
    pub pdtl: Option<String>,
    pub moves: Vec<String>,
    pub result: Option<&'static str>,
    pub rejected: bool,
    pub line: u64,
    /// As the filter writes it, or, rejected, as read.
    pub text: Vec<u8>,
    pub diagnostics: Vec<Diagnostic>,
    /// With a replay: the final position when every move fit.
    pub final_pdtl: Option<String>,
    /// With a replay: the first move that did not fit.
    pub incoherent: Option<String>,
    pub replayed: bool,
}

/// What the pass, the sinks, the diagnostics and the replay's callback
/// fill in, all on the reading thread.
struct Shared {
    game: Option<GameData>,
    text: Vec<u8>,
    deliver: Box<dyn FnMut(GameData) -> bool + Send>,
    /// `deliver` refused a game: reading stops.
    stopped: Arc<AtomicBool>,
}

impl Shared {
    fn finish(&mut self) {
        if let Some(mut game) = self.game.take() {
            game.text = std::mem::take(&mut self.text);
            if !(self.deliver)(game) {
                self.stopped.store(true, Ordering::Release);
            }
        } else {
            self.text.clear();
        }
    }
}

fn lock(shared: &Mutex<Shared>) -> std::sync::MutexGuard<'_, Shared> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The last pass of the chain: records what survives the others.
struct Recorder(Arc<Mutex<Shared>>);

impl Pass for Recorder {
    fn name(&self) -> &'static str {
        "python"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::TAGS | Interest::MOVES
    }

    fn begin_game(&mut self, _cx: &mut Context) {
        let mut s = lock(&self.0);
        // The game before is whole: its bytes and diagnostics are in.
        s.finish();
        s.game = Some(GameData::default());
    }

    fn tag(&mut self, tag: &Tag<'_>, _cx: &mut Context) -> Flow {
        if let Some(g) = &mut lock(&self.0).game {
            // The value as meant, its PGN escapes undone, as ndjson gives it.
            let value = unescape_pgn(tag.value.as_bytes());
            g.tags.push((
                tag.name.to_owned(),
                String::from_utf8_lossy(&value).into_owned(),
            ));
        }
        Flow::Keep
    }

    fn setup(&mut self, pdtl: &mut Pdtl, _cx: &mut Context) {
        if let Some(g) = &mut lock(&self.0).game {
            g.pdtl = Some(pdtl.to_string());
        }
    }

    fn half_move(&mut self, mv: &mut HalfMove, cx: &mut Context) -> Flow {
        if cx.depth == 0 {
            if let Some(g) = &mut lock(&self.0).game {
                g.moves.push(move_text(mv));
            }
        }
        Flow::Keep
    }

    fn result(&mut self, result: Outcome, _cx: &mut Context) {
        if let Some(g) = &mut lock(&self.0).game {
            g.result = Some(result.as_str());
        }
    }

    fn end_game(&mut self, cx: &mut Context) {
        if let Some(g) = &mut lock(&self.0).game {
            g.rejected = cx.has_error();
            g.line = cx.game_start.line;
        }
    }
}

/// A half-move's canonical text (without rating, NAGs or end marker).
pub fn move_text(mv: &HalfMove) -> String {
    let mut t = Vec::new();
    mv.write_move(&mut t);
    String::from_utf8_lossy(&t).into_owned()
}

/// Where the filter writes: the text of the game being read.
struct TextSink(Arc<Mutex<Shared>>);

impl Write for TextSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        lock(&self.0).text.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The input, which answers an error once the games are no longer wanted
/// (the Python iterator is gone), so that the run ends.
struct Stoppable<R> {
    inner: R,
    stopped: Arc<AtomicBool>,
}

/// The message of the error that ends a run nobody reads any more.
pub const STOPPED: &str = "reading stopped: the games are no longer wanted";

impl<R: Read> Read for Stoppable<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.stopped.load(Ordering::Acquire) {
            return Err(io::Error::other(STOPPED));
        }
        self.inner.read(buf)
    }
}

/// Reads every game of `input` with the filter `options` ask for, handing
/// each whole game to `deliver`, which answers whether to go on.
/// `replay`: each game's main line is replayed as `--verify` does, its
/// final position and first incoherent move recorded.
pub fn read(
    input: impl Read,
    options: &Options,
    replay: bool,
    deliver: impl FnMut(GameData) -> bool + Send + 'static,
) -> io::Result<Report> {
    // Compressed or not, as the command line reads it.
    let (input, _, fault) = decode::decompressed(input)?;
    let stopped = Arc::new(AtomicBool::new(false));
    let shared = Arc::new(Mutex::new(Shared {
        game: None,
        text: Vec::new(),
        deliver: Box::new(deliver),
        stopped: stopped.clone(),
    }));
    let verify = (replay || options.verify).then(|| {
        let shared = shared.clone();
        Verify::new().on_game_end(move |end: &GameEnd<'_>| {
            // The main line's end (variation games have a path).
            if !end.path.is_empty() {
                return;
            }
            if let Some(g) = &mut lock(&shared).game {
                g.replayed = true;
                g.final_pdtl = (end.coherent && !end.rejected).then(|| end.position.to_string());
                g.incoherent = end.incoherent.map(move_text);
            }
        })
    });
    let mut builder = options.builder();
    if let Some(v) = verify {
        builder = builder.verify(v);
    }
    let mut filter = builder.pass(Box::new(Recorder(shared.clone()))).build();
    filter.set_cut_short(Some(fault.cut.clone()));
    let input = Stoppable {
        inner: input,
        stopped,
    };
    let mut out = TextSink(shared.clone());
    let mut rejects = TextSink(shared.clone());
    let diagnostics = shared.clone();
    let on_diagnostic = &mut |d: &Diagnostic| {
        if let Some(g) = &mut lock(&diagnostics).game {
            g.diagnostics.push(d.clone());
        }
    };
    let report = filter.run_with_rejects(input, &mut out, Some(&mut rejects), on_diagnostic);
    let mut s = lock(&shared);
    let report = report?;
    s.finish();
    // The games decoded before a decoder's error are handed on; then the
    // error, as the command line reports it after them.
    match fault.take() {
        Some(e) => Err(e),
        None => Ok(report),
    }
}
