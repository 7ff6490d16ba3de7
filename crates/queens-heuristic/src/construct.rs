//! `construct`: the explicit solution for every N ≥ 4 (and N = 1), no search.
//!
//! Rows (1-based) column by column: all even numbers up to N, then all odd ones. When N mod 6
//! is 2, the odd list starts 3, 1 and ends with 5 (3, 1, 7, 9, …, 5); when N mod 6 is 3, the even
//! list moves 2 to its end and the odd list moves 1 and 3 to its end (4, 6, …, 2, 5, 7, …, 1, 3).
//! (Hoffman, Loessi and Moore 1969; the form given by Bernhardsson 1991.)
//!
//! [`stream_construction`] writes the permutation of a board of any size while computing it,
//! checked row by row by the independent streaming validator, without holding the board.

use std::io::{self, Write};

use queens_core::descriptor::line;
use queens_core::descriptor::{BoardShape, Counts, FixedQueens, Shapes};
use queens_core::solve::Reporter;
use queens_core::verify::PermutationCheck;
use queens_core::{
    Board, Budget, Context, Outcome, Problem, SolveError, Solver, SolverDescriptor, Square,
    StopReason, Verdict,
};

use crate::require_classic;

/// `construct`'s descriptor.
pub static DESCRIPTOR: SolverDescriptor = SolverDescriptor {
    name: "construct",
    summary: "the explicit solution for every N but 2 and 3, computed column by column, no search",
    explanation: "For every N except 2 and 3 a solution can be written down directly. List the \
        even rows 2, 4, 6, … then the odd rows 1, 3, 5, … (counting rows from 1) and put the \
        queen of column k on the k-th row of the list. When N leaves remainder 2 or 3 after \
        division by 6, a few rows are moved to other places in the list so that no two queens \
        share a diagonal. No search at all: a billion queens take as long as writing them \
        out.\n\n\
        The construction is Hoffman, Loessi and Moore's (\"Construction for the solutions of \
        the m queens problem\", Mathematics Magazine, 1969) in the form given by Bernhardsson \
        (1991). It gives one fixed solution, so it cannot keep locked queens (min-conflicts \
        can).",
    pseudo_code: &[
        line("", "rows ← 2, 4, 6, …, then 1, 3, 5, … (counting from 1)"),
        line("", "if N mod 6 is 2 or 3: move a few rows within the list"),
        line("", "the queen of column k goes on the k-th row of the list"),
    ],
    score: "none: it writes a solution down without searching",
    unit: "—",
    counts: Counts::Nothing,
    shapes: Shapes {
        board: BoardShape::Classic,
        fixed: FixedQueens::Refused(
            "it builds one fixed solution and cannot honour fixed queens (use min-conflicts)",
        ),
        blocked: crate::BLOCKED_REFUSED,
    },
    randomized: false,
    parameters: &[],
    default_max_iterations: |_| None,
    practical_max_n: None,
    marks: None,
    neighbourhood: false,
    check: |_, _| Ok(()),
    memory: |problem, _| 4 * u128::from(problem.rows()),
    unit_cost: |problem, _| 300.0 + 5.0 * f64::from(problem.rows()),
    build: |_, _| Box::new(Construct),
};

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
    fn descriptor(&self) -> &'static SolverDescriptor {
        &DESCRIPTOR
    }

    fn solve(&mut self, problem: &Problem, context: Context<'_>) -> Result<Outcome, SolveError> {
        let Context { observer, .. } = context;
        let n = require_classic(DESCRIPTOR.name, problem)?;
        let verdict = match construction(n) {
            Some(rows) => {
                // The queens are written down one column at a time, for a watcher.
                let mut reporter = Reporter::new(observer);
                if reporter.wants_moves() {
                    for (col, row) in rows.clone().enumerate() {
                        if let Err(stop) = reporter.place(Square::new(row, col as u32)) {
                            return Ok(Outcome::new(Verdict::Stopped(stop)));
                        }
                    }
                }
                Verdict::Solved(
                    Board::from_permutation(rows.collect()).expect("rows lie on the board"),
                )
            }
            None => Verdict::Unsolvable,
        };
        Ok(Outcome::new(verdict))
    }
}

/// How a streamed construction ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Streamed {
    /// Every row written and checked.
    Solved,
    /// N = 2 or 3: nothing to write.
    Unsolvable,
    /// The budget stopped it; what was written is a prefix of the line.
    Stopped(StopReason),
}

/// A streamed construction that failed.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// Writing failed (a closed pipe among others: its `io::Error` is the source, so that a
    /// caller can tell).
    #[error("cannot write the board: {0}")]
    Io(#[from] io::Error),
    /// The validator refused a row: a bug in the construction.
    #[error("construct produced an invalid board for N = {n}: {reason} (a bug, please report it)")]
    Invalid {
        /// The board side.
        n: u32,
        /// What the validator found.
        reason: String,
    },
}

/// Columns computed between two looks at the budget.
const STREAM_CHUNK: usize = 1 << 16;

/// Writes the N×N construction as a permutation line to `out` (or only checks it, when `out`
/// is `None`), column by column: each row is checked by the independent streaming validator as
/// it is written, and the board is never held. Stops between chunks of columns when `budget`
/// does.
pub fn stream_construction(
    n: u32,
    mut out: Option<&mut dyn Write>,
    budget: &Budget,
) -> Result<Streamed, StreamError> {
    let Some(rows) = construction(n) else {
        return Ok(Streamed::Unsolvable);
    };
    let mut check = PermutationCheck::default();
    let mut digits = itoa::Buffer::new();
    for (col, row) in rows.enumerate() {
        if col % STREAM_CHUNK == 0
            && let Err(stop) = budget.check()
        {
            return Ok(Streamed::Stopped(stop));
        }
        check.push(Some(row)).map_err(|e| StreamError::Invalid {
            n,
            reason: e.to_string(),
        })?;
        if let Some(out) = out.as_deref_mut() {
            if col > 0 {
                out.write_all(b" ")?;
            }
            out.write_all(digits.format(row).as_bytes())?;
        }
    }
    if let Some(out) = out {
        out.write_all(b"\n")?;
    }
    let report = check.finish().map_err(|e| StreamError::Invalid {
        n,
        reason: e.to_string(),
    })?;
    if !report.is_solution() {
        return Err(StreamError::Invalid {
            n,
            reason: "the streaming validator found conflicts".into(),
        });
    }
    Ok(Streamed::Solved)
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::verify::verify;

    #[test]
    fn streaming_writes_the_checked_line() {
        let mut out = Vec::new();
        let ended = stream_construction(8, Some(&mut out), &Budget::unlimited()).unwrap();
        assert_eq!(ended, Streamed::Solved);
        assert_eq!(out, b"1 3 5 7 2 0 6 4\n");
        let stopped = Budget::unlimited();
        stopped.token().cancel();
        assert_eq!(
            stream_construction(8, None, &stopped).unwrap(),
            Streamed::Stopped(StopReason::Cancelled)
        );
        assert_eq!(
            stream_construction(3, None, &Budget::unlimited()).unwrap(),
            Streamed::Unsolvable
        );
    }

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
