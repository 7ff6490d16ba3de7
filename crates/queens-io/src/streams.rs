//! Writing to streams — pipes, FIFOs, terminals, sockets — so that an output nobody reads
//! never holds a run past its stop.
//!
//! A write to a full pipe, or the open of a FIFO with no reader, blocks for as long as nobody
//! reads; a signal handler that only sets a flag cannot end it. So a stream is opened without
//! blocking and, while no reader has come, the open is retried every 50 ms for as long as the
//! [`StopRule`] says go on; and a [`GatedWriter`] waits for room (`poll`, 100 ms at a time)
//! before each write of at most one pipe buffer, giving up with an error once the rule says
//! stop while the stream stays full. A stream that is being read keeps being written, stop or
//! no stop: an answer on its way is not cut off. Regular files are written plainly.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Whether a run has been told to stop (Ctrl-C, a time limit): then an output that cannot
/// take more gives up instead of waiting for a reader.
pub type StopRule = Arc<dyn Fn() -> bool + Send + Sync>;

/// A rule that never stops.
pub fn never() -> StopRule {
    Arc::new(|| false)
}

/// How long one wait for a reader or for room lasts before the stop rule is asked again.
const WAIT: Duration = Duration::from_millis(100);

/// The most bytes written at once to a stream: a pipe with room for one write of this size
/// takes it whole, without blocking.
const CHUNK: usize = 4096;

/// The error of an output given up on: `TimedOut`, which `write_all` does not retry (as it
/// retries `Interrupted`).
fn blocked(what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::TimedOut,
        format!("{what}: nobody reads it, and the run was stopped"),
    )
}

/// Opens the stream at `path` (a FIFO, a device, `/dev/stdout`) for writing: a FIFO without a
/// reader is waited for while `stop` says go on; a regular file reached through `/dev` or
/// `/proc` (a redirected `/dev/stdout`) is appended to, not truncated under its writer.
pub fn open_stream(path: &Path, stop: &StopRule) -> io::Result<File> {
    let regular = std::fs::metadata(path).is_ok_and(|metadata| metadata.is_file());
    let mut options = OpenOptions::new();
    if regular {
        options.append(true);
    } else {
        options.write(true);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    loop {
        match options.open(path) {
            Ok(file) => {
                set_blocking(&file)?;
                return Ok(file);
            }
            // ENXIO: a FIFO opened for writing with no reader yet.
            #[cfg(unix)]
            Err(error) if error.raw_os_error() == Some(libc::ENXIO) => {
                if stop() {
                    return Err(blocked(&format!("{} was never opened", path.display())));
                }
                std::thread::sleep(WAIT / 2);
            }
            Err(error) => return Err(error),
        }
    }
}

/// Clears `O_NONBLOCK`: writes wait for room, gated by [`GatedWriter`]'s `poll`.
fn set_blocking(file: &File) -> io::Result<()> {
    #[cfg(unix)]
    {
        use rustix::fs::{OFlags, fcntl_getfl, fcntl_setfl};
        let flags = fcntl_getfl(file)?;
        fcntl_setfl(file, flags - OFlags::NONBLOCK)?;
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

/// Whether writes to `fd` can block for as long as nobody reads (a pipe, FIFO, socket or
/// terminal), rather than being a regular file's.
#[cfg(unix)]
fn can_block(fd: std::os::unix::io::BorrowedFd<'_>) -> bool {
    use rustix::fs::FileType;
    rustix::fs::fstat(fd).is_ok_and(|status| {
        matches!(
            FileType::from_raw_mode(status.st_mode),
            FileType::Fifo | FileType::Socket | FileType::CharacterDevice
        )
    })
}

/// Waits until `fd` has room, or until `stop` says stop while it has none: whether there is
/// room.
#[cfg(unix)]
fn wait_for_room(fd: std::os::unix::io::BorrowedFd<'_>, stop: &StopRule) -> io::Result<bool> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let wait = Timespec {
        tv_sec: 0,
        tv_nsec: WAIT.as_nanos() as _,
    };
    loop {
        let mut fds = [PollFd::new(&fd, PollFlags::OUT)];
        match poll(&mut fds, Some(&wait)) {
            Ok(ready) if ready > 0 => return Ok(true),
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(error) => return Err(error.into()),
        }
        if stop() {
            return Ok(false);
        }
    }
}

/// A writer that never blocks past a stop: see the [module](self) documentation.
pub struct GatedWriter<W: Write> {
    inner: W,
    /// Whether writes to it can block, and so are gated.
    gated: bool,
    stop: StopRule,
    what: String,
}

#[cfg(unix)]
impl<W: Write + std::os::unix::io::AsFd> GatedWriter<W> {
    /// Gates `inner`, named `what` in errors.
    pub fn new(inner: W, stop: StopRule, what: impl Into<String>) -> Self {
        let gated = can_block(inner.as_fd());
        GatedWriter {
            inner,
            gated,
            stop,
            what: what.into(),
        }
    }
}

#[cfg(not(unix))]
impl<W: Write> GatedWriter<W> {
    /// Wraps `inner` (elsewhere than Unix, writes are plain).
    pub fn new(inner: W, stop: StopRule, what: impl Into<String>) -> Self {
        GatedWriter {
            inner,
            gated: false,
            stop,
            what: what.into(),
        }
    }
}

impl<W: Write> GatedWriter<W> {
    /// The writer inside.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }
}

#[cfg(unix)]
impl<W: Write + std::os::unix::io::AsFd> Write for GatedWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if !self.gated {
            return self.inner.write(bytes);
        }
        if !wait_for_room(self.inner.as_fd(), &self.stop)? {
            return Err(blocked(&self.what));
        }
        let chunk = &bytes[..bytes.len().min(CHUNK)];
        self.inner.write(chunk)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(not(unix))]
impl<W: Write> Write for GatedWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let _ = (&self.stop, self.gated, &self.what);
        self.inner.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Standard output, gated.
pub fn gated_stdout(stop: StopRule) -> GatedWriter<io::Stdout> {
    GatedWriter::new(io::stdout(), stop, "standard output")
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Instant;

    #[test]
    fn a_full_pipe_gives_up_once_stopped() {
        let (reader, writer) = rustix::pipe::pipe().unwrap();
        let stopped = Arc::new(AtomicBool::new(false));
        let flag = stopped.clone();
        let mut gated = GatedWriter::new(
            File::from(writer),
            Arc::new(move || flag.load(Ordering::Relaxed)),
            "the pipe",
        );
        // Nobody reads: the pipe fills, and the write waits until told to stop.
        let timer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            stopped.store(true, Ordering::Relaxed);
        });
        assert!(gated.gated, "a pipe is gated");
        let started = Instant::now();
        let error = gated.write_all(&vec![b'x'; 1 << 20]).unwrap_err();
        timer.join().unwrap();
        assert!(error.to_string().contains("nobody reads it"), "{error}");
        assert!(started.elapsed() < Duration::from_secs(2));
        drop(reader);
    }

    #[test]
    fn a_pipe_being_read_is_written_whole_even_when_stopped() {
        let (reader, writer) = rustix::pipe::pipe().unwrap();
        let mut gated = GatedWriter::new(File::from(writer), Arc::new(|| true), "the pipe");
        let drain = std::thread::spawn(move || {
            let mut all = Vec::new();
            io::Read::read_to_end(&mut File::from(reader), &mut all).unwrap();
            all.len()
        });
        gated.write_all(&vec![b'x'; 1 << 20]).unwrap();
        drop(gated);
        assert_eq!(drain.join().unwrap(), 1 << 20);
    }

    #[test]
    fn a_fifo_without_a_reader_is_waited_for_until_the_stop() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|status| status.success()) {
            let started = Instant::now();
            let deadline: StopRule =
                Arc::new(move || started.elapsed() > Duration::from_millis(200));
            let error = open_stream(&fifo, &deadline).unwrap_err();
            assert!(error.to_string().contains("never opened"), "{error}");
            assert!(started.elapsed() < Duration::from_secs(2));
        }
    }
}
