//! The reader's fast path: lines (or their first part) made only of plain
//! move pairs, `N. WHITE, BLACK`, read without the logos lexer.
//!
//! [`scan_plain_line`] accepts only what the token path reads the same way,
//! move for move, and reports nothing about; anything else (and anything
//! wrong) is left to the lexer and the reader, which then read the line as
//! before. It hands on the half-moves, or (when the chain is the built-in
//! one) writes their canonical text itself. The tests below check both
//! against the lexer, [`parse_move`](super::parse_move), the passes and the
//! writer on the corpus and generated games.

use super::{meaning, PIECE_OF};
use crate::hex::Hex;
use crate::model::{
    decode_figurine, Action, Check, Dash, Glyph, HalfMove, Outcome, Rating, Sep, Side,
};
use crate::redefine::RedefineMap;

/// Where [`scan_plain_line`] puts the half-moves it reads.
pub(crate) trait PlainOut {
    /// `true`: the line's canonical text, laid out as the writer lays out
    /// the main line, is made (see [`CanonicalText`]), and no half-move is
    /// handed on; a move whose glyph the passes would report ends the scan.
    /// `false`: each half-move goes to [`PlainOut::half_move`].
    const TEXT: bool;

    /// With `TEXT`: the text runs on from byte `at` of the line.
    fn start(&mut self, at: usize);

    /// With `TEXT`: the line's bytes up to `from` are canonical as they
    /// stand; `from..to` is written `with`.
    fn patch(&mut self, line: &[u8], from: usize, to: usize, with: &[u8]);

    /// With `TEXT`: what follows `mv` is written as the writer writes it,
    /// instead of the line's bytes `from..to`.
    fn annotations(&mut self, line: &[u8], from: usize, to: usize, mv: &HalfMove);

    /// Without `TEXT`: a half-move read at byte offset `off`.
    fn half_move(&mut self, off: usize, mv: HalfMove);

    /// What has been put so far, for [`PlainOut::restore`].
    fn checkpoint(&self) -> (usize, usize);

    /// Forgets what was put after `checkpoint`.
    fn restore(&mut self, checkpoint: (usize, usize));
}

/// The canonical text of what was read: what the built-in passes and the
/// writer would make of the same half-moves. Made by copying the line's
/// bytes in runs and writing only what differs, so a line that is
/// canonical already costs one copy.
pub(crate) struct CanonicalText<'a> {
    text: &'a mut Vec<u8>,
    keep_ratings: bool,
    /// The line's bytes from here on are not in `text` yet.
    copied: usize,
}

impl<'a> CanonicalText<'a> {
    pub fn new(text: &'a mut Vec<u8>, keep_ratings: bool) -> Self {
        CanonicalText {
            text,
            keep_ratings,
            copied: 0,
        }
    }
}

impl PlainOut for CanonicalText<'_> {
    const TEXT: bool = true;

    #[inline(always)]
    fn start(&mut self, at: usize) {
        self.copied = at;
    }

    #[inline]
    fn patch(&mut self, line: &[u8], from: usize, to: usize, with: &[u8]) {
        self.text.extend_from_slice(&line[self.copied..from]);
        self.text.extend_from_slice(with);
        self.copied = to;
    }

    fn annotations(&mut self, line: &[u8], from: usize, to: usize, mv: &HalfMove) {
        self.patch(line, from, to, b"");
        let mut mv = *mv;
        if !self.keep_ratings {
            mv.rating = None;
            mv.nag_count = 0;
        }
        mv.write_annotations(self.text);
        mv.write_indicators(self.text);
    }

    fn half_move(&mut self, _: usize, _: HalfMove) {
        unreachable!("text mode hands no half-move on")
    }

    #[inline]
    fn checkpoint(&self) -> (usize, usize) {
        (self.text.len(), self.copied)
    }

    #[inline]
    fn restore(&mut self, (len, copied): (usize, usize)) {
        self.text.truncate(len);
        self.copied = copied;
    }
}

/// The half-moves read, each with its byte offset in the line.
#[derive(Debug, Default)]
pub(crate) struct HalfMoves(pub Vec<(usize, HalfMove)>);

impl PlainOut for HalfMoves {
    const TEXT: bool = false;

    fn start(&mut self, _: usize) {}

    fn patch(&mut self, _: &[u8], _: usize, _: usize, _: &[u8]) {}

    fn annotations(&mut self, _: &[u8], _: usize, _: usize, _: &HalfMove) {}

    #[inline]
    fn half_move(&mut self, off: usize, mv: HalfMove) {
        self.0.push((off, mv));
    }

    fn checkpoint(&self) -> (usize, usize) {
        (self.0.len(), 0)
    }

    fn restore(&mut self, (len, _): (usize, usize)) {
        self.0.truncate(len);
    }
}

/// What [`scan_plain_line`] read, as far as the game's bookkeeping goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlainRun {
    /// Where the scan stopped: the line's end, a comment or variation, or
    /// a move number whose pair (or result) it leaves to the lexer.
    pub end: usize,
    /// Half-moves read (at least one).
    pub half_moves: u32,
    /// The number of the last pair read.
    pub number: u32,
    /// The last half-move is White's: Black's move of that pair is due.
    pub white_last: bool,
    /// Byte offset of the last half-move.
    pub last_off: usize,
    /// The last half-move ends the game (`:` or mate).
    pub ends: bool,
    /// The last half-move mates.
    pub mate: bool,
    /// Ratings and NAGs read.
    pub ratings: u32,
    /// The result that ends the line, if one does.
    pub result: Option<Outcome>,
}

/// Is `b` where a token may end after a move or rating?
#[inline]
fn ends_token(b: Option<&u8>) -> bool {
    matches!(b, None | Some(b' ' | b'\t' | b',' | b':'))
}

/// Where the blanks (spaces, tabs) from `i` on end.
#[inline]
pub(crate) fn skip_blanks(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    i
}

/// A byte of a tag's name, as the lexer's `Tag` token reads one.
#[inline(always)]
pub(crate) fn is_tag_name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The decimal number written at `i` (no digit reads as 0) and how many
/// digits it has; `None` past `max_digits` digits (at most 9, so that the
/// number fits: the count is checked before a digit is taken).
#[inline]
pub(crate) fn decimal_at(b: &[u8], i: usize, max_digits: usize) -> Option<(u32, usize)> {
    debug_assert!(max_digits <= 9);
    let mut n = 0u32;
    let mut len = 0;
    while let Some(d) = b.get(i + len).filter(|d| d.is_ascii_digit()) {
        if len == max_digits {
            return None;
        }
        n = n * 10 + u32::from(d - b'0');
        len += 1;
    }
    Some((n, len))
}

/// A piece glyph at `i`, as [`parse_move`] reads one: a piece letter
/// (standard or alternative) followed by a letter, or a figurine, with its
/// byte length. `Ok(None)` when `i` starts a hex; `Err` for what the token
/// path must read (and report).
#[inline]
fn plain_glyph(b: &[u8], i: usize) -> Result<Option<(Glyph, usize)>, ()> {
    match b.get(i) {
        Some(&c) if c.is_ascii_uppercase() => {
            if !b.get(i + 1).is_some_and(u8::is_ascii_alphabetic) {
                Ok(None)
            } else if PIECE_OF[(c - b'A') as usize] == 0 {
                Err(())
            } else {
                Ok(Some((Glyph::letter(c), 1)))
            }
        }
        Some(&c) if c >= 0x80 => match decode_figurine(&b[i..]) {
            Some((letter, side, n)) => Ok(Some((
                Glyph {
                    letter,
                    fan: Some(side),
                },
                n,
            ))),
            None => Err(()),
        },
        _ => Ok(None),
    }
}

/// The standard letter the passes make of `g` without a diagnostic, if
/// they do (undo Redefine, figurines to letters).
#[inline]
fn canonical_letter(g: Glyph, map: &RedefineMap) -> Option<u8> {
    match g.fan {
        Some(_) => map.fan().then_some(g.letter),
        None => map.resolve_piece(g.letter),
    }
}

/// With `O::TEXT`: the glyph of `n` bytes at `i` is written `letter`.
#[inline(always)]
fn patch_glyph<O: PlainOut>(b: &[u8], i: usize, n: usize, letter: u8, out: &mut O) {
    if n != 1 || b[i] != letter {
        out.patch(b, i, i + n, &[letter]);
    }
}

/// A hex at `i` (upper-case column, one or two digits, on the board; a
/// line written with a leading zero is left to the lexer).
#[inline(always)]
fn plain_hex(b: &[u8], i: usize) -> Option<(Hex, usize)> {
    let d1 = b.get(i + 1)?.wrapping_sub(b'0');
    if d1 > 9 {
        return None;
    }
    let d2 = b.get(i + 2).map_or(10, |d| d.wrapping_sub(b'0'));
    let (line, n) = if d2 <= 9 {
        if d1 == 0 || b.get(i + 3).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        (d1 * 10 + d2, 3)
    } else {
        (d1, 2)
    };
    Hex::on_board(b[i], line).map(|h| (h, n))
}

/// Reads a plain move at `i`: the common shapes only (piece glyphs, any
/// accepted dash, `×` or `*`, `@`, `@@`, promotion, check); castling and
/// forced promotions are left to the lexer. With `O::TEXT`, patches what
/// the built-in passes would write otherwise (glyphs, dashes, `×`, `^+`),
/// or gives up (`None`) on a glyph the passes would report.
/// Returns the move, its check and where it ends.
#[inline(always)]
fn plain_move<O: PlainOut>(
    b: &[u8],
    mut i: usize,
    map: &RedefineMap,
    out: &mut O,
) -> Option<(Action, Option<Check>, usize)> {
    let mut piece = None;
    if let Some((g, n)) = plain_glyph(b, i).ok()? {
        if meaning(g) != b'P' {
            piece = Some(g);
            if O::TEXT {
                patch_glyph(b, i, n, canonical_letter(g, map)?, out);
            }
        } else if O::TEXT {
            // A pawn's letter is not written.
            out.patch(b, i, i + n, b"");
        }
        i += n;
    }
    let (from, n) = plain_hex(b, i)?;
    i += n;
    let (sep, n) = match b.get(i)? {
        b'*' => (Sep::Capture { times: false }, 1),
        b'@' if b.get(i + 1) == Some(&b'@') => (Sep::AtAt, 2),
        b'@' => (Sep::At, 1),
        0xC3 if b.get(i + 1) == Some(&0x97) => (Sep::Capture { times: true }, 2),
        _ => {
            let (dash, n) = dash_at(b, i)?;
            (Sep::Move(dash), n)
        }
    };
    if O::TEXT {
        match sep {
            Sep::Move(d) if d != Dash::ASCII => out.patch(b, i, i + n, b"-"),
            Sep::Capture { times: true } => out.patch(b, i, i + n, b"*"),
            _ => {}
        }
    }
    i += n;
    let mut captured = None;
    if let Some((g, n)) = plain_glyph(b, i).ok()? {
        if matches!(sep, Sep::Move(_)) {
            return None;
        }
        if meaning(g) != b'P' {
            captured = Some(g);
            if O::TEXT {
                patch_glyph(b, i, n, canonical_letter(g, map)?, out);
            }
        } else if O::TEXT {
            out.patch(b, i, i + n, b"");
        }
        i += n;
    }
    let (to, n) = plain_hex(b, i)?;
    if to == from {
        return None;
    }
    i += n;
    let mut promotion = None;
    if b.get(i) == Some(&b'=') {
        if b.get(i + 1) == Some(&b'&') {
            promotion = Some(None);
            i += 2;
        } else {
            let (g, n) = match b.get(i + 1) {
                Some(&c) if c.is_ascii_uppercase() && PIECE_OF[(c - b'A') as usize] != 0 => {
                    (Glyph::letter(c), 1)
                }
                Some(&c) if c >= 0x80 => {
                    let (letter, side, n) = decode_figurine(&b[i + 1..])?;
                    (
                        Glyph {
                            letter,
                            fan: Some(side),
                        },
                        n,
                    )
                }
                _ => return None,
            };
            if matches!(meaning(g), b'P' | b'K') {
                return None;
            }
            promotion = Some(Some(g));
            if O::TEXT {
                patch_glyph(b, i + 1, n, canonical_letter(g, map)?, out);
            }
            i += 1 + n;
        }
    }
    let (check, n) = match (b.get(i), b.get(i + 1)) {
        (Some(b'+'), Some(b'+')) => (Some(Check::Double), 2),
        (Some(b'+'), Some(b'^')) => (Some(Check::Adjoining), 2),
        (Some(b'^'), Some(b'+')) => (Some(Check::Adjoining), 2),
        (Some(b'+'), Some(0xE2)) if b.get(i + 2..i + 4) == Some(&[0x88, 0x9E]) => {
            (Some(Check::Afar), 4)
        }
        (Some(b'+'), _) => (Some(Check::Check), 1),
        (Some(b'#'), _) => (Some(Check::Mate), 1),
        _ => (None, 0),
    };
    if O::TEXT && b.get(i) == Some(&b'^') {
        out.patch(b, i, i + n, b"+^");
    }
    i += n;
    let action = Action::Move {
        piece,
        from,
        sep,
        captured,
        to,
        promotion,
    };
    Some((action, check, i))
}

/// Reads a rating at `i` (with its length), if one is there.
#[inline]
fn plain_rating(b: &[u8], i: usize) -> Option<(Rating, usize)> {
    let two = |c| b.get(i + 1) == Some(&c);
    Some(match b.get(i)? {
        b'?' if two(b'?') => (Rating::Blunder, 2),
        b'?' if two(b'!') => (Rating::Dubious, 2),
        b'?' => (Rating::Mistake, 1),
        b'!' if two(b'!') => (Rating::Brilliant, 2),
        b'!' if two(b'?') => (Rating::Interesting, 2),
        b'!' => (Rating::Good, 1),
        0xE2 if b.get(i + 1..i + 3) == Some(&[0x97, 0x87]) => (Rating::Forced, 3),
        _ => return None,
    })
}

/// A dash of CTL-AN at `i` (`-`, U+2010 to U+2014, U+2212), with its
/// byte length.
#[inline(always)]
pub(crate) fn dash_at(b: &[u8], i: usize) -> Option<(Dash, usize)> {
    match (b.get(i)?, b.get(i + 1), b.get(i + 2)) {
        (b'-', _, _) => Some((Dash::ASCII, 1)),
        (0xE2, Some(0x80), Some(&c @ 0x90..=0x94)) => {
            let dash = char::from_u32(0x2010 + u32::from(c - 0x90))?;
            Some((Dash(dash), 3))
        }
        (0xE2, Some(0x88), Some(0x92)) => Some((Dash('\u{2212}'), 3)),
        _ => None,
    }
}

/// Reads a result (`3-0` ... `1-1`, any accepted dash, or `*`) at `i`
/// that ends the line.
fn plain_result(b: &[u8], i: usize) -> Option<Outcome> {
    let rest = &b[i..];
    if rest == b"*" {
        return Some(Outcome::Unfinished);
    }
    let (_, n) = dash_at(rest, 1)?;
    let (&a, &c) = (rest.first()?, rest.get(1 + n)?);
    if rest.len() != n + 2 {
        return None;
    }
    Some(match (a, c) {
        (b'3', b'0') => Outcome::WhiteWins,
        (b'2', b'1') => Outcome::WhiteStalemates,
        (b'0', b'3') => Outcome::BlackWins,
        (b'1', b'2') => Outcome::BlackStalemates,
        (b'1', b'1') => Outcome::Draw,
        _ => return None,
    })
}

/// Is a comment or a variation (not `(=)`) at `i`? The plain path stops
/// there and leaves the rest of the line to the lexer; the express path's
/// pair reader lets one follow a pair.
#[inline]
pub(crate) fn opens_aside(b: &[u8], i: usize) -> bool {
    match b.get(i) {
        Some(b'{') => true,
        Some(b'(') => b.get(i + 1..i + 3) != Some(b"=)"),
        _ => false,
    }
}

/// Reads move pairs `N. WHITE, BLACK` from byte `start` of a line, numbered
/// from `first` on (any number from 1 when `None`): the last pair may lack
/// Black's move; ratings, NAGs, `(=)` and `:` may follow a move; a result
/// may end the line. Reads up to the end of the line, or up to a comment or
/// variation that follows a move (its annotations read), and returns what
/// it read. `None`, with `out` in no particular state, for anything else,
/// or for anything the lexer and the reader would report: the caller then
/// reads from `start` token by token, and reads it the same way, move for
/// move.
///
/// With `O::TEXT` the text is laid out as the writer lays out the main
/// line: a pair a line, a last pair without Black's move left open.
pub(crate) fn scan_plain_line<O: PlainOut>(
    line: &[u8],
    start: usize,
    first: Option<u32>,
    map: &RedefineMap,
    out: &mut O,
) -> Option<PlainRun> {
    let mut b = line;
    while let [rest @ .., b' ' | b'\t'] = b {
        b = rest;
    }
    let mut run = PlainRun::default();
    let mut i = skip_blanks(b, start);
    out.start(i);
    // Where the text read so far ends.
    let mut done = i;
    let mut expected = first;
    // Only a result may follow White's move without Black's, or the end.
    let mut closed = false;
    while i < b.len() {
        if closed {
            run.result = Some(plain_result(b, i)?);
            break;
        }
        if run.half_moves > 0 && opens_aside(b, i) {
            break;
        }
        // `N.`; the reader reports numbers past 99,999.
        let from = i;
        let (n, digits) = decimal_at(b, i, 5)?;
        i += digits;
        if b.get(i) != Some(&b'.') || b.get(i + 1) == Some(&b'.') || n == 0 || b[from] == b'0' {
            // A result, or `12...`, `12?`, `01.` and the like for the lexer.
            if run.half_moves == 0 {
                return None;
            }
            run.result = Some(plain_result(b, from)?);
            break;
        }
        // The pairs read so far stand even if this one is not plain (a
        // castling, say): the lexer reads the line on from its number,
        // which ends the move before it as the scan does.
        let before = (run, out.checkpoint());
        match pair(b, i + 1, n, &mut expected, map, out, &mut run) {
            Some((PairEnd::Black, next)) => {
                (done, i) = (next, next);
                closed = run.ends;
            }
            Some((PairEnd::White(moved), next)) => {
                (done, i) = (moved, next);
                if run.ends {
                    closed = true;
                } else if opens_aside(b, i) {
                    break;
                } else {
                    closed = i < b.len();
                }
            }
            None if before.0.half_moves > 0 => {
                run = before.0;
                out.restore(before.1);
                run.end = from;
                return Some(run);
            }
            None => return None,
        }
    }
    if run.half_moves == 0 {
        return None;
    }
    if O::TEXT {
        out.patch(b, done, done, b"");
    }
    run.end = if i < b.len() && !closed && run.result.is_none() {
        i
    } else {
        line.len()
    };
    Some(run)
}

/// How [`pair`] ended.
enum PairEnd {
    /// With Black's move, read and laid out.
    Black,
    /// With White's move (which ends at the offset given), not followed
    /// by a comma.
    White(usize),
}

/// Reads the moves of pair `n` from `dot`, just after its `N.`: how the
/// pair ends, and where the blanks after it end.
#[inline(always)]
fn pair<O: PlainOut>(
    b: &[u8],
    dot: usize,
    n: u32,
    expected: &mut Option<u32>,
    map: &RedefineMap,
    out: &mut O,
    run: &mut PlainRun,
) -> Option<(PairEnd, usize)> {
    if expected.is_some_and(|e| e != n) {
        return None;
    }
    *expected = Some(n + 1);
    run.number = n;
    let white = skip_blanks(b, dot);
    if O::TEXT && !(white == dot + 1 && b[dot] == b' ') {
        out.patch(b, dot, white, b" ");
    }
    let (moved, next) = half_move(b, white, n, Side::White, map, out, run)?;
    if run.ends || b.get(next) != Some(&b',') {
        return Some((PairEnd::White(moved), next));
    }
    let black = skip_blanks(b, next + 1);
    if O::TEXT && !(black == moved + 2 && b[moved] == b',' && b[moved + 1] == b' ') {
        out.patch(b, moved, black, b", ");
    }
    let (moved, next) = half_move(b, black, n, Side::Black, map, out, run)?;
    if O::TEXT {
        out.patch(b, moved, next, b"\n");
    }
    Some((PairEnd::Black, next))
}

/// Reads the half-move of `side` at `i`, with what follows it (a rating,
/// NAGs, `(=)`, `:`), into `out` and `run`; returns where these end, and
/// where the blanks after them end.
#[inline(always)]
fn half_move<O: PlainOut>(
    b: &[u8],
    i: usize,
    number: u32,
    side: Side,
    map: &RedefineMap,
    out: &mut O,
    run: &mut PlainRun,
) -> Option<(usize, usize)> {
    let off = i;
    let (action, check, moved) = plain_move(b, i, map, out)?;
    // What follows the move, in locals: the text path builds a whole
    // HalfMove only for the rare move whose annotations it rewrites.
    let Annotations {
        rating,
        nags,
        nag_count,
        draw_offer,
        end,
        end_at: i,
        after,
    } = annotations(b, moved, ends_token)?;
    if !ends_token(b.get(i)) && !opens_aside(b, i) {
        return None;
    }
    run.half_moves += 1;
    run.ratings += u32::from(rating.is_some()) + nag_count as u32;
    run.white_last = side == Side::White;
    run.last_off = off;
    run.mate = check == Some(Check::Mate);
    run.ends = end || run.mate;
    let annotated = i > moved && !(i == moved + 1 && b[moved] == b':');
    if !O::TEXT || annotated {
        let mv = HalfMove {
            rating,
            nags,
            nag_count: nag_count as u8,
            draw_offer,
            end,
            ..HalfMove::new(number, side, action, check)
        };
        if O::TEXT {
            out.annotations(b, moved, i, &mv);
        } else {
            out.half_move(off, mv);
        }
    }
    Some((i, after))
}

/// What follows a move, as the reader attaches it to the move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Annotations {
    pub rating: Option<Rating>,
    pub nags: [u8; HalfMove::MAX_NAGS],
    pub nag_count: usize,
    /// `(=)`.
    pub draw_offer: bool,
    /// `:`.
    pub end: bool,
    /// Where they end.
    pub end_at: usize,
    /// Where the blanks after them end.
    pub after: usize,
}

/// Where the blanks after the move that ends at `moved` end, if no
/// annotation follows it by the look of the next two bytes (a comma, a
/// line end, or a blank and a letter or digit): the common case, read at
/// a glance. `None` says nothing: [`annotations`] reads on.
#[inline(always)]
pub(crate) fn nothing_follows(b: &[u8], moved: usize) -> Option<usize> {
    match b.get(moved..moved + 2)? {
        [b',' | b'\n', _] => Some(moved),
        [b' ', c] if c.is_ascii_alphanumeric() => Some(moved + 1),
        _ => None,
    }
}

/// Reads what follows the move that ends at `moved`: blanks, then a
/// rating, NAGs, `(=)`, `:`, in the order and number the reader takes
/// them, each where `ends_token` says a token may end (the line scanner's
/// notion and the express path's, which spans lines, differ). `None`
/// where the reader would read them otherwise or report them. Whether
/// what comes after them may come there is the caller's to say.
#[inline(always)]
pub(crate) fn annotations(
    b: &[u8],
    moved: usize,
    ends_token: impl Fn(Option<&u8>) -> bool,
) -> Option<Annotations> {
    let mut a = Annotations {
        rating: None,
        nags: [0; HalfMove::MAX_NAGS],
        nag_count: 0,
        draw_offer: false,
        end: false,
        end_at: moved,
        after: moved,
    };
    if let Some(after) = nothing_follows(b, moved) {
        return Some(Annotations { after, ..a });
    }
    let mut i = moved;
    a.after = loop {
        let j = skip_blanks(b, i);
        match b.get(j) {
            Some(b'?' | b'!' | 0xE2) if a.rating.is_none() && a.nag_count == 0 => {
                let (r, n) = plain_rating(b, j)?;
                a.rating = Some(r);
                i = j + n;
            }
            Some(b'$') if b.get(j + 1).is_some_and(u8::is_ascii_digit) => {
                let (v, digits) = decimal_at(b, j + 1, 3)?;
                if v > 255 || a.nag_count == HalfMove::MAX_NAGS {
                    return None;
                }
                a.nags[a.nag_count] = v as u8;
                a.nag_count += 1;
                i = j + 1 + digits;
            }
            Some(b'(') if !a.draw_offer && b.get(j + 1..j + 3) == Some(b"=)") => {
                a.draw_offer = true;
                i = j + 3;
            }
            Some(b':') => {
                a.end = true;
                i = j + 1;
                break skip_blanks(b, i);
            }
            _ => break j,
        }
        if !ends_token(b.get(i)) && !matches!(b.get(i), Some(b'$' | b'(' | b'?' | b'!' | b'{')) {
            return None;
        }
    };
    a.end_at = i;
    Some(a)
}

/// The benchmark corpus generator, for the tests.
#[cfg(test)]
#[path = "../../examples/support/corpus.rs"]
pub(crate) mod test_corpus;

#[cfg(test)]
mod tests {
    use super::test_corpus as corpus;
    use super::*;
    use crate::lexer::{parse_move, Token};
    use crate::model::{HalfMove, Side};
    use logos::Logos;

    #[test]
    fn a_number_past_its_digits_is_none_however_long() {
        assert_eq!(decimal_at(b"99999.", 0, 5), Some((99_999, 5)));
        assert_eq!(decimal_at(b"999999.", 0, 5), None);
        assert_eq!(decimal_at(b"999999999", 0, 9), Some((999_999_999, 9)));
        assert_eq!(decimal_at(&[b'9'; 40], 0, 9), None);
        assert_eq!(decimal_at(b"x", 0, 9), Some((0, 0)));
    }

    /// What the token path makes of `line[start..end]`: its half-moves with
    /// their annotations and offsets, and the result. `None` if a token is
    /// one the plain path should never have accepted.
    fn token_path(line: &[u8], start: usize, end: usize) -> Option<(HalfMoves, Option<Outcome>)> {
        let mut moves = HalfMoves::default();
        let mut result = None;
        let (mut number, mut side) = (0, Side::White);
        let mut lx = Token::lexer(&line[start..end]);
        while let Some(tok) = lx.next() {
            let slice = lx.slice();
            let off = start + lx.span().start;
            match tok.ok()? {
                Token::Number => {
                    number = std::str::from_utf8(&slice[..slice.len() - 1])
                        .ok()?
                        .parse()
                        .ok()?;
                    side = Side::White;
                }
                Token::Comma => {}
                Token::Move => {
                    let (action, check) = parse_move(slice).ok()?;
                    moves
                        .0
                        .push((off, HalfMove::new(number, side, action, check)));
                    side = Side::Black;
                }
                Token::Rating => moves.0.last_mut()?.1.rating = Rating::parse(slice),
                Token::Nag => {
                    let m = &mut moves.0.last_mut()?.1;
                    m.nags[m.nag_count as usize] =
                        std::str::from_utf8(&slice[1..]).ok()?.parse().ok()?;
                    m.nag_count += 1;
                }
                Token::DrawOffer => moves.0.last_mut()?.1.draw_offer = true,
                Token::EndMarker => moves.0.last_mut()?.1.end = true,
                Token::Result | Token::Unfinished => {
                    result = Some(Outcome::parse(std::str::from_utf8(slice).ok()?)?)
                }
                _ => return None,
            }
        }
        Some((moves, result))
    }

    /// Whatever the plain path accepts, the token path reads the same way;
    /// its text is what the built-in passes and the writer make of those
    /// half-moves, and it stops before a pair where the passes would
    /// report a glyph (giving up if that is the first).
    fn check_plain(line: &[u8], maps: &[RedefineMap]) -> bool {
        use crate::pass::Pass;
        use crate::passes::{AsciiSeparators, DropRatings, FanToLetters, UndoRedefine};
        use crate::writer::{Format, Writer};
        let mut accepted = false;
        for map in maps {
            let mut read = HalfMoves::default();
            let Some(run) = scan_plain_line(line, 0, None, map, &mut read) else {
                continue;
            };
            accepted = true;
            let text = String::from_utf8_lossy(line);
            let (moves, result) = token_path(line, 0, run.end)
                .unwrap_or_else(|| panic!("the token path reads otherwise: {text}"));
            assert_eq!(result, run.result, "{text}");
            assert_eq!(moves.0, read.0, "{text}");
            assert_eq!(run.half_moves as usize, moves.0.len(), "{text}");
            for keep_ratings in [false, true] {
                let mut canonical = Vec::new();
                let mut out = CanonicalText::new(&mut canonical, keep_ratings);
                let text_run = scan_plain_line(line, 0, None, map, &mut out);
                let taken = text_run.map_or(0, |r| r.half_moves as usize);
                let mut cx = crate::pass::Context {
                    redefine: *map,
                    ..Default::default()
                };
                let mut writer = Writer::new(Format::CtlPgn);
                let mut reported_at = None;
                for (k, (_, mv)) in moves.0.iter().enumerate() {
                    let mut mv = *mv;
                    UndoRedefine.half_move(&mut mv, &mut cx);
                    FanToLetters::default().half_move(&mut mv, &mut cx);
                    if !keep_ratings {
                        DropRatings.half_move(&mut mv, &mut cx);
                    }
                    AsciiSeparators.half_move(&mut mv, &mut cx);
                    if !cx.diagnostics.is_empty() {
                        reported_at.get_or_insert(k);
                    }
                    if k < taken {
                        writer.half_move(&mv, 0);
                    }
                }
                match reported_at {
                    // Stopped at the pair of the first reported move.
                    Some(k) => assert_eq!(taken, k - k % 2, "{text}"),
                    None => assert_eq!(text_run, Some(run), "{text}"),
                }
                if text_run.is_none() {
                    continue; // `out` is in no particular state
                }
                assert_eq!(
                    String::from_utf8_lossy(&canonical),
                    String::from_utf8_lossy(writer.body()),
                    "{text}"
                );
            }
        }
        accepted
    }

    fn maps() -> Vec<RedefineMap> {
        let mut v = vec![RedefineMap::default()];
        for value in ["FAN", "A@J, C@N, T@R", "B@J, Q@D, W@V"] {
            let mut m = RedefineMap::default();
            m.merge(value).unwrap();
            v.push(m);
        }
        v
    }

    #[test]
    fn plain_lines_read_as_the_token_path_reads_them() {
        let maps = maps();
        let mut accepted = 0;
        let mut input = corpus::generate_vec(300_000, 5, false);
        input.extend(corpus::generate_vec(100_000, 6, true));
        for entry in std::fs::read_dir("corpus").unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "ctl-pgn") {
                input.extend(std::fs::read(path).unwrap());
            }
        }
        for line in input.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            accepted += usize::from(check_plain(line, &maps));
        }
        assert!(accepted > 3000, "{accepted}");
    }

    /// A pair the scan cannot read (a castling, a forced promotion, a
    /// number out of sequence) ends the run at its number: the pairs before
    /// it stand, and the lexer reads on from there.
    #[test]
    fn a_pair_not_plain_is_left_to_the_lexer_from_its_number() {
        let map = RedefineMap::default();
        for (line, pairs, number) in [
            ("1. E7-E13, E21-E15 2. KRK-II, E15-E13", 1, "2."),
            ("1. E7-E13, E21-E15 2. F8-F12, KRD-DD", 1, "2."),
            ("1. E7-E13, E21-E15 2. F8-F12, F20-F16 3. B24=D", 2, "3."),
            ("1. E7-E13, E21-E15 5. F8-F12, F20-F16", 1, "5."),
        ] {
            let mut out = Vec::new();
            let run = scan_plain_line(
                line.as_bytes(),
                0,
                None,
                &map,
                &mut CanonicalText::new(&mut out, false),
            )
            .unwrap_or_else(|| panic!("{line}"));
            let cut = line.find(number).unwrap();
            assert_eq!(
                (run.end, run.half_moves, run.white_last),
                (cut, 2 * pairs, false),
                "{line}"
            );
            assert_eq!(
                out.iter().filter(|&&c| c == b'\n').count(),
                pairs as usize,
                "{line}"
            );
        }
        // Where what follows is no `N.`, nothing is cut: a `:` there would
        // end the move before it in the token path.
        let line = b"1. E7-E13, E21-E15 2:";
        assert_eq!(
            scan_plain_line(line, 0, None, &map, &mut HalfMoves::default()),
            None
        );
    }

    #[test]
    fn plain_lines_of_every_kind() {
        let maps = maps();
        for line in [
            "1. E7-E13, E21-E15",
            "12. EE5-E11 ?!, G21\u{2010}G15 !! 13. JF6\u{d7}C15+, GH26*Z11 $14 $2",
            "3. G7-E13: *",
            "4. K4-K10 ?!(=):",
            "5. PE7-E13, F12@@G9+^ 6. C11@D14^+, B22-B24=D++",
            "7. A21-A23=&, EF12\u{d7}NF14+\u{221e} 3-0",
            "8. \u{2616}E5-E11, \u{1fa53}G25-L17",
            "9. AF6-C15, CE25-D20",
            "10. TC3-A5, TC25\u{d7}RA23",
            "  11.  E7-E13 ,  E21-E15  ",
            "1. E7-E13 { comment } 1. ..., E21-E15",
            "1. E7-E13, E21-E15 (2. F8-F12)",
            "6. K4-K10 ??, GL5-H6#",
            "6. K4-K10, GL5-H6# 0\u{2010}3",
            "7. B22-B24=\u{2655}+, \u{265b}E27\u{d7}\u{2655}B24",
            "1. E7-E13, E21-E15 2. KRK-II, KRD-DD",
            "1. E7-E13, E21-E15 2. B24=D",
            "1. E7-E13, E21-E15 3. E13-E15, E15-E17",
        ] {
            assert!(check_plain(line.as_bytes(), &maps), "not plain: {line}");
        }
        for line in [
            "1. E7-E13 2. F8-F12",
            "1. E7-E13 E21-E15",
            "1. E7-E13x, E21-E15",
            "1. E13xF16",
            "1. e7-e13",
            "1. E7-E13:, E21-E15",
            "1. KRK-II, KRD-DD",
            "1. B24=D",
            "1. E7-E13 ?!!",
            "1. E7-E13 $300",
            "1... E7-E13",
            "1? ..., E21-E15",
            "1. E7-E13, E21-E15 1-0",
            "1. F1-F3",
            "1. E7-E7",
            "1. HE7-E9",
            "1. E7-E13-E15",
            "1. E7-E13, E21-E15 [Event \"x\"]",
            "1. E7\u{a0}-E13",
            "3-0",
            "",
        ] {
            assert!(!check_plain(line.as_bytes(), &maps), "plain: {line}");
        }
    }
}
