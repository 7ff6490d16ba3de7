//! What a run found ([`Verdict`]) and what it cost ([`Stats`]): its [`Outcome`].

use std::time::Duration;

use crate::board::Board;
use crate::budget::StopReason;

/// What a run found, and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The answer.
    pub verdict: Verdict,
    /// The counters every user asks for.
    pub stats: Stats,
    /// The board a stopped run ended on, where the solver has one (a local search's last
    /// position: where hill climbing got stuck; the first solution of an exhaustive search
    /// stopped while it looked for more); `None` otherwise.
    pub last: Option<Board>,
}

impl Outcome {
    /// An outcome with empty statistics.
    pub fn new(verdict: Verdict) -> Self {
        Outcome {
            verdict,
            stats: Stats::default(),
            last: None,
        }
    }

    /// The same outcome with the board it stopped on, when it stopped (`board` is called only
    /// then).
    #[must_use]
    pub fn with_last(mut self, board: impl FnOnce() -> Board) -> Self {
        if matches!(self.verdict, Verdict::Stopped(_)) {
            self.last = Some(board());
        }
        self
    }

    /// The solution, or else the board a stopped run ended on.
    pub fn board(&self) -> Option<&Board> {
        self.solution().or(self.last.as_ref())
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

    /// The same outcome with a count of the solutions found.
    #[must_use]
    pub fn with_solutions(mut self, solutions: u64) -> Self {
        self.stats.solutions = Some(solutions);
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
    /// Solutions found (exhaustive solvers, which may be asked for more than one).
    pub solutions: Option<u64>,
    /// Wall time, set by [`run`](crate::solve::run).
    pub elapsed: Duration,
    /// The seed of a randomized solver.
    pub seed: Option<u64>,
}
