//! Games and half-moves per player, read with a visitor of the crate's
//! reader: each game's players are its `White` and `Black` tags, and its
//! main-line half-moves are counted for the player who made each.
//!
//!     cargo run --release --example per_player < corpus/real-2022-08-14.1.ctl-pgn
//!
//! Prints one line per player, `games half-moves name`, sorted by name.

use ctlpgn_filter::read::{GameEnd, MoveRead, Reader, TagRead, Visitor};
use ctlpgn_filter::{Context, Side};
use std::collections::BTreeMap;
use std::io::{self, Write};

/// What the visitor keeps: the game under way's players and counts, and
/// the totals of the games read.
#[derive(Default)]
struct PerPlayer {
    white: String,
    black: String,
    /// Half-moves of the game under way, White's and Black's.
    moves: [u32; 2],
    /// Games and half-moves by player.
    seen: BTreeMap<String, (u32, u32)>,
}

impl Visitor for PerPlayer {
    type Output = ();

    fn begin_game(&mut self, _cx: &mut Context) {
        // What a game does not say is `?`, as PGN has it.
        self.white = "?".into();
        self.black = "?".into();
        self.moves = [0, 0];
    }

    fn tag(&mut self, t: &TagRead<'_>, _cx: &mut Context) {
        match t.tag.name {
            "White" => self.white = t.tag.value.to_string(),
            "Black" => self.black = t.tag.value.to_string(),
            _ => {}
        }
    }

    fn half_move(&mut self, m: &MoveRead<'_>, _cx: &mut Context) {
        if m.depth == 0 {
            self.moves[usize::from(m.side() == Side::Black)] += 1;
        }
    }

    fn end_game(&mut self, _end: &mut GameEnd<'_>, _cx: &mut Context) {
        for (player, moves) in [(&self.white, self.moves[0]), (&self.black, self.moves[1])] {
            let seen = self.seen.entry(player.clone()).or_default();
            seen.0 += 1;
            seen.1 += moves;
        }
    }
}

/// The totals of `input`, read game by game.
fn per_player(input: impl io::Read) -> io::Result<BTreeMap<String, (u32, u32)>> {
    let mut reader = Reader::new(input);
    let mut visitor = PerPlayer::default();
    while reader.read_game(&mut visitor)?.is_some() {}
    Ok(visitor.seen)
}

fn main() -> io::Result<()> {
    let seen = per_player(io::stdin().lock())?;
    let mut out = io::stdout().lock();
    for (player, (games, moves)) in &seen {
        writeln!(out, "{games} {moves} {player}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_player_counts_the_games_and_half_moves_of_either_colour() {
        let input = "[Variant \"C'escacs\"]\n[White \"Ada\"]\n[Black \"Bo\"]\n\
                     1. E7-E13, E21-E15\n2. F8-F12:\n*\n\n\
                     [Variant \"C'escacs\"]\n[White \"Bo\"]\n1. E7-E13:\n*\n";
        let seen = per_player(input.as_bytes()).unwrap();
        assert_eq!(seen["Ada"], (1, 2));
        assert_eq!(seen["Bo"], (2, 2));
        assert_eq!(seen["?"], (1, 0));
    }

    #[test]
    fn half_moves_inside_variations_are_not_counted() {
        let input = "[Variant \"C'escacs\"]\n[White \"Ada\"]\n[Black \"Bo\"]\n\
                     1. E7-E13 (1. F8-F12, F20-F16), E21-E15:\n*\n";
        let seen = per_player(input.as_bytes()).unwrap();
        assert_eq!((seen["Ada"], seen["Bo"]), ((1, 1), (1, 1)));
    }
}
