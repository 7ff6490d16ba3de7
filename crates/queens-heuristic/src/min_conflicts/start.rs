//! The QS4 start: every free queen on a row of its own, almost all of them on empty diagonals.
//!
//! QS4 places the queens column by column, each probing random unused rows for one whose two
//! diagonals are empty. Done in that order on a billion queens, every probe is three cache
//! misses — a random row of the pool and two random diagonal bits — and the start waits on
//! the memory's latency. Here the same greedy choice is made in an order that reads memory
//! nearly in sequence:
//! - **Deal.** The unused rows are dealt to the free columns in a pseudo-random order: a keyed
//!   Feistel permutation ([`Shuffle`]) of the column's number, so that threads can deal
//!   halves of the board and the deal depends on the seed alone.
//! - **Rounds.** Each round takes the next columns in order with the columns refused in the
//!   round before, about [`ROUND`] in all, and sorts their candidate rows by a counting sort
//!   on the row's high bits. Visited in that order, a column's diagonals `col + row` and
//!   `col − row` move steadily through their bit sets, so the bits a round reads stream
//!   through the cache instead of missing it at random. A column whose two diagonals are empty
//!   takes its candidate; a refused column trades it for the next dealt row ahead (read in
//!   order too) and tries that one next round.
//! - **Last rows.** Once fewer dealt rows are ahead than columns refused, the rows still
//!   unused are shuffled among the columns still open, round after round, until at most
//!   [`FINISH_FROM`] are left (or `probes` rounds in a row placed nothing).
//! - **Finish.** The last columns are placed QS4's way: each probes up to
//!   [`probes`](super::MinConflictsParams::probes) random unused rows and takes the last one
//!   if none has empty diagonals.
//!
//! The last [`tail`](super::MinConflictsParams::tail) columns take the row they are dealt
//! without probing. Every candidate is an unused row in a random order, as in QS4;
//! only the order in which the columns look at theirs changes.

use queens_core::buckets::counting_sort;
use queens_core::random::SeededRng;
use queens_core::solve::Reporter;
use queens_core::{Budget, Square, StopReason};
use rand::Rng;

use super::diagonals::Diagonals;

/// Columns a round visits at most, roughly: enough that consecutive visits in row order land
/// near each other in the diagonals' bits, few enough that the round's own lists (16 bytes a
/// column) stay small beside the board.
const ROUND: usize = 1 << 22;

/// Columns a round visits at least, on small boards.
const ROUND_LEAST: usize = 1 << 12;

/// Candidates whose diagonal bits are read together before they are visited, so that their
/// cache misses overlap.
const VISIT_TOGETHER: usize = 32;

/// Visits between looks at the budget within a round.
const CHECK_EVERY: usize = 1 << 18;

/// Open columns from which the last are placed one by one, QS4's way, once no dealt rows are
/// ahead.
const FINISH_FROM: usize = 1 << 12;

/// Open columns whose rows are shuffled by a random permutation; more are rotated.
const SHUFFLE_UP_TO: usize = 1 << 14;

/// Queens placed between two reports of how far the start has got (about a million).
const REPORT_EVERY: usize = 1 << 20;

/// Free columns from which two threads deal the rows.
const DEAL_IN_PARALLEL_FROM: usize = 1 << 20;

/// What the start reports itself doing.
const STAGE: &str = "placing queens";

/// A random number in `0..bound`: one widening multiply of a 64-bit draw (Lemire's reduction
/// without the rejection step; its bias, below bound/2⁶⁴, is immaterial here).
#[inline]
pub(super) fn below(rng: &mut SeededRng, bound: usize) -> usize {
    ((u128::from(rng.next_u64()) * bound as u128) >> 64) as usize
}

/// The columns whose queen may move, numbered 0.. in order: every column when no queen is
/// fixed, otherwise the others — found by counting past the fixed ones when they are few, or
/// listed (4 bytes a column) when they are many.
pub(super) enum Movable {
    All(usize),
    Around { n: usize, fixed: Vec<u32> },
    Listed(Vec<u32>),
}

impl Movable {
    /// Above this many fixed queens the movable columns are listed.
    const COUNT_PAST: usize = 64;

    pub(super) fn new(n: usize, mut fixed: Vec<u32>) -> Self {
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

    pub(super) fn len(&self) -> usize {
        match self {
            Movable::All(n) => *n,
            Movable::Around { n, fixed } => n - fixed.len(),
            Movable::Listed(columns) => columns.len(),
        }
    }

    /// The `k`-th movable column.
    #[inline]
    pub(super) fn col(&self, k: usize) -> usize {
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

/// A pseudo-random permutation of `0..len`, any element of which is computed on its own: four
/// rounds of bijections of the numbers of `bits` bits (a shift-xor, a multiply by an odd key and
/// an added key, each modulo 2^bits), `bits` the fewest that hold `len`, applied again to its
/// own output until that falls below `len` (fewer than two tries on average).
pub(super) struct Shuffle {
    len: u64,
    shift: u32,
    mask: u64,
    keys: [(u64, u64); 4],
}

impl Shuffle {
    pub(super) fn new(len: usize, rng: &mut SeededRng) -> Self {
        let bits = u64::BITS - (len.max(2) as u64 - 1).leading_zeros();
        Shuffle {
            len: len as u64,
            shift: bits.div_ceil(2),
            mask: u64::MAX >> (u64::BITS - bits),
            keys: std::array::from_fn(|_| (rng.next_u64() | 1, rng.next_u64())),
        }
    }

    /// The element at `index`.
    #[inline]
    pub(super) fn at(&self, index: usize) -> usize {
        let mut value = index as u64;
        loop {
            value = self.encrypt(value);
            if value < self.len {
                return value as usize;
            }
        }
    }

    #[inline]
    fn encrypt(&self, mut value: u64) -> u64 {
        for &(times, plus) in &self.keys {
            value ^= value >> self.shift;
            value = value.wrapping_mul(times).wrapping_add(plus) & self.mask;
        }
        value
    }
}

/// The board as the start leaves it.
pub(super) struct Started {
    /// The row of each column's queen.
    pub(super) rows: Vec<u32>,
    pub(super) diagonals: Diagonals,
    /// The columns whose queen landed on an occupied diagonal: where repair begins.
    pub(super) collided: Vec<u32>,
    /// Queens on a diagonal already holding one: Σ over diagonals of (queens − 1).
    pub(super) collisions: u64,
}

/// Bytes the start holds beside the rows and the diagonals, for `n` queens: its two lists of
/// candidates.
pub(super) fn bytes_for(n: u64) -> u64 {
    2 * size_of::<u64>() as u64 * round_size(n as usize) as u64
}

/// Columns a round visits for `movable` free queens.
fn round_size(movable: usize) -> usize {
    (movable / 64).clamp(ROUND_LEAST, ROUND)
}

/// Places the fixed queens and then the `movable` ones, probing up to `probes` unused rows for
/// each movable column before the last `tail`. Stops, with `Err`, when `budget` does; reports
/// the queens placed so far to `reporter` every million or so.
#[allow(clippy::too_many_arguments)]
pub(super) fn start(
    n: usize,
    fixed: &[Square],
    movable: &Movable,
    probes: u32,
    tail: usize,
    rng: &mut SeededRng,
    budget: &Budget,
    reporter: &mut Reporter<'_>,
) -> Result<Started, StopReason> {
    budget.check()?;
    reporter.preparing(STAGE, 0, movable.len() as u64, 0.0)?;
    // Zeroed memory comes from the system untouched: the deal writes it in order.
    let mut started = Started {
        rows: vec![0; n],
        diagonals: Diagonals::new(n),
        collided: Vec::new(),
        collisions: 0,
    };
    let free_rows = Movable::new(n, fixed.iter().map(|queen| queen.row).collect());
    let shuffle = Shuffle::new(movable.len(), rng);
    deal(&mut started.rows, movable, &free_rows, &shuffle, budget)?;
    for queen in fixed {
        started.rows[queen.col as usize] = queen.row;
        started.collisions += started
            .diagonals
            .add(queen.col as usize, queen.row as usize);
    }
    let m = movable.len();
    let mut placing = Placing {
        started: &mut started,
        rng,
        probes,
        tail_from: m.saturating_sub(tail),
        budget,
        reporter,
        placed: 0,
        reported: 0,
        movable: m,
    };
    // Monomorphised on the column mapping: with no fixed queen it is the identity.
    match movable {
        Movable::All(_) => placing.rounds(|k| k),
        other => placing.rounds(|k| other.col(k)),
    }?;
    placing.reporter.preparing(STAGE, m as u64, m as u64, 1.0)?;
    Ok(started)
}

/// Deals the free rows (`free_rows`, in the order `shuffle` gives) to the free columns
/// (`movable`), on two threads for large boards; every column's row depends on its number and
/// the shuffle only.
fn deal(
    rows: &mut [u32],
    movable: &Movable,
    free_rows: &Movable,
    shuffle: &Shuffle,
    budget: &Budget,
) -> Result<(), StopReason> {
    let m = movable.len();
    let threads = if m >= DEAL_IN_PARALLEL_FROM {
        std::thread::available_parallelism().map_or(1, |p| p.get().min(2))
    } else {
        1
    };
    // The movable columns of a run of slots lie in one run of columns: split the rows there.
    let mut parts = Vec::with_capacity(threads);
    let mut rest = rows;
    let mut first_col = 0;
    for part in 0..threads {
        let (from, to) = (m * part / threads, m * (part + 1) / threads);
        let end_col = if part + 1 == threads {
            first_col + rest.len()
        } else {
            movable.col(to)
        };
        let (own, after) = rest.split_at_mut(end_col - first_col);
        parts.push((from, to, first_col, own));
        rest = after;
        first_col = end_col;
    }
    let deal_part = |(from, to, first_col, own): (usize, usize, usize, &mut [u32])| {
        for k in from..to {
            if (k - from).is_multiple_of(CHECK_EVERY) {
                budget.check()?;
            }
            own[movable.col(k) - first_col] = free_rows.col(shuffle.at(k)) as u32;
        }
        Ok(())
    };
    if threads == 1 {
        return parts.into_iter().try_for_each(deal_part);
    }
    queens_core::parallel::map_parts(parts, deal_part)
        .into_iter()
        .collect()
}

/// The share of the start's expected time spent once a fraction `placed` of the queens is
/// placed. A probe finds both diagonals empty with a chance of about (1 − f/2)² when a
/// fraction f of the queens is placed (the queens occupy about f/2 of each kind of diagonal),
/// so the probes up to f add up to f / (1 − f/2), 2 for the whole start. Measured at
/// N = 10⁸: the last queens took five times as long each as the first (the model says four).
fn expected_share(placed: f64) -> f64 {
    let work = |f: f64| f / (1.0 - f / 2.0);
    (work(placed.clamp(0.0, 1.0)) / work(1.0)).clamp(0.0, 1.0)
}

/// A column's candidate: the column's number among the free ones (its slot) and the row it is
/// offered, the row in the high half.
#[derive(Clone, Copy, Default)]
struct Candidate(u64);

impl Candidate {
    #[inline]
    fn new(row: u32, slot: usize) -> Self {
        Candidate((u64::from(row) << 32) | slot as u64)
    }

    #[inline]
    fn row(self) -> u32 {
        (self.0 >> 32) as u32
    }

    #[inline]
    fn slot(self) -> usize {
        (self.0 & u64::from(u32::MAX)) as usize
    }
}

/// A counting sort of candidates on the high bits of their rows: buckets a quarter of a round
/// wide, so that within one the columns' diagonals stay within about a round of each other.
struct RowSort {
    shift: u32,
    starts: Vec<usize>,
}

impl RowSort {
    fn new(n: usize, round: usize) -> Self {
        let width = (round / 4).max(64);
        let shift = usize::BITS - 1 - width.leading_zeros();
        RowSort {
            shift,
            starts: vec![0; ((n.max(1) - 1) >> shift) + 2],
        }
    }

    /// `from` sorted into `to`, which it replaces.
    fn sort(&mut self, from: &[Candidate], to: &mut Vec<Candidate>) {
        to.clear();
        let buckets = self.starts.len() - 1;
        if from.len() < buckets {
            to.extend_from_slice(from);
            to.sort_unstable_by_key(|candidate| candidate.row());
            return;
        }
        to.resize(from.len(), Candidate::default());
        let shift = self.shift;
        counting_sort(
            from.iter().copied(),
            to,
            &mut self.starts,
            |candidate| (candidate.row() >> shift) as usize,
            |candidate| candidate,
        );
    }
}

/// Deals the rows of `open` among its columns again: a random permutation while they are few,
/// beyond a rotation by a random amount (their order, by row, is random enough, and a rotation
/// reads them in order).
fn shuffle_rows(open: &mut [Candidate], rng: &mut SeededRng) {
    let len = open.len();
    if len <= SHUFFLE_UP_TO {
        for i in (1..len).rev() {
            let j = below(rng, i + 1);
            let (row_i, row_j) = (open[i].row(), open[j].row());
            open[i] = Candidate::new(row_j, open[i].slot());
            open[j] = Candidate::new(row_i, open[j].slot());
        }
        return;
    }
    let by = 1 + below(rng, len - 1);
    let first: Vec<u32> = open[..by].iter().map(|candidate| candidate.row()).collect();
    for i in 0..len - by {
        open[i] = Candidate::new(open[i + by].row(), open[i].slot());
    }
    for (candidate, row) in open[len - by..].iter_mut().zip(first) {
        *candidate = Candidate::new(row, candidate.slot());
    }
}

/// The placement under way.
struct Placing<'a, 'r> {
    started: &'a mut Started,
    rng: &'a mut SeededRng,
    probes: u32,
    tail_from: usize,
    budget: &'a Budget,
    reporter: &'a mut Reporter<'r>,
    /// Movable queens placed so far.
    placed: usize,
    /// Movable queens placed when last reported.
    reported: usize,
    /// Movable queens in all.
    movable: usize,
}

impl Placing<'_, '_> {
    /// Looks at the budget and, every million queens placed or so, reports them.
    fn check(&mut self) -> Result<(), StopReason> {
        self.budget.check()?;
        if self.placed >= self.reported + REPORT_EVERY {
            self.reported = self.placed;
            let share = expected_share(self.placed as f64 / self.movable.max(1) as f64);
            self.reporter
                .preparing(STAGE, self.placed as u64, self.movable as u64, share)?;
        }
        Ok(())
    }

    /// Places the movable queens (the `k`-th in column `col(k)`) round by round, from the rows
    /// dealt to them, and the last few QS4's way ([`finish`](Self::finish)).
    fn rounds(&mut self, col: impl Fn(usize) -> usize + Copy) -> Result<(), StopReason> {
        let m = self.movable;
        let size = round_size(m);
        let mut sort = RowSort::new(self.started.rows.len(), size);
        let mut open: Vec<Candidate> = Vec::with_capacity(size);
        let mut visiting: Vec<Candidate> = Vec::with_capacity(size);
        // Slots from `next` on have not been visited: their rows are the dealt rows ahead.
        let mut next = 0;
        // Rounds in a row that placed no queen, or that had too few dealt rows ahead.
        let mut idle = 0;
        loop {
            self.check()?;
            let take = size.saturating_sub(open.len()).min(m - next);
            let rows = &self.started.rows;
            open.extend((next..next + take).map(|k| Candidate::new(rows[col(k)], k)));
            next += take;
            if open.is_empty() {
                return Ok(());
            }
            sort.sort(&open, &mut visiting);
            open.clear();
            let placed = self.placed;
            self.visit(&visiting, &mut open, col)?;
            idle = if self.placed == placed { idle + 1 } else { 0 };
            if open.is_empty() {
                continue;
            }
            if next + open.len() <= m && idle < self.probes {
                // Each refused column trades its row for a dealt row ahead, in order.
                let rows = &mut self.started.rows;
                for (ahead, candidate) in (next..).zip(open.iter_mut()) {
                    let column = col(ahead);
                    let dealt = rows[column];
                    rows[column] = candidate.row();
                    *candidate = Candidate::new(dealt, candidate.slot());
                }
                continue;
            }
            if open.len() + (m - next) > FINISH_FROM && idle < self.probes {
                // Too few dealt rows ahead: the refused columns share out their own rows.
                shuffle_rows(&mut open, self.rng);
                idle += 1;
                continue;
            }
            return self.finish(&open, next, col);
        }
    }

    /// Visits the candidates of one round in order: a column takes its row if both diagonals
    /// are empty or if it is in the tail; the others are pushed to `refused`.
    fn visit(
        &mut self,
        visiting: &[Candidate],
        refused: &mut Vec<Candidate>,
        col: impl Fn(usize) -> usize,
    ) -> Result<(), StopReason> {
        let mut warm = 0u64;
        for (batch, candidates) in visiting.chunks(VISIT_TOGETHER).enumerate() {
            if (batch * VISIT_TOGETHER).is_multiple_of(CHECK_EVERY) {
                self.check()?;
            }
            for candidate in candidates {
                warm ^= self
                    .started
                    .diagonals
                    .touch(col(candidate.slot()), candidate.row() as usize);
            }
            for &candidate in candidates {
                let (slot, row) = (candidate.slot(), candidate.row() as usize);
                let column = col(slot);
                if slot >= self.tail_from {
                    self.put(column, row);
                } else if self.started.diagonals.claim(column, row) {
                    self.started.rows[column] = row as u32;
                } else {
                    refused.push(candidate);
                    continue;
                }
                self.placed += 1;
            }
        }
        std::hint::black_box(warm);
        Ok(())
    }

    /// QS4 on the last columns: the `open` ones and the slots from `next` on, each probing up
    /// to `probes` random rows of those still unused for one with empty diagonals (the tail
    /// taking any), or taking the last probed.
    fn finish(
        &mut self,
        open: &[Candidate],
        next: usize,
        col: impl Fn(usize) -> usize,
    ) -> Result<(), StopReason> {
        let rows = &self.started.rows;
        let mut slots: Vec<usize> = open.iter().map(|candidate| candidate.slot()).collect();
        let mut pool: Vec<u32> = open.iter().map(|candidate| candidate.row()).collect();
        slots.extend(next..self.movable);
        pool.extend((next..self.movable).map(|k| rows[col(k)]));
        slots.sort_unstable();
        for (i, &slot) in slots.iter().enumerate() {
            if i.is_multiple_of(CHECK_EVERY >> 6) {
                self.check()?;
            }
            let column = col(slot);
            let diagonals = &self.started.diagonals;
            let mut pick = below(self.rng, pool.len());
            if slot < self.tail_from {
                for _ in 1..self.probes {
                    if diagonals.is_free(column, pool[pick] as usize) {
                        break;
                    }
                    pick = below(self.rng, pool.len());
                }
            }
            let row = pool.swap_remove(pick);
            self.put(column, row as usize);
            self.placed += 1;
        }
        Ok(())
    }

    /// Places the queen of `column` on `row`.
    #[inline]
    fn put(&mut self, column: usize, row: usize) {
        self.started.rows[column] = row as u32;
        let created = self.started.diagonals.add(column, row);
        if created > 0 {
            self.started.collided.push(column as u32);
            self.started.collisions += created;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_shuffle_is_a_permutation_that_depends_on_the_seed() {
        for len in [1, 2, 3, 5, 64, 1000, 4097, 100_003] {
            let shuffle = Shuffle::new(len, &mut SeededRng::seed_from_u64(len as u64));
            let mut seen = vec![false; len];
            for index in 0..len {
                let value = shuffle.at(index);
                assert!(!seen[value], "{value} twice in a shuffle of {len}");
                seen[value] = true;
            }
        }
        let order = |seed| {
            let shuffle = Shuffle::new(1000, &mut SeededRng::seed_from_u64(seed));
            (0..1000).map(|index| shuffle.at(index)).collect::<Vec<_>>()
        };
        assert_eq!(order(1), order(1));
        assert_ne!(order(1), order(2));
        // Not the identity, nor near it: few values stay within ten places of their index.
        let near = order(1)
            .iter()
            .enumerate()
            .filter(|&(index, &value)| index.abs_diff(value) <= 10)
            .count();
        assert!(near < 100, "{near} of 1000 near their place");
    }

    #[test]
    fn the_row_sort_keeps_every_candidate_and_orders_the_buckets() {
        let mut rng = SeededRng::seed_from_u64(5);
        let n = 1_000_000;
        let mut sort = RowSort::new(n, 4096);
        for len in [0, 10, 5000, 100_000] {
            let from: Vec<Candidate> = (0..len)
                .map(|slot| Candidate::new(below(&mut rng, n) as u32, slot))
                .collect();
            let mut to = Vec::new();
            sort.sort(&from, &mut to);
            let buckets: Vec<u32> = to.iter().map(|c| c.row() >> sort.shift).collect();
            assert!(buckets.is_sorted(), "buckets in order");
            let mut before: Vec<u64> = from.iter().map(|c| c.0).collect();
            let mut after: Vec<u64> = to.iter().map(|c| c.0).collect();
            before.sort_unstable();
            after.sort_unstable();
            assert_eq!(before, after, "the same candidates");
        }
    }
}
