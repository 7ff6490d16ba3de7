//! `backtracking`: row by row, abandoning a branch at the first conflict — the Queen's
//! Challenge's third solver.
//!
//! Fixed queens stand on the board from the start and their rows are skipped. In each free row,
//! from the bottom, the columns are tried left to right; a square attacked by a queen already on
//! the board is abandoned at once. One node is one square tried. The loop keeps its own stack,
//! so depth is limited by memory only.

use queens_core::descriptor::line;
use queens_core::{Problem, SolverDescriptor};

use crate::lines::LineCounts;
use crate::rows::RowStack;
use crate::shared;
use crate::{Found, Walk, count_node};

/// `backtracking`'s descriptor.
pub static DESCRIPTOR: SolverDescriptor = tree_search! {
    name: "backtracking",
    summary: "row by row from the bottom, abandoning a square at the first conflict",
    explanation: "Instead of building whole boards and checking them at the end, backtracking checks each \
        queen as it is placed. Rows are filled from the bottom; in each row the columns are tried \
        left to right, and a square attacked by a queen already on the board is abandoned at \
        once. When a row has no safe square left, the search backs up to the previous row and \
        moves that queen on. A conflict found early prunes every board that would have \
        contained it, which is why 8×8 needs only a few hundred squares tried.\n\n\
        It is the Queen's Challenge's third solver, and the textbook depth-first search for \
        constraint problems (Wirth's \"Algorithms + Data Structures = Programs\", 1976, made it \
        the classic example). Locked queens stand on the board from the start and their rows are \
        skipped; the search keeps its own stack, so any board size fits in memory.",
    pseudo_code: &[
        line("", "solve(row):"),
        line(
            "solved",
            "    if every row has its queen: return the board (finding all: count it, go on)",
        ),
        line("step", "    for each square (row, c), left to right:"),
        line(
            "reject",
            "        if a queen attacks it: try the next square",
        ),
        line(
            "place",
            "        put a queen there; solve(the next free row)",
        ),
        line(
            "backtrack",
            "        take it back (no square of a later row worked)",
        ),
        line("", "    every square failed: return to the row below"),
    ],
    score: "the queens placed so far: the depth of the search; N means solved",
    unit: "a square tried",
    shapes: shared::ONE_PER_ROW,
    practical_max_n: 28,
    memory: shared::row_search_bytes,
    unit_cost: |problem, _| 2.0 + 0.2 * f64::from(problem.rows()),
    search: search,
};

/// Depth-first search, one row at a time, pruning on conflicts with queens already placed; a
/// queen placed in the last free row makes a solution, and the search goes on from it when
/// asked for more.
pub(crate) fn search(problem: &Problem, walk: &mut Walk<'_, '_>) -> Found {
    let (budget, reporter, nodes, tally) = walk.parts();
    let cols = problem.cols();
    let mut lines = LineCounts::new(problem.rows(), cols);
    for &queen in problem.fixed() {
        lines.place(queen);
    }
    let mut stack = RowStack::new(problem.free_rows(), cols);
    if stack.is_complete() {
        // Every row holds a fixed queen: the board as given, no node examined.
        tally.found(reporter, 0, i64::from(problem.queens()), None, || {
            problem.fixed().to_vec()
        })?;
        return Ok(());
    }
    loop {
        let depth = stack.depth();
        let last_row = depth + 1 == stack.rows();
        let mut placed = false;
        while let Some(square) = stack.next_square() {
            count_node(nodes, budget)?;
            if lines.is_attacked(square) || problem.is_blocked(square) {
                reporter.step_at(*nodes, || depth as i64, Some(square))?;
                continue;
            }
            reporter.place(square)?;
            if !last_row {
                lines.place(square);
                reporter.step_at(*nodes, || depth as i64 + 1, Some(square))?;
                placed = true;
                break;
            }
            let board = || stack.board_with(problem.fixed(), square);
            if tally.found(reporter, *nodes, depth as i64 + 1, Some(square), board)? {
                return Ok(());
            }
            reporter.remove(square)?;
        }
        if placed {
            stack.advance();
        } else {
            let Some(square) = stack.back() else {
                return Ok(());
            };
            lines.remove(square);
            reporter.remove(square)?;
        }
    }
}
