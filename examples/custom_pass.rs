//! A pass of your own in the chain: this one keeps the fact of a check but
//! drops its detail (`+∞`, `+^`, `++` all become `+`).
//!
//! ```text
//! cargo run --example custom_pass < games.ctl-pgn
//! ```

use ctlpgn_filter::{Check, Context, FilterBuilder, Flow, HalfMove, Pass};
use std::io::{self, Write};

/// Writes every check, whatever its kind, as a plain `+`.
struct PlainChecks;

impl Pass for PlainChecks {
    fn name(&self) -> &'static str {
        "plain-checks"
    }

    fn half_move(&mut self, mv: &mut HalfMove, _cx: &mut Context) -> Flow {
        if matches!(
            mv.check,
            Some(Check::Afar | Check::Adjoining | Check::Double)
        ) {
            mv.check = Some(Check::Check);
        }
        Flow::Keep
    }
}

fn main() -> io::Result<()> {
    let mut filter = FilterBuilder::new().pass(Box::new(PlainChecks)).build();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let report = filter.run(io::stdin().lock(), &mut out, &mut |d| {
        eprint!("{}", d.render("<stdin>"))
    })?;
    out.flush()?;
    eprintln!("{} games written", report.games_written);
    Ok(())
}

#[test]
fn checks_lose_their_detail_and_nothing_else_changes() {
    let input = "[Variant \"C'escacs\"]\n1. DB20-C19+∞, GL5×GE5^+\n2. VD26-D24++, DC19-E25#\n";
    let mut filter = FilterBuilder::new().pass(Box::new(PlainChecks)).build();
    assert_eq!(filter.pass_names().last(), Some(&"plain-checks"));
    let (out, _, report) = filter.filter_bytes(input.as_bytes());
    assert_eq!(report.games_written, 1);
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "[Variant \"C'escacs\"]\n\n1. DB20-C19+, GL5*GE5+\n2. VD26-D24+, DC19-E25#\n0-3\n\n"
    );
}
