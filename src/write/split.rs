//! `--split-variations`: after the main game, every variation, at any
//! depth, written as a linear game of its own, as the notation allows for
//! "readers without the ability to interpret variations": the moves of the
//! line it branches from up to the half-move it replaces, then its own.
//!
//! Its path names it: one number per branch point met from the start (a
//! half-move that has variations), 0 for the line going on, k for the k-th
//! variation of that half-move (its label `$[k]`, when given); the path
//! ends with the variation's own k, so no path ends in 0. The `Id` tag
//! says it as the notation does (`Cescacs-X01-V-S:0:1-en`); a game without
//! an `Id` gets a `VariationPath` tag.

use super::Layout;
use crate::diag::{Message, Pos};
use crate::grammar::model::{Check, HalfMove, Outcome};
use crate::passes::{Context, Tag, Variation};
use crate::pdtl::Pdtl;
use crate::verify::{incoherent, GameEnd, GameEndHook, Replay};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::ops::Range;

/// The tag that names a variation game's path when the game has no `Id`.
pub const VARIATION_PATH_TAG: &str = "VariationPath";

/// What a game holds for its variation games, recorded as it is written.
#[derive(Debug, Default)]
pub(super) struct Split {
    /// Tags and the PDTL, in order: the start of every variation game.
    head: Vec<Head>,
    pdtl: Option<Pdtl>,
    /// Tag names and values, comment texts.
    text: Vec<u8>,
    /// The half-moves of every line, and the comments inside variations.
    events: Vec<Event>,
    /// The main line (0), then each variation as it opens.
    lines: Vec<Line>,
    /// The lines open while recording, innermost last.
    open: Vec<u32>,
    /// Every path, one after the other (`Line::path`).
    paths: Vec<u32>,
    /// The variation games whose moves did not replay.
    failed: Vec<u32>,
    /// Told of each variation game's end, when replayed.
    hook: Option<GameEndHook>,
    /// With a hook, each variation game replayed (its line, its replay,
    /// whether it replayed whole), in the order they are written: told
    /// once the game's verdict is known, only if the game is written.
    ends: Vec<(u32, Replay, bool)>,
}

#[derive(Debug)]
enum Head {
    Tag {
        name: Range<usize>,
        value: Range<usize>,
    },
    Setup,
}

#[derive(Debug)]
enum Event {
    /// The `index`-th half-move of line `line`.
    Move {
        mv: HalfMove,
        line: u32,
        index: u32,
    },
    Comment {
        text: Range<usize>,
        line: u32,
    },
}

#[derive(Debug, Default)]
struct Line {
    parent: u32,
    label: Option<u32>,
    /// Which of the parent's half-moves this line replaces (known from its
    /// first half-move: the one with the same number and side).
    at: Option<u32>,
    /// Its half-moves so far.
    moves: u32,
    /// The event of its first half-move.
    first: u32,
    /// Written as a game: it replaces a half-move of a line written too.
    written: bool,
    /// Its range in `Split::paths`.
    path: Range<usize>,
}

impl Split {
    pub fn new(hook: Option<GameEndHook>) -> Split {
        Split {
            hook,
            ..Split::default()
        }
    }

    pub fn begin(&mut self) {
        self.head.clear();
        self.pdtl = None;
        self.text.clear();
        self.events.clear();
        self.lines.clear();
        self.lines.push(Line::default());
        self.open.clear();
        self.open.push(0);
        self.paths.clear();
        self.failed.clear();
        self.ends.clear();
    }

    fn keep_text(&mut self, bytes: &[u8]) -> Range<usize> {
        let start = self.text.len();
        self.text.extend_from_slice(bytes);
        start..self.text.len()
    }

    fn text(&self, r: &Range<usize>) -> &str {
        std::str::from_utf8(&self.text[r.clone()]).expect("kept from a str")
    }

    pub fn tag(&mut self, tag: &Tag<'_>) {
        let name = self.keep_text(tag.name.as_bytes());
        let value = self.keep_text(tag.value.as_bytes());
        self.head.push(Head::Tag { name, value });
    }

    pub fn setup(&mut self, pdtl: &Pdtl) {
        self.pdtl = Some(pdtl.clone());
        self.head.push(Head::Setup);
    }

    fn current(&self) -> u32 {
        *self.open.last().expect("the main line is always open")
    }

    pub fn half_move(&mut self, mv: &HalfMove) {
        let line = self.current();
        let l = &self.lines[line as usize];
        if l.moves == 0 && line != 0 {
            // A variation replaces the half-move of its parent with the same
            // number and side: the last such one before it.
            let parent = l.parent;
            let at = self.events.iter().rev().find_map(|e| match e {
                Event::Move { mv: m, line, index }
                    if *line == parent && m.number == mv.number && m.side == mv.side =>
                {
                    Some(*index)
                }
                _ => None,
            });
            let l = &mut self.lines[line as usize];
            l.at = at;
            l.first = self.events.len() as u32;
        }
        let l = &mut self.lines[line as usize];
        let index = l.moves;
        l.moves += 1;
        self.events.push(Event::Move {
            mv: *mv,
            line,
            index,
        });
    }

    pub fn variation(&mut self, edge: Variation) {
        match edge {
            Variation::Open { label } => {
                let line = self.lines.len() as u32;
                self.lines.push(Line {
                    parent: self.current(),
                    label,
                    ..Line::default()
                });
                self.open.push(line);
            }
            Variation::Close => {
                if self.open.len() > 1 {
                    self.open.pop();
                }
            }
        }
    }

    pub fn comment(&mut self, text: &[u8]) {
        let line = self.current();
        let text = self.keep_text(text);
        self.events.push(Event::Comment { text, line });
    }

    /// A warning about `line`, at its first half-move, which `say` names.
    fn warn_at_first_move(&self, line: &Line, cx: &mut Context, say: impl Fn(&HalfMove) -> String) {
        let Event::Move { mv, .. } = &self.events[line.first as usize] else {
            unreachable!("`first` is a half-move")
        };
        cx.warn(mv.pos, say(mv));
    }

    /// At the game's end: which variations become games, and their paths;
    /// with `verify`, each game replayed, a failure reported (as an error
    /// that rejects that game only) at its own half-move, and its end kept
    /// for the hook ([`Split::hand_ends`]).
    pub fn plan(&mut self, verify: bool, cx: &mut Context) {
        self.lines[0].written = true;
        // (parent, replaced half-move, variations so far) of each branch point.
        let mut branches: Vec<(u32, u32, u32)> = Vec::new();
        // (parent, replaced half-move, k) of each variation planned.
        let mut taken: Vec<(u32, u32, u32)> = Vec::new();
        for i in 1..self.lines.len() {
            let l = &self.lines[i];
            let parent = &self.lines[l.parent as usize];
            if l.moves == 0 || !parent.written {
                continue;
            }
            let Some(at) = l.at else {
                self.warn_at_first_move(l, cx, |mv| format!(
                    "this variation starts with move {} ({}), which replaces no half-move of the line it branches from: it is not written as a game of its own",
                    mv.number, mv.side
                ));
                continue;
            };
            let branch = match branches
                .iter_mut()
                .find(|(p, a, _)| *p == l.parent && *a == at)
            {
                Some(b) => b,
                None => {
                    branches.push((l.parent, at, 0));
                    branches.last_mut().expect("just pushed")
                }
            };
            branch.2 += 1;
            let order = branch.2;
            let k = match l.label {
                Some(label) if label > 0 => {
                    if label != order {
                        self.warn_at_first_move(l, cx, |mv| format!(
                            "this variation is labelled $[{label}] but is variation {order} of move {} ({}): its path takes the label",
                            mv.number, mv.side
                        ));
                    }
                    label
                }
                _ => order,
            };
            if taken.contains(&(l.parent, at, k)) {
                self.warn_at_first_move(l, cx, |mv| format!(
                    "another variation of move {} ({}) has the number {k} already: their games share a path",
                    mv.number, mv.side
                ));
            }
            taken.push((l.parent, at, k));
            self.lines[i].written = true;
            let parent = self.lines[i].parent;
            // Branch points of the parent before this one: 0 each. Those
            // of later variations count too: a branch point is one wherever
            // its variation is written.
            let zeros = self.lines[1..]
                .iter()
                .filter(|s| s.parent == parent && s.moves > 0)
                .filter_map(|s| s.at.filter(|&a| a < at))
                .collect::<std::collections::BTreeSet<_>>()
                .len();
            let start = self.paths.len();
            self.paths
                .extend_from_within(self.lines[parent as usize].path.clone());
            self.paths.extend(std::iter::repeat_n(0, zeros));
            self.paths.push(k);
            self.lines[i].path = start..self.paths.len();
        }
        let mut moves = Vec::new();
        for i in 1..self.lines.len() {
            if !self.lines[i].written {
                continue;
            }
            self.linear_moves(i as u32, &mut moves);
            // Inside a variation the numbers are the reader's as written:
            // a half-move left out there would leave a gap in the game.
            let gap = moves.windows(2).find(|w| {
                (w[1].number, w[1].side) != (w[0].side.next_number(w[0].number), w[0].side.other())
            });
            if let Some(w) = gap {
                let (before, mv) = (&w[0], &w[1]);
                let path = self.path_text(i as u32);
                cx.error_in_variation(
                    mv.pos,
                    format!(
                        "variation {path}: move {} ({}) follows move {} ({}): a half-move is missing between them",
                        mv.number, mv.side, before.number, before.side
                    ),
                );
                self.failed.push(i as u32);
                continue;
            }
            if verify {
                let mut replay = Replay::new(self.pdtl.as_ref());
                let fault = moves.iter().find_map(|mv| {
                    let fault = replay
                        .numbering_fault(mv)
                        .map(Err)
                        .unwrap_or_else(|| replay.play(mv));
                    fault.err().map(|e| (mv, e))
                });
                let coherent = fault.is_none();
                if let Some((mv, e)) = fault {
                    let path = self.path_text(i as u32);
                    let message = incoherent(mv, &e);
                    let text = format!("variation {path}: {message}");
                    cx.error_in_variation(mv.pos, Message::new(message.kind, text));
                    self.failed.push(i as u32);
                }
                if self.hook.is_some() {
                    self.ends.push((i as u32, replay, coherent));
                }
            }
        }
    }

    /// The game is written: hands the end of each variation game replayed
    /// to the hook, in the order they are written (`game_line`: the game's
    /// first line, which names them too).
    pub fn hand_ends(&self, game_line: u64) {
        let Some(hook) = &self.hook else {
            return;
        };
        for (line, replay, coherent) in &self.ends {
            hook.call(&GameEnd {
                position: &replay.position,
                coherent: *coherent,
                rejected: !coherent,
                half_moves: replay.half_moves,
                line: game_line,
                left_out: false,
                path: self.path(*line),
            });
        }
    }

    /// Variation games planned, and how many of them failed to replay.
    pub fn counts(&self) -> (u64, u64) {
        let planned = self.lines[1..].iter().filter(|l| l.written).count();
        (planned as u64, self.failed.len() as u64)
    }

    /// The paths of the variation games that failed to replay, `0:2:1, 1`.
    pub fn failed_paths(&self) -> String {
        let mut s = String::new();
        for (i, &line) in self.failed.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s += &self.path_text(line);
        }
        s
    }

    fn path(&self, line: u32) -> &[u32] {
        &self.paths[self.lines[line as usize].path.clone()]
    }

    fn path_text(&self, line: u32) -> String {
        let mut s = String::new();
        for (i, k) in self.path(line).iter().enumerate() {
            if i > 0 {
                s.push(':');
            }
            write!(s, "{k}").expect("a String takes any text");
        }
        s
    }

    /// The half-moves of `line`'s game: each ancestor's up to the one its
    /// child replaces, then its own; a game ends with `:` or `#`.
    fn linear_moves(&self, line: u32, out: &mut Vec<HalfMove>) {
        out.clear();
        let mut upto = vec![0u32; self.lines.len()];
        upto[line as usize] = u32::MAX;
        let mut l = line;
        while l != 0 {
            let line = &self.lines[l as usize];
            upto[line.parent as usize] = line.at.expect("a written line replaces a half-move");
            l = line.parent;
        }
        for e in &self.events {
            if let Event::Move { mv, line, index } = e {
                if *index < upto[*line as usize] {
                    out.push(*mv);
                }
            }
        }
        // `N?` numbering is the main line's; a variation's half-moves share it.
        let first = self.events.iter().find_map(|e| match e {
            Event::Move { mv, line: 0, .. } => Some(*mv),
            _ => None,
        });
        for mv in out.iter_mut() {
            mv.end = false;
            mv.unknown_number = first.is_some_and(|f| f.unknown_number && mv.number == f.number);
        }
        if let Some(last) = out.last_mut() {
            last.end = last.check != Some(Check::Mate);
        }
    }

    /// Writes each variation game that replayed (or was not replayed).
    pub fn write_games(
        &self,
        layout: &mut Layout,
        file: &str,
        line: u64,
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let mut moves = Vec::new();
        let mut id = String::new();
        for i in 1..self.lines.len() as u32 {
            if !self.lines[i as usize].written || self.failed.contains(&i) {
                continue;
            }
            self.linear_moves(i, &mut moves);
            let result = match moves.last() {
                Some(m) if m.check == Some(Check::Mate) => Outcome::mate_by(m.side),
                _ => Outcome::Unfinished,
            };
            let path = self.path_text(i);
            layout.begin();
            let mut has_id = false;
            for h in &self.head {
                match h {
                    Head::Setup => layout.setup(self.pdtl.as_ref().expect("a PDTL was set up")),
                    Head::Tag { name, value } => {
                        let name = self.text(name);
                        let value = match name {
                            "Id" => {
                                has_id = true;
                                id.clear();
                                with_path(self.text(value), &path, &mut id);
                                id.as_str()
                            }
                            "Result" => result.as_str(),
                            _ => self.text(value),
                        };
                        layout.tag(&Tag {
                            name,
                            value,
                            pos: Pos::default(),
                        });
                    }
                }
            }
            if !has_id {
                layout.tag(&Tag {
                    name: VARIATION_PATH_TAG,
                    value: &path,
                    pos: Pos::default(),
                });
            }
            // The variation's own comments, after its half-moves before them.
            let prefix = moves.len() - self.lines[i as usize].moves as usize;
            let (mut own, mut written) = (0, 0);
            for e in &self.events {
                match e {
                    Event::Move { line, .. } if *line == i => own += 1,
                    Event::Comment { text, line } if *line == i => {
                        layout.half_moves(&moves[written..prefix + own]);
                        written = prefix + own;
                        layout.comment(&self.text[text.clone()], 0, false);
                    }
                    _ => {}
                }
            }
            layout.half_moves(&moves[written..]);
            layout.finish(result, file, line, self.path(i), out)?;
        }
        Ok(())
    }
}

/// `id` with the path written in, as the notation names a variation shown
/// linearly: `S:path` after the `V` and its Roman version, if any, before
/// the language suffix (`-V` added where the Id has none).
///
/// ```text
/// Cescacs-X01-V-en     → Cescacs-X01-V-S:0:1-en
/// Cescacs-X01-V-II-en  → Cescacs-X01-V-II-S:0:1-en
/// Cescacs-X01-en       → Cescacs-X01-V-S:0:1-en
/// ```
fn with_path(id: &str, path: &str, out: &mut String) {
    let parts: Vec<&str> = id.split('-').collect();
    let roman = |p: &str| !p.is_empty() && p.bytes().all(|c| b"IVXLCDM".contains(&c));
    let language =
        |p: &str| (2..=3).contains(&p.len()) && p.bytes().all(|c| c.is_ascii_lowercase());
    let s = format!("S:{path}");
    let (at, insert): (usize, Vec<&str>) = match parts.iter().rposition(|&p| p == "V") {
        Some(v) if parts.get(v + 1).is_some_and(|p| roman(p)) => (v + 2, vec![&s]),
        Some(v) => (v + 1, vec![&s]),
        None if parts.len() > 1 && language(parts[parts.len() - 1]) => {
            (parts.len() - 1, vec!["V", &s])
        }
        None => (parts.len(), vec!["V", &s]),
    };
    let mut all = parts[..at].to_vec();
    all.extend(insert);
    all.extend_from_slice(&parts[at..]);
    out.push_str(&all.join("-"));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(id: &str, path: &str) -> String {
        let mut s = String::new();
        with_path(id, path, &mut s);
        s
    }

    #[test]
    fn the_path_goes_after_v_and_its_version_before_the_language() {
        assert_eq!(id("Cescacs-X01-V-en", "0:1"), "Cescacs-X01-V-S:0:1-en");
        assert_eq!(
            id("Cescacs-X01-V-II-en", "0:1"),
            "Cescacs-X01-V-II-S:0:1-en"
        );
        assert_eq!(id("Cescacs-X01-V", "1"), "Cescacs-X01-V-S:1");
    }

    #[test]
    fn an_id_without_v_gets_it() {
        assert_eq!(id("Cescacs-X01-en", "0:1"), "Cescacs-X01-V-S:0:1-en");
        assert_eq!(id("Cescacs-A0001-24", "2"), "Cescacs-A0001-24-V-S:2");
        assert_eq!(id("X01", "1"), "X01-V-S:1");
    }
}
