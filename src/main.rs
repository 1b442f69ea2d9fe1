//! The `ctlpgn-filter` command. The library does the filtering; `cli`
//! holds what only the command line needs: its options, the files and
//! streams it reads and writes, and the exit status.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
