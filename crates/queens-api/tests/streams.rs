//! Every solver's event stream replays to its board: `started` carries every queen at the
//! start, and place, remove and move events from there always give the solver's current board —
//! the final one equal to the validated solution.

use std::collections::BTreeSet;
use std::ops::ControlFlow;

use queens_api::{Catalogue, SolverKind};
use queens_core::{Budget, Event, Observer, Problem, Square, solve::run};

#[test]
fn every_stream_replays_to_the_solution() {
    for solver in Catalogue::standard().solvers() {
        for (n, fixed) in [(8, vec![]), (8, vec![Square::new(0, 3)])] {
            let problem = Problem::square(n)
                .unwrap()
                .with_fixed(fixed.clone())
                .unwrap();
            let params = solver.defaults();
            if solver.check(&problem, &params).is_err() {
                continue;
            }
            for seed in 1..=3 {
                let mut board: Option<BTreeSet<Square>> = None;
                let mut problems: Vec<String> = Vec::new();
                let mut solution: Option<BTreeSet<Square>> = None;
                let mut replay = |event: &Event<'_>| {
                    match *event {
                        Event::Started { board: start, .. } => {
                            assert!(board.is_none(), "{solver}: started twice");
                            board = Some(start.iter().copied().collect());
                        }
                        Event::Place { square } => {
                            let on = board.as_mut().expect("started first");
                            if !on.insert(square) {
                                problems.push(format!("place on occupied {square}"));
                            }
                        }
                        Event::Remove { square } => {
                            let on = board.as_mut().expect("started first");
                            if !on.remove(&square) {
                                problems.push(format!("remove from empty {square}"));
                            }
                        }
                        Event::Move { from, to } => {
                            let on = board.as_mut().expect("started first");
                            if !on.remove(&from) || !on.insert(to) {
                                problems.push(format!("move {from} → {to}"));
                            }
                        }
                        Event::Solution { ref queens } => {
                            solution = Some(queens.0.queens().collect());
                        }
                        _ => {}
                    }
                    ControlFlow::Continue(())
                };
                let mut budget = Budget::unlimited()
                    .with_max_nodes(10_000_000)
                    .with_max_iterations(
                        solver.default_max_iterations(&problem).unwrap_or(1_000_000),
                    );
                let outcome = run(
                    solver.build(seed, &params).as_mut(),
                    &problem,
                    &mut budget,
                    &mut replay,
                )
                .unwrap();
                assert!(problems.is_empty(), "{solver} seed {seed}: {problems:?}");
                let board = board.expect("a started event");
                for queen in &fixed {
                    assert!(
                        board.contains(queen) || outcome.solution().is_none(),
                        "{solver}"
                    );
                }
                if let Some(solution) = solution {
                    assert_eq!(board, solution, "{solver} seed {seed} {fixed:?}");
                }
            }
        }
    }
}

/// Runs `solver` with its default parameters and `seed` for at most 1,000 steps, every event
/// to `observer`.
fn thousand_steps(solver: SolverKind, seed: u64, problem: &Problem, observer: &mut dyn Observer) {
    let mut budget = Budget::unlimited().with_max_iterations(1000);
    let mut solver = solver.build(seed, &solver.defaults());
    run(solver.as_mut(), problem, &mut budget, observer).unwrap();
}

#[test]
fn a_local_search_starts_with_a_full_board() {
    let solver = Catalogue::standard().get("hill-climbing").unwrap();
    let problem = Problem::square(8).unwrap();
    let mut start = 0;
    let mut count = |event: &Event<'_>| {
        if let Event::Started { board, .. } = event {
            start = board.len();
        }
        ControlFlow::Continue(())
    };
    thousand_steps(solver, 1, &problem, &mut count);
    assert_eq!(start, 8);
}

/// A `Step` comes after its own moves: at every step of the local searches the replayed board's
/// attacking pairs are what the step's score says.
#[test]
fn each_step_scores_the_board_replayed_up_to_it() {
    use queens_core::verify::verify;
    for name in [
        "hill-climbing",
        "optimized-hill-climbing",
        "simulated-annealing",
        "optimized-random-search",
        "min-conflicts-minton",
    ] {
        let solver = Catalogue::standard().get(name).unwrap();
        let problem = Problem::square(8).unwrap();
        let max_score = 8 * 7 / 2;
        let mut board: BTreeSet<Square> = BTreeSet::new();
        let mut steps = 0;
        let mut check = |event: &Event<'_>| {
            match *event {
                Event::Started { board: start, .. } => board = start.iter().copied().collect(),
                Event::Move { from, to } => {
                    board.remove(&from);
                    board.insert(to);
                }
                Event::Step { score, .. } => {
                    let queens = board.iter().copied().collect();
                    let pairs = verify(&queens_core::Board::with_queens(8, 8, queens).unwrap())
                        .conflict_count() as i64;
                    let expected = if name == "min-conflicts-minton" {
                        -pairs
                    } else {
                        max_score - pairs
                    };
                    assert_eq!(score, expected, "{name} step {steps}");
                    steps += 1;
                }
                _ => {}
            }
            ControlFlow::Continue(())
        };
        thousand_steps(solver, 4, &problem, &mut check);
        assert!(steps > 0, "{name}");
    }
}
