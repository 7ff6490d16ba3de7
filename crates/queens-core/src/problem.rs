//! What to solve: board size, number of queens, fixed queens and blocked squares, validated on
//! construction.

use crate::board::{Board, Square};
use crate::error::{BoardError, ProblemError};

/// An N-Queens problem: place `queens` mutually non-attacking queens on a `rows`×`cols` board so
/// that every fixed queen is among them and none stands on a blocked square (the n-Queens
/// Completion instances block squares; an excluded diagonal is its squares).
///
/// Building a problem validates it: a problem that exists is well-formed, though it may have no
/// solution.
///
/// ```
/// use queens_core::{Problem, ProblemError};
///
/// let eight = Problem::square(8)?;
/// assert_eq!((eight.rows(), eight.cols(), eight.queens()), (8, 8, 8));
///
/// let attacking = eight.with_fixed(vec!["a1".parse()?, "h8".parse()?]);
/// assert!(matches!(attacking, Err(ProblemError::FixedQueensAttack { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    rows: u32,
    cols: u32,
    queens: u32,
    fixed: Vec<Square>,
    /// Sorted, distinct.
    blocked: Vec<Square>,
}

impl Problem {
    /// The classic problem: N queens on an N×N board.
    pub fn square(n: u32) -> Result<Self, ProblemError> {
        Problem::rectangular(n, n)
    }

    /// min(R, C) queens on an R×C board.
    pub fn rectangular(rows: u32, cols: u32) -> Result<Self, ProblemError> {
        Board::empty(rows, cols)?;
        Ok(Problem {
            rows,
            cols,
            queens: rows.min(cols),
            fixed: Vec::new(),
            blocked: Vec::new(),
        })
    }

    /// The same board with `queens` queens to place (fixed ones included).
    pub fn with_queen_count(mut self, queens: u32) -> Result<Self, ProblemError> {
        if queens == 0 {
            return Err(ProblemError::NoQueens);
        }
        if queens > self.rows.min(self.cols) {
            return Err(ProblemError::TooManyQueens {
                queens,
                rows: self.rows,
                cols: self.cols,
            });
        }
        if self.fixed.len() > queens as usize {
            return Err(ProblemError::TooManyFixed {
                fixed: self.fixed.len(),
                queens,
            });
        }
        self.queens = queens;
        Ok(self)
    }

    /// The same problem with `fixed` as its fixed queens (replacing any before). They must be on
    /// the board, distinct, peaceful, and no more than the number of queens.
    pub fn with_fixed(mut self, fixed: Vec<Square>) -> Result<Self, ProblemError> {
        // Checks that they are on the board and distinct.
        Board::with_queens(self.rows, self.cols, fixed.clone())?;
        if fixed.len() > self.queens as usize {
            return Err(ProblemError::TooManyFixed {
                fixed: fixed.len(),
                queens: self.queens,
            });
        }
        if let Some(&square) = fixed.iter().find(|&&queen| self.is_blocked(queen)) {
            return Err(ProblemError::FixedOnBlocked {
                square,
                cols: self.cols,
            });
        }
        for (i, &a) in fixed.iter().enumerate() {
            for &b in &fixed[i + 1..] {
                if let Some(line) = a.shared_line(b) {
                    return Err(ProblemError::FixedQueensAttack {
                        a,
                        b,
                        line,
                        cols: self.cols,
                    });
                }
            }
        }
        self.fixed = fixed;
        Ok(self)
    }

    /// The same problem with `blocked` as the squares no queen may take (replacing any before).
    /// They must be on the board and hold no fixed queen; a square given twice is one.
    pub fn with_blocked(mut self, mut blocked: Vec<Square>) -> Result<Self, ProblemError> {
        if let Some(&square) = blocked
            .iter()
            .find(|square| !square.is_on(self.rows, self.cols))
        {
            return Err(BoardError::OffBoard {
                square,
                rows: self.rows,
                cols: self.cols,
            }
            .into());
        }
        blocked.sort_unstable();
        blocked.dedup();
        if let Some(&square) = self
            .fixed
            .iter()
            .find(|queen| blocked.binary_search(queen).is_ok())
        {
            return Err(ProblemError::FixedOnBlocked {
                square,
                cols: self.cols,
            });
        }
        self.blocked = blocked;
        Ok(self)
    }

    /// Number of ranks.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Number of files.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// The side of a square board, `None` for a rectangular one.
    pub fn side(&self) -> Option<u32> {
        (self.rows == self.cols).then_some(self.rows)
    }

    /// N, when this is the classic problem's shape: N queens on an N×N board.
    pub fn classic_side(&self) -> Option<u32> {
        self.side().filter(|&n| n == self.queens)
    }

    /// Number of queens a solution holds, fixed ones included.
    pub fn queens(&self) -> u32 {
        self.queens
    }

    /// The fixed queens, which every solution must contain.
    pub fn fixed(&self) -> &[Square] {
        &self.fixed
    }

    /// The squares no queen may take, sorted.
    pub fn blocked(&self) -> &[Square] {
        &self.blocked
    }

    /// Whether no queen may take `square`.
    #[inline]
    pub fn is_blocked(&self, square: Square) -> bool {
        !self.blocked.is_empty() && self.blocked.binary_search(&square).is_ok()
    }

    /// Whether every row must hold exactly one queen (queens = rows), the shape row-by-row
    /// solvers need.
    pub fn one_queen_per_row(&self) -> bool {
        self.queens == self.rows
    }

    /// For each row, its fixed queen's column, if any.
    pub fn fixed_col_by_row(&self) -> Vec<Option<u32>> {
        let mut cols = vec![None; self.rows as usize];
        for queen in &self.fixed {
            cols[queen.row as usize] = Some(queen.col);
        }
        cols
    }

    /// The rows without a fixed queen, bottom up.
    pub fn free_rows(&self) -> Vec<u32> {
        let fixed = self.fixed_col_by_row();
        (0..self.rows)
            .filter(|&row| fixed[row as usize].is_none())
            .collect()
    }

    /// A board of this problem's size holding `queens`.
    pub fn board(&self, queens: Vec<Square>) -> Result<Board, BoardError> {
        Board::with_queens(self.rows, self.cols, queens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_n_queens_on_n_by_n() {
        let p = Problem::square(8).unwrap();
        assert_eq!((p.rows(), p.cols(), p.queens()), (8, 8, 8));
        assert!(p.fixed().is_empty());
        let r = Problem::rectangular(5, 9).unwrap();
        assert_eq!(r.queens(), 5);
        assert_eq!(r.side(), None);
    }

    #[test]
    fn blocked_squares_are_on_the_board_and_hold_no_fixed_queen() {
        let eight = Problem::square(8).unwrap();
        let blocked = eight
            .clone()
            .with_blocked(vec![
                Square::new(3, 3),
                Square::new(0, 1),
                Square::new(3, 3),
            ])
            .unwrap();
        assert_eq!(blocked.blocked(), &[Square::new(0, 1), Square::new(3, 3)]);
        assert!(blocked.is_blocked(Square::new(3, 3)) && !blocked.is_blocked(Square::new(3, 4)));
        assert!(!eight.is_blocked(Square::new(0, 0)));
        assert!(matches!(
            eight.clone().with_blocked(vec![Square::new(0, 8)]),
            Err(ProblemError::Board(BoardError::OffBoard { .. }))
        ));
        let fixed_first = eight
            .clone()
            .with_fixed(vec![Square::new(0, 3)])
            .unwrap()
            .with_blocked(vec![Square::new(0, 3)]);
        let blocked_first = blocked.with_fixed(vec![Square::new(3, 3)]);
        for refused in [fixed_first, blocked_first] {
            let error = refused.unwrap_err();
            assert!(
                matches!(error, ProblemError::FixedOnBlocked { .. }),
                "{error}"
            );
        }
    }

    #[test]
    fn malformed_problems_are_errors() {
        assert!(matches!(
            Problem::square(0),
            Err(ProblemError::Board(BoardError::EmptyBoard { .. }))
        ));
        let eight = Problem::square(8).unwrap();
        assert!(matches!(
            eight.clone().with_queen_count(9),
            Err(ProblemError::TooManyQueens { .. })
        ));
        assert!(matches!(
            eight.clone().with_queen_count(0),
            Err(ProblemError::NoQueens)
        ));
        assert!(matches!(
            eight.clone().with_fixed(vec![Square::new(8, 0)]),
            Err(ProblemError::Board(BoardError::OffBoard { .. }))
        ));
        assert!(matches!(
            eight
                .clone()
                .with_fixed(vec![Square::new(0, 0), Square::new(0, 0)]),
            Err(ProblemError::Board(BoardError::DuplicateQueen(_)))
        ));
        assert!(matches!(
            eight
                .clone()
                .with_fixed(vec![Square::new(0, 0), Square::new(5, 5)]),
            Err(ProblemError::FixedQueensAttack { .. })
        ));
        let two = eight.with_queen_count(1).unwrap();
        assert!(matches!(
            two.with_fixed(vec![Square::new(0, 0), Square::new(1, 2)]),
            Err(ProblemError::TooManyFixed { .. })
        ));
    }
}
