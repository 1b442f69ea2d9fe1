//! Options that keep their word: what `--keep-*` keeps appears in ndjson
//! too, and in the spec's layout in CTL-PGN; `--fix-result` makes the
//! `Result` tag say what the game's end proves.

mod support;

use serde_json::{json, Value};
use support::run;

const KEEP_ALL: [&str; 3] = ["--keep-comments", "--keep-variations", "--keep-ratings"];

const ANNOTATED: &str = "[Variant \"C'escacs\"]\n{intro}\n\
    1. E7-E13 ?! $14 {after White} (1. F8-F12 {alt} (1. ..., E21-E17) 2. G7-G9) \
    ($[2] 1. H6-H12), E21-E15:\n*\n{final}\n";

fn json_of(args: &[&str], input: &str) -> Value {
    let mut all = vec!["--format", "ndjson"];
    all.extend_from_slice(args);
    let (ok, out, err) = run(&all, input);
    assert!(ok, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn ndjson_attaches_kept_comments_to_the_half_move_they_follow_or_the_game() {
    let game = json_of(&KEEP_ALL, ANNOTATED);
    assert_eq!(game["comments"], json!(["intro"]));
    assert_eq!(game["moves"][0]["comments"], json!(["after White"]));
    assert_eq!(game["final_comments"], json!(["final"]));
    assert!(game["moves"][1].get("comments").is_none());
}

#[test]
fn ndjson_writes_kept_variations_as_nested_move_lists() {
    let game = json_of(&KEEP_ALL, ANNOTATED);
    let variations = &game["moves"][0]["variations"];
    assert_eq!(variations[0]["moves"][0]["move"], "F8-F12");
    assert_eq!(variations[0]["moves"][0]["comments"], json!(["alt"]));
    assert_eq!(
        variations[0]["moves"][0]["variations"][0]["moves"][0],
        json!({"number": 1, "side": "black", "move": "E21-E17"})
    );
    assert_eq!(variations[0]["moves"][1]["move"], "G7-G9");
    assert_eq!(variations[1]["label"], 2);
    assert_eq!(variations[1]["moves"][0]["move"], "H6-H12");
}

#[test]
fn ndjson_writes_kept_ratings_and_nags_on_their_move() {
    let game = json_of(&["--keep-ratings"], ANNOTATED);
    assert_eq!(game["moves"][0]["rating"], "?!");
    assert_eq!(game["moves"][0]["nags"], json!([14]));
    assert!(game["moves"][0].get("variations").is_none());
}

#[test]
fn ndjson_leaves_out_what_is_dropped() {
    let game = json_of(&[], ANNOTATED);
    assert_eq!(
        game["moves"],
        json!([
            {"number": 1, "side": "white", "move": "E7-E13"},
            {"number": 1, "side": "black", "move": "E21-E15", "end": true},
        ])
    );
    assert!(game.get("comments").is_none() && game.get("final_comments").is_none());
}

#[test]
fn ndjson_says_when_the_numbering_starts_unknown() {
    let game = json_of(
        &[],
        "[Variant \"C'escacs\"]\n1? E7-E13, E21-E15 2. F8-F12:\n*\n",
    );
    // The half-moves of the number written `1?`; later numbers count from it.
    assert_eq!(game["moves"][0]["unknown_number"], true);
    assert_eq!(game["moves"][1]["unknown_number"], true);
    assert!(game["moves"][2].get("unknown_number").is_none());
    let game = json_of(&[], "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n");
    assert!(game["moves"][0].get("unknown_number").is_none());
}

#[test]
fn kept_comments_stand_on_lines_of_their_own() {
    let (_, out, _) = run(
        &["--keep-comments"],
        "[Variant \"C'escacs\"]\n1. E7-E13 {White opens} E21-E15 {Black answers} 2. F8-F12:\n*\n",
    );
    assert_eq!(
        out,
        "[Variant \"C'escacs\"]\n\n1. E7-E13\n{White opens}\n1. ..., E21-E15\n{Black answers}\n2. F8-F12:\n*\n\n"
    );
}

#[test]
fn kept_variations_show_their_nesting_with_leading_dots() {
    let (_, out, _) = run(&KEEP_ALL, ANNOTATED);
    assert!(
        out.contains("\n(1. F8-F12\n.{alt}\n.(1. ..., E21-E17) .2. G7-G9)\n($[2] 1. H6-H12)\n"),
        "{out}"
    );
}

#[test]
fn fix_result_writes_the_result_the_game_ends_with() {
    let game = "[Variant \"C'escacs\"]\n[Result \"0-3\"]\n\n1. E7-E13, E21-E15 2. DC19-E25#\n";
    let (ok, out, err) = run(&[], game);
    assert!(ok);
    assert!(out.contains("[Result \"0-3\"]") && out.ends_with("3-0\n\n"));
    assert!(err.contains(
        "warning: the Result tag says 0-3 but the game ends 3-0 (--fix-result writes the tag so)"
    ));
    let (ok, out, err) = run(&["--fix-result"], game);
    assert!(ok);
    assert!(
        out.contains("[Result \"3-0\"]") && out.ends_with("3-0\n\n"),
        "{out}"
    );
    assert!(err.contains("warning: the Result tag says 0-3 but the game ends 3-0: written 3-0"));
    let game = json_of(&["--fix-result"], game);
    assert_eq!(game["tags"]["Result"], "3-0");
    assert_eq!(game["tag_list"][1], json!(["Result", "3-0"]));
}

#[test]
fn fix_result_leaves_an_agreeing_tag_alone() {
    let game = "[Variant \"C'escacs\"]\n[Result \"1-1\"]\n\n1. E7-E13:\n1-1\n";
    let (ok, out, err) = run(&["--fix-result"], game);
    assert!(ok);
    assert!(out.contains("[Result \"1-1\"]"));
    assert_eq!(err, "");
}

/// A game whose variations nest three deep, between two games without any.
const NESTED_THREE_DEEP: &str = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n\n\
    [Variant \"C'escacs\"]\n1. E7-E13 (1. F8-F12 (1. G7-G9 {deep} (1. H6-H12)) 2. I5-I9), E21-E15:\n*\n\n\
    [Variant \"C'escacs\"]\n1. F8-F12:\n*\n";

#[test]
fn variations_nested_past_max_depth_reject_their_game_whatever_is_done_with_variations() {
    // The second game, up to the third's first byte.
    let from_second = &NESTED_THREE_DEEP[NESTED_THREE_DEEP.find("\n\n[").unwrap() + 2..];
    let nested = &from_second[..from_second.find("\n\n[").unwrap() + 2];
    for options in [
        &[][..],
        &["--keep-variations", "--keep-comments"],
        &["--split-variations"],
        &["--keep-variations", "--format", "ndjson"],
    ] {
        let dir = tempfile::tempdir().unwrap();
        let rejects = dir.path().join("rejects.ctl-pgn");
        let args = [
            &["--max-depth", "2", "--rejects", rejects.to_str().unwrap()][..],
            options,
        ]
        .concat();
        let (ok, out, err) = run(&args, NESTED_THREE_DEEP);
        assert!(!ok, "{options:?}");
        assert!(
            err.starts_with(
                "<stdin>:6:39: error: variations nested 3 deep: at most 2 (--max-depth N raises the limit)\n"
            ),
            "{options:?}: {err}"
        );
        assert!(
            err.ends_with("3 games read, 2 written, 1 rejected, 0 warnings\n"),
            "{err}"
        );
        assert!(out.contains("E7-E13") && out.contains("F8-F12") && !out.contains("G7-G9"));
        assert_eq!(
            std::fs::read_to_string(&rejects).unwrap(),
            nested,
            "{options:?}"
        );
    }
}

#[test]
fn max_depth_raises_the_limit_to_the_depth_given() {
    let (ok, out, err) = run(
        &["--max-depth", "3", "--keep-variations"],
        NESTED_THREE_DEEP,
    );
    assert!(ok, "{err}");
    assert!(out.contains("..(1. H6-H12)"), "{out}");
}

#[test]
fn max_depth_is_at_least_one() {
    let (ok, _, err) = run(&["--max-depth", "0"], NESTED_THREE_DEEP);
    assert!(!ok);
    assert!(err.contains("--max-depth"), "{err}");
}

#[test]
fn ndjson_tags_are_an_object_jq_indexes_by_name() {
    let game = json_of(
        &[],
        "[Variant \"C'escacs\"]\n[White \"Sasal, Cesc\"]\n1. E7-E13:\n*\n",
    );
    assert_eq!(
        game["tags"],
        json!({"Variant": "C'escacs", "White": "Sasal, Cesc"})
    );
}

#[test]
fn ndjson_keeps_a_repeated_tag_s_first_value_in_tags_and_every_one_in_tag_list() {
    let game = json_of(
        &[],
        "[Variant \"C'escacs\"]\n[Annotator \"a\"]\n[Annotator \"b\"]\n1. E7-E13:\n*\n",
    );
    assert_eq!(game["tags"]["Annotator"], "a");
    assert_eq!(
        game["tag_list"],
        json!([
            ["Variant", "C'escacs"],
            ["Annotator", "a"],
            ["Annotator", "b"]
        ])
    );
}

#[test]
fn ndjson_has_the_final_position_when_a_replay_ran_and_only_then() {
    let game = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15:\n*\n";
    let (ok, _, err) = run(&["--check", "--final-pdtl"], game);
    assert!(ok, "{err}");
    let printed = err
        .lines()
        .find_map(|l| l.strip_prefix("<stdin>:1: final position: "))
        .expect("--final-pdtl prints it");
    assert_eq!(json_of(&["--verify"], game)["final_pdtl"], printed);
    assert!(json_of(&[], game).get("final_pdtl").is_none());
}
