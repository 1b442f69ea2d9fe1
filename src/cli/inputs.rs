//! The inputs named on the command line, with folders walked.
//!
//! A folder stands for its `.ctl-pgn` and `.pgn` files (any case), found
//! recursively, in sorted order. While walking, as ripgrep does:
//! - hidden entries (`.name`) are skipped; a hidden folder or file named on
//!   the command line is read;
//! - symbolic links are skipped, unless `--follow`; then a link to a folder
//!   that contains it is reported and skipped, so a loop ends;
//! - the command's own outputs (the `--out-dir` folder, the `-o` and
//!   `--rejects` files) are skipped, so a second run does not read the
//!   first one's output.
//!
//! A file or folder that cannot be read is kept in the list as such, to be
//! reported in its turn: the others are still read.

use super::same_file::FileId;
use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

pub enum Entry {
    /// A file to filter, or `-` for standard input.
    File {
        path: PathBuf,
        /// Where it lands under `--out-dir`: its path inside the folder
        /// named, or for a file named itself, its name. `None` for stdin.
        relative: Option<PathBuf>,
        /// The file, when it is a regular one.
        id: Option<FileId>,
    },
    /// A file or folder that could not be read.
    Unreadable { path: PathBuf, error: io::Error },
    /// A link, met with `--follow`, to a folder that contains it.
    Loop { path: PathBuf },
}

pub struct Walk<'a> {
    pub follow: bool,
    /// Folders and files never read while walking: the outputs.
    pub skip: &'a [FileId],
}

impl Walk<'_> {
    /// The entries for the inputs `named`, in order.
    pub fn expand(&self, named: &[PathBuf]) -> Vec<Entry> {
        let mut found = Vec::new();
        for path in named {
            if path.as_os_str() == "-" {
                found.push(Entry::File {
                    path: path.clone(),
                    relative: None,
                    id: FileId::of_stream(io::stdin()),
                });
                continue;
            }
            // What is named is followed, link or not.
            match fs::metadata(path) {
                Err(error) => found.push(Entry::Unreadable {
                    path: path.clone(),
                    error,
                }),
                Ok(m) if m.is_dir() => {
                    let mut within = vec![FileId::of_metadata(&m)];
                    self.walk(path, path, &mut within, &mut found);
                }
                Ok(m) => found.push(Entry::File {
                    path: path.clone(),
                    relative: path.file_name().map(PathBuf::from),
                    id: m.is_file().then(|| FileId::of_metadata(&m)),
                }),
            }
        }
        found
    }

    /// Walks `dir`, under the folder `root` named; `within` are the folders
    /// it is in, itself included.
    fn walk(&self, root: &Path, dir: &Path, within: &mut Vec<FileId>, found: &mut Vec<Entry>) {
        let listed = fs::read_dir(dir).and_then(|entries| {
            entries
                .map(|e| e.and_then(|e| Ok((e.file_name(), e.file_type()?))))
                .collect::<io::Result<Vec<_>>>()
        });
        let mut entries = match listed {
            Ok(entries) => entries,
            Err(error) => {
                let path = dir.to_path_buf();
                found.push(Entry::Unreadable { path, error });
                return;
            }
        };
        entries.sort_by(|(a, _), (b, _)| a.cmp(b));
        for (name, kind) in entries {
            if name.as_encoded_bytes().starts_with(b".") {
                continue;
            }
            let path = dir.join(&name);
            if kind.is_symlink() && !self.follow {
                continue;
            }
            let meta = match fs::metadata(&path) {
                Ok(m) => m,
                Err(error) => {
                    // A dangling link, or a file gone since the listing.
                    found.push(Entry::Unreadable { path, error });
                    continue;
                }
            };
            let id = FileId::of_metadata(&meta);
            if self.skip.contains(&id) {
                continue;
            }
            if meta.is_dir() {
                if within.contains(&id) {
                    found.push(Entry::Loop { path });
                    continue;
                }
                within.push(id);
                self.walk(root, &path, within, found);
                within.pop();
            } else if meta.is_file() && is_game_file(&name) {
                let relative = path.strip_prefix(root).expect("walked below it");
                found.push(Entry::File {
                    relative: Some(relative.to_path_buf()),
                    path,
                    id: Some(id),
                });
            }
        }
    }
}

/// `.ctl-pgn` and `.pgn`, in any case (`GAME.PGN` from an old system).
fn is_game_file(name: &OsStr) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ctl-pgn") || e.eq_ignore_ascii_case("pgn"))
}
