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
//!
//! Move lines, most of a game, are read by a DFA that `build.rs` builds from
//! their grammar; what a DFA cannot see (numbers that follow each other, a
//! move to its own hex) is checked beside it.

use crate::lexer::plain::{decimal_at, is_tag_name_byte};
use crate::model::Outcome;
use std::ops::Range;
use unicode_normalization::{is_nfc_quick, IsNormalized};

// The move-line DFA, written by `build.rs`: `CLASSES`, the class of each
// byte; `NEXT[state + class]`, the next state, states as the offsets of
// their rows of `STRIDE` classes, 0 the start; `ACCEPTS[state / STRIDE]`,
// the patterns matched when the bytes end there, one bit each.
include!(concat!(env!("OUT_DIR"), "/move_lines.rs"));

/// Bits of `ACCEPTS`: the move lines read go on to another line, or end
/// the game (the patterns of `build.rs`, in order).
const GOES_ON: u8 = 1;
const ENDS: u8 = 2;

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
    i = expect(b, i, b"\n")?;
    lines += 1;
    let (moves, result_start) = move_lines(b, i)?;
    let (result, end) = result_line(b, result_start)?;
    if result_tag.is_some_and(|t| t != result) {
        return None;
    }
    i = expect(b, end, b"\n")?;
    lines += moves.lines + 2;
    if !b[i..].starts_with(VARIANT_LINE) {
        return None;
    }
    Some(CanonicalGame {
        len: i,
        lines,
        half_moves: moves.half_moves,
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

/// What a game's move lines hold.
struct MoveLines {
    lines: u64,
    half_moves: u64,
}

/// The move lines at `i`, up to the result line (the last line before the
/// blank line that ends the game): what they hold and where the result
/// line starts, if they are canonical (none at all are).
fn move_lines(b: &[u8], i: usize) -> Option<(MoveLines, usize)> {
    let mut start = i;
    let mut number = 0;
    let mut black_only = false;
    for (lines, end) in memchr::memchr_iter(b'\n', &b[i..]).enumerate() {
        let end = i + end;
        if b.get(end + 1) == Some(&b'\n') {
            let lines = lines as u64;
            if lines == 0 {
                return Some((
                    MoveLines {
                        lines,
                        half_moves: 0,
                    },
                    start,
                ));
            }
            if !reads_as_moves(&b[i..start]) || moves_to_own_hex(b, i..start) {
                return None;
            }
            // Two half-moves a line, but where the first line is Black's
            // alone, or the last White's alone.
            let last = memchr::memrchr(b'\n', &b[i..start - 1]).map_or(i, |n| i + n + 1);
            let white_alone = memchr::memchr(b',', &b[last..start]).is_none();
            let half_moves = 2 * lines - u64::from(black_only) - u64::from(white_alone);
            return Some((MoveLines { lines, half_moves }, start));
        }
        // A line's number follows the line before's; the first's is any.
        // (A line with none, even a blank one, is no move line.)
        let (n, digits) = decimal_at(b, start, 5)?;
        if digits == 0 || (lines > 0 && n != number + 1) {
            return None;
        }
        if lines == 0 {
            black_only = b.get(start + digits + 2) == Some(&b'.');
        }
        number = n;
        start = end + 1;
    }
    None
}

/// Does a move in the move lines `b[lines]`, which the DFA read, go to the
/// hex it comes from? At each separator (`-`, `*`, `@` after a line's
/// digit) the hex before it is compared with the hex after it (past a
/// second `@` or a captured piece's letter): the writer writes a hex one
/// way only, so the same text is the same hex. A sweep over every position
/// with no branch, sixteen at a time, which the compiler vectorises:
/// visiting each separator instead costs several times as much.
fn moves_to_own_hex(b: &[u8], lines: Range<usize>) -> bool {
    // What the blocks read: from 3 bytes before the lines (the tags' blank
    // line) to the first after them (the result line's), zeros past that.
    let bytes = &b[lines.start - 3..=lines.end];
    let mut found = 0;
    for at in (0..lines.len()).step_by(LANES) {
        let rest = &bytes[at..];
        found |= match rest.get(..BLOCK) {
            Some(block) => own_hex_in(block.try_into().expect("a block's length")),
            None => {
                let mut block = [0; BLOCK];
                block[..rest.len()].copy_from_slice(rest);
                own_hex_in(&block)
            }
        };
    }
    found != 0
}

/// Positions [`own_hex_in`] looks at at once.
const LANES: usize = 16;
/// The bytes it reads for them: 3 before and 4 after.
const BLOCK: usize = LANES + 7;

/// Is a separator at one of the positions 3 to 18 of `w` between two
/// writings of the same hex (see [`moves_to_own_hex`])? 1 or 0.
#[inline(always)]
fn own_hex_in(w: &[u8; BLOCK]) -> u8 {
    // Truths as 0 or 1 in a byte: no branch.
    let digit = |c: u8| u8::from(c.wrapping_sub(b'0') < 10);
    let upper = |c: u8| u8::from(c.wrapping_sub(b'A') < 26);
    let eq = |a: u8, c: u8| u8::from(a == c);
    let mut found = 0;
    for j in 0..LANES {
        let [x0, x1, x2, c, y1, y2, y3, y4] = [0, 1, 2, 3, 4, 5, 6, 7].map(|d| w[j + d]);
        let is_sep = (eq(c, b'-') | eq(c, b'*') | eq(c, b'@')) & digit(x2);
        // A three-byte hex before; the target past `@@` or a piece letter.
        let three = digit(x1);
        let far = (eq(c, b'@') & eq(y1, b'@')) | (eq(c, b'*') & upper(y2));
        let near_same = (three & eq(x0, y1) & eq(x1, y2) & eq(x2, y3))
            | ((three ^ 1) & eq(x1, y1) & eq(x2, y2) & (digit(y3) ^ 1));
        let far_same = (three & eq(x0, y2) & eq(x1, y3) & eq(x2, y4))
            | ((three ^ 1) & eq(x1, y2) & eq(x2, y3) & (digit(y4) ^ 1));
        found |= is_sep & ((far & far_same) | ((far ^ 1) & near_same));
    }
    found
}

/// Does the DFA read `text` (whole move lines) as a game's moves, ending
/// it? Read in four parts side by side, cut at line ends: each byte's step
/// waits on the step before, so four chains of loads overlap where one
/// would wait. A part after the first is read from the newline before it,
/// which tells the DFA it is no game's first line.
fn reads_as_moves(text: &[u8]) -> bool {
    let mut cuts = [text.len(); 5];
    cuts[0] = 0;
    for k in 1..4 {
        let aim = (text.len() * k / 4).max(cuts[k - 1]);
        cuts[k] = memchr::memchr(b'\n', &text[aim..]).map_or(text.len(), |n| aim + n + 1);
    }
    let parts: [&[u8]; 4] = std::array::from_fn(|k| match k {
        0 => &text[..cuts[1]],
        _ if cuts[k] == cuts[k + 1] => &[],
        _ => &text[cuts[k] - 1..cuts[k + 1]],
    });
    let common = parts.iter().map(|p| p.len()).min().unwrap_or(0);
    let mut s = [0; 4];
    for (((&a, &b), &c), &d) in parts[0][..common]
        .iter()
        .zip(&parts[1][..common])
        .zip(&parts[2][..common])
        .zip(&parts[3][..common])
    {
        s = [step(s[0], a), step(s[1], b), step(s[2], c), step(s[3], d)];
    }
    (0..4).all(|k| {
        let state = parts[k][common..].iter().fold(s[k], |s, &c| step(s, c));
        let wanted = if cuts[k + 1] == text.len() {
            ENDS
        } else {
            GOES_ON
        };
        parts[k].is_empty() || ACCEPTS[state / STRIDE] & wanted != 0
    })
}

/// The DFA's state after `byte`.
#[inline(always)]
fn step(state: usize, byte: u8) -> usize {
    usize::from(NEXT[state + usize::from(CLASSES[usize::from(byte)])])
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

    /// [`game`] of these move lines (each ending with a newline) and `*`.
    fn moves_game(lines: &str) -> Option<CanonicalGame> {
        game(&format!("[Variant \"C'escacs\"]\n\n{lines}*\n\n"))
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
    fn a_move_to_its_own_hex_is_not_canonical() {
        for moves in [
            "1. E5-E5:",
            "1. E7-E13, DE15*JE15:",
            "1. E7-E13, GE21*E21:",
            "1. E7-E13, E21@@E21:",
            "1. E7-E13, E21-E15\n2. DF10@F10, E15-E17:",
            "1. ..., E21-E15\n2. E7-E13, E15-E15:",
        ] {
            assert!(moves_game(&format!("{moves}\n")).is_none(), "{moves}");
        }
        // Hexes alike but for a digit.
        for moves in [
            "1. E15-E1:",
            "1. E1-E15:",
            "1. E7-E13, E21@@E23:",
            "1. ..., DE15*JE17:",
        ] {
            assert!(moves_game(&format!("{moves}\n")).is_some(), "{moves}");
        }
    }

    #[test]
    fn every_hex_on_the_board_and_no_other_is_read_as_one() {
        for column in b'A'..=b'Z' {
            for line in 0..=30 {
                let hex = format!("{}{line}", char::from(column));
                let on_board = crate::Hex::new(column, line).is_ok();
                // Away from a hex of its own.
                let other = if hex == "I11" { "I13" } else { "I11" };
                for moves in [format!("{hex}-{other}"), format!("{other}*{hex}")] {
                    let read = moves_game(&format!("1. {moves}:\n")).is_some();
                    assert_eq!(read, on_board, "{moves}");
                }
            }
        }
    }

    #[test]
    fn games_of_every_length_read_alike() {
        // Short games leave some of the parts read side by side empty.
        for n in 1..=14u64 {
            let lines: Vec<String> = (1..=n)
                .map(|k| match k == n {
                    true => format!("{k}. E7-E13:\n"),
                    false => format!("{k}. E7-E13, E21-E15\n"),
                })
                .collect();
            let read = moves_game(&lines.concat()).map(|g| (g.lines, g.half_moves));
            assert_eq!(read, Some((n + 4, 2 * n - 1)), "{n} lines");
            for k in 0..n as usize - 1 {
                // An end marker before the last line, or a number out of turn.
                let mut early = lines.clone();
                early[k] = early[k].replace('\n', ":\n");
                assert!(
                    moves_game(&early.concat()).is_none(),
                    "{n} lines, ended at {k}"
                );
                let mut skipped = lines.clone();
                skipped[k + 1] =
                    skipped[k + 1].replacen(&format!("{}.", k + 2), &format!("{}.", k + 3), 1);
                assert!(
                    moves_game(&skipped.concat()).is_none(),
                    "{n} lines, {k} skipped"
                );
            }
        }
    }

    #[test]
    fn a_game_may_start_with_blacks_move() {
        let g = "[Variant \"C'escacs\"]\n\n12. ..., E21-E15\n13. E7-E13:\n*\n\n";
        assert_eq!(game(g).map(|g| g.half_moves), Some(2));
        assert!(game("[Variant \"C'escacs\"]\n\n12. E7-E13\n13. ..., E21-E15:\n*\n\n").is_none());
    }
}
