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
        err.contains("add --tag, --player, --result, --date, --plies or --reaches"),
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

/// The author's seven real games, by name.
fn real_games() -> Vec<std::path::PathBuf> {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("real-")
        })
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    assert_eq!(files.len(), 7);
    files
}

/// The status, the file of each real game written (ndjson's `file`, its
/// name), and stderr.
fn select_real(args: &[&str]) -> (Option<i32>, Vec<String>, String) {
    let o = cmd()
        .args(["--format", "ndjson"])
        .args(args)
        .args(real_games())
        .output()
        .unwrap();
    let names = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let game: serde_json::Value = serde_json::from_str(l).unwrap();
            let file = game["file"].as_str().unwrap();
            file.rsplit('/')
                .next()
                .unwrap()
                .trim_end_matches(".ctl-pgn")
                .to_string()
        })
        .collect();
    (o.status.code(), names, String::from_utf8(o.stderr).unwrap())
}

#[test]
fn result_selects_by_the_result_written_not_by_the_tag() {
    // White won four: three without a Result tag (their last move mates),
    // one whose tag says 0-3.
    let white = [
        "real-2020-07-20",
        "real-2022-08-14.2",
        "real-2023-09-11",
        "real-2023-09-18",
    ];
    let (status, games, _) = select_real(&["--result", "white"]);
    assert_eq!((status, games), (Some(0), white.map(String::from).to_vec()));
    let (_, games, _) = select_real(&["--result", "3-0"]);
    assert_eq!(games, white);
    let (_, games, _) = select_real(&["--tag", "Result=3-0"]);
    assert_eq!(games, ["real-2022-08-14.2"]);
    let black = ["real-2022-08-14.1", "real-2023-09-08", "real-2023-09-17"];
    for args in [
        &["--result", "black"][..],
        &["--result", "0-3", "--result", "draw"],
        &["--result", "white", "--invert"],
    ] {
        let (_, games, err) = select_real(args);
        assert_eq!(games, black, "{args:?}: {err}");
    }
    let (status, games, err) = select_real(&["--result", "1-1"]);
    assert_eq!((status, games.len()), (Some(4), 0));
    assert!(err.contains("7 not matching --result"), "{err}");
    // With another selection, both must hold.
    let (_, games, _) = select_real(&["--result", "white", "--player", "sasal"]);
    assert_eq!(games, ["real-2022-08-14.2"]);
}

#[test]
fn result_takes_the_results_and_three_words_and_refuses_the_rest() {
    let game = |r: &str| format!("[Variant \"C'escacs\"]\n[Site \"{r}\"]\n1. E7-E13:\n{r}\n\n");
    let all: String = ["3-0", "2-1", "0-3", "1-2", "1-1", "*"].map(game).concat();
    for (r, sites) in [
        ("white", &["3-0", "2-1"][..]),
        ("black", &["0-3", "1-2"]),
        ("draw", &["1-1"]),
        ("DRAW", &["1-1"]),
        ("*", &["*"]),
        ("2-1", &["2-1"]),
        ("1‐2", &["1-2"]),
    ] {
        let (_, got, err) = select(&["--result", r], &all);
        assert_eq!(got, sites, "{r}: {err}");
    }
    for bad in ["1-0", "0-1", "1/2-1/2", "win"] {
        let (status, _, err) = select(&["--result", bad], &all);
        assert_eq!(status, Some(2), "{bad}");
        assert!(err.contains("white, black or draw"), "{err}");
    }
}

#[test]
fn a_plain_name_matches_the_start_of_a_name_or_of_a_word_in_it_case_aside() {
    let both = ["real-2022-08-14.1", "real-2022-08-14.2"];
    for name in ["Sasal", "sasal", "cesc", "CESC", "sasal, c", "ros"] {
        let (status, games, err) = select_real(&["--player", name]);
        assert_eq!(
            (status, games),
            (Some(0), both.map(String::from).to_vec()),
            "{name}: {err}"
        );
    }
    let (_, games, _) = select_real(&["--tag", "Site=barcelona"]);
    assert_eq!(games, both);
    let (_, games, _) = select_real(&["--tag", "Id=a0001-4"]);
    assert_eq!(games, both);
    // A glob is matched whole, case counting, as before.
    let (_, games, _) = select_real(&["--player", "Sasal*"]);
    assert_eq!(games, both);
    let (status, games, _) = select_real(&["--player", "Sasal"]);
    assert_eq!((status, games.len()), (Some(0), 2));
    let (status, _, _) = select_real(&["--player", "Sasal, Cesc*x"]);
    assert_eq!(status, Some(4));
}

#[test]
fn nothing_selected_says_what_a_looser_match_would_find() {
    // Inside a word: the glob that finds it.
    let (status, _, err) = select_real(&["--player", "sal"]);
    assert_eq!(status, Some(4));
    assert!(
        err.contains(
            "--player sal starts no name and no word of one, in any case; some games have it \
             inside a word: --player '*sal*' selects those"
        ),
        "{err}"
    );
    let (status, games, _) = select_real(&["--player", "*sal*"]);
    assert_eq!((status, games.len()), (Some(0), 2));
    // A glob in another case: the plain name that finds it.
    let (_, _, err) = select_real(&["-q", "--tag", "Site=barcelona*"]);
    assert!(
        err.contains(
            "--tag 'Site=barcelona*' matches some games in another case only: a glob's case \
             counts; --tag Site=barcelona matches a value's start or a word's, in any case"
        ),
        "{err}"
    );
    // Nothing looser finds anything: nothing more is said.
    let (_, _, err) = select_real(&["--player", "nobody"]);
    assert!(
        !err.contains("looser") && !err.contains("another case") && !err.contains("inside"),
        "{err}"
    );
}

#[test]
fn a_looser_match_is_said_once_on_several_threads() {
    let many = GAMES.repeat(2000);
    for jobs in ["1", "2"] {
        let (status, _, err) = select(
            &["--player", "asal", "--jobs", jobs, "--chunk-bytes", "4096"],
            &many,
        );
        assert_eq!(status, Some(4));
        assert_eq!(
            err.matches("--player '*asal*' selects those").count(),
            1,
            "{err}"
        );
    }
}

#[test]
fn date_keeps_the_games_of_a_range_and_counts_those_dated_too_vaguely() {
    let (status, games, err) = select_real(&["--date", "2022.."]);
    assert_eq!(
        (status, games),
        (
            Some(0),
            ["real-2022-08-14.1", "real-2022-08-14.2", "real-2023-09-08"]
                .map(String::from)
                .to_vec()
        )
    );
    assert!(
        err.contains("1 outside --date, 3 with an unknown date (--date)"),
        "{err}"
    );
    let (_, games, _) = select_real(&["--date", "..2022-08-14"]);
    assert_eq!(
        games,
        ["real-2020-07-20", "real-2022-08-14.1", "real-2022-08-14.2"]
    );
    let (_, games, _) = select_real(&["--date", "2023-09"]);
    assert_eq!(games, ["real-2023-09-08"]);
    // Inverted: those outside and those whose date is unknown.
    let (_, games, _) = select_real(&["--date", "2022", "-v"]);
    assert_eq!(games.len(), 5);
    let (status, _, err) = select_real(&["--date", "2024"]);
    assert_eq!(status, Some(4));
    assert!(
        err.contains("3 games have a date --date cannot place (no Date tag, or ?? where the range needs digits)"),
        "{err}"
    );
}

#[test]
fn date_reads_unknown_digits_as_unknown() {
    let game = |d: &str| {
        format!("[Variant \"C'escacs\"]\n[Site \"{d}\"]\n[Date \"{d}\"]\n1. E7-E13:\n*\n\n")
    };
    let all: String = [
        "2022-08-14",
        "2022.??.??",
        "2022-1?-??",
        "20??-??-??",
        "????-??-??",
    ]
    .map(game)
    .concat();
    for (range, sites) in [
        ("2022", &["2022-08-14", "2022.??.??", "2022-1?-??"][..]),
        ("2022-08..2022", &["2022-08-14", "2022-1?-??"]),
        ("2022-08", &["2022-08-14"]),
        (
            "2000..2099",
            &["2022-08-14", "2022.??.??", "2022-1?-??", "20??-??-??"],
        ),
    ] {
        let (_, got, err) = select(&["--date", range], &all);
        assert_eq!(got, sites, "{range}: {err}");
    }
    for bad in ["..", "2022-13", "22..", "2023..2022", "2022/08"] {
        let (status, _, err) = select(&["--date", bad], &all);
        assert_eq!(status, Some(2), "{bad}: {err}");
    }
}
