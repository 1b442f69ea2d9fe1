//! What is refused before anything is read or written: an output that
//! would replace an input before it is read, an output inside a folder
//! read (a later run would read it), two outputs that are one file, two
//! inputs that would be written to one path, an input `--in-place` cannot
//! rewrite (standard input, a device, a compressed file).

use super::args::Cli;
use super::decode;
use super::inputs::{Entry, Expanded, GameFiles};
use super::output::{parent, resolve_links};
use super::same_file::{FileId, Place};
use super::streams::STDIN;
use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

fn refuse(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

fn is_dash(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Whether the filtered games go to standard output.
fn output_is_stdout(cli: &Cli) -> bool {
    !cli.check
        && !cli.in_place
        && cli.out_dir.is_none()
        && cli.output.as_deref().is_none_or(is_dash)
}

/// The place of an output path, or of standard output for `-`.
fn place(path: &Path) -> Option<Place> {
    if is_dash(path) {
        FileId::of_stdout().map(Place::File)
    } else {
        Place::of(path)
    }
}

/// The file standard output goes to, if a regular one: never read while
/// walking folders (the shell made it before the run; reading it would
/// read what the run writes).
pub fn outputs(cli: &Cli) -> Vec<FileId> {
    if output_is_stdout(cli) {
        FileId::of_stdout().into_iter().collect()
    } else {
        Vec::new()
    }
}

/// The regular files read, by identity.
struct Inputs<'e>(Vec<(FileId, &'e Path)>);

impl<'e> Inputs<'e> {
    fn of(entries: &'e [Entry]) -> Inputs<'e> {
        Inputs(
            entries
                .iter()
                .filter_map(|e| match e {
                    Entry::File {
                        id: Some(id), path, ..
                    } => Some((*id, path.as_path())),
                    _ => None,
                })
                .collect(),
        )
    }

    /// The name of the input at `place`, if one is.
    fn at(&self, place: &Option<Place>) -> Option<String> {
        let id = place.as_ref()?.file()?;
        let (_, path) = self.0.iter().find(|(i, _)| *i == id)?;
        Some(if is_dash(path) {
            STDIN.to_string()
        } else {
            path.display().to_string()
        })
    }
}

/// Refuses, naming the paths and what to do instead, whatever would write
/// over an input or over another output.
pub fn refuse_clashes(cli: &Cli, names: &GameFiles, expanded: &Expanded) -> io::Result<()> {
    let entries = &expanded.entries[..];
    refuse_outputs_inside_folders_read(cli, names, &expanded.folders)?;
    let inputs = Inputs::of(entries);
    if cli.in_place {
        refuse_what_in_place_cannot_rewrite(entries)?;
    }
    let targets = match &cli.out_dir {
        Some(dir) => out_dir_targets(dir, entries, &inputs)?,
        None => Vec::new(),
    };
    let main = main_output(cli, &inputs)?;
    let mut others = Vec::new();
    for (option, path) in [
        ("--rejects", &cli.rejects),
        ("--duplicates", &cli.duplicates),
    ] {
        if let Some(path) = path {
            let side = SideOutput { option, path };
            refuse_side_output_onto_others(cli, side, &inputs, &main, &targets, &others)?;
            others.push(side);
        }
    }
    Ok(())
}

/// `--rejects FILE` or `--duplicates FILE`.
#[derive(Clone, Copy)]
struct SideOutput<'a> {
    option: &'static str,
    path: &'a Path,
}

fn refuse_what_in_place_cannot_rewrite(entries: &[Entry]) -> io::Result<()> {
    for entry in entries {
        let Entry::File { path, id, .. } = entry else {
            continue;
        };
        if is_dash(path) {
            return Err(refuse(
                "--in-place rewrites files, not standard input: use -o FILE".into(),
            ));
        }
        if id.is_none() {
            return Err(refuse(format!(
                "{}: not a regular file: --in-place rewrites regular files only",
                path.display()
            )));
        }
        // Unreadable here: left to be reported in its turn.
        if let Ok(Some(container)) = decode::compressed_file(path) {
            return Err(refuse(format!(
                "{}: a {container} file: --in-place writes plain text, and does not rewrite \
                 compressed files: write to another file (-o NEW, or | {container} > NEW.{})",
                path.display(),
                container.suffix()
            )));
        }
    }
    Ok(())
}

/// Refuses an `-o`, `--rejects` or `--duplicates` file that is a game file
/// inside a folder read, and an `--out-dir` inside one: the walk would read
/// it (this run or the next), then the run replace it.
fn refuse_outputs_inside_folders_read(
    cli: &Cli,
    names: &GameFiles,
    folders: &[(FileId, PathBuf)],
) -> io::Result<()> {
    let walked = |id: FileId| folders.iter().find(|(f, _)| *f == id).map(|(_, root)| root);
    for (option, path) in [
        ("-o", &cli.output),
        ("--rejects", &cli.rejects),
        ("--duplicates", &cli.duplicates),
    ] {
        let Some(path) = path.as_deref().filter(|p| !is_dash(p)) else {
            continue;
        };
        let Ok(target) = resolve_links(path) else {
            continue;
        };
        let Some(name) = target.file_name() else {
            continue;
        };
        let Some(root) = FileId::of(parent(&target)).and_then(walked) else {
            continue;
        };
        if names.matches(name) {
            return Err(refuse(format!(
                "{option} {} is a game file inside {}, a folder being read: it would be read as an \
                 input (by this run or the next) and replaced; write it outside {}, or give it a \
                 name the walk does not read ({})",
                path.display(),
                root.display(),
                root.display(),
                GameFiles::described(&cli.globs)
            )));
        }
    }
    for (option, dir, why) in [
        (
            "--out-dir",
            &cli.out_dir,
            "the files written there would be read as inputs, and replaced",
        ),
        (
            "--diagrams",
            &cli.diagrams,
            "a run writes nothing among the files it reads",
        ),
    ] {
        let Some(dir) = dir else {
            continue;
        };
        if let Some(root) = inside_walked(dir, names.hidden, &walked) {
            return Err(refuse(format!(
                "{option} {} is inside {}, a folder being read: {why}; name a folder outside {}",
                dir.display(),
                root.display(),
                root.display()
            )));
        }
    }
    Ok(())
}

/// The folder named that the walk would reach `dir` from: `dir` is a
/// folder walked, or does not exist yet and the nearest folder above it
/// that does is walked, with no hidden name between.
fn inside_walked<'f>(
    dir: &Path,
    hidden_walked: bool,
    walked: &impl Fn(FileId) -> Option<&'f PathBuf>,
) -> Option<&'f PathBuf> {
    let mut path = resolve_links(dir).ok()?;
    loop {
        if let Some(id) = FileId::of(&path) {
            return walked(id);
        }
        if !hidden_walked
            && path
                .file_name()
                .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."))
        {
            // The walk skips hidden folders (but with --hidden).
            return None;
        }
        let up = parent(&path).to_path_buf();
        if up == path {
            return None;
        }
        path = up;
    }
}

/// Where each input lands under `dir`, and what is there now; refused when
/// two inputs land on one path, or one lands on an input.
fn out_dir_targets(
    dir: &Path,
    entries: &[Entry],
    inputs: &Inputs,
) -> io::Result<Vec<(PathBuf, Option<Place>)>> {
    let mut targets = Vec::new();
    let mut written_by: HashMap<PathBuf, &Path> = HashMap::new();
    for entry in entries {
        let Entry::File { path, relative, .. } = entry else {
            continue;
        };
        let Some(relative) = relative else {
            return Err(refuse(
                "--out-dir needs files or folders, not standard input".into(),
            ));
        };
        let target = dir.join(relative);
        if let Some(other) = written_by.insert(target.clone(), path) {
            return Err(refuse(format!(
                "{} and {} would both be written to {}: filter them in separate runs, or into separate folders",
                other.display(),
                path.display(),
                target.display()
            )));
        }
        let place = Place::of(&target);
        if let Some(input) = inputs.at(&place) {
            return Err(refuse(format!(
                "--out-dir would write {} over the input {input}: name another folder, or use --in-place to rewrite the input",
                target.display()
            )));
        }
        targets.push((target, place));
    }
    Ok(targets)
}

/// Where the filtered games go (standard output or `-o`'s file), refused
/// when that is an input.
fn main_output(cli: &Cli, inputs: &Inputs) -> io::Result<Option<Place>> {
    let main = if output_is_stdout(cli) {
        FileId::of_stdout().map(Place::File)
    } else {
        cli.output.as_deref().and_then(place)
    };
    if let Some(input) = inputs.at(&main) {
        return Err(refuse(match &cli.output {
            Some(o) if !is_dash(o) => format!(
                "-o {} is the input {input}: name another file, or use --in-place to rewrite the input",
                o.display()
            ),
            _ => format!("standard output is the input {input}: redirect it to another file"),
        }));
    }
    Ok(main)
}

/// Refuses a side output (`side`) that is an input, the output, where
/// `--out-dir` writes, or one of the side outputs before it (`others`).
fn refuse_side_output_onto_others(
    cli: &Cli,
    side: SideOutput,
    inputs: &Inputs,
    main: &Option<Place>,
    targets: &[(PathBuf, Option<Place>)],
    others: &[SideOutput],
) -> io::Result<()> {
    let (option, shown) = (side.option, side.path.display());
    if is_dash(side.path) && output_is_stdout(cli) {
        return Err(refuse(format!(
            "{option} - and the output would both go to standard output: give -o FILE, or {option} FILE"
        )));
    }
    let place = place(side.path);
    if let Some(input) = inputs.at(&place) {
        return Err(refuse(format!(
            "{option} {shown} is the input {input}: name another file"
        )));
    }
    let same = |o: &&SideOutput| {
        (is_dash(o.path) && is_dash(side.path))
            || (place.is_some() && self::place(o.path) == place)
            || o.path == side.path
    };
    if let Some(other) = others.iter().find(same) {
        return Err(refuse(format!(
            "{option} {shown} is also where {} writes: name another file",
            other.option
        )));
    }
    if place.is_none() {
        // Nothing there yet, nor a folder to make it in: nothing to clash.
        return Ok(());
    }
    if place == *main {
        return Err(refuse(format!(
            "{option} {shown} is also where the output goes: name another file"
        )));
    }
    if let Some((target, _)) = targets.iter().find(|(_, p)| *p == place) {
        return Err(refuse(format!(
            "{option} {shown} is where --out-dir writes {}: name another file",
            target.display()
        )));
    }
    Ok(())
}
