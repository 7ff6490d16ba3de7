//! `queens experiment`: trials and parameter sweeps, as a table, JSON or files.

use std::fmt::Write as _;
use std::io::Write;

use queens_api::Catalogue;
use queens_api::experiment::{
    Experiment, MAX_ITERATIONS_SWEEP, Report, Row, plots, run as run_experiment, run_seed,
    sample_curve, to_csv,
};
use queens_api::setting::{Refusal, Setting, SettingError};

use crate::args::ExperimentArgs;
use crate::commands::{command_budget, parse_side, write_atomically};
use crate::exit::Exit;
use crate::output::stderr;
use crate::progress;

/// Checks the flags into an experiment.
fn experiment_of(args: &ExperimentArgs) -> anyhow::Result<Experiment> {
    let solvers = if args.solver.is_empty() {
        Catalogue::original_comparison()
    } else {
        Catalogue::standard().get_all(&args.solver)?
    };
    let given = if args.sizes.is_empty() {
        &args.sizes_flag
    } else {
        &args.sizes
    };
    let sizes = if given.is_empty() {
        vec![queens_api::limits::DEFAULTS.side]
    } else {
        given
            .iter()
            .map(|n| parse_side(n))
            .collect::<anyhow::Result<Vec<u32>>>()?
    };
    // Worded from the front door's table of settings (--runs, --max-iters, --max-nodes).
    for (setting, value) in [
        (Setting::Runs, Some(args.runs)),
        (Setting::MaxIterations, args.max_iters),
        (Setting::MaxNodes, args.max_nodes),
    ] {
        if value == Some(0) {
            return Err(SettingError::new(setting, Refusal::AtLeast { least: 1, got: 0 }).into());
        }
    }
    let mut sweep: Vec<(String, Vec<f64>)> = Vec::new();
    for set in &args.sets {
        let (name, values) = super::split_setting(set, "NAME=V1,V2,...")?;
        // The name first: a parameter some solver does not take is refused as such, whatever
        // its values say.
        if name != MAX_ITERATIONS_SWEEP {
            for solver in &solvers {
                solver.check_param_name(name)?;
            }
        }
        let values = values
            .split(',')
            .map(|v| queens_core::parameters::parse_value(name, v))
            .collect::<Result<Vec<f64>, _>>()?;
        anyhow::ensure!(
            !sweep.iter().any(|(known, _)| known == name),
            "--set {name} is given twice"
        );
        sweep.push((name.to_owned(), values));
    }
    let experiment = Experiment {
        max_iterations: args.max_iters,
        max_nodes: args.max_nodes,
        sweep,
        ..Experiment::new(solvers, sizes, args.runs, args.seed)
    };
    experiment.check()?;
    Ok(experiment)
}

/// Runs `queens experiment`.
pub fn run(args: &ExperimentArgs) -> anyhow::Result<Exit> {
    let experiment = experiment_of(args)?;
    let budget = command_budget(args.time_limit)?;
    if let Some(dir) = &args.out {
        super::output_dir("--out", dir)?;
    }
    let runs = experiment.total_runs().unwrap_or(0);
    let bar = if args.json {
        progress::document_bar(runs, "runs")
    } else {
        progress::bar(runs, "runs")
    };
    let report = run_experiment(&experiment, &budget, |done| bar.set_position(done))?;
    bar.finish_and_clear();
    let rows = &report.rows;
    let mut out = crate::output::Answer::new();
    if args.json {
        serde_json::to_writer(
            &mut out,
            &serde_json::json!({
                "rows": rows,
                "complete": report.is_complete(),
                "finished": report.finished,
                "planned": report.planned,
            }),
        )?;
        writeln!(out)?;
    } else {
        write!(out, "{}", table(rows))?;
    }
    out.deliver()?;
    let exit = if report.is_complete() {
        Exit::Success
    } else {
        let why = report
            .stopped
            .map_or_else(|| "stopped".to_owned(), |stop| format!("stopped ({stop})"));
        stderr!(
            "partial results: {why} after {} of {} runs; each row counts the runs that finished",
            report.finished,
            report.planned
        );
        Exit::NoAnswer
    };
    // The table is printed first, so that a full disk costs the files, not the results.
    if let Some(dir) = &args.out {
        write_files(dir, &experiment, &report, &budget)?;
    }
    Ok(exit)
}

/// `--out DIR`: the rows as CSV and JSON, and the plots.
fn write_files(
    dir: &std::path::Path,
    experiment: &Experiment,
    report: &Report,
    budget: &queens_core::Budget,
) -> anyhow::Result<()> {
    let rows = &report.rows;
    // Made before the runs; made again in case it was taken away while they ran.
    super::output_dir("--out", dir)?;
    write_atomically(&dir.join("results.csv"), to_csv(rows).as_bytes())?;
    let json = serde_json::to_string_pretty(
        &serde_json::json!({ "rows": rows, "complete": report.is_complete() }),
    )?;
    write_atomically(&dir.join("results.json"), (json + "\n").as_bytes())?;
    // One sample run per solver, on the largest size, with the first parameter combination.
    let first: Vec<(String, f64)> = experiment
        .combinations()
        .swap_remove(0)
        .into_iter()
        .collect();
    let seed = run_seed(experiment.seed, 0);
    let largest = experiment
        .sizes
        .iter()
        .copied()
        .max()
        .unwrap_or(queens_api::limits::DEFAULTS.side);
    let curves: Vec<(String, Vec<(f64, f64)>)> = experiment
        .solvers
        .iter()
        .filter_map(|&solver| {
            let params = solver.params(&first).ok()?;
            let steps = sample_curve(
                solver,
                largest,
                seed,
                &params,
                experiment.max_iterations,
                budget,
            );
            Some((solver.name().to_owned(), steps))
        })
        .collect();
    plots::write_all(dir, rows, &curves)?;
    Ok(())
}

/// An aligned table of the rows.
fn table(rows: &[Row]) -> String {
    let params = |row: &Row| {
        row.params
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let solver_width = rows
        .iter()
        .map(|r| r.solver.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let params_width = rows
        .iter()
        .map(|r| params(r).len())
        .max()
        .unwrap_or(0)
        .max(6);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{:<solver_width$}  {:>5}  {:<params_width$}  {:>6}  {:>6}  {:>8}  {:>10}  {:>10}",
        "solver", "n", "params", "runs", "solved", "success", "mean iter", "median ms"
    );
    for row in rows {
        let mean = row
            .mean_iterations
            .map_or_else(|| "-".to_owned(), |m| format!("{m:.1}"));
        let _ = writeln!(
            text,
            "{:<solver_width$}  {:>5}  {:<params_width$}  {:>6}  {:>6}  {:>7.1}%  {:>10}  {:>10.3}",
            row.solver,
            row.n,
            params(row),
            row.runs,
            row.solved,
            100.0 * row.success_rate,
            mean,
            row.median_ms
        );
    }
    text
}
