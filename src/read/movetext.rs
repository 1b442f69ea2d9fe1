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

/// What is wrong with a move number, `...` or half-move where it stands;
/// made into a message only when reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    NumberZero,
    /// Too large: as written (the caller has the text), or reached.
    TooLarge(Option<u32>),
    UnknownNotFirst(u32),
    OutOfSequence {
        n: u32,
        next: u32,
    },
    BlackMissing {
        before: u32,
        n: u32,
    },
    NoMove {
        n: u32,
        after: u32,
    },
    EllipsisNotAtStart(u32),
    WhiteAlreadyPlayed(u32),
    /// White's move `n` after Black's, without its number `n.`: read as
    /// numbered, with a warning (see [`Fault::repair`]).
    NumberMissing(u32),
}

impl Fault {
    /// The message, for a number written `written` (when it is about one).
    pub fn message(self, written: &[u8]) -> String {
        match self {
            Fault::NumberZero => "move numbers start at 1".to_string(),
            Fault::TooLarge(None) => format!(
                "move number {} is too large (at most {MAX_MOVE_NUMBER})",
                String::from_utf8_lossy(written.split(|c| !c.is_ascii_digit()).next().unwrap_or(b""))
            ),
            Fault::TooLarge(Some(n)) => {
                format!("move number {n} is too large (at most {MAX_MOVE_NUMBER})")
            }
            Fault::UnknownNotFirst(n) => {
                format!("{n}? is only for the first move of a game whose start number is unknown")
            }
            Fault::OutOfSequence { n, next } => {
                format!("move number {n} out of sequence: {next} comes next")
            }
            Fault::BlackMissing { before, n } => {
                format!("Black's move {before} is missing before move {n}")
            }
            Fault::NoMove { n, after } => {
                format!("move number {n} follows move number {after} with no move")
            }
            Fault::EllipsisNotAtStart(n) => format!(
                "a Black move where White's move {n} is due: ... stands for White's move only at the start of a game"
            ),
            Fault::WhiteAlreadyPlayed(n) => {
                format!("White's move {n} was already played: write {n}. ..., MOVE for Black's")
            }
            Fault::NumberMissing(n) => format!("White's move {n} has no number"),
        }
    }

    /// How the fault is repaired, for one that is unambiguous (a warning,
    /// an error under `--strict`); `None` for an error.
    pub fn repair(self) -> Option<String> {
        match self {
            Fault::NumberMissing(n) => Some(format!("numbered {n}.")),
            _ => None,
        }
    }
}

impl Movetext {
    /// The result was read, or a half-move ended the game (`:`, mate).
    #[inline]
    pub fn ended(&self) -> bool {
        self.result.is_some() || self.end_seen
    }

    /// Black's move is due: a `,` may come.
    #[inline]
    pub fn black_due(&self) -> bool {
        self.expect == Expect::Black
    }

    /// White's move is due, and `...` may stand for it.
    #[inline]
    pub fn white_due(&self) -> bool {
        self.expect == Expect::White
    }

    /// A move number `n.` (or `n?` when `unknown`): what is wrong with it,
    /// if anything. The number is taken either way.
    #[inline]
    pub fn number(&mut self, n: u32, unknown: bool) -> Option<Fault> {
        let fault = match self.expect {
            Expect::Number
                if n == self.number.wrapping_add(1) && !unknown && n <= MAX_MOVE_NUMBER =>
            {
                None
            }
            _ => self.number_fault(n, unknown),
        };
        self.unknown_number = unknown;
        self.number = n;
        self.expect = Expect::White;
        self.awaiting_move = true;
        fault
    }

    #[cold]
    fn number_fault(&mut self, n: u32, unknown: bool) -> Option<Fault> {
        match self.expect {
            _ if n == 0 => Some(Fault::NumberZero),
            _ if n > MAX_MOVE_NUMBER => Some(Fault::TooLarge(None)),
            Expect::Start => None,
            _ if unknown => Some(Fault::UnknownNotFirst(n)),
            Expect::Number if n == self.number.saturating_add(1) => None,
            Expect::Number => Some(Fault::OutOfSequence {
                n,
                next: self.number.saturating_add(1),
            }),
            Expect::Black if n == self.number => {
                self.resuming = true;
                None
            }
            Expect::Black => Some(Fault::BlackMissing {
                before: self.number,
                n,
            }),
            Expect::White => Some(Fault::NoMove {
                n,
                after: self.number,
            }),
        }
    }

    /// `...` or `…` standing for White's move.
    pub fn ellipsis(&mut self) -> Option<Fault> {
        if self.expect == Expect::White && (!self.has_moves || self.resuming) {
            self.expect = Expect::Black;
            self.resuming = false;
            self.awaiting_move = true;
            return None;
        }
        Some(Fault::EllipsisNotAtStart(self.number))
    }

    /// A half-move: its number and side, and what is wrong, if anything.
    #[inline]
    pub fn half_move(&mut self) -> (u32, Side, Option<Fault>) {
        let mut fault = None;
        let side = match self.expect {
            Expect::White if !self.resuming => Side::White,
            Expect::Black => Side::Black,
            Expect::Start => {
                self.number = 1;
                Side::White
            }
            Expect::Number => {
                // Each move is numbered (the spec's "Sequence of moves"),
                // but the number a move after Black's carries is plain:
                // N+1, after `N?`'s pair too.
                self.number = self.number.saturating_add(1);
                self.unknown_number = false;
                fault = Some(if self.number > MAX_MOVE_NUMBER {
                    Fault::TooLarge(Some(self.number))
                } else {
                    Fault::NumberMissing(self.number)
                });
                Side::White
            }
            Expect::White => {
                fault = Some(Fault::WhiteAlreadyPlayed(self.number));
                Side::White
            }
        };
        self.expect = match side {
            Side::White => Expect::Black,
            Side::Black => Expect::Number,
        };
        self.has_moves = true;
        self.awaiting_move = false;
        (self.number, side, fault)
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
        let mated = self.mate_by.map(Outcome::mate_by);
        self.result.or(mated).or(tag).unwrap_or(Outcome::Unfinished)
    }
}
