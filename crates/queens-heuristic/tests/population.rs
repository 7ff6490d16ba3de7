//! The genetic algorithm's population events tell the truth: each shown chromosome's fitness
//! is minus its attacking pairs, the best come first and lead the generation's step, the spread
//! adds up to the population, each crossover is the article's merge and cut, and each mutation
//! moves one queen to a free square; and showing the population changes nothing of a run.

use std::ops::ControlFlow;

use queens_core::observe::{
    Crossover, Individual, Mutation, POPULATION_MAX_QUEENS, POPULATION_SHOWN,
};
use queens_core::{Budget, Event, NoObserver, Observer, Problem, Square, solve::run};
use queens_heuristic::{Genetic, GeneticParams};

/// What one `population` event said, owned.
struct Shown {
    generation: u64,
    size: u32,
    best: Vec<Individual>,
    spread: Vec<(i64, u32)>,
    crossover: Option<Crossover>,
    mutation: Option<Mutation>,
    /// The score of the step that followed it, if one did.
    step_score: Option<i64>,
}

/// Pairs of queens on one row, column or diagonal, counted pair by pair.
fn attacking_pairs(queens: &[Square]) -> i64 {
    let mut pairs = 0;
    for (i, a) in queens.iter().enumerate() {
        for b in &queens[i + 1..] {
            if a.row == b.row || a.col == b.col || a.row.abs_diff(b.row) == a.col.abs_diff(b.col) {
                pairs += 1;
            }
        }
    }
    pairs
}

fn populations(problem: &Problem, seed: u64, params: GeneticParams, cap: u64) -> Vec<Shown> {
    let mut shown: Vec<Shown> = Vec::new();
    let mut observer = |event: &Event<'_>| {
        match event {
            Event::Population {
                generation,
                size,
                best,
                spread,
                crossover,
                mutation,
            } => shown.push(Shown {
                generation: *generation,
                size: *size,
                best: best.to_vec(),
                spread: spread.iter().map(|s| (s.fitness, s.count)).collect(),
                crossover: crossover.cloned(),
                mutation: mutation.cloned(),
                step_score: None,
            }),
            // (A run whose populations are not shown has steps alone.)
            Event::Step { score, .. } => {
                if let Some(last) = shown.last_mut() {
                    assert!(last.step_score.is_none(), "one step per population");
                    last.step_score = Some(*score);
                }
            }
            _ => {}
        }
        ControlFlow::Continue(())
    };
    let run_with = |observer: &mut dyn Observer| {
        let budget = &mut Budget::unlimited().with_max_iterations(cap);
        run(&mut Genetic::new(seed, params), problem, budget, observer).unwrap()
    };
    let outcome = run_with(&mut observer);
    let quiet = run_with(&mut NoObserver);
    assert_eq!(outcome.stats.iterations, quiet.stats.iterations);
    assert_eq!(outcome.solution(), quiet.solution());
    shown
}

fn check(problem: &Problem, seed: u64, params: GeneticParams, cap: u64) -> Vec<Shown> {
    let shown = populations(problem, seed, params, cap);
    let (rows, cols, m) = (problem.rows(), problem.cols(), problem.queens() as usize);
    assert!(shown.len() > 1, "more than the random start");
    let (mut crossovers, mut mutations) = (0, 0);
    for (expected, population) in shown.iter().enumerate() {
        assert_eq!(population.generation, expected as u64);
        assert_eq!(population.size, params.population);
        // The start is the board the run begins from, not a step.
        assert_eq!(population.step_score.is_some(), population.generation > 0);
        assert_eq!(
            population.best.len(),
            POPULATION_SHOWN.min(params.population as usize)
        );
        for individual in &population.best {
            assert_eq!(individual.queens.len(), m);
            assert!(
                individual
                    .queens
                    .iter()
                    .all(|q| q.row < rows && q.col < cols)
            );
            let mut distinct = individual.queens.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), m, "a chromosome's squares are distinct");
            assert_eq!(individual.fitness, -attacking_pairs(&individual.queens));
        }
        assert!(
            population
                .best
                .windows(2)
                .all(|w| w[0].fitness >= w[1].fitness),
            "best first"
        );
        let best = population.best[0].fitness;
        if let Some(score) = population.step_score {
            assert_eq!(score, best, "the step's score is the best fitness");
        }
        assert_eq!(population.spread[0].0, best);
        assert!(population.spread.windows(2).all(|w| w[0].0 > w[1].0));
        let total: u32 = population.spread.iter().map(|s| s.1).sum();
        assert_eq!(total, population.size);
        if let Some(Crossover {
            parents: [dad, mom],
            merged,
            children: [first, second],
        }) = &population.crossover
        {
            crossovers += 1;
            let mut expected_merge: Vec<Square> = Vec::new();
            for (d, g) in dad.iter().zip(mom) {
                for gene in [d, g] {
                    if !expected_merge.contains(gene) {
                        expected_merge.push(*gene);
                    }
                }
            }
            assert_eq!(merged, &expected_merge);
            assert_eq!(first, &merged[..m]);
            assert_eq!(second, &merged[merged.len() - m..]);
        }
        if let Some(Mutation { before, from, to }) = &population.mutation {
            mutations += 1;
            assert!(before.contains(from), "the queen moved was there");
            assert!(!before.contains(to), "it moved to a free square");
            assert!(to.row < rows && to.col < cols);
        }
        if population.generation == 0 {
            assert!(population.crossover.is_none() && population.mutation.is_none());
        }
    }
    let bred = shown.len() - 1;
    assert!(
        crossovers * 10 >= bred * 9,
        "{crossovers} crossovers in {bred}"
    );
    assert!(
        mutations * 10 >= bred * 9,
        "{mutations} mutations in {bred}"
    );
    shown
}

#[test]
fn a_square_board_shows_its_population_truly() {
    check(
        &Problem::square(8).unwrap(),
        4,
        GeneticParams::default(),
        100,
    );
}

#[test]
fn an_r_by_c_board_with_m_queens_shows_its_population_truly() {
    let problem = Problem::rectangular(6, 10)
        .and_then(|p| p.with_queen_count(6))
        .unwrap();
    let shown = check(&problem, 1, GeneticParams::default(), 100);
    assert_eq!(
        shown.last().unwrap().best[0].fitness,
        0,
        "seed 1 solves 6×10 with 6 queens"
    );
}

#[test]
fn a_small_population_shows_every_chromosome() {
    let params = GeneticParams {
        population: 10,
        ..GeneticParams::default()
    };
    let shown = check(&Problem::square(6).unwrap(), 1, params, 20);
    assert!(shown.iter().all(|p| p.best.len() == 10));
}

#[test]
fn populations_are_shown_up_to_the_queens_a_small_board_can_show() {
    let params = GeneticParams {
        population: 10,
        ..GeneticParams::default()
    };
    let n = POPULATION_MAX_QUEENS as u32;
    assert!(
        populations(&Problem::square(n).unwrap(), 1, params, 3).len() > 1,
        "{n} queens are shown"
    );
    assert!(
        populations(&Problem::square(n + 1).unwrap(), 1, params, 3).is_empty(),
        "{} queens are not",
        n + 1
    );
}
