//! Hostile inputs: shapes made to find time or memory that grows faster
//! than the input (a rescan of a long line, a copy per nesting level, a
//! search of every variation for each one). Each [`Hostile`] is a shape
//! and the options it is run with; [`Hostile::write`] writes it at any
//! size, so that a run at one size and at four times it can be compared:
//! linear work grows 4x, quadratic 16x.
//!
//! Shared by `tests/hostile.rs` (which asserts the growth) and the
//! `hostile` example (which writes them for `scripts/hostile.sh`).

#![allow(dead_code)] // each user takes what it needs

use std::io::{self, Write};

const VARIANT: &[u8] = b"[Variant \"C'escacs\"]\n";

/// How a shape is built: `head`, then `unit` repeated up to the size,
/// then, for nesting, `close` as often as `unit` (or, with `block`, after
/// each `block` units as many `close`), then `tail`.
#[derive(Clone, Copy, Debug)]
pub struct Hostile {
    pub name: &'static str,
    pub args: &'static [&'static str],
    head: &'static [u8],
    unit: &'static [u8],
    close: &'static [u8],
    tail: &'static [u8],
    /// Units nested at most this deep, then closed, over and over (0: all
    /// of them nested in one another).
    block: usize,
}

/// `unit`s on one line: the game line when `head` starts a game.
const fn line(
    name: &'static str,
    args: &'static [&'static str],
    head: &'static [u8],
    unit: &'static [u8],
) -> Hostile {
    Hostile {
        name,
        args,
        head,
        unit,
        close: b"",
        tail: b"\n",
        block: 0,
    }
}

/// `(unit` nested, then as many `)`, in one game: rejected once past the
/// default depth limit, the rest only counted.
const fn nested(name: &'static str, args: &'static [&'static str]) -> Hostile {
    Hostile {
        name,
        args,
        head: b"[Variant \"C'escacs\"]\n\n1. E7-E13 ",
        unit: b"(1. F8-F12 {c} ",
        close: b")",
        tail: b" *\n",
        block: 0,
    }
}

/// [`nested`] as deep as the default depth limit allows, closed, and again,
/// in one game that is written: its output is a bounded multiple of it.
const fn nested_to_the_limit(name: &'static str, args: &'static [&'static str]) -> Hostile {
    Hostile {
        block: ctlpgn_filter::DEFAULT_MAX_DEPTH as usize,
        ..nested(name, args)
    }
}

const GAME: &[u8] = b"[Variant \"C'escacs\"]\n1. E7-E13 ";

/// Every shape.
pub const ALL: &[Hostile] = &[
    line("e-acute", &[], VARIANT, "é".as_bytes()),
    line("han", &[], VARIANT, "中".as_bytes()),
    line("byte-ff", &[], VARIANT, b"\xff"),
    line("byte-80", &[], VARIANT, b"\x80"),
    line("combining", &[], VARIANT, "e\u{301}".as_bytes()),
    line("words", &[], b"", b"a "),
    line("pgn-moves", &[], b"", b"1. e4 e5 "),
    line("castles", &[], b"", b"O-O "),
    line("moves", &[], b"", b"1. E7-E14 "),
    line("moves-and-results", &[], b"", b"1. E7-E14: 3-0 "),
    line("empty-variations", &[], GAME, b"() "),
    line("sibling-variations", &[], GAME, b"(1. F8-F12) "),
    line(
        "sibling-variations-kept",
        &["--keep-variations"],
        GAME,
        b"(1. F8-F12) ",
    ),
    line(
        "sibling-variations-ndjson",
        &["--keep-variations", "--format", "ndjson"],
        GAME,
        b"(1. F8-F12) ",
    ),
    line(
        "sibling-variations-split",
        &["--split-variations"],
        GAME,
        b"(1. F8-F12) ",
    ),
    line(
        "sibling-variations-split-verify",
        &["--split-variations", "--verify"],
        GAME,
        b"(1. F8-F12) ",
    ),
    line(
        "sibling-variations-split-errors",
        &["--split-variations"],
        GAME,
        b"(1. F8xF12) ",
    ),
    line(
        "games",
        &[],
        b"",
        b"[Variant \"C'escacs\"] 1. E7-E13, E21-E15: * ",
    ),
    line(
        "errors",
        &["--all-diagnostics"],
        b"",
        b"[Variant \"C'escacs\"] 1. E7xE13: * ",
    ),
    line("warnings", &["--all-diagnostics"], b"", b"1. E7-E13: * "),
    line("comment-words", &["--keep-comments"], GAME, b"{a} "),
    line("ratings", &[], GAME, b"!? "),
    line(
        "cr-only",
        &[],
        b"",
        b"[Variant \"C'escacs\"]\r1. E7-E13, E21-E15:\r*\r\r",
    ),
    line(
        "tag-and-unclosed-comment",
        &[],
        b"",
        b"[Event \"x\"] {\nsome text here\n",
    ),
    line(
        "tag-and-unclosed-comment-jobs",
        &["--jobs", "2"],
        b"",
        b"[Event \"x\"] {\nsome text here\n",
    ),
    line(
        "tag-and-unclosed-comment-kept",
        &["--keep-comments"],
        b"",
        b"[Event \"x\"] {\nsome text here\n",
    ),
    line(
        "tag-and-unclosed-comment-cut",
        &["--cut", "64K"],
        b"",
        b"[Event \"x\"] {\nsome text here\n",
    ),
    nested("nesting", &[]),
    nested(
        "nesting-ndjson",
        &["--keep-comments", "--keep-variations", "--format", "ndjson"],
    ),
    nested(
        "nesting-kept",
        &["--keep-comments", "--keep-variations", "--keep-ratings"],
    ),
    nested("nesting-split", &["--split-variations", "--keep-comments"]),
    nested("nesting-split-verify", &["--split-variations", "--verify"]),
    nested_to_the_limit(
        "nesting-to-the-limit-ndjson",
        &["--keep-comments", "--keep-variations", "--format", "ndjson"],
    ),
    nested_to_the_limit(
        "nesting-to-the-limit-kept",
        &["--keep-comments", "--keep-variations"],
    ),
    nested_to_the_limit("nesting-to-the-limit-split", &["--split-variations"]),
    // A word that is no move at every depth: no variation game is written,
    // and not one error per game names its path (as long as its depth).
    Hostile {
        name: "nesting-split-errors",
        args: &["--split-variations"],
        block: 0,
        head: b"[Variant \"C'escacs\"]\n\n1. E7-E13 ",
        unit: b"(1. F8xF12 ",
        close: b")",
        tail: b" *\n",
    },
];

impl Hostile {
    pub fn named(name: &str) -> Option<Hostile> {
        ALL.iter().find(|h| h.name == name).copied()
    }

    /// How many units make about `bytes` bytes.
    fn units(&self, bytes: usize) -> usize {
        bytes.saturating_sub(self.head.len() + self.tail.len())
            / (self.unit.len() + self.close.len())
    }

    /// The length of what [`Hostile::write`] writes.
    pub fn len(&self, bytes: usize) -> usize {
        let n = self.units(bytes);
        self.head.len() + n * (self.unit.len() + self.close.len()) + self.tail.len()
    }

    /// Writes the shape in about `bytes` bytes (see [`Hostile::units`]).
    pub fn write(&self, out: &mut dyn Write, bytes: usize) -> io::Result<()> {
        let mut n = self.units(bytes);
        let block = if self.block == 0 { n } else { self.block };
        out.write_all(self.head)?;
        while n > 0 {
            let k = n.min(block);
            for _ in 0..k {
                out.write_all(self.unit)?;
            }
            for _ in 0..k {
                out.write_all(self.close)?;
            }
            n -= k;
        }
        out.write_all(self.tail)
    }
}
