//! Helpers shared by the command-line test files.

use assert_cmd::Command;

/// Runs the binary with `args` on `input` as standard input: whether it
/// succeeded, its standard output, its standard error.
pub fn run(args: &[&str], input: &str) -> (bool, String, String) {
    let out = Command::cargo_bin("ctlpgn-filter")
        .unwrap()
        .args(args)
        .write_stdin(input)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}
