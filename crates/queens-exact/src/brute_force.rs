//! `brute-force`: every placement of the free queens on distinct squares, each board checked in
//! full — the Queen's Challenge's first solver.
//!
//! Placements are visited as combinations of square indices (`row × cols + col`) in
//! lexicographic order, like an odometer whose wheels never pass each other. One node is one
//! board examined. Works on any R×C board with any number of queens.

use queens_core::solve::Reporter;
use queens_core::{Budget, Problem, Square, StopReason};

use crate::count_node;
use crate::lines::PeaceCheck;

/// Examines every placement of the free queens until one is peaceful.
pub(crate) fn search(
    problem: &Problem,
    budget: &Budget,
    reporter: &mut Reporter<'_>,
    nodes: &mut u64,
) -> Result<Option<Vec<Square>>, StopReason> {
    let fixed = problem.fixed();
    let free: Vec<Square> = (0..problem.rows())
        .flat_map(|row| (0..problem.cols()).map(move |col| Square::new(row, col)))
        .filter(|square| !fixed.contains(square))
        .collect();
    let k = problem.queens() as usize - fixed.len();
    // Wheel i may go up to `free.len() - k + i`, leaving room for the wheels after it.
    let mut wheels: Vec<usize> = (0..k).collect();
    for &wheel in &wheels {
        reporter.place(free[wheel])?;
    }
    let mut check = PeaceCheck::new(problem.rows(), problem.cols());
    loop {
        count_node(nodes, budget)?;
        reporter.step(*nodes, || problem.queens().into())?;
        let board = fixed.iter().copied().chain(wheels.iter().map(|&w| free[w]));
        if check.is_peaceful(board) {
            return Ok(Some(
                fixed
                    .iter()
                    .copied()
                    .chain(wheels.iter().map(|&w| free[w]))
                    .collect(),
            ));
        }
        let Some(turning) = (0..k).rev().find(|&i| wheels[i] < free.len() - k + i) else {
            return Ok(None);
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
