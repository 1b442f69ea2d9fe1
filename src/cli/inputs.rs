//! The inputs named on the command line, with folders walked (`walkdir`).
//!
//! A folder stands for its game files (`.ctl-pgn` and `.pgn`, any case,
//! or those with a compression suffix: `.ctl-pgn.gz`, `.pgn.zst`, `.xz`,
//! `.bz2`; with `--glob`, the names that match), found recursively, in
//! sorted order. While walking, as ripgrep does:
//! - hidden entries (`.name`) are skipped (unless `--hidden`); a hidden
//!   folder or file named on the command line is read;
//! - symbolic links are skipped, unless `--follow`; then a link to a folder
//!   that contains it is reported and skipped, so a loop ends;
//! - the file standard output is redirected to, if the shell made it in a
//!   folder read, is skipped: reading it would read what the run writes.
//!   An `-o`, `--rejects` or `--out-dir` inside a folder read is refused
//!   before anything is read ([`super::checks`]), so is never met here.
//!
//! A file or folder that cannot be read is kept in the list as such, to be
//! reported in its turn: the others are still read. A folder named that
//! holds no game file is kept as such too, to be reported.

use super::decode;
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
        /// named, or for a file named itself, its name; without a
        /// compression suffix. `None` for stdin.
        relative: Option<PathBuf>,
        /// The file, when it is a regular one.
        id: Option<FileId>,
    },
    /// A file or folder that could not be read.
    Unreadable { path: PathBuf, error: io::Error },
    /// A link, met with `--follow`, to a folder that contains it.
    Loop { path: PathBuf },
    /// A folder named on the command line that holds no game file, and
    /// how many symbolic links were passed over in it (no `--follow`).
    Empty { path: PathBuf, links: u64 },
}

pub struct Walk<'a> {
    pub follow: bool,
    /// Which files in a folder are game files.
    pub names: &'a GameFiles,
    /// Files never read while walking: standard output's.
    pub skip: &'a [FileId],
}

/// Which files a folder's walk reads: by default `.ctl-pgn` and `.pgn`
/// ([`is_game_file`]); with `--glob`, the names that match one of its
/// patterns; hidden ones only with `--hidden`.
#[derive(Debug, Default)]
pub struct GameFiles {
    globs: Option<globset::GlobSet>,
    pub hidden: bool,
}

impl GameFiles {
    /// `--glob`'s patterns (none: the default names) and `--hidden`. A
    /// pattern is matched against the file's name, with and without its
    /// compression suffix, case aside (as the default names are).
    pub fn new(globs: &[String], hidden: bool) -> Result<GameFiles, String> {
        let globs = if globs.is_empty() {
            None
        } else {
            let mut set = globset::GlobSetBuilder::new();
            for g in globs {
                let glob = globset::GlobBuilder::new(g)
                    .case_insensitive(true)
                    .literal_separator(true)
                    .build()
                    .map_err(|e| format!("--glob {g}: {}", e.kind()))?;
                set.add(glob);
            }
            Some(set.build().map_err(|e| format!("--glob: {e}"))?)
        };
        Ok(GameFiles { globs, hidden })
    }

    /// Is a file of this name, met in a folder walked, read?
    pub fn matches(&self, name: &OsStr) -> bool {
        if is_hidden(name) && !self.hidden {
            return false;
        }
        match &self.globs {
            None => has_game_extension(name),
            Some(set) => {
                let plain = decode::without_suffix(Path::new(name));
                set.is_match(Path::new(name)) || set.is_match(&plain)
            }
        }
    }

    /// The names a walk reads with `--glob`'s `globs`, for a message.
    pub fn described(globs: &[String]) -> String {
        if globs.is_empty() {
            ".ctl-pgn or .pgn, compressed or not".to_string()
        } else {
            format!("matching --glob {}", globs.join(", --glob "))
        }
    }
}

/// What the inputs named expand to.
pub struct Expanded {
    pub entries: Vec<Entry>,
    /// Every folder walked (the folders named, and those met in them that
    /// were entered), with the folder named it was met in.
    pub folders: Vec<(FileId, PathBuf)>,
}

impl Walk<'_> {
    /// The entries for the inputs `named`, in order.
    pub fn expand(&self, named: &[PathBuf]) -> Expanded {
        let mut found = Expanded {
            entries: Vec::new(),
            folders: Vec::new(),
        };
        for path in named {
            if path.as_os_str() == "-" {
                found.entries.push(Entry::File {
                    path: path.clone(),
                    relative: None,
                    id: FileId::of_stream(io::stdin()),
                });
                continue;
            }
            // What is named is followed, link or not.
            match fs::metadata(path) {
                Err(error) => found.entries.push(Entry::Unreadable {
                    path: path.clone(),
                    error,
                }),
                Ok(m) if m.is_dir() => {
                    let before = found.entries.len();
                    let links = self.walk(path, &mut found);
                    if found.entries.len() == before {
                        let path = path.clone();
                        found.entries.push(Entry::Empty { path, links });
                    }
                }
                Ok(m) => found.entries.push(Entry::File {
                    path: path.clone(),
                    relative: path
                        .file_name()
                        .map(|n| decode::without_suffix(Path::new(n))),
                    id: m.is_file().then(|| FileId::of_metadata(&m)),
                }),
            }
        }
        found
    }

    /// Walks the folder `root`, named on the command line; returns how
    /// many symbolic links were passed over.
    fn walk(&self, root: &Path, found: &mut Expanded) -> u64 {
        let mut links = 0;
        let walker = walkdir::WalkDir::new(root)
            .follow_links(self.follow)
            .sort_by_file_name()
            .into_iter()
            // The folder named is read even when hidden; below it, no
            // hidden entry is, but with --hidden.
            .filter_entry(|e| e.depth() == 0 || self.names.hidden || !is_hidden(e.file_name()));
        for entry in walker {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let path = e.path().unwrap_or(root).to_path_buf();
                    if e.loop_ancestor().is_some() {
                        found.entries.push(Entry::Loop { path });
                    } else {
                        // A folder that cannot be listed, a dangling link.
                        let error = e
                            .into_io_error()
                            .unwrap_or_else(|| io::Error::other("cannot be read"));
                        found.entries.push(Entry::Unreadable { path, error });
                    }
                    continue;
                }
            };
            if entry.path_is_symlink() && !self.follow && entry.depth() > 0 {
                links += 1;
                continue;
            }
            let meta = match entry.metadata() {
                Ok(m) => m,
                Err(e) => {
                    let path = entry.path().to_path_buf();
                    let error = e
                        .into_io_error()
                        .unwrap_or_else(|| io::Error::other("cannot be read"));
                    found.entries.push(Entry::Unreadable { path, error });
                    continue;
                }
            };
            let id = FileId::of_metadata(&meta);
            if meta.is_dir() {
                found.folders.push((id, root.to_path_buf()));
            } else if meta.is_file()
                && self.names.matches(entry.file_name())
                && !self.skip.contains(&id)
            {
                let path = entry.into_path();
                let relative = path.strip_prefix(root).expect("walked below it");
                found.entries.push(Entry::File {
                    relative: Some(decode::without_suffix(relative)),
                    path,
                    id: Some(id),
                });
            }
        }
        links
    }
}

fn is_hidden(name: &OsStr) -> bool {
    name.as_encoded_bytes().starts_with(b".")
}

/// `.ctl-pgn` and `.pgn`, in any case (`GAME.PGN` from an old system),
/// with or without a compression suffix after it (`games.pgn.gz`).
fn has_game_extension(name: &OsStr) -> bool {
    decode::without_suffix(Path::new(name))
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ctl-pgn") || e.eq_ignore_ascii_case("pgn"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_patterns_replace_the_default_names_compressed_or_not_case_aside() {
        let names = GameFiles::new(&["*.txt".into()], false).unwrap();
        for name in ["a.txt", "A.TXT", "a.txt.gz"] {
            assert!(names.matches(OsStr::new(name)), "{name}");
        }
        for name in ["a.pgn", ".a.txt", "a.txt.zip"] {
            assert!(!names.matches(OsStr::new(name)), "{name}");
        }
    }

    #[test]
    fn hidden_files_match_only_with_hidden() {
        let name = OsStr::new(".a.pgn");
        assert!(!GameFiles::new(&[], false).unwrap().matches(name));
        assert!(GameFiles::new(&[], true).unwrap().matches(name));
    }

    #[test]
    fn game_files_are_found_by_name_compressed_or_not() {
        for name in [
            "a.ctl-pgn",
            "A.PGN",
            "a.pgn.gz",
            "a.ctl-pgn.ZST",
            "a.pgn.xz",
            "a.pgn.bz2",
        ] {
            assert!(GameFiles::default().matches(OsStr::new(name)), "{name}");
        }
        for name in ["a.txt", "a.gz", ".a.pgn", "pgn", "a.pgn.zip", "a.tar.gz"] {
            assert!(!GameFiles::default().matches(OsStr::new(name)), "{name}");
        }
    }
}
