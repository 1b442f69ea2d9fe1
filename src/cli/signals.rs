//! Temporary files that do not outlive the run, even an interrupted one.
//!
//! A [`Temp`] is removed when dropped (the run failed, or chose not to keep
//! it) and, through a list of the paths of those alive, when a signal ends
//! the run: every signal whose default action ends the process and that can
//! be caught ([`ENDING`]). SIGKILL cannot be caught, and the faults
//! (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT from a crash) are not caught:
//! a handler that returns would run the faulting code again. The signal
//! handler itself is
//! signal-hook's, which only wakes a thread; that thread removes the files
//! and then dies of the signal as the process would have (the shell sees
//! 128 + its number). The list's lock is held across every rename and
//! removal, so a file is never renamed into place after the thread has
//! decided the run is over, nor left behind because it was between two
//! states.

use signal_hook::consts::signal::{
    SIGALRM, SIGHUP, SIGINT, SIGPROF, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGXCPU,
    SIGXFSZ,
};
use std::fs::{File, Permissions};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once};

/// The signals that end the process by default and can be caught: from
/// the terminal (INT, QUIT, HUP), from `kill` and timeouts (TERM, ALRM,
/// USR1, USR2, VTALRM, PROF), and from resource limits (XCPU: `ulimit -t`;
/// XFSZ: `ulimit -f`, when a write goes past it).
pub const ENDING: [i32; 11] = [
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF, SIGXCPU,
    SIGXFSZ,
];

/// The temporary files alive now.
static ALIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn alive() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic elsewhere leaves the list as it was: still the one to use.
    ALIVE.lock().unwrap_or_else(|e| e.into_inner())
}

fn forget(alive: &mut Vec<PathBuf>, path: &Path) {
    alive.retain(|p| p != path);
}

/// Starts the thread that removes the temporary files on a signal, once,
/// before the first one is made.
fn watch_signals() {
    static WATCH: Once = Once::new();
    WATCH.call_once(|| {
        // Should the thread not start, or the handlers not install, the
        // signals keep their default action: the run still ends, only a
        // temporary file may be left. The handlers are installed by the
        // thread, once it runs: installed with no thread to act on them,
        // they would leave the signals ignored.
        let (installed_tx, installed) = std::sync::mpsc::sync_channel(1);
        let started = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                let signals = signal_hook::iterator::Signals::new(ENDING);
                let _ = installed_tx.send(());
                let Ok(mut signals) = signals else {
                    return;
                };
                if let Some(signal) = signals.forever().next() {
                    let alive = alive();
                    for path in alive.iter() {
                        let _ = std::fs::remove_file(path);
                    }
                    // Holding the lock: nothing is renamed into place after this.
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                    std::process::exit(128 + signal);
                }
            });
        if started.is_ok() {
            let _ = installed.recv();
        }
    });
}

/// A temporary file in a folder, to be renamed over its target once whole.
pub struct Temp {
    file: Option<tempfile::NamedTempFile>,
}

impl Temp {
    /// A new empty file in `dir`, with the mode the umask gives a new file
    /// (as `>` does), not tempfile's 0600.
    pub fn new_in(dir: &Path) -> std::io::Result<Temp> {
        watch_signals();
        let mut alive = alive();
        let file = tempfile::Builder::new()
            .prefix(".ctlpgn-filter-")
            .suffix(".tmp")
            .permissions(Permissions::from_mode(0o666))
            .tempfile_in(dir)?;
        alive.push(file.path().to_path_buf());
        Ok(Temp { file: Some(file) })
    }

    pub fn as_file(&self) -> &File {
        self.file.as_ref().expect("present until dropped").as_file()
    }

    /// Renames the file to `target`; on failure it is removed.
    pub fn persist(mut self, target: &Path) -> std::io::Result<()> {
        let file = self.file.take().expect("present until dropped");
        let mut alive = alive();
        forget(&mut alive, file.path());
        // On failure the error holds the file, and drops (removes) it here,
        // under the lock.
        file.persist(target).map(drop).map_err(|e| e.error)
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            let mut alive = alive();
            forget(&mut alive, file.path());
            drop(file);
        }
    }
}
