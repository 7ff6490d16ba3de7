//! The independent validator, in three forms that share nothing with the solvers and agree on
//! every board:
//!
//! - [`verify`] holds the board and groups its queens by the four line keys (row, column,
//!   row − col, row + col): every line with two or more queens is crowded, and the report
//!   names every attacking pair, the collisions, missing queens, fixed queens and blocked
//!   squares. O(M log M) for M queens.
//! - [`check_solution`] answers whether a held board solves its problem, and if not names one
//!   attacking pair: a bit per line, in huge pages, on two threads from 2²⁰ queens, so that it
//!   checks every answer of a billion-queen solve.
//! - [`PermutationCheck`] reads a permutation column by column as it streams, in a few bits a
//!   queen, for boards too large to hold.
//!
//! A *collision* is one meaning everywhere: for every line, its queens after the first, summed
//! over the lines, so a queen on two crowded lines counts twice; the permutation `0 1 0` has
//! three (its row, its falling diagonal and its rising diagonal each hold two queens).

use serde::Serialize;

use crate::board::{Board, Line, Square};

mod check;
mod streamed;

pub use check::{check_solution, sorting_bytes};
pub use streamed::{Collision, PermutationCheck, PermutationReport};

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

/// What a board's own problem asks of a solution beyond min(rows, cols) peaceful queens: how
/// many queens (`solve -m`), the squares whose queens are fixed, and the squares no queen may
/// take. `solve --format json` writes them beside the queens, so that `verify` judges a board
/// by the problem it was solved for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Constraints {
    /// The queens a solution holds; `None`: min(rows, cols).
    pub queen_count: Option<u32>,
    /// Squares that must hold a queen.
    pub fixed: Vec<Square>,
    /// Squares that must not.
    pub blocked: Vec<Square>,
    /// The board's size was not given but taken from its queens: the smallest square board
    /// holding them (a list of squares such as `d1,e7` says nothing of its board).
    pub size_from_queens: bool,
}

/// What the validator found on a board.
///
/// It keeps the queens once, sorted, and for each kind of line the indices of the queens on
/// crowded lines, grouped by line: at most [`VERIFY_BYTES_PER_QUEEN`] bytes a queen in all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verification {
    expected: usize,
    /// Fixed squares without a queen, sorted.
    unfixed: Vec<Square>,
    /// Queens on blocked squares, sorted.
    on_blocked: Vec<Square>,
    /// Every queen, sorted.
    queens: Vec<Square>,
    /// Per kind of line (in [`Line::ALL`] order): indices into `queens` of the queens on
    /// crowded lines, line after line, each line's sorted.
    crowded: [Vec<u32>; 4],
    /// Per kind of line: where each crowded line starts in `crowded`.
    starts: [Vec<u32>; 4],
}

/// The most memory [`verify`] takes for each queen of a board: the sorted queens (8 bytes),
/// the index being sorted (4), the crowded queens of the four kinds of line (16) and their
/// lines' starts (at most 8), with room to spare.
pub const VERIFY_BYTES_PER_QUEEN: u64 = 40;

impl Verification {
    /// The crowded lines, kind by kind ([`Line::ALL`] order), each kind by its line key.
    pub fn crowded_lines(&self) -> impl Iterator<Item = CrowdedLine> + '_ {
        self.groups().map(|(line, indices)| CrowdedLine {
            line,
            queens: indices.iter().map(|&i| self.queens[i as usize]).collect(),
        })
    }

    /// Each crowded line's kind and the indices of its queens.
    fn groups(&self) -> impl Iterator<Item = (Line, &[u32])> + '_ {
        Line::ALL.iter().enumerate().flat_map(move |(kind, &line)| {
            let (crowded, starts) = (&self.crowded[kind], &self.starts[kind]);
            (0..starts.len()).map(move |i| {
                let end = starts.get(i + 1).map_or(crowded.len(), |&e| e as usize);
                (line, &crowded[starts[i] as usize..end])
            })
        })
    }

    /// Every attacking pair, line by line.
    pub fn conflicts(&self) -> impl Iterator<Item = Conflict> + '_ {
        self.groups().flat_map(move |(line, indices)| {
            (0..indices.len()).flat_map(move |i| {
                indices[i + 1..].iter().map(move |&b| Conflict {
                    a: self.queens[indices[i] as usize],
                    b: self.queens[b as usize],
                    line,
                })
            })
        })
    }

    /// The number of attacking pairs.
    pub fn conflict_count(&self) -> u64 {
        self.groups()
            .map(|(_, indices)| {
                let k = indices.len() as u64;
                k * (k - 1) / 2
            })
            .sum()
    }

    /// Queens on the board.
    pub fn queen_count(&self) -> usize {
        self.queens.len()
    }

    /// The same findings for a board meant to hold `queens` queens rather than min(rows, cols):
    /// M queens on an R×C board.
    #[must_use]
    pub fn expecting(mut self, queens: usize) -> Self {
        self.expected = queens;
        self
    }

    /// The same findings judged by a problem's `constraints`: its queen count (when it gives
    /// one), its fixed squares (each must hold a queen) and its blocked squares (none may).
    #[must_use]
    pub fn within(mut self, constraints: &Constraints) -> Self {
        if let Some(queens) = constraints.queen_count {
            self.expected = queens as usize;
        }
        let has_queen = |square: &Square| self.queens.binary_search(square).is_ok();
        let mut unfixed: Vec<Square> = constraints
            .fixed
            .iter()
            .filter(|square| !has_queen(square))
            .copied()
            .collect();
        let mut on_blocked: Vec<Square> = constraints
            .blocked
            .iter()
            .filter(|square| has_queen(square))
            .copied()
            .collect();
        unfixed.sort_unstable();
        unfixed.dedup();
        on_blocked.sort_unstable();
        on_blocked.dedup();
        self.unfixed = unfixed;
        self.on_blocked = on_blocked;
        self
    }

    /// Fixed squares (of [`within`](Verification::within)'s constraints) without a queen.
    pub fn unfixed(&self) -> &[Square] {
        &self.unfixed
    }

    /// Queens standing on blocked squares.
    pub fn on_blocked(&self) -> &[Square] {
        &self.on_blocked
    }

    /// The queens meant to be on the board: min(rows, cols) unless
    /// [`expecting`](Verification::expecting) said otherwise.
    pub fn expected(&self) -> usize {
        self.expected
    }

    /// Collisions: for every line, its queens after the first, summed over the lines (a queen
    /// on two crowded lines counts twice). The streamed [`PermutationCheck`] counts the same, so
    /// the number does not depend on how a board was read.
    pub fn collisions(&self) -> u64 {
        self.groups()
            .map(|(_, indices)| indices.len() as u64 - 1)
            .sum()
    }

    /// The first `limit` collisions in the order a column-by-column reading finds them, as
    /// [`PermutationCheck`] does: each crowded line's queens after its first (the first by
    /// column, then row), by column, then row, then kind of line ([`Line::ALL`] order). Kept in
    /// a heap of `limit`, so a board with millions of collisions costs no memory for them.
    pub fn first_collisions(&self, limit: usize) -> Vec<Collision> {
        if limit == 0 {
            return Vec::new();
        }
        let by_reading = |queen: Square| (queen.col, queen.row);
        let mut kept: std::collections::BinaryHeap<((u32, u32), usize)> =
            std::collections::BinaryHeap::with_capacity(limit.saturating_add(1).min(1 << 16));
        for (line, indices) in self.groups() {
            let kind = Line::ALL.iter().position(|&l| l == line).unwrap_or(0);
            let queens = indices.iter().map(|&i| self.queens[i as usize]);
            let first = queens.clone().min_by_key(|&q| by_reading(q));
            for queen in queens.filter(|&q| Some(q) != first) {
                kept.push((by_reading(queen), kind));
                if kept.len() > limit {
                    kept.pop();
                }
            }
        }
        kept.into_sorted_vec()
            .into_iter()
            .map(|((col, row), kind)| Collision {
                queen: Square::new(row, col),
                line: Line::ALL[kind],
            })
            .collect()
    }

    /// How many queens short of a full solution the board is.
    pub fn missing(&self) -> usize {
        self.expected.saturating_sub(self.queens.len())
    }

    /// No two queens attack each other.
    pub fn is_peaceful(&self) -> bool {
        self.starts.iter().all(Vec::is_empty)
    }

    /// Peaceful, holding the queens expected (min(rows, cols) unless told otherwise), every
    /// fixed square taken and no blocked one.
    pub fn is_solution(&self) -> bool {
        self.is_peaceful()
            && self.queens.len() == self.expected
            && self.unfixed.is_empty()
            && self.on_blocked.is_empty()
    }
}

/// The key of `queen`'s line of kind `line`.
fn line_key(queen: Square, line: Line) -> i64 {
    let (r, c) = (i64::from(queen.row), i64::from(queen.col));
    match line {
        Line::Row => r,
        Line::Column => c,
        Line::Diagonal => r - c,
        Line::AntiDiagonal => r + c,
    }
}

/// Checks `board`: which queens attack each other, and whether it is a full solution.
///
/// The queens are sorted once; for each kind of line their indices are sorted by line key and
/// every run of two or more is a crowded line. O(M log M) time and at most
/// [`VERIFY_BYTES_PER_QUEEN`] bytes a queen, so boards of tens of millions of queens check in
/// seconds.
pub fn verify(board: &Board) -> Verification {
    let mut queens: Vec<Square> = board.queens().collect();
    queens.sort_unstable();
    let mut order: Vec<u32> = Vec::new();
    let mut crowded: [Vec<u32>; 4] = Default::default();
    let mut starts: [Vec<u32>; 4] = Default::default();
    for (kind, &line) in Line::ALL.iter().enumerate() {
        order.clear();
        order.extend(0..queens.len() as u32);
        // Stable by index within a line, so that each line's queens stay sorted.
        order.sort_by_key(|&i| line_key(queens[i as usize], line));
        let mut run = 0;
        while run < order.len() {
            let key = line_key(queens[order[run] as usize], line);
            let end = run
                + order[run..]
                    .iter()
                    .take_while(|&&i| line_key(queens[i as usize], line) == key)
                    .count();
            if end - run > 1 {
                starts[kind].push(crowded[kind].len() as u32);
                crowded[kind].extend_from_slice(&order[run..end]);
            }
            run = end;
        }
        crowded[kind].shrink_to_fit();
        starts[kind].shrink_to_fit();
    }
    Verification {
        expected: board.rows().min(board.cols()) as usize,
        unfixed: Vec::new(),
        on_blocked: Vec::new(),
        queens,
        crowded,
        starts,
    }
}

#[cfg(test)]
mod tests {
    use super::check::{LINE_ORDER, SPLIT_FROM, any_shared, first_collision, first_on_lines};
    use super::*;
    use crate::problem::Problem;

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

    /// The explicit solution for N ≡ 4 (mod 6): rows 1, 3, 5, … then 0, 2, 4, ….
    pub(super) fn large_solution(n: u32) -> Vec<u32> {
        assert_eq!(n % 6, 4);
        (0..n)
            .map(|c| {
                if c < n / 2 {
                    2 * c + 1
                } else {
                    2 * (c - n / 2)
                }
            })
            .collect()
    }

    #[test]
    fn large_boards_are_checked_in_halves_and_across_them() {
        let n = (SPLIT_FROM as u32 + 6) / 6 * 6 + 4;
        let problem = Problem::square(n).unwrap();
        let rows = large_solution(n);
        assert_eq!(
            check_solution(&problem, &Board::from_permutation(rows.clone()).unwrap()),
            Ok(())
        );
        // A conflict inside the second half.
        let mut inside = rows.clone();
        inside[(n - 1) as usize] = inside[(n - 2) as usize];
        let error =
            check_solution(&problem, &Board::from_permutation(inside).unwrap()).unwrap_err();
        assert!(error.ends_with("along a row"), "{error}");
        // A conflict between the halves only: the last column repeats the first column's row.
        let mut across = rows;
        across[(n - 1) as usize] = across[0];
        let error =
            check_solution(&problem, &Board::from_permutation(across).unwrap()).unwrap_err();
        assert_eq!(
            error,
            format!("r2c1 and r2c{n} attack each other along a row")
        );
    }

    proptest::proptest! {
        /// The sorted check of one kind of line sees a shared line exactly when the ordered
        /// pass finds one, on rectangles and permutations alike.
        #[test]
        fn sorting_finds_a_shared_line_when_the_ordered_pass_does(
            (rows, cols, picks) in proptest::strategy::Strategy::prop_flat_map((1u32..40, 1u32..40), |(rows, cols)| {
                (
                    proptest::strategy::Just(rows),
                    proptest::strategy::Just(cols),
                    proptest::collection::vec((0..rows, 0..cols), 0..30),
                )
            }),
            permutation in proptest::collection::vec(0u32..25, 1..25),
        ) {
            let mut squares: Vec<Square> =
                picks.into_iter().map(|(row, col)| Square::new(row, col)).collect();
            squares.sort_unstable();
            squares.dedup();
            let scattered = Board::with_queens(rows, cols, squares).unwrap();
            let n = permutation.len() as u32;
            let permutation: Vec<u32> = permutation.into_iter().map(|row| row % n).collect();
            let permuted = Board::from_permutation(permutation).unwrap();
            for board in [&scattered, &permuted] {
                for line in Line::ALL {
                    proptest::prop_assert_eq!(
                        any_shared(board, line),
                        first_on_lines(board, &[line]).is_some(),
                        "{:?} on {:?}", line, board
                    );
                }
            }
        }
    }

    #[test]
    fn two_threads_name_the_collision_one_pass_names() {
        let n = (SPLIT_FROM as u32 + 6) / 6 * 6 + 4;
        let rows = large_solution(n);
        let last = n as usize - 1;
        // Swapped rows crowd diagonals; a repeated row crowds a row and may crowd diagonals too.
        let boards: Vec<Vec<u32>> = [(0, 1), (5, last), (last - 3, last), (n as usize / 2, 7)]
            .into_iter()
            .map(|(a, b)| {
                let mut swapped = rows.clone();
                swapped.swap(a, b);
                swapped
            })
            .chain([(3, 4), (last, 1)].into_iter().map(|(to, from)| {
                let mut repeated = rows.clone();
                repeated[to] = repeated[from];
                repeated
            }))
            .collect();
        for rows in boards {
            let board = Board::from_permutation(rows).unwrap();
            let one_pass =
                first_on_lines(&board, &LINE_ORDER).map(|(_, queen, line)| (queen, line));
            assert!(one_pass.is_some());
            assert_eq!(first_collision(&board), one_pass);
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
