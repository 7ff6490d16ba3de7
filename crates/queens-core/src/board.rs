//! Squares, boards and the lines along which queens attack.
//!
//! Row 0 is the bottom rank and column 0 the file `a`. A [`Board`] is an R×C board holding a set
//! of distinct queens; it does not require them to be peaceful — that is what
//! [`verify`](crate::verify) checks.

use serde::Serialize;

use crate::error::BoardError;
pub use crate::square::{Line, Square};

/// An R×C board holding a set of distinct queens.
///
/// A board stores its queens in one of two ways: as a list of squares (any position, in the
/// order given), or — for the huge boards of large-N solvers — as one row per column
/// ([`from_permutation`](Self::from_permutation)), 4 bytes a queen. Both read the same through
/// [`queens`](Self::queens).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    rows: u32,
    cols: u32,
    placement: Placement,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Placement {
    /// Any distinct squares.
    Squares(Vec<Square>),
    /// `rows[c]` is the row of the queen in column `c`; every column holds one.
    Columns(Vec<u32>),
}

impl Board {
    /// An empty R×C board. Both sides must be at least 1.
    pub fn empty(rows: u32, cols: u32) -> Result<Self, BoardError> {
        if rows == 0 || cols == 0 {
            return Err(BoardError::EmptyBoard { rows, cols });
        }
        Ok(Board {
            rows,
            cols,
            placement: Placement::Squares(Vec::new()),
        })
    }

    /// An R×C board holding `queens`, which must be on the board and distinct.
    pub fn with_queens(rows: u32, cols: u32, queens: Vec<Square>) -> Result<Self, BoardError> {
        let mut board = Board::empty(rows, cols)?;
        if let Some(&queen) = queens.iter().find(|queen| !queen.is_on(rows, cols)) {
            return Err(BoardError::OffBoard {
                square: queen,
                rows,
                cols,
            });
        }
        // Repeats found on a sorted copy: 8 bytes a queen for a moment, not a hash set's 20.
        let mut sorted = queens.clone();
        sorted.sort_unstable();
        if let Some(pair) = sorted.windows(2).find(|pair| pair[0] == pair[1]) {
            return Err(BoardError::DuplicateQueen(pair[0]));
        }
        drop(sorted);
        board.placement = Placement::Squares(queens);
        Ok(board)
    }

    /// An N×N board with one queen per column: `rows_by_col[c]` is the row of the queen in
    /// column `c`. Takes the vector as it is — 4 bytes a queen, nothing copied.
    pub fn from_permutation(rows_by_col: Vec<u32>) -> Result<Self, BoardError> {
        let n = u32::try_from(rows_by_col.len()).map_err(|_| BoardError::TooLarge)?;
        if n == 0 {
            return Err(BoardError::EmptyBoard { rows: 0, cols: 0 });
        }
        if let Some((col, &row)) = rows_by_col.iter().enumerate().find(|(_, row)| **row >= n) {
            return Err(BoardError::OffBoard {
                square: Square::new(row, col as u32),
                rows: n,
                cols: n,
            });
        }
        Ok(Board {
            rows: n,
            cols: n,
            placement: Placement::Columns(rows_by_col),
        })
    }

    /// Whether the board is stored as one row per column
    /// ([`from_permutation`](Self::from_permutation)), so that every column holds exactly one
    /// queen by construction.
    pub fn is_permutation_form(&self) -> bool {
        matches!(self.placement, Placement::Columns(_))
    }

    /// Number of ranks.
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Number of files.
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// The queens: in the order given, or column by column.
    pub fn queens(&self) -> Queens<'_> {
        match &self.placement {
            Placement::Squares(squares) => Queens::Squares(squares.iter()),
            Placement::Columns(rows) => Queens::Columns(rows.iter().zip(0..)),
        }
    }

    /// How many queens stand on the board.
    pub fn queen_count(&self) -> usize {
        match &self.placement {
            Placement::Squares(squares) => squares.len(),
            Placement::Columns(rows) => rows.len(),
        }
    }

    /// Whether a queen stands on `square`.
    pub fn has_queen(&self, square: Square) -> bool {
        match &self.placement {
            Placement::Squares(squares) => squares.contains(&square),
            Placement::Columns(rows) => rows.get(square.col as usize) == Some(&square.row),
        }
    }

    /// The queens sorted by row, then column: the order in which two boards compare equal as
    /// sets.
    pub fn sorted_queens(&self) -> Vec<Square> {
        let mut queens: Vec<Square> = self.queens().collect();
        queens.sort_unstable();
        queens
    }

    /// The row of each column's queen, if the board holds exactly one queen per column.
    pub fn permutation(&self) -> Option<std::borrow::Cow<'_, [u32]>> {
        match &self.placement {
            Placement::Columns(rows) => Some(std::borrow::Cow::Borrowed(rows)),
            Placement::Squares(_) => {
                let rows = self.rows_by_col()?;
                rows.into_iter()
                    .collect::<Option<Vec<u32>>>()
                    .map(std::borrow::Cow::Owned)
            }
        }
    }

    /// For each column, the row of its queen, or `None` for an empty column; `None` overall if
    /// some column holds two queens.
    pub fn rows_by_col(&self) -> Option<Vec<Option<u32>>> {
        let mut rows = vec![None; self.cols as usize];
        for queen in self.queens() {
            let slot = &mut rows[queen.col as usize];
            if slot.is_some() {
                return None;
            }
            *slot = Some(queen.row);
        }
        Some(rows)
    }
}

/// The queens of a [`Board`], as squares.
#[derive(Clone, Debug)]
pub enum Queens<'a> {
    /// From a list of squares.
    Squares(std::slice::Iter<'a, Square>),
    /// From one row per column.
    Columns(std::iter::Zip<std::slice::Iter<'a, u32>, std::ops::RangeFrom<u32>>),
}

impl Iterator for Queens<'_> {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        match self {
            Queens::Squares(squares) => squares.next().copied(),
            Queens::Columns(columns) => columns.next().map(|(&row, col)| Square::new(row, col)),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            Queens::Squares(squares) => squares.size_hint(),
            Queens::Columns(columns) => columns.size_hint(),
        }
    }
}

impl ExactSizeIterator for Queens<'_> {}

/// A board serializes as `{"rows", "cols", "queens": [{"row", "col"}, ...]}`, streaming the
/// queens.
impl Serialize for Board {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut board = serializer.serialize_struct("Board", 3)?;
        board.serialize_field("rows", &self.rows)?;
        board.serialize_field("cols", &self.cols)?;
        board.serialize_field("queens", &QueenList(self))?;
        board.end()
    }
}

/// A board's queens alone, serialized as a JSON list of squares without collecting them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueenList<'a>(pub &'a Board);

impl Serialize for QueenList<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.queens())
    }
}
