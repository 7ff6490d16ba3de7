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
/// none, or the system's where the thread could not be started.
pub fn spawn<T, F>(name: Option<&str>, stack: Option<usize>, work: F) -> io::Result<JoinHandle<T>>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    builder(name, stack)?.spawn(work)
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
    builder(None, None)?.spawn_scoped(scope, work)
}

/// A thread's builder, named `name` and with a stack of `stack` bytes ([`DEFAULT_THREAD_STACK`]
/// where `None`), once the address space has room for that stack.
fn builder(name: Option<&str>, stack: Option<usize>) -> io::Result<Builder> {
    let size = stack.unwrap_or(DEFAULT_THREAD_STACK as usize);
    if !memory::room_for_threads(size as u128) {
        return Err(io::Error::new(
            io::ErrorKind::OutOfMemory,
            "the address-space limit (ulimit -v) leaves no room for another thread's stack",
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
