use clap::Parser;
use ctlpgn_filter::{run_parallel, Diagnostic, Filter, FilterBuilder, Report, PASS_NAMES};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Turn any CTL-PGN (C'escacs game records) into canonical minimal-reader input.
#[derive(Parser, Debug)]
#[command(version, about, after_help = EXAMPLES)]
struct Cli {
    /// Input files, read in order; none or `-` reads standard input.
    files: Vec<PathBuf>,
    /// Write the output to FILE (atomically) instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Keep comments `{...}`.
    #[arg(long)]
    keep_comments: bool,
    /// Keep variations `(...)`.
    #[arg(long)]
    keep_variations: bool,
    /// Keep ratings (`?!`, `◇`...) and NAGs (`$n`).
    #[arg(long)]
    keep_ratings: bool,
    /// Leave out a built-in pass (redefine, fan, comments, variations, ratings, ascii).
    #[arg(long, value_name = "PASS", value_delimiter = ',', value_parser = clap::builder::PossibleValuesParser::new(PASS_NAMES))]
    skip_pass: Vec<String>,
    /// Turn every warning into an error that rejects its game.
    #[arg(long)]
    strict: bool,
    /// Write each rejected game to FILE, byte for byte as it was read.
    #[arg(long, value_name = "FILE")]
    rejects: Option<PathBuf>,
    /// Stop at the first rejected game.
    #[arg(long)]
    fail_fast: bool,
    /// Do not print warnings.
    #[arg(short, long)]
    quiet: bool,
    /// Worker threads [default: the number of cores for a regular file over
    /// 4 MB, else 1]. The output is the same whatever the number.
    #[arg(short, long, value_name = "N")]
    jobs: Option<usize>,
    /// Print a summary line (games read, written, rejected, warnings) at the end.
    #[arg(long)]
    stats: bool,
}

const EXAMPLES: &str = "Examples:
  ctlpgn-filter game.ctl-pgn                 filter one file to standard output
  cat *.ctl-pgn | ctlpgn-filter | reader     a pipeline stage
  ctlpgn-filter corpus/*.ctl-pgn -o all.ctl-pgn --stats";

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(&cli) {
        Ok(report) => {
            if cli.stats || report.games_rejected > 0 {
                eprintln!(
                    "ctlpgn-filter: {} games read, {} written, {} rejected, {} warnings",
                    report.games_read, report.games_written, report.games_rejected, report.warnings
                );
            }
            ExitCode::from(u8::from(report.games_rejected > 0))
        }
        // A reader that went away (`| head`) is not a failure of ours.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ctlpgn-filter: {e}");
            ExitCode::from(2)
        }
    }
}

/// Inputs at least this large are split over several threads by default.
const PARALLEL_MIN_BYTES: u64 = 4 << 20;
/// Bytes per chunk handed to a worker.
const CHUNK_BYTES: usize = 2 << 20;

fn build_filter(cli: &Cli) -> Filter {
    let mut builder = FilterBuilder::new()
        .keep_comments(cli.keep_comments)
        .keep_variations(cli.keep_variations)
        .keep_ratings(cli.keep_ratings)
        .strict(cli.strict)
        .fail_fast(cli.fail_fast);
    for p in &cli.skip_pass {
        builder = builder.skip_pass(p);
    }
    builder.build()
}

/// How many threads to filter `file` with.
fn jobs_for(cli: &Cli, file: Option<&File>) -> usize {
    if cli.fail_fast {
        return 1;
    }
    if let Some(n) = cli.jobs {
        return n.max(1);
    }
    let large = file
        .and_then(|f| f.metadata().ok())
        .is_some_and(|m| m.is_file() && m.len() >= PARALLEL_MIN_BYTES);
    if large {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        1
    }
}

fn run(cli: &Cli) -> io::Result<Report> {
    let mut filter = build_filter(cli);
    let stdin_only = [PathBuf::from("-")];
    let files: &[PathBuf] = if cli.files.is_empty() {
        &stdin_only
    } else {
        &cli.files
    };
    let mut sink = Sink::open(cli.output.as_deref())?;
    let mut rejects = match &cli.rejects {
        None => None,
        Some(p) => Some(BufWriter::new(File::create(p).map_err(|e| {
            io::Error::new(e.kind(), format!("{}: {e}", p.display()))
        })?)),
    };
    let mut total = Report::default();
    for path in files {
        let name = path.display().to_string();
        let mut on_diag = |d: &Diagnostic| {
            if !(cli.quiet && d.severity == ctlpgn_filter::Severity::Warning) {
                eprint!("{}", d.render(if name == "-" { "<stdin>" } else { &name }));
            }
        };
        let rejects = rejects.as_mut().map(|r| r as &mut dyn Write);
        let file = if name == "-" {
            None
        } else {
            Some(File::open(path).map_err(|e| io::Error::new(e.kind(), format!("{name}: {e}")))?)
        };
        let jobs = jobs_for(cli, file.as_ref());
        let input: Box<dyn io::Read> = match file {
            None => Box::new(io::stdin().lock()),
            Some(f) => Box::new(f),
        };
        let report = if jobs > 1 {
            let make = || build_filter(cli);
            run_parallel(&make, input, jobs, CHUNK_BYTES, &mut sink.out, rejects, &mut on_diag)?
        } else {
            let input = BufReader::with_capacity(1 << 16, input);
            filter.run_with_rejects(input, &mut sink.out, rejects, &mut on_diag)?
        };
        total.add(&report);
        if cli.fail_fast && report.games_rejected > 0 {
            break;
        }
    }
    if let Some(r) = rejects.as_mut() {
        r.flush()?;
    }
    sink.commit()?;
    Ok(total)
}

/// Standard output, or a temporary file beside `-o FILE` renamed at the end,
/// so that an interrupted run never leaves a half-written file.
struct Sink {
    out: BufWriter<Box<dyn Write>>,
    target: Option<(tempfile::NamedTempFile, PathBuf)>,
}

impl Sink {
    fn open(path: Option<&Path>) -> io::Result<Sink> {
        match path {
            None => Ok(Sink {
                out: BufWriter::with_capacity(1 << 16, Box::new(io::stdout().lock())),
                target: None,
            }),
            Some(p) => {
                let dir = p
                    .parent()
                    .filter(|d| !d.as_os_str().is_empty())
                    .unwrap_or(Path::new("."));
                let tmp = tempfile::NamedTempFile::new_in(dir)?;
                let file = tmp.reopen()?;
                Ok(Sink {
                    out: BufWriter::with_capacity(1 << 16, Box::new(file)),
                    target: Some((tmp, p.to_path_buf())),
                })
            }
        }
    }

    fn commit(mut self) -> io::Result<()> {
        self.out.flush()?;
        if let Some((tmp, path)) = self.target.take() {
            tmp.persist(&path).map_err(|e| e.error)?;
        }
        Ok(())
    }
}
