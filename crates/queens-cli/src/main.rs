//! `queens`: the N-Queens workbench on the command line.
//!
//! The binary is thin: [`args`] declares the raw flags, each command validates them into a
//! configuration and calls a library. Exit codes: 0 success, 1 a well-formed request with no
//! (whole) answer (no solution, a board with conflicts, stopped by the budget, Ctrl-C or the
//! time limit, with what was done so far printed), 2 bad input with a one-line message on
//! stderr.

mod args;
mod commands;
mod exit;
mod help;
mod progress;
mod trace;

#[cfg(test)]
mod tests;

use std::process::ExitCode;

use queens_api::Catalogue;

use crate::args::Command;
use crate::exit::Exit;

fn main() -> ExitCode {
    let cli = match help::parse(Catalogue::standard()) {
        Ok(cli) => cli,
        Err(error) => return exit::clap_error(&error),
    };
    if let Some(closed) = exit::closed_stdout(&cli.command) {
        return closed;
    }
    let result = match cli.command {
        Command::Solve(args) => commands::solve::run(args),
        Command::Verify(args) => commands::verify::run(&args),
        Command::Count(args) => commands::count::run(&args),
        Command::Merge(args) => commands::merge::run(&args),
        Command::Experiment(args) => commands::experiment::run(&args),
        Command::Challenge(args) => commands::challenge::run(&args),
        Command::Devices(args) => commands::devices::run(&args),
        Command::Configure(args) => commands::configure::run(&args),
        Command::Serve(args) => commands::serve::run(&args),
    };
    match result {
        Ok(exit) => exit.into(),
        Err(error) => exit::report(&error),
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> Self {
        ExitCode::from(exit as u8)
    }
}
