//! The reading API: read games with a [`Visitor`] of your own, as
//! pgn-reader's users do, and get each game's items in order, already
//! normalised by the built-in passes (standard letters, ASCII separators,
//! ratings dropped), without writing any output.

use crate::diag::Diagnostic;
use crate::filter::FilterBuilder;
use crate::grammar::model::{HalfMove, Outcome};
use crate::passes::{Context, Flow, Interest, Pass, Tag, Variation};
use crate::pdtl::Pdtl;
use crate::report::Report;
use std::io::{self, Read};
use std::sync::{Arc, Mutex, PoisonError};

/// What a reader of games hands you, game by game, in input order. Every
/// method has a default that does nothing: write only those you need.
///
/// Counting games and moves per player:
///
/// ```
/// use ctlpgn_filter::{read_games, HalfMove, Side, Visitor};
/// use std::collections::BTreeMap;
///
/// #[derive(Default)]
/// struct PerPlayer {
///     white: String,
///     black: String,
///     moves: u32,
///     /// Games and half-moves by player.
///     seen: BTreeMap<String, (u32, u32)>,
/// }
///
/// impl Visitor for PerPlayer {
///     fn begin_game(&mut self) {
///         (self.white, self.black, self.moves) = ("?".into(), "?".into(), 0);
///     }
///     fn tag(&mut self, name: &str, value: &str) {
///         match name {
///             "White" => self.white = value.to_string(),
///             "Black" => self.black = value.to_string(),
///             _ => {}
///         }
///     }
///     fn half_move(&mut self, mv: &HalfMove, _depth: u32) {
///         let player = if mv.side == Side::White { &self.white } else { &self.black };
///         self.seen.entry(player.clone()).or_default().1 += 1;
///         self.moves += 1;
///     }
///     fn end_game(&mut self, _game: &ctlpgn_filter::GameRead) {
///         for player in [&self.white, &self.black] {
///             self.seen.entry(player.clone()).or_default().0 += 1;
///         }
///     }
/// }
///
/// let input = "[Variant \"C'escacs\"]\n[White \"Ada\"]\n[Black \"Bo\"]\n\
///              1. E7-E13, E21-E15\n2. F8-F12:\n*\n\n\
///              [Variant \"C'escacs\"]\n[White \"Bo\"]\n[Black \"Ada\"]\n1. E7-E13:\n*\n";
/// let (counts, report) = read_games(input.as_bytes(), PerPlayer::default()).unwrap();
/// assert_eq!(report.games_read, 2);
/// assert_eq!(counts.seen["Ada"], (2, 2)); // two games, two half-moves
/// assert_eq!(counts.seen["Bo"], (2, 2));
/// ```
///
///
/// The items are those a minimal reader sees once the built-in passes have
/// run: letters standard, separators ASCII, ratings gone; comments and
/// variations only when [`Visitor::wants`] asks for them (else they are
/// skipped unread). It is `Send + 'static` as a [`Pass`] is: it is lent
/// to the filter's chain for the run, and handed back at its end.
pub trait Visitor: Send + 'static {
    /// Items beyond the tags, the start, the half-moves and the end:
    /// [`Interest::COMMENTS`], [`Interest::VARIATIONS`] (their edges, and
    /// the half-moves inside, at a depth above 0). Asked once, before
    /// reading.
    fn wants(&self) -> Interest {
        Interest::NONE
    }

    /// A game starts.
    fn begin_game(&mut self) {}

    /// A tag pair, in input order, as the output writes it (`PDTL` comes
    /// as [`Visitor::setup`]; a `Redefine` tag, undone, is gone).
    fn tag(&mut self, _name: &str, _value: &str) {}

    /// The game's `PDTL` start position, when it has one.
    fn setup(&mut self, _pdtl: &Pdtl) {}

    /// A half-move, at variation `depth` (0 on the main line).
    fn half_move(&mut self, _mv: &HalfMove, _depth: u32) {}

    /// A comment's text, without its braces.
    fn comment(&mut self, _text: &str) {}

    /// A variation opens or closes.
    fn variation(&mut self, _edge: Variation) {}

    /// The game ends.
    fn end_game(&mut self, _game: &GameRead) {}

    /// A diagnostic, once its game has ended (after [`Visitor::end_game`]).
    fn diagnostic(&mut self, _diagnostic: &Diagnostic) {}
}

/// How a game read ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GameRead {
    /// The result it is written with, as its result line and ndjson's
    /// `result` say: the result read, else the winner of a `#` move, else
    /// the `Result` tag's, else `*` (what it would be written with, for a
    /// game rejected).
    pub result: Outcome,
    /// It has an error: the filter would reject it (its diagnostics follow).
    pub rejected: bool,
    /// The line of its first byte.
    pub line: u64,
}

/// Reads every game of `input` with `visitor`, and hands it back with the
/// counts of the run. I/O errors end the run; bad games do not (they end
/// with [`GameRead::rejected`], and their diagnostics follow).
///
/// Each game's tags and final position, played on a [`Position`](crate::Position)
/// from the game's `PDTL` (or the initial setup):
///
/// ```
/// use ctlpgn_filter::{read_games, GameRead, HalfMove, Pdtl, Position, Visitor};
///
/// #[derive(Default)]
/// struct Finals {
///     tags: Vec<(String, String)>,
///     position: Option<Position>,
///     games: Vec<(Vec<(String, String)>, String)>,
/// }
///
/// impl Visitor for Finals {
///     fn begin_game(&mut self) {
///         self.tags.clear();
///         self.position = Some(Position::initial());
///     }
///     fn tag(&mut self, name: &str, value: &str) {
///         self.tags.push((name.to_string(), value.to_string()));
///     }
///     fn setup(&mut self, pdtl: &Pdtl) {
///         self.position = Some(Position::from_pdtl(pdtl));
///     }
///     fn half_move(&mut self, mv: &HalfMove, depth: u32) {
///         if let (0, Some(p)) = (depth, &mut self.position) {
///             // A move that cannot be played leaves no position to report.
///             if p.play(mv).is_err() {
///                 self.position = None;
///             }
///         }
///     }
///     fn end_game(&mut self, game: &GameRead) {
///         let fen = match (&self.position, game.rejected) {
///             (Some(p), false) => p.to_pdtl().to_string(),
///             _ => "-".to_string(),
///         };
///         self.games.push((std::mem::take(&mut self.tags), fen));
///     }
/// }
///
/// let input = "[Variant \"C'escacs\"]\n[Event \"Demo\"]\n1. E7-E13, E21-E15:\n*\n";
/// let (finals, _) = read_games(input.as_bytes(), Finals::default()).unwrap();
/// let (tags, pdtl) = &finals.games[0];
/// assert_eq!(tags[1], ("Event".to_string(), "Demo".to_string()));
/// // As `ctlpgn-filter --check --final-pdtl` prints it.
/// assert_eq!(
///     pdtl,
///     "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:4p3/20:3p3/15:3p4/\
///      13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ w RKRrkr E15@17-19 0 2"
/// );
/// ```
pub fn read_games<V: Visitor>(input: impl Read, visitor: V) -> io::Result<(V, Report)> {
    let wants = visitor.wants();
    let shared = Arc::new(Mutex::new(Visiting { visitor }));
    let mut filter = FilterBuilder::new()
        .keep_comments(wants.contains(Interest::COMMENTS))
        .keep_variations(wants.contains(Interest::VARIATIONS))
        .pass(Box::new(Adapter {
            shared: shared.clone(),
            wants,
        }))
        .build();
    let on_diagnostic = &mut |d: &Diagnostic| lock(&shared).visitor.diagnostic(d);
    let report = filter.run(input, &mut io::sink(), on_diagnostic)?;
    drop(filter);
    let visiting = Arc::into_inner(shared).expect("the filter, and its pass, are dropped");
    let visitor = visiting
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .visitor;
    Ok((visitor, report))
}

/// The visitor, as the filter's pass and its diagnostics' callback share it.
struct Visiting<V> {
    visitor: V,
}

fn lock<V>(shared: &Mutex<Visiting<V>>) -> std::sync::MutexGuard<'_, Visiting<V>> {
    // A visitor that panicked ends the run anyway (the panic goes on).
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The last pass of the chain: hands the visitor what survives the others.
/// The visitor is shared with the diagnostics' callback, on the same
/// thread, so its lock is never contended.
struct Adapter<V> {
    shared: Arc<Mutex<Visiting<V>>>,
    wants: Interest,
}

impl<V: Visitor> Pass for Adapter<V> {
    fn name(&self) -> &'static str {
        "visitor"
    }

    fn interest(&self, _cx: &Context) -> Interest {
        self.wants | Interest::TAGS | Interest::MOVES
    }

    fn begin_game(&mut self, _cx: &mut Context) {
        lock(&self.shared).visitor.begin_game();
    }

    fn tag(&mut self, tag: &Tag<'_>, _cx: &mut Context) -> Flow {
        lock(&self.shared).visitor.tag(tag.name, tag.value);
        Flow::Keep
    }

    fn setup(&mut self, pdtl: &mut Pdtl, _cx: &mut Context) {
        lock(&self.shared).visitor.setup(pdtl);
    }

    fn half_move(&mut self, mv: &mut HalfMove, cx: &mut Context) -> Flow {
        lock(&self.shared).visitor.half_move(mv, cx.depth);
        Flow::Keep
    }

    fn comment(&mut self, text: &mut [u8], _cx: &mut Context) -> Flow {
        // Comments reach the passes as UTF-8: the reader checks it first.
        lock(&self.shared)
            .visitor
            .comment(&String::from_utf8_lossy(text));
        Flow::Keep
    }

    fn variation(&mut self, edge: Variation, _cx: &mut Context) -> Flow {
        lock(&self.shared).visitor.variation(edge);
        Flow::Keep
    }

    /// The game ends here, once its result written is known (after every
    /// pass's `end_game`).
    fn result_written(&mut self, result: Outcome, cx: &mut Context) {
        let game = GameRead {
            result,
            rejected: cx.has_error(),
            line: cx.game_start.line,
        };
        lock(&self.shared).visitor.end_game(&game);
    }
}
