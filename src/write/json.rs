//! ndjson: one JSON object a game (the schema is in the README). What the
//! passes keep is attached where it was written: a comment or variation to
//! the half-move it follows, or to the game (or variation) before its
//! first move; comments after the result are the game's `final_comments`.

use super::{json_string, unescape_pgn, write_move};
use crate::grammar::hex::push_decimal;
use crate::grammar::model::{HalfMove, Outcome, Side};
use crate::passes::{Tag, Variation};
use crate::pdtl::Pdtl;
use std::io::{self, Write};
use std::ops::Range;

/// The game being written; its buffers are reused from game to game.
#[derive(Debug, Default)]
pub(super) struct Ndjson {
    /// The tag pairs after `Variant`, each with a leading comma.
    tags: Vec<u8>,
    /// Where the value of the `Result` tag is in `tags`, quotes included.
    result_tag: Option<Range<usize>>,
    /// The canonical PDTL, if any.
    start: Vec<u8>,
    /// The main line (0), and the variations open inside it.
    frames: Vec<Frame>,
    /// Comments after the result: JSON strings, comma-separated.
    final_comments: Vec<u8>,
}

/// A line of moves: the main line or a variation.
#[derive(Debug, Default)]
struct Frame {
    /// The variation's label `$[n]`.
    label: Option<u32>,
    /// Move objects done, comma-separated.
    moves: Vec<u8>,
    /// The last move's object, not yet closed: what follows attaches to it.
    last: Vec<u8>,
    /// Attached to the last move.
    after_last: Attached,
    /// Attached to the line itself: what came before its first move.
    before_first: Attached,
}

/// Comments and variations attached to a move or a line.
#[derive(Debug, Default)]
struct Attached {
    /// JSON strings, comma-separated.
    comments: Vec<u8>,
    /// Variation objects, comma-separated.
    variations: Vec<u8>,
}

impl Attached {
    fn clear(&mut self) {
        self.comments.clear();
        self.variations.clear();
    }

    /// Appends the non-empty lists as `,"comments":[…]`, `,"variations":[…]`.
    fn write_fields(&mut self, out: &mut Vec<u8>) {
        for (key, list) in [
            (&b",\"comments\":["[..], &mut self.comments),
            (b",\"variations\":[", &mut self.variations),
        ] {
            if !list.is_empty() {
                out.extend_from_slice(key);
                out.append(list);
                out.push(b']');
            }
        }
    }
}

impl Frame {
    fn reset(&mut self, label: Option<u32>) {
        self.label = label;
        self.moves.clear();
        self.last.clear();
        self.after_last.clear();
        self.before_first.clear();
    }

    /// Closes the last move's object, its attachments written in.
    fn close_last(&mut self) {
        if self.last.is_empty() {
            return;
        }
        if !self.moves.is_empty() {
            self.moves.push(b',');
        }
        self.moves.append(&mut self.last);
        self.after_last.write_fields(&mut self.moves);
        self.moves.push(b'}');
    }

    /// Where a comment or variation written now attaches.
    fn attached(&mut self) -> &mut Attached {
        if self.last.is_empty() {
            &mut self.before_first
        } else {
            &mut self.after_last
        }
    }
}

/// `key` and a JSON array of `numbers`.
fn push_numbers(out: &mut Vec<u8>, key: &[u8], numbers: impl Iterator<Item = u64>) {
    out.extend_from_slice(key);
    out.push(b'[');
    for (i, n) in numbers.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_decimal(out, n);
    }
    out.push(b']');
}

fn push_listed(list: &mut Vec<u8>) -> &mut Vec<u8> {
    if !list.is_empty() {
        list.push(b',');
    }
    list
}

impl Ndjson {
    pub fn begin(&mut self) {
        self.tags.clear();
        self.result_tag = None;
        self.start.clear();
        if self.frames.is_empty() {
            self.frames.push(Frame::default());
        }
        self.frames[0].reset(None);
        self.final_comments.clear();
    }

    pub fn tag(&mut self, tag: &Tag<'_>) {
        let t = &mut self.tags;
        t.extend_from_slice(b",[");
        json_string(t, tag.name.as_bytes());
        t.push(b',');
        let at = t.len();
        json_string(t, &unescape_pgn(tag.value.as_bytes()));
        if tag.name == "Result" {
            self.result_tag = Some(at..t.len());
        }
        t.push(b']');
    }

    pub fn fix_result_tag(&mut self, result: Outcome) {
        if let Some(r) = self.result_tag.take() {
            let mut value = Vec::new();
            json_string(&mut value, result.as_str().as_bytes());
            self.tags.splice(r, value);
        }
    }

    pub fn setup(&mut self, pdtl: &Pdtl) {
        pdtl.write_to(&mut self.start);
    }

    /// Opens the object of a half-move at `depth`, up to its move text.
    fn open_move(&mut self, number: u32, side: Side, depth: u32) -> &mut Vec<u8> {
        let f = &mut self.frames[depth as usize];
        f.close_last();
        let b = &mut f.last;
        b.extend_from_slice(b"{\"number\":");
        push_decimal(b, u64::from(number));
        b.extend_from_slice(match side {
            Side::White => b",\"side\":\"white\",\"move\":\"",
            Side::Black => b",\"side\":\"black\",\"move\":\"",
        });
        b
    }

    /// A main-line half-move already canonical, as `text`.
    pub fn move_span(&mut self, number: u32, side: Side, unknown: bool, text: &[u8], end: bool) {
        let b = self.open_move(number, side, 0);
        b.extend_from_slice(text);
        b.push(b'"');
        if unknown {
            b.extend_from_slice(b",\"unknown_number\":true");
        }
        if end {
            b.extend_from_slice(b",\"end\":true");
        }
    }

    pub fn half_move(&mut self, mv: &HalfMove, depth: u32, text: Option<&[u8]>) {
        let b = self.open_move(mv.number, mv.side, depth);
        // Move text is ASCII letters, digits and signs, or ∞: nothing to escape.
        write_move(mv, text, b);
        b.push(b'"');
        if mv.unknown_number {
            b.extend_from_slice(b",\"unknown_number\":true");
        }
        if let Some(r) = mv.rating {
            b.extend_from_slice(b",\"rating\":");
            json_string(b, r.as_str().as_bytes());
        }
        if !mv.nags().is_empty() {
            push_numbers(b, b",\"nags\":", mv.nags().iter().map(|&n| u64::from(n)));
        }
        if mv.draw_offer {
            b.extend_from_slice(b",\"draw_offer\":true");
        }
        if mv.end {
            b.extend_from_slice(b",\"end\":true");
        }
    }

    pub fn variation(&mut self, edge: Variation, depth: u32) {
        let d = depth as usize;
        match edge {
            Variation::Open { label } => {
                if self.frames.len() <= d {
                    self.frames.resize_with(d + 1, Frame::default);
                }
                self.frames[d].reset(label);
            }
            Variation::Close => {
                let (outer, inner) = self.frames.split_at_mut(d);
                let v = &mut inner[0];
                v.close_last();
                let out = push_listed(&mut outer[d - 1].attached().variations);
                out.push(b'{');
                if let Some(l) = v.label {
                    out.extend_from_slice(b"\"label\":");
                    push_decimal(out, u64::from(l));
                    out.push(b',');
                }
                out.extend_from_slice(b"\"moves\":[");
                out.append(&mut v.moves);
                out.push(b']');
                v.before_first.write_fields(out);
                out.push(b'}');
            }
        }
    }

    pub fn comment(&mut self, text: &[u8], depth: u32, after_result: bool) {
        let list = if after_result && depth == 0 {
            &mut self.final_comments
        } else {
            &mut self.frames[depth as usize].attached().comments
        };
        json_string(push_listed(list), text);
    }

    pub fn finish(
        &mut self,
        file: &str,
        line: u64,
        path: &[u32],
        result: Outcome,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let mut head = Vec::with_capacity(64);
        head.extend_from_slice(b"{\"file\":");
        json_string(&mut head, file.as_bytes());
        head.extend_from_slice(b",\"line\":");
        push_decimal(&mut head, line);
        if !path.is_empty() {
            push_numbers(&mut head, b",\"path\":", path.iter().map(|&k| u64::from(k)));
        }
        head.extend_from_slice(b",\"tags\":[[\"Variant\",\"C'escacs\"]");
        head.extend_from_slice(&self.tags);
        head.extend_from_slice(b"],\"start\":");
        if self.start.is_empty() {
            head.extend_from_slice(b"null");
        } else {
            json_string(&mut head, &self.start);
        }
        let game = &mut self.frames[0];
        game.close_last();
        game.before_first.write_fields(&mut head);
        head.extend_from_slice(b",\"moves\":[");
        out.write_all(&head)?;
        out.write_all(&game.moves)?;
        let mut end = Vec::with_capacity(32);
        end.extend_from_slice(b"],\"result\":\"");
        end.extend_from_slice(result.as_str().as_bytes());
        end.push(b'"');
        if !self.final_comments.is_empty() {
            end.extend_from_slice(b",\"final_comments\":[");
            end.append(&mut self.final_comments);
            end.push(b']');
        }
        end.extend_from_slice(b"}\n");
        out.write_all(&end)
    }
}
