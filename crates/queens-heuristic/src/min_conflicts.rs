//! `min-conflicts`: QS4-style local search for boards of any size (Sosic & Gu, 1991).
//!
//! The board is a permutation — one queen per row and column — so only diagonals can collide.
//! **Start**: column by column, a queen takes a random row still unused, probing up to
//! [`probes`](MinConflictsParams::probes) random rows for one whose two diagonals are empty; the
//! last [`tail`](MinConflictsParams::tail) columns take a random row without probing. Almost
//! every queen starts safe. **Repair**: a queen on a crowded diagonal swaps rows with a random
//! queen whenever that lowers the number of collisions, until none is left.
//!
//! State: the row of each column (4 bytes) and a 1-byte counter per diagonal (about 4 bytes per
//! queen for both directions): 8 bytes a queen. Fixed queens stay in their columns and rows.
//! One iteration is one swap tried during repair; a queen that finds no improving swap in
//! 16 × (movable queens) tries is swapped anyway (a kick out of a local minimum, which matters
//! on small boards only).
//!
//! Speed: the start is memory-bound (a random row, then two random counters, per probe), so the
//! first probes of 64 columns are gathered together and later probes go four at a time, letting
//! their cache misses overlap; the counters live in huge pages where Linux grants them. Repair
//! starts from the columns whose placement collided.

use queens_core::descriptor::Counts;
use queens_core::descriptor::line;
use queens_core::solve::Reporter;
use queens_core::{
    Board, Budget, Context, Outcome, Parameters, Problem, SolveError, Solver, SolverDescriptor,
    Square, StepNote, StopReason, Verdict,
};
use rand::rngs::SmallRng;

use crate::huge::HugeArray;
use crate::require_classic;
use rand::{Rng, SeedableRng};

/// Columns whose first probes are gathered together at the start.
const BATCH: usize = 64;

/// Candidates drawn together once a column's first probe fails.
const REPROBES: usize = 4;

/// Candidates drawn and gathered with the batch for each column whose first probe looks taken
/// (two measured faster than four or eight: more loads ahead are mostly wasted).
const AHEAD: usize = 2;

/// A random number in `0..bound`: one widening multiply of a 64-bit draw (Lemire's reduction
/// without the rejection step; its bias, below bound/2⁶⁴, is immaterial here).
#[inline]
fn below(rng: &mut SmallRng, bound: usize) -> usize {
    ((u128::from(rng.next_u64()) * bound as u128) >> 64) as usize
}

queens_core::parameters! {
    /// The tunable parts of [`MinConflicts`], with the defaults of the original.
    pub struct MinConflictsParams {
        /// random rows tried per column at the start for one with empty diagonals
        probes: u32 = 100, 1..=1_000_000;
        /// last columns placed on random rows without probing
        tail: u32 = 30, 0..=1_000_000_000;
    }
}

/// `min-conflicts`'s descriptor.
pub static DESCRIPTOR: SolverDescriptor = SolverDescriptor {
    name: "min-conflicts",
    summary: "QS4-style local search: millions of queens in seconds, fixed queens kept",
    explanation: "The board is a permutation: one queen per row and per column, so only \
        diagonals can collide. The start places the queens column by column, each on a random \
        row still unused, trying up to `probes` = {probes} random rows for one whose two diagonals are still \
        empty (the last `tail` = {tail} columns take any unused row); almost every queen starts \
        safe. Then repair: a queen on a crowded diagonal swaps \
        rows with a random other queen whenever that lowers the number of collisions, until \
        none are left. Because the start leaves only a handful of conflicts, the repair takes \
        a few thousand swaps even for ten million queens.\n\n\
        This is QS4 of Sosic and Gu (\"A polynomial time algorithm for the N-queens problem\", \
        1990, and \"3,000,000 queens in less than one minute\", 1991). We keep a one-byte \
        counter per diagonal (8 bytes a queen in all), gather the start's random probes so that \
        their cache misses overlap, keep locked queens in place, and kick a queen stuck in a \
        local minimum with a swap that does not improve.",
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

    /// Bytes the solver holds for an N×N board: the rows and the diagonal counters.
    pub fn memory_estimate(n: u32) -> u64 {
        let n = u64::from(n);
        4 * n + 2 * (2 * n - 1)
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
        let mut search = match Search::start(problem, seed, self.params, budget) {
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

/// Queens per diagonal, one byte each: rising diagonals by `col − row + N − 1`, falling ones
/// by `col + row`.
struct Diagonals {
    n: usize,
    rising: HugeArray<u8>,
    falling: HugeArray<u8>,
}

impl Diagonals {
    fn new(n: usize) -> Self {
        Diagonals {
            n,
            rising: HugeArray::zeroed(2 * n - 1),
            falling: HugeArray::zeroed(2 * n - 1),
        }
    }

    #[inline]
    fn indices(&self, col: usize, row: usize) -> (usize, usize) {
        (col + self.n - 1 - row, col + row)
    }

    /// Whether the square's two diagonals are empty. Both counters are read unconditionally,
    /// so that their two cache misses overlap.
    #[inline]
    fn is_free(&self, col: usize, row: usize) -> bool {
        let (r, f) = self.indices(col, row);
        (self.rising[r] | self.falling[f]) == 0
    }

    /// Reads the square's counters ahead of need, so that they are in cache when needed.
    #[inline]
    fn touch(&self, col: usize, row: usize) -> u8 {
        let (r, f) = self.indices(col, row);
        self.rising.get(r).copied().unwrap_or(0) ^ self.falling.get(f).copied().unwrap_or(0)
    }

    /// Queens on the square's diagonals (the square's own queen included, if any).
    #[inline]
    fn load(&self, col: usize, row: usize) -> u32 {
        let (r, f) = self.indices(col, row);
        u32::from(self.rising[r]) + u32::from(self.falling[f])
    }

    /// Adds a queen; returns the collisions it creates (queens already on its diagonals).
    #[inline]
    fn add(&mut self, col: usize, row: usize) -> u64 {
        let (r, f) = self.indices(col, row);
        let created = u64::from(self.rising[r] > 0) + u64::from(self.falling[f] > 0);
        self.rising[r] = self.rising[r].saturating_add(1);
        self.falling[f] = self.falling[f].saturating_add(1);
        created
    }

    /// Removes a queen; returns the collisions it ends.
    #[inline]
    fn remove(&mut self, col: usize, row: usize) -> u64 {
        let (r, f) = self.indices(col, row);
        let ended = u64::from(self.rising[r] > 1) + u64::from(self.falling[f] > 1);
        self.rising[r] -= 1;
        self.falling[f] -= 1;
        ended
    }
}

/// The start's placement of the free queens, column by column.
struct Placement<'a> {
    rows: &'a mut [u32],
    diagonals: &'a mut Diagonals,
    rng: &'a mut SmallRng,
    /// The columns whose queen landed on an occupied diagonal: where repair begins.
    collided: Vec<u32>,
    collisions: u64,
}

impl Placement<'_> {
    /// Places the `m` free queens (the `k`-th in column `col(k)`), probing up to `probes`
    /// random rows still undealt for each before `tail_from`.
    ///
    /// Memory latency is the cost here: each probe reads a random row and then two random
    /// diagonal counters. So columns go in batches: their first candidates are drawn together,
    /// their rows gathered, then their counters — independent loads whose cache misses overlap
    /// — and only then are the columns placed one by one, reading again what an earlier column
    /// of the batch may have changed (now from cache). A column whose first candidate looks
    /// taken gets its next two candidates drawn and gathered with the batch as well; probes
    /// beyond those go four at a time.
    ///
    /// Stops between batches, with `Err`, when `budget` does.
    #[inline]
    fn place(
        &mut self,
        m: usize,
        tail_from: usize,
        probes: u32,
        budget: &Budget,
        col: impl Fn(usize) -> usize,
    ) -> Result<(), StopReason> {
        let Placement {
            rows,
            diagonals,
            rng,
            collided,
            collisions,
        } = self;
        let mut first = [0usize; BATCH];
        let mut ahead = [[0usize; AHEAD]; BATCH];
        let mut has_ahead = [false; BATCH];
        let mut warm = 0u32;
        for batch in (0..m).step_by(BATCH) {
            if batch % (BATCH << 10) == 0 {
                budget.check()?;
            }
            let end = (batch + BATCH).min(m);
            for k in batch..end {
                first[k - batch] = k + below(rng, m - k);
            }
            let mut candidate = [0u32; BATCH];
            for k in batch..end {
                candidate[k - batch] = rows[col(first[k - batch])];
            }
            for k in batch..end {
                warm ^= u32::from(diagonals.touch(col(k), candidate[k - batch] as usize));
            }
            // The columns whose first candidate looks taken will probe again: their next
            // candidates are drawn now, and their rows and counters gathered together too.
            has_ahead.fill(false);
            for k in batch..end.min(tail_from) {
                let i = k - batch;
                if !diagonals.is_free(col(k), candidate[i] as usize) {
                    has_ahead[i] = true;
                    for p in &mut ahead[i] {
                        *p = k + below(rng, m - k);
                    }
                }
            }
            let mut ahead_rows = [[0u32; AHEAD]; BATCH];
            for i in (0..end - batch).filter(|&i| has_ahead[i]) {
                for (row, &p) in ahead_rows[i].iter_mut().zip(&ahead[i]) {
                    *row = rows[col(p)];
                }
            }
            for i in (0..end - batch).filter(|&i| has_ahead[i]) {
                for &row in &ahead_rows[i] {
                    warm ^= u32::from(diagonals.touch(col(batch + i), row as usize));
                }
            }
            for k in batch..end {
                let column = col(k);
                let mut pick = first[k - batch];
                if k < tail_from && !diagonals.is_free(column, rows[col(pick)] as usize) {
                    let mut left = probes;
                    'probing: {
                        if has_ahead[k - batch] {
                            left = left.saturating_sub(AHEAD as u32);
                            for &p in &ahead[k - batch] {
                                pick = p;
                                if diagonals.is_free(column, rows[col(p)] as usize) {
                                    break 'probing;
                                }
                            }
                        }
                        for _ in 0..left.div_ceil(REPROBES as u32) {
                            let mut picks = [0usize; REPROBES];
                            for p in &mut picks {
                                *p = k + below(rng, m - k);
                            }
                            let found =
                                picks.map(|p| diagonals.is_free(column, rows[col(p)] as usize));
                            for (p, free) in picks.into_iter().zip(found) {
                                pick = p;
                                if free {
                                    break 'probing;
                                }
                            }
                        }
                    }
                }
                rows.swap(column, col(pick));
                let created = diagonals.add(column, rows[column] as usize);
                if created > 0 {
                    collided.push(column as u32);
                }
                *collisions += created;
            }
        }
        std::hint::black_box(warm);
        Ok(())
    }
}

/// The columns whose queen may move, numbered 0.. in order: every column when no queen is
/// fixed, otherwise the others — found by counting past the fixed ones when they are few, or
/// listed (4 bytes a column) when they are many.
enum Movable {
    All(usize),
    Around { n: usize, fixed: Vec<u32> },
    Listed(Vec<u32>),
}

impl Movable {
    /// Above this many fixed queens the movable columns are listed.
    const COUNT_PAST: usize = 64;

    fn new(n: usize, mut fixed: Vec<u32>) -> Self {
        fixed.sort_unstable();
        if fixed.is_empty() {
            Movable::All(n)
        } else if fixed.len() <= Self::COUNT_PAST {
            Movable::Around { n, fixed }
        } else {
            let mut fixed = fixed.into_iter().peekable();
            let listed = (0..n as u32)
                .filter(|&col| fixed.next_if_eq(&col).is_none())
                .collect();
            Movable::Listed(listed)
        }
    }

    fn len(&self) -> usize {
        match self {
            Movable::All(n) => *n,
            Movable::Around { n, fixed } => n - fixed.len(),
            Movable::Listed(columns) => columns.len(),
        }
    }

    /// The `k`-th movable column.
    #[inline]
    fn col(&self, k: usize) -> usize {
        match self {
            Movable::All(_) => k,
            Movable::Around { fixed, .. } => {
                let mut col = k;
                for &f in fixed {
                    if f as usize <= col {
                        col += 1;
                    }
                }
                col
            }
            Movable::Listed(columns) => columns[k] as usize,
        }
    }
}

/// Rows per look at the budget while the start is dealt: writing a billion rows first touches
/// 4 GB, seconds of the system's time, so the stop is read every 16 million.
const DEAL_CHUNK: usize = 1 << 24;

/// `n` rows, the `col`-th being `row(col)`, written a chunk at a time between looks at
/// `budget`.
fn dealt(n: usize, budget: &Budget, row: impl Fn(u32) -> u32) -> Result<Vec<u32>, StopReason> {
    let mut rows = Vec::with_capacity(n);
    for start in (0..n).step_by(DEAL_CHUNK) {
        budget.check()?;
        let end = (start + DEAL_CHUNK).min(n);
        rows.extend((start as u32..end as u32).map(&row));
    }
    Ok(rows)
}

struct Search {
    rows: Vec<u32>,
    /// Columns to look at first in repair.
    collided: Vec<u32>,
    diagonals: Diagonals,
    movable: Movable,
    /// Queens on a diagonal already holding one: Σ over diagonals of (queens − 1).
    collisions: u64,
    rng: SmallRng,
}

impl Search {
    /// The QS4 start: fixed queens first; the free rows, dealt to the free columns in order,
    /// are then shuffled in place column by column, each column probing random rows still
    /// undealt for one with empty diagonals; the last columns take a random row.
    /// Stops, with `Err`, when `budget` does.
    fn start(
        problem: &Problem,
        seed: u64,
        params: MinConflictsParams,
        budget: &Budget,
    ) -> Result<Self, StopReason> {
        let n = problem.rows() as usize;
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut diagonals = Diagonals::new(n);
        let mut collisions = 0;
        let movable = Movable::new(n, problem.fixed().iter().map(|q| q.col).collect());
        // Deal the rows: fixed queens keep theirs, the free rows go to the free columns.
        let mut rows: Vec<u32>;
        if problem.fixed().is_empty() {
            rows = dealt(n, budget, |col| col)?;
        } else {
            rows = dealt(n, budget, |_| u32::MAX)?;
            let mut row_taken = vec![false; n];
            for queen in problem.fixed() {
                rows[queen.col as usize] = queen.row;
                row_taken[queen.row as usize] = true;
                collisions += diagonals.add(queen.col as usize, queen.row as usize);
            }
            let mut free_rows = (0..n as u32).filter(|&row| !row_taken[row as usize]);
            for k in 0..movable.len() {
                rows[movable.col(k)] = free_rows.next().expect("as many free rows as free columns");
            }
        }
        let m = movable.len();
        let tail_from = m.saturating_sub(params.tail as usize);
        let mut placement = Placement {
            rows: &mut rows,
            diagonals: &mut diagonals,
            rng: &mut rng,
            collided: Vec::new(),
            collisions,
        };
        // Monomorphised on the column mapping: with no fixed queen it is the identity.
        match &movable {
            Movable::All(_) => placement.place(m, tail_from, params.probes, budget, |k| k),
            other => placement.place(m, tail_from, params.probes, budget, |k| other.col(k)),
        }?;
        let (collided, collisions) = (placement.collided, placement.collisions);
        Ok(Search {
            rows,
            collided,
            diagonals,
            movable,
            collisions,
            rng,
        })
    }

    /// Whether the queen of `col` shares a diagonal.
    fn is_attacked(&self, col: usize) -> bool {
        self.diagonals.load(col, self.rows[col] as usize) > 2
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
        while self.collisions > 0 {
            if self.movable.len() < 2 {
                return Ok(false);
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
                *iterations += 1;
                budget.check_iterations(*iterations)?;
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
            }
        }
        Ok(true)
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
