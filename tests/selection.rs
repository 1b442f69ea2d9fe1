//! Selection as pgn-extract's and grep's users expect it: a player in
//! either colour, alternatives of one tag, the games not selected, a
//! status for a selection that keeps nothing, a word for a tag name
//! that no game carries.

mod support;

use support::cmd;

/// Three games: Sasal as White, Sasal as Black, and one without him.
const GAMES: &str =
    "[Variant \"C'escacs\"]\n[Site \"A\"]\n[White \"Sasal, Cesc\"]\n[Black \"Ros, Xus\"]\n\
    1. E7-E13:\n*\n\n\
    [Variant \"C'escacs\"]\n[Site \"B\"]\n[White \"Ros, Xus\"]\n[Black \"Sasal, Cesc\"]\n\
    1. E7-E13:\n*\n\n\
    [Variant \"C'escacs\"]\n[Site \"C\"]\n[White \"Ros, Xus\"]\n[Black \"Puig, Anna\"]\n\
    1. E7-E13:\n*\n";

/// The status, the Site of each game written, and stderr.
fn select(args: &[&str], input: &str) -> (Option<i32>, Vec<String>, String) {
    let o = cmd().args(args).write_stdin(input).output().unwrap();
    let out = String::from_utf8(o.stdout).unwrap();
    let sites = out
        .lines()
        .filter_map(|l| l.strip_prefix("[Site \""))
        .map(|l| l.trim_end_matches("\"]").to_string())
        .collect();
    (o.status.code(), sites, String::from_utf8(o.stderr).unwrap())
}

#[test]
fn player_selects_the_games_of_a_player_in_either_colour() {
    let (status, sites, _) = select(&["--player", "Sasal*"], GAMES);
    assert_eq!((status, sites), (Some(0), vec!["A".into(), "B".into()]));
}

#[test]
fn several_players_are_alternatives() {
    let (_, sites, _) = select(&["--player", "Puig*", "--player", "Sasal*"], GAMES);
    assert_eq!(sites, ["A", "B", "C"]);
}

#[test]
fn tags_of_one_name_are_alternatives_and_of_different_names_all_must_hold() {
    let (_, sites, _) = select(&["--tag", "Site=A", "--tag", "Site=C"], GAMES);
    assert_eq!(sites, ["A", "C"]);
    let (_, sites, _) = select(
        &["--tag", "Site=A", "--tag", "Site=C", "--tag", "White=Ros*"],
        GAMES,
    );
    assert_eq!(sites, ["C"]);
}

#[test]
fn player_and_tag_must_both_hold() {
    let (_, sites, _) = select(&["--player", "Sasal*", "--tag", "Site=B"], GAMES);
    assert_eq!(sites, ["B"]);
}

#[test]
fn invert_writes_the_games_the_selection_leaves_out() {
    for invert in ["--invert", "-v"] {
        let (status, sites, err) = select(&["--player", "Sasal*", invert], GAMES);
        assert_eq!((status, sites), (Some(0), vec!["C".to_string()]), "{err}");
        assert!(err.contains("2 matching the selection (--invert)"), "{err}");
    }
}

#[test]
fn invert_leaves_rejected_games_rejected() {
    let broken = format!("{GAMES}\n[Variant \"C'escacs\"]\n[Site \"D\"]\n1. E7-E99:\n*\n");
    let (status, sites, _) = select(&["--player", "Sasal*", "-v"], &broken);
    assert_eq!((status, sites), (Some(1), vec!["C".to_string()]));
}

#[test]
fn invert_without_a_selection_is_a_usage_error() {
    let (status, _, err) = select(&["--invert"], GAMES);
    assert_eq!(status, Some(2));
    assert!(
        err.contains("add --tag, --player, --plies or --reaches"),
        "{err}"
    );
}

#[test]
fn a_selection_that_keeps_no_game_exits_4_and_says_so_even_quiet() {
    let (status, sites, err) = select(&["-q", "--player", "Nobody"], GAMES);
    assert_eq!((status, sites.len()), (Some(4), 0));
    assert!(
        err.contains("no game selected: 3 games read, none matching the selection"),
        "{err}"
    );
}

#[test]
fn a_rejected_game_outranks_an_empty_selection() {
    let broken = "[Variant \"C'escacs\"]\n1. E7-E99:\n*\n";
    let (status, _, _) = select(&["--player", "Nobody"], broken);
    assert_eq!(status, Some(1));
}

#[test]
fn a_tag_name_no_game_carries_is_warned_of_with_the_name_in_another_case() {
    let (status, _, err) = select(&["--tag", "white=Sasal*"], GAMES);
    assert_eq!(status, Some(4));
    assert!(
        err.contains(
            "warning: --tag white=Sasal*: no game read has a tag white: games have White \
             (tag names are case-sensitive)"
        ),
        "{err}"
    );
    let (_, _, err) = select(&["--tag", "Round=1"], GAMES);
    assert!(err.contains("no game read has a tag Round\n"), "{err}");
}

#[test]
fn a_tag_name_some_game_carries_is_not_warned_of() {
    let (_, _, err) = select(&["--tag", "Site=Z"], GAMES);
    assert!(!err.contains("warning:"), "{err}");
}

#[test]
fn a_tag_name_warning_is_the_same_on_several_threads() {
    let many = GAMES.repeat(2000);
    let (_, _, err) = select(
        &["--tag", "site=A", "--jobs", "2", "--chunk-bytes", "4096"],
        &many,
    );
    assert_eq!(err.matches("games have Site").count(), 1, "{err}");
}
