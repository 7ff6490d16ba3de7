//! Trials and parameter sweeps.
//!
//! An [`Experiment`] is every combination of solvers, board sizes and parameter values (the
//! cartesian product of each swept parameter's values), each cell run `runs` times. Run `i` of
//! every cell uses the seed derived from (master seed, `i`), so that solvers meet the same
//! sequence of seeds and a rerun gives the same numbers. Runs go in parallel on all cores.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;

use queens_core::{Budget, NoObserver, Problem, solve};
use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

use crate::catalogue::{Settings, SolverKind};

/// What to run.
#[derive(Clone, Debug)]
pub struct Experiment {
    /// The solvers compared.
    pub solvers: Vec<SolverKind>,
    /// Board sides.
    pub sizes: Vec<u32>,
    /// Runs per cell.
    pub runs: u64,
    /// The master seed.
    pub seed: u64,
    /// The iteration cap of each run, if any.
    pub max_iterations: Option<u64>,
    /// Swept parameters: each name with its values.
    pub sweep: Vec<(String, Vec<f64>)>,
}

impl Experiment {
    /// `runs` runs of each solver on each size, default parameters, no cap beyond the solvers'.
    pub fn new(solvers: Vec<SolverKind>, sizes: Vec<u32>, runs: u64, seed: u64) -> Self {
        Experiment {
            solvers,
            sizes,
            runs,
            seed,
            max_iterations: None,
            sweep: Vec::new(),
        }
    }

    /// Every parameter combination of the sweep (one empty combination without a sweep).
    pub fn combinations(&self) -> Vec<BTreeMap<String, f64>> {
        self.sweep
            .iter()
            .fold(vec![BTreeMap::new()], |combinations, (name, values)| {
                combinations
                    .iter()
                    .flat_map(|base| {
                        values.iter().map(move |&value| {
                            let mut combination = base.clone();
                            combination.insert(name.clone(), value);
                            combination
                        })
                    })
                    .collect()
            })
    }

    /// The cells: solver × size × combination.
    fn cells(&self) -> Vec<(SolverKind, u32, Settings)> {
        let combinations = self.combinations();
        let mut cells = Vec::new();
        for &solver in &self.solvers {
            for &n in &self.sizes {
                for values in &combinations {
                    cells.push((
                        solver,
                        n,
                        Settings {
                            max_iterations: self.max_iterations,
                            values: values.clone(),
                        },
                    ));
                }
            }
        }
        cells
    }

    /// Runs in all.
    pub fn total_runs(&self) -> u64 {
        self.cells().len() as u64 * self.runs
    }
}

/// The seed of run `index` under master seed `seed` (`SplitMix64` of both).
pub fn run_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One cell's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The solver.
    pub solver: String,
    /// Board side.
    pub n: u32,
    /// The swept parameters' values.
    pub params: BTreeMap<String, f64>,
    /// Runs made.
    pub runs: u64,
    /// Runs that found a solution.
    pub solved: u64,
    /// `solved / runs`.
    pub success_rate: f64,
    /// Mean iterations (or nodes, for exhaustive solvers) over the successful runs, as the
    /// original reports; `None` if none succeeded.
    pub mean_iterations: Option<f64>,
    /// Median wall time of a run, milliseconds.
    pub median_ms: f64,
}

/// An experiment that cannot run.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ExperimentError {
    /// No solver, size or run.
    #[error("an experiment needs at least one solver, one size and one run")]
    Empty,
    /// A solver that cannot take a size or a parameter.
    #[error("{0}")]
    Invalid(String),
}

/// Runs `experiment`, calling `progress` with the number of runs finished as they finish.
pub fn run(
    experiment: &Experiment,
    progress: impl Fn(u64) + Sync,
) -> Result<Vec<Row>, ExperimentError> {
    if experiment.solvers.is_empty() || experiment.sizes.is_empty() || experiment.runs == 0 {
        return Err(ExperimentError::Empty);
    }
    let cells = experiment.cells();
    for (solver, n, settings) in &cells {
        let problem = Problem::square(*n).map_err(|e| ExperimentError::Invalid(e.to_string()))?;
        solver
            .check(&problem)
            .map_err(|e| ExperimentError::Invalid(e.to_string()))?;
        solver
            .check_settings(settings, *n)
            .map_err(ExperimentError::Invalid)?;
    }
    let finished = Mutex::new(0u64);
    let jobs: Vec<(usize, u64)> = (0..cells.len())
        .flat_map(|cell| (0..experiment.runs).map(move |i| (cell, i)))
        .collect();
    let results: Vec<(usize, bool, Option<u64>, f64)> = jobs
        .par_iter()
        .map(|&(cell, i)| {
            let (solver, n, settings) = &cells[cell];
            let problem = Problem::square(*n).expect("checked above");
            let mut budget = Budget::unlimited();
            if let Some(cap) = settings.max_iterations {
                budget = budget.with_max_iterations(cap);
            }
            let seed = run_seed(experiment.seed, i);
            let outcome = solve::run(
                solver.build(seed, settings).as_mut(),
                &problem,
                &mut budget,
                &mut NoObserver,
            )
            .expect("checked above");
            let mut done = finished.lock().expect("no panics holding the lock");
            *done += 1;
            progress(*done);
            let work = outcome.stats.iterations.or(outcome.stats.nodes);
            (
                cell,
                outcome.solution().is_some(),
                work,
                outcome.stats.elapsed.as_secs_f64() * 1e3,
            )
        })
        .collect();
    Ok(cells
        .iter()
        .enumerate()
        .map(|(index, (solver, n, settings))| {
            let mine: Vec<_> = results.iter().filter(|r| r.0 == index).collect();
            let solved: Vec<_> = mine.iter().filter(|r| r.1).collect();
            let mut times: Vec<f64> = mine.iter().map(|r| r.3).collect();
            times.sort_by(f64::total_cmp);
            let median_ms = if times.len() % 2 == 1 {
                times[times.len() / 2]
            } else {
                f64::midpoint(times[times.len() / 2 - 1], times[times.len() / 2])
            };
            let work: Vec<u64> = solved.iter().filter_map(|r| r.2).collect();
            Row {
                solver: solver.name().to_owned(),
                n: *n,
                params: settings.values.clone(),
                runs: mine.len() as u64,
                solved: solved.len() as u64,
                success_rate: solved.len() as f64 / mine.len() as f64,
                mean_iterations: (!work.is_empty())
                    .then(|| work.iter().sum::<u64>() as f64 / work.len() as f64),
                median_ms,
            }
        })
        .collect())
}

/// The (iteration, score) steps of one run of `solver` on N×N with `seed`: a sample of how its
/// score climbs.
pub fn sample_curve(solver: SolverKind, n: u32, seed: u64, settings: &Settings) -> Vec<(f64, f64)> {
    struct Steps(Vec<(f64, f64)>);
    impl queens_core::Observer for Steps {
        fn interest(&self) -> queens_core::Interest {
            queens_core::Interest {
                moves: false,
                steps: std::num::NonZeroU64::new(1),
            }
        }
        fn observe(&mut self, event: &queens_core::Event<'_>) -> std::ops::ControlFlow<()> {
            if let queens_core::Event::Step { iteration, score } = event {
                self.0.push((*iteration as f64, *score as f64));
            }
            std::ops::ControlFlow::Continue(())
        }
    }
    let mut steps = Steps(Vec::new());
    let Ok(problem) = Problem::square(n) else {
        return Vec::new();
    };
    let mut budget =
        Budget::unlimited().with_max_iterations(settings.max_iterations.unwrap_or(100_000));
    // A refused run has no curve; the experiment itself reports why.
    let _ = solve::run(
        solver.build(seed, settings).as_mut(),
        &problem,
        &mut budget,
        &mut steps,
    );
    steps.0
}

/// The rows as CSV: `solver,n,<each parameter>,runs,solved,success_rate,mean_iterations,median_ms`.
pub fn to_csv(rows: &[Row]) -> String {
    let names: Vec<&String> = rows
        .iter()
        .flat_map(|r| r.params.keys())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut csv = String::from("solver,n");
    for name in &names {
        csv.push(',');
        csv.push_str(name);
    }
    csv.push_str(",runs,solved,success_rate,mean_iterations,median_ms\n");
    for row in rows {
        let _ = write!(csv, "{},{}", row.solver, row.n);
        for name in &names {
            csv.push(',');
            if let Some(value) = row.params.get(*name) {
                csv.push_str(&value.to_string());
            }
        }
        let mean = row
            .mean_iterations
            .map_or_else(String::new, |m| format!("{m:.2}"));
        let _ = writeln!(
            csv,
            ",{},{},{:.4},{mean},{:.4}",
            row.runs, row.solved, row.success_rate, row.median_ms
        );
    }
    csv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_are_cartesian_products() {
        let mut experiment = Experiment::new(vec![], vec![8], 1, 0);
        experiment.sweep = vec![
            ("p".into(), vec![0.1, 0.2, 0.3]),
            ("q".into(), vec![1.0, 2.0]),
        ];
        let combinations = experiment.combinations();
        assert_eq!(combinations.len(), 6);
        assert!(combinations.iter().all(|c| c.len() == 2));
    }

    #[test]
    fn run_seeds_differ_and_repeat() {
        assert_eq!(run_seed(7, 3), run_seed(7, 3));
        assert_ne!(run_seed(7, 3), run_seed(7, 4));
        assert_ne!(run_seed(7, 3), run_seed(8, 3));
    }
}
