//! Games that are canonical already: input the filter would write back byte
//! for byte, with nothing to report. The reader copies such a game whole
//! instead of reading it token by token (see `Reader::copy_canonical`), so
//! filtered output runs through the filter again several times faster.
//!
//! [`canonical_game`] recognises the writer's own layout only, which is far
//! narrower than what the reader accepts: one way to write each thing,
//! nothing to drop. Anything else (a Unicode dash, a comment, a rating, a
//! `Redefine`, a game cut by the buffer's end) is left to the reader, which
//! then reads it as before. The tests check that the filter's output,
//! rejects, diagnostics and counts are the same with and without the copy.

use crate::lexer::plain::{decimal_at, is_tag_name_byte, plain_hex};
use crate::model::{Outcome, CASTLING};
use crate::redefine::STANDARD_MASK;
use std::ops::Range;
use unicode_normalization::{is_nfc_quick, IsNormalized};

/// The first line of every canonical game.
pub(crate) const VARIANT_LINE: &[u8] = b"[Variant \"C'escacs\"]\n";

/// A canonical game at the start of a buffer.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct CanonicalGame {
    /// Its length in bytes, up to and with the blank line that ends it.
    pub len: usize,
    /// Lines it spans.
    pub lines: u64,
    /// Main-line half-moves.
    pub half_moves: u64,
    /// Where its PDTL value is, if it has one: left for the caller to
    /// check, as that takes the PDTL reader and the passes.
    pub pdtl: Option<Range<usize>>,
}

/// The game at the start of `b`, if it is canonical and is followed, after
/// its blank line, by the next game's Variant line: where a game ends is
/// only known from what follows it (a comment after the result is still
/// the game's), and an input's last game is left to the reader.
pub(crate) fn canonical_game(b: &[u8]) -> Option<CanonicalGame> {
    if !b.starts_with(VARIANT_LINE) {
        return None;
    }
    let mut i = VARIANT_LINE.len();
    let mut lines = 1;
    let mut pdtl = None;
    let mut result_tag = None;
    while b.get(i) == Some(&b'[') {
        let (name, value, end) = tag_line(b, i)?;
        match &b[name] {
            // The writer writes Variant once, first; the passes drop a
            // Redefine; DPTL is reported.
            b"Variant" | b"Redefine" | b"DPTL" => return None,
            b"PDTL" if pdtl.is_some() => return None,
            b"PDTL" => pdtl = Some(value),
            b"Result" => {
                // A value that is no result is kept and not compared.
                result_tag = std::str::from_utf8(&b[value]).ok().and_then(Outcome::parse)
            }
            _ => {}
        }
        i = end;
        lines += 1;
    }
    if b.get(i) != Some(&b'\n') {
        return None;
    }
    i += 1;
    lines += 1;
    let mut half_moves = 0;
    let mut number = 0;
    let mut ended = false;
    while !ended && b.get(i).is_some_and(u8::is_ascii_digit) {
        let (n, after) = move_number(b, i, half_moves == 0)?;
        if n != number + 1 && half_moves > 0 {
            return None;
        }
        number = n;
        i = after;
        let black_only = half_moves == 0 && b[i..].starts_with(b"..., ");
        if black_only {
            i += 5;
        } else {
            (i, ended) = half_move(b, i)?;
            half_moves += 1;
        }
        if !ended {
            if !black_only {
                i = expect(b, i, b", ")?;
            }
            (i, ended) = half_move(b, i)?;
            half_moves += 1;
        }
        i = expect(b, i, b"\n")?;
        lines += 1;
    }
    if half_moves > 0 && !ended {
        // The reader warns that the last move has no end marker.
        return None;
    }
    let (result, end) = result_line(b, i)?;
    if result_tag.is_some_and(|t| t != result) {
        return None;
    }
    i = expect(b, end, b"\n")?;
    lines += 2;
    if !b[i..].starts_with(VARIANT_LINE) {
        return None;
    }
    Some(CanonicalGame {
        len: i,
        lines,
        half_moves,
        pdtl,
    })
}

/// `b[i..]` starts with `s`: where it ends.
#[inline]
fn expect(b: &[u8], i: usize, s: &[u8]) -> Option<usize> {
    b[i..].starts_with(s).then_some(i + s.len())
}

/// A tag line `[Name "value"]` at `i` as the writer writes it (no escape,
/// no control character, NFC): the name's and the value's ranges, and
/// where the line ends (after its newline).
fn tag_line(b: &[u8], i: usize) -> Option<(Range<usize>, Range<usize>, usize)> {
    let name_start = i + 1;
    let mut j = name_start;
    while b.get(j).is_some_and(|&c| is_tag_name_byte(c)) {
        j += 1;
    }
    if j == name_start {
        return None;
    }
    let name = name_start..j;
    let value_start = expect(b, j, b" \"")?;
    j = value_start + memchr::memchr(b'"', &b[value_start..])?;
    let value = &b[value_start..j];
    let end = expect(b, j, b"\"]\n")?;
    // No escape, no control character (nor a line end: the writer writes a
    // tag on one line), all in one sweep the compiler can vectorise.
    if value.iter().fold(false, |bad, &c| {
        bad | (c < b' ') | (c == b'\\') | (c == 0x7F)
    }) {
        return None;
    }
    // The reader writes a value in NFC.
    if !value.is_ascii() {
        let value = std::str::from_utf8(value).ok()?;
        if is_nfc_quick(value.chars()) != IsNormalized::Yes {
            return None;
        }
    }
    Some((name, value_start..j, end))
}

/// `N. ` at `i`, with N from 1 to 99,999 and no leading zero (or, for a
/// game's first move, `N? `: its number is not known): N and where the
/// move begins.
#[inline]
fn move_number(b: &[u8], i: usize, first: bool) -> Option<(u32, usize)> {
    if b[i] == b'0' {
        return None;
    }
    let (n, digits) = decimal_at(b, i, 5)?;
    let j = i + digits;
    if first && b.get(j) == Some(&b'?') {
        return Some((n, expect(b, j + 1, b" ")?));
    }
    Some((n, expect(b, j, b". ")?))
}

/// Bytes of a half-move looked at in one piece, with room to spare: the
/// longest the writer writes is `JA11@@B12=D+∞ (=):`, 20 bytes, and no
/// byte past the 20th is looked at, so reading a window by index needs no
/// bounds check.
const WINDOW: usize = 32;

type Window = [u8; WINDOW];

/// The byte at `k` of a window (`k < WINDOW`, see there): the `%` lets
/// the compiler drop the bounds check; the assertion checks, in tests,
/// that it changes nothing.
#[inline(always)]
fn at(w: &Window, k: usize) -> u8 {
    debug_assert!(k < WINDOW);
    w[k % WINDOW]
}

/// The three bytes at `k` of a window are `s`.
#[inline(always)]
fn three_at(w: &Window, k: usize, s: &[u8]) -> bool {
    at(w, k) == s[0] && at(w, k + 1) == s[1] && at(w, k + 2) == s[2]
}

/// A letter the writer writes for a piece: a standard letter but the
/// pawn's, which is never written.
#[inline(always)]
fn is_written_piece(c: u8) -> bool {
    const WRITTEN: u32 = STANDARD_MASK & !(1 << (b'P' - b'A'));
    let i = c.wrapping_sub(b'A');
    i < 26 && WRITTEN & (1 << i) != 0
}

/// A piece letter at `k`, told from a hex's column by the letter after it.
#[inline(always)]
fn piece_at(w: &Window, k: usize) -> bool {
    is_written_piece(at(w, k)) & at(w, k + 1).is_ascii_uppercase()
}

/// A half-move at `i` as the writer writes it (with its check, draw offer
/// and end marker): where it ends, and whether it ends the game (`:` or
/// mate).
#[inline]
fn half_move(b: &[u8], i: usize) -> Option<(usize, bool)> {
    let (n, ended) = match b.get(i..i + WINDOW) {
        Some(w) => half_move_in(w.try_into().expect("a window's length")),
        None => {
            // Near the buffer's end, zeros stand for what lies past it.
            let mut w = [0; WINDOW];
            w[..b.len() - i].copy_from_slice(&b[i..]);
            half_move_in(&w)
        }
    }?;
    Some((i + n, ended))
}

/// [`half_move`] at the start of a window.
#[inline(always)]
fn half_move_in(w: &Window) -> Option<(usize, bool)> {
    let mut i = action(w)?;
    let c = at(w, i);
    let mate = c == b'#';
    i += usize::from(mate);
    if c == b'+' {
        i += match at(w, i + 1) {
            b'+' | b'^' => 2,
            0xE2 if three_at(w, i + 1, "∞".as_bytes()) => 4,
            _ => 1,
        };
    }
    // A draw offer, then the end marker.
    if at(w, i) == b' ' && three_at(w, i + 1, b"(=)") {
        i += 4;
    }
    let marked = at(w, i) == b':';
    Some((i + usize::from(marked), mate | marked))
}

/// What a half-move does, before its check: a move, a castling or a forced
/// promotion. Where it ends.
#[inline(always)]
fn action(w: &Window) -> Option<usize> {
    if w[0] == b'K' && w[1] == b'R' {
        if let Some(end) = castling(w) {
            return Some(end);
        }
    }
    let piece = piece_at(w, 0);
    let mut i = usize::from(piece);
    let (from, n) = plain_hex(w, i)?;
    i += n;
    let sep = at(w, i);
    if !matches!(sep, b'-' | b'*' | b'@') {
        // A forced promotion names its piece.
        return (sep == b'=' && !piece && at(w, i + 1) != b'&')
            .then(|| promotion(w, i))
            .flatten();
    }
    i += 1 + usize::from(sep == b'@' && at(w, i + 1) == b'@');
    i += usize::from(sep == b'*' && piece_at(w, i));
    let (to, n) = plain_hex(w, i)?;
    i += n;
    if to == from {
        return None;
    }
    if at(w, i) == b'=' {
        return promotion(w, i);
    }
    Some(i)
}

/// `=X` at `k`, X a piece a pawn promotes to, or `&` for a pawn that
/// awaits promotion: where it ends.
#[inline(always)]
fn promotion(w: &Window, k: usize) -> Option<usize> {
    let c = at(w, k + 1);
    (c == b'&' || (is_written_piece(c) && c != b'K')).then_some(k + 2)
}

/// A castling at the start of a window (`KRK-II`, `KRR-HGG`, ...): where
/// it ends.
fn castling(w: &Window) -> Option<usize> {
    let (_, targets) = CASTLING.iter().find(|(p, _)| p[..] == w[..3])?;
    if w[3] != b'-' {
        return None;
    }
    // No target is as long as the window; a longer word is none of them.
    let n = w[4..]
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    let written = &w[4..4 + n];
    targets
        .iter()
        .any(|t| t.as_bytes() == written)
        .then_some(4 + n)
}

/// A result line at `i`: the result, and where the line ends.
fn result_line(b: &[u8], i: usize) -> Option<(Outcome, usize)> {
    let line = &b[i..];
    let n = memchr::memchr(b'\n', line.get(..4)?)?;
    let result = std::str::from_utf8(&line[..n])
        .ok()
        .and_then(Outcome::parse)?;
    // Outcome::parse reads any dash; the writer writes `-`.
    (result.as_str().as_bytes() == &line[..n]).then_some((result, i + n + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::plain::test_corpus as corpus;
    use crate::{Diagnostic, Filter, FilterBuilder, Report};

    /// What the filter makes of `input` (output, rejected games,
    /// diagnostics, counts): with the copy of canonical games, and without.
    fn both_ways(input: &[u8]) -> [(String, String, Vec<Diagnostic>, Report); 2] {
        both_ways_with(input, FilterBuilder::new)
    }

    fn both_ways_with(
        input: &[u8],
        builder: impl Fn() -> FilterBuilder,
    ) -> [(String, String, Vec<Diagnostic>, Report); 2] {
        [true, false].map(|copy| {
            let mut filter = Filter {
                copy_canonical: copy,
                ..builder().build()
            };
            let (mut out, mut rejects, mut diagnostics) = (Vec::new(), Vec::new(), Vec::new());
            let report = filter
                .run_with_rejects(input, &mut out, Some(&mut rejects), &mut |d| {
                    diagnostics.push(d.clone())
                })
                .unwrap();
            let text = |v: Vec<u8>| String::from_utf8_lossy(&v).into_owned();
            (text(out), text(rejects), diagnostics, report)
        })
    }

    /// Games of `input` that start a line with the Variant tag and are canonical.
    fn canonical_count(input: &[u8]) -> usize {
        memchr::memmem::find_iter(input, VARIANT_LINE)
            .filter(|&i| canonical_game(&input[i..]).is_some())
            .count()
    }

    #[test]
    fn copying_canonical_games_changes_nothing() {
        let ascii = corpus::generate_vec(300_000, 11, true);
        let mixed = corpus::generate_vec(300_000, 12, false);
        let filtered = Filter::default().filter_bytes(&mixed).0;
        let mut expected = Vec::new();
        for entry in std::fs::read_dir("tests/real-games-expected").unwrap() {
            expected.extend(std::fs::read(entry.unwrap().path()).unwrap());
        }
        for input in [ascii, mixed, filtered, expected] {
            let [copied, read] = both_ways(&input);
            assert_eq!(copied, read);
        }
    }

    #[test]
    fn copying_canonical_games_changes_nothing_whatever_the_options() {
        let mixed = corpus::generate_vec(200_000, 15, false);
        let filtered = Filter::default().filter_bytes(&mixed).0;
        let kept = FilterBuilder::new()
            .keep_comments(true)
            .keep_variations(true)
            .keep_ratings(true)
            .build()
            .filter_bytes(&mixed)
            .0;
        let options: [fn() -> FilterBuilder; 4] = [
            || FilterBuilder::new().keep_comments(true),
            || FilterBuilder::new().keep_variations(true),
            || FilterBuilder::new().keep_ratings(true),
            || FilterBuilder::new().strict(true).fail_fast(true),
        ];
        for builder in options {
            for input in [&mixed, &filtered, &kept] {
                let [copied, read] = both_ways_with(input, builder);
                assert_eq!(copied, read);
            }
        }
    }

    #[test]
    fn filtered_output_is_copied_whole() {
        let mixed = corpus::generate_vec(300_000, 13, false);
        let filtered = Filter::default().filter_bytes(&mixed).0;
        let games = memchr::memmem::find_iter(&filtered, VARIANT_LINE).count();
        // All but the last, which no next game closes.
        assert_eq!(canonical_count(&filtered), games - 1);
    }

    /// A small seeded generator (xorshift), so that failures repeat.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    #[test]
    fn a_canonical_game_changed_anywhere_reads_the_same_with_or_without_the_copy() {
        // Filtered output has every canonical shape: `(=)`, `+∞`, `N?`, NFC tags.
        let base = Filter::default()
            .filter_bytes(&corpus::generate_vec(200_000, 14, false))
            .0;
        let starts: Vec<usize> = memchr::memmem::find_iter(&base, VARIANT_LINE).collect();
        let alphabet: &[&[u8]] = &[
            b"0",
            b"1",
            b"2",
            b"9",
            b"-",
            b"*",
            b"@",
            b"=",
            b"&",
            b"+",
            b"^",
            b"#",
            b":",
            b",",
            b" ",
            b".",
            b"\n",
            b"[",
            b"]",
            b"\"",
            b"\\",
            b"K",
            b"R",
            b"P",
            b"E",
            b"D",
            b"J",
            b"T",
            b"Z",
            b"X",
            b"!",
            b"?",
            b"{",
            b"}",
            b"(",
            b")",
            b"$",
            b"x",
            "\u{d7}".as_bytes(),
            "\u{2010}".as_bytes(),
            "\u{221e}".as_bytes(),
            "\u{fc}".as_bytes(),
            "u\u{308}".as_bytes(),
            b"\t",
            b"\r",
            b"...",
            b"...,",
        ];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut still_canonical = 0;
        for round in 0..4000 {
            // Three games; the first or second is changed.
            let g = rng.below(starts.len() - 3);
            let mut input = base[starts[g]..starts[g + 3]].to_vec();
            let len = starts[g + 2] - starts[g];
            for _ in 0..1 + rng.below(2) {
                let at = rng.below(len);
                let with = alphabet[rng.below(alphabet.len())];
                match rng.below(3) {
                    0 => drop(input.splice(at..at + 1, with.iter().copied())),
                    1 => drop(input.splice(at..at, with.iter().copied())),
                    _ => drop(input.remove(at)),
                }
            }
            still_canonical += usize::from(canonical_count(&input) > 0);
            // Every other time, stopping at the first rejected game.
            let [copied, read] =
                both_ways_with(&input, || FilterBuilder::new().fail_fast(round % 2 == 0));
            assert_eq!(copied, read, "{}", String::from_utf8_lossy(&input));
        }
        // Changes that keep a game canonical are tried too.
        assert!(still_canonical > 1000, "{still_canonical}");
    }

    fn game(text: &str) -> Option<CanonicalGame> {
        canonical_game(format!("{text}{}", "[Variant \"C'escacs\"]\n").as_bytes())
    }

    #[test]
    fn a_filtered_game_is_canonical() {
        let g = "[Variant \"C'escacs\"]\n[Result \"3-0\"]\n\n1. E7-E13, E21-E15\n2. DE13*JF16#\n3-0\n\n";
        assert_eq!(
            game(g),
            Some(CanonicalGame {
                len: g.len(),
                lines: 7,
                half_moves: 3,
                pdtl: None,
            })
        );
    }

    #[test]
    fn a_game_is_known_to_end_only_by_the_next_game() {
        let g = b"[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n\n";
        assert!(canonical_game(g).is_none());
        assert!(canonical_game(&[&g[..], b"{ a comment }\n"].concat()).is_none());
    }

    #[test]
    fn what_the_writer_writes_otherwise_is_not_canonical() {
        for g in [
            "[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n", // no blank line
            "[Variant \"C'escacs\"]\n\n1. E7‐E13:\n*\n\n", // Unicode dash
            "[Variant \"C'escacs\"]\n\n1. E7-E13 !:\n*\n\n", // rating
            "[Variant \"C'escacs\"]\n\n1. PE7-E13:\n*\n\n", // pawn letter
            "[Variant \"C'escacs\"]\n\n1. E7-E13^+:\n*\n\n", // old check mark
            "[Variant \"C'escacs\"]\n\n1. E07-E13:\n*\n\n", // leading zero
            "[Variant \"C'escacs\"]\n[Redefine \"FAN\"]\n\n1. E7-E13:\n*\n\n",
            "[Variant \"C'escacs\"]\n[Result \"3-0\"]\n\n1. E7-E13:\n*\n\n",
        ] {
            assert!(game(g).is_none(), "{g}");
        }
    }

    #[test]
    fn the_last_move_needs_its_end_marker() {
        assert!(game("[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15\n*\n\n").is_none());
        assert!(game("[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15:\n*\n\n").is_some());
    }

    #[test]
    fn a_game_may_start_with_blacks_move() {
        let g = "[Variant \"C'escacs\"]\n\n12. ..., E21-E15\n13. E7-E13:\n*\n\n";
        assert_eq!(game(g).map(|g| g.half_moves), Some(2));
        assert!(game("[Variant \"C'escacs\"]\n\n12. E7-E13\n13. ..., E21-E15:\n*\n\n").is_none());
    }
}
