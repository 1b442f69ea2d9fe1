//! The command line: options, inputs, outputs, exit status.
//!
//! A run first expands the inputs (walking folders) and refuses whatever
//! would write over an input or over another output; only then does it
//! open an output or read a game.

/// `eprintln!` that never panics: see [`streams::to_stderr`].
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::streams::to_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod args;
mod checks;
mod inputs;
mod output;
mod same_file;
mod session;
mod signals;
mod streams;

use args::Cli;
use clap::{CommandFactory, Parser};
use inputs::{Entry, Walk};
use output::Output;
use session::{Outcome, Session};
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let done = if let Some(shell) = cli.completions {
        let mut script = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "ctlpgn-filter", &mut script);
        streams::to_stdout(&script).map(|()| ExitCode::SUCCESS)
    } else if cli.man {
        let mut page = Vec::new();
        clap_mangen::Man::new(Cli::command())
            .render(&mut page)
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

fn run(cli: &Cli) -> io::Result<Outcome> {
    let named = if cli.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        cli.files.clone()
    };
    let skip = checks::outputs(cli);
    let entries = Walk {
        follow: cli.follow,
        skip: &skip,
    }
    .expand(&named);
    checks::refuse_clashes(cli, &entries)?;

    let mut session = Session::new(cli)?;
    if cli.in_place {
        each_file(&entries, &mut session, |s, path, _| in_place(s, path))?;
    } else if let Some(dir) = &cli.out_dir {
        each_file(&entries, &mut session, |s, path, relative| {
            let relative = relative.expect("refused before: stdin under --out-dir");
            into_dir(s, path, &dir.join(relative))
        })?;
    } else if cli.check {
        each_file(&entries, &mut session, |s, path, _| {
            s.filter_or_skip(path, &mut io::sink()).map(drop)
        })?;
    } else {
        let mut out = Output::open(cli.output.as_deref().unwrap_or(Path::new("-")))?;
        each_file(&entries, &mut session, |s, path, _| {
            s.filter_or_skip(path, out.writer()).map(drop)
        })?;
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
            Entry::Unreadable { path, error } => {
                session.unreadable(&format_args!("{}: {error}", path.display()))
            }
            Entry::Loop { path } => session.link_loop(path),
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
            "{}: left unchanged: {} games rejected",
            path.display(),
            report.games_rejected
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
            "{}: not written to {}: all {} games rejected",
            path.display(),
            target.display(),
            report.games_rejected
        ));
        return Ok(());
    }
    out.commit()
}
