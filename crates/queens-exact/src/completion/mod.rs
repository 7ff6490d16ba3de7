//! `completion`: n-Queens Completion decided and counted by bit-parallel search — placed queens
//! kept, blocked squares avoided, on boards up to 1024×1024.
//!
//! The board is a handful of bit sets: the columns taken, the two kinds of diagonals taken
//! (indexed by row + col and col − row + N − 1) and each row's blocked columns, so the squares
//! still open in row r are one expression of shifts and masks. A set is one machine word on
//! boards up to 64 and 2 to 16 words beyond ([`bits`]); the search is written once for both. Each step places a
//! queen in the free row with the fewest open squares (a row with one is a forced placement, a
//! row with none fails at once), and fails as soon as a free column has no open square left in
//! any free row. Counting walks the same tree to its leaves, its first levels split among the
//! threads; where the position is symmetric (its placed queens and blocked squares mapped onto
//! themselves by some symmetries of the square), the first line branched on is one those
//! symmetries keep in place, and one square of each orbit on it stands for the others.

use queens_core::descriptor::{BlockedSquares, BoardShape, Counts, FixedQueens, Shapes, line};
use queens_core::solve::Reporter;
use queens_core::{Budget, Problem, SolveError, SolverDescriptor, Square, StopReason};

use crate::{Found, Walk, count_node};

/// The largest board: a row's columns fit in sixteen 64-bit words.
pub const MAX_N: u32 = 1024;

/// `completion`'s descriptor.
pub static DESCRIPTOR: SolverDescriptor = SolverDescriptor {
    name: "completion",
    summary: "bit-parallel search for n-Queens Completion: the most constrained row first, forced queens, early failure",
    explanation: "The solver for completing a position: queens already placed, squares blocked, \
        the rest to fill. The board is a few machine words (columns taken, diagonals taken, each \
        row's blocked squares), so the open squares of any row come out of a handful of shifts \
        and masks. Each step looks at every free row, takes the one with the fewest open squares \
        and tries them in turn: a row with one open square is a forced queen, a row with none \
        means the position is lost, and so is a free column that no free row can still reach. \
        Choosing the most constrained row first is the first-fail principle of constraint \
        solving; counting the open squares of every row and column at each step is the cheap \
        reasoning the n-Queens Completion instances of Gent, Jefferson and Nightingale \
        (\"Complexity of n-Queens Completion\", 2017) reward.\n\n\
        It works on N×N boards up to 1024, keeps placed queens and avoids blocked squares; `queens \
        count` uses the same search to count every completion.",
    pseudo_code: &[
        line("", "solve(board):"),
        line("", "    if every row has its queen: return the board"),
        line(
            "reject",
            "    if a free row or column has no open square: fail",
        ),
        line(
            "step",
            "    row ← the free row with the fewest open squares",
        ),
        line(
            "place",
            "    for each open square of row: place a queen, solve",
        ),
        line("backtrack", "        take it back"),
    ],
    score: "the queens on the board, placed ones included; N means solved",
    unit: "a queen placed",
    counts: Counts::Nodes,
    shapes: Shapes {
        board: BoardShape::Classic,
        fixed: FixedQueens::Kept,
        blocked: BlockedSquares::Avoided,
    },
    randomized: false,
    parameters: &[],
    default_max_iterations: |_| None,
    practical_max_n: Some(MAX_N),
    marks: None,
    neighbourhood: false,
    check: |problem, _| {
        if problem.rows() > MAX_N {
            return Err(SolveError::Unsupported {
                solver: DESCRIPTOR.name,
                reason: format!("it works on boards up to {MAX_N}×{MAX_N}"),
            });
        }
        Ok(())
    },
    // Each row's blocked columns, a set of N bits, and the queens.
    memory: |problem, _| {
        let n = u128::from(problem.rows());
        n * (n.div_ceil(64) * 8 + 8) + 1024
    },
    unit_cost: |problem, _| 5.0 + 0.5 * f64::from(problem.rows()),
    build: |_, _| crate::TreeSearch::boxed(&DESCRIPTOR, search),
};

/// A position of the search: queens placed, lines taken, squares blocked, in sets of `L`.
#[derive(Clone, Debug)]
pub struct Position<L: Lines> {
    n: u32,
    /// The low N bits.
    full: L,
    /// Each row's blocked columns.
    blocked: Vec<L>,
    /// Columns holding a queen.
    cols: L,
    /// Diagonals row + col holding a queen.
    sums: L::Diagonals,
    /// Diagonals col − row + N − 1 holding a queen.
    differences: L::Diagonals,
    /// Rows without a queen.
    free_rows: L,
    /// The queens, in the order placed.
    queens: Vec<Square>,
}

/// What a look at a position says.
enum Next<L> {
    /// Every row has its queen.
    Complete,
    /// No completion: a free row or column has no open square.
    Dead,
    /// The free row with the fewest open squares, and its open columns.
    Row(u32, L),
    /// The free column with the fewest open squares, and its open rows.
    Column(u32, L),
}

/// Bit-sliced counters of open squares per column: counts up to 2¹¹ − 1, enough for 1024 rows.
const COUNTER_BITS: usize = 11;

impl<L: Lines> Position<L> {
    /// The position of `problem`: its placed queens on the board, its blocked squares marked.
    /// `None` for a board wider than `L` holds or a problem not N queens on N×N.
    pub fn of(problem: &Problem) -> Option<Self> {
        let n = problem.classic_side().filter(|&n| n <= L::CAPACITY)?;
        let full = L::first(n);
        let mut blocked = vec![L::empty(); n as usize];
        for square in problem.blocked() {
            blocked[square.row as usize].insert(square.col);
        }
        let mut position = Position {
            n,
            full,
            blocked,
            cols: L::empty(),
            sums: L::no_diagonals(),
            differences: L::no_diagonals(),
            free_rows: full,
            queens: Vec::with_capacity(n as usize),
        };
        for &queen in problem.fixed() {
            position.place(queen.row, queen.col);
        }
        Some(position)
    }

    /// The open squares of `row`: not blocked, not attacked.
    #[inline]
    fn open(&self, row: u32) -> L {
        let sums = L::window(&self.sums, row);
        let differences = L::window(&self.differences, self.n - 1 - row);
        !(self.cols | self.blocked[row as usize] | sums | differences) & self.full
    }

    /// The open squares of a free row (`on_row`) or column, one bit per square along it.
    fn open_on(&self, on_row: bool, line: u32) -> L {
        if on_row {
            return self.open(line);
        }
        let mut rows = self.free_rows;
        let mut open = L::empty();
        while let Some(row) = rows.pop_lowest() {
            if self.open(row).has(line) {
                open.insert(row);
            }
        }
        open
    }

    #[inline]
    fn place(&mut self, row: u32, col: u32) {
        self.cols.insert(col);
        L::insert_diagonal(&mut self.sums, row + col);
        L::insert_diagonal(&mut self.differences, col + self.n - 1 - row);
        self.free_rows.remove(row);
        self.queens.push(Square::new(row, col));
    }

    #[inline]
    fn remove(&mut self, row: u32, col: u32) {
        self.cols.remove(col);
        L::remove_diagonal(&mut self.sums, row + col);
        L::remove_diagonal(&mut self.differences, col + self.n - 1 - row);
        self.free_rows.insert(row);
        self.queens.pop();
    }

    /// The most constrained free line (row or column) and its open squares, or why there is
    /// none.
    #[inline]
    fn next(&self) -> Next<L> {
        if self.free_rows.is_empty() {
            return Next::Complete;
        }
        // Open squares per column, counted for all columns at once in bit-sliced counters.
        let mut all_counters = [L::empty(); COUNTER_BITS];
        let counters = &mut all_counters[..L::COUNT_BITS];
        let mut best_row = (u32::MAX, 0u32, L::empty());
        let mut rows = self.free_rows;
        while let Some(row) = rows.pop_lowest() {
            let open = self.open(row);
            let count = open.count();
            if count == 0 {
                return Next::Dead;
            }
            if count < best_row.0 {
                best_row = (count, row, open);
            }
            let mut carry = open;
            for counter in counters.iter_mut() {
                let next = *counter & carry;
                *counter = *counter ^ carry;
                carry = next;
                if carry.is_empty() {
                    break;
                }
            }
        }
        let free_cols = !self.cols & self.full;
        let reachable = counters
            .iter()
            .fold(L::empty(), |any, &counter| any | counter);
        if reachable & free_cols != free_cols {
            return Next::Dead;
        }
        if best_row.0 > 1 {
            let mut best_col = (u32::MAX, 0u32);
            let mut cols = free_cols;
            while let Some(col) = cols.pop_lowest() {
                let count = counters
                    .iter()
                    .enumerate()
                    .map(|(bit, counter)| u32::from(counter.has(col)) << bit)
                    .sum::<u32>();
                if count < best_col.0 {
                    best_col = (count, col);
                }
            }
            if best_col.0 < best_row.0 {
                let col = best_col.1;
                return Next::Column(col, self.open_on(false, col));
            }
        }
        Next::Row(best_row.1, best_row.2)
    }
}

impl<L: Lines> Next<L> {
    /// The line to branch on — whether it is a row, its index, its open squares one per bit —
    /// or `None` for a complete or dead position.
    #[inline]
    fn branch(&self) -> Option<(bool, u32, L)> {
        match *self {
            Next::Row(row, open) => Some((true, row, open)),
            Next::Column(col, open) => Some((false, col, open)),
            Next::Complete | Next::Dead => None,
        }
    }
}

/// Runs `$body` with `$lines` the set type for an N×N board: a machine word up to 64, wide sets
/// up to [`MAX_N`]; `$none` for a larger board.
macro_rules! with_lines {
    ($n:expr, $lines:ident => $body:expr, $none:expr) => {
        with_lines!(@sizes $n, $lines => $body, $none;
            0..=64 => u64,
            65..=128 => $crate::completion::bits::Lines128,
            129..=256 => $crate::completion::bits::Lines256,
            257..=512 => $crate::completion::bits::Lines512,
            513..=1024 => $crate::completion::bits::Lines1024,
        )
    };
    (@sizes $n:expr, $lines:ident => $body:expr, $none:expr; $($sides:pat => $set:ty,)*) => {
        match $n {
            $($sides => {
                type $lines = $set;
                $body
            })*
            _ => $none,
        }
    };
}

/// The square of branch `bit` on a row (its column) or a column (its row).
#[inline]
fn branch_square(on_row: bool, line: u32, bit: u32) -> (u32, u32) {
    if on_row { (line, bit) } else { (bit, line) }
}

/// The search as the tree-search runner calls it.
fn search(problem: &Problem, walk: &mut Walk<'_, '_>) -> Found {
    let n = problem.rows();
    with_lines!(n, L => {
        let Some(mut position) = Position::<L>::of(problem) else {
            // The descriptor's check refuses such a problem before the run.
            return Ok(None);
        };
        let (budget, reporter, nodes) = walk.parts();
        let found = decide_with_restarts(&mut position, budget, nodes, reporter)?;
        Ok(found.then(|| position.queens.clone()))
    }, Ok(None))
}

/// From this many free rows on, the search restarts (see [`decide_with_restarts`]).
const RESTARTS_FROM: u32 = 32;

/// Why a run of the search ended before its end.
enum Halt {
    /// The budget stopped it.
    Stop(StopReason),
    /// It placed the queens its run allowed.
    Cap,
}

impl From<StopReason> for Halt {
    fn from(stop: StopReason) -> Self {
        Halt::Stop(stop)
    }
}

/// Whether `position` completes; on `true` the position holds the completion.
///
/// A position with few free rows is searched once, to its end. On one with many (a large,
/// nearly empty board) a search stuck deep in a barren subtree can wander for hours below a
/// completion it would reach at once from another first choice — the heavy tail of
/// backtracking — so the search restarts: run i tries each line's squares in a rotated order of
/// its own and may place 64·N·2ⁱ queens; the last run is whole. Doubling caps cost at most twice
/// a single search when there is no completion (the runs before the whole one add up to less
/// than it), and a completion is usually found within the first runs. Every run is
/// deterministic, so node counts are too.
fn decide_with_restarts<L: Lines>(
    position: &mut Position<L>,
    budget: &Budget,
    nodes: &mut u64,
    reporter: &mut Reporter<'_>,
) -> Result<bool, StopReason> {
    if position.free_rows.count() < RESTARTS_FROM {
        let mut unlimited = u64::MAX;
        return match decide(position, 0, &mut unlimited, budget, nodes, reporter) {
            Ok(found) => Ok(found),
            Err(Halt::Stop(stop)) => Err(stop),
            Err(Halt::Cap) => unreachable!("an unlimited run has no cap"),
        };
    }
    let mut cap = 64 * u64::from(position.n);
    for run in 0.. {
        let mut left = cap;
        match decide(position, run, &mut left, budget, nodes, reporter) {
            Ok(found) => return Ok(found),
            Err(Halt::Stop(stop)) => return Err(stop),
            Err(Halt::Cap) => cap = cap.saturating_mul(2),
        }
    }
    unreachable!("the runs go on until one ends")
}

/// One run of the search: whether `position` completes (on `true` the position holds the
/// completion), trying each line's squares from a point that depends on `run` and the depth
/// (run 0: in order), placing at most `left` queens.
fn decide<L: Lines>(
    position: &mut Position<L>,
    run: u32,
    left: &mut u64,
    budget: &Budget,
    nodes: &mut u64,
    reporter: &mut Reporter<'_>,
) -> Result<bool, Halt> {
    let next = position.next();
    let Some((on_row, line, open)) = next.branch() else {
        return Ok(matches!(next, Next::Complete));
    };
    let pivot = rotation(run, position.queens.len(), position.n);
    let from_pivot = open & !L::first(pivot);
    let before_pivot = open & L::first(pivot);
    for mut part in [from_pivot, before_pivot] {
        while let Some(bit) = part.pop_lowest() {
            if *left == 0 {
                return Err(Halt::Cap);
            }
            *left -= 1;
            let (row, col) = branch_square(on_row, line, bit);
            count_node(nodes, budget)?;
            let square = Square::new(row, col);
            position.place(row, col);
            reporter.place(square)?;
            let depth = position.queens.len() as i64;
            reporter.step_at(*nodes, || depth, Some(square))?;
            let below = decide(position, run, left, budget, nodes, reporter);
            if matches!(below, Ok(true) | Err(Halt::Stop(_))) {
                return below;
            }
            position.remove(row, col);
            reporter.remove(square)?;
            below?;
        }
    }
    Ok(false)
}

/// Where run `run` starts trying a line's squares at `depth`: 0 for the first run, a
/// well-spread point of the line for the others.
fn rotation(run: u32, depth: usize, n: u32) -> u32 {
    if run == 0 {
        return 0;
    }
    let mixed = (u64::from(run) << 32 | depth as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    ((mixed >> 32) % u64::from(n)) as u32
}

pub mod bits;
mod count;
mod row_order;

use bits::Lines;

pub use count::{CompletionCount, Counted, Method, count, count_through_squares};

#[cfg(test)]
mod wide_tests {
    //! The wide sets against the machine word (the same search, so the same answers and the
    //! same nodes) and against brute force on small boards.

    use super::bits::{Lines128, Lines256, Lines1024};
    use super::*;
    use proptest::prelude::*;

    /// Every completion of `problem`, by trying every permutation of columns row by row.
    fn brute_force(problem: &Problem) -> u128 {
        fn extend(problem: &Problem, queens: &mut Vec<Square>) -> u128 {
            let n = problem.rows();
            let row = queens.len() as u32;
            if row == n {
                return 1;
            }
            let mut total = 0;
            for col in 0..n {
                let square = Square::new(row, col);
                let fixed_here = problem.fixed().iter().find(|q| q.row == row);
                if fixed_here.is_some_and(|q| q.col != col) || problem.blocked().contains(&square) {
                    continue;
                }
                let attacked = queens
                    .iter()
                    .any(|q| q.col == col || q.row.abs_diff(row) == q.col.abs_diff(col));
                if !attacked {
                    queens.push(square);
                    total += extend(problem, queens);
                    queens.pop();
                }
            }
            total
        }
        extend(problem, &mut Vec::new())
    }

    /// Completions and nodes of the whole search tree with sets of `L`.
    fn tree<L: Lines>(problem: &Problem) -> (u128, u64) {
        let mut position = Position::<L>::of(problem).unwrap();
        let mut counted = count::Counted::default();
        count::count_from(&mut position, &Budget::unlimited(), &mut counted).unwrap();
        (counted.completions, counted.nodes)
    }

    /// The first completion found, and the nodes it took, with sets of `L`.
    fn first<L: Lines>(problem: &Problem) -> (Option<Vec<Square>>, u64) {
        let mut position = Position::<L>::of(problem).unwrap();
        let mut nodes = 0;
        let mut observer = queens_core::NoObserver;
        let mut reporter = Reporter::new(&mut observer);
        let found = decide_with_restarts(
            &mut position,
            &Budget::unlimited(),
            &mut nodes,
            &mut reporter,
        )
        .unwrap();
        (found.then(|| position.queens.clone()), nodes)
    }

    fn position(n: u32, squares: &[(u32, u32)], blocks: &[(u32, u32)]) -> Option<Problem> {
        let mut fixed: Vec<Square> = Vec::new();
        for &(row, col) in squares {
            let square = Square::new(row % n, col % n);
            let clash = fixed.iter().any(|q| {
                q.row == square.row
                    || q.col == square.col
                    || q.row.abs_diff(square.row) == q.col.abs_diff(square.col)
            });
            if !clash {
                fixed.push(square);
            }
        }
        let blocked: Vec<Square> = blocks
            .iter()
            .map(|&(row, col)| Square::new(row % n, col % n))
            .filter(|square| !fixed.contains(square))
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        Problem::square(n)
            .ok()?
            .with_blocked(blocked)
            .ok()?
            .with_fixed(fixed)
            .ok()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn wide_sets_count_as_brute_force_and_as_the_machine_word(
            n in 1u32..=9,
            squares in proptest::collection::vec((0u32..9, 0u32..9), 0..3),
            blocks in proptest::collection::vec((0u32..9, 0u32..9), 0..12),
        ) {
            let Some(problem) = position(n, &squares, &blocks) else { return Ok(()) };
            let word = tree::<u64>(&problem);
            prop_assert_eq!(word.0, brute_force(&problem));
            prop_assert_eq!(tree::<Lines128>(&problem), word);
            prop_assert_eq!(tree::<Lines1024>(&problem), word);
            prop_assert_eq!(first::<Lines256>(&problem), first::<u64>(&problem));
        }

        #[test]
        fn wide_sets_search_as_the_machine_word_up_to_64(
            n in 33u32..=64,
            squares in proptest::collection::vec((0u32..64, 0u32..64), 0..6),
            blocks in proptest::collection::vec((0u32..64, 0u32..64), 0..40),
        ) {
            let Some(problem) = position(n, &squares, &blocks) else { return Ok(()) };
            let (found, nodes) = first::<u64>(&problem);
            prop_assert_eq!(first::<Lines128>(&problem), (found.clone(), nodes));
            if let Some(queens) = found {
                let board = queens_core::Board::with_queens(n, n, queens).unwrap();
                prop_assert!(queens_core::verify::verify(&board).is_solution());
            }
        }
    }
}
