//! `construct`: the explicit solution for every N ≥ 4 (and N = 1), no search.
//!
//! Rows (1-based) column by column: all even numbers up to N, then all odd ones. When N mod 6
//! is 2, the odd list starts 3, 1 and ends with 5 (3, 1, 7, 9, …, 5); when N mod 6 is 3, the even
//! list moves 2 to its end and the odd list moves 1 and 3 to its end (4, 6, …, 2, 5, 7, …, 1, 3).
//! (Hoffman, Loessi and Moore 1969; the form given by Bernhardsson 1991.)

use queens_core::{Board, Budget, Observer, Outcome, Problem, SolveError, Solver, Verdict};

use crate::require_classic;

/// The explicit construction, for square boards without fixed queens.
#[derive(Clone, Copy, Debug, Default)]
pub struct Construct;

/// The 0-based row of each column's queen in the constructed N×N solution, or `None` for
/// N = 2 and 3 (no solution) and N = 0. An iterator, so that huge boards can be written as they
/// are computed.
pub fn construction(n: u32) -> Option<impl ExactSizeIterator<Item = u32> + Clone> {
    if n == 0 || n == 2 || n == 3 {
        return None;
    }
    let evens = n / 2;
    let odds = n - evens;
    let remainder = n % 6;
    // The i-th entry of the even list (0-based i), as a 1-based row.
    let even = move |i: u32| -> u32 {
        if remainder == 3 {
            // 4, 6, …, 2
            if i + 1 < evens { 2 * i + 4 } else { 2 }
        } else {
            2 * i + 2
        }
    };
    let odd = move |i: u32| -> u32 {
        match remainder {
            // 3, 1, 7, 9, …, 5
            2 => match i {
                0 => 3,
                1 => 1,
                _ if i + 1 == odds => 5,
                _ => 2 * i + 3,
            },
            // 5, 7, …, 1, 3
            3 => {
                if i + 2 < odds {
                    2 * i + 5
                } else {
                    2 * (i + 2 - odds) + 1
                }
            }
            _ => 2 * i + 1,
        }
    };
    Some((0..n).map(move |col| if col < evens { even(col) } else { odd(col - evens) } - 1))
}

impl Solver for Construct {
    fn name(&self) -> &'static str {
        "construct"
    }

    fn solve(
        &mut self,
        problem: &Problem,
        _budget: &mut Budget,
        _observer: &mut dyn Observer,
    ) -> Result<Outcome, SolveError> {
        let unsupported = |reason: &str| SolveError::Unsupported {
            solver: "construct",
            reason: reason.to_owned(),
        };
        let n = require_classic("construct", problem)?;
        if !problem.fixed().is_empty() {
            return Err(unsupported(
                "it builds one fixed solution and cannot honour fixed queens (use min-conflicts)",
            ));
        }
        let verdict = match construction(n) {
            Some(rows) => Verdict::Solved(
                Board::from_permutation(rows.collect()).expect("rows lie on the board"),
            ),
            None => Verdict::Unsolvable,
        };
        Ok(Outcome::new(verdict))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::verify::verify;

    #[test]
    fn the_example_of_eight() {
        // a2, b4, c6, d8, e3, f1, g7, h5
        let rows: Vec<u32> = construction(8).unwrap().collect();
        assert_eq!(rows, vec![1, 3, 5, 7, 2, 0, 6, 4]);
    }

    #[test]
    fn every_n_up_to_2000_is_a_solution() {
        for n in 1..=2000 {
            match construction(n) {
                Some(rows) => {
                    let board = Board::from_permutation(rows.collect()).unwrap();
                    assert!(verify(&board).is_solution(), "N = {n}");
                }
                None => assert!(n == 2 || n == 3, "N = {n}"),
            }
        }
    }
}
