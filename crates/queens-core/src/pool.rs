//! The worker threads the parallel work of a process shares (rayon's global pool): sized once,
//! by `RAYON_NUM_THREADS` where it is set and by the cores the system offers where it is not,
//! never past the most threads a run may have, and started through
//! [`parallel::spawn_worker`], so that each thread starts only
//! where the address space has room for it. Left to itself, rayon reads the variable when a
//! pool is first used and starts as many threads as it says: `RAYON_NUM_THREADS=99999999` held
//! a process for minutes starting threads, and a value that is not a number was ignored. Work
//! that asks for a number of threads runs on this pool where it has that many ([`pool_of`]).
//!
//! A process forked from one whose pool had started (Python's `multiprocessing` forks on Linux
//! before Python 3.14) has none of its threads: rayon's pool is still there, but nothing works
//! it, and work handed to it would wait for ever. There, [`start_shared_pool`] starts a pool of
//! the process's own, and a host runs its work [`in_this_process`] to use it.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use thiserror::Error;

use crate::memory::{self, DEFAULT_THREAD_STACK};
use crate::parallel::{self, THREAD_LIMIT_REACHED};

/// The variable that sizes rayon's pools, read here for the shared pool.
pub const THREADS_VARIABLE: &str = "RAYON_NUM_THREADS";

/// Why the shared pool did not start.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PoolError {
    /// `RAYON_NUM_THREADS` says no number of threads a run may have.
    #[error(
        "{THREADS_VARIABLE}={given:?} is not a number of worker threads: give a whole number \
         from 1 to {most} (0 for one a core), or unset it"
    )]
    Variable {
        /// The variable's value, as given.
        given: String,
        /// The most threads a run may have.
        most: usize,
    },
    /// The address-space or data limit leaves no room for the threads' stacks.
    #[error(
        "could not start the worker threads: {limit} leaves no room for their stacks; raise it"
    )]
    NoRoom {
        /// The limit, in words ([`memory::address_space_limit_words`]).
        limit: &'static str,
    },
    /// The limit on a user's threads (`ulimit -u`, a control group's `pids.max`) was reached.
    #[error(
        "could not start {threads} worker threads: {THREAD_LIMIT_REACHED}; ask for fewer{}",
        if *asked { "" } else { " with RAYON_NUM_THREADS" }
    )]
    ThreadLimit {
        /// The threads the pool was to hold.
        threads: usize,
        /// Whether the work asked for that many (else the variable or the cores said so).
        asked: bool,
    },
    /// The system did not start them, for another reason.
    #[error("could not start the worker threads: {0}")]
    NotStarted(String),
}

/// The threads the shared pool holds, from `given` (`RAYON_NUM_THREADS`, `None` where unset)
/// and the system's `cores`: the variable's number where it is 1 to `most`; one a core, at most
/// `most`, where it is unset, empty or 0 (as rayon reads 0); refused otherwise.
pub fn pool_size(given: Option<&str>, cores: usize, most: usize) -> Result<usize, PoolError> {
    let one_a_core = cores.clamp(1, most.max(1));
    let Some(given) = given.filter(|text| !text.trim().is_empty()) else {
        return Ok(one_a_core);
    };
    match given.trim().parse::<usize>() {
        Ok(0) => Ok(one_a_core),
        Ok(threads) if threads <= most => Ok(threads),
        _ => Err(PoolError::Variable {
            given: given.to_owned(),
            most,
        }),
    }
}

/// The threads the shared pool would hold in this process: [`pool_size`] of its
/// `RAYON_NUM_THREADS` and its cores.
pub fn shared_pool_size(most: usize) -> Result<usize, PoolError> {
    let given = std::env::var_os(THREADS_VARIABLE);
    // A value that is not Unicode is not a number either; it is refused as written.
    let text = given.as_ref().map(|value| value.to_string_lossy());
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    pool_size(text.as_deref(), cores, most)
}

/// Starts the shared pool, each thread through [`parallel::spawn_worker`]: what a host calls
/// before any work that may use the pool (the command line before a command, Python before a
/// call that counts or solves), since rayon would otherwise start it unchecked at its first
/// use. It holds `threads` where the work to come asks for a number (a count's `--threads`, so
/// that the count runs on it rather than on a second pool beside it) and [`shared_pool_size`]
/// where not; the variable is checked either way. Once started it is left as it is, and the
/// variable is not read again; where it was started elsewhere first, that pool is kept. In a
/// process forked from one whose pool had started, it starts the fork's own pool instead (the
/// module's docs say why), which [`in_this_process`] runs work on.
pub fn start_shared_pool(threads: Option<usize>, most: usize) -> Result<(), PoolError> {
    let started_in = STARTED_IN.load(Ordering::Acquire);
    if started_in == std::process::id() {
        return Ok(());
    }
    let sized = shared_pool_size(most)?;
    let asked = threads.is_some();
    let threads = threads.map_or(sized, |asked| asked.clamp(1, most.max(1)));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .spawn_handler(parallel::spawn_worker);
    if started_in != 0 {
        let mut forked = FORKED.lock().unwrap_or_else(PoisonError::into_inner);
        if forked
            .as_ref()
            .is_none_or(|(pid, _)| *pid != std::process::id())
        {
            let pool = pool
                .build()
                .map_err(|error| refusal(&error, threads, asked))?;
            *forked = Some((std::process::id(), Arc::new(pool)));
        }
        return Ok(());
    }
    match pool.build_global() {
        Ok(()) => {}
        Err(error) if error.to_string().contains("already been initialized") => {}
        Err(error) => return Err(refusal(&error, threads, asked)),
    }
    STARTED_IN.store(std::process::id(), Ordering::Release);
    Ok(())
}

/// The process that started the shared pool (0: none has).
static STARTED_IN: AtomicU32 = AtomicU32::new(0);

/// A forked process's own pool, with the process it is for.
static FORKED: Mutex<Option<(u32, Arc<rayon::ThreadPool>)>> = Mutex::new(None);

/// Runs `work` where this process's worker threads take its parallel parts: as it is, in the
/// process that started the shared pool (or where none has started), and in a process forked
/// from it on the pool [`start_shared_pool`] started there, since the shared pool has no thread
/// in a fork. There `work` holds one of that pool's threads while it runs: it is for a call's
/// work (a command, a Python call), not for a thread that waits for as long as the process
/// runs (a timer), and the threads it starts take their parallel parts to the shared pool
/// unless they run `in_this_process` too.
pub fn in_this_process<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    let started_in = STARTED_IN.load(Ordering::Acquire);
    if started_in == 0 || started_in == std::process::id() {
        return work();
    }
    let pool = FORKED
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
        .filter(|(pid, _)| *pid == std::process::id())
        .map(|(_, pool)| Arc::clone(pool));
    match pool {
        Some(pool) => pool.install(work),
        None => work(),
    }
}

/// Why a pool of `threads` did not start (`asked`: the work asked for that many).
fn refusal(error: &rayon::ThreadPoolBuildError, threads: usize, asked: bool) -> PoolError {
    if !memory::room_for_threads(DEFAULT_THREAD_STACK) {
        PoolError::NoRoom {
            limit: memory::address_space_limit_words(),
        }
    } else if at_the_thread_limit(error) {
        PoolError::ThreadLimit { threads, asked }
    } else {
        PoolError::NotStarted(error.to_string())
    }
}

/// Whether a pool's build failed because the system refused a thread at the limit on a user's
/// threads ([`parallel::system_refusal`]).
fn at_the_thread_limit(error: &rayon::ThreadPoolBuildError) -> bool {
    std::error::Error::source(error)
        .and_then(|source| source.downcast_ref::<std::io::Error>())
        .is_some_and(|io| io.kind() == std::io::ErrorKind::WouldBlock)
}

/// A pool of `threads` threads, for work that asks for that many: `None` where the pool the
/// caller runs in (the shared pool, most often) has that many already, so that no second pool
/// starts beside it (under a limit on a user's threads, `ulimit -u`, it would be refused where
/// the work fits), else a new pool whose threads start through [`parallel::spawn_worker`].
pub fn pool_of(threads: usize) -> Result<Option<rayon::ThreadPool>, rayon::ThreadPoolBuildError> {
    if threads == rayon::current_num_threads() {
        return Ok(None);
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .spawn_handler(parallel::spawn_worker)
        .build()
        .map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_sizes_the_pool_within_the_most_a_run_may_have() {
        for (given, threads) in [
            (None, 8),
            (Some(""), 8),
            (Some(" "), 8),
            (Some("0"), 8),
            (Some("1"), 1),
            (Some(" 3 "), 3),
            (Some("1024"), 1024),
        ] {
            assert_eq!(pool_size(given, 8, 1024), Ok(threads), "{given:?}");
        }
        // One a core, but never past the most.
        assert_eq!(pool_size(None, 4096, 1024), Ok(1024));
        assert_eq!(pool_size(Some("0"), 0, 1024), Ok(1));
    }

    #[test]
    fn a_variable_that_says_no_number_of_threads_is_refused_naming_it() {
        for given in [
            "1025",
            "99999999",
            "abc",
            "-1",
            "2.5",
            "1e3",
            "18446744073709551616",
        ] {
            let refusal = pool_size(Some(given), 8, 1024).unwrap_err();
            assert_eq!(
                refusal.to_string(),
                format!(
                    "RAYON_NUM_THREADS=\"{given}\" is not a number of worker threads: give a \
                     whole number from 1 to 1024 (0 for one a core), or unset it"
                )
            );
        }
    }
}
