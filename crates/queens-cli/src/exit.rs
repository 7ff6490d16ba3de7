//! Exit codes and how errors reach the user.

use std::io;
use std::process::ExitCode;

/// How a command that ran without error ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The answer was found (or the board is a solution).
    Success = 0,
    /// A well-formed request without a (whole) answer: no solution, conflicts on the board, or
    /// stopped by the budget, Ctrl-C or the time limit with what was done so far printed.
    NoAnswer = 1,
}

/// Bad input: exit code 2.
const BAD_INPUT: u8 = 2;

/// Whether `error` comes from a closed pipe (`queens solve 1000 | head`): a normal end.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        let io_kind = cause
            .downcast_ref::<io::Error>()
            .map(io::Error::kind)
            // JSON written straight to the pipe fails as serde_json's error, whose source
            // chain skips the io::Error itself.
            .or_else(|| {
                cause
                    .downcast_ref::<serde_json::Error>()
                    .and_then(serde_json::Error::io_error_kind)
            });
        io_kind == Some(io::ErrorKind::BrokenPipe)
    })
}

/// Reports a command's error: a closed pipe is a normal end, anything else is one line on
/// stderr and exit 2.
pub fn report(error: &anyhow::Error) -> ExitCode {
    if is_broken_pipe(error) {
        return ExitCode::SUCCESS;
    }
    eprintln!("error: {}", one_line(&message(error)));
    ExitCode::from(BAD_INPUT)
}

/// The error and its causes in one message, each cause once: a cause whose text its wrapper
/// already quotes (`cannot read F: No such file or directory`) is not repeated.
fn message(error: &anyhow::Error) -> String {
    let mut message = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if message.contains(&text) {
            continue;
        }
        if !message.is_empty() {
            message.push_str(": ");
        }
        message.push_str(&text);
    }
    message
}

/// Reports a command-line parsing error: `--help` and `--version` print and succeed; anything
/// else prints clap's whole message — the error on its first line, then the suggestion ("a
/// similar subcommand exists"), the valid values or the usage — and exits 2.
pub fn clap_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let _ = error.print();
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => ExitCode::SUCCESS,
        _ => ExitCode::from(BAD_INPUT),
    }
}

fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_are_told_once() {
        let io = io::Error::new(io::ErrorKind::NotFound, "No such file or directory");
        let error = anyhow::Error::new(queens_core::files::FileError::Io {
            action: "read",
            path: "x.json".into(),
            source: io,
        })
        .context("cannot merge");
        assert_eq!(
            message(&error),
            "cannot merge: cannot read x.json: No such file or directory"
        );
    }
}
