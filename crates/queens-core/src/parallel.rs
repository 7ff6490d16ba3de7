//! Work split over scoped threads that gets done even where a thread cannot be started (a low
//! `ulimit -v`, a process at its thread limit): the parts no thread took run on the caller's.
//! A thread starts only where the address space has room for it ([`memory::room_for_threads`]):
//! every thread of a run is started through [`spawn`] or [`spawn_scoped`], and rayon's pools
//! start theirs through [`spawn_worker`].

use std::io;
use std::panic::resume_unwind;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{Builder, JoinHandle, Scope, ScopedJoinHandle};

use crate::memory::{self, DEFAULT_THREAD_STACK};

/// `work` applied to every part, the first on this thread and each other on a thread of its
/// own where one starts (on this thread where none does), the results in the parts' order. A
/// panic in a part is raised again here.
pub fn map_parts<T: Send, R: Send>(parts: Vec<T>, work: impl Fn(T) -> R + Sync) -> Vec<R> {
    let slots: Vec<Mutex<Option<T>>> = parts.into_iter().map(|p| Mutex::new(Some(p))).collect();
    // Each part is taken once: by its thread, or here when the thread never started.
    let run = |slot: &Mutex<Option<T>>| {
        let part = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
        part.map(&work)
    };
    let Some((first, others)) = slots.split_first() else {
        return Vec::new();
    };
    std::thread::scope(|scope| {
        let started: Vec<_> = others
            .iter()
            .map(|slot| spawn_scoped(scope, || run(slot)).ok())
            .collect();
        let mut results = vec![run(first)];
        for (slot, thread) in others.iter().zip(started) {
            results.push(match thread {
                Some(thread) => thread.join().unwrap_or_else(|panic| resume_unwind(panic)),
                None => run(slot),
            });
        }
        results.into_iter().flatten().collect()
    })
}

/// Work begun by [`begin`]: on its own thread, or done already where no thread started.
#[derive(Debug)]
pub enum Begun<R> {
    /// Running on a thread of its own (which always finds its work: `None` never comes).
    Running(JoinHandle<Option<R>>),
    /// Done on the caller's thread.
    Done(R),
}

impl<R> Begun<R> {
    /// Its result, once done; a panic in the work is raised again here.
    pub fn join(self) -> R {
        match self {
            Begun::Running(thread) => thread
                .join()
                .unwrap_or_else(|panic| resume_unwind(panic))
                .expect("a started thread takes its work"),
            Begun::Done(result) => result,
        }
    }
}

/// `work` begun on a thread of its own, or done at once on this one where no thread starts.
pub fn begin<R, F>(work: F) -> Begun<R>
where
    R: Send + 'static,
    F: FnOnce() -> R + Send + 'static,
{
    // The work stays reachable from here in case its thread never starts.
    let slot = Arc::new(Mutex::new(Some(work)));
    let theirs = Arc::clone(&slot);
    let take = |slot: &Mutex<Option<F>>| slot.lock().unwrap_or_else(PoisonError::into_inner).take();
    match spawn(None, None, move || take(&theirs).map(|work| work())) {
        Ok(thread) => Begun::Running(thread),
        Err(_) => Begun::Done(take(&slot)
            .expect("a thread that never started took nothing")(
        )),
    }
}

/// Starts one of a rayon pool's threads (`ThreadPoolBuilder::spawn_handler(spawn_worker)`),
/// where the address space has room for it ([`memory::room_for_threads`]); otherwise the
/// pool's build fails with an error that says so, which its caller words or works around.
pub fn spawn_worker(thread: rayon::ThreadBuilder) -> io::Result<()> {
    let (name, stack) = (thread.name().map(str::to_owned), thread.stack_size());
    spawn(name.as_deref(), stack, || thread.run())?;
    Ok(())
}

/// `work` on a thread named `name`, with a stack of `stack` bytes ([`DEFAULT_THREAD_STACK`]
/// where `None`, whatever `RUST_MIN_STACK` says), where the address space has room for it
/// ([`memory::room_for_threads`]); an error of kind `OutOfMemory` that says so where it has
/// none, or the system's where the thread could not be started ([`system_refusal`]).
pub fn spawn<T, F>(name: Option<&str>, stack: Option<usize>, work: F) -> io::Result<JoinHandle<T>>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    builder(name, stack)?.spawn(work).map_err(system_refusal)
}

/// `work` on a thread of `scope` with a stack of [`DEFAULT_THREAD_STACK`], where the address
/// space has room for it, as [`spawn`].
pub fn spawn_scoped<'scope, T, F>(
    scope: &'scope Scope<'scope, '_>,
    work: F,
) -> io::Result<ScopedJoinHandle<'scope, T>>
where
    T: Send + 'scope,
    F: FnOnce() -> T + Send + 'scope,
{
    builder(None, None)?
        .spawn_scoped(scope, work)
        .map_err(system_refusal)
}

/// How many more threads, up to `most`, the system lets this process start now: found by
/// starting them (each waiting until all are counted, then ending), since what limits them (a
/// user's threads, `ulimit -u`; a control group's `pids.max`; the address space) is the
/// system's and shared with other processes. For a host that must know before it starts
/// threads it cannot do without (an async runtime whose workers end the process where one is
/// refused). Returns once the system counts the threads ended again, so that the room it found
/// is free (on Linux, as `/proc/self/status` counts them; at most a second).
pub fn threads_that_start(most: usize) -> usize {
    let before = threads_of_this_process();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let released = Arc::new(Mutex::new(released));
    let mut started = Vec::new();
    for _ in 0..most {
        let released = Arc::clone(&released);
        let waiting = spawn(Some("queens-probe"), Some(PROBE_STACK), move || {
            // Every sender is gone once the probe has counted: each thread then ends.
            let _ = released
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .recv();
        });
        match waiting {
            Ok(thread) => started.push(thread),
            Err(_) => break,
        }
    }
    let room = started.len();
    drop(release);
    for thread in started {
        let _ = thread.join();
    }
    // A joined thread is counted against the limits until the system has released it, a
    // moment after the join returns.
    let waited = std::time::Instant::now();
    while threads_of_this_process() > before && waited.elapsed() < std::time::Duration::from_secs(1)
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    room
}

/// The stack of [`threads_that_start`]'s threads, which only wait.
const PROBE_STACK: usize = 64 << 10;

/// The threads of this process as the system counts them (Linux's `/proc/self/status`); 0
/// where it does not say.
fn threads_of_this_process() -> u128 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| memory::status_number(&status, "Threads:"))
        .unwrap_or(0)
}

/// Why the system refused a thread or a process, in words a user can act on: where it answered
/// `EAGAIN` (which the standard library calls `WouldBlock`), the limit on a user's processes
/// and threads was reached (`ulimit -u`, or a control group's `pids.max`, as containers and
/// Slurm's cgroups set), which its own words ("Resource temporarily unavailable") leave to be
/// guessed; any other refusal as the system gave it.
pub fn system_refusal(error: io::Error) -> io::Error {
    if error.kind() == io::ErrorKind::WouldBlock {
        io::Error::new(error.kind(), THREAD_LIMIT_REACHED)
    } else {
        error
    }
}

/// What [`system_refusal`] says of a refusal at the limit on a user's processes and threads.
pub const THREAD_LIMIT_REACHED: &str = concat!(
    "the limit on a user's processes and threads ",
    "(ulimit -u, or a control group's pids.max) allows no more"
);

/// A thread's builder, named `name` and with a stack of `stack` bytes ([`DEFAULT_THREAD_STACK`]
/// where `None`), once the address space has room for that stack.
fn builder(name: Option<&str>, stack: Option<usize>) -> io::Result<Builder> {
    let size = stack.unwrap_or(DEFAULT_THREAD_STACK as usize);
    if !memory::room_for_threads(size as u128) {
        return Err(io::Error::new(
            io::ErrorKind::OutOfMemory,
            format!(
                "{} leaves no room for another thread's stack",
                memory::address_space_limit_words()
            ),
        ));
    }
    // A stack is always given: the standard library sizes a thread given none by
    // RUST_MIN_STACK, where 100 overflowed the completion search's stack in every experiment
    // and 10¹² started no thread.
    let mut builder = Builder::new().stack_size(size);
    if let Some(name) = name {
        builder = builder.name(name.to_owned());
    }
    Ok(builder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_is_worked_once_in_order() {
        let squares = map_parts((0..9u64).collect(), |x| x * x);
        assert_eq!(squares, (0..9u64).map(|x| x * x).collect::<Vec<_>>());
        assert!(map_parts(Vec::<u8>::new(), |x| x).is_empty());
    }

    #[test]
    fn the_threads_that_start_are_counted() {
        assert_eq!(threads_that_start(3), 3);
        assert_eq!(threads_that_start(0), 0);
    }

    #[test]
    fn a_refusal_at_the_thread_limit_names_the_limit() {
        let at_the_limit = system_refusal(io::Error::from(io::ErrorKind::WouldBlock));
        assert_eq!(at_the_limit.kind(), io::ErrorKind::WouldBlock);
        assert_eq!(at_the_limit.to_string(), THREAD_LIMIT_REACHED);
        // EAGAIN, as pthread_create gives it.
        let raw = system_refusal(io::Error::from_raw_os_error(11));
        assert_eq!(raw.to_string(), THREAD_LIMIT_REACHED);
        let other = system_refusal(io::Error::from(io::ErrorKind::OutOfMemory));
        assert_eq!(other.kind(), io::ErrorKind::OutOfMemory);
        assert_ne!(other.to_string(), THREAD_LIMIT_REACHED);
    }

    #[test]
    fn begun_work_gives_its_result() {
        let here = std::thread::current().id();
        let begun = begin(move || std::thread::current().id() != here);
        assert!(matches!(begun, Begun::Running(_)));
        assert!(begun.join(), "it ran on a thread of its own");
    }

    #[test]
    fn parts_run_on_other_threads_where_they_start() {
        let here = std::thread::current().id();
        let threads = map_parts(vec![(); 3], |()| std::thread::current().id());
        assert_eq!(threads[0], here);
        assert!(threads[1..].iter().all(|&id| id != here));
    }
}
