//! Exit codes and how errors reach the user.

use std::io::{self, Write as _};

use crate::output::stderr;

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
pub(crate) fn is_broken_pipe(error: &anyhow::Error) -> bool {
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

/// Refuses a command whose answer goes to standard output when standard output is closed
/// (`queens count 12 >&-`): the standard library would swallow every write and exit 0 with the
/// answer printed nowhere. Exit 1 with a sentence; `None` where the answer has somewhere to go.
pub fn closed_stdout(command: &crate::args::Command) -> Option<u8> {
    use crate::args::Command;
    let has_file = match command {
        Command::Solve(args) => args.output.is_some(),
        Command::Merge(args) => args.output.is_some(),
        // The server prints its address, but its answers go to its clients.
        Command::Serve(_) => true,
        _ => false,
    };
    if has_file || stdout_is_open() {
        return None;
    }
    Some(refuse_closed_stdout(
        "the answer",
        matches!(command, Command::Solve(_) | Command::Merge(_)),
    ))
}

/// Says that standard output is closed, so that `what` would be printed nowhere, and gives the
/// exit code (1). `or_file`: the command can write to a file instead (`-o FILE`).
fn refuse_closed_stdout(what: &str, or_file: bool) -> u8 {
    stderr!(
        "error: standard output is closed, so {what} would be printed nowhere; give the command \
         an open standard output{}",
        if or_file { " or -o FILE" } else { "" }
    );
    Exit::NoAnswer as u8
}

/// Whether standard output was open when the program started (on Linux, where `/proc` says;
/// assumed elsewhere). The standard library opens `/dev/null` read-write on a closed standard
/// descriptor before `main`, while a shell's `> /dev/null` opens it write-only: file descriptor
/// 1 on `/dev/null` in read-write mode was closed.
fn stdout_is_open() -> bool {
    if !cfg!(target_os = "linux") {
        return true;
    }
    let Ok(target) = std::fs::read_link("/proc/self/fd/1") else {
        return true;
    };
    if target != std::path::Path::new("/dev/null") {
        return true;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return true;
    };
    let flags = info
        .lines()
        .find_map(|line| line.strip_prefix("flags:"))
        .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok());
    // O_ACCMODE is 3; O_RDWR is 2.
    flags.is_none_or(|flags| flags & 3 != 2)
}

/// Reports a command's error: a closed pipe is a normal end, anything else is one line on
/// stderr and exit 2.
pub fn report(error: &anyhow::Error) -> u8 {
    if is_broken_pipe(error) {
        return Exit::Success as u8;
    }
    stderr!("error: {}", one_line(&message(error)));
    BAD_INPUT
}

/// The error and its causes in one message, each cause once: a cause whose text its wrapper
/// already quotes (`cannot read F: No such file or directory`) is not repeated.
fn message(error: &anyhow::Error) -> String {
    let mut message = String::new();
    for cause in error.chain() {
        // The front door's refusals name settings as this command line does (--threads).
        let text = queens_api::setting::worded(cause, queens_api::Words::CommandLine)
            .unwrap_or_else(|| cause.to_string());
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

/// Reports a command-line parsing error: `--help` and `--version` print and succeed (where
/// standard output is closed, they say so and exit 1; where it cannot be written, exit 2);
/// anything else prints clap's whole message — the error on its first line, then the suggestion
/// ("a similar subcommand exists"), the valid values or the usage — and exits 2.
pub fn clap_error(error: &clap::Error) -> u8 {
    use clap::error::ErrorKind;
    // Help and the version go to standard output; where it is closed the standard library would
    // swallow them and exit 0, as it would a command's answer (`closed_stdout`).
    match error.kind() {
        ErrorKind::DisplayHelp if !stdout_is_open() => {
            return refuse_closed_stdout("the help", false);
        }
        ErrorKind::DisplayVersion if !stdout_is_open() => {
            return refuse_closed_stdout("the version", false);
        }
        _ => {}
    }
    let plain = error.render().to_string();
    let clipped = queens_core::error::clip_long_words(&plain);
    let printed = if matches!(clipped, std::borrow::Cow::Borrowed(_)) {
        error.print()
    } else {
        // A value that long is quoted by its excerpt, without colours.
        write!(io::stderr(), "{clipped}")
    };
    match (error.kind(), printed) {
        (ErrorKind::DisplayHelp | ErrorKind::DisplayVersion, Ok(())) => Exit::Success as u8,
        (ErrorKind::DisplayHelp | ErrorKind::DisplayVersion, Err(failure))
            if failure.kind() == io::ErrorKind::BrokenPipe =>
        {
            Exit::Success as u8
        }
        (ErrorKind::DisplayHelp | ErrorKind::DisplayVersion, Err(failure)) => {
            stderr!(
                "error: cannot write to standard output: {}",
                one_line(&failure.to_string())
            );
            BAD_INPUT
        }
        _ => BAD_INPUT,
    }
}

/// The message on one line, as users are told it ([`queens_core::error::for_users`]): a
/// megabyte-long token cut to its excerpt, an OS error's number dropped.
pub fn one_line(message: &str) -> String {
    queens_core::error::for_users(message)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_are_told_once() {
        let io = io::Error::new(io::ErrorKind::NotFound, "No such file or directory");
        let error = anyhow::Error::new(queens_io::files::FileError::Io {
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
