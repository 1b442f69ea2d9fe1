//! Any bytes in: no panic; every game read is written or rejected; and
//! whatever is written is canonical (filtering it again changes nothing),
//! with the default passes and with every drop pass off.
#![no_main]

use ctlpgn_filter::FilterBuilder;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for keep in [false, true] {
        let build = || {
            FilterBuilder::new()
                .keep_comments(keep)
                .keep_variations(keep)
                .keep_ratings(keep)
                .build()
        };
        let (out, _, report) = build().filter_bytes(data);
        assert_eq!(report.games_read, report.games_written + report.games_rejected);
        let (again, _, second) = build().filter_bytes(&out);
        assert_eq!(second.games_rejected, 0, "output rejected: {:?}", String::from_utf8_lossy(&out));
        assert_eq!(again, out, "not a fixed point: {:?}", String::from_utf8_lossy(&out));
    }
});
