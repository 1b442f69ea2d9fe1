//! The one tokenizer of CTL-PGN: tags and movetext, over whole buffers of
//! lines. What crosses lines (a comment's text, a variation's depth) is
//! the reader's business: it takes over at `{` and at a dropped `(`.

use crate::diag::{invalid_utf8, DiagnosticKind, Message};
use logos::Logos;

/// Is `b` a blank between tokens? The tokenizer's own skip, stated once
/// more as a byte test for the reader's byte loops, and tied to the skip by
/// `a_blank_is_what_the_tokenizer_skips`.
#[inline(always)]
pub(crate) fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0B | 0x0C)
}

/// The length of the one blank `b` starts with: an ASCII one (as
/// [`is_blank`]), a no-break space, a byte order mark (which the tokenizer
/// leaves to the reader, so that its own skip stays ASCII).
#[inline]
pub(crate) fn blank_len(b: &[u8]) -> Option<usize> {
    match b {
        [c, ..] if is_blank(*c) => Some(1),
        [0xC2, 0xA0, ..] => Some(2),
        [0xEF, 0xBB, 0xBF, ..] => Some(3),
        _ => None,
    }
}

/// The length of the blanks `b` starts with, of every kind [`blank_len`]
/// knows.
pub(crate) fn blanks_len(b: &[u8]) -> usize {
    let mut i = 0;
    while let Some(n) = blank_len(&b[i..]) {
        i += n;
    }
    i
}

/// A token of CTL-PGN. Blanks are skipped (the ASCII ones: a no-break
/// space or a byte order mark is no token, and the reader skips it as
/// blank, so that the common ones cost the least); line ends are tokens,
/// so that the reader knows where each line starts.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(utf8 = false)]
// The blanks of `is_blank`.
#[logos(skip r"[ \t\r\x0B\x0C]+")]
#[logos(subpattern fig = r"♙|♟|☖|☗|♗|♝|♘|♞|🩐|🩓|♖|♜|🩏|🩒|♕|♛|♔|♚")]
#[logos(subpattern dash = r"-|‐|‑|‒|–|—|−")]
// A word: what stands where a half-move would (the `Word` token).
#[logos(subpattern word = r"([A-Za-z]|(?&fig))([A-Za-z0-9*@=&+^]|(?&dash)|×|∞|(?&fig))*#?")]
pub(crate) enum Token {
    /// `\n`
    #[token("\n")]
    LineEnd,
    /// `[Name "value"]`, escapes allowed in the value; a no-break space is
    /// a blank there too.
    #[regex(r#"\[[ \t\u{A0}]*[A-Za-z0-9_]+[ \t\u{A0}]*"([^"\\\n]|\\[^\n])*"[ \t\u{A0}]*\]"#)]
    Tag,
    /// `{`: the comment's text runs to the next `}`, whatever it holds.
    #[token("{")]
    CommentOpen,
    /// A `}` that closes nothing.
    #[token("}")]
    CommentClose,
    /// `(`
    #[token("(")]
    VariationOpen,
    /// `($[2]`: a variation with its label.
    #[regex(r"\([ \t\u{A0}]*\$\[[0-9]+\]")]
    LabeledVariationOpen,
    /// `)`
    #[token(")")]
    VariationClose,
    /// `(=)`: a draw offer, not a variation.
    #[token("(=)")]
    DrawOffer,
    /// `:`: the last move of the game.
    #[token(":")]
    EndMarker,
    /// `,` between White's move and Black's.
    #[token(",")]
    Comma,
    /// Leading dots of variation lines, or `...` standing for White's move.
    #[regex(r"\.+")]
    Dots,
    /// `…` standing for White's move.
    #[token("…")]
    Ellipsis,
    /// `12.`
    #[regex(r"[0-9]+\.")]
    Number,
    /// `12?`: an unknown start number.
    #[regex(r"[0-9]+\?")]
    UnknownNumber,
    /// `12...`: PGN's numbering of Black's moves.
    #[regex(r"[0-9]+\.\.+")]
    PgnNumber,
    /// `3-0` and the other digit-dash-digit results (any dash).
    #[regex(r"[0-9](?&dash)[0-9]")]
    Result,
    /// `1/2-1/2` or `½-½`: PGN's draw.
    #[regex(r"1/2(?&dash)1/2|½(?&dash)½")]
    PgnDraw,
    /// `*`: an unfinished game.
    #[token("*")]
    Unfinished,
    /// `?`, `??`, `?!`, `!`, `!!`, `!?`, `◇`
    #[regex(r"\?|\?\?|\?!|!|!!|!\?|◇")]
    Rating,
    /// `$12`
    #[regex(r"\$[0-9]+")]
    Nag,
    /// `$[1]` away from a variation's `(`.
    #[regex(r"\$\[[0-9]+\]")]
    Label,
    /// A half-move, or what stands where one would: a letter or figurine,
    /// then letters, digits, signs, dashes, `×`, `∞` and figurines, and
    /// `#` last: mate ends a word as it ends a game, so that `JF2#1.`, two
    /// files joined by `cat`, is a mate and the next game's first number.
    /// The move lexeme reads it ([`crate::grammar::half_move::read`]).
    #[regex(r"(?&word)")]
    Word,
}

impl Token {
    /// Does this token annotate the half-move before it on its line (a
    /// rating, a NAG, `(=)`, `:`)?
    #[inline]
    pub(crate) fn annotates(self) -> bool {
        matches!(
            self,
            Token::Rating | Token::Nag | Token::DrawOffer | Token::EndMarker
        )
    }
}

/// Can byte `c` stand in a tag's name? ASCII letters, digits and `_`, as
/// the `Tag` token's regular expression has it.
#[inline(always)]
pub(crate) fn is_tag_name_byte(c: u8) -> bool {
    TAG_NAME_BYTES[usize::from(c)]
}

/// The bytes of [`is_tag_name_byte`], as a table: a test per byte of a
/// name, not three comparisons.
const TAG_NAME_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_';
        c += 1;
    }
    t
};

/// The value of a number token (`12.`, `12?`, `12...`): its leading
/// digits, saturating.
pub(crate) fn number_value(slice: &[u8]) -> u32 {
    leading_number(slice).0
}

/// The move number `N.` that `b` starts with, as the tokenizer reads it
/// there (the `Number` token), when one blank follows it, as the writer
/// lays out a move line: its value and its length, the dot included; the
/// blank is not. What the reader looks for at the start of the line after
/// a move line, read in place (`a_number_then_a_blank_is_the_number_token`).
#[inline(always)]
pub(crate) fn number_then_blank(b: &[u8]) -> Option<(u32, usize)> {
    let (n, digits) = leading_number(b);
    (digits > 0 && b.get(digits) == Some(&b'.') && b.get(digits + 1) == Some(&b' '))
        .then_some((n, digits + 1))
}

/// The leading digits of `slice`: their value, saturating, and how many.
#[inline]
pub(crate) fn leading_number(slice: &[u8]) -> (u32, usize) {
    let mut n = 0u32;
    let mut i = 0;
    while let Some(d) = slice
        .get(i)
        .map(|d| d.wrapping_sub(b'0'))
        .filter(|&d| d < 10)
    {
        n = n.saturating_mul(10).saturating_add(u32::from(d));
        i += 1;
    }
    (n, i)
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

/// The largest variation label `$[n]`.
pub(crate) const MAX_LABEL: u32 = 99_999;

/// The label number of `($[2]` or `$[2]`, `None` past [`MAX_LABEL`].
pub(crate) fn label_value(slice: &[u8]) -> Option<u32> {
    let i = memchr::memchr(b'[', slice).map_or(slice.len(), |i| i + 1);
    Some(number_value(&slice[i..])).filter(|&n| n <= MAX_LABEL)
}

/// The tags that mean something to a reader, told by name: the one list
/// of them (`Variant` in any case, a fault the reader warns of; the PDTL
/// under either spelling the spec allows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TagMeaning {
    Variant,
    Redefine,
    Result,
    Pdtl,
}

impl TagMeaning {
    /// What the tag `name` means, if anything.
    #[inline]
    pub(crate) fn of(name: &[u8]) -> Option<TagMeaning> {
        // By length first: most names are none of these lengths.
        match name.len() {
            4 if matches!(name, b"PDTL" | b"DPTL") => Some(TagMeaning::Pdtl),
            6 if name == b"Result" => Some(TagMeaning::Result),
            7 if is_variant(name) => Some(TagMeaning::Variant),
            8 if name == b"Redefine" => Some(TagMeaning::Redefine),
            _ => None,
        }
    }
}

/// Is a tag name of seven bytes `Variant` in any case? Its bytes, lower
/// cased as one word: a tag name's bytes ([`is_tag_name_byte`]) that are
/// not letters stay apart from the letters so.
#[inline]
fn is_variant(name: &[u8]) -> bool {
    let mut word = [0u8; 8];
    word[..7].copy_from_slice(name);
    u64::from_le_bytes(word) | 0x0020_2020_2020_2020 == u64::from_le_bytes(*b"variant\0")
}

/// A `Tag` token's name and value (escapes kept as written).
pub(crate) fn tag_parts(slice: &[u8]) -> (&[u8], &[u8]) {
    // Tags are short: loops, not vectorised searches, are the quicker.
    let q1 = slice
        .iter()
        .position(|&c| c == b'"')
        .expect("a tag token holds quotes");
    let q2 = slice
        .iter()
        .rposition(|&c| c == b'"')
        .expect("a tag token holds quotes");
    (trim_blanks(&slice[1..q1]), &slice[q1 + 1..q2])
}

/// `b` without the blanks around it: ASCII ones and no-break spaces.
fn trim_blanks(mut b: &[u8]) -> &[u8] {
    loop {
        b = b.trim_ascii();
        if let Some(rest) = b.strip_prefix(NBSP) {
            b = rest;
        } else if let Some(rest) = b.strip_suffix(NBSP) {
            b = rest;
        } else {
            return b;
        }
    }
}

/// A no-break space, a blank wherever a space is.
const NBSP: &[u8] = "\u{A0}".as_bytes();

/// What is wrong with a tag that is no [`Token::Tag`], and where: `text`
/// starts at its `[` (at stream offset `offset`) and runs at least to its
/// line's end. Returns the byte of `text` to point at and the message: a
/// name missing or with a character names cannot hold, a value without
/// quotes or with typographic ones, a quote inside the value not escaped,
/// a value or tag not closed, bytes that are not UTF-8 (naming the
/// encoding they read as).
///
/// ```text
/// [White "Fran\xE7ois"]  → at the 0xE7: invalid UTF-8 ... Latin-1 ...
/// [Event "The "Big" one"] → at the second ": a quote inside a value is written \"
/// [White Kasparov]        → at the K: the value is not in quotes
/// [Event "x"              → at the line's end: ] is missing
/// ```
pub(crate) fn tag_fault(text: &[u8], offset: u64) -> (usize, Message) {
    let end = memchr::memchr(b'\n', text).unwrap_or(text.len());
    let line = text[..end].strip_suffix(b"\r").unwrap_or(&text[..end]);
    let tag = |text: String| Message::new(DiagnosticKind::TagSyntax, text);
    let blanks = |from: usize| {
        from + line[from..]
            .iter()
            .take_while(|&&c| c == b' ' || c == b'\t')
            .count()
    };
    // The first byte not UTF-8 from `from` on, if before `to`.
    let not_utf8 = |from: usize, to: usize| {
        std::str::from_utf8(&line[from..to])
            .err()
            .map(|e| from + e.valid_up_to())
    };
    let at_char = |i: usize| -> (usize, Message) {
        match std::str::from_utf8(&line[i..]).map_err(|e| e.valid_up_to()) {
            Err(0) => (i, invalid_utf8(line, i, offset + i as u64)),
            _ => {
                let c = String::from_utf8_lossy(&line[i..])
                    .chars()
                    .next()
                    .unwrap_or(' ');
                (
                    i,
                    tag(format!(
                        "unexpected character '{c}' in a tag: a tag is [Name \"value\"]"
                    )),
                )
            }
        }
    };
    let name_from = blanks(1);
    let name_len = line[name_from..]
        .iter()
        .take_while(|&&c| is_tag_name_byte(c))
        .count();
    let name_to = name_from + name_len;
    let quote = blanks(name_to);
    if name_len == 0 {
        return match line.get(name_from) {
            Some(b'"') => (
                name_from,
                tag("the tag has no name: a tag is [Name \"value\"]".into()),
            ),
            None | Some(b']') => (
                name_from,
                tag("an empty tag: a tag is [Name \"value\"] on one line".into()),
            ),
            Some(_) => at_char(name_from),
        };
    }
    let name = String::from_utf8_lossy(&line[name_from..name_to]);
    match line.get(quote) {
        Some(b'"') => {}
        None => {
            return (
                quote,
                tag(format!(
                    "the tag {name} has no value, nor ] to close it: a tag is [Name \"value\"] on one line"
                )),
            )
        }
        Some(b']') => {
            return (
                quote,
                tag(format!("the tag {name} has no value: write [{name} \"\"] for an empty one")),
            )
        }
        Some(_) if quote == name_to => {
            // A character names do not hold, right after the name.
            return at_char(name_to);
        }
        Some(_) => {
            if line[quote..].starts_with("“".as_bytes()) || line[quote..].starts_with("”".as_bytes()) {
                return (
                    quote,
                    tag("a tag's value is in straight quotes \"...\", not typographic ones".into()),
                );
            }
            let close = memchr::memrchr(b']', &line[quote..]).map_or(line.len(), |n| quote + n);
            let value = String::from_utf8_lossy(&line[quote..close]);
            let value = value.trim_end();
            return (
                quote,
                tag(format!(
                    "the value of the tag {name} is not in quotes: write [{name} \"{value}\"]"
                )),
            );
        }
    }
    // The value, to its closing quote.
    let mut i = quote + 1;
    let value_end = loop {
        match line.get(i) {
            None => {
                if let Some(bad) = not_utf8(quote + 1, line.len()) {
                    return (bad, invalid_utf8(line, bad, offset + bad as u64));
                }
                return (
                    line.len(),
                    tag(
                        "the tag's value is not closed: \" is missing before the line's end".into(),
                    ),
                );
            }
            Some(b'\\') if i + 1 < line.len() => i += 2,
            Some(b'"') => break i,
            Some(_) => i += 1,
        }
    };
    if let Some(bad) = not_utf8(quote + 1, value_end) {
        return (bad, invalid_utf8(line, bad, offset + bad as u64));
    }
    let after = blanks(value_end + 1);
    match line.get(after) {
        None => (
            after,
            tag("the tag is not closed: ] is missing before the line's end".into()),
        ),
        // A quote further on that would close the value: this one is inside it.
        Some(_) if memchr::memchr(b'"', &line[after..]).is_some() => (
            value_end,
            tag(format!(
                "a quote inside the value of the tag {name} must be escaped: write \\\""
            )),
        ),
        Some(b']') => (
            0,
            tag("tag not closed: a tag is [Name \"value\"] on one line".into()),
        ),
        Some(_) => {
            if let Some(bad) = not_utf8(after, line.len()) {
                return (bad, invalid_utf8(line, bad, offset + bad as u64));
            }
            (
                after,
                tag("unexpected text after the tag's value: ] is due here".into()),
            )
        }
    }
}
/// Where in this line a tag starts, if the line, after blanks, starts
/// with one. The game-start rule ([`crate::read`]) is about tags: this is
/// how a line that could start a game is recognised outside the tokens (a
/// dropped variation, the recovery from a comment that is never closed).
pub(crate) fn tag_starting(line: &[u8]) -> Option<usize> {
    let mut start = 0;
    loop {
        match line.get(start) {
            Some(b' ' | b'\t') => start += 1,
            _ if line[start..].starts_with(NBSP) => start += NBSP.len(),
            _ => break,
        }
    }
    (line.get(start) == Some(&b'[') && Token::lexer(&line[start..]).next() == Some(Ok(Token::Tag)))
        .then_some(start)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_tags_with_meaning_are_told_by_name_variant_in_any_case() {
        for name in [
            "Variant", "VARIANT", "variant", "vArIaNt", "Result", "Redefine", "PDTL", "DPTL",
        ] {
            assert!(super::TagMeaning::of(name.as_bytes()).is_some(), "{name}");
        }
        for name in [
            "Variang", "Variants", "_ariant", "V4riant", "result", "Event", "Site", "PDTl",
        ] {
            assert_eq!(super::TagMeaning::of(name.as_bytes()), None, "{name}");
        }
    }

    #[test]
    fn a_blank_is_what_the_tokenizer_skips() {
        for b in 0..=255u8 {
            let skipped = Token::lexer(&[b]).next().is_none();
            assert_eq!(super::is_blank(b), skipped, "byte {b:#04x}");
        }
    }

    use super::*;

    fn lex(s: &str) -> Vec<(Result<Token, ()>, &str)> {
        let mut lx = Token::lexer(s.as_bytes());
        let mut v = Vec::new();
        while let Some(t) = lx.next() {
            v.push((t, &s[lx.span()]));
        }
        v
    }

    fn kinds(s: &str) -> Vec<Token> {
        lex(s).into_iter().map(|t| t.0.unwrap()).collect()
    }

    /// A tag's name takes exactly the ASCII bytes [`is_tag_name_byte`]
    /// takes: the table and the `Tag` token's expression agree.
    #[test]
    fn a_tag_name_holds_the_bytes_is_tag_name_byte_takes() {
        for c in (0..0x80u8).map(char::from) {
            let tag = format!("[A{c}B \"v\"]");
            let read = Token::lexer(tag.as_bytes()).collect::<Vec<_>>() == [Ok(Token::Tag)];
            assert_eq!(read, is_tag_name_byte(c as u8), "{c:?}");
        }
    }

    /// The tokenizer's character classes are the grammar's: a character
    /// not ASCII continues a `Word` exactly when it is a dash
    /// ([`Dash::from_char`]), `×` ([`TIMES`]), the `∞` of a check mark
    /// ([`Check::as_str`]) or a figurine ([`decode_figurine`]); it starts
    /// one exactly when it is a figurine; and it joins two digits into a
    /// `Result` exactly when it is a dash.
    #[test]
    fn the_tokens_characters_are_the_grammars() {
        use crate::grammar::model::{decode_figurine, Check, Dash, TIMES};
        let afar = Check::Afar.as_str();
        let only = |text: &str, kind: Token| {
            Token::lexer(text.as_bytes()).collect::<Vec<_>>() == [Ok(kind)]
        };
        for c in (0x80..=0x1FFFF).filter_map(char::from_u32) {
            let mut b = [0; 4];
            let text: &str = c.encode_utf8(&mut b);
            let figurine = decode_figurine(text.as_bytes()).is_some_and(|f| f.2 == text.len());
            let dash = Dash::from_char(c).is_some();
            let continues = dash || text == TIMES || afar.ends_with(text) || figurine;
            let word = format!("E7{c}E13");
            assert_eq!(only(&word, Token::Word), continues, "{c:?} inside a word");
            let first = format!("{c}F5-F7");
            assert_eq!(only(&first, Token::Word), figurine, "{c:?} starting a word");
            let result = format!("3{c}0");
            assert_eq!(only(&result, Token::Result), dash, "{c:?} in a result");
        }
    }

    /// [`number_then_blank`] finds exactly a `Number` token at the start,
    /// with its value, when a blank follows it.
    #[test]
    fn a_number_then_a_blank_is_the_number_token() {
        let numbers = [
            "1",
            "12",
            "012",
            "99999",
            "100000",
            "4294967296",
            "",
            "1/2",
            "3",
            "½",
            "x1",
            " 1",
        ];
        let after = [
            ". E7", ".  E7", ".\tE7", ". ", ".", ".E7", "..", "... E7", "? E7", "?", "-0 ", "‐0 ",
            ".\n", ". \n", " . E7", ", E7", ".. E7",
        ];
        for n in numbers {
            for a in after {
                let text = format!("{n}{a}");
                let b = text.as_bytes();
                let mut lx = Token::lexer(b);
                let number = match lx.next() {
                    Some(Ok(Token::Number)) if lx.span().start == 0 => Some(lx.span().end),
                    _ => None,
                };
                let then_blank = number
                    .filter(|&end| b.get(end) == Some(&b' '))
                    .map(|end| (number_value(&b[..end]), end));
                assert_eq!(number_then_blank(b), then_blank, "{text:?}");
            }
        }
    }

    #[test]
    fn a_tag_is_one_token() {
        assert_eq!(
            lex(r#"[Event  "CG"]"#),
            vec![(Ok(Token::Tag), r#"[Event  "CG"]"#)]
        );
    }

    #[test]
    fn a_tag_value_may_hold_escaped_quotes() {
        assert_eq!(kinds(r#"[Title "a \"b\""]"#), [Token::Tag]);
        assert_eq!(
            tag_parts(br#"[ Title "a \"b\""]"#),
            (&b"Title"[..], &br#"a \"b\""#[..])
        );
    }

    #[test]
    fn move_number_forms() {
        assert_eq!(kinds("12."), [Token::Number]);
        assert_eq!(kinds("1?"), [Token::UnknownNumber]);
        assert_eq!(kinds("1..."), [Token::PgnNumber]);
        assert_eq!(number_value(b"123."), 123);
    }

    #[test]
    fn a_draw_offer_is_not_a_variation() {
        assert_eq!(
            kinds("E7-E13 (=):"),
            [Token::Word, Token::DrawOffer, Token::EndMarker]
        );
    }

    /// The `Rating` token takes exactly what `Rating::parse` reads: every
    /// string of up to two of `?`, `!`, `◇` is one rating token for both or
    /// for neither.
    #[test]
    fn the_rating_token_is_what_rating_parse_reads() {
        use crate::grammar::model::Rating;
        let marks = ["?", "!", "◇"];
        let mut strings: Vec<String> = marks.iter().map(|m| m.to_string()).collect();
        for a in marks {
            for b in marks {
                strings.push(format!("{a}{b}"));
            }
        }
        for s in strings {
            let token = Token::lexer(s.as_bytes()).collect::<Vec<_>>() == [Ok(Token::Rating)];
            assert_eq!(token, Rating::parse(s.as_bytes()).is_some(), "{s}");
        }
    }

    #[test]
    fn ratings_attach_without_a_space() {
        assert_eq!(kinds("H6-H12?!"), [Token::Word, Token::Rating]);
        assert_eq!(kinds("H6-H12◇"), [Token::Word, Token::Rating]);
    }

    #[test]
    fn results_and_pgn_results() {
        assert_eq!(kinds("3-0"), [Token::Result]);
        assert_eq!(kinds("1‐1"), [Token::Result]);
        assert_eq!(kinds("1/2-1/2"), [Token::PgnDraw]);
        assert_eq!(kinds("*"), [Token::Unfinished]);
    }

    #[test]
    fn nags_and_labels() {
        assert_eq!(kinds("$14"), [Token::Nag]);
        assert_eq!(kinds("$[2]"), [Token::Label]);
        assert_eq!(kinds("( $[2]"), [Token::LabeledVariationOpen]);
        assert_eq!(label_value(b"( $[12]"), Some(12));
        assert_eq!(label_value(b"( $[4294967296]"), None);
    }

    #[test]
    fn a_word_holds_a_whole_half_move() {
        for w in [
            "EE5-E11",
            "JE11×A23",
            "F12@@G9",
            "KRK-II",
            "DC19-E25#",
            "B24=D",
            "GL5×GE5^+",
            "DB20-C19+∞",
            "♗F6×♞C15",
            "E7‐E13",
            "E13xF16",
        ] {
            assert_eq!(lex(w), [(Ok(Token::Word), w)], "{w}");
        }
    }

    #[test]
    fn line_ends_are_tokens_and_blanks_are_not() {
        assert_eq!(
            kinds("1. E7-E13\r\n\t*\n"),
            [
                Token::Number,
                Token::Word,
                Token::LineEnd,
                Token::Unfinished,
                Token::LineEnd
            ]
        );
    }

    #[test]
    fn a_line_starts_with_a_tag() {
        assert_eq!(
            tag_starting(b"  [Variant \"C'escacs\"] 1. E7-E13:"),
            Some(2)
        );
        assert_eq!(tag_starting(b"[Variant \"C'escacs\""), None);
        assert_eq!(tag_starting(b"1. E7-E13 [Variant \"C'escacs\"]"), None);
    }

    /// Where `tag_fault` points in `line`, and its message.
    fn fault(line: &[u8]) -> (usize, String) {
        let (at, m) = tag_fault(line, 100);
        (at, m.text)
    }

    #[test]
    fn a_latin1_value_points_at_its_byte_and_names_the_encoding() {
        let (at, m) = fault(b"[White \"Fran\xE7ois\"]\n1. E7-E13");
        assert_eq!(at, 12);
        assert!(
            m.starts_with(
                "invalid UTF-8: byte 0xE7 at byte offset 112 of the input ('ç' in Latin-1)"
            ),
            "{m}"
        );
        assert!(m.ends_with("iconv -f latin1 -t utf-8"), "{m}");
        assert_eq!(
            tag_fault(b"[White \"Fran\xE7ois\"]", 0).1.kind,
            DiagnosticKind::Encoding
        );
    }

    #[test]
    fn an_inner_quote_points_at_the_quote_that_ends_the_value_too_soon() {
        let (at, m) = fault(br#"[Event "The "Big" one"]"#);
        assert_eq!(at, 12);
        assert_eq!(
            m,
            r#"a quote inside the value of the tag Event must be escaped: write \""#
        );
    }

    #[test]
    fn a_value_without_quotes_is_shown_quoted() {
        let (at, m) = fault(b"[White Kasparov, G.]\r\n");
        assert_eq!(at, 7);
        assert_eq!(
            m,
            r#"the value of the tag White is not in quotes: write [White "Kasparov, G."]"#
        );
        let (at, m) = fault("[White “Kasparov”]".as_bytes());
        assert_eq!(at, 7);
        assert!(m.contains("straight quotes"), "{m}");
    }

    #[test]
    fn what_is_not_closed_is_pointed_at_the_line_s_end() {
        assert_eq!(
            fault(b"[Event \"x\"\n[Site \"y\"]"),
            (
                10,
                "the tag is not closed: ] is missing before the line's end".into()
            )
        );
        assert_eq!(
            fault(b"[Event \"x]\r\n"),
            (
                10,
                "the tag's value is not closed: \" is missing before the line's end".into()
            )
        );
        assert_eq!(fault(b"[Event").0, 6);
    }

    #[test]
    fn names_must_be_letters_digits_and_underscores() {
        let (at, m) = fault(br#"[Ev-ent "x"]"#);
        assert_eq!(at, 3);
        assert!(m.starts_with("unexpected character '-' in a tag"), "{m}");
        assert_eq!(fault(br#"[ "x"]"#).0, 2);
        assert!(fault(br#"[ "x"]"#).1.contains("no name"));
        assert!(fault(b"[Event]").1.contains("has no value"));
        assert!(fault(br#"[Event "x" y]"#)
            .1
            .starts_with("unexpected text after"));
        assert_eq!(fault(br#"[Event "x" y]"#).0, 11);
    }
}
