//! Every exhaustive solver against an independent oracle: on N = 1..10 with random fixed queens,
//! with blocked squares, on rectangular boards, and replaying the events it emits.
//!
//! The oracle enumerates candidate boards without any pruning and keeps those the core validator
//! accepts; it shares no code with the solvers.

use std::collections::{BTreeSet, HashMap};
use std::ops::ControlFlow;
use std::sync::{Mutex, OnceLock};

use proptest::prelude::*;
use queens_core::solve::{run, run_unobserved};
use queens_core::symmetry::Symmetry;
use queens_core::verify::check_solution;
use queens_core::{Budget, Event, Problem, SolverDescriptor, Square, Verdict};
use queens_exact::{backtracking, brute_force, completion, forward_checking, row_brute_force};

/// The exhaustive solvers of the crate, from the most naive.
const ALL: [&SolverDescriptor; 5] = [
    &brute_force::DESCRIPTOR,
    &row_brute_force::DESCRIPTOR,
    &backtracking::DESCRIPTOR,
    &forward_checking::DESCRIPTOR,
    &completion::DESCRIPTOR,
];

/// Nodes a solver may spend in these tests.
const BUDGET: u64 = 400_000;

type Solutions = Vec<BTreeSet<Square>>;

/// Oracle results by (rows, cols, queens), computed once per test binary.
type SolutionCache = Mutex<HashMap<(u32, u32, u32), &'static Solutions>>;

/// Every solution of `queens` queens on a rows×cols board: all sets of that many distinct squares
/// (one per row and column when queens = rows, to keep N = 10 tractable), filtered by a pairwise
/// check at the leaves — no pruning, nothing shared with the solvers.
fn all_solutions(rows: u32, cols: u32, queens: u32) -> &'static Solutions {
    static CACHE: OnceLock<SolutionCache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(found) = cache.lock().unwrap().get(&(rows, cols, queens)) {
        return found;
    }
    let mut solutions = Vec::new();
    let mut chosen = Vec::new();
    if queens == rows {
        one_per_row(
            rows,
            cols,
            &mut vec![false; cols as usize],
            &mut chosen,
            &mut solutions,
        );
    } else {
        subsets(rows, cols, queens, 0, &mut chosen, &mut solutions);
    }
    let leaked: &'static Solutions = Box::leak(Box::new(solutions));
    cache.lock().unwrap().insert((rows, cols, queens), leaked);
    leaked
}

/// Keeps `chosen` if no two of its queens share a line, compared pair by pair.
fn keep_if_solution(chosen: &[Square], out: &mut Solutions) {
    let peaceful = chosen.iter().enumerate().all(|(i, a)| {
        chosen[i + 1..].iter().all(|b| {
            a.row != b.row && a.col != b.col && a.row.abs_diff(b.row) != a.col.abs_diff(b.col)
        })
    });
    if peaceful {
        out.push(chosen.iter().copied().collect());
    }
}

fn one_per_row(
    rows: u32,
    cols: u32,
    used: &mut [bool],
    chosen: &mut Vec<Square>,
    out: &mut Solutions,
) {
    let row = chosen.len() as u32;
    if row == rows {
        return keep_if_solution(chosen, out);
    }
    for col in 0..cols {
        if !used[col as usize] {
            used[col as usize] = true;
            chosen.push(Square::new(row, col));
            one_per_row(rows, cols, used, chosen, out);
            chosen.pop();
            used[col as usize] = false;
        }
    }
}

fn subsets(
    rows: u32,
    cols: u32,
    queens: u32,
    from: u32,
    chosen: &mut Vec<Square>,
    out: &mut Solutions,
) {
    if chosen.len() == queens as usize {
        return keep_if_solution(chosen, out);
    }
    for index in from..rows * cols {
        chosen.push(Square::new(index / cols, index % cols));
        subsets(rows, cols, queens, index + 1, chosen, out);
        chosen.pop();
    }
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1u64, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// The most nodes `solver` can need on `problem`, if it can be bounded simply.
fn worst_case(solver: &SolverDescriptor, problem: &Problem) -> u64 {
    let free = u64::from(problem.queens()) - problem.fixed().len() as u64;
    let squares =
        u64::from(problem.rows()) * u64::from(problem.cols()) - problem.fixed().len() as u64;
    match solver.name {
        "brute-force" => binomial(squares, free),
        "row-brute-force" => u64::from(problem.cols()).saturating_pow(free as u32),
        // Far below the budget for every board in these tests.
        _ => 0,
    }
}

/// Runs every solver that handles `problem` and checks it against the oracle.
fn check_against_oracle(problem: &Problem) -> Result<(), TestCaseError> {
    let solutions = all_solutions(problem.rows(), problem.cols(), problem.queens());
    let solvable = solutions.iter().any(|s| {
        problem.fixed().iter().all(|q| s.contains(q))
            && problem.blocked().iter().all(|b| !s.contains(b))
    });
    for solver in ALL {
        if solver.check_problem(problem, &solver.defaults()).is_err() {
            continue;
        }
        let mut budget = Budget::unlimited().with_max_nodes(BUDGET);
        let outcome =
            run_unobserved(solver.build_default().as_mut(), problem, &mut budget).unwrap();
        let nodes = outcome.stats.nodes.unwrap();
        match &outcome.verdict {
            Verdict::Solved(board) => {
                prop_assert!(solvable, "{solver} solved an unsolvable {problem:?}");
                prop_assert_eq!(check_solution(problem, board), Ok(()));
                prop_assert!(solutions.contains(&board.queens().collect()));
            }
            Verdict::Unsolvable => {
                prop_assert!(!solvable, "{solver} missed a solution of {problem:?}");
            }
            Verdict::Stopped(_) => {
                prop_assert!(
                    worst_case(solver, problem) > BUDGET,
                    "{solver} stopped on {problem:?}"
                );
                prop_assert_eq!(nodes, BUDGET);
                continue;
            }
        }
        // Deterministic: the same run costs the same nodes.
        let again = run_unobserved(solver.build_default().as_mut(), problem, &mut budget).unwrap();
        prop_assert_eq!(
            again.stats.nodes,
            Some(nodes),
            "{} is not deterministic",
            solver
        );
    }
    Ok(())
}

/// N in 1..=10 with up to three random, mutually peaceful fixed queens.
fn square_problem() -> impl Strategy<Value = Problem> {
    (1u32..=10).prop_flat_map(|n| {
        proptest::collection::vec((0..n, 0..n), 0..=3).prop_filter_map(
            "peaceful fixed queens",
            move |fixed| {
                let fixed = fixed.into_iter().map(|(r, c)| Square::new(r, c)).collect();
                Problem::square(n).unwrap().with_fixed(fixed).ok()
            },
        )
    })
}

/// Boards up to 4×5 with any number of queens and up to two fixed ones.
fn rectangular_problem() -> impl Strategy<Value = Problem> {
    (1u32..=4, 1u32..=5).prop_flat_map(|(rows, cols)| {
        (
            1..=rows.min(cols),
            proptest::collection::vec((0..rows, 0..cols), 0..=2),
        )
            .prop_filter_map("well-formed", move |(queens, fixed)| {
                let fixed = fixed.into_iter().map(|(r, c)| Square::new(r, c)).collect();
                Problem::rectangular(rows, cols)
                    .ok()?
                    .with_queen_count(queens)
                    .ok()?
                    .with_fixed(fixed)
                    .ok()
            })
    })
}

/// Boards up to 8×8 with up to two fixed queens and up to twelve blocked squares.
fn blocked_problem() -> impl Strategy<Value = Problem> {
    (1u32..=8).prop_flat_map(|n| {
        (
            proptest::collection::vec((0..n, 0..n), 0..=2),
            proptest::collection::vec((0..n, 0..n), 0..=12),
        )
            .prop_filter_map(
                "fixed queens off the blocked squares",
                move |(fixed, blocked)| {
                    let squares = |list: Vec<(u32, u32)>| -> Vec<Square> {
                        list.into_iter().map(|(r, c)| Square::new(r, c)).collect()
                    };
                    Problem::square(n)
                        .ok()?
                        .with_blocked(squares(blocked))
                        .ok()?
                        .with_fixed(squares(fixed))
                        .ok()
                },
            )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn every_solver_keeps_off_blocked_squares(problem in blocked_problem()) {
        check_against_oracle(&problem)?;
    }

    #[test]
    fn completions_are_counted_as_the_oracle_finds_them(problem in blocked_problem()) {
        let expected = all_solutions(problem.rows(), problem.cols(), problem.queens())
            .iter()
            .filter(|s| {
                problem.fixed().iter().all(|q| s.contains(q))
                    && problem.blocked().iter().all(|b| !s.contains(b))
            })
            .count() as u128;
        for threads in [1, 2] {
            let count = search_count(&problem, threads);
            prop_assert_eq!(count.stopped, None);
            prop_assert_eq!(count.finished, count.parts);
            prop_assert_eq!(count.counted.completions, expected);
        }
        // The row-by-row count, the search's cross-check, counts the same.
        let rows = completion::count(
            &problem,
            completion::Method::RowByRow,
            &Budget::unlimited(),
            2,
            |_, _| {},
        )
        .expect("an N×N problem");
        prop_assert_eq!(rows.counted.completions, expected);
    }

    /// Positions made symmetric on purpose (a random set of squares and its images under a
    /// random group of symmetries, some placed as queens and the rest blocked) are counted
    /// with their symmetries as the oracle counts them without.
    #[test]
    fn symmetric_positions_are_counted_as_the_oracle_finds_them(
        n in 4u32..=9,
        seeds in proptest::collection::vec((0u32..9, 0u32..9), 0..4),
        group in 0usize..5,
        queens_from in 0usize..3,
    ) {
        let generators: [&[Symmetry]; 5] = [
            &[Symmetry::MirrorFiles],
            &[Symmetry::Rotate180],
            &[Symmetry::Rotate90],
            &[Symmetry::Transpose],
            &[Symmetry::MirrorFiles, Symmetry::MirrorRanks],
        ];
        let mut squares: BTreeSet<Square> = seeds.iter().map(|&(r, c)| Square::new(r % n, c % n)).collect();
        loop {
            let images: BTreeSet<Square> = squares
                .iter()
                .flat_map(|&sq| generators[group].iter().map(move |g| g.apply(sq, n, n)))
                .collect();
            if images.is_subset(&squares) {
                break;
            }
            squares.extend(images);
        }
        // A whole orbit of squares blocked, or placed as queens when they do not attack.
        let squares: Vec<Square> = squares.into_iter().collect();
        let queens: Vec<Square> = squares.iter().copied().take(queens_from).collect();
        let peaceful = queens.iter().enumerate().all(|(i, a)| queens[i + 1..].iter().all(|b| !a.attacks(*b)));
        let (fixed, blocked) = if queens_from > 0 && peaceful && queens.len() == squares.len() {
            (squares, Vec::new())
        } else {
            (Vec::new(), squares)
        };
        let Ok(problem) = Problem::square(n).unwrap().with_blocked(blocked).and_then(|p| p.with_fixed(fixed)) else {
            return Ok(());
        };
        let expected = all_solutions(n, n, n)
            .iter()
            .filter(|s| {
                problem.fixed().iter().all(|q| s.contains(q))
                    && problem.blocked().iter().all(|b| !s.contains(b))
            })
            .count() as u128;
        let count = search_count(&problem, 2);
        prop_assert_eq!(count.counted.completions, expected);
    }

    #[test]
    fn every_solver_agrees_with_exhaustive_search(problem in square_problem()) {
        check_against_oracle(&problem)?;
    }

    #[test]
    fn every_solver_agrees_on_rectangular_boards(problem in rectangular_problem()) {
        check_against_oracle(&problem)?;
    }

    #[test]
    fn finding_all_finds_every_solution_once(problem in square_problem()) {
        check_every_solution_found(&problem)?;
    }

    #[test]
    fn finding_all_keeps_off_blocked_squares(problem in blocked_problem()) {
        check_every_solution_found(&problem)?;
    }

    #[test]
    fn finding_all_on_rectangular_boards(problem in rectangular_problem()) {
        check_every_solution_found(&problem)?;
    }

    #[test]
    fn replaying_the_events_rebuilds_the_solution(problem in square_problem()) {
        for solver in ALL {
            if worst_case(solver, &problem) > BUDGET {
                continue;
            }
            let mut on_board: BTreeSet<Square> = problem.fixed().iter().copied().collect();
            let mut consistent = Ok(());
            let mut replay = |event: &Event<'_>| {
                let ok = match *event {
                    Event::Place { square } => on_board.insert(square),
                    Event::Remove { square } => on_board.remove(&square),
                    Event::Move { from, to } => on_board.remove(&from) && on_board.insert(to),
                    _ => true,
                };
                if !ok && consistent.is_ok() {
                    consistent = Err(format!("{event:?} does not apply"));
                }
                ControlFlow::Continue(())
            };
            let mut budget = Budget::unlimited().with_max_nodes(BUDGET);
            let outcome = run(solver.build_default().as_mut(), &problem, &mut budget, &mut replay).unwrap();
            prop_assert_eq!(consistent, Ok(()), "{}", solver);
            if let Verdict::Solved(board) = &outcome.verdict {
                prop_assert_eq!(&on_board, &board.queens().collect(), "{}", solver);
            }
        }
    }
}

/// Runs every solver that can be asked for every solution (`solutions=0`) or for the first
/// two, replaying its events: each `found` step's board must be a solution of the oracle's, none
/// found twice, in the order a plain run finds its first, and an exhaustive run must find them
/// all and count them in its outcome.
fn check_every_solution_found(problem: &Problem) -> Result<(), TestCaseError> {
    let expected: BTreeSet<BTreeSet<Square>> =
        all_solutions(problem.rows(), problem.cols(), problem.queens())
            .iter()
            .filter(|s| {
                problem.fixed().iter().all(|q| s.contains(q))
                    && problem.blocked().iter().all(|b| !s.contains(b))
            })
            .cloned()
            .collect();
    for solver in ALL {
        if solver.parameter("solutions").is_none()
            || solver.check_problem(problem, &solver.defaults()).is_err()
        {
            continue;
        }
        for wanted in [0.0, 2.0] {
            let params = solver.params(&[("solutions", wanted)]).unwrap();
            let (found, outcome) = found_boards(solver, problem, &params);
            let distinct: BTreeSet<_> = found.iter().cloned().collect();
            prop_assert_eq!(
                distinct.len(),
                found.len(),
                "{} found a solution twice",
                solver
            );
            prop_assert!(
                distinct.is_subset(&expected),
                "{} found a non-solution",
                solver
            );
            prop_assert_eq!(
                outcome.stats.solutions,
                Some(found.len() as u64),
                "{}",
                solver
            );
            match &outcome.verdict {
                Verdict::Stopped(_) => {
                    prop_assert!(worst_case(solver, problem) > BUDGET, "{} stopped", solver);
                    if let Some(first) = found.first() {
                        prop_assert_eq!(
                            &outcome
                                .last
                                .as_ref()
                                .unwrap()
                                .queens()
                                .collect::<BTreeSet<_>>(),
                            first
                        );
                    }
                }
                verdict => {
                    let all = if wanted == 0.0 {
                        expected.len()
                    } else {
                        expected.len().min(2)
                    };
                    prop_assert_eq!(found.len(), all, "{} on {:?}", solver, problem);
                    let first = match verdict {
                        Verdict::Solved(board) => Some(board.queens().collect::<BTreeSet<_>>()),
                        _ => None,
                    };
                    prop_assert_eq!(first.as_ref(), found.first(), "{}", solver);
                }
            }
        }
    }
    Ok(())
}

/// An observer of every event that wants every solution found too
/// ([`queens_core::observe::Observer::wants_solutions`]).
struct WantingSolutions<F>(F);

impl<F: FnMut(&Event<'_>) -> ControlFlow<()>> queens_core::observe::Observer
    for WantingSolutions<F>
{
    fn interest(&self) -> queens_core::Interest {
        queens_core::Interest::ALL
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        (self.0)(event)
    }

    fn wants_solutions(&self) -> bool {
        true
    }
}

/// The boards of a run's `found` steps, replayed from its events, and its outcome; the run's
/// `Found` events, sent with their queens, must list the same boards in the same order.
fn found_boards(
    solver: &SolverDescriptor,
    problem: &Problem,
    params: &queens_core::ParamValues,
) -> (Vec<BTreeSet<Square>>, queens_core::Outcome) {
    let mut on_board: BTreeSet<Square> = problem.fixed().iter().copied().collect();
    let mut found = Vec::new();
    let mut told = Vec::new();
    let mut replay = |event: &Event<'_>| {
        match *event {
            Event::Place { square } => {
                on_board.insert(square);
            }
            Event::Remove { square } => {
                on_board.remove(&square);
            }
            Event::Move { from, to } => {
                on_board.remove(&from);
                on_board.insert(to);
            }
            Event::Step {
                note: Some(queens_core::StepNote::Found { solutions }),
                ..
            } => {
                assert_eq!(
                    solutions,
                    found.len() as u64 + 1,
                    "{solver} counts in order"
                );
                found.push(on_board.clone());
            }
            Event::Found { solution, queens } => {
                assert_eq!(solution, told.len() as u64 + 1, "{solver} numbers in order");
                assert!(
                    queens.is_sorted(),
                    "{solver} sorts a found solution's queens"
                );
                told.push(queens.iter().copied().collect::<BTreeSet<_>>());
            }
            _ => {}
        }
        ControlFlow::Continue(())
    };
    let mut budget = Budget::unlimited().with_max_nodes(BUDGET);
    let outcome = run(
        (solver.build)(0, params).as_mut(),
        problem,
        &mut budget,
        &mut WantingSolutions(&mut replay),
    )
    .unwrap();
    assert_eq!(told, found, "{solver}: the solutions told are those found");
    (found, outcome)
}

/// Every completion of an N×N `problem`, counted by the completion search on `threads` threads.
fn search_count(problem: &Problem, threads: usize) -> completion::CompletionCount {
    completion::count(
        problem,
        completion::Method::Search,
        &Budget::unlimited(),
        threads,
        |_, _| {},
    )
    .expect("an N×N problem")
}

/// With nothing placed or blocked, the completions are the solutions: OEIS A000170.
#[test]
fn completions_of_the_empty_board_are_the_published_counts() {
    let published = [1u128, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
    for (n, &total) in (1u32..).zip(&published) {
        let problem = Problem::square(n).unwrap();
        let count = search_count(&problem, 2);
        assert_eq!(count.counted.completions, total, "N = {n}");
        // The empty board has all eight symmetries; a line keeps at most two of them in place
        // (four for the middle row of an odd board, whose mirror and half turn keep it too).
        if n >= 4 {
            assert!(count.symmetries >= 2, "N = {n}: {}", count.symmetries);
        }
    }
    // Nauck's 1850 position: queens on b4 and d5 of 8×8 complete in two ways.
    let nauck = Problem::square(8)
        .unwrap()
        .with_fixed(vec!["b4".parse().unwrap(), "d5".parse().unwrap()])
        .unwrap();
    let count = search_count(&nauck, 1);
    assert_eq!(count.counted.completions, 2);
    assert_eq!(count.symmetries, 1, "b4 and d5 have no symmetry");
}

/// A count stopped by its budget keeps the parts it finished: a lower bound, told as such.
#[test]
fn a_stopped_count_keeps_what_it_counted() {
    let problem = Problem::square(16)
        .unwrap()
        .with_blocked(vec![Square::new(0, 0)])
        .unwrap();
    let token = queens_core::CancelToken::new();
    let budget = Budget::unlimited().with_cancel(token.clone());
    let parts = std::sync::atomic::AtomicUsize::new(0);
    let count = completion::count(
        &problem,
        completion::Method::Search,
        &budget,
        1,
        |done, _| {
            parts.store(done, std::sync::atomic::Ordering::Relaxed);
            if done == 3 {
                token.cancel();
            }
        },
    )
    .unwrap();
    assert_eq!(count.stopped, Some(queens_core::StopReason::Cancelled));
    assert!(
        count.finished >= 3 && count.finished < count.parts,
        "{count:?}"
    );
    let whole = search_count(&problem, 2);
    assert!(count.counted.completions < whole.counted.completions);
    assert!(count.counted.completions > 0);
}

/// Every locked square of the 6×6 board, for the solvers that finish quickly.
#[test]
fn every_locked_square_of_six_by_six() {
    for row in 0..6 {
        for col in 0..6 {
            let problem = Problem::square(6)
                .unwrap()
                .with_fixed(vec![Square::new(row, col)])
                .unwrap();
            check_against_oracle(&problem).unwrap();
        }
    }
}

#[test]
fn two_and_three_have_no_solution() {
    for n in [2, 3] {
        let problem = Problem::square(n).unwrap();
        for solver in ALL {
            let outcome = run_unobserved(
                solver.build_default().as_mut(),
                &problem,
                &mut Budget::unlimited(),
            )
            .unwrap();
            assert_eq!(outcome.verdict, Verdict::Unsolvable, "{solver} at N = {n}");
        }
    }
}

#[test]
fn oracle_counts_match_the_published_sequence() {
    // OEIS A000170: the oracle itself must be right before it judges anyone.
    for (n, total) in [
        (1, 1),
        (2, 0),
        (3, 0),
        (4, 2),
        (5, 10),
        (6, 4),
        (7, 40),
        (8, 92),
    ] {
        assert_eq!(all_solutions(n, n, n).len(), total, "N = {n}");
    }
}

#[test]
fn an_observer_can_stop_a_run() {
    let problem = Problem::square(8).unwrap();
    let mut placements = 0;
    let mut stop_after_three = |event: &Event<'_>| {
        if matches!(event, Event::Place { .. }) {
            placements += 1;
        }
        if placements == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let outcome = run(
        backtracking::DESCRIPTOR.build_default().as_mut(),
        &problem,
        &mut Budget::unlimited(),
        &mut stop_after_three,
    )
    .unwrap();
    assert_eq!(
        outcome.verdict,
        Verdict::Stopped(queens_core::StopReason::Observer)
    );
}

#[test]
fn a_cancelled_run_stops() {
    let token = queens_core::CancelToken::new();
    token.cancel();
    let problem = Problem::square(8).unwrap();
    let mut budget = Budget::unlimited().with_cancel(token);
    let outcome = run_unobserved(
        brute_force::DESCRIPTOR.build_default().as_mut(),
        &problem,
        &mut budget,
    )
    .unwrap();
    assert_eq!(
        outcome.verdict,
        Verdict::Stopped(queens_core::StopReason::Cancelled)
    );
    assert_eq!(
        outcome.stats.nodes,
        Some(0),
        "stopped before the first node"
    );
}
