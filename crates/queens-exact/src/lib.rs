//! Exhaustive N-Queens solvers — the Queen's Challenge family and the completion search — each
//! honouring any number of fixed (locked) queens and keeping off blocked squares, counting the
//! boards or placements it examines, and reporting `Place`/`Remove`/`Move` events to observers
//! that want them; and the counting engines ([`count`], [`completion::count`]).
//!
//! | solver | visits | one node is | shape |
//! |---|---|---|---|
//! | `BruteForce` | every placement of the free queens on distinct squares | a board examined | any R×C, any M |
//! | `RowBruteForce` | every column for every free row | a board examined | one queen per row |
//! | `Backtracking` | rows bottom-up, abandoning a conflict at once | a square tried | one queen per row |
//! | `ForwardChecking` | as backtracking, backing up when a later row is emptied | a placement | one queen per row |
//! | `completion` | the free row or column with the fewest open squares first, bit-parallel | a queen placed | N×N up to 64 |
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

/// A tree search's descriptor: each solver writes what is its own, and what every exhaustive
/// solver shares — nodes counted, no parameters, no iteration cap, refused past
/// [`MEMORY_LIMIT`], run as a [`TreeSearch`] — is written here once.
macro_rules! tree_search {
    (
        name: $name:literal,
        summary: $summary:expr,
        explanation: $explanation:expr,
        pseudo_code: $pseudo_code:expr,
        score: $score:expr,
        unit: $unit:expr,
        shapes: $shapes:expr,
        practical_max_n: $practical_max_n:expr,
        memory: $memory:expr,
        unit_cost: $unit_cost:expr,
        search: $search:expr $(,)?
    ) => {
        queens_core::SolverDescriptor {
            name: $name,
            summary: $summary,
            explanation: $explanation,
            pseudo_code: $pseudo_code,
            score: $score,
            unit: $unit,
            counts: queens_core::descriptor::Counts::Nodes,
            shapes: $shapes,
            randomized: false,
            parameters: &[],
            default_max_iterations: |_| None,
            practical_max_n: Some($practical_max_n),
            marks: None,
            neighbourhood: false,
            check: |problem, params| crate::shared::within_limit(&DESCRIPTOR, problem, params),
            memory: $memory,
            unit_cost: $unit_cost,
            build: |_, _| crate::TreeSearch::boxed(&DESCRIPTOR, $search),
        }
    };
}

pub mod backtracking;
pub mod brute_force;
pub mod completion;
pub mod count;
pub mod forward_checking;
mod lines;
pub mod row_brute_force;
mod rows;

use queens_core::descriptor::{BlockedSquares, BoardShape, FixedQueens, Shapes};
use queens_core::solve::Reporter;
use queens_core::{
    Budget, Context, Outcome, ParamValues, Problem, SolveError, Solver, SolverDescriptor, Square,
    StopReason, Verdict,
};

/// The most memory an exhaustive solver may allocate: 4 GiB.
pub const MEMORY_LIMIT: u128 = 4 << 30;

/// What a tree search finds: the solution's queens, `None` when there is none, or a stop.
pub(crate) type Found = Result<Option<Vec<Square>>, StopReason>;

/// What a tree search carries on its walk: the budget it stops by, the reporter it tells
/// what it does, and the nodes it has examined.
pub(crate) struct Walk<'w, 'o> {
    budget: &'w Budget,
    reporter: Reporter<'o>,
    nodes: u64,
}

impl<'o> Walk<'_, 'o> {
    /// The budget, the reporter and the node count, to use side by side.
    pub(crate) fn parts(&mut self) -> (&Budget, &mut Reporter<'o>, &mut u64) {
        (self.budget, &mut self.reporter, &mut self.nodes)
    }
}

/// One search of this crate: from the problem, on its walk.
type Search = fn(&Problem, &mut Walk<'_, '_>) -> Found;

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
        let mut walk = Walk {
            budget,
            reporter: Reporter::new(observer),
            nodes: 0,
        };
        let result = (self.search)(problem, &mut walk);
        Ok(outcome(problem, result, walk.nodes))
    }
}

/// What the exhaustive solvers share in their descriptors.
mod shared {
    use super::{
        BlockedSquares, BoardShape, FixedQueens, MEMORY_LIMIT, ParamValues, Problem, Shapes,
        SolveError, SolverDescriptor,
    };

    /// Any R×C board, any number of queens, fixed ones kept, blocked squares avoided.
    pub(crate) const ANY: Shapes = Shapes {
        board: BoardShape::Any,
        fixed: FixedQueens::Kept,
        blocked: BlockedSquares::Avoided,
    };

    /// One queen per row, fixed ones kept, blocked squares avoided.
    pub(crate) const ONE_PER_ROW: Shapes = Shapes {
        board: BoardShape::OnePerRow,
        fixed: FixedQueens::Kept,
        blocked: BlockedSquares::Avoided,
    };

    /// A row-by-row search: its lines, and a handful of 4- and 8-byte entries per row.
    pub(crate) fn row_search_bytes(problem: &Problem, _: &ParamValues) -> u128 {
        line_bytes(problem) + 32 * u128::from(problem.rows())
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
