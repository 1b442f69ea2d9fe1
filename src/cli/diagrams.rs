//! `--diagrams DIR`: an SVG of each written game's final position, and of
//! each incoherent game's position before the move that does not fit.

use super::{decode, streams};
use ctlpgn_filter::{Diagram, DiagramOptions, GameEnd, Marks};
use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};

/// The folder written to, and what has been written there this run.
pub struct Diagrams {
    dir: PathBuf,
    diagram: Diagram,
    /// The names given so far: a second game of one name gets `-2`.
    names: HashSet<String>,
    /// The last number put after each name: the next try starts there, so
    /// that a thousand games of one `Id` cost a thousand tries, not half a
    /// million.
    tried: HashMap<String, u64>,
    svg: Vec<u8>,
    /// The first file that could not be written: the run ends in error.
    error: Option<io::Error>,
}

impl Diagrams {
    /// Makes `dir` (and the folders above it) if need be.
    pub fn new(dir: PathBuf, options: DiagramOptions) -> io::Result<Diagrams> {
        std::fs::create_dir_all(&dir).map_err(streams::writing(dir.display()))?;
        Ok(Diagrams {
            dir,
            diagram: Diagram::new(options),
            names: HashSet::new(),
            tried: HashMap::new(),
            svg: Vec::new(),
            error: None,
        })
    }

    /// Writes the diagram `end` asks for, if any: a written game's final
    /// position, its last move marked; an incoherent game's position before
    /// the incoherent move, that move's hexes marked. Nothing for a game
    /// left out, or rejected for another reason. `input` is the name of
    /// the input the game is read from.
    pub fn game_end(&mut self, end: &GameEnd<'_>, input: &str) {
        let marks = match end.incoherent {
            _ if end.left_out || self.error.is_some() => return,
            Some(mv) => Marks::incoherent(mv),
            None if end.rejected => return,
            None => end.last_move.map(Marks::last_move).unwrap_or_default(),
        };
        let name = self.name(end, input);
        self.svg.clear();
        self.diagram.write(end.position, &marks, &mut self.svg);
        let path = self.dir.join(name);
        if let Err(e) = std::fs::write(&path, &self.svg) {
            self.error = Some(streams::writing(path.display())(e));
        }
    }

    /// The first write that failed.
    pub fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    /// `ID.svg` after the game's `Id` tag (a variation game's as its own
    /// tag says, `ID-V-S:0:1`), or after its input's stem and its number
    /// there (`2023-09-11-1`, `2023-09-11-1-V-S:0:1`), so that the games of
    /// several inputs never meet; `-2`, `-3`... after a name already given
    /// this run.
    fn name(&mut self, end: &GameEnd<'_>, input: &str) -> String {
        let path: Vec<String> = end.path.iter().map(u32::to_string).collect();
        let base = match (end.id, path.is_empty()) {
            (Some(id), _) => file_name(id),
            (None, true) => format!("{}-{}", stem(input), end.number),
            (None, false) => format!("{}-{}-V-S:{}", stem(input), end.number, path.join(":")),
        };
        let mut name = format!("{base}.svg");
        if self.names.insert(name.clone()) {
            return name;
        }
        let n = self.tried.entry(base.clone()).or_insert(1);
        loop {
            *n += 1;
            name = format!("{base}-{n}.svg");
            if self.names.insert(name.clone()) {
                return name;
            }
        }
    }
}

/// An input's name as the start of a file name: its file's name without
/// a compression suffix and its extension (`games/2023-09-11.ctl-pgn.gz`:
/// `2023-09-11`); `stdin` for standard input.
fn stem(input: &str) -> String {
    if input == "<stdin>" {
        return "stdin".to_string();
    }
    let name = decode::without_suffix(Path::new(input));
    let stem = name
        .file_stem()
        .map(|s| s.to_string_lossy())
        .unwrap_or_default();
    file_name(&stem)
}

/// `id` as a file name: a `/`, a `\` or a control character becomes `_`,
/// and a leading dot too (no hidden file, no `..`).
fn file_name(id: &str) -> String {
    let mut s: String = id
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        s.insert(0, '_');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{file_name, stem};

    #[test]
    fn an_input_s_stem_leaves_out_its_folders_extension_and_compression() {
        assert_eq!(stem("corpus/real-2023-09-11.ctl-pgn"), "real-2023-09-11");
        assert_eq!(stem("a/games.pgn.gz"), "games");
        assert_eq!(stem("real-2022-08-14.1.ctl-pgn"), "real-2022-08-14.1");
        assert_eq!(stem("saved"), "saved");
        assert_eq!(stem("<stdin>"), "stdin");
        assert_eq!(stem(".hidden.pgn"), "_.hidden");
    }

    #[test]
    fn an_id_is_a_file_name_in_the_folder() {
        assert_eq!(file_name("Cescacs-A0001-24"), "Cescacs-A0001-24");
        assert_eq!(file_name("../a/b"), "_.._a_b");
        assert_eq!(file_name(""), "_");
    }
}
