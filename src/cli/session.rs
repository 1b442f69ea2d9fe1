//! One run of the command: the filter, carried from input to input, and
//! what it counts along the way.

use super::args::{Cli, Color, OutputFormat};
use super::output::Output;
use super::streams::{self, reading, Named, STDIN};
use ctlpgn_filter::{
    run_parallel, Diagnostic, Filter, FilterBuilder, Format, Report, Severity, Verify,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::File;
use std::io::{self, BufReader, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// Inputs at least this large are split over several threads by default,
/// and get a progress bar on a terminal.
const LARGE_INPUT: u64 = 4 << 20;

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
                    say!("{name}:{}: final position: {}", end.line, end.position);
                }
            });
        }
        builder = builder.verify(verify);
    }
    builder.build()
}

/// What a run did, and so its exit status.
pub struct Outcome {
    total: Report,
    unreadable: u64,
}

impl Outcome {
    /// 2 when an input could not be read (whatever the games did), else 1
    /// when a game was rejected, else 0.
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(if self.unreadable > 0 {
            2
        } else {
            u8::from(self.total.games_rejected > 0)
        })
    }
}

/// What one run of the command carries from input to input.
pub struct Session<'c> {
    cli: &'c Cli,
    name: InputName,
    filter: Filter,
    rejects: Option<Output>,
    total: Report,
    /// Inputs that could not be read.
    unreadable: u64,
    /// Inputs whose output was not written for their rejected games.
    not_written: u64,
    color: bool,
}

impl<'c> Session<'c> {
    pub fn new(cli: &'c Cli) -> io::Result<Session<'c>> {
        let rejects = cli.rejects.as_deref().map(Output::open).transpose()?;
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
            unreadable: 0,
            not_written: 0,
            color,
        })
    }

    pub fn stopped(&self) -> bool {
        self.cli.fail_fast && self.total.games_rejected > 0
    }

    /// Reports an input that cannot be read; the run goes on without it.
    pub fn unreadable(&mut self, error: &dyn std::fmt::Display) {
        say!("ctlpgn-filter: {error}");
        self.unreadable += 1;
    }

    /// Reports a link not followed because it leads back to a folder it is in.
    pub fn link_loop(&self, path: &Path) {
        if !self.cli.quiet {
            say!(
                "ctlpgn-filter: {}: not followed: a link to a folder it is in",
                path.display()
            );
        }
    }

    /// Reports an output left unwritten, or a file left unchanged, for its
    /// rejected games.
    pub fn not_written(&mut self, what: std::fmt::Arguments<'_>) {
        say!("ctlpgn-filter: {what}");
        self.not_written += 1;
    }

    /// [`Session::filter_file`], with an input that cannot be read reported
    /// and answered `None`: only an output's error ends the run.
    pub fn filter_or_skip(
        &mut self,
        path: &Path,
        out: &mut dyn Write,
    ) -> io::Result<Option<Report>> {
        match self.filter_file(path, out) {
            Ok(report) => Ok(Some(report)),
            Err(e) if streams::is_input_error(&e) => {
                self.unreadable(&e);
                Ok(None)
            }
            Err(e) => Err(e),
        }
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
        let (input, size): (Box<dyn Read>, _) = if stdin {
            (Box::new(Named::new(STDIN, io::stdin().lock())), None)
        } else {
            let file = File::open(path).map_err(reading(&name))?;
            let size = file
                .metadata()
                .ok()
                .filter(|m| m.is_file())
                .map(|m| m.len());
            (Box::new(Named::new(&name, file)), size)
        };
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
                let text = d.render_styled(&name, color);
                bar.suspend(|| streams::to_stderr(format_args!("{text}")));
            }
        };
        let rejects = self.rejects.as_mut().map(Output::writer);
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
            if file.is_none() {
                v["files_not_written"] = self.not_written.into();
                v["files_unreadable"] = self.unreadable.into();
            }
            say!("{v}");
        } else {
            say!(
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

    /// Writes the rejects file whole and prints the summary.
    pub fn finish(mut self) -> io::Result<Outcome> {
        if let Some(r) = self.rejects.take() {
            r.commit()?;
        }
        let t = self.total;
        if self.cli.stats && self.cli.format == OutputFormat::Ndjson {
            self.print_stats(None, &t);
        } else if self.cli.stats
            || t.games_rejected > 0
            || self.unreadable > 0
            || self.not_written > 0
        {
            let mut files = String::new();
            for (n, what) in [
                (self.not_written, "not written"),
                (self.unreadable, "unreadable"),
            ] {
                if n > 0 {
                    let s = if n == 1 { "" } else { "s" };
                    files += &format!("; {n} file{s} {what}");
                }
            }
            say!(
                "ctlpgn-filter: {} games read, {} written, {} rejected, {} warnings{files}",
                t.games_read,
                t.games_written,
                t.games_rejected,
                t.warnings
            );
        }
        Ok(Outcome {
            total: t,
            unreadable: self.unreadable,
        })
    }
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
