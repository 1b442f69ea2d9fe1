//! What an input holds before it is CTL-PGN: compressed files (gzip, zstd,
//! xz, bzip2), from a file and from standard input, in folders, with each
//! option that writes files; UTF-16 text; Latin-1 and Windows-1252 text.

mod support;

use assert_cmd::Command;
use std::fs;
use std::io::Write;

const GOOD: &str = "[Variant \"C'escacs\"]\n1. E7‐E13:\n*\n";
const GOOD_OUT: &str = "[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n\n";
const BAD: &str = "[Variant \"C'escacs\"]\n1. E13xF16:\n*\n";

fn cmd() -> Command {
    let mut c = support::cmd();
    c.timeout(std::time::Duration::from_secs(60));
    c
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `text` compressed in each format, with the suffix its tool gives.
fn compressed(text: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text).unwrap();
    let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 6);
    xz.write_all(text).unwrap();
    let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
    bz.write_all(text).unwrap();
    vec![
        ("gz", gz.finish().unwrap()),
        ("zst", zstd::stream::encode_all(text, 3).unwrap()),
        ("xz", xz.finish().unwrap()),
        ("bz2", bz.finish().unwrap()),
    ]
}

/// Many games, some rejected, enough for several `--jobs` chunks.
fn many_games() -> String {
    let mut s = String::new();
    for i in 0..300 {
        s += if i % 7 == 3 { BAD } else { GOOD };
    }
    s
}

#[test]
fn each_compressed_format_is_read_from_a_file_and_from_standard_input() {
    let text = many_games();
    let plain = cmd()
        .args(["-j1"])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert_eq!(plain.status.code(), Some(1));
    // Its good games, the bad ones rejected.
    assert!(plain.stdout == GOOD_OUT.repeat(text.matches(GOOD).count()).as_bytes());
    let dir = tempfile::tempdir().unwrap();
    for (suffix, bytes) in compressed(text.as_bytes()) {
        let path = dir.path().join(format!("games.ctl-pgn.{suffix}"));
        fs::write(&path, &bytes).unwrap();
        let from_file = cmd().arg("-j1").arg(&path).output().unwrap();
        let from_stdin = cmd()
            .arg("-j1")
            .write_stdin(bytes.clone())
            .output()
            .unwrap();
        // A name that says nothing: the first bytes tell.
        let unnamed = dir.path().join(format!("unnamed-{suffix}"));
        fs::write(&unnamed, &bytes).unwrap();
        let from_unnamed = cmd().arg("-j1").arg(&unnamed).output().unwrap();
        for out in [&from_file, &from_stdin, &from_unnamed] {
            assert_eq!(out.status.code(), Some(1), "{suffix}");
            assert!(out.stdout == plain.stdout, "{suffix}");
        }
        // The diagnostics name the file as given, lines of its text.
        assert_eq!(
            stderr_of(&from_stdin),
            stderr_of(&plain),
            "{suffix}: standard input"
        );
        let named = stderr_of(&plain).replace("<stdin>", &path.display().to_string());
        assert_eq!(stderr_of(&from_file), named, "{suffix}");
        // Several threads read the decompressed text as one does.
        let jobs = cmd()
            .args(["-j", "3", "--chunk-bytes", "200"])
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(jobs.status.code(), Some(1), "{suffix}: --jobs");
        assert!(jobs.stdout == plain.stdout, "{suffix}: --jobs");
        assert_eq!(stderr_of(&jobs), named, "{suffix}: --jobs");
    }
}

#[test]
fn streams_one_after_the_other_are_read_as_one_text() {
    let [(_, a), ..] = &compressed(GOOD.as_bytes())[..] else {
        unreachable!()
    };
    cmd()
        .write_stdin([a.clone(), a.clone()].concat())
        .assert()
        .success()
        .stdout(GOOD_OUT.repeat(2));
}

#[test]
fn folders_read_compressed_game_files_and_out_dir_writes_them_plain() {
    let src = tempfile::tempdir().unwrap();
    for (suffix, bytes) in compressed(GOOD.as_bytes()) {
        fs::write(
            src.path().join(format!("g-{suffix}.ctl-pgn.{suffix}")),
            bytes,
        )
        .unwrap();
    }
    // Not a game file by its name: not read from a folder.
    fs::write(src.path().join("notes.gz"), &compressed(b"x")[0].1).unwrap();
    let dst = tempfile::tempdir().unwrap();
    cmd()
        .arg("--out-dir")
        .arg(dst.path())
        .arg(src.path())
        .assert()
        .success();
    let mut written: Vec<_> = fs::read_dir(dst.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    assert_eq!(
        written,
        [
            "g-bz2.ctl-pgn",
            "g-gz.ctl-pgn",
            "g-xz.ctl-pgn",
            "g-zst.ctl-pgn"
        ]
    );
    for name in written {
        assert_eq!(fs::read_to_string(dst.path().join(name)).unwrap(), GOOD_OUT);
    }
    cmd()
        .arg(src.path())
        .assert()
        .success()
        .stdout(GOOD_OUT.repeat(4));
}

#[test]
fn a_compressed_input_and_its_plain_twin_landing_on_one_path_are_refused() {
    let src = tempfile::tempdir().unwrap();
    fs::write(src.path().join("g.pgn"), GOOD).unwrap();
    fs::write(
        src.path().join("g.pgn.gz"),
        &compressed(GOOD.as_bytes())[0].1,
    )
    .unwrap();
    let dst = tempfile::tempdir().unwrap();
    let out = cmd()
        .arg("--out-dir")
        .arg(dst.path())
        .arg(src.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("would both be written to"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn in_place_refuses_a_compressed_file_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("a.ctl-pgn");
    fs::write(&plain, GOOD).unwrap();
    for (suffix, bytes) in compressed(GOOD.as_bytes()) {
        let path = dir.path().join(format!("g.ctl-pgn.{suffix}"));
        fs::write(&path, &bytes).unwrap();
        let out = cmd()
            .arg("--in-place")
            .arg(&plain)
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{suffix}");
        let err = stderr_of(&out);
        assert!(
            err.contains("--in-place writes plain text, and does not rewrite compressed files"),
            "{err}"
        );
        assert_eq!(fs::read(&path).unwrap(), bytes, "{suffix}");
        fs::remove_file(&path).unwrap();
    }
    // Refused before anything is written: the plain file was not rewritten.
    assert_eq!(fs::read_to_string(&plain).unwrap(), GOOD);
}

#[test]
fn cut_writes_the_decompressed_text() {
    let text = many_games();
    let whole = cmd()
        .args(["--cut", "1K"])
        .write_stdin(text.clone())
        .output()
        .unwrap();
    assert!(whole.status.success());
    assert_eq!(
        whole.stdout.iter().filter(|&&b| b != 0).count(),
        text.len(),
        "the text, with NUL bytes between pieces"
    );
    for (suffix, bytes) in compressed(text.as_bytes()) {
        let out = cmd()
            .args(["--cut", "1K"])
            .write_stdin(bytes)
            .output()
            .unwrap();
        assert!(out.status.success(), "{suffix}");
        assert!(out.stdout == whole.stdout, "{suffix}");
    }
}

#[test]
fn truncated_or_corrupt_compressed_input_is_an_input_error_naming_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = many_games();
    for (suffix, bytes) in compressed(text.as_bytes()) {
        let path = dir.path().join(format!("cut.pgn.{suffix}"));
        fs::write(&path, &bytes[..bytes.len() * 2 / 3]).unwrap();
        let good = dir.path().join("good.pgn");
        fs::write(&good, GOOD).unwrap();
        let out = cmd().arg(&path).arg(&good).output().unwrap();
        // Unreadable: status 2, and the next input is still filtered.
        assert_eq!(out.status.code(), Some(2), "{suffix}");
        let err = stderr_of(&out);
        assert!(
            err.contains(&format!("ctlpgn-filter: {}: ", path.display())),
            "{suffix}: {err}"
        );
        assert!(String::from_utf8_lossy(&out.stdout).ends_with(GOOD_OUT));
        assert!(err.contains("1 file unreadable"), "{err}");
    }
}

#[test]
fn a_binary_file_inside_a_compressed_one_is_skipped_as_binary() {
    let [(_, gz), ..] = &compressed(b"[Variant \0 binary")[..] else {
        unreachable!()
    };
    let out = cmd().write_stdin(gz.clone()).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr_of(&out).contains(
            "<stdin>: skipped: a binary file (a NUL byte at byte offset 9 of its decompressed text)"
        ),
        "{}",
        stderr_of(&out)
    );
}

fn utf16(text: &str, bom: bool, le: bool) -> Vec<u8> {
    let bom = if bom { "\u{feff}" } else { "" };
    format!("{bom}{text}")
        .encode_utf16()
        .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
        .collect()
}

#[test]
fn utf16_is_skipped_with_the_command_that_converts_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("u16.pgn");
    fs::write(&path, utf16(GOOD, true, true)).unwrap();
    let good = dir.path().join("good.pgn");
    fs::write(&good, GOOD).unwrap();
    let out = cmd().arg(&path).arg(&good).output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(out.stdout, GOOD_OUT.as_bytes());
    let p = path.display();
    assert_eq!(
        stderr_of(&out),
        format!(
            "ctlpgn-filter: {p}: skipped: UTF-16LE text (it starts with that byte order mark), \
             not UTF-8: convert it first, as with: iconv -f UTF-16 -t utf-8 {p} > {p}.utf8\n\
             ctlpgn-filter: 1 game read, 1 written, 0 rejected, 0 warnings; 1 file skipped as UTF-16\n"
        )
    );
    // Big-endian, without a byte order mark, from standard input.
    let out = cmd()
        .write_stdin(utf16(GOOD, false, false))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr_of(&out).contains(
            "<stdin>: skipped: UTF-16BE text (a NUL byte beside every character), not UTF-8: \
             convert it first, as with: iconv -f UTF-16BE -t utf-8 | ctlpgn-filter"
        ),
        "{}",
        stderr_of(&out)
    );
    // What the message says to run gives a file that is read.
    let converted: String = String::from_utf16(
        &utf16(GOOD, true, true)
            .chunks(2)
            .map(|p| u16::from_le_bytes([p[0], p[1]]))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    cmd()
        .write_stdin(converted)
        .assert()
        .success()
        .stdout(GOOD_OUT);
}

#[test]
fn latin1_and_windows_1252_text_is_named_with_the_iconv_fix() {
    let latin1 = b"[Variant \"C'escacs\"]\n[White \"Fran\xE7ois\"]\n1. E7-E13:\n*\n";
    let out = cmd().write_stdin(&latin1[..]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr_of(&out);
    assert!(
        err.starts_with(
            "<stdin>:2:13: error: invalid UTF-8: byte 0xE7 at byte offset 33 of the input \
             ('ç' in Latin-1): the text seems to be Latin-1 (ISO 8859-1), not UTF-8: convert the \
             file with iconv -f latin1 -t utf-8\n"
        ),
        "{err}"
    );
    // The caret is under the byte, not at the tag's start.
    assert!(err.contains("\n  |             ^\n"), "{err}");
    let cp1252 = b"[Variant \"C'escacs\"]\n1. E7-E13: { the \x93best\x94 move }\n*\n";
    let err = stderr_of(
        &cmd()
            .arg("--keep-comments")
            .write_stdin(&cp1252[..])
            .output()
            .unwrap(),
    );
    assert!(err.contains("('“' in Windows-1252)"), "{err}");
    assert!(err.contains("iconv -f windows-1252 -t utf-8"), "{err}");
}

/// Games that differ from one another (their `Event`), every seventh
/// rejected: cut in half, a compressed file stops part way through them.
fn distinct_games(n: usize) -> String {
    (0..n)
        .map(|i| {
            let moves = if i % 7 == 3 { "E13xF16" } else { "E7-E13" };
            format!("[Variant \"C'escacs\"]\n[Event \"game {i}\"]\n1. {moves}:\n*\n\n")
        })
        .collect()
}

/// What `decoder` gives before it fails on data cut short.
fn decoded_before_the_cut(mut decoder: impl std::io::Read) -> Vec<u8> {
    let mut text = Vec::new();
    let mut buf = [0; 4096];
    loop {
        match decoder.read(&mut buf) {
            Ok(0) => panic!("data cut in half decoded whole"),
            Ok(n) => text.extend_from_slice(&buf[..n]),
            Err(_) => return text,
        }
    }
}

/// The summary's counts: games read, written, rejected.
fn summary_counts(stderr: &str) -> (u64, u64, u64) {
    let line = stderr
        .lines()
        .find(|l| l.contains(" games read, "))
        .unwrap_or_else(|| panic!("no summary in {stderr}"));
    let n: Vec<u64> = line
        .split([' ', ','])
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1], n[2])
}

/// Filters `path` with `args`: status, stdout, stderr, rejects.
fn filtered(path: &std::path::Path, args: &[&str]) -> (Option<i32>, Vec<u8>, String, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let rejects = dir.path().join("rejects.pgn");
    let out = cmd()
        .args(args)
        .arg("--rejects")
        .arg(&rejects)
        .arg(path)
        .output()
        .unwrap();
    let rejected = fs::read(&rejects).unwrap_or_default();
    let err = stderr_of(&out);
    (out.status.code(), out.stdout, err, rejected)
}

#[test]
fn a_truncated_compressed_file_gives_its_complete_games_rejects_the_cut_one_and_exits_2() {
    let text = distinct_games(20_000);
    let dir = tempfile::tempdir().unwrap();
    let formats = compressed(text.as_bytes())
        .into_iter()
        .filter(|(suffix, _)| ["gz", "zst", "xz"].contains(suffix));
    for (suffix, bytes) in formats {
        let cut = &bytes[..bytes.len() / 2];
        let decoded = match suffix {
            "gz" => decoded_before_the_cut(flate2::read::MultiGzDecoder::new(cut)),
            "zst" => decoded_before_the_cut(zstd::stream::read::Decoder::new(cut).unwrap()),
            _ => decoded_before_the_cut(liblzma::read::XzDecoder::new_multi_decoder(cut)),
        };
        // The game under way where the text stops, and the complete ones.
        let last = memchr_last(&decoded, b"[Variant ");
        let (complete, cut_game) = decoded.split_at(last);
        assert!(!cut_game.ends_with(b"*\n\n"), "{suffix}: cut between games");
        let plain = dir.path().join(format!("complete-{suffix}.pgn"));
        fs::write(&plain, complete).unwrap();
        let (status, out, err, rejects) = filtered(&plain, &["-j1"]);
        assert_eq!(status, Some(1), "{suffix}: {err}");
        let (read, written, rejected) = summary_counts(&err);

        let path = dir.path().join(format!("cut.pgn.{suffix}"));
        fs::write(&path, cut).unwrap();
        let runs = [
            vec!["-j1"],
            vec!["-j2"],
            vec!["-j2", "--chunk-bytes", "300"],
            vec!["-j3", "--chunk-bytes", "4096"],
        ];
        let first = filtered(&path, &runs[0]);
        for args in &runs {
            let run = filtered(&path, args);
            assert_eq!(run.0, Some(2), "{suffix} {args:?}: {}", run.2);
            assert!(run.1 == out, "{suffix} {args:?}: the complete games");
            assert_eq!(
                run.3,
                [&rejects[..], cut_game].concat(),
                "{suffix} {args:?}: the rejects"
            );
            assert_eq!(
                summary_counts(&run.2),
                (read + 1, written, rejected + 1),
                "{suffix} {args:?}"
            );
            assert_eq!(run.2, first.2, "{suffix} {args:?}: the same messages");
        }
        let data = match suffix {
            "gz" => "gzip",
            "zst" => "zstd",
            _ => "xz",
        };
        let named = format!("ctlpgn-filter: {}: {data} data cut short", path.display());
        assert!(first.2.contains(&named), "{suffix}: {}", first.2);

        // --out-dir writes what -o writes.
        let into = dir.path().join(format!("into-{suffix}"));
        let by_dir = cmd()
            .args(["-j2", "--chunk-bytes", "300", "--out-dir"])
            .arg(&into)
            .arg(&path)
            .output()
            .unwrap();
        assert_eq!(by_dir.status.code(), Some(2), "{suffix}");
        let written = fs::read(into.join("cut.pgn")).unwrap();
        assert!(written == out, "{suffix}: --out-dir");
    }
}

/// Where `needle` last starts in `haystack`.
fn memchr_last(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .rposition(|w| w == needle)
        .expect("a game starts in the text")
}
