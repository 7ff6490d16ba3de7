//! The solver contract: [`Solver`], [`Budget`], [`Observer`], [`Event`] and [`Outcome`].
//!
//! A solver searches; the [`run`] executor around it emits the start and finish events, times
//! the run and re-validates every solution with the [independent validator](crate::verify), so a
//! solver bug surfaces as [`SolveError::InvalidSolution`] instead of a wrong answer.
//!
//! Running out of budget is an outcome ([`Verdict::Stopped`]), not an error, and so is a problem
//! without a solution ([`Verdict::Unsolvable`]).
//!
//! Observers are sampled: a solver only builds move and step events when the observer's
//! [`Interest`] asks for them, so an unobserved run pays nothing for the feature.

use std::num::NonZeroU64;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::board::{Board, QueenList, Square};
use crate::error::SolveError;
use crate::problem::Problem;
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

/// Runs `solver` on `problem`: starts the budget's clock, emits `Started`, `Solution` and
/// `Finished`, measures the elapsed time and validates the solution.
pub fn run(
    solver: &mut dyn Solver,
    problem: &Problem,
    budget: &mut Budget,
    observer: &mut dyn Observer,
) -> Result<Outcome, SolveError> {
    let started = Instant::now();
    budget.start();
    let mut outcome = if observer
        .observe(&Event::Started {
            solver: solver.name(),
            rows: problem.rows(),
            cols: problem.cols(),
            queens: problem.queens(),
            fixed: problem.fixed(),
        })
        .is_break()
    {
        Outcome::new(Verdict::Stopped(StopReason::Observer))
    } else {
        solver.solve(problem, budget, observer)?
    };
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

/// Why a run stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The node cap was reached.
    NodeLimit(u64),
    /// The iteration cap was reached.
    IterationLimit(u64),
    /// The wall-time limit passed.
    TimeLimit(Duration),
    /// The cancel flag was raised (Ctrl-C, a closed connection).
    Cancelled,
    /// An observer asked to stop.
    Observer,
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::NodeLimit(n) => write!(f, "budget exhausted ({n} nodes)"),
            StopReason::IterationLimit(n) => write!(f, "budget exhausted ({n} iterations)"),
            StopReason::TimeLimit(t) => write!(f, "time limit reached ({:.3} s)", t.as_secs_f64()),
            StopReason::Cancelled => f.write_str("cancelled"),
            StopReason::Observer => f.write_str("stopped by an observer"),
        }
    }
}

/// A flag that stops a run from another thread (a Ctrl-C handler, a server whose client left).
#[derive(Clone, Debug, Default)]
pub struct CancelFlag(Arc<AtomicBool>);

impl CancelFlag {
    /// A flag not yet raised.
    pub fn new() -> Self {
        CancelFlag::default()
    }

    /// Asks every run holding this flag to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`cancel`](Self::cancel) was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for code that polls an `AtomicBool`.
    pub fn as_atomic(&self) -> &AtomicBool {
        &self.0
    }
}

/// Stop rules of a run: node and iteration caps, a wall-time limit and a cancel flag.
///
/// Solvers call [`check_nodes`](Self::check_nodes) or
/// [`check_iterations`](Self::check_iterations) with their running count; caps are checked on
/// every call, the clock and the flag every [`POLL_INTERVAL`](Self::POLL_INTERVAL) counts, so a
/// check costs a compare in the hot loop.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    max_nodes: Option<u64>,
    max_iterations: Option<u64>,
    time_limit: Option<Duration>,
    cancel: Option<CancelFlag>,
    started: Option<Instant>,
}

impl Budget {
    /// How many counts pass between looks at the clock and the cancel flag (a power of two).
    pub const POLL_INTERVAL: u64 = 1024;

    /// No limits at all.
    pub fn unlimited() -> Self {
        Budget::default()
    }

    /// At most `nodes` nodes.
    #[must_use]
    pub fn with_max_nodes(mut self, nodes: u64) -> Self {
        self.max_nodes = Some(nodes);
        self
    }

    /// At most `iterations` iterations.
    #[must_use]
    pub fn with_max_iterations(mut self, iterations: u64) -> Self {
        self.max_iterations = Some(iterations);
        self
    }

    /// At most `limit` of wall time from [`start`](Self::start).
    #[must_use]
    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = Some(limit);
        self
    }

    /// Stops when `flag` is raised.
    #[must_use]
    pub fn with_cancel(mut self, flag: CancelFlag) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// The node cap, if any.
    pub fn max_nodes(&self) -> Option<u64> {
        self.max_nodes
    }

    /// The iteration cap, if any.
    pub fn max_iterations(&self) -> Option<u64> {
        self.max_iterations
    }

    /// Starts the clock (done by [`run`]).
    pub fn start(&mut self) {
        self.started = Some(Instant::now());
    }

    /// May the search examine its `nodes`-th node? (Counting from 1.)
    #[inline]
    pub fn check_nodes(&self, nodes: u64) -> Result<(), StopReason> {
        match self.max_nodes {
            Some(max) if nodes > max => Err(StopReason::NodeLimit(max)),
            _ => self.poll(nodes),
        }
    }

    /// May the search run its `iterations`-th iteration? (Counting from 1.)
    #[inline]
    pub fn check_iterations(&self, iterations: u64) -> Result<(), StopReason> {
        match self.max_iterations {
            Some(max) if iterations > max => Err(StopReason::IterationLimit(max)),
            _ => self.poll(iterations),
        }
    }

    #[inline]
    fn poll(&self, count: u64) -> Result<(), StopReason> {
        if count.is_multiple_of(Self::POLL_INTERVAL) {
            self.poll_now()
        } else {
            Ok(())
        }
    }

    /// Looks at the cancel flag and the clock now.
    pub fn poll_now(&self) -> Result<(), StopReason> {
        if self.cancel.as_ref().is_some_and(CancelFlag::is_cancelled) {
            return Err(StopReason::Cancelled);
        }
        match (self.time_limit, self.started) {
            (Some(limit), Some(started)) if started.elapsed() >= limit => {
                Err(StopReason::TimeLimit(limit))
            }
            _ => Ok(()),
        }
    }
}

/// Something a solver reports while it runs. Serialized as JSON with a `type` field
/// (`{"type": "place", "square": {"row": 0, "col": 3}}`), one per line in a trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event<'a> {
    /// A run begins.
    Started {
        /// The solver's name.
        solver: &'static str,
        /// Board ranks.
        rows: u32,
        /// Board files.
        cols: u32,
        /// Queens to place.
        queens: u32,
        /// The fixed queens.
        fixed: &'a [Square],
    },
    /// A queen is put on a square.
    Place {
        /// Where.
        square: Square,
    },
    /// A queen is taken off a square.
    Remove {
        /// Where.
        square: Square,
    },
    /// A queen moves.
    Move {
        /// From here.
        from: Square,
        /// To here.
        to: Square,
    },
    /// Progress of an iterative search: `score` is solver-defined (higher is better for local
    /// search, the depth for a tree search).
    Step {
        /// Iterations or nodes so far.
        iteration: u64,
        /// The current score.
        score: i64,
    },
    /// The validated solution.
    Solution {
        /// Its queens.
        queens: QueenList<'a>,
    },
    /// The run is over.
    Finished {
        /// `"solved"`, `"unsolvable"` or `"stopped"`.
        status: &'static str,
        /// Nodes examined, if counted.
        nodes: Option<u64>,
        /// Iterations run, if counted.
        iterations: Option<u64>,
        /// Wall time in milliseconds.
        elapsed_ms: f64,
    },
}

/// Which events an observer wants beyond `Started`, `Solution` and `Finished` (always sent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Interest {
    /// `Place`, `Remove` and `Move` events, every one of them.
    pub moves: bool,
    /// A `Step` event every so many iterations or nodes; `None` for none.
    pub steps: Option<NonZeroU64>,
}

impl Interest {
    /// Nothing beyond the start and the end.
    pub const NONE: Interest = Interest {
        moves: false,
        steps: None,
    };

    /// Every event.
    pub const ALL: Interest = Interest {
        moves: true,
        steps: Some(NonZeroU64::MIN),
    };
}

/// Receives a run's events and may stop it by returning [`ControlFlow::Break`].
///
/// Both methods have no-op defaults. Override [`interest`](Observer::interest) to receive
/// moves or steps: solvers ask it once per run and skip building events nobody wants.
pub trait Observer {
    /// The events wanted beyond start and finish.
    fn interest(&self) -> Interest {
        Interest::NONE
    }

    /// One event; `Break` stops the run with [`StopReason::Observer`].
    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        let _ = event;
        ControlFlow::Continue(())
    }
}

/// An observer that wants nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl Observer for NoObserver {}

/// Any closure over events is an observer of every event.
impl<F: FnMut(&Event<'_>) -> ControlFlow<()>> Observer for F {
    fn interest(&self) -> Interest {
        Interest::ALL
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        self(event)
    }
}

/// Two observers in one: both see every event; the run stops if either asks.
impl<A: Observer, B: Observer> Observer for (A, B) {
    fn interest(&self) -> Interest {
        let (a, b) = (self.0.interest(), self.1.interest());
        Interest {
            moves: a.moves || b.moves,
            steps: match (a.steps, b.steps) {
                (Some(x), Some(y)) => Some(x.min(y)),
                (x, y) => x.or(y),
            },
        }
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        let first = self.0.observe(event);
        let second = self.1.observe(event);
        if first.is_break() || second.is_break() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// An optional observer: `None` wants nothing.
impl<O: Observer> Observer for Option<O> {
    fn interest(&self) -> Interest {
        self.as_ref().map_or(Interest::NONE, Observer::interest)
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        self.as_mut().map_or(ControlFlow::Continue(()), |observer| {
            observer.observe(event)
        })
    }
}

/// A solver's view of its observer: asks for the interest once, then turns unwanted events into
/// no-ops and counts down to the next sampled step.
pub struct Reporter<'o> {
    observer: &'o mut dyn Observer,
    moves: bool,
    step_every: u64,
    until_step: u64,
}

impl<'o> Reporter<'o> {
    /// Wraps `observer`, reading its interest.
    pub fn new(observer: &'o mut dyn Observer) -> Self {
        let interest = observer.interest();
        let step_every = interest.steps.map_or(0, NonZeroU64::get);
        Reporter {
            observer,
            moves: interest.moves,
            step_every,
            until_step: step_every,
        }
    }

    /// Whether move events are wanted (to skip work that only feeds them).
    #[inline]
    pub fn wants_moves(&self) -> bool {
        self.moves
    }

    /// Reports a placement, if wanted.
    #[inline]
    pub fn place(&mut self, square: Square) -> Result<(), StopReason> {
        if self.moves {
            self.send(&Event::Place { square })
        } else {
            Ok(())
        }
    }

    /// Reports a removal, if wanted.
    #[inline]
    pub fn remove(&mut self, square: Square) -> Result<(), StopReason> {
        if self.moves {
            self.send(&Event::Remove { square })
        } else {
            Ok(())
        }
    }

    /// Reports a move, if wanted.
    #[inline]
    pub fn moved(&mut self, from: Square, to: Square) -> Result<(), StopReason> {
        if self.moves {
            self.send(&Event::Move { from, to })
        } else {
            Ok(())
        }
    }

    /// Counts one iteration; every `steps`-th one reports `score()`.
    #[inline]
    pub fn step(&mut self, iteration: u64, score: impl FnOnce() -> i64) -> Result<(), StopReason> {
        if self.step_every == 0 {
            return Ok(());
        }
        self.until_step -= 1;
        if self.until_step > 0 {
            return Ok(());
        }
        self.until_step = self.step_every;
        self.send(&Event::Step {
            iteration,
            score: score(),
        })
    }

    fn send(&mut self, event: &Event<'_>) -> Result<(), StopReason> {
        match self.observer.observe(event) {
            ControlFlow::Continue(()) => Ok(()),
            ControlFlow::Break(()) => Err(StopReason::Observer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_cap_allows_exactly_the_cap() {
        let budget = Budget::unlimited().with_max_nodes(3);
        assert!(budget.check_nodes(3).is_ok());
        assert_eq!(budget.check_nodes(4), Err(StopReason::NodeLimit(3)));
    }

    #[test]
    fn cancel_is_seen_at_the_next_poll() {
        let flag = CancelFlag::new();
        let budget = Budget::unlimited().with_cancel(flag.clone());
        assert!(budget.check_nodes(Budget::POLL_INTERVAL).is_ok());
        flag.cancel();
        assert!(budget.check_nodes(1).is_ok(), "not a poll point");
        assert_eq!(
            budget.check_nodes(Budget::POLL_INTERVAL),
            Err(StopReason::Cancelled)
        );
    }

    #[test]
    fn events_serialize_with_a_type_tag() {
        let json = serde_json::to_string(&Event::Place {
            square: Square::new(0, 3),
        })
        .unwrap();
        assert_eq!(json, r#"{"type":"place","square":{"row":0,"col":3}}"#);
    }

    #[test]
    fn reporter_samples_steps() {
        struct Every3(Vec<u64>);
        impl Observer for Every3 {
            fn interest(&self) -> Interest {
                Interest {
                    moves: false,
                    steps: NonZeroU64::new(3),
                }
            }
            fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
                if let Event::Step { iteration, .. } = event {
                    self.0.push(*iteration);
                }
                ControlFlow::Continue(())
            }
        }
        let mut observer = Every3(Vec::new());
        let mut reporter = Reporter::new(&mut observer);
        for i in 1..=10 {
            reporter.step(i, || 0).unwrap();
            reporter.place(Square::new(0, 0)).unwrap();
        }
        assert_eq!(observer.0, vec![3, 6, 9]);
    }
}
