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

/// The answer of a command that computed it (a count, a merge, an experiment, a challenge
/// table, an analysis), written whole once it is complete: where standard output cannot take
/// it (a full disk, a file that cannot grow) the answer is written to standard error instead,
/// under a line that says so, so that a count of hours is not lost with the write; the error
/// still ends the command. A closed pipe (`| head`) is the reader's choice and gets nothing.
#[derive(Default)]
pub struct Answer(Vec<u8>);

impl Answer {
    /// An empty answer, to write into.
    pub fn new() -> Self {
        Answer::default()
    }

    /// Writes the answer to standard output.
    pub fn deliver(self) -> io::Result<()> {
        deliver(
            &self.0,
            &mut standard_output(),
            "standard output",
            &mut io::stderr().lock(),
        )
    }
}

impl Write for Answer {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes `answer` to `out`, or, where `out` fails but for a closed pipe, to `fallback` under
/// a line that names `what` `out` is (standard output, a file).
fn deliver(
    answer: &[u8],
    out: &mut impl Write,
    what: &str,
    fallback: &mut impl Write,
) -> io::Result<()> {
    let written = out.write_all(answer).and_then(|()| out.flush());
    if let Err(error) = &written
        && error.kind() != io::ErrorKind::BrokenPipe
    {
        keep(answer, what, fallback);
    }
    written
}

/// Writes `answer`, which `what` did not take, to `fallback` under a line that says so.
/// Standard error is the last place to tell anything: where it fails too, the error alone is
/// reported. The error ends the command on its own line after this.
fn keep(answer: &[u8], what: &str, fallback: &mut impl Write) {
    keep_with(what, fallback, |fallback| fallback.write_all(answer));
}

/// Writes an answer that `what` did not take to `fallback` with `write`, under the line that
/// says so ([`keep`]'s, for an answer that is no longer held but can be written again).
pub fn keep_with<F: Write>(
    what: &str,
    fallback: &mut F,
    write: impl FnOnce(&mut F) -> io::Result<()>,
) {
    let _ = writeln!(fallback, "{what} did not take the answer; here it is:")
        .and_then(|()| write(fallback))
        .and_then(|()| fallback.flush());
}

/// Where the file `path` did not take `answer` (a full disk, a directory gone; `error` says
/// why), the answer on standard error, as one standard output refuses is: a count of hours is
/// not lost with its report file. A closed pipe (a FIFO's reader gone) gets nothing.
pub fn keep_on_stderr(path: &std::path::Path, answer: &[u8], error: &anyhow::Error) {
    if !crate::exit::is_broken_pipe(error) {
        keep(
            answer,
            &path.display().to_string(),
            &mut io::stderr().lock(),
        );
    }
}

/// An answer of unknown length (a board, from 1 queen to 10⁹) on its way to `inner`: held
/// whole while it is at most `most` bytes, and delivered when flushed as an [`Answer`] is (to
/// standard error where `inner` cannot take it); once longer, written through, where a failure
/// is told but what was written is not repeated ([`Held::settled`] says whether the answer
/// still needs a place).
pub struct Held<W: Write, F: Write = io::Stderr> {
    inner: W,
    /// What `inner` is, in the line that tells of a refusal.
    what: String,
    fallback: F,
    waiting: Option<Vec<u8>>,
    most: usize,
    /// Whether `inner` refused the held answer, which went to `fallback` (or nowhere, for a
    /// closed pipe).
    refusal_settled: bool,
}

impl<W: Write> Held<W> {
    /// A writer to `inner`, named `what` where it refuses the answer, that holds up to `most`
    /// bytes.
    pub fn new(inner: W, what: impl Into<String>, most: usize) -> Self {
        Held::with_fallback(inner, what, io::stderr(), most)
    }
}

impl<W: Write, F: Write> Held<W, F> {
    /// A writer to `inner` that holds up to `most` bytes, and writes them to `fallback` where
    /// `inner` refuses them.
    fn with_fallback(inner: W, what: impl Into<String>, fallback: F, most: usize) -> Self {
        Held {
            inner,
            what: what.into(),
            fallback,
            waiting: Some(Vec::new()),
            most,
            refusal_settled: false,
        }
    }

    /// What the answer is written to, as the line that tells of a refusal names it.
    pub fn what(&self) -> &str {
        &self.what
    }

    /// Whether a refusal of the answer is settled already: it was held and went to the
    /// fallback (or, for a closed pipe, nowhere, as the reader chose). An answer refused after
    /// it was written through, or once delivered, is not.
    pub fn settled(&self) -> bool {
        self.refusal_settled
    }

    /// The writer, once the answer is delivered (flushed).
    pub fn into_inner(self) -> W {
        self.inner
    }
}

impl<W: Write, F: Write> Write for Held<W, F> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if let Some(held) = &mut self.waiting {
            if held.len() + bytes.len() <= self.most {
                held.extend_from_slice(bytes);
                return Ok(bytes.len());
            }
            // Too long to hold: what is held goes first, and the rest after it.
            let held = self.waiting.take().unwrap_or_default();
            self.inner.write_all(&held)?;
        }
        self.inner.write(bytes)
    }

    /// Delivers what is held (an answer is flushed when it ends, so that it stands before
    /// what is said of it on standard error), or flushes what was written through.
    fn flush(&mut self) -> io::Result<()> {
        match self.waiting.take() {
            Some(answer) => {
                let delivered = deliver(&answer, &mut self.inner, &self.what, &mut self.fallback);
                self.refusal_settled = delivered.is_err();
                delivered
            }
            None => self.inner.flush(),
        }
    }
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

    #[test]
    fn an_answer_standard_output_refuses_goes_to_standard_error_but_for_a_closed_pipe() {
        let mut answer = Answer::new();
        writeln!(answer, "92 solutions, 12 unique").unwrap();
        let answer = answer.0;
        let mut fallback = Vec::new();
        let mut out = Named::new(Failing(io::ErrorKind::StorageFull), "standard output");
        let error = deliver(&answer, &mut out, "standard output", &mut fallback).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::StorageFull);
        let told = String::from_utf8(fallback).unwrap();
        assert_eq!(
            told,
            "standard output did not take the answer; here it is:\n92 solutions, 12 unique\n"
        );
        let mut fallback = Vec::new();
        let mut out = Named::new(Failing(io::ErrorKind::BrokenPipe), "standard output");
        let error = deliver(&answer, &mut out, "standard output", &mut fallback).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
        assert!(fallback.is_empty());
        let (mut out, mut fallback) = (Vec::new(), Vec::new());
        deliver(&answer, &mut out, "standard output", &mut fallback).unwrap();
        assert_eq!(out, b"92 solutions, 12 unique\n");
        assert!(fallback.is_empty());
    }

    #[test]
    fn a_held_answer_is_delivered_whole_and_a_longer_one_written_through() {
        let refusing = || Named::new(Failing(io::ErrorKind::StorageFull), "standard output");
        // Held: a refusal gives the answer to standard error, whole.
        let mut fallback = Vec::new();
        let mut held = Held::with_fallback(refusing(), "standard output", &mut fallback, 16);
        write!(held, "d1 b2").unwrap();
        writeln!(held, " g3").unwrap();
        let error = held.flush().unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::StorageFull);
        assert!(held.settled());
        assert_eq!(
            String::from_utf8(fallback).unwrap(),
            "standard output did not take the answer; here it is:\nd1 b2 g3\n"
        );
        // Longer than held: the write that passes the most fails itself, nothing repeated.
        let mut fallback = Vec::new();
        let mut held = Held::with_fallback(refusing(), "standard output", &mut fallback, 4);
        write!(held, "d1 ").unwrap();
        assert!(write!(held, "b2 g3").is_err());
        assert!(
            !held.settled(),
            "what was written through is for its writer to keep"
        );
        assert!(fallback.is_empty());
        // Taken: in order, held or written through, and delivered when flushed.
        for most in [0, 4, 64] {
            let (mut out, mut fallback) = (Vec::new(), Vec::new());
            let mut held = Held::with_fallback(&mut out, "standard output", &mut fallback, most);
            write!(held, "d1 ").unwrap();
            writeln!(held, "b2 g3").unwrap();
            held.flush().unwrap();
            assert!(!held.settled());
            drop(held);
            assert_eq!(out, b"d1 b2 g3\n", "{most}");
            assert!(fallback.is_empty());
        }
    }
}
