//! Counting all solutions (OEIS A000170) and the solutions distinct up to rotation and
//! reflection (A002562) of the N×N board, exactly, on all cores.
//!
//! A count is split by [`CountPlan`] into many independent [`Subproblem`]s (see [`plan`] for how
//! symmetry classes are divided among them), each searched by the bitmask kernel. Because
//! the split depends on N only, a count can be cut into shards for several machines and the
//! results merged ([`shard`]), and a long run can save finished subproblems and resume
//! ([`checkpoint`]). [`CountJob`] drives a count: threads, a [`Budget`] that stops it, progress,
//! checkpoints.
//!
//! ```
//! use queens_exact::count::count;
//!
//! let eight = count(8)?;
//! assert_eq!((eight.total, eight.unique), (92, 12));
//! # Ok::<(), queens_exact::count::CountError>(())
//! ```

pub mod checkpoint;
mod driver;
pub mod integrity;
mod kernel;
pub mod plan;
pub mod shard;

use queens_core::Budget;
use rayon::prelude::*;
use thiserror::Error;

pub use driver::{CHECKPOINT_EVERY, CountJob, CountResult, CountRunError, MAX_THREADS};
pub use kernel::Tally;
pub use plan::{Case, Subproblem};
pub use shard::Shard;

/// Bumped whenever the split or the kernel's node accounting changes, so that old shards and
/// checkpoints are rejected.
pub const KERNEL_VERSION: u32 = 1;

/// The largest N the kernel counts: its masks are 32 bits wide.
pub const MAX_N: u32 = 32;

/// A count that cannot be made.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum CountError {
    /// N outside 1..=32.
    #[error("counting supports N from 1 to {MAX_N} (the kernel's bit width), got {0}")]
    Size(u32),
    /// A shard index not below the shard count, or zero shards.
    #[error("shard {index}/{count} does not exist: use I/M with 0 ≤ I < M")]
    BadShard {
        /// The index given.
        index: u32,
        /// The count given.
        count: u32,
    },
}

/// The whole of an N×N count, split into subproblems.
#[derive(Clone, Debug)]
pub struct CountPlan {
    n: u32,
    subproblems: Vec<Subproblem>,
    fingerprint: u64,
}

impl CountPlan {
    /// The split of the N×N count.
    pub fn new(n: u32) -> Result<Self, CountError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(CountError::Size(n));
        }
        let subproblems = plan::subproblems(n);
        let fingerprint = plan::fingerprint(n, &subproblems);
        Ok(CountPlan {
            n,
            subproblems,
            fingerprint,
        })
    }

    /// The board side.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The subproblems, in their fixed order.
    pub fn subproblems(&self) -> &[Subproblem] {
        &self.subproblems
    }

    /// A hash of the split: equal for equal N and kernel version.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The indices of the subproblems in `shard`.
    pub fn shard_ids(&self, shard: Shard) -> Vec<usize> {
        (0..self.subproblems.len())
            .filter(|&id| shard.owns(id))
            .collect()
    }

    /// Counts subproblem `id`; `None` if `budget` stopped it first.
    pub fn count_one(&self, id: usize, budget: &Budget) -> Option<Tally> {
        kernel::count_subproblem(self.n, &self.subproblems[id], budget)
    }

    /// Counts the subproblems `ids` on the current rayon pool, calling `done` as each finishes
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
