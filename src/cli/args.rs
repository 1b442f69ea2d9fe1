//! The options, as clap reads them and as `--help`, `--man` and
//! `--completions` show them.

use clap::{Command, CommandFactory, Parser, ValueEnum};
use ctlpgn_filter::{Pdtl, SelectPlies, TagPattern, PASS_NAMES};
use std::path::PathBuf;

/// Turn any CTL-PGN (C'escacs game records) into canonical minimal-reader input.
#[derive(Parser, Debug)]
#[command(version, about, after_help = after_help())]
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
    /// Write each variation, at any depth, as a linear game of its own
    /// after its game (which is written without them), named by its path in
    /// the Id tag (`Cescacs-X01-V-S:0:1-en`) or a VariationPath tag; with
    /// --verify or --check each is replayed, and rejected alone.
    #[arg(long, conflicts_with = "keep_variations")]
    pub split_variations: bool,
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
    /// With --verify or --check (required), print each written game's final
    /// position as a PDTL on stderr: `FILE:LINE: final position: PDTL`.
    #[arg(long)]
    pub final_pdtl: bool,
    /// Turn every warning into an error that rejects its game.
    #[arg(long)]
    pub strict: bool,
    /// Write a `Result` tag that contradicts the game's end (its result
    /// line, or its `#` move) with the result of that end.
    #[arg(long)]
    pub fix_result: bool,
    /// Write each rejected game to FILE (`-`: standard output), byte for byte
    /// as it was read; replaced like -o's FILE.
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// Stop at the first rejected game.
    #[arg(long)]
    pub fail_fast: bool,
    /// Leave out a game whose start (its PDTL, or the initial setup) and
    /// main-line moves are those of a game written before, in any input of
    /// the run; check marks, ratings, move numbers, comments, variations,
    /// the layout and the tags do not count. A note names the first copy.
    #[arg(long)]
    pub dedup: bool,
    /// Like --dedup, and games that end with another result are not
    /// duplicates.
    #[arg(long)]
    pub dedup_result: bool,
    /// Write each duplicate to FILE (`-`: standard output), byte for byte as
    /// it was read; replaced like -o's FILE (implies --dedup).
    #[arg(long, value_name = "FILE")]
    pub duplicates: Option<PathBuf>,
    /// Keep only the games with a tag NAME whose whole value matches the glob
    /// PATTERN (`*`, `?`, `[a-z]`, `{a,b}`; case counts); repeated, all must
    /// hold.
    #[arg(long = "tag", value_name = "NAME=PATTERN", value_parser = parse_tag)]
    pub tags: Vec<TagPattern>,
    /// Keep only the games whose main line has MIN to MAX half-moves, both
    /// included (also MIN.., ..MAX, N).
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_plies)]
    pub plies: Option<SelectPlies>,
    /// Keep only the games whose main line, replayed as --verify does,
    /// passes through this position (its pieces and side to move).
    #[arg(long, value_name = "PDTL", value_parser = parse_pdtl)]
    pub reaches: Option<Pdtl>,
    /// Stop reading once N games are written (the rest of the input, and the
    /// inputs after it, are not read).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..),
          conflicts_with = "in_place")]
    pub stop_after: Option<u64>,
    /// Write the input unchanged instead, cut at true game starts into
    /// pieces of at least SIZE bytes (suffix K, M or G), a NUL byte after
    /// each piece but the last: for GNU parallel (`--recend '\0' --rrs`),
    /// Spark, Hadoop Streaming and other engines that filter pieces apart
    /// (give it the --keep-* options the pieces will be filtered with).
    #[arg(long, value_name = "SIZE", value_parser = parse_size,
          conflicts_with_all = ["check", "in_place", "out_dir", "format", "verify", "rejects",
                                "fail_fast", "duplicates"])]
    pub cut: Option<u64>,
    /// Worker threads [default: the number of cores for a regular file of 4 MB or more, else 1].
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Bytes per chunk with --jobs (for tests of the chunking).
    #[arg(long, hide = true, default_value_t = CHUNK_BYTES)]
    pub chunk_bytes: usize,
    /// Do not print warnings, notes, nor the summary of the games left out
    /// (errors are still printed).
    #[arg(short, long)]
    pub quiet: bool,
    /// Print counts per file and in total, the games left out by reason
    /// included (as JSON with --format ndjson).
    #[arg(long)]
    pub stats: bool,
    /// Show a progress bar even when stderr is not a terminal or the input is small.
    #[arg(long)]
    pub progress: bool,
    /// Colour diagnostics (auto: when stderr is a terminal, NO_COLOR is unset
    /// or empty, and TERM is not `dumb`).
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

impl Cli {
    /// `--dedup`, or an option that implies it.
    pub fn dedup(&self) -> bool {
        self.dedup || self.dedup_result || self.duplicates.is_some()
    }

    /// Reads the command line; exits with clap's usage error (status 2)
    /// for what clap cannot state itself.
    pub fn parse_checked() -> Cli {
        let cli = Cli::parse();
        if cli.final_pdtl && !(cli.verify || cli.check) {
            Cli::command()
                .error(
                    clap::error::ErrorKind::MissingRequiredArgument,
                    "--final-pdtl prints the final positions of a replay: \
                     add --verify (to filter and replay) or --check (to replay only)",
                )
                .exit();
        }
        cli
    }

    /// The command as completion scripts offer it: without hidden options.
    pub fn completed_command() -> Command {
        let full = Cli::command();
        let shown: Vec<_> = full
            .get_arguments()
            .filter(|a| !a.is_hide_set())
            .cloned()
            .collect();
        Command::new(env!("CARGO_PKG_NAME"))
            .version(env!("CARGO_PKG_VERSION"))
            .about(full.get_about().cloned().unwrap_or_default())
            .args(shown)
    }
}

/// `--help`'s and the manual's examples: command, what it does.
pub const EXAMPLES: &[(&str, &str)] = &[
    (
        "ctlpgn-filter game.ctl-pgn > clean.ctl-pgn",
        "one file, filtered to standard output",
    ),
    (
        "cat games/*.ctl-pgn | ctlpgn-filter -q | reader",
        "a pipeline stage, warnings silenced",
    ),
    (
        "ctlpgn-filter --out-dir clean/ games/",
        "a whole folder, recursively, mirrored under clean/",
    ),
    (
        "ctlpgn-filter --rejects fixme.ctl-pgn -o clean.ctl-pgn games.ctl-pgn",
        "the rejected games kept aside, byte for byte as read, to fix and run again",
    ),
    (
        "ctlpgn-filter --check --final-pdtl game.ctl-pgn",
        "replay each game, write nothing, print each game's final position",
    ),
    (
        "ctlpgn-filter --dedup --duplicates dups.ctl-pgn --tag 'Event=*Open*' -o one-each.ctl-pgn archive/",
        "one copy of each game of an event, the other copies kept aside as read",
    ),
];

fn parse_tag(s: &str) -> Result<TagPattern, String> {
    TagPattern::parse(s).map_err(|e| e.to_string())
}

fn parse_plies(s: &str) -> Result<SelectPlies, String> {
    SelectPlies::parse(s).map_err(|e| e.to_string())
}

fn parse_pdtl(s: &str) -> Result<Pdtl, String> {
    Pdtl::parse(s).map_err(|e| e.to_string())
}

/// A size in bytes: `4096`, `64K`, `64M`, `1G` (powers of 1024).
fn parse_size(s: &str) -> Result<u64, String> {
    let (digits, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => s.split_at(i),
        None => (s, ""),
    };
    let shift = match unit {
        "" => 0,
        "K" | "k" => 10,
        "M" | "m" => 20,
        "G" | "g" => 30,
        _ => {
            return Err(format!(
                "{s}: a size is a number of bytes, with K, M or G after it"
            ))
        }
    };
    digits
        .parse::<u64>()
        .ok()
        .filter(|&n| n > 0)
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| format!("{s}: a size is a number of bytes above 0, with K, M or G after it"))
}

/// The exit statuses: status, when.
pub const EXIT_STATUS: &[(&str, &str)] = &[
    (
        "0",
        "Every game was written, or left out as asked (--dedup, --tag, --plies, --reaches) \
         (with --check: every game is coherent).",
    ),
    (
        "1",
        "A game, or with --split-variations a variation game, was rejected (with \
         --check: one is incoherent or malformed).",
    ),
    (
        "2",
        "A usage error, a refusal to write over an input, an input that could not \
         be read, or an error writing an output.",
    ),
    (
        "3",
        "A binary file (a NUL byte in its first 64 KiB) was skipped.",
    ),
];

/// The environment variables read: name, what it does.
pub const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "NO_COLOR",
        "Set and not empty: no colour with --color auto (no-color.org).",
    ),
    ("TERM", "dumb: no colour with --color auto."),
];

/// How the statuses combine.
pub const EXIT_PRECEDENCE: &str =
    "When several apply, the first of 2, 3, 1 is the status; 0 only when none applies.";

fn after_help() -> String {
    let mut s = String::from("Examples:\n");
    for (command, what) in EXAMPLES {
        s += &format!("  {command}\n{}", wrap(what, 6));
    }
    s += "\nExit status:\n";
    for (status, when) in EXIT_STATUS {
        s += &format!("  {status}   {}", &wrap(when, 6)[6..]);
    }
    s += &wrap(EXIT_PRECEDENCE, 2);
    s.truncate(s.trim_end().len());
    s
}

/// `text` in lines of at most 80 columns, each indented by `indent`.
fn wrap(text: &str, indent: usize) -> String {
    let mut s = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent + line.len() + 1 + word.len() > 80 {
            s += &format!("{:indent$}{line}\n", "");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += word;
    }
    s + &format!("{:indent$}{line}\n", "")
}

/// Bytes per chunk handed to a worker by default.
const CHUNK_BYTES: usize = 2 << 20;
