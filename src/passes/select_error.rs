//! What is wrong with a selection typed on the command line.

use std::fmt;

/// What is wrong with a `--tag NAME=PATTERN`, a `--plies` range or a
/// `--reaches` position, said so that the command line can show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelectError(pub String);

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SelectError {}
