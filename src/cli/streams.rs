//! Names on I/O errors, and stderr as a side channel.
//!
//! The library's readers and writers pass I/O errors through as they come,
//! with no file name. Each stream the command opens is wrapped in [`Named`],
//! so that whatever comes back out of the library says which file or stream
//! failed, and whether it was an input (the run goes on with the next one)
//! or an output (the run stops).

use std::fmt;
use std::io::{self, Read, Write};

/// `eprintln!` that never panics: see [`to_stderr`].
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::streams::to_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}
pub(super) use say;

pub const STDIN: &str = "standard input";
pub const STDOUT: &str = "standard output";

/// An I/O error on a named file or stream, shown as `NAME: ERROR`.
#[derive(Debug)]
struct OnStream {
    name: String,
    input: bool,
    error: io::Error,
}

impl fmt::Display for OnStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, in_words(&self.error))
    }
}

/// What went wrong, in words: the system's message without its
/// `(os error 2)`, and without the temporary file's path that `tempfile`
/// adds (the user named another path: that one is shown).
pub fn in_words(e: &io::Error) -> String {
    // tempfile's error holds the system's as its source.
    let e = e
        .get_ref()
        .and_then(|inner| std::error::Error::source(inner))
        .and_then(|s| s.downcast_ref::<io::Error>())
        .unwrap_or(e);
    let text = e.to_string();
    match e.raw_os_error() {
        Some(code) => text
            .strip_suffix(&format!(" (os error {code})"))
            .unwrap_or(&text)
            .to_string(),
        None => text,
    }
}

impl std::error::Error for OnStream {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

fn name(name: String, input: bool, error: io::Error) -> io::Error {
    if on_stream(&error).is_some() {
        // Named closer to where it happened.
        return error;
    }
    // The kind is kept: the library retries `Interrupted`, and a closed
    // pipe is recognised by it.
    io::Error::new(error.kind(), OnStream { name, input, error })
}

fn on_stream(e: &io::Error) -> Option<&OnStream> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<OnStream>())
}

/// Names the input `what` on an error reading it.
pub fn reading(what: impl fmt::Display) -> impl FnOnce(io::Error) -> io::Error {
    move |e| name(what.to_string(), true, e)
}

/// Names the output `what` on an error writing it (or making it).
pub fn writing(what: impl fmt::Display) -> impl FnOnce(io::Error) -> io::Error {
    move |e| name(what.to_string(), false, e)
}

/// Whether `e` names its file or stream already.
pub fn is_named(e: &io::Error) -> bool {
    on_stream(e).is_some()
}

/// Whether `e` came from reading an input: that input is reported and the
/// run goes on with the next one.
pub fn is_input_error(e: &io::Error) -> bool {
    on_stream(e).is_some_and(|s| s.input)
}

/// Whether `e` is standard output closed by its reader (`| head`), which is
/// not a failure of ours.
pub fn is_closed_stdout(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe && on_stream(e).is_some_and(|s| s.name == STDOUT)
}

/// A reader or writer whose errors name it: reading errors as an input's,
/// writing errors as an output's.
pub struct Named<T> {
    inner: T,
    name: String,
}

impl<T> Named<T> {
    pub fn new(name: impl fmt::Display, inner: T) -> Named<T> {
        Named {
            inner,
            name: name.to_string(),
        }
    }
}

impl<T: Read> Read for Named<T> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.read(buf).map_err(reading(&self.name))
    }
}

impl<T: Write> Write for Named<T> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf).map_err(writing(&self.name))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(writing(&self.name))
    }
}

/// Writes to stderr, ignoring failure: diagnostics are a side channel, and a
/// closed or full stderr (`2>&1 | head -1`) must not stop the output.
pub fn to_stderr(text: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(text);
}

/// Writes to standard output, for `--completions` and `--man`.
pub fn to_stdout(bytes: &[u8]) -> io::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(bytes)
        .and_then(|()| out.flush())
        .map_err(writing(STDOUT))
}
