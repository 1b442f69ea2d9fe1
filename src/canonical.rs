//! Games that are canonical already: input the filter would write back byte
//! for byte, with nothing to report. The reader copies a run of such games
//! whole instead of reading them token by token (see
//! `Reader::copy_canonical`), so filtered output runs through the filter
//! again several times faster.
//!
//! [`canonical_games`] recognises the writer's own layout only, which is far
//! narrower than what the reader accepts: one way to write each thing,
//! nothing to drop. Anything else (a Unicode dash, a comment, a rating, a
//! `Redefine`, a game cut by the buffer's end) is left to the reader, which
//! then reads it as before. The tests check that the filter's output,
//! rejects, diagnostics and counts are the same with and without the copy.
//!
//! A run is checked in three sweeps. The first walks its lines: where each
//! game starts and ends, its tags, that its move numbers follow each other.
//! The second reads every byte of the run with a DFA that `build.rs` builds
//! from the games' grammar, in several parts side by side. The third finds
//! a move to its own hex, which a DFA cannot see.

use crate::filter::Report;
use crate::lexer::plain::decimal_at;
use crate::model::Outcome;
use crate::pdtl;
use crate::simd::{eq_mask, Width};
use std::ops::Range;
use unicode_normalization::{is_nfc_quick, IsNormalized};

// The game DFA, written by `build.rs`: `NEXT[byte][state]`, the next
// state, one byte, 0 the start (and the end of each game), so that a step
// is one load and needs no bounds check; `ACCEPTS[state]`, whether the
// bytes read so far are whole games.
include!(concat!(env!("OUT_DIR"), "/games.rs"));

/// The first line of every canonical game.
pub(crate) const VARIANT_LINE: &[u8] = b"[Variant \"C'escacs\"]\n";

/// Canonical games one after the other at the start of a buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CanonicalRun {
    /// Games in the run.
    pub games: u64,
    /// Its length in bytes, up to and with the last game's blank line.
    pub len: usize,
    /// Lines it spans.
    pub lines: u64,
    /// Main-line half-moves.
    pub half_moves: u64,
}

impl CanonicalRun {
    /// The counts of the run's games, written as they stand or as the
    /// express path translated them: read, written, their half-moves.
    pub(crate) fn report(&self) -> Report {
        Report {
            games_read: self.games,
            games_written: self.games,
            half_moves: self.half_moves,
            ..Report::default()
        }
    }
}

/// Where the parts of one game lie in a text of games laid out as the
/// writer lays them out: what the line sweep finds, or what the express
/// path wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GameText {
    /// Where it ends (after its blank line).
    pub end: usize,
    /// Lines of input it comes from.
    pub lines: u64,
    /// Main-line half-moves.
    pub half_moves: u64,
    /// Its move lines (from the first's start to the last's newline).
    pub moves: Range<usize>,
    /// Its PDTL value, if it has one.
    pub pdtl: Option<Range<usize>>,
}

/// Buffers kept from run to run.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    games: Vec<GameText>,
}

/// At most this many bytes of games are checked at once: a game that is
/// not canonical costs the check of the games after it in the same run.
pub(crate) const RUN_BYTES: usize = 1 << 18;

/// The canonical games at the start of `b`, as many as follow each other
/// (while they add up to [`RUN_BYTES`] at most, and at least one game if
/// it is canonical). A game counts only if the next game's Variant line
/// follows it, or the end of `b` when `ends_game` says that `b` ends
/// where a game does: where a game ends is only known from what follows
/// it (a comment after the result is still the game's).
pub(crate) fn canonical_games(b: &[u8], ends_game: bool, scratch: &mut Scratch) -> CanonicalRun {
    let games = &mut scratch.games;
    games.clear();
    let mut at = 0;
    while at < b.len() && (games.is_empty() || at <= RUN_BYTES) {
        match skeleton(b, at, ends_game) {
            Some(g) => {
                at = g.end;
                games.push(g);
            }
            None => break,
        }
    }
    checked_games(b, games)
}

/// The games of `games`, which lie one after the other from the start of
/// `b`, that read as canonical games, from the first on: what the DFA,
/// the own-hex sweep and the PDTL check accept. What the line sweep
/// checks (see [`skeleton`]) the caller has made sure of.
pub(crate) fn checked_games(b: &[u8], games: &[GameText]) -> CanonicalRun {
    if games.is_empty() {
        return CanonicalRun::default();
    }
    // Each later check keeps the games before the first it fails.
    let mut n = first_unread(b, games);
    if let Some(first) = games[..n].first() {
        let last = &games[n - 1];
        let sweep = first.moves.start..last.moves.end.max(first.moves.start);
        if moves_to_own_hex(b, sweep) {
            n = games[..n]
                .iter()
                .position(|g| moves_to_own_hex(b, g.moves.clone()))
                .unwrap_or(n);
        }
    }
    n = games[..n]
        .iter()
        .position(|g| g.pdtl.clone().is_some_and(|v| !pdtl::is_canonical(&b[v])))
        .unwrap_or(n);
    let mut run = CanonicalRun::default();
    for g in &games[..n] {
        run.games += 1;
        run.len = g.end;
        run.lines += g.lines;
        run.half_moves += g.half_moves;
    }
    run
}

/// The game at `i` (which starts with [`VARIANT_LINE`] if it is one), as
/// far as its lines show: one Variant tag, first, no Redefine or DPTL, at
/// most one PDTL, values in NFC, a blank line, move lines numbered in turn
/// as the writer numbers them, a result line that agrees with the Result
/// tag, a blank line, and the next game (or the end of `b`, with
/// `ends_game`). The DFA reads the rest.
pub(crate) fn skeleton(b: &[u8], i: usize, ends_game: bool) -> Option<GameText> {
    if !b[i..].starts_with(VARIANT_LINE) {
        return None;
    }
    let mut lines = 1;
    let mut pdtl = None;
    let mut result_tag = None;
    let mut line = i + VARIANT_LINE.len();
    let mut ends = LineEnds::new(b, line);
    // Tag lines, up to the blank line.
    loop {
        let end = ends.next()?;
        lines += 1;
        if end == line {
            line += 1;
            break;
        }
        let tag = &b[line..end];
        // `[Name "value"]`, as the DFA will see; a few names matter.
        let value = |name: usize| b.get(line + name + 3..end - 2);
        let head = word(b, line);
        if head == TAG_VARIANT
            || head & MASK_7 == TAG_PDTL
            || head & MASK_7 == TAG_DPTL
            || head == TAG_REDEFINE
        {
            // The writer writes Variant once, first; the passes drop a
            // Redefine; DPTL is reported.
            if head & MASK_7 != TAG_PDTL || pdtl.is_some() {
                return None;
            }
            pdtl = Some(line + 7..end - 2);
        } else if head == TAG_RESULT {
            // A value that is no result is kept and not compared.
            result_tag = value(6)
                .and_then(|v| std::str::from_utf8(v).ok())
                .and_then(Outcome::parse);
        }
        if !tag.is_ascii()
            && !std::str::from_utf8(tag).is_ok_and(|t| is_nfc_quick(t.chars()) == IsNormalized::Yes)
        {
            return None;
        }
        line = end + 1;
    }
    let first = line;
    let mut number = 0;
    for (move_lines, end) in ends.enumerate() {
        let move_lines = move_lines as u64;
        if b.get(end + 1) == Some(&b'\n') {
            // The result line, then the game's blank line.
            let result = result_line(&b[line..end])?;
            if result_tag.is_some_and(|t| t != result) {
                return None;
            }
            let game_end = end + 2;
            if !(b[game_end..].starts_with(VARIANT_LINE) || ends_game && game_end == b.len()) {
                return None;
            }
            // Two half-moves a line, but where the first line is Black's
            // alone, or the last White's alone.
            let half_moves = if move_lines == 0 {
                0
            } else {
                let (_, digits) = decimal_at(b, first, 5)?;
                let black_only = b.get(first + digits + 2) == Some(&b'.');
                let last =
                    memchr::memrchr(b'\n', &b[first..line - 1]).map_or(first, |n| first + n + 1);
                let white_alone = memchr::memchr(b',', &b[last..line]).is_none();
                2 * move_lines - u64::from(black_only) - u64::from(white_alone)
            };
            return Some(GameText {
                end: game_end,
                lines: lines + move_lines + 2,
                half_moves,
                moves: first..line,
                pdtl,
            });
        }
        // A line's number, with no leading zero and five digits at most,
        // follows the line before's; the first's is any. (A line with
        // none, even a blank one, is no move line.)
        number = match NUMBER_TEXTS.get(number as usize + 1) {
            Some(&(text, mask)) if move_lines > 0 => {
                if word(b, line) & mask != text {
                    return None;
                }
                number + 1
            }
            _ => {
                let (n, digits) = decimal_at(b, line, 5)?;
                if digits == 0 || b[line] == b'0' || (move_lines > 0 && n != number + 1) {
                    return None;
                }
                n
            }
        };
        line = end + 1;
    }
    None
}

/// The first eight bytes at `i` as a little-endian word (zeros past the
/// end of `b`).
#[inline]
pub(crate) fn word(b: &[u8], i: usize) -> u64 {
    match b.get(i..i + 8) {
        Some(w) => u64::from_le_bytes(w.try_into().expect("eight bytes")),
        None => {
            let mut w = [0; 8];
            let rest = b.get(i..).unwrap_or(&[]);
            w[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(w)
        }
    }
}

/// The first bytes of the tag lines whose names the skeleton looks for.
const TAG_VARIANT: u64 = u64::from_le_bytes(*b"[Variant");
const TAG_REDEFINE: u64 = u64::from_le_bytes(*b"[Redefin");
const TAG_RESULT: u64 = u64::from_le_bytes(*b"[Result ");
const TAG_PDTL: u64 = u64::from_le_bytes(*b"[PDTL \"\0");
const TAG_DPTL: u64 = u64::from_le_bytes(*b"[DPTL \"\0");
const MASK_7: u64 = (1 << 56) - 1;

/// Move numbers below 1000 as the writer writes them with what follows
/// (`12. `), in the low bytes of a word, and the mask of those bytes: one
/// compare checks a line's number.
pub(crate) static NUMBER_TEXTS: [(u64, u64); 1000] = {
    let mut t = [(0, 0); 1000];
    let mut n = 1;
    while n < 1000 {
        let digits = if n < 10 {
            1
        } else if n < 100 {
            2
        } else {
            3
        };
        let mut text = 0u64;
        let mut v = n;
        let mut k = digits;
        while k > 0 {
            k -= 1;
            text |= ((b'0' + (v % 10) as u8) as u64) << (8 * k);
            v /= 10;
        }
        text |= (b'.' as u64) << (8 * digits) | (b' ' as u64) << (8 * (digits + 1));
        t[n] = (text, (1 << (8 * (digits + 2))) - 1);
        n += 1;
    }
    t
};

/// The line ends of `b` from `i` on, found 64 bytes at a time: lines are
/// short, and a call of `memchr` for each costs more than its search.
struct LineEnds<'a> {
    b: &'a [u8],
    /// Start of the block `mask` covers.
    block: usize,
    /// Its newlines not yet returned, one bit each.
    mask: u64,
}

impl<'a> LineEnds<'a> {
    fn new(b: &'a [u8], i: usize) -> LineEnds<'a> {
        LineEnds {
            b,
            block: i,
            mask: newlines(b, i),
        }
    }
}

impl Iterator for LineEnds<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            self.block += 64;
            if self.block >= self.b.len() {
                return None;
            }
            self.mask = newlines(self.b, self.block);
        }
        let k = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(self.block + k)
    }
}

/// The newlines among the 64 bytes of `b` from `at`, bit `k` for byte
/// `at + k` (none past the end of `b`).
#[inline]
fn newlines(b: &[u8], at: usize) -> u64 {
    match b.get(at..at + 64) {
        Some(block) => eq_mask(block.try_into().expect("64 bytes"), b'\n'),
        None => {
            let mut block = [0; 64];
            let rest = b.get(at..).unwrap_or(&[]);
            block[..rest.len()].copy_from_slice(rest);
            eq_mask(&block, b'\n')
        }
    }
}

/// How many of `games` (a run from the start of `b`) the DFA reads as
/// games, from the first on: all, or up to the first it does not.
fn first_unread(b: &[u8], games: &[GameText]) -> usize {
    // The run is read in parts side by side, each a run of whole games:
    // each byte's step waits on the step before, so several chains of
    // loads overlap where one would wait.
    const PARTS: usize = 6;
    let end = games.last().map_or(0, |g| g.end);
    let mut cuts = [0usize; PARTS + 1];
    let mut g = 0;
    for k in 1..PARTS {
        let aim = end * k / PARTS;
        while g < games.len() && games[g].end <= aim {
            g += 1;
        }
        cuts[k] = if g == 0 { 0 } else { games[g - 1].end }.max(cuts[k - 1]);
    }
    cuts[PARTS] = end;
    let parts: [&[u8]; PARTS] = std::array::from_fn(|k| &b[cuts[k]..cuts[k + 1]]);
    if read_side_by_side(parts).iter().all(|&s| ACCEPTS[s]) {
        return games.len();
    }
    // Some part was not games: which game is the first not read?
    let mut start = 0;
    games
        .iter()
        .position(|g| {
            let state = b[start..g.end].iter().fold(0, |s, &c| step(s, c));
            start = g.end;
            !ACCEPTS[state]
        })
        .unwrap_or(games.len())
}

/// The DFA's states after reading each part from the start state; the
/// parts are read side by side as long as they all last.
fn read_side_by_side<const N: usize>(parts: [&[u8]; N]) -> [usize; N] {
    let common = parts.iter().map(|p| p.len()).min().unwrap_or(0);
    // Cut to one length, so that the loop's indexes need no checks.
    let heads = parts.map(|p| &p[..common]);
    let mut s = [0usize; N];
    // One index for all parts: they are read in lockstep.
    #[allow(clippy::needless_range_loop)]
    for i in 0..common {
        for k in 0..N {
            s[k] = step(s[k], heads[k][i]);
        }
    }
    std::array::from_fn(|k| parts[k][common..].iter().fold(s[k], |s, &c| step(s, c)))
}

/// The DFA's state after `byte`. (A state is held as `usize`, which spares
/// each step a widening; the mask, which the compiler sees holds, spares
/// it a bounds check.)
#[inline(always)]
fn step(state: usize, byte: u8) -> usize {
    usize::from(NEXT[usize::from(byte)][state & 0xFF])
}

/// Does a move in the move lines `b[lines]`, which the DFA read, go to the
/// hex it comes from? At each separator (`-`, `*`, `@` after a line's
/// digit) the hex before it is compared with the hex after it (past a
/// second `@` or a captured piece's letter): the writer writes a hex one
/// way only, so the same text is the same hex. A sweep over every position
/// with no branch, as many at a time as the CPU's vectors hold: visiting
/// each separator instead costs several times as much.
fn moves_to_own_hex(b: &[u8], lines: Range<usize>) -> bool {
    // What the sweep reads: from 3 bytes before the lines (the tags' blank
    // line) to the first after them (the result line's).
    let bytes = &b[lines.start - 3..=lines.end];
    match Width::detect() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has AVX-512BW.
        Width::Avx512 => unsafe { own_hex_avx512(bytes) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has AVX2.
        Width::Avx2 => unsafe { own_hex_avx2(bytes) },
        _ => own_hex_sweep::<16>(bytes),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn own_hex_avx512(bytes: &[u8]) -> bool {
    own_hex_sweep::<64>(bytes)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn own_hex_avx2(bytes: &[u8]) -> bool {
    own_hex_sweep::<32>(bytes)
}

/// [`moves_to_own_hex`] over `bytes` (3 before the lines, the lines, 1
/// after), `LANES` positions at a time.
#[inline(always)]
fn own_hex_sweep<const LANES: usize>(bytes: &[u8]) -> bool {
    let len = bytes.len() - 4;
    let mut found = 0;
    let mut at = 0;
    // Whole blocks of `LANES + 7` bytes, then the rest padded with zeros.
    while at + LANES + 7 <= bytes.len() {
        found |= own_hex_in::<LANES>(&bytes[at..at + LANES + 7]);
        at += LANES;
    }
    if at < len {
        let mut block = [0; 71];
        let rest = &bytes[at..];
        block[..rest.len()].copy_from_slice(rest);
        found |= own_hex_in::<LANES>(&block[..LANES + 7]);
    }
    found != 0
}

/// Is a separator at one of the positions 3 to `LANES + 2` of `w` (which
/// holds `LANES + 7` bytes) between two writings of the same hex (see
/// [`moves_to_own_hex`])? 1 or 0.
#[inline(always)]
fn own_hex_in<const LANES: usize>(w: &[u8]) -> u8 {
    let w = &w[..LANES + 7];
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

/// The result a result line (without its newline) holds, written as the
/// writer writes it.
fn result_line(line: &[u8]) -> Option<Outcome> {
    let result = std::str::from_utf8(line).ok().and_then(Outcome::parse)?;
    // Outcome::parse reads any dash; the writer writes `-`.
    (result.as_str().as_bytes() == line).then_some(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::plain::test_corpus as corpus;
    use crate::test_edits::three_games_changed;
    use crate::{Diagnostic, Filter, FilterBuilder, Report};

    /// What the filter makes of `input` (output, rejected games,
    /// diagnostics, counts): with the fast paths (the copy of canonical
    /// games, the express path), and with the reader alone.
    fn both_ways(input: &[u8]) -> [(String, String, Vec<Diagnostic>, Report); 2] {
        both_ways_with(input, FilterBuilder::new)
    }

    fn both_ways_with(
        input: &[u8],
        builder: impl Fn() -> FilterBuilder,
    ) -> [(String, String, Vec<Diagnostic>, Report); 2] {
        [true, false].map(|fast| {
            let built = builder().build();
            let mut filter = Filter {
                copy_canonical: fast && built.copy_canonical,
                express: fast && built.express,
                ..built
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

    /// The game at the start of `b`, if it is canonical.
    fn canonical_game(b: &[u8]) -> Option<CanonicalRun> {
        // Up to the next game's first line: a run of one game at most.
        let next = memchr::memmem::find(&b[1..], VARIANT_LINE).map_or(b.len(), |n| n + 1);
        let b = &b[..(next + VARIANT_LINE.len()).min(b.len())];
        let run = canonical_games(b, false, &mut Scratch::default());
        (run.games > 0).then_some(run)
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
        let mut rng = corpus::Rng::new(47);
        let mut still_canonical = 0;
        for round in 0..4000 {
            let edits = rng.range(1, 2);
            let input =
                three_games_changed(&base, &starts, &mut rng, edits, |rng| *rng.pick(alphabet));
            still_canonical += usize::from(canonical_count(&input) > 0);
            // Every other time, stopping at the first rejected game.
            let [copied, read] =
                both_ways_with(&input, || FilterBuilder::new().fail_fast(round % 2 == 0));
            assert_eq!(copied, read, "{}", String::from_utf8_lossy(&input));
        }
        // Changes that keep a game canonical are tried too.
        assert!(still_canonical > 1000, "{still_canonical}");
    }

    fn game(text: &str) -> Option<CanonicalRun> {
        canonical_game(format!("{text}{}", "[Variant \"C'escacs\"]\n").as_bytes())
    }

    /// [`game`] of these move lines (each ending with a newline) and `*`.
    fn moves_game(lines: &str) -> Option<CanonicalRun> {
        game(&format!("[Variant \"C'escacs\"]\n\n{lines}*\n\n"))
    }

    #[test]
    fn a_filtered_game_is_canonical() {
        let g = "[Variant \"C'escacs\"]\n[Result \"3-0\"]\n\n1. E7-E13, E21-E15\n2. DE13*JF16#\n3-0\n\n";
        assert_eq!(
            game(g),
            Some(CanonicalRun {
                games: 1,
                len: g.len(),
                lines: 7,
                half_moves: 3,
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
