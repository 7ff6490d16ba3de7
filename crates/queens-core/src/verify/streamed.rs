//! A permutation checked as it streams in, column by column, in a few bits a queen: for boards
//! too large to hold.

use serde::Serialize;

use crate::board::{Line, Square};
use crate::buckets::{bucket_shift, counting_sort};

/// A set of non-negative integers as bits, growing as needed.
#[derive(Clone, Debug, Default)]
struct Bits(Vec<u64>);

impl Bits {
    /// Makes room for numbers up to `highest`.
    fn reach(&mut self, highest: u64) {
        let words = (highest / 64) as usize + 1;
        if words > self.0.len() {
            self.0.resize(words, 0);
        }
    }

    /// Adds `index`, which is within reach; returns whether it was already there.
    #[inline]
    fn insert(&mut self, index: u64) -> bool {
        let (word, bit) = (&mut self.0[(index / 64) as usize], 1u64 << (index % 64));
        let present = *word & bit != 0;
        *word |= bit;
        present
    }
}

/// The kinds of line a streamed permutation can crowd, in the order a collision names them: its columns hold a
/// queen each by construction.
const STREAMED_LINES: [Line; 3] = [Line::Row, Line::Diagonal, Line::AntiDiagonal];

/// Queens a [`PermutationCheck`] marks together at first; below 2^[`INDEX_BITS`].
const STREAM_BATCH: usize = 1 << 19;

/// Queens a [`PermutationCheck`] marks together at most; below 2^[`INDEX_BITS`]. While the
/// rows come scattered (a search's answer), each batch doubles, up to a sixteenth of the
/// columns read, so that it holds a few marks for each cache line of the rows' and diagonals' bits
/// (which grow with the columns too): the bits are then walked as a stream rather than a line
/// fetched for each mark. Rows that come nearly in order (the construction's) need no more.
const LARGEST_STREAM_BATCH: usize = 1 << 23;

/// The low bits of a sorted mark that say which queen of its batch made it.
const INDEX_BITS: u32 = 24;

/// The buckets a batch's marks are sorted into, as a power of two.
const STREAM_BUCKET_BITS: u32 = 10;

/// The lines of one kind holding a queen, a bit each, growing as the stream reaches them.
#[derive(Clone, Debug, Default)]
struct LineMarks {
    bits: Bits,
    /// A batch's marks, sorted: line number above [`INDEX_BITS`], the queen's index below.
    sorted: Vec<u64>,
    starts: Vec<usize>,
}

impl LineMarks {
    /// Marks the lines of kind `STREAMED_LINES[kind]` of `queens` (fewer than
    /// 2^[`INDEX_BITS`]), whose numbers are at most `highest`, as if one by one in their
    /// order: counts each queen whose line held a queen already, and names the first `wanted`
    /// of them, by the queen's index and `kind`. The marks are sorted on their high bits first,
    /// stably, so a line's queens are marked in their order and the same queens are found as
    /// one by one, while the bits are walked nearly in order.
    fn mark(&mut self, queens: &[Square], kind: usize, highest: u64, wanted: usize) -> Found {
        debug_assert!(queens.len() < 1 << INDEX_BITS);
        let line = STREAMED_LINES[kind];
        let mut found = Found::default();
        self.bits.reach(highest);
        self.sorted.resize(queens.len(), 0);
        // About as many buckets as queens, up to a thousand.
        let bucket_bits = STREAM_BUCKET_BITS.min(usize::BITS - queens.len().leading_zeros());
        let shift = bucket_shift(highest + 1, bucket_bits);
        let buckets = (highest >> shift) as usize + 1;
        self.starts.resize(buckets + 1, 0);
        counting_sort(
            queens
                .iter()
                .map(|&queen| line_number(queen, line))
                .zip(0u64..),
            &mut self.sorted,
            &mut self.starts,
            |(number, _)| (number >> shift) as usize,
            |(number, index)| number << INDEX_BITS | index,
        );
        for &mark in &self.sorted {
            if self.bits.insert(mark >> INDEX_BITS) {
                found.collisions += 1;
                if wanted > 0 {
                    found
                        .first
                        .push(((mark & ((1 << INDEX_BITS) - 1)) as usize, kind));
                    // Only the first few are kept: the list never outgrows a few pages.
                    if found.first.len() >= 64 * PermutationCheck::KEPT {
                        found.first.sort_unstable();
                        found.first.truncate(wanted);
                    }
                }
            }
        }
        found.first.sort_unstable();
        found.first.truncate(wanted);
        found
    }
}

/// The number of `queen`'s line of kind `line` in a streamed check: rows and sums as they
/// are, differences folded onto the non-negative numbers (0, −1, 1, −2, … as 0, 1, 2, 3, …).
fn line_number(queen: Square, line: Line) -> u64 {
    let (row, col) = (u64::from(queen.row), u64::from(queen.col));
    match line {
        Line::Row => row,
        Line::Diagonal if row >= col => 2 * (row - col),
        Line::Diagonal => 2 * (col - row) - 1,
        Line::Column => col,
        Line::AntiDiagonal => row + col,
    }
}

/// The rows and diagonals holding a queen: the [`LineMarks`] of each of [`STREAMED_LINES`].
#[derive(Clone, Debug, Default)]
struct StreamedLines([LineMarks; 3]);

impl StreamedLines {
    /// Marks the lines of `queens` (fewer than 2^[`INDEX_BITS`]) as if one by one in their
    /// order, each kind as [`LineMarks::mark`] does; the first `wanted` collisions are named
    /// by the queen's index and the kind's place in [`STREAMED_LINES`], in that order. Kinds
    /// are marked side by side on threads of their own when `together` is false.
    fn mark(&mut self, queens: &[Square], wanted: usize, together: bool) -> Found {
        let Some((low_row, top_row, top_col)) = queens
            .iter()
            .map(|queen| {
                (
                    u64::from(queen.row),
                    u64::from(queen.row),
                    u64::from(queen.col),
                )
            })
            .reduce(|(low, top, c), (_, row, col)| (low.min(row), top.max(row), c.max(col)))
        else {
            return Found::default();
        };
        // Bounds on each kind's numbers: the bits grow no further than a full board needs.
        let highest = [top_row, 2 * top_row.max(top_col), top_row + top_col];
        let [rows, diagonals, anti_diagonals] = &mut self.0;
        let found: [Found; 3] = if together {
            [
                rows.mark(queens, 0, highest[0], wanted),
                diagonals.mark(queens, 1, highest[1], wanted),
                anti_diagonals.mark(queens, 2, highest[2], wanted),
            ]
        } else {
            let kinds = vec![(rows, 0), (diagonals, 1), (anti_diagonals, 2)];
            let mut found = crate::parallel::map_parts(kinds, |(marks, kind)| {
                marks.mark(queens, kind, highest[kind], wanted)
            })
            .into_iter();
            let mut next = || found.next().unwrap_or_default();
            [next(), next(), next()]
        };
        let mut all = Found {
            row_span: top_row - low_row,
            ..Found::default()
        };
        for kind in found {
            all.collisions += kind.collisions;
            all.first.extend(kind.first);
        }
        all.first.sort_unstable();
        all.first.truncate(wanted);
        all
    }
}

/// What marking a batch found: its collisions, and the first few as (queen's index in the
/// batch, kind of line's place in [`STREAMED_LINES`]), in order.
#[derive(Debug, Default)]
struct Found {
    collisions: u64,
    first: Vec<(usize, usize)>,
    /// How far apart its highest and lowest rows lie.
    row_span: u64,
}

/// Rows are scattered (a search's answer, in random order) where a batch of the least size
/// spans this many rows for each of its queens and more: then its marks are fewer than four a
/// cache line of the rows' bits, and larger batches pay.
const SCATTERED: u64 = 128;

/// A batch being marked on a thread of its own (or, where none started, marked already), and
/// what it hands back.
type Marking = crate::parallel::Begun<(StreamedLines, Vec<Square>, Found)>;

/// Batches from this size are marked on a thread of their own while the next is read.
const MARK_ASIDE_FROM: usize = 1 << 16;

/// A queen that landed on a line already holding one, and that line (a queen on two crowded
/// lines is two collisions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Collision {
    /// The queen found second on the line (the later one, unless the earlier one had a row far
    /// beyond the columns read when it came).
    pub queen: Square,
    /// The line it shares with an earlier queen.
    pub line: Line,
}

/// Checks a permutation as it streams in, column by column: for boards too large to hold, such
/// as a billion-queen `perm` file.
///
/// Queens are marked a batch at a time: each kind of line's marks are sorted on their high bits
/// before they are set, so that a billion queens' bits are walked nearly in order rather than
/// at random, and the collisions found are the ones a queen-by-queen check finds. A large
/// batch is marked while the next is read, its three kinds of line side by side.
///
/// Memory: a bit per row and two per diagonal and anti-diagonal seen, plus the batches (the one
/// being read, the one being marked, a spare list, and each kind's sorted marks: 48 bytes for
/// each of a batch's queens). A batch holds 2^19 queens (24 MiB); while rows come scattered
/// it doubles, up to a sixteenth of the columns read and 2^23 queens (384 MiB), at most 3
/// bytes a column. A row far above the columns read so far (eight times
/// their number and more, where it can only lie on the board if many columns follow) waits in
/// a list, at 8 bytes, until the columns catch up. So a stream cannot make the check allocate
/// for rows it has not earned; in all it takes at most 8 bytes for each token of input (which
/// is at least 2 bytes long) beyond the batch, and a row that never comes within the board is
/// off it at the end. A list that cannot grow is
/// [`BoardError::NoMemory`](crate::BoardError::NoMemory), not an abort.
#[derive(Debug)]
pub struct PermutationCheck {
    columns: u32,
    empty_columns: u64,
    /// The queen with the highest row so far.
    highest: Option<Square>,
    /// The lines marked so far; `None` while a thread marks a batch on them.
    lines: Option<StreamedLines>,
    /// The batch being marked on its own thread, if one is.
    marking: Option<Marking>,
    /// Queens within reach, in the order they came, not yet marked.
    pending: Vec<Square>,
    /// A batch's list, marked and handed back, for the next batch.
    spare: Vec<Square>,
    /// How many queens are marked together: at first, and at most.
    batch: usize,
    largest_batch: usize,
    /// How many queens are marked together now: more while the rows come scattered
    /// ([`SCATTERED`]).
    batch_now: usize,
    /// Queens whose row lies beyond [`reach`] of the columns read when they came.
    far: Vec<Square>,
    /// The column count at which `far` is looked at again.
    next_review: u32,
    collisions: u64,
    first_collisions: Vec<Collision>,
}

impl Default for PermutationCheck {
    fn default() -> Self {
        PermutationCheck::with_batches(STREAM_BATCH, LARGEST_STREAM_BATCH)
    }
}

/// The highest row whose lines are marked at once after `columns` columns; beyond, a queen
/// waits. Eight times the columns read (plus some room), so that a waiting queen costs at
/// most a few bytes per column of a valid board.
fn reach(columns: u32) -> u64 {
    8 * u64::from(columns) + (1 << 16)
}

/// The verdict of a [`PermutationCheck`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PermutationReport {
    /// The board side: the number of columns read.
    pub n: u32,
    /// Queens read.
    pub queens: u64,
    /// Collisions, as [`Verification::collisions`](super::Verification::collisions) counts them: for every line, its queens
    /// after the first (0 for a peaceful board).
    pub collisions: u64,
    /// The first few of them.
    pub first_collisions: Vec<Collision>,
}

impl PermutationReport {
    /// N peaceful queens.
    pub fn is_solution(&self) -> bool {
        self.collisions == 0 && self.queens == u64::from(self.n)
    }

    /// Queens short of N.
    pub fn missing(&self) -> u64 {
        u64::from(self.n) - self.queens
    }
}

impl PermutationCheck {
    /// How many collisions are kept for the report.
    pub const KEPT: usize = 10;

    /// Adds the next column: the row of its queen, or `None` for an empty column.
    pub fn push(&mut self, row: Option<u32>) -> Result<(), crate::BoardError> {
        let col = self.columns;
        self.columns = self
            .columns
            .checked_add(1)
            .ok_or(crate::BoardError::TooLarge)?;
        let Some(row) = row else {
            self.empty_columns += 1;
            return Ok(());
        };
        let queen = Square::new(row, col);
        if self.highest.is_none_or(|highest| row > highest.row) {
            self.highest = Some(queen);
        }
        if u64::from(row) >= reach(self.columns) {
            // 8 bytes for each waiting queen, refused cleanly rather than aborting when the
            // memory cannot be had.
            self.far
                .try_reserve(1)
                .map_err(|_| crate::BoardError::NoMemory)?;
            self.far.push(queen);
        } else {
            self.pending.push(queen);
            if self.pending.len() >= self.batch_now {
                self.mark_pending();
            }
        }
        if self.columns >= self.next_review && !self.far.is_empty() {
            self.next_review = self.columns.saturating_mul(2);
            let limit = reach(self.columns);
            // The queens before the ones let in are marked first, as they came first.
            self.mark_pending();
            let (waiting, reached) = std::mem::take(&mut self.far)
                .into_iter()
                .partition(|queen| u64::from(queen.row) >= limit);
            self.far = waiting;
            self.mark(reached);
        }
        Ok(())
    }

    /// A check marking `batch` queens together (at least one, fewer than 2^24).
    #[cfg(test)]
    fn with_batch(batch: usize) -> Self {
        PermutationCheck::with_batches(batch, batch)
    }

    /// A check marking from `batch` queens together up to `largest`, as the columns grow.
    fn with_batches(batch: usize, largest: usize) -> Self {
        let batch = batch.clamp(1, (1 << INDEX_BITS) - 1);
        PermutationCheck {
            columns: 0,
            empty_columns: 0,
            highest: None,
            lines: Some(StreamedLines::default()),
            marking: None,
            pending: Vec::new(),
            spare: Vec::new(),
            batch,
            largest_batch: largest.clamp(batch, (1 << INDEX_BITS) - 1),
            batch_now: batch,
            far: Vec::new(),
            next_review: 0,
            collisions: 0,
            first_collisions: Vec::new(),
        }
    }

    /// Marks the queens waiting in `pending`.
    fn mark_pending(&mut self) {
        let batch = std::mem::replace(&mut self.pending, std::mem::take(&mut self.spare));
        self.mark(batch);
    }

    /// Marks the lines of `queens` after those before them, `batch` at a time: a large batch
    /// on a thread of its own, so that reading the next one goes on meanwhile.
    fn mark(&mut self, queens: Vec<Square>) {
        let size = self.batch_now;
        if queens.len() > size {
            for part in queens.chunks(size) {
                self.mark(part.to_vec());
            }
            return;
        }
        self.settle();
        let mut lines = self.lines.take().expect("settled lines");
        let wanted = Self::KEPT - self.first_collisions.len();
        if queens.len() < MARK_ASIDE_FROM {
            let found = lines.mark(&queens, wanted, true);
            self.lines = Some(lines);
            self.take(queens, found);
            return;
        }
        self.marking = Some(crate::parallel::begin(move || {
            let found = lines.mark(&queens, wanted, false);
            (lines, queens, found)
        }));
    }

    /// Waits for the batch being marked, if any, and takes in what it found.
    fn settle(&mut self) {
        if let Some(marking) = self.marking.take() {
            let (lines, queens, found) = marking.join();
            self.lines = Some(lines);
            self.take(queens, found);
        }
    }

    /// Counts what marking `queens` found, keeps the first collisions, and keeps the list.
    fn take(&mut self, mut queens: Vec<Square>, found: Found) {
        self.collisions += found.collisions;
        // Scattered rows double the batch, up to a sixteenth of the columns; rows in order
        // bring it back to the least.
        self.batch_now = if found.row_span >= SCATTERED * self.batch as u64 {
            (2 * self.batch_now)
                .min(self.columns as usize / 16)
                .clamp(self.batch, self.largest_batch)
        } else {
            self.batch
        };
        self.first_collisions
            .extend(found.first.into_iter().map(|(index, kind)| Collision {
                queen: queens[index],
                line: STREAMED_LINES[kind],
            }));
        queens.clear();
        if self.spare.capacity() < queens.capacity() {
            self.spare = queens;
        }
    }

    /// The verdict, once every column is in. Fails if a row lies off the N×N board.
    pub fn finish(mut self) -> Result<PermutationReport, crate::BoardError> {
        self.mark_pending();
        self.settle();
        let n = self.columns;
        if n == 0 {
            return Err(crate::BoardError::EmptyBoard { rows: 0, cols: 0 });
        }
        // A queen still waiting lies beyond the board's last row: `highest` names one.
        if let Some(square) = self.highest.filter(|highest| highest.row >= n) {
            return Err(crate::BoardError::OffBoard {
                square,
                rows: n,
                cols: n,
            });
        }
        debug_assert!(self.far.is_empty(), "waiting queens lie off the board");
        Ok(PermutationReport {
            n,
            queens: u64::from(n) - self.empty_columns,
            collisions: self.collisions,
            first_collisions: self.first_collisions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::verify::tests::large_solution;
    use crate::verify::verify;

    #[test]
    fn collisions_mean_one_thing_held_or_streamed() {
        let streamed = |rows: &[u32]| {
            let mut stream = PermutationCheck::default();
            for &row in rows {
                stream.push(Some(row)).unwrap();
            }
            stream.finish().unwrap()
        };
        // The permutation 0 1 0: its row, falling and rising diagonals each hold two queens.
        assert_eq!(streamed(&[0, 1, 0]).collisions, 3);
        assert_eq!(
            verify(&Board::from_permutation(vec![0, 1, 0]).unwrap()).collisions(),
            3
        );
        assert!(
            verify(&Board::from_permutation(vec![0, 1, 0]).unwrap())
                .first_collisions(0)
                .is_empty()
        );
        // Boards that crowd lines with three and more queens, rows far ahead included.
        let mut seed = 7u64;
        for n in [2u32, 3, 5, 8, 13, 40] {
            for _ in 0..200 {
                let rows: Vec<u32> = (0..n)
                    .map(|_| {
                        seed = seed
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(1_442_695_040_888_963_407);
                        ((seed >> 33) % u64::from(n.div_ceil(3))) as u32
                    })
                    .collect();
                let report = streamed(&rows);
                let held = verify(&Board::from_permutation(rows.clone()).unwrap());
                assert_eq!(report.collisions, held.collisions(), "{rows:?}");
                // The same first collisions, in the order the stream found them.
                let kept = held.first_collisions(PermutationCheck::KEPT);
                assert_eq!(report.first_collisions, kept, "{rows:?}");
            }
        }
    }

    #[test]
    fn rows_far_ahead_wait_and_are_still_checked() {
        // Reversed, the first columns hold rows far above the columns read so far.
        let n = 200_002;
        let mut rows: Vec<u32> = large_solution(n).into_iter().rev().collect();
        let check = |rows: &[u32]| {
            let mut stream = PermutationCheck::default();
            for &row in rows {
                stream.push(Some(row)).unwrap();
            }
            assert!(!stream.far.is_empty() || stream.columns == n);
            stream.finish().unwrap()
        };
        assert!(check(&rows).is_solution());
        // The first queen (far ahead when it came) shares a row with the last, and two more
        // queens far ahead share diagonals with later ones.
        rows[0] = rows[(n - 1) as usize];
        rows.swap(5, 70_000);
        let board = Board::from_permutation(rows.clone()).unwrap();
        let report = check(&rows);
        assert_eq!(report.collisions, verify(&board).conflict_count());
        // Marked a batch at a time, on threads of their own, they are found as queen by queen.
        for batch in [1, MARK_ASIDE_FROM + 1] {
            let mut batched = PermutationCheck::with_batch(batch);
            for &row in &rows {
                batched.push(Some(row)).unwrap();
            }
            assert_eq!(batched.finish().unwrap(), report, "batches of {batch}");
        }
        assert!(report.first_collisions.len() > 1);
        // One row beyond any column that comes: off the board, with nothing allocated for it.
        let mut alone = PermutationCheck::default();
        alone.push(Some(u32::MAX - 1)).unwrap();
        assert!(
            alone
                .lines
                .as_ref()
                .unwrap()
                .0
                .iter()
                .all(|kind| kind.bits.0.is_empty())
        );
        assert!(alone.finish().is_err());
    }

    proptest::proptest! {
        /// Marking a batch at a time finds the collisions that marking queen by queen finds,
        /// in the same order, with rows far ahead waiting across batches and reviews.
        #[test]
        fn batches_find_what_one_by_one_finds(
            rows in proptest::collection::vec(
                proptest::prop_oneof![4 => 0u32..12, 1 => 65_000u32..140_000, 1 => proptest::strategy::Just(u32::MAX - 1)],
                1..200,
            ),
            (batch, largest) in proptest::strategy::Strategy::prop_flat_map(1usize..9, |batch| (proptest::strategy::Just(batch), batch..4 * batch)),
        ) {
            // Batches from `batch` queens, growing with the columns up to `largest`.
            let check = |batch: usize, largest: usize| {
                let mut stream = PermutationCheck::with_batches(batch, largest);
                for &row in &rows {
                    stream.push((row != 7).then_some(row)).unwrap();
                }
                stream.mark_pending();
                stream.settle();
                (stream.collisions, stream.first_collisions.clone(), stream.finish().ok())
            };
            proptest::prop_assert_eq!(check(batch, largest), check(1, 1));
        }
    }
}
