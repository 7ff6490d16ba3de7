//! A position: the queens a user placed on an N×N board and the squares blocked for queens,
//! checked on the way in.

use queens_core::Square;
use queens_core::notation::square_name;
use queens_core::side::SideLimit;
use thiserror::Error;

/// The largest board the configurator analyses.
pub const MAX_N: u32 = 512;

/// The sides the configurator takes, 1 to [`MAX_N`], and its refusal of a larger one.
pub const SIDES: SideLimit = SideLimit::new(MAX_N, |most, got| {
    format!("the configurator works on boards of side 1 to {most}, not {got}")
});

/// Why a position or a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    /// The board size is outside `1..=MAX_N`.
    #[error("{}", SIDES.refusal(n))]
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
    /// A queen was placed on a blocked square.
    #[error("{square} is blocked: no queen may stand there")]
    Blocked {
        /// The square.
        square: String,
    },
    /// A square was blocked twice.
    #[error("{square} is already blocked")]
    AlreadyBlocked {
        /// The square.
        square: String,
    },
    /// A square to unblock is not blocked.
    #[error("{square} is not blocked")]
    NotBlocked {
        /// The square.
        square: String,
    },
}

/// Queens placed by the user on an N×N board (on the board, distinct, not attacking) and
/// squares no queen may take (an n-Queens Completion instance's, or the user's), none under a
/// queen.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    n: u32,
    queens: Vec<Square>,
    /// Sorted by row, then column.
    blocked: Vec<Square>,
}

impl Position {
    /// An empty N×N board.
    pub fn empty(n: u32) -> Result<Self, PositionError> {
        if !SIDES.takes(n) {
            return Err(PositionError::SizeOutOfRange { n, max: MAX_N });
        }
        Ok(Position {
            n,
            queens: Vec::new(),
            blocked: Vec::new(),
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

    /// An N×N board with `blocked` squares and then `queens` on it; a square named twice among
    /// the blocked ones counts once.
    pub fn with_blocked(
        n: u32,
        queens: impl IntoIterator<Item = Square>,
        blocked: impl IntoIterator<Item = Square>,
    ) -> Result<Self, PositionError> {
        let mut position = Position::empty(n)?;
        // Sorted once (not inserted one by one, which is quadratic in the blocked squares).
        let mut squares = Vec::new();
        for square in blocked {
            position.check_on_board(square)?;
            squares.push(square);
        }
        squares.sort_unstable();
        squares.dedup();
        position.blocked = squares;
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

    /// The blocked squares, by row and then column.
    pub fn blocked(&self) -> &[Square] {
        &self.blocked
    }

    /// Whether `square` is blocked.
    pub fn is_blocked(&self, square: Square) -> bool {
        self.blocked.binary_search(&square).is_ok()
    }

    /// Whether a user queen stands on `square`.
    pub fn has_queen(&self, square: Square) -> bool {
        self.queens.contains(&square)
    }

    /// The name of `square` on this board (algebraic up to 26 files, R1C1 beyond).
    pub fn name(&self, square: Square) -> String {
        square_name(square, self.n)
    }

    fn check_on_board(&self, square: Square) -> Result<(), PositionError> {
        if square.is_on(self.n, self.n) {
            Ok(())
        } else {
            Err(PositionError::OffBoard {
                square: square.to_string(),
                n: self.n,
            })
        }
    }

    /// Adds a queen; it must be on the board, on an empty square that is not blocked, and
    /// attack no other queen.
    pub fn place(&mut self, square: Square) -> Result<(), PositionError> {
        self.check_on_board(square)?;
        if self.is_blocked(square) {
            return Err(PositionError::Blocked {
                square: self.name(square),
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

    /// Blocks `square` for queens; it must be on the board, free of a queen and not blocked yet.
    pub fn block(&mut self, square: Square) -> Result<(), PositionError> {
        self.check_on_board(square)?;
        if self.has_queen(square) {
            return Err(PositionError::Occupied {
                square: self.name(square),
            });
        }
        match self.blocked.binary_search(&square) {
            Ok(_) => Err(PositionError::AlreadyBlocked {
                square: self.name(square),
            }),
            Err(at) => {
                self.blocked.insert(at, square);
                Ok(())
            }
        }
    }

    /// Takes the block off `square`.
    pub fn unblock(&mut self, square: Square) -> Result<(), PositionError> {
        let at = self
            .blocked
            .binary_search(&square)
            .map_err(|_| PositionError::NotBlocked {
                square: self.name(square),
            })?;
        self.blocked.remove(at);
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

    #[test]
    fn blocked_squares_keep_queens_off() {
        let d1 = Square::new(0, 3);
        let mut position =
            Position::with_blocked(8, [Square::new(1, 0)], [Square::new(7, 7), d1, d1]).unwrap();
        assert_eq!(position.blocked(), [d1, Square::new(7, 7)]);
        assert!(position.is_blocked(d1));
        assert_eq!(
            position.place(d1).unwrap_err().to_string(),
            "d1 is blocked: no queen may stand there"
        );
        assert_eq!(
            position.block(Square::new(1, 0)).unwrap_err().to_string(),
            "there is already a queen on a2"
        );
        assert!(matches!(
            position.block(d1),
            Err(PositionError::AlreadyBlocked { .. })
        ));
        position.unblock(d1).unwrap();
        assert!(position.unblock(d1).is_err());
        position.place(d1).unwrap();
        assert_eq!(position.queens().len(), 2);
    }
}
