//! `backtracking`: row by row, abandoning a branch at the first conflict — the Queen's
//! Challenge's third solver.
//!
//! Fixed queens stand on the board from the start and their rows are skipped. In each free row,
//! from the bottom, the columns are tried left to right; a square attacked by a queen already on
//! the board is abandoned at once. One node is one square tried. The loop keeps its own stack,
//! so depth is limited by memory only.

use queens_core::solve::Reporter;
use queens_core::{Budget, Problem, Square, StopReason};

use crate::count_node;
use crate::lines::LineCounts;

/// Depth-first search, one row at a time, pruning on conflicts with queens already placed.
pub(crate) fn search(
    problem: &Problem,
    budget: &Budget,
    reporter: &mut Reporter<'_>,
    nodes: &mut u64,
) -> Result<Option<Vec<Square>>, StopReason> {
    let cols = problem.cols();
    let fixed_cols = problem.fixed_col_by_row();
    let free_rows: Vec<u32> = (0..problem.rows())
        .filter(|&row| fixed_cols[row as usize].is_none())
        .collect();
    let mut lines = LineCounts::new(problem.rows(), cols);
    for &queen in problem.fixed() {
        lines.place(queen);
    }
    // `next_col[d]`: the first column still to try in free row `d`; the placed queen of a row
    // below the current depth stands on `next_col[d] - 1`.
    let mut next_col = vec![0_u32; free_rows.len() + 1];
    let mut depth = 0;
    while depth < free_rows.len() {
        let row = free_rows[depth];
        let mut placed = false;
        while next_col[depth] < cols {
            let square = Square::new(row, next_col[depth]);
            next_col[depth] += 1;
            count_node(nodes, budget)?;
            reporter.step(*nodes, || depth as i64)?;
            if !lines.is_attacked(square) {
                lines.place(square);
                reporter.place(square)?;
                placed = true;
                break;
            }
        }
        if placed {
            depth += 1;
            next_col[depth] = 0;
        } else if depth == 0 {
            return Ok(None);
        } else {
            depth -= 1;
            let square = Square::new(free_rows[depth], next_col[depth] - 1);
            lines.remove(square);
            reporter.remove(square)?;
        }
    }
    let placed = free_rows
        .iter()
        .zip(&next_col)
        .map(|(&row, &next)| Square::new(row, next - 1));
    Ok(Some(
        problem.fixed().iter().copied().chain(placed).collect(),
    ))
}
