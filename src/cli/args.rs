//! The options, as clap reads them and as `--help`, `--man` and
//! `--completions` show them.

use super::inputs::GameFiles;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Command, CommandFactory, Parser, ValueEnum};
use ctlpgn_filter::options::{
    parse_columns, parse_date, parse_max_depth, parse_pdtl, parse_player, parse_plies,
    parse_result, parse_size, parse_stop_after, parse_tag, FORMATS, LISTING_IS_ONE,
};
use ctlpgn_filter::{
    Columns, DiagramOptions, Format, Options, Pdtl, PieceStyle, SelectDate, SelectPlies,
    SelectResult, Side, TagPattern, DEFAULT_MAX_DEPTH, PASS_NAMES,
};
use std::path::PathBuf;

/// Turn any CTL-PGN (C'escacs game records) into canonical minimal-reader input.
#[derive(Parser, Debug)]
#[command(version, after_long_help = after_help())]
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
    #[arg(help_heading = "Output", short, long, value_name = "FILE", conflicts_with_all = ["in_place", "out_dir"])]
    pub output: Option<PathBuf>,
    /// Rewrite each FILE in place.
    ///
    /// Replaced whole, keeping its permissions; left untouched if any game
    /// is rejected. Compressed files are refused.
    #[arg(
        help_heading = "Output",
        long,
        conflicts_with = "out_dir",
        requires = "files"
    )]
    pub in_place: bool,
    /// Write each input under DIR at the same relative path.
    ///
    /// Folders are walked; an input whose games are all rejected gets no
    /// file; a compressed input is written decompressed, without its .gz,
    /// .zst, .xz or .bz2. DIR must not be inside a folder read.
    #[arg(help_heading = "Output", long, value_name = "DIR", requires = "files")]
    pub out_dir: Option<PathBuf>,
    /// In folders, read the files whose names match PATTERN.
    ///
    /// Repeatable; in place of the default, *.ctl-pgn and *.pgn; a glob over the name,
    /// case aside, with or without its .gz, .zst, .xz or .bz2 (`--glob
    /// '*.txt' --glob '*.pgn'`).
    #[arg(help_heading = "Inputs", long = "glob", value_name = "PATTERN")]
    pub globs: Vec<String>,
    /// In folders, read hidden files and folders too.
    ///
    /// Those whose name starts with a dot, as fd -H and rg --hidden read them.
    #[arg(help_heading = "Inputs", long)]
    pub hidden: bool,
    /// Follow symbolic links met while walking folders.
    ///
    /// A link back to a folder it is in is reported and skipped.
    #[arg(help_heading = "Inputs", short = 'L', long)]
    pub follow: bool,
    /// Output format: ctl-pgn (the default), ndjson, tsv, csv.
    ///
    /// tsv and csv: a header line, then one line per game written, its
    /// --columns: tsv with a tab between values and `\`, tab, line feed
    /// and carriage return in them written `\\`, `\t`, `\n`, `\r`; csv
    /// with a comma between values, each text quoted (`"` doubled), as RFC
    /// 4180. The values are ndjson's, so `jq -r '[...] | @tsv'` (or `@csv`)
    /// on ndjson writes the same lines.
    #[arg(help_heading = "Output", long, value_name = "FORMAT", default_value = "ctl-pgn",
          value_parser = format_parser())]
    pub format: Format,
    /// With --format tsv or csv, the columns, separated by commas.
    ///
    /// By default White,Black,Date,result,plies,file,line. file: the
    /// input's name; line: where the game starts; plies: its main line's
    /// half-moves; result: the result written (its result line, not its
    /// Result tag); any other name, a tag's first value, empty if the game
    /// has none (case counts: Result is the tag).
    #[arg(help_heading = "Output", long, value_name = "LIST", value_parser = parse_columns,
          hide_short_help = true)]
    pub columns: Option<Columns>,
    /// Print the number of games selected, and nothing else.
    ///
    /// The games that would be written: read, neither rejected nor left
    /// out by a selection, --dedup or --stop-after.
    #[arg(help_heading = "Output", long,
          conflicts_with_all = ["format", "typographic", "in_place", "out_dir", "check", "cut",
                                "split_variations"])]
    pub count: bool,
    /// Write captures × and Black's first move …, as printed.
    ///
    /// The form the notation's author's program reads (docs/authors-reader.md);
    /// dashes stay -, which it reads too. Read again, the output gives the
    /// default output byte for byte; ndjson is left as it is.
    #[arg(help_heading = "Output", long)]
    pub typographic: bool,
    /// Keep comments `{...}`.
    #[arg(help_heading = "What is kept", long)]
    pub keep_comments: bool,
    /// Keep variations `(...)`.
    #[arg(help_heading = "What is kept", long)]
    pub keep_variations: bool,
    /// Write each variation as a linear game of its own.
    ///
    /// At any depth, after its game (which is written without them), named
    /// by its path in the Id tag (`Cescacs-X01-V-S:0:1-en`) or a
    /// VariationPath tag; with --verify or --check each is replayed, and
    /// rejected alone.
    #[arg(
        help_heading = "What is kept",
        long,
        conflicts_with = "keep_variations"
    )]
    pub split_variations: bool,
    /// Reject a game whose variations nest deeper than N.
    ///
    /// A variation on the main line is at depth 1. Records written by hand
    /// nest a few levels; the limit keeps a hostile nesting's output from
    /// growing with the square of its size (kept variations show their
    /// depth in dots, split ones repeat the moves of those around them).
    /// The same games are rejected whether variations are dropped, kept or
    /// split.
    #[arg(help_heading = "Inputs", long, value_name = "N", default_value_t = DEFAULT_MAX_DEPTH, hide_short_help = true,
          value_parser = parse_max_depth)]
    pub max_depth: u32,
    /// Keep ratings (`?!`, `◇`...) and NAGs (`$n`).
    #[arg(help_heading = "What is kept", long)]
    pub keep_ratings: bool,
    /// Leave out built-in passes (redefine, fan, comments, variations, ratings, ascii).
    #[arg(help_heading = "What is kept", long, value_name = "PASS", value_delimiter = ',', hide_short_help = true,
          value_parser = clap::builder::PossibleValuesParser::new(PASS_NAMES))]
    pub skip_pass: Vec<String>,
    /// Reject a game whose moves do not replay coherently.
    ///
    /// The main line is replayed on the board; no rules of play are checked.
    #[arg(help_heading = "Replay", long)]
    pub verify: bool,
    /// Replay each game: is every move possible on the board (coherence, not the rules of play).
    ///
    /// --verify without output: diagnostics, a summary (`7 games read, 7
    /// coherent, ...`; none with -q when all are) and the status only.
    #[arg(help_heading = "Replay", long, conflicts_with_all = ["output", "in_place", "out_dir", "format", "typographic"])]
    pub check: bool,
    /// With --verify or --check, print each written game's final position.
    ///
    /// As a PDTL on stderr: `FILE:LINE: final position: PDTL`; with
    /// --split-variations, then one line per variation game written,
    /// `FILE:LINE: final position (variation 0:2): PDTL`.
    #[arg(help_heading = "Replay", long, hide_short_help = true)]
    pub final_pdtl: bool,
    /// Write the board of a position, as SVG, to standard output, and exit.
    #[arg(help_heading = "Replay", long, value_name = "PDTL", value_parser = parse_pdtl, hide_short_help = true,
          conflicts_with_all = ["files", "output", "in_place", "out_dir", "check", "verify"])]
    pub diagram: Option<Pdtl>,
    /// With --verify or --check, write each written game's final board to DIR.
    ///
    /// As SVG, DIR/ID.svg after the game's Id tag, else DIR/N.svg after its
    /// number in the input (`-2`, `-3`... after a name taken); its last
    /// move marked. With --split-variations, one per variation game (named
    /// after its Id, ID-V-S:0:1, or N-V-S:0:1). An incoherent game's board
    /// is the position before the move that does not fit, that move's
    /// hexes marked in red. DIR must not be inside a folder read.
    #[arg(
        help_heading = "Replay",
        long,
        value_name = "DIR",
        hide_short_help = true
    )]
    pub diagrams: Option<PathBuf>,
    /// The diagrams' width in pixels.
    #[arg(help_heading = "Replay", long, value_name = "PX", default_value_t = 480, hide_short_help = true,
          value_parser = clap::value_parser!(u32).range(16..=20000))]
    pub diagram_size: u32,
    /// Whose view the diagrams show: that side's vertex at the bottom.
    #[arg(help_heading = "Replay", long, value_enum, default_value_t = View::White, hide_short_help = true)]
    pub view: View,
    /// Draw the pieces as the notation's figurines (♔ ♚ ...), not letters in discs.
    ///
    /// The viewer needs a font that has them (U+2654-265F, U+2616-2617,
    /// U+1FA4F-1FA53).
    #[arg(help_heading = "Replay", long, hide_short_help = true)]
    pub figurines: bool,
    /// Turn every warning into an error that rejects its game.
    #[arg(help_heading = "What is kept", long)]
    pub strict: bool,
    /// Correct a Result tag that the game's end contradicts.
    ///
    /// The end is the game's result line, or its `#` move.
    #[arg(help_heading = "What is kept", long)]
    pub fix_result: bool,
    /// Write rejected games to FILE, byte for byte as read.
    ///
    /// `-`: standard output; replaced like -o's FILE, and refused where it is.
    #[arg(help_heading = "Output", long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// Stop at the first rejected game.
    #[arg(help_heading = "Running", long)]
    pub fail_fast: bool,
    /// Read lines of at most SIZE bytes (default 64M).
    ///
    /// A longer line is never held in memory: its game is rejected (to
    /// --rejects byte for byte, as any rejected game), the line is not
    /// read, and reading goes on at the next line. SIZE: bytes, or with K,
    /// M or G after it (powers of 1024).
    #[arg(help_heading = "Inputs", long, value_name = "SIZE", value_parser = parse_size, hide_short_help = true,
          default_value = "64M")]
    pub max_line_bytes: u64,
    /// Leave out a game that repeats one written before.
    ///
    /// A duplicate has the start (its PDTL, or the initial setup) and
    /// main-line moves of a game written before, in any input of the run;
    /// check marks, ratings, move numbers, comments, variations, the layout
    /// and the tags do not count. A note names the first copy.
    #[arg(help_heading = "Selection", long)]
    pub dedup: bool,
    /// Like --dedup, and games that end with another result are not duplicates.
    #[arg(help_heading = "Selection", long, hide_short_help = true)]
    pub dedup_result: bool,
    /// Write duplicates to FILE, as read (implies --dedup).
    ///
    /// `-`: standard output; replaced like -o's FILE, and refused where it is.
    #[arg(help_heading = "Output", long, value_name = "FILE")]
    pub duplicates: Option<PathBuf>,
    /// Keep the games whose tag NAME matches PATTERN.
    ///
    /// A PATTERN without glob characters matches at the start of the value
    /// or of any word in it, case aside (`--tag Site=barcelona`); one with
    /// them is a glob that the whole value must match, case counting (`*`,
    /// `?`, `[a-z]`, `{a,b}`). Repeated: one of those for the same NAME
    /// must hold, and those for different names all (`--tag 'Site=A*'
    /// --tag 'Site=B*' --tag 'Event=*Open*'`: site A or B, and an open
    /// event).
    #[arg(help_heading = "Selection", long = "tag", value_name = "NAME=PATTERN", value_parser = parse_tag)]
    pub tags: Vec<TagPattern>,
    /// Keep the games where White or Black matches PATTERN.
    ///
    /// As for --tag (pgn-extract's -Tp): `--player sasal` matches `Sasal,
    /// Cesc`, as `--player cesc` does; `--player 'Sasal*'` is a glob.
    /// Repeated: any of them; with --tag: that too.
    #[arg(help_heading = "Selection", long = "player", value_name = "PATTERN", value_parser = parse_player)]
    pub players: Vec<TagPattern>,
    /// Keep the games written with result R (3-0, white...).
    ///
    /// R: 3-0, 0-3, 1-1, 2-1, 1-2, * (quoted for the shell), or white
    /// (3-0 or 2-1), black (0-3 or 1-2), draw (1-1); repeated: any of
    /// them. The result the game is written with (its result line: the one
    /// read, else a `#` move's mover wins, else its Result tag), not its
    /// Result tag.
    #[arg(help_heading = "Selection", long = "result", value_name = "R", value_parser = parse_result)]
    pub results: Vec<SelectResult>,
    /// Keep the games dated FROM..TO (2022, 2022-08..2023).
    ///
    /// Both ends included, each YYYY, YYYY-MM or YYYY-MM-DD: FROM from its
    /// first day, TO to its last; one date alone is FROM..FROM. A Date
    /// with `?` digits (2022-??-??, or PGN's 2022.??.??) is in the range
    /// if every day it may be is; a game whose date is unknown at the
    /// precision needed (no Date, or 2022-??-?? for 2022-08..) is in no
    /// range, and counted apart.
    #[arg(help_heading = "Selection", long, value_name = "FROM..TO", value_parser = parse_date)]
    pub date: Option<SelectDate>,
    /// Write the games the selection leaves out (grep -v).
    ///
    /// The selection: --tag, --player, --result, --date, --plies,
    /// --reaches (as grep -v).
    /// Rejected games are rejected all the same.
    #[arg(help_heading = "Selection", short = 'v', long)]
    pub invert: bool,
    /// Keep the games of MIN to MAX main-line half-moves.
    ///
    /// Both included; also MIN.., ..MAX, N.
    #[arg(help_heading = "Selection", long, value_name = "MIN..MAX", value_parser = parse_plies)]
    pub plies: Option<SelectPlies>,
    /// Keep the games whose main line reaches the position.
    ///
    /// The main line is replayed as --verify does; the position's pieces
    /// and side to move must match.
    #[arg(help_heading = "Selection", long, value_name = "PDTL", value_parser = parse_pdtl)]
    pub reaches: Option<Pdtl>,
    /// Stop reading once N games are written.
    ///
    /// The rest of the input, and the inputs after it, are not read.
    #[arg(help_heading = "Selection", long, value_name = "N", value_parser = parse_stop_after, allow_hyphen_values = true,
          conflicts_with = "in_place")]
    pub stop_after: Option<u64>,
    /// Copy the input, cut at game starts into SIZE pieces.
    ///
    /// Nothing is filtered: the input is written unchanged (decompressed),
    /// with a NUL byte after each piece but the last, for GNU parallel
    /// (`--recend '\0' --rrs`), Spark, Hadoop Streaming and other engines
    /// that filter pieces apart. SIZE: bytes, or with K, M or G after it
    /// (KiB, MiB, GiB: powers of 1024). Give it the --keep-* options the
    /// pieces will be filtered with.
    #[arg(help_heading = "Running", long, value_name = "SIZE", value_parser = parse_size,
          conflicts_with_all = ["check", "in_place", "out_dir", "format", "verify", "rejects",
                                "fail_fast", "duplicates"])]
    pub cut: Option<u64>,
    /// With --cut, start each piece with a line naming where it comes from.
    ///
    /// `%ctlpgn-filter-origin LINE BYTE FILE`: a run whose input starts so
    /// (a GNU parallel job with -N1) names FILE in its diagnostics and its
    /// ndjson, counting lines and bytes as a run over FILE would, and never
    /// writes that line. Not for engines that join pieces (Spark).
    #[arg(
        help_heading = "Running",
        long,
        requires = "cut",
        hide_short_help = true
    )]
    pub mark_origin: bool,
    /// Worker threads (0: one per core).
    ///
    /// By default one per core for a regular file of 4 MB or more on disk,
    /// else 1. At most 4 per core: more are capped, with a warning. The
    /// output is the same for any N.
    #[arg(help_heading = "Running", short, long, value_name = "N", value_parser = parse_jobs, allow_hyphen_values = true)]
    pub jobs: Option<usize>,
    /// Bytes per chunk with --jobs (for tests of the chunking).
    #[arg(long, hide = true, default_value_t = CHUNK_BYTES)]
    pub chunk_bytes: usize,

    /// Print no warnings or notes (errors are still printed).
    ///
    /// Nor the summary, when all it would say is which games were left out.
    #[arg(help_heading = "Running", short, long)]
    pub quiet: bool,
    /// Print every diagnostic, not only 10 of each kind per input.
    ///
    /// By default, after 10 diagnostics of one kind (standard-chess PGN,
    /// encoding, tag syntax...) in one input, the rest are counted, and one
    /// line says how many. The rejects file gets every rejected game either
    /// way.
    #[arg(help_heading = "Running", long, hide_short_help = true)]
    pub all_diagnostics: bool,
    /// Print counts per file and in total (JSON with ndjson).
    ///
    /// The games left out are counted by reason.
    #[arg(help_heading = "Running", long)]
    pub stats: bool,
    /// Show a progress bar even when stderr is not a terminal or the input is small.
    #[arg(help_heading = "Running", long, hide_short_help = true)]
    pub progress: bool,
    /// Colour diagnostics.
    ///
    /// auto: never when NO_COLOR is set and not empty; always when
    /// CLICOLOR_FORCE is set and not 0; never when CLICOLOR is 0; else when
    /// stderr is a terminal and TERM is set and not `dumb` (or CI is set).
    #[arg(help_heading = "Running", long, value_enum, default_value_t = Color::Auto, hide_short_help = true)]
    pub color: Color,
    /// Print a shell completion script and exit.
    #[arg(
        help_heading = "Running",
        long,
        value_name = "SHELL",
        exclusive = true,
        hide_short_help = true
    )]
    pub completions: Option<clap_complete::Shell>,
    /// Print the manual page (roff) and exit.
    #[arg(
        help_heading = "Running",
        long,
        exclusive = true,
        hide_short_help = true
    )]
    pub man: bool,
}

/// `--format`: the library's names of formats, and what each writes.
fn format_parser() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(FORMATS.map(|(name, _, help)| PossibleValue::new(name).help(help)))
        .map(|name| {
            FORMATS
                .into_iter()
                .find(|(n, ..)| *n == name)
                .map(|(_, format, _)| format)
                .expect("one of FORMATS, as parsed")
        })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum View {
    /// White's vertex (F0) at the bottom.
    White,
    /// Black's vertex (F28) at the bottom.
    Black,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// When stderr is a terminal.
    Auto,
    Always,
    Never,
}

impl Cli {
    /// How `--diagram` and `--diagrams` draw.
    pub fn diagram_options(&self) -> DiagramOptions {
        DiagramOptions {
            size: self.diagram_size,
            view: match self.view {
                View::White => Side::White,
                View::Black => Side::Black,
            },
            pieces: if self.figurines {
                PieceStyle::Figurines
            } else {
                PieceStyle::Letters
            },
        }
    }

    /// The filtering options, as the library takes them (`--check` is
    /// `--verify` without output; `--duplicates` implies `--dedup`).
    pub fn options(&self) -> Options {
        Options {
            keep_comments: self.keep_comments,
            keep_variations: self.keep_variations,
            keep_ratings: self.keep_ratings,
            skip_pass: self.skip_pass.clone(),
            split_variations: self.split_variations,
            max_depth: self.max_depth,
            max_line_bytes: self.max_line_bytes,
            strict: self.strict,
            quiet: self.quiet,
            fix_result: self.fix_result,
            fail_fast: self.fail_fast,
            format: self.format,
            columns: self.columns.clone(),
            count: self.count,
            typographic: self.typographic,
            tags: self.tags.clone(),
            players: self.players.clone(),
            results: self.results.clone(),
            date: self.date.clone(),
            plies: self.plies.clone(),
            reaches: self.reaches.clone(),
            invert: self.invert,
            dedup: self.dedup || self.duplicates.is_some(),
            dedup_result: self.dedup_result,
            stop_after: self.stop_after,
            verify: self.verify || self.check,
        }
    }

    /// The files a folder's walk reads (`--glob`, `--hidden`); the globs
    /// were checked by [`Cli::parse_checked`].
    pub fn game_files(&self) -> GameFiles {
        GameFiles::new(&self.globs, self.hidden).expect("checked as parsed")
    }

    /// Reads the command line; exits with clap's usage error (status 2)
    /// for what clap cannot state itself.
    pub fn parse_checked() -> Cli {
        let cli = match Cli::try_parse() {
            Ok(cli) => cli,
            // -h: the summary, in place of clap's (--help is clap's).
            Err(e)
                if e.kind() == clap::error::ErrorKind::DisplayHelp
                    && !std::env::args_os().any(|a| a == "--help") =>
            {
                let _ = super::streams::to_stdout(short_help().as_bytes());
                std::process::exit(0);
            }
            Err(e) => e.exit(),
        };
        if let Err(e) = GameFiles::new(&cli.globs, cli.hidden) {
            Cli::command()
                .error(clap::error::ErrorKind::ValueValidation, e)
                .exit();
        }
        if let Err(e) = cli.options().check() {
            Cli::command()
                .error(clap::error::ErrorKind::ArgumentConflict, e)
                .exit();
        }
        let listing = matches!(cli.format, Format::Tsv | Format::Csv);
        if listing && (cli.in_place || cli.out_dir.is_some()) {
            Cli::command()
                .error(clap::error::ErrorKind::ArgumentConflict, LISTING_IS_ONE)
                .exit();
        }
        for (asked, what) in [
            (cli.final_pdtl, "--final-pdtl prints"),
            (cli.diagrams.is_some(), "--diagrams draws"),
        ] {
            if asked && !(cli.verify || cli.check) {
                Cli::command()
                    .error(
                        clap::error::ErrorKind::MissingRequiredArgument,
                        format!(
                            "{what} the final positions of a replay: \
                             add --verify (to filter and replay) or --check (to replay only)"
                        ),
                    )
                    .exit();
            }
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

/// The order of the groups of options in `-h`, as in `--help`.
const HEADINGS: &[&str] = &[
    "Inputs",
    "Output",
    "What is kept",
    "Replay",
    "Selection",
    "Running",
];

/// Where `-h` starts what an option does.
const SHORT_HELP_COLUMN: usize = 26;

/// The width `-h` fits in, whatever the terminal.
pub const SHORT_HELP_WIDTH: usize = 80;

/// `-h`: every option in one line, grouped as `--help` groups them; the
/// rarest (those hidden from clap's short help) named together at the end.
pub fn short_help() -> String {
    let mut command = Cli::command();
    command.build();
    let mut s = format!(
        "{}\n\nUsage: ctlpgn-filter [OPTIONS] [FILE]...   (no FILE, or -: standard input)\n\n",
        command
            .get_about()
            .map(ToString::to_string)
            .unwrap_or_default()
    );
    let options: Vec<&clap::Arg> = command
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_positional())
        .collect();
    let mut headings: Vec<&str> = HEADINGS.to_vec();
    for h in options.iter().filter_map(|a| a.get_help_heading()) {
        if !headings.contains(&h) {
            headings.push(h);
        }
    }
    let mut also = Vec::new();
    for heading in headings {
        let mut lines = String::new();
        for a in options
            .iter()
            .filter(|a| a.get_help_heading() == Some(heading))
        {
            if a.is_hide_short_help_set() {
                also.push(spelled(a).trim().to_string());
                continue;
            }
            let help = a.get_help().map(ToString::to_string).unwrap_or_default();
            let help = help.trim_end_matches('.');
            let name = format!("  {}", spelled(a));
            let wrapped = wrap(help, SHORT_HELP_COLUMN, SHORT_HELP_WIDTH);
            if name.chars().count() < SHORT_HELP_COLUMN {
                let pad = SHORT_HELP_COLUMN - name.chars().count();
                lines += &format!("{name}{:pad$}{}", "", &wrapped[SHORT_HELP_COLUMN..]);
            } else {
                lines += &format!("{name}\n{wrapped}");
            }
        }
        if !lines.is_empty() {
            s += &format!("{heading}:\n{lines}");
        }
    }
    also.extend(
        options
            .iter()
            .filter(|a| a.get_help_heading().is_none())
            .map(|a| spelled(a).trim().to_string()),
    );
    s += "\n";
    s += &wrap(&format!("Also: {}.", also.join(", ")), 0, SHORT_HELP_WIDTH);
    let statuses: Vec<&str> = EXIT_STATUS.iter().map(|(n, _)| *n).collect();
    s += &wrap(
        &format!(
            "--help: all in full, with examples and exit statuses {}.",
            statuses.join(", ")
        ),
        0,
        SHORT_HELP_WIDTH,
    );
    s
}

/// How `-h` spells an option: `-o, --output FILE`, `    --in-place`.
fn spelled(a: &clap::Arg) -> String {
    let mut s = match (a.get_short(), a.get_long()) {
        (Some(c), Some(l)) => format!("-{c}, --{l}"),
        (Some(c), None) => format!("-{c}"),
        (None, Some(l)) => format!("    --{l}"),
        (None, None) => a.get_id().to_string(),
    };
    if a.get_action().takes_values() {
        if let Some(names) = a.get_value_names() {
            s += &format!(" {}", names[0]);
        } else {
            s += &format!(" {}", a.get_id().as_str().to_uppercase());
        }
    }
    s
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
        "ctlpgn-filter --check --diagrams boards/ game.ctl-pgn",
        "replay each game, and draw each game's final position as boards/ID.svg",
    ),
    (
        "ctlpgn-filter --dedup --duplicates dups.ctl-pgn --tag 'Event=*Open*' -o one-each.ctl-pgn archive/",
        "one copy of each game of an event, the other copies kept aside as read",
    ),
];

/// `--jobs N`: a whole number, 0 for one thread per core.
fn parse_jobs(s: &str) -> Result<usize, String> {
    s.parse().map_err(|_| {
        format!(
            "--jobs takes a whole number of threads, from 1 up (this machine has {} cores); \
             0 means one per core",
            cores()
        )
    })
}

/// The exit statuses: status, when.
pub const EXIT_STATUS: &[(&str, &str)] = &[
    (
        "0",
        "Every game was written, or left out as asked (--dedup, --tag, --player, --result, \
         --date, --plies, --reaches, --invert) (with --check: every game is coherent).",
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
    (
        "4",
        "A selection (--tag, --player, --result, --date, --plies, --reaches, --invert) kept \
         no game, as grep's 1: nothing was rejected, nothing matched.",
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
    "When several apply, the first of 2, 3, 1, 4 is the status; 0 only when none applies.";

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

/// The cores this machine has (1 if that cannot be known).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The most worker threads `--jobs` starts: four per core (at least 4).
/// More gain nothing and each takes memory (a few 1 MiB chunks).
pub fn max_jobs() -> usize {
    (4 * cores()).max(4)
}

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

    /// The options of the command line that are no filter's: what it reads
    /// and writes, the replay's output, how it runs.
    const THE_COMMANDS_OWN: &[&str] = &[
        "output",
        "in-place",
        "out-dir",
        "glob",
        "hidden",
        "follow",
        "check",
        "final-pdtl",
        "diagram",
        "diagrams",
        "diagram-size",
        "view",
        "figurines",
        "rejects",
        "duplicates",
        "cut",
        "mark-origin",
        "jobs",
        "chunk-bytes",
        "all-diagnostics",
        "stats",
        "progress",
        "color",
        "completions",
        "man",
        "help",
        "version",
    ];

    /// A value each option of the library's takes.
    fn a_value(name: &str) -> &'static str {
        match name {
            "skip-pass" => "fan",
            "format" => "tsv",
            "columns" => "White,plies",
            "tag" => "Event=x*",
            "player" => "sasal",
            "result" => "white",
            "date" => "2022-08..",
            "plies" => "10..40",
            "reaches" => ctlpgn_filter::INITIAL_PDTL,
            "max-line-bytes" => "1M",
            _ => "7",
        }
    }

    #[test]
    fn every_filtering_option_is_the_library_s_with_the_same_value_name() {
        let mut filtering = 0;
        for arg in arguments().iter().filter(|a| !a.is_positional()) {
            let long = arg.get_long().expect("every option has a long name");
            if THE_COMMANDS_OWN.contains(&long) {
                continue;
            }
            let value = arg
                .get_action()
                .takes_values()
                .then(|| arg.get_value_names().expect("a value name")[0].to_string());
            let (_, library) = ctlpgn_filter::options::OPTIONS
                .iter()
                .find(|(n, _)| *n == long)
                .unwrap_or_else(|| panic!("--{long} is not in the library's Options"));
            assert_eq!(value.as_deref(), *library, "--{long}");
            filtering += 1;
        }
        assert_eq!(filtering, ctlpgn_filter::options::OPTIONS.len());
    }

    #[test]
    fn the_command_line_fills_the_options_as_the_library_sets_them() {
        for (name, value) in ctlpgn_filter::options::OPTIONS {
            let mut args = vec!["ctlpgn-filter".to_string(), format!("--{name}")];
            let mut want = Options::default();
            match value {
                Some(_) => {
                    args.push(a_value(name).to_string());
                    want.set(name, a_value(name)).unwrap();
                }
                None => want.flag(name, true).unwrap(),
            }
            if name == "columns" {
                args.extend(["--format", "tsv"].map(String::from));
                want.set("format", "tsv").unwrap();
            }
            let cli = Cli::try_parse_from(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
            assert_eq!(
                format!("{:?}", cli.options()),
                format!("{want:?}"),
                "--{name}"
            );
        }
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
    fn short_help_names_every_option_but_the_hidden_ones() {
        let help = short_help();
        let (mut own_line, mut shared) = (0, 0);
        for arg in arguments().iter().filter(|a| !a.is_positional()) {
            let name = spelled(arg).trim().to_string();
            if arg.is_hide_set() {
                assert!(!help.contains(&name), "{name} is hidden:\n{help}");
            } else if arg.is_hide_short_help_set() || arg.get_help_heading().is_none() {
                // The rarest share the closing lines.
                let also = words(&help[help.find("\nAlso: ").expect("an Also line")..]);
                assert!(
                    also.contains(&format!(" {name},")) || also.contains(&format!(" {name}.")),
                    "{name} missing:\n{help}"
                );
                shared += 1;
            } else {
                let line = help
                    .lines()
                    .find(|l| l.trim_start().starts_with(&format!("{name} ")))
                    .unwrap_or_else(|| panic!("{name} missing:\n{help}"));
                let said = says(arg, false);
                assert!(
                    words(&help).contains(said.trim_end_matches('.')),
                    "{said}:\n{help}"
                );
                assert!(
                    line.len() > name.len(),
                    "{name}: what it does is on its line"
                );
                own_line += 1;
            }
        }
        assert!(
            own_line > 25 && shared > 5,
            "{own_line} on a line, {shared} shared"
        );
    }

    #[test]
    fn short_help_fits_50_lines_of_80_columns() {
        let help = short_help();
        assert!(
            help.lines().count() <= 50,
            "{} lines:\n{help}",
            help.lines().count()
        );
        for line in help.lines() {
            assert!(line.chars().count() <= SHORT_HELP_WIDTH, "{line}");
        }
    }

    #[test]
    fn short_help_groups_options_as_long_help_does() {
        let (short, long) = (short_help(), help("--help"));
        for heading in HEADINGS {
            assert!(
                short.contains(&format!("\n{heading}:\n")),
                "{heading}:\n{short}"
            );
            assert!(
                long.contains(&format!("\n{heading}:\n")),
                "{heading}:\n{long}"
            );
        }
    }

    #[test]
    fn short_help_says_check_replays_for_coherence_not_the_rules_of_play() {
        assert!(
            words(&short_help()).contains(
                "--check Replay each game: is every move possible on the board \
                 (coherence, not the rules of play)"
            ),
            "{}",
            short_help()
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
