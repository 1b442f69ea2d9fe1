//! Folder workflows, machine-readable output and the generated help: what
//! users of PGN tools reach for.

#[path = "../examples/support/corpus.rs"]
mod corpus;

use serde_json::Value;
use std::path::Path;
use std::process::Output;

const GOOD: &str =
    "[Variant \"C'escacs\"]\n[Event \"CG\"]\n1. E7-E13, E21-E15 (=)\n2. VF0-F2:\n3-0\n";
const GOOD_OUT: &str =
    "[Variant \"C'escacs\"]\n[Event \"CG\"]\n\n1. E7-E13, E21-E15 (=)\n2. VF0-F2:\n3-0\n\n";
const BAD: &str = "[Variant \"C'escacs\"]\n1. E13xF16:\n*\n";

mod support;

use support::cmd;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn in_place_rewrites_each_file() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.ctl-pgn"), dir.path().join("b.ctl-pgn"));
    write(&a, GOOD);
    write(&b, GOOD);
    cmd()
        .arg("--in-place")
        .arg(&a)
        .arg(&b)
        .assert()
        .success()
        .stdout("");
    assert_eq!(std::fs::read_to_string(&a).unwrap(), GOOD_OUT);
    assert_eq!(std::fs::read_to_string(&b).unwrap(), GOOD_OUT);
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no temp file left"
    );
}

#[test]
fn in_place_leaves_a_file_with_a_rejected_game_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.ctl-pgn");
    let original = format!("{GOOD}\n{BAD}");
    write(&a, &original);
    let out = cmd().arg("--in-place").arg(&a).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("left unchanged"));
    assert_eq!(std::fs::read_to_string(&a).unwrap(), original);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn in_place_needs_files() {
    let out = cmd().arg("--in-place").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("FILES"));
}

#[test]
fn out_dir_mirrors_folders_recursively_and_only_game_files() {
    let src = tempfile::tempdir().unwrap();
    let dst = tempfile::tempdir().unwrap();
    write(&src.path().join("top.ctl-pgn"), GOOD);
    write(&src.path().join("sub/deeper/old.pgn"), GOOD);
    write(&src.path().join("sub/notes.txt"), "not a game");
    let single = tempfile::tempdir().unwrap();
    let lone = single.path().join("lone.ctl-pgn");
    write(&lone, GOOD);
    cmd()
        .arg("--out-dir")
        .arg(dst.path())
        .arg(src.path())
        .arg(&lone)
        .assert()
        .success();
    for rel in ["top.ctl-pgn", "sub/deeper/old.pgn", "lone.ctl-pgn"] {
        assert_eq!(
            std::fs::read_to_string(dst.path().join(rel)).unwrap(),
            GOOD_OUT,
            "{rel}"
        );
    }
    assert!(!dst.path().join("sub/notes.txt").exists());
}

#[test]
fn out_dir_conflicts_with_output() {
    let out = cmd()
        .args(["--out-dir", "x", "-o", "y", "f"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("cannot be used with"));
}

fn ndjson(input: &str, args: &[&str]) -> Vec<Value> {
    let out = cmd()
        .args(["--format", "ndjson"])
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON object"))
        .collect()
}

#[test]
fn ndjson_writes_one_object_per_game_with_the_documented_schema() {
    let games = ndjson(&format!("{GOOD}\n{GOOD}"), &[]);
    assert_eq!(games.len(), 2);
    assert_eq!(
        games[0],
        serde_json::json!({
            "file": "<stdin>",
            "line": 1,
            "tags": {"Variant": "C'escacs", "Event": "CG"},
            "tag_list": [["Variant", "C'escacs"], ["Event", "CG"]],
            "start": null,
            "moves": [
                {"number": 1, "side": "white", "move": "E7-E13"},
                {"number": 1, "side": "black", "move": "E21-E15", "draw_offer": true},
                {"number": 2, "side": "white", "move": "VF0-F2", "end": true}
            ],
            "result": "3-0"
        })
    );
    assert_eq!(games[1]["line"], 7);
}

#[test]
fn ndjson_start_is_the_canonical_pdtl_and_tag_values_are_unescaped() {
    let input = "[Variant \"C'escacs\"]\n[Title \"a \\\"b\\\"\"]\n[Redefine \"Q@D\"]\n[PDTL \"/27:1k/1:QK/ w - - 0 1\"]\n1. QE1-E3:\n*\n";
    let g = &ndjson(input, &[])[0];
    assert_eq!(g["start"], "/27:1k/1:DK/ w - - 0 1");
    assert_eq!(g["tags"]["Title"], "a \"b\"");
    assert_eq!(g["tag_list"][1], serde_json::json!(["Title", "a \"b\""]));
    assert_eq!(g["moves"][0]["move"], "DE1-E3");
}

#[test]
fn ndjson_stats_are_json_too() {
    let out = cmd()
        .args(["--format", "ndjson", "--stats"])
        .write_stdin(GOOD)
        .output()
        .unwrap();
    let lines: Vec<Value> = String::from_utf8(out.stderr)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["file"], "<stdin>");
    assert_eq!(lines[0]["half_moves"], 3);
    assert_eq!(lines[1]["file"], Value::Null);
    assert_eq!(lines[1]["games"], 1);
}

#[test]
fn an_unknown_format_is_a_usage_error() {
    let out = cmd().args(["--format", "xml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("ndjson"));
}

#[test]
fn progress_is_forced_with_progress() {
    let out = cmd().arg("--progress").write_stdin(GOOD).output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), GOOD_OUT);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("B/s"), "{err:?}");
}

#[test]
fn no_progress_on_a_pipe() {
    cmd()
        .write_stdin(GOOD.repeat(1000))
        .assert()
        .success()
        .stderr("");
}

#[test]
fn color_always_colours_the_level_and_never_does_not() {
    let out = cmd()
        .args(["--color", "always"])
        .write_stdin(BAD)
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("\x1b[1;31merror\x1b[0m"));
    let out = cmd()
        .args(["--color", "never"])
        .write_stdin(BAD)
        .output()
        .unwrap();
    let plain = String::from_utf8(out.stderr).unwrap();
    assert!(plain.contains("error: the letter x"), "{plain:?}");
    assert!(!plain.contains('\x1b'), "{plain:?}");
}

/// `--jobs 2`, in chunks small enough to cut `path` at many game
/// boundaries, writes what `--jobs 1` writes: the output, the diagnostics
/// (their lines and columns are the whole file's) and the exit status,
/// which is `status`. Returns what `--jobs 1` did.
fn two_jobs_write_what_one_writes(path: &Path, chunk_bytes: usize, status: i32) -> Output {
    let one = cmd().args(["-j", "1"]).arg(path).output().unwrap();
    assert_eq!(
        one.status.code(),
        Some(status),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&one.stderr)
    );
    let two = cmd()
        .args(["-j", "2", "--chunk-bytes", &chunk_bytes.to_string()])
        .arg(path)
        .output()
        .unwrap();
    assert!(one.stdout == two.stdout, "{}", path.display());
    assert_eq!(
        String::from_utf8_lossy(&one.stderr),
        String::from_utf8_lossy(&two.stderr),
        "{}",
        path.display()
    );
    assert_eq!(one.status.code(), two.status.code(), "{}", path.display());
    one
}

#[test]
fn jobs_do_not_change_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("many.ctl-pgn");
    write(&f, &format!("{GOOD}{BAD}").repeat(200));
    let one = two_jobs_write_what_one_writes(&f, 300, 1);
    assert_eq!(String::from_utf8(one.stdout).unwrap(), GOOD_OUT.repeat(200));
    let err = String::from_utf8(one.stderr).unwrap();
    assert!(
        err.ends_with(": 400 games read, 200 written, 200 rejected, 0 warnings\n"),
        "{err}"
    );
}

/// The corpus's games are all written; each file of `errors/` has a
/// rejected game, or is binary and skipped.
#[test]
fn jobs_do_not_change_the_output_of_the_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut n = 0;
    for (folder, status) in [(dir.clone(), 0), (dir.join("errors"), 1)] {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|x| x != "ctl-pgn") {
                continue;
            }
            let binary = std::fs::read(&path).unwrap().contains(&0);
            let one = two_jobs_write_what_one_writes(&path, 200, if binary { 3 } else { status });
            let err = String::from_utf8_lossy(&one.stderr);
            if binary {
                assert!(err.contains(": skipped: a binary file"), "{err}");
            } else if status == 0 {
                assert!(!one.stdout.is_empty(), "{}", path.display());
            } else {
                assert!(err.contains(": error: "), "{}: {err}", path.display());
            }
            n += 1;
        }
    }
    assert!(n > 30, "{n} corpus files");
}

#[test]
fn jobs_do_not_change_the_output_of_the_generated_corpus() {
    let dir = tempfile::tempdir().unwrap();
    for ascii in [false, true] {
        let path = dir.path().join("generated.ctl-pgn");
        std::fs::write(&path, corpus::generate_vec(1_000_000, 1, ascii)).unwrap();
        let one = two_jobs_write_what_one_writes(&path, 16 * 1024, 0);
        assert!(!one.stdout.is_empty(), "ascii {ascii}");
    }
}

/// The ascii shape is canonical games, its PDTLs (a king each side)
/// included: filtered, they come out byte for byte; the annotated shape's
/// main lines replay under `--check`.
#[test]
fn the_generated_ascii_corpus_filters_unchanged_and_the_annotated_one_checks() {
    let ascii = corpus::generate_vec(300_000, 1, true);
    assert!(String::from_utf8_lossy(&ascii).contains("[PDTL \""));
    let out = cmd().write_stdin(ascii.clone()).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout == ascii, "the ascii shape changed when filtered");
    let annotated = corpus::Shape::Annotated.to_vec(300_000, 1);
    let out = cmd()
        .arg("--check")
        .write_stdin(annotated)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn rejects_keeps_rejected_games_verbatim() {
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects.ctl-pgn");
    let out = cmd()
        .arg("--rejects")
        .arg(&rejects)
        .write_stdin(format!("{GOOD}\n{BAD}\n{GOOD}"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(&rejects).unwrap(),
        format!("{BAD}\n")
    );
}

#[test]
fn completions_and_man_page_come_from_the_same_definition() {
    let out = cmd().args(["--completions", "bash"]).output().unwrap();
    assert!(out.status.success());
    let script = String::from_utf8(out.stdout).unwrap();
    assert!(script.contains("--keep-variations") && script.contains("ctlpgn-filter"));
    let out = cmd().arg("--man").output().unwrap();
    assert!(out.status.success());
    let man = String::from_utf8(out.stdout).unwrap();
    assert!(man.starts_with(".ie") || man.contains(".TH"), "{man}");
    assert!(man.contains("keep\\-variations"));
}

#[test]
fn completions_for_an_unknown_shell_is_a_usage_error() {
    let out = cmd().args(["--completions", "cmd.exe"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn version_prints_the_crate_version() {
    cmd()
        .arg("--version")
        .assert()
        .success()
        .stdout(format!("ctlpgn-filter {}\n", env!("CARGO_PKG_VERSION")));
}

#[test]
fn check_verifies_without_writing_and_exits_0_on_the_real_games() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let mut cmd = cmd();
    cmd.arg("--check").arg("-q");
    for entry in std::fs::read_dir(format!("{dir}/corpus")).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy();
        // The seven games, not the folder `real-world/` beside them.
        if name.starts_with("real-") && name.ends_with(".ctl-pgn") {
            cmd.arg(p);
        }
    }
    cmd.assert().success().stdout("").stderr("");
}

#[test]
fn verify_rejects_an_incoherent_game_at_its_half_move() {
    let input = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15\n2. G7-E13:\n*\n";
    let out = cmd().arg("--verify").write_stdin(input).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("<stdin>:3:4: error: move 2 (White) G7-E13: E13 is occupied"),
        "{err}"
    );
}

#[test]
fn final_pdtl_prints_each_games_end_position() {
    let input = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
    let out = cmd()
        .args(["--check", "--final-pdtl"])
        .write_stdin(input)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "<stdin>:1: final position: /28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E13@9-11 0 1\n\
         ctlpgn-filter: 1 game read, 1 coherent, 0 rejected, 0 warnings\n"
    );
}

/// With `--split-variations`, one line per written game, variation games
/// included, each naming its path; the main line's line is as without it.
#[test]
fn final_pdtl_prints_one_line_per_written_game_variation_games_included() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = cmd()
        .current_dir(dir)
        .args(["--split-variations", "--check", "--final-pdtl"])
        .arg("corpus/split/spec-fools-mate.ctl-pgn")
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let heads: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.split_once(": /").map(|(head, _)| head))
        .collect();
    let file = "corpus/split/spec-fools-mate.ctl-pgn:1: final position";
    assert_eq!(
        heads,
        [
            "",
            " (variation 1)",
            " (variation 0:1)",
            " (variation 0:2)",
            " (variation 0:2:1)",
            " (variation 0:0:1)",
            " (variation 0:0:2)"
        ]
        .map(|v| format!("{file}{v}"))
    );
    // A variation game that does not replay is not written: no line.
    let out = cmd()
        .current_dir(dir)
        .args(["--split-variations", "--check", "--final-pdtl"])
        .arg("corpus/split/final-positions.ctl-pgn")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let named: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.split_once(": /").map(|(head, _)| head))
        .map(|head| head.split_once(": ").unwrap().1)
        .collect();
    assert_eq!(
        named,
        [
            "final position",
            "final position (variation 1)",
            "final position (variation 1:1)",
            "final position",
            "final position (variation 1)",
        ]
    );
}

#[test]
fn check_cannot_write_an_output_file() {
    let out = cmd().args(["--check", "-o", "x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn cut_writes_the_input_with_a_nul_byte_at_game_starts() {
    let quoting =
        "[Variant \"C'escacs\"]\n1. E7-E13:\n{ [Variant \"C'escacs\"] 1. F8-F12: * }\n*\n";
    let input = format!("{quoting}{GOOD}{BAD}");
    let out = cmd()
        .args(["--cut", "1"])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{quoting}\0{GOOD}\0{BAD}")
    );
    let out = cmd()
        .args(["--cut", "1K"])
        .write_stdin(input.clone())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), input, "one piece");
}

#[test]
fn cut_separates_files_with_a_nul_byte() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.ctl-pgn"), dir.path().join("b.ctl-pgn"));
    write(&a, GOOD);
    write(&b, GOOD);
    let out = cmd()
        .args(["--cut", "64M"])
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{GOOD}\0{GOOD}")
    );
}

#[test]
fn cut_takes_sizes_with_k_m_g_and_refuses_others() {
    for bad in ["0", "12X", "M"] {
        let out = cmd()
            .args(["--cut", bad])
            .write_stdin(GOOD)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("a size is a number of bytes"));
    }
    let out = cmd()
        .args(["--cut", "1M", "--verify"])
        .write_stdin(GOOD)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `input` as `--cut 1 --mark-origin` cuts it (a piece a game), written to
/// a file `games.ctl-pgn` first; and the pieces.
fn marked_pieces(input: &str) -> (tempfile::TempDir, Vec<Vec<u8>>) {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("games.ctl-pgn"), input);
    let out = cmd()
        .args(["--cut", "1", "--mark-origin", "games.ctl-pgn"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let pieces = out.stdout.split(|&b| b == 0).map(<[u8]>::to_vec).collect();
    (dir, pieces)
}

const TWO_BAD: &str = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n\n\
    [Variant \"C'escacs\"]\n1. E7-E99:\n*\n\n\
    [Variant \"C'escacs\"]\n\n1. E7-E13, E21-E99:\n*\n";

#[test]
fn a_marked_piece_s_diagnostics_name_the_file_and_line_a_whole_run_names() {
    let (dir, pieces) = marked_pieces(TWO_BAD);
    assert_eq!(pieces.len(), 3);
    let whole = cmd()
        .arg("games.ctl-pgn")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let errors = |out: &Output| -> Vec<String> {
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .filter(|l| l.contains(": error: "))
            .map(String::from)
            .collect()
    };
    let mut by_piece = Vec::new();
    let mut written = Vec::new();
    for piece in &pieces {
        let out = cmd().write_stdin(piece.clone()).output().unwrap();
        by_piece.extend(errors(&out));
        written.extend(out.stdout);
    }
    assert_eq!(by_piece, errors(&whole));
    assert_eq!(
        by_piece[1],
        "games.ctl-pgn:11:16: error: E99 is not on the board: column E has odd lines 1-27"
    );
    // The line is read, not written.
    assert_eq!(written, whole.stdout);
}

#[test]
fn a_marked_piece_s_ndjson_names_the_file_and_line_a_whole_run_names() {
    let (_dir, pieces) = marked_pieces(GOOD.repeat(2).as_str());
    let out = cmd()
        .args(["--format", "ndjson"])
        .write_stdin(pieces[1].clone())
        .output()
        .unwrap();
    let game: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(game["file"], "games.ctl-pgn");
    assert!(game["line"].as_u64().unwrap() > 1, "{game}");
}

#[test]
fn mark_origin_needs_cut() {
    let out = cmd()
        .arg("--mark-origin")
        .write_stdin(GOOD)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_ends_with_the_summary_every_run_prints_unless_quiet() {
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let real: Vec<_> = [
        "2020-07-20",
        "2022-08-14.1",
        "2022-08-14.2",
        "2023-09-08",
        "2023-09-11",
        "2023-09-17",
        "2023-09-18",
    ]
    .map(|d| corpus.join(format!("real-{d}.ctl-pgn")))
    .to_vec();
    let out = cmd().arg("--check").args(&real).output().unwrap();
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.ends_with("ctlpgn-filter: 7 games read, 7 coherent, 0 rejected, 4 warnings\n"),
        "{err}"
    );
    let out = cmd().args(["--check", "-q"]).args(&real).output().unwrap();
    assert_eq!((out.status.code(), &out.stderr[..]), (Some(0), &b""[..]));
    // A check of nothing says so too.
    let out = cmd().arg("--check").write_stdin("").output().unwrap();
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "ctlpgn-filter: 0 games read, 0 coherent, 0 rejected, 0 warnings\n"
    );
}
