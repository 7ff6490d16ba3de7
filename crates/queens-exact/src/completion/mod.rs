//! `completion`: n-Queens Completion decided and counted by bit-parallel search — placed queens
//! kept, blocked squares avoided, on boards up to 64×64.
//!
//! The board is a handful of words: the columns taken, the two kinds of diagonals taken (as
//! 128-bit sets indexed by row + col and col − row + N − 1) and each row's blocked columns, so
//! the squares still open in row r are one expression of shifts and masks. Each step places a
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

/// The largest board: a row's columns fit in 64 bits.
pub const MAX_N: u32 = 64;

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
        It works on N×N boards up to 64, keeps placed queens and avoids blocked squares; `queens \
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
    practical_max_n: Some(64),
    check: |problem, _| {
        if problem.rows() > MAX_N {
            return Err(SolveError::Unsupported {
                solver: DESCRIPTOR.name,
                reason: format!("it works on boards up to {MAX_N}×{MAX_N}"),
            });
        }
        Ok(())
    },
    memory: |problem, _| 8 * u128::from(problem.rows()) + 64,
    unit_cost: |problem, _| 5.0 + 0.5 * f64::from(problem.rows()),
    build: |_, _| crate::TreeSearch::boxed(&DESCRIPTOR, search),
};

/// A position of the search: queens placed, lines taken, squares blocked.
#[derive(Clone, Debug)]
pub struct Position {
    n: u32,
    /// The low N bits.
    full: u64,
    /// Each row's blocked columns.
    blocked: Vec<u64>,
    /// Columns holding a queen.
    cols: u64,
    /// Diagonals row + col holding a queen.
    sums: u128,
    /// Diagonals col − row + N − 1 holding a queen.
    differences: u128,
    /// Rows without a queen.
    free_rows: u64,
    /// The queens, in the order placed.
    queens: Vec<Square>,
}

/// What a look at a position says.
enum Next {
    /// Every row has its queen.
    Complete,
    /// No completion: a free row or column has no open square.
    Dead,
    /// The free row with the fewest open squares, and its open columns.
    Row(u32, u64),
    /// The free column with the fewest open squares, and its open rows.
    Column(u32, u64),
}

impl Position {
    /// The position of `problem`: its placed queens on the board, its blocked squares marked.
    /// `None` for a board over [`MAX_N`] or a problem not N queens on N×N.
    pub fn of(problem: &Problem) -> Option<Self> {
        let n = problem.classic_side().filter(|&n| n <= MAX_N)?;
        let full = if n == 64 { u64::MAX } else { (1 << n) - 1 };
        let mut blocked = vec![0u64; n as usize];
        for square in problem.blocked() {
            blocked[square.row as usize] |= 1 << square.col;
        }
        let mut position = Position {
            n,
            full,
            blocked,
            cols: 0,
            sums: 0,
            differences: 0,
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
    fn open(&self, row: u32) -> u64 {
        let sums = (self.sums >> row) as u64;
        let differences = (self.differences >> (self.n - 1 - row)) as u64;
        !(self.cols | self.blocked[row as usize] | sums | differences) & self.full
    }

    /// The open squares of a free row (`on_row`) or column, one bit per square along it.
    fn open_on(&self, on_row: bool, line: u32) -> u64 {
        if on_row {
            return self.open(line);
        }
        let mut rows = self.free_rows;
        let mut open = 0;
        while rows != 0 {
            let row = rows.trailing_zeros();
            rows &= rows - 1;
            open |= (self.open(row) >> line & 1) << row;
        }
        open
    }

    #[inline]
    fn place(&mut self, row: u32, col: u32) {
        self.cols |= 1 << col;
        self.sums |= 1 << (row + col);
        self.differences |= 1 << (col + self.n - 1 - row);
        self.free_rows &= !(1 << row);
        self.queens.push(Square::new(row, col));
    }

    #[inline]
    fn remove(&mut self, row: u32, col: u32) {
        self.cols &= !(1 << col);
        self.sums &= !(1 << (row + col));
        self.differences &= !(1 << (col + self.n - 1 - row));
        self.free_rows |= 1 << row;
        self.queens.pop();
    }

    /// The most constrained free line (row or column) and its open squares, or why there is
    /// none.
    #[inline]
    fn next(&self) -> Next {
        if self.free_rows == 0 {
            return Next::Complete;
        }
        // Open squares per column, counted for all columns at once in bit-sliced counters.
        let mut counters = [0u64; 7];
        let mut best_row = (u32::MAX, 0u32, 0u64);
        let mut rows = self.free_rows;
        while rows != 0 {
            let row = rows.trailing_zeros();
            rows &= rows - 1;
            let open = self.open(row);
            let count = open.count_ones();
            if count == 0 {
                return Next::Dead;
            }
            if count < best_row.0 {
                best_row = (count, row, open);
            }
            let mut carry = open;
            for counter in &mut counters {
                let next = *counter & carry;
                *counter ^= carry;
                carry = next;
                if carry == 0 {
                    break;
                }
            }
        }
        let free_cols = !self.cols & self.full;
        let reachable = counters.iter().fold(0, |any, counter| any | counter);
        if reachable & free_cols != free_cols {
            return Next::Dead;
        }
        if best_row.0 > 1 {
            let mut best_col = (u32::MAX, 0u32);
            let mut cols = free_cols;
            while cols != 0 {
                let col = cols.trailing_zeros();
                cols &= cols - 1;
                let count = counters
                    .iter()
                    .enumerate()
                    .map(|(bit, counter)| (((counter >> col) & 1) as u32) << bit)
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

impl Next {
    /// The line to branch on — whether it is a row, its index, its open squares one per bit —
    /// or `None` for a complete or dead position.
    #[inline]
    fn branch(&self) -> Option<(bool, u32, u64)> {
        match *self {
            Next::Row(row, open) => Some((true, row, open)),
            Next::Column(col, open) => Some((false, col, open)),
            Next::Complete | Next::Dead => None,
        }
    }
}

/// The square of branch `bit` on a row (its column) or a column (its row).
#[inline]
fn branch_square(on_row: bool, line: u32, bit: u32) -> (u32, u32) {
    if on_row { (line, bit) } else { (bit, line) }
}

/// The search as the tree-search runner calls it.
fn search(problem: &Problem, walk: &mut Walk<'_, '_>) -> Found {
    let Some(mut position) = Position::of(problem) else {
        // The descriptor's check refuses such a problem before the run.
        return Ok(None);
    };
    let (budget, reporter, nodes) = walk.parts();
    let found = decide(&mut position, budget, nodes, reporter)?;
    Ok(found.then(|| position.queens.clone()))
}

/// Whether `position` completes; on `true` the position holds the completion.
fn decide(
    position: &mut Position,
    budget: &Budget,
    nodes: &mut u64,
    reporter: &mut Reporter<'_>,
) -> Result<bool, StopReason> {
    let next = position.next();
    let Some((on_row, line, mut open)) = next.branch() else {
        return Ok(matches!(next, Next::Complete));
    };
    while open != 0 {
        let (row, col) = branch_square(on_row, line, open.trailing_zeros());
        open &= open - 1;
        count_node(nodes, budget)?;
        let square = Square::new(row, col);
        position.place(row, col);
        reporter.place(square)?;
        let depth = position.queens.len() as i64;
        reporter.step_at(*nodes, || depth, Some(square))?;
        if decide(position, budget, nodes, reporter)? {
            return Ok(true);
        }
        position.remove(row, col);
        reporter.remove(square)?;
    }
    Ok(false)
}

mod count;
mod row_order;

pub use count::{CompletionCount, Counted, Method, count, count_through_squares};
