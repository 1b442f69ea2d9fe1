//! The command line: options, inputs, outputs, exit status.
//!
//! A run first expands the inputs (walking folders) and refuses whatever
//! would write over an input or over another output; only then does it
//! open an output or read a game.

mod args;
mod checks;
mod decode;
mod diagrams;
mod flood;
mod inputs;
mod output;
mod same_file;
mod session;
mod signals;
mod streams;

use args::Cli;
use clap::CommandFactory;
use inputs::{Entry, Walk};
use output::Output;
use session::{Outcome, Session};
use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use streams::say;

/// What a run with nothing to read says, as jq does: no input named, and
/// standard input a terminal, where a person would type games unprompted.
const NOTHING_TO_READ: &str = "Usage: ctlpgn-filter [OPTIONS] [FILE]...
ctlpgn-filter: no input: name files or folders, or pipe games in \
(ctlpgn-filter games.ctl-pgn, or ... | ctlpgn-filter; - reads a terminal)
-h: the options in brief; --help: in full
";

pub fn main() -> ExitCode {
    let cli = Cli::parse_checked();
    if cli.files.is_empty() && cli.completions.is_none() && !cli.man && io::stdin().is_terminal() {
        streams::to_stderr(format_args!("{NOTHING_TO_READ}"));
        return ExitCode::from(2);
    }
    let done = if let Some(shell) = cli.completions {
        let mut script = Vec::new();
        let mut command = Cli::completed_command();
        clap_complete::generate(shell, &mut command, "ctlpgn-filter", &mut script);
        streams::to_stdout(&script).map(|()| ExitCode::SUCCESS)
    } else if let Some(pdtl) = &cli.diagram {
        let diagram = ctlpgn_filter::Diagram::new(cli.diagram_options());
        let position = ctlpgn_filter::Position::from_pdtl(pdtl);
        let svg = diagram.svg(&position, &ctlpgn_filter::Marks::default());
        streams::to_stdout(svg.as_bytes()).map(|()| ExitCode::SUCCESS)
    } else if cli.man {
        let mut page = Vec::new();
        man_page(&mut page)
            .and_then(|()| streams::to_stdout(&page))
            .map(|()| ExitCode::SUCCESS)
    } else {
        run(&cli).map(|outcome| outcome.exit_code())
    };
    match done {
        Ok(code) => code,
        Err(e) if streams::is_closed_stdout(&e) => ExitCode::SUCCESS,
        Err(e) => {
            say!("ctlpgn-filter: {e}");
            ExitCode::from(2)
        }
    }
}

/// The manual page: clap's sections, then EXIT STATUS, ENVIRONMENT and
/// EXAMPLES (in place of clap's one section for the text after `--help`).
fn man_page(page: &mut Vec<u8>) -> io::Result<()> {
    type Section = fn(&clap_mangen::Man, &mut dyn io::Write) -> io::Result<()>;
    let man = clap_mangen::Man::new(Cli::command());
    man.render_title(page)?;
    // Each section comes with the preamble that defines `\*(Aq`: kept once.
    let preamble = page[..memchr::memmem::find(page, b".TH").unwrap_or(0)].to_vec();
    let sections: [Section; 4] = [
        clap_mangen::Man::render_name_section,
        clap_mangen::Man::render_synopsis_section,
        clap_mangen::Man::render_description_section,
        clap_mangen::Man::render_options_section,
    ];
    for render in sections {
        let mut section = Vec::new();
        render(&man, &mut section)?;
        page.extend(section.strip_prefix(&preamble[..]).unwrap_or(&section));
    }
    page.extend_from_slice(b".SH \"EXIT STATUS\"\n");
    for (status, when) in args::EXIT_STATUS {
        page.extend(format!(".TP\n\\fB{status}\\fR\n{}\n", roff(when)).bytes());
    }
    page.extend(format!(".PP\n{}\n", roff(args::EXIT_PRECEDENCE)).bytes());
    page.extend_from_slice(b".SH ENVIRONMENT\n");
    for (name, what) in args::ENVIRONMENT {
        page.extend(format!(".TP\n\\fB{name}\\fR\n{}\n", roff(what)).bytes());
    }
    page.extend_from_slice(b".SH EXAMPLES\n");
    for (command, what) in args::EXAMPLES {
        page.extend(format!(".TP\n\\fB{}\\fR\n{}\n", roff(command), roff(what)).bytes());
    }
    Ok(())
}

/// `text` as roff prints it: backslashes and hyphens escaped, no request
/// at a line start.
fn roff(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

fn run(cli: &Cli) -> io::Result<Outcome> {
    let named = if cli.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        cli.files.clone()
    };
    let skip = checks::outputs(cli);
    let names = cli.game_files();
    let expanded = Walk {
        follow: cli.follow,
        names: &names,
        skip: &skip,
    }
    .expand(&named);
    checks::refuse_clashes(cli, &names, &expanded)?;
    let entries = &expanded.entries;
    if let Some(n) = cli.jobs.filter(|&n| n > args::max_jobs()) {
        if !cli.quiet {
            say!(
                "ctlpgn-filter: warning: --jobs {n}: using {} threads, 4 per core of this \
                 machine's {} (more would only take memory)",
                args::max_jobs(),
                args::cores()
            );
        }
    }

    let mut session = Session::new(cli)?;
    if cli.in_place {
        each_file(entries, &mut session, |s, path, _| in_place(s, path))?;
    } else if let Some(dir) = &cli.out_dir {
        each_file(entries, &mut session, |s, path, relative| {
            let relative = relative.expect("refused before: stdin under --out-dir");
            into_dir(s, path, &dir.join(relative))
        })?;
    } else if let Some(size) = cli.cut {
        let mut out = Output::open(cli.output.as_deref().unwrap_or(Path::new("-")))?;
        each_file(entries, &mut session, |s, path, _| {
            s.cut_or_skip(path, out.writer(), size)
        })?;
        out.commit()?;
    } else if cli.check {
        each_file(entries, &mut session, |s, path, _| {
            s.filter_or_skip(path, &mut io::sink()).map(drop)
        })?;
    } else {
        let mut out = Output::open(cli.output.as_deref().unwrap_or(Path::new("-")))?;
        if let Some(header) = cli.options().header() {
            // Once, whatever the inputs and threads.
            out.writer().write_all(&header)?;
        }
        each_file(entries, &mut session, |s, path, _| {
            s.filter_or_skip(path, out.writer()).map(drop)
        })?;
        if cli.count {
            writeln!(out.writer(), "{}", session.games_written())?;
        }
        out.commit()?;
    }
    session.finish()
}

/// Calls `filter` on each file in turn (with its path under `--out-dir`),
/// reporting the inputs that cannot be read, until `--fail-fast` stops.
fn each_file(
    entries: &[Entry],
    session: &mut Session,
    mut filter: impl FnMut(&mut Session, &Path, Option<&Path>) -> io::Result<()>,
) -> io::Result<()> {
    for entry in entries {
        if session.stopped() {
            break;
        }
        match entry {
            Entry::File { path, relative, .. } => filter(session, path, relative.as_deref())?,
            Entry::Unreadable { path, error } => session.unreadable(&format_args!(
                "{}: {}",
                path.display(),
                streams::in_words(error)
            )),
            Entry::Loop { path } => session.link_loop(path),
            Entry::Empty { path, links } => session.empty_folder(path, *links),
        }
    }
    Ok(())
}

/// Rewrites `path` with its filtered text, or leaves it untouched.
fn in_place(session: &mut Session, path: &Path) -> io::Result<()> {
    let mut target = Output::file(path)?;
    let Some(report) = session.filter_or_skip(path, target.writer())? else {
        return Ok(());
    };
    if report.games_rejected > 0 {
        session.not_written(format_args!(
            "{}: left unchanged: {} rejected",
            path.display(),
            session::count(report.games_rejected, "game")
        ));
        return Ok(());
    }
    target.commit()
}

/// Filters `path` into `target`, creating its folders; writes nothing when
/// every game is rejected, as `--in-place` leaves such a file alone.
fn into_dir(session: &mut Session, path: &Path, target: &Path) -> io::Result<()> {
    if let Some(folder) = target.parent() {
        std::fs::create_dir_all(folder).map_err(streams::writing(folder.display()))?;
    }
    let mut out = Output::file(target)?;
    let Some(report) = session.filter_or_skip(path, out.writer())? else {
        return Ok(());
    };
    if report.games_written == 0 && report.games_rejected > 0 {
        session.not_written(format_args!(
            "{}: not written to {}: {}",
            path.display(),
            target.display(),
            match report.games_rejected {
                1 => "its one game rejected".to_string(),
                n => format!("all {n} games rejected"),
            }
        ));
        return Ok(());
    }
    out.commit()
}
