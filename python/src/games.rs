//! Games as the library's filter hands them, one at a time
//! (`Filter::games`): each game's text (as written, or, rejected, as
//! read), result, diagnostics and replay; its tags and moves are read from
//! that text with the crate's reader when first asked for (`parts`).

use ctlpgn_filter::read::{GameEnd, MoveRead, Reader, Source, TagRead, Visitor};
use ctlpgn_filter::{
    decode, unescape_pgn, Context, Diagnostic, Fate, HalfMove, Options, Pdtl, Report, Traits,
};
use std::io::{self, Read};

/// One game, read.
pub struct GameData {
    /// As the filter writes it, or, rejected, as read.
    pub text: String,
    /// The result it is written with.
    pub result: &'static str,
    pub rejected: bool,
    /// Neither rejected nor left out.
    pub written: bool,
    pub line: u64,
    pub diagnostics: Vec<Diagnostic>,
    /// With a replay: the final position when every move fit.
    pub final_pdtl: Option<String>,
    /// With a replay: the first move that did not fit.
    pub incoherent: Option<String>,
}

/// A half-move's canonical text (without rating, NAGs or end marker).
fn move_text(mv: &HalfMove) -> String {
    let mut t = Vec::new();
    mv.write_move(&mut t);
    String::from_utf8_lossy(&t).into_owned()
}

/// Reads every game of `input` (compressed or not) with the filter
/// `options` ask for, handing each to `deliver`, which answers whether to
/// go on (reading stops when nobody wants the games any more).
pub fn read(
    input: impl Read,
    options: &Options,
    mut deliver: impl FnMut(GameData) -> bool,
) -> io::Result<Report> {
    let (input, _, fault) = decode::decompressed(input)?;
    let mut filter = options.builder().build();
    filter.set_cut_short(Some(fault.cut.clone()));
    let mut games = filter.games(input);
    while let Some(g) = games.next_game()? {
        let replay = g.replay.as_ref();
        let text = if g.fate == Fate::Written {
            g.output
        } else {
            g.aside
        };
        let game = GameData {
            text: String::from_utf8_lossy(text).into_owned(),
            result: g.result.as_str(),
            rejected: g.fate == Fate::Rejected,
            written: g.fate == Fate::Written,
            line: g.line,
            diagnostics: g.diagnostics.to_vec(),
            final_pdtl: replay
                .filter(|r| r.coherent && !r.rejected)
                .map(|r| r.position.to_string()),
            incoherent: replay.and_then(|r| r.incoherent).map(move_text),
        };
        if !deliver(game) {
            return Ok(games.report());
        }
    }
    let report = games.report();
    // The games decoded before a decoder's error are handed on; then the
    // error, as the command line reports it after them.
    match fault.take() {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// A game's tags (its PGN escapes undone, as ndjson gives them), start
/// position and main-line moves, as its text reads.
#[derive(Default)]
pub struct Parts {
    pub tags: Vec<(String, String)>,
    pub pdtl: Option<String>,
    /// The moves, end to end, and where each ends.
    moves: String,
    ends: Vec<usize>,
}

impl Parts {
    /// The main line's half-moves.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = &str> {
        (0..self.ends.len()).map(|i| {
            let from = if i == 0 { 0 } else { self.ends[i - 1] };
            &self.moves[from..self.ends[i]]
        })
    }
}

impl Visitor for Parts {
    type Output = ();

    fn tag(&mut self, t: &TagRead<'_>, _cx: &mut Context) {
        let value = String::from_utf8_lossy(&unescape_pgn(t.tag.value.as_bytes())).into_owned();
        self.tags.push((t.tag.name.to_owned(), value));
    }

    fn setup(&mut self, pdtl: &mut Pdtl, _src: Source<'_>, _cx: &mut Context) {
        self.pdtl = Some(pdtl.to_string());
    }

    fn half_move(&mut self, m: &MoveRead<'_>, cx: &mut Context) {
        if m.depth > 0 {
            return;
        }
        let spelt = Traits::FIGURINE | Traits::ALTERNATIVE_LETTER | Traits::UNICODE_SEPARATOR;
        match m.text().map(std::str::from_utf8) {
            // Canonical as read: the filter's output always is.
            Some(Ok(t)) if !m.traits().intersects(spelt) && cx.redefine.is_empty() => {
                self.moves.push_str(t)
            }
            _ => self.moves.push_str(&move_text(&m.standard(cx))),
        }
        self.ends.push(self.moves.len());
    }

    fn end_game(&mut self, _end: &mut GameEnd<'_>, _cx: &mut Context) {}
}

/// The parts of the first game of `text`.
pub fn parts(text: &str) -> Parts {
    let mut parts = Parts::default();
    // Reading memory fails in no way.
    let _ = Reader::new(text.as_bytes()).read_game(&mut parts);
    parts
}
