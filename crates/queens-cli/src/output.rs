//! Where a command's words go, and what happens when they cannot be written.
//!
//! The standard library's `eprintln!` and `println!` panic when the stream cannot be written
//! (`queens solve 0 2>/dev/full` ended in a panic, exit 101), so this crate writes its lines to
//! standard error with [`stderr!`], which drops a line that cannot be written (standard error is
//! the last place to tell anything), and its answers to [`standard_output`], whose write errors
//! name standard output and so reach the user in one sentence with exit 2 ("cannot write to
//! standard output: No space left on device"). Clippy's `print_stderr` and `print_stdout`
//! lints keep the standard macros out of the crate.

use std::io::{self, Write};

/// A line on standard error, as `eprintln!` writes it, dropped where standard error cannot be
/// written (full, or closed by the caller) rather than panicking.
macro_rules! stderr {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
pub(crate) use stderr;

/// A writer whose errors say what could not be written: the error's kind is kept, so that a
/// closed pipe is still a normal end ([`crate::exit::report`]).
pub struct Named<W> {
    inner: W,
    what: &'static str,
}

impl<W: Write> Named<W> {
    /// `inner`, named `what` in its errors ("standard output").
    pub fn new(inner: W, what: &'static str) -> Self {
        Named { inner, what }
    }

    /// `error`, saying what could not be written unless it says so already.
    fn name(&self, error: io::Error) -> io::Error {
        if error.to_string().contains(self.what) {
            return error;
        }
        io::Error::new(
            error.kind(),
            format!("cannot write to {}: {error}", self.what),
        )
    }
}

impl<W: Write> Write for Named<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.inner.write(bytes).map_err(|error| self.name(error))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush().map_err(|error| self.name(error))
    }
}

/// Standard output, locked, for a command's answer: its write errors name it.
pub fn standard_output() -> Named<io::StdoutLock<'static>> {
    Named::new(io::stdout().lock(), "standard output")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that fails as a full disk or a closed pipe does.
    struct Failing(io::ErrorKind);

    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::from(self.0))
        }

        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::from(self.0))
        }
    }

    #[test]
    fn a_write_error_names_what_was_written_and_keeps_its_kind() {
        for kind in [io::ErrorKind::StorageFull, io::ErrorKind::BrokenPipe] {
            let mut named = Named::new(Failing(kind), "standard output");
            let error = writeln!(named, "an answer").unwrap_err();
            assert_eq!(error.kind(), kind);
            assert!(
                error
                    .to_string()
                    .starts_with("cannot write to standard output: "),
                "{error}"
            );
            let error = named.flush().unwrap_err();
            assert_eq!(error.kind(), kind);
        }
    }
}
