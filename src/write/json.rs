//! ndjson: one JSON object a game (the schema is in the README). What the
//! passes keep is attached where it was written: a comment or variation to
//! the half-move it follows, or to the game (or variation) before its
//! first move; comments after the result are the game's `final_comments`.

use super::held::Held;
use super::text::{json_escaped, json_string, unescape_pgn, write_move};
use crate::grammar::hex::push_decimal;
use crate::grammar::model::{HalfMove, Outcome, Side};
use crate::pass::{Tag, Variation};
use crate::pdtl::Pdtl;
use std::io::{self, Write};
use std::ops::Range;

/// The game being written; its buffers are reused from game to game.
#[derive(Debug, Default)]
pub(super) struct Ndjson {
    /// The tag pairs after `Variant`, each with a leading comma, for
    /// `tag_list`.
    tags: Vec<u8>,
    /// Where the value of the `Result` tag is in `tags`, quotes included.
    result_tag: Option<Range<usize>>,
    /// The members of `tags` after `Variant`, each with a leading comma:
    /// a name's first value only (`tag_list` has every one).
    tag_members: Vec<u8>,
    /// The same for `tag_members`.
    result_member: Option<Range<usize>>,
    /// Where each name in `tag_members` is in `tags`, quotes left out: a
    /// name is ASCII letters, digits and `_` (the tokenizer reads no
    /// other), written as it is. Read only while tags are added, before
    /// `fix_result_tag` may move them.
    member_names: Vec<Range<usize>>,
    /// The final position, when a replay ran.
    final_pdtl: Vec<u8>,
    /// The canonical PDTL, if any.
    start: Vec<u8>,
    /// The bytes of the main line and of its variations.
    rope: Rope,
    /// The main line (0), and the variations open inside it.
    frames: Vec<Frame>,
    /// Comments after the result: JSON strings, comma-separated.
    final_comments: List,
    /// Where the comment open goes: the line at this depth, or (`None`)
    /// the game's final comments.
    comment_at: Option<usize>,
}

/// A game's moves as JSON, kept in the order they are made but written in
/// another: a variation is made before the `}` of the move it follows. The
/// bytes go once into one arena; a [`List`] strings pieces of it together,
/// and lists join without a copy, so a variation nested `n` deep is not
/// copied `n` times (that made memory grow with the square of the depth).
/// The arena is held ([`Held`]): a huge comment goes on to a spill.
#[derive(Debug, Default)]
struct Rope {
    arena: Held,
    pieces: Vec<Piece>,
}

/// `arena[start..end]`, then the piece `next` of the same list.
#[derive(Debug)]
struct Piece {
    start: u64,
    end: u64,
    next: usize,
}

const NONE: usize = usize::MAX;

/// Pieces of a [`Rope`], first to last; empty when `first` is `NONE`.
#[derive(Debug, Clone, Copy)]
struct List {
    first: usize,
    last: usize,
}

impl Default for List {
    fn default() -> Self {
        List {
            first: NONE,
            last: NONE,
        }
    }
}

impl List {
    fn is_empty(&self) -> bool {
        self.first == NONE
    }
}

impl Rope {
    fn clear(&mut self) {
        self.arena.clear();
        self.pieces.clear();
    }

    /// What `write` appends to the arena becomes the end of `list`: its
    /// last piece grows when nothing else was written since.
    #[inline]
    fn with(&mut self, list: &mut List, write: impl FnOnce(&mut Vec<u8>)) {
        let start = self.arena.len();
        write(&mut self.arena.mem);
        let end = self.arena.len();
        if !list.is_empty() && self.pieces[list.last].end == start {
            self.pieces[list.last].end = end;
            return;
        }
        let at = self.pieces.len();
        self.pieces.push(Piece {
            start,
            end,
            next: NONE,
        });
        self.link(
            list,
            List {
                first: at,
                last: at,
            },
        );
    }

    fn push(&mut self, list: &mut List, bytes: &[u8]) {
        self.with(list, |b| b.extend_from_slice(bytes));
    }

    /// Appends `tail` to `list`.
    fn link(&mut self, list: &mut List, tail: List) {
        if tail.is_empty() {
            return;
        }
        if list.is_empty() {
            list.first = tail.first;
        } else {
            self.pieces[list.last].next = tail.first;
        }
        list.last = tail.last;
    }

    fn write(&mut self, list: List, out: &mut dyn Write) -> io::Result<()> {
        let mut at = list.first;
        while at != NONE {
            let p = &self.pieces[at];
            self.arena.write_range(out, p.start, p.end)?;
            at = p.next;
        }
        Ok(())
    }
}

/// A line of moves: the main line or a variation.
#[derive(Debug, Default)]
struct Frame {
    /// The variation's label `$[n]`.
    label: Option<u32>,
    /// Move objects, comma-separated; the last one open while `open`.
    moves: List,
    /// The last move's object is not closed: what follows attaches to it.
    open: bool,
    /// Attached to the last move.
    after_last: Attached,
    /// Attached to the line itself: what came before its first move.
    before_first: Attached,
}

/// Comments and variations attached to a move or a line.
#[derive(Debug, Default)]
struct Attached {
    /// JSON strings, comma-separated.
    comments: List,
    /// Variation objects, comma-separated.
    variations: List,
}

impl Attached {
    /// Appends the non-empty lists to `out` as `,"comments":[…]`,
    /// `,"variations":[…]`.
    fn write_fields(&mut self, rope: &mut Rope, out: &mut List) {
        for (key, list) in [
            (&b",\"comments\":["[..], &mut self.comments),
            (b",\"variations\":[", &mut self.variations),
        ] {
            if !list.is_empty() {
                rope.push(out, key);
                rope.link(out, std::mem::take(list));
                rope.push(out, b"]");
            }
        }
    }
}

impl Frame {
    fn reset(&mut self, label: Option<u32>) {
        *self = Frame {
            label,
            ..Frame::default()
        };
    }

    /// Closes the last move's object, its attachments written in.
    fn close_last(&mut self, rope: &mut Rope) {
        if std::mem::take(&mut self.open) {
            self.after_last.write_fields(rope, &mut self.moves);
            rope.push(&mut self.moves, b"}");
        }
    }

    /// Where a comment or variation written now attaches.
    fn attached(&mut self) -> &mut Attached {
        if self.open {
            &mut self.after_last
        } else {
            &mut self.before_first
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

/// Lets `write` add an item to the comma-separated `list`.
fn push_listed(rope: &mut Rope, list: &mut List, write: impl FnOnce(&mut Vec<u8>)) {
    let comma = !list.is_empty();
    rope.with(list, |b| {
        if comma {
            b.push(b',');
        }
        write(b);
    });
}

impl Ndjson {
    /// A writer that holds `bound` bytes of a game in memory, and spills
    /// the rest ([`Held`]).
    pub fn new(bound: usize) -> Ndjson {
        Ndjson {
            rope: Rope {
                arena: Held::new(bound),
                pieces: Vec::new(),
            },
            ..Ndjson::default()
        }
    }

    pub fn begin(&mut self) {
        self.tags.clear();
        self.result_tag = None;
        self.tag_members.clear();
        self.result_member = None;
        self.member_names.clear();
        self.final_pdtl.clear();
        self.start.clear();
        self.rope.clear();
        if self.frames.is_empty() {
            self.frames.push(Frame::default());
        }
        self.frames[0].reset(None);
        self.final_comments = List::default();
    }

    pub fn tag(&mut self, tag: &Tag<'_>) {
        let value = unescape_pgn(tag.value.as_bytes());
        let t = &mut self.tags;
        t.extend_from_slice(b",[");
        let quoted_name = t.len();
        json_string(t, tag.name.as_bytes());
        let quoted_name = quoted_name..t.len();
        t.push(b',');
        let at = t.len();
        json_string(t, &value);
        let quoted_value = at..t.len();
        if tag.name == "Result" {
            self.result_tag = Some(quoted_value.clone());
        }
        t.push(b']');
        // The object keeps a repeated name's first value; `tag_list` has
        // them all, in order.
        let tags = &self.tags;
        if self
            .member_names
            .iter()
            .any(|r| tags[r.clone()] == *tag.name.as_bytes())
        {
            return;
        }
        self.member_names
            .push(quoted_name.start + 1..quoted_name.end - 1);
        // Name and value as `tag_list` has them, escaped once.
        let m = &mut self.tag_members;
        m.push(b',');
        m.extend_from_slice(&tags[quoted_name]);
        m.push(b':');
        let at = m.len();
        m.extend_from_slice(&tags[quoted_value]);
        if tag.name == "Result" {
            self.result_member = Some(at..m.len());
        }
    }

    pub fn fix_result_tag(&mut self, result: Outcome) {
        let mut value = Vec::new();
        json_string(&mut value, result.as_str().as_bytes());
        if let Some(r) = self.result_tag.take() {
            self.tags.splice(r, value.iter().copied());
        }
        if let Some(r) = self.result_member.take() {
            self.tag_members.splice(r, value);
        }
    }

    /// The game's final position, as a replay left it.
    pub fn final_position(&mut self, position: &impl std::fmt::Display) {
        use std::io::Write as _;
        self.final_pdtl.clear();
        let _ = write!(self.final_pdtl, "{position}");
    }

    pub fn setup(&mut self, pdtl: &Pdtl) {
        pdtl.write_to(&mut self.start);
    }

    /// Opens the object of a half-move at `depth`; `rest` writes what
    /// follows `"number"` and `"side"`.
    #[inline]
    fn open_move(&mut self, number: u32, side: Side, depth: u32, rest: impl FnOnce(&mut Vec<u8>)) {
        let f = &mut self.frames[depth as usize];
        f.close_last(&mut self.rope);
        f.open = true;
        push_listed(&mut self.rope, &mut f.moves, |b| {
            b.extend_from_slice(b"{\"number\":");
            push_decimal(b, u64::from(number));
            b.extend_from_slice(match side {
                Side::White => b",\"side\":\"white\",\"move\":\"",
                Side::Black => b",\"side\":\"black\",\"move\":\"",
            });
            rest(b);
        });
    }

    pub fn half_move(&mut self, mv: &HalfMove, depth: u32, text: Option<&[u8]>) {
        self.open_move(mv.number, mv.side, depth, |b| {
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
        });
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
                let rope = &mut self.rope;
                v.close_last(rope);
                let out = &mut outer[d - 1].attached().variations;
                push_listed(rope, out, |b| {
                    b.push(b'{');
                    if let Some(l) = v.label {
                        b.extend_from_slice(b"\"label\":");
                        push_decimal(b, u64::from(l));
                        b.push(b',');
                    }
                    b.extend_from_slice(b"\"moves\":[");
                });
                rope.link(out, std::mem::take(&mut v.moves));
                rope.push(out, b"]");
                v.before_first.write_fields(rope, out);
                rope.push(out, b"}");
            }
        }
    }

    pub fn comment(&mut self, text: &[u8], depth: u32, after_result: bool) {
        self.comment_open(depth, after_result);
        self.comment_piece(text);
        self.comment_close();
    }

    /// A comment opens, as a JSON string: its text comes in pieces
    /// ([`Ndjson::comment_piece`]), escaped as they come.
    pub fn comment_open(&mut self, depth: u32, after_result: bool) {
        self.comment_at = (!after_result || depth > 0).then_some(depth as usize);
        let (rope, list) = self.comments();
        push_listed(rope, list, |b| b.push(b'"'));
    }

    pub fn comment_piece(&mut self, text: &[u8]) {
        let (rope, list) = self.comments();
        rope.with(list, |b| json_escaped(b, text));
        rope.arena.settle();
    }

    pub fn comment_close(&mut self) {
        let (rope, list) = self.comments();
        rope.push(list, b"\"");
    }

    /// The list the comment open goes on.
    fn comments(&mut self) -> (&mut Rope, &mut List) {
        let list = match self.comment_at {
            Some(depth) => &mut self.frames[depth].attached().comments,
            None => &mut self.final_comments,
        };
        (&mut self.rope, list)
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
        head.extend_from_slice(b",\"tags\":{\"Variant\":\"C'escacs\"");
        head.extend_from_slice(&self.tag_members);
        head.extend_from_slice(b"},\"tag_list\":[[\"Variant\",\"C'escacs\"]");
        head.extend_from_slice(&self.tags);
        head.extend_from_slice(b"],\"start\":");
        if self.start.is_empty() {
            head.extend_from_slice(b"null");
        } else {
            json_string(&mut head, &self.start);
        }
        self.rope.arena.check()?;
        out.write_all(&head)?;
        let rope = &mut self.rope;
        let game = &mut self.frames[0];
        game.close_last(rope);
        let mut moves = List::default();
        game.before_first.write_fields(rope, &mut moves);
        rope.push(&mut moves, b",\"moves\":[");
        rope.link(&mut moves, game.moves);
        rope.push(&mut moves, b"],\"result\":\"");
        rope.push(&mut moves, result.as_str().as_bytes());
        rope.push(&mut moves, b"\"");
        let finals = std::mem::take(&mut self.final_comments);
        if !finals.is_empty() {
            rope.push(&mut moves, b",\"final_comments\":[");
            rope.link(&mut moves, finals);
            rope.push(&mut moves, b"]");
        }
        if !self.final_pdtl.is_empty() {
            let mut pdtl = Vec::with_capacity(self.final_pdtl.len() + 2);
            json_string(&mut pdtl, &self.final_pdtl);
            rope.push(&mut moves, b",\"final_pdtl\":");
            rope.push(&mut moves, &pdtl);
        }
        rope.push(
            &mut moves, b"}
",
        );
        rope.write(moves, out)
    }
}
