//! The verify pass: [`Verify`] replays each game's main line as the chain
//! hands it over, and [`GameEnd`] is what its callback is told.

use super::messages::incoherent;
use super::position::Position;
use super::replay::Replay;
use crate::diag::Pos;
use crate::grammar::model::{Check, HalfMove, Outcome, Side};
use crate::pass::{Context, Flow, Interest, Pass, Tag};
use crate::pdtl::Pdtl;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

/// How a game ended, as [`Verify`] saw it; handed to the callback set with
/// [`Verify::on_game_end`].
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, Verify};
/// use std::sync::{Arc, Mutex};
/// let last = Arc::new(Mutex::new(String::new()));
/// let keep = Arc::clone(&last);
/// let verify = Verify::new().on_game_end(move |end| *keep.lock().unwrap() = end.position.to_string());
/// let mut f = FilterBuilder::new().pass(Box::new(verify)).build();
/// f.filter_bytes(b"1. E7-E13:\n");
/// assert!(last.lock().unwrap().contains("/13:3P4/"));
/// ```
///
/// With [`crate::FilterBuilder::verify`] and
/// [`crate::FilterBuilder::split_variations`], each variation game that is
/// replayed ends too, after its game, its `path` naming it; only a game
/// written has them (not one rejected, nor one left out, as a duplicate
/// here, whose main line still ends, `left_out` set), and a variation game
/// rejected for an error read inside it is not replayed:
///
/// ```
/// use ctlpgn_filter::{FilterBuilder, Verify};
/// use std::sync::{Arc, Mutex};
/// let ends = Arc::new(Mutex::new(Vec::new()));
/// let keep = Arc::clone(&ends);
/// let verify = Verify::new()
///     .on_game_end(move |end| keep.lock().unwrap().push((end.path.to_vec(), end.left_out)));
/// let mut f = FilterBuilder::new().verify(verify).split_variations(true).dedup(true).build();
/// let game = "1. E7-E13, E21-E15 (1. ..., F20-F16) 2. F8-F12:\n";
/// f.filter_bytes(game.repeat(2).as_bytes());
/// assert_eq!(*ends.lock().unwrap(), [(vec![], false), (vec![1], false), (vec![], true)]);
/// ```
#[derive(Debug)]
pub struct GameEnd<'a> {
    /// The position after the last coherent half-move of the line
    /// replayed: the final position when `coherent`. `to_string()` writes
    /// it as a PDTL.
    pub position: &'a Position,
    /// Every half-move of the line was coherent.
    pub coherent: bool,
    /// An error (from any pass or the reader) rejects the game (the
    /// callback waits for the game's verdict, [`crate::Pass::verdict`]).
    /// A variation game is rejected when it does not replay.
    pub rejected: bool,
    /// Half-moves played (the coherent ones).
    pub half_moves: u32,
    /// The game is left out whole (`--dedup`, `--tag`, ...: see
    /// [`crate::LeftOut`]), by the filter's own verify
    /// ([`crate::FilterBuilder::verify`]) or one added as a pass alike.
    pub left_out: bool,
    /// The game's first line (see [`Context::game_start`]): the line
    /// ndjson's `line` and the diagnostics about the whole game name too;
    /// a variation game's is its game's.
    pub line: u64,
    /// Empty for the game's main line; for a variation game
    /// (`--split-variations`), its path, as its `Id` or `VariationPath`
    /// tag and ndjson's `path` give it (`[0, 2]` is `0:2`).
    pub path: &'a [u32],
    /// The game's number among the games of the input, from 1 (a variation
    /// game's is its game's; in a parallel run, see
    /// [`crate::run_parallel`], a piece counts from its own start).
    pub number: u64,
    /// The game's `Id` tag, when it has one and [`Verify::read_ids`] asks
    /// for it (a variation game's: its own, as written, `Cescacs-X01-V-S:0:1-en`).
    pub id: Option<&'a str>,
    /// The last coherent half-move of the line replayed, if any.
    pub last_move: Option<&'a HalfMove>,
    /// The first incoherent half-move, when not `coherent`: `position` is
    /// the position it was played on.
    pub incoherent: Option<&'a HalfMove>,
}

/// What is known of a game's `#` move.
#[derive(Clone, Copy, Debug)]
struct Mate {
    by: Side,
    pos: Pos,
    number: u32,
}

/// The callback of [`Verify::on_game_end`].
type OnGameEnd = dyn FnMut(&GameEnd<'_>) + Send;

/// The callback of [`Verify::on_game_end`], shared by the pass (a game's
/// main line) and the writer (its variation games, replayed when they are
/// planned, after the passes are done with the game, and handed on after
/// the main line's end once the game is known to be written).
#[derive(Clone)]
pub(crate) struct GameEndHook(Arc<Mutex<Box<OnGameEnd>>>);

impl GameEndHook {
    pub fn call(&self, end: &GameEnd<'_>) {
        // A callback that panicked once is called on all the same.
        let mut f = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        f(end);
    }
}

impl fmt::Debug for GameEndHook {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("GameEndHook")
    }
}

/// The verify pass: replays each game's main line with [`Position`] and
/// rejects the game at the first incoherent half-move, with a message like
/// `move 17 (Black) GD26*L5: no piece at D26` at that half-move's position.
///
/// Put it after the built-in passes ([`crate::FilterBuilder::pass`]), where
/// piece letters are standard; variations are not replayed.
pub struct Verify {
    replay: Replay,
    coherent: bool,
    mate: Option<Mate>,
    on_game_end: Option<GameEndHook>,
    /// The last coherent half-move, and the first incoherent one.
    last_move: Option<HalfMove>,
    incoherent: Option<HalfMove>,
    /// Read the `Id` tag for the callback ([`Verify::read_ids`]).
    read_ids: bool,
    id: Option<String>,
}

impl Default for Verify {
    fn default() -> Verify {
        Verify::new()
    }
}

impl fmt::Debug for Verify {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Verify")
            .field("position", &self.replay.position)
            .field("coherent", &self.coherent)
            .field("half_moves", &self.replay.half_moves)
            .finish_non_exhaustive()
    }
}

impl Verify {
    /// A verify pass with no callback.
    pub fn new() -> Verify {
        Verify {
            replay: Replay::new(None),
            coherent: true,
            mate: None,
            on_game_end: None,
            last_move: None,
            incoherent: None,
            read_ids: false,
            id: None,
        }
    }

    /// Reads each game's `Id` tag for [`GameEnd::id`] (`--diagrams` names
    /// its files so): the pass is then handed the tags, which it otherwise
    /// does without.
    pub fn read_ids(mut self, yes: bool) -> Verify {
        self.read_ids = yes;
        self
    }

    /// How the main line of the game read last (`cx`'s) ended.
    pub(crate) fn game_end<'a>(&'a self, cx: &Context, left_out: bool) -> GameEnd<'a> {
        GameEnd {
            position: &self.replay.position,
            coherent: self.coherent,
            rejected: cx.has_error(),
            half_moves: self.replay.half_moves,
            line: cx.game_start.line,
            left_out,
            path: &[],
            number: cx.game_number,
            id: self.id.as_deref(),
            last_move: self.last_move.as_ref(),
            incoherent: self.incoherent.as_ref(),
        }
    }

    fn call_back(&self, cx: &Context, left_out: bool) {
        if let Some(hook) = &self.on_game_end {
            hook.call(&self.game_end(cx, left_out));
        }
    }

    /// Calls `f` at the end of every game with its final position, e.g. to
    /// print it as a PDTL (`--final-pdtl`), then, with
    /// [`crate::FilterBuilder::split_variations`], at the end of each of
    /// its variation games (see [`GameEnd`]). The pass lives inside the
    /// filter, so this is how the position gets out.
    pub fn on_game_end(mut self, f: impl FnMut(&GameEnd<'_>) + Send + 'static) -> Verify {
        self.on_game_end = Some(GameEndHook(Arc::new(Mutex::new(Box::new(f)))));
        self
    }

    /// The callback, for the writer to call at the end of variation games.
    pub(crate) fn game_end_hook(&self) -> Option<GameEndHook> {
        self.on_game_end.clone()
    }

    /// The position of the game being read (or the last one read).
    pub fn position(&self) -> &Position {
        &self.replay.position
    }

    /// Warns when `result`, the game's result line, says the side mated by
    /// its `#` move won ([`Pass::result`] calls it).
    pub fn check_result(&self, result: Outcome, cx: &mut Context) {
        let Some(m) = self.mate else {
            return;
        };
        let mated = m.by.other();
        if result.winner() == Some(mated) {
            cx.warn(
                m.pos,
                format!(
                    "move {} ({}) mates {mated}, but the result {} says {mated} won",
                    m.number,
                    m.by,
                    result.as_str()
                ),
            );
        }
    }
}

impl Pass for Verify {
    fn name(&self) -> &'static str {
        "verify"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        if self.read_ids {
            Interest::MOVES.union(Interest::TAGS)
        } else {
            Interest::MOVES
        }
    }

    fn tag(&mut self, tag: &Tag<'_>, _cx: &mut Context) -> Flow {
        if self.read_ids && tag.name == "Id" {
            self.id = Some(tag.value.to_string());
        }
        Flow::Keep
    }

    fn result(&mut self, result: Outcome, cx: &mut Context) {
        self.check_result(result, cx);
    }

    fn begin_game(&mut self, _cx: &mut Context) {
        self.replay = Replay::new(None);
        self.coherent = true;
        self.mate = None;
        self.last_move = None;
        self.incoherent = None;
        self.id = None;
    }

    fn setup(&mut self, pdtl: &mut Pdtl, cx: &mut Context) {
        let (position, warnings) = Position::from_pdtl_with_warnings(pdtl);
        for (problem, fix) in warnings {
            cx.warn_fixed(pdtl.pos, problem, fix);
        }
        self.replay = Replay {
            position,
            from_pdtl: true,
            half_moves: 0,
        };
    }

    fn half_move(&mut self, mv: &mut HalfMove, cx: &mut Context) -> Flow {
        self.replay_move(mv, cx);
        Flow::Keep
    }

    /// The callback waits for the verdict: whether the game is left out.
    fn verdict(&mut self, left_out: bool, cx: &Context) {
        self.call_back(cx, left_out);
    }
}

impl Verify {
    /// [`Pass::half_move`], which reads the move and changes nothing: what
    /// the chain hands a move no other pass wants (`Chain::replay`).
    pub(crate) fn replay_move(&mut self, mv: &HalfMove, cx: &mut Context) {
        if cx.depth != 0 {
            return;
        }
        self.mate = (mv.check == Some(Check::Mate)).then_some(Mate {
            by: mv.side,
            pos: mv.pos,
            number: mv.number,
        });
        // After the first fault the board no longer matches the game, so
        // whatever follows would only repeat it.
        if !self.coherent {
            return;
        }
        if let Some(e) = self.replay.numbering_fault(mv) {
            cx.error(mv.pos, incoherent(mv, &e));
        }
        match self.replay.play(mv) {
            Ok(()) => self.last_move = Some(*mv),
            Err(e) => {
                self.coherent = false;
                self.incoherent = Some(*mv);
                cx.error(mv.pos, incoherent(mv, &e));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::position::INITIAL_PDTL;
    use crate::verify::replay::initial_with_black_to_move;
    use crate::verify::tests::half_move;

    fn context() -> Context {
        Context::default()
    }

    #[test]
    fn a_result_that_says_the_mated_side_won_is_a_warning() {
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        for (side, n, text) in [(Side::White, 1, "H6-H12"), (Side::Black, 1, "GH26-Z11#")] {
            let mut mv = half_move(side, n, text);
            mv.pos = Pos {
                line: 7,
                offset: 11,
            };
            v.half_move(&mut mv, &mut cx);
        }
        v.check_result(Outcome::BlackWins, &mut cx);
        assert!(cx.diagnostics.is_empty(), "{:?}", cx.diagnostics);
        v.check_result(Outcome::WhiteWins, &mut cx);
        assert_eq!(cx.diagnostics.len(), 1);
        let d = &cx.diagnostics[0];
        assert_eq!(
            (d.severity, d.line, cx.offsets[0]),
            (crate::Severity::Warning, 7, 11)
        );
        assert_eq!(
            d.message,
            "move 1 (Black) mates White, but the result 3-0 says White won"
        );
    }

    #[test]
    fn the_pass_reports_the_first_incoherent_move_only() {
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        for (side, n, text) in [
            (Side::White, 1, "E7-E13"),
            (Side::Black, 1, "E19-E15"),
            (Side::White, 2, "E13-E15"),
        ] {
            v.half_move(&mut half_move(side, n, text), &mut cx);
        }
        assert_eq!(cx.diagnostics.len(), 1);
        assert_eq!(
            cx.diagnostics[0].message,
            "move 1 (Black) E19-E15: no piece at E19"
        );
    }

    #[test]
    fn without_a_pdtl_a_game_starting_with_black_is_incoherent() {
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        v.half_move(&mut half_move(Side::Black, 1, "E21-E15"), &mut cx);
        assert_eq!(cx.diagnostics.len(), 1);
        assert_eq!(
            cx.diagnostics[0].message,
            format!("move 1 (Black) E21-E15: without a PDTL the game starts from the initial setup with White to move; a game that starts with Black needs a PDTL with b to move (from the initial setup: [PDTL \"{}\"])", INITIAL_PDTL.replace(" w ", " b "))
        );
        assert_eq!(v.position(), &Position::initial(), "nothing was played");
        // That PDTL makes the same move coherent.
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        v.setup(
            &mut Pdtl::parse(&initial_with_black_to_move()).unwrap(),
            &mut cx,
        );
        v.half_move(&mut half_move(Side::Black, 1, "E21-E15"), &mut cx);
        assert!(cx.diagnostics.is_empty(), "{:?}", cx.diagnostics);
    }

    #[test]
    fn a_move_number_against_the_pdtl_is_an_error_and_the_replay_goes_on() {
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        let mut pdtl = Pdtl::parse("/27:1k/7:4P3/1:1K/ w -- - 0 12").unwrap();
        v.setup(&mut pdtl, &mut cx);
        v.half_move(&mut half_move(Side::White, 1, "G7-G9"), &mut cx);
        v.half_move(&mut half_move(Side::Black, 1, "KG27-G25"), &mut cx);
        assert_eq!(cx.diagnostics.len(), 1);
        assert_eq!(
            cx.diagnostics[0].message,
            "move 1 (White) G7-G9: the PDTL gives the move number 12, and the first move is numbered 1: number it 12., or change the PDTL's number"
        );
        assert_eq!(v.replay.half_moves, 2, "the board is still the game's");
    }

    #[test]
    fn a_castling_claim_the_board_contradicts_is_a_warning_naming_the_hex() {
        // The spec's DPTL: the rook that moved is the king's rook (RK).
        let dptl = "/28:v/27:1k/26:1jg/25:r1nr/24:pejep/23:pp2pp/22:2pjp2/21:4p3/11:3J4/9:4J3/8:3G3/7:2NN1P2/6:2P1Pd1/5:PPG2g/4:PE1EP/3:R3/2:2R/1:DK/0:V/ b KRrkr - 2";
        let mut pdtl = Pdtl::parse(dptl).unwrap();
        pdtl.pos = Pos { line: 8, offset: 0 };
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        v.setup(&mut pdtl, &mut cx);
        assert_eq!(cx.diagnostics.len(), 1);
        let d = &cx.diagnostics[0];
        assert_eq!(
            (d.severity, d.line, cx.offsets[0], d.message.as_str()),
            (
                crate::Severity::Warning,
                8,
                0,
                "PDTL castling field KRrkr says White's king's rook has not moved, but I3, its home hex, is empty: read as K (RK, the queen's rook on C3, fits the board)"
            )
        );
        assert!(v.position().to_string().contains(" b Krkr "));
        // A king away from home, a rook's home taken by another piece.
        for (value, warnings) in [
            (
                "/27:1k/3:R2R/2:K2/ w RKR - 0 1",
                vec!["PDTL castling field RKR says White's king has not moved, but G1, its home hex, is empty: read as -"],
            ),
            (
                "/27:1k/25:r2n/1:1K/ w -rkr - 0 1",
                vec!["PDTL castling field -rkr says Black's king's rook has not moved, but I25, its home hex, holds a Black knight (N): read as rk"],
            ),
            (
                "/27:1k/1:1K/ w -rkr - 0 1",
                vec![
                    "PDTL castling field -rkr says Black's queen's rook has not moved, but C25, its home hex, is empty: read as k",
                    "PDTL castling field -rkr says Black's king's rook has not moved, but I25, its home hex, is empty: read as k",
                ],
            ),
            ("/27:1k/25:r2r/3:R2R/1:1K/ w RKRrkr - 0 1", vec![]),
        ] {
            let (_, got) = Position::from_pdtl_with_warnings(&Pdtl::parse(value).unwrap());
            let got: Vec<String> = got.iter().map(|(p, f)| format!("{p}: {f}")).collect();
            assert_eq!(got, warnings, "{value}");
        }
    }

    #[test]
    fn with_a_pdtl_the_first_move_is_the_side_it_names() {
        let mut v = Verify::new();
        let mut cx = context();
        v.begin_game(&mut cx);
        let mut pdtl = Pdtl::parse("/27:1k/7:4P3/1:1K/ b -- - 0 12").unwrap();
        v.setup(&mut pdtl, &mut cx);
        v.half_move(&mut half_move(Side::White, 12, "G7-G9"), &mut cx);
        assert_eq!(
            cx.diagnostics[0].message,
            "move 12 (White) G7-G9: the PDTL gives the move to Black"
        );
    }
}
