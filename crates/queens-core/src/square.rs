//! Squares and the lines along which queens attack, and how a square is named.
//!
//! Row 0 is the bottom rank and column 0 the file `a`. A square is named algebraically (`d1`)
//! on boards up to 26 files wide and R1C1-style (`r1c4`) beyond, so that all squares of one
//! board are named alike. Reading names is [`notation`](crate::notation)'s job.

use std::fmt;

use serde::{Deserialize, Serialize};

/// One square of a board, 0-based; row 0 is the bottom rank, column 0 the file `a`.
///
/// In JSON a square is `{"row": r, "col": c}`, and nothing else: a field it does not have is
/// refused rather than dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Square {
    /// The rank, 0 at the bottom.
    pub row: u32,
    /// The file, 0 for `a`.
    pub col: u32,
}

/// A line along which two queens attack each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Line {
    /// The same rank.
    Row,
    /// The same file.
    Column,
    /// The same rising diagonal (row − col constant).
    Diagonal,
    /// The same falling diagonal (row + col constant).
    AntiDiagonal,
}

impl Line {
    /// All four lines, in the order they are reported.
    pub const ALL: [Line; 4] = [Line::Row, Line::Column, Line::Diagonal, Line::AntiDiagonal];

    /// A short human name: "row", "column", "diagonal", "anti-diagonal".
    pub fn name(self) -> &'static str {
        match self {
            Line::Row => "row",
            Line::Column => "column",
            Line::Diagonal => "diagonal",
            Line::AntiDiagonal => "anti-diagonal",
        }
    }

    /// The name after its indefinite article, as a sentence says it: "a row", "an
    /// anti-diagonal".
    pub fn with_article(self) -> &'static str {
        match self {
            Line::Row => "a row",
            Line::Column => "a column",
            Line::Diagonal => "a diagonal",
            Line::AntiDiagonal => "an anti-diagonal",
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Square {
    /// The square at `row`, `col` (0-based).
    pub const fn new(row: u32, col: u32) -> Self {
        Square { row, col }
    }

    /// The line this square shares with `other`, if a queen on one attacks a queen on the
    /// other (ignoring pieces in between, as in the N-Queens problem). A square shares no line
    /// with itself.
    pub fn shared_line(self, other: Square) -> Option<Line> {
        if self == other {
            None
        } else if self.row == other.row {
            Some(Line::Row)
        } else if self.col == other.col {
            Some(Line::Column)
        } else if self.row.abs_diff(other.row) == self.col.abs_diff(other.col) {
            if (self.row > other.row) == (self.col > other.col) {
                Some(Line::Diagonal)
            } else {
                Some(Line::AntiDiagonal)
            }
        } else {
            None
        }
    }

    /// Whether a queen here attacks a queen on `other`.
    pub fn attacks(self, other: Square) -> bool {
        self.shared_line(other).is_some()
    }

    /// Whether the square lies on an R×C board.
    pub fn is_on(self, rows: u32, cols: u32) -> bool {
        self.row < rows && self.col < cols
    }
}

/// The widest board whose squares are named algebraically.
pub const ALGEBRAIC_MAX_COLS: u32 = 26;

impl fmt::Display for Square {
    /// Algebraic when the file has a letter, R1C1 otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.col < ALGEBRAIC_MAX_COLS {
            write!(
                f,
                "{}{}",
                char::from(b'a' + self.col as u8),
                u64::from(self.row) + 1
            )
        } else {
            write!(
                f,
                "r{}c{}",
                u64::from(self.row) + 1,
                u64::from(self.col) + 1
            )
        }
    }
}

/// The file letters under a diagram of a board `cols` files wide (`"a b c d e f g h"`), or
/// `None` beyond 26 files, whose squares are named R1C1.
pub fn file_letters(cols: u32) -> Option<String> {
    (cols <= ALGEBRAIC_MAX_COLS).then(|| {
        (0..cols as u8)
            .map(|col| char::from(b'a' + col).to_string())
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// The name of `square` on a board `cols` files wide: algebraic up to 26 files, R1C1 beyond, so
/// that all squares of one board are named alike.
pub fn square_name(square: Square, cols: u32) -> String {
    if cols <= ALGEBRAIC_MAX_COLS {
        square.to_string()
    } else {
        format!(
            "r{}c{}",
            u64::from(square.row) + 1,
            u64::from(square.col) + 1
        )
    }
}
