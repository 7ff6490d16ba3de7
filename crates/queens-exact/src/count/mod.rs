//! Counting all solutions (OEIS A000170) and the solutions distinct up to rotation and
//! reflection (A002562) of the N×N board, exactly, on all cores.
//!
//! Three [`Engine`]s count: the quadrant [`join`], which pairs half boards built from the four
//! quadrants' placements (the fast one, from N = 14 while its memory fits), backtracking,
//! which searches one representative of each symmetry class with a bitmask kernel (see [`plan`]
//! for how the classes are divided; the reference, for N up to 32), and the GPU engine, which
//! counts backtracking's parts on a graphics card (the `queens-gpu` crate supplies its
//! [`PartCounter`]; its parts, shards and checkpoints are backtracking's). Either way a [`CountPlan`]
//! splits the count into many independent parts whose [`Tally`]s add up, unique solutions
//! included (by Burnside's lemma). Because the split depends on N and the engine only, a count
//! can be cut into shards for several machines and the results merged ([`shard`]), and a long
//! run can save finished parts and resume ([`checkpoint`]). [`CountJob`] drives a count:
//! threads, a memory check, a [`Budget`] that stops it, progress, checkpoints.
//!
//! ```
//! use queens_exact::count::count;
//!
//! let eight = count(8)?;
//! assert_eq!((eight.total, eight.unique()), (92, 12));
//! # Ok::<(), queens_exact::count::CountError>(())
//! ```

pub mod campaign;
pub mod checkpoint;
mod driver;
pub mod estimate;
pub mod integrity;
pub mod join;
mod kernel;
pub mod plan;
mod rotation;
pub mod shard;

use queens_core::Budget;
use queens_core::side::SideLimit;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use driver::{
    CHECKPOINT_EVERY, CountJob, CountResult, CountRunError, CounterError, MAX_THREADS,
    OnSaveFailure, PartCounter, PartsToCount,
};
pub use kernel::count_subproblem;
pub use plan::{Case, Subproblem};
pub use rotation::Turn;
pub use shard::Shard;

/// Bumped whenever a split, an engine's node accounting or the numbers a part records change,
/// so that old shards and checkpoints are rejected.
pub const KERNEL_VERSION: u32 = 3;

/// What a part of a count (a subproblem, a shard, a whole count) adds up to.
///
/// Besides the solutions it records Burnside's other terms: `fixed` sums, over the seven
/// symmetries other than the identity, the solutions each leaves unchanged, so that a whole
/// count's unique solutions are `(total + fixed) / 8` (see [`Tally::unique`]). Both engines
/// count solutions (backtracking by class weights, see [`plan`]) and the rotation-symmetric
/// ones in parts of their own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Solutions.
    pub total: u128,
    /// Solutions left unchanged by a symmetry other than the identity, summed over the seven.
    pub fixed: u128,
    /// Work done: queens placed (backtracking), half boards built (join pieces) or squares
    /// tried (the join's rotation searches).
    pub nodes: u128,
}

impl Tally {
    /// Solutions up to rotation and reflection, by Burnside's lemma: `(total + fixed) / 8`.
    /// Meaningful for a whole count.
    pub fn unique(&self) -> u128 {
        (self.total + self.fixed) / 8
    }
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.total += other.total;
        self.fixed += other.fixed;
        self.nodes += other.nodes;
    }
}

/// The largest N the kernel counts: its masks are 32 bits wide.
pub const MAX_N: u32 = 32;

/// The sides a count takes, 1 to [`MAX_N`], and its refusal of a larger one.
pub const SIDES: SideLimit = SideLimit::new(MAX_N, |most, got| {
    format!("counting supports N from 1 to {most} (the kernel's bit width), got {got}")
});

/// The memory a count may plan to use unless told otherwise: 2 GiB.
pub const DEFAULT_MEMORY_LIMIT: u64 = 2 << 30;

/// How a count is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Engine {
    /// Row-by-row bitmask backtracking over one representative per symmetry class: the
    /// reference, for every N up to 32, in little memory.
    Backtracking,
    /// The quadrant join ([`join`]): far faster from N = 14 on, with memory that grows about 8×
    /// per two rows (N from 4 to 25).
    Join,
    /// Backtracking's parts, each split further and searched on a graphics card by a
    /// [`PartCounter`] of the `queens-gpu` crate: the same split, fingerprint and tallies as
    /// [`Engine::Backtracking`], so that its shards and checkpoints mix with the CPU's.
    Gpu,
}

impl Engine {
    /// Every engine, by name.
    pub const ALL: [Engine; 3] = [Engine::Backtracking, Engine::Join, Engine::Gpu];

    /// Its name on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Backtracking => "backtracking",
            Engine::Join => "join",
            Engine::Gpu => "gpu",
        }
    }

    /// The N it counts.
    pub fn sizes(self) -> std::ops::RangeInclusive<u32> {
        match self {
            Engine::Backtracking | Engine::Gpu => 1..=MAX_N,
            Engine::Join => join::MIN_N..=join::MAX_N,
        }
    }

    /// What one unit of its work is, and what its parts are, in words (singular, plural).
    pub fn units(self) -> ((&'static str, &'static str), (&'static str, &'static str)) {
        match self {
            Engine::Backtracking | Engine::Gpu => {
                (("node", "nodes"), ("subproblem", "subproblems"))
            }
            Engine::Join => (("half board", "half boards"), ("piece", "pieces")),
        }
    }

    /// The faster engine for the N×N board whose peak memory stays within `memory_limit`
    /// bytes: the join from N = 14 while it fits on one thread, else backtracking. It depends
    /// on N and the limit only, so that every shard of a count picks the same.
    pub fn for_count(n: u32, memory_limit: u64) -> Engine {
        if (JOIN_FROM..=join::MAX_N).contains(&n)
            && join::JoinPlan::memory_estimate(n, 1) <= memory_limit
        {
            Engine::Join
        } else {
            Engine::Backtracking
        }
    }

    /// About how many CPU-seconds counting the N×N board takes: the join measured at N = 20
    /// (301.9 core-seconds on the 2-core reference machine, `queens count 20 --threads 2`,
    /// user + system time) and its growth of 9.7 times a step from N = 18 to 20; backtracking
    /// about ten times the join's (1.3 s against 0.12 s at N = 16 on one thread). An
    /// extrapolation, good to a factor of a few: enough to tell seconds from months.
    ///
    /// For the GPU engine the figure is the backtracking's divided by [`GPU_CORES`], the CPU
    /// cores a large graphics card stands for: an assumption from the published GPU counters'
    /// times, not a measurement of this engine.
    pub fn estimated_core_seconds(self, n: u32) -> f64 {
        let join = 301.9 * 9.7f64.powi(n as i32 - 20);
        match self {
            Engine::Join => join,
            Engine::Backtracking => 10.0 * join,
            Engine::Gpu => 10.0 * join / GPU_CORES,
        }
    }

    /// The peak memory of counting the N×N board on `threads` threads, in bytes.
    pub fn memory_estimate(self, n: u32, threads: usize) -> u64 {
        match self {
            // The subproblem list and a stack per thread.
            Engine::Backtracking => (1 << 20) + threads as u64 * (64 << 10),
            // The subproblem list and two batches of GPU work on the host, at most 48 MiB each.
            Engine::Gpu => (1 << 20) + (96 << 20),
            Engine::Join => join::JoinPlan::memory_estimate(n, threads),
        }
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Engine {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, String> {
        Engine::ALL
            .into_iter()
            .find(|engine| engine.name() == name)
            .ok_or_else(|| {
                format!(
                    "unknown counting engine '{}': use backtracking, join or gpu",
                    queens_core::error::excerpt(name)
                )
            })
    }
}

/// How many CPU cores one large graphics card counts like, for estimates: the published
/// single-GPU counters take about N = 21 in 21 s (RTX 5090) where the backtracking engine's
/// growth gives about 30,000 core-seconds. An assumption, not a measurement of this engine.
pub const GPU_CORES: f64 = 1000.0;

/// The smallest N for which the join is chosen: below it backtracking is as fast or faster
/// (both take a few milliseconds; on odd boards the join's crosses cost more than they save).
pub const JOIN_FROM: u32 = 14;

/// A count that cannot be made.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum CountError {
    /// N outside 1..=32.
    #[error("{}", SIDES.refusal(.0))]
    Size(u32),
    /// N outside what the chosen engine counts.
    #[error("the {engine} engine counts N from {} to {}, got {n}", engine.sizes().start(), engine.sizes().end())]
    EngineSize {
        /// The engine.
        engine: Engine,
        /// The N asked for.
        n: u32,
    },
    /// A shard index not below the shard count, or zero shards.
    #[error("shard {index}/{count} does not exist: use I/M with 0 ≤ I < M")]
    BadShard {
        /// The index given.
        index: u32,
        /// The count given.
        count: u32,
    },
    /// The split's parts would take more memory than is left (checked before they are made).
    #[error("{0}")]
    Memory(String),
}

/// The parts of a count, by engine.
#[derive(Clone, Debug)]
enum Parts {
    Backtracking(Vec<Subproblem>),
    Join(join::JoinPlan),
}

/// The whole of an N×N count, split into independent parts (subproblems of the backtracking
/// engine, pieces of the join), in an order that depends on N and the engine only.
#[derive(Clone, Debug)]
pub struct CountPlan {
    n: u32,
    engine: Engine,
    parts: Parts,
    fingerprint: u64,
}

impl CountPlan {
    /// The split of the N×N count by the engine [`Engine::for_count`] picks within
    /// [`DEFAULT_MEMORY_LIMIT`].
    pub fn new(n: u32) -> Result<Self, CountError> {
        let engine = Engine::for_count(n, DEFAULT_MEMORY_LIMIT);
        Self::with_engine(n, engine)
    }

    /// The split of the N×N count by `engine`.
    pub fn with_engine(n: u32, engine: Engine) -> Result<Self, CountError> {
        if !SIDES.takes(n) {
            return Err(CountError::Size(n));
        }
        if !engine.sizes().contains(&n) {
            return Err(CountError::EngineSize { engine, n });
        }
        let (parts, fingerprint) = match engine {
            Engine::Backtracking | Engine::Gpu => {
                let parts = plan::subproblem_count(n);
                queens_core::memory::check(
                    &format!("splitting N = {n} into {parts} parts"),
                    plan::subproblems_bytes(n, parts),
                )
                .map_err(CountError::Memory)?;
                let subproblems = plan::subproblems(n, parts);
                let fingerprint = plan::fingerprint(n, &subproblems);
                (Parts::Backtracking(subproblems), fingerprint)
            }
            Engine::Join => {
                let join = join::JoinPlan::new(n);
                let fingerprint = plan::fingerprint_with(|feed| {
                    feed(KERNEL_VERSION);
                    feed(u32::MAX); // Not a backtracking split.
                    join.describe(feed);
                });
                (Parts::Join(join), fingerprint)
            }
        };
        Ok(CountPlan {
            n,
            engine,
            parts,
            fingerprint,
        })
    }

    /// The board side.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The engine.
    pub fn engine(&self) -> Engine {
        self.engine
    }

    /// How many parts the count has.
    pub fn len(&self) -> usize {
        match &self.parts {
            Parts::Backtracking(subproblems) => subproblems.len(),
            Parts::Join(join) => join.work().len(),
        }
    }

    /// Whether it has no parts (never: every count has at least one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The backtracking (and GPU) engine's subproblems (empty for the join).
    pub fn subproblems(&self) -> &[Subproblem] {
        match &self.parts {
            Parts::Backtracking(subproblems) => subproblems,
            Parts::Join(_) => &[],
        }
    }

    /// A hash of the split: equal for equal N, engine and kernel version.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The split's hash as reports and checkpoints write it: 16 hexadecimal digits.
    pub fn fingerprint_text(&self) -> String {
        format!("{:016x}", self.fingerprint)
    }

    /// The peak memory of this count on `threads` threads, in bytes.
    pub fn memory_estimate(&self, threads: usize) -> u64 {
        self.engine().memory_estimate(self.n, threads)
    }

    /// The indices of the parts in `shard`.
    pub fn shard_ids(&self, shard: Shard) -> Vec<usize> {
        (0..self.len()).filter(|&id| shard.owns(id)).collect()
    }

    /// Counts part `id`; `None` if `budget` stopped it first.
    pub fn count_one(&self, id: usize, budget: &Budget) -> Option<Tally> {
        match &self.parts {
            Parts::Backtracking(subproblems) => {
                kernel::count_subproblem(self.n, &subproblems[id], budget)
            }
            Parts::Join(join) => join.count(id, budget),
        }
    }

    /// Whether `tally` could be what part `id` counts: a corner subproblem records classes of
    /// 8 solutions, an edge subproblem solutions by even weights (see [`plan`]), a join piece
    /// solutions only, a rotation search symmetric solutions only.
    pub fn plausible(&self, id: usize, tally: &Tally) -> bool {
        match &self.parts {
            Parts::Backtracking(subproblems) => subproblems
                .get(id)
                .is_some_and(|sub| plan::plausible(sub.case, tally)),
            Parts::Join(join) => join.plausible(id, tally),
        }
    }

    /// Counts the parts `ids` on the current rayon pool, calling `done` as each finishes
    /// (from any thread). Stops starting new ones once `budget` stops; the ones cut short
    /// are not reported.
    pub fn count_parallel(
        &self,
        ids: &[usize],
        budget: &Budget,
        done: impl Fn(usize, Tally) + Sync,
    ) {
        ids.par_iter().with_max_len(1).for_each(|&id| {
            if budget.is_stopped() {
                return;
            }
            if let Some(tally) = self.count_one(id, budget) {
                done(id, tally);
            }
        });
    }
}

/// Counts the N×N board on the current rayon pool: total and unique solutions, and nodes.
pub fn count(n: u32) -> Result<Tally, CountError> {
    let result = CountJob::new(CountPlan::new(n)?)
        .run(&Budget::unlimited(), |_, _| {})
        .expect("a count without a checkpoint or a pool of its own cannot fail");
    Ok(result.tally)
}
