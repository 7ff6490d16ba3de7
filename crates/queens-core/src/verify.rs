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
    for &queen in board.queens() {
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
        queens: board.queens().len(),
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
    if board.queens().len() != problem.queens() as usize {
        return Err(format!(
            "{} queens, expected {}",
            board.queens().len(),
            problem.queens()
        ));
    }
    let cols = board.cols();
    if let Some(conflict) = verify(board).conflicts().next() {
        return Err(format!(
            "{} and {} attack each other along a {}",
            square_name(conflict.a, cols),
            square_name(conflict.b, cols),
            conflict.line
        ));
    }
    if let Some(&missing) = problem.fixed().iter().find(|&&q| !board.has_queen(q)) {
        return Err(format!(
            "fixed queen {} is missing",
            square_name(missing, cols)
        ));
    }
    Ok(())
}
