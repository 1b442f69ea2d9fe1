//! Writes a hostile input (`examples/support/hostile.rs`) to standard
//! output, for `scripts/hostile.sh`:
//!
//! ```sh
//! cargo run --release --example hostile -- --list          # NAME<TAB>OPTIONS
//! cargo run --release --example hostile -- nesting-kept 4  # 4 MB of it
//! ```

#[path = "support/hostile.rs"]
mod hostile;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: hostile --list | hostile NAME MB";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let written = match args.as_slice() {
        [list] if list == "--list" => hostile::ALL
            .iter()
            .try_for_each(|h| writeln!(out, "{}\t{}", h.name, h.args.join(" "))),
        [name, mb] => match (hostile::Hostile::named(name), mb.parse::<f64>()) {
            (Some(h), Ok(mb)) if mb >= 0.0 => h.write(&mut out, (mb * 1e6) as usize),
            _ => {
                eprintln!("hostile: no shape {name} or bad size {mb}\n{USAGE}");
                return ExitCode::from(2);
            }
        },
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hostile: {e}");
            ExitCode::from(2)
        }
    }
}
