//! A position: the queens a user placed on an N×N board, checked on the way in.

use queens_core::Square;
use queens_core::notation::square_name;
use thiserror::Error;

/// The largest board the configurator analyses.
pub const MAX_N: u32 = 512;

/// Why a position or a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The board size is outside `1..=MAX_N`.
    #[error("the configurator works on boards of side 1 to {max}, not {n}")]
    SizeOutOfRange {
        /// The side asked for.
        n: u32,
        /// The largest side.
        max: u32,
    },
    /// A square is not on the board.
    #[error("{square} is off the {n}×{n} board")]
    OffBoard {
        /// The square, named as on the board.
        square: String,
        /// The side of the board.
        n: u32,
    },
    /// Two queens attack each other.
    #[error("the queens on {first} and {second} attack each other")]
    Attacking {
        /// The first queen.
        first: String,
        /// The second queen.
        second: String,
    },
    /// A square holds two queens.
    #[error("there is already a queen on {square}")]
    Occupied {
        /// The square.
        square: String,
    },
    /// There is no user queen to remove on a square.
    #[error("there is no queen on {square} to remove")]
    NoQueen {
        /// The square.
        square: String,
    },
}

/// Queens placed by the user on an N×N board: on the board, distinct, not attacking.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    n: u32,
    queens: Vec<Square>,
}

impl Position {
    /// An empty N×N board.
    pub fn empty(n: u32) -> Result<Self, PositionError> {
        if n == 0 || n > MAX_N {
            return Err(PositionError::SizeOutOfRange { n, max: MAX_N });
        }
        Ok(Position {
            n,
            queens: Vec::new(),
        })
    }

    /// An N×N board with `queens` on it, in the order given.
    pub fn new(n: u32, queens: impl IntoIterator<Item = Square>) -> Result<Self, PositionError> {
        let mut position = Position::empty(n)?;
        for queen in queens {
            position.place(queen)?;
        }
        Ok(position)
    }

    /// The side of the board.
    pub fn side(&self) -> u32 {
        self.n
    }

    /// The user's queens, in the order they were placed.
    pub fn queens(&self) -> &[Square] {
        &self.queens
    }

    /// Whether a user queen stands on `square`.
    pub fn has_queen(&self, square: Square) -> bool {
        self.queens.contains(&square)
    }

    /// The name of `square` on this board (algebraic up to 26 files, R1C1 beyond).
    pub fn name(&self, square: Square) -> String {
        square_name(square, self.n)
    }

    /// Adds a queen; it must be on the board, on an empty square and attack no other queen.
    pub fn place(&mut self, square: Square) -> Result<(), PositionError> {
        if !square.is_on(self.n, self.n) {
            return Err(PositionError::OffBoard {
                square: square.to_string(),
                n: self.n,
            });
        }
        if self.has_queen(square) {
            return Err(PositionError::Occupied {
                square: self.name(square),
            });
        }
        if let Some(&other) = self.queens.iter().find(|other| other.attacks(square)) {
            return Err(PositionError::Attacking {
                first: self.name(other),
                second: self.name(square),
            });
        }
        self.queens.push(square);
        Ok(())
    }

    /// Removes the user queen on `square`.
    pub fn remove(&mut self, square: Square) -> Result<(), PositionError> {
        let index = self
            .queens
            .iter()
            .position(|&queen| queen == square)
            .ok_or_else(|| PositionError::NoQueen {
                square: self.name(square),
            })?;
        self.queens.remove(index);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_bad_positions_with_named_squares() {
        assert!(matches!(
            Position::empty(0),
            Err(PositionError::SizeOutOfRange { .. })
        ));
        let error = Position::new(8, [Square::new(0, 3), Square::new(3, 0)]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the queens on d1 and a4 attack each other"
        );
        let error = Position::new(8, [Square::new(8, 0)]).unwrap_err();
        assert_eq!(error.to_string(), "a9 is off the 8×8 board");
        let mut position = Position::new(8, [Square::new(0, 3)]).unwrap();
        assert!(position.place(Square::new(0, 3)).is_err());
        assert!(position.remove(Square::new(1, 1)).is_err());
        position.remove(Square::new(0, 3)).unwrap();
        assert!(position.queens().is_empty());
    }
}
