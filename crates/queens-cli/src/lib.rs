//! `queens`: the N-Queens workbench on the command line.
//!
//! The whole command line as a library, [`run`], so that the `queens` binary and the Python
//! package's `queens` script are one program. The commands are thin: `args` declares the raw
//! flags, each command validates them into a configuration and calls a library.
//!
//! Exit codes: 0 success, 1 a well-formed request with no (whole) answer (no solution, a board
//! with conflicts, stopped by the budget, Ctrl-C or the time limit, with what was done so far
//! printed), 2 bad input with a one-line message on stderr.

// The standard printing macros panic where a stream cannot be written: see `output`.
#![deny(clippy::print_stderr, clippy::print_stdout)]

mod args;
mod commands;
mod exit;
mod help;
mod numbers;
mod output;
mod progress;
mod trace;

#[cfg(test)]
mod tests;

use std::ffi::OsString;
use std::io::Write as _;
use std::sync::OnceLock;

use queens_api::Catalogue;

use crate::args::Command;

/// Runs the command line on `args` (the program's name first, as [`std::env::args_os`] gives
/// them) and answers its exit status, with standard output flushed: 0 success, 1 a request
/// without a (whole) answer, 2 bad input.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let code = run_command(args);
    // The standard library flushes standard output when a Rust `main` returns; a host program
    // (Python's `queens` script) exits without that.
    let _ = std::io::stdout().flush();
    code
}

/// Runs the command line as [`run`] does, for a host program whose own executable is not this
/// program (Python): `own_command` is how the cluster's tasks run it again, for example
/// `["/venv/bin/queens"]`.
pub fn run_as<I, T>(args: I, own_command: Vec<OsString>) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let _ = OWN_COMMAND.set(own_command);
    run(args)
}

/// The command a Slurm task runs to start this program again: what [`run_as`] was given, else
/// this executable's path.
pub(crate) fn own_command() -> std::io::Result<Vec<OsString>> {
    match OWN_COMMAND.get() {
        Some(command) => Ok(command.clone()),
        None => Ok(vec![std::env::current_exe()?.into_os_string()]),
    }
}

/// What [`run_as`] was given.
static OWN_COMMAND: OnceLock<Vec<OsString>> = OnceLock::new();

/// Starts the worker threads the parallel commands share (rayon's global pool) before any
/// command runs, sized by `RAYON_NUM_THREADS` within the most threads a run may have, so that a
/// process that can start no thread (a very low `ulimit -v`) is told so in one sentence rather
/// than panicking halfway through, and a variable that says no number of threads is refused.
/// A count's `--threads` sizes it, so that the count runs on it with no second pool beside it
/// (under a limit on a user's threads, `ulimit -u`, a count given one thread was refused where
/// the shared pool's threads and its own did not fit).
fn worker_threads_ready(command: &Command) -> Result<(), queens_core::pool::PoolError> {
    let asked = match command {
        Command::Count(args) => args.threads,
        _ => None,
    };
    queens_core::pool::start_shared_pool(asked, queens_api::limits::LIMITS.max_threads)
}

/// The command line without the flush.
fn run_command<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    queens_io::files::writes_past_the_file_size_limit_fail();
    let cli = match help::parse(Catalogue::standard(), args) {
        Ok(cli) => cli,
        Err(error) => return exit::clap_error(&error),
    };
    progress::set_mode(cli.progress);
    if let Some(closed) = exit::closed_stdout(&cli.command) {
        return closed;
    }
    if let Err(error) = worker_threads_ready(&cli.command) {
        return exit::report(&error.into());
    }
    // In a process forked from one that had run a command (a Python process that forks), on
    // the worker threads started for the fork.
    let result = queens_core::pool::in_this_process(|| match cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Verify(args) => commands::verify::run(&args),
        Command::Count(args) => commands::count::run(&args),
        Command::Merge(args) => commands::merge::run(&args),
        Command::Experiment(args) => commands::experiment::run(&args),
        Command::Challenge(args) => commands::challenge::run(&args),
        Command::Devices(args) => commands::devices::run(&args),
        Command::Configure(args) => commands::configure::run(&args),
        Command::Serve(args) => commands::serve::run(&args),
        Command::Completions(args) => commands::shell::completions(&args),
        Command::Man(args) => commands::shell::man(&args),
    });
    match result {
        Ok(exit) => exit as u8,
        Err(error) => exit::report(&error),
    }
}
