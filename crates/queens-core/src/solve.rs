//! The solver contract: [`Solver`], [`Budget`], [`Observer`], [`Event`] and [`Outcome`].
//!
//! A solver searches; the [`run`] executor around it emits the start and finish events, times
//! the run and re-validates every solution with the [independent validator](crate::verify), so a
//! solver bug surfaces as [`SolveError::InvalidSolution`] instead of a wrong answer.
//!
//! Running out of budget is an outcome ([`Verdict::Stopped`]), not an error, and so is a problem
//! without a solution ([`Verdict::Unsolvable`]).
//!
//! Stop rules are the [`Budget`]'s ([`budget`](crate::budget)); events and observers are in
//! [`observe`](crate::observe), re-exported here for solvers.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use crate::board::{Board, QueenList};
pub use crate::budget::{Budget, CancelToken, StopReason};
use crate::error::SolveError;
pub use crate::observe::{Event, Interest, NoObserver, Observer, Reporter};
use crate::problem::Problem;
use crate::square::Square;
use crate::verify::check_solution;

/// A search for one solution of a [`Problem`].
///
/// Implementors write [`solve`](Solver::solve); callers use [`run`], which adds the `Started`,
/// `Solution` and `Finished` events, the elapsed time and validation.
pub trait Solver {
    /// The solver's name, kebab-case, as the CLI spells it.
    fn name(&self) -> &'static str;

    /// Searches for a solution within `budget`, reporting to `observer` what it asks for.
    ///
    /// Return [`SolveError::Unsupported`] for a problem shape the solver cannot handle; the
    /// [`Stats::elapsed`] field is filled in by [`run`].
    fn solve(
        &mut self,
        problem: &Problem,
        budget: &mut Budget,
        observer: &mut dyn Observer,
    ) -> Result<Outcome, SolveError>;
}

/// Runs `solver` on `problem`: starts the budget's clock, emits `Started` (with the start
/// board a solver reports through [`Reporter::start_board`], or the fixed queens),
/// `Solution` and `Finished`, measures the elapsed time and validates the solution.
pub fn run(
    solver: &mut dyn Solver,
    problem: &Problem,
    budget: &mut Budget,
    observer: &mut dyn Observer,
) -> Result<Outcome, SolveError> {
    let started = Instant::now();
    budget.start();
    let mut gate = StartGate {
        observer,
        solver: solver.name(),
        problem,
        pending: true,
    };
    let mut outcome = solver.solve(problem, budget, &mut gate)?;
    let _ = gate.open(None);
    let observer = gate.observer;
    outcome.stats.elapsed = started.elapsed();
    if let Verdict::Solved(board) = &outcome.verdict {
        check_solution(problem, board).map_err(|reason| SolveError::InvalidSolution {
            solver: solver.name(),
            reason,
        })?;
        // The run is over: an observer's request to stop changes nothing now.
        let _ = observer.observe(&Event::Solution {
            queens: QueenList(board),
        });
    }
    let _ = observer.observe(&Event::Finished {
        status: outcome.verdict.status(),
        nodes: outcome.stats.nodes,
        iterations: outcome.stats.iterations,
        elapsed_ms: outcome.stats.elapsed.as_secs_f64() * 1e3,
    });
    Ok(outcome)
}

/// Holds `Started` back until the solver's first event, so that a start board the solver
/// reports goes into it; any other first event (or none) starts from the fixed queens.
struct StartGate<'o, 'p> {
    observer: &'o mut dyn Observer,
    solver: &'static str,
    problem: &'p Problem,
    pending: bool,
}

impl StartGate<'_, '_> {
    /// Sends `Started`, with `board` or the fixed queens, if not sent yet.
    fn open(&mut self, board: Option<&[Square]>) -> ControlFlow<()> {
        if !std::mem::take(&mut self.pending) {
            return ControlFlow::Continue(());
        }
        self.observer.observe(&Event::Started {
            solver: self.solver,
            rows: self.problem.rows(),
            cols: self.problem.cols(),
            queens: self.problem.queens(),
            fixed: self.problem.fixed(),
            board: board.unwrap_or(self.problem.fixed()),
        })
    }
}

impl Observer for StartGate<'_, '_> {
    fn interest(&self) -> Interest {
        self.observer.interest()
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        if let Event::StartBoard { queens } = event {
            return self.open(Some(queens));
        }
        self.open(None)?;
        self.observer.observe(event)
    }
}

/// What a run found, and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The answer.
    pub verdict: Verdict,
    /// The counters every user asks for.
    pub stats: Stats,
}

impl Outcome {
    /// An outcome with empty statistics.
    pub fn new(verdict: Verdict) -> Self {
        Outcome {
            verdict,
            stats: Stats::default(),
        }
    }

    /// The same outcome with a node count.
    #[must_use]
    pub fn with_nodes(mut self, nodes: u64) -> Self {
        self.stats.nodes = Some(nodes);
        self
    }

    /// The same outcome with an iteration count.
    #[must_use]
    pub fn with_iterations(mut self, iterations: u64) -> Self {
        self.stats.iterations = Some(iterations);
        self
    }

    /// The same outcome with the seed that made it.
    #[must_use]
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.stats.seed = Some(seed);
        self
    }

    /// The solution, if one was found.
    pub fn solution(&self) -> Option<&Board> {
        match &self.verdict {
            Verdict::Solved(board) => Some(board),
            _ => None,
        }
    }
}

/// The answer of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A solution, checked by the validator.
    Solved(Board),
    /// The search was exhaustive and found no solution.
    Unsolvable,
    /// The search stopped before it could tell.
    Stopped(StopReason),
}

impl Verdict {
    /// `"solved"`, `"unsolvable"` or `"stopped"`.
    pub fn status(&self) -> &'static str {
        match self {
            Verdict::Solved(_) => "solved",
            Verdict::Unsolvable => "unsolvable",
            Verdict::Stopped(_) => "stopped",
        }
    }
}

/// Counters of a run; a solver leaves `None` what it does not track.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Boards or placements examined (exhaustive solvers).
    pub nodes: Option<u64>,
    /// Iterations (local search).
    pub iterations: Option<u64>,
    /// Wall time, set by [`run`].
    pub elapsed: Duration,
    /// The seed of a randomized solver.
    pub seed: Option<u64>,
}
