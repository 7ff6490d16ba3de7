//! `row-brute-force`: one queen per row, every combination of columns, each board checked in
//! full — the Queen's Challenge's second solver.
//!
//! Rows holding a fixed queen keep it; the other rows' columns turn like an odometer, the top
//! free row fastest. One node is one board examined. Needs one queen per row.

use queens_core::descriptor::line;
use queens_core::{Problem, SolverDescriptor, Square};

use crate::lines::PeaceCheck;
use crate::shared;
use crate::{Found, Walk, count_node};

/// `row-brute-force`'s descriptor.
pub static DESCRIPTOR: SolverDescriptor = tree_search! {
    name: "row-brute-force",
    summary: "one queen per row, every combination of columns, each board checked in full",
    explanation: "Brute force with one rule added: a row never holds two queens. Each free row gets one \
        queen, and the rows' columns turn like an odometer, the top free row fastest; every \
        complete board is checked in full. On 8×8 with one queen locked that is at most 8⁷ ≈ 2.1 \
        million boards instead of brute force's 553 million: the constraint removes whole \
        families of hopeless boards before they are ever built.\n\n\
        It is the Queen's Challenge's second solver (part 4 of the 2021 blog series, \"One Queen \
        Per Row\"). Here it takes any board with one queen per row and any locked queens, whose \
        rows are skipped.",
    pseudo_code: &[
        line("step", "for each choice of one column in every free row:"),
        line("check", "    if no two queens attack each other:"),
        line(
            "solved",
            "        return the board (finding all: count it, go on)",
        ),
        line("", "no choice works: there is no solution"),
    ],
    score: "the queens on the board examined: always all of them, one per row; only the count of boards grows",
    unit: "a board examined",
    shapes: shared::ONE_PER_ROW,
    practical_max_n: 8,
    memory: shared::row_search_bytes,
    unit_cost: |problem, _| 5.0 + 3.5 * f64::from(problem.rows()),
    search: search,
};

/// Examines every one-queen-per-row board until one is peaceful, or every one when asked for
/// more solutions.
pub(crate) fn search(problem: &Problem, walk: &mut Walk<'_, '_>) -> Found {
    let (budget, reporter, nodes, tally) = walk.parts();
    let fixed = problem.fixed();
    let free_rows = problem.free_rows();
    let last_col = problem.cols() - 1;
    let mut cols = vec![0_u32; free_rows.len()];
    for &row in &free_rows {
        reporter.place(Square::new(row, 0))?;
    }
    let mut check = PeaceCheck::new(problem.rows(), problem.cols());
    let score = i64::from(problem.queens());
    loop {
        count_node(nodes, budget)?;
        if check.is_peaceful(board(fixed, &free_rows, &cols))
            && !board(fixed, &free_rows, &cols).any(|queen| problem.is_blocked(queen))
        {
            let queens = || board(fixed, &free_rows, &cols).collect();
            if tally.found(reporter, *nodes, score, None, queens)? {
                return Ok(());
            }
        } else {
            reporter.step(*nodes, || score)?;
        }
        let Some(turning) = (0..cols.len()).rev().find(|&i| cols[i] < last_col) else {
            return Ok(());
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
