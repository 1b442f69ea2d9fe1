//! The one tokenizer of CTL-PGN: tags and movetext, over whole buffers of
//! lines. What crosses lines (a comment's text, a variation's depth) is
//! the reader's business: it takes over at `{` and at a dropped `(`.

use logos::Logos;

/// A token of CTL-PGN. Blanks are skipped (the ASCII ones: a no-break
/// space or a byte order mark is no token, and the reader skips it as
/// blank, so that the common ones cost the least); line ends are tokens,
/// so that the reader knows where each line starts.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(utf8 = false)]
#[logos(skip r"[ \t\r\x0B\x0C]+")]
#[logos(subpattern fig = r"♙|♟|☖|☗|♗|♝|♘|♞|🩐|🩓|♖|♜|🩏|🩒|♕|♛|♔|♚")]
#[logos(subpattern dash = r"-|‐|‑|‒|–|—|−")]
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
    /// The half-move parser reads it ([`crate::grammar::half_move::parse`]).
    #[regex(r"([A-Za-z]|(?&fig))([A-Za-z0-9*@=&+^]|(?&dash)|×|∞|(?&fig))*#?")]
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

/// The value of a number token (`12.`, `12?`, `12...`): its leading
/// digits, saturating.
pub(crate) fn number_value(slice: &[u8]) -> u32 {
    slice
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .fold(0u32, |n, &d| {
            n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
        })
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

/// A `Tag` token's name and value (escapes kept as written).
pub(crate) fn tag_parts(slice: &[u8]) -> (&[u8], &[u8]) {
    // Tags are short: loops, not vectorised searches, are the quicker.
    let q1 = slice.iter().position(|&c| c == b'"').expect("a tag token holds quotes");
    let q2 = slice.iter().rposition(|&c| c == b'"').expect("a tag token holds quotes");
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
}
