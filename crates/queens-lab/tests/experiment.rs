//! Experiments are reproducible, cover every cell, and refuse parameters no solver reads.

use queens_api::SolverKind;
use queens_core::Budget;
use queens_lab::experiment::{Experiment, ExperimentError, Row, to_csv};

/// The rows of a whole experiment.
fn run(
    experiment: &Experiment,
    progress: impl Fn(u64) + Sync,
) -> Result<Vec<Row>, ExperimentError> {
    let report = queens_lab::experiment::run(experiment, &Budget::unlimited(), progress)?;
    assert!(report.is_complete());
    Ok(report.rows)
}

fn without_times(rows: Vec<Row>) -> Vec<Row> {
    rows.into_iter()
        .map(|row| Row {
            median_ms: 0.0,
            ..row
        })
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_rows() {
    let solvers: Vec<SolverKind> = [
        "simulated-annealing",
        "optimized-hill-climbing",
        "min-conflicts",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    let experiment = Experiment::new(solvers, vec![8, 12], 30, 11);
    let first = without_times(run(&experiment, |_| {}).unwrap());
    let again = without_times(run(&experiment, |_| {}).unwrap());
    assert_eq!(first, again);
    assert_eq!(first.len(), 6);
    let other_seed = Experiment::new(experiment.solvers.clone(), vec![8, 12], 30, 12);
    assert_ne!(without_times(run(&other_seed, |_| {}).unwrap()), first);
}

#[test]
fn sweeps_make_one_row_per_combination() {
    let mut experiment = Experiment::new(
        vec!["hill-climbing-constant-shake".parse().unwrap()],
        vec![8],
        5,
        1,
    );
    experiment.sweep = vec![
        ("p".into(), vec![0.1, 0.3]),
        ("q".into(), vec![1.0, 2.0, 3.0]),
    ];
    let rows = run(&experiment, |_| {}).unwrap();
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(|r| r.runs == 5 && r.params.len() == 2));
    let csv = to_csv(&rows);
    assert!(
        csv.starts_with("solver,n,p,q,runs,solved,success_rate,mean_iterations,median_ms\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 7);
}

#[test]
fn bad_experiments_are_refused() {
    let shake: SolverKind = "hill-climbing-constant-shake".parse().unwrap();
    let with = |name: &str, value: f64| {
        let mut experiment = Experiment::new(vec![shake], vec![8], 1, 1);
        experiment.sweep = vec![(name.into(), vec![value])];
        run(&experiment, |_| {})
    };
    assert!(matches!(
        with("temperature", 5.0),
        Err(ExperimentError::Invalid(_))
    ));
    assert!(matches!(with("p", 1.5), Err(ExperimentError::Invalid(_))));
    assert!(matches!(with("q", 9.0), Err(ExperimentError::Invalid(_))));
    assert!(matches!(with("q", 1.5), Err(ExperimentError::Invalid(_))));
    assert_eq!(
        run(&Experiment::new(vec![shake], vec![8], 0, 1), |_| {}),
        Err(ExperimentError::Empty)
    );
}
