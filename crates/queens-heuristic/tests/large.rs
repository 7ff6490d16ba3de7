//! The scalable solvers against the independent validator: every answer is a solution, runs are
//! reproducible, fixed queens survive repair, and an impossible request stops within budget.

use proptest::prelude::*;
use queens_core::verify::check_solution;
use queens_core::{Budget, Problem, Square, StopReason, Verdict, solve::run_unobserved};
use queens_heuristic::{Construct, MinConflicts, construction};

fn solve(problem: &Problem, seed: u64) -> Verdict {
    let mut budget = Budget::unlimited().with_max_iterations(50_000_000);
    run_unobserved(&mut MinConflicts::new(seed), problem, &mut budget)
        .unwrap()
        .verdict
}

fn assert_solves(problem: &Problem, seed: u64) {
    match solve(problem, seed) {
        Verdict::Solved(board) => assert_eq!(check_solution(problem, &board), Ok(())),
        other => panic!("N = {} seed {seed}: {other:?}", problem.rows()),
    }
}

#[test]
fn min_conflicts_solves_many_sizes_and_seeds() {
    for n in (4..=64).chain([100, 257, 1000]) {
        for seed in 0..6 {
            assert_solves(&Problem::square(n).unwrap(), seed);
        }
    }
    for n in [10_000, 100_000] {
        for seed in 0..3 {
            assert_solves(&Problem::square(n).unwrap(), seed);
        }
    }
    assert_solves(&Problem::square(1_000_000).unwrap(), 42);
    assert_solves(&Problem::square(1).unwrap(), 0);
}

/// The test's own check, sharing no code with the validator: the rows are a permutation, and
/// the sums and the differences of row and column, each sorted, hold no repeat.
fn peaceful_by_sorting(rows: &[u32]) -> Result<(), String> {
    let mut sorted = rows.to_vec();
    sorted.sort_unstable();
    if sorted
        .iter()
        .zip(0..)
        .any(|(&row, expected)| row != expected)
    {
        return Err("the rows are not a permutation".into());
    }
    for (name, key) in [
        (
            "rising",
            (|row: i64, col: i64| col - row) as fn(i64, i64) -> i64,
        ),
        ("falling", |row, col| col + row),
    ] {
        let mut keys: Vec<i64> = (0..)
            .zip(rows)
            .map(|(col, &row)| key(i64::from(row), col))
            .collect();
        keys.sort_unstable();
        if let Some(&[key, _]) = keys.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(format!("two queens on the {name} diagonal {key}"));
        }
    }
    Ok(())
}

#[test]
fn ten_million_queens_pass_the_tests_own_check() {
    let problem = Problem::square(10_000_000).unwrap();
    let outcome = run_unobserved(
        &mut MinConflicts::new(7),
        &problem,
        &mut Budget::unlimited(),
    )
    .unwrap();
    let Verdict::Solved(board) = outcome.verdict else {
        panic!("{:?}", outcome.verdict)
    };
    let rows = board.permutation().expect("a queen in every column");
    assert_eq!(peaceful_by_sorting(&rows), Ok(()));
    // The check can fail: a repeated row, and queens all on one diagonal.
    let mut repeated = rows.into_owned();
    repeated[1] = repeated[0];
    assert!(peaceful_by_sorting(&repeated).is_err());
    let diagonal: Vec<u32> = (0..1000).collect();
    assert_eq!(
        peaceful_by_sorting(&diagonal),
        Err("two queens on the rising diagonal 0".into())
    );
}

#[test]
fn two_and_three_are_unsolvable() {
    for n in [2, 3] {
        assert_eq!(solve(&Problem::square(n).unwrap(), 0), Verdict::Unsolvable);
        let outcome = run_unobserved(
            &mut Construct,
            &Problem::square(n).unwrap(),
            &mut Budget::unlimited(),
        )
        .unwrap();
        assert_eq!(outcome.verdict, Verdict::Unsolvable);
        assert!(construction(n).is_none());
    }
}

#[test]
fn the_same_seed_gives_the_same_board() {
    let problem = Problem::square(5000).unwrap();
    assert_eq!(solve(&problem, 9), solve(&problem, 9));
    assert_ne!(
        solve(&problem, 9),
        solve(&problem, 10),
        "different seeds explore differently"
    );
}

/// N×N with a queen fixed on a1.
fn fixed_on_a1(n: u32) -> Problem {
    Problem::square(n)
        .and_then(|problem| problem.with_fixed(vec![Square::new(0, 0)]))
        .unwrap()
}

#[test]
fn an_impossible_request_stops_within_its_budget() {
    // a1 is in no 4-queens solution: local search cannot prove it, so it must stop.
    let problem = fixed_on_a1(4);
    let mut budget = Budget::unlimited().with_max_iterations(10_000);
    let outcome = run_unobserved(&mut MinConflicts::new(1), &problem, &mut budget).unwrap();
    assert_eq!(
        outcome.verdict,
        Verdict::Stopped(StopReason::IterationLimit(10_000))
    );
}

#[test]
fn construct_refuses_fixed_queens_and_rectangles() {
    let fixed = fixed_on_a1(8);
    assert!(run_unobserved(&mut Construct, &fixed, &mut Budget::unlimited()).is_err());
    let rectangle = Problem::rectangular(8, 9).unwrap();
    assert!(run_unobserved(&mut Construct, &rectangle, &mut Budget::unlimited()).is_err());
}

/// N in 20..3000, up to 12 queens fixed where a known solution has them (so a solution exists).
fn problem_with_fixed_queens() -> impl Strategy<Value = (Problem, u64)> {
    (
        20u32..3000,
        proptest::collection::vec(any::<prop::sample::Index>(), 0..=12),
        any::<u64>(),
    )
        .prop_map(|(n, picks, seed)| {
            let rows: Vec<u32> = construction(n).unwrap().collect();
            let mut fixed: Vec<Square> = picks
                .iter()
                .map(|pick| {
                    let col = pick.index(n as usize);
                    Square::new(rows[col], col as u32)
                })
                .collect();
            fixed.sort_unstable();
            fixed.dedup();
            (Problem::square(n).unwrap().with_fixed(fixed).unwrap(), seed)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn fixed_queens_survive_repair((problem, seed) in problem_with_fixed_queens()) {
        match solve(&problem, seed) {
            // check_solution also checks that every fixed queen is on the board.
            Verdict::Solved(board) => prop_assert_eq!(check_solution(&problem, &board), Ok(())),
            other => prop_assert!(false, "{:?}", other),
        }
    }
}

mod minton {
    use queens_core::verify::check_solution;
    use queens_core::{Budget, Problem, Square, Verdict, solve::run_unobserved};
    use queens_heuristic::{MinConflictsMinton, construction};

    fn solve(problem: &Problem, seed: u64) -> (Verdict, u64) {
        let mut budget = Budget::unlimited().with_max_iterations(100_000);
        let outcome =
            run_unobserved(&mut MinConflictsMinton::new(seed), problem, &mut budget).unwrap();
        (outcome.verdict, outcome.stats.iterations.unwrap())
    }

    #[test]
    fn it_repairs_large_boards_in_few_steps() {
        // Minton et al. report about 50 repairs from a greedy start, whatever N.
        for seed in 0..5 {
            let problem = Problem::square(1000).unwrap();
            let (verdict, iterations) = solve(&problem, seed);
            match verdict {
                Verdict::Solved(board) => assert_eq!(check_solution(&problem, &board), Ok(())),
                other => panic!("seed {seed}: {other:?}"),
            }
            assert!(iterations < 1000, "seed {seed}: {iterations} iterations");
        }
        let small: usize = (0..50)
            .filter(|&seed| {
                matches!(
                    solve(&Problem::square(8).unwrap(), seed).0,
                    Verdict::Solved(_)
                )
            })
            .count();
        assert!(small >= 40, "{small} of 50 at N = 8");
    }

    #[test]
    fn fixed_queens_stay_and_runs_reproduce() {
        let rows: Vec<u32> = construction(200).unwrap().collect();
        let fixed: Vec<Square> = [3usize, 50, 120, 199]
            .iter()
            .map(|&c| Square::new(rows[c], c as u32))
            .collect();
        let problem = Problem::square(200).unwrap().with_fixed(fixed).unwrap();
        for seed in 0..5 {
            let (verdict, _) = solve(&problem, seed);
            let Verdict::Solved(board) = verdict else {
                panic!("seed {seed}")
            };
            assert_eq!(
                check_solution(&problem, &board),
                Ok(()),
                "fixed queens present, peaceful"
            );
        }
        assert_eq!(solve(&problem, 7), solve(&problem, 7));
    }
}

#[test]
fn small_boards_do_not_trap_the_repair() {
    // Swap repair alone was trapped on about a quarter of the seeds at N = 6 (a basin that
    // kicks of one queen do not leave); a shake after a run of kicks gets out.
    for n in 4..=12 {
        for seed in 0..40 {
            let problem = Problem::square(n).unwrap();
            let mut budget = Budget::unlimited().with_max_iterations(1_000_000);
            let outcome =
                run_unobserved(&mut MinConflicts::new(seed), &problem, &mut budget).unwrap();
            match outcome.verdict {
                Verdict::Solved(board) => assert_eq!(check_solution(&problem, &board), Ok(())),
                other => panic!("N = {n} seed {seed}: {other:?}"),
            }
        }
    }
}
