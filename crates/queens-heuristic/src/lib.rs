//! N-Queens solvers that scale to millions of queens.
//!
//! - [`Construct`]: the explicit construction — a solution for every N except 2 and 3, in O(N)
//!   time, computed column by column ([`construction`]) so that it can be streamed to a file
//!   without holding the board.
//! - [`MinConflicts`]: local search in the style of Sosic & Gu's QS4 — a permutation start that
//!   places most queens without diagonal conflicts by random probes, then swap repair of the
//!   few collisions left. 8 bytes a queen; fixed queens stay where they are.
//!
//! ```
//! use queens_core::{Budget, NoObserver, Problem, solve::run};
//! use queens_heuristic::MinConflicts;
//!
//! let problem = Problem::square(1000)?;
//! let outcome = run(&mut MinConflicts::new(7), &problem, &mut Budget::unlimited(), &mut NoObserver)?;
//! assert!(outcome.solution().is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod construct;
mod electric;
pub mod genetic;
mod huge;
mod local;
mod min_conflicts;
mod minton;

pub use construct::{Construct, construction};
pub use electric::{ElectricForce, ElectricParams};
pub use genetic::{Genetic, GeneticParams};
pub use local::{BadParameter, LocalSearch, LocalSearchKind, LocalSearchParams};
pub use min_conflicts::{MinConflicts, MinConflictsParams};
pub use minton::MinConflictsMinton;

use queens_core::{Problem, SolveError};

/// N, for a problem of N queens on an N×N board — the only shape the solvers here take; any
/// other is refused in `solver`'s name.
pub(crate) fn require_classic(solver: &'static str, problem: &Problem) -> Result<u32, SolveError> {
    problem
        .classic_side()
        .ok_or_else(|| SolveError::Unsupported {
            solver,
            reason: "it places N queens on an N×N board".into(),
        })
}
