//! One verify operation for the command line and Python: a board as read, placed on the size
//! asked for, and judged by its own problem — the queen count, fixed and blocked squares that
//! its document carries (`solve --format json` writes them), or those the caller gives.
//!
//! ```
//! use queens_api::verify::{Checked, VerifySpec, check};
//! use queens_core::read::read_board_on;
//!
//! // `solve 11x4 -m 4 --format perm` prints four columns with rows up to 10.
//! let spec = VerifySpec { size: Some((11, 4)), queen_count: Some(4) };
//! let read = read_board_on(&mut &b"0 3 1 4\n"[..], 1000, 1 << 20, spec.size)?;
//! let Checked::Held { report, .. } = check(read, &spec)? else { unreachable!() };
//! assert!(report.is_solution());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use queens_core::Board;
use queens_core::read::ReadBoard;
use queens_core::verify::{PermutationReport, Verification, verify};
use queens_core::words::counted;
use thiserror::Error;

/// What the caller says of the board beyond its text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VerifySpec {
    /// The board's rows and columns, when the text does not tell them (a permutation of a
    /// rectangular board, a list of squares) or to place the queens on a larger board.
    pub size: Option<(u32, u32)>,
    /// The queens a solution holds (`solve -m`); `None`: the document's own, or min(rows, cols).
    pub queen_count: Option<u32>,
}

/// A board that cannot be judged as asked.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum VerifyError {
    /// The queens do not fit the size given.
    #[error("the board does not fit the size given: {0}")]
    Size(String),
    /// A streamed permutation is N×N, with N queens.
    #[error("{0}")]
    Streamed(String),
    /// A queen count no board of this size can hold.
    #[error(
        "the queen count must be between 1 and {most} (the queens a {rows}×{cols} board can hold), got {got}"
    )]
    QueenCount {
        /// The most queens the board holds.
        most: u32,
        /// The board's rows.
        rows: u32,
        /// The board's columns.
        cols: u32,
        /// The count asked for.
        got: u32,
    },
}

/// A judged board.
#[derive(Debug)]
pub enum Checked {
    /// A board held in memory: every attacking pair, and the problem's squares.
    Held {
        /// The board as judged (on the size asked for).
        board: Board,
        /// The findings (boxed: they are many vectors).
        report: Box<Verification>,
        /// Its size was neither given nor written with it but taken from its queens (the
        /// smallest square board holding them), so missing queens are counted on that board.
        size_guessed: bool,
    },
    /// A permutation too long to hold, checked as it streamed.
    Streamed(PermutationReport),
}

impl Checked {
    /// Whether the board solves its problem.
    pub fn is_solution(&self) -> bool {
        match self {
            Checked::Held { report, .. } => report.is_solution(),
            Checked::Streamed(report) => report.is_solution(),
        }
    }
}

/// Judges what was read as `spec` says: on its size, with its queen count (the caller's, else
/// the document's, else min(rows, cols)), every fixed square taken and no blocked one.
pub fn check(read: ReadBoard, spec: &VerifySpec) -> Result<Checked, VerifyError> {
    match read {
        ReadBoard::Board(board, mut constraints) => {
            let board = match spec.size {
                Some((rows, cols)) if (rows, cols) != (board.rows(), board.cols()) => {
                    Board::with_queens(rows, cols, board.queens().collect())
                        .map_err(|error| VerifyError::Size(error.to_string()))?
                }
                _ => board,
            };
            if spec.queen_count.is_some() {
                constraints.queen_count = spec.queen_count;
            }
            let most = board.rows().min(board.cols());
            if let Some(got) = constraints.queen_count
                && !(1..=most).contains(&got)
            {
                return Err(VerifyError::QueenCount {
                    most,
                    rows: board.rows(),
                    cols: board.cols(),
                    got,
                });
            }
            let size_guessed = constraints.size_from_queens && spec.size.is_none();
            let report = Box::new(verify(&board).within(&constraints));
            Ok(Checked::Held {
                board,
                report,
                size_guessed,
            })
        }
        ReadBoard::Streamed(report) => {
            let n = report.n;
            if let Some((rows, cols)) = spec.size
                && (rows, cols) != (n, n)
            {
                return Err(VerifyError::Streamed(format!(
                    "the permutation has {}, but the size given is {rows}×{cols}",
                    counted(n, "column", "columns")
                )));
            }
            if spec.queen_count.is_some_and(|m| m != n) {
                return Err(VerifyError::Streamed(format!(
                    "a permutation of {n} columns checked as it streams holds {n} queens; a queen \
                     count is checked on boards held in memory"
                )));
            }
            Ok(Checked::Streamed(report))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use queens_core::read::{read_board, read_board_on};

    fn checked(text: &str, spec: VerifySpec) -> Result<Checked, String> {
        let read = read_board_on(&mut text.as_bytes(), 1000, 1 << 20, spec.size)
            .map_err(|error| error.to_string())?;
        check(read, &spec).map_err(|error| error.to_string())
    }

    #[test]
    fn every_shape_solve_prints_is_judged_by_its_own_problem() {
        // Rectangular permutations, on the size given.
        let tall = VerifySpec {
            size: Some((11, 4)),
            queen_count: Some(4),
        };
        assert!(checked("0 3 1 4", tall).unwrap().is_solution());
        let wide = VerifySpec {
            size: Some((4, 11)),
            queen_count: Some(4),
        };
        assert!(
            checked("0 3 1 - 2 - - - - - -", wide)
                .unwrap()
                .is_solution()
        );
        assert!(
            checked("0 3 1 4 0", tall)
                .unwrap_err()
                .contains("more than 4 columns")
        );
        assert!(checked("0 3 1 11", tall).unwrap_err().contains("off"));
        // A JSON document's own queen count, fixed and blocked squares.
        let seven = r#"{"rows": 8, "cols": 8, "queen_count": 7, "queens": [
            {"row": 0, "col": 0}, {"row": 1, "col": 4}, {"row": 2, "col": 7},
            {"row": 3, "col": 5}, {"row": 4, "col": 2}, {"row": 5, "col": 6},
            {"row": 6, "col": 1}]}"#;
        assert!(checked(seven, VerifySpec::default()).unwrap().is_solution());
        let blocked_under_a_queen = r#"{"n": 4, "queens": [{"row": 0, "col": 1},
            {"row": 1, "col": 3}, {"row": 2, "col": 0}, {"row": 3, "col": 2}],
            "blocked": [{"row": 0, "col": 1}]}"#;
        let Checked::Held { report, .. } =
            checked(blocked_under_a_queen, VerifySpec::default()).unwrap()
        else {
            panic!("held")
        };
        assert!(!report.is_solution());
        assert_eq!(report.on_blocked().len(), 1);
        let fixed_elsewhere = blocked_under_a_queen.replace("blocked", "fixed").replace(
            r#""fixed": [{"row": 0, "col": 1}]"#,
            r#""fixed": [{"row": 0, "col": 2}]"#,
        );
        let Checked::Held { report, .. } =
            checked(&fixed_elsewhere, VerifySpec::default()).unwrap()
        else {
            panic!("held")
        };
        assert_eq!(report.unfixed().len(), 1);
        assert!(!report.is_solution());
        // The caller's queen count wins over the document's, and is checked against the board.
        let err = checked(
            seven,
            VerifySpec {
                queen_count: Some(9),
                ..VerifySpec::default()
            },
        );
        assert!(err.unwrap_err().contains("between 1 and 8"));
        // A streamed permutation is N×N.
        let read = read_board(&mut &b"1 3 0 2"[..], 2, 1 << 20).unwrap();
        let spec = VerifySpec {
            size: Some((4, 5)),
            queen_count: None,
        };
        assert!(check(read, &spec).is_err());
    }
}
