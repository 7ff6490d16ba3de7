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
/// solver shares — nodes counted, the [`TreeParams`] (how many solutions to find), no
/// iteration cap, refused past [`MEMORY_LIMIT`], run as a [`TreeSearch`] — is written here once.
macro_rules! tree_search {
    (
        name: $name:literal,
        summary: $summary:expr,
        explanation: $explanation:literal,
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
            explanation: concat!(
                $explanation,
                "\n\nIt stops at its first solution unless asked for more: `solutions` = \
                {solutions} (0: every one). Asked for more, it counts each solution it finds \
                and goes on from it."
            ),
            pseudo_code: $pseudo_code,
            score: $score,
            unit: $unit,
            counts: queens_core::descriptor::Counts::Nodes,
            shapes: $shapes,
            randomized: false,
            parameters: <crate::TreeParams as queens_core::parameters::Parameters>::LIST,
            default_max_iterations: |_| None,
            practical_max_n: Some($practical_max_n),
            marks: None,
            neighbourhood: false,
            check: |problem, params| crate::shared::within_limit(&DESCRIPTOR, problem, params),
            memory: $memory,
            unit_cost: $unit_cost,
            build: |_, params| crate::TreeSearch::boxed(&DESCRIPTOR, $search, params),
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
use queens_core::parameters::Parameters;
use queens_core::solve::Reporter;
use queens_core::{
    Budget, Context, Outcome, ParamValues, Problem, SolveError, Solver, SolverDescriptor, Square,
    StopReason, Verdict,
};

/// The most memory an exhaustive solver may allocate: 4 GiB.
pub const MEMORY_LIMIT: u128 = 4 << 30;

queens_core::parameters! {
    /// What every tree search takes: how many solutions to find.
    pub struct TreeParams {
        /// solutions to find before the search stops; 0 finds every one
        solutions: u64 = 1, 0..=1_000_000_000;
    }
}

/// How a tree search's walk ended: it looked everywhere or found every solution asked for
/// (what it found is in its [`Tally`]), or it was stopped.
pub(crate) type Found = Result<(), StopReason>;

/// What a tree search carries on its walk: the budget it stops by, the reporter it tells
/// what it does, the nodes it has examined and the solutions it has found.
pub(crate) struct Walk<'w, 'o> {
    budget: &'w Budget,
    reporter: Reporter<'o>,
    nodes: u64,
    tally: Tally,
}

impl<'o> Walk<'_, 'o> {
    /// The budget, the reporter, the node count and the tally, to use side by side.
    pub(crate) fn parts(&mut self) -> (&Budget, &mut Reporter<'o>, &mut u64, &mut Tally) {
        (
            self.budget,
            &mut self.reporter,
            &mut self.nodes,
            &mut self.tally,
        )
    }
}

/// The solutions a tree search has found: how many, the first one's queens, and how many it
/// was asked for (0: every one).
pub(crate) struct Tally {
    wanted: u64,
    solutions: u64,
    first: Option<Vec<Square>>,
}

impl Tally {
    fn new(wanted: u64) -> Self {
        Tally {
            wanted,
            solutions: 0,
            first: None,
        }
    }

    /// Node `node` (whose score is `score`, the square examined `square`) made a solution,
    /// whose queens `queens` lists (called for the first only): it is told to the reporter
    /// whatever its sampling. `true` when the search has found every solution asked for.
    pub(crate) fn found(
        &mut self,
        reporter: &mut Reporter<'_>,
        node: u64,
        score: i64,
        square: Option<Square>,
        queens: impl FnOnce() -> Vec<Square>,
    ) -> Result<bool, StopReason> {
        self.keep(reporter, queens)?;
        reporter.step_found(node, || score, square, self.solutions)?;
        Ok(self.solutions == self.wanted)
    }

    /// A solution found by a search that reports its steps its own way (`completion`): kept,
    /// counted and told as found, told by no step.
    pub(crate) fn found_silently(
        &mut self,
        reporter: &mut Reporter<'_>,
        queens: impl FnOnce() -> Vec<Square>,
    ) -> Result<(), StopReason> {
        self.keep(reporter, queens)
    }

    /// Counts a solution, keeps the first, and tells the reporter of each where it wants them
    /// (`queens` is called only then).
    fn keep(
        &mut self,
        reporter: &mut Reporter<'_>,
        queens: impl FnOnce() -> Vec<Square>,
    ) -> Result<(), StopReason> {
        self.solutions += 1;
        if self.first.is_some() && !reporter.wants_solutions() {
            return Ok(());
        }
        let mut queens = queens();
        let told = reporter.found(self.solutions, &mut queens);
        self.first.get_or_insert(queens);
        told
    }
}

/// One search of this crate: from the problem, on its walk.
type Search = fn(&Problem, &mut Walk<'_, '_>) -> Found;

/// A tree search as a [`Solver`]: its descriptor (which the run path checks the problem
/// against before anything is allocated), its search and the solutions it is to find.
struct TreeSearch {
    descriptor: &'static SolverDescriptor,
    search: Search,
    /// The parameters given, checked against the descriptor's.
    params: ParamValues,
    /// Solutions to find (0: every one).
    wanted: u64,
}

impl TreeSearch {
    fn boxed(
        descriptor: &'static SolverDescriptor,
        search: Search,
        params: &ParamValues,
    ) -> Box<dyn Solver + Send> {
        Box::new(TreeSearch {
            descriptor,
            search,
            params: params.clone(),
            wanted: TreeParams::from_values(params).solutions,
        })
    }
}

impl Solver for TreeSearch {
    fn descriptor(&self) -> &'static SolverDescriptor {
        self.descriptor
    }

    fn parameters(&self) -> Result<ParamValues, queens_core::ParamError> {
        Ok(self.params.clone())
    }

    fn solve(&mut self, problem: &Problem, context: Context<'_>) -> Result<Outcome, SolveError> {
        let Context { budget, observer } = context;
        let mut walk = Walk {
            budget,
            reporter: Reporter::new(observer),
            nodes: 0,
            tally: Tally::new(self.wanted),
        };
        let result = (self.search)(problem, &mut walk);
        Ok(outcome(problem, result, walk.nodes, walk.tally))
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

/// The outcome of a search: its first solution (the board of a run stopped while it looked
/// for more), nothing, or a stop; its nodes and its solutions.
pub(crate) fn outcome(problem: &Problem, result: Found, nodes: u64, tally: Tally) -> Outcome {
    let board = |mut queens: Vec<Square>| {
        queens.sort_unstable();
        problem
            .board(queens)
            .expect("solvers place queens on distinct squares of the board")
    };
    let mut last = None;
    let verdict = match (result, tally.first) {
        (Ok(()), Some(queens)) => Verdict::Solved(board(queens)),
        (Ok(()), None) => Verdict::Unsolvable,
        (Err(stop), first) => {
            last = first.map(board);
            Verdict::Stopped(stop)
        }
    };
    let mut outcome = Outcome::new(verdict)
        .with_nodes(nodes)
        .with_solutions(tally.solutions);
    outcome.last = last;
    outcome
}
