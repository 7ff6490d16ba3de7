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

use multiversion::multiversion;
use queens_core::descriptor::{BlockedSquares, BoardShape, Counts, FixedQueens, Shapes, line};
use queens_core::{Problem, SolveError, SolverDescriptor, Square};

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
        line("solved", "    if every row has its queen: return the board"),
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
    build: |_, params| crate::TreeSearch::boxed(&DESCRIPTOR, decide::search, params),
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
        if L::CAPACITY <= 64 {
            most_constrained_in_one_word(self)
        } else {
            most_constrained_in_wide_sets(self)
        }
    }
}

/// [`most_constrained`] on boards up to 64, compiled also for processors with a population count
/// instruction and picked at run time, so that a portable build counts a row's open squares in
/// one instruction where it can (about a sixth less time on the ASP instances).
#[multiversion(targets("x86_64+popcnt+bmi1+bmi2+lzcnt", "x86_64+popcnt"))]
fn most_constrained_in_one_word<L: Lines>(position: &Position<L>) -> Next<L> {
    most_constrained(position)
}

/// [`most_constrained`] on boards over 64, kept out of line: its counters take a kilobyte or
/// two, which a recursive caller should not carry on every level of its stack.
#[inline(never)]
fn most_constrained_in_wide_sets<L: Lines>(position: &Position<L>) -> Next<L> {
    most_constrained(position)
}

/// [`Position::next`]: most of the search's time, a count of open squares for every free row.
// Inlined into each compiled copy so that it is compiled with the copy's instructions.
#[allow(clippy::inline_always)]
#[inline(always)]
fn most_constrained<L: Lines>(position: &Position<L>) -> Next<L> {
    if position.free_rows.is_empty() {
        return Next::Complete;
    }
    // Open squares per column, counted for all columns at once in bit-sliced counters.
    let mut all_counters = [L::empty(); COUNTER_BITS];
    let counters = &mut all_counters[..L::COUNT_BITS];
    let mut best_row = (u32::MAX, 0u32, L::empty());
    let mut rows = position.free_rows;
    while let Some(row) = rows.pop_lowest() {
        let open = position.open(row);
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
            // A word's seven steps cost less than a branch that is hard to predict.
            if L::CAPACITY > 64 && carry.is_empty() {
                break;
            }
        }
    }
    let free_cols = !position.cols & position.full;
    let reachable = counters
        .iter()
        .fold(L::empty(), |any, &counter| any | counter);
    if reachable & free_cols != free_cols {
        return Next::Dead;
    }
    if best_row.0 > 1 {
        let (count, col) = fewest(counters, free_cols);
        if count < best_row.0 {
            return Next::Column(col, position.open_on(false, col));
        }
    }
    Next::Row(best_row.1, best_row.2)
}

/// The smallest count among the lines of `among` (not empty) in bit-sliced `counters` (bit b
/// of every line's count in `counters[b]`), and the lowest line with it: from the highest bit
/// down, the lines whose count has a 0 there win whenever there are any.
#[inline]
fn fewest<L: Lines>(counters: &[L], among: L) -> (u32, u32) {
    let mut candidates = among;
    let mut count = 0;
    for (bit, &counter) in counters.iter().enumerate().rev() {
        let zero_here = candidates & !counter;
        if zero_here.is_empty() {
            count |= 1 << bit;
        } else {
            candidates = zero_here;
        }
    }
    let lowest = candidates
        .pop_lowest()
        .expect("the candidates never empty: a bit drops lines only when some stay");
    (count, lowest)
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

pub mod bits;
mod count;
mod decide;
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
    use queens_core::Budget;
    use queens_core::solve::Reporter;

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
        let found = decide::decide(
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
        fn the_fewest_count_is_the_smallest_and_its_lowest_line(
            counts in proptest::collection::vec(0u32..128, 1..64),
            among in 1u64..,
        ) {
            let mut counters = [0u64; 7];
            for (line, &count) in counts.iter().enumerate() {
                for (bit, counter) in counters.iter_mut().enumerate() {
                    *counter |= u64::from(count >> bit & 1) << line;
                }
            }
            let among = among & u64::first(counts.len() as u32);
            prop_assume!(among != 0);
            let lines = (0..counts.len() as u32).filter(|&line| among.has(line));
            let smallest = lines.clone().map(|line| counts[line as usize]).min().unwrap();
            let lowest = lines.clone().find(|&line| counts[line as usize] == smallest).unwrap();
            prop_assert_eq!(fewest(&counters, among), (smallest, lowest));
        }

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
