//! `--diagrams DIR`: an SVG of each written game's final position, and of
//! each incoherent game's position before the move that does not fit.

use super::streams;
use ctlpgn_filter::{Diagram, DiagramOptions, GameEnd, Marks};
use std::collections::{HashMap, HashSet};
use std::io;
use std::path::PathBuf;

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
    /// left out, or rejected for another reason.
    pub fn game_end(&mut self, end: &GameEnd<'_>) {
        let marks = match end.incoherent {
            _ if end.left_out || self.error.is_some() => return,
            Some(mv) => Marks::incoherent(mv),
            None if end.rejected => return,
            None => end.last_move.map(Marks::last_move).unwrap_or_default(),
        };
        let name = self.name(end);
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
    /// tag says, `ID-V-S:0:1`), or its number in the input; `-2`, `-3`...
    /// after a name already given this run.
    fn name(&mut self, end: &GameEnd<'_>) -> String {
        let path: Vec<String> = end.path.iter().map(u32::to_string).collect();
        let base = match (end.id, path.is_empty()) {
            (Some(id), _) => file_name(id),
            (None, true) => end.number.to_string(),
            (None, false) => format!("{}-V-S:{}", end.number, path.join(":")),
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
    use super::file_name;

    #[test]
    fn an_id_is_a_file_name_in_the_folder() {
        assert_eq!(file_name("Cescacs-A0001-24"), "Cescacs-A0001-24");
        assert_eq!(file_name("../a/b"), "_.._a_b");
        assert_eq!(file_name(""), "_");
    }
}
