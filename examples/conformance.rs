//! The conformance protocol (`conformance/README.md`) for this filter:
//! reads the one game of FILE as a minimal reader would, and prints its
//! verdict, the half-moves accepted, and, when coherent, the final PDTL.
//!
//! ```text
//! cargo run -q --example conformance -- conformance/capture-letter/input.ctl-pgn
//! ```
//!
//! `tests/conformance.rs` runs every case through [`verdict`].

use ctlpgn_filter::{FilterBuilder, Verify};
use std::sync::{Arc, Mutex};

/// The protocol's answer for `input`, one game: `coherent` or `error`,
/// then `half-moves: K`, then, when coherent, `final: PDTL`; each line
/// ends with a line end.
pub fn verdict(input: &[u8]) -> String {
    // (coherent, half-moves replayed, final position) of the main line.
    let end: Arc<Mutex<Option<(bool, u32, String)>>> = Arc::default();
    let seen = Arc::clone(&end);
    let verify = Verify::new().on_game_end(move |e| {
        if e.path.is_empty() {
            let seen = (e.coherent && !e.rejected, e.half_moves, e.position.to_string());
            *end.lock().expect("no thread panics holding it") = Some(seen);
        }
    });
    let mut filter = FilterBuilder::new().verify(verify).build();
    let (_, _, report) = filter.filter_bytes(input);
    let end = seen.lock().expect("no thread panics holding it").take();
    match end {
        Some((true, half_moves, position)) if report.games_written == 1 => {
            format!("coherent\nhalf-moves: {half_moves}\nfinal: {position}\n")
        }
        Some((_, half_moves, _)) => format!("error\nhalf-moves: {half_moves}\n"),
        None => "error\nhalf-moves: 0\n".to_string(),
    }
}

#[allow(dead_code)] // tests/conformance.rs takes `verdict` alone
fn main() {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: cargo run -q --example conformance -- FILE");
        std::process::exit(2);
    };
    match std::fs::read(&path) {
        Ok(input) => print!("{}", verdict(&input)),
        Err(e) => {
            eprintln!("{}: {e}", std::path::Path::new(&path).display());
            std::process::exit(2);
        }
    }
}
