//! The independent validator.
//!
//! Every answer a solver gives is checked here, by code that shares nothing with the solvers: the
//! queens are grouped by the four line keys (row, column, row − col, row + col) and every line
//! holding two or more queens is a conflict. That is O(M log M) for M queens, so it also checks
//! boards with millions of queens.

use std::collections::HashMap;

use serde::Serialize;

use crate::board::{Board, Line, Square};
use crate::notation::square_name;
use crate::problem::Problem;

/// Two queens that attack each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Conflict {
    /// The first queen (the smaller square).
    pub a: Square,
    /// The second queen.
    pub b: Square,
    /// The line they share.
    pub line: Line,
}

/// A line holding two or more queens.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CrowdedLine {
    /// Which kind of line.
    pub line: Line,
    /// Its queens, sorted.
    pub queens: Vec<Square>,
}

/// What the validator found on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    queens: usize,
    expected: usize,
    crowded: Vec<CrowdedLine>,
}

impl Verification {
    /// Lines holding more than one queen, by kind of line, then position.
    pub fn crowded_lines(&self) -> &[CrowdedLine] {
        &self.crowded
    }

    /// Every attacking pair, line by line.
    pub fn conflicts(&self) -> impl Iterator<Item = Conflict> + '_ {
        self.crowded.iter().flat_map(|crowded| {
            let queens = &crowded.queens;
            (0..queens.len()).flat_map(move |i| {
                queens[i + 1..].iter().map(move |&b| Conflict {
                    a: queens[i],
                    b,
                    line: crowded.line,
                })
            })
        })
    }

    /// The number of attacking pairs.
    pub fn conflict_count(&self) -> u64 {
        self.crowded
            .iter()
            .map(|c| {
                let k = c.queens.len() as u64;
                k * (k - 1) / 2
            })
            .sum()
    }

    /// Queens on the board.
    pub fn queen_count(&self) -> usize {
        self.queens
    }

    /// Queens a full solution holds: min(rows, cols).
    pub fn expected_count(&self) -> usize {
        self.expected
    }

    /// How many queens short of a full solution the board is.
    pub fn missing(&self) -> usize {
        self.expected.saturating_sub(self.queens)
    }

    /// No two queens attack each other.
    pub fn is_peaceful(&self) -> bool {
        self.crowded.is_empty()
    }

    /// Peaceful and holding min(rows, cols) queens.
    pub fn is_solution(&self) -> bool {
        self.is_peaceful() && self.queens == self.expected
    }
}

/// Checks `board`: which queens attack each other, and whether it is a full solution.
pub fn verify(board: &Board) -> Verification {
    let mut lines: HashMap<(Line, i64), Vec<Square>> = HashMap::new();
    for queen in board.queens() {
        let (r, c) = (i64::from(queen.row), i64::from(queen.col));
        for key in [
            (Line::Row, r),
            (Line::Column, c),
            (Line::Diagonal, r - c),
            (Line::AntiDiagonal, r + c),
        ] {
            lines.entry(key).or_default().push(queen);
        }
    }
    let mut crowded: Vec<((Line, i64), Vec<Square>)> =
        lines.into_iter().filter(|(_, q)| q.len() > 1).collect();
    crowded
        .sort_unstable_by_key(|((line, key), _)| (Line::ALL.iter().position(|l| l == line), *key));
    Verification {
        queens: board.queen_count(),
        expected: board.rows().min(board.cols()) as usize,
        crowded: crowded
            .into_iter()
            .map(|((line, _), mut queens)| {
                queens.sort_unstable();
                CrowdedLine { line, queens }
            })
            .collect(),
    }
}

/// Checks that `board` solves `problem`: same board size, the right number of queens, none
/// attacking another, every fixed queen present. The error says what is wrong.
///
/// One pass over the queens with a bit per line (about 6 bits per queen on a square board), so
/// it checks boards of millions of queens in milliseconds.
pub fn check_solution(problem: &Problem, board: &Board) -> Result<(), String> {
    if (board.rows(), board.cols()) != (problem.rows(), problem.cols()) {
        return Err(format!(
            "board is {}×{}, problem is {}×{}",
            board.rows(),
            board.cols(),
            problem.rows(),
            problem.cols()
        ));
    }
    if board.queen_count() != problem.queens() as usize {
        return Err(format!(
            "{} queens, expected {}",
            board.queen_count(),
            problem.queens()
        ));
    }
    let cols = board.cols();
    let mut lines = OccupiedLines::default();
    for queen in board.queens() {
        if let Some(line) = lines.occupy(queen) {
            let other = board
                .queens()
                .find(|&q| q != queen && q.shared_line(queen) == Some(line))
                .expect("an occupied line holds another queen");
            return Err(format!(
                "{} and {} attack each other along a {line}",
                square_name(other, cols),
                square_name(queen, cols),
            ));
        }
    }
    if let Some(&missing) = problem.fixed().iter().find(|&&q| !board.has_queen(q)) {
        return Err(format!(
            "fixed queen {} is missing",
            square_name(missing, cols)
        ));
    }
    Ok(())
}

/// A set of non-negative integers as bits, growing as needed.
#[derive(Clone, Debug, Default)]
struct Bits(Vec<u64>);

impl Bits {
    /// Adds `index`; returns whether it was already there.
    fn insert(&mut self, index: u64) -> bool {
        let (word, bit) = ((index / 64) as usize, 1u64 << (index % 64));
        if word >= self.0.len() {
            self.0.resize(word + 1, 0);
        }
        let present = self.0[word] & bit != 0;
        self.0[word] |= bit;
        present
    }
}

/// The rows, columns and diagonals holding a queen, a bit each.
#[derive(Clone, Debug, Default)]
struct OccupiedLines {
    rows: Bits,
    cols: Bits,
    /// Rising diagonals by `row − col`, non-negative and negative apart.
    diagonals: [Bits; 2],
    anti_diagonals: Bits,
}

impl OccupiedLines {
    /// Marks `queen`'s lines; returns the first that already held a queen.
    fn occupy(&mut self, queen: Square) -> Option<Line> {
        let (row, col) = (u64::from(queen.row), u64::from(queen.col));
        let diagonal = if row >= col {
            self.diagonals[0].insert(row - col)
        } else {
            self.diagonals[1].insert(col - row)
        };
        let taken = [
            (Line::Row, self.rows.insert(row)),
            (Line::Column, self.cols.insert(col)),
            (Line::Diagonal, diagonal),
            (Line::AntiDiagonal, self.anti_diagonals.insert(row + col)),
        ];
        taken
            .into_iter()
            .find(|&(_, taken)| taken)
            .map(|(line, _)| line)
    }
}

/// A queen that landed on a line already holding one, found while streaming.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Collision {
    /// The later queen.
    pub queen: Square,
    /// The line it shares with an earlier queen.
    pub line: Line,
}

/// Checks a permutation as it streams in, column by column, in O(1) memory per queen (a few
/// bits): for boards too large to hold, such as a million-queen `perm` file.
#[derive(Clone, Debug, Default)]
pub struct PermutationCheck {
    columns: u32,
    empty_columns: u64,
    /// The queen with the highest row so far.
    highest: Option<Square>,
    lines: OccupiedLines,
    collisions: u64,
    first_collisions: Vec<Collision>,
}

/// The verdict of a [`PermutationCheck`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PermutationReport {
    /// The board side: the number of columns read.
    pub n: u32,
    /// Queens read.
    pub queens: u64,
    /// Queens that landed on a line already holding a queen (0 for a peaceful board).
    pub collisions: u64,
    /// The first few of them.
    pub first_collisions: Vec<Collision>,
}

impl PermutationReport {
    /// N peaceful queens.
    pub fn is_solution(&self) -> bool {
        self.collisions == 0 && self.queens == u64::from(self.n)
    }

    /// Queens short of N.
    pub fn missing(&self) -> u64 {
        u64::from(self.n) - self.queens
    }
}

impl PermutationCheck {
    /// How many collisions are kept for the report.
    pub const KEPT: usize = 10;

    /// Adds the next column: the row of its queen, or `None` for an empty column.
    pub fn push(&mut self, row: Option<u32>) -> Result<(), crate::BoardError> {
        let col = self.columns;
        self.columns = self
            .columns
            .checked_add(1)
            .ok_or(crate::BoardError::TooLarge)?;
        let Some(row) = row else {
            self.empty_columns += 1;
            return Ok(());
        };
        let queen = Square::new(row, col);
        if self.highest.is_none_or(|highest| row > highest.row) {
            self.highest = Some(queen);
        }
        if let Some(line) = self.lines.occupy(queen) {
            self.collisions += 1;
            if self.first_collisions.len() < Self::KEPT {
                self.first_collisions.push(Collision { queen, line });
            }
        }
        Ok(())
    }

    /// The verdict, once every column is in. Fails if a row lies off the N×N board.
    pub fn finish(self) -> Result<PermutationReport, crate::BoardError> {
        let n = self.columns;
        if n == 0 {
            return Err(crate::BoardError::EmptyBoard { rows: 0, cols: 0 });
        }
        if let Some(square) = self.highest.filter(|highest| highest.row >= n) {
            return Err(crate::BoardError::OffBoard {
                square,
                rows: n,
                cols: n,
            });
        }
        Ok(PermutationReport {
            n,
            queens: u64::from(n) - self.empty_columns,
            collisions: self.collisions,
            first_collisions: self.first_collisions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streaming_agrees_with_the_full_validator() {
        for rows in [
            vec![1, 3, 0, 2],
            vec![0, 1, 2, 3],
            vec![0, 2, 4, 1, 3],
            vec![2, 0, 2],
        ] {
            let board = Board::from_permutation(rows.clone()).unwrap();
            let mut stream = PermutationCheck::default();
            for &row in &rows {
                stream.push(Some(row)).unwrap();
            }
            let report = stream.finish().unwrap();
            assert_eq!(
                report.is_solution(),
                verify(&board).is_solution(),
                "{rows:?}"
            );
            assert_eq!(
                report.collisions == 0,
                verify(&board).is_peaceful(),
                "{rows:?}"
            );
        }
    }

    #[test]
    fn check_solution_names_the_attacking_pair() {
        let problem = Problem::square(4).unwrap();
        let board = Board::from_permutation(vec![1, 3, 0, 3]).unwrap();
        assert_eq!(
            check_solution(&problem, &board),
            Err("b4 and d4 attack each other along a row".into())
        );
        let good = Board::from_permutation(vec![1, 3, 0, 2]).unwrap();
        assert_eq!(check_solution(&problem, &good), Ok(()));
    }
}
