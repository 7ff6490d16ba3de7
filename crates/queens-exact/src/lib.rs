//! Exhaustive N-Queens solvers — the Queen's Challenge family — each honouring any number of
//! fixed (locked) queens, counting the boards or placements it examines, and reporting
//! `Place`/`Remove`/`Move` events to observers that want them.
//!
//! | solver | visits | one node is | shape |
//! |---|---|---|---|
//! | `BruteForce` | every placement of the free queens on distinct squares | a board examined | any R×C, any M |
//! | `RowBruteForce` | every column for every free row | a board examined | one queen per row |
//! | `Backtracking` | rows bottom-up, abandoning a conflict at once | a square tried | one queen per row |
//! | `ForwardChecking` | as backtracking, backing up when a later row is emptied | a placement | one queen per row |
//!
//! Node counts are deterministic: the same problem always costs the same nodes.
//!
//! ```
//! use queens_core::{Budget, NoObserver, Problem, solve::run};
//! use queens_exact::backtracking;
//!
//! let problem = Problem::square(8)?.with_fixed(vec!["d1".parse()?])?;
//! let mut solver = backtracking::DESCRIPTOR.build_default();
//! let outcome = run(solver.as_mut(), &problem, &mut Budget::unlimited(), &mut NoObserver)?;
//! let board = outcome.solution().expect("d1 is part of some solution");
//! assert!(board.has_queen("d1".parse()?));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod backtracking;
pub mod brute_force;
pub mod count;
pub mod forward_checking;
mod lines;
pub mod row_brute_force;

use queens_core::descriptor::{BoardShape, FixedQueens, Shapes};
use queens_core::solve::Reporter;
use queens_core::{
    Budget, Context, Outcome, ParamValues, Problem, SolveError, Solver, SolverDescriptor, Square,
    StopReason, Verdict,
};

/// The most memory an exhaustive solver may allocate: 4 GiB.
pub const MEMORY_LIMIT: u128 = 4 << 30;

/// One search of this crate: from the problem, within the budget, the solution's queens or
/// `None` when there is none; `nodes` counts what it examined.
type Search =
    fn(&Problem, &Budget, &mut Reporter<'_>, &mut u64) -> Result<Option<Vec<Square>>, StopReason>;

/// A tree search as a [`Solver`]: its descriptor (which the run path checks the problem
/// against before anything is allocated) and its search.
struct TreeSearch {
    descriptor: &'static SolverDescriptor,
    search: Search,
}

impl TreeSearch {
    fn boxed(descriptor: &'static SolverDescriptor, search: Search) -> Box<dyn Solver + Send> {
        Box::new(TreeSearch { descriptor, search })
    }
}

impl Solver for TreeSearch {
    fn descriptor(&self) -> &'static SolverDescriptor {
        self.descriptor
    }

    fn solve(&mut self, problem: &Problem, context: Context<'_>) -> Result<Outcome, SolveError> {
        let Context { budget, observer } = context;
        let mut nodes = 0;
        let result = (self.search)(problem, budget, &mut Reporter::new(observer), &mut nodes);
        Ok(outcome(problem, result, nodes))
    }
}

/// What the exhaustive solvers share in their descriptors.
mod shared {
    use super::{
        BoardShape, FixedQueens, MEMORY_LIMIT, ParamValues, Problem, Shapes, SolveError,
        SolverDescriptor,
    };

    /// Any R×C board, any number of queens, fixed ones kept.
    pub(crate) const ANY: Shapes = Shapes {
        board: BoardShape::Any,
        fixed: FixedQueens::Kept,
    };

    /// One queen per row, fixed ones kept.
    pub(crate) const ONE_PER_ROW: Shapes = Shapes {
        board: BoardShape::OnePerRow,
        fixed: FixedQueens::Kept,
    };

    /// Exhaustive searches need no iteration cap: they count nodes.
    pub(crate) fn no_iterations(_: &Problem) -> Option<u64> {
        None
    }

    /// Counters or stamps for every row, column and diagonal: 4 bytes each.
    pub(crate) fn line_bytes(problem: &Problem) -> u128 {
        let (rows, cols) = (u128::from(problem.rows()), u128::from(problem.cols()));
        4 * (rows + cols + 2 * (rows + cols - 1))
    }

    /// Refuses a search that would need more than [`MEMORY_LIMIT`].
    pub(crate) fn within_limit(
        descriptor: &SolverDescriptor,
        problem: &Problem,
        params: &ParamValues,
    ) -> Result<(), SolveError> {
        let needed = (descriptor.memory)(problem, params);
        if needed > MEMORY_LIMIT {
            return Err(SolveError::TooLarge {
                solver: descriptor.name,
                needed,
                limit: MEMORY_LIMIT,
            });
        }
        Ok(())
    }
}

/// Counts one more node if the budget allows it; a stopped run reports exactly the nodes it
/// examined.
#[inline]
pub(crate) fn count_node(nodes: &mut u64, budget: &Budget) -> Result<(), StopReason> {
    budget.check_nodes(*nodes + 1)?;
    *nodes += 1;
    Ok(())
}

/// The outcome of a search that returns the solution's queens, nothing, or a stop.
pub(crate) fn outcome(
    problem: &Problem,
    result: Result<Option<Vec<Square>>, StopReason>,
    nodes: u64,
) -> Outcome {
    let verdict = match result {
        Ok(Some(mut queens)) => {
            queens.sort_unstable();
            Verdict::Solved(
                problem
                    .board(queens)
                    .expect("solvers place queens on distinct squares of the board"),
            )
        }
        Ok(None) => Verdict::Unsolvable,
        Err(stop) => Verdict::Stopped(stop),
    };
    Outcome::new(verdict).with_nodes(nodes)
}
