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

use super::layout::Layout;
use crate::diag::{Message, Pos};
use crate::grammar::hex::Hex;
use crate::grammar::model::{Action, Check, Dash, HalfMove, Outcome, Sep, Side};
use crate::pass::{Context, Tag, Variation};
use crate::pdtl::Pdtl;
use crate::verify::{incoherent, GameEnd, GameEndHook, Replay};
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::ops::Range;

/// The tag that names a variation game's path when the game has no `Id`.
pub const VARIATION_PATH_TAG: &str = "VariationPath";

/// No record: the end of a chain.
const NONE: u32 = u32::MAX;

/// The variation games rejected for an error read inside a variation that
/// are each named in an error of their own, per game: paths as long as
/// their depth, one per game of a deep nest, would take memory with the
/// square of its size. The rest are counted in one more.
const NAMED: usize = 100;

/// What a game holds for its variation games, recorded as it is written.
/// Each line's half-moves and comments are chains, last to first, so a
/// variation game is put together from its own line and the lines it
/// branches from, never by a walk over the whole game (that made many
/// sibling variations, or deep ones, quadratic).
#[derive(Debug, Default)]
pub(super) struct Split {
    /// Tags and the PDTL, in order: the start of every variation game.
    head: Vec<Head>,
    pdtl: Option<Pdtl>,
    /// Tag names and values, comment texts.
    text: Vec<u8>,
    /// The half-moves of every line.
    moves: Vec<Played>,
    /// The comments inside variations.
    comments: Vec<Said>,
    /// The main line (0), then each variation as it opens.
    lines: Vec<Line>,
    /// The lines open while recording, innermost last.
    open: Vec<u32>,
    /// The last half-move of each (line, number, side) so far: the one a
    /// variation of that line starting with that half-move replaces.
    last_like: HashMap<(u32, u32, Side), u32>,
    /// Told of each variation game's end, when replayed.
    hook: Option<GameEndHook>,
    /// The errors read inside variations, each the first of its line
    /// ([`Split::fault`]): where, and what.
    faults: Vec<(Pos, Message)>,
    /// With a hook, each variation game replayed, in the order they are
    /// written: told once the game's verdict is known, only if the game is
    /// written.
    ends: Vec<VariationEnd>,
}

/// How a variation game's replay ended.
#[derive(Debug)]
struct VariationEnd {
    line: u32,
    replay: Replay,
    /// The last coherent half-move, and the first incoherent one.
    last_move: Option<HalfMove>,
    incoherent: Option<HalfMove>,
}

#[derive(Debug)]
enum Head {
    Tag {
        name: Range<usize>,
        value: Range<usize>,
    },
    Setup,
}

/// The `index`-th half-move of its line; `prev`, the line's one before.
#[derive(Debug)]
struct Played {
    mv: HalfMove,
    index: u32,
    prev: u32,
}

/// A comment after `after` half-moves of its line; `prev`, the line's
/// comment before.
#[derive(Debug)]
struct Said {
    text: Range<usize>,
    after: u32,
    prev: u32,
}

#[derive(Debug)]
struct Line {
    parent: u32,
    label: Option<u32>,
    /// The parent's half-move this line replaces (known from its first
    /// half-move: the parent's last one with the same number and side).
    at: u32,
    /// Its half-moves so far.
    moves: u32,
    /// Its first and last half-moves, and last comment.
    first: u32,
    last_move: u32,
    last_comment: u32,
    /// Written as a game: it replaces a half-move of a line written too.
    written: bool,
    /// Written, but rejected: its moves did not replay, or it or a line it
    /// branches from has an error.
    failed: bool,
    /// Its error read inside it, if any: an index in `faults`.
    fault: u32,
    /// A line it branches from had an error when it opened.
    under_fault: bool,
    /// Its path: the parent's, then `zeros` zeros, then `k`.
    zeros: u32,
    k: u32,
}

impl Default for Line {
    fn default() -> Self {
        Line {
            parent: 0,
            label: None,
            at: NONE,
            moves: 0,
            first: NONE,
            last_move: NONE,
            last_comment: NONE,
            written: false,
            failed: false,
            fault: NONE,
            under_fault: false,
            zeros: 0,
            k: 0,
        }
    }
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
        self.moves.clear();
        self.comments.clear();
        self.lines.clear();
        self.lines.push(Line::default());
        self.open.clear();
        self.open.push(0);
        self.last_like.clear();
        self.faults.clear();
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
        let at = self.moves.len() as u32;
        let l = &self.lines[line as usize];
        let replaced = (l.moves == 0 && line != 0)
            .then(|| self.last_like.get(&(l.parent, mv.number, mv.side)).copied())
            .flatten();
        let l = &mut self.lines[line as usize];
        if l.moves == 0 {
            l.first = at;
            l.at = replaced.unwrap_or(NONE);
        }
        self.moves.push(Played {
            mv: *mv,
            index: l.moves,
            prev: l.last_move,
        });
        l.last_move = at;
        l.moves += 1;
        self.last_like.insert((line, mv.number, mv.side), at);
    }

    /// A word of the innermost variation open, at `pos`, where half-move
    /// `number` of `side` is due, is no half-move. It still holds that
    /// half-move's place in its line: which half-move the line replaces,
    /// when it is the first, and which a variation after it replaces.
    /// It stands as a pawn's move that goes nowhere, never written nor
    /// replayed: the error that comes with it rejects the line's game, or
    /// the line's game is rejected already ([`Split::faulted`]).
    pub fn unread_half_move(&mut self, number: u32, side: Side, pos: Pos) {
        if self.current() == 0 {
            // The game's error, not a variation's: nothing is written.
            return;
        }
        let hex = Hex::from_index(0);
        let action = Action::Move {
            piece: None,
            from: hex,
            sep: Sep::Move(Dash::ASCII),
            captured: None,
            to: hex,
            promotion: None,
        };
        let mut mv = HalfMove::new(number, side, action, None);
        mv.pos = pos;
        self.half_move(&mv);
    }

    /// Is the innermost line open a variation (`None`: the main line), and
    /// is its game rejected already for an error inside it or a line it
    /// branches from?
    pub fn faulted(&self) -> Option<bool> {
        let line = self.current();
        let l = &self.lines[line as usize];
        (line != 0).then_some(l.fault != NONE || l.under_fault)
    }

    /// An error read at `pos` inside the innermost variation open: it
    /// rejects that variation's game, and those of the variations inside
    /// it, not the game; [`Split::plan`] reports it, named by the game's
    /// path. Only the first of a line is kept, none under a line that has
    /// one ([`Split::faulted`]). Handed back when no variation is open.
    pub fn fault(&mut self, pos: Pos, message: Message) -> Result<(), Message> {
        let line = self.current() as usize;
        match self.faulted() {
            None => Err(message),
            Some(true) => Ok(()),
            Some(false) => {
                self.lines[line].fault = self.faults.len() as u32;
                self.faults.push((pos, message));
                Ok(())
            }
        }
    }

    pub fn variation(&mut self, edge: Variation) {
        match edge {
            Variation::Open { label } => {
                let line = self.lines.len() as u32;
                let parent = &self.lines[self.current() as usize];
                let under_fault = parent.fault != NONE || parent.under_fault;
                self.lines.push(Line {
                    parent: self.current(),
                    label,
                    under_fault,
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
        let line = self.current() as usize;
        let text = self.keep_text(text);
        let l = &mut self.lines[line];
        self.comments.push(Said {
            text,
            after: l.moves,
            prev: l.last_comment,
        });
        l.last_comment = self.comments.len() as u32 - 1;
    }

    /// A warning about `line`, at its first half-move, which `say` names.
    fn warn_at_first_move(&self, line: &Line, cx: &mut Context, say: impl Fn(&HalfMove) -> String) {
        let mv = &self.moves[line.first as usize].mv;
        cx.warn(mv.pos, say(mv));
    }

    /// At the game's end: which variations become games, and their paths;
    /// those with an error read inside them or a line they branch from
    /// rejected; with `verify`, each other game replayed, a failure
    /// reported (as an error that rejects that game only) at its own
    /// half-move, and its end kept for the hook ([`Split::hand_ends`]). An
    /// error inside a variation that is no game (it replaces no half-move)
    /// rejects the game.
    pub fn plan(&mut self, verify: bool, cx: &mut Context) {
        self.lines[0].written = true;
        // Each branch point (parent, index of the replaced half-move): how
        // many variations it has so far.
        let mut branches: HashMap<(u32, u32), u32> = HashMap::new();
        // (parent, replaced half-move, k) of each variation planned.
        let mut taken: HashSet<(u32, u32, u32)> = HashSet::new();
        // Every branch point, sorted: a variation's path has a 0 for each
        // of its parent's before its own. Those of later variations count
        // too: a branch point is one wherever its variation is written.
        let mut points: Vec<(u32, u32)> = self.lines[1..]
            .iter()
            .filter(|l| l.at != NONE)
            .map(|l| (l.parent, self.moves[l.at as usize].index))
            .collect();
        points.sort_unstable();
        points.dedup();
        for i in 1..self.lines.len() {
            let l = &self.lines[i];
            if l.moves == 0 || !self.lines[l.parent as usize].written {
                continue;
            }
            if l.at == NONE {
                if l.fault != NONE {
                    // Rejects the game, below.
                    continue;
                }
                self.warn_at_first_move(l, cx, |mv| format!(
                    "this variation starts with move {} ({}), which replaces no half-move of the line it branches from: it is not written as a game of its own",
                    mv.number, mv.side
                ));
                continue;
            }
            let at = self.moves[l.at as usize].index;
            let order = branches.entry((l.parent, at)).or_insert(0);
            *order += 1;
            let order = *order;
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
            if !taken.insert((l.parent, at, k)) {
                self.warn_at_first_move(l, cx, |mv| format!(
                    "another variation of move {} ({}) has the number {k} already: their games share a path",
                    mv.number, mv.side
                ));
            }
            let before = |p: &(u32, u32)| *p < (l.parent, at);
            let zeros =
                points.partition_point(before) - points.partition_point(|p| *p < (l.parent, 0));
            let l = &mut self.lines[i];
            l.written = true;
            l.zeros = zeros as u32;
            l.k = k;
        }
        if let Some(l) = self.lines.iter().find(|l| l.fault != NONE && !l.written) {
            // An error inside a variation that is no game: the game's.
            let (pos, message) = self.faults[l.fault as usize].clone();
            cx.error(pos, message);
            return;
        }
        self.reject_faulted(cx);
        let mut moves = Vec::new();
        for i in 1..self.lines.len() {
            if !self.lines[i].written || self.lines[i].failed {
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
                self.lines[i].failed = true;
                continue;
            }
            if verify {
                let mut replay = Replay::new(self.pdtl.as_ref());
                let fault = moves.iter().enumerate().find_map(|(k, mv)| {
                    let fault = replay
                        .numbering_fault(mv)
                        .map(Err)
                        .unwrap_or_else(|| replay.play(mv));
                    fault.err().map(|e| (k, mv, e))
                });
                let played = fault.as_ref().map_or(moves.len(), |f| f.0);
                let end = VariationEnd {
                    line: i as u32,
                    replay,
                    last_move: played.checked_sub(1).map(|k| moves[k]),
                    incoherent: fault.as_ref().map(|f| *f.1),
                };
                if let Some((_, mv, e)) = fault {
                    let path = self.path_text(i as u32);
                    let message = incoherent(mv, &e);
                    let text = format!("variation {path}: {message}");
                    cx.error_in_variation(mv.pos, Message::new(message.kind, text));
                    self.lines[i].failed = true;
                }
                if self.hook.is_some() {
                    self.ends.push(end);
                }
            }
        }
    }

    /// Rejects the variation games with an error read inside them, and
    /// those below them (a line opens after the lines it branches from),
    /// each reported named by its path: the error, or which game's it
    /// shares. Past [`NAMED`] of them, one more error counts the rest.
    fn reject_faulted(&mut self, cx: &mut Context) {
        // The line whose error rejects each line's game, if any.
        let mut rejected_by = vec![NONE; self.lines.len()];
        let (mut named, mut unnamed, mut first_unnamed) = (0, 0, None);
        for i in 1..self.lines.len() {
            let l = &self.lines[i];
            if !l.written {
                continue;
            }
            rejected_by[i] = if l.fault != NONE {
                i as u32
            } else {
                rejected_by[l.parent as usize]
            };
            let by = rejected_by[i];
            if by == NONE {
                continue;
            }
            self.lines[i].failed = true;
            if named == NAMED {
                unnamed += 1;
                first_unnamed.get_or_insert(i as u32);
                continue;
            }
            named += 1;
            let (pos, path) = (self.start(i as u32), self.path_text(i as u32));
            let l = &self.lines[i];
            if by == i as u32 {
                let message = &self.faults[l.fault as usize].1;
                let text = format!("variation {path}: {}", message.text);
                cx.error_in_variation(pos, Message::new(message.kind, text));
            } else {
                let by = self.path_text(by);
                cx.error_in_variation(
                    pos,
                    format!(
                        "variation {path}: rejected with variation {by}, which it branches from"
                    ),
                );
            }
        }
        if let Some(i) = first_unnamed {
            let path = self.path_text(i);
            cx.error_in_variation(
                self.start(i),
                format!(
                    "variation {path}: rejected for an error inside it or a variation it branches from, as are {} more variation games of this game (--rejects names them all)",
                    unnamed - 1
                ),
            );
        }
    }

    /// Where the error that rejects `line`'s game is: its own, or its first
    /// half-move.
    fn start(&self, line: u32) -> Pos {
        let l = &self.lines[line as usize];
        match self.faults.get(l.fault as usize) {
            Some((pos, _)) => *pos,
            None => self.moves[l.first as usize].mv.pos,
        }
    }

    /// The game is written: hands the end of each variation game replayed
    /// to the hook, in the order they are written (`game_line`: the game's
    /// first line, which names them too).
    pub fn hand_ends(&self, cx: &Context) {
        let Some(hook) = &self.hook else {
            return;
        };
        let id = self.head.iter().find_map(|h| match h {
            Head::Tag { name, value } if self.text(name) == "Id" => Some(self.text(value)),
            _ => None,
        });
        let mut path = Vec::new();
        let mut variation_id = String::new();
        for end in &self.ends {
            self.path(end.line, &mut path);
            if let Some(id) = id {
                variation_id.clear();
                with_path(id, &self.path_text(end.line), &mut variation_id);
            }
            let coherent = end.incoherent.is_none();
            hook.call(&GameEnd {
                position: &end.replay.position,
                coherent,
                rejected: !coherent,
                half_moves: end.replay.half_moves,
                line: cx.game_start.line,
                left_out: false,
                path: &path,
                number: cx.game_number,
                id: id.map(|_| variation_id.as_str()),
                last_move: end.last_move.as_ref(),
                incoherent: end.incoherent.as_ref(),
            });
        }
    }

    /// Variation games planned, and how many of them failed to replay.
    pub fn counts(&self) -> (u64, u64) {
        let lines = &self.lines[1..];
        let planned = lines.iter().filter(|l| l.written).count();
        let failed = lines.iter().filter(|l| l.failed).count();
        (planned as u64, failed as u64)
    }

    /// The paths of the variation games that failed to replay, `0:2:1, 1`.
    pub fn failed_paths(&self) -> String {
        let failed = (1..self.lines.len() as u32).filter(|&i| self.lines[i as usize].failed);
        failed
            .map(|i| self.path_text(i))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `line`'s path, worked out from its ancestors when asked: kept for
    /// every line, paths would take memory with the square of the depth.
    fn path(&self, line: u32, out: &mut Vec<u32>) {
        out.clear();
        let mut l = line;
        while l != 0 {
            let line = &self.lines[l as usize];
            out.push(line.k);
            out.extend(std::iter::repeat_n(0, line.zeros as usize));
            l = line.parent;
        }
        out.reverse();
    }

    fn path_text(&self, line: u32) -> String {
        let mut path = Vec::new();
        self.path(line, &mut path);
        let mut s = String::new();
        for (i, k) in path.iter().enumerate() {
            if i > 0 {
                s.push(':');
            }
            write!(s, "{k}").expect("a String takes any text");
        }
        s
    }

    /// The half-moves of `line`'s game: its own, after each ancestor's up
    /// to the one its child replaces; a game ends with `:` or `#`.
    fn linear_moves(&self, line: u32, out: &mut Vec<HalfMove>) {
        out.clear();
        // Walked last to first, each chain from where the line below it
        // branched off.
        let (mut l, mut at) = (line, self.lines[line as usize].last_move);
        loop {
            while at != NONE {
                let played = &self.moves[at as usize];
                out.push(played.mv);
                at = played.prev;
            }
            if l == 0 {
                break;
            }
            let line = &self.lines[l as usize];
            at = self.moves[line.at as usize].prev;
            l = line.parent;
        }
        out.reverse();
        // `N?` numbering is the main line's; a variation's half-moves share it.
        let first = self.moves.get(self.lines[0].first as usize).map(|p| p.mv);
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
        let mut said = Vec::new();
        let mut path = Vec::new();
        let mut id = String::new();
        for i in 1..self.lines.len() as u32 {
            let l = &self.lines[i as usize];
            if !l.written || l.failed {
                continue;
            }
            self.linear_moves(i, &mut moves);
            let result = match moves.last() {
                Some(m) if m.check == Some(Check::Mate) => Outcome::mate_by(m.side),
                _ => Outcome::Unfinished,
            };
            let path_text = self.path_text(i);
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
                                with_path(self.text(value), &path_text, &mut id);
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
                    value: &path_text,
                    pos: Pos::default(),
                });
            }
            // The variation's own comments, after its half-moves before them.
            said.clear();
            let mut c = l.last_comment;
            while c != NONE {
                said.push(&self.comments[c as usize]);
                c = self.comments[c as usize].prev;
            }
            let prefix = moves.len() - l.moves as usize;
            let mut written = 0;
            for s in said.iter().rev() {
                layout.half_moves(&moves[written..prefix + s.after as usize]);
                written = prefix + s.after as usize;
                layout.comment(&self.text[s.text.clone()], 0, false);
            }
            layout.half_moves(&moves[written..]);
            self.path(i, &mut path);
            layout.finish(result, file, line, &path, out)?;
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
