//! The README's quick start runs as printed: each command, in a folder
//! holding the repository's corpus, exits 0 and writes something.

mod support;

use std::path::Path;
use std::process::Command;

/// The commands of the README's "Quick start" section (lines starting
/// `ctlpgn-filter` in its first `sh` block).
fn quick_start() -> Vec<String> {
    let readme = include_str!("../README.md");
    let section = &readme[readme.find("\n## Quick start").expect("a quick start")..];
    let block = &section[section.find("```sh\n").expect("an sh block") + 6..];
    let block = &block[..block.find("```").expect("closed")];
    block
        .lines()
        .filter(|l| l.starts_with("ctlpgn-filter "))
        .map(String::from)
        .collect()
}

#[test]
fn the_quick_start_has_six_commands_and_each_runs_as_printed() {
    let commands = quick_start();
    assert_eq!(commands.len(), 6, "{commands:?}");
    let has_jq = Command::new("jq").arg("--version").output().is_ok();
    // CI installs jq and says so: there the jq command runs, never skipped.
    assert!(
        has_jq || std::env::var_os("CTLPGN_TEST_NEEDS_JQ").is_none(),
        "no jq, which CTLPGN_TEST_NEEDS_JQ asks for"
    );
    let bin = assert_cmd::cargo::cargo_bin("ctlpgn-filter");
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"),
        dir.path().join("corpus"),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for command in commands {
        if command.contains("| jq") && !has_jq {
            continue;
        }
        let out = Command::new("bash")
            .args(["-o", "pipefail", "-c", &command])
            .current_dir(dir.path())
            .env("PATH", &path)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let wrote_file = ["clean.ctl-pgn", "sasal.ctl-pgn"]
            .iter()
            .any(|f| command.contains(&format!("> {f}")) || command.contains(&format!("-o {f}")));
        assert!(
            wrote_file || !out.stdout.is_empty() || command.contains("--check"),
            "{command}: wrote nothing"
        );
    }
    // A board for each real game.
    let boards = std::fs::read_dir(dir.path().join("boards"))
        .unwrap()
        .count();
    assert!(boards >= 7, "{boards} diagrams");
    // The player's games, in either colour: each has him as White or Black,
    // and some as Black.
    let sasal = std::fs::read_to_string(dir.path().join("sasal.ctl-pgn")).unwrap();
    let games: Vec<&str> = sasal.split("[Variant ").skip(1).collect();
    assert!(games.len() >= 2, "{sasal}");
    for game in &games {
        assert!(
            game.contains("[White \"Sasal") || game.contains("[Black \"Sasal"),
            "{game}"
        );
    }
    assert!(
        games.iter().any(|g| g.contains("[Black \"Sasal")),
        "{sasal}"
    );
}

/// The README's exit-status example, a pipeline that accepts rejected
/// games: on a file with a rejected game (status 1) it succeeds, on an
/// input that cannot be read (status 2) it fails.
#[test]
fn the_exit_status_example_accepts_rejected_games_and_nothing_worse() {
    let readme = include_str!("../README.md");
    let at = readme
        .find("`ctlpgn-filter -q in.pgn")
        .expect("the example");
    let example = &readme[at + 1..];
    let example = &example[..example.find('`').unwrap()];
    let bin = assert_cmd::cargo::cargo_bin("ctlpgn-filter");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for (input, passes) in [
        (Some("errors/movetext.ctl-pgn"), true),
        (Some("real-2023-09-08.ctl-pgn"), true),
        (None, false),
    ] {
        let dir = tempfile::tempdir().unwrap();
        if let Some(input) = input {
            std::fs::copy(corpus.join(input), dir.path().join("in.pgn")).unwrap();
        }
        let status = Command::new("bash")
            .args(["-c", example])
            .current_dir(dir.path())
            .env("PATH", &path)
            .status()
            .unwrap();
        assert_eq!(status.success(), passes, "{example} on {input:?}");
    }
}

/// Runs each `$ COMMAND` of the first `console` block after `marker` in
/// `doc`, from the repository's root, and compares its output with the
/// lines shown after it; returns how many it ran.
fn examples_print_what_they_show(doc: &str, marker: &str) -> usize {
    let at = doc.find(marker).expect("the examples");
    let block = &doc[at..];
    let block = &block[block.find("```console\n").expect("a console block") + 11..];
    let block = &block[..block.find("```").expect("closed")];
    let bin = assert_cmd::cargo::cargo_bin("ctlpgn-filter");
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut examples = 0;
    for example in block.split("$ ").skip(1) {
        let (command, shown) = example.split_once('\n').unwrap();
        let command = command.split("      #").next().unwrap().trim();
        let out = Command::new("bash")
            .args(["-o", "pipefail", "-c", command])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("PATH", &path)
            .output()
            .unwrap();
        assert_eq!(String::from_utf8(out.stdout).unwrap(), shown, "{command}");
        examples += 1;
    }
    examples
}

/// The README's examples on the real games (the `console` block after the
/// options in brief) print what it shows.
#[test]
fn the_readme_s_examples_on_the_real_games_print_what_it_shows() {
    let readme = include_str!("../README.md");
    assert_eq!(
        examples_print_what_they_show(readme, "On the author's seven real games"),
        5
    );
}

/// So do the user guide's for the listing and the count.
#[test]
fn the_user_guide_s_listing_and_count_examples_print_what_it_shows() {
    let guide = include_str!("../docs/user-guide.md");
    assert_eq!(
        examples_print_what_they_show(guide, "### Listing and count"),
        2
    );
}

/// The fenced `rust` block that follows `marker` in `doc`.
fn rust_block_after<'a>(doc: &'a str, marker: &str) -> &'a str {
    let at = doc.find(marker).expect("the marker");
    let block = &doc[at + marker.len()..];
    let block = &block[block.find("```rust\n").expect("a rust block") + 8..];
    &block[..block.find("```").expect("closed")]
}

/// The user guide's visitor example is `examples/per_player.rs` as it is,
/// whole: it cannot drift from the code that `cargo test` builds and runs.
#[test]
fn the_user_guide_s_visitor_example_is_examples_per_player_rs() {
    let guide = include_str!("../docs/user-guide.md");
    let shown = rust_block_after(guide, "<!-- example: examples/per_player.rs -->");
    let file = include_str!("../examples/per_player.rs");
    assert!(
        shown == file,
        "docs/user-guide.md's example differs from examples/per_player.rs: copy the file \
         into the guide again"
    );
}

/// The README's library section names the reader and points to the guide
/// and the examples.
#[test]
fn the_readme_s_library_section_names_the_reader_and_points_onwards() {
    let readme = include_str!("../README.md");
    let at = readme.find("\n## Library").expect("a library section");
    let section = &readme[at + 1..];
    let section = &section[..section.find("\n## ").expect("a next section")];
    for name in [
        "ctlpgn_filter::read",
        "Reader",
        "Visitor",
        "docs/user-guide.md#library",
        "examples/per_player.rs",
        "examples/finals.rs",
    ] {
        assert!(
            section.contains(name),
            "the README's library section lacks {name}"
        );
    }
}
