//! The built-in passes, one module each, in their chain order.

mod ascii;
mod comments;
mod fan;
mod ratings;
mod redefine;
mod variations;

pub use ascii::AsciiSeparators;
pub use comments::DropComments;
pub use fan::FanToLetters;
pub use ratings::DropRatings;
pub use redefine::UndoRedefine;
pub use variations::DropVariations;

use crate::pass::Pass;

/// The six built-in passes, in chain order (the names of
/// [`crate::PASS_NAMES`]).
///
/// ```
/// let names: Vec<_> = ctlpgn_filter::passes::builtin().iter().map(|p| p.name()).collect();
/// assert_eq!(names, ctlpgn_filter::PASS_NAMES);
/// ```
pub fn builtin() -> [Box<dyn Pass>; 6] {
    [
        Box::new(UndoRedefine),
        Box::new(FanToLetters::default()),
        Box::new(DropComments::default()),
        Box::new(DropVariations),
        Box::new(DropRatings),
        Box::new(AsciiSeparators),
    ]
}

// Benchmark support (`benches/throughput.rs`), not part of the API.
#[doc(hidden)]
pub use crate::lexer::{bench_half_moves, bench_lex};
