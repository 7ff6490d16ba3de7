//! The solver contract: [`Solver`], [`Budget`], [`Observer`], [`Event`] and [`Outcome`].
//!
//! A solver searches; the [`run`] executor around it checks the problem against the solver's
//! descriptor and parameters, emits the start and finish events, times the run and re-validates every solution with the [independent validator](crate::verify), so a
//! solver bug surfaces as [`SolveError::InvalidSolution`] instead of a wrong answer.
//!
//! Running out of budget is an outcome ([`Verdict::Stopped`]), not an error, and so is a problem
//! without a solution ([`Verdict::Unsolvable`]).
//!
//! Stop rules are the [`Budget`]'s ([`budget`](crate::budget)); events and observers are in
//! [`observe`](crate::observe), re-exported here for solvers.

use std::ops::ControlFlow;
use std::time::Instant;

use crate::board::QueenList;
pub use crate::budget::{Budget, CancelToken, StopReason};
use crate::error::SolveError;
pub use crate::observe::{Event, Interest, NoObserver, Observer, Reporter};
pub use crate::outcome::{Outcome, Stats, Verdict};
use crate::problem::Problem;
pub use crate::solver::{Context, Solver};
use crate::square::Square;
use crate::verify::check_solution;

/// Runs `solver` on `problem`: checks the problem against the solver's shapes, parameters
/// and refusals (before anything is allocated), starts the budget's clock, emits `Started` (with the start
/// board a solver reports through [`Reporter::start_board`], or the fixed queens),
/// `Solution` and `Finished`, measures the elapsed time and validates the solution.
pub fn run(
    solver: &mut dyn Solver,
    problem: &Problem,
    budget: &mut Budget,
    observer: &mut dyn Observer,
) -> Result<Outcome, SolveError> {
    let descriptor = solver.descriptor();
    descriptor.check_problem(problem, &solver.parameters()?)?;
    let started = Instant::now();
    budget.start();
    let mut gate = StartGate {
        observer,
        solver: solver.name(),
        problem,
        pending: true,
    };
    let mut outcome = solver.solve(
        problem,
        Context {
            budget,
            observer: &mut gate,
        },
    )?;
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
        solutions: outcome.stats.solutions,
        elapsed_ms: outcome.stats.elapsed.as_secs_f64() * 1e3,
    });
    Ok(outcome)
}

/// [`run`] with nobody watching ([`NoObserver`]): what a test, a benchmark or a batch of runs
/// wants.
pub fn run_unobserved(
    solver: &mut dyn Solver,
    problem: &Problem,
    budget: &mut Budget,
) -> Result<Outcome, SolveError> {
    run(solver, problem, budget, &mut NoObserver)
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

    fn wants_solutions(&self) -> bool {
        self.observer.wants_solutions()
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        if let Event::StartBoard { queens } = event {
            return self.open(Some(queens));
        }
        self.open(None)?;
        self.observer.observe(event)
    }
}
