//! Helpers shared by the command-line test files.

#![allow(dead_code)] // each test file takes what it needs

use assert_cmd::Command;

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
