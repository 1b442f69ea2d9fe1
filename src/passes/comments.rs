//! Pass "comments": drop `{...}` comments.

use crate::pass::{Context, Flow, Interest, Pass};

/// Drops every comment: the reader then skips their text unread.
///
/// ```
/// let (out, _, _) = ctlpgn_filter::Filter::default().filter_bytes(b"1. E7-E13:\n{ gone }\n");
/// assert!(!String::from_utf8(out).unwrap().contains("gone"));
/// ```
#[derive(Debug, Default)]
pub struct DropComments;

impl Pass for DropComments {
    fn name(&self) -> &'static str {
        "comments"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        Interest::COMMENTS
    }

    fn drops(&self) -> Interest {
        Interest::COMMENTS
    }

    fn comment(&mut self, _text: &mut [u8], _cx: &mut Context) -> Flow {
        Flow::Drop
    }
}
