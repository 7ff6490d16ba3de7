//! The local-search family against the original's measured success rates, in binomial windows,
//! and against the validator.

use queens_core::{
    Budget, Outcome, Problem, SolveError, StopReason, Verdict, solve::run_unobserved,
};
use queens_heuristic::local::{AnnealingParams, DecayParams, ShakeParams, StallParams};
use queens_heuristic::{LocalSearch, LocalSearchKind, LocalSearchParams};

/// The family's iteration cap, the original's.
const CAP: u64 = 1000;

/// One run of `kind` seeded with `seed`, with `params`, under the family's cap.
fn run_member(
    kind: LocalSearchKind,
    seed: u64,
    params: LocalSearchParams,
    problem: &Problem,
) -> Result<Outcome, SolveError> {
    run_capped(kind, seed, params, problem, CAP)
}

/// One run of `kind` seeded with `seed`, with `params`, under a cap of `cap` iterations.
fn run_capped(
    kind: LocalSearchKind,
    seed: u64,
    params: LocalSearchParams,
    problem: &Problem,
    cap: u64,
) -> Result<Outcome, SolveError> {
    run_unobserved(
        &mut LocalSearch::new(kind, seed, params),
        problem,
        &mut Budget::unlimited().with_max_iterations(cap),
    )
}

/// Successes of `runs` runs of `kind` on N×N, seeds 0.., validated by the executor.
fn successes(kind: LocalSearchKind, n: u32, runs: u64) -> u64 {
    let problem = Problem::square(n).unwrap();
    (0..runs)
        .filter(|&seed| {
            let outcome = run_member(kind, seed, LocalSearchParams::default(), &problem)
                .expect("every board returned passes the validator");
            outcome.solution().is_some()
        })
        .count() as u64
}

/// Whether `ours` of `runs` is within 3.5 standard errors of the original's rate `original`
/// (measured over 100 runs), both samples' errors combined.
fn within_window(ours: u64, runs: u64, original: f64) -> (bool, f64, f64) {
    let p = original.clamp(0.01, 0.99);
    let error = (p * (1.0 - p) / 100.0 + p * (1.0 - p) / runs as f64).sqrt();
    let (low, high) = (original - 3.5 * error, original + 3.5 * error);
    let rate = ours as f64 / runs as f64;
    (rate >= low && rate <= high, low, high)
}

#[test]
fn success_rates_at_eight_match_the_original() {
    use LocalSearchKind::{
        HillClimbing, HillClimbingConstantShake, HillClimbingDecayingShake, OptimizedHillClimbing,
        OptimizedRandomSearch, RandomSearch, SimulatedAnnealing,
    };
    let runs = 400;
    for (kind, original) in [
        (RandomSearch, 0.02),
        (OptimizedRandomSearch, 0.96),
        (SimulatedAnnealing, 0.73),
        (HillClimbing, 0.14),
        (HillClimbingConstantShake, 1.00),
        (HillClimbingDecayingShake, 1.00),
        (OptimizedHillClimbing, 1.00),
    ] {
        let ours = successes(kind, 8, runs);
        let (inside, low, high) = within_window(ours, runs, original);
        assert!(
            inside,
            "{kind}: {ours}/{runs}, original {original}, window [{low:.3}, {high:.3}]"
        );
    }
}

#[test]
fn optimized_hill_climbing_at_thirty_two_matches_the_original() {
    let runs = 100;
    let ours = successes(LocalSearchKind::OptimizedHillClimbing, 32, runs);
    let (inside, low, high) = within_window(ours, runs, 0.98);
    assert!(inside, "{ours}/{runs}, window [{low:.3}, {high:.3}]");
}

#[test]
fn a_seed_reproduces_its_run() {
    let problem = Problem::square(12).unwrap();
    for kind in LocalSearchKind::ALL {
        let params = LocalSearchParams::default();
        let first = run_member(kind, 5, params, &problem).unwrap();
        let again = run_member(kind, 5, params, &problem).unwrap();
        assert_eq!(
            (first.verdict, first.stats.iterations),
            (again.verdict, again.stats.iterations),
            "{kind}"
        );
    }
}

#[test]
fn bad_parameters_and_shapes_are_errors() {
    use LocalSearchKind::{
        HillClimbing, HillClimbingConstantShake, HillClimbingDecayingShake, OptimizedHillClimbing,
        SimulatedAnnealing,
    };
    let problem = Problem::square(8).unwrap();
    let defaults = LocalSearchParams::default();
    for (kind, params) in [
        (
            HillClimbingConstantShake,
            LocalSearchParams {
                shake: ShakeParams {
                    p: 1.5,
                    ..defaults.shake
                },
                ..defaults
            },
        ),
        (
            HillClimbingDecayingShake,
            LocalSearchParams {
                decay: DecayParams { decay: -0.1 },
                ..defaults
            },
        ),
        (
            HillClimbingConstantShake,
            LocalSearchParams {
                shake: ShakeParams {
                    q: 9,
                    ..defaults.shake
                },
                ..defaults
            },
        ),
        (
            OptimizedHillClimbing,
            LocalSearchParams {
                stall: StallParams { q: 0 },
                ..defaults
            },
        ),
        (
            SimulatedAnnealing,
            LocalSearchParams {
                annealing: AnnealingParams {
                    temperature: -1.0,
                    ..defaults.annealing
                },
                ..defaults
            },
        ),
    ] {
        let result = run_member(kind, 1, params, &problem);
        assert!(result.is_err(), "{kind}: {params:?}");
    }
    // A parameter a member does not use is not checked against it.
    let unused = LocalSearchParams {
        stall: StallParams { q: 0 },
        ..defaults
    };
    assert!(run_member(HillClimbing, 1, unused, &problem).is_ok());
    let fixed = problem.with_fixed(vec!["a1".parse().unwrap()]).unwrap();
    assert!(run_member(HillClimbing, 1, defaults, &fixed).is_err());
}

#[test]
fn the_cap_counts_loop_entries() {
    // N = 2 has no solution: every member but plain hill climbing stops at the cap with cap
    // moves made; the plain climber stops on its first local optimum, before the cap.
    let problem = Problem::square(2).unwrap();
    for kind in LocalSearchKind::ALL {
        let params = LocalSearchParams {
            stall: StallParams { q: 2 },
            ..LocalSearchParams::default()
        };
        let outcome = run_capped(kind, 1, params, &problem, 10).unwrap();
        assert!(outcome.solution().is_none(), "{kind}");
        if kind == LocalSearchKind::HillClimbing {
            assert_eq!(outcome.verdict, Verdict::Stopped(StopReason::LocalOptimum));
            assert!(outcome.stats.iterations.unwrap() < 10, "{outcome:?}");
        } else {
            assert_eq!(outcome.stats.iterations, Some(10), "{kind}");
        }
    }
}

/// Plain hill climbing stops where no single move improves the score, saying so, as the
/// original did ("we stop when there is no better move"); it does not idle to the cap.
#[test]
fn plain_hill_climbing_stops_on_its_first_local_optimum() {
    let problem = Problem::square(8).unwrap();
    let mut stuck = 0;
    for seed in 0..30 {
        let outcome = run_member(
            LocalSearchKind::HillClimbing,
            seed,
            LocalSearchParams::default(),
            &problem,
        )
        .unwrap();
        if outcome.solution().is_some() {
            continue;
        }
        stuck += 1;
        assert_eq!(
            outcome.verdict,
            Verdict::Stopped(StopReason::LocalOptimum),
            "seed {seed}"
        );
        // It climbs at most one step a score point (28 pairs at most on 8×8), then the one step
        // that found no better move.
        let steps = outcome.stats.iterations.unwrap();
        assert!(steps <= 29, "seed {seed}: {steps} steps");
        // Where it stopped, no single move improves the score.
        let rows = outcome
            .last
            .as_ref()
            .unwrap()
            .permutation()
            .unwrap()
            .into_owned();
        let score = |rows: &[u32]| {
            let attacks = |a: usize, b: usize| {
                rows[a] == rows[b] || rows[a].abs_diff(rows[b]) as usize == a.abs_diff(b)
            };
            (0..8)
                .flat_map(|a| (a + 1..8).map(move |b| (a, b)))
                .filter(|&(a, b)| !attacks(a, b))
                .count()
        };
        let here = score(&rows);
        for col in 0..8 {
            for row in 0..8 {
                let mut moved = rows.clone();
                moved[col] = row;
                assert!(
                    score(&moved) <= here,
                    "seed {seed}: moving column {col} to row {row} improves"
                );
            }
        }
    }
    assert!(
        stuck >= 15,
        "most runs of 8×8 end on a local optimum: {stuck} of 30"
    );
}

/// The step driver's one rule for every search it runs, and min-conflicts' own: under a cap of K
/// iterations, a run that does not finish takes K steps, reports K, and sends one step event
/// for each, numbered from 1.
#[test]
fn every_driven_search_counts_its_iterations_alike() {
    use std::ops::ControlFlow;

    use queens_core::{Event, StopReason, Verdict, solve::run};
    use queens_heuristic::{electric, genetic, min_conflicts, minton};

    // A board none of them solves in nine steps from its seed's start.
    let problem = Problem::square(40).unwrap();
    let mut searches: Vec<_> = LocalSearchKind::ALL
        .map(LocalSearchKind::descriptor)
        .to_vec();
    searches.extend([
        &minton::DESCRIPTOR,
        &genetic::DESCRIPTOR,
        &electric::DESCRIPTOR,
        &min_conflicts::DESCRIPTOR,
    ]);
    for descriptor in searches {
        for cap in [1, 2, 10] {
            let mut numbers = Vec::new();
            let mut steps = |event: &Event<'_>| {
                if let Event::Step { iteration, .. } = event {
                    numbers.push(*iteration);
                }
                ControlFlow::Continue(())
            };
            let mut budget = Budget::unlimited().with_max_iterations(cap);
            let mut solver = descriptor.build_default();
            let outcome = run(solver.as_mut(), &problem, &mut budget, &mut steps).unwrap();
            let name = descriptor.name;
            let cut = Verdict::Stopped(StopReason::IterationLimit(cap));
            assert_eq!(outcome.verdict, cut, "{name} under a cap of {cap}");
            assert_eq!(outcome.stats.iterations, Some(cap), "{name}");
            assert_eq!(numbers, (1..=cap).collect::<Vec<_>>(), "{name}");
        }
    }
}

mod genetic {
    use queens_core::verify::check_solution;
    use queens_core::{Budget, Problem, Verdict, solve::run_unobserved};
    use queens_heuristic::{Genetic, GeneticParams};

    fn outcome(problem: &Problem, seed: u64) -> Verdict {
        run_unobserved(
            &mut Genetic::new(seed, GeneticParams::default()),
            problem,
            &mut Budget::unlimited().with_max_iterations(1000),
        )
        .unwrap()
        .verdict
    }

    #[test]
    fn it_solves_square_and_rectangular_boards() {
        for problem in [
            Problem::square(8).unwrap(),
            Problem::rectangular(6, 9)
                .unwrap()
                .with_queen_count(6)
                .unwrap(),
            Problem::square(10).unwrap().with_queen_count(7).unwrap(),
        ] {
            let solved = (0..20)
                .filter_map(|seed| match outcome(&problem, seed) {
                    Verdict::Solved(board) => Some(board),
                    _ => None,
                })
                .inspect(|board| assert_eq!(check_solution(&problem, board), Ok(())))
                .count();
            // At N = 8 the defaults solve about 70 % of runs (sweep in the module docs).
            assert!(solved >= 5, "{problem:?}: {solved} of 20");
        }
    }

    #[test]
    fn a_seed_reproduces_its_run() {
        let problem = Problem::square(8).unwrap();
        assert_eq!(outcome(&problem, 3), outcome(&problem, 3));
    }

    #[test]
    fn bad_parameters_are_errors() {
        let problem = Problem::square(8).unwrap();
        let mut bad = [GeneticParams::default(); 4];
        bad[0].population = 0;
        bad[1].tournament = 0;
        bad[2].elite = 200;
        bad[3].mutation = 1.5;
        for params in bad {
            assert!(
                run_unobserved(
                    &mut Genetic::new(1, params),
                    &problem,
                    &mut Budget::unlimited()
                )
                .is_err(),
                "{params:?}"
            );
        }
    }
}

/// Every heuristic that stops before a solution keeps the board it ended on, N queens one a
/// column, so that a learner sees where it got stuck; a solution keeps none besides itself.
#[test]
fn a_stopped_heuristic_keeps_the_board_it_ended_on() {
    use queens_core::Verdict;
    let problem = Problem::square(40).unwrap();
    for descriptor in [
        &queens_heuristic::local::HILL_CLIMBING,
        &queens_heuristic::local::SIMULATED_ANNEALING,
        &queens_heuristic::min_conflicts::DESCRIPTOR,
        &queens_heuristic::minton::DESCRIPTOR,
        &queens_heuristic::genetic::DESCRIPTOR,
        &queens_heuristic::electric::DESCRIPTOR,
    ] {
        let mut budget = Budget::unlimited().with_max_iterations(2);
        let outcome =
            run_unobserved(descriptor.build_default().as_mut(), &problem, &mut budget).unwrap();
        assert!(
            matches!(outcome.verdict, Verdict::Stopped(_)),
            "{}",
            descriptor.name
        );
        let last = outcome
            .last
            .as_ref()
            .unwrap_or_else(|| panic!("{} kept no board", descriptor.name));
        assert_eq!(last.queen_count(), 40, "{}", descriptor.name);
        assert!(outcome.board().is_some());
    }
    let solved = run_unobserved(
        queens_heuristic::min_conflicts::DESCRIPTOR
            .build_default()
            .as_mut(),
        &problem,
        &mut Budget::unlimited(),
    )
    .unwrap();
    assert!(solved.solution().is_some() && solved.last.is_none());
}
