//! `ctlpgn-filter`: turns any CTL-PGN (game records of C'escacs, the
//! hexagonal chess variant) into canonical input for a minimal reader.
//!
//! Data flow: one reader for every game and every option.
//!
//! ```text
//! bytes ─▶ read:   Reader::read_game, one loop over logos tokens (+ a comment /
//!                  variation mode machine), game boundaries; each game handed to
//!                  a Visitor, then reading pauses
//!       ─▶ passes: the Filter is that visitor: redefine ▸ fan ▸ comments ▸
//!                  variations ▸ ratings ▸ ascii ▸ verify ▸ select ▸ yours
//!       ─▶ verdict: written, rejected, or left out (--tag, --plies, --reaches, --dedup)
//!       ─▶ write:  canonical CTL-PGN (input already canonical copied as read),
//!                  ndjson, a listing or a count, one game at a time (and, split,
//!                  each variation as a game of its own)
//! ```
//!
//! [`read`] is the reader itself: [`read::Reader::read_game`] hands each
//! game to a [`read::Visitor`] of your own, which may skip comments and
//! variations ([`read::Skip`]) and says what each game comes to
//! ([`read_games`] reads them all). [`Filter`] is the visitor the command
//! line uses: each pass says which items it wants ([`Interest`]), so the
//! chain costs nothing on the rest; a pass that drops every comment or
//! variation lets the reader skip them unread.
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

mod cut;
#[cfg(feature = "decode")]
pub mod decode;
mod diag;
mod filter;
mod games;
mod grammar;
pub mod options;
mod parallel;
mod pass;
pub mod passes;
mod pdtl;
pub mod read;
mod report;
mod spill;
mod stages;
mod verify;
mod visitor;
mod write;

pub use write::{
    unescape_pgn, Column, Columns, ColumnsError, Diagram, DiagramOptions, Format, Marks,
    PieceStyle, VARIATION_PATH_TAG,
};

pub use cut::{cut_at_games, cut_at_games_marked, Cuts, ORIGIN_MARK};
pub use diag::{Diagnostic, DiagnosticKind, Message, Pos, Severity};
pub use filter::{index_implementations, Fate, FilterBuilder, PASS_NAMES};
pub use games::{FilteredGame, Games};
pub use grammar::half_move::Traits;
pub use grammar::hex::{Hex, HexColour, HexError, COLUMNS};
pub use grammar::model::{
    Action, Check, Dash, Glyph, HalfMove, Outcome, Rating, Sep, Side, CASTLING, FIGURINES,
    STANDARD_LETTERS,
};
pub use grammar::redefine::{RedefineError, RedefineMap};
pub use options::{OptionError, Options};
pub use parallel::{run_parallel, run_parallel_into};
pub use passes::Ledger;
pub use passes::{
    Context, Flow, Interest, LeftOut, Pass, Reaches, SelectDate, SelectError, SelectPlies,
    SelectResult, SelectTags, Tag, TagPattern, Variation,
};
pub use pdtl::{CastleMark, EnPassant, Pdtl, PdtlError, PdtlWarning, Piece};
pub use read::{Sinks, DEFAULT_MAX_DEPTH, DEFAULT_MAX_LINE_BYTES};
pub use report::{CutShort, LeftOutCounts, Origin, Report};
pub use stages::Filter;
pub use verify::{GameEnd, Incoherence, Position, Verify, INITIAL_PDTL};
pub use visitor::read_games;
