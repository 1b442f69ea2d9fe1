//! Any bytes in, with the default passes and with every drop pass off:
//!
//! - no panic, and every game read is written or rejected;
//! - whatever is written is canonical (filtering it again changes nothing);
//! - every input byte belongs to exactly one game or to the blank space
//!   before the first: with every game rejected, the rejects are the input
//!   but that blank space;
//! - what the passes do not ask for changes nothing (a pass that takes
//!   every item in the chain gives the same output, diagnostics, counts);
//! - `--jobs` changes nothing: on two threads, in chunks of a few bytes,
//!   the output, rejects, diagnostics and counts are one thread's;
//! - `--cut` is sound: its pieces are the input but that blank space, and
//!   filtered apart they give the output, rejects and counts of the whole;
//! - `--split-variations` writes canonical games, the first of them the
//!   game without its variations;
//! - `--verify` writes canonical games, each of them one the run without it
//!   writes, and its output verifies again with no error;
//! - ndjson is one JSON object a game written, each parsed back;
//! - every diagnostic names a line of the input and a column on it (or
//!   just past its end);
//! - a compressed input cut short (gzip, zstd or xz, cut anywhere) reads as
//!   the text decoded before the cut, a file ending there, but for the game
//!   cut short, which is rejected; on one thread as on two in small chunks;
//! - with games left out (`--dedup`, `--tag`, `--plies`, `--reaches`,
//!   `--stop-after`, alone and together): every game read is written,
//!   rejected or left out; the rejects and the duplicates hold only whole
//!   games as read; the output is canonical and has no duplicate left;
//!   `--jobs 2` in chunks of a few bytes is one thread (duplicates
//!   included); `--cut` leaves out what the filter leaves out, and its
//!   pieces filtered apart give the whole's output and rejects.
//!
//! Each input is checked as it comes, and as the recipe for a text built
//! of the grammar's tokens (`grammar_soup`): byte-level mutations rarely
//! build a tag glued to a folded move, a join of two games, or a dash
//! between blanks, which are where readers disagree.
#![no_main]

use ctlpgn_filter::{
    cut_at_games, decode, run_parallel, run_parallel_into, Context, Diagnostic, FilterBuilder,
    Flow, Format, HalfMove, Origin, Pass, Pdtl, Report, Sinks, TagPattern, Variation, Verify,
};
use libfuzzer_sys::fuzz_target;

// The grammar soup, and the blank space before the first game, as the
// fast target states them.
#[allow(dead_code)]
#[path = "../../tests/support/invariants.rs"]
mod invariants;
use invariants::leading_blanks;
use invariants::soup::grammar_soup;
use std::io::Read;

/// Changes nothing, and takes every item.
struct Unchanged;

impl Pass for Unchanged {
    fn name(&self) -> &'static str {
        "unchanged"
    }
}

/// Rejects every game.
struct RejectAll;

impl Pass for RejectAll {
    fn name(&self) -> &'static str {
        "reject-all"
    }
    fn begin_game(&mut self, cx: &mut Context) {
        cx.error(cx.game_start, "rejected");
    }
}

/// Drops the variations the reader has read, and what they hold.
struct DropVariationsRead;

impl Pass for DropVariationsRead {
    fn name(&self) -> &'static str {
        "drop-variations-read"
    }
    fn half_move(&mut self, _mv: &mut HalfMove, cx: &mut Context) -> Flow {
        if cx.depth > 0 {
            Flow::Drop
        } else {
            Flow::Keep
        }
    }
    fn comment(&mut self, _text: &mut [u8], cx: &mut Context) -> Flow {
        if cx.depth > 0 {
            Flow::Drop
        } else {
            Flow::Keep
        }
    }
    fn variation(&mut self, _edge: Variation, _cx: &mut Context) -> Flow {
        Flow::Drop
    }
}

type Run = (Vec<u8>, Vec<u8>, Vec<Diagnostic>, Report);

/// A run into every sink: output, rejects, duplicates, diagnostics, counts.
type Sorted = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<Diagnostic>, Report);

/// After `1. E7-E13`: Black to move.
const AFTER_E13: &str = "/28:v/27:dk/26:gjg/25:rnnr/24:pejep/23:ppeepp/22:2pjp2/21:3pp3/20:3p3/\
    13:3P4/8:3P3/7:4P3/6:2PJP2/5:PPEEPP/4:PEJEP/3:RNNR/2:GJG/1:DK/0:V/ b RKRrkr E13@9-11 0 1";

/// The options that leave games out, alone and together.
fn leaving_out(which: usize) -> FilterBuilder {
    let b = FilterBuilder::new();
    match which {
        0 => b.dedup(true),
        1 => b.dedup(true).dedup_result(true).stop_after(Some(2)),
        2 => b
            .select_tag(TagPattern::parse("Event=*a*").unwrap())
            .plies(1..=6),
        3 => b
            .reaches(&Pdtl::parse(AFTER_E13).unwrap())
            .keep_variations(true)
            .keep_comments(true),
        _ => b
            .dedup(true)
            .select_tag(TagPattern::parse("Variant=*").unwrap())
            .plies(2..=u32::MAX)
            .stop_after(Some(4)),
    }
}

/// `data` filtered into every sink, on one thread or, with `chunk`, on two.
fn sorted(which: usize, data: &[u8], chunk: Option<usize>) -> Sorted {
    let (mut out, mut rejects, mut duplicates, mut diagnostics) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let sinks = Sinks {
        out: &mut out,
        rejects: Some(&mut rejects),
        duplicates: Some(&mut duplicates),
        on_diagnostic: &mut |d| diagnostics.push(d.clone()),
    };
    let report = match chunk {
        None => leaving_out(which)
            .build()
            .run_into(Origin::START, data, sinks)
            .expect("memory does not fail"),
        Some(chunk) => {
            let make = move || leaving_out(which).build();
            run_parallel_into(&make, data, 2, chunk, sinks).expect("memory does not fail")
        }
    };
    (out, rejects, duplicates, diagnostics, report)
}

/// Notes where each game starts.
struct Starts(std::sync::Arc<std::sync::Mutex<Vec<u64>>>);

impl Pass for Starts {
    fn name(&self) -> &'static str {
        "starts"
    }
    fn interest(&self, _cx: &Context) -> ctlpgn_filter::Interest {
        ctlpgn_filter::Interest::NONE
    }
    fn begin_game(&mut self, cx: &mut Context) {
        self.0
            .lock()
            .expect("one thread")
            .push(cx.game_start.offset);
    }
}

/// Each game of `data`, as the reader reads it: from its first byte to
/// the next game's.
fn games_of(data: &[u8]) -> Vec<&[u8]> {
    let starts = std::sync::Arc::default();
    let mut filter = FilterBuilder::new()
        .pass(Box::new(Starts(std::sync::Arc::clone(&starts))))
        .build();
    filter
        .run(data, &mut std::io::sink(), &mut |_| {})
        .expect("memory does not fail");
    let mut starts = starts.lock().expect("one thread").clone();
    starts.push(data.len() as u64);
    starts
        .windows(2)
        .map(|w| &data[w[0] as usize..w[1] as usize])
        .collect()
}

/// Is `part` made of whole games of `games`, in order (some of them)?
fn whole_games_of(part: &[u8], games: &[&[u8]]) -> bool {
    // Where in `part` the games so far can have brought us.
    let mut at = vec![false; part.len() + 1];
    at[0] = true;
    for g in games {
        for i in (0..part.len()).rev() {
            if at[i] && part[i..].starts_with(g) {
                at[i + g.len()] = true;
            }
        }
    }
    at[part.len()]
}

fn run(builder: FilterBuilder, data: &[u8]) -> Run {
    let (mut out, mut rejects, mut diagnostics) = (Vec::new(), Vec::new(), Vec::new());
    let report = builder
        .build()
        .run_with_rejects(data, &mut out, Some(&mut rejects), &mut |d| {
            diagnostics.push(d.clone())
        })
        .expect("memory does not fail");
    (out, rejects, diagnostics, report)
}

fuzz_target!(|data: &[u8]| {
    check(data);
    check(&grammar_soup(data));
});

/// Does each diagnostic name a line of `data` (lines end at `\n`) and a
/// column on it, or just past its last character?
fn placed_inside(data: &[u8], diagnostics: &[Diagnostic]) -> bool {
    let lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    diagnostics.iter().all(|d| {
        let Some(line) = usize::try_from(d.line)
            .ok()
            .and_then(|l| lines.get(l.wrapping_sub(1)))
        else {
            return false;
        };
        let chars = String::from_utf8_lossy(line).chars().count() as u64;
        (1..=chars + 1).contains(&d.column)
    })
}

/// `--verify` only rejects: what it writes, the run without it writes too,
/// and verifies again with no error; ndjson is a JSON object a game.
fn check_verify_and_ndjson(data: &[u8], plain: &Run) {
    let verified = run(FilterBuilder::new().verify(Verify::new()), data);
    let (out, _, diagnostics, report) = &verified;
    assert_eq!(
        report.games_read,
        report.games_written + report.games_rejected
    );
    assert!(
        placed_inside(data, diagnostics),
        "--verify: a diagnostic off the input"
    );
    let (again, _, _, second) = run(FilterBuilder::new().verify(Verify::new()), out);
    assert_eq!(second.games_rejected, 0, "--verify: its output rejected");
    assert_eq!(&again, out, "--verify: not a fixed point");
    let plain_games = games_of(&plain.0);
    assert!(
        whole_games_of(out, &plain_games),
        "--verify wrote a game the run without it does not"
    );

    let (json, _, _, report) = run(FilterBuilder::new().format(Format::Ndjson), data);
    let lines: Vec<&[u8]> = json.split_inclusive(|&b| b == b'\n').collect();
    assert_eq!(
        lines.len() as u64,
        report.games_written,
        "ndjson: not a line a game"
    );
    for line in lines {
        let value: serde_json::Value = serde_json::from_slice(line).expect("ndjson parses");
        assert!(
            value["moves"].is_array()
                && value["tags"].is_object()
                && value["tag_list"].is_array()
                && value["result"].is_string(),
            "ndjson: a game without its moves, tags or result: {value}"
        );
    }
}

/// `data` compressed in the format `which` picks (gzip, zstd, xz).
fn compressed(which: u8, data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    match which % 3 {
        0 => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(data).expect("in memory");
            e.finish().expect("in memory")
        }
        1 => zstd::encode_all(data, 1).expect("in memory"),
        _ => {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 0);
            e.write_all(data).expect("in memory");
            e.finish().expect("in memory")
        }
    }
}

/// A decoder of `which`'s format over `bytes`.
fn decoder(which: u8, bytes: &[u8]) -> Box<dyn Read + Send + '_> {
    match which % 3 {
        0 => Box::new(flate2::read::GzDecoder::new(bytes)),
        1 => Box::new(zstd::Decoder::new(bytes).expect("in memory")),
        _ => Box::new(liblzma::read::XzDecoder::new(bytes)),
    }
}

/// `data` compressed, cut at a place its first bytes pick, and read by
/// the filter as the command line reads a file cut short.
fn check_cut_short(data: &[u8]) {
    let [which, at, ..] = *data else {
        return;
    };
    let whole = compressed(which, data);
    let cut_at = whole.len() * usize::from(at) / 256;
    let bytes = &whole[..cut_at];
    // The text decoded before the cut, by the format's own decoder: what
    // the filter must read.
    let mut text = Vec::new();
    let _ = decoder(which, bytes).read_to_end(&mut text);
    // The run on `jobs` threads (one: no chunks) in chunks of `chunk`.
    let reading = |builder: &(dyn Fn() -> FilterBuilder + Sync), jobs: usize, chunk: usize| {
        // The input as the command line reads it: found compressed by its
        // magic bytes, its text ending where the decoder fails.
        let (input, _, fault) = decode::decompressed(bytes).expect("in memory");
        let make = || {
            let mut f = builder().build();
            f.set_cut_short(Some(fault.cut.clone()));
            f
        };
        let (mut out, mut rejects, mut diagnostics) = (Vec::new(), Vec::new(), Vec::new());
        let mut on_diagnostic = |d: &Diagnostic| diagnostics.push(d.clone());
        let report = if jobs == 1 {
            make().run_with_rejects(input, &mut out, Some(&mut rejects), &mut on_diagnostic)
        } else {
            let (out, rejects) = (&mut out, Some(&mut rejects as &mut dyn std::io::Write));
            run_parallel(&make, input, jobs, chunk, out, rejects, &mut on_diagnostic)
        }
        .expect("memory does not fail");
        (out, rejects, diagnostics, report)
    };
    let reading = |builder: &(dyn Fn() -> FilterBuilder + Sync)| {
        let one: Run = reading(builder, 1, 0);
        for chunk in [1, 1 + text.len() / 3] {
            assert!(
                reading(builder, 2, chunk) == one,
                "cut short: --jobs 2 in chunks of {chunk} differs"
            );
        }
        one
    };
    let (out, rejects, _, report) = reading(&FilterBuilder::new);
    let (plain_out, _, _, plain) = run(FilterBuilder::new(), &text);
    assert_eq!(
        report.games_read, plain.games_read,
        "cut short: other games"
    );
    assert_eq!(
        report.games_read,
        report.games_written + report.games_rejected,
        "cut short: a game neither written nor rejected"
    );
    assert!(
        whole_games_of(&out, &games_of(&plain_out)),
        "cut short: a game written that the text read as a file does not write"
    );
    assert!(
        plain.games_written - report.games_written <= 1,
        "cut short: more than the game cut short lost"
    );
    let games = games_of(&text);
    assert!(
        whole_games_of(&rejects, &games),
        "cut short: rejects not whole games"
    );
    let every_game = || FilterBuilder::new().pass(Box::new(RejectAll));
    let (_, all, _, _) = reading(&every_game);
    assert_eq!(all, &text[leading_blanks(&text)..], "cut short: bytes lost");
}

fn check(data: &[u8]) {
    check_cut_short(data);
    let plain = run(FilterBuilder::new(), data);
    assert!(placed_inside(data, &plain.2), "a diagnostic off the input");
    check_verify_and_ndjson(data, &plain);
    if !data.contains(&0) {
        let whole = run(FilterBuilder::new(), data);
        for size in [1, 1 + data.len() as u64 / 3] {
            let mut cut = Vec::new();
            cut_at_games(FilterBuilder::new(), data, &mut cut, size).expect("memory does not fail");
            let pieces: Vec<&[u8]> = if cut.is_empty() {
                Vec::new()
            } else {
                cut.split(|&b| b == 0).collect()
            };
            assert_eq!(
                pieces.concat(),
                &data[leading_blanks(data)..],
                "pieces at {size}"
            );
            let (mut out, mut rejects, mut report) = (Vec::new(), Vec::new(), Report::default());
            for p in pieces {
                let (o, r, _, rep) = run(FilterBuilder::new(), p);
                out.extend(o);
                rejects.extend(r);
                report.add(&rep);
            }
            assert!(
                (&out, &rejects, &report) == (&whole.0, &whole.1, &whole.3),
                "pieces of {size} filtered apart differ"
            );
        }
    }

    let games = games_of(data);
    for which in 0..5 {
        let one = sorted(which, data, None);
        let (out, rejects, duplicates, _, report) = &one;
        let left = report.left_out;
        assert_eq!(
            report.games_read,
            report.games_written + report.games_rejected + left.total(),
            "{which}: a game neither written, rejected nor left out"
        );
        // (Kept variations end a broken game elsewhere: other games.)
        if which != 3 {
            assert!(
                whole_games_of(rejects, &games),
                "{which}: rejects not whole games"
            );
            assert!(
                whole_games_of(duplicates, &games),
                "{which}: duplicates not whole games"
            );
        }
        let (again, _, _, _, second) = sorted(which, out, None);
        if which != 3 {
            // (--keep-* output re-read may not be re-selected alike.)
            assert_eq!(
                second.left_out.duplicates, 0,
                "{which}: a duplicate written"
            );
            assert_eq!(second.games_rejected, 0, "{which}: output rejected");
        }
        if which == 0 {
            assert_eq!(&again, out, "{which}: not a fixed point");
        }
        for chunk in [1, 1 + data.len() / 3] {
            assert!(
                sorted(which, data, Some(chunk)) == one,
                "{which}: --jobs 2 in chunks of {chunk} differs"
            );
        }
        if !data.contains(&0) {
            let mut cut = Vec::new();
            let cuts =
                cut_at_games(leaving_out(which), data, &mut cut, 1).expect("memory does not fail");
            let mut both = cuts.left_out;
            both.add(&cuts.kept);
            assert_eq!(both, left, "{which}: the cut left out other games");
            let (mut o, mut r) = (Vec::new(), Vec::new());
            if !cut.is_empty() {
                for piece in cut.split(|&b| b == 0) {
                    let (po, pr, _, _, _) = sorted(which, piece, None);
                    o.extend(po);
                    r.extend(pr);
                }
            }
            if cuts.kept.duplicates == 0 {
                assert!(
                    (&o, &r) == (out, rejects),
                    "{which}: the cut's pieces filtered apart differ"
                );
            } else if which == 0 {
                // The duplicates kept are written there; the options leave
                // them out of that output.
                assert!(
                    &sorted(which, &o, None).0 == out,
                    "{which}: kept duplicates"
                );
                assert!(&r == rejects, "{which}: the cut's pieces' rejects differ");
            }
        }
    }

    let (split, _, _, split_counts) = run(FilterBuilder::new().split_variations(true), data);
    let (again, _, _, _) = run(FilterBuilder::new(), &split);
    assert_eq!(again, split, "split games are not canonical");
    // Split, variations are read, not skipped: compare with a reading of
    // them that then drops them (where a broken variation ends can differ).
    let read_and_dropped = FilterBuilder::new()
        .keep_variations(true)
        .pass(Box::new(DropVariationsRead));
    let (game, _, _, counts) = run(read_and_dropped, data);
    if counts.games_written == 1 && split_counts.games_written == 1 {
        assert!(
            split.starts_with(&game),
            "the first split game is not the game"
        );
    }

    for keep in [false, true] {
        let builder = move || {
            FilterBuilder::new()
                .keep_comments(keep)
                .keep_variations(keep)
                .keep_ratings(keep)
        };
        let one = run(builder(), data);
        let (out, _, _, report) = &one;
        assert_eq!(
            report.games_read,
            report.games_written + report.games_rejected
        );

        let (again, _, _, second) = run(builder(), out);
        assert_eq!(
            second.games_rejected,
            0,
            "output rejected: {:?}",
            String::from_utf8_lossy(out)
        );
        assert_eq!(
            &again,
            out,
            "not a fixed point: {:?}",
            String::from_utf8_lossy(out)
        );

        let (_, every_game, _, all) = run(builder().pass(Box::new(RejectAll)), data);
        let games = &data[leading_blanks(data)..];
        assert_eq!(every_game, games, "the games are not the input");
        assert_eq!(all.games_read, report.games_read);

        let taking_all = run(builder().pass(Box::new(Unchanged)), data);
        assert_eq!(
            taking_all, one,
            "a pass that takes everything changed the run"
        );

        for chunk in [1, 1 + data.len() / 3] {
            let (mut out, mut rejects, mut diagnostics) = (Vec::new(), Vec::new(), Vec::new());
            let make = move || builder().build();
            let report = run_parallel(
                &make,
                data,
                2,
                chunk,
                &mut out,
                Some(&mut rejects),
                &mut |d| diagnostics.push(d.clone()),
            )
            .expect("memory does not fail");
            assert!(
                (out, rejects, diagnostics, report) == one,
                "--jobs 2 in chunks of {chunk} differs"
            );
        }
    }
}
