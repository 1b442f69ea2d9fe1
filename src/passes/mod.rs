//! The pass chain and the built-in passes, one module each, in their
//! chain order.

mod ascii;
mod chain;
mod comments;
mod dates;
mod fan;
pub(crate) mod ledger;
mod names;
mod ratings;
mod redefine;
mod select;
mod select_error;
mod tag_pattern;
mod variations;

pub use crate::pass::{Context, Flow, Interest, LeftOut, Pass, Tag, Variation};
pub use ascii::AsciiSeparators;
pub use comments::DropComments;
pub use dates::SelectDate;
pub use fan::FanToLetters;
pub use ledger::Ledger;
pub use ratings::DropRatings;
pub use redefine::UndoRedefine;
pub use select::{Reaches, SelectPlies, SelectResult, SelectTags};
pub use select_error::SelectError;
pub use tag_pattern::TagPattern;
pub use variations::DropVariations;

pub(crate) use chain::{Chain, Slot};
pub(crate) use select::{DedupKey, Select};

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
        Box::new(DropComments),
        Box::new(DropVariations),
        Box::new(DropRatings),
        Box::new(AsciiSeparators),
    ]
}

/// Benchmark support (`benches/throughput.rs`), not part of the API: the
/// number of tokens in `input`, read by the tokenizer alone.
#[doc(hidden)]
pub fn bench_tokens(input: &[u8]) -> usize {
    use logos::Logos;
    crate::grammar::token::Token::lexer(input).count()
}
