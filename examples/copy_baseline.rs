//! The copy baseline for benchmarks: the I/O of `ctlpgn-filter --jobs 1`
//! with no filtering. Reads the files (or standard input) line by line as
//! `Filter::run_from` does (lines found with memchr where they lie in a
//! `BufReader` of the binary's capacity; a line past the buffer's end is
//! gathered in a `Vec`), and writes every line unchanged to a `BufWriter` of
//! the same capacity, so that "ratio to copy" compares the filter with the
//! cost of its own I/O.
//!
//! ```sh
//! cargo run --release --example copy_baseline -- bench.ctl-pgn > /dev/null
//! ```

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::process::ExitCode;

/// `src/main.rs`: `BufReader::with_capacity(1 << 18, ..)` and
/// `BufWriter::with_capacity(1 << 16, ..)`.
const READ_CAPACITY: usize = 1 << 18;
const WRITE_CAPACITY: usize = 1 << 16;

fn copy(input: impl Read, out: &mut dyn Write) -> io::Result<u64> {
    let mut input = BufReader::with_capacity(READ_CAPACITY, input);
    let mut carry = Vec::new();
    let mut n = 0;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            out.write_all(&carry)?;
            return Ok(n + carry.len() as u64);
        }
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', available) {
            let line = &available[start..=end];
            start = end + 1;
            if carry.is_empty() {
                out.write_all(line)?;
            } else {
                carry.extend_from_slice(line);
                out.write_all(&carry)?;
                carry.clear();
            }
            n += line.len() as u64;
        }
        carry.extend_from_slice(&available[start..]);
        let len = available.len();
        input.consume(len);
    }
}

fn run() -> io::Result<()> {
    let mut out = BufWriter::with_capacity(
        WRITE_CAPACITY,
        Box::new(io::stdout().lock()) as Box<dyn Write>,
    );
    let mut files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        files.push("-".to_string());
    }
    for f in &files {
        if f == "-" {
            copy(io::stdin().lock(), &mut out)?;
        } else {
            let file = File::open(f).map_err(|e| io::Error::new(e.kind(), format!("{f}: {e}")))?;
            copy(file, &mut out)?;
        }
    }
    out.flush()
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("copy_baseline: {e}");
            ExitCode::from(2)
        }
    }
}
