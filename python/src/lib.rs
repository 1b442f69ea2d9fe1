//! `ctlpgn`: read, check and filter CTL-PGN (C'escacs game records) from
//! Python, with the reader of `ctlpgn-filter`.
//!
//! Rust reads with the GIL released: `filter` and `check` while they run,
//! `read_games` on a thread of its own that hands whole games, a few at a
//! time, to the Python iterator (so a file of any size is never held).
//! No panic crosses into Python: one is caught and raised as
//! `ctlpgn.InternalError`.

mod games;
mod options;

use ctlpgn_filter::{decode, Column, Options};
use games::GameData;
use pyo3::exceptions::{
    PyException, PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError,
    PyRuntimeError, PyStopIteration, PyTypeError,
};
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Read};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::Mutex;

pyo3::create_exception!(
    ctlpgn,
    Error,
    PyException,
    "The base of the errors this package raises (file errors are OSError's)."
);
pyo3::create_exception!(
    ctlpgn,
    GameError,
    Error,
    "A game with an error, read with strict=True: `.game` is the Game, \
     `.diagnostics` its diagnostics."
);
pyo3::create_exception!(
    ctlpgn,
    InternalError,
    Error,
    "A fault of this package (a Rust panic, caught): please report it."
);

/// How many whole games the reading thread may be ahead of Python, sent
/// `BATCH` at a time.
const GAMES_AHEAD: usize = 64;
const BATCH: usize = 16;

/// One diagnostic: a message about the input, with its place.
#[pyclass(frozen, module = "ctlpgn")]
struct Diagnostic {
    /// "error", "warning" or "note".
    #[pyo3(get)]
    severity: &'static str,
    /// What it is about, as the command line's summary names it
    /// ("move syntax", "incoherent move", ...).
    #[pyo3(get)]
    kind: &'static str,
    /// 1-based line of the input.
    #[pyo3(get)]
    line: u64,
    /// 1-based column, in characters.
    #[pyo3(get)]
    column: u64,
    /// What is wrong, and how to fix it where that is clear.
    #[pyo3(get)]
    message: String,
    /// The input line, or the part of it around the fault.
    #[pyo3(get)]
    source: String,
    inner: ctlpgn_filter::Diagnostic,
}

#[pymethods]
impl Diagnostic {
    /// The diagnostic as the command line prints it, named `file`:
    /// `FILE:LINE:COLUMN: error: MESSAGE`, the source line, a caret.
    #[pyo3(signature = (file = "<input>"))]
    fn render(&self, file: &str) -> String {
        self.inner.render(file)
    }

    fn __str__(&self) -> String {
        format!(
            "{}:{}: {}: {}",
            self.line, self.column, self.severity, self.message
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "<Diagnostic {}:{} {}: {:?}>",
            self.line, self.column, self.severity, self.message
        )
    }
}

impl From<&ctlpgn_filter::Diagnostic> for Diagnostic {
    fn from(d: &ctlpgn_filter::Diagnostic) -> Diagnostic {
        Diagnostic {
            severity: d.severity.as_str(),
            kind: d.kind.name(),
            line: d.line,
            column: d.column,
            message: d.message.clone(),
            source: d.source.clone(),
            inner: d.clone(),
        }
    }
}

fn diagnostics<'py>(
    py: Python<'py>,
    ds: &[ctlpgn_filter::Diagnostic],
) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, ds.iter().map(Diagnostic::from))
}

/// The counts of a run, as `--stats` prints them.
#[pyclass(frozen, get_all, module = "ctlpgn")]
struct Report {
    /// Games found in the input.
    games_read: u64,
    /// Games written to the output.
    games_written: u64,
    /// Games rejected for an error.
    games_rejected: u64,
    /// Games left out (dedup, tag, player, result, date, plies, reaches,
    /// invert), by reason: duplicates, tag, result, date, date_unknown,
    /// plies, position, other, inverted.
    left_out: Py<PyDict>,
    /// Warnings reported for written games.
    warnings: u64,
    /// Main-line half-moves read.
    half_moves: u64,
    comments_dropped: u64,
    variations_dropped: u64,
    variations_written: u64,
    variations_rejected: u64,
    ratings_dropped: u64,
}

#[pymethods]
impl Report {
    fn __repr__(&self) -> String {
        format!(
            "<Report games_read={} games_written={} games_rejected={} warnings={}>",
            self.games_read, self.games_written, self.games_rejected, self.warnings
        )
    }
}

impl Report {
    fn new(py: Python<'_>, r: &ctlpgn_filter::Report) -> PyResult<Report> {
        let left_out = PyDict::new(py);
        let l = &r.left_out;
        for (name, n) in [
            ("duplicates", l.duplicates),
            ("tag", l.tag),
            ("result", l.result),
            ("date", l.date),
            ("date_unknown", l.date_unknown),
            ("plies", l.plies),
            ("position", l.position),
            ("other", l.other),
            ("inverted", l.inverted),
        ] {
            left_out.set_item(name, n)?;
        }
        Ok(Report {
            games_read: r.games_read,
            games_written: r.games_written,
            games_rejected: r.games_rejected,
            left_out: left_out.unbind(),
            warnings: r.warnings,
            half_moves: r.half_moves,
            comments_dropped: r.comments_dropped,
            variations_dropped: r.variations_dropped,
            variations_written: r.variations_written,
            variations_rejected: r.variations_rejected,
            ratings_dropped: r.ratings_dropped,
        })
    }
}

/// One game, as the filter reads it: normalised (standard letters, ASCII
/// separators, ratings, comments and variations gone).
#[pyclass(frozen, module = "ctlpgn")]
struct Game {
    /// The result it is written with ("3-0", "0-3", "1-1", "2-1", "1-2",
    /// "*"): its result line, else a `#` move's mover wins, else its
    /// Result tag, else "*"; ndjson's "result".
    #[pyo3(get)]
    result: &'static str,
    /// The final position as a PDTL, when read with `final_pdtl=True` and
    /// every move fits; else None.
    #[pyo3(get)]
    final_pdtl: Option<String>,
    /// The game's diagnostics, errors, warnings and notes.
    #[pyo3(get)]
    diagnostics: Py<PyList>,
    /// It has an error: the filter would reject it.
    #[pyo3(get)]
    rejected: bool,
    /// The line of its first byte.
    #[pyo3(get)]
    line: u64,
    /// The game as the filter writes it (canonical CTL-PGN), or, rejected,
    /// as read.
    #[pyo3(get)]
    text: String,
    /// Its tags and moves, read from `text` when first asked for.
    parts: GILOnceCell<Parts>,
}

/// What `Game` reads from its text.
struct Parts {
    tags: Py<PyDict>,
    tag_list: Py<PyList>,
    moves: Py<PyList>,
    pdtl: Option<String>,
}

#[pymethods]
impl Game {
    /// The tags, in input order, as ndjson's "tags" has them: a dict, where
    /// a repeated name keeps its first value. The PDTL start position is
    /// `pdtl`, not a tag.
    #[getter]
    fn tags(&self, py: Python<'_>) -> PyResult<Py<PyDict>> {
        Ok(self.parts(py)?.tags.clone_ref(py))
    }

    /// Every tag pair, repeated names too, in input order: a list of
    /// (name, value), as ndjson's "tag_list".
    #[getter]
    fn tag_list(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        Ok(self.parts(py)?.tag_list.clone_ref(py))
    }

    /// The main line's half-moves, canonical (`"E7-E13"`, `"GD26*L5"`),
    /// without rating, NAGs or end marker.
    #[getter]
    fn moves(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        Ok(self.parts(py)?.moves.clone_ref(py))
    }

    /// The game's start position (its PDTL tag), or None: the initial setup.
    #[getter]
    fn pdtl(&self, py: Python<'_>) -> PyResult<Option<String>> {
        Ok(self.parts(py)?.pdtl.clone())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let parts = self.parts(py)?;
        let tags = parts.tags.bind(py);
        let name = |n: &str| {
            tags.get_item(n)
                .ok()
                .flatten()
                .and_then(|v| v.extract::<String>().ok())
                .unwrap_or_else(|| "?".into())
        };
        Ok(format!(
            "<Game line {}: {} - {}, {} half-moves, {}>",
            self.line,
            name("White"),
            name("Black"),
            parts.moves.bind(py).len(),
            self.result
        ))
    }
}

impl Game {
    fn new(py: Python<'_>, g: GameData) -> PyResult<Game> {
        Ok(Game {
            result: g.result,
            final_pdtl: g.final_pdtl,
            diagnostics: diagnostics(py, &g.diagnostics)?.unbind(),
            rejected: g.rejected,
            line: g.line,
            text: g.text,
            parts: GILOnceCell::new(),
        })
    }

    /// Its tags and moves, read from its text the first time (with the GIL
    /// released).
    fn parts(&self, py: Python<'_>) -> PyResult<&Parts> {
        self.parts.get_or_try_init(py, || {
            let p = py.allow_threads(|| games::parts(&self.text));
            let tags = PyDict::new(py);
            // As ndjson's "tags": a repeated name keeps its first value.
            for (name, value) in &p.tags {
                if !tags.contains(name)? {
                    tags.set_item(name, value)?;
                }
            }
            Ok(Parts {
                tags: tags.unbind(),
                tag_list: PyList::new(py, &p.tags)?.unbind(),
                moves: PyList::new(py, p.moves())?.unbind(),
                pdtl: p.pdtl,
            })
        })
    }
}

/// The verdict of `check` on one game, as `--check` gives it.
#[pyclass(frozen, get_all, module = "ctlpgn")]
struct Verdict {
    /// Every main-line move fits the position it is played in, and the
    /// game has no error (the command's exit status 0 for it).
    ok: bool,
    /// Every main-line move that was read fits (a game may be rejected
    /// for a syntax error with all its moves coherent).
    coherent: bool,
    /// The first move that does not fit, canonical, or None.
    incoherent_move: Option<String>,
    /// The error that says why it does not fit (the message `--check`
    /// prints), or None.
    message: Option<String>,
    /// The final position as a PDTL (`--final-pdtl`), when `ok`.
    final_pdtl: Option<String>,
    /// The game's diagnostics.
    diagnostics: Py<PyList>,
    /// The line of the game's first byte.
    line: u64,
}

#[pymethods]
impl Verdict {
    fn __bool__(&self) -> bool {
        self.ok
    }

    fn __repr__(&self) -> String {
        match (&self.incoherent_move, &self.message) {
            (_, Some(m)) => format!("<Verdict line {}: incoherent: {m}>", self.line),
            _ if self.ok => format!("<Verdict line {}: ok>", self.line),
            _ => format!("<Verdict line {}: rejected>", self.line),
        }
    }
}

impl Verdict {
    fn new(py: Python<'_>, g: &GameData) -> PyResult<Verdict> {
        let message = g
            .diagnostics
            .iter()
            .find(|d| d.kind == ctlpgn_filter::DiagnosticKind::Incoherent)
            .map(|d| d.message.clone());
        Ok(Verdict {
            ok: !g.rejected,
            coherent: g.incoherent.is_none(),
            incoherent_move: g.incoherent.clone(),
            message,
            final_pdtl: g.final_pdtl.clone(),
            diagnostics: diagnostics(py, &g.diagnostics)?.unbind(),
            line: g.line,
        })
    }
}

/// An I/O error as the command line says it, `NAME: WHAT` (without the
/// system's `(os error N)`), raised as the OSError subclass Python would
/// raise, with its `errno`.
fn os_error(py: Python<'_>, name: &str, e: &io::Error) -> PyErr {
    let text = e.to_string();
    let words = match e.raw_os_error() {
        Some(code) => text
            .strip_suffix(&format!(" (os error {code})"))
            .unwrap_or(&text)
            .to_string(),
        None => text,
    };
    let message = format!("{name}: {words}");
    let err = match e.kind() {
        io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
        io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(message),
        _ => PyOSError::new_err(message),
    };
    if let Some(code) = e.raw_os_error() {
        // Only errno: with a filename too, OSError's str() would be its own.
        let _ = err.value(py).setattr("errno", code);
    }
    err
}

fn internal(panic: Box<dyn std::any::Any + Send>) -> PyErr {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    InternalError::new_err(format!("internal error in ctlpgn-filter: {what}"))
}

/// Text to filter: `str` as UTF-8, or bytes as they are.
fn input_bytes(data: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(s) = data.downcast::<PyString>() {
        return Ok(s.to_cow()?.as_bytes().to_vec());
    }
    if let Ok(b) = data.downcast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    data.extract::<Vec<u8>>().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected str or bytes, not {}",
            data.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })
}

/// Filters `input` (compressed or not) as the command line does with `o`
/// into `w`: a listing's header first, a count alone. `name`: the input's,
/// for ndjson's and a listing's `file`.
fn filter_into(
    o: &Options,
    name: Option<&str>,
    input: impl Read,
    w: &mut dyn io::Write,
) -> io::Result<(Vec<ctlpgn_filter::Diagnostic>, ctlpgn_filter::Report)> {
    let (input, _, fault) = decode::decompressed(input)?;
    let mut filter = o.builder().build();
    filter.set_cut_short(Some(fault.cut.clone()));
    if let Some(name) = name {
        filter.set_file_name(name);
    }
    w.write_all(&o.header().unwrap_or_default())?;
    let mut ds = Vec::new();
    let report = filter.run(input, w, &mut |d| ds.push(d.clone()))?;
    if o.count {
        writeln!(w, "{}", report.games_written)?;
    }
    // The games decoded before a decoder's error are written; then the
    // error, as the command line reports it after them.
    match fault.take() {
        Some(e) => Err(e),
        None => Ok((ds, report)),
    }
}

/// filter(text, **options) -> (output, diagnostics, report)
///
/// Filters CTL-PGN `text` (str or bytes) as `ctlpgn-filter` does, with
/// the options of its command line, named as its long options
/// (`keep_comments=True` for `--keep-comments`, `tag=["Site=B*"]` for
/// `--tag`, `format="ndjson"`). Returns the output, the diagnostics and
/// the counts. Rejected games are not in the output; their diagnostics
/// say why. Raises ValueError for an option's bad value, with the command
/// line's message.
#[pyfunction]
#[pyo3(signature = (text, **options))]
fn filter(
    py: Python<'_>,
    text: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<(String, Py<PyList>, Report)> {
    let o = options::from_kwargs("filter", options)?;
    let input = input_bytes(text)?;
    let run = py.allow_threads(move || {
        catch_unwind(AssertUnwindSafe(|| {
            let mut out = Vec::new();
            let (ds, report) = filter_into(&o, None, &input[..], &mut out)?;
            Ok::<_, io::Error>((out, ds, report))
        }))
    });
    let (out, ds, report) = run
        .map_err(internal)?
        .map_err(|e| os_error(py, "<input>", &e))?;
    Ok((
        String::from_utf8_lossy(&out).into_owned(),
        diagnostics(py, &ds)?.unbind(),
        Report::new(py, &report)?,
    ))
}

/// filter_file(path, out=None, **options) -> report
///
/// Filters the file `path` as `ctlpgn-filter path -o out` does (the
/// options as for `filter`), and writes the output to the file `out`, or,
/// without one, returns it with the diagnostics: `(output, diagnostics,
/// report)`. With `out`, returns `(diagnostics, report)`. File errors
/// raise OSError with the command line's message, `PATH: WHAT`.
#[pyfunction]
#[pyo3(signature = (path, out = None, **options))]
fn filter_file(
    py: Python<'_>,
    path: std::path::PathBuf,
    out: Option<std::path::PathBuf>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyObject> {
    let o = options::from_kwargs("filter_file", options)?;
    let name = path.display().to_string();
    // An open may wait (a named pipe, for the other end): other Python
    // threads run meanwhile, that other end perhaps among them.
    let file = py
        .allow_threads(|| File::open(&path))
        .map_err(|e| os_error(py, &name, &e))?;
    let mut sink = match &out {
        Some(p) => Some(
            py.allow_threads(|| File::create(p))
                .map_err(|e| os_error(py, &p.display().to_string(), &e))?,
        ),
        None => None,
    };
    let run = py.allow_threads(|| {
        catch_unwind(AssertUnwindSafe(|| {
            let mut text = Vec::new();
            let w: &mut dyn io::Write = match &mut sink {
                Some(f) => f,
                None => &mut text,
            };
            let (ds, report) = filter_into(&o, Some(&name), file, w)?;
            Ok((text, ds, report))
        }))
    });
    let (text, ds, report) = run
        .map_err(internal)?
        .map_err(|e| os_error(py, &name, &e))?;
    let ds = diagnostics(py, &ds)?;
    let report = Report::new(py, &report)?;
    Ok(match out {
        Some(_) => PyTuple::new(
            py,
            [
                ds.into_any(),
                Py::new(py, report)?.into_bound(py).into_any(),
            ],
        )?
        .into_any()
        .unbind(),
        None => (String::from_utf8_lossy(&text).into_owned(), ds, report)
            .into_pyobject(py)?
            .into_any()
            .unbind(),
    })
}

/// What the reading thread hands the iterator.
enum Message {
    /// Games, a few at a time: one wake-up of the iterator each.
    Games(Vec<GameData>),
    Done(ctlpgn_filter::Report),
    Failed(io::Error),
    Panicked(Box<dyn std::any::Any + Send>),
}

/// A Python file object read from the reading thread, the GIL taken for
/// each read: `read(n)` answering bytes (or str, as UTF-8).
struct PyFile(Py<PyAny>);

impl Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::with_gil(|py| {
            let chunk = self
                .0
                .call_method1(py, "read", (buf.len(),))
                .map_err(|e| io::Error::other(e.to_string()))?;
            let chunk = chunk.bind(py);
            let bytes: Vec<u8> = if let Ok(s) = chunk.downcast::<PyString>() {
                s.to_cow()
                    .map_err(|e| io::Error::other(e.to_string()))?
                    .as_bytes()
                    .to_vec()
            } else {
                chunk.extract().map_err(|_| {
                    io::Error::other("read() answered neither bytes nor str".to_string())
                })?
            };
            // A text file's read(n) counts characters: more bytes may come.
            if bytes.len() > buf.len() {
                return Err(io::Error::other(
                    "read(n) answered more than n bytes; open the file in binary mode ('rb')",
                ));
            }
            buf[..bytes.len()].copy_from_slice(&bytes);
            Ok(bytes.len())
        })
    }
}

/// The iterator `read_games` returns.
#[pyclass(module = "ctlpgn")]
struct Games {
    receiver: Mutex<Option<Receiver<Message>>>,
    name: String,
    strict: bool,
    report: Option<Py<Report>>,
    finished: bool,
    /// The games received, not yet handed out.
    pending: VecDeque<GameData>,
}

#[pymethods]
impl Games {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Game> {
        let g = match self.pending.pop_front() {
            Some(g) => g,
            None => self.receive(py)?,
        };
        let error = self.strict && g.rejected;
        let first = g
            .diagnostics
            .iter()
            .find(|d| d.severity == ctlpgn_filter::Severity::Error)
            .map(|d| d.render(&self.name));
        let game = Game::new(py, g)?;
        if error {
            let text = first.unwrap_or_default();
            let text = text.lines().next().unwrap_or("a game with an error");
            let err = GameError::new_err(text.to_string());
            let v = err.value(py);
            v.setattr("diagnostics", game.diagnostics.clone_ref(py))?;
            v.setattr("game", Py::new(py, game)?)?;
            return Err(err);
        }
        Ok(game)
    }

    /// The counts of the run, once every game has been read; else None.
    #[getter]
    fn report(&self, py: Python<'_>) -> Option<Py<Report>> {
        self.report.as_ref().map(|r| r.clone_ref(py))
    }
}

impl Games {
    /// Waits for the next games from the reading thread; the first of them.
    fn receive(&mut self, py: Python<'_>) -> PyResult<GameData> {
        if self.finished {
            return Err(PyStopIteration::new_err(()));
        }
        let receiver = self
            .receiver
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("the games are being read by another call"))?;
        // The wait for Rust's next game lets other Python threads run.
        let (receiver, message) = py.allow_threads(move || {
            let m = receiver.recv();
            (receiver, m)
        });
        *self.receiver.lock().unwrap_or_else(|e| e.into_inner()) = Some(receiver);
        let message = match message {
            Ok(m) => m,
            Err(_) => Message::Panicked(Box::new("the reading thread ended without a word")),
        };
        match message {
            Message::Games(games) => {
                self.pending = games.into();
                Ok(self.pending.pop_front().expect("a batch holds a game"))
            }
            Message::Done(r) => {
                self.finished = true;
                self.report = Some(Py::new(py, Report::new(py, &r)?)?);
                Err(PyStopIteration::new_err(()))
            }
            Message::Failed(e) => {
                self.finished = true;
                Err(os_error(py, &self.name, &e))
            }
            Message::Panicked(p) => {
                self.finished = true;
                Err(internal(p))
            }
        }
    }
}

/// What `function` (`read_games`, `count`, `listing`) reads from, and its
/// name.
fn open_source(
    py: Python<'_>,
    function: &str,
    source: &Bound<'_, PyAny>,
) -> PyResult<(String, Box<dyn Read + Send>)> {
    if let Ok(b) = source.downcast::<PyBytes>() {
        return Ok((
            "<bytes>".into(),
            Box::new(io::Cursor::new(b.as_bytes().to_vec())),
        ));
    }
    if source.hasattr("read")? {
        let name = source
            .getattr("name")
            .ok()
            .and_then(|n| n.extract::<String>().ok())
            .unwrap_or_else(|| "<file>".into());
        return Ok((name, Box::new(PyFile(source.clone().unbind()))));
    }
    if let Ok(path) = source.extract::<std::path::PathBuf>() {
        let name = path.display().to_string();
        // As in filter_file: the open may wait for another Python thread.
        let file = py
            .allow_threads(|| File::open(&path))
            .map_err(|e| os_error(py, &name, &e))?;
        return Ok((name, Box::new(io::BufReader::with_capacity(1 << 16, file))));
    }
    if let Ok(b) = source.extract::<Vec<u8>>() {
        return Ok(("<bytes>".into(), Box::new(io::Cursor::new(b))));
    }
    Err(PyTypeError::new_err(format!(
        "{function}() reads a path, a file object or bytes, not {}",
        source
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default()
    )))
}

/// read_games(source, *, strict=False, final_pdtl=False) -> iterator of Game
///
/// Reads the games of `source`, a path (str or os.PathLike), a file
/// object open in binary mode, or bytes, one game at a time as the
/// iteration asks: a file of any size is never held whole. Each Game has
/// its tags, moves, result, diagnostics and text. A game with an error is
/// yielded with its diagnostics (`game.rejected` is True), unless
/// `strict=True`: then, as with `--strict`, warnings are errors too, and
/// such a game raises GameError. `final_pdtl=True` replays each game as
/// `--verify` does (a move that does not fit is an error) and gives its
/// final position, `game.final_pdtl`. File errors raise OSError with the
/// command line's message, `PATH: WHAT`. The iterator's `report` is the
/// run's counts once it is exhausted.
#[pyfunction]
#[pyo3(signature = (source, *, strict = false, final_pdtl = false))]
fn read_games(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    strict: bool,
    final_pdtl: bool,
) -> PyResult<Games> {
    let (name, input) = open_source(py, "read_games", source)?;
    let options = Options {
        strict,
        verify: final_pdtl,
        ..Options::default()
    };
    let (sender, receiver) = sync_channel(GAMES_AHEAD / BATCH);
    std::thread::Builder::new()
        .name("ctlpgn-read".into())
        .spawn(move || {
            let mut batch = Vec::with_capacity(BATCH);
            let run = catch_unwind(AssertUnwindSafe(|| {
                games::read(input, &options, |g| {
                    batch.push(g);
                    if batch.len() < BATCH {
                        return true;
                    }
                    let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                    sender.send(Message::Games(full)).is_ok()
                })
            }));
            // Nobody may be listening any more: nothing to do then.
            if !batch.is_empty() && sender.send(Message::Games(batch)).is_err() {
                return;
            }
            let _ = sender.send(match run {
                Ok(Ok(report)) => Message::Done(report),
                Ok(Err(e)) => Message::Failed(e),
                Err(p) => Message::Panicked(p),
            });
        })
        .map_err(|e| os_error(py, "a reading thread", &e))?;
    Ok(Games {
        receiver: Mutex::new(Some(receiver)),
        name,
        strict,
        report: None,
        finished: false,
        pending: VecDeque::new(),
    })
}

/// count(source, **options) -> int
///
/// The number of games of `source` (a path, a binary file object or
/// bytes, as for `read_games`) that the filter would write with
/// `options` (as for `filter`): `ctlpgn-filter --count`.
#[pyfunction]
#[pyo3(signature = (source, **options))]
fn count(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<u64> {
    let mut o = options::from_kwargs("count", options)?;
    o.count = true;
    let (name, input) = open_source(py, "count", source)?;
    let run = py.allow_threads(|| {
        catch_unwind(AssertUnwindSafe(|| {
            filter_into(&o, None, input, &mut io::sink())
        }))
    });
    let (_, report) = run
        .map_err(internal)?
        .map_err(|e| os_error(py, &name, &e))?;
    Ok(report.games_written)
}

/// A listing's value: a tag's (None when the game has none), or a number.
enum Value {
    Text(Option<String>),
    Number(u64),
}

/// listing(source, columns=None, **options) -> list of dict
///
/// The games of `source` (as for `read_games`) that the filter writes with
/// `options` (as for `filter`), one dict a game, its `columns`
/// (`--columns`: a str, or a list of names; by default White, Black, Date,
/// result, plies, file, line, as `--format tsv` lists them): a tag's first
/// value, or None when the game has none; `line` and `plies` ints.
#[pyfunction]
#[pyo3(signature = (source, columns = None, **options))]
fn listing(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    columns: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyList>> {
    let kwargs = options.map_or_else(|| PyDict::new(py), |d| d.copy().expect("a dict copies"));
    kwargs.set_item("format", "tsv")?;
    if let Some(c) = columns {
        kwargs.set_item("columns", c)?;
    }
    let mut o = options::from_kwargs("listing", Some(&kwargs))?;
    let columns = o.columns.take().unwrap_or_default();
    // Each game written as CTL-PGN, its values read from that text.
    o.format = ctlpgn_filter::Format::CtlPgn;
    let (name, input) = open_source(py, "listing", source)?;
    let file = if name == "<bytes>" { "" } else { &name };
    let run = py.allow_threads(|| {
        catch_unwind(AssertUnwindSafe(|| {
            let mut rows = Vec::new();
            games::read(input, &o, |g| {
                if !g.written {
                    return true;
                }
                let p = games::parts(&g.text);
                let tag = |n: &str| p.tags.iter().find(|(t, _)| t == n).map(|(_, v)| v.clone());
                rows.push(
                    columns
                        .columns()
                        .iter()
                        .map(|c| match c {
                            Column::File => Value::Text(Some(file.to_string())),
                            Column::Line => Value::Number(g.line),
                            Column::Plies => Value::Number(p.moves().len() as u64),
                            Column::Result => Value::Text(Some(g.result.to_string())),
                            Column::Tag(n) => Value::Text(tag(n)),
                        })
                        .collect::<Vec<_>>(),
                );
                true
            })
            .map(|_| rows)
        }))
    });
    let rows = run
        .map_err(internal)?
        .map_err(|e| os_error(py, &name, &e))?;
    let list = PyList::empty(py);
    for row in rows {
        let d = PyDict::new(py);
        for (c, v) in columns.columns().iter().zip(row) {
            match v {
                Value::Text(t) => d.set_item(c.name(), t)?,
                Value::Number(n) => d.set_item(c.name(), n)?,
            }
        }
        list.append(d)?;
    }
    Ok(list.unbind())
}

/// check(game_or_text) -> Verdict, or a list of them
///
/// Replays games as `ctlpgn-filter --check` does: each main line on the
/// board, from its PDTL or the initial setup; no rule of play is checked,
/// only that each move finds what it names. Given a Game (from
/// `read_games`), returns its Verdict; given CTL-PGN text (str or bytes),
/// a list of Verdicts, one per game. A Verdict is true when the game is
/// coherent and has no error; `incoherent_move` and `message` say which
/// move does not fit and why, as `--check` prints it.
#[pyfunction]
fn check(py: Python<'_>, game_or_text: &Bound<'_, PyAny>) -> PyResult<PyObject> {
    let (one, input) = match game_or_text.downcast::<Game>() {
        Ok(g) => (true, g.get().text.clone().into_bytes()),
        Err(_) => (false, input_bytes(game_or_text)?),
    };
    let run = py.allow_threads(move || {
        catch_unwind(AssertUnwindSafe(|| {
            let mut found = Vec::new();
            let options = Options {
                verify: true,
                ..Options::default()
            };
            games::read(&input[..], &options, |g| {
                found.push(g);
                true
            })
            .map(|_| found)
        }))
    });
    let found = run
        .map_err(internal)?
        .map_err(|e| os_error(py, "<input>", &e))?;
    let verdicts = found
        .iter()
        .map(|g| Verdict::new(py, g))
        .collect::<PyResult<Vec<_>>>()?;
    if one {
        let v = verdicts
            .into_iter()
            .next()
            .ok_or_else(|| Error::new_err("the game's text holds no game"))?;
        return Ok(Py::new(py, v)?.into_any());
    }
    Ok(verdicts.into_pyobject(py)?.into_any().unbind())
}

/// Read, check and filter CTL-PGN (C'escacs game records) with the reader
/// of ctlpgn-filter.
#[pymodule]
fn ctlpgn(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(filter, m)?)?;
    m.add_function(wrap_pyfunction!(filter_file, m)?)?;
    m.add_function(wrap_pyfunction!(read_games, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(listing, m)?)?;
    m.add_class::<Game>()?;
    m.add_class::<Diagnostic>()?;
    m.add_class::<Report>()?;
    m.add_class::<Verdict>()?;
    m.add_class::<Games>()?;
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("GameError", py.get_type::<GameError>())?;
    m.add("InternalError", py.get_type::<InternalError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
