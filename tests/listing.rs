//! A listing (`--format tsv`, `--format csv`) and a count (`--count`):
//! the lines and the number ndjson gives through jq, on every corpus
//! folder, under every selection, on any number of threads.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use support::binary;

/// The columns compared: tags (`Result` the tag), and every computed one.
const COLUMNS: &str = "White,Black,Date,Id,Result,result,plies,file,line";

/// The same values from ndjson, as jq reads them.
const JQ: &str = r#"[(.tags.White // ""), (.tags.Black // ""), (.tags.Date // ""), (.tags.Id // ""), (.tags.Result // ""), .result, (.moves | length), .file, .line]"#;

/// The binary's standard output with `args`.
fn stdout_of(args: &[&str], files: &[PathBuf]) -> String {
    let out = binary().args(args).args(files).output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1 | 3 | 4)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// One ndjson game's values for [`COLUMNS`], as jq's `@tsv` (`csv`:
/// `@csv`) writes them: strings escaped, numbers as they are.
fn row(game: &serde_json::Value, csv: bool) -> String {
    let tag = |name: &str| game["tags"][name].as_str().unwrap_or_default().to_string();
    let text = |s: String| {
        if csv {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.replace('\\', "\\\\")
                .replace('\t', "\\t")
                .replace('\n', "\\n")
                .replace('\r', "\\r")
        }
    };
    [
        text(tag("White")),
        text(tag("Black")),
        text(tag("Date")),
        text(tag("Id")),
        text(tag("Result")),
        text(game["result"].as_str().unwrap().to_string()),
        game["moves"].as_array().unwrap().len().to_string(),
        text(game["file"].as_str().unwrap().to_string()),
        game["line"].to_string(),
    ]
    .join(if csv { "," } else { "\t" })
}

/// jq's `@tsv` or `@csv` of [`JQ`] over `ndjson`, if jq is here.
fn through_jq(ndjson: &str, csv: bool) -> Option<String> {
    let mut jq = Command::new("jq")
        .args([
            "-r",
            &format!("{JQ} | @{}", if csv { "csv" } else { "tsv" }),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut stdin = jq.stdin.take().unwrap();
    let text = ndjson.to_string();
    let feeder = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, text.as_bytes()));
    let out = jq.wait_with_output().unwrap();
    feeder.join().unwrap().unwrap();
    assert!(out.status.success());
    Some(String::from_utf8(out.stdout).unwrap())
}

/// Is jq here? CI installs it and says so (`CTLPGN_TEST_NEEDS_JQ`).
fn has_jq() -> bool {
    let has = Command::new("jq").arg("--version").output().is_ok();
    assert!(
        has || std::env::var_os("CTLPGN_TEST_NEEDS_JQ").is_none(),
        "no jq, which CTLPGN_TEST_NEEDS_JQ asks for"
    );
    has
}

/// The listing in both formats and the count of `files` under `options`
/// agree with ndjson under the same options, read as jq reads it.
fn agree(options: &[&str], files: &[PathBuf]) {
    fn with<'a>(more: &[&'a str], options: &[&'a str]) -> Vec<&'a str> {
        [more, options].concat()
    }
    let ndjson = stdout_of(&with(&["--format", "ndjson"], options), files);
    let games: Vec<serde_json::Value> = ndjson
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (format, csv) in [("tsv", false), ("csv", true)] {
        let listing = stdout_of(
            &with(&["--format", format, "--columns", COLUMNS], options),
            files,
        );
        let (header, rows) = listing.split_once('\n').unwrap();
        let names: Vec<String> = COLUMNS
            .split(',')
            .map(|n| {
                if csv {
                    format!("\"{n}\"")
                } else {
                    n.to_string()
                }
            })
            .collect();
        assert_eq!(header, names.join(if csv { "," } else { "\t" }));
        let expected: String = games.iter().map(|g| row(g, csv) + "\n").collect();
        assert_eq!(rows, expected, "{format} {options:?} {files:?}");
        if let Some(jq) = has_jq().then(|| through_jq(&ndjson, csv)).flatten() {
            assert_eq!(rows, jq, "{format} {options:?} {files:?}, jq");
        }
    }
    let count = stdout_of(&with(&["--count"], options), files);
    assert_eq!(count, format!("{}\n", games.len()), "{options:?} {files:?}");
}

/// The corpus's folders, each with its files (not those of its folders).
fn corpus_folders() -> Vec<(PathBuf, Vec<PathBuf>)> {
    let mut folders: Vec<(PathBuf, Vec<PathBuf>)> = Vec::new();
    for file in support::corpus_files() {
        let dir = file.parent().unwrap().to_path_buf();
        match folders.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, files)) => files.push(file),
            None => folders.push((dir, vec![file])),
        }
    }
    folders
}

#[test]
fn the_listing_and_the_count_agree_with_ndjson_and_jq_on_every_corpus_folder() {
    let folders = corpus_folders();
    assert!(folders.len() >= 5, "{folders:?}");
    for (_, files) in &folders {
        agree(&[], files);
    }
}

#[test]
fn the_listing_and_the_count_honour_every_selection() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let files = vec![corpus.join("real-world"), corpus.clone()];
    for options in [
        &["--player", "sasal"][..],
        &["--player", "Sasal*", "--invert"],
        &["--result", "white"],
        &["--result", "0-3", "--result", "draw"],
        &["--date", "2022.."],
        &["--date", "..2021-06", "-v"],
        &["--tag", "Event=cg", "--plies", "70.."],
        &["--reaches", "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/15:3p4/13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr - 0 2"],
        &["--dedup"],
        &["--dedup-result", "--stop-after", "5"],
        &["--verify"],
    ] {
        agree(options, &files);
    }
}

#[test]
fn the_listing_and_the_count_are_the_same_on_several_threads() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut input = Vec::new();
    for file in support::corpus_files() {
        if file.starts_with(corpus.join("real-world")) || file.starts_with(corpus.join("split")) {
            input.extend(std::fs::read(&file).unwrap());
            input.push(b'\n');
        }
    }
    let input = input.repeat(20);
    let run = |args: &[&str]| {
        let out = support::cmd()
            .args(args)
            .write_stdin(input.clone())
            .output()
            .unwrap();
        (out.status.code(), out.stdout, out.stderr)
    };
    for options in [
        &["--format", "tsv"][..],
        &["--format", "csv", "--columns", "Id,plies,line", "--dedup"],
        &["--count"],
        &["--count", "--player", "sasal", "--date", "2021"],
        &["--format", "tsv", "--result", "white", "-v"],
    ] {
        let one = run(&[options, &["--jobs", "1"]].concat());
        let two = run(&[options, &["--jobs", "2", "--chunk-bytes", "4096"]].concat());
        assert!(one.1.len() > 1, "{options:?}");
        assert_eq!(one, two, "{options:?}");
    }
}

#[test]
fn tsv_escapes_tabs_line_ends_and_backslashes_and_csv_quotes() {
    let dir = tempfile::tempdir().unwrap();
    let name = "tab\there\nand line.ctl-pgn";
    std::fs::write(
        dir.path().join(name),
        "[Variant \"C'escacs\"]\n[White \"say \\\"hi\\\", then\tgo \\\\o/\"]\n1. E7-E13:\n*\n",
    )
    .unwrap();
    let run = |format: &str| {
        let out = support::cmd()
            .current_dir(dir.path())
            .args(["--format", format, "--columns", "White,file", name])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(
        run("tsv"),
        "White\tfile\nsay \"hi\", then\\tgo \\\\o/\ttab\\there\\nand line.ctl-pgn\n"
    );
    assert_eq!(
        run("csv"),
        "\"White\",\"file\"\n\"say \"\"hi\"\", then\tgo \\o/\",\"tab\there\nand line.ctl-pgn\"\n"
    );
}

#[test]
fn the_header_comes_once_whatever_the_inputs_and_threads() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let out = stdout_of(
        &["--format", "tsv", "--jobs", "2", "--chunk-bytes", "4096"],
        &[
            corpus.join("real-2020-07-20.ctl-pgn"),
            corpus.join("real-world"),
        ],
    );
    assert_eq!(
        out.matches("White\tBlack\tDate\tresult\tplies\tfile\tline\n")
            .count(),
        1
    );
    assert!(
        out.starts_with("White\tBlack\tDate\tresult\tplies\tfile\tline\n\t\t2020-07-20\t3-0\t69\t"),
        "{out}"
    );
}

#[test]
fn count_prints_the_number_selected_and_nothing_else() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let real: Vec<PathBuf> = (support::corpus_files().into_iter())
        .filter(|f| f.parent() == Some(corpus.as_path()))
        .filter(|f| {
            f.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("real-")
        })
        .collect();
    assert_eq!(real.len(), 7);
    let out = binary()
        .args(["--count", "-q"])
        .args(&real)
        .output()
        .unwrap();
    assert_eq!((out.status.code(), &out.stdout[..]), (Some(0), &b"7\n"[..]));
    let out = binary()
        .args(["--count", "--player", "sasal"])
        .args(&real)
        .output()
        .unwrap();
    assert_eq!(out.stdout, b"2\n");
    let out = binary()
        .args(["--count", "--player", "nobody"])
        .args(&real)
        .output()
        .unwrap();
    assert_eq!((out.status.code(), &out.stdout[..]), (Some(4), &b"0\n"[..]));
}

#[test]
fn a_listing_is_refused_where_it_cannot_be_one_listing() {
    for (args, says) in [
        (&["--columns", "White"][..], "--format tsv"),
        (
            &["--format", "tsv", "--split-variations"],
            "--split-variations",
        ),
        (
            &["--format", "csv", "--columns", "White,,Date"],
            "column name is empty",
        ),
        (&["--format", "csv", "--columns", "Bl ack"], "is no column"),
        (&["--count", "--format", "ndjson"], "--format"),
    ] {
        let out = support::cmd().args(args).write_stdin("").output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
