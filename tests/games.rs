//! The filter a game at a time (`Filter::games`): the games, put end to
//! end, are the run's output, rejects, duplicates, diagnostics and counts,
//! under options that write, reject and leave games out.

mod support;

use ctlpgn_filter::{Diagnostic, Fate, Options, Origin, Report, Sinks};

/// What a whole run writes: output, rejects, duplicates, diagnostics, counts.
type Run = (Vec<u8>, Vec<u8>, Vec<u8>, Vec<Diagnostic>, Report);

fn run(options: &Options, input: &[u8]) -> Run {
    let (mut out, mut rejects, mut duplicates, mut ds) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let sinks = Sinks {
        out: &mut out,
        rejects: Some(&mut rejects),
        duplicates: Some(&mut duplicates),
        on_diagnostic: &mut |d| ds.push(d.clone()),
    };
    let report = options
        .builder()
        .build()
        .run_into(Origin::START, input, sinks)
        .unwrap();
    (out, rejects, duplicates, ds, report)
}

fn games(options: &Options, input: &[u8]) -> Run {
    let mut filter = options.builder().build();
    let mut games = filter.games(input);
    let mut all: Run = Default::default();
    while let Some(g) = games.next_game().unwrap() {
        match g.fate {
            Fate::Written => {
                assert!(g.aside.is_empty() || g.aside.starts_with(b"{ctlpgn-filter: "))
            }
            _ => assert!(g.output.is_empty()),
        }
        all.0.extend_from_slice(g.output);
        match g.fate {
            Fate::LeftOut(_) => all.2.extend_from_slice(g.aside),
            _ => all.1.extend_from_slice(g.aside),
        }
        all.3.extend_from_slice(g.diagnostics);
        assert_eq!(g.replay.is_some(), options.verify);
    }
    all.4 = games.report();
    all
}

#[test]
fn the_games_one_at_a_time_are_the_run_under_every_kind_of_option() {
    let mut sets = Vec::new();
    for args in [
        &[][..],
        &[("keep-comments", ""), ("keep-variations", "")],
        &[("format", "ndjson"), ("dedup", "")],
        &[("verify", ""), ("split-variations", "")],
        &[
            ("player", "sasal"),
            ("plies", "10..80"),
            ("stop-after", "5"),
        ],
        &[("fail-fast", ""), ("format", "tsv")],
    ] {
        let mut o = Options::default();
        for (name, value) in args {
            match value {
                &"" => o.flag(name, true).unwrap(),
                v => o.set(name, v).unwrap(),
            }
        }
        sets.push(o);
    }
    let mut input = Vec::new();
    for path in support::corpus_files() {
        input.extend_from_slice(&std::fs::read(path).unwrap());
        input.push(b'\n');
    }
    // Every game again: each a duplicate.
    input.extend_from_slice(&input.clone());
    for o in &sets {
        let (whole, one_by_one) = (run(o, &input), games(o, &input));
        assert!(whole.0 == one_by_one.0, "output, {o:?}");
        assert!(whole.1 == one_by_one.1, "rejects, {o:?}");
        assert!(whole.2 == one_by_one.2, "duplicates, {o:?}");
        assert_eq!(whole.3, one_by_one.3, "{o:?}");
        assert_eq!(whole.4, one_by_one.4, "{o:?}");
        assert!(
            whole.4.games_written > 0 && whole.4.games_rejected > 0,
            "{o:?}"
        );
    }
}
