//! `queens solve`: one solution, printed as a diagram, a permutation, JSON or a summary line.

use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use queens_core::notation::{self, parse_squares};
use queens_core::{Board, Budget, Outcome, Problem, Square, StopReason, Verdict, solve};
use queens_exact::ExactSolver;
use serde::Serialize;

use crate::args::{Format, SolveArgs};
use crate::commands::{interrupt_flag, parse_size};
use crate::exit::Exit;
use crate::progress::Spinner;
use crate::trace::TraceWriter;

/// A validated `solve` request.
#[derive(Debug)]
pub struct SolveConfig {
    pub problem: Problem,
    pub solver: ExactSolver,
    pub budget: Budget,
    pub format: Format,
    pub trace: Option<PathBuf>,
}

impl SolveConfig {
    /// Checks every flag; the first problem found is the error.
    pub fn from_args(args: SolveArgs) -> anyhow::Result<Self> {
        let (rows, cols) = parse_size(&args.size)?;
        let mut problem = Problem::rectangular(rows, cols)?;
        if let Some(count) = args.queen_count {
            problem = problem.with_queen_count(count)?;
        }
        if let Some(list) = &args.fix {
            problem = problem.with_fixed(parse_squares(list).context("in --fix")?)?;
        }
        let solver = match &args.solver {
            Some(name) => name.parse::<ExactSolver>()?,
            None => ExactSolver::best_for(&problem),
        };
        solver.check(&problem)?;
        let mut budget = Budget::unlimited().with_max_nodes(args.max_nodes);
        if let Some(iterations) = args.max_iters {
            budget = budget.with_max_iterations(iterations);
        }
        if let Some(seconds) = args.time_limit {
            let limit = Duration::try_from_secs_f64(seconds)
                .ok()
                .filter(|limit| !limit.is_zero())
                .with_context(|| {
                    format!("--time-limit must be a positive number of seconds, got {seconds}")
                })?;
            budget = budget.with_time_limit(limit);
        }
        Ok(SolveConfig {
            problem,
            solver,
            budget,
            format: args.format,
            trace: args.trace,
        })
    }
}

/// Runs `queens solve`.
pub fn run(args: SolveArgs) -> anyhow::Result<Exit> {
    let SolveConfig {
        problem,
        solver,
        budget,
        format,
        trace,
    } = SolveConfig::from_args(args)?;
    let mut budget = budget.with_cancel(interrupt_flag());
    let trace = trace.as_deref().map(TraceWriter::create).transpose()?;
    let mut observer = (trace, Spinner::new(solver.name()));
    let outcome = solve::run(
        solver.build().as_mut(),
        &problem,
        &mut budget,
        &mut observer,
    )?;
    if let Some(trace) = observer.0 {
        trace.finish()?;
    }
    print(&problem, solver, &outcome, format)?;
    Ok(match outcome.verdict {
        Verdict::Solved(_) => Exit::Success,
        Verdict::Unsolvable | Verdict::Stopped(_) => Exit::NoAnswer,
    })
}

fn print(
    problem: &Problem,
    solver: ExactSolver,
    outcome: &Outcome,
    format: Format,
) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    match (format, &outcome.verdict) {
        (Format::Text, Verdict::Solved(board)) => notation::write_text(board, &mut out)?,
        (Format::Perm, Verdict::Solved(board)) => notation::write_perm(board, &mut out)?,
        (Format::Text | Format::Perm, verdict) => eprintln!("{}", describe_failure(verdict)),
        (Format::Json, _) => {
            serde_json::to_writer(&mut out, &SolveDocument::new(problem, solver, outcome))?;
            writeln!(out)?;
        }
        (Format::Summary, _) => writeln!(out, "{}", summary_line(problem, solver, outcome))?,
    }
    out.flush()?;
    Ok(())
}

fn describe_failure(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Solved(_) => unreachable!("only failures are described"),
        Verdict::Unsolvable => "no solution".to_owned(),
        Verdict::Stopped(reason @ StopReason::NodeLimit(_)) => {
            format!("stopped: {reason}; raise --max-nodes to search further")
        }
        Verdict::Stopped(reason) => format!("stopped: {reason}"),
    }
}

fn elapsed_ms(outcome: &Outcome) -> f64 {
    outcome.stats.elapsed.as_secs_f64() * 1e3
}

/// The contract: `{"n", "rows", "cols", "solver", "seed", "solved", "queens", "iterations",
/// "nodes", "elapsed_ms"}` in that order, then the extensions `status`, `stop_reason`,
/// `queen_count` and `fixed`. Fields a solver does not track are `null`.
#[derive(Serialize)]
struct SolveDocument<'a> {
    n: Option<u32>,
    rows: u32,
    cols: u32,
    solver: &'static str,
    seed: Option<u64>,
    solved: bool,
    queens: Option<&'a [Square]>,
    iterations: Option<u64>,
    nodes: Option<u64>,
    elapsed_ms: f64,
    status: &'static str,
    stop_reason: Option<String>,
    queen_count: u32,
    fixed: &'a [Square],
}

impl<'a> SolveDocument<'a> {
    fn new(problem: &'a Problem, solver: ExactSolver, outcome: &'a Outcome) -> Self {
        SolveDocument {
            n: problem.side(),
            rows: problem.rows(),
            cols: problem.cols(),
            solver: solver.name(),
            seed: outcome.stats.seed,
            solved: outcome.solution().is_some(),
            queens: outcome.solution().map(Board::queens),
            iterations: outcome.stats.iterations,
            nodes: outcome.stats.nodes,
            elapsed_ms: elapsed_ms(outcome),
            status: outcome.verdict.status(),
            stop_reason: match &outcome.verdict {
                Verdict::Stopped(reason) => Some(reason.to_string()),
                _ => None,
            },
            queen_count: problem.queens(),
            fixed: problem.fixed(),
        }
    }
}

fn summary_line(problem: &Problem, solver: ExactSolver, outcome: &Outcome) -> String {
    let count = |value: Option<u64>| value.map_or_else(|| "-".to_owned(), |v| v.to_string());
    let size = problem.side().map_or_else(
        || format!("{}x{}", problem.rows(), problem.cols()),
        |n| n.to_string(),
    );
    format!(
        "n={size} solver={} solved={} status={} nodes={} iterations={} elapsed_ms={:.3}",
        solver.name(),
        outcome.solution().is_some(),
        outcome.verdict.status(),
        count(outcome.stats.nodes),
        count(outcome.stats.iterations),
        elapsed_ms(outcome),
    )
}
