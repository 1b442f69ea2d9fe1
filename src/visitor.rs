//! The reading API's shortest form: every game of an input read with a
//! [`Visitor`] of your own, as pgn-reader's users do.

use crate::read::{Reader, Visitor};
use std::io::{self, Read};

/// Reads every game of `input` with `visitor`, and hands it back with what
/// it made of each game ([`Visitor::end_game`]'s output), in order. I/O
/// errors end the run; bad games do not (their context has an error).
/// A thin helper over [`Reader::read_game`], which reads one game at a
/// time.
///
/// ```
/// use ctlpgn_filter::read::{GameEnd, MoveRead, Visitor};
/// use ctlpgn_filter::{read_games, Context};
///
/// /// Each game's main-line half-moves, and whether it is rejected.
/// #[derive(Default)]
/// struct Plies(u32);
///
/// impl Visitor for Plies {
///     type Output = (u32, bool);
///     fn begin_game(&mut self, _cx: &mut Context) {
///         self.0 = 0;
///     }
///     fn half_move(&mut self, m: &MoveRead<'_>, _cx: &mut Context) {
///         self.0 += u32::from(m.depth == 0);
///     }
///     fn end_game(&mut self, _end: &mut ctlpgn_filter::read::GameEnd<'_>, cx: &mut Context) -> (u32, bool) {
///         (self.0, cx.has_error())
///     }
/// }
///
/// let input = "[Variant \"C'escacs\"]\n1. E7-E13, E21-E15 (1. ..., F20-F16)\n2. F8-F12:\n*\n\n\
///              [Variant \"C'escacs\"]\n1. E7-E7:\n*\n";
/// let (_, games) = read_games(input.as_bytes(), Plies::default()).unwrap();
/// assert_eq!(games, [(3, false), (0, true)]); // E7-E7 goes nowhere: no half-move
/// ```
pub fn read_games<V: Visitor>(input: impl Read, mut visitor: V) -> io::Result<(V, Vec<V::Output>)> {
    let mut reader = Reader::new(input);
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut visitor)? {
        games.push(game);
    }
    Ok((visitor, games))
}
