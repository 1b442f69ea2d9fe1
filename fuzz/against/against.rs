//! Fuzz target: this checkout's filter against an earlier commit's, on the
//! same input under the same options: the same output, rejects,
//! diagnostics and counts. Built by `scripts/fuzz-against.sh REV`, which
//! names the two crates `new` and `old`; it uses only the public API both
//! have had since 0.3.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../fuzz_targets/soup.rs"]
mod soup;

/// What a run makes: output, rejects, diagnostics as printed, and the
/// games read, written and rejected.
type Made = (Vec<u8>, Vec<u8>, Vec<String>, [u64; 3]);

macro_rules! run {
    ($krate:ident, $options:expr, $data:expr) => {{
        let (keep, verify, ndjson) = $options;
        let mut b = $krate::FilterBuilder::new()
            .keep_comments(keep)
            .keep_variations(keep)
            .keep_ratings(keep)
            .format(if ndjson {
                $krate::Format::Ndjson
            } else {
                $krate::Format::CtlPgn
            });
        if verify {
            b = b.verify($krate::Verify::new());
        }
        let (mut out, mut rejects, mut diagnostics) = (Vec::new(), Vec::new(), Vec::new());
        let r = b
            .build()
            .run_with_rejects($data, &mut out, Some(&mut rejects), &mut |d| {
                diagnostics.push(d.render("in"))
            })
            .expect("memory does not fail");
        let counts = [r.games_read, r.games_written, r.games_rejected];
        (out, rejects, diagnostics, counts)
    }};
}

const OPTIONS: [(bool, bool, bool); 4] = [
    (false, false, false),
    (true, false, false),
    (false, true, false),
    (true, false, true),
];

fn same(data: &[u8]) {
    for options in OPTIONS {
        let new: Made = run!(new, options, data);
        let old: Made = run!(old, options, data);
        assert!(new == old, "{options:?}: new {new:?}\nold {old:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    same(data);
    same(&soup::grammar_soup(data));
});
