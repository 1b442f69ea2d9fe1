//! `ctlpgn-filter`: turns any CTL-PGN (game records of C'escacs, the
//! hexagonal chess variant) into canonical input for a minimal reader.
//!
//! Data flow:
//!
//! ```text
//! lines ─▶ logos lexer (+ comment / variation mode machine) ─▶ half-moves, tags, comments
//!       ─▶ passes: redefine ▸ fan ▸ comments ▸ variations ▸ ratings ▸ ascii ▸ yours
//!       ─▶ writer (one canonical game at a time)
//! ```
//!
//! Most games skip all of this: a game that is canonical already (the
//! writer's own layout, nothing to report) is copied whole, and a game in
//! the common hand-written forms is translated straight into its canonical
//! text; a check of the writer's layout decides on both.
//!
//! ```
//! let input = "[Variant \"C'escacs\"]\n1. E7‐E13 ?!, E21-E15\n{ a comment }\n2. E13×F16:\n";
//! let mut filter = ctlpgn_filter::Filter::default();
//! let (out, diagnostics, report) = filter.filter_bytes(input.as_bytes());
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15\n2. E13*F16:\n*\n\n"
//! );
//! assert!(diagnostics.is_empty());
//! assert_eq!(report.games_written, 1);
//! ```
#![deny(missing_docs)]

/// The board's columns and lines, the piece letters, the castlings (shared
/// with `build.rs`).
mod alphabet;
mod canonical;
mod diag;
mod express;
mod filter;
mod hex;
mod lexer;
mod model;
mod parallel;
mod pass;
pub mod passes;
mod pdtl;
mod reader;
mod redefine;
mod simd;
#[cfg(test)]
mod test_edits;
mod verify;
mod writer;

pub use writer::Format;

pub use diag::{Diagnostic, Severity};
pub use filter::{Filter, FilterBuilder, Origin, Report, PASS_NAMES};
pub use hex::{Hex, HexError, COLUMNS};
pub use model::{
    Action, Check, Dash, Glyph, HalfMove, Outcome, Rating, Sep, Side, CASTLING, FIGURINES,
    STANDARD_LETTERS,
};
pub use parallel::{run_parallel, Chunker};
pub use pass::{Context, Flow, Pass, Tag, Variation};
pub use pdtl::{CastleMark, EnPassant, Pdtl, PdtlError, PdtlWarning, Piece};
pub use redefine::{RedefineError, RedefineMap};
pub use verify::{GameEnd, Incoherence, Position, Verify, INITIAL_PDTL};
