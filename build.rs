//! Builds the DFA that reads canonical games (see `src/canonical.rs`) from
//! their grammar, written here as a regex, and writes it as a compact
//! transition table to `$OUT_DIR/games.rs`: the grammar is written once,
//! and costs nothing at run time.

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

/// The pattern: canonical games, one after the other. Each is the
/// writer's layout: its tag lines, a blank line, its move lines, its
/// result and a blank line. A run of games can be read from any game's
/// start, which lets the caller read several runs side by side.
fn pattern() -> String {
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
    // be Black's move alone; the last move, and only it, ends the game.
    // (How numbers are written, and that each follows the one before, the
    // caller checks.)
    let number = "[0-9]+";
    let first = format!("{number}[.?] (?:\\.\\.\\., {goes_on}|{goes_on}, {goes_on})\n");
    let first_ends = format!("{number}[.?] (?:\\.\\.\\., {ends}|{ends}|{goes_on}, {ends})\n");
    let line = format!("{number}\\. {goes_on}, {goes_on}\n");
    let last = format!("{number}\\. (?:{ends}|{goes_on}, {ends})\n");
    let moves = format!("(?:{first_ends}|{first}(?:{line})*{last})");
    // Tags as the writer writes them: no escape, no control character.
    // (Which tags, and values in NFC, the caller checks.)
    let tags = "(?:\\[[A-Za-z0-9_]+ \"[^\"\\\\\\x00-\\x1f\\x7f]*\"\\]\n)+";
    let result = "(?:3-0|2-1|0-3|1-2|1-1|\\*)\n";
    format!("(?:{tags}\n(?:{moves})?{result}\n)*")
}

/// The DFA as the filter runs it: states numbered from 0 (the start, which
/// is also where a game ends), one byte each.
struct Table {
    /// The class of each byte.
    classes: [u8; 256],
    /// Number of states.
    states: usize,
    /// `next[class * 256 + state]`: a row of 256 states per class, so that
    /// the row is found from the byte alone and the state only indexes it.
    next: Vec<u8>,
    /// By state: the bytes read are whole games.
    accepts: Vec<bool>,
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
    assert!(states.len() <= 256, "states fit in a byte");
    let mut next = vec![0u8; stride * 256];
    for (s, &id) in states.iter().enumerate() {
        for (class, &b) in representative.iter().enumerate() {
            next[class * 256 + s] = number[&dfa.next_state(id, b)] as u8;
        }
    }
    let accepts = states
        .iter()
        .map(|&s| dfa.is_match_state(dfa.next_eoi_state(s)))
        .collect();
    Table {
        classes,
        states: states.len(),
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
        .build(&pattern())
        .expect("the game pattern compiles");
    let start = dfa
        .start_state(&start::Config::new().anchored(Anchored::Yes))
        .expect("an anchored start state");
    let t = table(&dfa, start);
    // A row of next states for each byte (rows of bytes of one class are
    // alike): a step is one load indexed by the byte and the state. Only
    // the rows of bytes that occur are read, a few dozen.
    let rows: Vec<String> = t
        .classes
        .iter()
        .map(|&c| format!("{:?}", &t.next[usize::from(c) * 256..][..256]))
        .collect();
    let text = [
        "// Generated by build.rs from the pattern there: do not edit.\n".to_string(),
        format!("static NEXT: [[u8; 256]; 256] = [{}];\n", rows.join(", ")),
        array("static", "ACCEPTS", "bool", &t.accepts),
        format!("// {} states.\n", t.states),
    ]
    .concat();
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(std::path::Path::new(&out).join("games.rs"), text)
        .expect("writing the game table");
}
