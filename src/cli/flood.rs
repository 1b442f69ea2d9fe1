//! Messages that scale: after [`SHOWN_PER_KIND`] diagnostics of one kind
//! and severity in one input, the rest are counted, not printed, and one
//! line at the input's end says how many there were
//! (`... and 8,991 more "standard-chess PGN" errors in big.pgn`).
//! `--all-diagnostics` prints them all. The rejects file is not touched:
//! it still gets every rejected game.
//!
//! Diagnostics reach the command in input order whatever `--jobs` is, so
//! the same ones are printed, and counted, on any number of threads.

use ctlpgn_filter::{Diagnostic, DiagnosticKind, Severity};

/// Diagnostics of one kind and severity printed per input.
pub const SHOWN_PER_KIND: u64 = 10;

/// The diagnostics of one input, counted by kind and severity.
pub struct Flood {
    all: bool,
    /// Each kind and severity met, in the order first met, and how many.
    seen: Vec<(DiagnosticKind, Severity, u64)>,
}

impl Flood {
    pub fn new(all: bool) -> Flood {
        Flood {
            all,
            seen: Vec::new(),
        }
    }

    /// Counts `d`; whether to print it.
    pub fn admit(&mut self, d: &Diagnostic) -> bool {
        let n = match self
            .seen
            .iter_mut()
            .find(|(k, s, _)| *k == d.kind && *s == d.severity)
        {
            Some((_, _, n)) => n,
            None => {
                self.seen.push((d.kind, d.severity, 0));
                &mut self.seen.last_mut().expect("just pushed").2
            }
        };
        *n += 1;
        self.all || *n <= SHOWN_PER_KIND
    }

    /// The lines that count what was not printed of `input`; the counts
    /// start again for the next input.
    pub fn finish(&mut self, input: &str) -> Vec<String> {
        let seen = std::mem::take(&mut self.seen);
        if self.all {
            return Vec::new();
        }
        seen.into_iter()
            .filter(|&(_, _, n)| n > SHOWN_PER_KIND)
            .map(|(kind, severity, n)| {
                let what = severity.as_str();
                let more = n - SHOWN_PER_KIND;
                let plural = if more == 1 { "" } else { "s" };
                let kind = match kind {
                    DiagnosticKind::Other => format!("{what}{plural} of other kinds"),
                    kind => format!("\"{}\" {what}{plural}", kind.name()),
                };
                format!(
                    "... and {} more {kind} in {input} (--all-diagnostics prints them)",
                    thousands(more)
                )
            })
            .collect()
    }
}

/// `n` with a comma between each group of three digits: `8,991`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut s = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            s.push(',');
        }
        s.push(c);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(kind: DiagnosticKind, severity: Severity) -> Diagnostic {
        Diagnostic {
            severity,
            kind,
            line: 1,
            column: 1,
            message: String::new(),
            source: String::new(),
            source_column: 1,
        }
    }

    #[test]
    fn ten_of_a_kind_are_printed_and_the_rest_counted() {
        let mut f = Flood::new(false);
        let chess = diag(DiagnosticKind::StandardChess, Severity::Error);
        let shown = (0..9001).filter(|_| f.admit(&chess)).count();
        assert_eq!(shown, 10);
        // Another kind, or another severity, has its own ten.
        assert!(f.admit(&diag(DiagnosticKind::StandardChess, Severity::Warning)));
        for _ in 0..12 {
            f.admit(&diag(DiagnosticKind::Other, Severity::Error));
        }
        assert_eq!(
            f.finish("big.pgn"),
            [
                "... and 8,991 more \"standard-chess PGN\" errors in big.pgn (--all-diagnostics prints them)",
                "... and 2 more errors of other kinds in big.pgn (--all-diagnostics prints them)",
            ]
        );
        // The next input starts again.
        assert!(f.admit(&chess));
        assert!(f.finish("next.pgn").is_empty());
    }

    #[test]
    fn duplicate_notes_are_a_kind_of_their_own() {
        let mut f = Flood::new(false);
        let note = diag(DiagnosticKind::Duplicate, Severity::Note);
        assert_eq!((0..72).filter(|_| f.admit(&note)).count(), 10);
        // Warnings of the games written keep their own ten.
        assert!(f.admit(&diag(DiagnosticKind::NoEndMarker, Severity::Warning)));
        assert_eq!(
            f.finish("archive/"),
            ["... and 62 more \"duplicate\" notes in archive/ (--all-diagnostics prints them)"]
        );
    }

    #[test]
    fn all_diagnostics_prints_them_all() {
        let mut f = Flood::new(true);
        let d = diag(DiagnosticKind::Other, Severity::Warning);
        assert!((0..100).all(|_| f.admit(&d)));
        assert!(f.finish("f").is_empty());
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(8991), "8,991");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
