//! `min-conflicts`: QS4-style local search for boards of any size (Sosic & Gu, 1991).
//!
//! The board is a permutation — one queen per row and column — so only diagonals can collide.
//! **Start**: every column is dealt an unused row, and almost every queen ends on two empty
//! diagonals: a column tries its row and, if a diagonal is taken, another unused row, up to
//! [`probes`](MinConflictsParams::probes) of them as in QS4; the last
//! [`tail`](MinConflictsParams::tail) columns take their row without trying. The columns try
//! their rows in rounds sorted by row, so that memory is read nearly in order (the `start` module).
//! **Repair**: a queen on a crowded diagonal swaps rows with a random queen whenever that
//! lowers the number of collisions, until none is left.
//!
//! State: the row of each column (4 bytes), a bit per diagonal and a small map of the crowded
//! ones (`diagonals`), and during the start the lists of one round (16 bytes a column of the
//! round, a sixty-fourth of the board at most): at most 4.75 bytes a queen. Fixed queens stay
//! in their columns and rows. One iteration is one swap tried during repair; a queen that
//! finds no improving swap in 16 × (movable queens) tries is swapped anyway (a kick out of a
//! local minimum), and after 16 kicks without fewer collisions 8 random pairs are swapped (a
//! shake: without it, about a quarter of the seeds at N = 6 stayed trapped).
//!
//! Speed: the start deals the rows on two threads and visits each round's columns in the
//! order of their rows' high bits; the bits live in huge pages where Linux grants them. Repair
//! starts from the columns whose placement collided.

use queens_core::descriptor::Counts;
use queens_core::descriptor::line;
use queens_core::random::SeededRng;
use queens_core::solve::Reporter;
use queens_core::{
    Board, Budget, Context, Outcome, Parameters, Problem, SolveError, Solver, SolverDescriptor,
    Square, StepNote, StopReason, Verdict,
};

use rand::SeedableRng;

use crate::require_classic;
use diagonals::Diagonals;
use start::{Movable, below};

mod diagonals;
mod start;

queens_core::parameters! {
    /// The tunable parts of [`MinConflicts`], with the defaults of the original.
    pub struct MinConflictsParams {
        /// random rows tried per column at the start for one with empty diagonals
        probes: u32 = 100, 1..=1_000_000;
        /// last columns placed on random rows without probing
        tail: u32 = 30, 0..=1_000_000_000;
    }
}

/// What the min-conflicts pair's marks on a watched board mean: the numbers its steps note.
pub(crate) const CONFLICT_NUMBERS: &str = "Numbers in the tinted column: the conflicts a queen \
    would have on each of its squares, on the board the step began from.";

/// `min-conflicts`'s descriptor.
pub static DESCRIPTOR: SolverDescriptor = SolverDescriptor {
    name: "min-conflicts",
    summary: "QS4-style local search: millions of queens in seconds, fixed queens kept",
    explanation: "The board is a permutation: one queen per row and per column, so only \
        diagonals can collide. The start deals every column a random unused row; a column \
        whose row shares a diagonal with a queen already placed trades it for another unused \
        row, trying up to `probes` = {probes} rows for one whose two diagonals are still empty \
        (the last `tail` = {tail} columns keep the row they are dealt); almost every queen \
        starts safe. Then repair: a queen on a crowded diagonal swaps \
        rows with a random other queen whenever that lowers the number of collisions, until \
        none are left. Because the start leaves only a handful of conflicts, the repair takes \
        a few thousand swaps even for ten million queens.\n\n\
        This is QS4 of Sosic and Gu (\"A polynomial time algorithm for the N-queens problem\", \
        1990, and \"3,000,000 queens in less than one minute\", 1991). We keep a bit per \
        diagonal and count the queens of the few crowded ones apart (4.75 bytes a queen in \
        all), let the columns try their rows in rounds sorted by row so that memory is read \
        nearly in order, keep locked queens in place, kick a queen stuck in a local minimum \
        with a swap that does not improve, and shake the board when kicks keep failing.",
    pseudo_code: &[
        line(
            "",
            "one queen per row and column, placed greedily; the locked ones kept",
        ),
        line("", "while collisions remain:"),
        line("swap", "    pick an attacked queen and a random partner"),
        line(
            "swap",
            "    if swapping their rows lowers the collisions: swap",
        ),
        line("refused", "    else: keep them, count a fruitless try"),
        line(
            "kick",
            "    after too many fruitless tries: swap anyway (a kick)",
        ),
    ],
    score: "minus the collisions: on every diagonal, its queens beyond the first (rows and \
        columns never clash), counted after each round of swaps; 0 means solved",
    unit: "a swap tried",
    counts: Counts::Iterations,
    shapes: crate::CLASSIC_FIXED_KEPT,
    randomized: true,
    parameters: MinConflictsParams::LIST,
    default_max_iterations: |problem| Some((100 * u64::from(problem.rows())).max(10_000_000)),
    practical_max_n: None,
    marks: Some(CONFLICT_NUMBERS),
    neighbourhood: false,
    check: |_, _| Ok(()),
    memory: |problem, _| u128::from(MinConflicts::memory_estimate(problem.rows())),
    unit_cost: |_, _| 15.0,
    build: |seed, values| {
        Box::new(MinConflicts::with_params(
            seed,
            MinConflictsParams::from_values(values),
        ))
    },
};

/// QS4-style min-conflicts.
#[derive(Clone, Debug, Default)]
pub struct MinConflicts {
    seed: u64,
    params: MinConflictsParams,
}

impl MinConflicts {
    /// The solver with default parameters and `seed`.
    pub fn new(seed: u64) -> Self {
        MinConflicts::with_params(seed, MinConflictsParams::default())
    }

    /// The solver seeded with `seed`, with `params`.
    pub fn with_params(seed: u64, params: MinConflictsParams) -> Self {
        MinConflicts { seed, params }
    }

    /// Bytes the solver holds for an N×N board at most: the rows (4 bytes a queen), the
    /// diagonals' bits (half a byte) and, during the start, one round's lists (at most a
    /// quarter of a byte a queen).
    pub fn memory_estimate(n: u32) -> u64 {
        let n = u64::from(n);
        4 * n + Diagonals::bytes_for(n) + start::bytes_for(n)
    }
}

impl Solver for MinConflicts {
    queens_core::declared!(DESCRIPTOR, params);

    fn solve(&mut self, problem: &Problem, context: Context<'_>) -> Result<Outcome, SolveError> {
        let Context { budget, observer } = context;
        let n = require_classic(DESCRIPTOR.name, problem)?;
        let seed = self.seed;
        if n == 2 || n == 3 {
            return Ok(Outcome::new(Verdict::Unsolvable).with_seed(seed));
        }
        let mut reporter = Reporter::new(observer);
        let mut search = match Search::start(problem, seed, self.params, budget, &mut reporter) {
            Ok(search) => search,
            Err(stop) => {
                return Ok(Outcome::new(Verdict::Stopped(stop))
                    .with_iterations(0)
                    .with_seed(seed));
            }
        };
        let start = reporter.start_board(|| {
            search
                .rows
                .iter()
                .enumerate()
                .map(|(col, &row)| Square::new(row, col as u32))
                .collect()
        });
        if let Err(stop) = start {
            return Ok(Outcome::new(Verdict::Stopped(stop))
                .with_iterations(0)
                .with_seed(seed));
        }
        let mut iterations = 0;
        let repaired = search.repair(budget, &mut reporter, &mut iterations);
        let board = || Board::from_permutation(search.rows).expect("a row for every column");
        let outcome = match repaired {
            Ok(true) => Outcome::new(Verdict::Solved(board())),
            Ok(false) => Outcome::new(Verdict::Unsolvable),
            Err(stop) => Outcome::new(Verdict::Stopped(stop)).with_last(board),
        };
        Ok(outcome.with_iterations(iterations).with_seed(seed))
    }
}

struct Search {
    rows: Vec<u32>,
    /// Columns to look at first in repair.
    collided: Vec<u32>,
    diagonals: Diagonals,
    movable: Movable,
    /// Queens on a diagonal already holding one: Σ over diagonals of (queens − 1).
    collisions: u64,
    rng: SeededRng,
}

impl Search {
    /// The QS4 start ([`start`]), reporting how many queens are placed. Stops, with `Err`,
    /// when `budget` does.
    fn start(
        problem: &Problem,
        seed: u64,
        params: MinConflictsParams,
        budget: &Budget,
        reporter: &mut Reporter<'_>,
    ) -> Result<Self, StopReason> {
        let n = problem.rows() as usize;
        let mut rng = SeededRng::seed_from_u64(seed);
        let movable = Movable::new(n, problem.fixed().iter().map(|q| q.col).collect());
        let started = start::start(
            n,
            problem.fixed(),
            &movable,
            params.probes,
            params.tail as usize,
            &mut rng,
            budget,
            reporter,
        )?;
        Ok(Search {
            rows: started.rows,
            collided: started.collided,
            diagonals: started.diagonals,
            movable,
            collisions: started.collisions,
            rng,
        })
    }

    /// Whether the queen of `col` shares a diagonal.
    fn is_attacked(&self, col: usize) -> bool {
        self.diagonals.is_crowded(col, self.rows[col] as usize)
    }

    /// Swap repair until no collision is left: `Ok(true)`. `Ok(false)` when at most one queen
    /// can move and collisions remain — the one completion the fixed queens allow fails.
    fn repair(
        &mut self,
        budget: &Budget,
        reporter: &mut Reporter<'_>,
        iterations: &mut u64,
    ) -> Result<bool, StopReason> {
        let mut attacked: Vec<u32> = std::mem::take(&mut self.collided);
        let patience = Self::PATIENCE.max(16 * self.movable.len() as u64);
        // Kicks since the fewest collisions seen: a small board can trap the swaps in a basin
        // that kicks of one queen do not leave, so after a run of them a shake swaps a few
        // random pairs.
        let (mut fewest, mut kicks) = (self.collisions, 0);
        while self.collisions > 0 {
            if self.movable.len() < 2 {
                return Ok(false);
            }
            if kicks >= Self::KICKS_BEFORE_SHAKE {
                self.shake(budget, reporter, iterations)?;
                (fewest, kicks) = (self.collisions, 0);
                attacked.clear();
                continue;
            }
            if attacked.is_empty() {
                attacked = (0..self.movable.len())
                    .map(|k| self.movable.col(k))
                    .filter(|&col| self.is_attacked(col))
                    .map(|col| col as u32)
                    .collect();
            }
            let Some(col) = attacked.pop() else { continue };
            let col = col as usize;
            let mut fruitless = 0;
            while self.is_attacked(col) {
                // Asked before it is counted: a cap of K reports K iterations.
                budget.check_iterations(*iterations + 1)?;
                *iterations += 1;
                let other = self.movable.col(below(&mut self.rng, self.movable.len()));
                let (mut taken, mut kicked) = (false, false);
                if other != col {
                    // A queen stuck in a local minimum is kicked: it swaps even without a gain.
                    // On a large, nearly solved board an improving partner takes about a
                    // thousand tries, so patience grows with the board.
                    let kick = fruitless >= patience;
                    if self.try_swap(col, other, kick) {
                        (taken, kicked) = (true, kick);
                        fruitless = 0;
                        if kick {
                            kicks += 1;
                        }
                        if self.collisions < fewest {
                            (fewest, kicks) = (self.collisions, 0);
                        }
                        self.report_swap(reporter, col, other)?;
                        if self.is_attacked(other) {
                            attacked.push(other as u32);
                        }
                    } else {
                        fruitless += 1;
                    }
                }
                let collisions = self.collisions;
                // Built only when the step is reported: a swap taken has traded the two rows.
                let rows = &self.rows;
                let note = || {
                    let (queen, partner) = if taken {
                        (rows[other], rows[col])
                    } else {
                        (rows[col], rows[other])
                    };
                    StepNote::Swap {
                        queen: Square::new(queen, col as u32),
                        partner: Square::new(partner, other as u32),
                        taken,
                        kicked,
                    }
                };
                reporter.step_noted(*iterations, || -(collisions as i64), note)?;
                if kicks >= Self::KICKS_BEFORE_SHAKE {
                    break;
                }
            }
        }
        Ok(true)
    }

    /// Kicks in a row without fewer collisions, after which the board is shaken.
    const KICKS_BEFORE_SHAKE: u32 = 16;

    /// Pairs of queens a shake swaps.
    const SHAKE_SWAPS: usize = 8;

    /// Swaps a few random pairs of movable queens, whatever it does to the collisions (ending
    /// early on a solution); each swap is a step, told as a kick.
    fn shake(
        &mut self,
        budget: &Budget,
        reporter: &mut Reporter<'_>,
        iterations: &mut u64,
    ) -> Result<(), StopReason> {
        let m = self.movable.len();
        for _ in 0..Self::SHAKE_SWAPS {
            budget.check_iterations(*iterations + 1)?;
            *iterations += 1;
            // Two different queens (repair shakes only with two or more to move), so that
            // every iteration is a swap told.
            let first = below(&mut self.rng, m);
            let mut second = below(&mut self.rng, m - 1);
            if second >= first {
                second += 1;
            }
            let (a, b) = (self.movable.col(first), self.movable.col(second));
            self.try_swap(a, b, true);
            self.report_swap(reporter, a, b)?;
            let collisions = self.collisions;
            let rows = &self.rows;
            // As for any swap taken, the note names the squares the two queens left.
            let note = || StepNote::Swap {
                queen: Square::new(rows[b], a as u32),
                partner: Square::new(rows[a], b as u32),
                taken: true,
                kicked: true,
            };
            reporter.step_noted(*iterations, || -(collisions as i64), note)?;
            if collisions == 0 {
                break;
            }
        }
        Ok(())
    }

    /// Swaps tried for one queen before it is kicked, at least.
    const PATIENCE: u64 = 64;

    fn report_swap(
        &self,
        reporter: &mut Reporter<'_>,
        a: usize,
        b: usize,
    ) -> Result<(), StopReason> {
        if reporter.wants_moves() {
            let square = |row: u32, col: usize| Square::new(row, col as u32);
            let (row_a, row_b) = (self.rows[a], self.rows[b]);
            reporter.moved(square(row_b, a), square(row_a, a))?;
            reporter.moved(square(row_a, b), square(row_b, b))?;
        }
        Ok(())
    }

    /// Swaps the rows of two columns if that lowers the collisions, or in any case when
    /// `always`; says whether it did.
    fn try_swap(&mut self, a: usize, b: usize, always: bool) -> bool {
        let (row_a, row_b) = (self.rows[a] as usize, self.rows[b] as usize);
        let before = self.collisions;
        let mut after = before;
        after -= self.diagonals.remove(a, row_a);
        after -= self.diagonals.remove(b, row_b);
        after += self.diagonals.add(a, row_b);
        after += self.diagonals.add(b, row_a);
        if after < before || always {
            self.rows.swap(a, b);
            self.collisions = after;
            true
        } else {
            self.diagonals.remove(a, row_b);
            self.diagonals.remove(b, row_a);
            self.diagonals.add(a, row_a);
            self.diagonals.add(b, row_b);
            false
        }
    }
}
