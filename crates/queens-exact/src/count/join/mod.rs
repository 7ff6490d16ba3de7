//! The quadrant join: counting an N×N board without backtracking row by row.
//!
//! The board is cut into four quadrants (around the middle row and column on odd boards, see
//! `pieces`). Every peaceful placement inside an h×h quadrant is enumerated once
//! (`quadrant`). For each *row set* (which rows keep their queen in the west half), the
//! north and south quadrants' placements are joined into east halves, whose diagonals are
//! stored bit-sliced (`matcher`); then every west half of that row set is joined the same
//! way and counts the east halves it shares no diagonal with — each such pair is one solution.
//! Symmetry spares about seven of every eight row sets' work, and the unique count comes from
//! the total by Burnside's lemma with two small searches of rotation-symmetric solutions
//! (`rotation`).
//!
//! ```text
//!          west        east
//!        ┌──────────┬──────────┐
//!  north │    NW    │    NE    │   a west half = NW ⋈ SW placements filling the west columns
//!        │          │          │   and the row set's rows; an east half = NE ⋈ SE filling
//!        ├──────────┼──────────┤   the east columns and the other rows; a solution = a west
//!  south │    SW    │    SE    │   and an east half that share no diagonal
//!        │          │          │
//!        └──────────┴──────────┘
//! ```

mod half;
mod matcher;
mod pieces;
mod quadrant;

use std::sync::{Arc, Mutex};

use queens_core::Budget;

use super::Tally;

use self::half::{BLOCK, Batches, NorthKeys};
use self::matcher::DisjointCounter;
use self::pieces::{Frame, Piece, Split};
use self::quadrant::QuadrantTable;
use super::rotation::{self, Turn};

/// The smallest board the join counts (smaller ones have quadrants too small to pay).
pub const MIN_N: u32 = 4;
/// The largest: quadrants of side 12 (a table of 633 million placements, about 5 GB).
pub const MAX_N: u32 = 25;

/// A unit of the join's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Work {
    /// The solutions a half turn leaves unchanged.
    HalfTurn,
    /// The solutions a quarter turn leaves unchanged (counted twice: 90° and 270°).
    QuarterTurn,
    /// The pairs of halves of one piece.
    Join(Piece),
}

/// The whole of a join count: its split, its units of work and (once built) the quadrant
/// table they share.
pub(crate) struct JoinPlan {
    split: Split,
    frames: Vec<Frame>,
    work: Vec<Work>,
    table: Mutex<Option<Arc<QuadrantTable>>>,
}

impl std::fmt::Debug for JoinPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JoinPlan")
            .field("n", &self.split.n)
            .field("work", &self.work.len())
            .finish_non_exhaustive()
    }
}

impl Clone for JoinPlan {
    fn clone(&self) -> Self {
        JoinPlan {
            split: self.split,
            frames: self.frames.clone(),
            work: self.work.clone(),
            table: Mutex::new(self.shared_table()),
        }
    }
}

impl JoinPlan {
    /// The plan of the N×N board, `MIN_N ≤ N ≤ MAX_N`.
    pub fn new(n: u32) -> Self {
        assert!(
            (MIN_N..=MAX_N).contains(&n),
            "the join counts N from 4 to 25"
        );
        let split = Split::new(n);
        let frames = split.frames();
        let work = [Work::HalfTurn, Work::QuarterTurn]
            .into_iter()
            .chain(split.pieces(&frames).into_iter().map(Work::Join))
            .collect();
        JoinPlan {
            split,
            frames,
            work,
            table: Mutex::new(None),
        }
    }

    /// The units of work, in their fixed order.
    pub fn work(&self) -> &[Work] {
        &self.work
    }

    /// A value that changes whenever the split does: every unit of work, fed to `feed`.
    pub fn describe(&self, feed: &mut dyn FnMut(u32)) {
        feed(self.split.n);
        for work in &self.work {
            match *work {
                Work::HalfTurn => feed(1),
                Work::QuarterTurn => feed(2),
                Work::Join(piece) => {
                    feed(3);
                    match self.frames[piece.frame].cross {
                        pieces::Cross::None => feed(0),
                        pieces::Cross::Centre => feed(1),
                        pieces::Cross::Arms { a, b } => {
                            feed(2);
                            feed(a);
                            feed(b);
                        }
                    }
                    feed(piece.west_north);
                }
            }
        }
    }

    /// Whether unit `id` could have counted `tally`: a piece counts solutions only, a rotation
    /// search symmetric ones only (twice each for the quarter turn).
    pub fn plausible(&self, id: usize, tally: &Tally) -> bool {
        match self.work.get(id) {
            Some(Work::HalfTurn) => rotation::plausible(Turn::Half, tally),
            Some(Work::QuarterTurn) => rotation::plausible(Turn::Quarter, tally),
            Some(Work::Join(_)) => tally.fixed == 0,
            None => false,
        }
    }

    /// The peak memory of a count on `threads` threads, in bytes: the quadrant table (as it is
    /// built) and each thread's working set, the bit-sliced east halves and the batches of keys.
    pub fn memory_estimate(n: u32, threads: usize) -> u64 {
        let split = Split::new(n);
        // Per thread: the stored east halves bit-sliced, and the east and the three west
        // batches of keys (8 bytes each, grown by doubling, so up to twice the block).
        let per_key = DisjointCounter::bytes_per_key(split.key.bits()) + 4 * 2 * 8;
        QuadrantTable::bytes(split.h) + threads as u64 * BLOCK as u64 * per_key
    }

    fn shared_table(&self) -> Option<Arc<QuadrantTable>> {
        self.table
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    /// The quadrant table, built by the first caller; `None` if `budget` stopped the build.
    fn table(&self, budget: &Budget) -> Option<Arc<QuadrantTable>> {
        let mut slot = self
            .table
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.is_none() {
            *slot = QuadrantTable::build(self.split.h, budget).map(Arc::new);
        }
        slot.clone()
    }

    /// Counts unit `id`; `None` if `budget` stopped it first.
    pub fn count(&self, id: usize, budget: &Budget) -> Option<Tally> {
        self.count_in_blocks(id, budget, BLOCK)
    }

    /// Counts unit `id` joining at most `block` halves of a side at once.
    fn count_in_blocks(&self, id: usize, budget: &Budget, block: usize) -> Option<Tally> {
        let n = self.split.n;
        match self.work[id] {
            Work::HalfTurn => rotation::tally(n, Turn::Half, budget),
            Work::QuarterTurn => rotation::tally(n, Turn::Quarter, budget),
            Work::Join(piece) => {
                let table = self.table(budget)?;
                PieceCount::new(&self.split, &self.frames[piece.frame], &table, block)
                    .count(piece, budget)
            }
        }
    }
}

/// The working memory of counting one piece.
struct PieceCount<'a> {
    split: &'a Split,
    frame: &'a Frame,
    table: &'a QuadrantTable,
    east: Batches,
    west: Batches,
    counter: DisjointCounter,
    east_scratch: [Vec<u64>; 2],
    west_scratch: [Vec<u64>; 2],
    /// The north placements' keys of the piece, west and east.
    west_north: NorthKeys,
    east_north: NorthKeys,
}

impl<'a> PieceCount<'a> {
    fn new(split: &'a Split, frame: &'a Frame, table: &'a QuadrantTable, block: usize) -> Self {
        PieceCount {
            split,
            frame,
            table,
            east: Batches::new(block),
            west: Batches::new(block),
            counter: DisjointCounter::new(split.key.bits()),
            east_scratch: Default::default(),
            west_scratch: Default::default(),
            west_north: NorthKeys::default(),
            east_north: NorthKeys::default(),
        }
    }

    fn count(mut self, piece: Piece, budget: &Budget) -> Option<Tally> {
        let mut tally = Tally::default();
        let north = piece.west_north;
        let (frame, table) = (self.frame, self.table);
        frame.west.north_keys(table, north, &mut self.west_north);
        frame
            .east
            .north_keys(table, frame.north_rows & !north, &mut self.east_north);
        for south in self.split.south_parts(self.frame, north) {
            if budget.is_stopped() {
                return None;
            }
            let weight = self.split.mirror_weight(self.frame, north, south);
            let (pairs, halves) = self.row_set((north, south));
            tally.total += u128::from(weight) * u128::from(self.frame.orbit) * pairs;
            tally.nodes += u128::from(halves);
        }
        Some(tally)
    }

    /// The solutions with the west half on `west_rows`, and the halves built.
    fn row_set(&mut self, west_rows: (u32, u32)) -> (u128, u64) {
        let (frame, table) = (self.frame, self.table);
        let east_south = frame.south_rows & !west_rows.1;
        let (counter, west, west_scratch, west_north) = (
            &mut self.counter,
            &mut self.west,
            &mut self.west_scratch,
            &self.west_north,
        );
        let mut pairs = 0u128;
        let mut west_halves = 0u64;
        // Joins every west half against the east halves gathered so far; west halves on k
        // long diagonals count 2^k times (see `pieces`).
        let mut join = |east: &mut Batches| {
            counter.store(east.batch(0));
            west.clear();
            let count = |west: &mut Batches| {
                (0..3)
                    .map(|long| u128::from(counter.count_disjoint_all(west.batch(long))) << long)
                    .sum::<u128>()
            };
            let mut earlier_batches = 0u128;
            west_halves +=
                frame
                    .west
                    .halves(table, west_north, west_rows.1, west_scratch, west, |full| {
                        earlier_batches += count(full);
                    });
            pairs += earlier_batches + count(west);
        };
        self.east.clear();
        let east_halves = frame.east.halves(
            table,
            &self.east_north,
            east_south,
            &mut self.east_scratch,
            &mut self.east,
            &mut join,
        );
        if self.east.len() > 0 {
            join(&mut self.east);
        }
        (pairs, east_halves + west_halves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count_all(n: u32) -> (u128, u128) {
        let plan = JoinPlan::new(n);
        let mut sum = Tally::default();
        for id in 0..plan.work().len() {
            let tally = plan.count(id, &Budget::unlimited()).unwrap();
            sum.total += tally.total;
            sum.fixed += tally.fixed;
        }
        (sum.total, (sum.total + sum.fixed) / 8)
    }

    /// Halves joined a few at a time (as the largest boards' are) give the same counts.
    #[test]
    fn small_blocks_count_the_same() {
        for n in [10, 11, 12] {
            let plan = JoinPlan::new(n);
            let budget = Budget::unlimited();
            for id in 0..plan.work().len() {
                // West halves are built again for every block of east halves, so only the
                // node counts differ.
                let blocked = plan.count_in_blocks(id, &budget, 7).unwrap();
                let whole = plan.count(id, &budget).unwrap();
                assert_eq!(
                    (blocked.total, blocked.fixed),
                    (whole.total, whole.fixed),
                    "N = {n}, unit {id}"
                );
            }
        }
    }

    #[test]
    fn counts_match_the_published_ones() {
        for n in MIN_N..=13 {
            let published = crate::count::integrity::published(n).unwrap();
            assert_eq!(count_all(n), published, "N = {n}");
        }
    }
}
