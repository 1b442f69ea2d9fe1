//! The movetext's state machine: move numbers and whose move it is, the
//! end marker and mate, the result. The reader feeds it tokens and asks
//! it where the game stands; it says what is wrong, never where.

use crate::grammar::model::{Outcome, Side};

/// No game comes near it; a larger number is a typo.
pub(crate) const MAX_MOVE_NUMBER: u32 = 99_999;

/// Where the main line's numbering stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    /// No move yet.
    Start,
    /// A number was read: White's move (or `...`) comes.
    White,
    /// White moved (or `...`): Black's move comes.
    Black,
    /// Black moved: the next number comes.
    Number,
}

/// The main line of one game.
#[derive(Clone, Debug)]
pub(crate) struct Movetext {
    expect: Expect,
    /// The number of the move being read.
    pub number: u32,
    /// It was written `N?` (an unknown start number).
    pub unknown_number: bool,
    /// `N.` repeated after White's move N, to resume with `...` for Black.
    resuming: bool,
    /// A half-move was read.
    pub has_moves: bool,
    /// The last half-move read ends the game (`:` or `#`).
    pub last_move_ends: bool,
    /// A half-move ended the game (`:` or `#`).
    pub end_seen: bool,
    /// Who gave mate, if a half-move did.
    pub mate_by: Option<Side>,
    /// The result read.
    pub result: Option<Outcome>,
    /// A number or `...` was read, and no half-move after it yet.
    awaiting_move: bool,
}

impl Default for Movetext {
    fn default() -> Movetext {
        Movetext {
            expect: Expect::Start,
            number: 0,
            unknown_number: false,
            resuming: false,
            has_moves: false,
            last_move_ends: false,
            end_seen: false,
            mate_by: None,
            result: None,
            awaiting_move: false,
        }
    }
}

impl Movetext {
    /// The result was read, or a half-move ended the game (`:`, mate).
    pub fn ended(&self) -> bool {
        self.result.is_some() || self.end_seen
    }

    /// Black's move is due: a `,` may come.
    pub fn black_due(&self) -> bool {
        self.expect == Expect::Black
    }

    /// White's move is due, and `...` may stand for it.
    pub fn white_due(&self) -> bool {
        self.expect == Expect::White
    }

    /// A move number `n.` (or `n?` when `unknown`), `written` so: what is
    /// wrong with it, if anything. The number is taken either way.
    pub fn number(&mut self, n: u32, unknown: bool, written: &[u8]) -> Option<String> {
        let problem = match self.expect {
            _ if n == 0 => Some("move numbers start at 1".to_string()),
            _ if n > MAX_MOVE_NUMBER => Some(format!(
                "move number {} is too large (at most {MAX_MOVE_NUMBER})",
                String::from_utf8_lossy(&written[..written.len() - 1])
            )),
            Expect::Start => None,
            _ if unknown => Some(format!(
                "{n}? is only for the first move of a game whose start number is unknown"
            )),
            Expect::Number if n == self.number.saturating_add(1) => None,
            Expect::Number => Some(format!(
                "move number {n} out of sequence: {} comes next",
                self.number.saturating_add(1)
            )),
            Expect::Black if n == self.number => {
                self.resuming = true;
                None
            }
            Expect::Black => Some(format!(
                "Black's move {} is missing before move {n}",
                self.number
            )),
            Expect::White => Some(format!(
                "move number {n} follows move number {} with no move",
                self.number
            )),
        };
        self.unknown_number = unknown;
        self.number = n;
        self.expect = Expect::White;
        self.awaiting_move = true;
        problem
    }

    /// `...` or `…` standing for White's move.
    pub fn ellipsis(&mut self) -> Option<String> {
        if self.expect == Expect::White && (!self.has_moves || self.resuming) {
            self.expect = Expect::Black;
            self.resuming = false;
            self.awaiting_move = true;
            return None;
        }
        Some(format!(
            "a Black move where White's move {} is due: ... stands for White's move only at the start of a game",
            self.number
        ))
    }

    /// A half-move: its number and side, and what is wrong, if anything.
    pub fn half_move(&mut self) -> (u32, Side, Option<String>) {
        let mut problem = None;
        let side = match self.expect {
            Expect::Start => {
                self.number = 1;
                Side::White
            }
            Expect::Number => {
                // An unnumbered move after `N?`'s pair is plainly N+1.
                self.number = self.number.saturating_add(1);
                self.unknown_number = false;
                if self.number > MAX_MOVE_NUMBER {
                    problem = Some(format!(
                        "move number {} is too large (at most {MAX_MOVE_NUMBER})",
                        self.number
                    ));
                }
                Side::White
            }
            Expect::White if self.resuming => {
                let n = self.number;
                problem = Some(format!(
                    "White's move {n} was already played: write {n}. ..., MOVE for Black's"
                ));
                Side::White
            }
            Expect::White => Side::White,
            Expect::Black => Side::Black,
        };
        self.expect = match side {
            Side::White => Expect::Black,
            Side::Black => Expect::Number,
        };
        self.has_moves = true;
        self.awaiting_move = false;
        (self.number, side, problem)
    }

    /// What the movetext lacks at its end: the move after its last
    /// number or `...`.
    pub fn dangling(&self) -> Option<String> {
        if !self.awaiting_move {
            return None;
        }
        Some(match self.expect {
            Expect::Black => format!(
                "move {}: ... stands for White's move, and Black's move must follow it",
                self.number
            ),
            _ => format!("move number {} has no move after it", self.number),
        })
    }

    /// The last half-move read, once its annotations are in: does it end
    /// the game (`:`), and did it mate?
    pub fn move_ends(&mut self, end_marker: bool, mate_by: Option<Side>) {
        self.last_move_ends = end_marker || mate_by.is_some();
        self.end_seen |= self.last_move_ends;
        if mate_by.is_some() {
            self.mate_by = mate_by;
        }
    }

    /// The result the game is written with: the one read; else the winner
    /// of a `#` move; else the `Result` tag's; else `*`.
    pub fn outcome(&self, tag: Option<Outcome>) -> Outcome {
        let mated = self.mate_by.map(|s| match s {
            Side::White => Outcome::WhiteWins,
            Side::Black => Outcome::BlackWins,
        });
        self.result.or(mated).or(tag).unwrap_or(Outcome::Unfinished)
    }
}
