//! What the parse of a half-move hands back: the move, its check mark, and
//! its [`Traits`], what its text holds besides the move.

use crate::grammar::model::{Action, Check};

/// What the text of a half-move holds besides the move itself: the
/// passes say which of these they want to see (see [`crate::Interest`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traits(pub(crate) u8);

impl Traits {
    /// A FAN figurine.
    pub const FIGURINE: Traits = Traits(1);
    /// A letter that is not a standard piece letter (an alternative).
    pub const ALTERNATIVE_LETTER: Traits = Traits(2);
    /// A Unicode dash or `×`.
    pub const UNICODE_SEPARATOR: Traits = Traits(4);
    /// A rating or NAG after the move.
    pub const RATED: Traits = Traits(8);
    /// Inside a variation.
    pub const IN_VARIATION: Traits = Traits(16);
    /// The text as read is not what [`crate::HalfMove::write_move`] writes
    /// (a leading `P` dropped, `^+` read as `+^`): not a pass's concern.
    pub(crate) const RESPELLED: Traits = Traits(32);

    /// Does `self` hold any trait of `other`?
    #[inline]
    pub fn intersects(self, other: Traits) -> bool {
        self.0 & other.0 != 0
    }
}

impl std::ops::BitOr for Traits {
    type Output = Traits;
    fn bitor(self, other: Traits) -> Traits {
        Traits(self.0 | other.0)
    }
}

impl std::ops::BitOrAssign for Traits {
    fn bitor_assign(&mut self, other: Traits) {
        self.0 |= other.0;
    }
}

/// A half-move as read: the move, its check mark, and its traits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parsed {
    pub action: Action,
    pub check: Option<Check>,
    pub traits: Traits,
}
