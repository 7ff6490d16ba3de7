//! The Queen's Challenge table: for every square of an N×N board as the locked queen, the nodes
//! each tree search examines until it finds a solution or proves there is none; then the
//! minimum, median, mean and maximum per solver.
//!
//! Besides the summary, the table keeps every run ([`Lock`]): the square locked, the solver, its
//! nodes and verdict, so that a front end can show the row of one locked square.
//!
//! A table stops like every run, by its [`Budget`]: a node cap per run (a run that reaches it
//! counts as stopped, its nodes a lower bound), and the token or time limit for the whole table
//! (runs not finished are left out; the table says how many ran).

use std::num::NonZeroU64;
use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use queens_core::descriptor::Counts;
use queens_core::side::SideLimit;
use queens_core::square::square_name;
use queens_core::{Budget, Event, Interest, Observer, Problem, Square, StopReason, Verdict, solve};
use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

use crate::stats::Spread;
use queens_solvers::SolverKind;

/// The largest board a table covers: every square is a run.
pub const MAX_N: u32 = 64;

/// The sides a table takes, 1 to [`MAX_N`], and its refusal of a larger one.
pub const SIDES: SideLimit = SideLimit::new(MAX_N, |most, got| {
    format!(
        "the challenge table runs every square of the board: N = {got} is too large (at most {most})"
    )
});

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

/// What a table reports as it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress<'a> {
    /// A run finished.
    Finished(&'a Lock),
    /// The nodes every run has examined so far, finished or still running: sent every
    /// [`EXAMINED_EVERY`] nodes of a run and as it ends, so that a brute force that runs for
    /// minutes on one square is seen to move.
    Examined(u64),
}

/// How many nodes a run examines between two [`Progress::Examined`] reports.
pub const EXAMINED_EVERY: u64 = 1 << 20;

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

/// One finished run: a solver with one square locked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lock {
    /// The locked square's name (`d1`).
    pub square: String,
    /// The solver.
    pub solver: &'static str,
    /// Nodes examined (boards for the brute forces).
    pub nodes: u64,
    /// Whether it found a solution.
    pub solved: bool,
    /// Whether the node cap stopped it (its nodes are then a lower bound).
    pub stopped: bool,
}

/// The table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// Board side.
    pub n: u32,
    /// One row per solver with at least one finished run.
    pub rows: Vec<Row>,
    /// Every finished run, by square (rank by rank from a1, file by file) then solver in the
    /// order asked.
    pub locks: Vec<Lock>,
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
    /// A board of no squares.
    #[error("N must be at least 1, got 0")]
    Empty,
    /// A board too large to run every square.
    #[error("{}", SIDES.refusal(.0))]
    TooLarge(u32),
    /// A solver that does not count nodes or keep a locked queen.
    #[error("{0}")]
    Solver(String),
}

impl Challenge {
    /// Checks the table before anything runs: the board's size, and every solver a tree search
    /// that counts its nodes and takes every square locked.
    pub fn check(&self) -> Result<(), ChallengeError> {
        self.problems().map(|_| ())
    }

    /// Every square of the board, and the problem with it locked.
    fn problems(&self) -> Result<(Vec<Square>, Vec<Problem>), ChallengeError> {
        let n = self.n;
        if n == 0 {
            return Err(ChallengeError::Empty);
        }
        if n > MAX_N {
            return Err(ChallengeError::TooLarge(n));
        }
        if self.solvers.is_empty() {
            return Err(ChallengeError::Solver(
                "the challenge table needs at least one solver".into(),
            ));
        }
        if let Some(solver) = crate::experiment::first_repeated(&self.solvers) {
            return Err(ChallengeError::Solver(format!(
                "{} is given twice in the solvers; give each once",
                solver.name()
            )));
        }
        for solver in &self.solvers {
            if solver.counts != Counts::Nodes || solver.randomized {
                return Err(ChallengeError::Solver(format!(
                    "{solver} is not a tree search that counts the boards it examines; the challenge compares brute-force, row-brute-force, backtracking and forward-checking"
                )));
            }
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
        Ok((squares, problems))
    }

    /// Runs every (solver, locked square) pair in parallel within `budget`, calling `progress`
    /// with each run as it finishes and with the nodes examined as they grow.
    pub fn run(
        &self,
        budget: &Budget,
        progress: impl Fn(Progress<'_>) + Sync,
    ) -> Result<Table, ChallengeError> {
        let n = self.n;
        let (squares, problems) = self.problems()?;
        let mut budget = budget.clone();
        budget.start();
        let results: Mutex<Vec<(usize, usize, u64, Verdict)>> = Mutex::new(Vec::new());
        let examined = AtomicU64::new(0);
        // Square by square, every solver on each, so that the slow brute force is spread through
        // the list and the share of runs finished is a fair share of the work; on each square
        // the last-listed (the quick searches, in the catalogue's order) first, so that a table
        // stopped early already has their rows.
        let solvers = self.solvers.len();
        let jobs: Vec<(usize, usize)> = (0..problems.len())
            .flat_map(|p| (0..solvers).rev().map(move |s| (s, p)))
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
            let mut tally = Tally {
                examined: &examined,
                reported: 0,
                progress: &progress,
            };
            let Ok(outcome) = solve::run(
                solver.build_default().as_mut(),
                &problems[p],
                &mut piece,
                &mut tally,
            ) else {
                return;
            };
            tally.add(outcome.stats.nodes.unwrap_or(0));
            if matches!(
                outcome.verdict,
                Verdict::Stopped(StopReason::Cancelled | StopReason::TimeLimit(_))
            ) {
                return;
            }
            let nodes = outcome.stats.nodes.unwrap_or(0);
            progress(Progress::Finished(&lock(
                n,
                squares[p],
                solver.name(),
                nodes,
                &outcome.verdict,
            )));
            results
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push((p, s, nodes, outcome.verdict));
        });
        let mut results = results
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        results.sort_by_key(|r| (r.0, r.1));
        let rows = self.rows(&results);
        let locks = results
            .iter()
            .map(|&(p, s, nodes, ref verdict)| {
                lock(n, squares[p], self.solvers[s].name(), nodes, verdict)
            })
            .collect();
        let finished = results.len();
        Ok(Table {
            n,
            rows,
            locks,
            planned: jobs.len(),
            finished,
            stopped: (finished < jobs.len())
                .then(|| budget.check().err())
                .flatten(),
        })
    }

    /// Each solver's row of the finished runs, `(square, solver, nodes, verdict)` each.
    fn rows(&self, results: &[(usize, usize, u64, Verdict)]) -> Vec<Row> {
        self.solvers
            .iter()
            .enumerate()
            .filter_map(|(s, solver)| {
                let mine: Vec<&(usize, usize, u64, Verdict)> =
                    results.iter().filter(|r| r.1 == s).collect();
                let nodes: Vec<u64> = mine.iter().map(|r| r.2).collect();
                let spread = Spread::of(&nodes)?;
                Some(Row {
                    solver: solver.name(),
                    runs: mine.len(),
                    solved: mine
                        .iter()
                        .filter(|r| matches!(r.3, Verdict::Solved(_)))
                        .count(),
                    stopped: mine
                        .iter()
                        .filter(|r| matches!(r.3, Verdict::Stopped(_)))
                        .count(),
                    min: spread.min,
                    median: spread.median,
                    mean: spread.mean,
                    max: spread.max,
                })
            })
            .collect()
    }
}

/// Adds one run's nodes to the table's tally as the run reports them, a sample at a time.
struct Tally<'a, F> {
    /// Every run's nodes so far.
    examined: &'a AtomicU64,
    /// This run's nodes already added.
    reported: u64,
    progress: &'a F,
}

impl<F: Fn(Progress<'_>)> Tally<'_, F> {
    /// Adds this run's nodes since the last report (`nodes` in all) and reports the tally.
    fn add(&mut self, nodes: u64) {
        let new = nodes.saturating_sub(self.reported);
        self.reported = self.reported.max(nodes);
        let total = self.examined.fetch_add(new, Ordering::Relaxed) + new;
        (self.progress)(Progress::Examined(total));
    }
}

impl<F: Fn(Progress<'_>)> Observer for Tally<'_, F> {
    fn interest(&self) -> Interest {
        Interest {
            moves: false,
            steps: NonZeroU64::new(EXAMINED_EVERY),
        }
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        if let Event::Step { iteration, .. } = event {
            self.add(*iteration);
        }
        ControlFlow::Continue(())
    }
}

/// A finished run as a [`Lock`].
fn lock(n: u32, square: Square, solver: &'static str, nodes: u64, verdict: &Verdict) -> Lock {
    Lock {
        square: square_name(square, n),
        solver,
        nodes,
        solved: matches!(verdict, Verdict::Solved(_)),
        stopped: matches!(verdict, Verdict::Stopped(_)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_solvers::Catalogue;

    #[test]
    fn a_solver_given_twice_is_refused() {
        let catalogue = Catalogue::standard();
        let backtracking = catalogue.get("backtracking").unwrap();
        let challenge = Challenge {
            n: 4,
            solvers: vec![backtracking, backtracking],
            max_nodes: None,
        };
        assert_eq!(
            challenge.check().unwrap_err().to_string(),
            "backtracking is given twice in the solvers; give each once"
        );
    }

    #[test]
    fn a_board_of_no_squares_or_too_many_is_refused_in_its_own_words() {
        let backtracking = Catalogue::standard().get("backtracking").unwrap();
        let refusal = |n| {
            Challenge {
                n,
                solvers: vec![backtracking],
                max_nodes: None,
            }
            .check()
            .unwrap_err()
            .to_string()
        };
        assert_eq!(refusal(0), "N must be at least 1, got 0");
        assert!(refusal(MAX_N + 1).ends_with(&format!("is too large (at most {MAX_N})")));
    }

    #[test]
    fn the_four_by_four_table() {
        let challenge = Challenge {
            n: 4,
            solvers: Catalogue::standard().tree_searches(),
            max_nodes: None,
        };
        let table = challenge.run(&Budget::unlimited(), |_| {}).unwrap();
        assert!(table.is_complete());
        assert_eq!(table.rows.len(), 4);
        assert_eq!(table.locks.len(), 64);
        // By square, then solver: a1's four runs first, in the catalogue's order.
        assert!(table.locks[..4].iter().all(|lock| lock.square == "a1"));
        assert_eq!(table.locks[4].square, "b1");
        for (row, solver) in table.rows.iter().zip(&challenge.solvers) {
            let mine: Vec<&Lock> = table
                .locks
                .iter()
                .filter(|lock| lock.solver == solver.name())
                .collect();
            assert_eq!(mine.len(), 16);
            assert_eq!(mine.iter().filter(|lock| lock.solved).count(), row.solved);
            assert_eq!(mine.iter().map(|lock| lock.nodes).min(), Some(row.min));
            assert_eq!(mine.iter().map(|lock| lock.nodes).max(), Some(row.max));
        }
        for row in &table.rows {
            // A locked queen on 8 of the 16 squares lies on one of the two solutions.
            assert_eq!((row.runs, row.solved), (16, 8), "{}", row.solver);
        }
    }

    #[test]
    fn the_nodes_examined_are_reported_as_they_grow_and_add_up_to_the_table() {
        let brute = Catalogue::standard().get("brute-force").unwrap();
        let challenge = Challenge {
            n: 7,
            solvers: vec![brute],
            max_nodes: None,
        };
        let reports = Mutex::new(Vec::new());
        let table = challenge
            .run(&Budget::unlimited(), |progress| {
                let mut reports = reports.lock().unwrap();
                match progress {
                    Progress::Examined(nodes) => reports.push(Some(nodes)),
                    Progress::Finished(_) => reports.push(None),
                }
            })
            .unwrap();
        let reports = reports.into_inner().unwrap();
        let examined: Vec<u64> = reports.iter().flatten().copied().collect();
        let all: u64 = table.locks.iter().map(|lock| lock.nodes).sum();
        assert_eq!(examined.iter().max(), Some(&all));
        // The brute force's longest runs pass a sample's worth of nodes before they end, so
        // some reports come from runs still running: more reports than runs.
        assert!(
            table.rows[0].max > 2 * EXAMINED_EVERY,
            "{:?}",
            table.rows[0]
        );
        assert!(examined.len() > table.locks.len(), "{}", examined.len());
    }

    #[test]
    fn a_node_cap_marks_runs_stopped_and_keeps_the_table() {
        let brute = Catalogue::standard().get("brute-force").unwrap();
        let challenge = Challenge {
            n: 6,
            solvers: vec![brute],
            max_nodes: Some(1000),
        };
        let table = challenge.run(&Budget::unlimited(), |_| {}).unwrap();
        assert!(!table.is_complete());
        assert_eq!(table.rows[0].runs, 36);
        assert!(table.rows[0].stopped > 0);
        assert!(table.rows[0].max <= 1000);
    }
}
