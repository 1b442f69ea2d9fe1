//! The options, as clap reads them and as `--help`, `--man` and
//! `--completions` show them.

use clap::{Parser, ValueEnum};
use ctlpgn_filter::PASS_NAMES;
use std::path::PathBuf;

/// Turn any CTL-PGN (C'escacs game records) into canonical minimal-reader input.
#[derive(Parser, Debug)]
#[command(version, about, after_help = EXAMPLES)]
pub struct Cli {
    /// Input files or folders, read in order (a folder: its .ctl-pgn and .pgn
    /// files, recursively); none or `-` reads standard input.
    pub files: Vec<PathBuf>,
    /// Write the output to FILE (`-`: standard output): a regular file is
    /// replaced whole at the end, keeping its permissions; a device or FIFO
    /// is written to.
    #[arg(short, long, value_name = "FILE", conflicts_with_all = ["in_place", "out_dir"])]
    pub output: Option<PathBuf>,
    /// Rewrite each FILE in place (replaced whole, keeping its permissions;
    /// left untouched if any game is rejected).
    #[arg(long, conflicts_with = "out_dir", requires = "files")]
    pub in_place: bool,
    /// Write each input under DIR at the same relative path (folders are
    /// walked; an input whose games are all rejected gets no file).
    #[arg(long, value_name = "DIR", requires = "files")]
    pub out_dir: Option<PathBuf>,
    /// Follow symbolic links met while walking folders (a link back to a
    /// folder it is in is skipped).
    #[arg(short = 'L', long)]
    pub follow: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::CtlPgn)]
    pub format: OutputFormat,
    /// Keep comments `{...}`.
    #[arg(long)]
    pub keep_comments: bool,
    /// Keep variations `(...)`.
    #[arg(long)]
    pub keep_variations: bool,
    /// Keep ratings (`?!`, `◇`...) and NAGs (`$n`).
    #[arg(long)]
    pub keep_ratings: bool,
    /// Leave out built-in passes (redefine, fan, comments, variations, ratings, ascii).
    #[arg(long, value_name = "PASS", value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(PASS_NAMES))]
    pub skip_pass: Vec<String>,
    /// Replay each game's main line and reject a game whose moves are not
    /// algebraically coherent (no rules of play are checked).
    #[arg(long)]
    pub verify: bool,
    /// Like --verify, but write no output: only diagnostics and the exit status.
    #[arg(long, conflicts_with_all = ["output", "in_place", "out_dir", "format"])]
    pub check: bool,
    /// With --verify or --check, print each written game's final position as
    /// a PDTL on stderr: `FILE:LINE: final position: PDTL`.
    #[arg(long)]
    pub final_pdtl: bool,
    /// Turn every warning into an error that rejects its game.
    #[arg(long)]
    pub strict: bool,
    /// Write each rejected game to FILE (`-`: standard output), byte for byte
    /// as it was read; replaced like -o's FILE.
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// Stop at the first rejected game.
    #[arg(long)]
    pub fail_fast: bool,
    /// Worker threads [default: the number of cores for a regular file of 4 MB or more, else 1].
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Bytes per chunk with --jobs (for tests of the chunking).
    #[arg(long, hide = true, default_value_t = CHUNK_BYTES)]
    pub chunk_bytes: usize,
    /// Do not print warnings (errors are still printed).
    #[arg(short, long)]
    pub quiet: bool,
    /// Print counts per file and in total (as JSON with --format ndjson).
    #[arg(long)]
    pub stats: bool,
    /// Show a progress bar even when stderr is not a terminal or the input is small.
    #[arg(long)]
    pub progress: bool,
    /// Colour diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    pub color: Color,
    /// Print a shell completion script and exit.
    #[arg(long, value_name = "SHELL", exclusive = true)]
    pub completions: Option<clap_complete::Shell>,
    /// Print the manual page (roff) and exit.
    #[arg(long, exclusive = true)]
    pub man: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Canonical CTL-PGN.
    CtlPgn,
    /// One JSON object per game.
    Ndjson,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// When stderr is a terminal.
    Auto,
    Always,
    Never,
}

const EXAMPLES: &str = "Examples:
  ctlpgn-filter game.ctl-pgn > clean.ctl-pgn       one file
  cat games/*.ctl-pgn | ctlpgn-filter -q | reader  a pipeline stage
  ctlpgn-filter --out-dir clean/ games/            a whole folder, recursively";

/// Bytes per chunk handed to a worker by default.
const CHUNK_BYTES: usize = 2 << 20;
