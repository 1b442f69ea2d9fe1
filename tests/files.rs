//! What the command does to files and streams it did not mean to touch:
//! outputs that are not regular files, outputs that are inputs, modes,
//! interrupted runs, folders walked, inputs that cannot be read, a stderr
//! or stdout that fails.
//!
//! Unix only, as the command's file handling is. No test here opens
//! `/dev/null`: a bug would replace the machine's own.

mod support;

use assert_cmd::Command;
use std::ffi::CString;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

const GOOD: &str = "[Variant \"C'escacs\"]\n1. E7-E13:\n*\n";
const GOOD_OUT: &str = "[Variant \"C'escacs\"]\n\n1. E7-E13:\n*\n\n";
const OTHER: &str = "[Variant \"C'escacs\"]\n1. F8-F12:\n*\n";
const OTHER_OUT: &str = "[Variant \"C'escacs\"]\n\n1. F8-F12:\n*\n\n";
const BAD: &str = "[Variant \"C'escacs\"]\n1. E13xF16:\n*\n";

/// Runs well past any of these tests' runs, short of a hang.
const PATIENCE: Duration = Duration::from_secs(20);

fn cmd() -> Command {
    let mut c = support::cmd();
    c.timeout(PATIENCE);
    c
}

use support::binary as bin;

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap()
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

/// The names in `dir`, sorted, hidden ones included.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Every file under `dir`, relative to it, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, found: &mut Vec<PathBuf>) {
        for e in fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, found);
            } else {
                found.push(p.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    let mut found = Vec::new();
    walk(dir, dir, &mut found);
    found.sort();
    found
}

fn c_path(path: &Path) -> CString {
    CString::new(path.as_os_str().as_bytes()).unwrap()
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The command with the umask at 022, as in most shells.
fn with_umask_022() -> Command {
    let mut c = bin();
    // SAFETY: umask is async-signal-safe and touches nothing else.
    unsafe {
        c.pre_exec(|| {
            libc::umask(0o022);
            Ok(())
        });
    }
    let mut c = Command::from_std(c);
    c.timeout(PATIENCE);
    c
}

// Modes

#[test]
fn a_new_output_file_gets_the_mode_the_umask_gives() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.ctl-pgn");
    with_umask_022()
        .arg("-o")
        .arg(&out)
        .write_stdin(GOOD)
        .assert()
        .success();
    assert_eq!(mode(&out), 0o644);
}

#[test]
fn an_existing_output_file_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.ctl-pgn");
    write(&out, "old");
    fs::set_permissions(&out, fs::Permissions::from_mode(0o664)).unwrap();
    with_umask_022()
        .arg("-o")
        .arg(&out)
        .write_stdin(GOOD)
        .assert()
        .success();
    assert_eq!(read(&out), GOOD_OUT);
    assert_eq!(mode(&out), 0o664);
}

// Outputs that are not regular files

#[test]
fn output_to_a_fifo_is_written_into_it_and_it_stays_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert_eq!(unsafe { libc::mkfifo(c_path(&fifo).as_ptr(), 0o600) }, 0);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(fifo).unwrap())
    };
    cmd()
        .arg("-o")
        .arg(&fifo)
        .write_stdin(GOOD)
        .assert()
        .success();
    // Checked before waiting for the reader: had the FIFO been replaced,
    // its reader would wait for ever.
    assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(String::from_utf8(reader.join().unwrap()).unwrap(), GOOD_OUT);
    assert_eq!(names(dir.path()), ["fifo"]);
}

/// Making the node needs root (CAP_MKNOD) and a file system that allows
/// devices: CI runs it (.ci/run), as root on Linux.
#[test]
#[ignore = "makes a device node: needs root; .ci/run runs it with --ignored"]
fn output_to_a_character_device_is_written_to_and_it_stays_a_device() {
    let dir = tempfile::tempdir().unwrap();
    let device = dir.path().join("null");
    // The null device's numbers, on a node of our own: writes vanish.
    let made = unsafe {
        libc::mknod(
            c_path(&device).as_ptr(),
            libc::S_IFCHR | 0o666,
            libc::makedev(1, 3),
        )
    };
    let why = std::io::Error::last_os_error();
    assert_eq!(made, 0, "mknod {}: {why} (run as root)", device.display());
    if let Err(e) = fs::OpenOptions::new().write(true).open(&device) {
        panic!("{}: {e} (a file system mounted nodev?)", device.display());
    }
    cmd()
        .arg("-o")
        .arg(&device)
        .write_stdin(GOOD)
        .assert()
        .success();
    assert!(fs::metadata(&device).unwrap().file_type().is_char_device());
    assert_eq!(names(dir.path()), ["null"]);
}

#[test]
fn output_dash_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .current_dir(dir.path())
        .args(["-o", "-"])
        .write_stdin(GOOD)
        .assert()
        .success()
        .stdout(GOOD_OUT);
    assert!(names(dir.path()).is_empty(), "no file named -");
}

#[test]
fn rejects_dash_is_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    cmd()
        .current_dir(dir.path())
        .args(["--check", "--rejects", "-"])
        .write_stdin(format!("{GOOD}{BAD}"))
        .assert()
        .code(1)
        .stdout(BAD);
    assert!(names(dir.path()).is_empty(), "no file named -");
}

#[test]
fn output_through_a_symlink_replaces_the_file_it_leads_to() {
    let dir = tempfile::tempdir().unwrap();
    let (file, link) = (dir.path().join("file"), dir.path().join("link"));
    write(&file, "old");
    std::os::unix::fs::symlink("file", &link).unwrap();
    cmd()
        .arg("-o")
        .arg(&link)
        .write_stdin(GOOD)
        .assert()
        .success();
    assert!(fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(read(&file), GOOD_OUT);
}

// Outputs that are inputs

/// Runs with `args` on the input `input`, and checks the run is refused
/// before the input is touched, with a message that contains `hint`.
fn refused(input: &Path, args: &[&std::ffi::OsStr], hint: &str) {
    let before = read(input);
    let out = cmd().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains(hint), "{}", stderr_of(&out));
    assert_eq!(read(input), before, "the input is intact");
}

#[test]
fn output_through_a_symlink_to_the_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (input, link) = (dir.path().join("games.ctl-pgn"), dir.path().join("link"));
    write(&input, &format!("{GOOD}{BAD}"));
    std::os::unix::fs::symlink(&input, &link).unwrap();
    refused(
        &input,
        &["-o".as_ref(), link.as_os_str(), input.as_os_str()],
        "--in-place",
    );
}

#[test]
fn output_to_a_hard_link_of_the_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (input, hard) = (dir.path().join("games.ctl-pgn"), dir.path().join("hard"));
    write(&input, &format!("{GOOD}{BAD}"));
    fs::hard_link(&input, &hard).unwrap();
    refused(
        &input,
        &["-o".as_ref(), hard.as_os_str(), input.as_os_str()],
        "--in-place",
    );
}

#[test]
fn output_to_the_input_by_a_relative_path_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.ctl-pgn");
    write(&input, &format!("{GOOD}{BAD}"));
    let out = cmd()
        .current_dir(dir.path())
        .args(["-o", "./games.ctl-pgn", "games.ctl-pgn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("--in-place"));
    assert_eq!(read(&input), format!("{GOOD}{BAD}"));
}

#[test]
fn rejects_onto_an_input_is_refused_and_the_input_intact() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.ctl-pgn");
    write(&input, &format!("{GOOD}{BAD}"));
    refused(
        &input,
        &["--rejects".as_ref(), input.as_os_str(), input.as_os_str()],
        "--rejects",
    );
}

#[test]
fn rejects_onto_the_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.ctl-pgn");
    write(&input, &format!("{GOOD}{BAD}"));
    let out = cmd()
        .current_dir(dir.path())
        .args(["-o", "out", "--rejects", "./out", "games.ctl-pgn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("--rejects"));
    assert_eq!(names(dir.path()), ["games.ctl-pgn"]);
}

#[test]
fn out_dir_landing_on_an_input_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("games.ctl-pgn");
    write(&input, &format!("{GOOD}{BAD}"));
    let out = cmd()
        .current_dir(dir.path())
        .args(["--out-dir", ".", "games.ctl-pgn"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("--in-place"));
    assert_eq!(read(&input), format!("{GOOD}{BAD}"));
}

#[test]
fn a_failed_run_leaves_an_earlier_rejects_file_intact() {
    let dir = tempfile::tempdir().unwrap();
    let (input, rejects) = (dir.path().join("in"), dir.path().join("rejects"));
    write(&input, BAD);
    write(&rejects, "earlier rejects");
    let out = cmd()
        .arg("-o")
        .arg(dir.path().join("no such folder/out"))
        .arg("--rejects")
        .arg(&rejects)
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(read(&rejects), "earlier rejects");
    assert_eq!(names(dir.path()), ["in", "rejects"]);
}

// Interrupted runs

#[test]
fn an_interrupted_run_leaves_no_temporary_file_and_the_target_as_it_was() {
    // Every signal that ends the process and can be caught.
    for signal in [
        libc::SIGINT,
        libc::SIGTERM,
        libc::SIGHUP,
        libc::SIGQUIT,
        libc::SIGALRM,
        libc::SIGUSR1,
        libc::SIGUSR2,
        libc::SIGVTALRM,
        libc::SIGPROF,
        libc::SIGXCPU,
        libc::SIGXFSZ,
    ] {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("out.ctl-pgn");
        write(&target, "old");
        let mut child = bin()
            .arg("-o")
            .arg(&target)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // A game, and no end of input: the run waits for more.
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(GOOD.as_bytes()).unwrap();
        let start = Instant::now();
        while names(dir.path()).len() < 2 {
            assert!(start.elapsed() < PATIENCE, "no temporary file made");
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(signal), "{status:?}");
        assert_eq!(names(dir.path()), ["out.ctl-pgn"], "signal {signal}");
        assert_eq!(read(&target), "old");
    }
}

#[test]
fn a_file_size_limit_met_while_writing_leaves_no_temporary_file() {
    // `ulimit -f`: the write past it raises SIGXFSZ.
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.ctl-pgn");
    write(&target, "old");
    let mut command = bin();
    command
        .arg("-o")
        .arg(&target)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 4096,
                rlim_max: 4096,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let mut child = command.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(GOOD.repeat(2000).as_bytes());
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(!status.success(), "{status:?}");
    assert_eq!(names(dir.path()), ["out.ctl-pgn"]);
    assert_eq!(read(&target), "old");
}

#[test]
fn a_worker_thread_that_cannot_start_is_an_error_and_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.ctl-pgn");
    write(&input, &GOOD.repeat(100));
    let target = dir.path().join("out.ctl-pgn");
    let mut command = bin();
    // Each thread asks for 1 GB of stack, in 3 GB of address space.
    command
        .args(["-j", "8", "--chunk-bytes", "64", "-o"])
        .arg(&target)
        .arg(&input)
        .env("RUST_MIN_STACK", "1000000000");
    // SAFETY: setrlimit is async-signal-safe; nothing else runs in the child.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 3 << 30,
                rlim_max: 3 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let out = command.output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(
        err.starts_with("ctlpgn-filter: --jobs 8: cannot start worker thread ")
            && err.contains("ask for fewer threads"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(names(dir.path()), ["in.ctl-pgn"]);
}

#[test]
fn output_into_a_missing_folder_names_the_path_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.ctl-pgn");
    write(&input, GOOD);
    let target = dir.path().join("missing/dir/out.pgn");
    let out = cmd().arg("-o").arg(&target).arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let folder = dir.path().join("missing/dir");
    assert_eq!(
        stderr_of(&out),
        format!(
            "ctlpgn-filter: {}: cannot write it: the folder {} does not exist (mkdir -p {} makes it)\n",
            target.display(),
            folder.display(),
            folder.display()
        )
    );
    // Through a file where a folder should be.
    let target = input.join("out.pgn");
    let out = cmd().arg("-o").arg(&target).arg(&input).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(
        err.starts_with(&format!(
            "ctlpgn-filter: {}: cannot write it: ",
            target.display()
        )),
        "{err}"
    );
    assert!(
        !err.contains("os error") && !err.contains(".ctlpgn-filter-"),
        "{err}"
    );
}

// Folders

#[test]
fn a_folder_named_with_no_game_file_is_said_and_exits_2() {
    let empty = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    write(&other.path().join("notes.txt"), "no games");
    write(&other.path().join(".hidden.pgn"), GOOD);
    let good = tempfile::tempdir().unwrap();
    write(&good.path().join("g.pgn"), GOOD);
    for dir in [empty.path(), other.path()] {
        let out = cmd().arg(dir).arg(good.path()).output().unwrap();
        // Said, counted, status 2; the other inputs are still read.
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&out.stdout), GOOD_OUT);
        assert_eq!(
            stderr_of(&out),
            format!(
                "ctlpgn-filter: {}: no game file in this folder (.ctl-pgn or .pgn, compressed or \
                 not, hidden ones aside): nothing read from it; --glob reads other names \
                 (--glob '*.txt'), --hidden hidden ones\n\
                 ctlpgn-filter: 1 game read, 1 written, 0 rejected, 0 warnings; 1 folder without game files\n",
                dir.display()
            )
        );
    }
}

#[test]
fn a_symlink_loop_under_out_dir_is_not_followed() {
    let src = tempfile::tempdir().unwrap();
    write(&src.path().join("a/game.ctl-pgn"), GOOD);
    // Two links up: followed, they would make 2^40 paths.
    std::os::unix::fs::symlink("..", src.path().join("a/up")).unwrap();
    std::os::unix::fs::symlink("..", src.path().join("a/up2")).unwrap();
    let dst = tempfile::tempdir().unwrap();
    cmd()
        .arg("--out-dir")
        .arg(dst.path())
        .arg(src.path())
        .assert()
        .success();
    assert_eq!(files_under(dst.path()), [Path::new("a/game.ctl-pgn")]);
}

#[test]
fn a_symlink_loop_under_out_dir_with_follow_ends_and_is_reported() {
    let src = tempfile::tempdir().unwrap();
    write(&src.path().join("a/game.ctl-pgn"), GOOD);
    std::os::unix::fs::symlink("..", src.path().join("a/up")).unwrap();
    std::os::unix::fs::symlink("..", src.path().join("a/up2")).unwrap();
    let dst = tempfile::tempdir().unwrap();
    let out = cmd()
        .arg("--follow")
        .arg("--out-dir")
        .arg(dst.path())
        .arg(src.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert!(stderr_of(&out).contains("a/up: not followed"));
    assert_eq!(files_under(dst.path()), [Path::new("a/game.ctl-pgn")]);
}

#[test]
fn follow_reads_a_linked_folder() {
    let src = tempfile::tempdir().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    write(&elsewhere.path().join("game.pgn"), GOOD);
    std::os::unix::fs::symlink(elsewhere.path(), src.path().join("linked")).unwrap();
    // Without --follow the folder holds no game file: said, with the fix.
    let out = cmd().arg(src.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(
        stderr_of(&out).contains(
            ": no game file in this folder (.ctl-pgn or .pgn, compressed or not, hidden ones \
             aside): nothing read from it (1 symbolic link not followed: --follow reads what \
             they lead to); --glob reads other names"
        ),
        "{}",
        stderr_of(&out)
    );
    cmd()
        .arg("--follow")
        .arg(src.path())
        .assert()
        .success()
        .stdout(GOOD_OUT);
}

#[test]
fn two_inputs_written_to_one_path_are_refused_before_anything_is_written() {
    let src = tempfile::tempdir().unwrap();
    let (a, b) = (
        src.path().join("a/x.ctl-pgn"),
        src.path().join("b/x.ctl-pgn"),
    );
    write(&a, GOOD);
    write(&b, OTHER);
    let dst = src.path().join("out");
    let out = cmd()
        .arg("--out-dir")
        .arg(&dst)
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = stderr_of(&out);
    assert!(
        err.contains(&*a.to_string_lossy()) && err.contains(&*b.to_string_lossy()),
        "{err}"
    );
    assert!(!dst.exists());
}

#[test]
fn out_dir_skips_hidden_entries() {
    let src = tempfile::tempdir().unwrap();
    write(&src.path().join("game.ctl-pgn"), GOOD);
    write(&src.path().join(".hidden.ctl-pgn"), GOOD);
    write(&src.path().join(".git/old.pgn"), GOOD);
    let dst = tempfile::tempdir().unwrap();
    cmd()
        .arg("--out-dir")
        .arg(dst.path())
        .arg(src.path())
        .assert()
        .success();
    assert_eq!(files_under(dst.path()), [Path::new("game.ctl-pgn")]);
}

#[test]
fn a_hidden_file_named_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let hidden = dir.path().join(".game.ctl-pgn");
    write(&hidden, GOOD);
    cmd().arg(&hidden).assert().success().stdout(GOOD_OUT);
}

#[test]
fn out_dir_reads_extensions_in_any_case() {
    let src = tempfile::tempdir().unwrap();
    write(&src.path().join("OLD.PGN"), GOOD);
    write(&src.path().join("new.CTL-PGN"), GOOD);
    let dst = tempfile::tempdir().unwrap();
    cmd()
        .arg("--out-dir")
        .arg(dst.path())
        .arg(src.path())
        .assert()
        .success();
    assert_eq!(
        files_under(dst.path()),
        [Path::new("OLD.PGN"), Path::new("new.CTL-PGN")]
    );
}

#[test]
fn out_dir_inside_a_folder_read_is_refused_before_anything_is_read() {
    let src = tempfile::tempdir().unwrap();
    write(&src.path().join("game.ctl-pgn"), GOOD);
    write(&src.path().join("sub/other.ctl-pgn"), OTHER);
    // The folder read itself, one in it, one not made yet under it.
    for dst in ["", "sub", "clean", "clean/deeper"] {
        let dst = src.path().join(dst);
        let out = cmd()
            .arg("--out-dir")
            .arg(&dst)
            .arg(src.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", dst.display());
        let err = stderr_of(&out);
        assert!(
            err.contains(&format!(
                "--out-dir {} is inside {}, a folder being read",
                dst.display(),
                src.path().display()
            )) && err.contains("name a folder outside"),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
    assert_eq!(
        files_under(src.path()),
        [Path::new("game.ctl-pgn"), Path::new("sub/other.ctl-pgn")]
    );
    // A hidden folder inside is never walked: allowed.
    let hidden = src.path().join(".clean");
    cmd()
        .arg("--out-dir")
        .arg(&hidden)
        .arg(src.path())
        .assert()
        .success();
    assert_eq!(
        files_under(&hidden),
        [Path::new("game.ctl-pgn"), Path::new("sub/other.ctl-pgn")]
    );
}

#[test]
fn out_dir_writes_no_file_for_an_input_whose_games_were_all_rejected() {
    let src = tempfile::tempdir().unwrap();
    write(&src.path().join("bad.ctl-pgn"), BAD);
    write(&src.path().join("good.ctl-pgn"), GOOD);
    let dst = tempfile::tempdir().unwrap();
    let out = cmd()
        .arg("--out-dir")
        .arg(dst.path())
        .arg(src.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(files_under(dst.path()), [Path::new("good.ctl-pgn")]);
    assert!(
        stderr_of(&out)
            .contains("2 games read, 1 written, 1 rejected, 0 warnings; 1 file not written"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn a_folder_without_out_dir_is_read_recursively_in_order() {
    let src = tempfile::tempdir().unwrap();
    write(&src.path().join("a.ctl-pgn"), GOOD);
    write(&src.path().join("b/c.pgn"), OTHER);
    write(&src.path().join("b/notes.txt"), "not a game");
    cmd()
        .arg(src.path())
        .assert()
        .success()
        .stdout(format!("{GOOD_OUT}{OTHER_OUT}"));
}

#[test]
fn an_output_or_rejects_game_file_inside_a_folder_read_is_refused() {
    let src = tempfile::tempdir().unwrap();
    write(&src.path().join("game.ctl-pgn"), GOOD);
    write(&src.path().join("keep-me.ctl-pgn"), OTHER);
    write(&src.path().join("sub/a.pgn"), GOOD);
    // An existing game file (its games would be read, then lost), a new
    // one (the next run would read it), one in a folder below; compressed
    // names too.
    for name in [
        "keep-me.ctl-pgn",
        "all.ctl-pgn",
        "sub/new.PGN",
        "all.pgn.gz",
    ] {
        let target = src.path().join(name);
        for option in ["-o", "--rejects"] {
            let out = cmd()
                .arg(option)
                .arg(&target)
                .arg(src.path())
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{option} {name}");
            let err = stderr_of(&out);
            assert!(
                err.contains(&format!(
                    "{option} {} is a game file inside {}, a folder being read",
                    target.display(),
                    src.path().display()
                )) && err.contains("write it outside"),
                "{err}"
            );
            assert!(out.stdout.is_empty());
        }
    }
    assert_eq!(read(&src.path().join("keep-me.ctl-pgn")), OTHER);
    assert_eq!(
        names(src.path()),
        ["game.ctl-pgn", "keep-me.ctl-pgn", "sub"]
    );
    // A file that is no game file, or a hidden one, is never read: allowed.
    for name in ["all.txt", ".all.ctl-pgn"] {
        let all = src.path().join(name);
        cmd().arg("-o").arg(&all).arg(src.path()).assert().success();
        assert_eq!(read(&all), format!("{GOOD_OUT}{OTHER_OUT}{GOOD_OUT}"));
    }
}

#[test]
fn standard_output_redirected_into_a_folder_read_is_not_read() {
    let src = tempfile::tempdir().unwrap();
    write(&src.path().join("game.ctl-pgn"), GOOD);
    let all = src.path().join("all.ctl-pgn");
    for _ in 0..2 {
        // As `ctlpgn-filter src/ > src/all.ctl-pgn`: the shell made it.
        let file = std::fs::File::create(&all).unwrap();
        bin()
            .arg(src.path())
            .stdout(file)
            .status()
            .map(|s| assert!(s.success()))
            .unwrap();
    }
    assert_eq!(read(&all), GOOD_OUT);
}

// Inputs that cannot be read

#[test]
fn a_missing_file_between_two_good_ones_is_reported_and_the_others_filtered() {
    let dir = tempfile::tempdir().unwrap();
    let (a, missing, b) = (
        dir.path().join("a.ctl-pgn"),
        dir.path().join("missing.ctl-pgn"),
        dir.path().join("b.ctl-pgn"),
    );
    write(&a, GOOD);
    write(&b, OTHER);
    let out = cmd().arg(&a).arg(&missing).arg(&b).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        format!("{GOOD_OUT}{OTHER_OUT}")
    );
    let err = stderr_of(&out);
    assert!(
        err.contains(&format!("{}: No such file", missing.display())),
        "{err}"
    );
    assert!(
        err.ends_with("2 games read, 2 written, 0 rejected, 0 warnings; 1 file unreadable\n"),
        "{err}"
    );
}

#[test]
fn an_unreadable_input_exits_2_even_when_games_were_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ctl-pgn");
    write(&bad, BAD);
    let out = cmd()
        .arg(&bad)
        .arg(dir.path().join("missing"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).ends_with("1 rejected, 0 warnings; 1 file unreadable\n"),
        "{}",
        stderr_of(&out)
    );
}

// Binary inputs

/// A binary file: a NUL byte well inside its first 64 KiB.
fn write_binary(path: &Path) {
    let mut bytes = GOOD.as_bytes().to_vec();
    bytes.extend_from_slice(b"\x7fELF\0\0\x01");
    bytes.extend(std::iter::repeat_n(0xAB, 10_000));
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

#[test]
fn a_binary_file_is_reported_once_skipped_and_the_run_exits_3() {
    let dir = tempfile::tempdir().unwrap();
    let (a, binary, b, rejects) = (
        dir.path().join("a.ctl-pgn"),
        dir.path().join("binary.ctl-pgn"),
        dir.path().join("b.ctl-pgn"),
        dir.path().join("rejects.ctl-pgn"),
    );
    write(&a, GOOD);
    write_binary(&binary);
    write(&b, OTHER);
    let out = cmd()
        .arg("--rejects")
        .arg(&rejects)
        .arg(&a)
        .arg(&binary)
        .arg(&b)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(
        String::from_utf8(out.stdout.clone()).unwrap(),
        format!("{GOOD_OUT}{OTHER_OUT}")
    );
    let err = stderr_of(&out);
    assert_eq!(
        err,
        format!(
            "ctlpgn-filter: {}: skipped: a binary file (a NUL byte at byte offset {})\n\
             ctlpgn-filter: 2 games read, 2 written, 0 rejected, 0 warnings; 1 file skipped as binary\n",
            binary.display(),
            GOOD.len() + 4
        )
    );
    // Not a rejected game: nothing of it in the rejects file.
    assert_eq!(read(&rejects), "");
}

#[test]
fn a_binary_file_exits_3_over_rejected_games_and_2_over_it() {
    let dir = tempfile::tempdir().unwrap();
    let (bad, binary) = (dir.path().join("bad.ctl-pgn"), dir.path().join("bin.pgn"));
    write(&bad, BAD);
    write_binary(&binary);
    let out = cmd().arg(&bad).arg(&binary).output().unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr_of(&out));
    let out = cmd()
        .arg(&bad)
        .arg(&binary)
        .arg(dir.path().join("missing"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr_of(&out));
    assert!(
        stderr_of(&out).ends_with("; 1 file unreadable; 1 file skipped as binary\n"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn binary_standard_input_is_skipped_too() {
    let out = cmd()
        .write_stdin(b"PK\x03\x04\0\0\x14\0".to_vec())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(out.stdout.is_empty());
    assert!(
        stderr_of(&out).starts_with(
            "ctlpgn-filter: <stdin>: skipped: a binary file (a NUL byte at byte offset 4)\n"
        ),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn a_binary_file_is_left_alone_by_in_place_and_out_dir() {
    let dir = tempfile::tempdir().unwrap();
    let (src, clean) = (dir.path().join("src"), dir.path().join("clean"));
    write(&src.join("a.ctl-pgn"), GOOD);
    write_binary(&src.join("b.ctl-pgn"));
    let before = fs::read(src.join("b.ctl-pgn")).unwrap();
    let out = cmd()
        .arg("--out-dir")
        .arg(&clean)
        .arg(&src)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(names(&clean), ["a.ctl-pgn"]);
    let out = cmd()
        .arg("--in-place")
        .arg(src.join("a.ctl-pgn"))
        .arg(src.join("b.ctl-pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(read(&src.join("a.ctl-pgn")), GOOD_OUT);
    assert_eq!(fs::read(src.join("b.ctl-pgn")).unwrap(), before);
    assert_eq!(names(&src), ["a.ctl-pgn", "b.ctl-pgn"]);
}

#[test]
fn a_nul_byte_past_the_first_64_kib_is_an_error_in_its_game_not_a_binary_file() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("long.ctl-pgn");
    let mut text = GOOD.repeat(65_536 / GOOD.len() + 1);
    text += "[Variant \"C'escacs\"]\n1. E7-E13\0:\n*\n";
    write(&f, &text);
    let out = cmd().arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr_of(&out));
    let err = stderr_of(&out);
    assert!(err.contains("error: NUL byte in the input"), "{err}");
    assert!(err.contains("1. E7-E13\\x00:"), "{err}");
    assert!(!err.contains("binary"), "{err}");
}

#[test]
fn in_place_refuses_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = cmd()
        .current_dir(dir.path())
        .args(["--in-place", "-"])
        .write_stdin(GOOD)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr_of(&out).contains("standard input"));
    assert!(names(dir.path()).is_empty());
}

// Failing streams

#[test]
fn a_closed_stderr_neither_panics_nor_stops_the_output() {
    // As `ctlpgn-filter -o out in 2>&1 | head -1`: stderr closed after a
    // line, with many more diagnostics to come.
    let dir = tempfile::tempdir().unwrap();
    let (input, output) = (dir.path().join("in"), dir.path().join("out"));
    write(&input, &format!("{GOOD}{BAD}").repeat(5000));
    let mut child = bin()
        .arg("-o")
        .arg(&output)
        .arg(&input)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    stderr.read_line(&mut first).unwrap();
    drop(stderr);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1), "{status:?}");
    assert_eq!(read(&output), GOOD_OUT.repeat(5000));
}

#[test]
#[cfg_attr(not(target_os = "linux"), ignore = "/dev/full is Linux's")]
fn a_full_standard_output_is_exit_2_naming_it() {
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    write(&input, &GOOD.repeat(100));
    let out = bin()
        .arg(&input)
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("standard output: No space left on device"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn glob_reads_the_files_of_a_folder_with_other_names() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("saved.txt"), GOOD);
    write(&dir.path().join("notes.md"), "no games");
    let out = cmd()
        .args(["--glob", "*.txt"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), GOOD_OUT);
}

#[test]
fn glob_replaces_the_default_names() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("a.pgn"), GOOD);
    write(&dir.path().join("b.txt"), GOOD);
    let out = cmd()
        .args(["--glob", "*.txt", "--glob", "*.pgn"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), GOOD_OUT.repeat(2));
    let out = cmd()
        .args(["--glob", "*.txt", "--stats"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), GOOD_OUT);
}

#[test]
fn a_glob_that_is_not_one_is_a_usage_error() {
    let out = cmd().args(["--glob", "[a", "."]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("--glob [a: "),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn hidden_reads_hidden_files_and_folders() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join(".h.pgn"), GOOD);
    write(&dir.path().join(".folder/g.pgn"), GOOD);
    let out = cmd().arg("--hidden").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr_of(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), GOOD_OUT.repeat(2));
}

#[test]
fn a_folder_without_game_files_names_glob_in_its_message() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("saved.txt"), GOOD);
    let out = cmd().arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("--glob reads other names (--glob '*.txt'), --hidden hidden ones"),
        "{}",
        stderr_of(&out)
    );
}

#[test]
fn an_output_matching_glob_inside_a_folder_read_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(&dir.path().join("saved.txt"), GOOD);
    let out = cmd()
        .args(["--glob", "*.txt", "-o"])
        .arg(dir.path().join("clean.txt"))
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr_of(&out).contains("(matching --glob *.txt)"),
        "{}",
        stderr_of(&out)
    );
}
