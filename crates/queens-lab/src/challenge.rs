//! The Queen's Challenge table: for every square of an N×N board as the locked queen, the nodes
//! each tree search examines until it finds a solution or proves there is none; then the
//! minimum, median, mean and maximum per solver.
//!
//! A table stops like every run, by its [`Budget`]: a node cap per run (a run that reaches it
//! counts as stopped, its nodes a lower bound), and the token or time limit for the whole table
//! (runs not finished are left out; the table says how many ran).

use std::sync::Mutex;

use queens_core::{Budget, NoObserver, Problem, Square, StopReason, Verdict, solve};
use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

use crate::catalogue::SolverKind;
use crate::stats::Spread;

/// The largest board a table covers: every square is a run.
pub const MAX_N: u32 = 64;

/// What to tabulate.
#[derive(Clone, Debug)]
pub struct Challenge {
    /// Board side.
    pub n: u32,
    /// The tree searches compared.
    pub solvers: Vec<SolverKind>,
    /// Nodes one run may examine.
    pub max_nodes: Option<u64>,
}

/// One solver's node counts over the locked squares.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The solver.
    pub solver: &'static str,
    /// Runs finished (one per locked square).
    pub runs: usize,
    /// Runs that found a solution.
    pub solved: usize,
    /// Runs stopped by the node cap (their nodes are the cap: figures are lower bounds).
    pub stopped: usize,
    /// Fewest nodes.
    pub min: u64,
    /// Median nodes.
    pub median: f64,
    /// Mean nodes.
    pub mean: f64,
    /// Most nodes.
    pub max: u64,
}

/// The table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// Board side.
    pub n: u32,
    /// One row per solver with at least one finished run.
    pub rows: Vec<Row>,
    /// Runs asked for: solvers × squares.
    pub planned: usize,
    /// Runs finished.
    pub finished: usize,
    /// Why the table stopped early, if it did.
    #[serde(serialize_with = "serialize_stop")]
    pub stopped: Option<StopReason>,
}

#[expect(clippy::ref_option, reason = "serde passes fields by reference")]
fn serialize_stop<S: serde::Serializer>(
    stop: &Option<StopReason>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match stop {
        Some(reason) => serializer.serialize_str(&reason.to_string()),
        None => serializer.serialize_none(),
    }
}

impl Table {
    /// Whether every run finished and none was stopped by the node cap.
    pub fn is_complete(&self) -> bool {
        self.finished == self.planned && self.rows.iter().all(|row| row.stopped == 0)
    }
}

/// A table that cannot be made.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ChallengeError {
    /// A board too large to run every square.
    #[error(
        "the challenge table runs every square of the board: N = {0} is too large (at most {MAX_N})"
    )]
    TooLarge(u32),
    /// A solver that does not count nodes or keep a locked queen.
    #[error("{0}")]
    Solver(String),
}

impl Challenge {
    /// Runs every (solver, locked square) pair in parallel within `budget`, calling `progress`
    /// as runs finish.
    pub fn run(
        &self,
        budget: &Budget,
        progress: impl Fn() + Sync,
    ) -> Result<Table, ChallengeError> {
        let n = self.n;
        if n > MAX_N || n == 0 {
            return Err(ChallengeError::TooLarge(n));
        }
        let squares: Vec<Square> = (0..n)
            .flat_map(|row| (0..n).map(move |col| Square::new(row, col)))
            .collect();
        let mut problems = Vec::with_capacity(squares.len());
        for &square in &squares {
            let problem = Problem::square(n)
                .and_then(|p| p.with_fixed(vec![square]))
                .map_err(|e| ChallengeError::Solver(e.to_string()))?;
            for solver in &self.solvers {
                solver
                    .check(&problem, &solver.defaults())
                    .map_err(|e| ChallengeError::Solver(e.to_string()))?;
            }
            problems.push(problem);
        }
        let mut budget = budget.clone();
        budget.start();
        let results: Mutex<Vec<(usize, u64, Verdict)>> = Mutex::new(Vec::new());
        let jobs: Vec<(usize, usize)> = (0..self.solvers.len())
            .flat_map(|s| (0..problems.len()).map(move |p| (s, p)))
            .collect();
        jobs.par_iter().for_each(|&(s, p)| {
            if budget.is_stopped() {
                return;
            }
            let solver = self.solvers[s];
            let mut piece = budget.piece();
            if let Some(max) = self.max_nodes {
                piece = piece.with_max_nodes(max);
            }
            let Ok(outcome) = solve::run(
                solver.build_default().as_mut(),
                &problems[p],
                &mut piece,
                &mut NoObserver,
            ) else {
                return;
            };
            if matches!(
                outcome.verdict,
                Verdict::Stopped(StopReason::Cancelled | StopReason::TimeLimit(_))
            ) {
                return;
            }
            let nodes = outcome.stats.nodes.unwrap_or(0);
            results
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push((s, nodes, outcome.verdict));
            progress();
        });
        let results = results
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let rows = self
            .solvers
            .iter()
            .enumerate()
            .filter_map(|(s, solver)| {
                let mine: Vec<&(usize, u64, Verdict)> =
                    results.iter().filter(|r| r.0 == s).collect();
                let nodes: Vec<u64> = mine.iter().map(|r| r.1).collect();
                let spread = Spread::of(&nodes)?;
                Some(Row {
                    solver: solver.name(),
                    runs: mine.len(),
                    solved: mine
                        .iter()
                        .filter(|r| matches!(r.2, Verdict::Solved(_)))
                        .count(),
                    stopped: mine
                        .iter()
                        .filter(|r| matches!(r.2, Verdict::Stopped(_)))
                        .count(),
                    min: spread.min,
                    median: spread.median,
                    mean: spread.mean,
                    max: spread.max,
                })
            })
            .collect();
        let finished = results.len();
        Ok(Table {
            n,
            rows,
            planned: jobs.len(),
            finished,
            stopped: (finished < jobs.len())
                .then(|| budget.check().err())
                .flatten(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Catalogue;

    #[test]
    fn the_four_by_four_table() {
        let challenge = Challenge {
            n: 4,
            solvers: Catalogue::standard().tree_searches(),
            max_nodes: None,
        };
        let table = challenge.run(&Budget::unlimited(), || {}).unwrap();
        assert!(table.is_complete());
        assert_eq!(table.rows.len(), 4);
        for row in &table.rows {
            // A locked queen on 8 of the 16 squares lies on one of the two solutions.
            assert_eq!((row.runs, row.solved), (16, 8), "{}", row.solver);
        }
    }

    #[test]
    fn a_node_cap_marks_runs_stopped_and_keeps_the_table() {
        let brute = Catalogue::standard().get("brute-force").unwrap();
        let challenge = Challenge {
            n: 6,
            solvers: vec![brute],
            max_nodes: Some(1000),
        };
        let table = challenge.run(&Budget::unlimited(), || {}).unwrap();
        assert!(!table.is_complete());
        assert_eq!(table.rows[0].runs, 36);
        assert!(table.rows[0].stopped > 0);
        assert!(table.rows[0].max <= 1000);
    }
}
