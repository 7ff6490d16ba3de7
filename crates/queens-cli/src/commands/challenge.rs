//! `queens challenge`: the Queen's Challenge comparison. For every square of an N×N board as the
//! locked queen, each tree search's node count (boards or placements examined) until it finds a
//! solution or proves there is none; then min / median / mean / max per solver.

use queens_core::words::counted;
use std::io::{self, Write};
use std::sync::atomic::{AtomicU64, Ordering};

use queens_api::Catalogue;
use queens_api::challenge::{Challenge, Progress, Row, Table};

use crate::args::ChallengeArgs;
use crate::commands::{interrupt_token, parse_side_for};
use crate::exit::Exit;
use crate::output::stderr;
use crate::progress;

/// Runs `queens challenge`.
pub fn run(args: &ChallengeArgs) -> anyhow::Result<Exit> {
    let size = args.size_flag.as_deref().unwrap_or(&args.size);
    let n = parse_side_for(size, queens_api::challenge::SIDES)?;
    let bounds = queens_api::bounds::Bounds {
        time_limit: args.time_limit,
        max_nodes: args.max_nodes,
        threads: None,
    }
    .check()?;
    let catalogue = Catalogue::standard();
    let solvers = if args.solvers.is_empty() {
        catalogue.tree_searches()
    } else {
        catalogue.get_all(&args.solvers)?
    };
    let challenge = Challenge {
        n,
        solvers,
        max_nodes: bounds.max_nodes(),
    };
    // The node cap is each run's, which the table applies; its runs take the budget's time
    // limit and token only.
    let budget = bounds.budget(interrupt_token());
    let runs = u64::from(n).pow(2) * challenge.solvers.len() as u64;
    // The brute force's runs take orders of magnitude longer than the searches', square by
    // square: the rate of the runs done says nothing of the time left.
    let bar = progress::bar_of(
        runs,
        "locked squares × solvers",
        progress::TimeLeft::Unknown,
    );
    // Reports of the nodes examined come from every run's thread, so a smaller tally may come
    // after a larger one: the largest seen is shown.
    let examined = AtomicU64::new(0);
    let table = challenge.run(&budget, |progress| match progress {
        Progress::Finished(_) => bar.inc(1),
        Progress::Examined(nodes) => {
            if examined.fetch_max(nodes, Ordering::Relaxed) < nodes {
                progress::show_nodes_examined(&bar, nodes);
            }
        }
    })?;
    bar.finish_and_clear();
    let mut out = crate::output::Answer::new();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &table)?;
        writeln!(out)?;
    } else {
        write_table(&mut out, &table)?;
    }
    out.deliver()?;
    if !table.is_complete() {
        stderr!("{}", incomplete(&table));
        return Ok(Exit::NoAnswer);
    }
    Ok(Exit::Success)
}

/// Why the table is partial, in a sentence.
fn incomplete(table: &Table) -> String {
    let capped: usize = table.rows.iter().map(|row| row.stopped).sum();
    let mut parts = Vec::new();
    if table.finished < table.planned {
        let why = table
            .stopped
            .map_or_else(|| "stopped".to_owned(), |stop| format!("stopped ({stop})"));
        parts.push(format!(
            "{why} after {} of {} runs",
            table.finished, table.planned
        ));
    }
    if capped > 0 {
        parts.push(format!(
            "{} reached --max-nodes, so {} lower bounds",
            counted(capped, "run", "runs"),
            if capped == 1 {
                "its figures are"
            } else {
                "their figures are"
            }
        ));
    }
    format!("partial table: {}", parts.join("; "))
}

fn write_table(out: &mut impl Write, table: &Table) -> io::Result<()> {
    let n = table.n;
    writeln!(
        out,
        "Nodes examined on the {n}×{n} board with one locked queen, over all {} locked squares{}",
        n * n,
        if table.finished < table.planned {
            " (partial)"
        } else {
            ""
        }
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
    for row in &table.rows {
        write_row(out, row)?;
    }
    Ok(())
}

fn write_row(out: &mut impl Write, row: &Row) -> io::Result<()> {
    writeln!(
        out,
        "| {:<16} | {:>6} | {:>14} | {:>16.1} | {:>16.1} | {:>14} |",
        row.solver,
        format!("{}/{}", row.solved, row.runs),
        row.min,
        row.median,
        row.mean,
        row.max
    )
}
