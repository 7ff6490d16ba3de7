//! Exhaustive N-Queens solvers — the Queen's Challenge family — each honouring any number of
//! fixed (locked) queens, counting the boards or placements it examines, and reporting
//! `Place`/`Remove`/`Move` events to observers that want them.
//!
//! | [`ExactSolver`] | visits | one node is | shape |
//! |---|---|---|---|
//! | `BruteForce` | every placement of the free queens on distinct squares | a full board checked | any R×C, any M |
//! | `RowBruteForce` | every column for every free row | a full board checked | one queen per row |
//! | `Backtracking` | rows bottom-up, abandoning a conflict at once | a square tried | one queen per row |
//! | `ForwardChecking` | as backtracking, backing up when a later row is emptied | a placement | one queen per row |
//!
//! Node counts are deterministic: the same problem always costs the same nodes.
//!
//! ```
//! use queens_core::{Budget, NoObserver, Problem, solve::run};
//! use queens_exact::ExactSolver;
//!
//! let problem = Problem::square(8)?.with_fixed(vec!["d1".parse()?])?;
//! let mut solver = ExactSolver::Backtracking.build();
//! let outcome = run(solver.as_mut(), &problem, &mut Budget::unlimited(), &mut NoObserver)?;
//! let board = outcome.solution().expect("d1 is part of some solution");
//! assert!(board.has_queen("d1".parse()?));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod backtracking;
mod brute_force;
pub mod count;
mod forward_checking;
mod lines;
mod row_brute_force;

use std::fmt;
use std::str::FromStr;

use queens_core::solve::Reporter;
use queens_core::{
    Budget, Observer, Outcome, Problem, SolveError, Solver, Square, StopReason, Verdict,
};

/// The exhaustive solvers by name; each is a [`Solver`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExactSolver {
    /// Every placement of the free queens, each board checked in full.
    BruteForce,
    /// One queen per row, every column combination.
    RowBruteForce,
    /// Row by row, abandoning a branch at the first conflict.
    Backtracking,
    /// Backtracking that strikes attacked squares from later rows.
    ForwardChecking,
}

impl ExactSolver {
    /// Every exhaustive solver, from the most naive.
    pub const ALL: [ExactSolver; 4] = [
        ExactSolver::BruteForce,
        ExactSolver::RowBruteForce,
        ExactSolver::Backtracking,
        ExactSolver::ForwardChecking,
    ];

    /// The kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            ExactSolver::BruteForce => "brute-force",
            ExactSolver::RowBruteForce => "row-brute-force",
            ExactSolver::Backtracking => "backtracking",
            ExactSolver::ForwardChecking => "forward-checking",
        }
    }

    /// A new solver of this kind, boxed.
    pub fn build(self) -> Box<dyn Solver + Send> {
        Box::new(self)
    }

    /// Whether the solver handles `problem`: its shape, and the memory it would need. The
    /// error says why not. Every solver checks this before it allocates anything.
    pub fn check(self, problem: &Problem) -> Result<(), SolveError> {
        if self != ExactSolver::BruteForce && !problem.one_queen_per_row() {
            return Err(SolveError::Unsupported {
                solver: self.name(),
                reason: format!(
                    "it places one queen per row, so it needs {} queens on a board with {} rows, not {}",
                    problem.rows(),
                    problem.rows(),
                    problem.queens()
                ),
            });
        }
        let needed = self.memory_estimate(problem);
        if needed > MEMORY_LIMIT {
            return Err(SolveError::TooLarge {
                solver: self.name(),
                needed,
                limit: MEMORY_LIMIT,
            });
        }
        Ok(())
    }

    /// Bytes the solver allocates for `problem`, about.
    pub fn memory_estimate(self, problem: &Problem) -> u128 {
        let (rows, cols) = (u128::from(problem.rows()), u128::from(problem.cols()));
        // Counters or stamps for every row, column and diagonal: 4 bytes each.
        let lines = 4 * (rows + cols + 2 * (rows + cols - 1));
        match self {
            // Every free square, listed.
            ExactSolver::BruteForce => lines + 8 * rows * cols + 8 * u128::from(problem.queens()),
            // A handful of 4- and 8-byte entries per row.
            _ => lines + 32 * rows,
        }
    }

    /// The fastest exhaustive solver that handles `problem`.
    pub fn best_for(problem: &Problem) -> ExactSolver {
        if problem.one_queen_per_row() {
            ExactSolver::ForwardChecking
        } else {
            ExactSolver::BruteForce
        }
    }
}

impl Solver for ExactSolver {
    fn name(&self) -> &'static str {
        ExactSolver::name(*self)
    }

    fn solve(
        &mut self,
        problem: &Problem,
        budget: &mut Budget,
        observer: &mut dyn Observer,
    ) -> Result<Outcome, SolveError> {
        self.check(problem)?;
        let search = match self {
            ExactSolver::BruteForce => brute_force::search,
            ExactSolver::RowBruteForce => row_brute_force::search,
            ExactSolver::Backtracking => backtracking::search,
            ExactSolver::ForwardChecking => forward_checking::search,
        };
        let mut nodes = 0;
        let result = search(problem, budget, &mut Reporter::new(observer), &mut nodes);
        Ok(outcome(problem, result, nodes))
    }
}

impl fmt::Display for ExactSolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not an exhaustive solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSolver(pub String);

impl FromStr for ExactSolver {
    type Err = UnknownSolver;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        ExactSolver::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| UnknownSolver(name.to_owned()))
    }
}

/// The most memory an exhaustive solver may allocate: 4 GiB.
pub const MEMORY_LIMIT: u128 = 4 << 30;

/// Counts one more node if the budget allows it; a stopped run reports exactly the nodes it
/// examined.
#[inline]
pub(crate) fn count_node(nodes: &mut u64, budget: &queens_core::Budget) -> Result<(), StopReason> {
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

impl fmt::Display for UnknownSolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = ExactSolver::ALL
            .iter()
            .copied()
            .map(ExactSolver::name)
            .collect();
        write!(
            f,
            "unknown solver '{}' (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownSolver {}
