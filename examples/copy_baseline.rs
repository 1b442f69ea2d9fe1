//! The copy baseline for benchmarks: the I/O of `ctlpgn-filter --jobs 1`
//! with no filtering. Reads the files (or standard input) line by line with
//! `read_until` through a `BufReader` of the same capacity as the binary's,
//! and writes every line unchanged to a `BufWriter` of the same capacity, so
//! that "ratio to copy" compares the filter with the cost of its own I/O.
//!
//! ```sh
//! cargo run --release --example copy_baseline -- bench.ctl-pgn > /dev/null
//! ```

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::process::ExitCode;

/// `src/main.rs`: `BufReader::with_capacity(1 << 16, ..)` and
/// `BufWriter::with_capacity(1 << 16, ..)`.
const CAPACITY: usize = 1 << 16;

fn copy(input: impl Read, out: &mut dyn Write) -> io::Result<u64> {
    let mut input = BufReader::with_capacity(CAPACITY, input);
    let mut buf = Vec::with_capacity(256);
    let mut n = 0;
    loop {
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            return Ok(n);
        }
        out.write_all(&buf)?;
        n += buf.len() as u64;
    }
}

fn run() -> io::Result<()> {
    let mut out =
        BufWriter::with_capacity(CAPACITY, Box::new(io::stdout().lock()) as Box<dyn Write>);
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
