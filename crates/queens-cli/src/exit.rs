//! Exit codes and how errors reach the user: one line on stderr.

use std::io;
use std::process::ExitCode;

/// How a command that ran without error ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The answer was found (or the board is a solution).
    Success = 0,
    /// A well-formed request without an answer: no solution, the budget ran out, conflicts.
    NoAnswer = 1,
}

/// Bad input: exit code 2.
const BAD_INPUT: u8 = 2;

/// Reports a command's error: a closed pipe is a normal end (`queens solve 1000 | head`),
/// anything else is one line on stderr and exit 2.
pub fn report(error: &anyhow::Error) -> ExitCode {
    let broken_pipe = error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        return ExitCode::SUCCESS;
    }
    eprintln!("error: {}", one_line(&format!("{error:#}")));
    ExitCode::from(BAD_INPUT)
}

/// Reports a command-line parsing error: `--help` and `--version` print in full and succeed,
/// anything else prints clap's first line and exits 2.
pub fn clap_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match error.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = error.print();
            if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                ExitCode::from(BAD_INPUT)
            } else {
                ExitCode::SUCCESS
            }
        }
        _ => {
            let rendered = error.render().to_string();
            let first = rendered
                .lines()
                .find(|line| !line.trim().is_empty())
                .unwrap_or("invalid arguments");
            let message = first.strip_prefix("error: ").unwrap_or(first);
            eprintln!("error: {} (see --help)", message.trim());
            ExitCode::from(BAD_INPUT)
        }
    }
}

fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}
