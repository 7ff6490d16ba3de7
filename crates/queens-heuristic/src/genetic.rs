//! `genetic`: the genetic algorithm of the article "8 queens problem solution using genetic
//! algorithm", on any R×C board with M queens.
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
//! mutation made the population converge too early. One iteration is one generation bred, the
//! first generation not counting, as in every search of the step driver (a cap of K lets K
//! generations be bred); the best chromosome of each generation is reported as a
//! step, its changes as moves, and, when moves are wanted, the generation itself as a
//! `population` event: its best chromosomes, its fitness spread, and its first crossover and
//! first mutation (what the page's population view draws).

use queens_core::descriptor::line;
use queens_core::descriptor::{BoardShape, Counts, FixedQueens, Shapes};
use queens_core::observe::{
    Crossover, FitnessCount, Individual, Mutation, POPULATION_MAX_QUEENS, POPULATION_SHOWN,
};
use queens_core::random::SeededRng;
use queens_core::solve::Reporter;
use queens_core::{
    Board, Budget, Context, Event, Outcome, ParamError, Parameters, Problem, SolveError, Solver,
    SolverDescriptor, Square, StepNote, StopReason, Verdict,
};
use rand::{RngExt, SeedableRng};

use crate::driver::{Steps, Turn, drive, stopped_before_the_start};

queens_core::parameters! {
    /// The genetic algorithm's parameters.
    pub struct GeneticParams {
        /// chromosomes per generation
        population: u32 = 200, 2..=100_000;
        /// chromosomes drawn per tournament; the best one is a parent
        tournament: u32 = 2, 1..=100_000;
        /// best chromosomes copied unchanged into the next generation
        elite: u32 = 2, 0..=99_999;
        /// probability that two parents are crossed rather than copied
        crossover: f64 = 0.9, 0.0..=1.0;
        /// probability that a child has one queen moved to a free square
        mutation: f64 = 0.2, 0.0..=1.0;
    }
}

impl GeneticParams {
    /// The tournament draws from the population, and the elite leaves room for children.
    fn check(&self) -> Result<(), SolveError> {
        let GeneticParams {
            population,
            tournament,
            elite,
            ..
        } = *self;
        if tournament > population {
            return Err(ParamError::Invalid(format!(
                "tournament must be at most the population ({population}), got {tournament}"
            ))
            .into());
        }
        if elite >= population {
            return Err(ParamError::Invalid(format!(
                "elite must be smaller than the population ({population}), got {elite}"
            ))
            .into());
        }
        Ok(())
    }
}

/// The most squares a board may have: genes index them in 24 bits' worth of room.
const MAX_SQUARES: u64 = 1 << 24;

fn check(problem: &Problem, params: &GeneticParams) -> Result<(), SolveError> {
    params.check()?;
    let squares = u64::from(problem.rows()) * u64::from(problem.cols());
    if squares > MAX_SQUARES {
        return Err(SolveError::Unsupported {
            solver: DESCRIPTOR.name,
            reason: format!(
                "its genes index squares, at most 2²⁴ = {MAX_SQUARES} (a 4096×4096 board); the \
                 {}×{} board has {squares}",
                problem.rows(),
                problem.cols()
            ),
        });
    }
    Ok(())
}

/// Two populations of M genes, 4 bytes each, and their fitness.
fn memory(problem: &Problem, params: &GeneticParams) -> u128 {
    let population = u128::from(params.population);
    2 * population * (4 * u128::from(problem.queens()) + 32)
}

/// `genetic`'s descriptor.
pub static DESCRIPTOR: SolverDescriptor = SolverDescriptor {
    name: "genetic",
    summary: "a genetic algorithm on any R×C board: chromosomes of queen squares, crossover, mutation",
    explanation: "A population of boards evolves. A chromosome is the list of M squares its \
        queens stand on; its fitness is minus the number of attacking pairs, so a solution \
        scores 0. Each generation of `population` = {population} boards keeps the `elite` = \
        {elite} best unchanged, then breeds the rest: two parents are picked by tournaments (the \
        best of `tournament` = {tournament} random boards), crossed with probability \
        `crossover` = {crossover}, and each child has one queen moved to a free square with \
        probability `mutation` = {mutation}. Crossover merges the parents' squares alternately, the first of one, the first of \
        the other, and so on, skipping squares already taken: one child takes the first M of the \
        merged list, the other the last M, so no child ever has two queens on one square.\n\n\
        The chromosome, fitness, crossover and mutation are those of the article \"8 queens \
        problem solution using genetic algorithm\". It leaves the population and selection \
        open; we chose them with a sweep at N = 8 (stronger selection or more mutation made the \
        population converge too early). It works on any R×C board with any number of queens.",
    pseudo_code: &[
        line(
            "",
            "population ← random chromosomes (M distinct squares each)",
        ),
        line("generation", "repeat until the best has fitness 0:"),
        line(
            "generation",
            "    keep the elite; pick parents by tournament",
        ),
        line(
            "generation",
            "    cross them (merge their squares, no duplicates)",
        ),
        line("generation", "    mutate (move a queen to a free square)"),
    ],
    score: "the best fitness in the population: minus the attacking pairs of its best board; 0 means solved",
    unit: "a generation",
    counts: Counts::Iterations,
    shapes: Shapes {
        board: BoardShape::Any,
        fixed: FixedQueens::Refused("it evolves every queen (use min-conflicts for fixed queens)"),
        blocked: crate::BLOCKED_REFUSED,
    },
    randomized: true,
    parameters: GeneticParams::LIST,
    default_max_iterations: |_| Some(1000),
    practical_max_n: None,
    marks: None,
    neighbourhood: false,
    check: |problem, values| check(problem, &GeneticParams::from_values(values)),
    memory: |problem, values| memory(problem, &GeneticParams::from_values(values)),
    unit_cost: |problem, values| {
        let queens = f64::from(problem.queens());
        f64::from(GeneticParams::from_values(values).population) * (200.0 + 1.1 * queens * queens)
    },
    build: |seed, values| Box::new(Genetic::new(seed, GeneticParams::from_values(values))),
};

/// The genetic algorithm.
#[derive(Clone, Debug, Default)]
pub struct Genetic {
    seed: u64,
    params: GeneticParams,
}

impl Genetic {
    /// The algorithm seeded with `seed`, with `params`.
    pub fn new(seed: u64, params: GeneticParams) -> Self {
        Genetic { seed, params }
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
    let merged = merge(dad, mom);
    (merged[..m].to_vec(), merged[merged.len() - m..].to_vec())
}

/// The parents' genes alternately, duplicates skipped: the list the crossover cuts.
pub fn merge(dad: &[u32], mom: &[u32]) -> Vec<u32> {
    let mut merged: Vec<u32> = Vec::with_capacity(2 * dad.len());
    for (&d, &g) in dad.iter().zip(mom) {
        for gene in [d, g] {
            if !merged.contains(&gene) {
                merged.push(gene);
            }
        }
    }
    merged
}

/// The article's mutation: the gene at `locus` moves to a random square no gene holds.
pub fn mutate(chromosome: &mut [u32], locus: usize, squares: u32, rng: &mut SeededRng) {
    loop {
        let square = rng.random_range(0..squares);
        if !chromosome.contains(&square) {
            chromosome[locus] = square;
            return;
        }
    }
}

fn random_chromosome(m: usize, squares: u32, rng: &mut SeededRng) -> Chromosome {
    let mut chromosome = Vec::with_capacity(m);
    while chromosome.len() < m {
        let square = rng.random_range(0..squares);
        if !chromosome.contains(&square) {
            chromosome.push(square);
        }
    }
    chromosome
}

/// The square of a gene (`row × cols + col`) on a board `cols` wide.
fn gene_square(gene: u32, cols: u32) -> Square {
    Square::new(gene / cols, gene % cols)
}

/// The squares of `genes`, in gene order.
fn gene_squares(genes: &[u32], cols: u32) -> Vec<Square> {
    genes.iter().map(|&gene| gene_square(gene, cols)).collect()
}

impl Solver for Genetic {
    queens_core::declared!(DESCRIPTOR, params);

    fn solve(&mut self, problem: &Problem, context: Context<'_>) -> Result<Outcome, SolveError> {
        let Context { budget, observer } = context;
        let (params, seed) = (self.params, self.seed);
        let cols = problem.cols();
        let squares = problem.rows() * cols;
        let m = problem.queens() as usize;
        let mut rng = SeededRng::seed_from_u64(seed);
        let mut population: Vec<(i64, Chromosome)> = Vec::with_capacity(params.population as usize);
        for _ in 0..params.population {
            // A chromosome of a large board takes a while: stop between two.
            if let Err(stop) = budget.check() {
                return Ok(stopped_before_the_start(stop, seed));
            }
            let chromosome = random_chromosome(m, squares, &mut rng);
            population.push((fitness(&chromosome, cols), chromosome));
        }
        population.sort_by_key(|chromosome| std::cmp::Reverse(chromosome.0));
        let mut reporter = Reporter::new(observer);
        let mut search = Evolution {
            problem,
            shown: population[0].1.clone(),
            population,
            breeding: Breeding::default(),
            generation: 0,
            breeder: Breeder {
                params: &params,
                squares,
                cols,
                record: shows_population(&reporter, m),
            },
            rng,
        };
        Ok(drive(&mut search, seed, budget, &mut reporter))
    }
}

/// A run as the driver steps it: a step breeds a generation, shows its best chromosome, and
/// notes its fitness. The first generation is the start.
struct Evolution<'p> {
    problem: &'p Problem,
    /// The generation, sorted best first.
    population: Vec<(i64, Chromosome)>,
    /// How it was bred.
    breeding: Breeding,
    /// Its number: 0 for the start.
    generation: u64,
    /// The best chromosome as last shown.
    shown: Chromosome,
    breeder: Breeder<'p>,
    rng: SeededRng,
}

impl Evolution<'_> {
    fn board_of(&self, genes: &[u32]) -> Board {
        let queens = gene_squares(genes, self.breeder.cols);
        self.problem
            .board(queens)
            .expect("genes are distinct squares")
    }
}

impl Steps for Evolution<'_> {
    fn start_squares(&self) -> Vec<Square> {
        gene_squares(&self.population[0].1, self.breeder.cols)
    }

    fn start(&mut self, reporter: &mut Reporter<'_>) -> Result<(), StopReason> {
        reporter.start_board(|| self.start_squares())?;
        let (population, cols) = (&self.population, self.breeder.cols);
        show_population(reporter, 0, population, &self.breeding, cols)
    }

    fn over(&mut self, _: &mut Turn<'_, '_>) -> Result<Option<Verdict>, StopReason> {
        let (best_fitness, best) = &self.population[0];
        Ok((*best_fitness == 0).then(|| Verdict::Solved(self.board_of(best))))
    }

    fn step(&mut self, turn: &mut Turn<'_, '_>) -> Result<StepNote, StopReason> {
        let reporter = &mut *turn.reporter;
        let next = self
            .breeder
            .next_generation(&self.population, &mut self.rng, turn.budget)?;
        (self.population, self.breeding) = next;
        self.generation += 1;
        self.population
            .sort_by_key(|chromosome| std::cmp::Reverse(chromosome.0));
        let (population, cols) = (&self.population, self.breeder.cols);
        show_population(reporter, self.generation, population, &self.breeding, cols)?;
        let (best, best_genes) = &population[0];
        show_best(reporter, &mut self.shown, best_genes, cols)?;
        let all = population.iter().map(|chromosome| chromosome.0);
        Ok(StepNote::Generation {
            size: population.len() as u32,
            best: *best,
            mean: all.clone().sum::<i64>() as f64 / population.len() as f64,
            worst: all.min().unwrap_or(*best),
        })
    }

    fn score(&self) -> i64 {
        self.population[0].0
    }

    /// The best chromosome of the generation where the run stands.
    fn board(&self) -> Board {
        let best = self.population.iter().max_by_key(|chromosome| chromosome.0);
        best.map_or_else(|| self.board_of(&[]), |(_, genes)| self.board_of(genes))
    }
}

/// What the page shows of how a generation was bred: its first crossover and first mutation,
/// kept only when moves are wanted.
#[derive(Default)]
struct Breeding {
    crossover: Option<Crossover>,
    mutation: Option<Mutation>,
}

/// Breeds generations on one board.
struct Breeder<'p> {
    params: &'p GeneticParams,
    squares: u32,
    cols: u32,
    /// Whether to keep the [`Breeding`] shown.
    record: bool,
}

impl Breeder<'_> {
    /// Elites, then children of tournament-selected parents until the population is full;
    /// stopped between two children when the budget is.
    fn next_generation(
        &self,
        population: &[(i64, Chromosome)],
        rng: &mut SeededRng,
        budget: &Budget,
    ) -> Result<(Vec<(i64, Chromosome)>, Breeding), StopReason> {
        let params = self.params;
        let size = population.len();
        let mut next: Vec<(i64, Chromosome)> = population[..params.elite as usize].to_vec();
        let mut breeding = Breeding::default();
        let select = |rng: &mut SeededRng| -> &Chromosome {
            let winner = (0..params.tournament)
                .map(|_| rng.random_range(0..size))
                .min()
                .expect("a tournament of at least one");
            // The population is sorted best first: the smallest index wins.
            &population[winner].1
        };
        while next.len() < size {
            budget.check()?;
            let (dad, mom) = (select(rng), select(rng));
            let (mut first, mut second) = if rng.random::<f64>() < params.crossover {
                let children = crossover(dad, mom);
                if self.record && breeding.crossover.is_none() {
                    breeding.crossover = Some(Crossover {
                        parents: [gene_squares(dad, self.cols), gene_squares(mom, self.cols)],
                        merged: gene_squares(&merge(dad, mom), self.cols),
                        children: [
                            gene_squares(&children.0, self.cols),
                            gene_squares(&children.1, self.cols),
                        ],
                    });
                }
                children
            } else {
                (dad.clone(), mom.clone())
            };
            for child in [&mut first, &mut second] {
                if rng.random::<f64>() < params.mutation {
                    let locus = rng.random_range(0..child.len());
                    let before = (self.record && breeding.mutation.is_none())
                        .then(|| (gene_squares(child, self.cols), child[locus]));
                    mutate(child, locus, self.squares, rng);
                    if let Some((before, gone)) = before {
                        breeding.mutation = Some(Mutation {
                            before,
                            from: gene_square(gone, self.cols),
                            to: gene_square(child[locus], self.cols),
                        });
                    }
                }
            }
            for child in [first, second] {
                if next.len() < size {
                    next.push((fitness(&child, self.cols), child));
                }
            }
        }
        Ok((next, breeding))
    }
}

/// Reports a generation (sorted best first) and how it was bred, if moves are wanted and its
/// chromosomes are small enough to show ([`POPULATION_MAX_QUEENS`]): its best chromosomes
/// ([`POPULATION_SHOWN`]) and its fitness spread.
fn show_population(
    reporter: &mut Reporter<'_>,
    generation: u64,
    population: &[(i64, Chromosome)],
    breeding: &Breeding,
    cols: u32,
) -> Result<(), StopReason> {
    if !shows_population(reporter, population.first().map_or(0, |c| c.1.len())) {
        return Ok(());
    }
    let best: Vec<Individual> = population
        .iter()
        .take(POPULATION_SHOWN)
        .map(|(fitness, genes)| Individual {
            fitness: *fitness,
            queens: gene_squares(genes, cols),
        })
        .collect();
    let mut spread: Vec<FitnessCount> = Vec::new();
    for &(fitness, _) in population {
        match spread.last_mut() {
            Some(last) if last.fitness == fitness => last.count += 1,
            _ => spread.push(FitnessCount { fitness, count: 1 }),
        }
    }
    reporter.report(&Event::Population {
        generation,
        size: u32::try_from(population.len()).unwrap_or(u32::MAX),
        best: &best,
        spread: &spread,
        crossover: breeding.crossover.as_ref(),
        mutation: breeding.mutation.as_ref(),
    })
}

/// Whether a population of chromosomes of `queens` queens is shown.
fn shows_population(reporter: &Reporter<'_>, queens: usize) -> bool {
    reporter.wants_moves() && queens <= POPULATION_MAX_QUEENS
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
    for &gone in shown.iter().filter(|s| !best.contains(s)) {
        reporter.remove(gene_square(gone, cols))?;
    }
    for &new in best.iter().filter(|s| !shown.contains(s)) {
        reporter.place(gene_square(new, cols))?;
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
        let mut rng = SeededRng::seed_from_u64(1);
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
