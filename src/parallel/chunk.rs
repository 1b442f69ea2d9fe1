//! Cutting the input into chunks: where a chunk may start, and how far
//! it reads into the next one.

use crate::read::read_some;
use crate::report::Origin;
use std::io::{self, Read};

/// Where a chunk may start: a line that starts with this.
const CANDIDATE: &[u8] = b"\n[Variant \"";

/// Cuts a byte stream into chunks of about `size` bytes, each starting at a
/// line that starts `[Variant "` (but the first) where one comes soon
/// enough, else at a line start or, in a line too long, anywhere: a chunk
/// holds at most `2 × size` bytes of its own, whatever the input.
pub(crate) struct Chunker<R> {
    input: R,
    /// `buf[..filled]` is read but not yet handed out.
    buf: Vec<u8>,
    filled: usize,
    /// Where `buf` starts in the stream.
    origin: Origin,
    /// `buf` starts a line.
    starts_line: bool,
    eof: bool,
    size: usize,
}

/// A chunk: its place in the stream and its bytes, followed by the first
/// line of the next chunk (`lookahead`), if there is one.
pub(crate) struct Chunk {
    pub index: usize,
    pub origin: Origin,
    pub bytes: Vec<u8>,
    /// How many of `bytes` are the chunk's own.
    pub len: usize,
    pub last: bool,
    /// The chunk starts a line: a game may start where it starts. One cut
    /// inside a line is never read on a worker: it is read again.
    pub starts_line: bool,
    /// The next chunk starts a line, carried whole after the chunk's own
    /// bytes: a reader of this chunk can tell whether a game starts there.
    /// Else (a line too long to carry) the chunk's last game is read again.
    pub boundary: bool,
}

impl Chunk {
    pub(super) fn own(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    /// The stream offset just past the chunk.
    pub(super) fn end(&self) -> u64 {
        self.origin.byte + self.len as u64
    }
}

/// Does a line that follows `before` seem to stand inside a comment (the
/// last brace before it opens one)? Then a game quoted in the comment is
/// likely, and a cut there would be read again on one thread. Only a
/// guess: a brace in a tag's value fools it, and a wrong guess costs time,
/// never bytes. The scan back stops at the first brace.
fn seems_inside_comment(before: &[u8]) -> bool {
    memchr::memrchr2(b'{', b'}', before).is_some_and(|i| before[i] == b'{')
}

/// Where a chunk ends.
enum Cut {
    /// Before a line that starts `[Variant "`, or any line: a game may start there.
    Line(usize),
    /// Inside a line.
    MidLine(usize),
    /// At the end of the input.
    End,
}

impl<R: Read> Chunker<R> {
    pub fn new(input: R, size: usize) -> Chunker<R> {
        Chunker {
            input,
            buf: Vec::new(),
            filled: 0,
            origin: Origin::START,
            starts_line: true,
            eof: false,
            size: size.max(1),
        }
    }

    /// The most bytes of its own a chunk holds.
    fn bound(&self) -> usize {
        2 * self.size
    }

    /// The longest first line of the next chunk carried with one: at
    /// least 64 KiB, so that tiny chunks in tests still carry a line.
    fn lookahead(&self) -> usize {
        self.bound().max(1 << 16)
    }

    /// The next chunk, or `None` at the end of the input. A chunk is longer
    /// than `size` only when no candidate line comes sooner, and at most
    /// `2 × size`.
    pub fn next_chunk(&mut self, index: usize) -> io::Result<Option<Chunk>> {
        let bound = self.bound();
        let mut searched = 0;
        let cut = 'search: loop {
            if self.filled >= self.size {
                let mut from = searched.max(self.size).saturating_sub(CANDIDATE.len());
                // A candidate past the bound is not taken: no search there
                // (else each tiny chunk searches all the buffer holds).
                let end = self.filled.min(bound - 1 + CANDIDATE.len());
                while let Some(i) = memchr::memmem::find(&self.buf[from.min(end)..end], CANDIDATE) {
                    let line = from + i + 1;
                    if line > bound {
                        break;
                    }
                    if !seems_inside_comment(&self.buf[..line]) {
                        break 'search Cut::Line(line);
                    }
                    from = line;
                }
                searched = self.filled;
                if self.filled >= bound {
                    break self.forced_cut();
                }
            }
            if self.eof {
                break Cut::End;
            }
            self.fill()?;
        };
        let (len, next_starts_line) = match cut {
            Cut::Line(at) => (at, true),
            Cut::MidLine(at) => (at, false),
            Cut::End if self.filled == 0 => return Ok(None),
            Cut::End => (self.filled, false),
        };
        // The next chunk's first line, whole, when it is not too long.
        let mut lookahead = len;
        if next_starts_line {
            let most = self.lookahead();
            loop {
                let ahead = &self.buf[len..self.filled.min(len + most)];
                if let Some(n) = memchr::memchr(b'\n', ahead) {
                    lookahead = len + n + 1;
                    break;
                }
                if self.eof {
                    lookahead = self.filled;
                    break;
                }
                if ahead.len() >= most {
                    break;
                }
                self.fill()?;
            }
        }
        // A copy the chunk's size: the buffer, read into up to twice the
        // size, stays here for the next chunk.
        let bytes = self.buf[..lookahead].to_vec();
        self.buf.copy_within(len..self.filled, 0);
        self.filled -= len;
        let origin = self.origin;
        self.origin.byte += len as u64;
        self.origin.line += memchr::memchr_iter(b'\n', &bytes[..len]).count() as u64;
        let starts_line = std::mem::replace(&mut self.starts_line, next_starts_line);
        Ok(Some(Chunk {
            index,
            origin,
            bytes,
            len,
            last: matches!(cut, Cut::End),
            starts_line,
            boundary: lookahead > len,
        }))
    }

    /// No candidate line within `2 × size` bytes (a long comment, games
    /// without a Variant tag): a cut after `size` bytes anyway, before the
    /// first line that follows an empty one (games are set apart so), or
    /// before any line, or, in a line too long, at `2 × size`. Reading
    /// checks every cut: one that no game starts at only costs a reading
    /// again on one thread.
    fn forced_cut(&self) -> Cut {
        let bound = self.bound();
        let window = &self.buf[self.size..bound];
        if let Some(i) = memchr::memmem::find(window, b"\n\n") {
            Cut::Line(self.size + i + 2)
        } else if let Some(i) = memchr::memchr(b'\n', window) {
            Cut::Line(self.size + i + 1)
        } else {
            Cut::MidLine(bound)
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        let want = self.size.saturating_sub(self.filled).max(1 << 16);
        if self.buf.len() < self.filled + want {
            self.buf.resize(self.filled + want, 0);
        }
        let n = read_some(
            &mut self.input,
            &mut self.buf[self.filled..self.filled + want],
        )?;
        self.filled += n;
        self.eof |= n == 0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(input: &str, size: usize) -> Vec<(Origin, String, String)> {
        cut(input, size)
            .into_iter()
            .map(|c| {
                let own = String::from_utf8(c.own().to_vec()).unwrap();
                let ahead = String::from_utf8(c.bytes[c.len..].to_vec()).unwrap();
                (c.origin, own, ahead)
            })
            .collect()
    }

    fn cut(input: &str, size: usize) -> Vec<Chunk> {
        let mut c = Chunker::new(input.as_bytes(), size);
        let mut v = Vec::new();
        while let Some(chunk) = c.next_chunk(v.len()).unwrap() {
            v.push(chunk);
        }
        v
    }

    #[test]
    fn chunks_start_at_variant_lines_and_carry_the_next_ones_first_line() {
        let a = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
        let b = "[Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
        // A candidate line within twice the size is waited for.
        let v = chunks(&format!("{a}{b}"), a.len() / 2 + 1);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].1, a);
        assert_eq!(v[0].2, "[Variant \"C'escacs\"]\n");
        assert_eq!(
            v[1].0,
            Origin {
                line: 3,
                byte: a.len() as u64
            }
        );
        assert_eq!(v[1].2, "");
    }

    #[test]
    fn chunks_do_not_start_at_a_game_quoted_in_a_comment() {
        let a = "[Variant \"C'escacs\"]\n1. E7-E13 { as in:\n[Variant \"C'escacs\"]\n1. F8-F12:\n*\n}:\n*\n";
        let b = "[Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
        let v = chunks(&format!("{a}{b}"), a.len() / 2 + 1);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].1, a);
        assert_eq!(v[1].1, b);
    }

    #[test]
    fn chunks_without_a_variant_line_are_cut_within_twice_their_size_after_an_empty_line() {
        let input = "1. E7-E13:\n*\n\n".repeat(1000);
        let v = chunks(&input, 100);
        assert!(v.len() > 60);
        for (_, own, ahead) in &v[..v.len() - 1] {
            assert!(own.len() <= 200 && own.ends_with("\n\n"), "{own:?}");
            assert_eq!(ahead, "1. E7-E13:\n");
        }
        let joined: String = v.iter().map(|c| c.1.as_str()).collect();
        assert_eq!(joined, input);
    }

    #[test]
    fn a_line_longer_than_twice_the_size_is_cut_inside_and_never_carried() {
        let input = format!("1. E7-E13:\n{{{}}}\n*\n", "x".repeat(1000));
        let v = cut(&input, 100);
        assert!(v.iter().all(|c| c.len <= 200));
        // The chunk before the long line carries no line of it; those cut
        // inside it do not start a line.
        assert!(v[0].starts_line && !v[0].boundary);
        assert!(v[1..v.len() - 1]
            .iter()
            .all(|c| !c.starts_line && !c.boundary));
        let joined: Vec<u8> = v.iter().flat_map(|c| c.own().to_vec()).collect();
        assert_eq!(joined, input.as_bytes());
    }

    #[test]
    fn chunks_concatenate_to_the_input() {
        let game = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n*\n\n";
        let input = game.repeat(50);
        let v = chunks(&input, 100);
        assert!(v.len() > 5);
        let joined: String = v.iter().map(|c| c.1.as_str()).collect();
        assert_eq!(joined, input);
    }
}
