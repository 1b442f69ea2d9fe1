//! One run of the command: the filter, carried from input to input, and
//! what it counts along the way.

use super::args::{cores, max_jobs, Cli, Color};
use super::decode;
use super::diagrams::Diagrams;
use super::flood::Flood;
use super::inputs::GameFiles;
use super::output::Output;
use super::streams::{self, reading, say, Named, STDIN};
use ctlpgn_filter::{
    cut_at_games_marked, run_parallel_into, Diagnostic, Filter, FilterBuilder, Format, Ledger,
    LeftOutCounts, Origin, Report, Severity, Sinks, TagPattern, Verify, ORIGIN_MARK,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fs::File;
use std::io::{self, Cursor, IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// Inputs at least this large are split over several threads by default,
/// and get a progress bar on a terminal.
const LARGE_INPUT: u64 = 4 << 20;

/// How much of an input is looked at for a NUL byte, the sign of a binary
/// file (as ripgrep's first buffer).
const BINARY_BLOCK: usize = 64 << 10;

/// The name of the input being filtered, for `--final-pdtl` lines.
type InputName = Arc<Mutex<String>>;

/// `--diagrams`' folder, shared by the filters' callbacks.
type SharedDiagrams = Option<Arc<Mutex<Diagrams>>>;

fn build_filter(cli: &Cli, name: &InputName, ledger: &Ledger, diagrams: &SharedDiagrams) -> Filter {
    filter_builder(cli, name, ledger, diagrams).build()
}

/// The filter the options ask for, with what is the command line's own:
/// what `--dedup` and `--stop-after` count on is the run's `ledger`,
/// shared by every filter of the run; the replay prints `--final-pdtl` and
/// draws `--diagrams`.
fn filter_builder(
    cli: &Cli,
    name: &InputName,
    ledger: &Ledger,
    diagrams: &SharedDiagrams,
) -> FilterBuilder {
    let mut builder = cli.options().builder().ledger(ledger.clone());
    if (cli.verify || cli.check) && (cli.final_pdtl || diagrams.is_some()) {
        let verify = Verify::new().read_ids(diagrams.is_some());
        let name = Arc::clone(name);
        let (final_pdtl, diagrams) = (cli.final_pdtl, diagrams.clone());
        let verify = verify.on_game_end(move |end| {
            let name = name.lock().expect("no thread panics holding it");
            if let Some(d) = &diagrams {
                d.lock()
                    .expect("no thread panics holding it")
                    .game_end(end, &name);
            }
            if final_pdtl && end.coherent && !end.rejected && !end.left_out {
                if end.path.is_empty() {
                    say!("{name}:{}: final position: {}", end.line, end.position);
                } else {
                    let path: Vec<String> = end.path.iter().map(u32::to_string).collect();
                    say!(
                        "{name}:{}: final position (variation {}): {}",
                        end.line,
                        path.join(":"),
                        end.position
                    );
                }
            }
        });
        builder = builder.verify(verify);
    }
    builder
}

/// What a run did, and so its exit status.
pub struct Outcome {
    total: Report,
    unreadable: u64,
    binary: u64,
    /// A selection was asked for, and kept no game.
    nothing_selected: bool,
}

impl Outcome {
    /// 2 when an input could not be read (whatever the games did), or a
    /// folder named held no game file, else 3 when a binary or UTF-16 file
    /// was skipped, else 1 when a game was rejected, else 4 when a
    /// selection kept no game (grep's 1), else 0.
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(if self.unreadable > 0 {
            2
        } else if self.binary > 0 {
            3
        } else if rejected_any(&self.total) {
            1
        } else if self.nothing_selected {
            4
        } else {
            0
        })
    }
}

/// Was a game, or a variation game, rejected?
fn rejected_any(r: &Report) -> bool {
    r.games_rejected + r.variations_rejected > 0
}

/// The games left out, by reason, as the summary and `--stats` say them:
/// `72 duplicates`, `3 not matching --tag`.
fn left_out_parts(cli: &Cli, l: &LeftOutCounts) -> Vec<String> {
    let tag = match (cli.tags.is_empty(), cli.players.is_empty()) {
        (true, false) => "--player",
        (false, false) => "--tag or --player",
        _ => "--tag",
    };
    [
        (l.duplicates, count(l.duplicates, "duplicate")),
        (l.tag, format!("{} not matching {tag}", l.tag)),
        (l.plies, format!("{} outside --plies", l.plies)),
        (l.date, format!("{} outside --date", l.date)),
        (
            l.date_unknown,
            format!("{} with an unknown date (--date)", l.date_unknown),
        ),
        (l.result, format!("{} not matching --result", l.result)),
        (l.position, format!("{} not reaching --reaches", l.position)),
        (
            l.inverted,
            format!("{} matching the selection (--invert)", l.inverted),
        ),
        (l.other, format!("{} left out by a pass", l.other)),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(_, s)| s)
    .collect()
}

/// What a tag pattern that a game matched only loosely could be instead:
/// a value typed plainly is found at a word's start, in any case, and
/// would be inside one (the glob `*VALUE*`); a glob matches in the case
/// written, and would in another.
fn looser_hint(p: &TagPattern) -> String {
    let option = |pattern: &str| {
        let shown = shell_word(&if p.is_player() {
            pattern.to_string()
        } else {
            format!("{}={pattern}", p.name())
        });
        if p.is_player() {
            format!("--player {shown}")
        } else {
            format!("--tag {shown}")
        }
    };
    let asked = option(p.pattern());
    let value = if p.is_player() { "name" } else { "value" };
    if !p.is_glob() {
        return format!(
            "{asked} starts no {value} and no word of one, in any case; some games have it \
             inside a word: {} selects those",
            option(&format!("*{}*", p.pattern()))
        );
    }
    let plain = p.pattern().trim_matches('*');
    let instead = if !plain.is_empty() && TagPattern::player(plain).is_ok_and(|q| !q.is_glob()) {
        format!(
            "; {} matches a {value}'s start or a word's, in any case",
            option(plain)
        )
    } else {
        String::new()
    };
    format!("{asked} matches some games in another case only: a glob's case counts{instead}")
}

/// `word` as a shell reads it back: in single quotes when it holds more
/// than letters, digits and `-_.=,:`.
fn shell_word(word: &str) -> String {
    let plain = word
        .chars()
        .all(|c| c.is_alphanumeric() || "-_.=,:".contains(c));
    if plain && !word.is_empty() {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `n` and `noun`, in the plural unless `n` is 1: `1 game`, `2 games`.
pub fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Whether `--color auto` colours, as anstream decides for clap's own
/// messages: never with `NO_COLOR` set and not empty (no-color.org);
/// always with `CLICOLOR_FORCE` set and not `0`; never with `CLICOLOR=0`;
/// else when stderr is a terminal and `TERM` is set and not `dumb`, or
/// `CI` is set.
fn auto_color() -> bool {
    anstream::AutoStream::choice(&io::stderr()) != anstream::ColorChoice::Never
}

/// What one run of the command carries from input to input.
pub struct Session<'c> {
    cli: &'c Cli,
    name: InputName,
    filter: Filter,
    /// What `--dedup` and `--stop-after` count on, for every input.
    ledger: Ledger,
    diagrams: SharedDiagrams,
    rejects: Option<Output>,
    duplicates: Option<Output>,
    total: Report,
    /// Inputs that could not be read.
    unreadable: u64,
    /// Inputs whose output was not written for their rejected games.
    not_written: u64,
    /// Inputs skipped as binary.
    binary: u64,
    /// Inputs skipped as UTF-16 text.
    utf16: u64,
    /// Folders named that hold no game file.
    empty: u64,
    /// `--cut`: pieces written.
    pieces: u64,
    /// Where the first error was (`FILE:LINE`), for `--fail-fast`'s summary.
    first_error: Option<String>,
    color: bool,
    flood: Flood,
}

impl<'c> Session<'c> {
    pub fn new(cli: &'c Cli) -> io::Result<Session<'c>> {
        let rejects = cli.rejects.as_deref().map(Output::open).transpose()?;
        let duplicates = cli.duplicates.as_deref().map(Output::open).transpose()?;
        let color = match cli.color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => auto_color(),
        };
        let name = InputName::default();
        let ledger = Ledger::new();
        let diagrams = match &cli.diagrams {
            Some(dir) => Some(Arc::new(Mutex::new(Diagrams::new(
                dir.clone(),
                cli.diagram_options(),
            )?))),
            None => None,
        };
        Ok(Session {
            cli,
            filter: build_filter(cli, &name, &ledger, &diagrams),
            diagrams,
            ledger,
            name,
            rejects,
            duplicates,
            total: Report::default(),
            unreadable: 0,
            not_written: 0,
            binary: 0,
            utf16: 0,
            empty: 0,
            pieces: 0,
            first_error: None,
            color,
            flood: Flood::new(cli.all_diagnostics),
        })
    }

    /// Is the run over before its inputs are: a game rejected under
    /// `--fail-fast`, or `--stop-after`'s count written?
    pub fn stopped(&self) -> bool {
        self.cli.fail_fast && rejected_any(&self.total) || self.stopped_after()
    }

    /// Has `--stop-after` let its count of games through?
    fn stopped_after(&self) -> bool {
        self.cli
            .stop_after
            .is_some_and(|n| self.ledger.written() >= n)
    }

    /// Reports an input that cannot be read; the run goes on without it.
    pub fn unreadable(&mut self, error: &dyn std::fmt::Display) {
        say!("ctlpgn-filter: {error}");
        self.unreadable += 1;
    }

    /// Reports a folder named that holds no game file: nothing was read
    /// from it, as from an input that cannot be read.
    pub fn empty_folder(&mut self, path: &Path, links: u64) {
        let links = match links {
            0 => String::new(),
            n => format!(
                " ({} not followed: --follow reads what they lead to)",
                count(n, "symbolic link")
            ),
        };
        let hidden = if self.cli.hidden {
            ""
        } else {
            ", hidden ones aside"
        };
        let glob = if self.cli.globs.is_empty() {
            "; --glob reads other names (--glob '*.txt')"
        } else {
            ""
        };
        let hidden_fix = if self.cli.hidden {
            ""
        } else {
            ", --hidden hidden ones"
        };
        say!(
            "ctlpgn-filter: {}: no game file in this folder ({}{hidden}): nothing read from \
             it{links}{glob}{hidden_fix}",
            path.display(),
            GameFiles::described(&self.cli.globs)
        );
        self.empty += 1;
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
    /// and answered `None`, as is a binary one: only an output's error ends
    /// the run.
    pub fn filter_or_skip(
        &mut self,
        path: &Path,
        out: &mut dyn Write,
    ) -> io::Result<Option<Report>> {
        let filtered = self.filter_file(path, out);
        self.skip_unreadable(filtered)
    }

    /// `result`, but an input that cannot be read is reported and answered
    /// `None`; any other error ends the run.
    fn skip_unreadable<T>(&mut self, result: io::Result<Option<T>>) -> io::Result<Option<T>> {
        match result {
            Err(e) if streams::is_input_error(&e) => {
                self.unreadable(&e);
                Ok(None)
            }
            result => result,
        }
    }

    /// `--cut SIZE`: copies one input into `out` cut at true game starts
    /// ([`cut_at_games`]), after a NUL byte when an input before it wrote
    /// a piece; an input that cannot be read, or is binary, is reported.
    /// A compressed input is cut decompressed.
    pub fn cut_or_skip(&mut self, path: &Path, out: &mut dyn Write, size: u64) -> io::Result<()> {
        let opened = self.open(path, &ProgressBar::hidden());
        let Some(Opened {
            name, input, fault, ..
        }) = self.skip_unreadable(opened)?
        else {
            return Ok(());
        };
        let mut out = Separated {
            out,
            pending: self.pieces > 0,
        };
        // Cut where the filter the options ask for ends games, leaving out
        // the games it leaves out.
        let reading =
            filter_builder(self.cli, &self.name, &self.ledger, &self.diagrams).fail_fast(false);
        let marked = self.cli.mark_origin.then_some(name.as_str());
        let cuts = cut_at_games_marked(reading, input, &mut out, size, marked)?;
        self.pieces += cuts.pieces;
        if let Some(e) = fault.take() {
            self.unreadable(&e);
        }
        // A game in a piece is written there, unchanged.
        self.total.games_read += cuts.games + cuts.left_out.total();
        self.total.games_written += cuts.games;
        self.total.left_out.add(&cuts.left_out);
        if cuts.kept.duplicates > 0 && !self.cli.quiet {
            say!(
                "ctlpgn-filter: {name}: {n} {d} kept in the pieces: without {them}, the games \
                 beside {them} would read otherwise (a game without a result before, or games \
                 sharing a line); filter the pieces' output with --dedup again to leave {them} out",
                n = cuts.kept.duplicates,
                d = if cuts.kept.duplicates == 1 {
                    "duplicate"
                } else {
                    "duplicates"
                },
                them = if cuts.kept.duplicates == 1 {
                    "it"
                } else {
                    "them"
                },
            );
        }
        Ok(())
    }

    /// Opens one input (a path, or `-` for stdin): its name, its text
    /// (decompressed if it was compressed), its size on disk if known, and
    /// where it starts in the input it was cut from (`--mark-origin`'s
    /// line, which names that input, read and taken off);
    /// `None` when it is binary (a NUL byte in the first [`BINARY_BLOCK`]
    /// bytes of its text) or UTF-16, reported once. `progress` counts the
    /// bytes read from the disk.
    fn open(&mut self, path: &Path, progress: &ProgressBar) -> io::Result<Option<Opened>> {
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
        let input = Box::new(progress.wrap_read(input));
        let shown = if stdin { STDIN } else { &name };
        let (input, container, fault) = decode::decompressed(shown, input)?;
        let (first, input) = first_block(input)?;
        if let Some(utf16) = decode::utf16(&first) {
            say!(
                "ctlpgn-filter: {name}: {}",
                utf16.message((!stdin).then_some(path))
            );
            self.utf16 += 1;
            return Ok(None);
        }
        if let Some(at) = memchr::memchr(0, &first) {
            let of = if container.is_some() {
                " of its decompressed text"
            } else {
                ""
            };
            say!("ctlpgn-filter: {name}: skipped: a binary file (a NUL byte at byte offset {at}{of})");
            self.binary += 1;
            return Ok(None);
        }
        let (name, origin, first) = match origin_mark(&first) {
            Some((origin, cut_from, rest)) => (cut_from, origin, first[rest..].to_vec()),
            None => (name, Origin::START, first),
        };
        let input: Box<dyn Read> = Box::new(Cursor::new(first).chain(input));
        Ok(Some(Opened {
            name,
            input,
            size,
            fault,
            origin,
        }))
    }

    /// Filters one input (a path, or `-` for stdin) into `out`; `None` when
    /// it is binary: then nothing of it is filtered.
    fn filter_file(&mut self, path: &Path, out: &mut dyn Write) -> io::Result<Option<Report>> {
        let cli = self.cli;
        let progress = self.progress_bar(path);
        let Some(Opened {
            name,
            input,
            size,
            fault,
            origin,
        }) = self.open(path, &progress)?
        else {
            progress.finish_and_clear();
            return Ok(None);
        };
        let jobs = match cli.jobs {
            // Final positions are printed (and diagrams named) as games
            // end: one thread keeps their order.
            _ if cli.fail_fast || cli.final_pdtl || cli.diagrams.is_some() => 1,
            // A piece of a larger input, counted from where it was cut.
            _ if origin != Origin::START => 1,
            Some(0) => cores(),
            Some(n) => n.min(max_jobs()),
            None if size.is_some_and(|s| s >= LARGE_INPUT) => cores(),
            None => 1,
        };
        let mut out = GameCounter {
            out,
            counting: !progress.is_hidden(),
            bar: &progress,
            line_a_game: cli.format != Format::CtlPgn,
            at_line_start: true,
            games: 0,
        };
        let (quiet, color) = (cli.quiet, self.color);
        let bar = progress.clone();
        let flood = &mut self.flood;
        let first_error = &mut self.first_error;
        let mut on_diag = |d: &Diagnostic| {
            if d.severity == Severity::Error && first_error.is_none() {
                *first_error = Some(format!("{name}:{}", d.line));
            }
            if !(quiet && d.severity != Severity::Error) && flood.admit(d) {
                let text = d.render_styled(&name, color);
                bar.suspend(|| streams::to_stderr(format_args!("{text}")));
            }
        };
        let sinks = Sinks {
            out: &mut out,
            rejects: self.rejects.as_mut().map(Output::writer),
            duplicates: self.duplicates.as_mut().map(Output::writer),
            on_diagnostic: &mut on_diag,
        };
        self.filter.set_file_name(&name);
        name.clone_into(&mut self.name.lock().expect("no thread panics holding it"));
        let report = if jobs > 1 {
            let make = || {
                let mut f = build_filter(cli, &self.name, &self.ledger, &self.diagrams);
                f.set_file_name(&name);
                f.set_cut_short(Some(fault.cut.clone()));
                f
            };
            run_parallel_into(&make, input, jobs, cli.chunk_bytes, sinks).map_err(|e| {
                if streams::is_named(&e) {
                    e
                } else {
                    // A worker thread that could not be started.
                    io::Error::new(e.kind(), format!("--jobs {jobs}: {e}"))
                }
            })
        } else {
            // The reader reads in blocks of its own: no buffer between.
            self.filter.set_cut_short(Some(fault.cut.clone()));
            self.filter.run_into(origin, input, sinks)
        };
        progress.finish_and_clear();
        for line in self.flood.finish(&name) {
            say!("ctlpgn-filter: {line}");
        }
        let report = report?;
        self.total.add(&report);
        if cli.stats {
            self.print_stats(Some(&name), &report);
        }
        // The games decoded before a decoder's error are counted and
        // written; then the error, as an input that cannot be read.
        if let Some(e) = fault.take() {
            self.unreadable(&e);
        }
        Ok(Some(report))
    }

    /// The progress bar for the input at `path`: hidden unless asked for,
    /// or unless stderr is a terminal and the file is large.
    fn progress_bar(&self, path: &Path) -> ProgressBar {
        let cli = self.cli;
        let size = (path.as_os_str() != "-")
            .then(|| std::fs::metadata(path).ok())
            .flatten()
            .filter(|m| m.is_file())
            .map(|m| m.len());
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
        if self.cli.format == Format::Ndjson {
            let mut v = serde_json::json!({
                "games": r.games_read,
                "written": r.games_written,
                "rejected": r.games_rejected,
                "warnings": r.warnings,
                "half_moves": r.half_moves,
                "comments_dropped": r.comments_dropped,
                "variations_dropped": r.variations_dropped,
                "variations_written": r.variations_written,
                "variations_rejected": r.variations_rejected,
                "ratings_dropped": r.ratings_dropped,
                "left_out": r.left_out.total(),
                "duplicates": r.left_out.duplicates,
                "not_matching_tag": r.left_out.tag,
                "outside_plies": r.left_out.plies,
                "not_reaching": r.left_out.position,
                "not_matching_result": r.left_out.result,
                "outside_date": r.left_out.date,
                "date_unknown": r.left_out.date_unknown,
                "matching_inverted": r.left_out.inverted,
                "left_out_by_pass": r.left_out.other,
            });
            v["file"] = file.map_or(serde_json::Value::Null, Into::into);
            if file.is_none() {
                v["stopped_after"] = self.stopped_after().into();
                v["files_not_written"] = self.not_written.into();
                v["files_unreadable"] = self.unreadable.into();
                v["files_binary"] = self.binary.into();
                v["files_utf16"] = self.utf16.into();
                v["folders_without_games"] = self.empty.into();
            }
            say!("{v}");
        } else {
            let left_out = left_out_parts(self.cli, &r.left_out);
            let left_out = if left_out.is_empty() {
                String::new()
            } else {
                format!("; left out {}", left_out.join(", "))
            };
            say!(
                "ctlpgn-filter: {}: {}, {}; dropped {}, {}, {}; {} rejected, {}{left_out}",
                file.unwrap_or("total"),
                count(r.games_read, "game"),
                count(r.half_moves, "half-move"),
                count(r.comments_dropped, "comment"),
                count(r.variations_dropped, "variation"),
                count(r.ratings_dropped, "rating"),
                r.games_rejected,
                count(r.warnings, "warning")
            );
        }
    }

    /// Writes the rejects and duplicates files whole and prints the
    /// summary.
    pub fn finish(mut self) -> io::Result<Outcome> {
        if let Some(d) = &self.diagrams {
            if let Some(e) = d.lock().expect("no thread panics holding it").take_error() {
                return Err(e);
            }
        }
        if let Some(r) = self.rejects.take() {
            r.commit()?;
        }
        if let Some(d) = self.duplicates.take() {
            d.commit()?;
        }
        let t = self.total;
        if !self.cli.quiet {
            self.warn_unmet_tag_names();
        }
        let stopped = self.stopped_after();
        // What was left out, unless -q: a choice, not a problem.
        let chose = !self.cli.quiet && (t.left_out.total() > 0 || stopped);
        if self.cli.stats && self.cli.format == Format::Ndjson {
            self.print_stats(None, &t);
        } else if self.cli.stats
            || self.cli.check && !self.cli.quiet
            || chose
            || rejected_any(&t)
            || self.unreadable > 0
            || self.not_written > 0
            || self.binary + self.utf16 > 0
            || self.empty > 0
        {
            let mut files = String::new();
            for (n, noun, what) in [
                (self.not_written, "file", "not written"),
                (self.unreadable, "file", "unreadable"),
                (self.binary, "file", "skipped as binary"),
                (self.utf16, "file", "skipped as UTF-16"),
                (self.empty, "folder", "without game files"),
            ] {
                if n > 0 {
                    files += &format!("; {} {what}", count(n, noun));
                }
            }
            let variations = if t.variations_written + t.variations_rejected > 0 {
                format!(
                    ", {} written, {} rejected",
                    count(t.variations_written, "variation game"),
                    t.variations_rejected
                )
            } else {
                String::new()
            };
            // --check writes nothing: a game read is coherent, rejected
            // or left out.
            let kept = if self.cli.check {
                "coherent"
            } else if self.cli.count {
                "counted"
            } else {
                "written"
            };
            let mut left_out: String = left_out_parts(self.cli, &t.left_out)
                .iter()
                .map(|p| format!(", {p}"))
                .collect();
            if let (true, Some(n)) = (stopped, self.cli.stop_after) {
                left_out += &format!(", stopped after {n} {kept} (--stop-after)");
            }
            if let (true, Some(at)) = (self.cli.fail_fast, &self.first_error) {
                left_out += &format!(", stopped at the first rejected game, at {at} (--fail-fast)");
            }
            say!(
                "ctlpgn-filter: {} read, {} {kept}, {} rejected{variations}{left_out}, {}{files}",
                count(t.games_read, "game"),
                t.games_written,
                t.games_rejected,
                count(t.warnings, "warning")
            );
        }
        // Said even under -q: a script tests the status, a person reads this.
        let nothing_selected = (self.cli.options().selects() || self.cli.invert)
            && t.games_written == 0
            && !rejected_any(&t);
        if nothing_selected {
            say!(
                "ctlpgn-filter: no game selected: {} read, none {} (exit status 4)",
                count(t.games_read, "game"),
                if self.cli.invert {
                    "left out by the selection (--invert)"
                } else {
                    "matching the selection"
                }
            );
            if !self.cli.invert {
                self.say_looser();
            }
        }
        Ok(Outcome {
            total: t,
            unreadable: self.unreadable + self.empty,
            binary: self.binary + self.utf16,
            nothing_selected,
        })
    }

    /// The games read, written (with `--count`: counted).
    pub fn games_written(&self) -> u64 {
        self.total.games_written
    }

    /// When nothing was selected: the games a looser selection would
    /// find, by date or by a tag pattern loosened.
    fn say_looser(&self) {
        let vague = self.total.left_out.date_unknown;
        if vague > 0 {
            say!(
                "ctlpgn-filter: {} a date --date cannot place (no Date tag, or ?? where \
                 the range needs digits): such a game is in no range",
                if vague == 1 {
                    "1 game has".to_string()
                } else {
                    format!("{vague} games have")
                }
            );
        }
        for p in self.ledger.loose_matches() {
            say!("ctlpgn-filter: {}", looser_hint(&p));
        }
    }

    /// Warns of each tag name `--tag` or `--player` asks for that no game
    /// of the run carries, naming the one met in another case if any.
    fn warn_unmet_tag_names(&self) {
        for (name, other_case) in self.ledger.unmet_tag_names() {
            let asked = match self.cli.tags.iter().find(|t| t.name() == name) {
                Some(t) => format!("--tag {name}={}", t.pattern()),
                None => "--player".to_string(),
            };
            let hint = match other_case {
                Some(other) => format!(": games have {other} (tag names are case-sensitive)"),
                None => String::new(),
            };
            say!("ctlpgn-filter: warning: {asked}: no game read has a tag {name}{hint}");
        }
    }
}

/// An input opened ([`Session::open`]): its name, its text (decompressed),
/// its size on disk, the decoder's fault if it fails part-way, and where
/// its text starts in the input it was cut from (`--mark-origin`).
struct Opened {
    name: String,
    input: Box<dyn Read>,
    size: Option<u64>,
    fault: decode::Fault,
    origin: Origin,
}

/// Counts games as they are written, for the progress bar: canonical
/// output starts every game with a `[Variant` line, ndjson with a line.
struct GameCounter<'a> {
    out: &'a mut dyn Write,
    /// The bar shows, so that games are counted (asked once: it locks).
    counting: bool,
    bar: &'a ProgressBar,
    /// A game is a line (ndjson, a listing), not a `[Variant` line on.
    line_a_game: bool,
    at_line_start: bool,
    games: u64,
}

impl Write for GameCounter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        if self.counting {
            let written = &buf[..n];
            let mut games = if self.line_a_game {
                memchr::memchr_iter(b'\n', written).count()
            } else {
                memchr::memmem::find_iter(written, b"\n[Variant ").count()
            };
            if !self.line_a_game && self.at_line_start && written.starts_with(b"[Variant ") {
                games += 1;
            }
            if let Some(&last) = written.last() {
                self.at_line_start = last == b'\n';
            }
            if games > 0 {
                self.games += games as u64;
                self.bar.set_message(count(self.games, "game"));
            }
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The line `--cut --mark-origin` starts a piece with, if `first` starts
/// with one: where the piece starts in the input it was cut from, that
/// input's name, and where the piece's own bytes start in `first`.
fn origin_mark(first: &[u8]) -> Option<(Origin, String, usize)> {
    let rest = first.strip_prefix(ORIGIN_MARK)?;
    let end = memchr::memchr(b'\n', rest)?;
    let line = std::str::from_utf8(&rest[..end]).ok()?;
    let mut fields = line.splitn(3, ' ');
    let origin = Origin {
        line: fields.next()?.parse().ok()?,
        byte: fields.next()?.parse().ok()?,
    };
    let name = fields.next()?.to_string();
    Some((origin, name, ORIGIN_MARK.len() + end + 1))
}

/// Reads the first [`BINARY_BLOCK`] bytes of `input` (fewer at its end);
/// returns them and the rest.
fn first_block(mut input: Box<dyn Read>) -> io::Result<(Vec<u8>, Box<dyn Read>)> {
    let mut first = Vec::with_capacity(BINARY_BLOCK);
    (&mut input)
        .take(BINARY_BLOCK as u64)
        .read_to_end(&mut first)?;
    Ok((first, input))
}

/// `--cut`: a NUL byte before the first bytes of an input when one before
/// it wrote a piece, so that inputs are cut from one another.
struct Separated<'a> {
    out: &'a mut dyn Write,
    pending: bool,
}

impl Write for Separated<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.pending && !buf.is_empty() {
            self.out.write_all(b"\0")?;
            self.pending = false;
        }
        self.out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
