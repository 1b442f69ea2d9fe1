//! `Verify`, the minimal reader's coherence check, through the whole
//! filter: real games, the spec's examples, one broken check per game, and
//! random games from a small mover that knows the algebra but no rules.

use ctlpgn_filter::{Diagnostic, FilterBuilder, Hex, Report, Severity, Side, Verify, INITIAL_PDTL};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What the `on_game_end` callback saw of one game.
#[derive(Clone, Debug)]
struct Ended {
    pdtl: String,
    coherent: bool,
    half_moves: u32,
    /// (hex index, side, letter) of every piece.
    pieces: Vec<(usize, Side, u8)>,
    turn: Side,
}

struct Run {
    out: String,
    errors: Vec<Diagnostic>,
    warnings: Vec<Diagnostic>,
    report: Report,
    ended: Vec<Ended>,
}

fn verify_with(input: &[u8], keep_variations: bool) -> Run {
    let ended = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&ended);
    let verify = Verify::new().on_game_end(move |end| {
        sink.lock().unwrap().push(Ended {
            pdtl: end.position.to_string(),
            coherent: end.coherent,
            half_moves: end.half_moves,
            pieces: end
                .position
                .pieces()
                .map(|(h, p)| (h.index(), p.side, p.glyph.letter))
                .collect(),
            turn: end.position.turn(),
        });
    });
    let mut filter = FilterBuilder::new()
        .keep_variations(keep_variations)
        .pass(Box::new(verify))
        .build();
    let (out, diags, report) = filter.filter_bytes(input);
    let ended = ended.lock().unwrap().clone();
    let (errors, warnings) = diags
        .into_iter()
        .partition(|d| d.severity == Severity::Error);
    Run {
        out: String::from_utf8(out).unwrap(),
        errors,
        warnings,
        report,
        ended,
    }
}

fn verify(input: &str) -> Run {
    verify_with(input.as_bytes(), false)
}

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(name)
}

fn real_games() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus(""))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("real-") && name.ends_with(".ctl-pgn")
        })
        .collect();
    files.sort();
    files
}

#[test]
fn a_verify_added_as_a_pass_calls_back_at_the_verdict_as_the_filters_own_does() {
    let game = "1. E7-E13, E21-E15\n2. F8-F12:\n";
    let input = game.repeat(2);
    let left_out = |builder: fn(FilterBuilder, Verify) -> FilterBuilder| {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        let verify = Verify::new().on_game_end(move |end| sink.lock().unwrap().push(end.left_out));
        builder(FilterBuilder::new().dedup(true), verify)
            .build()
            .filter_bytes(input.as_bytes());
        let seen = seen.lock().unwrap().clone();
        seen
    };
    // The second game is a duplicate: left out, and both callbacks know.
    assert_eq!(left_out(|b, v| b.verify(v)), [false, true]);
    assert_eq!(left_out(|b, v| b.pass(Box::new(v))), [false, true]);
}

#[test]
fn the_seven_real_games_verify_and_so_does_their_canonical_output() {
    let files = real_games();
    assert_eq!(files.len(), 7);
    for path in files {
        let input = std::fs::read(&path).unwrap();
        let run = verify_with(&input, false);
        assert!(
            run.errors.is_empty(),
            "{}: {:?}",
            path.display(),
            run.errors
        );
        assert_eq!(run.report.games_written, 1, "{}", path.display());
        assert!(run.ended[0].coherent);
        assert!(run.ended[0].half_moves > 60, "{}", path.display());
        // Usable alone on canonical input: the same game, the same end.
        let again = verify(&run.out);
        assert!(again.errors.is_empty(), "{}", path.display());
        assert_eq!(again.out, run.out);
        assert_eq!(again.ended[0].pdtl, run.ended[0].pdtl);
    }
}

#[test]
fn a_real_game_ends_in_the_position_its_moves_build() {
    let run = verify_with(
        &std::fs::read(corpus("real-2020-07-20.ctl-pgn")).unwrap(),
        false,
    );
    assert_eq!(
        run.ended[0].pdtl,
        "/28:v/25:kDnr/24:p1jep/23:4pp/22:1N2p2/21:2e1p3/20:2pd3/13:2j5/9:4J3/8:5j1/7:2N2P2/6:2P1P2/5:PPR3/4:PE1EP/3:R3/2:K2/ b -- - 2 35"
    );
}

/// The spec's examples: every game is coherent except the first, whose
/// third move `G7-E13` lands on E13, where White's own pawn stands since
/// `1. E7-E13`.
#[test]
fn the_spec_examples_verify_except_the_intro_games_third_move() {
    let run = verify_with(
        &std::fs::read(corpus("spec-examples.ctl-pgn")).unwrap(),
        false,
    );
    assert_eq!(run.report.games_read, 9);
    assert_eq!(run.report.games_rejected, 1);
    assert_eq!(run.errors.len(), 1);
    let e = &run.errors[0];
    assert_eq!((e.line, e.column), (10, 4));
    assert_eq!(
        e.message,
        "move 3 (White) G7-E13: E13 is occupied by a White pawn (P): a move without capture lands on an empty hex"
    );
    let coherent: Vec<bool> = run.ended.iter().map(|e| e.coherent).collect();
    assert_eq!(
        coherent,
        [false, true, true, true, true, true, true, true, true]
    );
}

/// The spec lists the 20 moves before its `DPTL` example, then the game
/// resumed from that DPTL: replaying gives the DPTL's board, turn and
/// clock, and the resumed game ends where the whole game ends.
#[test]
fn the_spec_continuation_example_agrees_with_its_moves() {
    let run = verify_with(
        &std::fs::read(corpus("spec-examples.ctl-pgn")).unwrap(),
        false,
    );
    let (whole, before, resumed) = (&run.ended[4], &run.ended[5], &run.ended[6]);
    assert_eq!(before.half_moves, 39);
    let dptl = "/28:v/27:1k/26:1jg/25:r1nr/24:pejep/23:pp2pp/22:2pjp2/21:4p3/11:3J4/9:4J3/8:3G3/7:2NN1P2/6:2P1Pd1/5:PPG2g/4:PE1EP/3:R3/2:2R/1:DK/0:V/ b KRrkr - 2";
    let fields = |s: &str| -> Vec<String> { s.split(' ').map(str::to_string).collect() };
    let (got, want) = (fields(&before.pdtl), fields(dptl));
    // Board, turn, en passant and clock agree. The castling field does
    // not: after `20. RI3-H2` the king's rook has moved, which the spec's
    // own wording writes RK; the example says KR.
    assert_eq!(
        [&got[0], &got[1], &got[3], &got[4]],
        [&want[0], &want[1], &want[3], &want[4]]
    );
    assert_eq!((got[2].as_str(), want[2].as_str()), ("RKrkr", "KRrkr"));
    assert_eq!(got[5], "20");
    let without_number = |s: &str| s.rsplit_once(' ').unwrap().0.to_string();
    assert_eq!(without_number(&resumed.pdtl), without_number(&whole.pdtl));
    assert!(
        resumed.pdtl.ends_with(" ?"),
        "numbered 1? from a DPTL without number"
    );
}

/// A file of `corpus/real-world/` replayed as `--check` does.
struct Checked {
    /// `html/NAME` or `html-history/NAME`.
    file: String,
    text: String,
    errors: Vec<Diagnostic>,
    report: Report,
    /// Each game's end: coherent, and the position reached (or where the
    /// replay stopped).
    ended: Vec<(bool, String)>,
}

impl Checked {
    /// The line of the file that `d` points into.
    fn line_of(&self, d: &Diagnostic) -> &str {
        self.text.lines().nth(d.line as usize - 1).unwrap()
    }
}

/// The 74 files of `corpus/real-world/html` and `html-history`, each
/// through `FilterBuilder::verify`, the builder `--check` uses.
fn real_world_checked() -> Vec<Checked> {
    let mut all = Vec::new();
    for folder in ["html", "html-history"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(corpus("real-world").join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "ctl-pgn"))
            .collect();
        files.sort();
        for path in files {
            let text = std::fs::read_to_string(&path).unwrap();
            let ended = Arc::new(Mutex::new(Vec::new()));
            let sink = Arc::clone(&ended);
            let verify = Verify::new().on_game_end(move |end| {
                sink.lock()
                    .unwrap()
                    .push((end.coherent, end.position.to_string()));
            });
            let mut filter = FilterBuilder::new().verify(verify).build();
            let (_, diags, report) = filter.filter_bytes(text.as_bytes());
            let ended = ended.lock().unwrap().clone();
            let name = path.file_name().unwrap().to_string_lossy();
            all.push(Checked {
                file: format!("{folder}/{name}"),
                text,
                errors: diags
                    .into_iter()
                    .filter(|d| d.severity == Severity::Error)
                    .collect(),
                report,
                ended,
            });
        }
    }
    assert_eq!(all.len(), 45 + 29);
    all
}

/// The spec's first example as the site publishes it (dated 2021-06-04):
/// `3. G7-E13` lands on E13, where White's own pawn stands since
/// `1. E7-E13`.
fn is_first_example(c: &Checked) -> bool {
    c.file.contains("date-2021-06-04")
}

/// The spec's continuation snippet `1? …, RC25-D26` as published: no tag,
/// so no PDTL.
fn is_snippet(c: &Checked) -> bool {
    c.file.contains("snippet-noid")
}

#[test]
fn the_published_first_example_is_rejected_at_g7_e13_onto_whites_own_pawn() {
    let checked = real_world_checked();
    let first: Vec<&Checked> = checked.iter().filter(|c| is_first_example(c)).collect();
    assert_eq!(first.len(), 11);
    for c in first {
        let f = &c.file;
        assert_eq!(
            (c.report.games_read, c.report.games_rejected),
            (1, 1),
            "{f}"
        );
        assert_eq!(c.errors.len(), 1, "{f}: {:?}", c.errors);
        let e = &c.errors[0];
        assert_eq!((c.line_of(e), e.column), ("3. G7-E13:", 4), "{f}");
        assert_eq!(
            e.message,
            "move 3 (White) G7-E13: E13 is occupied by a White pawn (P): a move without capture lands on an empty hex",
            "{f}"
        );
        assert_eq!(c.ended.len(), 1, "{f}");
        assert!(!c.ended[0].0, "{f}");
    }
}

#[test]
fn the_published_snippet_without_a_pdtl_is_rejected_at_its_first_move() {
    let checked = real_world_checked();
    let snippets: Vec<&Checked> = checked.iter().filter(|c| is_snippet(c)).collect();
    assert_eq!(snippets.len(), 3);
    for c in snippets {
        let f = &c.file;
        assert_eq!(
            (c.report.games_read, c.report.games_rejected),
            (1, 1),
            "{f}"
        );
        assert_eq!(c.errors.len(), 1, "{f}: {:?}", c.errors);
        let e = &c.errors[0];
        assert_eq!((c.line_of(e), e.column), ("1? …, RC25-D26", 7), "{f}");
        assert!(
            e.message.starts_with(
                "move 1? (Black) RC25-D26: without a PDTL the game starts from the initial setup with White to move"
            ),
            "{f}: {}",
            e.message
        );
    }
}

/// Of the 76 games of the 74 files, only the first example's 11 copies
/// and the snippet's 3 are rejected.
#[test]
fn only_the_first_example_and_the_snippet_are_rejected_among_the_published_records() {
    let checked = real_world_checked();
    let rejected: Vec<&str> = checked
        .iter()
        .filter(|c| c.report.games_rejected > 0)
        .map(|c| c.file.as_str())
        .collect();
    let expected: Vec<&str> = checked
        .iter()
        .filter(|c| is_first_example(c) || is_snippet(c))
        .map(|c| c.file.as_str())
        .collect();
    assert_eq!(rejected, expected);
    let total = |f: fn(&Report) -> u64| checked.iter().map(|c| f(&c.report)).sum::<u64>();
    assert_eq!(
        (
            total(|r| r.games_read),
            total(|r| r.games_written),
            total(|r| r.games_rejected)
        ),
        (76, 62, 14)
    );
}

#[test]
fn every_other_published_record_replays_without_error() {
    let checked = real_world_checked();
    let others: Vec<&Checked> = checked
        .iter()
        .filter(|c| !is_first_example(c) && !is_snippet(c))
        .collect();
    assert_eq!(others.len(), 60);
    for c in others {
        let f = &c.file;
        assert!(c.errors.is_empty(), "{f}: {:?}", c.errors);
        assert_eq!(c.report.games_rejected, 0, "{f}");
        assert_eq!(c.report.games_written, c.report.games_read, "{f}");
        assert!(!c.ended.is_empty(), "{f}");
        assert!(c.ended.iter().all(|e| e.0), "{f}: {:?}", c.ended);
    }
}

/// The site's 20 moves before its `DPTL` example reach the DPTL's board,
/// turn, en passant field and clock, in each language; the castling field
/// is where they part: the replay gives RKrkr, the site writes KRrkr.
#[test]
fn the_published_previous_moves_reach_the_published_dptl_but_for_its_castling_field() {
    let checked = real_world_checked();
    let dptl = "/28:v/27:1k/26:1jg/25:r1nr/24:pejep/23:pp2pp/22:2pjp2/21:4p3/11:3J4/9:4J3/8:3G3/7:2NN1P2/6:2P1Pd1/5:PPG2g/4:PE1EP/3:R3/2:2R/1:DK/0:V/ b KRrkr - 2";
    let want: Vec<&str> = dptl.split(' ').collect();
    let mut n = 0;
    for c in checked.iter().filter(|c| c.file.contains("nested-prev")) {
        let f = &c.file;
        assert_eq!(c.ended.len(), 1, "{f}");
        let got: Vec<&str> = c.ended[0].1.split(' ').collect();
        assert_eq!(
            [got[0], got[1], got[3], got[4]],
            [want[0], want[1], want[3], want[4]],
            "{f}"
        );
        assert_eq!((got[2], want[2]), ("RKrkr", "KRrkr"), "{f}");
        assert_eq!(got[5], "20", "{f}");
        n += 1;
    }
    // html/{ca,en,es} and html-history's 2023-09-11 English box.
    assert_eq!(n, 4);
    // Each published DPTL box carries that very string.
    let boxes: Vec<&Checked> = checked
        .iter()
        .filter(|c| c.file.contains("box-dptl"))
        .collect();
    assert_eq!(boxes.len(), 5);
    for c in boxes {
        assert!(c.text.contains(&format!("[DPTL \"{dptl}\"]")), "{}", c.file);
    }
}

const HEADER: &str = "[Variant \"C'escacs\"]\n[Site \"verify\"]\n\n";

/// `movetext` after a three-line header is rejected at (line, column)
/// with `message`, and nothing else is reported.
fn rejected_at(movetext: &str, line: u64, column: u64, message: &str) {
    let run = verify(&format!("{HEADER}{movetext}\n"));
    assert_eq!(run.report.games_rejected, 1, "{movetext}");
    assert_eq!(run.errors.len(), 1, "{movetext}: {:?}", run.errors);
    let e = &run.errors[0];
    assert_eq!(
        (e.line, e.column, e.message.as_str()),
        (line, column, message),
        "{movetext}"
    );
}

const OPENING: &str = "1. E7-E13, E21-E15\n2. F8-F12, F20-F16\n";

#[test]
fn an_empty_origin_is_rejected_at_its_move() {
    rejected_at(
        "1. E7-E13, E21-E15\n2. E9-E11:",
        5,
        4,
        "move 2 (White) E9-E11: no piece at E9",
    );
}

#[test]
fn an_origin_with_the_opponents_piece_is_rejected() {
    rejected_at(
        "1. E21-E17:",
        4,
        4,
        "move 1 (White) E21-E17: E21 holds a Black pawn (P), not a White piece",
    );
}

#[test]
fn an_origin_with_another_kind_of_piece_is_rejected() {
    rejected_at(
        "1. E7-E13, JE21-E15:",
        4,
        12,
        "move 1 (Black) JE21-E15: E21 holds a Black pawn (P), not a bishop (J)",
    );
}

#[test]
fn an_occupied_destination_is_rejected() {
    rejected_at(
        "1. E7-E13, E21-E15\n2. EE5-G7:",
        5,
        4,
        "move 2 (White) EE5-G7: G7 is occupied by a White pawn (P): a move without capture lands on an empty hex",
    );
}

#[test]
fn a_capture_of_nothing_is_rejected() {
    rejected_at(
        "1. E7-E13, E21-E15\n2. E13*F16:",
        5,
        4,
        "move 2 (White) E13*F16: nothing to capture on F16",
    );
}

#[test]
fn a_wrong_captured_letter_is_rejected() {
    rejected_at(
        &format!("{OPENING}3. E13×NF16:"),
        6,
        4,
        "move 3 (White) E13*NF16: F16 holds a Black pawn (P), not a knight (N)",
    );
}

#[test]
fn a_capture_of_an_own_piece_is_rejected() {
    rejected_at(
        "1. EE5*E7:",
        4,
        4,
        "move 1 (White) EE5*E7: E7 holds White's own pawn (P)",
    );
}

#[test]
fn en_passant_with_nothing_to_take_is_rejected() {
    rejected_at(
        "1. E7-E13, E21-E15\n2. F8@F16:",
        5,
        4,
        "move 2 (White) F8@F16: nothing to take on F16: no Black pawn stands there (scornful capture) and Black's last move passed no pawn over it (en passant)",
    );
}

#[test]
fn double_at_off_the_first_hex_of_the_triple_move_is_rejected() {
    rejected_at(
        &format!("{OPENING}3. E13×F16, E15×F12\n4. EG5-F8, EG23-F20\n5. G7-G13, F12@@G11:"),
        8,
        12,
        "move 5 (Black) F12@@G11: @@ takes on the first hex a triple pawn move passed, and White's last move passed no pawn over G11 first",
    );
}

#[test]
fn a_promotion_off_the_last_hex_is_rejected() {
    rejected_at(
        "1. E7-E13=D:",
        4,
        4,
        "move 1 (White) E7-E13=D: a pawn promotes on the last hex of its column, and E13 is not: column E ends at E27 for White",
    );
}

#[test]
fn a_forced_promotion_without_the_movers_pawn_is_rejected() {
    rejected_at(
        "1. E7-E13, B24=D:",
        4,
        12,
        "move 1 (Black) B24=D: a pawn awaiting promotion stands on the last hex of its column, and B24 is not: column B ends at B4 for Black",
    );
    rejected_at(
        "1. B24=D:",
        4,
        4,
        "move 1 (White) B24=D: B24 holds a Black pawn (P), not a White piece",
    );
}

#[test]
fn castling_into_an_occupied_hex_is_rejected() {
    rejected_at(
        "1. I5-I7, E21-E15\n2. KRK-II:",
        5,
        4,
        "move 2 (White) KRK-II: castling needs I7 empty, and it holds a White pawn (P)",
    );
}

#[test]
fn castling_after_the_king_left_is_rejected() {
    rejected_at(
        "1. H6-H10, E21-E15\n2. KG1-H6, E15-E13\n3. KRK-HH:",
        6,
        4,
        "move 3 (White) KRK-HH: the king castles from G1: no piece at G1",
    );
}

#[test]
fn a_first_move_against_the_pdtl_turn_is_rejected() {
    let game = "[Variant \"C'escacs\"]\n[PDTL \"/27:1k/7:4P3/1:1K/ b -- - 0 12\"]\n12. G7-G9:\n";
    let run = verify(game);
    assert_eq!(run.errors.len(), 1);
    let e = &run.errors[0];
    assert_eq!(
        (e.line, e.column, e.message.as_str()),
        (
            3,
            5,
            "move 12 (White) G7-G9: the PDTL gives the move to Black"
        )
    );
}

#[test]
fn the_game_after_an_incoherent_one_is_verified_afresh() {
    let input = format!("{HEADER}1. E9-E11:\n*\n\n{HEADER}1. E7-E13, E21-E15:\n*\n");
    let run = verify(&input);
    assert_eq!(
        (run.report.games_written, run.report.games_rejected),
        (1, 1)
    );
    assert_eq!(run.errors.len(), 1);
    assert!(run.ended[1].coherent);
}

#[test]
fn moves_inside_kept_variations_are_not_replayed() {
    let game = format!("{HEADER}1. E7-E13 (1. E9-E11, E19-E17) 1. ..., E21-E15:\n*\n");
    let run = verify_with(game.as_bytes(), true);
    assert!(run.errors.is_empty(), "{:?}", run.errors);
    assert!(run.out.contains("(1. E9-E11, E19-E17)"), "{}", run.out);
    assert_eq!(run.ended[0].half_moves, 2);
}

#[test]
fn a_game_with_alternative_letters_verifies_after_the_built_in_passes() {
    let game = "[Variant \"C'escacs\"]\n[Redefine \"T@R, A@J\"]\n[PDTL \"/27:1k/25:t3/5:4P1/3:3T/1:1K/ w Kk - 0 1\"]\n1. I5-I7, TC25-C23\n2. TI3-I5, TC23*TI5:\n*\n";
    let run = verify(game);
    assert!(run.errors.is_empty(), "{:?}", run.errors);
    assert_eq!(run.ended[0].pdtl, "/27:1k/7:5P2/5:4r1/1:1K/ w Kk - 0 3");
}

#[test]
fn a_first_move_by_black_without_a_pdtl_is_rejected() {
    let fix = INITIAL_PDTL.replacen(" w ", " b ", 1);
    rejected_at(
        "1. ..., E21-E15\n2. E7-E13:",
        4,
        9,
        &format!("move 1 (Black) E21-E15: without a PDTL the game starts from the initial setup with White to move; a game that starts with Black needs a PDTL with b to move (from the initial setup: [PDTL \"{fix}\"])"),
    );
    // With the PDTL the message offers, the same moves verify.
    let run = verify(&format!(
        "[Variant \"C'escacs\"]\n[PDTL \"{fix}\"]\n\n1. ..., E21-E15\n2. E7-E13:\n*\n"
    ));
    assert!(run.errors.is_empty(), "{:?}", run.errors);
    assert!(run.ended[0].coherent);
}

/// The spec's continuation snippet, as published: no PDTL, Black first.
#[test]
fn the_spec_snippet_without_a_pdtl_is_rejected_at_its_first_move() {
    let run = verify("1? …, RC25-D26\n2. VF10-H14, RD26-H22\n");
    assert_eq!(run.report.games_rejected, 1);
    assert_eq!(run.errors.len(), 1);
    let e = &run.errors[0];
    assert_eq!((e.line, e.column), (1, 7));
    assert!(
        e.message.starts_with(
            "move 1? (Black) RC25-D26: without a PDTL the game starts from the initial setup with White to move"
        ),
        "{}",
        e.message
    );
}

const PDTL_AT_7: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/8:3P3/7:3PP3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w KRkr - 0 7";

/// A game from `pdtl` with `movetext` after it (on line 3): the errors.
fn from_pdtl(pdtl: &str, movetext: &str) -> Run {
    verify(&format!(
        "[Variant \"C'escacs\"]\n[PDTL \"{pdtl}\"]\n{movetext}\n*\n"
    ))
}

#[test]
fn the_first_move_number_must_agree_with_the_pdtl() {
    for (pdtl, movetext) in [
        (PDTL_AT_7, "7. E7-E13, E21-E15:"),
        ("/27:1k/7:4P3/1:1K/ b -- - 3 ?", "1? …, KG27-G25 2. G7-G9:"),
    ] {
        let run = from_pdtl(pdtl, movetext);
        assert!(run.errors.is_empty(), "{movetext}: {:?}", run.errors);
    }
    for (pdtl, movetext, column, message) in [
        (
            PDTL_AT_7,
            "1. E7-E13, E21-E15:",
            4,
            "move 1 (White) E7-E13: the PDTL gives the move number 7, and the first move is numbered 1: number it 7., or change the PDTL's number",
        ),
        (
            PDTL_AT_7,
            "7? E7-E13, E21-E15:",
            4,
            "move 7? (White) E7-E13: the PDTL gives the move number 7: number the first move 7. (a number the PDTL knows is not written 7?)",
        ),
        (
            "/27:1k/7:4P3/1:1K/ b -- - 3 ?",
            "20. ..., KG27-G25 21. G7-G9:",
            10,
            "move 20 (Black) KG27-G25: the PDTL's move number is ? (unknown), and the first move is numbered 20.: number it 1? or give the PDTL the number 20",
        ),
    ] {
        let run = from_pdtl(pdtl, movetext);
        assert_eq!(run.report.games_rejected, 1, "{movetext}");
        assert_eq!(run.errors.len(), 1, "{movetext}: {:?}", run.errors);
        let e = &run.errors[0];
        assert_eq!((e.line, e.column, e.message.as_str()), (3, column, message));
        // Only the number is wrong: the moves are still replayed.
        assert!(run.ended[0].coherent, "{movetext}");
        assert_eq!(run.ended[0].half_moves, 2, "{movetext}");
    }
}

#[test]
fn en_passant_on_the_first_hex_of_a_triple_move_written_at_is_rejected() {
    rejected_at(
        &format!("{OPENING}3. E13×F16, E15×F12\n4. EG5-F8, EG23-F20\n5. G7-G13, F12@G9:"),
        8,
        12,
        "move 5 (Black) F12@G9: G9 is the first hex the pawn on G13 crossed in its triple move: en passant there is written @@, not @",
    );
    // `@` on the second hex crossed is right.
    let run = from_pdtl(
        "/27:1k/14:3p3/13:3P4/1:1K/ b -- E13@9-11 0 12",
        "12. ..., F14@E11:",
    );
    assert!(run.errors.is_empty(), "{:?}", run.errors);
}

#[test]
fn a_scornful_move_is_recorded_in_the_final_pdtl() {
    let field = |movetext: &str| {
        let run = verify(&format!("{HEADER}{movetext}\n*\n"));
        assert!(run.errors.is_empty(), "{movetext}: {:?}", run.errors);
        run.ended[0].pdtl.split(' ').nth(3).unwrap().to_string()
    };
    // White's E13 faced Black's E15: the spec's F14.
    assert_eq!(field("1. E7-E13, E21-E15\n2. E13-F14:"), "F14");
    // Black's G15 faced White's G13.
    assert_eq!(field("1. G7-G13, G21-G15\n2. EE5-E9, G15-F14:"), "F14");
    // Taken at once with `@`; or the step with no pawn facing it.
    assert_eq!(field("1. E7-E13, E21-E15\n2. E13-F14, E15@F14:"), "-");
    assert_eq!(field("1. E7-E13, NE25-C21\n2. E13-F14:"), "-");
    // The field the final PDTL writes reads back as the same position.
    let run = verify(&format!("{HEADER}1. E7-E13, E21-E15\n2. E13-F14:\n*\n"));
    let again = from_pdtl(&run.ended[0].pdtl, "2. ..., E15@F14:");
    assert!(again.errors.is_empty(), "{:?}", again.errors);
}

/// The errors of `run` as (line, column, message), and whether each game
/// ended coherent.
fn verdicts(run: &Run) -> (Vec<(u64, u64, &str)>, Vec<bool>) {
    (
        run.errors
            .iter()
            .map(|e| (e.line, e.column, e.message.as_str()))
            .collect(),
        run.ended.iter().map(|e| e.coherent).collect(),
    )
}

/// The spec keeps `@` for "the en passant capture and the scornful pawn
/// capture", and those "can only be made on the move following certain
/// moves of a pawn" (what the PDTL's fourth field records): `@` onto any
/// other piece is an ordinary capture, written ×.
#[test]
fn the_en_passant_and_scornful_pawn_captures_can_only_be_made_on_the_move_following_certain_moves_of_a_pawn(
) {
    let run = verify(
        &std::fs::read_to_string(corpus("verify-at-en-passant-and-scornful-only.ctl-pgn")).unwrap(),
    );
    assert_eq!(
        verdicts(&run),
        (
            vec![
                (6, 4, "move 3 (White) E13@F16: @ is for en passant and scornful captures: write E13×F16"),
                (13, 12, "move 2 (Black) E15@F12: @ is for en passant and scornful captures: write E15×F12"),
                (36, 12, "move 3 (Black) E15@F14: @ is for en passant and scornful captures: write E15×F14"),
                (51, 4, "move 3 (White) E15@D18: nothing to take on D18: no Black pawn stands there (scornful capture) and Black's last move passed no pawn over it (en passant)"),
            ],
            vec![false, false, true, true, false, true, false]
        )
    );
    // The fix the message gives makes the game coherent.
    let fixed = verify(&format!("{HEADER}{OPENING}3. E13×F16:\n*\n"));
    assert!(fixed.errors.is_empty(), "{:?}", fixed.errors);
}

/// "It starts with the value one" (the movement number): a game without a
/// PDTL starts from the initial setup, at move 1 (`1?` is move 1 too, its
/// number not known from then on); only the number is wrong, so the moves
/// are still replayed.
#[test]
fn the_movement_number_starts_with_the_value_one() {
    let run =
        verify(&std::fs::read_to_string(corpus("verify-no-pdtl-move-number.ctl-pgn")).unwrap());
    let fix = "a game without a PDTL starts at move 1: add a PDTL or number from 1";
    assert_eq!(
        verdicts(&run),
        (
            vec![
                (4, 4, format!("move 2 (White) E7-E13: {fix}").as_str()),
                (10, 5, format!("move 37 (White) E7-E13: {fix}").as_str()),
            ],
            vec![true, true, true, true, true]
        )
    );
    assert_eq!(run.report.games_rejected, 2);
    let numbers: Vec<&str> = run
        .ended
        .iter()
        .map(|e| e.pdtl.rsplit(' ').next().unwrap())
        .collect();
    assert_eq!(numbers, ["3", "38", "38", "2", "?"]);
    assert_eq!(
        run.ended[1].pdtl, run.ended[2].pdtl,
        "the board is the game's"
    );
}

/// "If the starting movement number is not known, start with one, but end
/// the number one with a question mark": after a PDTL whose number is `?`,
/// the first move is `1?`.
#[test]
fn if_the_starting_movement_number_is_not_known_start_with_one() {
    let pdtl = "/27:1k/7:4P3/1:1K/ b -- - 3 ?";
    let run = from_pdtl(pdtl, "1? …, KG27-G25 2. G7-G9:");
    assert!(run.errors.is_empty(), "{:?}", run.errors);
    assert!(run.ended[0].pdtl.ends_with(" ?"), "{}", run.ended[0].pdtl);
    let run = from_pdtl(pdtl, "20? …, KG27-G25 21. G7-G9:");
    assert_eq!(
        verdicts(&run),
        (
            vec![(3, 8, "move 20? (Black) KG27-G25: the PDTL's move number is ? (unknown), and the first move is numbered 20?: number it 1? (the spec starts an unknown number at one), or give the PDTL the number 20 and number it 20.")],
            vec![true]
        )
    );
    // Either fix the message gives verifies.
    assert!(
        from_pdtl(&pdtl.replace(" ?", " 20"), "20. ..., KG27-G25 21. G7-G9:")
            .errors
            .is_empty()
    );
}

#[test]
fn a_castling_claim_off_its_home_hex_is_a_warning_at_the_pdtl_tag() {
    let run = verify(&std::fs::read_to_string(corpus("verify-castling-claims.ctl-pgn")).unwrap());
    assert!(run.errors.is_empty(), "{:?}", run.errors);
    let claims: Vec<(u64, u64, &str)> = run
        .warnings
        .iter()
        .filter(|w| w.message.starts_with("PDTL castling field"))
        .map(|w| (w.line, w.column, w.message.as_str()))
        .collect();
    assert_eq!(
        claims,
        [
            (
                11,
                1,
                "PDTL castling field KRrkr says White's king's rook has not moved, but I3, its home hex, is empty: read as K (RK, the queen's rook on C3, fits the board)"
            ),
            (
                34,
                1,
                "PDTL castling field RKRrkr says White's king has not moved, but G1, its home hex, is empty: read as -"
            ),
        ]
    );
}

/// The corpus files of this check and of PDTL forms, verified: every
/// diagnostic and each game's final position (or where it stopped).
#[test]
fn verify_corpus_snapshots() {
    insta::with_settings!({
        snapshot_path => "../snapshots/verify",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("../corpus", "{verify-*,pdtl-*,errors/pdtl-*}.ctl-pgn", |path| {
            let run = verify_with(&std::fs::read(path).unwrap(), false);
            let name = path.file_name().unwrap().to_string_lossy();
            let mut s = String::new();
            for d in run.errors.iter().chain(&run.warnings) {
                s += &d.render(&name);
            }
            s += "--- final positions\n";
            for e in &run.ended {
                s += &format!(
                    "{} after {} half-moves: {}\n",
                    if e.coherent { "coherent" } else { "incoherent" },
                    e.half_moves,
                    e.pdtl
                );
            }
            s += &format!(
                "--- {} read, {} written, {} rejected\n",
                run.report.games_read, run.report.games_written, run.report.games_rejected
            );
            insta::assert_snapshot!(s);
        });
    });
}

// ---------------------------------------------------------------------
// A small random mover: it knows which moves are algebraically coherent
// (its own, simpler bookkeeping, independent of the crate's) and nothing
// of the rules of play.

const PAWN: u8 = b'P';
const PROMOTED: &[u8; 7] = b"EJNGRVD";

/// White's castlings as the issue lists them: prefix, suffix, king's
/// target, targets of the rooks (the prefix's rook first).
const CASTLINGS: &[(&str, &str, &str, &[&str])] = &[
    ("KRK", "II", "I5", &["I7"]),
    ("KRK", "IK", "I5", &["K4"]),
    ("KRK", "IH", "I5", &["H4"]),
    ("KRK", "HIO", "H6", &["I5"]),
    ("KRK", "HIOO", "H6", &["I7"]),
    ("KRK", "HH", "H6", &["H4"]),
    ("KRK", "HG", "H6", &["G5"]),
    ("KRK", "FG", "F6", &["G5"]),
    ("KRK", "FE", "F6", &["E7"]),
    ("KRK", "EF", "E5", &["F6"]),
    ("KRK", "EE", "E5", &["E7"]),
    ("KRD", "DD", "D2", &["D4"]),
    ("KRD", "DE", "D2", &["E1"]),
    ("KRD", "HH", "H6", &["H8"]),
    ("KRD", "HG", "H6", &["G7"]),
    ("KRD", "FG", "F6", &["G7"]),
    ("KRD", "FE", "F6", &["E5"]),
    ("KRD", "EF", "E5", &["F6"]),
    ("KRD", "ED", "E5", &["D4"]),
    ("KRR", "HIH", "H6", &["I7", "H8"]),
    ("KRR", "HGG", "H6", &["G5", "G7"]),
    ("KRR", "FGG", "F6", &["G5", "G7"]),
    ("KRR", "FEE", "F6", &["E7", "E5"]),
    ("KRR", "EEF", "E5", &["E7", "F6"]),
];

fn hex_for(white: &str, side: Side) -> Hex {
    let h = Hex::parse(white.as_bytes()).unwrap();
    match side {
        Side::White => h,
        Side::Black => Hex::new(h.column(), 28 - u32::from(h.line())).unwrap(),
    }
}

fn last_line(column_index: usize, side: Side) -> u8 {
    let first = column_index.abs_diff(7) as u8;
    match side {
        Side::White => 28 - first,
        Side::Black => first,
    }
}

fn is_last(h: Hex, side: Side) -> bool {
    h.line() == last_line(h.column_index(), side)
}

#[derive(Clone, Debug, PartialEq)]
enum Mv {
    Move {
        piece: u8,
        from: Hex,
        sep: &'static str,
        /// The kind taken (`P` for a pawn), 0 for a plain move.
        taken: u8,
        to: Hex,
        /// `&` or the promoted letter.
        promotion: Option<u8>,
    },
    Castle(&'static str, &'static str),
    Forced {
        at: Hex,
        piece: u8,
    },
}

impl Mv {
    fn text(&self) -> String {
        match self {
            Mv::Move {
                piece,
                from,
                sep,
                taken,
                to,
                promotion,
            } => {
                let mut s = String::new();
                if *piece != PAWN {
                    s.push(*piece as char);
                }
                s += &format!("{from}{sep}");
                if *taken != 0 && *taken != PAWN {
                    s.push(*taken as char);
                }
                s += &to.to_string();
                if let Some(p) = promotion {
                    s.push('=');
                    s.push(*p as char);
                }
                s
            }
            Mv::Castle(prefix, suffix) => format!("{prefix}-{suffix}"),
            Mv::Forced { at, piece } => format!("{at}={}", *piece as char),
        }
    }
}

/// The test's own board: who stands where, the pawn run of the last
/// half-move (where the pawn is, the hexes it passed from its origin on),
/// and where its pawn stepped if it was a scornful move.
#[derive(Clone, Debug)]
struct Model {
    board: Vec<Option<(Side, u8)>>,
    run: Option<(Hex, Vec<Hex>)>,
    scornful: Option<Hex>,
}

impl Model {
    fn initial() -> Model {
        let mut board = vec![None; Hex::COUNT];
        // The initial setup, line by line from White's side.
        let white: [(u8, &str); 9] = [
            (0, "V"),
            (1, "DK"),
            (2, "GJG"),
            (3, "RNNR"),
            (4, "PEJEP"),
            (5, "PPEEPP"),
            (6, "..PJP.."),
            (7, "...PP..."),
            (8, "...P..."),
        ];
        for (line, pieces) in white {
            let hexes: Vec<Hex> = (0..Hex::COUNT)
                .map(Hex::from_index)
                .filter(|h| h.line() == line)
                .collect();
            assert_eq!(hexes.len(), pieces.len(), "line {line}");
            for (h, c) in hexes.iter().zip(pieces.bytes()) {
                if c != b'.' {
                    board[h.index()] = Some((Side::White, c));
                    let mirror = Hex::new(h.column(), 28 - u32::from(h.line())).unwrap();
                    board[mirror.index()] = Some((Side::Black, c));
                }
            }
        }
        Model {
            board,
            run: None,
            scornful: None,
        }
    }

    fn at(&self, h: Hex) -> Option<(Side, u8)> {
        self.board[h.index()]
    }

    /// Is a pawn's plain step from `from` to `to` a scornful move? The
    /// spec's F14: a step to a neighbouring column and line, away from an
    /// opponent's pawn that faced it two lines on, along its own column.
    fn scornful_step(&self, side: Side, from: Hex, to: Hex) -> bool {
        let up = to.line() > from.line();
        let facing = if up {
            u32::from(from.line()) + 2
        } else {
            u32::from(from.line()).wrapping_sub(2)
        };
        from.column_index().abs_diff(to.column_index()) == 1
            && from.line().abs_diff(to.line()) == 1
            && Hex::new(from.column(), facing)
                .is_ok_and(|h| self.at(h) == Some((side.other(), PAWN)))
    }

    fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (0..Hex::COUNT).map(Hex::from_index)
    }

    fn own(&self, side: Side) -> Vec<(Hex, u8)> {
        self.hexes()
            .filter_map(|h| match self.at(h) {
                Some((s, k)) if s == side => Some((h, k)),
                _ => None,
            })
            .collect()
    }

    fn empty(&self) -> Vec<Hex> {
        self.hexes().filter(|&h| self.at(h).is_none()).collect()
    }

    fn castling_fits(&self, side: Side, c: &(&str, &str, &str, &[&str])) -> bool {
        let (prefix, _, king_to, rooks_to) = *c;
        let king_from = hex_for("G1", side);
        let rooks_from: Vec<Hex> = match prefix {
            "KRK" => vec![hex_for("I3", side)],
            "KRD" => vec![hex_for("C3", side)],
            _ => vec![hex_for("I3", side), hex_for("C3", side)],
        };
        let leaving = |h: Hex| h == king_from || rooks_from.contains(&h);
        self.at(king_from) == Some((side, b'K'))
            && rooks_from.iter().all(|&r| self.at(r) == Some((side, b'R')))
            && std::iter::once(king_to)
                .chain(rooks_to.iter().copied())
                .map(|t| hex_for(t, side))
                .all(|t| self.at(t).is_none() || leaving(t))
    }

    /// Is `mv` coherent here? The oracle for corrupted moves.
    fn coherent(&self, side: Side, mv: &Mv) -> bool {
        let foe = |h: Hex, kind: u8| self.at(h) == Some((side.other(), kind));
        match *mv {
            Mv::Move {
                piece,
                from,
                sep,
                taken,
                to,
                promotion,
            } => {
                let passed = |first_only: bool| match &self.run {
                    Some((pawn, passed)) if foe(*pawn, taken) => {
                        if first_only {
                            passed.len() == 2 && passed[0] == to
                        } else {
                            passed.contains(&to)
                        }
                    }
                    _ => false,
                };
                let sep_fits = match sep {
                    "-" => self.at(to).is_none(),
                    "*" => foe(to, taken),
                    // En passant on the first hex of a triple move is `@@`;
                    // a piece on the destination is taken with `@` only
                    // where it made a scornful move on the last half-move.
                    "@" => {
                        piece == PAWN
                            && if self.at(to).is_some() {
                                self.scornful == Some(to) && foe(to, taken)
                            } else {
                                passed(false) && !passed(true)
                            }
                    }
                    _ => piece == PAWN && self.at(to).is_none() && passed(true),
                };
                from != to
                    && self.at(from) == Some((side, piece))
                    && sep_fits
                    && (promotion.is_none() || (piece == PAWN && is_last(to, side)))
            }
            Mv::Forced { at, .. } => self.at(at) == Some((side, PAWN)) && is_last(at, side),
            Mv::Castle(prefix, suffix) => CASTLINGS
                .iter()
                .find(|c| c.0 == prefix && c.1 == suffix)
                .is_some_and(|c| self.castling_fits(side, c)),
        }
    }

    fn apply(&mut self, side: Side, mv: &Mv) {
        let mut run = None;
        let mut scornful = None;
        match *mv {
            Mv::Move {
                piece,
                from,
                sep,
                to,
                promotion,
                ..
            } => {
                if piece == PAWN && sep == "-" && self.scornful_step(side, from, to) {
                    scornful = Some(to);
                }
                let victim = match sep {
                    "*" => Some(to),
                    "@" if self.at(to).is_some() => Some(to),
                    "@" | "@@" => self.run.as_ref().map(|r| r.0),
                    _ => None,
                };
                if let Some(v) = victim {
                    self.board[v.index()] = None;
                }
                self.board[from.index()] = None;
                let kind = match promotion {
                    Some(p) if p != b'&' => p,
                    _ => piece,
                };
                self.board[to.index()] = Some((side, kind));
                let steps = from.line().abs_diff(to.line());
                if piece == PAWN
                    && sep == "-"
                    && from.column() == to.column()
                    && (steps == 4 || steps == 6)
                {
                    let up = to.line() > from.line();
                    let passed = (1..steps / 2)
                        .map(|k| {
                            let l = if up {
                                from.line() + 2 * k
                            } else {
                                from.line() - 2 * k
                            };
                            Hex::new(from.column(), u32::from(l)).unwrap()
                        })
                        .collect();
                    run = Some((to, passed));
                }
            }
            Mv::Castle(prefix, suffix) => {
                let c = CASTLINGS
                    .iter()
                    .find(|c| c.0 == prefix && c.1 == suffix)
                    .unwrap();
                let rooks_from: Vec<&str> = match prefix {
                    "KRK" => vec!["I3"],
                    "KRD" => vec!["C3"],
                    _ => vec!["I3", "C3"],
                };
                for h in std::iter::once("G1").chain(rooks_from) {
                    self.board[hex_for(h, side).index()] = None;
                }
                self.board[hex_for(c.2, side).index()] = Some((side, b'K'));
                for r in c.3 {
                    self.board[hex_for(r, side).index()] = Some((side, b'R'));
                }
            }
            Mv::Forced { at, piece } => self.board[at.index()] = Some((side, piece)),
        }
        self.run = run;
        self.scornful = scornful;
    }

    /// One coherent move for `side`, steered by `choice`; `None` when the
    /// side has no piece left.
    fn pick(&self, side: Side, choice: u32) -> Option<Mv> {
        const KINDS: u32 = 9;
        let (mut kind, n) = (choice % KINDS, (choice / KINDS) as usize);
        // En passant and scornful captures exist for one half-move only:
        // take them more often.
        if self.run.is_some() && kind < 2 {
            kind = 4;
        } else if self.scornful.is_some() && kind < 2 {
            kind = 5;
        }
        let own = self.own(side);
        let foes = self.own(side.other());
        let empty = self.empty();
        let promotion = |piece: u8, to: Hex| match (piece == PAWN && is_last(to, side), n % 3) {
            (false, _) | (true, 0) => None,
            (true, 1) => Some(b'&'),
            (true, _) => Some(PROMOTED[n / 3 % 7]),
        };
        let pawns: Vec<Hex> = own.iter().filter(|o| o.1 == PAWN).map(|o| o.0).collect();
        let nth = |v: Vec<Mv>| (!v.is_empty()).then(|| v[n % v.len()].clone());
        let special = match kind {
            2 => nth(own
                .iter()
                .flat_map(|&(from, piece)| {
                    foes.iter()
                        .map(move |&(to, taken)| (from, piece, to, taken))
                })
                .map(|(from, piece, to, taken)| Mv::Move {
                    piece,
                    from,
                    sep: "*",
                    taken,
                    to,
                    promotion: promotion(piece, to),
                })
                .collect()),
            // A pawn's double or triple move along its column.
            3 => nth(pawns
                .iter()
                .flat_map(|&from| {
                    (2..=3).filter_map(move |k| {
                        let l = match side {
                            Side::White => u32::from(from.line()) + 2 * k,
                            Side::Black => u32::from(from.line()).checked_sub(2 * k)?,
                        };
                        Hex::new(from.column(), l).ok().map(|to| (from, to))
                    })
                })
                .filter(|&(_, to)| self.at(to).is_none())
                .map(|(from, to)| Mv::Move {
                    piece: PAWN,
                    from,
                    sep: "-",
                    taken: 0,
                    to,
                    promotion: promotion(PAWN, to),
                })
                .collect()),
            // En passant, by any pawn of the side (no rules).
            4 => self.run.as_ref().and_then(|(pawn, passed)| {
                let taken = self.at(*pawn)?.1;
                nth(passed
                    .iter()
                    .enumerate()
                    .filter(|(_, &p)| self.at(p).is_none())
                    .flat_map(|(i, &to)| {
                        let first_of_triple = i == 0 && passed.len() == 2;
                        let seps: &[&'static str] = if first_of_triple { &["@@"] } else { &["@"] };
                        pawns.iter().flat_map(move |&from| {
                            seps.iter().map(move |&sep| Mv::Move {
                                piece: PAWN,
                                from,
                                sep,
                                taken,
                                to,
                                promotion: None,
                            })
                        })
                    })
                    .collect())
            }),
            // The scornful pawn taken with `@`, by any pawn of the side (no
            // rules); or else a scornful move, where a pawn faces one.
            5 => match self.scornful.and_then(|to| Some((to, self.at(to)?))) {
                Some((to, (s, taken))) if s != side => nth(pawns
                    .iter()
                    .map(|&from| Mv::Move {
                        piece: PAWN,
                        from,
                        sep: "@",
                        taken,
                        to,
                        promotion: promotion(PAWN, to),
                    })
                    .collect()),
                _ => nth(pawns
                    .iter()
                    .flat_map(|&from| self.hexes().map(move |to| (from, to)))
                    .filter(|&(from, to)| {
                        self.at(to).is_none() && self.scornful_step(side, from, to)
                    })
                    .map(|(from, to)| Mv::Move {
                        piece: PAWN,
                        from,
                        sep: "-",
                        taken: 0,
                        to,
                        promotion: promotion(PAWN, to),
                    })
                    .collect()),
            },
            6 => nth(CASTLINGS
                .iter()
                .filter(|c| self.castling_fits(side, c))
                .map(|c| Mv::Castle(c.0, c.1))
                .collect()),
            // Promotions: to an empty last hex, or forced on one.
            7 => nth(pawns
                .iter()
                .flat_map(|&from| {
                    let forced = is_last(from, side).then_some(Mv::Forced {
                        at: from,
                        piece: PROMOTED[n % 7],
                    });
                    let arrivals = empty
                        .iter()
                        .filter(|&&to| is_last(to, side))
                        .map(move |&to| Mv::Move {
                            piece: PAWN,
                            from,
                            sep: "-",
                            taken: 0,
                            to,
                            promotion: Some(if n % 2 == 0 { b'&' } else { PROMOTED[n % 7] }),
                        });
                    forced.into_iter().chain(arrivals)
                })
                .collect()),
            // Clearing a castling target of the side's own piece.
            8 => {
                let targets: Vec<Hex> = CASTLINGS
                    .iter()
                    .flat_map(|c| std::iter::once(c.2).chain(c.3.iter().copied()))
                    .map(|t| hex_for(t, side))
                    .collect();
                let blockers: Vec<(Hex, u8)> = own
                    .iter()
                    .copied()
                    .filter(|o| targets.contains(&o.0))
                    .collect();
                (!blockers.is_empty() && !empty.is_empty()).then(|| {
                    let (from, piece) = blockers[n % blockers.len()];
                    let to = empty[(n / blockers.len()) % empty.len()];
                    Mv::Move {
                        piece,
                        from,
                        sep: "-",
                        taken: 0,
                        to,
                        promotion: promotion(piece, to),
                    }
                })
            }
            _ => None,
        };
        special.or_else(|| {
            // Otherwise a plain move of any own piece to any empty hex.
            if own.is_empty() || empty.is_empty() {
                return None;
            }
            let i = n % (own.len() * empty.len());
            let (from, piece) = own[i / empty.len()];
            let to = empty[i % empty.len()];
            Some(Mv::Move {
                piece,
                from,
                sep: "-",
                taken: 0,
                to,
                promotion: promotion(piece, to),
            })
        })
    }
}

/// A generated game: its half-moves, the model before each, and the
/// model at the end.
struct Game {
    black_first: bool,
    moves: Vec<(Side, Mv)>,
    before: Vec<Model>,
    end: Model,
}

fn generate(black_first: bool, choices: &[u32]) -> Game {
    let mut model = Model::initial();
    let mut side = if black_first {
        Side::Black
    } else {
        Side::White
    };
    let (mut moves, mut before) = (Vec::new(), Vec::new());
    for &c in choices {
        let Some(mv) = model.pick(side, c) else { break };
        assert!(model.coherent(side, &mv), "the mover made {mv:?}");
        before.push(model.clone());
        model.apply(side, &mv);
        moves.push((side, mv));
        side = side.other();
    }
    Game {
        black_first,
        moves,
        before,
        end: model,
    }
}

/// The game's text, and the (line, column, length) of each half-move.
fn write(game: &Game, texts: &[String]) -> (String, Vec<(u64, u64, u64)>) {
    let mut out = String::from("[Variant \"C'escacs\"]\n");
    if game.black_first {
        // Black moves first only from a PDTL that gives it the move.
        out += &format!("[PDTL \"{}\"]\n", INITIAL_PDTL.replacen(" w ", " b ", 1));
    }
    out.push('\n');
    let mut at = Vec::new();
    let mut line = 3 + u64::from(game.black_first);
    let mut current = String::new();
    let offset = usize::from(game.black_first);
    for i in 0..texts.len() {
        let slot = i + offset;
        if slot % 2 == 0 {
            current = format!("{}. ", slot / 2 + 1);
        } else if i == 0 {
            current = "1. ..., ".to_string();
        } else {
            current += ", ";
        }
        at.push((line, current.len() as u64 + 1, texts[i].len() as u64));
        current += &texts[i];
        if i + 1 == texts.len() {
            current.push(':');
        }
        if slot % 2 == 1 || i + 1 == texts.len() {
            out += &current;
            out.push('\n');
            line += 1;
        }
    }
    out += "*\n";
    (out, at)
}

fn texts(game: &Game) -> Vec<String> {
    game.moves.iter().map(|(_, m)| m.text()).collect()
}

fn board_of(model: &Model) -> Vec<(usize, Side, u8)> {
    (0..Hex::COUNT)
        .filter_map(|i| model.board[i].map(|(s, k)| (i, s, k)))
        .collect()
}

/// The mover reaches every kind of move the checks cover, so the
/// properties below exercise them all.
#[test]
fn the_random_mover_makes_every_kind_of_move() {
    let mut seen = std::collections::BTreeSet::new();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..200 {
        let choices: Vec<u32> = (0..120)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u32
            })
            .collect();
        let game = generate(false, &choices);
        for (i, (side, mv)) in game.moves.iter().enumerate() {
            let before = &game.before[i];
            seen.insert(match *mv {
                Mv::Move {
                    sep: "-",
                    piece: PAWN,
                    from,
                    to,
                    ..
                } if before.scornful_step(*side, from, to) => "scornful move",
                Mv::Move {
                    sep: "-",
                    promotion: None,
                    ..
                } => "move",
                Mv::Move {
                    sep: "-",
                    promotion: Some(b'&'),
                    ..
                } => "awaiting promotion",
                Mv::Move { sep: "-", .. } => "promotion",
                Mv::Move { sep: "*", .. } => "capture",
                Mv::Move { sep: "@@", .. } => "en passant @@",
                Mv::Move { sep: "@", to, .. } if before.at(to).is_some() => "scornful capture @",
                Mv::Move { sep: "@", .. } => "en passant @",
                Mv::Move { .. } => "a separator the mover should not write",
                Mv::Castle(..) => "castling",
                Mv::Forced { .. } => "forced promotion",
            });
        }
    }
    assert_eq!(
        seen.into_iter().collect::<Vec<_>>(),
        [
            "awaiting promotion",
            "capture",
            "castling",
            "en passant @",
            "en passant @@",
            "forced promotion",
            "move",
            "promotion",
            "scornful capture @",
            "scornful move"
        ]
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Coherent random games verify, and end where the mover's board does.
    #[test]
    fn coherent_random_games_verify(
        black_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 1..140),
    ) {
        let game = generate(black_first, &choices);
        prop_assume!(!game.moves.is_empty());
        let (text, _) = write(&game, &texts(&game));
        let run = verify(&text);
        prop_assert!(run.errors.is_empty(), "{:?}\n{}", run.errors, text);
        prop_assert_eq!(run.ended.len(), 1);
        let end = &run.ended[0];
        prop_assert_eq!(end.half_moves as usize, game.moves.len());
        prop_assert_eq!(&end.pieces, &board_of(&game.end));
        let last = game.moves.last().unwrap().0;
        prop_assert_eq!(end.turn, last.other());
    }

    /// One hex of one move replaced by another (anywhere, or a few steps
    /// along its own column, where the `@@`, en passant and promotion
    /// boundaries are): either the move is still coherent (and any error
    /// comes later), or the game is rejected at that very move.
    #[test]
    fn a_corrupted_hex_is_caught_at_its_move_or_is_coherent(
        black_first in any::<bool>(),
        choices in prop::collection::vec(any::<u32>(), 1..100),
        which in any::<prop::sample::Index>(),
        field in any::<bool>(),
        replacement in 0..Hex::COUNT,
        along_column in prop::option::of(-3i32..=3),
        special_only in any::<bool>(),
    ) {
        let game = generate(black_first, &choices);
        let corruptible = |mv: &Mv| !matches!(mv, Mv::Castle(..));
        // Plain moves are most of a game: half the time, aim at the rest.
        let special = |mv: &Mv| {
            !matches!(mv, Mv::Move { sep: "-", promotion: None, .. })
        };
        let mut candidates: Vec<usize> = (0..game.moves.len())
            .filter(|&i| corruptible(&game.moves[i].1))
            .collect();
        if special_only && candidates.iter().any(|&i| special(&game.moves[i].1)) {
            candidates.retain(|&i| special(&game.moves[i].1));
        }
        prop_assume!(!candidates.is_empty());
        let k = candidates[which.index(candidates.len())];
        let (side, original) = &game.moves[k];
        let replace = |old: Hex| {
            along_column
                .and_then(|steps| {
                    let line = i32::from(old.line()) + 2 * steps;
                    Hex::new(old.column(), u32::try_from(line).ok()?).ok()
                })
                .unwrap_or(Hex::from_index(replacement))
        };
        let corrupted = match original.clone() {
            Mv::Move { piece, from, sep, taken, to, promotion } => {
                let (from, to) = if field { (replace(from), to) } else { (from, replace(to)) };
                Mv::Move { piece, from, sep, taken, to, promotion }
            }
            Mv::Forced { at, piece } => Mv::Forced { at: replace(at), piece },
            Mv::Castle(..) => unreachable!("castlings are not candidates"),
        };
        let coherent = game.before[k].coherent(*side, &corrupted);
        let mut t = texts(&game);
        t[k] = corrupted.text();
        let (text, at) = write(&game, &t);
        let run = verify(&text);
        let (line, column, len) = at[k];
        let first_error = run.errors.first().map(|e| (e.line, e.column));
        if coherent {
            if let Some(pos) = first_error {
                prop_assert!(
                    pos > (line, column + len - 1),
                    "{} is coherent but was rejected at {:?}\n{}", t[k], run.errors, text
                );
            }
        } else {
            let pos = first_error;
            prop_assert!(
                pos.is_some_and(|(l, c)| l == line && c >= column && c < column + len),
                "{} is incoherent; expected an error at {}:{}, got {:?}\n{}",
                t[k], line, column, run.errors, text
            );
        }
    }
}
