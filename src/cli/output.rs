//! Where the output goes, and how a file is replaced without harm.
//!
//! - `-` is standard output.
//! - A regular file, or a path with nothing there yet, is written to a
//!   temporary file beside it, renamed over it at the end: an interrupted or
//!   failed run leaves the old file whole. The new file keeps the old one's
//!   mode (and owner, where allowed); a new one gets the mode the umask
//!   gives, as with `>`. A symbolic link is written through: the file it
//!   leads to is replaced, the link stays.
//! - Anything else (a device, a FIFO, `/dev/stdout`) is written to directly:
//!   renaming over it would replace the device node or FIFO with a file.

use super::signals::Temp;
use super::streams::{in_words, writing, Named, STDOUT};
use std::fs::{self, File, Metadata};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Links followed at most when resolving a path, as the kernel's limit.
const MAX_LINKS: usize = 40;

/// Where `-o`, `--rejects`, `--in-place` and `--out-dir` write.
pub struct Output {
    out: BufWriter<Named<Box<dyn Write>>>,
    /// The temporary file and the path it is renamed to.
    replacing: Option<(Temp, PathBuf)>,
}

impl Output {
    /// Standard output for `-`, else the file at `path`.
    pub fn open(path: &Path) -> io::Result<Output> {
        if path.as_os_str() == "-" {
            Ok(Output::stdout())
        } else {
            Output::file(path)
        }
    }

    pub fn stdout() -> Output {
        Output::writing_to(STDOUT, Box::new(io::stdout().lock()), None)
    }

    /// The file at `path`, replaced at [`Output::commit`] if it is a regular
    /// file or does not exist yet, else written to directly.
    pub fn file(path: &Path) -> io::Result<Output> {
        let shown = path.display();
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => Err(io::Error::new(
                io::ErrorKind::IsADirectory,
                format!("{shown}: is a folder: name a file to write"),
            )),
            Ok(m) if m.is_file() && !names_a_stream(path) => {
                let target = resolve_links(path).map_err(writing(&shown))?;
                Output::replacing(path, target, Some(&m))
            }
            Ok(_) => {
                // Appending, as the shell's `>>`: a FIFO or device does not
                // care, and `-o /dev/stdout >> log` keeps the log.
                let file = File::options()
                    .append(true)
                    .open(path)
                    .map_err(writing(&shown))?;
                Ok(Output::writing_to(&shown, Box::new(file), None))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let target = resolve_links(path).map_err(writing(&shown))?;
                Output::replacing(path, target, None)
            }
            Err(e) => Err(writing(&shown)(io::Error::new(
                e.kind(),
                format!("cannot write it: {}", in_words(&e)),
            ))),
        }
    }

    /// A temporary file beside `target`, which is renamed over it at the
    /// end; `old` is what is there now.
    fn replacing(path: &Path, target: PathBuf, old: Option<&Metadata>) -> io::Result<Output> {
        let shown = path.display();
        let folder = parent(&target);
        let temp = Temp::new_in(folder).map_err(|e| {
            let why = match fs::metadata(folder) {
                Err(_) => format!(
                    "the folder {} does not exist (mkdir -p {} makes it)",
                    folder.display(),
                    folder.display()
                ),
                Ok(m) if !m.is_dir() => format!("{} is not a folder", folder.display()),
                Ok(_) => in_words(&e),
            };
            writing(&shown)(io::Error::new(e.kind(), format!("cannot write it: {why}")))
        })?;
        if let Some(old) = old {
            let file = temp.as_file();
            // The owner first: a change of owner clears set-id bits. Only
            // root may give a file away, so an error here is expected and
            // leaves the file the user's own.
            let _ = std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid()));
            file.set_permissions(old.permissions())
                .map_err(writing(&shown))?;
        }
        let file = temp.as_file().try_clone().map_err(writing(&shown))?;
        Ok(Output::writing_to(
            &shown,
            Box::new(file),
            Some((temp, target)),
        ))
    }

    fn writing_to(
        name: impl std::fmt::Display,
        out: Box<dyn Write>,
        replacing: Option<(Temp, PathBuf)>,
    ) -> Output {
        Output {
            out: BufWriter::with_capacity(1 << 16, Named::new(name, out)),
            replacing,
        }
    }

    pub fn writer(&mut self) -> &mut dyn Write {
        &mut self.out
    }

    /// Writes out what is buffered and, for a replaced file, renames it into
    /// place. An `Output` dropped without this leaves the target as it was.
    pub fn commit(mut self) -> io::Result<()> {
        self.out.flush()?;
        if let Some((temp, target)) = self.replacing.take() {
            temp.persist(&target).map_err(writing(target.display()))?;
        }
        Ok(())
    }
}

/// Whether `path` names a stream already open (`/dev/stdout`, `/dev/fd/3`):
/// even when that stream is a regular file, the shell opened it for us,
/// `>>` perhaps, and replacing the file would not be what it asked.
fn names_a_stream(path: &Path) -> bool {
    ["/dev/stdout", "/dev/stderr", "/dev/fd/", "/proc/self/fd/"]
        .iter()
        .any(|s| path.starts_with(s))
}

/// The folder a file is in (`.` for a bare name).
pub fn parent(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// The path `path` leads to once its symbolic links, if any, are followed:
/// the file to replace, or to make when the link dangles.
pub fn resolve_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = fs::read_link(&path)?;
                // A relative link is relative to its own folder.
                path = parent(&path).join(to);
            }
            Ok(_) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(path),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}
