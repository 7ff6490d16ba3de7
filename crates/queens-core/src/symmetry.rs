//! The symmetries of the board and the canonical form of a position.
//!
//! A square board has the eight symmetries of the square (the dihedral group D4); a rectangular
//! one keeps the four that do not swap rows with columns. Two positions are the same up to
//! symmetry when they have the same [`canonical`] form, which is how "unique" solutions are
//! counted (OEIS A002562).

use crate::board::{Board, Square};

/// One symmetry of the board, acting on squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves every square where it is.
    Identity,
    /// A quarter turn clockwise (square boards only).
    Rotate90,
    /// A half turn.
    Rotate180,
    /// Three quarter turns clockwise (square boards only).
    Rotate270,
    /// Mirror left to right: file `a` ↔ the last file.
    MirrorFiles,
    /// Mirror top to bottom: rank 1 ↔ the last rank.
    MirrorRanks,
    /// Reflect in the a1–h8 diagonal, swapping rows and columns (square boards only).
    Transpose,
    /// Reflect in the a8–h1 diagonal (square boards only).
    AntiTranspose,
}

impl Symmetry {
    /// All eight symmetries, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::MirrorFiles,
        Symmetry::MirrorRanks,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Whether this symmetry maps an R×C board onto itself.
    pub fn preserves(self, rows: u32, cols: u32) -> bool {
        rows == cols
            || matches!(
                self,
                Symmetry::Identity
                    | Symmetry::Rotate180
                    | Symmetry::MirrorFiles
                    | Symmetry::MirrorRanks
            )
    }

    /// The symmetries that map an R×C board onto itself.
    pub fn of_board(rows: u32, cols: u32) -> impl Iterator<Item = Symmetry> {
        Symmetry::ALL
            .into_iter()
            .filter(move |s| s.preserves(rows, cols))
    }

    /// Where `square` goes on an R×C board. The symmetry must [`preserve`](Self::preserves)
    /// the board.
    pub fn apply(self, square: Square, rows: u32, cols: u32) -> Square {
        debug_assert!(self.preserves(rows, cols));
        let Square { row: r, col: c } = square;
        let (last_row, last_col) = (rows - 1, cols - 1);
        match self {
            Symmetry::Identity => square,
            Symmetry::Rotate90 => Square::new(c, last_row - r),
            Symmetry::Rotate180 => Square::new(last_row - r, last_col - c),
            Symmetry::Rotate270 => Square::new(last_col - c, r),
            Symmetry::MirrorFiles => Square::new(r, last_col - c),
            Symmetry::MirrorRanks => Square::new(last_row - r, c),
            Symmetry::Transpose => Square::new(c, r),
            Symmetry::AntiTranspose => Square::new(last_col - c, last_row - r),
        }
    }

    /// The image of a whole board. `None` if the symmetry does not preserve its shape.
    pub fn apply_board(self, board: &Board) -> Option<Board> {
        let (rows, cols) = (board.rows(), board.cols());
        if !self.preserves(rows, cols) {
            return None;
        }
        let queens = board.queens().map(|q| self.apply(q, rows, cols)).collect();
        Some(
            Board::with_queens(rows, cols, queens).expect("a symmetry is a bijection of the board"),
        )
    }
}

/// The sorted queen lists of `board`'s images under each of its symmetries.
fn sorted_images(board: &Board) -> impl Iterator<Item = Vec<Square>> + '_ {
    let (rows, cols) = (board.rows(), board.cols());
    Symmetry::of_board(rows, cols).map(move |s| {
        let mut queens: Vec<Square> = board.queens().map(|q| s.apply(q, rows, cols)).collect();
        queens.sort_unstable();
        queens
    })
}

/// The canonical form of a position: among its images under the board's symmetries, the one
/// whose sorted queen list is smallest. Queens come out sorted.
pub fn canonical(board: &Board) -> Board {
    let best = sorted_images(board)
        .min()
        .expect("the identity always applies");
    Board::with_queens(board.rows(), board.cols(), best)
        .expect("a symmetry is a bijection of the board")
}

/// How many distinct positions the symmetries make of `board`: 8, 4, 2 or 1 on a square board.
pub fn orbit_size(board: &Board) -> usize {
    let mut images: Vec<Vec<Square>> = sorted_images(board).collect();
    images.sort_unstable();
    images.dedup();
    images.len()
}
