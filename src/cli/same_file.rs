//! Which paths name one file, however spelled: by device and inode, so a
//! relative path, a symbolic link or a hard link is caught like the path
//! itself.

use super::output::{parent, resolve_links};
use std::ffi::OsString;
use std::fs::{self, File, Metadata};
use std::io;
use std::os::fd::AsFd;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    pub fn of_metadata(m: &Metadata) -> FileId {
        FileId {
            dev: m.dev(),
            ino: m.ino(),
        }
    }

    /// The file `path` leads to, if there is one.
    pub fn of(path: &Path) -> Option<FileId> {
        fs::metadata(path).ok().map(|m| FileId::of_metadata(&m))
    }

    /// The regular file behind `stream`, if it is one. Only regular files:
    /// stdin and stdout on one terminal are one file too, and harmless.
    pub fn of_stream(stream: impl AsFd) -> Option<FileId> {
        let fd = stream.as_fd().try_clone_to_owned().ok()?;
        let m = File::from(fd).metadata().ok()?;
        m.is_file().then(|| FileId::of_metadata(&m))
    }

    pub fn of_stdout() -> Option<FileId> {
        FileId::of_stream(io::stdout())
    }
}

/// What writing to an output path will touch: the file there, or, when
/// there is none yet, a name in an existing folder. Two outputs with one
/// `Place` would write over each other.
#[derive(Debug, PartialEq, Eq)]
pub enum Place {
    File(FileId),
    New(FileId, OsString),
}

impl Place {
    /// `None` when the folder does not exist either: writing fails there.
    pub fn of(path: &Path) -> Option<Place> {
        if let Some(id) = FileId::of(path) {
            return Some(Place::File(id));
        }
        let target = resolve_links(path).ok()?;
        let folder = FileId::of(parent(&target))?;
        Some(Place::New(folder, target.file_name()?.to_owned()))
    }

    pub fn file(&self) -> Option<FileId> {
        match self {
            Place::File(id) => Some(*id),
            Place::New(..) => None,
        }
    }
}
