//! The QS4 start: the free queens placed column by column, each on a random row still unused,
//! probing for one whose two diagonals are empty.
//!
//! Every probe is a uniformly random unused row, as in QS4, drawn two ways:
//! - **Scatter**, on boards up to 1.3·10⁷ while at least a quarter of the rows are unused: a
//!   random row of the board, redrawn while it is taken, with a bit per row saying which are.
//!   A probe then reads three bits (its row's and its two diagonals'), all known from the
//!   random number alone, so the loads of many probes are issued together and their cache
//!   misses overlap; the rows themselves are written in order.
//! - **Pool**, for the rest: the unused rows are dealt to the remaining columns in
//!   order, and each column swaps in a random one of those still undealt (QS4's own way). A
//!   probe reads a random row and then its two diagonals; the first probes of 64 columns are
//!   gathered together.
//!
//! The last [`tail`](super::MinConflictsParams::tail) columns take a random unused row without
//! probing.

use queens_core::huge::HugeBits;
use queens_core::solve::Reporter;
use queens_core::{Budget, StopReason};
use rand::Rng;
use rand::rngs::SmallRng;

use super::diagonals::Diagonals;

/// Columns whose probes are drawn and gathered together.
const BATCH: usize = 64;

/// Rows drawn ahead for each column of a scatter batch (most columns need one or two unused
/// rows with empty diagonals; the rest draw more, four at a time).
const SCATTER_AHEAD: usize = 4;

/// Scatter places queens while more than one row in this many is unused.
const SCATTER_WHILE_ONE_IN: usize = 4;

/// The largest board whose start scatters: its row and diagonal bits (5N/8 bytes, 8 MiB here)
/// stay in a processor's cache. Measured on a 2-core EPYC with 32 MiB of L3: at N = 5·10⁶ and
/// 10⁷ scatter took 0.55× the pool's time, at 2·10⁷ 1.3×.
const SCATTER_UP_TO: usize = 13_000_000;

/// Candidates drawn together once a pool column's first probe fails.
const REPROBES: usize = 4;

/// Candidates drawn and gathered with a pool batch for each column whose first probe looks
/// taken (two measured faster than four or eight: more loads ahead are mostly wasted).
const AHEAD: usize = 2;

/// Columns between looks at the budget.
const CHECK_EVERY: usize = BATCH << 10;

/// Looks at the budget between two reports of how many queens are placed (about a million
/// columns, a fraction of a second to a second at any N); the first look reports too, and
/// the end.
const REPORT_EVERY_CHECKS: usize = 16;

/// What the start reports itself doing.
const STAGE: &str = "placing queens";

/// A random number in `0..bound`: one widening multiply of a 64-bit draw (Lemire's reduction
/// without the rejection step; its bias, below bound/2⁶⁴, is immaterial here).
#[inline]
pub(super) fn below(rng: &mut SmallRng, bound: usize) -> usize {
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

/// Places the fixed queens and then the `movable` ones, probing up to `probes` unused rows for
/// each movable column before the last `tail`. Stops, with `Err`, when `budget` does; reports
/// the queens placed so far to `reporter` every million or so.
#[allow(clippy::too_many_arguments)]
pub(super) fn start(
    n: usize,
    fixed: &[queens_core::Square],
    movable: &Movable,
    probes: u32,
    tail: usize,
    rng: &mut SmallRng,
    budget: &Budget,
    reporter: &mut Reporter<'_>,
) -> Result<Started, StopReason> {
    budget.check()?;
    // Zeroed memory comes from the system untouched: columns are written as they are placed.
    let mut started = Started {
        rows: vec![0; n],
        diagonals: Diagonals::new(n),
        collided: Vec::new(),
        collisions: 0,
    };
    let mut used = HugeBits::new(n);
    for queen in fixed {
        started.rows[queen.col as usize] = queen.row;
        used.set(queen.row as usize);
        started.collisions += started
            .diagonals
            .add(queen.col as usize, queen.row as usize);
    }
    let m = movable.len();
    let tail_from = m.saturating_sub(tail);
    // Scatter pays while its bits stay in cache; beyond, each probe costs three misses
    // instead of the pool's one row and two bits.
    let scatter_until = if n <= SCATTER_UP_TO {
        m.saturating_sub(n.div_ceil(SCATTER_WHILE_ONE_IN))
    } else {
        0
    };
    let mut placing = Placing {
        started: &mut started,
        rng,
        probes,
        tail_from,
        budget,
        reporter,
        checks: 0,
        movable: m,
    };
    // Monomorphised on the column mapping: with no fixed queen it is the identity.
    match movable {
        Movable::All(_) => placing.place(n, m, scatter_until, used, |k| k),
        other => placing.place(n, m, scatter_until, used, |k| other.col(k)),
    }?;
    placing.reporter.preparing(STAGE, m as u64, m as u64, 1.0)?;
    Ok(started)
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

/// The placement under way.
struct Placing<'a, 'r> {
    started: &'a mut Started,
    rng: &'a mut SmallRng,
    probes: u32,
    tail_from: usize,
    budget: &'a Budget,
    reporter: &'a mut Reporter<'r>,
    /// Looks at the budget so far.
    checks: usize,
    /// Movable queens in all.
    movable: usize,
}

impl Placing<'_, '_> {
    /// Looks at the budget, with `placed` movable queens placed, and now and then reports them.
    fn check(&mut self, placed: usize) -> Result<(), StopReason> {
        self.budget.check()?;
        self.checks += 1;
        if self.checks % REPORT_EVERY_CHECKS == 1 {
            let share = expected_share(placed as f64 / self.movable.max(1) as f64);
            self.reporter
                .preparing(STAGE, placed as u64, self.movable as u64, share)?;
        }
        Ok(())
    }

    /// Scatters the first `scatter_until` of the `m` movable queens (the `k`-th in column
    /// `col(k)`), then deals the rows still unused and places the rest from that pool.
    fn place(
        &mut self,
        n: usize,
        m: usize,
        scatter_until: usize,
        mut used: HugeBits,
        col: impl Fn(usize) -> usize + Copy,
    ) -> Result<(), StopReason> {
        self.scatter(n, scatter_until, &mut used, col)?;
        let mut unused = used.clear_below(n);
        for k in scatter_until..m {
            if (k - scatter_until).is_multiple_of(CHECK_EVERY << 4) {
                self.check(scatter_until)?;
            }
            let row = unused.next().expect("as many unused rows as columns left");
            self.started.rows[col(k)] = row as u32;
        }
        drop(unused);
        drop(used);
        self.pool(scatter_until, m, col)
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

    /// Places the movable queens `0..until`, drawing random rows of the board and skipping the
    /// taken ones (`used`, which it updates).
    ///
    /// Columns go in batches: each column's first [`SCATTER_AHEAD`] rows are drawn and their
    /// bits read together — independent loads whose cache misses overlap — before the columns
    /// are placed one by one, reading again what an earlier column of the batch may have
    /// changed (now from cache).
    fn scatter(
        &mut self,
        n: usize,
        until: usize,
        used: &mut HugeBits,
        col: impl Fn(usize) -> usize,
    ) -> Result<(), StopReason> {
        let mut drawn = [[0usize; SCATTER_AHEAD]; BATCH];
        let mut warm = 0u64;
        for batch in (0..until).step_by(BATCH) {
            if batch.is_multiple_of(CHECK_EVERY) {
                self.check(batch)?;
            }
            let end = (batch + BATCH).min(until);
            for (k, rows) in (batch..end).zip(&mut drawn) {
                for row in rows.iter_mut() {
                    *row = below(self.rng, n);
                }
                for &row in rows.iter() {
                    warm ^= used.touch(row) ^ self.started.diagonals.touch(col(k), row);
                }
            }
            for (k, rows) in (batch..end).zip(&drawn) {
                let column = col(k);
                let mut probe = Probe::new(self.probes, k < self.tail_from);
                let mut row = rows
                    .iter()
                    .find_map(|&row| probe.judge(row, column, used, &self.started.diagonals));
                while row.is_none() {
                    let more: [usize; REPROBES] = std::array::from_fn(|_| below(self.rng, n));
                    for &row in &more {
                        warm ^= used.touch(row) ^ self.started.diagonals.touch(column, row);
                    }
                    row = more
                        .iter()
                        .find_map(|&row| probe.judge(row, column, used, &self.started.diagonals));
                }
                let row = row.expect("a row was chosen");
                used.set(row);
                self.put(column, row);
            }
        }
        std::hint::black_box(warm);
        Ok(())
    }

    /// Places the movable queens `from..m` from the pool of rows dealt to their columns.
    ///
    /// Memory latency is the cost here: each probe reads a random row and then two random
    /// diagonal bits. So columns go in batches: their first candidates are drawn together,
    /// their rows gathered, then their bits, and only then are the columns placed one by one.
    /// A column whose first candidate looks taken gets its next two candidates drawn and
    /// gathered with the batch as well; probes beyond those go four at a time.
    #[allow(clippy::too_many_lines)]
    fn pool(
        &mut self,
        from: usize,
        m: usize,
        col: impl Fn(usize) -> usize,
    ) -> Result<(), StopReason> {
        let mut first = [0usize; BATCH];
        let mut ahead = [[0usize; AHEAD]; BATCH];
        let mut has_ahead = [false; BATCH];
        let mut warm = 0u64;
        for batch in (from..m).step_by(BATCH) {
            if (batch - from).is_multiple_of(CHECK_EVERY) {
                self.check(batch)?;
            }
            let end = (batch + BATCH).min(m);
            {
                let rows = &self.started.rows;
                let diagonals = &self.started.diagonals;
                for k in batch..end {
                    first[k - batch] = k + below(self.rng, m - k);
                }
                let mut candidate = [0u32; BATCH];
                for k in batch..end {
                    candidate[k - batch] = rows[col(first[k - batch])];
                }
                for k in batch..end {
                    warm ^= diagonals.touch(col(k), candidate[k - batch] as usize);
                }
                // The columns whose first candidate looks taken will probe again: their next
                // candidates are drawn now, and their rows and bits gathered together too.
                has_ahead.fill(false);
                for k in batch..end.min(self.tail_from) {
                    let i = k - batch;
                    if !diagonals.is_free(col(k), candidate[i] as usize) {
                        has_ahead[i] = true;
                        for p in &mut ahead[i] {
                            *p = k + below(self.rng, m - k);
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
                        warm ^= diagonals.touch(col(batch + i), row as usize);
                    }
                }
            }
            for k in batch..end {
                let column = col(k);
                let pick = self.pool_pick(
                    k,
                    m,
                    first[k - batch],
                    has_ahead[k - batch].then_some(&ahead[k - batch]),
                    &col,
                );
                self.started.rows.swap(column, col(pick));
                let row = self.started.rows[column] as usize;
                self.put(column, row);
            }
        }
        std::hint::black_box(warm);
        Ok(())
    }

    /// The pool index whose row the `k`-th movable column takes: `first`, or the first of the
    /// candidates `ahead` and then of new ones with empty diagonals, or the last probed.
    #[inline]
    fn pool_pick(
        &mut self,
        k: usize,
        m: usize,
        first: usize,
        ahead: Option<&[usize; AHEAD]>,
        col: &impl Fn(usize) -> usize,
    ) -> usize {
        let rows = &self.started.rows;
        let diagonals = &self.started.diagonals;
        let column = col(k);
        let free = |p: usize| diagonals.is_free(column, rows[col(p)] as usize);
        if k >= self.tail_from || free(first) {
            return first;
        }
        let mut pick = first;
        let mut left = self.probes;
        if let Some(ahead) = ahead {
            left = left.saturating_sub(AHEAD as u32);
            for &p in ahead {
                pick = p;
                if free(p) {
                    return p;
                }
            }
        }
        for _ in 0..left.div_ceil(REPROBES as u32) {
            let picks: [usize; REPROBES] = std::array::from_fn(|_| k + below(self.rng, m - k));
            let found = picks.map(free);
            for (p, free) in picks.into_iter().zip(found) {
                pick = p;
                if free {
                    return p;
                }
            }
        }
        pick
    }
}

/// One scatter column's probing: how many unused rows it may still try, and the last one tried.
struct Probe {
    left: u32,
    probing: bool,
}

impl Probe {
    fn new(probes: u32, probing: bool) -> Self {
        Probe {
            left: probes,
            probing,
        }
    }

    /// Whether the column takes `row`: never a taken row; any unused row in the tail; otherwise
    /// one with empty diagonals, or the last unused row its probes allow.
    #[inline]
    fn judge(
        &mut self,
        row: usize,
        column: usize,
        used: &HugeBits,
        diagonals: &Diagonals,
    ) -> Option<usize> {
        if used.get(row) {
            return None;
        }
        if !self.probing || diagonals.is_free(column, row) {
            return Some(row);
        }
        self.left -= 1;
        (self.left == 0).then_some(row)
    }
}
