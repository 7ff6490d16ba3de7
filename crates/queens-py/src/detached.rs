//! Running work off the GIL, answering Ctrl-C, and passing its events back to Python.
//!
//! The work runs on a scoped worker thread. The calling thread waits for its messages with
//! the GIL released, delivers each to the Python callback with the GIL held, and every 50 ms
//! checks Python's signals: on Ctrl-C it cancels the work's token (every run of the workbench
//! stops at once when its token is raised), waits for the worker, and raises
//! `KeyboardInterrupt`. An exception in the callback stops the work the same way. A warning
//! of the work (a checkpoint that could not be saved) is raised as a `RuntimeWarning` when it
//! comes, callback or not.
//!
//! The work runs [`in_this_process`](queens_core::pool::in_this_process): in a process forked
//! from one that had counted or solved (Python's `multiprocessing` on Linux), on the worker
//! threads [`worker_threads`](crate::worker_threads) started there.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use pyo3::prelude::*;
use queens_core::CancelToken;

/// How often the waiting thread looks at Python's signals.
const SIGNAL_POLL: Duration = Duration::from_millis(50);

/// Messages queued between the worker and Python before the worker waits.
const QUEUE: usize = 4096;

/// What the worker sends to Python.
pub enum Message {
    /// An event of a run, as JSON.
    Event(String),
    /// Progress: done, of.
    Progress(u64, u64),
    /// A warning for the user, raised as a `RuntimeWarning` whether or not there is a callback.
    Warning(String),
}

/// The worker's end of the channel.
pub struct Sender(SyncSender<Message>);

impl Sender {
    /// Sends a message, waiting while Python has not taken the ones before it; `false` once
    /// Python has stopped listening.
    pub fn send(&self, message: Message) -> bool {
        self.0.send(message).is_ok()
    }

    /// Sends a message if there is room; progress may be dropped, never waited for.
    pub fn offer(&self, message: Message) {
        let _ = self.0.try_send(message);
    }
}

/// Runs `work` on a worker thread with the GIL released; `callback` receives its messages
/// (events as JSON strings, progress as two integers). Ctrl-C and exceptions raised by the
/// callback cancel `token` and are raised once the worker has stopped.
pub fn run_detached<T: Send>(
    py: Python<'_>,
    token: &CancelToken,
    callback: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce(Sender) -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (sender, messages) = mpsc::sync_channel(QUEUE);
        let messages = Mutex::new(messages);
        let worker = queens_core::parallel::spawn_scoped(scope, move || {
            queens_core::pool::in_this_process(|| work(Sender(sender)))
        })
        .map_err(|error| no_worker(&error))?;
        let mut failure: Option<PyErr> = None;
        loop {
            match receive(py, &messages) {
                Ok(message) => {
                    if failure.is_none()
                        && let Err(error) = deliver(py, callback, message)
                    {
                        token.cancel();
                        failure = Some(error);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
                // Every sender is gone, the work perhaps not: a run that reports nothing drops
                // its sender at once. Wait for the work itself, still answering Ctrl-C.
                Err(RecvTimeoutError::Disconnected) if worker.is_finished() => break,
                Err(RecvTimeoutError::Disconnected) => {
                    py.detach(|| std::thread::sleep(SIGNAL_POLL));
                }
            }
            if failure.is_none()
                && let Err(error) = py.check_signals()
            {
                token.cancel();
                failure = Some(error);
            }
        }
        let result = py
            .detach(move || worker.join())
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        match failure {
            Some(error) => Err(error),
            None => Ok(result),
        }
    })
}

/// The next of `messages`, waited for at most [`SIGNAL_POLL`] with the GIL released (behind a
/// mutex, since the waiting closure must be `Send`).
fn receive<T: Send>(py: Python<'_>, messages: &Mutex<Receiver<T>>) -> Result<T, RecvTimeoutError> {
    py.detach(|| {
        messages
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .recv_timeout(SIGNAL_POLL)
    })
}

/// `message` handed to Python: a warning raised (an error where warnings are made errors), any
/// other passed to `callback`, if there is one.
fn deliver(py: Python<'_>, callback: Option<&Bound<'_, PyAny>>, message: Message) -> PyResult<()> {
    match (message, callback) {
        (Message::Warning(text), _) => warn(py, &text)?,
        (Message::Event(json), Some(callback)) => {
            callback.call1((json,))?;
        }
        (Message::Progress(done, of), Some(callback)) => {
            callback.call1((done, of))?;
        }
        (Message::Event(_) | Message::Progress(..), None) => {}
    }
    Ok(())
}

/// Raises `text` as a `RuntimeWarning` from the caller's line.
pub fn warn(py: Python<'_>, text: &str) -> PyResult<()> {
    let message = std::ffi::CString::new(text.replace('\0', "")).unwrap_or_default();
    PyErr::warn(
        py,
        &py.get_type::<pyo3::exceptions::PyRuntimeWarning>(),
        &message,
        1,
    )
}

/// `MemoryError` for a worker thread that could not be started: where the address-space limit
/// (`ulimit -v`) leaves no room for it (one started there could end the process, see
/// [`queens_core::memory::room_for_threads`]), or where the system refused it.
fn no_worker(error: &std::io::Error) -> PyErr {
    pyo3::exceptions::PyMemoryError::new_err(format!("could not start a worker thread: {error}"))
}

/// Runs `work` on a thread of its own with the GIL released, answering Ctrl-C within
/// [`SIGNAL_POLL`]: for work that cannot be cancelled (reading and checking a board, a second
/// at most for ten million queens), Ctrl-C raises `KeyboardInterrupt` at once and leaves the
/// thread to finish and drop what it made.
pub fn run_abandonable<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (sender, result) = mpsc::sync_channel(1);
    queens_core::parallel::spawn(None, None, move || {
        let _ = sender.send(queens_core::pool::in_this_process(work));
    })
    .map_err(|error| no_worker(&error))?;
    let result = Mutex::new(result);
    loop {
        match receive(py, &result) {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(RecvTimeoutError::Disconnected) => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "the work's thread ended without an answer",
                ));
            }
        }
    }
}
