//! Property tests of the pre-filter (issues 2, 3 and 4).
//!
//! The generators build a *model* of a clean game (tags, an optional PDTL,
//! moves with their ratings and indicators, comments, variations, the
//! result) and render it in three ways:
//!
//! - canonically, exactly as the filter must write it ([`canonical`]);
//! - messily, the way real files are written ([`messy_games`]): every choice
//!   of layout, spacing, dash, capture sign, line end... comes from a list of
//!   dice, and a die of 0 always takes the canonical choice, so a failing
//!   case shrinks towards the cleanest input that still fails;
//! - under alternative piece letters ([`Letters`]: a Redefine, or FAN).
//!
//! The filter checks syntax, not the rules of play, so the moves are random
//! but well formed, and only on hexes that exist.

mod support;

use ctlpgn_filter::{run_parallel, Diagnostic, Filter, FilterBuilder, Pass, Report};
use proptest::prelude::*;
use proptest::sample::{select, Index};
use std::collections::BTreeMap;
use std::sync::OnceLock;

// ───────────────────────────── running the filter ─────────────────────────────

/// The two configurations every property is checked under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// `Filter::default()`: comments, variations and ratings dropped.
    Default,
    /// Comments, variations and ratings kept.
    KeepAll,
}

impl Mode {
    const BOTH: [Mode; 2] = [Mode::Default, Mode::KeepAll];

    fn builder(self) -> FilterBuilder {
        match self {
            Mode::Default => FilterBuilder::new(),
            Mode::KeepAll => FilterBuilder::new()
                .keep_comments(true)
                .keep_variations(true)
                .keep_ratings(true),
        }
    }

    fn filter(self) -> Filter {
        self.builder().build()
    }

    fn keeps(self) -> bool {
        self == Mode::KeepAll
    }
}

/// What one run of the filter gave.
struct Run {
    out: Vec<u8>,
    diagnostics: Vec<Diagnostic>,
    report: Report,
}

impl Run {
    fn text(&self) -> String {
        show(&self.out)
    }

    fn messages(&self) -> String {
        self.diagnostics.iter().map(|d| d.render("input")).collect()
    }
}

/// Filters `input` in `mode`.
fn filter(mode: Mode, input: &[u8]) -> Run {
    let (out, diagnostics, report) = mode.filter().filter_bytes(input);
    Run {
        out,
        diagnostics,
        report,
    }
}

/// Filters `input` in `mode` to the typographic form (issue 44).
fn typographic(mode: Mode, input: &[u8]) -> Vec<u8> {
    let mut filter = mode.builder().typographic(true).build();
    filter.filter_bytes(input).0
}

fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `cases` cases, unless `PROPTEST_CASES` asks for another number (for a
/// longer hunt: `PROPTEST_CASES=20000 cargo test --test properties`).
fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(cases);
    ProptestConfig {
        cases,
        // Only tests/properties.rs is ours: no regression files beside it.
        failure_persistence: None,
        // A failure shrinks for at most 20 s.
        max_shrink_time: 20_000,
        ..ProptestConfig::default()
    }
}

// ───────────────────────────── dice ─────────────────────────────

/// The messy renderer's choices. A roll of 0 always means "as canonical".
#[derive(Clone, Debug, Default)]
struct Dice {
    rolls: Vec<u8>,
    next: usize,
}

impl Dice {
    fn new(rolls: Vec<u8>) -> Dice {
        Dice { rolls, next: 0 }
    }

    fn roll(&mut self) -> usize {
        if self.rolls.is_empty() {
            return 0;
        }
        let r = self.rolls[self.next % self.rolls.len()];
        self.next += 1;
        usize::from(r)
    }

    /// One of `n` forms; form 0 is the canonical one.
    fn pick(&mut self, n: usize) -> usize {
        self.roll() % n
    }

    /// The messy form, `k` times in `n` (never on a roll of 0).
    fn chance(&mut self, k: usize, n: usize) -> bool {
        self.roll() % n >= n - k
    }
}

fn dice() -> impl Strategy<Value = Dice> {
    prop::collection::vec(any::<u8>(), 0..200).prop_map(Dice::new)
}

// ───────────────────────────── the board ─────────────────────────────

const COLUMNS: &[u8; 15] = b"PTABCDEFGHIKLXZ";

/// A hex of the board; ordered by line, then column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Hex {
    line: u8,
    col: u8,
}

impl Hex {
    /// Column `col` (P = 0 ... Z = 14) runs from line d to 28 - d by 2,
    /// where d is its distance from column F.
    fn exists(col: u8, line: u8) -> bool {
        let d = col.abs_diff(7);
        line >= d && line <= 28 - d && (line - d).is_multiple_of(2)
    }

    fn on_line(line: u8) -> impl Iterator<Item = Hex> {
        (0..15)
            .filter(move |&col| Hex::exists(col, line))
            .map(move |col| Hex { line, col })
    }

    fn all() -> impl Iterator<Item = Hex> {
        (0..=28).flat_map(Hex::on_line)
    }

    fn text(self) -> String {
        format!("{}{}", COLUMNS[usize::from(self.col)] as char, self.line)
    }
}

fn hex() -> impl Strategy<Value = Hex> {
    (0..15u8).prop_flat_map(|col| {
        let d = col.abs_diff(7);
        (0..=14 - d).prop_map(move |k| Hex {
            line: d + 2 * k,
            col,
        })
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    White,
    Black,
}

impl Side {
    fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::White), Just(Side::Black)]
}

/// Every piece letter, pawn included.
const PIECES: &[u8] = b"PEJNGRVDK";
/// Pieces written before a move (the pawn is written without a letter).
const MOVERS: &[u8] = b"EJNGRVDK";
/// Pieces a pawn promotes to.
const PROMOTIONS: &[u8] = b"EJNGRVD";

/// FAN figurines: (letter, White's, Black's).
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

fn figurine(letter: u8, side: Side) -> &'static str {
    let (_, white, black) = FIGURINES
        .iter()
        .find(|f| f.0 == letter)
        .expect("a standard letter");
    match side {
        Side::White => white,
        Side::Black => black,
    }
}

// ───────────────────────────── the game model ─────────────────────────────

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sep {
    Move,
    Capture,
    EnPassant,
    TripleEnPassant,
}

#[derive(Clone, Debug)]
enum Action {
    Move {
        piece: Option<u8>,
        from: Hex,
        sep: Sep,
        captured: Option<u8>,
        to: Hex,
        /// `Some(None)` is `=&`.
        promotion: Option<Option<u8>>,
    },
    Castling {
        prefix: &'static str,
        suffix: &'static str,
    },
    ForcedPromotion {
        at: Hex,
        piece: u8,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    Plain,
    Afar,
    Adjoining,
    Double,
    Mate,
}

#[derive(Clone, Debug)]
struct Move {
    action: Action,
    check: Option<Check>,
    rating: Option<&'static str>,
    nags: Vec<u8>,
    draw_offer: bool,
    end: bool,
}

/// A piece of comment text.
#[derive(Clone, Debug)]
enum Part {
    Text(String),
    /// `~J`, `~gL5`, `~J[d]`: a piece named in a comment.
    Ref {
        letter: u8,
        black: bool,
        after: RefTail,
    },
}

#[derive(Clone, Debug)]
enum RefTail {
    Nothing,
    Hex(Hex),
    Detail,
}

#[derive(Clone, Debug)]
struct Comment(Vec<Part>);

#[derive(Clone, Debug)]
struct Variation {
    label: Option<u8>,
    items: Vec<VarItem>,
}

#[derive(Clone, Debug)]
enum VarItem {
    Line {
        number: u32,
        black_first: bool,
        moves: Vec<Move>,
    },
    Comment(Comment),
    Nested(Variation),
}

/// What the main line holds, in order.
#[derive(Clone, Debug)]
enum Item {
    Move(Move),
    Comment(Comment),
    Variation(Variation),
}

/// A PDTL start position, in standard letters.
#[derive(Clone, Debug)]
struct Setup {
    board: BTreeMap<Hex, (u8, Side)>,
    turn: Side,
    /// `RKRrkr`, `K-`, `--`, `-`...: upper case White, lower case Black.
    castling: String,
    /// `-`, `F14`, `G15@13`, `G13@9-11`.
    en_passant: String,
    halfmove: u32,
    number: Option<u32>,
}

#[derive(Clone, Debug)]
struct Game {
    /// Tags other than Variant, Redefine and PDTL, in order.
    tags: Vec<(String, String)>,
    setup: Option<Setup>,
    first_number: u32,
    unknown_number: bool,
    black_first: bool,
    items: Vec<Item>,
    result: &'static str,
    /// Comments after the result.
    tail: Vec<Comment>,
}

const RESULTS: &[&str] = &["3-0", "2-1", "0-3", "1-2", "1-1", "*"];

impl Game {
    /// Number and side of the `k`-th half-move of the main line.
    fn numbering(&self, k: usize) -> (u32, Side) {
        let idx = k + usize::from(self.black_first);
        let side = if idx.is_multiple_of(2) {
            Side::White
        } else {
            Side::Black
        };
        (self.first_number + (idx / 2) as u32, side)
    }

    fn moves(&self) -> impl Iterator<Item = &Move> {
        self.items.iter().filter_map(|i| match i {
            Item::Move(m) => Some(m),
            _ => None,
        })
    }

    /// The result a reader infers when the result line is missing: the
    /// mating side wins, else the (last) Result tag, else `*`.
    fn inferred_result(&self) -> &'static str {
        let count = self.moves().count();
        if let Some(last) = self.moves().last() {
            if last.check == Some(Check::Mate) {
                return match self.numbering(count - 1).1 {
                    Side::White => "3-0",
                    Side::Black => "0-3",
                };
            }
        }
        match self.tags.iter().rev().find(|(n, _)| n == "Result") {
            Some((_, value)) => parse_outcome(value).unwrap_or("*"),
            None => "*",
        }
    }

    /// Only the last move of the main line may end the game.
    fn only_the_last_move_ends(mut self) -> Game {
        let last = self.items.iter().rposition(|i| matches!(i, Item::Move(_)));
        for (i, item) in self.items.iter_mut().enumerate() {
            if let Item::Move(m) = item {
                if Some(i) != last {
                    m.end = false;
                    if m.check == Some(Check::Mate) {
                        m.check = Some(Check::Plain);
                    }
                }
            }
        }
        self
    }
}

/// `3-0`, `3‐0` (any dash) or `*`, as a result.
fn parse_outcome(s: &str) -> Option<&'static str> {
    if s == "*" {
        return Some("*");
    }
    let c: Vec<char> = s.chars().collect();
    let dash = |d: char| "-\u{2010}\u{2011}\u{2012}\u{2013}\u{2014}\u{2212}".contains(d);
    if c.len() != 3 || !dash(c[1]) {
        return None;
    }
    let canonical = format!("{}-{}", c[0], c[2]);
    RESULTS.iter().copied().find(|r| *r == canonical)
}

// ───────────────────────────── strategies ─────────────────────────────

const RATINGS: &[&str] = &["?", "??", "?!", "!", "!!", "!?", "◇"];

const CASTLINGS: [(&str, &[&str]); 3] = [
    (
        "KRK",
        &[
            "II", "IK", "IH", "HIO", "HIOO", "HH", "HG", "FG", "FE", "EF", "EE",
        ],
    ),
    ("KRD", &["DD", "DE", "HH", "HG", "FG", "FE", "EF", "ED"]),
    ("KRR", &["HIH", "HGG", "FGG", "FEE", "EEF"]),
];

fn plain_move() -> impl Strategy<Value = Action> {
    let sep = prop_oneof![
        6 => Just(Sep::Move),
        3 => Just(Sep::Capture),
        1 => Just(Sep::EnPassant),
        1 => Just(Sep::TripleEnPassant),
    ];
    (
        prop::option::weighted(0.6, select(MOVERS)),
        hex(),
        sep,
        prop::option::weighted(0.5, select(MOVERS)),
        hex(),
        prop::option::weighted(0.15, prop::option::weighted(0.85, select(PROMOTIONS))),
    )
        .prop_filter("origin and destination differ", |m| m.1 != m.4)
        .prop_map(|(piece, from, sep, captured, to, promotion)| Action::Move {
            piece,
            from,
            sep,
            captured: captured.filter(|_| sep == Sep::Capture),
            to,
            promotion: promotion.filter(|_| piece.is_none()),
        })
}

fn castling() -> impl Strategy<Value = Action> {
    (0..CASTLINGS.len(), any::<Index>()).prop_map(|(k, i)| {
        let (prefix, suffixes) = CASTLINGS[k];
        Action::Castling {
            prefix,
            suffix: suffixes[i.index(suffixes.len())],
        }
    })
}

fn forced_promotion() -> impl Strategy<Value = Action> {
    (hex(), select(PROMOTIONS)).prop_map(|(at, piece)| Action::ForcedPromotion { at, piece })
}

fn action() -> impl Strategy<Value = Action> {
    prop_oneof![
        12 => plain_move(),
        1 => castling(),
        1 => forced_promotion(),
    ]
}

fn check() -> impl Strategy<Value = Option<Check>> {
    prop_oneof![
        12 => Just(None),
        2 => Just(Some(Check::Plain)),
        1 => Just(Some(Check::Afar)),
        1 => Just(Some(Check::Adjoining)),
        1 => Just(Some(Check::Double)),
        1 => Just(Some(Check::Mate)),
    ]
}

fn nags() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => Just(Vec::new()),
        1 => prop::collection::vec(any::<u8>(), 1..=2),
    ]
}

fn a_move() -> impl Strategy<Value = Move> {
    (
        action(),
        check(),
        prop::option::weighted(0.25, select(RATINGS)),
        nags(),
        prop::bool::weighted(0.05),
        prop::bool::weighted(0.5),
    )
        .prop_map(|(action, check, rating, nags, draw_offer, end)| Move {
            action,
            check,
            rating,
            nags,
            draw_offer,
            end,
        })
}

/// Comment text: anything but `}`; no `~` (piece references are generated
/// apart) and no `[` (a line of a comment that looks like a tag starts the
/// next game, by design).
fn comment_text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 .,;:!?()@#*+=é…²\n{-]{0,16}"
}

fn comment() -> impl Strategy<Value = Comment> {
    let tail = prop_oneof![
        Just(RefTail::Nothing),
        hex().prop_map(RefTail::Hex),
        Just(RefTail::Detail),
    ];
    let reference =
        (select(PIECES), any::<bool>(), tail).prop_map(|(letter, black, after)| Part::Ref {
            letter,
            black,
            after,
        });
    prop::collection::vec(
        prop_oneof![3 => comment_text().prop_map(Part::Text), 1 => reference],
        0..4,
    )
    .prop_map(Comment)
}

fn variation_line() -> impl Strategy<Value = VarItem> {
    (
        1..60u32,
        prop::bool::weighted(0.3),
        prop::collection::vec(a_move(), 1..4),
    )
        .prop_map(|(number, black_first, mut moves)| {
            for m in &mut moves {
                m.draw_offer = false;
                m.end = false;
            }
            VarItem::Line {
                number,
                black_first,
                moves,
            }
        })
}

/// A variation, nested at most `depth` more levels.
fn variation(depth: u32) -> BoxedStrategy<Variation> {
    let item = if depth == 0 {
        prop_oneof![
            3 => variation_line(),
            1 => comment().prop_map(VarItem::Comment),
        ]
        .boxed()
    } else {
        prop_oneof![
            3 => variation_line(),
            1 => comment().prop_map(VarItem::Comment),
            1 => variation(depth - 1).prop_map(VarItem::Nested),
        ]
        .boxed()
    };
    (
        prop::option::weighted(0.2, 1..10u8),
        prop::collection::vec(item, 0..4),
    )
        .prop_map(|(label, items)| Variation { label, items })
        .boxed()
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        8 => a_move().prop_map(Item::Move),
        1 => comment().prop_map(Item::Comment),
        1 => variation(2).prop_map(Item::Variation),
    ]
}

const INITIAL_SETUP: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 1";

/// C'escacs's initial setup, read from the spec's PDTL.
fn initial_setup() -> Setup {
    let (position, fields) = INITIAL_SETUP.split_once(' ').unwrap();
    let mut board = BTreeMap::new();
    for chunk in position.split('/').filter(|c| !c.is_empty()) {
        let (line, content) = chunk.split_once(':').unwrap();
        let mut hexes = Hex::on_line(line.parse().unwrap());
        let mut run = 0;
        for c in content.chars() {
            if let Some(d) = c.to_digit(10) {
                run = run * 10 + d;
                continue;
            }
            for _ in 0..std::mem::take(&mut run) {
                hexes.next();
            }
            let side = if c.is_ascii_uppercase() {
                Side::White
            } else {
                Side::Black
            };
            board.insert(hexes.next().unwrap(), (c.to_ascii_uppercase() as u8, side));
        }
    }
    assert_eq!(fields, "w RKRrkr - 0 1");
    let setup = Setup {
        board,
        turn: Side::White,
        castling: "RKRrkr".into(),
        en_passant: "-".into(),
        halfmove: 0,
        number: Some(1),
    };
    let mut dice = Dice::default();
    let rendered = Scribe::new(&mut dice, &Letters::Standard, false).pdtl(&setup);
    assert_eq!(rendered, INITIAL_SETUP, "the test's own PDTL model");
    setup
}

/// A random position with one king a side (a PDTL without one is an
/// error): a side the draw gave none gets one on the first free hex from
/// a hex drawn for it.
fn random_board() -> impl Strategy<Value = BTreeMap<Hex, (u8, Side)>> {
    (
        prop::collection::vec(prop::option::weighted(0.12, (select(PIECES), side())), 169),
        [0..169usize, 0..169usize],
    )
        .prop_map(|(cells, king_at)| {
            let mut kings = [false; 2];
            let mut board: BTreeMap<Hex, (u8, Side)> = Hex::all()
                .zip(cells)
                .filter_map(|(hex, cell)| {
                    let (mut letter, side) = cell?;
                    if letter == b'K' && std::mem::replace(&mut kings[side.index()], true) {
                        letter = b'D';
                    }
                    Some((hex, (letter, side)))
                })
                .collect();
            let hexes: Vec<Hex> = Hex::all().collect();
            for side in [Side::White, Side::Black] {
                if kings[side.index()] {
                    continue;
                }
                let free = (0..hexes.len())
                    .map(|k| hexes[(king_at[side.index()] + k) % hexes.len()])
                    .find(|h| !board.contains_key(h))
                    .expect("a board of 169 hexes holds two kings more");
                board.insert(free, (b'K', side));
            }
            board
        })
}

fn castling_field() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just("-".to_string()),
        6 => (
            select(&["RKR", "RK", "KR", "K", "-"][..]),
            select(&["rkr", "rk", "kr", "k", "-"][..]),
        )
            .prop_map(|(w, b)| format!("{w}{b}")),
    ]
}

fn en_passant_field() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => Just("-".to_string()),
        1 => hex().prop_map(Hex::text),
        1 => (hex(), 0..=28u8).prop_map(|(h, l)| format!("{}@{l}", h.text())),
        // The spec writes a triple move's lines ascending (`G13@9-11`).
        1 => (hex(), 0..=28u8, 0..=28u8)
            .prop_map(|(h, a, b)| format!("{}@{}-{}", h.text(), a.min(b), a.max(b))),
    ]
}

fn setup() -> impl Strategy<Value = Setup> {
    let random = (
        random_board(),
        side(),
        castling_field(),
        en_passant_field(),
        0..200u32,
        prop::option::weighted(0.8, 1..300u32),
    )
        .prop_map(
            |(board, turn, castling, en_passant, halfmove, number)| Setup {
                board,
                turn,
                castling,
                en_passant,
                halfmove,
                number,
            },
        );
    prop_oneof![1 => Just(initial_setup()), 3 => random]
}

const TAG_NAMES: &[&str] = &[
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Annotator",
    "AnnotatorId",
    "Id",
    "Lang",
    "Title",
    "Time_Control",
    "X9",
];

const RESULT_TAG_VALUES: &[&str] = &["3-0", "2-1", "0-3", "1-2", "1-1", "*", "1-0", "3‐0", "?"];

fn tag() -> impl Strategy<Value = (String, String)> {
    prop_oneof![
        4 => (
            select(TAG_NAMES),
            r#"[a-zA-Z0-9 ,.'():\[\]{}éñ‐-]{0,12}(?:\\"[a-zA-Z0-9 ,.'éñ‐-]{0,6})?"#,
        )
            .prop_map(|(n, v)| (n.to_string(), v)),
        1 => select(RESULT_TAG_VALUES).prop_map(|v| ("Result".to_string(), v.to_string())),
    ]
}

fn game_with_setup(setup_chance: f64) -> impl Strategy<Value = Game> {
    (
        prop::collection::vec(tag(), 0..5),
        prop::option::weighted(setup_chance, setup()),
        prop_oneof![3 => Just(1u32), 1 => 1..300u32],
        prop::bool::weighted(0.15),
        prop::bool::weighted(0.2),
        prop::collection::vec(item(), 0..14),
        select(RESULTS),
        prop_oneof![3 => Just(Vec::new()), 1 => prop::collection::vec(comment(), 1..3)],
    )
        .prop_map(
            |(tags, setup, first_number, unknown_number, black_first, items, result, tail)| {
                Game {
                    tags,
                    setup,
                    first_number,
                    unknown_number,
                    black_first,
                    items,
                    result,
                    tail,
                }
                .only_the_last_move_ends()
            },
        )
}

fn game() -> impl Strategy<Value = Game> {
    game_with_setup(0.2)
}

fn games() -> impl Strategy<Value = Vec<Game>> {
    prop::collection::vec(game(), 1..4)
}

/// How a game writes its piece letters.
#[derive(Clone, Debug)]
enum Letters {
    Standard,
    /// `[Redefine "A@J, T@R"]`: (alternative, standard letter) pairs.
    Redefine(Vec<(u8, u8)>),
    /// `[Redefine "FAN"]`; castling may still be written in letters.
    Fan {
        castling_in_letters: bool,
    },
}

impl Letters {
    /// The letter written for a standard piece letter.
    fn letter(&self, standard: u8) -> u8 {
        match self {
            Letters::Redefine(map) => map
                .iter()
                .find(|(_, s)| *s == standard)
                .map_or(standard, |(alt, _)| *alt),
            _ => standard,
        }
    }
}

/// At most one alternative per piece, at least one in all, in any order.
fn redefinition() -> impl Strategy<Value = Vec<(u8, u8)>> {
    (
        prop::option::of(select(&b"ABFL"[..])),
        prop::option::of(select(&b"CS"[..])),
        prop::option::of(Just(b'T')),
        prop::option::of(Just(b'W')),
        prop::option::of(Just(b'Q')),
    )
        .prop_map(|(j, n, r, v, d)| {
            [(j, b'J'), (n, b'N'), (r, b'R'), (v, b'V'), (d, b'D')]
                .into_iter()
                .filter_map(|(alt, standard)| alt.map(|a| (a, standard)))
                .collect::<Vec<_>>()
        })
        .prop_filter("a Redefine names at least one letter", |m| !m.is_empty())
        .prop_shuffle()
}

fn letters() -> impl Strategy<Value = Letters> {
    prop_oneof![
        3 => redefinition().prop_map(Letters::Redefine),
        1 => any::<bool>().prop_map(|c| Letters::Fan { castling_in_letters: c }),
    ]
}

// ───────────────────────────── rendering ─────────────────────────────

/// Renders games; canonical with no dice, messy with them.
struct Scribe<'a> {
    s: String,
    dice: &'a mut Dice,
    letters: &'a Letters,
    /// Write ratings, NAGs, comments and variations.
    annotations: bool,
    /// Write the movetext on as few lines as possible.
    flat: bool,
    /// The current line has text.
    line_open: bool,
    /// Never leave the result line out.
    result_line_required: bool,
    /// Write what the filter writes, even where input would be written otherwise.
    canonical: bool,
}

const DASHES: [&str; 7] = [
    "-", "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2212}",
];

impl<'a> Scribe<'a> {
    fn new(dice: &'a mut Dice, letters: &'a Letters, annotations: bool) -> Scribe<'a> {
        let flat = dice.chance(1, 5);
        Scribe {
            s: String::new(),
            dice,
            letters,
            annotations,
            flat,
            line_open: false,
            result_line_required: false,
            canonical: false,
        }
    }

    fn put(&mut self, text: &str) {
        self.s.push_str(text);
        self.line_open = true;
    }

    /// Canonically one space; none is also valid here.
    fn space_or_none(&mut self) {
        let gap = ["  ", "", "\t", " "];
        self.s.push_str(match self.dice.pick(8) {
            k @ 1..=3 => gap[k - 1],
            _ => " ",
        });
    }

    /// Canonically one space; some blank is needed here.
    fn space(&mut self) {
        self.s.push_str(match self.dice.pick(10) {
            7 => "  ",
            8 => "\t",
            9 => " \u{A0}",
            _ => " ",
        });
    }

    /// Canonically nothing; a space is also valid here.
    fn nothing_or_space(&mut self) {
        if self.dice.chance(1, 5) {
            self.s.push(' ');
        }
    }

    /// Ends the open line. Messy: trailing blanks, blank lines, or, where
    /// `may_stay` allows it, a blank instead of the line end.
    fn newline(&mut self, may_stay: bool) {
        if !self.line_open {
            return;
        }
        if may_stay && (self.flat || self.dice.chance(1, 8)) {
            self.space();
            return;
        }
        self.s.push_str(match self.dice.pick(10) {
            7 => "  \n",
            8 => "\n\n",
            9 => "\t\n \n",
            _ => "\n",
        });
        self.line_open = false;
    }

    fn dash(&mut self) -> &'static str {
        if self.dice.chance(1, 3) {
            DASHES[1 + self.dice.pick(DASHES.len() - 1)]
        } else {
            "-"
        }
    }

    fn hyphen(&mut self) -> &'static str {
        if self.dice.chance(1, 4) {
            "\u{2010}"
        } else {
            "-"
        }
    }

    // ── letters ──

    /// A piece of a move, in the game's letters (a messy standard game may
    /// use a figurine now and then: accepted with a warning).
    fn glyph(&mut self, letter: u8, side: Side) -> String {
        match self.letters {
            Letters::Fan { .. } => figurine(letter, side).to_string(),
            Letters::Standard if self.dice.chance(1, 25) => figurine(letter, side).to_string(),
            l => (l.letter(letter) as char).to_string(),
        }
    }

    fn castling_glyph(&mut self, letter: u8, side: Side) -> String {
        match self.letters {
            Letters::Fan {
                castling_in_letters: true,
            } => (letter as char).to_string(),
            _ => self.glyph(letter, side),
        }
    }

    /// A piece of a PDTL: upper case White, lower case Black.
    fn board_glyph(&mut self, letter: u8, side: Side) -> String {
        match self.letters {
            Letters::Fan { .. } => figurine(letter, side).to_string(),
            Letters::Standard if self.dice.chance(1, 30) => figurine(letter, side).to_string(),
            l => {
                let c = l.letter(letter);
                match side {
                    Side::White => (c as char).to_string(),
                    Side::Black => (c.to_ascii_lowercase() as char).to_string(),
                }
            }
        }
    }

    /// What may stand before a pawn's move, which canonically has no letter.
    fn pawn_prefix(&mut self, side: Side) -> &'static str {
        match self.letters {
            Letters::Fan { .. } if self.dice.chance(1, 3) => figurine(b'P', side),
            _ if self.dice.chance(1, 8) => "P",
            _ => "",
        }
    }

    // ── tags ──

    fn tag(&mut self, name: &str, value: &str) {
        let value = if self.dice.chance(1, 3) {
            value.replace('é', "e\u{301}").replace('ñ', "n\u{303}")
        } else {
            value.to_string()
        };
        let (open, mid, close) = if self.dice.chance(1, 4) {
            let blanks = ["", " ", "\t", "  "];
            (
                blanks[self.dice.pick(2)],
                blanks[self.dice.pick(4)],
                blanks[self.dice.pick(2)],
            )
        } else {
            ("", " ", "")
        };
        self.put(&format!("[{open}{name}{mid}\"{value}\"{close}]"));
    }

    fn redefine_tags(&mut self) -> Vec<(String, String)> {
        let map = match self.letters {
            Letters::Standard => return Vec::new(),
            Letters::Fan { .. } => return vec![("Redefine".into(), "FAN".into())],
            Letters::Redefine(map) => map,
        };
        let joint = if self.dice.chance(1, 3) { "," } else { ", " };
        let mut values = vec![Vec::new()];
        for (i, &(alt, standard)) in map.iter().enumerate() {
            if i > 0 && self.dice.chance(1, 4) {
                values.push(Vec::new());
            }
            let item = if self.dice.chance(1, 4) {
                format!(" {} @ {} ", alt as char, standard as char)
            } else {
                format!("{}@{}", alt as char, standard as char)
            };
            values.last_mut().unwrap().push(item);
        }
        values
            .into_iter()
            .map(|v| ("Redefine".to_string(), v.join(joint)))
            .collect()
    }

    fn pdtl(&mut self, s: &Setup) -> String {
        let mut t = String::from("/");
        for line in (0..=28u8).rev() {
            let hexes: Vec<Hex> = Hex::on_line(line).collect();
            if !hexes.iter().any(|h| s.board.contains_key(h)) {
                if self.dice.chance(1, 12) {
                    t += &format!("{line}:{}/", hexes.len());
                }
                continue;
            }
            t += &format!("{line}:");
            let mut empty = 0;
            for h in &hexes {
                match s.board.get(h) {
                    None => empty += 1,
                    Some(&(letter, side)) => {
                        if empty > 0 {
                            t += &std::mem::take(&mut empty).to_string();
                        }
                        t += &self.board_glyph(letter, side);
                    }
                }
            }
            if empty > 0 {
                t += &empty.to_string();
            }
            t.push('/');
        }
        let gap = if self.dice.chance(1, 6) { "  " } else { " " };
        t += gap;
        t += match s.turn {
            Side::White => "w",
            Side::Black => "b",
        };
        t += gap;
        for c in s.castling.bytes() {
            t += &match c {
                b'-' => self.hyphen().to_string(),
                c if c.is_ascii_uppercase() => self.board_glyph(c, Side::White),
                c => self.board_glyph(c.to_ascii_uppercase(), Side::Black),
            };
        }
        t += gap;
        for c in s.en_passant.chars() {
            match c {
                '-' => t += self.hyphen(),
                c => t.push(c),
            }
        }
        t += gap;
        t += &s.halfmove.to_string();
        match s.number {
            Some(n) => t += &format!("{gap}{n}"),
            // A missing move number is written `?`.
            None if !self.dice.chance(1, 2) => t += &format!("{gap}?"),
            None => {}
        }
        t
    }

    /// The tag section, with `leading` (a comment the movetext starts
    /// with) perhaps moved among the tags; returns whether it was.
    fn tags(&mut self, g: &Game, leading: Option<&Comment>, comment_may_open: bool) -> bool {
        let mut list = g.tags.clone();
        list.extend(self.redefine_tags());
        if let Some(setup) = &g.setup {
            let name = if self.dice.chance(1, 6) {
                "DPTL"
            } else {
                "PDTL"
            };
            let value = self.pdtl(setup);
            list.push((name.to_string(), value));
        }
        // Variant: first, elsewhere, or (when other tags remain) missing;
        // but not missing before a Redefine, which after a game with no end
        // would read as that game's misplaced Redefine (by design).
        let variant = ("Variant".to_string(), "C'escacs".to_string());
        if list.is_empty() || list[0].0 == "Redefine" || !self.dice.chance(1, 6) {
            let at = if self.dice.chance(1, 4) {
                self.dice.pick(list.len() + 1)
            } else {
                0
            };
            list.insert(at, variant);
        }
        let lowest = usize::from(!comment_may_open);
        let comment_at = match leading {
            Some(_) if self.dice.chance(1, 3) => {
                Some(lowest + self.dice.pick(list.len() + 1 - lowest)).filter(|&i| i < list.len())
            }
            _ => None,
        };
        for (i, (name, value)) in list.iter().enumerate() {
            self.newline(true);
            if comment_at == Some(i) {
                self.comment(leading.unwrap());
                self.newline(true);
            }
            self.tag(name, value);
        }
        // The end of the last tag line, and one blank line.
        self.newline(true);
        if !self.line_open && !self.dice.chance(1, 4) {
            self.s.push('\n');
        }
        comment_at.is_some()
    }

    // ── movetext ──

    fn move_text(&mut self, mv: &Move, side: Side) -> String {
        let mut t = String::new();
        match &mv.action {
            Action::Move {
                piece,
                from,
                sep,
                captured,
                to,
                promotion,
            } => {
                match piece {
                    Some(p) => t += &self.glyph(*p, side),
                    None => t += self.pawn_prefix(side),
                }
                t += &from.text();
                t += match sep {
                    Sep::Move => self.dash(),
                    Sep::Capture if self.dice.chance(1, 2) => "×",
                    Sep::Capture => "*",
                    Sep::EnPassant => "@",
                    Sep::TripleEnPassant => "@@",
                };
                if let Some(c) = captured {
                    t += &self.glyph(*c, side.other());
                }
                t += &to.text();
                match promotion {
                    None => {}
                    Some(None) => t += "=&",
                    Some(Some(p)) => {
                        t += "=";
                        t += &self.glyph(*p, side);
                    }
                }
            }
            Action::Castling { prefix, suffix } => {
                for c in prefix.bytes() {
                    t += &self.castling_glyph(c, side);
                }
                t += self.dash();
                t += suffix;
            }
            Action::ForcedPromotion { at, piece } => {
                t += &at.text();
                t += "=";
                t += &self.glyph(*piece, side);
            }
        }
        t += match mv.check {
            None => "",
            Some(Check::Plain) => "+",
            Some(Check::Afar) => "+∞",
            // The legacy spelling that real files use.
            Some(Check::Adjoining) if self.dice.chance(1, 2) => "^+",
            Some(Check::Adjoining) => "+^",
            Some(Check::Double) => "++",
            Some(Check::Mate) => "#",
        };
        // Full-width letters and digits (NFKC-folded by the reader).
        if t.starts_with(|c: char| c.is_ascii()) && self.dice.chance(1, 12) {
            t = t
                .chars()
                .map(|c| match c {
                    '!'..='~' => char::from_u32(c as u32 + 0xFEE0).unwrap(),
                    c => c,
                })
                .collect();
        }
        t
    }

    fn half_move(&mut self, mv: &Move, side: Side) {
        let text = self.move_text(mv, side);
        self.put(&text);
        let rated = self.annotations && mv.rating.is_some();
        if self.annotations {
            if let Some(r) = mv.rating {
                self.space_or_none();
                self.put(r);
            }
            for n in &mv.nags {
                self.space();
                self.put(&format!("${n}"));
            }
        }
        if mv.draw_offer {
            // Canonically ` (=)`, but `?!(=)` after a rating.
            if rated {
                self.nothing_or_space();
            } else {
                self.space_or_none();
            }
            self.put("(=)");
        }
        if mv.end {
            self.nothing_or_space();
            self.put(":");
        }
    }

    fn after_comma(&mut self) {
        match self.dice.pick(8) {
            5 => {}
            6 => self.s.push_str("  "),
            7 => {
                self.s.push('\n');
                self.line_open = false;
            }
            _ => self.s.push(' '),
        }
    }

    fn comma(&mut self) {
        self.nothing_or_space();
        self.put(",");
        self.after_comma();
    }

    /// `..., ` for White's move not written, after the move number.
    fn ellipsis(&mut self) {
        match self.dice.pick(6) {
            4 => {
                self.space();
                self.put("…");
            }
            5 => {
                self.space_or_none();
                self.put("…");
            }
            _ => {
                self.space();
                self.put("...");
            }
        }
        self.comma();
    }

    fn comment(&mut self, c: &Comment) {
        let mut t = String::from("{");
        for part in &c.0 {
            match part {
                Part::Text(s) => t += s,
                Part::Ref {
                    letter,
                    black,
                    after,
                } => {
                    let l = self.letters.letter(*letter);
                    t.push('~');
                    t.push(if *black { l.to_ascii_lowercase() } else { l } as char);
                    match after {
                        RefTail::Nothing => t.push(' '),
                        RefTail::Hex(h) => t += &h.text(),
                        RefTail::Detail => t += "[d]",
                    }
                }
            }
        }
        t.push('}');
        self.put(&t);
    }

    /// The dots that show a variation item's `depth`: canonically as many
    /// as the depth; any number is valid.
    fn dots(&mut self, depth: usize) {
        let n = match self.dice.pick(6) {
            4 => 0,
            5 => depth + 1,
            _ => depth,
        };
        self.put(&".".repeat(n));
    }

    /// A variation at `depth` (1: on the main line), in the spec's layout:
    /// items after a blank, with the dots of their depth (none right after
    /// the `(`); comments on lines of their own.
    fn variation(&mut self, v: &Variation, depth: usize) {
        self.put("(");
        // Right after the `(` (and its label): no blank, no dots.
        let mut opening = true;
        if let Some(l) = v.label {
            self.nothing_or_space();
            self.put(&format!("$[{l}]"));
        }
        // The White move written last, when it was the last item.
        let mut open_pair: Option<u32> = None;
        for item in &v.items {
            let at_line_start = !self.line_open;
            if let VarItem::Comment(c) = item {
                if self.line_open {
                    self.newline(true);
                }
                if self.line_open {
                    // Messy: the comment stays on the line.
                    self.s.push(' ');
                }
                self.dots(depth);
                self.comment(c);
                self.newline(true);
                opening = false;
                open_pair = None;
                continue;
            }
            let joined = matches!(item, VarItem::Line { number, black_first: true, .. }
                if open_pair == Some(*number));
            if joined {
                self.comma();
            } else if opening {
                if v.label.is_some() {
                    self.s.push(' ');
                }
            } else {
                if !at_line_start {
                    match self.dice.pick(6) {
                        4 => self.s.push_str("  "),
                        5 => {
                            self.s.push('\n');
                            self.line_open = false;
                        }
                        _ => self.s.push(' '),
                    }
                }
                self.dots(depth);
            }
            opening = false;
            open_pair = None;
            match item {
                VarItem::Line {
                    number,
                    black_first,
                    moves,
                } => {
                    for (k, mv) in moves.iter().enumerate() {
                        let idx = k + usize::from(*black_first);
                        let n = number + (idx / 2) as u32;
                        let side = if idx % 2 == 0 {
                            Side::White
                        } else {
                            Side::Black
                        };
                        if k == 0 && joined {
                        } else if k == 0 {
                            self.put(&format!("{n}."));
                            if side == Side::Black {
                                self.ellipsis();
                            } else {
                                self.space_or_none();
                            }
                        } else if side == Side::Black {
                            self.comma();
                        } else {
                            self.space();
                            self.dots(depth);
                            self.put(&format!("{n}."));
                            self.space_or_none();
                        }
                        self.half_move(mv, side);
                        open_pair = (side == Side::White).then_some(n);
                    }
                }
                VarItem::Nested(w) => self.variation(w, depth + 1),
                VarItem::Comment(_) => unreachable!(),
            }
        }
        if self.line_open {
            self.nothing_or_space();
        }
        self.put(")");
    }

    /// The main line; returns whether the last thing written was a move.
    fn main_line(&mut self, g: &Game, leading_comment_done: bool) -> bool {
        let mut k = 0;
        // White has played in this pair and Black not yet.
        let mut open_pair: Option<u32> = None;
        // A comment or variation came since White's move.
        let mut interrupted = false;
        // The number of the next White move, written before a comment.
        let mut number_written: Option<u32> = None;
        let mut last_was_move = false;
        for (i, item) in g.items.iter().enumerate() {
            match item {
                Item::Move(mv) => {
                    let (n, side) = g.numbering(k);
                    let mark = if g.unknown_number && n == g.first_number {
                        "?"
                    } else {
                        "."
                    };
                    let first = k == 0;
                    k += 1;
                    match side {
                        Side::White => {
                            if number_written != Some(n) {
                                self.newline(true);
                                self.put(&format!("{n}{mark}"));
                                self.space_or_none();
                            }
                            number_written = None;
                            open_pair = Some(n);
                        }
                        Side::Black if first => {
                            self.newline(true);
                            self.put(&format!("{n}{mark}"));
                            self.ellipsis();
                        }
                        Side::Black if open_pair == Some(n) && !interrupted => self.comma(),
                        Side::Black if self.dice.chance(1, 3) => self.comma(),
                        Side::Black => {
                            // Resumed after a comment or variation: `N?`
                            // is only for a game's first number.
                            self.newline(true);
                            self.put(&format!("{n}."));
                            self.ellipsis();
                        }
                    }
                    if side == Side::Black {
                        open_pair = None;
                    }
                    interrupted = false;
                    self.half_move(mv, side);
                    last_was_move = true;
                }
                Item::Comment(_) if i == 0 && leading_comment_done => {}
                Item::Comment(c) if self.annotations => {
                    self.newline(true);
                    let next_white = match g.items.get(i + 1) {
                        Some(Item::Move(_)) => {
                            let (n, side) = g.numbering(k);
                            (side == Side::White).then_some(n)
                        }
                        _ => None,
                    };
                    if let Some(n) = next_white.filter(|_| self.dice.chance(1, 5)) {
                        let mark = if g.unknown_number && k == 0 { "?" } else { "." };
                        self.put(&format!("{n}{mark}"));
                        self.space_or_none();
                        number_written = Some(n);
                    }
                    self.comment(c);
                    if number_written.is_some() {
                        self.space();
                    }
                    interrupted |= open_pair.is_some();
                    last_was_move = false;
                }
                Item::Variation(v) if self.annotations => {
                    self.newline(true);
                    self.variation(v, 1);
                    interrupted |= open_pair.is_some();
                    last_was_move = false;
                }
                Item::Comment(_) | Item::Variation(_) => {}
            }
        }
        last_was_move
    }

    fn result(&mut self, g: &Game, after_move: bool) {
        let omissible =
            g.moves().next().is_some() && g.tail.is_empty() && g.result == g.inferred_result();
        if omissible && !self.result_line_required && self.dice.chance(1, 5) {
            return;
        }
        self.newline(after_move);
        let text = match g.result.strip_prefix(|c: char| c.is_ascii_digit()) {
            Some(_) if self.dice.chance(1, 4) => g.result.replace('-', self.dash()),
            _ => g.result.to_string(),
        };
        self.put(&text);
    }

    /// One whole game, ending with its blank line. A comment may open the
    /// game before its tags only if `comment_may_open`.
    fn game(mut self, g: &Game, comment_may_open: bool) -> String {
        let leading = match g.items.first() {
            Some(Item::Comment(c)) if self.annotations => Some(c),
            _ => None,
        };
        let moved = self.tags(g, leading, comment_may_open);
        let after_move = self.main_line(g, moved);
        self.result(g, after_move);
        if self.annotations {
            for c in &g.tail {
                self.newline(true);
                self.comment(c);
            }
        }
        self.newline(false);
        if !self.dice.chance(1, 4) {
            self.s.push('\n');
        }
        self.s
    }
}

/// The game as the filter must write it, with or without the comments,
/// variations and ratings.
fn canonical(g: &Game, keep: bool) -> String {
    let mut dice = Dice::default();
    let mut scribe = Scribe::new(&mut dice, &Letters::Standard, keep);
    scribe.canonical = true;
    scribe.game(g, true)
}

fn canonical_all(games: &[Game], keep: bool) -> String {
    games.iter().map(|g| canonical(g, keep)).collect()
}

/// Where a run of games sits in a file.
#[derive(Clone, Copy, Debug)]
struct Place {
    /// The first game opens the file: a comment may come before its tags
    /// (after another game, that comment would belong to the game before).
    file_start: bool,
    /// The last game keeps its result line.
    result_line: bool,
}

/// A whole file.
const FILE: Place = Place {
    file_start: true,
    result_line: false,
};

/// The start of a file, ending at a game boundary: a result line, a line end.
const FILE_START: Place = Place {
    file_start: true,
    result_line: true,
};

/// The rest of a file, after a game.
const FILE_REST: Place = Place {
    file_start: false,
    result_line: false,
};

/// Each game as a real file might hold it; each ends with a line end.
fn messy_games(games: &[Game], dice: &mut Dice, letters: &Letters, place: Place) -> Vec<Vec<u8>> {
    games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let mut scribe = Scribe::new(dice, letters, true);
            scribe.result_line_required = place.result_line && i + 1 == games.len();
            let text = scribe.game(g, place.file_start && i == 0);
            let text = if dice.chance(1, 4) {
                text.replace('\n', "\r\n")
            } else {
                text
            };
            text.into_bytes()
        })
        .collect()
}

/// The games as one messy file: perhaps a BOM, perhaps no final line end.
fn messy_file(games: &[Game], dice: &mut Dice, letters: &Letters) -> Vec<u8> {
    let mut out = Vec::new();
    if dice.chance(1, 4) {
        out.extend_from_slice("\u{FEFF}".as_bytes());
    }
    out.extend(messy_games(games, dice, letters, FILE).concat());
    if dice.chance(1, 4) {
        while matches!(out.last(), Some(b'\n' | b'\r')) {
            out.pop();
        }
    }
    out
}

// ───────────────────────────── hostile input ─────────────────────────────

const FRAGMENTS: &[&str] = &[
    "[Variant \"C'escacs\"]",
    "[Variant \"Chess\"]",
    "[Event \"x\"]",
    "[Result \"3-0\"]",
    "[Redefine \"A@J, T@R\"]",
    "[Redefine \"FAN\"]",
    "[Redefine \"A@N\"]",
    "[PDTL \"/27:1k/1:DK/0:V/ w K- - 0 1\"]",
    "[DPTL \"/0:v/ b -- G13@9-11 3\"]",
    "[Title \"a \\\"b\\\"\"]",
    "[Name \"unclosed",
    "1.",
    "2.",
    "17.",
    "1?",
    "1...",
    "...",
    "…",
    ".",
    ",",
    "{",
    "}",
    "{ a comment }",
    "(",
    ")",
    "($[1]",
    "$[2]",
    "(=)",
    ":",
    "#",
    "+",
    "+∞",
    "+^",
    "^+",
    "?!",
    "!!",
    "◇",
    "$12",
    "$300",
    "3-0",
    "0-3",
    "1-1",
    "2-1",
    "1-2",
    "*",
    "1-0",
    "1/2-1/2",
    "\n",
    "\n",
    "\r\n",
    "\r",
    " ",
    " ",
    "\t",
    "\u{FEFF}",
    "\u{A0}",
    "\0",
    "E7-E13",
    "E21-E15",
    "JE11×A23",
    "TA5-A9",
    "AF6-C15",
    "A5-A9",
    "PE7-E13",
    "KRK-II",
    "KTK-II",
    "KRR-HIH+",
    "KRD-XX",
    "B24=D",
    "A21-A23=&",
    "A21-A23=",
    "F12@@G9",
    "C11@D14",
    "E13xF16",
    "F1-F3",
    "HE7-E9",
    "♗F6×♞C15",
    "🩐D2-F8",
    "♙E7-E13",
    "Ｅ７－Ｅ１３",
    "，",
    "~J",
    "\u{2010}",
    "×",
    "[",
    "]",
    "\"",
    "=",
    "\u{1FA50}",
    "\u{D7FF}",
];

/// CTL-PGN-ish tokens, stray bytes and characters, in any order.
fn token_soup(len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<u8>> {
    let fragment = prop_oneof![
        12 => select(FRAGMENTS).prop_map(|s| s.as_bytes().to_vec()),
        2 => any::<u8>().prop_map(|b| vec![b]),
        2 => any::<char>().prop_map(|c| c.to_string().into_bytes()),
        2 => (a_move(), side()).prop_map(|(mv, side)| {
            let mut dice = Dice::default();
            Scribe::new(&mut dice, &Letters::Standard, true).move_text(&mv, side).into_bytes()
        }),
    ];
    prop::collection::vec(fragment, len).prop_map(|v| v.concat())
}

/// Files of `corpus/` (and its subfolders), read at test time.
fn corpus() -> &'static [(String, Vec<u8>)] {
    static FILES: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    FILES.get_or_init(|| {
        support::corpus_files()
            .into_iter()
            .map(|path| (path.display().to_string(), std::fs::read(&path).unwrap()))
            .collect()
    })
}

#[derive(Clone, Debug)]
enum Mutation {
    Insert { at: Index, bytes: Vec<u8> },
    Delete { at: Index, len: usize },
    Duplicate { from: Index, len: usize, to: Index },
}

impl Mutation {
    fn apply(&self, data: &mut Vec<u8>) {
        match self {
            Mutation::Insert { at, bytes } => {
                let i = at.index(data.len() + 1);
                data.splice(i..i, bytes.iter().copied());
            }
            Mutation::Delete { at, len } if !data.is_empty() => {
                let i = at.index(data.len());
                data.drain(i..(i + len).min(data.len()));
            }
            Mutation::Duplicate { from, len, to } if !data.is_empty() => {
                let i = from.index(data.len());
                let chunk = data[i..(i + len).min(data.len())].to_vec();
                let t = to.index(data.len() + 1);
                data.splice(t..t, chunk);
            }
            Mutation::Delete { .. } | Mutation::Duplicate { .. } => {}
        }
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let bytes = prop_oneof![token_soup(1..4), prop::collection::vec(any::<u8>(), 1..8)];
    prop_oneof![
        (any::<Index>(), bytes).prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        (any::<Index>(), 1..64usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<Index>(), 1..256usize, any::<Index>())
            .prop_map(|(from, len, to)| Mutation::Duplicate { from, len, to }),
    ]
}

/// A corpus file with one to three random mutations.
fn mutated_corpus_file() -> impl Strategy<Value = (String, Vec<u8>)> {
    file_and_mutations().prop_map(|(file, mutations)| {
        let files = corpus();
        let (name, data) = &files[file.index(files.len())];
        (name.clone(), mutated(data, &mutations))
    })
}

/// A file to pick and one to three mutations for it.
fn file_and_mutations() -> impl Strategy<Value = (Index, Vec<Mutation>)> {
    (any::<Index>(), prop::collection::vec(mutation(), 1..4))
}

/// `data` with `mutations` applied in turn.
fn mutated(data: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut data = data.to_vec();
    for m in mutations {
        m.apply(&mut data);
    }
    data
}

/// The corpus files as filtered (`Mode::Default`): canonical games, which
/// the reader copies whole, to be mutated.
fn filtered_corpus() -> &'static [Vec<u8>] {
    static FILES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    FILES.get_or_init(|| {
        corpus()
            .iter()
            .map(|(_, data)| filter(Mode::Default, data).out)
            .collect()
    })
}

/// A filtered corpus file with one to three random mutations: canonical
/// games, some no longer canonical.
fn mutated_filtered_file() -> impl Strategy<Value = Vec<u8>> {
    file_and_mutations().prop_map(|(file, mutations)| {
        let files = filtered_corpus();
        mutated(&files[file.index(files.len())], &mutations)
    })
}

/// A pass that changes nothing and wants every item: with it in the
/// chain, every half-move goes through the passes, and the writer writes
/// each from what the passes leave (not from the text read).
struct Unchanged;

impl Pass for Unchanged {
    fn name(&self) -> &'static str {
        "unchanged"
    }
}

/// What the passes do not ask for costs nothing and changes nothing: the
/// same output, diagnostics and counts as with [`Unchanged`] in the chain.
fn interest_changes_nothing(input: &[u8]) -> Result<(), TestCaseError> {
    for mode in Mode::BOTH {
        let fast = filter(mode, input);
        let (out, diagnostics, report) = mode
            .builder()
            .pass(Box::new(Unchanged))
            .build()
            .filter_bytes(input);
        same_output(
            "the chain wrote otherwise with a pass that takes everything",
            mode,
            input,
            &fast,
            &out,
        )?;
        prop_assert_eq!(
            &fast.diagnostics,
            &diagnostics,
            "{:?}\n--- input\n{}",
            mode,
            show(input)
        );
        prop_assert_eq!(
            fast.report,
            report,
            "{:?}\n--- input\n{}",
            mode,
            show(input)
        );
    }
    Ok(())
}

/// Whatever came in: no panic, every game counted once, and what was
/// written is canonical (filtering it again reads every game back and
/// changes nothing).
fn survives(input: &[u8]) -> Result<(), TestCaseError> {
    for mode in Mode::BOTH {
        let first = filter(mode, input);
        let r = first.report;
        prop_assert_eq!(
            r.games_read,
            r.games_written + r.games_rejected,
            "{:?}",
            mode
        );
        let again = filter(mode, &first.out);
        prop_assert!(
            again.out == first.out
                && again.report.games_rejected == 0
                && again.report.games_read == r.games_written,
            "{mode:?}: the output does not filter to itself\n--- input\n{}\n--- output ({r:?})\n{}\n--- filtered again ({:?})\n{}\n--- diagnostics\n{}",
            show(input),
            first.text(),
            again.report,
            again.text(),
            again.messages(),
        );
    }
    Ok(())
}

/// The first line where two outputs differ, for failure messages.
fn first_difference(actual: &[u8], expected: &[u8]) -> String {
    let (a, e) = (show(actual), show(expected));
    let (mut a_lines, mut e_lines) = (a.split('\n'), e.split('\n'));
    for n in 1.. {
        match (a_lines.next(), e_lines.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (None, None) => break,
            (x, y) => return format!("line {n}: got {x:?}, expected {y:?}"),
        }
    }
    "none".to_string()
}

/// `actual` equals `expected`, else a failure that shows the input.
fn same_output(
    what: &str,
    mode: Mode,
    input: &[u8],
    actual: &Run,
    expected: &[u8],
) -> Result<(), TestCaseError> {
    prop_assert!(
        actual.out == expected,
        "{what} ({mode:?})\n--- first difference: {}\n--- input\n{}\n--- output ({:?})\n{}\n--- expected\n{}\n--- diagnostics\n{}",
        first_difference(&actual.out, expected),
        show(input),
        actual.report,
        actual.text(),
        show(expected),
        actual.messages(),
    );
    Ok(())
}

fn accepted(mode: Mode, input: &[u8], run: &Run) -> Result<(), TestCaseError> {
    prop_assert!(
        run.report.games_rejected == 0,
        "{mode:?}: a well-formed game was rejected\n--- input\n{}\n--- diagnostics\n{}",
        show(input),
        run.messages(),
    );
    Ok(())
}

// ───────────────────────────── the properties ─────────────────────────────

proptest! {
    #![proptest_config(config(1024))]

    /// Issue 2: filter(filter(x)) == filter(x), byte for byte, in both modes.
    #[test]
    fn filtering_is_idempotent(
        games in games(),
        letters in prop::option::weighted(0.3, letters()),
        mut dice in dice(),
    ) {
        let letters = letters.unwrap_or(Letters::Standard);
        let input = messy_file(&games, &mut dice, &letters);
        for mode in Mode::BOTH {
            let once = filter(mode, &input);
            let twice = filter(mode, &once.out);
            same_output("filtering the output again changed it", mode, &once.out, &twice, &once.out)?;
        }
    }

    /// Issue 2: filter(a ++ b) == filter(a) ++ filter(b) when a ends at a
    /// game boundary (its last game's result line and a line end).
    #[test]
    fn filtering_distributes_over_concatenation(
        a in games(),
        b in games(),
        mut dice in dice(),
    ) {
        let mut a_bytes = Vec::new();
        if dice.chance(1, 4) {
            a_bytes.extend_from_slice("\u{FEFF}".as_bytes());
        }
        a_bytes.extend(messy_games(&a, &mut dice, &Letters::Standard, FILE_START).concat());
        let mut b_bytes = messy_games(&b, &mut dice, &Letters::Standard, FILE_REST).concat();
        if dice.chance(1, 4) {
            while matches!(b_bytes.last(), Some(b'\n' | b'\r')) {
                b_bytes.pop();
            }
        }
        let whole = [a_bytes.clone(), b_bytes.clone()].concat();
        for mode in Mode::BOTH {
            let parts = [filter(mode, &a_bytes).out, filter(mode, &b_bytes).out].concat();
            let all = filter(mode, &whole);
            same_output("filter(a ++ b) != filter(a) ++ filter(b)", mode, &whole, &all, &parts)?;
        }
    }

    /// Issue 2: cutting a file at every game boundary, filtering each piece
    /// and joining the outputs gives the output of the whole file.
    #[test]
    fn splitting_at_game_boundaries_changes_nothing(
        games in prop::collection::vec(game(), 2..5),
        mut dice in dice(),
    ) {
        let mut pieces = messy_games(&games, &mut dice, &Letters::Standard, FILE);
        if dice.chance(1, 4) {
            pieces[0].splice(0..0, "\u{FEFF}".bytes());
        }
        let whole = pieces.concat();
        for mode in Mode::BOTH {
            let joined: Vec<u8> = pieces.iter().flat_map(|p| filter(mode, p).out).collect();
            let all = filter(mode, &whole);
            same_output("filtering piece by piece differs from filtering whole", mode, &whole, &all, &joined)?;
        }
    }

    /// Issue 2: a game written the messy way real files are (comments over
    /// several lines, nested variations, ratings with or without a space,
    /// NAGs, Unicode dashes and ×, `^+`, flattened tags, CRLF, BOM, no final
    /// line end, full-width moves, ...) filters exactly like the same game
    /// written clean.
    #[test]
    fn messy_games_filter_like_their_clean_form(games in games(), mut dice in dice()) {
        let messy = messy_file(&games, &mut dice, &Letters::Standard);
        for mode in Mode::BOTH {
            let clean = canonical_all(&games, mode.keeps());
            let from_messy = filter(mode, &messy);
            accepted(mode, &messy, &from_messy)?;
            let from_clean = filter(mode, clean.as_bytes());
            same_output("the messy game filters unlike the clean one", mode, &messy, &from_messy, &from_clean.out)?;
        }
    }

    /// Issue 2: canonical output, as the issue describes it, is a fixed
    /// point (the filter's oracle is the test's own canonical renderer).
    #[test]
    fn canonical_games_come_out_unchanged(games in games()) {
        for mode in Mode::BOTH {
            let clean = canonical_all(&games, mode.keeps());
            let run = filter(mode, clean.as_bytes());
            same_output("a canonical game was changed", mode, clean.as_bytes(), &run, clean.as_bytes())?;
        }
    }

    /// Issue 3: a standard game rewritten under a random Redefine (or FAN),
    /// moves, captures, promotions, castling, PDTL (board and castling
    /// field) and, when kept, comment references and variations, filters
    /// back to the standard game byte for byte. Column letters stay.
    #[test]
    fn redefined_and_fan_games_come_back_standard(
        games in prop::collection::vec(game_with_setup(0.5), 1..3),
        letters in letters(),
        mut dice in dice(),
    ) {
        let input = messy_file(&games, &mut dice, &letters);
        for mode in Mode::BOTH {
            let run = filter(mode, &input);
            accepted(mode, &input, &run)?;
            let standard = canonical_all(&games, mode.keeps());
            same_output("the standard game did not come back", mode, &input, &run, standard.as_bytes())?;
        }
    }

    /// Issue 44: the typographic form (`×`, `…`) read again gives the
    /// default output byte for byte, and filtered again to the
    /// typographic form is unchanged.
    #[test]
    fn typographic_output_read_again_gives_the_default_output(
        games in games(),
        mut dice in dice(),
    ) {
        let input = messy_file(&games, &mut dice, &Letters::Standard);
        for mode in Mode::BOTH {
            let default = filter(mode, &input);
            let typographic_once = typographic(mode, &input);
            let read_again = filter(mode, &typographic_once);
            same_output(
                "the typographic output read again differs from the default output",
                mode, &typographic_once, &read_again, &default.out,
            )?;
            let typographic_twice = typographic(mode, &typographic_once);
            prop_assert!(
                typographic_twice == typographic_once,
                "the typographic form is not a fixed point ({mode:?}): {}\n--- input\n{}",
                first_difference(&typographic_twice, &typographic_once),
                show(&typographic_once)
            );
        }
    }
}

proptest! {
    #![proptest_config(config(4096))]

    /// Issue 4: arbitrary bytes, and soups of CTL-PGN tokens, never panic,
    /// count every game once, and what is written is canonical.
    #[test]
    fn arbitrary_input_never_breaks_the_filter(
        input in prop_oneof![
            prop::collection::vec(any::<u8>(), 0..400),
            token_soup(0..120),
        ],
    ) {
        survives(&input)?;
    }

    /// Issue 4: the corpus files with bytes inserted, deleted or duplicated
    /// never panic, count every game once, and what is written is canonical.
    #[test]
    fn mutated_corpus_files_never_break_the_filter((_file, input) in mutated_corpus_file()) {
        survives(&input)?;
    }

    /// The passes' interest changes nothing: on messy games, mutated
    /// corpus files and mutated canonical files, the output, diagnostics and
    /// counts are those of a chain whose last pass takes every item.
    #[test]
    fn interest_changes_nothing_in_the_output(
        input in prop_oneof![
            (games(), dice()).prop_map(|(games, mut dice)| messy_file(&games, &mut dice, &Letters::Standard)),
            mutated_corpus_file().prop_map(|(_, data)| data),
            mutated_filtered_file(),
        ],
    ) {
        interest_changes_nothing(&input)?;
    }

    /// A comment is everything from `{` to the next `}`: a game quoted,
    /// tags and all, in a comment of another changes no count, and what
    /// is written is what the file without the quote gives (the comment
    /// dropped), on one thread and on two with small chunks.
    #[test]
    fn a_game_quoted_in_a_comment_changes_nothing_but_the_comment(
        games in prop::collection::vec(game(), 2..5),
        host in any::<Index>(),
        quoted in any::<Index>(),
        mut dice in dice(),
    ) {
        let mut pieces = messy_games(&games, &mut dice, &Letters::Standard, FILE);
        let plain = pieces.concat();
        let host = host.index(pieces.len());
        // Any `}` ends a comment, in a tag value too: none in the quote.
        let text = canonical(&games[quoted.index(games.len())], false).replace('}', ")");
        let comment = format!("\n{{ the same, quoted:\n{text}}}\n");
        pieces[host].extend_from_slice(comment.as_bytes());
        let quoting = pieces.concat();
        let without = filter(Mode::Default, &plain);
        let with = filter(Mode::Default, &quoting);
        same_output("a quoted game changed the output", Mode::Default, &quoting, &with, &without.out)?;
        prop_assert_eq!(with.report.games_read, without.report.games_read);
        let kept = filter(Mode::KeepAll, &quoting);
        prop_assert_eq!(kept.report.games_read, without.report.games_read);
        for chunk in [1, 64, 700] {
            let (mut out, mut diagnostics) = (Vec::new(), Vec::new());
            let report = run_parallel(
                &Filter::default,
                &quoting[..],
                2,
                chunk,
                &mut out,
                None,
                &mut |d| diagnostics.push(d.clone()),
            )
            .unwrap();
            prop_assert!(out == with.out, "--jobs 2 --chunk-bytes {chunk} wrote otherwise\n{}", show(&quoting));
            prop_assert_eq!((&diagnostics, report), (&with.diagnostics, with.report));
        }
    }
}
