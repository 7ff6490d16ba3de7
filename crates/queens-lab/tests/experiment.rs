//! Experiments are reproducible, cover every cell, and refuse parameters no solver reads; with
//! the `plots` feature, their plots are written as SVG and PNG.

use queens_core::Budget;
use queens_lab::experiment::{Experiment, ExperimentError, Row, to_csv};
use queens_solvers::SolverKind;

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
        Err(ExperimentError::Empty("one run"))
    );
    assert_eq!(
        run(&Experiment::new(vec![], vec![8], 1, 1), |_| {}),
        Err(ExperimentError::Empty("one solver"))
    );
    assert_eq!(
        run(&Experiment::new(vec![shake], vec![], 1, 1), |_| {}),
        Err(ExperimentError::Empty("one size"))
    );
    let mut unswept = Experiment::new(vec![shake], vec![8], 1, 1);
    unswept.sweep = vec![("p".to_owned(), vec![])];
    assert_eq!(
        run(&unswept, |_| {}).unwrap_err().to_string(),
        "p is swept over no values; give at least one"
    );
}

#[cfg(feature = "plots")]
#[test]
fn plots_are_written_as_svg_and_png() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let solvers: Vec<SolverKind> = ["hill-climbing", "optimized-hill-climbing"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let rows = run(&Experiment::new(solvers.clone(), vec![6, 8], 10, 1), |_| {}).unwrap();
    let curves: Vec<(String, Vec<(f64, f64)>)> = solvers
        .iter()
        .map(|&s| {
            (
                s.name().to_owned(),
                queens_lab::experiment::sample_curve(
                    s,
                    8,
                    1,
                    &s.defaults(),
                    None,
                    &Budget::unlimited(),
                ),
            )
        })
        .collect();
    assert!(
        curves.iter().all(|(_, points)| !points.is_empty()),
        "sample runs report their steps"
    );
    let written = queens_lab::plots::write_all(dir, &rows, &curves).unwrap();
    for stem in ["success-rate", "mean-iterations", "score-per-iteration"] {
        let svg = std::fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
        assert!(
            svg.contains("<svg") && svg.contains("optimized-hill-climbing"),
            "{stem}.svg"
        );
        let png = std::fs::read(dir.join(format!("{stem}.png"))).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{stem}.png");
    }
    assert_eq!(written.len(), 6);
    // A two-parameter sweep gets a heat map.
    let mut sweep = Experiment::new(
        vec!["hill-climbing-constant-shake".parse().unwrap()],
        vec![8],
        5,
        1,
    );
    sweep.sweep = vec![("p".into(), vec![0.1, 0.3]), ("q".into(), vec![1.0, 2.0])];
    let rows = run(&sweep, |_| {}).unwrap();
    queens_lab::plots::write_all(dir, &rows, &[]).unwrap();
    assert!(
        std::fs::read_to_string(dir.join("heat-map.svg"))
            .unwrap()
            .contains("<svg")
    );
}

#[cfg(feature = "plots")]
#[test]
fn a_one_parameter_sweep_over_sizes_plots_a_line_per_setting_with_intervals() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let mut sweep = Experiment::new(
        vec!["optimized-hill-climbing".parse().unwrap()],
        vec![8, 10],
        20,
        1,
    );
    sweep.sweep = vec![("q".into(), vec![3.0, 4.0])];
    let rows = run(&sweep, |_| {}).unwrap();
    let written = queens_lab::plots::write_all(dir, &rows, &[]).unwrap();
    assert!(
        written.contains(&dir.join("success-rate.svg")),
        "{written:?}"
    );
    let svg = std::fs::read_to_string(dir.join("success-rate.svg")).unwrap();
    for line in ["optimized-hill-climbing q=3", "optimized-hill-climbing q=4"] {
        assert!(svg.contains(line), "the legend names {line}");
    }
    assert!(
        svg.contains("95 % intervals"),
        "the title says what the bars are"
    );
    // Each line's two cells have an interval: a bar and two caps, thin, in the line's colour.
    for colour in &queens_lab::plots::LINE_COLOURS[..2] {
        let stroke = format!(
            r##"stroke="#{:02X}{:02X}{:02X}" stroke-width="1""##,
            colour.0, colour.1, colour.2
        );
        assert_eq!(svg.matches(&stroke).count(), 2 * 3, "{stroke}");
    }
}
