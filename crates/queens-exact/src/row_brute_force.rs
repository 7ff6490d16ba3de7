//! `row-brute-force`: one queen per row, every combination of columns, each board checked in
//! full — the Queen's Challenge's second solver.
//!
//! Rows holding a fixed queen keep it; the other rows' columns turn like an odometer, the top
//! free row fastest. One node is one board examined. Needs one queen per row.

use queens_core::solve::Reporter;
use queens_core::{Budget, Problem, Square, StopReason};

use crate::count_node;
use crate::lines::PeaceCheck;

/// Examines every one-queen-per-row board until one is peaceful.
pub(crate) fn search(
    problem: &Problem,
    budget: &Budget,
    reporter: &mut Reporter<'_>,
    nodes: &mut u64,
) -> Result<Option<Vec<Square>>, StopReason> {
    let fixed = problem.fixed();
    let fixed_cols = problem.fixed_col_by_row();
    let free_rows: Vec<u32> = (0..problem.rows())
        .filter(|&row| fixed_cols[row as usize].is_none())
        .collect();
    let last_col = problem.cols() - 1;
    let mut cols = vec![0_u32; free_rows.len()];
    for &row in &free_rows {
        reporter.place(Square::new(row, 0))?;
    }
    let mut check = PeaceCheck::new(problem.rows(), problem.cols());
    loop {
        count_node(nodes, budget)?;
        reporter.step(*nodes, || problem.queens().into())?;
        if check.is_peaceful(board(fixed, &free_rows, &cols)) {
            return Ok(Some(board(fixed, &free_rows, &cols).collect()));
        }
        let Some(turning) = (0..cols.len()).rev().find(|&i| cols[i] < last_col) else {
            return Ok(None);
        };
        cols[turning] += 1;
        let row = free_rows[turning];
        reporter.moved(
            Square::new(row, cols[turning] - 1),
            Square::new(row, cols[turning]),
        )?;
        for (i, col) in cols.iter_mut().enumerate().skip(turning + 1) {
            reporter.moved(
                Square::new(free_rows[i], *col),
                Square::new(free_rows[i], 0),
            )?;
            *col = 0;
        }
    }
}

/// The fixed queens and the free rows' queens on `cols`.
fn board<'a>(
    fixed: &'a [Square],
    free_rows: &'a [u32],
    cols: &'a [u32],
) -> impl Iterator<Item = Square> + 'a {
    let free = free_rows.iter().zip(cols).map(|(&r, &c)| Square::new(r, c));
    fixed.iter().copied().chain(free)
}
