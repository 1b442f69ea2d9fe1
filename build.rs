//! Builds the DFA that reads a canonical game's move lines (see
//! `src/canonical.rs`) from their grammar, written here as regexes, and
//! writes it as a compact transition table to `$OUT_DIR/move_lines.rs`:
//! the grammar is written once, and costs nothing at run time.

use regex_automata::dfa::{dense, Automaton, StartKind};
use regex_automata::util::{primitives::StateID, start, syntax};
use regex_automata::{Anchored, MatchKind};
use std::collections::HashMap;
use std::fmt::Display;

#[allow(dead_code)]
mod alphabet {
    include!("src/alphabet.rs");
}
use alphabet::{CASTLING, COLUMNS, LINES_OF, STANDARD_LETTERS};

/// The two patterns, bits 0 and 1 of `ACCEPTS`: move lines that go on to
/// another line, and move lines that end the game. A game's lines are read
/// whole or in parts side by side; a part after the first is read from the
/// newline before it, so that one start state serves all parts and only
/// the first may start with a first line's forms.
fn patterns() -> [String; 2] {
    let hexes: Vec<String> = COLUMNS
        .iter()
        .zip(LINES_OF)
        .flat_map(|(&c, lines)| {
            (0..=28)
                .filter(move |l| lines & (1 << l) != 0)
                .map(move |l| format!("{}{l}", char::from(c)))
        })
        .collect();
    let hex = format!("(?:{})", hexes.join("|"));
    // The writer never writes the pawn's letter; nothing promotes to a king.
    let written: String = STANDARD_LETTERS
        .iter()
        .filter(|&&c| c != b'P')
        .map(|&c| char::from(c))
        .collect();
    let piece = format!("[{written}]");
    let promoted = format!("[{}]", written.replace('K', ""));
    let castlings: Vec<String> = CASTLING
        .iter()
        .map(|(prefix, targets)| {
            let prefix: String = prefix.iter().map(|&c| char::from(c)).collect();
            format!("{prefix}-(?:{})", targets.join("|"))
        })
        .collect();
    let castling = format!("(?:{})", castlings.join("|"));
    // A move (`@@` is a double step, `*` may name the piece taken), a
    // castling, or a forced promotion; then check (`+∞` in bytes: the DFA
    // reads bytes), draw offer and end marker.
    let action = format!(
        "(?:{castling}|{piece}?{hex}(?:-|\\*{piece}?|@@?){hex}(?:=(?:&|{promoted}))?|{hex}={promoted})"
    );
    let check = "\\+(?:\\+|\\^|\\xE2\\x88\\x9E)?";
    let draw = " \\(=\\)";
    let goes_on = format!("{action}(?:{check})?(?:{draw})?");
    let ends = format!("{action}(?:\\#(?:{draw})?:?|(?:{check})?(?:{draw})?:)");
    // A game's first number may be unknown (`N?`), and its first line may
    // be Black's move alone.
    let number = "[1-9][0-9]{0,4}";
    let first = format!("{number}[.?] (?:\\.\\.\\., {goes_on}|{goes_on}, {goes_on})\n");
    let first_ends = format!("{number}[.?] (?:\\.\\.\\., {ends}|{ends}|{goes_on}, {ends})\n");
    let line = format!("{number}\\. {goes_on}, {goes_on}\n");
    let last = format!("{number}\\. (?:{ends}|{goes_on}, {ends})\n");
    let going_on = format!("(?:{first}|\n)(?:{line})*");
    let ending = format!("(?:{first_ends}|{going_on}{last})");
    [going_on, ending]
}

/// The DFA as the filter runs it.
struct Table {
    /// The class of each byte.
    classes: [u8; 256],
    /// Classes; a state's row length in `next`.
    stride: usize,
    /// `next[state + class]`: states as the offsets of their rows, the
    /// start first.
    next: Vec<u16>,
    /// By row: the patterns matched when the bytes end there, one bit each.
    accepts: Vec<u8>,
}

fn table(dfa: &dense::DFA<Vec<u32>>, start: StateID) -> Table {
    let byte_classes = dfa.byte_classes();
    let stride = byte_classes.alphabet_len() - 1; // less the end-of-input class
    let mut classes = [0u8; 256];
    let mut representative = vec![0u8; stride];
    for b in 0..=255u8 {
        classes[usize::from(b)] = byte_classes.get(b);
        representative[usize::from(byte_classes.get(b))] = b;
    }
    // The states reachable from the start, numbered as found.
    let mut states = vec![start];
    let mut number = HashMap::from([(start, 0)]);
    let mut k = 0;
    while k < states.len() {
        for &b in &representative {
            let next = dfa.next_state(states[k], b);
            number.entry(next).or_insert_with(|| {
                states.push(next);
                states.len() - 1
            });
        }
        k += 1;
    }
    let row = |s: StateID| u16::try_from(number[&s] * stride).expect("rows fit in u16");
    let next = states
        .iter()
        .flat_map(|&s| {
            representative
                .iter()
                .map(move |&b| row(dfa.next_state(s, b)))
        })
        .collect();
    let accepts = states
        .iter()
        .map(|&s| {
            let end = dfa.next_eoi_state(s);
            let matched = if dfa.is_match_state(end) {
                dfa.match_len(end)
            } else {
                0
            };
            (0..matched).fold(0, |bits, i| {
                bits | 1 << dfa.match_pattern(end, i).as_usize()
            })
        })
        .collect();
    Table {
        classes,
        stride,
        next,
        accepts,
    }
}

/// `name`, an array of `items`, as Rust.
fn array<T: Display>(kind: &str, name: &str, ty: &str, items: &[T]) -> String {
    let items: Vec<String> = items.iter().map(T::to_string).collect();
    format!(
        "{kind} {name}: [{ty}; {}] = [{}];\n",
        items.len(),
        items.join(", ")
    )
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/alphabet.rs");
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new()
                .match_kind(MatchKind::All)
                .start_kind(StartKind::Anchored)
                .minimize(true),
        )
        .syntax(syntax::Config::new().unicode(false).utf8(false))
        .build_many(&patterns())
        .expect("the move-line patterns compile");
    let start = dfa
        .start_state(&start::Config::new().anchored(Anchored::Yes))
        .expect("an anchored start state");
    let t = table(&dfa, start);
    let text = [
        "// Generated by build.rs from the patterns there: do not edit.\n".to_string(),
        array("static", "CLASSES", "u8", &t.classes),
        format!("const STRIDE: usize = {};\n", t.stride),
        array("static", "NEXT", "u16", &t.next),
        array("const", "ACCEPTS", "u8", &t.accepts),
    ]
    .concat();
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(std::path::Path::new(&out).join("move_lines.rs"), text)
        .expect("writing the move-line table");
}
