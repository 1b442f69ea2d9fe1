//! Runs the binary as a child, its input written as it reads, and
//! measures it: exit code, output length and tail, peak RSS, CPU time.

use std::io::{Read, Write};
use std::process::Stdio;

pub const MB: u64 = 1 << 20;

/// What a run of the binary left behind.
pub struct Run {
    pub code: Option<i32>,
    pub stdout_len: usize,
    pub stdout_tail: Vec<u8>,
    pub stderr: String,
    /// Peak resident memory of the child, in bytes.
    pub max_rss: u64,
    /// CPU seconds of the child, user and system.
    pub cpu: f64,
    /// Held while the run's results are: see [`run`].
    _alone: std::sync::MutexGuard<'static, ()>,
}

/// Held by each run until its test ends, so that no child starts while
/// another test holds a large result (see [`run`]).
static ALONE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs the binary on what `feed` writes to its stdin and measures its peak
/// memory with `wait4`, which reports on exactly that child. Inputs are
/// generated while they are written: a child's peak RSS on Linux starts
/// from its parent's at fork, so the test process must stay small: runs
/// take turns, each holding [`ALONE`] until its test is done with it.
pub fn run(
    args: &[&str],
    feed: impl FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'static,
) -> Run {
    run_child(args, true, feed)
}

/// [`run`], its standard error discarded: a child's peak RSS starts from
/// its parent's peak, which a large error output kept would raise.
pub fn run_discarding_stderr(
    args: &[&str],
    feed: impl FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'static,
) -> Run {
    run_child(args, false, feed)
}

#[allow(clippy::zombie_processes)] // reaped by `wait4`, which std does not offer
fn run_child(
    args: &[&str],
    keep_stderr: bool,
    feed: impl FnOnce(&mut dyn Write) -> std::io::Result<()> + Send + 'static,
) -> Run {
    let alone = ALONE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut child = super::binary()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(if keep_stderr {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .spawn()
        .unwrap();
    // Buffered as `cat` writes: a feed that writes a few bytes at a time
    // would have the child read a few bytes at a time, and its CPU time
    // would measure the race between the two, not the filter.
    let mut stdin = std::io::BufWriter::with_capacity(1 << 16, child.stdin.take().unwrap());
    let feeder = std::thread::spawn(move || {
        // The child may stop reading early; that is its business.
        let _ = feed(&mut stdin).and_then(|()| stdin.flush());
    });
    let errors = child.stderr.take().map(|mut stderr| {
        std::thread::spawn(move || {
            let mut s = String::new();
            stderr.read_to_string(&mut s).unwrap();
            s
        })
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut buf = vec![0u8; 1 << 16];
    let (mut len, mut tail) = (0, Vec::new());
    loop {
        let n = stdout.read(&mut buf).unwrap();
        if n == 0 {
            break;
        }
        len += n;
        tail.extend_from_slice(&buf[..n]);
        let excess = tail.len().saturating_sub(4096);
        tail.drain(..excess);
    }
    feeder.join().unwrap();
    let mut status = 0;
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the pid is our own child, not yet reaped; both pointers are valid.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t);
    Run {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        stdout_len: len,
        stdout_tail: tail,
        stderr: errors.map(|e| e.join().unwrap()).unwrap_or_default(),
        max_rss: usage.ru_maxrss as u64 * 1024,
        cpu: [usage.ru_utime, usage.ru_stime]
            .iter()
            .map(|t| t.tv_sec as f64 + t.tv_usec as f64 / 1e6)
            .sum(),
        _alone: alone,
    }
}
