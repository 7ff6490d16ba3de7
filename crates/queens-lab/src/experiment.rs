//! Trials and parameter sweeps.
//!
//! An [`Experiment`] is every combination of solvers, board sizes and parameter values (the
//! cartesian product of each swept parameter's values), each cell run `runs` times. Run `i` of
//! every cell uses the seed derived from (master seed, `i`), so that solvers meet the same
//! sequence of seeds and a rerun gives the same numbers. Runs go in parallel on all cores.
//!
//! An experiment stops like every run, by its [`Budget`]: when its token is raised (Ctrl-C, a
//! client that left) or its time limit passes, the runs under way stop, no new run starts, and
//! the [`Report`] holds the rows of the runs that finished, marked incomplete.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use queens_core::descriptor::Counts;
use queens_core::{
    Budget, Event, Interest, NoObserver, Observer, ParamValues, Problem, StopReason, Verdict,
};
use rayon::prelude::*;
use serde::Serialize;
use thiserror::Error;

use crate::stats;
use queens_solvers::SolverKind;

/// The most cells (solver × size × parameter combination) in one experiment.
pub const MAX_CELLS: u64 = 100_000;

/// Runs of each cell when none is given.
pub const DEFAULT_RUNS: u64 = 100;

/// The most runs in one experiment, over all its cells.
pub const MAX_RUNS: u64 = 10_000_000;

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
    /// The iteration cap of each run; `None` for each solver's own.
    pub max_iterations: Option<u64>,
    /// The node cap of each run (tree searches); `None` for none.
    pub max_nodes: Option<u64>,
    /// Swept parameters: each name with its values.
    pub sweep: Vec<(String, Vec<f64>)>,
}

/// One cell: a solver on a size with one combination of the swept values.
#[derive(Clone, Debug)]
struct Cell {
    solver: SolverKind,
    n: u32,
    problem: Problem,
    swept: BTreeMap<String, f64>,
    params: ParamValues,
    max_iterations: Option<u64>,
}

impl Experiment {
    /// `runs` runs of each solver on each size, default parameters, each solver's own cap.
    pub fn new(solvers: Vec<SolverKind>, sizes: Vec<u32>, runs: u64, seed: u64) -> Self {
        Experiment {
            solvers,
            sizes,
            runs,
            seed,
            max_iterations: None,
            max_nodes: None,
            sweep: Vec::new(),
        }
    }

    /// The number of parameter combinations, or `None` when it overflows.
    fn combination_count(&self) -> Option<u64> {
        self.sweep.iter().try_fold(1u64, |count, (_, values)| {
            count.checked_mul(values.len() as u64)
        })
    }

    /// The number of cells, or `None` when it overflows.
    pub fn cell_count(&self) -> Option<u64> {
        self.combination_count()?
            .checked_mul(self.solvers.len() as u64)?
            .checked_mul(self.sizes.len() as u64)
    }

    /// Runs in all, or `None` when it overflows.
    pub fn total_runs(&self) -> Option<u64> {
        self.cell_count()?.checked_mul(self.runs)
    }

    /// Every parameter combination of the sweep (one empty combination without a sweep).
    /// Call only after [`check`](Self::check), which bounds their number.
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

    /// Checks the sizes of the experiment before anything is built: at least one solver, size,
    /// run and value, none of them given twice (a repeat would run its cells again as rows of
    /// their own); at most [`MAX_CELLS`] cells and [`MAX_RUNS`] runs.
    pub fn check(&self) -> Result<(), ExperimentError> {
        for (missing, least) in [
            (self.solvers.is_empty(), "one solver"),
            (self.sizes.is_empty(), "one size"),
            (self.runs == 0, "one run"),
        ] {
            if missing {
                return Err(ExperimentError::Empty(least));
            }
        }
        if let Some((name, _)) = self.sweep.iter().find(|(_, values)| values.is_empty()) {
            return Err(ExperimentError::NoSweptValues(name.clone()));
        }
        self.check_nothing_twice()?;
        if self.max_iterations.is_some()
            && self
                .sweep
                .iter()
                .any(|(name, _)| name == MAX_ITERATIONS_SWEEP)
        {
            return Err(ExperimentError::Invalid(format!(
                "the iteration cap is given twice: as a fixed cap and as a {MAX_ITERATIONS_SWEEP} sweep"
            )));
        }
        if self.max_iterations == Some(0) || self.max_nodes == Some(0) {
            return Err(ExperimentError::Invalid(
                "a run's iteration or node cap must be at least 1, got 0".into(),
            ));
        }
        match self.cell_count() {
            Some(cells) if cells <= MAX_CELLS => {}
            cells => return Err(ExperimentError::TooManyCells(cells)),
        }
        match self.total_runs() {
            Some(runs) if runs <= MAX_RUNS => Ok(()),
            runs => Err(ExperimentError::TooManyRuns(runs)),
        }
    }

    /// Refuses a solver, a size, a swept parameter or one of its values given twice.
    fn check_nothing_twice(&self) -> Result<(), ExperimentError> {
        let twice = |what: String| Err(ExperimentError::Invalid(format!("{what}; give each once")));
        if let Some(solver) = first_repeated(&self.solvers) {
            return twice(format!("{} is given twice in the solvers", solver.name()));
        }
        if let Some(n) = first_repeated(&self.sizes) {
            return twice(format!("N = {n} is given twice in the sizes"));
        }
        let names: Vec<&String> = self.sweep.iter().map(|(name, _)| name).collect();
        if let Some(name) = first_repeated(&names) {
            return twice(format!("{name} is swept twice"));
        }
        for (name, values) in &self.sweep {
            if let Some(value) = first_repeated(values) {
                return twice(format!("{name} = {value} is given twice in its sweep"));
            }
        }
        Ok(())
    }

    /// The CPU time the experiment could take at worst, in seconds: every run of every cell
    /// spending its whole cap, at each solver's estimated cost of a unit of work. A tree search
    /// without a node cap, or on a board within its practical size, counts a second a run at
    /// most. Call after [`check`](Self::check).
    pub fn estimated_cpu_seconds(&self) -> Result<f64, ExperimentError> {
        let mut seconds = 0.0;
        for cell in self.cells()? {
            let nanos = (cell.solver.unit_cost)(&cell.problem, &cell.params);
            let run = match cell.solver.counts {
                Counts::Iterations => cell.max_iterations.unwrap_or(u64::MAX) as f64 * nanos * 1e-9,
                Counts::Nodes => self
                    .max_nodes
                    .map_or(1.0, |nodes| (nodes as f64 * nanos * 1e-9).min(1.0)),
                Counts::Nothing => nanos * 1e-9,
            };
            seconds += run * self.runs as f64;
        }
        Ok(seconds)
    }

    /// The cells, each checked: its problem, its solver on it, its parameters.
    fn cells(&self) -> Result<Vec<Cell>, ExperimentError> {
        self.check()?;
        let combinations = self.combinations();
        let mut cells = Vec::new();
        for &solver in &self.solvers {
            for &n in &self.sizes {
                let problem =
                    Problem::square(n).map_err(|e| ExperimentError::Invalid(e.to_string()))?;
                for swept in &combinations {
                    let given: Vec<(&str, f64)> = swept
                        .iter()
                        .filter(|(k, _)| k.as_str() != MAX_ITERATIONS_SWEEP)
                        .map(|(k, &v)| (k.as_str(), v))
                        .collect();
                    let swept_cap = swept
                        .get(MAX_ITERATIONS_SWEEP)
                        .map(|&cap| iteration_cap(cap))
                        .transpose()?;
                    let params = solver
                        .params(&given)
                        .map_err(|e| ExperimentError::Invalid(e.to_string()))?;
                    solver
                        .check(&problem, &params)
                        .map_err(|e| ExperimentError::Invalid(e.to_string()))?;
                    // Runs go in parallel, one per core.
                    let needed = (solver.memory_estimate(&problem, &params) + u128::from(n))
                        .saturating_mul(rayon::current_num_threads() as u128);
                    queens_core::memory::check(solver.name, needed)
                        .map_err(ExperimentError::Invalid)?;
                    cells.push(Cell {
                        solver,
                        n,
                        max_iterations: swept_cap
                            .or(self.max_iterations)
                            .or_else(|| solver.default_max_iterations(&problem)),
                        problem: problem.clone(),
                        swept: swept.clone(),
                        params,
                    });
                }
            }
        }
        Ok(cells)
    }
}

/// The name under which a sweep varies the iteration cap of each run rather than a solver
/// parameter (`--set max_iters=250,300,350`), as the original's studies varied its `MaxIterations`.
pub const MAX_ITERATIONS_SWEEP: &str = "max_iters";

/// A swept iteration cap, checked: a whole number of at least 1.
fn iteration_cap(value: f64) -> Result<u64, ExperimentError> {
    if value >= 1.0 && value.fract() == 0.0 && value <= 9_007_199_254_740_992.0 {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "a whole number from 1 to 2^53, checked above"
        )]
        Ok(value as u64)
    } else {
        Err(ExperimentError::Invalid(format!(
            "{MAX_ITERATIONS_SWEEP} must be a whole number of at least 1, got {value}"
        )))
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

/// A swept parameter's value in a row: whole for an integer parameter (and the iteration cap),
/// so that JSON says `2`, not `2.0`, and a table shows it as the whole number it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweptValue {
    /// The value.
    pub value: f64,
    /// Whether the parameter takes whole numbers only.
    pub integer: bool,
}

impl Serialize for SweptValue {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.integer {
            serializer.serialize_i64(self.value as i64)
        } else {
            serializer.serialize_f64(self.value)
        }
    }
}

impl std::fmt::Display for SweptValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.integer {
            write!(f, "{}", self.value as i64)
        } else {
            write!(f, "{}", self.value)
        }
    }
}

/// One cell's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The solver.
    pub solver: String,
    /// Board side.
    pub n: u32,
    /// The swept parameters' values.
    pub params: BTreeMap<String, SweptValue>,
    /// Runs made.
    pub runs: u64,
    /// Runs that found a solution.
    pub solved: u64,
    /// `solved / runs`.
    #[serde(serialize_with = "queens_core::figures::fraction")]
    pub success_rate: f64,
    /// Mean iterations (or nodes, for exhaustive solvers) over the successful runs, as the
    /// original reports; `None` if none succeeded.
    #[serde(serialize_with = "queens_core::figures::optional_fraction")]
    pub mean_iterations: Option<f64>,
    /// Median wall time of a run, milliseconds.
    #[serde(serialize_with = "queens_core::figures::milliseconds")]
    pub median_ms: f64,
}

/// What an experiment found.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// One row per cell with at least one finished run, in the experiment's order.
    pub rows: Vec<Row>,
    /// Runs finished, over all cells.
    pub finished: u64,
    /// Runs asked for.
    pub planned: u64,
    /// Why it stopped before the end, if it did.
    pub stopped: Option<StopReason>,
}

impl Report {
    /// Whether every run finished.
    pub fn is_complete(&self) -> bool {
        self.finished == self.planned
    }
}

/// An experiment that cannot run.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ExperimentError {
    /// No solver, size or run: "one solver", "one size" or "one run", the least it needs.
    #[error("an experiment needs at least {0}")]
    Empty(&'static str),
    /// A swept parameter with no values.
    #[error("{0} is swept over no values; give at least one")]
    NoSweptValues(String),
    /// Too many combinations: the experiment's, if they fit in a `u64`.
    #[error(
        "an experiment has at most {MAX_CELLS} cells (solvers × sizes × parameter combinations); this one has {}",
        this_many(*.0)
    )]
    TooManyCells(Option<u64>),
    /// Too many runs: the experiment's, if they fit in a `u64`.
    #[error(
        "an experiment makes at most {MAX_RUNS} runs (cells × runs); this one makes {}",
        this_many(*.0)
    )]
    TooManyRuns(Option<u64>),
    /// A solver that cannot take a size or a parameter.
    #[error("{0}")]
    Invalid(String),
}

/// A count that may be past a `u64`, as a refusal states it.
fn this_many(count: Option<u64>) -> String {
    count.map_or_else(
        || format!("more than {}", u64::MAX),
        |count| count.to_string(),
    )
}

/// The first item of `items` that an earlier one equals.
pub(crate) fn first_repeated<T: PartialEq>(items: &[T]) -> Option<&T> {
    items
        .iter()
        .enumerate()
        .find(|&(index, item)| items[..index].contains(item))
        .map(|(_, item)| item)
}

/// What the runs of one cell add up to.
#[derive(Default)]
struct Tally {
    runs: u64,
    solved: u64,
    work: u64,
    times_ms: Vec<f64>,
}

/// Runs `experiment` within `budget` (its token and time limit; each run adds its own
/// iteration cap), calling `progress` with the number of runs finished as they finish.
pub fn run(
    experiment: &Experiment,
    budget: &Budget,
    progress: impl Fn(u64) + Sync,
) -> Result<Report, ExperimentError> {
    let cells = experiment.cells()?;
    let runs = experiment.runs;
    let planned = cells.len() as u64 * runs;
    let mut budget = budget.clone();
    budget.start();
    let tallies: Vec<Mutex<Tally>> = cells.iter().map(|_| Mutex::default()).collect();
    let finished = AtomicU64::new(0);
    (0..planned).into_par_iter().for_each(|job| {
        if budget.is_stopped() {
            return;
        }
        let (cell_index, i) = ((job / runs) as usize, job % runs);
        let cell = &cells[cell_index];
        let mut piece = budget.piece();
        if let Some(cap) = cell.max_iterations {
            piece = piece.with_max_iterations(cap);
        }
        if let Some(cap) = experiment.max_nodes {
            piece = piece.with_max_nodes(cap);
        }
        let outcome = queens_core::solve::run(
            cell.solver
                .build(run_seed(experiment.seed, i), &cell.params)
                .as_mut(),
            &cell.problem,
            &mut piece,
            &mut NoObserver,
        )
        .expect("every cell was checked");
        // A run cut short by the experiment's own stop did not finish: it is not a failure.
        if matches!(
            outcome.verdict,
            Verdict::Stopped(StopReason::Cancelled | StopReason::TimeLimit(_))
        ) {
            return;
        }
        {
            let mut tally = tallies[cell_index]
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            tally.runs += 1;
            if outcome.solution().is_some() {
                tally.solved += 1;
                tally.work += outcome
                    .stats
                    .iterations
                    .or(outcome.stats.nodes)
                    .unwrap_or(0);
            }
            tally
                .times_ms
                .push(outcome.stats.elapsed.as_secs_f64() * 1e3);
        }
        progress(finished.fetch_add(1, Ordering::Relaxed) + 1);
    });
    let rows = cells
        .iter()
        .zip(tallies)
        .filter_map(|(cell, tally)| {
            let mut tally = tally
                .into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            (tally.runs > 0).then(|| Row {
                solver: cell.solver.name().to_owned(),
                n: cell.n,
                params: cell
                    .swept
                    .iter()
                    .map(|(name, &value)| {
                        let integer = name == MAX_ITERATIONS_SWEEP
                            || cell
                                .solver
                                .parameters
                                .iter()
                                .any(|parameter| parameter.name == name && parameter.integer);
                        (name.clone(), SweptValue { value, integer })
                    })
                    .collect(),
                runs: tally.runs,
                solved: tally.solved,
                success_rate: tally.solved as f64 / tally.runs as f64,
                mean_iterations: (tally.solved > 0)
                    .then(|| tally.work as f64 / tally.solved as f64),
                median_ms: stats::median(&mut tally.times_ms).unwrap_or(0.0),
            })
        })
        .collect();
    let finished = finished.into_inner();
    Ok(Report {
        rows,
        finished,
        planned,
        stopped: (finished < planned).then(|| budget.check().err()).flatten(),
    })
}

/// The (iteration, score) steps of one run of `solver` on N×N with `seed` and `params`, capped
/// at `max_iterations` (or the solver's own cap, or 100,000): a sample of how its score climbs.
pub fn sample_curve(
    solver: SolverKind,
    n: u32,
    seed: u64,
    params: &ParamValues,
    max_iterations: Option<u64>,
    budget: &Budget,
) -> Vec<(f64, f64)> {
    struct Steps(Vec<(f64, f64)>);
    impl Observer for Steps {
        fn interest(&self) -> Interest {
            Interest {
                moves: false,
                steps: std::num::NonZeroU64::new(1),
            }
        }
        fn observe(&mut self, event: &Event<'_>) -> std::ops::ControlFlow<()> {
            if let Event::Step {
                iteration, score, ..
            } = event
            {
                self.0.push((*iteration as f64, *score as f64));
            }
            std::ops::ControlFlow::Continue(())
        }
    }
    let mut steps = Steps(Vec::new());
    let Ok(problem) = Problem::square(n) else {
        return Vec::new();
    };
    let cap = max_iterations
        .or_else(|| solver.default_max_iterations(&problem))
        .unwrap_or(100_000);
    let mut budget = budget.piece().with_max_iterations(cap);
    // A refused run has no curve; the experiment itself reports why.
    let _ = queens_core::solve::run(
        solver.build(seed, params).as_mut(),
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
    use queens_solvers::{Catalogue, SolverKind};

    fn solver(name: &str) -> SolverKind {
        Catalogue::standard().get(name).unwrap()
    }

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
    fn nothing_is_given_twice() {
        let climb = solver("hill-climbing-constant-shake");
        let plain = Experiment::new(vec![climb], vec![6, 8], 1, 0);
        assert!(plain.check().is_ok());
        let mut cases: Vec<(Experiment, &str)> = vec![
            (
                Experiment::new(vec![climb, solver("backtracking"), climb], vec![8], 1, 0),
                "hill-climbing-constant-shake is given twice in the solvers; give each once",
            ),
            (
                Experiment::new(vec![climb], vec![8, 6, 8], 1, 0),
                "N = 8 is given twice in the sizes; give each once",
            ),
        ];
        let mut values = plain.clone();
        values.sweep = vec![("p".into(), vec![0.1, 0.2, 0.1])];
        cases.push((
            values,
            "p = 0.1 is given twice in its sweep; give each once",
        ));
        let mut names = plain.clone();
        names.sweep = vec![("p".into(), vec![0.1]), ("p".into(), vec![0.2])];
        cases.push((names, "p is swept twice; give each once"));
        for (experiment, sentence) in cases {
            let error = experiment.check().unwrap_err();
            assert_eq!(error.to_string(), sentence);
        }
        assert_eq!(first_repeated(&[1, 2, 3]), None);
        assert_eq!(first_repeated(&[3, 1, 2, 1, 3]), Some(&1));
    }

    #[test]
    fn run_seeds_differ_and_repeat() {
        assert_eq!(run_seed(7, 3), run_seed(7, 3));
        assert_ne!(run_seed(7, 3), run_seed(7, 4));
        assert_ne!(run_seed(7, 3), run_seed(8, 3));
    }

    #[test]
    fn huge_sweeps_are_refused_before_they_are_built() {
        let solver = solver("hill-climbing-constant-shake");
        let mut experiment = Experiment::new(vec![solver], vec![8], 1, 0);
        let values: Vec<f64> = (0..1000).map(|i| f64::from(i) / 1000.0).collect();
        experiment.sweep = vec![
            ("p".into(), values.clone()),
            ("q".into(), values.clone()),
            ("decay".into(), values),
        ];
        assert_eq!(
            experiment.check(),
            Err(ExperimentError::TooManyCells(Some(1_000_000_000)))
        );
        let mut runs = Experiment::new(vec![solver], vec![8, 9], u64::MAX, 0);
        assert_eq!(runs.check(), Err(ExperimentError::TooManyRuns(None)));
        assert!(
            runs.check()
                .unwrap_err()
                .to_string()
                .ends_with("this one makes more than 18446744073709551615")
        );
        runs.runs = MAX_RUNS;
        assert_eq!(
            runs.check().unwrap_err().to_string(),
            "an experiment makes at most 10000000 runs (cells × runs); this one makes 20000000"
        );
    }

    #[test]
    fn a_cancelled_experiment_keeps_what_finished() {
        let solver = solver("optimized-hill-climbing");
        let experiment = Experiment::new(vec![solver], vec![8, 12], 2000, 3);
        let budget = Budget::unlimited();
        let token = budget.token().clone();
        let report = run(&experiment, &budget, |done| {
            if done == 100 {
                token.cancel();
            }
        })
        .unwrap();
        assert!(!report.is_complete());
        assert_eq!(report.stopped, Some(StopReason::Cancelled));
        assert!(report.finished >= 100 && report.finished < report.planned);
        let rows: u64 = report.rows.iter().map(|r| r.runs).sum();
        assert_eq!(rows, report.finished);
    }

    #[test]
    fn a_swept_iteration_cap_runs_as_a_fixed_one() {
        let solver = solver("optimized-hill-climbing");
        let mut swept = Experiment::new(vec![solver], vec![8], 200, 5);
        swept.sweep = vec![(MAX_ITERATIONS_SWEEP.into(), vec![10.0, 60.0])];
        let swept = run(&swept, &Budget::unlimited(), |_| {}).unwrap();
        assert_eq!(swept.rows.len(), 2);
        for (row, cap) in swept.rows.iter().zip([10_u32, 60]) {
            let fixed = Experiment {
                max_iterations: Some(u64::from(cap)),
                ..Experiment::new(vec![solver], vec![8], 200, 5)
            };
            let fixed = run(&fixed, &Budget::unlimited(), |_| {}).unwrap();
            assert_eq!(
                row.params[MAX_ITERATIONS_SWEEP].to_string(),
                cap.to_string()
            );
            assert_eq!(
                (row.solved, row.mean_iterations),
                (fixed.rows[0].solved, fixed.rows[0].mean_iterations)
            );
        }
        // A tighter cap solves fewer boards.
        assert!(swept.rows[0].solved < swept.rows[1].solved);
    }

    #[test]
    fn bad_swept_iteration_caps_are_refused() {
        let solver = solver("hill-climbing");
        for cap in [0.0, 1.5, -3.0, f64::NAN, 1e300] {
            let mut experiment = Experiment::new(vec![solver], vec![8], 1, 0);
            experiment.sweep = vec![(MAX_ITERATIONS_SWEEP.into(), vec![cap])];
            assert!(
                matches!(
                    experiment.estimated_cpu_seconds(),
                    Err(ExperimentError::Invalid(_))
                ),
                "{cap}"
            );
        }
        let mut twice = Experiment::new(vec![solver], vec![8], 1, 0);
        twice.max_iterations = Some(10);
        twice.sweep = vec![(MAX_ITERATIONS_SWEEP.into(), vec![20.0])];
        assert!(matches!(twice.check(), Err(ExperimentError::Invalid(_))));
    }
}
