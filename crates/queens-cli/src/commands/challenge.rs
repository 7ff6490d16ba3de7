//! `queens challenge`: the Queen's Challenge comparison. For every square of an N×N board as the
//! locked queen, each exhaustive solver's node count (boards or placements examined) until it
//! finds a solution or proves there is none; then min / median / mean / max per solver.

use std::io::{self, Write};

use anyhow::Context;
use queens_core::{Budget, NoObserver, Problem, Square, Verdict, solve};
use queens_exact::ExactSolver;
use rayon::prelude::*;
use serde::Serialize;

use crate::args::ChallengeArgs;
use crate::commands::{interrupt_flag, parse_side};
use crate::exit::Exit;
use crate::progress;

/// One solver's node counts over all locked squares.
#[derive(Debug, Serialize)]
struct Row {
    solver: &'static str,
    runs: usize,
    solved: usize,
    min: u64,
    median: f64,
    mean: f64,
    max: u64,
}

/// Runs `queens challenge`.
pub fn run(args: &ChallengeArgs) -> anyhow::Result<Exit> {
    let n = parse_side(&args.size)?;
    anyhow::ensure!(
        n <= 64,
        "the challenge table runs every square of the board: N = {n} is too large (at most 64)"
    );
    let solvers: Vec<ExactSolver> = if args.solvers.is_empty() {
        ExactSolver::ALL.to_vec()
    } else {
        args.solvers
            .iter()
            .map(|name| name.trim().parse())
            .collect::<Result<_, _>>()?
    };
    let squares: Vec<Square> = (0..n)
        .flat_map(|row| (0..n).map(move |col| Square::new(row, col)))
        .collect();
    let jobs: Vec<(ExactSolver, Square)> = solvers
        .iter()
        .flat_map(|&solver| squares.iter().map(move |&square| (solver, square)))
        .collect();
    let cancel = interrupt_flag();
    let bar = progress::bar(jobs.len() as u64, "locked squares × solvers");
    let results: Vec<(ExactSolver, u64, bool)> = jobs
        .par_iter()
        .map(|&(solver, square)| {
            let problem = Problem::square(n)?.with_fixed(vec![square])?;
            let mut budget = Budget::unlimited().with_cancel(cancel.clone());
            if let Some(max) = args.max_nodes {
                budget = budget.with_max_nodes(max);
            }
            let outcome = solve::run(solver.build().as_mut(), &problem, &mut budget, &mut NoObserver)?;
            bar.inc(1);
            let nodes = outcome.stats.nodes.context("exhaustive solvers count nodes")?;
            match outcome.verdict {
                Verdict::Stopped(reason) => anyhow::bail!(
                    "{solver} with a queen locked on {square}: stopped, {reason}; results are incomplete"
                ),
                verdict => Ok((solver, nodes, matches!(verdict, Verdict::Solved(_)))),
            }
        })
        .collect::<anyhow::Result<_>>()?;
    bar.finish_and_clear();
    let rows: Vec<Row> = solvers
        .iter()
        .map(|&solver| {
            let mut nodes: Vec<u64> = results
                .iter()
                .filter(|r| r.0 == solver)
                .map(|r| r.1)
                .collect();
            let solved = results.iter().filter(|r| r.0 == solver && r.2).count();
            nodes.sort_unstable();
            summarize(solver, &nodes, solved)
        })
        .collect();
    let mut out = io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &serde_json::json!({"n": n, "rows": rows}))?;
        writeln!(out)?;
    } else {
        write_table(&mut out, n, &rows)?;
    }
    out.flush()?;
    Ok(Exit::Success)
}

fn summarize(solver: ExactSolver, sorted: &[u64], solved_count: usize) -> Row {
    let len = sorted.len();
    let median = if len % 2 == 1 {
        sorted[len / 2] as f64
    } else {
        f64::midpoint(sorted[len / 2 - 1] as f64, sorted[len / 2] as f64)
    };
    Row {
        solver: solver.name(),
        runs: len,
        solved: solved_count,
        min: sorted[0],
        median,
        mean: sorted.iter().map(|&x| x as f64).sum::<f64>() / len as f64,
        max: sorted[len - 1],
    }
}

fn write_table(out: &mut impl Write, n: u32, rows: &[Row]) -> io::Result<()> {
    writeln!(
        out,
        "Nodes examined on the {n}×{n} board with one locked queen, over all {} locked squares",
        n * n
    )?;
    writeln!(
        out,
        "| {:<16} | {:>6} | {:>14} | {:>16} | {:>16} | {:>14} |",
        "solver", "solved", "min", "median", "mean", "max"
    )?;
    writeln!(
        out,
        "|{:-<18}|{:->8}|{:->16}|{:->18}|{:->18}|{:->16}|",
        "", ":", ":", ":", ":", ":"
    )?;
    for row in rows {
        writeln!(
            out,
            "| {:<16} | {:>6} | {:>14} | {:>16.1} | {:>16.1} | {:>14} |",
            row.solver,
            format!("{}/{}", row.solved, row.runs),
            row.min,
            row.median,
            row.mean,
            row.max
        )?;
    }
    Ok(())
}
