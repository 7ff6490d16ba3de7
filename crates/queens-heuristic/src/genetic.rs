//! `genetic`: the genetic algorithm of the original article (seed 003), on any R×C board with
//! M queens.
//!
//! A chromosome is M distinct square indices (`row × cols + col`). Fitness is minus the pairs
//! of queens sharing a row, column or diagonal (pieces in between do not block); a solution has
//! fitness 0. **Mutation** moves one queen to a random unoccupied square. **Crossover** merges
//! the parents' genes alternately — the first of parent 1, the first of parent 2, the second of
//! parent 1, … — skipping duplicates; child 1 takes the first M genes of the merged list, child 2
//! the last M.
//!
//! The article leaves the population and the selection open. Here: a population of 200,
//! tournament selection of 2, the 2 best kept unchanged into the next generation (elitism),
//! crossover with probability 0.9 and mutation of one gene with probability 0.2 per child —
//! chosen by a sweep at N = 8 (`queens experiment --solver genetic --set tournament=2,3,5
//! --set population=100,200,400 --set mutation=0.2,0.3,0.4,0.6,0.9`): stronger selection or more
//! mutation made the population converge too early. One iteration is one generation; the best
//! chromosome of each generation is reported as a step, its changes as moves.

use queens_core::solve::Reporter;
use queens_core::{
    Budget, Observer, Outcome, Problem, SolveError, Solver, Square, StopReason, Verdict,
};
use rand::rngs::SmallRng;
use rand::{RngExt, SeedableRng};

/// The genetic algorithm's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeneticParams {
    /// The seed of the random generator.
    pub seed: u64,
    /// Chromosomes per generation (200).
    pub population: u32,
    /// Chromosomes drawn per tournament (2).
    pub tournament: u32,
    /// Best chromosomes copied unchanged into the next generation (2).
    pub elite: u32,
    /// Probability that two parents are crossed rather than copied (0.9).
    pub crossover: f64,
    /// Probability that a child has one gene mutated (0.2).
    pub mutation: f64,
    /// Generations at most (1000).
    pub generations: u64,
}

impl Default for GeneticParams {
    fn default() -> Self {
        GeneticParams {
            seed: 1,
            population: 200,
            tournament: 2,
            elite: 2,
            crossover: 0.9,
            mutation: 0.2,
            generations: 1000,
        }
    }
}

impl GeneticParams {
    /// Checks the ranges.
    pub fn check(&self) -> Result<(), String> {
        if self.population < 2 {
            return Err(format!(
                "the population must be at least 2, got {}",
                self.population
            ));
        }
        if self.tournament == 0 || self.tournament > self.population {
            return Err(format!(
                "the tournament must be between 1 and the population, got {}",
                self.tournament
            ));
        }
        if self.elite >= self.population {
            return Err(format!(
                "the elite must be smaller than the population, got {}",
                self.elite
            ));
        }
        for (name, p) in [("crossover", self.crossover), ("mutation", self.mutation)] {
            if !(0.0..=1.0).contains(&p) {
                return Err(format!("{name} probability must be in [0, 1], got {p}"));
            }
        }
        if self.generations == 0 {
            return Err("the generation cap must be at least 1".into());
        }
        Ok(())
    }
}

/// The genetic algorithm.
#[derive(Clone, Debug, Default)]
pub struct Genetic {
    params: GeneticParams,
}

impl Genetic {
    /// The algorithm with `params`.
    pub fn new(params: GeneticParams) -> Self {
        Genetic { params }
    }
}

/// A chromosome: M distinct square indices.
pub type Chromosome = Vec<u32>;

/// Minus the pairs of queens sharing a row, column or diagonal on a board `cols` wide.
pub fn fitness(chromosome: &[u32], cols: u32) -> i64 {
    let mut pairs = 0;
    for (i, &a) in chromosome.iter().enumerate() {
        let (ra, ca) = (a / cols, a % cols);
        for &b in &chromosome[i + 1..] {
            let (rb, cb) = (b / cols, b % cols);
            if ra == rb || ca == cb || ra.abs_diff(rb) == ca.abs_diff(cb) {
                pairs += 1;
            }
        }
    }
    -pairs
}

/// The article's crossover: the parents' genes alternately, duplicates skipped; the first M of
/// the merged list and the last M.
pub fn crossover(dad: &[u32], mom: &[u32]) -> (Chromosome, Chromosome) {
    let m = dad.len();
    let mut merged: Vec<u32> = Vec::with_capacity(2 * m);
    for (&d, &g) in dad.iter().zip(mom) {
        for gene in [d, g] {
            if !merged.contains(&gene) {
                merged.push(gene);
            }
        }
    }
    (merged[..m].to_vec(), merged[merged.len() - m..].to_vec())
}

/// The article's mutation: the gene at `locus` moves to a random square no gene holds.
pub fn mutate(chromosome: &mut [u32], locus: usize, squares: u32, rng: &mut SmallRng) {
    loop {
        let square = rng.random_range(0..squares);
        if !chromosome.contains(&square) {
            chromosome[locus] = square;
            return;
        }
    }
}

fn random_chromosome(m: usize, squares: u32, rng: &mut SmallRng) -> Chromosome {
    let mut chromosome = Vec::with_capacity(m);
    while chromosome.len() < m {
        let square = rng.random_range(0..squares);
        if !chromosome.contains(&square) {
            chromosome.push(square);
        }
    }
    chromosome
}

impl Solver for Genetic {
    fn name(&self) -> &'static str {
        "genetic"
    }

    fn solve(
        &mut self,
        problem: &Problem,
        budget: &mut Budget,
        observer: &mut dyn Observer,
    ) -> Result<Outcome, SolveError> {
        let unsupported = |reason: String| SolveError::Unsupported {
            solver: "genetic",
            reason,
        };
        let params = self.params;
        params.check().map_err(unsupported)?;
        if !problem.fixed().is_empty() {
            return Err(unsupported(
                "it evolves every queen (use min-conflicts for fixed queens)".into(),
            ));
        }
        let cols = problem.cols();
        let squares = problem
            .rows()
            .checked_mul(cols)
            .filter(|&s| s <= 1 << 24)
            .ok_or_else(|| unsupported("it indexes squares: at most 2²⁴ squares".into()))?;
        let m = problem.queens() as usize;
        let mut rng = SmallRng::seed_from_u64(params.seed);
        let mut reporter = Reporter::new(observer);
        let mut population: Vec<(i64, Chromosome)> = (0..params.population)
            .map(|_| {
                let chromosome = random_chromosome(m, squares, &mut rng);
                (fitness(&chromosome, cols), chromosome)
            })
            .collect();
        let mut shown: Chromosome = Vec::new();
        let mut generation = 0u64;
        let verdict = loop {
            population.sort_by_key(|chromosome| std::cmp::Reverse(chromosome.0));
            let (best_fitness, best) = &population[0];
            if let Err(stop) = show_best(&mut reporter, &mut shown, best, cols) {
                break Verdict::Stopped(stop);
            }
            if *best_fitness == 0 {
                let queens = best
                    .iter()
                    .map(|&s| Square::new(s / cols, s % cols))
                    .collect();
                break Verdict::Solved(problem.board(queens).expect("genes are distinct squares"));
            }
            generation += 1;
            if generation >= params.generations {
                break Verdict::Stopped(StopReason::IterationLimit(params.generations));
            }
            if let Err(stop) = budget.check_iterations(generation) {
                break Verdict::Stopped(stop);
            }
            let best_fitness = *best_fitness;
            if let Err(stop) = reporter.step(generation, || best_fitness) {
                break Verdict::Stopped(stop);
            }
            population = next_generation(&population, &params, squares, cols, &mut rng);
        };
        Ok(Outcome::new(verdict)
            .with_iterations(generation)
            .with_seed(params.seed))
    }
}

/// Elites, then children of tournament-selected parents until the population is full.
fn next_generation(
    population: &[(i64, Chromosome)],
    params: &GeneticParams,
    squares: u32,
    cols: u32,
    rng: &mut SmallRng,
) -> Vec<(i64, Chromosome)> {
    let size = population.len();
    let mut next: Vec<(i64, Chromosome)> = population[..params.elite as usize].to_vec();
    let select = |rng: &mut SmallRng| -> &Chromosome {
        let winner = (0..params.tournament)
            .map(|_| rng.random_range(0..size))
            .min()
            .expect("a tournament of at least one");
        // The population is sorted best first: the smallest index wins.
        &population[winner].1
    };
    while next.len() < size {
        let (dad, mom) = (select(rng), select(rng));
        let (mut first, mut second) = if rng.random::<f64>() < params.crossover {
            crossover(dad, mom)
        } else {
            (dad.clone(), mom.clone())
        };
        for child in [&mut first, &mut second] {
            if rng.random::<f64>() < params.mutation {
                let locus = rng.random_range(0..child.len());
                mutate(child, locus, squares, rng);
            }
        }
        for child in [first, second] {
            if next.len() < size {
                next.push((fitness(&child, cols), child));
            }
        }
    }
    next
}

/// Reports the change of the best chromosome as removals and placements.
fn show_best(
    reporter: &mut Reporter<'_>,
    shown: &mut Chromosome,
    best: &[u32],
    cols: u32,
) -> Result<(), StopReason> {
    if !reporter.wants_moves() {
        return Ok(());
    }
    let square = |s: u32| Square::new(s / cols, s % cols);
    for &gone in shown.iter().filter(|s| !best.contains(s)) {
        reporter.remove(square(gone))?;
    }
    for &new in best.iter().filter(|s| !shown.contains(s)) {
        reporter.place(square(new))?;
    }
    *shown = best.to_vec();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_article_example_scores_minus_ten() {
        assert_eq!(fitness(&[2, 0, 55, 48, 16, 28, 62, 38], 8), -10);
    }

    #[test]
    fn crossover_follows_the_article() {
        // No common genes: the merged list is 16 long; children take its two halves.
        let (a, b) = crossover(&[0, 1, 2, 3], &[10, 11, 12, 13]);
        assert_eq!(a, vec![0, 10, 1, 11]);
        assert_eq!(b, vec![2, 12, 3, 13]);
        // Common genes are skipped: merged = 0 5 1 2 6 3 → first four, last four.
        let (a, b) = crossover(&[0, 1, 2, 3], &[5, 1, 6, 2]);
        assert_eq!(a, vec![0, 5, 1, 2]);
        assert_eq!(b, vec![1, 2, 6, 3]);
        // Identical parents give identical children.
        let (a, b) = crossover(&[4, 7, 9], &[4, 7, 9]);
        assert_eq!((a.clone(), b), (vec![4, 7, 9], a));
    }

    #[test]
    fn mutation_moves_one_queen_to_a_free_square() {
        let mut rng = SmallRng::seed_from_u64(1);
        for _ in 0..100 {
            let mut chromosome = vec![2, 0, 55, 48, 16, 28, 62, 38];
            let before = chromosome.clone();
            mutate(&mut chromosome, 4, 64, &mut rng);
            assert_ne!(chromosome[4], 16);
            assert_eq!((0..8).filter(|&i| chromosome[i] != before[i]).count(), 1);
            let mut sorted = chromosome.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), 8, "distinct squares");
        }
    }
}
