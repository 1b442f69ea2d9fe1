//! A seeded generator of CTL-PGN for benchmarks, in the shapes of
//! [`Shape`], at any size.
//!
//! Shared by `examples/gen_corpus.rs`, `benches/throughput.rs` and
//! `tests/workflows.rs` (included with `#[path]`). Every game it writes is
//! valid: the whole output filters with no rejected game, with the default
//! options and with comments, variations and ratings kept; the generated
//! shapes with no warning either (the real games bring their own).

#![allow(dead_code)]

use std::io::{self, Write};

/// xorshift64*: small, fast, and the same sequence everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // splitmix64 of the seed, so that seeds 0, 1, 2 start far apart.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `per_mille` / 1000.
    pub fn chance(&mut self, per_mille: u32) -> bool {
        self.below(1000) < per_mille
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u32) as usize]
    }
}

/// Column letters, P (index 0) to Z (index 14).
const COLUMNS: &[u8; 15] = b"PTABCDEFGHIKLXZ";

/// The hexes of cross-line `line`, as column indices, in column order.
fn hexes_on_line(line: u32) -> impl Iterator<Item = usize> {
    (0..15usize).filter(move |&i| {
        let d = i.abs_diff(7) as u32;
        line >= d && line <= 28 - d && (line - d).is_multiple_of(2)
    })
}

/// A random hex of the board: (column index, line).
fn random_hex(rng: &mut Rng) -> (usize, u32) {
    let col = rng.below(15) as usize;
    let d = col.abs_diff(7) as u32;
    // Column at distance d from F has 15 - d lines: d, d + 2, ..., 28 - d.
    let line = d + 2 * rng.below(15 - d);
    (col, line)
}

/// Pushes a hex's name, `E13`.
fn push_hex_name(out: &mut Vec<u8>, (col, line): (usize, u32)) {
    out.push(COLUMNS[col]);
    push_num(out, line);
}

/// Pushes a random hex of the board; returns (column index, line).
fn push_hex(rng: &mut Rng, out: &mut Vec<u8>) -> (usize, u32) {
    let hex = random_hex(rng);
    push_hex_name(out, hex);
    hex
}

fn push_num(out: &mut Vec<u8>, n: u32) {
    out.extend_from_slice(n.to_string().as_bytes());
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    White,
    Black,
}

/// How a game writes its pieces.
#[derive(Clone, Copy)]
enum Letters {
    Standard,
    /// Index into [`REDEFINES`].
    Redefine(usize),
    Fan,
}

/// Redefine tag values (one game may split them over two tags), from the spec.
const REDEFINES: [&[&str]; 5] = [
    &["A@J, C@N, T@R"],
    &["B@J, Q@D, W@V"],
    &["L@J, S@N, T@R, W@V"],
    &["F@J, C@N, T@R, W@V"],
    &["L@J, S@N", "T@R, W@V"],
];

/// FAN figurines: (standard letter, white, black).
const FIGURINES: [(u8, &str, &str); 9] = [
    (b'P', "♙", "♟"),
    (b'E', "☖", "☗"),
    (b'J', "♗", "♝"),
    (b'N', "♘", "♞"),
    (b'G', "🩐", "🩓"),
    (b'R', "♖", "♜"),
    (b'V', "🩏", "🩒"),
    (b'D', "♕", "♛"),
    (b'K', "♔", "♚"),
];

impl Letters {
    /// Appends the glyph for standard piece `letter` of `side`; `lower` asks
    /// for Black's letters in lower case (PDTL).
    fn push(self, out: &mut Vec<u8>, letter: u8, side: Side, lower: bool) {
        let l = match self {
            Letters::Standard => letter,
            Letters::Redefine(i) => alternative(REDEFINES[i], letter),
            Letters::Fan => {
                let f = FIGURINES.iter().find(|f| f.0 == letter).expect("a piece");
                let s = if side == Side::White { f.1 } else { f.2 };
                out.extend_from_slice(s.as_bytes());
                return;
            }
        };
        out.push(if lower && side == Side::Black {
            l.to_ascii_lowercase()
        } else {
            l
        });
    }
}

/// The alternative a Redefine value gives for standard `letter`, or `letter`.
fn alternative(tags: &[&str], letter: u8) -> u8 {
    for t in tags {
        for pair in t.split(", ") {
            let p = pair.as_bytes();
            if p[2] == letter {
                return p[0];
            }
        }
    }
    letter
}

/// Castling prefixes and their suffixes (spec).
const CASTLING: [(&[u8; 3], &[&str]); 3] = [
    (
        b"KRK",
        &[
            "II", "IK", "IH", "HIO", "HIOO", "HH", "HG", "FG", "FE", "EF", "EE",
        ],
    ),
    (b"KRD", &["DD", "DE", "HH", "HG", "FG", "FE", "EF", "ED"]),
    (b"KRR", &["HIH", "HGG", "FGG", "FEE", "EEF"]),
];

/// Dashes: mostly ASCII, U+2010 often, the others now and then.
const DASHES: [&str; 6] = [
    "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2212}", "\u{2010}",
];

const PIECES: &[u8] = b"EEEJJNNGGRRVDK";
const PROMOTIONS: &[u8] = b"DDDDJNGRVE";

const WORDS: &[&str] = &[
    "@W:",
    "@B:",
    "curious",
    "pawn",
    "to",
    "open",
    "plays",
    "along",
    "with",
    "it",
    "~J",
    "cover",
    "line",
    "15",
    "but",
    "neglects",
    "defence",
    "of",
    "~K",
    "~g's",
    "premature",
    "move",
    "~Z11",
    "is",
    "very",
    "unorthodox",
    "Initial",
    "movement",
    "~n",
    "also",
    "the",
    "flank",
    "Removing",
    "~EH4",
    "leaves",
    "unattended",
    "Has",
    "ignored",
    "threats",
    "Positions",
    "Last",
    "chance",
    "for",
    "a",
    "reaction",
    "wasted",
    "(a",
    "side",
    "note)",
    "[see",
    "above]",
    "Ferrà",
    "l'àla",
    "défense",
    "→",
    "½",
    "ja",
    "és",
    "tard",
    "and",
    "then",
    "~RI3",
    "threatens",
    "~gL5",
    "+^",
];

const NAMES: &[&str] = &[
    "Sasal, Cesc",
    "Mestre, Rut",
    "Ros, Xus",
    "Puig, Núria",
    "Ferrer, Jordi",
    "Gómez, Ana",
    "Müller, Jörg",
    "Martí i Pol, Pere",
];
const ASCII_NAMES: &[&str] = &[
    "Sasal, Cesc",
    "Mestre, Rut",
    "Ros, Xus",
    "Puig, Nuria",
    "Ferrer, Jordi",
    "Martin, Anna",
];
const SITES: &[&str] = &[
    "Barcelona, Catalunya ESP",
    "Girona, Catalunya ESP",
    "València ESP",
    "Lleida, Catalunya ESP",
];
const EVENTS: &[&str] = &["CG", "Club game", "Torneig d'estiu", "Open de Sant Joan"];
const RESULTS: [&str; 6] = ["3-0", "2-1", "0-3", "1-2", "1-1", "*"];

/// Ratings, as the spec lists them.
const RATINGS: [&str; 7] = ["?!", "?", "??", "!", "!!", "!?", "◇"];

/// `corpus/real-NAME.ctl-pgn`, read at compile time.
macro_rules! real_game {
    ($name:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/corpus/real-",
            $name,
            ".ctl-pgn"
        ))
    };
}

/// The author's seven real games, as `corpus/` holds them.
const REAL_GAMES: [&[u8]; 7] = [
    real_game!("2020-07-20"),
    real_game!("2022-08-14.1"),
    real_game!("2022-08-14.2"),
    real_game!("2023-09-08"),
    real_game!("2023-09-11"),
    real_game!("2023-09-17"),
    real_game!("2023-09-18"),
];

/// What the games of a corpus look like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The shapes of `corpus/` and the author's games: tag sections one per
    /// line and flattened on one line, multi-line comments, nested
    /// variations, ratings and NAGs, `(=)`, Redefine and FAN games, U+2010
    /// hyphens and ×, legacy `^+`, a PDTL in about one game in five.
    Mixed,
    /// Pure-ASCII canonical games: filtering them gives back the same bytes.
    Ascii,
    /// Annotation-heavy games whose main lines replay under `--verify`:
    /// comments on a fifth of the pairs (a third of them over several lines,
    /// some quoting a whole game, tags and all), variations on an eighth of
    /// the pairs (nested up to three deep, leading dots, `$[n]` labels),
    /// ratings and NAGs on a sixth of the half-moves, U+2010, U+2013 and ×,
    /// a PDTL in a quarter of the games, Redefine or FAN in half of them.
    Annotated,
    /// Short tag-heavy games, canonical and ASCII (filtering them gives back
    /// the same bytes): six to eight tags, 3 to 12 half-moves that replay
    /// under `--verify`, a PDTL in a quarter of them.
    Tags,
    /// The author's seven real games (`corpus/real-*.ctl-pgn`), whole, in
    /// turn, a blank line after each; the seed does not matter. Four of
    /// them warn: three have no Variant tag, one a Result tag that its mate
    /// contradicts.
    Real,
}

impl Shape {
    pub const ALL: [Shape; 5] = [
        Shape::Mixed,
        Shape::Ascii,
        Shape::Annotated,
        Shape::Tags,
        Shape::Real,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Shape::Mixed => "mixed",
            Shape::Ascii => "ascii",
            Shape::Annotated => "annotated",
            Shape::Tags => "tags",
            Shape::Real => "real",
        }
    }

    pub fn from_name(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Writes games of this shape into `out` until at least `bytes` bytes
    /// are written (whole games only); returns the number written.
    pub fn write(self, out: &mut dyn Write, bytes: u64, seed: u64) -> io::Result<u64> {
        let mut written = 0u64;
        if self == Shape::Real {
            for game in REAL_GAMES.iter().cycle() {
                if written >= bytes {
                    break;
                }
                out.write_all(game)?;
                // Two of the files end without a line end.
                let end: &[u8] = if game.ends_with(b"\n") {
                    b"\n"
                } else {
                    b"\n\n"
                };
                out.write_all(end)?;
                written += (game.len() + end.len()) as u64;
            }
            return Ok(written);
        }
        let mut g = Gen::new(seed, matches!(self, Shape::Ascii | Shape::Tags));
        while written < bytes {
            g.buf.clear();
            g.line_start = 0;
            if self == Shape::Annotated {
                g.annotated_game();
            } else if self == Shape::Tags {
                g.tag_heavy_game();
            } else {
                g.game();
            }
            out.write_all(&g.buf)?;
            written += g.buf.len() as u64;
        }
        Ok(written)
    }

    /// [`Shape::write`] into memory.
    pub fn to_vec(self, bytes: u64, seed: u64) -> Vec<u8> {
        let mut v = Vec::with_capacity(bytes as usize + 4096);
        self.write(&mut v, bytes, seed)
            .expect("writing to memory does not fail");
        v
    }
}

/// The mixed or the ASCII corpus in memory.
pub fn generate_vec(bytes: u64, seed: u64, ascii: bool) -> Vec<u8> {
    let shape = if ascii { Shape::Ascii } else { Shape::Mixed };
    shape.to_vec(bytes, seed)
}

/// The spec's initial setup, a PDTL's placement.
const INITIAL: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/";

/// What stands on each hex, by column index and line: (standard letter,
/// side).
struct Board([[Option<(u8, Side)>; 29]; 15]);

impl Board {
    fn empty() -> Board {
        Board([[None; 29]; 15])
    }

    fn initial() -> Board {
        let mut board = Board::empty();
        for rank in INITIAL.split('/').filter(|r| !r.is_empty()) {
            let (line, cells) = rank.split_once(':').expect("LINE:CELLS");
            let line: u32 = line.parse().expect("a line number");
            let mut hexes = hexes_on_line(line);
            for c in cells.bytes() {
                if c.is_ascii_digit() {
                    hexes.by_ref().take(usize::from(c - b'0')).for_each(drop);
                } else {
                    let side = if c.is_ascii_uppercase() {
                        Side::White
                    } else {
                        Side::Black
                    };
                    let col = hexes.next().expect("a hex of the line");
                    board.set((col, line), Some((c.to_ascii_uppercase(), side)));
                }
            }
        }
        board
    }

    fn at(&self, (col, line): (usize, u32)) -> Option<(u8, Side)> {
        self.0[col][line as usize]
    }

    fn set(&mut self, (col, line): (usize, u32), piece: Option<(u8, Side)>) {
        self.0[col][line as usize] = piece;
    }

    /// A random hex whose content `wanted` accepts, if one comes up in
    /// `tries` draws.
    fn draw(
        &self,
        rng: &mut Rng,
        tries: u32,
        wanted: impl Fn(Option<(u8, Side)>) -> bool,
    ) -> Option<(usize, u32)> {
        (0..tries)
            .map(|_| random_hex(rng))
            .find(|&hex| wanted(self.at(hex)))
    }

    /// Appends its PDTL placement, lines without pieces left out.
    fn push_placement(&self, letters: Letters, v: &mut Vec<u8>) {
        v.push(b'/');
        for line in (0..=28u32).rev() {
            if hexes_on_line(line).all(|col| self.at((col, line)).is_none()) {
                continue;
            }
            push_num(v, line);
            v.push(b':');
            let mut empty = 0;
            for col in hexes_on_line(line) {
                match self.at((col, line)) {
                    None => empty += 1,
                    Some((p, side)) => {
                        if empty > 0 {
                            push_num(v, empty);
                            empty = 0;
                        }
                        letters.push(v, p, side, true);
                    }
                }
            }
            if empty > 0 {
                push_num(v, empty);
            }
            v.push(b'/');
        }
    }
}

struct Gen {
    rng: Rng,
    ascii: bool,
    buf: Vec<u8>,
    letters: Letters,
    /// Byte offset where the current output line starts.
    line_start: usize,
    games: u64,
}

impl Gen {
    fn new(seed: u64, ascii: bool) -> Gen {
        Gen {
            rng: Rng::new(seed),
            ascii,
            buf: Vec::with_capacity(1 << 14),
            letters: Letters::Standard,
            line_start: 0,
            games: 0,
        }
    }

    fn push(&mut self, s: &str) {
        self.buf.extend_from_slice(s.as_bytes());
    }

    fn newline(&mut self) {
        // Real files: a few trailing spaces.
        if !self.ascii && self.rng.chance(10) {
            self.push(" ");
        }
        self.buf.push(b'\n');
        self.line_start = self.buf.len();
    }

    fn line_len(&self) -> usize {
        self.buf.len() - self.line_start
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.push("[");
        self.push(name);
        self.push(" \"");
        self.push(value);
        self.push("\"]");
    }

    fn game(&mut self) {
        self.games += 1;
        let ascii = self.ascii;
        let r = &mut self.rng;
        self.letters = if ascii {
            Letters::Standard
        } else {
            match r.below(100) {
                0..=11 => Letters::Redefine(r.below(REDEFINES.len() as u32) as usize),
                12..=19 => Letters::Fan,
                _ => Letters::Standard,
            }
        };
        let pdtl = r.chance(200);
        // The result, and whether the last move gives mate.
        let mate = r.chance(250);
        let mut result = *r.pick(&RESULTS);
        let flat_tags = !ascii && r.chance(350);
        let moves_on_tag_line = flat_tags && r.chance(500);

        // A comment before the tags now and then.
        if !ascii && r.chance(30) {
            self.comment(false);
            self.newline();
            self.newline();
        }

        // Tags.
        let mut tags: Vec<(&str, String)> = Vec::new();
        let r = &mut self.rng;
        if r.chance(800) {
            let ev = if ascii { "CG" } else { *r.pick(EVENTS) };
            tags.push(("Event", ev.to_string()));
        }
        if !ascii && r.chance(500) {
            tags.push(("Site", r.pick(SITES).to_string()));
        }
        if r.chance(800) {
            let date = format!(
                "20{:02}-{:02}-{:02}",
                r.range(18, 25),
                r.range(1, 12),
                r.range(1, 28)
            );
            tags.push(("Date", date));
        }
        if r.chance(400) {
            let round = if !ascii && r.chance(500) {
                "\u{2010}".to_string()
            } else {
                r.range(1, 9).to_string()
            };
            tags.push(("Round", round));
        }
        let names = if ascii { ASCII_NAMES } else { NAMES };
        if r.chance(700) {
            tags.push(("White", r.pick(names).to_string()));
            tags.push(("Black", r.pick(names).to_string()));
        }
        let has_result_tag = r.chance(600);
        let id = format!("Cescacs-A{:04}-{}", r.range(1, 40), self.games % 1000);
        if r.chance(500) {
            tags.push(("Id", id));
            tags.push(("Annotator", "Cescacs".to_string()));
        }
        if r.chance(300) {
            tags.push(("Lang", r.pick(&["en", "es", "ca", "de", "fr"]).to_string()));
        }
        match self.letters {
            Letters::Redefine(i) => {
                for v in REDEFINES[i] {
                    tags.push(("Redefine", v.to_string()));
                }
            }
            Letters::Fan => tags.push(("Redefine", "FAN".to_string())),
            Letters::Standard => {}
        }
        let mut start_number = 1;
        let mut black_first = false;
        let mut unknown = false;
        if pdtl {
            let (value, number, turn) = self.pdtl();
            start_number = number;
            black_first = turn == Side::Black;
            tags.push(("PDTL", value));
        } else if !ascii && self.rng.chance(40) {
            black_first = true;
            if self.rng.chance(500) {
                unknown = true;
            } else {
                start_number = self.rng.range(2, 30);
            }
        }

        // Moves first, so that a mate decides the result.
        let n_half = self.rng.range(12, 90);
        let mut ends_with_mate_by = None;
        let mut moves: Vec<Vec<u8>> = Vec::with_capacity(n_half as usize);
        let mut side = if black_first {
            Side::Black
        } else {
            Side::White
        };
        for k in 0..n_half {
            let last = k + 1 == n_half;
            let mut m = Vec::with_capacity(16);
            self.half_move(&mut m, side, last && mate);
            if last {
                if mate {
                    ends_with_mate_by = Some(side);
                } else if !ascii && result == "1-1" && self.rng.chance(300) {
                    m.extend_from_slice(b" (=)");
                    m.push(b':');
                } else {
                    m.push(b':');
                }
            }
            moves.push(m);
            side = if side == Side::White {
                Side::Black
            } else {
                Side::White
            };
        }
        if let Some(s) = ends_with_mate_by {
            result = if s == Side::White { "3-0" } else { "0-3" };
        }
        if has_result_tag {
            tags.insert(tags.len().min(4), ("Result", result.to_string()));
        }

        // Write the tags.
        self.tag("Variant", "C'escacs");
        for (name, value) in &tags {
            if flat_tags {
                self.push(" ");
            } else {
                self.newline();
            }
            self.tag(name, value);
        }
        if moves_on_tag_line {
            self.push(" ");
        } else {
            self.newline();
            if ascii || self.rng.chance(700) {
                self.newline();
            }
            if !ascii && self.rng.chance(150) {
                self.comment(true);
                self.newline();
                if self.rng.chance(500) {
                    self.newline();
                }
            }
        }

        // Movetext layout: one pair per line, all on one line, or wrapped.
        let layout = if ascii { 0 } else { self.rng.below(10) };
        let mut number = start_number;
        let mut side = if black_first {
            Side::Black
        } else {
            Side::White
        };
        let mut first = true;
        let mut resume = false;
        for (k, m) in moves.iter().enumerate() {
            let last = k + 1 == moves.len();
            match side {
                Side::White => {
                    if !first {
                        match layout {
                            0..=5 => self.newline(),
                            6..=7 => self.push(" "),
                            _ if self.line_len() > 70 => self.newline(),
                            _ => self.push(" "),
                        }
                    }
                    push_num(&mut self.buf, number);
                    self.push(if unknown && first { "? " } else { ". " });
                }
                Side::Black if first || resume => {
                    if resume {
                        self.push(" ");
                    }
                    push_num(&mut self.buf, number);
                    self.push(if unknown && first { "? " } else { ". " });
                    let dots = if !ascii && self.rng.chance(300) {
                        "…, "
                    } else {
                        "..., "
                    };
                    self.push(dots);
                    resume = false;
                }
                Side::Black => self.push(", "),
            }
            first = false;
            self.buf.extend_from_slice(m);
            if !ascii && !last {
                self.annotations();
            }
            if !ascii && !last {
                // Comments and variations between moves.
                let r = self.rng.below(1000);
                if r < 40 {
                    self.newline();
                    self.comment(true);
                    resume = side == Side::White;
                    if resume {
                        self.newline();
                    }
                } else if r < 65 && side == Side::Black {
                    self.push(" ");
                    self.variation(number + 1, 1);
                }
            }
            if side == Side::Black {
                number += 1;
                side = Side::White;
            } else {
                side = Side::Black;
            }
        }

        // The result: own line, or at the end of the last move line.
        if !ascii && self.rng.chance(200) {
            self.push(" ");
        } else {
            self.newline();
            if !ascii && self.rng.chance(100) {
                self.comment(true);
                self.newline();
            }
        }
        self.push(result);
        self.newline();
        if !ascii && self.rng.chance(50) {
            self.newline();
            self.comment(false);
            self.newline();
        }
        if ascii || self.rng.chance(850) {
            self.newline();
        }
    }

    fn glyph(&mut self, out: &mut Vec<u8>, letter: u8, side: Side) {
        self.letters.push(out, letter, side, false);
    }

    fn dash(&mut self, out: &mut Vec<u8>) {
        if self.ascii || self.rng.chance(800) {
            out.push(b'-');
        } else {
            let d = if self.rng.chance(750) {
                DASHES[5]
            } else {
                *self.rng.pick(&DASHES)
            };
            out.extend_from_slice(d.as_bytes());
        }
    }

    /// One half-move, without annotations.
    fn half_move(&mut self, out: &mut Vec<u8>, side: Side, mate: bool) {
        let ascii = self.ascii;
        let r = self.rng.below(1000);
        if r < 8 {
            // Castling: letters, as the author writes them in FAN games too.
            let (prefix, suffixes) = *self.rng.pick(&CASTLING);
            let letters = match self.letters {
                Letters::Fan => Letters::Standard,
                l => l,
            };
            for &c in prefix {
                letters.push(out, c, side, false);
            }
            self.dash(out);
            out.extend_from_slice(self.rng.pick(suffixes).as_bytes());
        } else if r < 11 {
            // Forced promotion: B24=D.
            push_hex(&mut self.rng, out);
            out.push(b'=');
            let p = *self.rng.pick(PROMOTIONS);
            self.glyph(out, p, side);
        } else {
            let pawn = r < 450;
            if pawn {
                if !ascii && self.rng.chance(20) {
                    self.glyph(out, b'P', side);
                }
            } else {
                let p = *self.rng.pick(PIECES);
                self.glyph(out, p, side);
            }
            let (fc, fl) = push_hex(&mut self.rng, out);
            let s = self.rng.below(1000);
            let capture = s < 220;
            if capture {
                if ascii || self.rng.chance(150) {
                    out.push(b'*');
                } else {
                    out.extend_from_slice("×".as_bytes());
                }
                if self.rng.chance(400) {
                    let c = *self.rng.pick(b"EEJNGRVD");
                    self.glyph(out, c, other(side));
                }
            } else if pawn && s < 250 {
                out.extend_from_slice(if s < 243 { b"@" } else { b"@@" });
            } else {
                self.dash(out);
            }
            loop {
                let mark = out.len();
                let (tc, tl) = push_hex(&mut self.rng, out);
                if (tc, tl) != (fc, fl) {
                    break;
                }
                out.truncate(mark);
            }
            if pawn && self.rng.chance(25) {
                out.push(b'=');
                if self.rng.chance(300) {
                    out.push(b'&');
                } else {
                    let p = *self.rng.pick(PROMOTIONS);
                    self.glyph(out, p, side);
                }
            }
        }
        if mate {
            out.push(b'#');
        } else if self.rng.chance(70) {
            let checks: &[&str] = if ascii {
                &["+", "+", "+", "+^", "++"]
            } else {
                &["+", "+", "+∞", "+^", "^+", "++"]
            };
            let c = *self.rng.pick(checks);
            out.extend_from_slice(c.as_bytes());
        }
    }

    /// Ratings, NAGs and draw offers after a move.
    fn annotations(&mut self) {
        let r = self.rng.below(1000);
        if r < 50 {
            if self.rng.chance(600) {
                self.push(" ");
            }
            let rating = *self.rng.pick(&RATINGS);
            self.push(rating);
        } else if r < 60 {
            self.push(" $");
            let n = self.rng.range(1, 140);
            push_num(&mut self.buf, n);
        } else if r < 66 {
            self.push(" (=)");
        }
    }

    /// `{ words }`, on one line or several.
    fn comment(&mut self, may_span: bool) {
        self.push("{ ");
        let lines = if may_span && self.rng.chance(250) {
            self.rng.range(2, 4)
        } else {
            1
        };
        self.words(lines);
        self.push(" }");
    }

    /// A comment's words, over `lines` lines.
    fn words(&mut self, lines: u32) {
        for l in 0..lines {
            if l > 0 {
                self.newline();
                self.push("  ");
            }
            let n = self.rng.range(3, 12);
            for w in 0..n {
                if w > 0 {
                    self.push(" ");
                }
                let word = *self.rng.pick(WORDS);
                self.push(word);
            }
        }
    }

    /// `( N. move, move ... )` with comments and nested variations inside.
    fn variation(&mut self, number: u32, depth: u32) {
        self.push("(");
        if depth == 1 && self.rng.chance(200) {
            let l = self.rng.range(1, 3);
            self.push("$[");
            push_num(&mut self.buf, l);
            self.push("] ");
        }
        let n = self.rng.range(1, 5);
        let mut side = Side::White;
        let mut number = number;
        for k in 0..n {
            if side == Side::White {
                if k > 0 {
                    self.push(" ");
                }
                push_num(&mut self.buf, number);
                self.push(". ");
            } else {
                self.push(", ");
            }
            let mut m = Vec::new();
            self.half_move(&mut m, side, false);
            self.buf.extend_from_slice(&m);
            self.annotations();
            if side == Side::Black {
                number += 1;
                side = Side::White;
                let r = self.rng.below(1000);
                if r < 150 {
                    self.newline();
                    self.push(".");
                    self.comment(true);
                    self.newline();
                    self.push(".");
                } else if r < 250 && depth < 3 {
                    self.push(" .");
                    self.variation(number, depth + 1);
                }
            } else {
                side = Side::Black;
            }
        }
        self.push(")");
    }

    /// An annotation-heavy game ([`Shape::Annotated`]). Its main line is
    /// played on a board, so that `--verify` replays it; the moves of
    /// variations and of quoted games are random, as nothing replays them.
    fn annotated_game(&mut self) {
        self.letters = match self.rng.below(4) {
            0 => Letters::Redefine(self.rng.below(REDEFINES.len() as u32) as usize),
            1 => Letters::Fan,
            _ => Letters::Standard,
        };
        let (mut board, mut side, mut number, pdtl) = self.start(250);

        // The moves first, so that a mate decides the result.
        let n_half = self.rng.range(16, 100);
        let mate = self.rng.chance(250);
        let mut moves = Vec::with_capacity(n_half as usize);
        let mut mover = side;
        for k in 0..n_half {
            let mut m = Vec::with_capacity(24);
            self.coherent_move(&mut board, mover, &mut m);
            let last = k + 1 == n_half;
            if last && mate {
                m.push(b'#');
            } else {
                if self.rng.chance(70) {
                    let check = *self.rng.pick(&["+", "+∞", "+^", "++"]);
                    m.extend_from_slice(check.as_bytes());
                }
                if last {
                    m.push(b':');
                }
            }
            moves.push(m);
            mover = other(mover);
        }
        // After a mate, `mover` is the mated side.
        let result = match mover {
            Side::Black if mate => "3-0",
            Side::White if mate => "0-3",
            _ => *self.rng.pick(&RESULTS),
        };

        self.annotated_tags(result, pdtl);
        self.newline();
        self.newline();
        if self.rng.chance(300) {
            self.comment(true);
            self.newline();
            self.newline();
        }

        // One pair a line, each followed by its comments and variations.
        for (k, m) in moves.iter().enumerate() {
            match side {
                Side::White => {
                    push_num(&mut self.buf, number);
                    self.push(". ");
                }
                Side::Black if k == 0 => self.black_first(number),
                Side::Black => self.push(", "),
            }
            self.buf.extend_from_slice(m);
            if k + 1 == moves.len() {
                break;
            }
            if self.rng.chance(167) {
                self.rating();
            }
            if side == Side::Black {
                self.newline();
                self.after_pair(number, k == 0);
                number += 1;
            }
            side = other(side);
        }
        self.newline();
        self.push(result);
        self.newline();
        if self.rng.chance(100) {
            self.comment(true);
            self.newline();
        }
        self.newline();
    }

    /// Where a game starts: the initial setup, or, with a chance of
    /// `per_mille`, a PDTL taken up after moves the record leaves out.
    /// Returns the board, the side to move, the move number and the PDTL.
    fn start(&mut self, per_mille: u32) -> (Board, Side, u32, Option<String>) {
        let mut board = Board::initial();
        let mut side = Side::White;
        if !self.rng.chance(per_mille) {
            return (board, side, 1, None);
        }
        let plies = self.rng.range(2, 80);
        for _ in 0..plies {
            self.coherent_move(&mut board, side, &mut Vec::new());
            side = other(side);
        }
        let number = 1 + plies / 2;
        let clock = self.rng.range(0, 40);
        // Both kings moved: a castling claim would have to match the board.
        let pdtl = self.pdtl_value(&board, side, b"--", clock, number);
        (board, side, number, Some(pdtl))
    }

    /// A game of the tag-heavy shape, laid out as the filter writes it.
    fn tag_heavy_game(&mut self) {
        self.letters = Letters::Standard;
        let (mut board, mut side, mut number, pdtl) = self.start(250);
        let result = *self.rng.pick(&RESULTS);
        self.tag("Variant", "C'escacs");
        let values = [
            ("Event", self.rng.pick(EVENTS).to_string()),
            ("Site", self.rng.pick(SITES).to_string()),
            ("Date", format!("20{:02}.??.??", self.rng.range(18, 25))),
            ("Round", self.rng.range(1, 9).to_string()),
            ("White", self.rng.pick(NAMES).to_string()),
            ("Black", self.rng.pick(NAMES).to_string()),
            ("Annotator", self.rng.pick(NAMES).to_string()),
        ];
        // Five to seven of them, then the result (and the PDTL): six to eight.
        let keep = self.rng.range(5, 7) as usize;
        for (name, value) in &values[..keep] {
            self.newline();
            self.tag(name, value);
        }
        self.newline();
        self.tag("Result", result);
        if let Some(value) = pdtl {
            self.newline();
            self.tag("PDTL", &value);
        }
        self.newline();
        self.newline();
        let n_half = self.rng.range(3, 12);
        for k in 0..n_half {
            match side {
                Side::White => {
                    push_num(&mut self.buf, number);
                    self.push(". ");
                }
                Side::Black if k == 0 => {
                    push_num(&mut self.buf, number);
                    self.push(". ..., ");
                }
                Side::Black => self.push(", "),
            }
            let mut m = Vec::with_capacity(24);
            self.coherent_move(&mut board, side, &mut m);
            self.buf.extend_from_slice(&m);
            if k + 1 == n_half {
                self.push(":");
            } else if side == Side::Black {
                self.newline();
                number += 1;
            }
            side = other(side);
        }
        self.newline();
        self.push(result);
        self.newline();
        self.newline();
    }

    /// The annotated shape's tag section: the seven tags of a registered
    /// game and more, one a line, Redefine and the PDTL last.
    fn annotated_tags(&mut self, result: &str, pdtl: Option<String>) {
        let date = format!(
            "20{:02}-{:02}-{:02}",
            self.rng.range(18, 25),
            self.rng.range(1, 12),
            self.rng.range(1, 28)
        );
        let round = if self.rng.chance(500) {
            "\u{2010}".to_string()
        } else {
            self.rng.range(1, 9).to_string()
        };
        let tags = [
            ("Event", self.rng.pick(EVENTS).to_string()),
            ("Site", self.rng.pick(SITES).to_string()),
            ("Date", date),
            ("Round", round),
            ("White", self.rng.pick(NAMES).to_string()),
            ("Black", self.rng.pick(NAMES).to_string()),
            ("Result", result.to_string()),
            ("Annotator", self.rng.pick(NAMES).to_string()),
            ("Lang", self.rng.pick(&["en", "es", "ca"]).to_string()),
        ];
        self.tag("Variant", "C'escacs");
        for (name, value) in &tags {
            self.newline();
            self.tag(name, value);
        }
        // Redefine last, or just before the PDTL, which it applies to.
        match self.letters {
            Letters::Redefine(i) => {
                for value in REDEFINES[i] {
                    self.newline();
                    self.tag("Redefine", value);
                }
            }
            Letters::Fan => {
                self.newline();
                self.tag("Redefine", "FAN");
            }
            Letters::Standard => {}
        }
        if let Some(value) = pdtl {
            self.newline();
            self.tag("PDTL", &value);
        }
    }

    /// A half-move of `side` that `--verify` accepts on `board`, played on
    /// it. Only algebraic coherence is checked, not rules of play: one of the
    /// side's pieces goes to a free hex, or takes an opponent's piece other
    /// than the king (so both kings stay, and there is always a move).
    fn coherent_move(&mut self, board: &mut Board, side: Side, out: &mut Vec<u8>) {
        let rng = &mut self.rng;
        let own = |c: Option<(u8, Side)>| c.is_some_and(|(_, s)| s == side);
        let from = board.draw(rng, u32::MAX, own).expect("the king is there");
        let victim = |c: Option<(u8, Side)>| c.is_some_and(|(p, s)| s != side && p != b'K');
        let taken = if rng.chance(220) {
            board.draw(rng, 200, victim)
        } else {
            None
        };
        let (piece, _) = board.at(from).expect("the mover's piece");
        if piece != b'P' {
            self.glyph(out, piece, side);
        }
        push_hex_name(out, from);
        let to = match taken {
            Some(to) => {
                let sign = if self.ascii || self.rng.chance(150) {
                    "*"
                } else {
                    "×"
                };
                out.extend_from_slice(sign.as_bytes());
                let (victim, _) = board.at(to).expect("the piece taken");
                if victim != b'P' {
                    self.glyph(out, victim, other(side));
                }
                to
            }
            None => {
                let dash = if self.ascii {
                    "-"
                } else {
                    *self
                        .rng
                        .pick(&["-", "-", "\u{2010}", "\u{2010}", "\u{2013}"])
                };
                out.extend_from_slice(dash.as_bytes());
                let free = board.draw(&mut self.rng, u32::MAX, |c| c.is_none());
                free.expect("a free hex")
            }
        };
        push_hex_name(out, to);
        board.set(from, None);
        board.set(to, Some((piece, side)));
    }

    /// A random half-move of `side`, written.
    fn random_move(&mut self, side: Side) {
        let mut m = Vec::with_capacity(24);
        self.half_move(&mut m, side, false);
        self.buf.extend_from_slice(&m);
    }

    /// `N. ..., ` before a Black move that opens a line of moves.
    fn black_first(&mut self, number: u32) {
        push_num(&mut self.buf, number);
        let dots = if self.rng.chance(500) {
            ". …, "
        } else {
            ". ..., "
        };
        self.push(dots);
    }

    /// A rating, a NAG or both after a half-move.
    fn rating(&mut self) {
        let r = self.rng.below(10);
        if r < 8 {
            self.push(" ");
            let rating = *self.rng.pick(&RATINGS);
            self.push(rating);
        }
        if r >= 6 {
            self.push(" $");
            let n = self.rng.range(1, 139);
            push_num(&mut self.buf, n);
        }
    }

    /// What may follow pair `number` on lines of their own: the players'
    /// comments, then a variation replacing one of its moves.
    fn after_pair(&mut self, number: u32, black_only: bool) {
        if self.rng.chance(200) {
            // White's comment, Black's, or both, White's first.
            let who = if black_only { 1 } else { self.rng.below(3) };
            if who != 1 {
                self.note("@W:");
                self.newline();
            }
            if who != 0 {
                self.note("@B:");
                self.newline();
            }
        }
        if self.rng.chance(125) {
            let side = if black_only || self.rng.chance(500) {
                Side::Black
            } else {
                Side::White
            };
            self.variation_lines(number, side, 1);
            self.newline();
        }
    }

    /// A player's comment, `{ @W: ... }`: a third of them over several
    /// lines, one in ten quoting a whole game.
    fn note(&mut self, player: &str) {
        self.push("{ ");
        self.push(player);
        if self.rng.chance(100) {
            self.push(" as in this game:");
            self.quoted_game();
            self.newline();
            self.push("}");
        } else {
            let lines = if self.rng.chance(333) {
                self.rng.range(2, 5)
            } else {
                1
            };
            self.push(" ");
            self.words(lines);
            self.push(" }");
        }
    }

    /// A whole game inside a comment, its tags and moves on lines of their
    /// own: from `{` to `}` everything is comment text.
    fn quoted_game(&mut self) {
        let result = *self.rng.pick(&RESULTS);
        let tags = [
            ("Variant", "C'escacs"),
            ("Event", *self.rng.pick(EVENTS)),
            ("White", *self.rng.pick(NAMES)),
            ("Black", *self.rng.pick(NAMES)),
            ("Result", result),
        ];
        for (name, value) in tags {
            self.newline();
            self.tag(name, value);
        }
        for number in 1..=self.rng.range(2, 8) {
            self.newline();
            push_num(&mut self.buf, number);
            self.push(". ");
            self.random_move(Side::White);
            self.push(", ");
            self.random_move(Side::Black);
        }
        self.push(":");
        self.newline();
        self.push(result);
    }

    /// A variation replacing `side`'s move `number`, at nesting `depth` (1
    /// to 3), as the spec writes them: it repeats the move's number (`(4.
    /// ..., X` for Black's), and its comments and nested variations go on
    /// lines of their own that start with a dot a level.
    fn variation_lines(&mut self, number: u32, side: Side, depth: usize) {
        self.push("(");
        if self.rng.chance(300) {
            self.push("$[");
            let label = self.rng.range(1, 3);
            push_num(&mut self.buf, label);
            self.push("] ");
        }
        let (mut number, mut side) = (number, side);
        let n = self.rng.range(1, 6);
        // Before a move number: a space, none at a line's start.
        let mut gap = "";
        for k in 0..n {
            match side {
                Side::White => {
                    self.push(gap);
                    push_num(&mut self.buf, number);
                    self.push(". ");
                }
                Side::Black if k == 0 => self.black_first(number),
                Side::Black => self.push(", "),
            }
            self.random_move(side);
            if self.rng.chance(167) {
                self.rating();
            }
            gap = " ";
            if side == Side::Black {
                // Between two pairs: a comment or a nested variation.
                let r = self.rng.below(1000);
                if k + 1 < n && (r < 150 || r < 300 && depth < 3) {
                    self.dots(depth);
                    match r {
                        0..75 => self.note("@W:"),
                        75..150 => self.note("@B:"),
                        150..225 => self.variation_lines(number, Side::White, depth + 1),
                        _ => self.variation_lines(number, Side::Black, depth + 1),
                    }
                    self.dots(depth);
                    gap = "";
                }
                number += 1;
            }
            side = other(side);
        }
        self.push(")");
    }

    /// A new line inside a variation at nesting `depth`: a dot a level.
    fn dots(&mut self, depth: usize) {
        self.newline();
        for _ in 0..depth {
            self.buf.push(b'.');
        }
    }

    /// A random PDTL in canonical form: (value, move number, side to move).
    fn pdtl(&mut self) -> (String, u32, Side) {
        let board = self.random_board();
        let turn = if self.rng.chance(500) {
            Side::White
        } else {
            Side::Black
        };
        let mut castling = Vec::with_capacity(16);
        let marks: &[(u8, Side)] = match self.rng.below(4) {
            0 => &[
                (b'R', Side::White),
                (b'K', Side::White),
                (b'R', Side::White),
                (b'R', Side::Black),
                (b'K', Side::Black),
                (b'R', Side::Black),
            ],
            1 => &[(b'K', Side::White), (b'K', Side::Black)],
            _ => &[],
        };
        if marks.is_empty() {
            castling.extend_from_slice(if self.rng.chance(500) { b"-" } else { b"--" });
        }
        for &(p, side) in marks {
            self.letters.push(&mut castling, p, side, true);
        }
        let clock = self.rng.range(0, 40);
        let number = self.rng.range(1, 60);
        (
            self.pdtl_value(&board, turn, &castling, clock, number),
            number,
            turn,
        )
    }

    /// Pieces on about half the lines, a third of their hexes each, one
    /// king a side (a PDTL without one is an error): a side the draw gave
    /// none gets its king on the first free hex from its own edge of the
    /// board, without a draw, so the games after it stay as they were.
    fn random_board(&mut self) -> Board {
        let mut board = Board::empty();
        let mut kings = [false; 2];
        let mut any = false;
        for line in (0..=28u32).rev() {
            if !self.rng.chance(450) && (line != 0 || any) {
                continue;
            }
            for col in hexes_on_line(line) {
                if !self.rng.chance(350) {
                    continue;
                }
                let side = if self.rng.chance(500) {
                    Side::White
                } else {
                    Side::Black
                };
                let mut p = *self.rng.pick(b"PPPPEEJNGRVDK");
                if p == b'K' {
                    let k = &mut kings[side as usize];
                    if *k {
                        p = b'P';
                    }
                    *k = true;
                }
                board.set((col, line), Some((p, side)));
            }
            if hexes_on_line(line).all(|col| board.at((col, line)).is_none()) {
                let first = hexes_on_line(line).next().expect("every line has a hex");
                board.set((first, line), Some((b'P', Side::White)));
            }
            any = true;
        }
        for (side, lines) in [
            (Side::White, (0..=28u32).collect::<Vec<_>>()),
            (Side::Black, (0..=28u32).rev().collect()),
        ] {
            if kings[side as usize] {
                continue;
            }
            let free = lines
                .into_iter()
                .flat_map(|line| hexes_on_line(line).map(move |col| (col, line)))
                .find(|&hex| board.at(hex).is_none())
                .expect("a random board leaves hexes free");
            board.set(free, Some((b'K', side)));
        }
        board
    }

    /// The PDTL of `board` with `turn` to move, in the game's letters.
    fn pdtl_value(
        &self,
        board: &Board,
        turn: Side,
        castling: &[u8],
        clock: u32,
        number: u32,
    ) -> String {
        let mut v = Vec::with_capacity(256);
        board.push_placement(self.letters, &mut v);
        v.extend_from_slice(if turn == Side::White { b" w " } else { b" b " });
        v.extend_from_slice(castling);
        v.extend_from_slice(b" - ");
        push_num(&mut v, clock);
        v.push(b' ');
        push_num(&mut v, number);
        String::from_utf8(v).expect("ASCII and figurines")
    }
}

fn other(side: Side) -> Side {
    match side {
        Side::White => Side::Black,
        Side::Black => Side::White,
    }
}
