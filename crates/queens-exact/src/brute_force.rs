//! `brute-force`: every placement of the free queens on distinct squares, each board checked in
//! full — the Queen's Challenge's first solver.
//!
//! Placements are visited as combinations of square indices (`row × cols + col`) in
//! lexicographic order, like an odometer whose wheels never pass each other. One node is one
//! board examined. Works on any R×C board with any number of queens.

use queens_core::descriptor::line;
use queens_core::{ParamValues, Problem, SolverDescriptor, Square};

use crate::lines::PeaceCheck;
use crate::shared;
use crate::{Found, Walk, count_node};

/// `brute-force`'s descriptor.
pub static DESCRIPTOR: SolverDescriptor = tree_search! {
    name: "brute-force",
    summary: "every placement of the free queens on distinct squares, each board checked in full",
    explanation: "The most naive search there is: put the queens on any distinct squares, check \
        the whole board, and if two queens attack each other, move on to the next placement. \
        The placements are visited in order like an odometer whose wheels are the queens, each \
        wheel a square index (row × columns + column), the last wheel turning fastest and no wheel \
        passing the next. On 8×8 with one queen locked that is up to C(63, 7) ≈ 553 million \
        boards.\n\n\
        It is the first solver of the Queen's Challenge (a 2021 blog series that builds N-Queens \
        solvers in JavaScript, from brute force to backtracking, stepping them visibly on a board \
        with one queen locked by the user). Here it takes any R×C board, any number of queens \
        and any number of locked ones, and counts every board it examines, so its cost can be \
        compared with the cleverer searches.",
    pseudo_code: &[
        line(
            "step",
            "for each placement of the free queens on distinct squares:",
        ),
        line("check", "    if no two queens attack each other:"),
        line(
            "solved",
            "        return the board (finding all: count it, go on)",
        ),
        line("", "no placement works: there is no solution"),
    ],
    score: "the queens on the board examined: always all of them; only the count of boards grows",
    unit: "a board examined",
    shapes: shared::ANY,
    practical_max_n: 7,
    memory: memory,
    unit_cost: |problem, _| 10.0 + 2.0 * f64::from(problem.queens()),
    search: search,
};

/// The lines, and every free square listed.
fn memory(problem: &Problem, _: &ParamValues) -> u128 {
    let (rows, cols) = (u128::from(problem.rows()), u128::from(problem.cols()));
    shared::line_bytes(problem) + 8 * rows * cols + 8 * u128::from(problem.queens())
}

/// Examines every placement of the free queens until one is peaceful, or every one when asked
/// for more solutions.
pub(crate) fn search(problem: &Problem, walk: &mut Walk<'_, '_>) -> Found {
    let (budget, reporter, nodes, tally) = walk.parts();
    let fixed = problem.fixed();
    let free: Vec<Square> = (0..problem.rows())
        .flat_map(|row| (0..problem.cols()).map(move |col| Square::new(row, col)))
        .filter(|&square| !fixed.contains(&square) && !problem.is_blocked(square))
        .collect();
    let k = problem.queens() as usize - fixed.len();
    if free.len() < k {
        // Too few squares left free for the queens: no placement to examine.
        return Ok(());
    }
    // Wheel i may go up to `free.len() - k + i`, leaving room for the wheels after it.
    let mut wheels: Vec<usize> = (0..k).collect();
    for &wheel in &wheels {
        reporter.place(free[wheel])?;
    }
    let mut check = PeaceCheck::new(problem.rows(), problem.cols());
    let score = i64::from(problem.queens());
    loop {
        count_node(nodes, budget)?;
        let board = || fixed.iter().copied().chain(wheels.iter().map(|&w| free[w]));
        if check.is_peaceful(board()) {
            if tally.found(reporter, *nodes, score, None, || board().collect())? {
                return Ok(());
            }
        } else {
            reporter.step(*nodes, || score)?;
        }
        let Some(turning) = (0..k).rev().find(|&i| wheels[i] < free.len() - k + i) else {
            return Ok(());
        };
        let first = wheels[turning] + 1;
        for (next, wheel) in (first..).zip(&mut wheels[turning..]) {
            // Ascending order: each target square is already vacated (see the module docs).
            let from = std::mem::replace(wheel, next);
            if from != next {
                reporter.moved(free[from], free[next])?;
            }
        }
    }
}
