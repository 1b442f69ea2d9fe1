//! The options, as clap reads them and as `--help`, `--man` and
//! `--completions` show them.

use clap::{Command, CommandFactory, Parser, ValueEnum};
use ctlpgn_filter::{Pdtl, SelectPlies, TagPattern, DEFAULT_MAX_DEPTH, PASS_NAMES};
use std::path::PathBuf;

/// Turn any CTL-PGN (C'escacs game records) into canonical minimal-reader input.
#[derive(Parser, Debug)]
#[command(
    version,
    after_help = "-h: a summary; --help: every option in full, examples and exit statuses.",
    after_long_help = after_help()
)]
pub struct Cli {
    /// Input files or folders, read in order; none or `-`: standard input.
    ///
    /// A folder stands for its .ctl-pgn and .pgn files, recursively, in
    /// sorted order, hidden ones aside. gzip, zstd, xz and bzip2 files are
    /// read decompressed (found by their first bytes; in a folder,
    /// .ctl-pgn.gz and the like).
    pub files: Vec<PathBuf>,
    /// Write the output to FILE (`-`: standard output).
    ///
    /// A regular file is replaced whole at the end, keeping its permissions;
    /// a device or FIFO is written to. An input, or a game file inside a
    /// folder read, is refused.
    #[arg(short, long, value_name = "FILE", conflicts_with_all = ["in_place", "out_dir"])]
    pub output: Option<PathBuf>,
    /// Rewrite each FILE in place.
    ///
    /// Replaced whole, keeping its permissions; left untouched if any game
    /// is rejected. Compressed files are refused.
    #[arg(long, conflicts_with = "out_dir", requires = "files")]
    pub in_place: bool,
    /// Write each input under DIR at the same relative path.
    ///
    /// Folders are walked; an input whose games are all rejected gets no
    /// file; a compressed input is written decompressed, without its .gz,
    /// .zst, .xz or .bz2. DIR must not be inside a folder read.
    #[arg(long, value_name = "DIR", requires = "files")]
    pub out_dir: Option<PathBuf>,
    /// Follow symbolic links met while walking folders.
    ///
    /// A link back to a folder it is in is reported and skipped.
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
    /// Write each variation as a linear game of its own.
    ///
    /// At any depth, after its game (which is written without them), named
    /// by its path in the Id tag (`Cescacs-X01-V-S:0:1-en`) or a
    /// VariationPath tag; with --verify or --check each is replayed, and
    /// rejected alone.
    #[arg(long, conflicts_with = "keep_variations")]
    pub split_variations: bool,
    /// Reject a game whose variations nest deeper than N.
    ///
    /// A variation on the main line is at depth 1. Records written by hand
    /// nest a few levels; the limit keeps a hostile nesting's output from
    /// growing with the square of its size (kept variations show their
    /// depth in dots, split ones repeat the moves of those around them).
    /// The same games are rejected whether variations are dropped, kept or
    /// split.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH, hide_short_help = true,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub max_depth: u32,
    /// Keep ratings (`?!`, `◇`...) and NAGs (`$n`).
    #[arg(long)]
    pub keep_ratings: bool,
    /// Leave out built-in passes (redefine, fan, comments, variations, ratings, ascii).
    #[arg(long, value_name = "PASS", value_delimiter = ',', hide_short_help = true,
          value_parser = clap::builder::PossibleValuesParser::new(PASS_NAMES))]
    pub skip_pass: Vec<String>,
    /// Replay each game and reject one whose moves are not coherent.
    ///
    /// The main line is replayed on the board; no rules of play are checked.
    #[arg(long)]
    pub verify: bool,
    /// Like --verify, but write no output: diagnostics and exit status only.
    #[arg(long, conflicts_with_all = ["output", "in_place", "out_dir", "format"])]
    pub check: bool,
    /// With --verify or --check, print each written game's final position.
    ///
    /// As a PDTL on stderr: `FILE:LINE: final position: PDTL`; with
    /// --split-variations, then one line per variation game written,
    /// `FILE:LINE: final position (variation 0:2): PDTL`.
    #[arg(long, hide_short_help = true)]
    pub final_pdtl: bool,
    /// Turn every warning into an error that rejects its game.
    #[arg(long)]
    pub strict: bool,
    /// Write a Result tag that contradicts the game's end with that end.
    ///
    /// The end is the game's result line, or its `#` move.
    #[arg(long, hide_short_help = true)]
    pub fix_result: bool,
    /// Write each rejected game to FILE, byte for byte as read.
    ///
    /// `-`: standard output; replaced like -o's FILE, and refused where it is.
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// Stop at the first rejected game.
    #[arg(long)]
    pub fail_fast: bool,
    /// Read lines of at most SIZE bytes (default 64M).
    ///
    /// A longer line is never held in memory: its game is rejected (to
    /// --rejects byte for byte, as any rejected game), the line is not
    /// read, and reading goes on at the next line. SIZE: bytes, or with K,
    /// M or G after it (powers of 1024).
    #[arg(long, value_name = "SIZE", value_parser = parse_size, hide_short_help = true,
          default_value = "64M")]
    pub max_line_bytes: u64,
    /// Leave out a game that repeats one written before.
    ///
    /// A duplicate has the start (its PDTL, or the initial setup) and
    /// main-line moves of a game written before, in any input of the run;
    /// check marks, ratings, move numbers, comments, variations, the layout
    /// and the tags do not count. A note names the first copy.
    #[arg(long)]
    pub dedup: bool,
    /// Like --dedup, and games that end with another result are not duplicates.
    #[arg(long, hide_short_help = true)]
    pub dedup_result: bool,
    /// Write each duplicate to FILE, byte for byte as read (implies --dedup).
    ///
    /// `-`: standard output; replaced like -o's FILE, and refused where it is.
    #[arg(long, value_name = "FILE", hide_short_help = true)]
    pub duplicates: Option<PathBuf>,
    /// Keep only the games whose tag NAME matches the glob PATTERN.
    ///
    /// The whole value must match (`*`, `?`, `[a-z]`, `{a,b}`; case
    /// counts); repeated, all must hold.
    #[arg(long = "tag", value_name = "NAME=PATTERN", value_parser = parse_tag,
          hide_short_help = true)]
    pub tags: Vec<TagPattern>,
    /// Keep only the games whose main line has MIN to MAX half-moves.
    ///
    /// Both included; also MIN.., ..MAX, N.
    #[arg(long, value_name = "MIN..MAX", value_parser = parse_plies, hide_short_help = true)]
    pub plies: Option<SelectPlies>,
    /// Keep only the games whose main line passes through a position.
    ///
    /// The main line is replayed as --verify does; the position's pieces
    /// and side to move must match.
    #[arg(long, value_name = "PDTL", value_parser = parse_pdtl, hide_short_help = true)]
    pub reaches: Option<Pdtl>,
    /// Stop reading once N games are written.
    ///
    /// The rest of the input, and the inputs after it, are not read.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..),
          conflicts_with = "in_place", hide_short_help = true)]
    pub stop_after: Option<u64>,
    /// Copy the input cut at game starts into pieces of SIZE bytes or more.
    ///
    /// Nothing is filtered: the input is written unchanged (decompressed),
    /// with a NUL byte after each piece but the last, for GNU parallel
    /// (`--recend '\0' --rrs`), Spark, Hadoop Streaming and other engines
    /// that filter pieces apart. SIZE: bytes, or with K, M or G after it
    /// (KiB, MiB, GiB: powers of 1024). Give it the --keep-* options the
    /// pieces will be filtered with.
    #[arg(long, value_name = "SIZE", value_parser = parse_size, hide_short_help = true,
          conflicts_with_all = ["check", "in_place", "out_dir", "format", "verify", "rejects",
                                "fail_fast", "duplicates"])]
    pub cut: Option<u64>,
    /// Worker threads (0: one per core).
    ///
    /// By default one per core for a regular file of 4 MB or more on disk,
    /// else 1. At most 4 per core: more are capped, with a warning. The
    /// output is the same for any N.
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Bytes per chunk with --jobs (for tests of the chunking).
    #[arg(long, hide = true, default_value_t = CHUNK_BYTES)]
    pub chunk_bytes: usize,

    /// Read every token through the tokenizer, canonical moves included
    /// (for the tests and measurements that compare the two readings).
    #[arg(long, hide = true)]
    pub no_spans: bool,
    /// Do not print warnings or notes (errors are still printed).
    ///
    /// Nor the summary, when all it would say is which games were left out.
    #[arg(short, long)]
    pub quiet: bool,
    /// Print every diagnostic, not only 10 of each kind per input.
    ///
    /// By default, after 10 diagnostics of one kind (standard-chess PGN,
    /// encoding, tag syntax...) in one input, the rest are counted, and one
    /// line says how many. The rejects file gets every rejected game either
    /// way.
    #[arg(long, hide_short_help = true)]
    pub all_diagnostics: bool,
    /// Print counts per file and in total (as JSON with --format ndjson).
    ///
    /// The games left out are counted by reason.
    #[arg(long)]
    pub stats: bool,
    /// Show a progress bar even when stderr is not a terminal or the input is small.
    #[arg(long, hide_short_help = true)]
    pub progress: bool,
    /// Colour diagnostics.
    ///
    /// auto: never when NO_COLOR is set and not empty; always when
    /// CLICOLOR_FORCE is set and not 0; never when CLICOLOR is 0; else when
    /// stderr is a terminal and TERM is set and not `dumb` (or CI is set).
    #[arg(long, value_enum, default_value_t = Color::Auto, hide_short_help = true)]
    pub color: Color,
    /// Print a shell completion script and exit.
    #[arg(long, value_name = "SHELL", exclusive = true, hide_short_help = true)]
    pub completions: Option<clap_complete::Shell>,
    /// Print the manual page (roff) and exit.
    #[arg(long, exclusive = true, hide_short_help = true)]
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
        "zstdcat big.pgn.zst | ctlpgn-filter > clean.ctl-pgn",
        "compressed input (ctlpgn-filter big.pgn.zst reads it as well)",
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

/// A size in bytes: `4096`, `64K`, `64M`, `1G`: K, M and G (and KiB, MB
/// and the like) are all powers of 1024, as GNU parallel's `--block` reads them.
fn parse_size(s: &str) -> Result<u64, String> {
    parse_size::Config::new()
        .with_binary()
        .parse_size(s)
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| {
            format!("{s}: a size is a number of bytes above 0, with K, M or G after it (powers of 1024)")
        })
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
        "A usage error, a refusal to write over an input or inside a folder read, an \
         input that could not be read, a folder named with no game file in it, or an \
         error writing an output.",
    ),
    (
        "3",
        "A binary file (a NUL byte in the first 64 KiB of its text) or a UTF-16 file \
         was skipped.",
    ),
];

/// The environment variables read: name, what it does.
pub const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "NO_COLOR",
        "Set and not empty: no colour with --color auto (no-color.org).",
    ),
    (
        "CLICOLOR",
        "0: no colour with --color auto (bixense.com/clicolors).",
    ),
    (
        "CLICOLOR_FORCE",
        "Set and not 0: colour with --color auto even when stderr is not a terminal.",
    ),
    (
        "TERM",
        "Unset or dumb: no colour with --color auto, unless CI is set.",
    ),
    (
        "CI",
        "Set: colour with --color auto on a terminal even if TERM is dumb (a CI log).",
    ),
    (
        "COLUMNS",
        "The width --help wraps its text to when standard output is not a terminal.",
    ),
];

/// How the statuses combine.
pub const EXIT_PRECEDENCE: &str =
    "When several apply, the first of 2, 3, 1 is the status; 0 only when none applies.";

fn after_help() -> String {
    let width = help_width();
    let mut s = String::from("Examples:\n");
    for (command, what) in EXAMPLES {
        s += &format!("  {command}\n{}", wrap(what, 6, width));
    }
    s += "\nExit status:\n";
    for (status, when) in EXIT_STATUS {
        s += &format!("  {status}   {}", &wrap(when, 6, width)[6..]);
    }
    s += &wrap(EXIT_PRECEDENCE, 2, width);
    s.truncate(s.trim_end().len());
    s
}

/// The width clap wraps `--help` to: the terminal's (or `COLUMNS`, when
/// standard output is not one), at most 100 columns.
fn help_width() -> usize {
    console::Term::stdout()
        .size_checked()
        .map(|(_, w)| usize::from(w))
        .or_else(|| std::env::var("COLUMNS").ok()?.parse().ok())
        .unwrap_or(100)
        .clamp(20, 100)
}

/// `text` in lines of at most `width` columns, each indented by `indent`.
fn wrap(text: &str, indent: usize, width: usize) -> String {
    let mut s = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent + line.chars().count() + 1 + word.chars().count() > width {
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
const CHUNK_BYTES: usize = 1 << 20;

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Arg;

    /// What the command prints for `flag` (`-h` or `--help`): the text of
    /// the error clap's parse stops with, as `Cli::parse` prints it.
    fn help(flag: &str) -> String {
        let e = Cli::try_parse_from(["ctlpgn-filter", flag]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::DisplayHelp, "{flag}");
        e.to_string()
    }

    /// Every argument clap knows, `--help` and `--version` included.
    fn arguments() -> Vec<Arg> {
        let mut command = Cli::command();
        command.build();
        command.get_arguments().cloned().collect()
    }

    /// How the help's list of options starts the line of `arg`.
    fn spelling(arg: &Arg) -> String {
        match (arg.get_short(), arg.get_long()) {
            (Some(s), Some(l)) => format!("  -{s}, --{l}"),
            (Some(s), None) => format!("  -{s}"),
            (None, Some(l)) => format!("      --{l}"),
            (None, None) => {
                let name = arg.get_value_names().map_or_else(
                    || arg.get_id().as_str().to_uppercase(),
                    |names| names[0].to_string(),
                );
                if arg.is_required_set() {
                    format!("  <{name}>")
                } else {
                    format!("  [{name}]")
                }
            }
        }
    }

    /// `help` lists `arg`: a line starts with its spelling, which ends
    /// there (so `--dedup` is not found in `--dedup-result`).
    fn lists(help: &str, arg: &Arg) -> bool {
        let spelling = spelling(arg);
        help.lines().any(|line| {
            line.strip_prefix(&spelling)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '<', '.']))
        })
    }

    /// `text` with every run of white space one space: wrapping aside.
    fn words(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// What `-h` says of `arg` (its doc comment's first paragraph), or with
    /// `long`, what `--help` says (the whole doc comment).
    fn says(arg: &Arg, long: bool) -> String {
        let help = arg.get_help().expect("every option says what it does");
        let text = if long {
            arg.get_long_help().unwrap_or(help)
        } else {
            help
        };
        words(&text.to_string())
    }

    #[test]
    fn long_help_lists_every_option_but_the_hidden_ones_with_what_it_does() {
        let help = help("--help");
        let (mut shown, mut hidden) = (0, 0);
        for arg in arguments() {
            if arg.is_hide_set() {
                assert!(!lists(&help, &arg), "{} is hidden:\n{help}", spelling(&arg));
                hidden += 1;
            } else {
                assert!(lists(&help, &arg), "{} missing:\n{help}", spelling(&arg));
                assert!(
                    words(&help).contains(&says(&arg, true)),
                    "{}:\n{help}",
                    says(&arg, true)
                );
                shown += 1;
            }
        }
        // The list really is clap's: options, hidden ones among them.
        assert!(shown > 30 && hidden > 0, "{shown} shown, {hidden} hidden");
    }

    #[test]
    fn short_help_lists_the_options_not_hidden_from_it_and_no_other() {
        let help = help("-h");
        let (mut shown, mut left_to_long_help) = (0, 0);
        for arg in arguments() {
            if arg.is_hide_set() || arg.is_hide_short_help_set() {
                assert!(
                    !lists(&help, &arg),
                    "{} is not in -h:\n{help}",
                    spelling(&arg)
                );
                left_to_long_help += 1;
            } else {
                assert!(lists(&help, &arg), "{} missing:\n{help}", spelling(&arg));
                assert!(
                    words(&help).contains(&says(&arg, false)),
                    "{}:\n{help}",
                    says(&arg, false)
                );
                shown += 1;
            }
        }
        assert!(
            shown > 10 && left_to_long_help > 10,
            "{shown} shown, {left_to_long_help} left to --help"
        );
    }

    #[test]
    fn long_help_shows_every_example() {
        let help = words(&help("--help"));
        for (command, what) in EXAMPLES {
            assert!(
                help.contains(&words(&format!("{command} {what}"))),
                "{command}:\n{help}"
            );
        }
    }
}
