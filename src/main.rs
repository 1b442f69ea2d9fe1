use clap::{CommandFactory, Parser, ValueEnum};
use ctlpgn_filter::{
    run_parallel, Diagnostic, Filter, FilterBuilder, Format, Report, Severity, Verify, PASS_NAMES,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// Turn any CTL-PGN (C'escacs game records) into canonical minimal-reader input.
#[derive(Parser, Debug)]
#[command(version, about, after_help = EXAMPLES)]
struct Cli {
    /// Input files (or, with --out-dir, folders), read in order; none or `-` reads standard input.
    files: Vec<PathBuf>,
    /// Write the output to FILE (atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE", conflicts_with_all = ["in_place", "out_dir"])]
    output: Option<PathBuf>,
    /// Rewrite each FILE in place (atomically; left untouched if any game is rejected).
    #[arg(long, conflicts_with = "out_dir", requires = "files")]
    in_place: bool,
    /// Write each input under DIR at the same relative path (folders are walked).
    #[arg(long, value_name = "DIR", requires = "files")]
    out_dir: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::CtlPgn)]
    format: OutputFormat,
    /// Keep comments `{...}`.
    #[arg(long)]
    keep_comments: bool,
    /// Keep variations `(...)`.
    #[arg(long)]
    keep_variations: bool,
    /// Keep ratings (`?!`, `◇`...) and NAGs (`$n`).
    #[arg(long)]
    keep_ratings: bool,
    /// Leave out built-in passes (redefine, fan, comments, variations, ratings, ascii).
    #[arg(long, value_name = "PASS", value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(PASS_NAMES))]
    skip_pass: Vec<String>,
    /// Replay each game's main line and reject a game whose moves are not
    /// algebraically coherent (no rules of play are checked).
    #[arg(long)]
    verify: bool,
    /// Like --verify, but write no output: only diagnostics and the exit status.
    #[arg(long, conflicts_with_all = ["output", "in_place", "out_dir", "format"])]
    check: bool,
    /// With --verify or --check, print each written game's final position as
    /// a PDTL on stderr: `FILE:LINE: final position: PDTL`.
    #[arg(long)]
    final_pdtl: bool,
    /// Turn every warning into an error that rejects its game.
    #[arg(long)]
    strict: bool,
    /// Write each rejected game to FILE, byte for byte as it was read.
    #[arg(long, value_name = "FILE")]
    rejects: Option<PathBuf>,
    /// Stop at the first rejected game.
    #[arg(long)]
    fail_fast: bool,
    /// Worker threads [default: the number of cores for a regular file of 4 MB or more, else 1].
    #[arg(short, long, value_name = "N")]
    jobs: Option<usize>,
    /// Bytes per chunk with --jobs (for tests of the chunking).
    #[arg(long, hide = true, default_value_t = CHUNK_BYTES)]
    chunk_bytes: usize,
    /// Do not print warnings (errors are still printed).
    #[arg(short, long)]
    quiet: bool,
    /// Print counts per file and in total (as JSON with --format ndjson).
    #[arg(long)]
    stats: bool,
    /// Show a progress bar even when stderr is not a terminal or the input is small.
    #[arg(long)]
    progress: bool,
    /// Colour diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto)]
    color: Color,
    /// Print a shell completion script and exit.
    #[arg(long, value_name = "SHELL", exclusive = true)]
    completions: Option<clap_complete::Shell>,
    /// Print the manual page (roff) and exit.
    #[arg(long, exclusive = true)]
    man: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OutputFormat {
    /// Canonical CTL-PGN.
    CtlPgn,
    /// One JSON object per game.
    Ndjson,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Color {
    /// When stderr is a terminal.
    Auto,
    Always,
    Never,
}

const EXAMPLES: &str = "Examples:
  ctlpgn-filter game.ctl-pgn > clean.ctl-pgn       one file
  cat games/*.ctl-pgn | ctlpgn-filter -q | reader  a pipeline stage
  ctlpgn-filter --out-dir clean/ games/            a whole folder, recursively";

/// Inputs at least this large are split over several threads by default,
/// and get a progress bar on a terminal.
const LARGE_INPUT: u64 = 4 << 20;
/// Bytes per chunk handed to a worker by default.
const CHUNK_BYTES: usize = 2 << 20;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(shell) = cli.completions {
        clap_complete::generate(
            shell,
            &mut Cli::command(),
            "ctlpgn-filter",
            &mut io::stdout(),
        );
        return ExitCode::SUCCESS;
    }
    if cli.man {
        return match clap_mangen::Man::new(Cli::command()).render(&mut io::stdout()) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => fail(&e),
        };
    }
    match run(&cli) {
        Ok(total) => ExitCode::from(u8::from(total.games_rejected > 0)),
        // A reader that went away (`| head`) is not a failure of ours.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

fn fail(e: &io::Error) -> ExitCode {
    eprintln!("ctlpgn-filter: {e}");
    ExitCode::from(2)
}

/// Adds the path to an I/O error, so the user knows which file it is about.
fn at(path: &Path) -> impl FnOnce(io::Error) -> io::Error + '_ {
    move |e| io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// The name of the input being filtered, for `--final-pdtl` lines.
type InputName = Arc<Mutex<String>>;

fn build_filter(cli: &Cli, name: &InputName) -> Filter {
    let mut builder = FilterBuilder::new()
        .keep_comments(cli.keep_comments)
        .keep_variations(cli.keep_variations)
        .keep_ratings(cli.keep_ratings)
        .strict(cli.strict)
        .fail_fast(cli.fail_fast)
        .format(match cli.format {
            OutputFormat::CtlPgn => Format::CtlPgn,
            OutputFormat::Ndjson => Format::Ndjson,
        });
    for p in &cli.skip_pass {
        builder = builder.skip_pass(p);
    }
    if cli.verify || cli.check || cli.final_pdtl {
        let mut verify = Verify::new();
        if cli.final_pdtl {
            let name = Arc::clone(name);
            verify = verify.on_game_end(move |end| {
                if end.coherent && !end.rejected {
                    let name = name.lock().expect("no thread panics holding it");
                    eprintln!("{name}:{}: final position: {}", end.line, end.position);
                }
            });
        }
        builder = builder.pass(Box::new(verify));
    }
    builder.build()
}

fn run(cli: &Cli) -> io::Result<Report> {
    let mut session = Session::new(cli)?;
    let stdin = [PathBuf::from("-")];
    let inputs: &[PathBuf] = if cli.files.is_empty() {
        &stdin
    } else {
        &cli.files
    };
    if cli.in_place {
        for path in inputs {
            session.in_place(path)?;
            if session.stopped() {
                break;
            }
        }
    } else if let Some(dir) = &cli.out_dir {
        for (path, relative) in walk(inputs)? {
            session.filter_into_dir(&path, &dir.join(relative))?;
            if session.stopped() {
                break;
            }
        }
    } else if cli.check {
        for path in inputs {
            session.filter_file(path, &mut io::sink())?;
            if session.stopped() {
                break;
            }
        }
    } else {
        let mut sink = AtomicFile::open(cli.output.as_deref())?;
        for path in inputs {
            session.filter_file(path, &mut sink.out)?;
            if session.stopped() {
                break;
            }
        }
        sink.commit()?;
    }
    session.finish()
}

/// What one run of the command carries from file to file.
struct Session<'c> {
    cli: &'c Cli,
    name: InputName,
    filter: Filter,
    rejects: Option<BufWriter<File>>,
    total: Report,
    color: bool,
}

impl<'c> Session<'c> {
    fn new(cli: &'c Cli) -> io::Result<Session<'c>> {
        let rejects = match &cli.rejects {
            None => None,
            Some(p) => Some(BufWriter::new(File::create(p).map_err(at(p))?)),
        };
        let color = match cli.color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => io::stderr().is_terminal(),
        };
        let name = InputName::default();
        Ok(Session {
            cli,
            filter: build_filter(cli, &name),
            name,
            rejects,
            total: Report::default(),
            color,
        })
    }

    fn stopped(&self) -> bool {
        self.cli.fail_fast && self.total.games_rejected > 0
    }

    /// Filters one input (a path, or `-` for stdin) into `out`.
    fn filter_file(&mut self, path: &Path, out: &mut dyn Write) -> io::Result<Report> {
        let cli = self.cli;
        let stdin = path.as_os_str() == "-";
        let name = if stdin {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        let file = if stdin {
            None
        } else {
            Some(File::open(path).map_err(at(path))?)
        };
        let size = file
            .as_ref()
            .and_then(|f| f.metadata().ok())
            .filter(|m| m.is_file())
            .map(|m| m.len());
        let jobs = match cli.jobs {
            // Final positions are printed as games end: one thread keeps their order.
            _ if cli.fail_fast || cli.final_pdtl => 1,
            Some(n) => n.max(1),
            None if size.is_some_and(|s| s >= LARGE_INPUT) => {
                std::thread::available_parallelism().map_or(1, |n| n.get())
            }
            None => 1,
        };
        let progress = self.progress_bar(size);
        let input: Box<dyn Read> = match file {
            None => Box::new(io::stdin().lock()),
            Some(f) => Box::new(f),
        };
        let input = progress.wrap_read(input);
        let mut out = GameCounter {
            out,
            bar: &progress,
            ndjson: cli.format == OutputFormat::Ndjson,
            at_line_start: true,
            games: 0,
        };
        let (quiet, color) = (cli.quiet, self.color);
        let bar = progress.clone();
        let mut on_diag = |d: &Diagnostic| {
            if !(quiet && d.severity == Severity::Warning) {
                bar.suspend(|| eprint!("{}", d.render_styled(&name, color)));
            }
        };
        let rejects = self.rejects.as_mut().map(|r| r as &mut dyn Write);
        self.filter.set_file_name(&name);
        name.clone_into(&mut self.name.lock().expect("no thread panics holding it"));
        let report = if jobs > 1 {
            let make = || {
                let mut f = build_filter(cli, &self.name);
                f.set_file_name(&name);
                f
            };
            run_parallel(
                &make,
                input,
                jobs,
                cli.chunk_bytes,
                &mut out,
                rejects,
                &mut on_diag,
            )?
        } else {
            let input = BufReader::with_capacity(1 << 18, input);
            self.filter
                .run_with_rejects(input, &mut out, rejects, &mut on_diag)?
        };
        progress.finish_and_clear();
        self.total.add(&report);
        if cli.stats {
            self.print_stats(Some(&name), &report);
        }
        Ok(report)
    }

    fn progress_bar(&self, size: Option<u64>) -> ProgressBar {
        let cli = self.cli;
        let show = cli.progress
            || (!cli.quiet && io::stderr().is_terminal() && size.is_some_and(|s| s >= LARGE_INPUT));
        if !show {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::with_draw_target(
            size,
            ProgressDrawTarget::term_like(Box::new(console::Term::stderr())),
        );
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:30} {decimal_bytes}/{decimal_total_bytes} {decimal_bytes_per_sec} {msg}",
            )
            .expect("the template is valid"),
        );
        bar
    }

    /// Rewrites `path` with its filtered text, or leaves it untouched.
    fn in_place(&mut self, path: &Path) -> io::Result<()> {
        let mut target = AtomicFile::open(Some(path))?;
        let report = self.filter_file(path, &mut target.out)?;
        if report.games_rejected > 0 {
            eprintln!(
                "ctlpgn-filter: {}: left unchanged: {} games rejected",
                path.display(),
                report.games_rejected
            );
            return Ok(());
        }
        if let Ok(meta) = std::fs::metadata(path) {
            target.permissions = Some(meta.permissions());
        }
        target.commit()
    }

    /// Filters `path` into `target`, creating its folders.
    fn filter_into_dir(&mut self, path: &Path, target: &Path) -> io::Result<()> {
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(at(parent))?;
        }
        let mut out = AtomicFile::open(Some(target))?;
        self.filter_file(path, &mut out.out)?;
        out.commit()
    }

    fn print_stats(&self, file: Option<&str>, r: &Report) {
        if self.cli.format == OutputFormat::Ndjson {
            let mut v = serde_json::json!({
                "games": r.games_read,
                "written": r.games_written,
                "rejected": r.games_rejected,
                "warnings": r.warnings,
                "half_moves": r.half_moves,
                "comments_dropped": r.comments_dropped,
                "variations_dropped": r.variations_dropped,
                "ratings_dropped": r.ratings_dropped,
            });
            v["file"] = file.map_or(serde_json::Value::Null, Into::into);
            eprintln!("{v}");
        } else {
            eprintln!(
                "ctlpgn-filter: {}: {} games, {} half-moves; dropped {} comments, {} variations, {} ratings; {} rejected, {} warnings",
                file.unwrap_or("total"),
                r.games_read,
                r.half_moves,
                r.comments_dropped,
                r.variations_dropped,
                r.ratings_dropped,
                r.games_rejected,
                r.warnings
            );
        }
    }

    fn finish(mut self) -> io::Result<Report> {
        if let Some(r) = self.rejects.as_mut() {
            r.flush()?;
        }
        let t = self.total;
        if self.cli.stats && self.cli.format == OutputFormat::Ndjson {
            self.print_stats(None, &t);
        } else if self.cli.stats || t.games_rejected > 0 {
            eprintln!(
                "ctlpgn-filter: {} games read, {} written, {} rejected, {} warnings",
                t.games_read, t.games_written, t.games_rejected, t.warnings
            );
        }
        Ok(t)
    }
}

/// The files to filter under each input, with the path to write each at:
/// a file stands for itself (its name); a folder for its `.ctl-pgn` and
/// `.pgn` files, recursively, in sorted order, at their path inside it.
fn walk(inputs: &[PathBuf]) -> io::Result<Vec<(PathBuf, PathBuf)>> {
    let mut found = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut files = Vec::new();
            collect(input, &mut files)?;
            files.sort();
            for f in files {
                let rel = f
                    .strip_prefix(input)
                    .expect("walked below it")
                    .to_path_buf();
                found.push((f, rel));
            }
        } else {
            let name = input.file_name().map(PathBuf::from).ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "{}: --out-dir needs files or folders, not stdin",
                        input.display()
                    ),
                )
            })?;
            found.push((input.clone(), name));
        }
    }
    Ok(found)
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir).map_err(at(dir))? {
        let path = entry.map_err(at(dir))?.path();
        if path.is_dir() {
            collect(&path, files)?;
        } else if path
            .extension()
            .is_some_and(|e| e == "ctl-pgn" || e == "pgn")
        {
            files.push(path);
        }
    }
    Ok(())
}

/// Counts games as they are written, for the progress bar: canonical
/// output starts every game with a `[Variant` line, ndjson with a line.
struct GameCounter<'a> {
    out: &'a mut dyn Write,
    bar: &'a ProgressBar,
    ndjson: bool,
    at_line_start: bool,
    games: u64,
}

impl Write for GameCounter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        if !self.bar.is_hidden() {
            let written = &buf[..n];
            let mut games = if self.ndjson {
                memchr::memchr_iter(b'\n', written).count()
            } else {
                memchr::memmem::find_iter(written, b"\n[Variant ").count()
            };
            if !self.ndjson && self.at_line_start && written.starts_with(b"[Variant ") {
                games += 1;
            }
            if let Some(&last) = written.last() {
                self.at_line_start = last == b'\n';
            }
            if games > 0 {
                self.games += games as u64;
                self.bar.set_message(format!("{} games", self.games));
            }
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Standard output, or a temporary file beside the target renamed over it
/// at the end, so that a failed run never leaves a half-written file.
struct AtomicFile {
    out: BufWriter<Box<dyn Write>>,
    target: Option<(tempfile::NamedTempFile, PathBuf)>,
    permissions: Option<std::fs::Permissions>,
}

impl AtomicFile {
    fn open(path: Option<&Path>) -> io::Result<AtomicFile> {
        let Some(p) = path else {
            return Ok(AtomicFile {
                out: BufWriter::with_capacity(1 << 16, Box::new(io::stdout().lock())),
                target: None,
                permissions: None,
            });
        };
        let dir = p
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let tmp = tempfile::NamedTempFile::new_in(dir).map_err(at(dir))?;
        let file = tmp.reopen()?;
        Ok(AtomicFile {
            out: BufWriter::with_capacity(1 << 16, Box::new(file)),
            target: Some((tmp, p.to_path_buf())),
            permissions: None,
        })
    }

    fn commit(mut self) -> io::Result<()> {
        self.out.flush()?;
        if let Some((tmp, path)) = self.target.take() {
            if let Some(p) = self.permissions.take() {
                tmp.as_file().set_permissions(p)?;
            }
            tmp.persist(&path).map_err(|e| at(&path)(e.error))?;
        }
        Ok(())
    }
}
