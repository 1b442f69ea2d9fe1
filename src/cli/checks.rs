//! What is refused before anything is read or written: an output that
//! would replace an input before it is read, two outputs that are one file,
//! two inputs that would be written to one path, an input `--in-place`
//! cannot rewrite.

use super::args::Cli;
use super::inputs::Entry;
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

/// The files and folders the command writes that exist already: never read
/// while walking folders.
pub fn outputs(cli: &Cli) -> Vec<FileId> {
    let mut ids = Vec::new();
    if output_is_stdout(cli) {
        ids.extend(FileId::of_stdout());
    }
    for path in [&cli.output, &cli.rejects, &cli.duplicates, &cli.out_dir]
        .into_iter()
        .flatten()
    {
        ids.extend(place(path).and_then(|p| p.file()));
    }
    ids
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
pub fn refuse_clashes(cli: &Cli, entries: &[Entry]) -> io::Result<()> {
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
    }
    Ok(())
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
