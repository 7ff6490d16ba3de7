//! The hill-climbing members' neighbourhood of a board, as a document: the score of every
//! single-queen move within its column and the move a climber takes, computed by the climbers'
//! own code ([`queens_heuristic::local::neighbourhood`]), so that a page showing it never
//! repeats their scoring or their tie-break.

use queens_core::Square;
use serde::Serialize;
use thiserror::Error;

/// The largest board whose neighbourhood is served: 4,096 scores.
pub const MAX_N: u32 = 64;

/// A board whose neighbourhood cannot be given.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NeighbourhoodError {
    /// No column.
    #[error("rows lists the row of each column's queen: give at least one")]
    Empty,
    /// More columns than [`MAX_N`].
    #[error("the neighbourhood is given for boards up to {MAX_N}×{MAX_N}, got {0} columns")]
    TooLarge(usize),
    /// A row off the board.
    #[error("column {col}'s queen is on row {row}, off the {n}×{n} board (rows 0 to {last})", last = n - 1)]
    OffBoard {
        /// The column.
        col: usize,
        /// Its row.
        row: u32,
        /// The board's side.
        n: usize,
    },
}

/// `{"n", "score", "scores", "best"}`: the board's own score (N(N − 1)/2 minus its attacking
/// pairs), the score after each move row by row from the bottom (`row · n + col`, `null` on the
/// square a queen stands on), and the move a climber makes from here (`null` at a local
/// optimum).
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct NeighbourhoodDocument {
    n: usize,
    score: i64,
    scores: Vec<Option<i64>>,
    best: Option<Square>,
}

/// The neighbourhood of the board whose column `col` holds its queen on row `rows[col]`.
pub fn neighbourhood(rows: &[u32]) -> Result<NeighbourhoodDocument, NeighbourhoodError> {
    let n = rows.len();
    if n == 0 {
        return Err(NeighbourhoodError::Empty);
    }
    if n > MAX_N as usize {
        return Err(NeighbourhoodError::TooLarge(n));
    }
    if let Some((col, &row)) = rows.iter().enumerate().find(|(_, row)| **row as usize >= n) {
        return Err(NeighbourhoodError::OffBoard { col, row, n });
    }
    let seen = queens_heuristic::local::neighbourhood(rows);
    Ok(NeighbourhoodDocument {
        n,
        score: seen.score,
        scores: seen.scores,
        best: seen.best,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_checked_before_they_are_scored() {
        assert_eq!(neighbourhood(&[]), Err(NeighbourhoodError::Empty));
        assert_eq!(
            neighbourhood(&[0; 65]),
            Err(NeighbourhoodError::TooLarge(65))
        );
        let off = neighbourhood(&[0, 3, 1]).unwrap_err();
        assert_eq!(
            off.to_string(),
            "column 1's queen is on row 3, off the 3×3 board (rows 0 to 2)"
        );
        // Four queens on one row: 6 attacking pairs, score 0. A queen moved to rows 1 and 2
        // meets one of the others on a diagonal (4 pairs, score 2); to row 3 from column 1 or
        // 2 it meets none (3 pairs, score 3): the climber takes the lower column.
        let doc = neighbourhood(&[0, 0, 0, 0]).unwrap();
        assert_eq!(doc.score, 0);
        assert_eq!(doc.scores[0], None);
        assert_eq!(doc.scores[2 * 4], Some(2));
        assert_eq!(doc.scores[3 * 4 + 1], Some(3));
        assert_eq!(doc.scores[3 * 4 + 2], Some(3));
        assert_eq!(doc.best, Some(Square::new(3, 1)));
        let json = serde_json::to_value(&doc).unwrap();
        assert_eq!(json["best"], serde_json::json!({"row": 3, "col": 1}));
        assert_eq!(json["scores"].as_array().unwrap().len(), 16);
    }
}
