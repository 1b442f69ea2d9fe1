//! `--split-variations`: every variation written as a linear game of its
//! own, named by its path, replayed with verify.

mod support;

use ctlpgn_filter::{Filter, FilterBuilder, Verify};
use proptest::prelude::*;
use std::fmt::Write;
use std::sync::{Arc, Mutex};

/// `Verify::on_game_end` for every game, variation games included: where
/// each game replayed ends, as `--final-pdtl` names it (`variation 0:2`).
fn final_positions() -> (Verify, Arc<Mutex<Vec<String>>>) {
    let ends = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&ends);
    let verify = Verify::new().on_game_end(move |end| {
        let path: Vec<String> = end.path.iter().map(u32::to_string).collect();
        let game = if path.is_empty() {
            format!("game of line {}", end.line)
        } else {
            format!("variation {}", path.join(":"))
        };
        sink.lock().unwrap().push(format!(
            "{game}: {} after {} half-moves: {}",
            if end.coherent {
                "coherent"
            } else {
                "incoherent"
            },
            end.half_moves,
            end.position
        ));
    });
    (verify, ends)
}

/// The split games of `input`, replayed, then the diagnostics, the final
/// positions and the counts.
fn split_and_check(name: &str, input: &[u8]) -> String {
    let (verify, ends) = final_positions();
    let mut filter = FilterBuilder::new()
        .split_variations(true)
        .verify(verify)
        .build();
    let (out, diags, r) = filter.filter_bytes(input);
    let mut s = String::from_utf8(out).expect("output is UTF-8");
    s += "--- diagnostics\n";
    for d in &diags {
        s += &d.render(name);
    }
    s += "--- final positions\n";
    for end in ends.lock().unwrap().iter() {
        s += end;
        s.push('\n');
    }
    writeln!(
        s,
        "--- {} read, {} written, {} rejected; variation games: {} written, {} rejected; {} warnings",
        r.games_read,
        r.games_written,
        r.games_rejected,
        r.variations_written,
        r.variations_rejected,
        r.warnings
    )
    .unwrap();
    s
}

#[test]
fn split_corpus_snapshots() {
    insta::with_settings!({
        snapshot_path => "../snapshots/split",
        prepend_module_to_snapshot => false,
        omit_expression => true,
    }, {
        insta::glob!("../corpus/split", "*.ctl-pgn", |path| {
            let input = std::fs::read(path).unwrap();
            let name = path.file_name().unwrap().to_string_lossy();
            insta::assert_snapshot!(split_and_check(&name, &input));
        });
    });
}

fn ids(out: &str) -> Vec<&str> {
    out.lines()
        .filter_map(|l| l.strip_prefix("[Id \"")?.strip_suffix("\"]"))
        .collect()
}

#[test]
fn the_spec_fools_mate_is_its_main_line_and_six_variation_games_that_replay() {
    let input = std::fs::read("corpus/split/spec-fools-mate.ctl-pgn").unwrap();
    let out = split_and_check("spec-fools-mate.ctl-pgn", &input);
    assert_eq!(
        ids(&out),
        [
            "Cescacs-X01-V-en",
            "Cescacs-X01-V-S:1-en",
            "Cescacs-X01-V-S:0:1-en",
            "Cescacs-X01-V-S:0:2-en",
            "Cescacs-X01-V-S:0:2:1-en",
            "Cescacs-X01-V-S:0:0:1-en",
            "Cescacs-X01-V-S:0:0:2-en",
        ]
    );
    assert!(out.ends_with(
        "--- 1 read, 1 written, 0 rejected; variation games: 6 written, 0 rejected; 0 warnings\n"
    ));
}

/// "A particular variation may be represented linearly": each variation
/// game written has its own end, after its game's, in the order they are
/// written, named by its path; one that does not replay is not written
/// and ends incoherent where it stopped.
#[test]
fn a_variation_represented_linearly_ends_in_a_position_of_its_own() {
    let input = std::fs::read("corpus/split/final-positions.ctl-pgn").unwrap();
    let (verify, ends) = final_positions();
    let mut filter = FilterBuilder::new()
        .split_variations(true)
        .verify(verify)
        .build();
    let (out, _, r) = filter.filter_bytes(&input);
    let out = String::from_utf8(out).unwrap();
    assert_eq!(
        ids(&out),
        [
            "Cescacs-T06-V-en",
            "Cescacs-T06-V-S:1-en",
            "Cescacs-T06-V-S:1:1-en",
            "Cescacs-T07-V-en",
            "Cescacs-T07-V-S:1-en",
        ]
    );
    assert_eq!((r.variations_written, r.variations_rejected), (3, 1));
    let ends = ends.lock().unwrap();
    let named: Vec<&str> = ends
        .iter()
        .map(|e| e.split(" after ").next().unwrap())
        .collect();
    assert_eq!(
        named,
        [
            "game of line 1: coherent",
            "variation 1: coherent",
            "variation 1:1: coherent",
            "variation 2: incoherent",
            "game of line 19: coherent",
            "variation 1: coherent",
        ]
    );
    // Each written game's end is its own game's final position: the game
    // written, replayed alone, ends there too.
    let games: Vec<&str> = out.split("\n\n[Variant").collect();
    let coherent: Vec<&String> = ends.iter().filter(|e| e.contains(": coherent ")).collect();
    assert_eq!(games.len(), coherent.len());
    for (i, (game, end)) in games.iter().zip(coherent).enumerate() {
        let game = if i == 0 {
            game.to_string()
        } else {
            format!("[Variant{game}")
        };
        let (verify, alone) = final_positions();
        FilterBuilder::new()
            .verify(verify)
            .build()
            .filter_bytes(game.as_bytes());
        let alone = alone.lock().unwrap();
        let pdtl = |e: &str| e.rsplit(": ").next().unwrap().to_string();
        assert_eq!(pdtl(&alone[0]), pdtl(end), "{game}");
    }
}

/// Variation games end only for a game written: one rejected by a
/// warning that `--strict` turns into an error as they are planned (after
/// the passes) has its main line's end, rejected, and no other.
#[test]
fn a_game_rejected_as_its_variations_are_planned_has_no_variation_game_ends() {
    let input = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15 ($[2] 1. ..., F20-F16) 2. F8-F12:\n*\n";
    for (strict, expected) in [
        (false, vec![(vec![], false), (vec![2], false)]),
        (true, vec![(vec![], true)]),
    ] {
        let ends = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&ends);
        let verify = Verify::new()
            .on_game_end(move |end| sink.lock().unwrap().push((end.path.to_vec(), end.rejected)));
        let mut filter = FilterBuilder::new()
            .split_variations(true)
            .strict(strict)
            .verify(verify)
            .build();
        let (_, _, r) = filter.filter_bytes(input.as_bytes());
        assert_eq!(r.games_rejected, u64::from(strict));
        assert_eq!(*ends.lock().unwrap(), expected, "strict: {strict}");
    }
}

#[test]
fn an_incoherent_variation_is_rejected_alone_at_its_own_line_and_column() {
    let input = std::fs::read("corpus/split/incoherent-variation.ctl-pgn").unwrap();
    let out = split_and_check("incoherent-variation.ctl-pgn", &input);
    assert!(out.contains(
        "incoherent-variation.ctl-pgn:7:10: error: variation 1: move 1 (Black) E9-E11: no piece at E9"
    ));
    assert_eq!(ids(&out), ["Cescacs-T05-V-en", "Cescacs-T05-V-S:2-en"]);
}

#[test]
fn a_game_without_an_id_names_the_path_in_a_tag_of_its_own() {
    let input = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15 (1. ..., F20-F16) 2. F8-F12:\n*\n";
    let (out, _, _) = FilterBuilder::new()
        .split_variations(true)
        .build()
        .filter_bytes(input.as_bytes());
    let out = String::from_utf8(out).unwrap();
    assert!(out
        .ends_with("[Variant \"C'escacs\"]\n[VariationPath \"1\"]\n\n1. E7-E13, F20-F16:\n*\n\n"));
}

#[test]
fn a_variation_game_ending_in_mate_takes_the_mate_s_result() {
    let input = "[Variant \"C'escacs\"]\n[Result \"*\"]\n\
                 1. E7-E13, E21-E15 (1. ..., F20-F16#) 2. F8-F12:\n*\n";
    let (out, _, _) = FilterBuilder::new()
        .split_variations(true)
        .build()
        .filter_bytes(input.as_bytes());
    let out = String::from_utf8(out).unwrap();
    assert!(out.ends_with(
        "[Variant \"C'escacs\"]\n[Result \"0-3\"]\n[VariationPath \"1\"]\n\n1. E7-E13, F20-F16#\n0-3\n\n"
    ), "{out}");
}

#[test]
fn rejects_keep_the_whole_game_once_with_the_paths_that_failed() {
    let input = std::fs::read("corpus/split/incoherent-variation.ctl-pgn").unwrap();
    let mut filter = FilterBuilder::new()
        .split_variations(true)
        .verify(Verify::new())
        .build();
    let mut out = Vec::new();
    let mut rejects = Vec::new();
    filter
        .run_with_rejects(&input[..], &mut out, Some(&mut rejects), &mut |_| {})
        .unwrap();
    let rejects = String::from_utf8(rejects).unwrap();
    let game = String::from_utf8(input).unwrap();
    assert_eq!(
        rejects,
        format!("{{ctlpgn-filter: variation games rejected: 1}}\n{game}")
    );
}

#[test]
fn ndjson_gives_each_variation_game_its_path() {
    let input = std::fs::read("corpus/split/nesting-three-deep.ctl-pgn").unwrap();
    let (out, _, _) = FilterBuilder::new()
        .split_variations(true)
        .format(ctlpgn_filter::Format::Ndjson)
        .build()
        .filter_bytes(&input);
    let paths: Vec<serde_json::Value> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["path"].clone())
        .collect();
    assert_eq!(
        paths,
        [
            serde_json::Value::Null,
            serde_json::json!([1]),
            serde_json::json!([1, 1]),
            serde_json::json!([1, 1, 1]),
            serde_json::json!([1, 1, 1, 1]),
        ]
    );
}

// ───────────────────────── random variation trees ─────────────────────────

/// A line of half-moves, and variations each replacing one of them.
#[derive(Clone, Debug)]
struct Line {
    moves: Vec<&'static str>,
    variations: Vec<(usize, Line)>,
}

/// Moves of every shape, some with Unicode dashes, × or alternative forms
/// the filter normalises (no coherence is asked: nothing is replayed).
const MOVES: &[&str] = &[
    "E7-E13",
    "F8‐F12",
    "JF6-C15",
    "NG25×L17",
    "DC19-E25+",
    "KRK-II",
    "B24=D",
    "E13×F16",
    "F12@@G9",
    "♗F6-C15",
    "GL5×GE5^+",
    "A21-A23=&",
];

fn line(depth: u32) -> BoxedStrategy<Line> {
    let moves = prop::collection::vec(prop::sample::select(MOVES), 1..6);
    if depth == 0 {
        return moves
            .prop_map(|moves| Line {
                moves,
                variations: Vec::new(),
            })
            .boxed();
    }
    (
        moves,
        prop::collection::vec((any::<prop::sample::Index>(), line(depth - 1)), 0..3),
    )
        .prop_map(|(moves, vs)| {
            let mut variations: Vec<(usize, Line)> = vs
                .into_iter()
                .map(|(i, l)| (i.index(moves.len()), l))
                .collect();
            variations.sort_by_key(|(i, _)| *i);
            Line { moves, variations }
        })
        .boxed()
}

impl Line {
    fn count(&self) -> usize {
        self.variations.iter().map(|(_, l)| 1 + l.count()).sum()
    }

    /// Writes the line from half-move `first` (0: White's 1st), its
    /// variations right after the half-move each replaces.
    fn write(&self, first: usize, out: &mut String, main: bool) {
        for (k, mv) in self.moves.iter().enumerate() {
            let h = first + k;
            let (n, white) = (h / 2 + 1, h.is_multiple_of(2));
            let resumed = k == 0 || self.variations.iter().any(|(i, _)| *i + 1 == k);
            match (white, resumed) {
                (true, _) => write!(out, " {n}. {mv}").unwrap(),
                (false, true) => write!(out, " {n}. ..., {mv}").unwrap(),
                (false, false) => write!(out, ", {mv}").unwrap(),
            }
            if main && k + 1 == self.moves.len() {
                out.push(':');
            }
            for (_, v) in self.variations.iter().filter(|(i, _)| *i == k) {
                out.push_str(" (");
                v.write(h, out, false);
                out.push(')');
            }
        }
    }
}

fn game_text(main: &Line) -> String {
    let mut s = String::from("[Variant \"C'escacs\"]\n[Redefine \"FAN\"]\n\n");
    main.write(0, &mut s, true);
    s.push_str("\n*\n");
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn each_variation_becomes_one_canonical_game_and_the_main_line_is_the_game_without_them(
        main in line(3)
    ) {
        let input = game_text(&main);
        let (out, diags, report) = FilterBuilder::new()
            .split_variations(true)
            .build()
            .filter_bytes(input.as_bytes());
        prop_assert!(diags.is_empty(), "{input}\n{diags:?}");
        let out = String::from_utf8(out).unwrap();
        let games = out.matches("[Variant \"C'escacs\"]").count();
        prop_assert_eq!(games, 1 + main.count(), "{}\n{}", input, out);
        prop_assert_eq!(report.variations_written as usize, main.count());
        // Canonical: read again, nothing changes.
        let (again, _, _) = Filter::default().filter_bytes(out.as_bytes());
        prop_assert_eq!(String::from_utf8(again).unwrap(), out.clone());
        // The first game is the input with its variations dropped.
        let (dropped, _, _) = Filter::default().filter_bytes(input.as_bytes());
        let dropped = String::from_utf8(dropped).unwrap();
        prop_assert!(out.starts_with(&dropped), "{}\n{}", dropped, out);
    }
}

/// Found by fuzzing: numbers inside a variation are taken as written, so
/// one may leave a half-move out; its game would have a gap.
#[test]
fn a_variation_that_leaves_a_half_move_out_is_rejected_alone() {
    let input =
        "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15 (1. ..., F20-F16 3. F8-F12) 2. F8-F12:\n*\n";
    let (out, diags, report) = FilterBuilder::new()
        .split_variations(true)
        .build()
        .filter_bytes(input.as_bytes());
    assert_eq!(
        (
            report.games_written,
            report.variations_written,
            report.variations_rejected
        ),
        (1, 0, 1)
    );
    assert_eq!(
        diags[0].message,
        "variation 1: move 3 (White) follows move 1 (Black): a half-move is missing between them"
    );
    assert_eq!(diags[0].column, 40);
    let (again, _, _) = Filter::default().filter_bytes(&out);
    assert_eq!(again, out);
}

/// The record of issue 41, as the author published it: `GH6xRI3` (the
/// letter x) in a variation nested in another.
const PUBLISHED: &str = "corpus/split/error-inside-a-variation.ctl-pgn";

/// The first game of [`PUBLISHED`]: the record as published.
fn published_record() -> String {
    let input = std::fs::read_to_string(PUBLISHED).unwrap();
    let second = input.find("\n{ The same shape").unwrap();
    input[..second + 1].to_string()
}

fn split(input: &str) -> (String, Vec<String>, ctlpgn_filter::Report) {
    split_with(FilterBuilder::new(), input)
}

fn split_with(builder: FilterBuilder, input: &str) -> (String, Vec<String>, ctlpgn_filter::Report) {
    let (out, diags, r) = builder
        .split_variations(true)
        .build()
        .filter_bytes(input.as_bytes());
    let diags = diags
        .iter()
        .map(|d| {
            format!(
                "{}:{}: {}: {}",
                d.line,
                d.column,
                d.severity.as_str(),
                d.message
            )
        })
        .collect();
    (String::from_utf8(out).unwrap(), diags, r)
}

#[test]
fn an_error_inside_a_variation_rejects_its_game_alone_and_the_game_is_written() {
    let (out, diags, r) = split(&published_record());
    assert_eq!(
        ids(&out),
        [
            "Cescacs-X01-V-ca",
            "Cescacs-X01-V-S:1-ca",
            "Cescacs-X01-V-S:2-ca",
            "Cescacs-X01-V-S:0:1-ca",
            "Cescacs-X01-V-S:0:1:2-ca",
            "Cescacs-X01-V-S:0:0:1-ca",
            "Cescacs-X01-V-S:0:0:2-ca",
        ]
    );
    assert_eq!(
        diags,
        ["26:12: error: variation 0:1:1: the letter x is not a capture sign in CTL-AN: write × or *"]
    );
    assert_eq!(
        (
            r.games_written,
            r.games_rejected,
            r.variations_written,
            r.variations_rejected
        ),
        (1, 0, 6, 1)
    );
}

#[test]
fn the_variation_games_below_a_variation_with_an_error_are_rejected_with_it_each_named() {
    let input = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n\
                 (1. ..., F20-F16 (1. ..., E21-E17) 2. F8xF12 (2. G7-G13)) 2. F8-F12:\n*\n";
    let (out, diags, r) = split(input);
    assert_eq!(
        diags,
        [
            "3:27: error: variation 1:1: rejected with variation 1, which it branches from",
            "3:41: error: variation 1: the letter x is not a capture sign in CTL-AN: write × or *",
            "3:50: error: variation 1:0:1: rejected with variation 1, which it branches from",
        ]
    );
    assert_eq!((r.variations_written, r.variations_rejected), (0, 3));
    assert_eq!(
        out,
        "[Variant \"C'escacs\"]\n\n1. E7-E13, E21-E15\n2. F8-F12:\n*\n\n"
    );
}

#[test]
fn an_error_before_a_variation_s_first_move_is_its_own() {
    let input = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n\
                 ($[123456] 1. ..., F20-F16) (1. ..., E21-E17) 2. F8-F12:\n*\n";
    let (out, diags, r) = split(input);
    assert_eq!(
        diags,
        ["3:2: error: variation 1: variation label $[123456] is too large (at most $[99999])"]
    );
    assert_eq!((r.variations_written, r.variations_rejected), (1, 1));
    assert!(out.contains("[VariationPath \"2\"]"), "{out}");
}

/// "Unclosed" breaks the game's structure: where the game ends is not
/// the variation's to say.
#[test]
fn a_variation_never_closed_still_rejects_the_game_whatever_came_before_in_it() {
    let input = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15 (1. ..., F20xF16 2. F8-F12\n\
                 [Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
    let (out, diags, r) = split(input);
    assert_eq!((r.games_written, r.games_rejected), (1, 1));
    assert_eq!(r.variations_rejected, 0);
    assert_eq!(diags, ["2:20: error: variation not closed: ) is missing"]);
    assert_eq!(out, "[Variant \"C'escacs\"]\n\n1. F8-F12:\n*\n\n");
}

/// A variation that replaces no half-move is no game: its error has no
/// game to reject but its game's.
#[test]
fn an_error_inside_a_variation_that_is_no_game_rejects_the_game() {
    for variation in ["(1-0)", "(7. F20xF16)"] {
        let input =
            format!("[Variant \"C'escacs\"]\n1. E7-E13, E21-E15 {variation} 2. F8-F12:\n*\n");
        let (out, diags, r) = split(&input);
        assert_eq!((r.games_written, r.games_rejected), (0, 1), "{variation}");
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(!diags[0].contains("variation 1"), "{diags:?}");
        assert_eq!(out, "");
    }
}

#[test]
fn without_split_variations_an_error_inside_a_kept_variation_rejects_the_game() {
    let (out, diags, r) = FilterBuilder::new()
        .keep_variations(true)
        .build()
        .filter_bytes(published_record().as_bytes());
    assert_eq!((r.games_written, r.games_rejected), (0, 1));
    assert_eq!(
        diags[0].message,
        "the letter x is not a capture sign in CTL-AN: write × or *"
    );
    assert!(out.is_empty());
}

#[test]
fn rejects_keep_the_whole_game_once_with_the_paths_of_the_games_an_error_rejects() {
    let input = std::fs::read_to_string(PUBLISHED).unwrap();
    // The comment before the second game's tags ends the first game, which
    // ended before it.
    let second = input
        .find("[Variant \"C'escacs\"]\n[Id \"Cescacs-T08")
        .unwrap();
    let mut filter = FilterBuilder::new().split_variations(true).build();
    let (mut out, mut rejects) = (Vec::new(), Vec::new());
    filter
        .run_with_rejects(input.as_bytes(), &mut out, Some(&mut rejects), &mut |_| {})
        .unwrap();
    assert_eq!(
        String::from_utf8(rejects).unwrap(),
        format!(
            "{{ctlpgn-filter: variation games rejected: 0:1:1}}\n{}\
             {{ctlpgn-filter: variation games rejected: 0:1, 0:1:1, 0:1:2}}\n{}",
            &input[..second],
            &input[second..]
        )
    );
}

#[test]
fn a_variation_game_rejected_for_an_error_exits_1_and_the_summary_counts_it() {
    let out = support::cmd()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["--split-variations", "-o", "/dev/null", PUBLISHED])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(&format!(
        "{PUBLISHED}:51:16: error: variation 0:1: the letter x is not a capture sign"
    )));
    assert!(stderr.ends_with(
        "ctlpgn-filter: 2 games read, 2 written, 0 rejected, 10 variation games written, 4 rejected, 0 warnings\n"
    ), "{stderr}");
}

#[test]
fn only_the_first_error_inside_a_variation_is_reported() {
    let input = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15 (1. ..., F20xF16 2. G7xG13 $999) 2. F8-F12:\n*\n";
    let (_, diags, r) = split(input);
    assert_eq!(
        diags,
        ["2:32: error: variation 1: the letter x is not a capture sign in CTL-AN: write × or *"]
    );
    assert_eq!(r.variations_rejected, 1);
}

/// Each path is as long as its depth: an error per game of a deep nest
/// would take memory with the square of its size.
#[test]
fn past_a_hundred_games_an_error_rejects_one_more_error_counts_the_rest() {
    let depth = 150;
    let mut input = String::from("[Variant \"C'escacs\"]\n1. E7-E13, E21-E15 (1. ..., F20xF16 ");
    input += &"(1. ..., F20-F16 ".repeat(depth - 1);
    input += &")".repeat(depth);
    input += " 2. F8-F12:\n*\n";
    // (Deeper than --max-depth's default.)
    let (_, diags, r) = split_with(FilterBuilder::new().max_depth(depth as u32), &input);
    assert_eq!(r.variations_rejected, depth as u64);
    assert_eq!(diags.len(), 101);
    assert!(
        diags[100].ends_with(
            ": rejected for an error inside it or a variation it branches from, \
             as are 49 more variation games of this game (--rejects names them all)"
        ),
        "{}",
        diags[100]
    );
}
