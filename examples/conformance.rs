//! The conformance protocol (`conformance/README.md`) for this filter:
//! reads the one game of FILE as a minimal reader would, and prints its
//! verdict, the half-moves accepted, and, when coherent, the final PDTL.
//!
//! ```text
//! cargo run -q --example conformance -- conformance/capture-letter/input.ctl-pgn
//! ```
//!
//! `tests/conformance.rs` runs every case through [`verdict`].

use ctlpgn_filter::{Context, FilterBuilder, Flow, HalfMove, Pass, Verify};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// Counts the main line's half-moves taken before the first error (the
/// variations are dropped before it: it runs after the built-in passes,
/// `verify` included, which flags an incoherent half-move as it comes).
struct Accepted(Arc<AtomicU32>);

impl Pass for Accepted {
    fn name(&self) -> &'static str {
        "accepted"
    }

    fn half_move(&mut self, _mv: &mut HalfMove, cx: &mut Context) -> Flow {
        if !cx.has_error() {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
        Flow::Keep
    }
}

/// The protocol's answer for `input`, one game: `coherent` or `error`,
/// then `half-moves: K`, the half-moves accepted before the first refused
/// (all when coherent), then, when coherent, `final: PDTL`; each line
/// ends with a line end.
pub fn verdict(input: &[u8]) -> String {
    // The final position of a main line replayed coherently.
    let end: Arc<Mutex<Option<String>>> = Arc::default();
    let seen = Arc::clone(&end);
    let verify = Verify::new().on_game_end(move |e| {
        if e.path.is_empty() && e.coherent && !e.rejected {
            *end.lock().expect("no thread panics holding it") = Some(e.position.to_string());
        }
    });
    let accepted = Arc::new(AtomicU32::new(0));
    let mut filter = FilterBuilder::new()
        .verify(verify)
        .pass(Box::new(Accepted(Arc::clone(&accepted))))
        .build();
    let (_, _, report) = filter.filter_bytes(input);
    let half_moves = accepted.load(Ordering::Relaxed);
    let position = seen.lock().expect("no thread panics holding it").take();
    match position {
        Some(position) if report.games_written == 1 => {
            format!("coherent\nhalf-moves: {half_moves}\nfinal: {position}\n")
        }
        _ => format!("error\nhalf-moves: {half_moves}\n"),
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
