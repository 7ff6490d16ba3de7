//! The `queens` binary: the command line of [`queens_cli`] on this process's arguments.

use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(queens_cli::run(std::env::args_os()))
}
