//! The solvers' step notes agree with the moves of their steps: a taken proposal is its move
//! and a refused one moves nothing, a stuck climber moves nothing and a climb one queen, a shake
//! or a restart at most its queens, a taken swap trades two rows, a push moves each queen one
//! square along the force reported on it, a repair goes to a least-conflicted row, a generation
//! tells its population; and being observed changes nothing of a run.

use std::ops::ControlFlow;

use queens_core::{
    Budget, Event, NoObserver, Outcome, Problem, Solver, Square, StepNote, solve::run,
};
use queens_heuristic::{
    ElectricForce, ElectricParams, Genetic, GeneticParams, LocalSearch, LocalSearchKind,
    LocalSearchParams, MinConflicts, MinConflictsMinton, MinConflictsParams,
};

/// A reported step: its score, its note, the moves made since the step before, the forces
/// reported with them (queen, along the files, along the ranks) and the board before them.
struct NotedStep {
    score: i64,
    note: StepNote,
    moves: Vec<(Square, Square)>,
    forces: Vec<(Square, f64, f64)>,
    before: Vec<Square>,
}

/// A run of the solver `make` builds, on `problem` capped at `cap` iterations, observed: every
/// step (each must carry a note) and the outcome. The same run unobserved must end the same way.
fn observed<S: Solver>(
    make: impl Fn() -> S,
    problem: &Problem,
    cap: u64,
) -> (Vec<NotedStep>, Outcome) {
    let mut steps = Vec::new();
    let (mut moves, mut forces) = (Vec::new(), Vec::new());
    // The board as the events tell it, and as it stood at the last step.
    let (mut board, mut before) = (Vec::new(), Vec::new());
    let outcome = {
        let mut observer = |event: &Event<'_>| {
            match event {
                Event::Started { board: start, .. } => {
                    board = start.to_vec();
                    before.clone_from(&board);
                }
                Event::Place { square } => board.push(*square),
                Event::Remove { square } => board.retain(|q| q != square),
                Event::Move { from, to } => {
                    moves.push((*from, *to));
                    board.retain(|q| q != from);
                    board.push(*to);
                }
                Event::Force { queen, col, row } => forces.push((*queen, *col, *row)),
                Event::Step { score, note, .. } => steps.push(NotedStep {
                    score: *score,
                    note: note.expect("every step is noted"),
                    moves: std::mem::take(&mut moves),
                    forces: std::mem::take(&mut forces),
                    before: std::mem::replace(&mut before, board.clone()),
                }),
                _ => {}
            }
            ControlFlow::Continue(())
        };
        let budget = &mut Budget::unlimited().with_max_iterations(cap);
        run(&mut make(), problem, budget, &mut observer).unwrap()
    };
    let budget = &mut Budget::unlimited().with_max_iterations(cap);
    let quiet = run(&mut make(), problem, budget, &mut NoObserver).unwrap();
    assert_eq!(outcome.stats.iterations, quiet.stats.iterations);
    assert_eq!(outcome.solution(), quiet.solution());
    (steps, outcome)
}

/// One run of the family member `kind` on N×N with `seed`, capped at 300 iterations: each
/// step's note with its moves.
fn noted_run(kind: LocalSearchKind, n: u32, seed: u64) -> Vec<(StepNote, Vec<(Square, Square)>)> {
    let params = LocalSearchParams::default();
    let problem = Problem::square(n).unwrap();
    let (steps, _) = observed(|| LocalSearch::new(kind, seed, params), &problem, 300);
    steps
        .into_iter()
        .map(|step| (step.note, step.moves))
        .collect()
}

/// Asserts that each count is above zero, naming them all if one is not.
macro_rules! all_seen {
    ($($count:ident),+) => {
        assert!(
            [$($count),+].iter().all(|&seen| seen > 0),
            concat!($(stringify!($count), " {}; "),+),
            $($count),+
        )
    };
}

#[test]
fn annealing_proposals_are_the_moves_taken_and_the_chances_told() {
    let (mut refused, mut worse_taken) = (0, 0);
    for seed in 0..20 {
        for (note, moves) in noted_run(LocalSearchKind::SimulatedAnnealing, 8, seed) {
            let StepNote::Proposal {
                from,
                to,
                loss,
                probability,
                temperature,
                taken,
            } = note
            else {
                panic!("annealing notes proposals, not {note:?}");
            };
            assert_eq!(from.col, to.col, "a queen moves within its column");
            if loss <= 0 {
                assert!((probability - 1.0).abs() < f64::EPSILON, "{probability}");
                assert!(taken, "a move no worse is always taken");
            } else {
                let expected = (-(loss as f64) / temperature).exp();
                assert!(
                    (probability - expected).abs() < 1e-12,
                    "{probability} against {expected}"
                );
                if taken {
                    worse_taken += 1;
                } else {
                    refused += 1;
                }
            }
            let moved = if taken && from != to {
                vec![(from, to)]
            } else {
                Vec::new()
            };
            assert_eq!(moves, moved, "{note:?}");
        }
    }
    all_seen!(refused, worse_taken);
}

#[test]
fn climbers_say_what_they_gained_and_when_they_are_stuck_shaken_or_restarted() {
    let (mut climbed, mut stuck, mut shaken, mut restarted) = (0, 0, 0, 0);
    for kind in [
        LocalSearchKind::HillClimbing,
        LocalSearchKind::HillClimbingConstantShake,
        LocalSearchKind::HillClimbingDecayingShake,
        LocalSearchKind::OptimizedHillClimbing,
    ] {
        for seed in 0..10 {
            let problem = Problem::square(8).unwrap();
            let params = LocalSearchParams::default();
            let (steps, _) = observed(|| LocalSearch::new(kind, seed, params), &problem, 300);
            let mut previous_score = None;
            for NotedStep {
                score, note, moves, ..
            } in steps
            {
                match note {
                    StepNote::Climbed { gain } => {
                        assert_eq!(moves.len(), 1, "{kind:?}");
                        assert!(gain >= 1, "{kind:?}: a climb gains");
                        // What the climb gained is the score's change since the step before.
                        if let Some(previous) = previous_score {
                            assert_eq!(score - previous, gain, "{kind:?} seed {seed}");
                        }
                        climbed += 1;
                    }
                    StepNote::Stuck => {
                        assert!(moves.is_empty(), "{kind:?}");
                        stuck += 1;
                    }
                    StepNote::Shake {
                        queens,
                        probability,
                    } => {
                        assert!(
                            moves.len() <= queens as usize && probability > 0.0,
                            "{kind:?}"
                        );
                        shaken += 1;
                    }
                    StepNote::Restart { queens } => {
                        assert!(moves.len() <= queens as usize, "{kind:?}");
                        restarted += 1;
                    }
                    other => panic!("{kind:?} notes {other:?}"),
                }
                previous_score = Some(score);
            }
        }
    }
    all_seen!(climbed, stuck, shaken, restarted);
}

#[test]
fn random_searches_say_what_they_threw_and_kept() {
    for seed in 0..5 {
        for (note, _) in noted_run(LocalSearchKind::RandomSearch, 8, seed) {
            assert_eq!(note, StepNote::Thrown);
        }
        for (note, moves) in noted_run(LocalSearchKind::OptimizedRandomSearch, 8, seed) {
            let StepNote::Tried { kept, undone } = note else {
                panic!("optimized random search notes tries, not {note:?}");
            };
            assert_eq!(kept + undone, 8);
            assert!(moves.len() <= kept as usize);
        }
    }
}

#[test]
fn genetic_generations_tell_their_population() {
    let problem = Problem::square(8).unwrap();
    let params = GeneticParams::default();
    let (steps, _) = observed(|| Genetic::new(4, params), &problem, 200);
    assert!(!steps.is_empty());
    let mut spread = false;
    for NotedStep { score, note, .. } in steps {
        let StepNote::Generation {
            size,
            best,
            mean,
            worst,
        } = note
        else {
            panic!("genetic notes generations, not {note:?}");
        };
        assert_eq!((size, best), (params.population, score));
        assert!(worst as f64 <= mean && mean <= best as f64, "{note:?}");
        spread |= worst < best;
    }
    assert!(spread, "a population is not all alike");
}

#[test]
fn the_electric_force_tells_its_pushes_restarts_and_brute_force() {
    let problem = Problem::square(8).unwrap();
    let (mut restarts, mut brute_forces, mut pushes) = (0, 0, 0);
    for seed in 0..12 {
        let params = ElectricParams::default();
        let (steps, outcome) = observed(|| ElectricForce::new(seed, params), &problem, 2000);
        for (i, step) in steps.iter().enumerate() {
            let (note, moved) = (step.note, step.moves.len());
            match note {
                StepNote::Push {
                    attacked,
                    restarted,
                } => {
                    assert!(
                        moved <= step.forces.len() && step.forces.len() <= attacked as usize,
                        "seed {seed}: {note:?}, {moved} moved, {} pushed",
                        step.forces.len()
                    );
                    // Every move is one square along the force reported on its queen.
                    for &(from, to) in &step.moves {
                        let &(_, col, row) = step
                            .forces
                            .iter()
                            .find(|(queen, ..)| *queen == from)
                            .expect("a force on every queen that moves");
                        let length = col.hypot(row);
                        let along = |d: f64| (d / length).round() as i64;
                        assert_eq!(
                            (
                                i64::from(to.col) - i64::from(from.col),
                                i64::from(to.row) - i64::from(from.row)
                            ),
                            (along(col), along(row)),
                            "seed {seed}: {from:?} → {to:?} under ({col}, {row})"
                        );
                    }
                    pushes += step.forces.len();
                    restarts += usize::from(restarted);
                }
                StepNote::BruteForce { queens } => {
                    assert!((1..=2).contains(&queens), "{note:?}");
                    assert_eq!(i, steps.len() - 1, "the brute force ends the run");
                    assert!(outcome.solution().is_some());
                    brute_forces += 1;
                }
                other => panic!("the electric force notes {other:?}"),
            }
        }
    }
    all_seen!(restarts, brute_forces, pushes);
}

#[test]
fn min_conflicts_tells_each_swap_it_tries() {
    let problem = Problem::square(16).unwrap();
    let (mut taken_swaps, mut refused) = (0, 0);
    for seed in 0..6 {
        let params = MinConflictsParams::default();
        let (steps, outcome) = observed(
            || MinConflicts::with_params(seed, params),
            &problem,
            100_000,
        );
        assert!(outcome.solution().is_some(), "seed {seed}");
        for NotedStep {
            note,
            moves: mut made,
            ..
        } in steps
        {
            let StepNote::Swap {
                queen,
                partner,
                taken,
                ..
            } = note
            else {
                panic!("min-conflicts notes swaps, not {note:?}");
            };
            if taken {
                let mut swapped = vec![
                    (queen, Square::new(partner.row, queen.col)),
                    (partner, Square::new(queen.row, partner.col)),
                ];
                swapped.sort_unstable();
                made.sort_unstable();
                assert_eq!(made, swapped, "{note:?}");
                taken_swaps += 1;
            } else {
                assert!(made.is_empty(), "{note:?}");
                refused += 1;
            }
        }
    }
    all_seen!(taken_swaps, refused);
}

#[test]
fn minton_tells_each_repair_and_goes_to_a_least_conflicted_row() {
    let problem = Problem::square(12).unwrap();
    let conflicts = |board: &[Square], at: Square| {
        board
            .iter()
            .filter(|q| q.col != at.col && q.attacks(at))
            .count()
    };
    let (mut moved, mut stayed) = (0, 0);
    for seed in 0..8 {
        // Without a random walk a run may circle for good: its steps are checked all the same.
        let (steps, _) = observed(|| MinConflictsMinton::new(seed), &problem, 2_000);
        for step in steps {
            let StepNote::Repair { queen, to } = step.note else {
                panic!("min-conflicts-minton notes repairs, not {:?}", step.note);
            };
            assert!(step.before.contains(&queen), "{queen:?} is on the board");
            assert_eq!(to.col, queen.col, "a repair stays in its column");
            assert!(conflicts(&step.before, queen) > 0, "{queen:?} was attacked");
            let fewest = (0..12)
                .map(|row| conflicts(&step.before, Square::new(row, queen.col)))
                .min()
                .unwrap();
            assert_eq!(
                conflicts(&step.before, to),
                fewest,
                "seed {seed}: {:?}",
                step.note
            );
            if to == queen {
                assert!(step.moves.is_empty());
                stayed += 1;
            } else {
                assert_eq!(step.moves, vec![(queen, to)]);
                moved += 1;
            }
        }
    }
    all_seen!(moved, stayed);
}

/// An observer of steps without moves: the events of min-conflicts' start on a large board.
struct StepsOnly {
    moves: bool,
    events: Vec<(u64, u64, f64)>,
    started_before: bool,
    started: bool,
}

impl queens_core::Observer for StepsOnly {
    fn interest(&self) -> queens_core::Interest {
        queens_core::Interest {
            moves: self.moves,
            steps: std::num::NonZeroU64::new(1 << 16),
        }
    }

    fn observe(&mut self, event: &Event<'_>) -> ControlFlow<()> {
        match event {
            Event::Started { .. } => self.started = true,
            Event::Preparing {
                stage,
                done,
                of,
                share,
            } => {
                assert_eq!(*stage, "placing queens");
                self.started_before &= self.started;
                self.events.push((*done, *of, *share));
            }
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

#[test]
fn min_conflicts_tells_how_far_its_start_has_got() {
    let n = 3_000_000;
    let problem = Problem::square(n).unwrap();
    let mut observer = StepsOnly {
        moves: false,
        events: Vec::new(),
        started_before: true,
        started: false,
    };
    let outcome = run(
        &mut MinConflicts::new(7),
        &problem,
        &mut Budget::unlimited(),
        &mut observer,
    )
    .unwrap();
    assert!(outcome.solution().is_some());
    assert!(observer.started_before, "Started comes first");
    let events = &observer.events;
    // The first look at the budget, one a million or so columns after, and the end.
    assert!(events.len() >= 4, "{events:?}");
    assert_eq!(events[0].0, 0);
    assert_eq!(*events.last().unwrap(), (u64::from(n), u64::from(n), 1.0));
    let middle = &events[1..events.len() - 1];
    assert!(
        middle.iter().any(|&(done, _, _)| done > 0),
        "reports come while the queens are placed: {events:?}"
    );
    for pair in events.windows(2) {
        let ((done_a, of_a, share_a), (done_b, of_b, share_b)) = (pair[0], pair[1]);
        assert_eq!(of_a, u64::from(n));
        assert_eq!(of_b, u64::from(n));
        assert!(done_a <= done_b && share_a <= share_b, "{pair:?}");
        // More placed than expected time spent: a queen costs more on a fuller board.
        assert!(share_b <= done_b as f64 / f64::from(n), "{pair:?}");
    }

    // An observer of moves gets the start board instead.
    let mut watcher = StepsOnly {
        moves: true,
        events: Vec::new(),
        started_before: true,
        started: false,
    };
    run(
        &mut MinConflicts::new(7),
        &Problem::square(2_000).unwrap(),
        &mut Budget::unlimited(),
        &mut watcher,
    )
    .unwrap();
    assert!(watcher.events.is_empty());
}
