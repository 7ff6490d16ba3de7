//! The count driver: a plan's subproblems (all of them, or one shard's) counted on a pool of
//! threads within a [`Budget`], with progress reported as they finish and a checkpoint saved
//! every few seconds and at the end, so that a stopped count resumes where it stopped.
//!
//! ```
//! use queens_core::Budget;
//! use queens_exact::count::{CountJob, CountPlan};
//!
//! let job = CountJob::new(CountPlan::new(10)?).with_threads(2)?;
//! let result = job.run(&Budget::unlimited(), |_done, _of| {})?;
//! assert!(result.is_complete());
//! assert_eq!((result.tally.total, result.tally.unique()), (724, 92));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use queens_core::error::human_bytes;
use queens_core::words::counted;
use queens_core::{Budget, StopReason, memory};
use thiserror::Error;

use super::checkpoint::{self, CheckpointError, Progress};
use super::integrity::{self, Contradiction};
use super::{CountPlan, Shard, Tally};

/// The most worker threads a count starts.
pub const MAX_THREADS: usize = 1024;

/// How often a running count saves its checkpoint by default.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(5);

/// The shortest time between two checkpoint saves, whatever was asked: a save writes and syncs
/// a file, and saving after every finished part would cost more than the count.
pub const MIN_CHECKPOINT_EVERY: Duration = Duration::from_millis(100);

/// A save waits at least this many times as long as the last one took, so that saving never
/// takes more than about 5 % of a count's time, even on a slow disk.
const SAVE_SPACING: u32 = 20;

/// A count that could not run to its end for a reason other than its budget.
#[derive(Debug, Error)]
pub enum CountRunError {
    /// Too many or no threads.
    #[error("threads must be at least 1 and at most {MAX_THREADS}, got {0}")]
    Threads(usize),
    /// The thread pool could not start.
    #[error("cannot start the worker threads: {0}")]
    Pool(String),
    /// The checkpoint could not be read or written.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The device counting the parts failed; what it finished is in the checkpoint, if any.
    #[error("the count's device failed: {0}")]
    Counter(#[from] CounterError),
    /// The count would need more memory than it may take or the machine has.
    #[error("{0}")]
    Memory(String),
    /// A whole count that contradicts the published one: a damaged or forged checkpoint (or a
    /// bug), never printed as a result.
    #[error("the count gives {contradiction}{}", if *resumed { ": the checkpoint it resumed from is wrong" } else { "" })]
    Contradicts {
        /// What was counted and what is published.
        contradiction: Contradiction,
        /// Whether part of it came from a checkpoint.
        resumed: bool,
    },
}

/// Counts a plan's parts somewhere other than this machine's CPU cores: the GPU engine of the
/// `queens-gpu` crate is one. The driver keeps everything else — shards, checkpoints, progress,
/// the published counts — so that a counter says only how parts are counted.
pub trait PartCounter: Send + Sync {
    /// Counts `parts`, calling their `done` as each finishes (from any thread) with exactly the
    /// tally [`CountPlan::count_one`] gives it. Stops starting new parts once their budget
    /// stops, within about a second; the parts cut short are not reported.
    fn count_parts(&self, parts: PartsToCount<'_>) -> Result<(), CounterError>;

    /// What counts, in words, for messages ("NVIDIA H100 (Vulkan)").
    fn describe(&self) -> String;
}

/// Parts of a plan handed to a [`PartCounter`]: which ones, under what budget, and where each
/// finished part's tally goes.
#[derive(Clone, Copy)]
pub struct PartsToCount<'a> {
    /// The plan the parts belong to.
    pub plan: &'a CountPlan,
    /// The parts to count, by index into the plan.
    pub ids: &'a [usize],
    /// When to stop starting parts.
    pub budget: &'a Budget,
    /// Called with each finished part and its tally, from any thread.
    pub done: &'a (dyn Fn(usize, Tally) + Sync),
}

/// A counter that failed (a device lost, a driver error); the parts it reported stay counted.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct CounterError(pub String);

/// What to count and how.
#[derive(Clone)]
pub struct CountJob {
    plan: CountPlan,
    shard: Shard,
    /// Worker threads; `None` runs on the current rayon pool.
    threads: Option<usize>,
    checkpoint: Option<PathBuf>,
    checkpoint_every: Duration,
    on_save_failure: OnSaveFailure,
    memory_limit: u64,
    /// Where the parts are counted; `None` on the CPU threads.
    counter: Option<Arc<dyn PartCounter>>,
    /// Where this run counts, as its results and checkpoint say it ([`CountJob::with_place`]).
    place: Option<String>,
}

impl fmt::Debug for CountJob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CountJob")
            .field("plan", &self.plan)
            .field("shard", &self.shard)
            .field("threads", &self.threads)
            .field("checkpoint", &self.checkpoint)
            .field("checkpoint_every", &self.checkpoint_every)
            .field("on_save_failure", &self.on_save_failure)
            .field("memory_limit", &self.memory_limit)
            .field("counter", &self.counter.as_ref().map(|c| c.describe()))
            .field("place", &self.place)
            .finish()
    }
}

/// What joins the places that counted a count, in the order each last counted.
pub(crate) const PLACES_JOINED: &str = "; then ";

/// What a count found: the sum over its finished subproblems, and whether that is all of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountResult {
    /// The sum over the finished subproblems (resumed ones included).
    pub tally: Tally,
    /// Subproblems finished, resumed ones included.
    pub finished: usize,
    /// Subproblems resumed from the checkpoint.
    pub resumed: usize,
    /// Subproblems in the job (the shard's share).
    pub subproblems: usize,
    /// Wall time of this run.
    pub elapsed: Duration,
    /// Why the run stopped early, if it did.
    pub stopped: Option<StopReason>,
    /// Why the checkpoint is not up to date, if its last save failed: the count went on (or
    /// stopped, by [`OnSaveFailure::Stop`]) with its work in memory, and the result holds it.
    pub save_failure: Option<String>,
    /// Where the finished subproblems were counted, as far as the runs said
    /// ([`CountJob::with_place`]): each place once, in the order each last counted, this run's
    /// last if it counted any; the earlier ones from the checkpoint (see
    /// [`Progress::places`](super::checkpoint::Progress::places)).
    pub places: Vec<String>,
}

/// What a count does when its checkpoint cannot be saved (a full disk, a removed directory).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnSaveFailure {
    /// Report it and go on counting, trying again at the next save.
    #[default]
    KeepCounting,
    /// Report it and stop, keeping what was counted in the result.
    Stop,
}

impl CountResult {
    /// Whether every subproblem of the job is counted.
    pub fn is_complete(&self) -> bool {
        self.finished == self.subproblems
    }

    /// Where the finished subproblems were counted, in a line: the [`places`](Self::places)
    /// joined by "; then ", or `None` where no run said.
    pub fn counted_on(&self) -> Option<String> {
        (!self.places.is_empty()).then(|| self.places.join(PLACES_JOINED))
    }
}

impl CountJob {
    /// The whole of `plan`, on the current rayon pool (one thread per core unless the caller
    /// installed another), without a checkpoint.
    pub fn new(plan: CountPlan) -> Self {
        CountJob {
            plan,
            shard: Shard::WHOLE,
            threads: None,
            checkpoint: None,
            checkpoint_every: CHECKPOINT_EVERY,
            on_save_failure: OnSaveFailure::KeepCounting,
            memory_limit: super::DEFAULT_MEMORY_LIMIT,
            counter: None,
            place: None,
        }
    }

    /// Saying that this run counts at `place` (a host and its GPU or threads, as a shard's
    /// report names it): the result's [`places`](CountResult::places) and the checkpoint's end
    /// with it once this run has counted a part.
    #[must_use]
    pub fn with_place(mut self, place: impl Into<String>) -> Self {
        self.place = Some(place.into());
        self
    }

    /// Where this run counts, if said.
    pub fn place(&self) -> Option<&str> {
        self.place.as_deref()
    }

    /// Counting the parts with `counter` (a GPU) instead of the CPU threads.
    #[must_use]
    pub fn with_counter(mut self, counter: Arc<dyn PartCounter>) -> Self {
        self.counter = Some(counter);
        self
    }

    /// The counter the parts go to, if not the CPU threads.
    pub fn counter(&self) -> Option<&dyn PartCounter> {
        self.counter.as_deref()
    }

    /// Refusing to start if the plan's memory estimate exceeds `bytes` (by default
    /// [`super::DEFAULT_MEMORY_LIMIT`]); whatever the limit, a count that needs more than the
    /// machine has available is refused rather than left to swap.
    #[must_use]
    pub fn with_memory_limit(mut self, bytes: u64) -> Self {
        self.memory_limit = bytes;
        self
    }

    /// The memory the count may plan to use, in bytes.
    pub fn memory_limit(&self) -> u64 {
        self.memory_limit
    }

    /// The count's peak memory on its threads, estimated before it starts, in bytes.
    pub fn memory_estimate(&self) -> u64 {
        self.plan.memory_estimate(self.threads())
    }

    /// `Err` if the count would need more memory than allowed or available.
    fn check_memory(&self) -> Result<(), CountRunError> {
        let needed = self.memory_estimate();
        let what = format!(
            "counting N = {} by the {} engine on {}",
            self.plan.n(),
            self.plan.engine(),
            counted(self.threads(), "thread", "threads")
        );
        if needed > self.memory_limit {
            return Err(CountRunError::Memory(format!(
                "{what} needs about {}, more than the limit of {}",
                human_bytes(u128::from(needed)),
                human_bytes(u128::from(self.memory_limit))
            )));
        }
        memory::check(&what, u128::from(needed)).map_err(CountRunError::Memory)
    }

    /// Only `shard`'s subproblems.
    #[must_use]
    pub fn with_shard(mut self, shard: Shard) -> Self {
        self.shard = shard;
        self
    }

    /// On `threads` worker threads (1 to [`MAX_THREADS`]).
    pub fn with_threads(mut self, threads: usize) -> Result<Self, CountRunError> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(CountRunError::Threads(threads));
        }
        self.threads = Some(threads);
        Ok(self)
    }

    /// Resuming from, and saving to, the checkpoint at `path` every `every` (at least
    /// `MIN_CHECKPOINT_EVERY`, and at least twenty times as long as the last save took).
    #[must_use]
    pub fn with_checkpoint(mut self, path: PathBuf, every: Duration) -> Self {
        self.checkpoint = Some(path);
        self.checkpoint_every = every.max(MIN_CHECKPOINT_EVERY);
        self
    }

    /// What to do when the checkpoint cannot be saved.
    #[must_use]
    pub fn on_save_failure(mut self, policy: OnSaveFailure) -> Self {
        self.on_save_failure = policy;
        self
    }

    /// The plan.
    pub fn plan(&self) -> &CountPlan {
        &self.plan
    }

    /// The shard.
    pub fn shard(&self) -> Shard {
        self.shard
    }

    /// Worker threads.
    pub fn threads(&self) -> usize {
        self.threads.unwrap_or_else(rayon::current_num_threads)
    }

    /// Subproblems in the job.
    pub fn subproblems(&self) -> usize {
        self.plan.shard_ids(self.shard).len()
    }

    /// Counts until every subproblem is done or `budget` stops it, calling `progress(done, of)`
    /// (from any thread) as subproblems finish, and once at the start with what was resumed.
    /// A stopped count keeps what it finished: it is in the result and in the checkpoint. The
    /// budget's time limit runs from this call.
    pub fn run(
        &self,
        budget: &Budget,
        progress: impl Fn(usize, usize) + Sync,
    ) -> Result<CountResult, CountRunError> {
        self.run_reporting(budget, progress, |_| {})
    }

    /// [`run`](Self::run), calling `save_failed` at once (from any thread) when a save of the
    /// checkpoint fails, and `save_failed` is not called again until a save succeeds.
    pub fn run_reporting(
        &self,
        budget: &Budget,
        progress: impl Fn(usize, usize) + Sync,
        save_failed: impl Fn(&CheckpointError) + Sync,
    ) -> Result<CountResult, CountRunError> {
        self.check_memory()?;
        let mut budget = budget.clone();
        budget.start();
        // Raised by a failed save under `OnSaveFailure::Stop`; raised too by the caller's token.
        let save_stop = budget.token().child();
        let budget = budget.with_cancel(save_stop.clone());
        let plan = &self.plan;
        let ids = plan.shard_ids(self.shard);
        let _lock = self
            .checkpoint
            .as_deref()
            .map(checkpoint::Lock::take)
            .transpose()?;
        let resumed = match &self.checkpoint {
            Some(path) => checkpoint::load(path, plan, self.shard)?,
            None => Progress::default(),
        };
        let resumed_count = resumed.len();
        let todo: Vec<usize> = ids
            .iter()
            .copied()
            .filter(|&id| !resumed.is_done(id))
            .collect();
        progress(resumed_count, ids.len());
        let state = Mutex::new(Running {
            progress: resumed,
            last_save: Instant::now(),
            last_save_cost: Duration::ZERO,
            save_failure: None,
            counted_here: false,
        });
        let started = Instant::now();
        let done = |id, tally| {
            let mut state = state
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            state.progress.record(id, tally);
            if !state.counted_here {
                state.counted_here = true;
                if let Some(place) = &self.place {
                    state.progress.counted_at(place);
                }
            }
            progress(state.progress.len(), ids.len());
            if self.save_when_due(&mut state, &save_failed)
                && self.on_save_failure == OnSaveFailure::Stop
            {
                save_stop.cancel();
            }
        };
        let counter_failure = self.count_parts(PartsToCount {
            plan,
            ids: &todo,
            budget: &budget,
            done: &done,
        })?;
        let elapsed = started.elapsed();
        let mut state = state
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(path) = &self.checkpoint {
            let saved = checkpoint::save(path, plan, self.shard, &state.progress);
            state.record_save(saved, &save_failed);
        }
        if let Some(failure) = counter_failure {
            return Err(failure.into());
        }
        let finished = state.progress.len();
        let tally = state.progress.sum();
        if self.shard == Shard::WHOLE
            && finished == ids.len()
            && let Some(contradiction) =
                integrity::contradiction(plan.n(), tally.total, tally.unique())
        {
            return Err(CountRunError::Contradicts {
                contradiction,
                resumed: resumed_count > 0,
            });
        }
        // A stop for a failed save raised the budget's own token: the check tells it too.
        let stopped = (finished < ids.len())
            .then(|| budget.check().err())
            .flatten();
        Ok(CountResult {
            tally,
            finished,
            resumed: resumed_count,
            subproblems: ids.len(),
            elapsed,
            stopped,
            save_failure: state.save_failure,
            places: state.progress.places().to_vec(),
        })
    }

    /// Counts `parts` on the job's counter, or on this machine's cores; the counter's failure,
    /// if it failed.
    fn count_parts(&self, parts: PartsToCount<'_>) -> Result<Option<CounterError>, CountRunError> {
        if let Some(counter) = &self.counter {
            return Ok(counter.count_parts(parts).err());
        }
        let count = || {
            parts
                .plan
                .count_parallel(parts.ids, parts.budget, parts.done);
        };
        // On the pool it runs in where that has the threads asked for (`pool::pool_of`).
        let pool = match self.threads {
            Some(threads) => queens_core::pool::pool_of(threads)
                .map_err(|e| CountRunError::Pool(e.to_string()))?,
            None => None,
        };
        match pool {
            Some(pool) => pool.install(count),
            None => count(),
        }
        Ok(None)
    }

    /// Saves the checkpoint if a save is due; whether a save failed now.
    fn save_when_due(&self, state: &mut Running, save_failed: &dyn Fn(&CheckpointError)) -> bool {
        let Some(path) = self.checkpoint.as_deref() else {
            return false;
        };
        let spacing = self
            .checkpoint_every
            .max(state.last_save_cost * SAVE_SPACING);
        if state.last_save.elapsed() < spacing {
            return false;
        }
        let started = Instant::now();
        let saved = checkpoint::save(path, &self.plan, self.shard, &state.progress);
        state.last_save = Instant::now();
        state.last_save_cost = state.last_save - started;
        state.record_save(saved, save_failed)
    }

    /// The checkpoint file, if any.
    pub fn checkpoint(&self) -> Option<&Path> {
        self.checkpoint.as_deref()
    }
}

/// What the workers share while a count runs.
struct Running {
    progress: Progress,
    last_save: Instant,
    /// How long the last save took.
    last_save_cost: Duration,
    /// The message of the last save, if it failed.
    save_failure: Option<String>,
    /// Whether this run has counted a part, so that its place is among the progress's.
    counted_here: bool,
}

impl Running {
    /// Records how a save went, calling `save_failed` on the first failure after a success;
    /// whether it failed.
    fn record_save(
        &mut self,
        saved: Result<(), CheckpointError>,
        save_failed: &dyn Fn(&CheckpointError),
    ) -> bool {
        match saved {
            Ok(()) => {
                self.save_failure = None;
                false
            }
            Err(error) => {
                if self.save_failure.is_none() {
                    save_failed(&error);
                }
                self.save_failure = Some(error.to_string());
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::Engine;

    #[test]
    fn checkpoint_saves_keep_their_floor() {
        let job = |every| {
            CountJob::new(CountPlan::with_engine(8, Engine::Backtracking).unwrap())
                .with_checkpoint(PathBuf::from("count.json"), every)
        };
        let eager = job(Duration::from_micros(1));
        assert_eq!(eager.checkpoint_every, MIN_CHECKPOINT_EVERY);
        let patient = job(Duration::from_secs(7));
        assert_eq!(patient.checkpoint_every, Duration::from_secs(7));
    }
}
