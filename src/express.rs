//! The fast path for games as files write them: a game in the common forms
//! (tags one per line or several on a line, move pairs one per line or
//! all on one line, comments, variations, ratings, NAGs, `(=)`, Unicode
//! dashes and `×`, `^+`, pawn letters, Redefine and FAN games, a PDTL) is
//! translated straight into the text the filter writes for it, with no
//! lexer, passes or writer.
//!
//! [`translate`] keeps the reader's bookkeeping (numbers in turn, whose
//! move it is, where an annotation may stand, how a game ends) and copies
//! each move with its piece letters, dashes, `×` and check marks rewritten
//! as the passes rewrite them. Whether a move is a move it leaves to the
//! canonical check, which reads the translated game as it reads any (see
//! `Reader::fast_games`): a game it refuses goes to the reader. Anything
//! the translation does not know (an escape in a tag, a castling in
//! figurines, a number missing, anything the reader would report) gives
//! the game up to the reader too, which then reads it as before; the tests
//! require the same output, diagnostics and counts either way.

use crate::canonical::{word, GameText, NUMBER_TEXTS, VARIANT_LINE};
use crate::lexer::plain::{
    annotations, dash_at, decimal_at, is_tag_name_byte, nothing_follows, opens_aside,
};
use crate::model::{decode_figurine, Outcome, Side};
use crate::reader::looks_like_tag;
use crate::redefine::RedefineMap;
use crate::simd;
use memchr::memmem;
use std::sync::LazyLock;
use unicode_normalization::{is_nfc_quick, IsNormalized};

/// How every game the fast paths take starts: a line that opens with it.
pub(crate) const VARIANT_TAG: &[u8] = b"[Variant \"C'escacs\"]";

/// What [`translate`] read of a game, beside its text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Translation {
    /// Input bytes: up to the next game's first line.
    pub len: usize,
    /// Comments dropped.
    pub comments: u64,
    /// Variations dropped (nested ones included).
    pub variations: u64,
    /// Ratings and NAGs dropped.
    pub ratings: u64,
}

/// A line end and the next game's Variant tag.
pub(crate) const NEXT_GAME: &[u8] = b"\n[Variant \"C'escacs\"]";

/// Where the next game starts in `b` (at a line that opens with
/// [`VARIANT_TAG`]), after its first byte; `None` if no game starts there.
pub(crate) fn next_game(b: &[u8]) -> Option<usize> {
    // Built once: a search's set-up costs more than a game's search.
    static FINDER: LazyLock<memmem::Finder<'static>> =
        LazyLock::new(|| memmem::Finder::new(NEXT_GAME));
    FINDER.find(b.get(1..)?).map(|n| n + 2)
}

/// Translates the game at the start of `b` (which opens with
/// [`VARIANT_TAG`]) and appends the text the filter writes for it to
/// `out`, if the game reads as the reader reads it with nothing to report
/// and up to the next game's first line, which `b` must hold
/// (`utf8_checked`: the caller found it UTF-8). Otherwise leaves `out` as
/// it was and returns `None`. With what it read, a [`GameText`]: where the
/// game's parts lie in `out` (laid out as the writer lays a game out), so
/// that the canonical check needs no line sweep to find them.
pub(crate) fn translate(
    b: &[u8],
    out: &mut Vec<u8>,
    utf8_checked: bool,
) -> Option<(Translation, GameText)> {
    let len = next_game(b)?;
    // The reader reports a byte that is not UTF-8, even in a comment.
    if !utf8_checked && simdutf8::basic::from_utf8(&b[..len]).is_err() {
        return None;
    }
    let start = out.len();
    let mut t = Translator {
        g: &b[..len],
        out,
        map: RedefineMap::default(),
        letters: letters(&RedefineMap::default()),
        counts: Translation {
            len,
            ..Translation::default()
        },
        text: GameText {
            lines: memchr::memchr_iter(b'\n', &b[..len]).count() as u64,
            ..GameText::default()
        },
        game: Game::default(),
    };
    match t.game() {
        Some(()) => Some((t.counts, t.text)),
        None => {
            t.out.truncate(start);
            None
        }
    }
}

/// Where the main line's numbering stands (as in the reader).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Expect {
    /// No move yet.
    #[default]
    Start,
    /// A number was read: White's move (or `...`) comes.
    White,
    /// White moved (or `...`): Black's move comes.
    Black,
    /// Black moved: the next number comes.
    Number,
}

/// What is known of the game's movetext.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Game {
    expect: Expect,
    number: u32,
    /// The number read was `N?`.
    unknown: bool,
    /// `N.` repeated after White's move N, to resume with `...`.
    resuming: bool,
    /// A move ended the game (`:` or mate).
    end_seen: bool,
    last_move_ends: bool,
    mate_by: Option<Side>,
    result: Option<Outcome>,
    result_tag: Option<Outcome>,
    /// White's move of the line written, Black's not yet.
    line_open: bool,
}

struct Translator<'a> {
    /// The game's bytes, up to the next game's first line.
    g: &'a [u8],
    out: &'a mut Vec<u8>,
    map: RedefineMap,
    /// The standard letter each letter stands for as a piece in this game
    /// (`A + i`), or 0 where the passes would report it.
    letters: [u8; 26],
    counts: Translation,
    /// Where the game's parts lie in `out`.
    text: GameText,
    game: Game,
}

/// The standard letter each letter (`A + i`) stands for as a piece under
/// `map`, or 0 where the passes would report it.
fn letters(map: &RedefineMap) -> [u8; 26] {
    std::array::from_fn(|k| map.resolve_piece(b'A' + k as u8).unwrap_or(0))
}

/// Bytes of the longest move the writer writes, and some: `DE13*JF16=D+∞`
/// is 15.
const MAX_MOVE: usize = 40;

/// Classes of a move's bytes: as they stand, a letter that may be a
/// piece glyph, `^`, above ASCII; anything else ends the move.
const COPY: u8 = 0;
const LETTER: u8 = 1;
const CARET: u8 = 2;
const MULTI: u8 = 3;
const END: u8 = 4;

/// The classes in a game with no Redefine: only `P` among the letters is
/// rewritten (a pawn's letter is dropped).
static PLAIN_CLASS: [u8; 256] = move_classes(false);
/// With a Redefine: any letter may be an alternative piece letter.
static REDEFINE_CLASS: [u8; 256] = move_classes(true);

const fn move_classes(redefine: bool) -> [u8; 256] {
    let mut t = [END; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = match b {
            b'P' => LETTER,
            b'A'..=b'Z' if redefine => LETTER,
            b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'*' | b'@' | b'=' | b'&' | b'+' | b'#' => COPY,
            b'^' => CARET,
            0x80.. => MULTI,
            _ => END,
        };
        c += 1;
    }
    t
}

/// The length of a [`NUMBER_TEXTS`] text, from its mask (`count_ones`
/// is no single instruction on the x86-64 baseline).
#[inline(always)]
fn text_len(mask: u64) -> usize {
    ((64 - mask.leading_zeros()) / 8) as usize
}

/// Appends move number `n` and `mark` (`.` or `?`) and a space.
#[inline]
fn push_number(out: &mut Vec<u8>, n: u32, mark: u8) {
    match NUMBER_TEXTS.get(n as usize) {
        // `N. ` as one word: the table's text, its mark changed.
        Some(&(text, mask)) => {
            let len = text_len(mask);
            let mark_at = 8 * (len - 2);
            let word = text & !(0xFF << mark_at) | u64::from(mark) << mark_at;
            push_block::<8>(out, &word.to_le_bytes(), len);
        }
        None => {
            crate::hex::push_decimal(out, u64::from(n));
            out.extend_from_slice(&[mark, b' ']);
        }
    }
}

/// Appends `b[..n]`: when it is short and `b` holds 16, 32 or 64 bytes, as
/// a copy of that many cut to `n`, which compiles to vector moves where a
/// copy of `n` calls `memcpy` (a move's runs are a few bytes each, a tag's
/// a few dozen).
#[inline(always)]
fn push_run(out: &mut Vec<u8>, b: &[u8], n: usize) {
    if !(n <= 16 && push_block::<16>(out, b, n)
        || n <= 32 && push_block::<32>(out, b, n)
        || n <= 64 && push_block::<64>(out, b, n))
    {
        out.extend_from_slice(&b[..n]);
    }
}

/// Appends `b[..n]` (`n` at most `N`) as a copy of `N` bytes cut to `n`, if
/// `b` holds `N` bytes. The copy is written straight into the vector's
/// room: `extend_from_slice` would call out of line for each.
#[inline(always)]
fn push_block<const N: usize>(out: &mut Vec<u8>, b: &[u8], n: usize) -> bool {
    match b.first_chunk::<N>() {
        Some(block) => {
            debug_assert!(n <= N);
            let at = out.len();
            out.reserve(N);
            // SAFETY: `reserve` made room for `N` bytes after `at`, which
            // the copy fills; `n <= N` of them are kept.
            unsafe {
                out.as_mut_ptr()
                    .add(at)
                    .cast::<[u8; N]>()
                    .write_unaligned(*block);
                out.set_len(at + n.min(N));
            }
            true
        }
        None => false,
    }
}

/// Where the name of the tag at the start of `block` ends and where its
/// value does, if the tag lies in the block and its value is one the
/// writer writes as it stands; `None` for anything else, which
/// [`tag_bytewise`] reads.
#[inline]
fn tag_at_once(block: &[u8; 64]) -> Option<(usize, usize)> {
    let m = simd::tag_bytes(block);
    let name_end = 1 + (!(m.name >> 1)).trailing_zeros() as usize;
    if name_end == 1 || name_end > 60 || &block[name_end..name_end + 2] != b" \"" {
        return None;
    }
    let value_start = name_end + 2;
    let value_end = (m.quote >> value_start << value_start).trailing_zeros() as usize;
    if value_end >= 63 || block[value_end + 1] != b']' {
        return None;
    }
    let value = (1u64 << value_end) - (1u64 << value_start);
    if m.refused & value != 0 {
        return None;
    }
    // Characters of Latin-1 (lead bytes C2, C3) are in NFC; others are
    // checked.
    if m.high & value != 0
        && block[value_start..value_end].iter().any(|&c| c >= 0xC4)
        && is_nfc_quick(
            std::str::from_utf8(&block[value_start..value_end])
                .ok()?
                .chars(),
        ) != IsNormalized::Yes
    {
        return None;
    }
    Some((name_end, value_end))
}

/// [`tag_at_once`] for any tag at `i` in `g`, a byte at a time.
fn tag_bytewise(g: &[u8], i: usize) -> Option<(usize, usize)> {
    let name_end = i
        + 1
        + g[i + 1..]
            .iter()
            .take_while(|&&c| is_tag_name_byte(c))
            .count();
    if name_end == i + 1 || g.get(name_end..name_end + 2) != Some(b" \"") {
        return None;
    }
    let value_start = name_end + 2;
    let value_end = value_start + memchr::memchr(b'"', &g[value_start..])?;
    if g.get(value_end + 1) != Some(&b']') {
        return None;
    }
    let value = &g[value_start..value_end];
    // A fold, not `any`: with no early exit, the compiler vectorizes it
    // (a PDTL value runs to a few hundred bytes).
    if value.iter().fold(false, |refused, &c| {
        refused | (c < b' ') | (c == b'\\') | (c == 0x7F)
    }) {
        return None;
    }
    if !value.is_ascii()
        && is_nfc_quick(std::str::from_utf8(value).ok()?.chars()) != IsNormalized::Yes
    {
        return None;
    }
    Some((name_end, value_end))
}

/// Does `b` start as a castling does (`K` and two capitals, the glyphs of
/// the pieces that move)?
#[inline(always)]
fn starts_castling(b: &[u8]) -> bool {
    matches!(b, [b'K', x, y, ..] if x.is_ascii_uppercase() && y.is_ascii_uppercase())
}

/// Is the glyph of `width` bytes at `at` in a pair's `block`, where one
/// may stand, a piece's: promoted (after `=`) or before a hex?
#[inline(always)]
fn glyph_in_pair(block: &[u8; 32], at: usize, width: usize) -> bool {
    block[at - 1] == b'='
        || block[at + width].is_ascii_alphabetic() && block[at + width + 1].is_ascii_digit()
}

/// The set bits of `mask`, low to high.
#[inline(always)]
fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let at = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            at
        })
    })
}

/// The runs of set bits of `mask`, low to high: where each starts, and
/// its length.
#[inline(always)]
fn runs(mut mask: u32) -> impl Iterator<Item = (usize, usize)> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let at = mask.trailing_zeros() as usize;
            let width = (!(mask >> at)).trailing_zeros() as usize;
            mask &= !((((1u64 << width) - 1) << at) as u32);
            (at, width)
        })
    })
}

/// Is `c` a blank between tokens (lines included)?
#[inline(always)]
fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Where a token may end after a move or an annotation.
#[inline(always)]
fn ends_token(c: Option<&u8>) -> bool {
    matches!(c, None | Some(b' ' | b'\t' | b'\r' | b'\n' | b',' | b':'))
}

impl Translator<'_> {
    fn game(&mut self) -> Option<()> {
        self.out.reserve(self.g.len() + 64);
        self.out.extend_from_slice(VARIANT_LINE);
        let mut i = self.tags(VARIANT_TAG.len())?;
        self.out.push(b'\n');
        self.text.moves = self.out.len()..self.out.len();
        while let Some(&c) = self.g.get(i) {
            i = self.token(i, c, true)?;
        }
        self.finish()
    }

    /// The movetext's token at `i`, which starts with `c`: where it ends.
    /// With `pairs`, a move pair written as the writer writes it is read
    /// at once.
    #[inline(always)]
    fn token(&mut self, i: usize, c: u8, pairs: bool) -> Option<usize> {
        Some(match c {
            b'A'..=b'Z' | 0x80.. => {
                if c == 0xE2 && self.g.get(i + 1..i + 3) == Some(&[0x80, 0xA6]) {
                    self.dots(i, 3)?
                } else {
                    self.half_move(i)?
                }
            }
            b' ' | b'\n' | b'\r' | b'\t' => i + 1,
            b'0'..=b'9' => match self.next_number_at(i) {
                Some(len) => match pairs.then(|| self.pair(i, len)).flatten() {
                    Some(after) => after,
                    None => self.next_number(i, len),
                },
                None => self.number_or_result(i)?,
            },
            b',' if self.game.expect == Expect::Black => i + 1,
            b'{' => self.comment(i)?,
            b'(' => self.variation(i)?,
            b'*' => self.result(i, 1, Outcome::Unfinished)?,
            b'.' => self.dots(i, 3)?,
            _ => return None,
        })
    }

    /// The tags from `i` on (after the Variant tag), with comments among
    /// them: writes them, and returns where the movetext starts.
    fn tags(&mut self, mut i: usize) -> Option<usize> {
        let g = self.g;
        loop {
            while g.get(i).is_some_and(|&c| is_space(c)) {
                i += 1;
            }
            match g.get(i) {
                Some(b'[') => i = self.tag(i)?,
                Some(b'{') => i = self.comment(i)?,
                _ => return Some(i),
            }
        }
    }

    /// A tag `[Name "value"]` at `i`, as the writer writes it (no escape,
    /// no control character); returns where it ends.
    fn tag(&mut self, i: usize) -> Option<usize> {
        let g = self.g;
        let (name_end, value_end) = match g.get(i..i + 64) {
            Some(block) => tag_at_once(block.try_into().ok()?)
                .map(|(name, value)| (i + name, i + value))
                .or_else(|| tag_bytewise(g, i))?,
            None => tag_bytewise(g, i)?,
        };
        let value = &g[name_end + 2..value_end];
        let end = value_end + 2;
        match &g[i + 1..name_end] {
            b"Variant" | b"DPTL" => return None,
            b"Redefine" => {
                self.map.merge(std::str::from_utf8(value).ok()?).ok()?;
                self.letters = letters(&self.map);
                return Some(end);
            }
            b"PDTL" => {
                if self.text.pdtl.is_some() {
                    return None;
                }
                self.out.extend_from_slice(b"[PDTL \"");
                let value_start = self.out.len();
                self.pdtl(value)?;
                self.text.pdtl = Some(value_start..self.out.len());
                self.out.extend_from_slice(b"\"]\n");
                return Some(end);
            }
            b"Result" => {
                // A value that is no result is kept and not compared.
                self.game.result_tag = std::str::from_utf8(value).ok().and_then(Outcome::parse);
            }
            _ => {}
        }
        push_run(self.out, &g[i..], end - i);
        self.out.push(b'\n');
        Some(end)
    }

    /// A PDTL value with its pieces in standard letters (Black's in lower
    /// case, as the writer writes them), if the passes would write it so
    /// with nothing to report: what else makes it canonical (standard
    /// letters among them) the check decides.
    fn pdtl(&mut self, value: &[u8]) -> Option<()> {
        // Pieces stand in the board and the castling field, the first and
        // the third fields; the rest are a side, hexes and numbers.
        if self.map.is_empty() && value.is_ascii() {
            // No letter to rewrite; whether each is a standard piece's, the
            // check decides.
            self.out.extend_from_slice(value);
            return Some(());
        }
        let mut field = 0;
        let mut i = 0;
        while let Some(&c) = value.get(i) {
            if c == b' ' {
                field += 1;
            }
            if c.is_ascii_alphabetic() && field != 1 && field < 3 {
                let l = self.letters_of(c.to_ascii_uppercase())?;
                self.out.push(if c.is_ascii_lowercase() {
                    l.to_ascii_lowercase()
                } else {
                    l
                });
                i += 1;
            } else if c >= 0x80 && field != 1 && field < 3 {
                let (l, side, n) = decode_figurine(&value[i..])?;
                if !self.map.fan() {
                    return None;
                }
                self.out.push(if side == Side::Black {
                    l.to_ascii_lowercase()
                } else {
                    l
                });
                i += n;
            } else {
                self.out.push(c);
                i += 1;
            }
        }
        Some(())
    }

    /// The standard letter a piece letter stands for, if the passes would
    /// read it without a word.
    #[inline]
    fn letters_of(&self, upper: u8) -> Option<u8> {
        let l = *self.letters.get(usize::from(upper.wrapping_sub(b'A')))?;
        (l != 0).then_some(l)
    }

    /// A comment `{...}` at `i`: dropped; returns where it ends.
    fn comment(&mut self, i: usize) -> Option<usize> {
        let close = i + memchr::memchr(b'}', &self.g[i..])?;
        self.no_tag_line_in(i, close)?;
        self.counts.comments += 1;
        Some(close + 1)
    }

    /// A line that starts like a tag ends an open comment or variation, and
    /// the game (the reader reports it): none may start in `g[from..to]`.
    fn no_tag_line_in(&self, from: usize, to: usize) -> Option<()> {
        for nl in memchr::memchr_iter(b'\n', &self.g[from..to]) {
            let rest = &self.g[from + nl + 1..];
            // Most lines show at once that they are none: their first byte
            // past blanks (of this line or, if it is blank, of a later one)
            // is not `[`.
            if rest.trim_ascii_start().first() != Some(&b'[') {
                continue;
            }
            let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
            if looks_like_tag(line) {
                return None;
            }
        }
        Some(())
    }

    /// A variation `(...)` at `i`, nested ones and comments inside:
    /// dropped, moves unread; returns where it ends.
    fn variation(&mut self, i: usize) -> Option<usize> {
        let g = self.g;
        if g.get(i + 1..i + 3) == Some(b"=)") {
            // A draw offer stands after its move, not here.
            return None;
        }
        let mut depth = 1u32;
        self.counts.variations += 1;
        let mut j = i + 1;
        while depth > 0 {
            j += memchr::memchr3(b'(', b')', b'{', &g[j..])?;
            match g[j] {
                b'(' if g.get(j + 1..j + 3) == Some(b"=)") => j += 3,
                b'(' => {
                    depth += 1;
                    self.counts.variations += 1;
                    j += 1;
                }
                b')' => {
                    depth -= 1;
                    j += 1;
                }
                _ => {
                    let close = j + memchr::memchr(b'}', &g[j..])?;
                    self.counts.comments += 1;
                    j = close + 1;
                }
            }
        }
        self.no_tag_line_in(i, j)?;
        Some(j)
    }

    /// Moves may come: the game has not ended.
    #[inline]
    fn movetext(&self) -> Option<()> {
        (self.game.result.is_none() && !self.game.end_seen).then_some(())
    }

    /// The length of the main line's next move number at `i`, if it is
    /// written there `N. ` (read with one compare) and moves may come.
    #[inline]
    fn next_number_at(&self, i: usize) -> Option<usize> {
        self.movetext()?;
        if self.game.expect != Expect::Number {
            return None;
        }
        let &(text, mask) = NUMBER_TEXTS.get(self.game.number as usize + 1)?;
        (word(self.g, i) & mask == text).then(|| text_len(mask))
    }

    /// The main line's next move number, written `N. ` in the `len` bytes
    /// at `i` ([`Self::next_number_at`]): where it ends.
    #[inline]
    fn next_number(&mut self, i: usize, len: usize) -> usize {
        let g = &mut self.game;
        g.number += 1;
        g.unknown = false;
        g.expect = Expect::White;
        i + len
    }

    /// The next move pair at `i` written as the writer writes it, `N. W,
    /// B` and a line end (or a blank and a number, a move, a comment or a
    /// variation), read at once (`white`: the length of its number, from
    /// [`Self::next_number_at`]): each move's bytes kept as they are but
    /// `×`, dashes, figurines and the glyph letters a Redefine rewrites; no
    /// pawn's glyph, no mate.
    /// Returns where it ends; `None` (nothing read or written) for anything
    /// else, which the token walk reads.
    #[inline]
    fn pair(&mut self, i: usize, white: usize) -> Option<usize> {
        let block: &[u8; 32] = self.g.get(i..i + 32)?.try_into().ok()?;
        let m = simd::pair_bytes(block);
        let comma = m.comma.trailing_zeros() as usize;
        let black = comma + 2;
        if comma <= white || black >= 31 || block[comma + 1] != b' ' {
            return None;
        }
        let end = (m.blank >> black << black).trailing_zeros() as usize;
        if end >= 31 || end == black {
            return None;
        }
        // Nothing may follow Black's move on its line but the next token, a
        // comment or a variation (not a draw offer: the move's).
        if block[end] == b' '
            && !(block[end + 1].is_ascii_alphanumeric() || opens_aside(self.g, i + end + 1))
        {
            return None;
        }
        let span = |from: usize, to: usize| (1u32 << to) - (1u32 << from);
        let moves = span(white, comma) | span(black, end);
        if moves & !(m.kept | m.pawn | m.high | m.caret) != 0
            // A move starts with a letter or a figurine.
            || !(block[white].is_ascii_uppercase() || block[white] >= 0x80)
            || !(block[black].is_ascii_uppercase() || block[black] >= 0x80)
            || block[comma - 1] == b'#'
            || block[end - 1] == b'#'
            // A castling's glyphs are the byte walk's.
            || starts_castling(&block[white..])
            || starts_castling(&block[black..])
        {
            return None;
        }
        // A piece glyph stands first, after `*`, `×` or `=`, before a hex or
        // promoted.
        let mut glyph_at = 1 << white | 1 << black | m.before_glyph << 1;
        // Each character above ASCII is a `×`, a dash, `∞`, or in a FAN
        // game a piece's figurine where a glyph stands (a pawn's is the
        // byte walk's): written as one byte in its first place, the others
        // dropped (`∞` is kept whole).
        let mut text = [0; 64];
        text[..32].copy_from_slice(block);
        let mut dropped = 0;
        for (run, width) in runs(m.high & moves) {
            let mut at = run;
            while at < run + width {
                let (written, len) = match block[at..] {
                    [0xC3, 0x97, ..] => {
                        glyph_at |= 1 << (at + 2);
                        (b'*', 2)
                    }
                    // `∞` stays as it is.
                    [0xE2, 0x88, 0x9E, ..] => {
                        at += 3;
                        continue;
                    }
                    _ if dash_at(block, at).is_some() => (b'-', 3),
                    _ => match decode_figurine(&block[at..]) {
                        Some((letter, _, len))
                            if letter != b'P'
                                && self.map.fan()
                                && glyph_at & 1 << at != 0
                                && glyph_in_pair(block, at, len) =>
                        {
                            (letter, len)
                        }
                        _ => return None,
                    },
                };
                text[at] = written;
                dropped |= span(at + 1, at + len);
                at += len;
            }
            if at != run + width {
                return None;
            }
        }
        // Glyph letters in standard letters: without a Redefine only a
        // pawn's is rewritten, and that is the byte walk's.
        let glyphs = glyph_at
            & moves
            & if self.map.is_empty() {
                m.pawn
            } else {
                m.capital
            };
        for at in bits(glyphs) {
            if glyph_in_pair(block, at, 1) {
                match self.letters[usize::from(block[at] - b'A')] {
                    0 | b'P' => return None,
                    l => text[at] = l,
                }
            }
        }
        // The legacy `^+` is written `+^`.
        for at in bits(m.caret & moves) {
            if block[at + 1] == b'+' {
                text[at..at + 2].copy_from_slice(b"+^");
            }
        }
        let mut copied = 0;
        for (at, width) in runs(dropped) {
            push_run(self.out, &text[copied..], at - copied);
            copied = at + width;
        }
        push_run(self.out, &text[copied..], end - copied);
        self.out.push(b'\n');
        let g = &mut self.game;
        g.number += 1;
        g.unknown = false;
        g.last_move_ends = false;
        self.text.half_moves += 2;
        Some(i + end + 1)
    }

    /// `N.`, `N?` or a result at `i`.
    fn number_or_result(&mut self, i: usize) -> Option<usize> {
        let g = self.g;
        let (n, digits) = decimal_at(g, i, 5)?;
        let after = i + digits;
        match g.get(after) {
            Some(b'.') if g.get(after + 1) != Some(&b'.') => self.number(n, false)?,
            Some(b'?') if self.game.expect == Expect::Start => self.number(n, true)?,
            _ if digits == 1 => {
                let (_, d) = dash_at(g, after)?;
                let text = std::str::from_utf8(g.get(i..after + d + 1)?).ok()?;
                return self.result(i, after + d + 1 - i, Outcome::parse(text)?);
            }
            _ => return None,
        }
        Some(after + 1)
    }

    /// Move number `n` read (`unknown`: written `N?`), as the reader takes
    /// it, with nothing to report.
    fn number(&mut self, n: u32, unknown: bool) -> Option<()> {
        self.movetext()?;
        let g = &mut self.game;
        if n == 0 {
            return None;
        }
        match g.expect {
            Expect::Start => {}
            _ if unknown => return None,
            Expect::Number if n == g.number + 1 => {}
            Expect::Black if n == g.number => g.resuming = true,
            _ => return None,
        }
        g.unknown = unknown;
        g.number = n;
        g.expect = Expect::White;
        Some(())
    }

    /// `...` (or `…`, `n` bytes) at `i`: Black's move comes, at the start of
    /// the game or where White's move was interrupted.
    fn dots(&mut self, i: usize, n: usize) -> Option<usize> {
        self.movetext()?;
        if self.g.get(i..i + n)? != b"..." && self.g[i] == b'.' {
            return None;
        }
        let g = &mut self.game;
        if g.expect != Expect::White || (self.text.half_moves > 0 && !g.resuming) {
            return None;
        }
        g.expect = Expect::Black;
        g.resuming = false;
        Some(i + n)
    }

    /// A result of `n` bytes at `i`.
    fn result(&mut self, i: usize, n: usize, outcome: Outcome) -> Option<usize> {
        if self.game.result.is_some() {
            return None;
        }
        self.game.result = Some(outcome);
        Some(i + n)
    }

    /// A half-move at `i`, with the ratings, NAGs, `(=)` and `:` after it:
    /// writes it where the writer lays it out, and returns where it ends.
    fn half_move(&mut self, i: usize) -> Option<usize> {
        self.movetext()?;
        let side = match self.game.expect {
            Expect::White if !self.game.resuming => Side::White,
            Expect::Black => Side::Black,
            // No number before it, or White's move played twice.
            _ => return None,
        };
        // The line as the writer lays it out.
        let first = self.text.half_moves == 0;
        let mark = if self.game.unknown && first {
            b'?'
        } else {
            b'.'
        };
        match side {
            Side::White => {
                push_number(self.out, self.game.number, mark);
                self.game.line_open = true;
            }
            Side::Black if self.game.line_open => self.out.extend_from_slice(b", "),
            Side::Black => {
                push_number(self.out, self.game.number, mark);
                self.out.extend_from_slice(b"..., ");
            }
        }
        let (moved, mate) = self.move_text(i)?;
        if moved == i {
            return None;
        }
        let (end, draw, after) = match nothing_follows(self.g, moved) {
            Some(after) => (false, false, after),
            None => self.annotations(moved)?,
        };
        if draw {
            self.out.extend_from_slice(b" (=)");
        }
        if end {
            self.out.push(b':');
        }
        let g = &mut self.game;
        self.text.half_moves += 1;
        g.last_move_ends = end || mate;
        g.end_seen |= end || mate;
        if mate {
            g.mate_by = Some(side);
        }
        g.expect = match side {
            Side::White => Expect::Black,
            Side::Black => {
                self.out.push(b'\n');
                g.line_open = false;
                Expect::Number
            }
        };
        Some(after)
    }

    /// What follows a move at `i` (blanks, then a rating, NAGs, `(=)`,
    /// `:`, as the reader attaches them to it): whether it ends the game,
    /// whether it offers a draw, and where what follows ends.
    fn annotations(&mut self, moved: usize) -> Option<(bool, bool, usize)> {
        let g = self.g;
        let a = annotations(g, moved, ends_token)?;
        if !ends_token(g.get(a.end_at)) && !matches!(g.get(a.end_at), Some(b'{' | b'(')) {
            return None;
        }
        self.counts.ratings += u64::from(a.rating.is_some()) + a.nag_count as u64;
        Some((a.end, a.draw_offer, a.after))
    }

    /// Copies the move at `i` with its glyphs in standard letters (a pawn's
    /// dropped), its dashes `-`, `×` written `*` and `^+` written `+^`;
    /// returns where it ends and whether it mates.
    #[inline]
    fn move_text(&mut self, i: usize) -> Option<(usize, bool)> {
        self.simple_move(i).or_else(|| self.walk_move(i))
    }

    /// [`Self::move_text`] a byte at a time, for any move.
    fn walk_move(&mut self, mut i: usize) -> Option<(usize, bool)> {
        let g = self.g;
        let out = &mut *self.out;
        let start = out.len();
        // A castling: `K`, two piece glyphs, a dash, the targets.
        if starts_castling(&g[i..]) {
            if let Some((_, d)) = dash_at(g, i + 3) {
                out.push(b'K');
                for k in 1..3 {
                    match self.letters[usize::from(g[i + k] - b'A')] {
                        0 => return None,
                        l => out.push(l),
                    }
                }
                out.push(b'-');
                i += 3 + d;
                // The targets are letters, no glyph.
                let n = g[i..].iter().take_while(|c| c.is_ascii_uppercase()).count();
                push_run(out, &g[i..], n);
                i += n;
            }
        }
        // Most bytes stand as they are and are copied in runs; the class
        // table (the game's: with a Redefine every letter may be a glyph)
        // stops a run at the others.
        let class = if self.map.is_empty() {
            &PLAIN_CLASS
        } else {
            &REDEFINE_CLASS
        };
        // A piece glyph may stand first, after `*` or after `=`, once:
        // `glyph_taken` is the text's length where one was read (and maybe
        // dropped); a castling's glyphs are read.
        let mut glyph_taken = if out.len() == start {
            usize::MAX
        } else {
            out.len()
        };
        // A pawn's glyph was dropped from the move's start.
        let mut pawn_first = false;
        loop {
            let run = g[i..]
                .iter()
                .take_while(|&&c| class[usize::from(c)] == COPY)
                .count();
            push_run(out, &g[i..], run);
            i += run;
            let Some(&c) = g.get(i) else {
                break;
            };
            let n = out.len();
            let after = if n == start { 0 } else { out[n - 1] };
            let at_glyph = glyph_taken != n && (n == start || matches!(after, b'*' | b'='));
            // A glyph stands before a hex (a letter and a digit), but a
            // promotion's.
            let promotion = at_glyph && after == b'=';
            let glyph_before = |len: usize| {
                at_glyph
                    && (promotion
                        || g.get(i + len).is_some_and(u8::is_ascii_alphabetic)
                            && g.get(i + len + 1).is_some_and(u8::is_ascii_digit))
            };
            match class[usize::from(c)] {
                LETTER => {
                    if glyph_before(1) {
                        glyph_taken = n;
                        match self.letters[usize::from(c - b'A')] {
                            0 => return None,
                            b'P' if promotion => return None,
                            b'P' => pawn_first |= n == start,
                            l => out.push(l),
                        }
                    } else {
                        out.push(c);
                    }
                    i += 1;
                }
                CARET => {
                    // The legacy `^+` is written `+^`.
                    if g.get(i + 1) == Some(&b'+') {
                        out.extend_from_slice(b"+^");
                        i += 2;
                    } else {
                        out.push(c);
                        i += 1;
                    }
                }
                MULTI => {
                    // `×`, a dash, `∞`, a figurine; else the move has ended
                    // (a rating, an ellipsis).
                    if g.get(i + 1) == Some(&0x97) && c == 0xC3 {
                        out.push(b'*');
                        i += 2;
                    } else if let Some((_, d)) = dash_at(g, i) {
                        out.push(b'-');
                        i += d;
                    } else if g.get(i..i + 3) == Some("\u{221e}".as_bytes()) {
                        out.extend_from_slice("\u{221e}".as_bytes());
                        i += 3;
                    } else if let Some((letter, _, len)) = decode_figurine(&g[i..]) {
                        if !self.map.fan() || !glyph_before(len) {
                            return None;
                        }
                        glyph_taken = n;
                        match letter {
                            b'P' if promotion => return None,
                            b'P' => pawn_first |= n == start,
                            l => out.push(l),
                        }
                        i += len;
                    } else {
                        break;
                    }
                }
                _ => break,
            }
            // A move longer than any has no place in the text.
            if out.len() - start > MAX_MOVE {
                return None;
            }
        }
        // The reader reads a pawn's glyph before a move, not before a
        // forced promotion (`PE7=G`), whose text is the same without it.
        if pawn_first && !out[start..].iter().any(|c| matches!(c, b'-' | b'*' | b'@')) {
            return None;
        }
        let n = out.len();
        Some((i, n > start && out[n - 1] == b'#'))
    }

    /// [`Self::move_text`] for the common move, read 16 bytes at once:
    /// bytes kept as they are, piece glyphs that are letters (no pawn's),
    /// at most one `×` or dash. `None` (nothing written) for any other
    /// move, which the byte walk reads.
    #[inline]
    fn simple_move(&mut self, i: usize) -> Option<(usize, bool)> {
        let g = self.g;
        let block: &[u8; 16] = g.get(i..i + 16)?.try_into().ok()?;
        if starts_castling(block) {
            // Maybe a castling, whose glyphs are read.
            return None;
        }
        let m = simd::move_bytes(block);
        let end = (!(m.kept | m.pawn | m.high)).trailing_zeros() as usize;
        if end == 0 || end == 16 || PLAIN_CLASS[usize::from(block[end])] != END {
            return None;
        }
        let within = (1u16 << end) - 1;
        let high = m.high & within;
        // Where a piece glyph may stand: first, after `*`, `=` or `×`.
        let mut glyph_at = 1 | m.before_glyph << 1;
        let (cut, width, written) = if high == 0 {
            (end, 0, 0)
        } else {
            let at = high.trailing_zeros() as usize;
            let width = (!(high >> at)).trailing_zeros() as usize;
            if high >> at != (1 << width) - 1 {
                return None;
            }
            let written = match (width, block[at]) {
                (2, 0xC3) if block[at + 1] == 0x97 => b'*',
                (3, _) if dash_at(block, at).is_some_and(|(_, n)| n == 3) => b'-',
                _ => return None,
            };
            if written == b'*' {
                glyph_at |= 1 << (at + 2);
            }
            (at, width, written)
        };
        let start = self.out.len();
        push_run(self.out, block, cut);
        if width > 0 {
            self.out.push(written);
            push_run(self.out, &g[i + cut + width..], end - cut - width);
        }
        // Without a Redefine only a pawn's letter is a glyph to rewrite;
        // with one, any letter that is a glyph.
        let glyphs = if self.map.is_empty() {
            m.pawn
        } else {
            m.capital
        };
        for at in bits(u32::from(glyphs & within & glyph_at)) {
            let promotion = at > 0 && block[at - 1] == b'=';
            let before_hex = g.get(i + at + 1).is_some_and(u8::is_ascii_alphabetic)
                && g.get(i + at + 2).is_some_and(u8::is_ascii_digit);
            if !(promotion || before_hex) {
                continue;
            }
            match self.letters[usize::from(block[at] - b'A')] {
                // Reported, or a pawn's letter dropped: the byte walk's.
                0 | b'P' => {
                    self.out.truncate(start);
                    return None;
                }
                l => {
                    let to = if at < cut { at } else { at - width + 1 };
                    self.out[start + to] = l;
                }
            }
        }
        Some((i + end, block[end - 1] == b'#'))
    }

    /// The end of the game: writes its result line, if it ends as the
    /// reader ends a game with nothing to report.
    fn finish(&mut self) -> Option<()> {
        let g = self.game;
        let has_moves = self.text.half_moves > 0;
        if has_moves && !g.last_move_ends {
            return None;
        }
        if !has_moves && g.result.is_none() {
            // Tags alone: the next Variant tag would be this game's.
            return None;
        }
        let mated = g.mate_by.map(|s| match s {
            Side::White => Outcome::WhiteWins,
            Side::Black => Outcome::BlackWins,
        });
        let result = g
            .result
            .or(mated)
            .or(g.result_tag)
            .unwrap_or(Outcome::Unfinished);
        if g.result_tag.is_some_and(|t| t != result) {
            return None;
        }
        if g.line_open {
            self.out.push(b'\n');
        }
        self.text.moves.end = self.out.len();
        self.out.extend_from_slice(result.as_str().as_bytes());
        self.out.extend_from_slice(b"\n\n");
        self.text.end = self.out.len();
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::canonical;
    use crate::lexer::plain::test_corpus as corpus;
    use crate::test_edits::three_games_changed;
    use crate::{Diagnostic, Filter, Report};

    /// What the filter makes of `input`: with the express path (and not
    /// the canonical copy, so that every game it takes is translated),
    /// and with the reader alone.
    fn both_ways(input: &[u8]) -> [(Vec<u8>, Vec<Diagnostic>, Report); 2] {
        [true, false].map(|express| {
            let mut filter = Filter {
                copy_canonical: false,
                express,
                ..Filter::default()
            };
            filter.filter_bytes(input)
        })
    }

    #[test]
    fn translated_games_read_as_the_reader_reads_them() {
        let mut inputs = vec![
            corpus::generate_vec(300_000, 41, false),
            corpus::generate_vec(300_000, 42, false),
        ];
        for dir in ["corpus", "corpus/errors", "tests/real-games-expected"] {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_file() {
                    inputs.push(std::fs::read(path).unwrap());
                }
            }
        }
        for input in &inputs {
            let [fast, read] = both_ways(input);
            assert!(fast == read, "{}", String::from_utf8_lossy(input));
        }
    }

    #[test]
    fn the_generated_corpus_is_translated() {
        let input = corpus::generate_vec(300_000, 43, false);
        let starts: Vec<usize> = memmem::find_iter(&input, NEXT_GAME)
            .map(|n| n + 1)
            .collect();
        let mut out = Vec::new();
        let translated = starts
            .iter()
            .filter(|&&s| translate(&input[s..], &mut out, false).is_some())
            .count();
        // All but the last, which no next game closes.
        assert_eq!(translated, starts.len() - 1);
    }

    /// The canonical check trusts where the translation says a game's
    /// parts lie, instead of sweeping its lines: they lie where the sweep
    /// finds them, in every game translated, and the sweep finds nothing
    /// amiss (games generated, then changed at random).
    #[test]
    fn a_translated_game_lies_where_the_line_sweep_finds_it() {
        let mut input = corpus::generate_vec(400_000, 44, false);
        let edits: [&[u8]; 12] = [
            b" ",
            b"\n",
            b"{ c }",
            b"(1. E7-E13)",
            b"$1",
            b"!",
            b"...",
            b":",
            b"*",
            b"0",
            b"[PDTL \"/28:P/ w - - 0 1\"]",
            b"[Result \"1-1\"]",
        ];
        let mut rng = corpus::Rng::new(45);
        for _ in 0..150 {
            let at = rng.below(input.len() as u32) as usize;
            let edit = *rng.pick(&edits);
            input.splice(at..at, edit.iter().copied());
        }
        let mut translated = 0;
        for s in memmem::find_iter(&input, NEXT_GAME).map(|n| n + 1) {
            let mut out = Vec::new();
            let Some((_, mut game)) = translate(&input[s..], &mut out, false) else {
                continue;
            };
            translated += 1;
            let found = canonical::skeleton(&out, 0, true);
            // The sweep counts the lines of the text; the translation, of
            // the input.
            game.lines = found.as_ref().map_or(0, |f| f.lines);
            assert_eq!(Some(game), found, "{}", String::from_utf8_lossy(&out));
        }
        assert!(translated > 200, "{translated}");
    }

    /// What random moves are made of: the bytes of each class a move's
    /// readers tell apart, the multi-byte characters, and longer pieces.
    const MOVE_PIECES: [&[u8]; 36] = [
        b"P",
        b"K",
        b"N",
        b"J",
        b"R",
        b"T",
        b"A",
        b"S",
        b"E",
        b"Z",
        b"L",
        b"1",
        b"7",
        b"0",
        b"-",
        b"*",
        b"@",
        b"=",
        b"&",
        b"+",
        b"#",
        b"^",
        "\u{d7}".as_bytes(),
        "\u{2010}".as_bytes(),
        "\u{2212}".as_bytes(),
        "\u{221e}".as_bytes(),
        "\u{2658}".as_bytes(),
        "\u{2659}".as_bytes(),
        "\u{265c}".as_bytes(),
        "\u{1fa50}".as_bytes(),
        b"x",
        b"e",
        b"!",
        b"E13",
        b"E7-E13",
        b"KRK-I",
    ];

    /// A game's maps: none, alternative letters, FAN.
    fn maps() -> [RedefineMap; 3] {
        ["", "A@J, T@R, S@N", "FAN"].map(|m| {
            let mut map = RedefineMap::default();
            if !m.is_empty() {
                map.merge(m).unwrap();
            }
            map
        })
    }

    /// A move read 16 bytes at once is written as the byte walk writes it,
    /// in a game with no Redefine, with one, and in figurines; random
    /// moves of the bytes that matter, each followed by what may end one.
    #[test]
    fn a_move_read_at_once_reads_as_byte_by_byte() {
        let pieces = MOVE_PIECES;
        let ends: [&[u8]; 8] = [b",", b" ", b"\n", b":", b"!", b"{", b"(", b""];
        let maps = maps();
        let mut rng = corpus::Rng::new(46);
        let mut read_at_once = 0;
        for _ in 0..100_000 {
            let mut g = Vec::new();
            for _ in 0..rng.range(1, 9) {
                let piece = *rng.pick(&pieces);
                g.extend_from_slice(piece);
            }
            let end = *rng.pick(&ends);
            g.extend_from_slice(end);
            g.extend_from_slice(&b"E7-E13, E21-E15"[..rng.below(16) as usize]);
            for map in &maps {
                let read = |at_once: bool| {
                    let mut out = b"1. ".to_vec();
                    let mut t = Translator {
                        g: &g,
                        out: &mut out,
                        map: *map,
                        letters: letters(map),
                        counts: Translation::default(),
                        text: GameText::default(),
                        game: Game::default(),
                    };
                    let read = if at_once {
                        t.simple_move(0)
                    } else {
                        t.walk_move(0)
                    };
                    (read, out)
                };
                let (fast, text) = read(true);
                if fast.is_some() {
                    read_at_once += 1;
                    assert_eq!((fast, text), read(false), "{}", String::from_utf8_lossy(&g));
                } else {
                    assert_eq!(text, b"1. ", "{}", String::from_utf8_lossy(&g));
                }
            }
        }
        // Short of a sixteenth, the test would hardly test.
        assert!(read_at_once > 300_000 / 16, "{read_at_once}");
    }

    #[test]
    fn a_pair_read_at_once_reads_as_token_by_token() {
        let pieces = MOVE_PIECES;
        let moves: [&[u8]; 14] = [
            "NK6\u{d7}NP17".as_bytes(),
            b"GI13-X20",
            b"E15*F14^+",
            b"C3@X22+",
            "RD8\u{2010}G1".as_bytes(),
            b"PE7-E9",
            "P9\u{d7}B10".as_bytes(),
            b"E27=D",
            "SL9\u{2212}L23".as_bytes(),
            b"TG19-G23+^",
            b"KRK-IH",
            "AB4\u{d7}TC5".as_bytes(),
            "\u{265c}L19-D10".as_bytes(),
            "F4\u{d7}\u{1fa50}E21".as_bytes(),
        ];
        // What may stand after each move, the common ones more often.
        let seps: [&[u8]; 6] = [b", ", b", ", b", ", b",", b" ", b", ,"];
        let ends: [&[u8]; 11] = [
            b"\n", b"\n", b" 13. ", b" 13. ", b" ", b" {", b" !", b"\n(", b" (", b" (=)", b":",
        ];
        let maps = maps();
        let mut rng = corpus::Rng::new(47);
        let mut read_at_once = 0;
        for _ in 0..150_000 {
            let mut g = b"12. ".to_vec();
            for k in 0..2 {
                // A move as files write them, or pieces of one, or both.
                if rng.below(3) > 0 {
                    let m = *rng.pick(&moves);
                    g.extend_from_slice(m);
                }
                for _ in 0..rng.range(0, 3) {
                    let piece = *rng.pick(&pieces);
                    g.extend_from_slice(piece);
                }
                let after = if k == 0 {
                    *rng.pick(&seps)
                } else {
                    *rng.pick(&ends)
                };
                g.extend_from_slice(after);
            }
            g.extend_from_slice(b"E7-E13, E21-E15 14. E7-E13, E21-E15\n");
            for map in &maps {
                let mut t = Translator {
                    g: &g,
                    out: &mut Vec::new(),
                    map: *map,
                    letters: letters(map),
                    counts: Translation::default(),
                    text: GameText::default(),
                    game: Game {
                        expect: Expect::Number,
                        number: 11,
                        ..Game::default()
                    },
                };
                let Some(end) = t.next_number_at(0).and_then(|len| t.pair(0, len)) else {
                    assert!(t.out.is_empty(), "{}", String::from_utf8_lossy(&g));
                    continue;
                };
                read_at_once += 1;
                let fast = (t.out.clone(), t.counts, t.text.half_moves, t.game);
                t.out.clear();
                t.text.half_moves = 0;
                t.game = Game {
                    expect: Expect::Number,
                    number: 11,
                    ..Game::default()
                };
                let mut i = 0;
                while i < end {
                    let Some(next) = t.token(i, g[i], false) else {
                        panic!("{}", String::from_utf8_lossy(&g));
                    };
                    i = next;
                }
                let walked = (t.out.clone(), t.counts, t.text.half_moves, t.game);
                assert_eq!((i, fast), (end, walked), "{}", String::from_utf8_lossy(&g));
            }
        }
        // Short of a thirty-second, the test would hardly test.
        assert!(read_at_once > 450_000 / 32, "{read_at_once}");
    }

    /// Games changed at random in one to four places (bytes of moves,
    /// annotations, comments, variations, tags) are read the same with
    /// the express path as by the reader alone: output, diagnostics and
    /// counts, whether the translation takes the game or leaves it.
    #[test]
    fn a_game_changed_anywhere_reads_the_same_with_or_without_the_translation() {
        let base = corpus::generate_vec(300_000, 15, false);
        let starts: Vec<usize> = memmem::find_iter(&base, NEXT_GAME).map(|n| n + 1).collect();
        let more: [&[u8]; 16] = [
            b" ",
            b",",
            b":",
            b"(",
            b")",
            b"{",
            b"}",
            b"?",
            b"$1",
            b"\n",
            b"...",
            b"(=)",
            b"[",
            b"]",
            b"\"",
            "\u{25c7}".as_bytes(),
        ];
        let mut rng = corpus::Rng::new(48);
        let mut translated = 0;
        let rounds = 3000;
        for _ in 0..rounds {
            let edits = rng.range(1, 4);
            let input = three_games_changed(&base, &starts, &mut rng, edits, |rng| {
                if rng.chance(500) {
                    *rng.pick(&MOVE_PIECES)
                } else {
                    *rng.pick(&more)
                }
            });
            translated += usize::from(translate(&input, &mut Vec::new(), false).is_some());
            let [fast, read] = both_ways(&input);
            assert!(fast == read, "{}", String::from_utf8_lossy(&input));
        }
        // Short of a quarter taken, the test would hardly test the path.
        assert!(translated > rounds / 4, "{translated}");
    }

    /// Games the translation once read otherwise than the reader (or
    /// that it must leave to it), each with a game after it: a game needs
    /// the next to be known over.
    #[test]
    fn what_the_reader_reports_is_left_to_it() {
        let next: &[u8] = b"[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n\n";
        let games: [&[u8]; 19] = [
            // A figurine before a digit is no glyph: the reader reports it.
            "[Variant \"C'escacs\"]\n[Redefine \"FAN\"]\n\n1. E7-E13, E21-E15\n2. \u{2616}5-E11:\n*\n"
                .as_bytes(),
            // A pawn's letter before a letter and no digit.
            b"[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15 2.PGL11-T12:\n*\n",
            // Two glyphs: the second is no column.
            b"[Variant \"C'escacs\"]\n\n1. PPE7-E13:\n*\n",
            // A glyph after a dash.
            b"[Variant \"C'escacs\"]\n\n1. E5-PE7:\n*\n",
            // A pawn's glyph before a forced promotion, a pawn promoted to
            // a pawn (in letters, and in figurines).
            b"[Variant \"C'escacs\"]\n\n1. PE7=G:\n*\n",
            b"[Variant \"C'escacs\"]\n\n1. T14-A7=PD:\n*\n",
            "[Variant \"C'escacs\"]\n[Redefine \"FAN\"]\n\n1. T14-A7=\u{2659}D:\n*\n".as_bytes(),
            // A rating before any move, two ratings, a comment inside a move.
            b"[Variant \"C'escacs\"]\n\n1. ! E7-E13:\n*\n",
            b"[Variant \"C'escacs\"]\n\n1. E7-E13 ! ?:\n*\n",
            b"[Variant \"C'escacs\"]\n\n1. E7{ c }-E13:\n*\n",
            // A byte that is not UTF-8 in a comment, and on the next game's
            // first line (that game's fault, not this one's).
            b"[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n{ \x80 }\n",
            b"[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n[Variant \"C'escacs\"] [Event \"\xFF\"]\n1. E7-E13:\n*\n",
            // A tag-like line inside a comment ends the game.
            b"[Variant \"C'escacs\"]\n\n1. E7-E13 { a\n[see \"x\"] } E21-E15:\n*\n",
            // After blanks, a blank line, or in a variation, too.
            b"[Variant \"C'escacs\"]\n\n1. E7-E13 { a\n\n  [see \"x\"] } E21-E15:\n*\n",
            b"[Variant \"C'escacs\"]\n\n1. E7-E13 (1. E5-E9\n[see \"x\"]) E21-E15:\n*\n",
            // A piece in a PDTL that is no standard letter, on the board
            // and among the castling rights: copied as it stands, and left
            // to the reader by the check.
            b"[Variant \"C'escacs\"]\n[PDTL \"/1:XK/0:V/ w - - 0 1\"]\n\n1. V0-P1:\n*\n",
            b"[Variant \"C'escacs\"]\n[PDTL \"/1:DK/0:V/ w X - 0 1\"]\n\n1. V0-P1:\n*\n",
            // A missing end marker, a result the Result tag denies.
            b"[Variant \"C'escacs\"]\n\n1. E7-E13\n*\n",
            b"[Variant \"C'escacs\"]\n[Result \"3-0\"]\n\n1. E7-E13:\n0-3\n",
        ];
        for game in games {
            let input = [game, next].concat();
            let [fast, read] = both_ways(&input);
            let text = String::from_utf8_lossy(game);
            assert!(fast == read, "{text}");
            assert!(!read.1.is_empty(), "nothing reported: {text}");
        }
    }
}
