//! N-Queens solvers by search without a tree: construction, local search, evolution and
//! physics, from the eight queens of a course to boards of millions.
//!
//! | module | solver(s) | for |
//! |---|---|---|
//! | [`construct`] | `construct`: the explicit solution, O(N), streamed column by column | one solution of any size, no fixed queens |
//! | [`min_conflicts`] | `min-conflicts`: QS4-style local search (Sosic & Gu), under 5 bytes a queen | millions of queens, fixed queens kept |
//! | [`minton`] | `min-conflicts-minton`: Minton et al.'s min-conflicts heuristic | the classic reference |
//! | [`local`] | the local-search family of the original study: random search, optimized random search, simulated annealing, four hill climbers | comparing heuristics, faithful to the original |
//! | [`genetic`] | `genetic`: the article's genetic algorithm on any R×C board | evolution, any number of queens |
//! | [`electric`] | `electric-force`: queens as like charges | the electrical analogy, small N |
//!
//! Each module holds its solvers' [`SolverDescriptor`](queens_core::SolverDescriptor)s.
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

mod column_board;
pub mod construct;
mod driver;
pub mod electric;
pub mod genetic;
pub mod local;
pub mod min_conflicts;
pub mod minton;

pub use construct::{Construct, Streamed, construction, stream_construction};
pub use electric::{ElectricForce, ElectricParams};
pub use genetic::{Genetic, GeneticParams};
pub use local::{LocalSearch, LocalSearchKind, LocalSearchParams};
pub use min_conflicts::{MinConflicts, MinConflictsParams};
pub use minton::MinConflictsMinton;
use queens_core::descriptor::{BlockedSquares, BoardShape, FixedQueens, Shapes};
use queens_core::{Problem, SolveError};

/// Why the solvers here refuse blocked squares, and what takes them.
pub(crate) const BLOCKED_REFUSED: BlockedSquares = BlockedSquares::Refused(
    "it does not know blocked squares (use completion, or another exhaustive solver)",
);

/// N queens on N×N, fixed queens kept, no blocked squares: the searches that repair a full
/// board.
pub(crate) const CLASSIC_FIXED_KEPT: Shapes = Shapes {
    board: BoardShape::Classic,
    fixed: FixedQueens::Kept,
    blocked: BLOCKED_REFUSED,
};

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
