//! `forward-checking`: backtracking that strikes the squares each new queen attacks from the
//! rows still to fill, and backs up as soon as one of them has no square left.
//!
//! The rows are filled from the bottom as in [`backtracking`](crate::backtracking), but every
//! unfilled row keeps a count of its free squares. Placing a queen in row `r` strikes at most
//! three squares in each later row `r + d` (its column and the two diagonals at distance `d`),
//! so a placement costs O(rows) and the state is O(rows + cols), whatever the board size. One
//! node is one placement.

use queens_core::descriptor::line;
use queens_core::solve::Reporter;
use queens_core::{Budget, Problem, SolverDescriptor, Square};

use crate::lines::LineCounts;
use crate::rows::RowStack;
use crate::shared;
use crate::{Found, Tally, Walk, count_node};

/// `forward-checking`'s descriptor.
pub static DESCRIPTOR: SolverDescriptor = tree_search! {
    name: "forward-checking",
    summary: "backtracking that strikes attacked squares from later rows and backs up when one empties",
    explanation: "Backtracking that looks ahead. Every row still to fill keeps a count of its free squares; \
        placing a queen strikes the squares it attacks in those rows (at most three per row: its \
        column and its two diagonals). As soon as some later row has no free square left, the \
        placement is hopeless and the search backs up at once, without trying the rows in \
        between. Fewer placements are made than by plain backtracking, at a cost per placement \
        that grows with the rows left.\n\n\
        Forward checking is the classic improvement of Haralick and Elliott (\"Increasing tree \
        search efficiency for constraint satisfaction problems\", 1980). Here it keeps locked \
        queens, takes any board with one queen per row, and is the default exhaustive solver: \
        it proves that a position has no solution as well as it finds one.",
    pseudo_code: &[
        line("", "solve(row):"),
        line(
            "solved",
            "    if every row has its queen: return the board (finding all: count it, go on)",
        ),
        line("step", "    for each square (row, c) not yet struck:"),
        line(
            "place",
            "        put a queen there; strike the squares it attacks",
        ),
        line(
            "backtrack",
            "        if a later row has no square left: take it back",
        ),
        line(
            "",
            "        else solve(the next free row); on failure take it back",
        ),
        line("", "    every square failed: return to the row below"),
    ],
    score: "the queens placed so far: the depth of the search; N means solved",
    unit: "a placement",
    shapes: shared::ONE_PER_ROW,
    practical_max_n: 28,
    memory: shared::row_search_bytes,
    unit_cost: |problem, _| 20.0 + 1.2 * f64::from(problem.rows()).powi(2),
    search: search,
};

/// Backtracking with forward checking of the remaining rows.
pub(crate) fn search(problem: &Problem, walk: &mut Walk<'_, '_>) -> Found {
    let (budget, reporter, nodes, tally) = walk.parts();
    Search::new(problem).run(budget, reporter, nodes, tally)
}

struct Search<'p> {
    problem: &'p Problem,
    lines: LineCounts,
    /// The rows without a fixed queen, bottom first.
    free_rows: Vec<u32>,
    /// For each free row (by depth), how many of its squares are neither attacked by a queen
    /// nor blocked.
    free_squares: Vec<u32>,
}

impl<'p> Search<'p> {
    fn new(problem: &'p Problem) -> Self {
        let free_rows = problem.free_rows();
        let mut lines = LineCounts::new(problem.rows(), problem.cols());
        for &queen in problem.fixed() {
            lines.place(queen);
        }
        let free_squares = free_rows
            .iter()
            .map(|&row| problem.cols() - unavailable(problem, row))
            .collect();
        Search {
            problem,
            lines,
            free_rows,
            free_squares,
        }
    }

    /// The walk; a free square of the last free row makes a solution, and the search goes on
    /// from it when asked for more.
    fn run(
        mut self,
        budget: &Budget,
        reporter: &mut Reporter<'_>,
        nodes: &mut u64,
        tally: &mut Tally,
    ) -> Found {
        if self.free_squares.contains(&0) {
            return Ok(());
        }
        let mut stack = RowStack::new(self.free_rows.clone(), self.problem.cols());
        if stack.is_complete() {
            // Every row holds a fixed queen: the board as given, no node examined.
            tally.found(reporter, 0, i64::from(self.problem.queens()), None, || {
                self.problem.fixed().to_vec()
            })?;
            return Ok(());
        }
        loop {
            let depth = stack.depth();
            let last_row = depth + 1 == stack.rows();
            let mut advanced = false;
            while let Some(square) = stack.next_square() {
                if self.lines.is_attacked(square) || self.problem.is_blocked(square) {
                    continue;
                }
                count_node(nodes, budget)?;
                reporter.place(square)?;
                if last_row {
                    let board = || stack.board_with(self.problem.fixed(), square);
                    if tally.found(reporter, *nodes, depth as i64 + 1, Some(square), board)? {
                        return Ok(());
                    }
                    reporter.remove(square)?;
                    continue;
                }
                reporter.step_at(*nodes, || depth as i64 + 1, Some(square))?;
                if self.place(depth, square) {
                    advanced = true;
                    break;
                }
                self.remove(depth, square);
                reporter.remove(square)?;
            }
            if advanced {
                stack.advance();
            } else {
                let Some(square) = stack.back() else {
                    return Ok(());
                };
                self.remove(stack.depth(), square);
                reporter.remove(square)?;
            }
        }
    }

    /// Places the queen of `depth` and strikes what it attacks; `false` if a later row is left
    /// without a free square (the queen stays placed: undo with [`remove`](Self::remove)).
    fn place(&mut self, depth: usize, square: Square) -> bool {
        let wiped_out = self.count_later_squares(depth, square, |free| {
            *free -= 1;
            *free == 0
        });
        self.lines.place(square);
        !wiped_out
    }

    /// Takes the queen of `depth` off and gives back the squares only it attacked.
    fn remove(&mut self, depth: usize, square: Square) {
        self.lines.remove(square);
        self.count_later_squares(depth, square, |free| {
            *free += 1;
            false
        });
    }

    /// Applies `change` to a later row's count of free squares for each of its squares that
    /// `square` attacks and no queen on the board does; whether any change said so.
    fn count_later_squares(
        &mut self,
        depth: usize,
        square: Square,
        mut change: impl FnMut(&mut u32) -> bool,
    ) -> bool {
        let Search {
            problem,
            lines,
            free_rows,
            free_squares,
        } = self;
        let mut said = false;
        for (later, struck) in later_squares_attacked(free_rows, problem.cols(), depth, square) {
            if !lines.is_attacked(struck) && !problem.is_blocked(struck) {
                said |= change(&mut free_squares[later]);
            }
        }
        said
    }
}

/// The squares of the free rows after `depth` that a queen on `square` attacks: one to three
/// per row (its column and the two diagonals), each with the depth of its row.
fn later_squares_attacked(
    free_rows: &[u32],
    cols: u32,
    depth: usize,
    square: Square,
) -> impl Iterator<Item = (usize, Square)> + '_ {
    free_rows
        .iter()
        .enumerate()
        .skip(depth + 1)
        .flat_map(move |(later, &row)| {
            let distance = row - square.row;
            let left = square.col.checked_sub(distance);
            let right = square.col.checked_add(distance).filter(|&c| c < cols);
            [Some(square.col), left, right]
                .into_iter()
                .flatten()
                .map(move |col| (later, Square::new(row, col)))
        })
}

/// How many squares of `row` the fixed queens attack or the problem blocks.
fn unavailable(problem: &Problem, row: u32) -> u32 {
    let cols = i64::from(problem.cols());
    let blocked = problem
        .blocked()
        .iter()
        .filter(|square| square.row == row)
        .map(|square| i64::from(square.col));
    let mut unavailable: Vec<i64> = problem
        .fixed()
        .iter()
        .flat_map(|q| {
            let distance = i64::from(row) - i64::from(q.row);
            let col = i64::from(q.col);
            [col, col - distance, col + distance]
        })
        .filter(|&c| (0..cols).contains(&c))
        .chain(blocked)
        .collect();
    unavailable.sort_unstable();
    unavailable.dedup();
    unavailable.len() as u32
}
