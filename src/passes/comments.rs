//! Pass "comments": drop `{...}` comments.

use crate::pass::{Context, Flow, Pass};

/// Drops every comment. The reader skips their text unread.
///
/// ```
/// let (out, _, _) = ctlpgn_filter::Filter::default().filter_bytes(b"1. E7-E13:\n{ gone }\n");
/// assert!(!String::from_utf8(out).unwrap().contains("gone"));
/// ```
#[derive(Debug, Default)]
pub struct DropComments {
    /// Comments dropped so far.
    pub dropped: u64,
}

impl Pass for DropComments {
    fn name(&self) -> &'static str {
        "comments"
    }

    fn drops_comments(&self) -> bool {
        true
    }

    fn comment(&mut self, _text: &mut [u8], _cx: &mut Context) -> Flow {
        self.dropped += 1;
        Flow::Drop
    }
}
