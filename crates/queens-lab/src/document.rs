//! The JSON documents of the contracts (listed in the README), one definition each, so that `queens solve
//! --format json`, `queens count --json`, `/api/solvers` and the Python module print the same.

use queens_core::{Outcome, Problem, QueenList, Square, Verdict};
use queens_exact::count::Tally;
use serde::Serialize;

use crate::catalogue::SolverKind;

/// A solver's descriptor as `/api/solvers` and Python's `queens.solvers()` list it: name,
/// summary, explanation, score, pseudo-code, unit, counts, randomized, shapes and parameters.
pub fn solver_document(solver: &SolverKind) -> serde_json::Value {
    serde_json::json!({
        "name": solver.name,
        "summary": solver.summary,
        "explanation": solver.explanation,
        "score": solver.score,
        "pseudo_code": solver.pseudo_code,
        "unit": solver.unit,
        "counts": solver.counts,
        "randomized": solver.randomized,
        "shapes": solver.shapes,
        "parameters": solver.parameters,
    })
}

/// A solve: `{"n", "rows", "cols", "solver", "seed", "solved", "queens", "iterations",
/// "nodes", "elapsed_ms"}` in that order, then the extensions `status`, `stop_reason`,
/// `queen_count` and `fixed`. Fields a solver does not track are `null`.
#[derive(Serialize)]
pub struct SolveDocument<'a> {
    n: Option<u32>,
    rows: u32,
    cols: u32,
    solver: &'static str,
    seed: Option<u64>,
    solved: bool,
    queens: Option<QueenList<'a>>,
    iterations: Option<u64>,
    nodes: Option<u64>,
    elapsed_ms: f64,
    status: &'static str,
    stop_reason: Option<String>,
    queen_count: u32,
    fixed: &'a [Square],
}

impl<'a> SolveDocument<'a> {
    /// The document of `solver`'s `outcome` on `problem`.
    pub fn new(problem: &'a Problem, solver: SolverKind, outcome: &'a Outcome) -> Self {
        SolveDocument {
            n: problem.side(),
            rows: problem.rows(),
            cols: problem.cols(),
            solver: solver.name(),
            seed: outcome.stats.seed,
            solved: outcome.solution().is_some(),
            queens: outcome.solution().map(QueenList),
            iterations: outcome.stats.iterations,
            nodes: outcome.stats.nodes,
            elapsed_ms: outcome.stats.elapsed.as_secs_f64() * 1e3,
            status: outcome.verdict.status(),
            stop_reason: match &outcome.verdict {
                Verdict::Stopped(reason) => Some(reason.to_string()),
                _ => None,
            },
            queen_count: problem.queens(),
            fixed: problem.fixed(),
        }
    }

    /// The same document with `queens` left `null`: for a caller who hands the queens over in
    /// another form (a million rows as bytes, not as JSON).
    #[must_use]
    pub fn without_queens(mut self) -> Self {
        self.queens = None;
        self
    }
}

/// A count: `{"n", "total", "unique", "threads", "elapsed_ms"}`, then `nodes` and
/// `subproblems`.
#[derive(Serialize)]
pub struct CountDocument {
    /// Board side.
    pub n: u32,
    /// All solutions.
    pub total: u128,
    /// Solutions up to rotation and reflection.
    pub unique: u128,
    /// Worker threads.
    pub threads: usize,
    /// Wall time.
    pub elapsed_ms: f64,
    /// Nodes searched.
    pub nodes: u64,
    /// Parts counted (subproblems or pieces).
    pub subproblems: usize,
    /// The engine that counted: `backtracking` or `join`.
    pub engine: &'static str,
}

impl CountDocument {
    /// The document of a complete count.
    pub fn new(
        n: u32,
        tally: Tally,
        threads: usize,
        elapsed_ms: f64,
        subproblems: usize,
        engine: &'static str,
    ) -> Self {
        CountDocument {
            n,
            total: tally.total,
            unique: tally.unique(),
            threads,
            elapsed_ms,
            nodes: tally.nodes,
            subproblems,
            engine,
        }
    }
}
