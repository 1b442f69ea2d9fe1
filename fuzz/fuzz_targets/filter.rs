//! Any bytes in: no panic; every game read is written or rejected; whatever
//! is written is canonical (filtering it again changes nothing); and the
//! reader's fast paths change nothing (the output, diagnostics and counts
//! are those of a chain with a pass of its own, which turns them off), with
//! the default passes and with every drop pass off.
#![no_main]

use ctlpgn_filter::{FilterBuilder, Pass};
use libfuzzer_sys::fuzz_target;

/// A pass that changes nothing but keeps the reader off its fast paths.
struct Unchanged;

impl Pass for Unchanged {
    fn name(&self) -> &'static str {
        "unchanged"
    }
}

fuzz_target!(|data: &[u8]| {
    for keep in [false, true] {
        let builder = || {
            FilterBuilder::new()
                .keep_comments(keep)
                .keep_variations(keep)
                .keep_ratings(keep)
        };
        let (out, diagnostics, report) = builder().build().filter_bytes(data);
        assert_eq!(
            report.games_read,
            report.games_written + report.games_rejected
        );
        let (again, _, second) = builder().build().filter_bytes(&out);
        assert_eq!(
            second.games_rejected,
            0,
            "output rejected: {:?}",
            String::from_utf8_lossy(&out)
        );
        assert_eq!(
            again,
            out,
            "not a fixed point: {:?}",
            String::from_utf8_lossy(&out)
        );
        let (tokens, token_diagnostics, token_report) = builder()
            .pass(Box::new(Unchanged))
            .build()
            .filter_bytes(data);
        assert_eq!(out, tokens, "the fast paths wrote otherwise");
        assert_eq!(
            diagnostics, token_diagnostics,
            "the fast paths reported otherwise"
        );
        assert_eq!(report, token_report);
    }
});
