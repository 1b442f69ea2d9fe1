//! Helpers shared by the command-line test files.

#![allow(dead_code)] // each test file takes what it needs

use assert_cmd::Command;
use std::path::{Path, PathBuf};

pub mod child;

/// The variables by which `--color auto` would colour (anstream's rules):
/// a test decides colour itself, never the environment of whoever runs
/// `cargo test` (`CLICOLOR_FORCE` colours a pipe; `CI` a dumb terminal).
pub const COLOUR_VARIABLES: [&str; 4] = ["NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "CI"];

/// The binary, with none of [`COLOUR_VARIABLES`] set.
pub fn binary() -> std::process::Command {
    let mut command = std::process::Command::new(assert_cmd::cargo::cargo_bin("ctlpgn-filter"));
    for name in COLOUR_VARIABLES {
        command.env_remove(name);
    }
    command
}

/// [`binary`] as assert_cmd runs it.
pub fn cmd() -> Command {
    Command::from_std(binary())
}

/// Runs the binary with `args` on `input` as standard input: whether it
/// succeeded, its standard output, its standard error.
pub fn run(args: &[&str], input: &str) -> (bool, String, String) {
    let out = cmd().args(args).write_stdin(input).output().unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The folders of `corpus/` that hold games today: each must still hold
/// some, so that a folder moved or renamed fails the tests instead of
/// quietly leaving them.
const CORPUS_FOLDERS: [&str; 5] = [
    "",
    "errors",
    "split",
    "real-world/html",
    "real-world/html-history",
];

/// Every `.ctl-pgn` file under `corpus/`, at any depth, sorted: the files
/// at its top, `errors/`, `split/`, `real-world/` and any folder added
/// later. The one list of the corpus that every test walking it reads.
pub fn corpus_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, files);
            } else if path.extension().is_some_and(|e| e == "ctl-pgn") {
                files.push(path);
            }
        }
    }
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut files = Vec::new();
    walk(&corpus, &mut files);
    files.sort();
    for folder in CORPUS_FOLDERS {
        let dir = corpus.join(folder);
        assert!(
            files.iter().any(|f| f.parent() == Some(dir.as_path())),
            "no .ctl-pgn file in {}",
            dir.display()
        );
    }
    files
}
