//! What standard-chess PGN looks like, so that a reader meeting it can say
//! so, and show the CTL-AN form, instead of faulting its first letter.
//! Every message here is of kind [`DiagnosticKind::StandardChess`].

use crate::diag::{DiagnosticKind, Message};

fn standard_chess(text: impl Into<String>) -> Message {
    Message::new(DiagnosticKind::StandardChess, text)
}

/// How CTL-AN writes what SAN writes: the tail of every message here.
const CTL_AN: &str = "CTL-AN writes a move from hex to hex, the piece letter first (EE5-E11; \
a pawn unnamed: E7-E13), a capture with × or * (JE11×A23), castling as KRK-II";

/// The message for a word written in standard-chess notation (`e4`,
/// `Nf3`, `exd5`, `e8=Q+`, `O-O`, the `e` of `e.p.`), if it is one;
/// `after` is what follows the word on its line.
pub(crate) fn move_message(word: &[u8], after: &[u8]) -> Option<Message> {
    if word == b"e" && after.starts_with(b".p.") {
        return Some(standard_chess(
            "e.p. is standard-chess notation: CTL-AN writes an en passant capture with @ \
             (or @@ after a triple move) instead of ×, as F12@@G9",
        ));
    }
    if matches!(word, b"O-O" | b"O-O-O" | b"0-0" | b"0-0-0") {
        return Some(castling_message(word));
    }
    is_san(word).then(|| {
        standard_chess(format!(
            "{} looks like standard-chess PGN (a SAN move); {CTL_AN}",
            String::from_utf8_lossy(word)
        ))
    })
}

/// The message for castling written as in standard chess (`O-O`, `0-0`).
pub(crate) fn castling_message(word: &[u8]) -> Message {
    standard_chess(format!(
        "{} is standard-chess castling: CTL-AN writes KRK- (with the king's rook), KRD- (the \
         queen's rook) or KRR- (both), then the columns the king and rooks go to, as KRK-II",
        String::from_utf8_lossy(word)
    ))
}

/// The message for a result written as in standard chess, or that is no
/// result at all.
pub(crate) fn result_message(result: &[u8]) -> Message {
    let text = String::from_utf8_lossy(result);
    let ctl = match result {
        [b'1', _, b'0'] => "3-0",
        [b'0', _, b'1'] => "0-3",
        [b'0', _, b'0'] => return castling_message(result),
        _ if result.starts_with(b"1/2") || result.starts_with("½".as_bytes()) => "1-1",
        _ => {
            return Message::new(
                DiagnosticKind::Other,
                format!("result {text} is not a result: results are 3-0 2-1 0-3 1-2 1-1 *"),
            )
        }
    };
    standard_chess(format!(
        "result {text} is standard-chess PGN: CTL-PGN writes {ctl} (results are 3-0 2-1 0-3 1-2 1-1 *)"
    ))
}

/// `;` starts a comment to the line's end in standard-chess PGN.
pub(crate) fn semicolon() -> Message {
    standard_chess(
        "; starts a comment in standard-chess PGN: CTL-PGN writes comments in braces { }",
    )
}

/// Is `w` a SAN move: `[KQRBN]`, an optional file and rank of origin, an
/// optional `x`, a square `a1`-`h8`, then an optional promotion and check?
fn is_san(w: &[u8]) -> bool {
    let file = |c: &u8| (b'a'..=b'h').contains(c);
    let rank = |c: &u8| (b'1'..=b'8').contains(c);
    let mut w = w;
    while let [rest @ .., b'+' | b'#'] = w {
        w = rest;
    }
    let piece = matches!(w.first(), Some(b'K' | b'Q' | b'R' | b'B' | b'N'));
    if piece {
        w = &w[1..];
    } else if let [rest @ .., b'=', b'Q' | b'R' | b'B' | b'N'] = w {
        w = rest;
    }
    let [origin @ .., f, r] = w else {
        return false;
    };
    if !file(f) || !rank(r) {
        return false;
    }
    let (origin, captures) = match origin.strip_suffix(b"x") {
        Some(o) => (o, true),
        None => (origin, false),
    };
    match origin {
        // A pawn's capture names its file: `exd5`, not `xd5`.
        [] => piece || !captures,
        [c] => file(c) || (piece && rank(c)),
        [c, d] => piece && file(c) && rank(d),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn san_moves_are_recognised() {
        for w in [
            "e4", "Nf3", "exd5", "Bxe5+", "e8=Q", "exd8=N#", "Nbd7", "R1e2", "Qh4e1", "Kxh8",
        ] {
            assert!(is_san(w.as_bytes()), "{w}");
        }
    }

    #[test]
    fn ctl_an_words_are_not_san() {
        for w in [
            "E7", "e7-e13", "NE25", "E13", "e9", "ex", "Ne", "xe4", "KRK",
        ] {
            assert!(!is_san(w.as_bytes()), "{w}");
        }
    }

    #[test]
    fn the_messages_show_the_ctl_an_form() {
        let m = move_message(b"Nf3", b" Nc6").unwrap();
        assert_eq!(m.kind, DiagnosticKind::StandardChess);
        let m = m.text;
        assert!(m.starts_with("Nf3 looks like standard-chess PGN"), "{m}");
        assert!(m.contains("E7-E13") && m.contains("× or *") && m.contains("KRK-II"));
        assert!(move_message(b"e", b".p. *")
            .unwrap()
            .text
            .starts_with("e.p. is"));
        assert!(move_message(b"O-O", b"").unwrap().text.contains("KRK-II"));
        assert_eq!(move_message(b"e", b" "), None);
    }

    #[test]
    fn standard_results_say_what_ctl_pgn_writes() {
        assert!(result_message(b"1-0").text.contains("writes 3-0"));
        assert!(result_message(b"0-1").text.contains("writes 0-3"));
        assert!(result_message(b"1/2-1/2").text.contains("writes 1-1"));
        assert!(result_message(b"0-0").text.contains("castling"));
        assert_eq!(result_message(b"0-1").kind, DiagnosticKind::StandardChess);
        let not_one = result_message(b"4-4");
        assert!(not_one.text.contains("is not a result"));
        assert_eq!(not_one.kind, DiagnosticKind::Other);
    }
}
